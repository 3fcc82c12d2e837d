use super::board::Board;
use super::*;
use crate::engines::russian_doll::{DollOptions, Wide};
use crate::geometry::placements::{orientations, PieceShapes};
use crate::geometry::placements::{symmetry_group, PackingError, PackingInstance, PieceLimit};
use crate::geometry::shapes::{
    cross_box, pentomino_box, picture_cells as shape, shapes, CROSSES, PENTOMINOES,
};
use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;
fn pentominoes() -> Vec<Vec<(i32, i32)>> {
    shapes(&PENTOMINOES)
}
fn crosses() -> Vec<Vec<(i32, i32)>> {
    shapes(&CROSSES)
}
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;

#[test]
fn orientation_counts() {
    let crosses: usize = crosses()
        .iter()
        .map(|s| orientations(s, true, true).len())
        .sum();
    assert_eq!(crosses, 9);
    let counts: Vec<usize> = pentominoes()
        .iter()
        .map(|s| orientations(s, true, true).len())
        .collect();
    assert_eq!(counts, [8, 2, 8, 8, 8, 4, 4, 4, 4, 1, 8, 4]);
    assert_eq!(counts.iter().sum::<usize>(), 63);
    // Rotations only: F, L, N, P, Y give 4 each, I and Z 2, T, U, V, W 4, X 1.
    let rotations_only: usize = pentominoes()
        .iter()
        .map(|s| orientations(s, true, false).len())
        .sum();
    assert_eq!(rotations_only, 41);
    assert_eq!(
        orientations(&shape("##"), false, false),
        vec![vec![(0, 0), (1, 0)]]
    );
}

#[test]
fn cross_box_has_1215_placements() {
    assert_eq!(cross_box(13, 19).placements.len(), 1215);
}

#[test]
fn pentomino_3x20_has_2_tilings_up_to_symmetry() {
    let instance = pentomino_box(20, 3);
    let stop = AtomicBool::new(false);
    let count = count_tilings(&instance, true, &stop).unwrap();
    assert_eq!(count.up_to_symmetry, Some(2));
    assert_eq!(count.raw, 8);
    assert_eq!(count.symmetries, 4);
    let mut tilings = Vec::new();
    enumerate_tilings(&instance, &stop, |t| {
        assert_eq!(instance.check_tiling(t), Ok(12));
        tilings.push(t.to_vec());
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(tilings.len(), 8);
}

#[test]
fn pentomino_6x10_has_9356_tilings_and_2339_up_to_symmetry() {
    let instance = pentomino_box(10, 6);
    let stop = AtomicBool::new(false);
    let count = count_tilings(&instance, true, &stop).unwrap();
    assert_eq!((count.raw, count.up_to_symmetry), (9356, Some(2339)));
    assert!(count.complete);
    let mut raw = 0;
    enumerate_tilings(&instance, &stop, |t| {
        assert_eq!(instance.check_tiling(t), Ok(12));
        raw += 1;
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(raw, 9356);
}

#[test]
fn pentomino_5x12_and_4x15_counts() {
    // Known: 1010 and 368 tilings up to symmetry.
    let stop = AtomicBool::new(false);
    let count = count_tilings(&pentomino_box(12, 5), true, &stop).unwrap();
    assert_eq!((count.raw, count.up_to_symmetry), (4040, Some(1010)));
    let count = count_tilings(&pentomino_box(15, 4), true, &stop).unwrap();
    assert_eq!((count.raw, count.up_to_symmetry), (1472, Some(368)));
}

#[test]
fn pentomino_8x8_with_centre_hole_has_65_tilings_up_to_symmetry() {
    // Dana Scott's problem: 65 solutions up to the 8 symmetries of the square.
    let mut instance = pentomino_box(8, 8);
    let mut blocked = vec![false; 64];
    for c in [27, 28, 35, 36] {
        blocked[c] = true;
    }
    instance
        .placements
        .retain(|p| p.cells.iter().all(|&c| !blocked[c]));
    instance.blocked = blocked;
    let stop = AtomicBool::new(false);
    let count = count_tilings(&instance, true, &stop).unwrap();
    assert_eq!(count.symmetries, 8);
    assert_eq!(count.up_to_symmetry, Some(65));
    assert_eq!(count.raw, 520);
}

fn small_shapes() -> Vec<Vec<(i32, i32)>> {
    [
        "#", "##", "###", "##/#.", "####", "##/##", "###/.#.", "###/#..", "##./.##",
    ]
    .iter()
    .map(|p| shape(p))
    .collect()
}

fn random_instance(rng: &mut impl Rng, max_side: usize) -> PackingInstance {
    let width = rng.gen_range(2..=max_side);
    let height = rng.gen_range(2..=max_side);
    let blocked: Vec<bool> = (0..width * height).map(|_| rng.gen_bool(0.15)).collect();
    PackingInstance::from_shapes(width, height, blocked, &random_pieces(rng, false))
}

/// One to three small pieces with random limits; with `turn`, every orientation allowed.
fn random_pieces(rng: &mut impl Rng, turn: bool) -> Vec<PieceShapes> {
    let shapes = small_shapes();
    let count = rng.gen_range(1..=3);
    (0..count)
        .map(|_| {
            let s = &shapes[rng.gen_range(1..shapes.len())];
            let limit = match rng.gen_range(0..4) {
                0 => PieceLimit::unlimited(),
                1 => PieceLimit::at_most(rng.gen_range(1..3)),
                2 => PieceLimit {
                    min: 1,
                    max: Some(rng.gen_range(1..4)),
                },
                _ => PieceLimit::exactly(rng.gen_range(0..3)),
            };
            let (rotate, reflect) = (turn || rng.gen_bool(0.7), turn || rng.gen_bool(0.5));
            (orientations(s, rotate, reflect), limit)
        })
        .collect()
}

/// The largest packing respecting the limits, by trying every set of disjoint placements.
fn brute_force_max(instance: &PackingInstance) -> Option<usize> {
    fn go(
        inst: &PackingInstance,
        next: usize,
        covered: &mut Vec<bool>,
        used: &mut Vec<usize>,
        placed: usize,
        best: &mut Option<usize>,
    ) {
        if inst
            .pieces
            .iter()
            .zip(used.iter())
            .all(|(l, &n)| n >= l.min)
        {
            *best = Some(best.map_or(placed, |b| b.max(placed)));
        }
        for i in next..inst.placements.len() {
            let p = &inst.placements[i];
            if !inst.pieces[p.piece].allows_more(used[p.piece])
                || p.cells.iter().any(|&c| covered[c])
            {
                continue;
            }
            p.cells.iter().for_each(|&c| covered[c] = true);
            used[p.piece] += 1;
            go(inst, i + 1, covered, used, placed + 1, best);
            used[p.piece] -= 1;
            p.cells.iter().for_each(|&c| covered[c] = false);
        }
    }
    let mut best = None;
    let mut covered = instance.blocked.clone();
    let mut used = vec![0; instance.pieces.len()];
    go(instance, 0, &mut covered, &mut used, 0, &mut best);
    best
}

/// Every configuration of [`maximise`]: the doll's table or the area bound, each on the
/// fewest words and on wider boards.
fn configurations() -> Vec<PackingOptions<'static>> {
    let mut all = Vec::new();
    for table in [true, false] {
        for words in [0, 3] {
            all.push(PackingOptions {
                table,
                words,
                doll: DollOptions {
                    threads: 1,
                    memo_log2: 10,
                    ..DollOptions::default()
                },
                ..PackingOptions::default()
            });
        }
    }
    all
}

#[test]
fn maximise_matches_brute_force_in_every_configuration() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2024);
    let (mut with_minimums, mut searched) = (0, 0);
    for case in 0..150 {
        let mut instance = random_instance(&mut rng, 5);
        if case % 2 == 0 {
            instance = PackingInstance::from_shapes(
                instance.width,
                instance.height,
                vec![false; instance.width * instance.height],
                &random_pieces(&mut rng, true),
            );
        }
        if case % 3 == 0 {
            // Force a minimum: the branch and bound runs only with one.
            let piece = rng.gen_range(0..instance.pieces.len());
            let limit = &mut instance.pieces[piece];
            limit.min = limit.min.max(1);
            limit.max = limit.max.map(|m| m.max(1));
        }
        let minimums = instance.pieces.iter().any(|l| l.min > 0);
        with_minimums += usize::from(minimums);
        let expected = brute_force_max(&instance);
        for options in configurations() {
            let outcome = maximise(&instance, &options, |_| {}).unwrap();
            assert!(outcome.proved);
            let found = outcome
                .best
                .as_ref()
                .map(|b| instance.check_packing(b).unwrap());
            assert_eq!(found, expected, "case {case} {options:?}\n{instance:?}");
            searched += usize::from(outcome.stats.nodes > outcome.stats.table_nodes);
            let Some(best) = expected else { continue };
            assert_eq!(outcome.bound, best);
            // Decisions at the optimum and just above it.
            for (k, reachable) in [(best, true), (best + 1, false)] {
                let options = PackingOptions {
                    goal: PackingGoal::AtLeast(k),
                    ..options
                };
                let outcome = maximise(&instance, &options, |_| {}).unwrap();
                assert!(outcome.proved);
                let len = outcome
                    .best
                    .as_ref()
                    .map(|b| instance.check_packing(b).unwrap());
                assert_eq!(len.is_some_and(|n| n >= k), reachable, "case {case} k {k}");
                if !reachable {
                    assert!(outcome.bound < k);
                }
            }
        }
    }
    assert!(
        with_minimums >= 60,
        "only {with_minimums} instances had minimums"
    );
    // The branch and bound ran, not only the doll.
    assert!(
        searched >= 100,
        "the branch and bound ran only {searched} times"
    );
}

#[test]
fn wide_board_operations_match_u128() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    for _ in 0..200 {
        let (a, b): (u128, u128) = (rng.gen(), rng.gen());
        let wide = |x: u128| Wide::<3>([x as u64, (x >> 64) as u64, 0]);
        let narrow = |w: Wide<3>| w.0[0] as u128 | (w.0[1] as u128) << 64;
        let n = rng.gen_range(0..130);
        assert_eq!(narrow(wide(a).and(wide(b))), a & b);
        assert_eq!(narrow(wide(a).without(wide(b))), a & !b);
        assert_eq!(narrow(wide(a).shl(n)), a.checked_shl(n).unwrap_or(0));
        assert_eq!(wide(a).count(), a.count_ones());
        assert_eq!(narrow(wide(a).lowest()), a & a.wrapping_neg());
        // Bits pushed out of the low two words land in the third.
        let high = wide(a).shl(n);
        let spill = if n == 0 {
            0
        } else {
            a.checked_shr(128 - n).unwrap_or(0)
        };
        assert_eq!(high.0[2] as u128, spill & u64::MAX as u128);
    }
}

/// Tilings up to symmetry by brute force: canonicalise every raw tiling under the group.
fn orbits_by_brute_force(instance: &PackingInstance) -> (u64, u64) {
    let group = symmetry_group(instance);
    let stop = AtomicBool::new(false);
    let mut classes = BTreeSet::new();
    let mut raw = 0;
    enumerate_tilings(instance, &stop, |t| {
        raw += 1;
        let canonical = group
            .iter()
            .map(|g| {
                let mut image: Vec<usize> = t.iter().map(|&i| g[i]).collect();
                image.sort_unstable();
                image
            })
            .min()
            .unwrap();
        classes.insert(canonical);
        ControlFlow::Continue(())
    })
    .unwrap();
    (raw, classes.len() as u64)
}

#[test]
fn symmetric_counts_match_brute_force_orbits() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(99);
    let shapes = small_shapes();
    let mut checked = 0;
    for _ in 0..60 {
        let width = rng.gen_range(2..=5);
        let height = if rng.gen_bool(0.4) {
            width
        } else {
            rng.gen_range(2..=5)
        };
        let pieces: Vec<_> = (0..rng.gen_range(1..=4))
            .map(|_| {
                let s = &shapes[rng.gen_range(0..shapes.len())];
                let limit = match rng.gen_range(0..3) {
                    0 => PieceLimit::exactly(1),
                    1 => PieceLimit::unlimited(),
                    _ => PieceLimit::at_most(2),
                };
                (orientations(s, true, true), limit)
            })
            .collect();
        let instance =
            PackingInstance::from_shapes(width, height, vec![false; width * height], &pieces);
        let stop = AtomicBool::new(false);
        let count = count_tilings(&instance, true, &stop).unwrap();
        let (raw, orbits) = orbits_by_brute_force(&instance);
        assert_eq!((count.raw, count.up_to_symmetry), (raw, Some(orbits)));
        // Every engine agrees, with and without symmetry.
        for symmetry in [false, true] {
            let links =
                count_tilings_with(&instance, symmetry, TilingEngine::DancingLinks, &stop).unwrap();
            assert_eq!(links.raw, raw);
            for (regions, words) in [(true, 0), (false, 0), (true, 3)] {
                let engine = TilingEngine::Bitboard { regions, words };
                let bits = count_tilings_with(&instance, symmetry, engine, &stop).unwrap();
                assert_eq!(
                    (bits.raw, bits.up_to_symmetry),
                    (links.raw, links.up_to_symmetry),
                    "{engine:?}"
                );
            }
        }
        checked += u64::from(raw > 0);
    }
    assert!(checked > 10, "too few instances with tilings: {checked}");
}

#[test]
fn counted_pieces_use_exact_multiplicities() {
    // 2 x 4 box, dominoes exactly 2 and squares at most 1: tilings with two dominoes and a
    // square, or... only 2 + 2 + 4 = 8 cells: the square and two dominoes.
    let pieces = vec![
        (
            orientations(&shape("##"), true, false),
            PieceLimit::exactly(2),
        ),
        (
            orientations(&shape("##/##"), false, false),
            PieceLimit::at_most(1),
        ),
    ];
    let instance = PackingInstance::from_shapes(4, 2, vec![false; 8], &pieces);
    let stop = AtomicBool::new(false);
    let mut seen = 0;
    enumerate_tilings(&instance, &stop, |t| {
        instance.check_tiling(t).unwrap();
        seen += 1;
        ControlFlow::Continue(())
    })
    .unwrap();
    // Square at x = 0, 1 or 2; the remaining 2 x 2 or two 2 x 1 strips take two dominoes in
    // 2, 1 and 2 ways.
    assert_eq!(seen, 5);
}

#[test]
fn cross_box_small_optimum_and_stop() {
    // 5 x 5 holds one cross; 9 x 9 holds... check against the decision on both sides.
    let options = PackingOptions::default();
    let outcome = maximise(&cross_box(5, 5), &options, |_| {}).unwrap();
    assert_eq!((outcome.best_len(), outcome.proved), (1, true));
    let instance = cross_box(10, 10);
    let outcome = maximise(&instance, &options, |_| {}).unwrap();
    assert!(outcome.proved);
    instance
        .check_packing(outcome.best.as_ref().unwrap())
        .unwrap();
    let stop = AtomicBool::new(true);
    let options = PackingOptions {
        stop: Some(&stop),
        ..PackingOptions::default()
    };
    let outcome = maximise(&cross_box(13, 19), &options, |_| {}).unwrap();
    assert!(!outcome.proved);
    assert!(outcome.bound >= outcome.best_len());
}

#[test]
fn bad_instances_are_rejected() {
    let mut instance = cross_box(5, 5);
    instance.placements[0].cells.push(99);
    assert!(matches!(
        maximise(&instance, &PackingOptions::default(), |_| {}),
        Err(MaximiseError::Instance(PackingError::BadPlacement {
            placement: 0,
            ..
        }))
    ));
    let mut instance = cross_box(5, 5);
    instance.blocked.pop();
    assert!(count_tilings(&instance, false, &AtomicBool::new(false)).is_err());
}
