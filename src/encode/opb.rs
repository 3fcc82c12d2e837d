//! OPB for pseudo-Boolean solvers (the PB Competition format): a `* #variable= N
//! #constraint= M` header, the objective as a `min:` line (minimise minus the number of
//! true objective literals) and every constraint as one linear `>=` or `=` row over
//! variables `x1..xN`. Negated literals are written as `1 - x` with the constant moved to
//! the right-hand side, so readers need not support `~x`.

use super::ReadError;
use crate::model::{Constraint, Lit, Model};
use std::fmt::Write as _;

/// One linear constraint `sum(coefficient * x) >= rhs` (or `= rhs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PbConstraint {
    /// (coefficient, 0-based variable) pairs.
    pub terms: Vec<(i64, usize)>,
    /// `=` rather than `>=`.
    pub equal: bool,
    /// The right-hand side.
    pub rhs: i64,
}

/// A pseudo-Boolean problem over the model's variables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opb {
    /// Number of variables.
    pub num_vars: usize,
    /// The objective's (coefficient, variable) terms, minimised; empty for none.
    pub objective: Vec<(i64, usize)>,
    /// The constraints.
    pub constraints: Vec<PbConstraint>,
}

/// `sum(coefficient * lit)` as terms over variables plus a constant.
fn linear(lits: &[Lit], coefficient: i64) -> (Vec<(i64, usize)>, i64) {
    let mut constant = 0;
    let terms = lits
        .iter()
        .map(|l| {
            if l.is_negative() {
                constant += coefficient;
                (-coefficient, l.var().index())
            } else {
                (coefficient, l.var().index())
            }
        })
        .collect();
    (terms, constant)
}

/// `sum(coefficient * lits) >= rhs` (or `=`), normalised to variables.
fn row(lits: &[Lit], coefficient: i64, equal: bool, rhs: i64) -> PbConstraint {
    let (terms, constant) = linear(lits, coefficient);
    PbConstraint {
        terms,
        equal,
        rhs: rhs - constant,
    }
}

/// One model constraint as a row (at-most-k as `-sum >= -k`).
pub(crate) fn pb_constraint(constraint: &Constraint) -> PbConstraint {
    match constraint {
        Constraint::Clause(l) => row(l, 1, false, 1),
        Constraint::AtMostOne(l) => row(l, -1, false, -1),
        Constraint::ExactlyOne(l) => row(l, 1, true, 1),
        Constraint::AtLeast(l, k) => row(l, 1, false, *k as i64),
        Constraint::AtMost(l, k) => row(l, -1, false, -(*k as i64)),
        Constraint::AtLeastAsMany { first, second } => {
            // sum(first) - sum(second) >= 0 as one row.
            let (mut terms, plus) = linear(first, 1);
            let (minus_terms, minus) = linear(second, -1);
            terms.extend(minus_terms);
            PbConstraint {
                terms,
                equal: false,
                rhs: -(plus + minus),
            }
        }
    }
}

/// "At least `k` of `lits`" as a row.
pub(crate) fn at_least_row(lits: &[Lit], k: usize) -> PbConstraint {
    row(lits, 1, false, k as i64)
}

/// The `min:` terms (minus the number of true objective literals) and their constant.
pub(crate) fn objective_terms(model: &Model) -> (Vec<(i64, usize)>, i64) {
    match &model.objective {
        None => (Vec::new(), 0),
        Some(objective) => linear(&objective.lits, -1),
    }
}

impl Opb {
    /// The model as rows (at-most-k as `-sum >= -k`), with "objective at least k" as one
    /// more row when given. The objective's constant (from negated literals) is returned
    /// too: minus the number of true literals is `min:` plus that constant.
    pub fn from_model(model: &Model, at_least: Option<usize>) -> (Opb, i64) {
        let mut constraints: Vec<PbConstraint> =
            model.constraints.iter().map(pb_constraint).collect();
        if let (Some(objective), Some(k)) = (&model.objective, at_least) {
            constraints.push(at_least_row(&objective.lits, k));
        }
        let (objective, offset) = objective_terms(model);
        let opb = Opb {
            num_vars: model.num_vars(),
            objective,
            constraints,
        };
        (opb, offset)
    }

    /// The objective's value (without constant) under `values`, or `None` when a
    /// constraint fails.
    pub fn evaluate(&self, values: &[bool]) -> Option<i64> {
        let sum = |terms: &[(i64, usize)]| -> i64 {
            terms
                .iter()
                .filter(|&&(_, v)| values[v])
                .map(|&(c, _)| c)
                .sum()
        };
        let feasible = self.constraints.iter().all(|c| {
            let lhs = sum(&c.terms);
            if c.equal {
                lhs == c.rhs
            } else {
                lhs >= c.rhs
            }
        });
        feasible.then(|| sum(&self.objective))
    }
}

fn write_terms(out: &mut String, terms: &[(i64, usize)]) {
    for &(coefficient, var) in terms {
        let _ = write!(out, "{coefficient:+} x{} ", var + 1);
    }
}

/// Writes `opb`: the header line, `comments`, one `* var N name` line per named variable,
/// the `min:` line and the constraints.
pub fn write_opb(opb: &Opb, names: &[String], comments: &[String]) -> String {
    let mut out = format!(
        "* #variable= {} #constraint= {}\n",
        opb.num_vars,
        opb.constraints.len()
    );
    for comment in comments {
        let _ = writeln!(out, "* {comment}");
    }
    for (i, name) in names.iter().enumerate() {
        let _ = writeln!(out, "* var {} {name}", i + 1);
    }
    if !opb.objective.is_empty() {
        write_objective_line(&mut out, &opb.objective);
    }
    for constraint in &opb.constraints {
        write_constraint_line(&mut out, constraint);
    }
    out
}

/// The `min:` line.
pub(crate) fn write_objective_line(out: &mut String, terms: &[(i64, usize)]) {
    out.push_str("min: ");
    write_terms(out, terms);
    out.push_str(";\n");
}

/// One constraint's line.
pub(crate) fn write_constraint_line(out: &mut String, constraint: &PbConstraint) {
    write_terms(out, &constraint.terms);
    let comparison = if constraint.equal { "=" } else { ">=" };
    let _ = writeln!(out, "{comparison} {} ;", constraint.rhs);
}

/// Reads a linear OPB file with `xN` variables (as [`write_opb`] writes); the header must
/// match what follows. Errors name the line.
pub fn read_opb(text: &str) -> Result<Opb, ReadError> {
    let mut opb = Opb::default();
    let mut declared: Option<(usize, usize)> = None;
    for (index, line) in text.lines().enumerate() {
        let error = |message: String| ReadError::Line {
            line: index + 1,
            message,
        };
        let line = line.trim();
        if let Some(comment) = line.strip_prefix('*') {
            if index == 0 {
                let words: Vec<&str> = comment.split_whitespace().collect();
                if let ["#variable=", v, "#constraint=", c, ..] = words[..] {
                    let parse = |s: &str| {
                        s.parse::<usize>()
                            .map_err(|_| error(format!("bad count {s:?}")))
                    };
                    declared = Some((parse(v)?, parse(c)?));
                }
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let body = line
            .strip_suffix(';')
            .ok_or_else(|| error("a constraint must end with `;`".into()))?;
        let (is_objective, body) = match body.trim_start().strip_prefix("min:") {
            Some(rest) => (true, rest),
            None => (false, body),
        };
        let words: Vec<&str> = body.split_whitespace().collect();
        let mut terms = Vec::new();
        let mut i = 0;
        let mut comparison = None;
        while i < words.len() {
            match words[i] {
                ">=" | "=" if !is_objective => {
                    let rhs = words
                        .get(i + 1)
                        .and_then(|w| w.parse::<i64>().ok())
                        .ok_or_else(|| error("expected a number after the comparison".into()))?;
                    if i + 2 != words.len() {
                        return Err(error("text after the right-hand side".into()));
                    }
                    comparison = Some((words[i] == "=", rhs));
                    break;
                }
                word => {
                    let coefficient: i64 = word
                        .parse()
                        .map_err(|_| error(format!("expected a coefficient, found {word:?}")))?;
                    let var = words
                        .get(i + 1)
                        .and_then(|w| w.strip_prefix('x'))
                        .and_then(|n| n.parse::<usize>().ok())
                        .filter(|&n| n >= 1)
                        .ok_or_else(|| error("expected a variable `xN`".into()))?;
                    opb.num_vars = opb.num_vars.max(var);
                    terms.push((coefficient, var - 1));
                    i += 2;
                }
            }
        }
        if is_objective {
            opb.objective = terms;
        } else {
            let (equal, rhs) = comparison.ok_or_else(|| error("no `>=` or `=`".into()))?;
            opb.constraints.push(PbConstraint { terms, equal, rhs });
        }
    }
    let (vars, constraints) = declared.ok_or(ReadError::File(
        "the first line is not a `* #variable= N #constraint= M` header".into(),
    ))?;
    if constraints != opb.constraints.len() || vars < opb.num_vars {
        return Err(ReadError::File(format!(
            "the header declares {vars} variables and {constraints} constraints, the file has {} and {}",
            opb.num_vars,
            opb.constraints.len()
        )));
    }
    opb.num_vars = vars;
    Ok(opb)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Objective;

    #[test]
    fn negated_literals_move_their_constant_to_the_right() {
        let mut model = Model::new();
        let a = model.new_var("a").positive();
        let b = model.new_var("b").positive();
        model.add(Constraint::Clause(vec![a, !b]));
        model.add(Constraint::AtMostOne(vec![a, b]));
        model.objective = Some(Objective {
            lits: vec![a, !b],
            amo_groups: None,
        });
        let (opb, offset) = Opb::from_model(&model, Some(1));
        let text = write_opb(&opb, model.names(), &[]);
        assert_eq!(
            text,
            "* #variable= 2 #constraint= 3\n* var 1 a\n* var 2 b\nmin: -1 x1 +1 x2 ;\n\
             +1 x1 -1 x2 >= 0 ;\n-1 x1 -1 x2 >= -1 ;\n+1 x1 -1 x2 >= 0 ;\n"
        );
        assert_eq!(offset, -1);
        assert_eq!(read_opb(&text).unwrap(), opb);
        // Exhaustively: the OPB optimum plus the offset is minus the model's optimum.
        let mut best = None;
        for bits in 0..4u32 {
            let values = [bits & 1 == 1, bits & 2 == 2];
            let assignment = crate::model::Assignment::new(values.to_vec());
            let in_model = model.satisfied_by(&assignment)
                && model.objective.as_ref().unwrap().value(&assignment) >= 1;
            assert_eq!(opb.evaluate(&values).is_some(), in_model, "{values:?}");
            if let Some(v) = opb.evaluate(&values) {
                best = Some(best.map_or(v, |b: i64| b.min(v)));
            }
        }
        assert_eq!(best.map(|b| b + offset), Some(-2));
    }

    #[test]
    fn reader_errors_name_the_line() {
        assert_eq!(
            read_opb("* #variable= 1 #constraint= 1\n+1 x1 >= 1\n")
                .unwrap_err()
                .to_string(),
            "line 2: a constraint must end with `;`"
        );
        assert!(read_opb("+1 x1 >= 1 ;\n")
            .unwrap_err()
            .to_string()
            .contains("header"));
        assert!(read_opb("* #variable= 1 #constraint= 2\n+1 x1 >= 1 ;\n")
            .unwrap_err()
            .to_string()
            .contains("declares"));
    }
}

#[cfg(test)]
mod linear_row_tests {
    use super::*;
    use crate::encode::lp::{Comparison, LinearProgram};
    use crate::model::Assignment;

    /// The comparison of two counts as one OPB row and one LP row, against its definition:
    /// every split of 6 literals (some negated) and every assignment.
    #[test]
    fn at_least_as_many_is_one_exact_row() {
        for split in 0..=6 {
            let mut model = Model::new();
            let lits: Vec<Lit> = (0..6)
                .map(|i| {
                    let var = model.new_var(format!("x{i}"));
                    if i % 3 == 1 {
                        var.negative()
                    } else {
                        var.positive()
                    }
                })
                .collect();
            let constraint = Constraint::AtLeastAsMany {
                first: lits[..split].to_vec(),
                second: lits[split..].to_vec(),
            };
            model.add(constraint.clone());
            let (opb, _) = Opb::from_model(&model, None);
            let lp = LinearProgram::from_model(&model, None);
            assert_eq!((opb.constraints.len(), lp.rows.len()), (1, 1));
            let row = &lp.rows[0];
            assert_eq!(row.comparison, Comparison::AtLeast);
            for bits in 0..64u32 {
                let values: Vec<bool> = (0..6).map(|i| bits >> i & 1 == 1).collect();
                let expected = constraint.holds(&Assignment::new(values.clone()));
                assert_eq!(opb.evaluate(&values).is_some(), expected, "OPB {bits:06b}");
                let lhs: f64 = row
                    .terms
                    .iter()
                    .filter(|&&(_, column)| values[column])
                    .map(|&(c, _)| c)
                    .sum();
                assert_eq!(lhs >= row.rhs - 1e-9, expected, "LP {bits:06b}");
            }
        }
    }
}
