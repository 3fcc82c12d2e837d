//! Every file format puzzlec reads or writes, on the ground floor: it speaks DIMACS
//! integers, names and plain rows, never the model, and imports nothing of the crate. One
//! reader and one writer per format, the writers going line by line through
//! [`lines::LineWriter`]; errors are its own, with line numbers. `encode` turns the model
//! into clauses and rows and writes them through here; `decode`, the oracles and the
//! checkers read through here.
//!
//! - [`dimacs`]: DIMACS CNF with `c var N name` lines (and the `* var` names of OPB);
//! - [`sat_answer`]: SAT solvers' answers, competition `s`/`v` lines and MiniSat's file;
//! - [`witness`]: a model's values as `v` lines, a certificate's `witness.txt`;
//! - [`cuts`], [`solutions`]: a certificate's cut file and a count certificate's list of
//!   solutions;
//! - [`doll_table`]: a packing certificate's Russian-doll table;
//! - [`manifest`]: a certificate folder's manifest (JSON);
//! - [`shard_record`]: a streamed certificate's record of each shard (JSON) and its plan;
//! - [`wcnf`], [`lp`]: WCNF and CPLEX LP files, over [`linear`]'s rows;
//! - [`opb`]: OPB files, the ones `emit` writes and the ones VeriPB proofs refer to;
//! - [`milp_solution`]: the solution files of CBC, GLPK and HiGHS;
//! - [`minizinc`]: MiniZinc and FlatZinc files and the answers their solvers print;
//! - [`veripb`]: VeriPB 3.0 pseudo-Boolean proofs, over [`opb`]'s constraints;
//! - [`lrat`]: LRAT clausal proofs, written and read a step at a time;
//! - [`drat`]: DRAT clausal proofs, text and binary, read whole;
//! - [`count_shard`]: the `--json` output of `solve --count` as a merge reads it back;
//! - [`sniff`]: which of the grammars above a solver's answer or an emitted file is in,
//!   told from its first lines.

pub mod count_shard;
pub mod cuts;
mod digits;
pub mod dimacs;
pub mod doll_table;
pub mod drat;
pub mod linear;
pub mod lines;
pub mod lp;
pub mod lrat;
pub mod manifest;
pub mod milp_solution;
pub mod minizinc;
pub mod opb;
pub mod sat_answer;
pub mod shard_record;
pub mod sniff;
pub mod solutions;
pub mod veripb;
pub mod wcnf;
pub mod witness;

/// A file (WCNF, MiniZinc, LRAT) that does not read back: where, and what is wrong.
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
