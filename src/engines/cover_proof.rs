//! A DRAT refutation of "an exact cover other than the listed ones", written by a search.
//!
//! Some counts are beyond CDCL solvers: the 9356 pentomino tilings of 6 x 10 with every one
//! blocked is a formula varisat does not refute in ten minutes and 9.8 GB. A search covers
//! its whole tree in seconds, and that tree *is* a clausal proof (a large one: 3.2 million
//! lemmas for 6 x 10, which drat-trim verifies; see `docs/certificates.md` for the
//! figures). The search is Knuth's exact-cover search: it branches on the item (an open
//! cell, or a piece used exactly once) with the fewest options still possible, over those
//! options; a node reached by the chosen options `p1 .. pk` learns, once all its children
//! are done, the lemma `-p1 .. -pk` ("not all of these"). That lemma is RUP in the CNF of
//! the cover: assuming `p1 .. pk` true, every option of the branching item is false by unit
//! propagation, either because it overlaps a chosen option (the at-most-one of a shared
//! cell), or its piece is used up (the piece's at-most), or its child's lemma
//! `-p1 .. -pk -q` is now unit; so the item's at-least-one clause is falsified. At a leaf:
//!
//! * a complete cover is a listed solution, whose blocking clause is exactly `-p1 .. -pk`
//!   (a cover not in the list is an error: the list is incomplete);
//! * an item with no possible option left is a conflict by unit propagation alone.
//!
//! A node whose item has one possible option (a forced move) needs no lemma from its child:
//! unit propagation makes that option true from the node's own path, and the child's
//! children's lemmas do the rest; so children of forced moves write none, which shortens the
//! proof by the forced chains. The root learns the empty clause. Each child's lemma is
//! deleted once its parent's is written, so the checker's active set stays near the path's.
//!
//! Nothing here is trusted: the proof is checked by a DRAT checker against the CNF that the
//! certificate holds, so a wrong lemma is a rejected proof, never a wrong count.

use crate::base::Control;
use std::collections::HashSet;
use std::fmt::Write as _;

/// The most grid cells the search handles (its board is one `u128`).
pub const MAX_CELLS: usize = 128;

/// The exact cover whose refutation is written: cells of a `width x height` grid, the open
/// ones to be covered exactly once, by options (placements) each of some piece.
pub struct CoverProblem<'a> {
    /// Grid width (cells are numbered `y * width + x`).
    pub width: usize,
    /// Grid height.
    pub height: usize,
    /// Which cells must be covered; the others are blocked (no option covers them).
    pub open: &'a [bool],
    /// Each option's cells.
    pub options: &'a [Vec<usize>],
    /// Each option's piece.
    pub piece: &'a [usize],
    /// Per piece: the most options of it a cover may use (`None`: unlimited).
    pub piece_max: &'a [Option<usize>],
    /// Per piece: the fewest options of it a cover must use.
    pub piece_min: &'a [usize],
    /// Each option's DIMACS variable in the CNF the proof refutes.
    pub var: &'a [i32],
}

/// What the written proof holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CoverProofStats {
    /// Search nodes (at most one lemma each; the root's is the empty clause).
    pub nodes: u64,
    /// Complete covers met (each a listed solution).
    pub covers: u64,
}

/// Why no proof was written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CoverProofError {
    /// The search is for grids of at most [`MAX_CELLS`] cells.
    #[error(
        "the proof-writing search handles grids of at most {MAX_CELLS} cells; this one has {0}"
    )]
    TooLarge(usize),
    /// The search met a cover that is not in the list: the list is incomplete.
    #[error("the search found a cover that is not listed (options {0:?})")]
    Unlisted(Vec<usize>),
    /// A time limit or Ctrl-C stopped the search.
    #[error("stopped")]
    Stopped,
}

/// The search's state.
struct Search<'a, 'p> {
    problem: &'p CoverProblem<'a>,
    /// Each option's cells as a mask.
    masks: Vec<u128>,
    open: u128,
    /// Pieces that are items (used exactly once): an at-least-one clause to branch on.
    piece_is_item: Vec<bool>,
    used: Vec<usize>,
    path: Vec<usize>,
    /// Per cell, then per piece: possible options at the current node (scratch).
    counts: Vec<u32>,
    listed: &'p HashSet<Vec<usize>>,
    control: &'p Control,
    stats: CoverProofStats,
    out: String,
}

/// Writes into `out` a text DRAT refutation of the CNF of `problem` (each open cell exactly
/// once, each piece within its limits) with every cover in `listed` (sorted option indices)
/// blocked by the clause of its negated options. See the module docs for why it is valid;
/// the caller has it checked.
pub fn write_cover_refutation(
    problem: &CoverProblem<'_>,
    listed: &HashSet<Vec<usize>>,
    control: &Control,
    out: &mut String,
) -> Result<CoverProofStats, CoverProofError> {
    let cells = problem.width * problem.height;
    if cells > MAX_CELLS {
        return Err(CoverProofError::TooLarge(cells));
    }
    let open = (0..cells)
        .filter(|&c| problem.open[c])
        .fold(0u128, |m, c| m | 1u128 << c);
    let masks: Vec<u128> = problem
        .options
        .iter()
        .map(|cells| cells.iter().fold(0u128, |m, &c| m | 1u128 << c))
        .collect();
    // Options that need a blocked cell are never possible.
    let possible: Vec<usize> = (0..masks.len())
        .filter(|&i| masks[i] & !open == 0)
        .collect();
    let pieces = problem.piece_max.len();
    let mut search = Search {
        problem,
        piece_is_item: (0..pieces)
            .map(|p| problem.piece_min[p] == 1 && problem.piece_max[p] == Some(1))
            .collect(),
        masks,
        open,
        used: vec![0; pieces],
        path: Vec::new(),
        counts: vec![0; cells + pieces],
        listed,
        control,
        stats: CoverProofStats::default(),
        out: std::mem::take(out),
    };
    let result = search.node(0, &possible, true);
    *out = search.out;
    result?;
    Ok(search.stats)
}

impl Search<'_, '_> {
    /// Writes the lemma "not all of the path, and not `extra`" (a deletion with `delete`).
    fn lemma(&mut self, extra: Option<usize>, delete: bool) {
        if delete {
            self.out.push_str("d ");
        }
        for &option in self.path.iter().chain(extra.iter()) {
            let _ = write!(self.out, "{} ", -self.problem.var[option]);
        }
        self.out.push_str("0\n");
    }

    /// The item with the fewest of the `possible` options (a cell index, or the number of
    /// cells plus a piece index) and that number, or `None` when every open cell is covered.
    fn branching_item(&mut self, covered: u128, possible: &[usize]) -> Option<(usize, u32)> {
        let cells = self.problem.width * self.problem.height;
        self.counts.fill(0);
        for &option in possible {
            for &c in &self.problem.options[option] {
                self.counts[c] += 1;
            }
            self.counts[cells + self.problem.piece[option]] += 1;
        }
        let mut best: Option<(usize, u32)> = None;
        let mut free = self.open & !covered;
        while free != 0 {
            let c = free.trailing_zeros() as usize;
            free &= free - 1;
            if best.is_none_or(|(_, n)| self.counts[c] < n) {
                best = Some((c, self.counts[c]));
            }
        }
        best?;
        for piece in 0..self.used.len() {
            if self.piece_is_item[piece] && self.used[piece] == 0 {
                let n = self.counts[cells + piece];
                if best.is_none_or(|(_, b)| n < b) {
                    best = Some((cells + piece, n));
                }
            }
        }
        best
    }

    /// Searches below the current path, with `covered` cells covered and `possible` the
    /// options that overlap none of them and whose piece is not used up. Writes this node's
    /// lemma when `write` (see the module docs for when it is not needed); returns whether
    /// it wrote one.
    fn node(
        &mut self,
        covered: u128,
        possible: &[usize],
        write: bool,
    ) -> Result<bool, CoverProofError> {
        self.stats.nodes += 1;
        if self.stats.nodes.is_multiple_of(4096) && self.control.should_stop() {
            return Err(CoverProofError::Stopped);
        }
        let cells = self.problem.width * self.problem.height;
        let Some((item, choices)) = self.branching_item(covered, possible) else {
            let meets_minimums = self
                .used
                .iter()
                .zip(self.problem.piece_min)
                .all(|(used, min)| used >= min);
            if meets_minimums {
                let mut cover = self.path.clone();
                cover.sort_unstable();
                if !self.listed.contains(&cover) {
                    return Err(CoverProofError::Unlisted(cover));
                }
                // Its blocking clause is in the formula: no lemma.
                self.stats.covers += 1;
                return Ok(false);
            }
            // Every cell covered but a piece owed: the piece's at-least clause fails.
            if write {
                self.lemma(None, false);
            }
            return Ok(write);
        };
        let of_item: Vec<usize> = possible
            .iter()
            .copied()
            .filter(|&o| {
                if item < cells {
                    self.masks[o] & (1u128 << item) != 0
                } else {
                    self.problem.piece[o] == item - cells
                }
            })
            .collect();
        debug_assert_eq!(of_item.len() as u32, choices);
        let mut written = Vec::new();
        for &option in &of_item {
            let piece = self.problem.piece[option];
            self.used[piece] += 1;
            let covered_below = covered | self.masks[option];
            let used_up = self.problem.piece_max[piece].is_some_and(|max| self.used[piece] >= max);
            let below: Vec<usize> = possible
                .iter()
                .copied()
                .filter(|&o| {
                    self.masks[o] & covered_below == 0
                        && !(used_up && self.problem.piece[o] == piece)
                })
                .collect();
            self.path.push(option);
            let result = self.node(covered_below, &below, of_item.len() > 1);
            self.path.pop();
            self.used[piece] -= 1;
            if result? {
                written.push(option);
            }
        }
        if !write {
            return Ok(false);
        }
        self.lemma(None, false);
        if !self.path.is_empty() {
            for option in written {
                self.lemma(Some(option), true);
            }
        }
        Ok(true)
    }
}
