//! Sweeping a queens model over the sizes N of an empty square board.

use super::{Instance, NotSweepable, SweepAxes, SweepFamily};
use crate::puzzle::queens::Queens;

impl SweepFamily for Queens {
    fn check_sweepable(&self, axes: &SweepAxes) -> Result<(), NotSweepable> {
        match axes {
            SweepAxes::Sizes(_)
                if self.board.width == self.board.height && self.board.is_open() =>
            {
                Ok(())
            }
            SweepAxes::Sizes(_) => Err(NotSweepable::QueensObstacles),
            SweepAxes::Boxes { .. } => Err(NotSweepable::QueensByBox),
        }
    }

    fn resized(&self, instance: Instance) -> Queens {
        Queens::empty(instance.width)
    }
}
