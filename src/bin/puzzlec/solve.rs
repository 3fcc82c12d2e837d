//! `puzzlec solve MODEL`: one answer, verified, with how it was established.

use crate::args::BackendArg;
use crate::output::{check_goal, check_writable, exit_code, goal, print_json, print_stdout};
use crate::output::{flag, guard_memory, write_file, Failure};
use puzzlec::base::error::NamesSettings;
use puzzlec::base::{Control, Goal, Status};
use puzzlec::driver::external::ExternalSolver;
use puzzlec::driver::guard::Work;
use puzzlec::driver::{self, Backend, Outcome};
use puzzlec::puzzle::{load_model_file, Puzzle};
use puzzlec::report::json::SolveReport;
use puzzlec::report::{color, render, svg, text};
use std::path::Path;

/// What `solve` was asked, apart from counting.
pub struct SolveArgs<'a> {
    /// The model file.
    pub model: &'a Path,
    /// The backend named, if any.
    pub backend: Option<BackendArg>,
    /// `--solver`.
    pub solver: Option<String>,
    /// `--at-least`.
    pub at_least: Option<usize>,
    /// `--json`.
    pub json: bool,
    /// `--svg`.
    pub svg: Option<&'a Path>,
    /// Whether to colour the text.
    pub paint: bool,
    /// `--max-memory`, in bytes.
    pub max_memory: u64,
}

/// Solves one model once and prints the answer.
pub fn run(puzzle: &Puzzle, args: SolveArgs, control: &Control) -> Result<u8, Failure> {
    // Without --backend, the solver's program says which backend it serves.
    let backend = match (args.backend, &args.solver) {
        (Some(backend), _) => backend.into(),
        (None, Some(spec)) => ExternalSolver::infer_backend(spec),
        (None, None) => Backend::preferred_for(puzzle),
    };
    let goal = goal(args.at_least);
    check_goal(puzzle, goal)?;
    // The SAT and MILP backends build the model and its encoding: refuse what would not fit.
    let work = match backend {
        Backend::Sat => Some((Work::Sat, "solve --backend sat")),
        Backend::Milp => Some((Work::Milp, "solve --backend milp")),
        Backend::Native => None,
    };
    if let Some((work, what)) = work {
        guard_memory(args.model, puzzle, work, what, args.max_memory)?;
    }
    let outcome = match &args.solver {
        Some(spec) => {
            // Refutations are checked by puzzlec's own DRAT checker, not taken on trust.
            let solver = ExternalSolver::parse(backend, spec)
                .map_err(|e| Failure::Usage(e.describe(&flag)))?;
            driver::solve_external(puzzle, &solver, goal, control)?
        }
        None => driver::solve(puzzle, backend, goal, control)?,
    };
    report(&args, puzzle, goal, &outcome);
    if let Some(path) = args.svg {
        write_svg(path, puzzle, &outcome)?;
    }
    Ok(exit_code(goal, outcome.status))
}

/// Loads the model and checks that `--svg`'s folder exists, before any long run.
pub fn load(model: &Path, svg: Option<&Path>) -> Result<Puzzle, Failure> {
    let puzzle = load_model_file(model)?;
    if let Some(svg) = svg {
        check_writable(svg)?;
    }
    Ok(puzzle)
}

fn report(args: &SolveArgs, puzzle: &Puzzle, goal: Goal, outcome: &Outcome) {
    if args.json {
        print_json(SolveReport::of(args.model, puzzle, goal, outcome));
    } else {
        match (&outcome.solution, outcome.status) {
            (Some(solution), status) if status != Status::Unsatisfiable => {
                let text = puzzle.render(solution);
                print_stdout(&match args.paint {
                    true => color::paint(&text, color::Scheme::of(puzzle)),
                    false => text,
                });
            }
            _ => print_stdout(&format!("{}\n", outcome.status.name())),
        }
    }
    eprintln!("{}", text::summary(goal, outcome));
}

/// Draws the outcome's solution into `path`; with no solution there is nothing to draw.
fn write_svg(path: &Path, puzzle: &Puzzle, outcome: &Outcome) -> Result<(), Failure> {
    match &outcome.solution {
        Some(solution) if outcome.status != Status::Unsatisfiable => {
            let picture = render::picture(puzzle, solution);
            write_file(path, svg::svg(&picture))
        }
        _ => {
            eprintln!("no solution to draw: {} not written", path.display());
            Ok(())
        }
    }
}
