//! Bad input: one clear line naming the file, the line and the problem, exit code 2.

use crate::common;

use common::{puzzlec, Run};
use std::path::Path;

/// Writes `contents` to `model.toml` in a fresh directory and runs `solve` on it.
fn solve_text(contents: &[u8]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("model.toml"), contents).unwrap();
    puzzlec(dir.path(), &["solve", "model.toml"])
}

fn assert_input_error(run: &Run, expected: &str) {
    assert_eq!(run.code, 2, "stderr: {}", run.stderr);
    assert_eq!(run.stderr, format!("error: {expected}\n"));
    assert_eq!(run.stdout, "");
}

#[test]
fn ragged_rows_name_the_row_and_its_line() {
    let run = solve_text(b"kind = \"queens\"\nboard = \"\"\"\n----\n---\n----\n\"\"\"\n");
    assert_input_error(
        &run,
        "model.toml:4: `board` row 2 has 3 cells, but row 1 has 4: rows must have equal length",
    );
}

#[test]
fn unknown_characters_are_named() {
    let run = solve_text(b"kind = \"queens\"\nboard = \"\"\"\n----\n--x-\n\"\"\"\n");
    assert_input_error(
        &run,
        "model.toml:4: `board` has unknown character 'x' (expected '-', '*')",
    );
}

#[test]
fn single_line_board_strings_count_lines_from_the_key() {
    let run = solve_text(b"kind = \"queens\"\n\nboard = \"--\\n-#\"\n");
    assert_input_error(
        &run,
        "model.toml:4: `board` has unknown character '#' (expected '-', '*')",
    );
}

#[test]
fn empty_board_is_rejected() {
    let run = solve_text(b"kind = \"queens\"\nboard = \"\"\"\n\n\"\"\"\n");
    assert_input_error(&run, "model.toml:2: `board` is empty");
}

#[test]
fn missing_kind_is_rejected() {
    let run = solve_text(b"board = \"--\"\n");
    assert_input_error(
        &run,
        "model.toml:1: missing key `kind` (one of: queens, dissection, packing, chess)",
    );
}

#[test]
fn unknown_kind_is_rejected() {
    let run = solve_text(b"# a comment\nkind = \"sudoku\"\n");
    assert_input_error(
        &run,
        "model.toml:2: unknown kind \"sudoku\" (expected one of: queens, dissection, packing, chess)",
    );
}

#[test]
fn unknown_keys_are_rejected() {
    let run = solve_text(b"kind = \"queens\"\nsize = 4\ncolour = \"red\"\n");
    assert_input_error(
        &run,
        "model.toml:3: unknown field `colour`, expected one of `kind`, `description`, `board`, `size`",
    );
}

#[test]
fn missing_board_and_size_is_rejected() {
    let run = solve_text(b"kind = \"queens\"\n");
    assert_input_error(
        &run,
        "model.toml:1: missing key `board` (a grid of '-' and '*') or `size` (an empty N x N board)",
    );
}

#[test]
fn board_and_size_together_are_rejected() {
    let run = solve_text(b"kind = \"queens\"\nboard = \"--\"\nsize = 2\n");
    assert_input_error(
        &run,
        "model.toml:3: give either `board` or `size`, not both",
    );
}

#[test]
fn absurd_sizes_are_rejected() {
    let run = solve_text(b"kind = \"queens\"\nsize = 1000000\n");
    assert_input_error(
        &run,
        "model.toml:2: `size` is 1000000; it must be between 1 and 64",
    );
    let run = solve_text(b"kind = \"queens\"\nsize = 0\n");
    assert_input_error(
        &run,
        "model.toml:2: `size` is 0; it must be between 1 and 64",
    );
    let wide = format!("kind = \"queens\"\nboard = \"{}\"\n", "-".repeat(65));
    let run = solve_text(wide.as_bytes());
    assert_input_error(
        &run,
        "model.toml:2: `board` is 65 x 1; at most 64 x 64 is supported",
    );
}

#[test]
fn wrong_types_are_rejected() {
    let run = solve_text(b"kind = \"queens\"\nsize = \"eight\"\n");
    assert_input_error(
        &run,
        "model.toml:2: invalid type: string \"eight\", expected a whole number",
    );
}

#[test]
fn toml_syntax_errors_name_the_line() {
    let run = solve_text(b"kind = \"queens\"\nsize = \n");
    assert_input_error(&run, "model.toml:2: invalid string: expected `\"`, `'`");
}

#[test]
fn non_utf8_files_are_rejected() {
    let run = solve_text(b"kind = \"queens\"\n# caf\xe9\nsize = 4\n");
    assert_input_error(&run, "model.toml:2: is not valid UTF-8 text");
}

#[test]
fn unreadable_files_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let run = puzzlec(dir.path(), &["solve", "missing.toml"]);
    assert_input_error(&run, "missing.toml: cannot read: no such file");
    let run = puzzlec(dir.path(), &["solve", "."]);
    assert_input_error(&run, ".: is a directory, not a model file");
}

#[test]
fn bad_flags_exit_2() {
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/queens-8.toml");
    let models = models.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let run = puzzlec(dir.path(), &["solve", models, "--time-limit", "0"]);
    assert_input_error(
        &run,
        "--time-limit must be a positive number of seconds, not 0",
    );
    let run = puzzlec(dir.path(), &["solve", models, "--backend", "quantum"]);
    assert_eq!(run.code, 2);
    let run = puzzlec(
        dir.path(),
        &["emit", models, "--format", "lp", "-o", "no/such/dir/x.lp"],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with("error: cannot write no/such/dir/x.lp: "),
        "{}",
        run.stderr
    );
}
