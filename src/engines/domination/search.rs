//! Minimising: the fewest pieces that guard every free square (none attacking another
//! when independent). A depth-first search with a fixed number of pieces branches on the
//! unguarded square with the fewest allowed guards, over those guards, and takes each
//! guard out of the later branches, so that every placement lies in exactly one branch.
//! The disjoint-squares, coverage and fractional bounds prune; with two pieces left an
//! exact test replaces them, and with one the last piece's squares are computed outright.
//! A node keeps the symmetries that fix it (its pieces as a set and its allowed squares):
//! of the moves in one orbit only the first is searched, and the later branches leave out
//! the whole orbit. The fewest is found by raising the number of pieces from the root's
//! lower bound until a placement exists.

use super::bitset::{self, Neighbourhoods};
use super::bounds::{self, Scratch};
use super::symmetry::Group;
use super::Instance;
use crate::base::Control;
use std::sync::atomic::{AtomicBool, Ordering};

/// How many nodes pass between checks of the stop flag and the clock.
const POLL_INTERVAL: u64 = 1 << 12;

/// Called with each placement that guards every square and the squares still allowed to
/// take a piece; returns whether the search should stop.
pub(crate) type Leaf<'a> = dyn FnMut(&[usize], &[u64]) -> bool + 'a;

/// A node where a split of the search stops: the pieces placed and the node's sets (for
/// this search the unguarded squares, then the allowed ones).
#[derive(Clone, Debug)]
pub(crate) struct Prefix {
    /// Free-square indices of the pieces placed.
    pub(crate) placed: Vec<usize>,
    /// The node's sets, one after the other.
    pub(crate) sets: Vec<u64>,
    /// The symmetries that fix the node, when the search uses them.
    pub(crate) group: Group,
}

/// The search for placements of at most `pieces` pieces that guard every free square.
pub(crate) struct Cover<'a> {
    near: &'a Neighbourhoods,
    instance: &'a Instance,
    independent: bool,
    words: usize,
    /// The most pieces a placement may hold.
    pieces: usize,
    /// Each depth's unguarded squares, then its allowed squares.
    levels: Vec<Vec<u64>>,
    /// Each depth's guards to branch on, in order.
    order: Vec<Vec<usize>>,
    /// (allowed guards, square) of the unguarded squares of the current node.
    ranked: Vec<u32>,
    /// Scratch for sorting `ranked`.
    buckets: Vec<u32>,
    sorted: Vec<u32>,
    /// Each square's gain at the current node (unguarded squares it guards; 0 when not
    /// allowed).
    gain: Vec<usize>,
    scratch: Scratch,
    /// Scratch: the squares that could still take the last piece.
    common: Vec<u64>,
    /// Scratch: the allowed squares the fractional bound shows no placement uses.
    needless: Vec<usize>,
    /// Each depth's symmetry group: the maps that fix the node (its pieces as a set and
    /// its allowed squares), so that of the moves in one orbit only the first is searched.
    groups: Vec<Group>,
    placed: Vec<usize>,
    /// Use the board's symmetries (deciding only: a count must see every placement).
    pub(crate) break_symmetry: bool,
    /// Record nodes at this depth (and leaves above it) as prefixes instead of searching.
    pub(crate) cut: Option<usize>,
    pub(crate) prefixes: Vec<Prefix>,
    pub(crate) nodes: u64,
    pub(crate) stopped: bool,
    control: &'a Control,
    /// A second stop flag, polled with the control's: a subproblem whose answer is no
    /// longer needed.
    pub(crate) cancel: Option<&'a AtomicBool>,
    leaf: &'a mut Leaf<'a>,
}

impl<'a> Cover<'a> {
    /// A search for at most `pieces` pieces, handing each placement found to `leaf`.
    pub(crate) fn new(
        instance: &'a Instance,
        pieces: usize,
        control: &'a Control,
        leaf: &'a mut Leaf<'a>,
    ) -> Cover<'a> {
        let words = instance.near.words;
        Cover {
            near: &instance.near,
            instance,
            independent: instance.question.independent(),
            words,
            pieces,
            levels: vec![vec![0; 2 * words]; pieces + 2],
            order: vec![Vec::new(); pieces + 2],
            ranked: Vec::new(),
            buckets: Vec::new(),
            sorted: Vec::new(),
            gain: vec![0; instance.free_squares()],
            scratch: Scratch::new(words),
            common: vec![0; words],
            needless: Vec::new(),
            groups: vec![Group::IDENTITY; pieces + 2],
            placed: Vec::new(),
            break_symmetry: false,
            cut: None,
            prefixes: Vec::new(),
            nodes: 0,
            stopped: false,
            control,
            cancel: None,
            leaf,
        }
    }

    /// Searches below `prefix` (the root: nothing placed, everything unguarded and allowed,
    /// from [`root`]); returns whether the leaf or the control stopped it.
    pub(crate) fn run(&mut self, prefix: &Prefix) -> bool {
        self.placed.clone_from(&prefix.placed);
        self.levels[0].copy_from_slice(&prefix.sets);
        self.groups[0] = if self.break_symmetry {
            prefix.group
        } else {
            Group::IDENTITY
        };
        self.node(0)
    }

    fn node(&mut self, d: usize) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_INTERVAL)
            && (self.control.should_stop()
                || self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)))
        {
            self.stopped = true;
        }
        if self.stopped {
            return true;
        }
        let w = self.words;
        let (unguarded, allowed) = self.levels[d].split_at(w);
        let done = bitset::is_empty(unguarded);
        if self.cut.is_some() && (done || self.cut == Some(d)) {
            self.prefixes.push(Prefix {
                placed: self.placed.clone(),
                sets: self.levels[d].clone(),
                group: self.groups[d],
            });
            return false;
        }
        if done {
            return (self.leaf)(&self.placed, allowed);
        }
        let left = self.pieces - self.placed.len();
        if left == 0 {
            return false;
        }
        let mut order = std::mem::take(&mut self.order[d]);
        if !self.moves(d, left, &mut order, true) {
            self.order[d] = order;
            return false;
        }
        for &c in &order {
            if !bitset::contains(&self.levels[d][w..], c) {
                // An image of an earlier move under the node's group: its subtree is the
                // image of one already searched.
                continue;
            }
            self.step(d, c);
            let stop = self.node(d + 1);
            self.placed.pop();
            if stop {
                self.order[d] = order;
                return true;
            }
            self.leave_out(d, c);
        }
        self.order[d] = order;
        false
    }

    /// The moves of the node at depth `d` with `left` pieces to place, in `order` (cleared
    /// first); whether the node is open. With `pruning`, the exact test of two pieces runs
    /// too (it cuts but changes no move, so following a placement's path can skip it).
    pub(super) fn moves(
        &mut self,
        d: usize,
        left: usize,
        order: &mut Vec<usize>,
        pruning: bool,
    ) -> bool {
        order.clear();
        match left {
            1 => self.last_piece(d, order),
            2 => (!pruning || self.two_pieces(d)) && self.branching(d, left, order, false),
            _ => self.branching(d, left, order, true),
        }
    }

    /// Whether move `c` of depth `d` leads a branch: not an image of an earlier move.
    pub(super) fn leads(&self, d: usize, c: usize) -> bool {
        bitset::contains(&self.levels[d][self.words..], c)
    }

    /// How many more pieces a placement may take.
    pub(super) fn left(&self) -> usize {
        self.pieces - self.placed.len()
    }

    /// Whether the node at depth `d` has every square guarded.
    pub(super) fn covered(&self, d: usize) -> bool {
        bitset::is_empty(&self.levels[d][..self.words])
    }

    /// The node at depth `d`'s sets, to be put back with [`Cover::restore`].
    pub(super) fn save(&self, d: usize, into: &mut Vec<u64>) {
        into.clone_from(&self.levels[d]);
    }

    /// Puts back the sets of depth `d` saved by [`Cover::save`].
    pub(super) fn restore(&mut self, d: usize, from: &[u64]) {
        self.levels[d].copy_from_slice(from);
    }

    /// Starts at the root: nothing placed, with the board's symmetries when the search
    /// uses them.
    pub(super) fn start(&mut self) {
        let root = root(self.instance);
        self.placed.clear();
        self.levels[0].copy_from_slice(&root.sets);
        self.groups[0] = if self.break_symmetry {
            root.group
        } else {
            Group::IDENTITY
        };
    }

    /// Places a piece on `c` at depth `d`: depth `d + 1` gets its sets and group.
    pub(super) fn step(&mut self, d: usize, c: usize) {
        let w = self.words;
        let near = self.near;
        let (above, below) = self.levels.split_at_mut(d + 1);
        let (here, next) = (&above[d], &mut below[0]);
        let (unguarded, allowed) = here.split_at(w);
        let (next_unguarded, next_allowed) = next.split_at_mut(w);
        near.minus_into(c, unguarded, next_unguarded);
        if self.independent {
            near.minus_into(c, allowed, next_allowed);
        } else {
            next_allowed.copy_from_slice(allowed);
            bitset::remove(next_allowed, c);
        }
        let group = self.groups[d];
        self.groups[d + 1] = if group.is_trivial() {
            group
        } else {
            self.instance.symmetries.stabiliser(group, c)
        };
        self.placed.push(c);
    }

    /// After the branch of `c` at depth `d`: later branches hold no piece on `c`, nor on
    /// its images under the node's group (every placement with one was seen, or an image of
    /// it was).
    pub(super) fn leave_out(&mut self, d: usize, c: usize) {
        let w = self.words;
        let group = self.groups[d];
        let allowed = &mut self.levels[d][w..];
        if group.is_trivial() {
            bitset::remove(allowed, c);
        } else {
            for image in self.instance.symmetries.orbit(group, c) {
                bitset::remove(allowed, image);
            }
        }
    }

    /// Whether the search from the root reaches the placement `target` (sorted), rather
    /// than only an image of it: its moves are followed down, each node branching as the
    /// search does.
    pub(crate) fn reaches(&mut self, target: &[usize]) -> bool {
        self.start();
        let w = self.words;
        for d in 0.. {
            let (unguarded, allowed) = self.levels[d].split_at(w);
            if bitset::is_empty(unguarded) {
                // The rest of the placement is any allowed squares.
                return target
                    .iter()
                    .all(|&c| self.placed.contains(&c) || bitset::contains(allowed, c));
            }
            let left = self.pieces - self.placed.len();
            if left == 0 {
                return false;
            }
            let mut order = std::mem::take(&mut self.order[d]);
            // As the search does (the squares a bound rules out change the later moves);
            // a placement's path is never cut by a bound.
            let open = self.moves(d, left, &mut order, false);
            let mut next = None;
            if open {
                for &c in &order {
                    if !bitset::contains(&self.levels[d][w..], c) {
                        continue;
                    }
                    if target.binary_search(&c).is_ok() {
                        next = Some(c);
                        break;
                    }
                    self.leave_out(d, c);
                }
            }
            self.order[d] = order;
            match next {
                Some(c) => self.step(d, c),
                None => return false,
            }
        }
        unreachable!("a placement has finitely many pieces")
    }

    /// With one piece left: the allowed squares that guard every unguarded square, in
    /// `order`; whether there is one.
    fn last_piece(&mut self, d: usize, order: &mut Vec<usize>) -> bool {
        let w = self.words;
        let (unguarded, allowed) = self.levels[d].split_at(w);
        let common = &mut self.common;
        common.copy_from_slice(allowed);
        for u in bitset::ones(unguarded) {
            for (k, &word) in self.near.set(u).iter().enumerate() {
                common[k] &= word;
            }
            if bitset::is_empty(common) {
                return false;
            }
        }
        order.extend(bitset::ones(common));
        true
    }

    /// With two pieces left: whether two allowed squares guard every unguarded square (a
    /// necessary condition; the branching below finds them).
    fn two_pieces(&mut self, d: usize) -> bool {
        let w = self.words;
        let near = self.near;
        let (unguarded, allowed) = self.levels[d].split_at(w);
        let Some((_, s)) = bitset::ones(unguarded)
            .map(|s| (near.count_in(s, allowed), s))
            .min()
        else {
            return true;
        };
        let common = &mut self.common;
        'first: for &a in near.list(s) {
            let a = a as usize;
            if !bitset::contains(allowed, a) {
                continue;
            }
            if self.independent {
                near.minus_into(a, allowed, common);
            } else {
                common.copy_from_slice(allowed);
            }
            let reach = near.set(a);
            for u in bitset::ones(unguarded) {
                if bitset::contains(reach, u) {
                    continue;
                }
                for (k, &word) in near.set(u).iter().enumerate() {
                    common[k] &= word;
                }
                if bitset::is_empty(common) {
                    continue 'first;
                }
            }
            return true;
        }
        false
    }

    /// With two or more pieces left: whether the bounds leave the node open, and if so the
    /// moves in `order`, the allowed guards of the unguarded square with the fewest (with
    /// a symmetry group, the fewest orbits of them), the most useful first.
    fn branching(&mut self, d: usize, left: usize, order: &mut Vec<usize>, bounded: bool) -> bool {
        let w = self.words;
        let near = self.near;
        let (unguarded, allowed) = self.levels[d].split_at(w);
        self.ranked.clear();
        for s in bitset::ones(unguarded) {
            let guards = near.count_in(s, allowed);
            if guards == 0 {
                return false;
            }
            self.ranked.push(rank(guards, s));
        }
        sort_ranks(&mut self.ranked, &mut self.buckets, &mut self.sorted);
        if bounded && self.ranked.len() > left {
            let order = self.ranked.iter().map(|&r| square(r));
            if bounds::disjoint_squares(near, order, allowed, left, &mut self.scratch) > left {
                return false;
            }
        }
        bounds::gains(near, unguarded, allowed, &mut self.gain);
        let group = self.groups[d];
        let mut fewest = square(self.ranked[0]);
        if bounded && self.ranked.len() > left {
            let need = self.ranked.len();
            if bounds::coverage(&self.gain, allowed, need, left, &mut self.scratch) > left
                || bounds::fractional(
                    near,
                    self.ranked.iter().map(|&r| square(r)),
                    allowed,
                    &self.gain,
                    left,
                    &mut self.scratch,
                ) > left
            {
                return false;
            }
            // Not with a symmetry group: the allowed squares must stay a union of orbits.
            if group.is_trivial() {
                match self.exclude_needless(d, left) {
                    Some(s) => fewest = s,
                    None => return false,
                }
            }
        }
        let allowed = &self.levels[d][w..];
        let s = if group.is_trivial() {
            fewest
        } else {
            self.fewest_orbits(allowed, group)
        };
        // The guards most useful first: a placement is found sooner.
        let mut gains: Vec<(usize, usize)> = near
            .list(s)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| bitset::contains(allowed, c))
            .map(|c| (usize::MAX - self.gain[c], c))
            .collect();
        gains.sort_unstable();
        order.extend(gains.iter().map(|&(_, c)| c));
        true
    }

    /// Takes out of the allowed squares of depth `d` those the fractional bound just computed
    /// shows no placement of the `left` pieces can use ([`bounds::needless`]); the unguarded
    /// square with the fewest allowed guards after, or `None` when one has none left.
    fn exclude_needless(&mut self, d: usize, left: usize) -> Option<usize> {
        let w = self.words;
        let mut needless = std::mem::take(&mut self.needless);
        needless.clear();
        bounds::needless(&self.levels[d][w..], left, &self.scratch, &mut needless);
        let fewest = if needless.is_empty() {
            Some(square(self.ranked[0]))
        } else {
            let (unguarded, allowed) = self.levels[d].split_at_mut(w);
            for &c in &needless {
                bitset::remove(allowed, c);
                self.gain[c] = 0;
            }
            // The squares' guards are fewer now: rank them again.
            bitset::ones(unguarded)
                .map(|u| (self.near.count_in(u, allowed), u))
                .min()
                .filter(|&(guards, _)| guards > 0)
                .map(|(_, u)| u)
        };
        self.needless = needless;
        fewest
    }

    /// The unguarded square whose allowed guards fall into the fewest orbits under
    /// `group`: the fewest branches.
    fn fewest_orbits(&self, allowed: &[u64], group: Group) -> usize {
        let symmetries = &self.instance.symmetries;
        let mut best = (usize::MAX, 0);
        let mut names = Vec::new();
        for s in self.ranked.iter().map(|&r| square(r)) {
            names.clear();
            names.extend(
                self.near
                    .list(s)
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| bitset::contains(allowed, c))
                    .map(|c| symmetries.least_image(group, c)),
            );
            names.sort_unstable();
            names.dedup();
            best = best.min((names.len(), s));
        }
        best.1
    }
}

/// A square and its number of allowed guards packed in one word that sorts by the guards
/// first (free squares and guards are fewer than 2^16: boards have at most 64 x 64 squares).
fn rank(guards: usize, s: usize) -> u32 {
    (guards as u32) << 16 | s as u32
}

/// Sorts `ranks` by counting: the guards are few (a square's neighbourhood), and the
/// squares of each count stay in increasing order.
fn sort_ranks(ranks: &mut Vec<u32>, buckets: &mut Vec<u32>, sorted: &mut Vec<u32>) {
    let most = ranks.iter().map(|&r| r >> 16).max().unwrap_or(0) as usize;
    buckets.clear();
    buckets.resize(most + 2, 0);
    for &r in ranks.iter() {
        buckets[(r >> 16) as usize + 1] += 1;
    }
    for k in 1..buckets.len() {
        buckets[k] += buckets[k - 1];
    }
    sorted.clear();
    sorted.resize(ranks.len(), 0);
    for &r in ranks.iter() {
        let at = &mut buckets[(r >> 16) as usize];
        sorted[*at as usize] = r;
        *at += 1;
    }
    std::mem::swap(ranks, sorted);
}

/// The square of a [`rank`].
fn square(rank: u32) -> usize {
    (rank & 0xffff) as usize
}

/// The root of the search: nothing placed, every free square unguarded and allowed.
pub(crate) fn root(instance: &Instance) -> Prefix {
    let words = instance.near.words;
    let mut sets = vec![0u64; 2 * words];
    for i in 0..instance.free_squares() {
        bitset::insert(&mut sets[..words], i);
        bitset::insert(&mut sets[words..], i);
    }
    Prefix {
        placed: Vec::new(),
        sets,
        group: instance.symmetries.all(),
    }
}

/// The root's lower bound: the better of the disjoint-squares bound (squares in row-major
/// order, and squares with the fewest guards first), the coverage and fractional bounds,
/// and the known bound.
pub(crate) fn root_bound(instance: &Instance) -> usize {
    let near = &instance.near;
    let m = instance.free_squares();
    let root = root(instance);
    let (all, _) = root.sets.split_at(near.words);
    let mut scratch = Scratch::new(near.words);
    let mut gain = vec![0; m];
    bounds::gains(near, all, all, &mut gain);
    let mut by_guards: Vec<(usize, usize)> = (0..m).map(|s| (near.list(s).len(), s)).collect();
    by_guards.sort_unstable();
    let bound = [
        bounds::disjoint_squares(near, 0..m, all, m, &mut scratch),
        bounds::disjoint_squares(near, by_guards.iter().map(|g| g.1), all, m, &mut scratch),
        bounds::coverage(&gain, all, m, m, &mut scratch),
        bounds::fractional(
            near,
            by_guards.iter().map(|g| g.1),
            all,
            &gain,
            m,
            &mut scratch,
        ),
        instance.known_bound.unwrap_or(0),
    ];
    bound.into_iter().max().unwrap_or(0)
}

/// A placement that guards every square, by taking the allowed square that guards the
/// most unguarded ones until none is left (independent: never a square a piece attacks,
/// and an unguarded square is always allowed, so this never gets stuck).
pub(crate) fn greedy(instance: &Instance) -> Vec<usize> {
    let near = &instance.near;
    let w = near.words;
    let root = root(instance);
    let (mut unguarded, mut allowed) = (root.sets[..w].to_vec(), root.sets[w..].to_vec());
    let mut next = vec![0u64; w];
    let mut placed = Vec::new();
    while !bitset::is_empty(&unguarded) {
        let Some(c) = bitset::ones(&allowed).max_by_key(|&c| (near.count_in(c, &unguarded), !c))
        else {
            break;
        };
        placed.push(c);
        near.minus_into(c, &unguarded, &mut next);
        unguarded.copy_from_slice(&next);
        if instance.question.independent() {
            near.minus_into(c, &allowed, &mut next);
            allowed.copy_from_slice(&next);
        } else {
            bitset::remove(&mut allowed, c);
        }
    }
    placed
}

/// Whether a placement of at most `pieces` exists, on one thread: the first one found,
/// the nodes, and whether the control stopped the search.
pub(crate) fn decide_alone(
    instance: &Instance,
    pieces: usize,
    control: &Control,
) -> (Option<Vec<usize>>, u64, bool) {
    let mut found = None;
    let mut leaf = |placed: &[usize], _: &[u64]| {
        found = Some(placed.to_vec());
        true
    };
    let mut search = Cover::new(instance, pieces, control, &mut leaf);
    search.break_symmetry = true;
    search.run(&root(instance));
    let (nodes, stopped) = (search.nodes, search.stopped);
    drop(search);
    (found, nodes, stopped)
}
