//! OPB for pseudo-Boolean solvers (the PB Competition format): a `* #variable= N
//! #constraint= M` header, `*` comments and `* var N name` lines, the objective as a
//! `min:` line and every constraint as one linear `>=` or `=` row over variables
//! `x1..xN`.

use super::dimacs::push_comments;
use super::lines::{LineWriter, WriteError};
use super::ReadError;
use std::fmt::Write as _;
use std::io::Write;

/// One linear constraint `sum(coefficient * x) >= rhs` (or `= rhs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PbConstraint {
    /// (coefficient, 0-based variable) pairs.
    pub terms: Vec<(i64, usize)>,
    /// `=` rather than `>=`.
    pub equal: bool,
    /// The right-hand side.
    pub rhs: i64,
}

/// A pseudo-Boolean problem over the model's variables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opb {
    /// Number of variables.
    pub num_vars: usize,
    /// The objective's (coefficient, variable) terms, minimised; empty for none.
    pub objective: Vec<(i64, usize)>,
    /// The constraints.
    pub constraints: Vec<PbConstraint>,
}

impl Opb {
    /// The objective's value (without constant) under `values`, or `None` when a
    /// constraint fails.
    pub fn evaluate(&self, values: &[bool]) -> Option<i64> {
        let sum = |terms: &[(i64, usize)]| -> i64 {
            terms
                .iter()
                .filter(|&&(_, v)| values[v])
                .map(|&(c, _)| c)
                .sum()
        };
        let feasible = self.constraints.iter().all(|c| {
            let lhs = sum(&c.terms);
            if c.equal {
                lhs == c.rhs
            } else {
                lhs >= c.rhs
            }
        });
        feasible.then(|| sum(&self.objective))
    }
}

/// `coefficient xN` terms, each followed by a space.
fn push_terms(line: &mut String, terms: &[(i64, usize)]) {
    for &(coefficient, var) in terms {
        let _ = write!(line, "{coefficient:+} x{} ", var + 1);
    }
}

/// Writes an OPB file in order: [`OpbWriter::head`], the objective, then the constraints.
pub struct OpbWriter<'a> {
    lines: LineWriter<'a>,
}

impl<'a> OpbWriter<'a> {
    /// A writer into `out`; `should_stop` says when to give up (see [`LineWriter`]).
    pub fn new(out: &'a mut dyn Write, should_stop: &'a dyn Fn() -> bool) -> OpbWriter<'a> {
        OpbWriter {
            lines: LineWriter::new(out, should_stop),
        }
    }

    /// The header line, the `*` comment lines, then one `* var N name` line per name.
    pub fn head(
        &mut self,
        num_vars: usize,
        num_constraints: usize,
        comments: &[String],
        names: &[String],
    ) {
        self.lines.emit(|line| {
            let _ = writeln!(
                line,
                "* #variable= {num_vars} #constraint= {num_constraints}"
            );
            push_comments(line, "*", comments, names);
        });
    }

    /// The `min:` line (written only when `terms` has any).
    pub fn objective(&mut self, terms: &[(i64, usize)]) {
        if terms.is_empty() {
            return;
        }
        self.lines.emit(|line| {
            line.push_str("min: ");
            push_terms(line, terms);
            line.push_str(";\n");
        });
    }

    /// One constraint's line.
    pub fn constraint(&mut self, constraint: &PbConstraint) {
        self.lines.emit(|line| {
            push_terms(line, &constraint.terms);
            let comparison = if constraint.equal { "=" } else { ">=" };
            let _ = writeln!(line, "{comparison} {} ;", constraint.rhs);
        });
    }

    /// The result: an error, a stop, or done and flushed.
    pub fn finish(self) -> Result<(), WriteError> {
        self.lines.finish()
    }
}

/// Writes `opb` whole: the header, `comments`, the `* var` lines naming its variables
/// (`names[i]` names `x(i+1)`), the objective and the constraints.
pub fn write_opb(
    opb: &Opb,
    names: &[String],
    comments: &[String],
    out: &mut dyn Write,
    should_stop: &dyn Fn() -> bool,
) -> Result<(), WriteError> {
    let mut writer = OpbWriter::new(out, should_stop);
    writer.head(opb.num_vars, opb.constraints.len(), comments, names);
    writer.objective(&opb.objective);
    for constraint in &opb.constraints {
        writer.constraint(constraint);
    }
    writer.finish()
}

/// Reads a linear OPB file with `xN` variables (as [`OpbWriter`] writes); the header must
/// match what follows. Errors name the line.
pub fn read_opb(text: &str) -> Result<Opb, ReadError> {
    let mut opb = Opb::default();
    let mut declared: Option<(usize, usize)> = None;
    for (index, line) in text.lines().enumerate() {
        let error = |message: String| ReadError::Line {
            line: index + 1,
            message,
        };
        let line = line.trim();
        if let Some(comment) = line.strip_prefix('*') {
            if index == 0 {
                let words: Vec<&str> = comment.split_whitespace().collect();
                if let ["#variable=", v, "#constraint=", c, ..] = words[..] {
                    let parse = |s: &str| {
                        s.parse::<usize>()
                            .map_err(|_| error(format!("bad count {s:?}")))
                    };
                    declared = Some((parse(v)?, parse(c)?));
                }
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let body = line
            .strip_suffix(';')
            .ok_or_else(|| error("a constraint must end with `;`".into()))?;
        let (is_objective, body) = match body.trim_start().strip_prefix("min:") {
            Some(rest) => (true, rest),
            None => (false, body),
        };
        let words: Vec<&str> = body.split_whitespace().collect();
        let mut terms = Vec::new();
        let mut i = 0;
        let mut comparison = None;
        while i < words.len() {
            match words[i] {
                ">=" | "=" if !is_objective => {
                    let rhs = words
                        .get(i + 1)
                        .and_then(|w| w.parse::<i64>().ok())
                        .ok_or_else(|| error("expected a number after the comparison".into()))?;
                    if i + 2 != words.len() {
                        return Err(error("text after the right-hand side".into()));
                    }
                    comparison = Some((words[i] == "=", rhs));
                    break;
                }
                word => {
                    let coefficient: i64 = word
                        .parse()
                        .map_err(|_| error(format!("expected a coefficient, found {word:?}")))?;
                    let var = words
                        .get(i + 1)
                        .and_then(|w| w.strip_prefix('x'))
                        .and_then(|n| n.parse::<usize>().ok())
                        .filter(|&n| n >= 1)
                        .ok_or_else(|| error("expected a variable `xN`".into()))?;
                    opb.num_vars = opb.num_vars.max(var);
                    terms.push((coefficient, var - 1));
                    i += 2;
                }
            }
        }
        if is_objective {
            opb.objective = terms;
        } else {
            let (equal, rhs) = comparison.ok_or_else(|| error("no `>=` or `=`".into()))?;
            opb.constraints.push(PbConstraint { terms, equal, rhs });
        }
    }
    let (vars, constraints) = declared.ok_or(ReadError::File(
        "the first line is not a `* #variable= N #constraint= M` header".into(),
    ))?;
    if constraints != opb.constraints.len() || vars < opb.num_vars {
        return Err(ReadError::File(format!(
            "the header declares {vars} variables and {constraints} constraints, the file has {} and {}",
            opb.num_vars,
            opb.constraints.len()
        )));
    }
    opb.num_vars = vars;
    Ok(opb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_then_read_gives_the_same_problem() {
        let opb = Opb {
            num_vars: 2,
            objective: vec![(-1, 0), (1, 1)],
            constraints: vec![
                PbConstraint {
                    terms: vec![(1, 0), (-1, 1)],
                    equal: false,
                    rhs: 0,
                },
                PbConstraint {
                    terms: vec![(1, 0), (1, 1)],
                    equal: true,
                    rhs: 1,
                },
            ],
        };
        let mut out = Vec::new();
        write_opb(&opb, &["a".into(), "b".into()], &[], &mut out, &|| false).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "* #variable= 2 #constraint= 2\n* var 1 a\n* var 2 b\nmin: -1 x1 +1 x2 ;\n\
             +1 x1 -1 x2 >= 0 ;\n+1 x1 +1 x2 = 1 ;\n"
        );
        assert_eq!(read_opb(&text).unwrap(), opb);
        assert_eq!(opb.evaluate(&[true, false]), Some(-1));
        assert_eq!(opb.evaluate(&[true, true]), None);
    }

    #[test]
    fn reader_errors_name_the_line() {
        assert_eq!(
            read_opb("* #variable= 1 #constraint= 1\n+1 x1 >= 1\n")
                .unwrap_err()
                .to_string(),
            "line 2: a constraint must end with `;`"
        );
        assert!(read_opb("+1 x1 >= 1 ;\n")
            .unwrap_err()
            .to_string()
            .contains("header"));
        assert!(read_opb("* #variable= 1 #constraint= 2\n+1 x1 >= 1 ;\n")
            .unwrap_err()
            .to_string()
            .contains("declares"));
    }
}
