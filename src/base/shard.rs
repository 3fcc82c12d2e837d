//! Shards: a deterministic split of a search into parts that run anywhere and add up.

use std::fmt;

/// One shard of a counting run, `index/count` as in `--shard 3/8`.
///
/// Shard `index` (1-based) does the subproblems `i` with `i % count == index - 1`.
/// The answers of shards `1/count ..= count/count` of the same N add up to the full one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shard {
    /// Which shard this is, from 1 to `count`.
    pub index: u32,
    /// How many shards the work is split into, at least 1.
    pub count: u32,
}

impl Shard {
    /// Parses `"INDEX/COUNT"` (for example `"3/8"`), checking `1 <= INDEX <= COUNT`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let malformed =
            || format!("invalid shard {text:?}: expected INDEX/COUNT with whole numbers, like 3/8");
        let (index, count) = text.trim().split_once('/').ok_or_else(malformed)?;
        let index: u32 = index.trim().parse().map_err(|_| malformed())?;
        let count: u32 = count.trim().parse().map_err(|_| malformed())?;
        if count == 0 {
            return Err(format!(
                "invalid shard {text:?}: the shard count must be at least 1"
            ));
        }
        if index == 0 {
            return Err(format!(
                "invalid shard {text:?}: shards are numbered from 1, so the index must be 1..={count}"
            ));
        }
        if index > count {
            return Err(format!(
                "invalid shard {text:?}: index {index} is larger than the shard count {count} (expected 1..={count})"
            ));
        }
        Ok(Shard { index, count })
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
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        Shard::parse(text)
    }
}
