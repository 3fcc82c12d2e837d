//! The packing family's native backend: the bitboard search of [`crate::engines::packing`]
//! for tilings; for maximum packings the Russian-doll search ([`russian_doll`]), or, when
//! pieces have minimums, the bitboard branch and bound bounded by the doll's table. Also
//! tiling counts, natively and with SAT, raw and up to the region's symmetries.

use super::bound_race::BoundRace;
use super::packing_bounds::{row_area_bounds, row_lp_weights, LpOutcome, PackingBounds};
use super::with_stop;
use crate::base::evidence::{
    BoundFinder, DollStoppedAnswer, DollTable, PackingBound, PackingSearch, WindowsImproved,
};
use crate::base::{Control, Evidence, Goal, RawOutcome, Size};
use crate::engines::neighbourhood::{self, NeighbourhoodOptions};
use crate::engines::packing::{maximise, MaximiseError, PackingGoal, PackingOptions, Progress};
use crate::engines::russian_doll::{self, DollError, DollOptions};
use crate::geometry::isometry::RectSymmetry;
use crate::geometry::placements::{placement_action, placement_index, PackingError};
use crate::model::{Assignment, Var};
use crate::oracle::{varisat, OracleError};
use crate::puzzle::packing::{Packing, PackingKind, PackingSolution};
use crate::puzzle::Family;
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Progress lines start after this long, so that quick runs stay quiet.
const QUIET: Duration = Duration::from_secs(1);

/// Why the native packing backend gave no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NativePackingError {
    /// "At least K" asked of a tile model, which has no objective: the question does not
    /// apply (a usage error, not a failure of the search; see [`super::Misuse::AtLeastOnTile`]).
    #[error("{}", super::Misuse::AtLeastOnTile)]
    AtLeastOnTile,
    /// The exact-cover tiling search refused the instance.
    #[error(transparent)]
    Tiling(#[from] PackingError),
    /// The bitboard branch and bound refused the instance.
    #[error(transparent)]
    Maximise(#[from] MaximiseError),
    /// The Russian-doll search refused the instance.
    #[error(transparent)]
    Doll(#[from] DollError),
}

/// Answers `goal` for `packing` natively. `bounds`: the maximum packing's bounds known
/// before the search ([`super::packing_bounds`]), which end the Russian doll as soon as its
/// packing meets them (`None`: none known).
pub fn solve(
    packing: &Packing,
    goal: Goal,
    control: &Control,
    bounds: Option<&mut PackingBounds>,
) -> Result<RawOutcome<PackingSolution>, NativePackingError> {
    match packing.kind {
        PackingKind::Tile => tile(packing, goal, control),
        PackingKind::Maximise => pack(packing, goal, control, None, &[], bounds),
    }
}

/// A smaller box whose optimum the Russian-doll table of a box settled on the way: the last
/// scan rows of an open box are a box of their own (same short side, fewer rows), and the
/// table's entry at the first of them is exactly its optimum (pieces starting there or later
/// lie within those rows).
#[derive(Clone, Debug, PartialEq)]
pub struct SubBox {
    /// Its columns.
    pub width: usize,
    /// Its rows.
    pub height: usize,
    /// Its optimum.
    pub optimum: usize,
    /// A packing of `optimum` pieces, in the sub-box's own cells (not yet verified).
    pub packing: PackingSolution,
    /// Seconds into the run when its entry was decided.
    pub seconds: f64,
}

/// [`solve`] for a maximum packing of an open box, and the smaller boxes the Russian-doll
/// table settled on the way ([`SubBox`], tallest first): every one when the search finished,
/// those of the rows decided when it stopped, none when another search answered (a tiling,
/// piece minimums, blocked cells). `row_bounds` are proven bounds on the boxes of the last
/// scan rows, passed to the search ([`DollOptions::row_bounds`]; empty for none).
pub fn solve_with_sub_boxes(
    packing: &Packing,
    goal: Goal,
    control: &Control,
    row_bounds: &[Option<usize>],
) -> Result<(RawOutcome<PackingSolution>, Vec<SubBox>), NativePackingError> {
    let mut sub_boxes = Vec::new();
    let raw = match packing.kind {
        PackingKind::Tile => tile(packing, goal, control)?,
        PackingKind::Maximise => pack(
            packing,
            goal,
            control,
            Some(&mut sub_boxes),
            row_bounds,
            None,
        )?,
    };
    Ok((raw, sub_boxes))
}

fn tile(
    packing: &Packing,
    goal: Goal,
    control: &Control,
) -> Result<RawOutcome<PackingSolution>, NativePackingError> {
    if let Goal::AtLeast(_) = goal {
        return Err(NativePackingError::AtLeastOnTile);
    }
    let mut found = None;
    let summary = with_stop(control, |stop| {
        crate::engines::packing::enumerate_tilings(&packing.instance, stop, |t| {
            found = Some(t.to_vec());
            ControlFlow::Break(())
        })
    })?;
    let size = Size::nodes(summary.nodes);
    Ok(match found {
        Some(t) => RawOutcome::satisfiable(
            packing.solution_of(&t),
            Evidence::PackingFound {
                search: PackingSearch::ExactCover,
                found: 0,
                k: 0,
                nodes: summary.nodes,
            },
            size,
        ),
        None if summary.end == crate::engines::exact_cover::SearchEnd::Exhausted => {
            RawOutcome::unsatisfiable(
                None,
                Evidence::PackingExhausted {
                    search: PackingSearch::ExactCover,
                    k: None,
                    nodes: summary.nodes,
                },
                size,
            )
        }
        None => RawOutcome::stopped(
            None,
            None,
            Evidence::PackingStopped {
                search: PackingSearch::ExactCover,
                stop: control.stop(),
            },
            size,
        ),
    })
}

fn pack(
    packing: &Packing,
    goal: Goal,
    control: &Control,
    sub_boxes: Option<&mut Vec<SubBox>>,
    row_bounds: &[Option<usize>],
    bounds: Option<&mut PackingBounds>,
) -> Result<RawOutcome<PackingSolution>, NativePackingError> {
    let instance = &packing.instance;
    let started = Instant::now();
    let deadline = control.remaining().map(|r| Instant::now() + r);
    let stop = control.stop_flag();
    let report = |progress: &Progress| {
        let elapsed = started.elapsed();
        if elapsed >= QUIET {
            control.note(&format!(
                "packing: best {}, bound {}, {} nodes, {:.1} s",
                progress
                    .best
                    .map_or_else(|| "none".to_string(), |b| b.to_string()),
                progress.bound,
                progress.nodes,
                elapsed.as_secs_f64()
            ));
        }
    };
    // Piece minimums rule out the Russian doll alone (its table ignores them): the branch
    // and bound over the same scan, bounded by that table, answers the goal.
    if instance.pieces.iter().any(|l| l.min > 0) {
        let options = PackingOptions {
            goal: match goal {
                Goal::Maximise => PackingGoal::Maximise,
                Goal::AtLeast(k) => PackingGoal::AtLeast(k),
            },
            stop: Some(stop),
            deadline,
            ..PackingOptions::default()
        };
        let outcome = maximise(instance, &options, report)?;
        let found = outcome.best.as_ref().map(|b| packing.solution_of(b));
        let len = outcome.best_len();
        let size = Size::nodes(outcome.stats.nodes);
        let bb = PackingSearch::BranchAndBound;
        return Ok(match (goal, outcome.proved, found) {
            (Goal::AtLeast(k), _, Some(s)) if len >= k => {
                let evidence = Evidence::PackingFound {
                    search: bb,
                    found: len,
                    k,
                    nodes: outcome.stats.nodes,
                };
                RawOutcome::satisfiable(s, evidence, size)
            }
            (Goal::AtLeast(k), true, _) => RawOutcome::unsatisfiable(
                Some(outcome.bound),
                Evidence::PackingExhausted {
                    search: bb,
                    k: Some(k),
                    nodes: outcome.stats.nodes,
                },
                size,
            ),
            (Goal::Maximise, true, Some(s)) => RawOutcome::optimal(
                s,
                len,
                Evidence::PackingExhausted {
                    search: bb,
                    k: None,
                    nodes: outcome.stats.nodes,
                },
                size,
            ),
            (Goal::Maximise, true, None) => {
                RawOutcome::unsatisfiable(None, Evidence::PackingNoneMeetsMinimums, size)
            }
            (_, false, found) => RawOutcome::stopped(
                found,
                Some(outcome.bound),
                Evidence::PackingStopped {
                    search: bb,
                    stop: control.stop(),
                },
                size,
            ),
        });
    }
    russian_doll(packing, goal, control, sub_boxes, row_bounds, bounds)
}

/// Answers `goal` for a packing without piece minimums by the Russian-doll search: the
/// suffix table from the last scan cell back (each entry the most pieces that start there
/// or later), whose first entry is the optimum; "at least k" is answered from it.
fn russian_doll(
    packing: &Packing,
    goal: Goal,
    control: &Control,
    sub_boxes: Option<&mut Vec<SubBox>>,
    row_bounds: &[Option<usize>],
    bounds: Option<&mut PackingBounds>,
) -> Result<RawOutcome<PackingSolution>, NativePackingError> {
    let instance = &packing.instance;
    let started = Instant::now();
    let order = russian_doll::scan_order(instance.width, instance.height);
    let row = instance.width.min(instance.height);
    // With a time limit, its last twentieth (at most 30 s) is kept for improving the packing
    // of a search that does not finish in time (`improve_stopped`).
    let deadline = control.remaining().map(|r| Instant::now() + r);
    let reserve = control
        .remaining()
        .map_or(Duration::ZERO, |r| (r / 20).min(Duration::from_secs(30)));
    // The bounds known before the search bound every entry of the table (each is the
    // optimum of a part of the box), the area bound of the rows from each row on its
    // row's entries: once the table reaches them the rest needs no search.
    let known = bounds.as_ref().map(|b| b.best());
    let row_bounds: Vec<Option<usize>> = match known {
        None => row_bounds.to_vec(),
        Some(best) => row_area_bounds(packing)
            .into_iter()
            .enumerate()
            .map(|(r, area)| {
                let given = row_bounds.get(r).copied().flatten();
                Some(given.map_or(area, |g| g.min(area)).min(best.value()))
            })
            .collect(),
    };
    // Beside the doll of a maximum packing: the LP bound and the quick searches for a
    // packing that meets a bound, which stop the doll when they find one.
    let race = match (&bounds, goal) {
        (Some(bounds), Goal::Maximise) => Some(BoundRace::new(**bounds, control)),
        _ => None,
    };
    // When each scan row's first entry was decided (for the sub-boxes).
    let mut row_seconds = vec![0.0; order.len() / row + 1];
    let doll_done = AtomicBool::new(false);
    let outcome = std::thread::scope(|scope| {
        // The doll polls the race's flag: Ctrl-C must raise it too. The watcher also starts
        // the race's thread when it is due.
        if let Some(race) = &race {
            scope.spawn(|| {
                while !doll_done.load(Ordering::Relaxed) {
                    race.start_when_due(packing);
                    if control.stop_flag().load(Ordering::Relaxed) {
                        race.doll_stop().store(true, Ordering::Relaxed);
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
            });
        }
        // Once the race has started (its tiling search need not wait), where the LP
        // relaxation was solved before the search (it is small): each scan row's own
        // relaxation (of the placements from that row on) weighs the cells by its dual for
        // the doll's nodes in the row (see `DollOptions::row_weights`); where the pieces do
        // not fill the area, the dual knows which cells are hard to cover. Skew tetrominoes
        // in 14 x 14: 14 small LPs, 0.06 s, then 7.0 M nodes, 1.4 s, against 217 M nodes,
        // 41 s (one thread).
        let doll_stop = race.as_ref().map_or(control.stop_flag(), |r| r.doll_stop());
        let row_weights = match bounds.as_ref().map(|b| b.lp) {
            Some(LpOutcome::Solved { .. }) => row_lp_weights(instance, control, doll_stop),
            _ => Vec::new(),
        };
        let options = DollOptions {
            stop: Some(doll_stop),
            deadline: deadline.map(|d| d - reserve),
            row_bounds: &row_bounds,
            row_weights: &row_weights,
            late_weights: race.as_ref().map(BoundRace::doll_weights),
            memo_bytes: russian_doll::memo_bytes_for(control),
            ..DollOptions::default()
        };
        let outcome = russian_doll::solve(instance, &options, |position, entry| {
            if position % row != 0 {
                return;
            }
            let elapsed = started.elapsed();
            row_seconds[position / row] = elapsed.as_secs_f64();
            if elapsed >= QUIET {
                let cell = order[position];
                control.note(&format!(
                "packing: pieces starting at ({}, {}) or later in scan order: at most {entry} (Russian-doll table), {:.1} s",
                cell % instance.width,
                cell / instance.width,
                elapsed.as_secs_f64()
            ));
            }
        });
        doll_done.store(true, Ordering::Relaxed);
        outcome
    })?;
    let size = Size::nodes(outcome.stats.nodes);
    let mut known = known;
    if let (Some(race), Some(bounds)) = (race, bounds) {
        let (lp, met) = race.finish();
        bounds.lp = lp;
        known = Some(bounds.best());
        if let (Some(met), false) = (met, outcome.proved) {
            let value = met.placements.len();
            let solution = packing.solution_of(&met.placements);
            return Ok(RawOutcome::optimal(solution, value, met.evidence, size));
        }
    }
    if let Some(sub_boxes) = sub_boxes {
        if goal == Goal::Maximise && !packing.blocked.iter().any(|&b| b) {
            *sub_boxes = settled_sub_boxes(packing, &outcome.table, &outcome.found, &row_seconds);
        }
    }
    if !outcome.proved {
        return improve_stopped(packing, goal, control, deadline, &outcome, size, known);
    }
    let found = outcome.best.len();
    let best = packing.solution_of(&outcome.best);
    if let (Some(known), Goal::Maximise) = (known, goal) {
        if found == known.value() {
            let evidence = Evidence::BoundMet {
                by: BoundFinder::Doll,
                value: found,
                nodes: Some(outcome.stats.nodes),
                bound: known,
            };
            return Ok(RawOutcome::optimal(best, found, evidence, size));
        }
    }
    let table = DollTable {
        cells: order.len(),
        lookahead_cuts: outcome.stats.lookahead_cuts > 0,
        area_cuts: outcome.stats.area_cuts > 0,
        weight_cuts: outcome.stats.weight_cuts > 0,
        bounded_entries: outcome.stats.bounded_entries,
        nodes: outcome.stats.nodes,
    };
    let how = |k: usize| Evidence::DollRefuted { k, table };
    Ok(match goal {
        Goal::Maximise => RawOutcome::optimal(best, found, how(found + 1), size),
        Goal::AtLeast(k) if found >= k => {
            RawOutcome::satisfiable(best, Evidence::DollFound { found, k }, size)
        }
        Goal::AtLeast(k) => RawOutcome::unsatisfiable(Some(found), how(k), size),
    })
}

/// The answer of a Russian-doll search stopped before it finished. When the time limit
/// stopped it (not Ctrl-C), the time kept for it improves the best packing by re-solving
/// windows of it ([`neighbourhood::improve`]); a packing that reaches the stopped search's
/// bound is optimal, one that reaches `k` answers "at least k".
fn improve_stopped(
    packing: &Packing,
    goal: Goal,
    control: &Control,
    deadline: Option<Instant>,
    outcome: &russian_doll::DollOutcome,
    size: Size,
    known: Option<PackingBound>,
) -> Result<RawOutcome<PackingSolution>, NativePackingError> {
    // The bound known before the search, when it is tighter than the stopped table's.
    let tighter = known.filter(|k| k.value() < outcome.bound);
    let bound = tighter.map_or(outcome.bound, |k| k.value());
    let interrupted = control.stop_flag().load(Ordering::Relaxed);
    let improved = match deadline {
        Some(deadline) if !interrupted => {
            let options = NeighbourhoodOptions {
                target: Some(match goal {
                    Goal::Maximise => bound,
                    Goal::AtLeast(k) => k.min(bound),
                }),
                stop: Some(control.stop_flag()),
                deadline: Some(deadline),
                ..NeighbourhoodOptions::default()
            };
            let improved = neighbourhood::improve(&packing.instance, &outcome.best, &options)?;
            (improved.best.len() > outcome.best.len()).then_some(improved)
        }
        _ => None,
    };
    let best = improved
        .as_ref()
        .map_or(outcome.best.as_slice(), |i| i.best.as_slice());
    let improved = improved.as_ref().map(|i| WindowsImproved {
        from: outcome.best.len(),
        to: i.best.len(),
        rounds: i.rounds,
    });
    let evidence = |answer| {
        let stopped = Evidence::DollStopped {
            bound: outcome.bound,
            answer,
            improved,
        };
        match tighter {
            Some(bound) => Evidence::Bounded {
                stopped: Box::new(stopped),
                bound,
            },
            None => stopped,
        }
    };
    let found = best.len();
    let witness = packing.solution_of(best);
    Ok(match (goal, tighter) {
        (Goal::Maximise, Some(known)) if found == bound => RawOutcome::optimal(
            witness,
            found,
            Evidence::BoundMet {
                by: match improved {
                    Some(_) => BoundFinder::Windows,
                    None => BoundFinder::Doll,
                },
                value: found,
                nodes: Some(outcome.stats.nodes),
                bound: known,
            },
            size,
        ),
        (Goal::Maximise, _) if found == bound => RawOutcome::optimal(
            witness,
            found,
            evidence(DollStoppedAnswer::MeetsBound),
            size,
        ),
        (Goal::AtLeast(k), _) if found >= k => RawOutcome::satisfiable(
            witness,
            evidence(DollStoppedAnswer::Reaches { found, k }),
            size,
        ),
        _ => RawOutcome::stopped(
            (found > 0).then_some(witness),
            Some(bound),
            evidence(DollStoppedAnswer::Stopped(control.stop())),
            size,
        ),
    })
}

/// The sub-boxes an open box's doll table settled: for each scan row `r >= 1` whose first
/// entry `table` decided (by scan position; `None`: undecided), the box of rows `r..` with
/// that entry as optimum and the packing found at the first raised entry from there on
/// (`found`: the raised entries and their packings, last position first), moved into the
/// sub-box's cells, with its time from `row_seconds` (by scan row). Tallest first.
pub(crate) fn settled_sub_boxes(
    packing: &Packing,
    table: &[Option<usize>],
    found: &[(usize, Vec<usize>)],
    row_seconds: &[f64],
) -> Vec<SubBox> {
    let (w, h) = (packing.width, packing.height);
    let row = w.min(h);
    let rows = w.max(h);
    (1..rows)
        .filter_map(|r| {
            let optimum = table[r * row]?;
            // `found` runs last position first: the smallest position at or after the
            // row's start is the one found last.
            let placed: &[usize] = found
                .iter()
                .rev()
                .find(|(k, _)| *k >= r * row)
                .map_or(&[], |(_, p)| p);
            // Scan rows are the box's rows when it is at least as tall as wide, else its
            // columns; either way the sub-box drops the first `r` of them.
            let (sw, sh) = if w <= h { (w, h - r) } else { (w - r, h) };
            let moved = |cell: usize| {
                let (x, y) = (cell % w, cell / w);
                if w <= h {
                    (y - r) * sw + x
                } else {
                    y * sw + (x - r)
                }
            };
            let solution = packing.solution_of(placed);
            Some(SubBox {
                width: sw,
                height: sh,
                optimum,
                packing: PackingSolution::new(
                    solution
                        .placed
                        .into_iter()
                        .map(|(piece, cells)| (piece, cells.into_iter().map(moved).collect()))
                        .collect(),
                ),
                seconds: row_seconds[r],
            })
        })
        .collect()
}

/// Tiling counts of a tile model: raw, and up to the region's symmetries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Number of tilings.
    pub raw: u64,
    /// Number of tilings up to the symmetries of the rectangle that preserve the instance.
    pub up_to_symmetry: u64,
    /// Whether the count finished (otherwise both are lower bounds).
    pub complete: bool,
}

/// Counts tilings natively (exact cover; see
/// [`count_tilings`](crate::engines::packing::count_tilings) for the symmetric count).
pub fn count_native(packing: &Packing, control: &Control) -> Result<Counts, NativePackingError> {
    let count = with_stop(control, |stop| {
        crate::engines::packing::count_tilings(&packing.instance, true, stop)
    })?;
    Ok(Counts {
        raw: count.raw,
        up_to_symmetry: count.up_to_symmetry.unwrap_or(count.raw),
        complete: count.complete,
    })
}

/// Lists every tiling natively (no symmetry reduction), handing each to `visit` until it
/// says stop. Returns how many were handed out and whether the search ran to the end.
pub fn list_native(
    packing: &Packing,
    control: &Control,
    visit: &mut dyn FnMut(PackingSolution) -> bool,
) -> Result<(u64, bool), NativePackingError> {
    let mut listed = 0;
    let summary = with_stop(control, |stop| {
        crate::engines::packing::enumerate_tilings(&packing.instance, stop, |indices| {
            listed += 1;
            if visit(packing.solution_of(indices)) {
                std::ops::ControlFlow::Continue(())
            } else {
                std::ops::ControlFlow::Break(())
            }
        })
    })?;
    Ok((
        listed,
        summary.end == crate::engines::exact_cover::SearchEnd::Exhausted,
    ))
}

/// Counts tilings with varisat, independently of the native search: the model without
/// symmetry breaking, one blocking clause per tiling found; each tiling's orbit is named by
/// its smallest image under the region's symmetries, and the distinct names are counted.
pub fn count_sat(packing: &Packing, control: &Control) -> Result<Counts, OracleError> {
    let model = packing.compile_with(false);
    let group = symmetries(packing);
    let mut orbits: HashSet<Vec<(usize, Vec<usize>)>> = HashSet::new();
    let placements: Vec<Var> = (0..packing.instance.placements.len())
        .map(Var::from_index)
        .collect();
    let found = varisat::enumerate(&model, &placements, None, control, &mut |assignment| {
        orbits.insert(canonical(&group, &packing.decode(assignment)));
        true
    })?
    .unwrap_or_default();
    Ok(Counts {
        raw: found.count,
        up_to_symmetry: orbits.len() as u64,
        complete: found.complete,
    })
}

/// The symmetries of the rectangle (4, or 8 for a square) that map the instance onto
/// itself, as maps of row-major cells.
pub fn symmetries(packing: &Packing) -> Vec<Vec<usize>> {
    let (w, h) = (packing.width, packing.height);
    let instance = &packing.instance;
    let index = placement_index(instance);
    RectSymmetry::of_rectangle(w, h)
        .filter(|&symmetry| placement_action(instance, &index, symmetry).is_some())
        .map(|symmetry| symmetry.cell_map(w, h))
        .collect()
}

/// The smallest image of `solution` under `group`, as sorted (piece, cells) pairs: the name
/// of its orbit.
pub fn canonical(group: &[Vec<usize>], solution: &PackingSolution) -> Vec<(usize, Vec<usize>)> {
    group
        .iter()
        .map(|map| {
            let mut image: Vec<(usize, Vec<usize>)> = solution
                .placed
                .iter()
                .map(|(piece, cells)| {
                    let mut cells: Vec<usize> = cells.iter().map(|&c| map[c]).collect();
                    cells.sort_unstable();
                    (*piece, cells)
                })
                .collect();
            image.sort();
            image
        })
        .min()
        .unwrap_or_default()
}

/// The assignment of the compiled model that places exactly `solution` (for tests that
/// check the model against a known packing).
pub fn assignment_of(packing: &Packing, solution: &PackingSolution) -> Assignment {
    let placed: HashSet<(usize, &[usize])> = solution
        .placed
        .iter()
        .map(|(p, c)| (*p, c.as_slice()))
        .collect();
    Assignment::new(
        packing
            .instance
            .placements
            .iter()
            .map(|p| placed.contains(&(p.piece, p.cells.as_slice())))
            .collect(),
    )
}
