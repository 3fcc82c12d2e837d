//! The bounds every maximum packing knows before any search: counting cells (the area
//! bound, smallest pieces first within their maxima) and the LP relaxation of the packing
//! model. `solve` computes them before any backend runs; a packing that meets one is
//! optimal at once, and a stopped run never reports a bound above them.

use crate::base::evidence::PackingBound;
use crate::base::Control;
use crate::formats::linear::LinearProgram;
use crate::geometry::placements::PackingInstance;
use crate::geometry::weights::CellWeights;
use crate::oracle::microlp::{lp_relaxation, packing_dual};
use crate::puzzle::packing::{Packing, PackingKind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The LP relaxation is solved only for models of at most this many placements (columns):
/// microlp's simplex time grows about as the cube of them. Measured (release build,
/// shared 2-core machine): T tetrominoes 12 x 12 (440 placements) 0.04 s, skew
/// tetrominoes 15 x 15 (728) 0.19 s, crosses 13 x 19 (1,215) 0.94 s; crosses 40 x 40
/// (11,664) would take minutes.
pub const LP_MAX_PLACEMENTS: usize = 2000;

/// The native search of a maximum packing solves the LP before its search for models of
/// at most this many placements (at most about 0.25 s: skew tetrominoes 15 x 15, 728
/// placements, 0.19 s), and beside its search, after a delay, for larger ones (see
/// `bound_race`): a Russian doll that finishes in a fraction of a second (the 13 x 19
/// cross box) then never waits for an LP that costs it more than it saves.
pub const LP_BEFORE_SEARCH: usize = 800;

/// Floating-point slack when the relaxation's optimum is rounded down: a simplex optimum
/// of 49 may come out as 48.9999999.
const LP_EPSILON: f64 = 1e-6;

/// The LP relaxation bound, or why there is none.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LpOutcome {
    /// Solved: the bound, and the time the simplex took.
    Solved {
        /// The bound.
        bound: PackingBound,
        /// The simplex's time.
        seconds: f64,
    },
    /// Not solved: the model has more placements than [`LP_MAX_PLACEMENTS`].
    Skipped {
        /// The model's placements.
        placements: usize,
    },
    /// Still being solved (beside the native search) when the run ended.
    Unfinished,
    /// The simplex gave no optimum (a deadline, or a failure of microlp).
    Unsolved,
}

impl LpOutcome {
    /// The status as `--json` gives it: `solved`, `skipped`, `unfinished`, `unsolved`.
    pub fn name(&self) -> &'static str {
        match self {
            LpOutcome::Solved { .. } => "solved",
            LpOutcome::Skipped { .. } => "skipped",
            LpOutcome::Unfinished => "unfinished",
            LpOutcome::Unsolved => "unsolved",
        }
    }
}

/// The bounds of one maximum packing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PackingBounds {
    /// Counting cells.
    pub area: PackingBound,
    /// The LP relaxation.
    pub lp: LpOutcome,
}

impl PackingBounds {
    /// The tighter of the two (the area bound on a tie: it is the simpler argument).
    pub fn best(&self) -> PackingBound {
        match self.lp {
            LpOutcome::Solved { bound, .. } if bound.value() < self.area.value() => bound,
            _ => self.area,
        }
    }

    /// The LP relaxation bound, when it was solved.
    pub fn lp_bound(&self) -> Option<PackingBound> {
        match self.lp {
            LpOutcome::Solved { bound, .. } => Some(bound),
            _ => None,
        }
    }
}

/// The bounds of `packing` when it is a maximum packing (`None` for a tiling, which has
/// no objective). The LP is skipped above [`LP_MAX_PLACEMENTS`] placements; with
/// `beside_search`, above [`LP_BEFORE_SEARCH`] it is left [`LpOutcome::Unfinished`] for
/// the caller to solve beside its search ([`lp_bound`]); otherwise it is solved here, given
/// at most a tenth of `control`'s remaining time.
pub fn packing_bounds(
    packing: &Packing,
    control: &Control,
    beside_search: bool,
) -> Option<PackingBounds> {
    if packing.kind != PackingKind::Maximise {
        return None;
    }
    let area = area_bound(packing);
    let placements = packing.instance.placements.len();
    let lp = if placements > LP_MAX_PLACEMENTS {
        LpOutcome::Skipped { placements }
    } else if beside_search && placements > LP_BEFORE_SEARCH {
        LpOutcome::Unfinished
    } else {
        // The bound is an aid: it may take a tenth of what is left, never the whole run.
        let budget = match control.remaining() {
            Some(left) => Control::new(
                std::sync::Arc::new(std::sync::atomic::AtomicBool::new(control.should_stop())),
                Some(left / 10),
            ),
            None => Control::unlimited(),
        };
        lp_bound(packing, &budget)
    };
    Some(PackingBounds { area, lp })
}

/// The area bound of `packing`: the cells some placement covers, filled with the smallest
/// pieces first, each up to its maximum (with every piece worth one, the cheapest first is
/// an optimal knapsack). Pieces with no placement are left out.
pub fn area_bound(packing: &Packing) -> PackingBound {
    let instance = &packing.instance;
    let mut covered = vec![false; instance.width * instance.height];
    let mut sizes: Vec<Option<usize>> = vec![None; instance.pieces.len()];
    for p in &instance.placements {
        sizes[p.piece] = Some(p.cells.len());
        for &c in &p.cells {
            covered[c] = true;
        }
    }
    let cells = covered.iter().filter(|&&c| c).count();
    area_of(packing, cells, &sizes)
}

/// The area bound of `cells` cells filled with the pieces of `sizes` (per piece its cells,
/// `None` for a piece that has no placement).
fn area_of(packing: &Packing, cells: usize, sizes: &[Option<usize>]) -> PackingBound {
    let mut pieces: Vec<(usize, Option<usize>)> = sizes
        .iter()
        .zip(&packing.instance.pieces)
        .filter_map(|(size, limit)| size.map(|s| (s, limit.max)))
        .collect();
    pieces.sort_by_key(|&(size, _)| size);
    let smallest = pieces.first().map_or(1, |&(size, _)| size);
    let (mut left, mut value) = (cells, 0);
    for (size, max) in pieces {
        let fit = left / size;
        let take = max.map_or(fit, |m| m.min(fit));
        value += take;
        left -= take * size;
    }
    PackingBound::Area {
        value,
        cells,
        smallest,
        limited: value < cells / smallest,
    }
}

/// The Russian doll's scan row of a cell (row-major index) of a `width` x `height` box:
/// rows run along the short side ([`crate::engines::russian_doll::scan_order`]).
fn scan_row_of(width: usize, height: usize) -> impl Fn(usize) -> usize {
    move |cell| {
        if width <= height {
            cell / width
        } else {
            cell % width
        }
    }
}

/// Per scan row `r` of the Russian doll (rows along the short side, from the first), the
/// area bound of the pieces whose first cell lies in row `r` or later: they cover only
/// cells of those rows. Tighter than the whole box's bound near the end, where the
/// table's entries are decided first.
pub fn row_area_bounds(packing: &Packing) -> Vec<usize> {
    let rows = packing.width.max(packing.height);
    let scan_row = scan_row_of(packing.width, packing.height);
    let instance = &packing.instance;
    // Placements by the scan row of their first cell.
    let mut by_row: Vec<Vec<usize>> = vec![Vec::new(); rows];
    for (i, p) in instance.placements.iter().enumerate() {
        let first = p.cells.iter().map(|&c| scan_row(c)).min().unwrap_or(0);
        by_row[first].push(i);
    }
    let mut covered = vec![false; packing.width * packing.height];
    let mut cells = 0;
    let mut sizes: Vec<Option<usize>> = vec![None; instance.pieces.len()];
    let mut bounds = vec![0; rows];
    for r in (0..rows).rev() {
        for &i in &by_row[r] {
            let p = &instance.placements[i];
            sizes[p.piece] = Some(p.cells.len());
            for &c in &p.cells {
                cells += usize::from(!covered[c]);
                covered[c] = true;
            }
        }
        bounds[r] = area_of(packing, cells, &sizes).value();
    }
    bounds
}

/// The LP relaxation of `packing`'s model (without symmetry breaking: every placement a
/// column in `[0, 1]`, at most one per cell, the piece counts), its optimum rounded down,
/// solved within `control`'s deadline.
pub fn lp_bound(packing: &Packing, control: &Control) -> LpOutcome {
    let started = Instant::now();
    let program = LinearProgram::from_model(&packing.compile_with(false), None);
    match lp_relaxation(&program, control) {
        Ok(Some(relaxation)) => LpOutcome::Solved {
            bound: PackingBound::Lp {
                value: (relaxation + LP_EPSILON).floor().max(0.0) as usize,
                relaxation,
            },
            seconds: started.elapsed().as_secs_f64(),
        },
        Ok(None) | Err(_) => LpOutcome::Unsolved,
    }
}

/// The LP relaxation's dual of `instance` without piece counts (solved by microlp within
/// `control`'s deadline) as whole cell weights ([`CellWeights::from_dual`]); `None` when
/// the LP gave no optimum.
pub fn lp_dual_weights(instance: &PackingInstance, control: &Control) -> Option<CellWeights> {
    let cells: Vec<&[usize]> = instance.placements.iter().map(|p| &p.cells[..]).collect();
    let dual = packing_dual(instance.width * instance.height, &cells, control).ok()??;
    Some(CellWeights::from_dual(instance, &dual))
}

/// Per scan row `r` of the Russian doll (rows along the short side, from the first), the
/// LP dual weights ([`lp_dual_weights`]) of the placements whose first cell lies in row `r`
/// or later, for the doll's weighted cut
/// ([`crate::engines::russian_doll::DollOptions::row_weights`]). Solved from the last row
/// up (the doll's order), each within `control`'s deadline; `None` for a row whose LP gave
/// no optimum, and for the rows left when `stop` was raised.
pub fn row_lp_weights(
    instance: &PackingInstance,
    control: &Control,
    stop: &AtomicBool,
) -> Vec<Option<CellWeights>> {
    let scan_row = scan_row_of(instance.width, instance.height);
    let rows = instance.width.max(instance.height);
    let mut weights = vec![None; rows];
    for r in (0..rows).rev() {
        if stop.load(Ordering::Relaxed) || control.should_stop() {
            break;
        }
        let mut part = instance.clone();
        part.placements
            .retain(|p| p.cells.iter().all(|&c| scan_row(c) >= r));
        weights[r] = lp_dual_weights(&part, control);
    }
    weights
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::placements::PieceLimit;
    use crate::puzzle::packing::PieceSpec;

    /// A piece from rows of `#` and `.`, with every rotation and reflection.
    fn piece(name: &str, rows: &[&str], max: Option<usize>) -> PieceSpec {
        let cells = rows
            .iter()
            .enumerate()
            .flat_map(|(y, row)| {
                row.chars()
                    .enumerate()
                    .filter(|&(_, c)| c == '#')
                    .map(move |(x, _)| (x as i32, y as i32))
            })
            .collect();
        PieceSpec {
            name: name.into(),
            cells,
            rotate: true,
            reflect: true,
            limit: PieceLimit { min: 0, max },
        }
    }

    fn open_box(width: usize, height: usize, pieces: Vec<PieceSpec>) -> Packing {
        Packing::new(
            width,
            height,
            vec![false; width * height],
            pieces,
            PackingKind::Maximise,
        )
    }

    fn lp_value(packing: &Packing) -> f64 {
        match lp_bound(packing, &Control::unlimited()) {
            LpOutcome::Solved {
                bound: PackingBound::Lp { relaxation, .. },
                ..
            } => relaxation,
            other => panic!("no LP optimum: {other:?}"),
        }
    }

    #[test]
    fn the_area_bound_counts_the_cells_a_piece_can_cover() {
        // Dominoes in 3 x 3: 9 cells, 4 dominoes.
        let dominoes = open_box(3, 3, vec![piece("D", &["##"], None)]);
        assert_eq!(
            area_bound(&dominoes),
            PackingBound::Area {
                value: 4,
                cells: 9,
                smallest: 2,
                limited: false
            }
        );
        // No I tetromino fits in 3 x 3: no cell is coverable.
        let none = open_box(3, 3, vec![piece("I", &["####"], None)]);
        assert_eq!(area_bound(&none).value(), 0);
    }

    #[test]
    fn the_area_bound_fills_the_smallest_pieces_first_within_their_maxima() {
        // 4 x 4 = 16 cells: at most 2 monominoes, then dominoes: 2 + 7 = 9 (not 16).
        let packing = open_box(
            4,
            4,
            vec![piece("D", &["##"], None), piece("M", &["#"], Some(2))],
        );
        assert_eq!(
            area_bound(&packing),
            PackingBound::Area {
                value: 9,
                cells: 16,
                smallest: 1,
                limited: true
            }
        );
        // Both limited: 2 monominoes and 3 dominoes, then squares in the 8 cells left.
        let packing = open_box(
            4,
            4,
            vec![
                piece("O", &["##", "##"], None),
                piece("D", &["##"], Some(3)),
                piece("M", &["#"], Some(2)),
            ],
        );
        assert_eq!(area_bound(&packing).value(), 2 + 3 + 2);
    }

    #[test]
    fn the_row_area_bounds_count_the_cells_of_the_last_rows() {
        // Dominoes in 2 x 3 (scan rows of 2 cells): rows from 0 hold 3, from 1 hold 2,
        // from 2 hold 1 (the horizontal domino of the last row).
        let packing = open_box(2, 3, vec![piece("D", &["##"], None)]);
        assert_eq!(row_area_bounds(&packing), vec![3, 2, 1]);
        // A box wider than tall is scanned by columns.
        let packing = open_box(3, 2, vec![piece("D", &["##"], None)]);
        assert_eq!(row_area_bounds(&packing), vec![3, 2, 1]);
    }

    #[test]
    fn the_lp_relaxation_has_its_known_values_on_tiny_boxes() {
        // Dominoes in 3 x 3: a fractional matching of the grid, which is bipartite, so
        // the relaxation has the matching's 4, not 9 / 2.
        let dominoes = open_box(3, 3, vec![piece("D", &["##"], None)]);
        assert!((lp_value(&dominoes) - 4.0).abs() < 1e-6);
        // One L tromino in 2 x 2 (four placements, each missing one corner): every cell
        // is in three of them, so x = 1/3 each is optimal, 4/3; the bound is 1.
        let tromino = open_box(2, 2, vec![piece("L", &["#.", "##"], None)]);
        assert!((lp_value(&tromino) - 4.0 / 3.0).abs() < 1e-6);
        let bounds = packing_bounds(&tromino, &Control::unlimited(), false).unwrap();
        assert_eq!(bounds.best().value(), 1);
        // Skew tetrominoes in 3 x 3 (eight placements, all covering the centre): 1.
        let skew = open_box(3, 3, vec![piece("S", &[".##", "##."], None)]);
        assert!((lp_value(&skew) - 1.0).abs() < 1e-6);
        // A piece maximum is a row of the relaxation: dominoes at most 2 in 3 x 3.
        let limited = open_box(3, 3, vec![piece("D", &["##"], Some(2))]);
        assert!((lp_value(&limited) - 2.0).abs() < 1e-6);
    }

    #[test]
    fn the_best_bound_is_the_tighter_and_the_area_bound_on_a_tie() {
        let tromino = open_box(2, 2, vec![piece("L", &["#.", "##"], None)]);
        let bounds = packing_bounds(&tromino, &Control::unlimited(), false).unwrap();
        // Area: 4 cells / 3 = 1, LP: 1 as well: the area bound is named.
        assert!(matches!(bounds.best(), PackingBound::Area { value: 1, .. }));
        let skew = open_box(3, 3, vec![piece("S", &[".##", "##."], None)]);
        let bounds = packing_bounds(&skew, &Control::unlimited(), false).unwrap();
        // Area: 9 / 4 = 2, LP: 1.
        assert!(matches!(bounds.best(), PackingBound::Lp { value: 1, .. }));
        // A small model's LP is solved even beside a search; a tiling has no bounds.
        let bounds = packing_bounds(&skew, &Control::unlimited(), true).unwrap();
        assert!(matches!(bounds.lp, LpOutcome::Solved { .. }));
        let mut tiling = skew.clone();
        tiling.kind = PackingKind::Tile;
        assert_eq!(packing_bounds(&tiling, &Control::unlimited(), false), None);
    }
}
