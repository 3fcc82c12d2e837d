//! Certificates of maximum packing by the proof the Russian doll writes as it searches:
//! `prove --veripb` (see [`crate::engines::russian_doll::write_proof`] for the proof's
//! shape, `docs/certificates.md` and `docs/proof-design.md`).
//!
//! The folder holds, besides `manifest.json`, `model.toml` and `witness.txt`:
//!
//! * [`OPB_FILE`]: the packing model as an OPB file, which `check` rebuilds from the model
//!   and compares byte for byte (the proof is about this file, so it must be the model's);
//! * [`PROOF_FILE`]: the VeriPB 3.0 proof that the objective `-(pieces)` is at least
//!   `-optimum`, ending in `conclusion BOUNDS -optimum -optimum`.
//!
//! `prove` checks the proof with puzzlec's PB checker before it writes the manifest;
//! `check` checks it again with it, and with `veripb` when that is on PATH: two checkers
//! that share no code.
//!
//! The proof can also be cut into shards, ranges of table entries each with its own OPB
//! file and proof, the later entries as premises: for clusters (`prove --veripb --shard
//! I/N`) and threads (`--veripb-shards N`); see `shards`.

mod bound;
mod shards;
mod streamed;

pub use bound::{write_bound_proof, CellWeights};

pub(super) use shards::check as check_shards;
pub(super) use shards::{is_shard_proof_role, is_sharded};
pub use streamed::Replay;
pub(super) use streamed::{check as check_streamed, check_under_way, holds_plan, is_streamed};

use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use sha2::{Digest, Sha256};

use super::read::CheckedFolder;
use super::write::{write_error, write_manifest, Folder, Record, StreamMode};
use super::{
    verified_witness, witness_text, CheckError, Checked, Claim, EncodingEntry, FileEntry, Manifest,
    ProveError, WITNESS_FILE,
};
use crate::base::error::InputError;
use crate::base::evidence::{BoundFinder, Evidence, PackingBound, Words};
use crate::base::shard::Shard;
use crate::base::Control;
use crate::base::Goal;
use crate::checkers::pb::{check_pb_files, PbConclusion};
use crate::driver::bound_race::meet_bound;
use crate::driver::packing::assignment_of;
use crate::driver::packing_bounds::{
    lp_dual_weights, packing_bounds, row_lp_weights, LpOutcome, LP_BEFORE_SEARCH,
};
use crate::driver::Backend;
use crate::engines::russian_doll::{
    packing_opb, write_proof_with, DollProofError, DollProofOptions,
};
use crate::formats::lines::WriteError;
use crate::formats::opb::{write_opb, OpbFile};
use crate::geometry::placements::PackingInstance;
use crate::model::{Assignment, Var};
use crate::puzzle::packing::Packing;
use crate::puzzle::{Puzzle, Solution};

/// The OPB file of the packing model inside the folder.
pub const OPB_FILE: &str = "model.opb";
/// The manifest role of [`OPB_FILE`].
pub const OPB_ROLE: &str = "opb";
/// The VeriPB proof inside the folder.
pub const PROOF_FILE: &str = "proof.pbp";
/// The manifest role of [`PROOF_FILE`]; its presence marks a search-written certificate.
pub const PROOF_ROLE: &str = "veripb-proof";

/// The text of `opb` (a packing model of [`packing_opb`]).
pub(super) fn opb_text(opb: &OpbFile) -> Vec<u8> {
    let mut bytes = Vec::new();
    // Writing into memory cannot fail.
    let _ = write_opb(opb, &mut bytes, &|| false);
    bytes
}

/// A file writer that hashes and counts what it writes.
struct Hashed<W> {
    inner: W,
    sha: Sha256,
    bytes: u64,
}

impl<W: Write> Write for Hashed<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.sha.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A maximum packing to certify by VeriPB: the model file and its bytes, the puzzle and its
/// packing, the certificate folder, and what stops the run.
#[derive(Clone, Copy)]
pub(super) struct Job<'a> {
    pub(super) model_path: &'a Path,
    pub(super) model_bytes: &'a [u8],
    pub(super) puzzle: &'a Puzzle,
    pub(super) packing: &'a Packing,
    pub(super) dir: &'a Path,
    pub(super) control: &'a Control,
}

/// How many shards the doll's proof is cut into when the folder holds none.
#[derive(Clone, Copy, Debug)]
pub(super) struct ShardSplit {
    /// At least this many (0: one proof of the whole table, no shards).
    pub(super) count: usize,
    /// More, when the proof's estimated size would make a shard larger than this.
    pub(super) max_bytes: Option<u64>,
}

/// Whether and how the doll's proof is streamed (see [`streamed`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Streaming<'a> {
    /// Streamed, stored, or streamed when the estimate calls for it.
    pub(super) mode: StreamMode,
    /// Only join the folder's records.
    pub(super) join: bool,
    /// No shard's proof estimated above this many bytes, where it can be helped.
    pub(super) budget: Option<u64>,
    /// Where `veripb` reads a streamed proof from: memory, or this folder's disk.
    pub(super) scratch: Option<&'a Path>,
    /// The bound on the proof search's memo, in clauses (0: none).
    pub(super) memo_clauses: usize,
}

impl<'a> Streaming<'a> {
    /// The shards of a streamed run: at least `split`'s count, within the budget.
    fn settings(&self, split: ShardSplit) -> streamed::Settings<'a> {
        streamed::Settings {
            count: split.count.max(1),
            budget: self.budget,
            scratch: self.scratch,
            memo_clauses: self.memo_clauses,
        }
    }
}

/// `prove` of a maximum packing by VeriPB: the join of a streamed run's records, or the rest
/// of the streamed run the folder holds; else one cutting-planes step when a packing meets
/// a bound ([`prove_by_bound`]; not with `shard`); else the doll's proof, streamed when
/// `streaming` says so (see [`streamed`]), or stored in shards on threads as `split` says
/// (or only `shard`'s, or those the folder holds, see [`shards`]), or as one proof when its
/// count is 0. `words` words the evidence a bound's manifest quotes (how the packing
/// meeting it was found).
pub(super) fn prove_veripb(
    job: &Job<'_>,
    shard: Option<Shard>,
    split: ShardSplit,
    streaming: Streaming<'_>,
    words: Words,
) -> Result<Manifest, ProveError> {
    if streaming.join {
        return streamed::join(job, 0.0, Instant::now());
    }
    let may_stream = shard.is_none() && streaming.mode != StreamMode::Never;
    if may_stream && streamed::holds_plan(job.dir) {
        return streamed::prove(job, streaming.settings(split), None);
    }
    if shard.is_none() {
        if let Some(manifest) = prove_by_bound(job, words)? {
            return Ok(manifest);
        }
    }
    if may_stream && streaming.mode == StreamMode::Always {
        return streamed::prove(job, streaming.settings(split), None);
    }
    if shard.is_none() && split.count == 0 && !shards::holds_shards(job.dir) {
        return prove(job);
    }
    shards::prove(job, shard, split, streaming)
}

/// Removes the plan and records of a streamed run from `dir` (if it is there), before a
/// certificate of another route is written into it: the new manifest will not list them.
pub(super) fn clear_streamed(dir: &Path) -> Result<(), ProveError> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for entry in entries {
        let entry = entry.map_err(|e| write_error(dir, &e))?;
        if streamed::is_streamed_file(&entry.file_name().to_string_lossy()) {
            let path = entry.path();
            std::fs::remove_file(&path).map_err(|e| write_error(&path, &e))?;
        }
    }
    Ok(())
}

/// `prove --jobs`: the folder and the plan of a streamed run written, its shards' names
/// returned, nothing proved.
pub(super) fn plan_jobs(
    job: &Job<'_>,
    split: ShardSplit,
    streaming: Streaming<'_>,
) -> Result<Vec<String>, ProveError> {
    streamed::plan_jobs(job, streaming.settings(split))
}

/// `prove --job NAME`: the shard `name` of the streamed run the folder holds, proved and
/// its record written (or, past the budget as written, its parts' records).
pub(super) fn prove_job(
    job: &Job<'_>,
    name: &str,
    streaming: Streaming<'_>,
) -> Result<Vec<crate::formats::shard_record::ShardRecord>, ProveError> {
    let one = ShardSplit {
        count: 1,
        max_bytes: None,
    };
    streamed::prove_job(job, name, streaming.settings(one))
}

/// The weights of the proof search's weighted cut: each scan row's LP dual, as `solve`
/// gives the doll (boxes of at most [`LP_BEFORE_SEARCH`] placements; larger ones get
/// none). Any weights are sound in the proof (its `pol` steps check them), and the table
/// they give is the same, so shards may each solve them.
pub(crate) fn proof_weights(
    instance: &PackingInstance,
    control: &Control,
) -> Vec<Option<CellWeights>> {
    if instance.placements.len() > LP_BEFORE_SEARCH {
        return Vec::new();
    }
    row_lp_weights(instance, control, control.stop_flag())
}

/// The doll's single proof of the maximum packing of `job`.
fn prove(job: &Job<'_>) -> Result<Manifest, ProveError> {
    let Job {
        model_path,
        packing,
        dir,
        control,
        ..
    } = *job;
    let start = Instant::now();
    let (mut folder, opb) = opb_folder(job)?;
    let proof_path = dir.join(PROOF_FILE);
    let (proof, entry) = write_hashed(
        &proof_path,
        PROOF_FILE,
        model_path,
        "",
        control,
        |out, stop| {
            let weights = proof_weights(&packing.instance, control);
            let options = DollProofOptions {
                row_weights: &weights,
                ..DollProofOptions::default()
            };
            write_proof_with(&packing.instance, &options, out, stop)
        },
    )?;
    folder.files.insert(PROOF_ROLE.to_string(), entry);
    let how = format!(
        "the native Russian-doll search (memo of exhausted states with dead cells and relaxed lookups, the lookahead cut, the area cut and, on boxes of at most {LP_BEFORE_SEARCH} placements, the cut by each scan row's LP dual weights, one thread; no symmetry) found a packing of {} and wrote, as it searched, a VeriPB proof ({PROOF_FILE}: {} derived constraints over {} search nodes, {} memo hits, {} lookahead cuts, {} area cuts, {} weight cuts) that at most {} pieces fit in {OPB_FILE}, the packing model; checked by puzzlec's PB checker; the witness is verified by the puzzle's rules",
        proof.optimum,
        proof.derived,
        proof.nodes,
        proof.memo_hits,
        proof.lookahead_cuts,
        proof.area_cuts,
        proof.weight_cuts,
        proof.optimum
    );
    let single = SingleProof {
        optimum: proof.optimum,
        best: &proof.best,
        how,
        solve_seconds: start.elapsed().as_secs_f64(),
    };
    finish_single(job, folder, &opb, single, start)
}

/// The time a packing that meets a bound is looked for before the doll's proof: a tiling
/// or a greedy packing meeting the bound is found in a fraction of a second when it is
/// found at all (T tetrominoes 12 x 12, skew tetrominoes 15 x 15).
const BOUND_TRY: std::time::Duration = std::time::Duration::from_secs(2);

/// The VeriPB certificate of `packing` by a bound ([`bound`]), when a packing found within
/// [`BOUND_TRY`] meets the area bound or the LP bound (the LP solved only for models the
/// native search solves it before searching,
/// [`LP_BEFORE_SEARCH`](crate::driver::packing_bounds::LP_BEFORE_SEARCH) placements at most) and
/// whole cell weights prove it; `None` otherwise, for the doll's proof to follow.
fn prove_by_bound(job: &Job<'_>, words: Words) -> Result<Option<Manifest>, ProveError> {
    let (packing, control) = (job.packing, job.control);
    let start = Instant::now();
    let Some(mut known) = packing_bounds(packing, control, true) else {
        return Ok(None);
    };
    if known.lp == LpOutcome::Unfinished {
        known.lp = LpOutcome::Skipped {
            placements: packing.instance.placements.len(),
        };
    }
    let deadline = Instant::now() + control.remaining().map_or(BOUND_TRY, |r| r.min(BOUND_TRY));
    let never = AtomicBool::new(false);
    let found = meet_bound(packing, known, Some(deadline), &never, &|_| {}, &|_| {})
        .map(|met| (met.placements, met.evidence))
        .or_else(|| {
            matches!(known.lp, LpOutcome::Solved { .. })
                .then(|| sat_meeting(job.puzzle, packing, known.best(), control))
                .flatten()
        });
    let Some((placements, finder)) = found else {
        return Ok(None);
    };
    let value = placements.len();
    let instance = &packing.instance;
    let weights = [CellWeights::area(instance)]
        .into_iter()
        .chain(
            matches!(known.lp, LpOutcome::Solved { .. })
                .then(|| lp_dual_weights(instance, control))
                .flatten(),
        )
        .find(|w| w.bound() == value && w.holds(instance));
    let Some(weights) = weights else {
        return Ok(None);
    };
    let (mut folder, opb) = opb_folder(job)?;
    let mut proof = Vec::new();
    // Into memory cannot fail: the proof is a few lines.
    let _ = write_bound_proof(instance, &weights, &placements, &mut proof);
    folder.put(PROOF_ROLE, PROOF_FILE, &proof)?;
    let total: u64 = weights.weights.iter().sum();
    let step = if weights == CellWeights::area(instance) {
        format!(
            "each cell's at-most-one, summed and divided by {}",
            weights.divisor
        )
    } else {
        format!(
            "the LP relaxation's dual as whole cell weights, {total} in all, every placement's cells weighing at least {}: the cells' at-most-ones so weighted, summed and divided by {}",
            weights.divisor, weights.divisor
        )
    };
    let how = format!(
        "{}; {PROOF_FILE} derives that at most {value} pieces fit in {OPB_FILE}, the packing model, in one cutting-planes step ({step}); checked by puzzlec's PB checker; the witness is verified by the puzzle's rules",
        words(&finder)
    );
    let single = SingleProof {
        optimum: value,
        best: &placements,
        how,
        solve_seconds: start.elapsed().as_secs_f64(),
    };
    finish_single(job, folder, &opb, single, start).map(Some)
}

/// How long SAT may look for a packing that meets the LP bound when the quick searches
/// did not find one: skew tetrominoes in 14 x 14 (LP bound 46, the optimum) take it about
/// half a second, where the greedy packing reaches 45.
const SAT_TRY: std::time::Duration = std::time::Duration::from_secs(3);

/// A packing of `bound` pieces found by SAT ("at least `bound`") within [`SAT_TRY`], as
/// placement indices, and how it was found; `None` if none was found in time.
fn sat_meeting(
    puzzle: &Puzzle,
    packing: &Packing,
    bound: PackingBound,
    control: &Control,
) -> Option<(Vec<usize>, Evidence)> {
    let budget = Control::new(
        std::sync::Arc::new(AtomicBool::new(control.should_stop())),
        Some(control.remaining().map_or(SAT_TRY, |r| r.min(SAT_TRY))),
    );
    let goal = Goal::AtLeast(bound.value());
    let outcome = crate::driver::solve(puzzle, Backend::Sat, goal, &budget).ok();
    let Some(Solution::Packing(solution)) = outcome.and_then(|o| o.solution) else {
        // varisat cannot be interrupted: a call still under way when the time is up runs on
        // beside the doll's proof until it ends, so it gets the lowest priority and takes
        // little of the cores the proof uses.
        crate::driver::portfolio::yield_threads(&["puzzlec-sat"]);
        return None;
    };
    let assignment = assignment_of(packing, &solution);
    let placements: Vec<usize> = (0..packing.instance.placements.len())
        .filter(|&i| assignment.value(Var::from_index(i)))
        .collect();
    (placements.len() == bound.value()).then(|| {
        let found = Evidence::BoundMet {
            by: BoundFinder::Varisat,
            value: placements.len(),
            nodes: None,
            bound,
        };
        (placements, found)
    })
}

/// A fresh certificate folder for `job` holding the model and the packing's [`OPB_FILE`]
/// (shard and table files of an earlier certificate removed), and that OPB file.
fn opb_folder(job: &Job<'_>) -> Result<(Folder, OpbFile), ProveError> {
    let mut folder = Folder::fresh(job.dir, job.model_bytes)?;
    shards::clear_stale(job.dir, &[], 0)?;
    let (opb, _) = packing_opb(&job.packing.instance);
    folder.put(OPB_ROLE, OPB_FILE, &opb_text(&opb))?;
    Ok((folder, opb))
}

/// A single proof of an optimum, written into its folder, before the witness and the check.
struct SingleProof<'a> {
    optimum: usize,
    /// The packing's placement indices.
    best: &'a [usize],
    how: String,
    solve_seconds: f64,
}

/// Writes the witness of `single` into `folder` (verified by the rules first), checks
/// [`PROOF_FILE`] with puzzlec's PB checker (as every route checks its proofs before it
/// keeps them) and writes the manifest.
fn finish_single(
    job: &Job<'_>,
    mut folder: Folder,
    opb: &OpbFile,
    single: SingleProof<'_>,
    start: Instant,
) -> Result<Manifest, ProveError> {
    let puzzle = job.puzzle;
    let internal = ProveError::Internal;
    let dir = folder.dir.clone();
    let mut values = vec![false; opb.declared_variables];
    for &i in single.best {
        values[i] = true;
    }
    let witness = Assignment::new(values);
    puzzle
        .verify(&puzzle.decode(&witness))
        .map_err(|e| internal(format!("the packing to certify: {e}")))?;
    folder.put(
        "witness",
        WITNESS_FILE,
        witness_text(puzzle, &witness).as_bytes(),
    )?;

    let check_start = Instant::now();
    let checked = check_pb_files(&dir.join(OPB_FILE), &dir.join(PROOF_FILE)).map_err(|e| {
        internal(format!(
            "{PROOF_FILE}: puzzlec's PB checker refused it: {e}"
        ))
    })?;
    let value = -(single.optimum as i64);
    if checked.conclusion != bounds(value) {
        return Err(internal(format!(
            "{PROOF_FILE}: concludes {:?}, not the optimum {}",
            checked.conclusion, single.optimum
        )));
    }
    let encoding = EncodingEntry {
        at_most_one: "one OPB row per cell covered twice or more".into(),
        objective: "min: minus the placements".into(),
        refuted: Some(format!("objective below -{}", single.optimum)),
        variables: opb.declared_variables,
        clauses: opb.constraints.len(),
        cuts: 0,
    };
    let record = Record {
        claim: Claim::Optimal {
            value: single.optimum,
        },
        how: single.how,
        encoding,
        files: folder.files,
        solve_seconds: single.solve_seconds,
        refute_seconds: check_start.elapsed().as_secs_f64(),
    };
    write_manifest(&dir, job.model_path, job.model_bytes, puzzle, record, start)
}

/// The PB checker's conclusion for an optimum of `value` (the objective is minus the
/// pieces).
fn bounds(value: i64) -> PbConclusion {
    PbConclusion::Bounds {
        lower: Some(value),
        upper: Some(value),
    }
}

/// Writes a proof into `path` through `write` (given the writer and the stop test), streamed
/// and hashed as it goes; returns what `write` returned and the file's manifest entry,
/// named `name`. Errors: a stop, the file's, the model's (an instance the proof does not
/// take) and the search's own (`context` before it).
fn write_hashed<T>(
    path: &Path,
    name: &str,
    model_path: &Path,
    context: &str,
    control: &Control,
    write: impl FnOnce(&mut dyn Write, &dyn Fn() -> bool) -> Result<T, DollProofError>,
) -> Result<(T, FileEntry), ProveError> {
    let file = std::fs::File::create(path).map_err(|e| write_error(path, &e))?;
    let mut out = Hashed {
        inner: BufWriter::with_capacity(1 << 20, file),
        sha: Sha256::new(),
        bytes: 0,
    };
    let should_stop = || control.should_stop();
    let written = match write(&mut out, &should_stop) {
        Ok(written) => written,
        Err(DollProofError::Write(WriteError::Stopped)) => {
            return Err(ProveError::Stopped(control.reason()))
        }
        Err(DollProofError::Write(WriteError::Io(e))) => return Err(write_error(path, &e)),
        Err(DollProofError::Unsupported(why)) => {
            return Err(ProveError::Input(InputError::file(
                model_path,
                DollProofError::Unsupported(why).to_string(),
            )))
        }
        Err(
            e @ (DollProofError::Doll(_)
            | DollProofError::TableDiffers { .. }
            | DollProofError::StateHolds),
        ) => {
            return Err(ProveError::Internal(format!(
                "{context}the Russian doll: {e}"
            )))
        }
    };
    out.flush().map_err(|e| write_error(path, &e))?;
    let entry = FileEntry {
        name: name.to_string(),
        bytes: out.bytes,
        sha256: Some(format!("{:x}", out.sha.finalize())),
    };
    Ok((written, entry))
}

/// What a certificate of the doll's table entries (sharded or streamed: `what`, as its
/// errors name it) rests on, checked by [`super::table::check_table_and_witness`]: the
/// packing, the optimum the manifest claims and the table.
pub(super) fn table_of_entries<'p>(
    folder: &CheckedFolder,
    manifest: &Manifest,
    puzzle: &'p Puzzle,
    what: &str,
    steps: &mut Vec<String>,
) -> Result<(&'p Packing, usize, super::table::Table), CheckError> {
    let (packing, optimum) =
        super::table::packing_and_optimum(puzzle, manifest, super::MANIFEST_FILE, what)?;
    let (table, _) = super::table::check_table_and_witness(
        folder,
        manifest,
        (puzzle, packing),
        optimum,
        ("entry", " (the witness's size) at entry 0"),
        steps,
    )?;
    Ok((packing, optimum, table))
}

/// `check` of a certificate with [`PROOF_ROLE`] (the manifest's files were compared with
/// their SHA-256 already).
pub(super) fn check(
    folder: &CheckedFolder,
    manifest: &Manifest,
    puzzle: &Puzzle,
    mut steps: Vec<String>,
) -> Result<Checked, CheckError> {
    let failed = CheckError::Failed;
    let model_name = &manifest.model.file;
    let (packing, optimum) =
        super::table::packing_and_optimum(puzzle, manifest, PROOF_FILE, "a search-written proof")?;
    let dir = folder.dir;
    let file_of = |role: &str| folder.file_of(manifest, role);
    steps.push(format!(
        "{model_name}: SHA-256 matches the manifest (packing puzzle, {} placements)",
        packing.instance.placements.len()
    ));
    let witness_name = file_of("witness")?;
    let (_, step) = verified_witness(
        witness_name,
        &folder.text(witness_name)?,
        packing.instance.placements.len(),
        puzzle,
        &manifest.claim,
    )?;
    steps.push(step);

    let opb_name = file_of(OPB_ROLE)?;
    let (opb, _) = packing_opb(&packing.instance);
    if folder.read(opb_name)? != opb_text(&opb) {
        return Err(failed(format!(
            "{opb_name}: not the OPB file of {model_name} (rebuilt from the model, it differs)"
        )));
    }
    steps.push(format!(
        "{opb_name}: the packing model of {model_name}, rebuilt and compared byte for byte"
    ));

    let proof_name = file_of(PROOF_ROLE)?;
    let (opb_path, proof_path) = (dir.join(opb_name), dir.join(proof_name));
    let value = -(optimum as i64);
    let expected = format!("s VERIFIED BOUNDS {value} <= obj <= {value}");
    let (ours, theirs) = both_checkers(&opb_path, &proof_path, proof_name, &expected);
    let outcome = ours.map_err(|e| failed(format!("{proof_name}: puzzlec's PB checker: {e}")))?;
    if outcome.conclusion != bounds(value) {
        return Err(failed(format!(
            "{proof_name}: puzzlec's PB checker: the proof concludes {:?}, not the claimed optimum {optimum}",
            outcome.conclusion
        )));
    }
    let stats = &outcome.stats;
    steps.push(format!(
        "{proof_name}: puzzlec's PB checker accepts {} steps ({} definitions, {} hinted rup, {} pol) concluding {value} <= objective <= {value} ({:.1} s)",
        stats.steps, stats.red, stats.hinted_rup, stats.pol, stats.seconds
    ));
    steps.push(theirs?);
    Ok(Checked {
        steps,
        conclusion: format!("certified: {optimum} is the optimum of {model_name}"),
    })
}

/// puzzlec's PB checker and [`veripb_step`] on one proof at the same time: they share no
/// code, and each takes a core (13 x 19: 19 s and 29 s one after the other).
fn both_checkers(
    opb: &Path,
    proof: &Path,
    name: &str,
    expected: &str,
) -> (
    Result<crate::checkers::pb::PbOutcome, crate::checkers::pb::PbError>,
    Result<String, CheckError>,
) {
    std::thread::scope(|scope| {
        let theirs = scope.spawn(|| veripb_step(opb, proof, name, expected));
        let ours = check_pb_files(opb, proof);
        let theirs = theirs.join().unwrap_or_else(|_| {
            Err(CheckError::Failed(format!(
                "{name}: the thread running veripb panicked"
            )))
        });
        (ours, theirs)
    })
}

/// `veripb`'s verdict on the proof when it is on PATH, as a step; a refusal, or a verdict
/// other than the line `expected`, is an error.
fn veripb_step(opb: &Path, proof: &Path, name: &str, expected: &str) -> Result<String, CheckError> {
    if !crate::oracle::external::on_path("veripb") {
        return Ok(format!(
            "{name}: veripb is not on PATH, not run (cargo install veripb --locked)"
        ));
    }
    let started = Instant::now();
    let output = Command::new("veripb")
        .arg(opb)
        .arg(proof)
        .output()
        .map_err(|e| CheckError::Failed(format!("{name}: veripb did not run: {e}")))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() || !stdout.lines().any(|l| l.trim() == expected) {
        let said = stdout
            .lines()
            .chain(String::from_utf8_lossy(&output.stderr).lines())
            .rfind(|l| !l.trim().is_empty())
            .unwrap_or("nothing")
            .to_string();
        return Err(CheckError::Failed(format!(
            "{name}: veripb refused it: {said}"
        )));
    }
    Ok(format!(
        "{name}: veripb says \"{expected}\" ({:.1} s)",
        started.elapsed().as_secs_f64()
    ))
}
