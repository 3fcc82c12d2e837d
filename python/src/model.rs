//! The native model: a loaded puzzle and the calls on it (solve, count, enumerate, emit,
//! decode, prove, compare), each the command line's path through the library without its
//! printing.

use crate::convert::{serialised, to_python};
use crate::errors::{self, check_error, model_error, prove_error, solve_error, usage};
use crate::run::{interruptible, Limits};
use puzzlec::base::{Goal, Status};
use puzzlec::cert::certificate::{self, PackingRoute, ProveOptions};
use puzzlec::driver::decode::{decode, DecodeError, DecodeInput};
use puzzlec::driver::emit::{emit_to, EmitError, EmitOptions, Format};
use puzzlec::driver::enumerate::EnumerateOptions;
use puzzlec::driver::external::{Contender, ExternalSolver};
use puzzlec::driver::guard::{self, Work};
use puzzlec::driver::{self, Backend, CompareRow, Outcome, Verdict};
use puzzlec::model::Assignment;
use puzzlec::puzzle::load::parse_model;
use puzzlec::puzzle::{load_model_file, Puzzle, Solution};
use puzzlec::report::json::CompareRowJson;
use puzzlec::report::{render, svg, text};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// Solutions an unread iterator holds before the enumeration waits for the reader.
const SOLUTIONS_AHEAD: usize = 64;

/// A puzzle loaded from a model file or from text.
#[pyclass(frozen, module = "puzzlec._native")]
pub struct Model {
    puzzle: Arc<Puzzle>,
    /// The file it came from, or the name given to its text.
    origin: PathBuf,
    /// The model file's text.
    text: String,
    /// Whether `origin` is a file on disk (`prove` copies it into the certificate).
    on_disk: bool,
}

impl Model {
    /// Loads the model file at `path`.
    pub fn from_file(py: Python<'_>, path: PathBuf) -> PyResult<Model> {
        let puzzle = load_model_file(&path).map_err(|e| model_error(py, &e))?;
        // The file was just read as UTF-8; a change since is read as it is now.
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        Ok(Model {
            puzzle: Arc::new(puzzle),
            origin: path,
            text,
            on_disk: true,
        })
    }

    /// Parses `text`, naming it `name` in messages.
    pub fn from_text(py: Python<'_>, text: String, name: &str) -> PyResult<Model> {
        let origin = PathBuf::from(name);
        let puzzle = parse_model(&origin, text.clone()).map_err(|e| model_error(py, &e))?;
        Ok(Model {
            puzzle: Arc::new(puzzle),
            origin,
            text,
            on_disk: false,
        })
    }

    /// Refuses `work` on the model when its memory estimate is over `limit` bytes, as the
    /// command line's `--max-memory` does.
    fn guard(&self, work: Work, what: &str, limit: u64) -> PyResult<()> {
        let what = format!("{}: {what}", self.origin.display());
        guard::check(&self.puzzle, work, &what, limit)
            .map(|_| ())
            .map_err(|e| usage(e.to_string()))
    }

    /// The goal `at_least` asks for, refused for a puzzle without an objective.
    fn goal(&self, at_least: Option<usize>) -> PyResult<Goal> {
        match at_least {
            Some(_) if !self.puzzle.has_objective() => Err(usage(format!(
                "at_least does not apply: a {} puzzle has no objective",
                self.puzzle.kind()
            ))),
            Some(k) => Ok(Goal::AtLeast(k)),
            None => Ok(Goal::Maximise),
        }
    }

    /// The origin as the library's messages and emitted headers name it.
    fn origin_name(&self) -> String {
        self.origin.display().to_string()
    }
}

/// The backend named `name`.
fn backend(name: &str) -> PyResult<Backend> {
    Backend::from_name(name).ok_or_else(|| {
        usage(format!(
            "unknown backend {name:?} (expected one of: sat, milp, native)"
        ))
    })
}

/// An external solver named by `spec` for `backend`, worded as the library words settings.
fn external(backend: Backend, spec: &str) -> PyResult<ExternalSolver> {
    ExternalSolver::parse(backend, spec).map_err(|e| usage(e.to_string()))
}

#[pymethods]
impl Model {
    /// The family: `queens`, `packing` or `dissection`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.puzzle.kind()
    }

    /// Whether the puzzle has an objective to maximise.
    #[getter]
    fn has_objective(&self) -> bool {
        self.puzzle.has_objective()
    }

    /// The model file's text.
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }

    /// The file the model came from, or the name given to its text.
    #[getter]
    fn origin(&self) -> String {
        self.origin_name()
    }

    /// The board (or box, or shape) drawn with nothing placed.
    fn board(&self) -> Drawing {
        let empty = Assignment::new(vec![false; self.puzzle.compile().num_vars()]);
        Drawing {
            puzzle: self.puzzle.clone(),
            solution: self.puzzle.decode(&empty),
        }
    }

    /// One answer: a dict of the outcome (see `puzzlec.Answer`).
    #[pyo3(signature = (backend=None, solver=None, time_limit=None, max_memory=None, at_least=None))]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        backend: Option<&str>,
        solver: Option<&str>,
        time_limit: Option<f64>,
        max_memory: Option<u64>,
        at_least: Option<usize>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let goal = self.goal(at_least)?;
        let limits = Limits::new(time_limit, max_memory)?;
        let chosen = backend.map(self::backend).transpose()?;
        let puzzle = self.puzzle.clone();
        let control = limits.control.clone();
        let outcome =
            if chosen.is_none() && solver.is_none() && driver::portfolio::applies(&self.puzzle) {
                let memory = limits.memory;
                interruptible(py, &limits.stop, move || {
                    driver::portfolio::solve_portfolio(&puzzle, goal, &control, memory)
                })?
            } else {
                // Without a backend, an external solver's program says which backend it serves.
                let chosen = match (chosen, solver) {
                    (Some(chosen), _) => chosen,
                    (None, Some(spec)) => ExternalSolver::infer_backend(spec),
                    (None, None) => Backend::preferred_for(&self.puzzle),
                };
                match chosen {
                    Backend::Sat => self.guard(Work::Sat, "solve backend=sat", limits.memory)?,
                    Backend::Milp => self.guard(Work::Milp, "solve backend=milp", limits.memory)?,
                    Backend::Native => {}
                }
                match solver {
                    Some(spec) => {
                        let solver = external(chosen, spec)?;
                        interruptible(py, &limits.stop, move || {
                            driver::solve_external(&puzzle, &solver, goal, &control)
                        })?
                    }
                    None => interruptible(py, &limits.stop, move || {
                        driver::solve(&puzzle, chosen, goal, &control)
                    })?,
                }
            }
            .map_err(solve_error)?;
        answer(py, &self.puzzle, goal, &outcome)
    }

    /// Counts the optimal solutions (all solutions, without an objective): a dict with the
    /// count, the classes with `unique`, and how the count was established.
    #[pyo3(signature = (unique=false, backend=None, time_limit=None, max_memory=None, at_least=None))]
    fn count<'py>(
        &self,
        py: Python<'py>,
        unique: bool,
        backend: Option<&str>,
        time_limit: Option<f64>,
        max_memory: Option<u64>,
        at_least: Option<usize>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (chosen, options, limits) =
            self.enumeration(unique, false, backend, time_limit, max_memory, at_least)?;
        let puzzle = self.puzzle.clone();
        let control = limits.control.clone();
        let outcome = interruptible(py, &limits.stop, move || {
            driver::enumerate(&puzzle, chosen, &options, &control, &mut |_| {})
        })?
        .map_err(solve_error)?;
        let dict = PyDict::new(py);
        dict.set_item("count", outcome.count)?;
        dict.set_item("classes", outcome.unique_count)?;
        let sizes = PyDict::new(py);
        for (size, classes) in &outcome.classes {
            sizes.set_item(size, classes)?;
        }
        dict.set_item("class_sizes", sizes)?;
        dict.set_item("symmetries", outcome.symmetries)?;
        dict.set_item("complete", outcome.complete)?;
        dict.set_item("value", outcome.value)?;
        dict.set_item("backend", outcome.backend.name())?;
        dict.set_item("elapsed", outcome.elapsed.as_secs_f64())?;
        dict.set_item("evidence", serialised(py, &outcome.evidence)?)?;
        dict.set_item("evidence_text", outcome.evidence.to_string())?;
        Ok(dict)
    }

    /// The optimal solutions one by one (one per class with `unique`), produced on a thread
    /// as the iterator is read; dropping the iterator stops the enumeration.
    #[pyo3(signature = (unique=false, backend=None, time_limit=None, max_memory=None, at_least=None))]
    fn solutions(
        &self,
        unique: bool,
        backend: Option<&str>,
        time_limit: Option<f64>,
        max_memory: Option<u64>,
        at_least: Option<usize>,
    ) -> PyResult<Solutions> {
        let (chosen, options, limits) =
            self.enumeration(unique, true, backend, time_limit, max_memory, at_least)?;
        let (sender, receiver) = mpsc::sync_channel(SOLUTIONS_AHEAD);
        let puzzle = self.puzzle.clone();
        let stop = limits.stop.clone();
        let control = limits.control;
        let thread = std::thread::Builder::new()
            .name("puzzlec-solutions".to_string())
            .spawn(move || {
                // Some searches list every solution before handing any over (native queens):
                // once the reader has stopped, the rest are dropped here, not sent.
                let mut hand_over = |solution: &Solution| {
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    // The reader dropped the iterator: stop the search.
                    if sender.send(solution.clone()).is_err() {
                        stop.store(true, Ordering::SeqCst);
                    }
                };
                let outcome =
                    driver::enumerate(&puzzle, chosen, &options, &control, &mut hand_over);
                // Complete only when the search finished and the reader was handed everything.
                outcome
                    .map(|outcome| outcome.complete && !stop.load(Ordering::SeqCst))
                    .map_err(|e| e.to_string())
            })
            .map_err(|e| errors::SolveError::new_err(format!("cannot start a thread: {e}")))?;
        Ok(Solutions {
            puzzle: self.puzzle.clone(),
            stop: limits.stop,
            receiver: Mutex::new(receiver),
            thread: Mutex::new(Some(thread)),
            complete: Mutex::new(None),
        })
    }

    /// The model as `format` text, or written to `path` (through a temporary file renamed
    /// once complete) when given.
    #[pyo3(signature = (format, path=None, at_least=None, time_limit=None))]
    fn emit(
        &self,
        py: Python<'_>,
        format: &str,
        path: Option<PathBuf>,
        at_least: Option<usize>,
        time_limit: Option<f64>,
    ) -> PyResult<Option<String>> {
        let format = Format::ALL
            .into_iter()
            .find(|f| f.name() == format)
            .ok_or_else(|| {
                let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
                usage(format!(
                    "unknown format {format:?} (expected one of: {})",
                    names.join(", ")
                ))
            })?;
        self.goal(at_least)?;
        let limits = Limits::new(time_limit, None)?;
        let options = EmitOptions::new(format, at_least);
        let work = Work::Emit {
            format,
            at_least,
            complete: options.complete,
        };
        self.guard(
            work,
            &format!("emit format={}", format.name()),
            limits.memory,
        )?;
        let (puzzle, origin, control) = (
            self.puzzle.clone(),
            self.origin_name(),
            limits.control.clone(),
        );
        match path {
            None => {
                let written = interruptible(py, &limits.stop, move || {
                    let mut out = Vec::new();
                    emit_to(&puzzle, &origin, &options, &mut out, &control).map(|()| out)
                })?;
                match written {
                    Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
                    Err(error) => Err(emit_error(error, None)),
                }
            }
            Some(path) => {
                let target = path.clone();
                let written = interruptible(py, &limits.stop, move || {
                    write_atomically(&target, |out| {
                        emit_to(&puzzle, &origin, &options, out, &control)
                    })
                })?;
                written
                    .map(|()| None)
                    .map_err(|e| emit_error(e, Some(&path)))
            }
        }
    }

    /// Reads an external solver's answer (`answer_text`, named `answer_name`) to a file `emit`
    /// wrote (`emitted`, as (name, text), or the file `emit` writes now), checks it and
    /// decodes it into a verified solution: a dict of the outcome.
    #[pyo3(signature = (answer_text, answer_name="<answer>", emitted=None))]
    fn decode<'py>(
        &self,
        py: Python<'py>,
        answer_text: &str,
        answer_name: &str,
        emitted: Option<(String, String)>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let start = Instant::now();
        let origin = self.origin_name();
        let input = DecodeInput {
            answer_name,
            answer: answer_text,
            emitted: emitted.as_ref().map(|(n, t)| (n.as_str(), t.as_str())),
            origin: &origin,
        };
        let decoded = decode(&self.puzzle, &input).map_err(|error| match error {
            DecodeError::Unreadable(error) => usage(error.to_string()),
            error @ DecodeError::Rejected { .. } => errors::SolveError::new_err(error.to_string()),
        })?;
        let outcome = decoded.into_outcome(&self.puzzle, start.elapsed());
        answer(py, &self.puzzle, Goal::Maximise, &outcome)
    }

    /// Writes a certificate of the model's answer (or, with `count`, of its number of
    /// solutions) into `folder`: the manifest as a dict.
    // One argument per Python keyword, as the command line has one flag each.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (folder, count=false, unique=false, max_solutions=None, time_limit=None, max_memory=None))]
    fn prove<'py>(
        &self,
        py: Python<'py>,
        folder: PathBuf,
        count: bool,
        unique: bool,
        max_solutions: Option<u64>,
        time_limit: Option<f64>,
        max_memory: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let limits = Limits::new(time_limit, max_memory)?;
        self.guard(Work::Sat, "prove", limits.memory)?;
        let mut options = ProveOptions {
            count: count || unique,
            unique,
            control: limits.control.clone(),
            packing_route: PackingRoute::Auto,
            // As the command line: one shard per core, each small enough to check within the
            // memory limit.
            veripb_shards: std::thread::available_parallelism()
                .map_or(1, std::num::NonZeroUsize::get),
            max_shard_bytes: Some(limits.memory / 5 * 2),
            ..ProveOptions::new(puzzlec::report::evidence::words)
        };
        if let Some(most) = max_solutions {
            options.max_listed = most;
        }
        // A model read from text is proved from a file of that text (the certificate keeps a
        // copy of the model file either way).
        let scratch = match self.on_disk {
            true => None,
            false => Some(Scratch::with(&self.text)?),
        };
        let model_path = scratch
            .as_ref()
            .map_or(self.origin.clone(), |s| s.path.clone());
        let dir = folder.clone();
        let proved = interruptible(py, &limits.stop, move || {
            certificate::prove_using(&model_path, &dir, &options)
        })?;
        drop(scratch);
        let manifest = proved.map_err(|e| prove_error(py, e))?;
        let value = serialised(py, &manifest)?;
        value.set_item("folder", folder.display().to_string())?;
        Ok(value)
    }

    /// Runs each of `backends` (backend names or external solver programs; by default every
    /// backend and every external solver installed) on the model: the rows, as dicts, and
    /// whether the proven answers agree.
    #[pyo3(signature = (backends=None, time_limit=None, max_memory=None, at_least=None))]
    fn compare<'py>(
        &self,
        py: Python<'py>,
        backends: Option<Vec<String>>,
        time_limit: Option<f64>,
        max_memory: Option<u64>,
        at_least: Option<usize>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let goal = self.goal(at_least)?;
        let limits = Limits::new(time_limit, max_memory)?;
        let contenders: Vec<Contender> = match backends {
            None => Backend::ALL
                .into_iter()
                .map(Contender::Embedded)
                .chain(
                    ExternalSolver::available()
                        .into_iter()
                        .map(Contender::External),
                )
                .collect(),
            Some(names) => names
                .iter()
                .map(|name| match Backend::from_name(name) {
                    Some(backend) => Ok(Contender::Embedded(backend)),
                    None => {
                        external(ExternalSolver::infer_backend(name), name).map(Contender::External)
                    }
                })
                .collect::<PyResult<_>>()?,
        };
        let puzzle = self.puzzle.clone();
        let total = time_limit.map(Duration::from_secs_f64);
        let stop = limits.stop.clone();
        let memory = limits.memory;
        let rows = interruptible(py, &limits.stop, move || {
            compare_rows(&puzzle, &contenders, goal, total, &stop, memory)
        })?
        .map_err(solve_error)?;
        let verdict = driver::verdict(&rows);
        let dict = PyDict::new(py);
        let listed: Vec<CompareRowJson> = rows.iter().map(CompareRowJson::of).collect();
        dict.set_item("rows", serialised(py, &listed)?)?;
        dict.set_item("agree", !matches!(verdict, Verdict::Disagree(_)))?;
        dict.set_item("all_proven", verdict == Verdict::AllAgree)?;
        dict.set_item("verdict", text::verdict_line(&verdict))?;
        if let Verdict::Disagree(message) = verdict {
            dict.set_item("disagreement", format!("backends disagree: {message}"))?;
        }
        Ok(dict)
    }

    fn __repr__(&self) -> String {
        format!(
            "<puzzlec.Model {} from {}>",
            self.kind(),
            self.origin_name()
        )
    }
}

/// The rows of `compare`: each contender in turn with an equal share of the time left, as the
/// command line runs them. A wrong solution is an error, not a row.
fn compare_rows(
    puzzle: &Puzzle,
    contenders: &[Contender],
    goal: Goal,
    total: Option<Duration>,
    stop: &Arc<AtomicBool>,
    memory: u64,
) -> Result<Vec<CompareRow>, driver::SolveError> {
    let start = Instant::now();
    let mut rows = Vec::new();
    for (i, contender) in contenders.iter().enumerate() {
        if stop.load(Ordering::SeqCst) {
            rows.push(CompareRow::NotRun {
                label: contender.label(),
            });
            continue;
        }
        let share =
            total.map(|t| t.saturating_sub(start.elapsed()) / (contenders.len() - i) as u32);
        let control = puzzlec::Control::new(stop.clone(), share).with_memory(memory);
        let began = Instant::now();
        let work = match contender {
            Contender::Embedded(Backend::Native) => None,
            Contender::Embedded(Backend::Sat) => Some(Work::Sat),
            Contender::Embedded(Backend::Milp) => Some(Work::Milp),
            Contender::External(solver) => Some(match solver.backend() {
                Backend::Milp => Work::Milp,
                _ => Work::Sat,
            }),
        };
        let failed = |error: String| CompareRow::Failed {
            label: contender.label(),
            error,
            elapsed: began.elapsed(),
        };
        if let Some(work) = work {
            if let Err(error) = guard::check(puzzle, work, "this row", memory) {
                rows.push(failed(error.to_string()));
                continue;
            }
        }
        let result = match contender {
            Contender::Embedded(backend) => driver::solve(puzzle, *backend, goal, &control),
            Contender::External(solver) => driver::solve_external(puzzle, solver, goal, &control),
        };
        rows.push(match result {
            Ok(outcome) => CompareRow::Answered(Box::new(outcome)),
            Err(
                error @ (driver::SolveError::WrongSolution { .. }
                | driver::SolveError::WrongValue { .. }),
            ) => return Err(error),
            Err(driver::SolveError::External { failure, .. }) => failed(failure.to_string()),
            Err(driver::SolveError::Backend { failure, .. }) => failed(failure.to_string()),
            Err(error) => failed(error.to_string()),
        });
    }
    Ok(rows)
}

impl Model {
    /// The backend, options and limits of a count or an enumeration, checked as the command
    /// line checks them.
    fn enumeration(
        &self,
        unique: bool,
        list: bool,
        backend: Option<&str>,
        time_limit: Option<f64>,
        max_memory: Option<u64>,
        at_least: Option<usize>,
    ) -> PyResult<(Backend, EnumerateOptions, Limits)> {
        self.goal(at_least)?;
        let limits = Limits::new(time_limit, max_memory)?;
        let chosen = backend.map_or(Ok(Backend::Native), self::backend)?;
        if chosen == Backend::Sat {
            self.guard(Work::Sat, "count backend=sat", limits.memory)?;
        }
        let options = EnumerateOptions {
            unique,
            shard: None,
            list,
            at_least,
            at_most: None,
        };
        Ok((chosen, options, limits))
    }
}

/// A solution drawn: its text rows, its data and its SVG picture.
#[pyclass(frozen, module = "puzzlec._native")]
pub struct Drawing {
    puzzle: Arc<Puzzle>,
    solution: Solution,
}

#[pymethods]
impl Drawing {
    /// The solution's grid, one string per row (as `solve --json` gives it).
    fn rows(&self) -> Vec<String> {
        let data = self.puzzle.solution_json(&self.solution);
        data["grid"]
            .as_array()
            .map(|rows| {
                rows.iter()
                    .filter_map(|row| row.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The solution as the command line prints it (the value, then the grid).
    fn text(&self) -> String {
        self.puzzle.render(&self.solution)
    }

    /// The solution as data: the family's coordinates (`queens`, `pieces` or `parts`) and
    /// the `grid` rows, as `solve --json` gives them.
    fn data<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.puzzle.solution_json(&self.solution))
    }

    /// The objective value of the solution, or `None` for a family without an objective.
    fn value(&self) -> Option<usize> {
        self.puzzle
            .has_objective()
            .then(|| self.puzzle.value(&self.solution))
    }

    /// The picture as SVG text.
    fn svg(&self) -> String {
        svg::svg(&render::picture(&self.puzzle, &self.solution))
    }
}

/// The dict of an answer: the status in the package's words, the value, the solution and
/// how it was established.
fn answer<'py>(
    py: Python<'py>,
    puzzle: &Arc<Puzzle>,
    goal: Goal,
    outcome: &Outcome,
) -> PyResult<Bound<'py, PyDict>> {
    let status = match (outcome.status, goal) {
        (Status::Optimal, _) => "optimal",
        // A puzzle without an objective is settled by any solution (as CP-SAT says of a
        // model without one); a yes to "at least k?" is a feasible solution, proven.
        (Status::Satisfiable, Goal::Maximise) => "optimal",
        (Status::Satisfiable | Status::Feasible, _) => "feasible",
        (Status::Unsatisfiable, _) => "unsatisfiable",
        (Status::Unknown, _) => "stopped",
    };
    let dict = PyDict::new(py);
    dict.set_item("status", status)?;
    dict.set_item("library_status", outcome.status.name())?;
    dict.set_item("proven", outcome.status.is_proven())?;
    dict.set_item("value", outcome.value)?;
    dict.set_item("bound", outcome.bound)?;
    dict.set_item("backend", outcome.label())?;
    dict.set_item("elapsed", outcome.elapsed.as_secs_f64())?;
    dict.set_item("evidence", serialised(py, &outcome.evidence)?)?;
    dict.set_item("evidence_text", outcome.evidence.to_string())?;
    dict.set_item("summary", text::summary(goal, outcome))?;
    // As the command line: an unsatisfiable answer shows no solution.
    let drawing = match &outcome.solution {
        Some(solution) if outcome.status != Status::Unsatisfiable => Some(Drawing {
            puzzle: puzzle.clone(),
            solution: solution.clone(),
        }),
        _ => None,
    };
    dict.set_item("drawing", drawing)?;
    Ok(dict)
}

/// The solutions of an enumeration, as they are found.
#[pyclass(module = "puzzlec._native")]
pub struct Solutions {
    puzzle: Arc<Puzzle>,
    stop: Arc<AtomicBool>,
    receiver: Mutex<mpsc::Receiver<Solution>>,
    /// The enumeration: whether it completed, or its error.
    thread: Mutex<Option<std::thread::JoinHandle<Result<bool, String>>>>,
    /// Set when the enumeration has ended: whether it was complete.
    complete: Mutex<Option<bool>>,
}

#[pymethods]
impl Solutions {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Drawing>> {
        loop {
            let received = py.detach(|| {
                let receiver = self.receiver.lock().expect("not poisoned");
                receiver.recv_timeout(crate::run::POLL)
            });
            match received {
                Ok(solution) => {
                    return Ok(Some(Drawing {
                        puzzle: self.puzzle.clone(),
                        solution,
                    }))
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(interrupt) = py.check_signals() {
                        self.stop.store(true, Ordering::SeqCst);
                        return Err(interrupt);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => return self.finish(py),
            }
        }
    }

    /// Stops the enumeration (the iterator then ends).
    fn close(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether the enumeration ended complete (`None` while it runs, `False` when a limit
    /// or `close` stopped it).
    #[getter]
    fn complete(&self) -> Option<bool> {
        *self.complete.lock().expect("not poisoned")
    }
}

impl Solutions {
    /// The enumeration has handed over everything: end the iteration, or raise its error.
    fn finish(&self, py: Python<'_>) -> PyResult<Option<Drawing>> {
        let thread = self.thread.lock().expect("not poisoned").take();
        let Some(thread) = thread else {
            return Ok(None);
        };
        match py.detach(|| thread.join()) {
            Ok(Ok(complete)) => {
                *self.complete.lock().expect("not poisoned") = Some(complete);
                Ok(None)
            }
            Ok(Err(message)) => Err(errors::SolveError::new_err(message)),
            Err(_) => Err(errors::SolveError::new_err(
                "internal error: the enumeration thread panicked",
            )),
        }
    }
}

impl Drop for Solutions {
    fn drop(&mut self) {
        // The receiver goes with it, so the enumeration's next hand-over fails too.
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// Re-verifies the certificate in `folder` on its own thread (Ctrl-C raises at once; the
/// check, which polls no stop flag, finishes unobserved).
pub fn check(py: Python<'_>, folder: PathBuf) -> PyResult<Py<PyAny>> {
    let stop = Arc::new(AtomicBool::new(false));
    let checked = interruptible(py, &stop, move || certificate::check(&folder))?
        .map_err(|e| check_error(py, e))?;
    let dict = PyDict::new(py);
    dict.set_item("steps", checked.steps)?;
    dict.set_item("conclusion", checked.conclusion)?;
    Ok(dict.into_any().unbind())
}

/// Why `emit` wrote no complete file.
fn emit_error(error: EmitError, path: Option<&Path>) -> PyErr {
    match (error, path) {
        (EmitError::Stopped, Some(path)) => errors::StoppedError::new_err(format!(
            "stopped: the time limit; {} not written",
            path.display()
        )),
        (EmitError::Stopped, None) => errors::StoppedError::new_err("stopped: the time limit"),
        (EmitError::Io(e), Some(path)) => usage(format!("cannot write {}: {e}", path.display())),
        (error, _) => errors::SolveError::new_err(error.to_string()),
    }
}

/// Writes `path` through a temporary file beside it, renamed once `write` succeeded.
fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<(), EmitError>,
) -> Result<(), EmitError> {
    let name = path
        .file_name()
        .map_or("output".into(), |n| n.to_string_lossy().into_owned());
    let temporary = path.with_file_name(format!(".{name}.puzzlec-{}.tmp", std::process::id()));
    let result = std::fs::File::create(&temporary)
        .map_err(EmitError::from)
        .and_then(|file| {
            let mut out = BufWriter::with_capacity(1 << 20, file);
            write(&mut out)?;
            out.flush().map_err(EmitError::from)
        })
        .and_then(|()| std::fs::rename(&temporary, path).map_err(EmitError::from));
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
}

/// A model's text in a file of its own for as long as this lives.
struct Scratch {
    dir: PathBuf,
    path: PathBuf,
}

impl Scratch {
    fn with(text: &str) -> PyResult<Scratch> {
        static MADE: AtomicUsize = AtomicUsize::new(0);
        let n = MADE.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("puzzlec-{}-{n}", std::process::id()));
        let path = dir.join("model.toml");
        std::fs::create_dir_all(&dir)
            .and_then(|()| std::fs::write(&path, text))
            .map_err(|e| usage(format!("cannot write {}: {e}", path.display())))?;
        Ok(Scratch { dir, path })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
