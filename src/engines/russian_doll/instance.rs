//! The prepared instance: placements in scan order, sorted by first cell, and as windows.

use rustc_hash::FxHashMap;

use super::scan_order;
use super::window::Window;
use crate::geometry::placements::PackingInstance;
use crate::geometry::weights::CellWeights;

/// The instance in scan order, placements sorted by first cell.
pub(super) struct Prepared {
    /// Scan positions per row (the box's short side).
    pub(super) row: usize,
    /// Scan positions.
    pub(super) cells: usize,
    pub(super) order: Vec<usize>,
    /// Per kept placement (sorted by first position): cells relative to the first.
    pub(super) relative: Vec<Vec<usize>>,
    /// Per kept placement: index in the instance, and piece.
    pub(super) index: Vec<usize>,
    pub(super) piece: Vec<usize>,
    /// Offsets into the kept placements: those starting at position `k` are
    /// `starts[k]..starts[k + 1]`.
    pub(super) starts: Vec<u32>,
    pub(super) reach: usize,
    /// Per piece, its maximum when it can bind (`u32::MAX` otherwise).
    pub(super) limit: Vec<u32>,
    pub(super) limited: bool,
    /// Per mirror (left-right, top-bottom in scan geometry): per kept placement +1 if
    /// centred in the first half, -1 in the second, 0 on the line (empty: mirror unused).
    pub(super) weight: [Vec<i8>; 2],
    /// Per mirror: the largest first position of a first-half placement.
    pub(super) last_first_half: [usize; 2],
    /// Per entry `c`: bit `m` set if mirror `m` maps `P_c` onto itself (and is in use).
    pub(super) mode: Vec<u8>,
    /// Per kept placement, its image under the top-bottom mirror of the scan geometry, if
    /// that mirror maps the instance onto itself (whatever [`DollOptions::symmetry`] says).
    pub(super) flip: Option<Vec<usize>>,
    /// The most scan rows from a placement's first cell's row to its last cell's row.
    pub(super) extent: usize,
}

impl Prepared {
    /// The fewest cells a kept placement covers (0: none is kept), the area cut's unit.
    pub(super) fn smallest_placement(&self) -> u32 {
        self.relative
            .iter()
            .map(|cells| cells.len() as u32)
            .min()
            .unwrap_or(0)
    }

    pub(super) fn new(instance: &PackingInstance, symmetry: bool) -> Self {
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

/// The prepared instance with placement masks as windows.
pub(super) struct Engine<'p, W> {
    /// Also pass over cells where no placement fits. Measured: with the memo it saves
    /// lookups (14 x 14 crosses: 4x fewer nodes, 20% less time); without, testing every
    /// placement of every cell passed costs more than the nodes it saves (40% more time).
    pub(super) skip_unfit: bool,
    pub(super) prep: &'p Prepared,
    pub(super) masks: Vec<W>,
    /// Per scan position: some placement starts there.
    pub(super) has_start: Vec<bool>,
    pub(super) piece: Vec<u32>,
    /// Window offsets tested for dead cells ([`DollOptions::dead_cells`]; 0: off).
    pub(super) dead_span: usize,
    /// The placements covering each scan cell, as (first cell, placement), later first
    /// cells first: cell `k`'s are `covering[covering_starts[k]..covering_starts[k + 1]]`.
    pub(super) covering_starts: Vec<u32>,
    pub(super) covering: Vec<(u32, u32)>,
    /// The window cells each relaxed memo lookup keeps, as key words
    /// ([`DollOptions::memo_relaxed`]; empty: off).
    pub(super) relaxed: Vec<(u64, u64)>,
    /// The fewest cells a kept placement covers, for the area cut ([`super::DollOptions::area`];
    /// 0: off).
    pub(super) area: u32,
    /// Per scan row, the weighted cut's weights for the nodes in that row
    /// ([`super::DollOptions::row_weights`]; empty: off).
    pub(super) weighted: Vec<Option<WeightCut>>,
    /// Which placements share a cell, for the lookahead's tests of pairs (empty: the
    /// lookahead shifts masks instead).
    pub(super) pairs: PlacementPairs,
}

/// Which kept placements share a cell: per placement `i`, one bit per later placement
/// `i + d` with `0 < d < span` (one starting at or past `i`'s reach meets no cell of it,
/// and `span` bounds how far those that can lie). The lookahead tests pairs by the
/// thousand per node: a bit test beats shifting a 128-bit mask.
#[derive(Default)]
pub(super) struct PlacementPairs {
    bits: Vec<u64>,
    /// Words per placement.
    words: usize,
    span: usize,
}

/// Words a [`PlacementPairs`] may take (8 MiB); a larger instance tests pairs by masks.
const PAIR_WORDS_MOST: usize = 1 << 20;

impl PlacementPairs {
    /// The pairs of `prep`'s kept placements, or none (empty) if the table would take
    /// more than [`PAIR_WORDS_MOST`] words.
    pub(super) fn new(prep: &Prepared) -> Self {
        let count = prep.relative.len();
        let mut first = vec![0usize; count];
        for cell in 0..prep.cells {
            for f in &mut first[prep.starts[cell] as usize..prep.starts[cell + 1] as usize] {
                *f = cell;
            }
        }
        let span = (0..count)
            .map(|i| prep.starts[(first[i] + prep.reach).min(prep.cells)] as usize - i)
            .max()
            .unwrap_or(0);
        let words = span.div_ceil(64).max(1);
        if count.saturating_mul(words) > PAIR_WORDS_MOST {
            return PlacementPairs::default();
        }
        let mut bits = vec![0u64; count * words];
        let mut covered = vec![false; prep.cells];
        for i in 0..count {
            for &k in &prep.relative[i] {
                covered[first[i] + k] = true;
            }
            for d in 1..span.min(count - i) {
                let later = i + d;
                if prep.relative[later]
                    .iter()
                    .any(|&k| covered[first[later] + k])
                {
                    bits[i * words + d / 64] |= 1 << (d % 64);
                }
            }
            for &k in &prep.relative[i] {
                covered[first[i] + k] = false;
            }
        }
        PlacementPairs { bits, words, span }
    }

    /// How far apart two placements that meet lie at most, plus one (0: the table is not
    /// in use).
    pub(super) fn span(&self) -> usize {
        if self.bits.is_empty() {
            0
        } else {
            self.span
        }
    }

    /// Whether the table is in use.
    #[inline(always)]
    pub(super) fn is_empty(&self) -> bool {
        self.bits.is_empty()
    }

    /// Whether placements `earlier < later` share a cell (the table in use).
    #[inline(always)]
    pub(super) fn meet(&self, earlier: u32, later: u32) -> bool {
        debug_assert!(earlier < later, "placements in scan order");
        let d = (later - earlier) as usize;
        d < self.span && self.bits[earlier as usize * self.words + d / 64] >> (d % 64) & 1 == 1
    }
}

/// The weights of [`super::DollOptions::row_weights`] for one scan row, in scan order.
pub(super) struct WeightCut {
    /// Per scan position, its cell's weight, then zeros for every bit a window may have
    /// past the last cell.
    pub(super) weights: Vec<u32>,
    /// Per scan position `q`, the weight of the cells from `q` on.
    suffix: Vec<u64>,
    /// What every placement from the row on weighs at least.
    pub(super) divisor: u64,
    /// The heaviest cell's weight.
    heaviest: u64,
}

/// The weighted cut of each scan row from `row_weights` (see
/// [`super::DollOptions::row_weights`]): rows without weights, or whose weights fall short
/// of the divisor on a placement starting in the row or later, get none. Empty when no row
/// has any.
pub(super) fn weight_cuts(
    prep: &Prepared,
    row_weights: &[Option<CellWeights>],
) -> Vec<Option<WeightCut>> {
    let cuts: Vec<Option<WeightCut>> = (0..prep.cells.div_ceil(prep.row.max(1)))
        .map(|r| {
            let given = row_weights.get(r)?.as_ref()?;
            let divisor = u32::try_from(given.divisor).ok().filter(|&d| d > 0)?;
            // A window has fewer than `reach + 64` bits.
            let mut weights = vec![0u32; prep.cells + prep.reach + 64];
            for (k, &cell) in prep.order.iter().enumerate() {
                weights[k] = u32::try_from(*given.weights.get(cell)?).ok()?;
            }
            let from = r * prep.row;
            let holds = (from..prep.cells).all(|first| {
                (prep.starts[first] as usize..prep.starts[first + 1] as usize).all(|i| {
                    let weight: u64 = prep.relative[i]
                        .iter()
                        .map(|&k| u64::from(weights[first + k]))
                        .sum();
                    weight >= u64::from(divisor)
                })
            });
            let mut suffix = vec![0u64; prep.cells + 1];
            for k in (0..prep.cells).rev() {
                suffix[k] = suffix[k + 1] + u64::from(weights[k]);
            }
            let heaviest = weights.iter().copied().max().map_or(0, u64::from);
            holds.then_some(WeightCut {
                weights,
                suffix,
                divisor: u64::from(divisor),
                heaviest,
            })
        })
        .collect();
    if cuts.iter().all(Option::is_none) {
        Vec::new()
    } else {
        cuts
    }
}

impl<'p, W: Window> Engine<'p, W> {
    /// The engine of `prep` with no extras: every cell searched, no dead cells, no relaxed
    /// lookups (the callers switch on what they use).
    pub(super) fn plain(prep: &'p Prepared) -> Self {
        Engine {
            skip_unfit: false,
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
            dead_span: 0,
            covering_starts: Vec::new(),
            covering: Vec::new(),
            relaxed: Vec::new(),
            area: 0,
            weighted: Vec::new(),
            pairs: PlacementPairs::default(),
        }
    }

    /// Whether the area cut ([`super::DollOptions::area`]) shows that fewer than `more`
    /// pieces of at least `area` cells fit from scan cell `q` on beside `window`: the cells
    /// from `q` on that the window leaves free hold fewer than `more` of them (`area` 0:
    /// never).
    #[inline(always)]
    pub(super) fn area_cuts(&self, area: u32, q: usize, window: W, more: u32) -> bool {
        let (cells_left, needed) = ((self.prep.cells - q) as u32, more * area);
        // The window covers at most `reach` cells: when even that leaves enough, it is not
        // counted.
        area != 0
            && cells_left < needed + self.prep.reach as u32
            && cells_left - window.count_ones() < needed
    }

    /// Whether the weighted cut ([`super::DollOptions::row_weights`]) shows that fewer than
    /// `more` pieces fit from scan cell `q` on beside `window`: the free cells from `q` on
    /// weigh less than `more` placements do at least.
    #[inline(always)]
    pub(super) fn weight_cuts(&self, q: usize, window: W, more: u32) -> bool {
        if self.weighted.is_empty() {
            return false;
        }
        let Some(cut) = &self.weighted[q / self.prep.row] else {
            return false;
        };
        let (total, needed) = (cut.suffix[q], u64::from(more) * cut.divisor);
        // Even with the window on the heaviest cells enough is left: not weighed.
        if total >= needed + u64::from(window.count_ones()) * cut.heaviest {
            return false;
        }
        total.saturating_sub(window.weigh(&cut.weights[q..])) < needed
    }
}

/// The placements covering each scan cell, later first cells first, as offsets and
/// (first cell, placement) pairs (see [`Engine::covering`]).
pub(super) fn covering_lists(prep: &Prepared) -> (Vec<u32>, Vec<(u32, u32)>) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::placements::{orientations, PieceLimit};

    /// The pair table agrees with the placements' cells on every pair: skew tetrominoes in
    /// every orientation in 11 x 9, where a placement's later partners lie more than 64
    /// indices on (two words per placement).
    #[test]
    fn placement_pairs_meet_exactly_where_the_cells_do() {
        let skew = vec![(1, 0), (2, 0), (0, 1), (1, 1)];
        let instance = PackingInstance::from_shapes(
            11,
            9,
            vec![false; 99],
            &[(orientations(&skew, true, true), PieceLimit::unlimited())],
        );
        let prep = Prepared::new(&instance, false);
        let pairs = PlacementPairs::new(&prep);
        assert!(pairs.words >= 2, "span {}", pairs.span);
        let cells = |i: usize| -> Vec<usize> {
            let first = prep.starts.partition_point(|&s| s as usize <= i) - 1;
            prep.relative[i].iter().map(|&k| first + k).collect()
        };
        let count = prep.relative.len();
        let mut met = 0;
        for earlier in 0..count {
            let mine = cells(earlier);
            for later in earlier + 1..count {
                let meet = cells(later).iter().any(|c| mine.contains(c));
                assert_eq!(
                    pairs.meet(earlier as u32, later as u32),
                    meet,
                    "{earlier} {later}"
                );
                met += usize::from(meet);
            }
        }
        assert!(met > count, "{met} pairs meet");
    }
}
