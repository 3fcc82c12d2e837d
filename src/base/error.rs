//! Errors for bad input: every one names the file, the line when there is one, and the problem.

use std::fmt;
use std::path::{Path, PathBuf};

/// A problem with a model file that the user must fix; the CLI prints it on one line and
/// exits with code 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// The model file.
    pub path: PathBuf,
    /// The 1-based line, when the problem has one.
    pub line: Option<usize>,
    /// What is wrong, in words.
    pub message: String,
}

impl InputError {
    /// An error at `line` of `path`.
    pub fn at(path: &Path, line: usize, message: impl Into<String>) -> InputError {
        InputError {
            path: path.to_path_buf(),
            line: Some(line),
            message: message.into(),
        }
    }

    /// An error about `path` as a whole.
    pub fn file(path: &Path, message: impl Into<String>) -> InputError {
        InputError {
            path: path.to_path_buf(),
            line: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.path.display(), line, self.message),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

impl std::error::Error for InputError {}
