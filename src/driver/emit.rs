//! Files for external solvers: DIMACS CNF, WCNF (MaxSAT), OPB (pseudo-Boolean) and CPLEX
//! LP, each headed by comments that say what the file is and name every variable.

use crate::encode::{amo::AmoEncoding, cnf as encode, dimacs, opb, wcnf};
use crate::encode::{lp::LinearProgram, lp_file};
use crate::puzzle::Puzzle;

/// The formats `emit` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// DIMACS CNF, with `c var N name` lines.
    Dimacs,
    /// CPLEX LP, with readable column names.
    Lp,
    /// WCNF for MaxSAT solvers (2022 format: `h` hard clauses, objective literals as unit
    /// soft clauses of weight 1), with `c var N name` lines.
    Wcnf,
    /// OPB for pseudo-Boolean solvers (`min:` minus the objective count), with `* var N
    /// name` lines.
    Opb,
}

/// The puzzle's model as `format` text. With `at_least`, the file asks "objective at least
/// K?" (a unit clause on the counter's output, or one more row); without, it holds the
/// constraints alone (and, for LP, the objective). `origin` names the model file.
pub fn emit(puzzle: &Puzzle, origin: &str, format: Format, at_least: Option<usize>) -> String {
    let mut model = puzzle.compile();
    // Lazy constraints that can be written out become ordinary constraints, so the file is
    // exactly the puzzle; the rest stay lazy and the file says so.
    let mut written = Vec::new();
    for lazy in std::mem::take(&mut model.lazy) {
        if lazy.write_out(&mut model) {
            written.push(lazy.name().to_string());
        } else {
            model.lazy.push(lazy);
        }
    }
    let mut comments = vec![
        format!("puzzlec {} from {origin}", env!("CARGO_PKG_VERSION")),
        format!(
            "family {}: {} model variables",
            puzzle.kind(),
            model.num_vars()
        ),
    ];
    if !written.is_empty() {
        comments.push(format!(
            "written out in full, with auxiliary variables: {}",
            written.join(", ")
        ));
    }
    match format {
        Format::Dimacs => {
            let encoding = encode::encode(&model, AmoEncoding::Auto);
            comments.push(format!(
                "objective counted by {}",
                encoding.objective_encoding
            ));
            comments.push(match at_least {
                Some(k) => format!("decision: objective at least {k}"),
                None => "constraints only (no objective bound)".to_string(),
            });
            push_lazy_warning(&mut comments, &model);
            let cnf = encoding.cnf_with_at_least(at_least);
            dimacs::write_dimacs(&cnf, model.names(), &comments)
        }
        Format::Lp => {
            if let Some(k) = at_least {
                comments.push(format!("decision: objective at least {k} (row at_least)"));
            }
            push_lazy_warning(&mut comments, &model);
            lp_file::write_lp(&LinearProgram::from_model(&model, at_least), &comments)
        }
        Format::Wcnf => {
            if let Some(k) = at_least {
                comments.push(format!("hard: objective at least {k}"));
            }
            comments.push("soft: one unit clause of weight 1 per objective literal; cost = literals left false".into());
            push_lazy_warning(&mut comments, &model);
            let formula = wcnf::Wcnf::from_model(&model, at_least);
            wcnf::write_wcnf(&formula, model.names(), &comments)
        }
        Format::Opb => {
            if let Some(k) = at_least {
                comments.push(format!(
                    "decision: objective at least {k} (last constraint)"
                ));
            }
            let (problem, offset) = opb::Opb::from_model(&model, at_least);
            comments.push(format!(
                "min: minus the objective count, plus the constant {offset} (not written)"
            ));
            push_lazy_warning(&mut comments, &model);
            opb::write_opb(&problem, model.names(), &comments)
        }
    }
}

/// Lazy constraints are not written into static files yet; say so in every format rather
/// than let a solver's answer (or "satisfiable") look like one of the puzzle's.
fn push_lazy_warning(comments: &mut Vec<String>, model: &crate::model::Model) {
    if !model.lazy.is_empty() {
        let names: Vec<&str> = model.lazy.iter().map(|l| l.name()).collect();
        comments.push(format!(
            "WARNING: {} lazy constraints are not written ({}): this file is weaker than \
             the puzzle; check answers with puzzlec",
            model.lazy.len(),
            names.join(", ")
        ));
    }
}
