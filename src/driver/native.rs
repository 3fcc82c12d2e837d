//! The native backend: each family handed to its hand-written search.

use crate::base::{Control, Goal, RawOutcome};
use crate::puzzle::{Puzzle, Solution};

/// Answers `goal` for `puzzle` with its family's native search.
pub fn solve(
    puzzle: &Puzzle,
    goal: Goal,
    control: &Control,
) -> Result<RawOutcome<Solution>, String> {
    match puzzle {
        Puzzle::Queens(q) => {
            Ok(crate::engines::obstacle_queens::solve(q, goal, control)
                .map_solution(Solution::Queens))
        }
        Puzzle::Dissection(d) => {
            let raw = crate::engines::dissection::solve(d, control);
            Ok(crate::base::RawOutcome {
                status: raw.status,
                witness: raw.witness.map(Solution::Dissection),
                bound: raw.bound,
                evidence: raw.evidence,
                size: raw.size,
            })
        }
        Puzzle::Packing(p) => {
            super::packing::solve(p, goal, control).map(|r| r.map_solution(Solution::Packing))
        }
    }
}
