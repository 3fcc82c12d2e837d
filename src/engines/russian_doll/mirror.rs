//! A stopped run's bound and packing from the top-bottom mirror of its decided rows.

use super::instance::Prepared;

/// What a stopped run's decided rows say about the whole box through its top-bottom mirror.
pub(super) struct Halves {
    /// A packing of the top rows (a decided entry's packing, mirrored) and the rows below.
    pub(super) packing: Vec<u32>,
    /// An upper bound on the whole box.
    pub(super) bound: usize,
}

/// For a stopped run whose instance the top-bottom mirror maps onto itself: with `R` rows
/// of which the last `R - d` are decided, the pieces whose first cell lies in the top `k`
/// rows lie in the top `k + extent` rows, which hold at most `S[(R - k - extent) row]` pieces
/// (the mirror image of the bottom rows); the others at most `S[k row]`. So the optimum is at
/// most `S[k row] + S[(R - k - extent) row]` for every `k` with both decided, and the packing
/// of `S[k row]` beside the mirrored packing of `S[(R - k) row]` is a packing (top `k` rows
/// and the rest). `None` if the mirror does not apply, a piece maximum binds (the two halves
/// could exceed it) or no `k` has both entries decided.
pub(super) fn mirror_halves(
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
