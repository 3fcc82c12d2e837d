//! Certified counts (`prove --count`): every family's count certified and checked, the
//! classes of `--unique` expanded by `check`, the limit on listed solutions, and tampering
//! caught with a message naming what failed.

use crate::common;
use common::{
    assert_fails, check, edit, edit_unhashed, models, puzzlec, random_board, L_TROMINOES,
};
use std::fs;
use std::path::{Path, PathBuf};

/// `prove MODEL --count [extra] -o TMP/count`, which must succeed; the folder.
fn prove_count(tmp: &Path, model: &Path, extra: &[&str]) -> PathBuf {
    let dir = tmp.join("count");
    let mut args = vec!["prove", model.to_str().unwrap(), "--count"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["-o", dir.to_str().unwrap()]);
    let run = puzzlec(tmp, &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    dir
}

/// Proves the count of `model` and checks it; the last line `check` printed.
fn certified(tmp: &Path, model: &Path, extra: &[&str]) -> String {
    let dir = prove_count(tmp, model, extra);
    let run = check(&dir);
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.stdout.lines().last().unwrap().to_string()
}

/// A model file `name` in `tmp` with `text`.
fn model_file(tmp: &Path, name: &str, text: &str) -> PathBuf {
    let path = tmp.join(name);
    fs::write(&path, text).unwrap();
    path
}

#[test]
fn eight_queens_are_certified_with_their_classes() {
    let tmp = tempfile::tempdir().unwrap();
    let model = models().join("queens-8.toml");
    assert_eq!(
        certified(tmp.path(), &model, &[]),
        "certified: model.toml has exactly 92 solutions of value 8 (the optimum)"
    );
    let tmp = tempfile::tempdir().unwrap();
    let dir = prove_count(tmp.path(), &model, &["--unique"]);
    let run = check(&dir);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains(
        "ok: solutions.txt: SHA-256 matches the manifest; 12 class representatives expanded by the 8 symmetries that map the board onto itself into 92 solutions (12 classes: 11 of size 8, 1 of size 4), each verified by the queens rules with value 8, pairwise distinct\n"
    ), "{}", run.stdout);
    assert!(run.stdout.ends_with(
        "certified: model.toml has exactly 92 solutions of value 8 (the optimum); 12 classes: 11 of size 8, 1 of size 4\n"
    ), "{}", run.stdout);
    // The list holds the 12 representatives only; the CNF blocks all 92.
    let listed = fs::read_to_string(dir.join("solutions.txt")).unwrap();
    assert_eq!(listed.lines().filter(|l| !l.starts_with('c')).count(), 12);
}

#[test]
fn empty_boards_of_nine_to_eleven_queens_are_certified() {
    // A000170.
    for (n, count) in [(9, 352), (10, 724), (11, 2680)] {
        let tmp = tempfile::tempdir().unwrap();
        let model = model_file(
            tmp.path(),
            "q.toml",
            &format!("kind = \"queens\"\nsize = {n}\n"),
        );
        assert_eq!(
            certified(tmp.path(), &model, &[]),
            format!(
                "certified: model.toml has exactly {count} solutions of value {n} (the optimum)"
            )
        );
    }
}

#[test]
#[ignore = "about a minute in a debug build; run with --ignored (release: prove 25 s, check 22 s)"]
fn twelve_queens_are_certified() {
    let tmp = tempfile::tempdir().unwrap();
    let model = model_file(tmp.path(), "q.toml", "kind = \"queens\"\nsize = 12\n");
    assert_eq!(
        certified(tmp.path(), &model, &[]),
        "certified: model.toml has exactly 14200 solutions of value 12 (the optimum)"
    );
}

#[test]
fn the_contest_board_has_exactly_5898_optimal_placements() {
    let tmp = tempfile::tempdir().unwrap();
    assert_eq!(
        certified(tmp.path(), &models().join("obstacle-queens.toml"), &[]),
        "certified: model.toml has exactly 5898 solutions of value 20 (the optimum)"
    );
}

#[test]
fn seeded_obstacle_boards_certify_the_native_count() {
    for seed in 0..6 {
        let board = random_board(seed, 6, 7, 0.2).board;
        let rows: Vec<String> = (0..board.height)
            .map(|y| {
                (0..board.width)
                    .map(|x| {
                        if board.free[y * board.width + x] {
                            '-'
                        } else {
                            '*'
                        }
                    })
                    .collect()
            })
            .collect();
        let tmp = tempfile::tempdir().unwrap();
        let model = model_file(
            tmp.path(),
            "board.toml",
            &format!(
                "kind = \"queens\"\nboard = \"\"\"\n{}\n\"\"\"\n",
                rows.join("\n")
            ),
        );
        let native = puzzlec(tmp.path(), &["solve", "board.toml", "--count"]);
        assert_eq!(native.code, 0, "{}", native.stderr);
        let count: u64 = native.stdout.trim().parse().unwrap();
        let last = certified(tmp.path(), &model, &[]);
        assert!(
            last.starts_with(&format!(
                "certified: model.toml has exactly {count} solution"
            )),
            "seed {seed}: native {count}, {last}"
        );
    }
}

#[test]
fn tilings_are_certified_with_their_classes() {
    let tmp = tempfile::tempdir().unwrap();
    let model = model_file(tmp.path(), "l.toml", L_TROMINOES);
    let native = puzzlec(tmp.path(), &["solve", "l.toml", "--count"]);
    assert_eq!(native.code, 0, "{}", native.stderr);
    let count: u64 = native.stdout.trim().parse().unwrap();
    assert_eq!(
        certified(tmp.path(), &model, &[]),
        format!("certified: model.toml has exactly {count} solutions")
    );
    let tmp = tempfile::tempdir().unwrap();
    let model = model_file(tmp.path(), "l.toml", L_TROMINOES);
    let last = certified(tmp.path(), &model, &["--unique"]);
    assert!(
        last.starts_with(&format!(
            "certified: model.toml has exactly {count} solutions; "
        )),
        "{last}"
    );
}

#[test]
fn tilings_with_piece_counts_are_certified_through_their_counters() {
    // Two dominoes exactly and the square at most once in 4 x 2: the search's exclusions by
    // a used-up piece come from the pieces' totalizers.
    let tmp = tempfile::tempdir().unwrap();
    let model = model_file(
        tmp.path(),
        "t.toml",
        "kind = \"packing\"\nwidth = 4\nheight = 2\ngoal = \"tile\"\n\
         [[piece]]\nname = \"D\"\nshape = \"##\"\nexactly = 2\n\
         [[piece]]\nname = \"O\"\nshape = \"\"\"\n##\n##\n\"\"\"\nat_most = 1\n",
    );
    assert_eq!(
        certified(tmp.path(), &model, &[]),
        "certified: model.toml has exactly 5 solutions"
    );
    // Two monominoes exactly and dominoes in 4 x 1: the cover by two dominoes is refuted by
    // the monominoes' minimum.
    let tmp = tempfile::tempdir().unwrap();
    let model = model_file(
        tmp.path(),
        "t.toml",
        "kind = \"packing\"\nwidth = 4\nheight = 1\ngoal = \"tile\"\n\
         [[piece]]\nname = \"M\"\nshape = \"#\"\nexactly = 2\n\
         [[piece]]\nname = \"D\"\nshape = \"##\"\n",
    );
    assert_eq!(
        certified(tmp.path(), &model, &[]),
        "certified: model.toml has exactly 3 solutions"
    );
}

#[test]
fn a_tiling_that_does_not_exist_has_a_certified_count_of_zero() {
    let tmp = tempfile::tempdir().unwrap();
    // The five tetrominoes (20 cells) do not tile 4 x 5.
    let model = model_file(
        tmp.path(),
        "t.toml",
        "kind = \"packing\"\nwidth = 4\nheight = 5\ngoal = \"tile\"\n\
         [[piece]]\nname = \"I\"\nshape = \"####\"\nexactly = 1\n\
         [[piece]]\nname = \"O\"\nshape = \"\"\"\n##\n##\n\"\"\"\nexactly = 1\n\
         [[piece]]\nname = \"T\"\nshape = \"\"\"\n###\n.#.\n\"\"\"\nexactly = 1\n\
         [[piece]]\nname = \"S\"\nshape = \"\"\"\n.##\n##.\n\"\"\"\nexactly = 1\n\
         [[piece]]\nname = \"L\"\nshape = \"\"\"\n#.\n#.\n##\n\"\"\"\nexactly = 1\n",
    );
    assert_eq!(
        certified(tmp.path(), &model, &[]),
        "certified: model.toml has exactly 0 solutions"
    );
}

#[test]
fn the_asahi_shape_has_exactly_one_dissection() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = prove_count(tmp.path(), &models().join("halves-asahi-2005.toml"), &[]);
    let run = check(&dir);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("ok: cuts.txt: SHA-256 matches the manifest; "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .ends_with("certified: model.toml has exactly 1 solution\n"),
        "{}",
        run.stdout
    );
    // --unique is not offered for dissections: bad input.
    let run = puzzlec(
        tmp.path(),
        &[
            "prove",
            models().join("halves-asahi-2005.toml").to_str().unwrap(),
            "--count",
            "--unique",
            "-o",
            tmp.path().join("u").to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .ends_with("--unique is not available for dissections\n"),
        "{}",
        run.stderr
    );
}

#[test]
fn too_many_solutions_are_refused_before_listing() {
    let tmp = tempfile::tempdir().unwrap();
    let model = model_file(tmp.path(), "q.toml", "kind = \"queens\"\nsize = 10\n");
    let run = puzzlec(
        tmp.path(),
        &[
            "prove",
            "q.toml",
            "--count",
            "--max-solutions",
            "700",
            "-o",
            "out",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "error: {}: 724 solutions are too many to certify one by one (the limit is 700, --max-solutions): count them with `puzzlec solve --count` (native) and `--backend sat`, two independent methods, which are not a certificate\n",
            model.file_name().unwrap().to_str().unwrap()
        )
    );
    assert!(!tmp.path().join("out").exists());
}

/// The non-comment lines of the solution file.
fn solution_lines(dir: &Path) -> Vec<String> {
    fs::read_to_string(dir.join("solutions.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('c'))
        .map(str::to_string)
        .collect()
}

/// A copy of the certificate folder `from` at `to`, to tamper with.
fn copy_folder(from: &Path, to: &Path) -> PathBuf {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
    to.to_path_buf()
}

#[test]
fn tampered_count_certificates_are_rejected_naming_what_failed() {
    let tmp = tempfile::tempdir().unwrap();
    let fresh = prove_count(tmp.path(), &models().join("queens-8.toml"), &[]);
    let copy = |name: &str| copy_folder(&fresh, &tmp.path().join(name));
    let lines = solution_lines(&fresh);
    // The list's lines 1-2 are comments: the first solution is on line 3.

    // A solution removed.
    let dir = copy("removed");
    edit(&dir, "solutions.txt", &format!("{}\n", lines[5]), "");
    assert_fails(
        &dir,
        "solutions.txt: 91 solutions listed, but the manifest claims 92",
    );

    // One listed twice (in place of another).
    let dir = copy("twice");
    edit(&dir, "solutions.txt", &lines[1], &lines[0]);
    assert_fails(&dir, "solutions.txt: line 4 repeats a solution of line 3");

    // One that breaks the rules: its second queen moved beside the first, in its row.
    let dir = copy("broken");
    let first = &lines[0];
    let mut tokens: Vec<usize> = first
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    tokens[1] = tokens[0] + 1;
    let moved: Vec<String> = tokens.iter().map(|t| t.to_string()).collect();
    edit(&dir, "solutions.txt", first, &moved.join(" "));
    let run = check(&dir);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stderr
            .starts_with("error: certificate check failed: solutions.txt: line 3: "),
        "{}",
        run.stderr
    );

    // A blocking clause dropped from the CNF (its hash updated).
    let dir = copy("dropped");
    let cnf = fs::read_to_string(dir.join("count.dimacs")).unwrap();
    let last = cnf.lines().last().unwrap().to_string();
    edit(&dir, "count.dimacs", &format!("{last}\n"), "");
    assert_fails(
        &dir,
        &format!("count.dimacs differs from the CNF rebuilt from model.toml and solutions.txt: line {} is missing, expected {last:?}", cnf.lines().count()),
    );

    // The claimed count edited.
    let dir = copy("claim");
    edit_unhashed(&dir, "manifest.json", "\"count\": 92", "\"count\": 93");
    assert_fails(
        &dir,
        "solutions.txt: 92 solutions listed, but the manifest claims 93",
    );

    // Changed without its hash: the manifest's hash catches it first.
    let dir = copy("unhashed");
    edit_unhashed(&dir, "solutions.txt", &lines[0], &lines[1]);
    let run = check(&dir);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .starts_with("error: certificate check failed: solutions.txt: SHA-256 "),
        "{}",
        run.stderr
    );
}

#[test]
fn tampered_classes_are_rejected_naming_what_failed() {
    let tmp = tempfile::tempdir().unwrap();
    let fresh = prove_count(tmp.path(), &models().join("queens-8.toml"), &["--unique"]);
    let lines = solution_lines(&fresh);
    let copy = |name: &str| copy_folder(&fresh, &tmp.path().join(name));
    // A class missing: its representative removed (the first class, of size 8).
    let dir = copy("class-missing");
    edit(&dir, "solutions.txt", &format!("{}\n", lines[0]), "");
    assert_fails(
        &dir,
        "solutions.txt: 84 solutions listed, but the manifest claims 92",
    );
    // A member listed in place of its class's least member.
    let dir = copy("not-least");
    let flipped: Vec<usize> = {
        // The mirror image (x -> 7 - x) of the first representative, as sorted variables.
        let mut v: Vec<usize> = lines[0]
            .split_whitespace()
            .map(|t| t.parse::<usize>().unwrap())
            .filter(|&v| v != 0)
            .map(|v| {
                let (x, y) = ((v - 1) % 8, (v - 1) / 8);
                y * 8 + (7 - x) + 1
            })
            .collect();
        v.sort_unstable();
        v
    };
    let flipped = flipped
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(" ")
        + " 0";
    edit(&dir, "solutions.txt", &lines[0], &flipped);
    assert_fails(
        &dir,
        "solutions.txt: line 4 is not the least member of its class",
    );
    // The class sizes edited.
    let dir = copy("sizes");
    edit_unhashed(&dir, "manifest.json", "\"classes\": 11", "\"classes\": 10");
    assert_fails(
        &dir,
        "solutions.txt: 12 classes: 11 of size 8, 1 of size 4, but the manifest claims 11 classes: 10 of size 8, 1 of size 4",
    );
}

/// The 12 pentominoes in a 3 x 20 box: `models/pentomino-6x10.toml` with the box changed.
fn pentominoes_3x20() -> String {
    let text = fs::read_to_string(models().join("pentomino-6x10.toml")).unwrap();
    text.replace("width = 10\nheight = 6\n", "width = 20\nheight = 3\n")
}

#[test]
fn pentomino_tilings_of_3x20_are_certified_by_the_search_proof() {
    let tmp = tempfile::tempdir().unwrap();
    let model = model_file(tmp.path(), "p.toml", &pentominoes_3x20());
    // 2 tilings up to the box's 4 symmetries, each class of 4.
    let dir = prove_count(tmp.path(), &model, &["--unique"]);
    let run = check(&dir);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout.lines().last().unwrap(),
        "certified: model.toml has exactly 8 solutions; 2 classes: 2 of size 4"
    );
    // The refutation is the exact-cover search's LRAT proof, checked by puzzlec's checker.
    assert!(dir.join("count.lrat").exists());
    assert!(!dir.join("count.drat").exists());
    let manifest = fs::read_to_string(dir.join("manifest.json")).unwrap();
    assert!(
        manifest.contains("puzzlec's exact-cover search refuted"),
        "{manifest}"
    );
    assert!(
        run.stdout
            .contains("count.lrat: refutes count.dimacs (puzzlec's LRAT checker"),
        "{}",
        run.stdout
    );
}

/// The proof's lines: (line number, the clause ID it adds, its hints), additions only.
fn additions(proof: &str) -> Vec<(usize, u64, Vec<u64>)> {
    proof
        .lines()
        .enumerate()
        .filter(|(_, line)| line.split_whitespace().nth(1) != Some("d"))
        .map(|(index, line)| {
            let numbers: Vec<i64> = line
                .split_whitespace()
                .map(|t| t.parse().unwrap())
                .collect();
            let end_of_literals = 1 + numbers[1..].iter().position(|&n| n == 0).unwrap();
            let hints = numbers[end_of_literals + 1..numbers.len() - 1]
                .iter()
                .map(|&h| h as u64)
                .collect();
            (index + 1, numbers[0] as u64, hints)
        })
        .collect()
}

/// The first addition that names clause `id` among its hints: its line and its own ID.
fn first_use(proof: &str, id: u64) -> (usize, u64) {
    additions(proof)
        .into_iter()
        .find(|(_, _, hints)| hints.contains(&id))
        .map(|(line, own, _)| (line, own))
        .unwrap()
}

#[test]
fn tampered_tiling_proofs_are_rejected_at_the_step_that_fails() {
    let tmp = tempfile::tempdir().unwrap();
    let model = model_file(tmp.path(), "p.toml", &pentominoes_3x20());
    let fresh = prove_count(tmp.path(), &model, &[]);
    let copy = |name: &str| copy_folder(&fresh, &tmp.path().join(name));
    let proof = fs::read_to_string(fresh.join("count.lrat")).unwrap();
    let lines: Vec<&str> = proof.lines().collect();
    let refused = "count.lrat does not refute count.dimacs (puzzlec's LRAT checker)";

    // A lemma removed: the first step that named it refers to nothing.
    let dir = copy("lemma-removed");
    let (removed_line, removed, _) = additions(&proof)[0].clone();
    edit(
        &dir,
        "count.lrat",
        &format!("{}\n", lines[removed_line - 1]),
        "",
    );
    let (line, clause) = first_use(&proof, removed);
    assert_fails(
        &dir,
        &format!(
            "{refused}: line {}: clause {clause}: hint {removed} refers to a deleted or unknown clause",
            line - 1
        ),
    );

    // A hint changed: a node's lemma loses the clause its conflict is on, which becomes the
    // item's first exclusion again.
    let dir = copy("hint-changed");
    let is_node_lemma = |line: &str| {
        let literals: Vec<&str> = line
            .split(" 0 ")
            .next()
            .unwrap()
            .split(' ')
            .skip(1)
            .collect();
        literals.len() >= 3 && literals.iter().all(|l| l.starts_with('-'))
    };
    let (line, clause, hints) = additions(&proof)
        .into_iter()
        .find(|(line, _, hints)| hints.len() >= 3 && is_node_lemma(lines[line - 1]))
        .unwrap();
    let original = lines[line - 1];
    let last = hints.last().unwrap();
    let tampered = format!(
        "{} {} 0\n",
        original.trim_end_matches(&format!(" {last} 0")),
        hints[0]
    );
    edit(&dir, "count.lrat", &format!("{original}\n"), &tampered);
    let run = check(&dir);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stderr.starts_with(&format!(
            "error: certificate check failed: {refused}: line {line}: clause {clause}: hint {} is not unit",
            hints[0]
        )),
        "{}",
        run.stderr
    );

    // A listed tiling dropped, with the claim, the list and the CNF made to agree: the proof
    // still names its blocking clause, which is no longer there.
    let dir = copy("tiling-dropped");
    let solutions = fs::read_to_string(dir.join("solutions.txt")).unwrap();
    let last_solution = solutions.lines().last().unwrap();
    edit(&dir, "solutions.txt", &format!("{last_solution}\n"), "");
    let cnf = fs::read_to_string(dir.join("count.dimacs")).unwrap();
    let clauses = cnf.lines().filter(|l| !l.starts_with(['c', 'p'])).count() as u64;
    let last_clause = cnf.lines().last().unwrap();
    edit(&dir, "count.dimacs", &format!("{last_clause}\n"), "");
    let header = cnf.lines().find(|l| l.starts_with("p cnf")).unwrap();
    edit(
        &dir,
        "count.dimacs",
        header,
        &header.replace(&format!(" {clauses}"), &format!(" {}", clauses - 1)),
    );
    for (from, to) in [
        ("none of the 8 listed", "none of the 7 listed"),
        ("the last 8 clauses", "the last 7 clauses"),
    ] {
        edit(&dir, "count.dimacs", from, to);
    }
    edit_unhashed(&dir, "manifest.json", "\"count\": 8", "\"count\": 7");
    edit_unhashed(
        &dir,
        "manifest.json",
        "none of the 8 listed",
        "none of the 7 listed",
    );
    edit_unhashed(
        &dir,
        "manifest.json",
        &format!("\"clauses\": {clauses}"),
        &format!("\"clauses\": {}", clauses - 1),
    );
    let (line, clause) = first_use(&proof, clauses);
    assert_fails(
        &dir,
        &format!(
            "{refused}: line {line}: clause {clause}: hint {clauses} refers to a deleted or unknown clause"
        ),
    );
}
