//! How a streamed run cuts the table into shards whose checks fit a memory bound: ranges of
//! about equal search nodes (as stored shards are cut), cut further where a range's proof,
//! estimated from the fast doll's nodes, passes the bound, and an entry whose proof alone
//! passes it split at its search states (its glue and runs of states, each a shard).

use std::collections::BTreeMap;
use std::ops::Range;

use super::super::shards::{proof_bytes_estimate, split};
use super::piece::{below, split_root, Piece};
use crate::engines::russian_doll::{DollProofOptions, StateClaim};
use crate::geometry::placements::PackingInstance;

/// A split entry's states cost more, proved in runs, than the entry unsplit: 17 x 17's
/// entry 0 in four runs 1.45 times the nodes (2026-11-28); runs are sized for half again.
const RUN_GROWTH: (u64, u64) = (3, 2);

/// The deepest split tried: a frontier of more states than the runs wanted is found within
/// a few pieces of the root on the boxes measured.
const DEEPEST: u32 = 4;

/// The shards of a run, in order, and the frontier of each split entry.
#[derive(Clone, Debug, Default)]
pub(in crate::cert::certificate) struct Plan {
    /// The shards: ranges of entries ascending, a split entry's glue before its runs.
    pub(in crate::cert::certificate) pieces: Vec<Piece>,
    /// Per split entry and depth, its frontier.
    pub(in crate::cert::certificate) frontiers: BTreeMap<(usize, u32), Vec<StateClaim>>,
    /// Entries estimated above the bound that could not be split (no search to split).
    pub(in crate::cert::certificate) over: Vec<usize>,
}

impl Plan {
    /// The states `piece` needs to be built: a glue's frontier, a run's own states; none
    /// for a range of entries.
    pub(in crate::cert::certificate) fn states(&self, piece: &Piece) -> &[StateClaim] {
        match piece {
            Piece::Entries(_) => &[],
            Piece::Glue { entry, depth, .. } => self
                .frontiers
                .get(&(*entry, *depth))
                .map_or(&[], Vec::as_slice),
            Piece::States {
                entry,
                depth,
                states,
                ..
            } => self
                .frontiers
                .get(&(*entry, *depth))
                .and_then(|f| f.get(states.clone()))
                .unwrap_or(&[]),
        }
    }
}

/// The plan of a table `entries` (`S[0..=P]`) whose entries took the fast doll `nodes`
/// each: at least `count` ranges of about equal nodes, and with `budget` none whose proof is
/// estimated above that many bytes where it can be helped (see the module doc).
pub(in crate::cert::certificate) fn plan(
    instance: &PackingInstance,
    options: &DollProofOptions,
    entries: &[usize],
    nodes: &[u64],
    count: usize,
    budget: Option<u64>,
) -> Plan {
    let mut plan = Plan::default();
    let estimate = |range: Range<usize>| proof_bytes_estimate(nodes[range].iter().sum());
    for range in split(nodes, count.max(1)) {
        let Some(budget) = budget.filter(|&b| b > 0 && estimate(range.clone()) > b) else {
            plan.pieces.push(Piece::Entries(range));
            continue;
        };
        for part in within(range, budget, &estimate) {
            let single = part.len() == 1 && estimate(part.clone()) > budget;
            if !single
                || !split_entry(
                    instance,
                    options,
                    entries,
                    part.start,
                    estimate(part.clone()),
                    budget,
                    &mut plan,
                )
            {
                if single {
                    plan.over.push(part.start);
                }
                plan.pieces.push(Piece::Entries(part));
            }
        }
    }
    plan
}

/// `range` cut, first to last, into the longest runs whose estimate stays within `budget`
/// (an entry above it alone on its own).
fn within(
    range: Range<usize>,
    budget: u64,
    estimate: &dyn Fn(Range<usize>) -> u64,
) -> Vec<Range<usize>> {
    let mut parts = Vec::new();
    let mut start = range.start;
    for c in range.clone() {
        if c > start && estimate(start..c + 1) > budget {
            parts.push(start..c);
            start = c;
        }
    }
    parts.push(start..range.end);
    parts
}

/// The frontier to split entry `c` at, and its depth: see [`shallowest_below`]; `None`
/// also when the entry rises (its proof is one line, with no search to split).
pub(in crate::cert::certificate) fn split_frontier(
    instance: &PackingInstance,
    options: &DollProofOptions,
    entries: &[usize],
    c: usize,
    wanted: usize,
) -> Option<(u32, Vec<StateClaim>)> {
    let root = split_root(c, entries)?;
    shallowest_below(instance, options, entries, &root, wanted)
}

/// The states below `state` to split it at, and their depth: the shallowest frontier with
/// at least `wanted` states, else the one with the most (up to [`DEEPEST`]); `None` when it
/// has no search to split, or no state to cite (the glue would be the whole search).
pub(in crate::cert::certificate) fn shallowest_below(
    instance: &PackingInstance,
    options: &DollProofOptions,
    entries: &[usize],
    state: &StateClaim,
    wanted: usize,
) -> Option<(u32, Vec<StateClaim>)> {
    let mut found: Option<(u32, Vec<StateClaim>)> = None;
    for depth in 1..=DEEPEST {
        let Some(states) = below(instance, options, entries, state, depth) else {
            break;
        };
        let enough = states.len() >= wanted;
        if found
            .as_ref()
            .is_none_or(|(_, best)| states.len() > best.len())
        {
            found = Some((depth, states));
        }
        if enough {
            break;
        }
    }
    found.filter(|(_, states)| !states.is_empty())
}

/// Splits entry `c` (its proof estimated at `bytes`) at the shallowest depth whose frontier
/// has as many states as the runs of `budget` want (or the depth with the most), into its
/// glue and those runs; `false` when it has no search to split.
fn split_entry(
    instance: &PackingInstance,
    options: &DollProofOptions,
    entries: &[usize],
    c: usize,
    bytes: u64,
    budget: u64,
    plan: &mut Plan,
) -> bool {
    let wanted = bytes.saturating_mul(RUN_GROWTH.0) / RUN_GROWTH.1;
    let runs = usize::try_from(wanted.div_ceil(budget)).unwrap_or(usize::MAX);
    let Some((depth, states)) = split_frontier(instance, options, entries, c, runs) else {
        return false;
    };
    let runs = runs.clamp(1, states.len().max(1));
    plan.pieces.push(Piece::Glue {
        entry: c,
        depth,
        within: Vec::new(),
    });
    let n = states.len();
    for g in 0..runs.min(n) {
        let run = g * n / runs..(g + 1) * n / runs;
        if !run.is_empty() {
            plan.pieces.push(Piece::States {
                entry: c,
                depth,
                states: run,
                within: Vec::new(),
            });
        }
    }
    plan.frontiers.insert((c, depth), states);
    true
}

#[cfg(test)]
mod tests {
    use super::super::crosses_9x9;
    use super::{plan, within, Piece};
    use crate::engines::russian_doll::DollProofOptions;

    #[test]
    fn an_entry_estimated_over_the_budget_is_split_into_its_glue_and_runs() {
        let (instance, entries) = crosses_9x9();
        let instance = &instance;
        // Entry 11 (which stays, and has a search) weighs 10,000 nodes, about 2 MB of proof.
        let mut nodes = vec![1; 81];
        nodes[11] = 10_000;
        let options = DollProofOptions::default();
        let planned = plan(instance, &options, &entries, &nodes, 2, Some(500_000));
        let glue = planned
            .pieces
            .iter()
            .position(|p| matches!(p, Piece::Glue { entry: 11, .. }))
            .expect("entry 11 split");
        let Piece::Glue { depth, .. } = planned.pieces[glue] else {
            unreachable!()
        };
        let frontier = &planned.frontiers[&(11, depth)];
        // Six runs are wanted (2 MB, half again, over 500 kB), as many as the states allow.
        let runs: Vec<_> = planned.pieces[glue + 1..]
            .iter()
            .take_while(|p| p.entries() == (11..12))
            .collect();
        assert_eq!(runs.len(), 6.min(frontier.len()), "{runs:?}");
        let mut at = 0;
        for run in &runs {
            let Piece::States { states, .. } = run else {
                panic!("a run of states: {run:?}")
            };
            assert_eq!(states.start, at);
            at = states.end;
        }
        assert_eq!(at, frontier.len());
        assert_eq!(planned.pieces[glue - 1].entries().end, 11);
        assert_eq!(planned.pieces[glue + 1 + runs.len()].entries().start, 12);
        assert!(planned.over.is_empty());
    }

    #[test]
    fn a_range_over_the_budget_is_cut_into_runs_within_it() {
        let nodes = [1u64, 2, 10, 1, 1, 1];
        let estimate = |r: std::ops::Range<usize>| nodes[r].iter().sum::<u64>();
        assert_eq!(within(0..6, 4, &estimate), vec![0..2, 2..3, 3..6]);
        assert_eq!(within(0..6, 100, &estimate), vec![0..6]);
        assert_eq!(within(2..3, 4, &estimate), vec![2..3]);
    }
}
