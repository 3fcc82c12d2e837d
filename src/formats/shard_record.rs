//! The files of a streamed certificate besides its manifest: one record per shard
//! (`NAME.json`, [`ShardRecord`]), what a shard's proof was and what its checkers said of
//! it, the proof itself never kept; and the plan of a run (`plan.txt`, [`write_plan`]), the
//! names of the shards it is cut into, one a line. What the fields mean for the certificate
//! is the certificate's; this is the documents' text. Errors give their line.

use serde::{Deserialize, Serialize};

/// The `format` of every record this module writes; [`read_shard_record`] refuses others.
pub const RECORD_FORMAT: &str = "puzzlec-shard-record/1";

/// What one shard's streamed proof was and what its checkers said.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardRecord {
    /// [`RECORD_FORMAT`].
    pub format: String,
    /// The program that wrote it, with its version.
    pub tool: String,
    /// The shard's name, which is also the record's file name without `.json`.
    pub shard: String,
    /// SHA-256 of the model file the shard belongs to.
    pub model_sha256: String,
    /// SHA-256 of the table file whose entries the shard's premises are.
    pub table_sha256: String,
    /// The table entries the shard proves, `start..end` (one entry for a part of a split
    /// entry).
    pub entries: EntryRange,
    /// For a part of an entry split at its search states: which part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split: Option<SplitPart>,
    /// The shard's OPB file, rebuilt by whoever reads the record.
    pub opb: FileDigest,
    /// The proof as it was written into the checkers.
    pub proof: ProofDigest,
    /// Search nodes of the proof-writing search.
    pub nodes: u64,
    /// Constraints the proof derives.
    pub derived: u64,
    /// The bound on the proof search's memo, in clauses (its oldest given up and deleted
    /// from the proof past it), which the proof's text depends on; none: unbounded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memo_clauses: Option<usize>,
    /// What writing the proof took (its thread).
    pub writer: Work,
    /// Each checker's verdict, in the order they ran.
    pub checkers: Vec<CheckerRecord>,
}

/// A range of table entries, `start..end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntryRange {
    /// The first entry.
    pub start: usize,
    /// One past the last.
    pub end: usize,
}

/// Which part of a split entry a shard is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SplitPart {
    /// The entry whose search is split.
    pub entry: usize,
    /// How many pieces below the entry's root its states are.
    pub depth: u32,
    /// The glue (the entry's root citing every state) or a run of states.
    pub part: SplitRole,
    /// The index, in the frontier, of the first state listed.
    pub first: usize,
    /// The glue: every state of the frontier (a glue within a state: that state first);
    /// a run: the states it proves.
    pub states: Vec<StateRecord>,
    /// The states, one per level, that the split lies within: a state alone whose proof
    /// was too large, split again at the states below it. Empty for the entry's own split.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub within: Vec<WithinState>,
}

/// A state split again: the frontier of the split at `depth` holds it at index `state`. A
/// state alone whose proof passes a shard's bytes is cut this way, as an entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WithinState {
    /// The depth of the split whose frontier holds the state.
    pub depth: u32,
    /// The state's index in that frontier.
    pub state: usize,
}

/// The glue of a split entry, or a run of its states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SplitRole {
    /// The entry's root, citing every state of the frontier.
    Glue,
    /// Consecutive states of the frontier, proved by one search.
    States,
}

/// A search state: its scan position, the covered cells from there on, the pieces needed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateRecord {
    /// The scan position.
    pub position: usize,
    /// The covered scan positions, ascending.
    pub covered: Vec<usize>,
    /// The pieces still needed.
    pub need: u32,
}

/// A file's SHA-256 and size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileDigest {
    /// SHA-256 in lower-case hex.
    pub sha256: String,
    /// Bytes.
    pub bytes: u64,
}

/// A streamed proof's SHA-256, size and lines, counted as it was written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProofDigest {
    /// SHA-256 in lower-case hex.
    pub sha256: String,
    /// Bytes.
    pub bytes: u64,
    /// Lines.
    pub lines: u64,
}

/// Wall time, CPU time and peak memory of one piece of work.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Work {
    /// Wall-clock seconds.
    pub seconds: f64,
    /// CPU seconds, when the system says.
    pub cpu_seconds: Option<f64>,
    /// Peak resident memory in bytes (of the process that did it), when the system says.
    pub peak_memory_bytes: Option<u64>,
    /// Of a checker run as its own process: the most memory it held at once that the
    /// system cannot reclaim (its proof read from a scratch folder on disk is cache, not
    /// counted; a proof in memory is), when sampled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_held_bytes: Option<u64>,
}

/// A checker's verdict on a proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// It accepted the proof, with the conclusion recorded.
    Accepted,
    /// It refused the proof; the message says why.
    Refused,
    /// It did not run (not installed); the message says why.
    NotRun,
}

/// One checker's run on a shard's proof.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckerRecord {
    /// The checker (`puzzlec-pb`, `veripb`).
    pub name: String,
    /// Its version, as it gives it.
    pub version: String,
    /// What it said.
    pub verdict: Verdict,
    /// The conclusion it accepted, as VeriPB words it (`BOUNDS 0 INF`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conclusion: Option<String>,
    /// Why it refused or did not run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// What checking took.
    pub work: Work,
}

/// A record or plan that does not read: its line (1-based) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct RecordError {
    /// The line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// The record's text: pretty-printed JSON ended by a newline.
pub fn write_shard_record(record: &ShardRecord) -> String {
    // Plain strings and numbers: serialising cannot fail.
    serde_json::to_string_pretty(record).unwrap_or_default() + "\n"
}

/// Reads a record's text, refusing unknown fields and another [`RECORD_FORMAT`].
pub fn read_shard_record(text: &str) -> Result<ShardRecord, RecordError> {
    let record: ShardRecord = serde_json::from_str(text).map_err(|e| {
        let words = e.to_string();
        // serde_json ends its words with " at line L column C": the line goes first here.
        let message = match words.rfind(" at line ") {
            Some(at) => words[..at].to_string(),
            None => words,
        };
        RecordError {
            line: e.line().max(1),
            message,
        }
    })?;
    if record.format != RECORD_FORMAT {
        return Err(RecordError {
            line: line_of(text, "\"format\""),
            message: format!("format {:?} is not {RECORD_FORMAT:?}", record.format),
        });
    }
    Ok(record)
}

/// The line of the first occurrence of `needle` in `text` (1 if none).
fn line_of(text: &str, needle: &str) -> usize {
    text.find(needle)
        .map_or(1, |at| text[..at].matches('\n').count() + 1)
}

/// The text of a plan: `c` comment lines, then one shard name a line.
pub fn write_plan(comments: &[String], names: &[String]) -> String {
    let mut text = String::new();
    for comment in comments {
        text.push_str("c ");
        text.push_str(comment);
        text.push('\n');
    }
    for name in names {
        text.push_str(name);
        text.push('\n');
    }
    text
}

/// Reads a plan: the shard names, each a word of letters, digits and `-`, each once.
pub fn read_plan(text: &str) -> Result<Vec<String>, RecordError> {
    let mut names: Vec<String> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line == "c" || line.starts_with("c ") {
            continue;
        }
        let error = |message: String| RecordError {
            line: i + 1,
            message,
        };
        if !line.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(error(format!(
                "{line:?} is not a shard name (letters, digits and -)"
            )));
        }
        if names.iter().any(|n| n == line) {
            return Err(error(format!("{line} is listed twice")));
        }
        names.push(line.to_string());
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> ShardRecord {
        let work = Work {
            seconds: 1.5,
            cpu_seconds: Some(1.25),
            peak_memory_bytes: Some(1 << 20),
            peak_held_bytes: None,
        };
        ShardRecord {
            format: RECORD_FORMAT.into(),
            tool: "puzzlec 0.1.0".into(),
            shard: "entry-003-d2-states-000-002".into(),
            model_sha256: "aa".into(),
            table_sha256: "bb".into(),
            entries: EntryRange { start: 3, end: 4 },
            split: Some(SplitPart {
                entry: 3,
                depth: 2,
                part: SplitRole::States,
                first: 0,
                states: vec![StateRecord {
                    position: 5,
                    covered: vec![5, 7],
                    need: 2,
                }],
                within: vec![WithinState { depth: 1, state: 4 }],
            }),
            opb: FileDigest {
                sha256: "cc".into(),
                bytes: 10,
            },
            proof: ProofDigest {
                sha256: "dd".into(),
                bytes: 20,
                lines: 2,
            },
            nodes: 7,
            derived: 9,
            memo_clauses: Some(1 << 22),
            writer: work,
            checkers: vec![
                CheckerRecord {
                    name: "puzzlec-pb".into(),
                    version: "0.1.0".into(),
                    verdict: Verdict::Accepted,
                    conclusion: Some("BOUNDS 0 INF".into()),
                    message: None,
                    work,
                },
                CheckerRecord {
                    name: "veripb".into(),
                    version: "unknown".into(),
                    verdict: Verdict::NotRun,
                    conclusion: None,
                    message: Some("not on PATH".into()),
                    work: Work {
                        peak_held_bytes: Some(1 << 19),
                        ..work
                    },
                },
            ],
        }
    }

    #[test]
    fn a_record_reads_back_what_is_written() {
        let text = write_shard_record(&record());
        assert!(text.ends_with("}\n"), "{text}");
        assert!(text.contains("\"verdict\": \"not_run\""), "{text}");
        assert_eq!(read_shard_record(&text).unwrap(), record());
        // The fields a record may lack read as absent: a memo without bound, no sample.
        let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
        value
            .as_object_mut()
            .unwrap()
            .remove("memo_clauses")
            .unwrap();
        value["checkers"][1]["work"]
            .as_object_mut()
            .unwrap()
            .remove("peak_held_bytes")
            .unwrap();
        let read = read_shard_record(&value.to_string()).unwrap();
        assert_eq!(read.memo_clauses, None);
        assert_eq!(read.checkers[1].work.peak_held_bytes, None);
    }

    #[test]
    fn a_bad_record_is_refused_at_its_line() {
        let text = write_shard_record(&record());
        let extra = text.replacen("\"nodes\"", "\"why\": 1,\n  \"nodes\"", 1);
        let error = read_shard_record(&extra).unwrap_err();
        assert!(error.message.starts_with("unknown field `why`"), "{error}");
        assert_eq!(error.line, line_of(&extra, "\"why\""));
        let other = text.replace(RECORD_FORMAT, "puzzlec-shard-record/0");
        assert_eq!(
            read_shard_record(&other).unwrap_err().to_string(),
            "line 2: format \"puzzlec-shard-record/0\" is not \"puzzlec-shard-record/1\""
        );
        let cut = &text[..text.len() / 2];
        assert!(read_shard_record(cut).unwrap_err().line > 1);
    }

    #[test]
    fn a_plan_reads_back_and_refuses_repeats() {
        let names = vec!["shard-000-004".to_string(), "entry-004-d2-glue".to_string()];
        let text = write_plan(&["a plan".into()], &names);
        assert_eq!(read_plan(&text).unwrap(), names);
        let twice = format!("{text}shard-000-004\n");
        assert_eq!(
            read_plan(&twice).unwrap_err().to_string(),
            "line 4: shard-000-004 is listed twice"
        );
        assert_eq!(
            read_plan("c x\nshard 1\n").unwrap_err().to_string(),
            "line 2: \"shard 1\" is not a shard name (letters, digits and -)"
        );
    }
}
