//! Projected enumeration with varisat: every distinct assignment of chosen variables once,
//! each found model excluded by a blocking clause over those variables.

use super::varisat::{Answer, SatSession};
use crate::base::Control;
use crate::encode::amo::AmoEncoding;
use crate::model::{Assignment, Lit, Model, Var};

/// What an enumeration found.
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

/// Calls `on_solution` with one model of `model` (lazy constraints included) for each
/// distinct assignment of `project`, until it returns false, `control` stops the run, or
/// the solver proves no other exists. Two models that agree on `project` count once.
pub fn enumerate(
    model: &Model,
    project: &[Var],
    control: &Control,
    on_solution: &mut dyn FnMut(&Assignment) -> bool,
) -> Enumeration {
    let mut session = SatSession::new(model, AmoEncoding::Auto);
    let mut result = Enumeration::default();
    loop {
        if control.should_stop() {
            break;
        }
        let answer = session.solve_under(model, &[]);
        result.calls = session.calls;
        result.cuts = session.cuts;
        match answer {
            Answer::Unsat => {
                result.complete = true;
                break;
            }
            Answer::Sat(assignment) => {
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
                session.add_clause(&block);
                if !on_solution(&assignment) {
                    break;
                }
            }
        }
    }
    result
}
