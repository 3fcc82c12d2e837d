//! Dissection models are not swept: a shape has no size to vary.

use super::{Instance, NotSweepable, SweepAxes, SweepFamily};
use crate::puzzle::dissection::DissectionPuzzle;

impl SweepFamily for DissectionPuzzle {
    fn check_sweepable(&self, _axes: &SweepAxes) -> Result<(), NotSweepable> {
        Err(NotSweepable::Dissection)
    }

    fn resized(&self, _instance: Instance) -> DissectionPuzzle {
        unreachable!("dissection models are refused by check_sweepable")
    }
}
