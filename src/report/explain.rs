//! `puzzlec explain`: what a model compiles to, before any solver runs: the IR's variables
//! and constraints by kind, the objective and its at-most-one groups, the CNF the SAT
//! backend would solve and the rows the MILP backend would solve.

use crate::encode::amo::{AmoEncoding, PAIRWISE_LIMIT};
use crate::encode::cnf::encode;
use crate::formats::linear::LinearProgram;
use crate::model::{Constraint, Model};
use crate::puzzle::Puzzle;
use serde::Serialize;
use std::fmt::Write;

/// The sizes of a compiled model and of what each backend would receive.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Explanation {
    /// The puzzle family.
    pub kind: &'static str,
    /// Model (IR) variables.
    pub variables: usize,
    /// Constraints by kind, in the model's order of first appearance.
    pub constraints: Vec<ConstraintCount>,
    /// The names of the lazy constraints (enforced by cuts during the search).
    pub lazy: Vec<String>,
    /// The objective, when the puzzle is an optimisation.
    pub objective: Option<ObjectiveSize>,
    /// The CNF of the SAT backend.
    pub cnf: CnfSize,
    /// The 0-1 linear program of the MILP backend.
    pub lp: LpSize,
}

/// How many constraints of one kind the model has.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConstraintCount {
    /// The kind: "clause", "at-most-one", "exactly-one", "at-least-k", "at-most-k",
    /// "at-least-as-many".
    pub kind: &'static str,
    /// How many.
    pub count: usize,
}

/// The objective: "maximise the number of true literals".
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ObjectiveSize {
    /// The literals counted.
    pub literals: usize,
    /// The at-most-one groups partitioning them, when the compiler gave some.
    pub groups: Option<usize>,
    /// The bound the structure alone gives (groups, or literals).
    pub bound: usize,
}

/// The CNF the SAT backend builds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CnfSize {
    /// All variables, model and auxiliary.
    pub variables: usize,
    /// Auxiliary variables (encodings and the objective counter).
    pub auxiliaries: usize,
    /// Clauses.
    pub clauses: usize,
    /// Literal occurrences over all clauses.
    pub literals: usize,
    /// How at-most-one constraints are encoded, in words.
    pub at_most_one: String,
    /// At-most-one (and exactly-one) constraints encoded pairwise.
    pub pairwise: usize,
    /// At-most-one (and exactly-one) constraints encoded by the sequential counter.
    pub sequential: usize,
    /// How the objective is counted, in words.
    pub objective: String,
}

/// The 0-1 linear program the MILP backend builds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LpSize {
    /// Binary columns.
    pub columns: usize,
    /// Rows (constraints).
    pub rows: usize,
    /// Nonzero coefficients over all rows.
    pub nonzeros: usize,
}

/// Compiles `puzzle` and measures the model and both backends' inputs; solves nothing.
pub fn explain(puzzle: &Puzzle) -> Explanation {
    let model = puzzle.compile();
    explain_model(puzzle.kind(), &model)
}

/// [`explain`] for an already compiled model.
pub fn explain_model(kind: &'static str, model: &Model) -> Explanation {
    // The SAT backend solves with the automatic at-most-one choice: this is what it builds.
    let encoding = encode(model, AmoEncoding::Auto);
    let (mut pairwise, mut sequential) = (0, 0);
    for constraint in &model.constraints {
        if let Constraint::AtMostOne(lits) | Constraint::ExactlyOne(lits) = constraint {
            // Lists shorter than two need no clauses at all; they count as pairwise.
            if lits.len() <= PAIRWISE_LIMIT {
                pairwise += 1;
            } else {
                sequential += 1;
            }
        }
    }
    let lp = LinearProgram::from_model(model, None);
    Explanation {
        kind,
        variables: model.num_vars(),
        constraints: model
            .constraint_counts()
            .into_iter()
            .map(|(kind, count)| ConstraintCount { kind, count })
            .collect(),
        lazy: model.lazy.iter().map(|l| l.name().to_string()).collect(),
        objective: model.objective.as_ref().map(|o| ObjectiveSize {
            literals: o.lits.len(),
            groups: o.amo_groups.as_ref().map(Vec::len),
            bound: o.trivial_bound(),
        }),
        cnf: CnfSize {
            variables: encoding.cnf.num_vars,
            auxiliaries: encoding.cnf.num_vars - encoding.model_vars,
            clauses: encoding.cnf.clauses.len(),
            literals: encoding.cnf.clauses.iter().map(Vec::len).sum(),
            at_most_one: format!(
                "auto: pairwise up to {PAIRWISE_LIMIT} literals, Sinz's sequential counter beyond"
            ),
            pairwise,
            sequential,
            objective: encoding.objective_encoding,
        },
        lp: LpSize {
            columns: lp.columns.len(),
            rows: lp.rows.len(),
            nonzeros: lp.rows.iter().map(|r| r.terms.len()).sum(),
        },
    }
}

impl Explanation {
    /// The explanation as indented text, one fact per line.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "family       {}", self.kind);
        let _ = writeln!(out, "variables    {}", self.variables);
        let total: usize = self.constraints.iter().map(|c| c.count).sum();
        let by_kind: Vec<String> = self
            .constraints
            .iter()
            .map(|c| format!("{} {}", c.count, c.kind))
            .collect();
        let _ = writeln!(out, "constraints  {total} ({})", by_kind.join(", "));
        if !self.lazy.is_empty() {
            let _ = writeln!(out, "lazy         {}", self.lazy.join(", "));
        }
        match &self.objective {
            None => {
                let _ = writeln!(out, "objective    none (a decision problem)");
            }
            Some(o) => {
                let groups = match o.groups {
                    Some(g) => format!(", partitioned into {g} at-most-one groups"),
                    None => String::new(),
                };
                let _ = writeln!(
                    out,
                    "objective    maximise {} literals{groups} (at most {})",
                    o.literals, o.bound
                );
            }
        }
        let c = &self.cnf;
        let _ = writeln!(
            out,
            "CNF          {} variables ({} auxiliary), {} clauses, {} literals",
            c.variables, c.auxiliaries, c.clauses, c.literals
        );
        let _ = writeln!(
            out,
            "  at-most-one {} ({} pairwise, {} sequential)",
            c.at_most_one, c.pairwise, c.sequential
        );
        let _ = writeln!(out, "  objective   {}", c.objective);
        let _ = writeln!(
            out,
            "LP           {} binary columns, {} rows, {} nonzeros",
            self.lp.columns, self.lp.rows, self.lp.nonzeros
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Constraint;

    #[test]
    fn counts_match_a_hand_built_model() {
        let mut model = Model::new();
        let v: Vec<_> = (0..20).map(|i| model.new_var(format!("x{i}"))).collect();
        let lits: Vec<_> = v.iter().map(|x| x.positive()).collect();
        model.add(Constraint::AtMostOne(lits[..3].to_vec()));
        model.add(Constraint::AtMostOne(lits.clone()));
        model.add(Constraint::Clause(vec![lits[0], lits[1]]));
        let e = explain_model("test", &model);
        assert_eq!(e.variables, 20);
        assert_eq!(e.constraints.len(), 2);
        assert_eq!(e.constraints[0].count, 2);
        assert_eq!((e.cnf.pairwise, e.cnf.sequential), (1, 1));
        // Pairwise over 3: 3 clauses; sequential over 20: 3n - 4 = 56 clauses and 19
        // auxiliaries; and the clause itself.
        assert_eq!(e.cnf.clauses, 3 + 56 + 1);
        assert_eq!(e.cnf.auxiliaries, 19);
        assert_eq!(e.lp.rows, 3);
        assert_eq!(e.lp.nonzeros, 3 + 20 + 2);
        assert!(e.objective.is_none());
    }
}
