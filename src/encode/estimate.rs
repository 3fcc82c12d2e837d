//! Sizes of encodings from a model's [`ModelShape`], without building either: the CNF's
//! variables, clauses and literals (each distinct constraint shape is encoded once into a
//! counting sink by the real encoders, and multiplied by how often it occurs), the bytes
//! the model and its encodings take in memory, and the bytes of each file format.
//!
//! Memory figures are estimates calibrated on this crate's data structures and on peak
//! resident sizes measured with `/usr/bin/time -v` (README, "Resource guards"); they aim
//! high rather than low.

use super::amo::{at_most_one, AmoEncoding};
use super::compare::at_least_as_many;
use super::totalizer::{Directions, Totalizer};
use super::ClauseSink;
use crate::model::shape::{ConstraintShape, ModelShape};
use crate::model::{Constraint, Lit, Var};

/// Counts the variables, clauses and literals an encoder makes, storing nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountingSink {
    /// Variables so far (inputs included).
    pub variables: u64,
    /// Clauses added.
    pub clauses: u64,
    /// Literal occurrences over the clauses added.
    pub literals: u64,
}

impl CountingSink {
    /// A sink whose first `variables` variables exist already (the model's).
    pub fn with_vars(variables: u64) -> CountingSink {
        CountingSink {
            variables,
            ..CountingSink::default()
        }
    }
}

impl ClauseSink for CountingSink {
    fn new_var(&mut self) -> Var {
        self.variables += 1;
        // Only counted; the number is never used to index anything.
        Var::from_index((self.variables - 1).min(u64::from(u32::MAX >> 1)) as usize)
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.clauses += 1;
        self.literals += clause.len() as u64;
    }
}

/// The size of a CNF.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CnfCounts {
    /// Variables, model and auxiliary.
    pub variables: u64,
    /// Clauses.
    pub clauses: u64,
    /// Literal occurrences.
    pub literals: u64,
}

/// The counts of one constraint of shape `shape`, encoded as [`super::cnf::encode`] does.
fn constraint_counts(shape: ConstraintShape, amo: AmoEncoding) -> CountingSink {
    let len = shape.len();
    let mut sink = CountingSink::with_vars(len as u64);
    let lits: Vec<Lit> = (0..len).map(|i| Var::from_index(i).positive()).collect();
    let constraint = match shape {
        ConstraintShape::Clause(_) => Constraint::Clause(lits),
        ConstraintShape::AtMostOne(_) => Constraint::AtMostOne(lits),
        ConstraintShape::ExactlyOne(_) => Constraint::ExactlyOne(lits),
        ConstraintShape::AtLeast(_, k) => Constraint::AtLeast(lits, k),
        ConstraintShape::AtMost(_, k) => Constraint::AtMost(lits, k),
        ConstraintShape::AtLeastAsMany(a, _) => {
            let second = lits[a..].to_vec();
            let mut first = lits;
            first.truncate(a);
            at_least_as_many(&mut sink, &first, &second);
            sink.variables -= len as u64;
            return sink;
        }
    };
    if let Constraint::AtMostOne(l) = &constraint {
        // The pairwise encoding of a long at-most-one is quadratic: count it without
        // enumerating the pairs.
        if matches!(amo, AmoEncoding::Pairwise) || l.len() <= super::amo::PAIRWISE_LIMIT {
            let n = l.len() as u64;
            sink.clauses = n * n.saturating_sub(1) / 2;
            sink.literals = 2 * sink.clauses;
            sink.variables = 0;
            return sink;
        }
        at_most_one(&mut sink, l, amo);
    } else {
        super::cnf::encode_constraint(&mut sink, &constraint, amo);
    }
    sink.variables -= len as u64;
    sink
}

/// The size of the CNF [`super::cnf::encode`] makes of a model of shape `shape`, with the
/// unit clause of "objective at least k" when `at_least` is given.
pub fn cnf_counts(shape: &ModelShape, amo: AmoEncoding, at_least: Option<usize>) -> CnfCounts {
    let mut total = CnfCounts {
        variables: shape.variables,
        ..CnfCounts::default()
    };
    for (&constraint, &count) in &shape.constraints {
        let one = constraint_counts(constraint, amo);
        total.variables += one.variables * count;
        total.clauses += one.clauses * count;
        total.literals += one.literals * count;
    }
    if let Some(objective) = shape.objective {
        let lower = Directions {
            lower: true,
            upper: false,
        };
        let inputs = match objective.groups {
            Some(groups) => {
                // One indicator and one clause per group of two or more literals.
                let indicators = groups - objective.singleton_groups;
                total.variables += indicators;
                total.clauses += indicators;
                total.literals += (objective.lits - objective.singleton_groups) + indicators;
                groups
            }
            None => objective.lits,
        };
        let mut sink = CountingSink::with_vars(inputs);
        let lits: Vec<Lit> = (0..inputs as usize)
            .map(|i| Var::from_index(i).positive())
            .collect();
        Totalizer::build(&mut sink, &lits, lits.len(), lower);
        total.variables += sink.variables - inputs;
        total.clauses += sink.clauses;
        total.literals += sink.literals;
    }
    if at_least.is_some() {
        total.clauses += 1;
        total.literals += 1;
    }
    total
}

/// What a heap allocation of `bytes` costs with the allocator's header and rounding.
fn heap(bytes: u64) -> u64 {
    if bytes == 0 {
        0
    } else {
        ((bytes + 8 + 15) & !15).max(32)
    }
}

/// Bytes of the model (IR) in memory: names, constraints and the objective.
pub fn model_bytes(shape: &ModelShape) -> u64 {
    let names = shape.variables * 24 + heap(16) * shape.variables + shape.name_bytes;
    let constraints: u64 = shape
        .constraints
        .iter()
        .map(|(c, &count)| {
            count * (std::mem::size_of::<Constraint>() as u64 + heap(4 * c.len() as u64))
        })
        .sum();
    let objective = shape.objective.map_or(0, |o| {
        // Literals, and one index vector per group.
        4 * o.lits + 8 * o.lits + o.groups.unwrap_or(0) * (24 + 32)
    });
    // A tenth more for what this count leaves out (allocator slack, vectors' spare
    // capacity): the 64 x 64 dissection's complete model came within 2% of the count.
    (names + constraints + objective + shape.scratch_bytes) / 10 * 11
}

/// Bytes [`super::clique::grow_cliques`] holds for a model of `shape`: the groups of its
/// at-most-one and exactly-one constraints as column vectors, each variable's list of
/// groups, and a copy of each grown clique (at most twice its constraint).
pub fn clique_bytes(shape: &ModelShape) -> u64 {
    let groups: u64 = shape
        .constraints
        .iter()
        .filter(|(c, _)| {
            matches!(
                c,
                ConstraintShape::AtMostOne(_) | ConstraintShape::ExactlyOne(_)
            )
        })
        .map(|(c, &count)| count * (24 + 32 * c.len() as u64))
        .sum();
    shape.variables * 24 + groups
}

/// Bytes of a CNF held as clause vectors (the crate's [`super::Cnf`]).
pub fn cnf_bytes(cnf: CnfCounts) -> u64 {
    // A vector per clause (24 bytes) and its literals on the heap (header, rounding).
    cnf.clauses * (24 + 24) + cnf.literals * 4
}

/// Bytes an embedded CDCL solver (varisat) takes for `cnf` once loaded, with room for the
/// clauses it learns: measured at about 40 bytes per clause of 3 literals at load, and
/// close to three times that after a few seconds of search (the 64 x 64 L-tromino packing:
/// 2.8 M clauses, 490 MB in all after 5 s).
pub fn sat_solver_bytes(cnf: CnfCounts) -> u64 {
    3 * (cnf.clauses * 28 + cnf.literals * 4 + cnf.variables * 64)
}

/// Bytes of the 0-1 linear program and of an embedded MILP solver working on it (good_lp
/// with microlp: measured at about 300 bytes per nonzero all told).
pub fn milp_bytes(shape: &ModelShape) -> u64 {
    let nonzeros = shape.literal_count() + shape.objective.map_or(0, |o| 2 * o.lits);
    let rows = shape.constraint_count() + 1;
    nonzeros * 300 + (rows + shape.variables) * 200
}

/// The file formats whose sizes [`file_bytes`] estimates.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FileFormat {
    /// DIMACS CNF.
    Dimacs,
    /// WCNF (MaxSAT).
    Wcnf,
    /// OPB (pseudo-Boolean).
    Opb,
    /// CPLEX LP.
    Lp,
}

/// About how many bytes a file of `format` takes for a model of shape `shape` (the CNF
/// formats from `cnf`, its CNF counts).
pub fn file_bytes(shape: &ModelShape, cnf: CnfCounts, format: FileFormat) -> u64 {
    let number = |n: u64| n.checked_ilog10().map_or(1, |d| u64::from(d) + 1);
    // `c var N name` lines (or `* var`, or `\ column safe = name`).
    let names = shape.variables * (8 + number(shape.variables)) + shape.name_bytes;
    match format {
        FileFormat::Dimacs | FileFormat::Wcnf => {
            names + cnf.literals * (number(cnf.variables) + 2) + cnf.clauses * 4
        }
        FileFormat::Opb => {
            let terms = shape.literal_count() + shape.objective.map_or(0, |o| o.lits);
            names + terms * (number(shape.variables) + 5) + shape.constraint_count() * 8
        }
        FileFormat::Lp => {
            let terms = shape.literal_count() + shape.objective.map_or(0, |o| o.lits);
            // Column names appear in the mapping comment, in terms and in `Binaries`.
            let average_name = shape.name_bytes / shape.variables.max(1) + 2;
            2 * names + terms * (average_name + 4) + shape.constraint_count() * 16
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::cnf::encode;
    use crate::model::shape::ModelShape;
    use crate::model::{Model, Objective};
    use rand::{Rng, SeedableRng};

    /// The counts from a shape equal the CNF the encoder builds, on random models with
    /// every kind of constraint and both kinds of objective.
    #[test]
    fn cnf_counts_match_the_encoding() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(14);
        for round in 0..40 {
            let mut model = Model::new();
            let n = rng.gen_range(1..40);
            let lits: Vec<Lit> = (0..n)
                .map(|i| model.new_var(format!("x{i}")).positive())
                .collect();
            let pick = |rng: &mut rand_chacha::ChaCha8Rng| -> Vec<Lit> {
                let len = rng.gen_range(0..=n);
                (0..len)
                    .map(|_| {
                        let l = lits[rng.gen_range(0..n)];
                        if rng.gen_bool(0.3) {
                            !l
                        } else {
                            l
                        }
                    })
                    .collect()
            };
            for _ in 0..rng.gen_range(0..8) {
                let a = pick(&mut rng);
                let k = rng.gen_range(0..=a.len() + 1);
                let constraint = match rng.gen_range(0..6) {
                    0 => Constraint::Clause(a),
                    1 => Constraint::AtMostOne(a),
                    2 => Constraint::ExactlyOne(a),
                    3 => Constraint::AtLeast(a, k),
                    4 => Constraint::AtMost(a, k),
                    _ => Constraint::AtLeastAsMany {
                        first: a,
                        second: pick(&mut rng),
                    },
                };
                model.add(constraint);
            }
            if round % 3 != 0 {
                let groups: Vec<Vec<usize>> = (0..n)
                    .collect::<Vec<_>>()
                    .chunks(rng.gen_range(1..5))
                    .map(<[usize]>::to_vec)
                    .collect();
                model.objective = Some(Objective {
                    lits: lits.clone(),
                    amo_groups: (round % 3 == 1).then_some(groups),
                });
            }
            let encoding = encode(&model, AmoEncoding::Auto);
            let counts = cnf_counts(&ModelShape::of(&model), AmoEncoding::Auto, None);
            assert_eq!(
                counts.variables, encoding.cnf.num_vars as u64,
                "round {round}"
            );
            assert_eq!(
                counts.clauses,
                encoding.cnf.clauses.len() as u64,
                "round {round}"
            );
            let literals: usize = encoding.cnf.clauses.iter().map(Vec::len).sum();
            assert_eq!(counts.literals, literals as u64, "round {round}");
        }
    }
}
