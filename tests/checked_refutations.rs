//! External refutations are checked, not taken on the solver's word: CaDiCaL's DRAT proofs
//! pass puzzlec's checker before "optimal" or "impossible" is claimed, a solver that lies
//! about UNSATISFIABLE is caught, and a solver that gives no proof is marked unchecked.
//!
//! Tests that need `cadical` print "SKIPPED in TEST: not installed: cadical ..." without it
//! (the shared `common::cadical_or_skip`); with `PUZZLEC_REQUIRE_EXTERNAL=1` they fail
//! instead.

mod common;

use common::{models, puzzlec};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// Writes an executable shell script `name` with `body` into `dir`.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// The JSON `evidence` of a `--json` run.
fn evidence(stdout: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(stdout).unwrap();
    value["evidence"].as_str().unwrap().to_string()
}

/// Whether `text` says "refutation checked (DRAT, N lemmas)" for some N > 0.
fn says_checked(text: &str) -> bool {
    text.split("refutation checked (DRAT, ")
        .nth(1)
        .and_then(|rest| rest.split_once(" lemmas)"))
        .and_then(|(n, _)| n.parse::<usize>().ok())
        .is_some_and(|n| n > 0)
}

#[test]
fn cadical_refutation_of_an_impossible_dissection_is_checked() {
    if !common::cadical_or_skip(module_path!()) {
        return;
    }
    let model = models().join("halves-impossible.toml");
    let run = puzzlec(
        &models(),
        &["solve", model.to_str().unwrap(), "--solver", "cadical"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "unsatisfiable\n");
    assert!(
        run.stderr.starts_with("unsatisfiable by sat:cadical in "),
        "{}",
        run.stderr
    );
    assert!(says_checked(&run.stderr), "{}", run.stderr);
    let run = puzzlec(
        &models(),
        &[
            "solve",
            model.to_str().unwrap(),
            "--solver",
            "cadical",
            "--json",
        ],
    );
    assert!(says_checked(&evidence(&run.stdout)), "{}", run.stdout);
}

#[test]
fn cadical_refutation_of_at_least_21_on_the_contest_board_is_checked() {
    if !common::cadical_or_skip(module_path!()) {
        return;
    }
    let model = models().join("obstacle-queens.toml");
    let args = [
        "solve",
        model.to_str().unwrap(),
        "--solver",
        "cadical",
        "--at-least",
        "21",
    ];
    let run = puzzlec(&models(), &args);
    assert_eq!(run.code, 20, "{}", run.stderr);
    let prefix = "cadical reported \"at least 21\" unsatisfiable (totalizer over 22 at-most-one \
                  group indicators (of 178 objective literals); 1 run, 0 cuts; refutation \
                  checked (DRAT, ";
    assert!(run.stderr.contains(prefix), "{}", run.stderr);
    assert!(says_checked(&run.stderr), "{}", run.stderr);
    let run = puzzlec(&models(), &[&args[..], &["--json"]].concat());
    assert_eq!(run.code, 20, "{}", run.stderr);
    let evidence = evidence(&run.stdout);
    assert!(evidence.starts_with(prefix), "{evidence}");
    assert!(evidence.ends_with(" lemmas))"), "{evidence}");
}

#[test]
fn a_solver_lying_about_unsatisfiable_is_caught_by_its_proof() {
    let tmp = tempfile::tempdir().unwrap();
    // Says UNSATISFIABLE and writes a "proof" whose empty clause follows from nothing.
    let liar = script(
        tmp.path(),
        "liar.sh",
        "echo 's UNSATISFIABLE'\nprintf '1 2 0\\n0\\n' > \"$2\"\nexit 20\n",
    );
    let model = models().join("obstacle-queens.toml");
    let solver = format!("{} {{cnf}} {{proof}}", liar.display());
    let run = puzzlec(
        tmp.path(),
        &[
            "solve",
            model.to_str().unwrap(),
            "--solver",
            &solver,
            "--at-least",
            "21",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "error: sat:liar.sh: liar.sh answered UNSATISFIABLE, but its DRAT proof fails \
         puzzlec's check: proof line 2: the empty clause is not implied: unit propagation on \
         the active clauses finds no conflict\n"
    );
}

#[test]
fn a_solver_without_a_proof_is_marked_unchecked_or_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let silent = script(tmp.path(), "silent.sh", "echo 's UNSATISFIABLE'\nexit 20\n");
    let model = models().join("obstacle-queens.toml");
    let solve = |solver: &str| {
        puzzlec(
            tmp.path(),
            &[
                "solve",
                model.to_str().unwrap(),
                "--solver",
                solver,
                "--at-least",
                "21",
                "--json",
            ],
        )
    };
    // No `{proof}`: nothing to check, and the evidence says so.
    let run = solve(&silent.display().to_string());
    assert_eq!(run.code, 20, "{}", run.stderr);
    assert!(
        evidence(&run.stdout).ends_with("; 1 run, 0 cuts; refutation not checked)"),
        "{}",
        run.stdout
    );
    // A `{proof}` promised but not written: an error, not an unchecked claim.
    let run = solve(&format!("{} {{cnf}} {{proof}}", silent.display()));
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.starts_with(
            "error: sat:silent.sh: silent.sh answered UNSATISFIABLE but wrote no proof to "
        ),
        "{}",
        run.stderr
    );
}
