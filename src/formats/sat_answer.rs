//! SAT solvers' answers: the SAT competition's output (`s SATISFIABLE`, `v` lines of
//! literals ending with `0`; MaxSAT and pseudo-Boolean solvers print the same shape) and
//! MiniSat's result file (`SAT`, `UNSAT` or `INDET`, then the literals ending with `0`);
//! and the `v` lines of a witness file ([`AnswerReader::witness`], see [`super::witness`]).
//!
//! [`AnswerReader`] goes through the answer in order, giving each status line and each
//! literal with its line, so that a caller can check as it reads (a second status, a
//! variable given both values) and stop at the first problem, whichever it is. What a
//! status means for the caller, and how a problem is worded, is the caller's.

use std::str::{Lines, SplitWhitespace};

/// What shape of answer is read, and how its literals are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AnswerSyntax {
    /// MiniSat's result file: bare `SAT` / `UNSAT` / `INDET` status lines, every other
    /// line literals. Otherwise the competition's `s` and `v` lines; other lines
    /// (comments, `o` lines, chatter) are not the answer.
    pub result_file: bool,
    /// The forms MaxSAT and pseudo-Boolean solvers print as well: `x3`, `-x3` and `~3`
    /// as literals, one string of 0s and 1s for all the variables (variable i at i, in
    /// the first values), and literals only after the status line. A word after the
    /// closing 0 is refused before it is read. Otherwise literals are plain integers.
    pub lenient: bool,
}

/// A status line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnswerStatus {
    /// `s SATISFIABLE`, or `SAT` in a result file.
    Satisfiable,
    /// `s OPTIMUM FOUND` (MaxSAT and pseudo-Boolean solvers).
    OptimumFound,
    /// `s UNSATISFIABLE`, or `UNSAT` in a result file.
    Unsatisfiable,
    /// Any other `s` status, or `INDET` in a result file: the words as written.
    Other(String),
}

/// One thing an answer says, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnswerItem {
    /// A status line.
    Status(AnswerStatus),
    /// A literal: variable `var` (from 1) has `value`.
    Literal {
        /// The variable, from 1.
        var: usize,
        /// Its value: true for a positive literal.
        value: bool,
    },
}

/// An answer's literals that do not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// A word that is no literal.
    #[error("line {line}: {word:?} is not a literal")]
    NotALiteral {
        /// The 1-based line.
        line: usize,
        /// The word.
        word: String,
    },
    /// Literals after the 0 that ends them.
    #[error("line {line}: literals after the closing 0")]
    AfterClosingZero {
        /// The 1-based line.
        line: usize,
    },
    /// A line of a witness file that is neither a `c` nor a `v` line.
    #[error("line {line}: expected a `c` or `v` line")]
    NotAnswerLine {
        /// The 1-based line.
        line: usize,
    },
}

/// Reads an answer item by item: `(line, item)`, or the first problem (after which it
/// gives nothing more). [`AnswerReader::closed`] says whether the literals ended with 0.
pub struct AnswerReader<'a> {
    lines: std::iter::Enumerate<Lines<'a>>,
    syntax: AnswerSyntax,
    /// The literal words of the line being read, with its number.
    words: Option<(usize, SplitWhitespace<'a>)>,
    /// A 0/1 string being read: its line, its bits, the next variable.
    bits: Option<(usize, &'a [u8], usize)>,
    seen_status: bool,
    seen_literal: bool,
    closed: bool,
    failed: bool,
    /// A witness file's lines (see [`AnswerReader::witness`]).
    witness: bool,
}

impl<'a> AnswerReader<'a> {
    /// A reader of `text` in `syntax`.
    pub fn new(text: &'a str, syntax: AnswerSyntax) -> AnswerReader<'a> {
        AnswerReader {
            lines: text.lines().enumerate(),
            syntax,
            words: None,
            bits: None,
            seen_status: false,
            seen_literal: false,
            closed: false,
            failed: false,
            witness: false,
        }
    }

    /// A reader of a witness file: `c` comment lines (and blank ones), and `v` lines of
    /// integer literals (the words after the `v`, with or without a space) ending with 0;
    /// no status line. Any other line is refused ([`AnswerError::NotAnswerLine`]), and so is
    /// a word after the closing 0, before it is read.
    pub fn witness(text: &'a str) -> AnswerReader<'a> {
        let syntax = AnswerSyntax {
            result_file: false,
            lenient: false,
        };
        AnswerReader {
            witness: true,
            ..AnswerReader::new(text, syntax)
        }
    }

    /// Whether the literals read so far end with their closing 0 (or were a 0/1 string).
    pub fn closed(&self) -> bool {
        self.closed
    }

    /// The status on `line`, if it is a status line.
    fn status(&self, line: &str) -> Option<AnswerStatus> {
        if self.syntax.result_file {
            return match line {
                "SAT" => Some(AnswerStatus::Satisfiable),
                "UNSAT" => Some(AnswerStatus::Unsatisfiable),
                "INDET" => Some(AnswerStatus::Other("INDET".into())),
                _ => None,
            };
        }
        line.strip_prefix("s ").map(|rest| match rest.trim() {
            "SATISFIABLE" => AnswerStatus::Satisfiable,
            "OPTIMUM FOUND" => AnswerStatus::OptimumFound,
            "UNSATISFIABLE" => AnswerStatus::Unsatisfiable,
            other => AnswerStatus::Other(other.to_string()),
        })
    }

    /// The literal words of `line`, if it holds any.
    fn literal_words(&self, line: &'a str) -> Option<&'a str> {
        if self.syntax.result_file {
            let before_status = self.syntax.lenient && !self.seen_status;
            (!line.is_empty() && !before_status).then_some(line)
        } else if line == "v" {
            None
        } else {
            line.strip_prefix("v ")
        }
    }

    /// `(var, value)` of a literal word, `var` 0 for the closing 0.
    fn literal(&self, word: &str) -> Option<(usize, bool)> {
        if self.syntax.lenient {
            let (negative, body) = match word.strip_prefix(['-', '~']) {
                Some(rest) => (true, rest),
                None => (false, word),
            };
            let body = body.strip_prefix('x').unwrap_or(body);
            body.parse().ok().map(|var| (var, !negative))
        } else {
            let literal: i64 = word.parse().ok()?;
            Some((literal.unsigned_abs() as usize, literal > 0))
        }
    }

    /// The next item of the current line's words, if any are left.
    fn next_word(&mut self) -> Option<Result<(usize, AnswerItem), AnswerError>> {
        if let Some((line, bits, var)) = &mut self.bits {
            if let Some(&bit) = bits.get(*var - 1) {
                *var += 1;
                let item = AnswerItem::Literal {
                    var: *var - 1,
                    value: bit == b'1',
                };
                return Some(Ok((*line, item)));
            }
            self.bits = None;
        }
        let (line, mut words) = self.words.take()?;
        let word = words.next()?;
        // More words may follow on this line.
        self.words = Some((line, words));
        if (self.syntax.lenient || self.witness) && self.closed {
            return Some(Err(AnswerError::AfterClosingZero { line }));
        }
        let Some((var, value)) = self.literal(word) else {
            return Some(Err(AnswerError::NotALiteral {
                line,
                word: word.to_string(),
            }));
        };
        if self.closed {
            return Some(Err(AnswerError::AfterClosingZero { line }));
        }
        if var == 0 {
            self.closed = true;
            return self.next_word();
        }
        self.seen_literal = true;
        Some(Ok((line, AnswerItem::Literal { var, value })))
    }
}

impl<'a> Iterator for AnswerReader<'a> {
    type Item = Result<(usize, AnswerItem), AnswerError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        loop {
            if let Some(item) = self.next_word() {
                self.failed = item.is_err();
                return Some(item);
            }
            let (index, raw) = self.lines.next()?;
            let number = index + 1;
            let line = raw.trim();
            if self.witness {
                if line.is_empty() || line.starts_with('c') {
                    continue;
                }
                let Some(words) = line.strip_prefix('v') else {
                    self.failed = true;
                    return Some(Err(AnswerError::NotAnswerLine { line: number }));
                };
                self.words = Some((number, words.split_whitespace()));
                continue;
            }
            if let Some(status) = self.status(line) {
                self.seen_status = true;
                return Some(Ok((number, AnswerItem::Status(status))));
            }
            let Some(words) = self.literal_words(line) else {
                continue;
            };
            // The MaxSAT Evaluation's newer form: one string of 0s and 1s, variable i at i.
            if self.syntax.lenient && !self.seen_literal {
                let mut split = words.split_whitespace();
                if let (Some(bits), None) = (split.next(), split.next()) {
                    if bits.len() > 1 && bits.bytes().all(|c| c == b'0' || c == b'1') {
                        self.bits = Some((number, bits.as_bytes(), 1));
                        self.seen_literal = true;
                        self.closed = true;
                        continue;
                    }
                }
            }
            self.words = Some((number, words.split_whitespace()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMPETITION: AnswerSyntax = AnswerSyntax {
        result_file: false,
        lenient: false,
    };

    fn items(text: &str, syntax: AnswerSyntax) -> Result<Vec<(usize, AnswerItem)>, AnswerError> {
        AnswerReader::new(text, syntax).collect()
    }

    fn lit(var: usize, value: bool) -> AnswerItem {
        AnswerItem::Literal { var, value }
    }

    /// An answer as a solver prints it, from a status and an assignment.
    fn written(status: &str, values: &[bool], result_file: bool) -> String {
        let mut text = if result_file {
            format!("{status}\n")
        } else {
            format!("c a comment\ns {status}\nv")
        };
        for (i, &value) in values.iter().enumerate() {
            let literal = if value { i as i64 + 1 } else { -(i as i64 + 1) };
            text.push_str(&format!(" {literal}"));
        }
        text.push_str(" 0\n");
        text
    }

    #[test]
    fn written_answers_read_back() {
        let values = [true, false, false, true];
        for result_file in [false, true] {
            for lenient in [false, true] {
                let syntax = AnswerSyntax {
                    result_file,
                    lenient,
                };
                let status = if result_file { "SAT" } else { "SATISFIABLE" };
                let text = written(status, &values, result_file);
                let mut reader = AnswerReader::new(&text, syntax);
                let status_line = if result_file { 1 } else { 2 };
                assert_eq!(
                    reader.next(),
                    Some(Ok((
                        status_line,
                        AnswerItem::Status(AnswerStatus::Satisfiable)
                    )))
                );
                let read: Vec<bool> = reader
                    .by_ref()
                    .map(|item| match item.unwrap().1 {
                        AnswerItem::Literal { value, .. } => value,
                        other => panic!("{other:?}"),
                    })
                    .collect();
                assert_eq!(read, values);
                assert!(reader.closed());
            }
        }
    }

    #[test]
    fn statuses_and_lenient_forms() {
        assert_eq!(
            items("s OPTIMUM FOUND\ns UNKNOWN\n", COMPETITION).unwrap(),
            vec![
                (1, AnswerItem::Status(AnswerStatus::OptimumFound)),
                (2, AnswerItem::Status(AnswerStatus::Other("UNKNOWN".into())))
            ]
        );
        let lenient = AnswerSyntax {
            result_file: false,
            lenient: true,
        };
        assert_eq!(
            items("s SATISFIABLE\nv x1 -x2 ~3 0\n", lenient).unwrap()[1..],
            [(2, lit(1, true)), (2, lit(2, false)), (2, lit(3, false))]
        );
        assert_eq!(
            items("s OPTIMUM FOUND\nv 101\n", lenient).unwrap()[1..],
            [(2, lit(1, true)), (2, lit(2, false)), (2, lit(3, true))]
        );
        // Strictly, `x1` is no literal; leniently, a word after the 0 is refused unread.
        assert_eq!(
            items("s SATISFIABLE\nv 1 0 x\n", COMPETITION),
            Err(AnswerError::NotALiteral {
                line: 2,
                word: "x".into()
            })
        );
        assert_eq!(
            items("s SATISFIABLE\nv 1 0 x\n", lenient),
            Err(AnswerError::AfterClosingZero { line: 2 })
        );
        // Values before a result file's status are literals only when read strictly.
        let file = |lenient| AnswerSyntax {
            result_file: true,
            lenient,
        };
        assert_eq!(items("1 0\nSAT\n", file(false)).unwrap().len(), 2);
        assert_eq!(items("1 0\nSAT\n", file(true)).unwrap().len(), 1);
    }
}
