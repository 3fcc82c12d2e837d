//! Maximising: the most pieces, none attacking another, as a maximum independent set of
//! the attack graph. Branch and bound over bitsets of the candidate squares (free squares
//! no placed piece attacks): take the candidate with the fewest candidate neighbours, or
//! leave it out; a greedy cover of the candidates by cliques (rows, diagonals, 2 x 2
//! blocks: squares that pairwise attack) bounds how many more fit.

use super::bitset::{self, Neighbourhoods};
use super::bounds::{self, Scratch};
use super::search::Prefix;
use super::symmetry::Group;
use super::{Answer, Instance};
use crate::base::Control;

/// How many nodes pass between checks of the stop flag and the clock.
const POLL_INTERVAL: u64 = 1 << 12;

/// Called with each placement of the wanted size when counting; returns whether to stop.
pub(crate) type Leaf<'a> = dyn FnMut(&[usize]) -> bool + 'a;

/// The branch and bound over independent placements.
pub(crate) struct Packing<'a> {
    near: &'a Neighbourhoods,
    /// Each depth's candidates.
    levels: Vec<Vec<u64>>,
    scratch: Scratch,
    placed: Vec<usize>,
    /// Deciding: stop at a placement this large. Counting: the exact size counted.
    target: usize,
    /// Deciding: only placements of at least this many are worth finding.
    needed: usize,
    /// Deciding: the largest placement found.
    best: Vec<usize>,
    /// Record nodes at this depth (and placements above it) as prefixes.
    pub(crate) cut: Option<usize>,
    pub(crate) prefixes: Vec<Prefix>,
    pub(crate) nodes: u64,
    pub(crate) stopped: bool,
    control: &'a Control,
    leaf: Option<&'a mut Leaf<'a>>,
}

impl<'a> Packing<'a> {
    /// A search aiming at `target` pieces; with `leaf`, it counts the placements of exactly
    /// `target` pieces instead of deciding.
    pub(crate) fn new(
        instance: &'a Instance,
        target: usize,
        control: &'a Control,
        leaf: Option<&'a mut Leaf<'a>>,
    ) -> Packing<'a> {
        let words = instance.near.words;
        Packing {
            near: &instance.near,
            levels: vec![vec![0; words]],
            scratch: Scratch::new(words),
            placed: Vec::new(),
            target,
            needed: 0,
            best: Vec::new(),
            cut: None,
            prefixes: Vec::new(),
            nodes: 0,
            stopped: false,
            control,
            leaf,
        }
    }

    /// Searches below `prefix` (the root from [`root`]); returns whether it was stopped.
    pub(crate) fn run(&mut self, prefix: &Prefix) -> bool {
        self.placed.clone_from(&prefix.placed);
        self.levels[0].copy_from_slice(&prefix.sets);
        if self.leaf.is_some() {
            self.count_node(0)
        } else {
            self.decide_node(0)
        }
    }

    fn poll(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_INTERVAL) && self.control.should_stop() {
            self.stopped = true;
        }
        self.stopped
    }

    /// Makes sure depth `d` has its set.
    fn level(&mut self, d: usize) {
        if self.levels.len() <= d {
            let words = self.levels[0].len();
            self.levels.resize(d + 1, vec![0; words]);
        }
    }

    /// The candidate with the fewest candidate neighbours, and that number.
    fn fewest_neighbours(&self, d: usize) -> (usize, usize) {
        let candidates = &self.levels[d];
        bitset::ones(candidates)
            .map(|v| (self.near.count_in(v, candidates) - 1, v))
            .min()
            .map_or((0, 0), |(degree, v)| (v, degree))
    }

    /// Takes `v` at depth `d` into depth `d + 1`.
    fn take(&mut self, d: usize, v: usize) {
        self.level(d + 1);
        let (above, below) = self.levels.split_at_mut(d + 1);
        self.near.minus_into(v, &above[d], &mut below[0]);
    }

    fn decide_node(&mut self, d: usize) -> bool {
        if self.poll() {
            return true;
        }
        if self.placed.len() > self.best.len() {
            self.best.clone_from(&self.placed);
        }
        if self.best.len() >= self.target {
            return true;
        }
        loop {
            if bitset::is_empty(&self.levels[d]) {
                return false;
            }
            // Only a placement of more than `worthless` pieces is worth finding.
            let worthless = self.best.len().max(self.needed.saturating_sub(1));
            let enough = worthless - self.placed.len();
            let cliques =
                bounds::clique_cover(self.near, &self.levels[d], enough, &mut self.scratch);
            if cliques <= enough {
                return false;
            }
            let (v, degree) = self.fewest_neighbours(d);
            self.take(d, v);
            self.placed.push(v);
            let stop = self.decide_node(d + 1);
            self.placed.pop();
            // Leaving out a square no candidate attacks never helps.
            if stop || degree == 0 {
                return stop;
            }
            bitset::remove(&mut self.levels[d], v);
        }
    }

    fn count_node(&mut self, d: usize) -> bool {
        if self.poll() {
            return true;
        }
        let complete = self.placed.len() == self.target;
        if self.cut.is_some() && (complete || self.cut == Some(d)) {
            self.prefixes.push(Prefix {
                placed: self.placed.clone(),
                sets: self.levels[d].clone(),
                group: Group::IDENTITY,
            });
            return false;
        }
        if complete {
            let leaf = self.leaf.as_mut().expect("counting has a leaf");
            return leaf(&self.placed);
        }
        let more = self.target - self.placed.len();
        if bitset::len(&self.levels[d]) < more
            || bounds::clique_cover(self.near, &self.levels[d], more, &mut self.scratch) < more
        {
            return false;
        }
        let (v, _) = self.fewest_neighbours(d);
        self.take(d, v);
        self.placed.push(v);
        let stop = self.count_node(d + 1);
        self.placed.pop();
        if stop {
            return true;
        }
        self.level(d + 1);
        let (above, below) = self.levels.split_at_mut(d + 1);
        below[0].copy_from_slice(&above[d]);
        bitset::remove(&mut below[0], v);
        self.count_node(d + 1)
    }
}

/// The root of the search: every free square a candidate.
pub(crate) fn root(instance: &Instance) -> Prefix {
    let mut sets = vec![0u64; instance.near.words];
    for i in 0..instance.free_squares() {
        bitset::insert(&mut sets, i);
    }
    Prefix {
        placed: Vec::new(),
        sets,
        group: Group::IDENTITY,
    }
}

/// The root's upper bound: the clique cover of the whole board, or the known bound.
pub(crate) fn root_bound(instance: &Instance) -> usize {
    let m = instance.free_squares();
    let mut scratch = Scratch::new(instance.near.words);
    let cover = bounds::clique_cover(&instance.near, &root(instance).sets, m, &mut scratch);
    instance.known_bound.map_or(cover, |k| k.min(cover))
}

/// The most pieces (or, with `limit`, whether at least `limit` fit), as free-square
/// indices.
pub(crate) fn maximise(instance: &Instance, limit: Option<usize>, control: &Control) -> Answer {
    let upper = root_bound(instance);
    let mut answer = Answer {
        best: None,
        proven: false,
        bound: upper,
        nodes: 0,
        stopped: false,
    };
    if limit.is_some_and(|l| l > upper) {
        answer.proven = true;
        return answer;
    }
    let mut search = Packing::new(instance, limit.unwrap_or(upper), control, None);
    search.needed = limit.unwrap_or(0);
    search.run(&root(instance));
    answer.nodes = search.nodes;
    answer.stopped = search.stopped;
    let found = search.best.len();
    let reached = found >= search.needed;
    if reached {
        answer.best = Some(search.best);
    }
    answer.proven = reached && found >= upper;
    if !answer.stopped {
        match limit {
            None => {
                answer.proven = true;
                answer.bound = found;
            }
            Some(_) if !reached => {
                answer.proven = true;
                answer.bound = answer.bound.min(search.needed - 1);
            }
            Some(_) => {}
        }
    }
    answer
}
