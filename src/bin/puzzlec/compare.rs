//! `puzzlec compare MODEL`: every backend and every external solver on this machine on
//! the same question, and whether their answers agree.

use crate::output::{check_goal, exit, goal, limit, print_json, print_stdout, Failure};
use puzzlec::base::Control;
use puzzlec::driver::external::ExternalSolver;
use puzzlec::driver::{self, Backend};
use puzzlec::puzzle::load_model_file;
use puzzlec::report::json::{CompareReport, OutcomeRow};
use puzzlec::report::text;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Runs every backend on `model` and prints the comparison; exit 1 on a disagreement.
pub fn run(
    model: &Path,
    at_least: Option<usize>,
    time_limit: Option<f64>,
    json: bool,
    stop: Arc<AtomicBool>,
) -> Result<u8, Failure> {
    let puzzle = load_model_file(model)?;
    let goal = goal(at_least);
    check_goal(&puzzle, goal)?;
    let mut outcomes = Vec::new();
    for backend in Backend::ALL {
        let control = Control::new(stop.clone(), limit(time_limit)?);
        outcomes.push(driver::solve(&puzzle, backend, goal, &control)?);
    }
    // External solvers found on this machine, as extra rows.
    for solver in ExternalSolver::available() {
        let control = Control::new(stop.clone(), limit(time_limit)?);
        outcomes.push(driver::solve_external(&puzzle, &solver, goal, &control)?);
    }
    let disagreement = driver::disagreement(&outcomes);
    if json {
        print_json(CompareReport {
            model: model.display().to_string(),
            agree: disagreement.is_none(),
            backends: outcomes.iter().map(OutcomeRow::of).collect(),
        });
    } else {
        print_stdout(&text::comparison_table(&outcomes, disagreement.is_none()));
    }
    match disagreement {
        Some(message) => Err(Failure::Internal(format!("backends disagree: {message}"))),
        None => Ok(exit::OK),
    }
}
