//! A model, or a 0-1 program, as a MiniZinc or FlatZinc file: its rows are the CPLEX LP
//! file's ([`super::lp::constraint_row`]); [`crate::formats::minizinc`] writes them, its
//! identifiers made from the LP column names.

#[cfg(test)]
mod tests;

use super::lp;
use crate::base::Control;
use crate::formats::linear::LinearProgram;
use crate::formats::lines::WriteError;
use crate::formats::minizinc::{self, Dialect, Problem};
use crate::model::Model;
use std::io::Write;

/// MiniZinc-safe, unique identifiers for `names`: the LP column names, with `x_` before a
/// keyword (and before `objective`), as [`minizinc::idents`] makes them.
pub fn mzn_names(names: &[String]) -> Vec<String> {
    minizinc::idents(names)
}

/// The model's constraints as rows `c1`, `c2`... (the LP file's), each commented with its
/// kind, with "objective at least K" when `at_least` gives K.
pub fn model_problem(model: &Model, at_least: Option<usize>) -> Problem<'_> {
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

/// A 0-1 program as it is (its rows, an `at_least` row among them, cuts included): what
/// `--solver cp:NAME` hands MiniZinc. A program with an `at_least` row asks `solve
/// satisfy`.
pub fn program_problem(program: &LinearProgram) -> Problem<'_> {
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

/// Writes `model` (asking "objective at least K" when `at_least` gives K) in `dialect` to
/// `out`, `comments` first, line by line; `control` can stop it ([`WriteError::Stopped`]).
pub fn write(
    model: &Model,
    at_least: Option<usize>,
    dialect: Dialect,
    comments: &[String],
    out: &mut dyn Write,
    control: &Control,
) -> Result<(), WriteError> {
    let problem = model_problem(model, at_least);
    minizinc::write(&problem, dialect, comments, out, &|| control.should_stop())
}
