//! Improving a packing by re-solving windows of it exactly: a large-neighbourhood search.
//!
//! The Russian doll proves optima from the last scan row back, so a run stopped by its time
//! limit on a large box holds a good bound but often a weak packing (its packings come from
//! the rows it decided). This search takes a packing and, round after round, picks a square
//! window of the box at random, lifts every piece that touches the window, and packs the
//! freed cells again as densely as possible by the Russian doll itself (the pieces kept
//! block their cells, and their counts are taken off the pieces' maximums); the new packing
//! replaces the old one when it has at least as many pieces (equal moves let the search
//! drift across plateaus); the placements are shuffled each round so that equal moves differ.
//! Each round's re-packing is exact, so a round either gains or shows that no packing of its
//! freed cells holds more. A heuristic: it proves nothing about the whole box.
//!
//! Measured on crosses (release build, `solve --time-limit 2`, so 0.1 s of this search after
//! the stopped doll): 18 x 18 25, 18 x 20 29, 20 x 20 32, where the Russian doll's own
//! packings after 7 minutes were 24, 28 and 32 (docs/packing-optima.md).
//!
//! # References
//! - P. Shaw, "Using constraint programming and local search methods to solve vehicle
//!   routing problems", CP 1998: large-neighbourhood search, destroy and repair with an
//!   exact method.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::russian_doll::{self, DollError, DollOptions};
use crate::geometry::placements::{PackingInstance, PieceLimit};

/// Options of [`improve`].
#[derive(Clone, Copy, Debug)]
pub struct NeighbourhoodOptions<'a> {
    /// Side of the square window whose touching pieces are lifted, at first and after each
    /// gain (clipped to the box).
    pub min_window: usize,
    /// The window widens by one after about as many rounds without a gain as it has
    /// positions, up to this side, then starts small again: small windows are re-solved in
    /// microseconds, wide ones escape what small ones cannot.
    pub max_window: usize,
    /// Seed of the window choices: the same seed gives the same rounds.
    pub seed: u64,
    /// At most this many rounds (`None`: until stopped).
    pub rounds: Option<u64>,
    /// Stop as soon as the packing has this many pieces (a known upper bound, or the count
    /// asked for).
    pub target: Option<usize>,
    /// Raised by another thread to stop; the best packing so far is returned.
    pub stop: Option<&'a AtomicBool>,
    /// Stop at this instant; the best packing so far is returned.
    pub deadline: Option<Instant>,
}

impl Default for NeighbourhoodOptions<'_> {
    fn default() -> Self {
        NeighbourhoodOptions {
            min_window: 4,
            max_window: 8,
            seed: 1,
            rounds: None,
            target: None,
            stop: None,
            deadline: None,
        }
    }
}

/// Result of [`improve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NeighbourhoodOutcome {
    /// Placement indices (into the instance's `placements`) of the best packing.
    pub best: Vec<usize>,
    /// Pieces in the packing given.
    pub start: usize,
    /// Rounds run (windows re-solved in full).
    pub rounds: u64,
    /// Rounds that gained a piece.
    pub gains: u64,
}

/// Improves the packing `start` (placement indices, pairwise disjoint, within the pieces'
/// maximums; refused otherwise) of an instance the Russian doll accepts (no piece minimums),
/// until `options` stop it.
///
/// The packing is first filled greedily (every placement that still fits, in index order);
/// then each round re-packs one window exactly. The result is a packing of the instance
/// with at least as many pieces as `start`.
pub fn improve(
    instance: &PackingInstance,
    start: &[usize],
    options: &NeighbourhoodOptions<'_>,
) -> Result<NeighbourhoodOutcome, DollError> {
    // The doll's own checks (sizes, cells, minimums) before the greedy fill indexes cells.
    russian_doll::validate(instance)?;
    if let Err(why) = instance.check_packing(start) {
        return Err(DollError::Invalid(format!("the packing to improve: {why}")));
    }
    let (width, height) = (instance.width, instance.height);
    let mut current = start.to_vec();
    fill_greedily(instance, &mut current);
    let mut outcome = NeighbourhoodOutcome {
        best: current.clone(),
        start: start.len(),
        rounds: 0,
        gains: 0,
    };
    let mut random = SplitMix64(options.seed);
    let stopped = || {
        options.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || options.deadline.is_some_and(|d| Instant::now() >= d)
    };
    let reached = |len: usize| options.target.is_some_and(|t| len >= t);
    let largest = options.max_window.clamp(1, width.max(height).max(1));
    let smallest = options.min_window.clamp(1, largest);
    let mut side = smallest;
    let mut idle = 0;
    while !reached(current.len())
        && options.rounds.is_none_or(|r| outcome.rounds < r)
        && !stopped()
        && !instance.placements.is_empty()
    {
        let (side_x, side_y) = (side.min(width), side.min(height));
        // Once about as many rounds as the window has positions gained nothing, widen it;
        // past the widest, start small again (the equal moves have changed the packing).
        let positions = (width - side_x + 1) * (height - side_y + 1);
        if idle > positions {
            idle = 0;
            side = if side >= largest { smallest } else { side + 1 };
            continue;
        }
        let x0 = random.below(width - side_x + 1);
        let y0 = random.below(height - side_y + 1);
        let in_window = |cell: usize| {
            let (x, y) = (cell % width, cell / width);
            (x0..x0 + side_x).contains(&x) && (y0..y0 + side_y).contains(&y)
        };
        let (lifted, kept): (Vec<usize>, Vec<usize>) = current
            .iter()
            .partition(|&&p| instance.placements[p].cells.iter().any(|&c| in_window(c)));
        let (sub, back) = without(instance, &kept, &mut random);
        let doll = DollOptions {
            // Few free cells: a small memo (the default one's pages would cost more than
            // the search), one thread.
            memo_log2: 14,
            threads: 1,
            stop: options.stop,
            deadline: options.deadline,
            ..DollOptions::default()
        };
        let repacked = russian_doll::solve(&sub, &doll, |_, _| {})?;
        if !repacked.proved {
            break;
        }
        outcome.rounds += 1;
        idle += 1;
        if repacked.best.len() >= lifted.len() {
            let gained = repacked.best.len() > lifted.len();
            current = kept;
            current.extend(repacked.best.iter().map(|&p| back[p]));
            if gained {
                idle = 0;
                side = smallest;
                outcome.gains += 1;
                outcome.best = current.clone();
            }
        }
    }
    outcome.best.sort_unstable();
    Ok(outcome)
}

/// Adds every placement that fits beside `packing` and the pieces' maximums, in index order.
fn fill_greedily(instance: &PackingInstance, packing: &mut Vec<usize>) {
    let mut covered = vec![false; instance.width * instance.height];
    let mut used = vec![0usize; instance.pieces.len()];
    for &p in packing.iter() {
        let placement = &instance.placements[p];
        used[placement.piece] += 1;
        for &c in &placement.cells {
            covered[c] = true;
        }
    }
    for (p, placement) in instance.placements.iter().enumerate() {
        let room = instance.pieces[placement.piece]
            .max
            .is_none_or(|m| used[placement.piece] < m);
        if room && placement.cells.iter().all(|&c| !covered[c]) {
            used[placement.piece] += 1;
            for &c in &placement.cells {
                covered[c] = true;
            }
            packing.push(p);
        }
    }
}

/// The instance with the cells of the placements `kept` blocked and their pieces' maximums
/// lowered by their use there; also, per placement of it, its index in `instance`.
fn without(
    instance: &PackingInstance,
    kept: &[usize],
    random: &mut SplitMix64,
) -> (PackingInstance, Vec<usize>) {
    let mut blocked = instance.blocked.clone();
    let mut pieces = instance.pieces.clone();
    for &p in kept {
        let placement = &instance.placements[p];
        for &c in &placement.cells {
            blocked[c] = true;
        }
        let limit = &mut pieces[placement.piece];
        *limit = PieceLimit {
            min: 0,
            max: limit.max.map(|m| m.saturating_sub(1)),
        };
    }
    let mut back: Vec<usize> = (0..instance.placements.len())
        .filter(|&i| instance.placements[i].cells.iter().all(|&c| !blocked[c]))
        .collect();
    // The doll tries a cell's placements in order, so among equally large re-packings it
    // returns the first; shuffled, equal moves wander instead of returning the same one.
    for i in (1..back.len()).rev() {
        back.swap(i, random.below(i + 1));
    }
    let placements = back
        .iter()
        .map(|&i| instance.placements[i].clone())
        .collect();
    let sub = PackingInstance {
        width: instance.width,
        height: instance.height,
        blocked,
        placements,
        pieces,
    };
    (sub, back)
}

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014): a small, seedable generator, enough to pick windows.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n >= 1`), by rejection of the biased top.
    fn below(&mut self, n: usize) -> usize {
        let n = n as u64;
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let v = self.next();
            if v < zone {
                return (v % n) as usize;
            }
        }
    }
}
