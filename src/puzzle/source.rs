//! A model file's text and path: byte offsets turned into line numbers, and TOML and serde
//! errors into one line naming the file, the line and the problem. Below the families and
//! the loader, which both use it.

use crate::base::error::InputError;
use std::ops::Range;
use std::path::{Path, PathBuf};

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
