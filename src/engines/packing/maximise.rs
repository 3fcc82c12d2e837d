//! Maximum packing: the Russian doll alone, or, with piece minimums, a branch and bound
//! over the same scan bounded by the doll's suffix table.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::board::{board_words, Board, MAX_BOARD_CELLS};
use super::search::{Progress, Scan, Searcher, Task};
use crate::engines::exact_cover::SearchEnd;
use crate::engines::russian_doll::{self, scan_order, DollOptions, Wide};
use crate::geometry::placements::{PackingError, PackingInstance, PieceLimit};

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
pub(super) struct SuffixTable {
    /// Per scan position (and a last 0): the most pieces whose first cell is there or later;
    /// `None` if stopped first.
    pub(super) suffix: Option<Vec<u32>>,
    pub(super) best: Vec<usize>,
    pub(super) nodes: u64,
}

/// The Russian-doll suffix table of `instance` (no minimums) by the bitboard search, from
/// the last scan cell back: entry `c` is entry `c + 1` or one more, one more exactly when a
/// packing of that many pieces starts every piece at `c` or later, which one search decides,
/// bounded by the entries already found, the area and the maximums.
pub(super) fn suffix_table<B: Board>(
    instance: &PackingInstance,
    options: &PackingOptions<'_>,
) -> SuffixTable {
    let scan = Scan::<B>::new(instance, &|_| true);
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
pub(super) fn area_suffix(instance: &PackingInstance) -> Vec<u32> {
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
pub(super) fn pack_with<B: Board>(
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
    let scan = Scan::<B>::new(instance, &|_| true);
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
