//! `prove` of a streamed certificate: the table found by the fast doll, the plan of shards
//! written (`plan.txt`), each shard's proof streamed into its checkers and its record
//! written, and the records joined into the manifest. The same steps run as independent
//! jobs: [`plan_jobs`] writes the folder and the plan, [`prove_job`] proves one shard by
//! its name, and [`join`] writes the manifest once every record is there; a run in a folder
//! that holds a plan resumes it, keeping the records already written.

use std::cell::Cell;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::super::shards::{
    clear_stale, proof_bytes_estimate, table_nodes, PROOF_BYTES_PER_DOLL_NODE,
};
use super::super::{opb_text, proof_weights, CellWeights, Job};
use super::complete::proved_by_parts;
use super::fit::{cut, parts_left, uncuttable, Reached};
use super::piece::{build, frontier, state_record, Piece};
use super::plan::{plan, Plan};
use super::reach::{CountAtFailure, Reach};
use super::records::record_pieces;
use super::stream::{stream, StreamError, Streamed};
use super::{PLAN_FILE, ROLE_PREFIX};
use crate::base::digest::sha256_hex;
use crate::base::error::InputError;
use crate::base::usage::process_usage;
use crate::cert::certificate::table::{proved_table, Table, TABLE_FILE, TABLE_ROLE};
use crate::cert::certificate::write::{write_error, write_manifest, Folder, Record};
use crate::cert::certificate::{
    witness_text, Claim, EncodingEntry, Manifest, ProveError, MANIFEST_FILE, MODEL_FILE,
    WITNESS_FILE,
};
use crate::driver::packing_bounds::LP_BEFORE_SEARCH;
use crate::engines::russian_doll::{
    packing_opb, DollOutcome, DollProofError, DollProofOptions, StateClaim,
};
use crate::formats::shard_record::{
    read_plan, read_shard_record, write_plan, write_shard_record, EntryRange, FileDigest,
    ShardRecord, SplitPart, Verdict, RECORD_FORMAT,
};

/// How a streamed run cuts its shards and streams their proofs.
#[derive(Clone, Copy, Debug)]
pub(in crate::cert::certificate) struct Settings<'a> {
    /// At least this many shards (one per core by default).
    pub(in crate::cert::certificate) count: usize,
    /// No shard's proof estimated above this many bytes, where it can be helped.
    pub(in crate::cert::certificate) budget: Option<u64>,
    /// Where `veripb` reads each proof from: memory (`None`) or an unnamed file on the disk
    /// of this folder.
    pub(in crate::cert::certificate) scratch: Option<&'a Path>,
    /// The bound on the proof search's memo, in clauses (0: none).
    pub(in crate::cert::certificate) memo_clauses: usize,
}

impl Settings<'_> {
    /// The budget shards are planned for: on a scratch disk half the most a shard may
    /// write, since the plan's estimate (from the fast doll's nodes) falls short where the
    /// memo's bound makes the proof search repeat itself, and a shard past the most is
    /// given up and written again in pieces; in memory, the most itself.
    fn planned_budget(&self) -> Option<u64> {
        match self.scratch {
            Some(_) => self.budget.map(|most| most / 2),
            None => self.budget,
        }
    }
}

/// What a run's shards are proved against, and how they are streamed: its `settings`'
/// budget is the most bytes a shard's proof may have as it is written (one past it is
/// cut), and its memo bound is the one records say.
struct Run<'a> {
    table: Table,
    table_sha256: String,
    plan: Plan,
    settings: Settings<'a>,
}

impl Run<'_> {
    /// The options of the search that writes this run's proofs.
    fn proof_options<'w>(&self, weights: &'w [Option<CellWeights>]) -> DollProofOptions<'w> {
        DollProofOptions {
            row_weights: weights,
            memo_clauses: self.settings.memo_clauses,
            ..DollProofOptions::default()
        }
    }
}

/// A streamed certificate of `job` into its folder: a fresh run (the fast doll's `outcome`
/// when already found), or the rest of the run whose plan the folder holds; then the join.
pub(in crate::cert::certificate) fn prove(
    job: &Job<'_>,
    settings: Settings<'_>,
    outcome: Option<DollOutcome>,
) -> Result<Manifest, ProveError> {
    let start = Instant::now();
    let run = if holds_plan(job.dir) {
        resume(job, settings)?
    } else {
        fresh(job, settings, outcome)?
    };
    let searched = start.elapsed().as_secs_f64();
    prove_missing(job, &run)?;
    join(job, searched, start)
}

/// Whether `dir` holds the plan of a streamed run (one being proved or joined).
pub(in crate::cert::certificate) fn holds_plan(dir: &Path) -> bool {
    dir.join(PLAN_FILE).is_file()
}

/// The first steps of [`prove`] only, for jobs: the folder (model, table, witness) and the
/// plan written; the shards' names, in order. In a folder holding a run under way, its
/// plan is kept and the shards named are those without a record yet, so that a stopped
/// run's job list is written again without losing what it proved.
pub(in crate::cert::certificate) fn plan_jobs(
    job: &Job<'_>,
    settings: Settings<'_>,
) -> Result<Vec<String>, ProveError> {
    let run = if holds_plan(job.dir) {
        resume(job, settings)?
    } else {
        // A fresh plan clears the folder's records: every shard is missing.
        fresh(job, settings, None)?
    };
    let positions = run.table.order.len();
    Ok(missing(job.dir, &run)
        .into_iter()
        .map(|p| p.name(positions))
        .collect())
}

/// The shards of `run`'s plan whose records the folder `dir` does not hold, in order; a
/// shard cut by an earlier run whose parts all have records is not missing.
fn missing<'r>(dir: &Path, run: &'r Run) -> Vec<&'r Piece> {
    let positions = run.table.order.len();
    let recorded = record_pieces(dir, positions);
    (run.plan.pieces.iter())
        .filter(|p| !recorded.contains(p))
        .filter(|p| !proved_by_parts(dir, &recorded, p, positions))
        .collect()
}

/// Where the record of the shard `name` is.
fn record_path(dir: &Path, name: &str) -> std::path::PathBuf {
    dir.join(format!("{name}.json"))
}

/// The fast doll's table (`outcome`, or found here), the folder written afresh, the plan.
fn fresh<'a>(
    job: &Job<'_>,
    settings: Settings<'a>,
    outcome: Option<DollOutcome>,
) -> Result<Run<'a>, ProveError> {
    let (instance, control) = (&job.packing.instance, job.control);
    let outcome = match outcome {
        Some(outcome) => outcome,
        None => table_nodes(instance, control)
            .map_err(|e| ProveError::Internal(format!("the Russian-doll search: {e}")))?,
    };
    if control.should_stop() {
        return Err(ProveError::Stopped(control.reason()));
    }
    let (table, _, witness) = proved_table(&outcome, job.puzzle, job.packing)?;
    let positions = table.order.len();
    let folder = Folder::fresh(job.dir, job.model_bytes)?;
    clear_stale(job.dir, &[], positions)?;
    let table_text = table.text(job.packing.width);
    folder.write(TABLE_FILE, table_text.as_bytes())?;
    folder.write(WITNESS_FILE, witness_text(job.puzzle, &witness).as_bytes())?;
    let weights = proof_weights(instance, control);
    let options = DollProofOptions {
        row_weights: &weights,
        ..DollProofOptions::default()
    };
    let plan = plan(
        instance,
        &options,
        &table.entries,
        &outcome.entry_nodes,
        settings.count,
        settings.planned_budget(),
    );
    let names: Vec<String> = plan.pieces.iter().map(|p| p.name(positions)).collect();
    let mut comments = vec![
        format!("puzzlec plan of a streamed certificate of {MODEL_FILE} over {TABLE_FILE}: one shard a line, whose record is NAME.json"),
        "`puzzlec prove MODEL -o DIR --job NAME` proves one; `prove` in DIR resumes; `prove --join` writes the manifest".to_string(),
    ];
    let nodes: u64 = outcome.entry_nodes.iter().sum();
    comments.push(format!(
        "{} shards; the proofs estimated at {} bytes in all ({PROOF_BYTES_PER_DOLL_NODE} per node of the fast doll's {nodes}), a shard's budget {}",
        plan.pieces.len(),
        proof_bytes_estimate(nodes),
        match (settings.budget, settings.planned_budget()) {
            (None, _) => "unbounded".to_string(),
            (Some(most), Some(planned)) if planned != most => format!(
                "{most} bytes, shards planned for {planned} (the estimate falls short where the memo's bound repeats search)"
            ),
            (Some(most), _) => format!("{most} bytes"),
        }
    ));
    if settings.memo_clauses > 0 {
        comments.push(format!(
            "the proof search's memo bounded at {} clauses",
            settings.memo_clauses
        ));
    }
    if !plan.over.is_empty() {
        comments.push(format!(
            "entries estimated above the memory bound with no search to split: {:?}",
            plan.over
        ));
    }
    folder.write(PLAN_FILE, write_plan(&comments, &names).as_bytes())?;
    Ok(Run {
        table_sha256: sha256_hex(table_text.as_bytes()),
        table,
        plan,
        settings,
    })
}

/// The run whose plan the folder holds: its table, and its plan's frontiers found again
/// (the same search finds the same states). The folder's model must be `job`'s.
fn resume<'a>(job: &Job<'_>, settings: Settings<'a>) -> Result<Run<'a>, ProveError> {
    let dir = job.dir;
    let (table, table_sha256) = folder_table(job)?;
    let plan_path = dir.join(PLAN_FILE);
    let text = std::fs::read_to_string(&plan_path)
        .map_err(|e| InputError::file(&plan_path, format!("cannot read: {e}")))?;
    let names = read_plan(&text).map_err(|e| InputError::file(&plan_path, e.to_string()))?;
    let positions = table.order.len();
    let mut plan = Plan::default();
    let instance = &job.packing.instance;
    let weights = proof_weights(instance, job.control);
    let options = DollProofOptions {
        row_weights: &weights,
        ..DollProofOptions::default()
    };
    for name in names {
        let piece = Piece::parse(&name, positions).ok_or_else(|| {
            InputError::file(&plan_path, format!("{name} is not the name of a shard"))
        })?;
        add_frontier(&mut plan, instance, &options, &table, &piece)?;
        plan.pieces.push(piece);
    }
    Ok(Run {
        table,
        table_sha256,
        plan,
        settings,
    })
}

/// The folder's table and its SHA-256, after checking that the folder's model is `job`'s.
fn folder_table(job: &Job<'_>) -> Result<(Table, String), ProveError> {
    let dir = job.dir;
    let model_path = dir.join(MODEL_FILE);
    let held = std::fs::read(&model_path).map_err(|e| {
        InputError::file(
            &model_path,
            format!("cannot read ({e}): the folder holds no streamed run (`prove --jobs FILE` starts one)"),
        )
    })?;
    if held != job.model_bytes {
        return Err(ProveError::Input(InputError::file(
            &model_path,
            format!(
                "not the model {} (the folder holds a run of another model)",
                job.model_path.display()
            ),
        )));
    }
    let table_path = dir.join(TABLE_FILE);
    let text = std::fs::read_to_string(&table_path)
        .map_err(|e| InputError::file(&table_path, format!("cannot read: {e}")))?;
    let table = Table::parse(&text, job.packing.width, job.packing.height)
        .map_err(|e| InputError::file(&table_path, e.to_string()))?;
    Ok((table, sha256_hex(text.as_bytes())))
}

/// The frontier `piece` needs, found and kept in `plan` once per split entry.
fn add_frontier(
    plan: &mut Plan,
    instance: &crate::geometry::placements::PackingInstance,
    options: &DollProofOptions,
    table: &Table,
    piece: &Piece,
) -> Result<(), ProveError> {
    let Some(depth) = piece.depth() else {
        return Ok(());
    };
    let entry = piece.entries().start;
    if plan.frontiers.contains_key(&(entry, depth)) {
        return Ok(());
    }
    let states = frontier(instance, options, &table.entries, entry, depth).ok_or_else(|| {
        ProveError::Refused(format!(
            "{}: entry {entry} has no search to split {depth} pieces below its root",
            piece.name(table.order.len())
        ))
    })?;
    if let Piece::States { states: run, .. } = piece {
        if run.end > states.len() {
            return Err(ProveError::Refused(format!(
                "{}: entry {entry}'s frontier has {} states",
                piece.name(table.order.len()),
                states.len()
            )));
        }
    }
    plan.frontiers.insert((entry, depth), states);
    Ok(())
}

/// Proves, on threads, every shard of the plan whose record is not in the folder.
fn prove_missing(job: &Job<'_>, run: &Run) -> Result<(), ProveError> {
    let missing = missing(job.dir, run);
    let weights = proof_weights(&job.packing.instance, job.control);
    let options = run.proof_options(&weights);
    let proved: Vec<Result<Vec<ShardRecord>, ProveError>> = missing
        .par_iter()
        .map(|piece| {
            if job.control.should_stop() {
                return Err(ProveError::Stopped(job.control.reason()));
            }
            let states = run.plan.states(piece);
            prove_fitting(job, run, &options, piece, states)
        })
        .collect();
    proved.into_iter().try_for_each(|r| r.map(|_| ()))
}

/// Proves `piece` (`states` as [`prove_piece`] takes them) within the run's cap: a shard
/// whose proof passes it as it is written is given up and cut where its search had come
/// (see [`cut`]), and its parts proved likewise; a piece an earlier run cut goes on with
/// the parts its records leave (see [`parts_left`]). The records written.
fn prove_fitting(
    job: &Job<'_>,
    run: &Run,
    options: &DollProofOptions,
    piece: &Piece,
    states: &[StateClaim],
) -> Result<Vec<ShardRecord>, ProveError> {
    let positions = run.table.order.len();
    let instance = &job.packing.instance;
    let entries = &run.table.entries;
    let parts = match parts_left(job.dir, (instance, options, entries), piece, states) {
        Some(parts) => parts,
        None => {
            // One that can never be cut is not held to the cap.
            let cap = run.settings.budget.filter(|_| !uncuttable(piece));
            let given_up = match prove_piece(job, run, options, piece, states, cap)? {
                Proved::Record(record) => return Ok(vec![*record]),
                Proved::TooLarge(given_up) => given_up,
            };
            let reached = Reached {
                finished: given_up.finished,
                heavy: cap.is_some_and(|cap| given_up.under_way > cap / 2),
            };
            let Some(parts) = cut((instance, options, entries), (piece, states), reached) else {
                // What cannot be cut is proved whole, over the cap.
                return match prove_piece(job, run, options, piece, states, None)? {
                    Proved::Record(record) => Ok(vec![*record]),
                    Proved::TooLarge(given_up) => Err(ProveError::Internal(format!(
                        "{}: given up at {} bytes without a cap",
                        piece.name(positions),
                        given_up.bytes
                    ))),
                };
            };
            let names: Vec<String> = parts.iter().map(|(p, _)| p.name(positions)).collect();
            job.control.note(&format!(
                "{}: given up at {} bytes, {} of its goals searched; cut into {}",
                piece.name(positions),
                given_up.bytes,
                given_up.finished,
                names.join(", ")
            ));
            parts
        }
    };
    let mut records = Vec::new();
    for (part, part_states) in parts {
        if job.control.should_stop() {
            return Err(ProveError::Stopped(job.control.reason()));
        }
        if !record_path(job.dir, &part.name(positions)).is_file() {
            records.extend(prove_fitting(job, run, options, &part, &part_states)?);
        }
    }
    Ok(records)
}

/// `prove MODEL -o DIR --job NAME`: proves the shard `name` of the run the folder holds and
/// writes its record, which it returns.
pub(in crate::cert::certificate) fn prove_job(
    job: &Job<'_>,
    name: &str,
    settings: Settings<'_>,
) -> Result<Vec<ShardRecord>, ProveError> {
    if !holds_plan(job.dir) {
        return Err(ProveError::Input(InputError::file(
            &job.dir.join(PLAN_FILE),
            "missing: the folder holds no streamed run under way (`prove --stream --jobs FILE` plans one; a joined run takes no more jobs)",
        )));
    }
    let (table, table_sha256) = folder_table(job)?;
    let positions = table.order.len();
    let piece = Piece::parse(name, positions).ok_or_else(|| {
        ProveError::Input(InputError::file(
            job.model_path,
            format!("--job {name}: not the name of a shard of a table of {positions} entries (`shard-AAA-BBB`, `entry-CCC-dD-glue`, `entry-CCC-dD-states-JJJ-KKK`)"),
        ))
    })?;
    if !piece.within().is_empty() {
        return Err(ProveError::Input(InputError::file(
            job.model_path,
            format!("--job {name}: a part of a state split as its proof was written; run the job it was cut from, which resumes it"),
        )));
    }
    // A job run again (its list run again after a stop) keeps its record and proves
    // nothing.
    let path = record_path(job.dir, name);
    if path.is_file() {
        return kept_record(&path).map(|record| vec![record]);
    }
    let instance = &job.packing.instance;
    let weights = proof_weights(instance, job.control);
    let mut run = Run {
        table,
        table_sha256,
        plan: Plan::default(),
        settings,
    };
    let options = run.proof_options(&weights);
    add_frontier(&mut run.plan, instance, &options, &run.table, &piece)?;
    let states = run.plan.states(&piece).to_vec();
    prove_fitting(job, &run, &options, &piece, &states)
}

/// The record at `path`, written by an earlier run of its job: refused as that run was when
/// a checker refused the shard.
fn kept_record(path: &Path) -> Result<ShardRecord, ProveError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| InputError::file(path, format!("cannot read: {e}")))?;
    let record = read_shard_record(&text).map_err(|e| InputError::file(path, e.to_string()))?;
    match record
        .checkers
        .iter()
        .find(|c| c.verdict == Verdict::Refused)
    {
        Some(refusal) => Err(refused(&record.shard, refusal)),
        None => Ok(record),
    }
}

/// The error of the shard `name` that the checker `refusal` refused.
fn refused(name: &str, refusal: &crate::formats::shard_record::CheckerRecord) -> ProveError {
    ProveError::Refused(format!(
        "{name}: {} refused the shard's proof: {} (record {name}.json)",
        refusal.name,
        refusal.message.as_deref().unwrap_or("no reason given")
    ))
}

/// A shard streamed: its record, or how far it came before it passed its cap and was given
/// up.
enum Proved {
    Record(Box<ShardRecord>),
    TooLarge(GivenUp),
}

/// A shard given up as its proof passed its cap.
struct GivenUp {
    /// The bytes written when it was given up.
    bytes: u64,
    /// Its goals searched to their end by then: entries from the last back, or states.
    finished: usize,
    /// The bytes the goal under way had written by then (0 if no failed write was seen).
    under_way: u64,
}

/// Streams the proof of `piece` (`states`: a glue's frontier, or a run's own states) into
/// both checkers, giving it up past `cap` bytes, and writes its record; a checker's refusal
/// fails it, naming the shard, with the record written all the same.
fn prove_piece(
    job: &Job<'_>,
    run: &Run,
    options: &DollProofOptions,
    piece: &Piece,
    states: &[StateClaim],
    cap: Option<u64>,
) -> Result<Proved, ProveError> {
    let table = &run.table;
    let positions = table.order.len();
    let name = piece.name(positions);
    let instance = &job.packing.instance;
    let built = build(instance, (&table.order, &table.entries), piece, states);
    let opb = opb_text(&built.opb);
    let finished = AtomicUsize::new(0);
    let at_cap = Cell::new(None);
    let write = |out: &mut dyn std::io::Write, stop: &dyn Fn() -> bool| {
        let mut out = CountAtFailure::new(out, &finished, &at_cap);
        built.write_proof(
            instance,
            options,
            &table.entries,
            &mut out,
            (stop, &finished),
        )
    };
    let scratch = run.settings.scratch;
    let streamed = match stream(&name, &opb, built.lower, &write, cap, scratch, job.control) {
        Ok(streamed) => streamed,
        Err(StreamError::TooLarge(bytes)) => {
            let reach = at_cap.get().unwrap_or(Reach {
                finished: finished.load(Ordering::Relaxed),
                under_way: 0,
            });
            return Ok(Proved::TooLarge(GivenUp {
                bytes,
                finished: reach.finished,
                under_way: reach.under_way,
            }));
        }
        Err(e) => return Err(stream_error(job, &name, e)),
    };
    let record = shard_record(job, run, piece, states, &opb, streamed);
    let path = record_path(job.dir, &name);
    // Written whole or not at all: a job killed part way leaves no record to trust.
    let partial = job.dir.join(format!("{name}.json.part"));
    std::fs::write(&partial, write_shard_record(&record))
        .and_then(|()| std::fs::rename(&partial, &path))
        .map_err(|e| write_error(&path, &e))?;
    if let Some(refusal) = record
        .checkers
        .iter()
        .find(|c| c.verdict == Verdict::Refused)
    {
        return Err(refused(&name, refusal));
    }
    Ok(Proved::Record(Box::new(record)))
}

/// The error of a shard that could not be streamed, naming it.
fn stream_error(job: &Job<'_>, name: &str, error: StreamError) -> ProveError {
    match error {
        StreamError::Stopped => ProveError::Stopped(job.control.reason()),
        StreamError::Search(DollProofError::Unsupported(why)) => ProveError::Input(
            InputError::file(job.model_path, DollProofError::Unsupported(why).to_string()),
        ),
        StreamError::Search(e) => ProveError::Internal(format!("{name}: the Russian doll: {e}")),
        StreamError::Io(e) => ProveError::Internal(format!("{name}: streaming the proof: {e}")),
        StreamError::TooLarge(bytes) => {
            ProveError::Internal(format!("{name}: given up at {bytes} bytes"))
        }
    }
}

/// The record of `piece`, streamed as `streamed` against the OPB text `opb`.
fn shard_record(
    job: &Job<'_>,
    run: &Run,
    piece: &Piece,
    states: &[StateClaim],
    opb: &[u8],
    streamed: Streamed,
) -> ShardRecord {
    let positions = run.table.order.len();
    let entries = piece.entries();
    let split = piece.role().map(|part| SplitPart {
        entry: entries.start,
        depth: piece.depth().unwrap_or(0),
        part,
        first: match piece {
            Piece::States { states, .. } => states.start,
            _ => 0,
        },
        states: states.iter().map(state_record).collect(),
        within: piece.within().to_vec(),
    });
    let mut writer = streamed.writer;
    writer.peak_memory_bytes = process_usage()
        .peak_memory_bytes
        .or(writer.peak_memory_bytes);
    ShardRecord {
        format: RECORD_FORMAT.to_string(),
        tool: format!("puzzlec {}", env!("CARGO_PKG_VERSION")),
        shard: piece.name(positions),
        model_sha256: sha256_hex(job.model_bytes),
        table_sha256: run.table_sha256.clone(),
        entries: EntryRange {
            start: entries.start,
            end: entries.end,
        },
        split,
        opb: FileDigest {
            sha256: sha256_hex(opb),
            bytes: opb.len() as u64,
        },
        proof: streamed.proof,
        nodes: streamed.written.nodes,
        derived: streamed.written.derived,
        memo_clauses: Some(run.settings.memo_clauses).filter(|&n| n > 0),
        writer,
        checkers: streamed.checkers,
    }
}

/// `prove --join`: the manifest of the folder's records, once they make a certificate (its
/// plan removed); then `check` of it, without replays. `searched` and `start` time it.
pub(in crate::cert::certificate) fn join(
    job: &Job<'_>,
    searched: f64,
    start: Instant,
) -> Result<Manifest, ProveError> {
    let dir = job.dir;
    let (table, _) = folder_table(job)?;
    let mut folder = Folder::open(dir)?;
    let read = |name: &str| -> Result<Vec<u8>, ProveError> {
        let path = dir.join(name);
        std::fs::read(&path)
            .map_err(|e| ProveError::Input(InputError::file(&path, format!("cannot read: {e}"))))
    };
    folder.files.insert(
        "witness".to_string(),
        crate::cert::certificate::write::file_entry(WITNESS_FILE, &read(WITNESS_FILE)?),
    );
    folder.files.insert(
        TABLE_ROLE.to_string(),
        crate::cert::certificate::write::file_entry(TABLE_FILE, &read(TABLE_FILE)?),
    );
    let records = super::records::record_files(dir, |e| write_error(dir, &e), read)?;
    for (name, bytes) in &records {
        let stem = name.strip_suffix(".json").unwrap_or(name);
        folder.files.insert(
            format!("{ROLE_PREFIX}{stem}"),
            crate::cert::certificate::write::file_entry(name, bytes),
        );
    }
    // The records must make a certificate before the plan goes.
    let held = super::check::held_records(
        job.packing,
        &table,
        job.model_bytes,
        &records,
        super::records::verify,
    )
    .map_err(ProveError::Refused)?;
    let plan_path = dir.join(PLAN_FILE);
    let plan = std::fs::read(&plan_path).ok();
    if plan.is_some() {
        std::fs::remove_file(&plan_path).map_err(|e| write_error(&plan_path, &e))?;
    }
    let how = how(&held, table.order.len());
    let (opb, _) = packing_opb(&job.packing.instance);
    let optimum = table.entries[0];
    let record = Record {
        claim: Claim::Optimal { value: optimum },
        how,
        encoding: EncodingEntry {
            at_most_one: "one OPB row per cell covered twice or more".into(),
            objective:
                "per shard: the selected entry's (or state's) bound minus the placements it counts"
                    .into(),
            refuted: Some(format!(
                "per shard: objective below its bound (entry 0: more than {optimum})"
            )),
            variables: opb.declared_variables,
            clauses: opb.constraints.len(),
            cuts: 0,
        },
        files: folder.files,
        solve_seconds: searched,
        refute_seconds: start.elapsed().as_secs_f64() - searched,
    };
    let manifest = write_manifest(
        dir,
        job.model_path,
        job.model_bytes,
        job.puzzle,
        record,
        start,
    )?;
    // The same check `check` makes, before the folder is called a certificate.
    let checked = crate::cert::certificate::check_using(
        dir,
        &crate::cert::certificate::CheckOptions::default(),
    );
    if let Err(e) = checked {
        let _ = std::fs::remove_file(dir.join(MANIFEST_FILE));
        if let Some(plan) = plan {
            let _ = std::fs::write(&plan_path, plan);
        }
        return Err(ProveError::Refused(e.to_string()));
    }
    Ok(manifest)
}

/// The manifest's `how` of `held`.
fn how(held: &[super::records::Held], positions: usize) -> String {
    let nodes: u64 = held.iter().map(|h| h.record.nodes).sum();
    let bytes: u64 = held.iter().map(|h| h.record.proof.bytes).sum();
    let split: Vec<usize> = held
        .iter()
        .filter(|h| matches!(&h.piece, Piece::Glue { within, .. } if within.is_empty()))
        .map(|h| h.piece.entries().start)
        .collect();
    let split = if split.is_empty() {
        String::new()
    } else {
        format!(", entries {split:?} split at their search states")
    };
    let veripb = held
        .iter()
        .filter(|h| {
            h.record.checkers.iter().any(|c| {
                c.name == super::stream::VERIPB
                    && c.verdict == crate::formats::shard_record::Verdict::Accepted
            })
        })
        .count();
    let shards = held.len();
    let veripb = match shards - veripb {
        0 => "veripb accepted every one".to_string(),
        missed => format!("veripb accepted {veripb} (it did not run on {missed})"),
    };
    format!(
        "the native Russian-doll search found a packing of the optimum and the suffix table ({TABLE_FILE}); its {positions} entries are proved in {shards} streamed shards{split} by the proof-writing doll (the memo, dead cells, relaxed lookups, the lookahead, area and, on boxes of at most {LP_BEFORE_SEARCH} placements, LP-weight cuts; one thread and one memo per shard; no symmetry): {nodes} search nodes and {bytes} bytes of VeriPB proof in all, each shard's proof written into its checkers as it was made and never stored; puzzlec's PB checker accepted every shard, {veripb}; each shard's record holds the SHA-256 of its OPB file and of its proof and the verdicts, and `check --replay` makes any shard again from the model and compares; the witness is verified by the puzzle's rules"
    )
}
