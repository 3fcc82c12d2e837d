//! Certificates of maximum packing by the Russian-doll table: one small refutation per table
//! entry instead of one refutation of "at least optimum + 1" over the whole CNF. Step `c`
//! refutes "at least `S[c] + 1` pieces start at scan position `c` or later" given the later
//! entries, so by induction from the last position every entry is an upper bound, and the
//! witness reaches `S[0]`. The argument, the folder and its shards are described in
//! `docs/certificates.md` ("Maximum packings: the Russian-doll table, one refutation per
//! entry").

mod check;
mod file;
mod prove;
mod steps;

use super::ProveOptions;
use crate::base::shard::Shard;
use crate::puzzle::packing::{Packing, PackingKind};
use crate::puzzle::Puzzle;
pub use check::{check, StepCheckError};
pub(super) use check::{check_table_and_witness, packing_and_optimum, table_and_witness};
pub use file::{Table, TableFileError, TableShapeError};
pub(super) use prove::proved_table;
pub use prove::{holds_steps, prove, StepRefuteError};
pub use steps::{step_cnf, step_dimacs, Ranking, StepProofError};

/// The table's file name inside a certificate folder.
pub const TABLE_FILE: &str = "table.txt";
/// The manifest role of [`TABLE_FILE`]; its presence marks a table certificate.
pub const TABLE_ROLE: &str = "table";

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
