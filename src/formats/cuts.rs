//! Cut files: the clauses a model's lazy constraints added while a claim was refuted, each
//! with the reason it holds in every solution (a certificate's `cuts.txt`). What the cuts
//! mean, and the checking of their reasons, is the certificate's; this is their text.
//!
//! Text, one item a line. Lines starting with `c` followed by a space (or alone) are
//! comments. A cut is two lines:
//!
//! ```text
//! cut L REASON
//! clause LITERALS 0
//! ```
//!
//! `L` numbers the model's lazy constraints from 1 (its name is in a comment), `REASON` is
//! one line in the syntax that constraint defines, and the clause is DIMACS literals over
//! the model's variables, ended by 0.
//!
//! ```text
//! c lazy constraint 1: connected parts
//! cut 1 part 1 component 2,0
//! clause -6 2 10 0
//! ```

use std::fmt::Write as _;

/// A cut as read from a cut file: where it is, the lazy constraint that made it, its reason
/// and its clause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    /// The line of its `cut` line.
    pub line: usize,
    /// The lazy constraint, numbered from 1.
    pub constraint: usize,
    /// The reason, one line.
    pub reason: String,
    /// The clause, in DIMACS literals.
    pub clause: Vec<i64>,
}

/// The cut file for `cuts`, each `(constraint, reason, clause)` (the constraint numbered
/// from 1, the clause in DIMACS literals), with comments naming the file's model and CNF
/// (`model_file`, `cnf_file`) and the lazy constraints (`constraints`, the first numbered
/// 1).
pub fn write_cuts<'c, C: IntoIterator<Item = i64>>(
    model_file: &str,
    cnf_file: &str,
    constraints: &[&str],
    cuts: impl IntoIterator<Item = (usize, &'c str, C)>,
) -> String {
    let mut text = format!(
        "c puzzlec cuts for {model_file}: the clauses its lazy constraints added while it was \
         refuted; {cnf_file} ends with them, in this order\n\
         c a cut is two lines: `cut L REASON` (L numbers the lazy constraints from 1), then \
         `clause`, its DIMACS literals and 0\n"
    );
    for (number, name) in constraints.iter().enumerate() {
        let _ = writeln!(text, "c lazy constraint {}: {name}", number + 1);
    }
    for (constraint, reason, clause) in cuts {
        debug_assert!(!reason.contains('\n'), "a reason is one line");
        let _ = writeln!(text, "cut {constraint} {reason}");
        text.push_str("clause");
        for literal in clause {
            let _ = write!(text, " {literal}");
        }
        text.push_str(" 0\n");
    }
    text
}

/// What is wrong with a cut file, at which line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct CutFileError {
    /// The line (of the cut's `cut` line, for a cut the rules reject).
    pub line: usize,
    /// The problem, in words.
    pub problem: String,
}

impl CutFileError {
    /// The problem `problem` at line `line`.
    pub fn new(line: usize, problem: String) -> CutFileError {
        CutFileError { line, problem }
    }
}

/// Reads a cut file whose clauses range over variables `1..=model_vars`; an error names the
/// line and the problem.
pub fn read_cuts(text: &str, model_vars: usize) -> Result<Vec<Cut>, CutFileError> {
    let mut cuts = Vec::new();
    // The `cut` line waiting for its `clause` line: its line number, constraint and reason.
    let mut pending: Option<(usize, usize, String)> = None;
    for (index, line) in text.lines().enumerate() {
        let line_number = index + 1;
        let at = |problem: String| CutFileError::new(line_number, problem);
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed == "c" || trimmed.starts_with("c ") {
            continue;
        }
        let (keyword, rest) = trimmed.split_once(' ').unwrap_or((trimmed, ""));
        match keyword {
            "cut" => {
                if let Some((line, _, _)) = pending {
                    return Err(at(format!("the cut of line {line} has no `clause` line")));
                }
                let (number, reason) = rest.trim().split_once(' ').unwrap_or((rest.trim(), ""));
                let number: usize = number.parse().map_err(|_| {
                    at(format!(
                        "{number:?} is not a lazy constraint number (`cut L REASON`)"
                    ))
                })?;
                let reason = reason.trim();
                if reason.is_empty() {
                    return Err(at("the cut has no reason (`cut L REASON`)".to_string()));
                }
                if number == 0 {
                    return Err(at(
                        "lazy constraint 0 does not exist (they are numbered from 1)".to_string(),
                    ));
                }
                pending = Some((line_number, number, reason.to_string()));
            }
            "clause" => {
                let Some((line, constraint, reason)) = pending.take() else {
                    return Err(at(
                        "a `clause` line without a `cut` line before it".to_string()
                    ));
                };
                let clause = read_clause(rest, model_vars).map_err(at)?;
                cuts.push(Cut {
                    line,
                    constraint,
                    reason,
                    clause,
                });
            }
            _ => {
                return Err(at(format!(
                    "expected a `c`, `cut` or `clause` line, found {:?}",
                    truncate(trimmed)
                )))
            }
        }
    }
    match pending {
        Some((line, _, _)) => Err(CutFileError::new(
            line,
            "the cut has no `clause` line".to_string(),
        )),
        None => Ok(cuts),
    }
}

/// The literals of a `clause` line after the keyword: non-zero, over `1..=model_vars`,
/// ended by one 0 with nothing after it.
fn read_clause(text: &str, model_vars: usize) -> Result<Vec<i64>, String> {
    let mut clause = Vec::new();
    let mut words = text.split_whitespace();
    loop {
        let Some(word) = words.next() else {
            return Err("the clause is not ended by 0".to_string());
        };
        let literal: i64 = word
            .parse()
            .map_err(|_| format!("{:?} is not a literal", truncate(word)))?;
        if literal == 0 {
            break;
        }
        if literal.unsigned_abs() > model_vars as u64 {
            return Err(format!(
                "literal {literal} is not over a model variable (1..={model_vars})"
            ));
        }
        clause.push(literal);
    }
    match words.next() {
        Some(extra) => Err(format!("{:?} after the closing 0", truncate(extra))),
        None => Ok(clause),
    }
}

/// At most 40 characters of `text`, for quoting it in a message.
fn truncate(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_round_trip_through_the_file() {
        let cuts = [
            (1, "part 1 component 2,0", vec![-6, 2, 10]),
            (2, "r", vec![1]),
        ];
        let text = write_cuts(
            "model.toml",
            "cnf.dimacs",
            &["connected parts", "other"],
            cuts.iter().map(|(c, r, l)| (*c, *r, l.iter().copied())),
        );
        assert!(
            text.contains(
                "c lazy constraint 1: connected parts\nc lazy constraint 2: other\n\
                 cut 1 part 1 component 2,0\nclause -6 2 10 0\ncut 2 r\nclause 1 0\n"
            ),
            "{text}"
        );
        let read: Vec<(usize, usize, String, Vec<i64>)> = read_cuts(&text, 10)
            .unwrap()
            .into_iter()
            .map(|cut| (cut.line, cut.constraint, cut.reason, cut.clause))
            .collect();
        assert_eq!(
            read,
            [
                (5, 1, "part 1 component 2,0".to_string(), vec![-6, 2, 10]),
                (7, 2, "r".to_string(), vec![1])
            ]
        );
    }

    #[test]
    fn read_errors_name_the_line() {
        let vars = 9;
        let cases = [
            (
                "cut 1 part 0 component 0,0\n",
                "line 1: the cut has no `clause` line",
            ),
            (
                "clause 1 0\n",
                "line 1: a `clause` line without a `cut` line before it",
            ),
            (
                "c x\ncut x part 0\nclause 1 0\n",
                "line 2: \"x\" is not a lazy constraint number (`cut L REASON`)",
            ),
            (
                "cut 1\nclause 1 0\n",
                "line 1: the cut has no reason (`cut L REASON`)",
            ),
            (
                "cut 0 part 0 component 0,0\nclause 1 0\n",
                "line 1: lazy constraint 0 does not exist (they are numbered from 1)",
            ),
            (
                "cut 1 r\ncut 1 r\n",
                "line 2: the cut of line 1 has no `clause` line",
            ),
            (
                "cut 1 r\nclause 1 2\n",
                "line 2: the clause is not ended by 0",
            ),
            (
                "cut 1 r\nclause 1 0 2\n",
                "line 2: \"2\" after the closing 0",
            ),
            ("cut 1 r\nclause 1 x 0\n", "line 2: \"x\" is not a literal"),
            (
                "cut 1 r\nclause -999 0\n",
                "line 2: literal -999 is not over a model variable (1..=9)",
            ),
            (
                "cuts 1 r\n",
                "line 1: expected a `c`, `cut` or `clause` line, found \"cuts 1 r\"",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(
                read_cuts(text, vars).unwrap_err().to_string(),
                message,
                "{text:?}"
            );
        }
        assert_eq!(
            read_cuts("c only a comment\n\nc\n", vars).unwrap(),
            Vec::new()
        );
    }
}
