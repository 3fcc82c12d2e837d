//! The Russian doll writing its own VeriPB proof of the optimum as it searches: one clause
//! per exhausted search node over auxiliary counter (`u`) and free-cell (`e`) variables, so
//! that the memo's entries, the table and every cut are justified in the proof. What the
//! proof says, and which of the doll's rules it covers, is described in
//! `docs/certificates.md` ("Maximum packings: the proof the search writes itself
//! (VeriPB)").

mod caches;
mod cells;
mod cuts;
mod definitions;
mod entries;
mod forgetting;
mod model;
mod search;
mod states;
mod writing;

use std::sync::atomic::{AtomicUsize, Ordering};

use rustc_hash::FxHashMap;

use super::bounds::{dead_span, Cover, LOOKAHEAD_LEVELS};
use super::instance::{covering_lists, weight_cuts, Engine, PlacementPairs, Prepared};
use super::memo::ClauseMemo;
use super::table::{memo_log2, relaxed_offsets};
use super::window::Window;
use super::{validate, DollError};
use crate::formats::lines::{LineWriter, WriteError};
use crate::formats::opb::{OpbFile, VarNames};
use crate::geometry::placements::PackingInstance;
use crate::geometry::weights::CellWeights;
use caches::PairClauses;
pub use entries::{
    write_proof, write_proof_with, write_shard_proof, write_shard_proof_counted,
    write_shard_proof_with,
};
pub use model::{packing_opb, shard_opb, ShardOpb};
pub use states::{
    group_opb, state_frontier, state_opb, write_state_proof, write_state_proof_counted,
    DollStateProof, StateClaim, StateOpb,
};

/// Where a proof goes as it is written, for a caller that watches it: the writer, the
/// stop test (polled as lines are written) and the count of the goals searched to their
/// end (a shard's entries, from the last back; a state shard's states, in order), which
/// says how far a proof given up part way came.
pub struct WatchedOut<'a> {
    /// The proof's text goes here.
    pub out: &'a mut dyn std::io::Write,
    /// Asked now and then: `true` stops the writing.
    pub should_stop: &'a dyn Fn() -> bool,
    /// Counts the goals searched to their end.
    pub finished: &'a AtomicUsize,
}

/// What a proof-writing run found and wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DollProof {
    /// The optimum `S[0]`.
    pub optimum: usize,
    /// A packing of `optimum` pieces (placement indices into the instance).
    pub best: Vec<usize>,
    /// Search nodes (each exhausted one wrote its clause).
    pub nodes: u64,
    /// Nodes cut by a memo entry (relaxed lookups included).
    pub memo_hits: u64,
    /// Nodes whose memo key holds a dead cell.
    pub dead_keys: u64,
    /// Memo hits whose clause names a dead cell.
    pub dead_hits: u64,
    /// Nodes cut by the lookahead ([`DollProofOptions::lookahead`]).
    pub lookahead_cuts: u64,
    /// Nodes cut by area ([`DollProofOptions::area`]).
    pub area_cuts: u64,
    /// Nodes cut by weight ([`DollProofOptions::row_weights`]).
    pub weight_cuts: u64,
    /// Constraints the proof derives (its last ID minus the formula's).
    pub derived: u64,
}

/// Options of the proof-writing search ([`write_proof_with`], [`write_shard_proof_with`]).
#[derive(Clone, Copy, Debug)]
pub struct DollProofOptions<'a> {
    /// The lookahead cut's deepest level `k` (below 2: off; at most 6), as
    /// [`DollOptions::lookahead`](super::DollOptions::lookahead), justified in the proof
    /// (see the module doc).
    pub lookahead: usize,
    /// The area cut, as [`DollOptions::area`](super::DollOptions::area) (on the same
    /// entries, the lookahead left on), justified in the proof by one `pol` per cut (see
    /// the module doc).
    pub area: bool,
    /// Per scan row, cell weights for the weighted cut, as
    /// [`DollOptions::row_weights`](super::DollOptions::row_weights) (rows whose weights
    /// fall short on a placement are not cut), justified in the proof by one `pol` per cut:
    /// the area cut's, each cell's at-most-one taken as often as it weighs (see the module
    /// doc). Empty: off.
    pub row_weights: &'a [Option<CellWeights>],
    /// The most clauses the search's memo keeps (0: no bound). Bounded, the memo gives up
    /// its oldest clauses as it fills and the proof deletes them, so that a checker's
    /// memory stays bounded however long the proof runs, at the cost of searching again
    /// what was given up.
    pub memo_clauses: usize,
}

impl Default for DollProofOptions<'_> {
    fn default() -> Self {
        DollProofOptions {
            lookahead: 5,
            area: true,
            row_weights: &[],
            memo_clauses: 0,
        }
    }
}

/// Why no proof was written.
#[derive(Debug, thiserror::Error)]
pub enum DollProofError {
    /// The instance is not one the doll takes.
    #[error("{0}")]
    Doll(DollError),
    /// The instance is one the proof does not cover (yet).
    #[error("the proof-writing doll does not take this instance: {0}")]
    Unsupported(&'static str),
    /// Writing failed, or the caller asked to stop.
    #[error("{0}")]
    Write(#[from] WriteError),
    /// A state shard's search found a packing of its state: the claim is false.
    #[error("the state's search finds a packing: its entry rises, and cannot be split")]
    StateHolds,
    /// A shard's search found an entry other than the table it was given.
    #[error("scan position {position}: the search finds S = {searched}, the table says {given}")]
    TableDiffers {
        /// The scan position.
        position: usize,
        /// What the search found.
        searched: usize,
        /// What the table says.
        given: usize,
    },
}

/// What a shard's proof-writing run found and wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DollShardProof {
    /// The entries of the shard's range, as its search found them.
    pub entries: Vec<usize>,
    /// Search nodes.
    pub nodes: u64,
    /// Nodes cut by a memo entry.
    pub memo_hits: u64,
    /// Nodes whose memo key holds a dead cell.
    pub dead_keys: u64,
    /// Memo hits whose clause names a dead cell.
    pub dead_hits: u64,
    /// Nodes cut by the lookahead.
    pub lookahead_cuts: u64,
    /// Nodes cut by area.
    pub area_cuts: u64,
    /// Nodes cut by weight ([`DollProofOptions::row_weights`]).
    pub weight_cuts: u64,
    /// Constraints the proof derives.
    pub derived: u64,
}

/// Whether [`write_proof`] and [`write_shard_proof`] take `instance`, before any search:
/// why not, as their [`DollProofError`] says it.
pub fn proof_supports(instance: &PackingInstance) -> Result<(), DollProofError> {
    supported(instance).map(|_| ())
}

/// `instance` prepared for a proof-writing search, or why the proof does not take it: a
/// window of at most 128 bits (a [`Prover`] over `u64` when `reach <= 64`, else `u128`).
fn supported(instance: &PackingInstance) -> Result<Prepared, DollProofError> {
    validate(instance).map_err(DollProofError::Doll)?;
    let prep = Prepared::new(instance, false);
    if prep.limited {
        return Err(DollProofError::Unsupported(
            "a piece has a binding maximum (the proof has no piece counts)",
        ));
    }
    if prep.reach > 128 {
        return Err(DollProofError::Unsupported(
            "placements reach over more than 128 scan cells",
        ));
    }
    Ok(prep)
}

/// The definitions of `u{q}_{k}` and what is derived from them (constraint IDs).
#[derive(Clone, Copy)]
struct Counter {
    var: u32,
    /// `u -> sum >= k`.
    implies: u64,
    /// `sum >= k -> u` (absent when `k` exceeds the placements).
    implied: Option<u64>,
    /// `u{q}_{k} -> u{q+1}_{k-1}` (for `k >= 2`).
    fewer: u64,
    /// `u{q}_{k} -> u{q+1}_{k}` or a placement starting at `q`.
    later: u64,
    /// `u{q}_{k} -> u{q}_{k-1}` (for `k >= 2`).
    monotone: u64,
}

/// The definition of `e{q}_{w}`: no placement whose first cell is `q` or later and which
/// covers `w` is used.
#[derive(Clone, Copy)]
struct Free {
    var: u32,
    /// `e ->` none of those placements (one line that propagates them all).
    implies: u64,
    /// none of them `-> e`.
    implied: u64,
}

struct Prover<'p, W> {
    prep: &'p Prepared,
    engine: Engine<'p, W>,
    opb: OpbFile,
    names: VarNames,
    out: LineWriter<'p>,
    next_id: u64,
    /// Per scan position: its cell's "at most one" ID.
    amo: Vec<Option<u64>>,
    /// `frees[q * reach + w - q]`: `e{q}_{w}`, where some placement starting at `q` or later
    /// covers `w`.
    frees: Vec<Option<Free>>,
    /// Per position `q`, the cells from `q` on that have an `e{q}` variable, as key words.
    named_cells: Vec<(u64, u64)>,
    /// `counters[q][k - 1]`: `u{q}_{k}`.
    counters: Vec<Vec<Counter>>,
    /// Per scan position: the ID of its table entry, the unit `~u{q}_{S[q]+1}`.
    entry: Vec<u64>,
    table: Vec<u32>,
    target: u32,
    stack: Vec<u32>,
    memo: ClauseMemo,
    /// The bounded memo's clauses leaving the proof.
    forgetting: forgetting::Forgetting,
    /// Buffers of written hint lists, for [`Prover::hints`].
    spare_hints: Vec<Vec<u64>>,
    relaxed: Vec<(u64, u64)>,
    /// Per placement, its [`Prover::excludes`] line once derived.
    excluding: Vec<Option<Option<u64>>>,
    /// The derived jumps of [`Prover::jump`], by `(from, to, k)`.
    jumps: FxHashMap<(u32, u32, u32), u64>,
    /// Levels of the lookahead in use (0: off) and, per decided entry `q`, its `D_k`
    /// (`u32::MAX`: none), as the doll's `drops`.
    levels: usize,
    drops: Vec<[u32; LOOKAHEAD_LEVELS - 1]>,
    /// Per decided entry `D`, once derived: "at most `S[D]` placements start at `D` or
    /// later", over the placements (`None`: fewer placements than that).
    at_most: Vec<Option<Option<u64>>>,
    cover: Cover<W>,
    /// The derived [`Prover::at_most_one`] of groups sharing no cell, by their kept
    /// placements, and the [`Prover::pair`] clauses, by kept placements (ascending).
    cliques: FxHashMap<Vec<u32>, u64>,
    pairs: PairClauses,
    /// Buffers kept between lookahead cuts: the cover's groups (members, group ends) and
    /// a clique's key.
    cover_groups: (Vec<(u32, u32)>, Vec<usize>),
    clique_key: Vec<u32>,
    /// Whether the area cut is used on the entry being searched (see
    /// [`Prover::set_entry_area`]).
    entry_area: bool,
    /// Per scan position `q`, once derived: the far sum of [`Prover::far_sum`] (`None`:
    /// nothing to add).
    far: Vec<Option<Option<u64>>>,
    /// The restricted at-most-ones of [`Prover::cell_at_most_one`], by (cell, placements
    /// kept).
    near: FxHashMap<(u32, u32), u64>,
    /// The sums of [`Prover::area_sum`], by `(q, k)`.
    area_sums: FxHashMap<(u32, u32), u64>,
    /// Per scan row with weights, per scan position `q` of that row or later, once
    /// derived: the weighted far sum of [`Prover::weighted_far_sum`] (`None`: nothing).
    weighted_far: Vec<Vec<Option<Option<u64>>>>,
    /// The sums of [`Prover::weighted_sum`], by `(q, k)`.
    weighted_sums: FxHashMap<(u32, u32), u64>,
    /// What the search does at the states it would expand (see [`states`]), the entry
    /// they belong to, and how many it did not expand.
    frontier: states::Frontier,
    frontier_entry: usize,
    frontier_reached: u64,
    lookahead_cuts: u64,
    area_cuts: u64,
    weight_cuts: u64,
    nodes: u64,
    memo_hits: u64,
    dead_keys: u64,
    dead_hits: u64,
    /// Where the goals searched to their end are counted (see [`Prover::goal_done`]).
    finished: Option<&'p AtomicUsize>,
}

impl<'p, W: Window> Prover<'p, W> {
    fn new(
        prep: &'p Prepared,
        options: &DollProofOptions,
        opb: OpbFile,
        amo: Vec<Option<u64>>,
        out: LineWriter<'p>,
    ) -> Self {
        let (covering_starts, covering) = covering_lists(prep);
        let engine: Engine<'_, W> = Engine {
            skip_unfit: true,
            dead_span: dead_span(prep),
            covering_starts,
            covering,
            area: if options.area {
                prep.smallest_placement()
            } else {
                0
            },
            weighted: weight_cuts(prep, options.row_weights),
            pairs: if options.lookahead >= 2 {
                PlacementPairs::new(prep)
            } else {
                PlacementPairs::default()
            },
            ..Engine::plain(prep)
        };
        let weighted_rows = engine.weighted.len();
        let pair_span = engine.pairs.span();
        let names = opb.names.clone();
        let next_id = opb.constraint_ids() + 1;
        Prover {
            relaxed: relaxed_offsets(prep, true),
            prep,
            engine,
            opb,
            names,
            out,
            next_id,
            amo,
            frees: Vec::new(),
            named_cells: Vec::new(),
            counters: vec![Vec::new(); prep.cells + 1],
            entry: vec![0; prep.cells + 1],
            table: vec![0; prep.cells + 1],
            target: 0,
            stack: Vec::new(),
            memo: match options.memo_clauses {
                0 => ClauseMemo::new(memo_log2(prep)),
                most => ClauseMemo::bounded(most),
            },
            forgetting: forgetting::Forgetting::default(),
            spare_hints: Vec::new(),
            excluding: vec![None; prep.index.len()],
            jumps: FxHashMap::default(),
            levels: options.lookahead.min(LOOKAHEAD_LEVELS).saturating_sub(1),
            drops: vec![[u32::MAX; LOOKAHEAD_LEVELS - 1]; prep.cells + 1],
            at_most: vec![None; prep.cells + 1],
            cover: Cover::default(),
            cliques: FxHashMap::default(),
            cover_groups: (Vec::new(), Vec::new()),
            clique_key: Vec::new(),
            pairs: PairClauses::new(prep.relative.len(), pair_span),
            entry_area: false,
            far: vec![None; prep.cells + 1],
            near: FxHashMap::default(),
            area_sums: FxHashMap::default(),
            weighted_far: vec![Vec::new(); weighted_rows],
            weighted_sums: FxHashMap::default(),
            frontier: states::Frontier::Search,
            frontier_entry: 0,
            frontier_reached: 0,
            lookahead_cuts: 0,
            area_cuts: 0,
            weight_cuts: 0,
            nodes: 0,
            memo_hits: 0,
            dead_keys: 0,
            dead_hits: 0,
            finished: None,
        }
    }

    /// The prover counting into `finished` the goals it searches to their end.
    fn counting(mut self, finished: Option<&'p AtomicUsize>) -> Self {
        self.finished = finished;
        self
    }

    /// One goal (an entry of a shard's range, a state of a state shard) searched to its
    /// end: counted, so that a proof given up part way says how far it came.
    fn goal_done(&self) {
        if let Some(finished) = self.finished {
            finished.fetch_add(1, Ordering::Relaxed);
        }
    }
}
