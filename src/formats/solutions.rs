//! Solution lists: a count certificate's `solutions.txt`. After `c` comment lines, one
//! solution a line: the variables true in it as DIMACS numbers, in increasing order, each
//! once, ended by 0 (`2 7 9 0`). What a line stands for (a solution, or one member of a
//! class) is the certificate's; this is their text. The API speaks of variables by their
//! 0-based index: variable `v` is written `v + 1`.

use std::fmt::Write as _;

/// The solution list: each of `comments` as a `c` line, then one line per entry (its true
/// variables, 0-based).
pub fn write_solutions(comments: &[String], entries: &[Vec<usize>]) -> String {
    let mut text = String::new();
    for comment in comments {
        let _ = writeln!(text, "c {comment}");
    }
    for entry in entries {
        for v in entry {
            let _ = write!(text, "{} ", v + 1);
        }
        text.push_str("0\n");
    }
    text
}

/// A line of a solution list that does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolutionsError {
    /// A word after the 0 that ends the line.
    #[error("line {line}: values after the closing 0")]
    AfterClosingZero {
        /// The 1-based line.
        line: usize,
    },
    /// A word that is no variable number.
    #[error("line {line}: {word:?} is not a variable number")]
    NotANumber {
        /// The 1-based line.
        line: usize,
        /// The word.
        word: String,
    },
    /// A variable beyond the model's.
    #[error("line {line}: variable {var} is not a model variable (1..={num_vars})")]
    NotAModelVariable {
        /// The 1-based line.
        line: usize,
        /// The variable, as written.
        var: usize,
        /// The model's variables.
        num_vars: usize,
    },
    /// A line not ended by 0.
    #[error("line {line}: not ended by 0")]
    Unended {
        /// The 1-based line.
        line: usize,
    },
    /// Variables out of order, or one given twice.
    #[error("line {line}: the variables are not in increasing order, each once")]
    NotIncreasing {
        /// The 1-based line.
        line: usize,
    },
}

/// Reads a solution list over variables `1..=num_vars`: each line's true variables
/// (0-based, sorted), with its line number.
pub fn read_solutions(
    text: &str,
    num_vars: usize,
) -> Result<Vec<(usize, Vec<usize>)>, SolutionsError> {
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('c') {
            continue;
        }
        let mut vars = Vec::new();
        let mut ended = false;
        for token in trimmed.split_whitespace() {
            if ended {
                return Err(SolutionsError::AfterClosingZero { line: number });
            }
            let var: usize = token.parse().map_err(|_| SolutionsError::NotANumber {
                line: number,
                word: token.to_string(),
            })?;
            if var == 0 {
                ended = true;
            } else if var > num_vars {
                return Err(SolutionsError::NotAModelVariable {
                    line: number,
                    var,
                    num_vars,
                });
            } else {
                vars.push(var - 1);
            }
        }
        if !ended {
            return Err(SolutionsError::Unended { line: number });
        }
        let mut sorted = vars.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted != vars {
            return Err(SolutionsError::NotIncreasing { line: number });
        }
        entries.push((number, vars));
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solution_lines_round_trip_and_are_refused_when_malformed() {
        let text = write_solutions(&["a list".into()], &[vec![0, 2], vec![1], vec![]]);
        assert_eq!(text, "c a list\n1 3 0\n2 0\n0\n");
        assert_eq!(
            read_solutions(&text, 3).unwrap(),
            vec![(2, vec![0, 2]), (3, vec![1]), (4, vec![])]
        );
        let error = |text: &str| read_solutions(text, 3).unwrap_err().to_string();
        assert_eq!(
            error("1 4 0\n"),
            "line 1: variable 4 is not a model variable (1..=3)"
        );
        assert_eq!(error("1 2\n"), "line 1: not ended by 0");
        assert_eq!(
            error("2 1 0\n"),
            "line 1: the variables are not in increasing order, each once"
        );
        assert_eq!(error("1 1 0\n"), error("2 1 0\n"));
        assert_eq!(error("1 0 2\n"), "line 1: values after the closing 0");
        assert_eq!(error("1 -2 0\n"), "line 1: \"-2\" is not a variable number");
    }
}
