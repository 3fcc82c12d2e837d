//! `puzzlec prove MODEL -o DIR`: a certificate anyone can check.

use crate::output::{check_writable, exit, guard_memory, print_json, print_stdout};
use crate::output::{write_file, Failure};
use puzzlec::cert::certificate::{self, Claim, ProveError};
use puzzlec::cert::certificate::{parse_witness, MODEL_FILE, WITNESS_FILE};
use puzzlec::driver::guard::Work;
use puzzlec::puzzle::load_model_file;
use puzzlec::report::{render, svg};
use std::path::Path;

/// Proves `model`'s answer into `dir`, and draws the witness into `svg` if asked.
pub fn run(
    model: &Path,
    dir: &Path,
    count: bool,
    json: bool,
    svg: Option<&Path>,
    max_memory: u64,
) -> Result<u8, Failure> {
    if let Some(svg) = svg {
        check_writable(svg)?;
    }
    // A certificate comes from the SAT backend: refuse a model that would not fit.
    let puzzle = load_model_file(model)?;
    guard_memory(model, &puzzle, Work::Sat, "prove", max_memory)?;
    let code = prove(model, dir, count, json)?;
    if let Some(svg) = svg {
        draw_witness(dir, svg)?;
    }
    Ok(code)
}

fn prove(model: &Path, dir: &Path, count: bool, json: bool) -> Result<u8, Failure> {
    let manifest = certificate::prove_with(model, dir, count).map_err(|error| match error {
        ProveError::Input(e) => Failure::Input(e),
        ProveError::Lazy { .. } | ProveError::Write { .. } => Failure::Usage(error.to_string()),
        ProveError::Internal(_) => Failure::Internal(error.to_string()),
    })?;
    let answer = match &manifest.claim {
        Claim::Optimal { value } => format!("optimal {value}"),
        Claim::Satisfiable => "satisfiable".to_string(),
        Claim::Unsatisfiable => "unsatisfiable".to_string(),
        Claim::Impossible { reason } => format!("impossible ({reason})"),
        Claim::Count { count, .. } => format!("{count} solutions"),
    };
    if json {
        let mut value =
            serde_json::to_value(&manifest).map_err(|e| Failure::Internal(e.to_string()))?;
        value["directory"] = serde_json::json!(dir.display().to_string());
        // The manifest names files relative to the folder; scripts want paths.
        for (role, file) in &manifest.files {
            value["files"][role]["path"] =
                serde_json::json!(dir.join(&file.name).display().to_string());
        }
        print_json(value);
        eprintln!("{answer}: {}", manifest.how);
        return Ok(exit::OK);
    }
    let files: Vec<String> = manifest
        .files
        .values()
        .map(|f| format!("{} {} bytes", f.name, f.bytes))
        .collect();
    let files = match (&manifest.claim, files.is_empty()) {
        (Claim::Impossible { .. }, _) => "the reason: manifest.json and model.toml".to_string(),
        (_, true) => "a count record: manifest.json and model.toml".to_string(),
        (_, false) => files.join(", "),
    };
    print_stdout(&format!(
        "{answer}: certificate in {} ({files})\n",
        dir.display()
    ));
    eprintln!(
        "proved in {:.3} s (solve {:.3} s, proofs {:.3} s): {}",
        manifest.times.total_seconds,
        manifest.times.solve_seconds,
        manifest.times.refute_seconds,
        manifest.how
    );
    Ok(exit::OK)
}

/// Draws the witness of the certificate in `dir` into `path`, re-verified from the rules;
/// a certificate without a witness (a refutation, a count) has nothing to draw.
fn draw_witness(dir: &Path, path: &Path) -> Result<(), Failure> {
    let Ok(text) = std::fs::read_to_string(dir.join(WITNESS_FILE)) else {
        eprintln!("no witness to draw: {} not written", path.display());
        return Ok(());
    };
    let puzzle = load_model_file(&dir.join(MODEL_FILE))?;
    let assignment = parse_witness(&text, puzzle.compile().num_vars())
        .map_err(|e| Failure::Internal(format!("{WITNESS_FILE}: {e}")))?;
    let solution = puzzle.decode(&assignment);
    puzzle
        .verify(&solution)
        .map_err(|e| Failure::Internal(format!("{WITNESS_FILE}: {e}")))?;
    let picture = render::picture(&puzzle, &solution);
    write_file(path, svg::svg(&picture))
}
