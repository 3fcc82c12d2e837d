//! The Russian doll's own VeriPB proofs (`engines::russian_doll::write_proof`): accepted by
//! puzzlec's PB checker and by `veripb` with the known optima, and refused by both when a
//! line is removed, a table entry's bound is lowered or the conclusion is changed.

use std::path::{Path, PathBuf};
use std::process::Command;

use puzzlec::checkers::pb::{check_pb_files, PbConclusion};
use puzzlec::engines::russian_doll::{packing_opb, write_proof};
use puzzlec::formats::lines::LineWriter;
use puzzlec::formats::veripb::write_opb;
use puzzlec::puzzle::{load_model_file, Puzzle};

/// The crosses of the shipped 13 x 19 model in a `width x height` box.
fn crosses(dir: &Path, width: usize, height: usize) -> PathBuf {
    let model = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("models/cross-13x19.toml"),
    )
    .unwrap()
    .replace("width = 13", &format!("width = {width}"))
    .replace("height = 19", &format!("height = {height}"));
    let path = dir.join(format!("cross-{width}x{height}.toml"));
    std::fs::write(&path, model).unwrap();
    path
}

/// Writes the OPB file and the doll's proof for the crosses in `width x height`; the
/// optimum found.
fn prove(dir: &Path, width: usize, height: usize) -> (PathBuf, PathBuf, usize) {
    let Puzzle::Packing(packing) = load_model_file(&crosses(dir, width, height)).unwrap() else {
        panic!("a packing model")
    };
    let stem = dir.join(format!("{width}x{height}"));
    let (opb_path, pbp_path) = (stem.with_extension("opb"), stem.with_extension("pbp"));
    let stop = || false;
    let (opb, _) = packing_opb(&packing.instance);
    let mut bytes = Vec::new();
    let mut out = LineWriter::new(&mut bytes, &stop);
    write_opb(&opb, &mut out).unwrap();
    out.finish().unwrap();
    std::fs::write(&opb_path, bytes).unwrap();
    let mut proof = Vec::new();
    let outcome = write_proof(&packing.instance, &mut proof, &stop).unwrap();
    std::fs::write(&pbp_path, proof).unwrap();
    // The packing is checked by the puzzle's own rules.
    assert_eq!(
        packing.instance.check_packing(&outcome.best),
        Ok(outcome.optimum)
    );
    (opb_path, pbp_path, outcome.optimum)
}

fn veripb_or_skip(test: &str) -> bool {
    let found = puzzlec::oracle::external::on_path("veripb");
    if !found {
        crate::common::report_missing(test, &["veripb (cargo install veripb --locked)".into()]);
    }
    found
}

/// `veripb`'s verdict: its `s ...` line when it accepted, `None` when it refused.
fn veripb_verdict(opb: &Path, pbp: &Path) -> Option<String> {
    let output = Command::new("veripb").arg(opb).arg(pbp).output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout).to_string();
    output.status.success().then(|| {
        text.lines()
            .find(|l| l.starts_with("s "))
            .unwrap_or("")
            .to_string()
    })
}

#[test]
fn the_dolls_proofs_give_the_known_optima_to_both_checkers() {
    let test = "the_dolls_proofs_give_the_known_optima_to_both_checkers";
    let veripb = veripb_or_skip(test);
    let dir = tempfile::tempdir().unwrap();
    // The optima of docs/packing-optima.md.
    for (width, height, optimum) in [(6, 6, 2), (7, 7, 2), (8, 8, 4), (9, 9, 5), (10, 14, 10)] {
        let (opb, pbp, found) = prove(dir.path(), width, height);
        assert_eq!(found, optimum, "{width} x {height}");
        let outcome =
            check_pb_files(&opb, &pbp).unwrap_or_else(|e| panic!("{width} x {height}: {e}"));
        let value = -(optimum as i64);
        assert_eq!(
            outcome.conclusion,
            PbConclusion::Bounds {
                lower: Some(value),
                upper: Some(value)
            },
            "{width} x {height}"
        );
        assert!(outcome.stats.red > 0 && outcome.stats.hinted_rup > 0);
        assert_eq!(outcome.stats.rup, 0, "every rup names its hints");
        if veripb {
            assert_eq!(
                veripb_verdict(&opb, &pbp).as_deref(),
                Some(format!("s VERIFIED BOUNDS {value} <= obj <= {value}").as_str()),
                "veripb on {width} x {height}"
            );
        }
    }
}

#[test]
fn tampered_doll_proofs_are_refused_by_both_checkers() {
    let test = "tampered_doll_proofs_are_refused_by_both_checkers";
    let veripb = veripb_or_skip(test);
    let dir = tempfile::tempdir().unwrap();
    let (opb, pbp, optimum) = prove(dir.path(), 8, 8);
    let text = std::fs::read_to_string(&pbp).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let rebuilt = |lines: Vec<String>| lines.join("\n") + "\n";
    let owned = || lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    // A node's clause removed: every later ID shifts, and the hints no longer lead to a
    // conflict.
    let mut removed = owned();
    let at = removed
        .iter()
        .position(|l| l.starts_with("rup") && l.contains("~u"))
        .unwrap();
    removed.remove(at);
    // The last table entry's bound one lower: "at most optimum - 1" is not implied.
    let mut lowered = owned();
    let last_entry = lowered
        .iter()
        .rposition(|l| l.starts_with("rup 1 ~u0_"))
        .expect("entry 0's unit");
    lowered[last_entry] = format!("rup 1 ~u0_{optimum} >= 1 ;");
    // The conclusion claims one piece fewer at most ("objective at least -(optimum - 1)").
    let mut claimed = owned();
    let conclusion = claimed
        .iter()
        .position(|l| l.starts_with("conclusion"))
        .unwrap();
    let value = -(optimum as i64);
    claimed[conclusion] = claimed[conclusion].replacen(
        &format!("BOUNDS {value} :"),
        &format!("BOUNDS {} :", value + 1),
        1,
    );
    for (what, lines) in [
        ("removed", removed),
        ("lowered", lowered),
        ("claimed", claimed),
    ] {
        let path = dir.path().join(format!("{what}.pbp"));
        std::fs::write(&path, rebuilt(lines)).unwrap();
        let refused = check_pb_files(&opb, &path);
        assert!(
            refused.is_err(),
            "puzzlec's checker accepted the {what} proof"
        );
        if veripb {
            assert_eq!(
                veripb_verdict(&opb, &path),
                None,
                "veripb accepted the {what} proof"
            );
        }
    }
}

/// `prove --veripb` of the crosses in 8 x 8 into a fresh folder; the folder.
fn certificate(dir: &Path) -> PathBuf {
    let model = crosses(dir, 8, 8);
    let folder = dir.join("cert");
    let run = crate::common::puzzlec(
        dir,
        &[
            "prove",
            model.to_str().unwrap(),
            "--veripb",
            "-o",
            folder.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("optimal 4: certificate in"),
        "{}",
        run.stdout
    );
    folder
}

#[test]
fn prove_veripb_writes_a_folder_that_check_verifies_with_both_checkers() {
    let test = "prove_veripb_writes_a_folder_that_check_verifies_with_both_checkers";
    let veripb = veripb_or_skip(test);
    let dir = tempfile::tempdir().unwrap();
    let folder = certificate(dir.path());
    let checked = puzzlec::check(&folder).unwrap();
    assert_eq!(
        checked.conclusion,
        "certified: 4 is the optimum of model.toml"
    );
    let said = checked.steps.join("\n");
    assert!(
        said.contains(
            "model.opb: the packing model of model.toml, rebuilt and compared byte for byte"
        ),
        "{said}"
    );
    assert!(said.contains("puzzlec's PB checker accepts"), "{said}");
    if veripb {
        assert!(
            said.contains("veripb says \"s VERIFIED BOUNDS -4 <= obj <= -4\""),
            "{said}"
        );
    }
}

#[test]
fn a_tampered_veripb_certificate_is_refused_with_the_file_and_checker_named() {
    let dir = tempfile::tempdir().unwrap();
    let folder = certificate(dir.path());
    let refusal = |folder: &Path| puzzlec::check(folder).unwrap_err().to_string();
    // The proof changed, the manifest not: the hash.
    let backup = std::fs::read(folder.join("proof.pbp")).unwrap();
    crate::common::edit_unhashed(&folder, "proof.pbp", "rup ", "rup 1 x1 ");
    assert!(
        refusal(&folder).starts_with("proof.pbp: SHA-256"),
        "{}",
        refusal(&folder)
    );
    // A node's clause removed, the manifest updated as a knowing tamperer would: the PB
    // checker refuses it, naming the line.
    let text = String::from_utf8(backup).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("rup") && l.contains("~u"))
        .unwrap();
    lines.remove(at);
    std::fs::write(folder.join("proof.pbp"), lines.join("\n") + "\n").unwrap();
    crate::common::rehash(&folder, "proof.pbp");
    let said = refusal(&folder);
    assert!(
        said.starts_with("proof.pbp: puzzlec's PB checker: "),
        "{said}"
    );
    assert!(said.contains("line"), "{said}");
    // The OPB file loosened (a cell's at-most-one dropped) and rehashed: it is no longer
    // the model's.
    let opb = std::fs::read_to_string(folder.join("model.opb")).unwrap();
    let loosened: Vec<&str> = opb.lines().filter(|l| !l.ends_with(">= -1 ;")).collect();
    std::fs::write(folder.join("model.opb"), loosened.join("\n") + "\n").unwrap();
    crate::common::rehash(&folder, "model.opb");
    assert_eq!(
        refusal(&folder),
        "model.opb: not the OPB file of model.toml (rebuilt from the model, it differs)"
    );
}
