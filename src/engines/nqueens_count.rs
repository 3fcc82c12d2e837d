//! Counting every N-queens solution on an empty board, by symmetry class, in parallel.
//!
//! The search is the bitboard backtracking of the record-holding counters (Takaken's
//! refinement of Jeff Somers' program): each solution is counted once per symmetry class,
//! in its canonical orientation, and weighted by the size of that class.
//!
//! * **Corner family**: a queen in the corner of the first row. Its class has 8 members
//!   (the other diagonal stays empty), and fixing the queen of the second row below the
//!   anti-diagonal's mirror (`bound1`) picks one orientation per class.
//! * **Inner family**: no queen in any corner. The first-row queen is at column `bound1`
//!   in the left half and is the outermost queen on all four edges (rows `< bound1` keep off
//!   the side columns, row `bound2 = n-1-bound1` must finish the side columns, the last row
//!   keeps off the `bound1` outermost columns). The few ties left are settled by comparing
//!   the finished board with its 90, 180 and 270 degree rotations, which also tells the
//!   class size: 2 (invariant under 90), 4 (invariant under 180) or 8.
//!
//! total = 2·c2 + 4·c4 + 8·c8 and unique = c2 + c4 + c8 (plus the lone class of size 1 for
//! N = 1).
//!
//! For parallelism and sharding the search tree is cut into a deterministic list of
//! subproblems (prefixes of the first rows) that depends only on N, so shards of one N run
//! on different machines add up to the unsharded answer.
//!
//! # References
//! * OEIS A000170 (all solutions) and A002562 (solutions up to symmetry).
//! * Jeff Somers, "The N Queens Problem", 2002 (bitboard search with the mirror).
//! * Takaken, "N-Queens" (symmetry-class counting with BOUND1/BOUND2/SIDEMASK/LASTMASK).

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
    /// How many subproblems this run did (all of them, or this shard's share).
    pub subproblems: u64,
    /// Symmetry classes by size: how many have 1, 2, 4 and 8 members.
    pub classes: [u64; 4],
}

/// Counts the solutions of N-queens on an empty `n` x `n` board, `n` in `1..=32`.
///
/// The work is cut into a list of subproblems that depends only on `n`; with `shard`, only
/// that shard's subproblems are done. `progress(done, total)` is called from the worker
/// threads each time a subproblem finishes, where `total` is the number of subproblems
/// this run does. Returns `None` when `stop` was set before every subproblem finished
/// (including when it was set before the call).
///
/// # Panics
/// If `n` is 0 or larger than [`MAX_N`].
pub fn count_empty_board(
    n: u32,
    shard: Option<Shard>,
    progress: &(dyn Fn(u64, u64) + Sync),
    stop: &AtomicBool,
) -> Option<NQueensCount> {
    assert!(
        (1..=MAX_N).contains(&n),
        "N-queens counting supports N = 1..={MAX_N}, got {n}"
    );
    let all = subproblems(n);
    let mine: Vec<&Subproblem> = all
        .iter()
        .enumerate()
        .filter(|(i, _)| shard.is_none_or(|s| s.owns(*i)))
        .map(|(_, subproblem)| subproblem)
        .collect();
    let planned = mine.len() as u64;
    let done = AtomicU64::new(0);

    let counts = mine
        .par_iter()
        .with_max_len(1)
        .map(|subproblem| {
            if stop.load(Ordering::Relaxed) {
                return ClassCounts::default();
            }
            match subproblem.solve(stop) {
                Some(counts) => {
                    let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                    progress(finished, planned);
                    counts
                }
                None => ClassCounts::default(),
            }
        })
        .reduce(ClassCounts::default, ClassCounts::add);

    if done.load(Ordering::Relaxed) != planned {
        return None;
    }
    Some(NQueensCount {
        n,
        total: counts.total(),
        unique: counts.unique(),
        subproblems: planned,
        classes: [counts.c1, counts.c2, counts.c4, counts.c8],
    })
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

/// Which part of the canonical search a subproblem belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// N = 1: one queen, one class of size 1.
    Single,
    /// First-row queen in the corner: every class counted has 8 members.
    Corner,
    /// No corner queen: classes of 2, 4 or 8, told apart at the leaves.
    Inner,
}

/// The constants of one branch of the canonical search (Takaken's globals for one `bound1`).
#[derive(Debug, Clone, Copy)]
struct Family {
    kind: Kind,
    /// `n - 1`, the row where a solution is completed.
    last_row: u32,
    /// The `n` board columns.
    mask: u32,
    /// The leftmost column's bit, `1 << (n - 1)`.
    top_bit: u32,
    /// Corner: column of the second-row queen. Inner: column of the first-row queen.
    bound1: u32,
    /// Inner: the row `n - 1 - bound1` by which both side columns must hold a queen.
    /// Corner: unused (`u32::MAX`).
    bound2: u32,
    /// Columns forbidden in the rows above `bound1` (keeps the canonical orientation).
    early_mask: u32,
    /// Inner: the two side columns.
    side_mask: u32,
    /// Inner: the columns forbidden in the last row (the `bound1` outermost on each side).
    last_mask: u32,
    /// Inner: the last-row column that makes the 180 degree comparison necessary.
    end_bit: u32,
}

impl Family {
    /// The columns where row `row` (not the last) may take a queen, given the columns and
    /// diagonals attacked by the rows above. Zero prunes the branch.
    #[inline(always)]
    fn candidates(&self, row: u32, left: u32, down: u32, right: u32) -> u32 {
        let free = self.mask & !(left | down | right);
        if row < self.bound1 {
            free & !self.early_mask
        } else if row == self.bound2 {
            let sides = down & self.side_mask;
            if sides == 0 {
                0
            } else if sides != self.side_mask {
                free & self.side_mask
            } else {
                free
            }
        } else {
            free
        }
    }

    /// Completes the board from `row` on (rows above it placed), adding what it finds to
    /// `counts`: corner solutions as classes of 8 (`INNER == false`), inner ones classified
    /// by [`Family::classify`] (`INNER == true`, which also keeps `board` up to date).
    ///
    /// An iterative depth-first search over explicit per-row stacks: no allocation, no
    /// recursion, and the last row is settled while looping over the row before it.
    #[inline(always)]
    fn complete<const INNER: bool>(
        &self,
        board: &mut [u32; MAX_N as usize],
        counts: &mut ClassCounts,
        row: u32,
        left: u32,
        down: u32,
        right: u32,
    ) {
        let last = self.last_row as usize;
        let first = row as usize;
        if first == last {
            self.finish::<INNER>(board, counts, self.mask & !(left | down | right));
            return;
        }
        const ROWS: usize = MAX_N as usize;
        let mut open = [0u32; ROWS];
        let mut lefts = [0u32; ROWS];
        let mut downs = [0u32; ROWS];
        let mut rights = [0u32; ROWS];
        let mut y = first;
        lefts[y] = left;
        downs[y] = down;
        rights[y] = right;
        open[y] = self.candidates(row, left, down, right);
        loop {
            let bits = open[y];
            if bits == 0 {
                if y == first {
                    return;
                }
                y -= 1;
                continue;
            }
            let bit = bits & bits.wrapping_neg();
            open[y] = bits ^ bit;
            if INNER {
                board[y] = bit;
            }
            let (l, d, r) = (
                (lefts[y] | bit) << 1,
                downs[y] | bit,
                (rights[y] | bit) >> 1,
            );
            if y + 1 == last {
                self.finish::<INNER>(board, counts, self.mask & !(l | d | r));
                continue;
            }
            y += 1;
            lefts[y] = l;
            downs[y] = d;
            rights[y] = r;
            open[y] = self.candidates(y as u32, l, d, r);
        }
    }

    /// Settles the last row, whose free columns are `free`.
    #[inline(always)]
    fn finish<const INNER: bool>(
        &self,
        board: &mut [u32; MAX_N as usize],
        counts: &mut ClassCounts,
        free: u32,
    ) {
        if INNER {
            if free != 0 && free & self.last_mask == 0 {
                board[self.last_row as usize] = free;
                self.classify(board, counts);
            }
        } else {
            counts.c8 += u64::from(free != 0);
        }
    }

    /// Compares a finished inner-family board with its rotations (Takaken's `Check`): counts
    /// it under its class size if it is the canonical member, otherwise drops it.
    fn classify(&self, board: &[u32; MAX_N as usize], counts: &mut ClassCounts) {
        let last = self.last_row as usize;
        let bound1 = self.bound1 as usize;
        let bound2 = self.bound2 as usize;

        // 90 degrees: only possible when the rotated first row lands on column 0 at bound2.
        if board[bound2] == 1 {
            let mut own = 1;
            let mut ptn: u32 = 2;
            while own <= last {
                let mut bit: u32 = 1;
                let mut you = last;
                while board[you] != ptn && board[own] >= bit {
                    bit <<= 1;
                    you -= 1;
                }
                if board[own] > bit {
                    return;
                }
                if board[own] < bit {
                    break;
                }
                own += 1;
                ptn <<= 1;
            }
            if own > last {
                counts.c2 += 1;
                return;
            }
        }

        // 180 degrees.
        if board[last] == self.end_bit {
            let mut own = 1;
            while own <= last {
                let you = last - own;
                let mut bit: u32 = 1;
                let mut ptn = self.top_bit;
                while ptn != board[you] && board[own] >= bit {
                    bit <<= 1;
                    ptn >>= 1;
                }
                if board[own] > bit {
                    return;
                }
                if board[own] < bit {
                    break;
                }
                own += 1;
            }
            if own > last {
                counts.c4 += 1;
                return;
            }
        }

        // 270 degrees.
        if board[bound1] == self.top_bit {
            let mut own = 1;
            let mut ptn = self.top_bit >> 1;
            while own <= last {
                let mut bit: u32 = 1;
                let mut you = 0;
                while board[you] != ptn && board[own] >= bit {
                    bit <<= 1;
                    you += 1;
                }
                if board[own] > bit {
                    return;
                }
                if board[own] < bit {
                    break;
                }
                own += 1;
                ptn >>= 1;
            }
        }
        counts.c8 += 1;
    }
}

/// A prefix of the canonical search: rows `0..row` are placed, the rest is to be searched.
#[derive(Debug, Clone)]
struct Subproblem {
    family: Family,
    /// The next row to fill.
    row: u32,
    /// Diagonals attacked from the upper left, as seen from `row`.
    left: u32,
    /// Columns taken.
    down: u32,
    /// Diagonals attacked from the upper right, as seen from `row`.
    right: u32,
    /// Queens of rows `0..row` (one bit each); the inner family's leaves read all rows.
    board: [u32; MAX_N as usize],
}

impl Subproblem {
    /// Whether the prefix can be cut one row further and still leave a row before the last.
    fn can_split(&self) -> bool {
        self.family.kind != Kind::Single && self.row + 1 < self.family.last_row
    }

    /// The subproblems one row further down, in column order (low bit first).
    fn split(&self, into: &mut Vec<Subproblem>) {
        let mut bits = self
            .family
            .candidates(self.row, self.left, self.down, self.right);
        while bits != 0 {
            let bit = bits & bits.wrapping_neg();
            bits ^= bit;
            let mut child = self.clone();
            child.board[self.row as usize] = bit;
            child.row += 1;
            child.left = (self.left | bit) << 1;
            child.down = self.down | bit;
            child.right = (self.right | bit) >> 1;
            into.push(child);
        }
    }

    /// Searches the subproblem to the end. Checks `stop` between the branches of its first
    /// row, and returns `None` if it was set.
    fn solve(&self, stop: &AtomicBool) -> Option<ClassCounts> {
        let family = &self.family;
        let mut counts = ClassCounts::default();
        if family.kind == Kind::Single {
            counts.c1 = 1;
            return Some(counts);
        }
        // Every subproblem stops short of the last row (see `subproblems`), so its first
        // row is an ordinary one.
        debug_assert!(self.row < family.last_row);
        let mut board = self.board;
        let mut bits = family.candidates(self.row, self.left, self.down, self.right);
        while bits != 0 {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let bit = bits & bits.wrapping_neg();
            bits ^= bit;
            let (row, left, down, right) = (
                self.row + 1,
                (self.left | bit) << 1,
                self.down | bit,
                (self.right | bit) >> 1,
            );
            match family.kind {
                Kind::Corner => {
                    family.complete::<false>(&mut board, &mut counts, row, left, down, right)
                }
                Kind::Inner => {
                    board[self.row as usize] = bit;
                    family.complete::<true>(&mut board, &mut counts, row, left, down, right);
                }
                Kind::Single => unreachable!("handled above"),
            }
        }
        Some(counts)
    }
}

/// How many subproblems to cut the search into: enough for load balance on many cores and
/// for stopping promptly, few enough to cost nothing. Depends only on `n`, so the list, and
/// with it every shard, is the same on every machine.
fn target_subproblems(n: u32) -> usize {
    2048 << n.saturating_sub(18).min(5)
}

/// The deterministic list of subproblems for an `n` x `n` board.
fn subproblems(n: u32) -> Vec<Subproblem> {
    let last_row = n - 1;
    let mask = u32::MAX >> (MAX_N - n);
    let top_bit = 1u32 << last_row;
    let empty = Subproblem {
        family: Family {
            kind: Kind::Single,
            last_row,
            mask,
            top_bit,
            bound1: 0,
            bound2: u32::MAX,
            early_mask: 0,
            side_mask: 0,
            last_mask: 0,
            end_bit: 0,
        },
        row: 0,
        left: 0,
        down: 0,
        right: 0,
        board: [0; MAX_N as usize],
    };
    if n == 1 {
        return vec![empty];
    }

    let mut list = Vec::new();
    // Corner family: row 0 in column 0, row 1 in column bound1.
    for bound1 in 2..last_row {
        let bit = 1u32 << bound1;
        let mut root = empty.clone();
        root.family.kind = Kind::Corner;
        root.family.bound1 = bound1;
        root.family.early_mask = 2;
        root.board[0] = 1;
        root.board[1] = bit;
        root.row = 2;
        root.left = (2 | bit) << 1;
        root.down = 1 | bit;
        root.right = bit >> 1;
        list.push(root);
    }
    // Inner family: row 0 in column bound1 of the left half (low bits).
    let side_mask = top_bit | 1;
    let mut last_mask = side_mask;
    let mut end_bit = top_bit >> 1;
    let (mut bound1, mut bound2) = (1, n.saturating_sub(2));
    while bound1 < bound2 {
        let bit = 1u32 << bound1;
        let mut root = empty.clone();
        root.family = Family {
            kind: Kind::Inner,
            bound1,
            bound2,
            early_mask: side_mask,
            side_mask,
            last_mask,
            end_bit,
            ..empty.family
        };
        root.board[0] = bit;
        root.row = 1;
        root.left = bit << 1;
        root.down = bit;
        root.right = bit >> 1;
        list.push(root);
        last_mask |= (last_mask >> 1) | (last_mask << 1);
        end_bit >>= 1;
        bound1 += 1;
        bound2 -= 1;
    }

    // Cut one row deeper at a time, whole levels, until the list is long enough.
    let target = target_subproblems(n);
    while list.len() < target && list.iter().any(Subproblem::can_split) {
        let mut deeper = Vec::with_capacity(list.len() * n as usize);
        for subproblem in &list {
            if subproblem.can_split() {
                subproblem.split(&mut deeper);
            } else {
                deeper.push(subproblem.clone());
            }
        }
        list = deeper;
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    const A000170: [u64; 13] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712];
    const A002562: [u64; 12] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787];

    fn count(n: u32, shard: Option<Shard>) -> NQueensCount {
        count_empty_board(n, shard, &|_, _| {}, &AtomicBool::new(false)).expect("not stopped")
    }

    #[test]
    fn totals_match_a000170_for_n_1_to_13() {
        for (n, &expected) in (1..).zip(A000170.iter()) {
            assert_eq!(count(n, None).total, expected, "N = {n}");
        }
    }

    #[test]
    fn unique_counts_match_a002562_for_n_1_to_12() {
        for (n, &expected) in (1..).zip(A002562.iter()) {
            assert_eq!(count(n, None).unique, expected, "N = {n}");
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

    /// The 8 images of a solution under the board's symmetries.
    fn images(solution: &[usize]) -> Vec<Vec<usize>> {
        let n = solution.len();
        let rotate = |s: &[usize]| {
            // (x, y) -> (n-1-y, x): the queen of row y moves to row x, column n-1-y.
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
    fn class_sizes_match_a_brute_force_orbit_count_for_n_1_to_9() {
        for n in 1..=9u32 {
            let mut expected = ClassCounts::default();
            for solution in all_solutions(n as usize) {
                let mut orbit = images(&solution);
                if orbit.iter().min() != Some(&solution) {
                    continue;
                }
                orbit.sort();
                orbit.dedup();
                match orbit.len() {
                    1 => expected.c1 += 1,
                    2 => expected.c2 += 1,
                    4 => expected.c4 += 1,
                    8 => expected.c8 += 1,
                    size => panic!("orbit of size {size}"),
                }
            }
            let stop = AtomicBool::new(false);
            let found = subproblems(n)
                .iter()
                .map(|s| s.solve(&stop).unwrap())
                .fold(ClassCounts::default(), ClassCounts::add);
            assert_eq!(found, expected, "N = {n}");
        }
    }

    #[test]
    fn shards_add_up_to_the_unsharded_count() {
        for n in 4..=11 {
            let whole = count(n, None);
            for shards in [1, 2, 3, 7] {
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
                let total: u64 = parts.iter().map(|p| p.total).sum();
                let unique: u64 = parts.iter().map(|p| p.unique).sum();
                let done: u64 = parts.iter().map(|p| p.subproblems).sum();
                assert_eq!(total, whole.total, "N = {n}, {shards} shards");
                assert_eq!(unique, whole.unique, "N = {n}, {shards} shards");
                assert_eq!(done, whole.subproblems, "N = {n}, {shards} shards");
            }
        }
    }

    #[test]
    fn subproblem_list_is_deterministic_and_long_enough_to_balance() {
        let first: Vec<_> = subproblems(16).iter().map(|s| s.board).collect();
        let second: Vec<_> = subproblems(16).iter().map(|s| s.board).collect();
        assert_eq!(first, second);
        assert!(first.len() >= target_subproblems(16));
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
        // The largest board: builds its subproblem list (no overflow) and stops at once.
        assert_eq!(count_empty_board(MAX_N, None, &|_, _| {}, &stop), None);
    }

    /// Slow in a debug build: run with `cargo test --release -- --ignored`.
    #[test]
    #[ignore]
    fn totals_for_n_17_and_18() {
        for (n, expected) in [(17, 95_815_104), (18, 666_090_624)] {
            let start = std::time::Instant::now();
            let result = count(n, None);
            eprintln!(
                "N = {n}: total {} unique {} in {:.2?} ({} subproblems)",
                result.total,
                result.unique,
                start.elapsed(),
                result.subproblems
            );
            assert_eq!(result.total, expected, "N = {n}");
        }
    }
}
