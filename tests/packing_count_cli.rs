//! Tiling counts through `solve --count`: raw and up to the region's symmetries.

mod common;

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
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stderr,
        "error: native backend: counting is available for tiling models (goal = \"tile\"); this model maximises\n"
    );
}
