//! Tilings: enumerated, counted, and counted up to the symmetries of the rectangle, by the
//! bitboard search or, beyond 1024 cells and as a cross-check, by dancing links.

use rustc_hash::FxHashMap;
use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;

use super::board::{board_words, Board, MAX_BOARD_CELLS};
use super::search::{Scan, Searcher, Task};
use crate::engines::exact_cover::{ExactCover, SearchEnd, SearchSummary};
use crate::engines::russian_doll::Wide;
use crate::geometry::placements::{symmetry_group, PackingError, PackingInstance, PieceLimit};

/// Builds the exact-cover problem of tiling: one primary item per free cell, one item per piece
/// with a limit (exactly once: primary; at most once: secondary; other limits: counted item;
/// unlimited: no item). Only placements with `keep(index)` become options. Returns the problem
/// and the placement index of each option.
pub(super) fn tiling_problem(
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
pub(super) const AUTO_REGIONS_CELLS: usize = 64;

/// The bitboard search's settings for `engine` on `instance` (region pruning, words), or
/// `None` for dancing links.
pub(super) fn bitboard_choice(
    instance: &PackingInstance,
    engine: TilingEngine,
) -> Option<(bool, usize)> {
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
pub(super) fn solve_tilings(
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
pub(super) fn tile_with<B: Board>(
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
pub(super) struct Pivots<'a> {
    pub(super) piece: usize,
    pub(super) representatives: &'a [usize],
    pub(super) group: &'a [Vec<usize>],
    pub(super) stabiliser: &'a FxHashMap<usize, Vec<usize>>,
}

/// The symmetric count by the bitboard search: one search per representative of the pivot
/// piece, with it placed first, in parallel.
pub(super) fn count_by_pivot<B: Board>(
    instance: &PackingInstance,
    pivots: &Pivots<'_>,
    regions: bool,
    stop: &AtomicBool,
) -> TilingCount {
    use rayon::prelude::*;
    let scan = Scan::<B>::new(instance, &|i| instance.placements[i].piece != pivots.piece);
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
pub(super) fn canonical_fixers(
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
pub(super) fn orbit_representatives(
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
