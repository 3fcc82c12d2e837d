//! puzzlec's integration tests, one module per area, linked into one test binary (one link
//! step instead of one per file). Run one area with `cargo test --test integration AREA::`,
//! e.g. `cargo test --test integration decode::`.
//!
//! Tests that need an external solver print "SKIPPED in TEST: not installed: ..." when it is
//! missing; with `PUZZLEC_REQUIRE_EXTERNAL=1` (as `.ci/run` sets) they fail instead.

mod common;

mod bad_input;
mod certificate_outside;
mod certificates;
mod certify;
mod certify_counts;
mod certify_dissection;
mod checked_refutations;
mod chess;
mod cli;
mod cli_extras;
mod count;
mod count_stop;
mod decode;
mod dissection;
mod dissection_backends;
mod dissection_cli;
mod docs_commands;
mod doll_proof;
mod drat;
mod edges;
mod emit_complete;
mod emit_lp_solvers;
mod external_solvers;
mod fuzz_models;
mod json_schema;
mod layering;
mod library;
mod minizinc;
mod packing;
mod packing_bounds;
mod packing_certificates;
mod packing_count_cli;
mod pb_checker;
mod queens_backends;
mod queens_empty_boards;
mod resource_guards;
mod russian_doll;
mod sharded;
mod streamed;
mod svg;
mod sweep;
mod symmetry_units;
