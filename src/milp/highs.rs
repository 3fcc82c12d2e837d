//! HiGHS linked in through good_lp's `highs` feature: the same 0-1 program as microlp
//! gets, solved in-process with the deadline as HiGHS's own time limit.

use super::{Comparison, LinearProgram};
use crate::solve::Control;
use good_lp::{
    highs, variable, Expression, ProblemVariables, ResolutionError, Solution, SolutionStatus,
    SolverModel, WithMipGap, WithTimeLimit,
};

/// Solves `program` with HiGHS. Returns the column values and whether optimality was
/// proven, or `None` when infeasible. `integral_bound` is as for
/// [`LinearProgram::solve_microlp`]: a whole-valued objective of at most `u` lets the
/// search stop at a relative gap of 0.9 / (u + 1).
pub fn solve_highs(
    program: &LinearProgram,
    control: &Control,
    integral_bound: Option<usize>,
) -> Result<Option<(Vec<bool>, bool)>, String> {
    let mut vars = ProblemVariables::new();
    let columns: Vec<good_lp::Variable> = program
        .columns
        .iter()
        .map(|_| vars.add(variable().binary()))
        .collect();
    let expression =
        |terms: &[(f64, usize)]| -> Expression { terms.iter().map(|&(c, i)| c * columns[i]).sum() };
    let mut problem = vars.maximise(expression(&program.objective)).using(highs);
    if let Some(remaining) = control.remaining() {
        problem = problem.with_time_limit(remaining.as_secs_f64());
    }
    if let Some(bound) = integral_bound {
        problem = problem
            .with_mip_gap(0.9 / (bound as f32 + 1.0))
            .map_err(|e| format!("highs: {e}"))?;
    }
    for row in &program.rows {
        let lhs = expression(&row.terms);
        problem.add_constraint(match row.comparison {
            Comparison::AtMost => lhs.leq(row.rhs),
            Comparison::AtLeast => lhs.geq(row.rhs),
            Comparison::Equal => lhs.eq(row.rhs),
        });
    }
    match problem.solve() {
        Ok(solution) => {
            let values = columns.iter().map(|&c| solution.value(c) > 0.5).collect();
            let proven = match solution.status() {
                SolutionStatus::Optimal => true,
                SolutionStatus::GapLimit => integral_bound.is_some(),
                SolutionStatus::TimeLimit => false,
            };
            Ok(Some((values, proven)))
        }
        Err(ResolutionError::Infeasible) => Ok(None),
        Err(e) => Err(format!("highs: {e}")),
    }
}
