//! Queens in the driver: SAT preferred, the obstacle-queens search as the native one.

use super::NativeFamily;
use crate::base::{Control, Goal, RawOutcome};
use crate::driver::packing::NativePackingError;
use crate::driver::packing_bounds::PackingBounds;
use crate::driver::Backend;
use crate::puzzle::queens::{Queens, QueensSolution};

impl NativeFamily for Queens {
    const PREFERRED: Backend = Backend::Sat;

    fn solve_native(
        &self,
        goal: Goal,
        control: &Control,
        _bounds: Option<&mut PackingBounds>,
    ) -> Result<RawOutcome<QueensSolution>, NativePackingError> {
        Ok(crate::engines::obstacle_queens::solve(
            &self.board,
            goal,
            control,
        ))
    }
}
