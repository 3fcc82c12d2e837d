//! Local search for small dominating sets, so that the exact search need not find the
//! optimum itself: it refutes one piece fewer than the best set known, and the search for
//! a placement of the optimum (often the largest tree of all) is never run.
//!
//! The search keeps a dominating set, and whenever it guards every square it drops the
//! piece whose loss is least and tries to repair the set at one piece fewer: each step takes
//! out the piece that leaves the least weight unguarded and puts in the guard of a random
//! unguarded square that guards the most weight. Unguarded squares gain weight at every
//! step, so the squares that stay hard to guard steer the search (square weighting, as in
//! the dominating-set local searches of Cai et al. and of Wang et al.). Seeded: a run
//! repeats exactly.

use super::bitset::Neighbourhoods;
use super::random::SplitMix;
use super::Instance;
use crate::base::Control;

/// Steps between two looks at the control.
const POLL_INTERVAL: u64 = 1 << 10;

/// When the weights' total passes this many per square, they are scaled down, so that old
/// difficulties are slowly forgotten.
const WEIGHT_PER_SQUARE: u64 = 100;

/// A local search over placements that guard every square (pieces may attack each other:
/// for domination only).
pub(crate) struct LocalSearch<'a> {
    near: &'a Neighbourhoods,
    /// Whether each square holds a piece.
    placed: Vec<bool>,
    /// The pieces, in no order, and each piece's index there.
    pieces: Vec<usize>,
    piece_at: Vec<usize>,
    /// How many pieces guard each square.
    guards: Vec<u32>,
    /// The unguarded squares, in no order, and each one's index there.
    unguarded: Vec<usize>,
    unguarded_at: Vec<usize>,
    weight: Vec<u64>,
    /// The weights' total.
    total_weight: u64,
    /// A piece's loss (the weight of the squares it alone guards), or a free square's gain
    /// (the weight of the unguarded squares it would guard).
    score: Vec<u64>,
    /// The step at which each square last changed.
    age: Vec<u64>,
    steps: u64,
    random: SplitMix,
    /// The smallest placement that guarded every square.
    best: Vec<usize>,
}

/// Not in a list (an index into `pieces` or `unguarded`).
const ABSENT: usize = usize::MAX;

impl<'a> LocalSearch<'a> {
    /// A search from `start`, a placement that guards every square.
    pub(crate) fn new(instance: &'a Instance, start: &[usize]) -> LocalSearch<'a> {
        let m = instance.free_squares();
        let mut search = LocalSearch {
            near: &instance.near,
            placed: vec![false; m],
            pieces: Vec::new(),
            piece_at: vec![ABSENT; m],
            guards: vec![0; m],
            unguarded: (0..m).collect(),
            unguarded_at: (0..m).collect(),
            weight: vec![1; m],
            total_weight: m as u64,
            score: vec![0; m],
            age: vec![0; m],
            steps: 0,
            random: SplitMix(0x5EED_D0A1),
            best: start.to_vec(),
        };
        search.rescore();
        for &square in start {
            search.put(square);
        }
        search
    }

    /// The smallest placement found that guards every square.
    pub(crate) fn best(&self) -> &[usize] {
        &self.best
    }

    /// Searches for at most `steps` steps, or until a placement of at most `target` pieces
    /// guards every square, or until `control` stops it; returns the best placement's size.
    pub(crate) fn run(&mut self, target: usize, steps: u64, control: &Control) -> usize {
        let end = self.steps + steps;
        let mut last_put = None;
        while self.steps < end && self.best.len() > target {
            self.steps += 1;
            if self.steps.is_multiple_of(POLL_INTERVAL) && control.should_stop() {
                break;
            }
            if self.unguarded.is_empty() {
                self.keep_if_best();
                if self.pieces.len() <= target {
                    break;
                }
                // One piece fewer, and repair.
                if let Some(drop) = self.least_loss(None) {
                    self.take(drop);
                }
                continue;
            }
            let taken = self.least_loss(last_put);
            if let Some(taken) = taken {
                self.take(taken);
            }
            let square = self.unguarded[self.random.below(self.unguarded.len())];
            let put = self.best_guard(square, taken);
            self.put(put);
            last_put = Some(put);
            self.weigh_unguarded();
        }
        self.keep_if_best();
        debug_assert!(self.guards_all(&self.best));
        self.best.len()
    }

    /// Keeps the placement as the best when it guards every square with fewer pieces.
    fn keep_if_best(&mut self) {
        if self.unguarded.is_empty() && self.pieces.len() < self.best.len() {
            self.best.clone_from(&self.pieces);
        }
    }

    /// The piece with the least loss, the one that changed longest ago among equals, other
    /// than `spare`; `None` when there is none.
    fn least_loss(&self, spare: Option<usize>) -> Option<usize> {
        self.pieces
            .iter()
            .copied()
            .filter(|&piece| Some(piece) != spare)
            .min_by_key(|&piece| (self.score[piece], self.age[piece]))
    }

    /// The guard of `square` with the most gain, the one that changed longest ago among
    /// equals, other than `spare` unless it is the only one.
    fn best_guard(&self, square: usize, spare: Option<usize>) -> usize {
        self.near
            .list(square)
            .iter()
            .map(|&guard| guard as usize)
            .filter(|&guard| Some(guard) != spare)
            .min_by_key(|&guard| (std::cmp::Reverse(self.score[guard]), self.age[guard]))
            .or(spare)
            .expect("a square is its own guard")
    }

    /// Puts a piece on `square` (not holding one).
    fn put(&mut self, square: usize) {
        self.placed[square] = true;
        self.piece_at[square] = self.pieces.len();
        self.pieces.push(square);
        self.age[square] = self.steps;
        for &v in self.near.list(square) {
            let v = v as usize;
            self.guards[v] += 1;
            match self.guards[v] {
                1 => {
                    self.unlist_unguarded(v);
                    for &g in self.near.list(v) {
                        if g as usize != square {
                            self.score[g as usize] -= self.weight[v];
                        }
                    }
                }
                2 => {
                    let other = self.sole_guard(v, Some(square));
                    self.score[other] -= self.weight[v];
                }
                _ => {}
            }
        }
        self.score[square] = self.loss(square);
    }

    /// Takes the piece off `square`.
    fn take(&mut self, square: usize) {
        self.placed[square] = false;
        let at = self.piece_at[square];
        self.pieces.swap_remove(at);
        if let Some(&moved) = self.pieces.get(at) {
            self.piece_at[moved] = at;
        }
        self.piece_at[square] = ABSENT;
        self.age[square] = self.steps;
        for &v in self.near.list(square) {
            let v = v as usize;
            self.guards[v] -= 1;
            match self.guards[v] {
                0 => {
                    self.unguarded_at[v] = self.unguarded.len();
                    self.unguarded.push(v);
                    for &g in self.near.list(v) {
                        if g as usize != square {
                            self.score[g as usize] += self.weight[v];
                        }
                    }
                }
                1 => {
                    let other = self.sole_guard(v, None);
                    self.score[other] += self.weight[v];
                }
                _ => {}
            }
        }
        self.score[square] = self.gain(square);
    }

    /// Takes `square` off the list of unguarded squares.
    fn unlist_unguarded(&mut self, square: usize) {
        let at = self.unguarded_at[square];
        self.unguarded.swap_remove(at);
        if let Some(&moved) = self.unguarded.get(at) {
            self.unguarded_at[moved] = at;
        }
        self.unguarded_at[square] = ABSENT;
    }

    /// The piece guarding `square` other than `besides`.
    fn sole_guard(&self, square: usize, besides: Option<usize>) -> usize {
        self.near
            .list(square)
            .iter()
            .map(|&g| g as usize)
            .find(|&g| Some(g) != besides && self.placed[g])
            .expect("a guarded square has a piece among its guards")
    }

    /// The weight of the squares the piece on `square` alone guards.
    fn loss(&self, square: usize) -> u64 {
        self.weight_guarded(square, 1)
    }

    /// The weight of the unguarded squares a piece on `square` would guard.
    fn gain(&self, square: usize) -> u64 {
        self.weight_guarded(square, 0)
    }

    /// The weight of the squares near `square` that `times` pieces guard.
    fn weight_guarded(&self, square: usize, times: u32) -> u64 {
        self.near
            .list(square)
            .iter()
            .filter(|&&v| self.guards[v as usize] == times)
            .map(|&v| self.weight[v as usize])
            .sum()
    }

    /// Every square's score from the weights and the guards.
    fn rescore(&mut self) {
        for square in 0..self.placed.len() {
            self.score[square] = if self.placed[square] {
                self.loss(square)
            } else {
                self.gain(square)
            };
        }
    }

    /// Each unguarded square weighs one more (their guards hold no piece, so only gains
    /// change); past the ceiling every weight is scaled down.
    fn weigh_unguarded(&mut self) {
        for &v in &self.unguarded {
            self.weight[v] += 1;
            for &g in self.near.list(v) {
                self.score[g as usize] += 1;
            }
        }
        self.total_weight += self.unguarded.len() as u64;
        if self.total_weight > WEIGHT_PER_SQUARE * self.weight.len() as u64 {
            for w in &mut self.weight {
                *w = (*w * 3 / 10).max(1);
            }
            self.total_weight = self.weight.iter().sum();
            self.rescore();
        }
    }

    /// Whether `placement` guards every square.
    fn guards_all(&self, placement: &[usize]) -> bool {
        let mut guarded = vec![false; self.placed.len()];
        for &p in placement {
            for &v in self.near.list(p) {
                guarded[v as usize] = true;
            }
        }
        guarded.into_iter().all(|g| g)
    }
}
