//! `puzzlec models`: the model files of a folder, each with its one-line description, or
//! the reason it does not load (one bad file never hides the others).

use crate::base::error::InputError;
use crate::puzzle::load_model_file;
use std::path::{Path, PathBuf};

/// One model file of a folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The file.
    pub path: PathBuf,
    /// The family and the file's `description` (`None` when it has none), or why the file
    /// does not load.
    pub loaded: Result<(&'static str, Option<String>), InputError>,
}

/// The `*.toml` files of `dir`, sorted by name, each loaded and validated. Fails only when
/// the folder itself cannot be read.
pub fn list(dir: &Path) -> Result<Vec<Entry>, InputError> {
    let reading = std::fs::read_dir(dir).map_err(|e| {
        InputError::file(
            dir,
            match e.kind() {
                std::io::ErrorKind::NotFound => "no such folder".to_string(),
                std::io::ErrorKind::NotADirectory => "is not a folder".to_string(),
                _ => format!("cannot read the folder: {e}"),
            },
        )
    })?;
    let mut paths: Vec<PathBuf> = reading
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    Ok(paths
        .into_iter()
        .map(|path| {
            let loaded = load_model_file(&path).map(|puzzle| (puzzle.kind(), description(&path)));
            Entry { path, loaded }
        })
        .collect())
}

/// The `description` key of the TOML file at `path`, read on its own so that it works the
/// same for every family (the families keep their own copy for their own use).
fn description(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let table: toml::Table = text.parse().ok()?;
    table.get("description")?.as_str().map(str::to_string)
}

/// The listing as text: `name  kind  description`, aligned; a bad file shows `error:`
/// and the reason instead.
pub fn to_text(entries: &[Entry]) -> String {
    let names: Vec<String> = entries
        .iter()
        .map(|e| {
            e.path.file_name().map_or_else(
                || e.path.display().to_string(),
                |n| n.to_string_lossy().into(),
            )
        })
        .collect();
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    let mut out = String::new();
    for (name, entry) in names.iter().zip(entries) {
        let rest = match &entry.loaded {
            Ok((kind, Some(description))) => format!("{kind:<10} {description}"),
            Ok((kind, None)) => format!("{kind:<10} (no description)"),
            Err(error) => match error.line {
                Some(line) => format!("error: line {line}: {}", error.message),
                None => format!("error: {}", error.message),
            },
        };
        out.push_str(&format!("{name:<width$}  {rest}\n"));
    }
    out
}

/// The listing as JSON, each entry with `file`, `kind`, `description` and `error`.
pub fn to_json(entries: &[Entry]) -> serde_json::Value {
    let models: Vec<serde_json::Value> = entries
        .iter()
        .map(|e| {
            let file = e.path.display().to_string();
            match &e.loaded {
                Ok((kind, description)) => serde_json::json!({
                    "file": file, "kind": kind, "description": description, "error": null,
                }),
                Err(error) => serde_json::json!({
                    "file": file, "kind": null, "description": null, "error": error.to_string(),
                }),
            }
        })
        .collect();
    serde_json::json!({ "models": models })
}
