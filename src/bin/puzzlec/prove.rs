//! `puzzlec prove MODEL -o DIR`: a certificate anyone can check.

use crate::args::Prove;
use crate::output::{
    check_writable, exit, flag, guard_memory, print_json, print_stdout, write_file, Failure,
};
use crate::session::Session;
use puzzlec::base::error::NamesSettings;
use puzzlec::base::Sense;
use puzzlec::cert::certificate::{self, Claim, PackingRoute, ProveError, ProveOptions};
use puzzlec::cert::certificate::{parse_witness, MODEL_FILE, WITNESS_FILE};
use puzzlec::driver::external::ExternalSolver;
use puzzlec::driver::guard::Work;
use puzzlec::driver::Backend;
use puzzlec::puzzle::load_model_file;
use puzzlec::report::{render, svg};
use std::path::Path;

/// Proves `model`'s answer into `dir`, and draws the witness into `svg` if asked.
pub fn run(args: &Prove, session: &Session) -> Result<u8, Failure> {
    let (model, dir) = (args.model.path.as_path(), args.output.as_path());
    let control = session
        .control(args.time.duration()?)
        .with_memory(args.memory.bytes());
    if let Some(svg) = &args.svg {
        check_writable(svg)?;
    }
    // A certificate comes from the SAT backend: refuse a model that would not fit.
    let puzzle = load_model_file(model)?;
    guard_memory(model, &puzzle, Work::Sat, "prove", args.memory.bytes())?;
    let solver = match args.solver.as_deref() {
        None => None,
        Some(spec) if ExternalSolver::infer_backend(spec) != Backend::Sat => {
            return Err(Failure::Usage(format!(
                "--solver {spec}: prove needs a SAT solver that writes DRAT proofs, such as cadical"
            )))
        }
        Some(spec) => match ExternalSolver::parse(Backend::Sat, spec)
            .map_err(|e| Failure::Usage(e.describe(&flag)))?
        {
            ExternalSolver::Sat(command) if !command.writes_proof() => {
                return Err(Failure::Usage(format!(
                    "--solver {spec}: {} writes no proof; a certificate needs a command that \
                     names {{proof}} (cadical is given `--no-binary {{proof}}` by puzzlec)",
                    command.name()
                )))
            }
            ExternalSolver::Sat(command) => Some(command),
            ExternalSolver::Milp(_) | ExternalSolver::Cp(_) => {
                unreachable!("parsed for the SAT backend")
            }
        },
    };
    let options = ProveOptions {
        count: args.count,
        unique: args.unique,
        max_listed: args.max_solutions,
        solver,
        control,
        shard: args.split.shard,
        packing_route: if args.veripb {
            PackingRoute::Veripb
        } else if args.table {
            PackingRoute::Table
        } else {
            PackingRoute::Auto
        },
        // One shard per core: each shard is proved on a thread of its own, and large boxes
        // need shards to be checkable at all (docs/proof-design.md, "What shards cost").
        veripb_shards: args.veripb_shards.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        }),
        // Unless the count is given: shards small enough that checking one (both checkers
        // at once, about 2.4 times its size) stays within --max-memory.
        max_shard_bytes: args
            .veripb_shards
            .is_none()
            .then(|| args.memory.bytes() / 5 * 2),
        words: puzzlec::report::evidence::words,
    };
    let code = prove(model, dir, &options, args.report.json)?;
    if let Some(svg) = &args.svg {
        if code == exit::OK {
            draw_witness(dir, svg)?;
        }
    }
    Ok(code)
}

fn prove(model: &Path, dir: &Path, options: &ProveOptions, json: bool) -> Result<u8, Failure> {
    let manifest = match certificate::prove_using(model, dir, options) {
        Ok(manifest) => manifest,
        Err(ProveError::Stopped(reason)) => {
            eprintln!("stopped ({reason}): no certificate was written");
            return Ok(exit::NOT_PROVEN);
        }
        Err(error) => {
            return Err(match error {
                ProveError::Input(e) => Failure::Input(e),
                ProveError::Misused { path, misuse } => {
                    Failure::Usage(format!("{}: {}", path.display(), misuse.describe(&flag)))
                }
                ProveError::Lazy { .. } | ProveError::Write { .. } => {
                    Failure::Usage(error.to_string())
                }
                ProveError::Solver(_) | ProveError::Internal(_) | ProveError::Stopped(_) => {
                    Failure::Internal(error.to_string())
                }
            })
        }
    };
    // A claim's value is the model's score; the answer gives the family's value.
    let sense = load_model_file(model).map_or(Sense::Most, |p| p.sense());
    let answer = match &manifest.claim {
        Claim::Optimal { value } => format!("optimal {}", sense.value(*value)),
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
    // A packing-table certificate has a proof per scan cell: summed in one item.
    let (steps, others): (Vec<_>, Vec<_>) = manifest
        .files
        .iter()
        .partition(|(role, _)| role.starts_with("step-"));
    let mut files: Vec<String> = others
        .iter()
        .map(|(_, f)| format!("{} {} bytes", f.name, f.bytes))
        .collect();
    if !steps.is_empty() {
        let bytes: u64 = steps.iter().map(|(_, f)| f.bytes).sum();
        files.push(format!("{} step files {bytes} bytes", steps.len()));
    }
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
