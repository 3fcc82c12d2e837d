//! Certificates of decision problems: dissections and tilings that do not exist.
//!
//! A dissection that does not exist is refuted with the connectivity cuts it needs, each
//! recorded in `cuts.txt` with its reason and verified by `check` from the rules alone; one
//! impossible by counting is certified by its reason, which `check` recomputes. Each kind of
//! tampering fails with a message that says exactly what failed.

use crate::common;

use common::{assert_fails, check, edit, edit_unhashed, models, prove, puzzlec, rehash};
use puzzlec::base::digest::sha256_hex;
use puzzlec::cert::certificate::{refuted_dimacs, Claim};
use puzzlec::checkers::lrat::parse_dimacs;
use puzzlec::puzzle::load_model_file;
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

/// Six cells with no two congruent connected halves; varisat needs cuts to refute it.
const SIX_CELLS: &str = "kind = \"dissection\"\nparts = 2\nshape = \"\"\"\n###\n.##\n.#.\n\"\"\"\n";

/// Writes `text` as a model file in `tmp` and proves it; returns the certificate folder.
fn prove_text(tmp: &Path, text: &str) -> PathBuf {
    let model = tmp.join("model-in.toml");
    fs::write(&model, text).unwrap();
    prove(tmp, &model)
}

fn manifest(dir: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

/// Records `cuts.txt`'s current SHA-256 and size in the manifest, as a tamperer who knows
/// the format would: the rule checks must then catch the edit.
fn rehash_cuts(dir: &Path) {
    common::rehash(dir, "cuts.txt");
}

/// The lines of `cuts.txt`, and the 0-based index of its first `cut` line.
fn cut_lines(dir: &Path) -> (Vec<String>, usize) {
    let text = fs::read_to_string(dir.join("cuts.txt")).unwrap();
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let first = lines.iter().position(|l| l.starts_with("cut ")).unwrap();
    (lines, first)
}

/// Writes `lines` back as `cuts.txt` and records its hash.
fn write_cuts(dir: &Path, lines: &[String]) {
    fs::write(dir.join("cuts.txt"), lines.join("\n") + "\n").unwrap();
    rehash_cuts(dir);
}

#[test]
fn a_dissection_that_does_not_exist_is_certified_with_its_cuts() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = prove(tmp.path(), &models().join("halves-impossible.toml"));
    let value = manifest(&dir);
    assert_eq!(
        value["claim"],
        serde_json::json!({"answer": "unsatisfiable"})
    );
    let cuts = fs::read_to_string(dir.join("cuts.txt")).unwrap();
    let count = cuts.lines().filter(|l| l.starts_with("cut ")).count();
    assert!(count >= 1, "the refutation needed cuts:\n{cuts}");
    assert_eq!(value["encoding"]["cuts"], count);
    assert_eq!(
        value["files"]["cuts"]["sha256"],
        sha256_hex(cuts.as_bytes()),
        "the manifest hashes the cut file"
    );
    assert!(!dir.join("witness.txt").exists());

    let run = check(&dir);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    let clauses = value["encoding"]["clauses"].as_u64().unwrap();
    let variables = value["encoding"]["variables"].as_u64().unwrap();
    assert_eq!(
        lines[0],
        "ok: files: SHA-256 matches the manifest for each of 5 (cnf.dimacs, cuts.txt, \
         proof.drat, proof.lrat, proof.varisat), and the folder holds no other file"
    );
    assert_eq!(
        lines[1..4],
        [
            "ok: model.toml: SHA-256 matches the manifest (dissection puzzle, 60 model variables)"
                .to_string(),
            format!(
                "ok: cuts.txt: SHA-256 matches the manifest; {count} cuts, each verified from the \
                 dissection rules (connected parts)"
            ),
            format!(
                "ok: cnf.dimacs: identical to the CNF rebuilt from model.toml and cuts.txt (the \
                 constraints alone with {count} cuts; {variables} variables, {clauses} clauses)"
            ),
        ]
    );
    assert!(lines[4].starts_with("ok: proof.lrat: refutes cnf.dimacs (puzzlec's LRAT checker: "));
    assert!(lines[5].starts_with("ok: proof.drat: refutes cnf.dimacs (puzzlec's DRAT checker: "));
    assert_eq!(
        lines[6],
        "ok: proof.varisat: refutes cnf.dimacs (varisat's checker)"
    );
    assert_eq!(lines[7], "certified: model.toml has no solution");
    assert_eq!(lines.len(), 8);
}

#[test]
fn the_refuted_cnf_is_the_model_cnf_followed_by_the_cuts() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = prove_text(tmp.path(), SIX_CELLS);
    let model = load_model_file(&dir.join("model.toml")).unwrap().compile();
    let (base, _) = refuted_dimacs(&model, &Claim::Unsatisfiable, &[]).unwrap();
    let (_, base_clauses) = parse_dimacs(&base).unwrap();
    let (_, clauses) = parse_dimacs(&fs::read_to_string(dir.join("cnf.dimacs")).unwrap()).unwrap();
    assert_eq!(clauses[..base_clauses.len()], base_clauses[..]);
    let cut_clauses: Vec<Vec<i32>> = fs::read_to_string(dir.join("cuts.txt"))
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("clause "))
        .map(|l| {
            l.split_whitespace()
                .map(|w| w.parse().unwrap())
                .filter(|&l: &i32| l != 0)
                .collect()
        })
        .collect();
    assert!(!cut_clauses.is_empty());
    assert_eq!(clauses[base_clauses.len()..], cut_clauses[..]);
    assert_eq!(check(&dir).code, 0);
}

#[test]
fn tampering_a_cut_component_that_is_not_connected() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = prove_text(tmp.path(), SIX_CELLS);
    let (mut lines, first) = cut_lines(&dir);
    // (0,0) and (2,1) do not touch: no connected part can be confined to them.
    lines[first] = "cut 1 part 0 component 0,0 2,1".to_string();
    write_cuts(&dir, &lines);
    assert_fails(
        &dir,
        &format!(
            "cuts.txt: line {}: connected parts: the component is not connected: (2,1) is not \
             joined to (0,0) inside it",
            first + 1
        ),
    );
}

#[test]
fn tampering_a_cut_component_as_large_as_a_part() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = prove_text(tmp.path(), SIX_CELLS);
    let (mut lines, first) = cut_lines(&dir);
    // The top row is a whole part's worth of cells: a part may well stay inside it.
    lines[first] = "cut 1 part 0 component 0,0 1,0 2,0".to_string();
    write_cuts(&dir, &lines);
    assert_fails(
        &dir,
        &format!(
            "cuts.txt: line {}: connected parts: the component has 3 cells; it must have fewer \
             than a part's 3",
            first + 1
        ),
    );
}

#[test]
fn tampering_a_cut_clause_with_a_neighbour_left_out() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = prove_text(tmp.path(), SIX_CELLS);
    let (mut lines, first) = cut_lines(&dir);
    let clause = &lines[first + 1];
    let mut literals: Vec<&str> = clause.split_whitespace().collect();
    assert_eq!(literals.pop(), Some("0"));
    let dropped: usize = literals.pop().unwrap().parse().unwrap();
    assert!(literals.len() >= 2, "a literal is left for c: {clause}");
    // The dropped literal's name, from the CNF's `c var` lines.
    let cnf = fs::read_to_string(dir.join("cnf.dimacs")).unwrap();
    let name = cnf
        .lines()
        .find_map(|l| l.strip_prefix(&format!("c var {dropped} ")))
        .unwrap()
        .to_string();
    lines[first + 1] = format!("{} 0", literals.join(" "));
    write_cuts(&dir, &lines);
    assert_fails(
        &dir,
        &format!(
            "cuts.txt: line {}: connected parts: the clause lacks {name}, a neighbour of the \
             component",
            first + 1
        ),
    );
}

#[test]
fn tampering_a_dropped_cut_no_longer_matches_the_cnf() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = prove_text(tmp.path(), SIX_CELLS);
    let (mut lines, first) = cut_lines(&dir);
    let count = lines.iter().filter(|l| l.starts_with("cut ")).count();
    lines.drain(first..first + 2);
    write_cuts(&dir, &lines);
    assert_fails(
        &dir,
        &format!(
            "cnf.dimacs differs from the CNF rebuilt from model.toml and cuts.txt: line 4 is \
             \"c the last {count} clauses are the cuts of cuts.txt, in its order\", expected \
             \"c the last {} clauses are the cuts of cuts.txt, in its order\"",
            count - 1
        ),
    );
}

#[test]
fn tampering_every_cut_dropped_from_both_files_leaves_proofs_that_refute_nothing() {
    // Without the cuts the CNF has models (parts split in two), so no proof can refute it.
    let tmp = tempfile::tempdir().unwrap();
    let dir = prove_text(tmp.path(), SIX_CELLS);
    let (lines, first) = cut_lines(&dir);
    let count = lines.iter().filter(|l| l.starts_with("cut ")).count();
    write_cuts(&dir, &lines[..first]);
    let cnf = fs::read_to_string(dir.join("cnf.dimacs")).unwrap();
    let mut kept: Vec<&str> = cnf
        .lines()
        .filter(|l| !l.starts_with("c the last "))
        .collect();
    kept.truncate(kept.len() - count);
    let header = kept.iter().position(|l| l.starts_with("p cnf ")).unwrap();
    let fields: Vec<&str> = kept[header].split(' ').collect();
    let clauses: usize = fields[3].parse().unwrap();
    let new_header = format!("p cnf {} {}", fields[2], clauses - count);
    kept[header] = &new_header;
    fs::write(dir.join("cnf.dimacs"), kept.join("\n") + "\n").unwrap();
    rehash(&dir, "cnf.dimacs");
    let run = check(&dir);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stderr.starts_with(
            "error: certificate check failed: proof.lrat does not refute cnf.dimacs \
             (puzzlec's LRAT checker): "
        ),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1);
}

#[test]
fn tampering_the_cut_file_without_its_hash() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = prove_text(tmp.path(), SIX_CELLS);
    let original = sha256_hex(&fs::read(dir.join("cuts.txt")).unwrap());
    edit_unhashed(&dir, "cuts.txt", "\ncut 1 part ", "\ncut 1  part ");
    let edited = sha256_hex(&fs::read(dir.join("cuts.txt")).unwrap());
    assert_fails(
        &dir,
        &format!(
            "cuts.txt: SHA-256 {edited} differs from the manifest's {original} (the file was \
             changed)"
        ),
    );
}

#[test]
fn a_malformed_cut_file_names_the_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = prove_text(tmp.path(), SIX_CELLS);
    let (mut lines, first) = cut_lines(&dir);
    lines[first + 1] = lines[first + 1].trim_end_matches(" 0").to_string();
    write_cuts(&dir, &lines);
    assert_fails(
        &dir,
        &format!("cuts.txt: line {}: the clause is not ended by 0", first + 2),
    );
}

#[test]
fn a_cut_file_entry_without_a_hash_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = prove_text(tmp.path(), SIX_CELLS);
    let mut value = manifest(&dir);
    value["files"]["cuts"]
        .as_object_mut()
        .unwrap()
        .remove("sha256");
    fs::write(dir.join("manifest.json"), value.to_string()).unwrap();
    assert_fails(&dir, "manifest.json: the entry of cuts.txt has no sha256");
}

#[test]
fn a_dissection_impossible_by_counting_is_certified_by_its_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let five = "kind = \"dissection\"\nparts = 2\nshape = \"\"\"\n###\n#..\n#..\n\"\"\"\n";
    let dir = prove_text(tmp.path(), five);
    let reason = "no dissection: 5 cells cannot be split into 2 equal parts";
    let value = manifest(&dir);
    assert_eq!(
        value["claim"],
        serde_json::json!({"answer": "impossible", "reason": reason})
    );
    assert_eq!(value["files"], serde_json::json!({}), "nothing to refute");
    let run = check(&dir);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        format!(
            "ok: model.toml: SHA-256 matches the manifest (dissection puzzle)\n\
             ok: model.toml: {reason} (recomputed from the dissection rules)\n\
             certified: model.toml has no solution ({reason})\n"
        )
    );

    // A different reason in the manifest is caught.
    edit(&dir, "manifest.json", "5 cells", "7 cells");
    assert_fails(
        &dir,
        &format!(
            "model.toml: the dissection rules give the reason {reason:?}, not the manifest's \
             \"no dissection: 7 cells cannot be split into 2 equal parts\""
        ),
    );
}

#[test]
fn tampering_the_model_of_an_impossibility_so_that_it_has_a_dissection() {
    let tmp = tempfile::tempdir().unwrap();
    let five = "kind = \"dissection\"\nparts = 2\nshape = \"\"\"\n###\n#..\n#..\n\"\"\"\n";
    let dir = prove_text(tmp.path(), five);
    let original = sha256_hex(&fs::read(dir.join("model.toml")).unwrap());
    // A sixth cell: 6 cells split into halves of 3 (and this shape has such a dissection).
    edit(&dir, "model.toml", "#..\n#..\n", "#..\n##.\n");
    let edited = sha256_hex(&fs::read(dir.join("model.toml")).unwrap());
    edit(&dir, "manifest.json", &original, &edited);
    assert_fails(
        &dir,
        "model.toml: the manifest claims \"no dissection: 5 cells cannot be split into 2 equal \
         parts\", but the dissection rules find no such reason (nothing is refuted, so there is \
         no proof of impossibility)",
    );
}

#[test]
fn a_tiling_that_does_not_exist_is_certified() {
    // The five tetrominoes cover 20 cells, but not 4 x 5: colour it as a chessboard, and
    // the T covers 3 cells of one colour, every other piece 2 of each.
    let tmp = tempfile::tempdir().unwrap();
    let tetrominoes = r#####"kind = "packing"
width = 5
height = 4
goal = "tile"

[[piece]]
name = "I"
exactly = 1
shape = "####"

[[piece]]
name = "O"
exactly = 1
shape = """
##
##
"""

[[piece]]
name = "T"
exactly = 1
shape = """
###
.#.
"""

[[piece]]
name = "L"
exactly = 1
shape = """
###
#..
"""

[[piece]]
name = "S"
exactly = 1
shape = """
.##
##.
"""
"#####;
    let dir = prove_text(tmp.path(), tetrominoes);
    let value = manifest(&dir);
    assert_eq!(
        value["claim"],
        serde_json::json!({"answer": "unsatisfiable"})
    );
    assert_eq!(value["encoding"]["cuts"], 0, "no lazy constraints, no cuts");
    assert!(!dir.join("cuts.txt").exists());
    let run = check(&dir);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "ok: cnf.dimacs: identical to the CNF rebuilt from model.toml (the constraints alone; "
        ),
        "{}",
        run.stdout
    );
    assert!(run
        .stdout
        .ends_with("ok: proof.varisat: refutes cnf.dimacs (varisat's checker)\ncertified: model.toml has no solution\n"));
}

#[test]
fn a_dissection_that_exists_is_certified_by_its_witness() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = prove(tmp.path(), &models().join("halves-asahi-2005.toml"));
    assert_eq!(
        manifest(&dir)["claim"],
        serde_json::json!({"answer": "satisfiable"})
    );
    let run = check(&dir);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run
        .stdout
        .contains("ok: witness.txt: a solution, verified by the dissection rules\n"));
    assert!(run
        .stdout
        .ends_with("certified: model.toml has a solution\n"));

    // Cell (3,0)'s part variables are 1 and 2: move it to the other part. Parts are
    // numbered by first appearance, so that part is now A, with 14 cells.
    edit(&dir, "witness.txt", "v 1 -2 ", "v -1 2 ");
    assert_fails(
        &dir,
        "witness.txt: solution rejected by the puzzle's rules: part A has 14 cells, not 13",
    );
}

#[test]
fn prove_json_of_an_impossibility_carries_the_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("five.toml");
    fs::write(
        &model,
        "kind = \"dissection\"\nparts = 2\nshape = \"\"\"\n#####\n\"\"\"\n",
    )
    .unwrap();
    let run = puzzlec(tmp.path(), &["prove", "five.toml", "-o", "cert", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["claim"]["answer"], "impossible");
    assert_eq!(
        value["claim"]["reason"],
        "no dissection: 5 cells cannot be split into 2 equal parts"
    );
}
