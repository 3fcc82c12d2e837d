//! A model as a 0-1 linear program: rows over binary columns, the objective maximised. The
//! rows themselves are plain data of [`crate::formats::linear`]; this module builds them from
//! the model. The MILP oracles solve it; [`super::lp_file`] writes and reads it as a CPLEX LP
//! file.

pub use crate::formats::linear::{Comparison, LinearProgram, Row};
use crate::model::{Constraint, Lit, Model};

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
