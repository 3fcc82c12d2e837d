//! Measures symmetry breaking of packing models four ways in one run: the former mirror
//! rule (`AtLeastAsMany`, binary adders), the same as one cardinality constraint (`AtLeast`
//! over `first` and the negated `second`), left out, and as compiled now (unit clauses
//! keeping a piece used once to one placement per orbit). For each model file: CNF clauses
//! and variables, and varisat's time to answer the model's goal.
//!
//! `cargo run --release --example symmetry_encoding -- models/pentomino-6x10.toml ...`
//! (`--sizes` skips the solver runs; `--time-limit SECS` bounds each run and reports the
//! best value reached; `--no-old` skips the old encoding).

use puzzlec::base::{Control, Goal, Incumbent};
use puzzlec::encode::{amo::AmoEncoding, cnf::encode};
use puzzlec::geometry::placements::mirror_halves;
use puzzlec::model::{Constraint, Lit, Model, Var};
use puzzlec::puzzle::packing::Packing;
use puzzlec::puzzle::{load::load_model_file, Puzzle};
use std::cmp::Ordering;
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

/// The model without symmetry breaking plus the former mirror rule: for each mirror that
/// maps the instance onto itself, at least as many pieces centred in the first half as in
/// the second.
fn with_mirror_rule(packing: &Packing) -> Model {
    let mut model = packing.compile_with(false);
    for mirror in mirror_halves(&packing.instance) {
        let side = |wanted: Ordering| -> Vec<Lit> {
            (0..mirror.side.len())
                .filter(|&i| mirror.side[i] == wanted)
                .map(|i| Var::from_index(i).positive())
                .collect()
        };
        let (first, second) = (side(Ordering::Less), side(Ordering::Greater));
        if !second.is_empty() {
            model.add(Constraint::AtLeastAsMany { first, second });
        }
    }
    model
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sizes_only = args.iter().any(|a| a == "--sizes");
    let no_old = args.iter().any(|a| a == "--no-old");
    let limit = args
        .iter()
        .position(|a| a == "--time-limit")
        .and_then(|i| args.get(i + 1))
        .map(|s| std::time::Duration::from_secs_f64(s.parse().expect("seconds")));
    println!("model | rule | clauses | variables | SAT time | answer");
    let is_number = |a: &str| a.parse::<f64>().is_ok();
    for path in args
        .iter()
        .filter(|a| !a.starts_with("--") && !is_number(a))
    {
        let Ok(Puzzle::Packing(packing)) = load_model_file(Path::new(path)) else {
            eprintln!("{path}: not a packing model");
            continue;
        };
        let variants = [
            ("adders", with_mirror_rule(&packing)),
            ("old", with_old_rule(with_mirror_rule(&packing))),
            ("none", packing.compile_with(false)),
            ("units", packing.compile_with(true)),
        ];
        for (rule, model) in variants {
            if no_old && rule == "old" {
                continue;
            }
            let encoding = encode(&model, AmoEncoding::Auto);
            let (clauses, vars) = (encoding.cnf.clauses.len(), encoding.cnf.num_vars);
            drop(encoding);
            let (time, answer) = if sizes_only {
                (String::new(), String::new())
            } else {
                let start = Instant::now();
                let outcome = puzzlec::oracle::answer(
                    puzzlec::oracle::Solver::Varisat,
                    &model,
                    Goal::Maximise,
                    &Control::new(Default::default(), limit),
                    &Incumbent::new(),
                )
                .expect("varisat's failures end the run unknown, not in an error");
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
