//! Benchmarks of the native dissection search on fixed shapes.

use puzzlec::geometry::shapes::picture_cells as shape;
use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{criterion_group, criterion_main, Criterion};
use puzzlec::base::{Control, Goal, Status};
use puzzlec::driver::enumerate::enumerate_dissections;
use puzzlec::driver::{solve, Backend};
use puzzlec::engines::dissection::{dissect, Cell};
use puzzlec::puzzle::dissection::DissectionPuzzle;
use puzzlec::puzzle::Puzzle;

/// The 26-cell shape of PUZZLES.md section 4: one dissection into 2 parts with reflection.
const SEED_SHAPE: &str = "
...###.
...####
...#.##
######.
######.
..##.#.
..#....
";

/// 100 cells: a random 50-cell polyomino glued to its mirror image (seed 1 of the generator
/// used to write these benchmarks). One dissection into 2 parts with reflection.
const GLUED_100: &str = "
.#...#..........
######.#........
.#######........
.#######..#...#.
.########.######
.##############.
..#############.
...####.#######.
...###..#######.
........######..
.........####...
..........###...
";

/// 60 cells: a random 20-cell polyomino glued to two three-quarter-turned copies of itself.
/// One dissection into 3 parts.
const GLUED_60: &str = "
..............#..
...........######
..........#######
.............#.#.
..........#..#...
....#.....#####..
.#######..##.....
############.....
...#.#.#..###....
...#.....###.....
..###.....##.....
";

fn rectangle(width: i32, height: i32) -> Vec<Cell> {
    (0..height)
        .flat_map(|y| (0..width).map(move |x| (x, y)))
        .collect()
}

/// Counts every dissection.
fn count(cells: &[Cell], parts: usize, reflect: bool) -> u64 {
    let stop = AtomicBool::new(false);
    let search = dissect(cells, parts, reflect, &mut |_| true, &stop);
    assert!(search.complete);
    search.count
}

fn benches(c: &mut Criterion) {
    let cases = [
        (
            "seed 26 cells into 2, reflect",
            shape(SEED_SHAPE),
            2,
            true,
            1,
        ),
        (
            "glued 100 cells into 2, reflect",
            shape(GLUED_100),
            2,
            true,
            1,
        ),
        (
            "glued 60 cells into 3, reflect",
            shape(GLUED_60),
            3,
            true,
            1,
        ),
        (
            "rectangle 10x6 into 3, reflect",
            rectangle(10, 6),
            3,
            true,
            1,
        ),
        ("square 6x6 into 2, reflect", rectangle(6, 6), 2, true, 1018),
    ];
    let mut group = c.benchmark_group("dissection");
    group.sample_size(10);
    for (name, cells, parts, reflect, expected) in cases {
        assert_eq!(count(&cells, parts, reflect), expected, "{name}");
        group.bench_function(name, |b| {
            b.iter(|| count(black_box(&cells), parts, reflect))
        });
    }
    group.finish();

    // The model backends on the same shapes: every dissection listed by SAT (blocking
    // clauses), and one found by MILP on the seed.
    let mut group = c.benchmark_group("dissection_model");
    group.sample_size(10);
    for (name, picture, parts, expected) in [
        ("seed 26 cells into 2, all, sat", SEED_SHAPE, 2, 1),
        ("glued 100 cells into 2, all, sat", GLUED_100, 2, 1),
        ("glued 60 cells into 3, all, sat", GLUED_60, 3, 1),
    ] {
        let puzzle = DissectionPuzzle::from_picture(picture, parts, true);
        let all = |puzzle: &DissectionPuzzle| {
            let found =
                enumerate_dissections(puzzle, Backend::Sat, &Control::unlimited(), &mut |_| true)
                    .expect("verified dissections");
            assert!(found.complete);
            found.count
        };
        assert_eq!(all(&puzzle), expected, "{name}");
        group.bench_function(name, |b| b.iter(|| all(black_box(&puzzle))));
    }
    let seed = Puzzle::Dissection(DissectionPuzzle::from_picture(SEED_SHAPE, 2, true));
    group.bench_function("seed 26 cells into 2, one, milp", |b| {
        b.iter(|| {
            let outcome = solve(&seed, Backend::Milp, Goal::Maximise, &Control::unlimited())
                .expect("a verified dissection");
            assert_eq!(outcome.status, Status::Satisfiable);
        })
    });
    group.finish();
}

criterion_group!(dissection, benches);
criterion_main!(dissection);
