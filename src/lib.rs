//! puzzlec: compile combinatorial grid puzzles into constraint models and settle them.
//!
//! The crate is layered; each layer imports only the ones below it (a test, `tests/integration/layering.rs`,
//! keeps it so):
//!
//! - [`formats`]: every file format read or written (DIMACS, solver answers, WCNF, OPB, LP,
//!   MILP solution files, MiniZinc, VeriPB proofs), importing nothing of the crate.
//! - [`checkers`]: the LRAT, DRAT and pseudo-Boolean (VeriPB) proof checkers, importing
//!   nothing of the crate but [`formats`] (to read CNF, OPB and proofs).
//! - [`base`]: the shared vocabulary (goal, status, stop control, raw outcomes, errors).
//! - [`geometry`]: cells, the symmetries of the square grid, polyomino placements.
//! - [`model`]: the backend-neutral constraint IR.
//! - [`engines`]: the native searches, on geometry alone.
//! - [`encode`]: CNF encodings and the 0-1 linear program, written through [`formats`].
//! - [`oracle`]: varisat, microlp, HiGHS and external solver programs.
//! - [`puzzle`]: the families as plain data: parse, compile, decode, verify, describe.
//! - [`driver`]: solve, count, compare and emit: a goal turned into engine and oracle calls,
//!   every answer verified against the puzzle's rules ([`driver::solve`]).
//! - [`cert`]: certificates (`prove`, `check`) and the proof checkers.
//! - [`report`]: JSON, text pictures, SVG, colour, model descriptions, and the wording of
//!   how each answer was established.
//!
//! The command line (`src/bin/puzzlec`) sits on top and is the only part that prints.
//!
//! # Embedding
//!
//! The entry points are re-exported here: [`load_model_file`] reads a model into a
//! [`Puzzle`], [`solve`] answers it with a [`Backend`] into an [`Outcome`] (a solution
//! verified by the puzzle's rules, and the evidence of how the answer was established),
//! [`prove`] writes a certificate folder and [`check`] verifies one. `examples/embed.rs`
//! uses them all; `docs/library.md` walks through them.
//!
//! ```
//! use puzzlec::{Backend, Control, Goal};
//! let model = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/queens-8.toml");
//! let puzzle = puzzlec::load_model_file(&model)?;
//! let outcome = puzzlec::solve(&puzzle, Backend::Sat, Goal::Maximise, &Control::unlimited())?;
//! assert_eq!(outcome.answer(), "optimal 8");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod base;
pub mod cert;
pub mod checkers;
pub mod driver;
pub mod encode;
pub mod engines;
pub mod formats;
pub mod geometry;
pub mod model;
pub mod oracle;
pub mod puzzle;
pub mod report;

pub use base::{Control, Goal, Status};
pub use cert::certificate::{check, Checked, Claim, Manifest};
pub use driver::{solve, Backend, Outcome};
pub use puzzle::{load_model_file, Puzzle, Solution};

/// Solves the model at `model_path` with the SAT backend (a maximum packing: by the route
/// [`cert::certificate::PackingRoute::Auto`] picks), and writes a certificate of the answer
/// into `dir` (created if missing; certificate files in it are replaced): the defaults of
/// [`cert::certificate::ProveOptions::new`], evidence worded as the reports word it.
///
/// ```
/// let model = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/obstacle-queens.toml");
/// let dir = std::env::temp_dir().join(format!("puzzlec-doc-prove-{}", std::process::id()));
/// let manifest = puzzlec::prove(&model, &dir)?;
/// assert_eq!(manifest.claim, puzzlec::Claim::Optimal { value: 20 });
/// assert!(dir.join("proof.lrat").is_file());
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn prove(
    model_path: &std::path::Path,
    dir: &std::path::Path,
) -> Result<Manifest, cert::certificate::ProveError> {
    let options = cert::certificate::ProveOptions::new(report::evidence::words);
    cert::certificate::prove_using(model_path, dir, &options)
}
