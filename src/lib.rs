//! puzzlec: compile combinatorial grid puzzles into constraint models and settle them.
//!
//! The crate is layered; each layer imports only the ones below it (a test, `tests/integration/layering.rs`,
//! keeps it so):
//!
//! - [`checkers`]: the LRAT and DRAT proof checkers, importing nothing of the crate.
//! - [`base`]: the shared vocabulary (goal, status, stop control, raw outcomes, errors).
//! - [`geometry`]: cells, the symmetries of the square grid, polyomino placements.
//! - [`model`]: the backend-neutral constraint IR.
//! - [`engines`]: the native searches, on geometry alone.
//! - [`encode`]: CNF encodings, the 0-1 linear program and the file formats.
//! - [`oracle`]: varisat, microlp, HiGHS and external solver programs.
//! - [`puzzle`]: the families as plain data: parse, compile, decode, verify, describe.
//! - [`driver`]: solve, count, compare and emit: a goal turned into engine and oracle calls,
//!   every answer verified against the puzzle's rules ([`driver::solve`]).
//! - [`cert`]: certificates (`prove`, `check`) and the proof checkers.
//! - [`report`]: JSON, text pictures, SVG, colour, model descriptions.
//!
//! The command line (`src/bin/puzzlec`) sits on top and is the only part that prints.

#![warn(missing_docs)]

pub mod base;
pub mod cert;
pub mod checkers;
pub mod driver;
pub mod encode;
pub mod engines;
pub mod geometry;
pub mod model;
pub mod oracle;
pub mod puzzle;
pub mod report;
