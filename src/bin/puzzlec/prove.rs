//! `puzzlec prove MODEL -o DIR`: a certificate anyone can check.

use crate::args::Prove;
use crate::output::{
    check_writable, exit, flag, guard_memory, print_json, print_stdout, write_file, Failure,
};
use crate::progress::StderrProgress;
use crate::session::Session;
use puzzlec::base::error::NamesSettings;
use puzzlec::base::Sense;
use puzzlec::cert::certificate::{
    self, Claim, PackingRoute, ProveError, ProveOptions, StreamMode, Verdict,
};
use puzzlec::cert::certificate::{parse_witness, MODEL_FILE, WITNESS_FILE};
use puzzlec::driver::external::ExternalSolver;
use puzzlec::driver::guard::Work;
use puzzlec::driver::Backend;
use puzzlec::puzzle::load_model_file;
use puzzlec::report::{render, svg};
use std::path::Path;
use std::sync::Arc;

/// Proves `model`'s answer into `dir`, and draws the witness into `svg` if asked.
pub fn run(args: &Prove, session: &Session) -> Result<u8, Failure> {
    let (model, dir) = (args.model.path.as_path(), args.output.as_path());
    let control = session
        .control(args.time.duration()?)
        .with_memory(args.memory.bytes());
    // A streamed run is long: where its shards are cut is reported as it goes.
    let control = if args.stream || args.job.is_some() {
        control.with_progress(Arc::new(StderrProgress::new()))
    } else {
        control
    };
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
    let scratch = args.scratch.as_deref().map(usable_scratch).transpose()?;
    let options = ProveOptions {
        count: args.count,
        unique: args.unique,
        max_listed: args.max_solutions,
        solver,
        control,
        shard: args.split.shard,
        packing_route: if args.veripb || args.stream || args.join {
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
        stream: if args.stream {
            StreamMode::Always
        } else if args.no_stream {
            StreamMode::Never
        } else {
            StreamMode::Auto
        },
        join: args.join,
        // Streamed shards are always held to the memory bound. In memory, a worker checking
        // one held about 3.1 times its proof (16 x 16 crosses: 2.5 GB of veripb and 0.8 GB
        // of its own for a shard of 1.1 GB). On a scratch disk the proof costs no memory,
        // and with the memo bounded what veripb holds grows slowly past the memo's share
        // (docs/speed.md, "A bounded proof memo"), so the bound is the disk's: twice
        // --max-memory.
        stream_shard_bytes: Some(args.shard_bytes.as_ref().map_or_else(
            || match &args.scratch {
                Some(_) => args.memory.bytes() * 2,
                None => args.memory.bytes() / 10 * 3,
            },
            |size| size.0,
        )),
        stream_scratch: scratch,
        stream_memo_clauses: args
            .memo_clauses
            .unwrap_or_else(|| memo_clauses(args.memory.bytes())),
        words: puzzlec::report::evidence::words,
    };
    if let Some(file) = &args.jobs {
        return write_jobs(model, dir, file, &options);
    }
    if let Some(name) = &args.job {
        return prove_job(model, dir, name, &options);
    }
    let code = prove(model, dir, &options, args.report.json)?;
    if let Some(svg) = &args.svg {
        if code == exit::OK {
            draw_witness(dir, svg)?;
        }
    }
    Ok(code)
}

/// The proof search's memo bound for a worker of `memory` bytes: a clause to 2 KiB, down
/// to a power of two (4 GiB: 2,097,152 clauses). `veripb` holds about 0.9 KB per clause
/// the proof keeps live, over about a gigabyte for the rest: at this bound it held at
/// most 3.4 GB on 17 x 17's shards, at a clause to 1 KiB it passed 4.6 GB; at a clause to
/// 4 KiB the search repeats a quarter more on the heaviest entries (docs/speed.md, "A
/// bounded proof memo").
fn memo_clauses(memory: u64) -> usize {
    let clauses = usize::try_from(memory / 2048).unwrap_or(usize::MAX).max(1);
    1 << clauses.ilog2()
}

/// `--scratch DIR`, once a file with no name has been made there and dropped.
pub fn usable_scratch(dir: &Path) -> Result<std::path::PathBuf, Failure> {
    puzzlec::base::unnamed_file::UnnamedFile::in_folder(dir, "probe")
        .map(|_| dir.to_path_buf())
        .map_err(|e| {
            Failure::Usage(format!(
                "--scratch {}: cannot make a file there ({e})",
                dir.display()
            ))
        })
}

/// The failure of `prove`, as the command line sorts it (a stop is not one).
fn failure(error: ProveError) -> Failure {
    match error {
        ProveError::Input(e) => Failure::Input(e),
        ProveError::Misused { path, misuse } => {
            Failure::Usage(format!("{}: {}", path.display(), misuse.describe(&flag)))
        }
        ProveError::Lazy { .. } | ProveError::Write { .. } => Failure::Usage(error.to_string()),
        ProveError::Solver(_)
        | ProveError::Internal(_)
        | ProveError::Refused(_)
        | ProveError::Stopped(_) => Failure::Internal(error.to_string()),
    }
}

/// `prove --stream --jobs FILE`: the run planned into `dir`, one command a line into `file`.
fn write_jobs(
    model: &Path,
    dir: &Path,
    file: &Path,
    options: &ProveOptions,
) -> Result<u8, Failure> {
    check_writable(file)?;
    let names = match certificate::plan_stream_jobs(model, dir, options) {
        Ok(names) => names,
        Err(ProveError::Stopped(reason)) => {
            eprintln!("stopped ({reason}): no jobs were written");
            return Ok(exit::NOT_PROVEN);
        }
        Err(error) => return Err(failure(error)),
    };
    // Absolute paths: a job may run in any folder, on any machine that sees the same files.
    let absolute = |path: &Path| std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let program = std::env::current_exe().map_or_else(|_| "puzzlec".into(), |p| absolute(&p));
    let folder = absolute(dir);
    let copy = folder.join(MODEL_FILE);
    let mut text = String::new();
    // Every job holds its shard to the plan's budget and memo bound, and reads from the
    // plan's scratch folder, whatever machine runs it.
    let mut budget = options
        .stream_shard_bytes
        .map_or(String::new(), |bytes| format!(" --shard-bytes {bytes}"));
    budget.push_str(&format!(" --memo-clauses {}", options.stream_memo_clauses));
    if let Some(scratch) = &options.stream_scratch {
        budget.push_str(&format!(" --scratch {}", shell_word(&absolute(scratch))));
    }
    for name in &names {
        text.push_str(&format!(
            "{} prove {} -o {} --job {name}{budget}\n",
            shell_word(&program),
            shell_word(&copy),
            shell_word(&folder)
        ));
    }
    write_file(file, text)?;
    print_stdout(&format!(
        "{} jobs: {} (one shard each; the plan is in {})\n",
        names.len(),
        file.display(),
        folder.join("plan.txt").display()
    ));
    eprintln!(
        "run every line (scripts/stream-jobs.sh {} runs them with GNU parallel), then `puzzlec prove {} -o {} --join`",
        file.display(),
        model.display(),
        dir.display()
    );
    Ok(exit::OK)
}

/// `path` as one word of a POSIX shell: quoted when it holds anything but plain characters.
fn shell_word(path: &Path) -> String {
    let text = path.display().to_string();
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+,:@%".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// `prove --job NAME`: one shard of a streamed run proved, its record written (or, cut as
/// it passed its budget, its parts' records), a line each.
fn prove_job(model: &Path, dir: &Path, name: &str, options: &ProveOptions) -> Result<u8, Failure> {
    let records = match certificate::prove_stream_job(model, dir, name, options) {
        Ok(records) => records,
        Err(ProveError::Stopped(reason)) => {
            eprintln!("stopped ({reason}): {name} is not proved yet; the records written are kept");
            return Ok(exit::NOT_PROVEN);
        }
        Err(error) => return Err(failure(error)),
    };
    let mut text = String::new();
    for record in &records {
        let verdicts: Vec<String> = record
            .checkers
            .iter()
            .map(|c| {
                let verdict = match c.verdict {
                    Verdict::Accepted => "accepted",
                    Verdict::Refused => "refused",
                    Verdict::NotRun => "did not run",
                };
                format!("{} {verdict}", c.name)
            })
            .collect();
        text.push_str(&format!(
            "{}: {} nodes, proof {} bytes, {} lines, SHA-256 {}; {} (record {})\n",
            record.shard,
            record.nodes,
            record.proof.bytes,
            record.proof.lines,
            record.proof.sha256,
            verdicts.join(", "),
            dir.join(format!("{}.json", record.shard)).display()
        ));
    }
    print_stdout(&text);
    Ok(exit::OK)
}

fn prove(model: &Path, dir: &Path, options: &ProveOptions, json: bool) -> Result<u8, Failure> {
    let manifest = match certificate::prove_using(model, dir, options) {
        Ok(manifest) => manifest,
        Err(ProveError::Stopped(reason)) => {
            if dir.join("plan.txt").is_file() {
                eprintln!(
                    "stopped ({reason}): no certificate yet; the records written so far are kept in {}, and `prove` there again resumes the run",
                    dir.display()
                );
            } else {
                eprintln!("stopped ({reason}): no certificate was written");
            }
            return Ok(exit::NOT_PROVEN);
        }
        Err(error) => return Err(failure(error)),
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
