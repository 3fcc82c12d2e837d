//! Counting every N-queens solution on an empty board, by symmetry class, in parallel,
//! with start constellations.
//!
//! Every solution has exactly one queen on each of the four border lines: the first row,
//! the last row, the first column and the last column. Those (three or four: a corner
//! queen sits on two lines) border queens are the solution's *start constellation*,
//! written `(top, bottom, left, right)`: the columns of the first- and last-row queens and
//! the rows of the first- and last-column queens.
//!
//! The 8 symmetries of the square map solutions to solutions and constellations to
//! constellations, compatibly. So the counter
//!
//! 1. lists every valid constellation (queens consistent and not attacking each other),
//!    keeps the one of each orbit that is least under the 8 symmetries (the *canonical*
//!    one) and notes its orbit size and its stabiliser `H`;
//! 2. completes each canonical constellation with a bitboard depth-first search over the
//!    rows that are still empty, bottom up (the pre-placed rows are stepped over, the
//!    pre-placed queens' columns and diagonals are blocked in every row);
//! 3. adds `orbit size x completions` to the total.
//!
//! The search of step 2 is the hot loop. The first three empty rows are enumerated, and
//! the completions of those prefixes are searched together. On processors with AVX-512
//! or AVX2 the open nodes are kept by row and moved sixteen or eight to an instruction
//! (`batches`: each round places the lowest free column of up to 64 nodes of one row,
//! with a look two rows ahead). Elsewhere they are searched four at a time in lock step
//! (`Plan::count_lockstep`): each round places one queen in each of four independent
//! searches with straight-line code, which replaces the mispredicted branches of a plain
//! depth-first search with work the processor overlaps. Both count the same (tests hold
//! them to a plain search); the batches are three to four times faster (N = 17 and 18 on
//! an AMD EPYC, two threads).
//!
//! Symmetry classes: the classes of solutions whose constellation lies in the orbit of `C`
//! correspond to the `H`-orbits of `C`'s completions, where `H` is `C`'s stabiliser. A
//! completion fixed by `k` members of `H` lies in a class of `8 / k` and its `H`-orbit
//! has `|H| / k` members, so adding `k` to that class size for every completion and
//! dividing the sums by `|H|` counts every class exactly once. Only rotations can fix a
//! solution of `N > 1` (a reflection would put two queens on a row, a column or a
//! diagonal), hence sizes 2, 4 and 8; N = 1 is the single class of size 1.
//! With a trivial `H` (nearly every constellation) each completion is a class of 8. A
//! non-trivial `H` holds the half turn (and maybe the quarter turns): then the completion
//! search (batches or lock step) counts all completions, and a small search that places queens in symmetric
//! pairs or fours counts those fixed by the half turn and by the quarter turn, which is
//! all the weights need. Tiny boards check every completion instead.
//!
//! The method works for every N (N = 1..=4 included: a constellation may leave no empty
//! row, and then it is a solution by itself), so there is no cut-off to a plain search.
//!
//! The list of canonical constellations is sorted by an estimate of their cost, largest
//! first (for load balance), with ties broken by the constellation itself: the order
//! depends only on N, so shards of one N add up to the whole on any machine.
//!
//! # References
//! * OEIS A000170 (all solutions) and A002562 (solutions up to symmetry).
//! * Jeff Somers, "The N Queens Problem", 2002 (the bitboard search).
//! * Takaken, "N-Queens" (counting by symmetry class).
//! * The Q27 project (TU Dresden), which counted N = 27 from pre-placed start
//!   constellations.
//! * NQueensFAF, a CPU/GPU counter built on the same start constellations.

#[cfg(target_arch = "x86_64")]
mod batches;

use crate::base::shard::Shard;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

/// The largest board side the counter handles: rows are `u32` bitboards.
pub const MAX_N: u32 = 32;

/// The result of counting N-queens solutions on an empty board (or one shard's part of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NQueensCount {
    /// The board side.
    pub n: u32,
    /// All solutions (OEIS A000170), or this shard's part of them.
    pub total: u64,
    /// Solutions up to rotation and reflection (OEIS A002562), or this shard's part of them.
    pub unique: u64,
    /// How many subproblems (canonical start constellations) this run did: all of them,
    /// or this shard's share.
    pub subproblems: u64,
    /// Symmetry classes by size: how many have 1, 2, 4 and 8 members.
    pub classes: [u64; 4],
}

/// Counts the solutions of N-queens on an empty `n` x `n` board, `n` in `1..=32`.
///
/// The work is cut into the canonical start constellations of `n`, in an order that
/// depends only on `n`; with `shard`, only that shard's constellations are done.
/// `progress(done, total)` is called from the worker threads each time a constellation
/// finishes, where `total` is the number of constellations this run does. Returns `None`
/// when `stop` was set before every constellation finished (including when it was set
/// before the call). `stop` is polled before each constellation and every few thousand
/// search steps within one (not while the list is built: about 1 s for N = 27).
///
/// # Panics
/// If `n` is 0 or larger than [`MAX_N`].
pub fn count_empty_board(
    n: u32,
    shard: Option<Shard>,
    progress: &(dyn Fn(u64, u64) + Sync),
    stop: &AtomicBool,
) -> Option<NQueensCount> {
    let (count, complete) = count_empty_board_so_far(n, shard, progress, stop);
    complete.then_some(count)
}

/// [`count_empty_board`], keeping what a stopped run finished: the counts of the
/// constellations completed before `stop` was set (`subproblems` of them), and whether
/// that was all of them. A constellation counts whole symmetry classes, so the partial
/// class counts stay consistent (`total` is still their weighted sum): a lower bound.
///
/// # Panics
/// If `n` is 0 or larger than [`MAX_N`].
pub fn count_empty_board_so_far(
    n: u32,
    shard: Option<Shard>,
    progress: &(dyn Fn(u64, u64) + Sync),
    stop: &AtomicBool,
) -> (NQueensCount, bool) {
    assert!(
        (1..=MAX_N).contains(&n),
        "N-queens counting supports N = 1..={MAX_N}, got {n}"
    );
    let nothing = NQueensCount {
        n,
        total: 0,
        unique: 0,
        subproblems: 0,
        classes: [0; 4],
    };
    if stop.load(Ordering::Relaxed) {
        return (nothing, false);
    }
    let all = start_constellations(n);
    let mine: Vec<&Start> = all
        .iter()
        .enumerate()
        .filter(|(i, _)| shard.is_none_or(|s| s.owns(*i)))
        .map(|(_, start)| start)
        .collect();
    let planned = mine.len() as u64;
    let done = AtomicU64::new(0);

    let counts = mine
        .par_iter()
        .with_max_len(1)
        .map(|start| {
            if stop.load(Ordering::Relaxed) {
                return ClassCounts::default();
            }
            match start.solve(stop) {
                Some(counts) => {
                    let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                    progress(finished, planned);
                    counts
                }
                None => ClassCounts::default(),
            }
        })
        .reduce(ClassCounts::default, ClassCounts::add);

    let finished = done.load(Ordering::Relaxed);
    let count = NQueensCount {
        subproblems: finished,
        total: counts.total(),
        unique: counts.unique(),
        classes: [counts.c1, counts.c2, counts.c4, counts.c8],
        ..nothing
    };
    (count, finished == planned)
}

/// Solutions counted by the size of their symmetry class (orbit under the 8 symmetries).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct ClassCounts {
    /// Classes of size 1: only the single queen of N = 1.
    c1: u64,
    /// Classes of size 2: invariant under the 90 degree rotation.
    c2: u64,
    /// Classes of size 4: invariant under the 180 degree rotation only.
    c4: u64,
    /// Classes of size 8: no symmetry.
    c8: u64,
}

impl ClassCounts {
    fn add(self, other: ClassCounts) -> ClassCounts {
        ClassCounts {
            c1: self.c1 + other.c1,
            c2: self.c2 + other.c2,
            c4: self.c4 + other.c4,
            c8: self.c8 + other.c8,
        }
    }

    fn total(&self) -> u64 {
        self.c1 + 2 * self.c2 + 4 * self.c4 + 8 * self.c8
    }

    fn unique(&self) -> u64 {
        self.c1 + self.c2 + self.c4 + self.c8
    }
}

/// A symmetry of the square, `0..8`: bit 2 transposes, then bit 0 flips the rows and
/// bit 1 the columns. The rotations are 0 (identity), 3 (180 degrees), 5 and 6 (90 and
/// 270 degrees).
type Symmetry = u8;

/// The half turn.
const HALF_TURN: Symmetry = 3;
/// A quarter turn (the one that maps `(row, col)` to `(col, n - 1 - row)`).
const QUARTER_TURN: Symmetry = 6;
/// The other quarter turn.
const THREE_QUARTER_TURN: Symmetry = 5;
/// The four rotations, one bit per [`Symmetry`].
const ROTATIONS: u8 = 1 | 1 << HALF_TURN | 1 << QUARTER_TURN | 1 << THREE_QUARTER_TURN;

/// The image of square `(row, col)` under symmetry `g` on a board whose last index is `n1`.
#[inline]
fn transform(g: Symmetry, n1: u32, (row, col): (u32, u32)) -> (u32, u32) {
    let (row, col) = if g & 4 != 0 { (col, row) } else { (row, col) };
    let row = if g & 1 != 0 { n1 - row } else { row };
    let col = if g & 2 != 0 { n1 - col } else { col };
    (row, col)
}

/// The border queens of a solution: `top` and `bottom` are the columns of the queens of
/// the first and last rows, `left` and `right` the rows of the queens of the first and
/// last columns. Ordered lexicographically, which defines the canonical (least) member of
/// an orbit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Constellation {
    top: u32,
    bottom: u32,
    left: u32,
    right: u32,
}

impl Constellation {
    /// The four border queens as squares `(row, col)`; a corner queen appears twice.
    fn queens(&self, n1: u32) -> [(u32, u32); 4] {
        [
            (0, self.top),
            (n1, self.bottom),
            (self.left, 0),
            (self.right, n1),
        ]
    }

    /// Whether the queens are a consistent, non-attacking placement: one queen per border
    /// line (a corner queen counts for both its lines) and no two attacking each other.
    fn is_valid(&self, n1: u32) -> bool {
        // A queen on a corner belongs to two lines, which must agree on it.
        let consistent = (self.left == 0) == (self.top == 0)
            && (self.right == 0) == (self.top == n1)
            && (self.left == n1) == (self.bottom == 0)
            && (self.right == n1) == (self.bottom == n1);
        if !consistent {
            return false;
        }
        let queens = self.queens(n1);
        for (i, &(r1, c1)) in queens.iter().enumerate() {
            for &(r2, c2) in &queens[i + 1..] {
                if (r1, c1) == (r2, c2) {
                    continue;
                }
                if r1 == r2 || c1 == c2 || r1.abs_diff(r2) == c1.abs_diff(c2) {
                    return false;
                }
            }
        }
        true
    }

    /// The image of the constellation under symmetry `g`.
    fn image(&self, g: Symmetry, n1: u32) -> Constellation {
        let mut out = *self;
        for queen in self.queens(n1) {
            let (row, col) = transform(g, n1, queen);
            // Each border line holds exactly one queen, so every field is written once
            // (twice with the same value for a corner queen).
            if row == 0 {
                out.top = col;
            }
            if row == n1 {
                out.bottom = col;
            }
            if col == 0 {
                out.left = row;
            }
            if col == n1 {
                out.right = row;
            }
        }
        out
    }
}

/// A canonical start constellation with what its search needs.
#[derive(Debug, Clone)]
struct Start {
    constellation: Constellation,
    /// The symmetries that map the constellation to itself, one bit per [`Symmetry`].
    stabiliser: u8,
    /// The estimated cost of its search, for ordering (largest first).
    cost: u64,
    plan: Plan,
}

/// The empty rows of a constellation, in the order the search fills them, and the
/// diagonals and columns the pre-placed queens take.
///
/// Diagonals are kept by absolute index in `u64`s (`col - row + n - 1` for the ones that
/// run down to the right, `col + row` for the others), so the rows can be filled in any
/// order: row `r` reads its attacked columns by shifting them right by `n - 1 - r` and `r`.
#[derive(Debug, Clone)]
struct Plan {
    /// `n - 1`.
    n1: u32,
    /// How many rows are empty.
    depth: usize,
    /// The empty rows, in search order.
    rows: [u8; MAX_N as usize],
    /// Columns taken by the pre-placed queens, and the bits off the board.
    cols: u32,
    /// Down-right diagonals taken by the pre-placed queens.
    down: u64,
    /// Down-left diagonals taken by the pre-placed queens.
    up: u64,
}

impl Plan {
    /// The plan of the search that completes `constellation` on an `n` x `n` board.
    fn new(n: u32, constellation: &Constellation) -> Plan {
        let n1 = n - 1;
        let queens = constellation.queens(n1);
        let board = u32::MAX >> (MAX_N - n);
        let mut plan = Plan {
            n1,
            depth: 0,
            rows: [0; MAX_N as usize],
            cols: !board,
            down: 0,
            up: 0,
        };
        for &(r, c) in &queens {
            plan.cols |= 1 << c;
            plan.down |= 1 << (c + n1 - r);
            plan.up |= 1 << (c + r);
        }
        let mut empty: Vec<u32> = (0..n)
            .filter(|&row| queens.iter().all(|&(r, _)| r != row))
            .collect();
        // Bottom up: the canonical constellation has its first-row queen near a corner,
        // where it prunes least, so the search starts at the other end (measured: about
        // 40% fewer nodes than top down for N = 15).
        empty.reverse();
        for (k, &row) in empty.iter().enumerate() {
            plan.rows[k] = row as u8;
        }
        plan.depth = empty.len();
        plan
    }

    /// The free columns of row `row` given the diagonals and columns taken.
    #[inline(always)]
    fn free_in(&self, row: u32, down: u64, up: u64, cols: u32) -> u32 {
        !(cols | (down >> (self.n1 - row)) as u32 | (up >> row) as u32)
    }

    /// The free columns of the `k`-th empty row.
    #[inline(always)]
    fn free(&self, k: usize, down: u64, up: u64, cols: u32) -> u32 {
        self.free_in(u32::from(self.rows[k]), down, up, cols)
    }

    /// The masks after a queen `bit` is placed in the `k`-th empty row.
    #[inline(always)]
    fn place(&self, k: usize, bit: u32, down: u64, up: u64, cols: u32) -> (u64, u64, u32) {
        let row = u32::from(self.rows[k]);
        let bit64 = u64::from(bit);
        (
            down | bit64 << (self.n1 - row),
            up | bit64 << row,
            cols | bit,
        )
    }

    /// Searches the empty rows `k..` with the whole board kept in `board` (column of the
    /// queen of each row), calling `leaf` on every solution. For the rare constellations
    /// whose solutions may be symmetric. Polls `stop` every few thousand nodes (counted
    /// in `ticks`) and returns `None` if it was set.
    fn visit(
        &self,
        k: usize,
        (down, up, cols): (u64, u64, u32),
        board: &mut [u32; MAX_N as usize],
        leaf: &mut dyn FnMut(&[u32; MAX_N as usize]),
        stop: &AtomicBool,
        ticks: &mut u32,
    ) -> Option<()> {
        if k == self.depth {
            leaf(board);
            return Some(());
        }
        *ticks = ticks.wrapping_add(1);
        if ticks.is_multiple_of(4096) && stop.load(Ordering::Relaxed) {
            return None;
        }
        let mut free = self.free(k, down, up, cols);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            board[usize::from(self.rows[k])] = bit.trailing_zeros();
            let masks = self.place(k, bit, down, up, cols);
            self.visit(k + 1, masks, board, leaf, stop, ticks)?;
        }
        Some(())
    }

    /// Counts the completions that every symmetry in `turns` maps to itself (`turns`
    /// with the identity must be a group of rotations that fixes the pre-placed queens):
    /// each queen placed brings its images along, so only the completions with that
    /// symmetry are visited. Polls `stop` every few thousand nodes (counted in `ticks`).
    fn count_invariant(
        &self,
        turns: &[Symmetry],
        (down, up, cols): (u64, u64, u32),
        stop: &AtomicBool,
        ticks: &mut u32,
    ) -> Option<u64> {
        // The rows still empty, as a bit set.
        let mut empty = 0u32;
        for &row in &self.rows[..self.depth] {
            empty |= 1 << row;
        }
        self.invariant_from(turns, empty, (down, up, cols), stop, ticks)
    }

    /// [`Plan::count_invariant`] from a partial placement: `empty` holds the rows still
    /// to fill, as a bit set.
    fn invariant_from(
        &self,
        turns: &[Symmetry],
        empty: u32,
        (down, up, cols): (u64, u64, u32),
        stop: &AtomicBool,
        ticks: &mut u32,
    ) -> Option<u64> {
        if empty == 0 {
            return Some(1);
        }
        *ticks = ticks.wrapping_add(1);
        if ticks.is_multiple_of(4096) && stop.load(Ordering::Relaxed) {
            return None;
        }
        let row = empty.trailing_zeros();
        let mut free = self.free_in(row, down, up, cols);
        let mut count = 0;
        'columns: while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let col = bit.trailing_zeros();
            // Place the queen, then each of its images that is another square.
            let mut masks = (down, up, cols);
            let mut rows_left = empty;
            let mut placed = [(row, col); 4];
            let mut n_placed = 0;
            for square in std::iter::once((row, col))
                .chain(turns.iter().map(|&g| transform(g, self.n1, (row, col))))
            {
                if placed[..n_placed].contains(&square) {
                    continue;
                }
                let (r, c) = square;
                let open = rows_left & (1 << r) != 0
                    && self.free_in(r, masks.0, masks.1, masks.2) & (1 << c) != 0;
                if !open {
                    continue 'columns;
                }
                rows_left &= !(1 << r);
                let b = 1u64 << c;
                masks = (
                    masks.0 | b << (self.n1 - r),
                    masks.1 | b << r,
                    masks.2 | 1 << c,
                );
                placed[n_placed] = square;
                n_placed += 1;
            }
            count += self.invariant_from(turns, rows_left, masks, stop, ticks)?;
        }
        Some(count)
    }

    /// How many partial placements the first `rows` empty rows have: a cheap estimate of
    /// the size of the search.
    fn partial_count(&self, k: usize, rows: usize, down: u64, up: u64, cols: u32) -> u64 {
        if k == rows.min(self.depth) {
            return 1;
        }
        let mut free = self.free(k, down, up, cols);
        let mut count = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let (d, u, c) = self.place(k, bit, down, up, cols);
            count += self.partial_count(k + 1, rows, d, u, c);
        }
        count
    }
}

/// How many empty rows [`Plan::count_lockstep`] fills before it hands the rest to its
/// lanes: enough prefixes (hundreds for N = 16) that the lanes stay busy to the end.
const PREFIX_ROWS: usize = 3;

/// How many searches [`Plan::count_lockstep`] runs side by side: 4 to 6 measured alike
/// on x86-64 (N = 16), 2 and 8 slower.
const LANES: usize = 4;

/// How many lock steps [`Plan::count_lockstep`] takes between looks at `stop`.
const STEPS_PER_POLL: usize = 1024;

/// One search's stack in [`Plan::count_lockstep`]. Slot `i` holds a row (`level[i]`, an
/// index into the empty rows) with the columns still to try there (never none: a slot
/// whose last column is taken is replaced by its child or dropped) and the diagonals
/// and columns taken there. Slot 0 stays unused: a lane whose depth reaches 0 is done.
#[derive(Clone, Copy)]
struct Lane {
    free: [u32; MAX_N as usize],
    left: [u32; MAX_N as usize],
    right: [u32; MAX_N as usize],
    cols: [u32; MAX_N as usize],
    level: [u8; MAX_N as usize],
}

/// One step of a lane of [`Plan::count_lockstep`] whose top slot is `k`: places a queen
/// in the slot's next column, counts a solution or pushes the child row if it has room,
/// and returns the new top slot (0 when the lane is done).
#[inline(always)]
fn step(lane: &mut Lane, k: usize, count: &mut u64, rows: &[u64; 256]) -> usize {
    const SLOTS: usize = MAX_N as usize - 1;
    let k = k & SLOTS;
    let level = lane.level[k];
    let free = lane.free[k];
    let bit = free & free.wrapping_neg();
    let rest = free ^ bit;
    lane.free[k] = rest;
    let row = rows[usize::from(level)];
    // The shift is the low byte; `wrapping_sh*` use only its low 5 bits.
    let s = row as u32;
    let left = (lane.left[k] | bit).wrapping_shl(s);
    let right = (lane.right[k] | bit).wrapping_shr(s);
    let cols = lane.cols[k] | bit;
    let child_free = !(left | right | cols | (row >> 32) as u32);
    // A queen placed in the last row is a solution; its child row (one past the last,
    // fully blocked) never fits.
    *count += (row >> LAST_BIT) & 1;
    let child = child_free != 0;
    let more = rest != 0;
    // The child goes above this slot, or in its place if this row has no column left.
    // Written even when there is no child: the slot is then above the top or dropped.
    let slot = (k + usize::from(more)) & SLOTS;
    lane.free[slot] = child_free;
    lane.left[slot] = left;
    lane.right[slot] = right;
    lane.cols[slot] = cols;
    lane.level[slot] = level + 1;
    k + usize::from(more) - usize::from(!child)
}

/// In an entry of the row table of [`Plan::count_lockstep`], the bit that marks the last
/// empty row.
const LAST_BIT: u32 = 8;

impl Plan {
    /// The placements of the first `p` empty rows, as the masks they leave.
    fn prefixes(&self, p: usize) -> Vec<(u64, u64, u32)> {
        fn walk(
            plan: &Plan,
            k: usize,
            p: usize,
            masks: (u64, u64, u32),
            out: &mut Vec<(u64, u64, u32)>,
        ) {
            if k == p {
                out.push(masks);
                return;
            }
            let (down, up, cols) = masks;
            let mut free = plan.free(k, down, up, cols);
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                walk(plan, k + 1, p, plan.place(k, bit, down, up, cols), out);
            }
        }
        let mut out = Vec::new();
        walk(self, 0, p, (self.down, self.up, self.cols), &mut out);
        out
    }

    /// Counts the completions of the placements `prefixes` of the first `p` empty rows
    /// (`p >= 1`, at least two empty rows after them): by row batches
    /// ([`batches`](self::batches)) where the processor has AVX-512 or AVX2, three to four
    /// times faster, else by the lock step. `None` if `stop` was set before the end.
    fn count_completions(
        &self,
        prefixes: &[(u64, u64, u32)],
        p: usize,
        stop: &AtomicBool,
    ) -> Option<u64> {
        #[cfg(target_arch = "x86_64")]
        if let Some(search) = batches::BatchSearch::detect() {
            return self.count_batches(prefixes, p, stop, search);
        }
        self.count_lockstep(prefixes, p, stop)
    }

    /// Counts the completions of the placements `prefixes` of the first `p` empty rows
    /// (`p >= 1`, at least two empty rows after them), `LANES` searches at a time.
    ///
    /// A plain depth-first search spends most of its time on mispredicted branches (is
    /// there another column to try? does the next row have one?). Here every lane places
    /// one queen per round with the same straight-line code, the decisions made by
    /// arithmetic, and the lanes' independent chains of work overlap in the processor.
    /// A slot whose last column is taken is replaced by its child (or dropped), so that
    /// every step places a queen. A lane whose search is done takes the next prefix.
    /// Polls `stop` every [`STEPS_PER_POLL`] rounds and returns `None` if it was set.
    ///
    /// The rows are filled bottom up (see [`Plan::new`]), so the diagonals move by a
    /// shift from one empty row to the next; the pre-placed queens' squares come from a
    /// table.
    ///
    /// On x86-64 processors with BMI1 and BMI2 (detected at run time) the loop is
    /// compiled for them: one-instruction lowest-bit and variable shifts make it about
    /// 12% faster.
    fn count_lockstep(
        &self,
        prefixes: &[(u64, u64, u32)],
        p: usize,
        stop: &AtomicBool,
    ) -> Option<u64> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
        {
            // SAFETY: the processor has the features the function is compiled for.
            return unsafe { self.count_lockstep_bmi(prefixes, p, stop) };
        }
        self.count_lockstep_portable(prefixes, p, stop)
    }

    /// [`Plan::count_lockstep`] compiled for BMI1 and BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2")]
    #[inline(never)]
    fn count_lockstep_bmi(
        &self,
        prefixes: &[(u64, u64, u32)],
        p: usize,
        stop: &AtomicBool,
    ) -> Option<u64> {
        self.lockstep(prefixes, p, stop)
    }

    /// [`Plan::count_lockstep`] for any processor.
    #[inline(never)]
    fn count_lockstep_portable(
        &self,
        prefixes: &[(u64, u64, u32)],
        p: usize,
        stop: &AtomicBool,
    ) -> Option<u64> {
        self.lockstep(prefixes, p, stop)
    }

    /// The completion searches' row tables: `shift[k]`, the rows between empty rows `k`
    /// and `k + 1`, and `fixed[k]`, what the pre-placed queens (and the edge of the board)
    /// block in empty row `k` (0 past the last).
    fn row_tables(&self) -> ([u32; MAX_N as usize], [u32; MAX_N as usize]) {
        let mut shift = [0u32; MAX_N as usize];
        let mut fixed = [0u32; MAX_N as usize];
        for k in 0..self.depth {
            fixed[k] = !self.free(k, self.down, self.up, self.cols);
            if k + 1 < self.depth {
                shift[k] = u32::from(self.rows[k] - self.rows[k + 1]);
            }
        }
        (shift, fixed)
    }

    /// The node a completion search starts from after the prefix `masks` of the first `p`
    /// empty rows: the diagonals as they cross row `p` (down-left, down-right), the
    /// columns, and row `p`'s free columns; `None` if it has none.
    fn start_node(
        &self,
        p: usize,
        (down, up, cols): (u64, u64, u32),
    ) -> Option<(u32, u32, u32, u32)> {
        let row_p = u32::from(self.rows[p]);
        let free = self.free(p, down, up, cols);
        (free != 0).then(|| {
            let left = (up >> row_p) as u32;
            let right = (down >> (self.n1 - row_p)) as u32;
            (left, right, cols, free)
        })
    }

    /// The body of [`Plan::count_lockstep`], inlined into each variant.
    #[inline(always)]
    fn lockstep(&self, prefixes: &[(u64, u64, u32)], p: usize, stop: &AtomicBool) -> Option<u64> {
        const SLOTS: usize = MAX_N as usize - 1;
        debug_assert!(p >= 1 && p + 2 <= self.depth);
        let last = self.depth as u32 - 1;
        let (shift, mut fixed) = self.row_tables();
        // One past the last row: nothing fits, so a lane stops there.
        fixed[self.depth] = u32::MAX;
        let mut lanes = [Lane {
            free: [0; MAX_N as usize],
            left: [0; MAX_N as usize],
            right: [0; MAX_N as usize],
            cols: [0; MAX_N as usize],
            level: [0; MAX_N as usize],
        }; LANES];
        // Puts the next prefix that leaves a column free in row `p` in slot 1 of `lane`;
        // false when there is none left.
        let mut starts = prefixes
            .iter()
            .filter_map(|&masks| self.start_node(p, masks));
        let mut take = |lane: &mut Lane| match starts.next() {
            Some((left, right, cols, free)) => {
                lane.free[1] = free;
                lane.left[1] = left;
                lane.right[1] = right;
                lane.cols[1] = cols;
                lane.level[1] = p as u8;
                true
            }
            None => false,
        };
        // An idle lane works on a dummy row (level IDLE) whose children never fit: 32
        // steps, then it asks for work again. This keeps the round free of tests.
        const IDLE: usize = SLOTS - 1;
        fixed[IDLE + 1] = u32::MAX;
        // rows[k]: the shift to the next empty row (low byte), the last-row mark
        // (LAST_BIT) and what blocks the next empty row (high half).
        let mut rows = [0u64; 256];
        for (k, entry) in rows.iter_mut().enumerate().take(SLOTS) {
            *entry = u64::from(shift[k]) | u64::from(fixed[k + 1]) << 32;
        }
        rows[last as usize] |= 1 << LAST_BIT;
        let idle = |lane: &mut Lane| {
            lane.free[1] = u32::MAX;
            lane.level[1] = IDLE as u8;
        };
        // depth[l]: lane l's top slot.
        let mut depth = [1usize; LANES];
        let mut idling = [false; LANES];
        let mut count = 0u64;
        let mut active = 0;
        for (lane, idling) in lanes.iter_mut().zip(idling.iter_mut()) {
            if take(lane) {
                active += 1;
            } else {
                idle(lane);
                *idling = true;
            }
        }
        while active > 0 {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            'rounds: for _ in 0..STEPS_PER_POLL {
                // The lanes' steps are independent: the processor overlaps them.
                for l in 0..LANES {
                    depth[l] = step(&mut lanes[l], depth[l], &mut count, &rows);
                }
                for l in 0..LANES {
                    if depth[l] == 0 {
                        // The lane's search is done: take the next prefix.
                        depth[l] = 1;
                        if !take(&mut lanes[l]) {
                            idle(&mut lanes[l]);
                            if !idling[l] {
                                idling[l] = true;
                                active -= 1;
                                if active == 0 {
                                    break 'rounds;
                                }
                            }
                        }
                    }
                }
            }
        }
        Some(count)
    }
}

impl Start {
    /// Counts the completions of the constellation by class size; `None` if `stop` was
    /// set before it finished.
    fn solve(&self, stop: &AtomicBool) -> Option<ClassCounts> {
        let plan = &self.plan;
        if self.stabiliser == 1 {
            // Every completion is a class of 8 of its own (see the module documentation).
            let completions = if plan.depth >= 3 {
                let p = PREFIX_ROWS.min(plan.depth - 2);
                plan.count_completions(&plan.prefixes(p), p, stop)?
            } else {
                plan.partial_count(0, plan.depth, plan.down, plan.up, plan.cols)
            };
            return Some(ClassCounts {
                c8: completions,
                ..ClassCounts::default()
            });
        }
        let h = u64::from(self.stabiliser.count_ones());
        if self.stabiliser & !ROTATIONS == 0 && plan.depth >= 3 {
            // H holds the half turn, and maybe the quarter turns. Count all completions
            // (C), those the half turn fixes (S180) and those the quarter turn fixes (S90,
            // a part of S180): the weights of the module documentation sum to
            // (C - S180) x 1 for classes of 8, (S180 - S90) x 2 for classes of 4 and
            // S90 x 4 for classes of 2.
            let p = PREFIX_ROWS.min(plan.depth - 2);
            let all = plan.count_completions(&plan.prefixes(p), p, stop)?;
            let mut ticks = 0;
            let start = (plan.down, plan.up, plan.cols);
            let half = plan.count_invariant(&[HALF_TURN], start, stop, &mut ticks)?;
            let quarter = if self.stabiliser & (1 << QUARTER_TURN) != 0 {
                let turns = [QUARTER_TURN, HALF_TURN, THREE_QUARTER_TURN];
                plan.count_invariant(&turns, start, stop, &mut ticks)?
            } else {
                0
            };
            debug_assert!(self.stabiliser & (1 << HALF_TURN) != 0);
            return Some(ClassCounts {
                c8: (all - half) / h,
                c4: 2 * (half - quarter) / h,
                c2: 4 * quarter / h,
                ..ClassCounts::default()
            });
        }
        self.classes_by_leaves(stop)
    }

    /// Counts the completions of the constellation by class size the plain way: weighs
    /// every completion by the number of symmetries in H that fix it, then divides by
    /// |H| (see the module documentation). For tiny boards, where H may hold
    /// reflections (N = 1) or the lock-step search does not apply.
    fn classes_by_leaves(&self, stop: &AtomicBool) -> Option<ClassCounts> {
        let plan = &self.plan;
        let h = u64::from(self.stabiliser.count_ones());
        let n1 = plan.n1;
        let mut board = [0u32; MAX_N as usize];
        for (row, col) in self.constellation.queens(n1) {
            board[row as usize] = col;
        }
        let mut weighted = [0u64; 4];
        let stabiliser = self.stabiliser;
        let mut leaf = |board: &[u32; MAX_N as usize]| {
            let fixing = (0..8u8)
                .filter(|&g| stabiliser & (1 << g) != 0)
                .filter(|&g| {
                    (0..=n1).all(|row| {
                        let (r, c) = transform(g, n1, (row, board[row as usize]));
                        board[r as usize] == c
                    })
                })
                .count() as u64;
            // `fixing` is 1, 2, 4 or 8: the class has 8, 4, 2 or 1 members.
            weighted[3 - fixing.trailing_zeros() as usize] += fixing;
        };
        let mut ticks = 0;
        plan.visit(
            0,
            (plan.down, plan.up, plan.cols),
            &mut board,
            &mut leaf,
            stop,
            &mut ticks,
        )?;
        debug_assert!(weighted.iter().all(|w| w % h == 0));
        Some(ClassCounts {
            c1: weighted[0] / h,
            c2: weighted[1] / h,
            c4: weighted[2] / h,
            c8: weighted[3] / h,
        })
    }
}

/// How many empty rows the cost estimate looks ahead: enough to tell constellations apart,
/// few enough to cost little next to the search even for the largest boards.
const ESTIMATE_ROWS: usize = 3;

/// Every valid constellation of an `n` x `n` board that is the least of its orbit, in the
/// order of the loops (by `top`, then `bottom`, `left`, `right`), with its stabiliser
/// (one bit per [`Symmetry`]).
fn canonical_constellations(n: u32) -> Vec<(Constellation, u8)> {
    let n1 = n - 1;
    (0..n)
        .into_par_iter()
        .flat_map_iter(|top| {
            let mut found = Vec::new();
            for bottom in 0..n {
                for left in 0..n {
                    for right in 0..n {
                        let constellation = Constellation {
                            top,
                            bottom,
                            left,
                            right,
                        };
                        if !constellation.is_valid(n1) {
                            continue;
                        }
                        let mut stabiliser = 0u8;
                        let mut canonical = true;
                        for g in 0..8 {
                            let image = constellation.image(g, n1);
                            if image < constellation {
                                canonical = false;
                                break;
                            }
                            if image == constellation {
                                stabiliser |= 1 << g;
                            }
                        }
                        if canonical {
                            found.push((constellation, stabiliser));
                        }
                    }
                }
            }
            found
        })
        .collect()
}

/// Every canonical start constellation of an `n` x `n` board, ready to search, in the
/// deterministic order of the work: estimated cost, largest first, then by constellation.
fn start_constellations(n: u32) -> Vec<Start> {
    let mut starts: Vec<Start> = canonical_constellations(n)
        .into_par_iter()
        .map(|(constellation, stabiliser)| {
            let plan = Plan::new(n, &constellation);
            // A corner queen leaves one more empty row (N - 3 instead of N - 4), which
            // multiplies the work by a few.
            let corner = (plan.depth + 4).saturating_sub(n as usize);
            let cost =
                plan.partial_count(0, ESTIMATE_ROWS, plan.down, plan.up, plan.cols) << (2 * corner);
            Start {
                constellation,
                stabiliser,
                cost,
                plan,
            }
        })
        .collect();
    starts.sort_by(|a, b| {
        b.cost
            .cmp(&a.cost)
            .then(a.constellation.cmp(&b.constellation))
    });
    starts
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    const A000170: [u64; 15] = [
        1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184,
    ];
    const A002562: [u64; 15] = [
        1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053,
    ];

    fn count(n: u32, shard: Option<Shard>) -> NQueensCount {
        count_empty_board(n, shard, &|_, _| {}, &AtomicBool::new(false)).expect("not stopped")
    }

    #[test]
    fn totals_and_unique_counts_match_a000170_and_a002562_for_n_1_to_15() {
        for n in 1..=15u32 {
            let result = count(n, None);
            let i = n as usize - 1;
            assert_eq!(result.total, A000170[i], "total for N = {n}");
            assert_eq!(result.unique, A002562[i], "unique for N = {n}");
            let [c1, c2, c4, c8] = result.classes;
            assert_eq!(c1 + 2 * c2 + 4 * c4 + 8 * c8, result.total, "N = {n}");
            assert_eq!(c1 + c2 + c4 + c8, result.unique, "N = {n}");
        }
    }

    /// All solutions as column-per-row vectors, by plain backtracking.
    fn all_solutions(n: usize) -> Vec<Vec<usize>> {
        fn place(n: usize, rows: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            if rows.len() == n {
                out.push(rows.clone());
                return;
            }
            let y = rows.len();
            for x in 0..n {
                let safe = rows
                    .iter()
                    .enumerate()
                    .all(|(yy, &xx)| xx != x && xx.abs_diff(x) != y - yy);
                if safe {
                    rows.push(x);
                    place(n, rows, out);
                    rows.pop();
                }
            }
        }
        let mut out = Vec::new();
        place(n, &mut Vec::new(), &mut out);
        out
    }

    /// The 8 images of a solution under the board's symmetries, computed independently
    /// of [`transform`]: rotations by a quarter turn and the mirror.
    fn images(solution: &[usize]) -> Vec<Vec<usize>> {
        let n = solution.len();
        let rotate = |s: &[usize]| {
            // (row y, col x) -> (row x, col n-1-y).
            let mut r = vec![0; n];
            for (y, &x) in s.iter().enumerate() {
                r[x] = n - 1 - y;
            }
            r
        };
        let mirror = |s: &[usize]| s.iter().map(|&x| n - 1 - x).collect::<Vec<_>>();
        let mut out = Vec::new();
        let mut current = solution.to_vec();
        for _ in 0..4 {
            out.push(mirror(&current));
            current = rotate(&current);
            out.push(current.clone());
        }
        out
    }

    #[test]
    fn class_sizes_match_a_brute_force_orbit_count_for_n_1_to_12() {
        for n in 1..=12u32 {
            let mut expected = [0u64; 4];
            for solution in all_solutions(n as usize) {
                let mut orbit = images(&solution);
                if orbit.iter().min() != Some(&solution) {
                    continue;
                }
                orbit.sort();
                orbit.dedup();
                let slot = match orbit.len() {
                    1 => 0,
                    2 => 1,
                    4 => 2,
                    8 => 3,
                    size => panic!("orbit of size {size}"),
                };
                expected[slot] += 1;
            }
            assert_eq!(count(n, None).classes, expected, "N = {n}");
        }
    }

    #[test]
    fn shards_add_up_to_the_unsharded_count() {
        for n in [1, 4, 5, 8, 10, 11, 12] {
            let whole = count(n, None);
            for shards in [1, 2, 3, 7, 50] {
                let parts: Vec<NQueensCount> = (1..=shards)
                    .map(|index| {
                        count(
                            n,
                            Some(Shard {
                                index,
                                count: shards,
                            }),
                        )
                    })
                    .collect();
                let sum = |field: fn(&NQueensCount) -> u64| parts.iter().map(field).sum::<u64>();
                let context = format!("N = {n}, {shards} shards");
                assert_eq!(sum(|p| p.total), whole.total, "{context}");
                assert_eq!(sum(|p| p.unique), whole.unique, "{context}");
                assert_eq!(sum(|p| p.subproblems), whole.subproblems, "{context}");
                for class in 0..4 {
                    let part: u64 = parts.iter().map(|p| p.classes[class]).sum();
                    assert_eq!(part, whole.classes[class], "{context}");
                }
            }
        }
    }

    /// A placement of border queens as a sorted set of squares.
    type Squares = Vec<(u32, u32)>;

    /// The least image of a set of squares under the 8 symmetries, and the orbit size.
    fn canonical_squares(squares: &Squares, n1: u32) -> (Squares, usize) {
        let mut images: Vec<Squares> = (0..8)
            .map(|g| {
                let mut image: Squares = squares.iter().map(|&q| transform(g, n1, q)).collect();
                image.sort();
                image
            })
            .collect();
        images.sort();
        images.dedup();
        (images[0].clone(), images.len())
    }

    /// Every placement of queens on border squares with exactly one queen on each border
    /// line and no two attacking each other, canonicalised: orbit representative -> size.
    fn brute_force_border_placements(n: u32) -> BTreeMap<Squares, usize> {
        let n1 = n - 1;
        let border: Vec<(u32, u32)> = (0..n)
            .flat_map(|r| (0..n).map(move |c| (r, c)))
            .filter(|&(r, c)| r == 0 || r == n1 || c == 0 || c == n1)
            .collect();
        let attack = |(r1, c1): (u32, u32), (r2, c2): (u32, u32)| {
            r1 == r2 || c1 == c2 || r1.abs_diff(r2) == c1.abs_diff(c2)
        };
        let mut found = BTreeMap::new();
        // Subsets of up to 4 squares, as increasing index lists.
        let mut stack: Vec<(Vec<usize>, usize)> = vec![(Vec::new(), 0)];
        while let Some((chosen, from)) = stack.pop() {
            let squares: Squares = chosen.iter().map(|&i| border[i]).collect();
            let lines = [
                squares.iter().filter(|q| q.0 == 0).count(),
                squares.iter().filter(|q| q.0 == n1).count(),
                squares.iter().filter(|q| q.1 == 0).count(),
                squares.iter().filter(|q| q.1 == n1).count(),
            ];
            if lines == [1, 1, 1, 1] {
                let (canonical, size) = canonical_squares(&squares, n1);
                found.insert(canonical, size);
            }
            if chosen.len() == 4 {
                continue;
            }
            for (next, &square) in border.iter().enumerate().skip(from) {
                if squares.iter().all(|&q| !attack(q, square)) {
                    let mut more = chosen.clone();
                    more.push(next);
                    stack.push((more, next + 1));
                }
            }
        }
        found
    }

    #[test]
    fn constellations_match_a_brute_force_enumeration_of_border_placements() {
        for n in 1..=10u32 {
            let n1 = n - 1;
            let expected = brute_force_border_placements(n);
            let mut found = BTreeMap::new();
            for (constellation, stabiliser) in canonical_constellations(n) {
                let mut squares: Squares = constellation.queens(n1).to_vec();
                squares.sort();
                squares.dedup();
                let (canonical, size) = canonical_squares(&squares, n1);
                assert_eq!(size, 8 / stabiliser.count_ones() as usize, "N = {n}");
                assert!(
                    found.insert(canonical, size).is_none(),
                    "two constellations of one orbit for N = {n}: {constellation:?}"
                );
            }
            assert_eq!(found, expected, "N = {n}");
        }
    }

    #[test]
    fn the_lockstep_search_agrees_with_a_plain_one_for_every_prefix_length() {
        for n in [9, 11] {
            for start in start_constellations(n) {
                let plan = &start.plan;
                let plain = plan.partial_count(0, plan.depth, plan.down, plan.up, plan.cols);
                for p in 1..=plan.depth.saturating_sub(2) {
                    let stop = AtomicBool::new(false);
                    let prefixes = plan.prefixes(p);
                    let lockstep = plan.count_lockstep(&prefixes, p, &stop);
                    assert_eq!(lockstep, Some(plain), "N = {n}, {start:?}, p = {p}");
                    // Both variants, whichever the dispatch picks on this machine.
                    let portable = plan.count_lockstep_portable(&prefixes, p, &stop);
                    assert_eq!(portable, Some(plain), "N = {n}, {start:?}, p = {p}");
                    #[cfg(target_arch = "x86_64")]
                    if std::arch::is_x86_feature_detected!("bmi1")
                        && std::arch::is_x86_feature_detected!("bmi2")
                    {
                        // SAFETY: the processor has the features.
                        let bmi = unsafe { plan.count_lockstep_bmi(&prefixes, p, &stop) };
                        assert_eq!(bmi, Some(plain), "N = {n}, {start:?}, p = {p}");
                    }
                    let batches = by_batches(plan, &prefixes, p, &stop);
                    assert!(batches.is_none_or(|b| b == Some(plain)), "N = {n}, p = {p}");
                }
            }
        }
    }

    /// [`Plan::count_batches`] by every instruction set this processor runs, all equal
    /// (else `None`, said once).
    fn by_batches(
        plan: &Plan,
        prefixes: &[(u64, u64, u32)],
        p: usize,
        stop: &AtomicBool,
    ) -> Option<Option<u64>> {
        #[cfg(target_arch = "x86_64")]
        {
            let counts: Vec<_> = batches::BatchSearch::all_here()
                .into_iter()
                .map(|(name, search)| (name, plan.count_batches(prefixes, p, stop, search)))
                .collect();
            if let Some(&(_, first)) = counts.first() {
                assert!(counts.iter().all(|&(_, c)| c == first), "{counts:?}");
                return Some(first);
            }
        }
        static SAID: std::sync::Once = std::sync::Once::new();
        SAID.call_once(|| eprintln!("no AVX2 here: the row-batch search is not tested"));
        None
    }

    #[test]
    fn the_batch_search_counts_n_13_by_every_constellation() {
        // Every canonical constellation of N = 13 (1,105), by batches against the plain
        // search, with prefixes of one to three rows.
        let stop = AtomicBool::new(false);
        let (mut total, mut plain_total) = (0, 0);
        let starts = start_constellations(13);
        assert_eq!(starts.len(), 1105);
        for start in starts {
            let plan = &start.plan;
            let plain = plan.partial_count(0, plan.depth, plan.down, plan.up, plan.cols);
            let p = 1 + (start.cost % 3) as usize;
            let Some(batches) = by_batches(plan, &plan.prefixes(p), p, &stop) else {
                return;
            };
            assert_eq!(batches, Some(plain), "{start:?}, p = {p}");
            total += batches.unwrap();
            plain_total += plain;
        }
        assert!(total > 0 && total == plain_total);
    }

    #[test]
    fn symmetric_constellations_agree_with_a_check_of_every_leaf() {
        let stop = AtomicBool::new(false);
        let (mut checked, mut quarter) = (0, 0);
        for n in 6..=14 {
            for start in start_constellations(n) {
                if start.stabiliser != 1 {
                    let fast = start.solve(&stop);
                    assert_eq!(fast, start.classes_by_leaves(&stop), "N = {n}, {start:?}");
                    checked += 1;
                    if start.stabiliser & (1 << QUARTER_TURN) != 0 && fast.unwrap().c2 > 0 {
                        quarter += 1;
                    }
                }
            }
        }
        assert!(checked > 50, "only {checked} symmetric constellations");
        assert!(
            quarter > 0,
            "no constellation with a quarter-turn symmetric solution"
        );
    }

    /// The first placement (lowest columns first) of the empty rows `k..p` that has at
    /// least one completion, as the masks it leaves.
    fn first_fruitful_prefix(
        plan: &Plan,
        k: usize,
        p: usize,
        masks: (u64, u64, u32),
    ) -> Option<(u64, u64, u32)> {
        let (down, up, cols) = masks;
        if k == p {
            let completions = plan.partial_count(p, plan.depth, down, up, cols);
            return (completions > 0).then_some(masks);
        }
        let mut free = plan.free(k, down, up, cols);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let next = plan.place(k, bit, down, up, cols);
            if let Some(found) = first_fruitful_prefix(plan, k + 1, p, next) {
                return Some(found);
            }
        }
        None
    }

    #[test]
    fn the_lockstep_search_is_right_on_the_largest_boards() {
        // Deep prefixes of big boards (all 32 bits in use for N = 32), completed by the
        // lock-step search and by the plain one.
        for n in [27, 31, 32] {
            let all = canonical_constellations(n);
            for (constellation, _) in [all[0], all[all.len() / 2], all[all.len() - 1]] {
                let plan = &Plan::new(n, &constellation);
                let p = plan.depth - 10;
                let masks = (plan.down, plan.up, plan.cols);
                let prefix = first_fruitful_prefix(plan, 0, p, masks).expect("a prefix");
                let (down, up, cols) = prefix;
                let plain = plan.partial_count(p, plan.depth, down, up, cols);
                let stop = AtomicBool::new(false);
                let lockstep = plan.count_lockstep(&[prefix, prefix], p, &stop);
                assert_eq!(lockstep, Some(2 * plain), "N = {n}, {constellation:?}");
                let batches = by_batches(plan, &[prefix, prefix], p, &stop);
                assert!(batches.is_none_or(|b| b == Some(2 * plain)), "N = {n}");
            }
        }
    }

    #[test]
    fn the_order_is_deterministic_and_largest_first() {
        let first = start_constellations(14);
        let second = start_constellations(14);
        let key = |s: &Start| (s.cost, s.constellation);
        assert!(first.iter().map(key).eq(second.iter().map(key)));
        assert!(first.windows(2).all(|w| w[0].cost >= w[1].cost));
    }

    #[test]
    fn progress_reaches_the_number_of_subproblems() {
        let calls = AtomicU64::new(0);
        let highest = AtomicU64::new(0);
        let result = count_empty_board(
            10,
            Some(Shard { index: 2, count: 3 }),
            &|done, total| {
                assert!(done <= total);
                calls.fetch_add(1, Ordering::Relaxed);
                highest.fetch_max(done, Ordering::Relaxed);
            },
            &AtomicBool::new(false),
        )
        .unwrap();
        assert_eq!(calls.load(Ordering::Relaxed), result.subproblems);
        assert_eq!(highest.load(Ordering::Relaxed), result.subproblems);
    }

    #[test]
    fn stop_set_in_advance_returns_none() {
        let stop = AtomicBool::new(true);
        assert_eq!(count_empty_board(12, None, &|_, _| {}, &stop), None);
        assert_eq!(count_empty_board(1, None, &|_, _| {}, &stop), None);
        assert_eq!(count_empty_board(MAX_N, None, &|_, _| {}, &stop), None);
    }

    #[test]
    fn stop_set_during_the_run_returns_none() {
        let stop = AtomicBool::new(false);
        let result =
            count_empty_board(14, None, &|_, _| stop.store(true, Ordering::Relaxed), &stop);
        assert_eq!(result, None);
    }

    #[test]
    fn a_stopped_count_keeps_whole_classes_as_a_lower_bound() {
        let stop = AtomicBool::new(false);
        let (partial, complete) =
            count_empty_board_so_far(14, None, &|_, _| stop.store(true, Ordering::Relaxed), &stop);
        let full = count(14, None);
        assert!(!complete);
        assert!(partial.subproblems >= 1 && partial.subproblems < full.subproblems);
        assert!(partial.total > 0 && partial.total < full.total);
        let [c1, c2, c4, c8] = partial.classes;
        assert_eq!(partial.total, c1 + 2 * c2 + 4 * c4 + 8 * c8);
        assert_eq!(partial.unique, c1 + c2 + c4 + c8);
    }

    #[test]
    fn the_largest_board_builds_its_work_list() {
        // N = 32 uses every bit of the masks: the constellations and their plans build
        // without overflow, and a search polls `stop` inside a constellation.
        let n1 = MAX_N - 1;
        let all = canonical_constellations(MAX_N);
        assert!(!all.is_empty());
        let (constellation, _) = all[all.len() / 2];
        assert!(constellation.is_valid(n1));
        let plan = Plan::new(MAX_N, &constellation);
        assert!(plan.depth >= MAX_N as usize - 4);
        let stop = AtomicBool::new(true);
        assert_eq!(plan.count_lockstep(&plan.prefixes(3), 3, &stop), None);
        let batches = by_batches(&plan, &plan.prefixes(3), 3, &stop);
        assert!(batches.is_none_or(|b| b.is_none()));
    }

    #[test]
    #[should_panic(expected = "N = 1..=32")]
    fn n_zero_panics() {
        count(0, None);
    }

    #[test]
    #[should_panic(expected = "N = 1..=32")]
    fn n_33_panics() {
        count(33, None);
    }

    /// Slow in a debug build: run with `cargo test --release -- --ignored`.
    #[test]
    #[ignore]
    fn totals_for_n_16_to_18() {
        for (n, total, unique) in [
            (16, 14_772_512, 1_846_955),
            (17, 95_815_104, 11_977_939),
            (18, 666_090_624, 83_263_591),
        ] {
            let result = count(n, None);
            assert_eq!((result.total, result.unique), (total, unique), "N = {n}");
        }
    }
}
