//! Certificates of maximum packing by the Russian-doll table (`cert::certificate::table`): small
//! boxes proved and checked with their known optima, shards combined, and tampering caught
//! with a message naming the step. The 13 x 19 cross box is behind `#[ignore]`.

use crate::common;

use common::{assert_fails, models, puzzlec, rehash};
use puzzlec::base::shard::Shard;
use puzzlec::cert::certificate::table::{
    self as packing_table, StepProver, TableOptions, TABLE_FILE,
};
use puzzlec::cert::certificate::{self, check, check_shard, Claim, PackingRoute, ProveOptions};
use puzzlec::puzzle::load_model_file;
use std::fs;
use std::path::{Path, PathBuf};

/// The three 9-cell crosses of the seed's box (plus, dagger, T) in a `w x h` box.
fn cross_model(w: usize, h: usize) -> String {
    format!(
        "kind = \"packing\"\nwidth = {w}\nheight = {h}\ngoal = \"maximise\"\n\n\
         [[piece]]\nname = \"plus\"\nshape = \"\"\"\n..#..\n..#..\n#####\n..#..\n..#..\n\"\"\"\n\n\
         [[piece]]\nname = \"dagger\"\nshape = \"\"\"\n..#..\n#####\n..#..\n..#..\n..#..\n\"\"\"\n\n\
         [[piece]]\nname = \"T\"\nshape = \"\"\"\n#####\n..#..\n..#..\n..#..\n..#..\n\"\"\"\n"
    )
}

/// L-trominoes in a 6 x 5 region with four blocked cells.
const L_TROMINOES: &str = "kind = \"packing\"\ngoal = \"maximise\"\nregion = \"\"\"\n\
    ......\n.#....\n...#..\n#.....\n.....#\n\"\"\"\n\n\
    [[piece]]\nname = \"L\"\nshape = \"\"\"\n#.\n##\n\"\"\"\n";

/// Four pentominoes, at most two of each, in a 7 x 5 box (35 cells, so at most 7 pieces by
/// area): the counts bind.
const PENTOMINOES_AT_MOST: &str =
    "kind = \"packing\"\nwidth = 7\nheight = 5\ngoal = \"maximise\"\n\n\
    [[piece]]\nname = \"X\"\nat_most = 2\nshape = \"\"\"\n.#.\n###\n.#.\n\"\"\"\n\n\
    [[piece]]\nname = \"I\"\nat_most = 1\nshape = \"\"\"\n#####\n\"\"\"\n\n\
    [[piece]]\nname = \"V\"\nat_most = 2\nshape = \"\"\"\n#..\n#..\n###\n\"\"\"\n\n\
    [[piece]]\nname = \"W\"\nat_most = 1\nshape = \"\"\"\n#..\n##.\n.##\n\"\"\"\n";

fn write_model(tmp: &Path, name: &str, text: &str) -> PathBuf {
    let path = tmp.join(name);
    fs::write(&path, text).unwrap();
    path
}

/// Proves `model` into `tmp/name` by the table route, asserting it was taken.
fn prove_table(tmp: &Path, model: &Path, name: &str) -> PathBuf {
    let dir = tmp.join(name);
    let options = ProveOptions {
        packing_route: PackingRoute::Table,
        ..ProveOptions::new(puzzlec::report::evidence::words)
    };
    let manifest = certificate::prove_using(model, &dir, &options).unwrap();
    assert!(
        manifest.files.contains_key(packing_table::TABLE_ROLE),
        "{}",
        manifest.how
    );
    dir
}

/// Proves with explicit table options (prover, stored CNFs, shard).
fn prove_table_with(model: &Path, dir: &Path, options: &TableOptions) -> certificate::Manifest {
    let puzzle = load_model_file(model).unwrap();
    let bytes = fs::read(model).unwrap();
    packing_table::prove(
        model,
        &bytes,
        &puzzle,
        dir,
        options,
        &puzzlec::base::Control::unlimited(),
    )
    .unwrap()
}

fn optimum_of(dir: &Path) -> usize {
    let checked = check(dir).unwrap_or_else(|e| panic!("{e}"));
    let value: usize = checked
        .conclusion
        .strip_prefix("certified: ")
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{}", checked.conclusion));
    assert_eq!(
        checked.conclusion,
        format!("certified: {value} is the optimum of model.toml")
    );
    value
}

fn table_entries(dir: &Path) -> Vec<(usize, usize, usize, usize)> {
    fs::read_to_string(dir.join(TABLE_FILE))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with("positions"))
        .map(|l| {
            let f: Vec<usize> = l.split_whitespace().map(|n| n.parse().unwrap()).collect();
            (f[0], f[1], f[2], f[3])
        })
        .collect()
}

/// The name of step `k`'s proof file in `dir`.
fn proof_of(dir: &Path, k: usize) -> String {
    let prefix = format!("step-{k:03}.");
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(&prefix) && !n.ends_with(".cnf"))
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    names.remove(0)
}

#[test]
fn cross_boxes_get_table_certificates_with_their_known_optima() {
    let tmp = tempfile::tempdir().unwrap();
    // Optima from ../shared/refs/cross_doll.c (as in tests/integration/russian_doll.rs).
    for (w, h, optimum) in [(6, 6, 2), (7, 7, 2), (8, 8, 4), (6, 9, 3), (9, 9, 5)] {
        let model = write_model(
            tmp.path(),
            &format!("cross-{w}x{h}.toml"),
            &cross_model(w, h),
        );
        let dir = prove_table(tmp.path(), &model, &format!("cert-{w}x{h}"));
        assert_eq!(optimum_of(&dir), optimum, "{w} x {h}");
        let table = table_entries(&dir);
        assert_eq!(table.len(), w * h);
        assert_eq!(table[0].3, optimum);
        // The scan runs along the short side: rows of min(w, h) positions.
        assert_eq!(
            (table[1].1, table[1].2),
            if w <= h { (1, 0) } else { (0, 1) }
        );
    }
}

#[test]
fn blocked_cells_and_piece_maxima_are_certified_too() {
    let tmp = tempfile::tempdir().unwrap();
    let model = write_model(tmp.path(), "l.toml", L_TROMINOES);
    let dir = prove_table(tmp.path(), &model, "l");
    // 26 free cells hold at most 8 trominoes; the blocked cells leave room for 8.
    assert_eq!(optimum_of(&dir), 8);

    let model = write_model(tmp.path(), "pento.toml", PENTOMINOES_AT_MOST);
    let dir = prove_table(tmp.path(), &model, "pento");
    // X, X, I, V, V, W would be 6 pieces (30 of 35 cells), but they do not fit together.
    let optimum = optimum_of(&dir);
    let sat = puzzlec(tmp.path(), &["solve", "pento.toml", "--backend", "sat"]);
    assert_eq!(sat.code, 0, "{}", sat.stderr);
    assert!(
        sat.stdout.starts_with(&format!("{optimum}\n")),
        "the SAT backend agrees: {}",
        sat.stdout
    );
}

#[test]
fn pentominoes_with_exact_counts_keep_the_single_refutation() {
    // Piece minimums are outside the Russian doll: the whole CNF is refuted as before.
    let tmp = tempfile::tempdir().unwrap();
    let text = PENTOMINOES_AT_MOST.replacen("at_most = 1", "exactly = 1", 1);
    let model = write_model(tmp.path(), "exact.toml", &text);
    let dir = tmp.path().join("cert");
    let manifest = puzzlec::prove(&model, &dir).unwrap();
    assert!(!manifest.files.contains_key(packing_table::TABLE_ROLE));
    assert!(manifest.files.contains_key("lrat"), "{:?}", manifest.files);
    assert!(!dir.join(TABLE_FILE).exists());
    assert!(matches!(manifest.claim, Claim::Optimal { .. }));
    check(&dir).unwrap();
}

#[test]
fn varisat_lrat_and_stored_cnfs_check_and_a_second_prove_replaces_them() {
    let tmp = tempfile::tempdir().unwrap();
    let model = write_model(tmp.path(), "c.toml", &cross_model(7, 8));
    let dir = tmp.path().join("cert");
    let options = TableOptions {
        prover: StepProver::Varisat,
        store_cnf: true,
        shard: None,
    };
    prove_table_with(&model, &dir, &options);
    assert!(dir.join("step-000.lrat").is_file());
    assert!(dir.join("step-000.cnf").is_file());
    let checked = check(&dir).unwrap();
    assert!(
        checked.steps.last().unwrap().contains(
            "56 LRAT proofs checked by puzzlec's LRAT checker, 0 DRAT proofs checked by puzzlec's DRAT checker"
        ),
        "{:?}",
        checked.steps
    );
    assert!(checked
        .steps
        .last()
        .unwrap()
        .ends_with("; 56 stored CNFs identical to the rebuilt ones"));
    assert_eq!(
        checked.conclusion,
        "certified: 3 is the optimum of model.toml"
    );
    // The stored CNF is what step_dimacs writes: a self-contained DIMACS file.
    let cnf = fs::read_to_string(dir.join("step-000.cnf")).unwrap();
    assert!(cnf.starts_with(
        "c puzzlec table step 0 of model.toml: refutes \"at least 4 pieces start at scan position 0, cell (0, 0), or later\"\n"
    ));
    // Proving again without stored CNFs into the same folder keeps the (checked) proofs
    // and removes the CNFs, so the folder holds only what the manifest lists.
    let again = prove_table_with(
        &model,
        &dir,
        &TableOptions {
            store_cnf: false,
            ..options
        },
    );
    assert!(!dir.join("step-000.cnf").exists());
    assert_eq!(again.files["step-000"].name, "step-000.lrat");
    check(&dir).unwrap();
}

#[test]
fn a_lowered_or_raised_table_entry_is_rejected_naming_the_step() {
    let tmp = tempfile::tempdir().unwrap();
    let model = write_model(tmp.path(), "c.toml", &cross_model(8, 8));
    let dir = prove_table(tmp.path(), &model, "cert");
    let original = fs::read_to_string(dir.join(TABLE_FILE)).unwrap();
    let table = table_entries(&dir);
    let edit = |text: &str| {
        fs::write(dir.join(TABLE_FILE), text).unwrap();
        rehash(&dir, TABLE_FILE);
    };
    // A growing entry lowered by one (keeping the table's shape): its own step now asks to
    // refute a packing that exists, so its proof no longer refutes its CNF; unless the
    // witness already shows the entry is too low, which is caught first. Both name the step.
    let mut by_proof = 0;
    for &(k, x, y, s) in &table[1..] {
        let next = table.get(k + 1).map_or(0, |e| e.3);
        if !(next + 1 == s && table[k - 1].3 == s) {
            continue;
        }
        edit(&original.replacen(
            &format!("\n{k} {x} {y} {s}\n"),
            &format!("\n{k} {x} {y} {}\n", s - 1),
            1,
        ));
        let error = check(&dir).unwrap_err().to_string();
        if error.starts_with("table.txt: ") {
            assert!(
                error.starts_with(&format!("table.txt: step {k}: position {k}: S = {}, but the witness has {s} pieces starting there or later", s - 1)),
                "{error}"
            );
            continue;
        }
        assert!(
            error.starts_with(&format!(
                "step {k} (position {k}, cell ({x}, {y})): step-{k:03}."
            )),
            "{error}"
        );
        assert!(error.contains("does not refute the step's CNF"), "{error}");
        by_proof += 1;
    }
    assert!(by_proof > 0);

    // Raised beyond what the next entry allows: the table's shape is refused first.
    let last = table.len() - 1;
    let (k, x, y, s) = table[last];
    edit(&original.replacen(
        &format!("\n{k} {x} {y} {s}\n"),
        &format!("\n{k} {x} {y} {}\n", s + 2),
        1,
    ));
    assert_eq!(
        check(&dir).unwrap_err().to_string(),
        format!(
            "table.txt: step {last}: position {last}: S = {} after S = 0 at position {}: an entry is the next one or one more",
            s + 2,
            last + 1
        )
    );
    // The first entry raised to 5 (the claim says 4): refused against the claim.
    let (k, x, y, _) = table[0];
    let first = original.replacen(
        &format!("\n{k} {x} {y} 4\n"),
        &format!("\n{k} {x} {y} 5\n"),
        1,
    );
    edit(&first);
    assert_eq!(
        check(&dir).unwrap_err().to_string(),
        "table.txt: step 0: position 0: S = 5, but the claimed optimum is 4"
    );
    // Every entry capped at 3, a well-shaped table below the witness's 4 pieces: refused
    // before any proof is read, at the last position where the witness has 4 pieces.
    let mut capped = String::from("positions 64\n");
    for &(k, x, y, s) in &table {
        capped.push_str(&format!("{k} {x} {y} {}\n", s.min(3)));
    }
    edit(&capped);
    let error = check(&dir).unwrap_err().to_string();
    let k: usize = error
        .strip_prefix("table.txt: step ")
        .and_then(|r| r.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{error}"));
    assert_eq!(
        error,
        format!("table.txt: step {k}: position {k}: S = 3, but the witness has 4 pieces starting there or later")
    );
    edit(&original);
    check(&dir).unwrap();
    // The witness with one piece taken out: still a packing, but of 3, not the claimed 4.
    let witness = fs::read_to_string(dir.join("witness.txt")).unwrap();
    let placed = witness
        .lines()
        .filter(|l| l.starts_with("v "))
        .flat_map(str::split_whitespace)
        .find(|w| w.parse::<i64>().is_ok_and(|n| n > 0))
        .unwrap()
        .to_string();
    let fewer = witness.replacen(&format!(" {placed} "), &format!(" -{placed} "), 1);
    assert_ne!(fewer, witness);
    fs::write(dir.join("witness.txt"), fewer).unwrap();
    rehash(&dir, "witness.txt");
    assert_eq!(
        check(&dir).unwrap_err().to_string(),
        "witness.txt: the solution has value 3, the manifest claims 4"
    );
}

#[test]
fn an_edited_proof_or_cnf_or_a_missing_step_is_rejected_naming_the_step() {
    let tmp = tempfile::tempdir().unwrap();
    let model = write_model(tmp.path(), "c.toml", &cross_model(8, 8));
    let dir = tmp.path().join("cert");
    prove_table_with(
        &model,
        &dir,
        &TableOptions {
            prover: StepProver::Varisat,
            store_cnf: true,
            shard: None,
        },
    );
    check(&dir).unwrap();
    let pristine = tmp.path().join("pristine");
    fs::create_dir(&pristine).unwrap();
    for entry in fs::read_dir(&dir).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), pristine.join(entry.file_name())).unwrap();
    }
    let restore = || {
        for entry in fs::read_dir(&pristine).unwrap() {
            let entry = entry.unwrap();
            fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
        }
    };
    let cell = |k: usize| {
        let t = table_entries(&dir);
        (t[k].1, t[k].2)
    };

    // A proof whose last line (the empty clause) is cut off.
    let proof = fs::read_to_string(dir.join("step-000.lrat")).unwrap();
    let cut = proof
        .trim_end()
        .rsplit_once('\n')
        .map_or("", |(head, _)| head);
    fs::write(dir.join("step-000.lrat"), format!("{cut}\n")).unwrap();
    rehash(&dir, "step-000.lrat");
    let error = check(&dir).unwrap_err().to_string();
    assert_eq!(
        error,
        format!(
            "step 0 (position 0, cell (0, 0)): step-000.lrat does not refute the step's CNF (puzzlec's LRAT checker: proof never derives the empty clause)"
        )
    );
    restore();

    // A stored CNF with one clause dropped.
    let k = 9;
    let name = format!("step-{k:03}.cnf");
    let cnf = fs::read_to_string(dir.join(&name)).unwrap();
    let edited = cnf.replacen(" 0\n", " 0\n0\n", 1);
    fs::write(dir.join(&name), edited).unwrap();
    rehash(&dir, &name);
    let (x, y) = cell(k);
    let error = check(&dir).unwrap_err().to_string();
    assert!(
        error.starts_with(&format!(
            "step {k} (position {k}, cell ({x}, {y})): {name} differs from the CNF rebuilt from model.toml and table.txt (first at line"
        )),
        "{error}"
    );
    restore();

    // A step's proof removed with its manifest entry: the step is missing.
    let k = 20;
    let proof = proof_of(&dir, k);
    fs::remove_file(dir.join(&proof)).unwrap();
    let manifest_path = dir.join("manifest.json");
    let mut manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&manifest_path).unwrap()).unwrap();
    manifest["files"]
        .as_object_mut()
        .unwrap()
        .remove(&format!("step-{k:03}"));
    fs::write(&manifest_path, manifest.to_string()).unwrap();
    let (x, y) = cell(k);
    assert_eq!(
        check(&dir).unwrap_err().to_string(),
        format!("step {k} (position {k}, cell ({x}, {y})): no proof: manifest.json lists no step-{k:03} file (the step is missing)")
    );
    restore();
    // Removed from the folder only: the manifest check names the file.
    fs::remove_file(dir.join(&proof)).unwrap();
    assert_fails(
        &dir,
        &format!("{proof}: listed in the manifest but missing from the folder"),
    );
    restore();
    check(&dir).unwrap();
}

#[test]
fn shards_prove_and_check_apart_and_combine_by_copying_their_steps() {
    let tmp = tempfile::tempdir().unwrap();
    let model = write_model(tmp.path(), "c.toml", &cross_model(7, 9));
    let shard = |index| Shard { index, count: 3 };
    let mut dirs = Vec::new();
    for index in 1..=3 {
        let dir = tmp.path().join(format!("shard-{index}"));
        // Shard 2 with varisat, the others as `prove` chooses: a combined folder may mix them.
        let prover = if index == 2 {
            StepProver::Varisat
        } else {
            StepProver::auto()
        };
        let manifest = prove_table_with(
            &model,
            &dir,
            &TableOptions {
                prover,
                store_cnf: false,
                shard: Some(shard(index)),
            },
        );
        assert!(manifest.how.contains(&format!("PARTIAL: shard {index}/3")));
        let checked = check_shard(&dir, Some(shard(index))).unwrap();
        assert_eq!(
            checked.conclusion,
            format!("partly certified: shard {index}/3 of the table steps of model.toml holds (the optimum 4 is certified once every shard 1/3..3/3 passes)")
        );
        // The full check wants every step.
        let missing = if index == 1 { 1 } else { 0 };
        let error = check(&dir).unwrap_err().to_string();
        assert!(
            error.starts_with(&format!("step {missing} (position {missing}, ")),
            "{error}"
        );
        assert!(error.ends_with("(the step is missing)"), "{error}");
        dirs.push(dir);
    }
    // Combine: every shard's step files in one folder, then `prove` there keeps them.
    let combined = tmp.path().join("combined");
    fs::create_dir(&combined).unwrap();
    for dir in &dirs {
        for entry in fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with("step-") {
                fs::copy(entry.path(), combined.join(&name)).unwrap();
            }
        }
    }
    let run = puzzlec(
        tmp.path(),
        &["prove", "c.toml", "-o", combined.to_str().unwrap()],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Shard 2's steps are still varisat's LRAT proofs: kept, not proved again.
    assert!(combined.join("step-001.lrat").is_file());
    let run = puzzlec(tmp.path(), &["check", combined.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run
        .stdout
        .ends_with("certified: 4 is the optimum of model.toml\n"));
    let run = puzzlec(
        tmp.path(),
        &["check", combined.to_str().unwrap(), "--shard", "2/3"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("ok: the 21 steps of shard 2/3: "));
}

#[test]
fn prove_fails_when_a_fresh_step_proof_does_not_check() {
    // A fake `cadical` first on PATH: it answers UNSATISFIABLE to every step and writes a
    // binary DRAT proof that is only the empty clause. That refutes the steps that unit
    // propagation settles, not step 0 of an 8 x 8 cross box, so prove must stop there.
    let tmp = tempfile::tempdir().unwrap();
    let bin = tmp.path().join("bin");
    fs::create_dir(&bin).unwrap();
    common::script(&bin, "cadical", "printf 'a\\000' > \"$4\"\nexit 20");
    let model = write_model(tmp.path(), "cross-8x8.toml", &cross_model(8, 8));
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_puzzlec"))
        .args(["prove", model.to_str().unwrap(), "--table", "-o"])
        .arg(tmp.path().join("cert"))
        .env("PATH", path)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "error: step 0: the proof cadical wrote does not check: puzzlec's DRAT checker: proof \
         byte offset 0: the empty clause is not implied: unit propagation on the active \
         clauses finds no conflict\n"
    );
    assert!(!tmp.path().join("cert").join("manifest.json").exists());
}

#[test]
fn prove_shard_is_refused_for_models_without_a_table() {
    let tmp = tempfile::tempdir().unwrap();
    let run = puzzlec(
        &models(),
        &[
            "prove",
            "queens-8.toml",
            "-o",
            tmp.path().join("c").to_str().unwrap(),
            "--shard",
            "1/2",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "error: queens-8.toml: --shard 1/2: only maximum packings certified by their Russian-doll table are proved in shards\n"
    );
}

/// The seed's box: 19 crosses, 247 steps. Prints the times and the folder's size.
#[test]
#[ignore = "minutes: run with --release -- --ignored"]
fn the_13_by_19_cross_box_certificate() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cert");
    let start = std::time::Instant::now();
    let manifest = puzzlec::prove(&models().join("cross-13x19.toml"), &dir).unwrap();
    let proved = start.elapsed().as_secs_f64();
    assert_eq!(manifest.claim, Claim::Optimal { value: 19 });
    let bytes: u64 = manifest.files.values().map(|f| f.bytes).sum();
    let start = std::time::Instant::now();
    let checked = check(&dir).unwrap();
    let checked_in = start.elapsed().as_secs_f64();
    assert_eq!(
        checked.conclusion,
        "certified: 19 is the optimum of model.toml"
    );
    eprintln!(
        "13 x 19: prove {proved:.1} s, check {checked_in:.1} s, folder {:.1} MB",
        bytes as f64 / 1e6
    );
}

// ---------------------------------------------------------------------------------------------
// The default route: VeriPB (a bound's one step, or the doll's proof), the table where the
// doll's proof does not take the instance

/// `prove MODEL -o tmp/name` with the default route; the manifest's files and `how`.
fn prove_default(tmp: &Path, model: &Path, name: &str) -> (PathBuf, Vec<String>, String) {
    let dir = tmp.join(name);
    let run = puzzlec(
        tmp,
        &[
            "prove",
            model.to_str().unwrap(),
            "-o",
            dir.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let files = manifest["files"]
        .as_object()
        .unwrap()
        .values()
        .map(|f| f["name"].as_str().unwrap().to_string())
        .collect();
    (dir, files, manifest["how"].as_str().unwrap().to_string())
}

#[test]
fn the_default_route_of_a_cross_box_is_the_proof_the_doll_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let model = write_model(tmp.path(), "c.toml", &cross_model(8, 8));
    let (dir, files, how) = prove_default(tmp.path(), &model, "cert");
    // One shard per core, or one proof on a single core; never a table step.
    assert!(
        files
            .iter()
            .any(|f| f == "proof.pbp" || f.starts_with("shard-")),
        "{files:?}"
    );
    assert!(!files.iter().any(|f| f.starts_with("step-")), "{files:?}");
    assert!(how.contains("VeriPB proof"), "{how}");
    assert_eq!(optimum_of(&dir), 4);
}

#[test]
fn binding_piece_maxima_keep_the_table_route_by_default_and_veripb_refuses_them() {
    let tmp = tempfile::tempdir().unwrap();
    let model = write_model(tmp.path(), "p.toml", PENTOMINOES_AT_MOST);
    let (dir, files, _) = prove_default(tmp.path(), &model, "cert");
    assert!(files.iter().any(|f| f == "table.txt"), "{files:?}");
    assert!(files.iter().any(|f| f.starts_with("step-")), "{files:?}");
    assert_eq!(optimum_of(&dir), 6);
    let out = tmp.path().join("v");
    let run = puzzlec(
        tmp.path(),
        &["prove", "p.toml", "--veripb", "-o", out.to_str().unwrap()],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "error: p.toml: the proof-writing doll does not take this instance: a piece has a \
         binding maximum (the proof has no piece counts)\n"
    );
}

/// The operands of the `pol` line of `dir`'s proof.pbp, without `pol` and `;`.
fn pol_operands(dir: &Path) -> Vec<String> {
    let proof = fs::read_to_string(dir.join("proof.pbp")).unwrap();
    let line = proof.lines().find(|l| l.starts_with("pol ")).unwrap();
    let body = line.trim_start_matches("pol ").trim_end_matches(" ;");
    body.split(' ').map(str::to_string).collect()
}

/// Writes `operands` back as the proof's `pol` line and rehashes the manifest.
fn set_pol(dir: &Path, operands: &[String]) {
    let proof = fs::read_to_string(dir.join("proof.pbp")).unwrap();
    let edited: Vec<String> = proof
        .lines()
        .map(|l| {
            if l.starts_with("pol ") {
                format!("pol {} ;", operands.join(" "))
            } else {
                l.to_string()
            }
        })
        .collect();
    fs::write(dir.join("proof.pbp"), edited.join("\n") + "\n").unwrap();
    rehash(dir, "proof.pbp");
}

/// Proves the shipped `model` by default, asserting the one-step certificate of a bound
/// (its `how` holding every one of `how`), the known `optimum` checked, and a weighted cell
/// dropped from the `pol` line refused by both checkers (puzzlec's naming the constraint
/// `weaker`, which no longer implies the bound).
fn certified_in_one_step(model: &str, optimum: i64, how: &[&str], weaker: u64) {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, files, said) = prove_default(tmp.path(), &models().join(model), "cert");
    assert_eq!(files, ["model.opb", "proof.pbp", "witness.txt"]);
    for part in how {
        assert!(said.contains(part), "{said}");
    }
    assert_eq!(optimum_of(&dir) as i64, optimum);
    let mut fewer = pol_operands(&dir);
    fewer.drain(1..3);
    set_pol(&dir, &fewer);
    assert_fails(
        &dir,
        &format!(
            "proof.pbp: puzzlec's PB checker: proof line 6: conclusion: constraint {weaker} \
             does not imply objective >= -{optimum}"
        ),
    );
    assert_veripb_refuses(
        &dir,
        &format!("s VERIFIED BOUNDS -{optimum} <= obj <= -{optimum}"),
    );
}

#[test]
fn a_tiling_meeting_the_area_bound_is_certified_in_one_cutting_planes_step() {
    certified_in_one_step(
        "t-tetromino-12x12.toml",
        36,
        &[
            "which meets the area bound (144 cells / 4 cells = 36)",
            "each cell's at-most-one, summed and divided by 4",
        ],
        145,
    );
}

#[test]
fn a_packing_meeting_the_lp_bound_is_certified_by_the_lps_dual() {
    certified_in_one_step(
        "skew-tetromino-15x15.toml",
        49,
        &[
            "which meets the LP relaxation bound 49",
            "the LP relaxation's dual as whole cell weights",
        ],
        226,
    );
}

#[test]
fn a_sat_packing_meeting_the_lp_bound_is_certified_by_a_dual_with_a_divisor() {
    // The greedy packing reaches 45 only; SAT finds 46, the LP bound (46.8): the dual's
    // weights are whole over the divisor 17.
    certified_in_one_step(
        "skew-tetromino-14x14.toml",
        46,
        &[
            "varisat found a packing of 46 pieces (\"at least 46\"), which meets the LP relaxation bound 46",
            "summed and divided by 17",
        ],
        197,
    );
}

/// `veripb` (when on PATH) does not verify `dir`'s proof.pbp with the line `verified`.
fn assert_veripb_refuses(dir: &Path, verified: &str) {
    if !common::programs_or_skip(module_path!(), &[("veripb", "veripb")]) {
        return;
    }
    let output = std::process::Command::new("veripb")
        .arg(dir.join("model.opb"))
        .arg(dir.join("proof.pbp"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        !output.status.success() && !stdout.lines().any(|l| l.trim() == verified),
        "{stdout}"
    );
}
