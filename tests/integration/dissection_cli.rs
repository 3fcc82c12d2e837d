//! The dissection family on the command line: the seed's answer, impossible shapes, and bad
//! model files.

use crate::common;

use common::{models, puzzlec, Run};

fn solve_text(contents: &str, extra: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("model.toml"), contents).unwrap();
    let mut args = vec!["solve", "model.toml"];
    args.extend_from_slice(extra);
    puzzlec(dir.path(), &args)
}

fn assert_input_error(run: &Run, expected: &str) {
    assert_eq!(run.code, 2, "stderr: {}", run.stderr);
    assert_eq!(run.stderr, format!("error: {expected}\n"));
    assert_eq!(run.stdout, "");
}

#[test]
fn the_seed_model_prints_its_one_dissection_with_every_backend() {
    let dir = tempfile::tempdir().unwrap();
    let model = models().join("halves-asahi-2005.toml");
    for backend in ["sat", "milp", "native"] {
        let run = puzzlec(
            dir.path(),
            &["solve", model.to_str().unwrap(), "--backend", backend],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(
            run.stdout,
            "...AAA.\n...AABB\n...A.BB\nAAAAAB.\nAABBBB.\n..BB.B.\n..B....\n"
        );
        assert!(
            run.stderr
                .starts_with(&format!("satisfiable by {backend} in ")),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn a_shape_that_cannot_split_evenly_says_why_and_exits_0() {
    let run = solve_text(
        "kind = \"dissection\"\nshape = \"\"\"\n#####\n#####\n#####\n#####\n#####\n\"\"\"\n",
        &["--backend", "native"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "unsatisfiable\n");
    assert!(
        run.stderr
            .contains("no dissection: 25 cells cannot be split into 2 equal parts"),
        "{}",
        run.stderr
    );
}

#[test]
fn three_parts_and_no_reflection_are_read() {
    // A 3x3 square into three without reflection: rows or columns; one is printed.
    let run = solve_text(
        "kind = \"dissection\"\nparts = 3\nreflect = false\nshape = \"\"\"\n###\n###\n###\n\"\"\"\n",
        &["--backend", "sat"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout == "AAA\nBBB\nCCC\n" || run.stdout == "ABC\nABC\nABC\n",
        "{}",
        run.stdout
    );
}

#[test]
fn a_disconnected_shape_with_too_many_pieces_says_why() {
    let run = solve_text(
        "kind = \"dissection\"\nshape = \"\"\"\n#.#.#\n\"\"\"\nparts = 1\n",
        &["--backend", "sat"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("no dissection: the shape is not connected"),
        "{}",
        run.stderr
    );
}

#[test]
fn at_least_is_refused_for_a_family_without_objective() {
    let model = models().join("halves-asahi-2005.toml");
    let dir = tempfile::tempdir().unwrap();
    let run = puzzlec(
        dir.path(),
        &["solve", model.to_str().unwrap(), "--at-least", "1"],
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: --at-least does not apply: a dissection puzzle has no objective\n"
    );
}

#[test]
fn unknown_keys_are_rejected() {
    let run = solve_text("kind = \"dissection\"\nshape = \"##\"\npieces = 2\n", &[]);
    assert_input_error(
        &run,
        "model.toml:3: unknown field `pieces`, expected one of `kind`, `description`, `shape`, `parts`, `reflect`",
    );
}

#[test]
fn bad_characters_are_named_with_their_line() {
    let run = solve_text(
        "kind = \"dissection\"\nshape = \"\"\"\n##\n#x\n\"\"\"\n",
        &[],
    );
    assert_input_error(
        &run,
        "model.toml:4: `shape` has unknown character 'x' (expected '#', '.')",
    );
}

#[test]
fn ragged_rows_are_rejected() {
    let run = solve_text(
        "kind = \"dissection\"\nshape = \"\"\"\n##\n###\n\"\"\"\n",
        &[],
    );
    assert_input_error(
        &run,
        "model.toml:4: `shape` row 2 has 3 cells, but row 1 has 2: rows must have equal length",
    );
}

#[test]
fn absurd_part_counts_are_rejected() {
    let run = solve_text("kind = \"dissection\"\nshape = \"##\"\nparts = 0\n", &[]);
    assert_input_error(
        &run,
        "model.toml:3: `parts` is 0; it must be between 1 and 2 (the shape has 2 cells; at most 52 parts, one letter each)",
    );
    let run = solve_text(
        "kind = \"dissection\"\nshape = \"##\"\nparts = 9999999999\n",
        &[],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run
        .stderr
        .starts_with("error: model.toml:3: `parts` is 9999999999"));
    let run = solve_text(
        "kind = \"dissection\"\nshape = \"##\"\nparts = \"two\"\n",
        &[],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.starts_with("error: model.toml:3: "),
        "{}",
        run.stderr
    );
}

#[test]
fn missing_or_empty_shapes_are_rejected() {
    let run = solve_text("kind = \"dissection\"\nparts = 2\n", &[]);
    assert_input_error(
        &run,
        "model.toml:1: missing key `shape` (a grid of '#' for cells and '.' outside)",
    );
    let run = solve_text("kind = \"dissection\"\nshape = \"\"\"\n...\n\"\"\"\n", &[]);
    assert_input_error(&run, "model.toml:2: `shape` has no cell ('#')");
}

#[test]
fn all_and_count_list_each_dissection_once() {
    let model = models().join("halves-asahi-2005.toml");
    let model = model.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    for backend in ["native", "sat"] {
        let run = puzzlec(dir.path(), &["solve", model, "--all", "--backend", backend]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(
            run.stdout,
            " ...AAA.\n ...AABB\n ...A.BB\n AAAAAB.\n AABBBB.\n ..BB.B.\n ..B....\n\n1\n"
        );
        let run = puzzlec(
            dir.path(),
            &["solve", model, "--count", "--backend", backend],
        );
        assert_eq!(run.stdout, "1\n");
    }
    // A 2 x 3 rectangle splits into two congruent halves in three ways.
    let run = solve_text(
        "kind = \"dissection\"\nshape = \"\"\"\n###\n###\n\"\"\"\n",
        &["--count"],
    );
    assert_eq!(run.stdout, "3\n", "{}", run.stderr);
    let run = solve_text(
        "kind = \"dissection\"\nshape = \"##\"\n",
        &["--count", "--unique"],
    );
    // A flag that does not apply is bad input: exit 2, and no backend to blame.
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: --unique is not available for dissections\n"
    );
}

#[test]
fn emit_refuses_at_least_for_a_family_without_objective() {
    let model = models().join("halves-asahi-2005.toml");
    let dir = tempfile::tempdir().unwrap();
    let run = puzzlec(
        dir.path(),
        &[
            "emit",
            model.to_str().unwrap(),
            "--format",
            "dimacs",
            "--at-least",
            "1",
        ],
    );
    assert_input_error(
        &run,
        "--at-least does not apply: a dissection puzzle has no objective",
    );
}
