//! `puzzlec merge FILES...`: the total of shard counts, or the whole table of sweep shards,
//! checked to belong together.

use crate::output::{exit, print_json, print_stdout, Failure};
use puzzlec::base::error::InputError;
use puzzlec::driver::enumerate::merge;
use puzzlec::driver::sweep::is_sweep_json;
use puzzlec::report::json::MergeReport;
use std::path::PathBuf;

/// Adds up the `--json` outputs of `solve --count --shard I/N` runs.
pub fn run(files: &[PathBuf], json: bool) -> Result<u8, Failure> {
    let mut inputs = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| Failure::Input(InputError::file(file, format!("cannot read: {e}"))))?;
        inputs.push((file.display().to_string(), text));
    }
    if inputs.first().is_some_and(|(_, text)| is_sweep_json(text)) {
        return crate::sweep::merged(&inputs, json);
    }
    let merged = merge(&inputs).map_err(|e| Failure::Usage(e.to_string()))?;
    if json {
        print_json(MergeReport::of(&merged));
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
