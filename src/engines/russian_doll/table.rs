//! The suffix table filled entry by entry (the driver loop), large entries split over threads.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;

use super::bounds::{dead_span, LOOKAHEAD_LEVELS};
use super::instance::{covering_lists, weight_cuts, Engine, PlacementPairs, Prepared};
use super::memo::Memo;
use super::mirror::mirror_halves;
use super::search::{Ctx, Flow, Searcher};
use super::window::Window;
use super::{DollOptions, DollOutcome, DollResume, DollShardEntry, DollStats, LateWeights};

/// What one entry's search concluded.
enum StepEnd {
    Found(Vec<u32>),
    Exhausted,
    Aborted,
    /// A sharded run's entry outgrew the budget: of its `subproblems` (the frontier every
    /// shard builds alike) this shard searched `searched`, and found this packing or none.
    Sharded {
        subproblems: usize,
        searched: usize,
        found: Option<Vec<u32>>,
    },
}

/// How an entry that outgrows its budget on the calling thread is split.
#[derive(Clone, Copy)]
enum Split<'p> {
    /// Not at all: the calling thread searches it to the end.
    None,
    /// Over the threads of this pool.
    Threads(&'p rayon::ThreadPool, usize),
    /// Into subproblems shared by `count` processes, of which this is `index` (0-based);
    /// this process searches its own ones on the pool's threads.
    Shard {
        pool: &'p rayon::ThreadPool,
        index: usize,
        count: usize,
    },
}

#[derive(Default)]
struct Totals {
    stats: DollStats,
}

impl Totals {
    fn add<W: Window>(&mut self, s: &Searcher<'_, '_, '_, W>) {
        self.stats.nodes += s.nodes;
        self.stats.memo_hits += s.memo_hits;
        self.stats.memo_relaxed_hits += s.memo_relaxed_hits;
        self.stats.memo_stores += s.memo_stores;
        self.stats.lookahead_cuts += s.lookahead_cuts;
        self.stats.area_cuts += s.area_cuts;
        self.stats.weight_cuts += s.weight_cuts;
    }
}

/// Decides entry `c`: is there a packing of `target` pieces drawn from `P_c`?
fn step<W: Window>(
    ctx: &Ctx<'_, '_, W>,
    c: usize,
    split: Split<'_>,
    split_nodes: u64,
    totals: &Mutex<Totals>,
) -> StepEnd {
    let e = ctx.engine;
    let budget = match split {
        Split::None => u64::MAX,
        _ => split_nodes,
    };
    let mut searcher = Searcher::new(ctx, budget);
    let mut roots = Vec::new();
    for i in e.prep.starts[c] as usize..e.prep.starts[c + 1] as usize {
        if searcher.push(i) {
            roots.push(searcher.state(c + 1, e.masks[i].shr(1), 1));
            searcher.pop(i);
        }
    }
    // Small entries are searched on this thread; a large one is split below.
    let mut flow = Flow::Exhausted;
    for root in &roots {
        searcher.load(root);
        flow = searcher.search(root.q, root.window, root.placed);
        if flow != Flow::Exhausted {
            break;
        }
    }
    let over_budget = searcher.nodes >= searcher.budget;
    totals.lock().expect("no panics").add(&searcher);
    match flow {
        Flow::Found => return StepEnd::Found(searcher.stack),
        Flow::Exhausted => return StepEnd::Exhausted,
        Flow::Aborted if !over_budget => return StepEnd::Aborted,
        Flow::Aborted => {}
    }
    // Split: expand level by level until there are plenty of subtrees to share out. Entries
    // learnt in the budgeted run stay in the memo, so its work is mostly not repeated. Shards
    // build the frontier alike: it depends on their count, never on a machine's threads.
    let (pool, wanted, shard) = match split {
        Split::None => return StepEnd::Aborted,
        Split::Threads(pool, threads) => (pool, 64 * threads, None),
        Split::Shard { pool, index, count } => (pool, 64 * count, Some((index, count))),
    };
    let mut splitter = Searcher::new(ctx, u64::MAX);
    let mut frontier = roots;
    for _ in 0..64 {
        if frontier.len() >= wanted || frontier.is_empty() {
            break;
        }
        let mut next = Vec::new();
        for state in &frontier {
            match splitter.expand(state) {
                Ok(children) => next.extend(children),
                // Every shard meets the same packing here, before any split.
                Err(packing) => return StepEnd::Found(packing),
            }
        }
        frontier = next;
    }
    let subproblems = frontier.len();
    if subproblems == 0 {
        // Every subtree was cut while expanding (by what the budgeted run put in the memo).
        return StepEnd::Exhausted;
    }
    if let Some((index, count)) = shard {
        frontier = frontier
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % count == index)
            .map(|(_, state)| state)
            .collect();
    }
    let found: Mutex<Option<Vec<u32>>> = Mutex::new(None);
    let aborted = AtomicBool::new(false);
    pool.install(|| {
        frontier.par_iter().for_each_init(
            || Searcher::new(ctx, u64::MAX),
            |searcher, state| {
                if ctx.found.load(Ordering::Relaxed) || aborted.load(Ordering::Relaxed) {
                    return;
                }
                searcher.load(state);
                let flow = searcher.search(state.q, state.window, state.placed);
                match flow {
                    Flow::Found => {
                        let mut slot = found.lock().expect("no panics");
                        if slot.is_none() {
                            *slot = Some(searcher.stack.clone());
                        }
                        ctx.found.store(true, Ordering::Relaxed);
                    }
                    Flow::Aborted => aborted.store(true, Ordering::Relaxed),
                    Flow::Exhausted => {}
                }
                // The searcher serves many states: each one's counts are added, then cleared.
                totals.lock().expect("no panics").add(searcher);
                searcher.clear_counts();
            },
        );
    });
    totals.lock().expect("no panics").stats.parallel_steps += 1;
    let found = found.into_inner().expect("no panics");
    // A packing found stands, even if the others were stopped by it (or by the caller).
    match (found, shard) {
        (Some(packing), None) => StepEnd::Found(packing),
        (None, _) if aborted.load(Ordering::Relaxed) => StepEnd::Aborted,
        (None, None) => StepEnd::Exhausted,
        (found, Some(_)) => StepEnd::Sharded {
            subproblems,
            searched: frontier.len(),
            found,
        },
    }
}

/// The key masks of the relaxed memo lookups ([`DollOptions::memo_relaxed`], when `on`):
/// the window's cells kept, from the scan cell up to `(e - 1)` scan rows ahead, then half
/// a row fewer.
pub(super) fn relaxed_offsets(prep: &Prepared, on: bool) -> Vec<(u64, u64)> {
    if !on || prep.extent < 3 {
        return Vec::new();
    }
    let kept = (prep.extent - 1) * prep.row;
    let mut offsets = vec![kept, kept - prep.row / 2];
    offsets.dedup();
    // Clearing from offset `k` on changes keys only inside the reach; keys hold 128.
    offsets
        .into_iter()
        .filter(|&k| k < prep.reach.min(128))
        .map(|k| match k {
            0..=63 => ((1 << k) - 1, 0),
            _ => (u64::MAX, (1u64 << (k - 64)) - 1),
        })
        .collect()
}

/// The memo's size (log2 of its entries) by the scan rows' width (see
/// [`DollOptions::memo_log2`](super::DollOptions::memo_log2)); the proof-writing doll's
/// memo, which never forgets, starts at this size and grows.
pub(super) fn memo_log2(prep: &Prepared) -> u32 {
    (18 + 2 * prep.row as i64 - 26).clamp(16, 22) as u32
}

/// Fills the table (from `resume` on, if given; see [`super::solve_shard`] for `shard`, a
/// 0-based index and a count), and the entry a sharded run split, if it did. `progress` is
/// a trait object: it is called once per entry, and a generic one would copy this function
/// for every caller's closure times every window width.
pub(super) fn run<W: Window>(
    prep: &Prepared,
    options: &DollOptions<'_>,
    resume: Option<&DollResume>,
    shard: Option<(usize, usize)>,
    progress: &mut dyn FnMut(usize, usize),
) -> (DollOutcome, Option<DollShardEntry>) {
    let mut memo = (options.memo && !prep.limited && prep.reach <= 129).then(|| {
        let log2 = match options.memo_log2 {
            0 => memo_log2(prep).min(Memo::most_log2(options.memo_bytes)),
            log2 => log2.clamp(4, 32),
        };
        Memo::new(log2)
    });
    // A memo sized by the width grows while it is crowded (see `DollOptions::memo_bytes`).
    let memo_most = match options.memo_log2 {
        0 => 1u64 << Memo::most_log2(options.memo_bytes),
        _ => 0,
    };
    let mut stores_at_size = 0;
    // Only memo keys gain from dead cells (see `DollOptions::dead_cells`).
    let dead_span = if options.dead_cells && memo.is_some() {
        dead_span(prep)
    } else {
        0
    };
    let (covering_starts, covering) = if dead_span > 1 {
        covering_lists(prep)
    } else {
        (Vec::new(), Vec::new())
    };
    let mut engine: Engine<'_, W> = Engine {
        skip_unfit: memo.is_some(),
        dead_span,
        covering_starts,
        covering,
        relaxed: relaxed_offsets(prep, options.memo_relaxed),
        area: if options.area {
            prep.smallest_placement()
        } else {
            0
        },
        weighted: weight_cuts(prep, options.row_weights),
        pairs: if prep.row >= options.lookahead_min_row && options.lookahead >= 2 {
            PlacementPairs::new(prep)
        } else {
            PlacementPairs::default()
        },
        ..Engine::plain(prep)
    };
    let threads = if options.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        options.threads
    };
    // A shard always splits (on one thread if it has one).
    let pool = (threads > 1 || shard.is_some())
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .ok()
        })
        .flatten();
    let capacity: u64 = if prep.limited {
        prep.limit.iter().map(|&l| u64::from(l)).sum()
    } else {
        u64::MAX
    };
    let n = prep.cells;
    let mut table = vec![0u32; n + 1];
    let mut drops = vec![[u32::MAX; LOOKAHEAD_LEVELS - 1]; n + 1];
    // Levels 2..=k use the drops D_2..D_k.
    let levels = if prep.row >= options.lookahead_min_row {
        options.lookahead.min(LOOKAHEAD_LEVELS).saturating_sub(1)
    } else {
        0
    };
    let mut known_from = n;
    let mut best: Vec<u32> = Vec::new();
    if let Some(resume) = resume {
        known_from = resume.known_from;
        for (k, &entry) in resume.table.iter().enumerate() {
            table[known_from + k] = entry as u32;
        }
        let internal: std::collections::HashMap<usize, u32> = (0..prep.index.len() as u32)
            .map(|i| (prep.index[i as usize], i))
            .collect();
        best = resume.best.iter().map(|i| internal[i]).collect();
        for c in (known_from..n).rev() {
            set_drops(&mut drops, &table, c, levels);
        }
    }
    // The packing of each entry found, last scan cell first (for a stopped run's halves).
    let mut found_at: Vec<(usize, Vec<u32>)> = Vec::new();
    let totals = Mutex::new(Totals::default());
    let mut bounded_entries = 0;
    let mut sharded = None;
    let mut entry_nodes = vec![0; n];
    let nodes_so_far = |totals: &Mutex<Totals>| totals.lock().expect("no panics").stats.nodes;
    for c in (0..known_from).rev() {
        if engine.weighted.is_empty() {
            if let Some(weights) = options.late_weights.and_then(LateWeights::take) {
                engine.weighted = weight_cuts(prep, &weights);
            }
        }
        let before = nodes_so_far(&totals);
        if let Some(grown) = memo.as_mut().filter(|m| m.capacity() < memo_most) {
            let stores = totals.lock().expect("no panics").stats.memo_stores;
            if stores - stores_at_size > grown.capacity() {
                *grown = grown.doubled();
                stores_at_size = stores;
            }
        }
        table[c] = table[c + 1];
        let target = table[c + 1] + 1;
        let row_bound = options.row_bounds.get(c / prep.row).copied().flatten();
        let bounded = row_bound.is_some_and(|b| target as usize > b);
        bounded_entries += u64::from(bounded && engine.has_start[c]);
        if engine.has_start[c] && u64::from(target) <= capacity && !bounded {
            let area_gap = area_gap(&engine, c, target);
            let ctx = Ctx {
                engine: &engine,
                table: &table,
                drops: &drops,
                levels: if area_gap <= AREA_TIGHT { 0 } else { levels },
                area: if area_gap <= AREA_GAP { engine.area } else { 0 },
                target,
                mode: prep.mode[c],
                memo: memo.as_ref(),
                found: AtomicBool::new(false),
                stop: options.stop,
                deadline: options.deadline,
            };
            let split = match (pool.as_ref(), shard) {
                (Some(pool), Some((index, count))) => Split::Shard { pool, index, count },
                (Some(pool), None) => Split::Threads(pool, threads),
                (None, _) => Split::None,
            };
            match step(&ctx, c, split, options.split_nodes, &totals) {
                StepEnd::Found(packing) => {
                    found_at.push((c, packing.clone()));
                    best = packing;
                    table[c] = target;
                }
                StepEnd::Exhausted => {}
                StepEnd::Aborted => break,
                StepEnd::Sharded {
                    subproblems,
                    searched,
                    found,
                } => {
                    sharded = Some(DollShardEntry {
                        entry: c,
                        target: target as usize,
                        subproblems,
                        searched,
                        found: found.map(|p| p.iter().map(|&i| prep.index[i as usize]).collect()),
                    });
                    break;
                }
            }
        }
        set_drops(&mut drops, &table, c, levels);
        entry_nodes[c] = nodes_so_far(&totals) - before;
        known_from = c;
        progress(c, table[c] as usize);
    }
    // Undecided entries each add at most one to the last decided one.
    let open = (0..known_from).filter(|&k| engine.has_start[k]).count();
    let mut bound = (table[known_from] as u64 + open as u64).min(capacity) as usize;
    if known_from > 0 && resume.is_none() && shard.is_none() {
        if let Some(halves) = mirror_halves(prep, &table, known_from, &found_at) {
            bound = bound.min(halves.bound);
            if halves.packing.len() > best.len() {
                best = halves.packing;
            }
        }
    }
    let outcome = DollOutcome {
        best: best.iter().map(|&i| prep.index[i as usize]).collect(),
        proved: known_from == 0,
        bound,
        order: prep.order.clone(),
        table: (0..=n)
            .map(|k| (k >= known_from).then_some(table[k] as usize))
            .collect(),
        found: found_at
            .into_iter()
            .map(|(k, packing)| (k, packing.iter().map(|&i| prep.index[i as usize]).collect()))
            .collect(),
        stats: DollStats {
            bounded_entries,
            ..totals.into_inner().expect("no panics").stats
        },
        entry_nodes,
    };
    (outcome, sharded)
}

/// How many pieces more than `target` the cells from `c` on hold by area alone, the
/// smallest piece's cells each (`usize::MAX` when the area cut is off): the area cut is
/// used for entries within [`AREA_GAP`], and within [`AREA_TIGHT`] it replaces the
/// lookahead (see [`DollOptions::area`]).
pub(super) fn area_gap<W: Window>(engine: &Engine<'_, W>, c: usize, target: u32) -> usize {
    match engine.area as usize {
        0 => usize::MAX,
        area => ((engine.prep.cells - c) / area).saturating_sub(target as usize),
    }
}

/// See [`area_gap`].
pub(super) const AREA_GAP: usize = 4;

/// See [`area_gap`].
const AREA_TIGHT: usize = 2;

/// Sets the lookahead's drops of entry `c` from the table's entries `c..` (see
/// [`DollOptions::lookahead`]).
fn set_drops(drops: &mut [[u32; LOOKAHEAD_LEVELS - 1]], table: &[u32], c: usize, levels: usize) {
    let n = table.len() - 1;
    for (level, drop) in drops[c].iter_mut().enumerate().take(levels) {
        let k = level as u32 + 2;
        if table[c] >= k {
            *drop = (c + 1..=n)
                .find(|&p| table[p] + k <= table[c])
                .map_or(u32::MAX, |p| p as u32);
        }
    }
}
