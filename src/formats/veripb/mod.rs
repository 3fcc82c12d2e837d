//! VeriPB 3.0 files: OPB constraint files and pseudo-Boolean proofs, read and written. The
//! types of a file and of a proof's steps live here; `read` turns text into them (over
//! `tokens`) and `write` turns them back into text (its numbers through `digits`), so that
//! what the writer says the reader reads back.

mod digits;
mod read;
mod tokens;
mod write;

pub use digits::{push_int, push_uint};
pub use read::{read_opb, ProofReader};
pub use write::{
    push_clause_rup, push_constraint, push_delete, push_pol, push_pol_sum, push_step, write_opb,
    ProofWriter,
};

use rustc_hash::FxHashMap;

/// A problem in an OPB file or a proof: the 1-based line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct VeriPbError {
    /// The 1-based line (0 when the file could not be read at all).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn error<T>(line: usize, message: impl Into<String>) -> Result<T, VeriPbError> {
    Err(VeriPbError {
        line,
        message: message.into(),
    })
}

/// A literal: a variable (an index into [`VarNames`]) or its negation, packed as
/// `2 * variable + negated` so that it can index per-literal tables.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(u32);

impl Lit {
    /// The literal of variable `var`, negated or not.
    pub fn new(var: u32, negated: bool) -> Lit {
        Lit(var << 1 | u32::from(negated))
    }

    /// Its variable.
    pub fn var(self) -> u32 {
        self.0 >> 1
    }

    /// Whether it is the negation `~x`.
    pub fn is_negated(self) -> bool {
        self.0 & 1 == 1
    }

    /// The opposite literal.
    pub fn negate(self) -> Lit {
        Lit(self.0 ^ 1)
    }

    /// `2 * variable + negated`, for per-literal tables.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Variable names and their indices, in the order first seen. Names `x1`, `x2`, ... are
/// found through a table by number rather than by hashing, as they are nearly all of them.
#[derive(Clone, Debug, Default)]
pub struct VarNames {
    names: Vec<Box<str>>,
    /// Each name's first [`PADDED`] bytes, zeros after it: a writer copies a short name as
    /// one block of known size ([`VarNames::push_name_bytes`]).
    padded: Vec<[u8; PADDED]>,
    /// Each name's length, or `PADDED + 1` for a longer one: read beside `padded`, it
    /// saves loading the name itself.
    short_lengths: Vec<u8>,
    /// `numbered[n]` is 1 + the variable named `xn`, or 0.
    numbered: Vec<u32>,
    others: FxHashMap<Box<str>, u32>,
}

/// The length of [`VarNames`]'s padded copies of names.
const PADDED: usize = 16;

/// The number `n` of a name `xn` (no leading zero), when it is small enough for a table.
fn name_number(name: &str) -> Option<usize> {
    let digits = name.strip_prefix('x')?;
    if digits.is_empty() || digits.len() > 8 || digits.starts_with('0') {
        return None;
    }
    digits.bytes().try_fold(0usize, |n, b| {
        b.is_ascii_digit().then(|| n * 10 + usize::from(b - b'0'))
    })
}

impl VarNames {
    /// The names `x1` .. `xn`, as variables 0 .. n-1.
    pub fn numbered(n: usize) -> VarNames {
        let mut names = VarNames::default();
        for i in 1..=n {
            names.intern(&format!("x{i}"));
        }
        names
    }

    /// The variable named `name`, added when new.
    pub fn intern(&mut self, name: &str) -> u32 {
        if let Some(found) = self.find(name) {
            return found;
        }
        let var = self.names.len() as u32;
        self.names.push(name.into());
        let mut padded = [0; PADDED];
        let short = &name.as_bytes()[..name.len().min(PADDED)];
        padded[..short.len()].copy_from_slice(short);
        self.padded.push(padded);
        self.short_lengths.push(name.len().min(PADDED + 1) as u8);
        match name_number(name) {
            Some(n) => {
                if self.numbered.len() <= n {
                    self.numbered.resize(n + 1, 0);
                }
                self.numbered[n] = var + 1;
            }
            None => {
                self.others.insert(name.into(), var);
            }
        }
        var
    }

    /// The variable named `name`, if known.
    pub fn find(&self, name: &str) -> Option<u32> {
        match name_number(name) {
            Some(n) => self
                .numbered
                .get(n)
                .copied()
                .filter(|&v| v > 0)
                .map(|v| v - 1),
            None => self.others.get(name).copied(),
        }
    }

    /// The name of variable `var`.
    pub fn name(&self, var: u32) -> &str {
        &self.names[var as usize]
    }

    /// How many variables are known.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether no variable is known.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// How a constraint compares its sum with its right-hand side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Relation {
    /// `>=`
    AtLeast,
    /// `<=`
    AtMost,
    /// `=` (OPB files only; VeriPB reads it as `>=` then `<=`, two constraint IDs)
    Equal,
}

/// A linear constraint over literals as written: `sum coef * lit RELATION rhs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    /// (coefficient, literal) terms, in the written order; a variable may repeat.
    pub terms: Vec<(i64, Lit)>,
    /// The comparison.
    pub relation: Relation,
    /// The right-hand side.
    pub rhs: i64,
}

/// A minimised objective: `sum coef * lit + constant`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Objective {
    /// (coefficient, literal) terms.
    pub terms: Vec<(i64, Lit)>,
    /// The constant added.
    pub constant: i64,
}

/// An OPB file: the variables, the objective (if any) and the constraints in order.
#[derive(Clone, Debug)]
pub struct OpbFile {
    /// The `#variable=` count of the header.
    pub declared_variables: usize,
    /// The names of the variables, in the order first seen.
    pub names: VarNames,
    /// The `min:` objective.
    pub objective: Option<Objective>,
    /// The constraints; an `=` constraint takes two IDs in a proof.
    pub constraints: Vec<Constraint>,
}

impl OpbFile {
    /// How many constraint IDs the file gives a proof (an equality counts twice).
    pub fn constraint_ids(&self) -> u64 {
        self.constraints
            .iter()
            .map(|c| if c.relation == Relation::Equal { 2 } else { 1 })
            .sum()
    }
}

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
