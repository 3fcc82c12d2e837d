//! Packing placements into a grid region by one bitboard search: tilings (enumerated,
//! counted, counted up to symmetry) and maximum packings with piece minimums.
//!
//! The input is plain data ([`PackingInstance`](crate::geometry::placements::PackingInstance)): a rectangle of cells, some blocked, a list of
//! [`Placement`](crate::geometry::placements::Placement)s (a piece index and the cells it
//! would cover) and per-piece count limits.
//! [`orientations`](crate::geometry::placements::orientations) and
//! [`placements`](crate::geometry::placements::placements) build placement lists from
//! polyomino shapes.
//!
//! The search (`Scan`) keeps the board as one bitset ([`Board`]: `u64`, `u128` or
//! [`Wide`](super::russian_doll::Wide) words, the smallest that holds the board, so up to 1024 cells), cells numbered in
//! the Russian doll's scan order ([`scan_order`](super::russian_doll::scan_order): along the short side first, so the first
//! open cell is one `trailing_ones` away and the frontier stays short). At the first open
//! cell it tries every placement whose first cell it is, grouped by piece so that a used-up
//! piece is passed over at once; a tiling must cover that cell, a packing may also leave it
//! empty. Nothing is allocated in the loop.
//!
//! - [`count_tilings`] / [`enumerate_tilings`]: every free cell covered exactly once. After
//!   each placement the open cells are split into connected regions by bitwise flood fill,
//!   and the node is cut when a region cannot be tiled by size alone (smaller than the
//!   smallest piece, or not a multiple of the gcd of the piece sizes): most dead ends of
//!   6 x 10 pentominoes are small pockets that the plain search only finds many levels
//!   later. [`count_tilings`] can also count up to the symmetries of the rectangle (see there
//!   for why that count is sound). Dancing links ([`super::exact_cover`]) remains as the
//!   independent cross-check and for boards of more than 1024 cells.
//! - [`maximise`]: as many pieces as possible, or the decision "at least K". Without piece
//!   minimums this is the Russian doll ([`super::russian_doll`]) alone. With minimums, the
//!   doll's suffix table of the instance without them (`S[q]`: the most pieces whose first
//!   cell is `q` or later) bounds a branch and bound over the same scan: a node at cell `q`
//!   with `placed` pieces is cut when `placed + S[q]` cannot reach the target, or when the
//!   pieces still owed to the minimums outnumber `S[q]`.
//!
//! The parts: `board.rs` (the bitset boards), `search.rs` (the scan and the depth-first
//! searcher both problems share), `tiling.rs` (tilings, by the searcher or dancing links) and
//! `maximise.rs` (maximum packings).

#[macro_use]
mod board;
mod maximise;
mod search;
#[cfg(test)]
mod tests;
mod tiling;

pub use board::{Board, MAX_BOARD_CELLS};
pub use maximise::{
    maximise, MaximiseError, PackingGoal, PackingOptions, PackingOutcome, PackingStats,
};
pub use search::Progress;
pub use tiling::{
    count_tilings, count_tilings_with, enumerate_tilings, enumerate_tilings_with, TilingCount,
    TilingEngine, AUTO_BITBOARD_CELLS,
};
