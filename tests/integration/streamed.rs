//! Streamed certificates (`prove --stream`): each shard's proof written into both checkers
//! and never stored, a record kept per shard; entries split at their search states; runs
//! as jobs joined into one certificate; `check` of the records, `check --replay`, and the
//! tampering each refuses, naming the shard.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{edit, puzzlec, rehash, Run};
use serde_json::Value;

/// The crosses of the shipped 13 x 19 model in a `width x height` box, written into `dir`.
fn crosses(dir: &Path, width: usize, height: usize) -> PathBuf {
    let model = fs::read_to_string(crate::common::models().join("cross-13x19.toml"))
        .unwrap()
        .replace("width = 13", &format!("width = {width}"))
        .replace("height = 19", &format!("height = {height}"));
    let path = dir.join(format!("cross-{width}x{height}.toml"));
    fs::write(&path, model).unwrap();
    path
}

/// `prove MODEL --stream --veripb-shards 2 ARGS -o DIR/NAME`, asserting success; the folder.
fn streamed(dir: &Path, model: &Path, name: &str, args: &[&str]) -> PathBuf {
    let folder = dir.join(name);
    let mut all = vec![
        "prove",
        model.to_str().unwrap(),
        "--stream",
        "--veripb-shards",
        "2",
        "-o",
        folder.to_str().unwrap(),
    ];
    all.extend(args);
    let run = puzzlec(dir, &all);
    assert_eq!(run.code, 0, "{}", run.stderr);
    folder
}

/// `puzzlec check DIR ARGS`.
fn check(dir: &Path, args: &[&str]) -> Run {
    let mut all = vec!["check", dir.to_str().unwrap()];
    all.extend(args);
    puzzlec(dir, &all)
}

/// Asserts that `check DIR ARGS` fails (exit 1) with a message holding `part`.
fn refused(dir: &Path, args: &[&str], part: &str) {
    let run = check(dir, args);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    says(&run.stderr, part);
}

/// Asserts that `text` (a run's output) holds `part`.
fn says(text: &str, part: &str) {
    assert!(text.contains(part), "{part:?} not in {text}");
}

/// The files of `dir`, by name.
fn files(dir: &Path) -> BTreeSet<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// The JSON document `dir/name`.
fn json(dir: &Path, name: &str) -> Value {
    serde_json::from_str(&fs::read_to_string(dir.join(name)).unwrap()).unwrap()
}

/// A copy of the folder `from` at `to`.
fn copy(from: &Path, to: &Path) -> PathBuf {
    fs::create_dir_all(to).unwrap();
    for name in files(from) {
        fs::copy(from.join(&name), to.join(&name)).unwrap();
    }
    to.to_path_buf()
}

/// Lists `dir/name` in the manifest under `role`, as a knowing tamperer would.
fn list(dir: &Path, role: &str, name: &str) {
    let path = dir.join("manifest.json");
    let mut manifest = json(dir, "manifest.json");
    manifest["files"][role] = serde_json::json!({"name": name, "bytes": 0, "sha256": ""});
    fs::write(&path, serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
    rehash(dir, name);
}

/// Removes `dir/name` and its manifest entry.
fn unlist(dir: &Path, name: &str) {
    fs::remove_file(dir.join(name)).unwrap();
    let path = dir.join("manifest.json");
    let mut manifest = json(dir, "manifest.json");
    let files = manifest["files"].as_object_mut().unwrap();
    files.retain(|_, entry| entry["name"] != name);
    fs::write(&path, serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
}

fn veripb_installed(test: &str) -> bool {
    let found = puzzlec::oracle::external::on_path("veripb");
    if !found {
        crate::common::report_missing(test, &["veripb (cargo install veripb --locked)".into()]);
    }
    found
}

#[test]
fn a_streamed_certificate_keeps_records_whose_hashes_are_the_stored_proofs() {
    let veripb =
        veripb_installed("a_streamed_certificate_keeps_records_whose_hashes_are_the_stored_proofs");
    let dir = tempfile::tempdir().unwrap();
    let model = crosses(dir.path(), 8, 8);
    let folder = streamed(dir.path(), &model, "streamed", &[]);
    let names = ["shard-000-015.json", "shard-015-064.json"];
    let expected: BTreeSet<String> = ["manifest.json", "model.toml", "table.txt", "witness.txt"]
        .into_iter()
        .chain(names)
        .map(String::from)
        .collect();
    assert_eq!(files(&folder), expected);
    let run = check(&folder, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.ends_with(
            "certified: 4 is the optimum of model.toml, by the records of 2 streamed shards\n"
        ),
        "{}",
        run.stdout
    );

    // The same shards stored: each proof's SHA-256 is its record's.
    let stored = dir.path().join("stored");
    let run = puzzlec(
        dir.path(),
        &[
            "prove",
            model.to_str().unwrap(),
            "--no-stream",
            "--veripb-shards",
            "2",
            "-o",
            stored.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    for name in names {
        let record = json(&folder, name);
        let proof = fs::read(stored.join(name.replace(".json", ".pbp"))).unwrap();
        assert_eq!(
            record["proof"]["sha256"],
            puzzlec::base::digest::sha256_hex(&proof)
        );
        assert_eq!(record["proof"]["bytes"], proof.len());
        assert_eq!(record["checkers"][0]["verdict"], "accepted");
        assert_eq!(record["checkers"][0]["conclusion"], "BOUNDS 0 INF");
        let theirs = if veripb { "accepted" } else { "not_run" };
        assert_eq!(record["checkers"][1]["verdict"], theirs, "{record}");
        if veripb {
            // Its own peak, sampled while it ran.
            let peak = &record["checkers"][1]["work"]["peak_memory_bytes"];
            assert!(peak.as_u64().is_some_and(|p| p > 0), "{record}");
        }
        assert!(record["writer"]["cpu_seconds"].as_f64().unwrap() >= 0.0);
    }

    let run = check(&folder, &["--replay", "all"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    says(
        &run.stdout,
        "ok: shard-015-064.json (record 2): replayed in",
    );
    assert!(
        run.stdout
            .ends_with("by the records of 2 streamed shards, every shard replayed\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_bounded_memo_read_from_a_scratch_disk_gives_records_that_replay_with_their_bound() {
    let veripb = veripb_installed(
        "a_bounded_memo_read_from_a_scratch_disk_gives_records_that_replay_with_their_bound",
    );
    let dir = tempfile::tempdir().unwrap();
    let model = crosses(dir.path(), 9, 9);
    let scratch = dir.path().join("scratch");
    fs::create_dir(&scratch).unwrap();
    let unbounded = streamed(dir.path(), &model, "unbounded", &["--memo-clauses", "0"]);
    let bounded = streamed(
        dir.path(),
        &model,
        "bounded",
        &[
            "--memo-clauses",
            "64",
            "--scratch",
            scratch.to_str().unwrap(),
        ],
    );
    // Nothing is left on the scratch disk.
    assert_eq!(files(&scratch), BTreeSet::new());
    let names: Vec<String> = files(&bounded)
        .into_iter()
        .filter(|n| n.starts_with("shard-"))
        .collect();
    assert_eq!(
        names,
        files(&unbounded)
            .into_iter()
            .filter(|n| n.starts_with("shard-"))
            .collect::<Vec<_>>()
    );
    // The records whose search the bound made longer, by their number in `check`.
    let mut grown = Vec::new();
    for (k, name) in names.iter().enumerate() {
        let (small, free) = (json(&bounded, name), json(&unbounded, name));
        assert_eq!(small["memo_clauses"], 64, "{small}");
        assert_eq!(free.get("memo_clauses"), None, "{free}");
        let theirs = if veripb { "accepted" } else { "not_run" };
        assert_eq!(small["checkers"][1]["verdict"], theirs, "{small}");
        if small["nodes"].as_u64() > free["nodes"].as_u64() {
            grown.push((k + 1, name.clone()));
        }
    }
    // The memo gave clauses up, and the search found them again.
    assert!(!grown.is_empty(), "{names:?}");

    let run = check(&bounded, &["--replay", "all"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.ends_with("every shard replayed\n"),
        "{}",
        run.stdout
    );
    // The bound is part of what a record says: one that gives nothing up writes another
    // proof.
    let (number, name) = &grown[0];
    edit(
        &bounded,
        name,
        "\"memo_clauses\": 64",
        "\"memo_clauses\": 1048576",
    );
    let run = check(&bounded, &["--replay", &number.to_string()]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stderr.contains(&format!(
            "{name} (record {number}): replayed, its proof has SHA-256"
        )) && run
            .stderr
            .contains("the shard differs from the one recorded"),
        "{}",
        run.stderr
    );

    // A scratch folder that cannot take a file: one line, exit 2.
    let missing = dir.path().join("no-such-folder");
    let run = puzzlec(
        dir.path(),
        &[
            "prove",
            model.to_str().unwrap(),
            "--stream",
            "--scratch",
            missing.to_str().unwrap(),
            "-o",
            dir.path().join("never").to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!(
            "error: --scratch {}: cannot make a file there (No such file or directory (os error 2))\n",
            missing.display()
        )
    );
}

#[test]
fn shards_past_their_budget_are_cut_and_entries_split_at_their_states() {
    let dir = tempfile::tempdir().unwrap();
    let model = crosses(dir.path(), 9, 9);
    // About 600 kB is what any shard of 9 x 9 writes (its definitions): entries 0 to 2 pass
    // 700 kB as they are written, and are split at their states two pieces down.
    let folder = streamed(dir.path(), &model, "split", &["--shard-bytes", "700K"]);
    let names = files(&folder);
    for split in [
        "entry-000-d2-glue.json",
        "entry-000-d2-states-000-001.json",
        "entry-000-d2-states-001-003.json",
        "entry-000-d2-states-003-006.json",
        "shard-014-081.json",
    ] {
        assert!(names.contains(split), "{names:?}");
    }
    for name in names
        .iter()
        .filter(|n| n.ends_with(".json") && *n != "manifest.json")
    {
        let record = json(&folder, name);
        let bytes = record["proof"]["bytes"].as_u64().unwrap();
        // A glue cannot be cut: it may pass the budget.
        assert!(
            bytes <= 700 << 10 || name.ends_with("-glue.json"),
            "{name}: {bytes}"
        );
    }
    let glue = json(&folder, "entry-000-d2-glue.json");
    assert_eq!(glue["split"]["part"], "glue");
    assert_eq!(glue["split"]["states"].as_array().unwrap().len(), 6);
    let run = check(&folder, &["--replay", "all"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    says(
        &run.stdout,
        "entry 0 split 2 pieces below its root: the glue, citing 6 states",
    );
    says(&run.stdout, "every shard replayed");

    // A run that lost its states, and one whose states are not those its glue cites.
    let lost = copy(&folder, &dir.path().join("lost"));
    unlist(&lost, "entry-000-d2-states-003-006.json");
    refused(
        &lost,
        &[],
        "no record proves the states 3..6 of entry 0, which entry-000-d2-glue.json cites (a shard is missing)",
    );
    let other = copy(&folder, &dir.path().join("other"));
    let state = &glue["split"]["states"][3];
    let need = state["need"].as_u64().unwrap();
    edit(
        &other,
        "entry-000-d2-states-003-006.json",
        &format!("\"need\": {need}"),
        &format!("\"need\": {}", need + 1),
    );
    refused(
        &other,
        &[],
        "entry-000-d2-states-003-006.json: its states are not the states 3..6 that entry-000-d2-glue.json cites",
    );
}

#[test]
fn tampered_records_are_refused_naming_the_shard() {
    let dir = tempfile::tempdir().unwrap();
    let model = crosses(dir.path(), 8, 8);
    let good = streamed(dir.path(), &model, "good", &[]);
    let fresh = |name: &str| copy(&good, &dir.path().join(name));
    let record = json(&good, "shard-015-064.json");
    let sha = |part: &str| record[part]["sha256"].as_str().unwrap().to_string();

    // A record's hash of its OPB file changed: the rebuilt file's differs.
    let folder = fresh("opb");
    edit(&folder, "shard-015-064.json", &sha("opb"), &"0".repeat(64));
    refused(&folder, &[], "shard-015-064.json: the shard's OPB file, rebuilt from the model and table.txt, has SHA-256");

    // A record missing.
    let folder = fresh("missing");
    unlist(&folder, "shard-015-064.json");
    refused(
        &folder,
        &[],
        "no record proves the entries 15..64 (a shard is missing)",
    );

    // A record duplicated: another shard of entries an existing one proves.
    let folder = fresh("duplicated");
    let text = fs::read_to_string(folder.join("shard-000-015.json"))
        .unwrap()
        .replace("shard-000-015", "shard-000-064")
        .replace("\"end\": 15", "\"end\": 64");
    fs::write(folder.join("shard-000-064.json"), text).unwrap();
    list(&folder, "streamed-shard-000-064", "shard-000-064.json");
    refused(
        &folder,
        &[],
        "shard-000-064.json: a duplicated shard: shard-000-015.json proves entry 0 too",
    );

    // A verdict flipped.
    let folder = fresh("verdict");
    edit(
        &folder,
        "shard-000-015.json",
        "\"verdict\": \"accepted\"",
        "\"verdict\": \"refused\"",
    );
    refused(
        &folder,
        &[],
        "shard-000-015.json: a failed shard: puzzlec-pb refused its proof",
    );

    // A record that does not read.
    let folder = fresh("unreadable");
    edit(&folder, "shard-000-015.json", "\"nodes\"", "\"node\"");
    refused(&folder, &[], "shard-000-015.json: line ");

    // A record of another model, under a name of this one.
    let other = crosses(dir.path(), 8, 9);
    let foreign = streamed(dir.path(), &other, "foreign", &[]);
    let folder = fresh("foreign-record");
    let name = files(&foreign)
        .into_iter()
        .find(|n| n.starts_with("shard-000-"))
        .unwrap();
    let text = fs::read_to_string(foreign.join(&name)).unwrap();
    let renamed = text.replace(name.trim_end_matches(".json"), "shard-000-015");
    fs::write(folder.join("shard-000-015.json"), renamed).unwrap();
    rehash(&folder, "shard-000-015.json");
    refused(
        &folder,
        &[],
        "shard-000-015.json: a foreign shard: its record is of a model with SHA-256",
    );

    // The proof's hash changed: the records hold, but the replayed shard differs.
    let folder = fresh("replay");
    edit(
        &folder,
        "shard-015-064.json",
        &sha("proof"),
        &"f".repeat(64),
    );
    assert_eq!(check(&folder, &[]).code, 0);
    assert_eq!(check(&folder, &["--replay", "1"]).code, 0);
    refused(
        &folder,
        &["--replay", "2"],
        &format!(
            "shard-015-064.json (record 2): replayed, its proof has SHA-256 {}",
            sha("proof")
        ),
    );
    refused(
        &folder,
        &["--replay", "all"],
        "the shard differs from the one recorded",
    );
    refused(
        &folder,
        &["--replay", "3"],
        "--replay 3: the certificate has 2 records, numbered 1..=2",
    );
}

#[test]
fn a_lowered_table_entry_is_refused_naming_a_shard_whose_premise_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let model = crosses(dir.path(), 8, 8);
    let good = streamed(dir.path(), &model, "good", &[]);
    let table = fs::read_to_string(good.join("table.txt")).unwrap();
    let rows: Vec<(String, usize)> = table
        .lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with("positions"))
        .map(|l| {
            (
                l.to_string(),
                l.rsplit(' ').next().unwrap().parse().unwrap(),
            )
        })
        .collect();
    // An entry one above the next and equal to the one before: lowered by one, the table
    // keeps the doll's shape; only the shards' premises can tell.
    let mut refusals = 0;
    for q in 1..rows.len() - 1 {
        let (before, entry, after) = (rows[q - 1].1, rows[q].1, rows[q + 1].1);
        if !(entry == after + 1 && before == entry) {
            continue;
        }
        let folder = copy(&good, &dir.path().join(format!("lowered-{q}")));
        let (line, _) = &rows[q];
        let lowered = format!("{} {}", line.rsplit_once(' ').unwrap().0, entry - 1);
        edit(
            &folder,
            "table.txt",
            &format!("\n{line}\n"),
            &format!("\n{lowered}\n"),
        );
        let run = check(&folder, &[]);
        assert_eq!(run.code, 1, "{}", run.stdout);
        if run.stderr.contains("table.txt: entry") {
            continue; // below the witness
        }
        says(
            &run.stderr,
            ".json: a foreign shard: its record is of a table with SHA-256",
        );
        // A tamperer who also rewrites every record's table hash: the premises differ.
        let hash = puzzlec::base::digest::sha256_hex(&fs::read(folder.join("table.txt")).unwrap());
        let old = puzzlec::base::digest::sha256_hex(table.as_bytes());
        for name in files(&folder)
            .into_iter()
            .filter(|n| n.starts_with("shard-"))
        {
            edit(&folder, &name, &old, &hash);
        }
        refused(
            &folder,
            &[],
            ".json: the shard's OPB file, rebuilt from the model and table.txt, has SHA-256",
        );
        refusals += 1;
    }
    assert!(
        refusals > 0,
        "no entry of the table could be lowered in shape"
    );
}

#[test]
fn jobs_run_apart_are_joined_and_a_stopped_run_resumes_keeping_its_records() {
    let dir = tempfile::tempdir().unwrap();
    let model = crosses(dir.path(), 9, 9);
    let model_arg = model.to_str().unwrap();
    let folder = dir.path().join("jobs");
    let jobs = dir.path().join("jobs.txt");
    let run = puzzlec(
        dir.path(),
        &[
            "prove",
            model_arg,
            "--stream",
            "--veripb-shards",
            "3",
            "--jobs",
            jobs.to_str().unwrap(),
            "-o",
            folder.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("3 jobs: "), "{}", run.stdout);
    let lines: Vec<String> = fs::read_to_string(&jobs)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), 3);
    assert!(
        lines[0].contains(" prove ") && lines[0].contains(" --job shard-000-"),
        "{}",
        lines[0]
    );
    let join = |folder: &Path| {
        puzzlec(
            dir.path(),
            &["prove", model_arg, "-o", folder.to_str().unwrap(), "--join"],
        )
    };
    let sh = |line: &str| {
        let status = std::process::Command::new("sh")
            .args(["-c", line])
            .output()
            .unwrap();
        assert!(
            status.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&status.stderr)
        );
        String::from_utf8_lossy(&status.stdout).into_owned()
    };

    // One job run: the join names what is missing; the run resumed keeps its record.
    let said = sh(&lines[0]);
    assert!(said.contains("nodes, proof "), "{said}");
    let first = files(&folder)
        .into_iter()
        .find(|n| n.ends_with(".json"))
        .unwrap();
    let kept = fs::read(folder.join(&first)).unwrap();
    // The job run again proves nothing (its record, which holds the run's times, is kept as
    // it was), and the job list written again names only the shards still to prove.
    let again = sh(&lines[0]);
    assert!(
        again.contains(&format!("(record {}", folder.join(&first).display())),
        "{again}"
    );
    assert_eq!(fs::read(folder.join(&first)).unwrap(), kept);
    // The run under way checks as far as its one record goes, exit 3: never "certified".
    // Its shard takes the later entries, which no record proves yet, as premises.
    let end = first
        .trim_start_matches("shard-000-")
        .trim_end_matches(".json")
        .trim_start_matches('0');
    let run = check(&folder, &[]);
    assert_eq!(run.code, 3, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains(&format!(
            "\nok: the shards of the entries 0..{end} are complete (a split entry's runs tile the states its glue cites); no record yet of the entries {end}..81\n"
        )),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.ends_with(
            "not certified yet: a run under way toward 5 as the optimum of model.toml; its records so far (1) hold, but prove none of the 81 entries of table.txt yet (a shard takes the later entries as premises, and the last have no record)\n"
        ),
        "{}",
        run.stdout
    );
    let replay = check(&folder, &["--replay", "1", "--json"]);
    assert_eq!(replay.code, 3, "{}", replay.stderr);
    let report: Value = serde_json::from_str(&replay.stdout).unwrap();
    assert_eq!(report["valid"], false);
    assert!(
        report["steps"].as_array().unwrap().iter().any(|s| s
            .as_str()
            .unwrap()
            .starts_with(&format!("{first} (record 1): replayed in"))),
        "{}",
        replay.stdout
    );
    refused(
        &folder,
        &["--replay", "2"],
        "--replay 2: the certificate has 1 records, numbered 1..=1",
    );
    let run = puzzlec(
        dir.path(),
        &[
            "prove",
            model_arg,
            "--stream",
            "--jobs",
            jobs.to_str().unwrap(),
            "-o",
            folder.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("2 jobs: "), "{}", run.stdout);
    let rest = fs::read_to_string(&jobs).unwrap();
    assert_eq!(rest.lines().collect::<Vec<_>>(), lines[1..].to_vec());
    assert_eq!(fs::read(folder.join(&first)).unwrap(), kept);
    let run = join(&folder);
    assert_eq!(run.code, 1, "{}", run.stderr);
    says(&run.stderr, "(a shard is missing)");
    let resumed = copy(&folder, &dir.path().join("resumed"));
    let run = puzzlec(
        dir.path(),
        &["prove", model_arg, "-o", resumed.to_str().unwrap()],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(fs::read(resumed.join(&first)).unwrap(), kept);
    assert!(!resumed.join("plan.txt").exists());
    assert_eq!(check(&resumed, &[]).code, 0);

    // The last job next: its entries, the table's last, take no premises, so the run
    // under way proves them and says how far that reaches.
    sh(&lines[2]);
    let last = files(&folder)
        .into_iter()
        .find(|n| n.starts_with("shard-") && n.ends_with("-081.json"))
        .unwrap();
    let start: usize = last["shard-".len().."shard-".len() + 3].parse().unwrap();
    let run = check(&folder, &[]);
    assert_eq!(run.code, 3, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.ends_with(&format!(
            "not certified yet: a run under way toward 5 as the optimum of model.toml; its records so far (2) hold and prove the last {} of the 81 entries of table.txt ({start}..81)\n",
            81 - start
        )),
        "{}",
        run.stdout
    );
    // The middle job, then a foreign, a failed and a duplicated record, each refused.
    sh(&lines[1]);
    let other = crosses(dir.path(), 8, 8);
    let foreign = streamed(dir.path(), &other, "foreign", &[]);
    fs::copy(
        foreign.join("shard-000-015.json"),
        folder.join("shard-000-015.json"),
    )
    .unwrap();
    let run = join(&folder);
    assert_eq!(run.code, 1);
    says(
        &run.stderr,
        "shard-000-015.json: a foreign shard: its record is of a model",
    );
    refused(
        &folder,
        &[],
        "shard-000-015.json: a foreign shard: its record is of a model",
    );
    fs::remove_file(folder.join("shard-000-015.json")).unwrap();
    let text = fs::read_to_string(folder.join(&first)).unwrap();
    fs::write(
        folder.join(&first),
        text.replacen("\"accepted\"", "\"refused\"", 1),
    )
    .unwrap();
    let run = join(&folder);
    assert_eq!(run.code, 1);
    says(
        &run.stderr,
        &format!("{first}: a failed shard: puzzlec-pb refused its proof"),
    );
    refused(
        &folder,
        &[],
        &format!("{first}: a failed shard: puzzlec-pb refused its proof"),
    );
    fs::write(folder.join(&first), text).unwrap();
    // A job over shards whose records are all there proves nothing: they leave nothing.
    let whole = lines[0].replace(
        &format!("--job {}", first.trim_end_matches(".json")),
        "--job shard-000-081",
    );
    assert_eq!(sh(&whole), "");
    assert!(!folder.join("shard-000-081.json").exists());
    // Proved in a folder with none of their records, its record duplicates them.
    let bare = dir.path().join("bare");
    fs::create_dir(&bare).unwrap();
    for name in ["plan.txt", "model.toml", "table.txt", "witness.txt"] {
        fs::copy(folder.join(name), bare.join(name)).unwrap();
    }
    let folder_arg = folder.to_str().unwrap();
    sh(&whole.replace(folder_arg, bare.to_str().unwrap()));
    fs::copy(
        bare.join("shard-000-081.json"),
        folder.join("shard-000-081.json"),
    )
    .unwrap();
    let run = join(&folder);
    assert_eq!(run.code, 1);
    says(&run.stderr, "a duplicated shard");
    refused(&folder, &[], "a duplicated shard");
    fs::remove_file(folder.join("shard-000-081.json")).unwrap();
    // Every shard has its record, but until the join the folder is a run under way.
    let run = check(&folder, &[]);
    assert_eq!(run.code, 3, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.ends_with(
            "not certified yet: a run under way; its records (3) prove every entry of table.txt, and `prove --join` writes the manifest that certifies 5 as the optimum of model.toml\n"
        ),
        "{}",
        run.stdout
    );

    let run = join(&folder);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("optimal 5: certificate in"),
        "{}",
        run.stdout
    );
    assert_eq!(check(&folder, &["--replay", "sample:2"]).code, 0);
    // A joined run takes no more jobs.
    let status = std::process::Command::new("sh")
        .args(["-c", &lines[1]])
        .output()
        .unwrap();
    assert_eq!(status.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&status.stderr).contains("plan.txt: missing"),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
}

#[test]
fn replays_and_shards_are_refused_where_they_do_not_apply() {
    let dir = tempfile::tempdir().unwrap();
    let model = crosses(dir.path(), 8, 8);
    let folder = streamed(dir.path(), &model, "streamed", &[]);
    refused(
        &folder,
        &["--shard", "1/2"],
        "--shard: a streamed certificate holds no proofs to split",
    );
    let stored = dir.path().join("stored");
    let run = puzzlec(
        dir.path(),
        &[
            "prove",
            model.to_str().unwrap(),
            "--no-stream",
            "-o",
            stored.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    refused(
        &stored,
        &["--replay", "all"],
        "--replay: only a streamed certificate's shards are replayed",
    );
    let run = check(&folder, &["--replay", "some"]);
    assert_eq!(run.code, 2);
    says(&run.stderr, "expected all, sample:K or a record's number N");
}

/// A streamed certificate kept in the repository still checks: its records, rebuilt OPB
/// hashes, table and witness agree with today's model compiler; and today's writer makes
/// `replays` small shards again with the recorded hashes (the records stay replayable).
fn kept_certificate_checks(name: &str, optimum: usize, shards: usize, replays: usize) {
    let conclusion = format!(
        "certified: {optimum} is the optimum of model.toml, by the records of {shards} streamed shards"
    );
    let folder = kept(name);
    let run = crate::common::check(&folder);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(&conclusion),
        "{}{}",
        run.stdout,
        run.stderr
    );
    // The smallest range of entries (those hold entries that rise, proved in one line) and
    // the smallest glue, where their proofs are small enough to replay in seconds in a test
    // build (a certificate of few large shards has none).
    let bytes = |n: &String| json(&folder, n)["proof"]["bytes"].as_u64().unwrap();
    let mut replayed = 0;
    for kind in ["shard-", "-glue.json"] {
        let Some(smallest) = files(&folder)
            .into_iter()
            .filter(|n| n.ends_with(".json") && n.contains(kind))
            .min_by_key(bytes)
            .filter(|n| bytes(n) <= REPLAYED_IN_TESTS)
        else {
            continue;
        };
        replayed += 1;
        // Its number, as `check` lists the records: "ok: record K/N NAME.json: ...".
        let listed = format!(" {smallest}: ");
        let line = run.stdout.lines().find(|l| l.contains(&listed)).unwrap();
        let number = line["ok: record ".len()..].split('/').next().unwrap();
        let replay = check(&folder, &["--replay", number]);
        assert_eq!(replay.code, 0, "{}", replay.stderr);
        assert!(
            replay
                .stdout
                .contains(&format!("ok: {smallest} (record {number}): replayed in")),
            "{}",
            replay.stdout
        );
    }
    assert_eq!(replayed, replays, "records replayed");
}

/// The most bytes of proof a kept shard may have to be replayed by the tests.
const REPLAYED_IN_TESTS: u64 = 64 << 20;

#[test]
fn the_kept_certificate_of_16_by_16_crosses_checks() {
    kept_certificate_checks("cross-16x16", 20, 63, 2);
}

#[test]
fn the_kept_certificate_of_17_by_17_crosses_checks() {
    // Twelve shards of 0.3 to 6.7 GB of proof: checked, none replayed.
    kept_certificate_checks("cross-17x17", 22, 12, 0);
}

#[test]
fn the_kept_certificate_of_18_by_18_crosses_checks() {
    // 868 shards, states split again below split entries up to six times: its smallest glue
    // replays; its ranges' proofs are gigabytes.
    kept_certificate_checks("cross-18x18", 25, 868, 1);
}

/// The kept folder `name` under `certificates/`.
fn kept(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("certificates")
        .join(name)
}

#[test]
fn a_state_alone_past_its_budget_is_split_again_at_the_states_below_it() {
    let dir = tempfile::tempdir().unwrap();
    let model = crosses(dir.path(), 10, 10);
    // Any shard of 10 x 10 writes about 1.1 MB of definitions: at 1200 kB, states 11 and 13
    // of entry 0 (split two pieces below its root) pass alone, and are split one piece below.
    let folder = streamed(dir.path(), &model, "nested", &["--shard-bytes", "1200K"]);
    let names = files(&folder);
    for split in [
        "entry-000-d2-glue.json",
        "entry-000-d2-states-010-011.json",
        "entry-000-d2-state-011-d1-glue.json",
        "entry-000-d2-state-011-d1-states-000-001.json",
        "entry-000-d2-states-012-013.json",
        "entry-000-d2-state-013-d1-glue.json",
        "entry-000-d2-state-013-d1-states-001-002.json",
    ] {
        assert!(names.contains(split), "{names:?}");
    }
    // The glue within state 13 lists that state first, as its parent's glue cites it.
    let parent = json(&folder, "entry-000-d2-glue.json");
    let inner = json(&folder, "entry-000-d2-state-013-d1-glue.json");
    assert_eq!(inner["split"]["states"][0], parent["split"]["states"][13]);
    assert_eq!(
        inner["split"]["within"],
        serde_json::json!([{"depth": 2, "state": 13}])
    );
    let run = check(&folder, &["--replay", "all"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    says(&run.stdout, "entry-000-d2-state-013-d1-glue.json: entry 0: state 13 (2 below), split 1 pieces below it: the glue, citing 2 states");

    // A state split again, one of whose states is missing.
    let lost = copy(&folder, &dir.path().join("lost"));
    unlist(&lost, "entry-000-d2-state-013-d1-states-001-002.json");
    refused(
        &lost,
        &[],
        "no record proves the states 1..2 of entry 0, which entry-000-d2-state-013-d1-glue.json cites (a shard is missing)",
    );
    // Its glue claiming another state than the one its parent cites.
    let other = copy(&folder, &dir.path().join("other"));
    let need = inner["split"]["states"][0]["need"].as_u64().unwrap();
    edit(
        &other,
        "entry-000-d2-state-013-d1-glue.json",
        &format!("\"need\": {need}"),
        &format!("\"need\": {}", need + 1),
    );
    refused(
        &other,
        &[],
        "entry-000-d2-state-013-d1-glue.json: the state it splits is not the state 13 that entry-000-d2-glue.json cites",
    );
    // The state both split again and proved whole.
    let twice = copy(&folder, &dir.path().join("twice"));
    let text = fs::read_to_string(folder.join("entry-000-d2-states-012-013.json"))
        .unwrap()
        .replace("entry-000-d2-states-012-013", "entry-000-d2-states-013-014")
        .replace("\"first\": 12", "\"first\": 13");
    fs::write(twice.join("entry-000-d2-states-013-014.json"), text).unwrap();
    list(
        &twice,
        "streamed-entry-000-d2-states-013-014",
        "entry-000-d2-states-013-014.json",
    );
    refused(
        &twice,
        &[],
        "entry-000-d2-states-013-014.json: a duplicated shard: the state 13 of entry 0 is proved twice",
    );
}

#[test]
fn a_job_cut_where_its_search_had_come_resumes_from_the_records_its_parts_left() {
    let dir = tempfile::tempdir().unwrap();
    let model = crosses(dir.path(), 9, 9);
    let folder = dir.path().join("cut");
    let jobs = dir.path().join("jobs.txt");
    let run = puzzlec(
        dir.path(),
        &[
            "prove",
            model.to_str().unwrap(),
            "--stream",
            "--veripb-shards",
            "1",
            "--shard-bytes",
            "700K",
            "--jobs",
            jobs.to_str().unwrap(),
            "-o",
            folder.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<String> = fs::read_to_string(&jobs)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let sh = |line: &str| {
        let out = std::process::Command::new("sh")
            .args(["-c", line])
            .output()
            .unwrap();
        assert!(out.status.success(), "{line}: {out:?}");
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let mut cuts = String::new();
    for line in &lines {
        cuts.push_str(&sh(line).1);
    }
    // Each cut says where the search had come and what it left; a range's finished
    // entries are its last ones.
    let cut = cuts
        .lines()
        .find(|l| l.starts_with("shard-") && !l.contains(" 0 of its goals"))
        .unwrap_or_else(|| panic!("no range cut part way: {cuts}"));
    let (name, rest) = cut.split_once(": given up at ").unwrap();
    let finished: usize = rest
        .split_once(" bytes, ")
        .and_then(|(_, r)| r.split_once(" of its goals searched; cut into "))
        .map(|(n, _)| n.parse().unwrap())
        .unwrap();
    let end: usize = name.rsplit('-').next().unwrap().parse().unwrap();
    assert!(
        cut.contains(&format!(
            "cut into shard-{:03}-{end:03}, shard-{:03}-",
            end - finished,
            end - finished - 1
        )),
        "{cut}"
    );
    // Two leaves of the cuts lost: the jobs run again prove those two again, the same,
    // and leave every other record as it was.
    let before: Vec<(String, Vec<u8>)> = files(&folder)
        .into_iter()
        .filter(|n| n.ends_with(".json"))
        .map(|n| {
            let bytes = fs::read(folder.join(&n)).unwrap();
            (n, bytes)
        })
        .collect();
    let lost = [
        before
            .iter()
            .find(|(n, _)| n.starts_with("shard-"))
            .unwrap(),
        before.iter().find(|(n, _)| n.contains("-states-")).unwrap(),
    ];
    for (name, _) in lost {
        fs::remove_file(folder.join(name)).unwrap();
    }
    for line in &lines {
        sh(line);
    }
    let after: Vec<String> = files(&folder)
        .into_iter()
        .filter(|n| n.ends_with(".json"))
        .collect();
    assert_eq!(
        after,
        before.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>()
    );
    for (name, bytes) in &before {
        let now = fs::read(folder.join(name)).unwrap();
        if lost.iter().any(|(n, _)| n == name) {
            let then: Value = serde_json::from_slice(bytes).unwrap();
            assert_eq!(json(&folder, name)["proof"], then["proof"], "{name}");
            assert_ne!(&now, bytes, "{name}: written again, with its own times");
        } else {
            assert_eq!(&now, bytes, "{name}: kept as it was");
        }
    }
    // The job list written again names no job: every shard, cut or not, has its records.
    let again = dir.path().join("again.txt");
    let run = puzzlec(
        dir.path(),
        &[
            "prove",
            model.to_str().unwrap(),
            "--stream",
            "--jobs",
            again.to_str().unwrap(),
            "-o",
            folder.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(fs::read_to_string(&again).unwrap(), "", "{}", run.stderr);
    let run = puzzlec(
        dir.path(),
        &[
            "prove",
            model.to_str().unwrap(),
            "-o",
            folder.to_str().unwrap(),
            "--join",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(check(&folder, &[]).code, 0);
}
