//! The bounds every maximum packing knows before any search (the area bound and the LP
//! relaxation), held to published optima (OEIS A355477 skew tetrominoes,
//! A256535 T tetrominoes, A233036 I tetrominoes, A214294 V pentominoes in n x n), and the
//! bound a stopped run reports.

use crate::common;

use common::{models, puzzlec};
use puzzlec::base::{Control, Goal, Status};
use puzzlec::driver::packing_bounds::{packing_bounds, LpOutcome};
use puzzlec::driver::{solve, Backend, Outcome};
use puzzlec::puzzle::{load_model_file, Puzzle};
use std::time::Duration;

fn load(name: &str) -> Puzzle {
    load_model_file(&models().join(name)).expect("the shipped model loads")
}

fn maximise(puzzle: &Puzzle, backend: Backend, control: &Control) -> Outcome {
    solve(puzzle, backend, Goal::Maximise, control).unwrap()
}

fn limit(seconds: f64) -> Control {
    Control::new(Default::default(), Some(Duration::from_secs_f64(seconds)))
}

/// The tiling that meets the area bound comes from whichever finds one first: the exact
/// cover beside the doll, or the doll itself, whose area cut leaves it nothing else to try
/// (the I tetrominoes: 819 nodes).
#[test]
fn t_and_i_tetrominoes_tile_12x12_so_the_area_bound_proves_36_at_once() {
    for model in ["t-tetromino-12x12.toml", "i-tetromino-12x12.toml"] {
        let outcome = maximise(&load(model), Backend::Native, &Control::unlimited());
        assert_eq!(outcome.answer(), "optimal 36", "{model}");
        let found = [
            "native exact cover found a tiling of 36 pieces",
            "native Russian-doll search found 36 (",
        ];
        assert!(
            found
                .iter()
                .any(|f| outcome.evidence.to_string().starts_with(f))
                && outcome
                    .evidence
                    .to_string()
                    .ends_with("which meets the area bound (144 cells / 4 cells = 36)"),
            "{model}: {}",
            outcome.evidence
        );
        assert_eq!(outcome.bounds.unwrap().area.value(), 36);
    }
}

#[test]
fn skew_tetrominoes_in_15x15_meet_the_lp_bound_49() {
    let puzzle = load("skew-tetromino-15x15.toml");
    let outcome = maximise(&puzzle, Backend::Native, &Control::unlimited());
    assert_eq!(outcome.answer(), "optimal 49");
    assert!(
        outcome.evidence.to_string().contains(
            "which meets the LP relaxation bound 49 (the relaxation's optimum is 49.000)"
        ),
        "{}",
        outcome.evidence
    );
    let bounds = outcome.bounds.unwrap();
    assert_eq!(bounds.area.value(), 56);
    assert_eq!(bounds.lp_bound().map(|b| b.value()), Some(49));
}

#[test]
fn the_lp_bound_of_skew_tetrominoes_in_14x14_is_the_published_optimum_46() {
    let Puzzle::Packing(packing) = load("skew-tetromino-14x14.toml") else {
        panic!("a packing")
    };
    let bounds = packing_bounds(&packing, &Control::unlimited(), true).unwrap();
    // 46.82...: rounded down, the optimum (A355477: a(14) = 46), which the area bound (49)
    // is not.
    assert_eq!(bounds.area.value(), 49);
    assert_eq!(bounds.best().value(), 46);
    // V pentominoes in 14 x 14: 39.2, two above the optimum 37 (A214294).
    let Puzzle::Packing(packing) = load("v-pentomino-14x14.toml") else {
        panic!("a packing")
    };
    let bounds = packing_bounds(&packing, &Control::unlimited(), true).unwrap();
    assert_eq!(bounds.best().value(), 39);
}

#[test]
fn sat_stops_at_the_bound_it_is_given() {
    // The model's stated upper bound is the area bound: the raise-k loop ends at 36
    // instead of refuting 37.
    let outcome = maximise(
        &load("i-tetromino-12x12.toml"),
        Backend::Sat,
        &Control::unlimited(),
    );
    assert_eq!(outcome.answer(), "optimal 36");
    assert!(
        outcome
            .evidence
            .to_string()
            .ends_with("which equals the upper bound (area: 144 cells / 4 cells)"),
        "{}",
        outcome.evidence
    );
}

#[test]
fn at_least_above_a_bound_is_refuted_without_a_search() {
    for backend in [Backend::Native, Backend::Sat, Backend::Milp] {
        let outcome = solve(
            &load("t-tetromino-12x12.toml"),
            backend,
            Goal::AtLeast(37),
            &Control::unlimited(),
        )
        .unwrap();
        assert_eq!(outcome.status, Status::Unsatisfiable);
        assert_eq!(outcome.bound, Some(36));
        assert_eq!(
            outcome.evidence.to_string(),
            "at least 37 is impossible: the area bound (144 cells / 4 cells = 36) is lower"
        );
    }
}

#[test]
fn a_stopped_run_never_reports_a_bound_above_the_area_or_lp_bound() {
    // The 13 x 19 cross box stopped at once, by every backend: the area bound (27) and the
    // LP bound (26, when solved in time) cap the bound reported.
    let puzzle = load("cross-13x19.toml");
    for backend in [Backend::Native, Backend::Sat, Backend::Milp] {
        let outcome = maximise(&puzzle, backend, &limit(0.05));
        let bounds = outcome.bounds.unwrap();
        if outcome.status == Status::Optimal {
            continue;
        }
        let bound = outcome
            .bound
            .expect("a stopped packing run reports a bound");
        assert!(bound <= bounds.area.value(), "{backend:?}: {outcome:?}");
        if let Some(lp) = bounds.lp_bound() {
            assert!(bound <= lp.value(), "{backend:?}: {outcome:?}");
        }
    }
    // Crosses in 40 x 40 stopped after a second: the doll's own bound is far above the
    // area bound (1600 cells / 9 = 177), and the LP is skipped (11,664 placements).
    let Puzzle::Packing(cross) = puzzle else {
        panic!("a packing")
    };
    let large = Puzzle::Packing(cross.open_box(40, 40));
    let outcome = maximise(&large, Backend::Native, &limit(1.0));
    assert_eq!(outcome.status, Status::Feasible);
    assert_eq!(outcome.bound, Some(177));
    let bounds = outcome.bounds.unwrap();
    assert_eq!(bounds.lp, LpOutcome::Skipped { placements: 11_664 });
    assert!(
        outcome.evidence.to_string().contains(
            "; at most 177 by the area bound (1600 cells / 9 cells = 177) (the LP relaxation \
             bound was not computed: 11664 placements, more than 2000)"
        ),
        "{}",
        outcome.evidence
    );
}

#[test]
fn solve_json_gives_the_bounds() {
    let run = puzzlec(&models(), &["solve", "t-tetromino-12x12.toml", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["value"], 36);
    assert_eq!(json["bounds"]["area"], 36);
    // A queens model has none.
    let run = puzzlec(&models(), &["solve", "queens-8.toml", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(json["bounds"].is_null());
}

/// Skew tetrominoes in 14 x 14: the LP bound (46) is the optimum, and the native search
/// finds a packing of 46 in about a second since its nodes are weighed by each scan row's LP
/// dual (before: 141 s, release build).
#[test]
fn skew_tetrominoes_in_14x14_pack_46() {
    let outcome = maximise(
        &load("skew-tetromino-14x14.toml"),
        Backend::Native,
        &Control::unlimited(),
    );
    assert_eq!(outcome.answer(), "optimal 46");
}

/// Skew tetrominoes in 16 x 16 (840 placements): the box's LP is solved beside the doll, not
/// before it; the race finds a packing within a few pieces of the LP bound and hands the doll
/// each scan row's LP dual, with which it proves 60 (A355477) in about 15 s (release build).
/// Without them it did not prove it in 120 s.
#[test]
fn skew_tetrominoes_in_16x16_are_proved_60_with_the_weights_the_race_hands_over() {
    let Puzzle::Packing(packing) = load("skew-tetromino-15x15.toml") else {
        panic!("a packing")
    };
    let puzzle = Puzzle::Packing(packing.open_box(16, 16));
    let outcome = maximise(&puzzle, Backend::Native, &limit(600.0));
    assert_eq!(outcome.answer(), "optimal 60", "{}", outcome.evidence);
    assert!(
        outcome
            .evidence
            .to_string()
            .contains("cuts by the LP dual's cell weights"),
        "{}",
        outcome.evidence
    );
}

/// V pentominoes in 14 x 14: 37 (A214294), proved by the Russian doll alone (the bounds are
/// 39), in seconds since its area cut (before it, about 90 s in a release build).
#[test]
fn v_pentominoes_in_14x14_pack_37() {
    let outcome = maximise(
        &load("v-pentomino-14x14.toml"),
        Backend::Native,
        &Control::unlimited(),
    );
    assert_eq!(outcome.answer(), "optimal 37");
}

/// With no backend named, skew tetrominoes in 14 x 14 are settled by the portfolio: SAT,
/// joining the native search after its head start, meets the LP bound of 46 in about half
/// a second (the doll alone takes about 1.4 s); the evidence says what the other had.
#[test]
fn the_default_portfolio_settles_skew_tetrominoes_in_14x14() {
    let args = [
        "solve",
        "skew-tetromino-14x14.toml",
        "--json",
        "--time-limit",
        "120",
    ];
    let run = puzzlec(&models(), &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        (json["status"].as_str(), json["value"].as_u64()),
        (Some("optimal"), Some(46))
    );
    let evidence = json["evidence"].as_str().unwrap();
    assert!(evidence.contains(" (portfolio: "), "{evidence}");
}

/// A quick answer is the native search's alone (SAT would join only after the head
/// start), and a named backend is never a portfolio.
#[test]
fn quick_answers_and_named_backends_are_one_search() {
    let puzzle = load("cross-13x19.toml");
    let Puzzle::Packing(packing) = puzzle else {
        panic!("a packing")
    };
    let small = Puzzle::Packing(packing.open_box(7, 7));
    let control = Control::unlimited();
    let outcome =
        puzzlec::driver::portfolio::solve_portfolio(&small, Goal::Maximise, &control, 1 << 30)
            .unwrap();
    assert_eq!(outcome.answer(), "optimal 2");
    // A few milliseconds; a machine too busy to answer within the head start is the one
    // case where SAT may have joined.
    if outcome.elapsed < puzzlec::driver::portfolio::HEAD_START {
        assert_eq!(outcome.backend, Backend::Native);
        assert!(
            !outcome.evidence.to_string().contains("portfolio"),
            "{}",
            outcome.evidence
        );
    }
    let run = puzzlec(
        &models(),
        &[
            "solve",
            "skew-tetromino-14x14.toml",
            "--backend",
            "native",
            "--time-limit",
            "3",
        ],
    );
    assert!(!run.stderr.contains("portfolio"), "{}", run.stderr);
}
