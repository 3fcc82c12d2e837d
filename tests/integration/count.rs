//! Counting and enumeration: known answers (OEIS A000170, A002562), native against SAT on
//! random obstacle boards, every listed solution verified and distinct, shards that add up.

use crate::common;

use common::{models, puzzlec, seeded_board};
use puzzlec::base::shard::Shard;
use puzzlec::base::Control;
use puzzlec::driver::enumerate::{enumerate, merge, EnumerateOptions};
use puzzlec::driver::Backend;
use puzzlec::puzzle::queens::Queens;
use puzzlec::puzzle::{Puzzle, Solution};
use std::collections::HashSet;

/// OEIS A000170: N-queens solutions on an N x N board, N = 1..12.
const A000170: [u64; 12] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];

/// Lists every optimal solution with `backend`, checking each against the rules and that
/// none repeats; returns them with the reported count.
fn listed(puzzle: &Puzzle, backend: Backend, unique: bool) -> (Vec<Solution>, u64, Option<u64>) {
    let mut solutions = Vec::new();
    let options = EnumerateOptions {
        list: true,
        unique,
        ..EnumerateOptions::default()
    };
    let outcome = enumerate(puzzle, backend, &options, &Control::unlimited(), &mut |s| {
        solutions.push(s.clone())
    })
    .unwrap();
    assert!(outcome.complete);
    for solution in &solutions {
        puzzle.verify(solution).unwrap();
    }
    let distinct: HashSet<_> = solutions.iter().map(|s| format!("{s:?}")).collect();
    assert_eq!(
        distinct.len(),
        solutions.len(),
        "a solution was listed twice"
    );
    (solutions, outcome.count, outcome.unique_count)
}

fn count(puzzle: &Puzzle, backend: Backend, at_least: Option<usize>, shard: Option<Shard>) -> u64 {
    let options = EnumerateOptions {
        at_least,
        shard,
        ..EnumerateOptions::default()
    };
    let outcome = enumerate(
        puzzle,
        backend,
        &options,
        &Control::unlimited(),
        &mut |_| {},
    )
    .unwrap();
    assert!(outcome.complete);
    outcome.count
}

#[test]
fn native_counts_match_a000170_for_n_1_to_12() {
    for (n, &expected) in (1..).zip(A000170.iter()) {
        let puzzle = Puzzle::Queens(Queens::empty(n));
        // "At least N" queens: for N = 2 and 3 the optimum is below N and the answer is 0.
        assert_eq!(
            count(&puzzle, Backend::Native, Some(n), None),
            expected,
            "N = {n}"
        );
    }
}

#[test]
fn native_listing_matches_a000170_for_n_1_to_9() {
    for n in [1, 4, 5, 6, 7, 8, 9] {
        let puzzle = Puzzle::Queens(Queens::empty(n));
        let (solutions, counted, _) = listed(&puzzle, Backend::Native, false);
        assert_eq!(solutions.len() as u64, A000170[n - 1], "N = {n}");
        assert_eq!(counted, A000170[n - 1], "N = {n}");
    }
}

#[test]
fn sat_enumeration_matches_a000170_for_n_1_to_9() {
    for n in 1..=9 {
        let puzzle = Puzzle::Queens(Queens::empty(n));
        assert_eq!(
            count(&puzzle, Backend::Sat, Some(n), None),
            A000170[n - 1],
            "N = {n}"
        );
    }
}

#[test]
fn small_boards_below_n_count_their_own_optimum() {
    // 2 x 2: one queen anywhere. 3 x 3: two queens a knight's move apart, 8 ways.
    for (n, expected) in [(2, 4), (3, 8)] {
        let puzzle = Puzzle::Queens(Queens::empty(n));
        assert_eq!(count(&puzzle, Backend::Native, None, None), expected);
        assert_eq!(count(&puzzle, Backend::Sat, None, None), expected);
    }
}

#[test]
fn eight_queens_has_92_solutions_in_12_classes() {
    let puzzle = Puzzle::Queens(Queens::empty(8));
    for backend in [Backend::Native, Backend::Sat] {
        let (all, count, _) = listed(&puzzle, backend, false);
        assert_eq!((all.len(), count), (92, 92));
        let (representatives, count, unique) = listed(&puzzle, backend, true);
        assert_eq!((representatives.len(), count, unique), (12, 92, Some(12)));
    }
    // The symmetry-class counter (no listing) agrees, with its class sizes.
    let options = EnumerateOptions {
        unique: true,
        ..EnumerateOptions::default()
    };
    let outcome = enumerate(
        &puzzle,
        Backend::Native,
        &options,
        &Control::unlimited(),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!((outcome.count, outcome.unique_count), (92, Some(12)));
    assert_eq!(
        outcome.classes.into_iter().collect::<Vec<_>>(),
        [(4, 1), (8, 11)]
    );
}

#[test]
fn native_and_sat_enumeration_agree_on_120_random_obstacle_boards() {
    for seed in 0..120 {
        let board = seeded_board(seed, 9);
        let puzzle = Puzzle::Queens(board.clone());
        let (native, native_count, native_unique) = listed(&puzzle, Backend::Native, true);
        let (sat, sat_count, sat_unique) = listed(&puzzle, Backend::Sat, true);
        assert_eq!(native_count, sat_count, "seed {seed}: {board:?}");
        assert_eq!(native_unique, sat_unique, "seed {seed}");
        assert_eq!(native.len(), sat.len(), "seed {seed}");
        let (all_native, _, _) = listed(&puzzle, Backend::Native, false);
        let all_sat: HashSet<String> = listed(&puzzle, Backend::Sat, false)
            .0
            .iter()
            .map(|s| format!("{s:?}"))
            .collect();
        assert_eq!(all_native.len() as u64, native_count, "seed {seed}");
        assert!(
            all_native
                .iter()
                .all(|s| all_sat.contains(&format!("{s:?}"))),
            "seed {seed}: the backends listed different solutions"
        );
        // The memoised count (no listing) gives the same number.
        assert_eq!(
            count(&puzzle, Backend::Native, None, None),
            native_count,
            "seed {seed}"
        );
    }
}

#[test]
fn shards_add_up_to_the_unsharded_count() {
    let mut boards: Vec<Queens> = (0..6).map(|seed| seeded_board(1000 + seed, 9)).collect();
    boards.push(Queens::empty(10));
    boards.push(Queens::empty(9));
    for board in boards {
        let puzzle = Puzzle::Queens(board);
        let whole = count(&puzzle, Backend::Native, None, None);
        for shards in [2, 3, 7] {
            let sum: u64 = (1..=shards)
                .map(|index| {
                    count(
                        &puzzle,
                        Backend::Native,
                        None,
                        Some(Shard {
                            index,
                            count: shards,
                        }),
                    )
                })
                .sum();
            assert_eq!(sum, whole, "{shards} shards");
        }
    }
}

#[test]
fn contest_board_has_5898_optimal_placements_by_both_backends() {
    let dir = models();
    for backend in ["native", "sat"] {
        let run = puzzlec(
            &dir,
            &[
                "solve",
                "obstacle-queens.toml",
                "--count",
                "--backend",
                backend,
            ],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(run.stdout, "5898\n");
        assert!(
            run.stderr.contains("optimal solutions (value 20)"),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn all_prints_92_boards_eight_side_by_side_then_the_count() {
    let run = puzzlec(&models(), &["solve", "queens-8.toml", "--all"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    // 12 bands (11 full, one of 4 boards) of 8 rows and a blank line, then the count.
    assert_eq!(lines.len(), 12 * 9 + 1);
    assert_eq!(lines.last(), Some(&"92"));
    assert_eq!(lines[0].len(), 8 * 9);
    assert!(lines[0].starts_with(' '));
    assert_eq!(lines[8], "");
    assert_eq!(lines[11 * 9].len(), 4 * 9);
    let queens: usize = lines.iter().map(|l| l.matches('Q').count()).sum();
    assert_eq!(queens, 92 * 8);
    let unique = puzzlec(
        &models(),
        &["solve", "queens-8.toml", "--count", "--unique"],
    );
    assert_eq!(
        unique.stdout,
        "12\nclasses: 11 of size 8, 1 of size 4; 92 solutions\n"
    );
}

#[test]
fn merge_adds_up_shard_files_and_rejects_mixtures() {
    let dir = tempfile::tempdir().unwrap();
    let model = models().join("obstacle-queens.toml");
    let other = models().join("queens-8.toml");
    let shard_file = |model: &std::path::Path, shard: &str, name: &str| {
        let run = puzzlec(
            dir.path(),
            &[
                "solve",
                model.to_str().unwrap(),
                "--count",
                "--shard",
                shard,
                "--json",
            ],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(run.stderr.contains("partial count"), "{}", run.stderr);
        std::fs::write(dir.path().join(name), run.stdout).unwrap();
    };
    shard_file(&model, "1/3", "a.json");
    shard_file(&model, "2/3", "b.json");
    shard_file(&model, "3/3", "c.json");
    shard_file(&other, "3/3", "other.json");
    let run = puzzlec(dir.path(), &["merge", "a.json", "b.json", "c.json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "5898\n");

    let missing = puzzlec(dir.path(), &["merge", "a.json", "b.json"]);
    assert_eq!(missing.code, 2);
    assert_eq!(missing.stderr, "error: a.json: shards missing: 3/3\n");
    let twice = puzzlec(dir.path(), &["merge", "a.json", "a.json", "c.json"]);
    assert_eq!(twice.code, 2);
    assert!(twice.stderr.contains("given twice"), "{}", twice.stderr);
    let mixed = puzzlec(dir.path(), &["merge", "a.json", "b.json", "other.json"]);
    assert_eq!(mixed.code, 2);
    assert!(mixed.stderr.contains("different model"), "{}", mixed.stderr);
    std::fs::write(dir.path().join("bad.json"), "{\n  \"count\": \n").unwrap();
    let bad = puzzlec(dir.path(), &["merge", "bad.json"]);
    assert_eq!(bad.code, 2);
    assert_eq!(bad.stderr.lines().count(), 1);
    assert!(
        bad.stderr.starts_with("error: bad.json:3: not JSON"),
        "{}",
        bad.stderr
    );
}

#[test]
fn merge_library_checks_goals() {
    let a = r#"{"model":"m","model_digest":"d","goal":"count optimal","backend":"native","value":8,"shard":{"index":1,"count":2},"count":40,"unique_count":null,"complete":true}"#;
    let b = r#"{"model":"m","model_digest":"d","goal":"count optimal, unique","backend":"native","value":8,"shard":{"index":2,"count":2},"count":52,"unique_count":7,"complete":true}"#;
    let err = merge(&[("a".into(), a.into()), ("b".into(), b.into())])
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("b:1: a shard of a different goal"), "{err}");
    let c = a.replace("\"index\":1", "\"index\":2").replace("40", "52");
    let total = merge(&[("a".into(), a.into()), ("c".into(), c)]).unwrap();
    assert_eq!(total.count, 92);
}

#[test]
fn merge_refuses_hand_edited_shards_without_panicking_or_allocating() {
    let file = |index: u64, count: u64| {
        format!(
            r#"{{"model":"m","model_digest":"d","goal":"count","backend":"native","value":null,"shard":{{"index":{index},"count":{count}}},"count":40,"unique_count":null,"complete":true}}"#
        )
    };
    let error = |index: u64, count: u64| {
        merge(&[("a".into(), file(index, count))])
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        error(0, 2),
        "a:1: invalid shard \"0/2\": shards are numbered from 1, so the index must be 1..=2"
    );
    assert_eq!(
        error(3, 2),
        "a:1: invalid shard \"3/2\": index 3 is larger than the shard count 2 (expected 1..=2)"
    );
    // Beyond u32: refused, not truncated to shard 1/1.
    assert_eq!(
        error(1, (1 << 32) + 1),
        "a:1: invalid shard \"1/4294967297\": expected INDEX/COUNT with whole numbers, like 3/8"
    );
    // Four billion shards, one given: the first 20 missing are named, the rest counted.
    let listed: Vec<String> = (2..=21).map(|i| format!("{i}/4000000000")).collect();
    assert_eq!(
        error(1, 4_000_000_000),
        format!(
            "a: shards missing: {} and 3999999979 more",
            listed.join(", ")
        )
    );
}

#[test]
fn shard_on_sat_is_refused() {
    let run = puzzlec(
        &models(),
        &[
            "solve",
            "queens-8.toml",
            "--count",
            "--backend",
            "sat",
            "--shard",
            "1/2",
        ],
    );
    // A flag that does not apply is bad input (exit 2), not an internal failure.
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("--shard splits native counts only"),
        "{}",
        run.stderr
    );
    let bad = puzzlec(
        &models(),
        &["solve", "queens-8.toml", "--count", "--shard", "4/3"],
    );
    assert_eq!(bad.code, 2);
}
