//! The edges a user hits first: usage errors exit 2 with one line, the help
//! names the exit codes, JSON without placeholders, plain wording, and `compare` that keeps
//! going past a failed solver, keeps to its limit and stops on Ctrl-C.

use crate::common;

use common::{models, puzzlec, script, Run};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Asserts exit 2 and exactly one line `error: {message}` on stderr.
fn assert_usage(run: &Run, message: &str) {
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stderr, format!("error: {message}\n"));
}

#[test]
fn flags_that_do_not_apply_are_usage_errors() {
    let dir = models();
    assert_usage(
        &puzzlec(&dir, &["solve", "cross-13x19.toml", "--count"]),
        "counting is available for tiling models (goal = \"tile\"); this model maximises",
    );
    assert_usage(
        &puzzlec(&dir, &["solve", "halves-asahi-2005.toml", "--unique"]),
        "--unique is not available for dissections",
    );
    assert_usage(
        &puzzlec(&dir, &["solve", "queens-8.toml", "--count", "--backend", "milp"]),
        "--all, --count and --unique are not available with --backend milp; use --backend native or sat",
    );
    assert_usage(
        &puzzlec(
            &dir,
            &["solve", "pentomino-6x10.toml", "--count", "--shard", "1/2"],
        ),
        "--shard is not available for tilings",
    );
    assert_usage(
        &puzzlec(
            &dir,
            &[
                "solve",
                "halves-asahi-2005.toml",
                "--count",
                "--shard",
                "1/2",
            ],
        ),
        "--shard is not available for dissections",
    );
    assert_usage(
        &puzzlec(&dir, &["solve", "queens-8.toml", "--solver", "mysat"]),
        "solver program \"mysat\" not found on PATH",
    );
    assert_usage(
        &puzzlec(
            &dir,
            &["solve", "queens-8.toml", "--solver", "/no/such/cadical"],
        ),
        "solver program \"/no/such/cadical\" not found",
    );
}

#[test]
fn a_milp_program_as_solver_implies_the_milp_backend() {
    let scratch = tempfile::tempdir().unwrap();
    // A stand-in for cbc that fails: enough to see which backend ran it.
    let cbc = script(scratch.path(), "cbc", "echo 'bad licence' >&2; exit 3");
    let run = puzzlec(&models(), &["solve", "queens-8.toml", "--solver", &cbc]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("error: milp:cbc: cbc failed: exit code 3"),
        "{}",
        run.stderr
    );
}

#[test]
fn help_and_man_page_give_the_exit_codes_and_the_model_format() {
    let help = puzzlec(&models(), &["--help"]);
    assert_eq!(help.code, 0);
    for needle in [
        "Exit status:",
        "  2   bad input",
        "  3   a time limit or Ctrl-C",
        "  20  the decision",
        "README's section \"Model files\"",
    ] {
        assert!(help.stdout.contains(needle), "{needle}: {}", help.stdout);
    }
    let man = puzzlec(&models(), &["man"]);
    assert!(man.stdout.contains("Exit status:"), "{}", man.stdout);
}

#[test]
fn a_milp_time_out_before_any_solution_is_unknown_not_a_failure() {
    let run = puzzlec(
        &models(),
        &[
            "solve",
            "cross-13x19.toml",
            "--backend",
            "milp",
            // Short: without the mirror rule's rows microlp can find a packing within 1 s.
            "--time-limit",
            "0.1",
        ],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert_eq!(run.stdout, "unknown\n");
    assert!(
        run.stderr.contains("time limit reached; no solution found"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_stopped_puzzle_without_objective_does_not_speak_of_optimality() {
    let run = puzzlec(
        &models(),
        &[
            "solve",
            "pentomino-6x10.toml",
            "--backend",
            "sat",
            "--time-limit",
            "0.2",
        ],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr
            .ends_with(": time limit reached; no solution found before the search stopped\n"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("optimal"), "{}", run.stderr);
}

#[test]
fn a_failed_check_prints_json_and_exits_1() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = common::prove(scratch.path(), &models().join("queens-8.toml"));
    common::edit(&dir, "manifest.json", "\"value\": 8", "\"value\": 9");
    let run = puzzlec(&dir, &["check", dir.to_str().unwrap(), "--json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let value: Value = serde_json::from_str(&run.stdout).expect("JSON on stdout");
    assert_eq!(value["valid"], false);
    assert_eq!(value["conclusion"], Value::Null);
    let error = value["error"].as_str().expect("an error message");
    assert_eq!(
        run.stderr,
        format!("error: certificate check failed: {error}\n")
    );
}

#[test]
fn empty_boards_print_free_cells_as_in_model_files() {
    let scratch = tempfile::tempdir().unwrap();
    std::fs::write(
        scratch.path().join("q4.toml"),
        "kind = \"queens\"\nsize = 4\n",
    )
    .unwrap();
    let run = puzzlec(scratch.path(), &["solve", "q4.toml", "--backend", "native"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains('.'), "{}", run.stdout);
    for row in run.stdout.lines().skip(1) {
        assert_eq!(row.len(), 4);
        assert!(row.chars().all(|c| c == '-' || c == 'Q'), "{row}");
    }
}

#[test]
fn wording_is_plain_and_singular_where_it_should_be() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    std::fs::write(dir.join("q1.toml"), "kind = \"queens\"\nsize = 1\n").unwrap();
    std::fs::write(dir.join("q8.toml"), "kind = \"queens\"\nsize = \"8\"\n").unwrap();
    let run = puzzlec(dir, &["solve", "q1.toml", "--count"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("1 optimal solution (value 1) by native"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.ends_with(", 1 constellation\n"),
        "{}",
        run.stderr
    );
    assert_usage_like(
        &puzzlec(dir, &["solve", "q8.toml"]),
        "error: q8.toml:2: invalid type: string \"8\", expected a whole number\n",
    );
    // merge names values plainly, never as Rust's `Some(20)`.
    let shard = |index: u32, value: &str| {
        format!(
            "{{\"model_digest\":\"abc\",\"goal\":\"count optimal\",\"backend\":\"native\",\"model\":\"m.toml\",\"complete\":true,\"shard\":{{\"index\":{index},\"count\":2}},\"count\":3,\"value\":{value}}}"
        )
    };
    std::fs::write(dir.join("a.json"), shard(1, "20")).unwrap();
    std::fs::write(dir.join("b.json"), shard(2, "null")).unwrap();
    assert_usage_like(
        &puzzlec(dir, &["merge", "a.json", "b.json"]),
        "error: b.json:1: a shard of a different goal (count optimal) than the first file (count optimal, value 20)\n",
    );
}

fn assert_usage_like(run: &Run, stderr: &str) {
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stderr, stderr);
}

#[test]
fn the_readme_lists_every_shipped_model_with_its_known_answer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    for entry in std::fs::read_dir(root.join("models")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(
            readme.contains(&format!("| `models/{name}` |")),
            "{name} is missing from the README's models table"
        );
    }
    assert!(!readme.contains("20 open"));
    let cross = std::fs::read_to_string(root.join("models/cross-13x19.toml")).unwrap();
    assert!(!cross.contains("20 open"));
}

// ---- compare ----

/// `puzzlec` with PATH set to `path` alone, so `compare` finds exactly the solvers there.
fn compare_command(path: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_puzzlec"));
    command
        .args(args)
        .current_dir(models())
        .env("PATH", path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

fn finish(command: &mut Command) -> Run {
    let output = command.output().unwrap();
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

#[test]
fn compare_records_a_failed_solver_as_a_row_and_goes_on() {
    let scratch = tempfile::tempdir().unwrap();
    script(scratch.path(), "cbc", "echo 'bad licence' >&2; exit 3");
    let run = finish(&mut compare_command(
        scratch.path(),
        &["compare", "queens-8.toml"],
    ));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 7, "{}", run.stdout);
    assert!(
        lines[4].starts_with("milp:cbc           error          no "),
        "{}",
        run.stdout
    );
    assert!(
        lines[5].starts_with("milp:cbc: cbc failed: exit code 3 (stderr: bad licence"),
        "{}",
        run.stdout
    );
    assert_eq!(lines[6], "proven answers agree; unproven: milp:cbc error");
    let run = finish(&mut compare_command(
        scratch.path(),
        &["compare", "queens-8.toml", "--json"],
    ));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value: Value = serde_json::from_str(&run.stdout).unwrap();
    let row = &value["backends"][3];
    assert_eq!(row["backend"], "milp:cbc");
    assert_eq!(row["status"], "error");
    assert_eq!(row["size"], Value::Null);
    assert!(row["error"]
        .as_str()
        .unwrap()
        .starts_with("cbc failed: exit code 3"));
    assert_eq!(value["agree"], true);
    assert_eq!(value["all_proven"], false);
}

#[test]
fn compare_keeps_to_its_time_limit_and_claims_nothing_unproven() {
    let scratch = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let run = finish(&mut compare_command(
        scratch.path(),
        &["compare", "cross-13x19.toml", "--time-limit", "3"],
    ));
    let elapsed = start.elapsed();
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Three rows share 3 s; building the SAT model is not interruptible, hence the slack.
    assert!(elapsed < Duration::from_secs(6), "{elapsed:?}");
    assert!(!run.stdout.contains("all backends agree"), "{}", run.stdout);
    let last = run.stdout.lines().last().unwrap();
    assert!(
        last.starts_with("no answer proven; unproven: ") || last.starts_with("one answer proven"),
        "{}",
        run.stdout
    );
}

#[test]
fn ctrl_c_stops_compare_and_marks_the_rest_not_run() {
    let scratch = tempfile::tempdir().unwrap();
    let child = compare_command(scratch.path(), &["compare", "cross-13x19.toml"])
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let killed = Command::new("/bin/kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stdout}\n{stderr}");
    assert!(!stdout.contains("all backends agree"), "{stdout}");
    assert!(stdout.contains("native             not run"), "{stdout}");
    assert!(
        stdout.lines().last().unwrap().contains("native not run"),
        "{stdout}"
    );
    assert!(stderr.contains("interrupted"), "{stderr}");
}
