//! The running sum of a `pol` step, kept as one signed coefficient per variable.
//!
//! Brought to normal form after every `+`, a sum of n constraints costs n times its own
//! length; a clique's at-most-one derived from its pairs' clauses is such a chain, with a
//! division after each member. Here adding a constraint costs that constraint's length,
//! and multiplying, dividing, saturating or weakening the sum one pass over its
//! variables; the normal form is built once, at the end. The numbers are checked as the
//! eager form checks them: every coefficient, the degree and the coefficient sum of the
//! normal form fit 64 bits after every operation.

use super::coefficients::Coefficients;
use super::constraint::{pack, Overflow, PbConstraint};
use crate::formats::opb::Lit;

/// `sum coef_v x_v >= degree` over positive literals, with the magnitudes the normal form
/// needs kept up to date.
#[derive(Default)]
pub struct Sum {
    /// The coefficient of each variable's positive literal (0: absent).
    coef: Coefficients,
    degree: i128,
    /// The magnitudes of the negative coefficients, summed: the normal form writes those
    /// terms over negated literals and adds this to the degree.
    negative: i128,
    /// The magnitudes of all coefficients, summed: the normal form's coefficient sum.
    magnitude: i128,
    /// The terms being packed, reused.
    pairs: Vec<(i128, Lit)>,
}

/// Rounds `a / k` up, for `k > 0` and any sign of `a`.
fn up(a: i128, k: i128) -> i128 {
    -(-a).div_euclid(k)
}

/// Fails unless `a` fits a 64-bit coefficient.
fn fits(a: i128) -> Result<(), Overflow> {
    i64::try_from(a).map(|_| ()).map_err(|_| Overflow)
}

impl Sum {
    /// Starts the sum at `c`. The sum must be empty (new, finished or cleared).
    pub fn start(&mut self, c: &PbConstraint) -> Result<(), Overflow> {
        debug_assert!(self.coef.is_empty());
        self.degree = 0;
        self.negative = 0;
        self.magnitude = 0;
        self.add(c)
    }

    /// Adds `c`.
    pub fn add(&mut self, c: &PbConstraint) -> Result<(), Overflow> {
        let mut degree = self.degree + i128::from(c.degree);
        for (a, l) in c.terms() {
            let coef = self.coef.entry(l.var());
            let old = *coef;
            let a = i128::from(a);
            // a ~x = a - a x
            let new = if l.is_negated() {
                degree -= a;
                old - a
            } else {
                old + a
            };
            *coef = new;
            self.negative += (-new).max(0) - (-old).max(0);
            self.magnitude += new.abs() - old.abs();
            fits(new.abs())?;
        }
        self.degree = degree;
        self.check()
    }

    /// Multiplies the sum by `k > 0`.
    pub fn multiply(&mut self, k: u64) -> Result<(), Overflow> {
        let k = i128::from(k);
        self.coef.update(|c| {
            // Both factors fit 64 bits: the product fits 128.
            let c = c * k;
            fits(c.abs()).map(|()| c)
        })?;
        self.degree = self.degree.checked_mul(k).ok_or(Overflow)?;
        self.negative = self.negative.checked_mul(k).ok_or(Overflow)?;
        self.magnitude = self.magnitude.checked_mul(k).ok_or(Overflow)?;
        self.check()
    }

    /// Divides the normal form by `k > 0`, rounding every coefficient and the degree up.
    pub fn divide(&mut self, k: u64) -> Result<(), Overflow> {
        let degree = up(self.degree + self.negative, i128::from(k));
        self.rescale(degree, |a| {
            // Every magnitude fits 64 bits, so the division runs in 64.
            let a = a as u64;
            i128::from(a.div_ceil(k))
        })
    }

    /// Cuts every coefficient of the normal form down to its degree.
    pub fn saturate(&mut self) -> Result<(), Overflow> {
        let degree = self.degree + self.negative;
        let cap = degree.max(0);
        self.rescale(degree, |a| a.min(cap))
    }

    /// Gives each term of the normal form the magnitude `scale` maps its own to, and the
    /// normal form the degree `degree`.
    fn rescale(&mut self, degree: i128, scale: impl Fn(i128) -> i128) -> Result<(), Overflow> {
        let (mut negative, mut magnitude) = (0, 0);
        self.coef.update(|c| {
            let a = scale(c.abs());
            magnitude += a;
            Ok(if c < 0 {
                negative += a;
                -a
            } else {
                a
            })
        })?;
        self.degree = degree - negative;
        self.negative = negative;
        self.magnitude = magnitude;
        self.check()
    }

    /// Weakens variable `var` away: its term dropped, the degree lowered by its
    /// coefficient.
    pub fn weaken(&mut self, var: u32) -> Result<(), Overflow> {
        let old = self.coef.take(var);
        if old > 0 {
            self.degree -= old;
        } else {
            self.negative += old;
        }
        self.magnitude -= old.abs();
        self.check()
    }

    /// Lowers the normal form's degree by `k`.
    pub fn decrement(&mut self, k: u64) -> Result<(), Overflow> {
        self.degree -= i128::from(k);
        self.check()
    }

    /// The sum in normal form; the sum is empty again.
    pub fn finish(&mut self) -> Result<PbConstraint, Overflow> {
        let mut pairs = std::mem::take(&mut self.pairs);
        pairs.clear();
        self.coef.drain(|var, c| {
            if c != 0 {
                pairs.push((c.abs(), Lit::new(var, c < 0)));
            }
        });
        pairs.sort_by_key(|&(a, _)| std::cmp::Reverse(a));
        let packed = pack(&pairs, self.degree + self.negative);
        self.pairs = pairs;
        packed
    }

    /// Empties the sum (after a refused step).
    pub fn clear(&mut self) {
        self.coef.drain(|_, _| {});
    }

    /// The normal form's degree and coefficient sum fit 64 bits.
    fn check(&self) -> Result<(), Overflow> {
        fits(self.degree + self.negative)?;
        fits(self.magnitude)
    }
}

#[cfg(test)]
mod tests {
    use super::super::constraint::tests::{build, nx, x};
    use super::super::constraint::Normalizer;
    use super::*;

    /// The same constraint, whatever the order of its tied terms.
    fn same(a: &PbConstraint, b: &PbConstraint) -> bool {
        let mut ta: Vec<(i64, Lit)> = a.terms().collect();
        let mut tb: Vec<(i64, Lit)> = b.terms().collect();
        ta.sort();
        tb.sort();
        ta == tb && a.degree == b.degree && a.coef_sum == b.coef_sum
    }

    #[test]
    fn a_chain_equals_the_eager_arithmetic() {
        // The clique derivation's shape: pairs' clauses summed, divided, multiplied.
        let pair = |i: u32, j: u32| build(&[(1, nx(i)), (1, nx(j))], 1);
        let mut n = Normalizer::default();
        let mut sum = Sum::default();
        sum.start(&pair(0, 1)).unwrap();
        let mut eager = pair(0, 1);
        for later in 2..6 {
            sum.multiply(later as u64 - 1).unwrap();
            eager = eager.multiply(later as u64 - 1).unwrap();
            for earlier in 0..later {
                sum.add(&pair(earlier, later)).unwrap();
                eager = n.add(&eager, &pair(earlier, later)).unwrap();
            }
            sum.divide(later as u64).unwrap();
            eager = eager.divide(later as u64).unwrap();
        }
        let lazy = sum.finish().unwrap();
        assert!(same(&lazy, &eager), "{lazy:?} vs {eager:?}");
        // At most one of x0..x5: sum ~x >= 5.
        assert_eq!((lazy.lits.len(), lazy.degree, lazy.coef_sum), (6, 5, 6));
    }

    #[test]
    fn every_operation_equals_the_eager_one() {
        let mut n = Normalizer::default();
        let a = build(&[(3, x(0)), (2, nx(1)), (1, x(2))], 2);
        let b = build(&[(2, nx(0)), (5, x(1)), (1, x(3))], 4);
        let mut sum = Sum::default();
        sum.start(&a).unwrap();
        sum.add(&b).unwrap();
        let mut eager = n.add(&a, &b).unwrap();
        assert!(same(&sum.finish().unwrap(), &eager));
        sum.start(&eager).unwrap();
        for step in 0..5 {
            match step {
                0 => {
                    sum.saturate().unwrap();
                    eager = eager.saturate().unwrap();
                }
                1 => {
                    sum.weaken(1).unwrap();
                    eager = eager.weaken(1).unwrap();
                }
                2 => {
                    sum.multiply(3).unwrap();
                    eager = eager.multiply(3).unwrap();
                }
                3 => {
                    sum.divide(2).unwrap();
                    eager = eager.divide(2).unwrap();
                }
                _ => {
                    sum.decrement(1).unwrap();
                    eager = eager.decrement(1).unwrap();
                }
            }
            let c = sum.finish().unwrap();
            assert!(same(&c, &eager), "step {step}: {c:?} vs {eager:?}");
            sum.start(&c).unwrap();
        }
        // Cancellation: x0 + ~x0 drops the variable.
        sum.clear();
        sum.start(&build(&[(1, x(0)), (1, x(4))], 1)).unwrap();
        sum.add(&build(&[(1, nx(0))], 0)).unwrap();
        let c = sum.finish().unwrap();
        assert_eq!((c.lits.clone(), c.degree), (vec![x(4)], 0));
    }

    #[test]
    fn numbers_beyond_64_bits_are_refused() {
        let mut sum = Sum::default();
        sum.start(&build(&[(1 << 40, x(0)), (1, x(1))], 1)).unwrap();
        assert!(sum.multiply(1 << 30).is_err());
        sum.clear();
        sum.start(&build(&[(i128::from(i64::MAX), x(0))], 1))
            .unwrap();
        assert!(sum.add(&build(&[(1, x(0))], 0)).is_err());
        sum.clear();
        assert!(sum.coef.is_empty());
    }

    /// One operation of a random chain.
    #[derive(Clone, Debug)]
    enum Op {
        Add(Vec<(i64, u32, bool)>, i64),
        Multiply(u64),
        Divide(u64),
        Saturate,
        Weaken(u32),
        Decrement(u64),
    }

    fn op() -> impl proptest::strategy::Strategy<Value = Op> {
        use proptest::prelude::*;
        // Coefficients up to 2^40 and factors up to 2^24 reach 64 bits within a few steps.
        let term = (1i64..(1 << 40), 0u32..6, any::<bool>());
        prop_oneof![
            4 => (prop::collection::vec(term, 0..5), -(1i64 << 40)..(1 << 40))
                .prop_map(|(t, d)| Op::Add(t, d)),
            1 => (1u64..(1 << 24)).prop_map(Op::Multiply),
            1 => (1u64..9).prop_map(Op::Divide),
            1 => Just(Op::Saturate),
            1 => (0u32..7).prop_map(Op::Weaken),
            1 => (0u64..(1 << 40)).prop_map(Op::Decrement),
        ]
    }

    proptest::proptest! {
        /// Every chain ends in the constraint the eager arithmetic derives, and overflows
        /// at the step where the eager arithmetic does.
        #[test]
        fn random_chains_equal_the_eager_arithmetic(
            first in proptest::collection::vec((1i64..(1 << 40), 0u32..6, proptest::bool::ANY), 0..5),
            degree in -(1i64 << 40)..(1 << 40),
            ops in proptest::collection::vec(op(), 0..12),
        ) {
            let constraint = |terms: &[(i64, u32, bool)], d: i64| {
                let terms: Vec<(i128, Lit)> =
                    terms.iter().map(|&(a, v, n)| (i128::from(a), Lit::new(v, n))).collect();
                build(&terms, i128::from(d))
            };
            let mut n = Normalizer::default();
            let mut eager = constraint(&first, degree);
            let mut sum = Sum::default();
            sum.start(&eager).unwrap();
            for op in &ops {
                let (lazy, strict) = match op {
                    Op::Add(t, d) => {
                        let c = constraint(t, *d);
                        (sum.add(&c), n.add(&eager, &c))
                    }
                    Op::Multiply(k) => (sum.multiply(*k), eager.multiply(*k)),
                    Op::Divide(k) => (sum.divide(*k), eager.divide(*k)),
                    Op::Saturate => (sum.saturate(), eager.saturate()),
                    Op::Weaken(v) => (sum.weaken(*v), eager.weaken(*v)),
                    Op::Decrement(k) => (sum.decrement(*k), eager.decrement(*k)),
                };
                proptest::prop_assert_eq!(lazy.is_err(), strict.is_err(), "{:?}", op);
                match strict {
                    Ok(c) => eager = c,
                    Err(_) => {
                        sum.clear();
                        return Ok(());
                    }
                }
            }
            let c = sum.finish().unwrap();
            proptest::prop_assert!(same(&c, &eager), "{:?} vs {:?}", c, eager);
        }
    }
}
