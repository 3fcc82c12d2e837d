//! The totalizer: a unary counter over input literals whose outputs say "at least j inputs
//! are true". Built once, it answers every bound through its outputs, so an optimisation
//! raises its bound by assuming the next output, keeping the solver's learnt clauses.
//!
//! # References
//! - O. Bailleux, Y. Boufkhad, "Efficient CNF Encoding of Boolean Cardinality Constraints",
//!   CP 2003.
//! - The output cap (only outputs up to the largest bound needed) follows the k-simplified
//!   totalizer of R. Martins et al., "Incremental Cardinality Constraints for MaxSAT", CP 2014.

use super::ClauseSink;
use crate::model::Lit;

/// Which implications between the inputs' count and the outputs are encoded.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Directions {
    /// output j true implies at least j inputs true: enough to enforce "at least k" by
    /// asserting output k.
    pub lower: bool,
    /// at least j inputs true implies output j: enough to enforce "at most k" by denying
    /// output k + 1.
    pub upper: bool,
}

/// A built totalizer: `outputs[j]` stands for "at least j + 1 inputs are true".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Totalizer {
    /// The unary outputs, at most `cap` of them.
    pub outputs: Vec<Lit>,
    /// The number of inputs.
    pub inputs: usize,
}

impl Totalizer {
    /// Builds a totalizer over `inputs` with at most `cap` outputs (bounds above `cap`
    /// cannot be expressed, and need not be).
    pub fn build(
        sink: &mut impl ClauseSink,
        inputs: &[Lit],
        cap: usize,
        directions: Directions,
    ) -> Totalizer {
        let outputs = if inputs.is_empty() || cap == 0 {
            Vec::new()
        } else {
            build_node(sink, inputs, cap, directions)
        };
        Totalizer {
            outputs,
            inputs: inputs.len(),
        }
    }

    /// The literal meaning "at least `k` inputs are true", or `None` when `k` is 0 (always
    /// true) or beyond the outputs (use [`Totalizer::at_least_is_impossible`]).
    pub fn at_least(&self, k: usize) -> Option<Lit> {
        k.checked_sub(1).and_then(|j| self.outputs.get(j).copied())
    }

    /// Whether "at least `k`" cannot hold because there are fewer inputs.
    pub fn at_least_is_impossible(&self, k: usize) -> bool {
        k > self.inputs
    }
}

fn build_node(
    sink: &mut impl ClauseSink,
    inputs: &[Lit],
    cap: usize,
    directions: Directions,
) -> Vec<Lit> {
    if inputs.len() == 1 {
        return inputs.to_vec();
    }
    let (left, right) = inputs.split_at(inputs.len() / 2);
    let a = build_node(sink, left, cap, directions);
    let b = build_node(sink, right, cap, directions);
    let size = (a.len() + b.len()).min(cap);
    let r: Vec<Lit> = (0..size).map(|_| sink.new_var().positive()).collect();
    // With a[0] meaning "at least 1 on the left" (index shifted by one), i and j count
    // true inputs on each side.
    if directions.upper {
        for i in 0..=a.len() {
            for j in 0..=b.len() {
                if i + j == 0 {
                    continue;
                }
                let mut clause = Vec::with_capacity(3);
                if i > 0 {
                    clause.push(!a[i - 1]);
                }
                if j > 0 {
                    clause.push(!b[j - 1]);
                }
                clause.push(r[(i + j).min(size) - 1]);
                sink.add_clause(&clause);
            }
        }
    }
    if directions.lower {
        // r[s-1] (at least s) needs, for every split i + j = s - 1, more than i on the
        // left or more than j on the right.
        for s in 1..=size {
            for i in 0..s {
                let j = s - 1 - i;
                if i > a.len() || j > b.len() {
                    continue;
                }
                let mut clause = vec![!r[s - 1]];
                if i < a.len() {
                    clause.push(a[i]);
                }
                if j < b.len() {
                    clause.push(b[j]);
                }
                sink.add_clause(&clause);
            }
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::test_support::equisatisfiable_for_every_input;

    const BOTH: Directions = Directions {
        lower: true,
        upper: true,
    };

    #[test]
    fn at_least_k_is_exact_for_every_input_up_to_seven() {
        for n in 1..=7 {
            for k in 1..=n {
                for cap in [k, n] {
                    let directions = Directions {
                        lower: true,
                        upper: false,
                    };
                    equisatisfiable_for_every_input(
                        n,
                        |cnf, inputs| {
                            let t = Totalizer::build(cnf, inputs, cap, directions);
                            vec![t.at_least(k).unwrap()]
                        },
                        |count| count >= k,
                    );
                }
            }
        }
    }

    #[test]
    fn at_most_k_is_exact_for_every_input_up_to_seven() {
        for n in 1..=7 {
            for k in 0..n {
                let directions = Directions {
                    lower: false,
                    upper: true,
                };
                equisatisfiable_for_every_input(
                    n,
                    |cnf, inputs| {
                        let t = Totalizer::build(cnf, inputs, k + 1, directions);
                        vec![!t.at_least(k + 1).unwrap()]
                    },
                    |count| count <= k,
                );
            }
        }
    }

    #[test]
    fn both_directions_make_outputs_equal_to_the_count() {
        for n in 1..=6 {
            for k in 1..=n {
                equisatisfiable_for_every_input(
                    n,
                    |cnf, inputs| vec![Totalizer::build(cnf, inputs, n, BOTH).at_least(k).unwrap()],
                    |count| count >= k,
                );
                equisatisfiable_for_every_input(
                    n,
                    |cnf, inputs| {
                        vec![!Totalizer::build(cnf, inputs, n, BOTH).at_least(k).unwrap()]
                    },
                    |count| count < k,
                );
            }
        }
    }
}
