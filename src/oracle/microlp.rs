//! The embedded MILP oracle: a [`LinearProgram`] solved by microlp (pure Rust) through
//! good_lp; lazy-constraint cuts are added as rows and the program re-solved until none is
//! violated. HiGHS, linked in with the `highs` feature, has its own module
//! (`oracle::highs`).

use super::{MilpAnswer, MilpOracle, OracleError};
use crate::base::evidence::OracleKind;
use crate::base::Control;
use crate::formats::linear::{Comparison, LinearProgram};
use good_lp::solvers::MipGapError;
use good_lp::{
    microlp, variable, Expression, ProblemVariables, ResolutionError, Solution, SolutionStatus,
    SolverModel, WithMipGap, WithTimeLimit,
};

/// Why an embedded good_lp solver (microlp, HiGHS) gave no answer; the message starts with
/// the solver's name.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EmbeddedMilpError {
    /// The solver refused the relative MIP gap puzzlec asked for.
    #[error("{solver}: {error}")]
    MipGap {
        /// `microlp` or `highs`.
        solver: &'static str,
        /// good_lp's error.
        #[source]
        error: MipGapError,
    },
    /// The solver failed other than by finding the program infeasible.
    #[error("{solver}: {error}")]
    Resolution {
        /// `microlp` or `highs`.
        solver: &'static str,
        /// good_lp's error.
        #[source]
        error: ResolutionError,
    },
    /// A solver called directly (HiGHS through its own bindings) refused the program or
    /// ended its search other than by an answer, a proof of infeasibility or a limit.
    #[error("{solver}: {problem}")]
    Failed {
        /// `highs`.
        solver: &'static str,
        /// What it said.
        problem: String,
    },
}

/// Solves with microlp, stopping at `control`'s deadline. Returns the column values and
/// whether optimality was proven, or `None` when infeasible.
///
/// With `integral_bound = Some(u)` the caller promises that the objective takes whole
/// values no larger than `u`. Branch and bound may then stop once its LP bound is within
/// a relative gap of 0.9 / (u + 1) of the incumbent v: the bound is below v + 1, so no
/// whole value beats v, which proves v optimal without closing the fractional gap.
pub fn solve_microlp(
    program: &LinearProgram,
    control: &Control,
    integral_bound: Option<usize>,
) -> Result<Option<(Vec<bool>, bool)>, EmbeddedMilpError> {
    let mut vars = ProblemVariables::new();
    let columns: Vec<good_lp::Variable> = program
        .columns
        .iter()
        .map(|_| vars.add(variable().binary()))
        .collect();
    let mut problem = vars
        .maximise(expression(&program.objective, &columns))
        .using(microlp);
    if let Some(remaining) = control.remaining() {
        problem = problem.with_time_limit(remaining.as_secs_f64());
    }
    if let Some(bound) = integral_bound {
        problem = problem
            .with_mip_gap(0.9 / (bound as f32 + 1.0))
            .map_err(|error| EmbeddedMilpError::MipGap {
                solver: "microlp",
                error,
            })?;
    }
    add_rows(&mut problem, program, &columns);
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
        Err(error) => Err(EmbeddedMilpError::Resolution {
            solver: "microlp",
            error,
        }),
    }
}

/// microlp through good_lp as a [`MilpOracle`].
pub struct Microlp;

impl MilpOracle for Microlp {
    fn name(&self) -> String {
        "microlp".into()
    }

    fn solve(
        &mut self,
        program: &LinearProgram,
        control: &Control,
        integral_bound: Option<usize>,
    ) -> Result<MilpAnswer, OracleError> {
        Ok(match solve_microlp(program, control, integral_bound)? {
            None => MilpAnswer::Infeasible,
            Some((values, proven)) => MilpAnswer::Solution(values, proven),
        })
    }

    fn kind(&self) -> OracleKind {
        OracleKind::Embedded
    }
}

/// The optimum of `program`'s LP relaxation (every column in `[0, 1]` instead of binary),
/// solved with microlp's simplex: an upper bound on the 0-1 program's optimum, up to the
/// simplex's floating-point error. `None` when the relaxation is infeasible (so is the
/// 0-1 program) or `control`'s deadline passed first (a simplex stopped early has no
/// bound to give).
pub fn lp_relaxation(
    program: &LinearProgram,
    control: &Control,
) -> Result<Option<f64>, EmbeddedMilpError> {
    let mut vars = ProblemVariables::new();
    let columns: Vec<good_lp::Variable> = program
        .columns
        .iter()
        .map(|_| vars.add(variable().min(0.0).max(1.0)))
        .collect();
    let objective = expression(&program.objective, &columns);
    let mut problem = vars.maximise(objective.clone()).using(microlp);
    if let Some(remaining) = control.remaining() {
        problem = problem.with_time_limit(remaining.as_secs_f64());
    }
    add_rows(&mut problem, program, &columns);
    match problem.solve() {
        Ok(solution) if matches!(solution.status(), SolutionStatus::Optimal) => {
            Ok(Some(solution.eval(&objective) + program.objective_offset))
        }
        Ok(_) => Ok(None),
        Err(ResolutionError::Infeasible) => Ok(None),
        Err(error) => Err(EmbeddedMilpError::Resolution {
            solver: "microlp",
            error,
        }),
    }
}

/// The dual of a packing's LP relaxation without piece counts: weights `y_c` in `[0, 1]`,
/// one per cell of `0..cells`, of least total such that the cells of every placement (each
/// a list of cells in `placements`) weigh at least 1 together. By LP duality the least
/// total is the relaxation's optimum, and any such weights bound every packing: each
/// piece takes cells of weight 1 or more, and no cell is taken twice. `None` when the
/// simplex gave no optimum within `control`'s deadline.
pub fn packing_dual(
    cells: usize,
    placements: &[&[usize]],
    control: &Control,
) -> Result<Option<Vec<f64>>, EmbeddedMilpError> {
    let mut vars = ProblemVariables::new();
    let weights: Vec<good_lp::Variable> = (0..cells)
        .map(|_| vars.add(variable().min(0.0).max(1.0)))
        .collect();
    let total: Expression = weights.iter().sum();
    let mut problem = vars.minimise(total).using(microlp);
    if let Some(remaining) = control.remaining() {
        problem = problem.with_time_limit(remaining.as_secs_f64());
    }
    for cells in placements {
        let weight: Expression = cells.iter().map(|&c| weights[c]).sum();
        problem.add_constraint(weight.geq(1.0));
    }
    match problem.solve() {
        Ok(solution) if matches!(solution.status(), SolutionStatus::Optimal) => {
            Ok(Some(weights.iter().map(|&w| solution.value(w)).collect()))
        }
        Ok(_) | Err(ResolutionError::Infeasible) => Ok(None),
        Err(error) => Err(EmbeddedMilpError::Resolution {
            solver: "microlp",
            error,
        }),
    }
}

/// The linear expression of `terms` (coefficient, column) over the program's `columns`.
fn expression(terms: &[(f64, usize)], columns: &[good_lp::Variable]) -> Expression {
    terms.iter().map(|&(c, i)| c * columns[i]).sum()
}

/// Adds the program's rows to a good_lp model over its `columns`.
fn add_rows<M: SolverModel>(
    problem: &mut M,
    program: &LinearProgram,
    columns: &[good_lp::Variable],
) {
    for row in &program.rows {
        let lhs = expression(&row.terms, columns);
        problem.add_constraint(match row.comparison {
            Comparison::AtMost => lhs.leq(row.rhs),
            Comparison::AtLeast => lhs.geq(row.rhs),
            Comparison::Equal => lhs.eq(row.rhs),
        });
    }
}
