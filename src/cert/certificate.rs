//! Certificates that anyone can check: [`prove`] writes one into a folder, [`check`] re-verifies it.
//!
//! A certificate folder holds:
//!
//! * `model.toml`: a copy of the model file, so the folder stands on its own;
//! * `witness.txt` (when there is a solution): the value of every model variable as DIMACS
//!   `v` lines, with the solution drawn in `c` lines for people;
//! * `cnf.dimacs` (when something is refuted): the CNF of "objective at least optimum + 1", or
//!   of the constraints alone for an impossible model, with `c var N name` lines; for a
//!   model with lazy constraints, followed by the cuts of `cuts.txt`;
//! * `cuts.txt` (when the refutation needed cuts of lazy constraints, as a dissection's
//!   connected parts do): each cut with the reason it holds in every solution (format and
//!   argument in [`super::cuts`]); its SHA-256 is in the manifest;
//! * `proof.lrat`, `proof.drat`, `proof.varisat`: refutations of `cnf.dimacs` in LRAT (checked
//!   by our own [`crate::checkers::lrat`]), textual DRAT (checked by our own [`crate::checkers::drat`], and readable
//!   by drat-trim and friends) and varisat's native format (checked by varisat's checker). Each
//!   ends by deriving the empty clause, trivial refutations included;
//! * `manifest.json`: what is claimed and how it was established, and the SHA-256 of every other
//!   file of the folder (see [`Manifest`]).
//!
//! [`check`] trusts none of the files: it holds the folder to its manifest (no file missing,
//! none extra, every SHA-256 as recorded), verifies the witness with the puzzle's own rules,
//! verifies every cut's reason and clause from the rules ([`super::cuts::verify`]), rebuilds
//! the CNF from the model and the verified cuts and compares it byte for byte, and checks all
//! three proofs against that CNF. What it does trust is
//! the model compiler and the CNF encoder (`src/puzzle`, `src/sat/encode.rs`), whose
//! cardinality encodings are tested exhaustively on small sizes.
//!
//! A puzzle that is impossible by counting alone ([`Puzzle::trivially_impossible`], such as
//! a dissection of 25 cells into 2 parts) has nothing to refute: its claim is
//! [`Claim::Impossible`] with the reason, which `check` recomputes from the model. Models
//! whose lazy constraints cannot justify their cuts ([`crate::model::JustifyCuts`]) are
//! refused.

use crate::base::digest::sha256_hex;
use crate::base::error::InputError;
use crate::base::{Control, Goal, Incumbent, Status};
use crate::cert::refute::{check_with_varisat, refute, Refutation, SolverProofFormat};
use crate::checkers::drat::{check_drat, ProofEncoding};
use crate::checkers::lrat::{check_lrat, parse_dimacs};
use crate::encode::amo::AmoEncoding;
use crate::encode::{cnf as encode, dimacs};
use crate::model::{Assignment, Lit, Model};
use crate::puzzle::load::parse_model;
use crate::puzzle::{load_model_file, Puzzle};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The manifest's file name inside a certificate folder.
pub const MANIFEST_FILE: &str = "manifest.json";
/// The copy of the model file.
pub const MODEL_FILE: &str = "model.toml";
/// The witness: one value per model variable.
pub const WITNESS_FILE: &str = "witness.txt";
/// The refuted CNF.
pub const CNF_FILE: &str = "cnf.dimacs";
/// The LRAT refutation of [`CNF_FILE`].
pub const LRAT_FILE: &str = "proof.lrat";
/// The textual DRAT refutation of [`CNF_FILE`].
pub const DRAT_FILE: &str = "proof.drat";
/// The varisat-native refutation of [`CNF_FILE`].
pub const VARISAT_FILE: &str = "proof.varisat";
/// The cuts of lazy constraints that [`CNF_FILE`] ends with, and their reasons.
pub const CUTS_FILE: &str = "cuts.txt";

/// The `format` written into every manifest; [`check`] refuses others. Version 2: every file
/// is hashed, the folder holds no others, and every proof ends with the empty clause.
pub const FORMAT: &str = "puzzlec-certificate/2";

/// The files `prove` may write besides the model and the manifest; stale ones are removed
/// before a new certificate is written into a folder, as [`check`] refuses unlisted files.
const WRITTEN_FILES: [&str; 6] = [
    WITNESS_FILE,
    CNF_FILE,
    CUTS_FILE,
    LRAT_FILE,
    DRAT_FILE,
    VARISAT_FILE,
];

/// The at-most-one encoding certificates use (the CNF must be rebuilt exactly).
const AMO: AmoEncoding = AmoEncoding::Auto;

/// What a certificate claims about its model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "answer", rename_all = "snake_case")]
pub enum Claim {
    /// The objective's best value is `value`: the witness has it, and "at least value + 1"
    /// is refuted.
    Optimal {
        /// The optimum.
        value: usize,
    },
    /// The model has no objective and the witness satisfies it; nothing is refuted.
    Satisfiable,
    /// No assignment satisfies the constraints: the constraints' CNF is refuted (with the
    /// cuts of [`CUTS_FILE`] appended, for models with lazy constraints).
    Unsatisfiable,
    /// No solution, for a reason that needs no search ([`Puzzle::trivially_impossible`]:
    /// a dissection of 25 cells into 2 parts, say); `check` recomputes the reason. Nothing is
    /// refuted.
    Impossible {
        /// The reason, in the puzzle's words.
        reason: String,
    },
    /// The puzzle has `count` optimal solutions (all solutions, for a family without an
    /// objective), counted by two independent methods that agree: the native search and SAT
    /// enumeration with blocking clauses. A record of how the count was established, not a
    /// proof of completeness: `check` counts again both ways.
    Count {
        /// The number of solutions.
        count: u64,
        /// The optimum every counted solution has, for families with an objective.
        value: Option<usize>,
    },
}

impl Claim {
    /// The objective bound the CNF asserts, and whether there is a CNF at all.
    fn refuted_bound(&self) -> Option<Option<usize>> {
        match self {
            Claim::Optimal { value } => Some(Some(value + 1)),
            Claim::Unsatisfiable => Some(None),
            Claim::Satisfiable | Claim::Impossible { .. } | Claim::Count { .. } => None,
        }
    }
}

/// The model file a certificate is about.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelEntry {
    /// The copy's file name inside the folder ([`MODEL_FILE`]).
    pub file: String,
    /// SHA-256 of the file's bytes, in lower-case hex.
    pub sha256: String,
    /// The path it was copied from, for people only.
    pub source: String,
    /// The puzzle family.
    pub kind: String,
}

/// How the refuted CNF was built.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EncodingEntry {
    /// The at-most-one encoding.
    pub at_most_one: String,
    /// How the objective is counted.
    pub objective: String,
    /// The question the CNF asks, in words ("objective at least 21", "the constraints alone").
    pub refuted: Option<String>,
    /// Variables of the CNF (model variables first, then auxiliaries).
    pub variables: usize,
    /// Clauses of the CNF.
    pub clauses: usize,
    /// Of those clauses, the last ones that are the cuts of [`CUTS_FILE`].
    #[serde(default)]
    pub cuts: usize,
}

/// One file of the certificate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    /// The file name inside the folder.
    pub name: String,
    /// Its size in bytes, for people (the check does not rely on it).
    pub bytes: u64,
    /// SHA-256 of its bytes, in lower-case hex; `check` compares it before reading the file.
    /// Always written; optional only so that an entry without it gets a clear message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}

/// Wall-clock times of `prove`, in seconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Times {
    /// Finding the answer (the optimisation by the SAT backend).
    pub solve_seconds: f64,
    /// The varisat runs that wrote the proofs.
    pub refute_seconds: f64,
    /// Everything, writing the files included.
    pub total_seconds: f64,
}

/// `manifest.json`: what a certificate claims and how it was established.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Always [`FORMAT`].
    pub format: String,
    /// The program that wrote it, with its version.
    pub tool: String,
    /// The model file.
    pub model: ModelEntry,
    /// The claim.
    pub claim: Claim,
    /// How the claim was established, in words.
    pub how: String,
    /// How the CNF was built.
    pub encoding: EncodingEntry,
    /// The files besides the model and the manifest, by role: "witness", "cnf", "cuts",
    /// "lrat", "drat", "varisat". The folder holds these and no others.
    pub files: std::collections::BTreeMap<String, FileEntry>,
    /// How long `prove` took.
    pub times: Times,
}

/// Why `prove` could not write a certificate.
#[derive(Debug, thiserror::Error)]
pub enum ProveError {
    /// The model file is bad.
    #[error("{0}")]
    Input(#[from] InputError),
    /// The model has lazy constraints that cannot justify their cuts, so a refutation that
    /// needs them could not be checked.
    #[error("{path}: cannot certify a model with lazy constraints that give no reasons for their cuts ({names}): a refutation using their cuts could not be checked")]
    Lazy {
        /// The model file.
        path: PathBuf,
        /// The names of the lazy constraints without reasons.
        names: String,
    },
    /// A certificate file could not be written.
    #[error("cannot write {path}: {message}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// The solver or the proof run failed or contradicted itself (a bug).
    #[error("internal error: {0}")]
    Internal(String),
}

/// Why `check` did not accept a certificate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// The folder is not there or has no manifest: nothing to check (bad input).
    #[error("{0}")]
    NotACertificate(String),
    /// A check failed; the message says which and why.
    #[error("{0}")]
    Failed(String),
}

/// What a successful check verified, one line per step, and its conclusion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// One line per check that passed.
    pub steps: Vec<String>,
    /// The certified claim, in words.
    pub conclusion: String,
}

/// The CNF a claim refutes, as DIMACS text, with `cuts` (clauses over the model's
/// variables) appended; `None` when the claim refutes nothing. The text depends only on the
/// model, the claim and the cuts, so [`check`] can rebuild it byte for byte.
pub fn refuted_dimacs(
    model: &Model,
    claim: &Claim,
    cuts: &[Vec<Lit>],
) -> Option<(String, EncodingEntry)> {
    let bound = claim.refuted_bound()?;
    let encoding = encode::encode(model, AMO);
    let refuted = match bound {
        Some(k) => format!("objective at least {k}"),
        None => "the constraints alone".to_string(),
    };
    let mut comments = vec![
        format!("puzzlec certificate CNF of {MODEL_FILE}: {refuted}"),
        format!("objective counted by {}", encoding.objective_encoding),
        format!(
            "at-most-one encoding {AMO:?}; variables 1..={} are the model's",
            model.num_vars()
        ),
    ];
    if !cuts.is_empty() {
        comments.push(format!(
            "the last {} clauses are the cuts of {CUTS_FILE}, in its order",
            cuts.len()
        ));
    }
    let mut cnf = encoding.cnf_with_at_least(bound);
    cnf.clauses.extend(cuts.iter().cloned());
    let entry = EncodingEntry {
        at_most_one: format!("{AMO:?}").to_lowercase(),
        objective: encoding.objective_encoding.clone(),
        refuted: Some(refuted),
        variables: cnf.num_vars,
        clauses: cnf.clauses.len(),
        cuts: cuts.len(),
    };
    Some((dimacs::write_dimacs(&cnf, model.names(), &comments), entry))
}

/// The encoding entry of a certificate that refutes nothing.
fn unrefuted_encoding(model: &Model) -> EncodingEntry {
    EncodingEntry {
        at_most_one: format!("{AMO:?}").to_lowercase(),
        objective: encode::encode(model, AMO).objective_encoding,
        refuted: None,
        variables: 0,
        clauses: 0,
        cuts: 0,
    }
}

/// Solves the model at `model_path` with the SAT backend, and writes a certificate of the
/// answer into `dir` (created if missing; certificate files in it are replaced).
pub fn prove(model_path: &Path, dir: &Path) -> Result<Manifest, ProveError> {
    prove_with(model_path, dir, false)
}

/// [`prove`], or with `count` a record of the number of solutions: counted natively and by
/// SAT enumeration, which must agree (see [`Claim::Count`]).
pub fn prove_with(model_path: &Path, dir: &Path, count: bool) -> Result<Manifest, ProveError> {
    let start = Instant::now();
    let puzzle = load_model_file(model_path)?;
    let model_bytes = std::fs::read(model_path)
        .map_err(|e| InputError::file(model_path, format!("cannot read: {e}")))?;
    if count {
        let solve_start = Instant::now();
        let (claim, how) = count_twice(&puzzle).map_err(ProveError::Internal)?;
        let solve_seconds = solve_start.elapsed().as_secs_f64();
        fresh_folder(dir)?;
        std::fs::write(dir.join(MODEL_FILE), &model_bytes)
            .map_err(|e| write_error(&dir.join(MODEL_FILE), &e))?;
        let record = Record {
            claim,
            how,
            encoding: unrefuted_encoding(&puzzle.compile()),
            files: std::collections::BTreeMap::new(),
            solve_seconds,
            refute_seconds: 0.0,
        };
        return write_manifest(dir, model_path, &model_bytes, &puzzle, record, start);
    }
    let model = puzzle.compile();
    if let Some(reason) = puzzle.trivially_impossible() {
        // Nothing to search or refute: the reason is the certificate, recomputed by `check`.
        fresh_folder(dir)?;
        std::fs::write(dir.join(MODEL_FILE), &model_bytes)
            .map_err(|e| write_error(&dir.join(MODEL_FILE), &e))?;
        let record = Record {
            how: format!(
                "impossible by counting alone ({reason}); check recomputes the reason from the {} rules",
                puzzle.kind()
            ),
            claim: Claim::Impossible { reason },
            encoding: unrefuted_encoding(&model),
            files: std::collections::BTreeMap::new(),
            solve_seconds: 0.0,
            refute_seconds: 0.0,
        };
        return write_manifest(dir, model_path, &model_bytes, &puzzle, record, start);
    }
    refuse_lazy(&model, model_path)?;

    // The answer, from the SAT backend; its witness is re-verified below from the rules.
    let solve_start = Instant::now();
    let raw = crate::oracle::varisat::solve(
        &model,
        Goal::Maximise,
        &Control::unlimited(),
        &Incumbent::new(),
    );
    let solve_seconds = solve_start.elapsed().as_secs_f64();
    let (claim, witness) = match (raw.status, raw.witness, raw.bound) {
        (Status::Optimal, Some(witness), Some(value)) => (Claim::Optimal { value }, Some(witness)),
        // Without an objective the backend answers "satisfiable" (tilings, dissections).
        (Status::Optimal | Status::Satisfiable, Some(witness), None) => {
            (Claim::Satisfiable, Some(witness))
        }
        (Status::Unsatisfiable, _, _) => (Claim::Unsatisfiable, None),
        (status, _, _) => {
            return Err(ProveError::Internal(format!(
                "the SAT backend ended {} without a limit",
                status.name()
            )))
        }
    };
    let mut how = match &claim {
        Claim::Optimal { value } => format!(
            "varisat found a solution with {value} and refuted \"objective at least {}\"; \
             the witness is verified by the puzzle's rules, the refutation by puzzlec's LRAT \
             checker and varisat's checker",
            value + 1
        ),
        Claim::Satisfiable => {
            "varisat found a solution; the witness is verified by the puzzle's rules".to_string()
        }
        Claim::Unsatisfiable => "varisat refuted the constraints; the refutation is checked by \
                                 puzzlec's LRAT checker and varisat's checker"
            .to_string(),
        Claim::Impossible { .. } | Claim::Count { .. } => {
            return Err(ProveError::Internal(
                "the SAT backend cannot claim a count or an impossibility".to_string(),
            ))
        }
    };

    fresh_folder(dir)?;
    let mut files = std::collections::BTreeMap::new();
    // The manifest records every file's SHA-256, and `check` compares it.
    let mut put = |role: &str, name: &str, bytes: &[u8]| -> Result<(), ProveError> {
        let path = dir.join(name);
        std::fs::write(&path, bytes).map_err(|e| write_error(&path, &e))?;
        files.insert(
            role.to_string(),
            FileEntry {
                name: name.to_string(),
                bytes: bytes.len() as u64,
                sha256: Some(sha256_hex(bytes)),
            },
        );
        Ok(())
    };
    std::fs::write(dir.join(MODEL_FILE), &model_bytes)
        .map_err(|e| write_error(&dir.join(MODEL_FILE), &e))?;

    if let Some(witness) = &witness {
        let solution = puzzle.decode(witness);
        puzzle
            .verify(&solution)
            .map_err(|e| ProveError::Internal(format!("the SAT witness: {e}")))?;
        put(
            "witness",
            WITNESS_FILE,
            witness_text(&puzzle, witness).as_bytes(),
        )?;
    }

    let mut refute_seconds = 0.0;
    let refute_start = Instant::now();
    // The cuts the refutation needs, found by the cut loop on the CNF without them.
    let cuts = match refuted_dimacs(&model, &claim, &[]) {
        Some((text, _)) if !model.lazy.is_empty() => {
            let (num_vars, clauses) = parse_dimacs(&text)
                .map_err(|e| ProveError::Internal(format!("our own DIMACS: {e}")))?;
            let cuts = super::cuts::collect(&model, num_vars, &clauses)
                .map_err(|e| ProveError::Internal(format!("the cut loop: {e}")))?;
            let text = super::cuts::write(&model, &cuts, MODEL_FILE, CNF_FILE);
            put("cuts", CUTS_FILE, text.as_bytes())?;
            let names: Vec<&str> = model.lazy.iter().map(|l| l.name()).collect();
            how = format!(
                "{how}; the CNF ends with {} cuts of {} recorded with their reasons in \
                 {CUTS_FILE}, each verified from the puzzle's rules",
                cuts.len(),
                names.join(", ")
            );
            cuts.into_iter()
                .map(|recorded| recorded.cut.clause)
                .collect()
        }
        _ => Vec::new(),
    };
    let encoding = match refuted_dimacs(&model, &claim, &cuts) {
        None => unrefuted_encoding(&model),
        Some((text, entry)) => {
            put("cnf", CNF_FILE, text.as_bytes())?;
            let (num_vars, clauses) = parse_dimacs(&text)
                .map_err(|e| ProveError::Internal(format!("our own DIMACS: {e}")))?;
            let (mut native, mut lrat, mut drat) = (Vec::new(), Vec::new(), Vec::new());
            let outcome = refute(
                num_vars,
                &clauses,
                SolverProofFormat::Varisat,
                &mut native,
                &mut lrat,
            )
            .map_err(|e| ProveError::Internal(e.to_string()))?;
            if outcome != Refutation::Unsatisfiable {
                return Err(ProveError::Internal(format!(
                    "varisat found {} satisfiable on the proof run",
                    entry.refuted.as_deref().unwrap_or("the CNF")
                )));
            }
            // varisat writes one solver proof per run, so DRAT takes a second run.
            refute(
                num_vars,
                &clauses,
                SolverProofFormat::DratText,
                &mut drat,
                std::io::sink(),
            )
            .map_err(|e| ProveError::Internal(e.to_string()))?;
            refute_seconds = refute_start.elapsed().as_secs_f64();
            // varisat writes no empty clause when loading the formula already refutes it
            // (an empty clause in the CNF); a DRAT proof must still end with one.
            if !drat
                .split(|&b| b == b'\n')
                .any(|line| line.trim_ascii() == b"0")
            {
                drat.extend_from_slice(b"0\n");
            }
            put("lrat", LRAT_FILE, &lrat)?;
            put("drat", DRAT_FILE, &drat)?;
            put("varisat", VARISAT_FILE, &native)?;
            entry
        }
    };

    let record = Record {
        claim,
        how,
        encoding,
        files,
        solve_seconds,
        refute_seconds,
    };
    write_manifest(dir, model_path, &model_bytes, &puzzle, record, start)
}

/// What `prove` established, to be written into the manifest.
struct Record {
    claim: Claim,
    how: String,
    encoding: EncodingEntry,
    files: std::collections::BTreeMap<String, FileEntry>,
    solve_seconds: f64,
    refute_seconds: f64,
}

/// Writes `manifest.json` for `record` about the model at `model_path`.
fn write_manifest(
    dir: &Path,
    model_path: &Path,
    model_bytes: &[u8],
    puzzle: &crate::puzzle::Puzzle,
    record: Record,
    start: Instant,
) -> Result<Manifest, ProveError> {
    let mut manifest = Manifest {
        format: FORMAT.to_string(),
        tool: format!("puzzlec {}", env!("CARGO_PKG_VERSION")),
        model: ModelEntry {
            file: MODEL_FILE.to_string(),
            sha256: sha256_hex(model_bytes),
            source: model_path.display().to_string(),
            kind: puzzle.kind().to_string(),
        },
        claim: record.claim,
        how: record.how,
        encoding: record.encoding,
        files: record.files,
        times: Times {
            solve_seconds: record.solve_seconds,
            refute_seconds: record.refute_seconds,
            total_seconds: 0.0,
        },
    };
    manifest.times.total_seconds = start.elapsed().as_secs_f64();
    let text = serde_json::to_string_pretty(&manifest)
        .map_err(|e| ProveError::Internal(format!("manifest: {e}")))?;
    let path = dir.join(MANIFEST_FILE);
    std::fs::write(&path, text + "\n").map_err(|e| write_error(&path, &e))?;
    Ok(manifest)
}

/// Counts the solutions natively and by SAT enumeration; the claim and how it was
/// established, or why the two disagree.
fn count_twice(puzzle: &crate::puzzle::Puzzle) -> Result<(Claim, String), String> {
    use crate::driver::{enumerate, Backend, EnumerateOptions};
    let options = EnumerateOptions::default();
    let mut counts = Vec::new();
    for backend in [Backend::Native, Backend::Sat] {
        let outcome = enumerate(
            puzzle,
            backend,
            &options,
            &Control::unlimited(),
            &mut |_| {},
        )
        .map_err(|e| e.to_string())?;
        if !outcome.complete {
            return Err(format!("the {} count did not finish", backend.name()));
        }
        counts.push(outcome);
    }
    let (native, sat) = (&counts[0], &counts[1]);
    if (native.count, native.value) != (sat.count, sat.value) {
        return Err(format!(
            "the counts disagree: native {} (value {:?}), sat {} (value {:?})",
            native.count, native.value, sat.count, sat.value
        ));
    }
    let how = format!(
        "counted twice, and the counts agree: native: {}; sat: {}. A record, not a proof of completeness",
        native.evidence, sat.evidence
    );
    Ok((
        Claim::Count {
            count: native.count,
            value: native.value,
        },
        how,
    ))
}

/// Refuses models with lazy constraints that cannot justify their cuts: a refutation
/// usually needs their cuts, and `check` could not verify them.
fn refuse_lazy(model: &Model, path: &Path) -> Result<(), ProveError> {
    let names: Vec<&str> = model
        .lazy
        .iter()
        .filter(|l| l.justify().is_none())
        .map(|l| l.name())
        .collect();
    if names.is_empty() {
        return Ok(());
    }
    Err(ProveError::Lazy {
        path: path.to_path_buf(),
        names: names.join(", "),
    })
}

/// Creates `dir` if needed and removes the certificate files a former `prove` may have left
/// there, so that the folder holds only what the new manifest lists.
fn fresh_folder(dir: &Path) -> Result<(), ProveError> {
    std::fs::create_dir_all(dir).map_err(|e| write_error(dir, &e))?;
    for name in WRITTEN_FILES {
        let path = dir.join(name);
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(write_error(&path, &e))
            }
            _ => {}
        }
    }
    Ok(())
}

fn write_error(path: &Path, error: &std::io::Error) -> ProveError {
    ProveError::Write {
        path: path.to_path_buf(),
        message: error.to_string(),
    }
}

/// The witness file: the solution drawn in comment lines, then every model variable's value
/// as DIMACS literals on `v` lines ended by 0 (the SAT competition's output format).
pub fn witness_text(puzzle: &Puzzle, assignment: &Assignment) -> String {
    let solution = puzzle.decode(assignment);
    let mut text = format!(
        "c puzzlec witness for {MODEL_FILE}: value {}\n",
        puzzle.value(&solution)
    );
    for line in puzzle.render(&solution).lines() {
        let _ = writeln!(text, "c {line}");
    }
    let values = assignment.values();
    for (row, chunk) in values.chunks(16).enumerate() {
        text.push('v');
        for (i, &value) in chunk.iter().enumerate() {
            let var = (row * 16 + i + 1) as i64;
            let _ = write!(text, " {}", if value { var } else { -var });
        }
        text.push('\n');
    }
    text.push_str("v 0\n");
    text
}

/// Reads a witness file: every variable `1..=num_vars` exactly once, ended by 0.
pub fn parse_witness(text: &str, num_vars: usize) -> Result<Assignment, String> {
    let mut values: Vec<Option<bool>> = vec![None; num_vars];
    let mut ended = false;
    for (index, line) in text.lines().enumerate() {
        let line_number = index + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('c') {
            continue;
        }
        let Some(rest) = trimmed.strip_prefix('v') else {
            return Err(format!("line {line_number}: expected a `c` or `v` line"));
        };
        for token in rest.split_whitespace() {
            if ended {
                return Err(format!("line {line_number}: values after the closing 0"));
            }
            let literal: i64 = token
                .parse()
                .map_err(|_| format!("line {line_number}: {token:?} is not a literal"))?;
            if literal == 0 {
                ended = true;
                continue;
            }
            let var = literal.unsigned_abs() as usize;
            if var > num_vars {
                return Err(format!(
                    "line {line_number}: variable {var} is not a model variable (1..={num_vars})"
                ));
            }
            if values[var - 1].replace(literal > 0).is_some() {
                return Err(format!("line {line_number}: variable {var} is given twice"));
            }
        }
    }
    if !ended {
        return Err("the values are not ended by 0".to_string());
    }
    if let Some(missing) = values.iter().position(Option::is_none) {
        return Err(format!("variable {} has no value", missing + 1));
    }
    Ok(Assignment::new(
        values.into_iter().map(|v| v.unwrap_or(false)).collect(),
    ))
}

/// Re-verifies the certificate in `dir`; every step is listed in the result. Fails at the
/// first check that does not hold, saying which.
pub fn check(dir: &Path) -> Result<Checked, CheckError> {
    let manifest_path = dir.join(MANIFEST_FILE);
    if !dir.is_dir() {
        return Err(CheckError::NotACertificate(format!(
            "{}: not a certificate folder (no such directory)",
            dir.display()
        )));
    }
    let manifest_text = std::fs::read_to_string(&manifest_path).map_err(|e| {
        CheckError::NotACertificate(format!("{}: cannot read: {e}", manifest_path.display()))
    })?;
    let failed = |message: String| CheckError::Failed(message);
    let manifest: Manifest = serde_json::from_str(&manifest_text)
        .map_err(|e| failed(format!("{MANIFEST_FILE}: {e}")))?;
    if manifest.format != FORMAT {
        return Err(failed(format!(
            "{MANIFEST_FILE}: format {:?} is not {FORMAT:?}",
            manifest.format
        )));
    }
    let mut steps = Vec::new();
    if let Some(step) = check_files(dir, &manifest)? {
        steps.push(step);
    }
    let read = |name: &str| -> Result<Vec<u8>, CheckError> {
        std::fs::read(dir.join(name)).map_err(|e| failed(format!("{name}: cannot read: {e}")))
    };
    let text = |name: &str| -> Result<String, CheckError> {
        String::from_utf8(read(name)?).map_err(|_| failed(format!("{name}: not UTF-8 text")))
    };

    // 1. The model file is the one the certificate was made for.
    let model_name = &manifest.model.file;
    let model_bytes = read(model_name)?;
    let hash = sha256_hex(&model_bytes);
    if hash != manifest.model.sha256 {
        return Err(failed(format!(
            "{model_name}: SHA-256 {hash} differs from the manifest's {} (the model file was changed)",
            manifest.model.sha256
        )));
    }
    let model_text = String::from_utf8(model_bytes)
        .map_err(|_| failed(format!("{model_name}: not UTF-8 text")))?;
    let puzzle = parse_model(&dir.join(model_name), model_text)
        .map_err(|e| failed(format!("{model_name}: {e}")))?;
    if let Claim::Count { count, value } = manifest.claim {
        steps.push(format!(
            "{model_name}: SHA-256 matches the manifest ({} puzzle)",
            puzzle.kind()
        ));
        let (recounted, how) = count_twice(&puzzle).map_err(|e| failed(format!("recount: {e}")))?;
        if recounted != manifest.claim {
            let Claim::Count {
                count: again,
                value: again_value,
            } = &recounted
            else {
                unreachable!("count_twice returns a count")
            };
            let value_of = |v: &Option<usize>| v.map_or("none".to_string(), |v| v.to_string());
            return Err(failed(format!(
                "recount: {again} solutions (value {}), but the manifest claims {count} (value {})",
                value_of(again_value),
                value_of(&value)
            )));
        }
        steps.push(format!("recount: {count} solutions again ({how})"));
        return Ok(Checked {
            steps,
            conclusion: format!(
                "recorded: {model_name} has {count} solutions, by two independent counts (not a proof of completeness)"
            ),
        });
    }
    if let Claim::Impossible { reason } = &manifest.claim {
        steps.push(format!(
            "{model_name}: SHA-256 matches the manifest ({} puzzle)",
            puzzle.kind()
        ));
        return match puzzle.trivially_impossible() {
            Some(again) if again == *reason => {
                steps.push(format!(
                    "{model_name}: {again} (recomputed from the {} rules)",
                    puzzle.kind()
                ));
                Ok(Checked {
                    steps,
                    conclusion: format!("certified: {model_name} has no solution ({again})"),
                })
            }
            Some(again) => Err(failed(format!(
                "{model_name}: the {} rules give the reason {again:?}, not the manifest's {reason:?}",
                puzzle.kind()
            ))),
            None => Err(failed(format!(
                "{model_name}: the manifest claims {reason:?}, but the {} rules find no such reason (nothing is refuted, so there is no proof of impossibility)",
                puzzle.kind()
            ))),
        };
    }
    let model = puzzle.compile();
    steps.push(format!(
        "{model_name}: SHA-256 matches the manifest ({} puzzle, {} model variables)",
        puzzle.kind(),
        model.num_vars()
    ));

    // 2. The witness satisfies the puzzle's rules and has the claimed value.
    let needs_witness = matches!(manifest.claim, Claim::Optimal { .. } | Claim::Satisfiable);
    if needs_witness {
        let witness = parse_witness(&text(WITNESS_FILE)?, model.num_vars())
            .map_err(|e| failed(format!("{WITNESS_FILE}: {e}")))?;
        let solution = puzzle.decode(&witness);
        puzzle
            .verify(&solution)
            .map_err(|e| failed(format!("{WITNESS_FILE}: {e}")))?;
        let value = puzzle.value(&solution);
        if let Claim::Optimal { value: claimed } = manifest.claim {
            if value != claimed {
                return Err(failed(format!(
                    "{WITNESS_FILE}: the solution has value {value}, the manifest claims {claimed}"
                )));
            }
        }
        let solution = if puzzle.has_objective() {
            format!("a solution of value {value}")
        } else {
            "a solution".to_string()
        };
        steps.push(format!(
            "{WITNESS_FILE}: {solution}, verified by the {} rules",
            puzzle.kind()
        ));
    }

    // 3. Every recorded cut holds in every solution, by the puzzle's rules.
    let refutes = manifest.claim.refuted_bound().is_some();
    let cuts = match manifest.files.get("cuts") {
        // Its SHA-256 was compared by `check_files`.
        Some(_) if refutes => {
            let bytes = read(CUTS_FILE)?;
            let cut_text = String::from_utf8(bytes)
                .map_err(|_| failed(format!("{CUTS_FILE}: not UTF-8 text")))?;
            let parsed = super::cuts::parse(&cut_text, model.num_vars())
                .map_err(|e| failed(format!("{CUTS_FILE}: {e}")))?;
            super::cuts::verify(&model, &parsed)
                .map_err(|e| failed(format!("{CUTS_FILE}: {e}")))?;
            let names: Vec<&str> = model.lazy.iter().map(|l| l.name()).collect();
            steps.push(format!(
                "{CUTS_FILE}: SHA-256 matches the manifest; {} cuts, each verified from the {} rules ({})",
                parsed.len(),
                puzzle.kind(),
                names.join(", ")
            ));
            parsed
                .into_iter()
                .map(|cut| cut.recorded.cut.clause)
                .collect()
        }
        _ => Vec::new(),
    };

    // 4. The CNF is exactly the one the model, the claim and the cuts give.
    if let Some((rebuilt, entry)) = refuted_dimacs(&model, &manifest.claim, &cuts) {
        let found = text(CNF_FILE)?;
        let source = if cuts.is_empty() {
            model_name.to_string()
        } else {
            format!("{model_name} and {CUTS_FILE}")
        };
        if let Some(difference) = first_difference(&rebuilt, &found) {
            return Err(failed(format!(
                "{CNF_FILE} differs from the CNF rebuilt from {source}: {difference}"
            )));
        }
        let refuted = entry.refuted.unwrap_or_default();
        let with_cuts = if cuts.is_empty() {
            String::new()
        } else {
            format!(" with {} cuts", cuts.len())
        };
        steps.push(format!(
            "{CNF_FILE}: identical to the CNF rebuilt from {source} ({refuted}{with_cuts}; {} variables, {} clauses)",
            entry.variables, entry.clauses
        ));
        let (num_vars, clauses) =
            parse_dimacs(&found).map_err(|e| failed(format!("{CNF_FILE}: {e}")))?;

        // 5. Three independent checkers accept refutations of it.
        let lrat = text(LRAT_FILE)?;
        let stats = check_lrat(num_vars, &clauses, &lrat).map_err(|e| {
            failed(format!(
                "{LRAT_FILE} does not refute {CNF_FILE} (puzzlec's LRAT checker): {e}"
            ))
        })?;
        steps.push(format!(
            "{LRAT_FILE}: refutes {CNF_FILE} (puzzlec's LRAT checker: {} additions, {} hints)",
            stats.additions, stats.hints
        ));
        let drat = read(DRAT_FILE)?;
        let summary = check_drat(num_vars, &clauses, &drat, ProofEncoding::Text).map_err(|e| {
            failed(format!(
                "{DRAT_FILE} does not refute {CNF_FILE} (puzzlec's DRAT checker): {e}"
            ))
        })?;
        steps.push(format!(
            "{DRAT_FILE}: refutes {CNF_FILE} (puzzlec's DRAT checker: {} lemmas, {} in the core)",
            summary.lemmas, summary.core_lemmas
        ));
        let native = read(VARISAT_FILE)?;
        check_with_varisat(num_vars, &clauses, &native[..]).map_err(|e| {
            failed(format!(
                "{VARISAT_FILE} does not refute {CNF_FILE} (varisat's checker): {e}"
            ))
        })?;
        steps.push(format!(
            "{VARISAT_FILE}: refutes {CNF_FILE} (varisat's checker)"
        ));
    }

    let conclusion = match manifest.claim {
        Claim::Optimal { value } => format!("certified: {value} is the optimum of {model_name}"),
        Claim::Satisfiable => format!("certified: {model_name} has a solution"),
        Claim::Unsatisfiable => format!("certified: {model_name} has no solution"),
        Claim::Impossible { .. } | Claim::Count { .. } => {
            unreachable!("impossibility and count records return above")
        }
    };
    Ok(Checked { steps, conclusion })
}

/// Holds the folder `dir` to its manifest: every file the manifest lists is there, each one in
/// [`Manifest::files`] with the SHA-256 recorded, and there is no other file. The model's own
/// hash is compared by [`check`] next. Returns the step line, if any file is listed.
fn check_files(dir: &Path, manifest: &Manifest) -> Result<Option<String>, CheckError> {
    let failed = CheckError::Failed;
    // Names come from the manifest: only plain names inside the folder are acceptable.
    let plain =
        |name: &str| !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\']);
    let mut listed = std::collections::BTreeSet::from([MANIFEST_FILE]);
    for name in
        std::iter::once(&manifest.model.file).chain(manifest.files.values().map(|e| &e.name))
    {
        if !plain(name) {
            return Err(failed(format!(
                "{MANIFEST_FILE}: {name:?} is not the name of a file in the folder"
            )));
        }
        if !listed.insert(name) {
            return Err(failed(format!("{MANIFEST_FILE}: {name} is listed twice")));
        }
    }
    let missing = |name: &str| {
        failed(format!(
            "{name}: listed in the manifest but missing from the folder"
        ))
    };
    if !dir.join(&manifest.model.file).is_file() {
        return Err(missing(&manifest.model.file));
    }
    for entry in manifest.files.values() {
        let name = &entry.name;
        let bytes = match std::fs::read(dir.join(name)) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(missing(name)),
            Err(e) => return Err(failed(format!("{name}: cannot read: {e}"))),
        };
        let Some(expected) = &entry.sha256 else {
            return Err(failed(format!(
                "{MANIFEST_FILE}: the entry of {name} has no sha256"
            )));
        };
        let hash = sha256_hex(&bytes);
        if hash != *expected {
            return Err(failed(format!(
                "{name}: SHA-256 {hash} differs from the manifest's {expected} (the file was changed)"
            )));
        }
    }
    let entries = std::fs::read_dir(dir)
        .map_err(|e| failed(format!("{}: cannot list: {e}", dir.display())))?;
    let mut extra: Vec<String> = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| failed(format!("{}: cannot list: {e}", dir.display())))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !listed.contains(name.as_str()) {
            extra.push(name);
        }
    }
    extra.sort();
    if let Some(name) = extra.first() {
        return Err(failed(format!(
            "{name}: not listed in the manifest (a certificate folder holds only the files its manifest lists)"
        )));
    }
    if manifest.files.is_empty() {
        return Ok(None);
    }
    let names: Vec<&str> = manifest.files.values().map(|e| e.name.as_str()).collect();
    Ok(Some(format!(
        "files: SHA-256 matches the manifest for each of {} ({}), and the folder holds no other file",
        names.len(),
        names.join(", ")
    )))
}

/// Where two texts first differ, by line, in words; `None` when they are identical.
fn first_difference(expected: &str, found: &str) -> Option<String> {
    if expected == found {
        return None;
    }
    let mut expected_lines = expected.lines();
    let mut found_lines = found.lines();
    let mut line = 1;
    loop {
        match (expected_lines.next(), found_lines.next()) {
            (Some(e), Some(f)) if e == f => line += 1,
            (Some(e), Some(f)) => {
                return Some(format!("line {line} is {f:?}, expected {e:?}"));
            }
            (Some(e), None) => return Some(format!("line {line} is missing, expected {e:?}")),
            (None, Some(f)) => return Some(format!("line {line} is extra: {f:?}")),
            // Same lines, different line endings or final newline.
            (None, None) => return Some("the line endings differ".to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Constraint;

    #[test]
    fn witness_text_round_trips_and_rejects_gaps() {
        let values = vec![true, false, true];
        let a = Assignment::new(values.clone());
        let text = "c hello\nv 1 -2\nv 3 0\n";
        assert_eq!(parse_witness(text, 3).unwrap(), a);
        assert_eq!(
            parse_witness("v 1 -2 0\n", 3).unwrap_err(),
            "variable 3 has no value"
        );
        assert_eq!(
            parse_witness("v 1 -1 3 0\n", 3).unwrap_err(),
            "line 1: variable 1 is given twice"
        );
        assert_eq!(
            parse_witness("v 1 -2 4 0\n", 3).unwrap_err(),
            "line 1: variable 4 is not a model variable (1..=3)"
        );
        assert_eq!(
            parse_witness("v 1 -2 3\n", 3).unwrap_err(),
            "the values are not ended by 0"
        );
    }

    #[test]
    fn an_impossible_model_without_objective_is_refuted_by_both_checkers() {
        // Three variables, pairwise exclusive, and at least two true: impossible.
        let mut model = Model::new();
        let lits: Vec<_> = (0..3)
            .map(|i| model.new_var(format!("x{i}")).positive())
            .collect();
        model.add(Constraint::AtMostOne(lits.clone()));
        model.add(Constraint::AtLeast(lits, 2));
        assert_eq!(refuted_dimacs(&model, &Claim::Satisfiable, &[]), None);
        let (text, entry) = refuted_dimacs(&model, &Claim::Unsatisfiable, &[]).unwrap();
        assert_eq!(entry.refuted.as_deref(), Some("the constraints alone"));
        assert!(text.contains("c var 3 x2\n"), "{text}");
        let (num_vars, clauses) = parse_dimacs(&text).unwrap();
        let (mut native, mut lrat) = (Vec::new(), Vec::new());
        let outcome = refute(
            num_vars,
            &clauses,
            SolverProofFormat::Varisat,
            &mut native,
            &mut lrat,
        )
        .unwrap();
        assert_eq!(outcome, Refutation::Unsatisfiable);
        check_lrat(num_vars, &clauses, std::str::from_utf8(&lrat).unwrap()).unwrap();
        check_with_varisat(num_vars, &clauses, &native[..]).unwrap();
    }

    struct Connected;

    impl crate::model::LazyConstraint for Connected {
        fn name(&self) -> &str {
            "connectivity"
        }
        fn cuts(&self, _: &Assignment) -> Vec<Vec<crate::model::Lit>> {
            Vec::new()
        }
    }

    #[test]
    fn models_with_lazy_constraints_that_give_no_reasons_are_refused() {
        let mut model = Model::new();
        model.new_var("x");
        assert!(refuse_lazy(&model, Path::new("m.toml")).is_ok());
        // A dissection's connected parts justify their cuts: accepted.
        let dissection =
            crate::puzzle::dissection::DissectionPuzzle::from_picture("####", 2, true).compile();
        assert_eq!(dissection.lazy.len(), 1);
        assert!(refuse_lazy(&dissection, Path::new("d.toml")).is_ok());
        model.lazy.push(Box::new(Connected));
        let error = refuse_lazy(&model, Path::new("m.toml")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "m.toml: cannot certify a model with lazy constraints that give no reasons for \
             their cuts (connectivity): a refutation using their cuts could not be checked"
        );
    }

    #[test]
    fn the_cnf_ends_with_the_cuts_and_says_so() {
        let mut model = Model::new();
        let x = model.new_var("x").positive();
        let y = model.new_var("y").positive();
        model.add(Constraint::Clause(vec![x, y]));
        let (plain, plain_entry) = refuted_dimacs(&model, &Claim::Unsatisfiable, &[]).unwrap();
        assert_eq!(plain_entry.cuts, 0);
        assert!(!plain.contains(CUTS_FILE), "{plain}");
        let cuts = vec![vec![!x], vec![!y]];
        let (text, entry) = refuted_dimacs(&model, &Claim::Unsatisfiable, &cuts).unwrap();
        assert_eq!((entry.clauses, entry.cuts), (3, 2));
        assert!(
            text.contains("c the last 2 clauses are the cuts of cuts.txt, in its order\n"),
            "{text}"
        );
        assert!(text.ends_with("p cnf 2 3\n1 2 0\n-1 0\n-2 0\n"), "{text}");
    }

    #[test]
    fn first_difference_names_the_line() {
        assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
        assert_eq!(
            first_difference("a\nb\n", "a\nc\n").unwrap(),
            "line 2 is \"c\", expected \"b\""
        );
        assert_eq!(
            first_difference("a\nb\n", "a\n").unwrap(),
            "line 2 is missing, expected \"b\""
        );
        assert_eq!(
            first_difference("a\n", "a\nz\n").unwrap(),
            "line 2 is extra: \"z\""
        );
        assert_eq!(
            first_difference("a\n", "a").unwrap(),
            "the line endings differ"
        );
    }

    #[test]
    fn sha256_matches_a_known_digest() {
        // FIPS 180-2 example "abc".
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
