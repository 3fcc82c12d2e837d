//! The shared vocabulary of every layer: what is asked ([`Goal`]), how a run ended
//! ([`Status`]), when to stop ([`Control`]), the best answer so far ([`Incumbent`]), a
//! backend's raw answer ([`RawOutcome`]) and its size ([`Size`]), which way a value goes
//! ([`Sense`]); with bad-input errors,
//! work shards and digests, and the plumbing a streamed proof needs: a pipe between threads,
//! a file with no name (in memory, or in a scratch folder), and what a process or thread used.

pub mod digest;
pub mod error;
pub mod evidence;
pub mod pipe;
pub mod sense;
pub mod shard;
pub mod unnamed_file;
pub mod usage;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use evidence::{Evidence, Stop};
pub use sense::Sense;

/// What is asked of a puzzle.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Find the best solution and prove no better one exists.
    Maximise,
    /// Decide whether a solution of value at least `k` exists.
    AtLeast(usize),
}

/// How a run ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The best value was found and proved best.
    Optimal,
    /// The decision question was answered yes, with a witness.
    Satisfiable,
    /// No solution meets the question (the decision bound, or the hard rules).
    Unsatisfiable,
    /// A solution was found but the run stopped before proving it best.
    Feasible,
    /// The run stopped before finding anything.
    Unknown,
}

impl Status {
    /// The status as printed.
    pub fn name(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::Satisfiable => "satisfiable",
            Status::Unsatisfiable => "unsatisfiable",
            Status::Feasible => "feasible",
            Status::Unknown => "unknown",
        }
    }

    /// The answer in a few words, given the value found: "optimal 20", "unsatisfiable".
    pub fn answer(self, value: Option<usize>) -> String {
        match (self, value) {
            (Status::Unsatisfiable | Status::Unknown, _) | (_, None) => self.name().to_string(),
            (status, Some(value)) => format!("{} {value}", status.name()),
        }
    }

    /// Whether the answer is settled (not cut short by a limit).
    pub fn is_proven(self) -> bool {
        matches!(
            self,
            Status::Optimal | Status::Satisfiable | Status::Unsatisfiable
        )
    }
}

/// Where a long run reports how it is going. The library never prints: the command line
/// implements this and shows it on stderr; a run without one is silent.
pub trait ProgressSink: Send + Sync {
    /// A line about a search under way: the best so far, the bound, the time.
    fn note(&self, line: &str);
    /// `done` of `total` units of work (counting subproblems) are finished.
    fn advance(&self, done: u64, total: u64);
    /// The units of work are all done (a progress bar can clear itself).
    fn finish(&self);
}

/// The default memory limit (`--max-memory`): 4 GiB, half of an 8 GB laptop.
pub const DEFAULT_MAX_MEMORY: u64 = 4 << 30;

/// When a run must stop (a deadline, or an outside request such as Ctrl-C), where it
/// reports its progress, and how much memory its searches may take.
#[derive(Clone, Default)]
pub struct Control {
    stop: Arc<AtomicBool>,
    deadline: Option<Instant>,
    progress: Option<Arc<dyn ProgressSink>>,
    /// The memory limit in bytes (`None`: [`DEFAULT_MAX_MEMORY`]).
    memory: Option<u64>,
}

impl std::fmt::Debug for Control {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Control")
            .field("stop", &self.stop)
            .field("deadline", &self.deadline)
            .field("progress", &self.progress.is_some())
            .field("memory", &self.memory)
            .finish()
    }
}

impl Control {
    /// No limit.
    pub fn unlimited() -> Control {
        Control::default()
    }

    /// Stops at `limit` from now, if given, or when `stop` is set.
    pub fn new(stop: Arc<AtomicBool>, limit: Option<Duration>) -> Control {
        Control {
            stop,
            deadline: limit.map(|l| Instant::now() + l),
            progress: None,
            memory: None,
        }
    }

    /// The same limits, with `bytes` as the memory limit (`--max-memory`).
    pub fn with_memory(self, bytes: u64) -> Control {
        Control {
            memory: Some(bytes),
            ..self
        }
    }

    /// The memory limit in bytes: what a search sizes its tables by.
    pub fn max_memory(&self) -> u64 {
        self.memory.unwrap_or(DEFAULT_MAX_MEMORY)
    }

    /// The same limits, reporting progress to `sink`.
    pub fn with_progress(self, sink: Arc<dyn ProgressSink>) -> Control {
        Control {
            progress: Some(sink),
            ..self
        }
    }

    /// The same deadline and progress sink with a stop flag of its own: a search run beside
    /// others (a portfolio) is stopped through it without stopping its caller, who passes
    /// its own stop on by setting the flag.
    pub fn with_stop(&self, stop: Arc<AtomicBool>) -> Control {
        Control {
            stop,
            ..self.clone()
        }
    }

    /// The same limits without the progress sink (a search run beside another whose notes
    /// are the ones shown).
    pub fn silent(&self) -> Control {
        Control {
            progress: None,
            ..self.clone()
        }
    }

    /// Reports a line about a search under way (nothing without a progress sink).
    pub fn note(&self, line: &str) {
        if let Some(sink) = &self.progress {
            sink.note(line);
        }
    }

    /// Reports `done` of `total` units of work (nothing without a progress sink).
    pub fn advance(&self, done: u64, total: u64) {
        if let Some(sink) = &self.progress {
            sink.advance(done, total);
        }
    }

    /// Reports that the units of work are all done.
    pub fn finish_progress(&self) {
        if let Some(sink) = &self.progress {
            sink.finish();
        }
    }

    /// Whether the run should stop now.
    pub fn should_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The time left before the deadline, if there is one.
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// The stop flag, for searches that poll it in their inner loop.
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// Why the run stopped early.
    pub fn stop(&self) -> Stop {
        if self.stop.load(Ordering::Relaxed) {
            Stop::Interrupted
        } else {
            Stop::TimeLimit
        }
    }

    /// Why the run stopped early, in words.
    pub fn reason(&self) -> &'static str {
        self.stop().reason()
    }
}

/// The best answer a backend has so far, shared so a stopped run keeps it.
#[derive(Debug, Default)]
pub struct Incumbent<T> {
    best: Mutex<Option<(T, usize)>>,
}

impl<T: Clone> Incumbent<T> {
    /// An empty incumbent.
    pub fn new() -> Incumbent<T> {
        Incumbent {
            best: Mutex::new(None),
        }
    }

    /// Records `candidate` of `value` when it beats the best so far.
    pub fn offer(&self, candidate: &T, value: usize) {
        let mut best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        if best.as_ref().is_none_or(|(_, v)| value > *v) {
            *best = Some((candidate.clone(), value));
        }
    }

    /// The best so far, with its value.
    pub fn best(&self) -> Option<(T, usize)> {
        self.best.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// The size of what a backend worked on, for reports.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Size {
    /// Variables (model and auxiliary), or 0 where the backend has none.
    pub variables: usize,
    /// Clauses, rows or search nodes, as `unit` says.
    pub constraints: usize,
    /// What `constraints` counts: "clauses", "rows" or "nodes".
    pub unit: &'static str,
}

impl Size {
    /// A formula of `variables` variables and `clauses` clauses.
    pub fn clauses(variables: usize, clauses: usize) -> Size {
        Size {
            variables,
            constraints: clauses,
            unit: "clauses",
        }
    }

    /// A search that visited `nodes` nodes.
    pub fn nodes(nodes: u64) -> Size {
        Size {
            variables: 0,
            constraints: nodes as usize,
            unit: "nodes",
        }
    }
}

/// A backend's raw answer, before decoding: the witness is a model assignment (SAT, MILP)
/// or a solution (native).
#[derive(Clone, Debug)]
pub struct RawOutcome<W> {
    /// How the run ended.
    pub status: Status,
    /// The best witness found.
    pub witness: Option<W>,
    /// A proven upper bound on the objective, when known.
    pub bound: Option<usize>,
    /// How the status was established.
    pub evidence: Evidence,
    /// The size of the backend's problem.
    pub size: Size,
}

impl<W> RawOutcome<W> {
    /// The best value, proved: `witness` has `value` and nothing has more.
    pub fn optimal(witness: W, value: usize, evidence: Evidence, size: Size) -> Self {
        RawOutcome {
            status: Status::Optimal,
            witness: Some(witness),
            bound: Some(value),
            evidence,
            size,
        }
    }

    /// A yes to the question, with `witness` (or, without an objective, any solution).
    pub fn satisfiable(witness: W, evidence: Evidence, size: Size) -> Self {
        RawOutcome {
            status: Status::Satisfiable,
            witness: Some(witness),
            bound: None,
            evidence,
            size,
        }
    }

    /// No solution meets the question; `bound` is the proven upper bound, when known.
    pub fn unsatisfiable(bound: Option<usize>, evidence: Evidence, size: Size) -> Self {
        RawOutcome {
            status: Status::Unsatisfiable,
            witness: None,
            bound,
            evidence,
            size,
        }
    }

    /// A run stopped before it proved anything: feasible with the best solution so far,
    /// unknown without one; `bound` is a proven upper bound, when known.
    pub fn stopped(best: Option<W>, bound: Option<usize>, evidence: Evidence, size: Size) -> Self {
        RawOutcome {
            status: if best.is_some() {
                Status::Feasible
            } else {
                Status::Unknown
            },
            witness: best,
            bound,
            evidence,
            size,
        }
    }

    /// Wraps the witness into another solution type.
    pub fn map_solution<T>(self, wrap: impl FnOnce(W) -> T) -> RawOutcome<T> {
        RawOutcome {
            status: self.status,
            witness: self.witness.map(wrap),
            bound: self.bound,
            evidence: self.evidence,
            size: self.size,
        }
    }
}

/// `n` and a noun, singular for one: "1 call", "2 calls". Only for nouns that take an `s`.
pub fn plural(n: u64, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

#[cfg(test)]
mod plural_tests {
    use super::plural;

    #[test]
    fn one_is_singular() {
        assert_eq!(plural(1, "call"), "1 call");
        assert_eq!(plural(0, "call"), "0 calls");
        assert_eq!(plural(20, "queen"), "20 queens");
    }
}
