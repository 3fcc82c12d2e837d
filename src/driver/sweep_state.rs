//! A sweep whose boxes are each shared by many processes with nothing but files between
//! them (GNU parallel, a Slurm job array): `sweep MODEL --width .. --height .. --shard I/N
//! --state DIR` runs shard `I`'s part of the current round of every box not yet settled
//! ([`run_shard`]), and `merge --state DIR` merges the round of every box ([`merge`]); once
//! every box is settled the merge gives the sweep's table, the one a single process gives.
//!
//! As in the one-process sweep ([`super::sweep`]), each width's tallest box is searched and
//! the shorter boxes of that width are read off its Russian-doll table. The folder holds
//! `sweep.json` (the model as named and its digest, the axes, the shards and their node
//! budget), `model.toml` (the model, copied by the first shard) and, per width, the folder
//! of its tallest box, `box-WxH`, laid out as [`box_shard`] lays out one box's run (without
//! a model file: the sweep's serves all). A box whose table every shard fills alike within
//! the budget (an easy one) is settled by the first merge; a shard resumed after a stop runs
//! only the parts it has not written.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::base::shard::Shard;
use crate::driver::box_shard::{
    self, read_json, write_bytes, write_json, BoxShardError, MergeRun, ShardRun, MODEL_FILE,
    SWEEP_FILE, TABLE_FILE,
};
use crate::driver::enumerate::model_digest;
use crate::driver::settled_with_sub_boxes;
use crate::driver::sweep::{
    check_sweepable, resized, Axes, Instance, NotSweepable, SweepAxes, SweepReport, SweepRow,
};
use crate::driver::{Outcome, SolveError};
use crate::engines::russian_doll::DollOptions;
use crate::puzzle::packing::{Packing, PackingKind};
use crate::puzzle::Puzzle;

/// The format of `sweep.json`.
const FORMAT: &str = "puzzlec-sweep-shards/1";

/// What goes wrong in a sharded sweep.
#[derive(Debug, thiserror::Error)]
pub enum SweepStateError {
    /// The model cannot be swept over these sizes.
    #[error(transparent)]
    NotSweepable(#[from] NotSweepable),
    /// A box's run, or the folder's files (`sweep.json` included).
    #[error(transparent)]
    Shards(#[from] BoxShardError),
    /// A settled box's answer does not verify.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

/// `sweep.json`: what every shard of the sweep must agree on.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
struct SweepFile {
    format: String,
    /// The model file as the first shard named it (the table's `model`).
    model: String,
    model_digest: String,
    axes: Axes,
    shards: u32,
    split_nodes: u64,
}

/// What a sweep shard did with one box (a width's tallest).
#[derive(Clone, Debug, PartialEq)]
pub enum BoxPart {
    /// It ran its part of the box's round and wrote it.
    Ran(ShardRun),
    /// Its part of the round was already written (a resumed shard).
    Written,
    /// The box is settled: no round remains.
    Settled,
    /// A time limit or Ctrl-C stopped it: nothing written, run the shard again.
    Stopped,
}

/// One box of a sweep shard.
#[derive(Clone, Debug, PartialEq)]
pub struct BoxStep {
    /// The box.
    pub instance: Instance,
    /// Its folder.
    pub dir: PathBuf,
    /// What this shard did with it.
    pub part: BoxPart,
}

/// What a sweep's merge did.
#[derive(Clone, Debug, PartialEq)]
pub enum SweepMerge {
    /// Rounds remain: the boxes merged now (each with what its merge did), and the boxes
    /// in all and those settled.
    Rounds {
        /// Per box merged now.
        merged: Vec<(Instance, MergeRun)>,
        /// Boxes searched (one per width).
        boxes: usize,
        /// Of those, settled.
        settled: usize,
    },
    /// Every box is settled: the sweep's table.
    Settled(SweepReport),
}

/// What a sweep shard is asked, besides the model.
#[derive(Clone, Debug)]
pub struct ShardedSweep<'a> {
    /// The sizes.
    pub axes: SweepAxes,
    /// Stops each box's part of a round (nothing is written for it; the others go on).
    pub time_limit: Option<Duration>,
    /// The folder the shards share.
    pub dir: &'a Path,
    /// This shard.
    pub shard: Shard,
    /// The nodes an entry's search may take on one shard before it is split over the
    /// shards (see [`DollOptions::split_nodes`]).
    pub split_nodes: u64,
}

/// The message for a model whose boxes have no Russian doll to share.
const NOT_A_MAXIMUM_PACKING: &str = "sweep --state shares the Russian doll of each box of a maximum packing; without --state, --shard I/N splits the rows";

/// The swept model as a maximum packing, or why it cannot be swept with `--state`.
fn maximum_packing(puzzle: &Puzzle, axes: &SweepAxes) -> Result<(), SweepStateError> {
    check_sweepable(puzzle, axes)?;
    match puzzle {
        Puzzle::Packing(p) if p.kind == PackingKind::Maximise => Ok(()),
        _ => Err(BoxShardError::Unsupported(NOT_A_MAXIMUM_PACKING.into()).into()),
    }
}

/// Per width, the tallest box (the one searched) and the sweep's boxes of that width, with
/// their indices in sweep order.
fn widths(axes: &SweepAxes) -> Vec<(Instance, Vec<(usize, Instance)>)> {
    let indexed: Vec<(usize, Instance)> = axes.instances().into_iter().enumerate().collect();
    indexed
        .chunk_by(|a, b| a.1.width == b.1.width)
        .map(|group| (group[group.len() - 1].1, group.to_vec()))
        .collect()
}

/// The model resized to `instance`, as a packing.
fn box_of(puzzle: &Puzzle, instance: Instance) -> Packing {
    match resized(puzzle, instance) {
        Puzzle::Packing(packing) => packing,
        _ => unreachable!("a packing model resizes to a packing"),
    }
}

fn box_dir(dir: &Path, instance: Instance) -> PathBuf {
    dir.join(format!("box-{}x{}", instance.width, instance.height))
}

/// `widths 5..=7 and heights 5..=9`.
fn describe(axes: &Axes) -> String {
    let range = |r: Option<[usize; 2]>| r.map_or("-".into(), |[a, b]| format!("{a}..={b}"));
    format!(
        "widths {} and heights {}",
        range(axes.width),
        range(axes.height)
    )
}

/// Checks `dir` against the sweep asked (`expected`), writing `sweep.json` and the model
/// file if it is new. A folder of one box's run, or of another sweep, is refused naming the
/// file that says so.
fn check_folder(
    dir: &Path,
    expected: &SweepFile,
    shard: Shard,
    model_bytes: &[u8],
) -> Result<(), BoxShardError> {
    let path = dir.join(SWEEP_FILE);
    let wrong = |message: String| BoxShardError::File {
        path: path.clone(),
        message,
    };
    let Some(found) = read_json::<SweepFile>(&path)? else {
        for name in [TABLE_FILE, MODEL_FILE] {
            let file = dir.join(name);
            if file.exists() {
                return Err(BoxShardError::File {
                    path: file,
                    message: "the folder of one box's run (solve --state), not of a sweep".into(),
                });
            }
        }
        // The manifest first: a folder with a model and no manifest is one box's.
        write_json(&path, expected)?;
        return write_bytes(&dir.join(MODEL_FILE), model_bytes);
    };
    if found.format != FORMAT {
        return Err(wrong(format!(
            "format {:?}, expected {FORMAT:?}",
            found.format
        )));
    }
    if found.model_digest != expected.model_digest {
        return Err(wrong(format!(
            "the sweep of another model (digest {}, this model's {})",
            found.model_digest, expected.model_digest
        )));
    }
    if found.axes != expected.axes {
        return Err(wrong(format!(
            "the sweep of {}, not of {}",
            describe(&found.axes),
            describe(&expected.axes)
        )));
    }
    if found.shards != expected.shards || found.split_nodes != expected.split_nodes {
        return Err(wrong(format!(
            "the run has {} shards splitting entries beyond {} nodes; this shard is {}/{} with {}",
            found.shards, found.split_nodes, shard.index, shard.count, expected.split_nodes
        )));
    }
    Ok(())
}

/// Runs the shard's part of the current round of every box of the sweep not yet settled
/// (see the module doc), calling `box_done` after each box. `model` names the model file as
/// given (the table's `model`), `model_bytes` are its contents; `stop` (Ctrl-C) stops every
/// box's part.
pub fn run_shard(
    model: &str,
    puzzle: &Puzzle,
    model_bytes: &[u8],
    sweep: &ShardedSweep<'_>,
    stop: Arc<AtomicBool>,
    mut box_done: impl FnMut(&BoxStep),
) -> Result<Vec<BoxStep>, SweepStateError> {
    let ShardedSweep {
        axes,
        time_limit,
        dir,
        shard,
        split_nodes,
    } = sweep;
    let (dir, shard, split_nodes) = (*dir, *shard, *split_nodes);
    maximum_packing(puzzle, axes)?;
    let expected = SweepFile {
        format: FORMAT.into(),
        model: model.into(),
        model_digest: model_digest(puzzle),
        axes: axes.json(),
        shards: shard.count,
        split_nodes,
    };
    check_folder(dir, &expected, shard, model_bytes)?;
    let mut steps = Vec::new();
    for (tallest, _) in widths(axes) {
        let boxed = Puzzle::Packing(box_of(puzzle, tallest));
        let folder = box_dir(dir, tallest);
        let part = if box_shard::settled(&boxed, &folder)?.is_some() {
            BoxPart::Settled
        } else if box_shard::part_written(&folder, shard) {
            BoxPart::Written
        } else if stop.load(Ordering::Relaxed) {
            BoxPart::Stopped
        } else {
            std::fs::create_dir_all(&folder).map_err(|e| BoxShardError::File {
                path: folder.clone(),
                message: format!("cannot make the folder: {e}"),
            })?;
            let options = DollOptions {
                stop: Some(&stop),
                deadline: time_limit.map(|t| Instant::now() + t),
                ..DollOptions::default()
            };
            match box_shard::run_shard(&boxed, None, &folder, shard, split_nodes, &options) {
                Ok(run) => BoxPart::Ran(run),
                Err(BoxShardError::Stopped) => BoxPart::Stopped,
                Err(e) => return Err(e.into()),
            }
        };
        let step = BoxStep {
            instance: tallest,
            dir: folder,
            part,
        };
        box_done(&step);
        steps.push(step);
    }
    Ok(steps)
}

/// Reads `sweep.json` of `dir`, checked to be of `puzzle` (the folder's `model.toml`).
fn read_manifest(puzzle: &Puzzle, dir: &Path) -> Result<(SweepFile, SweepAxes), BoxShardError> {
    let path = dir.join(SWEEP_FILE);
    let wrong = |message: String| BoxShardError::File {
        path: path.clone(),
        message,
    };
    let Some(manifest) = read_json::<SweepFile>(&path)? else {
        return Err(wrong("missing: not the folder of a sweep".into()));
    };
    if manifest.format != FORMAT {
        return Err(wrong(format!(
            "format {:?}, expected {FORMAT:?}",
            manifest.format
        )));
    }
    let digest = model_digest(puzzle);
    if manifest.model_digest != digest {
        return Err(BoxShardError::File {
            path: dir.join(MODEL_FILE),
            message: format!(
                "not the model of {} (digest {digest}, the sweep's {})",
                path.display(),
                manifest.model_digest
            ),
        });
    }
    let axes = match (manifest.axes.width, manifest.axes.height) {
        (Some([a, b]), Some([c, d])) if manifest.axes.size.is_none() => SweepAxes::Boxes {
            widths: a..=b,
            heights: c..=d,
        },
        _ => return Err(wrong("the axes are not widths and heights".into())),
    };
    Ok((manifest, axes))
}

/// Merges the current round of every box of the sweep in `dir` not yet settled (`puzzle`:
/// the folder's `model.toml`); once every box is settled, the sweep's table, as the
/// one-process sweep gives it (each row's time that of its box's rounds, each round counted
/// as its slowest shard's). Merging a settled sweep again gives its table again.
pub fn merge(puzzle: &Puzzle, dir: &Path) -> Result<SweepMerge, SweepStateError> {
    let (manifest, axes) = read_manifest(puzzle, dir)?;
    maximum_packing(puzzle, &axes)?;
    let widths = widths(&axes);
    let mut merged = Vec::new();
    let mut outcomes = Vec::new();
    for (tallest, rows) in &widths {
        let packing = box_of(puzzle, *tallest);
        let boxed = Puzzle::Packing(packing.clone());
        let folder = box_dir(dir, *tallest);
        if box_shard::settled(&boxed, &folder)?.is_none() {
            merged.push((*tallest, box_shard::merge(&boxed, &folder)?));
        }
        if let Some(settled) = box_shard::settled(&boxed, &folder)? {
            outcomes.push((*tallest, rows, settled_with_sub_boxes(&packing, &settled)?));
        }
    }
    if outcomes.len() < widths.len() {
        return Ok(SweepMerge::Rounds {
            merged,
            boxes: widths.len(),
            settled: outcomes.len(),
        });
    }
    let mut table = Vec::new();
    for (tallest, rows, (outcome, smaller)) in outcomes {
        let mut by_height: Vec<(usize, Outcome)> = smaller
            .into_iter()
            .map(|(packing, outcome)| (packing.height, outcome))
            .collect();
        by_height.push((tallest.height, outcome));
        for &(index, instance) in rows {
            let (_, outcome) = by_height
                .iter()
                .find(|(height, _)| *height == instance.height)
                .expect("the tallest box's table settles every box of its width");
            table.push(SweepRow::of(index, instance, outcome));
        }
    }
    Ok(SweepMerge::Settled(SweepReport {
        command: "sweep".into(),
        model: manifest.model,
        kind: "packing".into(),
        axes: manifest.axes,
        // A stop leaves no row (the part is run again), so rows have no time limit.
        time_limit: None,
        shard: None,
        instances: table.len(),
        stopped: 0,
        rows: table,
    }))
}
