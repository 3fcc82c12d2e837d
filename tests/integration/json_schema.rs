//! Every `--json` output against `docs/json-schema.md`: the documented tables are parsed,
//! and each command's output must have exactly the documented fields (none missing over
//! the runs, none undocumented), each of its documented type, and the schema version key.

use crate::common;

use common::{models, puzzlec};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The documented fields per command: section name to (field path to type).
fn documented() -> BTreeMap<String, BTreeMap<String, String>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/json-schema.md");
    let text = std::fs::read_to_string(path).expect("docs/json-schema.md exists");
    let mut sections: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut current = None;
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("## ") {
            current = Some(name.trim().to_string());
        } else if let (Some(section), Some(row)) = (&current, line.strip_prefix("| `")) {
            let (field, rest) = row.split_once('`').expect("a closing backtick");
            let kind = rest
                .split('|')
                .nth(1)
                .expect("a type column")
                .trim()
                .to_string();
            sections
                .entry(section.clone())
                .or_default()
                .insert(field.to_string(), kind);
        }
    }
    sections
}

/// Every field path of `value` with its JSON value: objects recurse, arrays of objects
/// recurse through `name[]`, other arrays are leaves. The keys of an object documented as
/// a `map` (keys chosen by the data, such as file roles) all become `*`; an object
/// documented as `data` (evidence, whose fields its own list documents) is a leaf.
fn flatten<'a>(
    prefix: &str,
    value: &'a Value,
    maps: &BTreeSet<String>,
    data: &BTreeSet<String>,
    out: &mut Vec<(String, &'a Value)>,
) {
    let Value::Object(map) = value else { return };
    for (key, child) in map {
        let key = if maps.contains(prefix) { "*" } else { key };
        let path = if prefix.is_empty() {
            key.to_string()
        } else {
            format!("{prefix}.{key}")
        };
        out.push((path.clone(), child));
        if data.contains(&path) {
            continue;
        }
        match child {
            Value::Object(_) => flatten(&path, child, maps, data, out),
            Value::Array(items) => {
                for item in items.iter().filter(|i| i.is_object()) {
                    flatten(&format!("{path}[]"), item, maps, data, out);
                }
            }
            _ => {}
        }
    }
}

fn type_matches(documented: &str, value: &Value) -> bool {
    documented.split(" or ").any(|t| match t {
        "string" => value.is_string(),
        "integer" => value.is_u64() || value.is_i64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "object" | "map" => value.is_object(),
        // Evidence as data: an object with a `how` tag.
        "data" => value.is_object() && value["how"].is_string(),
        "array" => value.is_array(),
        "null" => value.is_null(),
        other => panic!("unknown documented type {other:?}"),
    })
}

/// Runs each argument list, checks its JSON against `section`'s table.
fn check_section(section: &str, runs: &[&[&str]]) {
    let docs = documented();
    let fields = docs
        .get(section)
        .unwrap_or_else(|| panic!("docs have a `## {section}` table"));
    let maps: BTreeSet<String> = fields
        .iter()
        .filter(|(_, t)| t.as_str() == "map")
        .map(|(f, _)| f.clone())
        .collect();
    let data: BTreeSet<String> = fields
        .iter()
        .filter(|(_, t)| t.split(" or ").any(|t| t == "data"))
        .map(|(f, _)| f.clone())
        .collect();
    let mut seen = BTreeSet::new();
    for args in runs {
        let scratch = tempfile::tempdir().unwrap();
        // `{tmp}` in an argument is a fresh folder, for commands that write files.
        let tmp = scratch.path().join("out").display().to_string();
        let args: Vec<String> = args.iter().map(|a| a.replace("{tmp}", &tmp)).collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        if args[0] == "merge" {
            for shard in ["1/2", "2/2"] {
                let part = puzzlec(
                    &models(),
                    &[
                        "solve",
                        "queens-8.toml",
                        "--count",
                        "--unique",
                        "--shard",
                        shard,
                        "--json",
                    ],
                );
                assert_eq!(part.code, 0, "{}", part.stderr);
                std::fs::create_dir_all(&tmp).unwrap();
                let name = format!("{tmp}/{}.json", &shard[..1]);
                std::fs::write(name, part.stdout).unwrap();
            }
        }
        // `--tampered` (ours, not puzzlec's): check a certificate whose claim was altered.
        let tampered = args.contains(&"--tampered");
        let args: Vec<&str> = args.into_iter().filter(|a| *a != "--tampered").collect();
        if args[0] == "check" {
            let proved = puzzlec(&models(), &["prove", "queens-8.toml", "-o", &tmp]);
            assert_eq!(proved.code, 0, "{}", proved.stderr);
            if tampered {
                common::edit(
                    Path::new(&tmp),
                    "manifest.json",
                    "\"value\": 8",
                    "\"value\": 9",
                );
            }
        }
        let run = puzzlec(&models(), &args);
        // 1: a failed check; 3: a run stopped by its time limit. Both still print JSON.
        assert!(
            [0, 1, 3, 10, 20].contains(&run.code),
            "{args:?}: exit {}: {}",
            run.code,
            run.stderr
        );
        let value: Value = serde_json::from_str(&run.stdout)
            .unwrap_or_else(|e| panic!("{args:?} prints JSON: {e}\n{}", run.stdout));
        assert_eq!(value["schema"], puzzlec::report::JSON_SCHEMA, "{args:?}");
        let mut flat = Vec::new();
        flatten("", &value, &maps, &data, &mut flat);
        for (path, v) in flat {
            let documented_type = fields
                .get(&path)
                .unwrap_or_else(|| panic!("{args:?}: field `{path}` is not documented"));
            assert!(
                type_matches(documented_type, v),
                "{args:?}: `{path}` is {v}, documented as {documented_type}"
            );
            seen.insert(path);
        }
    }
    let never: Vec<&String> = fields.keys().filter(|f| !seen.contains(*f)).collect();
    assert!(never.is_empty(), "documented but never output: {never:?}");
}

#[test]
fn solve_json_matches_the_documented_schema() {
    check_section(
        "solve",
        &[
            &["solve", "obstacle-queens.toml", "--json"],
            &["solve", "queens-8.toml", "--json", "--backend", "native"],
            &["solve", "queens-8.toml", "--json", "--at-least", "8"],
            &["solve", "queens-8.toml", "--json", "--at-least", "9"],
            // The fewest pieces: the goal minimises.
            &["solve", "chess-queens-dominate-8.toml", "--json"],
            // A refuted decision of the fewest: no solution (chess solutions are not listed).
            &[
                "solve",
                "chess-queens-dominate-8.toml",
                "--json",
                "--at-most",
                "4",
            ],
            &["solve", "halves-asahi-2005.toml", "--json"],
            // A tiling: no objective, pieces in the solution.
            &["solve", "pentomino-6x10.toml", "--json"],
            // A time-out on the SAT backend: stopped, not proven (size null if the model was
            // not built yet).
            &[
                "solve",
                "cross-13x19.toml",
                "--json",
                "--backend",
                "sat",
                "--time-limit",
                "0.3",
            ],
        ],
    );
}

#[test]
fn solve_json_says_what_was_asked_and_no_placeholders() {
    let json = |args: &[&str]| -> Value {
        let run = puzzlec(&models(), args);
        serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"))
    };
    for model in ["pentomino-6x10.toml", "halves-asahi-2005.toml"] {
        let value = json(&["solve", model, "--json"]);
        assert_eq!(value["goal"], serde_json::json!({"solve": true}), "{model}");
        assert_eq!(value["value"], Value::Null, "{model}");
    }
    let value = json(&["solve", "cross-13x19.toml", "--json", "--time-limit", "0.3"]);
    assert_eq!(value["goal"], serde_json::json!({"maximise": true}));
    let value = json(&["solve", "chess-queens-dominate-8.toml", "--json"]);
    assert_eq!(value["goal"], serde_json::json!({"minimise": true}));
    assert_eq!(value["value"], 5);
    let stopped = json(&[
        "solve",
        "cross-13x19.toml",
        "--json",
        "--backend",
        "sat",
        "--time-limit",
        "0.3",
    ]);
    // Stopped while the model was being built: no size. Built in time (the model is small
    // now that symmetry breaking adds no rows to the cross box): the model's real size, never
    // a placeholder.
    if !stopped["size"].is_null() {
        let cnf = &json(&["explain", "cross-13x19.toml", "--json"])["cnf"];
        assert_eq!(
            stopped["size"],
            serde_json::json!({
                "constraints": cnf["clauses"],
                "unit": "clauses",
                "variables": cnf["variables"],
            }),
            "{stopped}"
        );
    }
}

#[test]
fn compare_json_matches_the_documented_schema() {
    check_section(
        "compare",
        &[
            &["compare", "queens-8.toml", "--json"],
            &["compare", "halves-asahi-2005.toml", "--json"],
            // Stopped rows: unknown, no size.
            &["compare", "cross-13x19.toml", "--time-limit", "2", "--json"],
        ],
    );
}

#[test]
fn models_json_matches_the_documented_schema() {
    check_section("models", &[&["models", ".", "--json"]]);
}

#[test]
fn explain_json_matches_the_documented_schema() {
    check_section("explain", &[&["explain", "obstacle-queens.toml", "--json"]]);
}

#[test]
fn the_flattening_sees_nested_and_array_fields() {
    // Guards the checker itself: a nested field and an array-of-objects field are found.
    let value: Value = serde_json::json!({
        "a": {"b": 1}, "c": [{"d": null}], "e": [1, 2], "f": {"how": "x", "g": 1}
    });
    let mut flat = Vec::new();
    let maps = BTreeSet::from(["a".to_string()]);
    let data = BTreeSet::from(["f".to_string()]);
    flatten("", &value, &maps, &data, &mut flat);
    let paths: Vec<&str> = flat.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(paths, ["a", "a.*", "c", "c[].d", "e", "f"]);
    assert!(type_matches("data", &value["f"]));
    assert!(type_matches("integer or null", &Value::Null));
    assert!(!type_matches("integer", &serde_json::json!(0.5)));
}

#[test]
fn prove_json_matches_the_documented_schema() {
    check_section(
        "prove",
        &[
            &["prove", "obstacle-queens.toml", "-o", "{tmp}", "--json"],
            // A refutation with connectivity cuts: the cut file and its hash.
            &["prove", "halves-impossible.toml", "-o", "{tmp}", "--json"],
            // Impossible by counting: the claim's reason.
            &[
                "prove",
                "../tests/fixtures/halves-of-five.toml",
                "-o",
                "{tmp}",
                "--json",
            ],
            // A certified count with its classes.
            &[
                "prove",
                "queens-8.toml",
                "--count",
                "--unique",
                "-o",
                "{tmp}",
                "--json",
            ],
        ],
    );
}

#[test]
fn check_json_matches_the_documented_schema() {
    check_section(
        "check",
        &[
            &["check", "{tmp}", "--json"],
            &["check", "{tmp}", "--json", "--tampered"],
        ],
    );
}

#[test]
fn count_json_matches_the_documented_schema() {
    check_section(
        "solve --count",
        &[
            &[
                "solve",
                "queens-8.toml",
                "--count",
                "--unique",
                "--shard",
                "1/2",
                "--json",
            ],
            &["solve", "halves-asahi-2005.toml", "--all", "--json"],
        ],
    );
}

#[test]
fn merge_json_matches_the_documented_schema() {
    check_section(
        "merge",
        &[&["merge", "{tmp}/1.json", "{tmp}/2.json", "--json"]],
    );
}

#[test]
fn sweep_json_matches_the_documented_schema() {
    check_section(
        "sweep",
        &[
            &[
                "sweep",
                "cross-13x19.toml",
                "--width",
                "5..=6",
                "--height",
                "5..7",
                "--json",
            ],
            &[
                "sweep",
                "queens-8.toml",
                "--size",
                "4..=6",
                "--shard",
                "2/2",
                "--time-limit",
                "60",
                "--json",
            ],
        ],
    );
}

#[test]
fn the_evidence_comes_as_data_beside_its_words() {
    let args = "solve obstacle-queens.toml --backend sat --json";
    let run = puzzlec(&models(), &args.split(' ').collect::<Vec<_>>());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value: Value = serde_json::from_str(&run.stdout).unwrap();
    let established = &value["established"];
    assert_eq!(established["how"], "sat_refuted", "{established}");
    assert_eq!(established["k"], 21, "{established}");
    assert_eq!(established["by"]["name"], "varisat", "{established}");
    assert_eq!(established["by"]["kind"], "embedded", "{established}");
    assert_eq!(established["drat_lemmas"], Value::Null, "{established}");
    // The words are those of the data.
    let evidence = value["evidence"].as_str().unwrap();
    assert!(
        evidence.starts_with("varisat refuted \"at least 21\" ("),
        "{evidence}"
    );
    let calls = established["calls"].as_u64().unwrap();
    assert!(evidence.contains(&format!("; {calls} call")), "{evidence}");
}
