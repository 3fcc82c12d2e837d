//! Reading the two files `decode` is given: the emitted file (its variable names and what
//! an answer must satisfy), in the grammar [`EmittedKind::detect`] tells, and the answer
//! (the solver's claim and its values), in the grammar [`AnswerKind::detect`] tells. Each
//! is read through its format's reader in `formats`.

use super::errors::{AnswerError, CnfError, DecodeError, EmittedError, Unreadable};
use crate::base::Size;
use crate::driver::emit::Format;
use crate::encode::{wcnf, Cnf};
use crate::formats::dimacs::{self as dimacs_file, read_names_after, read_var_names, CnfDialect};
use crate::formats::linear::LinearProgram;
use crate::formats::lp::{original_names, read_lp};
use crate::formats::milp_solution::{
    read_cbc_solution, read_glpk_solution, read_highs_solution, SolutionError,
};
use crate::formats::minizinc::{self as mzn, MznStatus};
use crate::formats::opb::{read_opb, OpbFile};
use crate::formats::sat_answer::{
    AnswerError as SatAnswerError, AnswerItem, AnswerReader, AnswerStatus, AnswerSyntax,
};
use crate::formats::sniff::{AnswerKind, EmittedKind};
use crate::model::Lit;
use std::collections::HashMap;

/// What the solver said about its answer.
pub(super) enum Claim {
    /// A solution; `optimal` when the solver says it is the best.
    Solution { optimal: bool },
    /// No solution exists (the solver's word), as the answer puts it.
    None(String),
    /// The solver stopped without deciding, as the answer puts it.
    Unknown(String),
}

/// The values an answer gives.
pub(super) enum Values {
    /// By variable number (from 1).
    Numbers(HashMap<usize, bool>),
    /// By LP column name; `absent_is_zero` for files that list only non-zero columns (CBC).
    Names {
        values: HashMap<String, f64>,
        absent_is_zero: bool,
    },
}

/// The file the answer answers: its variable names and what an answer must satisfy.
pub(super) struct Emitted {
    /// The file's name, for messages.
    pub(super) name: String,
    /// Whether its clauses or rows are checked (the file was given, not regenerated).
    pub(super) checked: bool,
    /// The model variable named by each variable number (from 1) or LP column, in order.
    pub(super) names: Vec<String>,
    /// LP files: each column's LP name, in the order of `names` (MiniZinc and FlatZinc
    /// files: each variable's identifier).
    pub(super) lp_names: Vec<String>,
    /// MiniZinc and FlatZinc files: the array entries as FlatZinc solvers print them
    /// (`q[0,1]`), each with its variable (`None`: no model variable, always 0).
    pub(super) aliases: HashMap<String, Option<usize>>,
    /// What an answer must satisfy.
    pub(super) body: Body,
}

/// What an answer must satisfy: the emitted file's clauses or rows.
pub(super) enum Body {
    Cnf(Cnf),
    Wcnf(wcnf::Wcnf),
    Opb(OpbFile),
    Lp(LinearProgram),
    /// A MiniZinc or FlatZinc file's constraints, as rows over its variables.
    Mzn(LinearProgram, Format),
}

impl Emitted {
    /// The file's size (variables and clauses or rows).
    pub(super) fn size(&self) -> Size {
        match &self.body {
            Body::Cnf(cnf) => Size::clauses(cnf.num_vars, cnf.clauses.len()),
            Body::Wcnf(w) => Size::clauses(w.num_vars, w.hard.len() + w.soft.len()),
            Body::Opb(o) => Size {
                variables: o.declared_variables,
                constraints: o.constraints.len(),
                unit: "rows",
            },
            Body::Lp(p) | Body::Mzn(p, _) => Size {
                variables: p.columns.len(),
                constraints: p.rows.len(),
                unit: "rows",
            },
        }
    }

    /// The file's format.
    pub(super) fn format(&self) -> Format {
        match self.body {
            Body::Cnf(_) => Format::Dimacs,
            Body::Wcnf(_) => Format::Wcnf,
            Body::Opb(_) => Format::Opb,
            Body::Lp(_) => Format::Lp,
            Body::Mzn(_, format) => format,
        }
    }

    /// What a variable of the file is called in messages: "column" in LP files.
    pub(super) fn noun(&self) -> &'static str {
        match self.body {
            Body::Lp(_) => "column",
            _ => "variable",
        }
    }
}

/// Reads the emitted file: its names and its body.
pub(super) fn read_emitted(name: &str, text: &str, checked: bool) -> Result<Emitted, DecodeError> {
    let unreadable = |problem: EmittedError| Unreadable::Emitted {
        file: name.to_string(),
        problem,
    };
    let Some(kind) = EmittedKind::detect(text) else {
        return Err(unreadable(EmittedError::NotEmitted).into());
    };
    let mut aliases = HashMap::new();
    let (names, lp_names, body) = match kind {
        EmittedKind::MiniZinc => {
            let file = mzn::read_file(text).map_err(|e| unreadable(EmittedError::Mzn(e)))?;
            aliases = file.aliases;
            let format = match file.dialect {
                mzn::Dialect::MiniZinc => Format::Mzn,
                mzn::Dialect::FlatZinc => Format::Fzn,
            };
            (file.names, file.idents, Body::Mzn(file.program, format))
        }
        EmittedKind::Opb => {
            let names = read_names_after(text, "* var").map_err(|e| unreadable(e.into()))?;
            let file = read_opb(text.as_bytes()).map_err(|e| unreadable(EmittedError::Opb(e)))?;
            let opb = file.by_number().map_err(|e| unreadable(e.into()))?;
            (names, Vec::new(), Body::Opb(opb))
        }
        EmittedKind::Lp => {
            let program = read_lp(text).map_err(|e| unreadable(e.into()))?;
            let names = original_names(text, &program.columns);
            (names, program.columns.clone(), Body::Lp(program))
        }
        EmittedKind::Dimacs => {
            let names = read_var_names(text).map_err(|e| unreadable(e.into()))?;
            (
                names,
                Vec::new(),
                Body::Cnf(read_cnf(text).map_err(|e| unreadable(e.into()))?),
            )
        }
        EmittedKind::Wcnf => {
            let names = read_var_names(text).map_err(|e| unreadable(e.into()))?;
            let formula = wcnf::read_wcnf(text).map_err(|e| unreadable(EmittedError::Wcnf(e)))?;
            (names, Vec::new(), Body::Wcnf(formula))
        }
    };
    Ok(Emitted {
        name: name.to_string(),
        checked,
        names,
        lp_names,
        aliases,
        body,
    })
}

/// A DIMACS CNF: the `p cnf` header and the clauses; errors name the line.
fn read_cnf(text: &str) -> Result<Cnf, CnfError> {
    let file = dimacs_file::read_cnf(text, CnfDialect::Emitted).map_err(CnfError)?;
    Ok(Cnf {
        num_vars: file.num_vars,
        clauses: file
            .clauses
            .into_iter()
            .map(|clause| {
                clause
                    .into_iter()
                    .map(|l| Lit::from_dimacs(i64::from(l)))
                    .collect()
            })
            .collect(),
    })
}

/// Reads the answer's claim and values.
pub(super) fn read_answer(
    kind: AnswerKind,
    text: &str,
    emitted: &Emitted,
) -> Result<(Claim, Values), AnswerError> {
    let lp = |parsed: Result<(Option<bool>, HashMap<String, f64>), SolutionError>,
              absent_is_zero| {
        let (found, values) = parsed?;
        let claim = match found {
            Some(optimal) => Claim::Solution { optimal },
            None => Claim::None("infeasible".into()),
        };
        Ok((
            claim,
            Values::Names {
                values,
                absent_is_zero,
            },
        ))
    };
    match kind {
        AnswerKind::Cbc => {
            let first = text.lines().next().unwrap_or("").trim();
            if first.starts_with("Stopped") && !first.contains("objective value") {
                return Ok((
                    Claim::Unknown(first.to_string()),
                    Values::Numbers(HashMap::new()),
                ));
            }
            // CBC lists only the columns that are not zero.
            lp(read_cbc_solution(text), true)
        }
        AnswerKind::Glpk => lp(read_glpk_solution(text, &emitted.lp_names), false),
        AnswerKind::Highs => lp(read_highs_solution(text), false),
        AnswerKind::MiniZinc => Ok(match mzn::read_answer(text)? {
            MznStatus::Solution { values, complete } => (
                Claim::Solution { optimal: complete },
                Values::Names {
                    // Read as numbers (`true` is 1); anything else is not 0 or 1.
                    values: values
                        .into_iter()
                        .map(|(name, value)| {
                            let number = match mzn::zero_one(&value) {
                                Some(bit) => f64::from(u8::from(bit)),
                                None => value.parse().unwrap_or(f64::NAN),
                            };
                            (name, number)
                        })
                        .collect(),
                    absent_is_zero: false,
                },
            ),
            MznStatus::Unsatisfiable => (
                Claim::None("=====UNSATISFIABLE=====".into()),
                Values::Numbers(HashMap::new()),
            ),
            MznStatus::Unknown(words) => (Claim::Unknown(words), Values::Numbers(HashMap::new())),
        }),
        AnswerKind::MiniSat => read_literal_lines(text, true),
        _ => read_literal_lines(text, false),
    }
}

/// Reads `s`/`v` answers (SAT, MaxSAT, PB) or MiniSat's result file (`result_file`).
pub(super) fn read_literal_lines(
    text: &str,
    result_file: bool,
) -> Result<(Claim, Values), AnswerError> {
    let syntax = AnswerSyntax {
        result_file,
        lenient: true,
    };
    let mut claim: Option<Claim> = None;
    let mut values: HashMap<usize, bool> = HashMap::new();
    for item in AnswerReader::new(text, syntax) {
        let (line, item) = item.map_err(|error| match error {
            SatAnswerError::NotALiteral { line, word } => AnswerError::NotALiteral { line, word },
            SatAnswerError::AfterClosingZero { line } => AnswerError::AfterClosingZero { line },
            SatAnswerError::NotAnswerLine { .. } => {
                unreachable!("only a witness file refuses a line")
            }
        })?;
        match item {
            AnswerItem::Status(status) => {
                let status = match status {
                    AnswerStatus::Satisfiable => Claim::Solution { optimal: false },
                    AnswerStatus::OptimumFound => Claim::Solution { optimal: true },
                    AnswerStatus::Unsatisfiable if result_file => Claim::None("UNSAT".into()),
                    AnswerStatus::Unsatisfiable => Claim::None("s UNSATISFIABLE".into()),
                    AnswerStatus::Other(words) if result_file => Claim::Unknown(words),
                    AnswerStatus::Other(words) => Claim::Unknown(format!("s {words}")),
                };
                if claim.replace(status).is_some() {
                    return Err(AnswerError::SecondStatus { line });
                }
            }
            AnswerItem::Literal { var, value } => {
                if values.insert(var, value) == Some(!value) {
                    return Err(AnswerError::BothValues { line, var });
                }
            }
        }
    }
    let claim = claim.ok_or(AnswerError::NoStatus { result_file })?;
    Ok((claim, Values::Numbers(values)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::decode::errors::{at_line, Unreadable};

    #[test]
    fn literal_lines_of_every_form_read_the_same() {
        let read = |text: &str, file: bool| match read_literal_lines(text, file).unwrap().1 {
            Values::Numbers(v) => {
                let mut v: Vec<(usize, bool)> = v.into_iter().collect();
                v.sort();
                v
            }
            Values::Names { .. } => unreachable!(),
        };
        let expected = vec![(1, true), (2, false), (3, true)];
        assert_eq!(read("s SATISFIABLE\nv 1 -2\nv 3 0\n", false), expected);
        assert_eq!(read("SAT\n1 -2 3 0\n", true), expected);
        assert_eq!(read("s OPTIMUM FOUND\nv 101\n", false), expected);
        assert_eq!(read("s OPTIMUM FOUND\nv x1 -x2 x3\n", false), expected);
        // As the message puts it after the answer's name, less the first colon.
        let error =
            |text: &str| at_line(&read_literal_lines(text, false).err().unwrap())[1..].to_string();
        assert_eq!(
            error("s SATISFIABLE\nv 1 -1 0\n"),
            "2: variable 1 is given both values"
        );
        assert_eq!(
            error("s SATISFIABLE\nv 1 0\nv 2\n"),
            "3: values after the closing 0"
        );
        assert_eq!(
            error("s SATISFIABLE\nv 1 y 0\n"),
            "2: \"y\" is not a literal"
        );
    }

    #[test]
    fn answer_errors_follow_the_file_name_with_their_line() {
        let both = read_literal_lines("s SATISFIABLE\nv 1 -1 0\n", false)
            .err()
            .unwrap();
        assert_eq!(both, AnswerError::BothValues { line: 2, var: 1 });
        let status = AnswerError::NoStatus { result_file: true };
        assert_eq!(status.line(), None);
        let unreadable = Unreadable::Answer {
            answer: "a.txt".into(),
            problem: status,
        };
        assert_eq!(unreadable.to_string(), "a.txt: no status line (`SAT`)");
        let unreadable = Unreadable::Answer {
            answer: "a.txt".into(),
            problem: both,
        };
        assert_eq!(
            unreadable.to_string(),
            "a.txt:2: variable 1 is given both values"
        );
    }
}
