//! Certificates judged without puzzlec: `check --write-cnf` writes every CNF it rebuilt and
//! verified, named to pair with its proof, and drat-trim / lrat-check (when on PATH, or named
//! by `PUZZLEC_DRAT_TRIM` / `PUZZLEC_LRAT_CHECK`) accept every proof against them. They are
//! not packaged by Debian, so their absence is a SKIPPED line, never a failure. And the
//! manifest held whole: every field checked against the folder or informational.

use crate::common;
use common::{assert_fails, check, edit_unhashed, models, prove, prove_with, puzzlec};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// An outside checker: `$VARIABLE`, or `program` on PATH; `None` (after saying SKIPPED) when
/// neither is there.
fn outside_checker(variable: &str, program: &str) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(variable) {
        return Some(PathBuf::from(path));
    }
    if puzzlec::oracle::external::on_path(program) {
        return Some(PathBuf::from(program));
    }
    // Straight to stderr: the harness captures `eprintln!`, and a skip nobody sees is a
    // silent pass.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED in {}: not installed: {program} (not packaged; build it from drat-trim's public sources, or set {variable})",
        module_path!()
    );
    None
}

/// Whether `checker CNF PROOF` says the proof is verified.
fn verified(checker: &Path, cnf: &Path, proof: &Path) -> bool {
    let output = Command::new(checker).arg(cnf).arg(proof).output().unwrap();
    String::from_utf8_lossy(&output.stdout).contains("s VERIFIED")
        || String::from_utf8_lossy(&output.stdout).contains("c VERIFIED")
}

/// `check DIR --write-cnf OUT`, which must pass; OUT's file names, sorted.
fn write_cnf(dir: &Path, out: &Path) -> Vec<String> {
    let run = puzzlec(
        dir,
        &[
            "check",
            dir.to_str().unwrap(),
            "--write-cnf",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr
            .contains(&format!("the verified CNFs are in {}\n", out.display())),
        "{}",
        run.stderr
    );
    let mut names: Vec<String> = fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn the_written_cnfs_are_the_folders_and_outside_checkers_accept_the_proofs() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = prove(tmp.path(), &models().join("obstacle-queens.toml"));
    let out = tmp.path().join("cnf");
    assert_eq!(write_cnf(&dir, &out), ["cnf.dimacs"]);
    assert_eq!(
        fs::read(out.join("cnf.dimacs")).unwrap(),
        fs::read(dir.join("cnf.dimacs")).unwrap()
    );
    if let Some(drat_trim) = outside_checker("PUZZLEC_DRAT_TRIM", "drat-trim") {
        assert!(verified(
            &drat_trim,
            &out.join("cnf.dimacs"),
            &dir.join("proof.drat")
        ));
    }
    if let Some(lrat_check) = outside_checker("PUZZLEC_LRAT_CHECK", "lrat-check") {
        assert!(verified(
            &lrat_check,
            &out.join("cnf.dimacs"),
            &dir.join("proof.lrat")
        ));
    }
}

#[test]
fn a_count_certificate_writes_both_of_its_cnfs() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("count");
    let run = puzzlec(
        tmp.path(),
        &[
            "prove",
            models().join("queens-8.toml").to_str().unwrap(),
            "--count",
            "-o",
            dir.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = tmp.path().join("cnf");
    assert_eq!(write_cnf(&dir, &out), ["cnf.dimacs", "count.dimacs"]);
    if let Some(drat_trim) = outside_checker("PUZZLEC_DRAT_TRIM", "drat-trim") {
        assert!(verified(
            &drat_trim,
            &out.join("count.dimacs"),
            &dir.join("count.drat")
        ));
    }
}

#[test]
fn a_tiling_counts_search_proof_is_accepted_by_lrat_check() {
    // L-trominoes tiling 3 x 6: the refutation is the exact-cover search's LRAT proof.
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("l.toml");
    fs::write(&model, common::L_TROMINOES).unwrap();
    let dir = tmp.path().join("count");
    let run = puzzlec(
        tmp.path(),
        &[
            "prove",
            model.to_str().unwrap(),
            "--count",
            "-o",
            dir.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!dir.join("count.drat").exists());
    let out = tmp.path().join("cnf");
    assert_eq!(write_cnf(&dir, &out), ["count.dimacs"]);
    if let Some(lrat_check) = outside_checker("PUZZLEC_LRAT_CHECK", "lrat-check") {
        assert!(verified(
            &lrat_check,
            &out.join("count.dimacs"),
            &dir.join("count.lrat")
        ));
    }
}

#[test]
fn the_pentomino_tilings_of_3x20_have_a_proof_lrat_check_accepts() {
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("p.toml");
    let text = fs::read_to_string(models().join("pentomino-6x10.toml")).unwrap();
    fs::write(
        &model,
        text.replace("width = 10\nheight = 6\n", "width = 20\nheight = 3\n"),
    )
    .unwrap();
    let dir = tmp.path().join("count");
    let run = puzzlec(
        tmp.path(),
        &[
            "prove",
            model.to_str().unwrap(),
            "--count",
            "-o",
            dir.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = tmp.path().join("cnf");
    assert_eq!(write_cnf(&dir, &out), ["count.dimacs"]);
    if let Some(lrat_check) = outside_checker("PUZZLEC_LRAT_CHECK", "lrat-check") {
        assert!(verified(
            &lrat_check,
            &out.join("count.dimacs"),
            &dir.join("count.lrat")
        ));
    }
}

#[test]
fn a_table_certificate_writes_one_cnf_per_step_for_its_compressed_proofs() {
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("c7.toml");
    let text = fs::read_to_string(models().join("cross-13x19.toml")).unwrap();
    let text = text
        .replace("width = 13", "width = 7")
        .replace("height = 19", "height = 7");
    fs::write(&model, text).unwrap();
    let dir = prove_with(tmp.path(), &model, &["--table"]);
    let out = tmp.path().join("cnf");
    let names = write_cnf(&dir, &out);
    assert_eq!(names.len(), 49, "{names:?}");
    assert_eq!(names[0], "step-000.cnf");
    let Some(drat_trim) = outside_checker("PUZZLEC_DRAT_TRIM", "drat-trim") else {
        return;
    };
    for name in names {
        let step = name.trim_end_matches(".cnf");
        let proof = if dir.join(format!("{step}.drat.gz")).is_file() {
            let mut decoder = flate2::read::GzDecoder::new(
                fs::File::open(dir.join(format!("{step}.drat.gz"))).unwrap(),
            );
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut decoder, &mut bytes).unwrap();
            let path = tmp.path().join(format!("{step}.drat"));
            fs::write(&path, bytes).unwrap();
            path
        } else {
            continue; // an LRAT step proof: lrat-check's business, above
        };
        assert!(verified(&drat_trim, &out.join(&name), &proof), "{step}");
    }
}

#[test]
fn a_misstated_size_encoding_kind_or_unknown_field_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = prove(tmp.path(), &models().join("obstacle-queens.toml"));
    let manifest = fs::read_to_string(dir.join("manifest.json")).unwrap();
    let restore = || fs::write(dir.join("manifest.json"), &manifest).unwrap();

    edit_unhashed(
        &dir,
        "manifest.json",
        "\"bytes\": 35916",
        "\"bytes\": 35116",
    );
    assert_fails(
        &dir,
        "cnf.dimacs: 35916 bytes, but the manifest says 35116 (its SHA-256 matches: the manifest misstates the size)",
    );
    restore();
    edit_unhashed(
        &dir,
        "manifest.json",
        "\"clauses\": 2886",
        "\"clauses\": 2885",
    );
    assert_fails(
        &dir,
        "manifest.json: the encoding entry {\"at_most_one\":\"auto\",\"objective\":\"totalizer over 22 at-most-one group indicators (of 178 objective literals)\",\"refuted\":\"objective at least 21\",\"variables\":300,\"clauses\":2885,\"cuts\":0} does not describe the rebuilt CNF, which is {\"at_most_one\":\"auto\",\"objective\":\"totalizer over 22 at-most-one group indicators (of 178 objective literals)\",\"refuted\":\"objective at least 21\",\"variables\":300,\"clauses\":2886,\"cuts\":0}",
    );
    restore();
    edit_unhashed(
        &dir,
        "manifest.json",
        "\"kind\": \"queens\"",
        "\"kind\": \"packing\"",
    );
    assert_fails(
        &dir,
        "manifest.json: the model's kind is \"packing\", but model.toml is a queens puzzle",
    );
    restore();
    edit_unhashed(
        &dir,
        "manifest.json",
        "\"how\":",
        "\"note\": \"x\",\n  \"how\":",
    );
    let run = check(&dir);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stderr
            .starts_with("error: certificate check failed: manifest.json: unknown field `note`"),
        "{}",
        run.stderr
    );
    restore();
    assert_eq!(check(&dir).code, 0);
}

#[test]
fn a_chess_minimum_and_its_count_are_certified_and_judged_outside() {
    // Queens dominating 6 x 6: 3 is the fewest ("at least 34 of 36 squares left empty"
    // refuted), and the count refutes every fourth placement beyond the listed ones.
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("queens-dominate-6.toml");
    fs::write(
        &model,
        "kind = \"chess\"\npiece = \"queen\"\ngoal = \"dominate\"\nsize = 6\n",
    )
    .unwrap();
    let dir = prove(tmp.path(), &model);
    let run = check(&dir);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.ends_with(
            "certified: 3 pieces (33 of 36 free squares left empty) is the optimum of model.toml\n"
        ),
        "{}",
        run.stdout
    );
    let count = prove_with(tmp.path(), &model, &["--count", "--unique"]);
    let run = check(&count);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.ends_with(
            "certified: model.toml has exactly 4 solutions of value 3 pieces (33 of 36 free \
             squares left empty) (the optimum); 1 class: 1 of size 4\n"
        ),
        "{}",
        run.stdout
    );
    let out = tmp.path().join("cnf");
    assert_eq!(write_cnf(&count, &out), ["cnf.dimacs", "count.dimacs"]);
    if let Some(drat_trim) = outside_checker("PUZZLEC_DRAT_TRIM", "drat-trim") {
        for (cnf, proof) in [("cnf.dimacs", "proof.drat"), ("count.dimacs", "count.drat")] {
            assert!(
                verified(&drat_trim, &out.join(cnf), &count.join(proof)),
                "{proof}"
            );
        }
    }
    if let Some(lrat_check) = outside_checker("PUZZLEC_LRAT_CHECK", "lrat-check") {
        for (cnf, proof) in [("cnf.dimacs", "proof.lrat"), ("count.dimacs", "count.lrat")] {
            assert!(
                verified(&lrat_check, &out.join(cnf), &count.join(proof)),
                "{proof}"
            );
        }
    }
}
