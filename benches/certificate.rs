//! Writing and checking the contest board's certificate (optimum 20): `puzzlec prove` and
//! `puzzlec check` without the process start.

mod cross_box;

use criterion::{criterion_group, criterion_main, Criterion};
use cross_box::square_cross_model;
use puzzlec::cert::certificate::{check, Claim};
use puzzlec::prove;
use std::path::Path;

fn contest_certificate(c: &mut Criterion) {
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/obstacle-queens.toml");
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

/// The table certificate of the 10 x 10 cross box (optimum 6, 100 steps, refuted by CaDiCaL
/// when it is on PATH, else varisat). The 13 x 19 box takes minutes: it is the ignored test
/// `the_13_by_19_cross_box_certificate` in tests/integration/packing_certificates.rs.
fn cross_table_certificate(c: &mut Criterion) {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let model = square_cross_model(tmp.path(), 10);
    let dir = tmp.path().join("cert");
    let mut group = c.benchmark_group("certificate_cross_table_10x10");
    group.sample_size(10);
    group.bench_function("prove", |b| {
        b.iter(|| {
            // A fresh folder each time: `prove` would keep the step proofs already there.
            let _ = std::fs::remove_dir_all(&dir);
            let manifest = prove(&model, &dir).unwrap();
            assert_eq!(manifest.claim, Claim::Optimal { value: 6 });
        })
    });
    group.bench_function("check", |b| {
        b.iter(|| {
            let checked = check(&dir).unwrap();
            assert_eq!(
                checked.conclusion,
                "certified: 6 is the optimum of model.toml"
            );
        })
    });
    group.finish();
}

criterion_group!(benches, contest_certificate, cross_table_certificate);
criterion_main!(benches);
