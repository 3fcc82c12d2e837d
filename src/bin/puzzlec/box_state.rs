//! One box's Russian doll shared by many processes: `solve MODEL --shard I/N --state DIR`
//! runs a shard of the current round, and what the shards and merges did is put in words
//! for `merge` and `sweep` alike.

use crate::output::{exit, Failure};
use puzzlec::base::error::InputError;
use puzzlec::base::shard::Shard;
use puzzlec::base::Control;
use puzzlec::driver::box_shard::{self, BoxShardError, MergeRun, ShardRun};
use puzzlec::puzzle::Puzzle;
use puzzlec::report::evidence::words;
use std::path::Path;

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
    let run =
        match box_shard::run_shard_under(puzzle, Some(&bytes), dir, shard, split_nodes, control) {
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
            evidence, optimum, ..
        } => format!("optimal {optimum}: {}", words(evidence)),
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
