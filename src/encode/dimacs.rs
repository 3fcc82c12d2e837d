//! DIMACS CNF output, with `c var N name` comment lines naming every model variable so that
//! a solver's model can be read back by name.

use super::Cnf;
use crate::model::Lit;
use std::fmt::Write as _;

/// Writes `cnf` in DIMACS format: `comments` first, then one `c var N name` line per named
/// variable (`names[i]` names variable i + 1), then the `p cnf` header and the clauses.
pub fn write_dimacs(cnf: &Cnf, names: &[String], comments: &[String]) -> String {
    let mut out = String::new();
    write_comments(&mut out, names, comments, "c");
    let _ = writeln!(out, "p cnf {} {}", cnf.num_vars, cnf.clauses.len());
    for clause in &cnf.clauses {
        write_clause(&mut out, clause);
    }
    out
}

/// `comments`, then one `PREFIX var N name` line per name (`names[i]` names variable i + 1).
pub(crate) fn write_comments(
    out: &mut String,
    names: &[String],
    comments: &[String],
    prefix: &str,
) {
    for comment in comments {
        let _ = writeln!(out, "{prefix} {comment}");
    }
    for (i, name) in names.iter().enumerate() {
        let _ = writeln!(out, "{prefix} var {} {name}", i + 1);
    }
}

/// One clause's DIMACS line.
pub(crate) fn write_clause(out: &mut String, clause: &[Lit]) {
    for lit in clause {
        let _ = write!(out, "{} ", lit.dimacs());
    }
    out.push_str("0\n");
}

/// A `c var N name` line that does not read: which line, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VarNameError {
    /// The line has a number but no name.
    #[error("line {line}: `{marker}` line without a name")]
    NoName {
        /// The 1-based line.
        line: usize,
        /// What starts the naming lines: `c var` (DIMACS) or `* var` (OPB).
        marker: &'static str,
    },
    /// The variable number is not a number.
    #[error("line {line}: bad variable number {number:?}")]
    BadNumber {
        /// The 1-based line.
        line: usize,
        /// The number as written.
        number: String,
    },
    /// The variables are not named 1, 2, 3... in order.
    #[error("line {line}: variable {number} named out of order (expected {expected})")]
    OutOfOrder {
        /// The 1-based line.
        line: usize,
        /// The variable named.
        number: usize,
        /// The variable that should come next.
        expected: usize,
    },
}

/// Reads the `c var N name` lines of a DIMACS file written by [`write_dimacs`]: the names
/// of variables 1..=n in order. Other comment lines are skipped.
pub fn read_var_names(text: &str) -> Result<Vec<String>, VarNameError> {
    read_names_after(text, "c var")
}

/// Reads the lines `MARKER N name` of `text` (`c var` in DIMACS, `* var` in OPB): the names
/// of variables 1..=n in order; errors give the line's number in the whole text.
pub fn read_names_after(text: &str, marker: &'static str) -> Result<Vec<String>, VarNameError> {
    let mut names = Vec::new();
    for (index, text_line) in text.lines().enumerate() {
        let line = index + 1;
        let Some(rest) = text_line
            .strip_prefix(marker)
            .and_then(|r| r.strip_prefix(' '))
        else {
            continue;
        };
        let (number, name) = rest
            .split_once(' ')
            .ok_or(VarNameError::NoName { line, marker })?;
        let number: usize = number.parse().map_err(|_| VarNameError::BadNumber {
            line,
            number: number.to_string(),
        })?;
        if number != names.len() + 1 {
            return Err(VarNameError::OutOfOrder {
                line,
                number,
                expected: names.len() + 1,
            });
        }
        names.push(name.to_string());
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimacs_text_and_names_round_trip() {
        let cnf = Cnf {
            num_vars: 3,
            clauses: vec![
                vec![Lit::from_dimacs(1), Lit::from_dimacs(-2)],
                vec![Lit::from_dimacs(3)],
                vec![],
            ],
        };
        let names = vec!["q[0,0]".to_string(), "q[1,0]".to_string()];
        let text = write_dimacs(&cnf, &names, &["made by a test".into()]);
        assert_eq!(
            text,
            "c made by a test\nc var 1 q[0,0]\nc var 2 q[1,0]\np cnf 3 3\n1 -2 0\n3 0\n0\n"
        );
        assert_eq!(read_var_names(&text).unwrap(), names);
        let formula = varisat::dimacs::DimacsParser::parse(text.as_bytes()).unwrap();
        assert_eq!(formula.len(), 3);
    }

    #[test]
    fn names_out_of_order_are_refused_with_their_line() {
        assert_eq!(
            read_var_names("c hello\nc var 1 a\nc var 3 b\n"),
            Err(VarNameError::OutOfOrder {
                line: 3,
                number: 3,
                expected: 2
            })
        );
        assert_eq!(
            read_var_names("c var 1\n"),
            Err(VarNameError::NoName {
                line: 1,
                marker: "c var"
            })
        );
    }
}
