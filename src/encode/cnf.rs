//! Model to CNF: the model's variables keep their numbers, encoders add auxiliaries after
//! them, and the objective gets one totalizer whose outputs say "at least k".

use super::amo::{at_most_one, AmoEncoding};
use super::compare::at_least_as_many;
use super::totalizer::{Directions, Totalizer};
use super::{ClauseSink, Cnf};
use crate::model::{Constraint, Lit, Model};

/// A model in CNF, with the literals that state objective bounds.
#[derive(Clone, Debug)]
pub struct CnfEncoding {
    /// The formula: the model's constraints, plus the objective counter's definitions.
    pub cnf: Cnf,
    /// The model's variables are CNF variables `0..model_vars`; the rest are auxiliaries.
    pub model_vars: usize,
    /// The counter over the objective (over its at-most-one group indicators when the
    /// model gives groups), when the model has an objective.
    pub objective: Option<Totalizer>,
    /// How the objective is counted, in words, for reports and certificates.
    pub objective_encoding: String,
}

impl CnfEncoding {
    /// The literal asserting "objective >= k"; `Ok(None)` when `k` is 0, `Err` when the
    /// counter has fewer inputs than `k`, so the bound is impossible outright.
    pub fn at_least(&self, k: usize) -> Result<Option<Lit>, BoundImpossible> {
        let Some(counter) = &self.objective else {
            return if k == 0 {
                Ok(None)
            } else {
                Err(BoundImpossible { k, inputs: 0 })
            };
        };
        if counter.at_least_is_impossible(k) {
            return Err(BoundImpossible {
                k,
                inputs: counter.inputs,
            });
        }
        Ok(counter.at_least(k))
    }

    /// The formula with "objective >= k" added as a unit clause (an empty clause when the
    /// bound is impossible outright): the decision question in one self-contained CNF.
    pub fn cnf_with_at_least(&self, k: Option<usize>) -> Cnf {
        let mut cnf = self.cnf.clone();
        if let Some(clause) = at_least_clause(self.objective.as_ref(), k) {
            cnf.clauses.push(clause);
        }
        cnf
    }
}

/// "At least k" asked of a counter with fewer than k inputs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BoundImpossible {
    /// The bound asked for.
    pub k: usize,
    /// How many literals (or groups) the counter counts.
    pub inputs: usize,
}

/// Encodes `model` into CNF with at-most-one encoding `amo`.
pub fn encode(model: &Model, amo: AmoEncoding) -> CnfEncoding {
    let mut cnf = Cnf::with_vars(model.num_vars());
    let (objective, objective_encoding) = encode_into(&mut cnf, model, amo);
    CnfEncoding {
        cnf,
        model_vars: model.num_vars(),
        objective,
        objective_encoding,
    }
}

/// Encodes `model` into `sink` (which must number the model's variables `0..num_vars`
/// already), as [`encode`] does: the same clauses in the same order, so a counting pass
/// and a writing pass agree. Returns the objective's counter and how it is counted, in
/// words. Stops early, leaving the formula unfinished, once [`ClauseSink::stopped`] says so.
pub fn encode_into(
    sink: &mut impl ClauseSink,
    model: &Model,
    amo: AmoEncoding,
) -> (Option<Totalizer>, String) {
    for constraint in &model.constraints {
        if sink.stopped() {
            return (None, "none (stopped)".to_string());
        }
        encode_constraint(sink, constraint, amo);
    }
    let cnf = sink;
    match &model.objective {
        None => (None, "none".to_string()),
        Some(objective) => {
            let lower = Directions {
                lower: true,
                upper: false,
            };
            match &objective.amo_groups {
                Some(groups) => {
                    // One indicator per group, implying some literal of the group. The
                    // groups are disjoint and at-most-one, so k true indicators need k
                    // true objective literals, and any solution sets them that way.
                    let indicators: Vec<Lit> = groups
                        .iter()
                        .map(|group| {
                            let members: Vec<Lit> =
                                group.iter().map(|&i| objective.lits[i]).collect();
                            if let [single] = members[..] {
                                return single;
                            }
                            let indicator = cnf.new_var().positive();
                            let mut clause = vec![!indicator];
                            clause.extend(members);
                            cnf.add_clause(&clause);
                            indicator
                        })
                        .collect();
                    let counter = Totalizer::build(cnf, &indicators, indicators.len(), lower);
                    let words = format!(
                        "totalizer over {} at-most-one group indicators (of {} objective literals)",
                        indicators.len(),
                        objective.lits.len()
                    );
                    (Some(counter), words)
                }
                None => {
                    let n = objective.lits.len();
                    let counter = Totalizer::build(cnf, &objective.lits, n, lower);
                    (
                        Some(counter),
                        format!("totalizer over {n} objective literals"),
                    )
                }
            }
        }
    }
}

/// The clause stating "objective >= k" for `counter` (the objective's totalizer, if any):
/// `None` when there is no bound to state (no `k`, or `k` = 0), an empty clause when the
/// bound is impossible outright.
pub fn at_least_clause(counter: Option<&Totalizer>, k: Option<usize>) -> Option<Vec<Lit>> {
    let k = k?;
    match counter {
        _ if k == 0 => None,
        None => Some(Vec::new()),
        Some(counter) if counter.at_least_is_impossible(k) => Some(Vec::new()),
        Some(counter) => counter.at_least(k).map(|lit| vec![lit]),
    }
}

/// Adds the clauses of one constraint.
pub fn encode_constraint(sink: &mut impl ClauseSink, constraint: &Constraint, amo: AmoEncoding) {
    match constraint {
        Constraint::Clause(lits) => sink.add_clause(lits),
        Constraint::AtMostOne(lits) => at_most_one(sink, lits, amo),
        Constraint::ExactlyOne(lits) => {
            sink.add_clause(lits);
            at_most_one(sink, lits, amo);
        }
        Constraint::AtLeast(lits, k) => {
            let lower = Directions {
                lower: true,
                upper: false,
            };
            if *k > lits.len() {
                sink.add_clause(&[]);
            } else if *k > 0 {
                let counter = Totalizer::build(sink, lits, *k, lower);
                sink.add_clause(&[counter.at_least(*k).expect("k within the cap")]);
            }
        }
        Constraint::AtMost(lits, k) => {
            let upper = Directions {
                lower: false,
                upper: true,
            };
            if *k < lits.len() {
                let counter = Totalizer::build(sink, lits, *k + 1, upper);
                sink.add_clause(&[!counter.at_least(*k + 1).expect("k + 1 within the cap")]);
            }
        }
        Constraint::AtLeastAsMany { first, second } => at_least_as_many(sink, first, second),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::test_support::equisatisfiable_for_every_input;
    use crate::model::Objective;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use varisat::ExtendFormula;

    /// The objective counter that certificates rely on, against its definition: for random
    /// partitions of up to 7 literals into at-most-one groups (singletons included, which
    /// count their literal directly), every assignment of the literals and every bound k,
    /// the CNF with "objective >= k" is satisfiable exactly when every group holds at most
    /// one true literal and at least k literals are true.
    #[test]
    fn group_indicator_objective_is_exact_for_every_input() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(6);
        for _ in 0..40 {
            let n = rng.gen_range(1..=7);
            let mut order: Vec<usize> = (0..n).collect();
            order.shuffle(&mut rng);
            let mut groups: Vec<Vec<usize>> = Vec::new();
            for i in order {
                match groups.last_mut() {
                    Some(group) if rng.gen_bool(0.5) => group.push(i),
                    _ => groups.push(vec![i]),
                }
            }
            let mut model = Model::new();
            let lits: Vec<Lit> = (0..n)
                .map(|i| model.new_var(format!("x{i}")).positive())
                .collect();
            for group in groups.iter().filter(|g| g.len() > 1) {
                model.add(Constraint::AtMostOne(
                    group.iter().map(|&i| lits[i]).collect(),
                ));
            }
            model.objective = Some(Objective {
                lits: lits.clone(),
                amo_groups: Some(groups.clone()),
            });
            model.check_hints().unwrap();
            let encoding = encode(&model, AmoEncoding::Auto);
            for k in 0..=groups.len() + 1 {
                let cnf = encoding.cnf_with_at_least(Some(k));
                let mut solver = varisat::Solver::new();
                for clause in &cnf.clauses {
                    let clause: Vec<varisat::Lit> = clause
                        .iter()
                        .map(|l| varisat::Lit::from_dimacs(l.dimacs() as isize))
                        .collect();
                    solver.add_clause(&clause);
                }
                for bits in 0u32..1 << n {
                    let value = |i: usize| bits >> i & 1 == 1;
                    let assumptions: Vec<varisat::Lit> = (0..n)
                        .map(|i| varisat::Lit::from_var(varisat::Var::from_index(i), value(i)))
                        .collect();
                    solver.assume(&assumptions);
                    let expected = groups
                        .iter()
                        .all(|g| g.iter().filter(|&&i| value(i)).count() <= 1)
                        && bits.count_ones() as usize >= k;
                    assert_eq!(
                        solver.solve().unwrap(),
                        expected,
                        "groups {groups:?}, k = {k}, inputs {bits:0n$b}",
                        n = n
                    );
                }
            }
        }
    }

    #[test]
    fn general_cardinality_constraints_are_exact() {
        for n in 0..=6 {
            for k in 0..=n + 1 {
                equisatisfiable_for_every_input(
                    n,
                    |cnf, inputs| {
                        encode_constraint(
                            cnf,
                            &Constraint::AtLeast(inputs.to_vec(), k),
                            AmoEncoding::Auto,
                        );
                        Vec::new()
                    },
                    |count| count >= k,
                );
                equisatisfiable_for_every_input(
                    n,
                    |cnf, inputs| {
                        encode_constraint(
                            cnf,
                            &Constraint::AtMost(inputs.to_vec(), k),
                            AmoEncoding::Auto,
                        );
                        Vec::new()
                    },
                    |count| count <= k,
                );
                equisatisfiable_for_every_input(
                    n,
                    |cnf, inputs| {
                        encode_constraint(
                            cnf,
                            &Constraint::ExactlyOne(inputs.to_vec()),
                            AmoEncoding::Sequential,
                        );
                        Vec::new()
                    },
                    |count| count == 1,
                );
            }
        }
    }
}
