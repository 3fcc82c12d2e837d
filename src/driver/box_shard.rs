//! One box's Russian doll shared by many processes with nothing but files between them
//! (GNU parallel, a Slurm job array): `solve MODEL --shard I/N --state DIR` runs shard `I`
//! of a round ([`russian_doll::solve_shard`]), and `merge --state DIR` merges the round's
//! shards into the table the next round starts from.
//!
//! The folder holds `table.json`, the table decided so far (absent before the first merge),
//! and one `shard-I-of-N.json` per shard of the current round. Every shard of a round starts
//! from the same `table.json`, decides the same easy entries alike (one thread, a fresh memo,
//! the same node budget), and splits the first entry that outgrows the budget into the same
//! subproblems; each searches its own. The merge checks that the shards belong together
//! (model, round, budget, the same table and split) and that each searched all of its own,
//! raises the entry if one found a packing, writes the new `table.json` and removes the
//! shard files. When the table reaches the first cell the box is solved: the merge verifies
//! the packing by the puzzle's rules and writes `answer.json`.
//!
//! What the answer rests on: the doll's search in every shard, and the files between the
//! rounds (a changed `table.json` changes the answer); the packing itself is verified.

use crate::base::evidence::{Evidence, Words};
use crate::base::shard::Shard;
use crate::base::Control;
use crate::driver::enumerate::model_digest;
use crate::engines::russian_doll::{
    self, merge_round, DollOptions, DollResume, DollShardEntry, DollShardPart, DollStats,
};
use crate::puzzle::packing::{Packing, PackingKind};
use crate::puzzle::{Puzzle, Solution};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The format of the folder's files.
const FORMAT: &str = "puzzlec-doll-shards/1";
/// The model, copied by the first shard (the merge reads it).
pub const MODEL_FILE: &str = "model.toml";
/// The table decided so far.
pub const TABLE_FILE: &str = "table.json";
/// The answer, once the table is complete.
pub const ANSWER_FILE: &str = "answer.json";
/// The manifest of a sweep's folder ([`super::sweep_state`]): its boxes have folders of
/// their own inside it, so it is no box's folder.
pub const SWEEP_FILE: &str = "sweep.json";

/// What goes wrong in a sharded run.
#[derive(Debug, thiserror::Error)]
pub enum BoxShardError {
    /// The model is not a maximum packing the Russian doll takes.
    #[error("{0}")]
    Unsupported(String),
    /// A file of the folder cannot be read, or is not what it should be.
    #[error("{path}: {message}")]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The shards of the round do not merge.
    #[error("{0}")]
    Merge(String),
    /// A time limit or Ctrl-C stopped the shard; it wrote nothing.
    #[error("stopped before the shard's part was done; nothing written")]
    Stopped,
}

/// `table.json`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
struct TableFile {
    format: String,
    model_digest: String,
    shards: u32,
    split_nodes: u64,
    rounds: u64,
    known_from: usize,
    table: Vec<usize>,
    best: Vec<usize>,
    /// The raised entries and their packings, last scan position first (absent in the
    /// files of earlier versions).
    #[serde(default)]
    found: Vec<(usize, Vec<usize>)>,
    /// The rounds' wall time, each round counted as its slowest shard's.
    #[serde(default)]
    seconds: f64,
}

/// One shard's `shard-I-of-N.json`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
struct ShardFile {
    format: String,
    model_digest: String,
    shard: Shard,
    split_nodes: u64,
    /// The scan position the round started from (the cell count in the first round).
    from: usize,
    known_from: usize,
    table: Vec<usize>,
    best: Vec<usize>,
    #[serde(default)]
    found: Vec<(usize, Vec<usize>)>,
    entry: Option<EntryPart>,
    nodes: u64,
    #[serde(default)]
    seconds: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
struct EntryPart {
    entry: usize,
    target: usize,
    subproblems: usize,
    searched: usize,
    found: Option<Vec<usize>>,
}

/// What one shard did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardRun {
    /// The file written.
    pub file: PathBuf,
    /// The entry split this round (scan position, pieces asked for, subproblems, those
    /// searched here, whether one held a packing), or none: the table is complete.
    pub entry: Option<(usize, usize, usize, usize, bool)>,
    /// Scan positions in all.
    pub cells: usize,
    /// The table's first entry decided alike by every shard.
    pub known_from: usize,
    /// Search nodes of this shard's round.
    pub nodes: u64,
}

/// What a merge did.
#[derive(Clone, Debug, PartialEq)]
pub enum MergeRun {
    /// The entry was decided; another round is needed.
    Round {
        /// Rounds merged so far.
        rounds: u64,
        /// The entry decided (scan position), its value, whether it rose.
        entry: usize,
        /// Its value.
        value: usize,
        /// Whether a shard found a packing for it.
        raised: bool,
        /// Scan positions in all.
        cells: usize,
    },
    /// The table is complete: the optimum and its packing, verified.
    Solved {
        /// How: the rounds and shards that filled the table ([`Evidence::DollMerged`]).
        evidence: Evidence,
        /// The most pieces.
        optimum: usize,
        /// The packing as the puzzle renders it.
        rendered: String,
        /// The whole table, from scan position 0.
        table: Vec<usize>,
    },
}

/// A box's table decided to the first cell by the rounds of a sharded run ([`settled`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Settled {
    /// The whole table, from scan position 0 (the last entry 0).
    pub table: Vec<usize>,
    /// A packing of `table[0]` pieces (placement indices).
    pub best: Vec<usize>,
    /// The raised entries and their packings (placement indices), last scan position first.
    pub found: Vec<(usize, Vec<usize>)>,
    /// Rounds merged.
    pub rounds: u64,
    /// Shards per round.
    pub shards: u32,
    /// The rounds' wall time, each round counted as its slowest shard's.
    pub seconds: f64,
}

/// The table of `dir`, checked to be of `puzzle`, once its rounds have decided it to the
/// first cell; `None` until then (no merge yet, or rounds remain).
pub fn settled(puzzle: &Puzzle, dir: &Path) -> Result<Option<Settled>, BoxShardError> {
    let table = read_table(dir, &model_digest(puzzle), None, 0)?;
    Ok(table.filter(|t| t.known_from == 0).map(|t| Settled {
        table: t.table,
        best: t.best,
        found: t.found,
        rounds: t.rounds,
        shards: t.shards,
        seconds: t.seconds,
    }))
}

/// Whether shard `shard` has written its part of the current round of `dir`.
pub fn part_written(dir: &Path, shard: Shard) -> bool {
    shard_path(dir, shard).exists()
}

fn maximum_packing(puzzle: &Puzzle) -> Result<&Packing, BoxShardError> {
    match puzzle {
        Puzzle::Packing(p) if p.kind == PackingKind::Maximise => Ok(p),
        _ => Err(BoxShardError::Unsupported(
            "--state splits the Russian doll of a maximum packing; for counts, --shard I/N alone splits the count".into(),
        )),
    }
}

fn shard_path(dir: &Path, shard: Shard) -> PathBuf {
    dir.join(format!("shard-{}-of-{}.json", shard.index, shard.count))
}

pub(crate) fn read_json<T: for<'de> Deserialize<'de>>(
    path: &Path,
) -> Result<Option<T>, BoxShardError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(BoxShardError::File {
                path: path.to_path_buf(),
                message: format!("cannot read: {e}"),
            })
        }
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| BoxShardError::File {
            path: path.to_path_buf(),
            message: format!("line {}: not a file of a sharded run: {e}", e.line()),
        })
}

pub(crate) fn write_json(path: &Path, value: &impl Serialize) -> Result<(), BoxShardError> {
    let text = serde_json::to_string_pretty(value).expect("plain data");
    write_bytes(path, (text + "\n").as_bytes())
}

pub(crate) fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), BoxShardError> {
    // Written aside and renamed, so a reader (another shard, the merge) never sees half a
    // file.
    let mut partial = path.as_os_str().to_owned();
    partial.push(format!(".partial-{}", std::process::id()));
    let partial = PathBuf::from(partial);
    std::fs::write(&partial, bytes)
        .and_then(|()| std::fs::rename(&partial, path))
        .map_err(|e| BoxShardError::File {
            path: path.to_path_buf(),
            message: format!("cannot write: {e}"),
        })
}

/// Reads `table.json`, checked to be of this model (and, with `shards`, of this split).
fn read_table(
    dir: &Path,
    digest: &str,
    shards: Option<Shard>,
    split_nodes: u64,
) -> Result<Option<TableFile>, BoxShardError> {
    let path = dir.join(TABLE_FILE);
    let Some(table) = read_json::<TableFile>(&path)? else {
        return Ok(None);
    };
    let wrong = |message: String| BoxShardError::File {
        path: path.clone(),
        message,
    };
    if table.format != FORMAT {
        return Err(wrong(format!(
            "format {:?}, expected {FORMAT:?}",
            table.format
        )));
    }
    if table.model_digest != digest {
        return Err(wrong(format!(
            "the table of another model (digest {}, this model's {digest})",
            table.model_digest
        )));
    }
    if let Some(shard) = shards {
        if table.shards != shard.count || table.split_nodes != split_nodes {
            return Err(wrong(format!(
                "the run has {} shards splitting entries beyond {} nodes; this shard is {}/{} with {split_nodes}",
                table.shards, table.split_nodes, shard.index, shard.count
            )));
        }
    }
    Ok(Some(table))
}

/// [`run_shard`] under a command's [`Control`]: its stop flag, its time limit as the
/// deadline, and the memo's share of its memory bound.
pub fn run_shard_under(
    puzzle: &Puzzle,
    model_bytes: Option<&[u8]>,
    dir: &Path,
    shard: Shard,
    split_nodes: u64,
    control: &Control,
) -> Result<ShardRun, BoxShardError> {
    let deadline = control.remaining().map(|r| std::time::Instant::now() + r);
    let options = DollOptions {
        stop: Some(control.stop_flag()),
        deadline,
        memo_bytes: russian_doll::memo_bytes_for(control),
        ..DollOptions::default()
    };
    run_shard(puzzle, model_bytes, dir, shard, split_nodes, &options)
}

/// Runs shard `shard` of the current round of `dir` and writes its file. `model_bytes`:
/// the model file, copied into the folder for the merge (`None`: the caller keeps the model
/// elsewhere, as a sweep does for its boxes).
pub fn run_shard(
    puzzle: &Puzzle,
    model_bytes: Option<&[u8]>,
    dir: &Path,
    shard: Shard,
    split_nodes: u64,
    options: &DollOptions<'_>,
) -> Result<ShardRun, BoxShardError> {
    let started = std::time::Instant::now();
    let packing = maximum_packing(puzzle)?;
    let digest = model_digest(puzzle);
    let cells = packing.instance.width * packing.instance.height;
    let table = read_table(dir, &digest, Some(shard), split_nodes)?;
    if let Some(bytes) = model_bytes {
        let sweep = dir.join(SWEEP_FILE);
        if sweep.exists() {
            return Err(BoxShardError::File {
                path: sweep,
                message: "the folder of a sweep (sweep --state), not of one box".into(),
            });
        }
        let model_path = dir.join(MODEL_FILE);
        if !model_path.exists() {
            write_bytes(&model_path, bytes)?;
        }
    }
    if table.as_ref().is_some_and(|t| t.known_from == 0) {
        return Err(BoxShardError::Merge(format!(
            "{}: the table is complete; the answer is in {ANSWER_FILE}",
            dir.join(TABLE_FILE).display()
        )));
    }
    let resume = table.as_ref().map(|t| DollResume {
        known_from: t.known_from,
        table: t.table.clone(),
        best: t.best.clone(),
    });
    let options = DollOptions {
        split_nodes,
        ..*options
    };
    let part = russian_doll::solve_shard(
        &packing.instance,
        &options,
        resume.as_ref(),
        shard.index as usize - 1,
        shard.count as usize,
        |_, _| {},
    )
    .map_err(|e| match &table {
        Some(_) => BoxShardError::File {
            path: dir.join(TABLE_FILE),
            message: e.to_string(),
        },
        None => BoxShardError::Unsupported(e.to_string()),
    })?;
    if part.entry.is_none() && part.decided.known_from > 0 {
        return Err(BoxShardError::Stopped);
    }
    let file = ShardFile {
        format: FORMAT.into(),
        model_digest: digest,
        shard,
        split_nodes,
        from: resume.as_ref().map_or(cells, |r| r.known_from),
        known_from: part.decided.known_from,
        table: part.decided.table,
        best: part.decided.best,
        found: part.found,
        entry: part.entry.as_ref().map(|e| EntryPart {
            entry: e.entry,
            target: e.target,
            subproblems: e.subproblems,
            searched: e.searched,
            found: e.found.clone(),
        }),
        nodes: part.stats.nodes,
        seconds: started.elapsed().as_secs_f64(),
    };
    let path = shard_path(dir, shard);
    write_json(&path, &file)?;
    Ok(ShardRun {
        file: path,
        entry: part.entry.map(|e| {
            (
                e.entry,
                e.target,
                e.subproblems,
                e.searched,
                e.found.is_some(),
            )
        }),
        cells,
        known_from: file.known_from,
        nodes: file.nodes,
    })
}

/// Merges the shards of the current round of `dir`: see the module doc. `words` words the
/// evidence of `answer.json` (`report::evidence::words`).
pub fn merge(puzzle: &Puzzle, dir: &Path, words: Words) -> Result<MergeRun, BoxShardError> {
    let packing = maximum_packing(puzzle)?;
    let digest = model_digest(puzzle);
    let cells = packing.instance.width * packing.instance.height;
    let table = read_table(dir, &digest, None, 0)?;
    let from = table.as_ref().map_or(cells, |t| t.known_from);
    if from == 0 {
        return Err(BoxShardError::Merge(format!(
            "{}: the table is complete; the answer is in {ANSWER_FILE}",
            dir.join(TABLE_FILE).display()
        )));
    }
    // The shards of the round: the count from the table, or from the files of the first.
    let count = match &table {
        Some(t) => t.shards,
        None => first_round_count(dir)?,
    };
    let mut files = Vec::new();
    for index in 1..=count {
        let shard = Shard { index, count };
        let path = shard_path(dir, shard);
        let Some(file) = read_json::<ShardFile>(&path)? else {
            return Err(BoxShardError::Merge(format!(
                "{}: missing (shard {index}/{count} of the round from scan position {from} has not written its part)",
                path.display()
            )));
        };
        let wrong = |message: String| BoxShardError::File {
            path: path.clone(),
            message,
        };
        if file.format != FORMAT || file.model_digest != digest || file.shard != shard {
            return Err(wrong(format!(
                "not shard {index}/{count} of this model (format {:?}, digest {}, shard {}/{})",
                file.format, file.model_digest, file.shard.index, file.shard.count
            )));
        }
        if file.from != from {
            return Err(wrong(format!(
                "of the round from scan position {}, but the table is decided from {from}",
                file.from
            )));
        }
        if let Some(first) = files.first().map(|(_, f): &(PathBuf, ShardFile)| f) {
            if file.split_nodes != first.split_nodes {
                return Err(wrong(format!(
                    "splits entries beyond {} nodes, shard 1 beyond {}",
                    file.split_nodes, first.split_nodes
                )));
            }
        }
        files.push((path, file));
    }
    let parts: Vec<DollShardPart> = files
        .iter()
        .map(|(_, f)| DollShardPart {
            decided: DollResume {
                known_from: f.known_from,
                table: f.table.clone(),
                best: f.best.clone(),
            },
            entry: f.entry.as_ref().map(|e| DollShardEntry {
                entry: e.entry,
                target: e.target,
                subproblems: e.subproblems,
                searched: e.searched,
                found: e.found.clone(),
            }),
            found: f.found.clone(),
            stats: DollStats::default(),
        })
        .collect();
    let merged =
        merge_round(&parts).map_err(|e| BoxShardError::Merge(format!("{}: {e}", dir.display())))?;
    let rounds = table.as_ref().map_or(0, |t| t.rounds) + 1;
    let split_nodes = files[0].1.split_nodes;
    let mut found = table.as_ref().map_or_else(Vec::new, |t| t.found.clone());
    found.extend(files[0].1.found.iter().cloned());
    if merged.known_from < files[0].1.known_from && merged.table[0] > merged.table[1] {
        found.push((merged.known_from, merged.best.clone()));
    }
    let slowest = files.iter().map(|(_, f)| f.seconds).fold(0.0, f64::max);
    let next = TableFile {
        format: FORMAT.into(),
        model_digest: digest,
        shards: count,
        split_nodes,
        rounds,
        known_from: merged.known_from,
        table: merged.table.clone(),
        best: merged.best.clone(),
        found,
        seconds: table.as_ref().map_or(0.0, |t| t.seconds) + slowest,
    };
    let outcome = if merged.known_from == 0 {
        let solution = packing.solution_of(&merged.best);
        let solution = Solution::Packing(solution);
        puzzle.verify(&solution).map_err(|e| {
            BoxShardError::Merge(format!(
                "{}: the merged packing breaks the rules: {e}",
                dir.display()
            ))
        })?;
        let optimum = puzzle.value(&solution);
        if optimum != merged.table[0] {
            return Err(BoxShardError::Merge(format!(
                "{}: the merged packing has {optimum} pieces, the table says {}",
                dir.display(),
                merged.table[0]
            )));
        }
        let evidence = Evidence::DollMerged {
            rounds,
            shards: count,
        };
        let answer = serde_json::json!({
            "format": FORMAT,
            "model_digest": next.model_digest,
            "optimum": optimum,
            "proved": true,
            "evidence": words(&evidence),
            "solution": puzzle.solution_json(&solution),
            "table": merged.table,
        });
        write_json(&dir.join(ANSWER_FILE), &answer)?;
        MergeRun::Solved {
            evidence,
            optimum,
            rendered: puzzle.render(&solution),
            table: merged.table.clone(),
        }
    } else {
        MergeRun::Round {
            rounds,
            entry: merged.known_from,
            value: merged.table[0],
            raised: merged.table[0] > merged.table[1],
            cells,
        }
    };
    write_json(&dir.join(TABLE_FILE), &next)?;
    for (path, _) in &files {
        std::fs::remove_file(path).map_err(|e| BoxShardError::File {
            path: path.clone(),
            message: format!("cannot remove after merging: {e}"),
        })?;
    }
    Ok(outcome)
}

/// The shard count of a first round, read off its files' names (`shard-I-of-N.json`).
fn first_round_count(dir: &Path) -> Result<u32, BoxShardError> {
    let entries = std::fs::read_dir(dir).map_err(|e| BoxShardError::File {
        path: dir.to_path_buf(),
        message: format!("cannot read the folder: {e}"),
    })?;
    let mut counts: Vec<u32> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let rest = name.strip_prefix("shard-")?.strip_suffix(".json")?;
            rest.split_once("-of-")?.1.parse().ok()
        })
        .collect();
    counts.sort_unstable();
    counts.dedup();
    match counts[..] {
        [count] => Ok(count),
        [] => Err(BoxShardError::Merge(format!(
            "{}: no shard files (shard-I-of-N.json) and no {TABLE_FILE}: run the shards first",
            dir.display()
        ))),
        _ => Err(BoxShardError::Merge(format!(
            "{}: shard files of {} different shard counts",
            dir.display(),
            counts.len()
        ))),
    }
}
