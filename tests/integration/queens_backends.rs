//! Known answers for queens, and agreement of every backend on seeded random boards.

use crate::common;

use common::{models, seeded_board};
use puzzlec::base::{Control, Goal, Status};
use puzzlec::driver::emit::{emit, Format};
use puzzlec::driver::{solve, Backend};
use puzzlec::formats::dimacs::read_var_names;
use puzzlec::formats::lp::read_lp;
use puzzlec::model::Assignment;
use puzzlec::oracle::microlp::solve_microlp;
use puzzlec::puzzle::queens::Queens;
use puzzlec::puzzle::{load_model_file, Family, Puzzle, Solution};

fn contest() -> Puzzle {
    load_model_file(&models().join("obstacle-queens.toml")).unwrap()
}

fn optimum(puzzle: &Puzzle, backend: Backend) -> usize {
    let outcome = solve(puzzle, backend, Goal::Maximise, &Control::unlimited()).unwrap();
    assert_eq!(
        outcome.status,
        Status::Optimal,
        "{}: {}",
        backend.name(),
        outcome.evidence
    );
    let solution = outcome.solution.expect("an optimum has a witness");
    puzzle.verify(&solution).unwrap();
    outcome.value.unwrap()
}

#[test]
fn contest_board_optimum_is_20_in_every_backend() {
    let puzzle = contest();
    for backend in Backend::ALL {
        assert_eq!(optimum(&puzzle, backend), 20, "{}", backend.name());
    }
}

#[test]
fn contest_board_decisions_20_yes_21_no_in_every_backend() {
    let puzzle = contest();
    for backend in Backend::ALL {
        let yes = solve(&puzzle, backend, Goal::AtLeast(20), &Control::unlimited()).unwrap();
        assert_eq!(yes.status, Status::Satisfiable, "{}", backend.name());
        assert!(yes.value.unwrap() >= 20);
        let no = solve(&puzzle, backend, Goal::AtLeast(21), &Control::unlimited()).unwrap();
        assert_eq!(no.status, Status::Unsatisfiable, "{}", backend.name());
        assert!(no.solution.is_none());
    }
}

#[test]
fn empty_boards_hold_n_queens_from_four_on() {
    // Two queens never fit on 2 x 2, three never on 3 x 3.
    let expected = [1, 1, 2, 4, 5, 6, 7, 8, 9, 10];
    for (i, &want) in expected.iter().enumerate() {
        let puzzle = Puzzle::Queens(Queens::empty(i + 1));
        for backend in Backend::ALL {
            assert_eq!(
                optimum(&puzzle, backend),
                want,
                "n = {}, {}",
                i + 1,
                backend.name()
            );
        }
    }
}

#[test]
fn all_backends_agree_on_200_seeded_random_boards() {
    for seed in 0..200 {
        let puzzle = Puzzle::Queens(seeded_board(seed, 10));
        let values: Vec<usize> = Backend::ALL.iter().map(|&b| optimum(&puzzle, b)).collect();
        assert!(
            values.windows(2).all(|w| w[0] == w[1]),
            "seed {seed}: sat, milp, native gave {values:?} on\n{puzzle:?}"
        );
    }
}

#[test]
fn decisions_agree_with_the_optimum_on_seeded_random_boards() {
    for seed in 1000..1060 {
        let puzzle = Puzzle::Queens(seeded_board(seed, 9));
        let best = optimum(&puzzle, Backend::Native);
        for backend in Backend::ALL {
            let at = solve(&puzzle, backend, Goal::AtLeast(best), &Control::unlimited()).unwrap();
            assert_eq!(
                at.status,
                Status::Satisfiable,
                "seed {seed} {}",
                backend.name()
            );
            let above = solve(
                &puzzle,
                backend,
                Goal::AtLeast(best + 1),
                &Control::unlimited(),
            )
            .unwrap();
            assert_eq!(
                above.status,
                Status::Unsatisfiable,
                "seed {seed} {}",
                backend.name()
            );
        }
    }
}

/// Solves emitted DIMACS with varisat's own parser and solver; returns the named
/// variables' values when satisfiable.
fn solve_dimacs(text: &str) -> Option<Assignment> {
    let formula = varisat::dimacs::DimacsParser::parse(text.as_bytes()).unwrap();
    let mut solver = varisat::Solver::new();
    solver.add_formula(&formula);
    if !solver.solve().unwrap() {
        return None;
    }
    let names = read_var_names(text).unwrap();
    let mut values = vec![false; names.len()];
    for lit in solver.model().unwrap() {
        if lit.index() < values.len() {
            values[lit.index()] = lit.is_positive();
        }
    }
    Some(Assignment::new(values))
}

#[test]
fn emitted_dimacs_parsed_by_varisat_gives_the_same_answer() {
    let puzzle = contest();
    let model = puzzle.compile();
    let text = emit(&puzzle, "contest", Format::Dimacs, Some(20));
    assert_eq!(read_var_names(&text).unwrap(), model.names());
    let assignment = solve_dimacs(&text).expect("20 queens fit");
    let solution = puzzle.decode(&assignment);
    puzzle.verify(&solution).unwrap();
    assert!(puzzle.value(&solution) >= 20);
    assert!(solve_dimacs(&emit(&puzzle, "contest", Format::Dimacs, Some(21))).is_none());
    // Without a bound the constraints alone are satisfiable (no queens at all).
    assert!(solve_dimacs(&emit(&puzzle, "contest", Format::Dimacs, None)).is_some());
    // More than the 22 column segments is refuted by an empty clause.
    assert!(solve_dimacs(&emit(&puzzle, "contest", Format::Dimacs, Some(23))).is_none());
}

#[test]
fn emitted_lp_read_back_gives_the_same_optimum() {
    let puzzle = contest();
    let text = emit(&puzzle, "contest", Format::Lp, None);
    let program = read_lp(&text).unwrap();
    assert_eq!(program.columns.len(), 178);
    let (values, proven) = solve_microlp(&program, &Control::unlimited(), None)
        .unwrap()
        .unwrap();
    assert!(proven);
    assert_eq!(values.iter().filter(|&&v| v).count(), 20);
    let solution = puzzle.decode(&Assignment::new(values));
    puzzle.verify(&solution).unwrap();
    let at_21 = read_lp(&emit(&puzzle, "contest", Format::Lp, Some(21))).unwrap();
    assert_eq!(
        solve_microlp(&at_21, &Control::unlimited(), None).unwrap(),
        None
    );
}

#[test]
fn verification_rejects_what_backends_must_never_return() {
    #[allow(irrefutable_let_patterns)]
    let Puzzle::Queens(board) = contest() else {
        panic!("the contest model is a queens puzzle")
    };
    let attacking = puzzlec::puzzle::queens::QueensSolution::new(vec![(0, 0), (3, 0)]);
    assert_eq!(
        Puzzle::Queens(board.clone())
            .verify(&Solution::Queens(attacking))
            .unwrap_err()
            .0,
        "queens at (0, 0) and (3, 0) attack each other"
    );
    // Across an obstacle the same row is fine.
    let blocked = puzzlec::puzzle::queens::QueensSolution::new(vec![(0, 0), (11, 0)]);
    assert!(board.verify(&blocked).is_ok());
}
