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

use crate::base::evidence::Words;
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

/// Checks that the model can be swept over `axes` and is a maximum packing, saying why not.
fn check_maximum_packing(puzzle: &Puzzle, axes: &SweepAxes) -> Result<(), SweepStateError> {
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
    let Some(found) = read_sweep_file(dir)? else {
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
    check_maximum_packing(puzzle, axes)?;
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

/// Reads `sweep.json` of `dir` (`None`: absent), checked to be of this format.
fn read_sweep_file(dir: &Path) -> Result<Option<SweepFile>, BoxShardError> {
    let path = dir.join(SWEEP_FILE);
    let manifest = read_json::<SweepFile>(&path)?;
    match manifest {
        Some(m) if m.format != FORMAT => Err(BoxShardError::File {
            path,
            message: format!("format {:?}, expected {FORMAT:?}", m.format),
        }),
        manifest => Ok(manifest),
    }
}

/// Reads `sweep.json` of `dir`, checked to be of `puzzle` (the folder's `model.toml`).
fn read_manifest(puzzle: &Puzzle, dir: &Path) -> Result<(SweepFile, SweepAxes), BoxShardError> {
    let path = dir.join(SWEEP_FILE);
    let wrong = |message: String| BoxShardError::File {
        path: path.clone(),
        message,
    };
    let Some(manifest) = read_sweep_file(dir)? else {
        return Err(wrong("missing: not the folder of a sweep".into()));
    };
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
/// as its slowest shard's). Merging a settled sweep again gives its table again. `words`
/// words the evidence of each box's `answer.json` (`report::evidence::words`).
pub fn merge(puzzle: &Puzzle, dir: &Path, words: Words) -> Result<SweepMerge, SweepStateError> {
    let (manifest, axes) = read_manifest(puzzle, dir)?;
    check_maximum_packing(puzzle, &axes)?;
    let widths = widths(&axes);
    let mut merged = Vec::new();
    let mut outcomes = Vec::new();
    for (tallest, rows) in &widths {
        let packing = box_of(puzzle, *tallest);
        let boxed = Puzzle::Packing(packing.clone());
        let folder = box_dir(dir, *tallest);
        if box_shard::settled(&boxed, &folder)?.is_none() {
            merged.push((*tallest, box_shard::merge(&boxed, &folder, words)?));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::sweep::{sweep, SweepOptions};
    use crate::puzzle::load::parse_model;
    use std::ops::RangeInclusive;

    /// Evidence in words for the answers these tests write (the reports' words are above
    /// the driver).
    fn words(evidence: &crate::base::Evidence) -> String {
        format!("{evidence:?}")
    }

    fn cross_text() -> String {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/cross-13x19.toml");
        std::fs::read_to_string(path).unwrap()
    }

    fn model(text: &str) -> Puzzle {
        parse_model(Path::new("m.toml"), text.to_string()).unwrap()
    }

    fn boxes(widths: RangeInclusive<usize>, heights: RangeInclusive<usize>) -> SweepAxes {
        SweepAxes::Boxes { widths, heights }
    }

    /// Shard `index` of `count` of the sweep of `puzzle` over `axes` in `dir`.
    fn shard_of(
        puzzle: &Puzzle,
        dir: &Path,
        axes: &SweepAxes,
        (index, count): (u32, u32),
        split_nodes: u64,
    ) -> Result<Vec<BoxStep>, SweepStateError> {
        let sweep = ShardedSweep {
            axes: axes.clone(),
            time_limit: None,
            dir,
            shard: Shard { index, count },
            split_nodes,
        };
        let stop = Arc::new(AtomicBool::new(false));
        run_shard(
            "m.toml",
            puzzle,
            cross_text().as_bytes(),
            &sweep,
            stop,
            |_| {},
        )
    }

    fn message(result: Result<impl std::fmt::Debug, SweepStateError>) -> String {
        result.unwrap_err().to_string()
    }

    #[test]
    fn sharded_rounds_give_the_table_of_one_process() {
        let dir = tempfile::tempdir().unwrap();
        let puzzle = model(&cross_text());
        let axes = boxes(6..=9, 9..=11);
        let options = SweepOptions {
            axes: axes.clone(),
            time_limit: None,
            shard: None,
            backend: None,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let one = sweep("m.toml", &puzzle, &options, stop, |_| {}).unwrap();
        let mut rounds = 0;
        let report = loop {
            rounds += 1;
            assert!(rounds < 40, "the rounds do not end");
            for index in 1..=2 {
                let steps = shard_of(&puzzle, dir.path(), &axes, (index, 2), 100).unwrap();
                assert_eq!(steps.len(), 4);
                // Run again, the shard finds its parts written (or the boxes settled).
                let again = shard_of(&puzzle, dir.path(), &axes, (index, 2), 100).unwrap();
                assert!(again
                    .iter()
                    .all(|s| matches!(s.part, BoxPart::Written | BoxPart::Settled)));
            }
            match merge(&puzzle, dir.path(), words).unwrap() {
                SweepMerge::Settled(report) => break report,
                SweepMerge::Rounds { boxes, settled, .. } => {
                    assert_eq!(boxes, 4);
                    assert!(settled < 4);
                }
            }
        };
        // The 9 x 11 box needs more than one round at this budget, the 6 x 11 box one.
        assert!(rounds > 1);
        assert_eq!(
            merge(&puzzle, dir.path(), words).unwrap(),
            SweepMerge::Settled(report.clone())
        );
        let answers = |r: &SweepReport| -> Vec<_> {
            r.rows
                .iter()
                .map(|r| {
                    let tallest = r.height == 11;
                    let how = (!tallest).then(|| r.evidence.clone());
                    let row = (r.index, r.width, r.height, r.status.clone(), r.proven);
                    (row, r.value, r.bound, r.backend.clone(), how)
                })
                .collect()
        };
        assert_eq!(answers(&report), answers(&one));
        assert_eq!(report.rows.len(), 12);
        let value_of = |width, height| {
            let row = report
                .rows
                .iter()
                .find(|r| (r.width, r.height) == (width, height));
            row.and_then(|r| r.value)
        };
        assert_eq!((value_of(6, 11), value_of(9, 11)), (Some(4), Some(6)));
        assert_eq!(
            report.rows[2].evidence.to_string(),
            "native Russian-doll search refuted \"at least 5\": the suffix table of 66 scan cells, from the last back, filled in 1 round of 2 shards (processes with files between them)"
        );
        assert_eq!(
            (&report.model, &report.kind, &report.axes, report.instances),
            (&one.model, &one.kind, &one.axes, one.instances)
        );
        assert_eq!((report.shard, report.stopped), (None, 0));
    }

    #[test]
    fn a_folder_of_another_sweep_is_refused_naming_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path();
        let puzzle = model(&cross_text());
        let axes = boxes(6..=7, 7..=8);
        shard_of(&puzzle, path, &axes, (1, 2), 100).unwrap();
        let manifest = path.join("sweep.json").display().to_string();
        assert_eq!(
            message(shard_of(&puzzle, path, &boxes(6..=7, 7..=9), (1, 2), 100)),
            format!("{manifest}: the sweep of widths 6..=7 and heights 7..=8, not of widths 6..=7 and heights 7..=9")
        );
        assert_eq!(
            message(shard_of(&puzzle, path, &axes, (1, 3), 100)),
            format!("{manifest}: the run has 2 shards splitting entries beyond 100 nodes; this shard is 1/3 with 100")
        );
        assert_eq!(
            message(shard_of(&puzzle, path, &axes, (2, 2), 200)),
            format!("{manifest}: the run has 2 shards splitting entries beyond 100 nodes; this shard is 2/2 with 200")
        );
        // The crosses without the T.
        let text = cross_text();
        let other = model(&text[..text.rfind("[[piece]]").unwrap()]);
        let (theirs, ours) = (model_digest(&puzzle), model_digest(&other));
        assert_eq!(
            message(shard_of(&other, path, &axes, (1, 2), 100)),
            format!(
                "{manifest}: the sweep of another model (digest {theirs}, this model's {ours})"
            )
        );
        assert_eq!(
            message(merge(&other, path, words)),
            format!(
                "{}: not the model of {manifest} (digest {ours}, the sweep's {theirs})",
                path.join("model.toml").display()
            )
        );
        // Shard 2 has not run: the merge names the box and the part missing.
        let part = path.join("box-6x8/shard-2-of-2.json");
        assert_eq!(
            message(merge(&puzzle, path, words)),
            format!("{}: missing (shard 2/2 of the round from scan position 48 has not written its part)", part.display())
        );
        let written = std::fs::read_to_string(path.join("sweep.json")).unwrap();
        let later = written.replace(FORMAT, "puzzlec-sweep-shards/2");
        std::fs::write(path.join("sweep.json"), later).unwrap();
        assert_eq!(
            message(shard_of(&puzzle, path, &axes, (1, 2), 100)),
            format!("{manifest}: format \"puzzlec-sweep-shards/2\", expected \"{FORMAT}\"")
        );
        std::fs::write(path.join("sweep.json"), "{\"format\": 1}\n").unwrap();
        assert!(
            message(shard_of(&puzzle, path, &axes, (1, 2), 100)).starts_with(&format!(
                "{manifest}: line 1: not a file of a sharded run: "
            ))
        );
    }

    #[test]
    fn a_box_folder_is_no_sweep_and_a_sweep_no_box() {
        let puzzle = model(&cross_text());
        let axes = boxes(6..=6, 7..=7);
        for name in ["table.json", "model.toml"] {
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join(name), "").unwrap();
            assert_eq!(
                message(shard_of(&puzzle, dir.path(), &axes, (1, 2), 100)),
                format!(
                    "{}: the folder of one box's run (solve --state), not of a sweep",
                    dir.path().join(name).display()
                )
            );
        }
        let dir = tempfile::tempdir().unwrap();
        shard_of(&puzzle, dir.path(), &axes, (1, 2), 100).unwrap();
        let options = DollOptions::default();
        let boxed = Puzzle::Packing(box_of(
            &puzzle,
            Instance {
                width: 6,
                height: 7,
            },
        ));
        let bytes = Some(&b"model"[..]);
        let error = box_shard::run_shard(
            &boxed,
            bytes,
            dir.path(),
            Shard { index: 1, count: 2 },
            100,
            &options,
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "{}: the folder of a sweep (sweep --state), not of one box",
                dir.path().join("sweep.json").display()
            )
        );
    }

    #[test]
    fn only_the_boxes_of_a_maximum_packing_are_shared() {
        let dir = tempfile::tempdir().unwrap();
        let tiles = model(&cross_text().replace("goal = \"maximise\"", "goal = \"tile\""));
        assert_eq!(
            message(shard_of(
                &tiles,
                dir.path(),
                &boxes(6..=6, 7..=7),
                (1, 2),
                100
            )),
            NOT_A_MAXIMUM_PACKING
        );
        let queens = model("kind = \"queens\"\nsize = 6\n");
        assert!(matches!(
            shard_of(&queens, dir.path(), &boxes(6..=6, 7..=7), (1, 2), 100),
            Err(SweepStateError::NotSweepable(NotSweepable::QueensByBox))
        ));
        // Nothing was written for either.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
