//! MiniZinc and FlatZinc files for constraint solvers (Gecode, Chuffed, and any other
//! solver MiniZinc drives), written from the same rows as the CPLEX LP file
//! ([`super::lp::constraint_row`]), and read back by `decode`.
//!
//! Every model variable is a `var 0..1` integer named by an identifier made from its name
//! (`q[3,5]` becomes `q_3_5`, as in LP files; MiniZinc keywords get an `x_` prefix), each
//! declaration followed by a `% name` comment giving the model's name back. A MiniZinc file
//! (`.mzn`) writes each row as a readable linear constraint
//! (`constraint q_0_0 + q_1_0 <= 1;  % c1: at-most-one`), the objective as
//! `var int: objective = ...;` with `solve maximize objective;` (or `solve satisfy;`), and
//! an `output` item printing every variable as `name = value;`, one per line. A FlatZinc
//! file (`.fzn`) says the same with `int_lin_le` / `int_lin_eq` constraints and
//! `:: output_var` annotations, so `fzn-gecode FILE.fzn` prints the same lines without the
//! MiniZinc compiler.
//!
//! Answers are read by [`read_answer`]: `name = value;` lines (names that start with `_`,
//! MiniZinc's own such as `_objective`, skipped), `----------` after each solution (the
//! last one counts), `==========` when the search is complete (the optimum
//! for `solve maximize`), `=====UNSATISFIABLE=====` or `=====UNKNOWN=====`.

use super::lp::{self, Comparison, LinearProgram, Row};
use super::stream::StreamError;
use super::ReadError;
use crate::base::Control;
use crate::model::Model;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::io::Write;

/// The name of the objective variable in both formats; no model variable gets it.
pub const OBJECTIVE: &str = "objective";

/// Words a MiniZinc or FlatZinc identifier must not be: keywords, and the names of the
/// built-in functions the files use.
const RESERVED: [&str; 55] = [
    "ann",
    "annotation",
    "any",
    "array",
    "bool",
    "case",
    "constraint",
    "default",
    "diff",
    "div",
    "else",
    "elseif",
    "endif",
    "enum",
    "false",
    "float",
    "function",
    "if",
    "in",
    "include",
    "int",
    "intersect",
    "let",
    "list",
    "maximize",
    "minimize",
    "mod",
    "not",
    "of",
    "op",
    "opt",
    "output",
    "par",
    "predicate",
    "record",
    "satisfy",
    "set",
    "solve",
    "string",
    "subset",
    "superset",
    "symdiff",
    "test",
    "then",
    "true",
    "tuple",
    "type",
    "union",
    "var",
    "where",
    "xor",
    "show",
    "sum",
    "bool2int",
    OBJECTIVE,
];

/// MiniZinc-safe, unique identifiers for `names`: the LP column names
/// ([`super::lp_file::lp_names`]), with `x_` before a keyword (and before `objective`).
pub fn mzn_names(names: &[String]) -> Vec<String> {
    let mut used: HashSet<String> = HashSet::new();
    super::lp_file::lp_names(names)
        .into_iter()
        .map(|mut name| {
            if RESERVED.contains(&name.as_str()) {
                name.insert_str(0, "x_");
            }
            let base = name.clone();
            let mut count = 1;
            while used.contains(&name) {
                count += 1;
                name = format!("{base}_{count}");
            }
            used.insert(name.clone());
            name
        })
        .collect()
}

/// Which of the two dialects.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// MiniZinc: readable constraints and an `output` item; `minizinc --solver gecode`.
    MiniZinc,
    /// FlatZinc: `int_lin_le` / `int_lin_eq` and `:: output_var`; `fzn-gecode`.
    FlatZinc,
}

/// Writes lines to `out`, polling `control` every few thousand lines.
struct Lines<'a> {
    out: &'a mut dyn Write,
    control: &'a Control,
    line: String,
    count: u64,
}

impl Lines<'_> {
    fn put(&mut self, fill: impl FnOnce(&mut String)) -> Result<(), StreamError> {
        self.line.clear();
        fill(&mut self.line);
        self.out.write_all(self.line.as_bytes())?;
        self.count += 1;
        if self.count.is_multiple_of(1 << 12) && self.control.should_stop() {
            return Err(StreamError::Stopped);
        }
        Ok(())
    }
}

/// What a file states, apart from its variables: the objective (maximised, as terms and
/// a constant), the rows each with a comment, and whether it asks "objective at least K".
pub struct Problem<'a> {
    /// The model's variable names, one per column.
    pub names: &'a [String],
    /// The objective's (coefficient, column) terms and constant; `None` for no objective.
    pub objective: Option<(Vec<(f64, usize)>, f64)>,
    /// The rows, each with the words of its comment (`c1: at-most-one`).
    pub rows: Vec<(Row, String)>,
    /// "Objective at least K" (a constraint, and `solve satisfy`).
    pub at_least: Option<usize>,
}

impl<'a> Problem<'a> {
    /// The model's constraints as rows `c1`, `c2`... (the LP file's), each commented with
    /// its kind, with "objective at least K" when `at_least` gives K.
    pub fn from_model(model: &'a Model, at_least: Option<usize>) -> Problem<'a> {
        let rows = model
            .constraints
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let row = lp::constraint_row(c, i + 1);
                let words = format!("{}: {}", row.name, c.kind_name());
                (row, words)
            })
            .collect();
        Problem {
            names: model.names(),
            objective: model.objective.as_ref().map(|_| lp::objective_terms(model)),
            rows,
            at_least: at_least.filter(|_| model.objective.is_some()),
        }
    }

    /// A 0-1 program as it is (its rows, an `at_least` row among them, cuts included):
    /// what `--solver cp:NAME` hands MiniZinc. A program with an `at_least` row asks
    /// `solve satisfy`.
    pub fn from_program(program: &'a LinearProgram) -> Problem<'a> {
        let decision = program.rows.iter().any(|r| r.name == "at_least");
        Problem {
            names: &program.columns,
            objective: (!program.objective.is_empty() && !decision)
                .then(|| (program.objective.clone(), program.objective_offset)),
            rows: program
                .rows
                .iter()
                .map(|r| (r.clone(), r.name.clone()))
                .collect(),
            at_least: None,
        }
    }
}

/// `+ a - b + 2*c` in MiniZinc, or `0` for no terms.
fn mzn_terms(out: &mut String, terms: &[(f64, usize)], idents: &[String]) {
    if terms.is_empty() {
        out.push('0');
        return;
    }
    for (i, &(coefficient, column)) in terms.iter().enumerate() {
        let c = coefficient as i64;
        let name = &idents[column];
        match (i, c) {
            (0, 1) => out.push_str(name),
            (0, -1) => {
                let _ = write!(out, "-{name}");
            }
            (0, c) => {
                let _ = write!(out, "{c}*{name}");
            }
            (_, 1) => {
                let _ = write!(out, " + {name}");
            }
            (_, -1) => {
                let _ = write!(out, " - {name}");
            }
            (_, c) if c < 0 => {
                let _ = write!(out, " - {}*{name}", -c);
            }
            (_, c) => {
                let _ = write!(out, " + {c}*{name}");
            }
        }
    }
}

/// `[1,-1],[a,b]` in FlatZinc.
fn fzn_arrays(out: &mut String, terms: &[(f64, usize)], idents: &[String], scale: i64) {
    let coefficients: Vec<String> = terms
        .iter()
        .map(|&(c, _)| (c as i64 * scale).to_string())
        .collect();
    let variables: Vec<&str> = terms.iter().map(|&(_, v)| idents[v].as_str()).collect();
    let _ = write!(
        out,
        "[{}],[{}]",
        coefficients.join(","),
        variables.join(",")
    );
}

/// Writes `problem` in `dialect` to `out`, `comments` first (each as a `%` line), line by
/// line; `control` can stop it ([`StreamError::Stopped`]).
pub fn write(
    problem: &Problem,
    dialect: Dialect,
    comments: &[String],
    out: &mut dyn Write,
    control: &Control,
) -> Result<(), StreamError> {
    let idents = mzn_names(problem.names);
    let mut lines = Lines {
        out,
        control,
        line: String::new(),
        count: 0,
    };
    let fzn = dialect == Dialect::FlatZinc;
    lines.put(|l| {
        for comment in comments {
            let _ = writeln!(l, "% {comment}");
        }
        let _ = writeln!(
            l,
            "% {}: every model variable is a `var 0..1`, its model name in the comment after it",
            if fzn { "FlatZinc" } else { "MiniZinc" }
        );
    })?;
    for (ident, name) in idents.iter().zip(problem.names) {
        lines.put(|l| {
            let annotation = if fzn { " :: output_var" } else { "" };
            let _ = writeln!(l, "var 0..1: {ident}{annotation};  % {name}");
        })?;
    }
    if let Some((terms, offset)) = &problem.objective {
        let offset = *offset as i64;
        let positive = terms.iter().filter(|t| t.0 > 0.0).count() as i64;
        let negative = terms.len() as i64 - positive;
        let (low, high) = (offset - negative, offset + positive);
        lines.put(|l| {
            if fzn {
                let _ = writeln!(l, "var {low}..{high}: {OBJECTIVE};");
            } else {
                let _ = write!(l, "var {low}..{high}: {OBJECTIVE} = ");
                if offset != 0 {
                    let _ = write!(l, "{offset} + ");
                }
                mzn_terms(l, terms, &idents);
                l.push_str(";\n");
            }
        })?;
        if fzn {
            // sum(terms) - objective = -offset
            let mut with_objective = terms.clone();
            with_objective.push((-1.0, usize::MAX));
            lines.put(|l| {
                let coefficients: Vec<String> = with_objective
                    .iter()
                    .map(|&(c, _)| (c as i64).to_string())
                    .collect();
                let variables: Vec<&str> = with_objective
                    .iter()
                    .map(|&(_, v)| idents.get(v).map_or(OBJECTIVE, String::as_str))
                    .collect();
                let _ = writeln!(
                    l,
                    "constraint int_lin_eq([{}],[{}],{});  % {OBJECTIVE}",
                    coefficients.join(","),
                    variables.join(","),
                    -offset
                );
            })?;
        }
    }
    for (row, words) in &problem.rows {
        lines.put(|l| write_row(l, row, words, &idents, dialect))?;
    }
    if let (Some(k), Some(_)) = (problem.at_least, &problem.objective) {
        lines.put(|l| {
            if fzn {
                let _ = writeln!(l, "constraint int_le({k},{OBJECTIVE});  % at_least");
            } else {
                let _ = writeln!(l, "constraint {OBJECTIVE} >= {k};  % at_least");
            }
        })?;
    }
    lines.put(|l| {
        if problem.objective.is_some() && problem.at_least.is_none() {
            let _ = writeln!(l, "solve maximize {OBJECTIVE};");
        } else {
            l.push_str("solve satisfy;\n");
        }
    })?;
    if !fzn {
        lines.put(|l| l.push_str("output [\n"))?;
        for ident in &idents {
            lines.put(|l| {
                let _ = writeln!(l, "  \"{ident} = \", show({ident}), \";\\n\",");
            })?;
        }
        lines.put(|l| l.push_str("];\n"))?;
    }
    lines.out.flush()?;
    if control.should_stop() {
        return Err(StreamError::Stopped);
    }
    Ok(())
}

/// One row as a constraint line.
fn write_row(l: &mut String, row: &Row, words: &str, idents: &[String], dialect: Dialect) {
    let rhs = row.rhs as i64;
    if row.terms.is_empty() {
        // A row without variables holds or not by itself.
        let holds = row.holds_at(0.0);
        let _ = match (dialect, holds) {
            (_, true) => writeln!(l, "% {words}: no variables, always true"),
            (Dialect::MiniZinc, false) => writeln!(l, "constraint false;  % {words}"),
            (Dialect::FlatZinc, false) => {
                writeln!(l, "constraint bool_eq(true,false);  % {words}")
            }
        };
        return;
    }
    match dialect {
        Dialect::MiniZinc => {
            l.push_str("constraint ");
            mzn_terms(l, &row.terms, idents);
            let op = match row.comparison {
                Comparison::AtMost => "<=",
                Comparison::AtLeast => ">=",
                Comparison::Equal => "=",
            };
            let _ = writeln!(l, " {op} {rhs};  % {words}");
        }
        Dialect::FlatZinc => {
            let (predicate, scale, rhs) = match row.comparison {
                Comparison::AtMost => ("int_lin_le", 1, rhs),
                Comparison::AtLeast => ("int_lin_le", -1, -rhs),
                Comparison::Equal => ("int_lin_eq", 1, rhs),
            };
            let _ = write!(l, "constraint {predicate}(");
            fzn_arrays(l, &row.terms, idents, scale);
            let _ = writeln!(l, ",{rhs});  % {words}");
        }
    }
}

/// A MiniZinc or FlatZinc file `emit` wrote, read back: its identifiers with the model
/// names their comments give, and its constraints as rows over them.
#[derive(Clone, Debug, PartialEq)]
pub struct MznFile {
    /// Which dialect it is.
    pub dialect: Dialect,
    /// The identifiers, in the order declared.
    pub idents: Vec<String>,
    /// The model name of each identifier (the identifier itself when no comment names it).
    pub names: Vec<String>,
    /// The constraints as rows over the identifiers (the objective's definition left out;
    /// `objective >= K` as a row over the objective's terms).
    pub program: LinearProgram,
}

/// Reads a file of the form [`write()`] writes. Only its declarations and constraint lines
/// are read; every other line (comments, the objective, `solve`, `output`) is skipped.
pub fn read_file(text: &str) -> Result<MznFile, ReadError> {
    // FlatZinc by its annotations, its header comment or its constraints (a file without
    // variables has no annotation).
    let fzn = text.lines().any(|l| {
        l.contains(":: output_var")
            || l.starts_with("% FlatZinc:")
            || l.starts_with("constraint int_lin_")
    });
    let mut idents: Vec<String> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut rows: Vec<Row> = Vec::new();
    let mut objective: Option<(Vec<(f64, usize)>, f64)> = None;
    // `objective >= K` lines, resolved once the objective is read.
    let mut bounds: Vec<(usize, i64)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let error = |message: String| ReadError::Line {
            line: number,
            message,
        };
        let (code, comment) = match raw.split_once('%') {
            Some((code, comment)) => (code.trim(), comment.trim()),
            None => (raw.trim(), ""),
        };
        if let Some(rest) = code.strip_prefix("var 0..1:") {
            let ident = rest
                .trim()
                .trim_end_matches(';')
                .trim_end_matches(":: output_var")
                .trim();
            if ident.is_empty() || !ident.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(error(format!("bad variable declaration {code:?}")));
            }
            if index.insert(ident.to_string(), idents.len()).is_some() {
                return Err(error(format!("variable {ident} declared twice")));
            }
            idents.push(ident.to_string());
            names.push(if comment.is_empty() {
                ident.to_string()
            } else {
                comment.to_string()
            });
            continue;
        }
        if !fzn {
            if let Some(definition) = code
                .strip_prefix("var ")
                .and_then(|d| d.split_once(&format!("{OBJECTIVE} =")))
            {
                let expression = definition.1.trim().trim_end_matches(';');
                let (terms, constant) = read_mzn_terms(expression, &index).map_err(&error)?;
                objective = Some((terms, constant as f64));
                continue;
            }
        }
        let Some(body) = code.strip_prefix("constraint ") else {
            continue;
        };
        let body = body.trim().trim_end_matches(';').trim();
        let row_name = comment
            .split(':')
            .next()
            .filter(|n| !n.is_empty())
            .map_or_else(|| format!("line{number}"), str::to_string);
        if comment == OBJECTIVE && fzn {
            // int_lin_eq([..,-1],[.., objective], -offset): the objective's definition.
            let (mut terms, rhs) =
                read_fzn_call(body, "int_lin_eq", &index, true).map_err(&error)?;
            terms.retain(|&(_, v)| v != usize::MAX);
            objective = Some((terms, -rhs as f64));
            continue;
        }
        let row = if fzn {
            if let Some(args) = body
                .strip_prefix("int_le(")
                .and_then(|a| a.strip_suffix(")"))
            {
                let (k, var) = args
                    .split_once(',')
                    .ok_or_else(|| error(format!("bad constraint {body:?}")))?;
                if var.trim() != OBJECTIVE {
                    return Err(error(format!("bad constraint {body:?}")));
                }
                let k: i64 = k
                    .trim()
                    .parse()
                    .map_err(|_| error(format!("bad bound {k:?}")))?;
                bounds.push((rows.len(), k));
                rows.push(placeholder(row_name));
                continue;
            }
            if body == "bool_eq(true,false)" {
                Row {
                    name: row_name,
                    terms: Vec::new(),
                    comparison: Comparison::AtLeast,
                    rhs: 1.0,
                }
            } else {
                let (predicate, comparison) = if body.starts_with("int_lin_le(") {
                    ("int_lin_le", Comparison::AtMost)
                } else if body.starts_with("int_lin_eq(") {
                    ("int_lin_eq", Comparison::Equal)
                } else {
                    return Err(error(format!("unknown constraint {body:?}")));
                };
                let (terms, rhs) = read_fzn_call(body, predicate, &index, false).map_err(&error)?;
                Row {
                    name: row_name,
                    terms,
                    comparison,
                    rhs: rhs as f64,
                }
            }
        } else {
            if body == "false" {
                rows.push(Row {
                    name: row_name,
                    terms: Vec::new(),
                    comparison: Comparison::AtLeast,
                    rhs: 1.0,
                });
                continue;
            }
            let (left, comparison, right) = [
                ("<=", Comparison::AtMost),
                (">=", Comparison::AtLeast),
                ("=", Comparison::Equal),
            ]
            .into_iter()
            .find_map(|(op, comparison)| {
                body.split_once(op)
                    .map(|(left, right)| (left, comparison, right))
            })
            .ok_or_else(|| error(format!("no comparison in constraint {body:?}")))?;
            let rhs: i64 = right
                .trim()
                .parse()
                .map_err(|_| error(format!("bad right side {:?}", right.trim())))?;
            if left.trim() == OBJECTIVE && comparison == Comparison::AtLeast {
                bounds.push((rows.len(), rhs));
                rows.push(placeholder(row_name));
                continue;
            }
            let (terms, constant) = read_mzn_terms(left.trim(), &index).map_err(&error)?;
            Row {
                name: row_name,
                terms,
                comparison,
                rhs: (rhs - constant) as f64,
            }
        };
        rows.push(row);
    }
    if idents.is_empty() && !text.lines().any(|l| l.trim_start().starts_with("solve ")) {
        return Err(ReadError::File(
            "no `var 0..1` declarations and no `solve` item".into(),
        ));
    }
    let (objective_terms, offset) = objective.clone().unwrap_or_default();
    for (at, k) in bounds {
        if objective.is_none() {
            return Err(ReadError::File(
                "a bound on the objective, but no objective".into(),
            ));
        }
        rows[at].terms = objective_terms.clone();
        rows[at].rhs = k as f64 - offset;
    }
    Ok(MznFile {
        dialect: if fzn {
            Dialect::FlatZinc
        } else {
            Dialect::MiniZinc
        },
        idents: idents.clone(),
        names,
        program: LinearProgram {
            columns: idents,
            objective: objective_terms,
            objective_offset: offset,
            rows,
        },
    })
}

fn placeholder(name: String) -> Row {
    Row {
        name,
        terms: Vec::new(),
        comparison: Comparison::AtLeast,
        rhs: 0.0,
    }
}

/// `3 + a - b + 2*c` as terms over known identifiers and a constant.
fn read_mzn_terms(
    text: &str,
    index: &HashMap<String, usize>,
) -> Result<(Vec<(f64, usize)>, i64), String> {
    let spaced = text.replace('+', " + ").replace('-', " - ");
    let mut terms = Vec::new();
    let mut constant = 0i64;
    let mut sign = 1i64;
    for word in spaced.split_whitespace() {
        match word {
            "+" => continue,
            "-" => {
                sign = -sign;
                continue;
            }
            _ => {}
        }
        let (coefficient, name) = match word.split_once('*') {
            Some((c, name)) => (
                c.parse::<i64>()
                    .map_err(|_| format!("bad coefficient {c:?}"))?,
                Some(name),
            ),
            None => match word.parse::<i64>() {
                Ok(n) => (n, None),
                Err(_) => (1, Some(word)),
            },
        };
        match name {
            None => constant += sign * coefficient,
            Some(name) => {
                let &column = index
                    .get(name)
                    .ok_or_else(|| format!("undeclared variable {name:?}"))?;
                terms.push(((sign * coefficient) as f64, column));
            }
        }
        sign = 1;
    }
    Ok((terms, constant))
}

/// `predicate([c..],[v..],rhs)` as terms and the right side; `objective` (when
/// `allow_objective`) becomes column `usize::MAX`.
fn read_fzn_call(
    body: &str,
    predicate: &str,
    index: &HashMap<String, usize>,
    allow_objective: bool,
) -> Result<(Vec<(f64, usize)>, i64), String> {
    let bad = || format!("bad constraint {body:?}");
    let args = body
        .strip_prefix(predicate)
        .and_then(|a| a.strip_prefix('('))
        .and_then(|a| a.strip_suffix(')'))
        .ok_or_else(bad)?;
    let (coefficients, rest) = args
        .strip_prefix('[')
        .and_then(|a| a.split_once("],["))
        .ok_or_else(bad)?;
    let (variables, rhs) = rest.split_once("],").ok_or_else(bad)?;
    let rhs: i64 = rhs.trim().parse().map_err(|_| bad())?;
    let list = |s: &str| -> Vec<String> {
        s.split(',')
            .map(|w| w.trim().to_string())
            .filter(|w| !w.is_empty())
            .collect()
    };
    let coefficients = list(coefficients);
    let variables = list(variables);
    if coefficients.len() != variables.len() {
        return Err(bad());
    }
    let mut terms = Vec::with_capacity(variables.len());
    for (c, v) in coefficients.iter().zip(&variables) {
        let c: i64 = c.parse().map_err(|_| format!("bad coefficient {c:?}"))?;
        let column = if allow_objective && v == OBJECTIVE {
            usize::MAX
        } else {
            *index
                .get(v.as_str())
                .ok_or_else(|| format!("undeclared variable {v:?}"))?
        };
        terms.push((c as f64, column));
    }
    Ok((terms, rhs))
}

/// What a MiniZinc or FlatZinc solver printed.
#[derive(Clone, Debug, PartialEq)]
pub enum MznStatus {
    /// A solution (the last one printed), and whether `==========` says the search
    /// finished (for `solve maximize`: the solver claims it optimal).
    Solution {
        /// The values by identifier, as written (`0`, `1`, `true`, ...).
        values: Vec<(String, String)>,
        /// `==========` was printed.
        complete: bool,
    },
    /// `=====UNSATISFIABLE=====`.
    Unsatisfiable,
    /// `=====UNKNOWN=====`, `=====ERROR=====` or another status without a solution; the
    /// line as printed.
    Unknown(String),
}

/// An answer that does not read as MiniZinc solver output.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MznAnswerError {
    /// A line that is none of `name = value;` (an integer or Boolean value), a separator, a
    /// status or a `%` comment.
    #[error("line {line}: {text:?} is not `name = value;`")]
    NotAnAssignment {
        /// The 1-based line.
        line: usize,
        /// The line.
        text: String,
    },
    /// A variable given twice in one solution.
    #[error("line {line}: {name} is given twice in one solution")]
    Twice {
        /// The 1-based line.
        line: usize,
        /// The identifier.
        name: String,
    },
    /// Values after the last `----------`: a solution cut off.
    #[error("values after the last `----------` (a solution cut off)")]
    Unfinished,
    /// No solution and no status line.
    #[error("no solution (`----------`) and no status line (`=====UNSATISFIABLE=====`)")]
    Empty,
}

/// Reads MiniZinc solver output (see the module's documentation).
pub fn read_answer(text: &str) -> Result<MznStatus, MznAnswerError> {
    let mut current: Vec<(String, String)> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut last: Option<Vec<(String, String)>> = None;
    let mut complete = false;
    let mut status: Option<MznStatus> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('%') {
            continue;
        }
        if line == "----------" {
            last = Some(std::mem::take(&mut current));
            seen.clear();
            continue;
        }
        if line == "==========" {
            complete = true;
            continue;
        }
        if line.starts_with("=====") && line.ends_with("=====") {
            status = Some(if line == "=====UNSATISFIABLE=====" {
                MznStatus::Unsatisfiable
            } else {
                MznStatus::Unknown(line.to_string())
            });
            continue;
        }
        let Some((name, value)) = assignment(line) else {
            return Err(MznAnswerError::NotAnAssignment {
                line: i + 1,
                text: line.to_string(),
            });
        };
        // MiniZinc's own values (`_objective = 8;` with `--output-objective`): no
        // identifier `emit` writes starts with `_`.
        if name.starts_with('_') {
            continue;
        }
        if !seen.insert(name.to_string()) {
            return Err(MznAnswerError::Twice {
                line: i + 1,
                name: name.to_string(),
            });
        }
        current.push((name.to_string(), value.to_string()));
    }
    if !current.is_empty() {
        return Err(MznAnswerError::Unfinished);
    }
    match (last, status) {
        (Some(values), _) => Ok(MznStatus::Solution { values, complete }),
        (None, Some(status)) => Ok(status),
        (None, None) => Err(MznAnswerError::Empty),
    }
}

/// Whether `text` looks like MiniZinc solver output: a `----------` separator or a
/// `=====...=====` status line, or (a solution cut off before its separator) nothing but
/// `name = value;` lines and `%` comments.
pub fn is_answer(text: &str) -> bool {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('%'))
        .collect();
    let marked = lines.iter().any(|l| {
        *l == "----------" || (l.len() > 10 && l.starts_with("=====") && l.ends_with("====="))
    });
    marked || (!lines.is_empty() && lines.iter().all(|l| assignment(l).is_some()))
}

/// `name = value;` as (name, value), the name an identifier and the value an integer or
/// Boolean.
fn assignment(line: &str) -> Option<(&str, &str)> {
    line.strip_suffix(';')
        .and_then(|l| l.split_once('='))
        .map(|(name, value)| (name.trim(), value.trim()))
        .filter(|(name, value)| {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && (value.parse::<i64>().is_ok() || zero_one(value).is_some())
        })
}

/// A value as 0 or 1 (`true` / `false` too); `None` for anything else.
pub fn zero_one(value: &str) -> Option<bool> {
    match value {
        "0" | "false" => Some(false),
        "1" | "true" => Some(true),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Constraint, Lit, Objective};

    fn sample() -> Model {
        let mut m = Model::new();
        let l: Vec<Lit> = ["q[0,0]", "q[1,0]", "int", "objective", "x"]
            .iter()
            .map(|n| m.new_var(n.to_string()).positive())
            .collect();
        m.add(Constraint::AtMostOne(vec![l[0], l[1], !l[2]]));
        m.add(Constraint::ExactlyOne(vec![l[2], l[3]]));
        m.add(Constraint::AtLeast(vec![l[0], l[3], !l[4]], 2));
        m.add(Constraint::AtLeastAsMany {
            first: vec![l[0]],
            second: vec![l[1], !l[4]],
        });
        m.objective = Some(Objective {
            lits: vec![l[0], l[1], !l[4]],
            amo_groups: None,
        });
        m
    }

    fn text(model: &Model, dialect: Dialect, at_least: Option<usize>) -> String {
        let mut out = Vec::new();
        write(
            &Problem::from_model(model, at_least),
            dialect,
            &["hello".into()],
            &mut out,
            &Control::unlimited(),
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn keywords_are_not_identifiers() {
        let names: Vec<String> = ["int", "objective", "q[1]", "x_int", "sum"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            mzn_names(&names),
            vec!["x_int", "x_objective", "q_1", "x_int_2", "x_sum"]
        );
    }

    #[test]
    fn both_dialects_read_back_as_the_rows_of_the_lp_file() {
        let model = sample();
        for at_least in [None, Some(2)] {
            let lp = LinearProgram::from_model(&model, at_least);
            for dialect in [Dialect::MiniZinc, Dialect::FlatZinc] {
                let written = text(&model, dialect, at_least);
                let file = read_file(&written).unwrap();
                assert_eq!(file.dialect, dialect, "{written}");
                assert_eq!(file.names, model.names(), "{written}");
                assert_eq!(file.program.rows.len(), lp.rows.len(), "{written}");
                for (read, expected) in file.program.rows.iter().zip(&lp.rows) {
                    // Every 0-1 point agrees (the forms may differ by a factor of -1).
                    for bits in 0u32..32 {
                        let values: Vec<bool> = (0..5).map(|i| bits >> i & 1 == 1).collect();
                        assert_eq!(
                            read.holds_at(read.lhs(&values)),
                            expected.holds_at(expected.lhs(&values)),
                            "{dialect:?} row {} at {bits:05b}\n{written}",
                            expected.name
                        );
                    }
                }
                assert_eq!(file.program.objective, lp.objective, "{written}");
                assert_eq!(file.program.objective_offset, lp.objective_offset);
            }
        }
    }

    #[test]
    fn the_minizinc_file_reads_as_written() {
        let written = text(&sample(), Dialect::MiniZinc, None);
        assert!(written.starts_with("% hello\n"), "{written}");
        assert!(written.contains("var 0..1: x_int;  % int\n"), "{written}");
        assert!(
            written.contains("constraint q_0_0 + q_1_0 - x_int <= 0;  % c1: at-most-one\n"),
            "{written}"
        );
        assert!(
            written.contains("var 0..3: objective = 1 + q_0_0 + q_1_0 - x;\n"),
            "{written}"
        );
        assert!(written.contains("solve maximize objective;\n"), "{written}");
        assert!(
            written.contains("  \"q_0_0 = \", show(q_0_0), \";\\n\",\n"),
            "{written}"
        );
        let decision = text(&sample(), Dialect::MiniZinc, Some(2));
        assert!(decision.contains("constraint objective >= 2;  % at_least\n"));
        assert!(decision.contains("solve satisfy;\n"));
    }

    #[test]
    fn files_without_variables_read_back() {
        let mut model = Model::new();
        model.objective = Some(Objective {
            lits: Vec::new(),
            amo_groups: None,
        });
        for dialect in [Dialect::MiniZinc, Dialect::FlatZinc] {
            let written = text(&model, dialect, None);
            let file = read_file(&written).unwrap();
            assert_eq!(file.dialect, dialect, "{written}");
            assert!(file.idents.is_empty() && file.program.rows.is_empty());
        }
    }

    #[test]
    fn answers_read_the_last_solution_and_the_status() {
        let text = "a = 1;\nb = 0;\n----------\na = 0;\nb = 1;\n----------\n==========\n";
        assert_eq!(
            read_answer(text).unwrap(),
            MznStatus::Solution {
                values: vec![("a".into(), "0".into()), ("b".into(), "1".into())],
                complete: true
            }
        );
        assert_eq!(
            read_answer("=====UNSATISFIABLE=====\n").unwrap(),
            MznStatus::Unsatisfiable
        );
        assert_eq!(
            read_answer("% hi\n=====UNKNOWN=====\n").unwrap(),
            MznStatus::Unknown("=====UNKNOWN=====".into())
        );
        assert_eq!(
            read_answer("a = 1;\n").unwrap_err(),
            MznAnswerError::Unfinished
        );
        assert_eq!(
            read_answer("a = 1;\na = 0;\n----------\n")
                .unwrap_err()
                .to_string(),
            "line 2: a is given twice in one solution"
        );
        assert_eq!(
            read_answer("hello\n----------\n").unwrap_err().to_string(),
            "line 1: \"hello\" is not `name = value;`"
        );
        assert!(is_answer("a = 1;\n----------\n"));
        assert!(is_answer("=====UNSATISFIABLE=====\n"));
        assert_eq!(
            read_answer("a = 1;\n_objective = 1;\n----------\n").unwrap(),
            MznStatus::Solution {
                values: vec![("a".into(), "1".into())],
                complete: false
            }
        );
        assert!(is_answer("% cut off\na = 1;\n"));
        assert!(!is_answer("s SATISFIABLE\n"));
        assert!(!is_answer("v 1 -2 0\n"));
    }
}
