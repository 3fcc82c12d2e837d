//! The native backend: each family handed to its hand-written search, through
//! [`NativeFamily`] (one file per family here).

mod chess;

pub(crate) use chess::instance as chess_instance;
mod dissection;
mod packing;
mod queens;

use super::packing::NativePackingError;
use super::packing_bounds::PackingBounds;
use super::Backend;
use crate::base::{Control, Evidence, Goal, RawOutcome, Size, Status};
use crate::engines::dissection::{dissect, Dissection, DissectionSearch};
use crate::puzzle::dissection::DissectionPuzzle;
use crate::puzzle::{each_family, Family, Puzzle, Solution};
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};

/// A family's answers in the driver: the backend it prefers and its native search. Each
/// family implements it once, in this folder's file of its name; [`solve`] and
/// [`Backend::preferred_for`] dispatch over the registration list.
pub trait NativeFamily: Family {
    /// The backend `solve` uses for the family when none is named: the one measured
    /// fastest on it.
    const PREFERRED: Backend;

    /// Answers `goal` with the family's native search. `bounds`: a maximum packing's
    /// bounds known before the search ([`super::packing_bounds`]), ignored by the others.
    fn solve_native(
        &self,
        goal: Goal,
        control: &Control,
        bounds: Option<&mut PackingBounds>,
    ) -> Result<RawOutcome<Self::Solution>, NativePackingError>;
}

/// The backend `puzzle`'s family prefers ([`NativeFamily::PREFERRED`]).
pub(super) fn preferred(puzzle: &Puzzle) -> Backend {
    fn of<F: NativeFamily>(_: &F) -> Backend {
        F::PREFERRED
    }
    each_family!(puzzle, p => of(p))
}

/// Answers `goal` for `puzzle` with its family's native search. Only the packing searches
/// can refuse (the queens and dissection searches take every instance). `bounds`: a maximum
/// packing's bounds known before the search ([`super::packing_bounds`]).
pub fn solve(
    puzzle: &Puzzle,
    goal: Goal,
    control: &Control,
    bounds: Option<&mut PackingBounds>,
) -> Result<RawOutcome<Solution>, NativePackingError> {
    each_family!(puzzle, p => p
        .solve_native(goal, control, bounds)
        .map(|r| r.map_solution(Solution::from)))
}

/// Runs [`dissect`] on a model file's puzzle, stopping when `control` says (the search polls
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
        let search = dissect(&cells, puzzle.parts, puzzle.reflect, on_solution, &stop);
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
