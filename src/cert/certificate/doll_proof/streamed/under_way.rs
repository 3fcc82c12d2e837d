//! `check` of a streamed run under way: a folder that holds its plan and the records
//! written so far, but no manifest yet. The model, the witness and the table are checked as
//! for a certificate, and each record is held to them as `check` holds a certificate's (of
//! this model and table, its OPB file rebuilt with the recorded SHA-256, both checkers'
//! verdicts); `--replay` regenerates any record's shard. What the records cannot do yet is
//! tile the table, so the answer says which entries' shards are complete, which split
//! entries are in part and which entries have no record. A shard takes the later entries
//! as premises, so only a complete stretch that reaches the table's last entry is proved;
//! the answer is never "certified": the join writes the manifest once every shard has its
//! record.

use std::ops::Range;
use std::path::Path;

use super::check::{held_records, record_step, replay_steps, replayed_words, table_as_proved};
use super::piece::Piece;
use super::records::{record_files, split_tiles, verify_each, Held};
use super::{Replay, PLAN_FILE};
use crate::cert::certificate::read::CheckedFolder;
use crate::cert::certificate::table::{applies, table_and_witness, Table, TABLE_FILE};
use crate::cert::certificate::{CheckError, Checked, MANIFEST_FILE, MODEL_FILE, WITNESS_FILE};
use crate::puzzle::load::parse_model;

/// How far the records of a run under way go: the entries whose shards are complete, and the
/// split entries some of whose shards have a record (with how many).
#[derive(Debug, Default, PartialEq, Eq)]
struct Progress {
    whole: Vec<Range<usize>>,
    in_part: Vec<(usize, usize)>,
}

/// Checks the run under way in `dir` (see the module doc), replaying as `replay` asks: the
/// steps and how far the records go. The caller reports it as under way, never certified.
pub(in crate::cert::certificate) fn check(
    dir: &Path,
    (replay, scratch): (&Replay, Option<&Path>),
) -> Result<Checked, CheckError> {
    let failed = CheckError::Failed;
    let folder = CheckedFolder {
        dir,
        write_cnf: None,
    };
    let model_bytes = folder.read(MODEL_FILE)?;
    let model_text = std::str::from_utf8(&model_bytes)
        .map_err(|_| failed(format!("{MODEL_FILE}: not UTF-8 text")))?;
    let puzzle = parse_model(&dir.join(MODEL_FILE), model_text.to_string())
        .map_err(|e| failed(format!("{MODEL_FILE}: {e}")))?;
    let Some(packing) = applies(&puzzle) else {
        return Err(failed(format!(
            "{MODEL_FILE}: a streamed run is of a maximum packing without piece minimums, and this model is not one"
        )));
    };
    let mut steps = vec![format!(
        "{PLAN_FILE}: a streamed run under way (no {MANIFEST_FILE} yet); {MODEL_FILE}: a packing puzzle, {} placements",
        packing.instance.placements.len()
    )];
    // The claim under proof is the table's first entry; the witness must reach it.
    let table = Table::parse(&folder.text(TABLE_FILE)?, packing.width, packing.height)
        .map_err(|e| failed(format!("{TABLE_FILE}: {e}")))?;
    let Some(&optimum) = table.entries.first() else {
        return Err(failed(format!("{TABLE_FILE}: no entries")));
    };
    let (table, _) = table_and_witness(
        &folder,
        (WITNESS_FILE, TABLE_FILE),
        (&puzzle, packing),
        (optimum, Some(table)),
        ("entry", " (the witness's size) at entry 0"),
        &mut steps,
    )?;
    table_as_proved(&folder, TABLE_FILE, packing, &table)?;

    let listing =
        |e: std::io::Error| CheckError::Failed(format!("{}: cannot list: {e}", dir.display()));
    let records = record_files(dir, listing, |name| folder.read(name))?;
    let held =
        held_records(packing, &table, &model_bytes, &records, verify_each).map_err(failed)?;
    let count = held.len();
    for (k, h) in held.iter().enumerate() {
        steps.push(record_step(k + 1, count, h));
    }
    let positions = table.order.len();
    let progress = progress(&held).map_err(failed)?;
    steps.push(progress_step(&progress, positions));
    let replayed = replay_steps(packing, &table, &held, (replay, scratch), &mut steps)?;
    let replayed = replayed_words(replayed, count);
    // The induction runs from the last entry back: only the stretch that ends there holds.
    let proved = progress
        .whole
        .last()
        .filter(|r| r.end == positions)
        .cloned();
    let conclusion = match proved {
        Some(r) if r.start == 0 => format!(
            "not certified yet: a run under way; its records ({count}) prove every entry of {TABLE_FILE}, and `prove --join` writes the manifest that certifies {optimum} as the optimum of {MODEL_FILE}{replayed}"
        ),
        Some(r) => format!(
            "not certified yet: a run under way toward {optimum} as the optimum of {MODEL_FILE}; its records so far ({count}) hold and prove the last {} of the {positions} entries of {TABLE_FILE} ({}..{}){replayed}",
            r.len(),
            r.start,
            r.end
        ),
        None => format!(
            "not certified yet: a run under way toward {optimum} as the optimum of {MODEL_FILE}; its records so far ({count}) hold, but prove none of the {positions} entries of {TABLE_FILE} yet (a shard takes the later entries as premises, and the last have no record){replayed}"
        ),
    };
    Ok(Checked { steps, conclusion })
}

/// How far `held` (in order) go: a range's entries are
/// whole, and a split entry is whole where its glue's states are tiled by its runs (as the
/// join requires), in part otherwise. A record proving an entry another already proves is a
/// duplicate, refused as the join refuses it.
fn progress(held: &[Held]) -> Result<Progress, String> {
    let mut progress = Progress::default();
    let mut at = 0;
    let mut last: Option<&Held> = None;
    let mut i = 0;
    while i < held.len() {
        let h = &held[i];
        let entries = h.piece.entries();
        if entries.start < at {
            let earlier = last.map_or_else(String::new, Held::file);
            return Err(format!(
                "{}: a duplicated shard: {earlier} proves entry {} too",
                h.file(),
                entries.start
            ));
        }
        if let Piece::Entries(_) = h.piece {
            add(&mut progress.whole, entries.clone());
            i += 1;
        } else {
            let entry = entries.start;
            let split = held[i..]
                .iter()
                .take_while(|r| {
                    r.piece.entries().start == entry && !matches!(r.piece, Piece::Entries(_))
                })
                .count();
            // Only a glue of the entry itself can make it whole; runs alone leave it in part.
            let top_glue = matches!(h.piece, Piece::Glue { .. }) && h.piece.within().is_empty();
            let tiled = if top_glue {
                split_tiles(h, &held[i + 1..i + split]).ok()
            } else {
                None
            };
            match tiled {
                Some(used) if used + 1 == split => add(&mut progress.whole, entries.clone()),
                Some(used) => {
                    return Err(format!(
                        "{}: a duplicated shard: entry {entry} is whole without it",
                        held[i + 1 + used].file()
                    ))
                }
                None => progress.in_part.push((entry, split)),
            }
            i += split;
        }
        at = entries.end;
        last = Some(h);
    }
    Ok(progress)
}

/// Adds `entries` to the ranges `whole`, joining a range that ends where it starts.
fn add(whole: &mut Vec<Range<usize>>, entries: Range<usize>) {
    match whole.last_mut() {
        Some(last) if last.end == entries.start => last.end = entries.end,
        _ => whole.push(entries),
    }
}

/// The step line saying how far the records go.
fn progress_step(progress: &Progress, positions: usize) -> String {
    let ranges = |ranges: &[Range<usize>]| {
        ranges
            .iter()
            .map(|r| format!("{}..{}", r.start, r.end))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut covered: Vec<Range<usize>> = progress.whole.clone();
    covered.extend(progress.in_part.iter().map(|&(e, _)| e..e + 1));
    covered.sort_by_key(|r| r.start);
    let mut none = Vec::new();
    let mut at = 0;
    for r in &covered {
        if r.start > at {
            none.push(at..r.start);
        }
        at = at.max(r.end);
    }
    if at < positions {
        none.push(at..positions);
    }
    let mut parts = vec![if progress.whole.is_empty() {
        "no entry's shards are complete".to_string()
    } else {
        format!(
            "the shards of the entries {} are complete (a split entry's runs tile the states its glue cites)",
            ranges(&progress.whole)
        )
    }];
    if !progress.in_part.is_empty() {
        let split: Vec<String> = progress
            .in_part
            .iter()
            .map(|(e, n)| format!("{e} (records: {n})"))
            .collect();
        parts.push(format!("the split entries {} in part", split.join(", ")));
    }
    if !none.is_empty() {
        parts.push(format!("no record yet of the entries {}", ranges(&none)));
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::add;

    #[test]
    fn whole_ranges_join_where_they_meet() {
        let mut whole = Vec::new();
        add(&mut whole, 3..5);
        add(&mut whole, 5..9);
        add(&mut whole, 10..12);
        assert_eq!(whole, vec![3..9, 10..12]);
    }
}
