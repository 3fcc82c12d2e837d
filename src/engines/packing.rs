//! Packing placements into a grid region: tilings by exact cover, maximum packings by branch and bound.
//!
//! The input is plain data ([`PackingInstance`]): a rectangle of cells, some blocked, a list of
//! [`Placement`]s (a piece index and the cells it would cover) and per-piece count limits.
//! [`orientations`](crate::geometry::placements::orientations) and [`placements`](crate::geometry::placements::placements) build placement lists from polyomino shapes.
//!
//! - [`count_tilings`] / [`enumerate_tilings`]: every free cell covered exactly once, solved as
//!   exact cover ([`super::exact_cover`]); [`count_tilings`] can also count up to the symmetries
//!   of the rectangle (see [`count_tilings`] for why that count is sound).
//! - [`maximise`]: as many pieces as possible (cells may stay empty), or the decision "at least
//!   K pieces", by a depth-first branch and bound over cells in row-major order.

use rustc_hash::FxHashMap;
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::exact_cover::{ExactCover, SearchEnd, SearchSummary};
use crate::geometry::placements::{
    mirror_halves, placement_index, symmetry_group, PackingError, PackingInstance, PieceLimit,
    Placement,
};

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

/// Which algorithm searches tilings. Both are Algorithm X on the same exact-cover problem
/// (cells and limited pieces as items); they differ in data structure and item choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TilingEngine {
    /// [`TilingEngine::Bitboard64`] when the board has at most 64 cells,
    /// [`TilingEngine::Bitboard`] when it has at most 128, otherwise
    /// [`TilingEngine::DancingLinks`].
    #[default]
    Auto,
    /// Dancing links ([`ExactCover`]), branching on the item with fewest options (cells and
    /// pieces used exactly once).
    DancingLinks,
    /// Board as a 128-bit mask, branching on the first empty cell along the board's shorter
    /// side; piece limits kept as counters. Fast on small boards.
    Bitboard,
    /// Board as a 64-bit mask, with pruning of empty regions whose size no set of pieces can
    /// fill (see [`super::tiling64`]). The fastest engine on boards of at most 64 cells.
    Bitboard64,
}

/// Runs the chosen engine over the placements with `keep(index)`, passing placement indices.
fn solve_tilings(
    instance: &PackingInstance,
    engine: TilingEngine,
    keep: impl Fn(usize) -> bool,
    stop: &AtomicBool,
    visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
) -> SearchSummary {
    let cells = instance.width * instance.height;
    if engine == TilingEngine::Bitboard64 || (engine == TilingEngine::Auto && cells <= 64) {
        assert!(cells <= 64, "the 64-bit engine needs at most 64 cells");
        return super::tiling64::Tiling64::new(instance, keep).solve(stop, visit);
    }
    let bitboard = match engine {
        TilingEngine::Auto => cells <= 128,
        TilingEngine::DancingLinks | TilingEngine::Bitboard64 => false,
        TilingEngine::Bitboard => {
            assert!(cells <= 128, "the bitboard engine needs at most 128 cells");
            true
        }
    };
    if bitboard {
        return BitboardTiling::new(instance, keep).solve(stop, visit);
    }
    let (problem, option_placement) = tiling_problem(instance, keep);
    let mut tiling = Vec::new();
    problem.solve(stop, |options| {
        tiling.clear();
        tiling.extend(options.iter().map(|&o| option_placement[o]));
        visit(&tiling)
    })
}

/// A piece and some of its placements as (mask, placement index).
type PieceGroup = (usize, Vec<(u128, usize)>);

/// Tiling search on a 128-bit board: bits are cells in scan order (row-major, or column-major
/// when the board is wider than tall, so that scan lines are short).
struct BitboardTiling<'a> {
    instance: &'a PackingInstance,
    /// Per bit, the placements whose first bit it is, grouped by piece: (piece, group of
    /// (mask, placement index)), so that a used-up piece is skipped at once.
    starting: Vec<Vec<PieceGroup>>,
    full: u128,
    blocked: u128,
    used: Vec<usize>,
    max: Vec<usize>,
    chosen: Vec<usize>,
    solutions: u64,
    nodes: u64,
    end: SearchEnd,
}

impl<'a> BitboardTiling<'a> {
    fn new(instance: &'a PackingInstance, keep: impl Fn(usize) -> bool) -> Self {
        let (w, h) = (instance.width, instance.height);
        let bit = |c: usize| if w > h { (c % w) * h + c / w } else { c };
        let n = w * h;
        let mut starting: Vec<Vec<PieceGroup>> = vec![Vec::new(); n];
        for (i, p) in instance.placements.iter().enumerate() {
            if !keep(i) {
                continue;
            }
            let mask = p.cells.iter().fold(0u128, |m, &c| m | 1 << bit(c));
            let groups = &mut starting[mask.trailing_zeros() as usize];
            match groups.iter_mut().find(|g| g.0 == p.piece) {
                Some(group) => group.1.push((mask, i)),
                None => groups.push((p.piece, vec![(mask, i)])),
            }
        }
        let blocked = (0..n)
            .filter(|&c| instance.blocked[c])
            .fold(0u128, |m, c| m | 1 << bit(c));
        BitboardTiling {
            instance,
            starting,
            full: if n == 128 {
                u128::MAX
            } else {
                (1u128 << n) - 1
            },
            blocked,
            used: vec![0; instance.pieces.len()],
            max: instance
                .pieces
                .iter()
                .map(|l| l.max.unwrap_or(usize::MAX))
                .collect(),
            chosen: Vec::new(),
            solutions: 0,
            nodes: 0,
            end: SearchEnd::Exhausted,
        }
    }

    fn solve(
        mut self,
        stop: &AtomicBool,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> SearchSummary {
        let _ = self.search(self.blocked, stop, visit);
        SearchSummary {
            solutions: self.solutions,
            nodes: self.nodes,
            end: self.end,
        }
    }

    fn search(
        &mut self,
        filled: u128,
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
                self.used[piece] += 1;
                self.chosen.push(index);
                flow = self.search(filled | mask, stop, visit);
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
    Ok(solve_tilings(instance, engine, |_| true, stop, &mut visit))
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
    let mut stabiliser: HashMap<usize, Vec<usize>> = HashMap::new();
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
    let cells = instance.width * instance.height;
    if let (Some((_, q, reps)), true) = (
        &pivot,
        engine == TilingEngine::Bitboard64 || (engine == TilingEngine::Auto && cells <= 64),
    ) {
        // One subproblem per representative, with the pivot placed first (see
        // `Tiling64::solve_from`), run in parallel: the subproblems share nothing.
        use rayon::prelude::*;
        let q = *q;
        let parts: Vec<(u64, u64, SearchSummary)> = reps
            .par_iter()
            .map(|&r| {
                let engine =
                    super::tiling64::Tiling64::new(instance, |i| instance.placements[i].piece != q);
                let (mut raw, mut orbits) = (0u64, 0u64);
                let mut tiling = Vec::new();
                let mut image = Vec::new();
                let summary = engine.solve_from(&[r], stop, &mut |found: &[usize]| {
                    if let Some(fixing) =
                        canonical_fixers(found, &group, &stabiliser[&r], &mut tiling, &mut image)
                    {
                        orbits += 1;
                        raw += order / fixing;
                    }
                    ControlFlow::Continue(())
                });
                (raw, orbits, summary)
            })
            .collect();
        return Ok(TilingCount {
            raw: parts.iter().map(|p| p.0).sum(),
            up_to_symmetry: Some(parts.iter().map(|p| p.1).sum()),
            symmetries: group.len(),
            nodes: parts.iter().map(|p| p.2.nodes).sum(),
            complete: parts.iter().all(|p| p.2.end == SearchEnd::Exhausted),
        });
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
    let summary = solve_tilings(instance, engine, keep, stop, &mut visit);
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

/// Upper bounds [`maximise`] may use to prune (each is valid on its own; the smallest is used).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoundSet {
    /// Cells that are free, undecided and still covered by a live placement, divided by the
    /// smallest piece size.
    pub area: bool,
    /// Per row, per maximal run of such cells, `run / m` where `m` is the smallest, over
    /// placements, longest horizontal run of cells of the placement: each piece owns one such
    /// run in one row.
    pub rows: bool,
    /// The same by columns.
    pub columns: bool,
    /// The Russian-doll bound (see [`suffix_optima`]): with `c` the first cell that a live
    /// placement covers, every piece still to come starts (has its first cell, row-major) at
    /// `c` or later, so they number at most the suffix optimum of `c`. Split further at the
    /// start of a later row `s`: the pieces starting before row `s` lie in rows `r..s + t`
    /// (`r`: the row of `c`; `t + 1`: the tallest placement's rows), so they number at most
    /// the coverable cells there over the smallest piece size, and those starting from row
    /// `s` on at most the suffix optimum of row `s`'s first cell. On an open rectangle the
    /// first group also fits in a band of rows, and a band moved down to the bottom rows is
    /// a band there, so the suffix optimum of that many bottom rows bounds it too. The bound
    /// is the least of these.
    pub suffixes: bool,
}

impl Default for BoundSet {
    fn default() -> Self {
        BoundSet {
            area: true,
            rows: false,
            columns: false,
            suffixes: true,
        }
    }
}

/// Options of [`maximise`].
#[derive(Clone, Copy, Debug)]
pub struct PackingOptions<'a> {
    /// Maximise, or decide "at least K".
    pub goal: PackingGoal,
    /// Bounds used for pruning.
    pub bounds: BoundSet,
    /// Keep only packings with no more pieces centred in the second half than in the first,
    /// for each mirror of the rectangle that preserves the instance ([`mirror_halves`]).
    /// Never changes the optimum or the answer to "at least K".
    pub break_symmetry: bool,
    /// The suffix optima from an earlier [`suffix_optima`] call on the same instance, so that
    /// repeated runs do not find them again; `None` finds them when [`BoundSet::suffixes`] is
    /// on.
    pub suffixes: Option<&'a [usize]>,
    /// Remember exhausted scan states (see [`PackingStats::prunes_memo`]); used only in scan
    /// order with unlimited pieces.
    pub memo: bool,
    /// Raised by another thread (e.g. Ctrl-C) to stop; the best packing so far is kept.
    pub stop: Option<&'a AtomicBool>,
    /// Stop at this instant; the best packing so far is kept.
    pub deadline: Option<Instant>,
    /// Call the progress callback every this many nodes (0: only on improvements).
    pub progress_every: u64,
    /// Which cell to branch on.
    pub cell_order: CellOrder,
}

/// Which undecided cell [`maximise`] branches on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CellOrder {
    /// The first coverable cell in row-major order; branches are the placements starting there.
    #[default]
    Scan,
    /// The coverable cell with the fewest live placements (first in row-major order on ties);
    /// branches are all live placements covering it.
    FewestPlacements,
}

impl Default for PackingOptions<'_> {
    fn default() -> Self {
        PackingOptions {
            goal: PackingGoal::Maximise,
            bounds: BoundSet::default(),
            break_symmetry: true,
            suffixes: None,
            memo: true,
            stop: None,
            deadline: None,
            progress_every: 1 << 20,
            cell_order: CellOrder::Scan,
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
    /// Nodes visited so far.
    pub nodes: u64,
}

/// Counters of a [`maximise`] run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PackingStats {
    /// Search nodes visited (the suffix optima's searches included).
    pub nodes: u64,
    /// Nodes cut off by a bound or by symmetry breaking.
    pub prunes: u64,
    /// Cut-offs that the area bound alone would have made.
    pub prunes_area: u64,
    /// Cut-offs that the row bound alone would have made.
    pub prunes_rows: u64,
    /// Cut-offs that the column bound alone would have made.
    pub prunes_columns: u64,
    /// Cut-offs that the Russian-doll bound alone would have made.
    pub prunes_suffixes: u64,
    /// Cut-offs by symmetry breaking (the second half can no longer be caught up).
    pub prunes_symmetry: u64,
    /// Cut-offs by the memo of exhausted scan states: a state (scan cell, decided cells from
    /// there on, mirror balances) met again after its subtree was searched in full, which
    /// bounds what can still be placed from it.
    pub prunes_memo: u64,
}

impl PackingStats {
    fn add(&mut self, other: &PackingStats) {
        self.nodes += other.nodes;
        self.prunes += other.prunes;
        self.prunes_area += other.prunes_area;
        self.prunes_rows += other.prunes_rows;
        self.prunes_columns += other.prunes_columns;
        self.prunes_suffixes += other.prunes_suffixes;
        self.prunes_symmetry += other.prunes_symmetry;
        self.prunes_memo += other.prunes_memo;
    }
}

/// Result of [`maximise`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackingOutcome {
    /// Placement indices of the best packing found (`None` if none satisfies the piece
    /// minimums, or, for [`PackingGoal::AtLeast`], none was found with at least K pieces and
    /// none with fewer was recorded).
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

/// Packs as many pieces as possible (or decides "at least K") by depth-first branch and bound.
///
/// The search visits free cells in row-major order. At the first undecided cell that some live
/// placement (one whose cells are all undecided) still covers, it branches on every live
/// placement whose first cell it is, then on leaving the cell empty; any placement covering
/// that cell must start there, since every earlier cell is already decided. A node is cut off
/// when pieces placed plus the smallest enabled bound of [`BoundSet`] cannot beat the best
/// packing (or reach K), or when symmetry breaking can no longer be met. `progress` is called
/// on every improvement and every `progress_every` nodes.
pub fn maximise(
    instance: &PackingInstance,
    options: &PackingOptions<'_>,
    mut progress: impl FnMut(&Progress),
) -> Result<PackingOutcome, PackingError> {
    instance.validate()?;
    let mut suffix_stats = PackingStats::default();
    let found;
    let suffixes = match (options.bounds.suffixes, options.suffixes) {
        (false, _) => None,
        (true, Some(suffixes)) => Some(suffixes),
        (true, None) => {
            let (suffixes, stats) = suffix_optima(instance, options, |_, _| {});
            suffix_stats = stats;
            match suffixes {
                Some(suffixes) => {
                    found = suffixes;
                    Some(found.as_slice())
                }
                // Stopped while finding the suffix optima: report the plain root bound.
                None => {
                    let search = BranchAndBound::new(instance, options, None, false);
                    return Ok(PackingOutcome {
                        best: None,
                        proved: false,
                        bound: search.bound().0,
                        stats: suffix_stats,
                    });
                }
            }
        }
    };
    let invariant = shift_invariant(instance);
    let mut outcome = branch_and_bound(instance, options, suffixes, invariant, &mut progress);
    outcome.stats.add(&suffix_stats);
    Ok(outcome)
}

/// The suffix optima, for the Russian-doll bound ([`BoundSet::suffixes`]): entry `c` (one per
/// cell, row-major, and a last entry 0) is the most pieces that fit when every piece's first
/// cell is `c` or later, respecting the piece maximums but not the minimums.
///
/// Found from the last cell back, as in Östergård's maximum-clique algorithm: entry `c` is
/// entry `c + 1` or one more, since the placements starting at `c` all cover `c` and at most
/// one of them is used; one more exactly when some packing starts a piece at `c`, which one
/// branch-and-bound run decides, pruned by the entries already found. `found(c, optimum)` is
/// called for each cell where some placement starts. `None` when stopped (by `options.stop`
/// or `options.deadline`) first; the counters cover the work done either way.
pub fn suffix_optima(
    instance: &PackingInstance,
    options: &PackingOptions<'_>,
    mut found: impl FnMut(usize, usize),
) -> (Option<Vec<usize>>, PackingStats) {
    let cells = instance.width * instance.height;
    let mut suffixes = vec![usize::MAX; cells + 1];
    suffixes[cells] = 0;
    let mut stats = PackingStats::default();
    let pieces: Vec<PieceLimit> = instance
        .pieces
        .iter()
        .map(|l| PieceLimit { min: 0, max: l.max })
        .collect();
    let first_cell: Vec<usize> = instance
        .placements
        .iter()
        .map(|p| min_max(&p.cells).0)
        .collect();
    // The tails below are not shift invariant, but bands of them are bands of the instance.
    let invariant = shift_invariant(instance);
    for c in (0..cells).rev() {
        let below = suffixes[c + 1];
        let starts_here = instance
            .placements
            .iter()
            .zip(&first_cell)
            .any(|(p, &first)| first == c && pieces[p.piece].max != Some(0));
        if !starts_here {
            suffixes[c] = below;
            continue;
        }
        let tail = PackingInstance {
            width: instance.width,
            height: instance.height,
            blocked: instance.blocked.clone(),
            placements: instance
                .placements
                .iter()
                .zip(&first_cell)
                .filter(|(_, &first)| first >= c)
                .map(|(p, _)| p.clone())
                .collect(),
            pieces: pieces.clone(),
        };
        let sub = PackingOptions {
            goal: PackingGoal::AtLeast(below + 1),
            progress_every: 0,
            cell_order: CellOrder::Scan,
            ..*options
        };
        let outcome = branch_and_bound(&tail, &sub, Some(&suffixes), invariant, &mut |_| {});
        stats.add(&outcome.stats);
        if outcome.best_len() > below {
            suffixes[c] = below + 1;
        } else if outcome.proved {
            suffixes[c] = below;
        } else {
            return (None, stats);
        }
        found(c, suffixes[c]);
    }
    (Some(suffixes), stats)
}

/// One branch-and-bound run with the suffix optima already known (if used); `shift_invariant`
/// tells whether the instance they were found for is (see [`shift_invariant`]).
fn branch_and_bound(
    instance: &PackingInstance,
    options: &PackingOptions<'_>,
    suffixes: Option<&[usize]>,
    shift_invariant: bool,
    progress: &mut dyn FnMut(&Progress),
) -> PackingOutcome {
    let mut search = BranchAndBound::new(instance, options, suffixes, shift_invariant);
    let root_bound = search.bound().0;
    search.root_bound = root_bound;
    let finished = search.run(progress).is_continue();
    let best_len = search.best.as_ref().map(Vec::len);
    let bound = match (finished, options.goal) {
        (true, PackingGoal::Maximise) => best_len.unwrap_or(0),
        (true, PackingGoal::AtLeast(k)) if best_len.is_none_or(|b| b < k) => {
            root_bound.min(k.saturating_sub(1))
        }
        _ => root_bound,
    };
    let proved = finished
        || matches!(options.goal, PackingGoal::AtLeast(k) if best_len.is_some_and(|b| b >= k));
    PackingOutcome {
        best: search
            .best
            .map(|b| b.into_iter().map(|p| p as usize).collect()),
        proved,
        bound,
        stats: search.stats,
    }
}

/// Most states the memo of one [`maximise`] run keeps (about 48 bytes each).
const MEMO_CAPACITY: usize = 4_000_000;

/// A scan state of the branch and bound: the cell the scan is at, which cells from there on
/// are decided (covered by pieces started earlier), and the mirror balances. With unlimited
/// pieces and no minimums, the pieces still placeable depend on nothing else: earlier cells
/// are all decided or coverable by no live placement, and no piece started earlier reaches
/// past the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct MemoKey {
    cell: u32,
    window: u128,
    balances: [i32; 2],
}

/// Symmetry breaking for one mirror during the search.
struct MirrorState {
    /// Per placement: +1 if centred in the first half, -1 in the second, 0 on the line.
    weight: Vec<i8>,
    /// Pieces placed in the first half minus those in the second; must end at 0 or more.
    balance: i64,
    /// The largest first cell of a first-half placement: in scan order, none can be placed
    /// once the scan has passed it.
    last_first_start: Option<usize>,
}

struct BranchAndBound<'a> {
    instance: &'a PackingInstance,
    options: &'a PackingOptions<'a>,
    /// Per cell, the placements covering it.
    covering: Vec<Vec<u32>>,
    /// Per cell, the placements whose first cell it is.
    starting: Vec<Vec<u32>>,
    decided: Vec<bool>,
    /// Per placement, how many of its cells are decided (live when 0).
    dead: Vec<u16>,
    /// Per cell, live placements covering it.
    live_cover: Vec<u32>,
    /// Undecided cells with `live_cover > 0`: in all, and per row.
    coverable: usize,
    coverable_in_row: Vec<usize>,
    min_size: usize,
    run_rows: usize,
    run_columns: usize,
    /// Rows spanned by the tallest placement, less one.
    tallest: usize,
    /// The suffix optima ([`suffix_optima`]), when that bound is on.
    suffixes: Option<&'a [usize]>,
    /// Whether the instance the suffix optima were found for is shift invariant (see
    /// [`shift_invariant`]): then a band of `m` rows holds at most what the bottom `m` rows
    /// hold, a suffix optimum.
    shift_invariant: bool,
    mirrors: Vec<MirrorState>,
    /// Decided cells as bits, for the memo's keys.
    decided_bits: Vec<u64>,
    /// Cells from a placement's first cell to its last (the most over placements): a piece
    /// started before cell `c` covers nothing at or after `c + reach`.
    reach: usize,
    /// Upper bounds on the pieces still placeable from a scan state (see [`MemoKey`]), learnt
    /// from exhausted subtrees; `None` when the state does not determine the future.
    memo: Option<FxHashMap<MemoKey, usize>>,
    /// Packings recorded so far (to tell whether a subtree recorded one).
    records: u64,
    used: Vec<usize>,
    chosen: Vec<u32>,
    best: Option<Vec<u32>>,
    stats: PackingStats,
    root_bound: usize,
    started: Instant,
}

impl<'a> BranchAndBound<'a> {
    fn new(
        instance: &'a PackingInstance,
        options: &'a PackingOptions<'a>,
        suffixes: Option<&'a [usize]>,
        shift_invariant: bool,
    ) -> Self {
        let w = instance.width;
        let cells = w * instance.height;
        let mut covering = vec![Vec::new(); cells];
        let mut starting = vec![Vec::new(); cells];
        let mut min_size = usize::MAX;
        let (mut run_rows, mut run_columns) = (usize::MAX, usize::MAX);
        let (mut tallest, mut reach) = (0, 1);
        for (i, p) in instance.placements.iter().enumerate() {
            if instance.pieces[p.piece].max == Some(0) {
                continue;
            }
            for &c in &p.cells {
                covering[c].push(i as u32);
            }
            let (first, last) = min_max(&p.cells);
            starting[first].push(i as u32);
            tallest = tallest.max(last / w - first / w);
            reach = reach.max(last - first + 1);
            min_size = min_size.min(p.cells.len());
            run_rows = run_rows.min(longest_run(&p.cells, |c| (c / w, c % w)));
            run_columns = run_columns.min(longest_run(&p.cells, |c| (c % w, c / w)));
        }
        let live_cover: Vec<u32> = covering.iter().map(|v| v.len() as u32).collect();
        let mut coverable_in_row = vec![0; instance.height];
        for c in (0..cells).filter(|&c| !instance.blocked[c] && live_cover[c] > 0) {
            coverable_in_row[c / w] += 1;
        }
        let mirrors = if options.break_symmetry {
            mirror_halves(instance)
                .into_iter()
                .map(|m| MirrorState {
                    weight: m.side.iter().map(|s| -(*s as i8)).collect(),
                    balance: 0,
                    last_first_start: instance
                        .placements
                        .iter()
                        .zip(&m.side)
                        .filter(|(_, s)| s.is_lt())
                        .map(|(p, _)| min_max(&p.cells).0)
                        .max(),
                })
                .collect()
        } else {
            Vec::new()
        };
        // In scan order the state (scan cell, decided cells from there on, mirror balances)
        // determines every bound and every future branch, unless piece counts matter.
        let memo = (options.memo
            && options.cell_order == CellOrder::Scan
            && reach <= 128
            && mirrors.len() <= 2
            && instance
                .pieces
                .iter()
                .all(|l| l.min == 0 && l.max.is_none()))
        .then(FxHashMap::default);
        let mut decided_bits = vec![0u64; cells.div_ceil(64) + 2];
        for c in (0..cells).filter(|&c| instance.blocked[c]) {
            decided_bits[c / 64] |= 1 << (c % 64);
        }
        BranchAndBound {
            instance,
            options,
            covering,
            starting,
            decided: instance.blocked.clone(),
            dead: vec![0; instance.placements.len()],
            live_cover,
            coverable: coverable_in_row.iter().sum(),
            coverable_in_row,
            min_size: min_size.max(1),
            run_rows: run_rows.max(1),
            run_columns: run_columns.max(1),
            tallest,
            suffixes: suffixes.filter(|t| t.len() == cells + 1),
            shift_invariant: suffixes.is_some() && shift_invariant,
            mirrors,
            decided_bits,
            reach,
            memo,
            records: 0,
            used: vec![0; instance.pieces.len()],
            chosen: Vec::new(),
            best: None,
            stats: PackingStats::default(),
            root_bound: 0,
            started: Instant::now(),
        }
    }

    fn is_coverable(&self, c: usize) -> bool {
        !self.decided[c] && self.live_cover[c] > 0
    }

    /// Counts `c` out of (or, with `add`, back into) the coverable cells.
    fn count_coverable(&mut self, c: usize, add: bool) {
        let row = c / self.instance.width;
        if add {
            self.coverable += 1;
            self.coverable_in_row[row] += 1;
        } else {
            self.coverable -= 1;
            self.coverable_in_row[row] -= 1;
        }
    }

    fn decide(&mut self, c: usize) {
        if self.live_cover[c] > 0 {
            self.count_coverable(c, false);
        }
        self.decided[c] = true;
        self.decided_bits[c / 64] |= 1 << (c % 64);
        for k in 0..self.covering[c].len() {
            let p = self.covering[c][k] as usize;
            self.dead[p] += 1;
            if self.dead[p] == 1 {
                for j in 0..self.instance.placements[p].cells.len() {
                    let d = self.instance.placements[p].cells[j];
                    self.live_cover[d] -= 1;
                    if self.live_cover[d] == 0 && !self.decided[d] {
                        self.count_coverable(d, false);
                    }
                }
            }
        }
    }

    fn undecide(&mut self, c: usize) {
        for k in (0..self.covering[c].len()).rev() {
            let p = self.covering[c][k] as usize;
            if self.dead[p] == 1 {
                for j in 0..self.instance.placements[p].cells.len() {
                    let d = self.instance.placements[p].cells[j];
                    if self.live_cover[d] == 0 && !self.decided[d] {
                        self.count_coverable(d, true);
                    }
                    self.live_cover[d] += 1;
                }
            }
            self.dead[p] -= 1;
        }
        self.decided[c] = false;
        self.decided_bits[c / 64] &= !(1 << (c % 64));
        if self.live_cover[c] > 0 {
            self.count_coverable(c, true);
        }
    }

    /// Upper bound on pieces still placeable: (smallest enabled bound, area, rows, columns,
    /// suffixes), disabled ones `usize::MAX`.
    fn bound(&self) -> (usize, usize, usize, usize, usize) {
        let (w, h) = (self.instance.width, self.instance.height);
        let runs = |lines: usize, len: usize, cell: &dyn Fn(usize, usize) -> usize, m: usize| {
            let mut total = 0;
            for line in 0..lines {
                let mut run = 0;
                for k in 0..len {
                    if self.is_coverable(cell(line, k)) {
                        run += 1;
                    } else {
                        total += run / m;
                        run = 0;
                    }
                }
                total += run / m;
            }
            total
        };
        let b = self.options.bounds;
        let area = if b.area {
            self.coverable / self.min_size
        } else {
            usize::MAX
        };
        let rows = if b.rows {
            runs(h, w, &|y, x| y * w + x, self.run_rows)
        } else {
            usize::MAX
        };
        let columns = if b.columns {
            runs(w, h, &|x, y| y * w + x, self.run_columns)
        } else {
            usize::MAX
        };
        let suffixes = self.suffix_bound();
        let mut best = area
            .min(rows)
            .min(columns)
            .min(suffixes)
            .min(self.capacity_left());
        if best == usize::MAX {
            best = self.coverable;
        }
        (best, area, rows, columns, suffixes)
    }

    /// The Russian-doll bound of [`BoundSet::suffixes`] (`usize::MAX` when not in use).
    fn suffix_bound(&self) -> usize {
        let Some(suffixes) = self.suffixes else {
            return usize::MAX;
        };
        let (w, h) = (self.instance.width, self.instance.height);
        let Some(r) = (0..h).find(|&y| self.coverable_in_row[y] > 0) else {
            return 0;
        };
        let c = (r * w..(r + 1) * w)
            .find(|&c| self.is_coverable(c))
            .expect("the row has a coverable cell");
        let mut best = suffixes[c];
        // Coverable cells in rows r..=last, where the pieces starting before row s lie.
        let (mut cells, mut top) = (0, r);
        for s in r + 1..=h {
            let last = (s - 1 + self.tallest).min(h - 1);
            while top <= last {
                cells += self.coverable_in_row[top];
                top += 1;
            }
            let mut before = cells / self.min_size;
            if self.shift_invariant {
                // The band r..=last holds at most what the bottom band of as many rows holds
                // (usize::MAX while that is not known yet).
                before = before.min(suffixes[(h - (last + 1 - r)) * w]);
            }
            best = best.min(before.saturating_add(suffixes[s * w]));
        }
        best
    }

    /// Uses left under the piece maximums (`usize::MAX` if some piece is unlimited).
    fn capacity_left(&self) -> usize {
        let mut total = 0usize;
        for (limit, &n) in self.instance.pieces.iter().zip(&self.used) {
            match limit.max {
                None => return usize::MAX,
                Some(m) => total += m - n,
            }
        }
        total
    }

    fn minimums_met(&self) -> bool {
        self.instance
            .pieces
            .iter()
            .zip(&self.used)
            .all(|(l, &n)| n >= l.min)
    }

    /// Whether the pieces placed meet symmetry breaking as they stand.
    fn halves_balanced(&self) -> bool {
        self.mirrors.iter().all(|m| m.balance >= 0)
    }

    /// Whether symmetry breaking can still be met when at most `more` pieces are added, the
    /// next of them starting at cell `c` or later in scan order.
    fn halves_reachable(&self, c: usize, more: usize, scan: bool) -> bool {
        self.mirrors.iter().all(|m| {
            let catch_up = if scan && m.last_first_start.is_none_or(|last| c > last) {
                0
            } else {
                more as i64
            };
            m.balance + catch_up >= 0
        })
    }

    /// The memo key of the scan state at cell `c`.
    fn memo_key(&self, c: usize) -> MemoKey {
        // Bits c .. c + 128 of the decided cells, of which the first `reach` matter.
        let (word, shift) = (c / 64, c % 64);
        let lo = self.decided_bits[word] as u128 | (self.decided_bits[word + 1] as u128) << 64;
        let hi = self.decided_bits[word + 2] as u128;
        let mut window = lo >> shift;
        if shift > 0 {
            window |= hi << (128 - shift);
        }
        if self.reach < 128 {
            window &= (1u128 << self.reach) - 1;
        }
        let mut balances = [0i32; 2];
        for (b, m) in balances.iter_mut().zip(&self.mirrors) {
            *b = m.balance as i32;
        }
        MemoKey {
            cell: c as u32,
            window,
            balances,
        }
    }

    fn place(&mut self, p: usize) {
        let piece = self.instance.placements[p].piece;
        for j in 0..self.instance.placements[p].cells.len() {
            self.decide(self.instance.placements[p].cells[j]);
        }
        self.used[piece] += 1;
        self.chosen.push(p as u32);
        for m in &mut self.mirrors {
            m.balance += i64::from(m.weight[p]);
        }
    }

    fn unplace(&mut self, p: usize) {
        for m in &mut self.mirrors {
            m.balance -= i64::from(m.weight[p]);
        }
        self.chosen.pop();
        self.used[self.instance.placements[p].piece] -= 1;
        for j in (0..self.instance.placements[p].cells.len()).rev() {
            self.undecide(self.instance.placements[p].cells[j]);
        }
    }

    /// Smallest piece count a new packing must reach to matter.
    fn target(&self) -> usize {
        match self.options.goal {
            PackingGoal::Maximise => self.best.as_ref().map_or(0, |b| b.len() + 1),
            PackingGoal::AtLeast(k) => k,
        }
    }

    fn report(&self, progress: &mut dyn FnMut(&Progress)) {
        progress(&Progress {
            best: self.best.as_ref().map(Vec::len),
            bound: self.root_bound,
            nodes: self.stats.nodes,
        });
    }

    fn run(&mut self, progress: &mut dyn FnMut(&Progress)) -> ControlFlow<()> {
        self.started = Instant::now();
        self.search(0, progress)
    }

    fn search(&mut self, from: usize, progress: &mut dyn FnMut(&Progress)) -> ControlFlow<()> {
        self.stats.nodes += 1;
        if self.stats.nodes & 0xfff == 0 {
            let stopped = self.options.stop.is_some_and(|s| s.load(Ordering::Relaxed))
                || self.options.deadline.is_some_and(|d| Instant::now() >= d);
            if stopped {
                return ControlFlow::Break(());
            }
        }
        let every = self.options.progress_every;
        if every > 0 && self.stats.nodes.is_multiple_of(every) {
            self.report(progress);
        }
        let placed = self.chosen.len();
        if self.minimums_met()
            && self.halves_balanced()
            && (self.best.is_none() || placed > self.best.as_ref().map_or(0, Vec::len))
        {
            // In decision mode, only packings that reach K (or the first, empty one) count.
            let record = match self.options.goal {
                PackingGoal::Maximise => true,
                PackingGoal::AtLeast(k) => placed >= k || self.best.is_none(),
            };
            if record {
                self.records += 1;
                self.best = Some(self.chosen.clone());
                self.report(progress);
                if matches!(self.options.goal, PackingGoal::AtLeast(k) if placed >= k) {
                    return ControlFlow::Break(());
                }
            }
        }
        let cells = self.decided.len();
        let c = match self.options.cell_order {
            CellOrder::Scan => (from..cells).find(|&c| self.is_coverable(c)),
            CellOrder::FewestPlacements => (0..cells)
                .filter(|&c| self.is_coverable(c))
                .min_by_key(|&c| self.live_cover[c]),
        };
        let Some(c) = c else {
            return ControlFlow::Continue(());
        };
        let next = match self.options.cell_order {
            CellOrder::Scan => c + 1,
            CellOrder::FewestPlacements => 0,
        };
        let scan = self.options.cell_order == CellOrder::Scan;
        let target = self.target();
        let (bound, area, rows, columns, suffixes) = self.bound();
        if placed.saturating_add(bound) < target {
            self.stats.prunes += 1;
            // A disabled bound is usize::MAX: add without overflowing.
            self.stats.prunes_area += u64::from(placed.saturating_add(area) < target);
            self.stats.prunes_rows += u64::from(placed.saturating_add(rows) < target);
            self.stats.prunes_columns += u64::from(placed.saturating_add(columns) < target);
            self.stats.prunes_suffixes += u64::from(placed.saturating_add(suffixes) < target);
            return ControlFlow::Continue(());
        }
        if !self.halves_reachable(c, bound, scan) {
            self.stats.prunes += 1;
            self.stats.prunes_symmetry += 1;
            return ControlFlow::Continue(());
        }
        let key = self.memo.as_ref().map(|_| self.memo_key(c));
        if let (Some(memo), Some(key)) = (&self.memo, &key) {
            if memo.get(key).is_some_and(|&more| placed + more < target) {
                self.stats.prunes += 1;
                self.stats.prunes_memo += 1;
                return ControlFlow::Continue(());
            }
        }
        let records = self.records;
        self.explore(c, next, scan, progress)?;
        // Exhausted without a new packing: from this state, fewer than target - placed more.
        if let (Some(memo), Some(key)) = (&mut self.memo, key) {
            // (With target <= placed the node was kept from recording by symmetry breaking,
            // which a count of more pieces cannot express.)
            if let Some(more) = target.checked_sub(placed + 1) {
                if self.records == records && memo.len() < MEMO_CAPACITY {
                    let entry = memo.entry(key).or_insert(more);
                    *entry = (*entry).min(more);
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Branches at cell `c`: every live placement starting at (or, out of scan order,
    /// covering) `c`, then `c` left empty.
    fn explore(
        &mut self,
        c: usize,
        next: usize,
        scan: bool,
        progress: &mut dyn FnMut(&Progress),
    ) -> ControlFlow<()> {
        let placed = self.chosen.len();
        let branches = if scan {
            self.starting[c].len()
        } else {
            self.covering[c].len()
        };
        for k in 0..branches {
            let p = if scan {
                self.starting[c][k]
            } else {
                self.covering[c][k]
            } as usize;
            let piece = self.instance.placements[p].piece;
            if self.dead[p] != 0 || !self.instance.pieces[piece].allows_more(self.used[piece]) {
                continue;
            }
            self.place(p);
            let flow = self.search(next, progress);
            self.unplace(p);
            flow?;
            if placed + self.bound().0 < self.target() {
                return ControlFlow::Continue(());
            }
        }
        self.decide(c);
        let flow = self.search(next, progress);
        self.undecide(c);
        flow
    }
}

/// Whether the instance has no blocked cells and every placement moved one row up or down is
/// a placement too, whenever it stays on the board.
fn shift_invariant(instance: &PackingInstance) -> bool {
    let (w, h) = (instance.width, instance.height);
    if instance.blocked.iter().any(|&b| b) {
        return false;
    }
    let index = placement_index(instance);
    instance.placements.iter().all(|p| {
        let (first, last) = min_max(&p.cells);
        let moved = |down: bool| Placement {
            piece: p.piece,
            cells: p
                .cells
                .iter()
                .map(|&c| if down { c + w } else { c - w })
                .collect(),
        };
        (last / w + 1 >= h || index.contains_key(&moved(true)))
            && (first / w == 0 || index.contains_key(&moved(false)))
    })
}

/// The smallest and largest of a placement's cells.
fn min_max(cells: &[usize]) -> (usize, usize) {
    let first = cells.iter().copied().min().expect("validated: not empty");
    let last = cells.iter().copied().max().expect("validated: not empty");
    (first, last)
}

/// Longest run of consecutive cells in one line, where `key` maps a cell to (line, position).
fn longest_run(cells: &[usize], key: impl Fn(usize) -> (usize, usize)) -> usize {
    let mut keys: Vec<(usize, usize)> = cells.iter().map(|&c| key(c)).collect();
    keys.sort_unstable();
    let (mut best, mut run) = (0, 0);
    for (k, &(line, pos)) in keys.iter().enumerate() {
        run = if k > 0 && keys[k - 1] == (line, pos.wrapping_sub(1)) {
            run + 1
        } else {
            1
        };
        best = best.max(run);
    }
    best
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

    #[test]
    fn branch_and_bound_matches_brute_force() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2024);
        let (mut mirrored, mut memoised) = (0, 0);
        for case in 0..120 {
            let mut instance = random_instance(&mut rng, 5);
            if case % 2 == 0 {
                // Half the cases on open rectangles, which the mirrors preserve more often.
                instance = PackingInstance::from_shapes(
                    instance.width,
                    instance.height,
                    vec![false; instance.width * instance.height],
                    &random_pieces(&mut rng, true),
                );
            }
            if case % 3 == 0 {
                // Unlimited pieces: the memo of scan states is on only then.
                instance.pieces.fill(PieceLimit::unlimited());
            }
            mirrored += usize::from(!mirror_halves(&instance).is_empty());
            memoised += usize::from(
                instance
                    .pieces
                    .iter()
                    .all(|l| *l == PieceLimit::unlimited()),
            );
            let expected = brute_force_max(&instance);
            let all_bounds = BoundSet {
                area: true,
                rows: true,
                columns: true,
                suffixes: true,
            };
            let area_only = BoundSet {
                area: true,
                rows: false,
                columns: false,
                suffixes: false,
            };
            for (bounds, break_symmetry, cell_order) in [
                (BoundSet::default(), true, CellOrder::Scan),
                (all_bounds, false, CellOrder::Scan),
                (area_only, true, CellOrder::FewestPlacements),
                (all_bounds, true, CellOrder::FewestPlacements),
            ] {
                let options = PackingOptions {
                    bounds,
                    break_symmetry,
                    cell_order,
                    ..PackingOptions::default()
                };
                let outcome = maximise(&instance, &options, |_| {}).unwrap();
                assert!(outcome.proved);
                let found = outcome
                    .best
                    .as_ref()
                    .map(|b| instance.check_packing(b).unwrap());
                assert_eq!(found, expected, "case {case}\n{instance:?}");
                if let Some(best) = expected {
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
                    }
                }
            }
        }
        // Symmetry breaking was exercised, not just switched on.
        assert!(mirrored >= 40, "only {mirrored} instances had a mirror");
        assert!(
            memoised >= 40,
            "only {memoised} instances had unlimited pieces"
        );
    }

    #[test]
    fn memo_and_russian_doll_keep_the_optimum() {
        // Boxes too large for brute force: every pruning rule on against only the area bound,
        // on unlimited pieces (where the memo is used).
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(77);
        let mut memo_prunes = 0;
        for case in 0..60 {
            let (width, height) = (rng.gen_range(4..=7), rng.gen_range(4..=7));
            let blocked = if case % 2 == 0 {
                vec![false; width * height]
            } else {
                (0..width * height).map(|_| rng.gen_bool(0.1)).collect()
            };
            let mut pieces = random_pieces(&mut rng, case % 4 < 2);
            pieces
                .iter_mut()
                .for_each(|p| p.1 = PieceLimit::unlimited());
            let instance = PackingInstance::from_shapes(width, height, blocked, &pieces);
            let plain = PackingOptions {
                bounds: BoundSet {
                    area: true,
                    rows: false,
                    columns: false,
                    suffixes: false,
                },
                break_symmetry: false,
                memo: false,
                ..PackingOptions::default()
            };
            let expected = maximise(&instance, &plain, |_| {}).unwrap();
            let outcome = maximise(&instance, &PackingOptions::default(), |_| {}).unwrap();
            assert!(expected.proved && outcome.proved);
            let found = outcome
                .best
                .as_ref()
                .map(|b| instance.check_packing(b).unwrap());
            assert_eq!(
                found,
                Some(expected.best_len()),
                "case {case}\n{instance:?}"
            );
            memo_prunes += outcome.stats.prunes_memo;
            // Every suffix optimum is a decision of its own: a sharper test than the optimum.
            let (with_memo, _) = suffix_optima(&instance, &PackingOptions::default(), |_, _| {});
            let no_memo = PackingOptions {
                memo: false,
                break_symmetry: false,
                ..PackingOptions::default()
            };
            let (without, _) = suffix_optima(&instance, &no_memo, |_, _| {});
            assert_eq!(with_memo, without, "case {case}\n{instance:?}");
        }
        assert!(
            memo_prunes > 1000,
            "the memo pruned only {memo_prunes} nodes"
        );
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
            // The two engines agree, with and without symmetry.
            for symmetry in [false, true] {
                let links =
                    count_tilings_with(&instance, symmetry, TilingEngine::DancingLinks, &stop)
                        .unwrap();
                let bits =
                    count_tilings_with(&instance, symmetry, TilingEngine::Bitboard, &stop).unwrap();
                let bits64 =
                    count_tilings_with(&instance, symmetry, TilingEngine::Bitboard64, &stop)
                        .unwrap();
                assert_eq!(links.raw, raw);
                assert_eq!(
                    (bits.raw, bits.up_to_symmetry),
                    (links.raw, links.up_to_symmetry)
                );
                assert_eq!(
                    (bits64.raw, bits64.up_to_symmetry),
                    (links.raw, links.up_to_symmetry)
                );
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
            Err(PackingError::BadPlacement { placement: 0, .. })
        ));
        let mut instance = cross_box(5, 5);
        instance.blocked.pop();
        assert!(count_tilings(&instance, false, &AtomicBool::new(false)).is_err());
    }
}
