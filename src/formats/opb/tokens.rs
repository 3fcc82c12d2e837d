//! The tokens of OPB files, shared with the reader of VeriPB proofs (whose constraints are
//! OPB's): lines cut into tokens, and tokens turned into typed values (integers with
//! overflow checks, literals by name).

use std::borrow::Cow;
use std::io::BufRead;

use super::{error, Constraint, Lit, PbSyntaxError, Relation, VarNames};

/// Lines read one at a time, cut into tokens: `;`, `:`, `>=`, `<=`, `=` and `->` stand
/// alone, anything else runs up to whitespace or one of those.
pub(in crate::formats) struct Tokens<R> {
    input: R,
    text: Vec<u8>,
    pos: usize,
    pub(in crate::formats) line: usize,
    /// Comments: `%` to the end of a line (proofs), or a line starting with `*` (OPB).
    comment: u8,
    whole_line_comment: bool,
    done: bool,
}

fn is_separator(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b';' | b':' | b'>' | b'<' | b'=')
}

impl<R: BufRead> Tokens<R> {
    pub(in crate::formats) fn new(input: R, comment: u8, whole_line_comment: bool) -> Tokens<R> {
        Tokens {
            input,
            text: Vec::new(),
            pos: 0,
            line: 0,
            comment,
            whole_line_comment,
            done: false,
        }
    }

    fn read_line(&mut self) -> Result<bool, PbSyntaxError> {
        self.text.clear();
        self.pos = 0;
        match self.input.read_until(b'\n', &mut self.text) {
            Ok(0) => {
                self.done = true;
                Ok(false)
            }
            Ok(_) => {
                self.line += 1;
                if self.whole_line_comment && self.text.first() == Some(&self.comment) {
                    self.text.clear();
                }
                Ok(true)
            }
            Err(e) => error(self.line + 1, format!("cannot read: {e}")),
        }
    }

    /// The next token's byte range in `self.text`, or `None` at the end of the input.
    fn next(&mut self) -> Result<Option<(usize, usize)>, PbSyntaxError> {
        loop {
            while self.pos < self.text.len() && self.text[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            if self.pos < self.text.len()
                && !self.whole_line_comment
                && self.text[self.pos] == self.comment
            {
                self.pos = self.text.len();
            }
            if self.pos < self.text.len() {
                break;
            }
            if self.done || !self.read_line()? {
                return Ok(None);
            }
        }
        let start = self.pos;
        let first = self.text[start];
        self.pos += 1;
        match first {
            b';' | b':' | b'=' => {}
            b'-' if self.text.get(self.pos) == Some(&b'>') => self.pos += 1,
            b'>' | b'<' => {
                if self.text.get(self.pos) != Some(&b'=') {
                    return error(self.line, "expected `>=` or `<=`");
                }
                self.pos += 1;
            }
            _ => {
                while self.pos < self.text.len() && !is_separator(self.text[self.pos]) {
                    self.pos += 1;
                }
            }
        }
        Ok(Some((start, self.pos)))
    }

    fn slice(&self, (start, end): (usize, usize)) -> &[u8] {
        &self.text[start..end]
    }
}

/// What a token is, once read.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::formats) enum Token {
    Semicolon,
    Colon,
    Relation(Relation),
    Integer(i64),
    Literal(Lit),
    /// A word that is not a literal: a rule, an operator, a keyword (borrowed, so that the
    /// millions of `+` of a proof's `pol` steps allocate nothing), or anything else.
    Word(Cow<'static, str>),
}

fn parse_integer(text: &[u8]) -> Option<Result<i64, ()>> {
    let digits = match text.first()? {
        b'+' | b'-' => &text[1..],
        _ => text,
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if digits.len() > 1 && digits[0] == b'0' {
        return Some(Err(()));
    }
    let magnitude = digits.iter().try_fold(0i64, |n, &d| {
        n.checked_mul(10)?.checked_add(i64::from(d - b'0'))
    });
    Some(match (magnitude, text[0] == b'-') {
        (Some(m), true) => Ok(-m),
        (Some(m), false) => Ok(m),
        (None, _) => Err(()),
    })
}

fn is_name(text: &[u8]) -> bool {
    text.len() >= 2
        && (text[0].is_ascii_alphabetic() || text[0] == b'_')
        && text[1..].iter().all(|&b| {
            b.is_ascii_alphanumeric() || matches!(b, b'_' | b'^' | b'[' | b']' | b'{' | b'}' | b'-')
        })
}

/// The shared reader of OPB files and proofs: tokens turned into typed values.
pub(in crate::formats) struct Reader<R> {
    pub(in crate::formats) tokens: Tokens<R>,
    pub(in crate::formats) names: VarNames,
    /// A token read but not yet used.
    pub(in crate::formats) peeked: Option<Token>,
}

/// A word that is a keyword, not a variable name, where both could stand (those of OPB
/// files and of the proofs that read their constraints with these tokens).
fn keyword(text: &[u8]) -> Option<&'static str> {
    Some(match text {
        b"pol" => "pol",
        b"rup" => "rup",
        b"pbc" => "pbc",
        b"red" => "red",
        b"qed" => "qed",
        b"sol" => "sol",
        b"soli" => "soli",
        b"del" => "del",
        b"output" => "output",
        b"conclusion" => "conclusion",
        b"end" => "end",
        b"min" => "min",
        b"subproof" => "subproof",
        b"id" => "id",
        b"range" => "range",
        b"spec" => "spec",
        b"NONE" => "NONE",
        b"SAT" => "SAT",
        b"UNSAT" => "UNSAT",
        b"BOUNDS" => "BOUNDS",
        b"INF" => "INF",
        b"pseudo-Boolean" => "pseudo-Boolean",
        b"proof" => "proof",
        _ => return None,
    })
}

/// A word as a token: the keywords and the operators of proofs without an allocation.
fn word(text: &[u8]) -> Cow<'static, str> {
    let operator = || {
        Some(match text {
            b"+" => "+",
            b"*" => "*",
            b"d" => "d",
            b"s" => "s",
            b"w" => "w",
            b"-" => "-",
            b"~" => "~",
            b"->" => "->",
            b"f" => "f",
            _ => return None,
        })
    };
    match keyword(text).or_else(operator) {
        Some(known) => Cow::Borrowed(known),
        None => Cow::Owned(String::from_utf8_lossy(text).into_owned()),
    }
}

impl<R: BufRead> Reader<R> {
    pub(in crate::formats) fn line(&self) -> usize {
        self.tokens.line
    }

    pub(in crate::formats) fn fail<T>(
        &self,
        message: impl Into<String>,
    ) -> Result<T, PbSyntaxError> {
        error(self.line(), message)
    }

    pub(in crate::formats) fn next(&mut self) -> Result<Option<Token>, PbSyntaxError> {
        if let Some(token) = self.peeked.take() {
            return Ok(Some(token));
        }
        let Some(range) = self.tokens.next()? else {
            return Ok(None);
        };
        let text = self.tokens.slice(range);
        let token = match text {
            b";" => Token::Semicolon,
            b":" => Token::Colon,
            b">=" => Token::Relation(Relation::AtLeast),
            b"<=" => Token::Relation(Relation::AtMost),
            b"=" => Token::Relation(Relation::Equal),
            _ => match parse_integer(text) {
                Some(Ok(n)) => Token::Integer(n),
                Some(Err(())) => {
                    let shown = String::from_utf8_lossy(text).into_owned();
                    return self.fail(format!(
                        "integer `{shown}` has a leading zero or does not fit 64 bits"
                    ));
                }
                None => {
                    let (negated, name) = match text.strip_prefix(b"~") {
                        Some(rest) => (true, rest),
                        None => (false, text),
                    };
                    if let Some(found) = self.names.find_shaped(name) {
                        // A name of this shape is ASCII, and no keyword.
                        let var = found.unwrap_or_else(|| {
                            self.names.intern(std::str::from_utf8(name).unwrap_or(""))
                        });
                        Token::Literal(Lit::new(var, negated))
                    } else if is_name(name) && (negated || keyword(name).is_none()) {
                        // A name is ASCII (`is_name`).
                        let name = std::str::from_utf8(name).unwrap_or("");
                        Token::Literal(Lit::new(self.names.intern(name), negated))
                    } else {
                        Token::Word(word(text))
                    }
                }
            },
        };
        Ok(Some(token))
    }

    pub(in crate::formats) fn peek(&mut self) -> Result<Option<&Token>, PbSyntaxError> {
        if self.peeked.is_none() {
            self.peeked = self.next()?;
        }
        Ok(self.peeked.as_ref())
    }

    pub(in crate::formats) fn expect_next(&mut self, what: &str) -> Result<Token, PbSyntaxError> {
        match self.next()? {
            Some(token) => Ok(token),
            None => self.fail(format!("the file ends where {what} should follow")),
        }
    }

    pub(in crate::formats) fn expect(
        &mut self,
        wanted: Token,
        what: &str,
    ) -> Result<(), PbSyntaxError> {
        let token = self.expect_next(what)?;
        if token == wanted {
            Ok(())
        } else {
            self.fail(format!("expected {what}, found {}", describe(&token)))
        }
    }

    pub(in crate::formats) fn expect_word(&mut self, word: &str) -> Result<(), PbSyntaxError> {
        self.expect(Token::Word(word.to_string().into()), &format!("`{word}`"))
    }

    /// `coef lit ... RELATION rhs`, up to and with the relation's right-hand side.
    pub(in crate::formats) fn constraint(&mut self) -> Result<Constraint, PbSyntaxError> {
        let mut terms = Vec::new();
        loop {
            match self.expect_next("a constraint")? {
                Token::Integer(coefficient) => match self.expect_next("a literal")? {
                    Token::Literal(lit) => terms.push((coefficient, lit)),
                    other => {
                        return self.fail(format!(
                            "expected a literal after coefficient {coefficient}, found {}",
                            describe(&other)
                        ))
                    }
                },
                Token::Relation(relation) => {
                    let rhs = match self.expect_next("a right-hand side")? {
                        Token::Integer(rhs) => rhs,
                        other => {
                            return self.fail(format!(
                                "expected an integer right-hand side, found {}",
                                describe(&other)
                            ))
                        }
                    };
                    return Ok(Constraint {
                        terms,
                        relation,
                        rhs,
                    });
                }
                other => {
                    return self.fail(format!(
                        "expected `coefficient literal` or `>=`, found {}",
                        describe(&other)
                    ))
                }
            }
        }
    }

    /// Literals up to (not including) a `;` or `:`.
    pub(in crate::formats) fn literals(&mut self) -> Result<Vec<Lit>, PbSyntaxError> {
        let mut literals = Vec::new();
        while let Some(Token::Literal(lit)) = self.peek()? {
            literals.push(*lit);
            self.peeked = None;
        }
        Ok(literals)
    }
}

pub(in crate::formats) fn describe(token: &Token) -> String {
    match token {
        Token::Semicolon => "`;`".into(),
        Token::Colon => "`:`".into(),
        Token::Relation(Relation::AtLeast) => "`>=`".into(),
        Token::Relation(Relation::AtMost) => "`<=`".into(),
        Token::Relation(Relation::Equal) => "`=`".into(),
        Token::Integer(n) => format!("`{n}`"),
        Token::Literal(_) => "a literal".into(),
        Token::Word(w) => format!("`{w}`"),
    }
}
