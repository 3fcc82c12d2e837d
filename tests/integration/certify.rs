//! `puzzlec prove` and `puzzlec check` end to end: certificates of real answers pass, and each
//! kind of tampering fails with a message that says exactly what failed.

use crate::common;

use common::{assert_fails, check, edit, edit_unhashed, models, prove, puzzlec, rehash, Run};
use puzzlec::base::digest::sha256_hex;
use std::fs;
use std::path::{Path, PathBuf};

/// The contest board's certificate, written once per test into its own temporary folder.
fn contest_certificate() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = prove(tmp.path(), &models().join("obstacle-queens.toml"));
    (tmp, dir)
}

#[test]
fn the_contest_board_is_certified_optimal_at_20() {
    let (_tmp, dir) = contest_certificate();
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(
        manifest["claim"],
        serde_json::json!({"answer": "optimal", "value": 20})
    );
    assert_eq!(manifest["encoding"]["refuted"], "objective at least 21");
    assert_eq!(
        manifest["model"]["sha256"],
        sha256_hex(&fs::read(models().join("obstacle-queens.toml")).unwrap())
    );
    // Every file the manifest lists is there, with the size it says, under the 1 MB target.
    for (role, file) in manifest["files"].as_object().unwrap() {
        let bytes = fs::metadata(dir.join(file["name"].as_str().unwrap()))
            .unwrap()
            .len();
        assert_eq!(file["bytes"], bytes, "{role}");
        assert!(bytes < 1_000_000, "{role} is {bytes} bytes");
    }
    let drat = fs::read_to_string(dir.join("proof.drat")).unwrap();
    assert!(drat.ends_with("\n0\n"), "DRAT ends with the empty clause");

    let run = check(&dir);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 8, "{}", run.stdout);
    assert_eq!(
        lines[0],
        "ok: files: SHA-256 matches the manifest for each of 5 (cnf.dimacs, proof.drat, \
         proof.lrat, proof.varisat, witness.txt), and the folder holds no other file"
    );
    assert_eq!(
        lines[1],
        "ok: model.toml: SHA-256 matches the manifest (queens puzzle, 178 model variables)"
    );
    assert_eq!(
        lines[2],
        "ok: witness.txt: a solution of value 20, verified by the queens rules"
    );
    assert_eq!(
        lines[3],
        "ok: cnf.dimacs: identical to the CNF rebuilt from model.toml (objective at least 21; 300 variables, 2886 clauses)"
    );
    assert!(
        lines[4].starts_with("ok: proof.lrat: refutes cnf.dimacs (puzzlec's LRAT checker: "),
        "{}",
        lines[4]
    );
    assert!(
        lines[5].starts_with("ok: proof.drat: refutes cnf.dimacs (puzzlec's DRAT checker: ")
            && lines[5].ends_with(" in the core)"),
        "{}",
        lines[5]
    );
    assert_eq!(
        lines[6],
        "ok: proof.varisat: refutes cnf.dimacs (varisat's checker)"
    );
    assert_eq!(lines[7], "certified: 20 is the optimum of model.toml");
}

#[test]
fn a_certificate_moved_elsewhere_still_checks() {
    // The folder carries its own model copy, so it is checkable anywhere.
    let (tmp, dir) = contest_certificate();
    let moved = tmp.path().join("moved");
    fs::rename(&dir, &moved).unwrap();
    assert_eq!(check(&moved).code, 0);
}

#[test]
fn eight_queens_reaches_the_structural_bound_and_refutes_9_outright() {
    // 8 queens fill all 8 row groups, so "at least 9" is an empty clause in the CNF.
    let tmp = tempfile::tempdir().unwrap();
    let dir = prove(tmp.path(), &models().join("queens-8.toml"));
    let cnf = fs::read_to_string(dir.join("cnf.dimacs")).unwrap();
    assert!(cnf.ends_with("\n0\n"), "the last clause is empty");
    // Even so, both proofs end by deriving the empty clause, as drat-trim and lrat-check
    // require: DRAT with `0`, LRAT with one step whose hint is the CNF's empty clause.
    let (_, clauses) = cnf_of(&dir);
    assert_eq!(fs::read_to_string(dir.join("proof.drat")).unwrap(), "0\n");
    assert_eq!(
        fs::read_to_string(dir.join("proof.lrat")).unwrap(),
        format!("{} 0 {} 0\n", clauses.len() + 1, clauses.len())
    );
    let run = check(&dir);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run
        .stdout
        .ends_with("certified: 8 is the optimum of model.toml\n"));
}

#[test]
fn a_board_of_obstacles_only_is_certified_optimal_at_0() {
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("blocked.toml");
    fs::write(
        &model,
        "kind = \"queens\"\nboard = \"\"\"\n**\n**\n\"\"\"\n",
    )
    .unwrap();
    let dir = prove(tmp.path(), &model);
    let run = check(&dir);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run
        .stdout
        .ends_with("certified: 0 is the optimum of model.toml\n"));
}

#[test]
fn tampering_flipped_literal_in_the_lrat_proof() {
    let (_tmp, dir) = contest_certificate();
    let proof = fs::read_to_string(dir.join("proof.lrat")).unwrap();
    let first = proof.lines().next().unwrap();
    let fields: Vec<&str> = first.split(' ').collect();
    let (id, literal) = (fields[0], fields[1]);
    assert_ne!(literal, "0", "the first step adds a non-empty clause");
    let flipped = format!("{id} {} ", -literal.parse::<i64>().unwrap());
    edit(&dir, "proof.lrat", &format!("{id} {literal} "), &flipped);
    let run = check(&dir);
    assert_eq!(run.code, 1);
    let prefix = format!(
        "error: certificate check failed: proof.lrat does not refute cnf.dimacs \
         (puzzlec's LRAT checker): line 1: clause {id}: "
    );
    assert!(run.stderr.starts_with(&prefix), "{}", run.stderr);
    let reason = run.stderr[prefix.len()..].trim_end();
    assert!(
        reason.ends_with("is not unit under the assignment")
            || reason == "the hints end without a conflict",
        "{reason}"
    );
}

#[test]
fn tampering_truncated_varisat_proof() {
    let (_tmp, dir) = contest_certificate();
    let path = dir.join("proof.varisat");
    let bytes = fs::read(&path).unwrap();
    fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    rehash(&dir, "proof.varisat");
    let run = check(&dir);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.starts_with(
            "error: certificate check failed: proof.varisat does not refute cnf.dimacs \
             (varisat's checker): varisat's checker rejected the proof: "
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn tampering_dropped_cnf_clause() {
    let (_tmp, dir) = contest_certificate();
    // The first two clauses are the at-most-one pairs -1 -2 and -1 -3; drop the first.
    edit(
        &dir,
        "cnf.dimacs",
        "p cnf 300 2886\n-1 -2 0\n",
        "p cnf 300 2886\n",
    );
    assert_fails(
        &dir,
        "cnf.dimacs differs from the CNF rebuilt from model.toml: line 183 is \"-1 -3 0\", \
         expected \"-1 -2 0\"",
    );
}

#[test]
fn tampering_witness_with_a_queen_removed() {
    let (_tmp, dir) = contest_certificate();
    // Variable 2 is the queen on row 0, column 1.
    edit(&dir, "witness.txt", "v -1 2 ", "v -1 -2 ");
    assert_fails(
        &dir,
        "witness.txt: the solution has value 19, the manifest claims 20",
    );
}

#[test]
fn tampering_witness_with_an_attacking_queen_added() {
    let (_tmp, dir) = contest_certificate();
    edit(&dir, "witness.txt", "v -1 2 ", "v 1 2 ");
    assert_fails(
        &dir,
        "witness.txt: solution rejected by the puzzle's rules: queens at (0, 0) and (1, 0) \
         attack each other",
    );
}

#[test]
fn tampering_manifest_claiming_21() {
    let (_tmp, dir) = contest_certificate();
    edit(&dir, "manifest.json", "\"value\": 20", "\"value\": 21");
    assert_fails(
        &dir,
        "witness.txt: the solution has value 20, the manifest claims 21",
    );
}

#[test]
fn tampering_model_file() {
    let (_tmp, dir) = contest_certificate();
    let original = sha256_hex(&fs::read(dir.join("model.toml")).unwrap());
    // An obstacle fewer in the first row.
    edit(
        &dir,
        "model.toml",
        "----*******-----\n",
        "-----******-----\n",
    );
    let edited = sha256_hex(&fs::read(dir.join("model.toml")).unwrap());
    assert_fails(
        &dir,
        &format!(
            "model.toml: SHA-256 {edited} differs from the manifest's {original} \
             (the model file was changed)"
        ),
    );
}

#[test]
fn tampering_model_file_and_its_hash_is_caught_by_the_witness() {
    // Even with the manifest's hash updated, the witness no longer fits the edited model.
    let (_tmp, dir) = contest_certificate();
    let original = sha256_hex(&fs::read(dir.join("model.toml")).unwrap());
    edit(
        &dir,
        "model.toml",
        "----*******-----\n",
        "-----******-----\n",
    );
    let edited = sha256_hex(&fs::read(dir.join("model.toml")).unwrap());
    edit(&dir, "manifest.json", &original, &edited);
    let run = check(&dir);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .starts_with("error: certificate check failed: witness.txt: "),
        "{}",
        run.stderr
    );
}

#[test]
fn a_missing_file_is_named() {
    let (_tmp, dir) = contest_certificate();
    fs::remove_file(dir.join("proof.lrat")).unwrap();
    assert_fails(
        &dir,
        "proof.lrat: listed in the manifest but missing from the folder",
    );
    let (_tmp, dir) = contest_certificate();
    fs::remove_file(dir.join("model.toml")).unwrap();
    assert_fails(
        &dir,
        "model.toml: listed in the manifest but missing from the folder",
    );
}

#[test]
fn an_extra_file_is_named() {
    let (_tmp, dir) = contest_certificate();
    fs::write(dir.join("notes.txt"), "by the way\n").unwrap();
    assert_fails(
        &dir,
        "notes.txt: not listed in the manifest (a certificate folder holds only the files its \
         manifest lists)",
    );
}

#[test]
fn tampering_a_digit_of_the_drat_proof_is_caught_by_its_hash() {
    let (_tmp, dir) = contest_certificate();
    let original = sha256_hex(&fs::read(dir.join("proof.drat")).unwrap());
    let proof = fs::read_to_string(dir.join("proof.drat")).unwrap();
    let first = proof.lines().next().unwrap().to_string();
    // Flip the sign of the first literal of the first line.
    let flipped = match first.strip_prefix('-') {
        Some(rest) => rest.to_string(),
        None => format!("-{first}"),
    };
    edit_unhashed(&dir, "proof.drat", &first, &flipped);
    let edited = sha256_hex(&fs::read(dir.join("proof.drat")).unwrap());
    assert_fails(
        &dir,
        &format!(
            "proof.drat: SHA-256 {edited} differs from the manifest's {original} (the file was \
             changed)"
        ),
    );
}

#[test]
fn every_listed_file_is_hashed() {
    let (_tmp, dir) = contest_certificate();
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let files = manifest["files"].as_object().unwrap();
    let mut names: Vec<&str> = files
        .values()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "cnf.dimacs",
            "proof.drat",
            "proof.lrat",
            "proof.varisat",
            "witness.txt"
        ]
    );
    for file in files.values() {
        let name = file["name"].as_str().unwrap();
        assert_eq!(
            file["sha256"],
            sha256_hex(&fs::read(dir.join(name)).unwrap())
        );
    }
}

/// The CNF and a proof of the certificate in `dir`, read as the checkers read them.
fn cnf_of(dir: &Path) -> (usize, Vec<Vec<i32>>) {
    puzzlec::checkers::lrat::parse_dimacs(&fs::read_to_string(dir.join("cnf.dimacs")).unwrap())
        .unwrap()
}

#[test]
fn a_drat_proof_without_its_empty_clause_is_rejected() {
    let (_tmp, dir) = contest_certificate();
    let proof = fs::read_to_string(dir.join("proof.drat")).unwrap();
    let truncated = proof.strip_suffix("0\n").unwrap();
    fs::write(dir.join("proof.drat"), truncated).unwrap();
    rehash(&dir, "proof.drat");
    let (num_vars, clauses) = cnf_of(&dir);
    let error = puzzlec::checkers::drat::check_drat(
        num_vars,
        &clauses,
        truncated.as_bytes(),
        puzzlec::checkers::drat::ProofEncoding::Text,
    )
    .unwrap_err()
    .to_string();
    assert!(
        error.starts_with("the proof derives no empty clause: "),
        "{error}"
    );
    assert_fails(
        &dir,
        &format!("proof.drat does not refute cnf.dimacs (puzzlec's DRAT checker): {error}"),
    );
}

#[test]
fn an_lrat_proof_without_its_empty_clause_is_rejected() {
    let (_tmp, dir) = contest_certificate();
    let proof = fs::read_to_string(dir.join("proof.lrat")).unwrap();
    let last = proof.lines().last().unwrap();
    let fields: Vec<&str> = last.split(' ').collect();
    assert_eq!(
        fields[1], "0",
        "the last step adds the empty clause: {last}"
    );
    let truncated = &proof[..proof.len() - last.len() - 1];
    fs::write(dir.join("proof.lrat"), truncated).unwrap();
    rehash(&dir, "proof.lrat");
    assert_fails(
        &dir,
        "proof.lrat does not refute cnf.dimacs (puzzlec's LRAT checker): proof never derives \
         the empty clause",
    );
}

#[test]
fn check_of_a_folder_that_is_not_there_is_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("nothing");
    let run = check_in(tmp.path(), &missing);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!(
            "error: {}: not a certificate folder (no such directory)\n",
            missing.display()
        )
    );
}

fn check_in(cwd: &Path, dir: &Path) -> Run {
    puzzlec(cwd, &["check", dir.to_str().unwrap()])
}

#[test]
fn prove_with_a_bad_model_or_output_is_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    let run = puzzlec(tmp.path(), &["prove", "nope.toml", "-o", "cert"]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr, "error: nope.toml: cannot read: no such file\n");

    // The output folder's place is taken by a file.
    let blocker = tmp.path().join("file");
    fs::write(&blocker, "").unwrap();
    let model = models().join("queens-8.toml");
    let run = puzzlec(
        tmp.path(),
        &["prove", model.to_str().unwrap(), "-o", "file"],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.starts_with("error: cannot write file: "),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1);
}

#[test]
fn prove_draws_the_certified_witness() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cert");
    let svg = tmp.path().join("witness.svg");
    let model = models().join("obstacle-queens.toml");
    let run = puzzlec(
        tmp.path(),
        &[
            "prove",
            model.to_str().unwrap(),
            "-o",
            dir.to_str().unwrap(),
            "--svg",
            svg.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let picture = fs::read_to_string(&svg).unwrap();
    assert_eq!(picture.matches("class=\"queen").count(), 20);
}

#[test]
fn a_packing_at_its_structural_bound_gets_proofs_that_end_with_the_empty_clause() {
    // Four 2 x 2 squares fill a 4 x 4 board: "at least 5" is an empty clause in the CNF.
    // (`exactly = 4`: a piece minimum keeps the single refutation rather than the
    // Russian-doll table, see tests/integration/packing_certificates.rs.)
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("squares.toml");
    fs::write(
        &model,
        "kind = \"packing\"\nwidth = 4\nheight = 4\ngoal = \"maximise\"\n\n[[piece]]\n\
         name = \"O\"\nexactly = 4\nshape = \"\"\"\n##\n##\n\"\"\"\n",
    )
    .unwrap();
    let dir = prove(tmp.path(), &model);
    let (_, clauses) = cnf_of(&dir);
    assert_eq!(
        clauses.last(),
        Some(&Vec::new()),
        "the last clause is empty"
    );
    assert_eq!(fs::read_to_string(dir.join("proof.drat")).unwrap(), "0\n");
    assert_eq!(
        fs::read_to_string(dir.join("proof.lrat")).unwrap(),
        format!("{} 0 {} 0\n", clauses.len() + 1, clauses.len())
    );
    let run = check(&dir);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains(
        "ok: proof.drat: refutes cnf.dimacs (puzzlec's DRAT checker: 1 lemmas, 0 in the core)\n"
    ));
    // Without its `0`, the DRAT proof derives no empty clause, trivial or not.
    fs::write(dir.join("proof.drat"), "").unwrap();
    rehash(&dir, "proof.drat");
    assert_fails(
        &dir,
        "proof.drat does not refute cnf.dimacs (puzzlec's DRAT checker): the proof derives no \
         empty clause: unit propagation refutes the formula itself, but no explicit empty \
         clause (a line `0`) follows",
    );
}

#[test]
fn prove_stops_at_its_time_limit_without_a_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cert");
    let model = common::models().join("cross-13x19.toml");
    let start = std::time::Instant::now();
    let run = common::puzzlec(
        dir.path(),
        &[
            "prove",
            model.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--time-limit",
            "0.5",
        ],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "stopped (time limit reached): no certificate was written\n"
    );
    assert!(!out.join("manifest.json").exists());
    assert!(start.elapsed().as_secs_f64() < 10.0);
}
