//! Certificates of maximum packing by the Russian-doll table: one small refutation per table
//! entry instead of one refutation of "at least optimum + 1" over the whole CNF.
//!
//! # The argument
//!
//! Number the cells in a *scan order* (a permutation of the cells, listed in [`TABLE_FILE`];
//! `prove` takes the Russian-doll engine's). A placement's *first position* is the smallest
//! scan position of its cells. The table holds, per scan position `c`, an entry `S[c]`: at
//! most `S[c]` pieces of any packing have their first position at `c` or later (`S[P] = 0`
//! past the last of the `P` positions). `S[0]` is then an upper bound on every packing, and
//! the witness, a packing with `S[0]` pieces verified by the puzzle's rules, shows it is
//! reached: `S[0]` is the optimum.
//!
//! Each entry is justified by its own *step*: a CNF that is unsatisfiable exactly when the
//! entry holds given the later entries. The placements are ordered by first position, last
//! first (ties by placement index), so that "the pieces starting at `c` or later" are a
//! prefix `x_1..x_m` of that order; one sequential counter over the prefix gives variables
//! `s(i, j)` = "at least `j` of `x_1..x_i`" (defined both ways, so exact), and then:
//!
//! * "at most `S[q]` pieces start at `q` or later" is the unit clause `-s(m(q), S[q] + 1)`;
//! * "at least `S[c] + 1` pieces start at `c` or later" is the unit `s(m(c), S[c] + 1)`.
//!
//! Step `c`'s CNF is: at most one placement of the prefix per cell, the piece counts over the
//! prefix, the counter, the units "at most `S[q]`" for every later position `q`, and "at
//! least `S[c] + 1`". An entry that does not grow (`S[c] = S[c + 1]`) needs a real search;
//! one that grows by one follows from the next entry and the at-most-one on cell `c` (every
//! placement starting at `c` covers `c`), a short refutation. Step 0 refutes "at least
//! optimum + 1" over all placements given all the later units: it is the final claim. The
//! steps depend only on the model and the table, so they are refuted, stored and checked
//! independently, in parallel, and in shards.
//!
//! Soundness, read backwards from the last position: if every step is refuted, then by
//! induction from `c = P - 1` down every entry is a true upper bound (step `c` uses only
//! the entries after `c`, already true), so `S[0]` bounds every packing.
//!
//! # The folder
//!
//! Besides `manifest.json`, `model.toml` and `witness.txt` (as for every certificate):
//!
//! * [`TABLE_FILE`]: the scan order and the table, one line per position;
//! * `step-NNN.drat.gz` (CaDiCaL's binary DRAT, gzip-compressed, checked by
//!   [`crate::checkers::drat`]) or `step-NNN.lrat` (varisat's LRAT, checked by
//!   [`crate::checkers::lrat`]; used when `cadical` is not on PATH): the refutation of step
//!   `NNN`. `check` also takes uncompressed `step-NNN.drat` (text or binary).
//! * `step-NNN.cnf`, only when asked for ([`TableOptions::store_cnf`]): the step's CNF as
//!   DIMACS. Otherwise `check` rebuilds it from the model and the table ([`step_dimacs`]
//!   writes the same text for other checkers): the CNFs of a 13 x 19 box would be hundreds
//!   of megabytes.
//!
//! Every file is listed in the manifest with its SHA-256 under a role (`table`, `step-NNN`,
//! `step-NNN-cnf`), as for every certificate.
//!
//! Why CaDiCaL and compressed binary DRAT, measured on the 13 x 19 box (one run each on the
//! shared 2-core machine, so times are rough): its hardest step (6) took CaDiCaL 11 s of
//! CPU and 51 MB of text DRAT, varisat 32 s and 490 MB of LRAT; all 247 steps are 785 MB of
//! text DRAT, 150 MB as gzip-compressed binary DRAT. The implied clauses `s(i, j) ->
//! s(i, j - 1)` and CaDiCaL's `--unsat` each made the proofs of the hard steps 10-15%
//! shorter (a step refuted forward, counting from `c` with "at least `S[c] + 1 - S[q]`
//! before `q`" units, took 4x longer and 4x the proof).
//!
//! # Shards
//!
//! `prove --shard I/N` refutes only the steps with index `c % N == I - 1` (and writes a
//! manifest naming the shard); `check --shard I/N` checks everything but the proofs of the
//! other shards' steps. To combine shards proved on several machines, copy their `step-*`
//! files into one folder and run `prove` there without `--shard`: it keeps every step proof
//! it finds that its checker accepts against the step's CNF rebuilt from the (deterministic)
//! table, refutes the missing steps, and writes the full manifest.

use super::read::CheckedFolder;
use super::write::{write_error, write_manifest, Folder, Record};
use super::{
    verified_witness, witness_text, CheckError, Checked, Claim, EncodingEntry, FileEntry, Manifest,
    ProveError, ProveOptions, CNF_FILE, CUTS_FILE, DRAT_FILE, LRAT_FILE, MANIFEST_FILE, MODEL_FILE,
    VARISAT_FILE, WITNESS_FILE,
};
use crate::base::shard::Shard;
use crate::base::Control;
use crate::cert::refute::{refute, Refutation, SolverProofFormat};
use crate::checkers::drat::{check_drat, ProofEncoding};
use crate::checkers::lrat::check_lrat;
use crate::encode::amo::{at_most_one, AmoEncoding};
use crate::encode::cnf::encode_constraint;
use crate::encode::dimacs::write_dimacs;
use crate::encode::{ClauseSink, Cnf};
use crate::engines::russian_doll::{self, DollOptions};
use crate::model::{Assignment, Constraint, Lit, Var};
use crate::puzzle::packing::{Packing, PackingKind};
use crate::puzzle::Puzzle;
use rayon::prelude::*;
use std::fmt::Write as _;
use std::io::{Read, Write as _};
use std::path::Path;
use std::time::Instant;

/// The table's file name inside a certificate folder.
pub const TABLE_FILE: &str = "table.txt";
/// The manifest role of [`TABLE_FILE`]; its presence marks a table certificate.
pub const TABLE_ROLE: &str = "table";

/// The step proof files' extensions: LRAT text, DRAT (text or binary), gzip-compressed DRAT.
const PROOF_KINDS: [&str; 3] = ["lrat", "drat", "drat.gz"];

/// The gzip level of compressed proofs: binary DRAT of the 13 x 19 box shrinks about 2.4x
/// at level 3 (5x against text DRAT); higher levels gain little and cost much more time.
const GZIP_LEVEL: u32 = 3;

/// The at-most-one encoding of the steps' cells (the CNF must be rebuilt exactly).
const AMO: AmoEncoding = AmoEncoding::Auto;

/// Who refutes the steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepProver {
    /// varisat, writing LRAT (`step-NNN.lrat`), checked by puzzlec's LRAT checker.
    Varisat,
    /// CaDiCaL (the `cadical` program on PATH), writing binary DRAT compressed with gzip
    /// (`step-NNN.drat.gz`), checked by puzzlec's DRAT checker.
    Cadical,
}

impl StepProver {
    /// CaDiCaL when `cadical` is on PATH (much faster on the hard steps), else varisat.
    pub fn auto() -> StepProver {
        if crate::oracle::external::on_path("cadical") {
            StepProver::Cadical
        } else {
            StepProver::Varisat
        }
    }

    fn extension(self) -> &'static str {
        match self {
            StepProver::Varisat => "lrat",
            StepProver::Cadical => "drat.gz",
        }
    }

    /// The solver, as the user would type it.
    fn name(self) -> &'static str {
        match self {
            StepProver::Varisat => "varisat",
            StepProver::Cadical => "cadical",
        }
    }

    fn describe(self) -> &'static str {
        match self {
            StepProver::Varisat => "varisat (LRAT, checked by puzzlec's LRAT checker)",
            StepProver::Cadical => {
                "CaDiCaL (binary DRAT, gzip-compressed, checked by puzzlec's DRAT checker)"
            }
        }
    }
}

/// Options of [`prove`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableOptions {
    /// Who refutes the steps.
    pub prover: StepProver,
    /// Also store every step's CNF (`step-NNN.cnf`); `check` then compares it byte for byte
    /// with the rebuilt one. Off by default: `check` rebuilds the CNFs anyway.
    pub store_cnf: bool,
    /// Refute only this shard's steps (see the module doc).
    pub shard: Option<Shard>,
}

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions {
            prover: StepProver::auto(),
            store_cnf: false,
            shard: None,
        }
    }
}

/// How `prove` certifies `puzzle` by this route under `options`, or `None` when it does not
/// apply: not a maximum packing without minimums, or an external solver other than
/// CaDiCaL asked for (that one gets the single refutation).
pub fn route(puzzle: &Puzzle, options: &ProveOptions) -> Option<TableOptions> {
    applies(puzzle)?;
    let prover = match &options.solver {
        None => StepProver::auto(),
        Some(command) if command.name() == "cadical" => StepProver::Cadical,
        Some(_) => return None,
    };
    Some(TableOptions {
        prover,
        store_cnf: false,
        shard: options.shard,
    })
}

/// The packing of `puzzle` if this route certifies it: a maximum packing without piece
/// minimums (the Russian-doll search does not take minimums).
pub fn applies(puzzle: &Puzzle) -> Option<&Packing> {
    match puzzle {
        Puzzle::Packing(p)
            if p.kind == PackingKind::Maximise
                && p.pieces.iter().all(|s| s.limit.min == 0)
                && !p.instance.placements.is_empty() =>
        {
            Some(p)
        }
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// The table and the steps

/// Why a [`TABLE_FILE`] could not be read (lines are 1-based, comments included).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableFileError {
    /// The file has no line but comments.
    #[error("no `positions` line")]
    NoHeader,
    /// The first line is not `positions N`.
    #[error("expected `positions N`, found {0:?}")]
    BadHeader(String),
    /// `positions N` does not match the region.
    #[error("{positions} positions, but the region has {cells} cells")]
    WrongSize {
        /// N of the header.
        positions: usize,
        /// Cells of the region.
        cells: usize,
    },
    /// A line is not four whole numbers.
    #[error("line {line}: expected four whole numbers `k x y S`")]
    BadLine {
        /// The line.
        line: usize,
    },
    /// The positions are not numbered 0, 1, 2, ... in order.
    #[error("line {line}: position {found}, expected {expected}")]
    OutOfOrder {
        /// The line.
        line: usize,
        /// The position it gives.
        found: usize,
        /// The position it should give.
        expected: usize,
    },
    /// A cell outside the region.
    #[error("line {line}: cell ({x}, {y}) is outside the region")]
    Outside {
        /// The line.
        line: usize,
        /// The cell's column.
        x: usize,
        /// The cell's row.
        y: usize,
    },
    /// A cell listed twice.
    #[error("line {line}: cell ({x}, {y}) has two positions")]
    Repeated {
        /// The line of the second listing.
        line: usize,
        /// The cell's column.
        x: usize,
        /// The cell's row.
        y: usize,
    },
    /// Fewer positions than the header announced.
    #[error("{listed} positions listed, {announced} announced")]
    Missing {
        /// Positions listed.
        listed: usize,
        /// Positions announced (the region's cells).
        announced: usize,
    },
}

/// A table that is not shaped as a Russian-doll table of the claimed optimum and its witness.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableShapeError {
    /// An entry is neither the next one nor one more.
    #[error(
        "position {position}: S = {entry} after S = {next} at position {}: an entry is the next one or one more",
        .position + 1
    )]
    Step {
        /// The position.
        position: usize,
        /// Its entry.
        entry: usize,
        /// The next position's entry.
        next: usize,
    },
    /// An entry below the pieces of the witness that start there or later.
    #[error("position {position}: S = {entry}, but the witness has {witness} pieces starting there or later")]
    BelowWitness {
        /// The position.
        position: usize,
        /// Its entry.
        entry: usize,
        /// The witness's pieces starting there or later.
        witness: usize,
    },
    /// `S[0]` is not the claimed optimum.
    #[error("position 0: S = {entry}, but the claimed optimum is {optimum}")]
    NotTheOptimum {
        /// `S[0]`.
        entry: usize,
        /// The manifest's optimum.
        optimum: usize,
    },
}

impl TableShapeError {
    /// The position (and so the step) whose entry breaks the rule.
    pub fn position(&self) -> usize {
        match self {
            TableShapeError::Step { position, .. }
            | TableShapeError::BelowWitness { position, .. } => *position,
            TableShapeError::NotTheOptimum { .. } => 0,
        }
    }
}

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

/// Why a step proof does not refute its step's CNF.
#[derive(Debug, thiserror::Error)]
pub enum StepProofError {
    /// A `.drat.gz` file that gzip cannot read.
    #[error("not a gzip file: {0}")]
    NotGzip(std::io::Error),
    /// An LRAT proof that is not UTF-8 text.
    #[error("not UTF-8 text")]
    NotUtf8,
    /// The LRAT checker rejects it.
    #[error("puzzlec's LRAT checker: {0}")]
    Lrat(#[from] crate::checkers::lrat::LratError),
    /// The DRAT checker rejects it.
    #[error("puzzlec's DRAT checker: {0}")]
    Drat(#[from] crate::checkers::drat::DratError),
    /// A proof file of a kind puzzlec does not know.
    #[error("unknown proof kind {0:?}")]
    UnknownKind(String),
}

/// Why `check` rejects one step.
#[derive(Debug, thiserror::Error)]
pub enum StepCheckError {
    /// The manifest lists no proof of the step.
    #[error("no proof: {MANIFEST_FILE} lists no {step} file (the step is missing)")]
    Missing {
        /// The step's name (`step-NNN`).
        step: String,
    },
    /// The manifest lists a step file with a name puzzlec does not know.
    #[error("{file}: a step proof is named {step}.lrat or {step}.drat or {step}.drat.gz")]
    BadName {
        /// The file listed.
        file: String,
        /// The step's name (`step-NNN`).
        step: String,
    },
    /// A file of the step cannot be read.
    #[error("{file}: cannot read: {source}")]
    CannotRead {
        /// The file.
        file: String,
        /// Why.
        source: std::io::Error,
    },
    /// The rebuilt CNF could not be written (`check --write-cnf`).
    #[error("cannot write {}: {source}", file.display())]
    CannotWrite {
        /// The file.
        file: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A stored CNF differs from the one rebuilt from the model and the table.
    #[error("{file} differs from the CNF rebuilt from {MODEL_FILE} and {TABLE_FILE} (first at line {line})")]
    CnfDiffers {
        /// The stored CNF.
        file: String,
        /// The first line that differs (1-based).
        line: usize,
    },
    /// The proof does not refute the rebuilt CNF.
    #[error("{file} does not refute the step's CNF ({source})")]
    Proof {
        /// The proof file.
        file: String,
        /// Why.
        source: StepProofError,
    },
}

/// A scan order and its table: the content of [`TABLE_FILE`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// Position `k`'s row-major cell.
    pub order: Vec<usize>,
    /// `S[k]` for `k` in `0..=P` (the last is 0).
    pub entries: Vec<usize>,
}

impl Table {
    /// The table as text: comments, `positions P`, then `k x y S[k]` per position.
    pub fn text(&self, width: usize) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "c puzzlec Russian-doll table of {MODEL_FILE}");
        let _ = writeln!(
            out,
            "c line `k x y S`: scan position k is cell (x, y); at most S pieces have their first cell (smallest scan position) at k or later"
        );
        let _ = writeln!(
            out,
            "c step k refutes \"at least S + 1 pieces start at k or later\" given the entries after k; S = 0 past the last position"
        );
        let _ = writeln!(out, "positions {}", self.order.len());
        for (k, (&cell, &s)) in self.order.iter().zip(&self.entries).enumerate() {
            let _ = writeln!(out, "{k} {} {} {s}", cell % width, cell / width);
        }
        out
    }

    /// Reads [`Table::text`] for a `width x height` region, checking that the positions are
    /// numbered in order and the cells form a permutation.
    pub fn parse(text: &str, width: usize, height: usize) -> Result<Table, TableFileError> {
        let cells = width * height;
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('c'));
        let (_, header) = lines.next().ok_or(TableFileError::NoHeader)?;
        let positions: usize = header
            .strip_prefix("positions ")
            .and_then(|n| n.trim().parse().ok())
            .ok_or_else(|| TableFileError::BadHeader(header.to_string()))?;
        if positions != cells {
            return Err(TableFileError::WrongSize { positions, cells });
        }
        let mut order = Vec::with_capacity(cells);
        let mut entries = Vec::with_capacity(cells + 1);
        let mut seen = vec![false; cells];
        for (index, line) in lines {
            let number = index + 1;
            let fields: Vec<usize> = line
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|_| TableFileError::BadLine { line: number })?;
            let &[k, x, y, s] = &fields[..] else {
                return Err(TableFileError::BadLine { line: number });
            };
            if k != order.len() {
                return Err(TableFileError::OutOfOrder {
                    line: number,
                    found: k,
                    expected: order.len(),
                });
            }
            if x >= width || y >= height {
                return Err(TableFileError::Outside { line: number, x, y });
            }
            let cell = y * width + x;
            if std::mem::replace(&mut seen[cell], true) {
                return Err(TableFileError::Repeated { line: number, x, y });
            }
            order.push(cell);
            entries.push(s);
        }
        if order.len() != cells {
            return Err(TableFileError::Missing {
                listed: order.len(),
                announced: cells,
            });
        }
        entries.push(0);
        Ok(Table { order, entries })
    }
}

/// The placements in step order: by first position, last first.
#[derive(Clone, Debug)]
pub struct Ranking {
    /// Placement indices, by first position descending, ties by index.
    pub ranked: Vec<usize>,
    /// Per placement, its first position.
    pub first: Vec<usize>,
    /// `prefix[c]`: how many placements have their first position at `c` or later
    /// (`0..=P`), so they are `ranked[..prefix[c]]`.
    pub prefix: Vec<usize>,
}

impl Ranking {
    /// The ranking of `packing`'s placements under the scan `order`.
    pub fn new(packing: &Packing, order: &[usize]) -> Ranking {
        let mut position = vec![0; order.len()];
        for (k, &cell) in order.iter().enumerate() {
            position[cell] = k;
        }
        let placements = &packing.instance.placements;
        let first: Vec<usize> = placements
            .iter()
            .map(|p| p.cells.iter().map(|&c| position[c]).min().unwrap_or(0))
            .collect();
        let mut ranked: Vec<usize> = (0..placements.len()).collect();
        ranked.sort_by_key(|&i| (std::cmp::Reverse(first[i]), i));
        let mut prefix = vec![0; order.len() + 1];
        for &f in &first {
            prefix[f] += 1;
        }
        for c in (0..order.len()).rev() {
            prefix[c] += prefix[c + 1];
        }
        Ranking {
            ranked,
            first,
            prefix,
        }
    }
}

/// Checks the table's shape against the claimed optimum and the witness: the entries never
/// fall by more than one from one position to the previous and never rise, `S[0]` is the
/// optimum, and no entry is below the witness's pieces starting there or later (the witness
/// shows that many fit). Names the first position that breaks a rule.
pub(super) fn check_shape(
    table: &Table,
    ranking_first: &[usize],
    witness: &[usize],
    optimum: usize,
) -> Result<(), TableShapeError> {
    let p = table.order.len();
    let mut from = vec![0usize; p + 1];
    for &i in witness {
        from[ranking_first[i]] += 1;
    }
    for c in (0..p).rev() {
        from[c] += from[c + 1];
    }
    for c in (0..p).rev() {
        let (s, next) = (table.entries[c], table.entries[c + 1]);
        if s < next || s > next + 1 {
            return Err(TableShapeError::Step {
                position: c,
                entry: s,
                next,
            });
        }
        if s < from[c] {
            return Err(TableShapeError::BelowWitness {
                position: c,
                entry: s,
                witness: from[c],
            });
        }
    }
    if table.entries[0] != optimum {
        return Err(TableShapeError::NotTheOptimum {
            entry: table.entries[0],
            optimum,
        });
    }
    Ok(())
}

/// Step `c`'s CNF (see the module doc): variables `1..=m` are the placements starting at
/// `c` or later in ranked order, then the counter `s(i, j)` row by row (`i = 1..=m`,
/// `j = 1..=min(i, S[c] + 1)`), then the auxiliaries of the cell and piece constraints.
/// Clauses: the cells' at-most-one, the piece maxima, the counter, the units "at most
/// `S[q]`" for `q > c` (each literal once, in order of `q`), and "at least `S[c] + 1`" last
/// (the empty clause if more pieces than placements are asked for).
pub fn step_cnf(packing: &Packing, ranking: &Ranking, table: &Table, c: usize) -> Cnf {
    let m = ranking.prefix[c];
    let k = table.entries[c] + 1;
    let ranked = &ranking.ranked[..m];
    let x = |r: usize| Var::from_index(r).positive();
    // start[i]: index of s(i, 1), for i in 1..=m.
    let mut start = vec![0usize; m + 1];
    let mut next = m;
    for (i, slot) in start.iter_mut().enumerate().skip(1) {
        *slot = next;
        next += i.min(k);
    }
    let s = |i: usize, j: usize| Var::from_index(start[i] + j - 1).positive();
    let mut cnf = Cnf::with_vars(next);

    let placements = &packing.instance.placements;
    let mut covering: Vec<Vec<Lit>> = vec![Vec::new(); packing.width * packing.height];
    for (r, &i) in ranked.iter().enumerate() {
        for &cell in &placements[i].cells {
            covering[cell].push(x(r));
        }
    }
    for lits in covering.iter().filter(|l| l.len() >= 2) {
        at_most_one(&mut cnf, lits, AMO);
    }
    for (piece, spec) in packing.pieces.iter().enumerate() {
        let own: Vec<Lit> = (0..m)
            .filter(|&r| placements[ranked[r]].piece == piece)
            .map(x)
            .collect();
        if let Some(max) = spec.limit.max {
            if max < own.len() {
                encode_constraint(&mut cnf, &Constraint::AtMost(own, max), AMO);
            }
        }
    }
    for i in 1..=m {
        let xi = x(i - 1);
        for j in 1..=i.min(k) {
            let here = s(i, j);
            let above = (j < i).then(|| s(i - 1, j));
            // Upwards: s(i - 1, j) or (x_i and s(i - 1, j - 1)) gives s(i, j).
            if let Some(above) = above {
                cnf.add_clause(&[!above, here]);
            }
            if j == 1 {
                cnf.add_clause(&[!xi, here]);
            } else {
                cnf.add_clause(&[!xi, !s(i - 1, j - 1), here]);
            }
            // Downwards: s(i, j) needs s(i - 1, j), or x_i and s(i - 1, j - 1).
            let mut clause = vec![!here];
            clause.extend(above);
            clause.push(xi);
            cnf.add_clause(&clause);
            if j >= 2 {
                clause.pop();
                clause.push(s(i - 1, j - 1));
                cnf.add_clause(&clause);
                // Implied by the rest, but it shortens the proofs (13 x 19, step 6:
                // 13% smaller DRAT).
                cnf.add_clause(&[!here, s(i, j - 1)]);
            }
        }
    }
    let mut units: Vec<Lit> = Vec::new();
    for q in c + 1..table.order.len() {
        let (mq, bound) = (ranking.prefix[q], table.entries[q] + 1);
        if mq > 0 && bound <= mq.min(k) {
            let unit = !s(mq, bound);
            if units.last() != Some(&unit) && !units.contains(&unit) {
                units.push(unit);
            }
        }
    }
    for unit in units {
        cnf.add_clause(&[unit]);
    }
    if k <= m {
        cnf.add_clause(&[s(m, k)]);
    } else {
        cnf.add_clause(&[]);
    }
    cnf
}

/// Step `c`'s CNF as DIMACS text, with comments saying what it asks and `c var` lines naming
/// the placements.
pub fn step_dimacs(
    packing: &Packing,
    ranking: &Ranking,
    table: &Table,
    c: usize,
    cnf: &Cnf,
) -> String {
    let m = ranking.prefix[c];
    let s = table.entries[c];
    let cell = table.order[c];
    let comments = vec![
        format!(
            "puzzlec table step {c} of {MODEL_FILE}: refutes \"at least {} pieces start at scan position {c}, cell ({}, {}), or later\"",
            s + 1,
            cell % packing.width,
            cell / packing.width
        ),
        format!(
            "variables 1..={m}: the placements starting there or later, last first; then the counter s(i, j) = \"at least j of the first i\", j <= {}, row by row; then auxiliaries",
            s + 1
        ),
        "clauses: at most one placement per cell, the piece maxima, the counter, \"at most S[q]\" for every later position q, \"at least S + 1\" last".to_string(),
    ];
    let names: Vec<String> = ranking.ranked[..m]
        .iter()
        .map(|&i| packing.placement_name(i))
        .collect();
    write_dimacs(cnf, &names, &comments)
}

/// The clauses of `cnf` as DIMACS integers.
fn clauses_of(cnf: &Cnf) -> Vec<Vec<i32>> {
    cnf.clauses
        .iter()
        .map(|c| c.iter().map(|l| l.dimacs() as i32).collect())
        .collect()
}

/// The name of step `c`'s files: `step-017` (at least three digits, as many as the last
/// position needs).
fn step_name(c: usize, positions: usize) -> String {
    let digits = positions.saturating_sub(1).to_string().len().max(3);
    format!("step-{c:0digits$}")
}

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

/// Checks a step proof (`extension` says which checker) against the step's clauses: the
/// lemmas it adds (LRAT additions, DRAT lemmas), or why it does not refute them.
fn check_step_proof(
    extension: &str,
    num_vars: usize,
    clauses: &[Vec<i32>],
    proof: &[u8],
) -> Result<usize, StepProofError> {
    let unzipped;
    let (extension, proof) = match extension {
        "drat.gz" => {
            let mut bytes = Vec::new();
            flate2::read::GzDecoder::new(proof)
                .read_to_end(&mut bytes)
                .map_err(StepProofError::NotGzip)?;
            unzipped = bytes;
            ("drat", &unzipped[..])
        }
        other => (other, proof),
    };
    match extension {
        "lrat" => {
            let text = std::str::from_utf8(proof).map_err(|_| StepProofError::NotUtf8)?;
            Ok(check_lrat(num_vars, clauses, text)?.additions)
        }
        "drat" => Ok(check_drat(num_vars, clauses, proof, ProofEncoding::Detect)?.lemmas),
        other => Err(StepProofError::UnknownKind(other.to_string())),
    }
}

// ---------------------------------------------------------------------------------------------
// prove

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
        memo_bytes: russian_doll::memo_bytes_within(control.max_memory()),
        ..DollOptions::default()
    };
    let outcome = russian_doll::solve(&packing.instance, &doll, |_, _| {})
        .map_err(|e| internal(format!("the Russian-doll search: {e}")))?;
    if control.should_stop() {
        return Err(ProveError::Stopped(control.reason()));
    }
    let entries: Vec<usize> = outcome
        .table
        .iter()
        .map(|e| e.ok_or_else(|| internal("the Russian-doll table is incomplete".into())))
        .collect::<Result<_, _>>()?;
    if !outcome.proved || entries.last() != Some(&0) || entries[0] != outcome.best.len() {
        return Err(internal(
            "the Russian-doll search did not prove its answer".into(),
        ));
    }
    let table = Table {
        order: outcome.order.clone(),
        entries,
    };
    let optimum = outcome.best.len();
    let solve_seconds = start.elapsed().as_secs_f64();

    let mut values = vec![false; packing.instance.placements.len()];
    for &i in &outcome.best {
        values[i] = true;
    }
    let witness = Assignment::new(values);
    let solution = puzzle.decode(&witness);
    puzzle
        .verify(&solution)
        .map_err(|e| internal(format!("the Russian-doll packing: {e}")))?;
    let ranking = Ranking::new(packing, &table.order);
    check_shape(&table, &ranking.first, &outcome.best, optimum)
        .map_err(|e| internal(format!("the Russian-doll table: {e}")))?;

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
                entries.push((name, FileEntry::of(&file, &proof)));
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

// ---------------------------------------------------------------------------------------------
// check

/// Checks the parts a table certificate and a sharded VeriPB one share, pushing a line for
/// each into `steps`: the model's line, the witness (a packing by the rules of `optimum`
/// pieces) and the table (a scan order, and entries shaped as a Russian-doll table the
/// witness fits, `S[0] = optimum`). `position` names a table position in errors ("step",
/// "entry"), `at` says where `S[0]` stands. The table and its ranking of placements.
pub(super) fn check_table_and_witness(
    folder: &CheckedFolder,
    manifest: &Manifest,
    (puzzle, packing): (&Puzzle, &Packing),
    optimum: usize,
    (position, at): (&str, &str),
    steps: &mut Vec<String>,
) -> Result<(Table, Ranking), CheckError> {
    let failed = CheckError::Failed;
    let model_name = &manifest.model.file;
    let num_vars = packing.instance.placements.len();
    steps.push(format!(
        "{model_name}: SHA-256 matches the manifest (packing puzzle, {num_vars} placements)"
    ));
    let witness_name = folder.file_of(manifest, "witness")?;
    let (witness, step) = verified_witness(
        witness_name,
        &folder.text(witness_name)?,
        num_vars,
        puzzle,
        &Claim::Optimal { value: optimum },
    )?;
    steps.push(step);

    let table_name = folder.file_of(manifest, TABLE_ROLE)?;
    let table = Table::parse(&folder.text(table_name)?, packing.width, packing.height)
        .map_err(|e| failed(format!("{table_name}: {e}")))?;
    let ranking = Ranking::new(packing, &table.order);
    let chosen: Vec<usize> = (0..num_vars)
        .filter(|&i| witness.value(Var::from_index(i)))
        .collect();
    check_shape(&table, &ranking.first, &chosen, optimum)
        .map_err(|e| failed(format!("{table_name}: {position} {}: {e}", e.position())))?;
    steps.push(format!(
        "{table_name}: a scan order of the {} cells and a table with S = {optimum}{at}, never falling by more than one, never below the witness",
        table.order.len()
    ));
    Ok((table, ranking))
}

/// Checks a table certificate in `dir` whose manifest and files (SHA-256 of every listed file,
/// no other file) and model hash were already verified; `steps` holds the lines so far.
/// With `shard`, only that shard's step proofs are checked (the conclusion then says the
/// certificate is partly checked).
pub fn check(
    dir: &Path,
    manifest: &Manifest,
    puzzle: &Puzzle,
    shard: Option<Shard>,
    write_cnf: Option<&Path>,
    mut steps: Vec<String>,
) -> Result<Checked, CheckError> {
    let failed = CheckError::Failed;
    let model_name = &manifest.model.file;
    let Some(packing) = applies(puzzle) else {
        return Err(failed(format!(
            "{TABLE_FILE}: a table certificate is for a maximum packing without piece minimums, and {model_name} is not one"
        )));
    };
    let Claim::Optimal { value: optimum } = manifest.claim else {
        return Err(failed(format!(
            "{MANIFEST_FILE}: a table certificate claims an optimum"
        )));
    };
    let folder = CheckedFolder {
        dir,
        write_cnf: None,
    };
    let (table, ranking) = check_table_and_witness(
        &folder,
        manifest,
        (puzzle, packing),
        optimum,
        ("step", " at position 0"),
        &mut steps,
    )?;
    let positions = table.order.len();
    let table_name = folder.file_of(manifest, TABLE_ROLE)?;

    // Every step: its CNF rebuilt, its proof checked. In parallel; the first failing step
    // (by index) is reported.
    let owned: Vec<usize> = (0..positions)
        .filter(|&c| shard.is_none_or(|s| s.owns(c)))
        .collect();
    let results: Vec<Result<StepChecked, StepCheckError>> = owned
        .par_iter()
        .map(|&c| check_step(dir, manifest, packing, &ranking, &table, c, write_cnf))
        .collect();
    let (mut lrat, mut drat, mut stored, mut lemmas) = (0usize, 0usize, 0usize, 0usize);
    for (&c, result) in owned.iter().zip(results) {
        let cell = table.order[c];
        let checked = result.map_err(|e| {
            failed(format!(
                "step {c} (position {c}, cell ({}, {})): {e}",
                cell % packing.width,
                cell / packing.width
            ))
        })?;
        if checked.kind == "lrat" {
            lrat += 1;
        } else {
            drat += 1;
        }
        stored += usize::from(checked.stored_cnf);
        lemmas += checked.lemmas;
    }
    let which = match shard {
        Some(s) => format!("the {} steps of shard {s}", owned.len()),
        None => format!("all {positions} steps"),
    };
    let stored = if stored > 0 {
        format!("; {stored} stored CNFs identical to the rebuilt ones")
    } else {
        String::new()
    };
    steps.push(format!(
        "{which}: each step's CNF rebuilt from {model_name} and {table_name}, and refuted by its proof ({lrat} LRAT proofs checked by puzzlec's LRAT checker, {drat} DRAT proofs checked by puzzlec's DRAT checker; {lemmas} lemmas in all){stored}"
    ));
    let conclusion = match shard {
        Some(s) if s.count > 1 => format!(
            "partly certified: shard {s} of the table steps of {model_name} holds (the optimum {optimum} is certified once every shard 1/{}..{}/{} passes)",
            s.count, s.count, s.count
        ),
        _ => format!("certified: {optimum} is the optimum of {model_name}"),
    };
    Ok(Checked { steps, conclusion })
}

/// What [`check_step`] verified.
struct StepChecked {
    /// One of [`PROOF_KINDS`].
    kind: &'static str,
    /// Lemmas (LRAT additions, DRAT lemmas) in the proof.
    lemmas: usize,
    /// Whether a stored CNF was compared with the rebuilt one.
    stored_cnf: bool,
}

/// Checks step `c`: the manifest lists its proof, a stored CNF (if any) is the rebuilt one,
/// and the proof refutes the rebuilt CNF.
fn check_step(
    dir: &Path,
    manifest: &Manifest,
    packing: &Packing,
    ranking: &Ranking,
    table: &Table,
    c: usize,
    write_cnf: Option<&Path>,
) -> Result<StepChecked, StepCheckError> {
    let name = step_name(c, table.order.len());
    let Some(entry) = manifest.files.get(&name) else {
        return Err(StepCheckError::Missing { step: name });
    };
    let Some(kind) = PROOF_KINDS
        .into_iter()
        .find(|kind| entry.name == format!("{name}.{kind}"))
    else {
        return Err(StepCheckError::BadName {
            file: entry.name.clone(),
            step: name,
        });
    };
    let cnf = step_cnf(packing, ranking, table, c);
    let stored_cnf = match manifest.files.get(&format!("{name}-cnf")) {
        None => false,
        Some(cnf_entry) => {
            let found = std::fs::read(dir.join(&cnf_entry.name)).map_err(|source| {
                StepCheckError::CannotRead {
                    file: cnf_entry.name.clone(),
                    source,
                }
            })?;
            let rebuilt = step_dimacs(packing, ranking, table, c, &cnf);
            if found != rebuilt.as_bytes() {
                let found = String::from_utf8_lossy(&found);
                let line = rebuilt
                    .lines()
                    .zip(found.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or_else(|| rebuilt.lines().count().min(found.lines().count()))
                    + 1;
                return Err(StepCheckError::CnfDiffers {
                    file: cnf_entry.name.clone(),
                    line,
                });
            }
            true
        }
    };
    let proof =
        std::fs::read(dir.join(&entry.name)).map_err(|source| StepCheckError::CannotRead {
            file: entry.name.clone(),
            source,
        })?;
    let lemmas =
        check_step_proof(kind, cnf.num_vars, &clauses_of(&cnf), &proof).map_err(|source| {
            StepCheckError::Proof {
                file: entry.name.clone(),
                source,
            }
        })?;
    if let Some(out) = write_cnf {
        // The step's CNF, as rebuilt and refuted: `step-NNN.cnf` beside `step-NNN.drat.gz`.
        let path = out.join(format!("{name}.cnf"));
        std::fs::write(&path, step_dimacs(packing, ranking, table, c, &cnf))
            .map_err(|source| StepCheckError::CannotWrite { file: path, source })?;
    }
    Ok(StepChecked {
        kind,
        lemmas,
        stored_cnf,
    })
}

#[cfg(test)]
mod tests {
    use super::{StepCheckError, Table, TableFileError, PROOF_KINDS};

    #[test]
    fn a_misnamed_step_file_lists_every_proof_kind() {
        let names: Vec<String> = PROOF_KINDS.map(|k| format!("step-007.{k}")).to_vec();
        let error = StepCheckError::BadName {
            file: "step-007.txt".into(),
            step: "step-007".into(),
        };
        assert_eq!(
            error.to_string(),
            format!("step-007.txt: a step proof is named {}", names.join(" or "))
        );
    }

    /// A 2 x 1 region's table with `body` after the header `positions 2`.
    fn parse(body: &str) -> Result<Table, TableFileError> {
        Table::parse(&format!("c a comment\npositions 2\n{body}"), 2, 1)
    }

    #[test]
    fn a_table_file_reads_back_what_text_writes() {
        let table = Table {
            order: vec![1, 0],
            entries: vec![1, 1, 0],
        };
        assert_eq!(Table::parse(&table.text(2), 2, 1), Ok(table));
    }

    #[test]
    fn each_malformed_table_file_is_named_by_line() {
        let cases: [(Result<Table, TableFileError>, &str); 8] = [
            (Table::parse("c only\n", 2, 1), "no `positions` line"),
            (
                Table::parse("places 2\n", 2, 1),
                "expected `positions N`, found \"places 2\"",
            ),
            (
                Table::parse("positions 3\n", 2, 1),
                "3 positions, but the region has 2 cells",
            ),
            (
                parse("0 0 0 1\n1 1 0\n"),
                "line 4: expected four whole numbers `k x y S`",
            ),
            (
                parse("0 0 0 1\n2 1 0 0\n"),
                "line 4: position 2, expected 1",
            ),
            (
                parse("0 0 0 1\n1 0 1 0\n"),
                "line 4: cell (0, 1) is outside the region",
            ),
            (
                parse("0 0 0 1\n1 0 0 0\n"),
                "line 4: cell (0, 0) has two positions",
            ),
            (parse("0 0 0 1\n"), "1 positions listed, 2 announced"),
        ];
        for (result, message) in cases {
            assert_eq!(result.unwrap_err().to_string(), message);
        }
    }
}
