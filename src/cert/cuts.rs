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
//! Text, one item a line. Lines starting with `c` followed by a space (or alone) are
//! comments. A cut is two lines:
//!
//! ```text
//! cut L REASON
//! clause LITERALS 0
//! ```
//!
//! `L` numbers the model's lazy constraints from 1 (its name is in a comment), `REASON` is
//! one line in the syntax that constraint defines (for connected parts:
//! `part P component X,Y X,Y ...`, see [`crate::puzzle::dissection::Connectivity`]), and
//! the clause is DIMACS literals over the model's variables (the first variables of
//! `cnf.dimacs`), ended by 0. The cuts are in the order `cnf.dimacs` ends with them.
//!
//! ```text
//! c lazy constraint 1: connected parts
//! cut 1 part 1 component 2,0
//! clause -6 2 10 0
//! ```
//!
//! [`JustifyCuts`]: crate::model::JustifyCuts

use crate::base::Control;
use crate::model::{JustifiedCut, Lit, Model};
use crate::oracle::loops::{solve_separating, CutAnswer};
use crate::oracle::{OracleError, SatOracle};
use std::fmt::Write as _;

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
    let mut text = format!(
        "c puzzlec cuts for {model_file}: the clauses its lazy constraints added while it was \
         refuted; {cnf_file} ends with them, in this order\n\
         c a cut is two lines: `cut L REASON` (L numbers the lazy constraints from 1), then \
         `clause`, its DIMACS literals and 0\n"
    );
    for (number, lazy) in model.lazy.iter().enumerate() {
        let _ = writeln!(text, "c lazy constraint {}: {}", number + 1, lazy.name());
    }
    for recorded in cuts {
        debug_assert!(!recorded.cut.reason.contains('\n'), "a reason is one line");
        let _ = writeln!(
            text,
            "cut {} {}",
            recorded.constraint + 1,
            recorded.cut.reason
        );
        text.push_str("clause");
        for literal in &recorded.cut.clause {
            let _ = write!(text, " {literal}");
        }
        text.push_str(" 0\n");
    }
    text
}

/// What is wrong with a cut file, at which line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct CutFileError {
    /// The line (of the cut's `cut` line, for a cut the rules reject).
    pub line: usize,
    /// The problem, in words.
    pub problem: String,
}

impl CutFileError {
    fn at(line: usize, problem: String) -> CutFileError {
        CutFileError { line, problem }
    }
}

/// Reads a cut file whose clauses range over variables `1..=model_vars`; an error names the
/// line and the problem.
pub fn parse(text: &str, model_vars: usize) -> Result<Vec<ParsedCut>, CutFileError> {
    let mut cuts = Vec::new();
    // The `cut` line waiting for its `clause` line: its line number, constraint and reason.
    let mut pending: Option<(usize, usize, String)> = None;
    for (index, line) in text.lines().enumerate() {
        let line_number = index + 1;
        let at = |problem: String| CutFileError::at(line_number, problem);
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed == "c" || trimmed.starts_with("c ") {
            continue;
        }
        let (keyword, rest) = trimmed.split_once(' ').unwrap_or((trimmed, ""));
        match keyword {
            "cut" => {
                if let Some((line, _, _)) = pending {
                    return Err(at(format!("the cut of line {line} has no `clause` line")));
                }
                let (number, reason) = rest.trim().split_once(' ').unwrap_or((rest.trim(), ""));
                let number: usize = number.parse().map_err(|_| {
                    at(format!(
                        "{number:?} is not a lazy constraint number (`cut L REASON`)"
                    ))
                })?;
                let reason = reason.trim();
                if reason.is_empty() {
                    return Err(at("the cut has no reason (`cut L REASON`)".to_string()));
                }
                if number == 0 {
                    return Err(at(
                        "lazy constraint 0 does not exist (they are numbered from 1)".to_string(),
                    ));
                }
                pending = Some((line_number, number - 1, reason.to_string()));
            }
            "clause" => {
                let Some((line, constraint, reason)) = pending.take() else {
                    return Err(at(
                        "a `clause` line without a `cut` line before it".to_string()
                    ));
                };
                let clause = parse_clause(rest, model_vars).map_err(at)?;
                cuts.push(ParsedCut {
                    line,
                    recorded: RecordedCut {
                        constraint,
                        cut: JustifiedCut { clause, reason },
                    },
                });
            }
            _ => {
                return Err(at(format!(
                    "expected a `c`, `cut` or `clause` line, found {:?}",
                    truncate(trimmed)
                )))
            }
        }
    }
    match pending {
        Some((line, _, _)) => Err(CutFileError::at(
            line,
            "the cut has no `clause` line".to_string(),
        )),
        None => Ok(cuts),
    }
}

/// The literals of a `clause` line after the keyword: non-zero, over `1..=model_vars`,
/// ended by one 0 with nothing after it.
fn parse_clause(text: &str, model_vars: usize) -> Result<Vec<Lit>, String> {
    let mut clause = Vec::new();
    let mut words = text.split_whitespace();
    loop {
        let Some(word) = words.next() else {
            return Err("the clause is not ended by 0".to_string());
        };
        let literal: i64 = word
            .parse()
            .map_err(|_| format!("{:?} is not a literal", truncate(word)))?;
        if literal == 0 {
            break;
        }
        if literal.unsigned_abs() > model_vars as u64 {
            return Err(format!(
                "literal {literal} is not over a model variable (1..={model_vars})"
            ));
        }
        clause.push(Lit::from_dimacs(literal));
    }
    match words.next() {
        Some(extra) => Err(format!("{:?} after the closing 0", truncate(extra))),
        None => Ok(clause),
    }
}

/// At most 40 characters of `text`, for quoting it in a message.
fn truncate(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
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
            return Err(CutFileError::at(
                *line,
                format!(
                    "lazy constraint {number} does not exist (the model has {})",
                    model.lazy.len()
                ),
            ));
        };
        let Some(justifier) = lazy.justify() else {
            return Err(CutFileError::at(
                *line,
                format!(
                    "lazy constraint {number} ({}) gives no reasons for its cuts",
                    lazy.name()
                ),
            ));
        };
        justifier
            .verify_cut(&recorded.cut)
            .map_err(|e| CutFileError::at(*line, format!("{}: {e}", lazy.name())))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::dissection::DissectionPuzzle;

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
    fn parse_errors_name_the_line() {
        let vars = tee().compile().num_vars();
        let cases = [
            (
                "cut 1 part 0 component 0,0\n",
                "line 1: the cut has no `clause` line",
            ),
            (
                "clause 1 0\n",
                "line 1: a `clause` line without a `cut` line before it",
            ),
            (
                "c x\ncut x part 0\nclause 1 0\n",
                "line 2: \"x\" is not a lazy constraint number (`cut L REASON`)",
            ),
            (
                "cut 1\nclause 1 0\n",
                "line 1: the cut has no reason (`cut L REASON`)",
            ),
            (
                "cut 0 part 0 component 0,0\nclause 1 0\n",
                "line 1: lazy constraint 0 does not exist (they are numbered from 1)",
            ),
            (
                "cut 1 r\ncut 1 r\n",
                "line 2: the cut of line 1 has no `clause` line",
            ),
            (
                "cut 1 r\nclause 1 2\n",
                "line 2: the clause is not ended by 0",
            ),
            (
                "cut 1 r\nclause 1 0 2\n",
                "line 2: \"2\" after the closing 0",
            ),
            ("cut 1 r\nclause 1 x 0\n", "line 2: \"x\" is not a literal"),
            (
                "cut 1 r\nclause -999 0\n",
                &format!("line 2: literal -999 is not over a model variable (1..={vars})"),
            ),
            (
                "cuts 1 r\n",
                "line 1: expected a `c`, `cut` or `clause` line, found \"cuts 1 r\"",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(
                parse(text, vars).unwrap_err().to_string(),
                message,
                "{text:?}"
            );
        }
        assert_eq!(parse("c only a comment\n\nc\n", vars).unwrap(), Vec::new());
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
