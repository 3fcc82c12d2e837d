//! Criterion benchmarks of the native packing searches.

use criterion::{criterion_group, criterion_main, Criterion};
use puzzlec::native::packing::{
    count_tilings, maximise, orientations, PackingGoal, PackingInstance, PackingOptions, PieceLimit,
};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn shape(picture: &str) -> Vec<(i32, i32)> {
    let mut cells = Vec::new();
    for (y, line) in picture.split('/').enumerate() {
        for (x, ch) in line.chars().enumerate() {
            if ch == '#' {
                cells.push((x as i32, y as i32));
            }
        }
    }
    cells
}

fn boxed(width: usize, height: usize, shapes: &[&str], limit: PieceLimit) -> PackingInstance {
    let pieces: Vec<_> = shapes
        .iter()
        .map(|p| (orientations(&shape(p), true, true), limit))
        .collect();
    PackingInstance::from_shapes(width, height, vec![false; width * height], &pieces)
}

const PENTOMINOES: [&str; 12] = [
    ".##/##./.#.",
    "#####",
    "####/#...",
    "###./..##",
    "##/##/#.",
    "###/.#./.#.",
    "#.#/###",
    "#../#../###",
    "#../##./.##",
    ".#./###/.#.",
    "####/.#..",
    "##./.#./.##",
];
const CROSSES: [&str; 3] = [
    "..#../..#../#####/..#../..#..",
    "..#../#####/..#../..#../..#..",
    "#####/..#../..#../..#../..#..",
];

fn packing(c: &mut Criterion) {
    let mut group = c.benchmark_group("packing");
    group.sample_size(10);
    let pentominoes = boxed(10, 6, &PENTOMINOES, PieceLimit::exactly(1));
    group.bench_function("pentomino_6x10_count", |b| {
        b.iter(|| {
            let count = count_tilings(&pentominoes, true, &AtomicBool::new(false)).unwrap();
            assert_eq!((count.raw, count.up_to_symmetry), (9356, Some(2339)));
        })
    });
    // Each iteration is capped at 10 s so that a failing search still ends; the bench prints
    // whether 19 was reached.
    let crosses = boxed(13, 19, &CROSSES, PieceLimit::unlimited());
    group.bench_function("cross_13x19_find_19", |b| {
        b.iter(|| {
            let options = PackingOptions {
                goal: PackingGoal::AtLeast(19),
                deadline: Some(Instant::now() + Duration::from_secs(10)),
                ..PackingOptions::default()
            };
            let outcome = maximise(&crosses, &options, |_| {}).unwrap();
            if outcome.best_len() < 19 {
                eprintln!("cross_13x19_find_19: not found within 10 s");
            }
        })
    });
    group.finish();
}

criterion_group!(benches, packing);
criterion_main!(benches);
