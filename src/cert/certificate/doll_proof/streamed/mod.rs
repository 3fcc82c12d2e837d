//! Streamed certificates: the search-written proof in shards, each shard's proof written
//! into its checkers as it is made and never stored, and a record kept per shard from which
//! anyone can regenerate it (`prove --stream`, the default when the proof, estimated before
//! it is written, passes [`STREAM_ABOVE`]).
//!
//! # The argument
//!
//! The shards are those of a stored certificate (see `super::shards`): ranges of table
//! entries, each an OPB file with the later entries as premises and a proof that every
//! entry of its range holds; and, for an entry too large for one check, its search split
//! at the states `d` pieces below its root: a glue shard proves the entry from the states'
//! claims as premises, and runs of states are proved each from the later entries alone
//! (`engines::russian_doll::state_opb`, `group_opb`). By induction from the last entry
//! back, every entry holds, as for stored shards.
//!
//! What is kept is not the proofs but, per shard, a record ([`ShardRecord`]): its name
//! (which says its entries, and a split entry's depth and part), the SHA-256 of the model
//! and of the table it is of, the SHA-256 of its OPB file (which `check` rebuilds from the
//! model and the table: the premises are exactly the later entries, or the states its glue
//! cites), the SHA-256, bytes and lines of its proof as it was written, and each checker's
//! verdict. `check` holds the records together (they tile the table; the runs of a split
//! entry tile its glue's states), and trusts the recorded verdicts; `check --replay`
//! regenerates shards (the search is deterministic) and has both checkers judge them again,
//! comparing the proof's SHA-256 with the record's.
//!
//! # Files
//!
//! `model.toml`, `table.txt`, `witness.txt`, one `NAME.json` per shard (role
//! `streamed-NAME`) and `manifest.json`; while a run is under way, `plan.txt` lists the
//! shards to prove (see [`prove`]).
//!
//! [`ShardRecord`]: crate::formats::shard_record::ShardRecord

mod check;
mod complete;
mod fit;
mod piece;
mod plan;
mod prove;
mod reach;
mod records;
mod stream;
mod under_way;

pub(in crate::cert::certificate) use check::check;
pub(in crate::cert::certificate) use prove::{
    holds_plan, join, plan_jobs, prove, prove_job, Settings,
};
pub(in crate::cert::certificate) use under_way::check as check_under_way;

use crate::cert::certificate::Manifest;

/// The plan of a run under way, removed by the join.
pub(in crate::cert::certificate) const PLAN_FILE: &str = "plan.txt";

/// The start of a record's manifest role; its presence marks a streamed certificate.
const ROLE_PREFIX: &str = "streamed-";

/// Proofs estimated (before they are written) above this many bytes in all are streamed by
/// default rather than stored: a gigabyte of disk is the most a certificate folder should
/// take unasked.
pub(in crate::cert::certificate) const STREAM_ABOVE: u64 = 1 << 30;

/// Whether `manifest` is of a streamed certificate.
pub(in crate::cert::certificate) fn is_streamed(manifest: &Manifest) -> bool {
    manifest
        .files
        .keys()
        .any(|role| role.starts_with(ROLE_PREFIX))
}

/// Which shards `check` of a streamed certificate regenerates and checks again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Replay {
    /// None: the records are checked, their verdicts trusted.
    #[default]
    None,
    /// Every shard.
    All,
    /// This many shards, drawn at random.
    Sample(usize),
    /// The shard of this record, as `check` numbers them (from 1).
    One(usize),
}

impl std::str::FromStr for Replay {
    type Err = String;

    /// `all`, `sample:K` or `N`.
    fn from_str(text: &str) -> Result<Replay, String> {
        let bad = || format!("{text:?}: expected all, sample:K or a record's number N");
        match text.trim() {
            "all" => Ok(Replay::All),
            "none" => Ok(Replay::None),
            other => match other.strip_prefix("sample:") {
                Some(k) => k.parse().map(Replay::Sample).map_err(|_| bad()),
                None => match other.parse() {
                    Ok(0) | Err(_) => Err(bad()),
                    Ok(n) => Ok(Replay::One(n)),
                },
            },
        }
    }
}

/// Whether a file in a certificate folder is one a streamed run writes and a fresh run must
/// remove: the plan, a record, or a record being written (of a table of any size).
pub(in crate::cert::certificate) fn is_streamed_file(name: &str) -> bool {
    let stem = name
        .strip_suffix(".json.part")
        .or_else(|| name.strip_suffix(".json"));
    // Names number positions with as many digits as the table needs.
    let named =
        |stem: &str| (3..=6).any(|d| piece::Piece::parse(stem, 10usize.pow(d) - 1).is_some());
    name == PLAN_FILE || stem.is_some_and(named)
}

/// Crosses in 9 x 9, and the table the fast doll finds: a box small enough for unit tests
/// of how runs are planned and cut.
#[cfg(test)]
fn crosses_9x9() -> (crate::geometry::placements::PackingInstance, Vec<usize>) {
    use crate::engines::russian_doll::{self, DollOptions};
    use crate::puzzle::{load::parse_model, Puzzle};
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/models/cross-13x19.toml"
    ))
    .unwrap()
    .replace("width = 13", "width = 9")
    .replace("height = 19", "height = 9");
    let Ok(Puzzle::Packing(packing)) = parse_model(std::path::Path::new("9x9.toml"), text) else {
        panic!("a packing model")
    };
    let doll = russian_doll::solve(&packing.instance, &DollOptions::default(), |_, _| {}).unwrap();
    let entries = doll.table.iter().map(|e| e.unwrap()).collect();
    (packing.instance, entries)
}

#[cfg(test)]
mod tests {
    use super::Replay;

    #[test]
    fn a_replay_is_read_from_its_words() {
        assert_eq!("all".parse(), Ok(Replay::All));
        assert_eq!("sample:3".parse(), Ok(Replay::Sample(3)));
        assert_eq!("7".parse(), Ok(Replay::One(7)));
        for bad in ["0", "sample:x", "some"] {
            assert!(bad.parse::<Replay>().is_err(), "{bad}");
        }
    }
}
