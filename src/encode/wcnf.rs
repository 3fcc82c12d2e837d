//! WCNF for MaxSAT solvers, in the MaxSAT Evaluation format of 2022 onwards (no `p` line):
//! hard clauses start with `h`, soft clauses with their weight. "Maximise the number of
//! true objective literals" becomes one unit soft clause of weight 1 per literal, so a
//! solution's cost is the number of objective literals it leaves false.

use super::amo::AmoEncoding;
use super::cnf::encode_constraint;
use super::Cnf;
use super::ReadError;
use crate::model::{Constraint, Lit, Model};
use std::fmt::Write as _;

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

/// One clause's line, after `prefix` (`h` or the weight).
pub(crate) fn write_clause(out: &mut String, prefix: &str, clause: &[Lit]) {
    out.push_str(prefix);
    for lit in clause {
        let _ = write!(out, " {}", lit.dimacs());
    }
    out.push_str(" 0\n");
}

/// Writes `wcnf`: `comments`, one `c var N name` line per named variable, then the hard
/// and soft clauses.
pub fn write_wcnf(wcnf: &Wcnf, names: &[String], comments: &[String]) -> String {
    let mut out = String::new();
    for comment in comments {
        let _ = writeln!(out, "c {comment}");
    }
    for (i, name) in names.iter().enumerate() {
        let _ = writeln!(out, "c var {} {name}", i + 1);
    }
    for clause in &wcnf.hard {
        write_clause(&mut out, "h", clause);
    }
    for (weight, clause) in &wcnf.soft {
        write_clause(&mut out, &weight.to_string(), clause);
    }
    out
}

/// Reads a WCNF file in the 2022 format (`h` hard clauses, weighted soft clauses, `c`
/// comments); `num_vars` is the largest variable mentioned. Errors name the line.
pub fn read_wcnf(text: &str) -> Result<Wcnf, ReadError> {
    let mut wcnf = Wcnf::default();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        let error = |message: String| ReadError::Line {
            line: index + 1,
            message,
        };
        let mut words = line.split_whitespace();
        let head = words.next().unwrap_or("");
        let weight = if head == "h" {
            None
        } else {
            match head.parse::<u64>() {
                Ok(w) if w > 0 => Some(w),
                _ => {
                    return Err(error(format!(
                        "expected `h` or a positive weight, found {head:?}"
                    )))
                }
            }
        };
        let mut clause = Vec::new();
        let mut closed = false;
        for word in words {
            let n: i64 = word
                .parse()
                .map_err(|_| error(format!("{word:?} is not a literal")))?;
            if closed {
                return Err(error("literals after the closing 0".into()));
            }
            if n == 0 {
                closed = true;
            } else {
                wcnf.num_vars = wcnf.num_vars.max(n.unsigned_abs() as usize);
                clause.push(Lit::from_dimacs(n));
            }
        }
        if !closed {
            return Err(error("clause does not end with 0".into()));
        }
        match weight {
            None => wcnf.hard.push(clause),
            Some(w) => wcnf.soft.push((w, clause)),
        }
    }
    Ok(wcnf)
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
        let text = write_wcnf(&wcnf, &["a".into(), "b".into()], &["test".into()]);
        assert_eq!(
            text,
            "c test\nc var 1 a\nc var 2 b\nh 1 -2 0\nh 3 0\n1 1 0\n5 -3 2 0\n"
        );
        assert_eq!(read_wcnf(&text).unwrap(), wcnf);
        assert!(read_wcnf("p wcnf 1 1 10\n")
            .unwrap_err()
            .to_string()
            .starts_with("line 1:"));
        assert!(read_wcnf("h 1 2\n")
            .unwrap_err()
            .to_string()
            .contains("end with 0"));
    }
}
