//! `puzzlec emit MODEL --format F`: the model as a file for an external solver.

use crate::args::FormatArg;
use crate::output::{check_goal, exit, goal, print_stdout, write_file, Failure};
use puzzlec::driver::emit::emit;
use puzzlec::puzzle::load_model_file;
use std::path::Path;

/// Writes the model in `format` to `output`, or to stdout.
pub fn run(
    model: &Path,
    format: FormatArg,
    at_least: Option<usize>,
    output: Option<&Path>,
) -> Result<u8, Failure> {
    let puzzle = load_model_file(model)?;
    check_goal(&puzzle, goal(at_least))?;
    let text = emit(
        &puzzle,
        &model.display().to_string(),
        format.into(),
        at_least,
    );
    match output {
        Some(path) => write_file(path, text)?,
        None => print_stdout(&text),
    }
    Ok(exit::OK)
}
