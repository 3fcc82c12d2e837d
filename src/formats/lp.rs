//! CPLEX LP files, as written for external MILP solvers (CBC, GLPK, HiGHS...) and read
//! back: maximise, rows, binary columns. Column names are made LP-safe (`q[3,5]` becomes
//! `q_3_5`), with a `\ column safe = name` comment line mapping each back.

use super::linear::{Comparison, LinearProgram, Row};
use super::lines::{LineWriter, WriteError};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write;

/// Terms per line: LP readers accept long lines, but some cap them.
const TERMS_PER_LINE: usize = 8;

/// LP-safe, unique column names for `names`: letters, digits and `_`, never starting with
/// a digit or an `e` that could read as an exponent.
pub fn lp_names(names: &[String]) -> Vec<String> {
    let mut used: HashMap<String, usize> = HashMap::new();
    names
        .iter()
        .map(|name| {
            let mut safe: String = name
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            while safe.ends_with('_') {
                safe.pop();
            }
            if safe.is_empty()
                || !safe.starts_with(|c: char| c.is_ascii_alphabetic())
                || safe.starts_with(['e', 'E'])
            {
                safe.insert_str(0, "x_");
            }
            let count = used.entry(safe.clone()).or_insert(0);
            *count += 1;
            if *count > 1 {
                safe = format!("{safe}_{count}");
            }
            safe
        })
        .collect()
}

fn push_terms(line: &mut String, terms: &[(f64, usize)], names: &[String]) {
    if terms.is_empty() {
        // An empty side is written as a zero term so every reader sees an expression.
        if let Some(first) = names.first() {
            let _ = write!(line, " 0 {first}");
        }
        return;
    }
    for (i, &(coefficient, column)) in terms.iter().enumerate() {
        if i > 0 && i % TERMS_PER_LINE == 0 {
            line.push_str("\n   ");
        }
        let sign = if coefficient < 0.0 { '-' } else { '+' };
        let magnitude = coefficient.abs();
        if magnitude == 1.0 {
            let _ = write!(line, " {sign} {}", names[column]);
        } else {
            let _ = write!(line, " {sign} {magnitude} {}", names[column]);
        }
    }
}

/// Writes a CPLEX LP file in order: [`LpWriter::head`], the rows, [`LpWriter::tail`].
/// Columns are written by their LP-safe names ([`lp_names`]).
pub struct LpWriter<'a> {
    lines: LineWriter<'a>,
}

impl<'a> LpWriter<'a> {
    /// A writer into `out`; `should_stop` says when to give up (see [`LineWriter`]).
    pub fn new(out: &'a mut dyn Write, should_stop: &'a dyn Fn() -> bool) -> LpWriter<'a> {
        LpWriter {
            lines: LineWriter::new(out, should_stop),
        }
    }

    /// The file up to its first row: `comments`, the column mapping (`names` are the
    /// LP-safe names of `columns`), the objective and `Subject To`.
    pub fn head(
        &mut self,
        names: &[String],
        columns: &[String],
        (objective, offset): (&[(f64, usize)], f64),
        comments: &[String],
    ) {
        self.lines.emit(|line| {
            for comment in comments {
                let _ = writeln!(line, "\\ {comment}");
            }
            for (safe, original) in names.iter().zip(columns) {
                let _ = writeln!(line, "\\ column {safe} = {original}");
            }
            if offset != 0.0 {
                let _ = writeln!(
                    line,
                    "\\ objective offset {offset} (not written: add it to the optimum)"
                );
            }
            line.push_str("Maximize\n obj:");
            push_terms(line, objective, names);
            line.push_str("\nSubject To\n");
        });
    }

    /// A comment line among the rows (`\ text`).
    pub fn comment(&mut self, text: &str) {
        self.lines.emit(|line| {
            let _ = writeln!(line, "\\ {text}");
        });
    }

    /// One row.
    pub fn row(&mut self, row: &Row, names: &[String]) {
        self.lines.emit(|line| {
            let _ = write!(line, " {}:", row.name);
            push_terms(line, &row.terms, names);
            let comparison = match row.comparison {
                Comparison::AtMost => "<=",
                Comparison::AtLeast => ">=",
                Comparison::Equal => "=",
            };
            let _ = writeln!(line, " {comparison} {}", row.rhs);
        });
    }

    /// The file after its last row: every column binary, and `End`.
    pub fn tail(&mut self, names: &[String]) {
        self.lines.emit(|line| {
            line.push_str("Binaries\n");
            for chunk in names.chunks(TERMS_PER_LINE) {
                let _ = writeln!(line, " {}", chunk.join(" "));
            }
            line.push_str("End\n");
        });
    }

    /// The result: an error, a stop, or done and flushed.
    pub fn finish(self) -> Result<(), WriteError> {
        self.lines.finish()
    }
}

/// Writes `program` whole as a CPLEX LP file, with `comments` at the top.
pub fn write_lp(
    program: &LinearProgram,
    comments: &[String],
    out: &mut dyn Write,
    should_stop: &dyn Fn() -> bool,
) -> Result<(), WriteError> {
    let names = lp_names(&program.columns);
    let mut writer = LpWriter::new(out, should_stop);
    writer.head(
        &names,
        &program.columns,
        (&program.objective, program.objective_offset),
        comments,
    );
    for row in &program.rows {
        writer.row(row, &names);
    }
    writer.tail(&names);
    writer.finish()
}

/// A problem in an LP file that this reader does not accept.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct LpParseError {
    /// The 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Section {
    Start,
    Objective,
    Constraints,
    Binaries,
    End,
}

/// Reads a CPLEX LP file of the form [`write_lp`] writes (maximise, rows, binary columns);
/// whitespace and line breaks are free, `\` starts a comment.
pub fn read_lp(text: &str) -> Result<LinearProgram, LpParseError> {
    let mut tokens: Vec<(usize, String)> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.split('\\').next().unwrap_or("");
        let spaced = line
            .replace("<=", " <= ")
            .replace(">=", " >= ")
            .replace(':', " : ")
            .replace('+', " + ")
            .replace('-', " - ");
        // "=" alone, not inside "<=" or ">=".
        let spaced = spaced.replace("< =", "<=").replace("> =", ">=");
        for token in spaced.split_whitespace() {
            let token = if token.len() > 1 && token.starts_with('=') {
                tokens.push((index + 1, "=".into()));
                token[1..].to_string()
            } else {
                token.to_string()
            };
            tokens.push((index + 1, token));
        }
    }
    let mut section = Section::Start;
    let mut columns: Vec<String> = Vec::new();
    let mut column_index: HashMap<String, usize> = HashMap::new();
    let mut binaries: Vec<String> = Vec::new();
    let mut objective = Vec::new();
    let mut rows: Vec<Row> = Vec::new();
    // The expression being read: terms, and a pending coefficient and sign.
    let mut terms: Vec<(f64, usize)> = Vec::new();
    let mut sign = 1.0;
    let mut coefficient: Option<f64> = None;
    let mut row_name = String::new();
    let mut pending: Option<Comparison> = None;
    let mut i = 0;
    let mut last_line = 1;
    while i < tokens.len() {
        let (line, token) = (&tokens[i].0, tokens[i].1.as_str());
        last_line = *line;
        let error = |message: String| LpParseError {
            line: *line,
            message,
        };
        let lower = token.to_ascii_lowercase();
        let next_lower = tokens.get(i + 1).map(|t| t.1.to_ascii_lowercase());
        let keyword = match lower.as_str() {
            "maximize" | "maximise" | "maximum" | "max" => Some((Section::Objective, 1)),
            "minimize" | "minimise" | "minimum" | "min" => {
                return Err(error("only maximisation problems are read".into()))
            }
            "subject" if next_lower.as_deref() == Some("to") => Some((Section::Constraints, 2)),
            "such" if next_lower.as_deref() == Some("that") => Some((Section::Constraints, 2)),
            "st" | "s.t." | "st." => Some((Section::Constraints, 1)),
            "binaries" | "binary" | "bin" => Some((Section::Binaries, 1)),
            "end" => Some((Section::End, 1)),
            "bounds" | "bound" | "general" | "generals" | "gen" => {
                return Err(error(format!(
                    "section {token:?} is not supported: columns must be binary"
                )))
            }
            _ => None,
        };
        if let Some((next, width)) = keyword {
            if section == Section::Objective {
                objective = std::mem::take(&mut terms);
            }
            if section == Section::Constraints && (!terms.is_empty() || pending.is_some()) {
                return Err(error("a constraint has no right-hand side".into()));
            }
            section = next;
            i += width;
            continue;
        }
        match section {
            Section::Start => return Err(error(format!("expected `Maximize`, found {token:?}"))),
            Section::End => return Err(error(format!("text after `End`: {token:?}"))),
            Section::Binaries => {
                binaries.push(token.to_string());
                i += 1;
            }
            Section::Objective | Section::Constraints => {
                if tokens.get(i + 1).map(|t| t.1.as_str()) == Some(":") {
                    row_name = token.to_string();
                    i += 2;
                    continue;
                }
                match token {
                    "+" => sign = 1.0,
                    "-" => sign = -sign,
                    "<=" | ">=" | "=" | "=<" | "=>" if section == Section::Constraints => {
                        pending = Some(match token {
                            "<=" | "=<" => Comparison::AtMost,
                            ">=" | "=>" => Comparison::AtLeast,
                            _ => Comparison::Equal,
                        });
                    }
                    _ => {
                        if let Ok(number) = token.parse::<f64>() {
                            if let Some(comparison) = pending.take() {
                                rows.push(Row {
                                    name: std::mem::take(&mut row_name),
                                    terms: std::mem::take(&mut terms),
                                    comparison,
                                    rhs: sign * number,
                                });
                                sign = 1.0;
                            } else if coefficient.is_some() {
                                return Err(error(format!("two numbers in a row: {token:?}")));
                            } else {
                                coefficient = Some(number);
                            }
                        } else {
                            if pending.is_some() {
                                return Err(error(format!(
                                    "expected a number after the comparison, found {token:?}"
                                )));
                            }
                            let column =
                                *column_index.entry(token.to_string()).or_insert_with(|| {
                                    columns.push(token.to_string());
                                    columns.len() - 1
                                });
                            terms.push((sign * coefficient.take().unwrap_or(1.0), column));
                            sign = 1.0;
                        }
                    }
                }
                i += 1;
            }
        }
    }
    if section != Section::End {
        return Err(LpParseError {
            line: last_line,
            message: "missing `End`".into(),
        });
    }
    for column in &columns {
        if !binaries.contains(column) {
            return Err(LpParseError {
                line: last_line,
                message: format!("column {column:?} is not declared binary"),
            });
        }
    }
    for name in binaries {
        if !column_index.contains_key(&name) {
            column_index.insert(name.clone(), columns.len());
            columns.push(name);
        }
    }
    // Zero terms were written only to keep an expression non-empty.
    objective.retain(|&(c, _): &(f64, usize)| c != 0.0);
    for row in &mut rows {
        row.terms.retain(|&(c, _)| c != 0.0);
    }
    Ok(LinearProgram {
        columns,
        objective,
        objective_offset: 0.0,
        rows,
    })
}

/// The name each of `columns` maps back to by the file's `\ column safe = name` lines (its
/// LP name where no line maps it), in the order of `columns`.
pub fn original_names(text: &str, columns: &[String]) -> Vec<String> {
    let originals: HashMap<&str, &str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("\\ column "))
        .filter_map(|l| l.split_once(" = "))
        .collect();
    columns
        .iter()
        .map(|c| {
            originals
                .get(c.as_str())
                .map_or(c.as_str(), |o| *o)
                .to_string()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_safe_and_unique() {
        let names: Vec<String> = ["q[3,5]", "q(3,5)", "2x", "e1", "place[T/2@(4,7)]"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            lp_names(&names),
            vec!["q_3_5", "q_3_5_2", "x_2x", "x_e1", "place_T_2__4_7"]
        );
    }

    #[test]
    fn write_then_read_gives_the_same_program() {
        let program = LinearProgram {
            columns: vec!["a".into(), "b".into(), "c".into()],
            objective: vec![(1.0, 0), (1.0, 1), (2.0, 2)],
            objective_offset: 0.0,
            rows: vec![
                Row {
                    name: "c1".into(),
                    terms: vec![(1.0, 0), (1.0, 1)],
                    comparison: Comparison::AtMost,
                    rhs: 1.0,
                },
                Row {
                    name: "c2".into(),
                    terms: vec![(1.0, 1), (-1.0, 2)],
                    comparison: Comparison::AtLeast,
                    rhs: -1.0,
                },
                Row {
                    name: "c3".into(),
                    terms: vec![(1.0, 0), (1.0, 2)],
                    comparison: Comparison::Equal,
                    rhs: 1.0,
                },
            ],
        };
        let mut out = Vec::new();
        write_lp(&program, &["test".into()], &mut out, &|| false).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(read_lp(&text).unwrap(), program, "{text}");
    }

    #[test]
    fn columns_map_back_to_their_original_names() {
        let text = "\\ column q_0_1 = q[0,1]\n\\ column bad = x = y\nMaximize\n";
        let columns = ["q_0_1".to_string(), "bad".into(), "plain".into()];
        assert_eq!(original_names(text, &columns), ["q[0,1]", "x = y", "plain"]);
    }

    #[test]
    fn reader_errors_name_the_line() {
        let err = read_lp("Maximize\n obj: x\nSubject To\n c1: x <= y\nBinaries\n x y\nEnd\n")
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 4: expected a number after the comparison, found \"y\""
        );
        let err = read_lp("Minimize\n obj: x\nEnd\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 1: only maximisation problems are read"
        );
        let err = read_lp("Maximize\n obj: x\nSubject To\n c1: x <= 1\n").unwrap_err();
        assert_eq!(err.to_string(), "line 4: missing `End`");
    }
}
