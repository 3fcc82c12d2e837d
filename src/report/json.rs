//! The `--json` documents, as `Serialize` structs. Each is turned into a
//! [`serde_json::Value`] (whose keys sort alphabetically) and given the
//! [`JSON_SCHEMA`](super::JSON_SCHEMA) key by [`document`]; `docs/json-schema.md` describes
//! every field.

use crate::base::shard::Shard;
use crate::base::{Goal, Size, Status};
use crate::driver::enumerate::{model_digest, CountOutcome, EnumerateOptions, Merged};
use crate::driver::Outcome;
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
    pub status: Status,
    /// Whether the status is settled (not cut short by a limit).
    pub proven: bool,
    /// The solution's objective value.
    pub value: Option<usize>,
    /// A proven upper bound.
    pub bound: Option<usize>,
    /// How the status was established.
    pub evidence: &'a str,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// What the backend worked on.
    pub size: &'a Size,
}

impl<'a> OutcomeRow<'a> {
    /// The row of `outcome`.
    pub fn of(outcome: &'a Outcome) -> OutcomeRow<'a> {
        OutcomeRow {
            backend: outcome.label(),
            status: outcome.status,
            proven: outcome.status.is_proven(),
            value: outcome.value,
            bound: outcome.bound,
            evidence: &outcome.evidence,
            seconds: outcome.elapsed.as_secs_f64(),
            size: &outcome.size,
        }
    }
}

/// The goal as `solve --json` records it.
#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GoalJson {
    /// `{"maximise": true}`
    Maximise(bool),
    /// `{"at_least": K}`
    AtLeast(usize),
}

impl From<Goal> for GoalJson {
    fn from(goal: Goal) -> GoalJson {
        match goal {
            Goal::Maximise => GoalJson::Maximise(true),
            Goal::AtLeast(k) => GoalJson::AtLeast(k),
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
            goal: goal.into(),
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
    /// Whether no two answers contradict each other.
    pub agree: bool,
    /// One row per backend.
    pub backends: Vec<OutcomeRow<'a>>,
}

/// A class size and how many classes have it.
#[derive(Serialize)]
pub struct ClassCount {
    /// Members per class.
    pub size: u64,
    /// Classes of that size.
    pub classes: u64,
}

/// A shard as `index/count`.
#[derive(Serialize)]
pub struct ShardJson {
    /// Which shard, from 1.
    pub index: u32,
    /// How many shards.
    pub count: u32,
}

/// `solve --count --json` (and `--all`, `--unique`): the count and how it was established.
#[derive(Serialize)]
pub struct CountReport {
    /// The model file.
    pub model: String,
    /// The identity of the instance, for checking that shards belong together.
    pub model_digest: String,
    /// The puzzle family.
    pub kind: &'static str,
    /// What was counted.
    pub goal: String,
    /// The backend that counted.
    pub backend: &'static str,
    /// The value of every counted solution.
    pub value: Option<usize>,
    /// The shard this run did.
    pub shard: Option<ShardJson>,
    /// Solutions counted.
    pub count: u64,
    /// Symmetry classes counted.
    pub unique_count: Option<u64>,
    /// The board's symmetries used.
    pub symmetries: usize,
    /// Classes by size.
    pub classes: Vec<ClassCount>,
    /// Whether the count is exact.
    pub complete: bool,
    /// How the count was established.
    pub evidence: String,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// With `--all`: every solution's grid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solutions: Option<Vec<serde_json::Value>>,
}

impl CountReport {
    /// The report of `outcome` for `puzzle` read from `path`.
    pub fn of(
        path: &Path,
        puzzle: &Puzzle,
        options: &EnumerateOptions,
        outcome: &CountOutcome,
    ) -> CountReport {
        CountReport {
            model: path.display().to_string(),
            model_digest: model_digest(puzzle),
            kind: puzzle.kind(),
            goal: count_goal(options),
            backend: outcome.backend.name(),
            value: outcome.value,
            shard: outcome.shard.map(shard_json),
            count: outcome.count,
            unique_count: outcome.unique_count,
            symmetries: outcome.symmetries,
            classes: class_counts(outcome.classes.iter().map(|(&s, &n)| (s as u64, n))),
            complete: outcome.complete,
            evidence: outcome.evidence.clone(),
            seconds: outcome.elapsed.as_secs_f64(),
            solutions: None,
        }
    }
}

fn shard_json(shard: Shard) -> ShardJson {
    ShardJson {
        index: shard.index,
        count: shard.count,
    }
}

fn class_counts(classes: impl Iterator<Item = (u64, u64)>) -> Vec<ClassCount> {
    classes
        .map(|(size, classes)| ClassCount { size, classes })
        .collect()
}

/// The goal of a count, as recorded in its JSON.
fn count_goal(options: &EnumerateOptions) -> String {
    let what = match options.at_least {
        Some(k) => format!("count at least {k}"),
        None => "count optimal".to_string(),
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

/// `check --json` of a certificate that holds.
#[derive(Serialize)]
pub struct CheckReport<'a> {
    /// The certificate folder.
    pub directory: String,
    /// Whether every check passed.
    pub valid: bool,
    /// One line per check that passed.
    pub steps: &'a [String],
    /// The certified claim, in words.
    pub conclusion: &'a str,
    /// Wall-clock seconds.
    pub seconds: f64,
}
