//! Criterion benchmarks of the native packing searches.

use criterion::{criterion_group, criterion_main, Criterion};
use puzzlec::base::Control;
use puzzlec::driver::packing_bounds::row_lp_weights;
use puzzlec::engines::neighbourhood::{improve, NeighbourhoodOptions};
use puzzlec::engines::packing::{count_tilings, maximise, PackingGoal, PackingOptions};
use puzzlec::engines::russian_doll::{self, DollOptions};
use puzzlec::geometry::placements::{orientations, PackingInstance, PieceLimit};
use puzzlec::geometry::shapes::cross_box;
use puzzlec::geometry::shapes::picture_cells as shape;
use std::sync::atomic::AtomicBool;

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
    // The bitboard tiling search on a board of more than 64 cells (a 128-bit board).
    let trominoes = boxed(12, 6, &["##/#."], PieceLimit::unlimited());
    group.bench_function("l_tromino_6x12_count", |b| {
        b.iter(|| {
            let count = count_tilings(&trominoes, true, &AtomicBool::new(false)).unwrap();
            assert_eq!((count.raw, count.up_to_symmetry), (118586, Some(29824)));
        })
    });
    // Maximum packings with piece minimums (the branch and bound, not the Russian doll).
    let mut pentominoes = boxed(8, 7, &PENTOMINOES, PieceLimit::at_most(1));
    pentominoes.pieces[9] = PieceLimit::exactly(1);
    group.bench_function("pentomino_7x8_x_exactly_1_maximum", |b| {
        b.iter(|| {
            let outcome = maximise(&pentominoes, &PackingOptions::default(), |_| {}).unwrap();
            assert!(outcome.proved && outcome.best_len() == 11);
        })
    });
    let mut crosses = boxed(11, 11, &CROSSES, PieceLimit::unlimited());
    crosses.pieces[0] = PieceLimit { min: 3, max: None };
    group.bench_function("cross_11x11_plus_at_least_3_maximum", |b| {
        b.iter(|| {
            let outcome = maximise(&crosses, &PackingOptions::default(), |_| {}).unwrap();
            assert!(outcome.proved && outcome.best_len() == 8);
        })
    });
    // Refutations of one more than the optimum through `maximise` (without minimums: the
    // Russian doll).
    for (height, optimum) in [(11, 10), (13, 13)] {
        let crosses = boxed(13, height, &CROSSES, PieceLimit::unlimited());
        group.bench_function(format!("cross_13x{height}_refute_{}", optimum + 1), |b| {
            b.iter(|| {
                let options = PackingOptions {
                    goal: PackingGoal::AtLeast(optimum + 1),
                    ..PackingOptions::default()
                };
                let outcome = maximise(&crosses, &options, |_| {}).unwrap();
                assert!(outcome.proved && outcome.best_len() <= optimum);
            })
        });
    }
    group.finish();
}

/// The Russian-doll engine (what `solve` uses for packings without piece minimums): the
/// whole suffix table, the optimum proved, with the default switches, with the memo, the
/// lookahead cut, dead cells or relaxed memo lookups off, and with the lookahead on a box
/// narrower than its default reach (what each buys or costs). The C baseline
/// `../shared/refs/cross_doll.c` has none of them.
fn russian_doll(c: &mut Criterion) {
    let mut group = c.benchmark_group("russian_doll");
    group.sample_size(10);
    let defaults = DollOptions::default();
    let variants = [
        ("", defaults),
        (
            "_no_memo",
            DollOptions {
                memo: false,
                ..defaults
            },
        ),
        (
            "_no_lookahead",
            DollOptions {
                lookahead: 0,
                ..defaults
            },
        ),
        (
            "_no_dead_cells",
            DollOptions {
                dead_cells: false,
                ..defaults
            },
        ),
        (
            "_no_relaxed_lookups",
            DollOptions {
                memo_relaxed: false,
                ..defaults
            },
        ),
        (
            "_lookahead_narrow",
            DollOptions {
                lookahead_min_row: 0,
                ..defaults
            },
        ),
    ];
    for (width, height, optimum) in [(13, 19, 19), (14, 14, 14)] {
        let crosses = cross_box(width, height);
        for (switch, options) in &variants {
            // Seconds a run without the memo: too slow for a bench loop; 14 is not narrow.
            if (!options.memo || options.lookahead_min_row == 0) && width == 14 {
                continue;
            }
            let name = format!("cross_{width}x{height}_optimum_{optimum}{switch}");
            group.bench_function(name, |b| {
                b.iter(|| {
                    let outcome = russian_doll::solve(&crosses, options, |_, _| {}).unwrap();
                    assert!(outcome.proved && outcome.best.len() == optimum);
                })
            });
        }
    }
    // Skew tetrominoes, where the LP is tight: the weighted cut (each scan row's LP dual,
    // solved once, outside the loop) against the area cut alone; 14 x 14 takes about 40 s
    // without the weights, so only 10 x 10 is run both ways. One thread: the node counts are
    // those of every run.
    for (side, optimum) in [(10, 23), (14, 46)] {
        let skew = boxed(side, side, &[".##/##."], PieceLimit::unlimited());
        let weights = row_lp_weights(&skew, &Control::unlimited(), &AtomicBool::new(false));
        for (switch, row_weights) in [("_lp_weights", &weights[..]), ("", &[][..])] {
            if side == 14 && row_weights.is_empty() {
                continue;
            }
            let options = DollOptions {
                row_weights,
                threads: 1,
                ..defaults
            };
            group.bench_function(
                format!("skew_{side}x{side}_optimum_{optimum}{switch}"),
                |b| {
                    b.iter(|| {
                        let outcome = russian_doll::solve(&skew, &options, |_, _| {}).unwrap();
                        assert!(outcome.proved && outcome.best.len() == optimum);
                    })
                },
            );
        }
    }
    group.finish();
}

/// The large-neighbourhood search from nothing to 25 crosses in 18 x 18 (what HiGHS found;
/// the doll's stopped runs held 24): windows widening from 4 to 8 (the default) against
/// windows of 8 throughout.
fn neighbourhood(c: &mut Criterion) {
    let mut group = c.benchmark_group("neighbourhood");
    group.sample_size(10);
    let crosses = cross_box(18, 18);
    let defaults = NeighbourhoodOptions {
        target: Some(25),
        rounds: Some(100_000),
        ..NeighbourhoodOptions::default()
    };
    for (name, options) in [
        ("cross_18x18_to_25", defaults),
        (
            "cross_18x18_to_25_window_8",
            NeighbourhoodOptions {
                min_window: 8,
                ..defaults
            },
        ),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let outcome = improve(&crosses, &[], &options).unwrap();
                assert_eq!(outcome.best.len(), 25);
            })
        });
    }
    group.finish();
}

/// The reach targets, 15 x 15 (17) and 16 x 16 (20), with the defaults, without the
/// lookahead cut, without dead cells, without relaxed memo lookups, and with neither of
/// these two: seconds per run, so the group takes minutes
/// (`cargo bench -p puzzlec-bench --bench packing -- reach`).
fn reach(c: &mut Criterion) {
    let mut group = c.benchmark_group("reach");
    group.sample_size(10);
    for (side, optimum) in [(15, 17), (16, 20)] {
        let crosses = cross_box(side, side);
        for (switch, lookahead, dead_cells, memo_relaxed) in [
            ("", 5, true, true),
            ("_no_lookahead", 0, true, true),
            ("_no_dead_cells", 5, false, true),
            ("_no_relaxed_lookups", 5, true, false),
            ("_neither", 5, false, false),
        ] {
            let name = format!("cross_{side}x{side}_optimum_{optimum}{switch}");
            group.bench_function(name, |b| {
                b.iter(|| {
                    let options = DollOptions {
                        lookahead,
                        dead_cells,
                        memo_relaxed,
                        ..DollOptions::default()
                    };
                    let outcome = russian_doll::solve(&crosses, &options, |_, _| {}).unwrap();
                    assert!(outcome.proved && outcome.best.len() == optimum);
                })
            });
        }
    }
    group.finish();
}

/// `solve` with no backend named (the portfolio: the native search, SAT beside it after
/// its head start) against each backend alone, on packings of several piece shapes (the
/// shipped models from published tables, docs/packing-optima.md). A backend left out of a model takes
/// minutes there (SAT on the 13 x 19 crosses and on the T tetrominoes' tiling of 12 x 12,
/// where it finds 35 in a minute; on V pentominoes in 14 x 14 it has 35 of 37 after one).
fn portfolio(c: &mut Criterion) {
    use puzzlec::base::{Control, Goal};
    use puzzlec::driver::guard::DEFAULT_MAX_MEMORY;
    use puzzlec::driver::{portfolio::solve_portfolio, solve, Backend};
    let mut group = c.benchmark_group("portfolio");
    group.sample_size(10);
    let models = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../models");
    let runs: [(&str, &[Backend]); 6] = [
        ("cross-13x19", &[Backend::Native]),
        ("skew-tetromino-14x14", &[Backend::Native, Backend::Sat]),
        ("skew-tetromino-15x15", &[Backend::Native, Backend::Sat]),
        ("t-tetromino-12x12", &[Backend::Native]),
        ("i-tetromino-12x12", &[Backend::Native]),
        ("v-pentomino-14x14", &[Backend::Native]),
    ];
    for (model, alone) in runs {
        let path = models.join(format!("{model}.toml"));
        let puzzle = puzzlec::puzzle::load_model_file(&path).expect("a shipped model");
        let control = Control::unlimited();
        group.bench_function(format!("{model}/default"), |b| {
            b.iter(|| {
                let outcome =
                    solve_portfolio(&puzzle, Goal::Maximise, &control, DEFAULT_MAX_MEMORY).unwrap();
                assert!(outcome.status.is_proven());
            })
        });
        for &backend in alone {
            group.bench_function(format!("{model}/{}", backend.name()), |b| {
                b.iter(|| {
                    let outcome = solve(&puzzle, backend, Goal::Maximise, &control).unwrap();
                    assert!(outcome.status.is_proven());
                })
            });
        }
    }
    group.finish();
}

/// The cost of the doll's own VeriPB proof on its search (its overhead): the doll
/// alone on one thread against the proof-writing doll (one thread, its own rules), the
/// proof written to nothing (formatted, counted by nobody). The ratio of the two medians is
/// the overhead; on 13 x 19 also the doll with the lookahead on, as the proof has it. 16 x 16
/// (about 8 s and 22 s a run) is measured from the command line (`cross_refute MODEL
/// one-thread` and `proof`, docs/speed.md).
fn proof_overhead(c: &mut Criterion) {
    let mut group = c.benchmark_group("proof_overhead");
    group.sample_size(10);
    for (width, height, optimum) in [(13, 19, 19), (15, 15, 17)] {
        let crosses = cross_box(width, height);
        let doll = DollOptions {
            threads: 1,
            ..DollOptions::default()
        };
        // On a narrow box, also the doll with the proof's rules: the lookahead on (the doll
        // alone leaves it off below 14 columns, where it does not pay for itself), so that
        // the ratio to the same search is measured beside the one to the faster doll.
        let mut dolls = vec![("doll_one_thread", doll)];
        if width.min(height) < doll.lookahead_min_row {
            let same_rules = DollOptions {
                lookahead_min_row: 0,
                ..doll
            };
            dolls.push(("doll_one_thread_lookahead_narrow", same_rules));
        }
        for (variant, options) in &dolls {
            group.bench_function(format!("cross_{width}x{height}_{variant}"), |b| {
                b.iter(|| {
                    let outcome = russian_doll::solve(&crosses, options, |_, _| {}).unwrap();
                    assert!(outcome.proved && outcome.best.len() == optimum);
                })
            });
        }
        group.bench_function(format!("cross_{width}x{height}_proof_written"), |b| {
            b.iter(|| {
                let proof =
                    russian_doll::write_proof(&crosses, &mut std::io::sink(), &|| false).unwrap();
                assert_eq!(proof.optimum, optimum);
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    packing,
    russian_doll,
    proof_overhead,
    neighbourhood,
    reach,
    portfolio
);
criterion_main!(benches);
