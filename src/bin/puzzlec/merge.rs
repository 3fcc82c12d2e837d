//! `puzzlec merge FILES...`: the total of shard counts, or the whole table of sweep shards,
//! checked to belong together; and `merge --state DIR`, a round of one box's Russian doll
//! shared by many processes (whose shards `solve --shard I/N --state DIR` runs).

use crate::output::{exit, print_json, print_stdout, Failure};
use puzzlec::base::error::InputError;
use puzzlec::base::shard::Shard;
use puzzlec::base::{plural, Control};
use puzzlec::driver::box_shard::{self, BoxShardError, MergeRun, ShardRun, MODEL_FILE, SWEEP_FILE};
use puzzlec::driver::enumerate::merge;
use puzzlec::driver::sweep::is_sweep_json;
use puzzlec::engines::russian_doll::{self, DollOptions};
use puzzlec::puzzle::{load_model_file, Puzzle};
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

/// `solve MODEL --shard I/N --state DIR`: one shard of the current round.
pub fn shard(
    model: &Path,
    puzzle: &Puzzle,
    dir: &Path,
    shard: Shard,
    split_nodes: u64,
    control: &Control,
) -> Result<u8, Failure> {
    make_folder(dir)?;
    let bytes = read_model(model)?;
    let deadline = control.remaining().map(|r| std::time::Instant::now() + r);
    let options = DollOptions {
        stop: Some(control.stop_flag()),
        deadline,
        memo_bytes: russian_doll::memo_bytes_for(control),
        ..DollOptions::default()
    };
    let run = match box_shard::run_shard(puzzle, Some(&bytes), dir, shard, split_nodes, &options) {
        Ok(run) => run,
        Err(BoxShardError::Stopped) => {
            eprintln!(
                "shard {}/{}: {}",
                shard.index,
                shard.count,
                BoxShardError::Stopped
            );
            return Ok(exit::NOT_PROVEN);
        }
        Err(e) => return Err(failure(e)),
    };
    let hint = match run.entry {
        Some(_) => "once every shard is done: ",
        None => "",
    };
    eprintln!(
        "shard {}/{}: {}; {hint}puzzlec merge --state {}",
        shard.index,
        shard.count,
        part_summary(&run),
        dir.display()
    );
    Ok(exit::OK)
}

/// Makes the folder of `--state DIR`.
pub fn make_folder(dir: &Path) -> Result<(), Failure> {
    std::fs::create_dir_all(dir).map_err(|e| {
        Failure::Usage(format!(
            "--state {}: cannot make the folder: {e}",
            dir.display()
        ))
    })
}

/// The model file's bytes, which the first shard copies into the folder for the merge.
pub fn read_model(model: &Path) -> Result<Vec<u8>, Failure> {
    std::fs::read(model)
        .map_err(|e| Failure::Input(InputError::file(model, format!("cannot read: {e}"))))
}

/// What a shard's part of a round did, in words.
pub fn part_summary(run: &ShardRun) -> String {
    match run.entry {
        Some((entry, target, subproblems, searched, found)) => format!(
            "the table is decided alike from scan position {} of {}; entry {entry} (do {target} pieces fit?) split into {subproblems} subproblems, {searched} searched here, {}; {} nodes",
            run.known_from,
            run.cells,
            if found { "a packing found" } else { "no packing" },
            run.nodes,
        ),
        None => format!("the table is complete ({} nodes)", run.nodes),
    }
}

/// What merging a round did, in words.
pub fn merged_summary(run: &MergeRun) -> String {
    match run {
        MergeRun::Round {
            rounds,
            entry,
            value,
            raised,
            cells,
        } => format!(
            "round {rounds} merged: entry {entry} is {value} ({}); the table is decided from scan position {entry} of {cells}",
            if *raised { "raised: a shard found a packing" } else { "no shard found a packing" }
        ),
        MergeRun::Solved {
            rounds,
            shards,
            optimum,
            ..
        } => format!(
            "optimal {optimum}: the Russian doll's table, filled in {} of {}; the packing verified by the rules",
            plural(*rounds, "round"),
            plural(u64::from(*shards), "shard"),
        ),
    }
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
    let run = box_shard::merge(&puzzle, dir).map_err(failure)?;
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

/// The command line's failure for a sharded run's error.
pub fn failure(error: BoxShardError) -> Failure {
    match error {
        BoxShardError::File { path, message } => Failure::Input(InputError::file(&path, message)),
        BoxShardError::Unsupported(message) => Failure::Usage(message),
        BoxShardError::Merge(message) => Failure::Usage(message),
        BoxShardError::Stopped => Failure::Internal(BoxShardError::Stopped.to_string()),
    }
}
