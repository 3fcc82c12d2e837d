//! The IDs the prover keeps for reuse: the pair clauses of the lookahead's cliques, found
//! again millions of times, and hint lists that skip repeats without a scan.

use rustc_hash::FxHashMap;

use super::cells::set_bit;

/// The IDs of [`Prover::pair`]'s clauses by (earlier, later) kept placement: a slot for
/// every pair of placements less than `span` apart (all that can overlap; a clique's
/// derivation looks up a pair per member and member before it, millions of times), or,
/// if those slots would take too much memory, a map.
pub(super) struct PairClauses {
    /// `slots[earlier * span + later - earlier]`, 0 for none.
    slots: Vec<u64>,
    span: usize,
    map: FxHashMap<(u32, u32), u64>,
}

/// Slots a [`PairClauses`] may have (32 MiB).
const PAIR_SLOTS_MOST: usize = 1 << 22;

impl PairClauses {
    /// No clause yet, for `count` placements whose overlapping pairs lie less than `span`
    /// apart (0: unknown; then a map).
    pub(super) fn new(count: usize, span: usize) -> Self {
        let slots = count.saturating_mul(span);
        PairClauses {
            slots: if span > 0 && slots <= PAIR_SLOTS_MOST {
                vec![0; slots]
            } else {
                Vec::new()
            },
            span,
            map: FxHashMap::default(),
        }
    }

    fn slot(&self, (earlier, later): (u32, u32)) -> Option<usize> {
        let d = (later - earlier) as usize;
        (!self.slots.is_empty() && d < self.span).then(|| earlier as usize * self.span + d)
    }

    #[inline]
    pub(super) fn get(&self, pair: (u32, u32)) -> Option<u64> {
        match self.slot(pair) {
            Some(k) => Some(self.slots[k]).filter(|&id| id != 0),
            None => self.map.get(&pair).copied(),
        }
    }

    pub(super) fn insert(&mut self, pair: (u32, u32), id: u64) {
        match self.slot(pair) {
            Some(k) => self.slots[k] = id,
            None => {
                self.map.insert(pair, id);
            }
        }
    }
}

/// A hint list without repeats, in first-use order, and the origin's cells whose `e` it
/// assumes (key words from the origin's cell).
#[derive(Default)]
pub(super) struct Hints {
    pub(super) ids: Vec<u64>,
    /// The ID of the searched node's clause the chain cites (0: none, or one kept for good).
    pub(super) clause: u64,
    pub(super) assumed: (u64, u64),
    /// Whether the line of the origin's placement ([`Prover::excludes`]) is in `ids`.
    pub(super) excluded: bool,
    /// The cells (key words from the origin's cell) whose [`Prover::source`] is in `ids`.
    pub(super) sourced: (u64, u64),
    /// A 1024-bit filter of the IDs in `ids`: an ID whose bit is clear is new, so most
    /// pushes skip the scan for a repeat (the scan was a third of the proof search's time).
    pub(super) seen: [u64; 16],
}

impl Hints {
    /// Notes that the hints assume `e` of the origin's cell at `offset`.
    pub(super) fn assume(&mut self, offset: usize) {
        set_bit(&mut self.assumed, offset);
    }

    pub(super) fn extend(&mut self, ids: impl IntoIterator<Item = u64>) {
        for id in ids {
            self.push(id);
        }
    }

    #[inline]
    pub(super) fn push(&mut self, id: u64) {
        let slot = (id.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 54) as usize;
        let (word, bit) = (slot >> 6, 1u64 << (slot & 63));
        if self.seen[word] & bit != 0 && self.ids.contains(&id) {
            return;
        }
        self.seen[word] |= bit;
        self.ids.push(id);
    }
}

#[cfg(test)]
mod tests {
    use super::PairClauses;

    /// Slots and map keep the same clauses: pairs within the span in slots, those beyond
    /// (and every pair when the span is unknown) in the map.
    #[test]
    fn pair_clauses_are_found_where_they_were_kept() {
        for span in [0, 4] {
            let mut pairs = PairClauses::new(10, span);
            assert_eq!(pairs.slots.len(), 10 * span);
            for (k, pair) in [(0, 1), (2, 5), (3, 9), (8, 9)].into_iter().enumerate() {
                assert_eq!(pairs.get(pair), None);
                pairs.insert(pair, 100 + k as u64);
            }
            let found = [(0, 1), (2, 5), (3, 9), (8, 9), (0, 2), (1, 9)].map(|p| pairs.get(p));
            assert_eq!(
                found,
                [Some(100), Some(101), Some(102), Some(103), None, None],
                "span {span}"
            );
            // Only (3, 9) lies beyond the span of 4.
            assert_eq!(pairs.map.len(), if span == 0 { 4 } else { 1 });
        }
    }
}
