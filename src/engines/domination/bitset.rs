//! Sets of free squares as slices of `u64` words (bit `i` of word `i / 64` is free square
//! `i`), and each square's closed neighbourhood stored that way, with the span of words it
//! touches so that sparse neighbourhoods (knights, kings) cost a word or two per operation.

/// The words a set over `squares` squares takes.
pub(crate) fn words_for(squares: usize) -> usize {
    squares.div_ceil(64)
}

/// Whether square `i` is in `set`.
#[inline]
pub(crate) fn contains(set: &[u64], i: usize) -> bool {
    set[i / 64] >> (i % 64) & 1 == 1
}

/// Puts square `i` in `set`.
#[inline]
pub(crate) fn insert(set: &mut [u64], i: usize) {
    set[i / 64] |= 1 << (i % 64);
}

/// Takes square `i` out of `set`.
#[inline]
pub(crate) fn remove(set: &mut [u64], i: usize) {
    set[i / 64] &= !(1 << (i % 64));
}

/// How many squares `set` holds.
pub(crate) fn len(set: &[u64]) -> usize {
    set.iter().map(|w| w.count_ones() as usize).sum()
}

/// Whether `set` holds no square.
pub(crate) fn is_empty(set: &[u64]) -> bool {
    set.iter().all(|&w| w == 0)
}

/// The least square of `set`, if any.
pub(crate) fn first(set: &[u64]) -> Option<usize> {
    let k = set.iter().position(|&w| w != 0)?;
    Some(k * 64 + set[k].trailing_zeros() as usize)
}

/// The squares of `set`, in increasing order.
pub(crate) fn ones(set: &[u64]) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(k, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let bit = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            Some(k * 64 + bit)
        })
    })
}

/// The closed neighbourhood of every free square: the square and the squares it attacks.
/// Attacks are symmetric, so this is also the set of squares that guard it.
#[derive(Clone, Debug)]
pub(crate) struct Neighbourhoods {
    /// Words per set.
    pub(crate) words: usize,
    /// Square `i`'s neighbourhood at `bits[i * words..(i + 1) * words]`.
    bits: Vec<u64>,
    /// The first and one past the last word where square `i`'s neighbourhood has a square.
    span: Vec<(u32, u32)>,
    /// Every square's neighbourhood as a sorted list, one after the other: square `i`'s
    /// from `starts[i]` to `starts[i + 1]` (one block of memory, read at every node).
    lists: Vec<u32>,
    starts: Vec<u32>,
}

impl Neighbourhoods {
    /// The closed neighbourhoods of `attacks` (square `i` attacks `attacks[i]`).
    pub(crate) fn new(attacks: &[Vec<usize>]) -> Neighbourhoods {
        let squares = attacks.len();
        let words = words_for(squares);
        let mut bits = vec![0u64; squares * words];
        let mut span = Vec::with_capacity(squares);
        let mut lists = Vec::new();
        let mut starts = vec![0];
        for (i, seen) in attacks.iter().enumerate() {
            let row = &mut bits[i * words..(i + 1) * words];
            insert(row, i);
            for &j in seen {
                insert(row, j);
            }
            let first = row.iter().position(|&w| w != 0).unwrap_or(0);
            let last = row.iter().rposition(|&w| w != 0).map_or(0, |k| k + 1);
            span.push((first as u32, last as u32));
            lists.extend(ones(row).map(|j| j as u32));
            starts.push(lists.len() as u32);
        }
        Neighbourhoods {
            words,
            bits,
            span,
            lists,
            starts,
        }
    }

    /// Square `i`'s closed neighbourhood as a set.
    #[inline]
    pub(crate) fn set(&self, i: usize) -> &[u64] {
        &self.bits[i * self.words..(i + 1) * self.words]
    }

    /// Square `i`'s closed neighbourhood as a sorted list.
    #[inline]
    pub(crate) fn list(&self, i: usize) -> &[u32] {
        &self.lists[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// The words where square `i`'s neighbourhood is, as a range.
    #[inline]
    fn range(&self, i: usize) -> std::ops::Range<usize> {
        let (a, b) = self.span[i];
        a as usize..b as usize
    }

    /// How many squares of `set` lie in square `i`'s neighbourhood.
    #[inline]
    pub(crate) fn count_in(&self, i: usize, set: &[u64]) -> usize {
        let row = self.set(i);
        self.range(i)
            .map(|k| (row[k] & set[k]).count_ones() as usize)
            .sum()
    }

    /// `target = source` without square `i`'s neighbourhood.
    #[inline]
    pub(crate) fn minus_into(&self, i: usize, source: &[u64], target: &mut [u64]) {
        target.copy_from_slice(source);
        let row = self.set(i);
        for k in self.range(i) {
            target[k] &= !row[k];
        }
    }

    /// Adds square `i`'s neighbourhood within `within` to `set`.
    #[inline]
    pub(crate) fn add_within(&self, i: usize, within: &[u64], set: &mut [u64]) {
        let row = self.set(i);
        for k in self.range(i) {
            set[k] |= row[k] & within[k];
        }
    }

    /// Whether square `i`'s neighbourhood within `within` meets `set`.
    #[inline]
    pub(crate) fn meets_within(&self, i: usize, within: &[u64], set: &[u64]) -> bool {
        let row = self.set(i);
        self.range(i).any(|k| row[k] & within[k] & set[k] != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_hold_what_was_put_in_across_words() {
        let mut set = vec![0u64; words_for(130)];
        for i in [0, 63, 64, 129] {
            insert(&mut set, i);
        }
        assert_eq!(ones(&set).collect::<Vec<_>>(), vec![0, 63, 64, 129]);
        assert_eq!(len(&set), 4);
        remove(&mut set, 64);
        assert!(!contains(&set, 64) && contains(&set, 129));
        assert!(!is_empty(&set));
    }

    #[test]
    fn neighbourhoods_hold_the_square_and_what_it_attacks() {
        let attacks = vec![vec![1], vec![0, 100], vec![], vec![]];
        let mut attacks = attacks;
        attacks.resize(101, Vec::new());
        attacks[100] = vec![1];
        let near = Neighbourhoods::new(&attacks);
        assert_eq!(near.list(1), &[0, 1, 100]);
        let mut all = vec![!0u64; near.words];
        assert_eq!(near.count_in(1, &all), 3);
        let mut rest = vec![0u64; near.words];
        near.minus_into(1, &all.clone(), &mut rest);
        assert!(!contains(&rest, 100) && contains(&rest, 2));
        all.fill(0);
        insert(&mut all, 100);
        assert!(near.meets_within(1, &all, &all) && !near.meets_within(2, &all, &all));
    }
}
