//! Solver files written line by line as they are encoded, never held whole in memory: the
//! output of `emit` for models whose CNF is far larger than the model itself. Each writer
//! gives exactly the text of its in-memory counterpart ([`super::dimacs::write_dimacs`],
//! [`super::wcnf::write_wcnf`], [`super::opb::write_opb`], [`super::lp_file::write_lp`]);
//! DIMACS, whose header counts the clauses, is encoded twice: once into a counting sink,
//! then into the file. Every writer polls `control` and stops with [`StreamError::Stopped`]
//! when it says so.

use super::amo::AmoEncoding;
use super::cnf::{at_least_clause, encode_constraint, encode_into};
use super::estimate::CountingSink;
use super::{dimacs, lp, lp_file, opb, wcnf, ClauseSink};
use crate::base::Control;
use crate::formats;
use crate::model::{Constraint, Lit, Model, Var};
use std::io::Write;

/// Why a file was not finished (the writers' own error, see [`crate::formats::lines`]).
pub use crate::formats::lines::WriteError as StreamError;

/// A [`formats::lines::LineWriter`] polling `control`, and a [`ClauseSink`] whose clauses
/// become lines.
struct LineWriter<'a> {
    lines: formats::lines::LineWriter<'a>,
    /// Variables so far (as a clause sink); the prefix of clause lines (`h` in WCNF).
    num_vars: usize,
    clause_prefix: Option<&'static str>,
}

impl<'a> LineWriter<'a> {
    fn new(out: &'a mut dyn Write, should_stop: &'a dyn Fn() -> bool) -> LineWriter<'a> {
        LineWriter {
            lines: formats::lines::LineWriter::new(out, should_stop),
            num_vars: 0,
            clause_prefix: None,
        }
    }

    /// Writes the text `fill` puts into the line buffer.
    fn emit(&mut self, fill: impl FnOnce(&mut String)) {
        self.lines.emit(fill);
    }

    /// The result: an error, a stop, or done.
    fn finish(self) -> Result<(), StreamError> {
        self.lines.finish()
    }
}

impl ClauseSink for LineWriter<'_> {
    fn new_var(&mut self) -> Var {
        self.num_vars += 1;
        Var::from_index(self.num_vars - 1)
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        match self.clause_prefix {
            None => self.emit(|line| dimacs::write_clause(line, clause)),
            Some(prefix) => self.emit(|line| wcnf::write_clause(line, prefix, clause)),
        }
    }

    fn stopped(&self) -> bool {
        self.lines.failed()
    }
}

/// What the counting pass learns of a model's CNF before it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CnfPlan {
    /// Variables of the whole formula.
    pub num_vars: usize,
    /// Clauses of the whole formula (the bound's unit clause included).
    pub clauses: usize,
    /// How the objective is counted, in words (as [`super::cnf::CnfEncoding`] says).
    pub objective_encoding: String,
}

/// Counts the CNF of `model` (with "objective at least k" when `at_least` is given)
/// without storing it.
pub fn plan_cnf(model: &Model, amo: AmoEncoding, at_least: Option<usize>) -> CnfPlan {
    let mut sink = CountingSink::with_vars(model.num_vars() as u64);
    let (counter, objective_encoding) = encode_into(&mut sink, model, amo);
    let bound = at_least_clause(counter.as_ref(), at_least);
    CnfPlan {
        num_vars: sink.variables as usize,
        clauses: sink.clauses as usize + usize::from(bound.is_some()),
        objective_encoding,
    }
}

/// Writes `model` as DIMACS (as [`dimacs::write_dimacs`] would write its CNF with
/// "objective at least k" added), `plan` being [`plan_cnf`]'s count of the same.
pub fn write_dimacs(
    model: &Model,
    amo: AmoEncoding,
    at_least: Option<usize>,
    plan: &CnfPlan,
    comments: &[String],
    out: &mut dyn Write,
    control: &Control,
) -> Result<(), StreamError> {
    let should_stop = || control.should_stop();
    let mut writer = LineWriter::new(out, &should_stop);
    writer.emit(|line| dimacs::write_comments(line, model.names(), comments, "c"));
    writer.emit(|line| line.push_str(&format!("p cnf {} {}\n", plan.num_vars, plan.clauses)));
    writer.num_vars = model.num_vars();
    let (counter, _) = encode_into(&mut writer, model, amo);
    if let Some(clause) = at_least_clause(counter.as_ref(), at_least) {
        writer.add_clause(&clause);
    }
    writer.finish()
}

/// Writes `model` as WCNF (as [`wcnf::write_wcnf`] would write
/// [`wcnf::Wcnf::from_model`]).
pub fn write_wcnf(
    model: &Model,
    at_least: Option<usize>,
    comments: &[String],
    out: &mut dyn Write,
    control: &Control,
) -> Result<(), StreamError> {
    let should_stop = || control.should_stop();
    let mut writer = LineWriter::new(out, &should_stop);
    writer.emit(|line| dimacs::write_comments(line, model.names(), comments, "c"));
    writer.num_vars = model.num_vars();
    writer.clause_prefix = Some("h");
    for constraint in &model.constraints {
        if writer.stopped() {
            break;
        }
        encode_constraint(&mut writer, constraint, AmoEncoding::Auto);
    }
    if let Some(objective) = &model.objective {
        if let Some(k) = at_least {
            let bound = Constraint::AtLeast(objective.lits.clone(), k);
            encode_constraint(&mut writer, &bound, AmoEncoding::Auto);
        }
        for &lit in &objective.lits {
            writer.emit(|line| wcnf::write_clause(line, "1", &[lit]));
        }
    }
    writer.finish()
}

/// Writes `model` as OPB (as [`opb::write_opb`] would write [`opb::Opb::from_model`]).
pub fn write_opb(
    model: &Model,
    at_least: Option<usize>,
    comments: &[String],
    out: &mut dyn Write,
    control: &Control,
) -> Result<(), StreamError> {
    let should_stop = || control.should_stop();
    let mut writer = LineWriter::new(out, &should_stop);
    let bound_row = match (&model.objective, at_least) {
        (Some(objective), Some(k)) => Some(opb::at_least_row(&objective.lits, k)),
        _ => None,
    };
    let rows = model.constraints.len() + usize::from(bound_row.is_some());
    writer.emit(|line| {
        line.push_str(&format!(
            "* #variable= {} #constraint= {rows}\n",
            model.num_vars()
        ));
        dimacs::write_comments(line, model.names(), comments, "*");
    });
    let (objective, _) = opb::objective_terms(model);
    if !objective.is_empty() {
        writer.emit(|line| opb::write_objective_line(line, &objective));
    }
    for constraint in &model.constraints {
        writer.emit(|line| opb::write_constraint_line(line, &opb::pb_constraint(constraint)));
    }
    if let Some(row) = bound_row {
        writer.emit(|line| opb::write_constraint_line(line, &row));
    }
    writer.finish()
}

/// Writes `model` as a CPLEX LP file (as [`lp_file::write_lp`] would write
/// [`lp::LinearProgram::from_model`]).
pub fn write_lp(
    model: &Model,
    at_least: Option<usize>,
    comments: &[String],
    out: &mut dyn Write,
    control: &Control,
) -> Result<(), StreamError> {
    let should_stop = || control.should_stop();
    let mut writer = LineWriter::new(out, &should_stop);
    let names = lp_file::lp_names(model.names());
    let (objective, offset) = lp::objective_terms(model);
    writer.emit(|line| {
        lp_file::write_lp_head(line, &names, model.names(), (&objective, offset), comments)
    });
    for (i, constraint) in model.constraints.iter().enumerate() {
        writer
            .emit(|line| lp_file::write_row(line, &lp::constraint_row(constraint, i + 1), &names));
    }
    if let Some(row) = lp::at_least_row(model, at_least) {
        writer.emit(|line| lp_file::write_row(line, &row, &names));
    }
    writer.emit(|line| lp_file::write_lp_tail(line, &names));
    writer.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::cnf::encode;
    use crate::encode::lp::LinearProgram;
    use crate::model::{Model, Objective};

    /// A model with every kind of constraint, negated literals and a grouped objective.
    fn sample() -> Model {
        let mut m = Model::new();
        let l: Vec<Lit> = (0..20)
            .map(|i| m.new_var(format!("x[{i}]")).positive())
            .collect();
        m.add(Constraint::Clause(vec![l[0], !l[1], l[2]]));
        m.add(Constraint::AtMostOne(l[..18].to_vec()));
        m.add(Constraint::AtMostOne(l[3..6].to_vec()));
        m.add(Constraint::ExactlyOne(vec![l[6], !l[7], l[8]]));
        m.add(Constraint::AtLeast(l[9..14].to_vec(), 2));
        m.add(Constraint::AtMost(l[10..16].to_vec(), 3));
        m.add(Constraint::AtLeastAsMany {
            first: l[..4].to_vec(),
            second: vec![l[4], !l[5], l[16]],
        });
        m.objective = Some(Objective {
            lits: vec![l[3], l[4], l[5], !l[19]],
            amo_groups: Some(vec![vec![0, 1, 2], vec![3]]),
        });
        m
    }

    fn text(write: impl FnOnce(&mut dyn Write) -> Result<(), StreamError>) -> String {
        let mut out = Vec::new();
        write(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn streamed_files_equal_the_in_memory_ones() {
        let model = sample();
        let control = Control::unlimited();
        let comments = vec!["a comment".to_string()];
        for at_least in [None, Some(0), Some(2), Some(5)] {
            let encoding = encode(&model, AmoEncoding::Auto);
            let plan = plan_cnf(&model, AmoEncoding::Auto, at_least);
            assert_eq!(plan.objective_encoding, encoding.objective_encoding);
            let expected = dimacs::write_dimacs(
                &encoding.cnf_with_at_least(at_least),
                model.names(),
                &comments,
            );
            let streamed = text(|out| {
                write_dimacs(
                    &model,
                    AmoEncoding::Auto,
                    at_least,
                    &plan,
                    &comments,
                    out,
                    &control,
                )
            });
            assert_eq!(streamed, expected, "dimacs, at least {at_least:?}");
            let expected = wcnf::write_wcnf(
                &wcnf::Wcnf::from_model(&model, at_least),
                model.names(),
                &comments,
            );
            let streamed = text(|out| write_wcnf(&model, at_least, &comments, out, &control));
            assert_eq!(streamed, expected, "wcnf, at least {at_least:?}");
            let (problem, _) = opb::Opb::from_model(&model, at_least);
            let expected = opb::write_opb(&problem, model.names(), &comments);
            let streamed = text(|out| write_opb(&model, at_least, &comments, out, &control));
            assert_eq!(streamed, expected, "opb, at least {at_least:?}");
            let expected =
                lp_file::write_lp(&LinearProgram::from_model(&model, at_least), &comments);
            let streamed = text(|out| write_lp(&model, at_least, &comments, out, &control));
            assert_eq!(streamed, expected, "lp, at least {at_least:?}");
        }
    }

    #[test]
    fn a_stopped_control_stops_the_writer() {
        let model = sample();
        let control = Control::unlimited();
        control
            .stop_flag()
            .store(true, std::sync::atomic::Ordering::SeqCst);
        let mut out = Vec::new();
        let result = write_lp(&model, None, &[], &mut out, &control);
        assert!(matches!(result, Err(StreamError::Stopped)), "{result:?}");
    }
}
