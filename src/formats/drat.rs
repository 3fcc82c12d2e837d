//! DRAT clausal proofs, text and binary, read into plain steps over DIMACS literals.
//!
//! - **Text**: whitespace-separated integers; each clause ends with `0` (usually one clause
//!   per line, but a clause may span lines); a clause prefixed with the token `d` is a
//!   deletion; a token starting with `c` where a clause could start begins a comment that
//!   runs to the end of the line. Errors name the 1-based line where the clause starts.
//! - **Binary**: each step is the byte `a` (0x61, addition) or `d` (0x64, deletion), then
//!   literals, then a zero byte. A literal `l` is the unsigned number `2*|l| + (l < 0)`,
//!   written seven bits per byte, least significant group first, with the high bit set on
//!   every byte but the last. Errors name the 0-based byte offset of the step (or of the
//!   faulty literal).
//! - **Detection** ([`ProofEncoding::Detect`], see [`ProofEncoding::detect`]): the proof is
//!   binary if its first byte is `a`, or if any of its first 10 bytes is neither printable
//!   ASCII (0x20..=0x7E) nor a tab, line feed or carriage return; otherwise it is text.
//!   Like drat-trim's rule (which also looks at the first 10 bytes), this can mistake a
//!   binary proof whose first 10 bytes happen to be printable (e.g. a long first deletion
//!   over variables 16..=63) for text; callers that know the encoding should say so. The
//!   `a` rule is our addition: no text proof starts with `a`.
//!
//! The whole proof is read before anything is done with it, so a syntax error anywhere is
//! reported. The literals of every step share one arena ([`DratProof::literals`]): a
//! proof of millions of lemmas is then two vectors, not millions.
//!
//! # References
//!
//! N. Wetzler, M. J. H. Heule, W. A. Hunt Jr.: "DRAT-trim: Efficient Checking and Trimming
//! Using Expressive Clausal Proofs", SAT 2014 (the format); the binary encoding as
//! documented with drat-trim and written by CaDiCaL.

use std::fmt;

/// How the proof bytes are encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProofEncoding {
    /// Text DRAT: lines of DIMACS literals ending in `0`, `d` for deletions, `c` comments.
    Text,
    /// Binary DRAT: `a`/`d` bytes followed by variable-length literals and a zero byte.
    Binary,
    /// Decide from the first bytes, see [`ProofEncoding::detect`].
    Detect,
}

impl ProofEncoding {
    /// Decides the encoding of `proof` the way [`ProofEncoding::Detect`] does: binary if the first
    /// byte is `a` or if any of the first 10 bytes is neither printable ASCII (0x20..=0x7E) nor a
    /// tab, line feed or carriage return; text otherwise (including an empty proof). Never returns
    /// [`ProofEncoding::Detect`].
    pub fn detect(proof: &[u8]) -> ProofEncoding {
        let binary = proof.first() == Some(&b'a')
            || proof
                .iter()
                .take(10)
                .any(|&b| !(matches!(b, 0x20..=0x7e) || matches!(b, b'\t' | b'\n' | b'\r')));
        if binary {
            ProofEncoding::Binary
        } else {
            ProofEncoding::Text
        }
    }
}

/// Where a proof step is: a 1-based line of a text proof or a 0-based byte offset of a binary one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProofPosition {
    /// 1-based line of a text proof (the line where the step starts).
    Line(usize),
    /// 0-based byte offset into a binary proof (of the step's `a`/`d` byte, or of a bad literal).
    Byte(usize),
}

impl fmt::Display for ProofPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProofPosition::Line(line) => write!(f, "proof line {line}"),
            ProofPosition::Byte(offset) => write!(f, "proof byte offset {offset}"),
        }
    }
}

/// One proof step; its literals are `literals[start..start + len]` of its [`DratProof`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DratStep {
    /// Where its literals start in [`DratProof::literals`].
    pub start: usize,
    /// How many literals it has (0 for the empty clause).
    pub len: usize,
    /// A deletion (`d`) rather than a lemma addition.
    pub delete: bool,
    /// Where the step is in the proof.
    pub at: ProofPosition,
}

/// A proof as read: its steps in order, over one arena of nonzero DIMACS literals.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DratProof {
    /// The steps, in the proof's order.
    pub steps: Vec<DratStep>,
    /// Every step's literals, one after the other.
    pub literals: Vec<i32>,
}

impl DratProof {
    /// The literals of `step`, a step of this proof.
    pub fn step_literals(&self, step: &DratStep) -> &[i32] {
        &self.literals[step.start..step.start + step.len]
    }
}

/// Why a proof does not read as DRAT.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DratReadError {
    /// An unexpected token or byte, or a literal out of range.
    #[error("{at}: {message}")]
    Syntax {
        /// Where the problem is.
        at: ProofPosition,
        /// What is wrong.
        message: String,
    },
    /// The proof ends inside a step: the terminating `0` is missing.
    #[error("{at}: the proof ends inside this step (terminating 0 missing)")]
    Truncated {
        /// The unterminated step.
        at: ProofPosition,
    },
}

/// Reads `proof` in `encoding` ([`ProofEncoding::Detect`] decides by
/// [`ProofEncoding::detect`]).
pub fn read_drat(proof: &[u8], encoding: ProofEncoding) -> Result<DratProof, DratReadError> {
    let encoding = match encoding {
        ProofEncoding::Detect => ProofEncoding::detect(proof),
        other => other,
    };
    match encoding {
        ProofEncoding::Binary => read_binary(proof),
        _ => read_text(proof),
    }
}

fn is_text_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Shows a token in an error message, shortened and with non-printable bytes escaped.
fn show_token(token: &[u8]) -> String {
    let shown: String = token
        .iter()
        .take(24)
        .flat_map(|&b| std::ascii::escape_default(b).map(char::from))
        .collect();
    if token.len() > 24 {
        format!("{shown}...")
    } else {
        shown
    }
}

/// Reads a text DRAT proof.
fn read_text(proof: &[u8]) -> Result<DratProof, DratReadError> {
    let mut read = DratProof::default();
    let mut i = 0;
    let mut line = 1;
    // The open step: (start in literals, deletion, line where it starts).
    let mut open: Option<(usize, bool, usize)> = None;
    while i < proof.len() {
        let b = proof[i];
        if is_text_space(b) {
            if b == b'\n' {
                line += 1;
            }
            i += 1;
            continue;
        }
        let token_start = i;
        while i < proof.len() && !is_text_space(proof[i]) {
            i += 1;
        }
        let token = &proof[token_start..i];
        if open.is_none() {
            if token[0] == b'c' {
                while i < proof.len() && proof[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            if token == b"d" {
                open = Some((read.literals.len(), true, line));
                continue;
            }
            open = Some((read.literals.len(), false, line));
        }
        let literal = parse_int(token).ok_or_else(|| DratReadError::Syntax {
            at: ProofPosition::Line(line),
            message: format!("unexpected token `{}`", show_token(token)),
        })?;
        if literal == 0 {
            let (start, delete, step_line) = open.take().expect("a step is open");
            read.steps.push(DratStep {
                start,
                len: read.literals.len() - start,
                delete,
                at: ProofPosition::Line(step_line),
            });
        } else if literal.unsigned_abs() > i32::MAX as u64 {
            return Err(DratReadError::Syntax {
                at: ProofPosition::Line(line),
                message: format!("literal {literal} is out of range"),
            });
        } else {
            read.literals.push(literal as i32);
        }
    }
    if let Some((_, _, step_line)) = open {
        return Err(DratReadError::Truncated {
            at: ProofPosition::Line(step_line),
        });
    }
    Ok(read)
}

/// Parses an optionally negative decimal integer; `None` unless the token is exactly that. Values
/// beyond the `i64` range saturate, so that they are reported as out of range.
fn parse_int(token: &[u8]) -> Option<i64> {
    let (negative, digits) = match token.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, token),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut value: i64 = 0;
    for &d in digits {
        value = value.saturating_mul(10).saturating_add(i64::from(d - b'0'));
    }
    Some(if negative { -value } else { value })
}

/// Reads a binary DRAT proof.
fn read_binary(proof: &[u8]) -> Result<DratProof, DratReadError> {
    let mut read = DratProof::default();
    let mut i = 0;
    while i < proof.len() {
        let step_at = i;
        let delete = match proof[i] {
            b'a' => false,
            b'd' => true,
            other => {
                return Err(DratReadError::Syntax {
                    at: ProofPosition::Byte(step_at),
                    message: format!(
                        "expected step byte `a` (0x61) or `d` (0x64), found 0x{other:02x}"
                    ),
                })
            }
        };
        i += 1;
        let start = read.literals.len();
        loop {
            let literal_at = i;
            let mut value: u64 = 0;
            let mut shift = 0;
            loop {
                let Some(&byte) = proof.get(i) else {
                    return Err(DratReadError::Truncated {
                        at: ProofPosition::Byte(step_at),
                    });
                };
                i += 1;
                if shift >= 35 {
                    return Err(DratReadError::Syntax {
                        at: ProofPosition::Byte(literal_at),
                        message: "literal encoding longer than 5 bytes is out of range".into(),
                    });
                }
                value |= u64::from(byte & 0x7f) << shift;
                shift += 7;
                if byte & 0x80 == 0 {
                    break;
                }
            }
            if value == 0 {
                break;
            }
            if value == 1 {
                return Err(DratReadError::Syntax {
                    at: ProofPosition::Byte(literal_at),
                    message: "literal encoding 1 names variable 0".into(),
                });
            }
            if value > u64::from(u32::MAX) {
                return Err(DratReadError::Syntax {
                    at: ProofPosition::Byte(literal_at),
                    message: format!("literal encoding {value} is out of range"),
                });
            }
            let var = (value >> 1) as i32;
            read.literals.push(if value & 1 == 1 { -var } else { var });
        }
        read.steps.push(DratStep {
            start,
            len: read.literals.len() - start,
            delete,
            at: ProofPosition::Byte(step_at),
        });
    }
    Ok(read)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each step as (deletion, literals, position).
    fn steps(proof: &DratProof) -> Vec<(bool, Vec<i32>, ProofPosition)> {
        proof
            .steps
            .iter()
            .map(|s| (s.delete, proof.step_literals(s).to_vec(), s.at))
            .collect()
    }

    #[test]
    fn text_and_binary_read_to_the_same_literals() {
        let text = read_drat(b"c lemma\n1 -2 0\nd 1\n -2 0\n0\n", ProofEncoding::Text).unwrap();
        assert_eq!(
            steps(&text),
            [
                (false, vec![1, -2], ProofPosition::Line(2)),
                (true, vec![1, -2], ProofPosition::Line(3)),
                (false, vec![], ProofPosition::Line(5)),
            ]
        );
        // 1 -> 2, -2 -> 5; variable 70 -> 140 = 0x8c 0x01 over two bytes.
        let binary = read_drat(b"a\x02\x05\x00d\x8c\x01\x00a\x00", ProofEncoding::Detect).unwrap();
        assert_eq!(
            steps(&binary),
            [
                (false, vec![1, -2], ProofPosition::Byte(0)),
                (true, vec![70], ProofPosition::Byte(4)),
                (false, vec![], ProofPosition::Byte(8)),
            ]
        );
    }

    #[test]
    fn malformed_proofs_are_named_by_position() {
        let message = |proof: &[u8], encoding| read_drat(proof, encoding).unwrap_err().to_string();
        assert_eq!(
            message(b"1 0\n2 x 0\n", ProofEncoding::Text),
            "proof line 2: unexpected token `x`"
        );
        assert_eq!(
            message(b"1 0\n\n2 -3", ProofEncoding::Text),
            "proof line 3: the proof ends inside this step (terminating 0 missing)"
        );
        assert_eq!(
            message(b"3000000000 0\n", ProofEncoding::Text),
            "proof line 1: literal 3000000000 is out of range"
        );
        assert_eq!(
            message(b"a\x02\x00q", ProofEncoding::Binary),
            "proof byte offset 3: expected step byte `a` (0x61) or `d` (0x64), found 0x71"
        );
        assert_eq!(
            message(b"a\x02\x01\x00", ProofEncoding::Binary),
            "proof byte offset 2: literal encoding 1 names variable 0"
        );
        assert_eq!(
            message(b"a\x02", ProofEncoding::Binary),
            "proof byte offset 0: the proof ends inside this step (terminating 0 missing)"
        );
    }
}
