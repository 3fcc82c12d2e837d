//! One stop policy for counts: `--time-limit` bounds `solve --count` for every family and
//! backend (N-queens by constellations, obstacle boards natively and by SAT, tilings
//! natively and by SAT, dissections natively and by SAT). A stopped count exits 3, keeps
//! what it counted, says it is a lower bound (text and JSON), and with `--unique` reports
//! classes and solutions that agree with each other.

use crate::common;

use common::{models, puzzlec, Run};
use std::path::Path;
use std::time::{Duration, Instant};

/// The limit given to every run (`--unique` runs get more, so that they get past proving
/// the optimum on a loaded machine and have classes to report), and how far past it a run
/// may end (process start, loading, printing, a loaded machine).
const LIMIT: &str = "0.4";
const UNIQUE_LIMIT: &str = "1";
const SLACK: Duration = Duration::from_millis(1200);

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// Runs a count with the limit; checks it stopped in time, exited 3 and said so.
fn stopped(dir: &Path, model: &str, extra: &[&str]) -> Run {
    let limit = if extra.contains(&"--unique") {
        UNIQUE_LIMIT
    } else {
        LIMIT
    };
    stopped_at(dir, model, extra, limit)
}

/// [`stopped`] with the limit `limit` (seconds).
fn stopped_at(dir: &Path, model: &str, extra: &[&str], limit: &str) -> Run {
    let mut args = vec!["solve", model, "--count", "--time-limit", limit];
    args.extend(extra);
    let start = Instant::now();
    let run = puzzlec(dir, &args);
    let elapsed = start.elapsed();
    assert!(
        elapsed < Duration::from_secs_f64(limit.parse().unwrap()) + SLACK,
        "{args:?} ran {elapsed:?}"
    );
    assert_eq!(run.code, 3, "{args:?}: {}\n{}", run.stdout, run.stderr);
    if !args.contains(&"--json") {
        assert!(
            run.stdout.ends_with("incomplete (a lower bound)\n"),
            "{}",
            run.stdout
        );
        assert!(run.stderr.starts_with("at least "), "{}", run.stderr);
        assert!(run.stderr.contains("time limit reached"), "{}", run.stderr);
    }
    run
}

fn first_number(stdout: &str) -> u64 {
    stdout.lines().next().unwrap().parse().unwrap()
}

/// With `--unique`: the classes line's sizes times counts add up to its solutions, and
/// the class counts to the number printed first.
fn classes_agree(stdout: &str) {
    let mut lines = stdout.lines();
    let unique: u64 = lines.next().unwrap().parse().unwrap();
    let line = lines.next().unwrap();
    let rest = line
        .strip_prefix("classes: ")
        .unwrap_or_else(|| panic!("{stdout}"));
    let (sizes, solutions) = rest.split_once("; ").unwrap();
    let solutions: u64 = solutions.split(' ').next().unwrap().parse().unwrap();
    let (mut classes, mut members) = (0, 0);
    for part in sizes.split(", ") {
        let words: Vec<&str> = part.split(' ').collect();
        let [n, "of", "size", size] = words[..] else {
            panic!("{line}")
        };
        let (n, size): (u64, u64) = (n.parse().unwrap(), size.parse().unwrap());
        classes += n;
        members += n * size;
    }
    assert_eq!((classes, members), (unique, solutions), "{stdout}");
}

#[test]
fn n_queens_constellation_counts_stop_and_keep_whole_classes() {
    let tmp = tempfile::tempdir().unwrap();
    let model = write(tmp.path(), "q17.toml", "kind = \"queens\"\nsize = 17\n");
    let run = stopped(tmp.path(), &model, &[]);
    let count = first_number(&run.stdout);
    assert!(count > 0 && count < 95_815_104, "{}", run.stdout);
    assert!(run.stderr.contains("a lower bound"), "{}", run.stderr);
    let run = stopped(tmp.path(), &model, &["--unique"]);
    classes_agree(&run.stdout);
    let run = stopped(tmp.path(), &model, &["--json"]);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["complete"], false);
    assert!(value["count"].as_u64().unwrap() < 95_815_104);
}

#[test]
fn obstacle_board_counts_stop_natively_and_by_sat() {
    let board = models().join("obstacle-queens.toml").display().to_string();
    let tmp = tempfile::tempdir().unwrap();
    // Listing every placement for --unique (no memo) takes 0.6 s natively on an idle
    // machine in a test build: the limit is half of what the whole count takes here and
    // now, so that it stops mid-count however fast or loaded the machine is.
    let start = Instant::now();
    let whole = puzzlec(tmp.path(), &["solve", &board, "--count", "--unique"]);
    assert_eq!(whole.code, 0, "{}", whole.stderr);
    assert_eq!(first_number(&whole.stdout), 2949);
    let limit = format!("{:.3}", start.elapsed().as_secs_f64() / 2.0);
    let run = stopped_at(tmp.path(), &board, &["--unique"], &limit);
    classes_agree(&run.stdout);
    assert!(first_number(&run.stdout) < 2949, "{}", run.stdout);
    let twelve = write(tmp.path(), "q12.toml", "kind = \"queens\"\nsize = 12\n");
    let run = stopped(tmp.path(), &twelve, &["--backend", "sat"]);
    assert!(first_number(&run.stdout) < 14_200, "{}", run.stdout);
    let run = stopped(tmp.path(), &twelve, &["--backend", "sat", "--unique"]);
    classes_agree(&run.stdout);
}

#[test]
fn tiling_counts_stop_natively_and_by_sat() {
    // Any number of each pentomino tiling 10 x 10: far more tilings than 0.4 s counts.
    let tmp = tempfile::tempdir().unwrap();
    let pieces = models().join("pentomino-6x10.toml");
    let text = std::fs::read_to_string(pieces).unwrap();
    let text = text
        .replace("exactly = 1", "")
        .replace("height = 6", "height = 10");
    assert!(text.contains("height = 10"), "{text}");
    let model = write(tmp.path(), "many.toml", &text);
    for backend in ["native", "sat"] {
        let run = stopped(tmp.path(), &model, &["--backend", backend]);
        assert!(run.stderr.contains("a lower bound"), "{}", run.stderr);
    }
}

#[test]
fn dissection_counts_stop_natively_and_by_sat() {
    let tmp = tempfile::tempdir().unwrap();
    let square = write(
        tmp.path(),
        "square.toml",
        "kind = \"dissection\"\nshape = \"\"\"\n########\n########\n########\n########\n########\n########\n########\n########\n\"\"\"\n",
    );
    for backend in ["native", "sat"] {
        let run = stopped(tmp.path(), &square, &["--backend", backend]);
        assert!(run.stderr.contains("a lower bound"), "{}", run.stderr);
    }
}
