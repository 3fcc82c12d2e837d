//! Criterion benchmarks of the file formats: `emit` of the 6 x 10 pentomino model in every
//! format, and `decode` of large solver answers (a SAT competition answer checked against
//! every clause of its DIMACS file, a CBC solution against every row of its LP file).
//! They go through the library's `emit` and `decode` entry points, so the same benchmark
//! measures any layout of the writers and readers behind them.

use criterion::{criterion_group, criterion_main, Criterion};
use puzzlec::driver::decode::{decode, DecodeInput};
use puzzlec::driver::emit::{emit, emit_to, EmitOptions, Format};
use puzzlec::puzzle::load::parse_model;
use puzzlec::{Control, Puzzle};
use std::hint::black_box;
use std::path::Path;

const FORMATS: [Format; 6] = [
    Format::Dimacs,
    Format::Lp,
    Format::Wcnf,
    Format::Opb,
    Format::Mzn,
    Format::Fzn,
];

fn model(path: &str, text: String) -> Puzzle {
    parse_model(Path::new(path), text).expect("the benchmark's model loads")
}

/// L-trominoes tiling a `side` x `side` box: a model with many variables, so a large answer.
fn tromino_tiling(side: usize) -> Puzzle {
    model(
        "trominoes.toml",
        format!(
            "kind = \"packing\"\nwidth = {side}\nheight = {side}\ngoal = \"tile\"\n\n\
             [[piece]]\nname = \"L\"\nshape = \"\"\"\n##\n#.\n\"\"\"\n"
        ),
    )
}

/// A satisfying assignment of `dimacs` (found by varisat), as a SAT competition answer.
fn sat_answer(dimacs: &str) -> String {
    use varisat::Solver;
    let formula = varisat::dimacs::DimacsParser::parse(dimacs.as_bytes()).expect("DIMACS");
    let mut solver = Solver::new();
    solver.add_formula(&formula);
    assert!(
        solver.solve().expect("no interruption"),
        "the tiling exists"
    );
    let mut answer = String::from("s SATISFIABLE\nv");
    for lit in solver.model().expect("a model") {
        answer.push_str(&format!(" {}", lit.to_dimacs()));
    }
    answer.push_str(" 0\n");
    answer
}

/// The same assignment as a CBC solution file for `lp` (columns by their LP names, the
/// `\ column` comments mapping them; only non-zero columns listed, as CBC writes).
fn cbc_answer(lp: &str, dimacs: &str, sat: &str) -> String {
    let names: Vec<&str> = dimacs
        .lines()
        .filter_map(|l| l.strip_prefix("c var "))
        .map(|rest| rest.split_once(' ').expect("c var N name").1)
        .collect();
    let columns: std::collections::HashMap<&str, &str> = lp
        .lines()
        .filter_map(|l| l.strip_prefix("\\ column "))
        .filter_map(|rest| rest.split_once(" = "))
        .map(|(safe, name)| (name, safe))
        .collect();
    let mut answer = String::from("Optimal - objective value 0.00000000\n");
    let values = sat.lines().nth(1).expect("v line");
    for (index, word) in values.split_whitespace().skip(1).enumerate() {
        let number: i64 = word.parse().expect("literal");
        let Some(name) = names.get(number.unsigned_abs() as usize - 1) else {
            continue;
        };
        if number > 0 {
            let column = columns.get(name).expect("every model variable is a column");
            answer.push_str(&format!("{index:>7} {column:<20} 1 0\n"));
        }
    }
    answer
}

fn formats(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let pentominoes = puzzlec::load_model_file(&root.join("models/pentomino-6x10.toml"))
        .expect("the shipped model loads");
    let mut group = c.benchmark_group("emit_pentomino_6x10");
    group.sample_size(20);
    for format in FORMATS {
        let options = EmitOptions::new(format, None);
        group.bench_function(format.name(), |b| {
            b.iter(|| {
                let mut out = Vec::with_capacity(1 << 20);
                emit_to(
                    black_box(&pentominoes),
                    "pentomino-6x10.toml",
                    &options,
                    &mut out,
                    &Control::unlimited(),
                )
                .expect("emit into memory");
                out.len()
            })
        });
    }
    group.finish();

    let trominoes = tromino_tiling(30);
    let dimacs = emit(&trominoes, "trominoes.toml", Format::Dimacs, None);
    let lp = emit(&trominoes, "trominoes.toml", Format::Lp, None);
    let sat = sat_answer(&dimacs);
    let cbc = cbc_answer(&lp, &dimacs, &sat);
    let mut group = c.benchmark_group("decode_tromino_30x30");
    group.sample_size(20);
    for (name, answer, emitted) in [("sat_answer", &sat, &dimacs), ("cbc_solution", &cbc, &lp)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let input = DecodeInput {
                    answer_name: "answer",
                    answer: black_box(answer),
                    emitted: Some(("emitted", emitted)),
                    origin: "trominoes.toml",
                };
                let decoded = decode(&trominoes, &input).expect("the answer decodes");
                assert_eq!(decoded.value, 300);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, formats);
criterion_main!(benches);
