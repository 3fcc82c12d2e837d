//! Lower bounds on the pieces still needed to guard the unguarded squares `unguarded`
//! when only the squares `allowed` may take a piece, and the upper bound on independent
//! pieces from a cover of the candidates by cliques of the attack graph.

use super::bitset::{self, Neighbourhoods};

/// Scratch space for the bounds, reused from node to node.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    /// Squares already claimed by a chosen square or clique.
    used: Vec<u64>,
    /// Candidates of the clique being grown.
    candidates: Vec<u64>,
    /// The largest gains seen, in decreasing order.
    gains: Vec<usize>,
    /// The fractional bound's weight of each unguarded square, in its order.
    weight: Vec<u32>,
    /// The fractional bound's load of each square.
    load: Vec<u32>,
    /// The largest loads seen, in decreasing order.
    top: Vec<u32>,
}

impl Scratch {
    /// Scratch for sets of `words` words.
    pub(crate) fn new(words: usize) -> Scratch {
        Scratch {
            used: vec![0; words],
            candidates: vec![0; words],
            ..Scratch::default()
        }
    }
}

/// The disjoint-squares bound: squares of `unguarded`, taken in the order `order`, whose
/// allowed guards meet none of the earlier taken squares' allowed guards. No piece guards
/// two of them, so each needs its own. Stops counting past `enough`.
pub(crate) fn disjoint_squares(
    near: &Neighbourhoods,
    order: impl Iterator<Item = usize>,
    allowed: &[u64],
    enough: usize,
    scratch: &mut Scratch,
) -> usize {
    scratch.used.fill(0);
    let mut taken = 0;
    for s in order {
        if !near.meets_within(s, allowed, &scratch.used) {
            near.add_within(s, allowed, &mut scratch.used);
            taken += 1;
            if taken > enough {
                break;
            }
        }
    }
    taken
}

/// Each allowed square's gain: how many unguarded squares it guards (0 for the others).
pub(crate) fn gains(near: &Neighbourhoods, unguarded: &[u64], allowed: &[u64], gain: &mut [usize]) {
    gain.fill(0);
    for c in bitset::ones(allowed) {
        gain[c] = near.count_in(c, unguarded);
    }
}

/// The coverage bound: the fewest pieces whose largest gains add up to the unguarded
/// count, looking at no more than `enough + 1` pieces (past `enough`, `enough + 1` is
/// returned).
pub(crate) fn coverage(
    gain: &[usize],
    allowed: &[u64],
    need: usize,
    enough: usize,
    scratch: &mut Scratch,
) -> usize {
    if need == 0 {
        return 0;
    }
    let keep = enough + 1;
    let top = &mut scratch.gains;
    largest(bitset::ones(allowed).map(|c| gain[c]), keep, top);
    let mut sum = 0;
    for (k, &gain) in top.iter().enumerate() {
        sum += gain;
        if sum >= need {
            return k + 1;
        }
    }
    keep
}

/// The scale of the fractional bound's weights: a piece's load is at most this much.
const UNIT: u32 = 1 << 20;

/// The fractional bound: a weight on each unguarded square, and the fewest pieces whose
/// loads (the weight a piece's square guards) add up to the total weight, looking at no
/// more than `enough + 1` pieces. Any weights give a bound: pieces that guard every
/// unguarded square carry its weight at least once, so their loads add up to the total.
/// The weights start at one over the largest gain (a solution of the covering program's
/// dual: no load above 1) and are then raised, square by square in the order `order`
/// (fewest guards first), by the least slack of their guards (dual ascent), which on the
/// queen's graph closes most of the gap to the linear program. Weights are whole
/// multiples of 1 / [`UNIT`], so the sums are exact. `gain` is as [`gains`] leaves it: 0
/// for every square that is not allowed.
pub(crate) fn fractional(
    near: &Neighbourhoods,
    order: impl Iterator<Item = usize>,
    allowed: &[u64],
    gain: &[usize],
    enough: usize,
    scratch: &mut Scratch,
) -> usize {
    let Scratch {
        weight, load, top, ..
    } = scratch;
    // Every weight starts at one over the largest gain: no load is above 1. (A square
    // that is not allowed has no gain.)
    let most = gain.iter().copied().max().unwrap_or(0);
    if most == 0 {
        return usize::MAX;
    }
    let start = UNIT / most as u32;
    load.clear();
    load.extend(gain.iter().map(|&g| g as u32 * start));
    weight.clear();
    for u in order {
        let mut w = start;
        // A guard with a gain is allowed (it guards `u`, which is unguarded), and only
        // such guards ever have a load (at least `start`): the fullest guard of `u` is
        // the fullest of all its squares, and none has a load when none may guard it.
        let fullest = near
            .list(u)
            .iter()
            .map(|&c| load[c as usize])
            .max()
            .unwrap_or(0);
        if fullest == 0 {
            return usize::MAX;
        }
        let slack = UNIT.saturating_sub(fullest);
        if slack > 0 {
            w += slack;
            for &c in near.list(u) {
                if gain[c as usize] > 0 {
                    load[c as usize] += slack;
                }
            }
        }
        weight.push(w);
    }
    if weight.is_empty() {
        return 0;
    }
    let total: u64 = weight.iter().map(|&w| u64::from(w)).sum();
    let keep = enough + 1;
    largest(bitset::ones(allowed).map(|c| load[c]), keep, top);
    let mut sum = 0u64;
    for (k, &l) in top.iter().enumerate() {
        sum += u64::from(l);
        if sum >= total {
            return k + 1;
        }
    }
    keep
}

/// The `keep` largest of `values` into `top`, in decreasing order (by selection: the
/// pieces left can be many, knights' thirty).
fn largest<T: Copy + Ord>(values: impl Iterator<Item = T>, keep: usize, top: &mut Vec<T>) {
    top.clear();
    top.extend(values);
    if top.len() > keep {
        top.select_nth_unstable_by(keep - 1, |a, b| b.cmp(a));
        top.truncate(keep);
    }
    top.sort_unstable_by(|a, b| b.cmp(a));
}

/// After [`fractional`] has left a node open with `left` pieces to place: the allowed
/// squares no such placement can use, pushed onto `out`. The pieces' loads must add up to
/// the total weight, so a square whose load, with the `left - 1` largest loads, falls
/// short of it is in none (reduced-cost fixing, read off the same weights).
pub(crate) fn needless(allowed: &[u64], left: usize, scratch: &Scratch, out: &mut Vec<usize>) {
    let total: u64 = scratch.weight.iter().map(|&w| u64::from(w)).sum();
    let others: u64 = scratch
        .top
        .iter()
        .take(left - 1)
        .map(|&l| u64::from(l))
        .sum();
    let Some(least) = total.checked_sub(others) else {
        return;
    };
    out.extend(bitset::ones(allowed).filter(|&c| u64::from(scratch.load[c]) < least));
}

/// A greedy cover of `candidates` by cliques of the attack graph (sets of squares that
/// pairwise attack each other): independent pieces take at most one square of each, so
/// the number of cliques bounds how many more fit. Stops counting past `enough`.
pub(crate) fn clique_cover(
    near: &Neighbourhoods,
    candidates: &[u64],
    enough: usize,
    scratch: &mut Scratch,
) -> usize {
    let Scratch {
        used,
        candidates: grow,
        ..
    } = scratch;
    used.copy_from_slice(candidates);
    let mut cliques = 0;
    // The lowest remaining square starts each clique; the lowest common neighbour joins it
    // next, which on grids gathers rows, diagonals and 2 x 2 blocks.
    while let Some(v) = bitset::first(used) {
        bitset::remove(used, v);
        cliques += 1;
        if cliques > enough {
            break;
        }
        for ((g, &r), &u) in grow.iter_mut().zip(near.set(v)).zip(used.iter()) {
            *g = r & u;
        }
        while let Some(u) = bitset::first(grow) {
            bitset::remove(used, u);
            let row = near.set(u);
            for (g, &r) in grow.iter_mut().zip(row) {
                *g &= r;
            }
            bitset::remove(grow, u);
        }
    }
    cliques
}
