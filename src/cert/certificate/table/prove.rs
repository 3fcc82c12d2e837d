//! `prove` by the table route: the Russian-doll search gives the table and the witness, each
//! step is refuted (by CaDiCaL or varisat, in parallel, those of one shard or the ones a
//! folder of shards still lacks) and its proof checked before the manifest is written.

use std::io::Write as _;
use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;

use super::super::write::{file_entry, write_error, write_manifest, Folder, Record};
use super::super::{
    witness_text, Claim, EncodingEntry, FileEntry, Manifest, ProveError, CNF_FILE, CUTS_FILE,
    DRAT_FILE, LRAT_FILE, VARISAT_FILE, WITNESS_FILE,
};
use super::file::{check_shape, Table};
use super::steps::{
    check_step_proof, clauses_of, step_cnf, step_dimacs, step_name, Ranking, AMO, PROOF_KINDS,
};
use super::{applies, StepProver, TableOptions, TABLE_FILE, TABLE_ROLE};
use crate::base::Control;
use crate::cert::refute::{refute, Refutation, SolverProofFormat};
use crate::engines::russian_doll::{self, DollOptions, DollOutcome};
use crate::model::Assignment;
use crate::puzzle::packing::Packing;
use crate::puzzle::Puzzle;

/// Why a step could not be refuted.
#[derive(Debug, thiserror::Error)]
pub enum StepRefuteError {
    /// varisat failed.
    #[error(transparent)]
    Varisat(#[from] crate::cert::refute::RefuteError),
    /// varisat found a model: the table entry is wrong (a search bug).
    #[error("varisat found the step satisfiable")]
    Satisfiable,
    /// No scratch folder for CaDiCaL's files.
    #[error(transparent)]
    Scratch(#[from] crate::oracle::OracleError),
    /// The step's CNF could not be written for CaDiCaL.
    #[error("cannot write {}: {source}", .path.display())]
    WriteCnf {
        /// The CNF's path.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// `cadical` could not be started.
    #[error("cannot run cadical: {0}")]
    CannotRun(std::io::Error),
    /// CaDiCaL answered something else than UNSATISFIABLE (exit 20).
    #[error("cadical did not answer UNSATISFIABLE ({status}): {first_line}")]
    NotRefuted {
        /// Its exit status.
        status: std::process::ExitStatus,
        /// The first line it printed.
        first_line: String,
    },
    /// CaDiCaL wrote no proof file.
    #[error("cadical wrote no proof: {0}")]
    NoProof(std::io::Error),
    /// The proof could not be gzip-compressed.
    #[error("compressing the proof: {0}")]
    Compress(std::io::Error),
}

/// The gzip level of compressed proofs: binary DRAT of the 13 x 19 box shrinks about 2.4x
/// at level 3 (5x against text DRAT); higher levels gain little and cost much more time.
const GZIP_LEVEL: u32 = 3;

/// Refutes one step's clauses; the proof bytes.
fn refute_step(
    prover: StepProver,
    num_vars: usize,
    clauses: &[Vec<i32>],
    dimacs: &str,
) -> Result<Vec<u8>, StepRefuteError> {
    match prover {
        StepProver::Varisat => {
            let mut lrat = Vec::new();
            let outcome = refute(
                num_vars,
                clauses,
                SolverProofFormat::Varisat,
                std::io::sink(),
                &mut lrat,
            )?;
            match outcome {
                Refutation::Unsatisfiable => Ok(lrat),
                Refutation::Satisfiable { .. } => Err(StepRefuteError::Satisfiable),
            }
        }
        StepProver::Cadical => {
            let scratch = crate::oracle::external::ScratchDir::new()?;
            let cnf_path = scratch.file("step.cnf");
            let proof_path = scratch.file("step.drat");
            std::fs::write(&cnf_path, dimacs).map_err(|source| StepRefuteError::WriteCnf {
                path: cnf_path.clone(),
                source,
            })?;
            // `--unsat` tunes CaDiCaL for refutations: measured on the 13 x 19 box's hardest
            // steps, proofs 10-15% shorter. The proof is binary DRAT (half the text size).
            let output = std::process::Command::new("cadical")
                .arg("--unsat")
                .arg("-q")
                .arg(&cnf_path)
                .arg(&proof_path)
                .output()
                .map_err(StepRefuteError::CannotRun)?;
            if output.status.code() != Some(20) {
                return Err(StepRefuteError::NotRefuted {
                    status: output.status,
                    first_line: String::from_utf8_lossy(&output.stdout)
                        .lines()
                        .next()
                        .unwrap_or("")
                        .to_string(),
                });
            }
            let mut proof = std::fs::read(&proof_path).map_err(StepRefuteError::NoProof)?;
            // CaDiCaL writes no lemma when the formula refutes itself by unit propagation,
            // and puzzlec's checker wants an explicit empty clause: one more at the end is
            // harmless (steps after the refutation are not checked).
            proof.extend_from_slice(b"a\0");
            let mut gz =
                flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(GZIP_LEVEL));
            gz.write_all(&proof).map_err(StepRefuteError::Compress)?;
            gz.finish().map_err(StepRefuteError::Compress)
        }
    }
}

/// Whether `dir` holds step proofs of a table certificate (`step-*` files), as a folder of
/// shards copied together to be combined does.
pub fn holds_steps(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .filter_map(Result::ok)
            .any(|e| e.file_name().to_string_lossy().starts_with("step-"))
    })
}

/// Proves `packing`'s optimum into `dir` by the table route (see the module doc): runs the
/// Russian-doll search, writes the witness and the table, refutes the steps (those of
/// `options.shard`, keeping step proofs already in `dir` that check), and writes the
/// manifest.
pub fn prove(
    model_path: &Path,
    model_bytes: &[u8],
    puzzle: &Puzzle,
    dir: &Path,
    options: &TableOptions,
    control: &Control,
) -> Result<Manifest, ProveError> {
    let start = Instant::now();
    let packing = applies(puzzle).ok_or_else(|| {
        ProveError::Internal("the table route takes maximum packings without minimums".into())
    })?;
    let internal = ProveError::Internal;
    let doll = DollOptions {
        stop: Some(control.stop_flag()),
        memo_bytes: russian_doll::memo_bytes_for(control),
        ..DollOptions::default()
    };
    let outcome = russian_doll::solve(&packing.instance, &doll, |_, _| {})
        .map_err(|e| internal(format!("the Russian-doll search: {e}")))?;
    if control.should_stop() {
        return Err(ProveError::Stopped(control.reason()));
    }
    let solve_seconds = start.elapsed().as_secs_f64();
    let (table, ranking, witness) = proved_table(&outcome, puzzle, packing)?;
    let optimum = outcome.best.len();

    let mut folder = Folder::open(dir)?;
    let positions = table.order.len();
    let owned: Vec<usize> = (0..positions)
        .filter(|&c| options.shard.is_none_or(|s| s.owns(c)))
        .collect();
    clear_folder(dir, &owned, positions, options.store_cnf)?;

    let refute_start = Instant::now();
    let results: Vec<Result<Vec<(String, FileEntry)>, ProveError>> = owned
        .par_iter()
        .map(|&c| {
            if control.should_stop() {
                return Err(ProveError::Stopped(control.reason()));
            }
            prove_step(&folder, packing, &ranking, &table, c, options)
        })
        .collect();
    for result in results {
        folder.files.extend(result?);
    }
    let refute_seconds = refute_start.elapsed().as_secs_f64();

    folder.write_model(model_bytes)?;
    folder.put(
        "witness",
        WITNESS_FILE,
        witness_text(puzzle, &witness).as_bytes(),
    )?;
    folder.put(TABLE_ROLE, TABLE_FILE, table.text(packing.width).as_bytes())?;

    let step0 = step_cnf(packing, &ranking, &table, 0);
    let grows = (0..positions)
        .filter(|&c| table.entries[c] > table.entries[c + 1])
        .count();
    let shard = match options.shard {
        Some(s) => format!(
            "; PARTIAL: shard {s} holds the proofs of {} of the {positions} steps (copy all shards' step files into one folder and run prove there to complete it)",
            owned.len()
        ),
        None => String::new(),
    };
    let how = format!(
        "the native Russian-doll search found a packing of {optimum} and the suffix table of {positions} scan positions ({TABLE_FILE}: at most S pieces start at each position or later; {grows} entries grow, {} do not); each entry is its own step, a CNF of the pieces' constraints over the placements starting there or later, one sequential counter over them by first cell (last first), the units \"at most S\" of the later entries and \"at least S + 1\", refuted by {}; step 0 refutes \"at least {}\"; the witness is verified by the puzzle's rules{shard}",
        positions - grows,
        options.prover.describe(),
        optimum + 1
    );
    let encoding = EncodingEntry {
        at_most_one: format!("{AMO:?}").to_lowercase(),
        objective: "sequential counter over the placements by first cell, last first".into(),
        refuted: Some(format!(
            "{positions} table steps: at least S + 1 pieces start at position c or later, given the later entries (step 0: at least {})",
            optimum + 1
        )),
        variables: step0.num_vars,
        clauses: step0.clauses.len(),
        cuts: 0,
    };
    let record = Record {
        claim: Claim::Optimal { value: optimum },
        how,
        encoding,
        files: folder.files,
        solve_seconds,
        refute_seconds,
    };
    write_manifest(dir, model_path, model_bytes, puzzle, record, start)
}

/// The Russian-doll search's `outcome` on `packing` (of `puzzle`) as a proved table: its
/// table, the ranking of the placements under its scan order and the witness, once the
/// search is seen to have proved its answer, the witness to be a packing by the puzzle's
/// rules and the table to have the doll's shape. The table route and the sharded VeriPB
/// route both start from it.
pub(in crate::cert::certificate) fn proved_table(
    outcome: &DollOutcome,
    puzzle: &Puzzle,
    packing: &Packing,
) -> Result<(Table, Ranking, Assignment), ProveError> {
    let internal = ProveError::Internal;
    let entries: Vec<usize> = outcome
        .table
        .iter()
        .map(|e| e.ok_or_else(|| internal("the Russian-doll table is incomplete".into())))
        .collect::<Result<_, _>>()?;
    let optimum = outcome.best.len();
    if !outcome.proved || entries.last() != Some(&0) || entries[0] != optimum {
        return Err(internal(
            "the Russian-doll search did not prove its answer".into(),
        ));
    }
    let table = Table {
        order: outcome.order.clone(),
        entries,
    };
    let mut values = vec![false; packing.instance.placements.len()];
    for &i in &outcome.best {
        values[i] = true;
    }
    let witness = Assignment::new(values);
    puzzle
        .verify(&puzzle.decode(&witness))
        .map_err(|e| internal(format!("the Russian-doll packing: {e}")))?;
    let ranking = Ranking::new(packing, &table.order);
    check_shape(&table, &ranking.first, &outcome.best, optimum)
        .map_err(|e| internal(format!("the Russian-doll table: {e}")))?;
    Ok((table, ranking, witness))
}

/// Refutes step `c` into `folder`, or keeps the proof already there if it checks; the
/// step's manifest entries.
fn prove_step(
    folder: &Folder,
    packing: &Packing,
    ranking: &Ranking,
    table: &Table,
    c: usize,
    options: &TableOptions,
) -> Result<Vec<(String, FileEntry)>, ProveError> {
    let name = step_name(c, table.order.len());
    let cnf = step_cnf(packing, ranking, table, c);
    let clauses = clauses_of(&cnf);
    let dimacs = step_dimacs(packing, ranking, table, c, &cnf);
    let mut entries = Vec::new();
    if options.store_cnf {
        let file = format!("{name}.cnf");
        entries.push((
            format!("{name}-cnf"),
            folder.write(&file, dimacs.as_bytes())?,
        ));
    }
    // A proof left by a shard (or an earlier run) is kept if it refutes this very CNF.
    for extension in PROOF_KINDS {
        let file = format!("{name}.{extension}");
        let path = folder.dir.join(&file);
        if let Ok(proof) = std::fs::read(&path) {
            if check_step_proof(extension, cnf.num_vars, &clauses, &proof).is_ok() {
                entries.push((name, file_entry(&file, &proof)));
                return Ok(entries);
            }
            std::fs::remove_file(&path).map_err(|e| write_error(&path, &e))?;
        }
    }
    let proof = refute_step(options.prover, cnf.num_vars, &clauses, &dimacs)
        .map_err(|e| ProveError::Solver(format!("step {c}: {e}")))?;
    // Checked before it is written, as the single-refutation route checks its proof: a
    // solver's faulty proof fails `prove`, not a later `check`.
    check_step_proof(options.prover.extension(), cnf.num_vars, &clauses, &proof).map_err(|e| {
        ProveError::Solver(format!(
            "step {c}: the proof {} wrote does not check: {e}",
            options.prover.name()
        ))
    })?;
    let file = format!("{name}.{}", options.prover.extension());
    entries.push((name, folder.write(&file, &proof)?));
    Ok(entries)
}

/// Removes from `dir` the certificate files that the new manifest will not list: those of
/// the single-refutation route, step files of other steps, and stored CNFs when none are
/// wanted. Step proofs of `owned` steps stay, for [`prove_step`] to reuse.
fn clear_folder(
    dir: &Path,
    owned: &[usize],
    positions: usize,
    store_cnf: bool,
) -> Result<(), ProveError> {
    let keep: std::collections::HashSet<String> = owned
        .iter()
        .flat_map(|&c| {
            let name = step_name(c, positions);
            PROOF_KINDS.map(|kind| format!("{name}.{kind}"))
        })
        .collect();
    let entries = std::fs::read_dir(dir).map_err(|e| write_error(dir, &e))?;
    for entry in entries {
        let entry = entry.map_err(|e| write_error(dir, &e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let ours = [
            CNF_FILE,
            CUTS_FILE,
            LRAT_FILE,
            DRAT_FILE,
            VARISAT_FILE,
            WITNESS_FILE,
            TABLE_FILE,
        ]
        .contains(&name.as_str())
            || (name.starts_with("step-")
                && (PROOF_KINDS
                    .iter()
                    .any(|kind| name.ends_with(&format!(".{kind}")))
                    || name.ends_with(".cnf")));
        let stale = ours
            && !keep.contains(&name)
            && !(store_cnf && name.ends_with(".cnf") && name.starts_with("step-"));
        if stale {
            let path = entry.path();
            std::fs::remove_file(&path).map_err(|e| write_error(&path, &e))?;
        }
    }
    Ok(())
}
