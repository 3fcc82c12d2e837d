//! Native searches: hand-written solvers for puzzles where a dedicated search beats a model.

pub mod nqueens;
