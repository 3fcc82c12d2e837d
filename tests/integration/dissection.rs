//! Tests of the native dissection search against an independent checker and brute force.

use crate::common;
use common::{glued, random_polyomino};

use std::collections::{HashSet, VecDeque};
use std::sync::atomic::AtomicBool;

use puzzlec::base::Control;
use puzzlec::engines::dissection::{dissect, trivially_impossible, Cell, Dissection, Isometry};
use puzzlec::model::{Assignment, Constraint, Lit, Model};
use puzzlec::puzzle::dissection::DissectionPuzzle;
use puzzlec::puzzle::Family;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Cells of a picture, in scan order: any character but '.' or ' ' is a cell.
fn shape(picture: &str) -> Vec<Cell> {
    labelled(picture).0
}

/// Cells of a picture and their letters as labels ('A' = 0).
fn labelled(picture: &str) -> (Vec<Cell>, Vec<u8>) {
    let mut cells = Vec::new();
    let mut labels = Vec::new();
    for (y, row) in picture
        .lines()
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .enumerate()
    {
        for (x, ch) in row.chars().enumerate() {
            if ch != '.' && ch != ' ' {
                cells.push((x as i32, y as i32));
                labels.push((ch as u8).wrapping_sub(b'A'));
            }
        }
    }
    (cells, labels)
}

fn rectangle(width: i32, height: i32) -> Vec<Cell> {
    (0..height)
        .flat_map(|y| (0..width).map(move |x| (x, y)))
        .collect()
}

/// Every dissection found, each checked by [`verify`]; fails on a repeated answer.
fn all_dissections(cells: &[Cell], parts: usize, reflect: bool) -> Vec<Dissection> {
    let mut found = Vec::new();
    let stop = AtomicBool::new(false);
    let search = dissect(
        cells,
        parts,
        reflect,
        &mut |d| {
            found.push(d.clone());
            true
        },
        &stop,
    );
    assert!(search.complete);
    assert_eq!(search.count as usize, found.len());
    for d in &found {
        verify(cells, parts, reflect, d);
    }
    let distinct: HashSet<&Vec<u8>> = found.iter().map(|d| &d.labels).collect();
    assert_eq!(
        distinct.len(),
        found.len(),
        "a dissection was reported twice"
    );
    found
}

fn connected(part: &HashSet<Cell>) -> bool {
    let Some(&start) = part.iter().next() else {
        return false;
    };
    let mut seen = HashSet::from([start]);
    let mut queue = VecDeque::from([start]);
    while let Some((x, y)) = queue.pop_front() {
        for next in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
            if part.contains(&next) && seen.insert(next) {
                queue.push_back(next);
            }
        }
    }
    seen.len() == part.len()
}

fn part(cells: &[Cell], labels: &[u8], label: u8) -> HashSet<Cell> {
    cells
        .iter()
        .zip(labels)
        .filter(|(_, &l)| l == label)
        .map(|(&c, _)| c)
        .collect()
}

fn maps_onto(map: &Isometry, from: &HashSet<Cell>, to: &HashSet<Cell>) -> bool {
    from.len() == to.len() && from.iter().all(|&c| to.contains(&map.apply(c)))
}

/// Independent check of an answer: a partition into equal connected parts, numbered by first
/// appearance, each the image of part 0 under its claimed map, that map allowed and least.
fn verify(cells: &[Cell], parts: usize, reflect: bool, d: &Dissection) {
    assert_eq!(d.labels.len(), cells.len());
    assert_eq!(d.maps.len() + 1, parts);
    let mut next = 0;
    for &label in &d.labels {
        assert!((label as usize) < parts);
        assert!(label <= next, "labels not numbered by first appearance");
        if label == next {
            next += 1;
        }
    }
    let pieces: Vec<HashSet<Cell>> = (0..parts as u8)
        .map(|l| part(cells, &d.labels, l))
        .collect();
    for piece in &pieces {
        assert_eq!(piece.len(), cells.len() / parts);
        assert!(connected(piece), "a part is not connected");
    }
    for (i, map) in d.maps.iter().enumerate() {
        assert!(reflect || !map.is_reflection(), "reflection used");
        assert!(
            maps_onto(map, &pieces[0], &pieces[i + 1]),
            "map {i} is wrong"
        );
        // Least: no allowed isometry with a smaller orientation works.
        for orientation in 0..map.orientation() {
            let first = pieces[0]
                .iter()
                .map(|&c| Isometry::new(orientation, (0, 0)).apply(c));
            let first = first.min_by_key(|&(x, y)| (y, x)).unwrap();
            let target = pieces[i + 1]
                .iter()
                .copied()
                .min_by_key(|&(x, y)| (y, x))
                .unwrap();
            let other = Isometry::new(orientation, (target.0 - first.0, target.1 - first.1));
            assert!(
                !maps_onto(&other, &pieces[0], &pieces[i + 1]),
                "map {i} is not least"
            );
        }
    }
}

/// A set of cells moved to the origin and sorted, for comparing shapes.
fn normalised(cells: impl Iterator<Item = Cell>) -> Vec<Cell> {
    let mut cells: Vec<Cell> = cells.collect();
    let min_x = cells.iter().map(|c| c.0).min().unwrap();
    let min_y = cells.iter().map(|c| c.1).min().unwrap();
    for c in &mut cells {
        *c = (c.0 - min_x, c.1 - min_y);
    }
    cells.sort();
    cells
}

fn congruent(a: &HashSet<Cell>, b: &HashSet<Cell>, reflect: bool) -> bool {
    let target = normalised(b.iter().copied());
    (0..if reflect { 8 } else { 4 }).any(|o| {
        let m = Isometry::ORIENTATIONS[o];
        normalised(
            a.iter()
                .map(|&(x, y)| (m[0][0] * x + m[0][1] * y, m[1][0] * x + m[1][1] * y)),
        ) == target
    })
}

/// Every labelling of the cells into `parts` equal parts numbered by first appearance
/// (so each dissection once), kept if every part is connected and congruent to part 0.
fn brute_force(cells: &[Cell], parts: usize, reflect: bool) -> HashSet<Vec<u8>> {
    fn assign(
        cells: &[Cell],
        parts: usize,
        reflect: bool,
        labels: &mut Vec<u8>,
        sizes: &mut Vec<usize>,
        found: &mut HashSet<Vec<u8>>,
    ) {
        let size = cells.len() / parts;
        if labels.len() == cells.len() {
            let pieces: Vec<HashSet<Cell>> =
                (0..parts as u8).map(|l| part(cells, labels, l)).collect();
            if pieces.iter().all(connected)
                && pieces[1..]
                    .iter()
                    .all(|p| congruent(&pieces[0], p, reflect))
            {
                found.insert(labels.clone());
            }
            return;
        }
        let used = labels.iter().max().map_or(0, |&m| m as usize + 1);
        for label in 0..parts.min(used + 1) {
            if sizes[label] < size {
                sizes[label] += 1;
                labels.push(label as u8);
                assign(cells, parts, reflect, labels, sizes, found);
                labels.pop();
                sizes[label] -= 1;
            }
        }
    }
    let mut found = HashSet::new();
    assign(
        cells,
        parts,
        reflect,
        &mut Vec::new(),
        &mut vec![0; parts],
        &mut found,
    );
    found
}

fn count(cells: &[Cell], parts: usize, reflect: bool) -> usize {
    all_dissections(cells, parts, reflect).len()
}

fn assert_matches_brute_force(cells: &[Cell], parts: usize, reflect: bool) {
    let found: HashSet<Vec<u8>> = all_dissections(cells, parts, reflect)
        .into_iter()
        .map(|d| d.labels)
        .collect();
    assert_eq!(
        found,
        brute_force(cells, parts, reflect),
        "{cells:?} into {parts}, reflect {reflect}"
    );
}

const SEED_SHAPE: &str = "
...###.
...####
...#.##
######.
######.
..##.#.
..#....
";

const SEED_ANSWER: &str = "
...AAA.
...AABB
...A.BB
AAAAAB.
AABBBB.
..BB.B.
..B....
";

#[test]
fn seed_shape_has_exactly_one_dissection_into_two_with_reflection() {
    let cells = shape(SEED_SHAPE);
    assert_eq!(cells.len(), 26);
    let found = all_dissections(&cells, 2, true);
    assert_eq!(found.len(), 1);
    let (answer_cells, answer_labels) = labelled(SEED_ANSWER);
    assert_eq!(answer_cells, cells);
    assert_eq!(found[0].labels, answer_labels);
    // The halves are mirror images, so the map is a reflection.
    assert!(found[0].maps[0].is_reflection());
}

#[test]
fn seed_shape_without_reflection_has_no_dissection() {
    // The only dissection needs a reflection, so without it there is none.
    assert_eq!(count(&shape(SEED_SHAPE), 2, false), 0);
}

#[test]
fn small_facts_checked_by_hand() {
    // 2x2 into two dominoes: a vertical or a horizontal cut.
    assert_eq!(count(&rectangle(2, 2), 2, true), 2);
    assert_eq!(count(&rectangle(2, 2), 2, false), 2);
    // 3x2 into two trominoes: two straight ones, or two L's in two ways.
    assert_eq!(count(&rectangle(3, 2), 2, true), 3);
    // 3x3 into three trominoes: rows or columns (L-trominoes cannot tile it).
    assert_eq!(count(&rectangle(3, 3), 3, true), 2);
    // A strip into unit cells or into halves: one way.
    assert_eq!(count(&rectangle(4, 1), 2, false), 1);
    assert_eq!(count(&rectangle(5, 1), 5, false), 1);
    // 2x2 into four cells, or into one part.
    assert_eq!(count(&rectangle(2, 2), 4, true), 1);
    assert_eq!(count(&rectangle(2, 2), 1, true), 1);
    // Two separate dominoes are two congruent parts.
    assert_eq!(count(&[(0, 0), (1, 0), (5, 5), (5, 6)], 2, false), 1);
    // An L tetromino: its end cell's only neighbour is forced, one way.
    assert_eq!(count(&shape("A.\nA.\nAA"), 2, true), 1);
}

#[test]
fn small_shapes_match_brute_force_into_two() {
    let shapes = [
        rectangle(2, 2),
        rectangle(3, 2),
        rectangle(4, 2),
        rectangle(4, 3),
        rectangle(4, 4),
        rectangle(8, 2),
        shape("###\n#.#\n###"),
        shape("##..\n###.\n.###\n..##"),
        shape(".##.\n####\n####\n.##."),
        shape("#...\n##..\n###.\n####"),
        shape("###.\n#.##\n####\n.#.."),
    ];
    for cells in &shapes {
        for reflect in [false, true] {
            assert_matches_brute_force(cells, 2, reflect);
        }
    }
}

#[test]
fn small_shapes_match_brute_force_into_three_and_four() {
    let shapes = [
        rectangle(3, 3),
        rectangle(3, 2),
        rectangle(6, 2),
        rectangle(4, 3),
        shape("###.\n####\n.###\n..#."),
        shape("#..\n###\n###\n.#."),
    ];
    for cells in &shapes {
        for reflect in [false, true] {
            if cells.len() % 3 == 0 {
                assert_matches_brute_force(cells, 3, reflect);
            }
            if cells.len() % 4 == 0 {
                assert_matches_brute_force(cells, 4, reflect);
            }
        }
    }
}

#[test]
fn random_small_shapes_match_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(20050401);
    for round in 0..40 {
        let reflect = round % 2 == 0;
        let (size, parts) = [(8, 2), (12, 2), (16, 2), (9, 3), (12, 3), (12, 4)][round % 6];
        let cells = random_polyomino(&mut rng, size);
        assert_matches_brute_force(&cells, parts, reflect);
        let cells = glued(&mut rng, size / parts, parts, reflect);
        assert_matches_brute_force(&cells, parts, reflect);
    }
}

#[test]
fn glued_shapes_always_split() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for round in 0..60 {
        let reflect = round % 3 != 0;
        let parts = [2, 2, 3, 4][round % 4];
        let size = rng.gen_range(3..=14);
        let cells = glued(&mut rng, size, parts, reflect);
        assert!(trivially_impossible(&cells, parts).is_none());
        assert!(count(&cells, parts, reflect) >= 1, "{cells:?} into {parts}");
    }
}

#[test]
fn input_order_decides_the_labels() {
    let cells = rectangle(3, 2);
    let mut reversed = cells.clone();
    reversed.reverse();
    let forward: HashSet<Vec<Cell>> = all_dissections(&cells, 2, true)
        .iter()
        .map(|d| part(&cells, &d.labels, 0).into_iter().collect::<Vec<_>>())
        .map(|mut p| {
            p.sort();
            p
        })
        .collect();
    for d in all_dissections(&reversed, 2, true) {
        // Part 0 holds the first input cell, which is now the last cell in scan order.
        assert_eq!(d.labels[0], 0);
        let mut other: Vec<Cell> = part(&reversed, &d.labels, 1).into_iter().collect();
        other.sort();
        assert!(forward.contains(&other));
    }
}

#[test]
fn the_callback_and_the_flag_stop_the_search() {
    let cells = rectangle(4, 4);
    let stop = AtomicBool::new(false);
    let mut seen = 0;
    let search = dissect(
        &cells,
        2,
        true,
        &mut |_| {
            seen += 1;
            false
        },
        &stop,
    );
    assert_eq!((seen, search.count, search.complete), (1, 1, false));
    let stop = AtomicBool::new(true);
    let search = dissect(&cells, 2, true, &mut |_| true, &stop);
    assert_eq!((search.count, search.complete), (0, false));
}

#[test]
fn trivially_impossible_gives_reasons() {
    let square = rectangle(5, 5);
    assert_eq!(
        trivially_impossible(&square, 2).as_deref(),
        Some("25 cells cannot be split into 2 equal parts")
    );
    assert_eq!(trivially_impossible(&square, 5), None);
    let apart = [(0, 0), (2, 0)];
    assert_eq!(
        trivially_impossible(&apart, 1).as_deref(),
        Some("the shape is not connected")
    );
    assert_eq!(trivially_impossible(&apart, 2), None);
    let three_apart = [(0, 0), (2, 0), (4, 0), (5, 0)];
    assert!(trivially_impossible(&three_apart, 2)
        .unwrap()
        .contains("3 connected components"));
    // A tromino and a lone cell: each component must hold whole parts of 2 cells.
    let uneven = [(0, 0), (1, 0), (2, 0), (9, 9)];
    assert!(trivially_impossible(&uneven, 2)
        .unwrap()
        .contains("component of 3 cells"));
    assert!(trivially_impossible(&[(0, 0), (0, 0)], 2)
        .unwrap()
        .contains("twice"));
    assert!(trivially_impossible(&[], 2).is_some());
    assert!(trivially_impossible(&square, 0).is_some());
    // An impossible shape still gives a complete, empty search.
    let search = dissect(&square, 2, true, &mut |_| true, &AtomicBool::new(false));
    assert_eq!((search.count, search.complete), (0, true));
}

#[test]
fn isometries_compose_and_invert() {
    let matrices: HashSet<[[i32; 2]; 2]> = Isometry::ORIENTATIONS.iter().copied().collect();
    assert_eq!(matrices.len(), 8);
    for o in 0..8 {
        let map = Isometry::new(o, (3, -7));
        assert_eq!(map.orientation(), o);
        assert_eq!(map.is_reflection(), o >= 4);
        let [[a, b], [c, d]] = map.matrix();
        assert_eq!((a * d - b * c == -1), map.is_reflection());
        for cell in [(0, 0), (1, 2), (-5, 4)] {
            assert_eq!(map.inverse().apply(map.apply(cell)), cell);
        }
    }
    assert_eq!(Isometry::identity().apply((4, 5)), (4, 5));
    // A quarter turn: x -> -y, y -> x (clockwise on screen, y growing downwards).
    assert_eq!(Isometry::new(1, (0, 0)).apply((1, 0)), (0, 1));
}

#[test]
#[ignore = "slow: larger brute-force cross-checks, run in release"]
fn larger_shapes_match_brute_force() {
    assert_matches_brute_force(&rectangle(6, 3), 3, true);
    assert_matches_brute_force(&rectangle(6, 3), 3, false);
    assert_matches_brute_force(&rectangle(5, 4), 2, true);
    assert_matches_brute_force(&rectangle(5, 4), 2, false);
    assert_matches_brute_force(&rectangle(6, 4), 2, true);
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    for round in 0..6 {
        let cells = random_polyomino(&mut rng, 20);
        assert_matches_brute_force(&cells, 2, round % 2 == 0);
        let cells = glued(&mut rng, 5, 3, round % 2 == 0);
        assert_matches_brute_force(&cells, 3, round % 2 == 0);
    }
}

/// The assignment with each cell in the part `labels` gives it (part variables only).
fn part_assignment(model: &Model, labels: &[usize], k: usize) -> Assignment {
    let mut values = vec![false; model.num_vars()];
    for (c, &l) in labels.iter().enumerate() {
        values[c * k + l] = true;
    }
    Assignment::new(values)
}

#[test]
fn justified_cuts_are_the_cuts_and_verify_and_every_dissection_satisfies_them() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(6);
    for (picture, k) in [
        ("####\n####\n", 2),
        ("###\n###\n###\n", 3),
        ("###.\n####\n.###\n", 2),
    ] {
        let puzzle = DissectionPuzzle::from_picture(picture, k, true);
        let model = puzzle.compile();
        let connectivity = &model.lazy[0];
        let justifier = connectivity
            .justify()
            .expect("connectivity justifies its cuts");
        let mut dissections = Vec::new();
        puzzlec::driver::native::enumerate_puzzle(&puzzle, &Control::unlimited(), &mut |d| {
            dissections.push(d.labels.iter().map(|&l| l as usize).collect::<Vec<_>>());
            true
        });
        assert!(!dissections.is_empty(), "{picture}");
        let mut made = 0;
        for _ in 0..200 {
            let labels: Vec<usize> = (0..puzzle.cells().len())
                .map(|_| rng.gen_range(0..k))
                .collect();
            let assignment = part_assignment(&model, &labels, k);
            let justified = justifier.justified_cuts(&assignment);
            let clauses: Vec<Vec<Lit>> = justified.iter().map(|j| j.clause.clone()).collect();
            assert_eq!(clauses, connectivity.cuts(&assignment));
            for cut in &justified {
                made += 1;
                assert_eq!(justifier.verify_cut(cut), Ok(()), "{}", cut.reason);
                assert!(!Constraint::Clause(cut.clause.clone()).holds(&assignment));
                for labels in &dissections {
                    let solution = part_assignment(&model, labels, k);
                    assert!(Constraint::Clause(cut.clause.clone()).holds(&solution));
                }
            }
        }
        assert!(made > 100, "{picture}: only {made} cuts");
    }
}
