//! The memo of exhausted search states: a lossy table shared by the threads without locks.

use std::sync::atomic::{fence, AtomicU64, Ordering};

use super::pages::{Zeroable, ZeroedTable};
use super::window::Window;

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
pub(super) struct Memo {
    /// Zeroed words (mapped lazily, so a table larger than a small search needs costs
    /// little, on huge pages where the system allows), of which buckets start at `offset`,
    /// 64-byte aligned.
    words: ZeroedTable<AtomicU64>,
    offset: usize,
    mask: usize,
}

/// A memo key: the window's 128 bits and a 46-bit tag (scan cell, mode, balances).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Key {
    lo: u64,
    hi: u64,
    tag: u64,
}

impl Key {
    /// The key of the same state with only the window cells in `(lo, hi)` kept.
    #[inline(always)]
    pub(super) fn keeping(&self, (lo, hi): (u64, u64)) -> Key {
        Key {
            lo: self.lo & lo,
            hi: self.hi & hi,
            tag: self.tag,
        }
    }

    #[inline(always)]
    fn hash(&self) -> u64 {
        (self.lo ^ self.hi.rotate_left(29) ^ self.tag.wrapping_mul(0xff51_afd7_ed55_8ccd))
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    #[inline(always)]
    fn bucket(&self, mask: usize) -> usize {
        (self.hash() >> 24) as usize & mask
    }

    #[inline(always)]
    fn matches(&self, (lo, hi, meta): (u64, u64, u64)) -> bool {
        // Tag 0 never occurs (it holds the scan cell + 1), so an empty slot never matches.
        lo == self.lo && hi == self.hi && meta >> 18 == self.tag
    }
}

const BOUND_BITS: u64 = 0xfff;

/// The bytes of one entry: a slot of four words.
const ENTRY_BYTES: u64 = 32;

impl Memo {
    /// A table of `2^log2` entries (two per 64-byte bucket).
    pub(super) fn new(log2: u32) -> Self {
        let buckets = 1usize << log2.saturating_sub(1);
        let words = ZeroedTable::<AtomicU64>::new(8 * buckets + 7);
        let offset = words.as_ptr().align_offset(64);
        Memo {
            words,
            offset,
            mask: buckets - 1,
        }
    }

    #[inline(always)]
    fn bucket(&self, key: &Key) -> [Slot<'_>; 2] {
        self.bucket_at(key.bucket(self.mask))
    }

    /// The two slots of bucket `b`.
    #[inline(always)]
    fn bucket_at(&self, b: usize) -> [Slot<'_>; 2] {
        let at = self.offset + 8 * b;
        let slot = |k: usize| Slot(self.words[at + k..at + k + 4].try_into().expect("4 words"));
        [slot(0), slot(4)]
    }

    /// The bound stored for `key`, if any.
    #[inline(always)]
    pub(super) fn get(&self, key: &Key) -> Option<u32> {
        self.bucket(key).into_iter().find_map(|slot| {
            slot.read()
                .filter(|&e| key.matches(e))
                .map(|(_, _, meta)| (meta & BOUND_BITS) as u32)
        })
    }

    /// Records that at most `bound` more pieces fit from `key`'s state, found by a search of
    /// `nodes` nodes.
    #[inline]
    pub(super) fn put(&self, key: &Key, bound: u32, nodes: u64) {
        if u64::from(bound) > BOUND_BITS {
            return;
        }
        let class = u64::from(63 - nodes.max(1).leading_zeros());
        self.place(key, key.tag << 18 | class << 12 | u64::from(bound));
    }

    /// Stores `key` with `meta` (tag, subtree class, bound): merged into the key's entry if
    /// the bucket holds it, else into the first slot if its subtree is at least as large as
    /// the one there, else into the second.
    #[inline(always)]
    fn place(&self, key: &Key, meta: u64) {
        let (bound, class) = (meta & BOUND_BITS, meta >> 12 & 63);
        let bucket = self.bucket(key);
        let mut deep_class = 0;
        for (k, slot) in bucket.into_iter().enumerate() {
            if let Some(entry) = slot.read() {
                let (old_bound, old_class) = (entry.2 & BOUND_BITS, entry.2 >> 12 & 63);
                if key.matches(entry) {
                    let merged = key.tag << 18 | old_class.max(class) << 12 | old_bound.min(bound);
                    slot.write((key.lo, key.hi, merged));
                    return;
                }
                if k == 0 {
                    deep_class = old_class;
                }
            }
        }
        let k = usize::from(class < deep_class);
        bucket[k].write((key.lo, key.hi, meta));
    }

    /// The largest table (log2 of its entries) whose doubling, the old table beside the
    /// new, takes at most `bytes` (at least 2^16 entries).
    pub(super) fn most_log2(bytes: u64) -> u32 {
        let entries = (bytes / 3 * 2 / ENTRY_BYTES).max(1 << 16);
        63 - entries.leading_zeros()
    }

    /// The entries it can hold.
    pub(super) fn capacity(&self) -> u64 {
        2 * (self.mask as u64 + 1)
    }

    /// A table twice as large holding the same entries. A key's bucket there is its bucket
    /// here or that plus the old count (one more bit of the same hash), so the two entries
    /// of a bucket never meet those of another: each goes to the first free slot of its new
    /// bucket, the first slot's entry first, and none is lost.
    pub(super) fn doubled(&self) -> Memo {
        let bigger = Memo::new(self.capacity().trailing_zeros() + 1);
        for b in 0..=self.mask {
            for slot in self.bucket_at(b) {
                if let Some((lo, hi, meta)) = slot.read().filter(|&(_, _, meta)| meta != 0) {
                    let key = Key {
                        lo,
                        hi,
                        tag: meta >> 18,
                    };
                    let free = bigger
                        .bucket(&key)
                        .into_iter()
                        .find(|slot| slot.read().is_some_and(|(_, _, meta)| meta == 0));
                    free.expect("a new bucket takes what one old bucket held")
                        .write((lo, hi, meta));
                }
            }
        }
        bigger
    }
}

/// The memo of the proof-writing search: per state key, the fewest more pieces known not
/// to fit there and the ID of the proof's clause that says so. Nothing is forgotten (a
/// clause once written can always be cited) and one thread owns it. Open addressing over
/// cache-line buckets of two slots, probed bucket after bucket: a lookup that misses the
/// caches costs one line where a general hash map cost two (its tags, then its entry), and
/// the search looks up up to three keys per node.
///
/// Most lookups miss (a relaxed key is rarely there), and a miss in a table of hundreds of
/// megabytes waits on memory: a filter of one bit per hash value stored (8 bits per slot
/// up to 512 KiB, which a core's cache keeps) answers most misses first.
///
/// A bounded memo ([`ClauseMemo::bounded`]) never grows: a key is looked for within
/// [`BOUNDED_PROBE`] buckets of its own, and a store into a full run of them takes the
/// slot of the oldest clause (the least ID), which the prover then deletes from the proof,
/// so that a checker holds at most the memo's clauses however long the proof runs.
pub(super) struct ClauseMemo {
    buckets: ZeroedTable<Bucket>,
    len: usize,
    /// Bit `f` set if a key whose [`ClauseMemo::filter_bit`] is `f` is stored.
    filter: Vec<u64>,
    /// Whether the memo is bounded (see above).
    bounded: bool,
}

/// Buckets a bounded [`ClauseMemo`] probes for a key (eight slots, four cache lines).
const BOUNDED_PROBE: usize = 4;

/// Two slots `[lo, hi, tag, ID << 12 | more]`; a tag of 0 marks a free slot (a key's tag
/// holds its scan cell + 1).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Bucket([[u64; 4]; 2]);

// SAFETY: a bucket is words only; all zero, it is an empty bucket.
unsafe impl Zeroable for Bucket {}

/// Words a [`ClauseMemo`]'s filter has at most (512 KiB: a core's second-level cache holds
/// it; larger, its own misses cost what it saves).
const FILTER_WORDS_MOST: usize = 1 << 16;

/// The bits of a [`ClauseMemo`] slot's last word that hold `more`.
const MORE_BITS: u64 = 0xfff;

impl ClauseMemo {
    /// An empty memo of `2^log2` slots to start with (at least 4; it doubles when three
    /// in four are in use).
    pub(super) fn new(log2: u32) -> Self {
        let buckets = 1 << (log2.max(2) - 1);
        ClauseMemo {
            buckets: ZeroedTable::new(buckets),
            len: 0,
            filter: vec![0; (buckets / 4).clamp(1, FILTER_WORDS_MOST)],
            bounded: false,
        }
    }

    /// An empty memo that keeps at most `slots` clauses (rounded down to a power of two, at
    /// least [`BOUNDED_PROBE`] buckets' worth), giving up its oldest ones as it fills.
    pub(super) fn bounded(slots: usize) -> Self {
        let log2 = usize::BITS - 1 - slots.max(2 * BOUNDED_PROBE).leading_zeros();
        ClauseMemo {
            bounded: true,
            ..ClauseMemo::new(log2)
        }
    }

    /// Whether the memo is bounded (its stores may give up clauses).
    pub(super) fn is_bounded(&self) -> bool {
        self.bounded
    }

    /// `key`'s bit in the filter (16 per bucket while the filter has a word per 4 buckets,
    /// fewer once it stops growing).
    #[inline(always)]
    fn filter_bit(&self, key: &Key) -> usize {
        (key.hash() >> 20) as usize & (64 * self.filter.len() - 1)
    }

    /// Sets `key`'s bit in the filter (the key is being stored).
    #[inline(always)]
    fn mark_in_filter(&mut self, key: &Key) {
        let f = self.filter_bit(key);
        self.filter[f / 64] |= 1 << (f % 64);
    }

    /// `(more, id)` stored for `key`.
    #[inline]
    pub(super) fn get(&self, key: &Key) -> Option<(u32, u64)> {
        let f = self.filter_bit(key);
        if self.filter[f / 64] >> (f % 64) & 1 == 0 {
            return None;
        }
        let mask = self.buckets.len() - 1;
        let mut b = key.bucket(mask);
        let mut probes = 0;
        loop {
            for slot in &self.buckets[b].0 {
                if slot[2] == 0 {
                    return None;
                }
                if slot[0] == key.lo && slot[1] == key.hi && slot[2] == key.tag {
                    return Some(((slot[3] & MORE_BITS) as u32, slot[3] >> 12));
                }
            }
            probes += 1;
            if self.bounded && probes == BOUNDED_PROBE {
                return None;
            }
            b = (b + 1) & mask;
        }
    }

    /// Stores `(more, id)` for `key` unless it holds a `more` no greater. A `more` or an
    /// ID too large for a slot is not stored (a memo miss costs a search, never soundness).
    /// A bounded memo returns the ID of the clause it no longer keeps, if any: the one the
    /// key held, or the oldest of a full run of buckets.
    pub(super) fn keep_least(&mut self, key: &Key, more: u32, id: u64) -> Option<u64> {
        if u64::from(more) > MORE_BITS || id >= 1 << 52 {
            return None;
        }
        if self.bounded {
            return self.keep_least_bounded(key, more, id);
        }
        // At most three slots in four in use, so that probes stay short.
        if 4 * (self.len + 1) > 3 * 2 * self.buckets.len() {
            self.grow();
        }
        let word = id << 12 | u64::from(more);
        let mask = self.buckets.len() - 1;
        let mut b = key.bucket(mask);
        loop {
            for slot in &mut self.buckets[b].0 {
                if slot[2] == 0 {
                    *slot = [key.lo, key.hi, key.tag, word];
                    self.len += 1;
                    self.mark_in_filter(key);
                    return None;
                }
                if slot[0] == key.lo && slot[1] == key.hi && slot[2] == key.tag {
                    if slot[3] & MORE_BITS > u64::from(more) {
                        slot[3] = word;
                    }
                    return None;
                }
            }
            b = (b + 1) & mask;
        }
    }

    /// [`ClauseMemo::keep_least`] of a bounded memo.
    fn keep_least_bounded(&mut self, key: &Key, more: u32, id: u64) -> Option<u64> {
        let word = id << 12 | u64::from(more);
        let mask = self.buckets.len() - 1;
        let first = key.bucket(mask);
        // The slot of the oldest clause seen: (bucket, slot).
        let mut oldest = (first, 0);
        let mut oldest_id = u64::MAX;
        for p in 0..BOUNDED_PROBE {
            let b = (first + p) & mask;
            for (s, slot) in self.buckets[b].0.iter_mut().enumerate() {
                if slot[2] == 0 {
                    *slot = [key.lo, key.hi, key.tag, word];
                    self.len += 1;
                    self.mark_in_filter(key);
                    return None;
                }
                if slot[0] == key.lo && slot[1] == key.hi && slot[2] == key.tag {
                    if slot[3] & MORE_BITS <= u64::from(more) {
                        return None;
                    }
                    let given_up = slot[3] >> 12;
                    slot[3] = word;
                    return Some(given_up);
                }
                if slot[3] >> 12 < oldest_id {
                    oldest_id = slot[3] >> 12;
                    oldest = (b, s);
                }
            }
        }
        self.buckets[oldest.0].0[oldest.1] = [key.lo, key.hi, key.tag, word];
        self.mark_in_filter(key);
        Some(oldest_id)
    }

    /// Twice the buckets, every entry placed again.
    fn grow(&mut self) {
        let doubled = ZeroedTable::new(2 * self.buckets.len());
        let old = std::mem::replace(&mut self.buckets, doubled);
        self.filter = vec![0; (2 * self.filter.len()).min(FILTER_WORDS_MOST)];
        let mask = self.buckets.len() - 1;
        for slot in old.iter().flat_map(|bucket| bucket.0) {
            if slot[2] == 0 {
                continue;
            }
            let key = Key {
                lo: slot[0],
                hi: slot[1],
                tag: slot[2],
            };
            self.mark_in_filter(&key);
            let mut b = key.bucket(mask);
            'placed: loop {
                for free in &mut self.buckets[b].0 {
                    if free[2] == 0 {
                        *free = slot;
                        break 'placed;
                    }
                }
                b = (b + 1) & mask;
            }
        }
    }
}

/// The memo key of a state (`None` if it does not fit a key).
#[inline(always)]
pub(super) fn key_of<W: Window>(q: usize, window: W, mode: u8, balances: [i32; 2]) -> Option<Key> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: u64) -> Key {
        Key {
            lo: n.wrapping_mul(0x9e37_79b9_7f4a_7c15),
            hi: n >> 3,
            tag: n % 300 + 1,
        }
    }

    #[test]
    fn a_doubled_memo_holds_every_entry_it_held() {
        let memo = Memo::new(10);
        // Three times its capacity: buckets full, many entries replaced.
        for n in 0..3 * 1024 {
            memo.put(&key(n), (n % 11) as u32, n * 7919 % 5000 + 1);
        }
        let held: Vec<(u64, u32)> = (0..3 * 1024)
            .filter_map(|n| memo.get(&key(n)).map(|bound| (n, bound)))
            .collect();
        assert!(
            held.len() > 600 && held.len() <= 1024,
            "{} held",
            held.len()
        );
        let doubled = memo.doubled();
        assert_eq!(doubled.capacity(), 2 * memo.capacity());
        for &(n, bound) in &held {
            assert_eq!(doubled.get(&key(n)), Some(bound), "key {n}");
        }
        let count = |m: &Memo| (0..3 * 1024).filter(|&n| m.get(&key(n)).is_some()).count();
        assert_eq!(count(&doubled), held.len());
        // It takes new entries as a memo of its size does, a smaller bound kept.
        doubled.put(&key(held[0].0), 0, 1);
        assert_eq!(doubled.get(&key(held[0].0)), Some(0));
    }

    #[test]
    fn the_clause_memo_keeps_every_key_with_its_least_more_through_growth() {
        let mut memo = ClauseMemo::new(4);
        let count = 50_000;
        for n in 0..count {
            memo.keep_least(&key(n), (n % 7) as u32 + 3, n + 100);
        }
        // A larger `more` leaves the entry; a smaller one replaces it, ID and all.
        memo.keep_least(&key(5), 9, 1);
        memo.keep_least(&key(6), 0, 2);
        for n in 0..count {
            let expected = match n {
                6 => (0, 2),
                _ => ((n % 7) as u32 + 3, n + 100),
            };
            assert_eq!(memo.get(&key(n)), Some(expected), "key {n}");
        }
        assert_eq!(memo.get(&key(count)), None);
        // What a slot cannot hold is not stored.
        memo.keep_least(&key(count), 4096, 1);
        memo.keep_least(&key(count + 1), 1, 1 << 52);
        assert_eq!(memo.get(&key(count)), None);
        assert_eq!(memo.get(&key(count + 1)), None);
        assert_eq!(memo.len, count as usize);
    }

    #[test]
    fn a_bounded_clause_memo_gives_up_its_oldest_clauses_each_once() {
        let mut memo = ClauseMemo::bounded(64);
        assert!(memo.is_bounded());
        let count = 1000u64;
        let mut given_up = Vec::new();
        for n in 0..count {
            given_up.extend(memo.keep_least(&key(n), 3, n + 100));
        }
        // Every clause stored is either still held or given up, never both, never twice.
        let held: Vec<u64> = (0..count)
            .filter_map(|n| memo.get(&key(n)).map(|(_, id)| id))
            .collect();
        assert!(held.len() <= 64 && held.len() >= 32, "{} held", held.len());
        let mut all: Vec<u64> = held.iter().chain(&given_up).copied().collect();
        all.sort_unstable();
        assert_eq!(all, (100..100 + count).collect::<Vec<_>>());
        // The newest are held: a run of buckets gives up its oldest.
        assert_eq!(memo.get(&key(count - 1)), Some((3, count + 99)));
        // A smaller `more` replaces a held key's clause, which is given up; a larger one
        // is not stored.
        let last = key(count - 1);
        assert_eq!(memo.keep_least(&last, 5, 1), None);
        assert_eq!(memo.keep_least(&last, 1, 5000), Some(count + 99));
        assert_eq!(memo.get(&last), Some((1, 5000)));
    }
}
