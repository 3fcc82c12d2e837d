//! VeriPB 3.0 pseudo-Boolean proofs, read and written: the types of a proof's steps live
//! here; `read` turns text into them and `write` turns them back into text, so that what the
//! writer says the reader reads back. A proof's constraints, literals and variable names are
//! those of the OPB file it refers to, read and written by [`super::opb`].

mod read;
mod write;

pub use read::ProofReader;
pub use write::{push_clause_rup, push_delete, push_pol, push_pol_sum, push_step, ProofWriter};

use super::opb::{Constraint, Lit};

/// A constraint ID as a proof names it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ConstraintId {
    /// The ID itself (1-based).
    Absolute(u64),
    /// `-k`: the k-th most recent ID (`-1` is the last one given).
    Back(u64),
}

/// One operand or operation of a `pol` line, in reverse Polish order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PolItem {
    /// A constraint of the database.
    Id(ConstraintId),
    /// The literal axiom `lit >= 0`.
    Axiom(Lit),
    /// Add the two constraints on top.
    Add,
    /// Multiply the constraint on top by a positive factor.
    Multiply(u64),
    /// Divide the constraint on top (in its normal form), rounding up.
    Divide(u64),
    /// Saturate the constraint on top.
    Saturate,
    /// Weaken the variable away from the constraint on top.
    Weaken(u32),
    /// Lower the right-hand side of the constraint on top.
    Decrement(u64),
}

/// One entry of a `rup` hint list.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Hint {
    /// `~`: the negation of the constraint being derived.
    Negation,
    /// A constraint of the database.
    Id(ConstraintId),
}

/// The claim of a `conclusion` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conclusion {
    /// `NONE`: nothing claimed.
    None,
    /// `SAT`, with a solution or relying on a logged one.
    Sat(Option<Vec<Lit>>),
    /// `UNSAT`, with the ID of a contradiction or not.
    Unsat(Option<ConstraintId>),
    /// `BOUNDS lower [: id] upper [: solution]`; `None` bounds are `INF`.
    Bounds {
        /// The lower bound on the objective.
        lower: Option<i64>,
        /// The constraint that implies it.
        lower_hint: Option<ConstraintId>,
        /// The upper bound.
        upper: Option<i64>,
        /// A solution of that value.
        solution: Option<Vec<Lit>>,
    },
}

/// What a `red` witness maps a variable to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WitnessValue {
    /// The constant `1` (true) or `0` (false).
    Constant(bool),
    /// A literal (`x3` or `~x3`).
    Literal(Lit),
}

/// One step of a proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// `f N ;`: the formula has N constraint IDs.
    Formula(u64),
    /// `pol ... ;`: a cutting-planes derivation.
    Pol(Vec<PolItem>),
    /// `rup C [: hints] ;`: C follows by unit propagation, over the hints when given.
    Rup {
        /// What is derived.
        constraint: Constraint,
        /// The constraints to propagate over, in order.
        hints: Option<Vec<Hint>>,
    },
    /// `pbc C : subproof` (the subproof follows, up to its `qed`) or `pbc C ;`.
    Pbc {
        /// What is derived.
        constraint: Constraint,
        /// Whether a subproof follows.
        subproof: bool,
    },
    /// `red C : x -> v ... ;`: C by redundance-based strengthening with the witness
    /// (a substitution of variables), without a subproof.
    Red {
        /// What is derived.
        constraint: Constraint,
        /// The witness: (variable, what it maps to), in the written order.
        witness: Vec<(u32, WitnessValue)>,
    },
    /// `qed [pbc] [: id] ;`: the innermost subproof ends, with its contradiction.
    Qed(Option<ConstraintId>),
    /// `sol lits [: value] ;` or, improving, `soli ...`.
    Solution {
        /// The assignment.
        literals: Vec<Lit>,
        /// `soli`: also derive "objective below this value".
        improving: bool,
        /// The claimed objective value.
        value: Option<i64>,
    },
    /// `del id ids ;`
    Delete(Vec<ConstraintId>),
    /// `del range a b ;`: IDs from a up to (not including) b.
    DeleteRange(ConstraintId, ConstraintId),
    /// `output NONE ;`
    OutputNone,
    /// `conclusion ... ;`
    Conclusion(Conclusion),
    /// `end pseudo-Boolean proof ;`
    End,
}

impl Step {
    /// The rule's name, as the proof spells it.
    pub fn rule(&self) -> &'static str {
        match self {
            Step::Formula(_) => "f",
            Step::Pol(_) => "pol",
            Step::Rup { .. } => "rup",
            Step::Pbc { .. } => "pbc",
            Step::Red { .. } => "red",
            Step::Qed(_) => "qed",
            Step::Solution {
                improving: false, ..
            } => "sol",
            Step::Solution {
                improving: true, ..
            } => "soli",
            Step::Delete(_) | Step::DeleteRange(..) => "del",
            Step::OutputNone => "output",
            Step::Conclusion(_) => "conclusion",
            Step::End => "end",
        }
    }
}

/// The first line of every proof.
pub const PROOF_HEADER: &str = "pseudo-Boolean proof version 3.0";
