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
        let mut fits = [(0u32, W::empty()); LOOKAHEAD_FITS];
        let mut count = 0;
        let mut chosen = [(0u32, W::empty()); LOOKAHEAD_LEVELS + 1];
        let mut j = 0usize;
        for (level, &d) in drops.iter().enumerate() {
            if d == u32::MAX {
                return false;
            }
            // Collect the fits starting before D_k.
            let room =
                self.collect_fits(q, d as usize, (&mut j, &mut window), |offset, mask, _| {
                    if count == LOOKAHEAD_FITS {
                        return false;
                    }
                    fits[count] = (offset, mask);
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
            if need > 2 && first_fit_reaches(within, &mut chosen, need) {
                continue;
            }
            if need > 2 && clique_cover_at_most(within, need - 1) {
                return true;
            }
            if need > 2 && within.len() > LOOKAHEAD_EXACT {
                return false;
            }
            if !independent(within, &mut chosen, 0, need) {
                return true;
            }
        }
        false
    }
}

/// Whether two placements, each `(offset of its first cell from q, mask)`, the first
/// starting no later than the second, share a cell: the first's mask moved to the second's
/// start overlaps it.
#[inline(always)]
fn share_a_cell<W: Window>((j1, m1): (u32, W), (j, mask): (u32, W)) -> bool {
    m1.shr(j - j1).overlaps(mask)
}

/// Whether taking `fits` (first cells ascending) in order, each that fits beside those
/// taken, takes `need` of them (`chosen` is scratch).
fn first_fit_reaches<W: Window>(fits: &[(u32, W)], chosen: &mut [(u32, W)], need: usize) -> bool {
    let mut taken = 0;
    for &(j, mask) in fits {
        if chosen[..taken]
            .iter()
            .all(|&earlier| !share_a_cell(earlier, (j, mask)))
        {
            chosen[taken] = (j, mask);
            taken += 1;
            if taken == need {
                return true;
            }
        }
    }
    false
}

/// Whether a greedy cover of `fits` (first cells ascending) by groups of pairwise
/// overlapping placements needs at most `most` groups: then no more than `most` of them fit
/// beside each other.
fn clique_cover_at_most<W: Window>(fits: &[(u32, W)], most: usize) -> bool {
    let mut groups = [[0u8; LOOKAHEAD_FITS]; LOOKAHEAD_LEVELS];
    let mut sizes = [0usize; LOOKAHEAD_LEVELS];
    let mut used = 0;
    for (k, &(j, mask)) in fits.iter().enumerate() {
        let joins = (0..used).find(|&g| {
            groups[g][..sizes[g]]
                .iter()
                .all(|&m| share_a_cell(fits[m as usize], (j, mask)))
        });
        match joins {
            Some(g) => {
                groups[g][sizes[g]] = k as u8;
                sizes[g] += 1;
            }
            None if used == most => return false,
            None => {
                groups[used][0] = k as u8;
                sizes[used] = 1;
                used += 1;
            }
        }
    }
    true
}

/// Whether `need` more placements of `fits` (first cells ascending, each `(offset, mask)`)
/// fit beside each other and beside the `depth` already `chosen` (whose offsets are at most
/// theirs).
fn independent<W: Window>(
    fits: &[(u32, W)],
    chosen: &mut [(u32, W)],
    depth: usize,
    need: usize,
) -> bool {
    if need == 0 {
        return true;
    }
    for (k, &(j, mask)) in fits.iter().enumerate() {
        if fits.len() - k < need {
            return false;
        }
        if chosen[..depth]
            .iter()
            .all(|&earlier| !share_a_cell(earlier, (j, mask)))
        {
            chosen[depth] = (j, mask);
            if independent(&fits[k + 1..], chosen, depth + 1, need - 1) {
                return true;
            }
        }
    }
    false
}

/// The fits and groups of a lookahead cut as the search-written proof makes it
/// ([`Engine::lookahead_cover`]).
pub(super) struct Cover<W> {
    /// The placements fitting the window that start before the level's `D_k`, as (offset of
    /// the first cell from `q`, mask) and their kept placements.
    fits: Vec<(u32, W)>,
    placements: Vec<u32>,
    /// The groups in use (the first `used`), each the indices of its fits.
    groups: Vec<Vec<u8>>,
    used: usize,
}

impl<W: Window> Default for Cover<W> {
    fn default() -> Self {
        Cover {
            fits: Vec::new(),
            placements: Vec::new(),
            groups: Vec::new(),
            used: 0,
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
        for group in self.groups[..self.used].iter().filter(|g| g.len() >= 2) {
            members.extend(
                group
                    .iter()
                    .map(|&m| (self.fits[m as usize].0, self.placements[m as usize])),
            );
            ends.push(members.len());
        }
    }

    /// Whether a greedy cover of the fits by groups of pairwise overlapping placements
    /// needs at most `most` groups (as [`clique_cover_at_most`], the groups kept).
    fn cover_at_most(&mut self, most: usize) -> bool {
        self.used = 0;
        for (k, &fit) in self.fits.iter().enumerate() {
            let fits = &self.fits;
            let joins = self.groups[..self.used]
                .iter()
                .position(|members| members.iter().all(|&m| share_a_cell(fits[m as usize], fit)));
            match joins {
                Some(g) => self.groups[g].push(k as u8),
                None if self.used == most => return false,
                None => {
                    if self.groups.len() == self.used {
                        self.groups.push(Vec::new());
                    }
                    self.groups[self.used].clear();
                    self.groups[self.used].push(k as u8);
                    self.used += 1;
                }
            }
        }
        true
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
        cover.placements.clear();
        let mut chosen = [(0u32, W::empty()); LOOKAHEAD_LEVELS + 1];
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
                    cover.fits.push((offset, mask));
                    cover.placements.push(i as u32);
                    true
                });
            if !room {
                return None;
            }
            let need = match (level + 2).checked_sub(slack) {
                Some(need) if need >= 2 => need,
                _ => continue,
            };
            if first_fit_reaches(&cover.fits, &mut chosen, need) {
                continue;
            }
            if cover.cover_at_most(need - 1) {
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
            fits: fits.to_vec(),
            placements: (0..fits.len() as u32).collect(),
            ..Cover::default()
        }
    }

    #[test]
    fn the_proofs_cover_keeps_pairwise_overlapping_groups() {
        // Dominoes along a row: cells 0-1, 1-2 and 2-3 (offsets 0, 1, 2), then 5-6.
        let mut fits = cover(&[(0, 0b11), (1, 0b11), (2, 0b11), (5, 0b11)]);
        // 0-1 and 1-2 overlap, 2-3 meets 1-2 but not 0-1: three groups in all.
        assert!(!fits.cover_at_most(2));
        assert!(fits.cover_at_most(3));
        let (mut members, mut ends) = (vec![(9, 9)], vec![7]);
        fits.groups_into(&mut members, &mut ends);
        // Only the groups of two or more are named (one alone needs no "at most one").
        assert_eq!((members, ends), (vec![(0, 0), (1, 1)], vec![2]));
        // Three that pairwise overlap with no cell in common (cells 0-1, 1-2 and 0-2 as
        // masks from offset 0): one group, as the doll's cover makes it.
        let mut fits = cover(&[(0, 0b011), (0, 0b110), (0, 0b101)]);
        assert!(fits.cover_at_most(1));
        let (mut members, mut ends) = (Vec::new(), Vec::new());
        fits.groups_into(&mut members, &mut ends);
        assert_eq!(ends, vec![3]);
        assert_eq!(clique_cover_at_most(&fits.fits, 1), fits.cover_at_most(1));
    }
}
