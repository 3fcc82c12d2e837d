//! Emitted files of models with lazy constraints are exactly the puzzle: a dissection's
//! DIMACS, run through CaDiCaL, is unsatisfiable when no dissection exists, and otherwise
//! its answer decodes to a dissection that the puzzle's rules accept. Skipped (with a
//! "SKIPPED" line) when `cadical` is not installed, unless `PUZZLEC_REQUIRE_EXTERNAL=1`.

use crate::common;

use common::{models, random_polyomino};
use puzzlec::driver::emit::{emit, Format};
use puzzlec::engines::dissection::dissect;
use puzzlec::model::Assignment;
use puzzlec::puzzle::dissection::DissectionPuzzle;
use puzzlec::puzzle::load_model_file;
use puzzlec::puzzle::Puzzle;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::process::Command;
use std::sync::atomic::AtomicBool;

/// CaDiCaL's answer for the DIMACS `text`: `None` when unsatisfiable, else every
/// variable's value.
fn cadical(text: &str, name: &str) -> Option<Vec<bool>> {
    let path = std::env::temp_dir().join(format!("puzzlec-emit-complete-{name}.cnf"));
    std::fs::write(&path, text).unwrap();
    let output = Command::new("cadical")
        .arg("-q")
        .arg(&path)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    let stdout = String::from_utf8_lossy(&output.stdout);
    match output.status.code() {
        Some(20) => return None,
        Some(10) => {}
        code => panic!("cadical exited {code:?}: {stdout}"),
    }
    let mut values = Vec::new();
    for line in stdout.lines().filter_map(|l| l.strip_prefix("v ")) {
        for number in line.split_whitespace().map(|n| n.parse::<i64>().unwrap()) {
            if number != 0 {
                values.push(number > 0);
            }
        }
    }
    Some(values)
}

#[test]
fn dimacs_of_an_impossible_dissection_is_unsatisfiable() {
    if !common::cadical_or_skip(module_path!()) {
        return;
    }
    let path = models().join("halves-impossible.toml");
    let puzzle = load_model_file(&path).unwrap();
    let text = emit(&puzzle, "halves-impossible.toml", Format::Dimacs, None);
    assert!(text.contains("written out in full"), "{}", &text[..300]);
    assert!(!text.contains("WARNING"));
    assert_eq!(cadical(&text, "impossible"), None);
}

#[test]
fn dimacs_answer_of_the_asahi_dissection_decodes_to_a_dissection() {
    if !common::cadical_or_skip(module_path!()) {
        return;
    }
    let path = models().join("halves-asahi-2005.toml");
    let puzzle = load_model_file(&path).unwrap();
    let text = emit(&puzzle, "halves-asahi-2005.toml", Format::Dimacs, None);
    let values = cadical(&text, "asahi").expect("the Asahi dissection exists");
    let model_vars = puzzle.compile().num_vars();
    let assignment = Assignment::new(values[..model_vars].to_vec());
    let solution = puzzle.decode(&assignment);
    puzzle.verify(&solution).unwrap();
}

/// Random small shapes: CaDiCaL on the emitted DIMACS finds a dissection exactly when the
/// native search does, and what it finds is one.
#[test]
fn dimacs_of_random_shapes_agrees_with_the_native_search() {
    if !common::cadical_or_skip(module_path!()) {
        return;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    let mut outcomes = [0, 0];
    for round in 0..24 {
        let reflect = round % 2 == 0;
        let (size, parts) = [(8, 2), (10, 2), (12, 2), (9, 3), (12, 3), (12, 4)][round % 6];
        let cells = random_polyomino(&mut rng, size);
        let stop = AtomicBool::new(false);
        let native = dissect(&cells, parts, reflect, &mut |_| false, &stop);
        let exists = native.count > 0;
        let puzzle = Puzzle::Dissection(DissectionPuzzle::from_cells(&cells, parts, reflect));
        let text = emit(&puzzle, "random", Format::Dimacs, None);
        let answer = cadical(&text, &format!("random-{round}"));
        assert_eq!(
            answer.is_some(),
            exists,
            "round {round}: {cells:?} into {parts}"
        );
        if let Some(values) = answer {
            let model_vars = puzzle.compile().num_vars();
            let solution = puzzle.decode(&Assignment::new(values[..model_vars].to_vec()));
            puzzle.verify(&solution).unwrap();
        }
        outcomes[usize::from(exists)] += 1;
    }
    // Both answers occur, so the test says something about each.
    assert!(outcomes[0] > 0 && outcomes[1] > 0, "{outcomes:?}");
}
