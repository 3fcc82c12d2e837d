//! The driver: turns a goal into backend calls, and every backend's answer into one
//! [`Outcome`], decoded and verified against the puzzle's rules before anyone sees it.

pub mod bound_race;
pub mod box_shard;
pub mod combine;
pub mod decode;
pub mod emit;
pub mod enumerate;
pub mod external;
pub mod guard;
pub mod native;
pub mod packing;
pub mod packing_bounds;
pub mod portfolio;
pub mod sweep;
pub mod sweep_state;

use crate::base::error::{NamesSettings, Setting};
use crate::base::evidence::{BoundFinder, PackingBound};
use crate::base::shard::Shard;
use crate::base::{plural, Control, Evidence, Goal, Incumbent, RawOutcome, Sense, Size, Status};
use crate::model::Assignment;
use crate::oracle::OracleError;
// Counting and enumeration (`solve --all / --count / --unique`) live in their own module.
use crate::puzzle::{Puzzle, Solution, VerifyError};
pub use enumerate::{enumerate, CountOutcome, EnumerateOptions};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The backends that answer goals.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// CNF and the embedded varisat SAT solver.
    Sat,
    /// An integer program and the embedded MILP solver (good_lp with microlp).
    Milp,
    /// The hand-written search of the puzzle's family.
    Native,
}

impl Backend {
    /// The backend `solve` uses when none is named: the one measured fastest on the family
    /// (SAT with the group-counted objective for queens; the native searches for packing,
    /// where SAT and MILP are weak, and for dissection).
    pub fn preferred_for(puzzle: &Puzzle) -> Backend {
        native::preferred(puzzle)
    }

    /// Every backend, in the order `compare` runs them.
    pub const ALL: [Backend; 3] = [Backend::Sat, Backend::Milp, Backend::Native];

    /// The backend of a name, as the command line spells it (`sat`, `milp`, `native`).
    ///
    /// ```
    /// use puzzlec::Backend;
    /// assert_eq!(Backend::from_name("milp"), Some(Backend::Milp));
    /// assert_eq!(Backend::from_name("gurobi"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Backend> {
        Backend::ALL.into_iter().find(|b| b.name() == name)
    }

    /// The backend's name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Sat => "sat",
            Backend::Milp => "milp",
            Backend::Native => "native",
        }
    }
}

/// The answer of one backend to one goal, with a verified solution.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Which backend answered.
    pub backend: Backend,
    /// How the run ended.
    pub status: Status,
    /// The best solution found, verified against the puzzle's rules.
    pub solution: Option<Solution>,
    /// The solution's value (for a family that asks for the fewest, the fewest found).
    pub value: Option<usize>,
    /// A proven bound, when known: an upper bound on the most, a lower bound on the fewest.
    pub bound: Option<usize>,
    /// Which way the value goes; the model's score is the value counted the other way for
    /// the fewest ([`Sense`]).
    pub sense: Sense,
    /// How the status was established: backend, bound refuted, proof (worded by
    /// `report::evidence`).
    pub evidence: Evidence,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The size of what the backend worked on.
    pub size: Size,
    /// The external solver that answered (`cadical`, `cbc`, or with its own kind
    /// `cp:gecode`), or `None` for the backend's own embedded solver.
    pub solver: Option<String>,
    /// A maximum packing's bounds known before the backend ran (`None` for other puzzles).
    pub bounds: Option<packing_bounds::PackingBounds>,
}

impl Outcome {
    /// The answer in a few words: "optimal 20", "unsatisfiable".
    pub fn answer(&self) -> String {
        self.status.answer(self.value)
    }

    /// The value as the model's score (see [`Sense`]): larger is better for every family.
    pub fn score(&self) -> Option<usize> {
        self.value.map(|v| self.sense.score(v))
    }

    /// The proven bound as a bound on the model's score (an upper bound).
    pub fn score_bound(&self) -> Option<usize> {
        self.bound.map(|b| self.sense.score(b))
    }

    /// Who answered, for reports: the backend's name, or `backend:solver` for an external
    /// solver (`sat:cadical`, `milp:cbc`); a solver named with its own kind (`cp:gecode`, a
    /// MiniZinc solver serving the MILP backend) as it is.
    pub fn label(&self) -> String {
        match &self.solver {
            Some(solver) if solver.contains(':') => solver.clone(),
            Some(solver) => format!("{}:{solver}", self.backend.name()),
            None => self.backend.name().to_string(),
        }
    }
}

/// A run that failed for a reason other than bad input.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// A backend returned a solution that breaks the rules: a bug, reported loudly.
    #[error("internal error: the {backend} backend returned a wrong solution: {error}")]
    WrongSolution {
        /// The backend.
        backend: &'static str,
        /// What rule it broke.
        error: VerifyError,
    },
    /// A backend claimed a value its solution does not have.
    #[error(
        "internal error: the {backend} backend claimed {claimed} but its solution has {actual}"
    )]
    WrongValue {
        /// The backend.
        backend: &'static str,
        /// The claimed value.
        claimed: usize,
        /// The solution's value.
        actual: usize,
    },
    /// The question cannot be asked this way: a flag or backend that does not apply to this
    /// puzzle (`--count` on a maximisation, `--unique` on a dissection). Bad input, not a
    /// failure: the command line exits 2.
    #[error("{0}")]
    Usage(String),
    /// A setting that does not apply to the question (see [`Misuse`]): bad input like
    /// [`SolveError::Usage`], worded with the setting's name.
    #[error("{0}")]
    Misused(Misuse),
    /// The native search refused the instance.
    #[error("native backend: {0}")]
    Native(#[source] packing::NativePackingError),
    /// The backend failed.
    #[error("{backend} backend: {failure}")]
    Backend {
        /// The backend.
        backend: &'static str,
        /// What went wrong.
        #[source]
        failure: BackendFailure,
    },
    /// An external solver failed (crashed, printed garbage) or its answer failed a check.
    #[error("{solver}: {failure}")]
    External {
        /// The solver, as `backend:solver`.
        solver: String,
        /// What went wrong.
        #[source]
        failure: ExternalFailure,
    },
}

/// A setting that does not apply to the question asked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Misuse {
    /// Shards split the native backend's counts only.
    ShardNeedsNative,
    /// The milp backend neither counts nor lists solutions.
    CountWithMilp,
    /// A dissection puzzle takes no such setting (it has no objective, and its parts are
    /// labelled canonically, so there is nothing to reduce or shard).
    NotForDissections(Setting),
    /// A tiling count takes no such setting.
    NotForTilings(Setting),
    /// Tilings are listed in full, not one per symmetry class.
    UniqueTilingList,
    /// Tilings are listed by the native backend only.
    TilingListNeedsNative,
    /// "At least K" asked of a tile model, which has no objective.
    AtLeastOnTile,
    /// A certificate proved in shards, of a puzzle that is not a maximum packing certified
    /// by its Russian-doll table.
    ShardNeedsTable(Shard),
    /// A count certificate of more solutions than its limit lists.
    TooManyToList {
        /// The solutions counted.
        count: u64,
        /// The limit.
        limit: u64,
    },
}

impl NamesSettings for Misuse {
    fn describe(&self, name: &dyn Fn(Setting) -> String) -> String {
        match *self {
            Misuse::ShardNeedsNative => format!(
                "{} splits native counts only; use {}",
                name(Setting::Shard),
                name(Setting::Backend("native"))
            ),
            Misuse::CountWithMilp => format!(
                "{}, {} and {} are not available with {}; use {} or sat",
                name(Setting::List),
                name(Setting::Count),
                name(Setting::Unique),
                name(Setting::Backend("milp")),
                name(Setting::Backend("native"))
            ),
            Misuse::NotForDissections(setting) => {
                format!("{} is not available for dissections", name(setting))
            }
            Misuse::NotForTilings(setting) => {
                format!("{} is not available for tilings", name(setting))
            }
            Misuse::UniqueTilingList => format!(
                "listing one tiling per symmetry class is not available; use {}, or {} {}",
                name(Setting::List),
                name(Setting::Count),
                name(Setting::Unique)
            ),
            Misuse::TilingListNeedsNative => format!(
                "tilings are listed by the native backend only; use {}",
                name(Setting::Backend("native"))
            ),
            Misuse::AtLeastOnTile => format!(
                "a tile model has no objective: drop {}",
                name(Setting::AtLeast)
            ),
            Misuse::ShardNeedsTable(shard) => format!(
                "{} {shard}: only maximum packings certified by their Russian-doll table are \
                 proved in shards",
                name(Setting::Shard)
            ),
            Misuse::TooManyToList { count, limit } => format!(
                "{} are too many to certify one by one (the limit is {limit}, {}): count them \
                 with `puzzlec solve --count` (native) and `--backend sat`, two independent \
                 methods, which are not a certificate",
                plural(count, "solution"),
                name(Setting::MaxListed)
            ),
        }
    }
}

impl std::fmt::Display for Misuse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe(&Setting::name))
    }
}

/// What failed inside an embedded backend (see [`SolveError::Backend`]).
#[derive(Debug, thiserror::Error)]
pub enum BackendFailure {
    /// The solver reported an error.
    #[error(transparent)]
    Oracle(#[from] OracleError),
    /// The solver's thread could not be started.
    #[error("cannot start a thread: {0}")]
    Thread(std::io::Error),
    /// The solver's thread panicked (a bug; the panic message is on stderr).
    #[error("the solver thread panicked")]
    Panicked,
}

/// What failed with an external solver (see [`SolveError::External`]).
#[derive(Debug, thiserror::Error)]
pub enum ExternalFailure {
    /// The program failed, or its answer or proof was refused.
    #[error(transparent)]
    Oracle(#[from] OracleError),
    /// Its answer, decoded, failed the puzzle's rules or its claimed value.
    #[error(transparent)]
    Answer(Box<SolveError>),
}

impl From<packing::NativePackingError> for SolveError {
    /// A question the native search does not take is a usage error; any other refusal is
    /// the backend's failure.
    fn from(error: packing::NativePackingError) -> SolveError {
        match error {
            packing::NativePackingError::AtLeastOnTile => {
                SolveError::Misused(Misuse::AtLeastOnTile)
            }
            error => SolveError::Native(error),
        }
    }
}

/// Solves `puzzle` for `goal` with `backend`, stopping as `control` says. A stopped run
/// returns the best verified solution found so far, marked as not proven.
///
/// ```
/// use puzzlec::{Backend, Control, Goal};
/// let model = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/obstacle-queens.toml");
/// let puzzle = puzzlec::load_model_file(&model)?;
/// let outcome = puzzlec::solve(&puzzle, Backend::Native, Goal::Maximise, &Control::unlimited())?;
/// assert_eq!(outcome.answer(), "optimal 20");
/// // The evidence is data: here the native search's exhaustive refutation of one more queen,
/// // or the structural bound met (`puzzlec::report::evidence` words it).
/// use puzzlec::base::Evidence;
/// assert!(
///     matches!(
///         outcome.evidence,
///         Evidence::QueensExhausted { value: 20, .. } | Evidence::QueensStructural { found: 20 }
///     ),
///     "{:?}",
///     outcome.evidence
/// );
/// assert!(outcome.evidence.to_string().starts_with("native"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve(
    puzzle: &Puzzle,
    backend: Backend,
    goal: Goal,
    control: &Control,
) -> Result<Outcome, SolveError> {
    solve_knowing(puzzle, backend, goal, control, None)
}

/// [`solve`], given the packing's bounds when they were computed before (the portfolio
/// computes them once for its members); `None` computes them here.
pub(crate) fn solve_knowing(
    puzzle: &Puzzle,
    backend: Backend,
    goal: Goal,
    control: &Control,
    known: Option<packing_bounds::PackingBounds>,
) -> Result<Outcome, SolveError> {
    let start = Instant::now();
    if let Some(reason) = puzzle.trivially_impossible() {
        // Counting alone settles it; every backend gives the same reason.
        let raw = RawOutcome::unsatisfiable(None, Evidence::Impossible { reason }, Size::default());
        return finish(puzzle, backend, goal, raw, start.elapsed(), None);
    }
    // The native search solves a large model's LP beside its own when maximising; for "at
    // least K" a large model's LP stays unsolved (the area bound still refutes K above it).
    let mut bounds = match known {
        Some(known) => Some(known),
        None => bounds_of(puzzle, control, backend == Backend::Native),
    };
    if let Some(raw) = bounds.as_ref().and_then(|b| above_bound(b, goal)) {
        return finish(puzzle, backend, goal, raw, start.elapsed(), bounds);
    }
    let raw = match backend {
        Backend::Sat | Backend::Milp => {
            let known = bounds.as_ref().map(|b| b.best());
            let incumbent = Arc::new(Incumbent::<Assignment>::new());
            let raw = run_stoppable(puzzle, backend, goal, control, incumbent.clone(), known)?;
            raw.map_solution(|a| puzzle.decode(&a))
        }
        Backend::Native => crate::driver::native::solve(puzzle, goal, control, bounds.as_mut())?,
    };
    let raw = apply_bound(puzzle, goal, raw, bounds.as_ref());
    finish(puzzle, backend, goal, raw, start.elapsed(), bounds)
}

/// The bounds of a maximum packing known before any backend runs
/// ([`packing_bounds::packing_bounds`]); `None` for other puzzles.
/// With `beside_search`, a large model's LP is left to the native search, which solves it
/// beside its own.
pub(crate) fn bounds_of(
    puzzle: &Puzzle,
    control: &Control,
    beside_search: bool,
) -> Option<packing_bounds::PackingBounds> {
    match puzzle {
        Puzzle::Packing(packing) => packing_bounds::packing_bounds(packing, control, beside_search),
        _ => None,
    }
}

/// "At least k" above a bound known before the search: refuted without a backend.
fn above_bound(bounds: &packing_bounds::PackingBounds, goal: Goal) -> Option<RawOutcome<Solution>> {
    let best = bounds.best();
    match goal {
        Goal::AtLeast(k) if k > best.value() => Some(RawOutcome::unsatisfiable(
            Some(best.value()),
            Evidence::AboveBound { k, bound: best },
            Size::default(),
        )),
        _ => None,
    }
}

/// A backend's answer with the bounds known before the search applied: a stopped run's
/// best solution that meets the tighter is optimal, a stopped run reports no bound above
/// it, and says when the LP bound was skipped. Answers the backend settled itself are kept
/// as they are.
fn apply_bound(
    puzzle: &Puzzle,
    goal: Goal,
    raw: RawOutcome<Solution>,
    bounds: Option<&packing_bounds::PackingBounds>,
) -> RawOutcome<Solution> {
    let Some(bounds) = bounds else {
        return raw;
    };
    if raw.status.is_proven() {
        return raw;
    }
    let known = bounds.best();
    let value = raw.witness.as_ref().map(|s| puzzle.value(s));
    if goal == Goal::Maximise && value == Some(known.value()) {
        let witness = raw.witness.expect("a value has a witness");
        let evidence = Evidence::BoundMet {
            by: BoundFinder::BestSoFar,
            value: known.value(),
            nodes: None,
            bound: known,
        };
        return RawOutcome::optimal(witness, known.value(), evidence, raw.size);
    }
    let mut raw = raw;
    if raw.bound.is_none_or(|b| b > known.value()) {
        raw.bound = Some(known.value());
        raw.evidence = Evidence::Bounded {
            stopped: Box::new(raw.evidence),
            bound: known,
        };
    }
    if let packing_bounds::LpOutcome::Skipped { placements } = bounds.lp {
        raw.evidence = Evidence::LpSkipped {
            stopped: Box::new(raw.evidence),
            placements,
            limit: packing_bounds::LP_MAX_PLACEMENTS,
        };
    }
    raw
}

/// [`solve`] of a maximum packing of an open box with the native backend, and the smaller
/// boxes its Russian-doll table settled on the way (same short side, fewer rows; see
/// [`packing::SubBox`]), each as the [`Outcome`] of that box: its packing verified against
/// the rules like any other, its time when its entry was decided. Tallest first.
/// `row_bounds`: proven bounds on the boxes of its last scan rows, which spare the search
/// entries that cannot rise ([`crate::engines::russian_doll::DollOptions::row_bounds`]; empty
/// for none).
pub fn solve_with_sub_boxes(
    packing: &crate::puzzle::packing::Packing,
    control: &Control,
    row_bounds: &[Option<usize>],
) -> Result<(Outcome, Vec<(crate::puzzle::packing::Packing, Outcome)>), SolveError> {
    let start = Instant::now();
    let puzzle = Puzzle::Packing(packing.clone());
    let (goal, backend) = (Goal::Maximise, Backend::Native);
    if let Some(reason) = puzzle.trivially_impossible() {
        let raw = RawOutcome::unsatisfiable(None, Evidence::Impossible { reason }, Size::default());
        return Ok((
            finish(&puzzle, backend, goal, raw, start.elapsed(), None)?,
            Vec::new(),
        ));
    }
    let (raw, sub_boxes) = packing::solve_with_sub_boxes(packing, goal, control, row_bounds)?;
    let outcome = finish(
        &puzzle,
        backend,
        goal,
        raw.map_solution(Solution::Packing),
        start.elapsed(),
        None,
    )?;
    Ok((outcome, sub_box_outcomes(packing, sub_boxes)?))
}

/// [`solve_with_sub_boxes`] for a box whose Russian doll many processes shared and settled
/// ([`box_shard`]): the box's optimum from its table, and the smaller boxes that table
/// settled, each as the [`Outcome`] of its box, its packing verified against the rules, its
/// time that of the rounds. Tallest first.
pub fn settled_with_sub_boxes(
    packing: &crate::puzzle::packing::Packing,
    settled: &box_shard::Settled,
) -> Result<(Outcome, Vec<(crate::puzzle::packing::Packing, Outcome)>), SolveError> {
    let puzzle = Puzzle::Packing(packing.clone());
    let optimum = settled.table[0];
    let evidence = Evidence::DollShards {
        k: optimum + 1,
        cells: settled.table.len() - 1,
        rounds: settled.rounds,
        shards: settled.shards,
    };
    let solution = Solution::Packing(packing.solution_of(&settled.best));
    let raw = RawOutcome::optimal(solution, optimum, evidence, Size::default());
    let elapsed = Duration::from_secs_f64(settled.seconds);
    let outcome = finish(&puzzle, Backend::Native, Goal::Maximise, raw, elapsed, None)?;
    let table: Vec<Option<usize>> = settled.table.iter().copied().map(Some).collect();
    let row_seconds = vec![settled.seconds; table.len()];
    let sub_boxes = packing::settled_sub_boxes(packing, &table, &settled.found, &row_seconds);
    Ok((outcome, sub_box_outcomes(packing, sub_boxes)?))
}

/// The smaller boxes a box's Russian-doll table settled, each as the [`Outcome`] of its box
/// (its packing verified like any other).
fn sub_box_outcomes(
    packing: &crate::puzzle::packing::Packing,
    sub_boxes: Vec<packing::SubBox>,
) -> Result<Vec<(crate::puzzle::packing::Packing, Outcome)>, SolveError> {
    let (goal, backend) = (Goal::Maximise, Backend::Native);
    let mut settled = Vec::new();
    for sub in sub_boxes {
        let smaller = packing.open_box(sub.width, sub.height);
        let columns = packing.width > packing.height;
        let evidence = Evidence::DollSubBox {
            width: packing.width,
            height: packing.height,
            optimum: sub.optimum,
            kept: if columns { sub.width } else { sub.height },
            columns,
        };
        let raw = RawOutcome::optimal(
            Solution::Packing(sub.packing),
            sub.optimum,
            evidence,
            Size::default(),
        );
        let smaller_puzzle = Puzzle::Packing(smaller);
        let outcome = finish(
            &smaller_puzzle,
            backend,
            goal,
            raw,
            Duration::from_secs_f64(sub.seconds),
            None,
        )?;
        let Puzzle::Packing(smaller) = smaller_puzzle else {
            unreachable!("made as a packing above")
        };
        settled.push((smaller, outcome));
    }
    Ok(settled)
}

/// Solves `puzzle` for `goal` with an external solver (see [`crate::oracle::external`]). Its
/// answers are checked against the written formula or rows, then decoded and verified
/// against the puzzle's rules like every other backend's; a crash, garbage output or a
/// failed check is an error, never an answer. A deadline kills the solver process.
pub fn solve_external(
    puzzle: &Puzzle,
    solver: &crate::driver::external::ExternalSolver,
    goal: Goal,
    control: &Control,
) -> Result<Outcome, SolveError> {
    use crate::driver::external::ExternalSolver;
    let start = Instant::now();
    let backend = solver.backend();
    let label = solver.label();
    let failed = |failure: ExternalFailure| SolveError::External {
        solver: label.clone(),
        failure,
    };
    // Its label names its own kind of solver, not the backend it serves.
    let name = match solver {
        ExternalSolver::Cp(_) => label.clone(),
        _ => solver.name(),
    };
    let bounds = bounds_of(puzzle, control, false);
    if let Some(raw) = bounds.as_ref().and_then(|b| above_bound(b, goal)) {
        let mut outcome = finish(puzzle, backend, goal, raw, start.elapsed(), bounds)
            .map_err(|e| failed(ExternalFailure::Answer(Box::new(e))))?;
        outcome.solver = Some(name);
        return Ok(outcome);
    }
    let known = bounds.as_ref().map(|b| b.best());
    // No known solution here: `--solver` asks for that program's answer, so it is always
    // run (the puzzle's upper bound, and a packing's bound, still end the raise-k loop).
    let mut model = puzzle.compile();
    state_bound(&mut model, known);
    let incumbent = Incumbent::<Assignment>::new();
    let raw = crate::oracle::answer(solver.oracle(), &model, goal, control, &incumbent)
        .map_err(|e| failed(e.into()))?;
    let raw = apply_bound(
        puzzle,
        goal,
        raw.map_solution(|a| puzzle.decode(&a)),
        bounds.as_ref(),
    );
    let mut outcome = finish(puzzle, backend, goal, raw, start.elapsed(), bounds)
        .map_err(|e| failed(ExternalFailure::Answer(Box::new(e))))?;
    outcome.solver = Some(name);
    Ok(outcome)
}

/// Hands `model` the solution its family knows without search, when there is one: on an
/// empty square board of side 4 or more, the explicit construction of the native search
/// (one queen per row), which meets the puzzle's one-queen-per-row bound, so the SAT and
/// MILP loops prove the optimum at once.
pub fn add_known_solution(puzzle: &Puzzle, model: &mut crate::model::Model) {
    let Puzzle::Queens(queens) = puzzle else {
        return;
    };
    if queens.board.width != queens.board.height || !queens.board.is_open() {
        return;
    }
    let Some(placement) =
        crate::engines::obstacle_queens::constructive_placement(queens.board.width)
    else {
        return;
    };
    let solution = crate::puzzle::queens::QueensSolution::new(placement);
    model.known_solution = Some(crate::model::KnownSolution {
        assignment: queens.assignment_of(&solution),
        origin: "the explicit construction (even columns, then odd, mended for n mod 6 = 2 or 3)"
            .into(),
    });
}

/// States a packing's bound known before the search as the model's upper bound, when it is
/// tighter than the one the puzzle states, so the SAT and MILP loops stop once a solution
/// meets it.
fn state_bound(model: &mut crate::model::Model, known: Option<PackingBound>) {
    let Some(known) = known else {
        return;
    };
    if model
        .upper_bound
        .as_ref()
        .is_some_and(|b| b.value <= known.value())
    {
        return;
    }
    model.upper_bound = Some(crate::model::UpperBound {
        value: known.value(),
        reason: known.reason(),
        reached: false,
    });
}

/// Runs a model backend on its own thread, so a deadline or Ctrl-C ends the run at once
/// even where the solver does not poll for it (microlp; varisat stops itself within a few
/// milliseconds, see [`crate::oracle::varisat::Varisat::stoppable`]); the thread's best
/// assignment is kept. `known`: a packing's bound known before the search, stated to the
/// model ([`state_bound`]).
fn run_stoppable(
    puzzle: &Puzzle,
    backend: Backend,
    goal: Goal,
    control: &Control,
    incumbent: Arc<Incumbent<Assignment>>,
    known: Option<PackingBound>,
) -> Result<RawOutcome<Assignment>, SolveError> {
    let (sender, receiver) = mpsc::channel();
    let thread_puzzle = puzzle.clone();
    let thread_control = control.clone();
    let thread_incumbent = incumbent.clone();
    std::thread::Builder::new()
        .name(format!("puzzlec-{}", backend.name()))
        .spawn(move || {
            let mut model = thread_puzzle.compile();
            add_known_solution(&thread_puzzle, &mut model);
            state_bound(&mut model, known);
            let solver = match backend {
                Backend::Sat => crate::oracle::Solver::Varisat,
                Backend::Milp => crate::oracle::Solver::Microlp,
                Backend::Native => unreachable!("native runs in the caller's thread"),
            };
            // The size first, so a run stopped before its answer still says what it was
            // given. The receiver may have given up on us; nothing to do then.
            let _ = sender.send(Sent::Size(given_size(&model, backend)));
            let result =
                crate::oracle::answer(solver, &model, goal, &thread_control, &thread_incumbent);
            let _ = sender.send(Sent::Answer(result));
        })
        .map_err(|e| SolveError::Backend {
            backend: backend.name(),
            failure: BackendFailure::Thread(e),
        })?;
    let mut size = Size::default();
    loop {
        match receiver.recv_timeout(Duration::from_millis(20)) {
            Ok(Sent::Size(given)) => size = given,
            // A solver that gives up at the deadline (microlp: "time limit reached before
            // finding a feasible solution") has not failed: the run is stopped. varisat,
            // which stops itself now, reports its stop as the driver always has.
            Ok(Sent::Answer(Err(_))) if control.should_stop() => {
                return Ok(stopped(puzzle, control, &incumbent, size));
            }
            Ok(Sent::Answer(Ok(raw)))
                if backend == Backend::Sat && control.should_stop() && !raw.status.is_proven() =>
            {
                return Ok(stopped(puzzle, control, &incumbent, size));
            }
            Ok(Sent::Answer(result)) => {
                return result.map_err(|error| SolveError::Backend {
                    backend: backend.name(),
                    failure: error.into(),
                })
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(SolveError::Backend {
                    backend: backend.name(),
                    failure: BackendFailure::Panicked,
                })
            }
            Err(mpsc::RecvTimeoutError::Timeout) if control.should_stop() => {
                return Ok(stopped(puzzle, control, &incumbent, size));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
    }
}

/// What a model backend's thread sends: the size of what its solver is given, then the
/// answer.
enum Sent {
    Size(Size),
    Answer(Result<RawOutcome<Assignment>, OracleError>),
}

/// The size of what `backend`'s embedded solver is given for `model`: its CNF (as
/// varisat's oracle encodes it, before any "at least k" of the raise-k loop) or its 0-1
/// program (before any cut).
fn given_size(model: &crate::model::Model, backend: Backend) -> Size {
    match backend {
        Backend::Sat => {
            let plan =
                crate::encode::dimacs::plan_cnf(model, crate::encode::amo::AmoEncoding::Auto, None);
            Size::clauses(plan.num_vars, plan.clauses)
        }
        _ => Size {
            variables: model.num_vars(),
            constraints: model.constraints.len(),
            unit: "rows",
        },
    }
}

/// The answer of a model backend stopped by `control`: its best assignment, not proven,
/// with the size of what it was given (`size`, or none if it was stopped first).
fn stopped(
    puzzle: &Puzzle,
    control: &Control,
    incumbent: &Incumbent<Assignment>,
    size: Size,
) -> RawOutcome<Assignment> {
    let best = incumbent.best();
    let evidence = Evidence::ModelStopped {
        stop: control.stop(),
        found: best.is_some(),
        objective: puzzle.has_objective(),
    };
    RawOutcome::stopped(best.map(|(a, _)| a), None, evidence, size)
}

fn finish(
    puzzle: &Puzzle,
    backend: Backend,
    goal: Goal,
    raw: RawOutcome<Solution>,
    elapsed: Duration,
    bounds: Option<packing_bounds::PackingBounds>,
) -> Result<Outcome, SolveError> {
    // The raw answer's bound and the goal are on the model's score; the outcome speaks in
    // the family's value.
    let sense = puzzle.sense();
    let mut value = None;
    if let Some(solution) = &raw.witness {
        puzzle
            .verify(solution)
            .map_err(|error| SolveError::WrongSolution {
                backend: backend.name(),
                error,
            })?;
        // A family without an objective has no value to report.
        value = puzzle.has_objective().then(|| puzzle.value(solution));
    }
    // A claim must match its witness: an optimum equals its bound, a "yes" meets the goal.
    let claimed = match (raw.status, goal) {
        (Status::Optimal, _) => raw.bound,
        (Status::Satisfiable, Goal::AtLeast(k)) => Some(k),
        _ => None,
    };
    if let Some(claimed) = claimed {
        let actual = value.map(|v| sense.score(v)).unwrap_or(0);
        let wrong = match raw.status {
            Status::Optimal => actual != claimed || value.is_none(),
            _ => actual < claimed || value.is_none(),
        };
        if wrong {
            return Err(SolveError::WrongValue {
                backend: backend.name(),
                claimed: sense.value(claimed),
                actual: value.unwrap_or(0),
            });
        }
    }
    let evidence = match sense {
        // The native searches speak in the family's value; the model backends in the score.
        Sense::Fewest { of } if backend != Backend::Native => Evidence::Fewest {
            of,
            inner: Box::new(raw.evidence),
        },
        _ => raw.evidence,
    };
    Ok(Outcome {
        backend,
        status: raw.status,
        solution: raw.witness,
        value,
        bound: raw.bound.map(|b| sense.value(b)),
        sense,
        evidence,
        elapsed,
        size: raw.size,
        solver: None,
        bounds,
    })
}

/// Where two backends' answers contradict each other, in words; `None` when they agree.
/// Unproven answers only contradict a proven optimum they exceed.
pub fn disagreement(outcomes: &[Outcome]) -> Option<String> {
    let proven: Vec<&Outcome> = outcomes.iter().filter(|o| o.status.is_proven()).collect();
    for pair in proven.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let same = a.status == b.status && (a.status != Status::Optimal || a.value == b.value);
        if !same {
            return Some(format!(
                "{} says {}, {} says {}",
                a.label(),
                a.answer(),
                b.label(),
                b.answer()
            ));
        }
    }
    for optimum in proven.iter().filter(|o| o.status == Status::Optimal) {
        for other in outcomes {
            if other.score() > optimum.score() {
                return Some(format!(
                    "{} proved {} optimal, but {} found {}",
                    optimum.label(),
                    optimum.value.unwrap_or(0),
                    other.label(),
                    other.value.unwrap_or(0)
                ));
            }
        }
    }
    None
}

/// One row of `compare`: an answer, a backend or external solver that failed, or one that
/// was not run because the comparison was interrupted.
#[derive(Clone, Debug)]
pub enum CompareRow {
    /// The backend answered (proven or not); boxed, for its evidence makes it large.
    Answered(Box<Outcome>),
    /// The run failed; `compare` records it and goes on.
    Failed {
        /// Who was asked, as [`Outcome::label`] names it.
        label: String,
        /// What went wrong.
        error: String,
        /// Wall-clock time until the failure.
        elapsed: Duration,
    },
    /// Ctrl-C stopped the comparison before this row's turn.
    NotRun {
        /// Who would have been asked.
        label: String,
    },
}

impl CompareRow {
    /// Who answered, failed or was not run: `sat`, `milp:cbc`...
    pub fn label(&self) -> String {
        match self {
            CompareRow::Answered(outcome) => outcome.label(),
            CompareRow::Failed { label, .. } | CompareRow::NotRun { label } => label.clone(),
        }
    }

    /// The answer, when there is one.
    pub fn outcome(&self) -> Option<&Outcome> {
        match self {
            CompareRow::Answered(outcome) => Some(outcome.as_ref()),
            _ => None,
        }
    }
}

/// What a comparison established, for its last line and its exit code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Two answers contradict each other (see [`disagreement`]).
    Disagree(String),
    /// Every row answered and proved its answer, and the answers agree.
    AllAgree,
    /// No contradiction, but not every row proved its answer (stopped, failed or not
    /// run): only the proven answers can agree; the rest are listed.
    ProvenAgree {
        /// How many rows proved their answer.
        proven: usize,
        /// The other rows, in words: "milp feasible 18", "milp:cbc error".
        others: Vec<String>,
    },
}

/// The verdict of a comparison: agreement is only claimed about proven answers.
pub fn verdict(rows: &[CompareRow]) -> Verdict {
    let outcomes: Vec<Outcome> = rows.iter().filter_map(|r| r.outcome().cloned()).collect();
    if let Some(message) = disagreement(&outcomes) {
        return Verdict::Disagree(message);
    }
    let others: Vec<String> = rows
        .iter()
        .filter_map(|row| match row {
            CompareRow::Answered(o) if o.status.is_proven() => None,
            CompareRow::Answered(o) => Some(format!("{} {}", o.label(), o.answer())),
            CompareRow::Failed { label, .. } => Some(format!("{label} error")),
            CompareRow::NotRun { label } => Some(format!("{label} not run")),
        })
        .collect();
    if others.is_empty() {
        Verdict::AllAgree
    } else {
        Verdict::ProvenAgree {
            proven: rows.len() - others.len(),
            others,
        }
    }
}

/// Runs `f` with a stop flag of its own that a watchdog raises once `control` says stop
/// (deadline or Ctrl-C), for searches that poll only a flag. A private flag, so that a
/// deadline never looks like Ctrl-C to later runs sharing `control`.
pub(crate) fn with_stop<T>(
    control: &Control,
    f: impl FnOnce(&std::sync::atomic::AtomicBool) -> T,
) -> T {
    let flag = std::sync::atomic::AtomicBool::new(false);
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                if control.should_stop() {
                    flag.store(true, std::sync::atomic::Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        });
        let out = f(&flag);
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misuse_names_the_setting_in_the_library_and_as_the_caller_names_it() {
        let misuse = Misuse::NotForDissections(Setting::Unique);
        assert_eq!(
            misuse.to_string(),
            "`unique` is not available for dissections"
        );
        let flag = |setting| match setting {
            Setting::Unique => "--unique".to_string(),
            other => other.name(),
        };
        assert_eq!(
            misuse.describe(&flag),
            "--unique is not available for dissections"
        );
        assert_eq!(
            Misuse::CountWithMilp.to_string(),
            "`list`, counting and `unique` are not available with `backend = milp`; use \
             `backend = native` or sat"
        );
    }
}
