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
//!   whole table. Kept in a fixed-size lossy table shared lock-free by the threads
//!   ([`DollOptions::memo_log2`]). 14 x 14: 7.3 M nodes, 1.0 s, against 681 M nodes, 9.0 s
//!   without (`cross_doll.c`: 6.1 s in the same run); 13 x 19: 2.7 M nodes, 0.4 s, against
//!   176 M, 1.7 s (`cross_doll.c`: 2.9 s). Every exhausted node is stored (storing only
//!   subtrees of 16 nodes or more took 45% more nodes and 35% more time on 15 x 15).
//! - **dead cells** (on, with the memo): free cells near the scan cell that nothing still to
//!   come can cover are marked covered before the memo is consulted, so states differing
//!   only in such holes share an entry ([`DollOptions::dead_cells`]; 16 x 16: 20 M nodes
//!   against 34 M).
//! - **relaxed lookups** (on, with the memo): a state the memo does not hold is looked up
//!   again with the far end of its window cleared; fewer covered cells admit every packing
//!   the state admits, so that entry's bound holds too ([`DollOptions::memo_relaxed`];
//!   16 x 16: 13 M nodes against 20 M).
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
use std::sync::atomic::{fence, AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::geometry::placements::PackingInstance;

// ---------------------------------------------------------------------------------------------
// Windows

/// A window of cells relative to the scan cell (bit 0 is the scan cell), as a bitset.
///
/// Implemented for `u64`, `u128` and [`Wide`]; the engine is generic over it and picks the
/// smallest that holds a placement's reach.
pub trait Window: Copy + Send + Sync + 'static {
    /// Bits held.
    const BITS: usize;
    /// No bit set.
    fn empty() -> Self;
    /// `self` with `bit` set.
    fn with(self, bit: usize) -> Self;
    /// Whether `self` and `other` share a bit.
    fn overlaps(self, other: Self) -> bool;
    /// Bits in either.
    fn union(self, other: Self) -> Self;
    /// Shifted towards bit 0 by `n` (bits below `n` are dropped; `n` may reach `BITS`).
    fn shr(self, n: u32) -> Self;
    /// Number of set bits from bit 0 up to the first clear one.
    fn trailing_ones(self) -> u32;
    /// The window as 128 bits, or `None` if it has a bit beyond them (memo keys).
    fn key(self) -> Option<(u64, u64)>;
}

/// [`Window`] for a primitive unsigned integer of `$bits` bits; `$key` turns a window `w`
/// into the memo key.
macro_rules! primitive_window {
    ($int:ty, $bits:expr, |$w:ident| $key:expr) => {
        impl Window for $int {
            const BITS: usize = $bits;
            #[inline(always)]
            fn empty() -> Self {
                0
            }
            #[inline(always)]
            fn with(self, bit: usize) -> Self {
                self | 1 << bit
            }
            #[inline(always)]
            fn overlaps(self, other: Self) -> bool {
                self & other != 0
            }
            #[inline(always)]
            fn union(self, other: Self) -> Self {
                self | other
            }
            #[inline(always)]
            fn shr(self, n: u32) -> Self {
                self.checked_shr(n).unwrap_or(0)
            }
            #[inline(always)]
            fn trailing_ones(self) -> u32 {
                <$int>::trailing_ones(self)
            }
            #[inline(always)]
            fn key(self) -> Option<(u64, u64)> {
                let $w = self;
                Some($key)
            }
        }
    };
}

primitive_window!(u64, 64, |w| (w, 0));
primitive_window!(u128, 128, |w| (w as u64, (w >> 64) as u64));

/// A window of `K` 64-bit words, word 0 lowest, for placements reaching past 128 cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wide<const K: usize>(pub [u64; K]);

impl<const K: usize> Window for Wide<K> {
    const BITS: usize = 64 * K;
    #[inline(always)]
    fn empty() -> Self {
        Wide([0; K])
    }
    #[inline(always)]
    fn with(mut self, bit: usize) -> Self {
        self.0[bit / 64] |= 1 << (bit % 64);
        self
    }
    #[inline(always)]
    fn overlaps(self, other: Self) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }
    #[inline(always)]
    fn union(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
        self
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        let (words, bits) = ((n / 64) as usize, n % 64);
        let mut out = [0u64; K];
        for (i, o) in out.iter_mut().enumerate() {
            let lo = self.0.get(i + words).copied().unwrap_or(0);
            let hi = self.0.get(i + words + 1).copied().unwrap_or(0);
            *o = if bits == 0 {
                lo
            } else {
                lo >> bits | hi << (64 - bits)
            };
        }
        Wide(out)
    }
    #[inline(always)]
    fn trailing_ones(self) -> u32 {
        let mut n = 0;
        for w in self.0 {
            let t = w.trailing_ones();
            n += t;
            if t < 64 {
                break;
            }
        }
        n
    }
    fn key(self) -> Option<(u64, u64)> {
        if self.0.iter().skip(2).any(|&w| w != 0) {
            return None;
        }
        Some((
            self.0.first().copied().unwrap_or(0),
            self.0.get(1).copied().unwrap_or(0),
        ))
    }
}

// ---------------------------------------------------------------------------------------------
// Public interface

/// Options of [`solve`]. The default is the fastest measured configuration.
#[derive(Clone, Copy, Debug)]
pub struct DollOptions<'a> {
    /// Remember exhausted search states (see the module doc). Used only when no piece has a
    /// binding maximum and the window fits in 128 bits.
    pub memo: bool,
    /// The memo holds `2^memo_log2` entries of 32 bytes; 0 picks by the scan rows' width
    /// `w` (the short side): `2^(18 + 2 (w - 13))`, kept within `2^16..=2^22` (128 MiB).
    /// Its pages are touched as it fills, which costs time on small searches: measured on
    /// crosses (one thread), 13 x 19 takes 0.36 s with 2^18 and 0.42 s with 2^22, while
    /// 15 x 15 takes 7.5 s with 2^20, 7.0 s with 2^22 and 7.3 s with 2^24.
    pub memo_log2: u32,
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
    /// (17 x 17, both cores: 29.8 s with it, 36.3 s without), so it stays on.
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
    /// Worker threads (0: as many as the machine has).
    pub threads: usize,
    /// Nodes an entry's search may take on the calling thread before it is split into
    /// subtrees shared out over the threads (with more than one thread).
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
    /// Raised by another thread to stop; the best packing so far is kept, unproven.
    pub stop: Option<&'a AtomicBool>,
    /// Stop at this instant; the best packing so far is kept, unproven.
    pub deadline: Option<Instant>,
}

impl Default for DollOptions<'_> {
    fn default() -> Self {
        DollOptions {
            memo: true,
            memo_log2: 0,
            symmetry: false,
            lookahead: 5,
            lookahead_min_row: 14,
            dead_cells: true,
            memo_relaxed: true,
            threads: 0,
            split_nodes: 1 << 18,
            row_bounds: &[],
            stop: None,
            deadline: None,
        }
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
    progress: impl FnMut(usize, usize),
) -> Result<DollOutcome, DollError> {
    validate(instance)?;
    let prep = Prepared::new(instance, options.symmetry);
    macro_rules! wide {
        ($($k:literal)*) => {
            match prep.reach.div_ceil(64) {
                0 | 1 => Ok(run::<u64>(&prep, options, progress)),
                2 => Ok(run::<u128>(&prep, options, progress)),
                $($k => Ok(run::<Wide<$k>>(&prep, options, progress)),)*
                _ => Err(DollError::TooLarge { reach: prep.reach }),
            }
        };
    }
    wide!(3 4 5 6 7 8 9 10 11 12 13 14 15 16)
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

// ---------------------------------------------------------------------------------------------
// Preparation (window-independent)

/// The instance in scan order, placements sorted by first cell.
struct Prepared {
    /// Scan positions per row (the box's short side).
    row: usize,
    /// Scan positions.
    cells: usize,
    order: Vec<usize>,
    /// Per kept placement (sorted by first position): cells relative to the first.
    relative: Vec<Vec<usize>>,
    /// Per kept placement: index in the instance, and piece.
    index: Vec<usize>,
    piece: Vec<usize>,
    /// Offsets into the kept placements: those starting at position `k` are
    /// `starts[k]..starts[k + 1]`.
    starts: Vec<u32>,
    reach: usize,
    /// Per piece, its maximum when it can bind (`u32::MAX` otherwise).
    limit: Vec<u32>,
    limited: bool,
    /// Per mirror (left-right, top-bottom in scan geometry): per kept placement +1 if
    /// centred in the first half, -1 in the second, 0 on the line (empty: mirror unused).
    weight: [Vec<i8>; 2],
    /// Per mirror: the largest first position of a first-half placement.
    last_first_half: [usize; 2],
    /// Per entry `c`: bit `m` set if mirror `m` maps `P_c` onto itself (and is in use).
    mode: Vec<u8>,
    /// Per kept placement, its image under the top-bottom mirror of the scan geometry, if
    /// that mirror maps the instance onto itself (whatever [`DollOptions::symmetry`] says).
    flip: Option<Vec<usize>>,
    /// The most scan rows from a placement's first cell's row to its last cell's row.
    extent: usize,
}

impl Prepared {
    fn new(instance: &PackingInstance, symmetry: bool) -> Self {
        let (w, h) = (instance.width, instance.height);
        let cells = w * h;
        let order = scan_order(w, h);
        let mut position = vec![0; cells];
        for (k, &c) in order.iter().enumerate() {
            position[c] = k;
        }
        // Scan geometry: rows of `sw` positions.
        let (sw, sh) = (w.min(h), w.max(h));
        let smallest = |piece: usize| {
            instance
                .placements
                .iter()
                .filter(|p| p.piece == piece)
                .map(|p| p.cells.len())
                .min()
                .unwrap_or(1)
        };
        let limit: Vec<u32> = instance
            .pieces
            .iter()
            .enumerate()
            .map(|(piece, l)| match l.max {
                // A maximum no packing can exceed does not bind.
                Some(m) if m < cells / smallest(piece) => m as u32,
                _ => u32::MAX,
            })
            .collect();
        let mut kept: Vec<(usize, Vec<usize>)> = instance
            .placements
            .iter()
            .enumerate()
            .filter(|(_, p)| limit[p.piece] != 0)
            .map(|(i, p)| {
                let mut pos: Vec<usize> = p.cells.iter().map(|&c| position[c]).collect();
                pos.sort_unstable();
                (i, pos)
            })
            .collect();
        kept.sort_by_key(|(i, pos)| (pos[0], *i));
        let mut starts = vec![0u32; cells + 1];
        for (_, pos) in &kept {
            starts[pos[0] + 1] += 1;
        }
        for k in 0..cells {
            starts[k + 1] += starts[k];
        }
        let reach = kept
            .iter()
            .map(|(_, pos)| pos[pos.len() - 1] - pos[0] + 1)
            .max()
            .unwrap_or(1);
        let blocked: Vec<bool> = order.iter().map(|&c| instance.blocked[c]).collect();
        let mut weight = [Vec::new(), Vec::new()];
        let mut last_first_half = [0; 2];
        let mut mode = vec![0u8; cells + 1];
        let mut flip = None;
        {
            let index: FxHashMap<(usize, &[usize]), usize> = kept
                .iter()
                .enumerate()
                .map(|(k, (i, pos))| ((instance.placements[*i].piece, pos.as_slice()), k))
                .collect();
            type Map = fn(usize, usize, usize, usize) -> (usize, usize);
            let maps: [Map; 2] = [|x, y, w, _| (w - 1 - x, y), |x, y, _, h| (x, h - 1 - y)];
            for (m, map) in maps.into_iter().enumerate() {
                let image = |k: usize| {
                    let (x, y) = map(k % sw, k / sw, sw, sh);
                    y * sw + x
                };
                if (0..cells).any(|k| blocked[k] != blocked[image(k)]) {
                    continue;
                }
                let action: Option<Vec<usize>> = kept
                    .iter()
                    .map(|(i, pos)| {
                        let mut moved: Vec<usize> = pos.iter().map(|&k| image(k)).collect();
                        moved.sort_unstable();
                        index
                            .get(&(instance.placements[*i].piece, moved.as_slice()))
                            .copied()
                    })
                    .collect();
                let Some(action) = action else { continue };
                if m == 1 {
                    flip = Some(action.clone());
                }
                if !symmetry {
                    continue;
                }
                // P_c is mapped onto itself unless some placement starting at or after c has
                // its image starting before c: mark those c with a difference array.
                let mut broken = vec![0i32; cells + 2];
                for (k, (_, pos)) in kept.iter().enumerate() {
                    let (from, to) = (kept[action[k]].1[0], pos[0]);
                    if from < to {
                        broken[from + 1] += 1;
                        broken[to + 1] -= 1;
                    }
                }
                let mut run = 0;
                for (c, md) in mode.iter_mut().enumerate().take(cells) {
                    run += broken[c];
                    if run == 0 {
                        *md |= 1 << m;
                    }
                }
                let (line, coordinate): (usize, fn(usize, usize) -> usize) = if m == 0 {
                    (sw, |k, sw| k % sw)
                } else {
                    (sh, |k, sw| k / sw)
                };
                weight[m] = kept
                    .iter()
                    .map(|(_, pos)| {
                        let twice: usize = pos.iter().map(|&k| 2 * coordinate(k, sw)).sum();
                        match twice.cmp(&(pos.len() * (line - 1))) {
                            std::cmp::Ordering::Less => 1,
                            std::cmp::Ordering::Equal => 0,
                            std::cmp::Ordering::Greater => -1,
                        }
                    })
                    .collect();
                last_first_half[m] = kept
                    .iter()
                    .zip(&weight[m])
                    .filter(|(_, &s)| s > 0)
                    .map(|((_, pos), _)| pos[0])
                    .max()
                    .unwrap_or(0);
            }
        }
        Prepared {
            row: sw,
            cells,
            order,
            relative: kept
                .iter()
                .map(|(_, pos)| pos.iter().map(|&k| k - pos[0]).collect())
                .collect(),
            index: kept.iter().map(|(i, _)| *i).collect(),
            piece: kept
                .iter()
                .map(|(i, _)| instance.placements[*i].piece)
                .collect(),
            starts,
            reach,
            limited: limit.iter().any(|&l| l != u32::MAX),
            limit,
            weight,
            last_first_half,
            mode,
            flip,
            extent: kept
                .iter()
                .map(|(_, pos)| pos[pos.len() - 1] / sw - pos[0] / sw)
                .max()
                .unwrap_or(0),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Memo

/// One memo slot, four words: a sequence lock (odd while written), the window's two words,
/// and the key's tag (scan cell, mode, balances) above 18 bits, then 6 bits of subtree size
/// class (log2 of its nodes), then 12 bits of bound.
#[derive(Clone, Copy)]
struct Slot<'m>(&'m [AtomicU64; 4]);

impl Slot<'_> {
    /// The entry `(lo, hi, meta)`, unless it is being written (never a torn one).
    #[inline(always)]
    fn read(self) -> Option<(u64, u64, u64)> {
        let [seq_word, lo, hi, meta] = self.0;
        let seq = seq_word.load(Ordering::Acquire);
        if seq & 1 == 1 {
            return None;
        }
        let entry = (
            lo.load(Ordering::Relaxed),
            hi.load(Ordering::Relaxed),
            meta.load(Ordering::Relaxed),
        );
        fence(Ordering::Acquire);
        (seq_word.load(Ordering::Relaxed) == seq).then_some(entry)
    }

    /// Writes an entry, unless another thread is writing this slot (then it is dropped).
    #[inline(always)]
    fn write(self, entry: (u64, u64, u64)) {
        let [seq_word, lo, hi, meta] = self.0;
        let seq = seq_word.load(Ordering::Relaxed);
        if seq & 1 == 1
            || seq_word
                .compare_exchange(seq, seq + 1, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        fence(Ordering::Release);
        lo.store(entry.0, Ordering::Relaxed);
        hi.store(entry.1, Ordering::Relaxed);
        meta.store(entry.2, Ordering::Relaxed);
        seq_word.store(seq + 2, Ordering::Release);
    }
}

/// A fixed-size lossy table of exhausted states, shared by the threads without locks: a
/// reader takes an entry only if its slot's sequence number is even and unchanged around the
/// read, so a torn entry is never used; a writer that finds the slot busy drops its entry.
/// Every entry is a valid bound whenever it was written, so losing or replacing one only
/// costs time.
///
/// Buckets of two slots fill one 64-byte cache line: the first slot keeps the entry of the
/// larger subtree, the second takes the rest (as chess programs' transposition tables do).
struct Memo {
    /// Zeroed words (mapped lazily, so a table larger than a small search needs costs
    /// little), of which buckets start at `offset`, 64-byte aligned.
    words: Box<[AtomicU64]>,
    offset: usize,
    mask: usize,
}

/// A memo key: the window's 128 bits and a 46-bit tag (scan cell, mode, balances).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    lo: u64,
    hi: u64,
    tag: u64,
}

impl Key {
    /// The key of the same state with only the window cells in `(lo, hi)` kept.
    #[inline(always)]
    fn keeping(&self, (lo, hi): (u64, u64)) -> Key {
        Key {
            lo: self.lo & lo,
            hi: self.hi & hi,
            tag: self.tag,
        }
    }

    #[inline(always)]
    fn bucket(&self, mask: usize) -> usize {
        let h = (self.lo ^ self.hi.rotate_left(29) ^ self.tag.wrapping_mul(0xff51_afd7_ed55_8ccd))
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> 24) as usize & mask
    }

    #[inline(always)]
    fn matches(&self, (lo, hi, meta): (u64, u64, u64)) -> bool {
        // Tag 0 never occurs (it holds the scan cell + 1), so an empty slot never matches.
        lo == self.lo && hi == self.hi && meta >> 18 == self.tag
    }
}

const BOUND_BITS: u64 = 0xfff;

impl Memo {
    /// A table of `2^log2` entries (two per 64-byte bucket).
    fn new(log2: u32) -> Self {
        let buckets = 1usize << log2.saturating_sub(1);
        let words: Box<[AtomicU64]> = (0..8 * buckets + 7).map(|_| AtomicU64::new(0)).collect();
        let offset = words.as_ptr().align_offset(64);
        Memo {
            words,
            offset,
            mask: buckets - 1,
        }
    }

    #[inline(always)]
    fn bucket(&self, key: &Key) -> [Slot<'_>; 2] {
        let at = self.offset + 8 * key.bucket(self.mask);
        let slot = |k: usize| Slot(self.words[at + k..at + k + 4].try_into().expect("4 words"));
        [slot(0), slot(4)]
    }

    /// The bound stored for `key`, if any.
    #[inline(always)]
    fn get(&self, key: &Key) -> Option<u32> {
        self.bucket(key).into_iter().find_map(|slot| {
            slot.read()
                .filter(|&e| key.matches(e))
                .map(|(_, _, meta)| (meta & BOUND_BITS) as u32)
        })
    }

    /// Records that at most `bound` more pieces fit from `key`'s state, found by a search of
    /// `nodes` nodes.
    #[inline]
    fn put(&self, key: &Key, bound: u32, nodes: u64) {
        if u64::from(bound) > BOUND_BITS {
            return;
        }
        let class = u64::from(63 - nodes.max(1).leading_zeros());
        let meta = |bound: u64, class: u64| key.tag << 18 | class << 12 | bound;
        let bucket = self.bucket(key);
        let mut deep_class = 0;
        for (k, slot) in bucket.into_iter().enumerate() {
            if let Some(entry) = slot.read() {
                let (old_bound, old_class) = (entry.2 & BOUND_BITS, entry.2 >> 12 & 63);
                if key.matches(entry) {
                    let m = meta(old_bound.min(u64::from(bound)), old_class.max(class));
                    slot.write((key.lo, key.hi, m));
                    return;
                }
                if k == 0 {
                    deep_class = old_class;
                }
            }
        }
        let k = usize::from(class < deep_class);
        bucket[k].write((key.lo, key.hi, meta(u64::from(bound), class)));
    }
}

// ---------------------------------------------------------------------------------------------
// The engine

/// The prepared instance with placement masks as windows.
struct Engine<'p, W> {
    /// Also pass over cells where no placement fits. Measured: with the memo it saves
    /// lookups (14 x 14 crosses: 4x fewer nodes, 20% less time); without, testing every
    /// placement of every cell passed costs more than the nodes it saves (40% more time).
    skip_unfit: bool,
    prep: &'p Prepared,
    masks: Vec<W>,
    /// Per scan position: some placement starts there.
    has_start: Vec<bool>,
    piece: Vec<u32>,
    /// Window offsets tested for dead cells ([`DollOptions::dead_cells`]; 0: off).
    dead_span: usize,
    /// The placements covering each scan cell, as (first cell, placement), later first
    /// cells first: cell `k`'s are `covering[covering_starts[k]..covering_starts[k + 1]]`.
    covering_starts: Vec<u32>,
    covering: Vec<(u32, u32)>,
    /// The window cells each relaxed memo lookup keeps, as key words
    /// ([`DollOptions::memo_relaxed`]; empty: off).
    relaxed: Vec<(u64, u64)>,
}

impl<W: Window> Engine<'_, W> {
    /// The window with its dead cells marked covered ([`DollOptions::dead_cells`]): each
    /// free cell among the first `dead_span` that no placement starting at `q` or later
    /// and fitting the window covers.
    #[inline(never)]
    fn fill_dead(&self, q: usize, mut window: W) -> W {
        let span = self.dead_span.min(self.prep.cells - q);
        // Offset 0 is the scan cell, where a placement fits (see `normalize`).
        for x in 1..span {
            let cell = W::empty().with(x);
            if window.overlaps(cell) {
                continue;
            }
            let (from, to) = (
                self.covering_starts[q + x] as usize,
                self.covering_starts[q + x + 1] as usize,
            );
            let live = self.covering[from..to]
                .iter()
                .take_while(|&&(first, _)| first as usize >= q)
                .any(|&(first, i)| {
                    !window
                        .shr(first - q as u32)
                        .overlaps(self.masks[i as usize])
                });
            if !live {
                // Marking it changes no fit: no fitting placement covers it.
                window = window.with(x);
            }
        }
        window
    }

    /// Moves the scan on to the first cell at or after `q` where some placement starts and,
    /// with [`Engine::skip_unfit`], fits (`None`: past the last cell). The cells passed over
    /// stay empty whatever follows, so this only saves nodes (and takes the suffix bound at
    /// the later cell).
    #[inline(always)]
    fn normalize(&self, mut q: usize, mut window: W) -> Option<(usize, W)> {
        loop {
            let covered = window.trailing_ones();
            q += covered as usize;
            window = window.shr(covered);
            if q >= self.prep.cells {
                return None;
            }
            if self.skip_unfit {
                let (from, to) = (
                    self.prep.starts[q] as usize,
                    self.prep.starts[q + 1] as usize,
                );
                if self.masks[from..to].iter().any(|&m| !window.overlaps(m)) {
                    return Some((q, window));
                }
            } else if self.has_start[q] {
                return Some((q, window));
            }
            q += 1;
            window = window.shr(1);
        }
    }
}

/// The deepest level of the lookahead cut ([`DollOptions::lookahead`]).
const LOOKAHEAD_LEVELS: usize = 6;

/// Placements fitting a window that the lookahead cut collects, at most.
const LOOKAHEAD_FITS: usize = 48;

/// Fits at most for which a level above 2 that the greedy cover left open is decided
/// exactly (the search for independent placements grows with the cube of their number).
const LOOKAHEAD_EXACT: usize = 16;

impl<W: Window> Engine<'_, W> {
    /// Whether the lookahead cuts the node `(q, window)` with slack `slack`: for some level
    /// `k`, at most `k - 1 - slack` pieces can start at the cells `q..D_k` (`drops[k - 2]`),
    /// so at most `S[q] - 1 - slack` more pieces fit (see [`DollOptions::lookahead`]).
    // Kept out of line, so that the search's hot path stays small.
    #[inline(never)]
    fn lookahead_cuts(&self, q: usize, mut window: W, drops: &[u32], slack: usize) -> bool {
        let mut fits = [(0u32, W::empty()); LOOKAHEAD_FITS];
        let mut count = 0;
        let mut chosen = [(0u32, W::empty()); LOOKAHEAD_LEVELS + 1];
        let mut j = 0usize;
        for (level, &d) in drops.iter().enumerate() {
            if d == u32::MAX {
                return false;
            }
            // Collect the fits starting before D_k.
            while q + j < d as usize {
                let covered = window.trailing_ones();
                if covered > 0 {
                    j += covered as usize;
                    window = window.shr(covered);
                    continue;
                }
                let at = q + j;
                for i in self.prep.starts[at] as usize..self.prep.starts[at + 1] as usize {
                    let mask = self.masks[i];
                    if window.overlaps(mask) {
                        continue;
                    }
                    if count == LOOKAHEAD_FITS {
                        return false;
                    }
                    fits[count] = (j as u32, mask);
                    count += 1;
                }
                j += 1;
                window = window.shr(1);
            }
            // Level k cuts unless `k - slack` pieces can start before D_k (one always can).
            let need = match (level + 2).checked_sub(slack) {
                Some(need) if need >= 2 => need,
                _ => continue,
            };
            // Every fit collected starts before D_k: a fit is taken only at a cell before the
            // level's D (covered cells, which the collection may skip past D_k, start none),
            // and the D_k grow with k.
            let within = &fits[..count];
            // First fit: `need` placements beside each other found at once leave the level
            // open without the cover (the usual case).
            if need > 2 && first_fit_reaches(within, &mut chosen, need) {
                continue;
            }
            if need > 2 && clique_cover_at_most(within, need - 1) {
                return true;
            }
            if need > 2 && within.len() > LOOKAHEAD_EXACT {
                return false;
            }
            if !independent(within, &mut chosen, 0, need) {
                return true;
            }
        }
        false
    }
}

/// Whether two placements, each `(offset of its first cell from q, mask)`, the first
/// starting no later than the second, share a cell: the first's mask moved to the second's
/// start overlaps it.
#[inline(always)]
fn share_a_cell<W: Window>((j1, m1): (u32, W), (j, mask): (u32, W)) -> bool {
    m1.shr(j - j1).overlaps(mask)
}

/// Whether taking `fits` (first cells ascending) in order, each that fits beside those
/// taken, takes `need` of them (`chosen` is scratch).
fn first_fit_reaches<W: Window>(fits: &[(u32, W)], chosen: &mut [(u32, W)], need: usize) -> bool {
    let mut taken = 0;
    for &(j, mask) in fits {
        if chosen[..taken]
            .iter()
            .all(|&earlier| !share_a_cell(earlier, (j, mask)))
        {
            chosen[taken] = (j, mask);
            taken += 1;
            if taken == need {
                return true;
            }
        }
    }
    false
}

/// Whether a greedy cover of `fits` (first cells ascending) by groups of pairwise
/// overlapping placements needs at most `most` groups: then no more than `most` of them fit
/// beside each other.
fn clique_cover_at_most<W: Window>(fits: &[(u32, W)], most: usize) -> bool {
    let mut groups = [[0u8; LOOKAHEAD_FITS]; LOOKAHEAD_LEVELS];
    let mut sizes = [0usize; LOOKAHEAD_LEVELS];
    let mut used = 0;
    for (k, &(j, mask)) in fits.iter().enumerate() {
        let joins = (0..used).find(|&g| {
            groups[g][..sizes[g]]
                .iter()
                .all(|&m| share_a_cell(fits[m as usize], (j, mask)))
        });
        match joins {
            Some(g) => {
                groups[g][sizes[g]] = k as u8;
                sizes[g] += 1;
            }
            None if used == most => return false,
            None => {
                groups[used][0] = k as u8;
                sizes[used] = 1;
                used += 1;
            }
        }
    }
    true
}

/// Whether `need` more placements of `fits` (first cells ascending, each `(offset, mask)`)
/// fit beside each other and beside the `depth` already `chosen` (whose offsets are at most
/// theirs).
fn independent<W: Window>(
    fits: &[(u32, W)],
    chosen: &mut [(u32, W)],
    depth: usize,
    need: usize,
) -> bool {
    if need == 0 {
        return true;
    }
    for (k, &(j, mask)) in fits.iter().enumerate() {
        if fits.len() - k < need {
            return false;
        }
        if chosen[..depth]
            .iter()
            .all(|&earlier| !share_a_cell(earlier, (j, mask)))
        {
            chosen[depth] = (j, mask);
            if independent(&fits[k + 1..], chosen, depth + 1, need - 1) {
                return true;
            }
        }
    }
    false
}

/// The memo key of a state (`None` if it does not fit a key).
#[inline(always)]
fn key_of<W: Window>(q: usize, window: W, mode: u8, balances: [i32; 2]) -> Option<Key> {
    let (lo, hi) = window.key()?;
    // The tag has 46 bits: scan cell + 1 (20), mode (2), balances (2 x 12).
    let fits = q + 1 < 1 << 20 && balances.iter().all(|b| b.abs() < 2048);
    fits.then(|| Key {
        lo,
        hi,
        tag: (q as u64 + 1)
            | u64::from(mode) << 20
            | ((balances[0] + 2048) as u64) << 22
            | ((balances[1] + 2048) as u64) << 34,
    })
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    /// A packing reaching the target was found (the searcher's stack holds it).
    Found,
    /// The subtree holds no such packing.
    Exhausted,
    /// Stopped (by the caller, the deadline, another thread's success or the budget).
    Aborted,
}

/// What one table entry's search shares among its threads.
struct Ctx<'e, 'p, W> {
    engine: &'e Engine<'p, W>,
    table: &'e [u32],
    /// Per decided scan cell `q` and level `k` from 2: the first cell `p > q` with
    /// `S[p] + k <= S[q]` (`u32::MAX` if none).
    drops: &'e [[u32; LOOKAHEAD_LEVELS - 1]],
    /// Levels of the lookahead in use (0: off).
    levels: usize,
    target: u32,
    /// Mirrors in use for this entry (bit per mirror).
    mode: u8,
    memo: Option<&'e Memo>,
    found: AtomicBool,
    stop: Option<&'e AtomicBool>,
    deadline: Option<Instant>,
}

/// A search node to resume: scan cell, window, pieces placed and the packing so far.
#[derive(Clone)]
struct State<W> {
    q: usize,
    window: W,
    placed: u32,
    stack: Vec<u32>,
    used: Vec<u32>,
    balance: [i32; 2],
}

/// Result of entering a node: its (advanced) scan cell, window and memo key, or an end.
enum Enter<W> {
    Found,
    Cut,
    Node(usize, W, Option<Key>),
}

/// One thread's depth-first search.
struct Searcher<'c, 'e, 'p, W> {
    ctx: &'c Ctx<'e, 'p, W>,
    stack: Vec<u32>,
    used: Vec<u32>,
    balance: [i32; 2],
    nodes: u64,
    budget: u64,
    memo_hits: u64,
    memo_relaxed_hits: u64,
    memo_stores: u64,
    lookahead_cuts: u64,
}

impl<'c, 'e, 'p, W: Window> Searcher<'c, 'e, 'p, W> {
    fn new(ctx: &'c Ctx<'e, 'p, W>, budget: u64) -> Self {
        Searcher {
            ctx,
            stack: Vec::new(),
            used: vec![0; ctx.engine.prep.limit.len()],
            balance: [0; 2],
            nodes: 0,
            budget,
            memo_hits: 0,
            memo_relaxed_hits: 0,
            memo_stores: 0,
            lookahead_cuts: 0,
        }
    }

    fn load(&mut self, state: &State<W>) {
        self.stack.clone_from(&state.stack);
        self.used.clone_from(&state.used);
        self.balance = state.balance;
    }

    fn state(&self, q: usize, window: W, placed: u32) -> State<W> {
        State {
            q,
            window,
            placed,
            stack: self.stack.clone(),
            used: self.used.clone(),
            balance: self.balance,
        }
    }

    fn should_stop(&self) -> bool {
        let ctx = self.ctx;
        self.nodes >= self.budget
            || ctx.found.load(Ordering::Relaxed)
            || ctx.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || ctx.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether placement `i` may be added under the piece maximums; if so it is added.
    #[inline(always)]
    fn push(&mut self, i: usize) -> bool {
        let e = self.ctx.engine;
        if e.prep.limited {
            let piece = e.piece[i] as usize;
            if self.used[piece] >= e.prep.limit[piece] {
                return false;
            }
            self.used[piece] += 1;
        }
        if self.ctx.mode != 0 {
            for m in 0..2 {
                if self.ctx.mode >> m & 1 == 1 {
                    self.balance[m] += i32::from(e.prep.weight[m][i]);
                }
            }
        }
        self.stack.push(i as u32);
        true
    }

    #[inline(always)]
    fn pop(&mut self, i: usize) {
        let e = self.ctx.engine;
        self.stack.pop();
        if self.ctx.mode != 0 {
            for m in 0..2 {
                if self.ctx.mode >> m & 1 == 1 {
                    self.balance[m] -= i32::from(e.prep.weight[m][i]);
                }
            }
        }
        if e.prep.limited {
            self.used[e.piece[i] as usize] -= 1;
        }
    }

    /// Whether the mirror rules in use hold for the pieces placed.
    #[inline(always)]
    fn balanced(&self) -> bool {
        let mode = self.ctx.mode;
        (0..2).all(|m| mode >> m & 1 == 0 || self.balance[m] >= 0)
    }

    /// Enters a node: skips covered cells and cells where nothing starts, then applies the
    /// bounds (suffix table, mirror rules, memo).
    #[inline(always)]
    fn enter(&mut self, q: usize, window: W, placed: u32) -> Enter<W> {
        let ctx = self.ctx;
        let e = ctx.engine;
        if placed >= ctx.target && self.balanced() {
            return Enter::Found;
        }
        let Some((q, window)) = e.normalize(q, window) else {
            return Enter::Cut;
        };
        let suffix = ctx.table[q];
        if placed + suffix < ctx.target {
            return Enter::Cut;
        }
        // With little slack left, the lookahead may cut (see [`DollOptions::lookahead`]).
        let slack = (placed + suffix - ctx.target) as usize;
        if slack < ctx.levels
            && ctx.drops[q][0] != u32::MAX
            && e.lookahead_cuts(q, window, &ctx.drops[q][..ctx.levels], slack)
        {
            self.lookahead_cuts += 1;
            return Enter::Cut;
        }
        let mut balances = [0i32; 2];
        if ctx.mode != 0 {
            for (m, balance) in balances.iter_mut().enumerate() {
                if ctx.mode >> m & 1 == 0 {
                    continue;
                }
                let b = self.balance[m];
                // Behind: only first-half pieces still to come can catch up.
                if b < 0 && (q > e.prep.last_first_half[m] || b + (suffix as i32) < 0) {
                    return Enter::Cut;
                }
                // Ahead by more than can still be placed: the rule holds whatever follows,
                // so all such balances are one state.
                *balance = b.min(suffix as i32);
            }
        }
        let window = if e.dead_span > 1 {
            e.fill_dead(q, window)
        } else {
            window
        };
        let key = match ctx.memo {
            Some(memo) => {
                let key = key_of(q, window, ctx.mode, balances);
                if let Some(key) = &key {
                    let cuts =
                        |key: &Key| memo.get(key).is_some_and(|more| placed + more < ctx.target);
                    if cuts(key) {
                        self.memo_hits += 1;
                        return Enter::Cut;
                    }
                    for &kept in &e.relaxed {
                        let relaxed = key.keeping(kept);
                        if relaxed != *key && cuts(&relaxed) {
                            self.memo_hits += 1;
                            self.memo_relaxed_hits += 1;
                            return Enter::Cut;
                        }
                    }
                }
                key
            }
            _ => None,
        };
        Enter::Node(q, window, key)
    }

    /// Depth-first search from a node; on [`Flow::Found`] the stack holds the packing.
    fn search(&mut self, q: usize, window: W, placed: u32) -> Flow {
        self.nodes += 1;
        if (self.nodes & 0xfff == 0 || self.nodes == self.budget) && self.should_stop() {
            return Flow::Aborted;
        }
        let (q, window, key) = match self.enter(q, window, placed) {
            Enter::Found => return Flow::Found,
            Enter::Cut => return Flow::Exhausted,
            Enter::Node(q, window, key) => (q, window, key),
        };
        let e = self.ctx.engine;
        let before = self.nodes;
        for i in e.prep.starts[q] as usize..e.prep.starts[q + 1] as usize {
            let mask = e.masks[i];
            if window.overlaps(mask) || !self.push(i) {
                continue;
            }
            match self.search(q + 1, window.union(mask).shr(1), placed + 1) {
                Flow::Exhausted => self.pop(i),
                flow => return flow,
            }
        }
        let flow = self.search(q + 1, window.shr(1), placed);
        if flow == Flow::Exhausted {
            if let (Some(memo), Some(key)) = (self.ctx.memo, key) {
                // Exhausted with `placed` pieces: fewer than target - placed more fit here.
                if let Some(more) = self.ctx.target.checked_sub(placed + 1) {
                    memo.put(&key, more, self.nodes - before);
                    self.memo_stores += 1;
                }
            }
        }
        flow
    }

    /// The children of a node (for splitting over threads), or the packing if it is one.
    fn expand(&mut self, state: &State<W>) -> Result<Vec<State<W>>, Vec<u32>> {
        self.load(state);
        let (q, window) = match self.enter(state.q, state.window, state.placed) {
            Enter::Found => return Err(self.stack.clone()),
            Enter::Cut => return Ok(Vec::new()),
            Enter::Node(q, window, _) => (q, window),
        };
        let e = self.ctx.engine;
        let mut children = Vec::new();
        for i in e.prep.starts[q] as usize..e.prep.starts[q + 1] as usize {
            let mask = e.masks[i];
            if window.overlaps(mask) || !self.push(i) {
                continue;
            }
            children.push(self.state(q + 1, window.union(mask).shr(1), state.placed + 1));
            self.pop(i);
        }
        children.push(self.state(q + 1, window.shr(1), state.placed));
        Ok(children)
    }
}

/// What one entry's search concluded.
enum StepEnd {
    Found(Vec<u32>),
    Exhausted,
    Aborted,
}

#[derive(Default)]
struct Totals {
    stats: DollStats,
}

impl Totals {
    fn add<W: Window>(&mut self, s: &Searcher<'_, '_, '_, W>) {
        self.stats.nodes += s.nodes;
        self.stats.memo_hits += s.memo_hits;
        self.stats.memo_relaxed_hits += s.memo_relaxed_hits;
        self.stats.memo_stores += s.memo_stores;
        self.stats.lookahead_cuts += s.lookahead_cuts;
    }
}

/// Decides entry `c`: is there a packing of `target` pieces drawn from `P_c`?
fn step<W: Window>(
    ctx: &Ctx<'_, '_, W>,
    c: usize,
    threads: usize,
    pool: Option<&rayon::ThreadPool>,
    split_nodes: u64,
    totals: &Mutex<Totals>,
) -> StepEnd {
    let e = ctx.engine;
    let budget = if pool.is_some() {
        split_nodes
    } else {
        u64::MAX
    };
    let mut searcher = Searcher::new(ctx, budget);
    let mut roots = Vec::new();
    for i in e.prep.starts[c] as usize..e.prep.starts[c + 1] as usize {
        if searcher.push(i) {
            roots.push(searcher.state(c + 1, e.masks[i].shr(1), 1));
            searcher.pop(i);
        }
    }
    // Small entries are searched on this thread; a large one is split below.
    let mut flow = Flow::Exhausted;
    for root in &roots {
        searcher.load(root);
        flow = searcher.search(root.q, root.window, root.placed);
        if flow != Flow::Exhausted {
            break;
        }
    }
    let over_budget = searcher.nodes >= searcher.budget;
    totals.lock().expect("no panics").add(&searcher);
    match flow {
        Flow::Found => return StepEnd::Found(searcher.stack),
        Flow::Exhausted => return StepEnd::Exhausted,
        Flow::Aborted if !over_budget => return StepEnd::Aborted,
        Flow::Aborted => {}
    }
    let Some(pool) = pool else {
        return StepEnd::Aborted;
    };
    // Split: expand level by level until there are plenty of subtrees to share out. Entries
    // learnt in the budgeted run stay in the memo, so its work is mostly not repeated.
    let mut splitter = Searcher::new(ctx, u64::MAX);
    let mut frontier = roots;
    for _ in 0..64 {
        if frontier.len() >= 64 * threads || frontier.is_empty() {
            break;
        }
        let mut next = Vec::new();
        for state in &frontier {
            match splitter.expand(state) {
                Ok(children) => next.extend(children),
                Err(packing) => return StepEnd::Found(packing),
            }
        }
        frontier = next;
    }
    let found: Mutex<Option<Vec<u32>>> = Mutex::new(None);
    let aborted = AtomicBool::new(false);
    pool.install(|| {
        frontier.par_iter().for_each_init(
            || Searcher::new(ctx, u64::MAX),
            |searcher, state| {
                if ctx.found.load(Ordering::Relaxed) || aborted.load(Ordering::Relaxed) {
                    return;
                }
                searcher.load(state);
                let (nodes, hits, stores, cuts) = (
                    searcher.nodes,
                    searcher.memo_hits,
                    searcher.memo_stores,
                    searcher.lookahead_cuts,
                );
                let flow = searcher.search(state.q, state.window, state.placed);
                match flow {
                    Flow::Found => {
                        let mut slot = found.lock().expect("no panics");
                        if slot.is_none() {
                            *slot = Some(searcher.stack.clone());
                        }
                        ctx.found.store(true, Ordering::Relaxed);
                    }
                    Flow::Aborted => aborted.store(true, Ordering::Relaxed),
                    Flow::Exhausted => {}
                }
                let mut t = totals.lock().expect("no panics");
                t.stats.nodes += searcher.nodes - nodes;
                t.stats.memo_hits += searcher.memo_hits - hits;
                t.stats.memo_stores += searcher.memo_stores - stores;
                t.stats.lookahead_cuts += searcher.lookahead_cuts - cuts;
            },
        );
    });
    totals.lock().expect("no panics").stats.parallel_steps += 1;
    match found.into_inner().expect("no panics") {
        Some(packing) => StepEnd::Found(packing),
        None if aborted.load(Ordering::Relaxed) => StepEnd::Aborted,
        None => StepEnd::Exhausted,
    }
}

/// What a stopped run's decided rows say about the whole box through its top-bottom mirror.
struct Halves {
    /// A packing of the top rows (a decided entry's packing, mirrored) and the rows below.
    packing: Vec<u32>,
    /// An upper bound on the whole box.
    bound: usize,
}

/// For a stopped run whose instance the top-bottom mirror maps onto itself: with `R` rows
/// of which the last `R - d` are decided, the pieces whose first cell lies in the top `k`
/// rows lie in the top `k + extent` rows, which hold at most `S[(R - k - extent) row]` pieces
/// (the mirror image of the bottom rows); the others at most `S[k row]`. So the optimum is at
/// most `S[k row] + S[(R - k - extent) row]` for every `k` with both decided, and the packing
/// of `S[k row]` beside the mirrored packing of `S[(R - k) row]` is a packing (top `k` rows
/// and the rest). `None` if the mirror does not apply, a piece maximum binds (the two halves
/// could exceed it) or no `k` has both entries decided.
fn mirror_halves(
    prep: &Prepared,
    table: &[u32],
    known_from: usize,
    found_at: &[(usize, Vec<u32>)],
) -> Option<Halves> {
    let flip = prep.flip.as_ref()?;
    if prep.limited {
        return None;
    }
    let (row, rows) = (prep.row, prep.cells / prep.row);
    let decided = |k: usize| k <= rows && k * row >= known_from;
    // The packing of S[p]: the one found at the first found entry at or after p.
    let packing_of = |p: usize| {
        found_at
            .iter()
            .rev()
            .find(|(c, _)| *c >= p)
            .map_or(&[][..], |(_, packing)| packing.as_slice())
    };
    let mut bound = usize::MAX;
    let mut packing: Vec<u32> = Vec::new();
    for k in 1..rows {
        if !decided(k) {
            continue;
        }
        if let Some(top) = rows.checked_sub(k + prep.extent).filter(|&t| decided(t)) {
            bound = bound.min((table[k * row] + table[top * row]) as usize);
        }
        if decided(rows - k) && (table[k * row] + table[(rows - k) * row]) as usize > packing.len()
        {
            packing = packing_of(k * row).to_vec();
            packing.extend(
                packing_of((rows - k) * row)
                    .iter()
                    .map(|&i| flip[i as usize] as u32),
            );
        }
    }
    (bound != usize::MAX || !packing.is_empty()).then_some(Halves { packing, bound })
}

/// The placements covering each scan cell, later first cells first, as offsets and
/// (first cell, placement) pairs (see [`Engine::covering`]).
fn covering_lists(prep: &Prepared) -> (Vec<u32>, Vec<(u32, u32)>) {
    let mut lists = vec![Vec::new(); prep.cells];
    for first in 0..prep.cells {
        for i in prep.starts[first] as usize..prep.starts[first + 1] as usize {
            for &k in &prep.relative[i] {
                lists[first + k].push((first as u32, i as u32));
            }
        }
    }
    let mut starts = Vec::with_capacity(prep.cells + 1);
    let mut flat = Vec::new();
    starts.push(0);
    for mut list in lists {
        list.sort_unstable_by(|a, b| b.cmp(a));
        flat.extend(list);
        starts.push(flat.len() as u32);
    }
    (starts, flat)
}

fn run<W: Window>(
    prep: &Prepared,
    options: &DollOptions<'_>,
    mut progress: impl FnMut(usize, usize),
) -> DollOutcome {
    let memo = (options.memo && !prep.limited && prep.reach <= 129).then(|| {
        let log2 = match options.memo_log2 {
            0 => (18 + 2 * prep.row as i64 - 26).clamp(16, 22) as u32,
            log2 => log2.clamp(4, 32),
        };
        Memo::new(log2)
    });
    // Two scan rows, within the reach (the window's cells beyond it are all free); only
    // memo keys gain from them (see `DollOptions::dead_cells`).
    let dead_span = if options.dead_cells && memo.is_some() {
        (2 * prep.row).min(prep.reach)
    } else {
        0
    };
    let (covering_starts, covering) = if dead_span > 1 {
        covering_lists(prep)
    } else {
        (Vec::new(), Vec::new())
    };
    let engine = Engine {
        skip_unfit: memo.is_some(),
        prep,
        masks: prep
            .relative
            .iter()
            .map(|rel| rel.iter().fold(W::empty(), |m, &k| m.with(k)))
            .collect(),
        has_start: (0..prep.cells)
            .map(|k| prep.starts[k] < prep.starts[k + 1])
            .collect(),
        piece: prep.piece.iter().map(|&p| p as u32).collect(),
        dead_span,
        covering_starts,
        covering,
        relaxed: if options.memo_relaxed && prep.extent >= 3 {
            let kept = (prep.extent - 1) * prep.row;
            let mut offsets = vec![kept, kept - prep.row / 2];
            offsets.dedup();
            // Clearing from offset `k` on changes keys only inside the reach; keys hold 128.
            offsets
                .into_iter()
                .filter(|&k| k < prep.reach.min(128))
                .map(|k| match k {
                    0..=63 => ((1 << k) - 1, 0),
                    _ => (u64::MAX, (1u64 << (k - 64)) - 1),
                })
                .collect()
        } else {
            Vec::new()
        },
    };
    let threads = if options.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        options.threads
    };
    let pool = (threads > 1)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .ok()
        })
        .flatten();
    let capacity: u64 = if prep.limited {
        prep.limit.iter().map(|&l| u64::from(l)).sum()
    } else {
        u64::MAX
    };
    let n = prep.cells;
    let mut table = vec![0u32; n + 1];
    let mut drops = vec![[u32::MAX; LOOKAHEAD_LEVELS - 1]; n + 1];
    // Levels 2..=k use the drops D_2..D_k.
    let levels = if prep.row >= options.lookahead_min_row {
        options.lookahead.min(LOOKAHEAD_LEVELS).saturating_sub(1)
    } else {
        0
    };
    let mut known_from = n;
    let mut best: Vec<u32> = Vec::new();
    // The packing of each entry found, last scan cell first (for a stopped run's halves).
    let mut found_at: Vec<(usize, Vec<u32>)> = Vec::new();
    let totals = Mutex::new(Totals::default());
    let mut bounded_entries = 0;
    for c in (0..n).rev() {
        table[c] = table[c + 1];
        let target = table[c + 1] + 1;
        let row_bound = options.row_bounds.get(c / prep.row).copied().flatten();
        let bounded = row_bound.is_some_and(|b| target as usize > b);
        bounded_entries += u64::from(bounded && engine.has_start[c]);
        if engine.has_start[c] && u64::from(target) <= capacity && !bounded {
            let ctx = Ctx {
                engine: &engine,
                table: &table,
                drops: &drops,
                levels,
                target,
                mode: prep.mode[c],
                memo: memo.as_ref(),
                found: AtomicBool::new(false),
                stop: options.stop,
                deadline: options.deadline,
            };
            match step(
                &ctx,
                c,
                threads,
                pool.as_ref(),
                options.split_nodes,
                &totals,
            ) {
                StepEnd::Found(packing) => {
                    found_at.push((c, packing.clone()));
                    best = packing;
                    table[c] = target;
                }
                StepEnd::Exhausted => {}
                StepEnd::Aborted => break,
            }
        }
        for (level, drop) in drops[c].iter_mut().enumerate().take(levels) {
            let k = level as u32 + 2;
            if table[c] >= k {
                *drop = (c + 1..=n)
                    .find(|&p| table[p] + k <= table[c])
                    .map_or(u32::MAX, |p| p as u32);
            }
        }
        known_from = c;
        progress(c, table[c] as usize);
    }
    // Undecided entries each add at most one to the last decided one.
    let open = (0..known_from).filter(|&k| engine.has_start[k]).count();
    let mut bound = (table[known_from] as u64 + open as u64).min(capacity) as usize;
    if known_from > 0 {
        if let Some(halves) = mirror_halves(prep, &table, known_from, &found_at) {
            bound = bound.min(halves.bound);
            if halves.packing.len() > best.len() {
                best = halves.packing;
            }
        }
    }
    DollOutcome {
        best: best.iter().map(|&i| prep.index[i as usize]).collect(),
        proved: known_from == 0,
        bound,
        order: prep.order.clone(),
        table: (0..=n)
            .map(|k| (k >= known_from).then_some(table[k] as usize))
            .collect(),
        found: found_at
            .into_iter()
            .map(|(k, packing)| (k, packing.iter().map(|&i| prep.index[i as usize]).collect()))
            .collect(),
        stats: DollStats {
            bounded_entries,
            ..totals.into_inner().expect("no panics").stats
        },
    }
}
