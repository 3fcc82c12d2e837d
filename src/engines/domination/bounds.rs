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
    weight: Vec<f64>,
    /// The fractional bound's load of each square.
    load: Vec<f64>,
    /// The largest loads seen, in decreasing order.
    top: Vec<f64>,
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
    top.clear();
    for c in bitset::ones(allowed) {
        let gain = gain[c];
        if top.len() == keep && top[keep - 1] >= gain {
            continue;
        }
        let at = top.partition_point(|&g| g >= gain);
        if top.len() == keep {
            top.pop();
        }
        top.insert(at, gain);
    }
    let mut sum = 0;
    for (k, &gain) in top.iter().enumerate() {
        sum += gain;
        if sum >= need {
            return k + 1;
        }
    }
    keep
}

/// The fractional bound: a weight on each unguarded square, and the fewest pieces whose
/// loads (the weight a piece's square guards) add up to the total weight, looking at no
/// more than `enough + 1` pieces. Any weights give a bound: pieces that guard every
/// unguarded square carry its weight at least once, so their loads add up to the total.
/// The weights start at one over the largest gain among a square's guards (a solution of
/// the covering program's dual: no load above 1) and are then raised, square by square in
/// the order of `ranked` (fewest guards first), by the least slack of their guards (dual
/// ascent), which on the queen's graph about closes the gap to the linear program.
pub(crate) fn fractional(
    near: &Neighbourhoods,
    ranked: &[(usize, usize)],
    allowed: &[u64],
    gain: &[usize],
    enough: usize,
    scratch: &mut Scratch,
) -> usize {
    if ranked.is_empty() {
        return 0;
    }
    let Scratch {
        weight, load, top, ..
    } = scratch;
    weight.clear();
    load.clear();
    load.resize(gain.len(), 0.0);
    for &(_, u) in ranked {
        let most = near
            .list(u)
            .iter()
            .map(|&c| gain[c as usize])
            .max()
            .unwrap_or(0);
        if most == 0 {
            return usize::MAX;
        }
        let w = 1.0 / most as f64;
        weight.push(w);
        // A guard with a gain is allowed (it guards `u`, which is unguarded).
        for &c in near.list(u) {
            if gain[c as usize] > 0 {
                load[c as usize] += w;
            }
        }
    }
    for (k, &(_, u)) in ranked.iter().enumerate() {
        let slack = near
            .list(u)
            .iter()
            .filter(|&&c| gain[c as usize] > 0)
            .map(|&c| 1.0 - load[c as usize])
            .fold(f64::INFINITY, f64::min);
        if slack > 1e-12 {
            weight[k] += slack;
            for &c in near.list(u) {
                if gain[c as usize] > 0 {
                    load[c as usize] += slack;
                }
            }
        }
    }
    let total: f64 = weight.iter().sum();
    let keep = enough + 1;
    top.clear();
    for c in bitset::ones(allowed) {
        let l = load[c];
        if top.len() == keep && top[keep - 1] >= l {
            continue;
        }
        let at = top.partition_point(|&t| t >= l);
        if top.len() == keep {
            top.pop();
        }
        top.insert(at, l);
    }
    let mut sum = 0.0;
    for (k, &l) in top.iter().enumerate() {
        sum += l;
        // Rounding errors must not make the bound pass a number of pieces it reaches.
        if sum >= total - 1e-9 {
            return k + 1;
        }
    }
    keep
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
