//! The varisat backend: the model's CNF loaded once, objective bounds raised by assumptions
//! so that learnt clauses carry over from one bound to the next.

use crate::base::{Control, Goal, Incumbent, RawOutcome, Size, Status};
use crate::encode::amo::AmoEncoding;
use crate::encode::cnf::{encode, CnfEncoding};
use crate::model::{Assignment, Lit, Model};
use varisat::ExtendFormula;

fn to_varisat(lit: Lit) -> varisat::Lit {
    varisat::Lit::from_index(lit.var().index(), !lit.is_negative())
}

/// A loaded varisat solver over a model's encoding.
pub struct SatSession<'a> {
    solver: varisat::Solver<'a>,
    encoding: CnfEncoding,
    /// Number of `solve` calls made.
    pub calls: usize,
    /// Lazy-constraint cuts added so far.
    pub cuts: usize,
}

/// What one call found.
pub enum Answer {
    /// A model that satisfies every constraint, lazy ones included.
    Sat(Assignment),
    /// No model under the assumptions.
    Unsat,
}

impl<'a> SatSession<'a> {
    /// Encodes `model` and loads the clauses.
    pub fn new(model: &Model, amo: AmoEncoding) -> SatSession<'a> {
        let encoding = encode(model, amo);
        let mut solver = varisat::Solver::new();
        for clause in &encoding.cnf.clauses {
            let lits: Vec<varisat::Lit> = clause.iter().map(|&l| to_varisat(l)).collect();
            solver.add_clause(&lits);
        }
        SatSession {
            solver,
            encoding,
            calls: 0,
            cuts: 0,
        }
    }

    /// The encoding in use.
    pub fn encoding(&self) -> &CnfEncoding {
        &self.encoding
    }

    /// Adds a clause over the model's variables (a cut, or a blocking clause).
    pub fn add_clause(&mut self, clause: &[Lit]) {
        let lits: Vec<varisat::Lit> = clause.iter().map(|&l| to_varisat(l)).collect();
        self.solver.add_clause(&lits);
        self.encoding.cnf.clauses.push(clause.to_vec());
    }

    /// Solves under `assumptions`, adding cuts from the model's lazy constraints until a
    /// model satisfies them all.
    pub fn solve_under(&mut self, model: &Model, assumptions: &[Lit]) -> Answer {
        let assumptions: Vec<varisat::Lit> = assumptions.iter().map(|&l| to_varisat(l)).collect();
        loop {
            self.solver.assume(&assumptions);
            self.calls += 1;
            // varisat only reports an error for proof output, which this session never
            // asks for; treat one as the bug it would be.
            let sat = self
                .solver
                .solve()
                .expect("varisat failed without proof output");
            if !sat {
                return Answer::Unsat;
            }
            let values = self.solver.model().expect("a satisfiable call has a model");
            let mut assignment = vec![false; self.encoding.model_vars];
            for lit in values {
                if lit.index() < assignment.len() {
                    assignment[lit.index()] = lit.is_positive();
                }
            }
            let assignment = Assignment::new(assignment);
            let cuts: Vec<Vec<Lit>> = model
                .lazy
                .iter()
                .flat_map(|l| l.cuts(&assignment))
                .collect();
            if cuts.is_empty() {
                return Answer::Sat(assignment);
            }
            for cut in cuts {
                self.cuts += 1;
                self.add_clause(&cut);
            }
        }
    }

    fn size(&self) -> Size {
        Size {
            variables: self.encoding.cnf.num_vars,
            constraints: self.encoding.cnf.clauses.len(),
            unit: "clauses",
        }
    }
}

/// Answers `goal` for `model` with varisat. For [`Goal::Maximise`] it finds a solution,
/// then asks for one more than that solution's value until refuted: optimal means a
/// witness with k and "at least k + 1" refuted (or k equal to the structural bound).
pub fn solve(
    model: &Model,
    goal: Goal,
    control: &Control,
    incumbent: &Incumbent<Assignment>,
) -> RawOutcome<Assignment> {
    let mut session = SatSession::new(model, AmoEncoding::Auto);
    let objective = model.objective.as_ref();
    let structural_bound = objective.map(|o| o.trivial_bound());
    let mut best: Option<(Assignment, usize)> = None;
    // The bound to ask for next.
    let mut k = match goal {
        Goal::AtLeast(k) => k,
        Goal::Maximise => 0,
    };
    let counted = session.encoding().objective_encoding.clone();
    loop {
        if control.should_stop() {
            let evidence = format!("{}; varisat had not finished", control.reason());
            let status = if best.is_some() {
                Status::Feasible
            } else {
                Status::Unknown
            };
            return RawOutcome {
                status,
                witness: best.map(|(a, _)| a),
                bound: None,
                evidence,
                size: session.size(),
            };
        }
        let assumption = match session.encoding().at_least(k) {
            Ok(lit) => lit,
            Err(impossible) => {
                // More than the counter's inputs: refuted by counting alone.
                let evidence = format!(
                    "at least {k} is impossible: the objective has only {} at-most-one groups",
                    impossible.inputs
                );
                return refuted(goal, best, k, evidence, session.size());
            }
        };
        let assumptions: Vec<Lit> = assumption.into_iter().collect();
        match session.solve_under(model, &assumptions) {
            Answer::Sat(assignment) => {
                let value = objective.map_or(0, |o| o.value(&assignment));
                incumbent.offer(&assignment, value);
                if let Goal::AtLeast(target) = goal {
                    return RawOutcome {
                        status: Status::Satisfiable,
                        witness: Some(assignment),
                        bound: None,
                        evidence: format!(
                            "varisat found a solution with {value} >= {target} ({} calls)",
                            session.calls
                        ),
                        size: session.size(),
                    };
                }
                best = Some((assignment, value));
                if objective.is_none() {
                    // Nothing to optimise: any solution answers the question.
                    return RawOutcome {
                        status: Status::Satisfiable,
                        bound: None,
                        witness: best.map(|(a, _)| a),
                        evidence: format!(
                            "varisat found a solution; the model has no objective ({} calls, {} cuts)",
                            session.calls, session.cuts
                        ),
                        size: session.size(),
                    };
                }
                if Some(value) == structural_bound {
                    let evidence = match structural_bound {
                        Some(b) => format!(
                            "varisat found {value}, which equals the structural bound ({b} at-most-one groups)"
                        ),
                        None => "varisat found a solution; the model has no objective".into(),
                    };
                    return RawOutcome {
                        status: Status::Optimal,
                        bound: objective.map(|_| value),
                        witness: best.map(|(a, _)| a),
                        evidence,
                        size: session.size(),
                    };
                }
                k = value + 1;
            }
            Answer::Unsat => {
                let evidence = format!(
                    "varisat refuted \"at least {k}\" ({counted}; {} calls, {} cuts)",
                    session.calls, session.cuts
                );
                return refuted(goal, best, k, evidence, session.size());
            }
        }
    }
}

/// The outcome once "at least k" is refuted: optimal with the best so far (which has
/// k - 1), or a "no" to the decision question.
pub(crate) fn refuted(
    goal: Goal,
    best: Option<(Assignment, usize)>,
    k: usize,
    evidence: String,
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
