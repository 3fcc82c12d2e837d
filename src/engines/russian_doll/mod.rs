//! Maximum packing by a lean Russian-doll search over a sliding bitboard window.
//!
//! Cells are numbered in *scan order*: row-major along the short side of the box (a box wider
//! than tall is transposed first, so rows are short; [`DollOutcome::order`] maps back).
//! A placement's *first cell* is its smallest scan position. With `P_c` the placements whose
//! first cell is `c` or later, the suffix table `S[c]` is the most pieces of a packing drawn
//! from `P_c`. Then `S[cells] = 0` and `S[c]` is `S[c + 1]` or `S[c + 1] + 1`, because the
//! placements starting at `c` all cover `c`, so a packing uses at most one of them. The table
//! is filled from the last cell back; entry `c` asks "does `P_c` hold `S[c + 1] + 1` pieces?",
//! which a depth-first search decides: place a piece starting at `c`, then at each scan cell
//! `q` try every placement starting at `q` that fits, then leave `q` empty, and cut whenever
//! `placed + S[q] < target` (every piece still to come starts at `q` or later). `S[0]` is the
//! optimum; the table is the skeleton of a certificate (each step is one refutation or one
//! packing).
//!
//! The search state at scan cell `q` is only `q` and which of the next `reach - 1` cells are
//! covered (`reach`: the most cells from a placement's first cell to its last): cells before
//! `q` can no longer be covered, cells further on are not covered yet. So the occupancy is
//! kept as a window ([`Window`]: `u64`, `u128` or [`Wide`] words, the smallest that fits),
//! bit 0 being `q`, shifted by one per cell; the board's size only matters through `reach`.
//!
//! Extras (each switchable in [`DollOptions`], for cross-checks; measured on crosses, one
//! thread, user seconds on the shared 2-core machine):
//! - **memo** of exhausted states (on): `(q, window, mirror balances)` searched in full
//!   without reaching `target` with `placed` pieces proves that at most `target - placed - 1`
//!   more pieces fit from that state. With no binding piece maximum the future from a state
//!   depends on nothing else, and not on which entry `c` is being decided either (every
//!   entry's search uses the same placements from `q` on), so entries are reused across the
//!   whole table. Kept in a lossy table shared lock-free by the threads, on huge pages,
//!   doubled between entries while crowded ([`DollOptions::memo_log2`]: 18 x 18 in 1.91 G
//!   nodes with 128 MiB, in 0.53 G growing to 2 GiB). 14 x 14: 7.3 M nodes, 1.0 s, against
//!   681 M nodes, 9.0 s without (`cross_doll.c`: 6.1 s in the same run); 13 x 19: 2.7 M
//!   nodes, 0.4 s, against 176 M, 1.7 s (`cross_doll.c`: 2.9 s). Every exhausted node is
//!   stored (storing only subtrees of 16 nodes or more took 45% more nodes and 35% more time
//!   on 15 x 15).
//! - **dead cells** (on, with the memo): free cells near the scan cell that nothing still to
//!   come can cover are marked covered before the memo is consulted, so states differing
//!   only in such holes share an entry ([`DollOptions::dead_cells`]; 16 x 16: 20 M nodes
//!   against 34 M).
//! - **relaxed lookups** (on, with the memo): a state the memo does not hold is looked up
//!   again with the far end of its window cleared; fewer covered cells admit every packing
//!   the state admits, so that entry's bound holds too ([`DollOptions::memo_relaxed`];
//!   16 x 16: 13 M nodes against 20 M).
//! - **area cut** (on): the free cells from `q` on, over the smallest piece's cells, bound
//!   the pieces still to come; used where the entry's target is within a few pieces of its
//!   area ([`DollOptions::area`]; V pentominoes in 14 x 14: 30 M nodes against 176 M).
//! - **weighted cut** (given per scan row, [`DollOptions::row_weights`]): the area cut with
//!   the cells weighed by the LP relaxation's dual of the rows from the node's row on, whole
//!   weights under which every placement there weighs at least a divisor; the free cells'
//!   weight over the divisor bounds the pieces still to come. Where the LP is tight (skew
//!   tetrominoes) it cuts what neither the table nor the area can.
//! - **skip unfit cells** (with the memo): the scan passes over cells where no placement
//!   fits, so the bound is taken at the next useful cell and no node is spent on them.
//! - **mirror symmetry** (off): "no more pieces centred in the second half than in the
//!   first", for each mirror mapping the instance onto itself, used only for the entries `c`
//!   whose `P_c` the mirror maps onto itself (see [`DollOptions::symmetry`] for why that
//!   keeps the table exact). It only applies to row-start entries, which are few, and it
//!   splits memo states by balance: 13 x 19 and 14 x 14 took 15% more nodes with it.
//! - **threads** (on): an entry whose search outgrows [`DollOptions::split_nodes`] is split
//!   into independent subtrees, run with rayon, all stopped as soon as one finds a packing.
//!
//! # References
//! - P. R. J. Östergård, "A fast algorithm for the maximum clique problem", Discrete Applied
//!   Mathematics 120 (2002): the Russian-doll scheme (solve the suffixes from the last vertex
//!   back, each bounding the next), here with cells in place of vertices.
//! - Transposition tables of game-tree search (A. L. Zobrist, "A new hashing method with
//!   application for game playing", 1970), with two-slot buckets (one kept for the larger
//!   subtree, one always replaced): the memo of exhausted states.
//! - Sequence locks (as in the Linux kernel's seqlock): the memo's lock-free sharing.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Instant;

use crate::base::Control;
use crate::geometry::placements::PackingInstance;
use crate::geometry::weights::CellWeights;

mod bounds;
mod instance;
mod memo;
mod mirror;
mod pages;
mod proof;
mod search;
mod table;
mod window;

use instance::Prepared;
pub use proof::{
    group_opb, packing_opb, proof_supports, shard_opb, state_frontier, state_opb, write_proof,
    write_proof_with, write_shard_proof, write_shard_proof_counted, write_shard_proof_with,
    write_state_proof, write_state_proof_counted, DollProof, DollProofError, DollProofOptions,
    DollShardProof, DollStateProof, ShardOpb, StateClaim, StateOpb, WatchedOut,
};
use table::run;
pub use window::{Wide, Window};

/// Options of [`solve`]. The default is the fastest measured configuration.
#[derive(Clone, Copy, Debug)]
pub struct DollOptions<'a> {
    /// Remember exhausted search states (see the module doc). Used only when no piece has a
    /// binding maximum and the window fits in 128 bits.
    pub memo: bool,
    /// The memo holds `2^memo_log2` entries of 32 bytes; 0 picks by the scan rows' width
    /// `w` (the short side) to start with, `2^(18 + 2 (w - 13))` kept within `2^16..=2^22`
    /// (128 MiB), and doubles the table between entries whenever more entries were stored
    /// since its last size than it holds, up to [`DollOptions::memo_bytes`]. Its pages are
    /// touched as it fills, which costs time on small searches: measured on crosses (one
    /// thread), 13 x 19 takes 0.36 s with 2^18 and 0.42 s with 2^22, while 15 x 15 takes
    /// 7.5 s with 2^20, 7.0 s with 2^22 and 7.3 s with 2^24. The largest searches need far
    /// more (both threads, same build): 16 x 16 4.1 s with 2^22 against 4.4 s with 2^24 and
    /// 7.3 s with 2^26, 17 x 17 22.3 s with 2^22 or 2^24, but 18 x 18 537 s (1.91 G nodes)
    /// with 2^22, 248 s with 2^24 (752 M), 178 s with 2^26 (480 M) and 166 s with 2^28
    /// (424 M, 8 GiB): a table that stays small forgets what the largest entries need.
    pub memo_log2: u32,
    /// The most bytes the memo takes when [`DollOptions::memo_log2`] is 0, the moment it
    /// doubles included (the old table and the new, half as large again as the new): by
    /// default [`memo_bytes_within`] the default `--max-memory` (3 GiB: a table of 2 GiB).
    pub memo_bytes: u64,
    /// Mirror symmetry breaking: keep only packings with no more pieces centred in the second
    /// half than in the first, for each mirror of the box that maps the instance onto itself.
    ///
    /// Applied to entry `c` only if the mirror maps `P_c` onto itself (for the left-right
    /// mirror in scan order: `c` at a row start; for the top-bottom one: `c = 0`). Then any
    /// packing of `P_c` has a mirror image in `P_c` with as many pieces that meets the rule
    /// (with both mirrors: fix the top-bottom rule first, the left-right mirror then keeps
    /// every piece's rows), so the entry is still the exact optimum of `P_c`, and every later
    /// use of `S[c]` as a bound stays sound. Entries of other cells are searched without it.
    /// Memo entries made under the rules carry the rules and the balances in their key (a
    /// balance ahead by `S[q]` or more counts as `S[q]`: the rule then holds whatever
    /// follows), so they only serve searches under the same rules. Off by default: measured
    /// (one thread), 14 x 14 took 8.7 M nodes with it against 7.3 M without, 15 x 15 68 M
    /// against 56 M.
    pub symmetry: bool,
    /// Lookahead cut: its deepest level `k` (below 2: off; at most 6; 5 by default). With
    /// `D_k` the first cell after `q` where the table has dropped by `k`
    /// (`S[D_k] = S[q] - k`), the pieces still to come number at most those that can start
    /// at the cells `q..D_k` plus `S[q] - k`. At a node with slack `s`
    /// (`placed + S[q] = target + s`), level `k` cuts if at most `k - 1 - s` pieces can start
    /// at `q..D_k` beside each other and the window. The placements there that fit the
    /// window are covered greedily by groups of pairwise overlapping ones, and, if that
    /// leaves it open, searched exactly (a pair always; three or more among at most 16).
    /// Measured on crosses (one thread, shared machine, user time): 16 x 16 took 193 M nodes
    /// and 19.4 s without it, 34 M nodes and 12.6 s with levels up to 5. With dead cells and
    /// relaxed lookups the memo catches most of what it cuts on the smaller boxes (16 x 16,
    /// criterion, both cores: 7.14 s with it, 6.84 s without) but not on the larger ones
    /// (17 x 17, both cores: 29.8 s with it, 36.3 s without), so it stays on. The
    /// proof-writing search makes the same cut, justified in its proof, but without the
    /// exact search ([`DollProofOptions::lookahead`]).
    pub lookahead: usize,
    /// The lookahead is used only on boxes whose scan rows (the short side) hold at least
    /// this many cells: on narrower ones the whole table takes well under a second and the
    /// cut cost more than it saved (measured, whole process: 13 x 19 took 234 ms with it and
    /// 213 ms without; 14 x 14 510 ms against 632 ms, criterion).
    pub lookahead_min_row: usize,
    /// Dead cells (with the memo): before the memo is consulted, the free cells of the
    /// window's first two scan rows that no placement starting at the scan cell or later and
    /// fitting the window can cover are marked covered. No packing from the node covers
    /// them, so the node's future is the same; but states that differ only in such holes
    /// (the gaps a packing leaves between its pieces) become one memo key. Measured on
    /// crosses (one thread, user time, idle): 16 x 16 took 19.9 M nodes and 11.1 s with it
    /// against 34.0 M and 16.2 s without, 15 x 15 7.2 M and 2.8 s against 11.9 M and 4.1 s,
    /// 13 x 19 1.7 M against 3.0 M nodes. Cells further on cost more to test than the hits
    /// they add (15 x 15 with four rows: 6.5 M nodes, slower; shared machine). Without the
    /// memo it only costs (13 x 19: 2.8 s with it, 1.3 s without, criterion), so it is not
    /// used then.
    pub dead_cells: bool,
    /// Relaxed memo lookups (with the memo): when the memo holds nothing for a state, look
    /// up the same state with its window's cells cleared from `(e - 1)` scan rows ahead on
    /// (`e`: the most rows a piece spans below its first cell's; 4 for crosses, so from
    /// three rows ahead), then from half a row earlier. A window that covers fewer cells
    /// admits every packing the node admits, so a bound stored for it holds here too. Used
    /// when pieces span four rows or more. Measured on crosses (one thread, user time, idle,
    /// with dead cells): 16 x 16 took 13.4 M nodes and 7.8 s with it against 19.9 M and
    /// 11.1 s without, 15 x 15 5.0 M and 2.1 s against 7.2 M and 2.8 s, 13 x 19 1.3 M
    /// against 1.7 M nodes. One cleared offset (three rows) gave 14.6 M nodes on 16 x 16,
    /// three or four offsets no fewer than two.
    pub memo_relaxed: bool,
    /// Area cut: at a node, the pieces still to come number at most the cells from the
    /// scan cell on that the window leaves free (its dead cells counted as covered) over
    /// the smallest piece's cells. The suffix table bounds the same pieces by the most
    /// that fit the cells from the scan cell on, but knows nothing of the window, so it
    /// misses the cells the pieces placed already cover there; where the optimum is close
    /// to the area (few cells may stay empty) the area cut prunes what the table cannot.
    /// Used for the entries whose cells hold, by area, at most 4 pieces more than the
    /// entry's target; within 2, the lookahead is left off there (it then cuts little the
    /// area cut does not, at more cost). Measured (`examples/cross_refute.rs`, both cores,
    /// idle): V pentominoes in 14 x 14 (37; area 39) took 176 M nodes and 101 s without
    /// it, 29.9 M nodes and 4.8 s with it; 13 x 19 crosses, one thread: the same nodes,
    /// 0.5% more instructions (callgrind).
    pub area: bool,
    /// Worker threads (0: as many as the machine has).
    pub threads: usize,
    /// Nodes an entry's search may take on the calling thread before it is split into
    /// subtrees shared out over the threads (with more than one thread). Small, so that
    /// the other threads are not idle through the many entries of tens of thousands of
    /// nodes: with 2^10 instead of 2^18, on two threads, 16 x 16 crosses take 4.2-4.8 s
    /// against 7.4 s (the same work, 7.7 s on one thread, now shared), 17 x 17 24-26 s
    /// against 31 s; 2^6 to 2^14 measured alike, so the split's own cost (a frontier of 64
    /// subtrees per thread, expanded on the calling thread) does not show.
    pub split_nodes: u64,
    /// Known upper bounds on the table's row-start entries, per scan row from the first
    /// (`None` or a missing row: no bound): entry `r` bounds `S[r row]`, the most pieces in
    /// the box of the last scan rows from `r` on, for example the optimum of that box proved
    /// separately (a sweep knows it from a narrower box turned). Every entry `c` of row `r`
    /// is at most `S[r row]`, so once the table reaches the bound the rest of the row needs
    /// no search: the table comes out the same with fewer nodes. Measured on crosses (one
    /// thread, the bounds the optima of the narrower boxes): 15 x 15 took 8.5 M nodes with
    /// them against 11.9 M, 16 x 16 23.8 M against 34.0 M. The bounds must be sound: the
    /// table is exact only if they are.
    pub row_bounds: &'a [Option<usize>],
    /// Per scan row `r` (`None` or a missing row: none), whole cell weights (row-major, as
    /// in the instance) under which the cells of every placement whose first cell lies in
    /// row `r` or later weigh at least the divisor, for example the LP relaxation's dual of
    /// the rows from `r` on: a node at scan cell `q` of row `r` is cut when the weight of
    /// the free cells from `q` on is less than the divisor times the pieces still wanted.
    /// Weights that do not hold for some placement are not used.
    pub row_weights: &'a [Option<CellWeights>],
    /// Row weights (as [`DollOptions::row_weights`]) that a thread beside the doll may hand
    /// over while it runs: taken at the start of the next table entry when the doll has none.
    pub late_weights: Option<&'a LateWeights>,
    /// Raised by another thread to stop; the best packing so far is kept, unproven.
    pub stop: Option<&'a AtomicBool>,
    /// Stop at this instant; the best packing so far is kept, unproven.
    pub deadline: Option<Instant>,
}

/// The memo's share of a run's memory limit ([`DollOptions::memo_bytes`]): three quarters,
/// the rest for everything else the run holds (the doll's own tables take megabytes).
pub fn memo_bytes_within(max_memory: u64) -> u64 {
    max_memory / 4 * 3
}

/// The memo's share of the `--max-memory` of the run `control` governs: the
/// [`DollOptions::memo_bytes`] of every doll a command runs, so that each takes the same
/// share.
pub fn memo_bytes_for(control: &Control) -> u64 {
    memo_bytes_within(control.max_memory())
}

impl Default for DollOptions<'_> {
    fn default() -> Self {
        DollOptions {
            memo: true,
            memo_log2: 0,
            memo_bytes: memo_bytes_within(crate::base::DEFAULT_MAX_MEMORY),
            symmetry: false,
            lookahead: 5,
            lookahead_min_row: 14,
            dead_cells: true,
            memo_relaxed: true,
            area: true,
            threads: 0,
            split_nodes: 1 << 10,
            row_bounds: &[],
            row_weights: &[],
            late_weights: None,
            stop: None,
            deadline: None,
        }
    }
}

/// Row weights handed to a running doll by another thread ([`DollOptions::late_weights`]).
#[derive(Debug, Default)]
pub struct LateWeights(Mutex<Option<Vec<Option<CellWeights>>>>);

impl LateWeights {
    /// Hands `weights` (per scan row, as [`DollOptions::row_weights`]) to the doll.
    pub fn offer(&self, weights: Vec<Option<CellWeights>>) {
        *self.0.lock().expect("no panics") = Some(weights);
    }

    /// The weights offered, if they have not been taken yet (asked once per table entry
    /// until they come: an uncontended lock each time).
    fn take(&self) -> Option<Vec<Option<CellWeights>>> {
        self.0.lock().expect("no panics").take()
    }
}

/// Counters of a [`solve`] run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DollStats {
    /// Search nodes visited, over all entries and threads.
    pub nodes: u64,
    /// Nodes cut by a memo entry (relaxed lookups included).
    pub memo_hits: u64,
    /// Of those, the nodes cut by a relaxed lookup ([`DollOptions::memo_relaxed`]).
    pub memo_relaxed_hits: u64,
    /// Memo entries written.
    pub memo_stores: u64,
    /// Nodes cut by the lookahead ([`DollOptions::lookahead`]).
    pub lookahead_cuts: u64,
    /// Nodes cut by area ([`DollOptions::area`]).
    pub area_cuts: u64,
    /// Nodes cut by weight ([`DollOptions::row_weights`]).
    pub weight_cuts: u64,
    /// Entries whose search was split over the threads.
    pub parallel_steps: u64,
    /// Entries left unsearched because their row's bound ([`DollOptions::row_bounds`]) was
    /// already reached.
    pub bounded_entries: u64,
}

/// Result of [`solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DollOutcome {
    /// Placement indices (into the instance's `placements`) of the best packing found.
    pub best: Vec<usize>,
    /// `true` if the search finished: `best` is optimal and `table` complete.
    pub proved: bool,
    /// Upper bound on the number of pieces (`best.len()` when proved).
    pub bound: usize,
    /// The scan order: entry `k` is the row-major cell index of scan position `k`.
    pub order: Vec<usize>,
    /// The suffix table, one entry per scan position and a last 0: entry `k` is the most
    /// pieces of a packing whose pieces all have their first cell (smallest scan position)
    /// at position `k` or later. `None` for entries not decided when the search stopped.
    pub table: Vec<Option<usize>>,
    /// Per entry the search raised, last scan position first: the position `k` and the
    /// packing found there (placement indices, `table[k]` of them, all with their first cell
    /// at `k` or later). The packing of the most pieces from position `p` on is that of the
    /// smallest such `k >= p` (none: 0 pieces).
    pub found: Vec<(usize, Vec<usize>)>,
    /// Search counters.
    pub stats: DollStats,
    /// Per scan position, the nodes its entry's search took (over all threads; with one
    /// thread the same in every run).
    pub entry_nodes: Vec<u64>,
}

/// A table decided from some entry on, to go on from: what a sharded run's rounds hand on
/// (see [`solve_shard`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DollResume {
    /// The scan position from which the table is decided.
    pub known_from: usize,
    /// The entries `known_from..=cells` (the last one 0).
    pub table: Vec<usize>,
    /// A packing of `table[0]` pieces (placement indices), each with its first cell at
    /// `known_from` or later.
    pub best: Vec<usize>,
}

/// The entry a sharded run could not decide alone (see [`solve_shard`]): this shard's part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DollShardEntry {
    /// Its scan position.
    pub entry: usize,
    /// The pieces asked for: one more than the next entry.
    pub target: usize,
    /// The subproblems every shard split the entry into alike.
    pub subproblems: usize,
    /// Those this shard searched to the end (subproblem `i` is shard `i % count`'s).
    pub searched: usize,
    /// A packing of `target` pieces (placement indices) from one of them, if one exists.
    pub found: Option<Vec<usize>>,
}

/// What one shard of a round ([`solve_shard`]) hands to the merge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DollShardPart {
    /// The table as far as it was decided alike in every shard (from the start of the
    /// round's resume, or the whole table when no entry needed splitting).
    pub decided: DollResume,
    /// This shard's part of the entry it split, if one outgrew the budget.
    pub entry: Option<DollShardEntry>,
    /// The entries of `decided` this round raised, last scan position first, each with the
    /// packing found there (as [`DollOutcome::found`]; alike in every shard): the packings
    /// of the boxes of the last scan rows.
    pub found: Vec<(usize, Vec<usize>)>,
    /// Search counters of this shard's round.
    pub stats: DollStats,
}

/// Merges the parts of one round, shard `i` being `parts[i]`: every shard must have decided
/// the same table and split the same entry alike, and each searched its own subproblems;
/// the entry is raised if one of them found a packing and stays otherwise. Returns the
/// table to go on from (decided from 0 on: the run is over).
pub fn merge_round(parts: &[DollShardPart]) -> Result<DollResume, String> {
    let Some(first) = parts.first() else {
        return Err("no shards to merge".into());
    };
    let count = parts.len();
    for (i, part) in parts.iter().enumerate() {
        if part.decided != first.decided || part.found != first.found {
            return Err(format!(
                "shard {} decided the table differently from shard 1 (not the same round, model or options)",
                i + 1
            ));
        }
        let same_split = match (&part.entry, &first.entry) {
            (Some(a), Some(b)) => {
                a.entry == b.entry && a.target == b.target && a.subproblems == b.subproblems
            }
            (None, None) => true,
            _ => false,
        };
        if !same_split {
            return Err(format!(
                "shard {} split another entry than shard 1 (not the same round, model or options)",
                i + 1
            ));
        }
        if let Some(entry) = &part.entry {
            // Subproblem j is shard (j % count)'s; a shard stopped by a packing searched fewer.
            let own = (entry.subproblems + count - 1 - i) / count;
            if entry.found.is_none() && entry.searched != own {
                return Err(format!(
                    "shard {} searched {} of its {own} subproblems and found no packing",
                    i + 1,
                    entry.searched
                ));
            }
        }
    }
    let Some(entry) = &first.entry else {
        if first.decided.known_from > 0 {
            return Err(format!(
                "the shards stopped at scan position {} (a time limit or Ctrl-C)",
                first.decided.known_from
            ));
        }
        return Ok(first.decided.clone());
    };
    if first.decided.known_from != entry.entry + 1 {
        return Err(format!(
            "the split entry {} is not the one before the decided table (from {})",
            entry.entry, first.decided.known_from
        ));
    }
    let found = parts
        .iter()
        .find_map(|part| part.entry.as_ref().and_then(|e| e.found.clone()));
    let next = first.decided.table[0];
    let mut table = vec![if found.is_some() { entry.target } else { next }];
    table.extend_from_slice(&first.decided.table);
    Ok(DollResume {
        known_from: entry.entry,
        table,
        best: found.unwrap_or_else(|| first.decided.best.clone()),
    })
}

/// Why [`solve`] refused an instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DollError {
    /// The instance is malformed (sizes, cells out of range, on blocked cells, repeated).
    Invalid(String),
    /// A piece has a minimum count above 0, which this engine does not support.
    Minimum {
        /// The piece.
        piece: usize,
        /// Its minimum.
        min: usize,
    },
    /// Some placement reaches over more scan cells than the widest window holds.
    TooLarge {
        /// Cells from a placement's first cell to its last, at most.
        reach: usize,
    },
}

impl fmt::Display for DollError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DollError::Invalid(why) => write!(f, "invalid instance: {why}"),
            DollError::Minimum { piece, min } => {
                write!(
                    f,
                    "piece {piece} has minimum {min}; only minimum 0 is supported"
                )
            }
            DollError::TooLarge { reach } => {
                write!(
                    f,
                    "placements reach over {reach} cells, more than supported"
                )
            }
        }
    }
}

impl std::error::Error for DollError {}

/// The scan order of an instance: row-major if it is at least as tall as wide, else
/// column-major (the transposed box's rows). Entry `k` is the cell at scan position `k`.
pub fn scan_order(width: usize, height: usize) -> Vec<usize> {
    if width <= height {
        (0..width * height).collect()
    } else {
        (0..width * height)
            .map(|k| (k % height) * width + k / height)
            .collect()
    }
}

/// Finds a largest packing and proves it optimal by the Russian doll (see the module doc).
///
/// `progress(k, s)` is called as each table entry is decided, last scan position first.
pub fn solve(
    instance: &PackingInstance,
    options: &DollOptions<'_>,
    mut progress: impl FnMut(usize, usize),
) -> Result<DollOutcome, DollError> {
    solve_reporting(instance, options, &mut progress)
}

/// [`solve`] with `progress` as a trait object, so that its callers' closures do not copy it.
fn solve_reporting(
    instance: &PackingInstance,
    options: &DollOptions<'_>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<DollOutcome, DollError> {
    validate(instance)?;
    let prep = Prepared::new(instance, options.symmetry);
    macro_rules! wide {
        ($($k:literal)*) => {
            match prep.reach.div_ceil(64) {
                0 | 1 => Ok(run::<u64>(&prep, options, None, None, progress).0),
                2 => Ok(run::<u128>(&prep, options, None, None, progress).0),
                $($k => Ok(run::<Wide<$k>>(&prep, options, None, None, progress).0),)*
                _ => Err(DollError::TooLarge { reach: prep.reach }),
            }
        };
    }
    wide!(3 4 5 6 7 8 9 10 11 12 13 14 15 16)
}

/// One round of a Russian doll shared by `count` processes (this one `index`, 0-based), each
/// on its own machine with nothing but files between them: from `resume` (or the start) the
/// table is filled as [`solve`] fills it, on one thread and with a fresh memo, so every
/// shard decides the same entries alike, until an entry's search outgrows
/// [`DollOptions::split_nodes`]; that entry is split into the same subproblems in every
/// shard, and this shard searches its own ones (on its threads). The caller merges the
/// shards' parts of that entry (raised if any found a packing, else it stays) and starts the
/// next round from there. Returns the table as far as it got (proved when it got to the
/// start) and this shard's part of the split entry, if any.
pub fn solve_shard(
    instance: &PackingInstance,
    options: &DollOptions<'_>,
    resume: Option<&DollResume>,
    index: usize,
    count: usize,
    mut progress: impl FnMut(usize, usize),
) -> Result<DollShardPart, DollError> {
    validate(instance)?;
    if index >= count {
        return Err(DollError::Invalid(format!("shard {index} of {count}")));
    }
    let prep = Prepared::new(instance, false);
    if let Some(resume) = resume {
        check_resume(instance, &prep.order, resume)?;
    }
    let options = DollOptions {
        symmetry: false,
        ..*options
    };
    let shard = Some((index, count));
    let (outcome, entry) = {
        macro_rules! wide {
        ($($k:literal)*) => {
            match prep.reach.div_ceil(64) {
                0 | 1 => Ok(run::<u64>(&prep, &options, resume, shard, &mut progress)),
                2 => Ok(run::<u128>(&prep, &options, resume, shard, &mut progress)),
                $($k => Ok(run::<Wide<$k>>(&prep, &options, resume, shard, &mut progress)),)*
                _ => Err(DollError::TooLarge { reach: prep.reach }),
            }
        };
    }
        wide!(3 4 5 6 7 8 9 10 11 12 13 14 15 16)
    }?;
    let known_from = outcome.table.iter().position(Option::is_some).unwrap_or(0);
    let table: Vec<usize> = outcome.table[known_from..]
        .iter()
        .flatten()
        .copied()
        .collect();
    Ok(DollShardPart {
        decided: DollResume {
            known_from,
            table,
            // The packing of the decided entries (a split entry's is the merge's business).
            best: outcome.best,
        },
        entry,
        found: outcome.found,
        stats: outcome.stats,
    })
}

/// Refuses a resume that is not a table of this instance: entries of the wrong number, not
/// ending at 0 or not rising by 0 or 1 per cell, or a packing that is not one of `table[0]`
/// pieces starting at `known_from` or later (`order`: the scan order). It does not check
/// that the entries are right: that is what the rounds before established.
fn check_resume(
    instance: &PackingInstance,
    order: &[usize],
    resume: &DollResume,
) -> Result<(), DollError> {
    let invalid = |why: String| Err(DollError::Invalid(format!("resumed table: {why}")));
    let cells = instance.width * instance.height;
    let from = resume.known_from;
    if from > cells || resume.table.len() != cells + 1 - from {
        return invalid(format!(
            "{} entries from scan position {from} of {cells}",
            resume.table.len()
        ));
    }
    if resume.table.last() != Some(&0)
        || resume
            .table
            .windows(2)
            .any(|w| w[0] < w[1] || w[0] > w[1] + 1)
    {
        return invalid("entries must end at 0 and rise by 0 or 1 per cell".into());
    }
    let mut position = vec![0; cells];
    for (k, &cell) in order.iter().enumerate() {
        position[cell] = k;
    }
    let mut covered = vec![false; cells];
    for &i in &resume.best {
        let Some(placement) = instance.placements.get(i) else {
            return invalid(format!("no placement {i}"));
        };
        if placement
            .cells
            .iter()
            .any(|&c| position[c] < from || covered[c])
        {
            return invalid(format!("placement {i} starts before the table or overlaps"));
        }
        for &c in &placement.cells {
            covered[c] = true;
        }
    }
    if resume.best.len() != resume.table[0] {
        return invalid(format!(
            "a packing of {} pieces for an entry of {}",
            resume.best.len(),
            resume.table[0]
        ));
    }
    Ok(())
}

/// Refuses what [`solve`] cannot take: malformed instances and piece minimums.
pub(crate) fn validate(instance: &PackingInstance) -> Result<(), DollError> {
    let cells = instance.width * instance.height;
    let invalid = |why: String| Err(DollError::Invalid(why));
    if instance.blocked.len() != cells {
        return invalid(format!("blocked has {} cells", instance.blocked.len()));
    }
    if let Some((piece, l)) = instance.pieces.iter().enumerate().find(|(_, l)| l.min > 0) {
        return Err(DollError::Minimum { piece, min: l.min });
    }
    for (i, p) in instance.placements.iter().enumerate() {
        if p.piece >= instance.pieces.len() {
            return invalid(format!("placement {i} names piece {}", p.piece));
        }
        if p.cells.is_empty() {
            return invalid(format!("placement {i} covers no cell"));
        }
        for (k, &c) in p.cells.iter().enumerate() {
            if c >= cells || instance.blocked[c] || p.cells[..k].contains(&c) {
                return invalid(format!("placement {i} has a bad cell {c}"));
            }
        }
    }
    Ok(())
}
