//! The solution files of MILP solvers: CBC's (`solu FILE`), GLPK's (`-w FILE`) and the
//! HiGHS program's (`--solution_file FILE`). Each reader gives whether a solution was found
//! (`Some(proven optimal)`, `None` for infeasible) and the values by column name.

use std::collections::HashMap;

/// Why a MILP solver's solution file cannot be accepted: it does not read as the solver's
/// format, or its values are not 0-1 or break a row of the program.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SolutionError {
    /// CBC's first line is no status puzzlec knows.
    #[error("unknown CBC status line {0:?}")]
    UnknownCbcStatus(String),
    /// A CBC value line without `index name value`.
    #[error("line {line}: expected `index name value`")]
    ExpectedIndexNameValue {
        /// The 1-based line.
        line: usize,
    },
    /// A value that is not a number (CBC, GLPK).
    #[error("line {line}: {value:?} is not a number")]
    NotANumber {
        /// The 1-based line.
        line: usize,
        /// The word where the value should be.
        value: String,
    },
    /// GLPK's `s mip` line gives another column count than the LP file has.
    #[error("line {line}: {found} columns, the LP file has {expected}")]
    ColumnCount {
        /// The 1-based line.
        line: usize,
        /// The count as written.
        found: String,
        /// The LP file's columns.
        expected: usize,
    },
    /// GLPK wrote another kind of solution than `mip`.
    #[error("line {line}: a {kind} solution, not mip")]
    NotMip {
        /// The 1-based line.
        line: usize,
        /// The kind written (`bas`, `ipt`).
        kind: String,
    },
    /// A GLPK `j` line for a column number the LP file does not have.
    #[error("line {line}: no column {number}")]
    NoColumn {
        /// The 1-based line.
        line: usize,
        /// The column number as written.
        number: String,
    },
    /// GLPK's status says the solution is undefined (or is unknown).
    #[error("GLPK status {0:?} (undefined solution)")]
    GlpkStatus(String),
    /// GLPK's file has no `s mip` line.
    #[error("no `s mip` line")]
    NoMipLine,
    /// The HiGHS file has no `Model status` line.
    #[error("no `Model status` line")]
    NoModelStatus,
    /// HiGHS gave a status that is no answer.
    #[error("HiGHS status {0:?}")]
    HighsStatus(String),
    /// The HiGHS file has no `# Columns` section.
    #[error("no `# Columns` section")]
    NoColumnsSection,
    /// The HiGHS `# Columns` line has no count.
    #[error("bad `# Columns` count")]
    BadColumnsCount,
    /// A HiGHS column line without `name value`.
    #[error("line {line}: expected `name value`")]
    ExpectedNameValue {
        /// The 1-based line.
        line: usize,
    },
    /// A value for a column the program does not have.
    #[error("unknown column {0:?}")]
    UnknownColumn(String),
    /// A value that is not 0 or 1.
    #[error("column {column} has value {value}, not 0 or 1")]
    NotZeroOne {
        /// The column's LP name.
        column: String,
        /// Its value.
        value: f64,
    },
    /// The values break a row of the program.
    #[error("the solution violates row {0}")]
    RowViolated(String),
}

/// Reads CBC's solution file: a status line, then `index name value reduced-cost` lines
/// (columns left out are 0).
pub fn read_cbc_solution(
    text: &str,
) -> Result<(Option<bool>, HashMap<String, f64>), SolutionError> {
    let mut lines = text.lines();
    let status = lines.next().unwrap_or("").trim();
    // Some(proven) for a solution, None for infeasible.
    let found = if status.starts_with("Optimal") {
        Some(true)
    } else if status.contains("nfeasible") {
        None
    } else if status.starts_with("Stopped") {
        Some(false)
    } else {
        return Err(SolutionError::UnknownCbcStatus(status.to_string()));
    };
    let mut values = HashMap::new();
    if found.is_none() {
        return Ok((None, values));
    }
    for (index, text_line) in lines.enumerate() {
        let words: Vec<&str> = text_line
            .split_whitespace()
            .filter(|w| *w != "**") // CBC marks infeasibilities with `**`
            .collect();
        if words.is_empty() {
            continue;
        }
        let line = index + 2;
        let [_, name, value, ..] = words[..] else {
            return Err(SolutionError::ExpectedIndexNameValue { line });
        };
        let value: f64 = value.parse().map_err(|_| SolutionError::NotANumber {
            line,
            value: value.to_string(),
        })?;
        values.insert(name.to_string(), value);
    }
    if status.starts_with("Stopped") && values.is_empty() {
        return Ok((Some(false), values));
    }
    Ok((found, values))
}

/// Reads GLPK's `-w` solution file: `s mip ROWS COLS STATUS OBJ`, then `j N VALUE` per
/// column, columns numbered in the order of `columns`.
pub fn read_glpk_solution(
    text: &str,
    columns: &[String],
) -> Result<(Option<bool>, HashMap<String, f64>), SolutionError> {
    let mut status = None;
    let mut values = HashMap::new();
    for (index, text_line) in text.lines().enumerate() {
        let line = index + 1;
        let words: Vec<&str> = text_line.split_whitespace().collect();
        match words[..] {
            ["s", "mip", _, cols, s, ..] => {
                if cols.parse::<usize>().ok() != Some(columns.len()) {
                    return Err(SolutionError::ColumnCount {
                        line,
                        found: cols.to_string(),
                        expected: columns.len(),
                    });
                }
                status = Some(s.to_string());
            }
            ["s", kind, ..] => {
                return Err(SolutionError::NotMip {
                    line,
                    kind: kind.to_string(),
                })
            }
            ["j", number, value, ..] => {
                let name = number
                    .parse::<usize>()
                    .ok()
                    .and_then(|n| columns.get(n.wrapping_sub(1)))
                    .ok_or_else(|| SolutionError::NoColumn {
                        line,
                        number: number.to_string(),
                    })?;
                let value: f64 = value.parse().map_err(|_| SolutionError::NotANumber {
                    line,
                    value: value.to_string(),
                })?;
                values.insert(name.clone(), value);
            }
            _ => {}
        }
    }
    match status.as_deref() {
        Some("o") => Ok((Some(true), values)),
        Some("f") => Ok((Some(false), values)),
        Some("n") => Ok((None, HashMap::new())),
        Some(other) => Err(SolutionError::GlpkStatus(other.to_string())),
        None => Err(SolutionError::NoMipLine),
    }
}

/// Reads the HiGHS program's solution file: `Model status` then its value, and the values
/// after `# Columns N` as `name value` lines.
pub fn read_highs_solution(
    text: &str,
) -> Result<(Option<bool>, HashMap<String, f64>), SolutionError> {
    let lines: Vec<&str> = text.lines().collect();
    let status_at = lines
        .iter()
        .position(|l| l.trim() == "Model status")
        .ok_or(SolutionError::NoModelStatus)?;
    let status = lines.get(status_at + 1).map_or("", |l| l.trim());
    let found = match status {
        "Optimal" => Some(true),
        "Infeasible" => return Ok((None, HashMap::new())),
        "Time limit reached" => Some(false),
        other => return Err(SolutionError::HighsStatus(other.to_string())),
    };
    let columns_at = lines
        .iter()
        .position(|l| l.starts_with("# Columns"))
        .ok_or(SolutionError::NoColumnsSection)?;
    let count: usize = lines[columns_at]
        .trim_start_matches("# Columns")
        .trim()
        .parse()
        .map_err(|_| SolutionError::BadColumnsCount)?;
    let mut values = HashMap::new();
    for (offset, line) in lines[columns_at + 1..].iter().take(count).enumerate() {
        let bad = || SolutionError::ExpectedNameValue {
            line: columns_at + offset + 2,
        };
        let mut words = line.split_whitespace();
        let (Some(name), Some(value)) = (words.next(), words.next()) else {
            return Err(bad());
        };
        values.insert(name.to_string(), value.parse().map_err(|_| bad())?);
    }
    Ok((found, values))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solution_files_are_read() {
        let (proven, values) = read_cbc_solution(
            "Optimal - objective value 2.00000000\n      0 b   1   1\n      1 c  1 1\n      2 a 0 0\n",
        )
        .unwrap();
        assert_eq!(proven, Some(true));
        assert_eq!(values["b"], 1.0);
        assert_eq!(values["a"], 0.0);
        assert_eq!(
            read_cbc_solution("Infeasible - objective value 0.00000000\n")
                .unwrap()
                .0,
            None
        );
        let columns: Vec<String> = ["b", "c", "a"].iter().map(|s| s.to_string()).collect();
        let (proven, values) = read_glpk_solution(
            "c Problem:\ns mip 2 3 o 2\ni 1 1\nj 1 1\nj 2 0\nj 3 1\ne o f\n",
            &columns,
        )
        .unwrap();
        assert_eq!(proven, Some(true));
        assert_eq!((values["b"], values["c"], values["a"]), (1.0, 0.0, 1.0));
        assert_eq!(
            read_glpk_solution("s mip 2 3 n 0\n", &columns).unwrap().0,
            None
        );
        let (proven, values) = read_highs_solution(
            "Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective 2\n# Columns 2\nb 1\nc 0\n# Rows 1\nc1 1\n",
        )
        .unwrap();
        assert_eq!(proven, Some(true));
        assert_eq!(values.len(), 2);
    }

    #[test]
    fn values_written_as_each_solver_writes_them_read_back() {
        let columns: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let values = [1.0, 0.0, 1.0];
        let mut cbc = String::from("Optimal - objective value 2.00000000\n");
        let mut glpk = String::from("c Problem:\ns mip 1 3 o 2\n");
        let mut highs = String::from("Model status\nOptimal\n\n# Columns 3\n");
        for (i, (column, value)) in columns.iter().zip(values).enumerate() {
            cbc.push_str(&format!("{i:>7} {column:<20} {value} 0\n"));
            glpk.push_str(&format!("j {} {value}\n", i + 1));
            highs.push_str(&format!("{column} {value}\n"));
        }
        let expected: HashMap<String, f64> = columns.iter().cloned().zip(values).collect();
        for read in [
            read_cbc_solution(&cbc),
            read_glpk_solution(&glpk, &columns),
            read_highs_solution(&highs),
        ] {
            assert_eq!(read.unwrap(), (Some(true), expected.clone()));
        }
    }

    #[test]
    fn solution_errors_name_the_line() {
        assert_eq!(
            read_cbc_solution("Optimal - objective value 1\n 0 a x 0\n").unwrap_err(),
            SolutionError::NotANumber {
                line: 2,
                value: "x".into()
            }
        );
    }
}
