//! `puzzlec solve MODEL`: one answer, verified, with how it was established.

use crate::args::Solve;
use crate::output::{
    check_writable, exit_code, flag, goal, guard_memory, print_json, print_stdout, write_file,
    Failure,
};
use crate::progress::StderrProgress;
use crate::session::Session;
use puzzlec::base::error::NamesSettings;
use puzzlec::base::{Control, Goal, Status};
use puzzlec::driver::enumerate::EnumerateOptions;
use puzzlec::driver::external::ExternalSolver;
use puzzlec::driver::guard::Work;
use puzzlec::driver::{self, Backend, Outcome};
use puzzlec::puzzle::{load_model_file, Puzzle};
use puzzlec::report::json::SolveReport;
use puzzlec::report::{color, render, svg, text};
use std::path::Path;
use std::sync::Arc;

/// Solves the model once, or counts or lists its solutions when asked to.
pub fn run(args: &Solve, session: &Session) -> Result<u8, Failure> {
    let model = &args.model.path;
    let puzzle = load(model, args.svg.as_deref())?;
    let control = session
        .control(args.time.duration()?)
        .with_memory(args.memory.bytes())
        .with_progress(Arc::new(StderrProgress::new()));
    let shard = args.split.shard;
    if let (Some(dir), Some(shard)) = (&args.state, shard) {
        return crate::box_state::shard(
            model,
            &puzzle,
            dir,
            shard,
            args.budget.split_nodes,
            &control,
        );
    }
    if !(args.all || args.count || args.unique || shard.is_some()) {
        return answer(&puzzle, args, session.paint, &control);
    }
    let options = EnumerateOptions {
        unique: args.unique,
        shard,
        // `--unique` alone lists the class representatives.
        list: args.all || (args.unique && !args.count),
        at_least: args.at_least,
        at_most: args.at_most,
    };
    if args.solver.is_some() {
        return Err(Failure::Usage(
            "--solver answers one question; it does not count or list solutions".into(),
        ));
    }
    if args.at_most.is_some() {
        // Only a puzzle that asks for the fewest pieces counts at most K.
        goal(&puzzle, None, args.at_most)?;
    }
    let backend = args.backend.map_or(Backend::Native, Backend::from);
    if backend == Backend::Sat {
        let what = "solve --backend sat (counting)";
        guard_memory(model, &puzzle, Work::Sat, what, args.memory.bytes())?;
    }
    crate::count::run(
        model,
        &puzzle,
        backend,
        &options,
        &control,
        args.report.json,
        args.svg.as_deref(),
    )
}

/// Solves one model once and prints the answer.
fn answer(puzzle: &Puzzle, args: &Solve, paint: bool, control: &Control) -> Result<u8, Failure> {
    let goal = goal(puzzle, args.at_least, args.at_most)?;
    if args.backend.is_none() && args.solver.is_none() && driver::portfolio::applies(puzzle) {
        let limit = args.memory.bytes();
        let outcome = driver::portfolio::solve_portfolio(puzzle, goal, control, limit)?;
        return finish_answer(args, paint, puzzle, goal, &outcome);
    }
    // Without --backend, the solver's program says which backend it serves.
    let backend = match (args.backend, &args.solver) {
        (Some(backend), _) => backend.into(),
        (None, Some(spec)) => ExternalSolver::infer_backend(spec),
        (None, None) => Backend::preferred_for(puzzle),
    };
    // The SAT and MILP backends build the model and its encoding: refuse what would not fit.
    let work = match backend {
        Backend::Sat => Some((Work::Sat, "solve --backend sat")),
        Backend::Milp => Some((Work::Milp, "solve --backend milp")),
        Backend::Native => None,
    };
    if let Some((work, what)) = work {
        guard_memory(&args.model.path, puzzle, work, what, args.memory.bytes())?;
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
    finish_answer(args, paint, puzzle, goal, &outcome)
}

/// Prints one answer (and draws it with `--svg`); the exit code of its status.
fn finish_answer(
    args: &Solve,
    paint: bool,
    puzzle: &Puzzle,
    goal: Goal,
    outcome: &Outcome,
) -> Result<u8, Failure> {
    report(args, paint, puzzle, goal, outcome);
    if let Some(path) = &args.svg {
        write_svg(path, puzzle, outcome)?;
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

fn report(args: &Solve, paint: bool, puzzle: &Puzzle, goal: Goal, outcome: &Outcome) {
    if args.report.json {
        print_json(SolveReport::of(&args.model.path, puzzle, goal, outcome));
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
