//! Cutting a shard whose proof, as it is written, passes the bytes a shard may have: the
//! plan's estimate is the fast doll's nodes, which can fall several times short (16 x 16
//! crosses: 2.68 GB estimated, about 8 GB written in ten shards), so the cap is held to as
//! the proof streams and a shard past it is given up and cut in two, down to what cannot be
//! cut (a glue, a single state).

use std::path::Path;

use super::piece::Piece;
use super::plan::split_frontier;
use crate::engines::russian_doll::{DollProofOptions, StateClaim};
use crate::geometry::placements::PackingInstance;

/// The states an entry cut at run time is split into, at least, where its search has them:
/// its runs are then halved as they pass the cap, and a state alone, which cannot be cut,
/// is a small share of the entry.
const STATES: usize = 8;

/// The parts of `piece` (with `states`, its frontier or its run's own states), each with the
/// states it needs: a range of entries in two halves, an entry alone split at its states
/// (its glue and two runs of its states), a run of states in two halves; `None` when it cannot be cut.
pub(in crate::cert::certificate) fn cut(
    instance: &PackingInstance,
    options: &DollProofOptions,
    entries: &[usize],
    piece: &Piece,
    states: &[StateClaim],
) -> Option<Vec<(Piece, Vec<StateClaim>)>> {
    match piece {
        Piece::Entries(range) if range.len() >= 2 => {
            let middle = range.start + range.len() / 2;
            Some(vec![
                (Piece::Entries(range.start..middle), Vec::new()),
                (Piece::Entries(middle..range.end), Vec::new()),
            ])
        }
        Piece::Entries(range) => {
            let c = range.start;
            let (depth, frontier) = split_frontier(instance, options, entries, c, STATES)?;
            let middle = frontier.len().div_ceil(2);
            let mut parts = vec![(Piece::Glue { entry: c, depth }, frontier.clone())];
            for run in [0..middle, middle..frontier.len()] {
                if !run.is_empty() {
                    let states = frontier[run.clone()].to_vec();
                    parts.push((
                        Piece::States {
                            entry: c,
                            depth,
                            states: run,
                        },
                        states,
                    ));
                }
            }
            Some(parts)
        }
        Piece::States {
            entry,
            depth,
            states: run,
        } if run.len() >= 2 => {
            let half = run.len() / 2;
            let part = |from: usize, to: usize| {
                (
                    Piece::States {
                        entry: *entry,
                        depth: *depth,
                        states: run.start + from..run.start + to,
                    },
                    states[from..to].to_vec(),
                )
            };
            Some(vec![part(0, half), part(half, run.len())])
        }
        Piece::Glue { .. } | Piece::States { .. } => None,
    }
}

/// Whether `piece` can never be cut, whatever the search: a glue, or a state alone.
pub(in crate::cert::certificate) fn uncuttable(piece: &Piece) -> bool {
    match piece {
        Piece::Glue { .. } => true,
        Piece::States { states, .. } => states.len() < 2,
        Piece::Entries(_) => false,
    }
}

/// Whether `part` is a part of `whole`, other than itself: within its entries, or, for a run
/// of states, within its run at the same depth.
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
            Piece::States {
                entry,
                depth,
                states,
            },
            Piece::States {
                entry: e,
                depth: d,
                states: run,
            },
        ) => entry == e && depth == d && run.start <= states.start && states.end <= run.end,
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
    use super::{part_of, Piece};

    #[test]
    fn parts_lie_within_what_they_were_cut_from() {
        let whole = Piece::Entries(4..10);
        assert!(part_of(&Piece::Entries(4..7), &whole));
        assert!(part_of(&Piece::Glue { entry: 9, depth: 2 }, &whole));
        assert!(!part_of(&Piece::Entries(4..10), &whole));
        assert!(!part_of(&Piece::Entries(2..5), &whole));
        let run = Piece::States {
            entry: 4,
            depth: 2,
            states: 0..8,
        };
        let half = Piece::States {
            entry: 4,
            depth: 2,
            states: 4..8,
        };
        assert!(part_of(&half, &run));
        assert!(!part_of(&run, &half));
        assert!(!part_of(&Piece::Glue { entry: 4, depth: 2 }, &run));
    }
}
