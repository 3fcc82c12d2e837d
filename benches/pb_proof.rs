//! The search-written VeriPB proof of the 11 x 11 cross box (8 crosses at most; 12.8 MB):
//! written into memory, and checked by puzzlec's own pseudo-Boolean checker, whose reading
//! and propagation bound how fast a streamed certificate goes.

mod cross_box;

use criterion::{criterion_group, criterion_main, Criterion};
use cross_box::square_cross_model;
use puzzlec::checkers::pb::{check_pb_proof, PbConclusion};
use puzzlec::engines::russian_doll::{packing_opb, write_proof_with, DollProofOptions};
use puzzlec::puzzle::{load_model_file, Puzzle};

fn cross_proof(c: &mut Criterion) {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let model = square_cross_model(tmp.path(), 11);
    let Ok(Puzzle::Packing(packing)) = load_model_file(&model) else {
        panic!("the 11 x 11 cross box is a packing model")
    };
    let instance = &packing.instance;
    let options = DollProofOptions::default();
    let (opb, _) = packing_opb(instance);
    let mut formula = Vec::new();
    puzzlec::formats::opb::write_opb(&opb, &mut formula, &|| false).expect("written to memory");
    let write = || {
        let mut proof = Vec::new();
        let written = write_proof_with(instance, &options, &mut proof, &|| false)
            .expect("the proof is written");
        assert_eq!(written.optimum, 8);
        proof
    };
    let proof = write();
    let mut group = c.benchmark_group("pb_proof_cross_11x11");
    group.sample_size(10);
    group.bench_function("write", |b| b.iter(write));
    group.bench_function("check", |b| {
        b.iter(|| {
            let checked = check_pb_proof(&formula[..], &proof[..]).expect("accepted");
            assert_eq!(
                checked.conclusion,
                PbConclusion::Bounds {
                    lower: Some(-8),
                    upper: Some(-8)
                }
            );
        })
    });
    group.finish();
}

criterion_group!(benches, cross_proof);
criterion_main!(benches);
