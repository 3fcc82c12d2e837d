//! The external-solver suite again with HiGHS linked in: `cargo test --features highs --test
//! highs`. The same module as `integration`'s `external_solvers`, in a test binary of its own,
//! so that building with HiGHS compiles these tests and not the whole integration suite again.
//! `--features highs-system` runs them against an installed HiGHS instead (as `.ci/run` does).

// `common` serves the whole integration suite; this binary uses only part of it.
#![allow(dead_code)]

#[path = "integration/common.rs"]
mod common;
#[path = "integration/external_solvers.rs"]
mod external_solvers;
