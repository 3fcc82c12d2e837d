//! Constraint solvers through MiniZinc (`--solver cp:gecode`, `cp:chuffed`...): the 0-1
//! program the MILP backend solves, written as a MiniZinc file
//! ([`crate::formats::minizinc`], its identifiers from [`crate::encode::mzn`]),
//! `minizinc --solver NAME` run on it, and its `name = value;` output read back by
//! identifier. Every solution is checked to give every variable 0 or 1 and to satisfy every
//! row before it is decoded; "optimal" (`==========`) and `=====UNSATISFIABLE=====` are the
//! solver's claims, reported as such.

use super::{MilpAnswer, MilpOracle, OracleError};
use crate::base::evidence::OracleKind;
use crate::base::Control;
use crate::encode::mzn;
use crate::formats::linear::LinearProgram;
use crate::formats::minizinc::{self, Dialect, MznStatus};

use crate::oracle::external::{
    describe_status, find_on_path, run, split_command, tail, Finished, ScratchDir, SolverSpecError,
};
use std::collections::HashMap;
use std::process::{Command, Stdio};

/// The MiniZinc program.
pub const MINIZINC: &str = "minizinc";

/// The MiniZinc solvers `compare` runs when `minizinc --solvers` lists them: (the name after
/// `cp:`, the solver's id in that list).
pub const KNOWN: [(&str, &str); 4] = [
    ("gecode", "org.gecode.gecode"),
    ("chuffed", "org.chuffed.chuffed"),
    ("cp-sat", "com.google.or-tools"),
    ("cbc", "org.minizinc.mip.coin-bc"),
];

/// A MiniZinc solver: `minizinc --solver NAME`, with extra arguments for `minizinc`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CpSolver {
    /// The solver's name or id for `minizinc --solver` (`gecode`).
    pub solver: String,
    extra: Vec<String>,
}

impl CpSolver {
    /// Reads `--solver cp:NAME [minizinc arguments]` (`cp:gecode`, `cp:chuffed -p 2`);
    /// `None` when `spec` does not start with `cp:`.
    pub fn parse(spec: &str) -> Option<Result<CpSolver, SolverSpecError>> {
        let rest = spec.trim_start().strip_prefix("cp:")?;
        Some(split_command(rest).map(|mut words| {
            let solver = words.remove(0);
            CpSolver {
                solver,
                extra: words,
            }
        }))
    }

    /// The known MiniZinc solvers that `minizinc --solvers-json` lists here (none when
    /// `minizinc` is not on PATH).
    pub fn available() -> Vec<CpSolver> {
        let listed = listed_solvers().unwrap_or_default();
        KNOWN
            .iter()
            .filter(|(_, id)| listed.iter().any(|(listed_id, _)| listed_id == id))
            .map(|(name, _)| CpSolver {
                solver: name.to_string(),
                extra: Vec::new(),
            })
            .collect()
    }

    /// Refuses a solver MiniZinc does not list (by id, the id's last part, or a tag), so
    /// that a missing solver is said before any model is written. When the list cannot be
    /// read, MiniZinc's own error at run time says it instead.
    pub fn check_listed(&self) -> Result<(), SolverSpecError> {
        let Some(listed) = listed_solvers() else {
            return Ok(());
        };
        let known = listed.iter().any(|(id, tags)| {
            *id == self.solver
                || id.rsplit('.').next() == Some(self.solver.as_str())
                || tags.contains(&self.solver)
        });
        if known {
            return Ok(());
        }
        let names: Vec<&str> = listed
            .iter()
            .map(|(id, _)| id.rsplit('.').next().unwrap_or(id))
            .collect();
        Err(SolverSpecError::UnknownCpSolver {
            solver: self.solver.clone(),
            listed: names.join(", "),
        })
    }

    /// The solver's name in reports: `gecode`.
    pub fn name(&self) -> String {
        self.solver.clone()
    }

    /// Solves `program` once: a MiniZinc file, `minizinc --solver NAME` on it, its output
    /// read and checked.
    pub fn run_once(
        &self,
        program: &LinearProgram,
        comments: &[String],
        control: &Control,
    ) -> Result<MilpAnswer, OracleError> {
        let name = self.name();
        let scratch = ScratchDir::new()?;
        let path = scratch.file("model.mzn");
        let mut text = Vec::new();
        minizinc::write(
            &mzn::program_problem(program),
            Dialect::MiniZinc,
            comments,
            &mut text,
            &|| false,
        )
        .map_err(|e| OracleError::Io(format!("cannot write the MiniZinc model: {e}")))?;
        std::fs::write(&path, &text)
            .map_err(|e| OracleError::Io(format!("cannot write {}: {e}", path.display())))?;
        if control.should_stop() {
            return Ok(MilpAnswer::Stopped);
        }
        let mut argv = vec![
            MINIZINC.to_string(),
            "--solver".to_string(),
            self.solver.clone(),
        ];
        // With a deadline, MiniZinc stops the solver a little before it and prints the
        // best solution found, rather than being killed with nothing to show.
        if let Some(left) = control.remaining() {
            let margin = (left / 10).min(std::time::Duration::from_secs(1));
            let ms = (left - margin).as_millis().max(1);
            argv.extend(["--time-limit".to_string(), ms.to_string()]);
        }
        argv.extend(self.extra.iter().cloned());
        argv.push(path.display().to_string());
        let (status, stdout, stderr) = match run(&argv, &scratch, control)? {
            Finished::Stopped { .. } => return Ok(MilpAnswer::Stopped),
            Finished::Exited {
                status,
                stdout,
                stderr,
                ..
            } => (status, stdout, stderr),
        };
        let failed = |what: String| {
            OracleError::Failed(format!(
                "minizinc --solver {name} {what} (stderr: {}; stdout: {})",
                tail(&stderr),
                tail(&stdout)
            ))
        };
        if !status.success() {
            return Err(failed(format!("failed: {}", describe_status(&status))));
        }
        let garbage = |problem: String| {
            OracleError::Rejected(format!(
                "minizinc --solver {name} printed an answer puzzlec cannot accept: {problem} \
                 (output: {})",
                tail(&stdout)
            ))
        };
        match minizinc::read_answer(&stdout).map_err(|e| garbage(e.to_string()))? {
            MznStatus::Unsatisfiable => Ok(MilpAnswer::Infeasible),
            // `=====UNKNOWN=====`: stopped (by its time limit) without a solution.
            MznStatus::Unknown(words) if words == "=====UNKNOWN=====" => Ok(MilpAnswer::Stopped),
            MznStatus::Unknown(words) => Err(failed(format!("gave no answer ({words})"))),
            MznStatus::Solution { values, complete } => {
                let values = checked_values(program, &values).map_err(garbage)?;
                Ok(MilpAnswer::Solution(values, complete))
            }
        }
    }
}

/// The solvers `minizinc --solvers-json` lists, as (id, tags); `None` when `minizinc` is not
/// on PATH or its list does not read.
fn listed_solvers() -> Option<Vec<(String, Vec<String>)>> {
    let program = find_on_path(MINIZINC)?;
    let output = Command::new(program)
        .arg("--solvers-json")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let list: Vec<serde_json::Value> = serde_json::from_slice(&output.stdout).ok()?;
    Some(
        list.iter()
            .filter_map(|solver| {
                let id = solver.get("id")?.as_str()?.to_string();
                let tags = solver
                    .get("tags")
                    .and_then(|t| t.as_array())
                    .map(|tags| {
                        tags.iter()
                            .filter_map(|t| t.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default();
                Some((id, tags))
            })
            .collect(),
    )
}

/// The values by identifier as one value per column of `program`, checked: every column
/// given once, 0 or 1, every row satisfied.
fn checked_values(
    program: &LinearProgram,
    values: &[(String, String)],
) -> Result<Vec<bool>, String> {
    let idents = mzn::mzn_names(&program.columns);
    let index: HashMap<&str, usize> = idents
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let mut result: Vec<Option<bool>> = vec![None; idents.len()];
    for (name, value) in values {
        let &column = index
            .get(name.as_str())
            .ok_or_else(|| format!("unknown variable {name:?}"))?;
        let bit = minizinc::zero_one(value)
            .ok_or_else(|| format!("variable {name} has value {value}, not 0 or 1"))?;
        result[column] = Some(bit);
    }
    if let Some(missing) = result.iter().position(Option::is_none) {
        return Err(format!("no value for variable {}", idents[missing]));
    }
    let result: Vec<bool> = result.into_iter().map(|v| v == Some(true)).collect();
    for row in &program.rows {
        if !row.holds_at(row.lhs(&result)) {
            return Err(format!("the solution violates row {}", row.name));
        }
    }
    Ok(result)
}

/// A MiniZinc solver as a [`MilpOracle`]: each call writes one MiniZinc file and runs it.
pub struct ExternalCp<'a> {
    solver: &'a CpSolver,
    comments: Vec<String>,
}

impl MilpOracle for ExternalCp<'_> {
    fn name(&self) -> String {
        self.solver.name()
    }

    fn solve(
        &mut self,
        program: &LinearProgram,
        control: &Control,
        _integral_bound: Option<usize>,
    ) -> Result<MilpAnswer, OracleError> {
        self.solver.run_once(program, &self.comments, control)
    }

    fn kind(&self) -> OracleKind {
        OracleKind::MiniZinc
    }
}

impl<'a> ExternalCp<'a> {
    /// `solver` on the 0-1 program of a model of `model_vars` variables: one MiniZinc file
    /// per call (with an `at_least` row and `solve satisfy` for a decision), solved again
    /// with each round of lazy-constraint cuts as extra rows (see
    /// [`super::loops::answer_goal_milp`]).
    pub fn new(solver: &'a CpSolver, model_vars: usize) -> Self {
        ExternalCp {
            solver,
            comments: vec![format!("puzzlec: {model_vars} model variables")],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cp_specs_name_the_minizinc_solver() {
        assert_eq!(CpSolver::parse("cadical"), None);
        let solver = CpSolver::parse("cp:chuffed -p 2").unwrap().unwrap();
        assert_eq!(solver.name(), "chuffed");
        assert_eq!(solver.extra, vec!["-p", "2"]);
        assert!(CpSolver::parse("cp:").unwrap().is_err());
    }

    #[test]
    fn solutions_are_checked_against_the_rows() {
        let program = crate::formats::lp::read_lp(
            "Maximize\n obj: a + b\nSubject To\n c1: a + b <= 1\nBinaries\n a b\nEnd\n",
        )
        .unwrap();
        let values =
            |a: &str, b: &str| vec![("a".to_string(), a.into()), ("b".to_string(), b.into())];
        assert_eq!(
            checked_values(&program, &values("1", "0")).unwrap(),
            vec![true, false]
        );
        assert_eq!(
            checked_values(&program, &values("1", "1")).unwrap_err(),
            "the solution violates row c1"
        );
        assert_eq!(
            checked_values(&program, &values("1", "2")).unwrap_err(),
            "variable b has value 2, not 0 or 1"
        );
        assert_eq!(
            checked_values(&program, &values("1", "0")[..1]).unwrap_err(),
            "no value for variable b"
        );
    }
}
