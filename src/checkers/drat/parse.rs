//! Reading a DRAT proof, text or binary, into steps over dense internal literal codes.

use super::{DratError, ProofPosition};
use std::collections::HashMap;

/// Maps DIMACS variables to dense internal variables: formula variables keep their number,
/// larger proof variables get the next free numbers in order of appearance.
pub(super) struct VarMap {
    pub(super) base: u32,
    pub(super) extra: HashMap<u32, u32>,
    pub(super) external: Vec<u32>,
}

impl VarMap {
    pub(super) fn new(base: u32) -> Self {
        VarMap {
            base,
            extra: HashMap::new(),
            external: Vec::new(),
        }
    }

    /// Internal literal code `2 * var + negative` of a nonzero DIMACS literal.
    pub(super) fn code(&mut self, literal: i32) -> u32 {
        let var = literal.unsigned_abs();
        let internal = if var <= self.base {
            var
        } else {
            match self.extra.get(&var) {
                Some(&v) => v,
                None => {
                    self.external.push(var);
                    let v = self.base + self.external.len() as u32;
                    self.extra.insert(var, v);
                    v
                }
            }
        };
        2 * internal + u32::from(literal < 0)
    }

    /// The DIMACS literal of an internal literal code.
    pub(super) fn dimacs(&self, code: u32) -> i32 {
        let internal = code >> 1;
        let var = if internal <= self.base {
            internal
        } else {
            self.external[(internal - self.base - 1) as usize]
        };
        if code & 1 == 1 {
            -(var as i32)
        } else {
            var as i32
        }
    }

    pub(super) fn num_internal(&self) -> usize {
        self.base as usize + self.external.len()
    }
}

/// One proof step; its literals are `lits[start..start + len]` of the parsed proof.
pub(super) struct Step {
    pub(super) start: usize,
    pub(super) len: usize,
    pub(super) delete: bool,
    pub(super) at: ProofPosition,
}

/// A parsed proof: steps over one literal arena of internal codes.
pub(super) struct ParsedProof {
    pub(super) steps: Vec<Step>,
    pub(super) lits: Vec<u32>,
}

impl ParsedProof {
    pub(super) fn step_lits(&self, step: &Step) -> &[u32] {
        &self.lits[step.start..step.start + step.len]
    }
}

pub(super) fn is_text_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Shows a token in an error message, shortened and with non-printable bytes escaped.
pub(super) fn show_token(token: &[u8]) -> String {
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

pub(super) fn parse_text(proof: &[u8], vars: &mut VarMap) -> Result<ParsedProof, DratError> {
    let mut parsed = ParsedProof {
        steps: Vec::new(),
        lits: Vec::new(),
    };
    let mut i = 0;
    let mut line = 1;
    // The open step: (start in lits, deletion, line where it starts).
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
                open = Some((parsed.lits.len(), true, line));
                continue;
            }
            open = Some((parsed.lits.len(), false, line));
        }
        let literal = parse_int(token).ok_or_else(|| DratError::Syntax {
            at: ProofPosition::Line(line),
            message: format!("unexpected token `{}`", show_token(token)),
        })?;
        if literal == 0 {
            let (start, delete, step_line) = open.take().expect("a step is open");
            parsed.steps.push(Step {
                start,
                len: parsed.lits.len() - start,
                delete,
                at: ProofPosition::Line(step_line),
            });
        } else if literal.unsigned_abs() > i32::MAX as u64 {
            return Err(DratError::Syntax {
                at: ProofPosition::Line(line),
                message: format!("literal {literal} is out of range"),
            });
        } else {
            parsed.lits.push(vars.code(literal as i32));
        }
    }
    if let Some((_, _, step_line)) = open {
        return Err(DratError::Truncated {
            at: ProofPosition::Line(step_line),
        });
    }
    Ok(parsed)
}

/// Parses an optionally negative decimal integer; `None` unless the token is exactly that. Values
/// beyond the `i64` range saturate, so that they are reported as out of range.
pub(super) fn parse_int(token: &[u8]) -> Option<i64> {
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

pub(super) fn parse_binary(proof: &[u8], vars: &mut VarMap) -> Result<ParsedProof, DratError> {
    let mut parsed = ParsedProof {
        steps: Vec::new(),
        lits: Vec::new(),
    };
    let mut i = 0;
    while i < proof.len() {
        let step_at = i;
        let delete = match proof[i] {
            b'a' => false,
            b'd' => true,
            other => {
                return Err(DratError::Syntax {
                    at: ProofPosition::Byte(step_at),
                    message: format!(
                        "expected step byte `a` (0x61) or `d` (0x64), found 0x{other:02x}"
                    ),
                })
            }
        };
        i += 1;
        let start = parsed.lits.len();
        loop {
            let literal_at = i;
            let mut value: u64 = 0;
            let mut shift = 0;
            loop {
                let Some(&byte) = proof.get(i) else {
                    return Err(DratError::Truncated {
                        at: ProofPosition::Byte(step_at),
                    });
                };
                i += 1;
                if shift >= 35 {
                    return Err(DratError::Syntax {
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
                return Err(DratError::Syntax {
                    at: ProofPosition::Byte(literal_at),
                    message: "literal encoding 1 names variable 0".into(),
                });
            }
            if value > u64::from(u32::MAX) {
                return Err(DratError::Syntax {
                    at: ProofPosition::Byte(literal_at),
                    message: format!("literal encoding {value} is out of range"),
                });
            }
            let var = (value >> 1) as i32;
            let literal = if value & 1 == 1 { -var } else { var };
            parsed.lits.push(vars.code(literal));
        }
        parsed.steps.push(Step {
            start,
            len: parsed.lits.len() - start,
            delete,
            at: ProofPosition::Byte(step_at),
        });
    }
    Ok(parsed)
}
