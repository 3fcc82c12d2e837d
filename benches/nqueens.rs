//! N-queens counting: puzzlec's parallel symmetry-class counter against the classic baseline.
//!
//! The target: N = 16 in under 2 s and at least 3x the speed of the baseline below.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{criterion_group, criterion_main, Criterion};
use puzzlec::base::Control;
use puzzlec::driver::{enumerate, Backend, EnumerateOptions};
use puzzlec::engines::nqueens_count::count_empty_board;
use puzzlec::puzzle::load_model_file;

/// The reference: a plain single-thread bitboard counter using only the left-right mirror
/// (the classic C technique, as in Jeff Somers' program). The first-row queen goes in the
/// left half only and those counts are doubled; for odd N the middle column is added once.
fn baseline_mirror_count(n: u32) -> u64 {
    fn search(mask: u32, left: u32, down: u32, right: u32) -> u64 {
        if down == mask {
            return 1;
        }
        let mut bits = mask & !(left | down | right);
        let mut found = 0;
        while bits != 0 {
            let bit = bits & bits.wrapping_neg();
            bits ^= bit;
            found += search(mask, (left | bit) << 1, down | bit, (right | bit) >> 1);
        }
        found
    }
    let mask = u32::MAX >> (32 - n);
    let mut total = 0;
    for column in 0..n / 2 {
        let bit = 1 << column;
        total += 2 * search(mask, bit << 1, bit, bit >> 1);
    }
    if n % 2 == 1 {
        let bit = 1 << (n / 2);
        total += search(mask, bit << 1, bit, bit >> 1);
    }
    total
}

fn nqueens_count(c: &mut Criterion) {
    assert_eq!(baseline_mirror_count(12), 14200);
    let mut group = c.benchmark_group("nqueens_count");
    group.sample_size(10);
    group.bench_function("puzzlec_n16", |b| {
        b.iter(|| {
            let stop = AtomicBool::new(false);
            let result = count_empty_board(black_box(16), None, &|_, _| {}, &stop).unwrap();
            assert_eq!(result.total, 14_772_512);
            result
        })
    });
    group.bench_function("baseline_mirror_single_thread_n16", |b| {
        b.iter(|| {
            let total = baseline_mirror_count(black_box(16));
            assert_eq!(total, 14_772_512);
            total
        })
    });
    group.finish();
}

/// Every optimal placement of the 16 x 16 contest board (5898 of 20 queens),
/// counted natively in under 1 s, the optimum's proof included.
fn contest_board_count(c: &mut Criterion) {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/obstacle-queens.toml");
    let puzzle = load_model_file(&path).unwrap();
    let mut group = c.benchmark_group("count_optimal");
    group.sample_size(10);
    group.bench_function("contest_board_native", |b| {
        b.iter(|| {
            let outcome = enumerate(
                black_box(&puzzle),
                Backend::Native,
                &EnumerateOptions::default(),
                &Control::unlimited(),
                &mut |_| {},
            )
            .unwrap();
            assert_eq!(outcome.count, 5898);
            outcome.count
        })
    });
    group.finish();
}

criterion_group!(benches, nqueens_count, contest_board_count);
criterion_main!(benches);
