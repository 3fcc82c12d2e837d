//! Shards: a deterministic split of a search into parts that run anywhere and add up, and
//! the set of their parts that a merge puts back together.

use std::collections::BTreeMap;
use std::fmt;

/// A `--shard` that is not `INDEX/COUNT` with `1 <= INDEX <= COUNT`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// Not two whole numbers around a slash.
    #[error("invalid shard {0:?}: expected INDEX/COUNT with whole numbers, like 3/8")]
    Malformed(String),
    /// A count of 0.
    #[error("invalid shard {0:?}: the shard count must be at least 1")]
    NoShards(String),
    /// An index of 0.
    #[error("invalid shard {0:?}: shards are numbered from 1, so the index must be 1..={1}")]
    IndexZero(String, u32),
    /// An index above the count.
    #[error(
        "invalid shard {0:?}: index {1} is larger than the shard count {2} (expected 1..={2})"
    )]
    IndexTooLarge(String, u32, u32),
}

/// One shard of a counting run, `index/count` as in `--shard 3/8`.
///
/// Shard `index` (1-based) does the subproblems `i` with `i % count == index - 1`.
/// The answers of shards `1/count ..= count/count` of the same N add up to the full one.
/// In JSON it is `{"index": I, "count": N}`; one read from a file is checked with
/// [`Shard::new`] (deserialising does not check the range).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// Which shard this is, from 1 to `count`.
    pub index: u32,
    /// How many shards the work is split into, at least 1.
    pub count: u32,
}

impl Shard {
    /// Parses `"INDEX/COUNT"` (for example `"3/8"`), checking `1 <= INDEX <= COUNT`.
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let malformed = || ShardError::Malformed(text.to_string());
        let (index, count) = text.trim().split_once('/').ok_or_else(malformed)?;
        let index: u32 = index.trim().parse().map_err(|_| malformed())?;
        let count: u32 = count.trim().parse().map_err(|_| malformed())?;
        let text = text.to_string();
        match (index, count) {
            (_, 0) => Err(ShardError::NoShards(text)),
            (0, count) => Err(ShardError::IndexZero(text, count)),
            (index, count) if index > count => Err(ShardError::IndexTooLarge(text, index, count)),
            (index, count) => Ok(Shard { index, count }),
        }
    }

    /// The shard `index/count` read from a file (a shard's JSON), checked as [`Shard::parse`]
    /// checks `--shard`: numbers beyond `u32` are refused, not truncated.
    pub fn new(index: u64, count: u64) -> Result<Shard, ShardError> {
        Shard::parse(&format!("{index}/{count}"))
    }

    /// Whether subproblem number `i` (0-based, in the deterministic order) belongs to this shard.
    pub fn owns(&self, i: usize) -> bool {
        i % self.count as usize == (self.index - 1) as usize
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        Shard::parse(text)
    }
}

/// The most missing shards a merge error lists by name.
pub const MISSING_LISTED: usize = 20;

/// Which command's `--shard I/N --json` outputs a merge reads; a [`ShardSetError`] is worded
/// for them as each merge has always worded it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardFiles {
    /// Counts: `solve --count --shard I/N --json`; errors name the file's line.
    Counts,
    /// Sweeps: `sweep --shard I/N --json`.
    Sweeps,
}

/// The parts of one split gathered from files: all of one split, each shard once, none
/// missing. The first file's shard sets the split.
#[derive(Clone, Debug)]
pub struct ShardSet<T> {
    files: ShardFiles,
    /// The first file's name and its shard count.
    first: Option<(String, u32)>,
    /// The file of each shard given, by index: a map, since a hand-edited count may be in
    /// the billions.
    seen: BTreeMap<u32, String>,
    /// The parts in the order the files were given.
    parts: Vec<T>,
}

impl<T> ShardSet<T> {
    /// An empty set for shard files of the kind `files`.
    pub fn new(files: ShardFiles) -> ShardSet<T> {
        ShardSet {
            files,
            first: None,
            seen: BTreeMap::new(),
            parts: Vec::new(),
        }
    }

    /// The shard `index/count` that `file` names, checked as `--shard` is checked.
    pub fn shard(&self, file: &str, index: u64, count: u64) -> Result<Shard, ShardSetError> {
        Shard::new(index, count).map_err(|error| ShardSetError::BadShard {
            files: self.files,
            file: file.to_string(),
            error,
        })
    }

    /// The first file's part, to compare the others with.
    pub fn first(&self) -> Option<&T> {
        self.parts.first()
    }

    /// Checks that `shard` (of `file`) is of the first file's split.
    pub fn check_split(&self, file: &str, shard: Shard) -> Result<(), ShardSetError> {
        match &self.first {
            Some((first, first_count)) if shard.count != *first_count => {
                Err(ShardSetError::DifferentSplit {
                    files: self.files,
                    file: file.to_string(),
                    shard,
                    first: first.clone(),
                    first_count: *first_count,
                })
            }
            _ => Ok(()),
        }
    }

    /// Adds `file`'s `part`, the shard `shard`, refusing another split or a shard given
    /// before.
    pub fn insert(&mut self, file: &str, shard: Shard, part: T) -> Result<(), ShardSetError> {
        self.check_split(file, shard)?;
        if let Some(earlier) = self.seen.get(&shard.index) {
            return Err(ShardSetError::Twice {
                files: self.files,
                file: file.to_string(),
                shard,
                earlier: earlier.clone(),
            });
        }
        self.first
            .get_or_insert_with(|| (file.to_string(), shard.count));
        self.seen.insert(shard.index, file.to_string());
        self.parts.push(part);
        Ok(())
    }

    /// The shard count and every part, in the order the files were given (the first
    /// file's first), when no shard is missing.
    pub fn complete(self) -> Result<(u32, Vec<T>), ShardSetError> {
        let Some((first, count)) = self.first else {
            return Err(ShardSetError::NoFiles { files: self.files });
        };
        // Lazily, and at most MISSING_LISTED of them: a hand-edited count of 4000000000
        // shards must not build a list of billions.
        let missing: Vec<u32> = (1..=count)
            .filter(|i| !self.seen.contains_key(i))
            .take(MISSING_LISTED)
            .collect();
        if !missing.is_empty() {
            return Err(ShardSetError::Missing {
                files: self.files,
                first,
                more: count as usize - self.seen.len() - missing.len(),
                missing,
                count,
            });
        }
        Ok((count, self.parts))
    }
}

/// Why shard files do not make one whole (bad input: the command line exits 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardSetError {
    /// No file was given.
    NoFiles {
        /// What the files were to be.
        files: ShardFiles,
    },
    /// A file's shard is not `INDEX/COUNT` with `1 <= INDEX <= COUNT`.
    BadShard {
        /// What the files are.
        files: ShardFiles,
        /// The file.
        file: String,
        /// What is wrong with the shard.
        error: ShardError,
    },
    /// A file is a shard of a split into another number of shards than the first file.
    DifferentSplit {
        /// What the files are.
        files: ShardFiles,
        /// The file.
        file: String,
        /// Its shard.
        shard: Shard,
        /// The first file.
        first: String,
        /// The first file's shard count.
        first_count: u32,
    },
    /// Two files hold the same shard.
    Twice {
        /// What the files are.
        files: ShardFiles,
        /// The file that holds it again.
        file: String,
        /// The shard.
        shard: Shard,
        /// The file that held it first.
        earlier: String,
    },
    /// Shards no file holds.
    Missing {
        /// What the files are.
        files: ShardFiles,
        /// The first file (the merge as a whole).
        first: String,
        /// The first missing shards, from 1: at least one, at most [`MISSING_LISTED`].
        missing: Vec<u32>,
        /// How many more are missing.
        more: usize,
        /// Of how many.
        count: u32,
    },
    /// A count's shard was stopped early (its file says it is incomplete).
    Stopped {
        /// The file.
        file: String,
    },
    /// Every sweep shard is there but rows are missing (a shard stopped by Ctrl-C leaves its
    /// rows not run out).
    RowsMissing {
        /// Rows the shards hold.
        rows: usize,
        /// Instances in the sweep.
        instances: usize,
    },
}

impl fmt::Display for ShardSetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ShardFiles::{Counts, Sweeps};
        match self {
            ShardSetError::NoFiles { files: Counts } => write!(f, "merge needs at least one file"),
            ShardSetError::NoFiles { files: Sweeps } => write!(f, "no files to merge"),
            ShardSetError::BadShard {
                files,
                file,
                error,
            } => match files {
                Counts => write!(f, "{file}:1: {error}"),
                Sweeps => write!(f, "{file}: {error}"),
            },
            ShardSetError::DifferentSplit {
                files,
                file,
                shard,
                first,
                first_count,
            } => match files {
                Counts => write!(
                    f,
                    "{file}:1: a shard of a split into {}, the first file's split is into \
                     {first_count}",
                    shard.count
                ),
                Sweeps => write!(
                    f,
                    "{file} is shard {shard} but {first} is of {first_count} shards"
                ),
            },
            ShardSetError::Twice {
                files,
                file,
                shard,
                earlier,
            } => match files {
                Counts => write!(f, "{file}:1: shard {shard} is given twice (also in {earlier})"),
                Sweeps => write!(f, "shard {shard} is given twice: {earlier} and {file}"),
            },
            ShardSetError::Missing {
                files,
                first,
                missing,
                more,
                count,
            } => match files {
                Counts => {
                    let listed: Vec<String> = missing.iter().map(|i| format!("{i}/{count}")).collect();
                    write!(f, "{first}: shards missing: {}", listed.join(", "))?;
                    if *more > 0 {
                        write!(f, " and {more} more")?;
                    }
                    Ok(())
                }
                Sweeps => write!(f, "shard {}/{count} is missing", missing[0]),
            },
            ShardSetError::Stopped { file } => write!(
                f,
                "{file}:1: this shard's count is incomplete (stopped early); run it again"
            ),
            ShardSetError::RowsMissing { rows, instances } => write!(
                f,
                "the shards hold {rows} rows of the sweep's {instances} (a shard stopped by Ctrl-C?)"
            ),
        }
    }
}

impl std::error::Error for ShardSetError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_parse_accepts_index_over_count() {
        assert_eq!(Shard::parse("3/8"), Ok(Shard { index: 3, count: 8 }));
        assert_eq!(Shard::parse("1/1"), Ok(Shard { index: 1, count: 1 }));
        assert_eq!("8/8".parse::<Shard>(), Ok(Shard { index: 8, count: 8 }));
        assert_eq!(Shard { index: 3, count: 8 }.to_string(), "3/8");
    }

    #[test]
    fn shard_parse_explains_what_is_wrong() {
        assert_eq!(
            Shard::parse("0/8").unwrap_err().to_string(),
            "invalid shard \"0/8\": shards are numbered from 1, so the index must be 1..=8"
        );
        assert_eq!(
            Shard::parse("9/8").unwrap_err().to_string(),
            "invalid shard \"9/8\": index 9 is larger than the shard count 8 (expected 1..=8)"
        );
        assert_eq!(
            Shard::parse("x/y").unwrap_err().to_string(),
            "invalid shard \"x/y\": expected INDEX/COUNT with whole numbers, like 3/8"
        );
        assert_eq!(
            Shard::parse("3/0").unwrap_err().to_string(),
            "invalid shard \"3/0\": the shard count must be at least 1"
        );
        assert!(Shard::parse("3")
            .unwrap_err()
            .to_string()
            .contains("expected INDEX/COUNT"));
        assert!(Shard::parse("-1/8")
            .unwrap_err()
            .to_string()
            .contains("expected INDEX/COUNT"));
    }
}
