//! The bitboard search shared by tilings and packings: the scan (placements grouped by first
//! cell and piece, regions cut by flood fill) and the depth-first searcher.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::board::Board;
use crate::engines::exact_cover::SearchEnd;
use crate::engines::russian_doll::scan_order;
use crate::geometry::placements::PackingInstance;

/// Some placements of one piece starting at one scan cell, as (mask, placement index).
pub(super) struct Group<B> {
    pub(super) piece: usize,
    pub(super) masks: Vec<(B, usize)>,
}

/// The instance as bitboards in scan order, shared (read-only) by the searches.
pub(super) struct Scan<B> {
    pub(super) cells: usize,
    /// Per scan cell, the placements whose first cell it is, grouped by piece.
    pub(super) starting: Vec<Vec<Group<B>>>,
    /// Every cell of the board; the blocked ones.
    pub(super) full: B,
    pub(super) blocked: B,
    /// Cells with a neighbour one bit up / one bit down along a scan line; the line length.
    pub(super) has_next: B,
    pub(super) has_prev: B,
    pub(super) line: u32,
    /// Smallest placement size and gcd of the placement sizes (region pruning).
    pub(super) min_size: u32,
    pub(super) gcd: u32,
    pub(super) min: Vec<usize>,
    pub(super) max: Vec<usize>,
    /// Row-major cell to scan position.
    pub(super) position: Vec<usize>,
}

pub(super) fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl<B: Board> Scan<B> {
    /// The search over the placements with `keep(index)` (the board must fit in `B`).
    /// `keep` is a trait object so that this runs once per board width, not once per width
    /// and caller.
    pub(super) fn new(instance: &PackingInstance, keep: &dyn Fn(usize) -> bool) -> Self {
        let (w, h) = (instance.width, instance.height);
        let cells = w * h;
        assert!(cells <= B::BITS, "the board must fit in the bitboard");
        let order = scan_order(w, h);
        let mut position = vec![0; cells];
        for (k, &c) in order.iter().enumerate() {
            position[c] = k;
        }
        let line = w.min(h);
        let mut starting: Vec<Vec<Group<B>>> = (0..cells).map(|_| Vec::new()).collect();
        let (mut min_size, mut g) = (u32::MAX, 0);
        for (i, p) in instance.placements.iter().enumerate() {
            if !keep(i) {
                continue;
            }
            let first = p.cells.iter().map(|&c| position[c]).min().unwrap_or(0);
            let mask = p.cells.iter().fold(B::empty(), |m, &c| m.with(position[c]));
            min_size = min_size.min(p.cells.len() as u32);
            g = gcd(g, p.cells.len() as u32);
            let groups = &mut starting[first];
            match groups.iter_mut().find(|grp| grp.piece == p.piece) {
                Some(group) => group.masks.push((mask, i)),
                None => groups.push(Group {
                    piece: p.piece,
                    masks: vec![(mask, i)],
                }),
            }
        }
        let bits =
            |f: &dyn Fn(usize) -> bool| (0..cells).filter(|&k| f(k)).fold(B::empty(), B::with);
        Scan {
            cells,
            starting,
            full: bits(&|_| true),
            blocked: bits(&|k| instance.blocked[order[k]]),
            has_next: bits(&|k| k % line + 1 < line),
            has_prev: bits(&|k| k % line > 0),
            line: line as u32,
            min_size: min_size.min(cells as u32).max(1),
            gcd: g.max(1),
            min: instance.pieces.iter().map(|l| l.min).collect(),
            max: instance
                .pieces
                .iter()
                .map(|l| l.max.unwrap_or(usize::MAX))
                .collect(),
            position,
        }
    }

    /// The mask of a placement's cells.
    pub(super) fn mask(&self, cells: &[usize]) -> B {
        cells
            .iter()
            .fold(B::empty(), |m, &c| m.with(self.position[c]))
    }

    /// The open cells next to `region` (one step along or across a scan line).
    #[inline]
    pub(super) fn grow(&self, region: B, open: B) -> B {
        let along = region
            .and(self.has_next)
            .shl(1)
            .union(region.and(self.has_prev).shr(1));
        let across = region.shl(self.line).union(region.shr(self.line));
        region.union(along).union(across).and(open)
    }

    /// Whether every connected region of open cells could be tiled by its size alone.
    #[inline]
    pub(super) fn regions_ok(&self, filled: B) -> bool {
        let mut open = self.full.without(filled);
        while !open.is_empty() {
            let mut region = open.lowest();
            loop {
                let next = self.grow(region, open);
                if next == region {
                    break;
                }
                region = next;
            }
            let size = region.count();
            if size < self.min_size || !size.is_multiple_of(self.gcd) {
                return false;
            }
            open = open.without(region);
        }
        true
    }
}

/// A snapshot of a running [`maximise`](super::maximise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Pieces in the best packing so far (`None` before the first one).
    pub best: Option<usize>,
    /// Proven upper bound on the number of pieces (the root bound until the search ends).
    pub bound: usize,
    /// Branch-and-bound nodes visited so far.
    pub nodes: u64,
}

/// What a [`Searcher`] looks for.
pub(super) enum Task<'t> {
    /// Every tiling, handed to the callback.
    Tile {
        /// Cut nodes whose open regions cannot be tiled by size.
        regions: bool,
        visit: &'t mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    },
    /// Packings meeting the minimums with at least `target` pieces, `target` raised past
    /// each one found when maximising.
    Pack {
        /// Per scan cell (and a last 0): at most this many pieces start there or later.
        suffix: &'t [u32],
        target: u32,
        maximise: bool,
        best: Option<Vec<usize>>,
        progress_every: u64,
        progress: &'t mut dyn FnMut(&Progress),
        root_bound: usize,
    },
}

/// One depth-first search over a [`Scan`].
pub(super) struct Searcher<'s, 't, B> {
    pub(super) scan: &'s Scan<B>,
    pub(super) task: Task<'t>,
    pub(super) used: Vec<usize>,
    /// Pieces still owed to the minimums.
    pub(super) owed: u32,
    /// Pieces the maximums still allow (`u32::MAX` if some piece is unlimited).
    pub(super) spare: u32,
    pub(super) chosen: Vec<usize>,
    pub(super) solutions: u64,
    pub(super) nodes: u64,
    pub(super) stop: Option<&'s AtomicBool>,
    pub(super) deadline: Option<Instant>,
    pub(super) end: SearchEnd,
}

impl<'s, 't, B: Board> Searcher<'s, 't, B> {
    pub(super) fn new(
        scan: &'s Scan<B>,
        task: Task<'t>,
        stop: Option<&'s AtomicBool>,
        deadline: Option<Instant>,
    ) -> Self {
        Searcher {
            scan,
            task,
            used: vec![0; scan.min.len()],
            owed: scan.min.iter().sum::<usize>() as u32,
            spare: scan
                .max
                .iter()
                .try_fold(0u32, |sum, &m| {
                    (m != usize::MAX).then(|| sum.saturating_add(m.min(u32::MAX as usize) as u32))
                })
                .unwrap_or(u32::MAX),
            chosen: Vec::new(),
            solutions: 0,
            nodes: 0,
            stop,
            deadline,
            end: SearchEnd::Exhausted,
        }
    }

    /// Runs the search with the placements `fixed` placed first (whether kept or not).
    pub(super) fn run(&mut self, instance: &PackingInstance, fixed: &[usize]) {
        let mut filled = self.scan.blocked;
        for &f in fixed {
            let p = &instance.placements[f];
            let mask = self.scan.mask(&p.cells);
            if mask.overlaps(filled) || !self.push(p.piece, f) {
                return;
            }
            filled = filled.union(mask);
        }
        let _ = match self.task {
            Task::Tile { regions, .. } => {
                if regions && !self.scan.regions_ok(filled) {
                    return;
                }
                self.tile(filled)
            }
            Task::Pack { .. } => self.pack(filled, fixed.len() as u32),
        };
    }

    /// Adds placement `index` of `piece` if the piece's maximum allows.
    #[inline(always)]
    pub(super) fn push(&mut self, piece: usize, index: usize) -> bool {
        let used = self.used[piece];
        if used >= self.scan.max[piece] {
            return false;
        }
        if used < self.scan.min[piece] {
            self.owed -= 1;
        }
        if self.spare != u32::MAX {
            self.spare -= 1;
        }
        self.used[piece] = used + 1;
        self.chosen.push(index);
        true
    }

    #[inline(always)]
    pub(super) fn pop(&mut self, piece: usize) {
        self.chosen.pop();
        self.used[piece] -= 1;
        if self.used[piece] < self.scan.min[piece] {
            self.owed += 1;
        }
        // `u32::MAX` (unlimited) stays put.
        self.spare = self.spare.saturating_add(1);
    }

    /// Counts a node; `true` when the search must stop (flag or deadline).
    #[inline(always)]
    pub(super) fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 0xfff == 0 {
            let stopped = self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
                || self.deadline.is_some_and(|d| Instant::now() >= d);
            if stopped {
                self.end = SearchEnd::StopFlag;
                return true;
            }
        }
        false
    }

    pub(super) fn tile(&mut self, filled: B) -> ControlFlow<()> {
        if self.tick() {
            return ControlFlow::Break(());
        }
        let scan = self.scan;
        let q = filled.trailing_ones() as usize;
        if q >= scan.cells {
            if self.owed == 0 {
                self.solutions += 1;
                let Task::Tile { visit, .. } = &mut self.task else {
                    unreachable!("tile runs tile tasks")
                };
                if visit(&self.chosen).is_break() {
                    self.end = SearchEnd::Callback;
                    return ControlFlow::Break(());
                }
            }
            return ControlFlow::Continue(());
        }
        let regions = matches!(self.task, Task::Tile { regions: true, .. });
        for group in &scan.starting[q] {
            if self.used[group.piece] >= scan.max[group.piece] {
                continue;
            }
            for &(mask, index) in &group.masks {
                if mask.overlaps(filled) {
                    continue;
                }
                let next = filled.union(mask);
                if regions && !scan.regions_ok(next) {
                    continue;
                }
                self.push(group.piece, index);
                let flow = self.tile(next);
                self.pop(group.piece);
                flow?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The branch and bound of [`maximise`] with minimums; `filled` holds the cells covered,
    /// blocked or left empty.
    pub(super) fn pack(&mut self, mut filled: B, placed: u32) -> ControlFlow<()> {
        if self.tick() {
            return ControlFlow::Break(());
        }
        let scan = self.scan;
        let Task::Pack {
            target,
            maximise,
            best,
            progress,
            progress_every,
            root_bound,
            ..
        } = &mut self.task
        else {
            unreachable!("pack runs pack tasks")
        };
        if *progress_every > 0 && self.nodes.is_multiple_of(*progress_every) {
            progress(&Progress {
                best: best.as_ref().map(Vec::len),
                bound: *root_bound,
                nodes: self.nodes,
            });
        }
        if placed >= *target && self.owed == 0 {
            *best = Some(self.chosen.clone());
            progress(&Progress {
                best: Some(self.chosen.len()),
                bound: *root_bound,
                nodes: self.nodes,
            });
            if !*maximise {
                self.end = SearchEnd::Callback;
                return ControlFlow::Break(());
            }
            *target = placed + 1;
        }
        // Cells where nothing starts stay empty whatever follows.
        let mut q = filled.trailing_ones() as usize;
        while q < scan.cells && scan.starting[q].is_empty() {
            filled = filled.with(q);
            q = filled.trailing_ones() as usize;
        }
        if q >= scan.cells {
            return ControlFlow::Continue(());
        }
        for group in &scan.starting[q] {
            for &(mask, index) in &group.masks {
                if !self.promising(q, placed) {
                    return ControlFlow::Continue(());
                }
                if mask.overlaps(filled) || !self.push(group.piece, index) {
                    continue;
                }
                let flow = self.pack(filled.union(mask), placed + 1);
                self.pop(group.piece);
                flow?;
            }
        }
        if !self.promising(q + 1, placed) {
            return ControlFlow::Continue(());
        }
        self.pack(filled.with(q), placed)
    }

    /// Whether pieces starting at scan cell `q` or later can still reach the target and pay
    /// what the minimums are owed.
    #[inline(always)]
    pub(super) fn promising(&self, q: usize, placed: u32) -> bool {
        let Task::Pack { suffix, target, .. } = &self.task else {
            return true;
        };
        let more = suffix[q].min(self.spare);
        placed.saturating_add(more) >= *target && self.owed <= more
    }
}
