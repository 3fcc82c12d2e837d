//! Runs varisat on a DIMACS clause list while recording its proofs, and checks them with varisat.
//!
//! One solver run feeds two proof streams:
//!
//! * the solver's own proof, in the [`SolverProofFormat`] the caller picks (DRAT as text,
//!   DRAT in the binary encoding, or varisat's native binary format), written by
//!   `Solver::write_proof`;
//! * a textual LRAT proof, written by varisat-lrat's `WriteLrat`, which is a varisat
//!   `ProofProcessor` attached to the solver (`Solver::add_proof_processor`). The solver then
//!   checks each of its steps on the fly and hands the processor the checked steps, hints
//!   included, so no second pass over the proof is needed.
//!
//! One case is written by us instead: when the formula holds the empty clause or two opposed
//! unit clauses, varisat stops reading clauses at that point, so varisat-lrat gives later
//! clauses no IDs and numbers its empty clause into the formula's own ID range (a clash our
//! checker rightly rejects). There [`refute`] writes the LRAT proof itself: one line deriving
//! the empty clause from the formula's empty clause, or from the two opposed units, so that
//! every LRAT proof ends with the empty clause as lrat-check requires.
//!
//! varisat-checker 0.2.2 only checks varisat's native format, not DRAT; so
//! [`check_with_varisat`], the second independent check, takes a native proof.
//! Our own LRAT checker is [`crate::checkers::lrat::check_lrat`].

use std::io::{Read, Write};

use thiserror::Error;
use varisat::checker::{CheckedProofStep, Checker, CheckerData, CheckerError, ProofProcessor};
use varisat::solver::SolverError;
use varisat::{CnfFormula, ExtendFormula, Lit, ProofFormat, Solver};
use varisat_lrat::WriteLrat;

/// The format of the solver's own proof stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolverProofFormat {
    /// DRAT as text, one clause per line (`d` prefix for deletions), for drat-trim and friends.
    DratText,
    /// DRAT in the binary encoding (`a`/`d` bytes, variable-length literals).
    DratBinary,
    /// varisat's native binary format, the one [`check_with_varisat`] reads.
    Varisat,
}

/// What varisat found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refutation {
    /// Satisfiable: `model[v - 1]` is `v` or `-v` for every variable `v` in `1..=num_vars`.
    /// The model has been checked against every clause.
    Satisfiable {
        /// One literal per variable, in variable order.
        model: Vec<i32>,
    },
    /// Unsatisfiable: the proof streams end with the empty clause.
    Unsatisfiable,
}

/// Why a refutation attempt or a varisat check failed.
#[derive(Debug, Error)]
pub enum RefuteError {
    /// A clause holds 0 or a literal whose variable exceeds `num_vars`.
    #[error("clause {clause}: literal {literal} is outside 1..={num_vars} or its negation")]
    Literal {
        /// 1-based clause ID.
        clause: usize,
        /// The offending literal.
        literal: i32,
        /// Declared variable count.
        num_vars: usize,
    },
    /// varisat stopped with an error (a proof stream could not be written, for one).
    #[error("varisat: {0}")]
    Solver(#[from] SolverError),
    /// The LRAT stream could not be flushed.
    #[error("writing the LRAT proof: {0}")]
    LratWrite(String),
    /// varisat reported a model that falsifies a clause (a solver bug; never expected).
    #[error("varisat's model falsifies clause {clause}")]
    ModelFalsifies {
        /// 1-based clause ID.
        clause: usize,
    },
    /// varisat's checker rejected the proof.
    #[error("varisat's checker rejected the proof: {0}")]
    Rejected(#[from] CheckerError),
    /// varisat's checker accepted every step, but the proof never derives the empty clause.
    #[error("the varisat proof never derives the empty clause")]
    NoEmptyClause,
}

/// Solves `cnf` (variables `1..=num_vars`) with varisat, writing its proof in `proof_format`
/// to `proof` and a textual LRAT proof to `lrat`. On a satisfiable formula both streams hold
/// whatever the solver derived, without an empty clause.
pub fn refute(
    num_vars: usize,
    cnf: &[Vec<i32>],
    proof_format: SolverProofFormat,
    proof: impl Write,
    lrat: impl Write,
) -> Result<Refutation, RefuteError> {
    let formula = to_formula(num_vars, cnf)?;
    let load_conflict = load_conflict(cnf);
    let mut lrat = lrat;
    let mut write_lrat = WriteLrat::new(&mut lrat, false);
    let assignment = {
        let mut solver = Solver::new();
        if load_conflict.is_none() {
            solver.add_proof_processor(&mut write_lrat);
        }
        let format = match proof_format {
            SolverProofFormat::DratText => ProofFormat::Drat,
            SolverProofFormat::DratBinary => ProofFormat::BinaryDrat,
            SolverProofFormat::Varisat => ProofFormat::Varisat,
        };
        solver.write_proof(proof, format);
        solver.add_formula(&formula);
        let satisfiable = solver.solve()?;
        solver.close_proof()?;
        satisfiable.then(|| solver.model().unwrap_or_default())
    };
    write_lrat
        .flush()
        .map_err(|error| RefuteError::LratWrite(error.to_string()))?;
    drop(write_lrat);
    if let Some(hints) = load_conflict {
        let hints: Vec<String> = hints.iter().map(usize::to_string).collect();
        writeln!(lrat, "{} 0 {} 0", cnf.len() + 1, hints.join(" "))
            .and_then(|()| lrat.flush())
            .map_err(|error| RefuteError::LratWrite(error.to_string()))?;
    }

    let Some(assignment) = assignment else {
        return Ok(Refutation::Unsatisfiable);
    };
    // Variables the solver never saw may take either value; we pick false.
    let mut model: Vec<i32> = (1..=num_vars as i32).map(|var| -var).collect();
    for literal in assignment {
        model[literal.index()] = literal.to_dimacs() as i32;
    }
    for (index, clause) in cnf.iter().enumerate() {
        if !clause
            .iter()
            .any(|&literal| model[literal.unsigned_abs() as usize - 1] == literal)
        {
            return Err(RefuteError::ModelFalsifies { clause: index + 1 });
        }
    }
    Ok(Refutation::Satisfiable { model })
}

/// Checks a proof in varisat's native format (see [`SolverProofFormat::Varisat`]) with
/// varisat's own checker, and that it derives the empty clause.
pub fn check_with_varisat(
    num_vars: usize,
    cnf: &[Vec<i32>],
    varisat_proof: impl Read,
) -> Result<(), RefuteError> {
    let formula = to_formula(num_vars, cnf)?;
    let mut watch = EmptyClauseWatch { derived: false };
    {
        let mut checker = Checker::new();
        checker.add_processor(&mut watch);
        checker.add_formula(&formula)?;
        checker.check_proof(varisat_proof)?;
    }
    if watch.derived {
        Ok(())
    } else {
        Err(RefuteError::NoEmptyClause)
    }
}

/// Finds where varisat stops loading `cnf` as unsatisfiable, as the LRAT hints that refute it:
/// `[k]` at an empty clause `k`, `[a, b]` at unit clause `b` opposing the earlier unit clause
/// `a` (1-based IDs, repeated literals ignored, tautologies skipped, as varisat does).
fn load_conflict(cnf: &[Vec<i32>]) -> Option<Vec<usize>> {
    let mut units = std::collections::HashMap::new();
    for (index, clause) in cnf.iter().enumerate() {
        let mut literals = clause.clone();
        literals.sort_unstable();
        literals.dedup();
        if literals.iter().any(|literal| literals.contains(&-literal)) {
            continue;
        }
        match literals[..] {
            [] => return Some(vec![index + 1]),
            [literal] => {
                if let Some(&opposed) = units.get(&-literal) {
                    return Some(vec![opposed, index + 1]);
                }
                units.entry(literal).or_insert(index + 1);
            }
            _ => {}
        }
    }
    None
}

/// Converts DIMACS clauses to a varisat formula, checking the literal range.
fn to_formula(num_vars: usize, cnf: &[Vec<i32>]) -> Result<CnfFormula, RefuteError> {
    let mut formula = CnfFormula::new();
    formula.set_var_count(num_vars);
    let mut lits = Vec::new();
    for (index, clause) in cnf.iter().enumerate() {
        lits.clear();
        for &literal in clause {
            if literal == 0 || literal.unsigned_abs() as usize > num_vars {
                return Err(RefuteError::Literal {
                    clause: index + 1,
                    literal,
                    num_vars,
                });
            }
            lits.push(Lit::from_dimacs(literal as isize));
        }
        formula.add_clause(&lits);
    }
    Ok(formula)
}

/// Notes whether the checked proof reached the empty clause (varisat's checker checks steps,
/// not that the proof ends in a refutation).
struct EmptyClauseWatch {
    derived: bool,
}

impl ProofProcessor for EmptyClauseWatch {
    fn process_step(
        &mut self,
        step: &CheckedProofStep,
        _data: CheckerData,
    ) -> Result<(), anyhow::Error> {
        if let CheckedProofStep::AddClause { clause, .. }
        | CheckedProofStep::AtClause { clause, .. } = step
        {
            self.derived |= clause.is_empty();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkers::lrat::check_lrat;

    /// Runs [`refute`] with a native proof and returns the outcome and both proofs.
    fn run(num_vars: usize, cnf: &[Vec<i32>]) -> (Refutation, Vec<u8>, String) {
        let (mut native, mut lrat) = (Vec::new(), Vec::new());
        let outcome = refute(
            num_vars,
            cnf,
            SolverProofFormat::Varisat,
            &mut native,
            &mut lrat,
        )
        .unwrap();
        (outcome, native, String::from_utf8(lrat).unwrap())
    }

    #[test]
    fn opposed_unit_clauses_get_an_lrat_proof_of_our_own() {
        // Regression: varisat-lrat numbered the empty clause 3, clashing with clause 3.
        let cnf = vec![vec![1, 1, 1], vec![-1, -1, -1], vec![1, 1, 1]];
        let (outcome, native, lrat) = run(1, &cnf);
        assert_eq!(outcome, Refutation::Unsatisfiable);
        assert_eq!(lrat, "4 0 1 2 0\n");
        check_lrat(1, &cnf, &lrat).unwrap();
        check_with_varisat(1, &cnf, &native[..]).unwrap();
    }

    #[test]
    fn an_empty_formula_clause_gets_one_lrat_step_deriving_the_empty_clause() {
        let cnf = vec![vec![1, 2], vec![], vec![-1]];
        let (outcome, native, lrat) = run(2, &cnf);
        assert_eq!(outcome, Refutation::Unsatisfiable);
        assert_eq!(lrat, "4 0 2 0\n");
        check_lrat(2, &cnf, &lrat).unwrap();
        check_with_varisat(2, &cnf, &native[..]).unwrap();
    }

    #[test]
    fn finds_load_conflicts_as_varisat_does() {
        assert_eq!(load_conflict(&[vec![1, -1], vec![2]]), None);
        assert_eq!(
            load_conflict(&[vec![2], vec![1, 2], vec![-2]]),
            Some(vec![1, 3])
        );
        assert_eq!(load_conflict(&[vec![1], vec![], vec![-1]]), Some(vec![2]));
    }

    #[test]
    fn a_model_covers_variables_no_clause_mentions() {
        let (outcome, _, _) = run(3, &[vec![2]]);
        assert_eq!(
            outcome,
            Refutation::Satisfiable {
                model: vec![-1, 2, -3]
            }
        );
    }

    #[test]
    fn rejects_literals_out_of_range() {
        let error = refute(
            2,
            &[vec![1, 3]],
            SolverProofFormat::DratText,
            Vec::new(),
            Vec::new(),
        );
        assert!(matches!(
            error,
            Err(RefuteError::Literal {
                clause: 1,
                literal: 3,
                num_vars: 2
            })
        ));
    }

    #[test]
    fn varisat_rejects_a_proof_that_stops_early() {
        let cnf = vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]];
        let (_, native, _) = run(2, &cnf);
        let error = check_with_varisat(2, &cnf, &native[..native.len() - 1]).unwrap_err();
        assert!(matches!(error, RefuteError::Rejected(_)), "{error}");
    }
}
