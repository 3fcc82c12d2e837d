//! Symmetry classes of placements on a board (queens, chess pieces): the symmetries that
//! map a board onto itself, which member of a class is counted for it, and what a stopped
//! `--unique` count keeps.

use super::CountOutcome;
use crate::base::evidence::CountEvidence;
use crate::geometry::board::Board;
use crate::geometry::isometry::RectSymmetry;

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
/// solutions, because the rules only ask about what pieces attack along free cells.
pub(super) struct Symmetries {
    group: Vec<RectSymmetry>,
    width: usize,
    height: usize,
}

impl Symmetries {
    pub(super) fn of(board: &Board) -> Symmetries {
        Symmetries {
            group: board.symmetries(),
            width: board.width,
            height: board.height,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.group.len()
    }

    /// The size of the class of the placement on `squares` ((x, y), sorted row-major) if it
    /// is the class's canonical member (the least of its images as a sorted list of
    /// squares), `None` otherwise.
    pub(super) fn canonical_class(&self, squares: &[(usize, usize)]) -> Option<usize> {
        let (w, h) = (self.width, self.height);
        let own: Vec<(usize, usize)> = squares.iter().map(|&(x, y)| (y, x)).collect();
        let mut images: Vec<Vec<(usize, usize)>> = Vec::with_capacity(self.group.len());
        for &symmetry in &self.group {
            let mut image: Vec<(usize, usize)> = squares
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
