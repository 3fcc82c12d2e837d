//! puzzlec: compile grid puzzles into constraint models and settle them.

pub mod native;
