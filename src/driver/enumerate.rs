//! Counting and enumerating every optimal solution (every solution, for a family without an
//! objective), reduced by the board's symmetries on request, split into shards that add up.
//!
//! One entry point, [`enumerate`], for every backend: the native counters (the N-queens
//! symmetry-class counter for empty boards, a bounded counting DFS for obstacle boards) and
//! SAT enumeration with blocking clauses as an independent cross-check. Every solution
//! handed out is verified against the puzzle's rules first.

use super::with_stop;
use crate::base::error::Setting;
use crate::base::shard::{Shard, ShardFiles, ShardSet, ShardSetError};
use crate::base::{plural, Control, Goal, Status};
use crate::driver::{Backend, Misuse, SolveError};
use crate::engines::nqueens_count;
use crate::engines::obstacle_queens::{count_placements, CountRequest};
use crate::geometry::isometry::RectSymmetry;
use crate::model::{Assignment, Model, Var};
use crate::oracle::loops::Enumeration;
use crate::oracle::{varisat, OracleError};
use crate::puzzle::dissection::{Dissection, DissectionPuzzle};
use crate::puzzle::queens::{Queens, QueensSolution};
use crate::puzzle::{Puzzle, Solution};
use serde::de::{DeserializeOwned, Deserializer};
use serde::Deserialize;
use std::collections::{BTreeMap, HashSet};
use std::sync::mpsc;
use std::time::{Duration, Instant};

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
    /// How the count was established, in words.
    pub evidence: String,
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
    let board = match puzzle {
        Puzzle::Queens(board) => board,
        Puzzle::Dissection(shape) => {
            return dissections(shape, backend, options, control, on_solution, start)
        }
        Puzzle::Packing(packing) => {
            return tilings(packing, backend, options, control, on_solution, start)
        }
    };
    let group = Symmetries::of(board);
    let value = match optimum(puzzle, backend, control)? {
        Some(optimum) => match options.at_least {
            Some(k) if k < optimum => {
                return Err(SolveError::Usage(format!(
                    "counting solutions with at least {k} is not supported: the optimum is {optimum}, and only counts at or above it are"
                )))
            }
            Some(k) => k,
            None => optimum,
        },
        None => {
            return Ok(CountOutcome {
                backend,
                value: None,
                count: 0,
                unique_count: options.unique.then_some(0),
                classes: BTreeMap::new(),
                symmetries: group.len(),
                shard: options.shard,
                complete: false,
                evidence: format!("{} before the optimum was found", control.reason()),
                elapsed: start.elapsed(),
            })
        }
    };
    let mut outcome = match backend {
        Backend::Native => native(board, value, &group, options, control, on_solution)?,
        Backend::Sat => sat(board, value, &group, options, control, on_solution)?,
        Backend::Milp => unreachable!("refused above"),
    };
    outcome.backend = backend;
    outcome.value = Some(value);
    outcome.symmetries = group.len();
    outcome.shard = options.shard;
    outcome.elapsed = start.elapsed();
    Ok(consistent_when_stopped(outcome))
}

/// A stopped `--unique` count keeps only what is known consistently: the classes whose
/// least member was found (each a whole class, its members solutions by symmetry), and as
/// the count of solutions the members of those classes. The solutions seen one by one
/// are a different lower bound (some of their classes' least members were not reached
/// yet); mixing the two gave "692 classes of size 2; 1291 solutions".
fn consistent_when_stopped(mut outcome: CountOutcome) -> CountOutcome {
    if outcome.complete || outcome.unique_count.is_none() || outcome.classes.is_empty() {
        return outcome;
    }
    let members: u64 = outcome
        .classes
        .iter()
        .map(|(&size, &n)| size as u64 * n)
        .sum();
    let classes: u64 = outcome.classes.values().sum();
    if members != outcome.count {
        outcome.evidence = format!(
            "{}; {} seen one by one; the count given is the {} of the {} whose least member was found",
            outcome.evidence,
            plural(outcome.count, "solution"),
            plural(members, "member"),
            if classes == 1 {
                "1 class".to_string()
            } else {
                format!("{classes} classes")
            },
        );
    }
    outcome.count = members;
    outcome.unique_count = Some(classes);
    outcome
}

/// The optimum, proved by the same backend; `None` when a limit stopped it first.
fn optimum(
    puzzle: &Puzzle,
    backend: Backend,
    control: &Control,
) -> Result<Option<usize>, SolveError> {
    // Counts are a native or SAT job; MILP is refused later, so any proof of the optimum
    // will do for it.
    let prover = if backend == Backend::Sat {
        Backend::Sat
    } else {
        Backend::Native
    };
    let outcome = crate::driver::solve(puzzle, prover, Goal::Maximise, control)?;
    Ok(match outcome.status {
        Status::Optimal => outcome.value,
        // No solution at all cannot happen for queens (the empty placement always is one).
        _ => None,
    })
}

fn native(
    board: &Queens,
    value: usize,
    group: &Symmetries,
    options: &EnumerateOptions,
    control: &Control,
    on_solution: &mut dyn FnMut(&Solution),
) -> Result<CountOutcome, SolveError> {
    let progress = |done: u64, total: u64| control.advance(done, total);
    let n = board.width;
    let empty_square = board.width == board.height && board.free.iter().all(|&f| f);
    if empty_square
        && value == n
        && (1..=nqueens_count::MAX_N as usize).contains(&n)
        && !options.list
    {
        // The symmetry-class counter: every solution counted once per class. It polls a
        // flag only, so a watchdog raises one at the deadline too.
        let (result, complete) = with_stop(control, |stop| {
            nqueens_count::count_empty_board_so_far(n as u32, options.shard, &progress, stop)
        });
        control.finish_progress();
        let classes: BTreeMap<usize, u64> = [1, 2, 4, 8]
            .into_iter()
            .zip(result.classes)
            .filter(|&(_, count)| count > 0)
            .collect();
        let how = "native count of N-queens by start constellations (border queens canonical under the 8 symmetries, completions weighted by orbit size)";
        return Ok(CountOutcome {
            count: result.total,
            unique_count: options.unique.then_some(result.unique),
            classes: if options.unique {
                classes
            } else {
                BTreeMap::new()
            },
            complete,
            evidence: if complete {
                format!("{how}, {}", plural(result.subproblems, "constellation"))
            } else {
                format!(
                    "{}; {how}: the {} finished before the stop, a lower bound",
                    control.reason(),
                    plural(result.subproblems, "constellation")
                )
            },
            ..empty_outcome()
        });
    }
    let classify = |solution: &QueensSolution| group.canonical_class(board, solution);
    let request = CountRequest {
        queens: value,
        shard: options.shard,
        list: options.list,
        classify: if options.unique {
            Some(&classify)
        } else {
            None
        },
        progress: &progress,
    };
    let found = count_placements(&board.board(), &request, control);
    control.finish_progress();
    for solution in found.solutions {
        let solution = Solution::Queens(solution);
        verified(&Puzzle::Queens(board.clone()), &solution, value, "native")?;
        on_solution(&solution);
    }
    let unique: u64 = found.classes.values().sum();
    let evidence = if found.complete {
        format!(
            "native counting DFS over every placement of {} (the optimum, proved first), pruned by open row and column segments; {}, {}",
            plural(value as u64, "queen"),
            plural(found.subproblems.1, "subproblem"),
            plural(found.nodes, "node")
        )
    } else {
        format!(
            "{}; {} of {} subproblems counted",
            control.reason(),
            found.subproblems.0,
            found.subproblems.1
        )
    };
    Ok(CountOutcome {
        count: found.count,
        unique_count: options.unique.then_some(unique),
        classes: found.classes,
        complete: found.complete,
        evidence,
        ..empty_outcome()
    })
}

fn sat(
    board: &Queens,
    value: usize,
    group: &Symmetries,
    options: &EnumerateOptions,
    control: &Control,
    on_solution: &mut dyn FnMut(&Solution),
) -> Result<CountOutcome, SolveError> {
    let puzzle = &Puzzle::Queens(board.clone());
    let model = puzzle.compile();
    let mut outcome = CountOutcome {
        complete: true,
        ..empty_outcome()
    };
    let mut wrong = None;
    // Solutions are blocked on the model's own variables (the cells), never on the
    // encoding's auxiliary variables: each solution is found exactly once.
    let cells: Vec<Var> = (0..model.num_vars()).map(Var::from_index).collect();
    let thread_puzzle = puzzle.clone();
    let compile = move || thread_puzzle.compile();
    let found = enumerate_stoppable(compile, cells, Some(value), control, &mut |assignment| {
        let solution = puzzle.decode(assignment);
        if let Err(error) = verified(puzzle, &solution, value, "sat") {
            wrong = Some(error);
            return false;
        }
        outcome.count += 1;
        let keep = match (options.unique, &solution) {
            (false, _) => true,
            (true, Solution::Queens(s)) => match group.canonical_class(board, s) {
                Some(size) => {
                    *outcome.classes.entry(size).or_default() += 1;
                    true
                }
                None => false,
            },
            (true, _) => unreachable!("a queens puzzle decodes to queens"),
        };
        if keep && options.list {
            on_solution(&solution);
        }
        true
    })
    .map_err(|error| SolveError::Backend {
        backend: "sat",
        failure: error.into(),
    })?;
    if let Some(error) = wrong {
        return Err(error);
    }
    let Some(found) = found else {
        return Ok(CountOutcome {
            complete: true,
            unique_count: options.unique.then_some(0),
            evidence: format!("at least {value} is impossible by counting the at-most-one groups"),
            ..empty_outcome()
        });
    };
    outcome.complete = found.complete;
    outcome.unique_count = options.unique.then(|| outcome.classes.values().sum());
    outcome.evidence = if outcome.complete {
        format!(
            "varisat enumeration with \"at least {value}\" assumed and one blocking clause per solution over the {} cell variables, until unsatisfiable ({})",
            model.num_vars(),
            plural(found.calls as u64, "call")
        )
    } else {
        format!("{}; enumeration not finished", control.reason())
    };
    Ok(outcome)
}

/// Every dissection of `shape`, each once (the family has no objective and labels parts
/// canonically, so there is nothing to reduce or shard).
fn dissections(
    shape: &crate::puzzle::dissection::DissectionPuzzle,
    backend: Backend,
    options: &EnumerateOptions,
    control: &Control,
    on_solution: &mut dyn FnMut(&Solution),
    start: Instant,
) -> Result<CountOutcome, SolveError> {
    let unsupported = |setting| SolveError::Misused(Misuse::NotForDissections(setting));
    if options.unique {
        return Err(unsupported(Setting::Unique));
    }
    if options.shard.is_some() {
        return Err(unsupported(Setting::Shard));
    }
    if options.at_least.is_some() {
        return Err(unsupported(Setting::AtLeast));
    }
    let found = enumerate_dissections(shape, backend, control, &mut |dissection| {
        if options.list {
            on_solution(&Solution::Dissection(dissection.clone()));
        }
        true
    })?;
    Ok(CountOutcome {
        backend,
        count: found.count,
        complete: found.complete,
        evidence: found.evidence,
        elapsed: start.elapsed(),
        ..empty_outcome()
    })
}

/// Counts the tilings of a tile model, raw and up to the region's symmetries (natively by
/// exact cover, or by SAT enumeration as an independent check). Listing is not offered.
fn tilings(
    packing: &crate::puzzle::packing::Packing,
    backend: Backend,
    options: &EnumerateOptions,
    control: &Control,
    on_solution: &mut dyn FnMut(&Solution),
    start: Instant,
) -> Result<CountOutcome, SolveError> {
    use crate::driver::packing::{count_native, symmetries};
    use crate::puzzle::packing::PackingKind;
    if packing.kind != PackingKind::Tile {
        return Err(SolveError::Usage(
            "counting is available for tiling models (goal = \"tile\"); this model maximises"
                .into(),
        ));
    }
    if options.shard.is_some() {
        return Err(SolveError::Misused(Misuse::NotForTilings(Setting::Shard)));
    }
    if options.at_least.is_some() {
        return Err(SolveError::Misused(Misuse::NotForTilings(Setting::AtLeast)));
    }
    if options.list {
        return list_tilings(packing, backend, options, control, on_solution, start);
    }
    let (counts, how) = match backend {
        Backend::Native => (
            count_native(packing, control)?,
            "native exact cover (symmetric count: one piece placed once per orbit)",
        ),
        Backend::Sat => (
            count_tilings_sat(packing, control).map_err(|e| SolveError::Backend {
                backend: backend.name(),
                failure: e.into(),
            })?,
            "varisat enumeration with one blocking clause per tiling, orbits named by their least image",
        ),
        Backend::Milp => unreachable!("refused in enumerate"),
    };
    let group = symmetries(packing).len();
    let evidence = if counts.complete {
        format!(
            "{how}: {} tilings, {} up to the region's {group} symmetries",
            counts.raw, counts.up_to_symmetry
        )
    } else {
        format!(
            "{}; {how}: {} tilings, {} up to the region's {group} symmetries found before the stop, a lower bound",
            control.reason(),
            counts.raw,
            counts.up_to_symmetry
        )
    };
    Ok(CountOutcome {
        backend,
        count: counts.raw,
        unique_count: options.unique.then_some(counts.up_to_symmetry),
        symmetries: group,
        complete: counts.complete,
        evidence,
        elapsed: start.elapsed(),
        ..empty_outcome()
    })
}

/// Lists every tiling natively, each verified before it is handed out.
fn list_tilings(
    packing: &crate::puzzle::packing::Packing,
    backend: Backend,
    options: &EnumerateOptions,
    control: &Control,
    on_solution: &mut dyn FnMut(&Solution),
    start: Instant,
) -> Result<CountOutcome, SolveError> {
    if options.unique {
        return Err(SolveError::Misused(Misuse::UniqueTilingList));
    }
    if backend != Backend::Native {
        return Err(SolveError::Misused(Misuse::TilingListNeedsNative));
    }
    let puzzle = Puzzle::Packing(packing.clone());
    let mut wrong = None;
    let (count, complete) = crate::driver::packing::list_native(packing, control, &mut |tiling| {
        let solution = Solution::Packing(tiling);
        match puzzle.verify(&solution) {
            Ok(()) => {
                on_solution(&solution);
                true
            }
            Err(error) => {
                wrong = Some(error);
                false
            }
        }
    })?;
    if let Some(error) = wrong {
        return Err(SolveError::WrongSolution {
            backend: backend.name(),
            error,
        });
    }
    Ok(CountOutcome {
        backend,
        count,
        complete,
        evidence: "native exact cover, every tiling listed and verified".into(),
        elapsed: start.elapsed(),
        ..empty_outcome()
    })
}

fn empty_outcome() -> CountOutcome {
    CountOutcome {
        backend: Backend::Native,
        value: None,
        count: 0,
        unique_count: None,
        classes: BTreeMap::new(),
        symmetries: 1,
        shard: None,
        complete: false,
        evidence: String::new(),
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

/// The symmetries that map a board, obstacles included, onto itself: they map solutions to
/// solutions, because the rules only ask about lines of free cells.
struct Symmetries(Vec<RectSymmetry>);

impl Symmetries {
    fn of(board: &Queens) -> Symmetries {
        let (w, h) = (board.width, board.height);
        let keeps_board = |s: RectSymmetry| {
            (0..h).all(|y| {
                (0..w).all(|x| {
                    let (mx, my) = s.map((x, y), w, h);
                    board.free[y * w + x] == board.free[my * w + mx]
                })
            })
        };
        Symmetries(
            RectSymmetry::of_rectangle(w, h)
                .filter(|&s| keeps_board(s))
                .collect(),
        )
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    /// The size of the solution's class if it is the class's canonical member (the least of
    /// its images as a sorted list of cells), `None` otherwise.
    fn canonical_class(&self, board: &Queens, solution: &QueensSolution) -> Option<usize> {
        let (w, h) = (board.width, board.height);
        let own: Vec<(usize, usize)> = solution.queens.iter().map(|&(x, y)| (y, x)).collect();
        let mut images: Vec<Vec<(usize, usize)>> = Vec::with_capacity(self.0.len());
        for &symmetry in &self.0 {
            let mut image: Vec<(usize, usize)> = solution
                .queens
                .iter()
                .map(|&q| {
                    let (x, y) = symmetry.map(q, w, h);
                    (y, x)
                })
                .collect();
            image.sort_unstable();
            if image < own {
                return None;
            }
            images.push(image);
        }
        images.sort_unstable();
        images.dedup();
        Some(images.len())
    }
}

/// An identifier of a puzzle instance for checking that shards belong together: a hash of
/// its canonical text ([`Puzzle::canonical_text`]), so the same instance gives the same
/// identifier on every machine, whatever its model file's description or layout.
pub fn model_digest(puzzle: &Puzzle) -> String {
    digest_text(&puzzle.canonical_text())
}

/// The first 16 hex digits of the SHA-256 of `text`.
fn digest_text(text: &str) -> String {
    let mut hex = crate::base::digest::sha256_hex(text.as_bytes());
    hex.truncate(16);
    hex
}

/// The sum of shard counts, checked to cover one model and goal, every shard exactly once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The model file named by the shards.
    pub model: String,
    /// The value of every counted solution.
    pub value: Option<u64>,
    /// The number of shards.
    pub shards: u32,
    /// The total count.
    pub count: u64,
    /// The total number of symmetry classes, when the shards counted them.
    pub unique_count: Option<u64>,
    /// Classes by size, summed.
    pub classes: BTreeMap<u64, u64>,
}

/// Why [`merge`] refused shard counts (bad input: the command line exits 2). Every variant
/// names the file; those about a file's contents give its line (1 for a field of the
/// document).
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A file is not JSON.
    #[error("{file}:{}: not JSON: {error}", .error.line())]
    NotJson {
        /// The file, as named.
        file: String,
        /// Where and why it does not parse.
        #[source]
        error: serde_json::Error,
    },
    /// A field of the `solve --count --json` output is missing.
    #[error("{file}:1: missing `{key}`: not the --json output of `solve --count`")]
    Missing {
        /// The file.
        file: String,
        /// The field.
        key: &'static str,
    },
    /// A field that should be a string is not one.
    #[error("{file}:1: `{key}` should be a string")]
    NotString {
        /// The file.
        file: String,
        /// The field.
        key: &'static str,
    },
    /// A field that should be a whole number is not one.
    #[error("{file}:1: `{key}` should be a whole number")]
    NotWholeNumber {
        /// The file.
        file: String,
        /// The field.
        key: &'static str,
    },
    /// A shard of another model than the first file's.
    #[error("{file}:1: a shard of a different model ({model}, digest {digest}) than {first_model} (digest {first_digest})")]
    DifferentModel {
        /// The file.
        file: String,
        /// Its model.
        model: String,
        /// Its model digest.
        digest: String,
        /// The first file's model.
        first_model: String,
        /// The first file's model digest.
        first_digest: String,
    },
    /// A shard of another goal (or counted value) than the first file's.
    #[error(
        "{file}:1: a shard of a different goal ({goal}{}) than the first file ({first_goal}{})",
        value_words(*.value),
        value_words(*.first_value)
    )]
    DifferentGoal {
        /// The file.
        file: String,
        /// Its goal.
        goal: String,
        /// The value of the solutions it counted.
        value: Option<u64>,
        /// The first file's goal.
        first_goal: String,
        /// The first file's counted value.
        first_value: Option<u64>,
    },
    /// One file counted symmetry classes and the first did not, or the other way round.
    #[error("{file}:1: counts symmetry classes differently from the first file")]
    DifferentClasses {
        /// The file.
        file: String,
    },
    /// The files are not the shards of one split, each given once, none missing, none
    /// stopped early (no file at all, a bad shard, another split, a shard twice, shards
    /// missing, an incomplete count).
    #[error(transparent)]
    Shards(#[from] ShardSetError),
}

/// A field of a count shard file as read: absent, of another type, or its value.
#[derive(Default)]
enum Field<T> {
    /// The file has no such field.
    #[default]
    Absent,
    /// The field is of another type.
    Wrong,
    /// The field's value.
    Is(T),
}

impl<T> Field<T> {
    fn value(self) -> Option<T> {
        match self {
            Field::Is(value) => Some(value),
            Field::Absent | Field::Wrong => None,
        }
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Field<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        Ok(T::deserialize(value).map_or(Field::Wrong, Field::Is))
    }
}

/// The fields of a JSON object, each a [`Field`]; a value that is no object (an array, a
/// number) has none of them.
struct Object<T>(T);

impl<T: DeserializeOwned + Default> Object<T> {
    fn of(value: serde_json::Value) -> T {
        match value {
            // Never refused: every field of `T` is a `Field`, which takes any value.
            serde_json::Value::Object(_) => T::deserialize(value).unwrap_or_default(),
            _ => T::default(),
        }
    }
}

impl<'de, T: DeserializeOwned + Default> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde_json::Value::deserialize(deserializer).map(|value| Object(Object::of(value)))
    }
}

/// The `--json` output of `solve --count` as [`merge`] reads it (its other fields are not
/// read).
#[derive(Default, Deserialize)]
#[serde(default)]
struct CountFile {
    model_digest: Field<String>,
    goal: Field<String>,
    backend: Field<String>,
    model: Field<String>,
    complete: Field<bool>,
    /// `null` for an unsharded count.
    shard: Field<Option<Object<ShardFields>>>,
    unique_count: Field<u64>,
    value: Field<u64>,
    classes: Field<Vec<Object<ClassFields>>>,
    count: Field<u64>,
}

/// A count file's `shard`.
#[derive(Default, Deserialize)]
#[serde(default)]
struct ShardFields {
    index: Field<u64>,
    count: Field<u64>,
}

/// One entry of a count file's `classes`.
#[derive(Default, Deserialize)]
#[serde(default)]
struct ClassFields {
    size: Field<u64>,
    classes: Field<u64>,
}

/// One count shard: its part of the total, and what must agree across the shards.
struct CountPart {
    model: String,
    digest: String,
    goal: String,
    value: Option<u64>,
    count: u64,
    unique_count: Option<u64>,
    classes: BTreeMap<u64, u64>,
}

/// Reads the count shard `file` (its contents `text`), checking its fields in the order of
/// the file's description: the strings, `complete`, the shard, the classes and the count.
fn read_count_shard(
    file: &str,
    text: &str,
    shards: &ShardSet<CountPart>,
) -> Result<(Shard, CountPart), MergeError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|error| MergeError::NotJson {
            file: file.to_string(),
            error,
        })?;
    let fields = Object::<CountFile>::of(value);
    let text_of = |field: Field<String>, key: &'static str| match field {
        Field::Is(text) => Ok(text),
        Field::Absent => Err(MergeError::Missing {
            file: file.to_string(),
            key,
        }),
        Field::Wrong => Err(MergeError::NotString {
            file: file.to_string(),
            key,
        }),
    };
    let number = |field: Field<u64>, key: &'static str| {
        field.value().ok_or_else(|| MergeError::NotWholeNumber {
            file: file.to_string(),
            key,
        })
    };
    let digest = text_of(fields.model_digest, "model_digest")?;
    let goal = text_of(fields.goal, "goal")?;
    text_of(fields.backend, "backend")?;
    let model = text_of(fields.model, "model")?;
    match fields.complete {
        Field::Is(true) => {}
        Field::Absent => {
            return Err(MergeError::Missing {
                file: file.to_string(),
                key: "complete",
            })
        }
        Field::Is(false) | Field::Wrong => {
            return Err(ShardSetError::Stopped {
                file: file.to_string(),
            }
            .into())
        }
    }
    // Never `Wrong`: any value but null reads as an object (one without fields if it is none).
    let shard = match fields.shard.value() {
        None => {
            return Err(MergeError::Missing {
                file: file.to_string(),
                key: "shard",
            })
        }
        Some(None) => Shard { index: 1, count: 1 },
        Some(Some(Object(shard))) => shards.shard(
            file,
            number(shard.index, "index")?,
            number(shard.count, "count")?,
        )?,
    };
    let mut classes = BTreeMap::new();
    for Object(class) in fields.classes.value().unwrap_or_default() {
        classes.insert(
            number(class.size, "size")?,
            number(class.classes, "classes")?,
        );
    }
    let part = CountPart {
        model,
        digest,
        goal,
        value: fields.value.value(),
        count: number(fields.count, "count")?,
        unique_count: fields.unique_count.value(),
        classes,
    };
    Ok((shard, part))
}

/// Adds up the `--json` outputs of `solve --count --shard I/N` runs. Each input is (file
/// name, contents). Errors name the file and, for malformed JSON, the line.
pub fn merge(inputs: &[(String, String)]) -> Result<Merged, MergeError> {
    let mut shards = ShardSet::new(ShardFiles::Counts);
    for (file, text) in inputs {
        let (shard, part) = read_count_shard(file, text, &shards)?;
        if let Some(first) = shards.first() {
            if part.digest != first.digest {
                return Err(MergeError::DifferentModel {
                    file: file.clone(),
                    model: part.model,
                    digest: part.digest,
                    first_model: first.model.clone(),
                    first_digest: first.digest.clone(),
                });
            }
            if part.goal != first.goal || part.value != first.value {
                return Err(MergeError::DifferentGoal {
                    file: file.clone(),
                    goal: part.goal,
                    value: part.value,
                    first_goal: first.goal.clone(),
                    first_value: first.value,
                });
            }
            shards.check_split(file, shard)?;
            if part.unique_count.is_some() != first.unique_count.is_some() {
                return Err(MergeError::DifferentClasses { file: file.clone() });
            }
        }
        shards.insert(file, shard, part)?;
    }
    let (count, parts) = shards.complete()?;
    let mut classes = BTreeMap::new();
    for (&size, &n) in parts.iter().flat_map(|part| &part.classes) {
        *classes.entry(size).or_default() += n;
    }
    Ok(Merged {
        model: parts[0].model.clone(),
        value: parts[0].value,
        shards: count,
        count: parts.iter().map(|part| part.count).sum(),
        // The same for every shard (checked above): all counted classes, or none did.
        unique_count: parts.iter().map(|part| part.unique_count).sum(),
        classes,
    })
}

/// A counted value for merge's errors: ", value 20", or nothing for a count without one.
fn value_words(value: Option<u64>) -> String {
    value.map_or(String::new(), |v| format!(", value {v}"))
}

/// What [`enumerate_dissections`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DissectionCount {
    /// Dissections reported, each verified.
    pub count: u64,
    /// Whether the search ran to the end, so `count` is the number of dissections.
    pub complete: bool,
    /// How the count was established, in words.
    pub evidence: String,
}

/// Lists every dissection once (never once per labelling of its parts) with the native
/// search or SAT (blocking clauses on the part variables), verifying each from scratch
/// before `on_solution` sees it; `on_solution` returns false to stop.
pub fn enumerate_dissections(
    shape: &DissectionPuzzle,
    backend: Backend,
    control: &Control,
    on_solution: &mut dyn FnMut(&Dissection) -> bool,
) -> Result<DissectionCount, SolveError> {
    if let Some(reason) = shape.trivially_impossible() {
        return Ok(DissectionCount {
            count: 0,
            complete: true,
            evidence: reason,
        });
    }
    let mut wrong = None;
    let mut checked = |d: &Dissection| match shape.verify(d) {
        Ok(()) => on_solution(d),
        Err(error) => {
            wrong = Some(error);
            false
        }
    };
    let result = match backend {
        Backend::Native => {
            let search = super::native::enumerate_puzzle(shape, control, &mut checked);
            DissectionCount {
                count: search.count,
                complete: search.complete,
                evidence: format!("native search ({} nodes)", search.nodes),
            }
        }
        Backend::Sat => {
            let thread_shape = shape.clone();
            let found = enumerate_stoppable(
                move || thread_shape.compile(),
                shape.solution_vars(),
                None,
                control,
                &mut |assignment| checked(&shape.decode(assignment)),
            )
            .map_err(|error| SolveError::Backend {
                backend: "sat",
                failure: error.into(),
            })?
            .unwrap_or_default();
            DissectionCount {
                count: found.count,
                complete: found.complete,
                evidence: format!(
                    "varisat with blocking clauses on the part variables ({}, {})",
                    plural(found.calls as u64, "call"),
                    plural(found.cuts as u64, "cut")
                ),
            }
        }
        Backend::Milp => {
            return Err(SolveError::Usage(
                "dissections are enumerated by the sat and native backends only".into(),
            ))
        }
    };
    match wrong {
        Some(error) => Err(SolveError::WrongSolution {
            backend: backend.name(),
            error,
        }),
        None if !result.complete && control.should_stop() => Ok(DissectionCount {
            evidence: format!(
                "{}; {}: the dissections found before the stop, a lower bound",
                control.reason(),
                result.evidence
            ),
            ..result
        }),
        None => Ok(result),
    }
}

/// What the SAT enumeration thread sends back.
enum Sent {
    /// One more model.
    Model(Assignment),
    /// The enumeration's end.
    Done(Result<Option<Enumeration>, OracleError>),
}

/// How often a waiting count looks at the clock and the Ctrl-C flag.
const POLL: Duration = Duration::from_millis(20);

/// [`varisat::enumerate`] on the model `compile` builds, run on a thread of its own, each
/// model handed to `on_model` here. One varisat call cannot be interrupted, and one can
/// take seconds; so at the deadline or Ctrl-C this returns at once with the models handed
/// out so far (incomplete) and abandons the thread, which ends after its call (the models
/// it still finds are dropped). `on_model` returning false stops the enumeration too.
fn enumerate_stoppable(
    compile: impl FnOnce() -> Model + Send + 'static,
    project: Vec<Var>,
    at_least: Option<usize>,
    control: &Control,
    on_model: &mut dyn FnMut(&Assignment) -> bool,
) -> Result<Option<Enumeration>, OracleError> {
    let (sender, receiver) = mpsc::channel();
    let thread_control = control.clone();
    std::thread::Builder::new()
        .name("puzzlec-sat-count".into())
        .spawn(move || {
            let model = compile();
            let models = sender.clone();
            let result = varisat::enumerate(
                &model,
                &project,
                at_least,
                &thread_control,
                // A receiver that has gone (stopped, or told to stop) ends the run.
                &mut |assignment| models.send(Sent::Model(assignment.clone())).is_ok(),
            );
            let _ = sender.send(Sent::Done(result));
        })
        .map_err(|e| OracleError::Embedded(format!("cannot start a thread: {e}")))?;
    let mut handed = 0;
    let so_far = |count| {
        Ok(Some(Enumeration {
            count,
            complete: false,
            ..Enumeration::default()
        }))
    };
    loop {
        if control.should_stop() {
            return so_far(handed);
        }
        match receiver.recv_timeout(POLL) {
            Ok(Sent::Model(assignment)) => {
                handed += 1;
                if !on_model(&assignment) {
                    return so_far(handed);
                }
            }
            Ok(Sent::Done(result)) => return result,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(OracleError::Embedded(
                    "the SAT enumeration thread ended without an answer".into(),
                ))
            }
        }
    }
}

/// Counts tilings with varisat (independently of the native search): the model without
/// symmetry breaking, one blocking clause per tiling; each tiling's orbit is named by its
/// least image under the region's symmetries, and the names are counted. Stoppable at
/// once (see [`enumerate_stoppable`]); a stopped count keeps the tilings found.
fn count_tilings_sat(
    packing: &crate::puzzle::packing::Packing,
    control: &Control,
) -> Result<crate::driver::packing::Counts, OracleError> {
    let group = crate::driver::packing::symmetries(packing);
    let mut orbits: HashSet<Vec<(usize, Vec<usize>)>> = HashSet::new();
    let placements: Vec<Var> = (0..packing.instance.placements.len())
        .map(Var::from_index)
        .collect();
    let thread_packing = packing.clone();
    let found = enumerate_stoppable(
        move || thread_packing.compile_with(false),
        placements,
        None,
        control,
        &mut |assignment| {
            let least = crate::driver::packing::canonical(&group, &packing.decode(assignment));
            orbits.insert(least);
            true
        },
    )?
    .unwrap_or_default();
    Ok(crate::driver::packing::Counts {
        raw: found.count,
        up_to_symmetry: orbits.len() as u64,
        complete: found.complete,
    })
}
