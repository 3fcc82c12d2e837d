//! Proving the contest board's optimum (20) with each backend.

use criterion::{criterion_group, criterion_main, Criterion};
use puzzlec::base::{Control, Goal, Status};
use puzzlec::driver::{solve, Backend};
use puzzlec::puzzle::load_model_file;
use std::path::Path;

fn contest_board(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/obstacle-queens.toml");
    let puzzle = load_model_file(&path).expect("the shipped model loads");
    let mut group = c.benchmark_group("obstacle_queens_prove_optimum");
    group.sample_size(10);
    for backend in Backend::ALL {
        group.bench_function(backend.name(), |b| {
            b.iter(|| {
                let outcome =
                    solve(&puzzle, backend, Goal::Maximise, &Control::unlimited()).unwrap();
                assert_eq!((outcome.status, outcome.value), (Status::Optimal, Some(20)));
            })
        });
    }
    group.finish();
}

criterion_group!(benches, contest_board);
criterion_main!(benches);
