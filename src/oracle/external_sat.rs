//! External SAT solvers: the model's CNF written as DIMACS to a temporary file, the
//! program run on it, and its answer read back, whether printed in the SAT-competition form
//! (`s SATISFIABLE`, `v` lines, exit 10/20: CaDiCaL, CryptoMiniSat, Kissat) or written to a
//! result file (`SAT` then the literals: MiniSat). Every model is checked against every
//! clause before it is decoded, so a solver printing nonsense is caught here, and the driver
//! then verifies the decoded solution against the puzzle's rules.
//!
//! The command line names its files with placeholders: `{cnf}` for the DIMACS input,
//! `{out}` for a result file and `{proof}` for a DRAT proof. Without `{cnf}` the input goes
//! last; `minisat` alone means `minisat {cnf} {out}`. With `{out}` the answer is read from
//! that file, otherwise from stdout.
//!
//! An UNSATISFIABLE answer is checked too, when the command writes a DRAT proof (it names
//! `{proof}`; `cadical` is given `--no-binary {proof}`): puzzlec's own DRAT checker
//! ([`crate::checkers::drat`]) must find that the proof refutes the exact CNF written for
//! that run, question included. Without a proof the evidence says "refutation not checked".

use super::{OracleError, SatAnswer, SatOracle};
use crate::base::evidence::OracleKind;
use crate::base::{Control, Size};
use crate::checkers::drat::check_refutation;
use crate::encode::cnf::CnfEncoding;
use crate::encode::dimacs::write_dimacs;
use crate::encode::Cnf;
use crate::formats::sat_answer::{
    AnswerError, AnswerItem, AnswerReader, AnswerStatus, AnswerSyntax,
};
use crate::model::{Lit, Model};
use crate::oracle::external::{
    describe_status, run, split_command, tail, Finished, ScratchDir, SolverSpecError,
};

/// SAT solvers `compare` looks for on PATH, by program name.
pub const KNOWN: [&str; 4] = ["cadical", "kissat", "cryptominisat5", "minisat"];

/// A SAT solver command line, with `{cnf}` and possibly `{out}` and `{proof}` placeholders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SatCommand {
    argv: Vec<String>,
}

/// What became of the refutation behind an UNSATISFIABLE answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefutationCheck {
    /// No proof was asked for: the command names no `{proof}`.
    NotChecked,
    /// The solver's DRAT proof refutes the CNF it was given; the proof has `lemmas` lemmas.
    Checked {
        /// Lemma additions in the proof, the empty clause included.
        lemmas: usize,
    },
}

impl SatCommand {
    /// Reads `--solver`'s command line (see the module docs for the placeholders).
    pub fn parse(spec: &str) -> Result<SatCommand, SolverSpecError> {
        let mut argv = split_command(spec)?;
        let mentions = |argv: &[String], p: &str| argv.iter().any(|w| w.contains(p));
        if !mentions(&argv, "{cnf}") {
            argv.push("{cnf}".into());
            // MiniSat prints no model; it writes one to the file named after the input.
            if program_name(&argv[0]) == "minisat" && !mentions(&argv, "{out}") {
                argv.push("{out}".into());
            }
        }
        // CaDiCaL writes DRAT when given a second file: ask it for one (as text), so that
        // its refutations are checked. Other commands write a proof only if they name one.
        if program_name(&argv[0]) == "cadical" && !mentions(&argv, "{proof}") {
            argv.push("--no-binary".into());
            argv.push("{proof}".into());
        }
        Ok(SatCommand { argv })
    }

    /// Whether the command line names a proof file.
    pub fn writes_proof(&self) -> bool {
        self.argv.iter().any(|w| w.contains("{proof}"))
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
    pub fn argv(&self, cnf: &str, out: &str, proof: &str) -> Vec<String> {
        self.argv
            .iter()
            .map(|w| {
                w.replace("{cnf}", cnf)
                    .replace("{out}", out)
                    .replace("{proof}", proof)
            })
            .collect()
    }
}

fn program_name(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

/// Why a SAT program's answer cannot be accepted: it does not read, or its model is not
/// one of the formula, or it contradicts the exit code.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SatAnswerError {
    /// A status line after the first.
    #[error("line {line}: a second status line")]
    SecondStatus {
        /// The 1-based line.
        line: usize,
    },
    /// An `s` line with a status puzzlec does not know.
    #[error("line {line}: unknown status {status:?}")]
    UnknownStatus {
        /// The 1-based line.
        line: usize,
        /// The status as written.
        status: String,
    },
    /// A word of the model that does not read: no literal, or one after the closing 0 (the
    /// answer reader's own error, worded as it words it).
    #[error(transparent)]
    Syntax(#[from] AnswerError),
    /// No status line at all.
    #[error("no status line (`s SATISFIABLE` / `SAT`) in the output")]
    NoStatus,
    /// A satisfiable answer whose model has no closing 0.
    #[error("the model does not end with 0 (truncated output?)")]
    Unterminated,
    /// A literal over a variable the formula does not have.
    #[error("literal {literal} names no variable (the formula has {num_vars})")]
    NoSuchVariable {
        /// The literal.
        literal: i64,
        /// The formula's variables.
        num_vars: usize,
    },
    /// A variable given as true and as false.
    #[error("variable {0} is given both values")]
    BothValues(usize),
    /// The model falsifies a clause.
    #[error("the model falsifies clause {0}")]
    FalsifiedClause(
        /// The 1-based clause.
        usize,
    ),
    /// Exit code 10 without a model, or 20 without a refutation.
    #[error("exit code {0} contradicts the printed status")]
    ExitCodeContradicts(i32),
}

/// Reads a SAT-competition answer (`s` and `v` lines) or, with `result_file`, MiniSat's
/// result file, and checks the model against `cnf`. `exit_code` is cross-checked: 10 must
/// come with a model, 20 with a refutation.
pub fn read_answer(
    text: &str,
    result_file: bool,
    exit_code: Option<i32>,
    cnf: &Cnf,
) -> Result<SatAnswer, SatAnswerError> {
    let syntax = AnswerSyntax {
        result_file,
        lenient: false,
    };
    let mut status: Option<&str> = None;
    let mut literals: Vec<(usize, bool)> = Vec::new();
    let mut reader = AnswerReader::new(text, syntax);
    for item in reader.by_ref() {
        let (line, item) = item?;
        let said = match item {
            AnswerItem::Literal { var, value } => {
                literals.push((var, value));
                continue;
            }
            AnswerItem::Status(said) => said,
        };
        let known = match said {
            AnswerStatus::Satisfiable => "sat",
            AnswerStatus::Unsatisfiable => "unsat",
            AnswerStatus::Other(words)
                if result_file || words == "UNKNOWN" || words == "INDETERMINATE" =>
            {
                "unknown"
            }
            AnswerStatus::Other(words) => {
                return Err(SatAnswerError::UnknownStatus {
                    line,
                    status: words,
                })
            }
            AnswerStatus::OptimumFound => {
                return Err(SatAnswerError::UnknownStatus {
                    line,
                    status: "OPTIMUM FOUND".into(),
                })
            }
        };
        if status.replace(known).is_some() {
            return Err(SatAnswerError::SecondStatus { line });
        }
    }
    let terminated = reader.closed();
    let answer = match status {
        None => return Err(SatAnswerError::NoStatus),
        Some("unsat") => SatAnswer::Unsat,
        Some("unknown") => SatAnswer::Unknown,
        Some(_) => {
            if !terminated {
                return Err(SatAnswerError::Unterminated);
            }
            let mut values: Vec<Option<bool>> = vec![None; cnf.num_vars];
            for &(var, value) in &literals {
                if var > cnf.num_vars {
                    // The literal as written (`var` came from its absolute value).
                    let literal = if value {
                        var as i64
                    } else {
                        (var as i64).wrapping_neg()
                    };
                    return Err(SatAnswerError::NoSuchVariable {
                        literal,
                        num_vars: cnf.num_vars,
                    });
                }
                if values[var - 1].replace(value) == Some(!value) {
                    return Err(SatAnswerError::BothValues(var));
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
                return Err(SatAnswerError::FalsifiedClause(index + 1));
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
        return Err(SatAnswerError::ExitCodeContradicts(exit_code.unwrap_or(0)));
    }
    Ok(answer)
}

/// Runs `command` once on `cnf`, writing it with `names` and `comments`; an UNSATISFIABLE
/// answer comes with what became of its proof (checked when the command writes a proof), and a
/// proof that fails the check is an error.
pub fn run_once(
    command: &SatCommand,
    cnf: &Cnf,
    names: &[String],
    comments: &[String],
    control: &Control,
) -> Result<Option<(SatAnswer, RefutationCheck)>, OracleError> {
    let answer = run_dimacs(command, &write_dimacs(cnf, names, comments), cnf, control)?;
    Ok(answer.map(|answer| (answer.answer, answer.check)))
}

/// What one run of an external SAT program gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunAnswer {
    /// The answer, its model checked against every clause.
    pub answer: SatAnswer,
    /// What became of the refutation, for an UNSATISFIABLE answer.
    pub check: RefutationCheck,
    /// The DRAT proof the program wrote for an UNSATISFIABLE answer, when it was checked.
    pub proof: Option<Vec<u8>>,
}

/// Runs `command` once on `dimacs`, the DIMACS text of `cnf`; an UNSATISFIABLE answer comes
/// with its proof, checked by puzzlec's DRAT checker against `cnf`, when the command writes
/// one. A proof that fails the check is an error. `None` when `control` stopped the run.
pub fn run_dimacs(
    command: &SatCommand,
    dimacs: &str,
    cnf: &Cnf,
    control: &Control,
) -> Result<Option<RunAnswer>, OracleError> {
    let name = command.name();
    let scratch = ScratchDir::new()?;
    let cnf_path = scratch.file("model.cnf");
    let out_path = scratch.file("result.txt");
    let proof_path = scratch.file("proof.drat");
    std::fs::write(&cnf_path, dimacs)
        .map_err(|e| OracleError::Io(format!("cannot write {}: {e}", cnf_path.display())))?;
    let argv = command.argv(
        &cnf_path.display().to_string(),
        &out_path.display().to_string(),
        &proof_path.display().to_string(),
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
        return Err(OracleError::Failed(format!(
            "{name} failed: {} (stderr: {})",
            describe_status(&status),
            tail(&stderr)
        )));
    }
    let text = if command.uses_result_file() {
        std::fs::read_to_string(&out_path).map_err(|e| {
            OracleError::Io(format!(
                "{name} wrote no result file {} ({e}; stderr: {})",
                out_path.display(),
                tail(&stderr)
            ))
        })?
    } else {
        stdout
    };
    let answer = read_answer(&text, command.uses_result_file(), code, cnf).map_err(|problem| {
        OracleError::BadSatAnswer {
            solver: name.clone(),
            problem,
            output_tail: tail(&text),
        }
    })?;
    let (check, proof) = match &answer {
        SatAnswer::Unsat if command.writes_proof() => {
            // A formula with an empty clause refutes itself, and solvers write no proof
            // of that: its proof is the empty clause alone (still checked below).
            let proof = if cnf.clauses.iter().any(Vec::is_empty) {
                b"0\n".to_vec()
            } else {
                std::fs::read(&proof_path).map_err(|e| {
                    OracleError::Rejected(format!(
                        "{name} answered UNSATISFIABLE but wrote no proof to {} ({e})",
                        proof_path.display()
                    ))
                })?
            };
            // The exact clauses written to the DIMACS file, question included.
            let clauses: Vec<Vec<i32>> = cnf
                .clauses
                .iter()
                .map(|clause| clause.iter().map(|l| l.dimacs() as i32).collect())
                .collect();
            let lemmas = check_refutation(cnf.num_vars, &clauses, &proof).map_err(|error| {
                OracleError::BadProof {
                    solver: name.clone(),
                    error,
                }
            })?;
            (RefutationCheck::Checked { lemmas }, Some(proof))
        }
        _ => (RefutationCheck::NotChecked, None),
    };
    Ok(Some(RunAnswer {
        answer,
        check,
        proof,
    }))
}

/// An external SAT program as a [`SatOracle`]: each call writes the formula, with the
/// assumptions as unit clauses, to a self-contained DIMACS file and runs the program on it.
pub struct ExternalSat<'a> {
    command: &'a SatCommand,
    cnf: Cnf,
    names: &'a [String],
    comments: Vec<String>,
    runs: usize,
    /// What became of the proof of the last UNSATISFIABLE answer.
    last_refutation: RefutationCheck,
}

impl<'a> ExternalSat<'a> {
    /// `command` on `cnf`, whose variables `names` names in the written files; `comments`
    /// head every file.
    pub fn new(
        command: &'a SatCommand,
        cnf: Cnf,
        names: &'a [String],
        comments: Vec<String>,
    ) -> Self {
        ExternalSat {
            command,
            cnf,
            names,
            comments,
            runs: 0,
            last_refutation: RefutationCheck::NotChecked,
        }
    }
}

impl SatOracle for ExternalSat<'_> {
    fn name(&self) -> String {
        self.command.name()
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.cnf.clauses.push(clause.to_vec());
    }

    fn solve(
        &mut self,
        assumptions: &[Lit],
        control: &Control,
    ) -> Result<Option<SatAnswer>, OracleError> {
        self.runs += 1;
        if control.should_stop() {
            return Ok(None);
        }
        let mut cnf = self.cnf.clone();
        cnf.clauses.extend(assumptions.iter().map(|&l| vec![l]));
        let answer = run_once(self.command, &cnf, self.names, &self.comments, control)?;
        Ok(answer.map(|(answer, check)| {
            self.last_refutation = check;
            answer
        }))
    }

    fn calls(&self) -> usize {
        self.runs
    }

    fn kind(&self) -> OracleKind {
        OracleKind::Program
    }

    fn drat_lemmas(&self) -> Option<usize> {
        match self.last_refutation {
            RefutationCheck::NotChecked => None,
            RefutationCheck::Checked { lemmas } => Some(lemmas),
        }
    }

    fn size(&self) -> Size {
        Size::clauses(self.cnf.num_vars, self.cnf.clauses.len())
    }
}

impl<'a> ExternalSat<'a> {
    /// `command` on the CNF of `model` in `encoding`: the same "at least k" questions as
    /// the embedded backend (see [`super::loops::answer_goal`]), each as a self-contained
    /// DIMACS file. Lazy constraints add their cuts as clauses and re-run.
    pub fn for_model(command: &'a SatCommand, encoding: &CnfEncoding, model: &'a Model) -> Self {
        let comments = vec![
            "puzzlec: the model, then the question as unit clauses".to_string(),
            format!("objective counted by {}", encoding.objective_encoding),
        ];
        ExternalSat::new(command, encoding.cnf.clone(), model.names(), comments)
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
        assert_eq!(
            c.argv("in.cnf", "o", "p"),
            vec!["cadical", "-q", "in.cnf", "--no-binary", "p"]
        );
        assert!(!c.uses_result_file());
        let m = SatCommand::parse("/usr/bin/minisat -verb=0").unwrap();
        assert_eq!(
            m.argv("i", "o", "p"),
            vec!["/usr/bin/minisat", "-verb=0", "i", "o"]
        );
        assert_eq!(m.name(), "minisat");
        let t = SatCommand::parse("solver --in={cnf} --model {out}").unwrap();
        assert_eq!(
            t.argv("i", "o", "p"),
            vec!["solver", "--in=i", "--model", "o"]
        );
        // A command naming `{proof}` keeps its own way of asking for it.
        let p = SatCommand::parse("kissat {cnf} {proof} --no-binary").unwrap();
        assert_eq!(
            p.argv("i", "o", "p"),
            vec!["kissat", "i", "p", "--no-binary"]
        );
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
            read_answer(text, file, Some(code), &cnf())
                .unwrap_err()
                .to_string()
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

    #[test]
    fn answer_errors_carry_the_line_and_the_clause() {
        let read = |text: &str| read_answer(text, false, Some(10), &cnf());
        assert_eq!(
            read("s SATISFIABLE\nv 1 -2 -3 0\n"),
            Err(SatAnswerError::FalsifiedClause(2))
        );
        assert_eq!(
            read("s SATISFIABLE\nv 1 x 0\n"),
            Err(SatAnswerError::Syntax(AnswerError::NotALiteral {
                line: 2,
                word: "x".into()
            }))
        );
        assert_eq!(
            read("s SATISFIABLE\nv 1 7 0\n"),
            Err(SatAnswerError::NoSuchVariable {
                literal: 7,
                num_vars: 3
            })
        );
    }
}
