//! The size of a search before it is run, by Knuth's random probes (D. E. Knuth, "Estimating
//! the efficiency of backtrack programs", Math. Comp. 29, 1975). A probe walks from the root
//! down one path, taking at each node one of the branches the search would lead, uniformly;
//! the products of the branch counts met, summed over the depths, are an unbiased estimate
//! of the number of nodes. The probes make the search's own moves, with its bounds and
//! symmetries, so what is estimated is the tree one pass of the fewest-pieces search would
//! visit: all of it when no placement exists.

use super::random::SplitMix;
use super::search::{Cover, Leaf};
use super::Instance;
use crate::base::Control;

/// What [`estimate`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Probes made (fewer than asked when the control stopped them).
    pub probes: u64,
    /// The mean of the probes' estimates of the nodes of the search.
    pub nodes: f64,
    /// The standard error of that mean (the probes' spread over the square root of their
    /// number).
    pub error: f64,
    /// Whether a probe reached a placement (the search would then stop early).
    pub found: bool,
}

/// Estimates the nodes of the search for a placement of at most `pieces` pieces, as
/// [`super::solve`] searches it, by `probes` random probes drawn from `seed`. `None` for a
/// question of the most pieces (another search).
pub fn estimate(
    instance: &Instance,
    pieces: usize,
    probes: u64,
    seed: u64,
    control: &Control,
) -> Option<Estimate> {
    if !instance.question.minimises() {
        return None;
    }
    let unlimited = Control::unlimited();
    let mut ignore = |_: &[usize], _: &[u64]| false;
    let leaf: &mut Leaf = &mut ignore;
    let mut cover = Cover::new(instance, pieces, &unlimited, leaf);
    cover.break_symmetry = true;
    let mut random = SplitMix(seed);
    let (mut sum, mut squares, mut done) = (0.0, 0.0, 0);
    let mut found = false;
    while done < probes && !control.should_stop() {
        let (nodes, reached) = probe(&mut cover, &mut random);
        found |= reached;
        sum += nodes;
        squares += nodes * nodes;
        done += 1;
    }
    let n = done.max(1) as f64;
    let mean = sum / n;
    let spread = (squares / n - mean * mean).max(0.0).sqrt();
    Some(Estimate {
        probes: done,
        nodes: mean,
        error: spread / n.sqrt(),
        found,
    })
}

/// One probe: its estimate of the nodes, and whether it reached a placement.
fn probe(cover: &mut Cover, random: &mut SplitMix) -> (f64, bool) {
    cover.start();
    let (mut order, mut leaders, mut saved) = (Vec::new(), Vec::new(), Vec::new());
    let (mut nodes, mut weight) = (1.0, 1.0);
    for d in 0.. {
        if cover.covered(d) {
            return (nodes, true);
        }
        let left = cover.left();
        if left == 0 || !cover.moves(d, left, &mut order, true) {
            break;
        }
        // The branches the search leads, each leaving its orbit out of the later ones.
        cover.save(d, &mut saved);
        leaders.clear();
        for &c in &order {
            if cover.leads(d, c) {
                leaders.push(c);
                cover.leave_out(d, c);
            }
        }
        if leaders.is_empty() {
            break;
        }
        let j = random.below(leaders.len());
        cover.restore(d, &saved);
        for &c in &leaders[..j] {
            cover.leave_out(d, c);
        }
        weight *= leaders.len() as f64;
        nodes += weight;
        cover.step(d, leaders[j]);
    }
    (nodes, false)
}
