//! Witnesses of `red` steps: substitutions of variables by constants or literals, applied
//! to constraints in normal form and to the objective.

use rustc_hash::FxHashMap;

use crate::formats::opb::{Lit, Objective};
use crate::formats::veripb::WitnessValue;

use super::constraint::{Normalizer, Overflow, PbConstraint};

/// What a literal becomes under a witness.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Image {
    /// A constant: true or false.
    Constant(bool),
    /// Another literal.
    Literal(Lit),
}

/// A witness as a map from variable to value.
pub struct Witness {
    values: FxHashMap<u32, WitnessValue>,
}

impl Witness {
    /// The witness `pairs` (variables distinct, as the reader ensures).
    pub fn new(pairs: &[(u32, WitnessValue)]) -> Witness {
        Witness {
            values: pairs.iter().copied().collect(),
        }
    }

    /// The variables it maps.
    pub fn support(&self) -> impl Iterator<Item = u32> + '_ {
        self.values.keys().copied()
    }

    /// What `lit` becomes, or `None` when its variable is not mapped.
    pub fn image(&self, lit: Lit) -> Option<Image> {
        let image = match *self.values.get(&lit.var())? {
            WitnessValue::Constant(value) => Image::Constant(value),
            WitnessValue::Literal(target) => Image::Literal(target),
        };
        Some(match (image, lit.is_negated()) {
            (image, false) => image,
            (Image::Constant(value), true) => Image::Constant(!value),
            (Image::Literal(target), true) => Image::Literal(target.negate()),
        })
    }

    /// Whether substituting can make `c` harder to satisfy: some literal of `c` is mapped
    /// to anything but true. (A constraint whose mapped literals all become true is
    /// implied by itself under the witness, so it sets no goal, as in VeriPB.)
    pub fn touches(&self, c: &PbConstraint) -> bool {
        c.lits
            .iter()
            .any(|&l| self.image(l).is_some_and(|i| i != Image::Constant(true)))
    }

    /// `c` with every mapped literal replaced by its image, in normal form.
    pub fn apply(
        &self,
        normalizer: &mut Normalizer,
        c: &PbConstraint,
    ) -> Result<PbConstraint, Overflow> {
        let mut degree = i128::from(c.degree);
        let mut terms = Vec::with_capacity(c.lits.len());
        for (a, l) in c.terms() {
            match self.image(l) {
                None => terms.push((i128::from(a), l)),
                Some(Image::Literal(m)) => terms.push((i128::from(a), m)),
                Some(Image::Constant(true)) => degree -= i128::from(a),
                Some(Image::Constant(false)) => {}
            }
        }
        normalizer.build(terms.into_iter(), degree)
    }

    /// "The objective under the witness is at most the objective": `sum a_l l - sum a_l
    /// (l under the witness) >= 0`, in normal form; `None` when the witness maps none of
    /// its variables (the goal is then `0 >= 0`).
    pub fn objective_goal(
        &self,
        normalizer: &mut Normalizer,
        objective: &Objective,
    ) -> Result<Option<PbConstraint>, Overflow> {
        if !objective
            .terms
            .iter()
            .any(|&(_, l)| self.image(l).is_some())
        {
            return Ok(None);
        }
        let mut degree = 0i128;
        let mut terms = Vec::with_capacity(2 * objective.terms.len());
        for &(a, l) in &objective.terms {
            let a = i128::from(a);
            terms.push((a, l));
            match self.image(l) {
                None => terms.push((-a, l)),
                Some(Image::Literal(m)) => terms.push((-a, m)),
                Some(Image::Constant(true)) => degree += a,
                Some(Image::Constant(false)) => {}
            }
        }
        normalizer.build(terms.into_iter(), degree).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x(i: u32) -> Lit {
        Lit::new(i, false)
    }

    #[test]
    fn substitution_of_constants_and_literals() {
        let mut n = Normalizer::default();
        // 2 ~x0 + x1 + x2 >= 2 under x0 -> 1, x1 -> ~x2: ~x2 + x2 >= 2, i.e. 0 >= 1.
        let c = n
            .build([(2, x(0).negate()), (1, x(1)), (1, x(2))].into_iter(), 2)
            .unwrap();
        let witness = Witness::new(&[
            (0, WitnessValue::Constant(true)),
            (1, WitnessValue::Literal(x(2).negate())),
        ]);
        assert!(witness.touches(&c));
        let image = witness.apply(&mut n, &c).unwrap();
        assert!(
            image.lits.is_empty() && image.is_contradicting(),
            "{image:?}"
        );
        // x0 -> 0 makes c trivial (~x0 becomes true); it touches x0 + x1 >= 1 (x0 becomes
        // false), not ~x0 + x1 >= 1.
        let to_false = Witness::new(&[(0, WitnessValue::Constant(false))]);
        assert!(to_false.apply(&mut n, &c).unwrap().is_trivial());
        let positive = n.build([(1, x(0)), (1, x(1))].into_iter(), 1).unwrap();
        let negative = n
            .build([(1, x(0).negate()), (1, x(1))].into_iter(), 1)
            .unwrap();
        assert!(to_false.touches(&positive));
        assert!(!to_false.touches(&negative));
    }

    #[test]
    fn the_objective_goal_compares_before_and_after() {
        let mut n = Normalizer::default();
        // min x0 + 2 x1: under x1 -> 0 the objective can only fall: 2 x1 >= 0, trivial.
        let objective = Objective {
            terms: vec![(1, x(0)), (2, x(1))],
            constant: 3,
        };
        let lower = Witness::new(&[(1, WitnessValue::Constant(false))]);
        let goal = lower.objective_goal(&mut n, &objective).unwrap().unwrap();
        assert!(goal.is_trivial(), "{goal:?}");
        // Under x0 -> 1 it can rise: x0 >= 1 must hold.
        let raise = Witness::new(&[(0, WitnessValue::Constant(true))]);
        let goal = raise.objective_goal(&mut n, &objective).unwrap().unwrap();
        assert_eq!((goal.lits.clone(), goal.degree), (vec![x(0)], 1));
        // Untouched: no goal.
        let other = Witness::new(&[(5, WitnessValue::Constant(true))]);
        assert_eq!(other.objective_goal(&mut n, &objective).unwrap(), None);
    }
}
