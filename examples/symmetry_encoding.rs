//! Measures the mirror symmetry-breaking rule of packing models three ways in one run: as
//! compiled (`AtLeastAsMany`, binary adders), as the old single cardinality constraint
//! (`AtLeast` over `first` and the negated `second`), and left out. For each model file:
//! CNF clauses and variables, and varisat's time to answer the model's goal.
//!
//! `cargo run --release --example symmetry_encoding -- models/pentomino-6x10.toml ...`
//! (`--sizes` skips the solver runs).

use puzzlec::base::{Control, Goal, Incumbent};
use puzzlec::encode::{amo::AmoEncoding, cnf::encode};
use puzzlec::model::{Constraint, Model};
use puzzlec::puzzle::{load::load_model_file, Puzzle};
use std::path::Path;
use std::time::Instant;

/// The model with every `AtLeastAsMany` written the old way: `first` and the negations of
/// `second`, at least `|second|` true.
fn with_old_rule(mut model: Model) -> Model {
    for constraint in &mut model.constraints {
        if let Constraint::AtLeastAsMany { first, second } = constraint {
            let k = second.len();
            let mut all = first.clone();
            all.extend(second.iter().map(|&l| !l));
            *constraint = Constraint::AtLeast(all, k);
        }
    }
    model
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sizes_only = args.iter().any(|a| a == "--sizes");
    println!("model | rule | clauses | variables | SAT time | answer");
    for path in args.iter().filter(|a| !a.starts_with("--")) {
        let Ok(Puzzle::Packing(packing)) = load_model_file(Path::new(path)) else {
            eprintln!("{path}: not a packing model");
            continue;
        };
        let variants = [
            ("adders", packing.compile_with(true)),
            ("old", with_old_rule(packing.compile_with(true))),
            ("none", packing.compile_with(false)),
        ];
        for (rule, model) in variants {
            let encoding = encode(&model, AmoEncoding::Auto);
            let (clauses, vars) = (encoding.cnf.clauses.len(), encoding.cnf.num_vars);
            drop(encoding);
            let (time, answer) = if sizes_only {
                (String::new(), String::new())
            } else {
                let start = Instant::now();
                let outcome = puzzlec::oracle::varisat::solve(
                    &model,
                    Goal::Maximise,
                    &Control::default(),
                    &Incumbent::new(),
                );
                let value = outcome
                    .witness
                    .as_ref()
                    .map(|w| model.objective.as_ref().map_or(0, |o| o.value(w)));
                (
                    format!("{:.2} s", start.elapsed().as_secs_f64()),
                    format!("{:?} {value:?}", outcome.status),
                )
            };
            println!("{path} | {rule} | {clauses} | {vars} | {time} | {answer}");
        }
    }
}
