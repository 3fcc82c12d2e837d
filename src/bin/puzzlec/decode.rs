//! `puzzlec decode MODEL ANSWER [--emitted FILE]`: an external solver's answer to a file
//! that `emit` wrote, read back by name, checked, verified and printed as `solve` prints.

use crate::args::Decode;
use crate::output::{exit, print_json, print_stdout, write_file, Failure};
use crate::session::Session;
use crate::solve;
use puzzlec::base::error::InputError;
use puzzlec::base::Goal;
use puzzlec::driver::decode::{decode, DecodeError, DecodeInput};
use puzzlec::report::json::SolveReport;
use puzzlec::report::{color, render, svg, text};
use std::path::Path;
use std::time::Instant;

/// Decodes the answer and prints the solution; exit 0 when it is a verified solution.
pub fn run(args: &Decode, session: &Session) -> Result<u8, Failure> {
    let model = &args.model.path;
    let puzzle = &solve::load(model, args.svg.as_deref())?;
    let start = Instant::now();
    let answer = read(&args.answer)?;
    let emitted = args.emitted.as_deref().map(read).transpose()?;
    let answer_name = args.answer.display().to_string();
    let emitted_name = args.emitted.as_ref().map(|p| p.display().to_string());
    let origin = model.display().to_string();
    let input = DecodeInput {
        answer_name: &answer_name,
        answer: &answer,
        emitted: emitted_name.as_deref().zip(emitted.as_deref()),
        origin: &origin,
    };
    let decoded = decode(puzzle, &input).map_err(|error| match error {
        DecodeError::Unreadable(error) => Failure::Usage(error.to_string()),
        error @ DecodeError::Rejected { .. } => Failure::Internal(error.to_string()),
    })?;
    let outcome = decoded.into_outcome(puzzle, start.elapsed());
    if args.report.json {
        print_json(SolveReport::of(model, puzzle, Goal::Maximise, &outcome));
    } else if let Some(solution) = &outcome.solution {
        let text = puzzle.render(solution);
        print_stdout(&match session.paint {
            true => color::paint(&text, color::Scheme::of(puzzle)),
            false => text,
        });
    }
    eprintln!("{}", text::summary(Goal::Maximise, &outcome));
    if let (Some(path), Some(solution)) = (&args.svg, &outcome.solution) {
        write_file(path, svg::svg(&render::picture(puzzle, solution)))?;
    }
    Ok(exit::OK)
}

/// A file's text, or bad input naming it.
fn read(path: &Path) -> Result<String, Failure> {
    std::fs::read_to_string(path)
        .map_err(|e| Failure::Input(InputError::file(path, format!("cannot read: {e}"))))
}
