//! The way back from external solvers: an answer to a file that `emit` wrote (SAT
//! competition `s`/`v` lines, MiniSat's result file, MaxSAT or pseudo-Boolean `v` lines, a
//! CBC, GLPK `-w` or HiGHS solution file, MiniZinc / FlatZinc solver output), read by the
//! variable names the file carries, checked against the file, decoded and verified by the
//! puzzle's rules.
//!
//! Variables are matched by name, never by puzzlec's numbering: the emitted file names
//! every model variable (`c var N name`, `* var N name`, `\ column safe = name`,
//! `var 0..1: safe;  % name`), and each
//! of the model's variables is looked up there. An answer for a file written by another
//! model, or by a puzzlec that numbers its variables differently, is then still read
//! right, or refused by name. Without the file, the one `emit` writes now stands in for it.

use crate::base::Size;
use crate::driver::emit::{emit, Format};
use crate::encode::{wcnf, Cnf};
use crate::formats::dimacs::{
    self as dimacs_file, read_names_after, read_var_names, CnfDialect, VarNameError,
};
use crate::formats::linear::LinearProgram;
use crate::formats::lp::{read_lp, LpParseError};
use crate::formats::milp_solution::{
    read_cbc_solution, read_glpk_solution, read_highs_solution, SolutionError,
};
use crate::formats::minizinc::{self as mzn, MznAnswerError, MznStatus};
use crate::formats::opb;
use crate::formats::sat_answer::{
    AnswerError as SatAnswerError, AnswerItem, AnswerReader, AnswerStatus, AnswerSyntax,
};
use crate::formats::ReadError;
use crate::model::{Assignment, Constraint, Lit, Model, Var};
use crate::puzzle::{Puzzle, Solution, VerifyError};
use std::collections::HashMap;

/// The kinds of answer file `decode` reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AnswerKind {
    /// SAT competition output: `s SATISFIABLE`, `v` lines of literals ending with 0
    /// (CaDiCaL, CryptoMiniSat, Kissat).
    SatCompetition,
    /// MiniSat's result file: `SAT`, then the literals ending with 0.
    MiniSat,
    /// MaxSAT Evaluation output: `s OPTIMUM FOUND`, `v` with literals or a 0/1 string.
    MaxSat,
    /// PB competition output: `s OPTIMUM FOUND` or `s SATISFIABLE`, `v x1 -x2 ...`.
    PseudoBoolean,
    /// CBC's solution file (`solu FILE`): a status line, then `index name value` lines.
    Cbc,
    /// GLPK's `-w` (`--write`) solution file: `s mip ...`, then `j N value` lines.
    Glpk,
    /// The HiGHS program's solution file (`--solution_file`).
    Highs,
    /// MiniZinc or FlatZinc solver output (`minizinc`, `fzn-gecode`): `name = value;`
    /// lines, `----------` after each solution, `==========` when the search finished,
    /// `=====UNSATISFIABLE=====`.
    MiniZinc,
}

impl AnswerKind {
    /// The answer kind in words, for evidence and errors.
    pub fn describe(self) -> &'static str {
        match self {
            AnswerKind::SatCompetition => "SAT competition answer",
            AnswerKind::MiniSat => "MiniSat result file",
            AnswerKind::MaxSat => "MaxSAT answer",
            AnswerKind::PseudoBoolean => "pseudo-Boolean answer",
            AnswerKind::Cbc => "CBC solution file",
            AnswerKind::Glpk => "GLPK solution file",
            AnswerKind::Highs => "HiGHS solution file",
            AnswerKind::MiniZinc => "MiniZinc answer",
        }
    }

    /// The file format such an answer is an answer to (for a MiniZinc answer, MiniZinc; a
    /// FlatZinc file gets the same answers, see [`AnswerKind::answers`]).
    pub fn format(self) -> Format {
        match self {
            AnswerKind::SatCompetition | AnswerKind::MiniSat => Format::Dimacs,
            AnswerKind::MaxSat => Format::Wcnf,
            AnswerKind::PseudoBoolean => Format::Opb,
            AnswerKind::Cbc | AnswerKind::Glpk | AnswerKind::Highs => Format::Lp,
            AnswerKind::MiniZinc => Format::Mzn,
        }
    }

    /// Whether such an answer can answer a file of `format`.
    pub fn answers(self, format: Format) -> bool {
        match self {
            AnswerKind::MiniZinc => matches!(format, Format::Mzn | Format::Fzn),
            _ => self.format() == format,
        }
    }

    /// Whether the answer comes from a SAT-like solver (`sat`) or an LP one (`milp`), for
    /// reports.
    pub fn backend(self) -> crate::driver::Backend {
        match self.format() {
            Format::Lp => crate::driver::Backend::Milp,
            _ => crate::driver::Backend::Sat,
        }
    }

    /// Which kind of answer `text` is, from its status lines; `None` when it is none of them.
    pub fn detect(text: &str) -> Option<AnswerKind> {
        if mzn::is_answer(text) {
            return Some(AnswerKind::MiniZinc);
        }
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let first = lines.iter().find(|l| !l.is_empty()).copied().unwrap_or("");
        if lines.iter().any(|l| l.starts_with("s mip ")) {
            return Some(AnswerKind::Glpk);
        }
        if lines.contains(&"Model status") {
            return Some(AnswerKind::Highs);
        }
        if first.contains(" - objective value")
            || first.starts_with("Infeasible")
            || first.starts_with("Integer infeasible")
            || first.starts_with("Stopped")
        {
            return Some(AnswerKind::Cbc);
        }
        if matches!(first, "SAT" | "UNSAT" | "INDET") {
            return Some(AnswerKind::MiniSat);
        }
        let status = lines.iter().find_map(|l| l.strip_prefix("s "))?.trim();
        let named = lines
            .iter()
            .filter_map(|l| l.strip_prefix("v "))
            .flat_map(str::split_whitespace)
            .any(|w| w.trim_start_matches(['-', '~']).starts_with('x'));
        Some(if named {
            AnswerKind::PseudoBoolean
        } else if status == "OPTIMUM FOUND" || lines.iter().any(|l| l.starts_with("o ")) {
            AnswerKind::MaxSat
        } else {
            AnswerKind::SatCompetition
        })
    }
}

/// Why an answer could not be decoded.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DecodeError {
    /// A file cannot be read as what it should be (the answer, the emitted file), or the
    /// emitted file is not one of this model: bad input.
    #[error(transparent)]
    Unreadable(#[from] Unreadable),
    /// The answer is read but is no solution: the solver found none, or its values are
    /// partial, falsify the file, or break the puzzle's rules.
    #[error("{answer}: {problem}")]
    Rejected {
        /// The answer's name.
        answer: String,
        /// Why it is no solution.
        problem: Rejection,
    },
}

/// Bad input to `decode`: each message starts with the file's name.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Unreadable {
    /// The answer is none of the kinds `decode` reads.
    #[error(
        "{answer}: not a solver answer puzzlec reads (SAT competition `s`/`v` lines, \
         MiniSat's result file, MaxSAT or PB `v` lines, a CBC, GLPK `-w` or HiGHS \
         solution file, or MiniZinc output)"
    )]
    NotAnAnswer {
        /// The answer's name.
        answer: String,
    },
    /// The answer is for files of another format than the emitted file.
    #[error(
        "{answer}: a {} is for {} files, but {emitted} is {} file",
        kind.describe(),
        match kind {
            AnswerKind::MiniZinc => "MiniZinc or FlatZinc",
            _ => format_name(kind.format()),
        },
        with_article(*emitted_format)
    )]
    WrongFormat {
        /// The answer's name.
        answer: String,
        /// What kind of answer it is.
        kind: AnswerKind,
        /// The emitted file's name.
        emitted: String,
        /// The emitted file's format.
        emitted_format: Format,
    },
    /// The answer does not read.
    #[error("{answer}{}", at_line(problem))]
    Answer {
        /// The answer's name.
        answer: String,
        /// What is wrong with it.
        problem: AnswerError,
    },
    /// The emitted file does not read.
    #[error("{file}: {problem}")]
    Emitted {
        /// The emitted file's name.
        file: String,
        /// What is wrong with it.
        problem: EmittedError,
    },
    /// The emitted file lacks a variable of the model: it was written for another model.
    #[error("{emitted} names no variable {variable}: it was not written for this model")]
    ForeignFile {
        /// The emitted file's name.
        emitted: String,
        /// The model variable it does not name.
        variable: String,
    },
}

/// `:LINE: problem` when the problem has a line, else `: problem`, to follow a file name.
fn at_line(problem: &AnswerError) -> String {
    match problem.line() {
        Some(line) => format!(":{line}: {problem}"),
        None => format!(": {problem}"),
    }
}

/// An answer that does not read (its line, where there is one, is in [`AnswerError::line`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AnswerError {
    /// A status line after the first.
    #[error("a second status line")]
    SecondStatus {
        /// The 1-based line.
        line: usize,
    },
    /// Values after the 0 that ends them.
    #[error("values after the closing 0")]
    AfterClosingZero {
        /// The 1-based line.
        line: usize,
    },
    /// A word that is no literal.
    #[error("{word:?} is not a literal")]
    NotALiteral {
        /// The 1-based line.
        line: usize,
        /// The word.
        word: String,
    },
    /// A variable given as true and as false.
    #[error("variable {var} is given both values")]
    BothValues {
        /// The 1-based line.
        line: usize,
        /// The variable's number.
        var: usize,
    },
    /// No status line at all.
    #[error(
        "no status line ({})",
        if *result_file { "`SAT`" } else { "`s SATISFIABLE` or `s OPTIMUM FOUND`" }
    )]
    NoStatus {
        /// Whether the answer is MiniSat's result file.
        result_file: bool,
    },
    /// A MILP solution file that does not read (its message names the line).
    #[error(transparent)]
    Solution(#[from] SolutionError),
    /// MiniZinc output that does not read (its message names the line).
    #[error(transparent)]
    MiniZinc(#[from] MznAnswerError),
}

impl AnswerError {
    /// The 1-based line of the answer the problem is on, when the message does not say it.
    pub fn line(&self) -> Option<usize> {
        match self {
            AnswerError::SecondStatus { line }
            | AnswerError::AfterClosingZero { line }
            | AnswerError::NotALiteral { line, .. }
            | AnswerError::BothValues { line, .. } => Some(*line),
            AnswerError::NoStatus { .. } | AnswerError::Solution(_) | AnswerError::MiniZinc(_) => {
                None
            }
        }
    }
}

/// An emitted file that does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EmittedError {
    /// Its `c var` or `* var` lines do not read.
    #[error(transparent)]
    VarNames(#[from] VarNameError),
    /// Its DIMACS body does not read.
    #[error(transparent)]
    Cnf(#[from] CnfError),
    /// Its WCNF body does not read.
    #[error(transparent)]
    Wcnf(ReadError),
    /// Its OPB body does not read.
    #[error(transparent)]
    Opb(ReadError),
    /// Its LP body does not read.
    #[error(transparent)]
    Lp(#[from] LpParseError),
    /// Its MiniZinc or FlatZinc body does not read.
    #[error(transparent)]
    Mzn(ReadError),
    /// It is none of the formats `emit` writes.
    #[error("not a file `emit` writes (DIMACS, WCNF, OPB, CPLEX LP, MiniZinc or FlatZinc)")]
    NotEmitted,
}

/// A DIMACS CNF file that does not read: the formats reader's error, worded as `decode`
/// has always worded it (no line for what concerns the whole file, no variable count).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CnfError(pub dimacs_file::CnfError);

impl std::fmt::Display for CnfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use dimacs_file::CnfError as Read;
        match &self.0 {
            Read::BeyondHeader { line, literal, .. } => {
                write!(
                    f,
                    "line {line}: literal {literal} beyond the header's variables"
                )
            }
            Read::NoHeader { .. } => f.write_str("no `p cnf` header"),
            Read::Unterminated {
                declared, found, ..
            }
            | Read::ClauseCount {
                declared, found, ..
            } => write!(
                f,
                "the header declares {declared} clauses, the file has {found}"
            ),
            other => other.fmt(f),
        }
    }
}

impl std::error::Error for CnfError {}

/// Why an answer that reads is no solution.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Rejection {
    /// The solver says there is none.
    #[error("the solver found no solution ({words}): nothing to decode")]
    NoSolution {
        /// The solver's words (`s UNSATISFIABLE`, `infeasible`).
        words: String,
    },
    /// The solver stopped without deciding.
    #[error("the solver stopped without a solution ({words}): nothing to decode")]
    Stopped {
        /// The solver's words (`s UNKNOWN`, CBC's status line).
        words: String,
    },
    /// A value for a variable number beyond the emitted file's.
    #[error("variable {var} is not in {file} (it has {count})")]
    UnknownVariable {
        /// The variable's number.
        var: usize,
        /// The emitted file's name.
        file: String,
        /// The file's variables.
        count: usize,
    },
    /// A value for a column (or MiniZinc variable) the emitted file does not have.
    #[error("{noun} {column} is not in {file}")]
    UnknownColumn {
        /// "column" for LP files, "variable" for MiniZinc and FlatZinc files.
        noun: &'static str,
        /// The column's LP name.
        column: String,
        /// The emitted file's name.
        file: String,
    },
    /// A column (or MiniZinc variable) value that is not 0 or 1.
    #[error("{noun} {column} has value {value}, not 0 or 1")]
    NotZeroOne {
        /// "column" for LP files, "variable" for MiniZinc and FlatZinc files.
        noun: &'static str,
        /// The column's LP name.
        column: String,
        /// Its value.
        value: f64,
    },
    /// Model variables without a value.
    #[error(
        "partial: no value for {missing} of the {total} model variables, the first {first} ({first_in_file})"
    )]
    Partial {
        /// How many have no value.
        missing: usize,
        /// The model's variables.
        total: usize,
        /// The first such model variable's name.
        first: String,
        /// That variable in the emitted file.
        first_in_file: FileVariable,
    },
    /// The values falsify a clause of a DIMACS file.
    #[error(
        "the values falsify clause {clause} of {file} ({})",
        clause_text(literals)
    )]
    FalsifiedClause {
        /// The 1-based clause.
        clause: usize,
        /// The emitted file's name.
        file: String,
        /// The clause's DIMACS literals.
        literals: Vec<i64>,
    },
    /// The values falsify a hard clause of a WCNF file.
    #[error(
        "the values falsify hard clause {clause} of {file} (h {})",
        clause_text(literals)
    )]
    FalsifiedHardClause {
        /// The 1-based hard clause.
        clause: usize,
        /// The emitted file's name.
        file: String,
        /// The clause's DIMACS literals.
        literals: Vec<i64>,
    },
    /// The values break a constraint of an OPB file.
    #[error(
        "the values break constraint {constraint} of {file} (left side {lhs}, {} {rhs})",
        if *equal { "=" } else { ">=" }
    )]
    BrokenOpbConstraint {
        /// The 1-based constraint.
        constraint: usize,
        /// The emitted file's name.
        file: String,
        /// The left side's value.
        lhs: i64,
        /// `=` rather than `>=`.
        equal: bool,
        /// The right side.
        rhs: i64,
    },
    /// The values break a row of an LP file.
    #[error("the values break row {row} of {file} (left side {lhs}, right side {rhs})")]
    BrokenLpRow {
        /// The row's name.
        row: String,
        /// The emitted file's name.
        file: String,
        /// The left side's value.
        lhs: f64,
        /// The right side.
        rhs: f64,
    },
    /// The values break a constraint of the model.
    #[error("the values break constraint {constraint} of the model: {description}")]
    BrokenModelConstraint {
        /// The 1-based constraint.
        constraint: usize,
        /// The constraint in words, with (some of) its literals' names.
        description: String,
    },
    /// The decoded solution breaks the puzzle's rules.
    #[error("the decoded solution breaks the {family} rules: {}", error.0)]
    BreaksRules {
        /// The puzzle family.
        family: &'static str,
        /// What the rules found.
        error: VerifyError,
    },
}

/// A variable of an emitted file: an LP column, or a variable number of the other formats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileVariable {
    /// An LP column, by its LP name.
    Column(String),
    /// A variable number (from 1).
    Variable(usize),
    /// A MiniZinc or FlatZinc variable, by its identifier.
    Named(String),
}

impl std::fmt::Display for FileVariable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileVariable::Column(name) => write!(f, "column {name}"),
            FileVariable::Variable(number) => write!(f, "variable {number}"),
            FileVariable::Named(name) => write!(f, "variable {name}"),
        }
    }
}

/// A clause's DIMACS line: `1 -2 0`.
fn clause_text(literals: &[i64]) -> String {
    let words: Vec<String> = literals.iter().map(i64::to_string).collect();
    format!("{} 0", words.join(" "))
}

/// The files `decode` reads: each with the name errors give it.
pub struct DecodeInput<'a> {
    /// The answer's name (its path, as given).
    pub answer_name: &'a str,
    /// The answer's text.
    pub answer: &'a str,
    /// The file `emit` wrote that the solver answered, (name, text); without it, the file
    /// `emit` writes now stands in (for names only: its clauses are not checked, since the
    /// solver may have answered a file with `--at-least`).
    pub emitted: Option<(&'a str, &'a str)>,
    /// The model file's name, for the regenerated file's header.
    pub origin: &'a str,
}

/// A decoded answer: the solution, verified.
#[derive(Clone, Debug)]
pub struct Decoded {
    /// What kind of answer it was.
    pub kind: AnswerKind,
    /// The solution, verified by the puzzle's rules.
    pub solution: Solution,
    /// Its objective value.
    pub value: usize,
    /// How the answer was read and checked, in words.
    pub evidence: String,
    /// The emitted file's size (variables and clauses or rows).
    pub size: Size,
}

/// What the solver said about its answer.
enum Claim {
    /// A solution; `optimal` when the solver says it is the best.
    Solution { optimal: bool },
    /// No solution exists (the solver's word), as the answer puts it.
    None(String),
    /// The solver stopped without deciding, as the answer puts it.
    Unknown(String),
}

/// The values an answer gives.
enum Values {
    /// By variable number (from 1).
    Numbers(HashMap<usize, bool>),
    /// By LP column name; `absent_is_zero` for files that list only non-zero columns (CBC).
    Names {
        values: HashMap<String, f64>,
        absent_is_zero: bool,
    },
}

/// The file the answer answers: its variable names and what an answer must satisfy.
struct Emitted {
    /// The file's name, for messages.
    name: String,
    /// Whether its clauses or rows are checked (the file was given, not regenerated).
    checked: bool,
    /// The model variable named by each variable number (from 1) or LP column, in order.
    names: Vec<String>,
    /// LP files: each column's LP name, in the order of `names` (MiniZinc and FlatZinc
    /// files: each variable's identifier).
    lp_names: Vec<String>,
    /// MiniZinc and FlatZinc files: the array entries as FlatZinc solvers print them
    /// (`q[0,1]`), each with its variable (`None`: no model variable, always 0).
    aliases: HashMap<String, Option<usize>>,
    /// What an answer must satisfy.
    body: Body,
}

enum Body {
    Cnf(Cnf),
    Wcnf(wcnf::Wcnf),
    Opb(opb::Opb),
    Lp(LinearProgram),
    /// A MiniZinc or FlatZinc file's constraints, as rows over its variables.
    Mzn(LinearProgram, Format),
}

impl Emitted {
    fn size(&self) -> Size {
        match &self.body {
            Body::Cnf(cnf) => Size::clauses(cnf.num_vars, cnf.clauses.len()),
            Body::Wcnf(w) => Size::clauses(w.num_vars, w.hard.len() + w.soft.len()),
            Body::Opb(o) => Size {
                variables: o.num_vars,
                constraints: o.constraints.len(),
                unit: "rows",
            },
            Body::Lp(p) | Body::Mzn(p, _) => Size {
                variables: p.columns.len(),
                constraints: p.rows.len(),
                unit: "rows",
            },
        }
    }

    fn format(&self) -> Format {
        match self.body {
            Body::Cnf(_) => Format::Dimacs,
            Body::Wcnf(_) => Format::Wcnf,
            Body::Opb(_) => Format::Opb,
            Body::Lp(_) => Format::Lp,
            Body::Mzn(_, format) => format,
        }
    }

    /// What a variable of the file is called in messages: "column" in LP files.
    fn noun(&self) -> &'static str {
        match self.body {
            Body::Lp(_) => "column",
            _ => "variable",
        }
    }
}

/// Reads `input.answer`, checks it and decodes it into a solution of `puzzle`, verified by
/// the puzzle's rules.
pub fn decode(puzzle: &Puzzle, input: &DecodeInput) -> Result<Decoded, DecodeError> {
    let answer_name = input.answer_name;
    let kind = AnswerKind::detect(input.answer).ok_or_else(|| Unreadable::NotAnAnswer {
        answer: answer_name.to_string(),
    })?;
    let emitted = match input.emitted {
        Some((name, text)) => read_emitted(name, text, true)?,
        None => {
            let text = emit(puzzle, input.origin, kind.format(), None);
            read_emitted("the file `emit` writes now", &text, false)?
        }
    };
    if !kind.answers(emitted.format()) {
        return Err(Unreadable::WrongFormat {
            answer: answer_name.to_string(),
            kind,
            emitted: emitted.name.clone(),
            emitted_format: emitted.format(),
        }
        .into());
    }
    let (claim, values) =
        read_answer(kind, input.answer, &emitted).map_err(|problem| Unreadable::Answer {
            answer: answer_name.to_string(),
            problem,
        })?;
    let reject = |problem: Rejection| DecodeError::Rejected {
        answer: answer_name.to_string(),
        problem,
    };
    let optimal = match claim {
        Claim::Solution { optimal } => optimal,
        Claim::None(words) => return Err(reject(Rejection::NoSolution { words })),
        Claim::Unknown(words) => return Err(reject(Rejection::Stopped { words })),
    };
    // Names first (a file of another model is bad input), then the answer's values over
    // the file's variables, a partial answer, the file's own clauses or rows, then the
    // model's constraints and the rules.
    // The model without symmetry breaking: that is no rule of the puzzle, and a symmetric
    // image of a solution (from a file written without it, or by another version) is still
    // a solution. Its variables are the same.
    let model = match puzzle {
        Puzzle::Packing(packing) => packing.compile_with(false),
        _ => puzzle.compile(),
    };
    let named: std::collections::HashSet<&str> = emitted.names.iter().map(String::as_str).collect();
    if let Some(name) = model.names().iter().find(|n| !named.contains(n.as_str())) {
        return Err(Unreadable::ForeignFile {
            emitted: emitted.name.clone(),
            variable: name.clone(),
        }
        .into());
    }
    let file_values = file_values(&emitted, &values).map_err(reject)?;
    let assignment = model_assignment(&model, &emitted, &file_values, kind)?.map_err(reject)?;
    if emitted.checked {
        check_file(&emitted, &file_values.0).map_err(reject)?;
    }
    if let Some(index) = model.constraints.iter().position(|c| !c.holds(&assignment)) {
        return Err(reject(Rejection::BrokenModelConstraint {
            constraint: index + 1,
            description: describe_constraint(&model, &model.constraints[index]),
        }));
    }
    let solution = puzzle.decode(&assignment);
    puzzle.verify(&solution).map_err(|error| {
        reject(Rejection::BreaksRules {
            family: puzzle.kind(),
            error,
        })
    })?;
    let value = puzzle.value(&solution);
    let file_check = if emitted.checked {
        format!(
            "satisfies every {} of {}",
            match emitted.body {
                Body::Cnf(_) => "clause",
                Body::Wcnf(_) => "hard clause",
                Body::Opb(_) | Body::Lp(_) => "row",
                Body::Mzn(..) => "constraint",
            },
            emitted.name
        )
    } else {
        "read by the names `emit` writes now (no file given, so none of its constraints was checked)"
            .to_string()
    };
    let claim = match (puzzle.has_objective(), optimal) {
        (true, true) => "; the solver's claim that it is optimal is not checked",
        (true, false) => "; not claimed optimal",
        (false, _) => "",
    };
    Ok(Decoded {
        kind,
        solution,
        value,
        evidence: format!(
            "{answer_name} ({}) {file_check}; the {} model variables matched by name, the \
             solution verified by the {} rules{claim}",
            kind.describe(),
            model.num_vars(),
            puzzle.kind()
        ),
        // The size reported is the file's, which the solver worked on.
        size: emitted.size(),
    })
}

fn format_name(format: Format) -> &'static str {
    match format {
        Format::Dimacs => "DIMACS",
        Format::Lp => "LP",
        Format::Wcnf => "WCNF",
        Format::Opb => "OPB",
        Format::Mzn => "MiniZinc",
        Format::Fzn => "FlatZinc",
    }
}

/// "a DIMACS", "an LP": the format's name as spoken, with its article.
fn with_article(format: Format) -> String {
    let article = match format {
        Format::Lp | Format::Opb => "an",
        Format::Dimacs | Format::Wcnf | Format::Mzn | Format::Fzn => "a",
    };
    format!("{article} {}", format_name(format))
}

/// Reads the emitted file: its names and its body.
fn read_emitted(name: &str, text: &str, checked: bool) -> Result<Emitted, DecodeError> {
    let unreadable = |problem: EmittedError| Unreadable::Emitted {
        file: name.to_string(),
        problem,
    };
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let mut aliases = HashMap::new();
    let (names, lp_names, body) = if first.starts_with('%') {
        let file = mzn::read_file(text).map_err(|e| unreadable(EmittedError::Mzn(e)))?;
        aliases = file.aliases;
        let format = match file.dialect {
            mzn::Dialect::MiniZinc => Format::Mzn,
            mzn::Dialect::FlatZinc => Format::Fzn,
        };
        (file.names, file.idents, Body::Mzn(file.program, format))
    } else if first.starts_with("* #variable=") {
        let names = read_names_after(text, "* var").map_err(|e| unreadable(e.into()))?;
        let opb = opb::read_opb(text).map_err(|e| unreadable(EmittedError::Opb(e)))?;
        (names, Vec::new(), Body::Opb(opb))
    } else if first.starts_with('\\') || first.eq_ignore_ascii_case("maximize") {
        let program = read_lp(text).map_err(|e| unreadable(e.into()))?;
        let originals: HashMap<&str, &str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("\\ column "))
            .filter_map(|l| l.split_once(" = "))
            .collect();
        let names = program
            .columns
            .iter()
            .map(|c| {
                originals
                    .get(c.as_str())
                    .map_or(c.as_str(), |o| *o)
                    .to_string()
            })
            .collect();
        (names, program.columns.clone(), Body::Lp(program))
    } else if text.lines().any(|l| l.starts_with("p cnf ")) {
        let names = read_var_names(text).map_err(|e| unreadable(e.into()))?;
        (
            names,
            Vec::new(),
            Body::Cnf(read_cnf(text).map_err(|e| unreadable(e.into()))?),
        )
    } else if text.lines().any(|l| l.starts_with("h ")) {
        let names = read_var_names(text).map_err(|e| unreadable(e.into()))?;
        let formula = wcnf::read_wcnf(text).map_err(|e| unreadable(EmittedError::Wcnf(e)))?;
        (names, Vec::new(), Body::Wcnf(formula))
    } else {
        return Err(unreadable(EmittedError::NotEmitted).into());
    };
    Ok(Emitted {
        name: name.to_string(),
        checked,
        names,
        lp_names,
        aliases,
        body,
    })
}

/// A DIMACS CNF: the `p cnf` header and the clauses; errors name the line.
fn read_cnf(text: &str) -> Result<Cnf, CnfError> {
    let file = dimacs_file::read_cnf(text, CnfDialect::Emitted).map_err(CnfError)?;
    Ok(Cnf {
        num_vars: file.num_vars,
        clauses: file
            .clauses
            .into_iter()
            .map(|clause| {
                clause
                    .into_iter()
                    .map(|l| Lit::from_dimacs(i64::from(l)))
                    .collect()
            })
            .collect(),
    })
}

/// Reads the answer's claim and values.
fn read_answer(
    kind: AnswerKind,
    text: &str,
    emitted: &Emitted,
) -> Result<(Claim, Values), AnswerError> {
    let lp = |parsed: Result<(Option<bool>, HashMap<String, f64>), SolutionError>,
              absent_is_zero| {
        let (found, values) = parsed?;
        let claim = match found {
            Some(optimal) => Claim::Solution { optimal },
            None => Claim::None("infeasible".into()),
        };
        Ok((
            claim,
            Values::Names {
                values,
                absent_is_zero,
            },
        ))
    };
    match kind {
        AnswerKind::Cbc => {
            let first = text.lines().next().unwrap_or("").trim();
            if first.starts_with("Stopped") && !first.contains("objective value") {
                return Ok((
                    Claim::Unknown(first.to_string()),
                    Values::Numbers(HashMap::new()),
                ));
            }
            // CBC lists only the columns that are not zero.
            lp(read_cbc_solution(text), true)
        }
        AnswerKind::Glpk => lp(read_glpk_solution(text, &emitted.lp_names), false),
        AnswerKind::Highs => lp(read_highs_solution(text), false),
        AnswerKind::MiniZinc => Ok(match mzn::read_answer(text)? {
            MznStatus::Solution { values, complete } => (
                Claim::Solution { optimal: complete },
                Values::Names {
                    // Read as numbers (`true` is 1); anything else is not 0 or 1.
                    values: values
                        .into_iter()
                        .map(|(name, value)| {
                            let number = match mzn::zero_one(&value) {
                                Some(bit) => f64::from(u8::from(bit)),
                                None => value.parse().unwrap_or(f64::NAN),
                            };
                            (name, number)
                        })
                        .collect(),
                    absent_is_zero: false,
                },
            ),
            MznStatus::Unsatisfiable => (
                Claim::None("=====UNSATISFIABLE=====".into()),
                Values::Numbers(HashMap::new()),
            ),
            MznStatus::Unknown(words) => (Claim::Unknown(words), Values::Numbers(HashMap::new())),
        }),
        AnswerKind::MiniSat => read_literal_lines(text, true),
        _ => read_literal_lines(text, false),
    }
}

/// Reads `s`/`v` answers (SAT, MaxSAT, PB) or MiniSat's result file (`result_file`).
fn read_literal_lines(text: &str, result_file: bool) -> Result<(Claim, Values), AnswerError> {
    let syntax = AnswerSyntax {
        result_file,
        lenient: true,
    };
    let mut claim: Option<Claim> = None;
    let mut values: HashMap<usize, bool> = HashMap::new();
    for item in AnswerReader::new(text, syntax) {
        let (line, item) = item.map_err(|error| match error {
            SatAnswerError::NotALiteral { line, word } => AnswerError::NotALiteral { line, word },
            SatAnswerError::AfterClosingZero { line } => AnswerError::AfterClosingZero { line },
        })?;
        match item {
            AnswerItem::Status(status) => {
                let status = match status {
                    AnswerStatus::Satisfiable => Claim::Solution { optimal: false },
                    AnswerStatus::OptimumFound => Claim::Solution { optimal: true },
                    AnswerStatus::Unsatisfiable if result_file => Claim::None("UNSAT".into()),
                    AnswerStatus::Unsatisfiable => Claim::None("s UNSATISFIABLE".into()),
                    AnswerStatus::Other(words) if result_file => Claim::Unknown(words),
                    AnswerStatus::Other(words) => Claim::Unknown(format!("s {words}")),
                };
                if claim.replace(status).is_some() {
                    return Err(AnswerError::SecondStatus { line });
                }
            }
            AnswerItem::Literal { var, value } => {
                if values.insert(var, value) == Some(!value) {
                    return Err(AnswerError::BothValues { line, var });
                }
            }
        }
    }
    let claim = claim.ok_or(AnswerError::NoStatus { result_file })?;
    Ok((claim, Values::Numbers(values)))
}

/// The answer's values over the emitted file's variables (or columns), and which of them
/// the answer gave.
fn file_values(emitted: &Emitted, values: &Values) -> Result<(Vec<bool>, Vec<bool>), Rejection> {
    let count = match &emitted.body {
        Body::Cnf(c) => c.num_vars,
        Body::Wcnf(w) => w.num_vars,
        Body::Opb(o) => o.num_vars,
        Body::Lp(p) | Body::Mzn(p, _) => p.columns.len(),
    }
    .max(emitted.names.len());
    let mut value = vec![false; count];
    let mut given = vec![false; count];
    match values {
        Values::Numbers(numbers) => {
            let mut sorted: Vec<(&usize, &bool)> = numbers.iter().collect();
            sorted.sort();
            for (&var, &v) in sorted {
                if var > count {
                    // A regenerated file has no `--at-least` counter: its numbers end earlier.
                    if emitted.checked {
                        return Err(Rejection::UnknownVariable {
                            var,
                            file: emitted.name.clone(),
                            count,
                        });
                    }
                    continue;
                }
                value[var - 1] = v;
                given[var - 1] = true;
            }
        }
        Values::Names {
            values,
            absent_is_zero,
        } => {
            let index: HashMap<&str, usize> = emitted
                .lp_names
                .iter()
                .enumerate()
                .map(|(i, n)| (n.as_str(), i))
                .collect();
            if *absent_is_zero {
                given.iter_mut().for_each(|g| *g = true);
            }
            let mut sorted: Vec<(&String, &f64)> = values.iter().collect();
            sorted.sort_by(|a, b| a.0.cmp(b.0));
            for (name, &v) in sorted {
                let unknown = || Rejection::UnknownColumn {
                    noun: emitted.noun(),
                    column: name.clone(),
                    file: emitted.name.clone(),
                };
                let column = match index.get(name.as_str()) {
                    Some(&column) => column,
                    // An array entry as FlatZinc solvers print it; one that is no model
                    // variable is 0.
                    None => match emitted.aliases.get(name.as_str()).ok_or_else(unknown)? {
                        Some(column) => *column,
                        None if v == 0.0 => continue,
                        None => return Err(unknown()),
                    },
                };
                let rounded = v.round();
                if (v - rounded).abs() > 1e-6 || !(rounded == 0.0 || rounded == 1.0) {
                    return Err(Rejection::NotZeroOne {
                        noun: emitted.noun(),
                        column: name.clone(),
                        value: v,
                    });
                }
                value[column] = rounded == 1.0;
                given[column] = true;
            }
        }
    }
    Ok((value, given))
}

/// Checks the values against every clause or row of the emitted file.
fn check_file(emitted: &Emitted, values: &[bool]) -> Result<(), Rejection> {
    let holds = |clause: &[Lit]| {
        clause
            .iter()
            .any(|l| values[l.var().index()] != l.is_negative())
    };
    let dimacs = |clause: &[Lit]| clause.iter().map(|l| l.dimacs()).collect();
    let name = &emitted.name;
    match &emitted.body {
        Body::Cnf(cnf) => {
            if let Some(i) = cnf.clauses.iter().position(|c| !holds(c)) {
                return Err(Rejection::FalsifiedClause {
                    clause: i + 1,
                    file: name.clone(),
                    literals: dimacs(&cnf.clauses[i]),
                });
            }
        }
        Body::Wcnf(formula) => {
            if let Some(i) = formula.hard.iter().position(|c| !holds(c)) {
                return Err(Rejection::FalsifiedHardClause {
                    clause: i + 1,
                    file: name.clone(),
                    literals: dimacs(&formula.hard[i]),
                });
            }
        }
        Body::Opb(problem) => {
            for (i, row) in problem.constraints.iter().enumerate() {
                let lhs: i64 = row
                    .terms
                    .iter()
                    .filter(|&&(_, v)| values[v])
                    .map(|&(c, _)| c)
                    .sum();
                if !(if row.equal {
                    lhs == row.rhs
                } else {
                    lhs >= row.rhs
                }) {
                    return Err(Rejection::BrokenOpbConstraint {
                        constraint: i + 1,
                        file: name.clone(),
                        lhs,
                        equal: row.equal,
                        rhs: row.rhs,
                    });
                }
            }
        }
        Body::Lp(program) | Body::Mzn(program, _) => {
            for row in &program.rows {
                let lhs = row.lhs(values);
                if !row.holds_at(lhs) {
                    return Err(Rejection::BrokenLpRow {
                        row: row.name.clone(),
                        file: name.clone(),
                        lhs,
                        rhs: row.rhs,
                    });
                }
            }
        }
    }
    Ok(())
}

/// The model's assignment, each variable looked up by name in the emitted file. The outer
/// error is a file of another model (bad input); the inner one a partial answer.
fn model_assignment(
    model: &Model,
    emitted: &Emitted,
    (values, given): &(Vec<bool>, Vec<bool>),
    kind: AnswerKind,
) -> Result<Result<Assignment, Rejection>, DecodeError> {
    let position: HashMap<&str, usize> = emitted
        .names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let mut assignment = Vec::with_capacity(model.num_vars());
    let mut missing: Vec<(usize, &str)> = Vec::new();
    for name in model.names() {
        let &at = position
            .get(name.as_str())
            .ok_or_else(|| Unreadable::ForeignFile {
                emitted: emitted.name.clone(),
                variable: name.clone(),
            })?;
        if !given[at] {
            missing.push((at + 1, name));
        }
        assignment.push(values[at]);
    }
    if let Some(&(number, name)) = missing.first() {
        let first_in_file = match kind.format() {
            Format::Lp => FileVariable::Column(emitted.lp_names[number - 1].clone()),
            Format::Mzn | Format::Fzn => FileVariable::Named(emitted.lp_names[number - 1].clone()),
            _ => FileVariable::Variable(number),
        };
        return Ok(Err(Rejection::Partial {
            missing: missing.len(),
            total: model.num_vars(),
            first: name.to_string(),
            first_in_file,
        }));
    }
    Ok(Ok(Assignment::new(assignment)))
}

/// A constraint in words, with the names of (up to six of) its literals.
fn describe_constraint(model: &Model, constraint: &Constraint) -> String {
    let lits: Vec<Lit> = constraint.lits().collect();
    let mut shown: Vec<String> = lits
        .iter()
        .take(6)
        .map(|l| {
            let name = model.name(Var::from_index(l.var().index()));
            if l.is_negative() {
                format!("not {name}")
            } else {
                name.to_string()
            }
        })
        .collect();
    if lits.len() > shown.len() {
        shown.push(format!("... ({} literals)", lits.len()));
    }
    format!("{} over {}", constraint.kind_name(), shown.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_told_apart_by_their_status_lines() {
        let cases = [
            (
                "c hi\ns SATISFIABLE\nv 1 -2 0\n",
                AnswerKind::SatCompetition,
            ),
            ("SAT\n1 -2 0\n", AnswerKind::MiniSat),
            ("o 3\ns OPTIMUM FOUND\nv 1 -2\n", AnswerKind::MaxSat),
            ("s OPTIMUM FOUND\nv 0110\n", AnswerKind::MaxSat),
            ("s OPTIMUM FOUND\nv x1 -x2\n", AnswerKind::PseudoBoolean),
            (
                "Optimal - objective value 8.00000000\n 1 q 1 1\n",
                AnswerKind::Cbc,
            ),
            ("c Problem:\ns mip 2 3 o 2\nj 1 1\n", AnswerKind::Glpk),
            ("Model status\nOptimal\n", AnswerKind::Highs),
        ];
        for (text, kind) in cases {
            assert_eq!(AnswerKind::detect(text), Some(kind), "{text}");
        }
        assert_eq!(AnswerKind::detect("hello\n"), None);
    }

    #[test]
    fn literal_lines_of_every_form_read_the_same() {
        let read = |text: &str, file: bool| match read_literal_lines(text, file).unwrap().1 {
            Values::Numbers(v) => {
                let mut v: Vec<(usize, bool)> = v.into_iter().collect();
                v.sort();
                v
            }
            Values::Names { .. } => unreachable!(),
        };
        let expected = vec![(1, true), (2, false), (3, true)];
        assert_eq!(read("s SATISFIABLE\nv 1 -2\nv 3 0\n", false), expected);
        assert_eq!(read("SAT\n1 -2 3 0\n", true), expected);
        assert_eq!(read("s OPTIMUM FOUND\nv 101\n", false), expected);
        assert_eq!(read("s OPTIMUM FOUND\nv x1 -x2 x3\n", false), expected);
        // As the message puts it after the answer's name, less the first colon.
        let error =
            |text: &str| at_line(&read_literal_lines(text, false).err().unwrap())[1..].to_string();
        assert_eq!(
            error("s SATISFIABLE\nv 1 -1 0\n"),
            "2: variable 1 is given both values"
        );
        assert_eq!(
            error("s SATISFIABLE\nv 1 0\nv 2\n"),
            "3: values after the closing 0"
        );
        assert_eq!(
            error("s SATISFIABLE\nv 1 y 0\n"),
            "2: \"y\" is not a literal"
        );
    }

    #[test]
    fn answer_errors_follow_the_file_name_with_their_line() {
        let both = read_literal_lines("s SATISFIABLE\nv 1 -1 0\n", false)
            .err()
            .unwrap();
        assert_eq!(both, AnswerError::BothValues { line: 2, var: 1 });
        let status = AnswerError::NoStatus { result_file: true };
        assert_eq!(status.line(), None);
        let unreadable = Unreadable::Answer {
            answer: "a.txt".into(),
            problem: status,
        };
        assert_eq!(unreadable.to_string(), "a.txt: no status line (`SAT`)");
        let unreadable = Unreadable::Answer {
            answer: "a.txt".into(),
            problem: both,
        };
        assert_eq!(
            unreadable.to_string(),
            "a.txt:2: variable 1 is given both values"
        );
    }
}
