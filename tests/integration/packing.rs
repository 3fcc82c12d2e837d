//! The packing family: known answers (6 x 10 pentominoes, the 13 x 19 cross box), agreement
//! of SAT, MILP and native search on seeded random instances, CLI output and bad input.

use crate::common;

use common::{models, puzzlec};
use puzzlec::base::{Control, Evidence, Goal, Status, Stop};
use puzzlec::driver::packing::{assignment_of, count_native, count_sat};
use puzzlec::driver::{solve, Backend, Misuse, SolveError};
use puzzlec::geometry::placements::{orientations, PieceLimit};
use puzzlec::geometry::shapes::picture_cells as shape;
use puzzlec::puzzle::packing::{Packing, PackingKind, PackingSolution, PieceSpec};
use puzzlec::puzzle::{load_model_file, Family, Puzzle, Solution};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

fn load(name: &str) -> Packing {
    match load_model_file(&models().join(name)).expect("the shipped model loads") {
        Puzzle::Packing(p) => p,
        other => panic!("not a packing model: {}", other.kind()),
    }
}

/// The native backend's answer to "maximise" (or "tile"), with no time limit.
fn solve_natively(puzzle: &Puzzle) -> puzzlec::driver::Outcome {
    solve(
        puzzle,
        Backend::Native,
        Goal::Maximise,
        &Control::unlimited(),
    )
    .unwrap()
}

#[test]
fn pentomino_6x10_has_9356_tilings_and_2339_up_to_symmetry() {
    let packing = load("pentomino-6x10.toml");
    let counts = count_native(&packing, &Control::unlimited()).unwrap();
    assert_eq!((counts.raw, counts.up_to_symmetry), (9356, 2339));
    assert!(counts.complete);
}

#[test]
fn at_least_on_a_tile_model_is_a_usage_error_not_a_backend_failure() {
    let puzzle = Puzzle::Packing(load("pentomino-6x10.toml"));
    let error = solve(
        &puzzle,
        Backend::Native,
        Goal::AtLeast(12),
        &Control::unlimited(),
    )
    .unwrap_err();
    assert!(
        matches!(&error, SolveError::Misused(Misuse::AtLeastOnTile)),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        "a tile model has no objective: drop `at_least`"
    );
}

#[test]
fn pentomino_model_has_63_orientations_and_solves_natively() {
    let packing = load("pentomino-6x10.toml");
    let orients: usize = packing
        .pieces
        .iter()
        .map(|p| orientations(&p.cells, p.rotate, p.reflect).len())
        .sum();
    assert_eq!(orients, 63);
    let puzzle = Puzzle::Packing(packing);
    let outcome = solve_natively(&puzzle);
    assert_eq!(outcome.status, Status::Satisfiable);
    let Some(Solution::Packing(s)) = &outcome.solution else {
        panic!("no tiling")
    };
    assert_eq!(s.placed.len(), 12);
}

/// The seed's 19-cross packing, as printed in PUZZLES.md.
const SEED_19: &str = "\
.O...AAAAAL..
.O...E.ALLLLL
OOOOOE.A.NL..
QOEEEEEA.NL..
QO...EGA.NL..
QQQQQEGNNNNNC
QP.GGGGG.N..C
QP...FG.CCCCC
PPPPPFGJ..B.C
RPFFFFFJ..B.C
RP...F.JBBBBB
RRRRRF.J..BH.
R..K.JJJJJBH.
RKKKKKS.HHHHH
..MK.IS....HD
..MK.ISSSSSHD
..MK.IS.DDDDD
MMMMMIS.....D
..MIIIII....D
";

#[test]
fn the_seeds_19_packing_verifies_and_satisfies_the_model() {
    let packing = load("cross-13x19.toml");
    let grid: Vec<char> = SEED_19.lines().flat_map(|l| l.chars()).collect();
    assert_eq!(grid.len(), 13 * 19);
    let mut letters: Vec<char> = grid.iter().copied().filter(|&c| c != '.').collect();
    letters.sort_unstable();
    letters.dedup();
    assert_eq!(letters.len(), 19);
    // Name each letter's cells by the piece whose orientations contain its shape.
    let placed: Vec<(usize, Vec<usize>)> = letters
        .iter()
        .map(|&l| {
            let cells: Vec<usize> = (0..grid.len()).filter(|&c| grid[c] == l).collect();
            let piece = packing
                .instance
                .placements
                .iter()
                .find(|p| p.cells == cells)
                .map(|p| p.piece)
                .unwrap_or_else(|| panic!("letter {l} is no cross placement"));
            (piece, cells)
        })
        .collect();
    let solution = PackingSolution::new(placed);
    assert_eq!(packing.verify(&solution), Ok(()));
    let model = packing.compile_with(false);
    let assignment = assignment_of(&packing, &solution);
    assert!(model.satisfied_by(&assignment));
    assert_eq!(model.objective.as_ref().unwrap().value(&assignment), 19);
    // Breaking a cell apart: two crosses on one cell is rejected by verify and the model.
    let mut broken = solution.clone();
    broken.placed[1] = broken.placed[0].clone();
    assert!(packing.verify(&broken).is_err());
}

#[test]
fn the_cross_box_reaches_19_natively() {
    let puzzle = Puzzle::Packing(load("cross-13x19.toml"));
    let control = Control::new(Default::default(), Some(Duration::from_secs(60)));
    let outcome = solve(&puzzle, Backend::Native, Goal::AtLeast(19), &control).unwrap();
    assert_eq!(outcome.status, Status::Satisfiable, "{}", outcome.evidence);
    let Some(Solution::Packing(s)) = &outcome.solution else {
        panic!("no packing")
    };
    assert!(s.placed.len() >= 19);
    assert_eq!(outcome.value, Some(s.placed.len()));
}

#[test]
fn a_stopped_doll_hands_its_packing_to_the_neighbourhood_search() {
    // 18 x 18 is far from proved in 2 s: the doll's own packing then comes from the few rows
    // it decided (its table is not past half way, so it has no halves), while the search
    // started from it fills greedily to 18 and gains from there, in the last twentieth of
    // the time limit.
    let puzzle = Puzzle::Packing(load("cross-13x19.toml").open_box(18, 18));
    let control = || Control::new(Default::default(), Some(Duration::from_secs(2)));
    let outcome = solve(&puzzle, Backend::Native, Goal::Maximise, &control()).unwrap();
    assert_eq!(outcome.status, Status::Feasible, "{}", outcome.evidence);
    assert!(outcome.value.unwrap() >= 18, "{}", outcome.evidence);
    assert!(
        outcome.evidence.to_string().starts_with(
            "time limit reached; the native Russian-doll search had not finished (at most "
        ) && outcome
            .evidence
            .to_string()
            .contains(" by re-solving windows of it (large-neighbourhood search, "),
        "{}",
        outcome.evidence
    );
    // "At least 20" is answered by the search's packing (verified, as every answer).
    let outcome = solve(&puzzle, Backend::Native, Goal::AtLeast(20), &control()).unwrap();
    assert_eq!(outcome.status, Status::Satisfiable, "{}", outcome.evidence);
    assert!(outcome.value.unwrap() >= 20);
    assert!(
        outcome.evidence.to_string().starts_with("found ")
            && outcome
                .evidence
                .to_string()
                .contains(" >= 20 after the native Russian-doll search stopped (at most "),
        "{}",
        outcome.evidence
    );
}

#[test]
fn the_cross_box_holds_19_and_no_more() {
    // The seed's open question, settled natively (Russian-doll suffix bound and memo).
    let puzzle = Puzzle::Packing(load("cross-13x19.toml"));
    let outcome = solve_natively(&puzzle);
    assert_eq!(outcome.status, Status::Optimal, "{}", outcome.evidence);
    assert_eq!(outcome.value, Some(19));
    assert!(
        outcome
            .evidence
            .to_string()
            .contains("refuted \"at least 20\""),
        "{}",
        outcome.evidence
    );
}

#[test]
fn narrow_cross_boxes_native_and_sat_agree() {
    // The optima of boxes 13 wide that the native proof of the full box passes through,
    // settled independently by varisat for the shortest.
    let expected = [(5, 3), (6, 5), (7, 6), (8, 6), (9, 8), (11, 10)];
    for (height, optimum) in expected {
        let mut packing = load("cross-13x19.toml");
        packing = Packing::new(
            13,
            height,
            vec![false; 13 * height],
            packing.pieces,
            PackingKind::Maximise,
        );
        let puzzle = Puzzle::Packing(packing);
        let native = solve_natively(&puzzle);
        assert_eq!(
            (native.status, native.value),
            (Status::Optimal, Some(optimum)),
            "13 x {height}"
        );
        if height <= 8 {
            let sat = solve(&puzzle, Backend::Sat, Goal::Maximise, &Control::unlimited()).unwrap();
            assert_eq!(
                (sat.status, sat.value),
                (Status::Optimal, Some(optimum)),
                "13 x {height}"
            );
        }
    }
}

const SMALL: [&str; 8] = [
    "##", "###", "##/#.", "####", "##/##", "###/.#.", "###/#..", "##./.##",
];

fn random_packing(seed: u64, kind: PackingKind) -> Packing {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let width = rng.gen_range(2..=5);
    let height = rng.gen_range(2..=5);
    let blocked: Vec<bool> = (0..width * height).map(|_| rng.gen_bool(0.12)).collect();
    let pieces: Vec<PieceSpec> = (0..rng.gen_range(1..=3))
        .map(|i| PieceSpec {
            name: format!("p{i}"),
            cells: shape(SMALL[rng.gen_range(0..SMALL.len())]),
            rotate: rng.gen_bool(0.8),
            reflect: rng.gen_bool(0.5),
            limit: match rng.gen_range(0..4) {
                0 | 1 => PieceLimit::unlimited(),
                2 => PieceLimit::at_most(rng.gen_range(1..=3)),
                _ => PieceLimit::exactly(rng.gen_range(0..=2)),
            },
        })
        .collect();
    Packing::new(width, height, blocked, pieces, kind)
}

#[test]
fn sat_milp_and_native_agree_on_optima_of_random_packings() {
    let mut optima = Vec::new();
    for seed in 0..40 {
        let puzzle = Puzzle::Packing(random_packing(seed, PackingKind::Maximise));
        let backends: &[Backend] = if seed % 4 == 0 {
            &Backend::ALL
        } else {
            &[Backend::Sat, Backend::Native]
        };
        let outcomes: Vec<_> = backends
            .iter()
            .map(|&b| solve(&puzzle, b, Goal::Maximise, &Control::unlimited()).unwrap())
            .collect();
        for o in &outcomes {
            assert!(o.status.is_proven(), "seed {seed}: {}", o.evidence);
        }
        assert_eq!(
            puzzlec::driver::disagreement(&outcomes),
            None,
            "seed {seed}"
        );
        optima.push(outcomes[0].value);
    }
    // The instances are not all trivial: several optima above 2.
    assert!(optima.iter().filter(|v| v.is_some_and(|v| v > 2)).count() >= 5);
}

#[test]
fn sat_and_native_agree_on_tiling_counts_of_random_regions() {
    let mut with_tilings = 0;
    for seed in 100..260 {
        let packing = random_packing(seed, PackingKind::Tile);
        let native = count_native(&packing, &Control::unlimited()).unwrap();
        let sat = count_sat(&packing, &Control::unlimited()).unwrap();
        assert!(native.complete && sat.complete);
        assert_eq!(
            (native.raw, native.up_to_symmetry),
            (sat.raw, sat.up_to_symmetry),
            "seed {seed}"
        );
        with_tilings += usize::from(native.raw > 0);
        // The decision agrees too, with the symmetry-breaking constraints in the model.
        let puzzle = Puzzle::Packing(packing);
        let answer = solve(&puzzle, Backend::Sat, Goal::Maximise, &Control::unlimited()).unwrap();
        let expected = if native.raw > 0 {
            Status::Satisfiable
        } else {
            Status::Unsatisfiable
        };
        assert_eq!(answer.status, expected, "seed {seed}");
    }
    assert!(
        with_tilings >= 12,
        "only {with_tilings} instances have tilings"
    );
}

#[test]
fn cli_prints_the_tiling_with_one_letter_per_piece() {
    let run = puzzlec(
        &models(),
        &["solve", "pentomino-6x10.toml", "--backend", "native"],
    );
    // A tile model has no objective: a tiling found completes the run (exit 0).
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.starts_with("satisfiable by native"),
        "{}",
        run.stderr
    );
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "12");
    assert_eq!(lines.len(), 7);
    let mut letters: Vec<char> = lines[1..].iter().flat_map(|l| l.chars()).collect();
    assert_eq!(letters.len(), 60);
    letters.sort_unstable();
    letters.dedup();
    assert_eq!(letters, "ABCDEFGHIJKL".chars().collect::<Vec<_>>());
}

#[test]
fn emit_names_placements_readably() {
    let run = puzzlec(
        &models(),
        &[
            "emit",
            "cross-13x19.toml",
            "--format",
            "dimacs",
            "--at-least",
            "19",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("c var 1 place[plus/0@(0,0)]"));
    let run = puzzlec(&models(), &["emit", "cross-13x19.toml", "--format", "lp"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn bad_packing_files_give_one_line_with_the_line_number() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &str); 4] = [
        (
            "kind = \"packing\"\nwidth = 3\nheight = 3\ngoal = \"tile\"\n[[piece]]\nname = \"a\"\nshape = \"\"\"\n#x\n\"\"\"\n",
            "model.toml:8: `shape` has unknown character 'x' (expected '.', '#')",
        ),
        (
            "kind = \"packing\"\nwidth = 3\nheight = 3\ngoal = \"pack\"\n",
            "model.toml:4: unknown goal \"pack\" (expected \"maximise\" or \"tile\")",
        ),
        (
            "kind = \"packing\"\nwidth = 3\nheight = 3\ngoal = \"tile\"\n",
            "model.toml:1: missing pieces: add one or more [[piece]] tables with `name` and `shape`",
        ),
        (
            "kind = \"packing\"\nwidth = 3\nheight = 99\ngoal = \"tile\"\n",
            "model.toml:3: `height` is 99; it must be between 1 and 64",
        ),
    ];
    for (text, expected) in cases {
        std::fs::write(dir.path().join("model.toml"), text).unwrap();
        let run = puzzlec(dir.path(), &["solve", "model.toml"]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert_eq!(run.stderr, format!("error: {expected}\n"));
    }
}

#[test]
fn a_boxs_doll_table_settles_the_smaller_boxes_each_verified_and_as_solved_alone() {
    // Both orientations: scan rows are the box's rows when it is taller than wide, its
    // columns when wider; either way the sub-boxes drop the first scan rows.
    let crosses = load("cross-13x19.toml");
    for (w, h) in [(7, 12), (12, 7)] {
        let packing = Packing::new(
            w,
            h,
            vec![false; w * h],
            crosses.pieces.clone(),
            crosses.kind,
        );
        let (whole, smaller) =
            puzzlec::driver::solve_with_sub_boxes(&packing, &Control::unlimited(), &[]).unwrap();
        assert_eq!(whole.answer(), "optimal 6", "{w} x {h}");
        let dims: Vec<(usize, usize)> = smaller
            .iter()
            .map(|(sub, _)| (sub.width, sub.height))
            .collect();
        let expected: Vec<(usize, usize)> = if w <= h {
            (1..h).map(|r| (w, h - r)).collect()
        } else {
            (1..w).map(|r| (w - r, h)).collect()
        };
        assert_eq!(dims, expected, "{w} x {h}");
        for (sub, outcome) in &smaller {
            let alone = solve_natively(&Puzzle::Packing(sub.clone()));
            assert_eq!(outcome.status, Status::Optimal);
            assert_eq!(
                outcome.value, alone.value,
                "{} x {} inside {w} x {h}",
                sub.width, sub.height
            );
            assert!(outcome.elapsed <= whole.elapsed);
            assert!(
                outcome
                    .evidence
                    .to_string()
                    .contains(&format!("Russian-doll search of the {w} x {h} box")),
                "{}",
                outcome.evidence
            );
        }
    }
}

/// The cross optimum of a `w x h` box from cross_doll.c's table (either orientation).
fn cross_optimum(w: usize, h: usize) -> usize {
    let (w, h) = (w.min(h), w.max(h));
    common::CROSS_DOLL
        .iter()
        .find(|&&(a, b, _)| (a, b) == (w, h))
        .map(|&(_, _, n)| n)
        .expect("in the table")
}

#[test]
fn cutting_a_box_into_settled_boxes_gives_sound_bounds_and_packings_and_settles_some() {
    use puzzlec::driver::combine::BoxTable;
    let crosses = load("cross-13x19.toml");
    let mut table = BoxTable::for_pieces(&crosses).expect("crosses have no counts");
    // What a sweep would know had it settled only the boxes with at most 9 rows and stopped
    // on the rest: each recorded once, its transpose follows (crosses rotate and reflect).
    for &(w, h, _) in common::CROSS_DOLL.iter().filter(|b| b.1 <= 9) {
        let outcome = solve_natively(&Puzzle::Packing(crosses.open_box(w, h)));
        table.record_outcome(w, h, &outcome);
    }
    let mut settled = Vec::new();
    for &(w, h, optimum) in common::CROSS_DOLL.iter().filter(|b| b.1 > 9) {
        let Some(combined) = table.combine(w, h) else {
            continue;
        };
        let value = combined.packing.placed.len();
        assert!(combined.bound >= optimum, "{w} x {h}: {combined:?}");
        assert!(value <= optimum, "{w} x {h}");
        crosses
            .open_box(w, h)
            .verify(&combined.packing)
            .unwrap_or_else(|e| panic!("{w} x {h}: {e:?}"));
        if value == combined.bound {
            settled.push((w, h, value));
        }
    }
    // Worked by hand (a cut after a rows: the pieces starting there lie in the top a + 4
    // rows): 5 x 10 at most 1 + 1 (5 x 7 and 5 x 7, a = 3), holding 5 x 9's 2; 5 x 13 at most
    // 1 + 2 (5 x 7, 5 x 10), holding 5 x 8 and 5 x 5 stacked; 6 x 12 at most 2 + 2 (6 x 8
    // twice, a = 4), holding 6 x 6 twice; 7 x 10 at most 2 + 2 (7 x 7 twice), holding 7 x 9's
    // 4. 5 x 11 and 5 x 12 (3 each) are no stack of smaller boxes' packings.
    assert_eq!(
        settled,
        vec![(5, 10, 2), (5, 13, 3), (6, 12, 4), (7, 10, 4)],
        "{settled:?}"
    );
    // An unknown box's packing is checked against the real optimum: 8 x 13 has 6.
    let combined = table.combine(8, 13).expect("8 x 13 combines");
    assert_eq!(
        (combined.packing.placed.len(), cross_optimum(8, 13)),
        (6, 6)
    );
}

#[test]
fn a_stopped_outcome_is_improved_verified_and_proved_when_the_cuts_meet() {
    use puzzlec::driver::combine::BoxTable;
    let crosses = load("cross-13x19.toml");
    let mut table = BoxTable::for_pieces(&crosses).unwrap();
    for h in 5..=9 {
        let outcome = solve_natively(&Puzzle::Packing(crosses.open_box(5, h)));
        table.record_outcome(5, h, &outcome);
    }
    // 5 x 13 as a run that stopped with nothing found.
    let box_ = crosses.open_box(5, 13);
    let mut stopped = solve_natively(&Puzzle::Packing(box_.clone()));
    stopped.status = Status::Unknown;
    stopped.solution = None;
    stopped.value = None;
    stopped.bound = Some(7);
    stopped.evidence = Evidence::ModelStopped {
        stop: Stop::TimeLimit,
        found: false,
        objective: true,
    };
    let improved = table.improve(&box_, stopped).unwrap();
    assert_eq!(improved.answer(), "optimal 3");
    assert_eq!(improved.bound, Some(3));
    assert!(
        improved
            .evidence
            .to_string()
            .starts_with("optimal by cutting the box into boxes this sweep settled: at most 3"),
        "{}",
        improved.evidence
    );
    assert!(improved
        .evidence
        .to_string()
        .ends_with("(its own search: time limit reached; no solution found)"));
    // Counts make the parts share an allowance: no table.
    let mut counted = crosses.clone();
    counted.pieces[0].limit = PieceLimit {
        min: 0,
        max: Some(2),
    };
    assert!(BoxTable::for_pieces(&counted).is_none());
    // A domino that may not turn: its 2 x 1 box is not its 1 x 2 box.
    let domino = PieceSpec {
        name: "domino".into(),
        cells: vec![(0, 0), (1, 0)],
        rotate: false,
        reflect: false,
        limit: PieceLimit { min: 0, max: None },
    };
    let flat = Packing::new(2, 1, vec![false; 2], vec![domino], PackingKind::Maximise);
    let mut table = BoxTable::for_pieces(&flat).unwrap();
    let outcome = solve_natively(&Puzzle::Packing(flat.clone()));
    table.record_outcome(2, 1, &outcome);
    assert!(table.combine(1, 4).is_none(), "no domino stands upright");
    let row = table.combine(6, 1).expect("three 2 x 1 boxes side by side");
    assert_eq!((row.packing.placed.len(), row.bound), (3, 3));
    flat.open_box(6, 1).verify(&row.packing).unwrap();
}
