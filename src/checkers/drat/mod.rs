//! A DRAT proof checker of our own: backward checking with core marking over two-watched-literal
//! unit propagation, for proofs in text or binary DRAT.
//!
//! # What is checked
//!
//! [`check_drat`] takes a formula (clauses of DIMACS literals over variables `1..=num_vars`) and a
//! DRAT proof, a sequence of steps:
//!
//! * a **lemma addition** adds a clause. It must be implied by the clauses active at that point,
//!   either by *reverse unit propagation* (RUP: assigning the negation of every literal of the
//!   lemma and propagating units reaches a conflict) or by the *resolution asymmetric tautology*
//!   property on the lemma's **first** literal, the pivot `p` (RAT: for every active clause `D`
//!   that contains `-p`, the resolvent `lemma ∪ (D \ {-p})` is RUP). Lemmas may use variables
//!   above `num_vars` (extension variables introduced by RAT steps);
//! * a **deletion** removes one active copy of a clause with the same set of literals.
//!
//! Literal order inside a clause does not matter except for the pivot, and duplicate literals are
//! ignored. A clause containing a literal and its negation (a tautology) is always satisfied: it is
//! never watched and never a RAT candidate.
//!
//! # Semantics decisions
//!
//! These follow the default mode of drat-trim, except where noted.
//!
//! * **Unit deletions are ignored.** Deleting a clause that is the reason of a literal assigned by
//!   top-level unit propagation at that point of the proof is ignored (the clause stays active and
//!   counts in [`DratSummary::ignored_unit_deletions`]). This is the "operational" reading of DRAT
//!   that drat-trim and most solvers use. When several active copies of the clause exist, a copy
//!   that is not a reason is deleted instead, so the deletion then takes effect.
//! * **Deleting an absent clause is a warning**, as in drat-trim: the step is ignored and counted
//!   in [`DratSummary::missing_deletions`].
//! * **The empty clause must be explicit.** Checking stops at the first point where unit
//!   propagation on the active clauses (formula plus lemmas, minus deletions) reaches a conflict,
//!   as in drat-trim; steps after that point are parsed but not checked. Unlike drat-trim, the proof
//!   must also contain an explicit empty-clause addition (a text line `0`, binary `a 0x00`) at or
//!   after that point, so that a truncated proof is rejected even when its last lemma happens to
//!   complete the refutation. An explicit empty clause that comes earlier than that point is rejected, as
//!   it is not RUP there (unit propagation finds no conflict yet). This also holds when the
//!   formula alone is refuted by unit propagation, and when the formula itself contains the empty
//!   clause: the proof must still contain `0`, so that every accepted proof is one that ends by
//!   deriving the empty clause, as drat-trim and lrat-check expect.
//! * **Only lemmas in the core are checked** (backward checking): the lemmas that the final
//!   conflict depends on, and recursively the lemmas that the RUP/RAT checks of those lemmas depend
//!   on. A lemma that no checked step uses is never checked, exactly as in drat-trim; dropping it
//!   would leave a valid proof. [`DratSummary::core_lemmas`] counts the lemmas that were checked.
//! * The whole proof is parsed before checking, so a syntax error anywhere is reported.
//!
//! # Formats
//!
//! Proofs in text or binary DRAT are read by [`crate::formats::drat`], which describes both
//! encodings and how [`ProofEncoding::Detect`] tells them apart; syntax errors name the
//! 1-based line of a text proof or the 0-based byte offset of a binary one.
//!
//! # Algorithm
//!
//! A forward pass adds and deletes clauses while keeping the top-level unit propagation fixpoint
//! (two watched literals with blocking literals, a trail with reasons) up to the first conflict,
//! recording the trail length before every lemma. It checks nothing. The conflict is then
//! analysed: every clause in its implication graph is marked as core. A backward pass walks the
//! steps in reverse: a deletion re-activates its clause (with the watches it had when deleted), a
//! lemma addition truncates the trail to its length before the lemma (so the trail is again
//! exactly the forward fixpoint at that step), deactivates the lemma and, if the lemma is marked,
//! checks it: RUP first, then RAT, keeping the propagated negation of the lemma while each
//! candidate's resolvent is tested. Every successful check marks the clauses its conflicts used.
//! Top-level literals whose reasons have already been marked are not walked again, so conflict
//! analysis costs the size of the new part of the implication graph.
//!
//! Watch entries of deactivated clauses are dropped lazily, and all watch lists are swept once the
//! stale entries outnumber the live ones. Occurrence lists for the RAT candidate scan are built on
//! the first RAT attempt only, and a lemma is popped from them when the backward pass removes it.
//! While lemmas are checked, propagation is core-first, as in drat-trim: clauses already marked as
//! core are propagated to a fixpoint before one unmarked clause may imply a literal, which keeps the
//! core (and so the number of lemmas to check) small.
//!
//! The parts: `vars.rs` (the internal numbering of variables, and the proof read by the
//! formats carried over to it), `clauses.rs` (the clause arena, trail and
//! watches), `propagate.rs` (plain and core-first unit propagation), `core.rs` (the two passes
//! and the core marking) and `rat.rs` (checking one lemma, RUP then RAT).
//!
//! # References
//!
//! * N. Wetzler, M. J. H. Heule, W. A. Hunt Jr.: "DRAT-trim: Efficient Checking and Trimming Using
//!   Expressive Clausal Proofs", SAT 2014 (the DRAT format, backward checking with core marking,
//!   and the drat-trim checker whose default behaviour is followed here).
//! * M. J. H. Heule, W. A. Hunt Jr., N. Wetzler: "Trimming while Checking Clausal Proofs",
//!   FMCAD 2013, and "Verifying Refutations with Extended Resolution", CADE 2013 (RUP/RAT checking
//!   and the RAT property).
//! * A. Rebola-Pardo, A. Biere: "Two Flavors of DRAT", Pragmatics of SAT 2018 (specified versus
//!   operational DRAT, i.e. ignored unit deletions).
//! * The binary DRAT encoding as documented with drat-trim and written by CaDiCaL.

use std::fmt;

use thiserror::Error;

use crate::formats::drat::{read_drat, DratReadError};
pub use crate::formats::drat::{ProofEncoding, ProofPosition};
use clauses::Checker;
use vars::{ParsedProof, VarMap};

/// What a successful check found. Counts of lemmas and deletions cover the whole proof; the other
/// counts cover the part up to the refutation, which is all that is checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DratSummary {
    /// Lemma additions in the proof, including empty clauses.
    pub lemmas: usize,
    /// Deletion steps in the proof.
    pub deletions: usize,
    /// Core lemmas that are not RUP and were verified as RAT on their first literal.
    pub rat_lemmas: usize,
    /// Non-empty lemmas that the backward check verified (the core); the rest were not needed.
    pub core_lemmas: usize,
    /// Proof steps (additions and deletions) up to and including the one after which unit
    /// propagation refutes the active clauses; later steps were parsed but not checked. Zero when
    /// the formula alone is refuted.
    pub steps_checked: usize,
    /// Deletions ignored because the clause was the reason of a top-level unit (see module docs).
    pub ignored_unit_deletions: usize,
    /// Deletions ignored because no active clause had those literals (drat-trim warns likewise).
    pub missing_deletions: usize,
}

/// Why a formula or proof was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DratError {
    /// A formula clause holds 0 or a literal whose variable exceeds `num_vars`.
    #[error(
        "formula clause {clause}: literal {literal} is outside 1..={num_vars} or its negation"
    )]
    FormulaLiteral {
        /// 1-based index of the formula clause.
        clause: usize,
        /// The offending literal.
        literal: i32,
        /// The declared variable count.
        num_vars: usize,
    },
    /// The proof is not well-formed: an unexpected token or byte, or a literal out of range.
    #[error("{at}: {message}")]
    Syntax {
        /// Where the problem is.
        at: ProofPosition,
        /// What is wrong.
        message: String,
    },
    /// The proof ends inside a step: the terminating `0` is missing.
    #[error("{at}: the proof ends inside this step (terminating 0 missing)")]
    Truncated {
        /// The unterminated step.
        at: ProofPosition,
    },
    /// A lemma in the core is neither RUP nor RAT on its first literal.
    #[error("{at}: lemma {} is neither RUP nor RAT", DimacsLits(lemma))]
    NotImplied {
        /// The lemma's step.
        at: ProofPosition,
        /// The lemma's literals as written in the proof.
        lemma: Vec<i32>,
    },
    /// An explicit empty clause comes before unit propagation refutes the active clauses.
    #[error("{at}: the empty clause is not implied: unit propagation on the active clauses finds no conflict")]
    EmptyClauseNotImplied {
        /// The empty clause's step.
        at: ProofPosition,
    },
    /// The proof ends, and unit propagation on the active clauses never reached a conflict.
    #[error("the proof derives no empty clause: it has none, and unit propagation on the formula and all lemmas finds no conflict")]
    NoEmptyClause,
    /// Unit propagation refutes the active clauses, but no explicit empty clause follows.
    #[error("the proof derives no empty clause: unit propagation refutes {}, but no explicit empty clause (a line `0`) follows", RefutedAt(refuted_after))]
    NoExplicitEmptyClause {
        /// The step after which unit propagation conflicts; `None` when the formula alone does.
        refuted_after: Option<ProofPosition>,
    },
}

impl From<DratReadError> for DratError {
    fn from(error: DratReadError) -> DratError {
        match error {
            DratReadError::Syntax { at, message } => DratError::Syntax { at, message },
            DratReadError::Truncated { at } => DratError::Truncated { at },
        }
    }
}

/// Formats literals as DIMACS separated by spaces.
struct DimacsLits<'a>(&'a [i32]);

impl fmt::Display for DimacsLits<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, lit) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{lit}")?;
        }
        Ok(())
    }
}

/// Formats where unit propagation first conflicted.
struct RefutedAt<'a>(&'a Option<ProofPosition>);

impl fmt::Display for RefutedAt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(at) => write!(f, "the active clauses after {at}"),
            None => f.write_str("the formula itself"),
        }
    }
}

/// Checks a DRAT refutation of the formula `clauses` over variables `1..=num_vars`.
///
/// Returns a summary when every lemma that the refutation depends on is RUP or RAT and the proof
/// contains an explicit empty clause at or after the point where unit propagation refutes the
/// active clauses (see the module docs for the exact semantics). Formula literals must be nonzero
/// with variables at most `num_vars`; proof literals may use any variable up to `i32::MAX`.
pub fn check_drat(
    num_vars: usize,
    clauses: &[Vec<i32>],
    proof: &[u8],
    encoding: ProofEncoding,
) -> Result<DratSummary, DratError> {
    let mut base = 0u32;
    let mut formula_has_empty = false;
    for (i, clause) in clauses.iter().enumerate() {
        formula_has_empty |= clause.is_empty();
        for &literal in clause {
            let var = literal.unsigned_abs();
            if literal == 0 || literal == i32::MIN || var as usize > num_vars {
                return Err(DratError::FormulaLiteral {
                    clause: i + 1,
                    literal,
                    num_vars,
                });
            }
            base = base.max(var);
        }
    }
    let mut vars = VarMap::new(base);
    let formula: Vec<Vec<u32>> = clauses
        .iter()
        .map(|c| c.iter().map(|&l| vars.code(l)).collect())
        .collect();
    let parsed = ParsedProof::new(read_drat(proof, encoding)?, &mut vars);
    let mut summary = DratSummary {
        lemmas: parsed.steps.iter().filter(|s| !s.delete).count(),
        deletions: parsed.steps.iter().filter(|s| s.delete).count(),
        ..DratSummary::default()
    };
    if formula_has_empty {
        // Refuted by the formula alone, but the proof must still say so (see the module docs).
        let explicit = parsed.steps.iter().any(|s| !s.delete && s.len == 0);
        if !explicit {
            return Err(DratError::NoExplicitEmptyClause {
                refuted_after: None,
            });
        }
        return Ok(summary);
    }
    let mut checker = Checker::new(vars.num_internal());
    checker.run(&formula, &parsed, &vars, &mut summary)?;
    Ok(summary)
}

/// [`check_drat`] in the form the external SAT oracles take a checker (the encoding detected):
/// the proof's lemma count, or why it does not refute the formula.
pub fn check_refutation(
    num_vars: usize,
    clauses: &[Vec<i32>],
    proof: &[u8],
) -> Result<usize, DratError> {
    check_drat(num_vars, clauses, proof, ProofEncoding::Detect).map(|summary| summary.lemmas)
}

/// Sentinel for "no clause" / "no literal".
const NONE: u32 = u32::MAX;

mod clauses;
mod core;
mod propagate;
mod rat;
mod vars;

#[cfg(test)]
mod tests;
