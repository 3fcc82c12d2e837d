//! Which way a family's value goes. Every model maximises its objective (a count of true
//! literals, the *score*); a family that asks for the fewest of something (pieces that
//! guard a board) counts up what it does not use instead (squares left empty), and its
//! value is that many fewer than the whole.

use serde::{Deserialize, Serialize};

/// How a family's value relates to its model's maximised score.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "best", rename_all = "snake_case")]
pub enum Sense {
    /// The most: the value is the score.
    Most,
    /// The fewest: the value is `of` less the score.
    Fewest {
        /// What the score is counted out of (the free squares).
        of: usize,
    },
}

impl Sense {
    /// The value of a solution of `score`, or of a bound on the score (an upper bound on
    /// the score is a lower bound on the fewest).
    pub fn value(self, score: usize) -> usize {
        match self {
            Sense::Most => score,
            Sense::Fewest { of } => of.saturating_sub(score),
        }
    }

    /// The score of a solution of `value`.
    pub fn score(self, value: usize) -> usize {
        match self {
            Sense::Most => value,
            Sense::Fewest { of } => of.saturating_sub(value),
        }
    }

    /// Whether the family asks for the fewest.
    pub fn is_fewest(self) -> bool {
        matches!(self, Sense::Fewest { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fewest_is_counted_out_of_the_whole() {
        let sense = Sense::Fewest { of: 64 };
        assert_eq!(sense.value(59), 5);
        assert_eq!(sense.score(5), 59);
        assert_eq!(Sense::Most.value(20), 20);
        assert_eq!(Sense::Most.score(20), 20);
    }
}
