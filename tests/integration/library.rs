//! The embedding example (`examples/embed.rs`), compiled into the tests and run on the seed
//! models: it must solve, prove and check through the public API alone.

#[allow(dead_code)] // its `main` is the example's, not the tests'
#[path = "../../examples/embed.rs"]
mod embed;

use crate::common::models;

fn embedded(model: &str, backend: &str) -> String {
    let mut out = Vec::new();
    embed::run(&models().join(model), backend, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn the_example_solves_proves_and_checks_eight_queens_with_every_backend() {
    for backend in ["sat", "milp", "native"] {
        let out = embedded("queens-8.toml", backend);
        assert_eq!(out.lines().filter(|l| l.contains('Q')).count(), 8, "{out}");
        assert!(
            out.contains(&format!("\noptimal 8 by {backend}: ")),
            "{out}"
        );
        assert!(
            out.contains("\nok: cnf.dimacs: identical to the CNF rebuilt"),
            "{out}"
        );
        assert!(
            out.ends_with("\ncertified: 8 is the optimum of model.toml\n"),
            "{out}"
        );
    }
}

#[test]
fn the_example_certifies_the_impossible_dissection_and_refuses_an_unknown_backend() {
    let out = embedded("halves-impossible.toml", "native");
    assert!(out.starts_with("unsatisfiable by native: "), "{out}");
    assert!(
        out.ends_with("\ncertified: model.toml has no solution\n"),
        "{out}"
    );
    let mut sink = Vec::new();
    let error = embed::run(&models().join("queens-8.toml"), "cplex", &mut sink).unwrap_err();
    assert_eq!(error.to_string(), "no backend \"cplex\"");
}
