//! Whether a shard that an earlier run cut is complete: the records its parts left in the
//! folder prove each of its goals, so that a job list written again does not name it. A
//! glue's record says how many states its split has, so a split entry or state is judged
//! without a search. Only the list of jobs rests on this; the join holds every record to
//! the model and the table as always.

use std::path::Path;

use super::fit::parts_within;
use super::piece::Piece;
use super::records::cited_states;
use crate::formats::shard_record::{read_shard_record, WithinState};

/// Whether the records in `dir` (`recorded`: the shards they name) prove every goal of
/// `whole` (an entry of a range, a state of a run) by the parts an earlier run cut it into;
/// `false` for a piece never cut.
pub(super) fn proved_by_parts(
    dir: &Path,
    recorded: &[Piece],
    whole: &Piece,
    positions: usize,
) -> bool {
    let held = parts_within(recorded, whole);
    if held.is_empty() {
        return false;
    }
    let parts = Parts {
        dir,
        held: &held,
        positions,
    };
    match whole {
        Piece::Entries(range) => range.clone().all(|c| parts.entry(c)),
        Piece::States {
            entry,
            depth,
            states,
            within,
        } => states
            .clone()
            .all(|k| parts.state(*entry, (*depth, within), k)),
        Piece::Glue { .. } => false,
    }
}

/// The records within a cut shard.
struct Parts<'a> {
    dir: &'a Path,
    held: &'a [Piece],
    positions: usize,
}

impl Parts<'_> {
    /// Whether `entry` is proved: by a range, or split and its split complete.
    fn entry(&self, entry: usize) -> bool {
        let in_range = |p: &Piece| matches!(p, Piece::Entries(r) if r.contains(&entry));
        self.held.iter().any(in_range) || self.split(entry, &[])
    }

    /// Whether the state `state` of `entry`'s split `depth` pieces below `within` is
    /// proved: by a run, or split again and that split complete.
    fn state(&self, entry: usize, (depth, within): (u32, &[WithinState]), state: usize) -> bool {
        let in_run = |p: &Piece| {
            matches!(p, Piece::States { entry: e, depth: d, states, within: w }
                if *e == entry && *d == depth && w == within && states.contains(&state))
        };
        let mut inner = within.to_vec();
        inner.push(WithinState { depth, state });
        self.held.iter().any(in_run) || self.split(entry, &inner)
    }

    /// Whether `entry` (or the state `within` names) is split with a glue on record and
    /// every state its glue cites proved.
    fn split(&self, entry: usize, within: &[WithinState]) -> bool {
        self.held.iter().any(|p| match p {
            Piece::Glue {
                entry: e,
                depth,
                within: w,
            } if *e == entry && w == within => self
                .frontier(p)
                .is_some_and(|n| (0..n).all(|k| self.state(entry, (*depth, within), k))),
            _ => false,
        })
    }

    /// How many states `glue`'s record cites (a glue within a state lists that state
    /// first); `None` where the record cannot be read.
    fn frontier(&self, glue: &Piece) -> Option<usize> {
        let path = self.dir.join(format!("{}.json", glue.name(self.positions)));
        let record = read_shard_record(&std::fs::read_to_string(path).ok()?).ok()?;
        Some(cited_states(glue, &record.split?.states)?.len())
    }
}
