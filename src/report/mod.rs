//! Reports: what the command line shows of puzzles and answers. Text pictures and SVG,
//! terminal colour, the words of evidence, JSON documents, model descriptions and catalogues.

pub mod catalog;
pub mod color;
pub mod evidence;
pub mod explain;
pub mod json;
pub mod render;
pub mod svg;
pub mod sweep;
pub mod text;

/// The version of every `--json` output's layout, in its `"schema"` key (documented in
/// `docs/json-schema.md`): the number goes up when a field changes meaning or disappears,
/// not when one is added.
pub const JSON_SCHEMA: &str = "puzzlec/1";
