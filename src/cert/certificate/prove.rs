//! `prove`: find the answer, then write the certificate folder that [`super::check`] verifies.

use super::write::{record_answer, write_manifest, Folder, PackingRoute, ProveOptions, Record};
use super::{unrefuted_encoding, Claim, Manifest, ProveError};
use crate::base::error::InputError;
use crate::driver::Misuse;
use crate::engines::russian_doll::proof_supports;
use crate::puzzle::packing::Packing;
use crate::puzzle::{load_model_file, Puzzle};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Solves the model at `model_path` with the SAT backend (a maximum packing: by the route
/// [`PackingRoute::Auto`] picks), and writes a certificate of the answer into `dir`
/// (created if missing; certificate files in it are replaced), as `options` say (the
/// crate's [`crate::prove`] with the defaults). The work runs on its own thread, because varisat does not
/// poll for a stop: when `options.control` stops first, the thread is abandoned (it ends with
/// the process) and the folder may hold some certificate files but no manifest.
pub fn prove_using(
    model_path: &Path,
    dir: &Path,
    options: &ProveOptions,
) -> Result<Manifest, ProveError> {
    let (sender, receiver) = mpsc::channel();
    let (path, folder, thread_options) =
        (model_path.to_path_buf(), dir.to_path_buf(), options.clone());
    std::thread::Builder::new()
        .name("puzzlec-prove".to_string())
        .spawn(move || {
            // The receiver may have given up on us; nothing to do then.
            let _ = sender.send(prove_here(&path, &folder, &thread_options));
        })
        .map_err(|e| ProveError::Internal(format!("cannot start a thread: {e}")))?;
    loop {
        match receiver.recv_timeout(Duration::from_millis(20)) {
            Ok(result) => return result,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(ProveError::Internal(
                    "the prove thread panicked".to_string(),
                ))
            }
            Err(mpsc::RecvTimeoutError::Timeout) if options.control.should_stop() => {
                return Err(ProveError::Stopped(options.control.reason()));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
    }
}

/// [`prove_using`] on the caller's thread.
fn prove_here(
    model_path: &Path,
    dir: &Path,
    options: &ProveOptions,
) -> Result<Manifest, ProveError> {
    let start = Instant::now();
    let puzzle = load_model_file(model_path)?;
    let model_bytes = std::fs::read(model_path)
        .map_err(|e| InputError::file(model_path, format!("cannot read: {e}")))?;
    if let Some(packing) = veripb_route(&puzzle, dir, options)
        .map_err(|why| ProveError::Input(InputError::file(model_path, why)))?
    {
        let job = super::doll_proof::Job {
            model_path,
            model_bytes: &model_bytes,
            puzzle: &puzzle,
            packing,
            dir,
            control: &options.control,
        };
        return super::doll_proof::prove_veripb(
            &job,
            options.shard,
            shard_split(options),
            streaming(options),
            options.words,
        );
    }
    super::doll_proof::clear_streamed(dir)?;
    let table = super::table::route(&puzzle, options).filter(|_| !options.count);
    if let (Some(shard), None) = (options.shard, &table) {
        return Err(ProveError::Misused {
            path: model_path.to_path_buf(),
            misuse: Misuse::ShardNeedsTable(shard),
        });
    }
    if let Some(table) = table {
        let control = &options.control;
        return super::table::prove(model_path, &model_bytes, &puzzle, dir, &table, control);
    }
    let record = if options.count {
        super::count::record(&puzzle, model_path, dir, &model_bytes, options)?
    } else if let Some(reason) = puzzle.trivially_impossible() {
        // Nothing to search or refute: the reason is the certificate, recomputed by `check`.
        let model = puzzle.compile();
        Folder::fresh(dir, &model_bytes)?;
        Record {
            how: format!(
                "impossible by counting alone ({reason}); check recomputes the reason from the {} rules",
                puzzle.kind()
            ),
            claim: Claim::Impossible { reason },
            encoding: unrefuted_encoding(&model),
            files: BTreeMap::new(),
            solve_seconds: 0.0,
            refute_seconds: 0.0,
        }
    } else {
        record_answer(&puzzle, model_path, dir, &model_bytes, options)?
    };
    write_manifest(dir, model_path, &model_bytes, &puzzle, record, start)
}

/// The shards `options` ask for on the VeriPB route.
fn shard_split(options: &ProveOptions) -> super::doll_proof::ShardSplit {
    super::doll_proof::ShardSplit {
        count: options.veripb_shards,
        max_bytes: options.max_shard_bytes,
    }
}

/// Whether and how `options` stream the doll's proof.
fn streaming(options: &ProveOptions) -> super::doll_proof::Streaming<'_> {
    super::doll_proof::Streaming {
        mode: options.stream,
        join: options.join,
        budget: options.stream_shard_bytes,
        scratch: options.stream_scratch.as_deref(),
        memo_clauses: options.stream_memo_clauses,
    }
}

/// Runs `work` on the job of the model at `model_path` into `dir`, for the jobs of a
/// streamed run: a model the search's proof does not take is refused.
fn streamed_job<T>(
    model_path: &Path,
    dir: &Path,
    options: &ProveOptions,
    work: impl FnOnce(&super::doll_proof::Job<'_>) -> Result<T, ProveError>,
) -> Result<T, ProveError> {
    let puzzle = load_model_file(model_path)?;
    let model_bytes = std::fs::read(model_path)
        .map_err(|e| InputError::file(model_path, format!("cannot read: {e}")))?;
    let Some(packing) = super::table::applies(&puzzle) else {
        return Err(ProveError::Input(InputError::file(
            model_path,
            "a streamed certificate is of a maximum packing without piece minimums",
        )));
    };
    proof_supports(&packing.instance)
        .map_err(|e| ProveError::Input(InputError::file(model_path, e.to_string())))?;
    work(&super::doll_proof::Job {
        model_path,
        model_bytes: &model_bytes,
        puzzle: &puzzle,
        packing,
        dir,
        control: &options.control,
    })
}

/// `prove MODEL -o DIR --stream --jobs FILE`: finds the table, writes the folder of a
/// streamed run (the model, the table, the witness and `plan.txt`) and returns its shards'
/// names, first to last, each for one job ([`prove_stream_job`]); nothing is proved yet. A
/// folder's earlier certificate files are removed.
pub fn plan_stream_jobs(
    model_path: &Path,
    dir: &Path,
    options: &ProveOptions,
) -> Result<Vec<String>, ProveError> {
    streamed_job(model_path, dir, options, |job| {
        super::doll_proof::plan_jobs(job, shard_split(options), streaming(options))
    })
}

/// `prove MODEL -o DIR --job NAME`: proves the shard `name` of the streamed run in `dir`
/// (planned by [`plan_stream_jobs`]), streaming its proof into both checkers, and writes its
/// record `NAME.json` there, which it returns; a proof that passes
/// [`ProveOptions::stream_shard_bytes`] as it is written is given up and its shard cut, the
/// parts' records written and returned instead. A checker's refusal is
/// [`ProveError::Refused`], naming the shard (its record is written all the same).
pub fn prove_stream_job(
    model_path: &Path,
    dir: &Path,
    name: &str,
    options: &ProveOptions,
) -> Result<Vec<super::ShardRecord>, ProveError> {
    streamed_job(model_path, dir, options, |job| {
        super::doll_proof::prove_job(job, name, streaming(options))
    })
}

/// The packing `prove` certifies by VeriPB ([`PackingRoute`]), if any; an error (why the
/// instance is not taken) when [`PackingRoute::Veripb`] was asked for and does not apply.
fn veripb_route<'p>(
    puzzle: &'p Puzzle,
    dir: &Path,
    options: &ProveOptions,
) -> Result<Option<&'p Packing>, String> {
    let packing = super::table::applies(puzzle);
    match options.packing_route {
        PackingRoute::Table => Ok(None),
        PackingRoute::Veripb if options.count => {
            Err("the search-written VeriPB proof certifies an optimum, not a count".into())
        }
        PackingRoute::Veripb => {
            let packing = packing.ok_or(
                "the search-written VeriPB proof certifies maximum packings without piece minimums only",
            )?;
            proof_supports(&packing.instance).map_err(|e| e.to_string())?;
            Ok(Some(packing))
        }
        // A SAT solver named, a count asked for, or a folder of table steps to combine:
        // the table's route, as before the search wrote proofs.
        PackingRoute::Auto if options.solver.is_some() || options.count => Ok(None),
        PackingRoute::Auto if super::table::holds_steps(dir) => Ok(None),
        PackingRoute::Auto => Ok(packing.filter(|p| proof_supports(&p.instance).is_ok())),
    }
}
