//! Certificates end to end: varisat refutes, our LRAT checker and varisat's checker both accept,
//! and tampered proofs or formulas are rejected for the right reason.

use std::time::Instant;

use proptest::prelude::*;
use puzzlec::cert::refute::{check_with_varisat, refute, Refutation, SolverProofFormat};
use puzzlec::checkers::lrat::{check_lrat, LratError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// PHP(pigeons, holes): every pigeon sits in a hole, no hole holds two pigeons.
/// Variable `pigeon * holes + hole + 1` says the pigeon sits in the hole.
fn pigeonhole(pigeons: usize, holes: usize) -> (usize, Vec<Vec<i32>>) {
    let var = |pigeon: usize, hole: usize| (pigeon * holes + hole + 1) as i32;
    let mut cnf: Vec<Vec<i32>> = (0..pigeons)
        .map(|pigeon| (0..holes).map(|hole| var(pigeon, hole)).collect())
        .collect();
    for hole in 0..holes {
        for first in 0..pigeons {
            for second in first + 1..pigeons {
                cnf.push(vec![-var(first, hole), -var(second, hole)]);
            }
        }
    }
    (pigeons * holes, cnf)
}

/// Both proof streams of one varisat run.
struct Proofs {
    outcome: Refutation,
    native: Vec<u8>,
    lrat: String,
}

fn solve(num_vars: usize, cnf: &[Vec<i32>]) -> Proofs {
    let (mut native, mut lrat) = (Vec::new(), Vec::new());
    let outcome = refute(
        num_vars,
        cnf,
        SolverProofFormat::Varisat,
        &mut native,
        &mut lrat,
    )
    .expect("varisat runs");
    let lrat = String::from_utf8(lrat).expect("textual LRAT is UTF-8");
    Proofs {
        outcome,
        native,
        lrat,
    }
}

/// Whether some assignment satisfies every clause, by trying them all.
fn brute_force_satisfiable(num_vars: usize, cnf: &[Vec<i32>]) -> bool {
    (0u32..1 << num_vars).any(|bits| {
        cnf.iter().all(|clause| {
            clause.iter().any(|&literal| {
                let value = bits >> (literal.unsigned_abs() - 1) & 1 == 1;
                value == (literal > 0)
            })
        })
    })
}

fn is_rup_failure(error: &LratError) -> bool {
    matches!(
        error,
        LratError::HintNotUnit { .. } | LratError::NoConflict { .. }
    )
}

#[test]
fn pigeonhole_refutations_pass_both_checkers() {
    for holes in 3..=6 {
        let (num_vars, cnf) = pigeonhole(holes + 1, holes);
        let proofs = solve(num_vars, &cnf);
        assert_eq!(
            proofs.outcome,
            Refutation::Unsatisfiable,
            "PHP({}, {holes})",
            holes + 1
        );
        let stats = check_lrat(num_vars, &cnf, &proofs.lrat)
            .unwrap_or_else(|error| panic!("PHP({}, {holes}): {error}", holes + 1));
        assert!(stats.additions > 0 && stats.empty_clause_line > 0);
        check_with_varisat(num_vars, &cnf, &proofs.native[..]).unwrap();
    }
}

#[test]
fn a_drat_proof_is_written_as_text_and_ends_with_the_empty_clause() {
    let (num_vars, cnf) = pigeonhole(4, 3);
    let (mut drat, mut lrat) = (Vec::new(), Vec::new());
    let outcome = refute(
        num_vars,
        &cnf,
        SolverProofFormat::DratText,
        &mut drat,
        &mut lrat,
    );
    assert_eq!(outcome.unwrap(), Refutation::Unsatisfiable);
    let drat = String::from_utf8(drat).unwrap();
    assert!(drat.lines().any(|line| line.trim() == "0"), "{drat}");
    check_lrat(num_vars, &cnf, std::str::from_utf8(&lrat).unwrap()).unwrap();
}

#[test]
fn a_satisfiable_formula_returns_a_model_and_no_refutation() {
    let (num_vars, cnf) = pigeonhole(4, 4);
    let proofs = solve(num_vars, &cnf);
    let Refutation::Satisfiable { model } = proofs.outcome else {
        panic!("PHP(4, 4) is satisfiable");
    };
    assert_eq!(model.len(), num_vars);
    for clause in &cnf {
        assert!(
            clause.iter().any(|literal| model.contains(literal)),
            "{clause:?}"
        );
    }
    assert_eq!(
        check_lrat(num_vars, &cnf, &proofs.lrat),
        Err(LratError::NoEmptyClause)
    );
    assert!(check_with_varisat(num_vars, &cnf, &proofs.native[..]).is_err());
}

/// The textual LRAT of PHP(4, 3), split in lines, with the line index of every addition.
fn php_4_3_lines() -> (usize, Vec<Vec<i32>>, Vec<String>) {
    let (num_vars, cnf) = pigeonhole(4, 3);
    let proofs = solve(num_vars, &cnf);
    let lines = proofs.lrat.lines().map(str::to_owned).collect();
    (num_vars, cnf, lines)
}

fn is_addition(line: &str) -> bool {
    line.split_whitespace().nth(1) != Some("d")
}

#[test]
fn flipping_a_literal_breaks_the_rup_check_of_that_line() {
    let (num_vars, cnf, lines) = php_4_3_lines();
    let mut failed_at_tampered_line = 0;
    for index in 0..lines.len() {
        let mut tokens: Vec<String> = lines[index].split_whitespace().map(str::to_owned).collect();
        if !is_addition(&lines[index]) || tokens[1] == "0" {
            continue;
        }
        // A flip of a literal that no hint needs leaves a weaker, still implied clause, which
        // is rightly accepted; so we only ask that some flips fail, each at its own line.
        tokens[1] = (-tokens[1].parse::<i32>().unwrap()).to_string();
        let mut tampered = lines.clone();
        tampered[index] = tokens.join(" ");
        if let Err(error) = check_lrat(num_vars, &cnf, &tampered.join("\n")) {
            match error {
                LratError::HintNotUnit { line, .. } | LratError::NoConflict { line, .. }
                    if line == index + 1 =>
                {
                    failed_at_tampered_line += 1
                }
                _ => assert!(is_rup_failure(&error), "line {}: {error}", index + 1),
            }
        }
    }
    assert!(failed_at_tampered_line > 0);
}

#[test]
fn deleting_a_hint_breaks_the_rup_check_of_that_line() {
    let (num_vars, cnf, lines) = php_4_3_lines();
    let mut tampered_lines = 0;
    for index in 0..lines.len() {
        if !is_addition(&lines[index]) {
            continue;
        }
        let (literals, hints) = lines[index].split_once(" 0 ").unwrap();
        let hints: Vec<&str> = hints.split_whitespace().collect();
        if hints.len() < 3 {
            continue;
        }
        // varisat lists only the hints its conflict needs, so dropping any one of them fails.
        let mut tampered = lines.clone();
        tampered[index] = format!("{literals} 0 {}", hints[1..].join(" "));
        let error = check_lrat(num_vars, &cnf, &tampered.join("\n")).unwrap_err();
        assert!(is_rup_failure(&error), "{error}");
        assert_eq!(
            error.to_string().split(':').next(),
            Some(&*format!("line {}", index + 1))
        );
        tampered_lines += 1;
    }
    assert!(tampered_lines > 0);
}

#[test]
fn dropping_a_formula_clause_leaves_a_reference_to_an_unknown_clause() {
    let (num_vars, mut cnf, lines) = php_4_3_lines();
    // PHP is minimally unsatisfiable, so every refutation uses its last clause.
    cnf.pop();
    let error = check_lrat(num_vars, &cnf, &lines.join("\n")).unwrap_err();
    assert!(
        matches!(
            error,
            LratError::UnknownHint { .. } | LratError::UnknownDeletion { .. }
        ),
        "{error}"
    );
}

#[test]
fn a_truncated_proof_is_rejected() {
    let (num_vars, cnf, mut lines) = php_4_3_lines();
    let whole = lines.join("\n");
    let cut = &whole[..whole.len() - 2];
    let last_line = lines.len();
    assert!(
        matches!(check_lrat(num_vars, &cnf, cut), Err(LratError::Syntax { line, .. }) if line == last_line)
    );
    lines.pop();
    assert_eq!(
        check_lrat(num_vars, &cnf, &lines.join("\n")),
        Err(LratError::NoEmptyClause)
    );
}

/// Random formulas of three-literal clauses over at most 8 variables (literals may repeat).
fn small_3cnf() -> impl Strategy<Value = (usize, Vec<Vec<i32>>)> {
    (1usize..=8).prop_flat_map(|num_vars| {
        let literal =
            (1..=num_vars as i32, any::<bool>())
                .prop_map(|(var, negative)| if negative { -var } else { var });
        let clauses = prop::collection::vec(prop::collection::vec(literal, 3), 1..=48);
        (Just(num_vars), clauses)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn lrat_agrees_with_brute_force((num_vars, cnf) in small_3cnf()) {
        let proofs = solve(num_vars, &cnf);
        let checked = check_lrat(num_vars, &cnf, &proofs.lrat);
        match proofs.outcome {
            Refutation::Unsatisfiable => {
                prop_assert!(checked.is_ok(), "{:?}", checked);
                prop_assert!(check_with_varisat(num_vars, &cnf, &proofs.native[..]).is_ok());
            }
            Refutation::Satisfiable { .. } => prop_assert!(checked.is_err()),
        }
        if checked.is_ok() {
            prop_assert!(!brute_force_satisfiable(num_vars, &cnf));
        }
        prop_assert_eq!(
            brute_force_satisfiable(num_vars, &cnf),
            matches!(proofs.outcome, Refutation::Satisfiable { .. })
        );
    }
}

/// A random 3-CNF far above the satisfiability threshold, so it is almost surely unsatisfiable.
fn random_3cnf(num_vars: usize, num_clauses: usize, seed: u64) -> Vec<Vec<i32>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..num_clauses)
        .map(|_| {
            let mut clause: Vec<i32> = Vec::new();
            while clause.len() < 3 {
                let var = rng.gen_range(1..=num_vars as i32);
                if clause.iter().all(|literal| literal.abs() != var) {
                    clause.push(if rng.gen() { var } else { -var });
                }
            }
            clause
        })
        .collect()
}

/// Proof sizes and check times; run with
/// `cargo test --release --test certificates -- --ignored --nocapture`.
#[test]
#[ignore = "measurement, slow in debug builds"]
fn measure_proof_sizes_and_check_times() {
    let cases = [
        ("PHP(8, 7)", pigeonhole(8, 7)),
        (
            "random 3-CNF, 200 vars, 2000 clauses",
            (200, random_3cnf(200, 2000, 1)),
        ),
        (
            "random 3-CNF, 300 vars, 3000 clauses",
            (300, random_3cnf(300, 3000, 1)),
        ),
        (
            "random 3-CNF, 200 vars, 1000 clauses",
            (200, random_3cnf(200, 1000, 1)),
        ),
        ("PHP(9, 8)", pigeonhole(9, 8)),
    ];
    for (name, (num_vars, cnf)) in cases {
        let start = Instant::now();
        let proofs = solve(num_vars, &cnf);
        let solve_time = start.elapsed();
        assert_eq!(proofs.outcome, Refutation::Unsatisfiable, "{name}");
        let start = Instant::now();
        let stats = check_lrat(num_vars, &cnf, &proofs.lrat).unwrap();
        let lrat_time = start.elapsed();
        let start = Instant::now();
        check_with_varisat(num_vars, &cnf, &proofs.native[..]).unwrap();
        let varisat_time = start.elapsed();
        println!(
            "{name}: {} clauses; solve+proofs {solve_time:.2?}; LRAT {} bytes, {} lines, \
             checked in {lrat_time:.2?} ({} additions, {} deletions, {} hints); \
             native proof {} bytes, varisat check {varisat_time:.2?}",
            cnf.len(),
            proofs.lrat.len(),
            proofs.lrat.lines().count(),
            stats.additions,
            stats.deletions,
            stats.hints,
            proofs.native.len(),
        );
    }
}
