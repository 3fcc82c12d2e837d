//! Reading what a MiniZinc or FlatZinc solver printed ([`read_answer`]).

use super::boxes::{box_names, box_names_len, box_size, read_ranges, NAMES_PER_BYTE};
use super::is_ident;
use std::collections::{HashMap, HashSet};

/// What a MiniZinc or FlatZinc solver printed.
#[derive(Clone, Debug, PartialEq)]
pub enum MznStatus {
    /// A solution (the last one printed), and whether `==========` says the search
    /// finished (for `solve maximize`: the solver claims it optimal).
    Solution {
        /// The values by identifier, as written (`0`, `1`, `true`, ...).
        values: Vec<(String, String)>,
        /// `==========` was printed.
        complete: bool,
    },
    /// `=====UNSATISFIABLE=====`.
    Unsatisfiable,
    /// `=====UNKNOWN=====`, `=====ERROR=====` or another status without a solution; the
    /// line as printed.
    Unknown(String),
}

/// An answer that does not read as MiniZinc solver output.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MznAnswerError {
    /// A line that is none of `name = value;` (an integer or Boolean value), a separator, a
    /// status or a `%` comment.
    #[error("line {line}: {text:?} is not `name = value;`")]
    NotAnAssignment {
        /// The 1-based line.
        line: usize,
        /// The line.
        text: String,
    },
    /// A variable given twice in one solution.
    #[error("line {line}: {name} is given twice in one solution")]
    Twice {
        /// The 1-based line.
        line: usize,
        /// The identifier.
        name: String,
    },
    /// An array (`q = array2d(...)`) whose entries' names would take more than 32 bytes
    /// per byte of its line.
    #[error(
        "line {line}: the entry names of array {name} would take {bytes} bytes, more than \
         {NAMES_PER_BYTE} per byte of the line ({len} bytes)"
    )]
    TooLong {
        /// The 1-based line.
        line: usize,
        /// The array's name.
        name: String,
        /// The bytes its entries' names would take.
        bytes: usize,
        /// The line's length in bytes.
        len: usize,
    },
    /// Values after the last `----------`: a solution cut off.
    #[error("values after the last `----------` (a solution cut off)")]
    Unfinished,
    /// No solution and no status line.
    #[error("no solution (`----------`) and no status line (`=====UNSATISFIABLE=====`)")]
    Empty,
}

/// Reads MiniZinc solver output (see the module's documentation).
pub fn read_answer(text: &str) -> Result<MznStatus, MznAnswerError> {
    let mut current: Vec<(String, String)> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut last: Option<Vec<(String, String)>> = None;
    let mut complete = false;
    let mut status: Option<MznStatus> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('%') {
            continue;
        }
        if line == "----------" {
            last = Some(std::mem::take(&mut current));
            seen.clear();
            continue;
        }
        if line == "==========" {
            complete = true;
            continue;
        }
        if line.starts_with("=====") && line.ends_with("=====") {
            status = Some(if line == "=====UNSATISFIABLE=====" {
                MznStatus::Unsatisfiable
            } else {
                MznStatus::Unknown(line.to_string())
            });
            continue;
        }
        let assigned = match assignments(line) {
            Ok(assigned) => assigned,
            Err(None) => {
                return Err(MznAnswerError::NotAnAssignment {
                    line: i + 1,
                    text: line.to_string(),
                })
            }
            Err(Some((name, bytes))) => {
                return Err(MznAnswerError::TooLong {
                    line: i + 1,
                    name,
                    bytes,
                    len: line.len(),
                })
            }
        };
        for (name, value) in assigned {
            // MiniZinc's own values (`_objective = 8;` with `--output-objective`): no
            // identifier `emit` writes starts with `_`.
            if name.starts_with('_') {
                continue;
            }
            if !seen.insert(name.clone()) {
                return Err(MznAnswerError::Twice { line: i + 1, name });
            }
            current.push((name, value));
        }
    }
    if !current.is_empty() {
        return Err(MznAnswerError::Unfinished);
    }
    match (last, status) {
        (Some(values), _) => Ok(MznStatus::Solution { values, complete }),
        (None, Some(status)) => Ok(status),
        (None, None) => Err(MznAnswerError::Empty),
    }
}

/// Whether `text` looks like MiniZinc solver output: a `----------` separator or a
/// `=====...=====` status line, or (a solution cut off before its separator) nothing but
/// `name = value;` lines and `%` comments.
pub fn is_answer(text: &str) -> bool {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('%'))
        .collect();
    let marked = lines.iter().any(|l| {
        *l == "----------" || (l.len() > 10 && l.starts_with("=====") && l.ends_with("====="))
    });
    marked || (!lines.is_empty() && lines.iter().all(|l| assignments(l).is_ok()))
}

/// An answer's array whose entries' names would take too many bytes: its name and the
/// bytes.
type TooLong = (String, usize);

/// `name = value;`, or an array as FlatZinc solvers print one
/// (`q = array2d(0..1, 0..1, [0, 1, 1, 0]);`) as its entries `q[0,0] = 0`, `q[0,1] = 1`, ...
/// (see [`MznFile::aliases`](super::MznFile::aliases)); `Err(None)` for anything else,
/// `Err(Some((name, bytes)))` for an array whose entries' names would take more than
/// [`NAMES_PER_BYTE`](super::boxes::NAMES_PER_BYTE) bytes per byte of the line
/// (`usize::MAX` bytes when they are past counting).
fn assignments(line: &str) -> Result<Vec<(String, String)>, Option<TooLong>> {
    if let Some((name, value)) = assignment(line) {
        return Ok(vec![(name.to_string(), value.to_string())]);
    }
    let array = || {
        let (name, rest) = line.strip_suffix(");")?.split_once(" = array")?;
        let (dims, rest) = rest.split_once("d(")?;
        let (ranges, values) = rest.split_once('[')?;
        let values = values.strip_suffix(']')?;
        let ranges = read_ranges(ranges.trim().trim_end_matches(','), &HashMap::new())?;
        Some((name.trim(), dims, ranges, values))
    };
    let (name, dims, ranges, values) = array().ok_or(None)?;
    let values: Vec<&str> = values
        .split(',')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .collect();
    let valid = is_ident(name)
        && dims.parse::<usize>().ok() == Some(ranges.len())
        && box_size(&ranges) == Some(values.len())
        && values
            .iter()
            .all(|v| v.parse::<i64>().is_ok() || zero_one(v).is_some());
    if !valid {
        return Err(None);
    }
    // As many entries as values: the names' bytes are what is left to bound.
    match box_names_len(name, &ranges) {
        Some(bytes) if bytes <= line.len().saturating_mul(NAMES_PER_BYTE) => {}
        bytes => return Err(Some((name.to_string(), bytes.unwrap_or(usize::MAX)))),
    }
    Ok(box_names(name, &ranges)
        .into_iter()
        .zip(values.iter().map(|v| v.to_string()))
        .collect())
}

/// `name = value;` as (name, value), the name an identifier and the value an integer or
/// Boolean.
fn assignment(line: &str) -> Option<(&str, &str)> {
    line.strip_suffix(';')
        .and_then(|l| l.split_once('='))
        .map(|(name, value)| (name.trim(), value.trim()))
        .filter(|(name, value)| {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && (value.parse::<i64>().is_ok() || zero_one(value).is_some())
        })
}

/// A value as 0 or 1 (`true` / `false` too); `None` for anything else.
pub fn zero_one(value: &str) -> Option<bool> {
    match value {
        "0" | "false" => Some(false),
        "1" | "true" => Some(true),
        _ => None,
    }
}
