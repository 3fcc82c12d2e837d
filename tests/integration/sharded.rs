//! The sharded route of docs/counting.md and docs/certificates.md, run for real with GNU
//! parallel (Debian's `parallel`, installed by `.ci/run`): a count, a sweep and a table
//! certificate split into shards run as parallel jobs, then merged (or combined) and checked
//! against the unsharded answer.

use crate::common::{models, path_with_puzzlec, programs_or_skip};
use std::fs;
use std::path::Path;
use std::process::Command;

/// Runs `script` with `sh` in `dir`, the `puzzlec` under test first on PATH; its stdout,
/// after asserting that it succeeded.
fn shell(dir: &Path, script: &str) -> String {
    let output = Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("PATH", path_with_puzzlec())
        .env("NO_COLOR", "1")
        // GNU parallel asks for a citation once unless told it was seen.
        .env("PARALLEL_HOME", dir.join(".parallel"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "`{script}` failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// A temporary folder with `models/` linked in and GNU parallel's citation notice silenced.
fn workdir() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(models(), tmp.path().join("models")).unwrap();
    fs::create_dir(tmp.path().join(".parallel")).unwrap();
    fs::write(tmp.path().join(".parallel/will-cite"), "").unwrap();
    tmp
}

/// A sweep table's size, optimum and status columns, line by line (the header first).
fn answers(table: &str) -> Vec<String> {
    table
        .lines()
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            words[..words.len().min(5)].join(" ")
        })
        .collect()
}

#[test]
fn a_count_split_into_parallel_shards_merges_to_the_whole() {
    if !programs_or_skip(module_path!(), &[("parallel", "parallel")]) {
        return;
    }
    let tmp = workdir();
    fs::write(
        tmp.path().join("q10.toml"),
        "kind = \"queens\"\nsize = 10\n",
    )
    .unwrap();
    let merged = shell(
        tmp.path(),
        "parallel puzzlec solve q10.toml --count --shard {}/8 --json '>' part-{}.json ::: $(seq 8)\n\
         puzzlec merge part-*.json",
    );
    assert_eq!(merged.lines().next(), Some("724"), "{merged}");
    let parts = fs::read_dir(tmp.path())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("part-")
        })
        .count();
    assert_eq!(parts, 8);
}

#[test]
fn a_sweep_split_into_parallel_shards_merges_to_the_whole_table() {
    if !programs_or_skip(module_path!(), &[("parallel", "parallel")]) {
        return;
    }
    let tmp = workdir();
    let whole = shell(
        tmp.path(),
        "puzzlec sweep models/cross-13x19.toml --width 5..=9 --height 5..=9",
    );
    let merged = shell(
        tmp.path(),
        "parallel puzzlec sweep models/cross-13x19.toml --width 5..=9 --height 5..=9 \
         --shard {}/3 --json '>' sweep-{}.json ::: 1 2 3\n\
         puzzlec merge sweep-*.json",
    );
    // The answers agree row for row; the evidence may name another box (a shard reads its
    // shorter boxes off the tallest box it owns of that width, not the sweep's tallest).
    assert_eq!(answers(&merged), answers(&whole));
    assert_eq!(answers(&whole).len(), 16, "{whole}");
    // 15 boxes W x H with 5 <= W <= H <= 9; 9 x 9 holds 5 crosses.
    assert!(whole.contains("9 x 9"), "{whole}");
}

#[test]
fn a_table_certificate_proved_and_checked_in_parallel_shards_combines_and_checks() {
    if !programs_or_skip(module_path!(), &[("parallel", "parallel")]) {
        return;
    }
    let tmp = workdir();
    let model = tmp.path().join("box.toml");
    let cross = fs::read_to_string(models().join("cross-13x19.toml")).unwrap();
    fs::write(
        &model,
        cross.replace("width = 13\nheight = 19\n", "width = 9\nheight = 9\n"),
    )
    .unwrap();
    let checked = shell(
        tmp.path(),
        "parallel puzzlec prove box.toml --shard {}/3 -o shard-{} '>' /dev/null ::: 1 2 3\n\
         parallel puzzlec check shard-{} --shard {}/3 ::: 1 2 3 | grep '^partly certified'\n\
         mkdir whole && cp shard-*/step-* whole/\n\
         puzzlec prove box.toml -o whole > /dev/null\n\
         parallel puzzlec check whole --shard {}/3 ::: 1 2 3 | grep '^partly certified' | wc -l\n\
         puzzlec check whole | tail -n 1",
    );
    let lines: Vec<&str> = checked.lines().collect();
    assert_eq!(lines.len(), 5, "{checked}");
    for line in &lines[..3] {
        assert!(line.starts_with("partly certified: shard "), "{line}");
    }
    assert_eq!(lines[3].trim(), "3", "{checked}");
    assert_eq!(
        lines[4], "certified: 5 is the optimum of model.toml",
        "{checked}"
    );
}
