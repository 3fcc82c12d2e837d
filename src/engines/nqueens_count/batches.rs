//! The completion search of [`Plan`] by row batches, sixteen nodes per instruction with
//! AVX-512 or eight with AVX2, for processors that have either.
//!
//! The lock-step search (`Plan::count_lockstep`) keeps each of its searches on a stack of
//! its own, so each step reads its row's shift and blocked squares from a table and
//! writes one slot: about fifty instructions per queen placed. Here the open nodes are
//! kept by empty row instead: row `k`'s batch holds every node waiting there (the
//! diagonals and columns taken, relative to row `k`, and the columns still to try). All
//! the nodes of one row move by the same shift and meet the same pre-placed queens, so a
//! round takes up to [`BATCH`] nodes of one row and, a vector at a time, places each
//! one's lowest free column: the node goes back to its row if it has columns left, and
//! the child goes to the next row if that row has a free square and so does the row after
//! it (a look two rows ahead, which NQueensFAF's solver makes too: 18% fewer placements
//! for N = 16), each set packed to the front (`vpcompressd`, or with AVX2 a permutation
//! looked up by the lanes' mask). A queen placed in the row before the last is a solution
//! when the last row has its one remaining column free; nothing is ever put in the last
//! row's batch.
//!
//! The next round works on the deepest row holding a full batch, so that rows deeper than
//! the one worked on hold fewer than [`BATCH`] nodes, a row receives at most [`BATCH`]
//! children at a time, and no batch ever holds `2 BATCH` nodes: 2.3 kB a row, the whole
//! frontier in the first-level cache or near it. When no row holds a full batch, the first
//! row takes more prefixes, and once they are all taken, the deepest non-empty row goes,
//! however few it holds. Measured on an AMD EPYC with two threads, same run: N = 17 in
//! 0.616 s with AVX-512 and 0.663 s with AVX2, against the lock step's 2.32 s.
//!
//! Each instruction set has its own round and its own copy of the driving loop
//! ([`batch_search`]), so that the round is inlined into the loop: a generic loop taking
//! the round as a closure, tried first, made the AVX-512 search 6 - 8% slower.

use super::{Plan, MAX_N};
use std::arch::x86_64::{
    __m256i, __m512i, __mmask16, _mm256_and_si256, _mm256_castsi256_ps, _mm256_cmpeq_epi32,
    _mm256_cmpgt_epi32, _mm256_loadu_si256, _mm256_maskload_epi32, _mm256_movemask_ps,
    _mm256_or_si256, _mm256_permutevar8x32_epi32, _mm256_set1_epi32, _mm256_setr_epi32,
    _mm256_setzero_si256, _mm256_sllv_epi32, _mm256_srlv_epi32, _mm256_storeu_si256,
    _mm256_sub_epi32, _mm256_xor_si256, _mm512_and_si512, _mm512_mask_test_epi32_mask,
    _mm512_maskz_compress_epi32, _mm512_maskz_loadu_epi32, _mm512_or_si512, _mm512_set1_epi32,
    _mm512_setzero_si512, _mm512_sllv_epi32, _mm512_srlv_epi32, _mm512_storeu_epi32,
    _mm512_sub_epi32, _mm512_ternarylogic_epi32, _mm512_xor_si512,
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

/// The batch search compiled for an instruction set this processor has: only
/// [`BatchSearch::detect`] and [`BatchSearch::all_here`] make one, so whoever holds one
/// may run it.
#[derive(Clone, Copy)]
pub(super) struct BatchSearch {
    count: CountFn,
}

/// [`Plan::count_batches`] compiled for one instruction set, its rounds inlined.
type CountFn = unsafe fn(&Plan, &[(u64, u64, u32)], usize, &AtomicBool) -> Option<u64>;

impl BatchSearch {
    /// The fastest batch search this processor runs: sixteen lanes with AVX-512, eight
    /// with AVX2; `None` without either (the lock step then counts).
    pub(super) fn detect() -> Option<BatchSearch> {
        BatchSearch::all_here()
            .into_iter()
            .next()
            .map(|(_, search)| search)
    }

    /// Every batch search this processor runs, fastest first, with the instruction set
    /// each is compiled for.
    pub(super) fn all_here() -> Vec<(&'static str, BatchSearch)> {
        let mut searches = Vec::new();
        if std::arch::is_x86_feature_detected!("avx512f") {
            searches.push((
                "AVX-512",
                BatchSearch {
                    count: count_avx512,
                },
            ));
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            searches.push(("AVX2", BatchSearch { count: count_avx2 }));
        }
        searches
    }
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
    /// by row batches (see the module doc) with `search`'s instruction set. Polls `stop`
    /// every [`ROUNDS_PER_POLL`] rounds and returns `None` if it was set.
    pub(super) fn count_batches(
        &self,
        prefixes: &[(u64, u64, u32)],
        p: usize,
        stop: &AtomicBool,
        search: BatchSearch,
    ) -> Option<u64> {
        // SAFETY: `search` comes from `BatchSearch::detect` or `all_here`: this processor
        // runs it.
        unsafe { (search.count)(self, prefixes, p, stop) }
    }
}

/// Defines `$name`, [`Plan::count_batches`] compiled for `$features` with `$round` making
/// each round (called directly, so that it is inlined into the loop), unsafe: the
/// processor must have the features.
macro_rules! batch_search {
    ($name:ident, $features:literal, $round:ident) => {
        #[target_feature(enable = $features)]
        unsafe fn $name(
            plan: &Plan,
            prefixes: &[(u64, u64, u32)],
            p: usize,
            stop: &AtomicBool,
        ) -> Option<u64> {
            debug_assert!(p >= 1 && p + 2 <= plan.depth);
            let depth = plan.depth;
            let (shift, fixed) = plan.row_tables();
            let mut rows: Vec<Box<RowBatch>> = (0..depth).map(|_| RowBatch::empty()).collect();
            let mut prefixes = prefixes
                .iter()
                .filter_map(|&masks| plan.start_node(p, masks));
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
                // SAFETY: the function has the round's features.
                count += unsafe { $round(&mut here[k], &mut deeper[0], k, depth, &shift, &fixed) };
            }
        }
    };
}

batch_search!(count_avx512, "avx512f,popcnt", round_avx512);
batch_search!(count_avx2, "avx2,popcnt", round_avx2);

/// One round on empty row `k`'s batch `row` (`next` is row `k + 1`'s): places the lowest
/// free column of each of its last (up to) [`BATCH`] nodes; returns the solutions found
/// (when `k + 1` is the last row).
///
/// # Safety
/// The processor must have AVX-512F.
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn round_avx512(
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

/// [`round_avx512`] eight lanes at a time with AVX2, which has no compress: the lanes
/// are packed by a permutation looked up by their mask ([`PACK`]).
///
/// # Safety
/// The processor must have AVX2.
#[target_feature(enable = "avx2,popcnt")]
unsafe fn round_avx2(
    row: &mut RowBatch,
    next: &mut RowBatch,
    k: usize,
    depth: usize,
    shift: &[u32; MAX_N as usize],
    fixed: &[u32; MAX_N as usize],
) -> u64 {
    let into_last = k + 2 == depth;
    let (shift_after, blocked_after) = match into_last {
        true => (0, 0),
        false => (shift[k + 1], fixed[k + 2]),
    };
    let zero = _mm256_setzero_si256();
    let ones = _mm256_cmpeq_epi32(zero, zero);
    let lane_index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    let [s, fixed_next, s_after, fixed_after] =
        [shift[k], fixed[k + 1], shift_after, blocked_after].map(|v| _mm256_set1_epi32(v as i32));
    // The lanes (a bit each) of `v` that are not zero, among `lanes`.
    let nonzero = |v: __m256i, lanes: u32| -> u32 {
        let zeros = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, zero)));
        !(zeros as u32) & lanes
    };
    let n = row.len;
    let start = n.saturating_sub(BATCH);
    let (mut kept, mut children) = (start, next.len);
    let mut solutions = 0u64;
    let mut i = start;
    while i < n {
        let count = (n - i).min(8);
        let lanes = (1u32 << count) - 1;
        let load_mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(count as i32), lane_index);
        // SAFETY: as in `round_avx512`, with eight lanes; the loads mask the lanes past n.
        unsafe {
            let free = _mm256_maskload_epi32(row.free.as_ptr().add(i).cast(), load_mask);
            let left = _mm256_maskload_epi32(row.left.as_ptr().add(i).cast(), load_mask);
            let right = _mm256_maskload_epi32(row.right.as_ptr().add(i).cast(), load_mask);
            let cols = _mm256_maskload_epi32(row.cols.as_ptr().add(i).cast(), load_mask);
            let bit = _mm256_and_si256(free, _mm256_sub_epi32(zero, free));
            let rest = _mm256_xor_si256(free, bit);
            let child_left = _mm256_sllv_epi32(_mm256_or_si256(left, bit), s);
            let child_right = _mm256_srlv_epi32(_mm256_or_si256(right, bit), s);
            let child_cols = _mm256_or_si256(cols, bit);
            let taken = _mm256_or_si256(_mm256_or_si256(child_left, child_right), child_cols);
            let child_free = _mm256_xor_si256(_mm256_or_si256(taken, fixed_next), ones);
            let fits = nonzero(child_free, lanes);
            if into_last {
                solutions += u64::from(fits.count_ones());
            } else {
                let after_taken = _mm256_or_si256(
                    _mm256_or_si256(
                        _mm256_sllv_epi32(child_left, s_after),
                        _mm256_srlv_epi32(child_right, s_after),
                    ),
                    _mm256_or_si256(child_cols, fixed_after),
                );
                let after_free = _mm256_xor_si256(after_taken, ones);
                let pushed = nonzero(after_free, fits);
                let child = [child_free, child_left, child_right, child_cols];
                children += next.put_avx2(children, pushed, child);
            }
            let more = nonzero(rest, lanes);
            kept += row.put_avx2(kept, more, [rest, left, right, cols]);
        }
        i += 8;
    }
    row.len = kept;
    next.len = children;
    solutions
}

/// For each mask of eight lanes, the lanes it selects, in order, at the front (lane 0
/// after them: what lands there is left over): the permutation that packs them.
static PACK: [[u32; 8]; 256] = {
    let mut table = [[0u32; 8]; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut at = 0;
        let mut lane = 0;
        while lane < 8 {
            if mask >> lane & 1 == 1 {
                table[mask][at] = lane as u32;
                at += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    table
};

impl RowBatch {
    /// The four fields, in the order the rounds hold them: free, left, right, cols.
    #[inline]
    fn fields_mut(&mut self) -> [&mut [u32; ROOM]; 4] {
        [
            &mut self.free,
            &mut self.left,
            &mut self.right,
            &mut self.cols,
        ]
    }

    /// Writes the nodes in the lanes `lanes` selects (the low eight bits) of `fields`
    /// (free, left, right, cols), packed by the permutation of [`PACK`], from `at` on; how
    /// many. All eight lanes are written: those past the packed ones are left over.
    ///
    /// # Safety
    /// `at + 8 <= ROOM`; the processor must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2,popcnt")]
    unsafe fn put_avx2(&mut self, at: usize, lanes: u32, fields: [__m256i; 4]) -> usize {
        // SAFETY: PACK's rows are 32 bytes, and `lanes < 256`.
        let order = unsafe { _mm256_loadu_si256(PACK[lanes as usize & 0xff].as_ptr().cast()) };
        for (field, v) in self.fields_mut().into_iter().zip(fields) {
            let packed = _mm256_permutevar8x32_epi32(v, order);
            // SAFETY: as the caller vouches.
            unsafe { _mm256_storeu_si256(field.as_mut_ptr().add(at).cast(), packed) }
        }
        lanes.count_ones() as usize
    }
}
