//! Every model file `emit` writes, written as the model is encoded, equals the in-memory
//! formula, rows or program of the same model: written through the same `formats` writer
//! (DIMACS, OPB, LP) or read back (WCNF).

use super::amo::AmoEncoding;
use super::cnf::encode;
use super::{dimacs, lp, opb, wcnf};
use crate::base::Control;
use crate::formats::linear::LinearProgram;
use crate::formats::lines::WriteError;
use crate::formats::{self, dimacs::CnfDialect};
use crate::model::{Constraint, Lit, Model, Objective};
use std::io::Write;

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

fn text(write: impl FnOnce(&mut dyn Write) -> Result<(), WriteError>) -> String {
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
        let plan = dimacs::plan_cnf(&model, AmoEncoding::Auto, at_least);
        assert_eq!(plan.objective_encoding, encoding.objective_encoding);
        let cnf = encoding.cnf_with_at_least(at_least);
        let expected = text(|out| dimacs::write_cnf(&cnf, model.names(), &comments, out, &never));
        let streamed = text(|out| {
            dimacs::write_model(
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
        let streamed = text(|out| wcnf::write_model(&model, at_least, &comments, out, &control));
        let read = wcnf::read_wcnf(&streamed).unwrap();
        assert_eq!(read.hard, in_memory.hard, "wcnf, at least {at_least:?}");
        assert_eq!(read.soft, in_memory.soft, "wcnf, at least {at_least:?}");
        let (problem, _) = opb::from_model(&model, at_least);
        let expected = text(|out| {
            use formats::opb::{Coefficients, Numbered, OpbWriter};
            let mut writer = OpbWriter::new(out, &never, &Numbered, Coefficients::Signed);
            let rows = problem.constraints.len();
            writer.head(problem.declared_variables, rows, &comments, model.names());
            if let Some(objective) = &problem.objective {
                writer.objective(objective);
            }
            for constraint in &problem.constraints {
                writer.constraint(constraint);
            }
            writer.finish()
        });
        let streamed = text(|out| opb::write_model(&model, at_least, &comments, out, &control));
        assert_eq!(streamed, expected, "opb, at least {at_least:?}");
        let read = formats::opb::read_opb(expected.as_bytes()).unwrap();
        let read = read.by_number().unwrap();
        assert_eq!(
            read.objective, problem.objective,
            "opb, at least {at_least:?}"
        );
        assert_eq!(read.constraints, problem.constraints);
        let program = LinearProgram::from_model(&model, at_least);
        let expected = text(|out| formats::lp::write_lp(&program, &comments, out, &never));
        let streamed = text(|out| {
            lp::write_model(
                &model,
                at_least,
                &lp::LpExtras::default(),
                &comments,
                out,
                &control,
            )
        });
        assert_eq!(streamed, expected, "lp, at least {at_least:?}");
        assert_eq!(
            formats::lp::read_lp(&expected).unwrap().rows.len(),
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
    let result = lp::write_model(
        &model,
        None,
        &lp::LpExtras::default(),
        &[],
        &mut out,
        &control,
    );
    assert!(matches!(result, Err(WriteError::Stopped)), "{result:?}");
}
