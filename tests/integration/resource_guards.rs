//! Nothing silently huge: work whose memory estimate is over `--max-memory` is refused in
//! one line (exit 2) before the model is built; `emit` streams to a temporary file renamed
//! when complete, and a time limit that stops it (exit 3) leaves no file behind;
//! `--incomplete` says so in the file.

use crate::common;

use common::{models, puzzlec};
use std::path::Path;

/// A model file `name` with `text` in `dir`.
fn model(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// The 64 x 64 square to cut in two: about 7 GB of model written out in full.
fn big_dissection(dir: &Path) -> String {
    let rows = vec!["#".repeat(64); 64].join("\n");
    model(
        dir,
        "square64.toml",
        &format!("kind = \"dissection\"\nparts = 2\nshape = \"\"\"\n{rows}\n\"\"\"\n"),
    )
}

#[test]
fn a_model_too_large_for_the_default_limit_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let square = big_dissection(dir.path());
    let out = dir.path().join("square.cnf");
    let run = puzzlec(
        dir.path(),
        &[
            "emit",
            &square,
            "--format",
            "dimacs",
            "-o",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    let line = run.stderr.trim_end();
    assert!(
        line.starts_with(&format!(
            "error: {square}: emit --format dimacs would need about "
        )),
        "{line}"
    );
    assert!(
        line.contains("more than the limit of 4.0G; raise it with --max-memory "),
        "{line}"
    );
    assert!(line.contains("16.8M variables"), "{line}");
    assert!(!out.exists());
    // Solving it by SAT or MILP is refused the same way; natively it is not.
    for backend in ["sat", "milp"] {
        let run = puzzlec(dir.path(), &["solve", &square, "--backend", backend]);
        assert_eq!(run.code, 2, "{backend}: {}", run.stderr);
        assert!(
            run.stderr
                .contains(&format!("solve --backend {backend} would need about")),
            "{}",
            run.stderr
        );
    }
    for command in [["explain", &square], ["prove", &square]] {
        let mut args: Vec<&str> = command.to_vec();
        let cert = dir.path().join("cert");
        if command[0] == "prove" {
            args.extend(["-o", cert.to_str().unwrap()]);
        }
        let run = puzzlec(dir.path(), &args);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    }
}

#[test]
fn the_limit_is_a_flag_and_small_models_pass() {
    let dir = tempfile::tempdir().unwrap();
    let queens = models().join("queens-8.toml");
    let queens = queens.to_str().unwrap();
    let run = puzzlec(
        dir.path(),
        &["solve", queens, "--backend", "sat", "--max-memory", "1K"],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("more than the limit of 1.0K; raise it with --max-memory "),
        "{}",
        run.stderr
    );
    let run = puzzlec(dir.path(), &["solve", queens, "--max-memory", "64M"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = puzzlec(dir.path(), &["solve", queens, "--max-memory", "lots"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("\"lots\" is not a size"),
        "{}",
        run.stderr
    );
}

#[test]
fn compare_records_a_row_over_the_limit_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let contest = models().join("obstacle-queens.toml");
    // 410K lets MILP (about 395K) and native through, but not SAT (about 429K).
    let run = puzzlec(
        dir.path(),
        &[
            "compare",
            contest.to_str().unwrap(),
            "--max-memory",
            "410K",
            "--json",
        ],
    );
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let rows = report["backends"].as_array().unwrap();
    let sat = rows.iter().find(|r| r["backend"] == "sat").unwrap();
    assert_eq!(sat["status"], "error", "{sat}");
    assert!(
        sat["error"]
            .as_str()
            .unwrap()
            .contains("raise it with --max-memory"),
        "{sat}"
    );
    for backend in ["milp", "native"] {
        let row = rows.iter().find(|r| r["backend"] == backend).unwrap();
        assert_eq!(row["status"], "optimal", "{row}");
        assert_eq!(row["value"], 20, "{row}");
    }
}

#[test]
fn a_time_limit_stops_emit_and_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let square = big_dissection(dir.path());
    let out = dir.path().join("square.cnf");
    let run = puzzlec(
        dir.path(),
        &[
            "emit",
            &square,
            "--format",
            "dimacs",
            "--incomplete",
            "--max-memory",
            "16G",
            "--time-limit",
            "0.3",
            "-o",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert_eq!(
        run.stderr.trim_end(),
        format!("stopped: time limit reached; {} not written", out.display())
    );
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(left, vec!["square64.toml".to_string()], "{left:?}");
}

#[test]
fn emit_writes_its_file_whole_and_incomplete_files_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let vase = models().join("halves-impossible.toml");
    let vase = vase.to_str().unwrap();
    let complete = dir.path().join("complete.cnf");
    let run = puzzlec(
        dir.path(),
        &[
            "emit",
            vase,
            "--format",
            "dimacs",
            "-o",
            complete.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let complete = std::fs::read_to_string(&complete).unwrap();
    assert!(complete.contains("c written out in full, with auxiliary variables: connected parts"));
    assert!(!complete.contains("INCOMPLETE") && !complete.contains("WARNING"));
    // Stdout gets the same text.
    let run = puzzlec(dir.path(), &["emit", vase, "--format", "dimacs"]);
    assert_eq!(run.stdout, complete);
    for format in ["dimacs", "lp", "wcnf", "opb"] {
        let complete = puzzlec(dir.path(), &["emit", vase, "--format", format]).stdout;
        let run = puzzlec(
            dir.path(),
            &["emit", vase, "--format", format, "--incomplete"],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let comment = if format == "lp" {
            "\\"
        } else if format == "opb" {
            "*"
        } else {
            "c"
        };
        let header: Vec<&str> = run.stdout.lines().take(6).collect();
        assert!(
            header.contains(
                &format!(
                    "{comment} INCOMPLETE, as asked (--incomplete): the lazy constraints below \
                 are left out, so a solver's answer may not be a solution of the puzzle"
                )
                .as_str()
            ),
            "{format}: {header:?}"
        );
        assert!(run
            .stdout
            .contains("WARNING: 1 lazy constraints are not written (connected parts)"));
        // The distance layers of the connectivity encoding are in the complete file only.
        assert!(
            complete.contains("within") && !run.stdout.contains("within"),
            "{format}"
        );
        assert!(
            run.stdout.len() < complete.len(),
            "{format}: {} >= {}",
            run.stdout.len(),
            complete.len()
        );
    }
    // Nothing left beside the output file.
    let left = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(left, 1);
}
