//! Reading model files: TOML with a `kind` key naming the family, grids as multi-line
//! strings. Every error names the file and, where it can, the line.

use crate::base::error::InputError;
use crate::puzzle::{dissection, packing, queens, Puzzle};
use serde::Deserialize;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The largest model file read: anything bigger is not a grid puzzle a person wrote.
const MAX_FILE_BYTES: u64 = 1 << 20;

/// A model file's path and text, for turning byte offsets into line numbers.
pub struct Source {
    path: PathBuf,
    text: String,
}

impl Source {
    /// A source from its path and text.
    pub fn new(path: &Path, text: String) -> Source {
        Source {
            path: path.to_path_buf(),
            text,
        }
    }

    /// The file's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The 1-based line of byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        let end = offset.min(self.text.len());
        self.text.as_bytes()[..end]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    }

    /// The line on which the content of the string value at `span` begins: TOML drops a
    /// newline right after an opening `"""` or `'''`, so the content starts a line later.
    pub fn first_content_line(&self, span: Range<usize>) -> usize {
        let raw = self.text.get(span.clone()).unwrap_or("");
        let line = self.line_of(span.start);
        let after_quotes = raw
            .strip_prefix("\"\"\"")
            .or_else(|| raw.strip_prefix("'''"));
        match after_quotes {
            Some(rest) if rest.starts_with('\n') || rest.starts_with("\r\n") => line + 1,
            _ => line,
        }
    }

    /// An error at byte `offset`.
    pub fn error_at(&self, offset: usize, message: impl Into<String>) -> InputError {
        InputError::at(&self.path, self.line_of(offset), message)
    }

    /// An error at 1-based `line`.
    pub fn error_line(&self, line: usize, message: impl Into<String>) -> InputError {
        InputError::at(&self.path, line, message)
    }

    /// Converts a TOML parse error, keeping its position.
    pub fn toml_error(&self, error: &toml::de::Error) -> InputError {
        // toml's messages may span lines; the CLI promises one line per error.
        let message = error
            .message()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(": ");
        let message = plain_types(&message);
        match error.span() {
            Some(span) => self.error_at(span.start, message),
            None => InputError::file(&self.path, message),
        }
    }

    /// Deserialises the whole file as `T`.
    pub fn parse<T: serde::de::DeserializeOwned>(&self) -> Result<T, InputError> {
        toml::from_str(&self.text).map_err(|e| self.toml_error(&e))
    }
}

/// serde names Rust types in its messages ("invalid type: string \"8\", expected i64"); a
/// model's author should read what the file needs instead.
fn plain_types(message: &str) -> String {
    const WORDS: [(&str, &str); 12] = [
        ("expected i64", "expected a whole number"),
        ("expected i32", "expected a whole number"),
        ("expected u64", "expected a whole number"),
        ("expected u32", "expected a whole number"),
        ("expected usize", "expected a whole number"),
        ("expected u8", "expected a whole number"),
        ("expected f64", "expected a number"),
        ("expected a sequence", "expected a list"),
        ("expected a map", "expected a table"),
        ("expected struct ", "expected a table "),
        ("integer `", "whole number `"),
        ("sequence,", "list,"),
    ];
    WORDS
        .iter()
        .fold(message.to_string(), |text, (rust, words)| {
            text.replace(rust, words)
        })
}

/// Only the `kind` key, to choose the family before the strict parse.
#[derive(Deserialize)]
struct KindOnly {
    kind: Option<toml::Spanned<String>>,
}

/// The families a model file may name.
pub const KINDS: &[&str] = &["queens", "dissection", "packing"];

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
    match kind.get_ref().as_str() {
        "queens" => queens::Queens::from_source(&source).map(Puzzle::Queens),
        "dissection" => dissection::DissectionPuzzle::from_source(&source).map(Puzzle::Dissection),
        "packing" => packing::Packing::from_source(&source).map(Puzzle::Packing),
        other => Err(source.error_at(
            kind.span().start,
            format!(
                "unknown kind {other:?} (expected one of: {})",
                KINDS.join(", ")
            ),
        )),
    }
}

fn io_reason(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => error.to_string(),
    }
}
