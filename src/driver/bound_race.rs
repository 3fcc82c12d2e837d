//! Beside the native Russian doll of a maximum packing, on a thread of its own: the LP
//! relaxation bound, and quick searches for a packing that meets a bound known before the
//! search (a tiling when the area bound asks every cell to be covered; a greedy packing
//! improved by re-solving windows). A packing meeting a bound is optimal, so the doll is
//! stopped the moment one is found; when the doll finishes first, the thread is told to
//! stop and left to end by itself (an LP under way cannot be interrupted), so a quick doll
//! never waits for it. Unless a tiling may meet the area bound or the LP was solved before
//! the doll, the thread starts after `RACE_DELAY`, so a quick doll runs alone.

use super::packing_bounds::{lp_bound, row_lp_weights, LpOutcome, PackingBounds};
use crate::base::evidence::{BoundFinder, PackingBound, PackingSearch};
use crate::base::{Control, Evidence};
use crate::engines::neighbourhood::{self, NeighbourhoodOptions};
use crate::engines::russian_doll::LateWeights;
use crate::puzzle::packing::Packing;
use std::cell::Cell;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The time the exact-cover search may take to look for a tiling that meets the area bound:
/// one is found in milliseconds when it exists (12 x 12 with T tetrominoes: 69 nodes, with
/// I tetrominoes 37), and a search that does not find one soon rarely does.
const TILING_TRY: Duration = Duration::from_millis(500);

/// When the LP is left to the thread (a model of more than
/// [`LP_BEFORE_SEARCH`](super::packing_bounds::LP_BEFORE_SEARCH) placements) and no tiling
/// may meet the area bound, the thread starts this long after the doll, so that a Russian
/// doll that finishes quickly runs alone: measured (release build, shared 2-core machine,
/// load about 6), the 13 x 19 cross box took 0.96 s with the LP solved beside its doll from
/// the start, against 0.46 s alone (the doll itself takes 0.2 to 0.8 s there under that
/// load; the LP, 0.94 s of one core, bounds it by 26, far above the optimum 19).
const RACE_DELAY: Duration = Duration::from_millis(1000);

/// Rounds of re-solved windows after the greedy packing: the greedy packing alone meets
/// the LP bound of skew tetrominoes in 15 x 15; 400 rounds took 0.2 s on crosses in
/// 13 x 19 (release build), where no bound is met, so the thread stops well within that.
const WINDOW_ROUNDS: u64 = 100;

/// A packing that meets a bound: placement indices and how it was found.
#[derive(Clone, Debug)]
pub struct Met {
    /// Placement indices of the packing.
    pub placements: Vec<usize>,
    /// Why it is optimal.
    pub evidence: Evidence,
}

/// Aligned to its own cache lines: the doll's threads read `stop_doll` at every node, and a
/// heap neighbour written as often (a search's stack) would make each read a miss.
#[derive(Debug)]
#[repr(align(128))]
struct Shared {
    /// The doll's stop flag: raised when a packing meets a bound, or by the caller's
    /// watcher on Ctrl-C and at the deadline.
    stop_doll: AtomicBool,
    /// Raised when the doll has ended: the thread stops at its next check.
    cancel: AtomicBool,
    lp: Mutex<LpOutcome>,
    met: Mutex<Option<Met>>,
    /// Each scan row's LP dual, handed to the doll when the thread solved the LP and found
    /// it close to a packing (see [`race`]).
    weights: LateWeights,
}

/// The thread beside the doll ([`BoundRace::new`], [`BoundRace::start_when_due`]) and what
/// it found.
#[derive(Debug)]
pub struct BoundRace {
    shared: Arc<Shared>,
    bounds: PackingBounds,
    deadline: Option<Instant>,
    created: Instant,
    /// Whether the thread was started.
    started: AtomicBool,
}

impl BoundRace {
    /// The race of a maximum packing with `bounds` (its LP, when
    /// [`LpOutcome::Unfinished`], to be solved on the thread), within `control`'s deadline;
    /// its thread is started by [`BoundRace::start_when_due`].
    pub fn new(bounds: PackingBounds, control: &Control) -> BoundRace {
        BoundRace {
            shared: Arc::new(Shared {
                stop_doll: AtomicBool::new(false),
                cancel: AtomicBool::new(false),
                lp: Mutex::new(bounds.lp),
                met: Mutex::new(None),
                weights: LateWeights::default(),
            }),
            bounds,
            deadline: control.remaining().map(|r| Instant::now() + r),
            created: Instant::now(),
            started: AtomicBool::new(false),
        }
    }

    /// Starts the thread for `packing` once it is due (called again and again while the
    /// doll runs): at once when the LP is solved or a tiling may meet the area bound, else
    /// after `RACE_DELAY`, so that a doll that finishes quickly runs alone, without a
    /// thread beside it.
    pub fn start_when_due(&self, packing: &Packing) {
        if self.started.load(Ordering::Relaxed) || self.shared.cancel.load(Ordering::Relaxed) {
            return;
        }
        let waits = self.bounds.lp == LpOutcome::Unfinished && !may_tile(packing, self.bounds.area);
        if waits && self.created.elapsed() < RACE_DELAY {
            return;
        }
        self.started.store(true, Ordering::Relaxed);
        let shared = self.shared.clone();
        let (packing, bounds, deadline) = (packing.clone(), self.bounds, self.deadline);
        // Without the thread the doll runs alone, as before.
        let _ = std::thread::Builder::new()
            .name("puzzlec-bounds".into())
            .spawn(move || race(&packing, bounds, deadline, &shared));
    }

    /// The flag the doll polls.
    pub fn doll_stop(&self) -> &AtomicBool {
        &self.shared.stop_doll
    }

    /// Where the thread hands the doll its row weights ([`DollOptions::late_weights`]).
    ///
    /// [`DollOptions::late_weights`]: crate::engines::russian_doll::DollOptions::late_weights
    pub fn doll_weights(&self) -> &LateWeights {
        &self.shared.weights
    }

    /// Tells the thread to stop, and returns the LP's outcome so far
    /// ([`LpOutcome::Unfinished`] while it is being solved) and the packing meeting a bound,
    /// if one was found.
    pub fn finish(self) -> (LpOutcome, Option<Met>) {
        self.shared.cancel.store(true, Ordering::Relaxed);
        let lp = *self.shared.lp.lock().expect("no panics");
        let met = self.shared.met.lock().expect("no panics").take();
        (lp, met)
    }
}

/// The thread beside the doll: [`meet_bound`], which stops the doll when a packing meets a
/// bound.
///
/// When it solved the LP itself (the model too big to solve it before the doll) and no
/// packing met a bound, but the best one found comes within [`WEIGHTS_GAP`] of the LP bound,
/// it solves each scan row's LP dual and hands the weights to the doll
/// ([`row_lp_weights`]): where the LP is that close, the weighted cut settles what the table
/// and the area cannot (skew tetrominoes in 16 x 16, 840 placements: the doll proves 60
/// with them in 14 s, and not in 120 s without). Far from it (the 13 x 19 crosses: the
/// greedy packing 17 or 18, the LP 26) they would cost the doll a core for nothing.
fn race(packing: &Packing, bounds: PackingBounds, deadline: Option<Instant>, shared: &Shared) {
    let solved_lp = |lp| *shared.lp.lock().expect("no panics") = lp;
    let improved = Cell::new(0);
    let improved_to = |n| improved.set(n);
    if let Some(met) = meet_bound(
        packing,
        bounds,
        deadline,
        &shared.cancel,
        &solved_lp,
        &improved_to,
    ) {
        *shared.met.lock().expect("no panics") = Some(met);
        shared.stop_doll.store(true, Ordering::Relaxed);
        return;
    }
    let lp = *shared.lp.lock().expect("no panics");
    let found = improved.get();
    let close = match lp {
        LpOutcome::Solved { bound, .. } => bound.value() <= found + WEIGHTS_GAP.max(found / 10),
        _ => false,
    };
    if bounds.lp == LpOutcome::Unfinished && close && !shared.cancel.load(Ordering::Relaxed) {
        let weights = row_lp_weights(&packing.instance, &until(deadline), &shared.cancel);
        shared.weights.offer(weights);
    }
}

/// A control for an LP solved on the thread: `deadline`, and no stop flag of its own (a
/// simplex under way cannot be interrupted but by its time limit).
fn until(deadline: Option<Instant>) -> Control {
    Control::new(
        Arc::new(AtomicBool::new(false)),
        deadline.map(|d| d.saturating_duration_since(Instant::now())),
    )
}

/// How far (in pieces, or a tenth of the packing found if more) the LP bound may lie above
/// the race's packing for the race to solve the row duals for the doll ([`race`]): skew
/// tetrominoes in 16 x 16 pack 58 there against the LP's 61; the 13 x 19 crosses 17 or 18
/// against 26.
const WEIGHTS_GAP: usize = 3;

/// What the thread beside the doll does, on the caller's thread: a tiling when one may
/// meet the area bound (tried for at most `TILING_TRY`); else, the LP solved if it is
/// [`LpOutcome::Unfinished`] (and handed to `solved_lp`), a greedy packing improved by
/// re-solving windows, for up to `WINDOW_ROUNDS` rounds, towards the best bound (its
/// size handed to `improved_to`). The packing found, if it meets a bound; `None` once
/// `stop` is raised or `deadline` passes.
pub fn meet_bound(
    packing: &Packing,
    bounds: PackingBounds,
    deadline: Option<Instant>,
    stop: &AtomicBool,
    solved_lp: &dyn Fn(LpOutcome),
    improved_to: &dyn Fn(usize),
) -> Option<Met> {
    let cancelled =
        || stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d);
    if let Some((tiling, nodes)) = tiling(packing, bounds.area, &cancelled) {
        let evidence = Evidence::BoundMet {
            by: BoundFinder::Native(PackingSearch::ExactCover),
            value: tiling.len(),
            nodes: Some(nodes),
            bound: bounds.area,
        };
        return Some(Met {
            placements: tiling,
            evidence,
        });
    }
    if cancelled() {
        return None;
    }
    let mut known = bounds;
    if bounds.lp == LpOutcome::Unfinished {
        known.lp = lp_bound(packing, &until(deadline));
        solved_lp(known.lp);
    }
    if cancelled() {
        return None;
    }
    let best = known.best();
    let options = NeighbourhoodOptions {
        target: Some(best.value()),
        rounds: Some(WINDOW_ROUNDS),
        stop: Some(stop),
        deadline,
        ..NeighbourhoodOptions::default()
    };
    let improved = neighbourhood::improve(&packing.instance, &[], &options).ok()?;
    improved_to(improved.best.len());
    (improved.best.len() == best.value() && !cancelled()).then(|| Met {
        placements: improved.best,
        evidence: Evidence::BoundMet {
            by: BoundFinder::GreedyWindows {
                rounds: improved.rounds,
            },
            value: best.value(),
            nodes: None,
            bound: best,
        },
    })
}

/// Whether every packing that meets the area bound covers every free cell (all pieces of
/// one size, no maximum binding, every free cell coverable): then a tiling meets it.
fn may_tile(packing: &Packing, area: PackingBound) -> bool {
    let PackingBound::Area {
        value,
        cells,
        smallest,
        limited: false,
    } = area
    else {
        return false;
    };
    let free = packing.blocked.iter().filter(|&&b| !b).count();
    let one_size = packing
        .instance
        .placements
        .iter()
        .all(|p| p.cells.len() == smallest);
    value > 0 && cells == free && cells % smallest == 0 && one_size
}

/// A tiling of `packing`, when a tiling meets the area bound ([`may_tile`]) and the
/// exact-cover search finds one within [`TILING_TRY`]; with its nodes.
fn tiling(
    packing: &Packing,
    area: PackingBound,
    cancelled: &(dyn Fn() -> bool + Sync),
) -> Option<(Vec<usize>, u64)> {
    if !may_tile(packing, area) {
        return None;
    }
    let instance = &packing.instance;
    let until = Instant::now() + TILING_TRY;
    let flag = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    let mut found = None;
    let summary = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if cancelled() || Instant::now() >= until {
                    flag.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        });
        let summary = crate::engines::packing::enumerate_tilings(instance, &flag, |t| {
            found = Some(t.to_vec());
            ControlFlow::Break(())
        });
        done.store(true, Ordering::Relaxed);
        summary
    });
    let nodes = summary.ok()?.nodes;
    found.map(|t| (t, nodes))
}
