//! Packing placements into a grid region by one bitboard search: tilings (enumerated,
//! counted, counted up to symmetry) and maximum packings with piece minimums.
//!
//! The input is plain data ([`PackingInstance`]): a rectangle of cells, some blocked, a list of
//! [`Placement`](crate::geometry::placements::Placement)s (a piece index and the cells it
//! would cover) and per-piece count limits.
//! [`orientations`](crate::geometry::placements::orientations) and
//! [`placements`](crate::geometry::placements::placements) build placement lists from
//! polyomino shapes.
//!
//! The search (`Scan`) keeps the board as one bitset ([`Board`]: `u64`, `u128` or
//! [`Wide`] words, the smallest that holds the board, so up to 1024 cells), cells numbered in
//! the Russian doll's scan order ([`scan_order`]: along the short side first, so the first
//! open cell is one `trailing_ones` away and the frontier stays short). At the first open
//! cell it tries every placement whose first cell it is, grouped by piece so that a used-up
//! piece is passed over at once; a tiling must cover that cell, a packing may also leave it
//! empty. Nothing is allocated in the loop.
//!
//! - [`count_tilings`] / [`enumerate_tilings`]: every free cell covered exactly once. After
//!   each placement the open cells are split into connected regions by bitwise flood fill,
//!   and the node is cut when a region cannot be tiled by size alone (smaller than the
//!   smallest piece, or not a multiple of the gcd of the piece sizes): most dead ends of
//!   6 x 10 pentominoes are small pockets that the plain search only finds many levels
//!   later. [`count_tilings`] can also count up to the symmetries of the rectangle (see there
//!   for why that count is sound). Dancing links ([`super::exact_cover`]) remains as the
//!   independent cross-check and for boards of more than 1024 cells.
//! - [`maximise`]: as many pieces as possible, or the decision "at least K". Without piece
//!   minimums this is the Russian doll ([`super::russian_doll`]) alone. With minimums, the
//!   doll's suffix table of the instance without them (`S[q]`: the most pieces whose first
//!   cell is `q` or later) bounds a branch and bound over the same scan: a node at cell `q`
//!   with `placed` pieces is cut when `placed + S[q]` cannot reach the target, or when the
//!   pieces still owed to the minimums outnumber `S[q]`.

use rustc_hash::FxHashMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::exact_cover::{ExactCover, SearchEnd, SearchSummary};
use super::russian_doll::{self, scan_order, DollOptions, Wide, Window};
use crate::geometry::placements::{symmetry_group, PackingError, PackingInstance, PieceLimit};

// ---------------------------------------------------------------------------------------------
// Boards

/// A whole board as a bitset in scan order: the [`Window`] operations and those the flood
/// fill needs. Implemented for `u64`, `u128` and [`Wide`].
pub trait Board: Window + PartialEq {
    /// Bits in both.
    fn and(self, other: Self) -> Self;
    /// Bits of `self` not in `other`.
    fn without(self, other: Self) -> Self;
    /// Shifted away from bit 0 by `n` (bits pushed past `BITS` are dropped).
    fn shl(self, n: u32) -> Self;
    /// Number of bits set.
    fn count(self) -> u32;
    /// The lowest bit set, alone (empty if none).
    fn lowest(self) -> Self;
    /// Whether no bit is set.
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::empty()
    }
}

macro_rules! primitive_board {
    ($t:ty) => {
        impl Board for $t {
            #[inline(always)]
            fn and(self, other: Self) -> Self {
                self & other
            }
            #[inline(always)]
            fn without(self, other: Self) -> Self {
                self & !other
            }
            #[inline(always)]
            fn shl(self, n: u32) -> Self {
                self.checked_shl(n).unwrap_or(0)
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> Self {
                self & self.wrapping_neg()
            }
        }
    };
}
primitive_board!(u64);
primitive_board!(u128);

impl<const K: usize> Board for Wide<K> {
    #[inline(always)]
    fn and(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a &= b;
        }
        self
    }
    #[inline(always)]
    fn without(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a &= !b;
        }
        self
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        let (words, bits) = ((n / 64) as usize, n % 64);
        let mut out = [0u64; K];
        for (i, o) in out.iter_mut().enumerate().skip(words) {
            let lo = self.0[i - words];
            let below = if i > words { self.0[i - words - 1] } else { 0 };
            *o = if bits == 0 {
                lo
            } else {
                lo << bits | below >> (64 - bits)
            };
        }
        Wide(out)
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn lowest(self) -> Self {
        let mut out = [0u64; K];
        if let Some(i) = self.0.iter().position(|&w| w != 0) {
            out[i] = self.0[i] & self.0[i].wrapping_neg();
        }
        Wide(out)
    }
}

/// Most cells a bitboard search handles (16 words).
pub const MAX_BOARD_CELLS: usize = 1024;

/// Calls `$run::<B>($args)` with `B` the smallest [`Board`] of at least `$words` words
/// (`$words` at most 16).
macro_rules! with_board {
    ($words:expr, $run:ident($($arg:expr),*)) => {
        match $words {
            0 | 1 => $run::<u64>($($arg),*),
            2 => $run::<u128>($($arg),*),
            3 => $run::<Wide<3>>($($arg),*),
            4 => $run::<Wide<4>>($($arg),*),
            5 => $run::<Wide<5>>($($arg),*),
            6 => $run::<Wide<6>>($($arg),*),
            7 => $run::<Wide<7>>($($arg),*),
            8 => $run::<Wide<8>>($($arg),*),
            9 => $run::<Wide<9>>($($arg),*),
            10 => $run::<Wide<10>>($($arg),*),
            11 => $run::<Wide<11>>($($arg),*),
            12 => $run::<Wide<12>>($($arg),*),
            13 => $run::<Wide<13>>($($arg),*),
            14 => $run::<Wide<14>>($($arg),*),
            15 => $run::<Wide<15>>($($arg),*),
            _ => $run::<Wide<16>>($($arg),*),
        }
    };
}

/// Words of the board a search uses: the fewest that hold the board, or `at_least`.
fn board_words(cells: usize, at_least: usize) -> usize {
    cells.div_ceil(64).max(at_least).max(1)
}

// ---------------------------------------------------------------------------------------------
// The bitboard search

/// Some placements of one piece starting at one scan cell, as (mask, placement index).
struct Group<B> {
    piece: usize,
    masks: Vec<(B, usize)>,
}

/// The instance as bitboards in scan order, shared (read-only) by the searches.
struct Scan<B> {
    cells: usize,
    /// Per scan cell, the placements whose first cell it is, grouped by piece.
    starting: Vec<Vec<Group<B>>>,
    /// Every cell of the board; the blocked ones.
    full: B,
    blocked: B,
    /// Cells with a neighbour one bit up / one bit down along a scan line; the line length.
    has_next: B,
    has_prev: B,
    line: u32,
    /// Smallest placement size and gcd of the placement sizes (region pruning).
    min_size: u32,
    gcd: u32,
    min: Vec<usize>,
    max: Vec<usize>,
    /// Row-major cell to scan position.
    position: Vec<usize>,
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl<B: Board> Scan<B> {
    /// The search over the placements with `keep(index)` (the board must fit in `B`).
    fn new(instance: &PackingInstance, keep: impl Fn(usize) -> bool) -> Self {
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
    fn mask(&self, cells: &[usize]) -> B {
        cells
            .iter()
            .fold(B::empty(), |m, &c| m.with(self.position[c]))
    }

    /// The open cells next to `region` (one step along or across a scan line).
    #[inline]
    fn grow(&self, region: B, open: B) -> B {
        let along = region
            .and(self.has_next)
            .shl(1)
            .union(region.and(self.has_prev).shr(1));
        let across = region.shl(self.line).union(region.shr(self.line));
        region.union(along).union(across).and(open)
    }

    /// Whether every connected region of open cells could be tiled by its size alone.
    #[inline]
    fn regions_ok(&self, filled: B) -> bool {
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

/// What a [`Searcher`] looks for.
enum Task<'t> {
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
struct Searcher<'s, 't, B> {
    scan: &'s Scan<B>,
    task: Task<'t>,
    used: Vec<usize>,
    /// Pieces still owed to the minimums.
    owed: u32,
    /// Pieces the maximums still allow (`u32::MAX` if some piece is unlimited).
    spare: u32,
    chosen: Vec<usize>,
    solutions: u64,
    nodes: u64,
    stop: Option<&'s AtomicBool>,
    deadline: Option<Instant>,
    end: SearchEnd,
}

impl<'s, 't, B: Board> Searcher<'s, 't, B> {
    fn new(
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
    fn run(&mut self, instance: &PackingInstance, fixed: &[usize]) {
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
    fn push(&mut self, piece: usize, index: usize) -> bool {
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
    fn pop(&mut self, piece: usize) {
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
    fn tick(&mut self) -> bool {
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

    fn tile(&mut self, filled: B) -> ControlFlow<()> {
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
    fn pack(&mut self, mut filled: B, placed: u32) -> ControlFlow<()> {
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
    fn promising(&self, q: usize, placed: u32) -> bool {
        let Task::Pack { suffix, target, .. } = &self.task else {
            return true;
        };
        let more = suffix[q].min(self.spare);
        placed.saturating_add(more) >= *target && self.owed <= more
    }
}

// ---------------------------------------------------------------------------------------------
// Tilings

/// Builds the exact-cover problem of tiling: one primary item per free cell, one item per piece
/// with a limit (exactly once: primary; at most once: secondary; other limits: counted item;
/// unlimited: no item). Only placements with `keep(index)` become options. Returns the problem
/// and the placement index of each option.
fn tiling_problem(
    instance: &PackingInstance,
    keep: impl Fn(usize) -> bool,
) -> (ExactCover, Vec<usize>) {
    let mut problem = ExactCover::new();
    let mut cell_item = vec![usize::MAX; instance.width * instance.height];
    for (c, &b) in instance.blocked.iter().enumerate() {
        if !b {
            cell_item[c] = problem.add_primary();
        }
    }
    let piece_item: Vec<Option<usize>> = instance
        .pieces
        .iter()
        .map(|l| match (l.min, l.max) {
            (1, Some(1)) => Some(problem.add_primary()),
            (0, Some(1)) => Some(problem.add_secondary()),
            (0, None) => None,
            (min, max) => Some(problem.add_counted(min, max)),
        })
        .collect();
    let mut option_placement = Vec::new();
    let mut items = Vec::new();
    for (i, p) in instance.placements.iter().enumerate() {
        if !keep(i) {
            continue;
        }
        items.clear();
        items.extend(p.cells.iter().map(|&c| cell_item[c]));
        items.extend(piece_item[p.piece]);
        problem.add_option(&items);
        option_placement.push(i);
    }
    (problem, option_placement)
}

/// Which algorithm searches tilings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TilingEngine {
    /// The bitboard search when the board has at most [`AUTO_BITBOARD_CELLS`] cells (with
    /// region pruning on boards of one word), dancing links otherwise.
    #[default]
    Auto,
    /// Dancing links ([`ExactCover`]): Algorithm X on cells and limited pieces as items,
    /// branching on the item with fewest options. Shares no code with the bitboard search.
    DancingLinks,
    /// The bitboard search (`Scan`), branching on the first open cell in scan order.
    Bitboard {
        /// Cut nodes whose open regions cannot be tiled by their size alone.
        regions: bool,
        /// Words of the board at least (0: the fewest that hold it), so that the wide
        /// boards can be cross-checked on small instances.
        words: usize,
    },
}

/// Boards up to this many cells are tiled by the bitboard search under
/// [`TilingEngine::Auto`]; larger ones by dancing links, as before the engines were merged
/// (no measurement yet says where the bitboard stops paying).
pub const AUTO_BITBOARD_CELLS: usize = 128;

/// Region pruning pays on boards of one word: measured (criterion, shared machine), 6 x 10
/// pentominoes need it, while 6 x 12 L-trominoes (two words) took 0.22 s with it against
/// 0.11 s without.
const AUTO_REGIONS_CELLS: usize = 64;

/// The bitboard search's settings for `engine` on `instance` (region pruning, words), or
/// `None` for dancing links.
fn bitboard_choice(instance: &PackingInstance, engine: TilingEngine) -> Option<(bool, usize)> {
    let cells = instance.width * instance.height;
    match engine {
        TilingEngine::Auto => (cells <= AUTO_BITBOARD_CELLS)
            .then(|| (cells <= AUTO_REGIONS_CELLS, board_words(cells, 0))),
        TilingEngine::DancingLinks => None,
        TilingEngine::Bitboard { regions, words } => {
            let words = board_words(cells, words);
            assert!(
                cells <= MAX_BOARD_CELLS && words <= 16,
                "the bitboard search takes at most {MAX_BOARD_CELLS} cells"
            );
            Some((regions, words))
        }
    }
}

/// Runs the chosen engine over the placements with `keep(index)`, passing placement indices.
fn solve_tilings(
    instance: &PackingInstance,
    engine: TilingEngine,
    keep: &dyn Fn(usize) -> bool,
    stop: &AtomicBool,
    visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
) -> SearchSummary {
    if let Some((regions, words)) = bitboard_choice(instance, engine) {
        return with_board!(words, tile_with(instance, regions, keep, stop, visit));
    }
    let (problem, option_placement) = tiling_problem(instance, keep);
    let mut tiling = Vec::new();
    problem.solve(stop, |options| {
        tiling.clear();
        tiling.extend(options.iter().map(|&o| option_placement[o]));
        visit(&tiling)
    })
}

/// The bitboard tiling search over the placements with `keep(index)`.
fn tile_with<B: Board>(
    instance: &PackingInstance,
    regions: bool,
    keep: &dyn Fn(usize) -> bool,
    stop: &AtomicBool,
    visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
) -> SearchSummary {
    let scan = Scan::<B>::new(instance, keep);
    let mut searcher = Searcher::new(&scan, Task::Tile { regions, visit }, Some(stop), None);
    searcher.run(instance, &[]);
    SearchSummary {
        solutions: searcher.solutions,
        nodes: searcher.nodes,
        end: searcher.end,
    }
}

/// The pivot piece of a symmetric count: its orbit representatives and their stabilisers.
struct Pivots<'a> {
    piece: usize,
    representatives: &'a [usize],
    group: &'a [Vec<usize>],
    stabiliser: &'a FxHashMap<usize, Vec<usize>>,
}

/// The symmetric count by the bitboard search: one search per representative of the pivot
/// piece, with it placed first, in parallel.
fn count_by_pivot<B: Board>(
    instance: &PackingInstance,
    pivots: &Pivots<'_>,
    regions: bool,
    stop: &AtomicBool,
) -> TilingCount {
    use rayon::prelude::*;
    let scan = Scan::<B>::new(instance, |i| instance.placements[i].piece != pivots.piece);
    let order = pivots.group.len() as u64;
    let parts: Vec<(u64, u64, u64, SearchEnd)> = pivots
        .representatives
        .par_iter()
        .map(|&r| {
            let (mut raw, mut orbits) = (0u64, 0u64);
            let (mut tiling, mut image) = (Vec::new(), Vec::new());
            let stabiliser = &pivots.stabiliser[&r];
            let mut visit = |found: &[usize]| {
                if let Some(fixing) =
                    canonical_fixers(found, pivots.group, stabiliser, &mut tiling, &mut image)
                {
                    orbits += 1;
                    raw += order / fixing;
                }
                ControlFlow::Continue(())
            };
            let task = Task::Tile {
                regions,
                visit: &mut visit,
            };
            let mut searcher = Searcher::new(&scan, task, Some(stop), None);
            searcher.run(instance, &[r]);
            let (nodes, end) = (searcher.nodes, searcher.end);
            drop(searcher);
            (raw, orbits, nodes, end)
        })
        .collect();
    TilingCount {
        raw: parts.iter().map(|p| p.0).sum(),
        up_to_symmetry: Some(parts.iter().map(|p| p.1).sum()),
        symmetries: pivots.group.len(),
        nodes: parts.iter().map(|p| p.2).sum(),
        complete: parts.iter().all(|p| p.3 == SearchEnd::Exhausted),
    }
}

/// Visits every tiling (every free cell covered exactly once, piece limits respected), passing
/// its placement indices to `visit`, which may stop the search.
pub fn enumerate_tilings<F>(
    instance: &PackingInstance,
    stop: &AtomicBool,
    visit: F,
) -> Result<SearchSummary, PackingError>
where
    F: FnMut(&[usize]) -> ControlFlow<()>,
{
    enumerate_tilings_with(instance, TilingEngine::Auto, stop, visit)
}

/// [`enumerate_tilings`] with a chosen engine.
pub fn enumerate_tilings_with<F>(
    instance: &PackingInstance,
    engine: TilingEngine,
    stop: &AtomicBool,
    mut visit: F,
) -> Result<SearchSummary, PackingError>
where
    F: FnMut(&[usize]) -> ControlFlow<()>,
{
    instance.validate()?;
    Ok(solve_tilings(instance, engine, &|_| true, stop, &mut visit))
}

/// Result of [`count_tilings`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TilingCount {
    /// Number of tilings.
    pub raw: u64,
    /// Number of tilings up to the symmetries used (`None` when symmetry was not asked for).
    pub up_to_symmetry: Option<u64>,
    /// Size of the symmetry group used (1 without symmetry).
    pub symmetries: usize,
    /// Exact-cover nodes visited.
    pub nodes: u64,
    /// `false` if the stop flag ended the search early (the counts are then lower bounds).
    pub complete: bool,
}

/// Counts tilings; with `symmetry`, also counts them up to the symmetries of the rectangle that
/// map the instance onto itself (blocked cells onto blocked cells, each placement onto a
/// placement of the same piece): 4 for a rectangle, 8 for a square, fewer if the instance is
/// less symmetric.
///
/// # Why the symmetric count is sound
/// Let `G` be that group; it acts on tilings. If some piece `p` is used exactly once, every
/// tiling `S` has one placement `P(S)` of `p`, and `P(g S) = g P(S)`. We choose one
/// representative `r` in each `G`-orbit of `p`'s placements and only search tilings with
/// `P(S)` a representative. Every `G`-orbit of tilings meets that set (move `P(S)` onto its
/// representative), and it meets it in exactly one orbit of the stabiliser `H = Stab(r)`: if
/// `P(S) = P(g S) = r` then `g r = r`. So counting the searched tilings that are
/// lexicographically smallest (as sorted placement lists) among their `H`-images counts each
/// `G`-orbit once. The raw count adds, per orbit, its size `|G| / |Stab_G(S)|`, and
/// `Stab_G(S) ⊆ H` (a symmetry fixing `S` fixes its only `p` placement), so it is computed
/// from the `H`-images too. Without a piece used exactly once, `H = G` and every tiling is
/// searched. Among the eligible pieces, the one with the fewest representatives is chosen.
pub fn count_tilings(
    instance: &PackingInstance,
    symmetry: bool,
    stop: &AtomicBool,
) -> Result<TilingCount, PackingError> {
    count_tilings_with(instance, symmetry, TilingEngine::Auto, stop)
}

/// [`count_tilings`] with a chosen engine.
pub fn count_tilings_with(
    instance: &PackingInstance,
    symmetry: bool,
    engine: TilingEngine,
    stop: &AtomicBool,
) -> Result<TilingCount, PackingError> {
    instance.validate()?;
    if !symmetry {
        let summary =
            enumerate_tilings_with(instance, engine, stop, |_| ControlFlow::Continue(()))?;
        return Ok(TilingCount {
            raw: summary.solutions,
            up_to_symmetry: None,
            symmetries: 1,
            nodes: summary.nodes,
            complete: summary.end == SearchEnd::Exhausted,
        });
    }
    let group = symmetry_group(instance);
    let order = group.len() as u64;
    // stabilisers[i]: the group elements fixing representative placement i (when restricted).
    let pivot = (0..instance.pieces.len())
        .filter(|&q| instance.pieces[q] == PieceLimit::exactly(1))
        .map(|q| {
            let reps = orbit_representatives(instance, &group, q);
            (reps.len(), q, reps)
        })
        .min_by_key(|(n, q, _)| (*n, *q));
    let all_elements: Vec<usize> = (0..group.len()).collect();
    let mut stabiliser: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    let pivot_piece = pivot.as_ref().map(|(_, q, _)| *q);
    if let Some((_, _, reps)) = &pivot {
        for &r in reps {
            let h = (0..group.len()).filter(|&g| group[g][r] == r).collect();
            stabiliser.insert(r, h);
        }
    }
    let keep = |i: usize| {
        pivot_piece.is_none_or(|q| instance.placements[i].piece != q || stabiliser.contains_key(&i))
    };
    if let (Some((_, q, reps)), Some((regions, words))) =
        (&pivot, bitboard_choice(instance, engine))
    {
        // One subproblem per representative, with the pivot placed first (a piece placed
        // first, wherever it is, splits the board early, so the region check prunes from the
        // first levels on), run in parallel: the subproblems share nothing.
        let pivots = Pivots {
            piece: *q,
            representatives: reps,
            group: &group,
            stabiliser: &stabiliser,
        };
        return Ok(with_board!(
            words,
            count_by_pivot(instance, &pivots, regions, stop)
        ));
    }
    let (mut raw, mut orbits) = (0u64, 0u64);
    let mut tiling = Vec::new();
    let mut image = Vec::new();
    let mut visit = |found: &[usize]| {
        tiling.clear();
        tiling.extend_from_slice(found);
        tiling.sort_unstable();
        let h = match pivot_piece {
            Some(q) => {
                let r = *tiling
                    .iter()
                    .find(|&&i| instance.placements[i].piece == q)
                    .expect("the pivot piece is used exactly once");
                &stabiliser[&r]
            }
            None => &all_elements,
        };
        let mut fixing = 0u64;
        for &g in h {
            image.clear();
            image.extend(tiling.iter().map(|&i| group[g][i]));
            image.sort_unstable();
            match image.cmp(&tiling) {
                std::cmp::Ordering::Less => return ControlFlow::Continue(()),
                std::cmp::Ordering::Equal => fixing += 1,
                std::cmp::Ordering::Greater => {}
            }
        }
        orbits += 1;
        raw += order / fixing;
        ControlFlow::Continue(())
    };
    let summary = solve_tilings(instance, engine, &keep, stop, &mut visit);
    Ok(TilingCount {
        raw,
        up_to_symmetry: Some(orbits),
        symmetries: group.len(),
        nodes: summary.nodes,
        complete: summary.end == SearchEnd::Exhausted,
    })
}

/// For a tiling `found` whose pivot placement has stabiliser `h`: `None` when some element
/// of `h` maps it to a lexicographically smaller tiling (it is not its orbit's
/// representative), otherwise the number of elements of `h` that fix it. `tiling` and
/// `image` are scratch buffers.
fn canonical_fixers(
    found: &[usize],
    group: &[Vec<usize>],
    h: &[usize],
    tiling: &mut Vec<usize>,
    image: &mut Vec<usize>,
) -> Option<u64> {
    tiling.clear();
    tiling.extend_from_slice(found);
    tiling.sort_unstable();
    let mut fixing = 0u64;
    for &g in h {
        image.clear();
        image.extend(tiling.iter().map(|&i| group[g][i]));
        image.sort_unstable();
        match (*image).cmp(tiling) {
            std::cmp::Ordering::Less => return None,
            std::cmp::Ordering::Equal => fixing += 1,
            std::cmp::Ordering::Greater => {}
        }
    }
    Some(fixing)
}

/// One placement (the smallest index) per orbit of `piece`'s placements under `group`.
fn orbit_representatives(
    instance: &PackingInstance,
    group: &[Vec<usize>],
    piece: usize,
) -> Vec<usize> {
    let mut seen = vec![false; instance.placements.len()];
    let mut reps = Vec::new();
    for (i, p) in instance.placements.iter().enumerate() {
        if p.piece != piece || seen[i] {
            continue;
        }
        reps.push(i);
        for g in group {
            seen[g[i]] = true;
        }
    }
    reps
}

// ---------------------------------------------------------------------------------------------
// Maximum packing

/// What [`maximise`] looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PackingGoal {
    /// A packing with as many pieces as possible, and a proof that none has more.
    Maximise,
    /// A packing with at least this many pieces, or a proof that none exists.
    AtLeast(usize),
}

/// Options of [`maximise`].
#[derive(Clone, Copy, Debug)]
pub struct PackingOptions<'a> {
    /// Maximise, or decide "at least K".
    pub goal: PackingGoal,
    /// With piece minimums, bound the branch and bound by the Russian doll's suffix table of
    /// the instance without them (on). Off, the bound at scan cell `q` is the free cells from
    /// `q` on over the smallest placement: weaker, and independent of the doll, for
    /// cross-checks.
    pub table: bool,
    /// Options of the Russian doll (threads, memo); its `stop` and `deadline` are replaced by
    /// the ones below. The branch and bound itself runs on the calling thread.
    pub doll: DollOptions<'a>,
    /// Words of the board at least (0: the fewest that hold it), so that the wide boards can
    /// be cross-checked on small instances.
    pub words: usize,
    /// Raised by another thread (e.g. Ctrl-C) to stop; the best packing so far is kept.
    pub stop: Option<&'a AtomicBool>,
    /// Stop at this instant; the best packing so far is kept.
    pub deadline: Option<Instant>,
    /// Call the progress callback every this many branch-and-bound nodes (0: only on
    /// improvements).
    pub progress_every: u64,
}

impl Default for PackingOptions<'_> {
    fn default() -> Self {
        PackingOptions {
            goal: PackingGoal::Maximise,
            table: true,
            doll: DollOptions::default(),
            words: 0,
            stop: None,
            deadline: None,
            progress_every: 1 << 20,
        }
    }
}

/// A snapshot of a running [`maximise`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Pieces in the best packing so far (`None` before the first one).
    pub best: Option<usize>,
    /// Proven upper bound on the number of pieces (the root bound until the search ends).
    pub bound: usize,
    /// Branch-and-bound nodes visited so far.
    pub nodes: u64,
}

/// Counters of a [`maximise`] run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PackingStats {
    /// Search nodes visited in all (the Russian doll's included).
    pub nodes: u64,
    /// Nodes of the Russian doll that made the suffix table.
    pub table_nodes: u64,
}

/// Result of [`maximise`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackingOutcome {
    /// Placement indices of the best packing found (`None` if none satisfies the piece
    /// minimums, or none was found before a stop).
    pub best: Option<Vec<usize>>,
    /// `true` if the search finished: for [`PackingGoal::Maximise`] `best` is optimal; for
    /// [`PackingGoal::AtLeast`] either `best` has at least K pieces or no such packing exists.
    pub proved: bool,
    /// Upper bound on the number of pieces (exact when `proved` and maximising).
    pub bound: usize,
    /// Search counters.
    pub stats: PackingStats,
}

impl PackingOutcome {
    /// Pieces in the best packing (0 if none).
    pub fn best_len(&self) -> usize {
        self.best.as_ref().map_or(0, Vec::len)
    }
}

/// Why [`maximise`] refused an instance.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MaximiseError {
    /// The instance is malformed.
    #[error(transparent)]
    Instance(#[from] PackingError),
    /// The Russian doll refused it (placements reaching too far).
    #[error("{0}")]
    Doll(#[from] russian_doll::DollError),
    /// A board with piece minimums larger than the bitboard search takes.
    #[error(
        "the board has {0} cells; with piece minimums at most {MAX_BOARD_CELLS} are supported"
    )]
    TooLarge(usize),
}

/// Packs as many pieces as possible (or decides "at least K"): by the Russian doll without
/// piece minimums, and with them by the bitboard branch and bound bounded by the doll's
/// table (see the module doc). `progress` is called on every improvement and every
/// `progress_every` branch-and-bound nodes.
pub fn maximise(
    instance: &PackingInstance,
    options: &PackingOptions<'_>,
    mut progress: impl FnMut(&Progress),
) -> Result<PackingOutcome, MaximiseError> {
    instance.validate()?;
    let cells = instance.width * instance.height;
    let minimums = instance.pieces.iter().any(|l| l.min > 0);
    if minimums && cells > MAX_BOARD_CELLS {
        return Err(MaximiseError::TooLarge(cells));
    }
    if !minimums {
        // The doll answers alone, maximums included.
        let doll_options = DollOptions {
            stop: options.stop,
            deadline: options.deadline,
            ..options.doll
        };
        let doll = russian_doll::solve(instance, &doll_options, |_, _| {})?;
        let stats = PackingStats {
            nodes: doll.stats.nodes,
            table_nodes: doll.stats.nodes,
        };
        return Ok(PackingOutcome {
            best: Some(doll.best),
            proved: doll.proved,
            bound: doll.bound,
            stats,
        });
    }
    let words = board_words(cells, options.words);
    let (suffix, table_nodes) = if options.table {
        // The suffix table of the instance without the minimums (the maximums kept), by
        // this same search: the doll's own search has no bound for binding maximums.
        let relaxed = PackingInstance {
            pieces: instance
                .pieces
                .iter()
                .map(|l| PieceLimit { min: 0, max: l.max })
                .collect(),
            ..instance.clone()
        };
        let table = with_board!(words, suffix_table(&relaxed, options));
        let Some(suffix) = table.suffix else {
            return Ok(PackingOutcome {
                best: None,
                proved: false,
                bound: area_suffix(instance)[0] as usize,
                stats: PackingStats {
                    nodes: table.nodes,
                    table_nodes: table.nodes,
                },
            });
        };
        // A largest packing that meets the minimums anyway is the answer.
        if instance.check_packing(&table.best).is_ok() {
            return Ok(PackingOutcome {
                bound: table.best.len(),
                best: Some(table.best),
                proved: true,
                stats: PackingStats {
                    nodes: table.nodes,
                    table_nodes: table.nodes,
                },
            });
        }
        (suffix, table.nodes)
    } else {
        (area_suffix(instance), 0)
    };
    let mut outcome = with_board!(words, pack_with(instance, options, &suffix, &mut progress));
    outcome.stats.nodes += table_nodes;
    outcome.stats.table_nodes = table_nodes;
    Ok(outcome)
}

/// A suffix table and the packing that set its first entry.
struct SuffixTable {
    /// Per scan position (and a last 0): the most pieces whose first cell is there or later;
    /// `None` if stopped first.
    suffix: Option<Vec<u32>>,
    best: Vec<usize>,
    nodes: u64,
}

/// The Russian-doll suffix table of `instance` (no minimums) by the bitboard search, from
/// the last scan cell back: entry `c` is entry `c + 1` or one more, one more exactly when a
/// packing of that many pieces starts every piece at `c` or later, which one search decides,
/// bounded by the entries already found, the area and the maximums.
fn suffix_table<B: Board>(instance: &PackingInstance, options: &PackingOptions<'_>) -> SuffixTable {
    let scan = Scan::<B>::new(instance, |_| true);
    let mut suffix = area_suffix(instance);
    let (mut best, mut nodes) = (Vec::new(), 0);
    for c in (0..scan.cells).rev() {
        let below = suffix[c + 1];
        if scan.starting[c].is_empty() || suffix[c] <= below {
            suffix[c] = below;
            continue;
        }
        suffix[c] = below + 1;
        let mut quiet = |_: &Progress| {};
        let task = Task::Pack {
            suffix: &suffix,
            target: below + 1,
            maximise: false,
            best: None,
            progress_every: 0,
            progress: &mut quiet,
            root_bound: 0,
        };
        let mut searcher = Searcher::new(&scan, task, options.stop, options.deadline);
        // Cells before c are closed: every piece starts at c or later.
        let closed = scan
            .blocked
            .union(scan.full.without(scan.full.shl(c as u32)));
        let _ = searcher.pack(closed, 0);
        nodes += searcher.nodes;
        let end = searcher.end;
        let Task::Pack { best: found, .. } = searcher.task else {
            unreachable!("a pack task")
        };
        match (found, end) {
            (Some(packing), _) => best = packing,
            (None, SearchEnd::StopFlag) => {
                return SuffixTable {
                    suffix: None,
                    best,
                    nodes,
                }
            }
            (None, _) => suffix[c] = below,
        }
    }
    SuffixTable {
        suffix: Some(suffix),
        best,
        nodes,
    }
}

/// Per scan position (and a last 0): free cells from there on over the smallest placement,
/// capped by the piece maximums.
fn area_suffix(instance: &PackingInstance) -> Vec<u32> {
    let order = scan_order(instance.width, instance.height);
    let smallest = instance
        .placements
        .iter()
        .map(|p| p.cells.len())
        .min()
        .unwrap_or(1);
    let capacity = instance
        .pieces
        .iter()
        .try_fold(0usize, |sum, l| l.max.map(|m| sum + m))
        .unwrap_or(usize::MAX);
    let mut suffix = vec![0u32; order.len() + 1];
    let mut free = 0;
    for k in (0..order.len()).rev() {
        free += usize::from(!instance.blocked[order[k]]);
        suffix[k] = (free / smallest).min(capacity) as u32;
    }
    suffix
}

/// The branch and bound with minimums on a board of type `B`.
fn pack_with<B: Board>(
    instance: &PackingInstance,
    options: &PackingOptions<'_>,
    suffix: &[u32],
    progress: &mut dyn FnMut(&Progress),
) -> PackingOutcome {
    let root_bound = suffix[0] as usize;
    let (target, maximise) = match options.goal {
        PackingGoal::Maximise => (0, true),
        PackingGoal::AtLeast(k) => (k.min(u32::MAX as usize) as u32, false),
    };
    let scan = Scan::<B>::new(instance, |_| true);
    let task = Task::Pack {
        suffix,
        target,
        maximise,
        best: None,
        progress_every: options.progress_every,
        progress,
        root_bound,
    };
    let mut searcher = Searcher::new(&scan, task, options.stop, options.deadline);
    searcher.run(instance, &[]);
    let (nodes, end) = (searcher.nodes, searcher.end);
    let Task::Pack { best, .. } = searcher.task else {
        unreachable!("a pack task")
    };
    let found = best.as_ref().map(Vec::len);
    let proved = end != SearchEnd::StopFlag;
    let bound = match (proved, options.goal) {
        (true, PackingGoal::Maximise) => found.unwrap_or(0),
        (true, PackingGoal::AtLeast(k)) if found.is_none() => root_bound.min(k.saturating_sub(1)),
        _ => root_bound,
    };
    PackingOutcome {
        best,
        proved,
        bound,
        stats: PackingStats {
            nodes,
            table_nodes: 0,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::placements::{orientations, PieceShapes};
    use crate::geometry::shapes::{
        cross_box, pentomino_box, picture_cells as shape, shapes, CROSSES, PENTOMINOES,
    };
    fn pentominoes() -> Vec<Vec<(i32, i32)>> {
        shapes(&PENTOMINOES)
    }
    fn crosses() -> Vec<Vec<(i32, i32)>> {
        shapes(&CROSSES)
    }
    use rand::{Rng, SeedableRng};
    use std::collections::BTreeSet;

    #[test]
    fn orientation_counts() {
        let crosses: usize = crosses()
            .iter()
            .map(|s| orientations(s, true, true).len())
            .sum();
        assert_eq!(crosses, 9);
        let counts: Vec<usize> = pentominoes()
            .iter()
            .map(|s| orientations(s, true, true).len())
            .collect();
        assert_eq!(counts, [8, 2, 8, 8, 8, 4, 4, 4, 4, 1, 8, 4]);
        assert_eq!(counts.iter().sum::<usize>(), 63);
        // Rotations only: F, L, N, P, Y give 4 each, I and Z 2, T, U, V, W 4, X 1.
        let rotations_only: usize = pentominoes()
            .iter()
            .map(|s| orientations(s, true, false).len())
            .sum();
        assert_eq!(rotations_only, 41);
        assert_eq!(
            orientations(&shape("##"), false, false),
            vec![vec![(0, 0), (1, 0)]]
        );
    }

    #[test]
    fn cross_box_has_1215_placements() {
        assert_eq!(cross_box(13, 19).placements.len(), 1215);
    }

    #[test]
    fn pentomino_3x20_has_2_tilings_up_to_symmetry() {
        let instance = pentomino_box(20, 3);
        let stop = AtomicBool::new(false);
        let count = count_tilings(&instance, true, &stop).unwrap();
        assert_eq!(count.up_to_symmetry, Some(2));
        assert_eq!(count.raw, 8);
        assert_eq!(count.symmetries, 4);
        let mut tilings = Vec::new();
        enumerate_tilings(&instance, &stop, |t| {
            assert_eq!(instance.check_tiling(t), Ok(12));
            tilings.push(t.to_vec());
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(tilings.len(), 8);
    }

    #[test]
    fn pentomino_6x10_has_9356_tilings_and_2339_up_to_symmetry() {
        let instance = pentomino_box(10, 6);
        let stop = AtomicBool::new(false);
        let count = count_tilings(&instance, true, &stop).unwrap();
        assert_eq!((count.raw, count.up_to_symmetry), (9356, Some(2339)));
        assert!(count.complete);
        let mut raw = 0;
        enumerate_tilings(&instance, &stop, |t| {
            assert_eq!(instance.check_tiling(t), Ok(12));
            raw += 1;
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(raw, 9356);
    }

    #[test]
    fn pentomino_5x12_and_4x15_counts() {
        // Known: 1010 and 368 tilings up to symmetry.
        let stop = AtomicBool::new(false);
        let count = count_tilings(&pentomino_box(12, 5), true, &stop).unwrap();
        assert_eq!((count.raw, count.up_to_symmetry), (4040, Some(1010)));
        let count = count_tilings(&pentomino_box(15, 4), true, &stop).unwrap();
        assert_eq!((count.raw, count.up_to_symmetry), (1472, Some(368)));
    }

    #[test]
    fn pentomino_8x8_with_centre_hole_has_65_tilings_up_to_symmetry() {
        // Dana Scott's problem: 65 solutions up to the 8 symmetries of the square.
        let mut instance = pentomino_box(8, 8);
        let mut blocked = vec![false; 64];
        for c in [27, 28, 35, 36] {
            blocked[c] = true;
        }
        instance
            .placements
            .retain(|p| p.cells.iter().all(|&c| !blocked[c]));
        instance.blocked = blocked;
        let stop = AtomicBool::new(false);
        let count = count_tilings(&instance, true, &stop).unwrap();
        assert_eq!(count.symmetries, 8);
        assert_eq!(count.up_to_symmetry, Some(65));
        assert_eq!(count.raw, 520);
    }

    fn small_shapes() -> Vec<Vec<(i32, i32)>> {
        [
            "#", "##", "###", "##/#.", "####", "##/##", "###/.#.", "###/#..", "##./.##",
        ]
        .iter()
        .map(|p| shape(p))
        .collect()
    }

    fn random_instance(rng: &mut impl Rng, max_side: usize) -> PackingInstance {
        let width = rng.gen_range(2..=max_side);
        let height = rng.gen_range(2..=max_side);
        let blocked: Vec<bool> = (0..width * height).map(|_| rng.gen_bool(0.15)).collect();
        PackingInstance::from_shapes(width, height, blocked, &random_pieces(rng, false))
    }

    /// One to three small pieces with random limits; with `turn`, every orientation allowed.
    fn random_pieces(rng: &mut impl Rng, turn: bool) -> Vec<PieceShapes> {
        let shapes = small_shapes();
        let count = rng.gen_range(1..=3);
        (0..count)
            .map(|_| {
                let s = &shapes[rng.gen_range(1..shapes.len())];
                let limit = match rng.gen_range(0..4) {
                    0 => PieceLimit::unlimited(),
                    1 => PieceLimit::at_most(rng.gen_range(1..3)),
                    2 => PieceLimit {
                        min: 1,
                        max: Some(rng.gen_range(1..4)),
                    },
                    _ => PieceLimit::exactly(rng.gen_range(0..3)),
                };
                let (rotate, reflect) = (turn || rng.gen_bool(0.7), turn || rng.gen_bool(0.5));
                (orientations(s, rotate, reflect), limit)
            })
            .collect()
    }

    /// The largest packing respecting the limits, by trying every set of disjoint placements.
    fn brute_force_max(instance: &PackingInstance) -> Option<usize> {
        fn go(
            inst: &PackingInstance,
            next: usize,
            covered: &mut Vec<bool>,
            used: &mut Vec<usize>,
            placed: usize,
            best: &mut Option<usize>,
        ) {
            if inst
                .pieces
                .iter()
                .zip(used.iter())
                .all(|(l, &n)| n >= l.min)
            {
                *best = Some(best.map_or(placed, |b| b.max(placed)));
            }
            for i in next..inst.placements.len() {
                let p = &inst.placements[i];
                if !inst.pieces[p.piece].allows_more(used[p.piece])
                    || p.cells.iter().any(|&c| covered[c])
                {
                    continue;
                }
                p.cells.iter().for_each(|&c| covered[c] = true);
                used[p.piece] += 1;
                go(inst, i + 1, covered, used, placed + 1, best);
                used[p.piece] -= 1;
                p.cells.iter().for_each(|&c| covered[c] = false);
            }
        }
        let mut best = None;
        let mut covered = instance.blocked.clone();
        let mut used = vec![0; instance.pieces.len()];
        go(instance, 0, &mut covered, &mut used, 0, &mut best);
        best
    }

    /// Every configuration of [`maximise`]: the doll's table or the area bound, each on the
    /// fewest words and on wider boards.
    fn configurations() -> Vec<PackingOptions<'static>> {
        let mut all = Vec::new();
        for table in [true, false] {
            for words in [0, 3] {
                all.push(PackingOptions {
                    table,
                    words,
                    doll: DollOptions {
                        threads: 1,
                        memo_log2: 10,
                        ..DollOptions::default()
                    },
                    ..PackingOptions::default()
                });
            }
        }
        all
    }

    #[test]
    fn maximise_matches_brute_force_in_every_configuration() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2024);
        let (mut with_minimums, mut searched) = (0, 0);
        for case in 0..150 {
            let mut instance = random_instance(&mut rng, 5);
            if case % 2 == 0 {
                instance = PackingInstance::from_shapes(
                    instance.width,
                    instance.height,
                    vec![false; instance.width * instance.height],
                    &random_pieces(&mut rng, true),
                );
            }
            if case % 3 == 0 {
                // Force a minimum: the branch and bound runs only with one.
                let piece = rng.gen_range(0..instance.pieces.len());
                let limit = &mut instance.pieces[piece];
                limit.min = limit.min.max(1);
                limit.max = limit.max.map(|m| m.max(1));
            }
            let minimums = instance.pieces.iter().any(|l| l.min > 0);
            with_minimums += usize::from(minimums);
            let expected = brute_force_max(&instance);
            for options in configurations() {
                let outcome = maximise(&instance, &options, |_| {}).unwrap();
                assert!(outcome.proved);
                let found = outcome
                    .best
                    .as_ref()
                    .map(|b| instance.check_packing(b).unwrap());
                assert_eq!(found, expected, "case {case} {options:?}\n{instance:?}");
                searched += usize::from(outcome.stats.nodes > outcome.stats.table_nodes);
                let Some(best) = expected else { continue };
                assert_eq!(outcome.bound, best);
                // Decisions at the optimum and just above it.
                for (k, reachable) in [(best, true), (best + 1, false)] {
                    let options = PackingOptions {
                        goal: PackingGoal::AtLeast(k),
                        ..options
                    };
                    let outcome = maximise(&instance, &options, |_| {}).unwrap();
                    assert!(outcome.proved);
                    let len = outcome
                        .best
                        .as_ref()
                        .map(|b| instance.check_packing(b).unwrap());
                    assert_eq!(len.is_some_and(|n| n >= k), reachable, "case {case} k {k}");
                    if !reachable {
                        assert!(outcome.bound < k);
                    }
                }
            }
        }
        assert!(
            with_minimums >= 60,
            "only {with_minimums} instances had minimums"
        );
        // The branch and bound ran, not only the doll.
        assert!(
            searched >= 100,
            "the branch and bound ran only {searched} times"
        );
    }

    #[test]
    fn wide_board_operations_match_u128() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for _ in 0..200 {
            let (a, b): (u128, u128) = (rng.gen(), rng.gen());
            let wide = |x: u128| Wide::<3>([x as u64, (x >> 64) as u64, 0]);
            let narrow = |w: Wide<3>| w.0[0] as u128 | (w.0[1] as u128) << 64;
            let n = rng.gen_range(0..130);
            assert_eq!(narrow(wide(a).and(wide(b))), a & b);
            assert_eq!(narrow(wide(a).without(wide(b))), a & !b);
            assert_eq!(narrow(wide(a).shl(n)), a.checked_shl(n).unwrap_or(0));
            assert_eq!(wide(a).count(), a.count_ones());
            assert_eq!(narrow(wide(a).lowest()), a & a.wrapping_neg());
            // Bits pushed out of the low two words land in the third.
            let high = wide(a).shl(n);
            let spill = if n == 0 {
                0
            } else {
                a.checked_shr(128 - n).unwrap_or(0)
            };
            assert_eq!(high.0[2] as u128, spill & u64::MAX as u128);
        }
    }

    /// Tilings up to symmetry by brute force: canonicalise every raw tiling under the group.
    fn orbits_by_brute_force(instance: &PackingInstance) -> (u64, u64) {
        let group = symmetry_group(instance);
        let stop = AtomicBool::new(false);
        let mut classes = BTreeSet::new();
        let mut raw = 0;
        enumerate_tilings(instance, &stop, |t| {
            raw += 1;
            let canonical = group
                .iter()
                .map(|g| {
                    let mut image: Vec<usize> = t.iter().map(|&i| g[i]).collect();
                    image.sort_unstable();
                    image
                })
                .min()
                .unwrap();
            classes.insert(canonical);
            ControlFlow::Continue(())
        })
        .unwrap();
        (raw, classes.len() as u64)
    }

    #[test]
    fn symmetric_counts_match_brute_force_orbits() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(99);
        let shapes = small_shapes();
        let mut checked = 0;
        for _ in 0..60 {
            let width = rng.gen_range(2..=5);
            let height = if rng.gen_bool(0.4) {
                width
            } else {
                rng.gen_range(2..=5)
            };
            let pieces: Vec<_> = (0..rng.gen_range(1..=4))
                .map(|_| {
                    let s = &shapes[rng.gen_range(0..shapes.len())];
                    let limit = match rng.gen_range(0..3) {
                        0 => PieceLimit::exactly(1),
                        1 => PieceLimit::unlimited(),
                        _ => PieceLimit::at_most(2),
                    };
                    (orientations(s, true, true), limit)
                })
                .collect();
            let instance =
                PackingInstance::from_shapes(width, height, vec![false; width * height], &pieces);
            let stop = AtomicBool::new(false);
            let count = count_tilings(&instance, true, &stop).unwrap();
            let (raw, orbits) = orbits_by_brute_force(&instance);
            assert_eq!((count.raw, count.up_to_symmetry), (raw, Some(orbits)));
            // Every engine agrees, with and without symmetry.
            for symmetry in [false, true] {
                let links =
                    count_tilings_with(&instance, symmetry, TilingEngine::DancingLinks, &stop)
                        .unwrap();
                assert_eq!(links.raw, raw);
                for (regions, words) in [(true, 0), (false, 0), (true, 3)] {
                    let engine = TilingEngine::Bitboard { regions, words };
                    let bits = count_tilings_with(&instance, symmetry, engine, &stop).unwrap();
                    assert_eq!(
                        (bits.raw, bits.up_to_symmetry),
                        (links.raw, links.up_to_symmetry),
                        "{engine:?}"
                    );
                }
            }
            checked += u64::from(raw > 0);
        }
        assert!(checked > 10, "too few instances with tilings: {checked}");
    }

    #[test]
    fn counted_pieces_use_exact_multiplicities() {
        // 2 x 4 box, dominoes exactly 2 and squares at most 1: tilings with two dominoes and a
        // square, or... only 2 + 2 + 4 = 8 cells: the square and two dominoes.
        let pieces = vec![
            (
                orientations(&shape("##"), true, false),
                PieceLimit::exactly(2),
            ),
            (
                orientations(&shape("##/##"), false, false),
                PieceLimit::at_most(1),
            ),
        ];
        let instance = PackingInstance::from_shapes(4, 2, vec![false; 8], &pieces);
        let stop = AtomicBool::new(false);
        let mut seen = 0;
        enumerate_tilings(&instance, &stop, |t| {
            instance.check_tiling(t).unwrap();
            seen += 1;
            ControlFlow::Continue(())
        })
        .unwrap();
        // Square at x = 0, 1 or 2; the remaining 2 x 2 or two 2 x 1 strips take two dominoes in
        // 2, 1 and 2 ways.
        assert_eq!(seen, 5);
    }

    #[test]
    fn cross_box_small_optimum_and_stop() {
        // 5 x 5 holds one cross; 9 x 9 holds... check against the decision on both sides.
        let options = PackingOptions::default();
        let outcome = maximise(&cross_box(5, 5), &options, |_| {}).unwrap();
        assert_eq!((outcome.best_len(), outcome.proved), (1, true));
        let instance = cross_box(10, 10);
        let outcome = maximise(&instance, &options, |_| {}).unwrap();
        assert!(outcome.proved);
        instance
            .check_packing(outcome.best.as_ref().unwrap())
            .unwrap();
        let stop = AtomicBool::new(true);
        let options = PackingOptions {
            stop: Some(&stop),
            ..PackingOptions::default()
        };
        let outcome = maximise(&cross_box(13, 19), &options, |_| {}).unwrap();
        assert!(!outcome.proved);
        assert!(outcome.bound >= outcome.best_len());
    }

    #[test]
    fn bad_instances_are_rejected() {
        let mut instance = cross_box(5, 5);
        instance.placements[0].cells.push(99);
        assert!(matches!(
            maximise(&instance, &PackingOptions::default(), |_| {}),
            Err(MaximiseError::Instance(PackingError::BadPlacement {
                placement: 0,
                ..
            }))
        ));
        let mut instance = cross_box(5, 5);
        instance.blocked.pop();
        assert!(count_tilings(&instance, false, &AtomicBool::new(false)).is_err());
    }
}
