use super::*;
use crate::base::Control;
use crate::formats::minizinc::{is_answer, read_answer, read_file, MznFile, MznStatus};
use crate::formats::ReadError;
use crate::model::{Constraint, Lit, Objective};

fn sample() -> Model {
    let mut m = Model::new();
    let l: Vec<Lit> = ["q[0,0]", "q[1,0]", "int", "objective", "x"]
        .iter()
        .map(|n| m.new_var(n.to_string()).positive())
        .collect();
    m.add(Constraint::AtMostOne(vec![l[0], l[1], !l[2]]));
    m.add(Constraint::ExactlyOne(vec![l[2], l[3]]));
    m.add(Constraint::AtLeast(vec![l[0], l[3], !l[4]], 2));
    m.add(Constraint::AtLeastAsMany {
        first: vec![l[0]],
        second: vec![l[1], !l[4]],
    });
    m.objective = Some(Objective {
        lits: vec![l[0], l[1], !l[4]],
        amo_groups: None,
    });
    m
}

fn text(model: &Model, dialect: Dialect, at_least: Option<usize>) -> String {
    let mut out = Vec::new();
    write(
        model,
        at_least,
        dialect,
        &["hello".into()],
        &mut out,
        &Control::unlimited(),
    )
    .unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn keywords_are_not_identifiers() {
    let names: Vec<String> = ["int", "objective", "q[1]", "x_int", "sum"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(
        mzn_names(&names),
        vec!["x_int", "x_objective", "q_1", "x_int_2", "x_sum"]
    );
}

#[test]
fn both_dialects_read_back_as_the_rows_of_the_lp_file() {
    let model = sample();
    for at_least in [None, Some(2)] {
        let lp = LinearProgram::from_model(&model, at_least);
        for dialect in [Dialect::MiniZinc, Dialect::FlatZinc] {
            let written = text(&model, dialect, at_least);
            let file = read_file(&written).unwrap();
            assert_eq!(file.dialect, dialect, "{written}");
            assert_eq!(file.names, model.names(), "{written}");
            assert_eq!(file.program.rows.len(), lp.rows.len(), "{written}");
            for (read, expected) in file.program.rows.iter().zip(&lp.rows) {
                // Every 0-1 point agrees (the forms may differ by a factor of -1).
                for bits in 0u32..32 {
                    let values: Vec<bool> = (0..5).map(|i| bits >> i & 1 == 1).collect();
                    assert_eq!(
                        read.holds_at(read.lhs(&values)),
                        expected.holds_at(expected.lhs(&values)),
                        "{dialect:?} row {} at {bits:05b}\n{written}",
                        expected.name
                    );
                }
            }
            assert_eq!(file.program.objective, lp.objective, "{written}");
            assert_eq!(file.program.objective_offset, lp.objective_offset);
        }
    }
}

#[test]
fn the_minizinc_file_reads_as_written() {
    let written = text(&sample(), Dialect::MiniZinc, None);
    assert!(written.starts_with("% hello\n"), "{written}");
    // q[0,0] and q[1,0] are an array; the other names fit none.
    assert!(
        written.contains("\narray[0..1, 0..0] of var 0..1: q;\nvar 0..1: x_int;  % int\n"),
        "{written}"
    );
    assert!(
        written.contains("% 3 model variables whose names fit no array are single"),
        "{written}"
    );
    assert!(
        written.contains("constraint q[0,0] + q[1,0] - x_int <= 0;  % c1: at-most-one\n"),
        "{written}"
    );
    assert!(
        written.contains("var 0..3: objective = 1 + sum(q) - x;\n"),
        "{written}"
    );
    // The search: the objective's positive terms (x counts negated), both in rows of
    // three, tried at 1 first.
    assert!(
        written.contains(
            "% search: the objective's variables, those of the smallest rows first, each tried \
             at 1 first\nsolve :: int_search([\n  q[0,0], q[1,0],\n], input_order, \
             indomain_max) maximize objective;\n"
        ),
        "{written}"
    );
    assert!(
        written.contains("  \"q_0_0 = \", show(q[0,0]), \";\\n\",\n"),
        "{written}"
    );
    assert!(
        written.contains("  \"x_int = \", show(x_int), \";\\n\",\n"),
        "{written}"
    );
    let decision = text(&sample(), Dialect::MiniZinc, Some(2));
    assert!(decision.contains("constraint objective >= 2;  % at_least\n"));
    assert!(decision.contains("], input_order, indomain_max) satisfy;\n"));
    let flat = text(&sample(), Dialect::FlatZinc, None);
    assert!(
        flat.contains(
            "  q_0_0, q_1_0,\n], input_order, indomain_max, complete) maximize objective;\n"
        ),
        "{flat}"
    );
}

/// A model of the given variable names, one at-most-one row over all of them, the
/// objective their count.
fn named(names: &[String]) -> Model {
    let mut m = Model::new();
    let lits: Vec<Lit> = names
        .iter()
        .map(|n| m.new_var(n.clone()).positive())
        .collect();
    m.add(Constraint::AtMostOne(lits.clone()));
    m.objective = Some(Objective {
        lits,
        amo_groups: None,
    });
    m
}

/// Reads `written` back and checks its names and its row against `model`.
fn reads_back(model: &Model, written: &str) -> MznFile {
    let file = read_file(written).unwrap();
    assert_eq!(file.names, model.names(), "{written}");
    assert_eq!(file.idents, mzn_names(model.names()), "{written}");
    let lp = LinearProgram::from_model(model, None);
    assert_eq!(file.program.rows, lp.rows, "{written}");
    let sorted = |terms: &[(f64, usize)]| {
        let mut columns: Vec<usize> = terms.iter().map(|t| t.1).collect();
        columns.sort_unstable();
        columns
    };
    assert_eq!(
        sorted(&file.program.objective),
        sorted(&lp.objective),
        "{written}"
    );
    file
}

#[test]
fn queens_are_an_array_with_the_obstacles_fixed_to_0() {
    // A 3 x 3 board, q[x,y], with an obstacle at (1,1) and (2,1).
    let names: Vec<String> = (0..3)
        .flat_map(|y| (0..3).map(move |x| (x, y)))
        .filter(|&(x, y)| !(y == 1 && x > 0))
        .map(|(x, y)| format!("q[{x},{y}]"))
        .collect();
    let model = named(&names);
    let written = text(&model, Dialect::MiniZinc, None);
    assert!(
        written.contains("\narray[0..2, 0..2] of var 0..1: q;\n"),
        "{written}"
    );
    assert!(
        written.contains("\nconstraint forall(i in 1..2) (q[i,1] = 0);  % not in the model\n"),
        "{written}"
    );
    assert!(
        written.contains("% 2 entries of q are not model variables"),
        "{written}"
    );
    assert!(
        written.contains("\nvar 0..7: objective = sum(q);\n"),
        "{written}"
    );
    assert!(
        written.contains("\nconstraint q[0,0] + q[1,0] + q[2,0] + q[0,1] + "),
        "{written}"
    );
    // The elements read as the model's names; no comment needed.
    assert!(
        written.contains("\n  \"q_2_2 = \", show(q[2,2]), \";\\n\",\n"),
        "{written}"
    );
    assert!(!written.contains("\nvar 0..1:"), "{written}");
    reads_back(&model, &written);
}

#[test]
fn placements_are_an_array_over_an_enum_of_the_pieces() {
    // Piece names may be MiniZinc keywords, start with a digit or hold '-'.
    let mut names: Vec<String> = Vec::new();
    for piece in ["plus", "int", "7", "a-b"] {
        for o in 0..2 {
            for x in 0..3 {
                if piece == "plus" && o == 1 {
                    continue;
                }
                names.push(format!("place[{piece}/{o}@({x},0)]"));
            }
        }
    }
    names.push("odd[1]@(2)".into());
    names.push("plain".into());
    let model = named(&names);
    let written = text(&model, Dialect::MiniZinc, None);
    assert!(
        written.contains("\nenum PLACE_1 = {plus, x_int, x_7, a_b};\n"),
        "{written}"
    );
    assert!(
        written.contains(
            "\narray[PLACE_1, 0..1, 0..2, 0..0] of var 0..1: place;  \
             % the model's place[a/b@(c,d)] is place[a,b,c,d]\n"
        ),
        "{written}"
    );
    assert!(
        written.contains(
            "\nconstraint forall(k in 0..2) (place[plus,1,k,0] = 0);  % not in the model\n"
        ),
        "{written}"
    );
    assert!(
        written.contains(
            "\n  \"place_a_b_1__2_0 = \", show(place[a_b,1,2,0]), \";\\n\",  % place[a-b/1@(2,0)]\n"
        ),
        "{written}"
    );
    // A one-entry array; a name without an index is a scalar.
    assert!(
        written.contains(
            "\narray[1..1, 2..2] of var 0..1: odd;  % the model's odd[a]@(b) is odd[a,b]\n"
        ),
        "{written}"
    );
    assert!(
        written.contains("\nvar 0..1: plain;  % plain\n"),
        "{written}"
    );
    assert!(
        written.contains("objective = sum(place) + sum(odd) + plain;\n"),
        "{written}"
    );
    reads_back(&model, &written);
}

#[test]
fn flatzinc_prints_the_arrays_and_both_files_read_their_entries_alike() {
    let names: Vec<String> = (0..3)
        .flat_map(|y| (0..3).map(move |x| (x, y)))
        .filter(|&(x, y)| !(y == 1 && x > 0))
        .map(|(x, y)| format!("q[{x},{y}]"))
        .chain(["place[int/0@(1,2)]".into(), "place[a-b/0@(1,2)]".into()])
        .chain(["plain".into()])
        .collect();
    let model = named(&names);
    let fzn = text(&model, Dialect::FlatZinc, None);
    // Scalars, the array's printed by the array, the others one by one.
    assert!(fzn.contains("\nvar 0..1: q_0_0;  % q[0,0]\n"), "{fzn}");
    assert!(
        fzn.contains("\nvar 0..1: plain :: output_var;  % plain\n"),
        "{fzn}"
    );
    assert!(
        fzn.contains(
            "\narray [1..9] of var int: q :: output_array([0..2,0..2]) = \
             [q_0_0,q_0_1,q_0_2,q_1_0,0,q_1_2,q_2_0,0,q_2_2];\n"
        ),
        "{fzn}"
    );
    assert!(
        fzn.contains(
            "\narray [1..2] of var int: place :: output_array([1..2,0..0,1..1,2..2]) = \
             [place_int_0__1_2,place_a_b_0__1_2];\n"
        ),
        "{fzn}"
    );
    let mzn = text(&model, Dialect::MiniZinc, None);
    let (from_fzn, from_mzn) = (reads_back(&model, &fzn), reads_back(&model, &mzn));
    assert_eq!(from_fzn.aliases, from_mzn.aliases);
    let aliases = from_mzn.aliases;
    assert_eq!(aliases.len(), 9 + 2);
    assert_eq!(aliases["q[1,1]"], None);
    assert_eq!(aliases["q[0,1]"], Some(3));
    assert_eq!(aliases["place[2,0,1,2]"], Some(8));
    // What fzn-gecode prints, read as those entries.
    let answer = "q = array2d(0..2, 0..2, [1, 0, 0, 0, 0, 0, 0, 0, 1]);\n\
                  place = array4d(1..2, 0..0, 1..1, 2..2, [0, 1]);\nplain = 0;\n----------\n";
    let MznStatus::Solution { values, complete } = read_answer(answer).unwrap() else {
        panic!("{answer}");
    };
    assert!(!complete);
    assert_eq!(values.len(), 9 + 2 + 1);
    assert_eq!(values[0], ("q[0,0]".into(), "1".into()));
    assert_eq!(values[8], ("q[2,2]".into(), "1".into()));
    assert_eq!(values[10], ("place[2,0,1,2]".into(), "1".into()));
    assert!(is_answer("q = array1d(1..2, [1, 0]);\n"));
    // A count that does not fill the ranges is no answer.
    assert_eq!(
        read_answer("q = array1d(1..3, [1, 0]);\n----------\n")
            .unwrap_err()
            .to_string(),
        "line 1: \"q = array1d(1..3, [1, 0]);\" is not `name = value;`"
    );
}

#[test]
fn arrays_over_the_same_symbols_share_their_enum() {
    let names: Vec<String> = [
        "place[a/0]",
        "place[b/0]",
        "place[b/1]",
        "used[b]",
        "used[a]",
        // Only `a`: another enum would name `a` twice, so a scalar.
        "lone[a]",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let model = named(&names);
    let written = text(&model, Dialect::MiniZinc, None);
    assert_eq!(written.matches("\nenum ").count(), 1, "{written}");
    assert!(written.contains("\nenum PLACE_1 = {a, b};\n"), "{written}");
    assert!(
        written.contains("\narray[PLACE_1] of var 0..1: used;\n"),
        "{written}"
    );
    assert!(
        written.contains("\nvar 0..1: lone_a;  % lone[a]\n"),
        "{written}"
    );
    let fzn = text(&model, Dialect::FlatZinc, None);
    assert_eq!(
        reads_back(&model, &written).aliases,
        reads_back(&model, &fzn).aliases
    );
}

#[test]
fn names_that_fit_no_array_stay_scalars() {
    let names: Vec<String> = [
        // A base that is a keyword.
        "int[1]",
        // An index that is a number in one name and a word in another: an enum, the
        // number as a word.
        "s[a]", "s[1]", // A name clash: the array `t` and the scalar `t`.
        "t[1]", "t", // Far apart: a box of 1001 entries for two variables.
        "u[0]", "u[1000]",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let model = named(&names);
    let written = text(&model, Dialect::MiniZinc, None);
    assert_eq!(written.matches("array[").count(), 1, "{written}");
    assert!(
        written.contains("\nenum S_1 = {a, x_1};\narray[S_1] of var 0..1: s;\n"),
        "{written}"
    );
    for scalar in [
        "int_1;  % int[1]",
        "t_1;  % t[1]",
        "t;  % t",
        "u_1000;  % u[1000]",
    ] {
        assert!(
            written.contains(&format!("\nvar 0..1: {scalar}\n")),
            "{written}"
        );
    }
    reads_back(&model, &written);
    // The same with an array `s` of words alone, whose enum and array names are
    // taken by scalars.
    let names: Vec<String> = ["s[a]", "s[b]", "S_1", "a"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let model = named(&names);
    let written = text(&model, Dialect::MiniZinc, None);
    assert!(!written.contains("array["), "{written}");
    reads_back(&model, &written);
}

#[test]
fn the_scalar_form_of_earlier_files_still_reads() {
    let written =
        "% MiniZinc: every model variable is a `var 0..1`, its model name in the comment after it
var 0..1: q_0_0;  % q[0,0]
var 0..1: q_1_0;  % q[1,0]
var 0..2: objective = q_0_0 + q_1_0;
constraint q_0_0 + q_1_0 <= 1;  % c1: at-most-one
solve maximize objective;
output [
  \"q_0_0 = \", show(q_0_0), \";\\n\",
  \"q_1_0 = \", show(q_1_0), \";\\n\",
];
";
    let model = named(&["q[0,0]".to_string(), "q[1,0]".to_string()]);
    reads_back(&model, written);
}

#[test]
fn tampered_files_are_refused_by_line() {
    let names: Vec<String> = ["q[0]", "q[1]", "x"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let written = text(&named(&names), Dialect::MiniZinc, None);
    let error = |text: &str| read_file(text).unwrap_err().to_string();
    let twice = written.replacen(
        "  \"q_1 = \", show(q[1]), \";\\n\",\n",
        "  \"q_1 = \", show(q[1]), \";\\n\",\n  \"q_1 = \", show(q[0]), \";\\n\",\n",
        1,
    );
    assert!(
        error(&twice).ends_with("variable q_1 printed twice"),
        "{}",
        error(&twice)
    );
    let undeclared = written.replacen("show(q[1])", "show(r[1])", 1);
    assert!(
        error(&undeclared).ends_with("r[1] is not a declared variable"),
        "{}",
        error(&undeclared)
    );
    let unprinted = written.replacen("  \"x = \", show(x), \";\\n\",\n", "", 1);
    assert_eq!(
        error(&unprinted),
        read_file_error("variable x is not in the output item")
    );
    let unknown = written.replacen("q[0] + q[1]", "q[0] + q[2]", 1);
    assert!(
        error(&unknown).ends_with("undeclared variable \"q[2]\""),
        "{}",
        error(&unknown)
    );
}

#[test]
fn boxes_larger_than_the_writer_makes_are_refused_by_line() {
    let names: Vec<String> = ["q[0]", "q[1]", "x"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let model = named(&names);
    let error = |text: &str| read_file(text).unwrap_err().to_string();
    let line_of = |text: &str, what: &str| {
        1 + text
            .lines()
            .position(|l| l.contains(what))
            .unwrap_or_else(|| panic!("{what} in {text}"))
    };
    // The .mzn declaration and FlatZinc's output_array alike: too many entries, and more
    // than can be counted.
    for (dialect, marker, box_of) in [
        (Dialect::MiniZinc, "] of var 0..1: q;", "array[{}]"),
        (Dialect::FlatZinc, ":: output_array([", "output_array([{}])"),
    ] {
        let written = text(&model, dialect, None);
        let at = line_of(&written, marker);
        let boxed = |ranges: &str| box_of.replace("{}", ranges);
        let huge = written.replacen(&boxed("0..1"), &boxed("0..999999999999"), 1);
        assert_eq!(
            error(&huge),
            format!(
                "line {at}: array q has 1000000000000 entries, more than the 288 of an array \
                 of 2 variables (16 per variable plus 256)"
            )
        );
        let past = written.replacen(
            &boxed("0..1"),
            &boxed("0..999999999999,0..999999999999,0..999999999999"),
            1,
        );
        assert_eq!(
            error(&past),
            format!("line {at}: array q has more entries than can be counted")
        );
    }
    // Within the box's bound, but names long out of proportion to the file.
    let written = text(&model, Dialect::MiniZinc, None);
    let at = line_of(&written, "] of var 0..1: q;");
    let long = written.replacen(
        "array[0..1]",
        &format!("array[0..287{}]", ", 0..0".repeat(10_000)),
        1,
    );
    let bytes: usize = (0..288)
        .map(|i| format!("q[{i}{}]", ",0".repeat(10_000)).len())
        .sum();
    assert_eq!(
        error(&long),
        format!(
            "line {at}: the entry names of the arrays up to q would take {bytes} bytes, \
             more than 32 per byte of the file ({} bytes)",
            long.len()
        )
    );
    // An answer's array: as many entries as values, and names in proportion to the line.
    let answer = format!(
        "q = array2000d(0..199{}, [{}]);\n----------\n",
        ", 0..0".repeat(1999),
        vec!["0"; 200].join(", ")
    );
    let bytes: usize = (0..200)
        .map(|i| format!("q[{i}{}]", ",0".repeat(1999)).len())
        .sum();
    assert_eq!(
        read_answer(&answer).unwrap_err().to_string(),
        format!(
            "line 1: the entry names of array q would take {bytes} bytes, more than 32 per \
             byte of the line ({} bytes)",
            answer.lines().next().unwrap().len()
        )
    );
    assert_eq!(
        read_answer("q = array1d(0..999999999999, [1, 0]);\n----------\n")
            .unwrap_err()
            .to_string(),
        "line 1: \"q = array1d(0..999999999999, [1, 0]);\" is not `name = value;`"
    );
}

fn read_file_error(message: &str) -> String {
    ReadError::File(message.to_string()).to_string()
}

#[test]
fn files_without_variables_read_back() {
    let mut model = Model::new();
    model.objective = Some(Objective {
        lits: Vec::new(),
        amo_groups: None,
    });
    for dialect in [Dialect::MiniZinc, Dialect::FlatZinc] {
        let written = text(&model, dialect, None);
        let file = read_file(&written).unwrap();
        assert_eq!(file.dialect, dialect, "{written}");
        assert!(file.idents.is_empty() && file.program.rows.is_empty());
    }
}
