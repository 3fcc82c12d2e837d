//! The puzzlec command line: parse flags, call the library, print, set the exit code. One
//! file per command; this one only dispatches.

mod args;
mod check;
mod compare;
mod count;
mod decode;
mod describe;
mod emit;
mod merge;
mod output;
mod progress;
mod prove;
mod solve;
mod sweep;

use args::{Cli, Command};
use clap::Parser;
use output::{exit, guard_memory, limit, Failure};
use puzzlec::base::Control;
use puzzlec::driver::enumerate::EnumerateOptions;
use puzzlec::driver::guard::Work;
use puzzlec::driver::Backend;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

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
            max_memory,
            json,
            svg,
            all,
            count,
            unique,
            shard,
        } => {
            let puzzle = solve::load(&model, svg.as_deref())?;
            let control = Control::new(stop, limit(time_limit)?)
                .with_progress(Arc::new(progress::StderrProgress::new()));
            if all || count || unique || shard.is_some() {
                let options = EnumerateOptions {
                    unique,
                    shard,
                    // `--unique` alone lists the class representatives.
                    list: all || (unique && !count),
                    at_least,
                };
                if solver.is_some() {
                    return Err(Failure::Usage(
                        "--solver answers one question; it does not count or list solutions".into(),
                    ));
                }
                let backend = backend.map_or(Backend::Native, Backend::from);
                if backend == Backend::Sat {
                    let what = "solve --backend sat (counting)";
                    guard_memory(&model, &puzzle, Work::Sat, what, max_memory.0)?;
                }
                return count::run(
                    &model,
                    &puzzle,
                    backend,
                    &options,
                    &control,
                    json,
                    svg.as_deref(),
                );
            }
            let args = solve::SolveArgs {
                model: &model,
                backend,
                solver,
                at_least,
                json,
                svg: svg.as_deref(),
                paint,
                max_memory: max_memory.0,
            };
            solve::run(&puzzle, args, &control)
        }
        Command::Merge { files, json } => merge::run(&files, json),
        Command::Emit {
            model,
            format,
            at_least,
            output,
            incomplete,
            time_limit,
            max_memory,
        } => emit::run(
            emit::EmitArgs {
                model: &model,
                format,
                at_least,
                output: output.as_deref(),
                incomplete,
                time_limit,
                max_memory: max_memory.0,
            },
            stop,
        ),
        Command::Decode {
            model,
            answer,
            emitted,
            json,
            svg,
        } => {
            let puzzle = solve::load(&model, svg.as_deref())?;
            let args = decode::DecodeArgs {
                model: &model,
                answer: &answer,
                emitted: emitted.as_deref(),
                json,
                svg: svg.as_deref(),
                paint,
            };
            decode::run(&puzzle, args)
        }
        Command::Compare {
            model,
            at_least,
            time_limit,
            max_memory,
            json,
        } => compare::run(&model, at_least, time_limit, max_memory.0, json, stop),
        Command::Models { dir, json } => describe::models(&dir, json),
        Command::Explain {
            model,
            max_memory,
            json,
        } => describe::explain(&model, max_memory.0, json),
        Command::Completions { shell } => describe::completions(shell),
        Command::Man { output, dir } => describe::man(output.as_deref(), dir.as_deref()),
        Command::Prove {
            model,
            output,
            count,
            unique,
            max_solutions,
            solver,
            time_limit,
            json,
            svg,
            max_memory,
            shard,
        } => {
            let control = Control::new(stop, limit(time_limit)?);
            let args = prove::ProveArgs {
                count,
                unique,
                max_solutions,
                solver: solver.as_deref(),
                json,
                svg: svg.as_deref(),
                max_memory: max_memory.0,
                shard,
            };
            prove::run(&model, &output, args, control)
        }
        Command::Check {
            dir,
            json,
            shard,
            write_cnf,
        } => check::run(&dir, json, shard, write_cnf.as_deref()),
        Command::Sweep {
            model,
            width,
            height,
            size,
            backend,
            time_limit,
            shard,
            json,
            csv,
        } => {
            let args = sweep::SweepArgs {
                model: &model,
                width,
                height,
                size,
                backend: backend.map(Backend::from),
                time_limit: limit(time_limit)?,
                shard,
                json,
                csv,
            };
            sweep::run(&args, stop)
        }
    }
}
