//! External MILP solvers: the 0-1 program written as a CPLEX LP file, CBC (`cbc`), GLPK
//! (`glpsol`) or the HiGHS program (`highs`) run on it, and their solution files read back
//! by column name (CBC, HiGHS) or column order (GLPK numbers columns in the order they first
//! appear in the LP file). Every solution is checked to be 0-1 and to satisfy every row
//! before it is decoded. HiGHS can also be linked in (`--features highs`); `highs` means
//! that when it is built, and the `highs` program otherwise.

use super::{MilpAnswer, MilpOracle, OracleError};
use crate::base::evidence::OracleKind;
use crate::base::Control;
use crate::formats::linear::LinearProgram;
use crate::formats::lp::{lp_names, read_lp, write_lp};
pub use crate::formats::milp_solution::{
    read_cbc_solution, read_glpk_solution, read_highs_solution, SolutionError,
};

use crate::oracle::external::ScratchDir;
use crate::oracle::external::{
    describe_status, find_on_path, run, split_command, tail, Finished, SolverSpecError,
};
use std::collections::HashMap;

/// Which program, and so which command line and solution file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MilpKind {
    /// COIN-OR CBC: `cbc in.lp solve solu out.txt`.
    Cbc,
    /// GLPK: `glpsol --lp in.lp -w out.txt`.
    Glpsol,
    /// The HiGHS program: `highs --model_file in.lp --solution_file out.sol`.
    HighsProgram,
    /// HiGHS linked in (the `highs` cargo feature).
    HighsEmbedded,
}

/// An external MILP solver: a kind, the program to run and extra arguments for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MilpSolver {
    /// Which solver.
    pub kind: MilpKind,
    program: String,
    extra: Vec<String>,
}

impl MilpSolver {
    /// Reads `--solver` for the MILP backend: `cbc`, `glpsol` or `highs`, optionally as a
    /// path and with extra arguments (`cbc -threads 2`, `/opt/highs/bin/highs`).
    pub fn parse(spec: &str) -> Result<MilpSolver, SolverSpecError> {
        let mut argv = split_command(spec)?;
        let program = argv.remove(0);
        let base = program.rsplit('/').next().unwrap_or(&program);
        let kind = match base {
            "cbc" => MilpKind::Cbc,
            "glpsol" => MilpKind::Glpsol,
            "highs" if program == "highs" && argv.is_empty() && cfg!(feature = "highs") => {
                MilpKind::HighsEmbedded
            }
            "highs" => {
                if find_on_path(&program).is_none() {
                    return Err(SolverSpecError::NoHighs);
                }
                MilpKind::HighsProgram
            }
            _ => return Err(SolverSpecError::UnknownMilp(base.to_string())),
        };
        Ok(MilpSolver {
            kind,
            program,
            extra: argv,
        })
    }

    /// The MILP solvers on PATH (and HiGHS when built in), for `compare`.
    pub fn available() -> Vec<MilpSolver> {
        ["cbc", "glpsol", "highs"]
            .iter()
            .filter_map(|p| MilpSolver::parse(p).ok())
            .filter(|s| s.kind == MilpKind::HighsEmbedded || find_on_path(&s.program).is_some())
            .collect()
    }

    /// A short name for reports: `cbc`, `glpsol`, `highs` (linked in) or `highs-program`.
    pub fn name(&self) -> String {
        match self.kind {
            MilpKind::Cbc => "cbc".into(),
            MilpKind::Glpsol => "glpsol".into(),
            MilpKind::HighsProgram => "highs-program".into(),
            MilpKind::HighsEmbedded => "highs".into(),
        }
    }

    fn argv(&self, lp: &str, out: &str) -> Vec<String> {
        let mut argv = vec![self.program.clone()];
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        match self.kind {
            // CBC runs its arguments as commands in order: read, then options, then solve.
            MilpKind::Cbc => {
                argv.push(lp.into());
                argv.extend(self.extra.iter().cloned());
                argv.extend(words(&["solve", "solu", out]));
            }
            MilpKind::Glpsol => {
                argv.extend(self.extra.iter().cloned());
                argv.extend(words(&["--lp", lp, "-w", out]));
            }
            MilpKind::HighsProgram | MilpKind::HighsEmbedded => {
                argv.extend(self.extra.iter().cloned());
                argv.extend(words(&["--model_file", lp, "--solution_file", out]));
            }
        }
        argv
    }
}

/// Column values by LP name into one value per column of `program`, checked: every value
/// 0 or 1, every row satisfied.
fn checked_values(
    program: &LinearProgram,
    values: &HashMap<String, f64>,
) -> Result<Vec<bool>, SolutionError> {
    let names = lp_names(&program.columns);
    let index: HashMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let mut result = vec![false; names.len()];
    for (name, &value) in values {
        let &column = index
            .get(name.as_str())
            .ok_or_else(|| SolutionError::UnknownColumn(name.clone()))?;
        let rounded = value.round();
        if (value - rounded).abs() > 1e-6 || !(rounded == 0.0 || rounded == 1.0) {
            return Err(SolutionError::NotZeroOne {
                column: name.clone(),
                value,
            });
        }
        result[column] = rounded == 1.0;
    }
    for row in &program.rows {
        if !row.holds_at(row.lhs(&result)) {
            return Err(SolutionError::RowViolated(row.name.clone()));
        }
    }
    Ok(result)
}

impl MilpSolver {
    /// Solves `program` once.
    pub fn run_once(
        &self,
        program: &LinearProgram,
        comments: &[String],
        control: &Control,
        integral_bound: Option<usize>,
    ) -> Result<MilpAnswer, OracleError> {
        if self.kind == MilpKind::HighsEmbedded {
            return self.run_embedded(program, control, integral_bound);
        }
        let name = self.name();
        let scratch = ScratchDir::new()?;
        let lp_path = scratch.file("model.lp");
        let out_path = scratch.file("solution.txt");
        let mut text = Vec::new();
        write_lp(program, comments, &mut text, &|| false)
            .map_err(|e| OracleError::Io(format!("cannot write {}: {e}", lp_path.display())))?;
        let text = String::from_utf8(text).expect("an LP file is text");
        std::fs::write(&lp_path, &text)
            .map_err(|e| OracleError::Io(format!("cannot write {}: {e}", lp_path.display())))?;
        if control.should_stop() {
            return Ok(MilpAnswer::Stopped);
        }
        let argv = self.argv(
            &lp_path.display().to_string(),
            &out_path.display().to_string(),
        );
        let (status, stderr, stdout) = match run(&argv, &scratch, control)? {
            Finished::Stopped { .. } => return Ok(MilpAnswer::Stopped),
            Finished::Exited {
                status,
                stderr,
                stdout,
                ..
            } => (status, stderr, stdout),
        };
        if !status.success() {
            return Err(OracleError::Failed(format!(
                "{name} failed: {} (stderr: {}; stdout: {})",
                describe_status(&status),
                tail(&stderr),
                tail(&stdout)
            )));
        }
        let solution = std::fs::read_to_string(&out_path).map_err(|e| {
            OracleError::Io(format!(
                "{name} wrote no solution file ({e}; stdout: {})",
                tail(&stdout)
            ))
        })?;
        let parsed = match self.kind {
            MilpKind::Cbc => read_cbc_solution(&solution),
            MilpKind::Glpsol => {
                // Our own file read back gives GLPK's column order: first appearance.
                let order = read_lp(&text)
                    .map_err(|e| OracleError::Io(format!("LP file: {e}")))?
                    .columns;
                read_glpk_solution(&solution, &order)
            }
            _ => read_highs_solution(&solution),
        };
        let garbage = |problem: SolutionError| OracleError::BadSolution {
            solver: name.clone(),
            problem,
            file_tail: tail(&solution),
        };
        match parsed.map_err(garbage)? {
            (None, _) => Ok(MilpAnswer::Infeasible),
            (Some(proven), values) => {
                let values = checked_values(program, &values).map_err(garbage)?;
                Ok(MilpAnswer::Solution(values, proven))
            }
        }
    }

    #[cfg(feature = "highs")]
    fn run_embedded(
        &self,
        program: &LinearProgram,
        control: &Control,
        integral_bound: Option<usize>,
    ) -> Result<MilpAnswer, OracleError> {
        Ok(super::highs::solve_highs(program, control, integral_bound)?)
    }

    #[cfg(not(feature = "highs"))]
    fn run_embedded(
        &self,
        _program: &LinearProgram,
        _control: &Control,
        _integral_bound: Option<usize>,
    ) -> Result<MilpAnswer, OracleError> {
        Err(OracleError::Embedded(super::external::HIGHS_HELP.into()))
    }
}

/// A MILP program as a [`MilpOracle`]: each call writes one LP file and runs it.
pub struct ExternalMilp<'a> {
    solver: &'a MilpSolver,
    comments: Vec<String>,
}

impl MilpOracle for ExternalMilp<'_> {
    fn name(&self) -> String {
        self.solver.name()
    }

    fn solve(
        &mut self,
        program: &LinearProgram,
        control: &Control,
        integral_bound: Option<usize>,
    ) -> Result<MilpAnswer, OracleError> {
        self.solver
            .run_once(program, &self.comments, control, integral_bound)
    }

    fn kind(&self) -> OracleKind {
        OracleKind::Program
    }
}

impl<'a> ExternalMilp<'a> {
    /// `solver` on the 0-1 program of a model of `model_vars` variables: one LP file per
    /// call (with an `at_least` row for a decision), re-solved with each round of
    /// lazy-constraint cuts as extra rows (see [`super::loops::answer_goal_milp`]).
    pub fn new(solver: &'a MilpSolver, model_vars: usize) -> Self {
        ExternalMilp {
            solver,
            comments: vec![format!("puzzlec: {model_vars} model variables")],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solutions_that_break_rows_or_are_fractional_are_refused() {
        let program = crate::formats::lp::read_lp(
            "Maximize\n obj: a + b\nSubject To\n c1: a + b <= 1\nBinaries\n a b\nEnd\n",
        )
        .unwrap();
        let values = |a: f64, b: f64| HashMap::from([("a".to_string(), a), ("b".to_string(), b)]);
        assert_eq!(
            checked_values(&program, &values(1.0, 0.0)).unwrap(),
            vec![true, false]
        );
        assert_eq!(
            checked_values(&program, &values(1.0, 1.0))
                .unwrap_err()
                .to_string(),
            "the solution violates row c1"
        );
        assert!(checked_values(&program, &values(0.5, 0.5))
            .unwrap_err()
            .to_string()
            .contains("not 0 or 1"));
        let unknown = HashMap::from([("zz".to_string(), 1.0)]);
        assert!(checked_values(&program, &unknown)
            .unwrap_err()
            .to_string()
            .contains("unknown column"));
    }

    #[test]
    fn solution_errors_name_the_row() {
        let program = crate::formats::lp::read_lp(
            "Maximize\n obj: a + b\nSubject To\n c1: a + b <= 1\nBinaries\n a b\nEnd\n",
        )
        .unwrap();
        let both = HashMap::from([("a".to_string(), 1.0), ("b".to_string(), 1.0)]);
        assert_eq!(
            checked_values(&program, &both).unwrap_err(),
            SolutionError::RowViolated("c1".into())
        );
    }
}
