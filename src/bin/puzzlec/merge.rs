//! `puzzlec merge FILES...`: the total of shard counts, or the whole table of sweep shards,
//! checked to belong together; and `merge --state DIR`, a round of one box's Russian doll
//! shared by many processes (whose shards `solve --shard I/N --state DIR` runs).

use crate::box_state::{failure, merged_summary};
use crate::output::{exit, print_json, print_stdout, Failure};
use puzzlec::base::error::InputError;
use puzzlec::driver::box_shard::{self, MergeRun, MODEL_FILE, SWEEP_FILE};
use puzzlec::driver::enumerate::merge;
use puzzlec::driver::sweep::is_sweep_json;
use puzzlec::puzzle::load_model_file;
use puzzlec::report::evidence::words;
use puzzlec::report::json::MergeReport;
use std::path::Path;
use std::path::PathBuf;

/// Adds up the `--json` outputs of `solve --count --shard I/N` runs.
pub fn run(files: &[PathBuf], json: bool, csv: bool) -> Result<u8, Failure> {
    let mut inputs = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| Failure::Input(InputError::file(file, format!("cannot read: {e}"))))?;
        inputs.push((file.display().to_string(), text));
    }
    if inputs.first().is_some_and(|(_, text)| is_sweep_json(text)) {
        return crate::sweep::merged(&inputs, json, csv);
    }
    if csv {
        return Err(Failure::Usage(
            "--csv prints a sweep's table; these are not a sweep's shards".into(),
        ));
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

/// `merge --state DIR`: merges the current round's shards, of one box or of every box of a
/// sweep (whose table `json` and `csv` print once every box is settled).
pub fn state(dir: &Path, json: bool, csv: bool) -> Result<u8, Failure> {
    if dir.join(SWEEP_FILE).exists() {
        return crate::sweep::merge_state(dir, json, csv);
    }
    if json || csv {
        return Err(Failure::Usage(format!(
            "--json and --csv print a sweep's table; {} holds one box's run (its answer goes to {})",
            dir.display(),
            dir.join(box_shard::ANSWER_FILE).display()
        )));
    }
    let puzzle = load_model_file(&dir.join(MODEL_FILE))?;
    let run = box_shard::merge(&puzzle, dir, words).map_err(failure)?;
    let summary = merged_summary(&run);
    match run {
        MergeRun::Round { .. } => {
            eprintln!("{summary}; run the shards again");
            Ok(exit::NOT_PROVEN)
        }
        MergeRun::Solved { rendered, .. } => {
            print_stdout(&rendered);
            eprintln!("{summary}; {}", dir.join(box_shard::ANSWER_FILE).display());
            Ok(exit::OK)
        }
    }
}
