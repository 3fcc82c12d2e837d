//! `puzzlec compare MODEL`: every backend and every external solver on this machine on
//! the same question, and whether their answers agree.

use crate::args::Compare;
use crate::output::{exit, flag, goal, print_json, print_stdout, Failure};
use crate::session::Session;
use puzzlec::base::error::NamesSettings;
use puzzlec::driver::external::{Contender, ExternalSolver};
use puzzlec::driver::guard::{self, Work};
use puzzlec::driver::{self, Backend, CompareRow, SolveError, Verdict};
use puzzlec::puzzle::load_model_file;
use puzzlec::report::json::{CompareReport, CompareRowJson};
use puzzlec::report::text;
use std::time::{Duration, Instant};

/// The time a MiniZinc row gets when the comparison has no time limit: Gecode, without
/// clause learning, does not prove the contest board's 20 in minutes (SAT takes
/// milliseconds), and a comparison should end.
const CP_DEFAULT_LIMIT: Duration = Duration::from_secs(10);

/// Runs every backend on `model` and prints the comparison: exit 1 when two proven
/// answers disagree or a backend returned a wrong solution, 3 when Ctrl-C stopped it.
pub fn run(args: &Compare, session: &Session) -> Result<u8, Failure> {
    let model = &args.model.path;
    let puzzle = load_model_file(model)?;
    let goal = goal(&puzzle, args.at_least, args.at_most)?;
    let total = args.time.duration()?;
    let start = Instant::now();
    let contenders: Vec<Contender> = Backend::ALL
        .into_iter()
        .map(Contender::Embedded)
        // External solvers found on this machine, as extra rows.
        .chain(
            ExternalSolver::available()
                .into_iter()
                .map(Contender::External),
        )
        .collect();
    let mut rows = Vec::new();
    for (i, contender) in contenders.iter().enumerate() {
        if session.stopped() {
            rows.push(CompareRow::NotRun {
                label: contender.label(),
            });
            continue;
        }
        // An equal share of the time left, so the whole comparison keeps to the limit.
        let share =
            total.map(|t| t.saturating_sub(start.elapsed()) / (contenders.len() - i) as u32);
        let share = match contender {
            Contender::External(ExternalSolver::Cp(_)) => share.or(Some(CP_DEFAULT_LIMIT)),
            _ => share,
        };
        let control = session.control(share).with_memory(args.memory.bytes());
        let began = Instant::now();
        // A row whose model would not fit in memory is an error row; the others still run.
        let work = match contender {
            Contender::Embedded(Backend::Native) => None,
            Contender::Embedded(Backend::Sat) => Some(Work::Sat),
            Contender::Embedded(Backend::Milp) => Some(Work::Milp),
            Contender::External(solver) => Some(match solver.backend() {
                Backend::Milp => Work::Milp,
                _ => Work::Sat,
            }),
        };
        if let Some(work) = work {
            if let Err(error) = guard::check(&puzzle, work, "this row", args.memory.bytes()) {
                rows.push(CompareRow::Failed {
                    label: contender.label(),
                    error: error.to_string(),
                    elapsed: began.elapsed(),
                });
                continue;
            }
        }
        let result = match contender {
            Contender::Embedded(backend) => driver::solve(&puzzle, *backend, goal, &control),
            Contender::External(solver) => driver::solve_external(&puzzle, solver, goal, &control),
        };
        rows.push(match result {
            Ok(outcome) => CompareRow::Answered(Box::new(outcome)),
            // A wrong solution is a bug to report loudly, not a row.
            Err(error @ (SolveError::WrongSolution { .. } | SolveError::WrongValue { .. })) => {
                return Err(error.into())
            }
            // The row names the solver already.
            Err(SolveError::External { failure, .. }) => CompareRow::Failed {
                label: contender.label(),
                error: failure.to_string(),
                elapsed: began.elapsed(),
            },
            Err(SolveError::Backend { failure, .. }) => CompareRow::Failed {
                label: contender.label(),
                error: failure.to_string(),
                elapsed: began.elapsed(),
            },
            Err(SolveError::Native(error)) => CompareRow::Failed {
                label: contender.label(),
                error: error.to_string(),
                elapsed: began.elapsed(),
            },
            // Worded with the flag, as everywhere on the command line.
            Err(SolveError::Misused(misuse)) => CompareRow::Failed {
                label: contender.label(),
                error: misuse.describe(&flag),
                elapsed: began.elapsed(),
            },
            Err(error) => CompareRow::Failed {
                label: contender.label(),
                error: error.to_string(),
                elapsed: began.elapsed(),
            },
        });
    }
    let interrupted = session.stopped();
    let verdict = driver::verdict(&rows);
    if args.report.json {
        print_json(CompareReport {
            model: model.display().to_string(),
            agree: !matches!(verdict, Verdict::Disagree(_)),
            all_proven: verdict == Verdict::AllAgree,
            complete: !interrupted,
            backends: rows.iter().map(CompareRowJson::of).collect(),
        });
    } else {
        print_stdout(&text::comparison_table(&rows, &verdict));
    }
    match verdict {
        Verdict::Disagree(message) => {
            Err(Failure::Internal(format!("backends disagree: {message}")))
        }
        _ if interrupted => {
            eprintln!("interrupted: the comparison is incomplete");
            Ok(exit::NOT_PROVEN)
        }
        _ => Ok(exit::OK),
    }
}
