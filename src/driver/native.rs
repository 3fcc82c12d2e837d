//! The native backend: each family handed to its hand-written search.

use super::packing::NativePackingError;
use super::packing_bounds::PackingBounds;
use crate::base::{Control, Evidence, Goal, RawOutcome, Size, Status};
use crate::engines::dissection::{self, Dissection, DissectionSearch};
use crate::puzzle::dissection::DissectionPuzzle;
use crate::puzzle::{Puzzle, Solution};
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};

/// Answers `goal` for `puzzle` with its family's native search. Only the packing searches
/// can refuse (the queens and dissection searches take every instance). `bounds`: a maximum
/// packing's bounds known before the search ([`super::packing_bounds`]).
pub fn solve(
    puzzle: &Puzzle,
    goal: Goal,
    control: &Control,
    bounds: Option<&mut PackingBounds>,
) -> Result<RawOutcome<Solution>, NativePackingError> {
    match puzzle {
        Puzzle::Queens(q) => Ok(
            crate::engines::obstacle_queens::solve(&q.board(), goal, control)
                .map_solution(Solution::Queens),
        ),
        Puzzle::Dissection(d) => {
            Ok(solve_dissection(d, control).map_solution(Solution::Dissection))
        }
        Puzzle::Packing(p) => super::packing::solve(p, goal, control, bounds)
            .map(|r| r.map_solution(Solution::Packing)),
    }
}

/// Runs [`dissection::dissect`] on a model file's puzzle, stopping when `control` says (the search polls
/// a flag, so a watcher thread raises it at the deadline or on Ctrl-C).
pub fn enumerate_puzzle(
    puzzle: &DissectionPuzzle,
    control: &Control,
    on_solution: &mut dyn FnMut(&Dissection) -> bool,
) -> DissectionSearch {
    let cells = puzzle.cells();
    let stop = AtomicBool::new(control.should_stop());
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(AtomicOrdering::Relaxed) {
                if control.should_stop() {
                    stop.store(true, AtomicOrdering::Relaxed);
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        });
        let search = dissection::dissect(&cells, puzzle.parts, puzzle.reflect, on_solution, &stop);
        done.store(true, AtomicOrdering::Relaxed);
        search
    })
}

/// Finds one dissection of `puzzle` (the family has no objective, so every goal asks for
/// any solution): satisfiable with a witness, unsatisfiable after a complete search, or
/// unknown when `control` stopped it first.
pub fn solve_dissection(puzzle: &DissectionPuzzle, control: &Control) -> RawOutcome<Dissection> {
    let mut found = None;
    let search = enumerate_puzzle(puzzle, control, &mut |d| {
        found = Some(d.clone());
        false
    });
    let (status, stop) = match (&found, search.complete) {
        (Some(_), _) => (Status::Satisfiable, None),
        (None, true) => (Status::Unsatisfiable, None),
        (None, false) => (Status::Unknown, Some(control.stop())),
    };
    let evidence = Evidence::Dissection {
        found: found.is_some(),
        stop,
        nodes: search.nodes,
    };
    RawOutcome {
        status,
        witness: found,
        bound: None,
        evidence,
        size: Size::nodes(search.nodes),
    }
}
