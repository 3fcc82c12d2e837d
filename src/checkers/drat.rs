//! A DRAT proof checker of our own: backward checking with core marking over two-watched-literal
//! unit propagation, for proofs in text or binary DRAT.
//!
//! # What is checked
//!
//! [`check_drat`] takes a formula (clauses of DIMACS literals over variables `1..=num_vars`) and a
//! DRAT proof, a sequence of steps:
//!
//! * a **lemma addition** adds a clause. It must be implied by the clauses active at that point,
//!   either by *reverse unit propagation* (RUP: assigning the negation of every literal of the
//!   lemma and propagating units reaches a conflict) or by the *resolution asymmetric tautology*
//!   property on the lemma's **first** literal, the pivot `p` (RAT: for every active clause `D`
//!   that contains `-p`, the resolvent `lemma ∪ (D \ {-p})` is RUP). Lemmas may use variables
//!   above `num_vars` (extension variables introduced by RAT steps);
//! * a **deletion** removes one active copy of a clause with the same set of literals.
//!
//! Literal order inside a clause does not matter except for the pivot, and duplicate literals are
//! ignored. A clause containing a literal and its negation (a tautology) is always satisfied: it is
//! never watched and never a RAT candidate.
//!
//! # Semantics decisions
//!
//! These follow the default mode of drat-trim, except where noted.
//!
//! * **Unit deletions are ignored.** Deleting a clause that is the reason of a literal assigned by
//!   top-level unit propagation at that point of the proof is ignored (the clause stays active and
//!   counts in [`DratSummary::ignored_unit_deletions`]). This is the "operational" reading of DRAT
//!   that drat-trim and most solvers use. When several active copies of the clause exist, a copy
//!   that is not a reason is deleted instead, so the deletion then takes effect.
//! * **Deleting an absent clause is a warning**, as in drat-trim: the step is ignored and counted
//!   in [`DratSummary::missing_deletions`].
//! * **The empty clause must be explicit.** Checking stops at the first point where unit
//!   propagation on the active clauses (formula plus lemmas, minus deletions) reaches a conflict,
//!   as in drat-trim; steps after that point are parsed but not checked. Unlike drat-trim, the proof
//!   must also contain an explicit empty-clause addition (a text line `0`, binary `a 0x00`) at or
//!   after that point, so that a truncated proof is rejected even when its last lemma happens to
//!   complete the refutation. An explicit empty clause that comes before that point is rejected, as
//!   it is not RUP there (unit propagation finds no conflict yet). This also holds when the
//!   formula alone is refuted by unit propagation, and when the formula itself contains the empty
//!   clause: the proof must still contain `0`, so that every accepted proof is one that ends by
//!   deriving the empty clause, as drat-trim and lrat-check expect.
//! * **Only lemmas in the core are checked** (backward checking): the lemmas that the final
//!   conflict depends on, and recursively the lemmas that the RUP/RAT checks of those lemmas depend
//!   on. A lemma that no checked step uses is never checked, exactly as in drat-trim; dropping it
//!   would leave a valid proof. [`DratSummary::core_lemmas`] counts the lemmas that were checked.
//! * The whole proof is parsed before checking, so a syntax error anywhere is reported.
//!
//! # Formats
//!
//! * **Text**: whitespace-separated integers; each clause ends with `0` (usually one clause per
//!   line, but a clause may span lines); a clause prefixed with the token `d` is a deletion; a token
//!   starting with `c` where a clause could start begins a comment that runs to the end of the line.
//!   Errors name the 1-based line where the clause starts.
//! * **Binary**: each step is the byte `a` (0x61, addition) or `d` (0x64, deletion), then literals,
//!   then a zero byte. A literal `l` is encoded as the unsigned number `2*|l| + (l < 0)`, written
//!   seven bits per byte, least significant group first, with the high bit set on every byte but
//!   the last. Errors name the 0-based byte offset of the step (or of the faulty literal).
//! * **Detection** ([`ProofEncoding::Detect`], see [`ProofEncoding::detect`]): the proof is binary
//!   if its first byte is `a`, or if any of its first 10 bytes is neither printable ASCII
//!   (0x20..=0x7E) nor a tab, line feed or carriage return; otherwise it is text. Like drat-trim's
//!   rule (which also looks at the first 10 bytes), this can mistake a binary proof whose first 10
//!   bytes happen to be printable (e.g. a long first deletion over variables 16..=63) for text;
//!   callers that know the encoding should say so. The `a` rule is our addition: no text proof
//!   starts with `a`.
//!
//! # Algorithm
//!
//! A forward pass adds and deletes clauses while keeping the top-level unit propagation fixpoint
//! (two watched literals with blocking literals, a trail with reasons) up to the first conflict,
//! recording the trail length before every lemma. It checks nothing. The conflict is then
//! analysed: every clause in its implication graph is marked as core. A backward pass walks the
//! steps in reverse: a deletion re-activates its clause (with the watches it had when deleted), a
//! lemma addition truncates the trail to its length before the lemma (so the trail is again
//! exactly the forward fixpoint at that step), deactivates the lemma and, if the lemma is marked,
//! checks it: RUP first, then RAT, keeping the propagated negation of the lemma while each
//! candidate's resolvent is tested. Every successful check marks the clauses its conflicts used.
//! Top-level literals whose reasons have already been marked are not walked again, so conflict
//! analysis costs the size of the new part of the implication graph.
//!
//! Watch entries of deactivated clauses are dropped lazily, and all watch lists are swept once the
//! stale entries outnumber the live ones. Occurrence lists for the RAT candidate scan are built on
//! the first RAT attempt only, and a lemma is popped from them when the backward pass removes it.
//! While lemmas are checked, propagation is core-first, as in drat-trim: clauses already marked as
//! core are propagated to a fixpoint before one unmarked clause may imply a literal, which keeps the
//! core (and so the number of lemmas to check) small.
//!
//! # References
//!
//! * N. Wetzler, M. J. H. Heule, W. A. Hunt Jr.: "DRAT-trim: Efficient Checking and Trimming Using
//!   Expressive Clausal Proofs", SAT 2014 (the DRAT format, backward checking with core marking,
//!   and the drat-trim checker whose default behaviour is followed here).
//! * M. J. H. Heule, W. A. Hunt Jr., N. Wetzler: "Trimming while Checking Clausal Proofs",
//!   FMCAD 2013, and "Verifying Refutations with Extended Resolution", CADE 2013 (RUP/RAT checking
//!   and the RAT property).
//! * A. Rebola-Pardo, A. Biere: "Two Flavors of DRAT", Pragmatics of SAT 2018 (specified versus
//!   operational DRAT, i.e. ignored unit deletions).
//! * The binary DRAT encoding as documented with drat-trim and written by CaDiCaL.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use thiserror::Error;

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

/// What a successful check found. Counts of lemmas and deletions cover the whole proof; the other
/// counts cover the part up to the refutation, which is all that is checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DratSummary {
    /// Lemma additions in the proof, including empty clauses.
    pub lemmas: usize,
    /// Deletion steps in the proof.
    pub deletions: usize,
    /// Core lemmas that are not RUP and were verified as RAT on their first literal.
    pub rat_lemmas: usize,
    /// Non-empty lemmas that the backward check verified (the core); the rest were not needed.
    pub core_lemmas: usize,
    /// Proof steps (additions and deletions) up to and including the one after which unit
    /// propagation refutes the active clauses; later steps were parsed but not checked. Zero when
    /// the formula alone is refuted.
    pub steps_checked: usize,
    /// Deletions ignored because the clause was the reason of a top-level unit (see module docs).
    pub ignored_unit_deletions: usize,
    /// Deletions ignored because no active clause had those literals (drat-trim warns likewise).
    pub missing_deletions: usize,
}

/// Why a formula or proof was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DratError {
    /// A formula clause holds 0 or a literal whose variable exceeds `num_vars`.
    #[error(
        "formula clause {clause}: literal {literal} is outside 1..={num_vars} or its negation"
    )]
    FormulaLiteral {
        /// 1-based index of the formula clause.
        clause: usize,
        /// The offending literal.
        literal: i32,
        /// The declared variable count.
        num_vars: usize,
    },
    /// The proof is not well-formed: an unexpected token or byte, or a literal out of range.
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
    /// A lemma in the core is neither RUP nor RAT on its first literal.
    #[error("{at}: lemma {} is neither RUP nor RAT", DimacsLits(lemma))]
    NotImplied {
        /// The lemma's step.
        at: ProofPosition,
        /// The lemma's literals as written in the proof.
        lemma: Vec<i32>,
    },
    /// An explicit empty clause comes before unit propagation refutes the active clauses.
    #[error("{at}: the empty clause is not implied: unit propagation on the active clauses finds no conflict")]
    EmptyClauseNotImplied {
        /// The empty clause's step.
        at: ProofPosition,
    },
    /// The proof ends, and unit propagation on the active clauses never reached a conflict.
    #[error("the proof derives no empty clause: it has none, and unit propagation on the formula and all lemmas finds no conflict")]
    NoEmptyClause,
    /// Unit propagation refutes the active clauses, but no explicit empty clause follows.
    #[error("the proof derives no empty clause: unit propagation refutes {}, but no explicit empty clause (a line `0`) follows", RefutedAt(refuted_after))]
    NoExplicitEmptyClause {
        /// The step after which unit propagation conflicts; `None` when the formula alone does.
        refuted_after: Option<ProofPosition>,
    },
}

/// Formats literals as DIMACS separated by spaces.
struct DimacsLits<'a>(&'a [i32]);

impl fmt::Display for DimacsLits<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, lit) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{lit}")?;
        }
        Ok(())
    }
}

/// Formats where unit propagation first conflicted.
struct RefutedAt<'a>(&'a Option<ProofPosition>);

impl fmt::Display for RefutedAt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(at) => write!(f, "the active clauses after {at}"),
            None => f.write_str("the formula itself"),
        }
    }
}

/// Checks a DRAT refutation of the formula `clauses` over variables `1..=num_vars`.
///
/// Returns a summary when every lemma that the refutation depends on is RUP or RAT and the proof
/// contains an explicit empty clause at or after the point where unit propagation refutes the
/// active clauses (see the module docs for the exact semantics). Formula literals must be nonzero
/// with variables at most `num_vars`; proof literals may use any variable up to `i32::MAX`.
pub fn check_drat(
    num_vars: usize,
    clauses: &[Vec<i32>],
    proof: &[u8],
    encoding: ProofEncoding,
) -> Result<DratSummary, DratError> {
    let mut base = 0u32;
    let mut formula_has_empty = false;
    for (i, clause) in clauses.iter().enumerate() {
        formula_has_empty |= clause.is_empty();
        for &literal in clause {
            let var = literal.unsigned_abs();
            if literal == 0 || literal == i32::MIN || var as usize > num_vars {
                return Err(DratError::FormulaLiteral {
                    clause: i + 1,
                    literal,
                    num_vars,
                });
            }
            base = base.max(var);
        }
    }
    let mut vars = VarMap::new(base);
    let formula: Vec<Vec<u32>> = clauses
        .iter()
        .map(|c| c.iter().map(|&l| vars.code(l)).collect())
        .collect();
    let encoding = match encoding {
        ProofEncoding::Detect => ProofEncoding::detect(proof),
        other => other,
    };
    let parsed = match encoding {
        ProofEncoding::Binary => parse_binary(proof, &mut vars)?,
        _ => parse_text(proof, &mut vars)?,
    };
    let mut summary = DratSummary {
        lemmas: parsed.steps.iter().filter(|s| !s.delete).count(),
        deletions: parsed.steps.iter().filter(|s| s.delete).count(),
        ..DratSummary::default()
    };
    if formula_has_empty {
        // Refuted by the formula alone, but the proof must still say so (see the module docs).
        let explicit = parsed.steps.iter().any(|s| !s.delete && s.len == 0);
        if !explicit {
            return Err(DratError::NoExplicitEmptyClause {
                refuted_after: None,
            });
        }
        return Ok(summary);
    }
    let mut checker = Checker::new(vars.num_internal());
    checker.run(&formula, &parsed, &vars, &mut summary)?;
    Ok(summary)
}

/// [`check_drat`] in the form the external SAT oracles take a checker (the encoding detected):
/// the proof's lemma count, or why it does not refute the formula.
pub fn check_refutation(
    num_vars: usize,
    clauses: &[Vec<i32>],
    proof: &[u8],
) -> Result<usize, DratError> {
    check_drat(num_vars, clauses, proof, ProofEncoding::Detect).map(|summary| summary.lemmas)
}

/// Sentinel for "no clause" / "no literal".
const NONE: u32 = u32::MAX;

/// Maps DIMACS variables to dense internal variables: formula variables keep their number,
/// larger proof variables get the next free numbers in order of appearance.
struct VarMap {
    base: u32,
    extra: HashMap<u32, u32>,
    external: Vec<u32>,
}

impl VarMap {
    fn new(base: u32) -> Self {
        VarMap {
            base,
            extra: HashMap::new(),
            external: Vec::new(),
        }
    }

    /// Internal literal code `2 * var + negative` of a nonzero DIMACS literal.
    fn code(&mut self, literal: i32) -> u32 {
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
    fn dimacs(&self, code: u32) -> i32 {
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

    fn num_internal(&self) -> usize {
        self.base as usize + self.external.len()
    }
}

/// One proof step; its literals are `lits[start..start + len]` of the parsed proof.
struct Step {
    start: usize,
    len: usize,
    delete: bool,
    at: ProofPosition,
}

/// A parsed proof: steps over one literal arena of internal codes.
struct ParsedProof {
    steps: Vec<Step>,
    lits: Vec<u32>,
}

impl ParsedProof {
    fn step_lits(&self, step: &Step) -> &[u32] {
        &self.lits[step.start..step.start + step.len]
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

fn parse_text(proof: &[u8], vars: &mut VarMap) -> Result<ParsedProof, DratError> {
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

fn parse_binary(proof: &[u8], vars: &mut VarMap) -> Result<ParsedProof, DratError> {
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

/// Hasher for keys that are already hashes.
#[derive(Default)]
struct IdentityHasher(u64);

impl Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type ClauseTable = HashMap<u64, Vec<u32>, BuildHasherDefault<IdentityHasher>>;

fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// An order-independent hash of a duplicate-free literal set.
fn set_hash(lits: &[u32]) -> u64 {
    let mut sum = 0u64;
    let mut xor = 0u64;
    for &l in lits {
        let h = mix(u64::from(l));
        sum = sum.wrapping_add(h);
        xor ^= h.rotate_left(29);
    }
    mix(sum ^ xor.rotate_left(32) ^ (lits.len() as u64).wrapping_mul(0x2545_f491_4f6c_dd1d))
}

const ACTIVE: u8 = 1;
const CORE: u8 = 2;
const TAUTOLOGY: u8 = 4;

/// A clause in the arena: `arena[start..start + len]`; the first two literals are watched.
struct Clause {
    start: usize,
    len: u32,
    /// The first literal as written (the RAT pivot of a lemma), or [`NONE`].
    pivot: u32,
}

/// An entry of a watch list: the clause, and one of its literals that, when true, satisfies it.
#[derive(Clone, Copy)]
struct Watch {
    clause: u32,
    blocker: u32,
}

/// Which clauses a watch-list scan looks at.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Every clause.
    All,
    /// Core clauses only.
    CoreOnly,
    /// Non-core clauses only, stopping after the first implied literal.
    NonCoreUntilUnit,
}

/// How a watch-list scan ended.
enum Scan {
    /// The list was visited to the end.
    Done,
    /// A literal was implied; the scan may resume at this list index.
    Assigned(usize),
    /// This clause is falsified.
    Conflict(u32),
}

/// How a lemma was verified.
enum Verdict {
    Rup,
    Rat,
    Failed,
}

/// The checker state. Literal codes are `2 * var + negative`; `value` is indexed by code.
struct Checker {
    arena: Vec<u32>,
    clauses: Vec<Clause>,
    /// `ACTIVE`, `CORE` and `TAUTOLOGY` bits per clause, apart from `clauses` to stay in cache.
    flags: Vec<u8>,
    /// 1 true, -1 false, 0 unassigned; indexed by literal code.
    value: Vec<i8>,
    /// Reason clause per variable, [`NONE`] for assumptions.
    reason: Vec<u32>,
    /// Trail position per variable.
    position: Vec<u32>,
    /// Per variable: a top-level literal whose implication cone has been marked core.
    justified: Vec<bool>,
    seen: Vec<bool>,
    trail: Vec<u32>,
    /// Next trail position to propagate.
    head: usize,
    /// Trail length of the top level while a lemma is being checked.
    top: usize,
    watches: Vec<Vec<Watch>>,
    /// Occurrence lists (clause ids per literal code), built on the first RAT check, holding the
    /// non-tautological clauses with ids below `occ_limit` in increasing order.
    occurrences: Option<Vec<Vec<u32>>>,
    stack: Vec<u32>,
    seen_list: Vec<u32>,
    /// Per literal code: the generation in which it was last stamped (for duplicate removal).
    stamp: Vec<u32>,
    generation: u32,
    table: ClauseTable,
    scratch: Vec<u32>,
    /// Watch entries of watched clauses that have been deactivated since the last sweep.
    stale_watches: usize,
    /// Watch entries of the active watched clauses.
    live_watches: usize,
}

impl Checker {
    fn new(num_vars: usize) -> Self {
        let codes = 2 * (num_vars + 1);
        Checker {
            arena: Vec::new(),
            clauses: Vec::new(),
            flags: Vec::new(),
            value: vec![0; codes],
            reason: vec![NONE; num_vars + 1],
            position: vec![0; num_vars + 1],
            justified: vec![false; num_vars + 1],
            seen: vec![false; num_vars + 1],
            trail: Vec::new(),
            head: 0,
            top: 0,
            watches: vec![Vec::new(); codes],
            occurrences: None,
            stack: Vec::new(),
            seen_list: Vec::new(),
            stamp: vec![0; codes],
            generation: 0,
            table: ClauseTable::default(),
            scratch: Vec::new(),
            stale_watches: 0,
            live_watches: 0,
        }
    }

    fn lits(&self, clause: u32) -> &[u32] {
        let c = &self.clauses[clause as usize];
        &self.arena[c.start..c.start + c.len as usize]
    }

    fn flag(&self, clause: u32, flag: u8) -> bool {
        self.flags[clause as usize] & flag != 0
    }

    fn next_generation(&mut self) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        self.generation
    }

    fn assign(&mut self, lit: u32, reason: u32) {
        self.value[lit as usize] = 1;
        self.value[(lit ^ 1) as usize] = -1;
        let var = (lit >> 1) as usize;
        self.reason[var] = reason;
        self.position[var] = self.trail.len() as u32;
        self.trail.push(lit);
    }

    fn undo_to(&mut self, len: usize) {
        while self.trail.len() > len {
            let lit = self.trail.pop().expect("trail is longer than len");
            self.value[lit as usize] = 0;
            self.value[(lit ^ 1) as usize] = 0;
            let var = (lit >> 1) as usize;
            self.reason[var] = NONE;
            self.justified[var] = false;
        }
        self.head = len;
    }

    /// Stores a clause (duplicates removed, tautologies flagged), inactive and unwatched.
    fn store(&mut self, lits: &[u32]) -> u32 {
        let generation = self.next_generation();
        let start = self.arena.len();
        let mut flags = 0;
        for &l in lits {
            if self.stamp[l as usize] == generation {
                continue;
            }
            if self.stamp[(l ^ 1) as usize] == generation {
                flags |= TAUTOLOGY;
            }
            self.stamp[l as usize] = generation;
            self.arena.push(l);
        }
        let id = self.clauses.len() as u32;
        self.clauses.push(Clause {
            start,
            len: (self.arena.len() - start) as u32,
            pivot: lits.first().copied().unwrap_or(NONE),
        });
        self.flags.push(flags);
        let key = set_hash(&self.arena[start..]);
        self.table.entry(key).or_default().push(id);
        id
    }

    fn is_watched(&self, clause: u32) -> bool {
        let c = &self.clauses[clause as usize];
        c.len >= 2 && self.flags[clause as usize] & TAUTOLOGY == 0
    }

    /// Activates a clause and adds watches on its first two literals (if it has two or more).
    fn activate(&mut self, clause: u32) {
        self.flags[clause as usize] |= ACTIVE;
        if !self.is_watched(clause) {
            return;
        }
        let c = &self.clauses[clause as usize];
        let (a, b) = (self.arena[c.start], self.arena[c.start + 1]);
        self.watches[a as usize].push(Watch { clause, blocker: b });
        self.watches[b as usize].push(Watch { clause, blocker: a });
        self.live_watches += 2;
    }

    /// Deactivates a clause. Its watch entries are dropped lazily by `propagate`, or by a sweep of
    /// all watch lists once the stale entries outnumber the live ones (amortised linear time).
    fn deactivate(&mut self, clause: u32) {
        self.flags[clause as usize] &= !ACTIVE;
        if !self.is_watched(clause) {
            return;
        }
        self.live_watches -= 2;
        self.stale_watches += 2;
        // A sweep costs O(lists + live + stale) <= 3 * stale: amortised O(1) per stale entry.
        if self.stale_watches > self.live_watches.max(self.watches.len()) {
            self.sweep_watches();
        }
    }

    /// Removes every watch entry whose clause is inactive or no longer watches that literal.
    fn sweep_watches(&mut self) {
        let mut watches = std::mem::take(&mut self.watches);
        for (lit, list) in watches.iter_mut().enumerate() {
            list.retain(|w| {
                let c = &self.clauses[w.clause as usize];
                self.flags[w.clause as usize] & ACTIVE != 0
                    && (self.arena[c.start] as usize == lit
                        || self.arena[c.start + 1] as usize == lit)
            });
        }
        self.watches = watches;
        self.stale_watches = 0;
    }

    /// Unit propagation over all clauses from `head`; returns a falsified clause on conflict.
    fn propagate(&mut self) -> Option<u32> {
        while self.head < self.trail.len() {
            let position = self.head;
            self.head += 1;
            if let Scan::Conflict(c) = self.scan(position, Mode::All, 0) {
                return Some(c);
            }
        }
        None
    }

    /// Core-first unit propagation from `head` (as drat-trim does while checking lemmas): core
    /// clauses are propagated to a fixpoint before a single non-core clause may imply a literal,
    /// so that conflicts prefer clauses that are already in the core.
    fn propagate_core_first(&mut self) -> Option<u32> {
        // Trail position whose non-core watches are being scanned, and where in its list.
        let (mut other, mut resume) = (self.head, 0);
        loop {
            while self.head < self.trail.len() {
                let position = self.head;
                self.head += 1;
                if let Scan::Conflict(c) = self.scan(position, Mode::CoreOnly, 0) {
                    return Some(c);
                }
            }
            // The list of `other` is not touched by the core pass above: watches only move to
            // literals that are not false, and `other` is below `head`.
            loop {
                if other >= self.trail.len() {
                    return None;
                }
                match self.scan(other, Mode::NonCoreUntilUnit, resume) {
                    Scan::Conflict(c) => return Some(c),
                    Scan::Assigned(next) => {
                        resume = next;
                        break;
                    }
                    Scan::Done => {
                        other += 1;
                        resume = 0;
                    }
                }
            }
        }
    }

    /// Visits the watch list of the negation of `trail[position]` from entry `from` on, for the
    /// clauses that `mode` selects, moving watches, assigning units and stopping at a conflict.
    fn scan(&mut self, position: usize, mode: Mode, from: usize) -> Scan {
        let false_lit = self.trail[position] ^ 1;
        let mut list = std::mem::take(&mut self.watches[false_lit as usize]);
        let mut result = Scan::Done;
        let (mut i, mut j) = (from, from);
        while i < list.len() {
            let w = list[i];
            i += 1;
            if self.value[w.blocker as usize] == 1 {
                list[j] = w;
                j += 1;
                continue;
            }
            let flags = self.flags[w.clause as usize];
            if flags & ACTIVE == 0 {
                continue; // deleted or removed clause: drop the stale entry
            }
            let selected = match mode {
                Mode::All => true,
                Mode::CoreOnly => flags & CORE != 0,
                Mode::NonCoreUntilUnit => flags & CORE == 0,
            };
            if !selected {
                list[j] = w;
                j += 1;
                continue;
            }
            let c = &self.clauses[w.clause as usize];
            let (start, len) = (c.start, c.len as usize);
            if self.arena[start] == false_lit {
                self.arena.swap(start, start + 1);
            }
            if self.arena[start + 1] != false_lit {
                continue; // stale entry: the clause no longer watches this literal
            }
            let first = self.arena[start];
            let kept = Watch {
                clause: w.clause,
                blocker: first,
            };
            if self.value[first as usize] == 1 {
                list[j] = kept;
                j += 1;
                continue;
            }
            let mut moved = false;
            for k in start + 2..start + len {
                let l = self.arena[k];
                if self.value[l as usize] != -1 {
                    self.arena.swap(start + 1, k);
                    self.watches[l as usize].push(kept);
                    moved = true;
                    break;
                }
            }
            if moved {
                continue;
            }
            list[j] = kept;
            j += 1;
            if self.value[first as usize] == -1 {
                result = Scan::Conflict(w.clause);
                break;
            }
            self.assign(first, w.clause);
            if mode == Mode::NonCoreUntilUnit {
                result = Scan::Assigned(j);
                break;
            }
        }
        // Close the gap left by dropped entries; unvisited entries stay in order.
        if j < i {
            list.drain(j..i);
        }
        self.watches[false_lit as usize] = list;
        result
    }

    /// Marks as core every clause in the implication graph of a conflict: the falsified clause
    /// `conflict` and/or the true literal of variable `var`.
    fn analyze(&mut self, conflict: Option<u32>, var: Option<u32>) {
        self.stack.clear();
        if let Some(c) = conflict {
            self.flags[c as usize] |= CORE;
            let c = &self.clauses[c as usize];
            self.stack.extend(
                self.arena[c.start..c.start + c.len as usize]
                    .iter()
                    .map(|&l| l >> 1),
            );
        }
        self.stack.extend(var);
        while let Some(v) = self.stack.pop() {
            let vi = v as usize;
            if self.seen[vi] {
                continue;
            }
            self.seen[vi] = true;
            self.seen_list.push(v);
            if self.justified[vi] {
                continue;
            }
            let r = self.reason[vi];
            if r == NONE {
                continue;
            }
            if (self.position[vi] as usize) < self.top {
                self.justified[vi] = true;
            }
            self.flags[r as usize] |= CORE;
            let c = &self.clauses[r as usize];
            for &l in &self.arena[c.start..c.start + c.len as usize] {
                let u = l >> 1;
                if u != v && !self.seen[u as usize] {
                    self.stack.push(u);
                }
            }
        }
        for v in self.seen_list.drain(..) {
            self.seen[v as usize] = false;
        }
    }

    fn is_reason(&self, clause: u32) -> bool {
        let c = &self.clauses[clause as usize];
        if c.len == 0 || self.flags[clause as usize] & TAUTOLOGY != 0 {
            return false;
        }
        let lit = self.arena[c.start];
        self.value[lit as usize] == 1 && self.reason[(lit >> 1) as usize] == clause
    }

    /// Finds an active clause with the literal set of `lits` for deletion: `Ok(id)` for one that is
    /// not a unit reason, `Err(true)` if every match is a reason, `Err(false)` if there is none.
    fn find_for_deletion(&mut self, lits: &[u32]) -> Result<u32, bool> {
        let generation = self.next_generation();
        self.scratch.clear();
        for &l in lits {
            if self.stamp[l as usize] != generation {
                self.stamp[l as usize] = generation;
                self.scratch.push(l);
            }
        }
        let key = set_hash(&self.scratch);
        let Some(bucket) = self.table.get(&key) else {
            return Err(false);
        };
        let mut found_reason = false;
        let mut chosen = None;
        for (index, &id) in bucket.iter().enumerate().rev() {
            let c = &self.clauses[id as usize];
            let same = self.flags[id as usize] & ACTIVE != 0
                && c.len as usize == self.scratch.len()
                && self.arena[c.start..c.start + c.len as usize]
                    .iter()
                    .all(|&l| self.stamp[l as usize] == generation);
            if !same {
                continue;
            }
            if self.is_reason(id) {
                found_reason = true;
            } else {
                chosen = Some((index, id));
                break;
            }
        }
        match chosen {
            Some((index, id)) => {
                let bucket = self.table.get_mut(&key).expect("bucket exists");
                bucket.remove(index);
                if bucket.is_empty() {
                    self.table.remove(&key);
                }
                Ok(id)
            }
            None => Err(found_reason),
        }
    }

    /// Adds a lemma during the forward pass (trail at a fixpoint without conflict), choosing
    /// watches and propagating. Returns a conflict clause if unit propagation now fails.
    fn add_lemma(&mut self, id: u32) -> Option<u32> {
        if !self.is_watched(id) {
            self.activate(id);
        }
        if self.flag(id, TAUTOLOGY) {
            return None;
        }
        let c = &self.clauses[id as usize];
        let (start, len) = (c.start, c.len as usize);
        if len == 1 {
            let lit = self.arena[start];
            return match self.value[lit as usize] {
                1 => None,
                -1 => Some(id),
                _ => {
                    self.assign(lit, id);
                    self.propagate()
                }
            };
        }
        // Watch the two best literals: true, then unassigned, then the latest falsified.
        let rank = |s: &Self, lit: u32| -> u64 {
            match s.value[lit as usize] {
                1 => u64::MAX,
                0 => u64::MAX - 1,
                _ => u64::from(s.position[(lit >> 1) as usize]),
            }
        };
        for slot in 0..2 {
            let mut best = start + slot;
            for k in start + slot + 1..start + len {
                if rank(self, self.arena[k]) > rank(self, self.arena[best]) {
                    best = k;
                }
            }
            self.arena.swap(start + slot, best);
        }
        self.activate(id);
        let (first, second) = (self.arena[start], self.arena[start + 1]);
        match (self.value[first as usize], self.value[second as usize]) {
            (-1, _) => Some(id),
            (0, -1) => {
                self.assign(first, id);
                self.propagate()
            }
            _ => None,
        }
    }

    /// Builds occurrence lists of the clauses with ids below `limit`.
    fn build_occurrences(&mut self, limit: u32) {
        let mut occurrences = vec![Vec::new(); self.value.len()];
        for id in 0..limit {
            if self.flag(id, TAUTOLOGY) {
                continue;
            }
            for &l in self.lits(id) {
                occurrences[l as usize].push(id);
            }
        }
        self.occurrences = Some(occurrences);
    }

    /// Removes a lemma that is being undone in the backward pass from the occurrence lists, where
    /// it is the last entry of each of its literals' lists.
    fn forget_occurrences(&mut self, id: u32) {
        if self.flag(id, TAUTOLOGY) {
            return;
        }
        let Some(mut occurrences) = self.occurrences.take() else {
            return;
        };
        for &l in self.lits(id) {
            let list = &mut occurrences[l as usize];
            if list.last() == Some(&id) {
                list.pop();
            }
        }
        self.occurrences = Some(occurrences);
    }

    /// Assigns the negations of `lits` (skipping `skip`) as assumptions. Returns the variable of a
    /// literal that is already true (a conflict), if any.
    fn assume_negations(&mut self, lits: std::ops::Range<usize>, skip: u32) -> Option<u32> {
        for k in lits {
            let l = self.arena[k];
            if l == skip {
                continue;
            }
            match self.value[l as usize] {
                1 => return Some(l >> 1),
                -1 => {}
                _ => self.assign(l ^ 1, NONE),
            }
        }
        None
    }

    /// Checks the (already deactivated) lemma `id` against the active clauses and the current
    /// top-level trail, marking the clauses used on success.
    fn verify(&mut self, id: u32) -> Verdict {
        self.top = self.trail.len();
        self.head = self.top;
        let c = &self.clauses[id as usize];
        let (start, len, pivot) = (c.start, c.len as usize, c.pivot);
        if let Some(var) = self.assume_negations(start..start + len, NONE) {
            self.analyze(None, Some(var));
            self.undo_to(self.top);
            return Verdict::Rup;
        }
        if let Some(conflict) = self.propagate_core_first() {
            self.analyze(Some(conflict), None);
            self.undo_to(self.top);
            return Verdict::Rup;
        }
        if pivot == NONE {
            self.undo_to(self.top);
            return Verdict::Failed;
        }
        if self.occurrences.is_none() {
            self.build_occurrences(id);
        }
        let mut occurrences = self.occurrences.take().expect("occurrence lists exist");
        let negated = pivot ^ 1;
        let after = self.trail.len();
        let mut ok = true;
        for &candidate in &occurrences[negated as usize] {
            if !self.flag(candidate, ACTIVE) {
                continue;
            }
            let d = &self.clauses[candidate as usize];
            let range = d.start..d.start + d.len as usize;
            if let Some(var) = self.assume_negations(range, negated) {
                self.analyze(None, Some(var));
            } else if let Some(conflict) = self.propagate_core_first() {
                self.analyze(Some(conflict), None);
            } else {
                ok = false;
            }
            self.undo_to(after);
            if !ok {
                break;
            }
        }
        // Keep the candidate list where `forget_occurrences` expects it.
        self.occurrences = Some(std::mem::take(&mut occurrences));
        self.undo_to(self.top);
        if ok {
            Verdict::Rat
        } else {
            Verdict::Failed
        }
    }

    /// Runs the forward and backward passes.
    fn run(
        &mut self,
        formula: &[Vec<u32>],
        proof: &ParsedProof,
        vars: &VarMap,
        summary: &mut DratSummary,
    ) -> Result<(), DratError> {
        // Formula: store, watch, then propagate the units.
        let mut conflict = None;
        for lits in formula {
            let id = self.store(lits);
            self.activate(id);
        }
        for id in 0..formula.len() as u32 {
            let c = &self.clauses[id as usize];
            if c.len != 1 || conflict.is_some() {
                continue;
            }
            let lit = self.arena[c.start];
            match self.value[lit as usize] {
                1 => {}
                -1 => conflict = Some(id),
                _ => self.assign(lit, id),
            }
        }
        if conflict.is_none() {
            conflict = self.propagate();
        }
        let steps = &proof.steps;
        let explicit_empty_from =
            |from: usize| steps[from..].iter().any(|s| !s.delete && s.len == 0);
        if conflict.is_some() {
            if !explicit_empty_from(0) {
                return Err(DratError::NoExplicitEmptyClause {
                    refuted_after: None,
                });
            }
            return Ok(());
        }

        // Forward pass up to the first conflict.
        let mut step_clause = vec![NONE; steps.len()];
        let mut trail_before = vec![0u32; steps.len()];
        let mut last = None;
        for (index, step) in steps.iter().enumerate() {
            let lits = proof.step_lits(step);
            if step.delete {
                match self.find_for_deletion(lits) {
                    Ok(id) => {
                        self.deactivate(id);
                        step_clause[index] = id;
                    }
                    Err(true) => summary.ignored_unit_deletions += 1,
                    Err(false) => summary.missing_deletions += 1,
                }
                continue;
            }
            if lits.is_empty() {
                return Err(DratError::EmptyClauseNotImplied { at: step.at });
            }
            trail_before[index] = self.trail.len() as u32;
            let id = self.store(lits);
            step_clause[index] = id;
            if let Some(c) = self.add_lemma(id) {
                conflict = Some(c);
                last = Some(index);
                break;
            }
        }
        let (Some(conflict), Some(last)) = (conflict, last) else {
            return Err(DratError::NoEmptyClause);
        };
        if !explicit_empty_from(last + 1) {
            return Err(DratError::NoExplicitEmptyClause {
                refuted_after: Some(steps[last].at),
            });
        }
        summary.steps_checked = last + 1;

        // Backward pass.
        self.top = self.trail.len();
        self.analyze(Some(conflict), None);
        for index in (0..=last).rev() {
            let step = &steps[index];
            let id = step_clause[index];
            if step.delete {
                if id != NONE {
                    self.activate(id);
                }
                continue;
            }
            self.undo_to(trail_before[index] as usize);
            self.deactivate(id);
            self.forget_occurrences(id);
            if !self.flag(id, CORE) {
                continue;
            }
            match self.verify(id) {
                Verdict::Rup => summary.core_lemmas += 1,
                Verdict::Rat => {
                    summary.core_lemmas += 1;
                    summary.rat_lemmas += 1;
                }
                Verdict::Failed => {
                    return Err(DratError::NotImplied {
                        at: step.at,
                        lemma: proof
                            .step_lits(step)
                            .iter()
                            .map(|&l| vars.dimacs(l))
                            .collect(),
                    })
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// All eight 3-literal clauses over variables 1..=3.
    fn all_eight() -> Vec<Vec<i32>> {
        let mut clauses = Vec::new();
        for mask in 0..8 {
            clauses.push(
                (0..3)
                    .map(|i| {
                        if mask & (1 << i) != 0 {
                            -(i + 1)
                        } else {
                            i + 1
                        }
                    })
                    .collect(),
            );
        }
        clauses
    }

    /// The example formula of the DRAT-trim paper.
    fn paper_formula() -> Vec<Vec<i32>> {
        vec![
            vec![1, 2, -3],
            vec![-1, -2, 3],
            vec![2, 3, -4],
            vec![-2, -3, 4],
            vec![1, 3, 4],
            vec![-1, -3, -4],
            vec![-1, 2, 4],
            vec![1, -2, -4],
        ]
    }

    /// Re-encodes a text proof in binary DRAT (our own writer for the tests).
    fn to_binary(text: &str) -> Vec<u8> {
        let mut out = Vec::new();
        for line in text.lines() {
            let mut tokens = line.split_whitespace().peekable();
            match tokens.peek() {
                None => continue,
                Some(&"d") => {
                    out.push(b'd');
                    tokens.next();
                }
                Some(t) if t.starts_with('c') => continue,
                Some(_) => out.push(b'a'),
            }
            for t in tokens {
                let lit: i64 = t.parse().unwrap();
                if lit == 0 {
                    break;
                }
                let mut code = 2 * lit.unsigned_abs() + u64::from(lit < 0);
                while code >= 0x80 {
                    out.push((code as u8 & 0x7f) | 0x80);
                    code >>= 7;
                }
                out.push(code as u8);
            }
            out.push(0);
        }
        out
    }

    fn check_text(
        num_vars: usize,
        clauses: &[Vec<i32>],
        proof: &str,
    ) -> Result<DratSummary, DratError> {
        check_drat(num_vars, clauses, proof.as_bytes(), ProofEncoding::Text)
    }

    fn message(result: Result<DratSummary, DratError>) -> String {
        result.expect_err("proof should be rejected").to_string()
    }

    #[test]
    fn rup_only_proof() {
        let summary = check_text(3, &all_eight(), "1 2 0\n1 0\n2 0\n0\n").unwrap();
        assert_eq!(summary.lemmas, 4);
        assert_eq!(summary.core_lemmas, 3);
        assert_eq!(summary.rat_lemmas, 0);
        assert_eq!(summary.steps_checked, 3);
    }

    #[test]
    fn unused_lemmas_are_not_checked() {
        // With (4 5) and (-4 -5) added, the unit 4 is neither RUP nor RAT, but nothing uses it.
        let mut f = all_eight();
        f.extend([vec![4, 5], vec![-4, -5]]);
        let summary = check_text(5, &f, "c comment\n4 0\n1 2 0\n1 0\n2 0\n0\n").unwrap();
        assert_eq!(summary.core_lemmas, 3);
        assert_eq!(summary.lemmas, 5);
        // Once a core lemma relies on it, it is checked and rejected.
        assert_eq!(
            message(check_text(5, &f, "4 0\n5 1 2 0\n1 2 0\n1 0\n2 0\n0\n")),
            "proof line 1: lemma 4 is neither RUP nor RAT"
        );
    }

    #[test]
    fn rat_proof_from_the_drat_trim_paper() {
        let proof = "-1 0\nd -1 -2 3 0\nd -1 -3 -4 0\nd -1 2 4 0\n2 0\n0\n";
        let summary = check_text(4, &paper_formula(), proof).unwrap();
        assert_eq!(summary.rat_lemmas, 1);
        assert_eq!(summary.core_lemmas, 2);
        assert_eq!(summary.deletions, 3);
        assert_eq!(summary.missing_deletions, 0);
        // `2` is RAT too (pivot 2), and then `-1` is RUP.
        let summary = check_text(4, &paper_formula(), "2 0\n-1 0\n0\n").unwrap();
        assert_eq!((summary.rat_lemmas, summary.core_lemmas), (1, 2));
    }

    #[test]
    fn extension_variable_definitions() {
        // x = 1000000 is defined as (1 AND 2) by blocked clauses, then used by RUP steps.
        let proof = "-1000000 1 0\n-1000000 2 0\n1000000 -1 -2 0\n\
                     -1000000 3 0\n-1000000 -3 0\n-1000000 0\n1 2 0\n1 0\n0\n";
        let summary = check_text(3, &all_eight(), proof).unwrap();
        // `-x 1` is RAT; `-x 2` is then RUP (x gives 1, and (-1 2 3), (-1 2 -3) conflict).
        assert_eq!(summary.rat_lemmas, 1, "{summary:?}");
        assert_eq!(summary.core_lemmas, 7, "{summary:?}");
        let binary = to_binary(proof);
        let from_binary = check_drat(3, &all_eight(), &binary, ProofEncoding::Detect).unwrap();
        assert_eq!(summary, from_binary);
    }

    /// Formula where 1 is a top-level unit and (2) follows only with it.
    fn unit_formula() -> Vec<Vec<i32>> {
        vec![
            vec![1],
            vec![-1, 2, 3],
            vec![-1, 2, -3],
            vec![-1, -2, 3],
            vec![-1, -2, -3],
        ]
    }

    #[test]
    fn deletion_of_a_unit_reason_is_ignored() {
        let summary = check_text(3, &unit_formula(), "d 1 0\n2 0\n0\n").unwrap();
        assert_eq!(summary.ignored_unit_deletions, 1);
        assert_eq!(summary.core_lemmas, 1);
    }

    #[test]
    fn deletion_of_a_missing_clause_is_ignored() {
        let summary = check_text(3, &unit_formula(), "d 2 3 0\nd 1 2 0\n2 0\n0\n").unwrap();
        assert_eq!(summary.missing_deletions, 2);
    }

    #[test]
    fn deletions_take_effect() {
        // Without `-1 2 3` the lemma 2 is neither RUP nor RAT.
        let msg = message(check_text(3, &unit_formula(), "d 3 -1 2 0\n2 0\n0\n"));
        assert_eq!(msg, "proof line 2: lemma 2 is neither RUP nor RAT");
        // A deleted lemma is re-activated for the backward check of earlier lemmas.
        let proof = "1 2 0\n1 0\nd 1 2 0\n2 0\n0\n";
        let summary = check_text(3, &all_eight(), proof).unwrap();
        assert_eq!(summary.core_lemmas, 3);
        // A duplicate that is not a reason is deleted instead of the reason copy.
        let summary = check_text(3, &unit_formula(), "1 0\nd 1 0\n2 0\n0\n").unwrap();
        assert_eq!(summary.ignored_unit_deletions, 0);
    }

    #[test]
    fn text_and_binary_encodings_agree() {
        let proof = "-1 0\nd -1 -2 3 0\nd -1 -3 -4 0\nd -1 2 4 0\n2 0\n0\n";
        let text =
            check_drat(4, &paper_formula(), proof.as_bytes(), ProofEncoding::Detect).unwrap();
        let binary = to_binary(proof);
        assert_eq!(ProofEncoding::detect(&binary), ProofEncoding::Binary);
        assert_eq!(ProofEncoding::detect(proof.as_bytes()), ProofEncoding::Text);
        let from_binary = check_drat(4, &paper_formula(), &binary, ProofEncoding::Binary).unwrap();
        assert_eq!(text, from_binary);
        // Multi-byte literals.
        let proof = "-1000000 1 0\n-1000000 2 0\n1 2 0\n1 0\n2 0\n0\n";
        let binary = to_binary(proof);
        assert_eq!(
            check_text(3, &all_eight(), proof).unwrap(),
            check_drat(3, &all_eight(), &binary, ProofEncoding::Binary).unwrap()
        );
    }

    #[test]
    fn detection_rule() {
        assert_eq!(ProofEncoding::detect(b""), ProofEncoding::Text);
        assert_eq!(ProofEncoding::detect(b"d 1 2 0\n"), ProofEncoding::Text);
        assert_eq!(ProofEncoding::detect(b"c x\n-1 0\n"), ProofEncoding::Text);
        assert_eq!(ProofEncoding::detect(b"a\x02\x00"), ProofEncoding::Binary);
        assert_eq!(
            ProofEncoding::detect(b"d\x02\x05\x00"),
            ProofEncoding::Binary
        );
        // A printable first deletion: misdetected as text, as with drat-trim.
        assert_eq!(
            ProofEncoding::detect(b"d ()*+,-./01\x00"),
            ProofEncoding::Text
        );
    }

    #[test]
    fn empty_clause_rules() {
        let f = all_eight();
        assert_eq!(
            message(check_text(3, &f, "1 2 0\n")),
            "the proof derives no empty clause: it has none, and unit propagation on the formula \
             and all lemmas finds no conflict"
        );
        assert_eq!(
            message(check_text(3, &f, "1 2 0\n1 0\n2 0\n")),
            "the proof derives no empty clause: unit propagation refutes the active clauses after \
             proof line 3, but no explicit empty clause (a line `0`) follows"
        );
        assert_eq!(
            message(check_text(3, &f, "1 2 0\n0\n1 0\n2 0\n0\n")),
            "proof line 2: the empty clause is not implied: unit propagation on the active clauses \
             finds no conflict"
        );
        // Lemmas after the refutation point are not checked; the `0` may come later.
        let summary = check_text(3, &f, "1 2 0\n1 0\n2 0\n3 -4 0\nd 1 0\n0\n").unwrap();
        assert_eq!(summary.steps_checked, 3);
        // A formula refuted by unit propagation alone still needs the explicit `0`.
        let refuted = vec![vec![1], vec![-1, 2], vec![-2]];
        assert_eq!(
            message(check_text(2, &refuted, "")),
            "the proof derives no empty clause: unit propagation refutes the formula itself, but \
             no explicit empty clause (a line `0`) follows"
        );
        let summary = check_text(2, &refuted, "0\n").unwrap();
        assert_eq!(
            (summary.lemmas, summary.core_lemmas, summary.steps_checked),
            (1, 0, 0)
        );
        // A formula with the empty clause needs only the explicit empty clause.
        assert!(check_text(2, &[vec![1], vec![]], "0\n").is_ok());
        assert!(check_drat(2, &[vec![]], b"a\x00", ProofEncoding::Binary).is_ok());
        assert_eq!(
            message(check_text(2, &[vec![1], vec![]], "")),
            "the proof derives no empty clause: unit propagation refutes the formula itself, but \
             no explicit empty clause (a line `0`) follows"
        );
    }

    #[test]
    fn rejects_non_implied_lemmas() {
        let f = vec![vec![-1], vec![-2], vec![3, 4]];
        assert_eq!(
            message(check_text(4, &f, "1 2 0\n0\n")),
            "proof line 1: lemma 1 2 is neither RUP nor RAT"
        );
        let binary = to_binary("3 0\n1 2 0\n0\n");
        assert_eq!(
            message(check_drat(4, &f, &binary, ProofEncoding::Binary)),
            "proof byte offset 3: lemma 1 2 is neither RUP nor RAT"
        );
    }

    #[test]
    fn rejects_malformed_text() {
        let f = all_eight();
        assert_eq!(
            message(check_text(3, &f, "1 2 0\n1 0\n2 0\n0\n1")),
            "proof line 5: the proof ends inside this step (terminating 0 missing)"
        );
        assert_eq!(
            message(check_text(3, &f, "1 2 0\n1\n 2\n")),
            "proof line 2: the proof ends inside this step (terminating 0 missing)"
        );
        assert_eq!(
            message(check_text(3, &f, "1 2 0\nx 1 0\n")),
            "proof line 2: unexpected token `x`"
        );
        assert_eq!(
            message(check_text(3, &f, "1 2 0\n1 d 0\n")),
            "proof line 2: unexpected token `d`"
        );
        assert_eq!(
            message(check_text(3, &f, "1 2 0\n1 2c 0\n")),
            "proof line 2: unexpected token `2c`"
        );
        assert_eq!(
            message(check_text(3, &f, "1 -2147483648 0\n")),
            "proof line 1: literal -2147483648 is out of range"
        );
        assert_eq!(
            message(check_text(3, &f, "\n\n99999999999999999999999 0\n")),
            "proof line 3: literal 9223372036854775807 is out of range"
        );
    }

    #[test]
    fn rejects_malformed_binary() {
        let f = all_eight();
        let check = |bytes: &[u8]| message(check_drat(3, &f, bytes, ProofEncoding::Binary));
        assert_eq!(
            check(b"a\x02\x00a\xff\xff\xff\xff\x7f\x00"),
            "proof byte offset 4: literal encoding 34359738367 is out of range"
        );
        assert_eq!(
            check(b"a\x80\x80\x80\x80\x80\x01\x00"),
            "proof byte offset 1: literal encoding longer than 5 bytes is out of range"
        );
        assert_eq!(
            check(b"a\x02\x01\x00"),
            "proof byte offset 2: literal encoding 1 names variable 0"
        );
        assert_eq!(
            check(b"a\x02\x00a\x02"),
            "proof byte offset 3: the proof ends inside this step (terminating 0 missing)"
        );
        assert_eq!(
            check(b"a\x02\x00d\x82"),
            "proof byte offset 3: the proof ends inside this step (terminating 0 missing)"
        );
        assert_eq!(
            check(b"a"),
            "proof byte offset 0: the proof ends inside this step (terminating 0 missing)"
        );
        assert_eq!(
            check(b"a\x02\x00x\x02\x00"),
            "proof byte offset 3: expected step byte `a` (0x61) or `d` (0x64), found 0x78"
        );
    }

    #[test]
    fn rejects_bad_formula_literals() {
        assert_eq!(
            message(check_text(3, &[vec![1, 4]], "0\n")),
            "formula clause 1: literal 4 is outside 1..=3 or its negation"
        );
        assert_eq!(
            message(check_text(3, &[vec![1], vec![0]], "0\n")),
            "formula clause 2: literal 0 is outside 1..=3 or its negation"
        );
        assert_eq!(
            message(check_text(usize::MAX, &[vec![i32::MIN]], "0\n")),
            format!(
                "formula clause 1: literal -2147483648 is outside 1..={} or its negation",
                usize::MAX
            )
        );
    }

    #[test]
    fn tautologies_and_duplicates() {
        // Duplicate literals are ignored, tautological lemmas are accepted and never watched.
        let proof = "1 1 2 0\n3 -3 0\nd 2 1 1 0\n1 2 0\n1 0\n2 0\n0\n";
        let summary = check_text(3, &all_eight(), proof).unwrap();
        assert_eq!(summary.missing_deletions, 0);
        assert_eq!(summary.core_lemmas, 3);
    }
}
