//! Large neighbourhood search for big packings: keep a packing, free a window of the board,
//! re-solve the window exactly with a small bitboard branch and bound, and keep the result
//! when it places at least as many pieces as before (ties let the packing drift).
//!
//! This finds good packings fast where exhaustive branch and bound cannot (the 13 x 19 cross
//! box: 19 crosses in seconds), but it proves nothing: the optimality of what it finds must
//! come from elsewhere. Every packing it returns has passed [`PackingInstance::check_packing`].

use crate::geometry::placements::PackingInstance;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A small, fast, seedable generator (SplitMix64); the search needs no cryptographic quality
/// and the crate keeps `rand` as a dev-dependency only.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Options of [`search`].
#[derive(Clone, Copy, Debug)]
pub struct LnsOptions<'a> {
    /// Stop as soon as a packing with this many pieces is found.
    pub target: Option<usize>,
    /// Seed of the random choices (windows, orders): the same seed gives the same run.
    pub seed: u64,
    /// Raised by another thread (e.g. Ctrl-C) to stop.
    pub stop: Option<&'a AtomicBool>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Largest window, in cells (at most 128).
    pub max_window_cells: usize,
    /// Node limit of one window's exact search (a cut-off search still offers its best).
    pub window_nodes: u64,
    /// Stop after this many windows in a row without an improvement.
    pub stall_windows: Option<u64>,
}

impl Default for LnsOptions<'_> {
    fn default() -> Self {
        LnsOptions {
            target: None,
            seed: 1,
            stop: None,
            deadline: None,
            max_window_cells: 96,
            window_nodes: 20_000,
            stall_windows: None,
        }
    }
}

/// What [`search`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LnsOutcome {
    /// Placement indices of the best packing found (verified).
    pub best: Vec<usize>,
    /// Windows re-solved.
    pub windows: u64,
    /// Nodes of the window searches, in all.
    pub nodes: u64,
}

/// Searches for a packing with as many pieces as possible, starting from `start` (placement
/// indices, e.g. empty), until `options.target` is reached, the deadline passes or the stop
/// flag is raised. `progress(best, elapsed)` is called on every improvement. Piece minimums
/// are ignored (the caller checks them); piece maximums are respected.
pub fn search(
    instance: &PackingInstance,
    start: &[usize],
    options: &LnsOptions<'_>,
    mut progress: impl FnMut(usize, Duration),
) -> LnsOutcome {
    let started = Instant::now();
    let (w, h) = (instance.width, instance.height);
    let cells = w * h;
    // owner[c]: index into `current` of the placement covering c, or NONE.
    const NONE: u32 = u32::MAX;
    let mut current: Vec<usize> = start.to_vec();
    let mut owner = vec![NONE; cells];
    for (k, &p) in current.iter().enumerate() {
        for &c in &instance.placements[p].cells {
            owner[c] = k as u32;
        }
    }
    let mut used = vec![0usize; instance.pieces.len()];
    for &p in &current {
        used[instance.placements[p].piece] += 1;
    }
    // Per cell, the placements whose top-left-most cell (smallest index) it is: a window
    // only considers placements that start inside it.
    let mut starting: Vec<Vec<u32>> = vec![Vec::new(); cells];
    for (i, p) in instance.placements.iter().enumerate() {
        if instance.pieces[p.piece].max != Some(0) {
            starting[p.cells[0]].push(i as u32);
        }
    }
    let min_size = instance
        .placements
        .iter()
        .map(|p| p.cells.len())
        .min()
        .unwrap_or(1);
    let mut rng = SplitMix64::new(options.seed);
    let mut best = current.clone();
    let mut windows = 0u64;
    let mut last_improvement = 0u64;
    let mut nodes = 0u64;
    let max_cells = options.max_window_cells.clamp(1, 128);
    let mut solver = WindowSolver::default();
    loop {
        if options.target.is_some_and(|t| best.len() >= t)
            || options.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || options.deadline.is_some_and(|d| Instant::now() >= d)
            || instance.placements.is_empty()
            || options
                .stall_windows
                .is_some_and(|s| windows - last_improvement >= s)
        {
            break;
        }
        windows += 1;
        // A random window: width from 4 to the board's width, height as large as the cell
        // budget allows (at least 4), clipped to the board.
        let ww = (4 + rng.below(w.max(4) - 3)).min(w);
        let wh_max = (max_cells / ww).clamp(1, h);
        let wh = (wh_max.min(4) + rng.below(wh_max.saturating_sub(4) + 1)).min(h);
        let x0 = rng.below(w - ww + 1);
        let y0 = rng.below(h - wh + 1);
        let inside = |c: usize| {
            let (x, y) = (c % w, c / w);
            x >= x0 && x < x0 + ww && y >= y0 && y < y0 + wh
        };
        // Remove the pieces lying wholly inside the window.
        let removed: Vec<usize> = (0..current.len())
            .filter(|&k| {
                instance.placements[current[k]]
                    .cells
                    .iter()
                    .all(|&c| inside(c))
            })
            .collect();
        let mut free_cells: Vec<usize> = Vec::new();
        for y in y0..y0 + wh {
            for x in x0..x0 + ww {
                let c = y * w + x;
                let o = owner[c];
                if !instance.blocked[c] && (o == NONE || removed.contains(&(o as usize))) {
                    free_cells.push(c);
                }
            }
        }
        if free_cells.len() < min_size {
            continue;
        }
        let mut remaining: Vec<usize> = instance
            .pieces
            .iter()
            .zip(&used)
            .map(|(l, &n)| l.max.map_or(usize::MAX, |m| m.saturating_sub(n)))
            .collect();
        for &k in &removed {
            let piece = instance.placements[current[k]].piece;
            remaining[piece] = remaining[piece].saturating_add(1);
        }
        // Local bit numbering: a random one of four scan orders, for variety.
        let order = rng.below(4);
        let mut keyed: Vec<(usize, usize)> = free_cells
            .iter()
            .map(|&c| {
                let (x, y) = (c % w, c / w);
                let key = match order {
                    0 => y * w + x,
                    1 => x * h + y,
                    2 => (h - 1 - y) * w + (w - 1 - x),
                    _ => (w - 1 - x) * h + (h - 1 - y),
                };
                (key, c)
            })
            .collect();
        keyed.sort_unstable();
        let mut local = vec![u8::MAX; cells];
        for (bit, &(_, c)) in keyed.iter().enumerate() {
            local[c] = bit as u8;
        }
        solver.reset(keyed.len());
        for &c in &free_cells {
            for &p in &starting[c] {
                let placement = &instance.placements[p as usize];
                if remaining[placement.piece] == 0 {
                    continue;
                }
                let mut mask = 0u128;
                let mut fits = true;
                for &d in &placement.cells {
                    if local[d] == u8::MAX {
                        fits = false;
                        break;
                    }
                    mask |= 1u128 << local[d];
                }
                if fits {
                    solver.add(mask, p, placement.piece);
                }
            }
        }
        solver.shuffle(&mut rng);
        let found = solver.solve(
            &mut remaining,
            min_size,
            removed.len(),
            options.window_nodes,
        );
        nodes += solver.nodes;
        let Some(found) = found else {
            continue;
        };
        // Replace the removed pieces by the window's packing.
        let mut next: Vec<usize> = (0..current.len())
            .filter(|k| !removed.contains(k))
            .map(|k| current[k])
            .collect();
        next.extend(found.iter().map(|&p| p as usize));
        owner.iter_mut().for_each(|o| *o = NONE);
        used.iter_mut().for_each(|u| *u = 0);
        for (k, &p) in next.iter().enumerate() {
            for &c in &instance.placements[p].cells {
                debug_assert_eq!(owner[c], NONE, "window packing overlaps");
                owner[c] = k as u32;
            }
            used[instance.placements[p].piece] += 1;
        }
        current = next;
        if current.len() > best.len() {
            best = current.clone();
            last_improvement = windows;
            progress(best.len(), started.elapsed());
        }
    }
    // A from-scratch check: a failure here is a bug in the search, never a packing to print.
    if let Err(e) = instance.check_packing_limits_max(&best) {
        panic!("large neighbourhood search built an invalid packing: {e}");
    }
    LnsOutcome {
        best,
        windows,
        nodes,
    }
}

/// Exact maximum packing of a window of at most 128 cells, as a bitboard branch and bound
/// over the window's cells in their local order: at the first undecided cell, try every
/// placement starting there, then leaving it empty.
#[derive(Default)]
struct WindowSolver {
    /// Per local bit, the placements whose lowest bit it is: (mask, placement, piece).
    starting: Vec<Vec<(u128, u32, usize)>>,
    chosen: Vec<u32>,
    best: Vec<u32>,
    best_len: usize,
    nodes: u64,
    node_limit: u64,
    min_size: u32,
}

impl WindowSolver {
    fn reset(&mut self, bits: usize) {
        self.starting.iter_mut().for_each(Vec::clear);
        self.starting.resize(bits, Vec::new());
        self.starting.truncate(bits);
    }

    fn add(&mut self, mask: u128, placement: u32, piece: usize) {
        self.starting[mask.trailing_zeros() as usize].push((mask, placement, piece));
    }

    fn shuffle(&mut self, rng: &mut SplitMix64) {
        for list in &mut self.starting {
            for i in (1..list.len()).rev() {
                list.swap(i, rng.below(i + 1));
            }
        }
    }

    /// The best packing of at least `at_least` pieces within the node limit, if any.
    fn solve(
        &mut self,
        remaining: &mut [usize],
        min_size: usize,
        at_least: usize,
        node_limit: u64,
    ) -> Option<Vec<u32>> {
        let bits = self.starting.len();
        let all = if bits == 128 {
            u128::MAX
        } else {
            (1u128 << bits) - 1
        };
        self.chosen.clear();
        self.best.clear();
        // Ask for at least `at_least`: anything fewer is never kept.
        self.best_len = at_least;
        let mut have = false;
        self.nodes = 0;
        self.node_limit = node_limit;
        self.min_size = min_size as u32;
        self.dfs(all, remaining, &mut have);
        have.then(|| self.best.clone())
    }

    fn dfs(&mut self, undecided: u128, remaining: &mut [usize], have: &mut bool) {
        self.nodes += 1;
        let placed = self.chosen.len();
        if placed >= self.best_len && (!*have || placed > self.best_len) {
            self.best_len = placed;
            self.best.clone_from(&self.chosen);
            *have = true;
        }
        // Area bound: to be worth exploring the node must be able to beat the best (or, before
        // any answer, to reach it).
        let bound = placed + (undecided.count_ones() / self.min_size) as usize;
        let needed = if *have {
            self.best_len + 1
        } else {
            self.best_len
        };
        if bound < needed || undecided == 0 || self.nodes > self.node_limit {
            return;
        }
        let b = undecided.trailing_zeros() as usize;
        for k in 0..self.starting[b].len() {
            let (mask, placement, piece) = self.starting[b][k];
            if mask & !undecided != 0 || remaining[piece] == 0 {
                continue;
            }
            remaining[piece] -= 1;
            self.chosen.push(placement);
            self.dfs(undecided & !mask, remaining, have);
            self.chosen.pop();
            remaining[piece] += 1;
        }
        self.dfs(undecided & !(1u128 << b), remaining, have);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::placements::{orientations, PieceLimit};
    use crate::geometry::shapes::picture_cells as shape;

    #[test]
    fn dominoes_fill_a_small_box() {
        // 4 x 3 holds 6 dominoes; the search must find them.
        let pieces = vec![(
            orientations(&shape("##"), true, false),
            PieceLimit::unlimited(),
        )];
        let instance = PackingInstance::from_shapes(4, 3, vec![false; 12], &pieces);
        let options = LnsOptions {
            target: Some(6),
            deadline: Some(Instant::now() + Duration::from_secs(5)),
            ..LnsOptions::default()
        };
        let outcome = search(&instance, &[], &options, |_, _| {});
        assert_eq!(instance.check_packing_limits_max(&outcome.best), Ok(6));
    }

    #[test]
    fn limits_are_respected() {
        let pieces = vec![(
            orientations(&shape("##"), true, false),
            PieceLimit::at_most(2),
        )];
        let instance = PackingInstance::from_shapes(4, 3, vec![false; 12], &pieces);
        let options = LnsOptions {
            deadline: Some(Instant::now() + Duration::from_millis(100)),
            ..LnsOptions::default()
        };
        let outcome = search(&instance, &[], &options, |_, _| {});
        assert_eq!(outcome.best.len(), 2);
    }
}
