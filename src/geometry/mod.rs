//! Geometry of the square grid, shared by the puzzle families and the native engines: cells
//! and isometries ([`isometry`]), boards with obstacles and their lines ([`board`]), what chess pieces attack on them
//! ([`chess`]), partitions into congruent parts ([`partition`]), pieces
//! placed on a rectangle and the rectangle's symmetries ([`placements`]), cell weights that
//! bound how many pieces fit ([`weights`]).

pub mod board;
pub mod chess;
pub mod isometry;
pub mod partition;
pub mod placements;
pub mod shapes;
pub mod weights;
