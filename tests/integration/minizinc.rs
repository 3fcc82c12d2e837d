//! MiniZinc and FlatZinc out and back: `emit --format mzn` run by `minizinc --solver
//! gecode`, `emit --format fzn` run by `fzn-gecode` (no MiniZinc compiler), their answers
//! decoded and verified, agreeing with the native backend on the seed models and on seeded
//! random instances of every family; `solve --solver cp:gecode` and the `cp:gecode` row of
//! `compare`; tampered, partial and unreadable answers refused with one exact line.
//!
//! The solver runs are skipped with a "SKIPPED" line when `minizinc` or `fzn-gecode` is not
//! installed (Debian packages minizinc and flatzinc), unless `PUZZLEC_REQUIRE_EXTERNAL=1`;
//! the refusals need no solver.

use crate::common;

use common::{models, puzzlec, random_polyomino, seeded_board};
use puzzlec::base::{Control, Goal, Status};
use puzzlec::driver::decode::{decode, DecodeInput};
use puzzlec::driver::emit::{emit, Format};
use puzzlec::driver::external::ExternalSolver;
use puzzlec::driver::{self, Backend};
use puzzlec::geometry::placements::PieceLimit;
use puzzlec::geometry::shapes::picture_cells as shape;
use puzzlec::puzzle::dissection::DissectionPuzzle;
use puzzlec::puzzle::packing::{Packing, PackingKind, PieceSpec};
use puzzlec::puzzle::{load_model_file, Puzzle};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::process::Command;

const PROGRAMS: [(&str, &str); 2] = [("minizinc", "minizinc"), ("fzn-gecode", "flatzinc")];

/// The seed models Gecode settles in a test's time. Left out: the contest board
/// (`obstacle-queens.toml`: Gecode, without clause learning, finds 15 to 19 queens in
/// seconds but does not prove 20 in minutes) and the 13 x 19 cross box (beyond every solver
/// but the native search, as in tests/integration/external_solvers.rs).
const SEED_MODELS: [&str; 4] = [
    "queens-8.toml",
    "halves-asahi-2005.toml",
    "halves-impossible.toml",
    "pentomino-6x10.toml",
];

fn model(name: &str) -> String {
    models().join(name).display().to_string()
}

/// Runs `program args` in `dir`, its stdout into `dir/answer`; asserts exit 0.
fn run_solver(dir: &Path, program: &str, args: &[&str], answer: &str) {
    let output = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the solver runs");
    assert!(
        output.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::write(dir.join(answer), &output.stdout).unwrap();
}

/// The native backend's answer: (proven status, value).
fn native(puzzle: &Puzzle) -> (Status, Option<usize>) {
    let outcome = driver::solve(
        puzzle,
        Backend::Native,
        Goal::Maximise,
        &Control::unlimited(),
    )
    .unwrap();
    assert!(outcome.status.is_proven(), "{}", outcome.evidence);
    (outcome.status, outcome.value)
}

/// `emit` in `format`, the solver on the file, `decode` of its answer, for `puzzle` in
/// memory: `Ok(value)` for a verified solution the solver claims optimal (or the puzzle's
/// value for a puzzle without objective), `Err(message)` when decode refuses it.
fn round_trip(dir: &Path, puzzle: &Puzzle, name: &str, format: Format) -> Result<usize, String> {
    let (file, program, args): (String, &str, Vec<String>) = match format {
        Format::Mzn => (
            format!("{name}.mzn"),
            "minizinc",
            vec!["--solver".into(), "gecode".into()],
        ),
        _ => (format!("{name}.fzn"), "fzn-gecode", Vec::new()),
    };
    let text = emit(puzzle, name, format, None);
    assert!(
        !text.contains("WARNING") && !text.contains("INCOMPLETE"),
        "{name}"
    );
    std::fs::write(dir.join(&file), &text).unwrap();
    let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
    args.push(&file);
    let answer_name = format!("{file}.answer");
    run_solver(dir, program, &args, &answer_name);
    let answer = std::fs::read_to_string(dir.join(&answer_name)).unwrap();
    let decoded = decode(
        puzzle,
        &DecodeInput {
            answer_name: &answer_name,
            answer: &answer,
            emitted: Some((&file, &text)),
            origin: name,
        },
    )
    .map_err(|e| e.to_string())?;
    if puzzle.has_objective() {
        assert!(
            decoded
                .evidence
                .to_string()
                .contains("claim that it is optimal is not checked"),
            "{name}: {}",
            decoded.evidence
        );
    }
    Ok(decoded.value)
}

/// Both files of `puzzle` through Gecode agree with the native backend.
fn agrees_with_native(dir: &Path, puzzle: &Puzzle, name: &str) {
    let (status, value) = native(puzzle);
    for format in [Format::Mzn, Format::Fzn] {
        let answer = round_trip(dir, puzzle, name, format);
        match status {
            Status::Unsatisfiable => {
                let message = answer.expect_err(name);
                assert!(
                    message.ends_with(
                        "the solver found no solution (=====UNSATISFIABLE=====): nothing to decode"
                    ),
                    "{name} {format:?}: {message}"
                );
            }
            Status::Optimal => {
                assert_eq!(answer.as_ref().ok(), value.as_ref(), "{name} {format:?}")
            }
            _ => assert!(answer.is_ok(), "{name} {format:?}: {answer:?}"),
        }
    }
}

#[test]
fn seed_models_through_minizinc_and_fzn_gecode_agree_with_the_native_backend() {
    if !common::programs_or_skip(module_path!(), &PROGRAMS) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for name in SEED_MODELS {
        let puzzle = load_model_file(&models().join(name)).unwrap();
        agrees_with_native(dir, &puzzle, name);
    }
    // The command line as the docs show it, on eight queens.
    let run = puzzlec(
        dir,
        &[
            "emit",
            &model("queens-8.toml"),
            "--format",
            "fzn",
            "-o",
            "q8.fzn",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    run_solver(dir, "fzn-gecode", &["q8.fzn"], "q8.answer");
    let run = puzzlec(
        dir,
        &[
            "decode",
            &model("queens-8.toml"),
            "q8.answer",
            "--emitted",
            "q8.fzn",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("8\n"), "{}", run.stdout);
    assert!(
        run.stderr.starts_with("feasible 8 by cp:answer in ")
            && run.stderr.contains(
                "q8.answer (MiniZinc answer) satisfies every constraint of q8.fzn; the 64 model \
             variables matched by name, the solution verified by the queens rules; the \
             solver's claim that it is optimal is not checked"
            ),
        "{}",
        run.stderr
    );
}

const SMALL: [&str; 6] = ["##", "###", "##/#.", "####", "##/##", "###/.#."];

fn random_packing(seed: u64) -> Packing {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let width = rng.gen_range(2..=5);
    let height = rng.gen_range(2..=5);
    let blocked: Vec<bool> = (0..width * height).map(|_| rng.gen_bool(0.12)).collect();
    let pieces: Vec<PieceSpec> = (0..rng.gen_range(1..=3))
        .map(|i| PieceSpec {
            name: format!("p{i}"),
            cells: shape(SMALL[rng.gen_range(0..SMALL.len())]),
            rotate: rng.gen_bool(0.8),
            reflect: rng.gen_bool(0.5),
            limit: match rng.gen_range(0..3) {
                0 | 1 => PieceLimit::unlimited(),
                _ => PieceLimit::at_most(rng.gen_range(1..=3)),
            },
        })
        .collect();
    Packing::new(width, height, blocked, pieces, PackingKind::Maximise)
}

/// Seeded random instances of every family: queens boards, packings, dissections (both
/// answers), through both files and Gecode, against the native backend.
fn random_instances() -> Vec<(String, Puzzle)> {
    let mut instances = Vec::new();
    for seed in 0..4 {
        instances.push((
            format!("queens-{seed}"),
            Puzzle::Queens(seeded_board(seed, 7)),
        ));
        instances.push((
            format!("packing-{seed}"),
            Puzzle::Packing(random_packing(seed)),
        ));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(2718);
    for round in 0..6 {
        let (size, parts) = [(8, 2), (6, 3), (10, 2)][round % 3];
        let cells = random_polyomino(&mut rng, size);
        instances.push((
            format!("dissection-{round}"),
            Puzzle::Dissection(DissectionPuzzle::from_cells(&cells, parts, round % 2 == 0)),
        ));
    }
    instances
}

#[test]
fn random_instances_of_every_family_agree_with_the_native_backend() {
    if !common::programs_or_skip(module_path!(), &PROGRAMS) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let mut dissections = [0, 0];
    for (name, puzzle) in random_instances() {
        if let Puzzle::Dissection(_) = &puzzle {
            let exists = native(&puzzle).0 != Status::Unsatisfiable;
            dissections[usize::from(exists)] += 1;
        }
        agrees_with_native(tmp.path(), &puzzle, &name);
    }
    // Both answers occur among the dissections, so the test says something about each.
    assert!(dissections[0] > 0 && dissections[1] > 0, "{dissections:?}");
}

#[test]
fn solver_cp_gecode_agrees_with_the_native_backend() {
    if !common::programs_or_skip(module_path!(), &PROGRAMS) {
        return;
    }
    let gecode = ExternalSolver::parse(Backend::Milp, "cp:gecode").unwrap();
    assert_eq!(gecode.label(), "cp:gecode");
    let mut cases: Vec<(String, Puzzle)> = SEED_MODELS
        .iter()
        .map(|name| {
            (
                name.to_string(),
                load_model_file(&models().join(name)).unwrap(),
            )
        })
        .collect();
    cases.extend(random_instances());
    for (name, puzzle) in cases {
        let (status, value) = native(&puzzle);
        let outcome =
            driver::solve_external(&puzzle, &gecode, Goal::Maximise, &Control::unlimited())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(outcome.label(), "cp:gecode");
        assert_eq!((outcome.status, outcome.value), (status, value), "{name}");
    }
    // The command line: optimal, then the decision both ways.
    let tmp = tempfile::tempdir().unwrap();
    let q8 = model("queens-8.toml");
    let run = puzzlec(tmp.path(), &["solve", &q8, "--solver", "cp:gecode"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.starts_with("optimal 8 by cp:gecode in ")
            && run.stderr.ends_with(
                ": gecode (MiniZinc) reported its solution optimal (0 cuts); the solver's \
                 claim, not checked\n"
            ),
        "{}",
        run.stderr
    );
    let run = puzzlec(
        tmp.path(),
        &["solve", &q8, "--solver", "cp:gecode", "--at-least", "9"],
    );
    assert_eq!(run.code, 20, "{}", run.stderr);
    assert!(
        run.stderr.ends_with(
            "gecode (MiniZinc) reported \"at least 9\" unsatisfiable (0 cuts); the solver's \
             claim, not checked\n"
        ),
        "{}",
        run.stderr
    );
    let run = puzzlec(
        tmp.path(),
        &["solve", &q8, "--solver", "cp:gecode", "--json"],
    );
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["backend"], "cp:gecode");
    // compare has a cp:gecode row, agreeing with the others.
    let run = puzzlec(tmp.path(), &["compare", &q8]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let row = run
        .stdout
        .lines()
        .find(|l| l.starts_with("cp:gecode "))
        .unwrap_or_else(|| panic!("no cp:gecode row:\n{}", run.stdout));
    assert!(row.contains("optimal 8"), "{row}");
    assert!(
        run.stdout.ends_with("all backends agree\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn cp_solvers_without_minizinc_or_with_the_sat_backend_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let q8 = model("queens-8.toml");
    // No minizinc on an empty PATH: the same message as any missing program.
    let output = Command::new(env!("CARGO_BIN_EXE_puzzlec"))
        .args(["solve", &q8, "--solver", "cp:gecode"])
        .env("PATH", tmp.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "error: solver program \"minizinc\" not found on PATH\n"
    );
    if common::programs_or_skip(module_path!(), &PROGRAMS) {
        let run = puzzlec(tmp.path(), &["solve", &q8, "--solver", "cp:nosuchsolver"]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(
            run.stderr.starts_with(
                "error: MiniZinc has no solver \"nosuchsolver\" (`minizinc --solvers` lists "
            ) && run.stderr.contains("gecode"),
            "{}",
            run.stderr
        );
    }
    let run = puzzlec(
        tmp.path(),
        &["solve", &q8, "--backend", "sat", "--solver", "cp:gecode"],
    );
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            2,
            "error: --solver cp:gecode: a MiniZinc solver answers the 0-1 program of the milp \
             backend; leave out --backend or give --backend milp\n"
        )
    );
}

/// Eight queens as MiniZinc output over q8.mzn's identifiers: one queen per row at
/// `columns[row]` (`q_X_Y` for q[X,Y]).
/// The same as fzn-gecode prints it: `q = array2d(...)`, `q[x,y]` in row-major order.
fn queens_array_answer(columns: [usize; 8]) -> String {
    let values: Vec<String> = (0..64)
        .map(|i| u8::from(columns[i % 8] == i / 8).to_string())
        .collect();
    format!(
        "q = array2d(0..7, 0..7, [{}]);\n----------\n==========\n",
        values.join(", ")
    )
}

fn queens_answer(columns: [usize; 8]) -> String {
    let mut text = String::new();
    for (y, &column) in columns.iter().enumerate() {
        for x in 0..8 {
            text.push_str(&format!("q_{x}_{y} = {};\n", u8::from(column == x)));
        }
    }
    text + "----------\n==========\n"
}

#[test]
fn tampered_partial_and_unreadable_answers_are_refused_with_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let q8 = model("queens-8.toml");
    for (format, file) in [("mzn", "q8.mzn"), ("fzn", "q8.fzn"), ("lp", "q8.lp")] {
        let run = puzzlec(dir, &["emit", &q8, "--format", format, "-o", file]);
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    let good = queens_answer([0, 4, 7, 5, 2, 6, 1, 3]);
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write("good.answer", &good);
    write(
        "array.answer",
        &queens_array_answer([0, 4, 7, 5, 2, 6, 1, 3]),
    );
    for (answer, emitted) in [
        ("good.answer", Some("q8.mzn")),
        ("good.answer", Some("q8.fzn")),
        ("good.answer", None),
        ("array.answer", Some("q8.mzn")),
        ("array.answer", Some("q8.fzn")),
        ("array.answer", None),
    ] {
        let mut args = vec!["decode", q8.as_str(), answer];
        args.extend(emitted.iter().flat_map(|e| ["--emitted", e]));
        let run = puzzlec(dir, &args);
        assert_eq!(run.code, 0, "{answer} {emitted:?}: {}", run.stderr);
        assert_eq!(
            run.stdout,
            "8\nQ-------\n----Q---\n-------Q\n-----Q--\n--Q-----\n------Q-\n-Q------\n---Q----\n"
        );
    }
    // Intermediate solutions: the last one counts.
    write(
        "two-solutions.answer",
        &format!("{}{good}", good.replace("==========\n", "")),
    );
    write(
        "second-queen.answer",
        &good.replacen("q_1_0 = 0;", "q_1_0 = 1;", 1),
    );
    write("two.answer", &good.replacen("q_1_0 = 0;", "q_1_0 = 2;", 1));
    write(
        "true.answer",
        &good.replacen("q_0_0 = 1;", "q_0_0 = true;", 1),
    );
    write("partial.answer", &good.replacen("q_7_7 = 0;\n", "", 1));
    write(
        "unknown.answer",
        &good.replacen("q_7_7 = 0;", "q_7_7 = 0;\nzz = 0;", 1),
    );
    write("unsat.answer", "=====UNSATISFIABLE=====\n");
    write("stopped.answer", "=====UNKNOWN=====\n");
    write("cut.answer", &good.replace("----------\n==========\n", ""));
    write(
        "twice.answer",
        &good.replacen("q_1_0 = 0;", "q_1_0 = 0;\nq_1_0 = 0;", 1),
    );
    write("chat.answer", "hello\n----------\n");
    write(
        "array-queen.answer",
        &queens_array_answer([0, 4, 7, 5, 2, 6, 1, 3]).replacen("[1, 0,", "[1, 1,", 1),
    );
    write(
        "array-short.answer",
        &queens_array_answer([0, 4, 7, 5, 2, 6, 1, 3]).replacen("[1, 0,", "[1,", 1),
    );
    let cases: Vec<(&str, Option<&str>, i32, &str)> = vec![
        ("two-solutions.answer", Some("q8.mzn"), 0, ""),
        ("true.answer", Some("q8.fzn"), 0, ""),
        (
            "second-queen.answer",
            Some("q8.mzn"),
            1,
            "error: second-queen.answer: the values break row c1 of q8.mzn (left side 2, right side 1)\n",
        ),
        (
            "second-queen.answer",
            Some("q8.fzn"),
            1,
            "error: second-queen.answer: the values break row c1 of q8.fzn (left side 2, right side 1)\n",
        ),
        (
            "second-queen.answer",
            None,
            1,
            "error: second-queen.answer: the values break constraint 1 of the model: at-most-one over q[0,0], q[1,0], q[2,0], q[3,0], q[4,0], q[5,0], ... (8 literals)\n",
        ),
        // fzn-gecode's array form, a queen added at q[0,1] beside q[4,1] in row 1.
        (
            "array-queen.answer",
            Some("q8.fzn"),
            1,
            "error: array-queen.answer: the values break row c2 of q8.fzn (left side 2, right side 1)\n",
        ),
        (
            "two.answer",
            Some("q8.mzn"),
            1,
            "error: two.answer: variable q_1_0 has value 2, not 0 or 1\n",
        ),
        (
            "partial.answer",
            Some("q8.fzn"),
            1,
            "error: partial.answer: partial: no value for 1 of the 64 model variables, the first q[7,7] (variable q_7_7)\n",
        ),
        (
            "unknown.answer",
            Some("q8.mzn"),
            1,
            "error: unknown.answer: variable zz is not in q8.mzn\n",
        ),
        (
            "unsat.answer",
            Some("q8.mzn"),
            1,
            "error: unsat.answer: the solver found no solution (=====UNSATISFIABLE=====): nothing to decode\n",
        ),
        (
            "stopped.answer",
            None,
            1,
            "error: stopped.answer: the solver stopped without a solution (=====UNKNOWN=====): nothing to decode\n",
        ),
        // Unreadable answers, and answers for files of another format, are bad input.
        (
            "cut.answer",
            Some("q8.mzn"),
            2,
            "error: cut.answer: values after the last `----------` (a solution cut off)\n",
        ),
        (
            "twice.answer",
            Some("q8.mzn"),
            2,
            "error: twice.answer: line 3: q_1_0 is given twice in one solution\n",
        ),
        (
            "chat.answer",
            Some("q8.mzn"),
            2,
            "error: chat.answer: line 1: \"hello\" is not `name = value;`\n",
        ),
        (
            "good.answer",
            Some("q8.lp"),
            2,
            "error: good.answer: a MiniZinc answer is for MiniZinc or FlatZinc files, but q8.lp is an LP file\n",
        ),
    ];
    for (answer, emitted, code, message) in cases {
        let mut args = vec!["decode", q8.as_str(), answer];
        args.extend(emitted.iter().flat_map(|e| ["--emitted", e]));
        let run = puzzlec(dir, &args);
        if code == 0 {
            assert_eq!(run.code, 0, "{answer} {emitted:?}: {}", run.stderr);
            continue;
        }
        assert_eq!(
            (run.code, run.stderr.as_str()),
            (code, message),
            "{answer} {emitted:?}"
        );
        assert_eq!(run.stdout, "", "{answer}");
    }
    // An array line that does not fill its ranges does not read.
    let short = std::fs::read_to_string(dir.join("array-short.answer")).unwrap();
    let run = puzzlec(
        dir,
        &["decode", &q8, "array-short.answer", "--emitted", "q8.fzn"],
    );
    assert_eq!(
        (run.code, run.stderr),
        (
            2,
            format!(
                "error: array-short.answer: line 1: {:?} is not `name = value;`\n",
                short.lines().next().unwrap()
            )
        )
    );
    // An answer for another model's file is refused by name.
    let run = puzzlec(
        dir,
        &[
            "emit",
            &model("halves-asahi-2005.toml"),
            "--format",
            "mzn",
            "-o",
            "asahi.mzn",
        ],
    );
    assert_eq!(run.code, 0);
    let run = puzzlec(
        dir,
        &["decode", &q8, "good.answer", "--emitted", "asahi.mzn"],
    );
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            2,
            "error: asahi.mzn names no variable q[0,0]: it was not written for this model\n"
        )
    );
}

/// A file whose array declares a box bigger than `emit` ever writes is refused by its line
/// before decode makes a name for each entry (it would take terabytes).
#[test]
fn huge_arrays_in_tampered_files_are_refused_with_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let q8 = model("queens-8.toml");
    for (format, file) in [("mzn", "q8.mzn"), ("fzn", "q8.fzn")] {
        let run = puzzlec(dir, &["emit", &q8, "--format", format, "-o", file]);
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write("good.answer", &queens_answer([0, 4, 7, 5, 2, 6, 1, 3]));
    let mzn = read("q8.mzn");
    assert!(
        mzn.contains("\narray[0..7, 0..7] of var 0..1: q;\n"),
        "{mzn}"
    );
    write(
        "huge.mzn",
        &mzn.replacen("array[0..7, 0..7]", "array[0..999999999999, 0..7]", 1),
    );
    let fzn = read("q8.fzn");
    assert!(fzn.contains(":: output_array([0..7,0..7])"), "{fzn}");
    write(
        "huge.fzn",
        &fzn.replacen(
            "output_array([0..7,0..7])",
            "output_array([0..999999999999,0..7])",
            1,
        ),
    );
    let line = |text: &str, what: &str| 1 + text.lines().position(|l| l.contains(what)).unwrap();
    for (file, at) in [
        ("huge.mzn", line(&mzn, "array[0..7, 0..7]")),
        ("huge.fzn", line(&fzn, "output_array([0..7,0..7])")),
    ] {
        let run = puzzlec(dir, &["decode", &q8, "good.answer", "--emitted", file]);
        assert_eq!(
            (run.code, run.stderr),
            (
                2,
                format!(
                    "error: {file}: line {at}: array q has 8000000000000 entries, more than the \
                     1280 of an array of 64 variables (16 per variable plus 256)\n"
                )
            )
        );
        assert_eq!(run.stdout, "");
    }
}

#[test]
fn the_files_state_the_whole_puzzle_unless_asked_otherwise() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let asahi = model("halves-asahi-2005.toml");
    for format in ["mzn", "fzn"] {
        let complete = puzzlec(dir, &["emit", &asahi, "--format", format]);
        assert_eq!(complete.code, 0, "{}", complete.stderr);
        assert!(complete
            .stdout
            .contains("% written out in full, with auxiliary variables: "));
        assert!(!complete.stdout.contains("INCOMPLETE"));
        assert!(
            complete.stdout.contains(") satisfy;\n"),
            "{}",
            complete.stdout
        );
        let incomplete = puzzlec(dir, &["emit", &asahi, "--format", format, "--incomplete"]);
        assert_eq!(incomplete.code, 0, "{}", incomplete.stderr);
        assert!(
            incomplete.stdout.contains(
                "% INCOMPLETE, as asked (--incomplete): the lazy constraints below are left out"
            ),
            "{}",
            incomplete.stdout
        );
        assert!(incomplete
            .stdout
            .contains("% WARNING: 1 lazy constraints are not written"));
        assert!(incomplete.stdout.len() < complete.stdout.len());
    }
    let q8 = model("queens-8.toml");
    let run = puzzlec(dir, &["emit", &q8, "--format", "mzn", "--at-least", "8"]);
    assert!(run
        .stdout
        .contains("constraint objective >= 8;  % at_least\n% search: the objective's variables"));
    assert!(run
        .stdout
        .contains("], input_order, indomain_max) satisfy;\n"));
    // The variables as arrays named after the puzzle, the entries that are no model
    // variable (here the obstacles) fixed to 0.
    let run = puzzlec(dir, &["emit", &q8, "--format", "mzn"]);
    assert!(run
        .stdout
        .contains("\narray[0..7, 0..7] of var 0..1: q;\nvar 0..64: objective = sum(q);\n"));
    assert!(!run.stdout.contains("not in the model"));
    let contest = model("obstacle-queens.toml");
    let run = puzzlec(dir, &["emit", &contest, "--format", "mzn"]);
    assert!(run.stdout.contains(
        "\narray[0..15, 0..15] of var 0..1: q;\n% 78 entries of q are not model variables"
    ));
    // Column 4, rows 0 to 2: obstacles (`----*******-----` and the two rows below).
    assert!(run
        .stdout
        .contains("\nconstraint forall(j in 0..2) (q[4,j] = 0);  % not in the model\n"));
    let run = puzzlec(
        dir,
        &["emit", &model("cross-13x19.toml"), "--format", "mzn"],
    );
    assert!(run.stdout.contains(
        "\nenum PLACE_1 = {plus, dagger, T};\n\
         array[PLACE_1, 0..3, 0..8, 0..14] of var 0..1: place;  \
         % the model's place[a/b@(c,d)] is place[a,b,c,d]\n"
    ));
    assert!(run.stdout.contains(
        "\n  \"place_dagger_1__2_0 = \", show(place[dagger,1,2,0]), \";\\n\",  % place[dagger/1@(2,0)]\n"
    ));
    let run = puzzlec(dir, &["emit", &q8, "--format", "fzn"]);
    assert!(run.stdout.contains("\nvar 0..1: q_0_0;  % q[0,0]\n"));
    assert!(run.stdout.contains(
        "\narray [1..64] of var int: q :: output_array([0..7,0..7]) = [q_0_0,q_0_1,q_0_2,"
    ));
    assert!(run.stdout.contains(
        "constraint int_lin_le([1,1,1,1,1,1,1,1],[q_0_0,q_1_0,q_2_0,q_3_0,q_4_0,q_5_0,q_6_0,q_7_0],1);  % c1: at-most-one\n"
    ));
    assert!(run
        .stdout
        .ends_with("], input_order, indomain_max, complete) maximize objective;\n"));
}

/// The search annotation of the MiniZinc file (the queens of the shortest lines first,
/// each placed before it is left out) takes Gecode to 18 queens or more on the contest
/// board within 10 s; without it Gecode found 13 in 30 s (docs/external-solvers.md has the
/// measurements).
#[test]
fn gecode_finds_18_queens_on_the_contest_board_in_10_seconds() {
    if !common::programs_or_skip(module_path!(), &PROGRAMS[..1]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let board = model("obstacle-queens.toml");
    let run = puzzlec(dir, &["emit", &board, "--format", "mzn", "-o", "board.mzn"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let args = ["--solver", "gecode", "--time-limit", "10000", "board.mzn"];
    run_solver(dir, "minizinc", &args, "board.answer");
    let run = puzzlec(
        dir,
        &[
            "decode",
            &board,
            "board.answer",
            "--emitted",
            "board.mzn",
            "--json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let queens = json["value"].as_u64().unwrap();
    assert!(
        (18..=20).contains(&queens),
        "{queens} queens: {}",
        run.stdout
    );
}
