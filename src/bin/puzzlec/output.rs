//! Everything the command line prints, and how a failure becomes an exit code.

use puzzlec::base::error::{InputError, NamesSettings, Setting};
use puzzlec::base::{Goal, Sense, Status};
use puzzlec::driver::guard::{self, Work};
use puzzlec::driver::SolveError;
use puzzlec::puzzle::Puzzle;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

/// Exit codes that scripts can rely on.
pub mod exit {
    /// An optimisation finished and proved its answer, or a file was written.
    pub const OK: u8 = 0;
    /// Backends disagree, a solution failed verification, a backend failed, or a
    /// certificate failed its check.
    pub const INTERNAL: u8 = 1;
    /// Bad input: the model file, a flag, or an output file.
    pub const BAD_INPUT: u8 = 2;
    /// A limit stopped the run before it proved its answer, or `check` found a streamed
    /// run under way.
    pub const NOT_PROVEN: u8 = 3;
    /// The decision question has a yes answer (as SAT solvers report).
    pub const SATISFIABLE: u8 = 10;
    /// The decision question has a no answer (as SAT solvers report).
    pub const UNSATISFIABLE: u8 = 20;
}

/// Why a command failed, with the exit code it maps to.
pub enum Failure {
    /// A model file or another input file is wrong: exit 2.
    Input(InputError),
    /// A flag or an output path is wrong: exit 2.
    Usage(String),
    /// Something that should not happen did: exit 1.
    Internal(String),
}

impl From<InputError> for Failure {
    fn from(error: InputError) -> Failure {
        Failure::Input(error)
    }
}

impl From<SolveError> for Failure {
    fn from(error: SolveError) -> Failure {
        match error {
            SolveError::Usage(message) => Failure::Usage(message),
            SolveError::Misused(misuse) => Failure::Usage(misuse.describe(&flag)),
            error => Failure::Internal(error.to_string()),
        }
    }
}

/// The flag that sets `setting`, as the command line's messages name it where the
/// library's name the setting.
pub fn flag(setting: Setting) -> String {
    match setting {
        Setting::Shard => "--shard".into(),
        Setting::Size => "--size".into(),
        Setting::WidthAndHeight => "--width and --height".into(),
        Setting::Solver => "--solver".into(),
        Setting::Backend(backend) => format!("--backend {backend}"),
        Setting::AnyBackend => "--backend".into(),
        Setting::AtLeast => "--at-least".into(),
        Setting::List => "--all".into(),
        Setting::Count => "--count".into(),
        Setting::Unique => "--unique".into(),
        Setting::MaxListed => "--max-solutions".into(),
    }
}

/// Prints to stdout; a closed pipe (`puzzlec ... | head`) is not an error.
pub fn print_stdout(text: &str) {
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush())
    {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: cannot write to stdout: {e}");
        }
    }
}

/// Prints a JSON document (see [`puzzlec::report::json::document`]), pretty, on stdout.
pub fn print_json(value: impl serde::Serialize) {
    let value = puzzlec::report::json::document(value);
    print_stdout(&format!(
        "{}\n",
        serde_json::to_string_pretty(&value).unwrap_or_default()
    ));
}

/// Writes `contents` into `path`, or fails saying which file could not be written.
pub fn write_file(path: &Path, contents: impl AsRef<[u8]>) -> Result<(), Failure> {
    std::fs::write(path, contents)
        .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", path.display())))
}

/// Fails early, before a long solve, when `path`'s folder does not exist.
pub fn check_writable(path: &Path) -> Result<(), Failure> {
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
    match parent {
        Some(dir) if !dir.is_dir() => Err(Failure::Usage(format!(
            "cannot write {}: no such folder {}",
            path.display(),
            dir.display()
        ))),
        _ => Ok(()),
    }
}

/// The goal `--at-least K` or `--at-most K` asks of `puzzle`, on the model's score (for a
/// puzzle that asks for the fewest, "at most K pieces" is "at least the free squares less
/// K left empty"). `--at-least` needs an objective that asks for the most, `--at-most` one
/// that asks for the fewest.
pub fn goal(
    puzzle: &Puzzle,
    at_least: Option<usize>,
    at_most: Option<usize>,
) -> Result<Goal, Failure> {
    let (flag, k) = match (at_least, at_most) {
        (Some(k), _) => ("--at-least", k),
        (None, Some(k)) => ("--at-most", k),
        (None, None) => return Ok(Goal::Maximise),
    };
    let kind = puzzle.kind();
    if !puzzle.has_objective() {
        return Err(Failure::Usage(format!(
            "{flag} does not apply: a {kind} puzzle has no objective"
        )));
    }
    let sense = puzzle.sense();
    match (sense, at_most.is_some()) {
        (Sense::Fewest { .. }, false) => Err(Failure::Usage(format!(
            "--at-least does not apply: this {kind} puzzle asks for the fewest pieces \
             (--at-most K asks whether K or fewer do)"
        ))),
        (Sense::Most, true) => Err(Failure::Usage(format!(
            "--at-most does not apply: this {kind} puzzle asks for the most pieces \
             (--at-least K asks whether K or more do)"
        ))),
        // More pieces than free squares: as many as there are.
        (Sense::Fewest { of }, true) => Ok(Goal::AtLeast(sense.score(k.min(of)))),
        (Sense::Most, false) => Ok(Goal::AtLeast(k)),
    }
}

/// Refuses `work` on `puzzle` (from the model file `model`) when its memory estimate is
/// above `limit` bytes (`--max-memory`): one line with the estimate and the flag, exit 2.
pub fn guard_memory(
    model: &Path,
    puzzle: &Puzzle,
    work: Work,
    what: &str,
    limit: u64,
) -> Result<(), Failure> {
    let what = format!("{}: {what}", model.display());
    guard::check(puzzle, work, &what, limit)
        .map(|_| ())
        .map_err(|e| Failure::Usage(e.to_string()))
}

/// `--time-limit` as a duration.
pub fn limit(seconds: Option<f64>) -> Result<Option<Duration>, Failure> {
    match seconds {
        None => Ok(None),
        Some(s) if s.is_finite() && s > 0.0 && s < 1e9 => Ok(Some(Duration::from_secs_f64(s))),
        Some(s) => Err(Failure::Usage(format!(
            "--time-limit must be a positive number of seconds, not {s}"
        ))),
    }
}

/// The exit code of an answer to `goal` that ended with `status`.
pub fn exit_code(goal: Goal, status: Status) -> u8 {
    match (goal, status) {
        // Solving a puzzle without an objective (a dissection) completes with any solution.
        (Goal::Maximise, Status::Satisfiable) => exit::OK,
        (_, Status::Satisfiable) => exit::SATISFIABLE,
        (Goal::AtLeast(_), Status::Unsatisfiable) => exit::UNSATISFIABLE,
        (_, Status::Optimal) | (Goal::Maximise, Status::Unsatisfiable) => exit::OK,
        (_, Status::Feasible | Status::Unknown) => exit::NOT_PROVEN,
    }
}
