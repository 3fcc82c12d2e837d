//! Chess domination by the native search: proving the fewest queens and knights that guard
//! an empty board, the fewest independent queens, and counting the minimum queen
//! dominating sets up to symmetry, each with its published answer checked.

use criterion::{criterion_group, criterion_main, Criterion};
use puzzlec::base::Control;
use puzzlec::engines::domination::{count, solve, Instance, Question};
use puzzlec::geometry::board::Board;
use puzzlec::geometry::chess::Piece;

/// The empty n x n board.
fn square(n: usize) -> Board {
    Board {
        width: n,
        height: n,
        free: vec![true; n * n],
    }
}

fn minimum(c: &mut Criterion) {
    let mut group = c.benchmark_group("domination_prove_minimum");
    group.sample_size(10);
    // (piece, question, n, the published minimum)
    let cases = [
        (Piece::Queen, Question::Dominate, 13, 7),
        (Piece::Queen, Question::Dominate, 14, 8),
        (Piece::Queen, Question::IndependentDominate, 14, 8),
        (Piece::Knight, Question::Dominate, 12, 24),
    ];
    for (piece, question, n, known) in cases {
        let instance = Instance::new(&square(n), piece, question);
        let name = format!("{}_{question:?}_{n}", piece.name());
        group.bench_function(name, |b| {
            b.iter(|| {
                let answer = solve(&instance, None, &Control::unlimited());
                assert!(answer.proven);
                assert_eq!(answer.best.map(|p| p.len()), Some(known));
            })
        });
    }
    group.finish();
}

fn classes(c: &mut Criterion) {
    let mut group = c.benchmark_group("domination_count_classes");
    group.sample_size(10);
    // 13 x 13: 7 queens, 288 placements in 41 classes (OEIS A002564, A002563).
    let instance = Instance::new(&square(13), Piece::Queen, Question::Dominate);
    group.bench_function("queen_13", |b| {
        b.iter(|| {
            let found = count(&instance, 7, None, true, &Control::unlimited(), None);
            assert_eq!(found.count, 288);
            assert_eq!(found.classes.values().sum::<u64>(), 41);
        })
    });
    group.finish();
}

criterion_group!(benches, minimum, classes);
criterion_main!(benches);
