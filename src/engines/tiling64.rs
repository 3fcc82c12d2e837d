//! Tiling search on boards of at most 64 cells: the board is one `u64`, cells numbered along
//! the shorter side first so that the first empty cell is found with one `trailing_zeros`
//! and the frontier stays short; placements are pre-indexed by their first cell and grouped
//! by piece; nothing is allocated in the loop.
//!
//! After each placement the empty cells are split into connected regions by bitwise flood
//! fill, and the node is cut when a region cannot be tiled by size alone: smaller than the
//! smallest piece, or not a multiple of the gcd of the piece sizes (every tiling of a region
//! covers it with whole pieces). This is what makes 6 x 10 pentominoes fast: most dead ends
//! are small pockets that plain first-empty-cell search only discovers many levels later.

use super::exact_cover::{SearchEnd, SearchSummary};
use crate::geometry::placements::PackingInstance;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

/// A piece and its placements starting at one bit, as (mask, placement index).
type PieceGroup = (usize, Vec<(u64, usize)>);

/// The 64-bit tiling engine over the placements kept by the caller.
pub(crate) struct Tiling64<'a> {
    instance: &'a PackingInstance,
    /// Per bit, the placements whose lowest bit it is, as (piece, masks and indices).
    starting: Vec<Vec<PieceGroup>>,
    full: u64,
    blocked: u64,
    /// Masks of cells that have a neighbour one bit up / one bit down along a line.
    has_next: u64,
    has_prev: u64,
    line: u32,
    used: Vec<usize>,
    max: Vec<usize>,
    min_size: u32,
    gcd: u32,
    chosen: Vec<usize>,
    solutions: u64,
    nodes: u64,
    end: SearchEnd,
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl<'a> Tiling64<'a> {
    /// The engine for `instance` (at most 64 cells) over the placements with `keep(index)`.
    pub(crate) fn new(instance: &'a PackingInstance, keep: impl Fn(usize) -> bool) -> Self {
        let (w, h) = (instance.width, instance.height);
        let n = w * h;
        assert!(n <= 64, "the 64-bit engine needs at most 64 cells");
        // Lines run along the shorter side: columns when the board is wider than tall.
        let (line, bit): (usize, Box<dyn Fn(usize) -> usize>) = if w > h {
            (h, Box::new(move |c: usize| (c % w) * h + c / w))
        } else {
            (w, Box::new(|c: usize| c))
        };
        let mut starting: Vec<Vec<PieceGroup>> = vec![Vec::new(); n];
        let mut min_size = u32::MAX;
        let mut g = 0;
        for (i, p) in instance.placements.iter().enumerate() {
            if !keep(i) {
                continue;
            }
            let mask = p.cells.iter().fold(0u64, |m, &c| m | 1 << bit(c));
            min_size = min_size.min(p.cells.len() as u32);
            g = gcd(g, p.cells.len() as u32);
            let groups = &mut starting[mask.trailing_zeros() as usize];
            match groups.iter_mut().find(|grp| grp.0 == p.piece) {
                Some(group) => group.1.push((mask, i)),
                None => groups.push((p.piece, vec![(mask, i)])),
            }
        }
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let blocked = (0..n)
            .filter(|&c| instance.blocked[c])
            .fold(0u64, |m, c| m | 1 << bit(c));
        let mut has_next = 0u64;
        let mut has_prev = 0u64;
        for b in 0..n {
            if b % line + 1 < line {
                has_next |= 1 << b;
            }
            if b % line > 0 {
                has_prev |= 1 << b;
            }
        }
        Tiling64 {
            instance,
            starting,
            full,
            blocked,
            has_next,
            has_prev,
            line: line as u32,
            used: vec![0; instance.pieces.len()],
            max: instance
                .pieces
                .iter()
                .map(|l| l.max.unwrap_or(usize::MAX))
                .collect(),
            min_size: min_size.min(64),
            gcd: g.max(1),
            chosen: Vec::new(),
            solutions: 0,
            nodes: 0,
            end: SearchEnd::Exhausted,
        }
    }

    /// Visits every tiling, passing its placement indices to `visit`.
    pub(crate) fn solve(
        self,
        stop: &AtomicBool,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> SearchSummary {
        self.solve_from(&[], stop, visit)
    }

    /// Visits every tiling that contains the placements `fixed` (placed before the search
    /// starts, whether kept or not), passing its placement indices to `visit`. Placing a
    /// piece first, wherever it is, splits the board early, so the region check prunes from
    /// the first levels on.
    pub(crate) fn solve_from(
        mut self,
        fixed: &[usize],
        stop: &AtomicBool,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> SearchSummary {
        let (w, h) = (self.instance.width, self.instance.height);
        let bit = |c: usize| if w > h { (c % w) * h + c / w } else { c };
        let mut filled = self.blocked;
        let mut clash = false;
        for &f in fixed {
            let p = &self.instance.placements[f];
            let mask = p.cells.iter().fold(0u64, |m, &c| m | 1 << bit(c));
            clash |= mask & filled != 0;
            filled |= mask;
            self.used[p.piece] += 1;
            self.chosen.push(f);
        }
        let over = self.used.iter().zip(&self.max).any(|(u, m)| u > m);
        if !clash && !over && self.regions_ok(filled) {
            let _ = self.search(filled, stop, visit);
        }
        SearchSummary {
            solutions: self.solutions,
            nodes: self.nodes,
            end: self.end,
        }
    }

    /// The empty cells next to `region` (one step along or across a line).
    #[inline]
    fn grow(&self, region: u64, empty: u64) -> u64 {
        let along = ((region & self.has_next) << 1) | ((region & self.has_prev) >> 1);
        let across = (region << self.line) | (region >> self.line);
        (region | along | across) & empty
    }

    /// Whether every connected region of empty cells could be tiled by size alone.
    #[inline]
    fn regions_ok(&self, filled: u64) -> bool {
        let mut empty = !filled & self.full;
        while empty != 0 {
            let mut region = empty & empty.wrapping_neg();
            loop {
                let next = self.grow(region, empty);
                if next == region {
                    break;
                }
                region = next;
            }
            let size = region.count_ones();
            if size < self.min_size || !size.is_multiple_of(self.gcd) {
                return false;
            }
            empty &= !region;
        }
        true
    }

    fn search(
        &mut self,
        filled: u64,
        stop: &AtomicBool,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.nodes += 1;
        if self.nodes & 0xffff == 0 && stop.load(Ordering::Relaxed) {
            self.end = SearchEnd::StopFlag;
            return ControlFlow::Break(());
        }
        if filled == self.full {
            let ok = self
                .instance
                .pieces
                .iter()
                .zip(&self.used)
                .all(|(l, &n)| n >= l.min);
            if ok {
                self.solutions += 1;
                if visit(&self.chosen).is_break() {
                    self.end = SearchEnd::Callback;
                    return ControlFlow::Break(());
                }
            }
            return ControlFlow::Continue(());
        }
        let b = (!filled).trailing_zeros() as usize;
        // Taken out and put back so the recursion can borrow `self` mutably.
        let groups = std::mem::take(&mut self.starting[b]);
        let mut flow = ControlFlow::Continue(());
        'groups: for (piece, group) in &groups {
            let piece = *piece;
            if self.used[piece] >= self.max[piece] {
                continue;
            }
            for &(mask, index) in group {
                if mask & filled != 0 {
                    continue;
                }
                let next = filled | mask;
                if !self.regions_ok(next) {
                    continue;
                }
                self.used[piece] += 1;
                self.chosen.push(index);
                flow = self.search(next, stop, visit);
                self.chosen.pop();
                self.used[piece] -= 1;
                if flow.is_break() {
                    break 'groups;
                }
            }
        }
        self.starting[b] = groups;
        flow
    }
}
