//! OPB for pseudo-Boolean solvers (the PB Competition format): a `* #variable= N
//! #constraint= M` header, the objective as a `min:` line (minimise minus the number of
//! true objective literals) and every constraint as one linear `>=` or `=` row over
//! variables `x1..xN`. Negated literals are written as `1 - x` with the constant moved to
//! the right-hand side, so readers need not support `~x`. The file itself is read and
//! written by [`crate::formats::opb`]; this module makes its rows from the model.

use crate::base::Control;
use crate::formats::lines::WriteError;
use crate::formats::opb::{
    self, Coefficients, Numbered, Objective, OpbFile, OpbWriter, Relation, VarNames,
};
use crate::model::{Constraint, Lit, Model};
use std::io::Write;

/// `sum(coefficient * lit)` as terms over variables plus a constant.
fn linear(lits: &[Lit], coefficient: i64) -> (Vec<(i64, opb::Lit)>, i64) {
    let mut constant = 0;
    let terms = lits
        .iter()
        .map(|l| {
            let var = opb::Lit::new(l.var().index() as u32, false);
            if l.is_negative() {
                constant += coefficient;
                (-coefficient, var)
            } else {
                (coefficient, var)
            }
        })
        .collect();
    (terms, constant)
}

/// `sum(coefficient * lits) >= rhs` (or `=`), normalised to variables.
fn row(lits: &[Lit], coefficient: i64, relation: Relation, rhs: i64) -> opb::Constraint {
    let (terms, constant) = linear(lits, coefficient);
    opb::Constraint {
        terms,
        relation,
        rhs: rhs - constant,
    }
}

/// One model constraint as a row (at-most-k as `-sum >= -k`).
pub(crate) fn pb_constraint(constraint: &Constraint) -> opb::Constraint {
    use Relation::{AtLeast, Equal};
    match constraint {
        Constraint::Clause(l) => row(l, 1, AtLeast, 1),
        Constraint::AtMostOne(l) => row(l, -1, AtLeast, -1),
        Constraint::ExactlyOne(l) => row(l, 1, Equal, 1),
        Constraint::AtLeast(l, k) => row(l, 1, AtLeast, *k as i64),
        Constraint::AtMost(l, k) => row(l, -1, AtLeast, -(*k as i64)),
        Constraint::AtLeastAsMany { first, second } => {
            // sum(first) - sum(second) >= 0 as one row.
            let (mut terms, plus) = linear(first, 1);
            let (minus_terms, minus) = linear(second, -1);
            terms.extend(minus_terms);
            opb::Constraint {
                terms,
                relation: AtLeast,
                rhs: -(plus + minus),
            }
        }
    }
}

/// "At least `k` of `lits`" as a row.
pub(crate) fn at_least_row(lits: &[Lit], k: usize) -> opb::Constraint {
    row(lits, 1, Relation::AtLeast, k as i64)
}

/// The `min:` objective (minus the number of true objective literals, without its
/// constant), `None` without objective literals, and the constant left out of it.
pub(crate) fn objective_terms(model: &Model) -> (Option<Objective>, i64) {
    match &model.objective {
        Some(objective) if !objective.lits.is_empty() => {
            let (terms, constant) = linear(&objective.lits, -1);
            (Some(Objective { terms, constant: 0 }), constant)
        }
        _ => (None, 0),
    }
}

/// The model as an OPB file over variables `x1 .. xN` (at-most-k as `-sum >= -k`), with
/// "objective at least k" as one more row when given. The objective's constant (from
/// negated literals) is left out of the file and returned: minus the number of true
/// literals is `min:` plus that constant.
pub fn from_model(model: &Model, at_least: Option<usize>) -> (OpbFile, i64) {
    let mut constraints: Vec<opb::Constraint> =
        model.constraints.iter().map(pb_constraint).collect();
    if let (Some(objective), Some(k)) = (&model.objective, at_least) {
        constraints.push(at_least_row(&objective.lits, k));
    }
    let (objective, offset) = objective_terms(model);
    let file = OpbFile {
        declared_variables: model.num_vars(),
        names: VarNames::numbered(model.num_vars()),
        objective,
        constraints,
    };
    (file, offset)
}

/// Writes `model` as OPB as it is encoded: [`from_model`]'s rows, in its order, with
/// signed coefficients and a `* var N name` comment per variable.
pub fn write_model(
    model: &Model,
    at_least: Option<usize>,
    comments: &[String],
    out: &mut dyn Write,
    control: &Control,
) -> Result<(), WriteError> {
    let should_stop = || control.should_stop();
    let mut writer = OpbWriter::new(out, &should_stop, &Numbered, Coefficients::Signed);
    let bound_row = match (&model.objective, at_least) {
        (Some(objective), Some(k)) => Some(at_least_row(&objective.lits, k)),
        _ => None,
    };
    let rows = model.constraints.len() + usize::from(bound_row.is_some());
    writer.head(model.num_vars(), rows, comments, model.names());
    if let (Some(objective), _) = objective_terms(model) {
        writer.objective(&objective);
    }
    for constraint in &model.constraints {
        writer.constraint(&pb_constraint(constraint));
    }
    if let Some(row) = bound_row {
        writer.constraint(&row);
    }
    writer.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::opb::read_opb;
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
        let (opb, offset) = from_model(&model, Some(1));
        let mut out = Vec::new();
        write_model(&model, Some(1), &[], &mut out, &Control::unlimited()).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "* #variable= 2 #constraint= 3\n* var 1 a\n* var 2 b\nmin: -1 x1 +1 x2 ;\n\
             +1 x1 -1 x2 >= 0 ;\n-1 x1 -1 x2 >= -1 ;\n+1 x1 -1 x2 >= 0 ;\n"
        );
        assert_eq!(offset, -1);
        let read = read_opb(text.as_bytes()).unwrap().by_number().unwrap();
        assert_eq!(read.objective, opb.objective);
        assert_eq!(read.constraints, opb.constraints);
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
}

#[cfg(test)]
mod linear_row_tests {
    use super::*;
    use crate::formats::linear::{Comparison, LinearProgram};
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
            let (opb, _) = from_model(&model, None);
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
