//! A node's cuts before it is searched: unfit cells skipped, dead cells filled, the lookahead.

use super::instance::{Engine, Prepared};
use super::window::Window;

/// The window offsets tested for dead cells ([`DollOptions::dead_cells`]): two scan rows,
/// within the reach (the window's cells beyond it are all free).
///
/// [`DollOptions::dead_cells`]: super::DollOptions::dead_cells
pub(super) fn dead_span(prep: &Prepared) -> usize {
    (2 * prep.row).min(prep.reach)
}

impl<W: Window> Engine<'_, W> {
    /// The window with its dead cells marked covered ([`DollOptions::dead_cells`]): each
    /// free cell among the first `dead_span` that no placement starting at `q` or later
    /// and fitting the window covers.
    #[inline(never)]
    pub(super) fn fill_dead(&self, q: usize, mut window: W) -> W {
        let span = self.dead_span.min(self.prep.cells - q);
        // Offset 0 is the scan cell, where a placement fits (see `normalize`).
        for x in 1..span {
            let cell = W::empty().with(x);
            if window.overlaps(cell) {
                continue;
            }
            let (from, to) = (
                self.covering_starts[q + x] as usize,
                self.covering_starts[q + x + 1] as usize,
            );
            let live = self.covering[from..to]
                .iter()
                .take_while(|&&(first, _)| first as usize >= q)
                .any(|&(first, i)| {
                    !window
                        .shr(first - q as u32)
                        .overlaps(self.masks[i as usize])
                });
            if !live {
                // Marking it changes no fit: no fitting placement covers it.
                window = window.with(x);
            }
        }
        window
    }

    /// Moves the scan on to the first cell at or after `q` where some placement starts and,
    /// with [`Engine::skip_unfit`], fits (`None`: past the last cell). The cells passed over
    /// stay empty whatever follows, so this only saves nodes (and takes the suffix bound at
    /// the later cell).
    #[inline(always)]
    pub(super) fn normalize(&self, mut q: usize, mut window: W) -> Option<(usize, W)> {
        loop {
            let covered = window.trailing_ones();
            q += covered as usize;
            window = window.shr(covered);
            if q >= self.prep.cells {
                return None;
            }
            if self.skip_unfit {
                let (from, to) = (
                    self.prep.starts[q] as usize,
                    self.prep.starts[q + 1] as usize,
                );
                if self.masks[from..to].iter().any(|&m| !window.overlaps(m)) {
                    return Some((q, window));
                }
            } else if self.has_start[q] {
                return Some((q, window));
            }
            q += 1;
            window = window.shr(1);
        }
    }
}

/// The deepest level of the lookahead cut ([`DollOptions::lookahead`]).
pub(super) const LOOKAHEAD_LEVELS: usize = 6;

/// Placements fitting a window that the lookahead cut collects, at most.
const LOOKAHEAD_FITS: usize = 48;

/// Fits at most for which a level above 2 that the greedy cover left open is decided
/// exactly (the search for independent placements grows with the cube of their number).
const LOOKAHEAD_EXACT: usize = 16;

impl<W: Window> Engine<'_, W> {
    /// Whether the lookahead cuts the node `(q, window)` with slack `slack`: for some level
    /// `k`, at most `k - 1 - slack` pieces can start at the cells `q..D_k` (`drops[k - 2]`),
    /// so at most `S[q] - 1 - slack` more pieces fit (see [`DollOptions::lookahead`]).
    // Kept out of line, so that the search's hot path stays small.
    #[inline(never)]
    pub(super) fn lookahead_cuts(
        &self,
        q: usize,
        mut window: W,
        drops: &[u32],
        slack: usize,
    ) -> bool {
        let none = (0u32, W::empty(), 0u32);
        let mut fits = [none; LOOKAHEAD_FITS];
        let mut count = 0;
        // The first fit and the greedy cover go on from level to level (see `FirstFit`).
        let mut first_fit = FirstFit::new(none);
        let mut cover = GreedyCover::new();
        let mut chosen = [none; LOOKAHEAD_LEVELS + 1];
        let meets = |a: Fit<W>, b: Fit<W>| self.meets(a, b);
        let mut j = 0usize;
        for (level, &d) in drops.iter().enumerate() {
            if d == u32::MAX {
                return false;
            }
            // Collect the fits starting before D_k.
            let room =
                self.collect_fits(q, d as usize, (&mut j, &mut window), |offset, mask, i| {
                    if count == LOOKAHEAD_FITS {
                        return false;
                    }
                    fits[count] = (offset, mask, i as u32);
                    count += 1;
                    true
                });
            if !room {
                return false;
            }
            // Level k cuts unless `k - slack` pieces can start before D_k (one always can).
            let need = match (level + 2).checked_sub(slack) {
                Some(need) if need >= 2 => need,
                _ => continue,
            };
            // Every fit collected starts before D_k: a fit is taken only at a cell before the
            // level's D (covered cells, which the collection may skip past D_k, start none),
            // and the D_k grow with k.
            let within = &fits[..count];
            // First fit: `need` placements beside each other found at once leave the level
            // open without the cover (the usual case).
            if need > 2 && first_fit.reaches(within, need, meets) {
                continue;
            }
            if need > 2 && cover.at_most(within, need - 1, meets) {
                return true;
            }
            if need > 2 && within.len() > LOOKAHEAD_EXACT {
                return false;
            }
            if !independent(within, &mut chosen, 0, need, &meets) {
                return true;
            }
        }
        false
    }

    /// Whether two fits, the first starting no later than the second, share a cell: by
    /// [`PlacementPairs`] if the engine has it, else by their masks.
    #[inline(always)]
    fn meets(&self, (j1, m1, i1): Fit<W>, (j, mask, i): Fit<W>) -> bool {
        if self.pairs.is_empty() {
            share_a_cell((j1, m1), (j, mask))
        } else {
            self.pairs.meet(i1, i)
        }
    }
}

/// A placement fitting a lookahead's window: the offset of its first cell from the scan
/// cell, its mask there, and its index.
pub(super) type Fit<W> = (u32, W, u32);

/// Whether two placements, each `(offset of its first cell from q, mask)`, the first
/// starting no later than the second, share a cell: the first's mask moved to the second's
/// start overlaps it.
#[inline(always)]
fn share_a_cell<W: Window>((j1, m1): (u32, W), (j, mask): (u32, W)) -> bool {
    m1.shr(j - j1).overlaps(mask)
}

/// The first fit of a lookahead: taking the fits (first cells ascending) in order, each
/// that fits beside those taken. A deeper level's fits are the level before's and more, and
/// taking them in order makes the same choices on the first ones, so each level goes on
/// where the one before stopped instead of starting over (the lookahead tries up to five).
struct FirstFit<F> {
    chosen: [F; LOOKAHEAD_LEVELS + 1],
    taken: usize,
    /// The fits looked at so far.
    scanned: usize,
}

impl<F: Copy> FirstFit<F> {
    /// None taken yet (`none` fills the room for those to come).
    fn new(none: F) -> Self {
        FirstFit {
            chosen: [none; LOOKAHEAD_LEVELS + 1],
            taken: 0,
            scanned: 0,
        }
    }

    /// Whether taking `fits` in order, each that `meets` none of those taken, takes `need`
    /// of them (`need` at most `LOOKAHEAD_LEVELS + 1`; `fits` the fits of the last call and
    /// more).
    fn reaches(&mut self, fits: &[F], need: usize, meets: impl Fn(F, F) -> bool) -> bool {
        while self.taken < need {
            let Some(&fit) = fits.get(self.scanned) else {
                return false;
            };
            self.scanned += 1;
            if self.chosen[..self.taken]
                .iter()
                .all(|&earlier| !meets(earlier, fit))
            {
                self.chosen[self.taken] = fit;
                self.taken += 1;
            }
        }
        true
    }
}

/// A greedy cover of a lookahead's fits (first cells ascending) by groups of pairwise
/// overlapping placements: each fit joins the first group whose members it all meets, or
/// opens a group. Carried from level to level as [`FirstFit`] is: the groups of the first
/// fits do not depend on how many groups a level allows.
pub(super) struct GreedyCover {
    /// The groups in use (the first `used`), each the indices of its fits (the first
    /// `sizes[g]`).
    groups: [[u8; LOOKAHEAD_FITS]; LOOKAHEAD_LEVELS],
    sizes: [usize; LOOKAHEAD_LEVELS],
    used: usize,
    /// The fits placed in groups so far.
    placed: usize,
}

impl GreedyCover {
    pub(super) fn new() -> Self {
        GreedyCover {
            groups: [[0; LOOKAHEAD_FITS]; LOOKAHEAD_LEVELS],
            sizes: [0; LOOKAHEAD_LEVELS],
            used: 0,
            placed: 0,
        }
    }

    /// Whether the greedy cover of `fits` (those of the last call and more) needs at most
    /// `most` groups (at most `LOOKAHEAD_LEVELS`): then no more than `most` of them fit
    /// beside each other.
    fn at_most<F: Copy>(&mut self, fits: &[F], most: usize, meets: impl Fn(F, F) -> bool) -> bool {
        if self.used > most {
            return false;
        }
        while let Some(&fit) = fits.get(self.placed) {
            let k = self.placed;
            let joins = (0..self.used).find(|&g| {
                self.groups[g][..self.sizes[g]]
                    .iter()
                    .all(|&m| meets(fits[m as usize], fit))
            });
            match joins {
                Some(g) => {
                    self.groups[g][self.sizes[g]] = k as u8;
                    self.sizes[g] += 1;
                }
                None if self.used == most => return false,
                None => {
                    self.groups[self.used][0] = k as u8;
                    self.sizes[self.used] = 1;
                    self.used += 1;
                }
            }
            self.placed += 1;
        }
        true
    }

    /// The groups in use, each the indices of its fits.
    fn groups(&self) -> impl Iterator<Item = &[u8]> {
        self.groups[..self.used]
            .iter()
            .zip(&self.sizes)
            .map(|(group, &size)| &group[..size])
    }
}

/// Whether `need` more of `fits` (first cells ascending) fit beside each other and beside
/// the `depth` already `chosen` (whose first cells come no later), no two of them such that
/// `meets`.
fn independent<F: Copy>(
    fits: &[F],
    chosen: &mut [F],
    depth: usize,
    need: usize,
    meets: &impl Fn(F, F) -> bool,
) -> bool {
    if need == 0 {
        return true;
    }
    for (k, &fit) in fits.iter().enumerate() {
        if fits.len() - k < need {
            return false;
        }
        if chosen[..depth].iter().all(|&earlier| !meets(earlier, fit)) {
            chosen[depth] = fit;
            if independent(&fits[k + 1..], chosen, depth + 1, need - 1, meets) {
                return true;
            }
        }
    }
    false
}

/// The fits and groups of a lookahead cut as the search-written proof makes it
/// ([`Engine::lookahead_cover`]).
pub(super) struct Cover<W> {
    /// The placements fitting the window that start before the level's `D_k`.
    fits: Vec<Fit<W>>,
    /// The greedy cover of `fits` (the doll's), its groups kept for the proof.
    greedy: GreedyCover,
}

impl<W: Window> Default for Cover<W> {
    fn default() -> Self {
        Cover {
            fits: Vec::new(),
            greedy: GreedyCover::new(),
        }
    }
}

impl<W: Window> Cover<W> {
    /// After a cut: the groups of two placements or more, each as (offset of the first
    /// cell from `q`, kept placement) per member, offsets ascending, one after another in
    /// `members` (cleared first), group `g` ending before `ends[g]` (buffers the caller
    /// keeps: a proof cuts millions of times).
    pub(super) fn groups_into(&self, members: &mut Vec<(u32, u32)>, ends: &mut Vec<usize>) {
        members.clear();
        ends.clear();
        for group in self.greedy.groups().filter(|g| g.len() >= 2) {
            members.extend(
                group
                    .iter()
                    .map(|&m| (self.fits[m as usize].0, self.fits[m as usize].2)),
            );
            ends.push(members.len());
        }
    }

    /// Whether a greedy cover of the fits by groups of pairwise overlapping placements
    /// needs at most `most` groups (as [`GreedyCover::at_most`], the groups kept; the
    /// fits of the last call and more).
    fn cover_at_most(&mut self, most: usize, meets: impl Fn(Fit<W>, Fit<W>) -> bool) -> bool {
        self.greedy.at_most(&self.fits, most, meets)
    }
}

impl<W: Window> Engine<'_, W> {
    /// Hands `take` every placement that fits the window and starts at a cell from `q +
    /// *j` up to (not including) `until`, as `(offset of its first cell from q, its mask
    /// there, its index)`, moving `*j` and `*window` on to `until` (covered cells start
    /// none, and may take `*j` past it); false as soon as `take` refuses one (no room).
    /// Shared by the doll's lookahead and the proof's, so both collect the same fits.
    #[inline(always)]
    pub(super) fn collect_fits(
        &self,
        q: usize,
        until: usize,
        (j, window): (&mut usize, &mut W),
        mut take: impl FnMut(u32, W, usize) -> bool,
    ) -> bool {
        while q + *j < until {
            let covered = window.trailing_ones();
            if covered > 0 {
                *j += covered as usize;
                *window = window.shr(covered);
                continue;
            }
            let at = q + *j;
            for i in self.prep.starts[at] as usize..self.prep.starts[at + 1] as usize {
                let mask = self.masks[i];
                if !window.overlaps(mask) && !take(*j as u32, mask, i) {
                    return false;
                }
            }
            *j += 1;
            *window = window.shr(1);
        }
        true
    }
}

impl<W: Window> Engine<'_, W> {
    /// The lookahead cut as the search-written proof makes it (see
    /// [`Engine::lookahead_cuts`]): the first level that cuts, with at most `k - 1 - slack`
    /// groups of pairwise overlapping fits (left in `cover`), and its `D_k`. The exact
    /// search for three or more independent placements is not used (the proof would need a
    /// case split); for a pair the cover is exact (one group: the fits pairwise overlap).
    pub(super) fn lookahead_cover(
        &self,
        q: usize,
        mut window: W,
        drops: &[u32],
        slack: usize,
        cover: &mut Cover<W>,
    ) -> Option<usize> {
        cover.fits.clear();
        cover.greedy = GreedyCover::new();
        let mut first_fit = FirstFit::new((0, W::empty(), 0));
        let meets = |a: Fit<W>, b: Fit<W>| self.meets(a, b);
        let mut j = 0usize;
        for (level, &d) in drops.iter().enumerate() {
            if d == u32::MAX {
                return None;
            }
            let room =
                self.collect_fits(q, d as usize, (&mut j, &mut window), |offset, mask, i| {
                    if cover.fits.len() == LOOKAHEAD_FITS {
                        return false;
                    }
                    cover.fits.push((offset, mask, i as u32));
                    true
                });
            if !room {
                return None;
            }
            let need = match (level + 2).checked_sub(slack) {
                Some(need) if need >= 2 => need,
                _ => continue,
            };
            if first_fit.reaches(&cover.fits, need, meets) {
                continue;
            }
            if cover.cover_at_most(need - 1, meets) {
                return Some(d as usize);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cover of the fits `(offset, mask)`, placement `k` for the `k`-th.
    fn cover(fits: &[(u32, u64)]) -> Cover<u64> {
        Cover {
            fits: (0..)
                .zip(fits)
                .map(|(k, &(j, mask))| (j, mask, k))
                .collect(),
            ..Cover::default()
        }
    }

    /// Whether two fits share a cell, by their masks.
    fn by_masks<F: Into<(u32, u64, u32)>>(a: F, b: F) -> bool {
        let ((j1, m1, _), (j, m, _)) = (a.into(), b.into());
        share_a_cell((j1, m1), (j, m))
    }

    #[test]
    fn the_proofs_cover_keeps_pairwise_overlapping_groups() {
        // Dominoes along a row: cells 0-1, 1-2 and 2-3 (offsets 0, 1, 2), then 5-6.
        let mut fits = cover(&[(0, 0b11), (1, 0b11), (2, 0b11), (5, 0b11)]);
        // 0-1 and 1-2 overlap, 2-3 meets 1-2 but not 0-1: three groups in all.
        assert!(!fits.cover_at_most(2, by_masks));
        assert!(fits.cover_at_most(3, by_masks));
        let (mut members, mut ends) = (vec![(9, 9)], vec![7]);
        fits.groups_into(&mut members, &mut ends);
        // Only the groups of two or more are named (one alone needs no "at most one").
        assert_eq!((members, ends), (vec![(0, 0), (1, 1)], vec![2]));
        // Three that pairwise overlap with no cell in common (cells 0-1, 1-2 and 0-2 as
        // masks from offset 0): one group, as the doll's cover makes it.
        let mut fits = cover(&[(0, 0b011), (0, 0b110), (0, 0b101)]);
        assert!(fits.cover_at_most(1, by_masks));
        let (mut members, mut ends) = (Vec::new(), Vec::new());
        fits.groups_into(&mut members, &mut ends);
        assert_eq!(ends, vec![3]);
        assert!(GreedyCover::new().at_most(&fits.fits, 1, by_masks));
    }

    /// Fits along a row of 14 cells, as (offset, mask): dominoes, trominoes and single
    /// cells, some overlapping.
    fn row_of_fits() -> Vec<(u32, u64, u32)> {
        let mut fits = Vec::new();
        for j in 0..12u32 {
            fits.push((j, [0b11, 0b111, 0b1][j as usize % 3], fits.len() as u32));
            if j % 4 == 1 {
                fits.push((j, 0b101, fits.len() as u32));
            }
        }
        fits
    }

    #[test]
    fn the_cover_and_the_first_fit_go_on_from_level_to_level_as_if_started_over() {
        let fits = row_of_fits();
        // Levels with growing fits and growing needs, as a lookahead tries them.
        let levels = [(4, 2), (7, 3), (9, 5), (11, 6), (fits.len(), 6)];
        let (mut cover, mut first_fit) = (GreedyCover::new(), FirstFit::new(fits[0]));
        let mut answers = Vec::new();
        for (count, most) in levels {
            let within = &fits[..count];
            let mut fresh = GreedyCover::new();
            let expected = fresh.at_most(within, most, by_masks);
            answers.push(expected);
            assert_eq!(
                cover.at_most(within, most, by_masks),
                expected,
                "{count} fits, {most} groups"
            );
            if expected {
                assert!(cover.groups().eq(fresh.groups()), "{count} fits");
            }
            let need = most + 1;
            assert_eq!(
                first_fit.reaches(within, need, by_masks),
                FirstFit::new(fits[0]).reaches(within, need, by_masks),
                "{count} fits, {need} needed"
            );
        }
        // Covers that fit, one that does not, then ones that fit with more groups allowed.
        assert_eq!(answers, [true, false, true, true, false]);
        // A cover that needed more groups than a later call allows refuses it.
        assert!(!cover.at_most(&fits, 1, by_masks));
    }
}
