//! Shard counts added up: the `--json` outputs of `solve --count --shard I/N` runs, read
//! through [`crate::formats::count_shard`] and checked to be the shards of one count of one
//! model, each given once, none missing, none stopped early.

use crate::base::shard::{Shard, ShardFiles, ShardSet, ShardSetError};
use crate::formats::count_shard::{self, CountShardError};
use crate::puzzle::Puzzle;
use std::collections::BTreeMap;

/// An identifier of a puzzle instance for checking that shards belong together: a hash of
/// its canonical text ([`Puzzle::canonical_text`]), so the same instance gives the same
/// identifier on every machine, whatever its model file's description or layout.
pub fn model_digest(puzzle: &Puzzle) -> String {
    digest_text(&puzzle.canonical_text())
}

/// The first 16 hex digits of the SHA-256 of `text`.
fn digest_text(text: &str) -> String {
    let mut hex = crate::base::digest::sha256_hex(text.as_bytes());
    hex.truncate(16);
    hex
}

/// The sum of shard counts, checked to cover one model and goal, every shard exactly once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The model file named by the shards.
    pub model: String,
    /// The value of every counted solution.
    pub value: Option<u64>,
    /// The number of shards.
    pub shards: u32,
    /// The total count.
    pub count: u64,
    /// The total number of symmetry classes, when the shards counted them.
    pub unique_count: Option<u64>,
    /// Classes by size, summed.
    pub classes: BTreeMap<u64, u64>,
}

/// Why [`merge`] refused shard counts (bad input: the command line exits 2). Every variant
/// names the file; those about a file's contents give its line (1 for a field of the
/// document).
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A file is not a count shard: not JSON, or a field missing or of another type.
    #[error("{file}:{}: {problem}", .problem.line())]
    Unreadable {
        /// The file, as named.
        file: String,
        /// What is wrong with it.
        #[source]
        problem: CountShardError,
    },
    /// A shard of another model than the first file's.
    #[error("{file}:1: a shard of a different model ({model}, digest {digest}) than {first_model} (digest {first_digest})")]
    DifferentModel {
        /// The file.
        file: String,
        /// Its model.
        model: String,
        /// Its model digest.
        digest: String,
        /// The first file's model.
        first_model: String,
        /// The first file's model digest.
        first_digest: String,
    },
    /// A shard of another goal (or counted value) than the first file's.
    #[error(
        "{file}:1: a shard of a different goal ({goal}{}) than the first file ({first_goal}{})",
        value_words(*.value),
        value_words(*.first_value)
    )]
    DifferentGoal {
        /// The file.
        file: String,
        /// Its goal.
        goal: String,
        /// The value of the solutions it counted.
        value: Option<u64>,
        /// The first file's goal.
        first_goal: String,
        /// The first file's counted value.
        first_value: Option<u64>,
    },
    /// One file counted symmetry classes and the first did not, or the other way round.
    #[error("{file}:1: counts symmetry classes differently from the first file")]
    DifferentClasses {
        /// The file.
        file: String,
    },
    /// The files are not the shards of one split, each given once, none missing, none
    /// stopped early (no file at all, a bad shard, another split, a shard twice, shards
    /// missing, an incomplete count).
    #[error(transparent)]
    Shards(#[from] ShardSetError),
}

/// One count shard: its part of the total, and what must agree across the shards.
struct CountPart {
    model: String,
    digest: String,
    goal: String,
    value: Option<u64>,
    count: u64,
    unique_count: Option<u64>,
    classes: BTreeMap<u64, u64>,
}

/// Reads the count shard `file` (its contents `text`), checking its fields in the order of
/// the file's description: the strings, `complete`, the shard (its range too), the classes
/// and the count.
fn read_count_shard(
    file: &str,
    text: &str,
    shards: &ShardSet<CountPart>,
) -> Result<(Shard, CountPart), MergeError> {
    let unreadable = |problem| match problem {
        CountShardError::Stopped => MergeError::Shards(ShardSetError::Stopped {
            file: file.to_string(),
        }),
        problem => MergeError::Unreadable {
            file: file.to_string(),
            problem,
        },
    };
    let (head, body) = count_shard::read_count_shard(text).map_err(unreadable)?;
    let shard = match head.shard {
        None => Shard { index: 1, count: 1 },
        Some((index, count)) => shards.shard(file, index, count)?,
    };
    let counts = body.read().map_err(unreadable)?;
    let part = CountPart {
        model: head.model,
        digest: head.model_digest,
        goal: head.goal,
        value: counts.value,
        count: counts.count,
        unique_count: counts.unique_count,
        classes: counts.classes,
    };
    Ok((shard, part))
}

/// Adds up the `--json` outputs of `solve --count --shard I/N` runs. Each input is (file
/// name, contents). Errors name the file and, for malformed JSON, the line.
pub fn merge(inputs: &[(String, String)]) -> Result<Merged, MergeError> {
    let mut shards = ShardSet::new(ShardFiles::Counts);
    for (file, text) in inputs {
        let (shard, part) = read_count_shard(file, text, &shards)?;
        if let Some(first) = shards.first() {
            if part.digest != first.digest {
                return Err(MergeError::DifferentModel {
                    file: file.clone(),
                    model: part.model,
                    digest: part.digest,
                    first_model: first.model.clone(),
                    first_digest: first.digest.clone(),
                });
            }
            if part.goal != first.goal || part.value != first.value {
                return Err(MergeError::DifferentGoal {
                    file: file.clone(),
                    goal: part.goal,
                    value: part.value,
                    first_goal: first.goal.clone(),
                    first_value: first.value,
                });
            }
            shards.check_split(file, shard)?;
            if part.unique_count.is_some() != first.unique_count.is_some() {
                return Err(MergeError::DifferentClasses { file: file.clone() });
            }
        }
        shards.insert(file, shard, part)?;
    }
    let (count, parts) = shards.complete()?;
    let mut classes = BTreeMap::new();
    for (&size, &n) in parts.iter().flat_map(|part| &part.classes) {
        *classes.entry(size).or_default() += n;
    }
    Ok(Merged {
        model: parts[0].model.clone(),
        value: parts[0].value,
        shards: count,
        count: parts.iter().map(|part| part.count).sum(),
        // The same for every shard (checked above): all counted classes, or none did.
        unique_count: parts.iter().map(|part| part.unique_count).sum(),
        classes,
    })
}

/// A counted value for merge's errors: ", value 20", or nothing for a count without one.
fn value_words(value: Option<u64>) -> String {
    value.map_or(String::new(), |v| format!(", value {v}"))
}
