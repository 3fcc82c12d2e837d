//! Shards: a deterministic split of a search into parts that run anywhere and add up.

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
