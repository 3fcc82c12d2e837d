//! WCNF for MaxSAT solvers, in the MaxSAT Evaluation format of 2022 onwards (no `p`
//! line): `c` comments and `c var N name` lines, hard clauses after `h`, soft clauses after
//! their weight, each ended by `0`.

use super::dimacs::push_comments;
use super::lines::{LineWriter, WriteError};
use super::ReadError;
use std::fmt::Write as _;
use std::io::Write;

/// A WCNF file as read, in DIMACS literals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WcnfFile {
    /// The largest variable mentioned.
    pub num_vars: usize,
    /// The hard clauses.
    pub hard: Vec<Vec<i64>>,
    /// (weight, clause) of the soft clauses.
    pub soft: Vec<(u64, Vec<i64>)>,
}

/// One clause's line after `prefix` (`h` or the weight).
fn push_clause(
    line: &mut String,
    prefix: impl std::fmt::Display,
    literals: impl IntoIterator<Item = i64>,
) {
    let _ = write!(line, "{prefix}");
    for literal in literals {
        let _ = write!(line, " {literal}");
    }
    line.push_str(" 0\n");
}

/// Writes a WCNF file in order: [`WcnfWriter::comments`], then the clauses.
pub struct WcnfWriter<'a> {
    lines: LineWriter<'a>,
}

impl<'a> WcnfWriter<'a> {
    /// A writer into `out`; `should_stop` says when to give up (see [`LineWriter`]).
    pub fn new(out: &'a mut dyn Write, should_stop: &'a dyn Fn() -> bool) -> WcnfWriter<'a> {
        WcnfWriter {
            lines: LineWriter::new(out, should_stop),
        }
    }

    /// The `c` comment lines, then one `c var N name` line per name.
    pub fn comments(&mut self, comments: &[String], names: &[String]) {
        self.lines
            .emit(|line| push_comments(line, "c", comments, names));
    }

    /// A hard clause of nonzero DIMACS literals.
    pub fn hard(&mut self, literals: impl IntoIterator<Item = i64>) {
        self.lines.emit(|line| push_clause(line, 'h', literals));
    }

    /// A soft clause of weight `weight`.
    pub fn soft(&mut self, weight: u64, literals: impl IntoIterator<Item = i64>) {
        self.lines.emit(|line| push_clause(line, weight, literals));
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

/// Reads a WCNF file in the 2022 format (`h` hard clauses, weighted soft clauses, `c`
/// comments); `num_vars` is the largest variable mentioned. Errors name the line.
pub fn read_wcnf(text: &str) -> Result<WcnfFile, ReadError> {
    let mut wcnf = WcnfFile::default();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        let error = |message: String| ReadError::Line {
            line: index + 1,
            message,
        };
        let mut words = line.split_whitespace();
        let head = words.next().unwrap_or("");
        let weight = if head == "h" {
            None
        } else {
            match head.parse::<u64>() {
                Ok(w) if w > 0 => Some(w),
                _ => {
                    return Err(error(format!(
                        "expected `h` or a positive weight, found {head:?}"
                    )))
                }
            }
        };
        let mut clause = Vec::new();
        let mut closed = false;
        for word in words {
            let n: i64 = word
                .parse()
                .map_err(|_| error(format!("{word:?} is not a literal")))?;
            if closed {
                return Err(error("literals after the closing 0".into()));
            }
            if n == 0 {
                closed = true;
            } else {
                wcnf.num_vars = wcnf.num_vars.max(n.unsigned_abs() as usize);
                clause.push(n);
            }
        }
        if !closed {
            return Err(error("clause does not end with 0".into()));
        }
        match weight {
            None => wcnf.hard.push(clause),
            Some(w) => wcnf.soft.push((w, clause)),
        }
    }
    Ok(wcnf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_then_read_gives_the_same_clauses() {
        let wcnf = WcnfFile {
            num_vars: 3,
            hard: vec![vec![1, -2], vec![3]],
            soft: vec![(1, vec![1]), (5, vec![-3, 2])],
        };
        let mut out = Vec::new();
        let mut writer = WcnfWriter::new(&mut out, &|| false);
        writer.comments(&["test".into()], &["a".into(), "b".into()]);
        for clause in &wcnf.hard {
            writer.hard(clause.iter().copied());
        }
        for (weight, clause) in &wcnf.soft {
            writer.soft(*weight, clause.iter().copied());
        }
        writer.finish().unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "c test\nc var 1 a\nc var 2 b\nh 1 -2 0\nh 3 0\n1 1 0\n5 -3 2 0\n"
        );
        assert_eq!(read_wcnf(&text).unwrap(), wcnf);
        assert!(read_wcnf("p wcnf 1 1 10\n")
            .unwrap_err()
            .to_string()
            .starts_with("line 1:"));
        assert!(read_wcnf("h 1 2\n")
            .unwrap_err()
            .to_string()
            .contains("end with 0"));
    }
}
