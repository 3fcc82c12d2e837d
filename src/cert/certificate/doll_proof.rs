//! Certificates of maximum packing by the proof the Russian doll writes as it searches:
//! `prove --veripb` (see [`crate::engines::russian_doll::write_proof`] for the proof's
//! shape, and `docs/certificates.md`).
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
//! I/N`) and threads (`--veripb-shards N`); see [`shards`].

mod shards;

pub(super) use shards::check as check_shards;
pub(super) use shards::{holds_shards, is_sharded, prove as prove_shards};

use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use sha2::{Digest, Sha256};

use super::read::CheckedFolder;
use super::write::{write_error, write_manifest, Folder, Record};
use super::{
    verified_witness, witness_text, CheckError, Checked, Claim, EncodingEntry, FileEntry, Manifest,
    ProveError, MANIFEST_FILE, WITNESS_FILE,
};
use crate::base::error::InputError;
use crate::base::Control;
use crate::checkers::pb::{check_pb_files, PbConclusion};
use crate::engines::russian_doll::{packing_opb, write_proof, DollProofError};
use crate::formats::lines::{LineWriter, WriteError};
use crate::formats::veripb::{write_opb, OpbFile};
use crate::model::Assignment;
use crate::puzzle::packing::Packing;
use crate::puzzle::Puzzle;

/// The OPB file of the packing model inside the folder.
pub const OPB_FILE: &str = "model.opb";
/// The manifest role of [`OPB_FILE`].
pub const OPB_ROLE: &str = "opb";
/// The VeriPB proof inside the folder.
pub const PROOF_FILE: &str = "proof.pbp";
/// The manifest role of [`PROOF_FILE`]; its presence marks a search-written certificate.
pub const PROOF_ROLE: &str = "veripb-proof";

/// The text of `opb` (a packing model of [`packing_opb`]).
fn opb_text(opb: &OpbFile) -> Vec<u8> {
    let mut bytes = Vec::new();
    let never = || false;
    let mut out = LineWriter::new(&mut bytes, &never);
    // Writing into memory cannot fail.
    let _ = write_opb(opb, &mut out);
    let _ = out.finish();
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

/// `prove --veripb` of the maximum packing `packing` (of `puzzle`).
pub(super) fn prove(
    model_path: &Path,
    model_bytes: &[u8],
    puzzle: &Puzzle,
    packing: &Packing,
    dir: &Path,
    control: &Control,
) -> Result<Manifest, ProveError> {
    let start = Instant::now();
    let internal = ProveError::Internal;
    let mut folder = Folder::fresh(dir, model_bytes)?;
    shards::clear_stale(dir, &[], 0)?;
    let (opb, _) = packing_opb(&packing.instance);
    folder.put(OPB_ROLE, OPB_FILE, &opb_text(&opb))?;

    let proof_path = dir.join(PROOF_FILE);
    let (proof, entry) = write_hashed(
        &proof_path,
        PROOF_FILE,
        model_path,
        "",
        control,
        |out, stop| write_proof(&packing.instance, out, stop),
    )?;
    folder.files.insert(PROOF_ROLE.to_string(), entry);
    let solve_seconds = start.elapsed().as_secs_f64();

    let mut values = vec![false; packing.instance.placements.len()];
    for &i in &proof.best {
        values[i] = true;
    }
    let witness = Assignment::new(values);
    puzzle
        .verify(&puzzle.decode(&witness))
        .map_err(|e| internal(format!("the Russian-doll packing: {e}")))?;
    folder.put(
        "witness",
        WITNESS_FILE,
        witness_text(puzzle, &witness).as_bytes(),
    )?;

    // Checked before it is kept, as every route's proofs are.
    let check_start = Instant::now();
    let checked = check_pb_files(&dir.join(OPB_FILE), &proof_path).map_err(|e| {
        internal(format!(
            "{PROOF_FILE}: puzzlec's PB checker refused it: {e}"
        ))
    })?;
    let value = -(proof.optimum as i64);
    if checked.conclusion != bounds(value) {
        return Err(internal(format!(
            "{PROOF_FILE}: concludes {:?}, not the optimum {}",
            checked.conclusion, proof.optimum
        )));
    }
    let how = format!(
        "the native Russian-doll search (memo of exhausted states with dead cells and relaxed lookups, the lookahead cut, one thread; no symmetry) found a packing of {} and wrote, as it searched, a VeriPB proof ({PROOF_FILE}: {} derived constraints over {} search nodes, {} memo hits, {} lookahead cuts) that at most {} pieces fit in {OPB_FILE}, the packing model; checked by puzzlec's PB checker; the witness is verified by the puzzle's rules",
        proof.optimum,
        proof.derived,
        proof.nodes,
        proof.memo_hits,
        proof.lookahead_cuts,
        proof.optimum
    );
    let encoding = EncodingEntry {
        at_most_one: "one OPB row per cell covered twice or more".into(),
        objective: "min: minus the placements".into(),
        refuted: Some(format!("objective below -{}", proof.optimum)),
        variables: opb.declared_variables,
        clauses: opb.constraints.len(),
        cuts: 0,
    };
    let record = Record {
        claim: Claim::Optimal {
            value: proof.optimum,
        },
        how,
        encoding,
        files: folder.files,
        solve_seconds,
        refute_seconds: check_start.elapsed().as_secs_f64(),
    };
    write_manifest(dir, model_path, model_bytes, puzzle, record, start)
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
        Err(e @ (DollProofError::Doll(_) | DollProofError::TableDiffers { .. })) => {
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
    let packing = match super::table::applies(puzzle) {
        Some(packing) => packing,
        None => {
            return Err(failed(format!(
                "{PROOF_FILE}: a search-written proof is for a maximum packing without piece minimums, and {model_name} is not one"
            )))
        }
    };
    let Claim::Optimal { value: optimum } = manifest.claim else {
        return Err(failed(format!(
            "{MANIFEST_FILE}: a search-written proof certifies an optimum"
        )));
    };
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
