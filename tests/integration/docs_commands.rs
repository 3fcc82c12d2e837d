//! The commands shown in the README and the guide run as shown: every ```console block of
//! `README.md` and `docs/*.md` is run, each `$ ` line by `sh` in a fresh folder that has the
//! repository's `models/`, with the `puzzlec` under test first on PATH, and what it prints
//! (stdout and stderr, in order) is compared with the lines shown after it. Times and node
//! counts are masked; a line `...` stands for any number of lines. Their relative links
//! lead to files that exist.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One command of a console block and the output shown for it.
struct Shown {
    command: String,
    output: Vec<String>,
}

/// The ```console blocks of a Markdown text, each as its commands.
fn console_blocks(text: &str) -> Vec<Vec<Shown>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<Shown>> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        match &mut current {
            None if trimmed == "```console" => current = Some(Vec::new()),
            None => {}
            Some(_) if trimmed.starts_with("```") => blocks.push(current.take().unwrap()),
            Some(block) => match trimmed.strip_prefix("$ ") {
                Some(command) => block.push(Shown {
                    command: command.to_string(),
                    output: Vec::new(),
                }),
                None => block
                    .last_mut()
                    .expect("a console block starts with a `$ ` command")
                    .output
                    .push(trimmed.to_string()),
            },
        }
    }
    assert!(current.is_none(), "an unclosed console block");
    blocks
}

/// Masks what varies from run to run: times, search-node counts, and a portfolio's note on
/// what its other member had reached when the winner answered (whether SAT had joined a
/// native search yet depends on the machine's load).
fn masked(line: &str) -> String {
    let line = line.split(" (portfolio: ").next().unwrap_or(line);
    let mut out = String::new();
    let words: Vec<&str> = line.split(' ').collect();
    for (i, word) in words.iter().enumerate() {
        let next = words.get(i + 1).copied().unwrap_or("");
        let number = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_digit() || c == '.');
        let unit = |w: &str| {
            let w = w.trim_end_matches([',', ';', ')', ':']);
            w == "s" || w == "ms" || w == "nodes"
        };
        let w = word.trim_start_matches('(');
        if number(w) && unit(next) {
            out.push_str(&word.replace(w, "<n>"));
        } else {
            out.push_str(word);
        }
        out.push(' ');
    }
    out.pop();
    out
}

/// Whether one printed line matches one shown line: equal once masked, or, for a shown line
/// that ends in `...`, beginning with what it shows before them.
fn line_matches(shown: &str, line: &str) -> bool {
    let (shown, line) = (masked(shown), masked(line));
    match shown.strip_suffix("...") {
        Some(prefix) => line.starts_with(prefix),
        None => shown == line,
    }
}

/// Whether `found` matches `shown`, where a shown line `...` matches any run of lines.
fn matches(shown: &[String], found: &[String]) -> bool {
    match shown.split_first() {
        None => found.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=found.len()).any(|skip| matches(rest, &found[skip..]))
        }
        Some((first, rest)) => found
            .split_first()
            .is_some_and(|(line, more)| line_matches(first, line) && matches(rest, more)),
    }
}

/// External programs a shown command may run (program, Debian package): a block that
/// needs a missing one is skipped, saying so.
const EXTERNAL: [(&str, &str); 7] = [
    ("cadical", "cadical"),
    ("minisat", "minisat"),
    ("cryptominisat5", "cryptominisat"),
    ("cbc", "coinor-cbc"),
    ("glpsol", "glpk-utils"),
    ("minizinc", "minizinc"),
    ("fzn-gecode", "flatzinc"),
];

/// The Markdown files whose console blocks are run.
fn documents() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

#[test]
fn every_console_block_runs_as_shown() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = crate::common::path_with_puzzlec();
    let mut ran = 0;
    let mut failures: Vec<String> = Vec::new();
    for document in documents() {
        let text = fs::read_to_string(&document).unwrap();
        let name = document.strip_prefix(root).unwrap().display().to_string();
        for block in console_blocks(&text) {
            let tmp = tempfile::tempdir().unwrap();
            std::os::unix::fs::symlink(root.join("models"), tmp.path().join("models")).unwrap();
            let needs: Vec<(&str, &str)> = EXTERNAL
                .iter()
                .copied()
                .filter(|(program, _)| block.iter().any(|s| s.command.contains(program)))
                .collect();
            if !crate::common::programs_or_skip(&format!("{}: {name}", module_path!()), &needs) {
                continue;
            }
            for shown in block {
                let output = Command::new("sh")
                    .arg("-c")
                    .arg(format!("(\n{}\n) 2>&1", shown.command))
                    .current_dir(tmp.path())
                    .env("PATH", &path)
                    .env("NO_COLOR", "1")
                    .output()
                    .unwrap();
                // A packing search that outlives a second prints progress notes, which a
                // busy machine (the tests run side by side) brings about in the debug build;
                // they are not part of what the documents show.
                let found: Vec<String> = String::from_utf8_lossy(&output.stdout)
                    .lines()
                    .filter(|line| !line.starts_with("packing: pieces starting at "))
                    .map(str::to_string)
                    .collect();
                if !matches(&shown.output, &found) {
                    failures.push(format!(
                        "{name}: `$ {}` printed\n{}\nbut the document shows\n{}",
                        shown.command,
                        found.join("\n"),
                        shown.output.join("\n")
                    ));
                }
                ran += 1;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(ran >= 8, "only {ran} commands found in console blocks");
}

/// The targets of the Markdown links in `text` (inline `[text](target)`, images, and
/// reference definitions `[label]: target`), outside code blocks and code spans, each with
/// its line number.
fn link_targets(text: &str) -> Vec<(usize, String)> {
    let mut targets = Vec::new();
    let mut in_code_block = false;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_code_block = !in_code_block;
            continue;
        }
        if in_code_block {
            continue;
        }
        // Code spans show link syntax without being links.
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, part)| part)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            let target = rest[..end].trim().trim_start_matches('<');
            let target = target.split([' ', '>']).next().unwrap_or("");
            targets.push((index + 1, target.to_string()));
        }
        if let Some(definition) = prose.trim_start().strip_prefix('[') {
            if let Some((_, target)) = definition.split_once("]:") {
                let target = target.split_whitespace().next().unwrap_or("");
                targets.push((index + 1, target.trim_matches(['<', '>']).to_string()));
            }
        }
    }
    targets
}

/// The relative links of `text` (the Markdown file `document`) that lead to no file, with
/// their line numbers: web links and links within the page are not checked, and
/// `FILE#anchor` checks FILE.
fn broken_links(document: &Path, text: &str) -> Vec<(usize, String)> {
    let folder = document.parent().unwrap();
    link_targets(text)
        .into_iter()
        .filter(|(_, target)| {
            let web = ["http://", "https://", "mailto:"]
                .iter()
                .any(|scheme| target.starts_with(scheme));
            let file = target.split(['#', '?']).next().unwrap_or("");
            !web && !file.is_empty() && !folder.join(file).exists()
        })
        .collect()
}

#[test]
fn every_relative_link_leads_to_a_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken: Vec<String> = Vec::new();
    for document in documents() {
        let name = document.strip_prefix(root).unwrap().display().to_string();
        let text = fs::read_to_string(&document).unwrap();
        for (line, target) in broken_links(&document, &text) {
            broken.push(format!("{name}:{line}: {target}"));
        }
    }
    assert!(
        broken.is_empty(),
        "links to no file:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_link_check_finds_a_broken_link() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let text = "See [the guide](README.md), [a section](../README.md#families), \
                [the web](https://example.com), [here](#top) and `[code](nowhere.md)`.\n\
                From inside docs/: [schema](docs/json-schema.md#solve).\n\
                ```\n[in a block](nowhere.md)\n```\n\
                [missing]: missing.md\n";
    let broken = broken_links(&docs.join("guide.md"), text);
    assert_eq!(
        broken,
        [
            (2, "docs/json-schema.md#solve".to_string()),
            (6, "missing.md".to_string())
        ]
    );
}

#[test]
fn the_matcher_skips_with_dots_and_masks_times() {
    let lines = |s: &str| s.lines().map(str::to_string).collect::<Vec<_>>();
    assert!(matches(&lines("a\n...\nz"), &lines("a\nb\nc\nz")));
    assert!(matches(&lines("a\n...\nz"), &lines("a\nz")));
    assert!(matches(
        &lines("optimal 9 by sat in 1.0 s: found"),
        &lines("optimal 9 by sat in 2.5 s: found (portfolio: native had found 8)")
    ));
    assert!(!matches(
        &lines("optimal 9 by sat in 1.0 s: found"),
        &lines("optimal 9 by native in 2.5 s: found (portfolio: sat had found 8)")
    ));
    assert!(!matches(&lines("a\nz"), &lines("a\nb\nz")));
    assert!(matches(
        &lines("optimal 20 by sat in 0.004 s: (3009968 nodes)"),
        &lines("optimal 20 by sat in 0.107 s: (3001 nodes)")
    ));
    assert!(!matches(&lines("optimal 20"), &lines("optimal 21")));
    assert!(matches(
        &lines("proved in 0.079 s: varisat ..."),
        &lines("proved in 0.021 s: varisat found")
    ));
    assert!(!matches(
        &lines("proved: minisat ..."),
        &lines("proved: varisat found")
    ));
}
