//! OPB files, the pseudo-Boolean format of the PB Competition and of VeriPB: a
//! `* #variable= N #constraint= M` header, `*` comment lines, an optional `min:` objective
//! and one linear constraint per `;` (`>=`, `<=` or `=`) over named variables, `~x` for a
//! negation. The one reader ([`read_opb`]) and the one writer ([`OpbWriter`], and
//! [`write_opb`] for a whole [`OpbFile`]) serve `emit` and `decode` (variables `x1 .. xN`,
//! coefficients with their sign, `* var N name` comments) and the VeriPB proofs and their
//! formulas alike; the proofs' own grammar (`veripb`) reads its constraints with these
//! tokens and writes them with this writer.

mod names;
mod read;
pub(super) mod tokens;
mod write;

use names::name_number;
pub use names::VarNames;
pub(in crate::formats) use names::PADDED;
pub use read::read_opb;
pub use write::{push_constraint, write_opb, Coefficients, Naming, Numbered, OpbWriter};

/// A problem in an OPB file, or in a VeriPB proof (whose constraints read as OPB's): the
/// 1-based line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct PbSyntaxError {
    /// The 1-based line (0 when the file could not be read at all).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

pub(in crate::formats) fn error<T>(
    line: usize,
    message: impl Into<String>,
) -> Result<T, PbSyntaxError> {
    Err(PbSyntaxError {
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

    /// The objective's value (its constant included; 0 without an objective) when every
    /// constraint holds, `values` giving each variable's value by index; `None` when a
    /// constraint fails.
    pub fn evaluate(&self, values: &[bool]) -> Option<i64> {
        let sum = |terms: &[(i64, Lit)]| -> i64 {
            terms
                .iter()
                .filter(|&&(_, lit)| values[lit.var() as usize] != lit.is_negated())
                .map(|&(c, _)| c)
                .sum()
        };
        let feasible = self.constraints.iter().all(|c| c.holds_at(sum(&c.terms)));
        feasible.then(|| {
            self.objective
                .as_ref()
                .map_or(0, |o| sum(&o.terms) + o.constant)
        })
    }
}

/// A variable of an OPB file that is not one of `x1 .. xN`, N the header's count.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("variable {name} is not one of x1 .. x{declared}")]
pub struct NotNumbered {
    /// The variable's name.
    pub name: String,
    /// The header's count of variables.
    pub declared: usize,
}

impl OpbFile {
    /// The same file with its variables numbered by their names, `xN` as variable `N - 1`,
    /// and named `x1 ..` up to the header's count: what the PB Competition's files (and
    /// `emit`'s) mean by their names, and what an answer's `xN` values refer to.
    pub fn by_number(&self) -> Result<OpbFile, NotNumbered> {
        let declared = self.declared_variables;
        let numbers = (0..self.names.len() as u32)
            .map(|var| {
                let name = self.names.name(var);
                match name_number(name.as_bytes()) {
                    Some(n) if n <= declared => Ok(Lit::new(n as u32 - 1, false)),
                    _ => Err(NotNumbered {
                        name: name.to_string(),
                        declared,
                    }),
                }
            })
            .collect::<Result<Vec<Lit>, NotNumbered>>()?;
        let renumber = |terms: &[(i64, Lit)]| -> Vec<(i64, Lit)> {
            terms
                .iter()
                .map(|&(c, lit)| {
                    let var = numbers[lit.var() as usize].var();
                    (c, Lit::new(var, lit.is_negated()))
                })
                .collect()
        };
        Ok(OpbFile {
            declared_variables: declared,
            names: VarNames::numbered(declared),
            objective: self.objective.as_ref().map(|o| Objective {
                terms: renumber(&o.terms),
                constant: o.constant,
            }),
            constraints: self
                .constraints
                .iter()
                .map(|c| Constraint {
                    terms: renumber(&c.terms),
                    relation: c.relation,
                    rhs: c.rhs,
                })
                .collect(),
        })
    }
}

impl Constraint {
    /// Whether the constraint holds when its terms sum to `lhs`.
    pub fn holds_at(&self, lhs: i64) -> bool {
        match self.relation {
            Relation::AtLeast => lhs >= self.rhs,
            Relation::AtMost => lhs <= self.rhs,
            Relation::Equal => lhs == self.rhs,
        }
    }
}
