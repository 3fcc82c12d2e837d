//! Sweeping a chess model over empty boards, square (`--size`) or not (`--width` and
//! `--height`), the piece and the question kept.

use super::{Instance, NotSweepable, SweepAxes, SweepFamily};
use crate::puzzle::chess::Chess;

impl SweepFamily for Chess {
    fn check_sweepable(&self, _axes: &SweepAxes) -> Result<(), NotSweepable> {
        if self.board.is_open() {
            Ok(())
        } else {
            Err(NotSweepable::ChessObstacles)
        }
    }

    fn resized(&self, instance: Instance) -> Chess {
        Chess::empty(instance.width, instance.height, self.piece, self.question)
    }
}
