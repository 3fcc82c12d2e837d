//! The `--json` documents, as `Serialize` structs. Each is turned into a
//! [`serde_json::Value`] (whose keys sort alphabetically) and given the
//! [`JSON_SCHEMA`](super::JSON_SCHEMA) key by [`document`]; `docs/json-schema.md` describes
//! every field.

use crate::base::evidence::{CountEvidence, Evidence, PackingBound};
use crate::base::{Goal, Sense, Size, Status};
use crate::driver::enumerate::{model_digest, CountOutcome, EnumerateOptions, Merged};
use crate::driver::packing_bounds::PackingBounds;
use crate::driver::{CompareRow, Outcome};
pub use crate::formats::count_shard::ClassCount;
use crate::formats::count_shard::{CountShard, ShardPart};
use crate::puzzle::Puzzle;
use serde::Serialize;
use std::path::Path;

/// `value` with the schema key, ready to print.
pub fn document(value: impl Serialize) -> serde_json::Value {
    let mut value = serde_json::to_value(value).unwrap_or(serde_json::Value::Null);
    value["schema"] = serde_json::json!(super::JSON_SCHEMA);
    value
}

/// One backend's answer without the solution: a row of `compare --json`, and the base of
/// `solve --json`.
#[derive(Serialize)]
pub struct OutcomeRow<'a> {
    /// `sat`, `milp`, `native`, or `backend:solver` for an external solver.
    pub backend: String,
    /// How the run ended.
    pub status: StatusJson,
    /// Whether the status is settled (not cut short by a limit).
    pub proven: bool,
    /// The solution's objective value.
    pub value: Option<usize>,
    /// A proven upper bound.
    pub bound: Option<usize>,
    /// How the status was established, in words.
    pub evidence: String,
    /// How the status was established, as data (see [`Evidence`]); `None` for a row of
    /// `compare` with no answer.
    pub established: Option<&'a Evidence>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// What the backend worked on; `None` when no size is known (a run stopped before
    /// its backend reported one, or an answer settled before any model was built).
    pub size: Option<&'a Size>,
    /// A maximum packing's bounds known before the backend ran; `None` (and no key in the
    /// JSON, which other puzzles' outputs keep as before) for other puzzles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bounds: Option<BoundsJson>,
}

/// The bounds of a maximum packing known before any backend ran, in `--json`.
#[derive(Serialize)]
pub struct BoundsJson {
    /// The area bound: the cells some placement covers, filled with the smallest pieces
    /// first within their maxima.
    pub area: usize,
    /// The LP relaxation's optimum rounded down, when it was solved.
    pub lp: Option<usize>,
    /// The LP relaxation's optimum, when it was solved.
    pub lp_relaxation: Option<f64>,
    /// `solved`, `skipped` (too many placements), `unfinished` (the run ended first) or
    /// `unsolved` (the simplex gave no optimum).
    pub lp_status: &'static str,
}

impl BoundsJson {
    /// The JSON of `bounds`.
    pub fn of(bounds: &PackingBounds) -> BoundsJson {
        let (lp, lp_relaxation) = match bounds.lp_bound() {
            Some(PackingBound::Lp { value, relaxation }) => (Some(value), Some(relaxation)),
            _ => (None, None),
        };
        BoundsJson {
            area: bounds.area.value(),
            lp,
            lp_relaxation,
            lp_status: bounds.lp.name(),
        }
    }
}

/// A row's status: a [`Status`], or a word for a row of `compare` with no answer.
#[derive(Serialize)]
#[serde(untagged)]
pub enum StatusJson {
    /// How an answered run ended.
    Answer(Status),
    /// `error` or `not_run`.
    Other(&'static str),
}

impl<'a> OutcomeRow<'a> {
    /// The row of `outcome`.
    pub fn of(outcome: &'a Outcome) -> OutcomeRow<'a> {
        OutcomeRow {
            backend: outcome.label(),
            status: StatusJson::Answer(outcome.status),
            proven: outcome.status.is_proven(),
            value: outcome.value,
            bound: outcome.bound,
            evidence: outcome.evidence.to_string(),
            established: Some(&outcome.evidence),
            seconds: outcome.elapsed.as_secs_f64(),
            // An empty unit is `Size::default()`: no size was reported.
            size: (!outcome.size.unit.is_empty()).then_some(&outcome.size),
            bounds: outcome.bounds.as_ref().map(BoundsJson::of),
        }
    }
}

/// The goal as `solve --json` records it.
#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GoalJson {
    /// `{"maximise": true}`: the most a puzzle allows (queens, packing).
    Maximise(bool),
    /// `{"minimise": true}`: the fewest a puzzle allows (chess domination).
    Minimise(bool),
    /// `{"at_least": K}`
    AtLeast(usize),
    /// `{"at_most": K}`: for a puzzle that asks for the fewest, "at most K?" in its value
    /// (the goal on the model's score is "at least the free squares less K").
    AtMost(usize),
    /// `{"solve": true}`: find one solution of a puzzle without an objective (a
    /// dissection, a tiling).
    Solve(bool),
}

impl GoalJson {
    /// What `goal` asks of `puzzle`: maximising a puzzle without an objective is finding
    /// one solution.
    pub fn of(puzzle: &Puzzle, goal: Goal) -> GoalJson {
        match goal {
            Goal::Maximise if !puzzle.has_objective() => GoalJson::Solve(true),
            Goal::Maximise => match puzzle.sense() {
                Sense::Fewest { .. } => GoalJson::Minimise(true),
                Sense::Most => GoalJson::Maximise(true),
            },
            Goal::AtLeast(k) => match puzzle.sense() {
                sense @ Sense::Fewest { .. } => GoalJson::AtMost(sense.value(k)),
                Sense::Most => GoalJson::AtLeast(k),
            },
        }
    }
}

/// `solve --json`: the answer with the model, the goal and the solution.
#[derive(Serialize)]
pub struct SolveReport<'a> {
    /// The answer.
    #[serde(flatten)]
    pub row: OutcomeRow<'a>,
    /// The model file.
    pub model: String,
    /// The puzzle family.
    pub kind: &'static str,
    /// What was asked.
    pub goal: GoalJson,
    /// The solution, or `null` when there is none.
    pub solution: serde_json::Value,
}

impl<'a> SolveReport<'a> {
    /// The report of `outcome` for `puzzle` read from `path`.
    pub fn of(path: &Path, puzzle: &Puzzle, goal: Goal, outcome: &'a Outcome) -> SolveReport<'a> {
        SolveReport {
            row: OutcomeRow::of(outcome),
            model: path.display().to_string(),
            kind: puzzle.kind(),
            goal: GoalJson::of(puzzle, goal),
            solution: match &outcome.solution {
                Some(solution) if outcome.status != Status::Unsatisfiable => {
                    puzzle.solution_json(solution)
                }
                _ => serde_json::Value::Null,
            },
        }
    }
}

/// `compare --json`: every backend's row and whether they agree.
#[derive(Serialize)]
pub struct CompareReport<'a> {
    /// The model file.
    pub model: String,
    /// Whether no two proven answers contradict each other (an unproven answer only
    /// contradicts a proven optimum it exceeds).
    pub agree: bool,
    /// Whether every row ran and proved its answer, so `agree` speaks for all of them.
    pub all_proven: bool,
    /// Whether every row ran (`false`: Ctrl-C stopped the comparison).
    pub complete: bool,
    /// One row per backend.
    pub backends: Vec<CompareRowJson<'a>>,
}

/// One row of `compare --json`: an answer, or a failure or a row not run (status `error`
/// or `not_run`, with nulls for what it did not find).
#[derive(Serialize)]
pub struct CompareRowJson<'a> {
    /// The answer's fields; for a failure or a row not run, `status` is `error` or
    /// `not_run` and `evidence` says why.
    #[serde(flatten)]
    pub row: OutcomeRow<'a>,
    /// What went wrong, for a failed row; `null` otherwise.
    pub error: Option<&'a str>,
}

impl<'a> CompareRowJson<'a> {
    /// The JSON row of `row`.
    pub fn of(row: &'a CompareRow) -> CompareRowJson<'a> {
        let empty =
            |label: String, status: &'static str, evidence: &'a str, seconds: f64| OutcomeRow {
                backend: label,
                status: StatusJson::Other(status),
                proven: false,
                value: None,
                bound: None,
                evidence: evidence.to_string(),
                established: None,
                seconds,
                size: None,
                bounds: None,
            };
        match row {
            CompareRow::Answered(outcome) => CompareRowJson {
                row: OutcomeRow::of(outcome),
                error: None,
            },
            CompareRow::Failed {
                label,
                error,
                elapsed,
            } => CompareRowJson {
                row: empty(label.clone(), "error", error, elapsed.as_secs_f64()),
                error: Some(error),
            },
            CompareRow::NotRun { label } => CompareRowJson {
                row: empty(
                    label.clone(),
                    "not_run",
                    "not run: the comparison was interrupted",
                    0.0,
                ),
                error: None,
            },
        }
    }
}

/// `solve --count --json` (and `--all`, `--unique`): the count and how it was established,
/// in the count shard format that `merge` reads back.
pub type CountReport = CountShard<CountEvidence>;

/// The report of `outcome` for `puzzle` read from `path`.
pub fn count_report(
    path: &Path,
    puzzle: &Puzzle,
    options: &EnumerateOptions,
    outcome: &CountOutcome,
) -> CountReport {
    CountShard {
        model: path.display().to_string(),
        model_digest: model_digest(puzzle),
        kind: puzzle.kind().to_string(),
        goal: count_goal(options),
        backend: outcome.backend.name().to_string(),
        value: outcome.value.map(|v| v as u64),
        shard: outcome.shard.map(|shard| ShardPart {
            index: shard.index.into(),
            count: shard.count.into(),
        }),
        count: outcome.count,
        unique_count: outcome.unique_count,
        symmetries: outcome.symmetries as u64,
        classes: class_counts(outcome.classes.iter().map(|(&s, &n)| (s as u64, n))),
        complete: outcome.complete,
        evidence: outcome.evidence.to_string(),
        established: outcome.evidence.clone(),
        seconds: outcome.elapsed.as_secs_f64(),
        solutions: None,
    }
}

fn class_counts(classes: impl Iterator<Item = (u64, u64)>) -> Vec<ClassCount> {
    classes
        .map(|(size, classes)| ClassCount { size, classes })
        .collect()
}

/// The goal of a count, as recorded in its JSON.
fn count_goal(options: &EnumerateOptions) -> String {
    let what = match (options.at_least, options.at_most) {
        (Some(k), _) => format!("count at least {k}"),
        (None, Some(k)) => format!("count at most {k}"),
        (None, None) => "count optimal".to_string(),
    };
    if options.unique {
        format!("{what}, unique")
    } else {
        what
    }
}

/// `merge --json`: the total of shard counts.
#[derive(Serialize)]
pub struct MergeReport {
    /// The model file named by the shards.
    pub model: String,
    /// The value of every counted solution.
    pub value: Option<u64>,
    /// The number of shards.
    pub shards: u32,
    /// The total count.
    pub count: u64,
    /// The total number of symmetry classes.
    pub unique_count: Option<u64>,
    /// Classes by size, summed.
    pub classes: Vec<ClassCount>,
    /// Always true: every shard was given once.
    pub complete: bool,
}

impl MergeReport {
    /// The report of a merge.
    pub fn of(merged: &Merged) -> MergeReport {
        MergeReport {
            model: merged.model.clone(),
            value: merged.value,
            shards: merged.shards,
            count: merged.count,
            unique_count: merged.unique_count,
            classes: class_counts(merged.classes.iter().map(|(&s, &n)| (s, n))),
            complete: true,
        }
    }
}

/// `check --json`: what was checked, or why the certificate fails.
#[derive(Serialize)]
pub struct CheckReport<'a> {
    /// The certificate folder.
    pub directory: String,
    /// Whether every check passed and the claim is certified (`false` for a streamed run
    /// under way, whose records may all hold).
    pub valid: bool,
    /// One line per check that passed (empty when the check failed).
    pub steps: &'a [String],
    /// The certified claim, in words (of a run under way, how far its records go); `None`
    /// when the check failed.
    pub conclusion: Option<&'a str>,
    /// Why the check failed; absent when it holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'a str>,
    /// Wall-clock seconds.
    pub seconds: f64,
}
