//! Tiling counts through `solve --count`: raw and up to the region's symmetries.

use crate::common;

use common::{models, puzzlec};

#[test]
fn pentomino_tilings_count_9356_raw_and_2339_up_to_symmetry() {
    let run = puzzlec(
        &models(),
        &["solve", "pentomino-6x10.toml", "--count", "--unique"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "2339\n9356 solutions in all\n");
    assert!(
        run.stderr
            .contains("9356 tilings, 2339 up to the region's 4 symmetries"),
        "{}",
        run.stderr
    );
    let run = puzzlec(&models(), &["solve", "pentomino-6x10.toml", "--count"]);
    assert_eq!(run.stdout, "9356\n");
}

#[test]
fn counting_a_maximisation_packing_is_refused_clearly() {
    let run = puzzlec(&models(), &["solve", "cross-13x19.toml", "--count"]);
    // A flag that does not apply is bad input: exit 2, and no backend to blame.
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: counting is available for tiling models (goal = \"tile\"); this model maximises\n"
    );
}

#[test]
fn all_lists_every_tiling_of_3_by_20_verified() {
    // The same twelve pentominoes in a 3 x 20 box: 2 tilings up to symmetry, 8 in all.
    let text = std::fs::read_to_string(models().join("pentomino-6x10.toml"))
        .unwrap()
        .replace("width = 10\nheight = 6", "width = 20\nheight = 3");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p3x20.toml"), text).unwrap();
    let run = puzzlec(dir.path(), &["solve", "p3x20.toml", "--all"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let boards: Vec<&str> = run.stdout.lines().filter(|l| l.starts_with(' ')).collect();
    // One band of 8 boards side by side, 3 rows each.
    assert_eq!(boards.len(), 3);
    assert_eq!(boards[0].split_whitespace().count(), 8);
    assert!(run.stdout.ends_with("\n8\n"));
    let run = puzzlec(dir.path(), &["solve", "p3x20.toml", "--count", "--unique"]);
    assert_eq!(run.stdout, "2\n8 solutions in all\n");
}
