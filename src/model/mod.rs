//! The backend-neutral constraint model (IR) that every puzzle family compiles to.
//!
//! A [`Model`] is a set of named boolean variables, constraints over literals, an optional
//! objective ("maximise the number of true literals") and structure hints that encoders
//! exploit. Backends (SAT, MILP) read a `Model`; they never see a puzzle.

pub mod shape;

use std::fmt;

/// A boolean variable, numbered from 0.
#[repr(transparent)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(u32);

impl Var {
    /// The variable with 0-based index `index`.
    pub fn from_index(index: usize) -> Var {
        Var(u32::try_from(index).expect("variable index fits in u32"))
    }

    /// The variable with 1-based DIMACS number `number`.
    pub fn from_dimacs(number: i64) -> Var {
        assert!(number > 0, "DIMACS variable numbers start at 1");
        Var::from_index((number - 1) as usize)
    }

    /// The 0-based index of this variable.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The 1-based DIMACS number of this variable.
    pub fn dimacs(self) -> i64 {
        i64::from(self.0) + 1
    }

    /// The literal that is true when this variable is true.
    pub fn positive(self) -> Lit {
        Lit(self.0 << 1)
    }

    /// The literal that is true when this variable is false.
    pub fn negative(self) -> Lit {
        Lit((self.0 << 1) | 1)
    }
}

/// A literal: a variable or its negation.
#[repr(transparent)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(u32);

impl Lit {
    /// The literal for DIMACS number `number` (negative for a negated variable).
    pub fn from_dimacs(number: i64) -> Lit {
        let var = Var::from_dimacs(number.abs());
        if number < 0 {
            var.negative()
        } else {
            var.positive()
        }
    }

    /// The variable of this literal.
    pub fn var(self) -> Var {
        Var(self.0 >> 1)
    }

    /// Whether this literal is the negation of its variable.
    pub fn is_negative(self) -> bool {
        self.0 & 1 == 1
    }

    /// The DIMACS number of this literal.
    pub fn dimacs(self) -> i64 {
        if self.is_negative() {
            -self.var().dimacs()
        } else {
            self.var().dimacs()
        }
    }

    /// The value of this literal under `assignment`.
    pub fn holds(self, assignment: &Assignment) -> bool {
        assignment.value(self.var()) != self.is_negative()
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.dimacs())
    }
}

/// A total assignment of the model's variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment(Vec<bool>);

impl Assignment {
    /// An assignment from one value per variable, in variable order.
    pub fn new(values: Vec<bool>) -> Assignment {
        Assignment(values)
    }

    /// The value of `var`.
    pub fn value(&self, var: Var) -> bool {
        self.0[var.index()]
    }

    /// All values, in variable order.
    pub fn values(&self) -> &[bool] {
        &self.0
    }
}

/// One constraint over literals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Constraint {
    /// At least one literal is true.
    Clause(Vec<Lit>),
    /// At most one literal is true.
    AtMostOne(Vec<Lit>),
    /// Exactly one literal is true.
    ExactlyOne(Vec<Lit>),
    /// At least `k` literals are true.
    AtLeast(Vec<Lit>, usize),
    /// At most `k` literals are true.
    AtMost(Vec<Lit>, usize),
    /// At least as many literals of `first` are true as of `second`: a comparison of two
    /// counts, which symmetry breaking uses ("no more pieces in one half than in the
    /// other"). Written as one cardinality constraint over `first` and the negations of
    /// `second` it is just as exact, but its CNF grows quadratically; this form lets the
    /// encoders compare two binary sums instead.
    AtLeastAsMany {
        /// The side whose count must be at least the other's.
        first: Vec<Lit>,
        /// The side whose count must not exceed the other's.
        second: Vec<Lit>,
    },
}

impl Constraint {
    /// The literals this constraint ranges over (for [`Constraint::AtLeastAsMany`], `first`
    /// then `second`).
    pub fn lits(&self) -> impl Iterator<Item = Lit> + '_ {
        let (lits, more): (&[Lit], &[Lit]) = match self {
            Constraint::Clause(lits)
            | Constraint::AtMostOne(lits)
            | Constraint::ExactlyOne(lits)
            | Constraint::AtLeast(lits, _)
            | Constraint::AtMost(lits, _) => (lits, &[]),
            Constraint::AtLeastAsMany { first, second } => (first, second),
        };
        lits.iter().chain(more).copied()
    }

    /// Whether `assignment` satisfies this constraint.
    pub fn holds(&self, assignment: &Assignment) -> bool {
        let count = |lits: &[Lit]| lits.iter().filter(|l| l.holds(assignment)).count();
        match self {
            Constraint::Clause(lits) => count(lits) >= 1,
            Constraint::AtMostOne(lits) => count(lits) <= 1,
            Constraint::ExactlyOne(lits) => count(lits) == 1,
            Constraint::AtLeast(lits, k) => count(lits) >= *k,
            Constraint::AtMost(lits, k) => count(lits) <= *k,
            Constraint::AtLeastAsMany { first, second } => count(first) >= count(second),
        }
    }

    /// A short name of the constraint's kind, for statistics.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Constraint::Clause(_) => "clause",
            Constraint::AtMostOne(_) => "at-most-one",
            Constraint::ExactlyOne(_) => "exactly-one",
            Constraint::AtLeast(..) => "at-least-k",
            Constraint::AtMost(..) => "at-most-k",
            Constraint::AtLeastAsMany { .. } => "at-least-as-many",
        }
    }
}

/// "Maximise the number of true literals among `lits`."
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Objective {
    /// The literals whose true count is maximised.
    pub lits: Vec<Lit>,
    /// A partition of `lits` into groups of which at most one literal can be true, when the
    /// compiler knows one (indices into `lits`). Counting groups instead of literals gives a
    /// much smaller cardinality encoding, and the number of groups is an upper bound.
    pub amo_groups: Option<Vec<Vec<usize>>>,
}

impl Objective {
    /// The objective's value under `assignment`.
    pub fn value(&self, assignment: &Assignment) -> usize {
        self.lits.iter().filter(|l| l.holds(assignment)).count()
    }

    /// The best value the model's structure allows: the number of at-most-one groups, or of
    /// literals when no partition is known.
    pub fn trivial_bound(&self) -> usize {
        self.amo_groups
            .as_ref()
            .map_or(self.lits.len(), |groups| groups.len())
    }
}

/// Constraints too many to write out, checked on candidate solutions instead: given a full
/// assignment that satisfies the written constraints, return clauses it violates (cuts), or
/// none when it is acceptable. Each cut must be satisfied by every true solution.
pub trait LazyConstraint: Send + Sync {
    /// A short description, for logs and statistics.
    fn name(&self) -> &str;
    /// Violated cuts for `assignment`; empty when the assignment is acceptable.
    fn cuts(&self, assignment: &Assignment) -> Vec<Vec<Lit>>;
    /// The constraint's ability to give each cut a reason that can be checked without the
    /// solver, when it has one. Certificates need it: a refutation that used cuts is only
    /// as good as the cuts.
    fn justify(&self) -> Option<&dyn JustifyCuts> {
        None
    }
    /// Writes the whole constraint into `model` as ordinary constraints over fresh
    /// variables, for files that other solvers read (which cannot call back for cuts), and
    /// returns true; false when the constraint has no such encoding. Every solution of the
    /// puzzle must extend to the new variables, and no other assignment may.
    fn write_out(&self, model: &mut Model) -> bool {
        let _ = model;
        false
    }
}

/// A cut with the reason it holds in every solution of the puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JustifiedCut {
    /// The clause.
    pub clause: Vec<Lit>,
    /// Why every solution satisfies it: one line in a syntax the constraint defines and
    /// [`JustifyCuts::verify_cut`] reads back.
    pub reason: String,
}

/// Lazy constraints whose cuts a certificate can carry: each cut comes with a reason, and
/// the reason and the clause can be checked from the puzzle's rules alone.
pub trait JustifyCuts {
    /// The cuts [`LazyConstraint::cuts`] gives for `assignment`, each with its reason.
    fn justified_cuts(&self, assignment: &Assignment) -> Vec<JustifiedCut>;
    /// Checks that `cut.reason` is well formed and true of the puzzle, and that it makes
    /// `cut.clause` hold in every solution; says what is wrong otherwise. It must not trust
    /// the cut: it may come from a file anyone can edit.
    fn verify_cut(&self, cut: &JustifiedCut) -> Result<(), CutRejected>;
}

/// Why [`JustifyCuts::verify_cut`] rejects a cut: what is wrong with its reason or its
/// clause, in the puzzle's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CutRejected(pub String);

/// A broken promise of a compiled model ([`Model::check_hints`]): a compiler bug.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HintError {
    /// A constraint's literal names no variable.
    #[error("literal {0} names no variable")]
    UnknownVariable(Lit),
    /// An objective group's index is out of range or repeated.
    #[error("objective group index {0} is out of range or repeated")]
    GroupIndex(usize),
    /// An objective group lies in no at-most-one or exactly-one constraint.
    #[error("an objective group is not an at-most-one constraint")]
    GroupNotAtMostOne,
    /// The objective groups leave some objective literal out.
    #[error("the objective groups do not cover every objective literal")]
    GroupsIncomplete,
}

/// An upper bound on the objective that the puzzle's rules give outright, with the
/// argument in words ("one queen per row: 64 rows"). The loops stop when a solution
/// reaches it, and say why that solution is optimal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UpperBound {
    /// No solution has a larger objective value.
    pub value: usize,
    /// Why, in words, for the outcome's evidence.
    pub reason: String,
    /// Whether the puzzle knows that some solution reaches the bound (an explicit
    /// construction exists), so a solver may be asked for it first.
    pub reached: bool,
}

/// A solution known without search (an explicit construction), handed to the loops as the
/// first incumbent. The loops check it against every constraint before using it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownSolution {
    /// The solution, over the model's variables.
    pub assignment: Assignment,
    /// Where it comes from, in words ("the explicit construction ...").
    pub origin: String,
}

/// A compiled puzzle: variables, constraints, objective and hints.
#[derive(Default)]
pub struct Model {
    names: Vec<String>,
    /// The constraints every solution satisfies.
    pub constraints: Vec<Constraint>,
    /// The objective, when the puzzle is an optimisation.
    pub objective: Option<Objective>,
    /// Constraints enforced by separation (see [`LazyConstraint`]).
    pub lazy: Vec<Box<dyn LazyConstraint>>,
    /// An upper bound on the objective stated by the puzzle, when it knows one that may be
    /// tighter or better explained than the structural one.
    pub upper_bound: Option<UpperBound>,
    /// A solution known without search, to start from.
    pub known_solution: Option<KnownSolution>,
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Model")
            .field("vars", &self.names.len())
            .field("constraints", &self.constraints.len())
            .field("objective", &self.objective)
            .field("lazy", &self.lazy.len())
            .field("upper_bound", &self.upper_bound)
            .field("known_solution", &self.known_solution.is_some())
            .finish()
    }
}

impl Model {
    /// An empty model.
    pub fn new() -> Model {
        Model::default()
    }

    /// Adds a variable with a readable name such as `q[3,5]`.
    pub fn new_var(&mut self, name: impl Into<String>) -> Var {
        self.names.push(name.into());
        Var::from_index(self.names.len() - 1)
    }

    /// The number of variables.
    pub fn num_vars(&self) -> usize {
        self.names.len()
    }

    /// The readable name of `var`.
    pub fn name(&self, var: Var) -> &str {
        &self.names[var.index()]
    }

    /// All variable names, in variable order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Adds a constraint.
    pub fn add(&mut self, constraint: Constraint) {
        self.constraints.push(constraint);
    }

    /// Whether `assignment` satisfies every written constraint and every lazy one.
    pub fn satisfied_by(&self, assignment: &Assignment) -> bool {
        self.constraints.iter().all(|c| c.holds(assignment))
            && self.lazy.iter().all(|l| l.cuts(assignment).is_empty())
    }

    /// Counts of constraints by kind, in a fixed order, for statistics.
    pub fn constraint_counts(&self) -> Vec<(&'static str, usize)> {
        let mut counts: Vec<(&'static str, usize)> = Vec::new();
        for constraint in &self.constraints {
            let kind = constraint.kind_name();
            match counts.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, n)) => *n += 1,
                None => counts.push((kind, 1)),
            }
        }
        counts
    }

    /// The known solution, when there is one and it satisfies every constraint (written and
    /// lazy) and, for an optimisation, stays within the stated upper bound; `None`
    /// otherwise, so a wrong hint can only cost time, never an answer.
    pub fn usable_known_solution(&self) -> Option<&KnownSolution> {
        let known = self.known_solution.as_ref()?;
        if known.assignment.values().len() != self.num_vars()
            || !self.satisfied_by(&known.assignment)
        {
            return None;
        }
        let value = self
            .objective
            .as_ref()
            .map_or(0, |o| o.value(&known.assignment));
        match &self.upper_bound {
            Some(bound) if value > bound.value => None,
            _ => Some(known),
        }
    }

    /// Checks the model's internal promises: every literal names a variable, and every
    /// objective group lies inside one at-most-one or exactly-one constraint (so the group
    /// encoding is sound). A failure is a compiler bug.
    pub fn check_hints(&self) -> Result<(), HintError> {
        let n = self.num_vars();
        for c in &self.constraints {
            if let Some(l) = c.lits().find(|l| l.var().index() >= n) {
                return Err(HintError::UnknownVariable(l));
            }
        }
        let Some(objective) = &self.objective else {
            return Ok(());
        };
        let Some(groups) = &objective.amo_groups else {
            return Ok(());
        };
        let mut seen = vec![false; objective.lits.len()];
        for group in groups {
            for &i in group {
                if i >= seen.len() || std::mem::replace(&mut seen[i], true) {
                    return Err(HintError::GroupIndex(i));
                }
            }
            if group.len() < 2 {
                continue;
            }
            let lits: Vec<Lit> = group.iter().map(|&i| objective.lits[i]).collect();
            let covered = self.constraints.iter().any(|c| match c {
                Constraint::AtMostOne(amo) | Constraint::ExactlyOne(amo) => {
                    lits.iter().all(|l| amo.contains(l))
                }
                _ => false,
            });
            if !covered {
                return Err(HintError::GroupNotAtMostOne);
            }
        }
        if seen.iter().any(|s| !s) {
            return Err(HintError::GroupsIncomplete);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_round_trip_through_dimacs() {
        for n in [1i64, -1, 7, -7, 100_000] {
            assert_eq!(Lit::from_dimacs(n).dimacs(), n);
        }
        let v = Var::from_index(4);
        assert_eq!(v.dimacs(), 5);
        assert_eq!(!v.positive(), v.negative());
        assert!(v.negative().is_negative());
    }

    #[test]
    fn constraints_evaluate() {
        let a = Assignment::new(vec![true, false, true]);
        let l = |i: usize| Var::from_index(i).positive();
        assert!(Constraint::Clause(vec![l(1), l(2)]).holds(&a));
        assert!(!Constraint::AtMostOne(vec![l(0), l(2)]).holds(&a));
        assert!(Constraint::ExactlyOne(vec![l(0), l(1)]).holds(&a));
        assert!(Constraint::AtLeast(vec![l(0), l(1), l(2)], 2).holds(&a));
        assert!(!Constraint::AtMost(vec![l(0), l(1), l(2)], 1).holds(&a));
        assert!(Constraint::Clause(vec![!l(1)]).holds(&a));
        let compare = |first: Vec<Lit>, second: Vec<Lit>| {
            Constraint::AtLeastAsMany { first, second }.holds(&a)
        };
        assert!(compare(vec![l(0)], vec![l(2)]));
        assert!(!compare(vec![l(1)], vec![l(2)]));
        assert!(!compare(vec![l(0), l(1)], vec![!l(1), l(2)]));
        assert!(compare(vec![l(0), l(2)], vec![!l(1), l(1)]));
        assert!(!compare(vec![], vec![l(0)]));
    }

    #[test]
    fn a_known_solution_is_used_only_when_it_satisfies_the_model_and_its_bound() {
        let mut m = Model::new();
        let a = m.new_var("a").positive();
        let b = m.new_var("b").positive();
        m.add(Constraint::AtMostOne(vec![a, b]));
        m.objective = Some(Objective {
            lits: vec![a, b],
            amo_groups: None,
        });
        let known = |values: Vec<bool>| KnownSolution {
            assignment: Assignment::new(values),
            origin: "a test".into(),
        };
        m.known_solution = Some(known(vec![true, true]));
        assert!(
            m.usable_known_solution().is_none(),
            "breaks the at-most-one"
        );
        m.known_solution = Some(known(vec![true]));
        assert!(m.usable_known_solution().is_none(), "too few values");
        m.known_solution = Some(known(vec![false, true]));
        assert!(m.usable_known_solution().is_some());
        m.upper_bound = Some(UpperBound {
            value: 0,
            reason: "a wrong bound".into(),
            reached: false,
        });
        assert!(
            m.usable_known_solution().is_none(),
            "beats the stated bound"
        );
    }

    #[test]
    fn hint_check_rejects_groups_that_are_not_at_most_one() {
        let mut m = Model::new();
        let a = m.new_var("a").positive();
        let b = m.new_var("b").positive();
        m.objective = Some(Objective {
            lits: vec![a, b],
            amo_groups: Some(vec![vec![0, 1]]),
        });
        assert_eq!(m.check_hints(), Err(HintError::GroupNotAtMostOne));
        m.add(Constraint::AtMostOne(vec![a, b]));
        assert_eq!(m.check_hints(), Ok(()));
    }
}
