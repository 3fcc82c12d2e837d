//! A model-file fuzzer: generated and mutated model files of every family go through
//! `solve`, `emit`, `explain` and `prove`. Whatever the file says, the binary must not
//! panic, must exit with a documented code (never 1, the internal-error code, for a model
//! file), must answer bad input with exactly one line `error: FILE...` naming the file, and
//! must stay within its time limit.
//!
//! Mutations start from small valid models and edit characters and lines; numbers are kept
//! small (a case whose numbers exceed [`MAX_NUMBER`] is replaced by its unmutated seed), so
//! a case never asks for a huge model. `PUZZLEC_FUZZ_CASES` sets the number of cases
//! (default 1500; each runs three or four commands).

use crate::common;

use common::puzzlec;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::path::Path;
use std::time::{Duration, Instant};

/// Exit codes a model file may lead to: done, bad input, not proven, yes, no.
const DOCUMENTED: [i32; 5] = [0, 2, 3, 10, 20];

/// The largest number a mutated model may contain.
const MAX_NUMBER: u64 = 9;

/// Small valid models of every family, the seeds of the mutations.
const SEEDS: [&str; 7] = [
    "kind = \"queens\"\nsize = 5\n",
    "kind = \"queens\"\nboard = \"\"\"\n--*-\n----\n-*--\n----\n\"\"\"\n",
    "kind = \"dissection\"\nparts = 2\nreflect = true\nshape = \"\"\"\n###\n###\n\"\"\"\n",
    "kind = \"dissection\"\nparts = 2\nreflect = false\nshape = \"\"\"\n.##\n###\n#..\n\"\"\"\n",
    "kind = \"packing\"\nwidth = 4\nheight = 3\ngoal = \"maximise\"\n\n[[piece]]\nname = \"L\"\nshape = \"\"\"\n#.\n##\n\"\"\"\n",
    "kind = \"packing\"\nwidth = 4\nheight = 2\ngoal = \"tile\"\n\n[[piece]]\nname = \"D\"\nexactly = 4\nshape = \"\"\"\n##\n\"\"\"\n",
    "kind = \"packing\"\nregion = \"\"\"\n###.\n####\n\"\"\"\ngoal = \"maximise\"\n\n[[piece]]\nname = \"T\"\nat_most = 2\nrotate = true\nreflect = false\nshape = \"\"\"\n###\n.#.\n\"\"\"\n",
];

/// Characters a mutation may insert: the model syntax's own, so that edits stay close to
/// what a person would mistype.
const ALPHABET: &[u8] = b"#.-*\n\"= []_abekqz019x";

/// One edit of a model's text.
#[derive(Clone, Debug)]
enum Edit {
    Delete(usize),
    Insert(usize, u8),
    Replace(usize, u8),
    DuplicateLine(usize),
    DropLine(usize),
    Truncate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let position = 0usize..400;
    let byte = prop::sample::select(ALPHABET);
    prop_oneof![
        position.clone().prop_map(Edit::Delete),
        (position.clone(), byte.clone()).prop_map(|(p, b)| Edit::Insert(p, b)),
        (position.clone(), byte).prop_map(|(p, b)| Edit::Replace(p, b)),
        (0usize..20).prop_map(Edit::DuplicateLine),
        (0usize..20).prop_map(Edit::DropLine),
        position.prop_map(Edit::Truncate),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for edit in edits {
        let at = |p: usize, len: usize| if len == 0 { 0 } else { p % len };
        match *edit {
            Edit::Delete(p) if !bytes.is_empty() => {
                bytes.remove(at(p, bytes.len()));
            }
            Edit::Insert(p, b) => bytes.insert(at(p, bytes.len() + 1), b),
            Edit::Replace(p, b) if !bytes.is_empty() => {
                let i = at(p, bytes.len());
                bytes[i] = b;
            }
            Edit::DuplicateLine(l) | Edit::DropLine(l) => {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let mut lines: Vec<&str> = text.split('\n').collect();
                let i = at(l, lines.len());
                if matches!(edit, Edit::DuplicateLine(_)) {
                    lines.insert(i, lines[i]);
                } else {
                    lines.remove(i);
                }
                bytes = lines.join("\n").into_bytes();
            }
            Edit::Truncate(p) => bytes.truncate(at(p, bytes.len() + 1)),
            _ => {}
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Whether every run of digits in `text` is at most [`MAX_NUMBER`].
fn numbers_small(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|run| !run.is_empty())
        .all(|run| run.len() == 1 && run.parse::<u64>().is_ok_and(|n| n <= MAX_NUMBER))
}

/// Runs one command on `model` and checks what the binary did.
fn run_checked(dir: &Path, model: &Path, args: &[&str], limit: Duration) -> i32 {
    let start = Instant::now();
    let run = puzzlec(dir, args);
    let took = start.elapsed();
    let text = std::fs::read_to_string(model).unwrap_or_default();
    let context = format!(
        "`puzzlec {}` on\n{text}\nstderr: {}",
        args.join(" "),
        run.stderr
    );
    assert!(!run.stderr.contains("panicked"), "a panic: {context}");
    assert!(
        DOCUMENTED.contains(&run.code),
        "exit code {}: {context}",
        run.code
    );
    if run.code == 2 {
        let lines: Vec<&str> = run.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "bad input gets one line: {context}");
        assert!(
            lines[0].starts_with("error: ") && lines[0].contains(&*model.to_string_lossy()),
            "the error line names the file: {context}"
        );
    }
    assert!(took < limit, "took {took:?}: {context}");
    run.code
}

#[test]
fn generated_and_mutated_model_files_never_crash_the_binary() {
    let cases = std::env::var("PUZZLEC_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1500);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (
        0usize..SEEDS.len(),
        prop::collection::vec(edit(), 0..6),
        0u32..10,
    );
    let counter = std::sync::atomic::AtomicU64::new(0);
    // Both kinds of file must be reached: a fuzzer that only makes bad files tests nothing
    // past the parser, one that only makes good files tests no error path.
    let (good, bad) = (
        std::sync::atomic::AtomicU64::new(0),
        std::sync::atomic::AtomicU64::new(0),
    );
    runner
        .run(&strategy, |(seed, edits, which)| {
            let case = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let mutated = apply(SEEDS[seed], &edits);
            let text = if numbers_small(&mutated) {
                mutated
            } else {
                SEEDS[seed].to_string()
            };
            let model = dir.join(format!("case-{case}.toml"));
            std::fs::write(&model, &text).unwrap();
            let path = model.to_str().unwrap();
            let limit = Duration::from_secs(20);
            let code = run_checked(dir, &model, &["solve", path, "--time-limit", "2"], limit);
            let tally = if code == 2 { &bad } else { &good };
            tally.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            run_checked(dir, &model, &["emit", path, "--format", "dimacs"], limit);
            run_checked(dir, &model, &["explain", path], limit);
            // A certificate is the slowest command: one case in ten proves.
            if which == 0 {
                let cert = dir.join(format!("cert-{case}"));
                let cert = cert.to_str().unwrap();
                run_checked(dir, &model, &["prove", path, "-o", cert], limit);
            }
            let _ = std::fs::remove_file(&model);
            Ok(())
        })
        .unwrap();
    let (good, bad) = (good.into_inner(), bad.into_inner());
    assert!(
        good > cases as u64 / 10 && bad > cases as u64 / 10,
        "{good} files solved, {bad} refused"
    );
    eprintln!("{good} model files solved, {bad} refused as bad input");
}

#[test]
fn the_mutations_keep_numbers_small_and_reach_bad_input() {
    // The fuzzer must reach both valid and invalid files: the seeds are valid and a
    // deleted `=` is not.
    assert!(SEEDS.iter().all(|s| numbers_small(s)));
    let broken = apply(SEEDS[0], &[Edit::Delete(21)]);
    assert_eq!(broken, "kind = \"queens\"\nsize  5\n");
    assert!(!numbers_small("size = 12"));
}
