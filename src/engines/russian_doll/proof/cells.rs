//! Sets of cells as the memo key's two words, bit `k` the cell `k` scan positions after
//! the node's.

/// Key words keeping every window cell.
pub(super) const ALL: (u64, u64) = (u64::MAX, u64::MAX);

/// The bits set in key words `(lo, hi)`, ascending.
pub(super) fn bits((lo, hi): (u64, u64)) -> impl Iterator<Item = usize> {
    let ones = |word: u64, base: usize| {
        std::iter::successors((word != 0).then_some(word), |&w| {
            let rest = w & (w - 1);
            (rest != 0).then_some(rest)
        })
        .map(move |w| w.trailing_zeros() as usize + base)
    };
    ones(lo, 0).chain(ones(hi, 64))
}

/// Sets bit `k` (below 128) of key words.
pub(super) fn set_bit(words: &mut (u64, u64), k: usize) {
    match k {
        0..=63 => words.0 |= 1 << k,
        _ => words.1 |= 1 << (k - 64),
    }
}

/// Whether key words `(lo, hi)` hold bit `k`.
pub(super) fn bit((lo, hi): (u64, u64), k: usize) -> bool {
    match k {
        0..=63 => lo >> k & 1 == 1,
        64..=127 => hi >> (k - 64) & 1 == 1,
        _ => false,
    }
}
