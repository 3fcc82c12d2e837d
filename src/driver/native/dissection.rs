//! Dissections in the driver: the native dissection search, preferred.

use super::{solve_dissection, NativeFamily};
use crate::base::{Control, Goal, RawOutcome};
use crate::driver::packing::NativePackingError;
use crate::driver::packing_bounds::PackingBounds;
use crate::driver::Backend;
use crate::puzzle::dissection::{Dissection, DissectionPuzzle};

impl NativeFamily for DissectionPuzzle {
    const PREFERRED: Backend = Backend::Native;

    fn solve_native(
        &self,
        _goal: Goal,
        control: &Control,
        _bounds: Option<&mut PackingBounds>,
    ) -> Result<RawOutcome<Dissection>, NativePackingError> {
        Ok(solve_dissection(self, control))
    }
}
