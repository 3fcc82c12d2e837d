//! Witness files: the value of every variable of a model as DIMACS literals on `v` lines,
//! ended by 0 (the SAT competition's output without its status line), after `c` comment
//! lines. A certificate's `witness.txt` is one. The `v` lines are read by
//! [`AnswerReader::witness`], the one reader of `v` lines; [`read_witness`] holds them to
//! the model's variables, each given once.

use super::sat_answer::{AnswerError, AnswerItem, AnswerReader};
use std::fmt::Write as _;

/// Variables on one `v` line of a written witness.
const VALUES_PER_LINE: usize = 16;

/// `values` as `v` lines (`values[i]` is variable i + 1), then the closing `v 0`, into
/// `text`.
pub fn push_values(text: &mut String, values: &[bool]) {
    for (row, chunk) in values.chunks(VALUES_PER_LINE).enumerate() {
        text.push('v');
        for (i, &value) in chunk.iter().enumerate() {
            let var = (row * VALUES_PER_LINE + i + 1) as i64;
            let _ = write!(text, " {}", if value { var } else { -var });
        }
        text.push('\n');
    }
    text.push_str("v 0\n");
}

/// What is wrong with a witness file, at which line when one is to blame.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WitnessError {
    /// A line that is not a well-formed `c` or `v` line, or gives a variable wrongly.
    #[error("line {line}: {problem}")]
    Line {
        /// The line.
        line: usize,
        /// The problem, in words.
        problem: String,
    },
    /// The values are not ended by 0.
    #[error("the values are not ended by 0")]
    Unended,
    /// A variable has no value.
    #[error("variable {0} has no value")]
    Missing(usize),
}

/// Reads a witness file: every variable `1..=num_vars` exactly once, ended by 0; the values
/// of variables 1, 2, ... in order.
pub fn read_witness(text: &str, num_vars: usize) -> Result<Vec<bool>, WitnessError> {
    let mut values: Vec<Option<bool>> = vec![None; num_vars];
    let mut reader = AnswerReader::witness(text);
    for item in reader.by_ref() {
        let (line, item) = item.map_err(|error| {
            let (line, problem) = match error {
                AnswerError::NotAnswerLine { line } => {
                    (line, "expected a `c` or `v` line".to_string())
                }
                AnswerError::AfterClosingZero { line } => {
                    (line, "values after the closing 0".to_string())
                }
                AnswerError::NotALiteral { line, word } => {
                    (line, format!("{word:?} is not a literal"))
                }
            };
            WitnessError::Line { line, problem }
        })?;
        // A witness has no status line: the reader refuses one as no `c` or `v` line.
        let AnswerItem::Literal { var, value } = item else {
            continue;
        };
        let at = |problem: String| WitnessError::Line { line, problem };
        if var > num_vars {
            return Err(at(format!(
                "variable {var} is not a model variable (1..={num_vars})"
            )));
        }
        if values[var - 1].replace(value).is_some() {
            return Err(at(format!("variable {var} is given twice")));
        }
    }
    if !reader.closed() {
        return Err(WitnessError::Unended);
    }
    if let Some(missing) = values.iter().position(Option::is_none) {
        return Err(WitnessError::Missing(missing + 1));
    }
    Ok(values.into_iter().map(|v| v.unwrap_or(false)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_values_read_back() {
        let values: Vec<bool> = (0..40).map(|i| i % 3 == 0).collect();
        let mut text = "c a comment\n".to_string();
        push_values(&mut text, &values);
        assert_eq!(text.lines().count(), 1 + 3 + 1);
        assert!(text.starts_with("c a comment\nv 1 -2 -3 4 "), "{text}");
        assert_eq!(read_witness(&text, 40).unwrap(), values);
    }

    #[test]
    fn witnesses_are_refused_with_their_line() {
        assert_eq!(
            read_witness("c hello\nv 1 -2\nv 3 0\n", 3).unwrap(),
            [true, false, true]
        );
        assert_eq!(
            read_witness("v1 -2\nv3 0\n", 3).unwrap(),
            [true, false, true]
        );
        let error = |text: &str| read_witness(text, 3).unwrap_err().to_string();
        assert_eq!(error("v 1 -2 0\n"), "variable 3 has no value");
        assert_eq!(error("v 1 -1 3 0\n"), "line 1: variable 1 is given twice");
        assert_eq!(
            error("v 1 -2 4 0\n"),
            "line 1: variable 4 is not a model variable (1..=3)"
        );
        assert_eq!(error("v 1 -2 3\n"), "the values are not ended by 0");
        assert_eq!(
            error("c x\ns SATISFIABLE\nv 1 2 3 0\n"),
            "line 2: expected a `c` or `v` line"
        );
        assert_eq!(error("v 1 2 3 0 x\n"), "line 1: values after the closing 0");
        assert_eq!(error("v 1 x 3 0\n"), "line 1: \"x\" is not a literal");
        assert_eq!(error("var 1\n"), "line 1: \"ar\" is not a literal");
    }
}
