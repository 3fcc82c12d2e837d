//! puzzlec: compile combinatorial grid puzzles into constraint models and settle them.
//!
//! A puzzle instance is read from a model file ([`puzzle::load_model_file`]), compiled to a
//! backend-neutral [`model::Model`], and answered by the SAT backend ([`sat`]), the MILP
//! backend ([`milp`]) or the family's native search ([`native`]), all through one driver
//! ([`solve::solve`]) that verifies every solution against the puzzle's own rules.

pub mod catalog;
pub mod cert;
pub mod emit;
pub mod enumerate;
pub mod error;
pub mod explain;
pub mod external;
pub mod milp;
pub mod model;
pub mod native;
pub mod puzzle;
pub mod render;
pub mod sat;
pub mod solve;

/// The version of every `--json` output's layout, in its `"schema"` key (documented in
/// `docs/json-schema.md`): the number goes up when a field changes meaning or disappears,
/// not when one is added.
pub const JSON_SCHEMA: &str = "puzzlec/1";
