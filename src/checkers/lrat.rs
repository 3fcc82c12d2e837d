//! An LRAT proof checker of our own, sharing no code with varisat; the DIMACS CNF it
//! checks against is read by [`crate::formats::dimacs`] (its SATLIB dialect).
//!
//! # What is checked
//!
//! The input formula is a list of clauses in DIMACS literals; clause `i` (0-based) has the
//! clause ID `i + 1`. The proof is textual LRAT, one step per line:
//!
//! * `ID lit* 0 hint* 0` adds clause `ID`. It is accepted when assigning the negation of each
//!   of its literals and then walking the hints in order makes every hint clause unit (its one
//!   unassigned literal is then assigned true) until a hint clause is falsified entirely
//!   (reverse unit propagation, RUP). Hints after that conflict are ignored.
//! * `ID d id* 0` deletes clauses; the leading `ID` carries no meaning and is ignored.
//! * Empty lines and lines starting with `c` are comments.
//!
//! Added IDs must grow strictly (beyond the formula's IDs too), so a hint can never refer to
//! a clause that is added later. The check succeeds at the first line that adds the empty
//! clause. A formula that itself contains the empty clause still needs that line (`ID 0 k 0`,
//! with `k` the empty clause's ID), as lrat-check does: a proof must end in a refutation.
//!
//! RAT steps (a negative hint) are rejected with [`LratError::RatUnsupported`]: the only
//! producer in this project, varisat-lrat 0.2.2, writes every addition as a RUP step (its
//! `WriteLrat` prints only `AtClause` steps), so RAT support would be untested code.
//!
//! # References
//!
//! Cruz-Filipe, Heule, Hunt, Kaufmann, Schneider-Kamp: "Efficient Certified RAT Verification",
//! CADE 2017 (the LRAT format).

use crate::formats::dimacs::{read_cnf, CnfDialect, CnfError};
use crate::formats::lrat::{LratReader, LratStep};
use crate::formats::ReadError;
use std::collections::HashMap;
use std::io::BufRead;

use thiserror::Error;

/// Why a formula or proof was rejected. `line` is the 1-based line of the proof (or of the
/// DIMACS text for [`LratError::Dimacs`]); `clause` is the ID of the clause being added.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LratError {
    /// The DIMACS text is malformed.
    #[error("cnf line {line}: {message}")]
    Dimacs {
        /// Line of the DIMACS text.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A clause of the formula holds 0 or a literal whose variable exceeds the variable count.
    #[error(
        "formula clause {clause}: literal {literal} is outside 1..={num_vars} or its negation"
    )]
    FormulaLiteral {
        /// ID of the formula clause.
        clause: u64,
        /// The offending literal.
        literal: i64,
        /// Declared variable count.
        num_vars: usize,
    },
    /// A proof line is not well-formed LRAT text.
    #[error("line {line}: {message}")]
    Syntax {
        /// Proof line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A proof literal uses a variable beyond the variable count.
    #[error("line {line}: literal {literal} is outside 1..={num_vars} or its negation")]
    ProofLiteral {
        /// Proof line.
        line: usize,
        /// The offending literal.
        literal: i64,
        /// Declared variable count.
        num_vars: usize,
    },
    /// An added clause ID is not larger than every ID before it.
    #[error("line {line}: clause {clause}: ID is not above the largest earlier ID {largest}")]
    IdNotIncreasing {
        /// Proof line.
        line: usize,
        /// ID of the clause being added.
        clause: u64,
        /// Largest ID used before this line.
        largest: u64,
    },
    /// A hint names a clause that was never there or was deleted.
    #[error("line {line}: clause {clause}: hint {hint} refers to a deleted or unknown clause")]
    UnknownHint {
        /// Proof line.
        line: usize,
        /// ID of the clause being added.
        clause: u64,
        /// The hint.
        hint: u64,
    },
    /// A deletion names a clause that was never there or was already deleted.
    #[error("line {line}: deletion of clause {id}, which is deleted or unknown")]
    UnknownDeletion {
        /// Proof line.
        line: usize,
        /// The ID to delete.
        id: u64,
    },
    /// A hint clause is satisfied, or has two or more unassigned literals.
    #[error("line {line}: clause {clause}: hint {hint} is not unit under the assignment")]
    HintNotUnit {
        /// Proof line.
        line: usize,
        /// ID of the clause being added.
        clause: u64,
        /// The hint.
        hint: u64,
    },
    /// The hints ran out before some hint clause was falsified.
    #[error("line {line}: clause {clause}: the hints end without a conflict")]
    NoConflict {
        /// Proof line.
        line: usize,
        /// ID of the clause being added.
        clause: u64,
    },
    /// The step has a negative hint, which marks a RAT step; see the module docs.
    #[error("line {line}: clause {clause}: RAT steps (negative hints) are not supported")]
    RatUnsupported {
        /// Proof line.
        line: usize,
        /// ID of the clause being added.
        clause: u64,
    },
    /// Every line checked, but none added the empty clause.
    #[error("proof never derives the empty clause")]
    NoEmptyClause,
    /// The proof could not be read.
    #[error("{0}")]
    Unreadable(String),
}

/// Counts from a successful check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LratStats {
    /// Clause additions checked, the empty clause included.
    pub additions: usize,
    /// Clause IDs deleted.
    pub deletions: usize,
    /// Hints followed during the RUP checks.
    pub hints: usize,
    /// Proof line that added the empty clause.
    pub empty_clause_line: usize,
}

/// Parses DIMACS CNF text: `c` comment lines, one `p cnf VARS CLAUSES` header, then clauses
/// of nonzero literals each ended by `0` (a clause may span lines). A line starting with `%`
/// ends the formula, as in the SATLIB benchmark files. Returns the variable count and the
/// clauses; the clause count must match the header.
pub fn parse_dimacs(text: &str) -> Result<(usize, Vec<Vec<i32>>), LratError> {
    let file = read_cnf(text, CnfDialect::Satlib).map_err(|error| {
        let (line, message) = match error {
            CnfError::BadHeader { line, header } => (
                line,
                format!("bad header {header:?}, want p cnf VARS CLAUSES"),
            ),
            CnfError::SecondHeader { line } => (line, "second header".into()),
            CnfError::TooManyVariables { line, vars } => {
                (line, format!("{vars} variables do not fit DIMACS literals"))
            }
            CnfError::ClauseBeforeHeader { line } => (line, "clause before the header".into()),
            CnfError::NotALiteral { line, word } => (line, format!("{word:?} is not an integer")),
            CnfError::BeyondHeader {
                line,
                literal,
                num_vars,
            } => (
                line,
                format!("literal {literal} exceeds the {num_vars} declared variables"),
            ),
            CnfError::NoHeader { line } => (line, "no p cnf header".into()),
            CnfError::Unterminated { line, .. } => {
                (line, "the last clause is not ended by 0".into())
            }
            CnfError::ClauseCount {
                line,
                declared,
                found,
            } => (
                line,
                format!("header declares {declared} clauses, found {found}"),
            ),
        };
        LratError::Dimacs { line, message }
    })?;
    Ok((file.num_vars, file.clauses))
}

/// Checks an LRAT refutation of `cnf` (clause `i` has ID `i + 1`, variables `1..=num_vars`).
/// Succeeds only when the empty clause is derived; see the module docs for the exact rules.
pub fn check_lrat(num_vars: usize, cnf: &[Vec<i32>], proof: &str) -> Result<LratStats, LratError> {
    check_lrat_reader(num_vars, cnf, proof.as_bytes())
}

/// [`check_lrat`] of a proof read a step at a time from `proof` (a file of gigabytes is
/// never held whole).
pub fn check_lrat_reader(
    num_vars: usize,
    cnf: &[Vec<i32>],
    proof: impl BufRead,
) -> Result<LratStats, LratError> {
    let mut checker = Checker::new(num_vars);
    let mut stats = LratStats::default();
    for (index, clause) in cnf.iter().enumerate() {
        let id = index as u64 + 1;
        let literals = clause
            .iter()
            .map(|&literal| i64::from(literal))
            .collect::<Vec<_>>();
        let literals =
            checker
                .normalise(&literals)
                .map_err(|literal| LratError::FormulaLiteral {
                    clause: id,
                    literal,
                    num_vars,
                })?;
        checker.clauses.insert(id, literals);
    }
    checker.largest_id = cnf.len() as u64;

    let mut reader = LratReader::new(proof);
    loop {
        let step = reader.next_step().map_err(|error| match error {
            ReadError::Line { line, message } => LratError::Syntax { line, message },
            ReadError::File(message) => LratError::Unreadable(message),
        })?;
        let Some((line, step)) = step else { break };
        match step {
            LratStep::Delete { ids } => {
                for &id in ids {
                    if checker.clauses.remove(id).is_none() {
                        return Err(LratError::UnknownDeletion { line, id });
                    }
                    stats.deletions += 1;
                }
            }
            LratStep::Add {
                id,
                literals,
                hints,
            } => {
                if id <= checker.largest_id {
                    return Err(LratError::IdNotIncreasing {
                        line,
                        clause: id,
                        largest: checker.largest_id,
                    });
                }
                let literals =
                    checker
                        .normalise(literals)
                        .map_err(|literal| LratError::ProofLiteral {
                            line,
                            literal,
                            num_vars,
                        })?;
                stats.hints += checker.check_rup(line, id, &literals, hints)?;
                stats.additions += 1;
                if literals.is_empty() {
                    stats.empty_clause_line = line;
                    return Ok(stats);
                }
                checker.largest_id = id;
                checker.clauses.insert(id, literals);
            }
        }
    }
    Err(LratError::NoEmptyClause)
}

/// The live clauses by ID. Proofs number their clauses densely, so IDs index a vector;
/// one far beyond the others (a gap of more than [`Clauses::DENSE_GAP`]) goes to a map,
/// so that a proof cannot make the vector huge.
#[derive(Default)]
struct Clauses {
    dense: Vec<Option<Box<[i32]>>>,
    sparse: HashMap<u64, Box<[i32]>>,
}

impl Clauses {
    /// The largest gap between the dense IDs and a new one that still extends them.
    const DENSE_GAP: u64 = 1 << 16;

    fn get(&self, id: u64) -> Option<&[i32]> {
        match self.dense.get(id as usize) {
            Some(clause) => clause.as_deref(),
            None => self.sparse.get(&id).map(|c| &c[..]),
        }
    }

    fn insert(&mut self, id: u64, clause: Box<[i32]>) {
        let dense = self.dense.len() as u64;
        if id < dense + Self::DENSE_GAP && self.sparse.is_empty() {
            if id >= dense {
                self.dense.resize_with(id as usize + 1, || None);
            }
            self.dense[id as usize] = Some(clause);
        } else {
            self.sparse.insert(id, clause);
        }
    }

    fn remove(&mut self, id: u64) -> Option<Box<[i32]>> {
        match self.dense.get_mut(id as usize) {
            Some(clause) => clause.take(),
            None => self.sparse.remove(&id),
        }
    }
}

/// The live clauses and a partial assignment for RUP checks.
struct Checker {
    num_vars: usize,
    /// Live clauses by ID, literals without duplicates.
    clauses: Clauses,
    /// Largest clause ID used so far.
    largest_id: u64,
    /// Per variable: 1 true, -1 false, 0 unassigned. Index 0 is unused.
    values: Vec<i8>,
    /// Variables assigned during the current check, to undo it.
    trail: Vec<usize>,
}

/// What a clause looks like under the current assignment.
enum ClauseState {
    Satisfied,
    Falsified,
    Unit(i32),
    Open,
}

impl Checker {
    fn new(num_vars: usize) -> Checker {
        Checker {
            num_vars,
            clauses: Clauses::default(),
            largest_id: 0,
            values: vec![0; num_vars + 1],
            trail: Vec::new(),
        }
    }

    /// Range-checks literals and drops repeated ones (sorting them: order does not matter
    /// to RUP); returns the first bad literal on error.
    fn normalise(&self, literals: &[i64]) -> Result<Box<[i32]>, i64> {
        let mut clause = Vec::with_capacity(literals.len());
        for &literal in literals {
            if literal == 0 || literal.unsigned_abs() > self.num_vars as u64 {
                return Err(literal);
            }
            clause.push(literal as i32);
        }
        clause.sort_unstable();
        clause.dedup();
        Ok(clause.into_boxed_slice())
    }

    fn value(&self, literal: i32) -> i8 {
        let value = self.values[literal.unsigned_abs() as usize];
        if literal < 0 {
            -value
        } else {
            value
        }
    }

    fn assign_true(&mut self, literal: i32) {
        let var = literal.unsigned_abs() as usize;
        self.values[var] = if literal < 0 { -1 } else { 1 };
        self.trail.push(var);
    }

    fn state(&self, clause: &[i32]) -> ClauseState {
        let mut unassigned = None;
        for &literal in clause {
            match self.value(literal) {
                1 => return ClauseState::Satisfied,
                0 if unassigned.is_some() => return ClauseState::Open,
                0 => unassigned = Some(literal),
                _ => {}
            }
        }
        unassigned.map_or(ClauseState::Falsified, ClauseState::Unit)
    }

    /// RUP check of clause `id`; returns the number of hints followed. Always leaves the
    /// assignment empty.
    fn check_rup(
        &mut self,
        line: usize,
        id: u64,
        literals: &[i32],
        hints: &[i64],
    ) -> Result<usize, LratError> {
        let result = self.propagate_hints(line, id, literals, hints);
        for var in self.trail.drain(..) {
            self.values[var] = 0;
        }
        result
    }

    fn propagate_hints(
        &mut self,
        line: usize,
        id: u64,
        literals: &[i32],
        hints: &[i64],
    ) -> Result<usize, LratError> {
        for &literal in literals {
            if self.value(literal) == 1 {
                // The clause holds a literal and its negation: a tautology needs no hints.
                return Ok(0);
            }
            self.assign_true(-literal);
        }
        for (followed, &hint) in hints.iter().enumerate() {
            if hint < 0 {
                return Err(LratError::RatUnsupported { line, clause: id });
            }
            let hint = hint as u64;
            let clause = self.clauses.get(hint).ok_or(LratError::UnknownHint {
                line,
                clause: id,
                hint,
            })?;
            match self.state(clause) {
                ClauseState::Falsified => return Ok(followed + 1),
                ClauseState::Unit(literal) => self.assign_true(literal),
                ClauseState::Satisfied | ClauseState::Open => {
                    return Err(LratError::HintNotUnit {
                        line,
                        clause: id,
                        hint,
                    })
                }
            }
        }
        Err(LratError::NoConflict { line, clause: id })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (x1 ∨ x2) (¬x1 ∨ x2) (x1 ∨ ¬x2) (¬x1 ∨ ¬x2): every assignment fails one clause.
    fn all_four() -> Vec<Vec<i32>> {
        vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]]
    }

    #[test]
    fn accepts_a_handwritten_refutation() {
        let proof = "c derive x2, then the empty clause\n5 2 0 1 2 0\n6 0 5 3 4 0\n";
        let stats = check_lrat(2, &all_four(), proof).unwrap();
        assert_eq!(
            stats,
            LratStats {
                additions: 2,
                deletions: 0,
                hints: 5,
                empty_clause_line: 3
            }
        );
    }

    #[test]
    fn accepts_deletions_and_ignores_hints_after_the_conflict() {
        let proof = "5 2 0 1 2 0\n5 d 1 2 0\n6 0 5 3 4 4 0\n";
        let stats = check_lrat(2, &all_four(), proof).unwrap();
        assert_eq!((stats.additions, stats.deletions, stats.hints), (2, 2, 5));
    }

    #[test]
    fn accepts_tautologies_without_hints() {
        let proof = "5 1 -1 0 0\n6 2 0 1 2 0\n7 0 6 3 4 0\n";
        assert!(check_lrat(2, &all_four(), proof).is_ok());
    }

    #[test]
    fn a_formula_with_the_empty_clause_still_needs_the_empty_clause_step() {
        let stats = check_lrat(1, &[vec![1], vec![]], "3 0 2 0\n").unwrap();
        assert_eq!(stats.empty_clause_line, 1);
        assert_eq!(
            check_lrat(1, &[vec![1], vec![]], "").unwrap_err(),
            LratError::NoEmptyClause
        );
    }

    #[test]
    fn rejects_a_hint_that_is_not_unit() {
        // Under ¬x2, clause 3 (x1 ∨ ¬x2) is satisfied.
        let error = check_lrat(2, &all_four(), "5 2 0 3 1 0\n").unwrap_err();
        assert_eq!(
            error,
            LratError::HintNotUnit {
                line: 1,
                clause: 5,
                hint: 3
            }
        );
        assert_eq!(
            error.to_string(),
            "line 1: clause 5: hint 3 is not unit under the assignment"
        );
    }

    #[test]
    fn rejects_hints_without_a_conflict() {
        let error = check_lrat(2, &all_four(), "5 2 0 1 0\n").unwrap_err();
        assert_eq!(error, LratError::NoConflict { line: 1, clause: 5 });
    }

    #[test]
    fn rejects_a_hint_to_a_deleted_clause() {
        let proof = "4 d 2 0\n5 2 0 1 2 0\n";
        let error = check_lrat(2, &all_four(), proof).unwrap_err();
        assert_eq!(
            error,
            LratError::UnknownHint {
                line: 2,
                clause: 5,
                hint: 2
            }
        );
        let error = check_lrat(2, &all_four(), "5 2 0 1 999 0\n").unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 1: clause 5: hint 999 refers to a deleted or unknown clause"
        );
    }

    #[test]
    fn rejects_deleting_an_unknown_clause() {
        let error = check_lrat(2, &all_four(), "4 d 2 2 0\n").unwrap_err();
        assert_eq!(error, LratError::UnknownDeletion { line: 1, id: 2 });
    }

    #[test]
    fn rejects_a_proof_without_the_empty_clause() {
        let error = check_lrat(2, &all_four(), "5 2 0 1 2 0\n").unwrap_err();
        assert_eq!(error, LratError::NoEmptyClause);
        assert_eq!(error.to_string(), "proof never derives the empty clause");
    }

    #[test]
    fn rejects_an_empty_clause_on_a_satisfiable_formula() {
        let satisfiable = &all_four()[..3];
        let error = check_lrat(2, satisfiable, "4 0 1 2 3 0\n").unwrap_err();
        assert!(matches!(error, LratError::HintNotUnit { .. }), "{error}");
    }

    #[test]
    fn rejects_reused_and_decreasing_ids() {
        let error = check_lrat(2, &all_four(), "4 2 0 1 2 0\n").unwrap_err();
        assert_eq!(
            error,
            LratError::IdNotIncreasing {
                line: 1,
                clause: 4,
                largest: 4
            }
        );
        let error = check_lrat(2, &all_four(), "9 2 0 1 2 0\n7 0 9 3 4 0\n").unwrap_err();
        assert_eq!(
            error,
            LratError::IdNotIncreasing {
                line: 2,
                clause: 7,
                largest: 9
            }
        );
    }

    #[test]
    fn rejects_rat_steps() {
        let error = check_lrat(2, &all_four(), "5 2 0 -1 2 0\n").unwrap_err();
        assert_eq!(error, LratError::RatUnsupported { line: 1, clause: 5 });
    }

    #[test]
    fn rejects_literals_out_of_range() {
        let error = check_lrat(2, &all_four(), "5 3 0 1 2 0\n").unwrap_err();
        assert_eq!(
            error,
            LratError::ProofLiteral {
                line: 1,
                literal: 3,
                num_vars: 2
            }
        );
        let error = check_lrat(1, &all_four(), "").unwrap_err();
        assert_eq!(
            error,
            LratError::FormulaLiteral {
                clause: 1,
                literal: 2,
                num_vars: 1
            }
        );
    }

    #[test]
    fn rejects_malformed_lines_with_their_line_number() {
        for (proof, line) in [
            ("5 2 0 1 2\n", 1),
            ("\nc comment\n5 2 x 0 1 2 0\n", 3),
            ("5 2 0 1 2 0 7\n", 1),
            ("0 2 0 1 2 0\n", 1),
            ("5 d 1 0\n5 d -1 0\n", 2),
        ] {
            match check_lrat(2, &all_four(), proof) {
                Err(LratError::Syntax { line: got, .. }) => assert_eq!(got, line, "{proof:?}"),
                other => panic!("{proof:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn parses_dimacs() {
        let text = "c example\np cnf 3 2\n1 -3 0\n2\n3 -1 0\n";
        assert_eq!(
            parse_dimacs(text).unwrap(),
            (3, vec![vec![1, -3], vec![2, 3, -1]])
        );
        assert_eq!(
            parse_dimacs("p cnf 2 1\n1 2 0\n%\n0\n").unwrap().1,
            vec![vec![1, 2]]
        );
    }

    #[test]
    fn dimacs_errors_carry_line_numbers() {
        for (text, line) in [
            ("1 2 0\n", 1),
            ("p cnf 2\n", 1),
            ("p cnf 2 1\n1 3 0\n", 2),
            ("p cnf 2 1\n\n1 two 0\n", 3),
            ("p cnf 2 1\n1 2\n", 2),
            ("p cnf 2 2\n1 2 0\n", 2),
            ("p cnf 2 1\np cnf 2 1\n", 2),
            ("c nothing\n", 1),
        ] {
            match parse_dimacs(text) {
                Err(LratError::Dimacs { line: got, .. }) => assert_eq!(got, line, "{text:?}"),
                other => panic!("{text:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn dimacs_round_trip() {
        let clauses = all_four();
        let mut text = format!("p cnf 2 {}\n", clauses.len());
        for clause in &clauses {
            for literal in clause {
                text.push_str(&format!("{literal} "));
            }
            text.push_str("0\n");
        }
        assert_eq!(parse_dimacs(&text).unwrap(), (2, clauses));
    }
}
