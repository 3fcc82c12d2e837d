//! Native searches: hand-written, independent of the model and its encodings, used as
//! cross-checks of the solver backends and often as the fastest path.

pub mod dissection;
pub mod exact_cover;
pub mod nqueens;
pub mod packing;
pub mod packing_driver;
pub mod packing_lns;
pub mod queens;
pub mod tiling64;

use crate::puzzle::{Puzzle, Solution};
use crate::solve::{Control, Goal, RawOutcome};

/// Answers `goal` for `puzzle` with its family's native search.
pub fn solve(
    puzzle: &Puzzle,
    goal: Goal,
    control: &Control,
) -> Result<RawOutcome<Solution>, String> {
    match puzzle {
        Puzzle::Queens(q) => Ok(queens::solve(q, goal, control).map_solution(Solution::Queens)),
        Puzzle::Dissection(d) => {
            let raw = dissection::solve(d, control);
            Ok(crate::solve::RawOutcome {
                status: raw.status,
                witness: raw.witness.map(Solution::Dissection),
                bound: raw.bound,
                evidence: raw.evidence,
                size: raw.size,
            })
        }
        Puzzle::Packing(p) => {
            packing_driver::solve(p, goal, control).map(|r| r.map_solution(Solution::Packing))
        }
    }
}
