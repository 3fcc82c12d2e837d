//! DIMACS CNF: comment lines, `c var N name` lines naming the variables (so that a
//! solver's model can be read back by name), the `p cnf VARS CLAUSES` header and clauses of
//! integer literals each ended by `0`. The writer goes line by line through a
//! [`LineWriter`]; the reader gives the variable count and the clauses as `i32` literals.
//! The naming lines are read by [`read_names_after`], which OPB's `* var` lines share.

use super::lines::{LineWriter, WriteError};
use std::fmt::Write as _;
use std::io::Write;

/// `comments`, then one `PREFIX var N name` line per name (`names[i]` names variable
/// i + 1), into `line`: the opening of DIMACS, WCNF (`c`) and OPB (`*`) files.
pub fn push_comments(line: &mut String, prefix: &str, comments: &[String], names: &[String]) {
    for comment in comments {
        let _ = writeln!(line, "{prefix} {comment}");
    }
    for (i, name) in names.iter().enumerate() {
        let _ = writeln!(line, "{prefix} var {} {name}", i + 1);
    }
}

/// One clause's DIMACS line: each literal followed by a space, then `0`.
pub fn push_clause(line: &mut String, literals: impl IntoIterator<Item = i64>) {
    for literal in literals {
        let _ = write!(line, "{literal} ");
    }
    line.push_str("0\n");
}

/// Writes a DIMACS CNF file in order: [`CnfWriter::comments`], [`CnfWriter::header`], then
/// the clauses.
pub struct CnfWriter<'a> {
    lines: LineWriter<'a>,
}

impl<'a> CnfWriter<'a> {
    /// A writer into `out`; `should_stop` says when to give up (see [`LineWriter`]).
    pub fn new(out: &'a mut dyn Write, should_stop: &'a dyn Fn() -> bool) -> CnfWriter<'a> {
        CnfWriter {
            lines: LineWriter::new(out, should_stop),
        }
    }

    /// The `c` comment lines, then one `c var N name` line per name.
    pub fn comments(&mut self, comments: &[String], names: &[String]) {
        self.lines
            .emit(|line| push_comments(line, "c", comments, names));
    }

    /// The `p cnf VARS CLAUSES` line.
    pub fn header(&mut self, num_vars: usize, num_clauses: usize) {
        self.lines.emit(|line| {
            let _ = writeln!(line, "p cnf {num_vars} {num_clauses}");
        });
    }

    /// One clause of nonzero DIMACS literals.
    pub fn clause(&mut self, literals: impl IntoIterator<Item = i64>) {
        self.lines.emit(|line| push_clause(line, literals));
    }

    /// Whether writing failed or was stopped, so that long loops can end early.
    pub fn failed(&self) -> bool {
        self.lines.failed()
    }

    /// The result: an error, a stop, or done and flushed.
    pub fn finish(self) -> Result<(), WriteError> {
        self.lines.finish()
    }
}

/// Which conventions a DIMACS CNF file is read by.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CnfDialect {
    /// The SATLIB conventions the proof checkers accept: any line starting with `p` is the
    /// header (`p cnf VARS CLAUSES`, once), a line starting with `%` ends the formula, and
    /// the variables fit `i32` literals.
    Satlib,
    /// The files `emit` writes, read as `decode` always has: only a `p cnf ` line is a
    /// header (a later one starts the formula anew), and every other line that is no
    /// comment holds literals.
    Emitted,
}

/// A DIMACS CNF file that does not read: where, and what is wrong. Each reader of CNF
/// words these in its own sentences.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CnfError {
    /// A header line that is not `p cnf VARS CLAUSES`.
    #[error("line {line}: bad header {header:?}")]
    BadHeader {
        /// The 1-based line.
        line: usize,
        /// The header line as written (trimmed).
        header: String,
    },
    /// A second header ([`CnfDialect::Satlib`]).
    #[error("line {line}: second header")]
    SecondHeader {
        /// The 1-based line.
        line: usize,
    },
    /// More variables than `i32` literals can name ([`CnfDialect::Satlib`]).
    #[error("line {line}: {vars} variables do not fit DIMACS literals")]
    TooManyVariables {
        /// The 1-based line.
        line: usize,
        /// The variables declared.
        vars: usize,
    },
    /// A clause before the header.
    #[error("line {line}: a clause before the `p cnf` header")]
    ClauseBeforeHeader {
        /// The 1-based line.
        line: usize,
    },
    /// A word that is no integer.
    #[error("line {line}: {word:?} is not a literal")]
    NotALiteral {
        /// The 1-based line.
        line: usize,
        /// The word.
        word: String,
    },
    /// A literal over a variable beyond the header's count.
    #[error("line {line}: literal {literal} beyond the header's {num_vars} variables")]
    BeyondHeader {
        /// The 1-based line.
        line: usize,
        /// The literal.
        literal: i64,
        /// The variables the header declares.
        num_vars: usize,
    },
    /// No header at all.
    #[error("line {line}: no `p cnf` header")]
    NoHeader {
        /// The last line of the file.
        line: usize,
    },
    /// The last clause has no closing 0.
    #[error("line {line}: the last clause is not ended by 0")]
    Unterminated {
        /// The last line of the file.
        line: usize,
        /// Clauses the header declares.
        declared: usize,
        /// Clauses ended by 0 in the file.
        found: usize,
    },
    /// Another number of clauses than the header declares.
    #[error("line {line}: the header declares {declared} clauses, the file has {found}")]
    ClauseCount {
        /// The last line of the file.
        line: usize,
        /// Clauses the header declares.
        declared: usize,
        /// Clauses ended by 0 in the file.
        found: usize,
    },
}

/// A DIMACS CNF file as read: the variable count and the clauses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CnfFile {
    /// The variables the header declares; every literal's variable is at most this.
    pub num_vars: usize,
    /// The clauses, in DIMACS literals.
    pub clauses: Vec<Vec<i32>>,
}

/// The `p cnf VARS CLAUSES` counts of a header line, by `dialect`'s rules.
fn header_counts(trimmed: &str, dialect: CnfDialect) -> Option<(usize, usize)> {
    match dialect {
        CnfDialect::Satlib => {
            let fields: Vec<&str> = trimmed.split_whitespace().collect();
            match fields[..] {
                ["p", "cnf", vars, count] => vars.parse().ok().zip(count.parse().ok()),
                _ => None,
            }
        }
        CnfDialect::Emitted => {
            let numbers: Vec<usize> = trimmed
                .strip_prefix("p cnf ")?
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .ok()?;
            match numbers[..] {
                [vars, count] => Some((vars, count)),
                _ => None,
            }
        }
    }
}

/// Reads DIMACS CNF text by `dialect`'s rules: `c` comment lines, the header, then clauses
/// of nonzero literals each ended by `0` (a clause may span lines); the clause count must
/// match the header. Errors name the line.
pub fn read_cnf(text: &str, dialect: CnfDialect) -> Result<CnfFile, CnfError> {
    let mut header: Option<(usize, usize)> = None;
    let mut clauses = Vec::new();
    let mut current = Vec::new();
    let mut last_line = 0;
    for (index, line_text) in text.lines().enumerate() {
        let line = index + 1;
        last_line = line;
        let trimmed = line_text.trim();
        if trimmed.is_empty() || trimmed.starts_with('c') {
            continue;
        }
        let is_header = match dialect {
            CnfDialect::Satlib => {
                if trimmed.starts_with('%') {
                    break;
                }
                trimmed.starts_with('p')
            }
            CnfDialect::Emitted => trimmed.starts_with("p cnf "),
        };
        if is_header {
            if dialect == CnfDialect::Satlib && header.is_some() {
                return Err(CnfError::SecondHeader { line });
            }
            let (vars, count) =
                header_counts(trimmed, dialect).ok_or_else(|| CnfError::BadHeader {
                    line,
                    header: trimmed.to_string(),
                })?;
            if dialect == CnfDialect::Satlib && vars > i32::MAX as usize {
                return Err(CnfError::TooManyVariables { line, vars });
            }
            header = Some((vars, count));
            // A later header starts the formula anew (`Emitted`; `Satlib` has refused it).
            clauses.clear();
            continue;
        }
        let (num_vars, _) = header.ok_or(CnfError::ClauseBeforeHeader { line })?;
        for word in trimmed.split_whitespace() {
            let literal: i64 = word.parse().map_err(|_| CnfError::NotALiteral {
                line,
                word: word.to_string(),
            })?;
            if literal == 0 {
                clauses.push(std::mem::take(&mut current));
            } else if literal.unsigned_abs() as usize > num_vars {
                return Err(CnfError::BeyondHeader {
                    line,
                    literal,
                    num_vars,
                });
            } else {
                current.push(literal as i32);
            }
        }
    }
    let (num_vars, declared) = header.ok_or(CnfError::NoHeader { line: last_line })?;
    let found = clauses.len();
    if !current.is_empty() {
        return Err(CnfError::Unterminated {
            line: last_line,
            declared,
            found,
        });
    }
    if found != declared {
        return Err(CnfError::ClauseCount {
            line: last_line,
            declared,
            found,
        });
    }
    Ok(CnfFile { num_vars, clauses })
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

/// Reads the `c var N name` lines of a DIMACS (or WCNF) file: the names of variables
/// 1..=n in order. Other comment lines are skipped.
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

    fn written(clauses: &[Vec<i32>], names: &[String], comments: &[String]) -> String {
        let mut out = Vec::new();
        let mut writer = CnfWriter::new(&mut out, &|| false);
        writer.comments(comments, names);
        writer.header(3, clauses.len());
        for clause in clauses {
            writer.clause(clause.iter().map(|&l| i64::from(l)));
        }
        writer.finish().unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn dimacs_text_and_names_round_trip() {
        let clauses = vec![vec![1, -2], vec![3], vec![]];
        let names = vec!["q[0,0]".to_string(), "q[1,0]".to_string()];
        let text = written(&clauses, &names, &["made by a test".into()]);
        assert_eq!(
            text,
            "c made by a test\nc var 1 q[0,0]\nc var 2 q[1,0]\np cnf 3 3\n1 -2 0\n3 0\n0\n"
        );
        assert_eq!(read_var_names(&text).unwrap(), names);
        for dialect in [CnfDialect::Satlib, CnfDialect::Emitted] {
            let file = read_cnf(&text, dialect).unwrap();
            assert_eq!((file.num_vars, &file.clauses), (3, &clauses));
        }
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

    #[test]
    fn the_dialects_differ_only_where_they_say() {
        let satlib = |text| read_cnf(text, CnfDialect::Satlib);
        let emitted = |text| read_cnf(text, CnfDialect::Emitted);
        let percent = "p cnf 2 1\n1 2 0\n%\n0\n";
        assert_eq!(satlib(percent).unwrap().clauses, vec![vec![1, 2]]);
        assert!(matches!(
            emitted(percent),
            Err(CnfError::NotALiteral { line: 3, .. })
        ));
        let twice = "p cnf 2 1\n1 0\np cnf 2 1\n2 0\n";
        assert_eq!(satlib(twice), Err(CnfError::SecondHeader { line: 3 }));
        assert_eq!(emitted(twice).unwrap().clauses, vec![vec![2]]);
        assert!(matches!(
            satlib("p cnf 3000000000 0\n"),
            Err(CnfError::TooManyVariables { line: 1, .. })
        ));
        assert!(matches!(
            satlib("p  cnf 2 0\n"),
            Ok(CnfFile { num_vars: 2, .. })
        ));
        assert!(matches!(
            emitted("p  cnf 2 0\n"),
            Err(CnfError::ClauseBeforeHeader { line: 1 })
        ));
        for read in [satlib, emitted] {
            assert!(matches!(
                read("p cnf 2 1\n1 2\n"),
                Err(CnfError::Unterminated { line: 2, .. })
            ));
            assert!(matches!(
                read("p cnf 2 2\n1 2 0\n"),
                Err(CnfError::ClauseCount { line: 2, .. })
            ));
            assert!(matches!(
                read("p cnf 2 1\n1 3 0\n"),
                Err(CnfError::BeyondHeader { line: 2, .. })
            ));
            assert_eq!(read("c nothing\n"), Err(CnfError::NoHeader { line: 1 }));
        }
    }
}
