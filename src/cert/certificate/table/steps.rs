//! Each table entry's step: a CNF that is unsatisfiable exactly when the entry holds given
//! the later ones, over the placements ranked by first position (last first) and one
//! sequential counter over them, so that every "at most `S[q]`" is a unit clause. (A step
//! counted forward from its position, with "at least `S[c] + 1 - S[q]` before `q`" units,
//! took 4x the time and 4x the proof on the 13 x 19 box.)

use std::io::Read;

use super::super::MODEL_FILE;
use super::file::Table;
use crate::checkers::drat::{check_drat, ProofEncoding};
use crate::checkers::lrat::check_lrat;
use crate::encode::amo::{at_most_one, AmoEncoding};
use crate::encode::cnf::encode_constraint;
use crate::encode::dimacs::write_dimacs;
use crate::encode::{ClauseSink, Cnf};
use crate::model::{Constraint, Lit, Var};
use crate::puzzle::packing::Packing;

/// The step proof files' extensions: LRAT text, DRAT (text or binary), gzip-compressed DRAT.
pub(super) const PROOF_KINDS: [&str; 3] = ["lrat", "drat", "drat.gz"];

/// The at-most-one encoding of the steps' cells (the CNF must be rebuilt exactly).
pub(super) const AMO: AmoEncoding = AmoEncoding::Auto;

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
pub(super) fn clauses_of(cnf: &Cnf) -> Vec<Vec<i32>> {
    cnf.clauses
        .iter()
        .map(|c| c.iter().map(|l| l.dimacs() as i32).collect())
        .collect()
}

/// The name of step `c`'s files: `step-017` (at least three digits, as many as the last
/// position needs).
pub(super) fn step_name(c: usize, positions: usize) -> String {
    let digits = positions.saturating_sub(1).to_string().len().max(3);
    format!("step-{c:0digits$}")
}

/// Checks a step proof (`extension` says which checker) against the step's clauses: the
/// lemmas it adds (LRAT additions, DRAT lemmas), or why it does not refute them.
pub(super) fn check_step_proof(
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
