//! External SAT solvers: the model's CNF written as DIMACS to a temporary file, the
//! program run on it, and its answer read back, whether printed in the SAT-competition form
//! (`s SATISFIABLE`, `v` lines, exit 10/20: CaDiCaL, CryptoMiniSat, Kissat) or written to a
//! result file (`SAT` then the literals: MiniSat). Every model is checked against every
//! clause before it is decoded, so a solver printing nonsense is caught here, and the driver
//! then verifies the decoded solution against the puzzle's rules.
//!
//! The command line names its files with placeholders: `{cnf}` for the DIMACS input and
//! `{out}` for a result file. Without `{cnf}` the input goes last; `minisat` alone means
//! `minisat {cnf} {out}`. With `{out}` the answer is read from that file, otherwise from
//! stdout.

use crate::base::{Control, Goal, Incumbent, RawOutcome, Size, Status};
use crate::encode::amo::AmoEncoding;
use crate::encode::cnf::encode;
use crate::encode::dimacs::write_dimacs;
use crate::encode::Cnf;
use crate::model::{Assignment, Lit, Model};
use crate::oracle::external::{describe_status, run, split_command, tail, Finished, ScratchDir};

/// SAT solvers `compare` looks for on PATH, by program name.
pub const KNOWN: [&str; 4] = ["cadical", "kissat", "cryptominisat5", "minisat"];

/// A SAT solver command line, with `{cnf}` and possibly `{out}` placeholders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SatCommand {
    argv: Vec<String>,
}

impl SatCommand {
    /// Reads `--solver`'s command line (see the module docs for the placeholders).
    pub fn parse(spec: &str) -> Result<SatCommand, String> {
        let mut argv = split_command(spec)?;
        let mentions = |argv: &[String], p: &str| argv.iter().any(|w| w.contains(p));
        if !mentions(&argv, "{cnf}") {
            argv.push("{cnf}".into());
            // MiniSat prints no model; it writes one to the file named after the input.
            if program_name(&argv[0]) == "minisat" && !mentions(&argv, "{out}") {
                argv.push("{out}".into());
            }
        }
        Ok(SatCommand { argv })
    }

    /// The program's file name, for reports: `cadical`.
    pub fn name(&self) -> String {
        program_name(&self.argv[0]).to_string()
    }

    /// Whether the answer comes in a result file rather than on stdout.
    pub fn uses_result_file(&self) -> bool {
        self.argv.iter().any(|w| w.contains("{out}"))
    }

    /// The command with the placeholders filled in.
    pub fn argv(&self, cnf: &str, out: &str) -> Vec<String> {
        self.argv
            .iter()
            .map(|w| w.replace("{cnf}", cnf).replace("{out}", out))
            .collect()
    }
}

fn program_name(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

/// What a solver said about one formula, its model checked against the clauses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatAnswer {
    /// Satisfiable, with one value per CNF variable.
    Sat(Vec<bool>),
    /// Unsatisfiable.
    Unsat,
    /// The solver gave up (`s UNKNOWN`, `INDET`).
    Unknown,
}

/// Reads a SAT-competition answer (`s` and `v` lines) or, with `result_file`, MiniSat's
/// result file, and checks the model against `cnf`. `exit_code` is cross-checked: 10 must
/// come with a model, 20 with a refutation.
pub fn read_answer(
    text: &str,
    result_file: bool,
    exit_code: Option<i32>,
    cnf: &Cnf,
) -> Result<SatAnswer, String> {
    let mut status: Option<&str> = None;
    let mut literals: Vec<i64> = Vec::new();
    let mut terminated = false;
    let mut set_status = |s: &'static str, line: usize| -> Result<(), String> {
        if status.replace(s).is_some() {
            return Err(format!("line {line}: a second status line"));
        }
        Ok(())
    };
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let line = line.trim();
        let words: Option<&str> = if result_file {
            match line {
                "SAT" => {
                    set_status("sat", number)?;
                    None
                }
                "UNSAT" => {
                    set_status("unsat", number)?;
                    None
                }
                "INDET" => {
                    set_status("unknown", number)?;
                    None
                }
                "" => None,
                _ => Some(line),
            }
        } else if let Some(rest) = line.strip_prefix("s ") {
            match rest.trim() {
                "SATISFIABLE" => set_status("sat", number)?,
                "UNSATISFIABLE" => set_status("unsat", number)?,
                "UNKNOWN" | "INDETERMINATE" => set_status("unknown", number)?,
                other => return Err(format!("line {number}: unknown status {other:?}")),
            }
            None
        } else if line == "v" {
            None
        } else {
            // Comments (`c`) and anything else a solver chats about are not the answer.
            line.strip_prefix("v ")
        };
        let Some(words) = words else { continue };
        for word in words.split_whitespace() {
            let literal: i64 = word
                .parse()
                .map_err(|_| format!("line {number}: {word:?} is not a literal"))?;
            if terminated {
                return Err(format!("line {number}: literals after the closing 0"));
            }
            if literal == 0 {
                terminated = true;
            } else {
                literals.push(literal);
            }
        }
    }
    let answer = match status {
        None => return Err("no status line (`s SATISFIABLE` / `SAT`) in the output".into()),
        Some("unsat") => SatAnswer::Unsat,
        Some("unknown") => SatAnswer::Unknown,
        Some(_) => {
            if !terminated {
                return Err("the model does not end with 0 (truncated output?)".into());
            }
            let mut values: Vec<Option<bool>> = vec![None; cnf.num_vars];
            for &literal in &literals {
                let var = literal.unsigned_abs() as usize;
                if var > cnf.num_vars {
                    return Err(format!(
                        "literal {literal} names no variable (the formula has {})",
                        cnf.num_vars
                    ));
                }
                if values[var - 1].replace(literal > 0) == Some(literal < 0) {
                    return Err(format!("variable {var} is given both values"));
                }
            }
            // A variable left out may take either value; false is as good as any, since
            // the clauses are checked next.
            let values: Vec<bool> = values.into_iter().map(|v| v.unwrap_or(false)).collect();
            if let Some(index) = cnf.clauses.iter().position(|clause| {
                !clause
                    .iter()
                    .any(|l| values[l.var().index()] != l.is_negative())
            }) {
                return Err(format!("the model falsifies clause {}", index + 1));
            }
            SatAnswer::Sat(values)
        }
    };
    let consistent = match (exit_code, &answer) {
        (Some(10), SatAnswer::Sat(_)) | (Some(20), SatAnswer::Unsat) => true,
        (Some(10 | 20), _) => false,
        _ => true,
    };
    if !consistent {
        return Err(format!(
            "exit code {} contradicts the printed status",
            exit_code.unwrap_or(0)
        ));
    }
    Ok(answer)
}

/// Runs `command` once on `cnf`, writing it with `names` and `comments`.
pub fn run_once(
    command: &SatCommand,
    cnf: &Cnf,
    names: &[String],
    comments: &[String],
    control: &Control,
) -> Result<Option<SatAnswer>, String> {
    let name = command.name();
    let scratch = ScratchDir::new()?;
    let cnf_path = scratch.file("model.cnf");
    let out_path = scratch.file("result.txt");
    std::fs::write(&cnf_path, write_dimacs(cnf, names, comments))
        .map_err(|e| format!("cannot write {}: {e}", cnf_path.display()))?;
    let argv = command.argv(
        &cnf_path.display().to_string(),
        &out_path.display().to_string(),
    );
    let (status, stdout, stderr) = match run(&argv, &scratch, control)? {
        Finished::Stopped { .. } => return Ok(None),
        Finished::Exited {
            status,
            stdout,
            stderr,
            ..
        } => (status, stdout, stderr),
    };
    let code = status.code();
    // 10 and 20 are the SAT convention; 0 is what some solvers use for any answer.
    if !matches!(code, Some(0 | 10 | 20)) {
        return Err(format!(
            "{name} failed: {} (stderr: {})",
            describe_status(&status),
            tail(&stderr)
        ));
    }
    let text = if command.uses_result_file() {
        std::fs::read_to_string(&out_path).map_err(|e| {
            format!(
                "{name} wrote no result file {} ({e}; stderr: {})",
                out_path.display(),
                tail(&stderr)
            )
        })?
    } else {
        stdout
    };
    read_answer(&text, command.uses_result_file(), code, cnf)
        .map(Some)
        .map_err(|e| {
            format!(
                "{name} printed an answer puzzlec cannot accept: {e} (output: {})",
                tail(&text)
            )
        })
}

/// Answers `goal` for `model` with the external SAT solver `command`: the same "at least
/// k" questions as the embedded backend, each as a self-contained DIMACS file (k = the best
/// value found + 1 until refuted). Lazy constraints add their cuts as clauses and re-run.
pub fn solve(
    model: &Model,
    goal: Goal,
    command: &SatCommand,
    control: &Control,
    incumbent: &Incumbent<Assignment>,
) -> Result<RawOutcome<Assignment>, String> {
    let name = command.name();
    let mut encoding = encode(model, AmoEncoding::Auto);
    let objective = model.objective.as_ref();
    let structural_bound = objective.map(|o| o.trivial_bound());
    let mut best: Option<(Assignment, usize)> = None;
    let mut k = match goal {
        Goal::AtLeast(k) => k,
        Goal::Maximise => 0,
    };
    let (mut runs, mut cuts) = (0, 0);
    loop {
        let size = Size {
            variables: encoding.cnf.num_vars,
            constraints: encoding.cnf.clauses.len(),
            unit: "clauses",
        };
        if let Err(impossible) = encoding.at_least(k) {
            let evidence = format!(
                "at least {k} is impossible: the objective has only {} at-most-one groups",
                impossible.inputs
            );
            return Ok(super::varisat::refuted(goal, best, k, evidence, size));
        }
        let cnf = encoding.cnf_with_at_least(Some(k));
        let comments = vec![
            format!("puzzlec: decision \"objective at least {k}\""),
            format!("objective counted by {}", encoding.objective_encoding),
        ];
        runs += 1;
        let answer = if control.should_stop() {
            None
        } else {
            run_once(command, &cnf, model.names(), &comments, control)?
        };
        let answer = match answer {
            Some(SatAnswer::Unknown) => Err(format!("{name} answered UNKNOWN for at least {k}")),
            Some(answer) => Ok(answer),
            None => Err(format!(
                "{}; {name} was killed while deciding \"at least {k}\"",
                control.reason()
            )),
        };
        let answer = match answer {
            Ok(answer) => answer,
            Err(why) => {
                let status = if best.is_some() {
                    Status::Feasible
                } else {
                    Status::Unknown
                };
                return Ok(RawOutcome {
                    status,
                    witness: best.map(|(a, _)| a),
                    bound: None,
                    evidence: format!("{why}; the best solution found is not proven optimal"),
                    size,
                });
            }
        };
        match answer {
            SatAnswer::Sat(values) => {
                let assignment = Assignment::new(values[..encoding.model_vars].to_vec());
                let new_cuts: Vec<Vec<Lit>> = model
                    .lazy
                    .iter()
                    .flat_map(|l| l.cuts(&assignment))
                    .collect();
                if !new_cuts.is_empty() {
                    cuts += new_cuts.len();
                    encoding.cnf.clauses.extend(new_cuts);
                    continue;
                }
                let value = objective.map_or(0, |o| o.value(&assignment));
                incumbent.offer(&assignment, value);
                if let Goal::AtLeast(target) = goal {
                    return Ok(RawOutcome {
                        status: Status::Satisfiable,
                        witness: Some(assignment),
                        bound: None,
                        evidence: format!(
                            "{name} found a solution with {value} >= {target} ({runs} runs)"
                        ),
                        size,
                    });
                }
                best = Some((assignment, value));
                if objective.is_none() {
                    // Nothing to optimise: any solution answers the question, as for varisat.
                    return Ok(RawOutcome {
                        status: Status::Satisfiable,
                        bound: None,
                        witness: best.map(|(a, _)| a),
                        evidence: format!(
                            "{name} found a solution; the model has no objective ({runs} runs, {cuts} cuts)"
                        ),
                        size,
                    });
                }
                if Some(value) == structural_bound {
                    let evidence = match structural_bound {
                        Some(b) => format!(
                            "{name} found {value}, which equals the structural bound ({b} at-most-one groups)"
                        ),
                        None => format!("{name} found a solution; the model has no objective"),
                    };
                    return Ok(RawOutcome {
                        status: Status::Optimal,
                        bound: objective.map(|_| value),
                        witness: best.map(|(a, _)| a),
                        evidence,
                        size,
                    });
                }
                k = value + 1;
            }
            SatAnswer::Unknown => unreachable!("an UNKNOWN answer ends the run above"),
            SatAnswer::Unsat => {
                let evidence = format!(
                    "{name} reported \"at least {k}\" unsatisfiable ({}; {runs} runs, {cuts} cuts; no proof checked)",
                    encoding.objective_encoding
                );
                return Ok(super::varisat::refuted(goal, best, k, evidence, size));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cnf() -> Cnf {
        Cnf {
            num_vars: 3,
            clauses: vec![
                vec![Lit::from_dimacs(1), Lit::from_dimacs(2)],
                vec![Lit::from_dimacs(-1), Lit::from_dimacs(3)],
            ],
        }
    }

    #[test]
    fn placeholders_and_defaults() {
        let c = SatCommand::parse("cadical -q").unwrap();
        assert_eq!(c.argv("in.cnf", "o"), vec!["cadical", "-q", "in.cnf"]);
        assert!(!c.uses_result_file());
        let m = SatCommand::parse("/usr/bin/minisat -verb=0").unwrap();
        assert_eq!(
            m.argv("i", "o"),
            vec!["/usr/bin/minisat", "-verb=0", "i", "o"]
        );
        assert_eq!(m.name(), "minisat");
        let t = SatCommand::parse("solver --in={cnf} --model {out}").unwrap();
        assert_eq!(t.argv("i", "o"), vec!["solver", "--in=i", "--model", "o"]);
        assert!(t.uses_result_file());
    }

    #[test]
    fn competition_and_minisat_answers_are_read_and_checked() {
        let sat = "c hello\ns SATISFIABLE\nv 1 -2\nv 3 0\n";
        assert_eq!(
            read_answer(sat, false, Some(10), &cnf()).unwrap(),
            SatAnswer::Sat(vec![true, false, true])
        );
        assert_eq!(
            read_answer("SAT\n-1 2 -3 0\n", true, Some(10), &cnf()).unwrap(),
            SatAnswer::Sat(vec![false, true, false])
        );
        assert_eq!(
            read_answer("s UNSATISFIABLE\n", false, Some(20), &cnf()).unwrap(),
            SatAnswer::Unsat
        );
        assert_eq!(
            read_answer("UNSAT\n", true, Some(20), &cnf()).unwrap(),
            SatAnswer::Unsat
        );
    }

    #[test]
    fn bad_answers_are_refused() {
        let bad = |text: &str, file: bool, code: i32| {
            read_answer(text, file, Some(code), &cnf()).unwrap_err()
        };
        assert_eq!(
            bad("s SATISFIABLE\nv 1 -2 -3 0\n", false, 10),
            "the model falsifies clause 2"
        );
        assert_eq!(
            bad("s SATISFIABLE\nv 1 x 0\n", false, 10),
            "line 2: \"x\" is not a literal"
        );
        assert!(bad("s SATISFIABLE\nv 1 3\n", false, 10).contains("does not end with 0"));
        assert!(bad("s SATISFIABLE\nv 1 7 0\n", false, 10).contains("names no variable"));
        assert!(bad("s SATISFIABLE\nv 1 -1 3 0\n", false, 10).contains("both values"));
        assert!(bad("hello\n", false, 10).contains("no status line"));
        assert!(bad("s UNSATISFIABLE\n", false, 10).contains("contradicts"));
        assert!(bad("SAT\n1 3 0\n", true, 20).contains("contradicts"));
    }
}
