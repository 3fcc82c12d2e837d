//! `puzzlec sweep`: cross boxes against the optima of the independent C program
//! (../shared/refs/cross_doll.c), queens boards, CSV, shards joined by `merge`, stopped
//! rows, and the errors.

use crate::common;

use common::{models, puzzlec, CROSS_DOLL};
use serde_json::Value;

fn rows(json: &str) -> Vec<(usize, usize, usize, bool)> {
    let value: Value = serde_json::from_str(json).expect("sweep prints JSON");
    value["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["width"].as_u64().unwrap() as usize,
                r["height"].as_u64().unwrap() as usize,
                r["value"].as_u64().unwrap_or(0) as usize,
                r["proven"].as_bool().unwrap(),
            )
        })
        .collect()
}

/// `puzzlec sweep` of the cross model over these widths and heights, as JSON.
fn sweep_crosses_json(widths: &str, heights: &str) -> common::Run {
    puzzlec(
        &models(),
        &[
            "sweep",
            "cross-13x19.toml",
            "--width",
            widths,
            "--height",
            heights,
            "--json",
        ],
    )
}

#[test]
fn cross_boxes_match_cross_doll() {
    let run = sweep_crosses_json("5..=8", "5..=13");
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The boxes swept: widths 5..=8.
    let expected: Vec<_> = CROSS_DOLL
        .iter()
        .filter(|&&(w, _, _)| w <= 8)
        .map(|&(w, h, n)| (w, h, n, true))
        .collect();
    assert_eq!(rows(&run.stdout), expected);
    let value: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["instances"], 30);
    assert_eq!(value["stopped"], 0);
    assert!(value["rows"][0]["evidence"]
        .as_str()
        .unwrap()
        .contains("Russian-doll"));
}

#[test]
fn text_and_csv_tables() {
    let args = [
        "sweep",
        "cross-13x19.toml",
        "--width",
        "6",
        "--height",
        "8..10",
    ];
    let text = puzzlec(&models(), &args);
    assert_eq!(text.code, 0, "{}", text.stderr);
    let lines: Vec<&str> = text.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", text.stdout);
    assert!(lines[0].starts_with("size"));
    assert!(lines[1].starts_with("6 x 8") && lines[1].contains(" 2  optimal"));
    assert!(lines[2].starts_with("6 x 9") && lines[2].contains(" 3  optimal"));
    let csv = puzzlec(&models(), &[&args[..], &["--csv"]].concat());
    assert_eq!(csv.code, 0, "{}", csv.stderr);
    let lines: Vec<&str> = csv.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "width,height,status,proven,value,bound,backend,seconds,evidence"
    );
    assert!(lines[1].starts_with("6,8,optimal,true,2,2,native,"));
    assert!(lines[2].starts_with("6,9,optimal,true,3,3,native,"));
}

#[test]
fn queens_sizes() {
    let run = puzzlec(
        &models(),
        &["sweep", "queens-8.toml", "--size", "4..=7", "--json"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        rows(&run.stdout),
        [
            (4, 4, 4, true),
            (5, 5, 5, true),
            (6, 6, 6, true),
            (7, 7, 7, true)
        ]
    );
}

#[test]
fn shards_merge_into_the_whole_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let sweep = [
        "sweep",
        "cross-13x19.toml",
        "--width",
        "5..=7",
        "--height",
        "5..=9",
        "--json",
    ];
    let whole = puzzlec(&models(), &sweep);
    assert_eq!(whole.code, 0, "{}", whole.stderr);
    let mut files = Vec::new();
    for shard in ["1/3", "2/3", "3/3"] {
        let part = puzzlec(&models(), &[&sweep[..], &["--shard", shard]].concat());
        assert_eq!(part.code, 0, "{}", part.stderr);
        let value: Value = serde_json::from_str(&part.stdout).unwrap();
        let index: usize = shard[..1].parse().unwrap();
        // Shard I holds the rows whose index is I - 1 modulo 3.
        for row in value["rows"].as_array().unwrap() {
            assert_eq!(row["index"].as_u64().unwrap() as usize % 3, index - 1);
        }
        let file = dir.path().join(format!("part-{index}.json"));
        std::fs::write(&file, &part.stdout).unwrap();
        files.push(file.display().to_string());
    }
    let merged = puzzlec(
        &models(),
        &[
            &["merge"],
            &files.iter().map(String::as_str).collect::<Vec<_>>()[..],
            &["--json"],
        ]
        .concat(),
    );
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert_eq!(rows(&merged.stdout), rows(&whole.stdout));
    let value: Value = serde_json::from_str(&merged.stdout).unwrap();
    assert_eq!(value["shard"], Value::Null);
    // A missing shard and a shard given twice are refused.
    let missing = puzzlec(&models(), &["merge", &files[0], &files[2]]);
    assert_eq!(missing.code, 2);
    assert!(
        missing.stderr.contains("shard 2/3 is missing"),
        "{}",
        missing.stderr
    );
    let twice = puzzlec(&models(), &["merge", &files[0], &files[0], &files[1]]);
    assert_eq!(twice.code, 2);
    assert!(
        twice.stderr.contains("shard 1/3 is given twice"),
        "{}",
        twice.stderr
    );
    // Hand-edited shards: refused with the file named (no panic on index 0, no table of
    // four billion slots).
    let edited = |index: u64, count: u64| {
        let mut value: Value =
            serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
        value["shard"] = serde_json::json!({ "index": index, "count": count });
        let file = dir.path().join(format!("edited-{index}-{count}.json"));
        std::fs::write(&file, value.to_string()).unwrap();
        let run = puzzlec(&models(), &["merge", &file.display().to_string()]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        run.stderr.replace(&format!("{}", file.display()), "FILE")
    };
    assert_eq!(
        edited(0, 3),
        "error: FILE: invalid shard \"0/3\": shards are numbered from 1, so the index must be 1..=3\n"
    );
    assert_eq!(
        edited(1, 4_000_000_000),
        "error: shard 2/4000000000 is missing\n"
    );
    // A shard as sweeps wrote it before rows carried `established`: the evidence in words
    // only, which does not give the data back; refused in one line naming the file.
    let mut value: Value =
        serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    for row in value["rows"].as_array_mut().unwrap() {
        row.as_object_mut().unwrap().remove("established");
    }
    let old = dir.path().join("words-only.json");
    std::fs::write(&old, value.to_string()).unwrap();
    let old = old.display().to_string();
    let run = puzzlec(&models(), &["merge", &old, &files[1], &files[2]]);
    assert_eq!(
        (run.code, run.stderr.replace(&old, "FILE")),
        (
            2,
            "error: FILE: a sweep shard from an older puzzlec, whose rows say how each answer \
             was established in words only (no `established`): run that shard again to merge it\n"
                .to_string()
        )
    );
}

#[test]
fn stopped_instances_are_rows_and_exit_3() {
    let run = puzzlec(
        &models(),
        &[
            "sweep",
            "cross-13x19.toml",
            "--width",
            "13",
            "--height",
            "13",
            "--time-limit",
            "0.000001",
            "--json",
        ],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    let value: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["stopped"], 1);
    assert_eq!(value["rows"][0]["proven"], false);
    assert!(run
        .stderr
        .contains("1 of 1 instances stopped by the time limit"));
}

#[test]
fn bad_sweeps_are_refused() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["sweep", "cross-13x19.toml", "--size", "5..=6"],
            "error: a packing model sweeps over --width and --height, not --size",
        ),
        (
            &["sweep", "cross-13x19.toml", "--width", "5"],
            "error: sweep needs --width and --height (packing) or --size (queens)",
        ),
        (
            &["sweep", "cross-13x19.toml", "--width", "9..=5", "--height", "9"],
            "error: --width: invalid range \"9..=5\": it is empty",
        ),
        (
            &["sweep", "obstacle-queens.toml", "--size", "5"],
            "error: a queens sweep needs an empty square board (size = N), not a board with obstacles",
        ),
    ];
    for (args, message) in cases {
        let run = puzzlec(&models(), args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr.trim(), *message, "{args:?}");
    }
}

#[test]
fn shorter_boxes_are_read_off_the_tallest_boxs_table() {
    let run = sweep_crosses_json("6..=7", "6..=12");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let expected: Vec<_> = CROSS_DOLL
        .iter()
        .filter(|&&(w, h, _)| (6..=7).contains(&w) && h <= 12)
        .map(|&(w, h, n)| (w, h, n, true))
        .collect();
    assert_eq!(rows(&run.stdout), expected);
    let value: Value = serde_json::from_str(&run.stdout).unwrap();
    for row in value["rows"].as_array().unwrap() {
        let (w, h) = (
            row["width"].as_u64().unwrap(),
            row["height"].as_u64().unwrap(),
        );
        let evidence = row["evidence"].as_str().unwrap();
        if h == 12 {
            assert!(evidence.contains("refuted"), "{evidence}");
        } else {
            assert!(
                evidence.contains(&format!("Russian-doll search of the {w} x 12 box")),
                "{evidence}"
            );
        }
    }
}
