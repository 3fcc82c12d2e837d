//! One shard of a streamed proof, by its name: a range of table entries, or a part of an
//! entry split at its search states (the glue, or a run of its states). From the model, the
//! table and (for a split entry) its frontier, a piece gives its OPB file and writes its
//! proof, so that any process can regenerate any shard from its name alone.

use std::io::Write;
use std::ops::Range;
use std::sync::atomic::AtomicUsize;

use super::super::shards::{parse_stem, stem};
use crate::engines::russian_doll::{
    group_opb, shard_opb, state_frontier, state_opb, write_shard_proof_counted,
    write_state_proof_counted, DollProofError, DollProofOptions, StateClaim, WatchedOut,
};
use crate::formats::opb::OpbFile;
use crate::formats::shard_record::{SplitRole, StateRecord, WithinState};
use crate::geometry::placements::PackingInstance;

/// One shard of a streamed run (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(in crate::cert::certificate) enum Piece {
    /// The entries `range`, each proved by the search given the later ones:
    /// `shard-AAA-BBB`.
    Entries(Range<usize>),
    /// A split entry's root (or, `within` a state, that state), citing the claims of the
    /// states `depth` pieces below it: `entry-CCC-dD-glue`, or within state J of a split
    /// at depth D, `entry-CCC-dD-state-JJJ-dE-glue`.
    Glue {
        /// The entry.
        entry: usize,
        /// Pieces between the root (or the state it lies within) and its states.
        depth: u32,
        /// The states, one per level, that the split lies within (none: the entry's root).
        within: Vec<WithinState>,
    },
    /// The states `states` (indices into the frontier) of a split entry, proved by one
    /// search: `entry-CCC-dD-states-JJJ-KKK`, or within a state as a glue is.
    States {
        /// The entry.
        entry: usize,
        /// Pieces between the root (or the state it lies within) and its states.
        depth: u32,
        /// Indices into the frontier.
        states: Range<usize>,
        /// The states, one per level, that the split lies within (none: the entry's root).
        within: Vec<WithinState>,
    },
}

impl Piece {
    /// The piece's name, which its record's file takes (`NAME.json`): table positions with
    /// as many digits as `positions` needs (at least three), frontier indices with at least
    /// three.
    pub(in crate::cert::certificate) fn name(&self, positions: usize) -> String {
        let digits = positions.to_string().len().max(3);
        let prefix = |entry: &usize, within: &[WithinState]| {
            let mut name = format!("entry-{entry:0digits$}");
            for w in within {
                name.push_str(&format!("-d{}-state-{:03}", w.depth, w.state));
            }
            name
        };
        match self {
            Piece::Entries(range) => stem(range, positions),
            Piece::Glue {
                entry,
                depth,
                within,
            } => format!("{}-d{depth}-glue", prefix(entry, within)),
            Piece::States {
                entry,
                depth,
                states,
                within,
            } => format!(
                "{}-d{depth}-states-{:03}-{:03}",
                prefix(entry, within),
                states.start,
                states.end
            ),
        }
    }

    /// The piece a name gives, if it is one of [`Piece::name`]'s for a table of
    /// `positions` entries.
    pub(in crate::cert::certificate) fn parse(name: &str, positions: usize) -> Option<Piece> {
        let piece = if let Some(range) = parse_stem(name) {
            Piece::Entries(range)
        } else {
            let words: Vec<&str> = name.strip_prefix("entry-")?.split('-').collect();
            let entry: usize = number(words.first()?)?;
            let mut within = Vec::new();
            let mut at = 1;
            loop {
                let depth: u32 = number(words.get(at)?.strip_prefix('d')?)?;
                match *words.get(at + 1)? {
                    "glue" if words.len() == at + 2 => {
                        break Piece::Glue {
                            entry,
                            depth,
                            within,
                        }
                    }
                    "states" if words.len() == at + 4 => {
                        let (a, b) = (number(words[at + 2])?, number(words[at + 3])?);
                        (a < b).then_some(())?;
                        break Piece::States {
                            entry,
                            depth,
                            states: a..b,
                            within,
                        };
                    }
                    "state" => {
                        let state = number(words.get(at + 2)?)?;
                        within.push(WithinState { depth, state });
                        at += 3;
                    }
                    _ => return None,
                }
            }
        };
        let depths_positive =
            piece.depth() != Some(0) && piece.within().iter().all(|w| w.depth > 0);
        let within = piece.entries().end <= positions && depths_positive;
        (within && piece.name(positions) == name).then_some(piece)
    }

    /// The table entries the piece concerns: its range, or its split entry alone.
    pub(in crate::cert::certificate) fn entries(&self) -> Range<usize> {
        match self {
            Piece::Entries(range) => range.clone(),
            Piece::Glue { entry, .. } | Piece::States { entry, .. } => *entry..entry + 1,
        }
    }

    /// The split's depth, for a part of a split entry.
    pub(in crate::cert::certificate) fn depth(&self) -> Option<u32> {
        match self {
            Piece::Entries(_) => None,
            Piece::Glue { depth, .. } | Piece::States { depth, .. } => Some(*depth),
        }
    }

    /// The states a part of a split entry lies within (none for the entry's own split).
    pub(in crate::cert::certificate) fn within(&self) -> &[WithinState] {
        match self {
            Piece::Entries(_) => &[],
            Piece::Glue { within, .. } | Piece::States { within, .. } => within,
        }
    }

    /// The split's role, for a part of a split entry.
    pub(in crate::cert::certificate) fn role(&self) -> Option<SplitRole> {
        match self {
            Piece::Entries(_) => None,
            Piece::Glue { .. } => Some(SplitRole::Glue),
            Piece::States { .. } => Some(SplitRole::States),
        }
    }
}

/// A whole number written in plain digits.
fn number<T: std::str::FromStr>(text: &str) -> Option<T> {
    if text.is_empty() || !text.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The states `depth` pieces below the root of `entry` over the table `entries`, in the
/// order its search reaches them: the frontier its glue cites. `None` when the entry has
/// no search to split (it rises, no placement starts there, or fewer pieces are needed
/// than `depth + 1`).
pub(in crate::cert::certificate) fn frontier(
    instance: &PackingInstance,
    options: &DollProofOptions,
    entries: &[usize],
    entry: usize,
    depth: u32,
) -> Option<Vec<StateClaim>> {
    let root = split_root(entry, entries)?;
    below(instance, options, entries, &root, depth)
}

/// The root of `entry`'s search over the table `entries`, to split it at: `None` when the
/// entry rises, whose proof is one line with no search.
pub(in crate::cert::certificate) fn split_root(
    entry: usize,
    entries: &[usize],
) -> Option<StateClaim> {
    (entries[entry] == entries[entry + 1]).then(|| StateClaim::entry_root(entry, entries))
}

/// The states `depth` pieces below `state` (of the table `entries`), in the order its
/// search reaches them; `None` when it needs too few pieces for a split that deep.
pub(in crate::cert::certificate) fn below(
    instance: &PackingInstance,
    options: &DollProofOptions,
    entries: &[usize],
    state: &StateClaim,
    depth: u32,
) -> Option<Vec<StateClaim>> {
    state_frontier(instance, options, entries, state, depth)
        .ok()
        .map(|(states, _)| states)
}

/// A state as a record lists it.
pub(in crate::cert::certificate) fn state_record(state: &StateClaim) -> StateRecord {
    StateRecord {
        position: state.position,
        covered: state.covered.clone(),
        need: state.need,
    }
}

/// The state a record lists, of the search of `entry`.
pub(in crate::cert::certificate) fn state_claim(entry: usize, state: &StateRecord) -> StateClaim {
    StateClaim {
        entry,
        position: state.position,
        covered: state.covered.clone(),
        need: state.need,
    }
}

/// A piece made concrete: its OPB file, the lower bound its proof concludes
/// (`BOUNDS lower INF`), and what writes that proof.
pub(in crate::cert::certificate) struct Built {
    /// The shard's OPB file.
    pub(in crate::cert::certificate) opb: OpbFile,
    /// What its proof concludes the objective is at least.
    pub(in crate::cert::certificate) lower: i64,
    shard: Shard,
}

enum Shard {
    Entries(crate::engines::russian_doll::ShardOpb),
    States(crate::engines::russian_doll::StateOpb),
}

/// What a written proof's search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(in crate::cert::certificate) struct Written {
    /// Search nodes.
    pub(in crate::cert::certificate) nodes: u64,
    /// Constraints derived.
    pub(in crate::cert::certificate) derived: u64,
}

/// `piece` over the table (`order`, `entries`), with `states` what it needs: a glue's
/// frontier (a glue within a state: that state, then its frontier), a run's own states;
/// nothing for a range of entries.
pub(in crate::cert::certificate) fn build(
    instance: &PackingInstance,
    (order, entries): (&[usize], &[usize]),
    piece: &Piece,
    states: &[StateClaim],
) -> Built {
    match piece {
        Piece::Entries(range) => {
            let shard = shard_opb(instance, order, entries, range.clone());
            Built {
                opb: shard.file.clone(),
                lower: 0,
                shard: Shard::Entries(shard),
            }
        }
        Piece::Glue { entry, within, .. } => {
            // A glue within a state proves that state, listed first; an entry's, its root.
            let (goal, frontier) = match states.split_first() {
                Some((state, below)) if !within.is_empty() => (state.clone(), below),
                _ => (StateClaim::entry_root(*entry, entries), states),
            };
            states_built(state_opb(instance, entries, &goal, frontier))
        }
        Piece::States { .. } => states_built(group_opb(instance, entries, states, &[])),
    }
}

fn states_built(shard: crate::engines::russian_doll::StateOpb) -> Built {
    Built {
        opb: shard.file.clone(),
        lower: shard.lower(),
        shard: Shard::States(shard),
    }
}

impl Built {
    /// Writes the piece's proof into `out` (the table `entries`, the search's rules of
    /// `options`), asking `should_stop` as it goes and counting into `finished` its goals
    /// searched to their end (its entries from the last back, or its states in order).
    pub(in crate::cert::certificate) fn write_proof(
        &self,
        instance: &PackingInstance,
        options: &DollProofOptions,
        entries: &[usize],
        out: &mut dyn Write,
        (should_stop, finished): (&dyn Fn() -> bool, &AtomicUsize),
    ) -> Result<Written, DollProofError> {
        let watched = WatchedOut {
            out,
            should_stop,
            finished,
        };
        let (nodes, derived) = match &self.shard {
            Shard::Entries(shard) => {
                let w = write_shard_proof_counted(instance, options, shard, entries, watched)?;
                (w.nodes, w.derived)
            }
            Shard::States(shard) => {
                let w = write_state_proof_counted(instance, options, shard, entries, watched)?;
                (w.nodes, w.derived)
            }
        };
        Ok(Written { nodes, derived })
    }
}

#[cfg(test)]
mod tests {
    use super::{Piece, WithinState};

    #[test]
    fn a_piece_is_named_and_read_back() {
        let pieces = [
            Piece::Entries(3..17),
            Piece::Glue {
                entry: 5,
                depth: 2,
                within: vec![],
            },
            Piece::States {
                entry: 5,
                depth: 2,
                states: 0..12,
                within: vec![],
            },
            Piece::Glue {
                entry: 5,
                depth: 1,
                within: vec![WithinState { depth: 2, state: 7 }],
            },
            Piece::States {
                entry: 5,
                depth: 3,
                states: 4..9,
                within: vec![
                    WithinState { depth: 2, state: 7 },
                    WithinState { depth: 1, state: 0 },
                ],
            },
        ];
        let names = [
            "shard-003-017",
            "entry-005-d2-glue",
            "entry-005-d2-states-000-012",
            "entry-005-d2-state-007-d1-glue",
            "entry-005-d2-state-007-d1-state-000-d3-states-004-009",
        ];
        for (piece, name) in pieces.iter().zip(names) {
            assert_eq!(piece.name(247), name);
            assert_eq!(Piece::parse(name, 247).as_ref(), Some(piece));
        }
        assert_eq!(
            Piece::States {
                entry: 5,
                depth: 3,
                states: 10..1200,
                within: vec![],
            }
            .name(1000),
            "entry-0005-d3-states-010-1200"
        );
        for bad in [
            "entry-5-d2-glue",
            "entry-005-d0-glue",
            "entry-005-d2-states-012-012",
            "entry-300-d2-glue",
            "entry-005-d2-gluey",
            "shard-003-300",
            "entry-005-d2-state-007-glue",
            "entry-005-d2-state-07-d1-glue",
            "entry-005-d2-state-007-d0-glue",
            "entry-005-d2-state-007-d1-states-003",
            "entry-005-d2-state-007-d1-glue-d1-glue",
        ] {
            assert_eq!(Piece::parse(bad, 247), None, "{bad}");
        }
    }
}
