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
        "parallel puzzlec prove box.toml --table --shard {}/3 -o shard-{} '>' /dev/null ::: 1 2 3\n\
         parallel puzzlec check shard-{} --shard {}/3 ::: 1 2 3 | grep '^partly certified'\n\
         mkdir whole && cp shard-*/step-* whole/\n\
         puzzlec prove box.toml --table -o whole > /dev/null\n\
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

/// `scripts/doll-shards.sh`: one box's Russian doll over two workers of GNU parallel, round
/// by round, gives the optimum of one process, the packing verified; a merge with a shard
/// missing, or a shard of another model in the folder, is refused naming the file.
#[test]
fn one_box_split_over_parallel_shards_gives_the_optimum_of_one_process() {
    if !programs_or_skip(module_path!(), &[("parallel", "parallel")]) {
        return;
    }
    let tmp = workdir();
    let cross = fs::read_to_string(models().join("cross-13x19.toml")).unwrap();
    let boxed = |w: usize, h: usize| {
        cross.replace(
            "width = 13\nheight = 19\n",
            &format!("width = {w}\nheight = {h}\n"),
        )
    };
    fs::write(tmp.path().join("box.toml"), boxed(11, 12)).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/doll-shards.sh");
    let one = shell(tmp.path(), "puzzlec solve box.toml --json");
    let one: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(one["value"], 9);
    let rendered = shell(
        tmp.path(),
        &format!(
            "{} box.toml 2 run --split-nodes 2000 2>rounds.txt",
            script.display()
        ),
    );
    let answer: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(tmp.path().join("run/answer.json")).unwrap())
            .unwrap();
    assert_eq!(answer["optimum"], 9);
    assert_eq!(answer["proved"], true);
    let table = answer["table"].as_array().unwrap();
    assert_eq!(
        (table.len(), &table[0], &table[132]),
        (133, &9.into(), &0.into())
    );
    // Nine crosses of nine cells each.
    assert_eq!(
        rendered.matches(|c: char| c.is_ascii_uppercase()).count(),
        9 * 9
    );
    let rounds = fs::read_to_string(tmp.path().join("rounds.txt")).unwrap();
    assert!(rounds.contains("round 2 merged: entry "), "{rounds}");
    assert!(
        rounds.contains("optimal 9: the Russian doll's table, filled in "),
        "{rounds}"
    );

    // A round with one shard's part missing, then a shard of another box in its place.
    let run = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_puzzlec"))
            .args(args)
            .current_dir(tmp.path())
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let solo = [
        "solve",
        "box.toml",
        "--shard",
        "1/2",
        "--state",
        "next",
        "--split-nodes",
        "2000",
    ];
    assert_eq!(run(&solo).0, Some(0));
    let (code, stderr) = run(&["merge", "--state", "next"]);
    assert_eq!(code, Some(2));
    assert_eq!(
        stderr.trim_end(),
        "error: next/shard-2-of-2.json: missing (shard 2/2 of the round from scan position 132 has not written its part)"
    );
    fs::write(tmp.path().join("other.toml"), boxed(11, 11)).unwrap();
    let other = [
        "solve",
        "other.toml",
        "--shard",
        "2/2",
        "--state",
        "elsewhere",
        "--split-nodes",
        "2000",
    ];
    assert_eq!(run(&other).0, Some(0));
    fs::rename(
        tmp.path().join("elsewhere/shard-2-of-2.json"),
        tmp.path().join("next/shard-2-of-2.json"),
    )
    .unwrap();
    let (code, stderr) = run(&["merge", "--state", "next"]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.starts_with("error: next/shard-2-of-2.json: not shard 2/2 of this model (format \"puzzlec-doll-shards/1\", digest "),
        "{stderr}"
    );
}

#[test]
fn a_sweep_with_its_boxes_split_over_parallel_shards_gives_the_table_of_one_process() {
    if !programs_or_skip(module_path!(), &[("parallel", "parallel")]) {
        return;
    }
    let tmp = workdir();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/sweep-shards.sh");
    let axes = "--width 6..=10 --height 9..=12";
    let sweep = format!("models/cross-13x19.toml {axes}");
    let one = |format: &str| shell(tmp.path(), &format!("puzzlec sweep {sweep} {format}"));
    let (text, csv, json) = (one(""), one("--csv"), one("--json"));
    // Shard 1 of the first round alone, as if the others had not started: the script
    // resumes from there.
    shell(
        tmp.path(),
        &format!("puzzlec sweep {sweep} --shard 1/2 --state run --split-nodes 100 2>first.txt"),
    );
    let sharded = shell(
        tmp.path(),
        &format!(
            "{} models/cross-13x19.toml 2 run {axes} --split-nodes 100 --json 2>rounds.txt",
            script.display()
        ),
    );
    let rounds = fs::read_to_string(tmp.path().join("rounds.txt")).unwrap();
    assert!(
        rounds.contains("shard 1/2, box 9 x 12: this shard's part of the round is already written"),
        "{rounds}"
    );
    assert!(
        rounds.contains("3 of 5 boxes settled; run the shards again"),
        "{rounds}"
    );
    assert!(rounds.contains("19 rows of models/cross-13x19.toml: every box settled"));

    // JSON: the same document but for the times and the searched boxes' evidence (its words
    // and its data).
    let parse = |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap();
    let (mut one, mut sharded) = (parse(&json), parse(&sharded));
    let mut searched = Vec::new();
    for table in [&mut one, &mut sharded] {
        let mut evidence = Vec::new();
        for row in table["rows"].as_array_mut().unwrap() {
            let row = row.as_object_mut().unwrap();
            assert!(row.remove("seconds").unwrap().as_f64().unwrap() >= 0.0);
            if row["height"] == 12 {
                evidence.push(row.remove("evidence").unwrap());
                // The same evidence as data: rounds of shards against one search.
                row.remove("established").unwrap();
            }
        }
        searched.push(evidence);
    }
    assert_eq!(sharded, one);
    assert_eq!(one["rows"].as_array().unwrap().len(), 19);
    // The widths' tallest boxes: the easy ones (6, 7 and 8 wide) settled in the first
    // round, the 9 and 10 wide ones over several.
    let rounds_of = |evidence: &serde_json::Value| {
        let evidence = evidence.as_str().unwrap();
        let filled = evidence.split("filled in ").nth(1).unwrap();
        filled.split(' ').next().unwrap().parse::<u32>().unwrap()
    };
    let rounds: Vec<u32> = searched[1].iter().map(rounds_of).collect();
    assert_eq!(rounds[..3], [1, 1, 1], "{:?}", searched[1]);
    assert!(rounds[3] > 1 && rounds[4] > 1, "{:?}", searched[1]);
    for (one, sharded) in searched[0].iter().zip(&searched[1]) {
        let refuted =
            |e: &serde_json::Value| e.as_str().unwrap().split(':').next().unwrap().to_string();
        assert_eq!(refuted(one), refuted(sharded));
        assert!(sharded
            .as_str()
            .unwrap()
            .ends_with(" of 2 shards (processes with files between them)"));
    }

    // Text and CSV, printed again by merging the settled sweep.
    let merged = |format: &str| shell(tmp.path(), &format!("puzzlec merge --state run {format}"));
    // Text: the size, optimum and status; then the evidence but for the searched boxes.
    let text_lines = |t: &str| -> Vec<String> {
        t.lines()
            .map(|line| {
                let searched = line.split_whitespace().nth(2) == Some("12");
                let words: Vec<&str> = line.split_whitespace().collect();
                let how = line.split(" s  ").nth(1).filter(|_| !searched);
                format!(
                    "{} {}",
                    words[..words.len().min(5)].join(" "),
                    how.unwrap_or("")
                )
            })
            .collect()
    };
    assert_eq!(text_lines(&merged("")), text_lines(&text));
    assert_eq!(answers(&merged("")), answers(&text));
    // CSV: every column but the seconds, and the evidence but for the searched boxes.
    let csv_lines = |t: &str| -> Vec<String> {
        t.lines()
            .map(|line| {
                let columns: Vec<&str> = line.splitn(9, ',').collect();
                let searched = columns[1] == "12";
                let evidence = if searched { "" } else { columns[8] };
                format!("{},{}", columns[..7].join(","), evidence)
            })
            .collect()
    };
    assert_eq!(csv_lines(&merged("--csv")), csv_lines(&csv));
    assert_eq!(csv.lines().count(), 20);

    // The first shard's lines, the folder of another sweep, and a box's run in the
    // sweep's folder.
    let first = fs::read_to_string(tmp.path().join("first.txt")).unwrap();
    assert!(
        first.ends_with("shard 1/2: once every shard is done: puzzlec merge --state run\n"),
        "{first}"
    );
    let run = |args: &str| {
        let output = Command::new("sh")
            .arg("-c")
            .arg(format!("puzzlec {args}"))
            .current_dir(tmp.path())
            .env("PATH", path_with_puzzlec())
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    assert_eq!(
        run("sweep models/cross-13x19.toml --width 6..=10 --height 9..=13 --shard 1/2 --state run --split-nodes 100"),
        (
            Some(2),
            "error: run/sweep.json: the sweep of widths 6..=10 and heights 9..=12, not of widths 6..=10 and heights 9..=13\n".into()
        )
    );
    assert_eq!(
        run("solve models/cross-13x19.toml --shard 1/2 --state run"),
        (
            Some(2),
            "error: run/sweep.json: the folder of a sweep (sweep --state), not of one box\n".into()
        )
    );
}
