//! The friendlier CLI: `models`, `explain`, `--color`, shell completions and the man page.

use crate::common;

use common::{models, puzzlec};

const ESC: char = '\u{1b}';

#[test]
fn models_lists_every_shipped_model_with_its_description() {
    let run = puzzlec(&models(), &["models", "."]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let shipped: Vec<_> = std::fs::read_dir(models())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    assert_eq!(run.stdout.lines().count(), shipped.len());
    for path in shipped {
        let table: toml::Table = std::fs::read_to_string(&path).unwrap().parse().unwrap();
        let description = table["description"]
            .as_str()
            .expect("every shipped model has a description");
        let name = path.file_name().unwrap().to_str().unwrap();
        let line = run
            .stdout
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{name} listed"));
        assert!(line.ends_with(description), "{line}");
    }
}

#[test]
fn models_shows_a_bad_file_without_hiding_the_others() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a-good.toml"),
        "kind = \"queens\"\ndescription = \"tiny\"\nsize = 4\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("b-bad.toml"),
        "kind = \"queens\"\nsize = 99\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("c-plain.toml"),
        "kind = \"queens\"\nsize = 5\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not a model").unwrap();
    let run = puzzlec(dir.path(), &["models", "."]);
    assert_eq!(run.code, 2, "a bad file makes the exit code say so");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", run.stdout);
    assert!(lines[0].starts_with("a-good.toml") && lines[0].ends_with("tiny"));
    assert!(lines[1].starts_with("b-bad.toml"));
    assert!(
        lines[1].contains("error: line 2: `size` is 99"),
        "{}",
        lines[1]
    );
    assert!(lines[2].ends_with("(no description)"));
}

#[test]
fn models_of_a_missing_folder_is_one_error_line() {
    let run = puzzlec(&models(), &["models", "no-such-folder"]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr, "error: no-such-folder: no such folder\n");
}

#[test]
fn explain_gives_the_contest_board_sizes() {
    let run = puzzlec(&models(), &["explain", "obstacle-queens.toml"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let line = |start: &str| {
        run.stdout
            .lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("a `{start}` line in\n{}", run.stdout))
            .to_string()
    };
    // 178 free cells, one variable each; 22 column segments bound the objective.
    assert_eq!(line("variables"), "variables    178");
    assert!(line("objective").contains("178 literals, partitioned into 22 at-most-one groups"));
    assert!(line("constraints").contains("at-most-one"));
    assert!(line("CNF").starts_with("CNF          "));
    assert!(line("LP").starts_with("LP           178 binary columns"));
    // The CNF is the one the emitted DIMACS has.
    let dimacs = puzzlec(
        &models(),
        &["emit", "obstacle-queens.toml", "--format", "dimacs"],
    );
    let header = dimacs
        .stdout
        .lines()
        .find(|l| l.starts_with("p cnf "))
        .unwrap();
    let numbers: Vec<&str> = header.split_whitespace().skip(2).collect();
    let cnf = line("CNF");
    assert!(
        cnf.contains(&format!("{} variables", numbers[0]))
            && cnf.contains(&format!("{} clauses", numbers[1])),
        "{cnf} vs {header}"
    );
}

#[test]
fn explain_of_a_bad_model_is_one_error_line() {
    let run = puzzlec(&models(), &["explain", "missing.toml"]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr.lines().count(), 1);
    assert!(run.stderr.starts_with("error: missing.toml: "));
}

#[test]
fn color_always_highlights_queens_and_never_or_a_pipe_stays_plain() {
    let plain = puzzlec(&models(), &["solve", "queens-8.toml"]);
    assert!(
        !plain.stdout.contains(ESC),
        "a pipe gets plain text by default"
    );
    let never = puzzlec(&models(), &["--color", "never", "solve", "queens-8.toml"]);
    assert_eq!(never.stdout, plain.stdout);
    // The flag is global: it may follow the subcommand too.
    let always = puzzlec(&models(), &["solve", "queens-8.toml", "--color", "always"]);
    assert_eq!(always.code, 0, "{}", always.stderr);
    assert_eq!(puzzlec::report::color::strip(&always.stdout), plain.stdout);
    let highlighted = always.stdout.matches(&format!("Q{ESC}[0m")).count();
    assert_eq!(highlighted, 8);
    // JSON is never coloured.
    let json = puzzlec(
        &models(),
        &["solve", "queens-8.toml", "--json", "--color", "always"],
    );
    assert!(!json.stdout.contains(ESC));
}

#[test]
fn a_bad_color_value_is_a_usage_error() {
    let run = puzzlec(
        &models(),
        &["--color", "sometimes", "solve", "queens-8.toml"],
    );
    assert_eq!(run.code, 2);
    assert!(run.stderr.starts_with("error: "), "{}", run.stderr);
}

#[test]
fn completions_cover_every_subcommand() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let run = puzzlec(&models(), &["completions", shell]);
        assert_eq!(run.code, 0, "{shell}: {}", run.stderr);
        for word in [
            "solve", "emit", "compare", "models", "explain", "svg", "color",
        ] {
            assert!(run.stdout.contains(word), "{shell} completion lacks {word}");
        }
    }
    let bad = puzzlec(&models(), &["completions", "cmd.exe"]);
    assert_eq!(bad.code, 2);
}

#[test]
fn man_page_is_roff_naming_the_commands() {
    let run = puzzlec(&models(), &["man"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(".TH puzzlec 1"),
        "{}",
        &run.stdout[..200]
    );
    assert!(run.stdout.contains(".SH SUBCOMMANDS") || run.stdout.contains("puzzlec\\-solve"));
    assert!(run.stdout.contains("explain"));
    let dir = tempfile::tempdir().unwrap();
    let written = puzzlec(dir.path(), &["man", "-o", "puzzlec.1"]);
    assert_eq!(written.code, 0);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("puzzlec.1")).unwrap(),
        run.stdout
    );
    let pages = puzzlec(dir.path(), &["man", "--dir", "."]);
    assert_eq!(pages.code, 0, "{}", pages.stderr);
    for name in ["puzzlec", "puzzlec-solve", "puzzlec-explain", "puzzlec-man"] {
        let page = std::fs::read_to_string(dir.path().join(format!("{name}.1")))
            .unwrap_or_else(|e| panic!("{name}.1: {e}"));
        assert!(page.contains(&format!(".TH {name} 1")), "{name}");
    }
    let nowhere = puzzlec(dir.path(), &["man", "--dir", "no/such"]);
    assert_eq!(nowhere.code, 2);
    assert!(nowhere
        .stderr
        .starts_with("error: cannot write man pages into no/such"));
}
