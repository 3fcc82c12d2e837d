//! Cutting a shard whose proof, as it is written, passes the bytes a shard may have: the
//! plan's estimate is the fast doll's nodes, which can fall several times short (17 x 17
//! crosses: 39.2 GB estimated, 156.6 GB written), so the cap is held to as the proof
//! streams and a shard past it is given up and cut, down to what cannot be cut (a glue).

use std::ops::Range;
use std::path::Path;

use super::piece::Piece;
use super::plan::{shallowest_below, split_frontier};
use super::records::record_pieces;
use crate::engines::russian_doll::{DollProofOptions, StateClaim};
use crate::formats::shard_record::WithinState;
use crate::geometry::placements::PackingInstance;

/// The states an entry (or a state) cut at run time is split into, at least, where its
/// search has them: its runs are cut again as they pass the cap, down to states alone,
/// which are split likewise.
const STATES: usize = 8;

/// Where a shard's search had come when its proof passed the cap.
#[derive(Clone, Copy, Debug)]
pub(in crate::cert::certificate) struct Reached {
    /// Its goals searched to their end: a range's entries from the last back, a run's
    /// states in order.
    pub(in crate::cert::certificate) finished: usize,
    /// Whether the goal under way had written over half the cap on its own: alone it would
    /// most likely pass the cap as well.
    pub(in crate::cert::certificate) heavy: bool,
}

/// The parts of `piece` (with `states`, what it needs: see [`super::piece::build`]), each
/// with the states it needs, after its proof passed the cap where its search had
/// `reached`: the goals finished (a part whose search was done within the cap), the goal
/// under way (alone, or split at once where it was the first or heavy: alone it would
/// pass the cap as well), and the rest; an entry or a state alone split at the states
/// below it (see [`split_alone`]); `None` when it cannot be cut.
pub(in crate::cert::certificate) fn cut(
    search: Search<'_>,
    (piece, states): (&Piece, &[StateClaim]),
    reached: Reached,
) -> Option<Vec<(Piece, Vec<StateClaim>)>> {
    match piece {
        Piece::Entries(range) if range.len() >= 2 => {
            // The search's goal `i` is the entry `end - 1 - i`.
            let end = range.end;
            let part = |goals: Range<usize>| {
                (
                    Piece::Entries(end - goals.end..end - goals.start),
                    Vec::new(),
                )
            };
            Some(cut_run(search, range.len(), reached, &part))
        }
        Piece::States {
            entry,
            depth,
            states: run,
            within,
        } if run.len() >= 2 => {
            let part = |goals: Range<usize>| {
                let piece = Piece::States {
                    entry: *entry,
                    depth: *depth,
                    states: run.start + goals.start..run.start + goals.end,
                    within: within.clone(),
                };
                (piece, states[goals].to_vec())
            };
            Some(cut_run(search, run.len(), reached, &part))
        }
        _ => split_alone(search, piece, states).map(|split| split.glue_and_runs()),
    }
}

/// The model, the search's rules and the table: what a piece is built and split from.
pub(in crate::cert::certificate) type Search<'a> =
    (&'a PackingInstance, &'a DollProofOptions<'a>, &'a [usize]);

/// A run of `n` goals given up where its search had `reached`, cut into the goals
/// finished, the goal under way (split at once if it was the first or heavy) and the rest;
/// `part` makes the part of the goals it is given, in the order they are searched.
fn cut_run(
    search: Search<'_>,
    n: usize,
    reached: Reached,
    part: &dyn Fn(Range<usize>) -> (Piece, Vec<StateClaim>),
) -> Vec<(Piece, Vec<StateClaim>)> {
    let busy = reached.finished.min(n - 1);
    let mut parts = Vec::new();
    if busy > 0 {
        parts.push(part(0..busy));
    }
    let (alone, states) = part(busy..busy + 1);
    match (busy == 0 || reached.heavy)
        .then(|| split_alone(search, &alone, &states))
        .flatten()
    {
        Some(split) => parts.extend(split.glue_and_runs()),
        None => parts.push((alone, states)),
    }
    if busy + 1 < n {
        parts.push(part(busy + 1..n));
    }
    parts
}

/// An entry or a state alone, split at the states below it.
struct Split {
    /// The entry.
    entry: usize,
    /// Pieces between the entry's root (or the state) and its frontier.
    depth: u32,
    /// Where its parts lie: none for an entry's root, else the states down to this one.
    within: Vec<WithinState>,
    /// The state split (none for an entry's root), which its glue lists first.
    goal: Option<StateClaim>,
    /// The states `depth` pieces below it.
    frontier: Vec<StateClaim>,
}

impl Split {
    /// Its glue, with the states it needs.
    fn glue(&self) -> (Piece, Vec<StateClaim>) {
        let piece = Piece::Glue {
            entry: self.entry,
            depth: self.depth,
            within: self.within.clone(),
        };
        let states = self.goal.iter().chain(&self.frontier).cloned().collect();
        (piece, states)
    }

    /// The run `run` of its frontier, with its states.
    fn run(&self, run: Range<usize>) -> (Piece, Vec<StateClaim>) {
        let states = self.frontier[run.clone()].to_vec();
        let piece = Piece::States {
            entry: self.entry,
            depth: self.depth,
            states: run,
            within: self.within.clone(),
        };
        (piece, states)
    }

    /// Its glue and its frontier in runs ([`runs_of`]).
    fn glue_and_runs(self) -> Vec<(Piece, Vec<StateClaim>)> {
        let mut parts = vec![self.glue()];
        parts.extend(
            runs_of(self.frontier.len())
                .into_iter()
                .map(|r| self.run(r)),
        );
        parts
    }
}

/// How `piece` (with `states`) splits, when it is an entry alone (at its states, the
/// shallowest depth with [`STATES`] or more) or a state alone (at the states below it,
/// likewise); `None` for anything else, or what has no search to split.
fn split_alone(
    (instance, options, entries): Search<'_>,
    piece: &Piece,
    states: &[StateClaim],
) -> Option<Split> {
    match piece {
        Piece::Entries(range) if range.len() == 1 => {
            let entry = range.start;
            let (depth, frontier) = split_frontier(instance, options, entries, entry, STATES)?;
            Some(Split {
                entry,
                depth,
                within: Vec::new(),
                goal: None,
                frontier,
            })
        }
        Piece::States {
            entry,
            depth,
            states: run,
            within,
        } if run.len() == 1 => {
            let state = states.first()?;
            let (below, frontier) = shallowest_below(instance, options, entries, state, STATES)?;
            let mut inner = within.clone();
            inner.push(WithinState {
                depth: *depth,
                state: run.start,
            });
            Some(Split {
                entry: *entry,
                depth: below,
                within: inner,
                goal: Some(state.clone()),
                frontier,
            })
        }
        _ => None,
    }
}

/// `0..n` cut for proving: the first alone, then the rest in two halves (those that are not
/// empty). A search's first state holds most of its work more often than not (17 x 17
/// crosses: the first of 65 states below entry 0's heaviest state, and the first below
/// that again), so it goes alone at once.
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
    search: Search<'_>,
    whole: &Piece,
    states: &[StateClaim],
) -> Option<Vec<(Piece, Vec<StateClaim>)>> {
    let held = parts_within(&record_pieces(dir, search.2.len() - 1), whole);
    if held.is_empty() {
        return None;
    }
    match whole {
        Piece::Entries(range) if range.len() >= 2 => {
            let proved = |c: usize| {
                held.iter()
                    .any(|p| matches!(p, Piece::Entries(r) if r.contains(&c)))
            };
            let split = |c: usize| {
                held.iter()
                    .any(|p| p.depth().is_some() && p.entries().start == c)
            };
            let left = stretches(range.clone(), &proved, &split);
            Some(
                left.into_iter()
                    .map(|r| (Piece::Entries(r), Vec::new()))
                    .collect(),
            )
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
        _ => {
            let split = split_alone(search, whole, states)?;
            let mut parts = vec![split.glue()];
            parts.extend(states_left(
                (split.entry, split.depth, &split.within),
                0..split.frontier.len(),
                &split.frontier,
                &held,
            ));
            Some(parts)
        }
    }
}

/// The pieces of `held` that are parts of `whole`.
pub(super) fn parts_within(held: &[Piece], whole: &Piece) -> Vec<Piece> {
    (held.iter())
        .filter(|part| part_of(part, whole))
        .cloned()
        .collect()
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
    stretches(run.clone(), &proved, &split)
        .into_iter()
        .map(|ks| {
            let own = states[ks.start - run.start..ks.end - run.start].to_vec();
            let piece = Piece::States {
                entry,
                depth,
                states: ks,
                within: within.to_vec(),
            };
            (piece, own)
        })
        .collect()
}

/// What is left of `goals`, in order: each goal `split` alone, and each stretch of goals
/// neither `proved` nor split.
fn stretches(
    goals: Range<usize>,
    proved: &dyn Fn(usize) -> bool,
    split: &dyn Fn(usize) -> bool,
) -> Vec<Range<usize>> {
    let mut left = Vec::new();
    let mut stretch: Option<usize> = None;
    for g in goals.clone() {
        let is_split = split(g);
        if proved(g) || is_split {
            if let Some(start) = stretch.take() {
                left.push(start..g);
            }
            if is_split {
                left.push(g..g + 1);
            }
        } else if stretch.is_none() {
            stretch = Some(g);
        }
    }
    if let Some(start) = stretch {
        left.push(start..goals.end);
    }
    left
}

#[cfg(test)]
mod tests {
    use super::super::crosses_9x9;
    use super::{cut, part_of, runs_of, states_left, stretches, Piece, Reached, WithinState};
    use crate::engines::russian_doll::{DollProofOptions, StateClaim};

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
            let reached = Reached {
                finished,
                heavy: false,
            };
            cut((&instance, &options, &entries), (piece, states), reached).unwrap()
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
    fn a_goal_under_way_that_wrote_over_half_the_cap_is_split_at_once() {
        let (instance, entries) = crosses_9x9();
        let options = DollProofOptions::default();
        let reached = Reached {
            finished: 2,
            heavy: true,
        };
        // Entries 2 and 1 finished, entry 0 under way and heavy: split at its states.
        let parts = cut(
            (&instance, &options, &entries),
            (&Piece::Entries(0..3), &[]),
            reached,
        )
        .unwrap();
        let pieces: Vec<&Piece> = parts.iter().map(|(p, _)| p).collect();
        assert_eq!(pieces[0], &Piece::Entries(1..3));
        assert!(
            matches!(pieces[1], Piece::Glue { entry: 0, .. }),
            "{pieces:?}"
        );
        assert!(
            pieces.len() >= 4,
            "a glue and at least two runs: {pieces:?}"
        );
        assert!(pieces[2..]
            .iter()
            .all(|p| matches!(p, Piece::States { entry: 0, .. })));
        let light = Reached {
            heavy: false,
            ..reached
        };
        let alone = cut(
            (&instance, &options, &entries),
            (&Piece::Entries(0..3), &[]),
            light,
        )
        .unwrap();
        let pieces: Vec<Piece> = alone.into_iter().map(|(p, _)| p).collect();
        assert_eq!(pieces, vec![Piece::Entries(1..3), Piece::Entries(0..1)]);
    }

    #[test]
    fn what_is_left_of_a_cut_piece_is_what_its_records_do_not_prove() {
        let run = |states, within| Piece::States {
            entry: 6,
            depth: 2,
            states,
            within,
        };
        // Goals 9..12 proved, 6 split: 4..6, 6 (alone) and 7..9 are left.
        let proved = |g: usize| (9..12).contains(&g);
        let split = |g: usize| g == 6;
        assert_eq!(stretches(4..12, &proved, &split), vec![4..6, 6..7, 7..9]);
        assert_eq!(stretches(0..3, &|_| true, &|_| false), vec![]);
        assert_eq!(stretches(0..3, &|_| false, &|_| false), vec![0..3]);
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
