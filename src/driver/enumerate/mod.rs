//! Counting and enumerating every optimal solution (every solution, for a family without an
//! objective), reduced by the board's symmetries on request, split into shards that add up.
//!
//! One entry point, [`enumerate`], for every backend: the native counters (the N-queens
//! symmetry-class counter for empty boards, a bounded counting DFS for obstacle boards) and
//! SAT enumeration with blocking clauses as an independent cross-check. Every solution
//! handed out is verified against the puzzle's rules first.
//!
//! Each family counts in a file of its own, implementing [`CountFamily`] (`queens`,
//! `dissections`, `tilings`; `classes`
//! holds the queens' symmetry classes, `stoppable` the SAT enumeration a limit can end),
//! and [`merge`] adds up the shards' counts, read through [`crate::formats::count_shard`].

use crate::base::evidence::CountEvidence;
use crate::base::shard::Shard;
use crate::base::{Control, Goal, Status};
use crate::driver::{Backend, Misuse, SolveError};
use crate::puzzle::{each_family, Family, Puzzle, Solution};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

mod chess;
mod classes;
mod dissections;
mod merge;
mod placements;
mod queens;
mod stoppable;
mod tilings;

pub use dissections::{enumerate_dissections, DissectionCount};
pub use merge::{merge, model_digest, MergeError, Merged};

use classes::consistent_when_stopped;

/// What to enumerate and how.
#[derive(Clone, Debug, Default)]
pub struct EnumerateOptions {
    /// Reduce by the board's own symmetries: count classes, list one member of each.
    pub unique: bool,
    /// Do one shard of a deterministic split (native counts only).
    pub shard: Option<Shard>,
    /// Hand every solution (every class representative, with `unique`) to the caller.
    pub list: bool,
    /// Count the solutions with at least this value instead of the optimal ones. It must
    /// not be below the optimum (the counters rely on no solution exceeding it).
    pub at_least: Option<usize>,
    /// For a puzzle that asks for the fewest pieces: count the solutions with at most this
    /// many, refuting one fewer first instead of finding the optimum (so that the search
    /// for a first optimal solution, which can cost more than the count, is never run).
    pub at_most: Option<usize>,
}

/// The answer of a count.
#[derive(Clone, Debug)]
pub struct CountOutcome {
    /// Which backend counted.
    pub backend: Backend,
    /// The value every counted solution has (the optimum, or the `at_least` asked for),
    /// `None` for a family without an objective.
    pub value: Option<usize>,
    /// Solutions counted (this shard's part, with a shard).
    pub count: u64,
    /// With `unique`: symmetry classes counted (this shard's part).
    pub unique_count: Option<u64>,
    /// With `unique`: classes by their number of members.
    pub classes: BTreeMap<usize, u64>,
    /// The board's symmetries used for `unique` (1 to 8).
    pub symmetries: usize,
    /// The shard this run did.
    pub shard: Option<Shard>,
    /// Whether the count is exact (not cut short by a limit or Ctrl-C).
    pub complete: bool,
    /// How the count was established (worded by `report::evidence`).
    pub evidence: CountEvidence,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// Counts (and with `options.list`, hands to `on_solution`) every optimal solution of
/// `puzzle` with `backend`. A run stopped by `control` returns what it finished, marked
/// incomplete.
pub fn enumerate(
    puzzle: &Puzzle,
    backend: Backend,
    options: &EnumerateOptions,
    control: &Control,
    on_solution: &mut dyn FnMut(&Solution),
) -> Result<CountOutcome, SolveError> {
    let start = Instant::now();
    if options.shard.is_some() && backend != Backend::Native {
        return Err(SolveError::Misused(Misuse::ShardNeedsNative));
    }
    // Refused before any search starts (queens would otherwise find the optimum first).
    if backend == Backend::Milp {
        return Err(SolveError::Misused(Misuse::CountWithMilp));
    }
    each_family!(puzzle, p => p.count(backend, options, control, on_solution, start))
}

/// A family's counts: every optimal solution (every solution, for a family without an
/// objective) with `backend`, which is native or SAT (MILP and misplaced shards are refused
/// before). Each family implements it once, in this folder's file of its name;
/// [`enumerate`] dispatches over the registration list.
pub trait CountFamily: Family {
    /// Counts (and with `options.list`, hands to `on_solution`) the solutions; `start` is
    /// when the count began, for its elapsed time.
    fn count(
        &self,
        backend: Backend,
        options: &EnumerateOptions,
        control: &Control,
        on_solution: &mut dyn FnMut(&Solution),
        start: Instant,
    ) -> Result<CountOutcome, SolveError>;
}

/// The backend that settles what a count with `backend` stands on: counts are a native or
/// SAT job, and MILP is refused later, so any proof will do for it.
fn prover(backend: Backend) -> Backend {
    if backend == Backend::Sat {
        Backend::Sat
    } else {
        Backend::Native
    }
}

/// The optimum, proved by the same backend; `None` when a limit stopped it first.
fn optimum(
    puzzle: &Puzzle,
    backend: Backend,
    control: &Control,
) -> Result<Option<usize>, SolveError> {
    let outcome = crate::driver::solve(puzzle, prover(backend), Goal::Maximise, control)?;
    Ok(match outcome.status {
        Status::Optimal => outcome.value,
        // No solution at all cannot happen for queens (the empty placement always is one).
        _ => None,
    })
}

/// Whether no solution has at most `pieces` pieces, for a puzzle that asks for the
/// fewest, decided by the same backend: `Some(true)` refuted, `Some(false)` a solution
/// exists, `None` when a limit stopped it first.
fn refuted_at_most(
    puzzle: &Puzzle,
    backend: Backend,
    pieces: usize,
    control: &Control,
) -> Result<Option<bool>, SolveError> {
    let goal = Goal::AtLeast(puzzle.sense().score(pieces));
    let outcome = crate::driver::solve(puzzle, prover(backend), goal, control)?;
    Ok(match outcome.status {
        Status::Unsatisfiable => Some(true),
        Status::Satisfiable | Status::Optimal | Status::Feasible => Some(false),
        Status::Unknown => None,
    })
}

/// A count of nothing yet, by the native backend, established as `evidence` says: what
/// each counter fills in.
fn empty_outcome(evidence: CountEvidence) -> CountOutcome {
    CountOutcome {
        backend: Backend::Native,
        value: None,
        count: 0,
        unique_count: None,
        classes: BTreeMap::new(),
        symmetries: 1,
        shard: None,
        complete: false,
        evidence,
        elapsed: Duration::ZERO,
    }
}

/// Checks a solution against the rules and the value every counted solution must have.
fn verified(
    puzzle: &Puzzle,
    solution: &Solution,
    value: usize,
    backend: &'static str,
) -> Result<(), SolveError> {
    puzzle
        .verify(solution)
        .map_err(|error| SolveError::WrongSolution { backend, error })?;
    let actual = puzzle.value(solution);
    if actual != value {
        return Err(SolveError::WrongValue {
            backend,
            claimed: value,
            actual,
        });
    }
    Ok(())
}
