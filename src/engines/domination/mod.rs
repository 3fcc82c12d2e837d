//! Chess domination and independence on boards with obstacles, for one kind of piece: the
//! fewest pieces that guard every free square ([`Question::Dominate`]), the fewest that do
//! so without attacking each other ([`Question::IndependentDominate`]), and the most that
//! stand without attacking each other ([`Question::Independent`]). A square is guarded when
//! it holds a piece or a piece attacks it ([`attack_table`]).
//!
//! [`solve`] finds an optimum and proves it by branch and bound over bitsets of the free
//! squares ([`search`] minimises, [`independent`] maximises); [`count`] counts the optimal
//! placements, by symmetry class if asked, split into shards; [`estimate`] estimates the
//! size of a search before it is run.

mod bitset;
mod bounds;
mod count;
mod decide;
mod estimate;
mod independent;
mod local;
mod random;
mod search;
mod split;
mod symmetry;
#[cfg(test)]
mod tests;

use crate::base::Control;
use crate::geometry::board::Board;
use crate::geometry::chess::{attack_table, Piece};
use bitset::Neighbourhoods;
use std::collections::BTreeMap;
use symmetry::Symmetries;

pub use count::{count, Placements};
pub use estimate::{estimate, Estimate};

/// What is asked of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Question {
    /// The fewest pieces such that every free square holds a piece or is attacked by one.
    Dominate,
    /// The fewest pieces, none attacking another, such that every free square is guarded.
    IndependentDominate,
    /// The most pieces, none attacking another.
    Independent,
}

impl Question {
    /// Whether the question asks for the fewest pieces (else the most).
    pub fn minimises(self) -> bool {
        !matches!(self, Question::Independent)
    }

    /// Whether no piece may attack another.
    pub fn independent(self) -> bool {
        !matches!(self, Question::Dominate)
    }
}

/// A question about one board and piece, with what every search of it needs precomputed:
/// the free squares numbered in row-major order, each one's closed neighbourhood as a
/// bitset, and the board's symmetries as maps of those numbers.
#[derive(Clone, Debug)]
pub struct Instance {
    question: Question,
    /// Row-major cell of each free square.
    cells: Vec<usize>,
    near: Neighbourhoods,
    symmetries: Symmetries,
    known_bound: Option<usize>,
}

impl Instance {
    /// The question `question` about `piece` on `board`.
    pub fn new(board: &Board, piece: Piece, question: Question) -> Instance {
        let cells: Vec<usize> = (0..board.free.len()).filter(|&c| board.free[c]).collect();
        let mut index = vec![usize::MAX; board.free.len()];
        for (i, &c) in cells.iter().enumerate() {
            index[c] = i;
        }
        let table = attack_table(board, piece);
        let attacks: Vec<Vec<usize>> = cells
            .iter()
            .map(|&c| table[c].iter().map(|&a| index[a]).collect())
            .collect();
        Instance {
            question,
            near: Neighbourhoods::new(&attacks),
            symmetries: Symmetries::new(&board.symmetry_maps(), &cells, &index),
            cells,
            known_bound: None,
        }
    }

    /// The same question with a bound proved elsewhere (a lower bound on the fewest when
    /// minimising, an upper bound on the most when maximising): the search stops as soon as
    /// a placement meets it, and counts it as proved. Some bounds are easy to argue and
    /// hard to search, such as "every row or every column holds a rook".
    pub fn with_known_bound(mut self, bound: usize) -> Instance {
        self.known_bound = Some(bound);
        self
    }

    /// What is asked.
    pub fn question(&self) -> Question {
        self.question
    }

    /// How many free squares the board has.
    pub fn free_squares(&self) -> usize {
        self.cells.len()
    }

    /// Row-major cells of free-square indices, sorted.
    fn to_cells(&self, placement: &[usize]) -> Vec<usize> {
        let mut cells: Vec<usize> = placement.iter().map(|&i| self.cells[i]).collect();
        cells.sort_unstable();
        cells
    }
}

/// What [`solve`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The best placement found, as sorted row-major cells.
    pub best: Option<Vec<usize>>,
    /// Whether the answer is settled. With a placement: nothing better exists (when
    /// minimising no placement of one piece fewer, when maximising none of one more).
    /// Without one (under a limit): no placement meets the limit.
    pub proven: bool,
    /// The proved bound: a lower bound on the fewest pieces when minimising, an upper bound
    /// on the most when maximising.
    pub bound: usize,
    /// Search nodes visited.
    pub nodes: u64,
    /// Whether the control stopped the search before it settled the answer.
    pub stopped: bool,
}

/// What [`count`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CountAnswer {
    /// Placements of the requested number of pieces meeting the question's rules (this
    /// shard's part).
    pub count: u64,
    /// With `unique`: classes under the board's symmetries, by class size (each class
    /// counted in the shard that holds its representative).
    pub classes: BTreeMap<usize, u64>,
    /// Whether every subproblem of the shard finished.
    pub complete: bool,
    /// Search nodes visited.
    pub nodes: u64,
    /// Subproblems done, and how many the shard holds.
    pub subproblems: (u64, u64),
}

/// Answers `instance`: with `limit`, whether a placement of at most `limit` pieces
/// (minimising) or at least `limit` (maximising) exists, stopping at the first found;
/// without, the optimum, proved.
pub fn solve(instance: &Instance, limit: Option<usize>, control: &Control) -> Answer {
    let mut answer = if instance.question.minimises() {
        decide::minimise(instance, limit, control)
    } else {
        independent::maximise(instance, limit, control)
    };
    answer.best = answer.best.map(|p| instance.to_cells(&p));
    answer
}
