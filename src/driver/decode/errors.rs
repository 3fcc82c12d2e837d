//! What goes wrong in `decode`: bad input ([`Unreadable`]: an answer or emitted file that
//! does not read, or belongs to another model) and answers that read but are no solution
//! ([`Rejection`]), each message naming the file and, where there is one, the line.

use super::format_of;
use crate::driver::emit::Format;
use crate::formats::dimacs::{self as dimacs_file, VarNameError};
use crate::formats::lp::LpParseError;
use crate::formats::milp_solution::SolutionError;
use crate::formats::minizinc::MznAnswerError;
use crate::formats::opb::{NotNumbered, PbSyntaxError, Relation};
use crate::formats::sniff::AnswerKind;
use crate::formats::ReadError;
use crate::puzzle::VerifyError;

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
            _ => format_name(format_of(*kind)),
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
pub(super) fn at_line(problem: &AnswerError) -> String {
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
    Opb(PbSyntaxError),
    /// Its OPB body names a variable other than `x1 .. xN`.
    #[error(transparent)]
    OpbVariable(#[from] NotNumbered),
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
        match relation {
            Relation::AtLeast => ">=",
            Relation::AtMost => "<=",
            Relation::Equal => "=",
        }
    )]
    BrokenOpbConstraint {
        /// The 1-based constraint.
        constraint: usize,
        /// The emitted file's name.
        file: String,
        /// The left side's value.
        lhs: i64,
        /// How the left side compares with the right.
        relation: Relation,
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
