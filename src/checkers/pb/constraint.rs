//! Pseudo-Boolean constraints in normal form and the cutting-planes arithmetic on them.
//!
//! Normal form: `sum a_i l_i >= d` with every `a_i > 0`, each variable at most once (as
//! `x` or `~x`), terms sorted by falling coefficient (so propagation can stop at the first
//! coefficient the slack covers). Arithmetic runs in `i128` and every result must fit
//! `i64` again, coefficient sum included, or the step is refused: no silent wrap.

use super::coefficients::Coefficients;
use crate::formats::opb::{Constraint, Lit, Relation};

/// Why a constraint could not be built: its numbers outgrew 64 bits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overflow;

/// `sum a_i l_i >= degree` in normal form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PbConstraint {
    /// The literals, by falling coefficient.
    pub lits: Vec<Lit>,
    /// Their coefficients; empty when every coefficient is 1 (clauses and cardinality
    /// constraints, nearly all of a proof), which halves their memory.
    coefs: Vec<i64>,
    /// The right-hand side.
    pub degree: i64,
    /// The sum of the coefficients.
    pub coef_sum: i64,
}

impl PbConstraint {
    /// The coefficient of the `i`-th literal.
    pub fn coef(&self, i: usize) -> i64 {
        if self.coefs.is_empty() {
            1
        } else {
            self.coefs[i]
        }
    }

    /// The largest coefficient (0 for no terms).
    pub fn max_coef(&self) -> i64 {
        if self.lits.is_empty() {
            0
        } else {
            self.coef(0)
        }
    }

    /// Whether every coefficient is 1 (a clause or a cardinality constraint).
    pub fn is_cardinality(&self) -> bool {
        self.coefs.is_empty()
    }

    /// (coefficient, literal) terms.
    pub fn terms(&self) -> impl Iterator<Item = (i64, Lit)> + '_ {
        self.lits
            .iter()
            .enumerate()
            .map(|(i, &l)| (self.coef(i), l))
    }

    /// Satisfied by every assignment.
    pub fn is_trivial(&self) -> bool {
        self.degree <= 0
    }

    /// Satisfied by no assignment: even all literals true fall short.
    pub fn is_contradicting(&self) -> bool {
        self.coef_sum < self.degree
    }

    /// Equivalent to the clause over its literals: each literal alone satisfies it.
    pub fn is_clausal(&self) -> bool {
        self.degree >= 1 && (self.lits.is_empty() || self.coef(self.lits.len() - 1) >= self.degree)
    }

    /// The literal axiom `lit >= 0`.
    pub fn axiom(lit: Lit) -> PbConstraint {
        PbConstraint {
            lits: vec![lit],
            coefs: Vec::new(),
            degree: 0,
            coef_sum: 1,
        }
    }

    /// The negation: `sum a_i ~l_i >= coef_sum - degree + 1`.
    pub fn negation(&self) -> Result<PbConstraint, Overflow> {
        let degree = i128::from(self.coef_sum) - i128::from(self.degree) + 1;
        Ok(PbConstraint {
            lits: self.lits.iter().map(|l| l.negate()).collect(),
            coefs: self.coefs.clone(),
            degree: fit(degree)?,
            coef_sum: self.coef_sum,
        })
    }

    /// Whether the assignment `value` (1 true, -1 false, per literal index) satisfies it.
    pub fn holds(&self, value: &[i8]) -> bool {
        let mut sum: i128 = 0;
        for (a, l) in self.terms() {
            if value[l.index()] == 1 {
                sum += i128::from(a);
            }
        }
        sum >= i128::from(self.degree)
    }

    /// Multiplied by `k > 0`.
    pub fn multiply(&self, k: u64) -> Result<PbConstraint, Overflow> {
        let k = i128::from(k);
        let coefs: Vec<i128> = self.terms().map(|(a, _)| i128::from(a) * k).collect();
        from_sorted(self.lits.clone(), &coefs, i128::from(self.degree) * k)
    }

    /// Divided by `k > 0`, rounding every coefficient and the degree up.
    pub fn divide(&self, k: u64) -> Result<PbConstraint, Overflow> {
        let k = i128::from(k);
        let up = |a: i128| -(-a).div_euclid(k);
        let coefs: Vec<i128> = self.terms().map(|(a, _)| up(i128::from(a))).collect();
        from_sorted(self.lits.clone(), &coefs, up(i128::from(self.degree)))
    }

    /// Every coefficient cut down to the degree.
    pub fn saturate(&self) -> Result<PbConstraint, Overflow> {
        let cap = i128::from(self.degree.max(0));
        let kept: Vec<(i128, Lit)> = self
            .terms()
            .map(|(a, l)| (i128::from(a).min(cap), l))
            .filter(|&(a, _)| a > 0)
            .collect();
        let coefs: Vec<i128> = kept.iter().map(|&(a, _)| a).collect();
        from_sorted(
            kept.into_iter().map(|(_, l)| l).collect(),
            &coefs,
            i128::from(self.degree),
        )
    }

    /// Variable `var` weakened away: its term dropped, the degree lowered by its
    /// coefficient (adding the literal axiom of the opposite literal).
    pub fn weaken(&self, var: u32) -> Result<PbConstraint, Overflow> {
        let mut degree = i128::from(self.degree);
        let mut lits = Vec::with_capacity(self.lits.len());
        let mut coefs = Vec::with_capacity(self.lits.len());
        for (a, l) in self.terms() {
            if l.var() == var {
                degree -= i128::from(a);
            } else {
                lits.push(l);
                coefs.push(i128::from(a));
            }
        }
        from_sorted(lits, &coefs, degree)
    }

    /// The degree lowered by `k`.
    pub fn decrement(&self, k: u64) -> Result<PbConstraint, Overflow> {
        let mut lowered = self.clone();
        lowered.degree = fit(i128::from(self.degree) - i128::from(k))?;
        Ok(lowered)
    }

    /// Whether it implies `target` syntactically: `target` follows from it by adding
    /// literal axioms, one saturation, and more literal axioms (VeriPB's check for the
    /// lower bound of a conclusion). `target_coef` gives the coefficient of a literal in
    /// `target` (0 when absent).
    pub fn implies(&self, target: &PbConstraint, target_coef: impl Fn(Lit) -> i64) -> bool {
        if target.is_trivial() || self.is_contradicting() {
            return true;
        }
        // How far the degree falls short of the target's once the terms the target lacks
        // (or has smaller, below its degree) are weakened away: must stay <= 0.
        let mut shortfall = i128::from(target.degree) - i128::from(self.degree);
        for (a, l) in self.terms() {
            let b = target_coef(l);
            if b == 0 {
                shortfall += i128::from(a);
            } else if a > b && b < target.degree {
                shortfall += i128::from(a - b);
            }
            if shortfall > 0 {
                return false;
            }
        }
        shortfall <= 0
    }
}

fn fit(n: i128) -> Result<i64, Overflow> {
    i64::try_from(n).map_err(|_| Overflow)
}

/// A constraint from literals over distinct variables and positive coefficients already
/// in falling order (the operations that keep the order: multiply, divide, weaken, cut).
fn from_sorted(lits: Vec<Lit>, coefs: &[i128], degree: i128) -> Result<PbConstraint, Overflow> {
    let mut pairs: Vec<(i128, Lit)> = coefs.iter().copied().zip(lits).collect();
    // Saturation and division can tie or reorder nothing, but sort anyway: it is cheap and
    // keeps the invariant local.
    pairs.sort_by_key(|&(a, _)| std::cmp::Reverse(a));
    pack(&pairs, degree)
}

/// Packs positive-coefficient terms (falling order) and a degree into a constraint, in
/// vectors allocated once at their exact size (growing them by reallocation was a tenth of
/// the checker's time).
pub(super) fn pack(pairs: &[(i128, Lit)], degree: i128) -> Result<PbConstraint, Overflow> {
    let all_one = pairs.iter().all(|&(a, _)| a == 1);
    let sum: i128 = pairs.iter().map(|&(a, _)| a).sum();
    let coefs = if all_one {
        Vec::new()
    } else {
        // Sized up front: collecting into a `Result` knows no length, and grew by
        // reallocation.
        let mut coefs = Vec::with_capacity(pairs.len());
        for &(a, _) in pairs {
            coefs.push(fit(a)?);
        }
        coefs
    };
    Ok(PbConstraint {
        lits: pairs.iter().map(|&(_, l)| l).collect(),
        coefs,
        degree: fit(degree)?,
        coef_sum: fit(sum)?,
    })
}

/// Brings sums with repeated variables, negative coefficients and negated literals to
/// normal form, through a dense table by variable (no hashing on the hot path).
#[derive(Default)]
pub struct Normalizer {
    /// Coefficient of the positive literal, by variable.
    acc: Coefficients,
    /// The terms being packed, reused.
    pairs: Vec<(i128, Lit)>,
}

impl Normalizer {
    /// `sum a_i l_i >= rhs` in normal form.
    pub fn build(
        &mut self,
        terms: impl Iterator<Item = (i128, Lit)>,
        rhs: i128,
    ) -> Result<PbConstraint, Overflow> {
        let mut degree = rhs;
        for (a, l) in terms {
            let c = self.acc.entry(l.var());
            // a ~x = a - a x
            if l.is_negated() {
                *c -= a;
                degree -= a;
            } else {
                *c += a;
            }
        }
        // A scratch buffer kept between calls.
        let mut pairs = std::mem::take(&mut self.pairs);
        pairs.clear();
        self.acc.drain(|var, c| {
            if c > 0 {
                pairs.push((c, Lit::new(var, false)));
            } else if c < 0 {
                // c x = c + |c| ~x
                pairs.push((-c, Lit::new(var, true)));
                degree -= c;
            }
        });
        pairs.sort_by_key(|&(a, _)| std::cmp::Reverse(a));
        let packed = pack(&pairs, degree);
        self.pairs = pairs;
        packed
    }

    /// The constraint as written, in normal form: one for `>=` or `<=`, two (`>=` first)
    /// for `=`.
    pub fn written(&mut self, c: &Constraint) -> Result<Vec<PbConstraint>, Overflow> {
        Ok(match c.relation {
            Relation::AtLeast | Relation::AtMost => vec![self.first(c)?],
            Relation::Equal => vec![self.at_least(c)?, self.at_most(c)?],
        })
    }

    /// The first of [`Normalizer::written`]'s constraints, alone (no vector for the one
    /// constraint nearly every proof step writes).
    pub fn first(&mut self, c: &Constraint) -> Result<PbConstraint, Overflow> {
        match c.relation {
            Relation::AtLeast | Relation::Equal => self.at_least(c),
            Relation::AtMost => self.at_most(c),
        }
    }

    fn at_least(&mut self, c: &Constraint) -> Result<PbConstraint, Overflow> {
        self.build(
            c.terms.iter().map(|&(a, l)| (i128::from(a), l)),
            i128::from(c.rhs),
        )
    }

    fn at_most(&mut self, c: &Constraint) -> Result<PbConstraint, Overflow> {
        self.build(
            c.terms.iter().map(|&(a, l)| (-i128::from(a), l)),
            -i128::from(c.rhs),
        )
    }

    /// The sum of `a` and `b`.
    pub fn add(&mut self, a: &PbConstraint, b: &PbConstraint) -> Result<PbConstraint, Overflow> {
        let terms = a.terms().chain(b.terms()).map(|(c, l)| (i128::from(c), l));
        self.build(terms, i128::from(a.degree) + i128::from(b.degree))
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The positive literal of variable `i`.
    pub fn x(i: u32) -> Lit {
        Lit::new(i, false)
    }

    /// The negated literal of variable `i`.
    pub fn nx(i: u32) -> Lit {
        Lit::new(i, true)
    }

    /// `sum terms >= rhs` in normal form.
    pub fn build(terms: &[(i128, Lit)], rhs: i128) -> PbConstraint {
        Normalizer::default()
            .build(terms.iter().copied(), rhs)
            .unwrap()
    }

    #[test]
    fn sums_come_to_normal_form() {
        // -1 x0 -1 x1 >= -1 is 1 ~x0 1 ~x1 >= 1
        let amo = build(&[(-1, x(0)), (-1, x(1))], -1);
        assert_eq!(amo.degree, 1);
        assert_eq!(amo.coef_sum, 2);
        assert!(amo.lits.iter().all(|l| l.is_negated()));
        assert!(amo.is_clausal());
        // 2 x0 + 1 ~x0 + 3 x1 >= 2 is 1 x0 + 3 x1 >= 1, x1 first
        let merged = build(&[(2, x(0)), (1, nx(0)), (3, x(1))], 2);
        assert_eq!(merged.lits, vec![x(1), x(0)]);
        assert_eq!((merged.coef(0), merged.coef(1), merged.degree), (3, 1, 1));
        // x0 + ~x0 >= 1 is 0 >= 0, trivial
        let cancelled = build(&[(1, x(0)), (1, nx(0))], 1);
        assert!(cancelled.lits.is_empty() && cancelled.is_trivial());
        let empty = build(&[], 1);
        assert!(empty.is_contradicting());
    }

    #[test]
    fn cutting_planes_operations() {
        let mut n = Normalizer::default();
        // (x0 + x1 >= 1) + (~x0 + x1 >= 1) = 2 x1 >= 1; saturated 1 x1 >= 1
        let a = build(&[(1, x(0)), (1, x(1))], 1);
        let b = build(&[(1, nx(0)), (1, x(1))], 1);
        let sum = n.add(&a, &b).unwrap();
        assert_eq!(
            (sum.lits.clone(), sum.coef(0), sum.degree),
            (vec![x(1)], 2, 1)
        );
        let saturated = sum.saturate().unwrap();
        assert_eq!((saturated.coef(0), saturated.degree), (1, 1));
        // 3 x0 + 2 x1 >= 3, divided by 2: 2 x0 + 1 x1 >= 2
        let c = build(&[(3, x(0)), (2, x(1))], 3);
        let halved = c.divide(2).unwrap();
        assert_eq!((halved.coef(0), halved.coef(1), halved.degree), (2, 1, 2));
        let doubled = c.multiply(2).unwrap();
        assert_eq!(
            (doubled.coef(0), doubled.degree, doubled.coef_sum),
            (6, 6, 10)
        );
        // weakening x0 away from 3 x0 + 2 x1 >= 3: 2 x1 >= 0
        let weak = c.weaken(0).unwrap();
        assert_eq!((weak.lits.clone(), weak.degree), (vec![x(1)], 0));
        assert_eq!(c.decrement(1).unwrap().degree, 2);
        // the negation of 3 x0 + 2 x1 >= 3 is 3 ~x0 + 2 ~x1 >= 3
        let neg = c.negation().unwrap();
        assert_eq!((neg.lits.clone(), neg.degree), (vec![nx(0), nx(1)], 3));
        assert!(c.multiply(u64::MAX).is_err(), "overflow is refused");
    }

    #[test]
    fn syntactic_implication() {
        let coef_in = |t: &PbConstraint| {
            let t = t.clone();
            move |l: Lit| t.terms().find(|&(_, m)| m == l).map_or(0, |(a, _)| a)
        };
        let strong = build(&[(1, x(0))], 1);
        let weak = build(&[(1, x(0)), (1, x(1))], 1);
        assert!(strong.implies(&weak, coef_in(&weak)));
        assert!(!weak.implies(&strong, coef_in(&strong)));
        // 3 x0 >= 2 implies x0 >= 1 by saturation
        let big = build(&[(3, x(0))], 2);
        assert!(big.implies(&strong, coef_in(&strong)));
        // an at-most-two does not imply an at-most-one
        let amo = build(&[(-1, x(0)), (-1, x(1)), (-1, x(2))], -1);
        let amt = build(&[(-1, x(0)), (-1, x(1)), (-1, x(2))], -2);
        assert!(amo.implies(&amt, coef_in(&amt)));
        assert!(!amt.implies(&amo, coef_in(&amo)));
    }
}
