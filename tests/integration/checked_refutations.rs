//! External refutations are checked, not taken on the solver's word: CaDiCaL's DRAT proofs
//! pass puzzlec's checker before "optimal" or "impossible" is claimed, a solver that lies
//! about UNSATISFIABLE is caught, and a solver that gives no proof is marked unchecked.
//!
//! Tests that need `cadical` print "SKIPPED in TEST: not installed: cadical ..." without it
//! (the shared `common::cadical_or_skip`); with `PUZZLEC_REQUIRE_EXTERNAL=1` they fail
//! instead.

use crate::common;

use common::{models, puzzlec, script};
use std::path::Path;

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
    let solver = format!("{} {{cnf}} {{proof}}", liar);
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
    let run = solve(&silent);
    assert_eq!(run.code, 20, "{}", run.stderr);
    assert!(
        evidence(&run.stdout).ends_with("; 1 run, 0 cuts; refutation not checked)"),
        "{}",
        run.stdout
    );
    // A `{proof}` promised but not written: an error, not an unchecked claim.
    let run = solve(&format!("{} {{cnf}} {{proof}}", silent));
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.starts_with(
            "error: sat:silent.sh: silent.sh answered UNSATISFIABLE but wrote no proof to "
        ),
        "{}",
        run.stderr
    );
}

/// `prove MODEL -o DIR --solver SOLVER`, run in `models/`.
fn prove_with_solver(model: &Path, dir: &Path, solver: &str) -> common::Run {
    puzzlec(
        &models(),
        &[
            "prove",
            model.to_str().unwrap(),
            "-o",
            dir.to_str().unwrap(),
            "--solver",
            solver,
        ],
    )
}

/// `prove --solver cadical MODEL -o DIR`, then `check DIR`: both must succeed; the check's
/// stdout.
fn prove_and_check_with_cadical(model: &str, dir: &Path, answer: &str) -> String {
    let run = prove_with_solver(&models().join(model), dir, "cadical");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with(answer), "{}", run.stdout);
    assert!(run.stdout.contains("proof.drat"), "{}", run.stdout);
    assert!(!run.stdout.contains("proof.lrat"), "{}", run.stdout);
    let manifest = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    assert!(manifest.contains("puzzlec's DRAT checker"), "{manifest}");
    assert!(manifest.contains("cadical"), "{manifest}");
    let check = puzzlec(&models(), &["check", dir.to_str().unwrap()]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
    assert!(
        check
            .stdout
            .contains("ok: proof.drat: refutes cnf.dimacs (puzzlec's DRAT checker: "),
        "{}",
        check.stdout
    );
    check.stdout
}

#[test]
fn prove_with_cadical_writes_a_certificate_whose_drat_proof_is_checked() {
    if !common::cadical_or_skip(module_path!()) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("board");
    let checked = prove_and_check_with_cadical("obstacle-queens.toml", &board, "optimal 20:");
    assert!(
        checked.contains("certified: 20 is the optimum"),
        "{checked}"
    );
    // With cuts of connected parts, found by the cut loop over cadical.
    let halves = dir.path().join("halves");
    let checked = prove_and_check_with_cadical("halves-impossible.toml", &halves, "unsatisfiable:");
    assert!(checked.contains("ok: cuts.txt"), "{checked}");
    // A CNF that refutes itself (at least 9 queens on 8 rows): the proof is the empty clause.
    let eight = dir.path().join("eight");
    let checked = prove_and_check_with_cadical("queens-8.toml", &eight, "optimal 8:");
    assert!(checked.contains("certified: 8 is the optimum"), "{checked}");

    // A proof that is edited, with its hash edited to match, is rejected by the checker.
    let proof_path = board.join("proof.drat");
    let proof = std::fs::read_to_string(&proof_path).unwrap();
    let cut = proof.lines().take(3).collect::<Vec<_>>().join("\n") + "\n0\n";
    std::fs::write(&proof_path, &cut).unwrap();
    common::rehash(&board, "proof.drat");
    let check = puzzlec(&models(), &["check", board.to_str().unwrap()]);
    assert_eq!(check.code, 1, "{}", check.stdout);
    assert!(
        check
            .stderr
            .contains("proof.drat does not refute cnf.dimacs (puzzlec's DRAT checker)"),
        "{}",
        check.stderr
    );
}

#[test]
fn prove_refuses_a_solver_that_writes_no_proof_and_catches_a_lying_one() {
    if !common::cadical_or_skip(module_path!()) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let model = models().join("obstacle-queens.toml");
    let out = dir.path().join("cert");
    let run = prove_with_solver(&model, &out, "cadical -q {cnf}");
    assert_eq!(
        run.code, 0,
        "cadical with {{cnf}} still gets a proof file: {}",
        run.stderr
    );
    if common::programs_or_skip(module_path!(), &[("minisat", "minisat")]) {
        let run = prove_with_solver(&model, &out, "minisat");
        assert_eq!(run.code, 2);
        assert_eq!(
            run.stderr,
            "error: --solver minisat: minisat writes no proof; a certificate needs a command \
             that names {proof} (cadical is given `--no-binary {proof}` by puzzlec)\n"
        );
    }
    let run = prove_with_solver(&model, &out, "cbc");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: --solver cbc: prove needs a SAT solver that writes DRAT proofs, such as cadical\n"
    );
    // Answers UNSATISFIABLE to everything, with an empty proof.
    let liar = script(
        dir.path(),
        "liar",
        "echo 's UNSATISFIABLE'; : > \"$2\"; exit 20\n",
    );
    let run = prove_with_solver(&model, &out, &format!("{} {{cnf}} {{proof}}", liar));
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("answered UNSATISFIABLE, but its DRAT proof fails puzzlec's check"),
        "{}",
        run.stderr
    );
    // The answer failed before anything was written: the former certificate still stands.
    let check = puzzlec(&models(), &["check", out.to_str().unwrap()]);
    assert_eq!(check.code, 0, "{}", check.stderr);
}
