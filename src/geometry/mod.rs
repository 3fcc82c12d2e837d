//! Geometry of the square grid.
