//! An in-memory [`Cnf`] as DIMACS text, with `c var N name` comment lines naming every
//! model variable so that a solver's model can be read back by name. The file format
//! itself, writer and readers, is [`crate::formats::dimacs`].

use super::Cnf;
use crate::formats::dimacs::CnfWriter;
pub use crate::formats::dimacs::{read_names_after, read_var_names, VarNameError};
use crate::formats::lines::WriteError;
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

#[cfg(test)]
mod tests {
    use super::*;
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
