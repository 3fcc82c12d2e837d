//! Integer programs: a model as a 0-1 linear program, solved through good_lp (microlp, pure
//! Rust, by default) or written as a CPLEX LP file.

pub mod external;
#[cfg(feature = "highs")]
pub mod highs;
pub mod lp_file;

use crate::model::{Assignment, Constraint, Lit, Model};
use crate::solve::{Control, Goal, Incumbent, RawOutcome, Size, Status};
use good_lp::{
    microlp, variable, Expression, ProblemVariables, ResolutionError, Solution, SolutionStatus,
    SolverModel, WithMipGap, WithTimeLimit,
};
use std::time::Instant;

/// How a row compares its left side with its right side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Comparison {
    /// `<=`
    AtMost,
    /// `>=`
    AtLeast,
    /// `=`
    Equal,
}

/// One linear row over 0-1 columns: `sum(coefficient * column) cmp rhs`.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The row's name in LP files.
    pub name: String,
    /// (coefficient, column index) pairs.
    pub terms: Vec<(f64, usize)>,
    /// The comparison.
    pub comparison: Comparison,
    /// The right-hand side.
    pub rhs: f64,
}

/// A 0-1 linear program: maximise the objective subject to the rows, every column binary.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearProgram {
    /// Column names (the model's variable names).
    pub columns: Vec<String>,
    /// (coefficient, column) pairs of the objective, maximised.
    pub objective: Vec<(f64, usize)>,
    /// A constant added to the objective (from negated objective literals).
    pub objective_offset: f64,
    /// The constraints.
    pub rows: Vec<Row>,
}

impl LinearProgram {
    /// The model's constraints as rows; "at least k" on the objective as one more row.
    pub fn from_model(model: &Model, at_least: Option<usize>) -> LinearProgram {
        let mut rows = Vec::new();
        for constraint in &model.constraints {
            let (comparison, rhs) = match constraint {
                Constraint::Clause(_) => (Comparison::AtLeast, 1),
                Constraint::AtMostOne(_) => (Comparison::AtMost, 1),
                Constraint::ExactlyOne(_) => (Comparison::Equal, 1),
                Constraint::AtLeast(_, k) => (Comparison::AtLeast, *k as i64),
                Constraint::AtMost(_, k) => (Comparison::AtMost, *k as i64),
            };
            let name = format!("c{}", rows.len() + 1);
            rows.push(lits_row(name, constraint.lits(), comparison, rhs));
        }
        let (objective, objective_offset) = match &model.objective {
            Some(objective) => {
                let row = lits_row(String::new(), &objective.lits, Comparison::AtLeast, 0);
                if let Some(k) = at_least {
                    rows.push(lits_row(
                        "at_least".into(),
                        &objective.lits,
                        Comparison::AtLeast,
                        k as i64,
                    ));
                }
                (row.terms, -row.rhs)
            }
            None => (Vec::new(), 0.0),
        };
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

    /// Solves with microlp, stopping at `control`'s deadline. Returns the column values and
    /// whether optimality was proven, or `None` when infeasible.
    ///
    /// With `integral_bound = Some(u)` the caller promises that the objective takes whole
    /// values no larger than `u`. Branch and bound may then stop once its LP bound is within
    /// a relative gap of 0.9 / (u + 1) of the incumbent v: the bound is below v + 1, so no
    /// whole value beats v, which proves v optimal without closing the fractional gap.
    pub fn solve_microlp(
        &self,
        control: &Control,
        integral_bound: Option<usize>,
    ) -> Result<Option<(Vec<bool>, bool)>, String> {
        self.solve_using(microlp, "microlp", control, integral_bound)
    }

    /// Solves with any good_lp solver that takes a time limit and a MIP gap (microlp, and
    /// HiGHS with the `highs` feature); `name` prefixes its errors. The result and
    /// `integral_bound` are as for [`LinearProgram::solve_microlp`].
    pub fn solve_using<S>(
        &self,
        solver: S,
        name: &str,
        control: &Control,
        integral_bound: Option<usize>,
    ) -> Result<Option<(Vec<bool>, bool)>, String>
    where
        S: good_lp::Solver,
        S::Model: SolverModel<Error = ResolutionError> + WithTimeLimit + WithMipGap,
    {
        let mut vars = ProblemVariables::new();
        let columns: Vec<good_lp::Variable> = self
            .columns
            .iter()
            .map(|_| vars.add(variable().binary()))
            .collect();
        let expression = |terms: &[(f64, usize)]| -> Expression {
            terms.iter().map(|&(c, i)| c * columns[i]).sum()
        };
        let mut problem = vars.maximise(expression(&self.objective)).using(solver);
        if let Some(remaining) = control.remaining() {
            problem = problem.with_time_limit(remaining.as_secs_f64());
        }
        if let Some(bound) = integral_bound {
            problem = problem
                .with_mip_gap(0.9 / (bound as f32 + 1.0))
                .map_err(|e| format!("{name}: {e}"))?;
        }
        for row in &self.rows {
            let lhs = expression(&row.terms);
            problem.add_constraint(match row.comparison {
                Comparison::AtMost => lhs.leq(row.rhs),
                Comparison::AtLeast => lhs.geq(row.rhs),
                Comparison::Equal => lhs.eq(row.rhs),
            });
        }
        match problem.solve() {
            Ok(solution) => {
                let values = columns.iter().map(|&c| solution.value(c) > 0.5).collect();
                let proven = match solution.status() {
                    SolutionStatus::Optimal => true,
                    SolutionStatus::GapLimit => integral_bound.is_some(),
                    SolutionStatus::TimeLimit => false,
                };
                Ok(Some((values, proven)))
            }
            Err(ResolutionError::Infeasible) => Ok(None),
            Err(e) => Err(format!("{name}: {e}")),
        }
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

/// Answers `goal` for `model` with good_lp and microlp, adding lazy-constraint cuts and
/// re-solving until the solution satisfies them.
pub fn solve(
    model: &Model,
    goal: Goal,
    control: &Control,
    incumbent: &Incumbent<Assignment>,
) -> Result<RawOutcome<Assignment>, String> {
    let at_least = match goal {
        Goal::AtLeast(k) => Some(k),
        Goal::Maximise => None,
    };
    let mut program = LinearProgram::from_model(model, at_least);
    let start = Instant::now();
    let mut cuts = 0;
    loop {
        let size = Size {
            variables: program.columns.len(),
            constraints: program.rows.len(),
            unit: "rows",
        };
        // The objective counts true literals: whole numbers, at most the structural bound.
        let integral_bound = match goal {
            Goal::Maximise => model.objective.as_ref().map(|o| o.trivial_bound()),
            Goal::AtLeast(_) => None,
        };
        let Some((values, proven)) = program.solve_microlp(control, integral_bound)? else {
            let evidence = match goal {
                Goal::AtLeast(k) => {
                    format!("microlp proved \"at least {k}\" infeasible ({cuts} cuts)")
                }
                Goal::Maximise => {
                    format!("microlp proved the constraints infeasible ({cuts} cuts)")
                }
            };
            return Ok(RawOutcome {
                status: Status::Unsatisfiable,
                witness: None,
                bound: at_least.map(|k| k - 1),
                evidence,
                size,
            });
        };
        let assignment = Assignment::new(values);
        let new_cuts: Vec<Vec<Lit>> = model
            .lazy
            .iter()
            .flat_map(|l| l.cuts(&assignment))
            .collect();
        if !new_cuts.is_empty() {
            for cut in &new_cuts {
                program.add_clause(cut);
            }
            cuts += new_cuts.len();
            continue;
        }
        let value = model.objective.as_ref().map_or(0, |o| o.value(&assignment));
        incumbent.offer(&assignment, value);
        let seconds = start.elapsed().as_secs_f64();
        let (status, bound, evidence) = match (goal, proven) {
            // Nothing to optimise: any feasible solution answers the question.
            (Goal::Maximise, _) if model.objective.is_none() => (
                Status::Satisfiable,
                None,
                format!("microlp found a solution; the model has no objective ({cuts} cuts)"),
            ),
            (Goal::AtLeast(k), _) => (
                Status::Satisfiable,
                None,
                format!("microlp found a solution with {value} >= {k}"),
            ),
            (Goal::Maximise, true) => (
                Status::Optimal,
                Some(value),
                format!("microlp branch and bound bounded the objective below {} ({cuts} cuts, {seconds:.3} s)", value + 1),
            ),
            (Goal::Maximise, false) => (
                Status::Feasible,
                None,
                format!("{}; microlp's best is not proven optimal", control.reason()),
            ),
        };
        return Ok(RawOutcome {
            status,
            witness: Some(assignment),
            bound,
            evidence,
            size,
        });
    }
}
