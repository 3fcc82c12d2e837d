//! Cutting a shard whose proof, as it is written, passes the bytes a shard may have: the
//! plan's estimate is the fast doll's nodes, which can fall several times short (17 x 17
//! crosses: 39.2 GB estimated, 156.6 GB written), so the cap is held to as the proof
//! streams and a shard past it is given up and cut, down to what cannot be cut (a glue).

use std::ops::Range;
use std::path::Path;

use super::piece::Piece;
use super::plan::{shallowest_below, split_frontier};
use crate::engines::russian_doll::{DollProofOptions, StateClaim};
use crate::formats::shard_record::WithinState;
use crate::geometry::placements::PackingInstance;

/// The states an entry (or a state) cut at run time is split into, at least, where its
/// search has them: its runs are cut again as they pass the cap, down to states alone,
/// which are split likewise.
const STATES: usize = 8;

/// The parts of `piece` (with `states`, what it needs: see [`super::piece::build`]), each
/// with the states it needs, after its proof passed the cap once its search had finished
/// `finished` of its goals (a range's entries from the last back, a run's states in order):
/// the goals finished (a part that fits, its proof the same search), the goal under way
/// (alone, or split at once where it was the first: alone it passes the cap too), and the
/// rest; an entry alone split at its states (its glue and runs of its states, see
/// [`runs_of`]); a state alone split at the states below it as an entry is; `None` when it
/// cannot be cut.
pub(in crate::cert::certificate) fn cut(
    instance: &PackingInstance,
    options: &DollProofOptions,
    entries: &[usize],
    (piece, states): (&Piece, &[StateClaim]),
    finished: usize,
) -> Option<Vec<(Piece, Vec<StateClaim>)>> {
    match piece {
        Piece::Entries(range) if range.len() >= 2 => {
            // Searched from the last entry back.
            let busy = range.end - 1 - finished.min(range.len() - 1);
            let mut parts = Vec::new();
            if busy + 1 < range.end {
                parts.push((Piece::Entries(busy + 1..range.end), Vec::new()));
            }
            let alone = Piece::Entries(busy..busy + 1);
            match (busy + 1 == range.end)
                .then(|| cut(instance, options, entries, (&alone, &[]), 0))
                .flatten()
            {
                Some(split) => parts.extend(split),
                None => parts.push((alone, Vec::new())),
            }
            if range.start < busy {
                parts.push((Piece::Entries(range.start..busy), Vec::new()));
            }
            Some(parts)
        }
        Piece::Entries(range) => {
            let c = range.start;
            let (depth, frontier) = split_frontier(instance, options, entries, c, STATES)?;
            Some(glue_and_runs(c, depth, Vec::new(), None, frontier))
        }
        Piece::States {
            entry,
            depth,
            states: run,
            within,
        } if run.len() >= 2 => {
            let part = |range: Range<usize>| {
                let piece = Piece::States {
                    entry: *entry,
                    depth: *depth,
                    states: run.start + range.start..run.start + range.end,
                    within: within.clone(),
                };
                (piece, states[range].to_vec())
            };
            let busy = finished.min(run.len() - 1);
            let mut parts = Vec::new();
            if busy > 0 {
                parts.push(part(0..busy));
            }
            let alone = part(busy..busy + 1);
            match (busy == 0)
                .then(|| cut(instance, options, entries, (&alone.0, &alone.1), 0))
                .flatten()
            {
                Some(split) => parts.extend(split),
                None => parts.push(alone),
            }
            if busy + 1 < run.len() {
                parts.push(part(busy + 1..run.len()));
            }
            Some(parts)
        }
        Piece::States {
            entry,
            depth,
            states: run,
            within,
        } => {
            let state = states.first()?;
            let (below, frontier) = shallowest_below(instance, options, entries, state, STATES)?;
            Some(glue_and_runs(
                *entry,
                below,
                inside(within, *depth, run.start),
                Some(state.clone()),
                frontier,
            ))
        }
        Piece::Glue { .. } => None,
    }
}

/// `within` and then the state `state` of the split `depth` pieces below it: where the
/// parts of that state split again lie.
fn inside(within: &[WithinState], depth: u32, state: usize) -> Vec<WithinState> {
    let mut inner = within.to_vec();
    inner.push(WithinState { depth, state });
    inner
}

/// A split into its glue (with `goal` first when within a state) and two runs of the
/// `frontier` `depth` pieces below.
fn glue_and_runs(
    entry: usize,
    depth: u32,
    within: Vec<WithinState>,
    goal: Option<StateClaim>,
    frontier: Vec<StateClaim>,
) -> Vec<(Piece, Vec<StateClaim>)> {
    let glue_states: Vec<StateClaim> = goal.into_iter().chain(frontier.iter().cloned()).collect();
    let mut parts = vec![(
        Piece::Glue {
            entry,
            depth,
            within: within.clone(),
        },
        glue_states,
    )];
    for run in runs_of(frontier.len()) {
        let states = frontier[run.clone()].to_vec();
        parts.push((
            Piece::States {
                entry,
                depth,
                states: run,
                within: within.clone(),
            },
            states,
        ));
    }
    parts
}

/// `0..n` cut for proving: the first alone, then the rest in two halves (those that are not
/// empty). A search's first state holds most of its work more often than not (17 x 17
/// crosses: the first of 65 states below entry 0's heaviest state, and the first below
/// that again), as a range's first entry does (the earliest scan position leaves the most
/// board to fill), so it goes alone at once rather than after halving down to it, each
/// halving a proof written up to the budget and given up.
fn runs_of(n: usize) -> Vec<Range<usize>> {
    let middle = n.div_ceil(2);
    [0..n.min(1), 1..middle.max(1), middle.max(1)..n]
        .into_iter()
        .filter(|r| !r.is_empty())
        .collect()
}

/// Whether `piece` can never be cut, whatever the search: a glue.
pub(in crate::cert::certificate) fn uncuttable(piece: &Piece) -> bool {
    matches!(piece, Piece::Glue { .. })
}

/// Whether `part` is a part of `whole`, other than itself: within its entries; for a run
/// of states, within its run at the same depth, or within one of its states split again.
fn part_of(part: &Piece, whole: &Piece) -> bool {
    if part == whole {
        return false;
    }
    match (part, whole) {
        (_, Piece::Entries(range)) => {
            let inner = part.entries();
            range.start <= inner.start && inner.end <= range.end
        }
        (
            _,
            Piece::States {
                entry,
                depth,
                states: run,
                within,
            },
        ) if part.entries().start == *entry && part.within().starts_with(within) => {
            match (part, &part.within()[within.len()..]) {
                (
                    Piece::States {
                        depth: d, states, ..
                    },
                    [],
                ) => d == depth && run.start <= states.start && states.end <= run.end,
                (_, [first, ..]) => first.depth == *depth && run.contains(&first.state),
                _ => false,
            }
        }
        _ => false,
    }
}

/// The parts still to prove of `whole` (with `states`), which an earlier run cut, as the
/// records in the folder `dir` show them: what they prove is left out, the entries and
/// states split again are parts of their own, and each stretch between them is a part to
/// try whole. `None` when no record lies within `whole`: it was never cut. The records,
/// not a rule, say where a cut fell, since where a run cuts depends on how far its search
/// came.
pub(in crate::cert::certificate) fn parts_left(
    dir: &Path,
    (instance, options, entries): (&PackingInstance, &DollProofOptions, &[usize]),
    whole: &Piece,
    states: &[StateClaim],
) -> Option<Vec<(Piece, Vec<StateClaim>)>> {
    let held = held_within(dir, whole, entries.len() - 1);
    if held.is_empty() {
        return None;
    }
    match whole {
        Piece::Entries(range) if range.len() >= 2 => Some(entries_left(range, &held)),
        Piece::Entries(range) => {
            let c = range.start;
            let (depth, frontier) = split_frontier(instance, options, entries, c, STATES)?;
            Some(split_left(c, (depth, Vec::new()), None, frontier, &held))
        }
        Piece::States {
            entry,
            depth,
            states: run,
            within,
        } if run.len() >= 2 => Some(states_left(
            (*entry, *depth, within),
            run.clone(),
            states,
            &held,
        )),
        Piece::States {
            entry,
            depth,
            states: run,
            within,
        } => {
            let state = states.first()?;
            let (below, frontier) = shallowest_below(instance, options, entries, state, STATES)?;
            let inner = inside(within, *depth, run.start);
            Some(split_left(
                *entry,
                (below, inner),
                Some(state.clone()),
                frontier,
                &held,
            ))
        }
        Piece::Glue { .. } => None,
    }
}

/// The pieces whose records the folder `dir` holds that lie within `whole`, of a table of
/// `positions` entries.
fn held_within(dir: &Path, whole: &Piece, positions: usize) -> Vec<Piece> {
    let Ok(files) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    files
        .filter_map(Result::ok)
        .filter_map(|file| {
            let name = file.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".json")
                .and_then(|stem| Piece::parse(stem, positions))
        })
        .filter(|part| part_of(part, whole))
        .collect()
}

/// The parts left of the entries `range`, given the pieces `held` within it: its entries
/// split at their states, each alone, and the stretches no record proves.
fn entries_left(range: &Range<usize>, held: &[Piece]) -> Vec<(Piece, Vec<StateClaim>)> {
    let proved = |c: usize| {
        held.iter()
            .any(|p| matches!(p, Piece::Entries(r) if r.contains(&c)))
    };
    let split = |c: usize| {
        held.iter()
            .any(|p| p.depth().is_some() && p.entries().start == c)
    };
    let mut parts = Vec::new();
    let mut stretch: Option<usize> = None;
    for c in range.clone() {
        let free = !proved(c) && !split(c);
        match (free, stretch) {
            (true, None) => stretch = Some(c),
            (false, Some(start)) => {
                parts.push((Piece::Entries(start..c), Vec::new()));
                stretch = None;
            }
            _ => {}
        }
        if split(c) {
            parts.push((Piece::Entries(c..c + 1), Vec::new()));
        }
    }
    if let Some(start) = stretch {
        parts.push((Piece::Entries(start..range.end), Vec::new()));
    }
    parts
}

/// The parts left of an entry or a state split `depth` pieces below it (`within`: where its
/// parts lie; `goal`: the state, which its glue lists first), given the pieces `held`
/// within it: its glue, and what [`states_left`] leaves of its `frontier`.
fn split_left(
    entry: usize,
    (depth, within): (u32, Vec<WithinState>),
    goal: Option<StateClaim>,
    frontier: Vec<StateClaim>,
    held: &[Piece],
) -> Vec<(Piece, Vec<StateClaim>)> {
    let glue_states = goal.into_iter().chain(frontier.iter().cloned()).collect();
    let glue = Piece::Glue {
        entry,
        depth,
        within: within.clone(),
    };
    let mut parts = vec![(glue, glue_states)];
    parts.extend(states_left(
        (entry, depth, &within),
        0..frontier.len(),
        &frontier,
        held,
    ));
    parts
}

/// The parts left of the states `run` of entry `entry`'s split `depth` pieces below what
/// `within` names (`states`: the run's own), given the pieces `held` within it: its states
/// split again, each alone, and the stretches no record proves.
fn states_left(
    (entry, depth, within): (usize, u32, &[WithinState]),
    run: Range<usize>,
    states: &[StateClaim],
    held: &[Piece],
) -> Vec<(Piece, Vec<StateClaim>)> {
    let proved = |k: usize| {
        held.iter().any(|p| {
            matches!(p, Piece::States { depth: d, states: r, within: w, .. }
                if *d == depth && w == within && r.contains(&k))
        })
    };
    let split = |k: usize| {
        held.iter().any(|p| {
            let w = p.within();
            w.len() > within.len()
                && w.starts_with(within)
                && w[within.len()] == WithinState { depth, state: k }
        })
    };
    let part = |ks: Range<usize>| {
        let piece = Piece::States {
            entry,
            depth,
            states: ks.clone(),
            within: within.to_vec(),
        };
        (
            piece,
            states[ks.start - run.start..ks.end - run.start].to_vec(),
        )
    };
    let mut parts = Vec::new();
    let mut stretch: Option<usize> = None;
    for k in run.clone() {
        let free = !proved(k) && !split(k);
        match (free, stretch) {
            (true, None) => stretch = Some(k),
            (false, Some(start)) => {
                parts.push(part(start..k));
                stretch = None;
            }
            _ => {}
        }
        if split(k) {
            parts.push(part(k..k + 1));
        }
    }
    if let Some(start) = stretch {
        parts.push(part(start..run.end));
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::{cut, entries_left, part_of, runs_of, states_left, Piece, WithinState};
    use crate::engines::russian_doll::{self, DollOptions, DollProofOptions, StateClaim};
    use crate::puzzle::{load::parse_model, Puzzle};

    /// Crosses in 9 x 9 and its table.
    fn crosses_9x9() -> (crate::geometry::placements::PackingInstance, Vec<usize>) {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/models/cross-13x19.toml"
        ))
        .unwrap()
        .replace("width = 13", "width = 9")
        .replace("height = 19", "height = 9");
        let Ok(Puzzle::Packing(packing)) = parse_model(std::path::Path::new("9x9.toml"), text)
        else {
            panic!("a packing model")
        };
        let doll =
            russian_doll::solve(&packing.instance, &DollOptions::default(), |_, _| {}).unwrap();
        let entries = doll.table.iter().map(|e| e.unwrap()).collect();
        (packing.instance, entries)
    }

    /// A state of entry 0 needing `need` pieces at `position`, to tell states apart.
    fn state(position: usize, need: u32) -> StateClaim {
        StateClaim {
            entry: 0,
            position,
            covered: Vec::new(),
            need,
        }
    }

    #[test]
    fn a_shard_given_up_is_cut_where_its_search_had_come() {
        let (instance, entries) = crosses_9x9();
        let options = DollProofOptions::default();
        let cut = |piece: &Piece, states: &[StateClaim], finished| {
            cut(&instance, &options, &entries, (piece, states), finished).unwrap()
        };
        // Entries are searched from the last back: 9 and 8 finished, 7 under way.
        let pieces: Vec<Piece> = cut(&Piece::Entries(4..10), &[], 2)
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        assert_eq!(
            pieces,
            vec![
                Piece::Entries(8..10),
                Piece::Entries(7..8),
                Piece::Entries(4..7)
            ]
        );
        // States in order: 10..13 finished, 13 under way, 14..18 not begun.
        let run = Piece::States {
            entry: 0,
            depth: 2,
            states: 10..18,
            within: Vec::new(),
        };
        let states: Vec<StateClaim> = (0..8).map(|k| state(k, 3)).collect();
        let parts = cut(&run, &states, 3);
        let ranges: Vec<_> = parts
            .iter()
            .map(|(p, s)| match p {
                Piece::States { states: r, .. } => (r.clone(), s.clone()),
                other => panic!("a run of states: {other:?}"),
            })
            .collect();
        assert_eq!(
            ranges,
            vec![
                (10..13, states[0..3].to_vec()),
                (13..14, states[3..4].to_vec()),
                (14..18, states[4..8].to_vec())
            ]
        );
        // The last state under way: nothing after it.
        assert_eq!(cut(&run, &states, 7).len(), 2);
        assert_eq!(cut(&run, &states, 8).len(), 2);
    }

    #[test]
    fn what_is_left_of_a_cut_piece_is_what_its_records_do_not_prove() {
        let glue = |entry, within| Piece::Glue {
            entry,
            depth: 2,
            within,
        };
        let run = |states, within| Piece::States {
            entry: 6,
            depth: 2,
            states,
            within,
        };
        // Entries 9..12 proved, entry 6 split: 4..6, 6 (split) and 7..9 are left.
        let held = [Piece::Entries(9..12), glue(6, vec![])];
        let left: Vec<Piece> = entries_left(&(4..12), &held)
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        assert_eq!(
            left,
            vec![
                Piece::Entries(4..6),
                Piece::Entries(6..7),
                Piece::Entries(7..9)
            ]
        );
        // Of entry 6's states 0..10: 0..3 proved, state 5 split one piece below, so 3..5,
        // 5 (alone) and 6..10 are left.
        let five = vec![WithinState { depth: 2, state: 5 }];
        let held = [
            run(0..3, vec![]),
            Piece::Glue {
                entry: 6,
                depth: 1,
                within: five.clone(),
            },
        ];
        let states: Vec<StateClaim> = (0..10).map(|k| state(k, 4)).collect();
        let left = states_left((6, 2, &[]), 0..10, &states, &held);
        let expected = [
            (3..5, &states[3..5]),
            (5..6, &states[5..6]),
            (6..10, &states[6..10]),
        ];
        assert_eq!(left.len(), expected.len(), "{left:?}");
        for ((piece, got), (range, want)) in left.iter().zip(expected) {
            assert_eq!(piece, &run(range, vec![]));
            assert_eq!(got.as_slice(), want);
        }
        // Nothing left where the records prove it all.
        assert!(states_left(
            (6, 2, &five),
            0..4,
            &states[..4],
            &[Piece::States {
                entry: 6,
                depth: 2,
                states: 0..4,
                within: five.clone(),
            }]
        )
        .is_empty());
    }

    #[test]
    fn a_run_is_cut_into_its_first_state_and_two_halves() {
        assert_eq!(runs_of(1), vec![0..1]);
        assert_eq!(runs_of(2), vec![0..1, 1..2]);
        assert_eq!(runs_of(3), vec![0..1, 1..2, 2..3]);
        assert_eq!(runs_of(4), vec![0..1, 1..2, 2..4]);
        assert_eq!(runs_of(65), vec![0..1, 1..33, 33..65]);
    }

    #[test]
    fn parts_lie_within_what_they_were_cut_from() {
        let whole = Piece::Entries(4..10);
        assert!(part_of(&Piece::Entries(4..7), &whole));
        let glue = |entry, depth, within| Piece::Glue {
            entry,
            depth,
            within,
        };
        assert!(part_of(&glue(9, 2, vec![]), &whole));
        assert!(!part_of(&Piece::Entries(4..10), &whole));
        assert!(!part_of(&Piece::Entries(2..5), &whole));
        let states = |depth, states, within| Piece::States {
            entry: 4,
            depth,
            states,
            within,
        };
        let run = states(2, 0..8, vec![]);
        let half = states(2, 4..8, vec![]);
        assert!(part_of(&half, &run));
        assert!(!part_of(&run, &half));
        assert!(!part_of(&glue(4, 2, vec![]), &run));
        // State 5 of the run, split again one piece below it.
        let five = vec![WithinState { depth: 2, state: 5 }];
        assert!(part_of(&glue(4, 1, five.clone()), &run));
        assert!(part_of(&states(1, 0..3, five.clone()), &run));
        assert!(part_of(
            &states(1, 0..3, five.clone()),
            &states(2, 5..6, vec![])
        ));
        assert!(!part_of(
            &states(1, 0..3, five.clone()),
            &states(2, 0..5, vec![])
        ));
        assert!(!part_of(&glue(4, 1, five), &states(3, 0..8, vec![])));
    }
}
