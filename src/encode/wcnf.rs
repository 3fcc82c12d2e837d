//! WCNF for MaxSAT solvers, in the MaxSAT Evaluation format of 2022 onwards (no `p` line):
//! hard clauses start with `h`, soft clauses with their weight. "Maximise the number of
//! true objective literals" becomes one unit soft clause of weight 1 per literal, so a
//! solution's cost is the number of objective literals it leaves false. The file itself is
//! read and written by [`crate::formats::wcnf`].

use super::amo::AmoEncoding;
use super::clause_lines::ClauseWriter;
use super::cnf::encode_constraint;
use super::{ClauseSink, Cnf};
use crate::base::Control;
use crate::formats::{self, lines::WriteError, wcnf::WcnfWriter, ReadError};
use crate::model::{Constraint, Lit, Model};
use std::io::Write;

/// A weighted formula: hard clauses and weighted soft clauses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wcnf {
    /// Number of variables (model variables first, then encoding auxiliaries).
    pub num_vars: usize,
    /// Clauses every solution satisfies.
    pub hard: Vec<Vec<Lit>>,
    /// (weight, clause): the cost of a solution is the weight of the soft clauses it falsifies.
    pub soft: Vec<(u64, Vec<Lit>)>,
}

impl Wcnf {
    /// The model's constraints as hard clauses (with "objective at least k" as one more hard
    /// cardinality constraint when given) and its objective as soft unit clauses.
    pub fn from_model(model: &Model, at_least: Option<usize>) -> Wcnf {
        let mut cnf = Cnf::with_vars(model.num_vars());
        for constraint in &model.constraints {
            encode_constraint(&mut cnf, constraint, AmoEncoding::Auto);
        }
        let mut soft = Vec::new();
        if let Some(objective) = &model.objective {
            if let Some(k) = at_least {
                let bound = Constraint::AtLeast(objective.lits.clone(), k);
                encode_constraint(&mut cnf, &bound, AmoEncoding::Auto);
            }
            soft = objective.lits.iter().map(|&l| (1, vec![l])).collect();
        }
        Wcnf {
            num_vars: cnf.num_vars,
            hard: cnf.clauses,
            soft,
        }
    }

    /// The cost of `values` (one per variable), or `None` when a hard clause fails.
    pub fn cost(&self, values: &[bool]) -> Option<u64> {
        let holds = |clause: &[Lit]| {
            clause
                .iter()
                .any(|l| values[l.var().index()] != l.is_negative())
        };
        if !self.hard.iter().all(|c| holds(c)) {
            return None;
        }
        Some(
            self.soft
                .iter()
                .filter(|(_, c)| !holds(c))
                .map(|(w, _)| w)
                .sum(),
        )
    }
}

/// Writes `model` as WCNF as it is encoded: [`Wcnf::from_model`]'s clauses, in its order.
pub fn write_model(
    model: &Model,
    at_least: Option<usize>,
    comments: &[String],
    out: &mut dyn Write,
    control: &Control,
) -> Result<(), WriteError> {
    let should_stop = || control.should_stop();
    let mut lines = WcnfWriter::new(out, &should_stop);
    lines.comments(comments, model.names());
    let mut writer = ClauseWriter {
        lines,
        num_vars: model.num_vars(),
    };
    for constraint in &model.constraints {
        if writer.stopped() {
            break;
        }
        encode_constraint(&mut writer, constraint, AmoEncoding::Auto);
    }
    if let Some(objective) = &model.objective {
        if let Some(k) = at_least {
            let bound = Constraint::AtLeast(objective.lits.clone(), k);
            encode_constraint(&mut writer, &bound, AmoEncoding::Auto);
        }
    }
    if let Some(objective) = &model.objective {
        for &lit in &objective.lits {
            writer.lines.soft(1, [lit.dimacs()]);
        }
    }
    writer.lines.finish()
}

/// Reads a WCNF file in the 2022 format (see [`formats::wcnf::read_wcnf`]) as clauses of
/// literals; `num_vars` is the largest variable mentioned. Errors name the line.
pub fn read_wcnf(text: &str) -> Result<Wcnf, ReadError> {
    let file = formats::wcnf::read_wcnf(text)?;
    let clause = |literals: Vec<i64>| literals.into_iter().map(Lit::from_dimacs).collect();
    Ok(Wcnf {
        num_vars: file.num_vars,
        hard: file.hard.into_iter().map(clause).collect(),
        soft: file
            .soft
            .into_iter()
            .map(|(weight, literals)| (weight, clause(literals)))
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_written_reads_back_to_its_formula() {
        let mut model = Model::new();
        let a = model.new_var("a").positive();
        let b = model.new_var("b").positive();
        model.add(Constraint::Clause(vec![a, !b]));
        model.objective = Some(crate::model::Objective {
            lits: vec![a, b],
            amo_groups: None,
        });
        let mut out = Vec::new();
        write_model(
            &model,
            None,
            &["test".into()],
            &mut out,
            &Control::unlimited(),
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "c test\nc var 1 a\nc var 2 b\nh 1 -2 0\n1 1 0\n1 2 0\n"
        );
        assert_eq!(read_wcnf(&text).unwrap(), Wcnf::from_model(&model, None));
    }
}
