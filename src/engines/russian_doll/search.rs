//! One table entry's depth-first search, storing the states it exhausts in the memo.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::bounds::LOOKAHEAD_LEVELS;
use super::instance::Engine;
use super::memo::{key_of, Key, Memo};
use super::window::Window;

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Flow {
    /// A packing reaching the target was found (the searcher's stack holds it).
    Found,
    /// The subtree holds no such packing.
    Exhausted,
    /// Stopped (by the caller, the deadline, another thread's success or the budget).
    Aborted,
}

/// What one table entry's search shares among its threads.
pub(super) struct Ctx<'e, 'p, W> {
    pub(super) engine: &'e Engine<'p, W>,
    pub(super) table: &'e [u32],
    /// Per decided scan cell `q` and level `k` from 2: the first cell `p > q` with
    /// `S[p] + k <= S[q]` (`u32::MAX` if none).
    pub(super) drops: &'e [[u32; LOOKAHEAD_LEVELS - 1]],
    /// Levels of the lookahead in use (0: off).
    pub(super) levels: usize,
    /// The smallest piece's cells when the area cut is in use (0: off).
    pub(super) area: u32,
    pub(super) target: u32,
    /// Mirrors in use for this entry (bit per mirror).
    pub(super) mode: u8,
    pub(super) memo: Option<&'e Memo>,
    pub(super) found: AtomicBool,
    pub(super) stop: Option<&'e AtomicBool>,
    pub(super) deadline: Option<Instant>,
}

/// A search node to resume: scan cell, window, pieces placed and the packing so far.
#[derive(Clone)]
pub(super) struct State<W> {
    pub(super) q: usize,
    pub(super) window: W,
    pub(super) placed: u32,
    stack: Vec<u32>,
    used: Vec<u32>,
    balance: [i32; 2],
}

/// Result of entering a node: its (advanced) scan cell, window and memo key, or an end.
enum Enter<W> {
    Found,
    Cut,
    Node(usize, W, Option<Key>),
}

/// One thread's depth-first search.
pub(super) struct Searcher<'c, 'e, 'p, W> {
    ctx: &'c Ctx<'e, 'p, W>,
    pub(super) stack: Vec<u32>,
    used: Vec<u32>,
    balance: [i32; 2],
    pub(super) nodes: u64,
    pub(super) budget: u64,
    pub(super) memo_hits: u64,
    pub(super) memo_relaxed_hits: u64,
    pub(super) memo_stores: u64,
    pub(super) lookahead_cuts: u64,
    pub(super) area_cuts: u64,
    pub(super) weight_cuts: u64,
}

impl<'c, 'e, 'p, W: Window> Searcher<'c, 'e, 'p, W> {
    pub(super) fn new(ctx: &'c Ctx<'e, 'p, W>, budget: u64) -> Self {
        Searcher {
            ctx,
            stack: Vec::new(),
            used: vec![0; ctx.engine.prep.limit.len()],
            balance: [0; 2],
            nodes: 0,
            budget,
            memo_hits: 0,
            memo_relaxed_hits: 0,
            memo_stores: 0,
            lookahead_cuts: 0,
            area_cuts: 0,
            weight_cuts: 0,
        }
    }

    /// Sets the counters (nodes, memo hits and stores, cuts) back to 0.
    pub(super) fn clear_counts(&mut self) {
        self.nodes = 0;
        self.memo_hits = 0;
        self.memo_relaxed_hits = 0;
        self.memo_stores = 0;
        self.lookahead_cuts = 0;
        self.area_cuts = 0;
        self.weight_cuts = 0;
    }

    pub(super) fn load(&mut self, state: &State<W>) {
        self.stack.clone_from(&state.stack);
        self.used.clone_from(&state.used);
        self.balance = state.balance;
    }

    pub(super) fn state(&self, q: usize, window: W, placed: u32) -> State<W> {
        State {
            q,
            window,
            placed,
            stack: self.stack.clone(),
            used: self.used.clone(),
            balance: self.balance,
        }
    }

    fn should_stop(&self) -> bool {
        let ctx = self.ctx;
        self.nodes >= self.budget
            || ctx.found.load(Ordering::Relaxed)
            || ctx.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || ctx.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether placement `i` may be added under the piece maximums; if so it is added.
    #[inline(always)]
    pub(super) fn push(&mut self, i: usize) -> bool {
        let e = self.ctx.engine;
        if e.prep.limited {
            let piece = e.piece[i] as usize;
            if self.used[piece] >= e.prep.limit[piece] {
                return false;
            }
            self.used[piece] += 1;
        }
        if self.ctx.mode != 0 {
            for m in 0..2 {
                if self.ctx.mode >> m & 1 == 1 {
                    self.balance[m] += i32::from(e.prep.weight[m][i]);
                }
            }
        }
        self.stack.push(i as u32);
        true
    }

    #[inline(always)]
    pub(super) fn pop(&mut self, i: usize) {
        let e = self.ctx.engine;
        self.stack.pop();
        if self.ctx.mode != 0 {
            for m in 0..2 {
                if self.ctx.mode >> m & 1 == 1 {
                    self.balance[m] -= i32::from(e.prep.weight[m][i]);
                }
            }
        }
        if e.prep.limited {
            self.used[e.piece[i] as usize] -= 1;
        }
    }

    /// Whether the mirror rules in use hold for the pieces placed.
    #[inline(always)]
    fn balanced(&self) -> bool {
        let mode = self.ctx.mode;
        (0..2).all(|m| mode >> m & 1 == 0 || self.balance[m] >= 0)
    }

    /// Enters a node: skips covered cells and cells where nothing starts, then applies the
    /// bounds (suffix table, mirror rules, memo).
    #[inline(always)]
    fn enter(&mut self, q: usize, window: W, placed: u32) -> Enter<W> {
        let ctx = self.ctx;
        let e = ctx.engine;
        if placed >= ctx.target && self.balanced() {
            return Enter::Found;
        }
        let Some((q, window)) = e.normalize(q, window) else {
            return Enter::Cut;
        };
        let suffix = ctx.table[q];
        if placed + suffix < ctx.target {
            return Enter::Cut;
        }
        if e.area_cuts(ctx.area, q, window, ctx.target.saturating_sub(placed)) {
            self.area_cuts += 1;
            return Enter::Cut;
        }
        if e.weight_cuts(q, window, ctx.target.saturating_sub(placed)) {
            self.weight_cuts += 1;
            return Enter::Cut;
        }
        // With little slack left, the lookahead may cut (see [`DollOptions::lookahead`]).
        let slack = (placed + suffix - ctx.target) as usize;
        if slack < ctx.levels
            && ctx.drops[q][0] != u32::MAX
            && e.lookahead_cuts(q, window, &ctx.drops[q][..ctx.levels], slack)
        {
            self.lookahead_cuts += 1;
            return Enter::Cut;
        }
        let mut balances = [0i32; 2];
        if ctx.mode != 0 {
            for (m, balance) in balances.iter_mut().enumerate() {
                if ctx.mode >> m & 1 == 0 {
                    continue;
                }
                let b = self.balance[m];
                // Behind: only first-half pieces still to come can catch up.
                if b < 0 && (q > e.prep.last_first_half[m] || b + (suffix as i32) < 0) {
                    return Enter::Cut;
                }
                // Ahead by more than can still be placed: the rule holds whatever follows,
                // so all such balances are one state.
                *balance = b.min(suffix as i32);
            }
        }
        let window = if e.dead_span > 1 {
            let filled = e.fill_dead(q, window);
            // Dead cells count as covered: the area cut again.
            if e.area_cuts(ctx.area, q, filled, ctx.target.saturating_sub(placed)) {
                self.area_cuts += 1;
                return Enter::Cut;
            }
            if e.weight_cuts(q, filled, ctx.target.saturating_sub(placed)) {
                self.weight_cuts += 1;
                return Enter::Cut;
            }
            filled
        } else {
            window
        };
        let key = match ctx.memo {
            Some(memo) => {
                let key = key_of(q, window, ctx.mode, balances);
                if let Some(key) = &key {
                    let cuts =
                        |key: &Key| memo.get(key).is_some_and(|more| placed + more < ctx.target);
                    if cuts(key) {
                        self.memo_hits += 1;
                        return Enter::Cut;
                    }
                    for &kept in &e.relaxed {
                        let relaxed = key.keeping(kept);
                        if relaxed != *key && cuts(&relaxed) {
                            self.memo_hits += 1;
                            self.memo_relaxed_hits += 1;
                            return Enter::Cut;
                        }
                    }
                }
                key
            }
            _ => None,
        };
        Enter::Node(q, window, key)
    }

    /// Depth-first search from a node; on [`Flow::Found`] the stack holds the packing.
    pub(super) fn search(&mut self, q: usize, window: W, placed: u32) -> Flow {
        self.nodes += 1;
        if (self.nodes & 0xfff == 0 || self.nodes == self.budget) && self.should_stop() {
            return Flow::Aborted;
        }
        let (q, window, key) = match self.enter(q, window, placed) {
            Enter::Found => return Flow::Found,
            Enter::Cut => return Flow::Exhausted,
            Enter::Node(q, window, key) => (q, window, key),
        };
        let e = self.ctx.engine;
        let before = self.nodes;
        for i in e.prep.starts[q] as usize..e.prep.starts[q + 1] as usize {
            let mask = e.masks[i];
            if window.overlaps(mask) || !self.push(i) {
                continue;
            }
            match self.search(q + 1, window.union(mask).shr(1), placed + 1) {
                Flow::Exhausted => self.pop(i),
                flow => return flow,
            }
        }
        let flow = self.search(q + 1, window.shr(1), placed);
        if flow == Flow::Exhausted {
            if let (Some(memo), Some(key)) = (self.ctx.memo, key) {
                // Exhausted with `placed` pieces: fewer than target - placed more fit here.
                if let Some(more) = self.ctx.target.checked_sub(placed + 1) {
                    memo.put(&key, more, self.nodes - before);
                    self.memo_stores += 1;
                }
            }
        }
        flow
    }

    /// The children of a node (for splitting over threads), or the packing if it is one.
    pub(super) fn expand(&mut self, state: &State<W>) -> Result<Vec<State<W>>, Vec<u32>> {
        self.load(state);
        let (q, window) = match self.enter(state.q, state.window, state.placed) {
            Enter::Found => return Err(self.stack.clone()),
            Enter::Cut => return Ok(Vec::new()),
            Enter::Node(q, window, _) => (q, window),
        };
        let e = self.ctx.engine;
        let mut children = Vec::new();
        for i in e.prep.starts[q] as usize..e.prep.starts[q + 1] as usize {
            let mask = e.masks[i];
            if window.overlaps(mask) || !self.push(i) {
                continue;
            }
            children.push(self.state(q + 1, window.union(mask).shr(1), state.placed + 1));
            self.pop(i);
        }
        children.push(self.state(q + 1, window.shr(1), state.placed));
        Ok(children)
    }
}
