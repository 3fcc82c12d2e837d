//! Empty N x N boards: one queen per row bounds the optimum by N, and for N >= 4 the
//! explicit construction reaches it, so every backend proves N optimal at once and says
//! how. N = 1..3 (where the construction does not exist) still go through the solvers.

use crate::common;

use puzzlec::base::{Control, Goal, Status};
use puzzlec::driver::{solve, Backend};
use puzzlec::puzzle::queens::Queens;
use puzzlec::puzzle::Puzzle;
use std::time::{Duration, Instant};

fn optimum(n: usize, backend: Backend) -> puzzlec::driver::Outcome {
    let puzzle = Puzzle::Queens(Queens::empty(n));
    let outcome = solve(&puzzle, backend, Goal::Maximise, &Control::unlimited()).unwrap();
    assert_eq!(
        outcome.status,
        Status::Optimal,
        "n = {n}, {}: {}",
        backend.name(),
        outcome.evidence
    );
    outcome
}

#[test]
fn every_backend_proves_n_optimal_at_once_for_n_from_4_to_64() {
    for backend in Backend::ALL {
        let start = Instant::now();
        for n in 4..=64 {
            let outcome = optimum(n, backend);
            assert_eq!(outcome.value, Some(n), "n = {n}, {}", backend.name());
            assert_eq!(outcome.bound, Some(n), "n = {n}, {}", backend.name());
            // The evidence names the row bound; SAT and MILP start from the construction.
            assert!(
                outcome.evidence.to_string().contains("one queen per row"),
                "n = {n}, {}: {}",
                backend.name(),
                outcome.evidence
            );
            if backend != Backend::Native {
                assert!(
                    outcome
                        .evidence
                        .to_string()
                        .contains("explicit construction (even columns, then odd")
                        && outcome
                            .evidence
                            .to_string()
                            .contains("no solver call was needed"),
                    "n = {n}, {}: {}",
                    backend.name(),
                    outcome.evidence
                );
            }
        }
        // "At once": all 61 boards in well under the 2.2 s SAT alone needed for n = 64 by
        // raising k (MILP needed 26 s), even in a debug build.
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{}: {:?}",
            backend.name(),
            start.elapsed()
        );
    }
}

#[test]
fn small_boards_without_a_construction_are_still_solved() {
    for (n, best) in [(1, 1), (2, 1), (3, 2)] {
        for backend in Backend::ALL {
            assert_eq!(optimum(n, backend).value, Some(best), "n = {n}");
        }
    }
}

#[test]
fn decisions_use_the_construction_and_the_bound() {
    let puzzle = Puzzle::Queens(Queens::empty(40));
    for backend in [Backend::Sat, Backend::Milp] {
        let yes = solve(&puzzle, backend, Goal::AtLeast(40), &Control::unlimited()).unwrap();
        assert_eq!(yes.status, Status::Satisfiable, "{}", yes.evidence);
        assert_eq!(yes.value, Some(40));
    }
    let no = solve(
        &puzzle,
        Backend::Sat,
        Goal::AtLeast(41),
        &Control::unlimited(),
    )
    .unwrap();
    assert_eq!(no.status, Status::Unsatisfiable, "{}", no.evidence);
}

#[test]
fn the_row_bound_is_stated_only_for_boards_without_obstacles() {
    let empty = Queens::from_rows(&["-----", "-----", "-----"]);
    let bound = empty.line_bound().unwrap();
    assert_eq!(bound.value, 3);
    assert_eq!(bound.reason, "one queen per row of an empty board: 3 rows");
    let tall = Queens::from_rows(&["--", "--", "--"]);
    assert_eq!(
        tall.line_bound().unwrap().reason,
        "one queen per column of an empty board: 2 columns"
    );
    assert_eq!(Queens::from_rows(&["-*-", "---"]).line_bound(), None);
}

/// External solvers are always run (no construction is handed to them), but the bound
/// the puzzle knows to be reached is asked for first: one SAT call, and CBC gets the bound.
#[test]
fn external_solvers_ask_for_the_row_bound_first() {
    use puzzlec::driver::external::ExternalSolver;
    use puzzlec::driver::solve_external;
    if !common::programs_or_skip(
        module_path!(),
        &[("minisat", "minisat"), ("cbc", "coinor-cbc")],
    ) {
        return;
    }
    for n in [4, 9, 24] {
        let puzzle = Puzzle::Queens(Queens::empty(n));
        for (backend, program) in [(Backend::Sat, "minisat"), (Backend::Milp, "cbc")] {
            let solver = ExternalSolver::parse(backend, program).unwrap();
            let outcome =
                solve_external(&puzzle, &solver, Goal::Maximise, &Control::unlimited()).unwrap();
            assert_eq!(outcome.status, Status::Optimal, "{program}, n = {n}");
            assert_eq!(outcome.value, Some(n), "{program}, n = {n}");
            if backend == Backend::Sat {
                assert!(
                    outcome.evidence.to_string().contains("minisat found")
                        && outcome
                            .evidence
                            .to_string()
                            .contains("when asked for it first")
                        && outcome.evidence.to_string().contains("one queen per row"),
                    "n = {n}: {}",
                    outcome.evidence
                );
            }
        }
    }
}
