//! Writing a certificate folder: the answer found and verified, its refutation proved, each
//! file recorded in the manifest with its hash.

use super::{
    model_entry, refuted_cnf, unrefuted_encoding, witness_text, Claim, FileEntry, Manifest,
    ProveError, RefutationFiles, Times, CNF_FILE, CUTS_FILE, FORMAT, MANIFEST_FILE, MODEL_FILE,
    SINGLE_REFUTATION, WITNESS_FILE, WRITTEN_FILES,
};
use crate::base::digest::{sha256_hex, DigestReader};
use crate::base::evidence::Words;
use crate::base::{plural, Control, Goal, Incumbent, Status};
use crate::cert::refute::{refute, Refutation, SolverProofFormat};
use crate::checkers::lrat::{check_lrat_reader, parse_dimacs};
use crate::formats::manifest::write_manifest_json;
use crate::model::{Assignment, Lit, Model};
use crate::oracle::external_sat::{ExternalSat, SatCommand};
use crate::oracle::varisat::Varisat;
use crate::oracle::SatOracle;
use crate::puzzle::Puzzle;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The most solutions `prove --count` lists by default: beyond it the list and its blocking
/// clauses grow past what is quick to refute and check (N = 16 queens has 14.7 million).
pub const DEFAULT_MAX_LISTED: u64 = 200_000;

/// How [`super::prove_using`] establishes its answer.
#[derive(Clone, Debug)]
pub struct ProveOptions {
    /// Certify the number of solutions instead of the optimum (see [`Claim::Count`] and
    /// [`super::count`]).
    pub count: bool,
    /// With `count`: list one solution of each class under the puzzle's symmetries, and
    /// certify the number of classes and their sizes too.
    pub unique: bool,
    /// With `count`: refuse (before listing) a count above this many solutions, whose list
    /// and blocking clauses would be too big to certify one by one.
    pub max_listed: u64,
    /// An external SAT program (its command line, see [`SatCommand`]) that finds the answer
    /// and writes the DRAT refutation, which puzzlec checks before writing it; varisat when
    /// `None`.
    pub solver: Option<SatCommand>,
    /// Stops the run (a time limit, Ctrl-C): `prove_using` then returns
    /// [`ProveError::Stopped`] without a manifest.
    pub control: Control,
    /// Refute only this shard's steps of a packing-table certificate (see
    /// [`super::table`]).
    pub shard: Option<crate::base::shard::Shard>,
    /// How a maximum packing without piece minimums is certified.
    pub packing_route: PackingRoute,
    /// On the VeriPB route without `shard`: the proof in this many shards, proved on
    /// threads (see [`super::doll_proof`]); 0 (the default here; the command line's is one
    /// per core): one proof of the whole table.
    pub veripb_shards: usize,
    /// On the VeriPB route without `shard`, with `veripb_shards` above 0 and no shards in
    /// the folder: more shards than `veripb_shards` when the proof, estimated from the
    /// fast doll's nodes before it is written, would make a shard larger than this many
    /// bytes (checking a shard takes about 2.4 times its size in memory, both checkers at
    /// once). `None`: `veripb_shards` exactly.
    pub max_shard_bytes: Option<u64>,
    /// On the VeriPB route: whether the doll's proof is streamed into its checkers rather
    /// than stored (see [`super::doll_proof`]'s streamed certificates).
    pub stream: StreamMode,
    /// Streamed: only join the records the folder holds into the manifest (`prove
    /// --join`), proving nothing.
    pub join: bool,
    /// Streamed: no shard's proof estimated above this many bytes where it can be helped
    /// (an entry above it is split at its search states). `None`: no bound.
    pub stream_shard_bytes: Option<u64>,
    /// Streamed: `veripb` reads each shard's proof from an unnamed file on the disk of this
    /// folder (gone when its check ends) rather than from memory, so that a shard's proof
    /// costs disk space, not memory. `None`: memory.
    pub stream_scratch: Option<std::path::PathBuf>,
    /// Streamed: the most clauses the proof search's memo keeps, its oldest given up and
    /// deleted from the proof past them, so that a checker's memory stays bounded however
    /// long a shard's proof runs (records say the bound, which replays use). 0: no bound.
    pub stream_memo_clauses: usize,
    /// Words the evidence a certificate's manifest quotes (`report::evidence::words`).
    pub words: Words,
}

/// Whether `prove` streams the doll's proof into its checkers or stores it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StreamMode {
    /// Streamed when the proof, estimated before it is written, passes a gigabyte, or when
    /// the folder holds a streamed run under way; stored otherwise.
    #[default]
    Auto,
    /// Streamed.
    Always,
    /// Stored.
    Never,
}

/// How `prove` certifies a maximum packing without piece minimums.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PackingRoute {
    /// [`PackingRoute::Veripb`] when the search's proof takes the instance, else
    /// [`PackingRoute::Table`] (a piece maximum that binds, placements reaching over more
    /// than 128 scan cells); the table as well with a `solver` (a SAT refuter) or in a
    /// folder holding table steps to combine.
    #[default]
    Auto,
    /// The VeriPB proof: one cutting-planes step when a packing found quickly meets the area
    /// or LP bound, else the proof the Russian doll writes as it searches (see
    /// [`super::doll_proof`]); an instance it does not take is refused.
    Veripb,
    /// The Russian-doll table, one SAT refutation per entry (see [`super::table`]).
    Table,
}

impl ProveOptions {
    /// The defaults: the optimum certified, varisat, no limit, the packing's route picked,
    /// one proof of the doll's table; evidence worded by `words`.
    pub fn new(words: Words) -> ProveOptions {
        ProveOptions {
            count: false,
            unique: false,
            max_listed: DEFAULT_MAX_LISTED,
            solver: None,
            control: Control::unlimited(),
            shard: None,
            packing_route: PackingRoute::Auto,
            veripb_shards: 0,
            max_shard_bytes: None,
            stream: StreamMode::Auto,
            join: false,
            stream_shard_bytes: None,
            stream_scratch: None,
            stream_memo_clauses: 0,
            words,
        }
    }
}

/// The answer's record: the solver finds the answer, the witness is verified by the rules,
/// and the CNF of "better than the answer" (or of the constraints, for no answer) is refuted
/// with proofs, after the cuts it needs are collected with their reasons.
pub(super) fn record_answer(
    puzzle: &Puzzle,
    model_path: &Path,
    dir: &Path,
    model_bytes: &[u8],
    options: &ProveOptions,
) -> Result<Record, ProveError> {
    let model = puzzle.compile();
    refuse_lazy(&model, model_path)?;
    let solver = ProofSolver::of(options);

    let solve_start = Instant::now();
    let (claim, witness) = find_answer(&model, &solver, &options.control, options.words)?;
    let solve_seconds = solve_start.elapsed().as_secs_f64();
    let mut how = solver.how(&claim)?;

    let mut folder = Folder::fresh(dir, model_bytes)?;
    if let Some(witness) = &witness {
        let solution = puzzle.decode(witness);
        puzzle
            .verify(&solution)
            .map_err(|e| ProveError::Internal(format!("the SAT witness: {e}")))?;
        folder.put(
            "witness",
            WITNESS_FILE,
            witness_text(puzzle, witness).as_bytes(),
        )?;
    }

    let refute_start = Instant::now();
    let cuts = collect_cuts(&model, &claim, &solver, &options.control, &mut folder)?;
    if !cuts.is_empty() {
        let names: Vec<&str> = model.lazy.iter().map(|l| l.name()).collect();
        how = format!(
            "{how}; the CNF ends with {} cuts of {} recorded with their reasons in \
             {CUTS_FILE}, each verified from the puzzle's rules",
            cuts.len(),
            names.join(", ")
        );
    }
    let encoding = match refuted_cnf(&model, &claim, &cuts) {
        None => unrefuted_encoding(&model),
        Some((cnf, text, entry)) => {
            let lemmas = solver.write_refutation(
                &cnf,
                &text,
                &entry,
                SINGLE_REFUTATION,
                &options.control,
                &mut folder,
            )?;
            if let Some(lemmas) = lemmas {
                how = format!("{how} ({})", plural(lemmas as u64, "lemma"));
            }
            entry
        }
    };
    // Nothing refuted (a satisfiable model): no proof run, so no proof time.
    let refute_seconds = if encoding.refuted.is_some() {
        refute_start.elapsed().as_secs_f64()
    } else {
        0.0
    };
    Ok(Record {
        claim,
        how,
        encoding,
        files: folder.files,
        solve_seconds,
        refute_seconds,
    })
}

/// Who finds the answer and writes the refutation.
pub(super) enum ProofSolver<'a> {
    /// varisat: LRAT, DRAT and varisat's own proof format.
    Varisat,
    /// An external SAT program: its DRAT proof, checked by puzzlec's DRAT checker.
    External(&'a SatCommand),
    /// An LRAT proof one of puzzlec's searches wrote into the folder under the LRAT name of
    /// the refutation (a tiling count's exact-cover search: [`super::tiling`]), checked by
    /// puzzlec's LRAT checker before it is kept.
    Search {
        /// Who wrote it, for the manifest.
        name: &'static str,
    },
}

impl<'a> ProofSolver<'a> {
    /// The solver `options` name: an external program, or varisat.
    pub(super) fn of(options: &'a ProveOptions) -> ProofSolver<'a> {
        match &options.solver {
            Some(command) => ProofSolver::External(command),
            None => ProofSolver::Varisat,
        }
    }

    /// Writes the CNF `text` (the clauses of `cnf`, described by `entry`) and its
    /// refutation into `folder` under the names of `files`; returns the lemma count of an
    /// external solver's proof (checked by puzzlec's DRAT checker), `None` for varisat's.
    pub(super) fn write_refutation(
        &self,
        cnf: &crate::encode::Cnf,
        text: &str,
        entry: &super::EncodingEntry,
        files: RefutationFiles,
        control: &Control,
        folder: &mut Folder,
    ) -> Result<Option<usize>, ProveError> {
        folder.put(files.cnf.0, files.cnf.1, text.as_bytes())?;
        let question = entry.refuted.as_deref().unwrap_or("the CNF");
        match self {
            ProofSolver::Varisat => {
                let (num_vars, clauses) = parse_dimacs(text)
                    .map_err(|e| ProveError::Internal(format!("our own DIMACS: {e}")))?;
                write_varisat_proofs(num_vars, &clauses, question, files, folder)?;
                Ok(None)
            }
            ProofSolver::External(command) => {
                write_external_proof(command, cnf, text, question, files, control, folder).map(Some)
            }
            ProofSolver::Search { name } => {
                let (num_vars, clauses) = parse_dimacs(text)
                    .map_err(|e| ProveError::Internal(format!("our own DIMACS: {e}")))?;
                // Hashed as it is checked: one pass over a file of gigabytes.
                let path = folder.dir.join(files.lrat.1);
                let proof = std::fs::File::open(&path).map_err(|e| write_error(&path, &e))?;
                let mut proof =
                    std::io::BufReader::with_capacity(1 << 20, DigestReader::new(proof));
                let stats = check_lrat_reader(num_vars, &clauses, &mut proof).map_err(|e| {
                    ProveError::Internal(format!(
                        "{name} wrote a proof that does not refute {question}: {e}"
                    ))
                })?;
                let (sha256, bytes) = proof
                    .into_inner()
                    .finish()
                    .map_err(|e| write_error(&path, &e))?;
                folder.files.insert(
                    files.lrat.0.to_string(),
                    FileEntry {
                        name: files.lrat.1.to_string(),
                        bytes,
                        sha256: Some(sha256),
                    },
                );
                Ok(Some(stats.additions))
            }
        }
    }

    pub(super) fn name(&self) -> String {
        match self {
            ProofSolver::Varisat => "varisat".to_string(),
            ProofSolver::External(command) => command.name(),
            ProofSolver::Search { name, .. } => name.to_string(),
        }
    }

    /// Who checks the refutation, in the manifest's words.
    pub(super) fn checkers(&self) -> &'static str {
        match self {
            ProofSolver::Varisat => "puzzlec's LRAT checker and varisat's checker",
            ProofSolver::External(_) => "puzzlec's DRAT checker",
            ProofSolver::Search { .. } => "puzzlec's LRAT checker",
        }
    }

    /// How `claim` was established, for the manifest.
    fn how(&self, claim: &Claim) -> Result<String, ProveError> {
        let (name, checkers) = (self.name(), self.checkers());
        Ok(match claim {
            Claim::Optimal { value } => format!(
                "{name} found a solution with {value} and refuted \"objective at least {}\"; \
                 the witness is verified by the puzzle's rules, the refutation by {checkers}",
                value + 1
            ),
            Claim::Satisfiable => {
                format!("{name} found a solution; the witness is verified by the puzzle's rules")
            }
            Claim::Unsatisfiable => {
                format!("{name} refuted the constraints; the refutation is checked by {checkers}")
            }
            Claim::Impossible { .. } | Claim::Count { .. } => {
                return Err(ProveError::Internal(
                    "the SAT backend cannot claim a count or an impossibility".to_string(),
                ))
            }
        })
    }
}

/// The claim and its witness, from the SAT backend maximising the objective.
fn find_answer(
    model: &Model,
    solver: &ProofSolver,
    control: &Control,
    words: Words,
) -> Result<(Claim, Option<Assignment>), ProveError> {
    let incumbent = Incumbent::new();
    let oracle = match solver {
        // A search's proof is a count's; the answer itself comes from varisat.
        ProofSolver::Varisat | ProofSolver::Search { .. } => crate::oracle::Solver::Varisat,
        ProofSolver::External(command) => crate::oracle::Solver::Sat(command),
    };
    let raw = crate::oracle::answer(oracle, model, Goal::Maximise, control, &incumbent)
        .map_err(|e| ProveError::Solver(e.to_string()))?;
    if control.should_stop() {
        return Err(ProveError::Stopped(control.reason()));
    }
    match (raw.status, raw.witness, raw.bound) {
        (Status::Optimal, Some(witness), Some(value)) => {
            Ok((Claim::Optimal { value }, Some(witness)))
        }
        // Without an objective the backend answers "satisfiable" (tilings, dissections).
        (Status::Optimal | Status::Satisfiable, Some(witness), None) => {
            Ok((Claim::Satisfiable, Some(witness)))
        }
        (Status::Unsatisfiable, _, _) => Ok((Claim::Unsatisfiable, None)),
        (status, _, _) => Err(ProveError::Internal(format!(
            "the SAT backend ended {} without a limit: {}",
            status.name(),
            words(&raw.evidence)
        ))),
    }
}

/// The cuts the refutation of `claim` needs, found by the cut loop on the CNF without them
/// and written with their reasons to [`CUTS_FILE`]; none for a model without lazy
/// constraints or a claim that refutes nothing.
fn collect_cuts(
    model: &Model,
    claim: &Claim,
    solver: &ProofSolver,
    control: &Control,
    folder: &mut Folder,
) -> Result<Vec<Vec<Lit>>, ProveError> {
    if model.lazy.is_empty() {
        return Ok(Vec::new());
    }
    let Some((cnf, _, _)) = refuted_cnf(model, claim, &[]) else {
        return Ok(Vec::new());
    };
    let collected = match solver {
        ProofSolver::Varisat | ProofSolver::Search { .. } => {
            super::super::cuts::collect(model, &mut Varisat::new(&cnf), control)
        }
        ProofSolver::External(command) => {
            let names = model.names();
            let comments = vec!["puzzlec: a certificate's CNF while its cuts are collected".into()];
            let mut oracle = ExternalSat::new(command, cnf, names, comments);
            super::super::cuts::collect(model, &mut oracle as &mut dyn SatOracle, control)
        }
    };
    let cuts = match collected {
        Ok(Some(cuts)) => cuts,
        Ok(None) => return Err(ProveError::Stopped(control.reason())),
        Err(e) => return Err(ProveError::Internal(format!("the cut loop: {e}"))),
    };
    let text = super::super::cuts::write(model, &cuts, MODEL_FILE, CNF_FILE);
    folder.put("cuts", CUTS_FILE, text.as_bytes())?;
    Ok(cuts
        .into_iter()
        .map(|recorded| recorded.cut.clause)
        .collect())
}

/// Refutes the CNF with varisat twice (it writes one proof per run) and writes its LRAT,
/// DRAT and native proofs under the names of `files`.
fn write_varisat_proofs(
    num_vars: usize,
    clauses: &[Vec<i32>],
    question: &str,
    files: RefutationFiles,
    folder: &mut Folder,
) -> Result<(), ProveError> {
    let (mut native, mut lrat, mut drat) = (Vec::new(), Vec::new(), Vec::new());
    let outcome = refute(
        num_vars,
        clauses,
        SolverProofFormat::Varisat,
        &mut native,
        &mut lrat,
    )
    .map_err(|e| ProveError::Internal(e.to_string()))?;
    if outcome != Refutation::Unsatisfiable {
        return Err(ProveError::Internal(format!(
            "varisat found {question} satisfiable on the proof run"
        )));
    }
    refute(
        num_vars,
        clauses,
        SolverProofFormat::DratText,
        &mut drat,
        std::io::sink(),
    )
    .map_err(|e| ProveError::Internal(e.to_string()))?;
    end_with_empty_clause(&mut drat);
    folder.put(files.lrat.0, files.lrat.1, &lrat)?;
    folder.put(files.drat.0, files.drat.1, &drat)?;
    folder.put(files.varisat.0, files.varisat.1, &native)
}

/// Refutes the CNF `text` (the clauses of `cnf`) with the external program `command`, which
/// must write a DRAT proof that puzzlec's checker accepts; writes the proof and returns its
/// lemma count.
fn write_external_proof(
    command: &SatCommand,
    cnf: &crate::encode::Cnf,
    text: &str,
    question: &str,
    files: RefutationFiles,
    control: &Control,
    folder: &mut Folder,
) -> Result<usize, ProveError> {
    let name = command.name();
    if !command.writes_proof() {
        return Err(ProveError::Solver(format!(
            "{name} writes no proof: a certificate needs a solver command that names {{proof}}, \
             such as `cadical` (given `--no-binary {{proof}}` by puzzlec)"
        )));
    }
    let answer = crate::oracle::external_sat::run_dimacs(command, text, cnf, control)
        .map_err(|e| ProveError::Solver(e.to_string()))?;
    let Some(answer) = answer else {
        return Err(ProveError::Stopped(control.reason()));
    };
    let (Some(mut proof), crate::oracle::external_sat::RefutationCheck::Checked { lemmas }) =
        (answer.proof, answer.check)
    else {
        return Err(ProveError::Internal(format!(
            "{name} did not refute {question} on the proof run"
        )));
    };
    end_with_empty_clause(&mut proof);
    folder.put(files.drat.0, files.drat.1, &proof)?;
    Ok(lemmas)
}

/// A solver writes no empty clause when loading the formula already refutes it (an empty
/// clause in the CNF); a DRAT proof must still end with one.
fn end_with_empty_clause(drat: &mut Vec<u8>) {
    if !drat
        .split(|&b| b == b'\n')
        .any(|line| line.trim_ascii() == b"0")
    {
        drat.extend_from_slice(b"0\n");
    }
}

/// What `prove` established, to be written into the manifest.
pub(super) struct Record {
    pub(super) claim: Claim,
    pub(super) how: String,
    pub(super) encoding: super::EncodingEntry,
    pub(super) files: BTreeMap<String, FileEntry>,
    pub(super) solve_seconds: f64,
    pub(super) refute_seconds: f64,
}

/// The certificate folder being written: the files put so far, with their hashes.
pub(super) struct Folder {
    pub(super) dir: PathBuf,
    pub(super) files: BTreeMap<String, FileEntry>,
}

impl Folder {
    /// Creates `dir` if needed, leaving what is in it: the caller clears what the new
    /// manifest will not list (the table route keeps step proofs for reuse).
    pub(super) fn open(dir: &Path) -> Result<Folder, ProveError> {
        std::fs::create_dir_all(dir).map_err(|e| write_error(dir, &e))?;
        Ok(Folder {
            dir: dir.to_path_buf(),
            files: BTreeMap::new(),
        })
    }

    /// Creates `dir` if needed, removes the certificate files a former `prove` may have left
    /// there (so that the folder holds only what the new manifest lists) and writes the copy
    /// of the model.
    pub(super) fn fresh(dir: &Path, model_bytes: &[u8]) -> Result<Folder, ProveError> {
        let folder = Folder::open(dir)?;
        for name in WRITTEN_FILES.iter().chain([&MANIFEST_FILE]) {
            let path = dir.join(name);
            match std::fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(write_error(&path, &e))
                }
                _ => {}
            }
        }
        folder.write_model(model_bytes)?;
        Ok(folder)
    }

    /// Writes the copy of the model, which the manifest describes apart from its files.
    pub(super) fn write_model(&self, model_bytes: &[u8]) -> Result<(), ProveError> {
        self.write_file(MODEL_FILE, model_bytes)
    }

    /// Writes the file `name` with the `role` the manifest gives it, recording its SHA-256
    /// for `check`.
    pub(super) fn put(&mut self, role: &str, name: &str, bytes: &[u8]) -> Result<(), ProveError> {
        let entry = self.write(name, bytes)?;
        self.files.insert(role.to_string(), entry);
        Ok(())
    }

    /// Writes the file `name` and returns its manifest entry without recording it: for files
    /// written from several threads, recorded in `files` afterwards.
    pub(super) fn write(&self, name: &str, bytes: &[u8]) -> Result<FileEntry, ProveError> {
        self.write_file(name, bytes)?;
        Ok(file_entry(name, bytes))
    }

    fn write_file(&self, name: &str, bytes: &[u8]) -> Result<(), ProveError> {
        let path = self.dir.join(name);
        std::fs::write(&path, bytes).map_err(|e| write_error(&path, &e))
    }
}

/// The manifest entry of the file `name` holding `bytes`.
pub(super) fn file_entry(name: &str, bytes: &[u8]) -> FileEntry {
    FileEntry {
        name: name.to_string(),
        bytes: bytes.len() as u64,
        sha256: Some(sha256_hex(bytes)),
    }
}

/// Writes `manifest.json` for `record` about the model at `model_path`.
pub(super) fn write_manifest(
    dir: &Path,
    model_path: &Path,
    model_bytes: &[u8],
    puzzle: &Puzzle,
    record: Record,
    start: Instant,
) -> Result<Manifest, ProveError> {
    let mut manifest = Manifest {
        format: FORMAT.to_string(),
        tool: format!("puzzlec {}", env!("CARGO_PKG_VERSION")),
        model: model_entry(model_path, model_bytes, puzzle),
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
    let text = write_manifest_json(&manifest)
        .map_err(|e| ProveError::Internal(format!("manifest: {e}")))?;
    let path = dir.join(MANIFEST_FILE);
    std::fs::write(&path, text).map_err(|e| write_error(&path, &e))?;
    Ok(manifest)
}

/// Refuses models with lazy constraints that cannot justify their cuts: a refutation
/// usually needs their cuts, and `check` could not verify them.
pub(super) fn refuse_lazy(model: &Model, path: &Path) -> Result<(), ProveError> {
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

/// The error of writing (or creating, clearing) `path` in a certificate folder.
pub(super) fn write_error(path: &Path, error: &std::io::Error) -> ProveError {
    ProveError::Write {
        path: path.to_path_buf(),
        message: error.to_string(),
    }
}
