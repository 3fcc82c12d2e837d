//! The search-written proof in shards: `prove --veripb --shard I/N`, combined folders, and
//! `check` of the glue between the shards.
//!
//! # The argument
//!
//! The table (`table.txt`, as the table route writes it: the scan order and `S[0..P]`) is
//! cut into ranges of entries that tile `0..P`. The shard of the range `a..b` is an OPB
//! file ([`shard_opb`]) and its VeriPB proof ([`write_shard_proof`]):
//!
//! * its premises are the later entries `q >= b`, each "at most `S[q]` pieces start at `q`
//!   or later" written over the placements (only those that bound anything: `S[q]` below
//!   the placements starting there);
//! * a selector variable per entry of the range, exactly one true, guards that forbid the
//!   placements starting in `a..q` when `t_q` is selected, and the objective
//!   `sum S[q] t_q - (the placements starting at a or later)`;
//! * the proof concludes `BOUNDS 0 INF`: with `t_q` selected the objective is `S[q]` minus
//!   the pieces starting at `q` or later, so "objective >= 0" is every entry of the range at
//!   once. (A shard whose objective were only its first entry's pieces would prove only
//!   that entry, while the earlier shards' searches cut with every later entry.)
//!
//! Soundness, by induction from the last shard back: the last shard has no premises, so
//! its entries hold; a shard's premises are the table's later entries, which the later
//! shards proved; so every entry holds, and `S[0]`, the witness's size, is the optimum.
//! `check` trusts nothing of the search: it rebuilds every shard's OPB file from the model
//! and the table and compares it byte for byte (so the premises are exactly the later
//! entries, which exactly the later shards conclude), checks that the ranges tile `0..P`,
//! that the table has the doll's shape and reaches the witness, and runs both checkers on
//! every proof.
//!
//! # Files
//!
//! `shard-AAA-BBB.opb` (role `veripb-shard-AAA-BBB-opb`) and `shard-AAA-BBB.pbp` (role
//! `veripb-shard-AAA-BBB`) for the entries `AAA <= c < BBB`, beside `table.txt` (role
//! `table`), `witness.txt`, `model.toml` and `manifest.json`.
//!
//! # Shards on several machines
//!
//! `prove --veripb --shard I/N` runs the (fast) doll on one thread for the table and its
//! nodes per entry, then proves only the `I`-th of the `N` ranges [`split`] cuts from them, and writes a manifest naming it ("PARTIAL"). `prove --veripb
//! --veripb-shards N` proves all `N` ranges, on threads.
//! To combine, copy the `shard-*` files of all shards into one folder and run `prove
//! --veripb` there without `--shard`: it keeps every shard whose OPB file is the rebuilt
//! one and whose proof puzzlec's PB checker accepts, proves the ranges still missing, and
//! writes the full manifest. `check --shard I/N` checks the glue and the proof of shard `I`
//! of `N` only.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use super::super::read::{check_digest, first_difference, CheckedFolder};
use super::super::table::{proved_table, Table, TABLE_FILE, TABLE_ROLE};
use super::super::write::StreamMode;
use super::super::write::{file_entry, write_error, write_manifest, Folder, Record};
use super::super::{
    witness_text, CheckError, Checked, Claim, EncodingEntry, FileEntry, Manifest, ProveError,
    MANIFEST_FILE, WITNESS_FILE,
};
use super::streamed::{self, is_streamed_file, STREAM_ABOVE};
use super::{both_checkers, opb_text, write_hashed, Job, ShardSplit, Streaming};
use crate::base::error::InputError;
use crate::base::shard::Shard;
use crate::base::Control;
use crate::checkers::pb::{check_pb_files, PbConclusion};
use crate::driver::packing_bounds::LP_BEFORE_SEARCH;
use crate::engines::russian_doll::{
    self, packing_opb, shard_opb, write_shard_proof_with, DollOptions, DollOutcome,
    DollProofOptions, ShardOpb,
};
use crate::geometry::placements::PackingInstance;
use crate::puzzle::Puzzle;

/// The start of a shard proof's manifest role; its presence marks a sharded certificate.
const ROLE_PREFIX: &str = "veripb-shard-";

/// What every shard concludes: its objective is at least 0 (no upper bound is claimed).
const CONCLUSION: PbConclusion = PbConclusion::Bounds {
    lower: Some(0),
    upper: None,
};

/// `veripb`'s line for [`CONCLUSION`].
const VERIPB_VERDICT: &str = "s VERIFIED BOUNDS 0 <= obj <= INF";

/// Whether `manifest` is of a sharded search-written certificate.
pub(in crate::cert::certificate) fn is_sharded(manifest: &Manifest) -> bool {
    manifest
        .files
        .keys()
        .any(|role| role.starts_with(ROLE_PREFIX))
}

/// Whether `role` is that of a shard's proof (`veripb-shard-AAA-BBB`, not its OPB file).
pub(in crate::cert::certificate) fn is_shard_proof_role(role: &str) -> bool {
    role.starts_with(ROLE_PREFIX) && !role.ends_with("-opb")
}

/// `shard-AAA-BBB`, the stem of the files of the entries `range` (at least three digits, as
/// many as the last position needs).
pub(in crate::cert::certificate) fn stem(range: &Range<usize>, positions: usize) -> String {
    let digits = positions.to_string().len().max(3);
    format!(
        "shard-{:0digits$}-{:0digits$}",
        range.start,
        range.end,
        digits = digits
    )
}

/// The range a file stem `shard-AAA-BBB` names.
pub(in crate::cert::certificate) fn parse_stem(stem: &str) -> Option<Range<usize>> {
    let (a, b) = stem.strip_prefix("shard-")?.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    if !digits(a) || !digits(b) {
        return None;
    }
    let (a, b) = (a.parse().ok()?, b.parse().ok()?);
    (a < b).then_some(a..b)
}

/// At most `count` ranges that tile the entries, first to last, each holding about an equal
/// share of `nodes` (per entry, [`table_nodes`]): a range ends once it holds its share (an
/// entry is never split, so one heavy entry may take a range alone). Equal numbers of
/// entries would not do: 13 x 19 in two halves took 1.85 M proof nodes against 0.35 M.
pub fn split(nodes: &[u64], count: usize) -> Vec<Range<usize>> {
    let positions = nodes.len();
    let count = count.clamp(1, positions.max(1));
    let total: u64 = nodes.iter().sum();
    let mut ranges = Vec::new();
    let (mut start, mut sum) = (0, 0u64);
    for (c, &n) in nodes.iter().enumerate() {
        sum += n;
        let cuts_left = count - 1 - ranges.len();
        // Entry c ends a range once the nodes so far reach the next share.
        let share = total * (ranges.len() as u64 + 1) / count as u64;
        if cuts_left > 0 && sum >= share && positions - c > cuts_left {
            ranges.push(start..c + 1);
            start = c + 1;
        }
    }
    if start < positions {
        ranges.push(start..positions);
    }
    ranges
}

/// The fast doll on one thread (so every machine of a cluster finds the same nodes, and
/// cuts the same shards): its outcome, with the nodes of each entry. Its search differs
/// from the proof's (the lookahead), but the entries that are hard for one are
/// hard for the other. Both make the area cut on the same entries (V pentominoes in
/// 14 x 14: the doll 30 M nodes with it, 176 M without; the proof 17 M nodes, 3.7 GB).
/// An entry that rises counts no nodes: its proof is one line, with no search.
pub(in crate::cert::certificate) fn table_nodes(
    instance: &PackingInstance,
    control: &Control,
) -> Result<DollOutcome, String> {
    let doll = DollOptions {
        stop: Some(control.stop_flag()),
        threads: 1,
        memo_bytes: russian_doll::memo_bytes_for(control),
        ..DollOptions::default()
    };
    let mut outcome = russian_doll::solve(instance, &doll, |_, _| {}).map_err(|e| e.to_string())?;
    for (c, nodes) in outcome.entry_nodes.iter_mut().enumerate() {
        if let (Some(Some(here)), Some(Some(next))) =
            (outcome.table.get(c), outcome.table.get(c + 1))
        {
            if here != next {
                *nodes = 0;
            }
        }
    }
    Ok(outcome)
}

/// One shard proved (or kept): its manifest entries and figures.
struct Proved {
    range: Range<usize>,
    opb: FileEntry,
    proof: FileEntry,
    /// `None` when kept from an earlier run.
    nodes: Option<u64>,
    derived: u64,
    write_seconds: f64,
    check_seconds: f64,
}

/// Bytes of proof per node of the fast doll's search of the same entries, above what the
/// large boxes write (16 x 16 crosses 607: 8.13 GB over 13.4 M nodes; 17 x 17 528: 34.5 GB
/// over 65.4 M; the fast doll's memo grows with its search, so it visits fewer nodes than
/// the proof's search, which keeps its memo fixed); small boxes write more per node (9 x 9
/// about 2,700) but megabytes in all: the estimate [`ShardSplit::max_bytes`] and a
/// streamed run's plan are held to before writing.
pub(in crate::cert::certificate) const PROOF_BYTES_PER_DOLL_NODE: u64 = 600;

/// The proof's bytes estimated from `nodes` of the fast doll.
pub(in crate::cert::certificate) fn proof_bytes_estimate(nodes: u64) -> u64 {
    PROOF_BYTES_PER_DOLL_NODE.saturating_mul(nodes)
}

/// How many shards `shards` asks for, given the fast doll's `nodes` per entry, and when
/// that is more than its count for the memory, the manifest's words saying so.
fn shard_count(nodes: &[u64], shards: ShardSplit) -> (usize, String) {
    let estimate = proof_bytes_estimate(nodes.iter().sum());
    let needed = match shards.max_bytes {
        Some(max) if max > 0 => usize::try_from(estimate.div_ceil(max)).unwrap_or(usize::MAX),
        _ => 0,
    };
    if needed <= shards.count {
        return (shards.count, String::new());
    }
    let max = shards.max_bytes.unwrap_or_default();
    let words = format!(
        " (more than {}, so that each is estimated under {max} bytes: about {estimate} bytes in all, {PROOF_BYTES_PER_DOLL_NODE} per node of the fast doll)",
        shards.count
    );
    (needed, words)
}

/// Whether proofs estimated from `nodes` of the fast doll fit in `free` bytes of disk
/// (`None`: not known, taken as room); if not, why, in words.
fn disk_room(nodes: u64, free: Option<u64>) -> Result<(), String> {
    let estimate = proof_bytes_estimate(nodes);
    match free {
        Some(free) if estimate > free => Err(format!(
            "the proofs to write are estimated at about {estimate} bytes ({PROOF_BYTES_PER_DOLL_NODE} per node of the fast doll's {nodes}), more than the {free} bytes free there: free space, or prove the shards on machines with room (--shard I/N, see docs/certificates.md)"
        )),
        _ => Ok(()),
    }
}

/// The bytes free to an unprivileged writer on the file system that holds `dir` (or its
/// nearest existing ancestor), if the system says.
fn free_bytes(dir: &Path) -> Option<u64> {
    let mut at = dir.to_path_buf();
    while !at.exists() {
        match at.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => at = parent.to_path_buf(),
            _ => {
                at = PathBuf::from(".");
                break;
            }
        }
    }
    free_bytes_at(&at)
}

#[cfg(unix)]
fn free_bytes_at(path: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: `statvfs` is plain data, for which all zeros is a valid value.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `path` is NUL-terminated and outlives the call; `stat` is writable.
    if unsafe { libc::statvfs(path.as_ptr(), &mut stat) } != 0 {
        return None;
    }
    #[allow(clippy::unnecessary_cast)] // the field types differ between systems
    Some((stat.f_bavail as u64).saturating_mul(stat.f_frsize as u64))
}

#[cfg(not(unix))]
fn free_bytes_at(_path: &Path) -> Option<u64> {
    None
}

/// `prove --veripb` in shards: every range of [`split`] into as many as `shards` asks (or
/// those the folder already holds), or with `shard` only its range.
pub(super) fn prove(
    job: &Job<'_>,
    shard: Option<Shard>,
    shards: ShardSplit,
    streaming: Streaming<'_>,
) -> Result<Manifest, ProveError> {
    let Job {
        model_path,
        model_bytes,
        puzzle,
        packing,
        dir,
        control,
    } = *job;
    let start = Instant::now();
    let internal = ProveError::Internal;
    let instance = &packing.instance;
    let outcome = table_nodes(instance, control)
        .map_err(|e| internal(format!("the Russian-doll search: {e}")))?;
    if control.should_stop() {
        return Err(ProveError::Stopped(control.reason()));
    }
    let (table, _, witness) = proved_table(&outcome, puzzle, packing)?;
    let optimum = outcome.best.len();
    let searched = start.elapsed().as_secs_f64();

    let positions = table.order.len();
    let mut cut_for_memory = String::new();
    let held = existing(dir);
    // Proofs too large to store comfortably are streamed instead, unless asked otherwise.
    let estimate = proof_bytes_estimate(outcome.entry_nodes.iter().sum());
    if shard.is_none()
        && held.is_empty()
        && streaming.mode == StreamMode::Auto
        && estimate > STREAM_ABOVE
    {
        return streamed::prove(job, streaming.settings(shards), Some(outcome));
    }
    let ranges = match shard {
        Some(s) => {
            let all = split(&outcome.entry_nodes, s.count as usize);
            let Some(range) = all.get(s.index as usize - 1) else {
                return Err(ProveError::Input(InputError::file(
                    model_path,
                    format!(
                        "--shard {s}: the table has {positions} entries, so at most {positions} shards"
                    ),
                )));
            };
            vec![range.clone()]
        }
        None => {
            // Combining: the ranges the folder holds decide, the split only fills gaps.
            let default = if held.is_empty() {
                let (count, words) = shard_count(&outcome.entry_nodes, shards);
                cut_for_memory = words;
                split(&outcome.entry_nodes, count)
            } else {
                Vec::new()
            };
            tiling(&held, &default, positions)
        }
    };
    // The proofs are tens of gigabytes on the large boxes: never start what cannot fit.
    let to_write: u64 = ranges
        .iter()
        .filter(|range| !held.contains(range))
        .map(|range| outcome.entry_nodes[range.clone()].iter().sum::<u64>())
        .sum();
    disk_room(to_write, free_bytes(dir)).map_err(|message| ProveError::Write {
        path: dir.to_path_buf(),
        message,
    })?;
    let mut folder = Folder::fresh(dir, model_bytes)?;
    clear_stale(dir, &ranges, positions)?;

    let proved: Vec<Result<Proved, ProveError>> = ranges
        .par_iter()
        .map(|range| {
            if control.should_stop() {
                return Err(ProveError::Stopped(control.reason()));
            }
            prove_shard(model_path, dir, instance, &table, range.clone(), control)
        })
        .collect();
    let proved: Vec<Proved> = proved.into_iter().collect::<Result<_, _>>()?;
    let mut figures = Vec::new();
    let mut derived = 0;
    for shard in proved {
        let name = stem(&shard.range, positions);
        figures.push(match shard.nodes {
            Some(nodes) => format!(
                "{name}: {nodes} nodes, {} bytes, written in {:.1} s, checked in {:.1} s",
                shard.proof.bytes, shard.write_seconds, shard.check_seconds
            ),
            None => format!(
                "{name}: kept, {} bytes, checked in {:.1} s",
                shard.proof.bytes, shard.check_seconds
            ),
        });
        derived += shard.derived;
        folder
            .files
            .insert(format!("{ROLE_PREFIX}{}-opb", &name[6..]), shard.opb);
        folder
            .files
            .insert(format!("{ROLE_PREFIX}{}", &name[6..]), shard.proof);
    }
    folder.put(
        "witness",
        WITNESS_FILE,
        witness_text(puzzle, &witness).as_bytes(),
    )?;
    folder.put(TABLE_ROLE, TABLE_FILE, table.text(packing.width).as_bytes())?;
    let partial = match shard {
        Some(s) => format!(
            "; PARTIAL: shard {s} holds entries {:?} only (copy the shard-* files of all shards into one folder and run prove there to complete it)",
            ranges[0]
        ),
        None => String::new(),
    };
    let how = format!(
        "the native Russian-doll search found a packing of {optimum} and the suffix table ({TABLE_FILE}); the table's {positions} entries are proved in {} shard(s){cut_for_memory} by the proof-writing doll (memo of exhausted states with dead cells and relaxed lookups, one thread per shard, a memo of its own per shard, the lookahead cut, the area cut and, on boxes of at most {LP_BEFORE_SEARCH} placements, the cut by each scan row's LP dual weights; no symmetry), each a VeriPB proof ({derived} derived constraints in all: {}) that every entry of its range holds given the later entries as premises, checked by puzzlec's PB checker; the witness is verified by the puzzle's rules{partial}",
        ranges.len(),
        figures.join("; ")
    );
    let (opb, _) = packing_opb(instance);
    let encoding = EncodingEntry {
        at_most_one: "one OPB row per cell covered twice or more".into(),
        objective: "per shard: the selected entry's bound minus the placements starting in or after its range".into(),
        refuted: Some(format!("per shard: objective below 0 (entry 0: more than {optimum})")),
        variables: opb.declared_variables,
        clauses: opb.constraints.len(),
        cuts: 0,
    };
    let record = Record {
        claim: Claim::Optimal { value: optimum },
        how,
        encoding,
        files: folder.files,
        // The doll's search for the table, then the shards written and checked (in
        // parallel), both wall time.
        solve_seconds: searched,
        refute_seconds: start.elapsed().as_secs_f64() - searched,
    };
    write_manifest(dir, model_path, model_bytes, puzzle, record, start)
}

/// Whether `dir` holds the files of a shard (a folder where shards are being combined).
pub(in crate::cert::certificate) fn holds_shards(dir: &Path) -> bool {
    !existing(dir).is_empty()
}

/// The shard ranges whose two files are in `dir`.
fn existing(dir: &Path) -> Vec<Range<usize>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<Range<usize>> = entries
        .filter_map(|e| {
            let name = e.ok()?.file_name().to_string_lossy().into_owned();
            let range = parse_stem(name.strip_suffix(".pbp")?)?;
            dir.join(name.replace(".pbp", ".opb"))
                .is_file()
                .then_some(range)
        })
        .collect();
    found.sort_by_key(|r| (r.start, std::cmp::Reverse(r.end)));
    found
}

/// Ranges that tile `0..positions`: from each position on, the longest range the folder
/// holds that starts there, else a new range up to the next one the folder holds or the
/// next cut of `default`, whichever comes first.
fn tiling(held: &[Range<usize>], default: &[Range<usize>], positions: usize) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < positions {
        let usable = |r: &&Range<usize>| r.start == at && r.end <= positions;
        let next = match held.iter().find(usable) {
            Some(r) => r.clone(),
            None => {
                let end = held
                    .iter()
                    .map(|r| r.start)
                    .chain(default.iter().map(|r| r.end))
                    .filter(|&e| e > at)
                    .min()
                    .unwrap_or(positions)
                    .min(positions);
                at..end
            }
        };
        at = next.end;
        out.push(next);
    }
    out
}

/// Removes the shard files of other ranges (from former runs), stale step proofs of the
/// table route and the plan and records of a streamed run, which the new manifest will not
/// list.
pub(in crate::cert::certificate) fn clear_stale(
    dir: &Path,
    ranges: &[Range<usize>],
    positions: usize,
) -> Result<(), ProveError> {
    let keep: Vec<String> = ranges.iter().map(|r| stem(r, positions)).collect();
    let entries = std::fs::read_dir(dir).map_err(|e| write_error(dir, &e))?;
    for entry in entries {
        let entry = entry.map_err(|e| write_error(dir, &e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let shard_file = [".opb", ".pbp"].iter().any(|ext| {
            name.strip_suffix(ext)
                .is_some_and(|s| parse_stem(s).is_some() && !keep.iter().any(|k| k == s))
        });
        let streamed = is_streamed_file(&name);
        if shard_file || streamed || name.starts_with("step-") || name == TABLE_FILE {
            let path = entry.path();
            std::fs::remove_file(&path).map_err(|e| write_error(&path, &e))?;
        }
    }
    Ok(())
}

/// Proves the shard `range` into `dir`, or keeps the files there if its OPB file is the
/// rebuilt one and puzzlec's PB checker accepts its proof.
fn prove_shard(
    model_path: &Path,
    dir: &Path,
    instance: &PackingInstance,
    table: &Table,
    range: Range<usize>,
    control: &Control,
) -> Result<Proved, ProveError> {
    let positions = table.order.len();
    let name = stem(&range, positions);
    let (opb_name, proof_name) = (format!("{name}.opb"), format!("{name}.pbp"));
    let (opb_path, proof_path) = (dir.join(&opb_name), dir.join(&proof_name));
    let shard = shard_opb(instance, &table.order, &table.entries, range.clone());
    let opb_bytes = opb_text(&shard.file);
    let opb_entry = file_entry(&opb_name, &opb_bytes);
    if std::fs::read(&opb_path).is_ok_and(|found| found == opb_bytes) {
        let started = Instant::now();
        if let Ok(checked) = check_pb_files(&opb_path, &proof_path) {
            if checked.conclusion == CONCLUSION {
                let proof = std::fs::read(&proof_path).map_err(|e| write_error(&proof_path, &e))?;
                return Ok(Proved {
                    range,
                    opb: opb_entry,
                    proof: file_entry(&proof_name, &proof),
                    nodes: None,
                    derived: checked.stats.largest_id - checked.stats.formula_constraints,
                    write_seconds: 0.0,
                    check_seconds: started.elapsed().as_secs_f64(),
                });
            }
        }
    }
    std::fs::write(&opb_path, &opb_bytes).map_err(|e| write_error(&opb_path, &e))?;
    let started = Instant::now();
    let (written, proof_entry) = write_hashed(
        &proof_path,
        &proof_name,
        model_path,
        &format!("{proof_name}: "),
        control,
        |out, stop| {
            let weights = super::proof_weights(instance, control);
            let options = DollProofOptions {
                row_weights: &weights,
                ..DollProofOptions::default()
            };
            write_shard_proof_with(instance, &options, &shard, &table.entries, out, stop)
        },
    )?;
    let write_seconds = started.elapsed().as_secs_f64();
    // Checked before it is kept, as every route's proofs are.
    let started = Instant::now();
    let checked = check_pb_files(&opb_path, &proof_path).map_err(|e| {
        ProveError::Internal(format!(
            "{proof_name}: puzzlec's PB checker refused it: {e}"
        ))
    })?;
    if checked.conclusion != CONCLUSION {
        return Err(ProveError::Internal(format!(
            "{proof_name}: concludes {:?}, not {CONCLUSION:?}",
            checked.conclusion
        )));
    }
    Ok(Proved {
        range,
        opb: opb_entry,
        proof: proof_entry,
        nodes: Some(written.nodes),
        derived: written.derived,
        write_seconds,
        check_seconds: started.elapsed().as_secs_f64(),
    })
}

/// A shard listed in the manifest.
struct Listed<'m> {
    range: Range<usize>,
    opb: &'m str,
    /// The proof's manifest entry.
    proof_entry: &'m FileEntry,
}

impl<'m> Listed<'m> {
    /// The proof's file name.
    fn proof(&self) -> &'m str {
        &self.proof_entry.name
    }
}

/// `check` of a sharded certificate (the manifest's files were compared with their
/// SHA-256 already, but for one shard's check the shards' proofs): the witness, the
/// table's shape, the tiling, every shard's OPB file rebuilt, and the proofs (of `shard`
/// only, if given, its SHA-256 compared first) by both checkers.
pub(in crate::cert::certificate) fn check(
    folder: &CheckedFolder,
    manifest: &Manifest,
    puzzle: &Puzzle,
    shard: Option<Shard>,
    mut steps: Vec<String>,
) -> Result<Checked, CheckError> {
    let failed = CheckError::Failed;
    let model_name = &manifest.model.file;
    let (packing, optimum, table) = super::table_of_entries(
        folder,
        manifest,
        puzzle,
        "a search-written proof",
        &mut steps,
    )?;
    let instance = &packing.instance;
    let positions = table.order.len();
    let table_name = folder.file_of(manifest, TABLE_ROLE)?;

    // The shards: listed in pairs, ranges that tile 0..P.
    let listed = listed_shards(manifest, positions)?;
    let wanted = match shard {
        // A folder of N shards: shard I/N is its I-th, no search needed to find it.
        Some(s) if listed.len() == s.count as usize => {
            Some(listed[s.index as usize - 1].range.clone())
        }
        // A partial folder of one shard (`prove --shard I/N`): that one, whose entries the
        // conclusion names.
        Some(_) if listed.len() == 1 => Some(listed[0].range.clone()),
        Some(s) => {
            // Some shards of N: the same split as prove's, from the fast doll's nodes on one
            // thread.
            let outcome = table_nodes(instance, &Control::unlimited())
                .map_err(|e| failed(format!("the Russian-doll search: {e}")))?;
            let all = split(&outcome.entry_nodes, s.count as usize);
            let Some(range) = all.get(s.index as usize - 1) else {
                return Err(failed(format!(
                    "--shard {s}: the table has {positions} entries, so at most {positions} shards"
                )));
            };
            if !listed.iter().any(|l| l.range == *range) {
                return Err(failed(format!(
                    "{MANIFEST_FILE}: shard {s} is the entries {range:?}, and {}.pbp is not listed",
                    stem(range, positions)
                )));
            }
            Some(range.clone())
        }
        None => {
            let mut at = 0;
            for l in &listed {
                if l.range.start != at {
                    return Err(failed(format!(
                        "{MANIFEST_FILE}: no shard proves the entries {at}..{} (a shard is missing)",
                        l.range.start
                    )));
                }
                at = l.range.end;
            }
            if at != positions {
                return Err(failed(format!(
                    "{MANIFEST_FILE}: no shard proves the entries {at}..{positions} (a shard is missing)"
                )));
            }
            steps.push(format!(
                "{MANIFEST_FILE}: {} shards whose ranges tile the entries 0..{positions}",
                listed.len()
            ));
            None
        }
    };

    // Every listed shard's OPB file, rebuilt from the model and the table.
    for l in &listed {
        let rebuilt = shard_opb(instance, &table.order, &table.entries, l.range.clone());
        let text = opb_text(&rebuilt.file);
        let found = folder.read(l.opb)?;
        if found != text {
            return Err(failed(opb_difference(
                l, &rebuilt, &text, &found, &table, &listed, table_name, positions,
            )));
        }
    }
    steps.push(format!(
        "{}: each rebuilt from {model_name} and {table_name} and compared byte for byte: a shard's premises are exactly the table's later entries, which the later shards prove",
        listed.iter().map(|l| l.opb).collect::<Vec<_>>().join(", ")
    ));

    // The proofs, one shard after the other, each by both checkers at once (one core
    // each): two shards at once would need twice the memory (17 x 17: a shard of 9.9 GB
    // took 17.8 GB with both checkers).
    let checked: Vec<&Listed> = listed
        .iter()
        .filter(|l| wanted.as_ref().is_none_or(|r| *r == l.range))
        .collect();
    let dir = folder.dir;
    if shard.is_some() {
        for l in &checked {
            check_digest(dir, l.proof_entry)?;
            steps.push(format!("{}: SHA-256 matches the manifest", l.proof()));
        }
    }
    let results: Vec<Result<Vec<String>, CheckError>> = checked
        .iter()
        .map(|l| {
            let (opb_path, proof_path) = (dir.join(l.opb), dir.join(l.proof()));
            let (ours, theirs) = both_checkers(&opb_path, &proof_path, l.proof(), VERIPB_VERDICT);
            let outcome = ours.map_err(|e| {
                failed(format!(
                    "{} (entries {:?}): puzzlec's PB checker: {e}",
                    l.proof(), l.range
                ))
            })?;
            if outcome.conclusion != CONCLUSION {
                return Err(failed(format!(
                    "{} (entries {:?}): puzzlec's PB checker: the proof concludes {:?}, not that every entry of its range holds (BOUNDS 0 INF)",
                    l.proof(), l.range, outcome.conclusion
                )));
            }
            let stats = &outcome.stats;
            let ours = format!(
                "{}: puzzlec's PB checker accepts {} steps concluding objective >= 0: entries {}..{} hold ({:.1} s)",
                l.proof(), stats.steps, l.range.start, l.range.end, stats.seconds
            );
            Ok(vec![ours, theirs?])
        })
        .collect();
    for result in results {
        steps.extend(result?);
    }
    let conclusion = match (shard, wanted) {
        (Some(s), Some(range)) if s.count > 1 => format!(
            "partly certified: shard {s} (entries {range:?}) of {model_name} holds (the optimum {optimum} is certified once every shard 1/{}..{}/{} passes)",
            s.count, s.count, s.count
        ),
        _ => format!("certified: {optimum} is the optimum of {model_name}"),
    };
    Ok(Checked { steps, conclusion })
}

/// The shards the manifest lists, by range; each with its proof and OPB file, named by
/// its range, no two overlapping.
fn listed_shards(manifest: &Manifest, positions: usize) -> Result<Vec<Listed<'_>>, CheckError> {
    let failed = CheckError::Failed;
    let mut listed = Vec::new();
    for (role, entry) in &manifest.files {
        let Some(rest) = role.strip_prefix(ROLE_PREFIX) else {
            continue;
        };
        if rest.ends_with("-opb") {
            continue;
        }
        let name = format!("shard-{rest}");
        let range = parse_stem(&name)
            .filter(|r| r.end <= positions && stem(r, positions) == name)
            .ok_or_else(|| {
                failed(format!(
                    "{MANIFEST_FILE}: role {role} names no range of entries within 0..{positions}"
                ))
            })?;
        if entry.name != format!("{name}.pbp") {
            return Err(failed(format!(
                "{MANIFEST_FILE}: role {role} is the file {}, not {name}.pbp",
                entry.name
            )));
        }
        let opb = manifest
            .files
            .get(&format!("{role}-opb"))
            .filter(|e| e.name == format!("{name}.opb"))
            .ok_or_else(|| {
                failed(format!(
                    "{MANIFEST_FILE}: {name}.pbp is listed without {name}.opb (role {role}-opb)"
                ))
            })?;
        listed.push(Listed {
            range,
            opb: &opb.name,
            proof_entry: entry,
        });
    }
    listed.sort_by_key(|l| l.range.start);
    for pair in listed.windows(2) {
        if pair[1].range.start < pair[0].range.end {
            return Err(failed(format!(
                "{MANIFEST_FILE}: {} and {} overlap",
                pair[0].proof(),
                pair[1].proof()
            )));
        }
    }
    Ok(listed)
}

/// Why the OPB file of `shard` is not the rebuilt one, in words: a premise names the
/// later entry and the shard that proves it.
#[allow(clippy::too_many_arguments)]
fn opb_difference(
    shard: &Listed,
    rebuilt: &ShardOpb,
    text: &[u8],
    found: &[u8],
    table: &Table,
    listed: &[Listed],
    table_name: &str,
    positions: usize,
) -> String {
    let expected = String::from_utf8_lossy(text);
    let found = String::from_utf8_lossy(found);
    let line = expected
        .lines()
        .zip(found.lines())
        .position(|(e, f)| e != f)
        .map(|i| i + 1);
    // Line 1 is the header, line 2 the objective, then constraint k on line k + 2.
    let premise = line.and_then(|line| {
        rebuilt
            .premises
            .iter()
            .find(|&&(_, id)| id + 2 == line as u64)
    });
    if let (Some(line), Some(&(q, _))) = (line, premise) {
        let prover = listed
            .iter()
            .find(|l| l.range.contains(&q))
            .map_or_else(|| stem(&(q..q + 1), positions), |l| l.proof().to_string());
        let said = found.lines().nth(line - 1).unwrap_or("");
        let bound = said
            .rsplit_once(">=")
            .map_or(said, |(_, bound)| bound)
            .trim();
        return format!(
            "{} (entries {:?}): line {line}, the premise of entry {q}, ends in \">= {bound}\", but {table_name} gives S[{q}] = {}, the bound {prover} proves (the premise must be exactly that)",
            shard.opb,
            shard.range,
            table.entries[q]
        );
    }
    format!(
        "{} (entries {:?}): not the OPB file rebuilt from the model and {table_name}: {}",
        shard.opb,
        shard.range,
        first_difference(&expected, &found).unwrap_or_default()
    )
}

#[cfg(test)]
mod tests {
    use super::{disk_room, free_bytes, parse_stem, split, stem, tiling};

    #[test]
    fn proofs_estimated_beyond_the_free_disk_are_refused_before_writing() {
        assert_eq!(disk_room(333, Some(200_000)), Ok(()));
        assert_eq!(disk_room(1_000, None), Ok(()));
        assert_eq!(
            disk_room(334, Some(200_000)),
            Err("the proofs to write are estimated at about 200400 bytes (600 per node of the fast doll's 334), more than the 200000 bytes free there: free space, or prove the shards on machines with room (--shard I/N, see docs/certificates.md)".to_string())
        );
    }

    #[cfg(unix)]
    #[test]
    fn free_space_is_read_from_the_nearest_folder_that_exists() {
        let dir = tempfile::tempdir().unwrap();
        let here = free_bytes(dir.path()).expect("statvfs answers for a temporary folder");
        let below = free_bytes(&dir.path().join("not/yet/made")).unwrap();
        // The same file system, read twice: within what another writer may take meanwhile.
        assert!(here.abs_diff(below) < 1 << 30, "{here} against {below}");
        assert!(free_bytes(std::path::Path::new("no-such-folder/cert")).is_some());
    }

    #[test]
    fn a_split_gives_each_range_its_share_of_the_nodes() {
        // Entry 0 alone holds half the nodes: it takes the first of two ranges alone.
        assert_eq!(split(&[10, 4, 3, 3], 2), vec![0..1, 1..4]);
        assert_eq!(split(&[1, 1, 1, 1, 1, 1], 3), vec![0..2, 2..4, 4..6]);
        // More shards than entries: one entry each.
        assert_eq!(split(&[5, 5], 4), vec![0..1, 1..2]);
        assert_eq!(split(&[7, 0, 0], 1), vec![0..3]);
    }

    #[test]
    fn combining_keeps_the_ranges_held_and_fills_the_gaps() {
        let default = [0..2, 2..5, 5..8];
        // Held 3..6 splits the default's 2..5 before it; after it the default cuts at 8.
        let held: Vec<std::ops::Range<usize>> = std::iter::once(3..6).collect();
        assert_eq!(tiling(&held, &default, 8), vec![0..2, 2..3, 3..6, 6..8]);
        // Of two held ranges from the same start, the longest (listed first) is kept.
        assert_eq!(tiling(&[0..5, 0..2, 5..8], &[], 8), vec![0..5, 5..8]);
        assert_eq!(tiling(&[], &[], 4), vec![0..4]);
    }

    #[test]
    fn a_shard_stem_names_its_range() {
        assert_eq!(stem(&(12..123), 247), "shard-012-123");
        assert_eq!(stem(&(0..9), 1000), "shard-0000-0009");
        assert_eq!(parse_stem("shard-012-123"), Some(12..123));
        for bad in [
            "shard-5-5",
            "shard-7-3",
            "shard-1-x",
            "shard--2",
            "step-001-002",
        ] {
            assert_eq!(parse_stem(bad), None, "{bad}");
        }
    }
}
