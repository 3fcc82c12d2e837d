//! puzzlec's pseudo-Boolean checker (`checkers::pb`) on real VeriPB 3.0 proofs: the ones
//! the reference Russian doll `../shared/refs/doll_veripb.py` (the project's shared folder,
//! beside the repository here and in CI) writes as it searches crosses in a box. Accepted with the
//! script's optimum, refused when tampered with, the refused step named; and where `veripb`
//! is installed, the same verdicts from it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use puzzlec::checkers::pb::{check_pb_files, PbConclusion, PbError};

use crate::common::programs_or_skip;

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/refs/doll_veripb.py")
}

/// A doll proof: the OPB and proof files and the optimum the script printed.
struct DollProof {
    opb: PathBuf,
    pbp: PathBuf,
    optimum: i64,
}

/// Runs the script for a `width` x `height` box into `dir`.
fn doll_proof(dir: &Path, width: usize, height: usize, hints: bool) -> DollProof {
    let stem = dir.join(format!(
        "doll-{width}x{height}{}",
        if hints { "-hints" } else { "" }
    ));
    let mut command = Command::new("python3");
    command
        .arg(script())
        .arg(width.to_string())
        .arg(height.to_string())
        .arg(&stem);
    if hints {
        command.arg("--hints");
    }
    let output = command.output().expect("python3 runs");
    assert!(output.status.success(), "{output:?}");
    let printed = String::from_utf8(output.stdout).unwrap();
    let optimum = printed
        .split("optimum ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no optimum in {printed:?}"));
    DollProof {
        opb: stem.with_extension("opb"),
        pbp: stem.with_extension("pbp"),
        optimum,
    }
}

/// Whether the reference script can run: python3 installed and the shared folder beside the
/// repository; otherwise the test says SKIPPED and why.
fn python_or_skip(test: &str) -> bool {
    if !script().is_file() {
        eprintln!(
            "SKIPPED {test}: the reference script {} is not there (the shared folder is not beside the repository)",
            script().display()
        );
        return false;
    }
    programs_or_skip(test, &[("python3", "python3")])
}

/// Whether `veripb` is on PATH; says so when it is not (it is a cargo crate, not a Debian
/// package: `.ci/run` installs it, and then requires it like the solver programs).
fn veripb_or_skip(test: &str) -> bool {
    let found = puzzlec::oracle::external::on_path("veripb");
    if !found {
        crate::common::report_missing(test, &["veripb (cargo install veripb --locked)".into()]);
    }
    found
}

/// `veripb`'s verdict on `opb` and `pbp`: accepted or not.
fn veripb_accepts(opb: &Path, pbp: &Path) -> bool {
    let output = Command::new("veripb").arg(opb).arg(pbp).output().unwrap();
    output.status.success()
}

#[test]
fn doll_proofs_are_accepted_with_the_optimum_the_script_prints() {
    let test = "doll_proofs_are_accepted_with_the_optimum_the_script_prints";
    if !python_or_skip(test) {
        return;
    }
    let veripb = veripb_or_skip(test);
    let dir = tempfile::tempdir().unwrap();
    for side in [6, 7, 8] {
        for hints in [false, true] {
            let proof = doll_proof(dir.path(), side, side, hints);
            let outcome = check_pb_files(&proof.opb, &proof.pbp)
                .unwrap_or_else(|e| panic!("{side} x {side} (hints {hints}): {e}"));
            // The objective is minus the number of pieces.
            assert_eq!(
                outcome.conclusion,
                PbConclusion::Bounds {
                    lower: Some(-proof.optimum),
                    upper: Some(-proof.optimum)
                },
                "{side} x {side}"
            );
            let stats = &outcome.stats;
            assert!(stats.pbc > 0 && stats.rup + stats.hinted_rup > 0);
            assert_eq!(stats.rup == 0, hints, "hinted proofs hint every rup");
            if veripb {
                assert!(
                    veripb_accepts(&proof.opb, &proof.pbp),
                    "veripb on {side} x {side}"
                );
            }
        }
    }
}

/// The proof text with one change made by `tamper`; panics when it changes nothing.
fn tampered(text: &str, tamper: impl Fn(&[&str]) -> Vec<String>) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let changed = tamper(&lines);
    assert_ne!(changed, lines, "the tampering changed nothing");
    changed.join("\n") + "\n"
}

/// The first line matching `pick`, changed by `change`.
fn change_first(
    lines: &[&str],
    pick: impl Fn(&str) -> bool,
    change: impl Fn(&str) -> Option<String>,
) -> Vec<String> {
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let at = lines
        .iter()
        .position(|l| pick(l) && change(l).is_some())
        .expect("a line to change");
    out[at] = change(lines[at]).unwrap();
    out
}

/// The one tampering that refutes only hinted proofs.
const REPLACED: &str = "a rup clause replaced by a copy of constraint 1 (IDs kept)";

/// A change to a proof's lines.
type Tamper = Box<dyn Fn(&[&str]) -> Vec<String>>;

/// Each tampering of a doll proof: its name and the change.
fn tamperings(optimum: i64) -> Vec<(&'static str, Tamper)> {
    vec![
        (
            "a rup line removed",
            Box::new(|lines: &[&str]| {
                // The first clause with a literal (not the empty clause closing an entry).
                let at = lines
                    .iter()
                    .position(|l| l.starts_with("rup 1 "))
                    .expect("a rup line");
                let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                out.remove(at);
                out
            }),
        ),
        (
            // Without hints the entry's last `rup` finds the clause again by propagation, and
            // both checkers accept; with hints, the hints name the copy instead.
            REPLACED,
            Box::new(|lines: &[&str]| {
                change_first(
                    lines,
                    |l| l.starts_with("rup 1 "),
                    |_| Some("pol 1 ;".into()),
                )
            }),
        ),
        (
            "a bound lowered in a pbc constraint",
            Box::new(move |lines: &[&str]| {
                // The last entry, "all pieces <= optimum", claims one piece fewer.
                let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                let at = lines.iter().rposition(|l| l.starts_with("pbc ")).unwrap();
                let from = format!(">= {} : subproof", -optimum);
                let to = format!(">= {} : subproof", -(optimum - 1));
                assert!(out[at].contains(&from), "{}", out[at]);
                out[at] = out[at].replace(&from, &to);
                out
            }),
        ),
        (
            "the conclusion changed",
            Box::new(move |lines: &[&str]| {
                change_first(
                    lines,
                    |l| l.starts_with("conclusion BOUNDS"),
                    |l| {
                        let mut words: Vec<String> = l.split(' ').map(String::from).collect();
                        // conclusion BOUNDS LB : ID UB ; -> one piece more claimed
                        words[2] = (-(optimum + 1)).to_string();
                        words[5] = (-(optimum + 1)).to_string();
                        Some(words.join(" "))
                    },
                )
            }),
        ),
        (
            "a pol id swapped",
            Box::new(|lines: &[&str]| {
                change_first(
                    lines,
                    |l| l.starts_with("pol ") && l.split(' ').count() >= 5,
                    |l| {
                        // pol NEG L + [AMO +] ; -> the second operand one ID earlier
                        let mut words: Vec<String> = l.split(' ').map(String::from).collect();
                        let id: u64 = words[2].parse().ok()?;
                        words[2] = (id - 1).to_string();
                        Some(words.join(" "))
                    },
                )
            }),
        ),
    ]
}

#[test]
fn tampered_doll_proofs_are_refused_with_the_step_named() {
    let test = "tampered_doll_proofs_are_refused_with_the_step_named";
    if !python_or_skip(test) {
        return;
    }
    let veripb = veripb_or_skip(test);
    let dir = tempfile::tempdir().unwrap();
    for hints in [false, true] {
        let proof = doll_proof(dir.path(), 8, 8, hints);
        let text = std::fs::read_to_string(&proof.pbp).unwrap();
        for (name, tamper) in tamperings(proof.optimum) {
            let bad = dir.path().join("tampered.pbp");
            std::fs::write(&bad, tampered(&text, tamper)).unwrap();
            if name == REPLACED && !hints {
                check_pb_files(&proof.opb, &bad).unwrap();
                if veripb {
                    assert!(veripb_accepts(&proof.opb, &bad), "veripb refuses {name}");
                }
                continue;
            }
            let error = check_pb_files(&proof.opb, &bad)
                .expect_err(&format!("{name} (hints {hints}) must be refused"));
            assert!(
                matches!(error, PbError::Step { line, rule, .. } if line > 1 && !rule.is_empty()),
                "{name}: {error}"
            );
            if name == "the conclusion changed" {
                assert_eq!(error.rule(), Some("conclusion"), "{error}");
            }
            eprintln!("{name} (hints {hints}): {error}");
            if veripb {
                assert!(!veripb_accepts(&proof.opb, &bad), "veripb accepts {name}");
            }
        }
    }
}

/// Times puzzlec's checker and `veripb` on the 10 x 10 and 11 x 11 doll proofs, with and
/// without hints: `cargo test --test integration pb_checker:: -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement of about a minute, not a check"]
fn timing_against_veripb() {
    let test = "timing_against_veripb";
    if !python_or_skip(test) {
        return;
    }
    let veripb = veripb_or_skip(test);
    let dir = tempfile::tempdir().unwrap();
    for side in [10, 11] {
        for hints in [true, false] {
            let proof = doll_proof(dir.path(), side, side, hints);
            let size = std::fs::metadata(&proof.pbp).unwrap().len();
            let outcome = check_pb_files(&proof.opb, &proof.pbp).unwrap();
            let mut line = format!(
                "{side} x {side} hints {hints}: {} steps, {:.1} MB, puzzlec {:.2} s",
                outcome.stats.steps,
                size as f64 / 1e6,
                outcome.stats.seconds
            );
            if veripb {
                let started = Instant::now();
                assert!(veripb_accepts(&proof.opb, &proof.pbp));
                line += &format!(", veripb {:.2} s", started.elapsed().as_secs_f64());
            }
            eprintln!("{line}");
        }
    }
}

/// At most one of x1, x2 and of x2, x3; the most chosen is two (x1 and x3).
const SMALL_OPB: &str = "* #variable= 3 #constraint= 2\n\
    min: -1 x1 -1 x2 -1 x3 ;\n\
    -1 x1 -1 x2 >= -1 ;\n\
    -1 x2 -1 x3 >= -1 ;\n";

/// A proof of SMALL_OPB's optimum that defines u1 <=> x1 + x2 + x3 >= 2 by `red` (IDs 3 and
/// 4, u1 named by the proof alone) and derives through u1 that three are too many.
const RED_PROOF: &str = "pseudo-Boolean proof version 3.0\n\
    f 2 ;\n\
    red 2 ~u1 1 x1 1 x2 1 x3 >= 2 : u1 -> 0 ;\n\
    red 2 u1 1 ~x1 1 ~x2 1 ~x3 >= 2 : u1 -> 1 ;\n\
    rup 1 ~u1 1 x1 >= 1 ;\n\
    pbc -1 x1 -1 x2 -1 x3 >= -2 : subproof\n\
    rup 1 u1 >= 1 ;\n\
    rup >= 1 ;\n\
    qed pbc ;\n\
    sol x1 ~x2 x3 ;\n\
    output NONE ;\n\
    conclusion BOUNDS -2 : 9 -2 ;\n\
    end pseudo-Boolean proof ;\n";

#[test]
fn red_definitions_are_accepted_and_wrong_witnesses_refused_by_both_checkers() {
    let test = "red_definitions_are_accepted_and_wrong_witnesses_refused_by_both_checkers";
    let veripb = veripb_or_skip(test);
    let dir = tempfile::tempdir().unwrap();
    let opb = dir.path().join("small.opb");
    let pbp = dir.path().join("red.pbp");
    std::fs::write(&opb, SMALL_OPB).unwrap();
    std::fs::write(&pbp, RED_PROOF).unwrap();
    let outcome = check_pb_files(&opb, &pbp).unwrap();
    assert_eq!(
        outcome.conclusion,
        PbConclusion::Bounds {
            lower: Some(-2),
            upper: Some(-2)
        }
    );
    assert_eq!((outcome.stats.red, outcome.stats.variables), (2, 4));
    if veripb {
        assert!(veripb_accepts(&opb, &pbp), "veripb refuses the red proof");
    }
    // Each definition with the other value for u1: its own image no longer holds.
    for (line, from, to) in [(3, "u1 -> 0", "u1 -> 1"), (4, "u1 -> 1", "u1 -> 0")] {
        let bad_text = tampered(RED_PROOF, |lines| {
            let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            out[line - 1] = out[line - 1].replace(from, to);
            out
        });
        let bad = dir.path().join("tampered.pbp");
        std::fs::write(&bad, bad_text).unwrap();
        let error = check_pb_files(&opb, &bad).expect_err("a wrong witness is refused");
        assert!(
            matches!(&error, PbError::Step { line: l, rule: "red", message }
                if *l == line && message.contains("the constraint under the witness")),
            "{error}"
        );
        if veripb {
            assert!(!veripb_accepts(&opb, &bad), "veripb accepts {from} -> {to}");
        }
    }
}
