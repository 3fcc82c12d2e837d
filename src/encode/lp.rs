//! A model as a 0-1 linear program: rows over binary columns, the objective maximised. The
//! rows themselves are plain data of [`crate::formats::linear`]; this module builds them from
//! the model, and writes a model as a CPLEX LP file row by row ([`write_model`]) through
//! [`crate::formats::lp`]. The MILP oracles solve the program.

use super::clique::CliqueRow;
use crate::base::Control;
use crate::formats::linear::{Comparison, LinearProgram, Row};
use crate::formats::lines::WriteError;
use crate::formats::lp::{lp_names, LpWriter};
use crate::model::{Constraint, Lit, Model, Var};
use std::io::Write;

impl LinearProgram {
    /// The model's constraints as rows; "at least k" on the objective as one more row.
    pub fn from_model(model: &Model, at_least: Option<usize>) -> LinearProgram {
        let mut rows: Vec<Row> = model
            .constraints
            .iter()
            .enumerate()
            .map(|(i, constraint)| constraint_row(constraint, i + 1))
            .collect();
        rows.extend(at_least_row(model, at_least));
        let (objective, objective_offset) = objective_terms(model);
        LinearProgram {
            columns: model.names().to_vec(),
            objective,
            objective_offset,
            rows,
        }
    }

    /// Adds a clause as a row (a lazy-constraint cut).
    pub fn add_clause(&mut self, clause: &[Lit]) {
        let name = format!("cut{}", self.rows.len() + 1);
        self.rows
            .push(lits_row(name, clause, Comparison::AtLeast, 1));
    }
}

/// The `number`-th constraint of a model (from 1) as row `c<number>`.
pub fn constraint_row(constraint: &Constraint, number: usize) -> Row {
    let name = format!("c{number}");
    if let Constraint::AtLeastAsMany { first, second } = constraint {
        // sum(first) - sum(second) >= 0, one row.
        let mut row = lits_row(name, first, Comparison::AtLeast, 0);
        let minus = lits_row(String::new(), second, Comparison::AtLeast, 0);
        row.terms
            .extend(minus.terms.iter().map(|&(c, column)| (-c, column)));
        row.rhs -= minus.rhs;
        return row;
    }
    let (comparison, rhs) = match constraint {
        Constraint::Clause(_) => (Comparison::AtLeast, 1),
        Constraint::AtMostOne(_) => (Comparison::AtMost, 1),
        Constraint::ExactlyOne(_) => (Comparison::Equal, 1),
        Constraint::AtLeast(_, k) => (Comparison::AtLeast, *k as i64),
        Constraint::AtMost(_, k) => (Comparison::AtMost, *k as i64),
        Constraint::AtLeastAsMany { .. } => unreachable!("written above"),
    };
    let lits: Vec<Lit> = constraint.lits().collect();
    lits_row(name, &lits, comparison, rhs)
}

/// The row `at_least` stating "objective >= k", when `at_least` gives k and the model has
/// an objective.
pub fn at_least_row(model: &Model, at_least: Option<usize>) -> Option<Row> {
    let objective = model.objective.as_ref()?;
    Some(lits_row(
        "at_least".into(),
        &objective.lits,
        Comparison::AtLeast,
        at_least? as i64,
    ))
}

/// The objective's terms (maximised) and its constant offset (from negated literals).
pub fn objective_terms(model: &Model) -> (Vec<(f64, usize)>, f64) {
    match &model.objective {
        Some(objective) => {
            let row = lits_row(String::new(), &objective.lits, Comparison::AtLeast, 0);
            (row.terms, -row.rhs)
        }
        None => (Vec::new(), 0.0),
    }
}

/// `sum(lits) cmp rhs` as a row, with a negated literal written `1 - x` and its constant
/// moved to the right-hand side.
fn lits_row(name: String, lits: &[Lit], comparison: Comparison, rhs: i64) -> Row {
    let mut rhs = rhs as f64;
    let terms = lits
        .iter()
        .map(|l| {
            if l.is_negative() {
                rhs -= 1.0;
                (-1.0, l.var().index())
            } else {
                (1.0, l.var().index())
            }
        })
        .collect();
    Row {
        name,
        terms,
        comparison,
        rhs,
    }
}

/// What an LP file states beyond the model's rows, for MILP solvers (see
/// [`write_model`]).
#[derive(Clone, Debug, Default)]
pub struct LpExtras<'a> {
    /// What becomes of each of the model's constraints ([`super::clique::grow_cliques`]);
    /// empty for all of them as they are.
    pub cliques: &'a [CliqueRow],
    /// Rows that rule out symmetric images of solutions only, each with its name (a
    /// packing's `symmetry_top_bottom`...), written last under a comment that says so.
    pub symmetry: &'a [(&'static str, Constraint)],
}

/// Writes `model` as a CPLEX LP file (as [`crate::formats::lp::write_lp`] writes
/// [`LinearProgram::from_model`]), with `extras`: row `c<i>` is the model's constraint i,
/// or the clique grown from it.
pub fn write_model(
    model: &Model,
    at_least: Option<usize>,
    extras: &LpExtras,
    comments: &[String],
    out: &mut dyn Write,
    control: &Control,
) -> Result<(), WriteError> {
    let should_stop = || control.should_stop();
    let mut writer = LpWriter::new(out, &should_stop);
    let names = lp_names(model.names());
    let (objective, offset) = objective_terms(model);
    writer.head(&names, model.names(), (&objective, offset), comments);
    for (i, constraint) in model.constraints.iter().enumerate() {
        match extras.cliques.get(i).unwrap_or(&CliqueRow::Kept) {
            CliqueRow::Kept => writer.row(&constraint_row(constraint, i + 1), &names),
            CliqueRow::Grown(columns) => {
                let lits: Vec<Lit> = columns
                    .iter()
                    .map(|&c| Var::from_index(c).positive())
                    .collect();
                let row = constraint_row(&Constraint::AtMostOne(lits), i + 1);
                writer.row(&row, &names);
            }
            CliqueRow::Duplicate(_) => {}
        }
    }
    if let Some(row) = at_least_row(model, at_least) {
        writer.row(&row, &names);
    }
    if !extras.symmetry.is_empty() {
        writer.comment(
            "symmetry breaking, not part of the puzzle: every solution has a symmetric image \
             that meets the rows below",
        );
        for (name, constraint) in extras.symmetry {
            let mut row = constraint_row(constraint, 0);
            row.name = name.to_string();
            writer.row(&row, &names);
        }
    }
    writer.tail(&names);
    writer.finish()
}
