//! Symmetry classes of queens solutions: the symmetries that map a board onto itself,
//! which member of a class is counted for it, and what a stopped `--unique` count keeps.

use super::CountOutcome;
use crate::base::evidence::CountEvidence;
use crate::geometry::isometry::RectSymmetry;
use crate::puzzle::queens::{Queens, QueensSolution};

/// A stopped `--unique` count keeps only what is known consistently: the classes whose
/// least member was found (each a whole class, its members solutions by symmetry), and as
/// the count of solutions the members of those classes. The solutions seen one by one
/// are a different lower bound (some of their classes' least members were not reached
/// yet); mixing the two gave "692 classes of size 2; 1291 solutions".
pub(super) fn consistent_when_stopped(mut outcome: CountOutcome) -> CountOutcome {
    if outcome.complete || outcome.unique_count.is_none() || outcome.classes.is_empty() {
        return outcome;
    }
    let members: u64 = outcome
        .classes
        .iter()
        .map(|(&size, &n)| size as u64 * n)
        .sum();
    let classes: u64 = outcome.classes.values().sum();
    if members != outcome.count {
        outcome.evidence = CountEvidence::ClassesKept {
            counted: Box::new(outcome.evidence),
            seen: outcome.count,
            members,
            classes,
        };
    }
    outcome.count = members;
    outcome.unique_count = Some(classes);
    outcome
}

/// The symmetries that map a board, obstacles included, onto itself: they map solutions to
/// solutions, because the rules only ask about lines of free cells.
pub(super) struct Symmetries(Vec<RectSymmetry>);

impl Symmetries {
    pub(super) fn of(board: &Queens) -> Symmetries {
        let (w, h) = (board.width, board.height);
        let keeps_board = |s: RectSymmetry| {
            (0..h).all(|y| {
                (0..w).all(|x| {
                    let (mx, my) = s.map((x, y), w, h);
                    board.free[y * w + x] == board.free[my * w + mx]
                })
            })
        };
        Symmetries(
            RectSymmetry::of_rectangle(w, h)
                .filter(|&s| keeps_board(s))
                .collect(),
        )
    }

    pub(super) fn len(&self) -> usize {
        self.0.len()
    }

    /// The size of the solution's class if it is the class's canonical member (the least of
    /// its images as a sorted list of cells), `None` otherwise.
    pub(super) fn canonical_class(
        &self,
        board: &Queens,
        solution: &QueensSolution,
    ) -> Option<usize> {
        let (w, h) = (board.width, board.height);
        let own: Vec<(usize, usize)> = solution.queens.iter().map(|&(x, y)| (y, x)).collect();
        let mut images: Vec<Vec<(usize, usize)>> = Vec::with_capacity(self.0.len());
        for &symmetry in &self.0 {
            let mut image: Vec<(usize, usize)> = solution
                .queens
                .iter()
                .map(|&q| {
                    let (x, y) = symmetry.map(q, w, h);
                    (y, x)
                })
                .collect();
            image.sort_unstable();
            if image < own {
                return None;
            }
            images.push(image);
        }
        images.sort_unstable();
        images.dedup();
        Some(images.len())
    }
}
