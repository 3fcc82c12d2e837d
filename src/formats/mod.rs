//! Every file format puzzlec reads or writes, on the ground floor: it speaks DIMACS
//! integers, names and plain rows, never the model, and imports nothing of the crate. One
//! reader and one writer per format; errors are its own, with line numbers. `encode` turns
//! the model into clauses and rows and writes them through here; `decode`, the oracles and
//! the checkers read through here.

pub mod linear;
pub mod lines;
pub mod veripb;

/// A solver file (WCNF, OPB) that does not read back: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// A problem on one line (1-based).
    #[error("line {line}: {message}")]
    Line {
        /// The 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A problem with the file as a whole (a missing or contradicted header).
    #[error("{0}")]
    File(String),
}
