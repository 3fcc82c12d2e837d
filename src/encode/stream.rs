//! Solver files written from the model line by line as they are encoded, never held whole
//! in memory: the output of `emit` for models whose CNF is far larger than the model
//! itself. The lines are those of the writers in [`crate::formats`], the same writers that
//! write the in-memory [`super::Cnf`], [`super::wcnf::Wcnf`], [`super::opb::Opb`] and
//! [`super::lp::LinearProgram`]; DIMACS, whose header counts the clauses, is encoded twice:
//! once into a counting sink, then into the file. Every writer polls `control` and stops
//! with [`StreamError::Stopped`] when it says so.

use super::amo::AmoEncoding;
use super::clique::CliqueRow;
use super::cnf::{at_least_clause, encode_constraint, encode_into};
use super::estimate::CountingSink;
use super::{lp, lp_file, opb, ClauseSink};
use crate::base::Control;
use crate::formats::dimacs::CnfWriter;
use crate::formats::opb::OpbWriter;
use crate::formats::wcnf::WcnfWriter;
use crate::model::{Constraint, Lit, Model, Var};
use std::io::Write;

/// Why a file was not finished (the writers' own error, see [`crate::formats::lines`]).
pub use crate::formats::lines::WriteError as StreamError;

/// A file writer that clauses of an encoding can go to: DIMACS clauses, or WCNF hard
/// clauses.
trait ClauseLines {
    /// Writes one clause of nonzero DIMACS literals.
    fn clause(&mut self, literals: impl IntoIterator<Item = i64>);
    /// Whether writing failed or was stopped.
    fn failed(&self) -> bool;
}

impl ClauseLines for CnfWriter<'_> {
    fn clause(&mut self, literals: impl IntoIterator<Item = i64>) {
        CnfWriter::clause(self, literals);
    }

    fn failed(&self) -> bool {
        CnfWriter::failed(self)
    }
}

impl ClauseLines for WcnfWriter<'_> {
    fn clause(&mut self, literals: impl IntoIterator<Item = i64>) {
        self.hard(literals);
    }

    fn failed(&self) -> bool {
        WcnfWriter::failed(self)
    }
}

/// A [`ClauseSink`] whose clauses become lines of a file.
struct ClauseWriter<W> {
    lines: W,
    /// Variables so far, model variables first.
    num_vars: usize,
}

impl<W: ClauseLines> ClauseSink for ClauseWriter<W> {
    fn new_var(&mut self) -> Var {
        self.num_vars += 1;
        Var::from_index(self.num_vars - 1)
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.lines.clause(clause.iter().map(|l| l.dimacs()));
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

/// Writes `model` as DIMACS (its CNF with "objective at least k" added, as
/// [`super::dimacs::write_cnf`] writes it), `plan` being [`plan_cnf`]'s count of the same.
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
    let mut lines = CnfWriter::new(out, &should_stop);
    lines.comments(comments, model.names());
    lines.header(plan.num_vars, plan.clauses);
    let mut writer = ClauseWriter {
        lines,
        num_vars: model.num_vars(),
    };
    let (counter, _) = encode_into(&mut writer, model, amo);
    if let Some(clause) = at_least_clause(counter.as_ref(), at_least) {
        writer.add_clause(&clause);
    }
    writer.lines.finish()
}

/// Writes `model` as WCNF (as [`super::wcnf::write_wcnf`] writes
/// [`super::wcnf::Wcnf::from_model`]).
pub fn write_wcnf(
    model: &Model,
    at_least: Option<usize>,
    comments: &[String],
    out: &mut dyn Write,
    control: &Control,
) -> Result<(), StreamError> {
    let should_stop = || control.should_stop();
    let mut lines = WcnfWriter::new(out, &should_stop);
    lines.comments(comments, model.names());
    let mut writer = ClauseWriter {
        lines,
        num_vars: model.num_vars(),
    };
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
    }
    if let Some(objective) = &model.objective {
        for &lit in &objective.lits {
            writer.lines.soft(1, [lit.dimacs()]);
        }
    }
    writer.lines.finish()
}

/// Writes `model` as OPB (as [`super::opb::write_opb`] writes [`opb::Opb::from_model`]).
pub fn write_opb(
    model: &Model,
    at_least: Option<usize>,
    comments: &[String],
    out: &mut dyn Write,
    control: &Control,
) -> Result<(), StreamError> {
    let should_stop = || control.should_stop();
    let mut writer = OpbWriter::new(out, &should_stop);
    let bound_row = match (&model.objective, at_least) {
        (Some(objective), Some(k)) => Some(opb::at_least_row(&objective.lits, k)),
        _ => None,
    };
    let rows = model.constraints.len() + usize::from(bound_row.is_some());
    writer.head(model.num_vars(), rows, comments, model.names());
    let (objective, _) = opb::objective_terms(model);
    writer.objective(&objective);
    for constraint in &model.constraints {
        writer.constraint(&opb::pb_constraint(constraint));
    }
    if let Some(row) = bound_row {
        writer.constraint(&row);
    }
    writer.finish()
}

/// What an LP file states beyond the model's rows, for MILP solvers (see
/// [`write_lp`]).
#[derive(Clone, Debug, Default)]
pub struct LpExtras<'a> {
    /// What becomes of each of the model's constraints ([`super::clique::grow_cliques`]);
    /// empty for all of them as they are.
    pub cliques: &'a [CliqueRow],
    /// Rows that rule out symmetric images of solutions only, each with its name (a
    /// packing's `symmetry_top_bottom`...), written last under a comment that says so.
    pub symmetry: &'a [(&'static str, Constraint)],
}

/// Writes `model` as a CPLEX LP file (as [`lp_file::write_lp`] writes
/// [`lp::LinearProgram::from_model`]), with `extras`: row `c<i>` is the model's
/// constraint i, or the clique grown from it.
pub fn write_lp(
    model: &Model,
    at_least: Option<usize>,
    extras: &LpExtras,
    comments: &[String],
    out: &mut dyn Write,
    control: &Control,
) -> Result<(), StreamError> {
    let should_stop = || control.should_stop();
    let mut writer = lp_file::LpWriter::new(out, &should_stop);
    let names = lp_file::lp_names(model.names());
    let (objective, offset) = lp::objective_terms(model);
    writer.head(&names, model.names(), (&objective, offset), comments);
    for (i, constraint) in model.constraints.iter().enumerate() {
        match extras.cliques.get(i).unwrap_or(&CliqueRow::Kept) {
            CliqueRow::Kept => writer.row(&lp::constraint_row(constraint, i + 1), &names),
            CliqueRow::Grown(columns) => {
                let lits: Vec<Lit> = columns
                    .iter()
                    .map(|&c| Var::from_index(c).positive())
                    .collect();
                let row = lp::constraint_row(&Constraint::AtMostOne(lits), i + 1);
                writer.row(&row, &names);
            }
            CliqueRow::Duplicate(_) => {}
        }
    }
    if let Some(row) = lp::at_least_row(model, at_least) {
        writer.row(&row, &names);
    }
    if !extras.symmetry.is_empty() {
        writer.comment(
            "symmetry breaking, not part of the puzzle: every solution has a symmetric image \
             that meets the rows below",
        );
        for (name, constraint) in extras.symmetry {
            let mut row = lp::constraint_row(constraint, 0);
            row.name = name.to_string();
            writer.row(&row, &names);
        }
    }
    writer.tail(&names);
    writer.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::cnf::encode;
    use crate::encode::lp::LinearProgram;
    use crate::encode::{dimacs, wcnf};
    use crate::formats::{self, dimacs::CnfDialect};
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

    /// The file written from the model equals the in-memory CNF, WCNF, OPB and LP program
    /// of the same model written through the same `formats` writer, and the text of the
    /// in-memory ones reads back to them.
    #[test]
    fn streamed_files_equal_the_in_memory_ones() {
        let model = sample();
        let control = Control::unlimited();
        let comments = vec!["a comment".to_string()];
        let never = || false;
        for at_least in [None, Some(0), Some(2), Some(5)] {
            let encoding = encode(&model, AmoEncoding::Auto);
            let plan = plan_cnf(&model, AmoEncoding::Auto, at_least);
            assert_eq!(plan.objective_encoding, encoding.objective_encoding);
            let cnf = encoding.cnf_with_at_least(at_least);
            let expected =
                text(|out| dimacs::write_cnf(&cnf, model.names(), &comments, out, &never));
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
            let read = formats::dimacs::read_cnf(&expected, CnfDialect::Emitted).unwrap();
            assert_eq!(read.num_vars, cnf.num_vars);
            assert_eq!(read.clauses.len(), cnf.clauses.len());
            let in_memory = wcnf::Wcnf::from_model(&model, at_least);
            let expected =
                text(|out| wcnf::write_wcnf(&in_memory, model.names(), &comments, out, &never));
            let streamed = text(|out| write_wcnf(&model, at_least, &comments, out, &control));
            assert_eq!(streamed, expected, "wcnf, at least {at_least:?}");
            assert_eq!(wcnf::read_wcnf(&expected).unwrap().hard, in_memory.hard);
            let (problem, _) = opb::Opb::from_model(&model, at_least);
            let expected =
                text(|out| opb::write_opb(&problem, model.names(), &comments, out, &never));
            let streamed = text(|out| write_opb(&model, at_least, &comments, out, &control));
            assert_eq!(streamed, expected, "opb, at least {at_least:?}");
            assert_eq!(opb::read_opb(&expected).unwrap(), problem);
            let program = LinearProgram::from_model(&model, at_least);
            let expected = text(|out| lp_file::write_lp(&program, &comments, out, &never));
            let streamed = text(|out| {
                write_lp(
                    &model,
                    at_least,
                    &LpExtras::default(),
                    &comments,
                    out,
                    &control,
                )
            });
            assert_eq!(streamed, expected, "lp, at least {at_least:?}");
            assert_eq!(
                lp_file::read_lp(&expected).unwrap().rows.len(),
                program.rows.len()
            );
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
        let result = write_lp(&model, None, &LpExtras::default(), &[], &mut out, &control);
        assert!(matches!(result, Err(StreamError::Stopped)), "{result:?}");
    }
}
