//! `check` of a streamed certificate: the witness and the table, then the records (see
//! [`super::records`]), and with `--replay` shards regenerated from the model and the table,
//! streamed into both checkers again, their proofs' SHA-256 compared with the records'.

use std::sync::atomic::AtomicUsize;
use std::time::Instant;

use super::super::{opb_text, proof_weights};
use super::piece::build;
use super::records::{read_record, verify, Against, Held};
use super::stream::{stream, StreamError, VERIPB};
use super::{Replay, ROLE_PREFIX};
use crate::base::digest::sha256_hex;
use crate::base::Control;
use crate::cert::certificate::read::CheckedFolder;
use crate::cert::certificate::table::{Table, TABLE_ROLE};
use crate::cert::certificate::{CheckError, Checked, Manifest, MANIFEST_FILE};
use crate::engines::russian_doll::{scan_order, DollProofOptions};
use crate::formats::shard_record::Verdict;
use crate::puzzle::packing::Packing;
use crate::puzzle::Puzzle;

/// How records read are held: together ([`verify`]) or each alone ([`verify_each`]).
pub(in crate::cert::certificate) type Holding =
    fn(Vec<Held>, &Against) -> Result<Vec<Held>, String>;

/// The records `records` (file name and bytes) of the model `model_bytes` over `table`,
/// read and held as `hold` holds them, in order; an error names the shard.
pub(in crate::cert::certificate) fn held_records(
    packing: &Packing,
    table: &Table,
    model_bytes: &[u8],
    records: &[(String, Vec<u8>)],
    hold: Holding,
) -> Result<Vec<Held>, String> {
    let table_text = table.text(packing.width);
    let model_sha256 = sha256_hex(model_bytes);
    let table_sha256 = sha256_hex(table_text.as_bytes());
    let against = Against {
        instance: &packing.instance,
        table,
        model_sha256: &model_sha256,
        table_sha256: &table_sha256,
        table_name: crate::cert::certificate::table::TABLE_FILE,
    };
    let mut held = Vec::new();
    for (file, bytes) in records {
        let text = std::str::from_utf8(bytes).map_err(|_| format!("{file}: not UTF-8 text"))?;
        held.push(read_record(file, text, &against)?);
    }
    hold(held, &against)
}

/// `check` of a streamed certificate (the manifest's files were compared with their
/// SHA-256 already): the witness, the table's shape and scan order, the records, and the
/// replays `replay` asks for, `veripb` reading their proofs from memory or from the disk
/// of its scratch folder.
pub(in crate::cert::certificate) fn check(
    folder: &CheckedFolder,
    manifest: &Manifest,
    puzzle: &Puzzle,
    (replay, scratch): (&Replay, Option<&std::path::Path>),
    mut steps: Vec<String>,
) -> Result<Checked, CheckError> {
    let failed = CheckError::Failed;
    let model_name = &manifest.model.file;
    let (packing, optimum, table) =
        super::super::table_of_entries(folder, manifest, puzzle, "a streamed proof", &mut steps)?;
    let table_name = folder.file_of(manifest, TABLE_ROLE)?;
    table_as_proved(folder, table_name, packing, &table)?;
    let mut records = Vec::new();
    for (role, entry) in &manifest.files {
        let Some(stem) = role.strip_prefix(ROLE_PREFIX) else {
            continue;
        };
        if entry.name.strip_suffix(".json") == Some(stem) {
            records.push((entry.name.clone(), folder.read(&entry.name)?));
        } else {
            return Err(failed(format!(
                "{MANIFEST_FILE}: role {role} is the file {}, not the record its name gives",
                entry.name
            )));
        }
    }
    let model_bytes = folder.read(model_name)?;
    let held = held_records(packing, &table, &model_bytes, &records, verify).map_err(failed)?;
    let count = held.len();
    for (k, h) in held.iter().enumerate() {
        steps.push(record_step(k + 1, count, h));
    }
    let nodes: u64 = held.iter().map(|h| h.record.nodes).sum();
    let bytes: u64 = held.iter().map(|h| h.record.proof.bytes).sum();
    steps.push(format!(
        "the {count} records tile the entries 0..{} of {table_name} (a split entry's runs tile the states its glue cites); each shard's OPB file, rebuilt from {model_name} and {table_name}, has the SHA-256 its record gives, so a shard's premises are exactly the table's later entries (or the states its glue cites), which the other shards prove; {nodes} search nodes, {bytes} bytes of proof streamed in all",
        table.order.len()
    ));
    let replayed = replay_steps(packing, &table, &held, (replay, scratch), &mut steps)?;
    let replayed = replayed_words(replayed, count);
    Ok(Checked {
        steps,
        conclusion: format!(
            "certified: {optimum} is the optimum of {model_name}, by the records of {count} streamed shards{replayed}"
        ),
    })
}

/// The table file `table_name` as `prove` writes it, its cells in the Russian doll's scan
/// order: the records name the SHA-256 of that text, and state shards count positions in
/// that order.
pub(super) fn table_as_proved(
    folder: &CheckedFolder,
    table_name: &str,
    packing: &Packing,
    table: &Table,
) -> Result<(), CheckError> {
    let failed = CheckError::Failed;
    let instance = &packing.instance;
    if table.order != scan_order(instance.width, instance.height) {
        return Err(failed(format!(
            "{table_name}: its cells are not in the Russian doll's scan order, which the shards' premises count positions in"
        )));
    }
    let table_bytes = folder.read(table_name)?;
    if table_bytes != table.text(packing.width).as_bytes() {
        return Err(failed(format!(
            "{table_name}: not as prove writes it (the records name the SHA-256 of that text)"
        )));
    }
    Ok(())
}

/// The replays `replay` asks for of the records `held` (in order), each a step line; how
/// many there were.
pub(super) fn replay_steps(
    packing: &Packing,
    table: &Table,
    held: &[Held],
    (replay, scratch): (&Replay, Option<&std::path::Path>),
    steps: &mut Vec<String>,
) -> Result<usize, CheckError> {
    let replayed = replays(replay, held.len()).map_err(CheckError::Failed)?;
    if replayed.is_empty() {
        return Ok(0);
    }
    let control = Control::unlimited();
    let weights = proof_weights(&packing.instance, &control);
    let options = DollProofOptions {
        row_weights: &weights,
        ..DollProofOptions::default()
    };
    for &k in &replayed {
        steps.push(replay_one(
            packing,
            table,
            &options,
            k + 1,
            &held[k],
            (&control, scratch),
        )?);
    }
    Ok(replayed.len())
}

/// How many of `count` records were replayed, for a conclusion: nothing when none.
pub(super) fn replayed_words(replayed: usize, count: usize) -> String {
    match replayed {
        0 => String::new(),
        n if n == count => ", every shard replayed".to_string(),
        n => format!(", {n} replayed"),
    }
}

/// A record's line: its number, name, entries, proof and verdicts.
pub(super) fn record_step(k: usize, count: usize, h: &Held) -> String {
    let record = &h.record;
    let entries = h.piece.entries();
    // Where a split within a state lies: "state 11 (2 below the root), split 1 below".
    let within = |split: &crate::formats::shard_record::SplitPart| {
        split
            .within
            .iter()
            .map(|w| format!(" state {} ({} below),", w.state, w.depth))
            .collect::<String>()
    };
    let what = match &record.split {
        None => format!("entries {}..{}", entries.start, entries.end),
        Some(split) => match split.part {
            crate::formats::shard_record::SplitRole::Glue if !split.within.is_empty() => format!(
                "entry {}:{} split {} pieces below it: the glue, citing {} states",
                split.entry,
                within(split),
                split.depth,
                split.states.len().saturating_sub(1)
            ),
            crate::formats::shard_record::SplitRole::Glue => format!(
                "entry {} split {} pieces below its root: the glue, citing {} states",
                split.entry,
                split.depth,
                split.states.len()
            ),
            crate::formats::shard_record::SplitRole::States => format!(
                "entry {}:{} states {}..{}",
                split.entry,
                within(split),
                split.first,
                split.first + split.states.len()
            ),
        },
    };
    let verdicts: Vec<String> = record
        .checkers
        .iter()
        .map(|c| match c.verdict {
            Verdict::Accepted => format!(
                "{} {} accepted {}",
                c.name,
                c.version,
                c.conclusion.as_deref().unwrap_or("")
            ),
            Verdict::NotRun => format!(
                "{} did not run ({})",
                c.name,
                c.message.as_deref().unwrap_or("")
            ),
            Verdict::Refused => format!("{} refused", c.name),
        })
        .collect();
    format!(
        "record {k}/{count} {}: {what}; OPB file rebuilt, SHA-256 as recorded; {} nodes, proof of {} bytes and {} lines, SHA-256 {}; {}",
        h.file(),
        record.nodes,
        record.proof.bytes,
        record.proof.lines,
        record.proof.sha256,
        verdicts.join(", ")
    )
}

/// The records (0-based) `replay` asks for, of `count`.
fn replays(replay: &Replay, count: usize) -> Result<Vec<usize>, String> {
    match *replay {
        Replay::None => Ok(Vec::new()),
        Replay::All => Ok((0..count).collect()),
        Replay::One(n) if (1..=count).contains(&n) => Ok(vec![n - 1]),
        Replay::One(n) => Err(format!(
            "--replay {n}: the certificate has {count} records, numbered 1..={count}"
        )),
        Replay::Sample(k) => Ok(sample(k.min(count), count)),
    }
}

/// `k` distinct numbers below `count`, ascending, drawn afresh each run (from the clock).
fn sample(k: usize, count: usize) -> Vec<usize> {
    let mut state = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0x9e37_79b9_7f4a_7c15, |d| d.as_nanos() as u64)
        | 1;
    let mut all: Vec<usize> = (0..count).collect();
    // A partial Fisher-Yates shuffle over xorshift64.
    for i in 0..k {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let j = i + (state % (count - i) as u64) as usize;
        all.swap(i, j);
    }
    let mut chosen = all[..k].to_vec();
    chosen.sort_unstable();
    chosen
}

/// Regenerates the shard of record `k` from the model and the table, streams it into both
/// checkers, and compares its proof with the record's; the step line.
fn replay_one(
    packing: &Packing,
    table: &Table,
    options: &DollProofOptions,
    k: usize,
    h: &Held,
    (control, scratch): (&Control, Option<&std::path::Path>),
) -> Result<String, CheckError> {
    let file = h.file();
    let failed = |why: String| CheckError::Failed(format!("{file} (record {k}): replayed, {why}"));
    let instance = &packing.instance;
    let built = build(
        instance,
        (&table.order, &table.entries),
        &h.piece,
        &h.states(),
    );
    let opb = opb_text(&built.opb);
    // The proof's text depends on the bound its memo had.
    let options = DollProofOptions {
        memo_clauses: h.record.memo_clauses.unwrap_or(0),
        ..*options
    };
    let finished = AtomicUsize::new(0);
    let write = |out: &mut dyn std::io::Write, stop: &dyn Fn() -> bool| {
        built.write_proof(instance, &options, &table.entries, out, (stop, &finished))
    };
    let started = Instant::now();
    let streamed = stream(
        &h.record.shard,
        &opb,
        built.lower,
        &write,
        None,
        scratch,
        control,
    )
    .map_err(|e| {
        failed(match e {
            StreamError::Stopped => "stopped".to_string(),
            StreamError::Search(e) => format!("the search fails: {e}"),
            StreamError::Io(e) => format!("streaming fails: {e}"),
            StreamError::TooLarge(bytes) => format!("given up at {bytes} bytes"),
        })
    })?;
    if let Some(refusal) = streamed.refusal() {
        return Err(failed(format!(
            "{} refuses its proof: {}",
            refusal.name,
            refusal.message.as_deref().unwrap_or("no reason given")
        )));
    }
    let (now, then) = (&streamed.proof, &h.record.proof);
    if now != then {
        return Err(failed(format!(
            "its proof has SHA-256 {} ({} bytes, {} lines), but the record says {} ({} bytes, {} lines): the shard differs from the one recorded",
            now.sha256, now.bytes, now.lines, then.sha256, then.bytes, then.lines
        )));
    }
    let veripb = streamed.checkers.iter().find(|c| c.name == VERIPB).map_or(
        "veripb did not run".to_string(),
        |c| match c.verdict {
            Verdict::Accepted => format!("veripb {} accepts it", c.version),
            _ => format!(
                "veripb did not run ({})",
                c.message.as_deref().unwrap_or("")
            ),
        },
    );
    Ok(format!(
        "{file} (record {k}): replayed in {:.1} s: the proof regenerated from the model and the table has the recorded SHA-256 ({} bytes); puzzlec's PB checker accepts it, {veripb}",
        started.elapsed().as_secs_f64(),
        now.bytes
    ))
}

#[cfg(test)]
mod tests {
    use super::{replays, sample, Replay};

    #[test]
    fn replays_are_chosen_as_asked() {
        assert_eq!(replays(&Replay::All, 3), Ok(vec![0, 1, 2]));
        assert_eq!(replays(&Replay::One(2), 3), Ok(vec![1]));
        assert_eq!(
            replays(&Replay::One(4), 3),
            Err("--replay 4: the certificate has 3 records, numbered 1..=3".to_string())
        );
        let chosen = sample(3, 10);
        assert_eq!(chosen.len(), 3);
        assert!(chosen.windows(2).all(|w| w[0] < w[1]) && chosen[2] < 10);
        assert_eq!(replays(&Replay::Sample(5), 2).unwrap(), vec![0, 1]);
    }
}
