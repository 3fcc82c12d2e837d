//! The way back from external solvers: an answer to a file that `emit` wrote (SAT
//! competition `s`/`v` lines, MiniSat's result file, MaxSAT or pseudo-Boolean `v` lines, a
//! CBC, GLPK `-w` or HiGHS solution file, MiniZinc / FlatZinc solver output), read by the
//! variable names the file carries, checked against the file, decoded and verified by the
//! puzzle's rules.
//!
//! Variables are matched by name, never by puzzlec's numbering: the emitted file names
//! every model variable (`c var N name`, `* var N name`, `\ column safe = name`,
//! `var 0..1: safe;  % name`), and each
//! of the model's variables is looked up there. An answer for a file written by another
//! model, or by a puzzlec that numbers its variables differently, is then still read
//! right, or refused by name. Without the file, the one `emit` writes now stands in for it.
//!
//! Which grammar each file is in is told by [`crate::formats::sniff`]; `read` reads the
//! two files through their formats' readers, `check` holds the answer to the file and the
//! model, and `errors` words what goes wrong.

use crate::base::evidence::{CheckedFile, FileConstraint};
use crate::base::{Evidence, Size, Status};
use crate::driver::emit::{emit, Format};
use crate::driver::{Backend, Outcome};
use crate::puzzle::{Puzzle, Solution};

mod check;
mod errors;
mod read;

pub use crate::formats::sniff::AnswerKind;
pub use errors::{
    AnswerError, CnfError, DecodeError, EmittedError, FileVariable, Rejection, Unreadable,
};

use check::{check_file, describe_constraint, file_values, model_assignment};
use read::{read_answer, read_emitted, Body, Claim};

/// The file format an answer of `kind` is an answer to (for a MiniZinc answer, MiniZinc; a
/// FlatZinc file gets the same answers, see [`answers`]).
pub fn format_of(kind: AnswerKind) -> Format {
    match kind {
        AnswerKind::SatCompetition | AnswerKind::MiniSat => Format::Dimacs,
        AnswerKind::MaxSat => Format::Wcnf,
        AnswerKind::PseudoBoolean => Format::Opb,
        AnswerKind::Cbc | AnswerKind::Glpk | AnswerKind::Highs => Format::Lp,
        AnswerKind::MiniZinc => Format::Mzn,
    }
}

/// Whether an answer of `kind` can answer a file of `format`.
pub fn answers(kind: AnswerKind, format: Format) -> bool {
    match kind {
        AnswerKind::MiniZinc => matches!(format, Format::Mzn | Format::Fzn),
        _ => format_of(kind) == format,
    }
}

/// Whether an answer of `kind` comes from a SAT-like solver (`sat`) or an LP one (`milp`),
/// for reports.
pub fn backend_of(kind: AnswerKind) -> Backend {
    match format_of(kind) {
        Format::Lp => Backend::Milp,
        _ => Backend::Sat,
    }
}

/// The files `decode` reads: each with the name errors give it.
pub struct DecodeInput<'a> {
    /// The answer's name (its path, as given).
    pub answer_name: &'a str,
    /// The answer's text.
    pub answer: &'a str,
    /// The file `emit` wrote that the solver answered, (name, text); without it, the file
    /// `emit` writes now stands in (for names only: its clauses are not checked, since the
    /// solver may have answered a file with `--at-least`).
    pub emitted: Option<(&'a str, &'a str)>,
    /// The model file's name, for the regenerated file's header.
    pub origin: &'a str,
}

/// A decoded answer: the solution, verified.
#[derive(Clone, Debug)]
pub struct Decoded {
    /// What kind of answer it was.
    pub kind: AnswerKind,
    /// The solution, verified by the puzzle's rules.
    pub solution: Solution,
    /// Its objective value.
    pub value: usize,
    /// How the answer was read and checked.
    pub evidence: Evidence,
    /// The emitted file's size (variables and clauses or rows).
    pub size: Size,
}

impl Decoded {
    /// The answer as an [`Outcome`] of `puzzle`, `elapsed` after the decoding began: a
    /// solution read back proves that one exists, never that it is the best (feasible, or
    /// satisfiable for a family without an objective).
    pub fn into_outcome(self, puzzle: &Puzzle, elapsed: std::time::Duration) -> Outcome {
        let has_objective = puzzle.has_objective();
        Outcome {
            backend: backend_of(self.kind),
            status: if has_objective {
                Status::Feasible
            } else {
                Status::Satisfiable
            },
            value: has_objective.then_some(self.value),
            solution: Some(self.solution),
            bound: None,
            sense: puzzle.sense(),
            bounds: None,
            evidence: self.evidence,
            elapsed,
            size: self.size,
            // A MiniZinc answer is a constraint solver's: `cp:answer`.
            solver: Some(match self.kind {
                AnswerKind::MiniZinc => "cp:answer".into(),
                _ => "answer".into(),
            }),
        }
    }
}

/// Reads `input.answer`, checks it and decodes it into a solution of `puzzle`, verified by
/// the puzzle's rules.
pub fn decode(puzzle: &Puzzle, input: &DecodeInput) -> Result<Decoded, DecodeError> {
    let answer_name = input.answer_name;
    let kind = AnswerKind::detect(input.answer).ok_or_else(|| Unreadable::NotAnAnswer {
        answer: answer_name.to_string(),
    })?;
    let emitted = match input.emitted {
        Some((name, text)) => read_emitted(name, text, true)?,
        None => {
            let text = emit(puzzle, input.origin, format_of(kind), None);
            read_emitted("the file `emit` writes now", &text, false)?
        }
    };
    if !answers(kind, emitted.format()) {
        return Err(Unreadable::WrongFormat {
            answer: answer_name.to_string(),
            kind,
            emitted: emitted.name.clone(),
            emitted_format: emitted.format(),
        }
        .into());
    }
    let (claim, values) =
        read_answer(kind, input.answer, &emitted).map_err(|problem| Unreadable::Answer {
            answer: answer_name.to_string(),
            problem,
        })?;
    let reject = |problem: Rejection| DecodeError::Rejected {
        answer: answer_name.to_string(),
        problem,
    };
    let optimal = match claim {
        Claim::Solution { optimal } => optimal,
        Claim::None(words) => return Err(reject(Rejection::NoSolution { words })),
        Claim::Unknown(words) => return Err(reject(Rejection::Stopped { words })),
    };
    // Names first (a file of another model is bad input), then the answer's values over
    // the file's variables, a partial answer, the file's own clauses or rows, then the
    // model's constraints and the rules.
    // The model without symmetry breaking: that is no rule of the puzzle, and a symmetric
    // image of a solution (from a file written without it, or by another version) is still
    // a solution. Its variables are the same.
    let model = match puzzle {
        Puzzle::Packing(packing) => packing.compile_with(false),
        _ => puzzle.compile(),
    };
    let named: std::collections::HashSet<&str> = emitted.names.iter().map(String::as_str).collect();
    if let Some(name) = model.names().iter().find(|n| !named.contains(n.as_str())) {
        return Err(Unreadable::ForeignFile {
            emitted: emitted.name.clone(),
            variable: name.clone(),
        }
        .into());
    }
    let file_values = file_values(&emitted, &values).map_err(reject)?;
    let assignment = model_assignment(&model, &emitted, &file_values, kind)?.map_err(reject)?;
    if emitted.checked {
        check_file(&emitted, &file_values.0).map_err(reject)?;
    }
    if let Some(index) = model.constraints.iter().position(|c| !c.holds(&assignment)) {
        return Err(reject(Rejection::BrokenModelConstraint {
            constraint: index + 1,
            description: describe_constraint(&model, &model.constraints[index]),
        }));
    }
    let solution = puzzle.decode(&assignment);
    puzzle.verify(&solution).map_err(|error| {
        reject(Rejection::BreaksRules {
            family: puzzle.kind(),
            error,
        })
    })?;
    let value = puzzle.value(&solution);
    let checked = emitted.checked.then(|| CheckedFile {
        name: emitted.name.clone(),
        constraints: match emitted.body {
            Body::Cnf(_) => FileConstraint::Clause,
            Body::Wcnf(_) => FileConstraint::HardClause,
            Body::Opb(_) | Body::Lp(_) => FileConstraint::Row,
            Body::Mzn(..) => FileConstraint::Constraint,
        },
    });
    Ok(Decoded {
        kind,
        solution,
        value,
        evidence: Evidence::Decoded {
            answer: answer_name.to_string(),
            answer_kind: kind.describe().to_string(),
            checked,
            model_vars: model.num_vars(),
            family: puzzle.kind().to_string(),
            claimed_optimal: puzzle.has_objective().then_some(optimal),
        },
        // The size reported is the file's, which the solver worked on.
        size: emitted.size(),
    })
}
