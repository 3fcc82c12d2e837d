//! External MILP solvers: the 0-1 program written as a CPLEX LP file, CBC (`cbc`), GLPK
//! (`glpsol`) or the HiGHS program (`highs`) run on it, and their solution files read back
//! by column name (CBC, HiGHS) or column order (GLPK numbers columns in the order they first
//! appear in the LP file). Every solution is checked to be 0-1 and to satisfy every row
//! before it is decoded. HiGHS can also be linked in (`--features highs`); `highs` means
//! that when it is built, and the `highs` program otherwise.

use super::{MilpAnswer, MilpOracle, OracleError};
use crate::base::evidence::OracleKind;
use crate::base::Control;
use crate::encode::lp::LinearProgram;
use crate::encode::lp_file::{lp_names, read_lp, write_lp};
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
    /// HiGHS linked in through good_lp (the `highs` cargo feature).
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

/// Why a MILP solver's solution file cannot be accepted: it does not read as the solver's
/// format, or its values are not 0-1 or break a row of the program.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SolutionError {
    /// CBC's first line is no status puzzlec knows.
    #[error("unknown CBC status line {0:?}")]
    UnknownCbcStatus(String),
    /// A CBC value line without `index name value`.
    #[error("line {line}: expected `index name value`")]
    ExpectedIndexNameValue {
        /// The 1-based line.
        line: usize,
    },
    /// A value that is not a number (CBC, GLPK).
    #[error("line {line}: {value:?} is not a number")]
    NotANumber {
        /// The 1-based line.
        line: usize,
        /// The word where the value should be.
        value: String,
    },
    /// GLPK's `s mip` line gives another column count than the LP file has.
    #[error("line {line}: {found} columns, the LP file has {expected}")]
    ColumnCount {
        /// The 1-based line.
        line: usize,
        /// The count as written.
        found: String,
        /// The LP file's columns.
        expected: usize,
    },
    /// GLPK wrote another kind of solution than `mip`.
    #[error("line {line}: a {kind} solution, not mip")]
    NotMip {
        /// The 1-based line.
        line: usize,
        /// The kind written (`bas`, `ipt`).
        kind: String,
    },
    /// A GLPK `j` line for a column number the LP file does not have.
    #[error("line {line}: no column {number}")]
    NoColumn {
        /// The 1-based line.
        line: usize,
        /// The column number as written.
        number: String,
    },
    /// GLPK's status says the solution is undefined (or is unknown).
    #[error("GLPK status {0:?} (undefined solution)")]
    GlpkStatus(String),
    /// GLPK's file has no `s mip` line.
    #[error("no `s mip` line")]
    NoMipLine,
    /// The HiGHS file has no `Model status` line.
    #[error("no `Model status` line")]
    NoModelStatus,
    /// HiGHS gave a status that is no answer.
    #[error("HiGHS status {0:?}")]
    HighsStatus(String),
    /// The HiGHS file has no `# Columns` section.
    #[error("no `# Columns` section")]
    NoColumnsSection,
    /// The HiGHS `# Columns` line has no count.
    #[error("bad `# Columns` count")]
    BadColumnsCount,
    /// A HiGHS column line without `name value`.
    #[error("line {line}: expected `name value`")]
    ExpectedNameValue {
        /// The 1-based line.
        line: usize,
    },
    /// A value for a column the program does not have.
    #[error("unknown column {0:?}")]
    UnknownColumn(String),
    /// A value that is not 0 or 1.
    #[error("column {column} has value {value}, not 0 or 1")]
    NotZeroOne {
        /// The column's LP name.
        column: String,
        /// Its value.
        value: f64,
    },
    /// The values break a row of the program.
    #[error("the solution violates row {0}")]
    RowViolated(String),
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

/// Reads CBC's solution file: a status line, then `index name value reduced-cost` lines
/// (columns left out are 0).
pub fn read_cbc_solution(
    text: &str,
) -> Result<(Option<bool>, HashMap<String, f64>), SolutionError> {
    let mut lines = text.lines();
    let status = lines.next().unwrap_or("").trim();
    // Some(proven) for a solution, None for infeasible.
    let found = if status.starts_with("Optimal") {
        Some(true)
    } else if status.contains("nfeasible") {
        None
    } else if status.starts_with("Stopped") {
        Some(false)
    } else {
        return Err(SolutionError::UnknownCbcStatus(status.to_string()));
    };
    let mut values = HashMap::new();
    if found.is_none() {
        return Ok((None, values));
    }
    for (index, text_line) in lines.enumerate() {
        let words: Vec<&str> = text_line
            .split_whitespace()
            .filter(|w| *w != "**") // CBC marks infeasibilities with `**`
            .collect();
        if words.is_empty() {
            continue;
        }
        let line = index + 2;
        let [_, name, value, ..] = words[..] else {
            return Err(SolutionError::ExpectedIndexNameValue { line });
        };
        let value: f64 = value.parse().map_err(|_| SolutionError::NotANumber {
            line,
            value: value.to_string(),
        })?;
        values.insert(name.to_string(), value);
    }
    if status.starts_with("Stopped") && values.is_empty() {
        return Ok((Some(false), values));
    }
    Ok((found, values))
}

/// Reads GLPK's `-w` solution file: `s mip ROWS COLS STATUS OBJ`, then `j N VALUE` per
/// column, columns numbered in the order of `columns`.
pub fn read_glpk_solution(
    text: &str,
    columns: &[String],
) -> Result<(Option<bool>, HashMap<String, f64>), SolutionError> {
    let mut status = None;
    let mut values = HashMap::new();
    for (index, text_line) in text.lines().enumerate() {
        let line = index + 1;
        let words: Vec<&str> = text_line.split_whitespace().collect();
        match words[..] {
            ["s", "mip", _, cols, s, ..] => {
                if cols.parse::<usize>().ok() != Some(columns.len()) {
                    return Err(SolutionError::ColumnCount {
                        line,
                        found: cols.to_string(),
                        expected: columns.len(),
                    });
                }
                status = Some(s.to_string());
            }
            ["s", kind, ..] => {
                return Err(SolutionError::NotMip {
                    line,
                    kind: kind.to_string(),
                })
            }
            ["j", number, value, ..] => {
                let name = number
                    .parse::<usize>()
                    .ok()
                    .and_then(|n| columns.get(n.wrapping_sub(1)))
                    .ok_or_else(|| SolutionError::NoColumn {
                        line,
                        number: number.to_string(),
                    })?;
                let value: f64 = value.parse().map_err(|_| SolutionError::NotANumber {
                    line,
                    value: value.to_string(),
                })?;
                values.insert(name.clone(), value);
            }
            _ => {}
        }
    }
    match status.as_deref() {
        Some("o") => Ok((Some(true), values)),
        Some("f") => Ok((Some(false), values)),
        Some("n") => Ok((None, HashMap::new())),
        Some(other) => Err(SolutionError::GlpkStatus(other.to_string())),
        None => Err(SolutionError::NoMipLine),
    }
}

/// Reads the HiGHS program's solution file: `Model status` then its value, and the values
/// after `# Columns N` as `name value` lines.
pub fn read_highs_solution(
    text: &str,
) -> Result<(Option<bool>, HashMap<String, f64>), SolutionError> {
    let lines: Vec<&str> = text.lines().collect();
    let status_at = lines
        .iter()
        .position(|l| l.trim() == "Model status")
        .ok_or(SolutionError::NoModelStatus)?;
    let status = lines.get(status_at + 1).map_or("", |l| l.trim());
    let found = match status {
        "Optimal" => Some(true),
        "Infeasible" => return Ok((None, HashMap::new())),
        "Time limit reached" => Some(false),
        other => return Err(SolutionError::HighsStatus(other.to_string())),
    };
    let columns_at = lines
        .iter()
        .position(|l| l.starts_with("# Columns"))
        .ok_or(SolutionError::NoColumnsSection)?;
    let count: usize = lines[columns_at]
        .trim_start_matches("# Columns")
        .trim()
        .parse()
        .map_err(|_| SolutionError::BadColumnsCount)?;
    let mut values = HashMap::new();
    for (offset, line) in lines[columns_at + 1..].iter().take(count).enumerate() {
        let bad = || SolutionError::ExpectedNameValue {
            line: columns_at + offset + 2,
        };
        let mut words = line.split_whitespace();
        let (Some(name), Some(value)) = (words.next(), words.next()) else {
            return Err(bad());
        };
        values.insert(name.to_string(), value.parse().map_err(|_| bad())?);
    }
    Ok((found, values))
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
        let text = write_lp(program, comments);
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
        Ok(
            match super::highs::solve_highs(program, control, integral_bound)? {
                None => MilpAnswer::Infeasible,
                Some((values, proven)) => MilpAnswer::Solution(values, proven),
            },
        )
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
    fn solution_files_are_read() {
        let (proven, values) = read_cbc_solution(
            "Optimal - objective value 2.00000000\n      0 b   1   1\n      1 c  1 1\n      2 a 0 0\n",
        )
        .unwrap();
        assert_eq!(proven, Some(true));
        assert_eq!(values["b"], 1.0);
        assert_eq!(values["a"], 0.0);
        assert_eq!(
            read_cbc_solution("Infeasible - objective value 0.00000000\n")
                .unwrap()
                .0,
            None
        );
        let columns: Vec<String> = ["b", "c", "a"].iter().map(|s| s.to_string()).collect();
        let (proven, values) = read_glpk_solution(
            "c Problem:\ns mip 2 3 o 2\ni 1 1\nj 1 1\nj 2 0\nj 3 1\ne o f\n",
            &columns,
        )
        .unwrap();
        assert_eq!(proven, Some(true));
        assert_eq!((values["b"], values["c"], values["a"]), (1.0, 0.0, 1.0));
        assert_eq!(
            read_glpk_solution("s mip 2 3 n 0\n", &columns).unwrap().0,
            None
        );
        let (proven, values) = read_highs_solution(
            "Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective 2\n# Columns 2\nb 1\nc 0\n# Rows 1\nc1 1\n",
        )
        .unwrap();
        assert_eq!(proven, Some(true));
        assert_eq!(values.len(), 2);
    }

    #[test]
    fn solutions_that_break_rows_or_are_fractional_are_refused() {
        let program = crate::encode::lp_file::read_lp(
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
    fn solution_errors_name_the_line_and_the_row() {
        assert_eq!(
            read_cbc_solution("Optimal - objective value 1\n 0 a x 0\n").unwrap_err(),
            SolutionError::NotANumber {
                line: 2,
                value: "x".into()
            }
        );
        let program = crate::encode::lp_file::read_lp(
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
