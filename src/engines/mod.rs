//! Native searches: hand-written, independent of the model and its encodings, used as
//! cross-checks of the solver backends and often as the fastest path. They work on
//! [`geometry`](crate::geometry) and [`base`](crate::base) alone; the driver adapts each
//! family to them.

pub mod cover_proof;
pub mod dissection;
pub mod domination;
pub mod exact_cover;
pub mod neighbourhood;
pub mod nqueens_count;
pub mod obstacle_queens;
pub mod packing;
pub mod russian_doll;
