//! The dissection family through every backend: the seed's known answer, glued shapes that
//! must split, and seeded random shapes on which the backends must agree.

use crate::common;
use common::{glued, random_polyomino};

use puzzlec::base::{Control, Goal, Incumbent, Status};
use puzzlec::driver::enumerate::enumerate_dissections;
use puzzlec::driver::{solve, Backend};
use puzzlec::model::{Assignment, LazyConstraint, Lit, Var};
use puzzlec::puzzle::dissection::DissectionPuzzle;
use puzzlec::puzzle::{Family, Puzzle, Solution};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;

const SEED_SHAPE: &str = "
...###.
...####
...#.##
######.
######.
..##.#.
..#....
";

const SEED_ANSWER: &str = "...AAA.
...AABB
...A.BB
AAAAAB.
AABBBB.
..BB.B.
..B....
";

/// Every dissection's labels, with `backend`; fails unless the enumeration completed.
fn all_labels(puzzle: &DissectionPuzzle, backend: Backend) -> Vec<Vec<u8>> {
    let mut found = Vec::new();
    let count = enumerate_dissections(puzzle, backend, &Control::unlimited(), &mut |d| {
        found.push(d.labels.clone());
        true
    })
    .unwrap();
    assert!(count.complete);
    assert_eq!(count.count as usize, found.len());
    let distinct: HashSet<&Vec<u8>> = found.iter().collect();
    assert_eq!(distinct.len(), found.len(), "a dissection listed twice");
    found
}

/// Excludes given part-variable assignments: the MILP backend re-solves with it as a lazy
/// constraint, so "nothing else" is proved by microlp itself.
struct Exclude {
    vars: Vec<Var>,
    seen: Vec<Vec<bool>>,
}

impl LazyConstraint for Exclude {
    fn name(&self) -> &str {
        "exclude found dissections"
    }

    fn cuts(&self, assignment: &Assignment) -> Vec<Vec<Lit>> {
        let values: Vec<bool> = self.vars.iter().map(|&v| assignment.value(v)).collect();
        if !self.seen.contains(&values) {
            return Vec::new();
        }
        vec![self
            .vars
            .iter()
            .map(|&v| {
                if assignment.value(v) {
                    v.negative()
                } else {
                    v.positive()
                }
            })
            .collect()]
    }
}

/// MILP enumeration for the tests: solve, exclude, repeat until microlp proves infeasibility.
fn milp_count(puzzle: &DissectionPuzzle) -> usize {
    let vars = puzzle.solution_vars();
    let mut seen: Vec<Vec<bool>> = Vec::new();
    loop {
        let mut model = puzzle.compile();
        model.lazy.push(Box::new(Exclude {
            vars: vars.clone(),
            seen: seen.clone(),
        }));
        let raw = puzzlec::oracle::answer(
            puzzlec::oracle::Solver::Microlp,
            &model,
            Goal::Maximise,
            &Control::unlimited(),
            &Incumbent::new(),
        )
        .unwrap();
        match raw.status {
            Status::Unsatisfiable => return seen.len(),
            Status::Satisfiable => {
                let assignment = raw.witness.unwrap();
                puzzle.verify(&puzzle.decode(&assignment)).unwrap();
                seen.push(vars.iter().map(|&v| assignment.value(v)).collect());
            }
            other => panic!("milp ended {other:?}"),
        }
    }
}

#[test]
fn seed_shape_has_exactly_one_dissection_in_every_backend() {
    let puzzle = DissectionPuzzle::from_picture(SEED_SHAPE, 2, true);
    assert_eq!(puzzle.cells().len(), 26);
    for backend in [Backend::Native, Backend::Sat] {
        let found = all_labels(&puzzle, backend);
        assert_eq!(found.len(), 1, "{backend:?}");
    }
    assert_eq!(milp_count(&puzzle), 1);
    let wrapped = Puzzle::Dissection(puzzle.clone());
    for backend in Backend::ALL {
        let outcome = solve(&wrapped, backend, Goal::Maximise, &Control::unlimited()).unwrap();
        assert_eq!(outcome.status, Status::Satisfiable, "{backend:?}");
        assert_eq!(outcome.value, None);
        let Some(Solution::Dissection(d)) = &outcome.solution else {
            panic!("no dissection from {backend:?}");
        };
        assert_eq!(puzzle.render(d), SEED_ANSWER, "{backend:?}");
    }
    // Its halves are mirror images: without reflection there is none.
    let rigid = DissectionPuzzle::from_picture(SEED_SHAPE, 2, false);
    assert!(all_labels(&rigid, Backend::Sat).is_empty());
    assert_eq!(milp_count(&rigid), 0);
}

#[test]
fn small_counts_known_by_hand() {
    // 2x2 into dominoes: two cuts; 3x2 into trominoes: straight, and two L pairs;
    // 3x3 into three: rows or columns; a strip into cells, or a shape into one part: one.
    for (picture, parts, expected) in [
        ("##\n##", 2, 2),
        ("###\n###", 2, 3),
        ("###\n###\n###", 3, 2),
        ("####", 4, 1),
        ("#", 1, 1),
    ] {
        let puzzle = DissectionPuzzle::from_picture(picture, parts, true);
        assert_eq!(
            all_labels(&puzzle, Backend::Sat).len(),
            expected,
            "{picture}"
        );
        assert_eq!(
            all_labels(&puzzle, Backend::Native).len(),
            expected,
            "{picture}"
        );
    }
}

#[test]
fn glued_shapes_split_in_every_backend() {
    let mut rng = ChaCha8Rng::seed_from_u64(2005);
    for round in 0..30 {
        let reflect = round % 3 != 0;
        let parts = [2, 2, 3][round % 3];
        let size = rng.gen_range(2..=8);
        let cells = glued(&mut rng, size, parts, reflect);
        let puzzle = DissectionPuzzle::from_cells(&cells, parts, reflect);
        assert!(puzzle.trivially_impossible().is_none());
        let wrapped = Puzzle::Dissection(puzzle);
        for backend in Backend::ALL {
            let outcome = solve(&wrapped, backend, Goal::Maximise, &Control::unlimited()).unwrap();
            assert_eq!(
                outcome.status,
                Status::Satisfiable,
                "{backend:?} on {cells:?} into {parts}"
            );
        }
    }
}

#[test]
fn random_shapes_get_the_same_count_from_every_backend() {
    let mut rng = ChaCha8Rng::seed_from_u64(401);
    let mut with_dissection = 0;
    for round in 0..120 {
        let reflect = round % 2 == 0;
        let parts = [2, 2, 3, 4][round % 4];
        let cells = if round % 3 == 0 {
            let size = rng.gen_range(1..=30 / parts);
            glued(&mut rng, size, parts, reflect)
        } else {
            let size = parts * rng.gen_range(1..=30 / parts);
            random_polyomino(&mut rng, size)
        };
        let puzzle = DissectionPuzzle::from_cells(&cells, parts, reflect);
        let native = all_labels(&puzzle, Backend::Native);
        let sat = all_labels(&puzzle, Backend::Sat);
        let native: HashSet<Vec<u8>> = native.into_iter().collect();
        let sat: HashSet<Vec<u8>> = sat.into_iter().collect();
        assert_eq!(sat, native, "{cells:?} into {parts}, reflect {reflect}");
        if !native.is_empty() {
            with_dissection += 1;
        }
        if round % 4 == 1 {
            // MILP counts too, by no-good cuts (kept to shapes with few dissections: each
            // one costs a fresh branch and bound).
            if native.len() <= 12 {
                assert_eq!(
                    milp_count(&puzzle),
                    native.len(),
                    "milp on {cells:?} into {parts}"
                );
            }
            let outcome = solve(
                &Puzzle::Dissection(puzzle),
                Backend::Milp,
                Goal::Maximise,
                &Control::unlimited(),
            )
            .unwrap();
            let exists = outcome.status == Status::Satisfiable;
            assert_eq!(exists, !native.is_empty(), "milp on {cells:?} into {parts}");
        }
    }
    // The sample is not all trivial: both answers occur often.
    assert!(with_dissection >= 40, "{with_dissection}");
    assert!(with_dissection <= 110, "{with_dissection}");
}

#[test]
fn impossible_shapes_give_the_reason_in_every_backend() {
    let square = DissectionPuzzle::from_picture("#####\n#####\n#####\n#####\n#####", 2, true);
    let wrapped = Puzzle::Dissection(square);
    for backend in Backend::ALL {
        let outcome = solve(&wrapped, backend, Goal::Maximise, &Control::unlimited()).unwrap();
        assert_eq!(outcome.status, Status::Unsatisfiable);
        assert_eq!(
            outcome.evidence.to_string(),
            "no dissection: 25 cells cannot be split into 2 equal parts"
        );
    }
}
