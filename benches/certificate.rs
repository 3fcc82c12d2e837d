//! Writing and checking the contest board's certificate (optimum 20): `puzzlec prove` and
//! `puzzlec check` without the process start.

use criterion::{criterion_group, criterion_main, Criterion};
use puzzlec::cert::certificate::{check, prove, Claim};
use std::path::Path;

fn contest_certificate(c: &mut Criterion) {
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/obstacle-queens.toml");
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let dir = tmp.path().join("cert");
    let mut group = c.benchmark_group("certificate_contest_board");
    group.sample_size(10);
    group.bench_function("prove", |b| {
        b.iter(|| {
            let manifest = prove(&model, &dir).unwrap();
            assert_eq!(manifest.claim, Claim::Optimal { value: 20 });
        })
    });
    group.bench_function("check", |b| {
        b.iter(|| {
            let checked = check(&dir).unwrap();
            assert_eq!(
                checked.conclusion,
                "certified: 20 is the optimum of model.toml"
            );
        })
    });
    group.finish();
}

criterion_group!(benches, contest_certificate);
criterion_main!(benches);
