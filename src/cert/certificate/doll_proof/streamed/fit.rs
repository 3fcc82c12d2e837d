//! Cutting a shard whose proof, as it is written, passes the bytes a shard may have: the
//! plan's estimate is the fast doll's nodes, which can fall several times short (17 x 17
//! crosses: 39.2 GB estimated, 156.6 GB written), so the cap is held to as the proof
//! streams and a shard past it is given up and cut, down to what cannot be cut (a glue).

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
/// with the states it needs: a range of entries into its first and two halves of the
/// rest ([`runs_of`]); an entry alone split at its states (its glue and runs of its
/// states); a run of states likewise; a state alone split at the states below it as an
/// entry is (a glue within the state, citing them, and runs of them); `None` when it
/// cannot be cut.
pub(in crate::cert::certificate) fn cut(
    instance: &PackingInstance,
    options: &DollProofOptions,
    entries: &[usize],
    piece: &Piece,
    states: &[StateClaim],
) -> Option<Vec<(Piece, Vec<StateClaim>)>> {
    match piece {
        Piece::Entries(range) if range.len() >= 2 => Some(
            runs_of(range.len())
                .into_iter()
                .map(|part| {
                    let part = range.start + part.start..range.start + part.end;
                    (Piece::Entries(part), Vec::new())
                })
                .collect(),
        ),
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
        } if run.len() >= 2 => Some(
            runs_of(run.len())
                .into_iter()
                .map(|part| {
                    (
                        Piece::States {
                            entry: *entry,
                            depth: *depth,
                            states: run.start + part.start..run.start + part.end,
                            within: within.clone(),
                        },
                        states[part].to_vec(),
                    )
                })
                .collect(),
        ),
        Piece::States {
            entry,
            depth,
            states: run,
            within,
        } => {
            let state = states.first()?;
            let (below, frontier) = shallowest_below(instance, options, entries, state, STATES)?;
            let mut inner = within.clone();
            inner.push(WithinState {
                depth: *depth,
                state: run.start,
            });
            Some(glue_and_runs(
                *entry,
                below,
                inner,
                Some(state.clone()),
                frontier,
            ))
        }
        Piece::Glue { .. } => None,
    }
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
fn runs_of(n: usize) -> Vec<std::ops::Range<usize>> {
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

/// Whether an earlier run cut `whole` (with `states`) as [`cut`] cuts it: the folder `dir`
/// holds the record of one of its parts, or of one of theirs. Its parts are then proved
/// rather than it again. Records of other parts of its entries (from another cut) do not
/// count.
pub(in crate::cert::certificate) fn was_cut(
    dir: &Path,
    (instance, options, entries): (&PackingInstance, &DollProofOptions, &[usize]),
    whole: &Piece,
    states: &[StateClaim],
) -> bool {
    let positions = entries.len() - 1;
    // Most pieces were never cut: no record lies within them at all.
    if !holds_parts(dir, whole, positions) {
        return false;
    }
    cut(instance, options, entries, whole, states).is_some_and(|parts| {
        parts.iter().any(|(part, part_states)| {
            dir.join(format!("{}.json", part.name(positions))).is_file()
                || was_cut(dir, (instance, options, entries), part, part_states)
        })
    })
}

/// Whether the folder `dir` holds the record of a part of `whole`, of a table of
/// `positions` entries.
fn holds_parts(dir: &Path, whole: &Piece, positions: usize) -> bool {
    let Ok(files) = std::fs::read_dir(dir) else {
        return false;
    };
    files.filter_map(Result::ok).any(|file| {
        let name = file.file_name().to_string_lossy().into_owned();
        name.strip_suffix(".json")
            .and_then(|stem| Piece::parse(stem, positions))
            .is_some_and(|part| part_of(&part, whole))
    })
}

#[cfg(test)]
mod tests {
    use super::{part_of, runs_of, Piece, WithinState};

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
