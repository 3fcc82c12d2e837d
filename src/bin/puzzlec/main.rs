//! The puzzlec command line: parse flags, call the library, print, set the exit code.

use clap::{CommandFactory, Parser, Subcommand};
use puzzlec::base::error::InputError;
use puzzlec::base::shard::Shard;
use puzzlec::base::{Control, Goal, Status};
use puzzlec::driver::emit::{emit, Format};
use puzzlec::driver::external::ExternalSolver;
use puzzlec::driver::{self, Backend, EnumerateOptions, Outcome};
use puzzlec::puzzle::Solution;
use puzzlec::puzzle::{load_model_file, Puzzle};
use puzzlec::report::color::{self, ColorChoice};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Exit codes that scripts can rely on.
mod exit {
    /// An optimisation finished and proved its answer, or a file was written.
    pub const OK: u8 = 0;
    /// Backends disagree, a solution failed verification, a backend failed, or a
    /// certificate failed its check.
    pub const INTERNAL: u8 = 1;
    /// Bad input: the model file, a flag, or an output file.
    pub const BAD_INPUT: u8 = 2;
    /// A limit stopped the run before it proved its answer.
    pub const NOT_PROVEN: u8 = 3;
    /// The decision question has a yes answer (as SAT solvers report).
    pub const SATISFIABLE: u8 = 10;
    /// The decision question has a no answer (as SAT solvers report).
    pub const UNSATISFIABLE: u8 = 20;
}

/// puzzlec: compile grid puzzles into constraint models and settle them with SAT, MILP or
/// native search, every answer verified.
#[derive(Parser)]
#[command(name = "puzzlec", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Colour the output: auto colours when stdout is a terminal (and NO_COLOR is unset).
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a model: the best solution and how its optimality was proved, or, with
    /// --at-least, a yes (exit 10) or no (exit 20) to "is there a solution with at least K?".
    Solve {
        /// The model file (TOML).
        model: PathBuf,
        /// Which backend answers [default: sat for queens, native for packing and
        /// dissection, and native for --all, --count, --unique].
        #[arg(long, value_enum)]
        backend: Option<Backend>,
        /// An external solver for the backend. SAT: a command line run on a DIMACS file,
        /// with `{cnf}` for its path (appended when absent) and `{out}` for a result file
        /// (MiniSat's form; `minisat` alone means `minisat {cnf} {out}`), e.g. `cadical`.
        /// MILP: `cbc`, `glpsol` or `highs` (path and extra arguments allowed).
        #[arg(long, value_name = "CMD")]
        solver: Option<String>,
        /// Decide "at least K" instead of maximising.
        #[arg(long, value_name = "K")]
        at_least: Option<usize>,
        /// Stop after this many seconds, keeping the best solution found (not proven).
        #[arg(long, value_name = "SECS")]
        time_limit: Option<f64>,
        /// Print the result as JSON on stdout.
        #[arg(long)]
        json: bool,
        /// Also draw the solution as an SVG picture in FILE.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        /// Print every optimal solution (8 boards side by side), then their number.
        #[arg(long)]
        all: bool,
        /// Count the optimal solutions without printing them.
        #[arg(long)]
        count: bool,
        /// Reduce by the board's own symmetries: one solution per class, and the classes.
        #[arg(long)]
        unique: bool,
        /// Count one shard of a deterministic split (native); `merge` adds the parts up.
        #[arg(long, value_name = "I/N")]
        shard: Option<Shard>,
    },
    /// Add up the `--json` outputs of `solve --count --shard I/N` runs: the total count.
    Merge {
        /// The JSON files, one per shard.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print the total as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Write the model for an external solver.
    Emit {
        /// The model file (TOML).
        model: PathBuf,
        /// The file format.
        #[arg(long, value_enum)]
        format: Format,
        /// Add the decision "objective at least K" (without it: the constraints alone).
        #[arg(long, value_name = "K")]
        at_least: Option<usize>,
        /// Write to FILE instead of stdout.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Run every backend on a model and compare their answers; exit 1 if any two disagree.
    Compare {
        /// The model file (TOML).
        model: PathBuf,
        /// Compare the decision "at least K" instead of the optimum.
        #[arg(long, value_name = "K")]
        at_least: Option<usize>,
        /// Seconds each backend may take.
        #[arg(long, value_name = "SECS")]
        time_limit: Option<f64>,
        /// Print the comparison as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Solve a model and write a certificate anyone can check: the witness, the refuted CNF,
    /// LRAT, DRAT and varisat proofs, and a manifest.
    Prove {
        /// The model file (TOML).
        model: PathBuf,
        /// The certificate folder (created if missing).
        #[arg(short, long, value_name = "DIR")]
        output: PathBuf,
        /// Record the number of solutions instead, counted natively and by SAT enumeration
        /// (the two must agree; `check` counts again; not a proof of completeness).
        #[arg(long)]
        count: bool,
        /// Print the manifest, with each file's path, as JSON on stdout.
        #[arg(long)]
        json: bool,
        /// Also draw the certified witness as an SVG picture.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
    /// Re-verify a certificate written by `prove`: exit 0 if everything holds, 1 saying
    /// what failed otherwise.
    Check {
        /// The certificate folder.
        dir: PathBuf,
        /// Print what was checked as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// List the model files of a folder with their descriptions.
    Models {
        /// The folder.
        #[arg(default_value = "models")]
        dir: PathBuf,
        /// Print the list as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Show what a model compiles to (variables, constraints, objective, CNF and LP sizes)
    /// without solving it.
    Explain {
        /// The model file (TOML).
        model: PathBuf,
        /// Print the sizes as JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Print a shell completion script, e.g. `puzzlec completions bash > ~/.local/share/bash-completion/completions/puzzlec`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), e.g. `puzzlec man | man -l -`.
    Man {
        /// Write to FILE instead of stdout.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Write puzzlec.1 and one page per subcommand (puzzlec-solve.1, ...) into DIR.
        #[arg(long, value_name = "DIR", conflicts_with = "output")]
        dir: Option<PathBuf>,
    },
}

/// Why a command failed, with the exit code it maps to.
enum Failure {
    Input(InputError),
    Usage(String),
    Internal(String),
}

impl From<InputError> for Failure {
    fn from(error: InputError) -> Failure {
        Failure::Input(error)
    }
}

impl From<driver::SolveError> for Failure {
    fn from(error: driver::SolveError) -> Failure {
        Failure::Internal(error.to_string())
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stop = Arc::new(AtomicBool::new(false));
    let handler_stop = stop.clone();
    // First Ctrl-C: stop and print the best so far. Second: give up at once.
    let _ = ctrlc::set_handler(move || {
        if handler_stop.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    match run(cli, stop) {
        Ok(code) => ExitCode::from(code),
        Err(Failure::Input(error)) => {
            eprintln!("error: {error}");
            ExitCode::from(exit::BAD_INPUT)
        }
        Err(Failure::Usage(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(exit::BAD_INPUT)
        }
        Err(Failure::Internal(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(exit::INTERNAL)
        }
    }
}

fn run(cli: Cli, stop: Arc<AtomicBool>) -> Result<u8, Failure> {
    use std::io::IsTerminal;
    let no_color = std::env::var("NO_COLOR").ok();
    let paint = cli
        .color
        .enabled(std::io::stdout().is_terminal(), no_color.as_deref());
    match cli.command {
        Command::Solve {
            model,
            backend,
            solver,
            at_least,
            time_limit,
            json,
            svg,
            all,
            count,
            unique,
            shard,
        } => {
            let puzzle = load_model_file(&model)?;
            if let Some(svg) = &svg {
                check_writable(svg)?;
            }
            let control = Control::new(stop, limit(time_limit)?);
            if all || count || unique || shard.is_some() {
                let options = EnumerateOptions {
                    unique,
                    shard,
                    // `--unique` alone lists the class representatives.
                    list: all || (unique && !count),
                    at_least,
                    progress: true,
                };
                if solver.is_some() {
                    return Err(Failure::Usage(
                        "--solver answers one question; it does not count or list solutions".into(),
                    ));
                }
                let backend = backend.unwrap_or(Backend::Native);
                return count_solutions(
                    &model,
                    &puzzle,
                    backend,
                    &options,
                    &control,
                    json,
                    svg.as_deref(),
                );
            }
            // An external solver is a SAT command unless --backend says MILP.
            let backend = backend.unwrap_or_else(|| match solver {
                Some(_) => Backend::Sat,
                None => Backend::preferred_for(&puzzle),
            });
            let goal = goal(at_least);
            check_goal(&puzzle, goal)?;
            let outcome = match solver {
                Some(spec) => {
                    let solver = ExternalSolver::parse(backend, &spec).map_err(Failure::Usage)?;
                    driver::solve_external(&puzzle, &solver, goal, &control)?
                }
                None => driver::solve(&puzzle, backend, goal, &control)?,
            };
            report(&model, &puzzle, goal, &outcome, json, paint);
            if let Some(svg) = &svg {
                write_svg(svg, &puzzle, &outcome)?;
            }
            Ok(exit_code(goal, outcome.status))
        }
        Command::Merge { files, json } => merge(&files, json),
        Command::Emit {
            model,
            format,
            at_least,
            output,
        } => {
            let puzzle = load_model_file(&model)?;
            check_goal(&puzzle, goal(at_least))?;
            let text = emit(&puzzle, &model.display().to_string(), format, at_least);
            match output {
                Some(path) => std::fs::write(&path, text)
                    .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", path.display())))?,
                None => print_stdout(&text),
            }
            Ok(exit::OK)
        }
        Command::Compare {
            model,
            at_least,
            time_limit,
            json,
        } => {
            let puzzle = load_model_file(&model)?;
            let goal = goal(at_least);
            check_goal(&puzzle, goal)?;
            let mut outcomes = Vec::new();
            for backend in Backend::ALL {
                let control = Control::new(stop.clone(), limit(time_limit)?);
                outcomes.push(driver::solve(&puzzle, backend, goal, &control)?);
            }
            // External solvers found on this machine, as extra rows.
            for solver in ExternalSolver::available() {
                let control = Control::new(stop.clone(), limit(time_limit)?);
                outcomes.push(driver::solve_external(&puzzle, &solver, goal, &control)?);
            }
            let disagreement = driver::disagreement(&outcomes);
            print_comparison(&model, &outcomes, json, disagreement.as_deref());
            match disagreement {
                Some(message) => Err(Failure::Internal(format!("backends disagree: {message}"))),
                None => Ok(exit::OK),
            }
        }
        Command::Models { dir, json } => {
            let entries = puzzlec::report::catalog::list(&dir)?;
            if json {
                print_json(puzzlec::report::catalog::to_json(&entries));
            } else {
                print_stdout(&puzzlec::report::catalog::to_text(&entries));
            }
            // Every file is listed; a bad one still makes the exit code say so.
            match entries.iter().any(|e| e.loaded.is_err()) {
                true => Ok(exit::BAD_INPUT),
                false => Ok(exit::OK),
            }
        }
        Command::Explain { model, json } => {
            let puzzle = load_model_file(&model)?;
            let explanation = puzzlec::report::explain::explain(&puzzle);
            if json {
                let mut value = serde_json::to_value(&explanation)
                    .map_err(|e| Failure::Internal(e.to_string()))?;
                value["model"] = serde_json::json!(model.display().to_string());
                print_json(value);
            } else {
                print_stdout(&format!(
                    "model        {}\n{}",
                    model.display(),
                    explanation.to_text()
                ));
            }
            Ok(exit::OK)
        }
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "puzzlec", &mut script);
            print_stdout(&String::from_utf8_lossy(&script));
            Ok(exit::OK)
        }
        Command::Man { output, dir } => {
            if let Some(dir) = dir {
                clap_mangen::generate_to(Cli::command(), &dir).map_err(|e| {
                    Failure::Usage(format!(
                        "cannot write man pages into {}: {e}",
                        dir.display()
                    ))
                })?;
                return Ok(exit::OK);
            }
            let mut page = Vec::new();
            clap_mangen::Man::new(Cli::command())
                .render(&mut page)
                .map_err(|e| Failure::Internal(format!("cannot render the man page: {e}")))?;
            match output {
                Some(path) => std::fs::write(&path, page)
                    .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", path.display())))?,
                None => print_stdout(&String::from_utf8_lossy(&page)),
            }
            Ok(exit::OK)
        }
        Command::Prove {
            model,
            output,
            count,
            json,
            svg,
        } => {
            if let Some(svg) = &svg {
                check_writable(svg)?;
            }
            let code = prove(&model, &output, count, json)?;
            if let Some(svg) = &svg {
                draw_witness(&output, svg)?;
            }
            Ok(code)
        }
        Command::Check { dir, json } => check(&dir, json),
    }
}

fn prove(model: &Path, dir: &Path, count: bool, json: bool) -> Result<u8, Failure> {
    use puzzlec::cert::certificate::{self, Claim, ProveError};
    let manifest = certificate::prove_with(model, dir, count).map_err(|error| match error {
        ProveError::Input(e) => Failure::Input(e),
        ProveError::Lazy { .. } | ProveError::Write { .. } => Failure::Usage(error.to_string()),
        ProveError::Internal(_) => Failure::Internal(error.to_string()),
    })?;
    let answer = match &manifest.claim {
        Claim::Optimal { value } => format!("optimal {value}"),
        Claim::Satisfiable => "satisfiable".to_string(),
        Claim::Unsatisfiable => "unsatisfiable".to_string(),
        Claim::Impossible { reason } => format!("impossible ({reason})"),
        Claim::Count { count, .. } => format!("{count} solutions"),
    };
    if json {
        let mut value =
            serde_json::to_value(&manifest).map_err(|e| Failure::Internal(e.to_string()))?;
        value["directory"] = serde_json::json!(dir.display().to_string());
        // The manifest names files relative to the folder; scripts want paths.
        for (role, file) in &manifest.files {
            value["files"][role]["path"] =
                serde_json::json!(dir.join(&file.name).display().to_string());
        }
        print_json(value);
        eprintln!("{answer}: {}", manifest.how);
        return Ok(exit::OK);
    }
    let files: Vec<String> = manifest
        .files
        .values()
        .map(|f| format!("{} {} bytes", f.name, f.bytes))
        .collect();
    let files = match (&manifest.claim, files.is_empty()) {
        (Claim::Impossible { .. }, _) => "the reason: manifest.json and model.toml".to_string(),
        (_, true) => "a count record: manifest.json and model.toml".to_string(),
        (_, false) => files.join(", "),
    };
    print_stdout(&format!(
        "{answer}: certificate in {} ({files})\n",
        dir.display()
    ));
    eprintln!(
        "proved in {:.3} s (solve {:.3} s, proofs {:.3} s): {}",
        manifest.times.total_seconds,
        manifest.times.solve_seconds,
        manifest.times.refute_seconds,
        manifest.how
    );
    Ok(exit::OK)
}

fn check(dir: &Path, json: bool) -> Result<u8, Failure> {
    use puzzlec::cert::certificate::{self, CheckError};
    let start = std::time::Instant::now();
    match certificate::check(dir) {
        Ok(checked) if json => {
            print_json(serde_json::json!({
                "directory": dir.display().to_string(),
                "valid": true,
                "steps": checked.steps,
                "conclusion": checked.conclusion,
                "seconds": start.elapsed().as_secs_f64(),
            }));
            Ok(exit::OK)
        }
        Ok(checked) => {
            let mut text = String::new();
            for step in &checked.steps {
                text.push_str(&format!("ok: {step}\n"));
            }
            text.push_str(&format!("{}\n", checked.conclusion));
            print_stdout(&text);
            eprintln!("checked in {:.3} s", start.elapsed().as_secs_f64());
            Ok(exit::OK)
        }
        Err(CheckError::NotACertificate(message)) => Err(Failure::Usage(message)),
        Err(CheckError::Failed(message)) => Err(Failure::Internal(format!(
            "certificate check failed: {message}"
        ))),
    }
}

/// Fails early, before a long solve, when `path`'s folder does not exist.
fn check_writable(path: &Path) -> Result<(), Failure> {
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

/// Draws the witness of the certificate in `dir` into `path`, re-verified from the rules;
/// a certificate without a witness (a refutation, a count) has nothing to draw.
fn draw_witness(dir: &Path, path: &Path) -> Result<(), Failure> {
    use puzzlec::cert::certificate::{parse_witness, MODEL_FILE, WITNESS_FILE};
    let Ok(text) = std::fs::read_to_string(dir.join(WITNESS_FILE)) else {
        eprintln!("no witness to draw: {} not written", path.display());
        return Ok(());
    };
    let puzzle = load_model_file(&dir.join(MODEL_FILE))?;
    let assignment = parse_witness(&text, puzzle.compile().num_vars())
        .map_err(|e| Failure::Internal(format!("{WITNESS_FILE}: {e}")))?;
    let solution = puzzle.decode(&assignment);
    puzzle
        .verify(&solution)
        .map_err(|e| Failure::Internal(format!("{WITNESS_FILE}: {e}")))?;
    let picture = puzzlec::report::render::picture(&puzzle, &solution);
    std::fs::write(path, puzzlec::report::svg::svg(&picture))
        .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", path.display())))
}

/// Draws the outcome's solution into `path`; with no solution there is nothing to draw.
fn write_svg(path: &Path, puzzle: &Puzzle, outcome: &Outcome) -> Result<(), Failure> {
    match &outcome.solution {
        Some(solution) if outcome.status != Status::Unsatisfiable => {
            let picture = puzzlec::report::render::picture(puzzle, solution);
            std::fs::write(path, puzzlec::report::svg::svg(&picture))
                .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", path.display())))
        }
        _ => {
            eprintln!("no solution to draw: {} not written", path.display());
            Ok(())
        }
    }
}

/// Prints a JSON document with the schema version key, pretty, on stdout.
fn print_json(mut value: serde_json::Value) {
    value["schema"] = serde_json::json!(puzzlec::report::JSON_SCHEMA);
    print_stdout(&format!(
        "{}\n",
        serde_json::to_string_pretty(&value).unwrap_or_default()
    ));
}

fn goal(at_least: Option<usize>) -> Goal {
    at_least.map_or(Goal::Maximise, Goal::AtLeast)
}

/// `--at-least` only makes sense for a puzzle with an objective.
fn check_goal(puzzle: &Puzzle, goal: Goal) -> Result<(), Failure> {
    match goal {
        Goal::AtLeast(_) if !puzzle.has_objective() => Err(Failure::Usage(format!(
            "--at-least does not apply: a {} puzzle has no objective",
            puzzle.kind()
        ))),
        _ => Ok(()),
    }
}

fn limit(seconds: Option<f64>) -> Result<Option<Duration>, Failure> {
    match seconds {
        None => Ok(None),
        Some(s) if s.is_finite() && s > 0.0 && s < 1e9 => Ok(Some(Duration::from_secs_f64(s))),
        Some(s) => Err(Failure::Usage(format!(
            "--time-limit must be a positive number of seconds, not {s}"
        ))),
    }
}

fn exit_code(goal: Goal, status: Status) -> u8 {
    match (goal, status) {
        // Solving a puzzle without an objective (a dissection) completes with any solution.
        (Goal::Maximise, Status::Satisfiable) => exit::OK,
        (_, Status::Satisfiable) => exit::SATISFIABLE,
        (Goal::AtLeast(_), Status::Unsatisfiable) => exit::UNSATISFIABLE,
        (_, Status::Optimal) | (Goal::Maximise, Status::Unsatisfiable) => exit::OK,
        (_, Status::Feasible | Status::Unknown) => exit::NOT_PROVEN,
    }
}

/// Prints to stdout; a closed pipe (`puzzlec ... | head`) is not an error.
fn print_stdout(text: &str) {
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

fn report(path: &Path, puzzle: &Puzzle, goal: Goal, outcome: &Outcome, json: bool, paint: bool) {
    if json {
        print_json(driver::outcome_json(path, puzzle, goal, outcome));
    } else {
        match (&outcome.solution, outcome.status) {
            (Some(solution), status) if status != Status::Unsatisfiable => {
                let text = puzzle.render(solution);
                print_stdout(&match paint {
                    true => color::paint(&text, color::Scheme::of(puzzle)),
                    false => text,
                });
            }
            _ => print_stdout(&format!("{}\n", outcome.status.name())),
        }
    }
    eprintln!("{}", driver::summary(goal, outcome));
}

fn print_comparison(path: &Path, outcomes: &[Outcome], json: bool, disagreement: Option<&str>) {
    if json {
        let rows: Vec<serde_json::Value> = outcomes.iter().map(driver::outcome_row_json).collect();
        print_json(serde_json::json!({
            "model": path.display().to_string(),
            "agree": disagreement.is_none(),
            "backends": rows,
        }));
        return;
    }
    let mut table = format!(
        "{:<18} {:<14} {:<8} {:>10} {:>10} {:>12}\n",
        "backend", "result", "proven", "time", "variables", "constraints"
    );
    for o in outcomes {
        let result = match o.value {
            Some(v) if o.status != Status::Unsatisfiable => format!("{} {v}", o.status.name()),
            _ => o.status.name().to_string(),
        };
        let size = if o.size.unit.is_empty() {
            "-".to_string()
        } else {
            format!("{} {}", o.size.constraints, o.size.unit)
        };
        table.push_str(&format!(
            "{:<18} {:<14} {:<8} {:>9.3}s {:>10} {:>12}\n",
            o.label(),
            result,
            if o.status.is_proven() { "yes" } else { "no" },
            o.elapsed.as_secs_f64(),
            o.size.variables,
            size
        ));
    }
    table.push_str(match disagreement {
        None => "all backends agree\n",
        Some(_) => "BACKENDS DISAGREE\n",
    });
    print_stdout(&table);
}

/// Boards printed side by side in one band of `--all` output, as in the seed.
const BOARDS_PER_BAND: usize = 8;

/// `solve --all / --count / --unique / --shard`: streams the boards in bands of eight,
/// then prints the count (and the symmetry classes); JSON with `--json`.
fn count_solutions(
    path: &Path,
    puzzle: &Puzzle,
    backend: Backend,
    options: &EnumerateOptions,
    control: &Control,
    json: bool,
    svg: Option<&Path>,
) -> Result<u8, Failure> {
    let mut band: Vec<Vec<String>> = Vec::new();
    let mut listed: Vec<serde_json::Value> = Vec::new();
    let mut pictures: Vec<(String, puzzlec::report::render::LabelledGrid)> = Vec::new();
    let mut drawn = 0usize;
    let mut on_solution = |solution: &Solution| {
        drawn += 1;
        if svg.is_some() && pictures.len() < MAX_SHEET_PICTURES {
            let picture = puzzlec::report::render::picture(puzzle, solution);
            pictures.push((format!("solution {drawn}"), picture));
        }
        let value = puzzle.solution_json(solution);
        if json {
            listed.push(value["grid"].clone());
            return;
        }
        let grid = value["grid"]
            .as_array()
            .map(|rows| {
                rows.iter()
                    .filter_map(|r| r.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        band.push(grid);
        if band.len() == BOARDS_PER_BAND {
            print_stdout(&side_by_side(&band));
            band.clear();
        }
    };
    let outcome = driver::enumerate(puzzle, backend, options, control, &mut on_solution)?;
    if !band.is_empty() {
        print_stdout(&side_by_side(&band));
    }
    if let Some(path) = svg {
        write_sheet(path, &pictures, drawn)?;
    }
    if json {
        let mut value = puzzlec::driver::enumerate::count_json(path, puzzle, options, &outcome);
        if options.list {
            value["solutions"] = serde_json::Value::Array(listed);
        }
        print_json(value);
    } else {
        let mut text = match outcome.unique_count {
            Some(unique) => format!("{unique}\n{}\n", classes_line(&outcome)),
            None => format!("{}\n", outcome.count),
        };
        if !outcome.complete {
            text.push_str("incomplete\n");
        }
        print_stdout(&text);
    }
    let what = match (outcome.value, options.at_least) {
        (Some(v), Some(_)) => format!("solutions with at least {v}"),
        (Some(v), None) => format!("optimal solutions (value {v})"),
        (None, _) => "solutions".to_string(),
    };
    let part = match outcome.shard {
        Some(shard) => format!(" in shard {shard} (a partial count)"),
        None => String::new(),
    };
    let unique = match outcome.unique_count {
        Some(u) => format!(", {u} up to the board's {} symmetries", outcome.symmetries),
        None => String::new(),
    };
    eprintln!(
        "{}{} {what}{part}{unique} by {} in {:.3} s: {}",
        if outcome.complete { "" } else { "at least " },
        outcome.count,
        outcome.backend.name(),
        outcome.elapsed.as_secs_f64(),
        outcome.evidence
    );
    Ok(if outcome.complete {
        exit::OK
    } else {
        exit::NOT_PROVEN
    })
}

/// "classes: 11 of size 8, 1 of size 4; 92 solutions".
fn classes_line(outcome: &driver::CountOutcome) -> String {
    let sizes: Vec<String> = outcome
        .classes
        .iter()
        .rev()
        .map(|(size, n)| format!("{n} of size {size}"))
        .collect();
    if sizes.is_empty() {
        // Families that count orbits without sizing each one (tilings).
        return format!("{} solutions in all", outcome.count);
    }
    format!("classes: {}; {} solutions", sizes.join(", "), outcome.count)
}

/// Boards side by side, each row led by a space, then a blank line (the seed's layout).
fn side_by_side(boards: &[Vec<String>]) -> String {
    let height = boards.iter().map(Vec::len).max().unwrap_or(0);
    let mut text = String::new();
    for y in 0..height {
        for board in boards {
            text.push(' ');
            text.push_str(board.get(y).map_or("", String::as_str));
        }
        text.push('\n');
    }
    text.push('\n');
    text
}

/// The most solutions one contact sheet draws: beyond it the file would be unwieldy.
const MAX_SHEET_PICTURES: usize = 1000;

/// `solve --all --svg FILE`: every listed solution on one contact sheet, eight a row as
/// on the terminal; the first [`MAX_SHEET_PICTURES`] when there are more.
fn write_sheet(
    path: &Path,
    pictures: &[(String, puzzlec::report::render::LabelledGrid)],
    listed: usize,
) -> Result<(), Failure> {
    if pictures.is_empty() {
        eprintln!(
            "no solution listed (use --all to list them): {} not written",
            path.display()
        );
        return Ok(());
    }
    if listed > pictures.len() {
        eprintln!(
            "{} shows the first {} of {listed} solutions",
            path.display(),
            pictures.len()
        );
    }
    let sheet = puzzlec::report::svg::contact_sheet(pictures, BOARDS_PER_BAND);
    std::fs::write(path, sheet)
        .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", path.display())))
}

/// `merge FILES...`: the total of shard counts, checked to belong together.
fn merge(files: &[PathBuf], json: bool) -> Result<u8, Failure> {
    let mut inputs = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| Failure::Input(InputError::file(file, format!("cannot read: {e}"))))?;
        inputs.push((file.display().to_string(), text));
    }
    let merged = puzzlec::driver::enumerate::merge(&inputs).map_err(Failure::Usage)?;
    if json {
        let value = serde_json::json!({
            "model": merged.model,
            "value": merged.value,
            "shards": merged.shards,
            "count": merged.count,
            "unique_count": merged.unique_count,
            "classes": merged.classes.iter().map(|(size, n)| serde_json::json!({"size": size, "classes": n})).collect::<Vec<_>>(),
            "complete": true,
        });
        print_json(value);
    } else {
        let mut text = format!("{}\n", merged.count);
        if let Some(unique) = merged.unique_count {
            text.push_str(&format!("{unique} up to symmetry\n"));
        }
        print_stdout(&text);
    }
    eprintln!(
        "{} solutions of {} in all: the sum of {} shards, each given once",
        merged.count, merged.model, merged.shards
    );
    Ok(exit::OK)
}
