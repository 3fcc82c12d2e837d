//! Beside the native Russian doll of a maximum packing, on a thread of its own: the LP
//! relaxation bound, and quick searches for a packing that meets a bound known before the
//! search (a tiling when the area bound asks every cell to be covered; a greedy packing
//! improved by re-solving windows). A packing meeting a bound is optimal, so the doll is
//! stopped the moment one is found; when the doll finishes first, the thread is told to
//! stop and left to end by itself (an LP under way cannot be interrupted), so a quick doll
//! never waits for it. An LP left to the thread waits [`RACE_DELAY`], so a quick doll runs
//! alone.

use super::packing_bounds::{lp_bound, LpOutcome, PackingBounds};
use crate::base::evidence::{BoundFinder, PackingBound, PackingSearch};
use crate::base::{Control, Evidence};
use crate::engines::neighbourhood::{self, NeighbourhoodOptions};
use crate::puzzle::packing::Packing;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The time the exact-cover search may take to look for a tiling that meets the area bound:
/// one is found in milliseconds when it exists (12 x 12 with T tetrominoes: 69 nodes, with
/// I tetrominoes 37), and a search that does not find one soon rarely does.
const TILING_TRY: Duration = Duration::from_millis(500);

/// When the LP is left to the thread (a model of more than
/// [`LP_BEFORE_SEARCH`](super::packing_bounds::LP_BEFORE_SEARCH) placements), the thread
/// waits this long before it solves it, so that a Russian doll that finishes quickly runs
/// alone: measured (release build, shared 2-core machine, load about 6), the 13 x 19 cross
/// box took 0.96 s with the LP solved beside its doll from the start, and 0.52 s with it
/// started after 0.5 s, against 0.46 s alone (the doll itself takes 0.2 to 0.8 s there
/// under that load; the LP, 0.94 s of one core, bounds it by 26, far above the optimum 19).
const RACE_DELAY: Duration = Duration::from_millis(1000);

/// Rounds of re-solved windows after the greedy packing: the greedy packing alone meets
/// the LP bound of skew tetrominoes in 15 x 15; 400 rounds took 0.2 s on crosses in
/// 13 x 19 (release build), where no bound is met, so the thread stops well before that.
const WINDOW_ROUNDS: u64 = 100;

/// A packing that meets a bound: placement indices and how it was found.
#[derive(Clone, Debug)]
pub struct Met {
    /// Placement indices of the packing.
    pub placements: Vec<usize>,
    /// Why it is optimal.
    pub evidence: Evidence,
}

#[derive(Debug)]
struct Shared {
    /// The doll's stop flag: raised when a packing meets a bound, or by the caller's
    /// watcher on Ctrl-C and at the deadline.
    stop_doll: AtomicBool,
    /// Raised when the doll has ended: the thread stops at its next check.
    cancel: AtomicBool,
    lp: Mutex<LpOutcome>,
    met: Mutex<Option<Met>>,
}

/// The thread beside the doll ([`BoundRace::start`]) and what it found.
#[derive(Debug)]
pub struct BoundRace {
    shared: Arc<Shared>,
}

impl BoundRace {
    /// Starts the thread for a maximum packing with `bounds` (its LP, when
    /// [`LpOutcome::Unfinished`], solved on the thread), within `control`'s deadline.
    pub fn start(packing: &Packing, bounds: PackingBounds, control: &Control) -> BoundRace {
        let shared = Arc::new(Shared {
            stop_doll: AtomicBool::new(false),
            cancel: AtomicBool::new(false),
            lp: Mutex::new(bounds.lp),
            met: Mutex::new(None),
        });
        let thread_shared = shared.clone();
        let packing = packing.clone();
        let deadline = control.remaining().map(|r| Instant::now() + r);
        let started = std::thread::Builder::new()
            .name("puzzlec-bounds".into())
            .spawn(move || race(&packing, bounds, deadline, &thread_shared));
        // Without the thread the doll runs alone, as before.
        if started.is_err() {
            shared.cancel.store(true, Ordering::Relaxed);
        }
        BoundRace { shared }
    }

    /// The flag the doll polls.
    pub fn doll_stop(&self) -> &AtomicBool {
        &self.shared.stop_doll
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

fn race(packing: &Packing, bounds: PackingBounds, deadline: Option<Instant>, shared: &Shared) {
    let cancelled =
        || shared.cancel.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d);
    let waiting = Instant::now() + RACE_DELAY;
    let found = |placements: Vec<usize>, evidence: Evidence| {
        *shared.met.lock().expect("no panics") = Some(Met {
            placements,
            evidence,
        });
        shared.stop_doll.store(true, Ordering::Relaxed);
    };
    if let Some((tiling, nodes)) = tiling(packing, bounds.area, &cancelled) {
        let evidence = Evidence::BoundMet {
            by: BoundFinder::Native(PackingSearch::ExactCover),
            value: tiling.len(),
            nodes: Some(nodes),
            bound: bounds.area,
        };
        return found(tiling, evidence);
    }
    if cancelled() {
        return;
    }
    let mut known = bounds;
    if bounds.lp == LpOutcome::Unfinished {
        while Instant::now() < waiting {
            if cancelled() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let control = Control::new(
            Arc::new(AtomicBool::new(false)),
            deadline.map(|d| d.saturating_duration_since(Instant::now())),
        );
        known.lp = lp_bound(packing, &control);
        *shared.lp.lock().expect("no panics") = known.lp;
    }
    if cancelled() {
        return;
    }
    let best = known.best();
    let options = NeighbourhoodOptions {
        target: Some(best.value()),
        rounds: Some(WINDOW_ROUNDS),
        stop: Some(&shared.cancel),
        deadline,
        ..NeighbourhoodOptions::default()
    };
    if let Ok(improved) = neighbourhood::improve(&packing.instance, &[], &options) {
        if improved.best.len() == best.value() && !cancelled() {
            let evidence = Evidence::BoundMet {
                by: BoundFinder::GreedyWindows {
                    rounds: improved.rounds,
                },
                value: best.value(),
                nodes: None,
                bound: best,
            };
            found(improved.best, evidence);
        }
    }
}

/// A tiling of `packing`, when every packing that meets the area bound covers every free
/// cell (all pieces of one size, no maximum binding, every free cell coverable) and the
/// exact-cover search finds one within [`TILING_TRY`]; with its nodes.
fn tiling(
    packing: &Packing,
    area: PackingBound,
    cancelled: &(dyn Fn() -> bool + Sync),
) -> Option<(Vec<usize>, u64)> {
    let PackingBound::Area {
        value,
        cells,
        smallest,
        limited: false,
    } = area
    else {
        return None;
    };
    let instance = &packing.instance;
    let free = packing.blocked.iter().filter(|&&b| !b).count();
    let one_size = instance
        .placements
        .iter()
        .all(|p| p.cells.len() == smallest);
    if value == 0 || cells != free || cells % smallest != 0 || !one_size {
        return None;
    }
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
