//! One shard of a streamed proof, by its name: a range of table entries, or a part of an
//! entry split at its search states (the glue, or a run of its states). From the model, the
//! table and (for a split entry) its frontier, a piece gives its OPB file and writes its
//! proof, so that any process can regenerate any shard from its name alone.

use std::io::Write;
use std::ops::Range;

use super::super::shards::{parse_stem, stem};
use crate::engines::russian_doll::{
    group_opb, shard_opb, state_frontier, state_opb, write_shard_proof_with, write_state_proof,
    DollProofError, DollProofOptions, StateClaim,
};
use crate::formats::opb::OpbFile;
use crate::formats::shard_record::{SplitRole, StateRecord};
use crate::geometry::placements::PackingInstance;

/// One shard of a streamed run (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(in crate::cert::certificate) enum Piece {
    /// The entries `range`, each proved by the search given the later ones:
    /// `shard-AAA-BBB`.
    Entries(Range<usize>),
    /// A split entry's root, citing the claims of the states `depth` pieces below it:
    /// `entry-CCC-dD-glue`.
    Glue {
        /// The entry.
        entry: usize,
        /// Pieces between the root and its states.
        depth: u32,
    },
    /// The states `states` (indices into the frontier) of a split entry, proved by one
    /// search: `entry-CCC-dD-states-JJJ-KKK`.
    States {
        /// The entry.
        entry: usize,
        /// Pieces between the root and its states.
        depth: u32,
        /// Indices into the entry's frontier.
        states: Range<usize>,
    },
}

impl Piece {
    /// The piece's name, which its record's file takes (`NAME.json`): table positions with
    /// as many digits as `positions` needs (at least three), frontier indices with at least
    /// three.
    pub(in crate::cert::certificate) fn name(&self, positions: usize) -> String {
        let digits = positions.to_string().len().max(3);
        match self {
            Piece::Entries(range) => stem(range, positions),
            Piece::Glue { entry, depth } => format!("entry-{entry:0digits$}-d{depth}-glue"),
            Piece::States {
                entry,
                depth,
                states,
            } => format!(
                "entry-{entry:0digits$}-d{depth}-states-{:03}-{:03}",
                states.start, states.end
            ),
        }
    }

    /// The piece a name gives, if it is one of [`Piece::name`]'s for a table of
    /// `positions` entries.
    pub(in crate::cert::certificate) fn parse(name: &str, positions: usize) -> Option<Piece> {
        let piece = if let Some(range) = parse_stem(name) {
            Piece::Entries(range)
        } else {
            let rest = name.strip_prefix("entry-")?;
            let (entry, rest) = rest.split_once("-d")?;
            let entry: usize = number(entry)?;
            match rest.split_once('-')? {
                (depth, "glue") => Piece::Glue {
                    entry,
                    depth: number(depth)?,
                },
                (depth, states) => {
                    let (a, b) = states.strip_prefix("states-")?.split_once('-')?;
                    let (a, b) = (number(a)?, number(b)?);
                    (a < b).then_some(())?;
                    Piece::States {
                        entry,
                        depth: number(depth)?,
                        states: a..b,
                    }
                }
            }
        };
        let within = piece.entries().end <= positions && piece.depth() != Some(0);
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
    if entries[entry] != entries[entry + 1] {
        return None;
    }
    let root = StateClaim::entry_root(entry, entries);
    state_frontier(instance, options, entries, &root, depth)
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

/// `piece` over the table (`order`, `entries`), with `states` a glue's frontier or a run's
/// own states (ignored for a range of entries).
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
        Piece::Glue { entry, .. } => {
            let root = StateClaim::entry_root(*entry, entries);
            states_built(state_opb(instance, entries, &root, states))
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
    /// `options`), asking `should_stop` as it goes.
    pub(in crate::cert::certificate) fn write_proof(
        &self,
        instance: &PackingInstance,
        options: &DollProofOptions,
        entries: &[usize],
        out: &mut dyn Write,
        should_stop: &dyn Fn() -> bool,
    ) -> Result<Written, DollProofError> {
        match &self.shard {
            Shard::Entries(shard) => {
                write_shard_proof_with(instance, options, shard, entries, out, should_stop).map(
                    |w| Written {
                        nodes: w.nodes,
                        derived: w.derived,
                    },
                )
            }
            Shard::States(shard) => {
                write_state_proof(instance, options, shard, entries, out, should_stop).map(|w| {
                    Written {
                        nodes: w.nodes,
                        derived: w.derived,
                    }
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Piece;

    #[test]
    fn a_piece_is_named_and_read_back() {
        let pieces = [
            Piece::Entries(3..17),
            Piece::Glue { entry: 5, depth: 2 },
            Piece::States {
                entry: 5,
                depth: 2,
                states: 0..12,
            },
        ];
        let names = [
            "shard-003-017",
            "entry-005-d2-glue",
            "entry-005-d2-states-000-012",
        ];
        for (piece, name) in pieces.iter().zip(names) {
            assert_eq!(piece.name(247), name);
            assert_eq!(Piece::parse(name, 247).as_ref(), Some(piece));
        }
        assert_eq!(
            Piece::States {
                entry: 5,
                depth: 3,
                states: 10..1200
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
        ] {
            assert_eq!(Piece::parse(bad, 247), None, "{bad}");
        }
    }
}
