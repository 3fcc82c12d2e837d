//! HiGHS linked in through good_lp's `highs` feature: the same 0-1 program as microlp
//! gets, solved in-process with the deadline as HiGHS's own time limit.

use super::microlp::EmbeddedMilpError;
use crate::base::Control;
use crate::encode::lp::LinearProgram;

/// Solves `program` with HiGHS. Returns the column values and whether optimality was
/// proven, or `None` when infeasible. `integral_bound` is as for
/// [`super::microlp::solve_microlp`]: a whole-valued objective of at most `u` lets the
/// search stop at a relative gap of 0.9 / (u + 1).
pub fn solve_highs(
    program: &LinearProgram,
    control: &Control,
    integral_bound: Option<usize>,
) -> Result<Option<(Vec<bool>, bool)>, EmbeddedMilpError> {
    super::microlp::solve_using(program, good_lp::highs, "highs", control, integral_bound)
}
