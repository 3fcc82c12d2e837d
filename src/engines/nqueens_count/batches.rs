//! The completion search of [`Plan`] by row batches, sixteen nodes per instruction with
//! AVX-512, for processors that have it.
//!
//! The lock-step search (`Plan::count_lockstep`) keeps each of its searches on a stack of
//! its own, so each step reads its row's shift and blocked squares from a table and
//! writes one slot: about fifty instructions per queen placed. Here the open nodes are
//! kept by empty row instead: row `k`'s batch holds every node waiting there (the
//! diagonals and columns taken, relative to row `k`, and the columns still to try). All
//! the nodes of one row move by the same shift and meet the same pre-placed queens, so a
//! round takes up to [`BATCH`] nodes of one row and, sixteen to a vector, places each
//! one's lowest free column: the node goes back to its row if it has columns left, and
//! the child goes to the next row if that row has a free square and so does the row after
//! it (a look two rows ahead, which NQueensFAF's solver makes too: 18% fewer placements
//! for N = 16), each set packed by `vpcompressd`. A queen placed in the row before the
//! last is a solution when the last row has its one remaining column free; nothing is
//! ever put in the last row's batch.
//!
//! The next round works on the deepest row holding a full batch, so that rows deeper than
//! the one worked on hold fewer than [`BATCH`] nodes, a row receives at most [`BATCH`]
//! children at a time, and no batch ever holds `2 BATCH` nodes: 2.3 kB a row, the whole
//! frontier in the first-level cache or near it. When no row holds a full batch, the first row takes more
//! prefixes, and once they are all taken, the deepest non-empty row goes, however few it
//! holds. Measured on an AMD EPYC with two threads, same run: N = 17 in 0.625 s against
//! the lock step's 2.35 s, N = 18 in 3.99 s against 17.1 s.

use super::{Plan, MAX_N};
use std::arch::x86_64::{
    __m512i, __mmask16, _mm512_and_si512, _mm512_mask_test_epi32_mask, _mm512_maskz_compress_epi32,
    _mm512_maskz_loadu_epi32, _mm512_or_si512, _mm512_set1_epi32, _mm512_setzero_si512,
    _mm512_sllv_epi32, _mm512_srlv_epi32, _mm512_storeu_epi32, _mm512_sub_epi32,
    _mm512_ternarylogic_epi32, _mm512_xor_si512,
};
use std::sync::atomic::{AtomicBool, Ordering};

/// How many nodes a round takes from one row: 64 measured best (N = 17, two threads:
/// 32 0.68 s, 64 0.64 s, 128 0.71 s, 256 0.90 s, as the batches leave the first-level
/// cache).
const BATCH: usize = 64;

/// Room in a row's batch: fewer than `2 BATCH` nodes, and the sixteen lanes a vector
/// store writes past the last one.
const ROOM: usize = 2 * BATCH + 16;

/// How many rounds go between looks at `stop`.
const ROUNDS_PER_POLL: usize = 1024;

/// The open nodes of one empty row, a column of each field (`len` of them).
struct RowBatch {
    /// Down-left diagonals taken, as they cross this row.
    left: [u32; ROOM],
    /// Down-right diagonals taken, as they cross this row.
    right: [u32; ROOM],
    /// Columns taken (with the bits off the board).
    cols: [u32; ROOM],
    /// The columns still to try in this row (never none).
    free: [u32; ROOM],
    len: usize,
}

impl RowBatch {
    fn empty() -> Box<RowBatch> {
        Box::new(RowBatch {
            left: [0; ROOM],
            right: [0; ROOM],
            cols: [0; ROOM],
            free: [0; ROOM],
            len: 0,
        })
    }

    /// Appends a node.
    fn push(&mut self, (left, right, cols, free): (u32, u32, u32, u32)) {
        let at = self.len;
        self.left[at] = left;
        self.right[at] = right;
        self.cols[at] = cols;
        self.free[at] = free;
        self.len += 1;
    }
}

/// Whether this processor runs [`Plan::count_batches`].
pub(super) fn available() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
}

/// `!(a | b | c)`, lane by lane.
#[inline]
#[target_feature(enable = "avx512f")]
fn nor3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<0x01>(a, b, c)
}

impl Plan {
    /// Counts the completions of the placements `prefixes` of the first `p` empty rows
    /// (`p >= 1`, at least two empty rows after them), as [`Plan::count_lockstep`] does,
    /// by row batches (see the module doc). Polls `stop` every [`ROUNDS_PER_POLL`]
    /// rounds and returns `None` if it was set.
    ///
    /// # Safety
    /// The processor must have AVX-512F ([`available`]).
    #[target_feature(enable = "avx512f,popcnt")]
    pub(super) unsafe fn count_batches(
        &self,
        prefixes: &[(u64, u64, u32)],
        p: usize,
        stop: &AtomicBool,
    ) -> Option<u64> {
        debug_assert!(p >= 1 && p + 2 <= self.depth);
        let depth = self.depth;
        // shift[k]: rows between empty rows k and k + 1; fixed[k]: what the pre-placed
        // queens (and the edge of the board) block in empty row k.
        let mut shift = [0u32; MAX_N as usize];
        let mut fixed = [0u32; MAX_N as usize];
        for k in 0..depth {
            fixed[k] = !self.free(k, self.down, self.up, self.cols);
            if k + 1 < depth {
                shift[k] = u32::from(self.rows[k] - self.rows[k + 1]);
            }
        }
        let mut rows: Vec<Box<RowBatch>> = (0..depth).map(|_| RowBatch::empty()).collect();
        let row_p = u32::from(self.rows[p]);
        let mut prefixes = prefixes.iter().filter_map(|&(down, up, cols)| {
            let free = self.free(p, down, up, cols);
            (free != 0).then(|| {
                let left = (up >> row_p) as u32;
                let right = (down >> (self.n1 - row_p)) as u32;
                (left, right, cols, free)
            })
        });
        let mut count = 0;
        let mut rounds = 0;
        loop {
            if rounds % ROUNDS_PER_POLL == 0 && stop.load(Ordering::Relaxed) {
                return None;
            }
            rounds += 1;
            let k = match (p..depth).rev().find(|&k| rows[k].len >= BATCH) {
                Some(k) => k,
                None => {
                    let first = &mut rows[p];
                    let before = first.len;
                    while first.len < BATCH {
                        match prefixes.next() {
                            Some(node) => first.push(node),
                            None => break,
                        }
                    }
                    if first.len > before {
                        continue;
                    }
                    match (p..depth).rev().find(|&k| rows[k].len > 0) {
                        Some(k) => k,
                        None => return Some(count),
                    }
                }
            };
            debug_assert!(k + 1 < depth, "the last row's batch stays empty");
            let (here, deeper) = rows.split_at_mut(k + 1);
            // SAFETY: the caller vouches for AVX-512F.
            count += unsafe { round(&mut here[k], &mut deeper[0], k, depth, &shift, &fixed) };
        }
    }
}

/// One round on empty row `k`'s batch `row` (`next` is row `k + 1`'s): places the lowest
/// free column of each of its last (up to) [`BATCH`] nodes; returns the solutions found
/// (when `k + 1` is the last row).
///
/// # Safety
/// The processor must have AVX-512F.
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn round(
    row: &mut RowBatch,
    next: &mut RowBatch,
    k: usize,
    depth: usize,
    shift: &[u32; MAX_N as usize],
    fixed: &[u32; MAX_N as usize],
) -> u64 {
    let zero = _mm512_setzero_si512();
    let s = _mm512_set1_epi32(shift[k] as i32);
    let fixed_next = _mm512_set1_epi32(fixed[k + 1] as i32);
    // Into the last row, a child is a solution: the queens placed take every column but
    // one, so its row has at most one free square, and it is counted, not kept.
    let into_last = k + 2 == depth;
    let (s_after, fixed_after) = if into_last {
        (zero, zero)
    } else {
        (
            _mm512_set1_epi32(shift[k + 1] as i32),
            _mm512_set1_epi32(fixed[k + 2] as i32),
        )
    };
    let n = row.len;
    let start = n.saturating_sub(BATCH);
    // Nodes with columns left are written back from `start` on, never past the vector
    // being read; children go after the next row's.
    let (mut kept, mut children) = (start, next.len);
    let mut solutions = 0u64;
    let mut i = start;
    while i < n {
        let lanes: __mmask16 = if n - i >= 16 {
            u16::MAX
        } else {
            (1 << (n - i)) - 1
        };
        // SAFETY: `i < n <= 2 BATCH` and `kept <= i`, `children < 2 BATCH`: every access
        // of sixteen lanes from there stays within ROOM; the loads mask the lanes past `n`.
        unsafe {
            let free = _mm512_maskz_loadu_epi32(lanes, row.free.as_ptr().add(i).cast());
            let left = _mm512_maskz_loadu_epi32(lanes, row.left.as_ptr().add(i).cast());
            let right = _mm512_maskz_loadu_epi32(lanes, row.right.as_ptr().add(i).cast());
            let cols = _mm512_maskz_loadu_epi32(lanes, row.cols.as_ptr().add(i).cast());
            let bit = _mm512_and_si512(free, _mm512_sub_epi32(zero, free));
            let rest = _mm512_xor_si512(free, bit);
            let child_left = _mm512_sllv_epi32(_mm512_or_si512(left, bit), s);
            let child_right = _mm512_srlv_epi32(_mm512_or_si512(right, bit), s);
            let child_cols = _mm512_or_si512(cols, bit);
            let child_free = nor3(
                _mm512_or_si512(child_left, child_right),
                child_cols,
                fixed_next,
            );
            let fits = _mm512_mask_test_epi32_mask(lanes, child_free, child_free);
            if into_last {
                solutions += u64::from(fits.count_ones());
            } else {
                let after_free = nor3(
                    _mm512_or_si512(
                        _mm512_sllv_epi32(child_left, s_after),
                        _mm512_srlv_epi32(child_right, s_after),
                    ),
                    child_cols,
                    fixed_after,
                );
                let pushed = _mm512_mask_test_epi32_mask(fits, after_free, after_free);
                let at = children;
                store(next.free.as_mut_ptr().add(at), pushed, child_free);
                store(next.left.as_mut_ptr().add(at), pushed, child_left);
                store(next.right.as_mut_ptr().add(at), pushed, child_right);
                store(next.cols.as_mut_ptr().add(at), pushed, child_cols);
                children += pushed.count_ones() as usize;
            }
            let more = _mm512_mask_test_epi32_mask(lanes, rest, rest);
            store(row.free.as_mut_ptr().add(kept), more, rest);
            store(row.left.as_mut_ptr().add(kept), more, left);
            store(row.right.as_mut_ptr().add(kept), more, right);
            store(row.cols.as_mut_ptr().add(kept), more, cols);
            kept += more.count_ones() as usize;
        }
        i += 16;
    }
    row.len = kept;
    next.len = children;
    solutions
}

/// Writes the lanes of `values` that `lanes` selects, packed, at `to` (all sixteen
/// lanes are written: those past the packed ones are left over).
///
/// # Safety
/// `to` must have room for sixteen `u32`s; the processor must have AVX-512F.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn store(to: *mut u32, lanes: __mmask16, values: __m512i) {
    // SAFETY: as the caller vouches.
    unsafe { _mm512_storeu_epi32(to.cast(), _mm512_maskz_compress_epi32(lanes, values)) }
}
