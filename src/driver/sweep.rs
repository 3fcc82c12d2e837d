//! Sweeps: one model solved over a range of sizes, one row per instance (optimum, how it was
//! established, time), in a deterministic order that `--shard I/N` splits and [`merge`]
//! puts back together.
//!
//! Each family says which sizes it sweeps over, how its model is resized and how a shard's
//! instances are solved ([`SweepFamily`], in a file of its name in `sweep/`): a packing
//! model must be an open box (`width` and `height`, no blocked cell), swept over every
//! `width x height` with `width <= height` in the ranges (a box and its transpose have the
//! same answer), its maximum packings run natively reading the shorter boxes of a width off
//! the tallest one's Russian-doll table; a queens model must be an empty square board
//! (`size = N`), swept over N; a chess model an empty board, square or not.

use std::ops::RangeInclusive;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::base::error::{NamesSettings, Setting};
use crate::base::shard::{Shard, ShardFiles, ShardSet, ShardSetError};
use crate::base::{Control, Evidence, Goal};
use crate::driver::{solve, Backend, Outcome, SolveError};
use crate::puzzle::{each_family, Family, Puzzle};

mod chess;
mod dissection;
mod packing;
mod queens;

/// The sizes a sweep visits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SweepAxes {
    /// Packing boxes `width x height` with `width <= height`.
    Boxes {
        /// The widths.
        widths: RangeInclusive<usize>,
        /// The heights.
        heights: RangeInclusive<usize>,
    },
    /// Queens boards `n x n`.
    Sizes(RangeInclusive<usize>),
}

/// One instance of a sweep: a box or a board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Instance {
    /// Columns (the box's short side, or N).
    pub width: usize,
    /// Rows (the box's long side, or N).
    pub height: usize,
}

/// One row of a sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepRow {
    /// Position in the whole sweep's deterministic order (shards keep it).
    pub index: usize,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// `optimal`, `feasible` (stopped with a solution), `unknown` (stopped without),
    /// `unsatisfiable`, `satisfiable`.
    pub status: String,
    /// Whether the answer is proved (not cut short by the time limit).
    pub proven: bool,
    /// The optimum when proved, else the best value found.
    pub value: Option<usize>,
    /// The proven upper bound, when known.
    pub bound: Option<usize>,
    /// The backend that answered.
    pub backend: String,
    /// How the answer was established (the backend's evidence), as data: `established` in
    /// the JSON, beside the `evidence` in words that `report::sweep` adds.
    #[serde(rename = "established")]
    pub evidence: Evidence,
    /// Wall-clock time of the instance.
    pub seconds: f64,
}

impl SweepRow {
    /// The instance's name: `13 x 19`.
    pub fn name(&self) -> String {
        format!("{} x {}", self.width, self.height)
    }

    pub(crate) fn of(index: usize, instance: Instance, outcome: &Outcome) -> SweepRow {
        SweepRow {
            index,
            width: instance.width,
            height: instance.height,
            status: outcome.status.name().to_string(),
            proven: outcome.status.is_proven(),
            value: outcome.value,
            bound: outcome.bound,
            backend: outcome.label(),
            evidence: outcome.evidence.clone(),
            seconds: outcome.elapsed.as_secs_f64(),
        }
    }
}

/// A whole sweep, or one shard of it: what `sweep --json` prints and [`merge`] reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepReport {
    /// Always `"sweep"`, so that `merge` can tell sweeps from counts.
    pub command: String,
    /// The model file, as given.
    pub model: String,
    /// The model's family.
    pub kind: String,
    /// The swept axes: `width` and `height` (packing) or `size` (queens), each `[first,
    /// last]`.
    pub axes: Axes,
    /// The per-instance time limit in seconds, if any.
    pub time_limit: Option<f64>,
    /// The shard, `null` for the whole sweep.
    pub shard: Option<Shard>,
    /// Instances in the whole sweep (all shards).
    pub instances: usize,
    /// The rows of this shard (all rows when not sharded), in sweep order.
    pub rows: Vec<SweepRow>,
    /// Rows stopped by the time limit (not proved).
    pub stopped: usize,
}

/// The swept ranges as written in JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Axes {
    /// Widths `[first, last]` (packing).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub width: Option<[usize; 2]>,
    /// Heights `[first, last]` (packing).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub height: Option<[usize; 2]>,
    /// Board sizes `[first, last]` (queens).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub size: Option<[usize; 2]>,
}

impl SweepAxes {
    /// Every instance, in sweep order: by width, then height (packing); by N (queens).
    pub fn instances(&self) -> Vec<Instance> {
        match self {
            SweepAxes::Boxes { widths, heights } => widths
                .clone()
                .flat_map(|w| {
                    heights
                        .clone()
                        .filter(move |&h| w <= h)
                        .map(move |h| Instance {
                            width: w,
                            height: h,
                        })
                })
                .collect(),
            SweepAxes::Sizes(sizes) => sizes
                .clone()
                .map(|n| Instance {
                    width: n,
                    height: n,
                })
                .collect(),
        }
    }

    pub(crate) fn json(&self) -> Axes {
        let pair = |r: &RangeInclusive<usize>| Some([*r.start(), *r.end()]);
        match self {
            SweepAxes::Boxes { widths, heights } => Axes {
                width: pair(widths),
                height: pair(heights),
                size: None,
            },
            SweepAxes::Sizes(sizes) => Axes {
                width: None,
                height: None,
                size: pair(sizes),
            },
        }
    }
}

/// Why [`parse_range`] refused a range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid range {text:?}: {problem}")]
pub struct RangeError {
    /// The range as given.
    pub text: String,
    /// What is wrong with it.
    pub problem: RangeProblem,
}

/// What is wrong with a range (see [`RangeError`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RangeProblem {
    /// Not `A..=B`, `A..B` or `N` with whole numbers.
    #[error("expected A..=B, A..B or N (whole numbers)")]
    Syntax,
    /// It holds no size.
    #[error("it is empty")]
    Empty,
    /// It starts at 0.
    #[error("sizes start at 1")]
    Zero,
}

/// Parses a range `A..=B`, `A..B` (B excluded) or a single `N`.
pub fn parse_range(text: &str) -> Result<RangeInclusive<usize>, RangeError> {
    let bad = |problem| RangeError {
        text: text.to_string(),
        problem,
    };
    let number = |s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| bad(RangeProblem::Syntax))
    };
    let range = if let Some((a, b)) = text.split_once("..=") {
        number(a)?..=number(b)?
    } else if let Some((a, b)) = text.split_once("..") {
        let b = number(b)?;
        if b == 0 {
            return Err(bad(RangeProblem::Empty));
        }
        number(a)?..=b - 1
    } else {
        let n = number(text)?;
        n..=n
    };
    if range.is_empty() {
        return Err(bad(RangeProblem::Empty));
    }
    if *range.start() == 0 {
        return Err(bad(RangeProblem::Zero));
    }
    Ok(range)
}

/// What a sweep was asked, besides the model.
#[derive(Clone, Debug)]
pub struct SweepOptions {
    /// The sizes.
    pub axes: SweepAxes,
    /// Per-instance time limit.
    pub time_limit: Option<Duration>,
    /// Only this shard's rows.
    pub shard: Option<Shard>,
    /// The backend (`None`: the one preferred for the family).
    pub backend: Option<Backend>,
}

/// Why a model cannot be swept over the sizes asked (a usage error: the command line exits
/// 2). The settings swept are named as [`NamesSettings`] words them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotSweepable {
    /// A packing model whose box has blocked cells.
    #[error("a packing sweep needs an open box (width and height, no blocked cell), not a region")]
    PackingRegion,
    /// A packing model asked to sweep `--size`.
    #[error("{}", self.describe(&Setting::name))]
    PackingBySize,
    /// A queens model whose board is not an empty square.
    #[error("a queens sweep needs an empty square board (size = N), not a board with obstacles")]
    QueensObstacles,
    /// A queens model asked to sweep `--width` and `--height`.
    #[error("{}", self.describe(&Setting::name))]
    QueensByBox,
    /// A dissection model.
    #[error("dissection models cannot be swept")]
    Dissection,
    /// A chess model whose board has obstacles.
    #[error("a chess sweep needs an empty board (size = N, or width and height), not a board with obstacles")]
    ChessObstacles,
}

impl NamesSettings for NotSweepable {
    fn describe(&self, name: &dyn Fn(Setting) -> String) -> String {
        let (model, swept, not) = match self {
            NotSweepable::PackingBySize => ("packing", Setting::WidthAndHeight, Setting::Size),
            NotSweepable::QueensByBox => ("queens", Setting::Size, Setting::WidthAndHeight),
            other => return other.to_string(),
        };
        format!(
            "a {model} model sweeps over {}, not {}",
            name(swept),
            name(not)
        )
    }
}

/// Why [`sweep`] stopped without a report.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// The model cannot be swept over these sizes.
    #[error(transparent)]
    NotSweepable(#[from] NotSweepable),
    /// An instance's solve failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

/// What a family answers for a sweep: the sizes it can be swept over, its model resized to
/// each, and how a shard's instances are solved. Each family implements it once, in a
/// file of its name in `sweep/`; [`sweep`] dispatches over the registration list.
pub trait SweepFamily: Family + Into<Puzzle> {
    /// Checks that the model can be swept over `axes`, saying why not.
    fn check_sweepable(&self, axes: &SweepAxes) -> Result<(), NotSweepable>;

    /// The model resized to `instance` (of axes [`SweepFamily::check_sweepable`] accepted).
    fn resized(&self, instance: Instance) -> Self;

    /// Solves this shard's instances (`owned`: each with its index in the sweep) and gives
    /// their rows in sweep order, handing each to the run as it is done; by default each
    /// instance on its own ([`solve_each`]).
    fn sweep_rows(
        &self,
        owned: &[(usize, Instance)],
        run: &mut SweepRun<'_>,
    ) -> Result<Vec<SweepRow>, SolveError> {
        solve_each(self, owned, run)
    }
}

/// What every instance of a sweep is run with: the backend, each instance's own time
/// limit, the stop signal (Ctrl-C) and where each finished row goes.
pub struct SweepRun<'a> {
    /// The backend.
    pub backend: Backend,
    time_limit: Option<Duration>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    row_done: &'a mut dyn FnMut(&SweepRow),
}

impl SweepRun<'_> {
    /// A fresh control for one instance: its own time limit, the sweep's stop signal.
    pub fn control(&self) -> Control {
        Control::new(self.stop.clone(), self.time_limit)
    }

    /// Whether the sweep was stopped (the rows not run are left out).
    pub fn stopped(&self) -> bool {
        self.stop.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The row of instance `index` is done: handed on, and returned.
    pub fn done(&mut self, index: usize, instance: Instance, outcome: &Outcome) -> SweepRow {
        let row = SweepRow::of(index, instance, outcome);
        (self.row_done)(&row);
        row
    }
}

/// The rows of a family that shares nothing between instances: each instance resized,
/// solved on its own and reported in order, until the sweep is stopped.
pub fn solve_each<F: SweepFamily>(
    family: &F,
    owned: &[(usize, Instance)],
    run: &mut SweepRun<'_>,
) -> Result<Vec<SweepRow>, SolveError> {
    let mut rows = Vec::new();
    for &(index, instance) in owned {
        if run.stopped() {
            break;
        }
        let puzzle = family.resized(instance).into();
        let outcome = solve(&puzzle, run.backend, SWEEP_GOAL, &run.control())?;
        rows.push(run.done(index, instance, &outcome));
    }
    Ok(rows)
}

/// What every instance is solved for: without an objective (a tiling) Maximise asks for
/// any solution.
const SWEEP_GOAL: Goal = Goal::Maximise;

/// Checks that `puzzle` can be swept over `axes`, saying why not.
pub fn check_sweepable(puzzle: &Puzzle, axes: &SweepAxes) -> Result<(), NotSweepable> {
    each_family!(puzzle, p => p.check_sweepable(axes))
}

/// The model resized to `instance`.
pub(crate) fn resized(puzzle: &Puzzle, instance: Instance) -> Puzzle {
    each_family!(puzzle, p => p.resized(instance).into())
}

/// Runs the sweep (this shard's rows), calling `row_done` after each row. Each instance gets
/// its own `--time-limit`; `stop` (Ctrl-C) ends the sweep, the rows not run are left out.
pub fn sweep(
    model: &str,
    puzzle: &Puzzle,
    options: &SweepOptions,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    mut row_done: impl FnMut(&SweepRow),
) -> Result<SweepReport, SweepError> {
    check_sweepable(puzzle, &options.axes)?;
    let instances = options.axes.instances();
    let backend = options
        .backend
        .unwrap_or_else(|| Backend::preferred_for(puzzle));
    let owned: Vec<(usize, Instance)> = instances
        .iter()
        .copied()
        .enumerate()
        .filter(|&(index, _)| options.shard.is_none_or(|s| s.owns(index)))
        .collect();
    let mut run = SweepRun {
        backend,
        time_limit: options.time_limit,
        stop,
        row_done: &mut row_done,
    };
    let rows = each_family!(puzzle, p => p.sweep_rows(&owned, &mut run))?;
    Ok(SweepReport {
        command: "sweep".into(),
        model: model.to_string(),
        kind: kind_name(puzzle).into(),
        axes: options.axes.json(),
        time_limit: options.time_limit.map(|t| t.as_secs_f64()),
        shard: options.shard,
        instances: instances.len(),
        stopped: rows.iter().filter(|r| !r.proven).count(),
        rows,
    })
}

fn kind_name(puzzle: &Puzzle) -> &'static str {
    puzzle.kind()
}

/// Whether `text` is a sweep's JSON (so `merge` reads it as one).
pub fn is_sweep_json(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text)
        .is_ok_and(|v| v.get("command").and_then(|c| c.as_str()) == Some("sweep"))
}

/// Why [`merge`] refused sweep shards (bad input: the command line exits 2).
#[derive(Debug, thiserror::Error)]
pub enum SweepMergeError {
    /// A file is not a sweep's JSON.
    #[error("{file}: not the JSON of a sweep: {error}")]
    NotASweep {
        /// The file, as named.
        file: String,
        /// Why it does not read as one.
        #[source]
        error: serde_json::Error,
    },
    /// A file is a shard written before rows said how each answer was established as data
    /// (`established`): its rows give it in words only (`evidence`), which the other
    /// fields do not determine, so the rows cannot be read back.
    #[error("{file}: a sweep shard from an older puzzlec, whose rows say how each answer was established in words only (no `established`): run that shard again to merge it")]
    WordsOnly {
        /// The file, as named.
        file: String,
    },
    /// A file is a shard of another sweep (model, family, sizes, time limit or instance
    /// count differ) than the first file.
    #[error("{file} is a different sweep from {first} (model, sizes or time limit differ)")]
    DifferentSweep {
        /// The file.
        file: String,
        /// The first file.
        first: String,
    },
    /// The files are not the shards of one split, each given once, none missing, none cut
    /// short (no file at all, a bad shard, another split, a shard twice, a shard missing,
    /// rows missing).
    #[error(transparent)]
    Shards(#[from] ShardSetError),
}

/// Puts the shards of one sweep back together: every file must be a shard of the same
/// sweep (model, family, axes, time limit, shard count), each shard given once and none
/// missing. `inputs` are (file name, JSON text). The rows come out in sweep order.
pub fn merge(inputs: &[(String, String)]) -> Result<SweepReport, SweepMergeError> {
    let mut parts: Vec<(String, SweepReport)> = Vec::new();
    for (name, text) in inputs {
        let report: SweepReport = serde_json::from_str(text).map_err(|error| {
            if rows_in_words_only(text) {
                SweepMergeError::WordsOnly { file: name.clone() }
            } else {
                SweepMergeError::NotASweep {
                    file: name.clone(),
                    error,
                }
            }
        })?;
        parts.push((name.clone(), report));
    }
    let mut shards: ShardSet<&SweepReport> = ShardSet::new(ShardFiles::Sweeps);
    for (name, part) in &parts {
        if let Some(first) = shards.first() {
            let same = part.model == first.model
                && part.kind == first.kind
                && part.axes == first.axes
                && part.time_limit == first.time_limit
                && part.instances == first.instances;
            if !same {
                return Err(SweepMergeError::DifferentSweep {
                    file: name.clone(),
                    first: parts[0].0.clone(),
                });
            }
        }
        let shard = part.shard.unwrap_or(Shard { index: 1, count: 1 });
        let shard = shards.shard(name, shard.index.into(), shard.count.into())?;
        shards.insert(name, shard, part)?;
    }
    let (_, parts) = shards.complete()?;
    let first = parts[0];
    let mut rows: Vec<SweepRow> = parts.iter().flat_map(|p| p.rows.clone()).collect();
    rows.sort_by_key(|r| r.index);
    if rows.len() != first.instances || rows.iter().enumerate().any(|(i, r)| r.index != i) {
        return Err(ShardSetError::RowsMissing {
            rows: rows.len(),
            instances: first.instances,
        }
        .into());
    }
    Ok(SweepReport {
        command: "sweep".into(),
        model: first.model.clone(),
        kind: first.kind.clone(),
        axes: first.axes.clone(),
        time_limit: first.time_limit,
        shard: None,
        instances: first.instances,
        stopped: rows.iter().filter(|r| !r.proven).count(),
        rows,
    })
}

/// Whether `text` is a sweep's JSON whose rows give their evidence in words alone (an
/// `evidence` string, no `established` data), as sweeps wrote it before `established`.
/// The evidence's data (search nodes, bounds, the solver's counts) is in none of the other
/// fields, so such a row cannot be read back.
fn rows_in_words_only(text: &str) -> bool {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
        return false;
    };
    let rows = value.get("rows").and_then(|r| r.as_array());
    value.get("command").and_then(|c| c.as_str()) == Some("sweep")
        && rows.is_some_and(|rows| {
            rows.iter().any(|row| {
                row.get("established").is_none()
                    && row.get("evidence").is_some_and(|e| e.is_string())
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_parse() {
        assert_eq!(parse_range("5..=16"), Ok(5..=16));
        assert_eq!(parse_range("5..16"), Ok(5..=15));
        assert_eq!(parse_range("7"), Ok(7..=7));
        assert_eq!(
            parse_range("9..=5").map_err(|e| e.to_string()),
            Err("invalid range \"9..=5\": it is empty".into())
        );
        assert!(parse_range("a..b").is_err());
        assert!(parse_range("0..=3").is_err());
        let problem = |text| parse_range(text).unwrap_err().problem;
        assert_eq!(problem("a..b"), RangeProblem::Syntax);
        assert_eq!(problem("3..1"), RangeProblem::Empty);
        assert_eq!(problem("0..=3"), RangeProblem::Zero);
        assert_eq!(
            parse_range("0..=3").unwrap_err().to_string(),
            "invalid range \"0..=3\": sizes start at 1"
        );
    }

    /// A queens sweep over the sizes `sizes`, of the shard and rows given.
    fn queens_sweep(
        sizes: RangeInclusive<usize>,
        shard: Option<Shard>,
        rows: Vec<SweepRow>,
    ) -> SweepReport {
        SweepReport {
            command: "sweep".into(),
            model: "m.toml".into(),
            kind: "queens".into(),
            instances: sizes.clone().count(),
            axes: SweepAxes::Sizes(sizes).json(),
            time_limit: None,
            shard,
            rows,
            stopped: 0,
        }
    }

    #[test]
    fn merge_names_the_missing_shard() {
        let report = queens_sweep(4..=6, Some(Shard { index: 1, count: 3 }), Vec::new());
        let text = serde_json::to_string(&report).unwrap();
        let error = merge(&[("a.json".into(), text)]).unwrap_err();
        assert!(
            matches!(
                &error,
                SweepMergeError::Shards(ShardSetError::Missing { missing, count: 3, .. })
                    if missing[0] == 2
            ),
            "{error:?}"
        );
        assert_eq!(error.to_string(), "shard 2/3 is missing");
    }

    #[test]
    fn a_shard_whose_rows_give_their_evidence_in_words_only_is_refused_by_name() {
        let row = SweepRow {
            index: 0,
            width: 4,
            height: 4,
            status: "optimal".into(),
            proven: true,
            value: Some(2),
            bound: Some(2),
            backend: "native".into(),
            evidence: Evidence::QueensConstruction { n: 4 },
            seconds: 0.0,
        };
        let report = queens_sweep(4..=4, None, vec![row]);
        let mut value = serde_json::to_value(&report).unwrap();
        let text = value.to_string();
        assert!(merge(&[("new.json".into(), text)]).is_ok());
        // As sweeps wrote their rows before `established`: the evidence in words alone.
        let row = &mut value["rows"][0];
        row.as_object_mut().unwrap().remove("established");
        row["evidence"] = "an explicit construction of 4 queens".into();
        let error = merge(&[("old.json".into(), value.to_string())]).unwrap_err();
        assert!(
            matches!(&error, SweepMergeError::WordsOnly { file } if file == "old.json"),
            "{error:?}"
        );
        let line = error.to_string();
        assert!(line.starts_with("old.json: a sweep shard from an older puzzlec"));
        assert!(!line.contains('\n'));
        // Anything else that does not read is still not a sweep.
        let error = merge(&[("bad.json".into(), "{}".into())]).unwrap_err();
        assert!(
            matches!(error, SweepMergeError::NotASweep { .. }),
            "{error:?}"
        );
    }

    #[test]
    fn boxes_are_visited_short_side_first_in_a_fixed_order() {
        let axes = SweepAxes::Boxes {
            widths: 5..=7,
            heights: 6..=7,
        };
        let names: Vec<(usize, usize)> = axes
            .instances()
            .iter()
            .map(|i| (i.width, i.height))
            .collect();
        assert_eq!(names, [(5, 6), (5, 7), (6, 6), (6, 7), (7, 7)]);
    }
}
