//! Reading model files: TOML with a `kind` key naming the family, grids as multi-line
//! strings. Every error names the file and, where it can, the line.

use crate::base::error::InputError;
use crate::puzzle::source::Source;
pub use crate::puzzle::KINDS;
use crate::puzzle::{parse_kind, Puzzle};
use serde::Deserialize;
use std::path::Path;

/// The largest model file read: anything bigger is not a grid puzzle a person wrote.
const MAX_FILE_BYTES: u64 = 1 << 20;

/// Only the `kind` key, to choose the family before the strict parse.
#[derive(Deserialize)]
struct KindOnly {
    kind: Option<toml::Spanned<String>>,
}

/// Reads and validates the model file at `path`.
///
/// ```
/// let model = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/cross-13x19.toml");
/// let puzzle = puzzlec::load_model_file(&model)?;
/// assert_eq!(puzzle.kind(), "packing");
/// let missing = puzzlec::load_model_file(std::path::Path::new("no-such.toml")).unwrap_err();
/// assert_eq!(missing.to_string(), "no-such.toml: cannot read: no such file");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn load_model_file(path: &Path) -> Result<Puzzle, InputError> {
    let metadata = std::fs::metadata(path)
        .map_err(|e| InputError::file(path, format!("cannot read: {}", io_reason(&e))))?;
    if metadata.is_dir() {
        return Err(InputError::file(path, "is a directory, not a model file"));
    }
    if metadata.len() > MAX_FILE_BYTES {
        return Err(InputError::file(
            path,
            format!(
                "is {} bytes; model files of more than {MAX_FILE_BYTES} bytes are not accepted",
                metadata.len()
            ),
        ));
    }
    let bytes = std::fs::read(path)
        .map_err(|e| InputError::file(path, format!("cannot read: {}", io_reason(&e))))?;
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let offset = e.utf8_error().valid_up_to();
            let line = e.as_bytes()[..offset]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            return Err(InputError::at(path, line, "is not valid UTF-8 text"));
        }
    };
    parse_model(path, text)
}

/// Parses model-file `text` as if read from `path`.
pub fn parse_model(path: &Path, text: String) -> Result<Puzzle, InputError> {
    let source = Source::new(path, text);
    let kind: KindOnly = source.parse()?;
    let Some(kind) = kind.kind else {
        return Err(InputError::at(
            path,
            1,
            format!("missing key `kind` (one of: {})", KINDS.join(", ")),
        ));
    };
    let name = kind.get_ref().as_str();
    parse_kind(name, &source).unwrap_or_else(|| {
        Err(source.error_at(
            kind.span().start,
            format!(
                "unknown kind {name:?} (expected one of: {})",
                KINDS.join(", ")
            ),
        ))
    })
}

fn io_reason(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => error.to_string(),
    }
}
