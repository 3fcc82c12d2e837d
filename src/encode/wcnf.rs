//! WCNF for MaxSAT solvers, in the MaxSAT Evaluation format of 2022 onwards (no `p` line):
//! hard clauses start with `h`, soft clauses with their weight. "Maximise the number of
//! true objective literals" becomes one unit soft clause of weight 1 per literal, so a
//! solution's cost is the number of objective literals it leaves false. The file itself is
//! read and written by [`crate::formats::wcnf`].

use super::amo::AmoEncoding;
use super::cnf::encode_constraint;
use super::Cnf;
use super::ReadError;
use crate::formats::{self, lines::WriteError, wcnf::WcnfWriter};
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

/// Writes `wcnf` to `out`: `comments`, one `c var N name` line per named variable, then
/// the hard and soft clauses; `should_stop` can end it part way.
pub fn write_wcnf(
    wcnf: &Wcnf,
    names: &[String],
    comments: &[String],
    out: &mut dyn Write,
    should_stop: &dyn Fn() -> bool,
) -> Result<(), WriteError> {
    let mut writer = WcnfWriter::new(out, should_stop);
    writer.comments(comments, names);
    for clause in &wcnf.hard {
        if writer.failed() {
            break;
        }
        writer.hard(clause.iter().map(|l| l.dimacs()));
    }
    for (weight, clause) in &wcnf.soft {
        writer.soft(*weight, clause.iter().map(|l| l.dimacs()));
    }
    writer.finish()
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
    fn write_then_read_gives_the_same_clauses() {
        let l = Lit::from_dimacs;
        let wcnf = Wcnf {
            num_vars: 3,
            hard: vec![vec![l(1), l(-2)], vec![l(3)]],
            soft: vec![(1, vec![l(1)]), (5, vec![l(-3), l(2)])],
        };
        let mut out = Vec::new();
        write_wcnf(
            &wcnf,
            &["a".into(), "b".into()],
            &["test".into()],
            &mut out,
            &|| false,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "c test\nc var 1 a\nc var 2 b\nh 1 -2 0\nh 3 0\n1 1 0\n5 -3 2 0\n"
        );
        assert_eq!(read_wcnf(&text).unwrap(), wcnf);
    }
}
