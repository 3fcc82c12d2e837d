//! Packings in the driver: the native packing searches (Russian doll, exact cover),
//! preferred.

use super::NativeFamily;
use crate::base::{Control, Goal, RawOutcome};
use crate::driver::packing::NativePackingError;
use crate::driver::packing_bounds::PackingBounds;
use crate::driver::Backend;
use crate::puzzle::packing::{Packing, PackingSolution};

impl NativeFamily for Packing {
    const PREFERRED: Backend = Backend::Native;

    fn solve_native(
        &self,
        goal: Goal,
        control: &Control,
        bounds: Option<&mut PackingBounds>,
    ) -> Result<RawOutcome<PackingSolution>, NativePackingError> {
        crate::driver::packing::solve(self, goal, control, bounds)
    }
}
