//! The shape of a model without its contents: how many variables (and how long their
//! names), and how many constraints of each kind and length. A puzzle describes the model
//! it would compile this way, from its own data and without building it, so that a model
//! too large for the machine is refused before a byte of it is allocated; encoders turn a
//! shape into clause and byte counts.

use super::{Constraint, Model};
use std::collections::BTreeMap;

/// One constraint's kind and lengths, without its literals.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ConstraintShape {
    /// A clause of this many literals.
    Clause(usize),
    /// At most one of this many literals.
    AtMostOne(usize),
    /// Exactly one of this many literals.
    ExactlyOne(usize),
    /// At least `k` (second) of this many (first) literals.
    AtLeast(usize, usize),
    /// At most `k` (second) of this many (first) literals.
    AtMost(usize, usize),
    /// A comparison of two counts over this many literals each side.
    AtLeastAsMany(usize, usize),
}

impl ConstraintShape {
    /// The shape of `constraint`.
    pub fn of(constraint: &Constraint) -> ConstraintShape {
        match constraint {
            Constraint::Clause(l) => ConstraintShape::Clause(l.len()),
            Constraint::AtMostOne(l) => ConstraintShape::AtMostOne(l.len()),
            Constraint::ExactlyOne(l) => ConstraintShape::ExactlyOne(l.len()),
            Constraint::AtLeast(l, k) => ConstraintShape::AtLeast(l.len(), *k),
            Constraint::AtMost(l, k) => ConstraintShape::AtMost(l.len(), *k),
            Constraint::AtLeastAsMany { first, second } => {
                ConstraintShape::AtLeastAsMany(first.len(), second.len())
            }
        }
    }

    /// The number of literals the constraint ranges over.
    pub fn len(self) -> usize {
        match self {
            ConstraintShape::Clause(n)
            | ConstraintShape::AtMostOne(n)
            | ConstraintShape::ExactlyOne(n)
            | ConstraintShape::AtLeast(n, _)
            | ConstraintShape::AtMost(n, _) => n,
            ConstraintShape::AtLeastAsMany(a, b) => a + b,
        }
    }

    /// Whether the constraint ranges over no literal.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }
}

/// The objective's shape: how many literals, and how they fall into at-most-one groups.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ObjectiveShape {
    /// Objective literals.
    pub lits: u64,
    /// At-most-one groups partitioning them, when the compiler gives some.
    pub groups: Option<u64>,
    /// How many of those groups have a single literal (they need no indicator).
    pub singleton_groups: u64,
}

/// The shape of a model (see the module docs). Counts are `u64`: a shape may describe a
/// model far too large to build.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModelShape {
    /// Variables.
    pub variables: u64,
    /// The bytes of all variable names together.
    pub name_bytes: u64,
    /// How many constraints of each shape.
    pub constraints: BTreeMap<ConstraintShape, u64>,
    /// The objective, when the model has one.
    pub objective: Option<ObjectiveShape>,
    /// Bytes the compiler holds while it builds the model, beyond the model itself
    /// (tables it drops afterwards); 0 for the shape of a model that exists.
    pub scratch_bytes: u64,
}

impl ModelShape {
    /// An empty shape.
    pub fn new() -> ModelShape {
        ModelShape::default()
    }

    /// Adds `count` variables whose names have `name_bytes` bytes in all.
    pub fn add_vars(&mut self, count: u64, name_bytes: u64) {
        self.variables += count;
        self.name_bytes += name_bytes;
    }

    /// Adds `count` constraints of shape `shape`.
    pub fn add(&mut self, shape: ConstraintShape, count: u64) {
        if count > 0 {
            *self.constraints.entry(shape).or_insert(0) += count;
        }
    }

    /// The shape of a model that exists.
    pub fn of(model: &Model) -> ModelShape {
        let mut shape = ModelShape::new();
        shape.add_vars(
            model.num_vars() as u64,
            model.names().iter().map(|n| n.len() as u64).sum(),
        );
        for constraint in &model.constraints {
            shape.add(ConstraintShape::of(constraint), 1);
        }
        shape.objective = model.objective.as_ref().map(|o| ObjectiveShape {
            lits: o.lits.len() as u64,
            groups: o.amo_groups.as_ref().map(|g| g.len() as u64),
            singleton_groups: o
                .amo_groups
                .as_ref()
                .map_or(0, |g| g.iter().filter(|g| g.len() == 1).count() as u64),
        });
        shape
    }

    /// Adds everything of `other` (its objective replaces this one's when it has one).
    pub fn merge(&mut self, other: &ModelShape) {
        self.add_vars(other.variables, other.name_bytes);
        for (&shape, &count) in &other.constraints {
            self.add(shape, count);
        }
        if other.objective.is_some() {
            self.objective = other.objective;
        }
        self.scratch_bytes = self.scratch_bytes.max(other.scratch_bytes);
    }

    /// The number of constraints.
    pub fn constraint_count(&self) -> u64 {
        self.constraints.values().sum()
    }

    /// Literal occurrences over all constraints.
    pub fn literal_count(&self) -> u64 {
        self.constraints
            .iter()
            .map(|(shape, &count)| shape.len() as u64 * count)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Objective;

    #[test]
    fn the_shape_of_a_model_counts_its_constraints_by_kind_and_length() {
        let mut m = Model::new();
        let l: Vec<_> = (0..4)
            .map(|i| m.new_var(format!("x{i}")).positive())
            .collect();
        m.add(Constraint::AtMostOne(l[..3].to_vec()));
        m.add(Constraint::AtMostOne(l[1..].to_vec()));
        m.add(Constraint::Clause(vec![l[0]]));
        m.add(Constraint::AtLeastAsMany {
            first: vec![l[0]],
            second: l[2..].to_vec(),
        });
        m.objective = Some(Objective {
            lits: l.clone(),
            amo_groups: Some(vec![vec![0, 1, 2], vec![3]]),
        });
        let shape = ModelShape::of(&m);
        assert_eq!(shape.variables, 4);
        assert_eq!(shape.name_bytes, 8);
        assert_eq!(shape.constraints[&ConstraintShape::AtMostOne(3)], 2);
        assert_eq!(shape.constraints[&ConstraintShape::AtLeastAsMany(1, 2)], 1);
        assert_eq!(shape.constraint_count(), 4);
        assert_eq!(shape.literal_count(), 3 + 3 + 1 + 3);
        assert_eq!(
            shape.objective,
            Some(ObjectiveShape {
                lits: 4,
                groups: Some(2),
                singleton_groups: 1
            })
        );
    }
}
