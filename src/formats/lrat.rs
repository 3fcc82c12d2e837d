//! Textual LRAT proofs: one step per line, `ID lit* 0 hint* 0` adds clause `ID` with the IDs
//! of the clauses its check follows (negative ones name RAT candidates), `ID d id* 0` deletes
//! clauses, and lines starting with `c` are comments. The writer numbers the clauses it adds
//! itself, after the formula's; the reader gives the steps one at a time from any
//! [`BufRead`], never holding the file whole (a search's proof runs to gigabytes).
//!
//! # References
//!
//! Cruz-Filipe, Heule, Hunt, Kaufmann, Schneider-Kamp: "Efficient Certified RAT Verification",
//! CADE 2017 (the format).

use super::lines::{LineWriter, WriteError};
use super::ReadError;
use std::io::{BufRead, Write};

/// Writes an LRAT proof of a formula of `formula_clauses` clauses (IDs `1..=formula_clauses`):
/// every added clause gets the next ID.
pub struct LratWriter<'a> {
    lines: LineWriter<'a>,
    next_id: u64,
}

impl<'a> LratWriter<'a> {
    /// A writer into `out` for a formula of `formula_clauses` clauses; `should_stop` says
    /// when to give up (see [`LineWriter`]).
    pub fn new(
        out: &'a mut dyn Write,
        should_stop: &'a dyn Fn() -> bool,
        formula_clauses: u64,
    ) -> LratWriter<'a> {
        LratWriter {
            lines: LineWriter::new(out, should_stop),
            next_id: formula_clauses + 1,
        }
    }

    /// Adds the clause of DIMACS `literals`, checked by following `hints`; returns its ID.
    pub fn add(&mut self, literals: &[i32], hints: &[u64]) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.lines.emit(|line| {
            push_number(line, false, id);
            for &literal in literals {
                line.push(' ');
                push_number(line, literal < 0, literal.unsigned_abs().into());
            }
            line.push_str(" 0");
            for &hint in hints {
                line.push(' ');
                push_number(line, false, hint);
            }
            line.push_str(" 0\n");
        });
        id
    }

    /// Deletes the clauses `ids` (nothing is written for none).
    pub fn delete(&mut self, ids: &[u64]) {
        if ids.is_empty() {
            return;
        }
        // The step's own number means nothing; checkers want a positive one.
        let step = (self.next_id - 1).max(1);
        self.lines.emit(|line| {
            push_number(line, false, step);
            line.push_str(" d");
            for &id in ids {
                line.push(' ');
                push_number(line, false, id);
            }
            line.push_str(" 0\n");
        });
    }

    /// Whether writing failed or was stopped.
    pub fn failed(&self) -> bool {
        self.lines.failed()
    }

    /// The result: an error, a stop, or done and flushed.
    pub fn finish(self) -> Result<(), WriteError> {
        self.lines.finish()
    }
}

/// Appends `magnitude` in decimal, after a minus sign if `negative`: the writer's inner
/// loop (hundreds of millions of numbers for a large proof), two digits at a time and off
/// `fmt`.
fn push_number(line: &mut String, negative: bool, magnitude: u64) {
    const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899";
    if negative {
        line.push('-');
    }
    let mut magnitude = magnitude;
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    while magnitude >= 100 {
        let pair = (magnitude % 100) as usize * 2;
        magnitude /= 100;
        start -= 2;
        digits[start..start + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if magnitude >= 10 {
        let pair = magnitude as usize * 2;
        start -= 2;
        digits[start..start + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        start -= 1;
        digits[start] = b'0' + magnitude as u8;
    }
    line.push_str(std::str::from_utf8(&digits[start..]).unwrap_or_default());
}

/// One step of an LRAT proof, borrowed from the reader's buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LratStep<'a> {
    /// `ID lit* 0 hint* 0`: clause `id` added.
    Add {
        /// The new clause's ID.
        id: u64,
        /// Its DIMACS literals.
        literals: &'a [i64],
        /// The IDs its check follows, in order (negative: a RAT candidate).
        hints: &'a [i64],
    },
    /// `ID d id* 0`: clauses deleted (the leading ID means nothing).
    Delete {
        /// The deleted IDs.
        ids: &'a [u64],
    },
}

/// Reads an LRAT proof step by step.
pub struct LratReader<R> {
    input: R,
    text: Vec<u8>,
    line: usize,
    literals: Vec<i64>,
    hints: Vec<i64>,
    ids: Vec<u64>,
}

impl<R: BufRead> LratReader<R> {
    /// A reader of the proof `input`.
    pub fn new(input: R) -> LratReader<R> {
        LratReader {
            input,
            text: Vec::new(),
            line: 0,
            literals: Vec::new(),
            hints: Vec::new(),
            ids: Vec::new(),
        }
    }

    /// The next step and its line (1-based), or `None` at the end of the proof.
    pub fn next_step(&mut self) -> Result<Option<(usize, LratStep<'_>)>, ReadError> {
        loop {
            self.text.clear();
            let read = self
                .input
                .read_until(b'\n', &mut self.text)
                .map_err(|e| ReadError::File(format!("cannot read: {e}")))?;
            if read == 0 {
                return Ok(None);
            }
            self.line += 1;
            let trimmed = self.text.trim_ascii();
            if !trimmed.is_empty() && trimmed[0] != b'c' {
                break;
            }
        }
        let line = self.line;
        let syntax = |message: String| ReadError::Line { line, message };
        let mut tokens = self
            .text
            .split(u8::is_ascii_whitespace)
            .filter(|t| !t.is_empty());
        let first = tokens.next().unwrap_or_default();
        let id = match parse_integer(first) {
            Some(id) if id > 0 => id as u64,
            _ => {
                return Err(syntax(format!(
                    "step ID {:?} is not a positive integer",
                    String::from_utf8_lossy(first)
                )))
            }
        };
        let mut rest = tokens.peekable();
        let step = if rest.peek() == Some(&&b"d"[..]) {
            rest.next();
            zero_terminated(line, &mut rest, "deleted IDs", &mut self.literals)?;
            self.ids.clear();
            for &deleted in &self.literals {
                let deleted = u64::try_from(deleted)
                    .map_err(|_| syntax(format!("deleted ID {deleted} is negative")))?;
                self.ids.push(deleted);
            }
            LratStep::Delete { ids: &self.ids }
        } else {
            zero_terminated(line, &mut rest, "literals", &mut self.literals)?;
            zero_terminated(line, &mut rest, "hints", &mut self.hints)?;
            LratStep::Add {
                id,
                literals: &self.literals,
                hints: &self.hints,
            }
        };
        if let Some(extra) = rest.next() {
            return Err(syntax(format!(
                "{:?} after the step's final 0",
                String::from_utf8_lossy(extra)
            )));
        }
        Ok(Some((line, step)))
    }
}

/// Reads integers into `values` up to the terminating 0 (`what` names them in errors).
fn zero_terminated<'t>(
    line: usize,
    tokens: &mut impl Iterator<Item = &'t [u8]>,
    what: &str,
    values: &mut Vec<i64>,
) -> Result<(), ReadError> {
    let syntax = |message: String| ReadError::Line { line, message };
    values.clear();
    loop {
        let token = tokens
            .next()
            .ok_or_else(|| syntax(format!("the {what} are not ended by 0")))?;
        let value = parse_integer(token).ok_or_else(|| {
            syntax(format!(
                "{:?} in the {what} is not an integer",
                String::from_utf8_lossy(token)
            ))
        })?;
        if value == 0 {
            return Ok(());
        }
        values.push(value);
    }
}

/// A decimal integer with an optional sign, `None` if the token is anything else or does not
/// fit an `i64`.
fn parse_integer(token: &[u8]) -> Option<i64> {
    let (negative, digits) = match token {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, token),
    };
    if digits.is_empty() {
        return None;
    }
    let mut value: i64 = 0;
    for &byte in digits {
        if !byte.is_ascii_digit() {
            return None;
        }
        value = value.checked_mul(10)?.checked_add(i64::from(byte - b'0'))?;
    }
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(text: &str) -> Result<Vec<String>, ReadError> {
        let mut reader = LratReader::new(text.as_bytes());
        let mut out = Vec::new();
        while let Some((line, step)) = reader.next_step()? {
            out.push(format!("{line}: {step:?}"));
        }
        Ok(out)
    }

    #[test]
    fn written_proofs_read_back() {
        let mut bytes = Vec::new();
        let mut writer = LratWriter::new(&mut bytes, &|| false, 4);
        assert_eq!(writer.add(&[2, -10], &[1, 2]), 5);
        writer.delete(&[]);
        writer.delete(&[1, 5]);
        assert_eq!(writer.add(&[], &[5, 3, 4]), 6);
        writer.finish().unwrap();
        let text = String::from_utf8(bytes).unwrap();
        assert_eq!(text, "5 2 -10 0 1 2 0\n5 d 1 5 0\n6 0 5 3 4 0\n");
        assert_eq!(
            steps(&format!("c a comment\n\n{text}")).unwrap(),
            [
                "3: Add { id: 5, literals: [2, -10], hints: [1, 2] }",
                "4: Delete { ids: [1, 5] }",
                "5: Add { id: 6, literals: [], hints: [5, 3, 4] }",
            ]
        );
    }

    #[test]
    fn numbers_are_written_in_full() {
        let mut line = String::new();
        for number in [
            0,
            7,
            -7,
            10,
            99,
            100,
            -1005,
            i128::from(u64::MAX),
            i128::from(i32::MIN),
        ] {
            line.clear();
            push_number(&mut line, number < 0, number.unsigned_abs() as u64);
            assert_eq!(line, number.to_string());
        }
    }

    #[test]
    fn malformed_lines_are_refused_with_their_number() {
        for (text, message) in [
            ("5 2 0 1 2\n", "line 1: the hints are not ended by 0"),
            (
                "\nc x\n5 2 x 0 1 0\n",
                "line 3: \"x\" in the literals is not an integer",
            ),
            ("5 2 0 1 2 0 7\n", "line 1: \"7\" after the step's final 0"),
            (
                "0 2 0 1 2 0\n",
                "line 1: step ID \"0\" is not a positive integer",
            ),
            ("5 d -1 0\n", "line 1: deleted ID -1 is negative"),
            (
                "5 2 0 99999999999999999999 0\n",
                "line 1: \"99999999999999999999\" in the hints is not an integer",
            ),
        ] {
            assert_eq!(steps(text).unwrap_err().to_string(), message, "{text:?}");
        }
    }
}
