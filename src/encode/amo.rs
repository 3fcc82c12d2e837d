//! At-most-one encodings.
//!
//! # References
//! - Pairwise: the direct encoding, one binary clause per pair.
//! - Sequential: C. Sinz, "Towards an Optimal CNF Encoding of Boolean Cardinality
//!   Constraints", CP 2005 (the k = 1 case: n - 1 auxiliaries, 3n - 4 clauses).

use super::ClauseSink;
use crate::model::Lit;

/// How an at-most-one constraint becomes clauses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AmoEncoding {
    /// One clause per pair: no auxiliaries, n(n-1)/2 clauses; best for short lists.
    Pairwise,
    /// Sinz's sequential counter: n - 1 auxiliaries, about 3n clauses.
    Sequential,
    /// Pairwise up to [`PAIRWISE_LIMIT`] literals, sequential beyond.
    Auto,
}

/// The longest list that [`AmoEncoding::Auto`] encodes pairwise. Pairwise clauses
/// propagate directly, and up to this length their count stays small.
pub const PAIRWISE_LIMIT: usize = 16;

/// Adds clauses that allow at most one of `lits` to be true.
pub fn at_most_one(sink: &mut impl ClauseSink, lits: &[Lit], encoding: AmoEncoding) {
    let pairwise = match encoding {
        AmoEncoding::Pairwise => true,
        AmoEncoding::Sequential => false,
        AmoEncoding::Auto => lits.len() <= PAIRWISE_LIMIT,
    };
    if lits.len() < 2 {
        return;
    }
    if pairwise {
        for (i, &a) in lits.iter().enumerate() {
            for &b in &lits[i + 1..] {
                sink.add_clause(&[!a, !b]);
            }
        }
        return;
    }
    // s[i] is true when one of lits[0..=i] is true.
    let n = lits.len();
    let s: Vec<Lit> = (0..n - 1).map(|_| sink.new_var().positive()).collect();
    sink.add_clause(&[!lits[0], s[0]]);
    for i in 1..n - 1 {
        sink.add_clause(&[!lits[i], s[i]]);
        sink.add_clause(&[!s[i - 1], s[i]]);
        sink.add_clause(&[!lits[i], !s[i - 1]]);
    }
    sink.add_clause(&[!lits[n - 1], !s[n - 2]]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::test_support::equisatisfiable_for_every_input;

    #[test]
    fn every_encoding_is_exactly_at_most_one_up_to_seven_literals() {
        for encoding in [
            AmoEncoding::Pairwise,
            AmoEncoding::Sequential,
            AmoEncoding::Auto,
        ] {
            for n in 0..=7 {
                equisatisfiable_for_every_input(
                    n,
                    |cnf, inputs| {
                        at_most_one(cnf, inputs, encoding);
                        Vec::new()
                    },
                    |count| count <= 1,
                );
            }
        }
    }
}
