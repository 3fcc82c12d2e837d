//! Count shards: the `--json` output of `solve --count` (with `--shard I/N`), written as
//! [`CountShard`] and read back by `merge` to add the shards up. Only the fields a merge
//! needs are read; the others are passed over. They are read in the order of the file's description, in two steps: the
//! head ([`read_count_shard`]: the strings that must agree across the shards, `complete`
//! and the shard), then the body ([`CountShardBody::read`]: the classes, the count), so
//! that the caller can check the shard's range between the two. A field that is missing or
//! of another type is refused by its key. Errors give their line ([`CountShardError::line`]):
//! 1 for a field of the document, its own for malformed JSON.

use serde::de::{DeserializeOwned, Deserializer};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A count as `solve --count --json` writes it, `established` being how the count was
/// established as data (the caller's own type). The keys are the field names; the reader
/// below reads them back.
#[derive(Clone, Debug, Serialize)]
pub struct CountShard<E> {
    /// The model file.
    pub model: String,
    /// The identity of the instance, for checking that shards belong together.
    pub model_digest: String,
    /// The puzzle family.
    pub kind: String,
    /// What was counted.
    pub goal: String,
    /// The backend that counted.
    pub backend: String,
    /// The value of every counted solution.
    pub value: Option<u64>,
    /// The shard this run did; `None` (`null`) for an unsharded count.
    pub shard: Option<ShardPart>,
    /// Solutions counted.
    pub count: u64,
    /// Symmetry classes counted.
    pub unique_count: Option<u64>,
    /// The board's symmetries used.
    pub symmetries: u64,
    /// Classes by size.
    pub classes: Vec<ClassCount>,
    /// Whether the count is exact.
    pub complete: bool,
    /// How the count was established, in words.
    pub evidence: String,
    /// How the count was established, as data.
    pub established: E,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// With `--all`: every solution's grid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solutions: Option<Vec<serde_json::Value>>,
}

/// Which shard a count is: `{"index": I, "count": N}`, as `--shard I/N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ShardPart {
    /// Which shard, from 1 to `count`.
    pub index: u64,
    /// How many shards the work is split into.
    pub count: u64,
}

/// A class size and how many classes have it: an entry of `classes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ClassCount {
    /// Members per class.
    pub size: u64,
    /// Classes of that size.
    pub classes: u64,
}

/// A count shard's head: which count of which model it is a part of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountShardHead {
    /// `model_digest`: the identifier of the puzzle instance counted.
    pub model_digest: String,
    /// `goal`: what was counted.
    pub goal: String,
    /// `model`: the model file named by the count.
    pub model: String,
    /// `shard`'s `index` and `count` as written (their range is the caller's to check);
    /// `None` for an unsharded count (`"shard": null`).
    pub shard: Option<(u64, u64)>,
}

/// A count shard's part of the total, as read by [`CountShardBody::read`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardCounts {
    /// `value`: the value of every counted solution, if the count has one.
    pub value: Option<u64>,
    /// `count`: the solutions this shard counted.
    pub count: u64,
    /// `unique_count`: the symmetry classes this shard counted, if it counted them.
    pub unique_count: Option<u64>,
    /// `classes`: classes by their number of members (`size` -> `classes`).
    pub classes: BTreeMap<u64, u64>,
}

/// What is wrong with a count shard. The messages say no line: [`CountShardError::line`]
/// gives it.
#[derive(Debug, thiserror::Error)]
pub enum CountShardError {
    /// The text is not JSON.
    #[error("not JSON: {0}")]
    NotJson(#[source] serde_json::Error),
    /// A field of the `solve --count --json` output is missing.
    #[error("missing `{key}`: not the --json output of `solve --count`")]
    Missing {
        /// The field.
        key: &'static str,
    },
    /// A field that should be a string is not one.
    #[error("`{key}` should be a string")]
    NotString {
        /// The field.
        key: &'static str,
    },
    /// A field that should be a whole number is not one.
    #[error("`{key}` should be a whole number")]
    NotWholeNumber {
        /// The field.
        key: &'static str,
    },
    /// `complete` is not `true`: the count was stopped early.
    #[error("the count is incomplete (stopped early)")]
    Stopped,
}

impl CountShardError {
    /// The 1-based line the problem is on: malformed JSON's own, 1 for a field of the
    /// document.
    pub fn line(&self) -> usize {
        match self {
            CountShardError::NotJson(error) => error.line(),
            _ => 1,
        }
    }
}

/// A field of a count shard file as read: absent, of another type, or its value.
#[derive(Default)]
enum Field<T> {
    /// The file has no such field.
    #[default]
    Absent,
    /// The field is of another type.
    Wrong,
    /// The field's value.
    Is(T),
}

impl<T> Field<T> {
    fn value(self) -> Option<T> {
        match self {
            Field::Is(value) => Some(value),
            Field::Absent | Field::Wrong => None,
        }
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Field<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        Ok(T::deserialize(value).map_or(Field::Wrong, Field::Is))
    }
}

/// The fields of a JSON object, each a [`Field`]; a value that is no object (an array, a
/// number) has none of them.
struct Object<T>(T);

impl<T: DeserializeOwned + Default> Object<T> {
    fn of(value: serde_json::Value) -> T {
        match value {
            // Never refused: every field of `T` is a `Field`, which takes any value.
            serde_json::Value::Object(_) => T::deserialize(value).unwrap_or_default(),
            _ => T::default(),
        }
    }
}

impl<'de, T: DeserializeOwned + Default> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde_json::Value::deserialize(deserializer).map(|value| Object(Object::of(value)))
    }
}

/// The `--json` output of `solve --count` as a merge reads it (its other fields are not
/// read).
#[derive(Default, Deserialize)]
#[serde(default)]
struct CountFile {
    model_digest: Field<String>,
    goal: Field<String>,
    backend: Field<String>,
    model: Field<String>,
    complete: Field<bool>,
    /// `null` for an unsharded count.
    shard: Field<Option<Object<ShardFields>>>,
    unique_count: Field<u64>,
    value: Field<u64>,
    classes: Field<Vec<Object<ClassFields>>>,
    count: Field<u64>,
}

/// A count file's `shard`.
#[derive(Default, Deserialize)]
#[serde(default)]
struct ShardFields {
    index: Field<u64>,
    count: Field<u64>,
}

/// One entry of a count file's `classes`.
#[derive(Default, Deserialize)]
#[serde(default)]
struct ClassFields {
    size: Field<u64>,
    classes: Field<u64>,
}

/// A count shard's fields after the shard, not read yet: [`CountShardBody::read`] reads
/// them.
pub struct CountShardBody {
    unique_count: Field<u64>,
    value: Field<u64>,
    classes: Field<Vec<Object<ClassFields>>>,
    count: Field<u64>,
}

/// A field that should be a whole number, or the error naming its key.
fn number(field: Field<u64>, key: &'static str) -> Result<u64, CountShardError> {
    field.value().ok_or(CountShardError::NotWholeNumber { key })
}

/// Reads a count shard's head, checking its fields in the order of the file's description:
/// the strings, `complete`, then the shard's numbers; the body is left for
/// [`CountShardBody::read`].
pub fn read_count_shard(text: &str) -> Result<(CountShardHead, CountShardBody), CountShardError> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(CountShardError::NotJson)?;
    let fields = Object::<CountFile>::of(value);
    let text_of = |field: Field<String>, key: &'static str| match field {
        Field::Is(text) => Ok(text),
        Field::Absent => Err(CountShardError::Missing { key }),
        Field::Wrong => Err(CountShardError::NotString { key }),
    };
    let model_digest = text_of(fields.model_digest, "model_digest")?;
    let goal = text_of(fields.goal, "goal")?;
    text_of(fields.backend, "backend")?;
    let model = text_of(fields.model, "model")?;
    match fields.complete {
        Field::Is(true) => {}
        Field::Absent => return Err(CountShardError::Missing { key: "complete" }),
        Field::Is(false) | Field::Wrong => return Err(CountShardError::Stopped),
    }
    // Never `Wrong`: any value but null reads as an object (one without fields if it is none).
    let shard = match fields.shard.value() {
        None => return Err(CountShardError::Missing { key: "shard" }),
        Some(None) => None,
        Some(Some(Object(shard))) => {
            Some((number(shard.index, "index")?, number(shard.count, "count")?))
        }
    };
    let head = CountShardHead {
        model_digest,
        goal,
        model,
        shard,
    };
    let body = CountShardBody {
        unique_count: fields.unique_count,
        value: fields.value,
        classes: fields.classes,
        count: fields.count,
    };
    Ok((head, body))
}

impl CountShardBody {
    /// Reads the classes, then the count; a missing `value` or `unique_count` (or one of
    /// another type) is none, a missing `classes` no classes.
    pub fn read(self) -> Result<ShardCounts, CountShardError> {
        let mut classes = BTreeMap::new();
        for Object(class) in self.classes.value().unwrap_or_default() {
            classes.insert(
                number(class.size, "size")?,
                number(class.classes, "classes")?,
            );
        }
        Ok(ShardCounts {
            value: self.value.value(),
            count: number(self.count, "count")?,
            unique_count: self.unique_count.value(),
            classes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<(CountShardHead, ShardCounts), CountShardError> {
        let (head, body) = read_count_shard(text)?;
        Ok((head, body.read()?))
    }

    const SHARD: &str = r#"{"model_digest": "d", "goal": "count optimal", "backend": "native",
        "model": "q.toml", "complete": true, "shard": {"index": 2, "count": 3},
        "value": 8, "count": 30, "unique_count": 4,
        "classes": [{"size": 8, "classes": 3}, {"size": 4, "classes": 1}]}"#;

    #[test]
    fn a_shard_reads_with_its_part_of_the_count() {
        let (head, counts) = read(SHARD).unwrap();
        assert_eq!(
            head,
            CountShardHead {
                model_digest: "d".into(),
                goal: "count optimal".into(),
                model: "q.toml".into(),
                shard: Some((2, 3)),
            }
        );
        assert_eq!(
            counts,
            ShardCounts {
                value: Some(8),
                count: 30,
                unique_count: Some(4),
                classes: BTreeMap::from([(4, 1), (8, 3)]),
            }
        );
        let unsharded = SHARD.replace(r#"{"index": 2, "count": 3}"#, "null");
        assert_eq!(read(&unsharded).unwrap().0.shard, None);
    }

    #[test]
    fn a_written_shard_reads_back() {
        let written = CountShard {
            model: "q.toml".into(),
            model_digest: "d".into(),
            kind: "queens".into(),
            goal: "count optimal".into(),
            backend: "native".into(),
            value: Some(8),
            shard: Some(ShardPart { index: 2, count: 3 }),
            count: 30,
            unique_count: Some(4),
            symmetries: 8,
            classes: vec![
                ClassCount {
                    size: 4,
                    classes: 1,
                },
                ClassCount {
                    size: 8,
                    classes: 3,
                },
            ],
            complete: true,
            evidence: "by hand".into(),
            established: "by hand",
            seconds: 0.5,
            solutions: None,
        };
        let text = serde_json::to_string_pretty(&written).unwrap();
        assert!(!text.contains("solutions"), "{text}");
        assert_eq!(read(&text).unwrap(), read(SHARD).unwrap());
    }

    #[test]
    fn fields_are_refused_by_their_key_in_the_order_described() {
        let error = |text: &str| {
            let error = read(text).unwrap_err();
            format!("{}: {error}", error.line())
        };
        assert!(error("{\n\"model\": ").starts_with("2: not JSON: "));
        assert_eq!(
            error("[1]"),
            "1: missing `model_digest`: not the --json output of `solve --count`"
        );
        assert_eq!(
            error(&SHARD.replace(r#""goal": "count optimal""#, r#""goal": 1"#)),
            "1: `goal` should be a string"
        );
        assert_eq!(
            error(&SHARD.replace(r#""complete": true"#, r#""complete": false"#)),
            "1: the count is incomplete (stopped early)"
        );
        // The shard before the classes, the classes before the count.
        let late = SHARD
            .replace(r#""index": 2"#, r#""index": -2"#)
            .replace(r#""size": 8"#, r#""size": "8""#);
        assert_eq!(error(&late), "1: `index` should be a whole number");
        let (_, body) = read_count_shard(&SHARD.replace(r#""size": 8"#, r#""size": "8""#)).unwrap();
        assert_eq!(
            body.read().unwrap_err().to_string(),
            "`size` should be a whole number"
        );
    }
}
