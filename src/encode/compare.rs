//! "At least as many true literals in `first` as in `second`" in O(n) clauses: each side is
//! summed into a binary number by full and half adders, and the two numbers are compared
//! bit by bit from the top.
//!
//! The same comparison written as one cardinality constraint (`first` and the negations of
//! `second`, at least `|second|` true) needs a counter up to `|second|`, quadratic in the
//! number of literals; the adders need about 14 clauses per input, the comparator 3 per bit.
//!
//! # References
//! - N. Eén, N. Sörensson, "Translating Pseudo-Boolean Constraints into SAT", JSAT 2 (2006):
//!   the adder network, built from buckets of equal weight with full adders taken first in,
//!   first out (section 5.3).
//! - J. P. Warners, "A linear-time transformation of linear inequalities into conjunctive
//!   normal form", Information Processing Letters 68 (1998): linear-size CNF for linear
//!   inequalities through binary arithmetic.

use super::ClauseSink;
use crate::model::Lit;
use std::collections::VecDeque;

/// Adds clauses that hold exactly when at least as many of `first` as of `second` are true
/// (for some values of the auxiliaries).
pub fn at_least_as_many(sink: &mut impl ClauseSink, first: &[Lit], second: &[Lit]) {
    if second.is_empty() {
        return;
    }
    let a = binary_count(sink, first);
    let b = binary_count(sink, second);
    at_least_binary(sink, &a, &b);
}

/// The number of true literals among `lits` as a binary number, least significant bit first:
/// fresh literals (and inputs) that every solution sets to the bits of the count. Empty for
/// no literals (the count 0); a missing high bit is 0.
pub fn binary_count(sink: &mut impl ClauseSink, lits: &[Lit]) -> Vec<Lit> {
    // buckets[i] holds literals of weight 2^i still to be added up.
    let mut buckets: Vec<VecDeque<Lit>> = vec![lits.iter().copied().collect()];
    let mut bits = Vec::new();
    let mut i = 0;
    while i < buckets.len() {
        while buckets[i].len() >= 2 {
            let a = buckets[i].pop_front().expect("two or more");
            let b = buckets[i].pop_front().expect("two or more");
            let (sum, carry) = match buckets[i].pop_front() {
                Some(c) => full_adder(sink, a, b, c),
                None => half_adder(sink, a, b),
            };
            // First in, first out keeps the tree shallow, so the bits depend on the inputs
            // through few adders.
            buckets[i].push_back(sum);
            if buckets.len() == i + 1 {
                buckets.push(VecDeque::new());
            }
            buckets[i + 1].push_back(carry);
        }
        match buckets[i].pop_front() {
            Some(bit) => bits.push(bit),
            // Only the inputs' bucket can be empty (no inputs): the count is 0.
            None => debug_assert!(lits.is_empty()),
        }
        i += 1;
    }
    bits
}

/// Fresh `(sum, carry)` with sum = a xor b xor c and carry = majority(a, b, c).
fn full_adder(sink: &mut impl ClauseSink, a: Lit, b: Lit, c: Lit) -> (Lit, Lit) {
    let sum = sink.new_var().positive();
    let carry = sink.new_var().positive();
    let inputs = [a, b, c];
    // One clause per input pattern fixes the sum's parity.
    for pattern in 0..8u32 {
        let mut clause: Vec<Lit> = inputs
            .iter()
            .enumerate()
            .map(|(j, &x)| if pattern >> j & 1 == 1 { !x } else { x })
            .collect();
        clause.push(if pattern.count_ones() % 2 == 1 {
            sum
        } else {
            !sum
        });
        sink.add_clause(&clause);
    }
    for (j, k) in [(0, 1), (0, 2), (1, 2)] {
        sink.add_clause(&[!inputs[j], !inputs[k], carry]);
        sink.add_clause(&[inputs[j], inputs[k], !carry]);
    }
    (sum, carry)
}

/// Fresh `(sum, carry)` with sum = a xor b and carry = a and b.
fn half_adder(sink: &mut impl ClauseSink, a: Lit, b: Lit) -> (Lit, Lit) {
    let sum = sink.new_var().positive();
    let carry = sink.new_var().positive();
    sink.add_clause(&[!a, !b, !sum]);
    sink.add_clause(&[a, b, !sum]);
    sink.add_clause(&[!a, b, sum]);
    sink.add_clause(&[a, !b, sum]);
    sink.add_clause(&[!a, !b, carry]);
    sink.add_clause(&[a, !carry]);
    sink.add_clause(&[b, !carry]);
    (sum, carry)
}

/// A bit of a binary number: a literal, or a constant where one number is shorter.
#[derive(Copy, Clone)]
enum Bit {
    Const(bool),
    Lit(Lit),
}

impl std::ops::Not for Bit {
    type Output = Bit;
    fn not(self) -> Bit {
        match self {
            Bit::Const(value) => Bit::Const(!value),
            Bit::Lit(lit) => Bit::Lit(!lit),
        }
    }
}

/// Adds the clause of `bits`, dropping false constants; nothing when one is true.
fn add_bits(sink: &mut impl ClauseSink, bits: &[Bit]) {
    let mut clause = Vec::with_capacity(bits.len());
    for &bit in bits {
        match bit {
            Bit::Const(true) => return,
            Bit::Const(false) => {}
            Bit::Lit(lit) => clause.push(lit),
        }
    }
    sink.add_clause(&clause);
}

/// Adds clauses that hold exactly when the binary number `a` is at least `b` (least
/// significant bit first, missing bits 0): from the top, while the bits above are equal
/// (`equal_above`), a's bit must be at least b's.
fn at_least_binary(sink: &mut impl ClauseSink, a: &[Lit], b: &[Lit]) {
    let bit = |number: &[Lit], i: usize| number.get(i).map_or(Bit::Const(false), |&l| Bit::Lit(l));
    let mut equal_above = Bit::Const(true);
    for i in (0..a.len().max(b.len())).rev() {
        let (x, y) = (bit(a, i), bit(b, i));
        add_bits(sink, &[!equal_above, x, !y]);
        if i == 0 {
            break;
        }
        // Only the implication "equal so far and equal here -> equal below" is needed: a
        // true `equal` merely asks more, and a solution can always set it to the truth.
        let equal = match (x, y) {
            (Bit::Const(false), Bit::Const(false)) => equal_above,
            _ => {
                let equal = Bit::Lit(sink.new_var().positive());
                add_bits(sink, &[!equal_above, x, y, equal]);
                add_bits(sink, &[!equal_above, !x, !y, equal]);
                equal
            }
        };
        equal_above = equal;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::test_support::equisatisfiable_for_every_assignment;

    /// Every split of up to 11 inputs into `first` and `second` (and 12 split evenly), every
    /// assignment: satisfiable exactly when `first` has at least as many true.
    #[test]
    fn at_least_as_many_is_exact_for_every_input() {
        let mut cases: Vec<(usize, usize)> = (0..=11)
            .flat_map(|n| (0..=n).map(move |split| (n, split)))
            .collect();
        cases.push((12, 6));
        for (n, split) in cases {
            let count = |bits: u32, range: std::ops::Range<usize>| {
                range.filter(|&i| bits >> i & 1 == 1).count()
            };
            equisatisfiable_for_every_assignment(
                n,
                |cnf, inputs| {
                    at_least_as_many(cnf, &inputs[..split], &inputs[split..]);
                    Vec::new()
                },
                |bits| count(bits, 0..split) >= count(bits, split..n),
                &format!("first = inputs[..{split}]"),
            );
        }
    }

    /// The adders' bits are the count: asserting the bits of c is satisfiable exactly when
    /// c inputs are true.
    #[test]
    fn binary_count_is_the_count_for_every_input() {
        for n in 0..=9 {
            for c in 0..=n + 1 {
                equisatisfiable_for_every_assignment(
                    n,
                    |cnf, inputs| {
                        let bits = binary_count(cnf, inputs);
                        if c >> bits.len() != 0 {
                            cnf.clauses.push(Vec::new());
                        }
                        (0..bits.len())
                            .map(|j| if c >> j & 1 == 1 { bits[j] } else { !bits[j] })
                            .collect()
                    },
                    |bits| bits.count_ones() as usize == c,
                    &format!("count {c}"),
                );
            }
        }
    }
}
