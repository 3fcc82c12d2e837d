//! The crate's layers import only downward. This test reads every `crate::` path in `src/`
//! (outside comments) and fails on an import that runs against the layering, on a cycle
//! between top-level modules, on a file format that imports anything of the crate, and on a
//! proof checker that imports anything but the formats.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module and the modules it may import. The order is the layering, lowest
/// first: see the crate docs in `src/lib.rs` and the README's architecture section.
const LAYERS: &[(&str, &[&str])] = &[
    ("formats", &[]),
    ("checkers", &["formats"]),
    ("base", &[]),
    ("geometry", &["base"]),
    ("model", &["base"]),
    ("engines", &["geometry", "formats", "base"]),
    ("encode", &["formats", "model", "base"]),
    (
        "oracle",
        &["checkers", "formats", "encode", "model", "base"],
    ),
    ("puzzle", &["model", "geometry", "base"]),
    (
        "driver",
        &[
            "puzzle", "oracle", "engines", "checkers", "formats", "encode", "model", "geometry",
            "base",
        ],
    ),
    (
        "cert",
        &[
            "driver", "puzzle", "oracle", "engines", "checkers", "formats", "encode", "model",
            "geometry", "base",
        ],
    ),
    (
        "report",
        &[
            "cert", "driver", "puzzle", "checkers", "encode", "formats", "model", "geometry",
            "base",
        ],
    ),
];

/// Folders whose files may import nothing of the crate but the modules listed: the file
/// formats import nothing at all, and the proof checkers only the formats (to read CNF), so
/// that a certificate's verdict depends on no solver, encoder or driver code.
const SELF_CONTAINED: &[(&str, &[&str])] = &[
    ("src/formats/", &["formats"]),
    ("src/checkers/", &["formats"]),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules named by `crate::NAME` paths in `source`, outside `//` comments.
fn crate_imports(source: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for line in source.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let before = rest[..at].chars().next_back();
            rest = &rest[at + "crate::".len()..];
            // `$crate::` in macros and identifiers ending in "crate" are not paths of ours.
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
                continue;
            }
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.insert(name);
            }
        }
    }
    found
}

/// Which top-level module `path` (under `src/`) belongs to, or `None` for the crate root
/// and the binary.
fn top_module(root: &Path, path: &Path) -> Option<String> {
    let relative = path.strip_prefix(root).unwrap();
    let first = relative
        .components()
        .next()?
        .as_os_str()
        .to_str()?
        .to_string();
    match first.as_str() {
        "lib.rs" | "bin" => None,
        name => Some(name.trim_end_matches(".rs").to_string()),
    }
}

#[test]
fn layers_import_only_downward() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let allowed: BTreeMap<&str, &[&str]> = LAYERS.iter().copied().collect();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files.sort();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut wrong = Vec::new();
    for file in &files {
        let Some(module) = top_module(&root, file) else {
            continue;
        };
        let Some(may) = allowed.get(module.as_str()) else {
            wrong.push(format!(
                "{}: top-level module `{module}` is not in the layering table",
                file.display()
            ));
            continue;
        };
        let source = std::fs::read_to_string(file).unwrap();
        let shown = file.strip_prefix(root.parent().unwrap()).unwrap().display();
        for import in crate_imports(&source) {
            if import == module {
                continue;
            }
            graph
                .entry(module.clone())
                .or_default()
                .insert(import.clone());
            if !may.contains(&import.as_str()) {
                wrong.push(format!("{shown}: `{module}` imports `{import}`"));
            }
        }
        for &(folder, may_name) in SELF_CONTAINED {
            if !shown.to_string().starts_with(folder) {
                continue;
            }
            // Every `crate::` in the file, comments and all, must name an allowed module.
            let mut rest = source.as_str();
            while let Some(at) = rest.find("crate::") {
                rest = &rest[at + "crate::".len()..];
                if !may_name.iter().any(|name| {
                    rest.strip_prefix(name).is_some_and(|after| {
                        !after.starts_with(|c: char| c.is_alphanumeric() || c == '_')
                    })
                }) {
                    wrong.push(format!(
                        "{shown}: a file under {folder} names `crate::` beyond {may_name:?}"
                    ));
                    break;
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layering:\n{}",
        wrong.join("\n")
    );
    assert_eq!(find_cycle(&graph), None, "import cycle between modules");
}

/// The sibling modules of a folder that `source` names: paths `super::NAME`, `crate::FOLDER::NAME`
/// (with `folder` as `crate::a::b::`) and groups `super::{NAME::..., NAME}`, outside `//`
/// comments, kept when `NAME` is in `siblings`.
fn sibling_imports(source: &str, folder: &str, siblings: &BTreeSet<String>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let code: String = source
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    for prefix in ["super::", folder] {
        let mut rest = code.as_str();
        while let Some(at) = rest.find(prefix) {
            let before = rest[..at].chars().next_back();
            rest = &rest[at + prefix.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let names: Vec<String> = if let Some(group) = rest.strip_prefix('{') {
                // The top-level items of a `{...}` group: the identifier leading each.
                let mut depth = 0;
                let end = group
                    .char_indices()
                    .find(|&(_, c)| {
                        depth += i32::from(c == '{') - i32::from(c == '}');
                        depth < 0
                    })
                    .map_or(group.len(), |(i, _)| i);
                let mut items = Vec::new();
                let mut depth = 0;
                let mut start = 0;
                for (i, c) in group[..end].char_indices() {
                    depth += i32::from(c == '{') - i32::from(c == '}');
                    if c == ',' && depth == 0 {
                        items.push(&group[start..i]);
                        start = i + 1;
                    }
                }
                items.push(&group[start..end]);
                items
                    .iter()
                    .map(|item| {
                        item.trim()
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect()
                    })
                    .collect()
            } else {
                vec![rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect()]
            };
            found.extend(names.into_iter().filter(|n| siblings.contains(n)));
        }
    }
    found
}

/// Inside every folder of `src/`, the files (and subfolders) other than `mod.rs` must not
/// import each other in a circle: each folder's modules form layers of their own.
#[test]
fn sibling_modules_import_without_circles() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut folders: BTreeMap<PathBuf, Vec<PathBuf>> = BTreeMap::new();
    for file in files {
        folders
            .entry(file.parent().unwrap().to_path_buf())
            .or_default()
            .push(file);
    }
    let mut circles = Vec::new();
    for (folder, files) in &folders {
        // A sibling is a file `NAME.rs` or a subfolder `NAME/` beside it.
        let mut siblings: BTreeSet<String> = files
            .iter()
            .filter_map(|f| f.file_stem()?.to_str().map(str::to_string))
            .filter(|name| name != "mod" && name != "lib" && name != "main")
            .collect();
        siblings.extend(
            folders
                .keys()
                .filter(|sub| sub.parent() == Some(folder.as_path()))
                .filter_map(|sub| sub.file_name()?.to_str().map(str::to_string)),
        );
        let relative = folder.strip_prefix(&root).unwrap();
        let mut path = String::from("crate::");
        // A binary's folder (`src/bin/NAME/`) is a crate of its own: its root is `crate::`.
        if !relative.starts_with("bin") {
            for part in relative.components() {
                path.push_str(part.as_os_str().to_str().unwrap());
                path.push_str("::");
            }
        }
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for name in &siblings {
            let file = folder.join(format!("{name}.rs"));
            let sources: Vec<String> = if file.exists() {
                vec![std::fs::read_to_string(&file).unwrap()]
            } else {
                // A subfolder: everything in it speaks for it (its own `super::` means the
                // subfolder, so only the `crate::` paths are read there).
                let mut inner = Vec::new();
                rust_files(&folder.join(name), &mut inner);
                inner
                    .iter()
                    .map(|f| {
                        std::fs::read_to_string(f)
                            .unwrap()
                            .replace("super::", "_::")
                    })
                    .collect()
            };
            for source in sources {
                let mut imports = sibling_imports(&source, &path, &siblings);
                imports.remove(name);
                graph.entry(name.clone()).or_default().extend(imports);
            }
        }
        if let Some(cycle) = find_cycle(&graph) {
            circles.push(format!("{}: {}", folder.display(), cycle.join(" -> ")));
        }
    }
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

/// The modules of the library that the command line may use: it goes through the driver,
/// the certificates and the reports, never to an engine, oracle or encoder directly.
const CLI_MAY_USE: &[&str] = &["base", "puzzle", "driver", "cert", "report"];

#[test]
fn the_command_line_goes_through_the_driver() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bin");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    assert!(!files.is_empty());
    let mut wrong = Vec::new();
    for file in &files {
        let source = std::fs::read_to_string(file).unwrap();
        for line in source.lines() {
            let code = line.split("//").next().unwrap_or("");
            let mut rest = code;
            while let Some(at) = rest.find("puzzlec::") {
                rest = &rest[at + "puzzlec::".len()..];
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let is_module = name.chars().next().is_some_and(|c| c.is_lowercase());
                if is_module && !CLI_MAY_USE.contains(&name.as_str()) {
                    wrong.push(format!("{}: imports `puzzlec::{name}`", file.display()));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A cycle in `graph`, as the list of its modules, if there is one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            return Some(path[at..].to_vec());
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn the_checker_of_this_test_sees_imports_and_cycles() {
    let imports = crate_imports(
        "use crate::base::Goal;\n// crate::driver in a comment\nlet x = crate::engines::f(); $crate::m",
    );
    assert_eq!(
        imports.into_iter().collect::<Vec<_>>(),
        vec!["base".to_string(), "engines".to_string()]
    );
    let siblings = BTreeSet::from(["load".to_string(), "grid".to_string(), "x".to_string()]);
    let siblings_seen = sibling_imports(
        "use super::{grid::Grid, Puzzle};\nuse crate::puzzle::load::f; // super::x\n",
        "crate::puzzle::",
        &siblings,
    );
    assert_eq!(
        siblings_seen.into_iter().collect::<Vec<_>>(),
        vec!["grid".to_string(), "load".to_string()]
    );
    let mut graph = BTreeMap::new();
    graph.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    graph.insert("b".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(
        find_cycle(&graph),
        Some(vec!["a".to_string(), "b".to_string()])
    );
}
