//! VeriPB 3.0 files: OPB constraint files and pseudo-Boolean proofs, read and written.
//!
//! The reader speaks the part of VeriPB's grammar that puzzlec's proofs use: an OPB file
//! (`* #variable= N #constraint= M`, an optional `min:` objective, constraints
//! `coef lit ... >= k ;`, `<= k ;` or `= k ;` over named variables, `~x` for a negation) and
//! the proof
//! lines `f`, `pol`, `rup` (with or without hints), `pbc` (with a subproof ended by `qed`),
//! `red` (with a witness, without a subproof), `sol`, `soli`, `del id`, `del range`, `output NONE`, `conclusion` and `end pseudo-Boolean
//! proof`. Anything else is refused by name, with its line, so a proof never passes because
//! a line was skipped. Coefficients are `i64`, read with overflow checks. Proofs are read
//! step by step ([`ProofReader`]), never held whole, and written through the same types
//! ([`ProofWriter`]), so what the writer says the reader reads back.

use std::fmt::Write as _;
use std::io::BufRead;

use rustc_hash::FxHashMap;

use super::lines::{LineWriter, WriteError};

/// A problem in an OPB file or a proof: the 1-based line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct VeriPbError {
    /// The 1-based line (0 when the file could not be read at all).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn error<T>(line: usize, message: impl Into<String>) -> Result<T, VeriPbError> {
    Err(VeriPbError {
        line,
        message: message.into(),
    })
}

/// A literal: a variable (an index into [`VarNames`]) or its negation, packed as
/// `2 * variable + negated` so that it can index per-literal tables.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(u32);

impl Lit {
    /// The literal of variable `var`, negated or not.
    pub fn new(var: u32, negated: bool) -> Lit {
        Lit(var << 1 | u32::from(negated))
    }

    /// Its variable.
    pub fn var(self) -> u32 {
        self.0 >> 1
    }

    /// Whether it is the negation `~x`.
    pub fn is_negated(self) -> bool {
        self.0 & 1 == 1
    }

    /// The opposite literal.
    pub fn negate(self) -> Lit {
        Lit(self.0 ^ 1)
    }

    /// `2 * variable + negated`, for per-literal tables.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Variable names and their indices, in the order first seen. Names `x1`, `x2`, ... are
/// found through a table by number rather than by hashing, as they are nearly all of them.
#[derive(Clone, Debug, Default)]
pub struct VarNames {
    names: Vec<Box<str>>,
    /// Each name's first [`PADDED`] bytes, zeros after it: a writer copies a short name as
    /// one block of known size ([`VarNames::push_name_bytes`]).
    padded: Vec<[u8; PADDED]>,
    /// Each name's length, or `PADDED + 1` for a longer one: read beside `padded`, it
    /// saves loading the name itself.
    short_lengths: Vec<u8>,
    /// `numbered[n]` is 1 + the variable named `xn`, or 0.
    numbered: Vec<u32>,
    others: FxHashMap<Box<str>, u32>,
}

/// The length of [`VarNames`]'s padded copies of names.
const PADDED: usize = 16;

/// The number `n` of a name `xn` (no leading zero), when it is small enough for a table.
fn name_number(name: &str) -> Option<usize> {
    let digits = name.strip_prefix('x')?;
    if digits.is_empty() || digits.len() > 8 || digits.starts_with('0') {
        return None;
    }
    digits.bytes().try_fold(0usize, |n, b| {
        b.is_ascii_digit().then(|| n * 10 + usize::from(b - b'0'))
    })
}

impl VarNames {
    /// The names `x1` .. `xn`, as variables 0 .. n-1.
    pub fn numbered(n: usize) -> VarNames {
        let mut names = VarNames::default();
        for i in 1..=n {
            names.intern(&format!("x{i}"));
        }
        names
    }

    /// The variable named `name`, added when new.
    pub fn intern(&mut self, name: &str) -> u32 {
        if let Some(found) = self.find(name) {
            return found;
        }
        let var = self.names.len() as u32;
        self.names.push(name.into());
        let mut padded = [0; PADDED];
        let short = &name.as_bytes()[..name.len().min(PADDED)];
        padded[..short.len()].copy_from_slice(short);
        self.padded.push(padded);
        self.short_lengths.push(name.len().min(PADDED + 1) as u8);
        match name_number(name) {
            Some(n) => {
                if self.numbered.len() <= n {
                    self.numbered.resize(n + 1, 0);
                }
                self.numbered[n] = var + 1;
            }
            None => {
                self.others.insert(name.into(), var);
            }
        }
        var
    }

    /// The variable named `name`, if known.
    pub fn find(&self, name: &str) -> Option<u32> {
        match name_number(name) {
            Some(n) => self
                .numbered
                .get(n)
                .copied()
                .filter(|&v| v > 0)
                .map(|v| v - 1),
            None => self.others.get(name).copied(),
        }
    }

    /// The name of variable `var`.
    pub fn name(&self, var: u32) -> &str {
        &self.names[var as usize]
    }

    /// How many variables are known.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether no variable is known.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Appends the name of `var` as bytes.
    #[inline]
    pub fn push_name_bytes(&self, out: &mut Vec<u8>, var: u32) {
        let name = &self.names[var as usize];
        if name.len() <= PADDED {
            let len = out.len();
            out.extend_from_slice(&self.padded[var as usize]);
            out.truncate(len + name.len());
        } else {
            out.extend_from_slice(name.as_bytes());
        }
    }

    /// Appends the clause term `1 lit ` (`1 ~name ` or `1 name `) as bytes: one reserve and
    /// block copies, as a `rup` of a proof-writing search names millions of them.
    #[inline]
    fn push_unit_term_bytes(&self, out: &mut Vec<u8>, lit: Lit) {
        let var = lit.var() as usize;
        let length = usize::from(self.short_lengths[var]);
        let block = self.padded[var];
        if length > PADDED {
            out.extend_from_slice(if lit.is_negated() { b"1 ~" } else { b"1 " });
            out.extend_from_slice(self.names[var].as_bytes());
            out.push(b' ');
            return;
        }
        // "1 ~", the name, ' ': at most 3 + PADDED + 1 bytes; the padded block is copied
        // whole (its zeros past the name are overwritten or left past the end).
        out.reserve(4 + PADDED);
        let len = out.len();
        let at = 2 + usize::from(lit.is_negated());
        // SAFETY: the capacity holds `len + 4 + PADDED` bytes, and every write ends at or
        // before `len + at + PADDED <= len + 3 + PADDED`; the bytes up to the new length
        // (`len + at + length + 1`) are all written: the prefix, the name, the space.
        unsafe {
            let end = out.as_mut_ptr().add(len);
            end.cast::<[u8; 3]>().write_unaligned(*b"1 ~");
            end.add(at).cast::<[u8; PADDED]>().write_unaligned(block);
            end.add(at + length).write(b' ');
            out.set_len(len + at + length + 1);
        }
    }

    fn push_literal(&self, out: &mut String, lit: Lit) {
        if lit.is_negated() {
            out.push('~');
        }
        out.push_str(self.name(lit.var()));
    }
}

/// How a constraint compares its sum with its right-hand side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Relation {
    /// `>=`
    AtLeast,
    /// `<=`
    AtMost,
    /// `=` (OPB files only; VeriPB reads it as `>=` then `<=`, two constraint IDs)
    Equal,
}

/// A linear constraint over literals as written: `sum coef * lit RELATION rhs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    /// (coefficient, literal) terms, in the written order; a variable may repeat.
    pub terms: Vec<(i64, Lit)>,
    /// The comparison.
    pub relation: Relation,
    /// The right-hand side.
    pub rhs: i64,
}

/// A minimised objective: `sum coef * lit + constant`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Objective {
    /// (coefficient, literal) terms.
    pub terms: Vec<(i64, Lit)>,
    /// The constant added.
    pub constant: i64,
}

/// An OPB file: the variables, the objective (if any) and the constraints in order.
#[derive(Clone, Debug)]
pub struct OpbFile {
    /// The `#variable=` count of the header.
    pub declared_variables: usize,
    /// The names of the variables, in the order first seen.
    pub names: VarNames,
    /// The `min:` objective.
    pub objective: Option<Objective>,
    /// The constraints; an `=` constraint takes two IDs in a proof.
    pub constraints: Vec<Constraint>,
}

impl OpbFile {
    /// How many constraint IDs the file gives a proof (an equality counts twice).
    pub fn constraint_ids(&self) -> u64 {
        self.constraints
            .iter()
            .map(|c| if c.relation == Relation::Equal { 2 } else { 1 })
            .sum()
    }
}

/// A constraint ID as a proof names it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ConstraintId {
    /// The ID itself (1-based).
    Absolute(u64),
    /// `-k`: the k-th most recent ID (`-1` is the last one given).
    Back(u64),
}

/// One operand or operation of a `pol` line, in reverse Polish order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PolItem {
    /// A constraint of the database.
    Id(ConstraintId),
    /// The literal axiom `lit >= 0`.
    Axiom(Lit),
    /// Add the two constraints on top.
    Add,
    /// Multiply the constraint on top by a positive factor.
    Multiply(u64),
    /// Divide the constraint on top (in its normal form), rounding up.
    Divide(u64),
    /// Saturate the constraint on top.
    Saturate,
    /// Weaken the variable away from the constraint on top.
    Weaken(u32),
    /// Lower the right-hand side of the constraint on top.
    Decrement(u64),
}

/// One entry of a `rup` hint list.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Hint {
    /// `~`: the negation of the constraint being derived.
    Negation,
    /// A constraint of the database.
    Id(ConstraintId),
}

/// The claim of a `conclusion` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conclusion {
    /// `NONE`: nothing claimed.
    None,
    /// `SAT`, with a solution or relying on a logged one.
    Sat(Option<Vec<Lit>>),
    /// `UNSAT`, with the ID of a contradiction or not.
    Unsat(Option<ConstraintId>),
    /// `BOUNDS lower [: id] upper [: solution]`; `None` bounds are `INF`.
    Bounds {
        /// The lower bound on the objective.
        lower: Option<i64>,
        /// The constraint that implies it.
        lower_hint: Option<ConstraintId>,
        /// The upper bound.
        upper: Option<i64>,
        /// A solution of that value.
        solution: Option<Vec<Lit>>,
    },
}

/// What a `red` witness maps a variable to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WitnessValue {
    /// The constant `1` (true) or `0` (false).
    Constant(bool),
    /// A literal (`x3` or `~x3`).
    Literal(Lit),
}

/// One step of a proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// `f N ;`: the formula has N constraint IDs.
    Formula(u64),
    /// `pol ... ;`: a cutting-planes derivation.
    Pol(Vec<PolItem>),
    /// `rup C [: hints] ;`: C follows by unit propagation, over the hints when given.
    Rup {
        /// What is derived.
        constraint: Constraint,
        /// The constraints to propagate over, in order.
        hints: Option<Vec<Hint>>,
    },
    /// `pbc C : subproof` (the subproof follows, up to its `qed`) or `pbc C ;`.
    Pbc {
        /// What is derived.
        constraint: Constraint,
        /// Whether a subproof follows.
        subproof: bool,
    },
    /// `red C : x -> v ... ;`: C by redundance-based strengthening with the witness
    /// (a substitution of variables), without a subproof.
    Red {
        /// What is derived.
        constraint: Constraint,
        /// The witness: (variable, what it maps to), in the written order.
        witness: Vec<(u32, WitnessValue)>,
    },
    /// `qed [pbc] [: id] ;`: the innermost subproof ends, with its contradiction.
    Qed(Option<ConstraintId>),
    /// `sol lits [: value] ;` or, improving, `soli ...`.
    Solution {
        /// The assignment.
        literals: Vec<Lit>,
        /// `soli`: also derive "objective below this value".
        improving: bool,
        /// The claimed objective value.
        value: Option<i64>,
    },
    /// `del id ids ;`
    Delete(Vec<ConstraintId>),
    /// `del range a b ;`: IDs from a up to (not including) b.
    DeleteRange(ConstraintId, ConstraintId),
    /// `output NONE ;`
    OutputNone,
    /// `conclusion ... ;`
    Conclusion(Conclusion),
    /// `end pseudo-Boolean proof ;`
    End,
}

impl Step {
    /// The rule's name, as the proof spells it.
    pub fn rule(&self) -> &'static str {
        match self {
            Step::Formula(_) => "f",
            Step::Pol(_) => "pol",
            Step::Rup { .. } => "rup",
            Step::Pbc { .. } => "pbc",
            Step::Red { .. } => "red",
            Step::Qed(_) => "qed",
            Step::Solution {
                improving: false, ..
            } => "sol",
            Step::Solution {
                improving: true, ..
            } => "soli",
            Step::Delete(_) | Step::DeleteRange(..) => "del",
            Step::OutputNone => "output",
            Step::Conclusion(_) => "conclusion",
            Step::End => "end",
        }
    }
}

/// The first line of every proof.
pub const PROOF_HEADER: &str = "pseudo-Boolean proof version 3.0";

// ---------------------------------------------------------------------------------------
// Reading

/// Lines read one at a time, cut into tokens: `;`, `:`, `>=`, `<=`, `=` and `->` stand
/// alone, anything else runs up to whitespace or one of those.
struct Tokens<R> {
    input: R,
    text: Vec<u8>,
    pos: usize,
    line: usize,
    /// Comments: `%` to the end of a line (proofs), or a line starting with `*` (OPB).
    comment: u8,
    whole_line_comment: bool,
    done: bool,
}

fn is_separator(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b';' | b':' | b'>' | b'<' | b'=')
}

impl<R: BufRead> Tokens<R> {
    fn new(input: R, comment: u8, whole_line_comment: bool) -> Tokens<R> {
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

    fn read_line(&mut self) -> Result<bool, VeriPbError> {
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
    fn next(&mut self) -> Result<Option<(usize, usize)>, VeriPbError> {
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
enum Token {
    Semicolon,
    Colon,
    Relation(Relation),
    Integer(i64),
    Literal(Lit),
    Word(String),
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
struct Reader<R> {
    tokens: Tokens<R>,
    names: VarNames,
    /// A token read but not yet used.
    peeked: Option<Token>,
}

/// Words that are keywords, not variable names, where both could stand.
const KEYWORDS: &[&str] = &[
    "pol",
    "rup",
    "pbc",
    "red",
    "qed",
    "sol",
    "soli",
    "del",
    "output",
    "conclusion",
    "end",
    "min",
    "subproof",
    "id",
    "range",
    "spec",
    "NONE",
    "SAT",
    "UNSAT",
    "BOUNDS",
    "INF",
    "pseudo-Boolean",
    "proof",
];

impl<R: BufRead> Reader<R> {
    fn line(&self) -> usize {
        self.tokens.line
    }

    fn fail<T>(&self, message: impl Into<String>) -> Result<T, VeriPbError> {
        error(self.line(), message)
    }

    fn next(&mut self) -> Result<Option<Token>, VeriPbError> {
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
                    let name = std::str::from_utf8(name).unwrap_or("");
                    if is_name(name.as_bytes()) && (negated || !KEYWORDS.contains(&name)) {
                        Token::Literal(Lit::new(self.names.intern(name), negated))
                    } else {
                        Token::Word(String::from_utf8_lossy(text).into_owned())
                    }
                }
            },
        };
        Ok(Some(token))
    }

    fn peek(&mut self) -> Result<Option<&Token>, VeriPbError> {
        if self.peeked.is_none() {
            self.peeked = self.next()?;
        }
        Ok(self.peeked.as_ref())
    }

    fn expect_next(&mut self, what: &str) -> Result<Token, VeriPbError> {
        match self.next()? {
            Some(token) => Ok(token),
            None => self.fail(format!("the file ends where {what} should follow")),
        }
    }

    fn expect(&mut self, wanted: Token, what: &str) -> Result<(), VeriPbError> {
        let token = self.expect_next(what)?;
        if token == wanted {
            Ok(())
        } else {
            self.fail(format!("expected {what}, found {}", describe(&token)))
        }
    }

    fn expect_word(&mut self, word: &str) -> Result<(), VeriPbError> {
        self.expect(Token::Word(word.to_string()), &format!("`{word}`"))
    }

    /// `coef lit ... RELATION rhs`, up to and with the relation's right-hand side.
    fn constraint(&mut self) -> Result<Constraint, VeriPbError> {
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

    fn constraint_id(&self, n: i64) -> Result<ConstraintId, VeriPbError> {
        match n {
            0 => self.fail("constraint ID 0 does not exist"),
            n if n > 0 => Ok(ConstraintId::Absolute(n as u64)),
            n => Ok(ConstraintId::Back(n.unsigned_abs())),
        }
    }

    /// Literals up to (not including) a `;` or `:`.
    fn literals(&mut self) -> Result<Vec<Lit>, VeriPbError> {
        let mut literals = Vec::new();
        while let Some(Token::Literal(lit)) = self.peek()? {
            literals.push(*lit);
            self.peeked = None;
        }
        Ok(literals)
    }

    fn positive(&self, n: i64, what: &str) -> Result<u64, VeriPbError> {
        if n > 0 {
            Ok(n as u64)
        } else {
            self.fail(format!("{what} must be a positive integer, not {n}"))
        }
    }
}

fn describe(token: &Token) -> String {
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

/// Reads an OPB file in VeriPB's syntax.
pub fn read_opb(input: impl BufRead) -> Result<OpbFile, VeriPbError> {
    let mut input = input;
    let mut header = String::new();
    if let Err(e) = input.read_line(&mut header) {
        return error(1, format!("cannot read: {e}"));
    }
    let counts = parse_opb_header(&header).ok_or_else(|| VeriPbError {
        line: 1,
        message: "expected the header `* #variable= N #constraint= M`".into(),
    })?;
    let mut reader = Reader {
        tokens: Tokens::new(input, b'*', true),
        names: VarNames::default(),
        peeked: None,
    };
    reader.tokens.line = 1;
    let mut objective = None;
    let mut constraints = Vec::new();
    while let Some(token) = reader.peek()? {
        if *token == Token::Word("min".into()) {
            reader.peeked = None;
            if objective.is_some() || !constraints.is_empty() {
                return reader.fail("the objective must come once, before the constraints");
            }
            reader.expect(Token::Colon, "`:` after `min`")?;
            let mut terms = Vec::new();
            let mut constant = 0;
            loop {
                match reader.expect_next("the objective")? {
                    Token::Semicolon => break,
                    Token::Integer(n) => match reader.expect_next("the objective")? {
                        Token::Literal(lit) => terms.push((n, lit)),
                        Token::Semicolon => {
                            constant = n;
                            break;
                        }
                        other => {
                            return reader.fail(format!(
                                "expected a literal or `;` in the objective, found {}",
                                describe(&other)
                            ))
                        }
                    },
                    other => {
                        return reader.fail(format!(
                            "expected a term of the objective, found {}",
                            describe(&other)
                        ))
                    }
                }
            }
            objective = Some(Objective { terms, constant });
            continue;
        }
        let constraint = reader.constraint()?;
        reader.expect(Token::Semicolon, "`;` after a constraint")?;
        constraints.push(constraint);
    }
    if constraints.len() != counts.1 {
        return error(
            reader.line(),
            format!(
                "the header says {} constraints, the file has {}",
                counts.1,
                constraints.len()
            ),
        );
    }
    if reader.names.len() > counts.0 {
        return error(
            reader.line(),
            format!(
                "the header says {} variables, the file names {}",
                counts.0,
                reader.names.len()
            ),
        );
    }
    Ok(OpbFile {
        declared_variables: counts.0,
        names: reader.names,
        objective,
        constraints,
    })
}

/// (variables, constraints) of `* #variable= N #constraint= M` (more may follow).
fn parse_opb_header(line: &str) -> Option<(usize, usize)> {
    let mut words = line.split_whitespace();
    if words.next()? != "*" || words.next()? != "#variable=" {
        return None;
    }
    let variables = words.next()?.parse().ok()?;
    if words.next()? != "#constraint=" {
        return None;
    }
    let constraints = words.next()?.parse().ok()?;
    Some((variables, constraints))
}

/// Reads a proof step by step; the variable names grow as the proof names new ones.
pub struct ProofReader<R> {
    reader: Reader<R>,
    /// Whether `end pseudo-Boolean proof` has been read.
    ended: bool,
}

impl<R: BufRead> ProofReader<R> {
    /// A reader of the proof in `input`, whose first line must be [`PROOF_HEADER`]; `names`
    /// are the formula's.
    pub fn new(input: R, names: VarNames) -> Result<ProofReader<R>, VeriPbError> {
        let mut input = input;
        let mut header = String::new();
        if let Err(e) = input.read_line(&mut header) {
            return error(1, format!("cannot read: {e}"));
        }
        if header.trim_end() != PROOF_HEADER {
            return error(1, format!("expected the header `{PROOF_HEADER}`"));
        }
        let mut tokens = Tokens::new(input, b'%', false);
        tokens.line = 1;
        Ok(ProofReader {
            reader: Reader {
                tokens,
                names,
                peeked: None,
            },
            ended: false,
        })
    }

    /// The variable names seen so far.
    pub fn names(&self) -> &VarNames {
        &self.reader.names
    }

    /// The next step and the line it starts on, or `None` after `end pseudo-Boolean proof`
    /// or at the end of the input.
    pub fn next_step(&mut self) -> Result<Option<(usize, Step)>, VeriPbError> {
        if self.ended {
            return Ok(None);
        }
        let r = &mut self.reader;
        let Some(first) = r.next()? else {
            return Ok(None);
        };
        let line = r.line();
        let word = match first {
            Token::Word(word) => word,
            Token::Literal(lit) => r.names.name(lit.var()).to_string(),
            other => return r.fail(format!("expected a rule, found {}", describe(&other))),
        };
        let step = match word.as_str() {
            "f" => match r.expect_next("a constraint count")? {
                Token::Integer(n) if n >= 0 => Step::Formula(n as u64),
                other => {
                    return r.fail(format!(
                        "expected the formula's constraint count, found {}",
                        describe(&other)
                    ))
                }
            },
            "pol" => Step::Pol(self.pol()?),
            "rup" => {
                let r = &mut self.reader;
                let constraint = r.constraint()?;
                if constraint.relation == Relation::Equal {
                    return r.fail("`rup` takes `>=` or `<=`, not `=`");
                }
                let hints = if r.peek()? == Some(&Token::Colon) {
                    r.peeked = None;
                    let mut hints = Vec::new();
                    loop {
                        match r.peek()? {
                            Some(&Token::Integer(n)) => {
                                let id = r.constraint_id(n)?;
                                hints.push(Hint::Id(id));
                            }
                            Some(Token::Word(w)) if w == "~" => hints.push(Hint::Negation),
                            _ => break,
                        }
                        r.peeked = None;
                    }
                    Some(hints)
                } else {
                    None
                };
                Step::Rup { constraint, hints }
            }
            "pbc" => {
                let r = &mut self.reader;
                let constraint = r.constraint()?;
                if constraint.relation == Relation::Equal {
                    return r.fail("`pbc` takes `>=` or `<=`, not `=`");
                }
                if r.peek()? == Some(&Token::Colon) {
                    r.peeked = None;
                    r.expect_word("subproof")?;
                    return Ok(Some((
                        line,
                        Step::Pbc {
                            constraint,
                            subproof: true,
                        },
                    )));
                }
                Step::Pbc {
                    constraint,
                    subproof: false,
                }
            }
            "red" => self.red()?,
            "qed" => {
                let r = &mut self.reader;
                match r.peek()? {
                    Some(Token::Word(w)) if w == "pbc" => r.peeked = None,
                    Some(Token::Word(_) | Token::Literal(_)) => {
                        return r.fail("only `pbc` subproofs are read");
                    }
                    _ => {}
                }
                let hint = if r.peek()? == Some(&Token::Colon) {
                    r.peeked = None;
                    match r.expect_next("a constraint ID")? {
                        Token::Integer(n) => Some(r.constraint_id(n)?),
                        other => {
                            return r.fail(format!(
                                "expected a constraint ID, found {}",
                                describe(&other)
                            ))
                        }
                    }
                } else {
                    None
                };
                Step::Qed(hint)
            }
            "sol" | "soli" => {
                let r = &mut self.reader;
                let literals = r.literals()?;
                let value = if r.peek()? == Some(&Token::Colon) {
                    r.peeked = None;
                    match r.expect_next("an objective value")? {
                        Token::Integer(n) => Some(n),
                        other => {
                            return r.fail(format!(
                                "expected an objective value, found {}",
                                describe(&other)
                            ))
                        }
                    }
                } else {
                    None
                };
                Step::Solution {
                    literals,
                    improving: word == "soli",
                    value,
                }
            }
            "del" => {
                let r = &mut self.reader;
                match r.expect_next("`id` or `range`")? {
                    Token::Word(w) if w == "id" => {
                        let mut ids = Vec::new();
                        while let Some(Token::Integer(n)) = r.peek()? {
                            let n = *n;
                            r.peeked = None;
                            ids.push(r.constraint_id(n)?);
                        }
                        Step::Delete(ids)
                    }
                    Token::Word(w) if w == "range" => {
                        let mut ends = [ConstraintId::Absolute(1); 2];
                        for end in &mut ends {
                            match r.expect_next("a constraint ID")? {
                                Token::Integer(n) => *end = r.constraint_id(n)?,
                                other => {
                                    return r.fail(format!(
                                        "expected a constraint ID, found {}",
                                        describe(&other)
                                    ))
                                }
                            }
                        }
                        Step::DeleteRange(ends[0], ends[1])
                    }
                    other => {
                        return r.fail(format!(
                            "only `del id` and `del range` are read, not `del {}`",
                            describe(&other).trim_matches('`')
                        ))
                    }
                }
            }
            "output" => {
                self.reader.expect_word("NONE")?;
                Step::OutputNone
            }
            "conclusion" => Step::Conclusion(self.conclusion()?),
            "end" => {
                let r = &mut self.reader;
                r.expect_word("pseudo-Boolean")?;
                r.expect_word("proof")?;
                r.expect(Token::Semicolon, "`;`")?;
                self.ended = true;
                return Ok(Some((line, Step::End)));
            }
            other if other.starts_with('@') => {
                return self.reader.fail("constraint labels (`@name`) are not read")
            }
            other => {
                return self
                    .reader
                    .fail(format!("unknown or unsupported rule `{other}`"))
            }
        };
        self.reader
            .expect(Token::Semicolon, "`;` to end the step")?;
        Ok(Some((line, step)))
    }

    fn pol(&mut self) -> Result<Vec<PolItem>, VeriPbError> {
        let r = &mut self.reader;
        let mut items = Vec::new();
        // An integer or literal waits for the next token: before `*`, `d` or `-` an integer
        // is a factor, before `w` a literal is the variable weakened, else an operand.
        let mut pending: Option<Token> = None;
        let mut depth: i64 = 0;
        loop {
            let token = match r.peek()? {
                Some(Token::Semicolon) | None => break,
                Some(_) => r.next()?.unwrap_or(Token::Semicolon),
            };
            let op = match token {
                Token::Integer(_) | Token::Literal(_) => {
                    if let Some(previous) = pending.replace(token) {
                        items.push(operand(r, previous)?);
                        depth += 1;
                    }
                    continue;
                }
                Token::Word(op) => op,
                other => {
                    return r.fail(format!("unexpected {} in `pol`", describe(&other)));
                }
            };
            let item = match (op.as_str(), pending.take()) {
                ("*" | "d" | "-", Some(Token::Integer(n))) => {
                    let n = r.positive(n, &format!("the operand of `{op}`"))?;
                    match op.as_str() {
                        "*" => PolItem::Multiply(n),
                        "d" => PolItem::Divide(n),
                        _ => PolItem::Decrement(n),
                    }
                }
                ("w", Some(Token::Literal(lit))) if !lit.is_negated() => PolItem::Weaken(lit.var()),
                ("*" | "d" | "-" | "w", _) => {
                    return r.fail(format!(
                        "`{op}` needs a number (a variable for `w`) right before it"
                    ))
                }
                (_, previous) => {
                    if let Some(previous) = previous {
                        items.push(operand(r, previous)?);
                        depth += 1;
                    }
                    let (item, needs) = match op.as_str() {
                        "+" => (PolItem::Add, 2),
                        "s" => (PolItem::Saturate, 1),
                        _ => {
                            return r.fail(format!("unknown or unsupported `pol` operation `{op}`"))
                        }
                    };
                    if depth < needs {
                        return r.fail(format!("`{op}` without enough operands"));
                    }
                    depth -= needs - 1;
                    items.push(item);
                    continue;
                }
            };
            if depth < 1 {
                return r.fail(format!("`{op}` without a constraint to apply it to"));
            }
            items.push(item);
        }
        if let Some(previous) = pending {
            items.push(operand(r, previous)?);
            depth += 1;
        }
        if depth != 1 {
            return r.fail("`pol` must leave exactly one constraint on its stack");
        }
        Ok(items)
    }

    /// `red C : witness`, up to the `;`; a subproof (`: subproof`) is refused.
    fn red(&mut self) -> Result<Step, VeriPbError> {
        let r = &mut self.reader;
        let constraint = r.constraint()?;
        if constraint.relation == Relation::Equal {
            return r.fail("`red` takes `>=` or `<=`, not `=`");
        }
        r.expect(Token::Colon, "`:` and a witness after `red`'s constraint")?;
        let mut witness: Vec<(u32, WitnessValue)> = Vec::new();
        loop {
            let var = match r.peek()? {
                Some(Token::Semicolon) => break,
                Some(Token::Colon) => {
                    return r.fail("`red` with a subproof is not read: give the witness alone")
                }
                Some(&Token::Literal(lit)) if !lit.is_negated() => lit.var(),
                Some(other) => {
                    let found = describe(other);
                    return r.fail(format!(
                        "expected a variable of `red`'s witness, found {found}"
                    ));
                }
                None => return r.fail("the file ends inside `red`'s witness"),
            };
            r.peeked = None;
            if witness.iter().any(|&(v, _)| v == var) {
                let name = r.names.name(var).to_string();
                return r.fail(format!("`red`'s witness maps {name} twice"));
            }
            let mut value = r.expect_next("what the witness maps a variable to")?;
            if value == Token::Word("->".into()) {
                value = r.expect_next("what the witness maps a variable to")?;
            }
            let value = match value {
                Token::Integer(0) => WitnessValue::Constant(false),
                Token::Integer(1) => WitnessValue::Constant(true),
                Token::Literal(lit) => WitnessValue::Literal(lit),
                other => {
                    return r.fail(format!(
                        "a witness maps a variable to `0`, `1` or a literal, not {}",
                        describe(&other)
                    ))
                }
            };
            witness.push((var, value));
        }
        Ok(Step::Red {
            constraint,
            witness,
        })
    }

    fn conclusion(&mut self) -> Result<Conclusion, VeriPbError> {
        let r = &mut self.reader;
        let kind = match r.expect_next("a conclusion")? {
            Token::Word(w) => w,
            other => return r.fail(format!("expected a conclusion, found {}", describe(&other))),
        };
        let hint_id = |r: &mut Reader<R>| -> Result<Option<ConstraintId>, VeriPbError> {
            if r.peek()? != Some(&Token::Colon) {
                return Ok(None);
            }
            r.peeked = None;
            match r.expect_next("a constraint ID")? {
                Token::Integer(n) => Ok(Some(r.constraint_id(n)?)),
                other => r.fail(format!(
                    "expected a constraint ID, found {}",
                    describe(&other)
                )),
            }
        };
        let solution = |r: &mut Reader<R>| -> Result<Option<Vec<Lit>>, VeriPbError> {
            if r.peek()? != Some(&Token::Colon) {
                return Ok(None);
            }
            r.peeked = None;
            Ok(Some(r.literals()?))
        };
        let bound = |r: &mut Reader<R>| -> Result<Option<i64>, VeriPbError> {
            match r.expect_next("a bound")? {
                Token::Integer(n) => Ok(Some(n)),
                Token::Word(w) if w == "INF" => Ok(None),
                other => r.fail(format!(
                    "expected an integer or `INF` bound, found {}",
                    describe(&other)
                )),
            }
        };
        Ok(match kind.as_str() {
            "NONE" => Conclusion::None,
            "SAT" => Conclusion::Sat(solution(r)?),
            "UNSAT" => Conclusion::Unsat(hint_id(r)?),
            "BOUNDS" => {
                let lower = bound(r)?;
                let lower_hint = hint_id(r)?;
                let upper = bound(r)?;
                Conclusion::Bounds {
                    lower,
                    lower_hint,
                    upper,
                    solution: solution(r)?,
                }
            }
            other => return r.fail(format!("unknown conclusion `{other}`")),
        })
    }
}

fn operand<R: BufRead>(r: &Reader<R>, token: Token) -> Result<PolItem, VeriPbError> {
    match token {
        Token::Integer(n) => Ok(PolItem::Id(r.constraint_id(n)?)),
        Token::Literal(lit) => Ok(PolItem::Axiom(lit)),
        other => r.fail(format!(
            "expected a `pol` operand, found {}",
            describe(&other)
        )),
    }
}

// ---------------------------------------------------------------------------------------
// Writing

/// Appends the decimal digits of `n`, as `write!` prints them (a search writing its proof
/// prints hundreds of millions of numbers, and `core::fmt` was a fifth of its time).
pub fn push_uint(out: &mut String, n: u64) {
    // SAFETY: only ASCII digits are appended, so the string stays UTF-8.
    push_uint_bytes(unsafe { out.as_mut_vec() }, n);
}

/// [`push_uint`] into bytes. Up to eight digits are built in a register and appended as
/// one 8-byte block, the unused bytes cut off: digits written one pair at a time to a
/// buffer and then copied out as a block stalled the copy on every number (the wide load
/// cannot take its bytes from the narrow stores still in flight), a sixth of a
/// proof-writing search's time. Not recursive, so that it inlines where IDs are written.
#[inline]
fn push_uint_bytes(out: &mut Vec<u8>, n: u64) {
    if n >= EIGHT_DIGITS {
        push_long_uint_bytes(out, n);
        return;
    }
    let digits = eight_digits(n as u32);
    // The leading zeros are the low bytes, each `b'0'`: with the zeros' code taken off
    // every byte, they are the word's trailing zero bytes (at least one digit is kept).
    let leading = ((digits - ZEROS).trailing_zeros() / 8).min(7) as usize;
    let len = out.len();
    out.extend_from_slice(&(digits >> (8 * leading)).to_le_bytes());
    out.truncate(len + 8 - leading);
}

/// A space, then [`push_uint_bytes`]: with one reserve and one block copy for the
/// numbers below 10^8 (the constraint IDs of nearly every proof).
#[inline]
fn push_spaced_uint_bytes(out: &mut Vec<u8>, n: u64) {
    if n >= EIGHT_DIGITS {
        out.push(b' ');
        push_long_uint_bytes(out, n);
        return;
    }
    let digits = eight_digits(n as u32);
    let leading = ((digits - ZEROS).trailing_zeros() / 8).min(7) as usize;
    out.reserve(9);
    let len = out.len();
    // SAFETY: the capacity holds `len + 9` bytes: the space and the eight-byte block; the
    // new length keeps the space and the `8 - leading` digits, all written.
    unsafe {
        let end = out.as_mut_ptr().add(len);
        end.write(b' ');
        end.add(1)
            .cast::<[u8; 8]>()
            .write_unaligned((digits >> (8 * leading)).to_le_bytes());
        out.set_len(len + 9 - leading);
    }
}

/// 10^8: the numbers [`eight_digits`] takes.
const EIGHT_DIGITS: u64 = 100_000_000;

/// `b'0'` in every byte of a word.
const ZEROS: u64 = 0x3030_3030_3030_3030;

/// [`push_uint_bytes`] of a number of nine digits or more (at most twenty).
#[cold]
#[inline(never)]
fn push_long_uint_bytes(out: &mut Vec<u8>, n: u64) {
    let high = n / EIGHT_DIGITS;
    if high >= EIGHT_DIGITS {
        push_uint_bytes(out, high / EIGHT_DIGITS);
        out.extend_from_slice(&eight_digits((high % EIGHT_DIGITS) as u32).to_le_bytes());
    } else {
        push_uint_bytes(out, high);
    }
    out.extend_from_slice(&eight_digits((n % EIGHT_DIGITS) as u32).to_le_bytes());
}

/// The eight decimal digits of `n < 10^8`, leading zeros included, as the bytes of a
/// little-endian word: the first digit in the lowest byte. By lanes of one word, with
/// multiplications for the divisions: the two halves of four digits in 32-bit lanes (the
/// first half low), each split into pairs of digits in 16-bit lanes (`x / 100` as
/// `x * 10486 >> 20`, exact below 10^4), each pair into digits in bytes (`x / 10` as
/// `x * 103 >> 10`, exact below 100).
#[inline]
fn eight_digits(n: u32) -> u64 {
    debug_assert!(u64::from(n) < EIGHT_DIGITS);
    let halves = u64::from(n / 10_000) | u64::from(n % 10_000) << 32;
    let hundreds = ((halves * 10_486) >> 20) & 0x0000_007f_0000_007f;
    let pairs = hundreds | (halves - hundreds * 100) << 16;
    let tens = ((pairs * 103) >> 10) & 0x000f_000f_000f_000f;
    let digits = tens | (pairs - tens * 10) << 8;
    digits | ZEROS
}

/// [`push_uint`] for a signed number.
pub fn push_int(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    push_uint(out, n.unsigned_abs());
}

fn push_terms(out: &mut String, terms: &[(i64, Lit)], names: &VarNames) {
    // SAFETY: only ASCII and whole names (UTF-8) are appended.
    let out = unsafe { out.as_mut_vec() };
    for &(coefficient, lit) in terms {
        // Definitions and at-most-ones are mostly sums of literals: `1 lit ` in one go.
        if coefficient == 1 {
            names.push_unit_term_bytes(out, lit);
            continue;
        }
        if coefficient < 0 {
            out.push(b'-');
        }
        push_uint_bytes(out, coefficient.unsigned_abs());
        out.push(b' ');
        if lit.is_negated() {
            out.push(b'~');
        }
        names.push_name_bytes(out, lit.var());
        out.push(b' ');
    }
}

/// Appends the line of a hinted clause `rup`, `rup 1 l1 1 l2 .. >= 1 : h1 h2 .. ;` (the
/// hints absolute IDs): the line [`push_step`] writes for the [`Step::Rup`] of that clause,
/// as bytes ([`LineWriter::put_bytes`]), for writers that derive millions of clauses and
/// keep their literals and hints in buffers of their own.
pub fn push_clause_rup(
    out: &mut Vec<u8>,
    literals: impl IntoIterator<Item = Lit>,
    hints: impl IntoIterator<Item = u64>,
    names: &VarNames,
) {
    out.extend_from_slice(b"rup ");
    for lit in literals {
        names.push_unit_term_bytes(out, lit);
    }
    out.extend_from_slice(b">= 1 :");
    for id in hints {
        push_spaced_uint_bytes(out, id);
    }
    out.extend_from_slice(b" ;\n");
}

/// `pol` and its items, as [`push_step`] writes a [`Step::Pol`] (without the newline).
fn push_pol_items(out: &mut Vec<u8>, items: &[PolItem], names: &VarNames) {
    out.extend_from_slice(b"pol");
    for item in items {
        if let PolItem::Id(ConstraintId::Absolute(n)) = *item {
            push_spaced_uint_bytes(out, n);
            continue;
        }
        out.push(b' ');
        match *item {
            PolItem::Id(ConstraintId::Absolute(n)) => push_uint_bytes(out, n),
            PolItem::Id(ConstraintId::Back(n)) => {
                out.push(b'-');
                push_uint_bytes(out, n);
            }
            PolItem::Axiom(lit) => {
                if lit.is_negated() {
                    out.push(b'~');
                }
                names.push_name_bytes(out, lit.var());
            }
            PolItem::Add => out.push(b'+'),
            PolItem::Multiply(k) => {
                push_uint_bytes(out, k);
                out.extend_from_slice(b" *");
            }
            PolItem::Divide(k) => {
                push_uint_bytes(out, k);
                out.extend_from_slice(b" d");
            }
            PolItem::Decrement(k) => {
                push_uint_bytes(out, k);
                out.extend_from_slice(b" -");
            }
            PolItem::Saturate => out.push(b's'),
            PolItem::Weaken(var) => {
                names.push_name_bytes(out, var);
                out.extend_from_slice(b" w");
            }
        }
    }
    out.extend_from_slice(b" ;");
}

/// Appends the line of the [`Step::Pol`] of `items`, as bytes: what [`push_step`] writes,
/// for writers that keep their own buffers ([`LineWriter::put_bytes`]).
pub fn push_pol(out: &mut Vec<u8>, items: &[PolItem], names: &VarNames) {
    push_pol_items(out, items, names);
    out.push(b'\n');
}

/// Appends the line of the [`Step::Pol`] that adds the constraints of the absolute IDs
/// `ids` (at least one), `pol a b + c + .. ;`, as bytes: [`push_clause_rup`]'s path for
/// the sums a proof-writing search derives by the million.
pub fn push_pol_sum(out: &mut Vec<u8>, ids: impl IntoIterator<Item = u64>) {
    out.extend_from_slice(b"pol");
    for (k, id) in ids.into_iter().enumerate() {
        push_spaced_uint_bytes(out, id);
        if k > 0 {
            out.extend_from_slice(b" +");
        }
    }
    out.extend_from_slice(b" ;\n");
}

/// Appends the line of [`Step::Delete`] of the absolute IDs `ids` (`del id .. ;`), as
/// bytes.
pub fn push_delete(out: &mut Vec<u8>, ids: impl IntoIterator<Item = u64>) {
    out.extend_from_slice(b"del id");
    for id in ids {
        push_spaced_uint_bytes(out, id);
    }
    out.extend_from_slice(b" ;\n");
}

/// Appends `constraint` as a proof or OPB file writes it (without the `;`).
pub fn push_constraint(out: &mut String, constraint: &Constraint, names: &VarNames) {
    push_terms(out, &constraint.terms, names);
    let relation = match constraint.relation {
        Relation::AtLeast => ">=",
        Relation::AtMost => "<=",
        Relation::Equal => "=",
    };
    out.push_str(relation);
    out.push(' ');
    push_int(out, constraint.rhs);
}

fn push_id(out: &mut String, id: ConstraintId) {
    match id {
        ConstraintId::Absolute(n) => push_uint(out, n),
        ConstraintId::Back(n) => {
            out.push('-');
            push_uint(out, n);
        }
    }
}

fn push_literals(out: &mut String, literals: &[Lit], names: &VarNames) {
    for (i, &lit) in literals.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        names.push_literal(out, lit);
    }
}

/// Appends the line of `step` (ending in a newline).
pub fn push_step(out: &mut String, step: &Step, names: &VarNames) {
    match step {
        Step::Formula(n) => {
            let _ = write!(out, "f {n} ;");
        }
        Step::Pol(items) => {
            // SAFETY: only ASCII and whole names (UTF-8) are appended.
            push_pol_items(unsafe { out.as_mut_vec() }, items, names);
        }
        Step::Rup { constraint, hints } => {
            out.push_str("rup ");
            push_constraint(out, constraint, names);
            if let Some(hints) = hints {
                out.push_str(" :");
                for hint in hints {
                    out.push(' ');
                    match *hint {
                        Hint::Negation => out.push('~'),
                        Hint::Id(id) => push_id(out, id),
                    }
                }
            }
            out.push_str(" ;");
        }
        Step::Pbc {
            constraint,
            subproof,
        } => {
            out.push_str("pbc ");
            push_constraint(out, constraint, names);
            out.push_str(if *subproof { " : subproof" } else { " ;" });
        }
        Step::Red {
            constraint,
            witness,
        } => {
            out.push_str("red ");
            push_constraint(out, constraint, names);
            out.push_str(" :");
            for &(var, value) in witness {
                let _ = write!(out, " {} -> ", names.name(var));
                match value {
                    WitnessValue::Constant(value) => out.push(if value { '1' } else { '0' }),
                    WitnessValue::Literal(lit) => names.push_literal(out, lit),
                }
            }
            out.push_str(" ;");
        }
        Step::Qed(hint) => {
            out.push_str("qed pbc");
            if let Some(id) = hint {
                out.push_str(" : ");
                push_id(out, *id);
            }
            out.push_str(" ;");
        }
        Step::Solution {
            literals,
            improving,
            value,
        } => {
            out.push_str(if *improving { "soli" } else { "sol" });
            if !literals.is_empty() {
                out.push(' ');
                push_literals(out, literals, names);
            }
            if let Some(value) = value {
                let _ = write!(out, " : {value}");
            }
            out.push_str(" ;");
        }
        Step::Delete(ids) => {
            out.push_str("del id");
            for &id in ids {
                out.push(' ');
                push_id(out, id);
            }
            out.push_str(" ;");
        }
        Step::DeleteRange(from, to) => {
            out.push_str("del range ");
            push_id(out, *from);
            out.push(' ');
            push_id(out, *to);
            out.push_str(" ;");
        }
        Step::OutputNone => out.push_str("output NONE ;"),
        Step::Conclusion(conclusion) => {
            out.push_str("conclusion ");
            let push_solution = |out: &mut String, solution: &Option<Vec<Lit>>| {
                if let Some(literals) = solution {
                    out.push_str(" : ");
                    push_literals(out, literals, names);
                }
            };
            let push_bound = |out: &mut String, bound: Option<i64>| {
                let _ = match bound {
                    Some(b) => write!(out, "{b}"),
                    None => write!(out, "INF"),
                };
            };
            match conclusion {
                Conclusion::None => out.push_str("NONE"),
                Conclusion::Sat(solution) => {
                    out.push_str("SAT");
                    push_solution(out, solution);
                }
                Conclusion::Unsat(hint) => {
                    out.push_str("UNSAT");
                    if let Some(id) = hint {
                        out.push_str(" : ");
                        push_id(out, *id);
                    }
                }
                Conclusion::Bounds {
                    lower,
                    lower_hint,
                    upper,
                    solution,
                } => {
                    out.push_str("BOUNDS ");
                    push_bound(out, *lower);
                    if let Some(id) = lower_hint {
                        out.push_str(" : ");
                        push_id(out, *id);
                    }
                    out.push(' ');
                    push_bound(out, *upper);
                    push_solution(out, solution);
                }
            }
            out.push_str(" ;");
        }
        Step::End => out.push_str("end pseudo-Boolean proof ;"),
    }
    out.push('\n');
}

/// Writes `file` as an OPB file.
pub fn write_opb(file: &OpbFile, out: &mut LineWriter<'_>) -> Result<(), WriteError> {
    out.put(|l| {
        let _ = writeln!(
            l,
            "* #variable= {} #constraint= {}",
            file.declared_variables.max(file.names.len()),
            file.constraints.len()
        );
    })?;
    if let Some(objective) = &file.objective {
        out.put(|l| {
            l.push_str("min: ");
            push_terms(l, &objective.terms, &file.names);
            if objective.constant != 0 || objective.terms.is_empty() {
                let _ = write!(l, "{} ", objective.constant);
            }
            l.push_str(";\n");
        })?;
    }
    for constraint in &file.constraints {
        out.put(|l| {
            push_constraint(l, constraint, &file.names);
            l.push_str(" ;\n");
        })?;
    }
    Ok(())
}

/// Writes a proof step by step and counts constraint IDs as the checker does, so that the
/// writer of a proof learns each new constraint's ID from the step that made it.
pub struct ProofWriter<'a> {
    out: LineWriter<'a>,
    names: &'a VarNames,
    next_id: u64,
}

impl<'a> ProofWriter<'a> {
    /// A proof into `out` over the formula with `formula_ids` constraint IDs and variable
    /// `names`; writes the header and `f formula_ids ;`.
    pub fn new(
        out: LineWriter<'a>,
        names: &'a VarNames,
        formula_ids: u64,
    ) -> Result<ProofWriter<'a>, WriteError> {
        let mut writer = ProofWriter {
            out,
            names,
            next_id: formula_ids + 1,
        };
        writer.out.put(|l| {
            l.push_str(PROOF_HEADER);
            l.push('\n');
        })?;
        writer.step(&Step::Formula(formula_ids))?;
        Ok(writer)
    }

    /// The ID the next new constraint gets.
    pub fn next_id(&self) -> u64 {
        self.next_id
    }

    /// Writes `step`; returns the ID of the constraint it adds (for `pbc ... : subproof`,
    /// the negated constraint the subproof starts from), if any.
    pub fn step(&mut self, step: &Step) -> Result<Option<u64>, WriteError> {
        let names = self.names;
        self.out.put(|l| push_step(l, step, names))?;
        let adds = match step {
            Step::Pol(_)
            | Step::Rup { .. }
            | Step::Pbc { .. }
            | Step::Red { .. }
            | Step::Qed(_) => true,
            Step::Solution { improving, .. } => *improving,
            _ => false,
        };
        Ok(adds.then(|| {
            self.next_id += 1;
            self.next_id - 1
        }))
    }

    /// Flushes the proof; the last error or stop, if any.
    pub fn finish(self) -> Result<(), WriteError> {
        self.out.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_steps(text: &str, names: VarNames) -> Result<Vec<Step>, VeriPbError> {
        let mut reader = ProofReader::new(text.as_bytes(), names)?;
        let mut steps = Vec::new();
        while let Some((_, step)) = reader.next_step()? {
            steps.push(step);
        }
        Ok(steps)
    }

    const OPB: &str = "* #variable= 3 #constraint= 3\n\
        min: -1 x1 -2 x2 +3 ~x3 5 ;\n\
        * a comment\n\
        -1 x1 -1 x2 >= -1 ;\n\
        1 x1 1 ~x3 = 1 ;\n\
        2 x2 3 x3 <= 4 ;\n";

    #[test]
    fn an_opb_file_reads_and_writes_back_the_same() {
        let file = read_opb(OPB.as_bytes()).unwrap();
        assert_eq!(file.declared_variables, 3);
        assert_eq!(file.constraints.len(), 3);
        assert_eq!(file.constraint_ids(), 4);
        let objective = file.objective.as_ref().unwrap();
        assert_eq!(objective.constant, 5);
        assert_eq!(objective.terms[2], (3, Lit::new(2, true)));
        assert_eq!(file.constraints[1].relation, Relation::Equal);
        assert_eq!(file.constraints[2].relation, Relation::AtMost);
        let mut text = Vec::new();
        let mut out = LineWriter::new(&mut text, &|| false);
        write_opb(&file, &mut out).unwrap();
        out.finish().unwrap();
        let again = read_opb(text.as_slice()).unwrap();
        assert_eq!(again.objective, file.objective);
        assert_eq!(again.constraints, file.constraints);
    }

    #[test]
    fn bad_opb_files_are_refused_with_their_line() {
        let missing_header = read_opb("1 x1 >= 1 ;\n".as_bytes()).unwrap_err();
        assert_eq!(missing_header.line, 1);
        let wrong_count = "* #variable= 1 #constraint= 2\n1 x1 >= 1 ;\n";
        assert!(read_opb(wrong_count.as_bytes())
            .unwrap_err()
            .message
            .contains("2 constraints"));
        let no_literal = "* #variable= 1 #constraint= 1\n1 x1 >= 1 ;\n1 2 >= 1 ;\n";
        assert_eq!(read_opb(no_literal.as_bytes()).unwrap_err().line, 3);
        let overflow = "* #variable= 1 #constraint= 1\n99999999999999999999 x1 >= 1 ;\n";
        assert!(read_opb(overflow.as_bytes())
            .unwrap_err()
            .message
            .contains("64 bits"));
    }

    #[test]
    fn numbers_clause_rups_and_deletions_write_as_their_steps_do() {
        for n in [0, 7, 10, 99, 1_000_000_007, u64::MAX] {
            let mut out = String::new();
            push_uint(&mut out, n);
            assert_eq!(out, n.to_string());
        }
        // Every digit count, each side of the eight-digit block, and after other text.
        let mut numbers = vec![0, u64::MAX, u64::MAX - 1];
        for d in 0..20 {
            let p = 10u64.pow(d);
            numbers.extend([
                p - 1,
                p,
                p + 1,
                p.saturating_mul(7),
                p.saturating_mul(9) - 3,
            ]);
        }
        // The lanes' divisions: every half of four digits, and a stride through 10^8.
        for n in (0..10_000).chain((0..100_000_000).step_by(9_973)) {
            let digits = eight_digits(n).to_le_bytes();
            assert_eq!(digits, format!("{n:08}").as_bytes(), "{n}");
        }
        for n in numbers {
            let mut out = b"id ".to_vec();
            push_uint_bytes(&mut out, n);
            assert_eq!(String::from_utf8(out).unwrap(), format!("id {n}"));
        }
        for n in [i64::MIN, -1, 0, 42, i64::MAX] {
            let mut out = String::new();
            push_int(&mut out, n);
            assert_eq!(out, n.to_string());
        }
        // A clause's `rup` by the byte path and by the general one.
        let rup_both_ways = |names: &VarNames, lits: &[Lit], ids: &[u64]| {
            let mut fast = Vec::new();
            push_clause_rup(&mut fast, lits.iter().copied(), ids.iter().copied(), names);
            let mut general = String::new();
            let step = Step::Rup {
                constraint: Constraint {
                    terms: lits.iter().map(|&l| (1, l)).collect(),
                    relation: Relation::AtLeast,
                    rhs: 1,
                },
                hints: Some(
                    ids.iter()
                        .map(|&id| Hint::Id(ConstraintId::Absolute(id)))
                        .collect(),
                ),
            };
            push_step(&mut general, &step, names);
            (String::from_utf8(fast).unwrap(), general)
        };
        let mut names = VarNames::numbered(2);
        names.intern("e3_4");
        let (fast, general) = rup_both_ways(
            &names,
            &[Lit::new(2, true), Lit::new(0, false)],
            &[12, 7, 30],
        );
        assert_eq!(fast, "rup 1 ~e3_4 1 x1 >= 1 : 12 7 30 ;\n");
        assert_eq!(fast, general);
        // Names longer than the padded block, either sign; IDs of every length class.
        let long = names.intern("a_name_of_twenty_one");
        let lits = [
            Lit::new(long, true),
            Lit::new(long, false),
            Lit::new(2, false),
        ];
        let ids = [0, 99_999_999, 100_000_000, 123_456_789_012, u64::MAX];
        let (fast, general) = rup_both_ways(&names, &lits, &ids);
        assert_eq!(fast, general);
        let (mut fast, mut general) = (Vec::new(), String::new());
        push_delete(&mut fast, [5, 9]);
        let fast = String::from_utf8(fast).unwrap();
        let ids = vec![ConstraintId::Absolute(5), ConstraintId::Absolute(9)];
        push_step(&mut general, &Step::Delete(ids), &names);
        assert_eq!(fast, "del id 5 9 ;\n");
        assert_eq!(fast, general);
        for ids in [vec![4], vec![3, 123_456_789_012, 7]] {
            let (mut fast, mut general) = (Vec::new(), String::new());
            push_pol_sum(&mut fast, ids.iter().copied());
            let fast = String::from_utf8(fast).unwrap();
            let mut items = vec![PolItem::Id(ConstraintId::Absolute(ids[0]))];
            for &id in &ids[1..] {
                items.extend([PolItem::Id(ConstraintId::Absolute(id)), PolItem::Add]);
            }
            push_step(&mut general, &Step::Pol(items.clone()), &names);
            assert_eq!(fast, general);
            let mut fast = Vec::new();
            push_pol(&mut fast, &items, &names);
            assert_eq!(String::from_utf8(fast).unwrap(), general);
        }
    }

    #[test]
    fn every_step_writes_and_reads_back_the_same() {
        let mut names = VarNames::numbered(3);
        names.intern("cell_a[1]");
        let x = |i: u32, neg: bool| Lit::new(i, neg);
        let constraint = Constraint {
            terms: vec![(1, x(0, true)), (-2, x(3, false))],
            relation: Relation::AtLeast,
            rhs: -1,
        };
        let steps = vec![
            Step::Formula(4),
            Step::Pol(vec![
                PolItem::Id(ConstraintId::Absolute(1)),
                PolItem::Id(ConstraintId::Back(2)),
                PolItem::Add,
                PolItem::Multiply(3),
                PolItem::Axiom(x(1, true)),
                PolItem::Add,
                PolItem::Divide(2),
                PolItem::Saturate,
                PolItem::Weaken(2),
                PolItem::Decrement(1),
            ]),
            Step::Rup {
                constraint: constraint.clone(),
                hints: None,
            },
            Step::Rup {
                constraint: Constraint {
                    terms: vec![],
                    relation: Relation::AtLeast,
                    rhs: 1,
                },
                hints: Some(vec![
                    Hint::Id(ConstraintId::Absolute(3)),
                    Hint::Negation,
                    Hint::Id(ConstraintId::Back(1)),
                ]),
            },
            Step::Pbc {
                constraint: constraint.clone(),
                subproof: true,
            },
            Step::Qed(Some(ConstraintId::Absolute(9))),
            Step::Qed(None),
            Step::Red {
                constraint: constraint.clone(),
                witness: vec![
                    (3, WitnessValue::Constant(false)),
                    (0, WitnessValue::Literal(x(2, true))),
                    (1, WitnessValue::Literal(x(3, false))),
                    (2, WitnessValue::Constant(true)),
                ],
            },
            Step::Red {
                constraint: constraint.clone(),
                witness: vec![],
            },
            Step::Pbc {
                constraint: Constraint {
                    relation: Relation::AtMost,
                    ..constraint
                },
                subproof: false,
            },
            Step::Solution {
                literals: vec![x(0, false), x(1, true)],
                improving: false,
                value: None,
            },
            Step::Solution {
                literals: vec![x(2, false)],
                improving: true,
                value: Some(-3),
            },
            Step::Delete(vec![ConstraintId::Absolute(5), ConstraintId::Back(1)]),
            Step::DeleteRange(ConstraintId::Absolute(2), ConstraintId::Absolute(4)),
            Step::OutputNone,
            Step::Conclusion(Conclusion::Bounds {
                lower: Some(-4),
                lower_hint: Some(ConstraintId::Absolute(17)),
                upper: Some(-4),
                solution: Some(vec![x(0, true), x(3, false)]),
            }),
            Step::Conclusion(Conclusion::Bounds {
                lower: None,
                lower_hint: None,
                upper: None,
                solution: None,
            }),
            Step::Conclusion(Conclusion::Unsat(Some(ConstraintId::Back(1)))),
            Step::Conclusion(Conclusion::Sat(None)),
            Step::Conclusion(Conclusion::None),
        ];
        let mut text = format!("{PROOF_HEADER}\n");
        for step in &steps {
            push_step(&mut text, step, &names);
        }
        push_step(&mut text, &Step::End, &names);
        let mut read = read_steps(&text, names).unwrap();
        assert_eq!(read.pop(), Some(Step::End));
        assert_eq!(read, steps, "{text}");
    }

    #[test]
    fn the_grammar_allows_glued_tokens_comments_and_steps_over_several_lines() {
        let text = "pseudo-Boolean proof version 3.0\n\
            % a comment\n\
            rup 1 x1 1 ~x2>=1: 1 2;pol 1\n 2 + % trailing comment\n ;\n\
            rup >= 1 ;\n\
            end pseudo-Boolean proof;\n\
            anything after the end is not read\n";
        let steps = read_steps(text, VarNames::numbered(2)).unwrap();
        assert_eq!(steps.len(), 4);
        assert!(matches!(&steps[0], Step::Rup { constraint, hints: Some(h) }
            if constraint.terms.len() == 2 && constraint.rhs == 1 && h.len() == 2));
        assert_eq!(
            steps[1],
            Step::Pol(vec![
                PolItem::Id(ConstraintId::Absolute(1)),
                PolItem::Id(ConstraintId::Absolute(2)),
                PolItem::Add
            ])
        );
    }

    #[test]
    fn red_reads_with_or_without_arrows_and_names_new_variables() {
        let text = "pseudo-Boolean proof version 3.0\n\
            red 1 ~r1 1 x1 >= 1 : r1 -> 0 ;\n\
            red 3 u1 1 ~x1 1 ~x2 1 ~x3 >= 3 : u1 -> 1 ;\n\
            red 1 a-b 1 x2 >= 1 : a-b -> ~x3 x2 x3 ;\n\
            end pseudo-Boolean proof ;\n";
        let mut reader = ProofReader::new(text.as_bytes(), VarNames::numbered(3)).unwrap();
        let mut steps = Vec::new();
        while let Some((_, step)) = reader.next_step().unwrap() {
            steps.push(step);
        }
        let names = reader.names();
        assert_eq!(names.len(), 6, "r1, u1 and a-b are new");
        let var = |name: &str| names.find(name).unwrap();
        let witness = |step: &Step| match step {
            Step::Red { witness, .. } => witness.clone(),
            other => panic!("not red: {other:?}"),
        };
        assert_eq!(
            witness(&steps[0]),
            vec![(var("r1"), WitnessValue::Constant(false))]
        );
        assert!(matches!(&steps[1], Step::Red { constraint, .. }
            if constraint.rhs == 3 && constraint.terms[0] == (3, Lit::new(var("u1"), false))));
        assert_eq!(
            witness(&steps[2]),
            vec![
                (var("a-b"), WitnessValue::Literal(Lit::new(var("x3"), true))),
                (var("x2"), WitnessValue::Literal(Lit::new(var("x3"), false))),
            ]
        );
        let mut written = String::new();
        push_step(&mut written, &steps[2], names);
        assert_eq!(written, "red 1 a-b 1 x2 >= 1 : a-b -> ~x3 x2 -> x3 ;\n");
    }

    #[test]
    fn malformed_steps_are_refused_with_their_line() {
        let bad = |body: &str| {
            let text = format!("{PROOF_HEADER}\nf 1 ;\n{body}\n");
            read_steps(&text, VarNames::numbered(2)).unwrap_err()
        };
        assert_eq!(bad("pol 1 + ;").line, 3);
        assert!(bad("pol 1 2 ;").message.contains("exactly one"));
        assert!(bad("pol 1 0 * ;").message.contains("positive"));
        assert!(bad("rup 1 x1 >= 1").message.contains("ends"));
        let subproof = bad("red 1 x1 >= 1 : x1 -> 1 : subproof");
        assert_eq!(subproof.line, 3);
        assert!(
            subproof
                .message
                .contains("`red` with a subproof is not read"),
            "{subproof}"
        );
        assert!(bad("red 1 x1 >= 1 : ~x1 -> 1 ;")
            .message
            .contains("variable"));
        assert!(bad("red 1 x1 >= 1 : x1 -> 2 ;")
            .message
            .contains("`0`, `1`"));
        assert!(bad("red 1 x1 >= 1 : x1 -> 1 x1 0 ;")
            .message
            .contains("twice"));
        assert!(bad("red 1 x1 >= 1 ;").message.contains("witness"));
        assert!(bad("red 1 x1 = 1 : x1 -> 1 ;").message.contains("not `=`"));
        assert!(bad("@l rup 1 x1 >= 1 ;").message.contains("label"));
        assert!(bad("qed red ;").message.contains("pbc"));
        assert!(bad("rup 1 x1 = 1 ;").message.contains("not `=`"));
        assert!(bad("del spec 1 x1 >= 1 ;").message.contains("del spec"));
        let no_header = read_steps("pseudo-Boolean proof version 2.0\n", VarNames::default());
        assert_eq!(no_header.unwrap_err().line, 1);
    }

    #[test]
    fn the_writer_counts_ids_as_the_checker_does() {
        let names = VarNames::numbered(2);
        let mut text = Vec::new();
        let lines = LineWriter::new(&mut text, &|| false);
        let mut writer = ProofWriter::new(lines, &names, 3).unwrap();
        let clause = Constraint {
            terms: vec![(1, Lit::new(0, false))],
            relation: Relation::AtLeast,
            rhs: 1,
        };
        let pbc = Step::Pbc {
            constraint: clause.clone(),
            subproof: true,
        };
        assert_eq!(writer.step(&pbc).unwrap(), Some(4));
        let pol = Step::Pol(vec![PolItem::Id(ConstraintId::Absolute(1))]);
        assert_eq!(writer.step(&pol).unwrap(), Some(5));
        assert_eq!(writer.step(&Step::Qed(None)).unwrap(), Some(6));
        let red = Step::Red {
            constraint: clause.clone(),
            witness: vec![(0, WitnessValue::Constant(true))],
        };
        assert_eq!(writer.step(&red).unwrap(), Some(7));
        assert_eq!(writer.step(&Step::OutputNone).unwrap(), None);
        assert_eq!(writer.next_id(), 8);
        writer.finish().unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(
            text.starts_with("pseudo-Boolean proof version 3.0\nf 3 ;\npbc 1 x1 >= 1 : subproof\n")
        );
        assert!(text.contains("\nred 1 x1 >= 1 : x1 -> 1 ;\n"), "{text}");
    }
}
