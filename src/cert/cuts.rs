//! The cut file of a certificate: the clauses lazy constraints added while its claim was refuted, each with the reason it holds in every solution.
//!
//! A model with lazy constraints (a dissection's connected parts) leaves them out of its
//! CNF, which is then usually satisfiable by assignments that break them. `prove` refutes
//! the CNF *plus cuts*: [`collect`] runs varisat with the cut loop, asking each lazy
//! constraint for the cuts a model violates, until the clauses are unsatisfiable; the proofs
//! then refute the model's CNF with those cuts appended. A cut is only as good as its
//! reason, so each is recorded with one ([`JustifyCuts`]), and `check` verifies every reason
//! and clause from the puzzle's rules alone ([`verify`]) before it appends them to the CNF
//! it rebuilds. Every true solution satisfies the model's CNF and every verified cut, so
//! refuting both proves the puzzle has no solution.
//!
//! # Format
//!
//! The text is [`crate::formats::cuts`]'s: `c` comment lines, then each cut as a line
//! `cut L REASON` (`L` numbers the model's lazy constraints from 1) and a line `clause`
//! with its DIMACS literals over the model's variables (the first variables of
//! `cnf.dimacs`), ended by 0. `REASON` is one line in the syntax the constraint defines
//! (for connected parts: `part P component X,Y X,Y ...`, see
//! [`crate::puzzle::dissection::Connectivity`]). The cuts are in the order `cnf.dimacs`
//! ends with them.
//!
//! [`JustifyCuts`]: crate::model::JustifyCuts

use crate::base::Control;
use crate::formats::cuts as cut_file;
pub use crate::formats::cuts::CutFileError;
use crate::model::{JustifiedCut, Lit, Model};
use crate::oracle::loops::{solve_separating, CutAnswer};
use crate::oracle::{OracleError, SatOracle};

/// One cut of a certificate: the lazy constraint that made it and the cut with its reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedCut {
    /// The constraint's index in [`Model::lazy`] (the file numbers them from 1).
    pub constraint: usize,
    /// The clause and its reason.
    pub cut: JustifiedCut,
}

/// A cut read from a file, with the line of its `cut` line for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedCut {
    /// The line number of its `cut` line.
    pub line: usize,
    /// The cut.
    pub recorded: RecordedCut,
}

/// Why [`collect`] has no cuts.
#[derive(Debug, thiserror::Error)]
pub enum CollectError {
    /// A lazy constraint of the model cannot give reasons for its cuts.
    #[error("lazy constraint {0:?} gives no reasons for its cuts")]
    NoReasons(String),
    /// The formula and the cuts have a model that every lazy constraint accepts: the claim
    /// was wrong (a bug).
    #[error(
        "the CNF and {0} cuts are satisfiable by an assignment that breaks no lazy constraint"
    )]
    Satisfiable(usize),
    /// The solver gave up.
    #[error("the solver answered UNKNOWN")]
    Unknown,
    /// The solver failed.
    #[error("{0}")]
    Oracle(#[from] OracleError),
}

/// Runs the cut loop ([`solve_separating`]) on the formula `oracle` holds (a CNF over the
/// model's variables first) until the clauses and the cuts are unsatisfiable; returns the
/// cuts, in the order they were added, or `None` when `control` stopped the loop.
pub fn collect<O: SatOracle + ?Sized>(
    model: &Model,
    oracle: &mut O,
    control: &Control,
) -> Result<Option<Vec<RecordedCut>>, CollectError> {
    let justifiers = model
        .lazy
        .iter()
        .map(|lazy| {
            lazy.justify()
                .ok_or_else(|| CollectError::NoReasons(lazy.name().to_string()))
        })
        .collect::<Result<Vec<_>, CollectError>>()?;
    let mut cuts: Vec<RecordedCut> = Vec::new();
    let answer = solve_separating(oracle, model.num_vars(), &[], control, |assignment| {
        let before = cuts.len();
        for (constraint, justifier) in justifiers.iter().enumerate() {
            for cut in justifier.justified_cuts(assignment) {
                cuts.push(RecordedCut { constraint, cut });
            }
        }
        cuts[before..]
            .iter()
            .map(|recorded| recorded.cut.clause.clone())
            .collect()
    })?;
    match answer {
        None => Ok(None),
        Some(CutAnswer::Unsat) => Ok(Some(cuts)),
        Some(CutAnswer::Sat(_)) => Err(CollectError::Satisfiable(cuts.len())),
        Some(CutAnswer::Unknown) => Err(CollectError::Unknown),
    }
}

/// The cut file for `cuts` of `model`, with comments naming the constraints; `model_file`
/// and `cnf_file` are the names the comments use.
pub fn write(model: &Model, cuts: &[RecordedCut], model_file: &str, cnf_file: &str) -> String {
    let constraints: Vec<&str> = model.lazy.iter().map(|lazy| lazy.name()).collect();
    let cuts = cuts.iter().map(|recorded| {
        (
            recorded.constraint + 1,
            recorded.cut.reason.as_str(),
            recorded.cut.clause.iter().map(|literal| literal.dimacs()),
        )
    });
    cut_file::write_cuts(model_file, cnf_file, &constraints, cuts)
}

/// Reads a cut file whose clauses range over variables `1..=model_vars`; an error names the
/// line and the problem.
pub fn parse(text: &str, model_vars: usize) -> Result<Vec<ParsedCut>, CutFileError> {
    let cuts = cut_file::read_cuts(text, model_vars)?;
    Ok(cuts
        .into_iter()
        .map(|cut| ParsedCut {
            line: cut.line,
            recorded: RecordedCut {
                constraint: cut.constraint - 1,
                cut: JustifiedCut {
                    clause: cut.clause.into_iter().map(Lit::from_dimacs).collect(),
                    reason: cut.reason,
                },
            },
        })
        .collect())
}

/// Checks every cut against the model's rules: its lazy constraint exists and can verify
/// cuts, and [`JustifyCuts::verify_cut`] accepts its reason and clause. The message names
/// the line of the failing cut.
///
/// [`JustifyCuts::verify_cut`]: crate::model::JustifyCuts::verify_cut
pub fn verify(model: &Model, cuts: &[ParsedCut]) -> Result<(), CutFileError> {
    for ParsedCut { line, recorded } in cuts {
        let number = recorded.constraint + 1;
        let Some(lazy) = model.lazy.get(recorded.constraint) else {
            return Err(CutFileError::new(
                *line,
                format!(
                    "lazy constraint {number} does not exist (the model has {})",
                    model.lazy.len()
                ),
            ));
        };
        let Some(justifier) = lazy.justify() else {
            return Err(CutFileError::new(
                *line,
                format!(
                    "lazy constraint {number} ({}) gives no reasons for its cuts",
                    lazy.name()
                ),
            ));
        };
        justifier
            .verify_cut(&recorded.cut)
            .map_err(|e| CutFileError::new(*line, format!("{}: {e}", lazy.name())))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::dissection::DissectionPuzzle;
    use crate::puzzle::Family;

    /// The T tetromino into two halves: impossible, and a good source of cuts.
    fn tee() -> DissectionPuzzle {
        DissectionPuzzle::from_picture("###.\n.#..\n", 2, true)
    }

    #[test]
    fn cuts_round_trip_through_the_file() {
        let model = DissectionPuzzle::from_picture("###\n.##\n.#.\n", 2, true).compile();
        let cnf = crate::encode::cnf::encode(&model, crate::encode::amo::AmoEncoding::Auto).cnf;
        let mut oracle = crate::oracle::varisat::Varisat::new(&cnf);
        let cuts = collect(&model, &mut oracle, &Control::unlimited())
            .unwrap()
            .unwrap();
        assert!(!cuts.is_empty(), "this shape needs cuts to be refuted");
        let text = write(&model, &cuts, "model.toml", "cnf.dimacs");
        assert!(
            text.contains("c lazy constraint 1: connected parts\n"),
            "{text}"
        );
        let parsed = parse(&text, model.num_vars()).unwrap();
        let read: Vec<RecordedCut> = parsed.iter().map(|p| p.recorded.clone()).collect();
        assert_eq!(read, cuts);
        verify(&model, &parsed).unwrap();
    }

    #[test]
    fn verify_names_a_missing_constraint() {
        let model = tee().compile();
        let parsed = parse("cut 2 part 0 component 0,0\nclause 1 0\n", model.num_vars()).unwrap();
        assert_eq!(
            verify(&model, &parsed).unwrap_err().to_string(),
            "line 1: lazy constraint 2 does not exist (the model has 1)"
        );
        let parsed = parse(
            "cut 1 part 0 component 0,0 0,1\nclause 1 0\n",
            model.num_vars(),
        )
        .unwrap();
        assert_eq!(
            verify(&model, &parsed).unwrap_err().to_string(),
            "line 1: connected parts: (0,1) is not a cell of the shape"
        );
    }
}
