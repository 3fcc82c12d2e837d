//! Checking an answer that reads: its values over the emitted file's variables, against
//! the file's own clauses or rows, and the model's variables looked up by name in the file
//! (a partial answer refused, naming the first variable without a value).

use super::errors::{DecodeError, FileVariable, Rejection, Unreadable};
use super::format_of;
use super::read::{Body, Emitted, Values};
use crate::driver::emit::Format;
use crate::formats::sniff::AnswerKind;
use crate::model::{Assignment, Constraint, Lit, Model, Var};
use std::collections::HashMap;

/// The answer's values over the emitted file's variables (or columns), and which of them
/// the answer gave.
pub(super) fn file_values(
    emitted: &Emitted,
    values: &Values,
) -> Result<(Vec<bool>, Vec<bool>), Rejection> {
    let count = match &emitted.body {
        Body::Cnf(c) => c.num_vars,
        Body::Wcnf(w) => w.num_vars,
        Body::Opb(o) => o.declared_variables,
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
pub(super) fn check_file(emitted: &Emitted, values: &[bool]) -> Result<(), Rejection> {
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
                    .filter(|&&(_, lit)| values[lit.var() as usize] != lit.is_negated())
                    .map(|&(c, _)| c)
                    .sum();
                if !row.holds_at(lhs) {
                    return Err(Rejection::BrokenOpbConstraint {
                        constraint: i + 1,
                        file: name.clone(),
                        lhs,
                        relation: row.relation,
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
pub(super) fn model_assignment(
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
        let first_in_file = match format_of(kind) {
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
pub(super) fn describe_constraint(model: &Model, constraint: &Constraint) -> String {
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
