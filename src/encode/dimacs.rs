//! DIMACS files of a formula, with `c var N name` comment lines naming every model variable
//! so that a solver's model can be read back by name: an in-memory [`Cnf`], or a model's CNF
//! written as it is encoded (its header counts the clauses, so it is encoded twice: once
//! into a counting sink, then into the file). The file format itself, writer and readers, is
//! [`crate::formats::dimacs`].

use super::amo::AmoEncoding;
use super::clause_lines::ClauseWriter;
use super::cnf::{at_least_clause, encode_into};
use super::estimate::CountingSink;
use super::{ClauseSink, Cnf};
use crate::base::Control;
use crate::formats::dimacs::CnfWriter;
use crate::formats::lines::WriteError;
use crate::model::Model;
use std::io::Write;

/// Writes `cnf` in DIMACS format to `out`: `comments` first, then one `c var N name` line
/// per named variable (`names[i]` names variable i + 1), then the `p cnf` header and the
/// clauses; `should_stop` can end it part way.
pub fn write_cnf(
    cnf: &Cnf,
    names: &[String],
    comments: &[String],
    out: &mut dyn Write,
    should_stop: &dyn Fn() -> bool,
) -> Result<(), WriteError> {
    let mut writer = CnfWriter::new(out, should_stop);
    writer.comments(comments, names);
    writer.header(cnf.num_vars, cnf.clauses.len());
    for clause in &cnf.clauses {
        if writer.failed() {
            break;
        }
        writer.clause(clause.iter().map(|l| l.dimacs()));
    }
    writer.finish()
}

/// [`write_cnf`] as a `String`, for the callers that hand the text on whole.
pub fn write_dimacs(cnf: &Cnf, names: &[String], comments: &[String]) -> String {
    let mut out = Vec::new();
    write_cnf(cnf, names, comments, &mut out, &|| false).expect("writing to memory never fails");
    String::from_utf8(out).expect("DIMACS text is UTF-8")
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

/// Writes `model` as DIMACS (its CNF with "objective at least k" added, as [`write_cnf`]
/// writes it), `plan` being [`plan_cnf`]'s count of the same.
pub fn write_model(
    model: &Model,
    amo: AmoEncoding,
    at_least: Option<usize>,
    plan: &CnfPlan,
    comments: &[String],
    out: &mut dyn Write,
    control: &Control,
) -> Result<(), WriteError> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::dimacs::read_var_names;
    use crate::model::Lit;

    #[test]
    fn dimacs_text_and_names_round_trip() {
        let cnf = Cnf {
            num_vars: 3,
            clauses: vec![
                vec![Lit::from_dimacs(1), Lit::from_dimacs(-2)],
                vec![Lit::from_dimacs(3)],
                vec![],
            ],
        };
        let names = vec!["q[0,0]".to_string(), "q[1,0]".to_string()];
        let text = write_dimacs(&cnf, &names, &["made by a test".into()]);
        assert_eq!(
            text,
            "c made by a test\nc var 1 q[0,0]\nc var 2 q[1,0]\np cnf 3 3\n1 -2 0\n3 0\n0\n"
        );
        assert_eq!(read_var_names(&text).unwrap(), names);
        let formula = varisat::dimacs::DimacsParser::parse(text.as_bytes()).unwrap();
        assert_eq!(formula.len(), 3);
    }
}
