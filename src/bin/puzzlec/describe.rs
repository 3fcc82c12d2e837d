//! `puzzlec models`, `explain`, `completions` and `man`: what a model is and how to use the
//! command line, without solving anything.

use crate::args::Cli;
use crate::output::{exit, guard_memory, print_json, print_stdout, write_file, Failure};
use clap::CommandFactory;
use puzzlec::driver::guard::Work;
use puzzlec::puzzle::load_model_file;
use puzzlec::report::{catalog, explain};
use std::path::Path;

/// `models [DIR]`: the model files of a folder with their descriptions.
pub fn models(dir: &Path, json: bool) -> Result<u8, Failure> {
    let entries = catalog::list(dir)?;
    if json {
        print_json(catalog::to_json(&entries));
    } else {
        print_stdout(&catalog::to_text(&entries));
    }
    // Every file is listed; a bad one still makes the exit code say so.
    match entries.iter().any(|e| e.loaded.is_err()) {
        true => Ok(exit::BAD_INPUT),
        false => Ok(exit::OK),
    }
}

/// `explain MODEL`: what the model compiles to (refused, like solving, when it would not
/// fit in `max_memory` bytes).
pub fn explain(model: &Path, max_memory: u64, json: bool) -> Result<u8, Failure> {
    let puzzle = load_model_file(model)?;
    guard_memory(model, &puzzle, Work::Explain, "explain", max_memory)?;
    let explanation = explain::explain(&puzzle);
    if json {
        let mut value =
            serde_json::to_value(&explanation).map_err(|e| Failure::Internal(e.to_string()))?;
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

/// `completions SHELL`: a completion script.
pub fn completions(shell: clap_complete::Shell) -> Result<u8, Failure> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "puzzlec", &mut script);
    print_stdout(&String::from_utf8_lossy(&script));
    Ok(exit::OK)
}

/// `man [-o FILE | --dir DIR]`: the man page, or one page per subcommand.
pub fn man(output: Option<&Path>, dir: Option<&Path>) -> Result<u8, Failure> {
    if let Some(dir) = dir {
        clap_mangen::generate_to(Cli::command(), dir).map_err(|e| {
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
        Some(path) => write_file(path, page)?,
        None => print_stdout(&String::from_utf8_lossy(&page)),
    }
    Ok(exit::OK)
}
