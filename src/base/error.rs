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

/// A setting of a library call that a message names. The library words it by its name
/// ([`Setting::name`]); the command line words the same message with the flag that sets it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// Work split into shards.
    Shard,
    /// A sweep over the sides of square boards.
    Size,
    /// A sweep over the widths and heights of boxes.
    WidthAndHeight,
    /// An external solver.
    Solver,
    /// The backend, set to the one named (`native`, `sat`, `milp`).
    Backend(&'static str),
    /// The backend, whatever it is set to.
    AnyBackend,
    /// A count of the solutions with at least a value instead of the optimal ones.
    AtLeast,
    /// Every solution handed out, not only counted.
    List,
    /// The solutions counted rather than one found.
    Count,
    /// Solutions reduced by the puzzle's symmetries.
    Unique,
    /// The most solutions a count certificate lists one by one.
    MaxListed,
}

impl Setting {
    /// The setting's name in the library's messages.
    pub fn name(self) -> String {
        match self {
            Setting::Shard => "`shard`".into(),
            Setting::Size => "`size`".into(),
            Setting::WidthAndHeight => "`width` and `height`".into(),
            Setting::Solver => "an external solver".into(),
            Setting::Backend(backend) => format!("`backend = {backend}`"),
            Setting::AnyBackend => "`backend`".into(),
            Setting::AtLeast => "`at_least`".into(),
            Setting::List => "`list`".into(),
            Setting::Count => "counting".into(),
            Setting::Unique => "`unique`".into(),
            Setting::MaxListed => "`max_listed`".into(),
        }
    }
}

/// A message that names settings, worded with any naming of them: [`Setting::name`] in the
/// library's `Display`, the flags on the command line.
pub trait NamesSettings {
    /// The message, each setting worded by `name`.
    fn describe(&self, name: &dyn Fn(Setting) -> String) -> String;
}
