//! The searches against published values and against a brute force over every subset of
//! small boards with obstacles.

use super::*;
use crate::base::shard::Shard;

fn empty(width: usize, height: usize) -> Board {
    Board {
        width,
        height,
        free: vec![true; width * height],
    }
}

fn optimum(piece: Piece, question: Question, n: usize) -> usize {
    let answer = solve(
        &Instance::new(&empty(n, n), piece, question),
        None,
        &Control::unlimited(),
    );
    assert!(
        answer.proven && !answer.stopped,
        "{piece:?} {question:?} {n}"
    );
    let best = answer.best.expect("an optimum");
    assert_eq!(best.len(), answer.bound, "{piece:?} {question:?} {n}");
    best.len()
}

#[test]
fn queen_domination_numbers_are_the_published_ones() {
    for (n, gamma) in [1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6].into_iter().enumerate() {
        assert_eq!(
            optimum(Piece::Queen, Question::Dominate, n + 1),
            gamma,
            "n = {}",
            n + 1
        );
    }
}

#[test]
fn independent_queen_domination_numbers_are_the_published_ones() {
    for (n, i) in [1, 1, 1, 3, 3, 4, 4, 5, 5, 5, 5, 7].into_iter().enumerate() {
        let q = Question::IndependentDominate;
        assert_eq!(optimum(Piece::Queen, q, n + 1), i, "n = {}", n + 1);
    }
}

#[test]
fn knight_domination_numbers_are_the_published_ones() {
    for (n, gamma) in [1, 4, 4, 4, 5, 8, 10, 12, 14, 16].into_iter().enumerate() {
        assert_eq!(
            optimum(Piece::Knight, Question::Dominate, n + 1),
            gamma,
            "n = {}",
            n + 1
        );
    }
}

#[test]
fn kings_rooks_and_bishops_dominate_as_known() {
    for n in 1..=9usize {
        let kings = n.div_ceil(3) * n.div_ceil(3);
        assert_eq!(
            optimum(Piece::King, Question::Dominate, n),
            kings,
            "kings {n}"
        );
    }
    for n in 1..=5 {
        assert_eq!(optimum(Piece::Rook, Question::Dominate, n), n, "rooks {n}");
    }
    // The search alone, without the border bound the puzzle states: odd sides included.
    for n in 1..=9 {
        assert_eq!(
            optimum(Piece::Bishop, Question::Dominate, n),
            n,
            "bishops {n}"
        );
    }
}

#[test]
fn independent_pieces_are_as_many_as_known() {
    for n in 1..=8 {
        let queens = match n {
            1 | 2 => 1,
            3 => 2,
            _ => n,
        };
        assert_eq!(
            optimum(Piece::Queen, Question::Independent, n),
            queens,
            "queens {n}"
        );
        assert_eq!(
            optimum(Piece::Rook, Question::Independent, n),
            n,
            "rooks {n}"
        );
        let kings = n.div_ceil(2) * n.div_ceil(2);
        assert_eq!(
            optimum(Piece::King, Question::Independent, n),
            kings,
            "kings {n}"
        );
    }
    for n in 2..=6 {
        assert_eq!(
            optimum(Piece::Bishop, Question::Independent, n),
            2 * n - 2,
            "bishops {n}"
        );
    }
    for n in 3..=6usize {
        let knights = (n * n).div_ceil(2);
        assert_eq!(
            optimum(Piece::Knight, Question::Independent, n),
            knights,
            "knights {n}"
        );
    }
}

#[test]
fn five_queens_dominate_8_by_8_in_4860_ways_638_up_to_symmetry() {
    let instance = Instance::new(&empty(8, 8), Piece::Queen, Question::Dominate);
    let mut representatives = 0;
    let mut hand = |_: &[usize]| representatives += 1;
    let answer = count(
        &instance,
        5,
        None,
        true,
        &Control::unlimited(),
        Some(&mut hand),
    );
    assert!(answer.complete);
    assert_eq!(answer.count, 4860);
    assert_eq!(answer.classes.values().sum::<u64>(), 638);
    assert_eq!(representatives, 638);
    let weighted: u64 = answer
        .classes
        .iter()
        .map(|(&size, &n)| size as u64 * n)
        .sum();
    assert_eq!(weighted, 4860);
}

#[test]
fn minimum_queen_dominating_sets_are_counted_as_published() {
    // OEIS A002564 (all) and A002563 (up to symmetry), n = 1..12.
    let all = [1, 4, 1, 12, 186, 4, 86, 4860, 114, 8, 2, 8];
    let classes = [1, 1, 1, 3, 37, 1, 13, 638, 21, 1, 1, 1];
    for n in 1..=12 {
        let instance = Instance::new(&empty(n, n), Piece::Queen, Question::Dominate);
        let gamma = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6][n - 1];
        // By classes, the search using the symmetries; then every placement, without.
        let answer = count(&instance, gamma, None, true, &Control::unlimited(), None);
        assert_eq!(answer.count, all[n - 1], "n = {n}");
        assert_eq!(
            answer.classes.values().sum::<u64>(),
            classes[n - 1],
            "n = {n}"
        );
        assert_eq!(answer.subproblems.0, answer.subproblems.1);
        let plain = count(&instance, gamma, None, false, &Control::unlimited(), None);
        assert_eq!(plain.count, all[n - 1], "n = {n} without symmetries");
    }
}

#[test]
fn classes_listed_by_the_symmetric_search_are_the_least_members_of_distinct_classes() {
    let instance = Instance::new(&empty(7, 7), Piece::Queen, Question::Dominate);
    let symmetries = &instance.symmetries;
    let mut listed = Vec::new();
    let mut hand = |p: &[usize]| listed.push(p.to_vec());
    let answer = count(
        &instance,
        4,
        None,
        true,
        &Control::unlimited(),
        Some(&mut hand),
    );
    assert_eq!((answer.count, listed.len()), (86, 13));
    let mut members = 0;
    for cells in &listed {
        // Row-major cells are the free-square indices on an empty board.
        assert!(symmetries.class_of_least(cells).is_some(), "{cells:?}");
        members += symmetries.images(cells).len();
    }
    listed.sort();
    listed.dedup();
    assert_eq!((listed.len(), members), (13, 86));
}

/// A seeded random board: each cell an obstacle with probability about `percent` / 100.
fn random_board(width: usize, height: usize, percent: u64, seed: &mut u64) -> Board {
    let free = (0..width * height)
        .map(|_| {
            *seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (*seed >> 33) % 100 >= percent
        })
        .collect();
    Board {
        width,
        height,
        free,
    }
}

/// Every subset of the free squares: the optimum, its placements (sorted row-major cells),
/// and the number of classes among them.
fn brute_force(board: &Board, piece: Piece, question: Question) -> (usize, Vec<Vec<usize>>, u64) {
    let cells: Vec<usize> = (0..board.free.len()).filter(|&c| board.free[c]).collect();
    let table = attack_table(board, piece);
    let m = cells.len();
    assert!(m <= 20);
    let mut by_size: BTreeMap<usize, Vec<Vec<usize>>> = BTreeMap::new();
    for mask in 0u32..1 << m {
        let chosen: Vec<usize> = (0..m)
            .filter(|&i| mask >> i & 1 == 1)
            .map(|i| cells[i])
            .collect();
        let attacked = |c: usize| chosen.iter().any(|&p| table[p].contains(&c));
        if question.independent() && chosen.iter().any(|&c| attacked(c)) {
            continue;
        }
        if question.minimises() && !cells.iter().all(|&c| chosen.contains(&c) || attacked(c)) {
            continue;
        }
        by_size.entry(chosen.len()).or_default().push(chosen);
    }
    let (&value, placements) = if question.minimises() {
        by_size.iter().next().unwrap()
    } else {
        by_size.iter().next_back().unwrap()
    };
    let maps = board.symmetry_maps();
    let classes = placements
        .iter()
        .filter(|p| {
            maps.iter().all(|map| {
                let mut image: Vec<usize> = p.iter().map(|&c| map[c]).collect();
                image.sort_unstable();
                image >= **p
            })
        })
        .count() as u64;
    (value, placements.clone(), classes)
}

#[test]
fn every_question_agrees_with_a_brute_force_on_random_boards() {
    let mut seed = 2024;
    let questions = [
        Question::Dominate,
        Question::IndependentDominate,
        Question::Independent,
    ];
    for round in 0..36 {
        let (width, height) = [(4, 4), (3, 5), (4, 5), (5, 4), (2, 6), (5, 5)][round % 6];
        let percent = if width * height > 20 { 30 } else { 15 };
        let mut board = random_board(width, height, percent, &mut seed);
        while board.free.iter().filter(|&&f| f).count() > 18 {
            board = random_board(width, height, percent, &mut seed);
        }
        for piece in Piece::ALL {
            for question in questions {
                let (value, mut placements, classes) = brute_force(&board, piece, question);
                let what = format!("{board:?} {piece:?} {question:?}");
                let instance = Instance::new(&board, piece, question);
                let answer = solve(&instance, None, &Control::unlimited());
                assert_eq!(answer.best.as_ref().map(Vec::len), Some(value), "{what}");
                assert!(answer.proven && answer.bound == value, "{what}");
                assert!(placements.contains(answer.best.as_ref().unwrap()), "{what}");

                let mut seen = Vec::new();
                let all = count(
                    &instance,
                    value,
                    None,
                    false,
                    &Control::unlimited(),
                    Some(&mut |p: &[usize]| seen.push(p.to_vec())),
                );
                assert_eq!(all.count, placements.len() as u64, "{what}");
                seen.sort();
                placements.sort();
                assert_eq!(seen, placements, "{what}");

                let unique = count(&instance, value, None, true, &Control::unlimited(), None);
                assert_eq!(unique.classes.values().sum::<u64>(), classes, "{what}");
                let mut sharded = 0;
                for index in 1..=3 {
                    let shard = Some(Shard { index, count: 3 });
                    let part = count(&instance, value, shard, false, &Control::unlimited(), None);
                    sharded += part.count;
                }
                assert_eq!(sharded, all.count, "{what}");
            }
        }
    }
}

#[test]
fn a_limit_is_met_or_refuted() {
    let board = empty(6, 6);
    let dominate = Instance::new(&board, Piece::Queen, Question::Dominate);
    let none = solve(&dominate, Some(2), &Control::unlimited());
    assert!(none.best.is_none() && none.proven && none.bound == 3);
    let three = solve(&dominate, Some(3), &Control::unlimited());
    assert_eq!(three.best.map(|b| b.len()), Some(3));
    let independent = Instance::new(&board, Piece::Knight, Question::Independent);
    let many = solve(&independent, Some(18), &Control::unlimited());
    assert_eq!(many.best.map(|b| b.len()), Some(18));
    let too_many = solve(&independent, Some(19), &Control::unlimited());
    assert!(too_many.best.is_none() && too_many.proven && too_many.bound <= 18);
}

#[test]
fn a_known_bound_ends_the_search_at_a_placement_that_meets_it() {
    let board = empty(12, 12);
    let rooks = Instance::new(&board, Piece::Rook, Question::Dominate).with_known_bound(12);
    let answer = solve(&rooks, None, &Control::unlimited());
    assert!(answer.proven && answer.best.map(|b| b.len()) == Some(12));
}

#[test]
fn random_probes_estimate_the_nodes_of_a_refutation() {
    for (n, pieces) in [(8, 4), (9, 4), (10, 4), (11, 4), (12, 5)] {
        let instance = Instance::new(&empty(n, n), Piece::Queen, Question::Dominate);
        let control = Control::unlimited();
        let refuted = solve(&instance, Some(pieces), &control);
        assert!(refuted.best.is_none() && refuted.proven, "n = {n}");
        let guess = estimate(&instance, pieces, 400, 1, &control).unwrap();
        assert!(!guess.found && guess.probes == 400, "n = {n}");
        let off = (guess.nodes - refuted.nodes as f64).abs();
        assert!(
            off <= 4.0 * guess.error + 1e-9,
            "n = {n}: {guess:?} against {} nodes",
            refuted.nodes
        );
    }
    // Where every probe is the same, the estimate is the tree's size.
    let instance = Instance::new(&empty(11, 11), Piece::Queen, Question::Dominate);
    let guess = estimate(&instance, 4, 50, 7, &Control::unlimited()).unwrap();
    assert_eq!((guess.nodes, guess.error), (12.0, 0.0));
    let most = Instance::new(&empty(4, 4), Piece::Queen, Question::Independent);
    assert!(estimate(&most, 4, 10, 1, &Control::unlimited()).is_none());
}

#[test]
fn the_local_search_reaches_knight_domination_numbers_from_the_greedy_placement() {
    // Published: 12 on 8 x 8, 16 on 10 x 10, 24 on 12 x 12; the greedy placement has more.
    for (n, gamma) in [(8, 12), (10, 16), (12, 24)] {
        let instance = Instance::new(&empty(n, n), Piece::Knight, Question::Dominate);
        let start = search::greedy(&instance);
        assert!(start.len() > gamma, "n = {n}: greedy {}", start.len());
        let mut local = local::LocalSearch::new(&instance, &start);
        assert_eq!(
            local.run(gamma, 2_000_000, &Control::unlimited()),
            gamma,
            "n = {n}"
        );
        let best = local.best();
        assert_eq!(best.len(), gamma);
        let guarded: std::collections::BTreeSet<usize> = best
            .iter()
            .flat_map(|&p| instance.near.list(p).iter().map(|&v| v as usize))
            .collect();
        assert_eq!(guarded.len(), instance.free_squares(), "n = {n}");
        // It stops at the target, and goes no further.
        assert_eq!(local.run(gamma, 1_000, &Control::unlimited()), gamma);
    }
}
