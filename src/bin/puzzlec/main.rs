//! The puzzlec command line: parse flags, call the library, print, set the exit code. One
//! file per command; this one only dispatches.

mod args;
mod box_state;
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
mod session;
mod solve;
mod sweep;

use args::{Cli, Command};
use clap::Parser;
use output::{exit, Failure};
use session::Session;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let session = Session::start(cli.color);
    match run(cli.command, &session) {
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

/// Hands the command to its file.
fn run(command: Command, session: &Session) -> Result<u8, Failure> {
    match command {
        Command::Solve(args) => solve::run(&args, session),
        Command::Merge(args) => match &args.state {
            Some(dir) => merge::state(dir, args.report.json, args.csv),
            None => merge::run(&args.files, args.report.json, args.csv),
        },
        Command::Emit(args) => emit::run(&args, session),
        Command::Decode(args) => decode::run(&args, session),
        Command::Compare(args) => compare::run(&args, session),
        Command::Models(args) => describe::models(&args.dir, args.report.json),
        Command::Explain(args) => {
            describe::explain(&args.model.path, args.memory.bytes(), args.report.json)
        }
        Command::Completions(args) => describe::completions(args.shell),
        Command::Man(args) => describe::man(args.output.as_deref(), args.dir.as_deref()),
        Command::Prove(args) => prove::run(&args, session),
        Command::Check(args) => check::run(&args),
        Command::Sweep(args) => sweep::run(&args, session),
    }
}
