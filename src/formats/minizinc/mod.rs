//! MiniZinc and FlatZinc files for constraint solvers (Gecode, Chuffed, and any other
//! solver MiniZinc drives), written from names and plain rows ([`super::linear::Row`],
//! the CPLEX LP file's) and read back by `decode`, and the answers those solvers print.
//!
//! A MiniZinc file (`.mzn`) declares the model variables as arrays named after the puzzle:
//! the variables whose names share a base (the part before `[`) and the text between their
//! indices (`q[3,5]`; `place[plus/0@(0,0)]`, indices `plus`, `0`, `0`, `0`) form one
//! `array[...] of var 0..1` over the bounding box of their indices, an index that is not
//! a number an `enum` (`array[PLACE_1, 0..3, 0..8, 0..14] of var 0..1: place;`). The
//! entries of the box that are no model variable are fixed to 0
//! (`constraint forall(j in 0..2) (q[4,j] = 0);  % not in the model`). A name that fits
//! no array stays a scalar `var 0..1` named by an identifier made from it (`q[3,5]` would
//! be `q_3_5`, as in LP files; MiniZinc keywords get an `x_` prefix), its model name in
//! the comment after it. Each row is a readable linear constraint over the elements
//! (`constraint q[0,0] + q[1,0] <= 1;  % c1: at-most-one`), the objective
//! `var int: objective = sum(q);` with `solve maximize objective;` (or `solve satisfy;`),
//! and the `output` item prints every variable as `name = value;` by its LP-style
//! identifier (`q_3_5 = 1;`), one per line, each line's comment giving the model's name
//! where the element does not. A FlatZinc file (`.fzn`) declares every variable as a
//! scalar (with its name comment), says the rows with `int_lin_le` / `int_lin_eq`, and
//! prints each array with an `:: output_array` annotation (the scalars with
//! `:: output_var`), so `fzn-gecode FILE.fzn` prints `q = array2d(0..7, 0..7, [...]);`
//! without the MiniZinc compiler.
//!
//! Answers are read by [`read_answer`]: `name = value;` lines (names that start with `_`,
//! MiniZinc's own such as `_objective`, skipped), arrays (`q = array2d(...)`, entry by
//! entry as `q[0,0]`, `q[0,1]`, ..., which [`MznFile::aliases`] maps to columns),
//! `----------` after each solution (the last one counts), `==========` when the search
//! is complete (the optimum for `solve maximize`), `=====UNSATISFIABLE=====` or
//! `=====UNKNOWN=====`.

mod answer;
mod boxes;
mod layout;
mod read;
mod search;
#[cfg(test)]
mod tests;
mod write;

pub use answer::{is_answer, read_answer, zero_one, MznAnswerError, MznStatus};
pub use read::{read_file, MznFile};
pub use search::{search, Search};
pub use write::{write, Problem};

use crate::formats::lp::lp_names;
use std::collections::HashSet;

/// The name of the objective variable in both formats; no model variable gets it.
pub const OBJECTIVE: &str = "objective";

/// Words a MiniZinc or FlatZinc identifier must not be: keywords, and the names of the
/// built-in functions the files use.
const RESERVED: [&str; 55] = [
    "ann",
    "annotation",
    "any",
    "array",
    "bool",
    "case",
    "constraint",
    "default",
    "diff",
    "div",
    "else",
    "elseif",
    "endif",
    "enum",
    "false",
    "float",
    "function",
    "if",
    "in",
    "include",
    "int",
    "intersect",
    "let",
    "list",
    "maximize",
    "minimize",
    "mod",
    "not",
    "of",
    "op",
    "opt",
    "output",
    "par",
    "predicate",
    "record",
    "satisfy",
    "set",
    "solve",
    "string",
    "subset",
    "superset",
    "symdiff",
    "test",
    "then",
    "true",
    "tuple",
    "type",
    "union",
    "var",
    "where",
    "xor",
    "show",
    "sum",
    "bool2int",
    OBJECTIVE,
];

/// MiniZinc-safe, unique identifiers for the variables `names`, made from their LP column
/// names (`q_3_5` for `q[3,5]`, as the CPLEX LP file names them, [`lp_names`]): `x_` before
/// a keyword (and before `objective`), and a count after a name taken already.
pub fn idents(names: &[String]) -> Vec<String> {
    let mut used: HashSet<String> = HashSet::new();
    lp_names(names)
        .iter()
        .map(|name| {
            let mut name = name.clone();
            if RESERVED.contains(&name.as_str()) {
                name.insert_str(0, "x_");
            }
            let base = name.clone();
            let mut count = 1;
            while used.contains(&name) {
                count += 1;
                name = format!("{base}_{count}");
            }
            used.insert(name.clone());
            name
        })
        .collect()
}

/// Which of the two dialects.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// MiniZinc: readable constraints and an `output` item; `minizinc --solver gecode`.
    MiniZinc,
    /// FlatZinc: `int_lin_le` / `int_lin_eq` and `:: output_var`; `fzn-gecode`.
    FlatZinc,
}

/// A box may hold at most this many entries per model variable in it (plus
/// [`BOX_SLACK`]); a sparser group of names is written as scalars.
const BOX_FACTOR: usize = 16;
const BOX_SLACK: usize = 256;

/// Whether `word` is a MiniZinc identifier (a letter, then letters, digits and `_`).
fn is_ident(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_alphabetic())
        && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The comment after a constraint that fixes entries of an array that are not model
/// variables.
const NOT_IN_MODEL: &str = "not in the model";
