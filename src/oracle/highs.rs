//! HiGHS linked in (the `highs` cargo feature): the same 0-1 program as microlp gets,
//! solved in-process, with the deadline as HiGHS's own time limit and the stop flag polled
//! through HiGHS's interrupt callbacks, so that Ctrl-C, or a portfolio member that has
//! proved its answer, ends a branch and bound that would otherwise run to its limit.

use super::microlp::EmbeddedMilpError;
use super::MilpAnswer;
use crate::base::Control;
use crate::formats::linear::{Comparison, LinearProgram};
use highs::{HighsModelStatus, HighsSolutionStatus, RowProblem, Sense};
use std::ffi::{c_char, c_int, c_void};
use std::sync::atomic::{AtomicBool, Ordering};

/// The callback types of HiGHS's C API (`highs_c_api.h`) at which it reads the callback's
/// interrupt request: during the simplex, the interior point method and the MIP search.
const INTERRUPT_CALLBACKS: [c_int; 3] = [1, 2, 6];

/// Solves `program` with HiGHS, stopping at `control`'s deadline or when its stop flag is
/// set. `integral_bound` is as for [`super::microlp::solve_microlp`]: a whole-valued
/// objective of at most `u` lets the search stop at a relative gap of 0.9 / (u + 1).
/// A stopped search answers with its incumbent, unproven, or [`MilpAnswer::Stopped`] when
/// it had none.
pub fn solve_highs(
    program: &LinearProgram,
    control: &Control,
    integral_bound: Option<usize>,
) -> Result<MilpAnswer, EmbeddedMilpError> {
    let failed = |what: &str, status: &dyn std::fmt::Debug| EmbeddedMilpError::Failed {
        solver: "highs",
        problem: format!("{what}: {status:?}"),
    };
    let mut problem = RowProblem::default();
    let mut costs = vec![0.0; program.columns.len()];
    for &(coefficient, column) in &program.objective {
        costs[column] += coefficient;
    }
    let columns: Vec<highs::Col> = costs
        .iter()
        .map(|&cost| problem.add_column_with_integrality(cost, 0.0..=1.0, true))
        .collect();
    for row in &program.rows {
        let terms = row.terms.iter().map(|&(c, i)| (columns[i], c));
        match row.comparison {
            Comparison::AtMost => problem.add_row(..=row.rhs, terms),
            Comparison::AtLeast => problem.add_row(row.rhs.., terms),
            Comparison::Equal => problem.add_row(row.rhs..=row.rhs, terms),
        }
    }
    let mut model = problem
        .try_optimise(Sense::Maximise)
        .map_err(|status| failed("the program was refused", &status))?;
    model.make_quiet();
    if let Some(remaining) = control.remaining() {
        model
            .try_set_option("time_limit", remaining.as_secs_f64())
            .map_err(|e| failed("time_limit", &e))?;
    }
    if let Some(bound) = integral_bound {
        model
            .try_set_option("mip_rel_gap", 0.9 / (bound as f64 + 1.0))
            .map_err(|e| failed("mip_rel_gap", &e))?;
    }
    let stop: &AtomicBool = control.stop_flag();
    // SAFETY: the callback reads `stop` through the pointer only while `Highs_run` runs,
    // inside `try_solve` below, and `stop` (borrowed from `control`) outlives that call.
    unsafe {
        let highs = model.as_mut_ptr();
        highs_sys::Highs_setCallback(
            highs,
            Some(interrupt_when_stopped),
            stop as *const AtomicBool as *mut c_void,
        );
        for callback in INTERRUPT_CALLBACKS {
            highs_sys::Highs_startCallback(highs, callback);
        }
    }
    let solved = model
        .try_solve()
        .map_err(|status| failed("the solve failed", &status))?;
    let feasible = solved.primal_solution_status() == HighsSolutionStatus::Feasible;
    let values = || -> Vec<bool> {
        solved
            .get_solution()
            .columns()
            .iter()
            .map(|&v| v > 0.5)
            .collect()
    };
    let status = solved.status();
    Ok(match status {
        HighsModelStatus::Infeasible | HighsModelStatus::UnboundedOrInfeasible => {
            MilpAnswer::Infeasible
        }
        HighsModelStatus::Optimal if feasible => {
            // HiGHS calls a search that reached the relative gap optimal; only the gap
            // puzzlec set from the whole-valued objective proves it.
            let gap = solved.mip_gap();
            let closed = !gap.is_finite() || gap <= 0.0;
            MilpAnswer::Solution(values(), closed || integral_bound.is_some())
        }
        HighsModelStatus::ReachedTimeLimit
        | HighsModelStatus::ReachedInterrupt
        | HighsModelStatus::ReachedIterationLimit
        | HighsModelStatus::ReachedSolutionLimit
        | HighsModelStatus::ReachedMemoryLimit => {
            if feasible {
                MilpAnswer::Solution(values(), false)
            } else {
                MilpAnswer::Stopped
            }
        }
        status => return Err(failed("the search ended", &status)),
    })
}

/// HiGHS's callback: asks it to stop once the flag behind `user` is set.
///
/// # Safety
/// `user` points to a live `AtomicBool` and `data_in`, when not null, to HiGHS's input
/// block for this call; both as [`solve_highs`] arranges.
unsafe extern "C" fn interrupt_when_stopped(
    _callback_type: c_int,
    _message: *const c_char,
    _data_out: *const highs_sys::HighsCallbackDataOut,
    data_in: *mut highs_sys::HighsCallbackDataIn,
    user: *mut c_void,
) {
    let stop = &*(user as *const AtomicBool);
    if !data_in.is_null() && stop.load(Ordering::Relaxed) {
        (*data_in).user_interrupt = 1;
    }
}
