//! The algorithms over oracles, each written once for every solver behind [`SatOracle`] or
//! [`MilpOracle`]:
//!
//! - [`solve_with_cuts`]: solve, and while the model's lazy constraints find the answer
//!   wrong, add their cuts and solve again;
//! - [`answer_goal`]: "at least k" raised past each solution found until refuted, which
//!   proves the last solution optimal;
//! - [`enumerate_projected`]: every distinct assignment of chosen variables once, each
//!   excluded by a blocking clause after it is found;
//! - [`answer_goal_milp`]: one 0-1 program re-solved with cuts until none is violated.

use super::{MilpAnswer, MilpOracle, OracleError, SatAnswer, SatOracle};
use crate::base::evidence::{Ceiling, MilpQuestion, OracleKind};
use crate::base::{Control, Evidence, Goal, Incumbent, RawOutcome, Size, Status};
use crate::encode::cnf::CnfEncoding;
use crate::formats::linear::LinearProgram;
use crate::model::{Assignment, Lit, Model, Var};
use std::time::Instant;

/// What [`solve_with_cuts`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CutAnswer {
    /// A model of the formula that every lazy constraint accepts (model variables only).
    Sat(Assignment),
    /// No model under the assumptions.
    Unsat,
    /// The solver gave up.
    Unknown,
}

/// The lazy-constraint cuts `assignment` violates.
fn cuts_of(model: &Model, assignment: &Assignment) -> Vec<Vec<Lit>> {
    model.lazy.iter().flat_map(|l| l.cuts(assignment)).collect()
}

/// Solves under `assumptions`, adding the cuts of `model`'s lazy constraints (counted in
/// `cuts`) until an answer satisfies them all; `None` when `control` stopped a call.
pub fn solve_with_cuts<O: SatOracle + ?Sized>(
    oracle: &mut O,
    model: &Model,
    assumptions: &[Lit],
    control: &Control,
    cuts: &mut usize,
) -> Result<Option<CutAnswer>, OracleError> {
    solve_separating(
        oracle,
        model.num_vars(),
        assumptions,
        control,
        |assignment| {
            let new_cuts = cuts_of(model, assignment);
            *cuts += new_cuts.len();
            new_cuts
        },
    )
}

/// The cut loop itself: solves under `assumptions` and adds the clauses `separate` finds
/// violated by the answer (its first `model_vars` values) until it finds none. Certificates
/// use it to record each cut with its reason.
pub fn solve_separating<O: SatOracle + ?Sized>(
    oracle: &mut O,
    model_vars: usize,
    assumptions: &[Lit],
    control: &Control,
    mut separate: impl FnMut(&Assignment) -> Vec<Vec<Lit>>,
) -> Result<Option<CutAnswer>, OracleError> {
    loop {
        let values = match oracle.solve(assumptions, control)? {
            None => return Ok(None),
            Some(SatAnswer::Unsat) => return Ok(Some(CutAnswer::Unsat)),
            Some(SatAnswer::Unknown) => return Ok(Some(CutAnswer::Unknown)),
            Some(SatAnswer::Sat(values)) => values,
        };
        let assignment = Assignment::new(values[..model_vars].to_vec());
        let new_cuts = separate(&assignment);
        if new_cuts.is_empty() {
            return Ok(Some(CutAnswer::Sat(assignment)));
        }
        for cut in &new_cuts {
            // A cut the answer satisfies would not change the next answer: the loop would
            // never end.
            if cut
                .iter()
                .any(|&lit| lit.var().index() < model_vars && lit.holds(&assignment))
            {
                return Err(OracleError::Rejected(format!(
                    "a cut is satisfied by the answer it was made for (a bug in the lazy \
                     constraint): {:?}",
                    cut.iter().map(|l| l.dimacs()).collect::<Vec<_>>()
                )));
            }
            oracle.add_clause(cut);
        }
    }
}

/// The outcome once "at least k" is refuted: optimal with the best so far (which has
/// k - 1), or a "no" to the decision question.
fn refuted(
    goal: Goal,
    best: Option<(Assignment, usize)>,
    k: usize,
    evidence: Evidence,
    size: Size,
) -> RawOutcome<Assignment> {
    match (goal, best) {
        (Goal::Maximise, Some((assignment, _))) => RawOutcome {
            status: Status::Optimal,
            witness: Some(assignment),
            bound: Some(k - 1),
            evidence,
            size,
        },
        _ => RawOutcome {
            status: Status::Unsatisfiable,
            witness: None,
            bound: k.checked_sub(1),
            evidence,
            size,
        },
    }
}

/// The best so far when a run ends without an answer: feasible with it, unknown without.
fn unfinished(
    best: Option<(Assignment, usize)>,
    evidence: Evidence,
    size: Size,
) -> RawOutcome<Assignment> {
    RawOutcome {
        status: if best.is_some() {
            Status::Feasible
        } else {
            Status::Unknown
        },
        witness: best.map(|(a, _)| a),
        bound: None,
        evidence,
        size,
    }
}

/// Answers `goal` for `model`, whose CNF `encoding` the oracle holds. For
/// [`Goal::Maximise`] it finds a solution, then asks for one more than that solution's
/// value until refuted: optimal means a witness with k and "at least k + 1" refuted (or k
/// equal to the structural bound). Every solution found is offered to `incumbent`.
pub fn answer_goal<O: SatOracle + ?Sized>(
    oracle: &mut O,
    encoding: &CnfEncoding,
    model: &Model,
    goal: Goal,
    control: &Control,
    incumbent: &Incumbent<Assignment>,
) -> Result<RawOutcome<Assignment>, OracleError> {
    let objective = model.objective.as_ref();
    let ceiling = best_possible(model);
    let mut best: Option<(Assignment, usize)> = None;
    // The bound to ask for next.
    let mut k = match goal {
        Goal::AtLeast(k) => k,
        Goal::Maximise => 0,
    };
    if let Some(known) = model.usable_known_solution() {
        let value = objective.map_or(0, |o| o.value(&known.assignment));
        incumbent.offer(&known.assignment, value);
        if let Some(outcome) = settled_by_known(model, goal, value, &ceiling, oracle.size()) {
            return Ok(outcome);
        }
        if goal == Goal::Maximise && objective.is_some() {
            best = Some((known.assignment.clone(), value));
            k = value + 1;
        }
    }
    // A bound the puzzle knows to be reached is asked for first: one call finds the optimum
    // instead of one call per value below it. Should the solver refute it after all, the
    // loop goes on from where it was.
    let reached = model
        .upper_bound
        .as_ref()
        .filter(|b| b.reached)
        .map(|b| b.value);
    if let (Goal::Maximise, Some(bound), None) = (goal, reached, &best) {
        if ceiling.as_ref().is_some_and(|(c, _)| *c == bound) {
            if let Ok(Some(lit)) = encoding.at_least(bound) {
                let mut cuts = 0;
                match solve_with_cuts(oracle, model, &[lit], control, &mut cuts)? {
                    Some(CutAnswer::Sat(assignment)) => {
                        let value = objective.map_or(0, |o| o.value(&assignment));
                        incumbent.offer(&assignment, value);
                        if value == bound {
                            let why = ceiling.as_ref().expect("checked above").1.clone();
                            return Ok(RawOutcome {
                                status: Status::Optimal,
                                witness: Some(assignment),
                                bound: Some(value),
                                evidence: Evidence::FoundCeiling {
                                    by: oracle.oracle(),
                                    value,
                                    ceiling: why,
                                    asked_first: true,
                                },
                                size: oracle.size(),
                            });
                        }
                    }
                    None => {
                        return Ok(unfinished(
                            best,
                            sat_stopped(oracle, bound, control),
                            oracle.size(),
                        ))
                    }
                    Some(CutAnswer::Unsat | CutAnswer::Unknown) => {}
                }
            }
        }
    }
    let counted = encoding.objective_encoding.to_string();
    let mut cuts = 0;
    loop {
        if control.should_stop() {
            return Ok(unfinished(
                best,
                sat_stopped(oracle, k, control),
                oracle.size(),
            ));
        }
        let assumptions: Vec<Lit> = match encoding.at_least(k) {
            Ok(lit) => lit.into_iter().collect(),
            Err(impossible) => {
                // More than the counter's inputs: refuted by counting alone.
                let evidence = Evidence::TooFewGroups {
                    k,
                    groups: impossible.inputs,
                };
                return Ok(refuted(goal, best, k, evidence, oracle.size()));
            }
        };
        let answer = solve_with_cuts(oracle, model, &assumptions, control, &mut cuts)?;
        let calls = oracle.calls();
        match answer {
            None => {
                return Ok(unfinished(
                    best,
                    sat_stopped(oracle, k, control),
                    oracle.size(),
                ))
            }
            Some(CutAnswer::Unknown) => {
                let evidence = Evidence::SatUnknown {
                    by: oracle.oracle(),
                    k,
                };
                return Ok(unfinished(best, evidence, oracle.size()));
            }
            Some(CutAnswer::Unsat) => {
                let evidence = Evidence::SatRefuted {
                    by: oracle.oracle(),
                    k,
                    counted: counted.clone(),
                    calls,
                    cuts,
                    drat_lemmas: oracle.drat_lemmas(),
                };
                return Ok(refuted(goal, best, k, evidence, oracle.size()));
            }
            Some(CutAnswer::Sat(assignment)) => {
                let value = objective.map_or(0, |o| o.value(&assignment));
                incumbent.offer(&assignment, value);
                if let Goal::AtLeast(target) = goal {
                    return Ok(RawOutcome {
                        status: Status::Satisfiable,
                        witness: Some(assignment),
                        bound: None,
                        evidence: Evidence::FoundAtLeast {
                            by: oracle.oracle(),
                            value,
                            k: target,
                            calls: Some(calls),
                        },
                        size: oracle.size(),
                    });
                }
                if objective.is_none() {
                    // Nothing to optimise: any solution answers the question.
                    return Ok(RawOutcome {
                        status: Status::Satisfiable,
                        witness: Some(assignment),
                        bound: None,
                        evidence: Evidence::FoundNoObjective {
                            by: oracle.oracle(),
                            calls: Some(calls),
                            cuts,
                        },
                        size: oracle.size(),
                    });
                }
                if let Some((_, why)) = ceiling.as_ref().filter(|(b, _)| *b == value) {
                    return Ok(RawOutcome {
                        status: Status::Optimal,
                        witness: Some(assignment),
                        bound: Some(value),
                        evidence: Evidence::FoundCeiling {
                            by: oracle.oracle(),
                            value,
                            ceiling: why.clone(),
                            asked_first: false,
                        },
                        size: oracle.size(),
                    });
                }
                best = Some((assignment, value));
                k = value + 1;
            }
        }
    }
}

/// The largest objective value the model allows, with the reason in words: the puzzle's
/// stated upper bound when it is at least as tight as the structural one (the number of
/// at-most-one groups), else the structural one; `None` without an objective.
fn best_possible(model: &Model) -> Option<(usize, Ceiling)> {
    let structural = model.objective.as_ref()?.trivial_bound();
    match &model.upper_bound {
        Some(fact) if fact.value <= structural => Some((
            fact.value,
            Ceiling::Stated {
                reason: fact.reason.clone(),
            },
        )),
        _ => Some((structural, Ceiling::Structural { groups: structural })),
    }
}

/// Evidence that `control` stopped the run while `oracle` decided "at least k".
fn sat_stopped<O: SatOracle + ?Sized>(oracle: &O, k: usize, control: &Control) -> Evidence {
    Evidence::SatStopped {
        by: oracle.oracle(),
        k,
        stop: control.stop(),
    }
}

/// The outcome when the model's known solution already answers `goal`: it meets "at least
/// k", or it reaches the largest value the model allows. No solver call is needed then.
fn settled_by_known(
    model: &Model,
    goal: Goal,
    value: usize,
    ceiling: &Option<(usize, Ceiling)>,
    size: Size,
) -> Option<RawOutcome<Assignment>> {
    let known = model.usable_known_solution()?;
    let origin = &known.origin;
    let (status, bound, evidence) = match (goal, ceiling) {
        (Goal::AtLeast(k), _) if value >= k => (
            Status::Satisfiable,
            None,
            Evidence::KnownSolution {
                origin: origin.clone(),
                value,
                k: Some(k),
                ceiling: None,
            },
        ),
        (Goal::Maximise, Some((b, why))) if *b == value => (
            Status::Optimal,
            Some(value),
            Evidence::KnownSolution {
                origin: origin.clone(),
                value,
                k: None,
                ceiling: Some(why.clone()),
            },
        ),
        _ => return None,
    };
    Some(RawOutcome {
        status,
        witness: Some(known.assignment.clone()),
        bound,
        evidence,
        size,
    })
}

/// What [`enumerate_projected`] found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Enumeration {
    /// Distinct projected assignments reported.
    pub count: u64,
    /// Whether the last call proved no further one exists (so `count` is exact); false
    /// when the callback or `control` stopped it.
    pub complete: bool,
    /// Solver calls made (lazy-constraint re-solves included).
    pub calls: usize,
    /// Lazy-constraint cuts added.
    pub cuts: usize,
}

/// Calls `on_solution` with one model of `model` (lazy constraints included) under
/// `assumptions` for each distinct assignment of `project`, until it returns false,
/// `control` stops the run, or the oracle proves no other exists. Two models that agree on
/// `project` count once.
pub fn enumerate_projected<O: SatOracle + ?Sized>(
    oracle: &mut O,
    model: &Model,
    project: &[Var],
    assumptions: &[Lit],
    control: &Control,
    on_solution: &mut dyn FnMut(&Assignment) -> bool,
) -> Result<Enumeration, OracleError> {
    let mut result = Enumeration::default();
    let mut cuts = 0;
    loop {
        if control.should_stop() {
            break;
        }
        let answer = solve_with_cuts(oracle, model, assumptions, control, &mut cuts)?;
        result.calls = oracle.calls();
        result.cuts = cuts;
        match answer {
            None | Some(CutAnswer::Unknown) => break,
            Some(CutAnswer::Unsat) => {
                result.complete = true;
                break;
            }
            Some(CutAnswer::Sat(assignment)) => {
                result.count += 1;
                // Exclude exactly this projection: some projected variable must differ.
                let block: Vec<Lit> = project
                    .iter()
                    .map(|&v| {
                        if assignment.value(v) {
                            v.negative()
                        } else {
                            v.positive()
                        }
                    })
                    .collect();
                oracle.add_clause(&block);
                if !on_solution(&assignment) {
                    break;
                }
            }
        }
    }
    Ok(result)
}

/// The size of `program` as the oracle is given it: rows of an LP file, or the
/// constraints of a MiniZinc file.
pub fn program_size(program: &LinearProgram, kind: OracleKind) -> Size {
    Size {
        variables: program.columns.len(),
        constraints: program.rows.len(),
        unit: match kind {
            OracleKind::MiniZinc => "constraints",
            OracleKind::Embedded | OracleKind::Program => "rows",
        },
    }
}

/// Answers `goal` for `model` with a MILP oracle: one 0-1 program (with an `at_least` row
/// for a decision), re-solved with each round of lazy-constraint cuts as extra rows.
pub fn answer_goal_milp<O: MilpOracle + ?Sized>(
    oracle: &mut O,
    model: &Model,
    goal: Goal,
    control: &Control,
    incumbent: &Incumbent<Assignment>,
) -> Result<RawOutcome<Assignment>, OracleError> {
    let at_least = match goal {
        Goal::AtLeast(k) => Some(k),
        Goal::Maximise => None,
    };
    // The objective counts true literals: whole numbers, at most the model's best possible
    // value (the stated upper bound or the structural one).
    let ceiling = best_possible(model);
    let integral_bound = match goal {
        Goal::Maximise => ceiling.as_ref().map(|&(b, _)| b),
        Goal::AtLeast(_) => None,
    };
    let mut program = LinearProgram::from_model(model, at_least);
    let start = Instant::now();
    let mut cuts = 0;
    if let Some(known) = model.usable_known_solution() {
        let value = model
            .objective
            .as_ref()
            .map_or(0, |o| o.value(&known.assignment));
        incumbent.offer(&known.assignment, value);
        let size = program_size(&program, oracle.kind());
        if let Some(outcome) = settled_by_known(model, goal, value, &ceiling, size) {
            return Ok(outcome);
        }
    }
    loop {
        let size = program_size(&program, oracle.kind());
        let (values, proven) = match oracle.solve(&program, control, integral_bound)? {
            MilpAnswer::Solution(values, proven) => (values, proven),
            MilpAnswer::Infeasible => {
                let question = match goal {
                    Goal::AtLeast(k) => MilpQuestion::AtLeast(k),
                    Goal::Maximise => MilpQuestion::Constraints,
                };
                return Ok(RawOutcome {
                    status: Status::Unsatisfiable,
                    witness: None,
                    bound: at_least.map(|k| k - 1),
                    evidence: Evidence::MilpInfeasible {
                        by: oracle.oracle(),
                        question,
                        cuts,
                    },
                    size,
                });
            }
            MilpAnswer::Stopped => {
                return Ok(RawOutcome {
                    status: Status::Unknown,
                    witness: None,
                    bound: None,
                    evidence: Evidence::MilpStopped {
                        by: oracle.oracle(),
                        stop: control.stop(),
                    },
                    size,
                })
            }
        };
        let assignment = Assignment::new(values);
        let new_cuts = cuts_of(model, &assignment);
        if !new_cuts.is_empty() {
            cuts += new_cuts.len();
            for cut in &new_cuts {
                program.add_clause(cut);
            }
            continue;
        }
        let value = model.objective.as_ref().map_or(0, |o| o.value(&assignment));
        incumbent.offer(&assignment, value);
        let (status, bound, evidence) = match (goal, proven) {
            // Nothing to optimise: any feasible solution answers the question.
            (Goal::Maximise, _) if model.objective.is_none() => (
                Status::Satisfiable,
                None,
                Evidence::FoundNoObjective {
                    by: oracle.oracle(),
                    calls: None,
                    cuts,
                },
            ),
            (Goal::AtLeast(k), _) => (
                Status::Satisfiable,
                None,
                Evidence::FoundAtLeast {
                    by: oracle.oracle(),
                    value,
                    k,
                    calls: None,
                },
            ),
            (Goal::Maximise, true) => (
                Status::Optimal,
                Some(value),
                Evidence::MilpOptimal {
                    by: oracle.oracle(),
                    value,
                    cuts,
                    seconds: start.elapsed().as_secs_f64(),
                },
            ),
            (Goal::Maximise, false) => (
                Status::Feasible,
                None,
                Evidence::MilpUnproven {
                    by: oracle.oracle(),
                    stop: control.stop(),
                },
            ),
        };
        return Ok(RawOutcome {
            status,
            witness: Some(assignment),
            bound,
            evidence,
            size,
        });
    }
}
