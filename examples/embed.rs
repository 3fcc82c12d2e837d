//! puzzlec embedded in a program: load a model file, solve it with a chosen backend, print
//! the answer and how it was established, then prove a certificate and check it.
//!
//! `cargo run --release --example embed -- models/queens-8.toml [sat|milp|native]`

use puzzlec::{Backend, Control, Goal};
use std::error::Error;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (model, backend) = match args.as_slice() {
        [model] => (model, "sat"),
        [model, backend] => (model, backend.as_str()),
        _ => {
            eprintln!("usage: embed MODEL [sat|milp|native]");
            return ExitCode::from(2);
        }
    };
    match run(Path::new(model), backend, &mut std::io::stdout()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Solves, proves and checks `model`, writing what happens to `out`.
pub fn run(model: &Path, backend: &str, out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let backend = Backend::from_name(backend).ok_or(format!("no backend {backend:?}"))?;
    let puzzle = puzzlec::load_model_file(model)?;
    // Every solution in an Outcome was verified against the puzzle's own rules.
    let outcome = puzzlec::solve(&puzzle, backend, Goal::Maximise, &Control::unlimited())?;
    if let Some(solution) = &outcome.solution {
        write!(out, "{}", puzzle.render(solution))?;
    }
    writeln!(
        out,
        "{} by {}: {}",
        outcome.answer(),
        backend.name(),
        outcome.evidence
    )?;

    // A certificate: the answer again by SAT, with proofs that check() verifies.
    let folder = tempfile::tempdir()?;
    let dir = folder.path().join("certificate");
    let manifest = puzzlec::prove(model, &dir)?;
    writeln!(out, "proved: {}", manifest.how)?;
    let checked = puzzlec::check(&dir)?;
    for step in &checked.steps {
        writeln!(out, "ok: {step}")?;
    }
    writeln!(out, "{}", checked.conclusion)?;
    Ok(())
}
