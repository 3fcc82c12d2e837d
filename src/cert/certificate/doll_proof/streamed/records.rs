//! A streamed certificate's records held to its model and table, by `check` and by the
//! join that writes its manifest: each record read (errors with its file and line), named
//! as its file, of this model and this table (else it is foreign); together they tile the
//! table (none missing, none proving an entry twice), a split entry's runs tile the
//! frontier its glue cites; each shard's OPB file, rebuilt from the model and the table (and
//! the states its record lists), has the SHA-256 recorded; and both checkers accepted each
//! proof with the conclusion its OPB file calls for (`veripb` may not have run).

use std::ops::Range;
use std::path::Path;

use super::super::opb_text;
use super::piece::{build, state_claim, Piece};
use super::stream::{conclusion_words, OURS, VERIPB};
use crate::base::digest::sha256_hex;
use crate::cert::certificate::table::Table;
use crate::cert::certificate::MANIFEST_FILE;
use crate::engines::russian_doll::StateClaim;
use crate::formats::shard_record::{
    read_shard_record, ShardRecord, SplitRole, StateRecord, Verdict,
};
use crate::geometry::placements::PackingInstance;

/// The names of the records in `dir`, sorted: every `.json` file but the manifest. The
/// join, the check of a run under way and the job list take a folder's records by this one
/// rule; `listing` makes their error for a folder that cannot be listed.
pub(super) fn record_names<E>(
    dir: &Path,
    listing: impl Fn(std::io::Error) -> E,
) -> Result<Vec<String>, E> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(&listing)? {
        let name = entry.map_err(&listing)?.file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".json") && name != MANIFEST_FILE {
            names.push(name.into_owned());
        }
    }
    names.sort();
    Ok(names)
}

/// The shards whose records `dir` holds, of a table of `positions` entries (the names
/// [`record_names`] lists that name a shard; none where the folder cannot be listed).
pub(super) fn record_pieces(dir: &Path, positions: usize) -> Vec<Piece> {
    let names = record_names(dir, |_| ()).unwrap_or_default();
    (names.iter())
        .filter_map(|name| Piece::parse(name.strip_suffix(".json")?, positions))
        .collect()
}

/// The records in `dir` ([`record_names`]) with their bytes, as `read` reads each.
pub(super) fn record_files<E>(
    dir: &Path,
    listing: impl Fn(std::io::Error) -> E,
    mut read: impl FnMut(&str) -> Result<Vec<u8>, E>,
) -> Result<Vec<(String, Vec<u8>)>, E> {
    record_names(dir, listing)?
        .into_iter()
        .map(|name| {
            let bytes = read(&name)?;
            Ok((name, bytes))
        })
        .collect()
}

/// A record read and found to be of this certificate, with the shard its name gives.
#[derive(Clone, Debug)]
pub(in crate::cert::certificate) struct Held {
    /// The shard.
    pub(in crate::cert::certificate) piece: Piece,
    /// Its record.
    pub(in crate::cert::certificate) record: ShardRecord,
}

impl Held {
    /// The record's file name.
    pub(in crate::cert::certificate) fn file(&self) -> String {
        format!("{}.json", self.record.shard)
    }

    /// The states the shard needs to be built: a glue's frontier, a run's own states.
    pub(in crate::cert::certificate) fn states(&self) -> Vec<StateClaim> {
        let entry = self.piece.entries().start;
        self.record.split.as_ref().map_or_else(Vec::new, |split| {
            split.states.iter().map(|s| state_claim(entry, s)).collect()
        })
    }
}

/// What records are held to.
pub(in crate::cert::certificate) struct Against<'a> {
    /// The packing.
    pub(in crate::cert::certificate) instance: &'a PackingInstance,
    /// The table.
    pub(in crate::cert::certificate) table: &'a Table,
    /// SHA-256 of the model file.
    pub(in crate::cert::certificate) model_sha256: &'a str,
    /// SHA-256 of the table file.
    pub(in crate::cert::certificate) table_sha256: &'a str,
    /// The table file's name, for messages.
    pub(in crate::cert::certificate) table_name: &'a str,
}

/// Reads the record file `file` (its `text`): parsed, named as its file, of this model and
/// table, its entries and split those its name gives. An error names the file.
pub(in crate::cert::certificate) fn read_record(
    file: &str,
    text: &str,
    against: &Against,
) -> Result<Held, String> {
    let record = read_shard_record(text).map_err(|e| format!("{file}: {e}"))?;
    let positions = against.table.order.len();
    let stem = file.strip_suffix(".json").unwrap_or(file);
    if record.shard != stem {
        return Err(format!(
            "{file}: the record is of the shard {}, not of {stem} (a record under another name)",
            record.shard
        ));
    }
    let piece = Piece::parse(stem, positions).ok_or_else(|| {
        format!("{file}: {stem} is not the name of a shard of a table of {positions} entries")
    })?;
    if record.model_sha256 != against.model_sha256 {
        return Err(format!(
            "{file}: a foreign shard: its record is of a model with SHA-256 {}, not this model's {}",
            record.model_sha256, against.model_sha256
        ));
    }
    if record.table_sha256 != against.table_sha256 {
        return Err(format!(
            "{file}: a foreign shard: its record is of a table with SHA-256 {}, not {}'s {}",
            record.table_sha256, against.table_name, against.table_sha256
        ));
    }
    let entries = piece.entries();
    if record.entries.start != entries.start || record.entries.end != entries.end {
        return Err(format!(
            "{file}: the record says entries {}..{}, its name {}..{}",
            record.entries.start, record.entries.end, entries.start, entries.end
        ));
    }
    let split = record.split.as_ref();
    let consistent = match (&piece, split) {
        (Piece::Entries(_), None) => true,
        (
            Piece::Glue {
                entry,
                depth,
                within,
            },
            Some(s),
        ) => {
            s.entry == *entry
                && s.depth == *depth
                && s.part == SplitRole::Glue
                && s.first == 0
                && s.within == piece.within()
                && (within.is_empty() || !s.states.is_empty())
        }
        (
            Piece::States {
                entry,
                depth,
                states,
                ..
            },
            Some(s),
        ) => {
            s.entry == *entry
                && s.depth == *depth
                && s.part == SplitRole::States
                && s.first == states.start
                && s.states.len() == states.len()
                && s.within == piece.within()
        }
        _ => false,
    };
    if !consistent {
        return Err(format!(
            "{file}: the record's split does not match its name (entry, depth, part, states or the states it lies within)"
        ));
    }
    Ok(Held { piece, record })
}

/// The order records are checked and numbered in: by entry, a range before a split entry's
/// glue, the glue before its runs, runs by their first state, a state split again where
/// that state lies (its glue, then its runs).
fn order_key(piece: &Piece) -> (usize, u8, Vec<(usize, u8)>) {
    let path = |tail: (usize, u8)| {
        let mut key: Vec<(usize, u8)> = piece.within().iter().map(|w| (w.state, 1)).collect();
        key.push(tail);
        key
    };
    match piece {
        Piece::Entries(range) => (range.start, 0, vec![(range.end, 0)]),
        Piece::Glue { entry, .. } => (*entry, 1, path((0, 0))),
        Piece::States { entry, states, .. } => (*entry, 1, path((states.start, 2))),
    }
}

/// Holds `held` together (see the module doc) and returns them in order; an error names
/// the shard (or the entries no shard proves).
pub(in crate::cert::certificate) fn verify(
    held: Vec<Held>,
    against: &Against,
) -> Result<Vec<Held>, String> {
    let held = in_order(held);
    tiles(&held, against.table.order.len())?;
    for h in &held {
        verify_one(h, against)?;
    }
    Ok(held)
}

/// Holds each of `held` to the model and the table, as [`verify`] does, but not together:
/// the records of a run under way, which do not tile the table yet. In order.
pub(in crate::cert::certificate) fn verify_each(
    held: Vec<Held>,
    against: &Against,
) -> Result<Vec<Held>, String> {
    let held = in_order(held);
    for h in &held {
        verify_one(h, against)?;
    }
    Ok(held)
}

/// `held` in the order records are checked and numbered in (see [`order_key`]).
fn in_order(mut held: Vec<Held>) -> Vec<Held> {
    held.sort_by_cached_key(|h| order_key(&h.piece));
    held
}

/// One record held to the model and the table: its shard's OPB file, rebuilt, has the
/// recorded SHA-256, and both checkers' verdicts are as they must be.
fn verify_one(h: &Held, against: &Against) -> Result<(), String> {
    let file = h.file();
    let table = against.table;
    let built = build(
        against.instance,
        (&table.order, &table.entries),
        &h.piece,
        &h.states(),
    );
    let text = opb_text(&built.opb);
    let sha256 = sha256_hex(&text);
    if sha256 != h.record.opb.sha256 || text.len() as u64 != h.record.opb.bytes {
        return Err(format!(
            "{file}: the shard's OPB file, rebuilt from the model and {}, has SHA-256 {sha256} ({} bytes), not the record's {} ({} bytes): its premises or goal are not this table's",
            against.table_name,
            text.len(),
            h.record.opb.sha256,
            h.record.opb.bytes
        ));
    }
    verdicts(&file, &h.record, built.lower)
}

/// Both checkers' verdicts on a record: puzzlec's accepted `BOUNDS lower INF`, `veripb` too
/// or did not run; a refusal fails the shard.
fn verdicts(file: &str, record: &ShardRecord, lower: i64) -> Result<(), String> {
    let expected = conclusion_words(lower);
    for checker in &record.checkers {
        let said = checker.message.as_deref().unwrap_or("no reason given");
        match checker.verdict {
            Verdict::Refused => {
                return Err(format!(
                    "{file}: a failed shard: {} refused its proof ({said})",
                    checker.name
                ))
            }
            Verdict::Accepted if checker.conclusion.as_deref() != Some(expected.as_str()) => {
                return Err(format!(
                    "{file}: {} accepted {:?}, but the shard's OPB file calls for {expected}",
                    checker.name,
                    checker.conclusion.as_deref().unwrap_or("no conclusion")
                ))
            }
            Verdict::Accepted | Verdict::NotRun => {}
        }
    }
    let accepted = |name: &str| {
        record
            .checkers
            .iter()
            .any(|c| c.name == name && c.verdict == Verdict::Accepted)
    };
    if !accepted(OURS) {
        return Err(format!(
            "{file}: the record has no verdict of puzzlec's PB checker ({OURS}) accepting the proof"
        ));
    }
    if record
        .checkers
        .iter()
        .any(|c| c.name != OURS && c.name != VERIPB)
    {
        return Err(format!(
            "{file}: the record names a checker other than {OURS} and {VERIPB}"
        ));
    }
    Ok(())
}

/// The records, in order, tile `0..positions`; a split entry's runs tile its glue's
/// frontier, listing its states.
fn tiles(held: &[Held], positions: usize) -> Result<(), String> {
    let mut at = 0;
    // The record that proved the entries up to `at`, for naming a duplicate.
    let mut last: Option<&Held> = None;
    let mut i = 0;
    while i < held.len() {
        let h = &held[i];
        let entries = h.piece.entries();
        if entries.start > at {
            return Err(missing(at..entries.start));
        }
        if entries.start < at {
            let earlier = last.map_or_else(String::new, Held::file);
            return Err(format!(
                "{}: a duplicated shard: {earlier} proves entry {} too",
                h.file(),
                entries.start
            ));
        }
        match &h.piece {
            Piece::Entries(_) => i += 1,
            Piece::States { .. } => {
                return Err(format!(
                    "{}: its states are proved, but no glue shard of entry {} is there to cite them (entry-...-glue is missing)",
                    h.file(),
                    entries.start
                ))
            }
            Piece::Glue { .. } if !h.piece.within().is_empty() => {
                return Err(format!(
                    "{}: a split within a state, but no glue shard of entry {} cites that state (entry-...-glue is missing)",
                    h.file(),
                    entries.start
                ))
            }
            Piece::Glue { .. } => i += 1 + split_tiles(h, &held[i + 1..])?,
        }
        at = entries.end;
        last = Some(h);
    }
    if at < positions {
        return Err(missing(at..positions));
    }
    Ok(())
}

/// No record proves `entries`.
fn missing(entries: Range<usize>) -> String {
    format!(
        "no record proves the entries {}..{} (a shard is missing)",
        entries.start, entries.end
    )
}

/// The shards after `glue` (`rest`) tile the frontier it lists: runs of its states at its
/// depth, and states split again (a glue within the state, then its own tiling). How many
/// of `rest` the tiling takes.
pub(super) fn split_tiles(glue: &Held, rest: &[Held]) -> Result<usize, String> {
    let listed = glue.record.split.as_ref().map_or(&[][..], |s| &s.states);
    let within = glue.piece.within();
    let frontier = cited_states(&glue.piece, listed).unwrap_or(&[]);
    let depth = glue.piece.depth().unwrap_or(0);
    let entry = glue.piece.entries().start;
    let missing = |at: usize, to: usize| {
        format!(
            "no record proves the states {at}..{to} of entry {entry}, which {} cites (a shard is missing)",
            glue.file()
        )
    };
    let twice = |run: &Held, state: usize| {
        format!(
            "{}: a duplicated shard: the state {state} of entry {entry} is proved twice",
            run.file()
        )
    };
    let mut at = 0;
    let mut used = 0;
    while at < frontier.len() {
        // The shards of this split: of its entry and within what it lies within.
        let ours =
            |r: &&Held| r.piece.entries().start == entry && r.piece.within().starts_with(within);
        let Some(run) = rest.get(used).filter(ours) else {
            return Err(missing(at, frontier.len()));
        };
        let inner = run.piece.within();
        let same_split = inner == within && run.piece.depth() == Some(depth);
        let state_of_split = inner.len() == within.len() + 1
            && inner.starts_with(within)
            && inner[within.len()].depth == depth;
        match &run.piece {
            Piece::States { states, .. } if same_split => {
                if states.start > at {
                    return Err(missing(at, states.start));
                }
                if states.start < at {
                    return Err(twice(run, states.start));
                }
                let proved = run.record.split.as_ref().map_or(&[][..], |s| &s.states);
                if frontier.get(states.clone()) != Some(proved) {
                    return Err(format!(
                        "{}: its states are not the states {}..{} that {} cites",
                        run.file(),
                        states.start,
                        states.end,
                        glue.file()
                    ));
                }
                at = states.end;
                used += 1;
            }
            Piece::Glue { .. } if state_of_split => {
                let state = inner[within.len()].state;
                if state > at {
                    return Err(missing(at, state));
                }
                if state < at {
                    return Err(twice(run, state));
                }
                let goal = run.record.split.as_ref().and_then(|s| s.states.first());
                if goal != frontier.get(at) {
                    return Err(format!(
                        "{}: the state it splits is not the state {at} that {} cites",
                        run.file(),
                        glue.file()
                    ));
                }
                used += 1 + split_tiles(run, &rest[used + 1..])?;
                at += 1;
            }
            // A second glue, or runs of a split at another depth.
            _ => {
                return Err(format!(
                    "{}: a duplicated shard: entry {entry} is split by {} already",
                    run.file(),
                    glue.file()
                ))
            }
        }
    }
    Ok(used)
}

/// The states `glue`'s split cites, of the states its record lists: all of them, but for a
/// glue within a state, which lists that state first (`None` where it lists none).
pub(super) fn cited_states<'r>(
    glue: &Piece,
    listed: &'r [StateRecord],
) -> Option<&'r [StateRecord]> {
    if glue.within().is_empty() {
        Some(listed)
    } else {
        listed.get(1..)
    }
}

#[cfg(test)]
mod tests {
    use super::record_files;

    #[test]
    fn the_records_are_every_json_file_but_the_manifest_by_name() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            "shard-3-4.json",
            "manifest.json",
            "plan.txt",
            "shard-0-3.json",
        ] {
            std::fs::write(dir.path().join(name), name).unwrap();
        }
        let read = |name: &str| std::fs::read(dir.path().join(name));
        let records = record_files(dir.path(), |e| e, read).unwrap();
        let names: Vec<&str> = records.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["shard-0-3.json", "shard-3-4.json"]);
        assert_eq!(records[0].1, b"shard-0-3.json");
        let gone = dir.path().join("gone");
        let listed = record_files(&gone, |e| e.kind(), |_| Ok(Vec::new()));
        assert_eq!(listed.unwrap_err(), std::io::ErrorKind::NotFound);
    }
}
