//! Packing placements into a grid region: tilings by exact cover, maximum packings by branch and bound.
//!
//! The input is plain data ([`PackingInstance`]): a rectangle of cells, some blocked, a list of
//! [`Placement`]s (a piece index and the cells it would cover) and per-piece count limits.
//! [`orientations`] and [`placements`] build placement lists from polyomino shapes.
//!
//! - [`count_tilings`] / [`enumerate_tilings`]: every free cell covered exactly once, solved as
//!   exact cover ([`super::exact_cover`]); [`count_tilings`] can also count up to the symmetries
//!   of the rectangle (see [`count_tilings`] for why that count is sound).
//! - [`maximise`]: as many pieces as possible (cells may stay empty), or the decision "at least
//!   K pieces", by a depth-first branch and bound over cells in row-major order.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::exact_cover::{ExactCover, SearchEnd, SearchSummary};

/// One way to put one piece on the board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Index of the piece in [`PackingInstance::pieces`].
    pub piece: usize,
    /// Row-major indices (`y * width + x`) of the cells covered.
    pub cells: Vec<usize>,
}

/// How many times a piece may be used: between `min` and `max` (`None`: no upper limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceLimit {
    /// Least number of uses.
    pub min: usize,
    /// Greatest number of uses, `None` for unlimited.
    pub max: Option<usize>,
}

impl PieceLimit {
    /// Used exactly `n` times.
    pub fn exactly(n: usize) -> Self {
        PieceLimit {
            min: n,
            max: Some(n),
        }
    }

    /// Used at most `n` times.
    pub fn at_most(n: usize) -> Self {
        PieceLimit {
            min: 0,
            max: Some(n),
        }
    }

    /// Used any number of times.
    pub fn unlimited() -> Self {
        PieceLimit { min: 0, max: None }
    }

    fn allows_more(&self, used: usize) -> bool {
        self.max.is_none_or(|m| used < m)
    }
}

/// One piece given by its orientations (as [`orientations`] returns them) and its limit.
pub type PieceShapes = (Vec<Vec<(i32, i32)>>, PieceLimit);

/// A packing problem: a rectangle with blocked cells, placements and piece limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackingInstance {
    /// Number of columns.
    pub width: usize,
    /// Number of rows.
    pub height: usize,
    /// Per cell, row-major: `true` if no piece may cover it.
    pub blocked: Vec<bool>,
    /// Every allowed placement of every piece.
    pub placements: Vec<Placement>,
    /// Per piece, how often it may be used.
    pub pieces: Vec<PieceLimit>,
}

/// Something wrong with an instance or with a proposed packing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PackingError {
    /// `blocked` does not have `width * height` entries.
    #[error("blocked has {got} cells, expected {expected}")]
    BlockedSize {
        /// Entries in `blocked`.
        got: usize,
        /// `width * height`.
        expected: usize,
    },
    /// A placement names a piece that does not exist.
    #[error("placement {placement} names piece {piece}, but there are {pieces} pieces")]
    UnknownPiece {
        /// Placement index.
        placement: usize,
        /// The piece it names.
        piece: usize,
        /// Number of pieces.
        pieces: usize,
    },
    /// A placement covers no cell, a cell twice, a cell outside the board or a blocked cell.
    #[error("placement {placement} is malformed: {reason}")]
    BadPlacement {
        /// Placement index.
        placement: usize,
        /// What is wrong.
        reason: String,
    },
    /// A piece limit with `min > max`.
    #[error("piece {piece} has min {min} > max {max}")]
    BadLimit {
        /// Piece index.
        piece: usize,
        /// Its minimum.
        min: usize,
        /// Its maximum.
        max: usize,
    },
    /// A packing names a placement index out of range.
    #[error("packing names placement {0}, which does not exist")]
    UnknownPlacement(usize),
    /// Two placements of a packing share a cell.
    #[error("cell {cell} is covered twice")]
    Overlap {
        /// The shared cell.
        cell: usize,
    },
    /// A piece is used more or fewer times than its limit allows.
    #[error("piece {piece} is used {used} times, outside its limit")]
    Count {
        /// Piece index.
        piece: usize,
        /// Number of uses in the packing.
        used: usize,
    },
    /// A tiling leaves a free cell uncovered.
    #[error("cell {cell} is not covered")]
    Uncovered {
        /// The uncovered cell.
        cell: usize,
    },
}

impl PackingInstance {
    /// Builds an instance from per-piece orientation lists (see [`orientations`]), generating
    /// every placement of every orientation that fits on the free cells.
    pub fn from_shapes(
        width: usize,
        height: usize,
        blocked: Vec<bool>,
        pieces: &[PieceShapes],
    ) -> Self {
        let mut all = Vec::new();
        for (piece, (orients, _)) in pieces.iter().enumerate() {
            all.extend(placements(width, height, &blocked, piece, orients));
        }
        PackingInstance {
            width,
            height,
            blocked,
            placements: all,
            pieces: pieces.iter().map(|(_, l)| *l).collect(),
        }
    }

    /// Number of cells that are not blocked.
    pub fn free_cells(&self) -> usize {
        self.blocked.iter().filter(|b| !**b).count()
    }

    /// Checks that the instance is well formed.
    pub fn validate(&self) -> Result<(), PackingError> {
        let cells = self.width * self.height;
        if self.blocked.len() != cells {
            return Err(PackingError::BlockedSize {
                got: self.blocked.len(),
                expected: cells,
            });
        }
        for (piece, limit) in self.pieces.iter().enumerate() {
            if let Some(max) = limit.max {
                if limit.min > max {
                    return Err(PackingError::BadLimit {
                        piece,
                        min: limit.min,
                        max,
                    });
                }
            }
        }
        for (i, p) in self.placements.iter().enumerate() {
            if p.piece >= self.pieces.len() {
                return Err(PackingError::UnknownPiece {
                    placement: i,
                    piece: p.piece,
                    pieces: self.pieces.len(),
                });
            }
            let bad = |reason: String| PackingError::BadPlacement {
                placement: i,
                reason,
            };
            if p.cells.is_empty() {
                return Err(bad("no cells".into()));
            }
            for (k, &c) in p.cells.iter().enumerate() {
                if c >= cells {
                    return Err(bad(format!("cell {c} is outside the board")));
                }
                if self.blocked[c] {
                    return Err(bad(format!("cell {c} is blocked")));
                }
                if p.cells[..k].contains(&c) {
                    return Err(bad(format!("cell {c} appears twice")));
                }
            }
        }
        Ok(())
    }

    /// Checks a packing (placement indices) from scratch: placements exist, no cell is covered
    /// twice and every piece is used within its limits. Returns the number of pieces.
    pub fn check_packing(&self, packing: &[usize]) -> Result<usize, PackingError> {
        let mut covered = vec![false; self.width * self.height];
        let mut used = vec![0usize; self.pieces.len()];
        for &i in packing {
            let p = self
                .placements
                .get(i)
                .ok_or(PackingError::UnknownPlacement(i))?;
            for &c in &p.cells {
                if std::mem::replace(&mut covered[c], true) {
                    return Err(PackingError::Overlap { cell: c });
                }
            }
            used[p.piece] += 1;
        }
        for (piece, (limit, &n)) in self.pieces.iter().zip(&used).enumerate() {
            if n < limit.min || limit.max.is_some_and(|m| n > m) {
                return Err(PackingError::Count { piece, used: n });
            }
        }
        Ok(packing.len())
    }

    /// [`Self::check_packing`] without the piece minimums: a partial packing, as a search
    /// holds it on the way, respects cells and maximums. Returns the number of pieces.
    pub fn check_packing_limits_max(&self, packing: &[usize]) -> Result<usize, PackingError> {
        let relaxed = PackingInstance {
            pieces: self
                .pieces
                .iter()
                .map(|l| PieceLimit { min: 0, max: l.max })
                .collect(),
            ..self.clone()
        };
        relaxed.check_packing(packing)
    }

    /// [`Self::check_packing`], and every free cell is covered.
    pub fn check_tiling(&self, packing: &[usize]) -> Result<usize, PackingError> {
        let n = self.check_packing(packing)?;
        let mut covered = self.blocked.clone();
        for &i in packing {
            for &c in &self.placements[i].cells {
                covered[c] = true;
            }
        }
        match covered.iter().position(|c| !c) {
            Some(cell) => Err(PackingError::Uncovered { cell }),
            None => Ok(n),
        }
    }

    /// Draws a packing as text, one letter per placement (`.` empty, `#` blocked).
    pub fn render(&self, packing: &[usize]) -> String {
        let mut grid: Vec<char> = self
            .blocked
            .iter()
            .map(|&b| if b { '#' } else { '.' })
            .collect();
        const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        for (k, &i) in packing.iter().enumerate() {
            for &c in &self.placements[i].cells {
                grid[c] = LETTERS[k % LETTERS.len()] as char;
            }
        }
        grid.chunks(self.width)
            .map(|row| row.iter().collect::<String>() + "\n")
            .collect()
    }
}

/// All distinct orientations of a shape given as `(x, y)` cells (x to the right, y down):
/// the 4 rotations if `rotate`, and their mirror images if `reflect`. Each orientation is
/// normalised (smallest x and y are 0, cells sorted by `(y, x)`); duplicates are removed,
/// keeping first occurrences (the shape itself first).
pub fn orientations(shape: &[(i32, i32)], rotate: bool, reflect: bool) -> Vec<Vec<(i32, i32)>> {
    let normalise = |cells: Vec<(i32, i32)>| {
        let min_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
        let min_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
        let mut cells: Vec<(i32, i32)> = cells
            .into_iter()
            .map(|(x, y)| (x - min_x, y - min_y))
            .collect();
        cells.sort_by_key(|&(x, y)| (y, x));
        cells.dedup();
        cells
    };
    let mut out: Vec<Vec<(i32, i32)>> = Vec::new();
    let mirrors: &[bool] = if reflect { &[false, true] } else { &[false] };
    for &mirror in mirrors {
        let mut cells: Vec<(i32, i32)> = shape
            .iter()
            .map(|&(x, y)| if mirror { (-x, y) } else { (x, y) })
            .collect();
        for _ in 0..if rotate { 4 } else { 1 } {
            let n = normalise(cells.clone());
            if !out.contains(&n) {
                out.push(n);
            }
            cells = cells.iter().map(|&(x, y)| (-y, x)).collect();
        }
    }
    out
}

/// Every placement of `piece` in the given orientations (normalised, as [`orientations`]
/// returns them) on a `width x height` board that stays inside the board and off blocked
/// cells. Cells of each placement are sorted ascending.
pub fn placements(
    width: usize,
    height: usize,
    blocked: &[bool],
    piece: usize,
    orientations: &[Vec<(i32, i32)>],
) -> Vec<Placement> {
    let mut out = Vec::new();
    for orient in orientations {
        if orient.is_empty() {
            continue;
        }
        let span_x = orient.iter().map(|c| c.0).max().unwrap_or(0) as usize + 1;
        let span_y = orient.iter().map(|c| c.1).max().unwrap_or(0) as usize + 1;
        if span_x > width || span_y > height {
            continue;
        }
        for oy in 0..=height - span_y {
            for ox in 0..=width - span_x {
                let mut cells: Vec<usize> = orient
                    .iter()
                    .map(|&(x, y)| (oy + y as usize) * width + ox + x as usize)
                    .collect();
                if cells
                    .iter()
                    .any(|&c| blocked.get(c).copied().unwrap_or(false))
                {
                    continue;
                }
                cells.sort_unstable();
                out.push(Placement { piece, cells });
            }
        }
    }
    out
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

/// The symmetries of the rectangle that preserve the instance, each as a map from placement
/// index to placement index; the identity comes first.
fn symmetry_group(instance: &PackingInstance) -> Vec<Vec<usize>> {
    let (w, h) = (instance.width, instance.height);
    type CellMap = fn(usize, usize, usize, usize) -> (usize, usize);
    let mut maps: Vec<CellMap> = vec![
        |x, y, _, _| (x, y),
        |x, y, w, _| (w - 1 - x, y),
        |x, y, _, h| (x, h - 1 - y),
        |x, y, w, h| (w - 1 - x, h - 1 - y),
    ];
    if w == h {
        maps.extend([
            (|x, y, _, _| (y, x)) as CellMap,
            |x, y, w, _| (w - 1 - y, w - 1 - x),
            |x, y, w, _| (w - 1 - y, x),
            |x, y, w, _| (y, w - 1 - x),
        ]);
    }
    let index: HashMap<&Placement, usize> = instance
        .placements
        .iter()
        .enumerate()
        .map(|(i, p)| (p, i))
        .collect();
    let mut group = Vec::new();
    'maps: for map in maps {
        let cell = |c: usize| {
            let (x, y) = map(c % w, c / w, w, h);
            y * w + x
        };
        if (0..w * h).any(|c| instance.blocked[c] != instance.blocked[cell(c)]) {
            continue;
        }
        let mut action = Vec::with_capacity(instance.placements.len());
        for p in &instance.placements {
            let mut cells: Vec<usize> = p.cells.iter().map(|&c| cell(c)).collect();
            cells.sort_unstable();
            let image = Placement {
                piece: p.piece,
                cells,
            };
            match index.get(&image) {
                Some(&j) => action.push(j),
                None => continue 'maps,
            }
        }
        group.push(action);
    }
    group
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
}

impl Default for BoundSet {
    fn default() -> Self {
        BoundSet {
            area: true,
            rows: true,
            columns: true,
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
    /// Search nodes visited.
    pub nodes: u64,
    /// Nodes cut off by a bound.
    pub prunes: u64,
    /// Cut-offs that the area bound alone would have made.
    pub prunes_area: u64,
    /// Cut-offs that the row bound alone would have made.
    pub prunes_rows: u64,
    /// Cut-offs that the column bound alone would have made.
    pub prunes_columns: u64,
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
/// packing (or reach K). `progress` is called on every improvement and every
/// `progress_every` nodes.
pub fn maximise(
    instance: &PackingInstance,
    options: &PackingOptions<'_>,
    mut progress: impl FnMut(&Progress),
) -> Result<PackingOutcome, PackingError> {
    instance.validate()?;
    let mut search = BranchAndBound::new(instance, options);
    let root_bound = search.bound().0;
    search.root_bound = root_bound;
    let finished = search.run(&mut progress).is_continue();
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
    Ok(PackingOutcome {
        best: search
            .best
            .map(|b| b.into_iter().map(|p| p as usize).collect()),
        proved,
        bound,
        stats: search.stats,
    })
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
    /// Undecided cells with `live_cover > 0`: in all, per row, per column.
    coverable: usize,
    min_size: usize,
    run_rows: usize,
    run_columns: usize,
    used: Vec<usize>,
    chosen: Vec<u32>,
    best: Option<Vec<u32>>,
    stats: PackingStats,
    root_bound: usize,
    started: Instant,
}

impl<'a> BranchAndBound<'a> {
    fn new(instance: &'a PackingInstance, options: &'a PackingOptions<'a>) -> Self {
        let w = instance.width;
        let cells = w * instance.height;
        let mut covering = vec![Vec::new(); cells];
        let mut starting = vec![Vec::new(); cells];
        let mut min_size = usize::MAX;
        let (mut run_rows, mut run_columns) = (usize::MAX, usize::MAX);
        for (i, p) in instance.placements.iter().enumerate() {
            if instance.pieces[p.piece].max == Some(0) {
                continue;
            }
            for &c in &p.cells {
                covering[c].push(i as u32);
            }
            starting[*p.cells.iter().min().expect("validated")].push(i as u32);
            min_size = min_size.min(p.cells.len());
            run_rows = run_rows.min(longest_run(&p.cells, |c| (c / w, c % w)));
            run_columns = run_columns.min(longest_run(&p.cells, |c| (c % w, c / w)));
        }
        let live_cover: Vec<u32> = covering.iter().map(|v| v.len() as u32).collect();
        let coverable = (0..cells)
            .filter(|&c| !instance.blocked[c] && live_cover[c] > 0)
            .count();
        BranchAndBound {
            instance,
            options,
            covering,
            starting,
            decided: instance.blocked.clone(),
            dead: vec![0; instance.placements.len()],
            live_cover,
            coverable,
            min_size: min_size.max(1),
            run_rows: run_rows.max(1),
            run_columns: run_columns.max(1),
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

    fn decide(&mut self, c: usize) {
        if self.live_cover[c] > 0 {
            self.coverable -= 1;
        }
        self.decided[c] = true;
        for k in 0..self.covering[c].len() {
            let p = self.covering[c][k] as usize;
            self.dead[p] += 1;
            if self.dead[p] == 1 {
                for &d in &self.instance.placements[p].cells {
                    self.live_cover[d] -= 1;
                    if self.live_cover[d] == 0 && !self.decided[d] {
                        self.coverable -= 1;
                    }
                }
            }
        }
    }

    fn undecide(&mut self, c: usize) {
        for k in (0..self.covering[c].len()).rev() {
            let p = self.covering[c][k] as usize;
            if self.dead[p] == 1 {
                for &d in &self.instance.placements[p].cells {
                    if self.live_cover[d] == 0 && !self.decided[d] {
                        self.coverable += 1;
                    }
                    self.live_cover[d] += 1;
                }
            }
            self.dead[p] -= 1;
        }
        self.decided[c] = false;
        if self.live_cover[c] > 0 {
            self.coverable += 1;
        }
    }

    /// Upper bound on pieces still placeable: (smallest enabled bound, area, rows, columns).
    fn bound(&self) -> (usize, usize, usize, usize) {
        let (w, h) = (self.instance.width, self.instance.height);
        let area = self.coverable / self.min_size;
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
        let area = if b.area { area } else { usize::MAX };
        let mut best = area.min(rows).min(columns).min(self.capacity_left());
        if best == usize::MAX {
            best = self.coverable;
        }
        (best, area, rows, columns)
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
            && (self.best.is_none() || placed > self.best.as_ref().map_or(0, Vec::len))
        {
            // In decision mode, only packings that reach K (or the first, empty one) count.
            let record = match self.options.goal {
                PackingGoal::Maximise => true,
                PackingGoal::AtLeast(k) => placed >= k || self.best.is_none(),
            };
            if record {
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
        let (bound, area, rows, columns) = self.bound();
        if placed.saturating_add(bound) < target {
            self.stats.prunes += 1;
            // A disabled bound is usize::MAX: add without overflowing.
            self.stats.prunes_area += u64::from(placed.saturating_add(area) < target);
            self.stats.prunes_rows += u64::from(placed.saturating_add(rows) < target);
            self.stats.prunes_columns += u64::from(placed.saturating_add(columns) < target);
            return ControlFlow::Continue(());
        }
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
            let n = self.instance.placements[p].cells.len();
            for j in 0..n {
                self.decide(self.instance.placements[p].cells[j]);
            }
            self.used[piece] += 1;
            self.chosen.push(p as u32);
            let flow = self.search(next, progress);
            self.chosen.pop();
            self.used[piece] -= 1;
            for j in (0..n).rev() {
                self.undecide(self.instance.placements[p].cells[j]);
            }
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
    use rand::{Rng, SeedableRng};
    use std::collections::BTreeSet;

    /// Parses a picture (`#` filled) into `(x, y)` cells.
    fn shape(picture: &str) -> Vec<(i32, i32)> {
        let mut cells = Vec::new();
        for (y, line) in picture.split('/').enumerate() {
            for (x, ch) in line.chars().enumerate() {
                if ch == '#' {
                    cells.push((x as i32, y as i32));
                }
            }
        }
        cells
    }

    fn pentominoes() -> Vec<Vec<(i32, i32)>> {
        [
            ".##/##./.#.", // F
            "#####",       // I
            "####/#...",   // L
            "###./..##",   // N
            "##/##/#.",    // P
            "###/.#./.#.", // T
            "#.#/###",     // U
            "#../#../###", // V
            "#../##./.##", // W
            ".#./###/.#.", // X
            "####/.#..",   // Y
            "##./.#./.##", // Z
        ]
        .iter()
        .map(|p| shape(p))
        .collect()
    }

    fn crosses() -> Vec<Vec<(i32, i32)>> {
        [
            "..#../..#../#####/..#../..#..",
            "..#../#####/..#../..#../..#..",
            "#####/..#../..#../..#../..#..",
        ]
        .iter()
        .map(|p| shape(p))
        .collect()
    }

    fn pentomino_box(width: usize, height: usize) -> PackingInstance {
        let pieces: Vec<_> = pentominoes()
            .iter()
            .map(|s| (orientations(s, true, true), PieceLimit::exactly(1)))
            .collect();
        PackingInstance::from_shapes(width, height, vec![false; width * height], &pieces)
    }

    fn cross_box(width: usize, height: usize) -> PackingInstance {
        let pieces: Vec<_> = crosses()
            .iter()
            .map(|s| (orientations(s, true, true), PieceLimit::unlimited()))
            .collect();
        PackingInstance::from_shapes(width, height, vec![false; width * height], &pieces)
    }

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
        let shapes = small_shapes();
        let count = rng.gen_range(1..=3);
        let pieces: Vec<_> = (0..count)
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
                (orientations(s, rng.gen_bool(0.7), rng.gen_bool(0.5)), limit)
            })
            .collect();
        PackingInstance::from_shapes(width, height, blocked, &pieces)
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
        for case in 0..80 {
            let instance = random_instance(&mut rng, 5);
            let expected = brute_force_max(&instance);
            for bounds in [
                BoundSet::default(),
                BoundSet {
                    area: true,
                    rows: false,
                    columns: false,
                },
            ] {
                let options = PackingOptions {
                    bounds,
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
                            bounds,
                            ..PackingOptions::default()
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
