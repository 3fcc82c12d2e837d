//! The chess family: published domination and independence numbers, every backend agreeing
//! on seeded random boards with obstacles, counts by two methods, and bad model files.

use crate::common;

use common::{models, puzzlec};
use itertools::Itertools;
use puzzlec::base::{Control, Goal, Sense, Status};
use puzzlec::driver::{enumerate, solve, Backend, EnumerateOptions};
use puzzlec::geometry::board::Board;
use puzzlec::geometry::isometry::RectSymmetry;
use puzzlec::puzzle::chess::{Chess, ChessSolution, Piece, Question};
use puzzlec::puzzle::{load_model_file, Family, Puzzle};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The optimum by `backend`, proved, its witness verified.
fn optimum(chess: &Chess, backend: Backend) -> usize {
    let puzzle = Puzzle::Chess(chess.clone());
    let outcome = solve(&puzzle, backend, Goal::Maximise, &Control::unlimited()).unwrap();
    assert_eq!(
        outcome.status,
        Status::Optimal,
        "{} {:?} {:?} {}x{}: {}",
        backend.name(),
        chess.piece,
        chess.question,
        chess.board.width,
        chess.board.height,
        outcome.evidence
    );
    puzzle.verify(outcome.solution.as_ref().unwrap()).unwrap();
    assert_eq!(outcome.bound, outcome.value, "an optimum is its own bound");
    outcome.value.unwrap()
}

fn square(n: usize, piece: Piece, question: Question) -> Chess {
    Chess::empty(n, n, piece, question)
}

#[test]
fn queen_domination_numbers_are_the_published_ones() {
    // Domination and independent domination of the n x n board by queens, n = 1..11.
    let dominate = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5];
    let independent = [1, 1, 1, 3, 3, 4, 4, 5, 5, 5, 5];
    for (i, (&d, &id)) in dominate.iter().zip(&independent).enumerate() {
        let n = i + 1;
        let native = |q| optimum(&square(n, Piece::Queen, q), Backend::Native);
        assert_eq!(native(Question::Dominate), d, "gamma(Q_{n})");
        assert_eq!(native(Question::IndependentDominate), id, "i(Q_{n})");
        if n <= 6 {
            let sat = |q| optimum(&square(n, Piece::Queen, q), Backend::Sat);
            assert_eq!(sat(Question::Dominate), d, "gamma(Q_{n}) by SAT");
            assert_eq!(sat(Question::IndependentDominate), id, "i(Q_{n}) by SAT");
        }
    }
}

#[test]
fn other_pieces_dominate_and_stand_apart_as_published() {
    // Knights: 1, 4, 4, 4, 5, 8, 10, 12 for n = 1..8.
    for (i, &want) in [1, 4, 4, 4, 5, 8, 10, 12].iter().enumerate() {
        let n = i + 1;
        assert_eq!(
            optimum(
                &square(n, Piece::Knight, Question::Dominate),
                Backend::Native
            ),
            want,
            "gamma(N_{n})"
        );
    }
    for n in 1..=9usize {
        let kings = n.div_ceil(3) * n.div_ceil(3);
        assert_eq!(
            optimum(&square(n, Piece::King, Question::Dominate), Backend::Native),
            kings
        );
        let apart = n.div_ceil(2) * n.div_ceil(2);
        assert_eq!(
            optimum(
                &square(n, Piece::King, Question::Independent),
                Backend::Native
            ),
            apart
        );
        assert_eq!(
            optimum(&square(n, Piece::Rook, Question::Dominate), Backend::Native),
            n
        );
        assert_eq!(
            optimum(
                &square(n, Piece::Rook, Question::Independent),
                Backend::Native
            ),
            n
        );
        let bishops_apart = if n == 1 { 1 } else { 2 * n - 2 };
        assert_eq!(
            optimum(
                &square(n, Piece::Bishop, Question::Independent),
                Backend::Native
            ),
            bishops_apart
        );
        let knights_apart = if n == 2 { 4 } else { (n * n).div_ceil(2) };
        assert_eq!(
            optimum(
                &square(n, Piece::Knight, Question::Independent),
                Backend::Native
            ),
            knights_apart,
            "knights apart on {n} x {n}"
        );
    }
    for n in 1..=7 {
        assert_eq!(
            optimum(
                &square(n, Piece::Bishop, Question::Dominate),
                Backend::Native
            ),
            n
        );
    }
    // Beyond, the stated bounds settle rooks and bishops (odd sides too) of any size at once.
    for n in [15, 16, 20, 21] {
        for piece in [Piece::Rook, Piece::Bishop] {
            let chess = square(n, piece, Question::Dominate);
            assert_eq!(optimum(&chess, Backend::Native), n, "{piece:?} {n}");
            assert_eq!(optimum(&chess, Backend::Sat), n, "{piece:?} {n} by SAT");
        }
    }
}

#[test]
fn odd_sided_bishops_are_settled_by_the_stated_parity_bound() {
    for n in [13, 25] {
        let puzzle = Puzzle::Chess(square(n, Piece::Bishop, Question::Dominate));
        let control = Control::unlimited();
        let outcome = solve(&puzzle, Backend::Native, Goal::Maximise, &control).unwrap();
        assert_eq!(outcome.status, Status::Optimal);
        assert_eq!(outcome.value, Some(n));
        puzzle.verify(outcome.solution.as_ref().unwrap()).unwrap();
        let evidence = outcome.evidence.to_string();
        assert!(evidence.contains("the parity of those ends"), "{evidence}");
    }
}

/// A random board of `width` x `height` with about `density` of its squares obstacles.
fn random_chess(rng: &mut ChaCha8Rng, piece: Piece, question: Question) -> Chess {
    // At most 16 squares: the brute force below tries every set of them.
    let (width, height) = (rng.gen_range(1..=4), rng.gen_range(1..=4));
    let free = (0..width * height).map(|_| rng.gen_bool(0.8)).collect();
    Chess {
        board: Board {
            width,
            height,
            free,
        },
        piece,
        question,
        description: None,
    }
}

#[test]
fn every_backend_agrees_on_seeded_random_boards_with_obstacles() {
    let mut rng = ChaCha8Rng::seed_from_u64(60);
    for round in 0..4 {
        for piece in Piece::ALL {
            for question in Question::ALL {
                let chess = random_chess(&mut rng, piece, question);
                let answers: Vec<usize> = Backend::ALL
                    .iter()
                    .map(|&backend| optimum(&chess, backend))
                    .collect();
                assert!(
                    answers.windows(2).all(|w| w[0] == w[1]),
                    "round {round}, {piece:?} {question:?} on {:?}: {answers:?}",
                    chess.board.free
                );
            }
        }
    }
}

/// The optimum, the number of optimal placements and of their classes under the board's
/// symmetries, by trying every set of squares, fewest (or most) first, against the rules.
fn brute_force(chess: &Chess) -> (usize, u64, u64) {
    let free: Vec<usize> = (0..chess.board.free.len())
        .filter(|&s| chess.board.free[s])
        .collect();
    let (w, h) = (chess.board.width, chess.board.height);
    let symmetries: Vec<Vec<usize>> = RectSymmetry::of_rectangle(w, h)
        .map(|s| s.cell_map(w, h))
        .filter(|map| (0..w * h).all(|c| chess.board.free[c] == chess.board.free[map[c]]))
        .collect();
    let mut sizes: Vec<usize> = (0..=free.len()).collect();
    if chess.sense() == Sense::Most {
        sizes.reverse();
    }
    for k in sizes {
        let mut found = std::collections::BTreeSet::new();
        let mut count = 0;
        for set in free.iter().copied().combinations(k) {
            let placement = ChessSolution::new(set.iter().map(|&s| (s % w, s / w)).collect());
            if chess.verify(&placement).is_ok() {
                count += 1;
                let least = symmetries
                    .iter()
                    .map(|map| {
                        let mut image: Vec<usize> = set.iter().map(|&s| map[s]).collect();
                        image.sort_unstable();
                        image
                    })
                    .min()
                    .unwrap();
                found.insert(least);
            }
        }
        if count > 0 {
            return (k, count, found.len() as u64);
        }
    }
    unreachable!("the empty placement is independent, the full one dominates")
}

#[test]
fn counts_agree_between_the_search_sat_enumeration_and_brute_force() {
    let control = Control::unlimited();
    let options = EnumerateOptions {
        unique: true,
        ..EnumerateOptions::default()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(61);
    let mut boards = vec![
        square(5, Piece::Queen, Question::Dominate),
        square(4, Piece::Knight, Question::Dominate),
        square(4, Piece::Queen, Question::IndependentDominate),
        square(4, Piece::Bishop, Question::Dominate),
    ];
    for piece in Piece::ALL {
        for question in Question::ALL {
            boards.push(random_chess(&mut rng, piece, question));
        }
    }
    for chess in boards {
        let (value, count, classes) = brute_force(&chess);
        let puzzle = Puzzle::Chess(chess.clone());
        for backend in [Backend::Native, Backend::Sat] {
            let outcome = enumerate(&puzzle, backend, &options, &control, &mut |_| {}).unwrap();
            assert!(outcome.complete);
            assert_eq!(
                (outcome.value, outcome.count, outcome.unique_count),
                (Some(value), count, Some(classes)),
                "{} on {:?} {:?} {}x{} {:?}",
                backend.name(),
                chess.piece,
                chess.question,
                chess.board.width,
                chess.board.height,
                chess.board.free
            );
            if !chess.question.dominating() {
                // Only the fewest are counted at most K; the most are refused, not counted
                // as if the flag were absent.
                let options = EnumerateOptions {
                    at_most: Some(value),
                    ..options.clone()
                };
                let refused = enumerate(&puzzle, backend, &options, &control, &mut |_| {});
                assert_eq!(
                    refused.map(|o| o.count).map_err(|e| e.to_string()),
                    Err(format!(
                        "counting solutions with at most {value} is not supported: {} asks \
                         for the most pieces",
                        chess.question.name()
                    ))
                );
                continue;
            }
            // And the fewest are never counted at least K: refused before any search, so
            // even a run stopped from the start says so.
            let options_at_least = EnumerateOptions {
                at_least: Some(value),
                ..options.clone()
            };
            let stopped = Control::new(Arc::new(AtomicBool::new(true)), None);
            let refused = enumerate(&puzzle, backend, &options_at_least, &stopped, &mut |_| {});
            assert_eq!(
                refused.map(|o| o.count).map_err(|e| e.to_string()),
                Err(format!(
                    "counting solutions with at least {value} is not supported: {} asks for \
                     the fewest pieces",
                    chess.question.name()
                ))
            );
            // At most the optimum: the same count, one fewer refuted first; at most one
            // fewer than the optimum: none.
            let fewer = value.checked_sub(1).map(|fewer| (fewer, 0));
            for (at_most, expected) in std::iter::once((value, count)).chain(fewer) {
                let options = EnumerateOptions {
                    at_most: Some(at_most),
                    ..options.clone()
                };
                let outcome = enumerate(&puzzle, backend, &options, &control, &mut |_| {}).unwrap();
                assert!(outcome.complete);
                assert_eq!(
                    (outcome.value, outcome.count),
                    (Some(at_most), expected),
                    "{} at most {at_most} on {:?} {:?} {:?}",
                    backend.name(),
                    chess.piece,
                    chess.question,
                    chess.board.free
                );
            }
        }
    }
}

#[test]
fn counts_of_at_most_k_pieces_refute_one_fewer_instead_of_finding_the_optimum() {
    let model = "chess-queens-dominate-8.toml";
    let run = puzzlec(
        &models(),
        &["solve", model, "--count", "--unique", "--at-most", "5"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "638\nclasses: 577 of size 8, 61 of size 4; 4860 solutions\n"
    );
    assert!(
        run.stderr.starts_with(
            "4860 solutions with at most 5, 638 up to the board's 8 symmetries by native in "
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(
            ": native domination search over every placement of 5 pieces (4 pieces refuted \
             first); "
        ),
        "{}",
        run.stderr
    );
    let run = puzzlec(&models(), &["solve", model, "--count", "--at-most", "4"]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "0\n"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("(3 pieces refuted first)"),
        "{}",
        run.stderr
    );
    // Shards of it merge to the whole, and not with shards of the optimal count.
    let tmp = tempfile::tempdir().unwrap();
    let path = models().join(model);
    let path = path.to_str().unwrap();
    let mut parts = Vec::new();
    for i in 1..=2 {
        let shard = format!("{i}/2");
        let args = [
            "solve",
            path,
            "--count",
            "--unique",
            "--at-most",
            "5",
            "--json",
            "--shard",
            &shard,
        ];
        let run = puzzlec(tmp.path(), &args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(json["goal"], "count at most 5, unique");
        // Each shard refutes its part of 4 queens: together the shards refute 4.
        assert_eq!(json["established"]["fewer_refuted"], "shard_part");
        assert!(
            json["evidence"]
                .as_str()
                .unwrap()
                .contains("(this shard's part of 4 pieces refuted first)"),
            "{}",
            json["evidence"]
        );
        let part = tmp.path().join(format!("part-{i}.json"));
        std::fs::write(&part, &run.stdout).unwrap();
        parts.push(part.to_str().unwrap().to_string());
    }
    let merged = puzzlec(tmp.path(), &["merge", &parts[0], &parts[1]]);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert_eq!(merged.stdout, "4860\n638 up to symmetry\n");
    let optimal = puzzlec(
        tmp.path(),
        &[
            "solve", path, "--count", "--unique", "--json", "--shard", "2/2",
        ],
    );
    std::fs::write(tmp.path().join("optimal-2.json"), &optimal.stdout).unwrap();
    let mixed = puzzlec(tmp.path(), &["merge", &parts[0], "optimal-2.json"]);
    assert_eq!(
        (mixed.code, mixed.stderr.as_str()),
        (
            2,
            "error: optimal-2.json:1: a shard of a different goal (count optimal, unique, \
             value 5) than the first file (count at most 5, unique, value 5)\n"
        ),
        "{}",
        mixed.stdout
    );
}

#[test]
fn five_queens_dominate_the_board_in_4860_ways_638_up_to_symmetry() {
    let puzzle = load_model_file(&models().join("chess-queens-dominate-8.toml")).unwrap();
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
    assert_eq!(
        (outcome.value, outcome.count, outcome.unique_count),
        (Some(5), 4860, Some(638))
    );
}

#[test]
fn a_model_backend_says_it_counted_the_squares_left_empty() {
    let chess = square(4, Piece::Queen, Question::Dominate);
    let puzzle = Puzzle::Chess(chess);
    let outcome = solve(&puzzle, Backend::Sat, Goal::Maximise, &Control::unlimited()).unwrap();
    assert_eq!(outcome.answer(), "optimal 2");
    assert_eq!(outcome.bound, Some(2));
    assert!(
        outcome.evidence.to_string().starts_with(
            "the model counts the squares left empty, of 16 free: varisat refuted \"at least 15\""
        ),
        "{}",
        outcome.evidence
    );
    let native = solve(
        &puzzle,
        Backend::Native,
        Goal::Maximise,
        &Control::unlimited(),
    )
    .unwrap();
    assert!(
        native
            .evidence
            .to_string()
            .starts_with("native domination search refuted 1 piece"),
        "{}",
        native.evidence
    );
}

#[test]
fn chess_counts_split_into_shards_merge_to_the_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let model = models().join("chess-queens-dominate-8.toml");
    let model = model.to_str().unwrap();
    // With --unique the search uses the symmetries and counts each class once, in the shard
    // that holds the least member it reaches; without, every placement is seen.
    for (flags, whole) in [
        (&["--count", "--unique"][..], "4860\n638 up to symmetry\n"),
        (&["--count"][..], "4860\n"),
    ] {
        let mut parts = Vec::new();
        for i in 1..=3 {
            let shard = format!("{i}/3");
            let mut args = vec!["solve", model, "--json", "--shard", &shard];
            args.extend(flags);
            let run = puzzlec(tmp.path(), &args);
            assert_eq!(run.code, 0, "{}", run.stderr);
            let part = tmp.path().join(format!("part-{i}.json"));
            std::fs::write(&part, &run.stdout).unwrap();
            parts.push(part.to_str().unwrap().to_string());
        }
        let mut args = vec!["merge"];
        args.extend(parts.iter().map(String::as_str));
        let merged = puzzlec(tmp.path(), &args);
        assert_eq!(merged.code, 0, "{}", merged.stderr);
        assert_eq!(merged.stdout, whole, "{flags:?}");
    }
}

#[test]
fn the_command_line_solves_and_counts_a_domination_model() {
    let run = puzzlec(&models(), &["solve", "chess-queens-dominate-8.toml"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("5\n"), "{}", run.stdout);
    assert!(
        run.stderr.starts_with("optimal 5 by native"),
        "{}",
        run.stderr
    );
    let run = puzzlec(
        &models(),
        &["solve", "chess-queens-dominate-8.toml", "--at-least", "3"],
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: --at-least does not apply: this chess puzzle asks for the fewest pieces \
         (--at-most K asks whether K or fewer do)\n"
    );
}

#[test]
fn at_most_k_pieces_is_decided_by_every_backend() {
    // Five queens dominate 8 x 8 and four do not.
    for backend in ["native", "sat", "milp"] {
        for (k, code, answer) in [
            ("5", 10, "satisfiable 5 (at most 5?)"),
            ("4", 20, "unsatisfiable (at most 4?)"),
        ] {
            let args = [
                "solve",
                "chess-queens-dominate-8.toml",
                "--at-most",
                k,
                "--backend",
                backend,
            ];
            let run = puzzlec(&models(), &args);
            assert_eq!(run.code, code, "{backend} {k}: {}", run.stderr);
            assert!(run.stderr.starts_with(answer), "{backend}: {}", run.stderr);
        }
    }
    // The default portfolio, and the decision as JSON.
    let run = puzzlec(
        &models(),
        &[
            "solve",
            "chess-queens-dominate-8.toml",
            "--at-most",
            "4",
            "--json",
        ],
    );
    assert_eq!(run.code, 20, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["goal"], serde_json::json!({"at_most": 4}));
    assert_eq!(json["status"], "unsatisfiable");
}

#[test]
fn at_most_is_refused_where_it_does_not_apply() {
    for (args, line) in [
        (
            &["solve", "queens-8.toml", "--at-most", "3"][..],
            "error: --at-most does not apply: this queens puzzle asks for the most pieces \
             (--at-least K asks whether K or more do)\n",
        ),
        (
            &["solve", "halves-asahi-2005.toml", "--at-most", "3"][..],
            "error: --at-most does not apply: a dissection puzzle has no objective\n",
        ),
        (
            &["solve", "queens-8.toml", "--at-most", "3", "--count"][..],
            "error: --at-most does not apply: this queens puzzle asks for the most pieces \
             (--at-least K asks whether K or more do)\n",
        ),
        (
            &[
                "solve",
                "chess-queens-dominate-8.toml",
                "--at-most",
                "6",
                "--count",
            ][..],
            "error: counting solutions with at most 6 is not supported: 5 pieces already do, \
             and only counts at or below the optimum are\n",
        ),
        (
            &["emit", "queens-8.toml", "--format", "opb", "--at-most", "3"][..],
            "error: --at-most does not apply: this queens puzzle asks for the most pieces \
             (--at-least K asks whether K or more do)\n",
        ),
        (
            &["compare", "queens-8.toml", "--at-most", "3"][..],
            "error: --at-most does not apply: this queens puzzle asks for the most pieces \
             (--at-least K asks whether K or more do)\n",
        ),
    ] {
        let run = puzzlec(&models(), args);
        assert_eq!((run.code, run.stderr.as_str()), (2, line), "{args:?}");
    }
    let both = [
        "solve",
        "chess-queens-dominate-8.toml",
        "--at-most",
        "5",
        "--at-least",
        "3",
    ];
    let run = puzzlec(&models(), &both);
    assert_eq!(run.code, 2);
    assert!(run
        .stderr
        .starts_with("error: the argument '--at-most <K>' cannot be used with '--at-least <K>'"));
}

#[test]
fn bad_chess_models_name_the_file_the_line_and_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "kind = \"chess\"\npiece = \"pawn\"\ngoal = \"dominate\"\nsize = 8\n",
            "2: `piece` is \"pawn\"; expected one of queen, rook, bishop, knight, king",
        ),
        (
            "kind = \"chess\"\npiece = \"queen\"\ngoal = \"cover\"\nsize = 8\n",
            "3: `goal` is \"cover\"; expected one of independent, dominate, independent-dominate",
        ),
        (
            "kind = \"chess\"\npiece = \"queen\"\ngoal = \"dominate\"\nsize = 65\n",
            "4: `size` is 65; it must be between 1 and 64",
        ),
        (
            "kind = \"chess\"\ngoal = \"dominate\"\nsize = 8\n",
            "1: missing key `piece` (one of queen, rook, bishop, knight, king)",
        ),
        (
            "kind = \"chess\"\npiece = \"king\"\ngoal = \"dominate\"\nwidth = 8\n",
            "4: give both `width` and `height` for a rectangle",
        ),
        (
            "kind = \"chess\"\npiece = \"king\"\ngoal = \"dominate\"\nsize = 8\nwidth = 3\nheight = 4\n",
            "6: give one of `board`, `size`, or `width` and `height`",
        ),
    ];
    for (i, (text, message)) in cases.iter().enumerate() {
        let name = format!("bad-{i}.toml");
        std::fs::write(dir.path().join(&name), text).unwrap();
        let run = puzzlec(dir.path(), &["solve", &name]);
        assert_eq!(run.code, 2, "{name}: {}", run.stderr);
        assert_eq!(run.stderr, format!("error: {name}:{message}\n"), "{name}");
    }
}
