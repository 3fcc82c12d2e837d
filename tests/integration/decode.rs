//! `puzzlec decode`: answers of real external solvers (CaDiCaL, CryptoMiniSat, MiniSat,
//! CBC, GLPK) to files `emit` wrote decode to solutions the puzzle's rules accept, and
//! tampered, partial, unsatisfiable or unreadable answers are refused with one line saying
//! what fails. The solver runs are skipped (with a "SKIPPED" line) when the program is
//! not installed, unless `PUZZLEC_REQUIRE_EXTERNAL=1`.

use crate::common;

use common::{models, puzzlec, Run};
use puzzlec::oracle::external::on_path;
use std::path::{Path, PathBuf};
use std::process::Command;

fn installed(program: &str) -> bool {
    if on_path(program) {
        return true;
    }
    assert!(
        std::env::var("PUZZLEC_REQUIRE_EXTERNAL").as_deref() != Ok("1"),
        "PUZZLEC_REQUIRE_EXTERNAL=1 but {program} is missing"
    );
    println!("SKIPPED: {program} not installed");
    false
}

fn model(name: &str) -> String {
    models().join(name).display().to_string()
}

/// `puzzlec emit MODEL --format FORMAT [extra]` into `dir/file`; returns its path.
fn emit(dir: &Path, model_name: &str, format: &str, extra: &[&str], file: &str) -> PathBuf {
    let path = dir.join(file);
    let mut args = vec![
        "emit".to_string(),
        model(model_name),
        "--format".into(),
        format.into(),
        "-o".into(),
        path.display().to_string(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = puzzlec(dir, &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    path
}

/// Runs `program` with `args` in `dir`, stdout into `dir/out` when `capture`; returns the
/// exit code.
fn run_solver(dir: &Path, program: &str, args: &[&str], capture: Option<&str>) -> i32 {
    let output = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the solver runs");
    if let Some(name) = capture {
        std::fs::write(dir.join(name), &output.stdout).unwrap();
    }
    output.status.code().unwrap_or(-1)
}

fn decode(dir: &Path, model_name: &str, answer: &str, emitted: Option<&str>) -> Run {
    let mut args = vec!["decode".to_string(), model(model_name), answer.to_string()];
    if let Some(file) = emitted {
        args.extend(["--emitted".to_string(), file.to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    puzzlec(dir, &args)
}

/// The one dissection of the Asahi shape, as `solve` prints it.
const ASAHI: &str = "...AAA.\n...AABB\n...A.BB\nAAAAAB.\nAABBBB.\n..BB.B.\n..B....\n";

fn queens_on(stdout: &str) -> usize {
    stdout.chars().filter(|&c| c == 'Q').count()
}

#[test]
fn sat_solvers_answers_decode_to_verified_solutions() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    emit(
        dir,
        "queens-8.toml",
        "dimacs",
        &["--at-least", "8"],
        "q8.cnf",
    );
    emit(dir, "halves-asahi-2005.toml", "dimacs", &[], "asahi.cnf");
    let solvers: [(&str, &[&str], bool); 3] = [
        ("cadical", &["-q"], false),
        ("cryptominisat5", &["--verb", "0"], false),
        ("minisat", &["-verb=0"], true),
    ];
    for (program, options, result_file) in solvers {
        if !installed(program) {
            continue;
        }
        for (model_name, cnf) in [
            ("queens-8.toml", "q8.cnf"),
            ("halves-asahi-2005.toml", "asahi.cnf"),
        ] {
            let answer = format!("{program}-{cnf}.answer");
            let mut args: Vec<&str> = options.to_vec();
            args.push(cnf);
            if result_file {
                args.push(&answer);
            }
            let code = run_solver(dir, program, &args, (!result_file).then_some(&answer));
            assert_eq!(code, 10, "{program} on {cnf}");
            for emitted in [Some(cnf), None] {
                let run = decode(dir, model_name, &answer, emitted);
                assert_eq!(run.code, 0, "{program} {cnf} {emitted:?}: {}", run.stderr);
                if model_name == "queens-8.toml" {
                    assert!(run.stdout.starts_with("8\n"), "{}", run.stdout);
                    assert_eq!(queens_on(&run.stdout), 8, "{}", run.stdout);
                    assert!(
                        run.stderr.starts_with("feasible 8 by sat:answer"),
                        "{}",
                        run.stderr
                    );
                } else {
                    assert_eq!(run.stdout, ASAHI);
                    assert!(
                        run.stderr.starts_with("satisfiable by sat:answer"),
                        "{}",
                        run.stderr
                    );
                }
                let checked = emitted.is_some();
                assert_eq!(
                    run.stderr
                        .contains(&format!("satisfies every clause of {cnf}")),
                    checked,
                    "{}",
                    run.stderr
                );
                assert!(run.stderr.contains("verified by the"), "{}", run.stderr);
            }
        }
    }
}

#[test]
fn milp_solvers_solution_files_decode_to_verified_solutions() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    emit(dir, "queens-8.toml", "lp", &[], "q8.lp");
    emit(dir, "halves-asahi-2005.toml", "lp", &[], "asahi.lp");
    if installed("cbc") {
        for (model_name, lp) in [
            ("queens-8.toml", "q8.lp"),
            ("halves-asahi-2005.toml", "asahi.lp"),
        ] {
            let answer = format!("{lp}.cbc");
            assert_eq!(
                run_solver(dir, "cbc", &[lp, "solve", "solu", &answer], None),
                0
            );
            for emitted in [Some(lp), None] {
                let run = decode(dir, model_name, &answer, emitted);
                assert_eq!(run.code, 0, "{lp} {emitted:?}: {}", run.stderr);
                if model_name == "queens-8.toml" {
                    // CBC proves 8 optimal; decode reports the claim, unchecked.
                    assert_eq!(queens_on(&run.stdout), 8, "{}", run.stdout);
                    assert!(
                        run.stderr
                            .contains("the solver's claim that it is optimal is not checked"),
                        "{}",
                        run.stderr
                    );
                } else {
                    assert_eq!(run.stdout, ASAHI);
                }
            }
        }
    }
    if installed("glpsol") {
        assert_eq!(
            run_solver(dir, "glpsol", &["--lp", "q8.lp", "-w", "q8.glpk"], None),
            0
        );
        for emitted in [Some("q8.lp"), None] {
            let run = decode(dir, "queens-8.toml", "q8.glpk", emitted);
            assert_eq!(run.code, 0, "{emitted:?}: {}", run.stderr);
            assert_eq!(queens_on(&run.stdout), 8, "{}", run.stdout);
            assert!(
                run.stderr.contains("(GLPK solution file)"),
                "{}",
                run.stderr
            );
        }
    }
}

#[test]
fn an_unsatisfiable_answer_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    emit(dir, "halves-impossible.toml", "dimacs", &[], "vase.cnf");
    emit(dir, "halves-impossible.toml", "lp", &[], "vase.lp");
    if installed("cadical") {
        assert_eq!(
            run_solver(dir, "cadical", &["-q", "vase.cnf"], Some("vase.answer")),
            20
        );
        let run = decode(
            dir,
            "halves-impossible.toml",
            "vase.answer",
            Some("vase.cnf"),
        );
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert_eq!(
            run.stderr,
            "error: vase.answer: the solver found no solution (s UNSATISFIABLE): nothing to decode\n"
        );
        assert_eq!(run.stdout, "");
    }
    if installed("cbc") {
        run_solver(dir, "cbc", &["vase.lp", "solve", "solu", "vase.cbc"], None);
        let run = decode(dir, "halves-impossible.toml", "vase.cbc", Some("vase.lp"));
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert_eq!(
            run.stderr,
            "error: vase.cbc: the solver found no solution (infeasible): nothing to decode\n"
        );
    }
}

/// Eight queens as DIMACS literals over the emitted file's first 64 variables (q[x,y] is
/// variable 8y + x + 1 on the empty board): one queen per row at `columns[row]`.
fn queens_literals(columns: [usize; 8]) -> Vec<i64> {
    (0..64)
        .map(|v| {
            let (x, y) = (v % 8, v / 8);
            let number = v as i64 + 1;
            if columns[y] == x {
                number
            } else {
                -number
            }
        })
        .collect()
}

/// A complete, valid SAT answer to `cnf` with the model variables fixed to `literals`
/// (varisat fills in the auxiliaries), or `None` if those values falsify the file.
fn answer_with(cnf: &str, literals: &[i64]) -> Option<String> {
    let formula = varisat::dimacs::DimacsParser::parse(cnf.as_bytes()).unwrap();
    let mut solver = varisat::Solver::new();
    solver.add_formula(&formula);
    let assumptions: Vec<varisat::Lit> = literals
        .iter()
        .map(|&l| varisat::Lit::from_dimacs(l as isize))
        .collect();
    solver.assume(&assumptions);
    if !solver.solve().unwrap() {
        return None;
    }
    let model = solver.model().unwrap();
    let words: Vec<String> = model.iter().map(|l| l.to_dimacs().to_string()).collect();
    Some(format!("s SATISFIABLE\nv {} 0\n", words.join(" ")))
}

/// Replaces the literal `from` by `to` in an answer's `v` lines.
fn swap_literal(answer: &str, from: i64, to: i64) -> String {
    answer
        .lines()
        .map(|line| match line.strip_prefix("v ") {
            Some(rest) => {
                let words: Vec<String> = rest
                    .split_whitespace()
                    .map(|w| {
                        if w == from.to_string() {
                            to.to_string()
                        } else {
                            w.to_string()
                        }
                    })
                    .collect();
                format!("v {}\n", words.join(" "))
            }
            None => format!("{line}\n"),
        })
        .collect()
}

#[test]
fn tampered_partial_and_unreadable_answers_are_refused_with_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let cnf_path = emit(dir, "queens-8.toml", "dimacs", &[], "q8.cnf");
    let cnf = std::fs::read_to_string(cnf_path).unwrap();
    let solution = [0, 4, 7, 5, 2, 6, 1, 3];
    let good = answer_with(&cnf, &queens_literals(solution)).expect("eight queens");
    std::fs::write(dir.join("good.answer"), &good).unwrap();
    let run = decode(dir, "queens-8.toml", "good.answer", Some("q8.cnf"));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "8\nQ-------\n----Q---\n-------Q\n-----Q--\n--Q-----\n------Q-\n-Q------\n---Q----\n"
    );

    // A second queen in the top row: q[1,0] is variable 2.
    std::fs::write(dir.join("two.answer"), swap_literal(&good, -2, 2)).unwrap();
    let cases: Vec<(&str, Option<&str>, i32, &str)> = vec![
        (
            "two.answer",
            Some("q8.cnf"),
            1,
            "error: two.answer: the values falsify clause 1 of q8.cnf (-1 -2 0)\n",
        ),
        (
            "two.answer",
            None,
            1,
            "error: two.answer: the values break constraint 1 of the model: at-most-one over q[0,0], q[1,0], q[2,0], q[3,0], q[4,0], q[5,0], ... (8 literals)\n",
        ),
    ];
    for (answer, emitted, code, message) in cases {
        let run = decode(dir, "queens-8.toml", answer, emitted);
        assert_eq!(
            (run.code, run.stderr.as_str()),
            (code, message),
            "{answer} {emitted:?}"
        );
        assert_eq!(run.stdout, "");
    }

    // Partial: the answer says nothing about q[7,7] (variable 64).
    let partial: String = good
        .lines()
        .map(|l| match l.strip_prefix("v ") {
            Some(rest) => {
                let kept: Vec<&str> = rest.split_whitespace().filter(|w| *w != "-64").collect();
                format!("v {}\n", kept.join(" "))
            }
            None => format!("{l}\n"),
        })
        .collect();
    std::fs::write(dir.join("partial.answer"), partial).unwrap();
    let run = decode(dir, "queens-8.toml", "partial.answer", Some("q8.cnf"));
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            1,
            "error: partial.answer: partial: no value for 1 of the 64 model variables, the first q[7,7] (variable 64)\n"
        )
    );

    // A variable the file does not have.
    std::fs::write(dir.join("extra.answer"), "s SATISFIABLE\nv 1 500 0\n").unwrap();
    let run = decode(dir, "queens-8.toml", "extra.answer", Some("q8.cnf"));
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            1,
            "error: extra.answer: variable 500 is not in q8.cnf (it has 96)\n"
        )
    );

    // Unreadable answers and files of another model are bad input (exit 2).
    std::fs::write(dir.join("chat.answer"), "hello\n").unwrap();
    std::fs::write(dir.join("clash.answer"), "s SATISFIABLE\nv 1 -1 0\n").unwrap();
    emit(dir, "halves-asahi-2005.toml", "dimacs", &[], "asahi.cnf");
    let cases: Vec<(&str, &str, &str)> = vec![
        (
            "chat.answer",
            "q8.cnf",
            "error: chat.answer: not a solver answer puzzlec reads (SAT competition `s`/`v` lines, MiniSat's result file, MaxSAT or PB `v` lines, a CBC, GLPK `-w` or HiGHS solution file, or MiniZinc output)\n",
        ),
        (
            "clash.answer",
            "q8.cnf",
            "error: clash.answer:2: variable 1 is given both values\n",
        ),
        (
            "good.answer",
            "asahi.cnf",
            "error: asahi.cnf names no variable q[0,0]: it was not written for this model\n",
        ),
        (
            "good.answer",
            "missing.cnf",
            "error: missing.cnf: cannot read: No such file or directory (os error 2)\n",
        ),
    ];
    for (answer, emitted, message) in cases {
        let run = decode(dir, "queens-8.toml", answer, Some(emitted));
        assert_eq!((run.code, run.stderr.as_str()), (2, message), "{answer}");
    }
}

#[test]
fn a_fractional_or_unknown_lp_column_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    emit(dir, "queens-8.toml", "lp", &[], "q8.lp");
    let cases = [
        (
            "Optimal - objective value 0.5\n      1 q_1_0   0.5   1\n",
            "error: half.cbc: column q_1_0 has value 0.5, not 0 or 1\n",
        ),
        (
            "Optimal - objective value 1\n      1 z_9   1   1\n",
            "error: half.cbc: column z_9 is not in q8.lp\n",
        ),
    ];
    for (text, message) in cases {
        std::fs::write(dir.join("half.cbc"), text).unwrap();
        let run = decode(dir, "queens-8.toml", "half.cbc", Some("q8.lp"));
        assert_eq!((run.code, run.stderr.as_str()), (1, message));
    }
}

#[test]
fn decode_json_has_the_fields_of_solve() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let cnf = std::fs::read_to_string(emit(dir, "queens-8.toml", "dimacs", &[], "q8.cnf")).unwrap();
    let good = answer_with(&cnf, &queens_literals([0, 4, 7, 5, 2, 6, 1, 3])).unwrap();
    std::fs::write(dir.join("good.answer"), good).unwrap();
    let svg = dir.join("q8.svg").display().to_string();
    let run = puzzlec(
        dir,
        &[
            "decode",
            &model("queens-8.toml"),
            "good.answer",
            "--emitted",
            "q8.cnf",
            "--json",
            "--svg",
            &svg,
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["status"], "feasible");
    assert_eq!(value["proven"], false);
    assert_eq!(value["value"], 8);
    assert_eq!(value["backend"], "sat:answer");
    assert_eq!(value["solution"]["queens"][0], serde_json::json!([0, 0]));
    assert_eq!(value["size"]["unit"], "clauses");
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
}

#[test]
fn maxsat_and_pseudo_boolean_answers_decode_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    emit(dir, "queens-8.toml", "wcnf", &[], "q8.wcnf");
    emit(dir, "queens-8.toml", "opb", &[], "q8.opb");
    let columns = [0, 4, 7, 5, 2, 6, 1, 3];
    let queen = |v: usize| columns[v / 8] == v % 8;
    // The MaxSAT Evaluation's 0/1 string, and PB `v` literals over x1..x64.
    let bits: String = (0..64).map(|v| if queen(v) { '1' } else { '0' }).collect();
    let literals: Vec<String> = (0..64)
        .map(|v| format!("{}x{}", if queen(v) { "" } else { "-" }, v + 1))
        .collect();
    std::fs::write(
        dir.join("q8.maxsat"),
        format!("o 56\ns OPTIMUM FOUND\nv {bits}\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("q8.pb"),
        format!("s OPTIMUM FOUND\nv {}\n", literals.join(" ")),
    )
    .unwrap();
    let expected =
        "8\nQ-------\n----Q---\n-------Q\n-----Q--\n--Q-----\n------Q-\n-Q------\n---Q----\n";
    for (answer, file, words) in [
        (
            "q8.maxsat",
            "q8.wcnf",
            "(MaxSAT answer) satisfies every hard clause of q8.wcnf",
        ),
        (
            "q8.pb",
            "q8.opb",
            "(pseudo-Boolean answer) satisfies every row of q8.opb",
        ),
    ] {
        let run = decode(dir, "queens-8.toml", answer, Some(file));
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(run.stdout, expected);
        assert!(run.stderr.contains(words), "{}", run.stderr);
    }
    let run = decode(dir, "queens-8.toml", "q8.pb", Some("q8.wcnf"));
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            2,
            "error: q8.pb: a pseudo-Boolean answer is for OPB files, but q8.wcnf is a WCNF file\n"
        )
    );
    let run = decode(dir, "queens-8.toml", "q8.maxsat", Some("q8.opb"));
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            2,
            "error: q8.maxsat: a MaxSAT answer is for WCNF files, but q8.opb is an OPB file\n"
        )
    );
    // A `* var` line of the OPB file out of order: the error names its line in the file.
    let opb = std::fs::read_to_string(dir.join("q8.opb")).unwrap();
    let line = opb.lines().position(|l| l.starts_with("* var 3 ")).unwrap() + 1;
    std::fs::write(
        dir.join("swapped.opb"),
        opb.replacen("* var 3 ", "* var 4 ", 1),
    )
    .unwrap();
    let run = decode(dir, "queens-8.toml", "q8.pb", Some("swapped.opb"));
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.ends_with(&format!(
            "line {line}: variable 4 named out of order (expected 3)\n"
        )),
        "{}",
        run.stderr
    );
    // A row broken off before its `;`, and a variable that no answer's `xN` can give: each
    // refused by the one OPB reader, the first with its line.
    let last = opb.lines().count();
    std::fs::write(dir.join("cut.opb"), opb.trim_end().trim_end_matches(';')).unwrap();
    let run = decode(dir, "queens-8.toml", "q8.pb", Some("cut.opb"));
    let expected = format!(
        "error: cut.opb: line {last}: the file ends where `;` after a constraint should follow\n"
    );
    assert_eq!((run.code, run.stderr), (2, expected));
    std::fs::write(dir.join("named.opb"), opb.replace(" x64 ", " y64 ")).unwrap();
    let run = decode(dir, "queens-8.toml", "q8.pb", Some("named.opb"));
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            2,
            "error: named.opb: variable y64 is not one of x1 .. x64\n"
        )
    );
}
