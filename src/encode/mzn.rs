//! MiniZinc and FlatZinc files for constraint solvers (Gecode, Chuffed, and any other
//! solver MiniZinc drives), written from the same rows as the CPLEX LP file
//! ([`super::lp::constraint_row`]), and read back by `decode`.
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

use super::lp::{self, Comparison, LinearProgram, Row};
use super::stream::StreamError;
use super::ReadError;
use crate::base::Control;
use crate::model::Model;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::io::Write;

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

/// MiniZinc-safe, unique identifiers for `names`: the LP column names
/// ([`super::lp_file::lp_names`]), with `x_` before a keyword (and before `objective`).
pub fn mzn_names(names: &[String]) -> Vec<String> {
    let mut used: HashSet<String> = HashSet::new();
    super::lp_file::lp_names(names)
        .into_iter()
        .map(|mut name| {
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

/// Writes lines to `out`, polling `control` every few thousand lines.
struct Lines<'a> {
    out: &'a mut dyn Write,
    control: &'a Control,
    line: String,
    count: u64,
}

impl Lines<'_> {
    fn put(&mut self, fill: impl FnOnce(&mut String)) -> Result<(), StreamError> {
        self.line.clear();
        fill(&mut self.line);
        self.out.write_all(self.line.as_bytes())?;
        self.count += 1;
        if self.count.is_multiple_of(1 << 12) && self.control.should_stop() {
            return Err(StreamError::Stopped);
        }
        Ok(())
    }
}

/// What a file states, apart from its variables: the objective (maximised, as terms and
/// a constant), the rows each with a comment, and whether it asks "objective at least K".
pub struct Problem<'a> {
    /// The model's variable names, one per column.
    pub names: &'a [String],
    /// The objective's (coefficient, column) terms and constant; `None` for no objective.
    pub objective: Option<(Vec<(f64, usize)>, f64)>,
    /// The rows, each with the words of its comment (`c1: at-most-one`).
    pub rows: Vec<(Row, String)>,
    /// "Objective at least K" (a constraint, and `solve satisfy`).
    pub at_least: Option<usize>,
}

impl<'a> Problem<'a> {
    /// The model's constraints as rows `c1`, `c2`... (the LP file's), each commented with
    /// its kind, with "objective at least K" when `at_least` gives K.
    pub fn from_model(model: &'a Model, at_least: Option<usize>) -> Problem<'a> {
        let rows = model
            .constraints
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let row = lp::constraint_row(c, i + 1);
                let words = format!("{}: {}", row.name, c.kind_name());
                (row, words)
            })
            .collect();
        Problem {
            names: model.names(),
            objective: model.objective.as_ref().map(|_| lp::objective_terms(model)),
            rows,
            at_least: at_least.filter(|_| model.objective.is_some()),
        }
    }

    /// A 0-1 program as it is (its rows, an `at_least` row among them, cuts included):
    /// what `--solver cp:NAME` hands MiniZinc. A program with an `at_least` row asks
    /// `solve satisfy`.
    pub fn from_program(program: &'a LinearProgram) -> Problem<'a> {
        let decision = program.rows.iter().any(|r| r.name == "at_least");
        Problem {
            names: &program.columns,
            objective: (!program.objective.is_empty() && !decision)
                .then(|| (program.objective.clone(), program.objective_offset)),
            rows: program
                .rows
                .iter()
                .map(|r| (r.clone(), r.name.clone()))
                .collect(),
            at_least: None,
        }
    }
}

/// `+ a - b + 2*c` in MiniZinc, or `0` for no terms.
fn mzn_terms(out: &mut String, terms: &[(f64, usize)], idents: &[String]) {
    if terms.is_empty() {
        out.push('0');
        return;
    }
    for (i, &(coefficient, column)) in terms.iter().enumerate() {
        let c = coefficient as i64;
        let name = &idents[column];
        match (i, c) {
            (0, 1) => out.push_str(name),
            (0, -1) => {
                let _ = write!(out, "-{name}");
            }
            (0, c) => {
                let _ = write!(out, "{c}*{name}");
            }
            (_, 1) => {
                let _ = write!(out, " + {name}");
            }
            (_, -1) => {
                let _ = write!(out, " - {name}");
            }
            (_, c) if c < 0 => {
                let _ = write!(out, " - {}*{name}", -c);
            }
            (_, c) => {
                let _ = write!(out, " + {c}*{name}");
            }
        }
    }
}

/// `[1,-1],[a,b]` in FlatZinc.
fn fzn_arrays(out: &mut String, terms: &[(f64, usize)], idents: &[String], scale: i64) {
    let coefficients: Vec<String> = terms
        .iter()
        .map(|&(c, _)| (c as i64 * scale).to_string())
        .collect();
    let variables: Vec<&str> = terms.iter().map(|&(_, v)| idents[v].as_str()).collect();
    let _ = write!(
        out,
        "[{}],[{}]",
        coefficients.join(","),
        variables.join(",")
    );
}

/// One index of an array: a range of integers, or an enum (its position in
/// [`Layout::enums`]).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Dim {
    Range(i64, i64),
    Enum(usize),
}

/// An enum of the symbols at one index of an array (piece names, `o0`...).
#[derive(Clone, Debug)]
struct EnumDecl {
    /// Its MiniZinc name: the array's name in capitals and the index's place (`PLACE_1`).
    name: String,
    /// The symbols as written in the model's names, in the order first seen.
    symbols: Vec<String>,
    /// Each symbol as a MiniZinc identifier.
    idents: Vec<String>,
}

/// An array of `var 0..1` over the bounding box of the indices of the model variables
/// whose names share a base (the part before `[`) and the text between their indices.
#[derive(Clone, Debug)]
struct ArrayDecl {
    /// The base, as the array's name.
    name: String,
    /// The text between the indices (`[`, `/`, `@(`, `,`, `)]` for `place[plus/0@(0,0)]`),
    /// one more than the indices.
    separators: Vec<String>,
    dims: Vec<Dim>,
    /// The columns in the array, in column order, each with its offsets in the box.
    entries: Vec<(usize, Vec<usize>)>,
}

/// How a file declares the model's variables: arrays where the names fit one, scalar
/// `var 0..1` for the rest.
#[derive(Clone, Debug)]
struct Layout {
    enums: Vec<EnumDecl>,
    arrays: Vec<ArrayDecl>,
    /// Each column's MiniZinc expression: an array element (`q[3,5]`) or a scalar's
    /// identifier.
    exprs: Vec<String>,
    /// Whether each column is a scalar.
    scalar: Vec<bool>,
    /// The names for `forall` generators, one per index of the widest array; none of them
    /// names anything in the file.
    generators: Vec<String>,
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

/// `name` as its base, the texts between its index words and the index words:
/// `place[plus/0@(0,0)]` is `place`, `[`, `/`, `@(`, `,`, `)]` and `plus`, `0`, `0`, `0`.
/// An index word is a run of letters, digits, `_` and `-`. `None` for a name without `[`,
/// without index words, or whose base is not an identifier.
fn split_name(name: &str) -> Option<(&str, Vec<&str>, Vec<&str>)> {
    let open = name.find('[')?;
    let base = &name[..open];
    if !is_ident(base) {
        return None;
    }
    let rest = &name[open..];
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let mut separators = Vec::new();
    let mut words = Vec::new();
    let mut start = 0;
    let mut in_word = false;
    for (i, c) in rest.char_indices() {
        if word(c) != in_word {
            if in_word {
                words.push(&rest[start..i]);
            } else {
                separators.push(&rest[start..i]);
            }
            start = i;
            in_word = !in_word;
        }
    }
    if in_word {
        words.push(&rest[start..]);
        separators.push("");
    } else {
        separators.push(&rest[start..]);
    }
    (!words.is_empty()).then_some((base, separators, words))
}

/// An integer index word, written back the same (`07` is not one).
fn int_word(word: &str) -> Option<i64> {
    word.parse::<i64>().ok().filter(|n| n.to_string() == word)
}

/// A symbol as a MiniZinc identifier: `-` as `_`, `x_` before a reserved word or one that
/// does not start with a letter.
fn symbol_ident(symbol: &str) -> String {
    let mut ident = symbol.replace('-', "_");
    if RESERVED.contains(&ident.as_str()) || !ident.starts_with(|c: char| c.is_ascii_alphabetic()) {
        ident.insert_str(0, "x_");
    }
    ident
}

/// (coefficient, column) terms.
type Terms = Vec<(f64, usize)>;

/// A group of names: their base and the texts between their indices.
type Key<'a> = (&'a str, Vec<&'a str>);

/// The names of each group, each as its column and its index words.
type Groups<'a> = HashMap<Key<'a>, Vec<(usize, Vec<&'a str>)>>;

/// Index ranges, each (first, last).
type Ranges = Vec<(i64, i64)>;

impl Layout {
    /// The arrays `names` fit (see the module's documentation), `labels` (the
    /// [`mzn_names`]) naming the scalars.
    fn new(names: &[String], labels: &[String]) -> Layout {
        // Groups of names by base and separators, biggest first.
        let mut order: Vec<Key> = Vec::new();
        let mut groups: Groups = HashMap::new();
        for (column, name) in names.iter().enumerate() {
            if let Some((base, separators, words)) = split_name(name) {
                let key = (base, separators);
                let members = groups.entry(key.clone()).or_default();
                if members.is_empty() {
                    order.push(key);
                }
                members.push((column, words));
            }
        }
        order.sort_by_key(|key| std::cmp::Reverse(groups[key].len()));
        let mut rejected: HashSet<usize> = HashSet::new();
        loop {
            match Layout::try_groups(&order, &groups, &rejected, names.len(), labels) {
                Ok(layout) => return layout,
                Err(group) => {
                    rejected.insert(group);
                }
            }
        }
    }

    /// The layout with every group in `order` but the `rejected` ones as an array, or the
    /// first group that cannot be one.
    fn try_groups(
        order: &[Key],
        groups: &Groups,
        rejected: &HashSet<usize>,
        columns: usize,
        labels: &[String],
    ) -> Result<Layout, usize> {
        let mut in_array = vec![false; columns];
        for (g, key) in order.iter().enumerate() {
            if !rejected.contains(&g) {
                for (column, _) in &groups[key] {
                    in_array[*column] = true;
                }
            }
        }
        // Every name the file declares: no two the same, none reserved.
        let mut taken: HashSet<String> = RESERVED.iter().map(|s| s.to_string()).collect();
        for (column, label) in labels.iter().enumerate() {
            if !in_array[column] {
                taken.insert(label.clone());
            }
        }
        let mut enums: Vec<EnumDecl> = Vec::new();
        let mut arrays: Vec<ArrayDecl> = Vec::new();
        let mut exprs: Vec<String> = labels.to_vec();
        for (g, key) in order.iter().enumerate() {
            if rejected.contains(&g) {
                continue;
            }
            let (base, separators) = key;
            let members = &groups[key];
            let arity = separators.len() - 1;
            if !taken.insert(base.to_string()) {
                return Err(g);
            }
            let mut dims = Vec::with_capacity(arity);
            let mut size: usize = 1;
            for k in 0..arity {
                let ints: Option<Vec<i64>> = members.iter().map(|(_, w)| int_word(w[k])).collect();
                let dim = match ints {
                    Some(ints) => {
                        let (low, high) =
                            (*ints.iter().min().unwrap(), *ints.iter().max().unwrap());
                        size = size.saturating_mul((high - low + 1) as usize);
                        Dim::Range(low, high)
                    }
                    None => {
                        let mut symbols: Vec<String> = Vec::new();
                        let mut seen: HashSet<&str> = HashSet::new();
                        for (_, words) in members {
                            if seen.insert(words[k]) {
                                symbols.push(words[k].to_string());
                            }
                        }
                        size = size.saturating_mul(symbols.len());
                        let mut sorted = symbols.clone();
                        sorted.sort();
                        // The same symbols at an index of another array share its enum.
                        if let Some(e) = enums.iter().position(|e| {
                            let mut theirs = e.symbols.clone();
                            theirs.sort();
                            theirs == sorted
                        }) {
                            Dim::Enum(e)
                        } else {
                            let idents: Vec<String> =
                                symbols.iter().map(|s| symbol_ident(s)).collect();
                            let name = format!("{}_{}", base.to_uppercase(), k + 1);
                            if idents.iter().any(|i| !is_ident(i))
                                || !taken.insert(name.clone())
                                || !idents.iter().all(|i| taken.insert(i.clone()))
                            {
                                return Err(g);
                            }
                            enums.push(EnumDecl {
                                name,
                                symbols,
                                idents,
                            });
                            Dim::Enum(enums.len() - 1)
                        }
                    }
                };
                dims.push(dim);
            }
            if size > members.len().saturating_mul(BOX_FACTOR) + BOX_SLACK {
                return Err(g);
            }
            let mut entries = Vec::with_capacity(members.len());
            let mut cells: HashSet<Vec<usize>> = HashSet::new();
            for (column, words) in members {
                let mut offsets = Vec::with_capacity(arity);
                let mut expr = format!("{base}[");
                for (k, (dim, word)) in dims.iter().zip(words).enumerate() {
                    if k > 0 {
                        expr.push(',');
                    }
                    match dim {
                        Dim::Range(low, _) => {
                            let n = int_word(word).unwrap_or_default();
                            offsets.push((n - low) as usize);
                            let _ = write!(expr, "{n}");
                        }
                        Dim::Enum(e) => {
                            let at = enums[*e]
                                .symbols
                                .iter()
                                .position(|s| s == word)
                                .unwrap_or_default();
                            offsets.push(at);
                            expr.push_str(&enums[*e].idents[at]);
                        }
                    }
                }
                expr.push(']');
                if !cells.insert(offsets.clone()) {
                    return Err(g);
                }
                exprs[*column] = expr;
                entries.push((*column, offsets));
            }
            arrays.push(ArrayDecl {
                name: base.to_string(),
                separators: separators.iter().map(|s| s.to_string()).collect(),
                dims,
                entries,
            });
        }
        let widest = arrays.iter().map(|a| a.dims.len()).max().unwrap_or(0);
        let mut generators = Vec::with_capacity(widest);
        for k in 0..widest {
            let mut name = ["i", "j", "k", "l", "m", "n"]
                .get(k)
                .map_or_else(|| format!("i{k}"), |s| s.to_string());
            while taken.contains(&name) {
                name.push('_');
            }
            taken.insert(name.clone());
            generators.push(name);
        }
        Ok(Layout {
            enums,
            arrays,
            exprs,
            scalar: in_array.iter().map(|a| !a).collect(),
            generators,
        })
    }
}

impl ArrayDecl {
    /// The size of each index.
    fn sizes(&self, enums: &[EnumDecl]) -> Vec<usize> {
        self.dims
            .iter()
            .map(|d| match d {
                Dim::Range(low, high) => (high - low + 1) as usize,
                Dim::Enum(e) => enums[*e].symbols.len(),
            })
            .collect()
    }

    /// `0..7` or `PLACE_1` for each index.
    fn index_sets(&self, enums: &[EnumDecl]) -> Vec<String> {
        self.dims
            .iter()
            .map(|d| match d {
                Dim::Range(low, high) => format!("{low}..{high}"),
                Dim::Enum(e) => enums[*e].name.clone(),
            })
            .collect()
    }

    /// Index `k` at `offset` as written in the file.
    fn index_value(&self, enums: &[EnumDecl], k: usize, offset: usize) -> String {
        match &self.dims[k] {
            Dim::Range(low, _) => (low + offset as i64).to_string(),
            Dim::Enum(e) => enums[*e].idents[offset].clone(),
        }
    }

    /// The model's names of the array's variables: `place[a/b@(c,d)]`, with index letters.
    fn pattern(&self) -> String {
        let mut out = self.name.clone();
        for (k, separator) in self.separators.iter().enumerate() {
            out.push_str(separator);
            if k + 1 < self.separators.len() {
                out.push(char::from(b'a' + (k % 26) as u8));
            }
        }
        out
    }

    /// Whether the model's names read the same as the elements (`q[3,5]`).
    fn plain(&self) -> bool {
        let n = self.separators.len();
        self.separators[0] == "["
            && self.separators[n - 1] == "]"
            && self.separators[1..n - 1].iter().all(|s| s == ",")
    }

    /// The entries of the box that are not model variables, as boxes (a run of offsets at
    /// each index), neighbours with the same pattern below them merged.
    fn absent_blocks(&self, sizes: &[usize]) -> Vec<Block> {
        // How many variables under each prefix of offsets.
        let mut counts: HashMap<&[usize], usize> = HashMap::new();
        for (_, offsets) in &self.entries {
            for k in 0..=offsets.len() {
                *counts.entry(&offsets[..k]).or_default() += 1;
            }
        }
        absent_under(&counts, sizes, &mut Vec::new())
    }
}

/// A box of offsets: a run (first, last) at each index.
type Block = Vec<(usize, usize)>;

/// The absent boxes under `prefix`, over the indices after it.
fn absent_under(
    counts: &HashMap<&[usize], usize>,
    sizes: &[usize],
    prefix: &mut Vec<usize>,
) -> Vec<Block> {
    let k = prefix.len();
    let rest = &sizes[k + 1..];
    let full: usize = rest.iter().product();
    let mut out = Vec::new();
    let mut flush = |start: usize, end: usize, below: Vec<Block>| {
        for block in below {
            let mut whole = vec![(start, end)];
            whole.extend(block);
            out.push(whole);
        }
    };
    let mut run: Option<(usize, Vec<Block>)> = None;
    for v in 0..sizes[k] {
        prefix.push(v);
        let count = counts.get(prefix.as_slice()).copied().unwrap_or(0);
        let below: Vec<Block> = if count == 0 {
            vec![rest.iter().map(|&s| (0, s - 1)).collect()]
        } else if count == full {
            Vec::new()
        } else {
            absent_under(counts, sizes, prefix)
        };
        prefix.pop();
        if run.as_ref().is_some_and(|(_, same)| *same == below) {
            continue;
        }
        if let Some((start, blocks)) = run.replace((v, below)) {
            flush(start, v - 1, blocks);
        }
    }
    if let Some((start, blocks)) = run {
        flush(start, sizes[k] - 1, blocks);
    }
    out
}

/// The header line that says how the variables are declared.
fn describe_layout(l: &mut String, layout: &Layout, labels: &[String]) {
    let scalars = layout.scalar.iter().filter(|&&s| s).count();
    let names: Vec<String> = layout
        .arrays
        .iter()
        .map(|a| format!("{} ({})", a.name, a.entries.len()))
        .collect();
    if layout.arrays.is_empty() {
        let _ = writeln!(
            l,
            "% MiniZinc: every model variable is a `var 0..1`, its model name in the comment after it"
        );
        return;
    }
    let _ = writeln!(
        l,
        "% MiniZinc: the model variables as arrays of `var 0..1` named after the puzzle: {}; \
         the entries of an array that are not model variables are fixed to 0",
        names.join(", ")
    );
    if scalars > 0 {
        let _ = writeln!(
            l,
            "% {scalars} model variables whose names fit no array are single `var 0..1`, their \
             model names in the comments after them"
        );
    }
    let first = layout.arrays[0].entries[0].0;
    let _ = writeln!(
        l,
        "% the output item prints every model variable as `name = value;` (`{}` as `{}`), \
         the model's name after it where the element does not give it",
        layout.exprs[first], labels[first]
    );
}

/// An array's declaration and the constraints that fix its entries that are not model
/// variables.
fn write_array(lines: &mut Lines, array: &ArrayDecl, layout: &Layout) -> Result<(), StreamError> {
    let enums = &layout.enums;
    let sizes = array.sizes(enums);
    let sets = array.index_sets(enums);
    lines.put(|l| {
        let _ = write!(l, "array[{}] of var 0..1: {};", sets.join(", "), array.name);
        if !array.plain() {
            let indices: Vec<String> = (0..sizes.len())
                .map(|k| char::from(b'a' + (k % 26) as u8).to_string())
                .collect();
            let _ = write!(
                l,
                "  % the model's {} is {}[{}]",
                array.pattern(),
                array.name,
                indices.join(",")
            );
        }
        l.push('\n');
    })?;
    let blocks = array.absent_blocks(&sizes);
    if blocks.is_empty() {
        return Ok(());
    }
    let absent: usize = sizes.iter().product::<usize>() - array.entries.len();
    lines.put(|l| {
        let _ = writeln!(
            l,
            "% {absent} entries of {} are not model variables (an obstacle, a placement that \
             does not fit, ...): fixed to 0",
            array.name
        );
    })?;
    for block in blocks {
        lines.put(|l| {
            let mut generators: Vec<String> = Vec::new();
            let mut indices: Vec<String> = Vec::with_capacity(block.len());
            for (m, &(first, last)) in block.iter().enumerate() {
                if first == last {
                    indices.push(array.index_value(enums, m, first));
                    continue;
                }
                let g = &layout.generators[m];
                if (first, last) == (0, sizes[m] - 1) {
                    generators.push(format!("{g} in {}", sets[m]));
                } else {
                    generators.push(format!(
                        "{g} in {}..{}",
                        array.index_value(enums, m, first),
                        array.index_value(enums, m, last)
                    ));
                }
                indices.push(g.clone());
            }
            let element = format!("{}[{}]", array.name, indices.join(","));
            if generators.is_empty() {
                let _ = writeln!(l, "constraint {element} = 0;  % {NOT_IN_MODEL}");
            } else {
                let _ = writeln!(
                    l,
                    "constraint forall({}) ({element} = 0);  % {NOT_IN_MODEL}",
                    generators.join(", ")
                );
            }
        })?;
    }
    Ok(())
}

/// The FlatZinc header line.
fn describe_fzn(l: &mut String, layout: &Layout) {
    let _ = writeln!(
        l,
        "% FlatZinc: every model variable is a `var 0..1`, its model name in the comment after it"
    );
    if layout.arrays.is_empty() {
        return;
    }
    let names: Vec<&str> = layout.arrays.iter().map(|a| a.name.as_str()).collect();
    let _ = writeln!(
        l,
        "% printed as the arrays the MiniZinc file declares ({}; `:: output_array`, an enum \
         index as 1, 2, ..., an entry that is no model variable as 0), the others one by one \
         (`:: output_var`)",
        names.join(", ")
    );
}

/// An array's index ranges as FlatZinc prints them: an enum's as `1..n`.
fn print_ranges(array: &ArrayDecl, enums: &[EnumDecl]) -> Vec<(i64, i64)> {
    array
        .dims
        .iter()
        .map(|d| match d {
            Dim::Range(low, high) => (*low, *high),
            Dim::Enum(e) => (1, enums[*e].symbols.len() as i64),
        })
        .collect()
}

/// `array [1..N] of var int: q :: output_array([0..7,0..7]) = [q_0_0,...];`, the box in
/// row-major order (the last index fastest), `0` for an entry that is no model variable.
fn write_output_array(l: &mut String, array: &ArrayDecl, layout: &Layout, labels: &[String]) {
    let sizes = array.sizes(&layout.enums);
    let ranges: Vec<String> = print_ranges(array, &layout.enums)
        .iter()
        .map(|(low, high)| format!("{low}..{high}"))
        .collect();
    let at: HashMap<&[usize], usize> = array
        .entries
        .iter()
        .map(|(column, offsets)| (offsets.as_slice(), *column))
        .collect();
    let total: usize = sizes.iter().product();
    let _ = write!(
        l,
        "array [1..{total}] of var int: {} :: output_array([{}]) = [",
        array.name,
        ranges.join(",")
    );
    let mut offsets = vec![0usize; sizes.len()];
    for i in 0..total {
        if i > 0 {
            l.push(',');
        }
        match at.get(offsets.as_slice()) {
            Some(&column) => l.push_str(&labels[column]),
            None => l.push('0'),
        }
        // The next offsets, the last index fastest.
        for k in (0..sizes.len()).rev() {
            offsets[k] += 1;
            if offsets[k] < sizes[k] {
                break;
            }
            offsets[k] = 0;
        }
    }
    l.push_str("];\n");
}

/// `0..7, PLACE_1` as ranges, an enum (of `enums`, by size) as `1..n`; `None` for
/// anything else.
fn read_ranges(text: &str, enums: &HashMap<String, i64>) -> Option<Vec<(i64, i64)>> {
    text.split(',')
        .map(str::trim)
        .map(|r| match r.split_once("..") {
            Some((low, high)) => Some((low.trim().parse().ok()?, high.trim().parse().ok()?)),
            None => enums.get(r).map(|&n| (1, n)),
        })
        .collect()
}

/// How many entries ranges hold; `None` for an empty range or too many.
fn box_size(ranges: &[(i64, i64)]) -> Option<usize> {
    ranges.iter().try_fold(1usize, |size, &(low, high)| {
        let n = usize::try_from(high.checked_sub(low)?.checked_add(1)?).ok()?;
        (n > 0).then_some(())?;
        size.checked_mul(n).filter(|&s| s <= 1 << 24)
    })
}

/// How many entries ranges hold (0 for an empty range); `None` when that does not fit a
/// `usize`.
fn box_entries(ranges: &[(i64, i64)]) -> Option<usize> {
    ranges.iter().try_fold(1usize, |size, &(low, high)| {
        let n = (i128::from(high) - i128::from(low) + 1).max(0);
        size.checked_mul(usize::try_from(n).ok()?)
    })
}

/// The most entries the writer puts in the box of an array of `variables` model
/// variables (see [`BOX_FACTOR`]).
fn box_limit(variables: usize) -> usize {
    variables
        .saturating_mul(BOX_FACTOR)
        .saturating_add(BOX_SLACK)
}

/// Checks that array `name` over `ranges` holding `variables` model variables has no more
/// entries than the writer puts in such a box; the error says what is wrong.
fn check_box(name: &str, ranges: &[(i64, i64)], variables: usize) -> Result<(), String> {
    let limit = box_limit(variables);
    match box_entries(ranges) {
        None => Err(format!("array {name} has more entries than can be counted")),
        Some(entries) if entries > limit => Err(format!(
            "array {name} has {entries} entries, more than the {limit} of an array of \
             {variables} variables ({BOX_FACTOR} per variable plus {BOX_SLACK})"
        )),
        Some(_) => Ok(()),
    }
}

/// How many bytes the names [`box_names`] makes take in all (`None` past `usize`), so that
/// a reader can refuse names out of proportion to its text before making them.
fn box_names_len(name: &str, ranges: &[(i64, i64)]) -> Option<usize> {
    let entries = box_entries(ranges)?;
    if entries == 0 {
        return Some(0);
    }
    // `name[` and `]`, and the commas between the indices, in every name.
    let fixed = name.len() + 2 + ranges.len().saturating_sub(1);
    let mut total = entries.checked_mul(fixed)?;
    for &(low, high) in ranges {
        // Each value of this index is in entries / n names.
        let n = usize::try_from(i128::from(high) - i128::from(low) + 1).ok()?;
        let digits = usize::try_from(digits_in(low, high)).ok()?;
        total = total.checked_add((entries / n).checked_mul(digits)?)?;
    }
    Some(total)
}

/// How many characters the integers `low..=high` take written out, without writing them.
fn digits_in(low: i64, high: i64) -> u128 {
    // The lengths of 1..=n.
    let upto = |n: u128| {
        let (mut total, mut start, mut width) = (0u128, 1u128, 1u128);
        while start <= n {
            let end = n.min(start * 10 - 1);
            total += (end - start + 1) * width;
            start *= 10;
            width += 1;
        }
        total
    };
    let (low, high) = (i128::from(low), i128::from(high));
    if low > high {
        return 0;
    }
    let mut total = 0;
    if high >= 0 {
        // 0 (one character) and 1..=high, less 1..low.
        let from = low.max(0);
        total += upto(high as u128) - upto((from - 1).max(0) as u128) + u128::from(from == 0);
    }
    if low < 0 {
        // -m for m in 1.max(-high)..=-low: a sign and m's digits.
        let (first, last) = ((-high).max(1), -low);
        total += (last - first + 1) as u128 + upto(last as u128) - upto((first - 1) as u128);
    }
    total
}

/// The most bytes of entry names (see [`box_names_len`]) a reader makes per byte of the
/// text they are read from.
const NAMES_PER_BYTE: usize = 32;

/// The names of an array's entries as [`read_answer`] gives them, in row-major order:
/// `q[0,0]`, `q[0,1]`, ... for `ranges` 0..7, 0..7.
fn box_names(name: &str, ranges: &[(i64, i64)]) -> Vec<String> {
    let mut names = vec![String::new()];
    for &(low, high) in ranges {
        names = names
            .iter()
            .flat_map(|prefix| {
                (low..=high).map(move |v| {
                    if prefix.is_empty() {
                        v.to_string()
                    } else {
                        format!("{prefix},{v}")
                    }
                })
            })
            .collect();
    }
    names.into_iter().map(|n| format!("{name}[{n}]")).collect()
}

/// The comment after a constraint that fixes entries of an array that are not model
/// variables.
const NOT_IN_MODEL: &str = "not in the model";

/// The objective's terms with each array whose every variable is among them with
/// coefficient 1 as `sum(q)`: the sums, and the terms left; `None` for no such array.
fn array_sums(layout: &Layout, terms: &[(f64, usize)]) -> Option<(Vec<String>, Terms)> {
    let mut ones: HashMap<usize, usize> = HashMap::new();
    for &(c, v) in terms {
        if c == 1.0 {
            *ones.entry(v).or_default() += 1;
        }
    }
    let mut summed: HashSet<usize> = HashSet::new();
    let mut sums = Vec::new();
    for array in &layout.arrays {
        if array.entries.iter().all(|e| ones.get(&e.0) == Some(&1)) {
            summed.extend(array.entries.iter().map(|e| e.0));
            sums.push(format!("sum({})", array.name));
        }
    }
    let rest: Vec<(f64, usize)> = terms
        .iter()
        .filter(|&&(c, v)| !(c == 1.0 && summed.contains(&v)))
        .copied()
        .collect();
    (!sums.is_empty()).then_some((sums, rest))
}

/// Writes `problem` in `dialect` to `out`, `comments` first (each as a `%` line), line by
/// line; `control` can stop it ([`StreamError::Stopped`]).
pub fn write(
    problem: &Problem,
    dialect: Dialect,
    comments: &[String],
    out: &mut dyn Write,
    control: &Control,
) -> Result<(), StreamError> {
    let labels = mzn_names(problem.names);
    let mut lines = Lines {
        out,
        control,
        line: String::new(),
        count: 0,
    };
    let fzn = dialect == Dialect::FlatZinc;
    // MiniZinc declares the variables as arrays where it can; FlatZinc, which has no
    // arrays of variables beyond one index, declares scalars and prints them as those
    // arrays.
    let layout = Layout::new(problem.names, &labels);
    let idents: &[String] = if fzn { &labels } else { &layout.exprs };
    lines.put(|l| {
        for comment in comments {
            let _ = writeln!(l, "% {comment}");
        }
        if fzn {
            describe_fzn(l, &layout);
        } else {
            describe_layout(l, &layout, &labels);
        }
    })?;
    if !fzn {
        for e in &layout.enums {
            lines.put(|l| {
                let _ = writeln!(l, "enum {} = {{{}}};", e.name, e.idents.join(", "));
            })?;
        }
        for array in &layout.arrays {
            write_array(&mut lines, array, &layout)?;
        }
    }
    for (column, (label, name)) in labels.iter().zip(problem.names).enumerate() {
        if !fzn && !layout.scalar[column] {
            continue;
        }
        lines.put(|l| {
            // FlatZinc prints the array's variables with the array.
            let annotation = if fzn && layout.scalar[column] {
                " :: output_var"
            } else {
                ""
            };
            let _ = writeln!(l, "var 0..1: {label}{annotation};  % {name}");
        })?;
    }
    if fzn {
        for array in &layout.arrays {
            lines.put(|l| write_output_array(l, array, &layout, &labels))?;
        }
    }
    if let Some((terms, offset)) = &problem.objective {
        let offset = *offset as i64;
        let positive = terms.iter().filter(|t| t.0 > 0.0).count() as i64;
        let negative = terms.len() as i64 - positive;
        let (low, high) = (offset - negative, offset + positive);
        lines.put(|l| {
            if fzn {
                let _ = writeln!(l, "var {low}..{high}: {OBJECTIVE};");
            } else {
                let _ = write!(l, "var {low}..{high}: {OBJECTIVE} = ");
                if offset != 0 {
                    let _ = write!(l, "{offset} + ");
                }
                match (!fzn).then(|| array_sums(&layout, terms)).flatten() {
                    Some((sums, rest)) => {
                        l.push_str(&sums.join(" + "));
                        if !rest.is_empty() {
                            let mut more = String::new();
                            mzn_terms(&mut more, &rest, idents);
                            match more.strip_prefix('-') {
                                Some(negative) => {
                                    let _ = write!(l, " - {negative}");
                                }
                                None => {
                                    let _ = write!(l, " + {more}");
                                }
                            }
                        }
                    }
                    None => mzn_terms(l, terms, idents),
                }
                l.push_str(";\n");
            }
        })?;
        if fzn {
            // sum(terms) - objective = -offset
            let mut with_objective = terms.clone();
            with_objective.push((-1.0, usize::MAX));
            lines.put(|l| {
                let coefficients: Vec<String> = with_objective
                    .iter()
                    .map(|&(c, _)| (c as i64).to_string())
                    .collect();
                let variables: Vec<&str> = with_objective
                    .iter()
                    .map(|&(_, v)| idents.get(v).map_or(OBJECTIVE, String::as_str))
                    .collect();
                let _ = writeln!(
                    l,
                    "constraint int_lin_eq([{}],[{}],{});  % {OBJECTIVE}",
                    coefficients.join(","),
                    variables.join(","),
                    -offset
                );
            })?;
        }
    }
    for (row, words) in &problem.rows {
        lines.put(|l| write_row(l, row, words, idents, dialect))?;
    }
    if let (Some(k), Some(_)) = (problem.at_least, &problem.objective) {
        lines.put(|l| {
            if fzn {
                let _ = writeln!(l, "constraint int_le({k},{OBJECTIVE});  % at_least");
            } else {
                let _ = writeln!(l, "constraint {OBJECTIVE} >= {k};  % at_least");
            }
        })?;
    }
    lines.put(|l| {
        if problem.objective.is_some() && problem.at_least.is_none() {
            let _ = writeln!(l, "solve maximize {OBJECTIVE};");
        } else {
            l.push_str("solve satisfy;\n");
        }
    })?;
    if !fzn {
        lines.put(|l| l.push_str("output [\n"))?;
        for ((label, expr), name) in labels.iter().zip(idents).zip(problem.names) {
            lines.put(|l| {
                let _ = write!(l, "  \"{label} = \", show({expr}), \";\\n\",");
                // The model's name where the element does not give it.
                if expr != name && expr != label {
                    let _ = write!(l, "  % {name}");
                }
                l.push('\n');
            })?;
        }
        lines.put(|l| l.push_str("];\n"))?;
    }
    lines.out.flush()?;
    if control.should_stop() {
        return Err(StreamError::Stopped);
    }
    Ok(())
}

/// One row as a constraint line.
fn write_row(l: &mut String, row: &Row, words: &str, idents: &[String], dialect: Dialect) {
    let rhs = row.rhs as i64;
    if row.terms.is_empty() {
        // A row without variables holds or not by itself.
        let holds = row.holds_at(0.0);
        let _ = match (dialect, holds) {
            (_, true) => writeln!(l, "% {words}: no variables, always true"),
            (Dialect::MiniZinc, false) => writeln!(l, "constraint false;  % {words}"),
            (Dialect::FlatZinc, false) => {
                writeln!(l, "constraint bool_eq(true,false);  % {words}")
            }
        };
        return;
    }
    match dialect {
        Dialect::MiniZinc => {
            l.push_str("constraint ");
            mzn_terms(l, &row.terms, idents);
            let op = match row.comparison {
                Comparison::AtMost => "<=",
                Comparison::AtLeast => ">=",
                Comparison::Equal => "=",
            };
            let _ = writeln!(l, " {op} {rhs};  % {words}");
        }
        Dialect::FlatZinc => {
            let (predicate, scale, rhs) = match row.comparison {
                Comparison::AtMost => ("int_lin_le", 1, rhs),
                Comparison::AtLeast => ("int_lin_le", -1, -rhs),
                Comparison::Equal => ("int_lin_eq", 1, rhs),
            };
            let _ = write!(l, "constraint {predicate}(");
            fzn_arrays(l, &row.terms, idents, scale);
            let _ = writeln!(l, ",{rhs});  % {words}");
        }
    }
}

/// A MiniZinc or FlatZinc file `emit` wrote, read back: its identifiers with the model
/// names their comments give, and its constraints as rows over them.
#[derive(Clone, Debug, PartialEq)]
pub struct MznFile {
    /// Which dialect it is.
    pub dialect: Dialect,
    /// The identifiers, in the order declared.
    pub idents: Vec<String>,
    /// The model name of each identifier (the identifier itself when no comment names it).
    pub names: Vec<String>,
    /// The constraints as rows over the identifiers (the objective's definition left out;
    /// `objective >= K` as a row over the objective's terms).
    pub program: LinearProgram,
    /// Every entry of every array as FlatZinc solvers print it (`q = array2d(...)` read as
    /// `q[0,0]`, `q[0,1]`, ...; an enum index by its position from 1: `place[1,0,0,0]`),
    /// with its column; `None` for an entry that is no model variable (always 0).
    pub aliases: HashMap<String, Option<usize>>,
}

/// Reads a file of the form [`write()`] writes. Only its declarations and constraint lines
/// are read; every other line (comments, the objective, `solve`, `output`) is skipped.
pub fn read_file(text: &str) -> Result<MznFile, ReadError> {
    // FlatZinc by its annotations, its header comment or its constraints (a file without
    // variables has no annotation).
    let fzn = text.lines().any(|l| {
        l.contains(":: output_var")
            || l.starts_with("% FlatZinc:")
            || l.starts_with("constraint int_lin_")
    });
    let Variables {
        idents,
        names,
        index,
        arrays,
        aliases,
    } = read_variables(text, fzn)?;
    let mut rows: Vec<Row> = Vec::new();
    let mut objective: Option<(Vec<(f64, usize)>, f64)> = None;
    // `objective >= K` lines, resolved once the objective is read.
    let mut bounds: Vec<(usize, i64)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let error = |message: String| ReadError::Line {
            line: number,
            message,
        };
        let (code, comment) = split_comment(raw);
        if comment == NOT_IN_MODEL {
            // An entry of an array that is no model variable, fixed to 0.
            continue;
        }
        if !fzn {
            if let Some(definition) = code
                .strip_prefix("var ")
                .and_then(|d| d.split_once(&format!("{OBJECTIVE} =")))
            {
                let expression = definition.1.trim().trim_end_matches(';');
                let (terms, constant) =
                    read_mzn_terms(expression, &index, &arrays).map_err(&error)?;
                objective = Some((terms, constant as f64));
                continue;
            }
        }
        let Some(body) = code.strip_prefix("constraint ") else {
            continue;
        };
        let body = body.trim().trim_end_matches(';').trim();
        let row_name = comment
            .split(':')
            .next()
            .filter(|n| !n.is_empty())
            .map_or_else(|| format!("line{number}"), str::to_string);
        if comment == OBJECTIVE && fzn {
            // int_lin_eq([..,-1],[.., objective], -offset): the objective's definition.
            let (mut terms, rhs) =
                read_fzn_call(body, "int_lin_eq", &index, true).map_err(&error)?;
            terms.retain(|&(_, v)| v != usize::MAX);
            objective = Some((terms, -rhs as f64));
            continue;
        }
        let row = if fzn {
            if let Some(args) = body
                .strip_prefix("int_le(")
                .and_then(|a| a.strip_suffix(")"))
            {
                let (k, var) = args
                    .split_once(',')
                    .ok_or_else(|| error(format!("bad constraint {body:?}")))?;
                if var.trim() != OBJECTIVE {
                    return Err(error(format!("bad constraint {body:?}")));
                }
                let k: i64 = k
                    .trim()
                    .parse()
                    .map_err(|_| error(format!("bad bound {k:?}")))?;
                bounds.push((rows.len(), k));
                rows.push(placeholder(row_name));
                continue;
            }
            if body == "bool_eq(true,false)" {
                Row {
                    name: row_name,
                    terms: Vec::new(),
                    comparison: Comparison::AtLeast,
                    rhs: 1.0,
                }
            } else {
                let (predicate, comparison) = if body.starts_with("int_lin_le(") {
                    ("int_lin_le", Comparison::AtMost)
                } else if body.starts_with("int_lin_eq(") {
                    ("int_lin_eq", Comparison::Equal)
                } else {
                    return Err(error(format!("unknown constraint {body:?}")));
                };
                let (terms, rhs) = read_fzn_call(body, predicate, &index, false).map_err(&error)?;
                Row {
                    name: row_name,
                    terms,
                    comparison,
                    rhs: rhs as f64,
                }
            }
        } else {
            if body == "false" {
                rows.push(Row {
                    name: row_name,
                    terms: Vec::new(),
                    comparison: Comparison::AtLeast,
                    rhs: 1.0,
                });
                continue;
            }
            let (left, comparison, right) = [
                ("<=", Comparison::AtMost),
                (">=", Comparison::AtLeast),
                ("=", Comparison::Equal),
            ]
            .into_iter()
            .find_map(|(op, comparison)| {
                body.split_once(op)
                    .map(|(left, right)| (left, comparison, right))
            })
            .ok_or_else(|| error(format!("no comparison in constraint {body:?}")))?;
            let rhs: i64 = right
                .trim()
                .parse()
                .map_err(|_| error(format!("bad right side {:?}", right.trim())))?;
            if left.trim() == OBJECTIVE && comparison == Comparison::AtLeast {
                bounds.push((rows.len(), rhs));
                rows.push(placeholder(row_name));
                continue;
            }
            let (terms, constant) = read_mzn_terms(left.trim(), &index, &arrays).map_err(&error)?;
            Row {
                name: row_name,
                terms,
                comparison,
                rhs: (rhs - constant) as f64,
            }
        };
        rows.push(row);
    }
    if idents.is_empty() && !text.lines().any(|l| l.trim_start().starts_with("solve ")) {
        return Err(ReadError::File(
            "no `var 0..1` declarations and no `solve` item".into(),
        ));
    }
    let (objective_terms, offset) = objective.clone().unwrap_or_default();
    for (at, k) in bounds {
        if objective.is_none() {
            return Err(ReadError::File(
                "a bound on the objective, but no objective".into(),
            ));
        }
        rows[at].terms = objective_terms.clone();
        rows[at].rhs = k as f64 - offset;
    }
    Ok(MznFile {
        dialect: if fzn {
            Dialect::FlatZinc
        } else {
            Dialect::MiniZinc
        },
        idents: idents.clone(),
        names,
        aliases,
        program: LinearProgram {
            columns: idents,
            objective: objective_terms,
            objective_offset: offset,
            rows,
        },
    })
}

fn placeholder(name: String) -> Row {
    Row {
        name,
        terms: Vec::new(),
        comparison: Comparison::AtLeast,
        rhs: 0.0,
    }
}

/// `3 + a - b + 2*c` as terms over known variables (identifiers or array elements such as
/// `q[3,5]`) and a constant; `sum(q)` is every variable of array `q`.
fn read_mzn_terms(
    text: &str,
    index: &HashMap<String, usize>,
    arrays: &HashMap<String, Vec<usize>>,
) -> Result<(Vec<(f64, usize)>, i64), String> {
    // The signed words, cut at `+` and `-` outside brackets.
    let mut words: Vec<(i64, String)> = Vec::new();
    let mut word = String::new();
    let mut sign = 1i64;
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth = depth.saturating_sub(1),
            '+' | '-' if depth == 0 => {
                if !word.trim().is_empty() {
                    words.push((sign, word.trim().to_string()));
                    word.clear();
                    sign = 1;
                }
                if c == '-' {
                    sign = -sign;
                }
                continue;
            }
            _ => {}
        }
        word.push(c);
    }
    if !word.trim().is_empty() {
        words.push((sign, word.trim().to_string()));
    }
    let mut terms = Vec::new();
    let mut constant = 0i64;
    for (sign, word) in &words {
        if let Some(array) = word.strip_prefix("sum(").and_then(|w| w.strip_suffix(')')) {
            let columns = arrays
                .get(array.trim())
                .ok_or_else(|| format!("undeclared array {:?}", array.trim()))?;
            terms.extend(columns.iter().map(|&c| (*sign as f64, c)));
            continue;
        }
        let (coefficient, name) = match word.split_once('*') {
            Some((c, name)) => (
                c.trim()
                    .parse::<i64>()
                    .map_err(|_| format!("bad coefficient {c:?}"))?,
                Some(name.trim()),
            ),
            None => match word.parse::<i64>() {
                Ok(n) => (n, None),
                Err(_) => (1, Some(word.as_str())),
            },
        };
        match name {
            None => constant += sign * coefficient,
            Some(name) => {
                let &column = index
                    .get(name)
                    .ok_or_else(|| format!("undeclared variable {name:?}"))?;
                terms.push(((sign * coefficient) as f64, column));
            }
        }
    }
    Ok((terms, constant))
}

/// A line as its code and its comment (after the first `%`), both trimmed.
fn split_comment(raw: &str) -> (&str, &str) {
    match raw.split_once('%') {
        Some((code, comment)) => (code.trim(), comment.trim()),
        None => (raw.trim(), ""),
    }
}

/// The variables a file declares.
struct Variables {
    /// The identifiers an answer gives values by, in column order.
    idents: Vec<String>,
    /// Each column's model name.
    names: Vec<String>,
    /// The column of each variable as constraints write it (`q[3,5]`, `x_int`).
    index: HashMap<String, usize>,
    /// The columns of each array, in column order.
    arrays: HashMap<String, Vec<usize>>,
    /// See [`MznFile::aliases`].
    aliases: HashMap<String, Option<usize>>,
}

/// A file's variables. FlatZinc: the `var 0..1` declarations, each named by its comment.
/// MiniZinc: the output item's `"LABEL = ", show(EXPR), ";\n",` lines, EXPR a scalar
/// `var 0..1` or an element of a declared array, the model name from the line's comment,
/// the scalar's comment, or EXPR itself.
fn read_variables(text: &str, fzn: bool) -> Result<Variables, ReadError> {
    let mut scalars: Vec<(String, String)> = Vec::new();
    let mut scalar_at: HashMap<String, usize> = HashMap::new();
    // Each array's index ranges as FlatZinc prints them, and (FlatZinc) its entries.
    let mut declared_arrays: HashMap<String, Vec<(i64, i64)>> = HashMap::new();
    // The declared arrays in order, each with its line.
    let mut declared_order: Vec<(String, usize)> = Vec::new();
    // The bytes of the arrays' entry names so far, and the most the file may make.
    let mut names_len: usize = 0;
    let names_limit = text.len().saturating_mul(NAMES_PER_BYTE);
    let names_error = |name: &str, total: Option<usize>| {
        let total = total.map_or_else(|| "more than can be counted".into(), |t| t.to_string());
        format!(
            "the entry names of the arrays up to {name} would take {total} bytes, more than \
             {NAMES_PER_BYTE} per byte of the file ({} bytes)",
            text.len()
        )
    };
    let mut printed_arrays: Vec<(String, Ranges, Vec<String>)> = Vec::new();
    // Each enum's size, and the position (from 1) of each enum symbol.
    let mut enum_sizes: HashMap<String, i64> = HashMap::new();
    let mut symbols: HashMap<String, i64> = HashMap::new();
    // (label, expression, comment, line)
    let mut printed: Vec<(String, String, String, usize)> = Vec::new();
    let is_word =
        |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let error = |message: String| ReadError::Line {
            line: number,
            message,
        };
        let (code, comment) = split_comment(raw);
        if let Some(rest) = code.strip_prefix("var 0..1:") {
            let ident = rest
                .trim()
                .trim_end_matches(';')
                .trim_end_matches(":: output_var")
                .trim();
            if !is_word(ident) {
                return Err(error(format!("bad variable declaration {code:?}")));
            }
            if scalar_at.insert(ident.to_string(), scalars.len()).is_some() {
                return Err(error(format!("variable {ident} declared twice")));
            }
            let name = if comment.is_empty() { ident } else { comment };
            scalars.push((ident.to_string(), name.to_string()));
            continue;
        }
        if fzn {
            if code.starts_with("array [") && code.contains(":: output_array(") {
                let bad = || error(format!("bad array declaration {code:?}"));
                let (head, items) = code.split_once(":: output_array([").ok_or_else(bad)?;
                let name = head.rsplit_once(':').ok_or_else(bad)?.1.trim();
                let (ranges, items) = items.split_once("]) = [").ok_or_else(bad)?;
                let items = items.strip_suffix("];").ok_or_else(bad)?;
                let ranges = read_ranges(ranges, &HashMap::new()).ok_or_else(bad)?;
                let items: Vec<String> = items.split(',').map(|i| i.trim().to_string()).collect();
                if !is_word(name) {
                    return Err(bad());
                }
                let variables = items.iter().filter(|i| *i != "0").count();
                check_box(name, &ranges, variables).map_err(error)?;
                if box_size(&ranges) != Some(items.len()) {
                    return Err(bad());
                }
                let total = box_names_len(name, &ranges).and_then(|n| n.checked_add(names_len));
                match total {
                    Some(total) if total <= names_limit => names_len = total,
                    _ => return Err(error(names_error(name, total))),
                }
                printed_arrays.push((name.to_string(), ranges, items));
            }
            continue;
        }
        if let Some(rest) = code.strip_prefix("enum ") {
            let bad = || error(format!("bad enum declaration {code:?}"));
            let (name, list) = rest.split_once('=').ok_or_else(bad)?;
            let list = list
                .trim()
                .strip_prefix('{')
                .and_then(|l| l.strip_suffix("};"))
                .ok_or_else(bad)?;
            let mut size = 0;
            for symbol in list.split(',').map(str::trim) {
                size += 1;
                if !is_word(symbol) || symbols.insert(symbol.to_string(), size).is_some() {
                    return Err(bad());
                }
            }
            enum_sizes.insert(name.trim().to_string(), size);
            continue;
        }
        if let Some(rest) = code.strip_prefix("array[") {
            let bad = || error(format!("bad array declaration {code:?}"));
            let (ranges, name) = rest.rsplit_once("] of var 0..1:").ok_or_else(bad)?;
            let name = name.trim().trim_end_matches(';').trim();
            let ranges = read_ranges(ranges, &enum_sizes).ok_or_else(bad)?;
            if !is_word(name) {
                return Err(bad());
            }
            if box_entries(&ranges).is_none() {
                return Err(error(format!(
                    "array {name} has more entries than can be counted"
                )));
            }
            if declared_arrays.insert(name.to_string(), ranges).is_some() {
                return Err(error(format!("array {name} declared twice")));
            }
            declared_order.push((name.to_string(), number));
            continue;
        }
        if let Some(rest) = code.strip_prefix('"') {
            let bad = || error(format!("bad output line {code:?}"));
            let (label, rest) = rest.split_once(" = \", show(").ok_or_else(bad)?;
            let expr = rest.strip_suffix("), \";\\n\",").ok_or_else(bad)?;
            printed.push((
                label.to_string(),
                expr.to_string(),
                comment.to_string(),
                number,
            ));
        }
    }
    let mut variables = Variables {
        idents: Vec::new(),
        names: Vec::new(),
        index: HashMap::new(),
        arrays: HashMap::new(),
        aliases: HashMap::new(),
    };
    if fzn || printed.is_empty() {
        for (ident, name) in scalars {
            variables
                .index
                .insert(ident.clone(), variables.idents.len());
            variables.idents.push(ident);
            variables.names.push(name);
        }
        for (name, ranges, items) in printed_arrays {
            for (entry, item) in box_names(&name, &ranges).into_iter().zip(items) {
                let column = if item == "0" {
                    None
                } else {
                    Some(*variables.index.get(&item).ok_or_else(|| {
                        ReadError::File(format!("array {name} holds undeclared {item:?}"))
                    })?)
                };
                variables.aliases.insert(entry, column);
            }
        }
        return Ok(variables);
    }
    let mut labels: HashSet<String> = HashSet::new();
    let mut printed_scalars = 0;
    for (label, expr, comment, number) in printed {
        let error = |message: String| ReadError::Line {
            line: number,
            message,
        };
        if !is_word(&label) {
            return Err(error(format!("bad output name {label:?}")));
        }
        if !labels.insert(label.clone()) {
            return Err(error(format!("variable {label} printed twice")));
        }
        let column = variables.idents.len();
        let scalar = scalar_at.get(&expr).map(|&at| &scalars[at].1);
        if scalar.is_some() {
            printed_scalars += 1;
        } else {
            let array = expr
                .split_once('[')
                .filter(|(_, rest)| rest.ends_with(']'))
                .map(|(array, _)| array)
                .filter(|array| declared_arrays.contains_key(*array))
                .ok_or_else(|| error(format!("{expr} is not a declared variable")))?;
            variables
                .arrays
                .entry(array.to_string())
                .or_default()
                .push(column);
        }
        if variables.index.insert(expr.clone(), column).is_some() {
            return Err(error(format!("{expr} is printed twice")));
        }
        let name = if !comment.is_empty() {
            comment
        } else {
            scalar.cloned().unwrap_or(expr)
        };
        variables.idents.push(label);
        variables.names.push(name);
    }
    // The array entries as FlatZinc solvers print them, an enum symbol as its position.
    let mut printed_as: HashMap<String, usize> = HashMap::new();
    for (expr, &column) in &variables.index {
        if let Some((array, indices)) = expr.strip_suffix(']').and_then(|e| e.split_once('[')) {
            let indices: Vec<String> = indices
                .split(',')
                .map(|i| symbols.get(i).map_or_else(|| i.to_string(), i64::to_string))
                .collect();
            printed_as.insert(format!("{array}[{}]", indices.join(",")), column);
        }
    }
    // The boxes checked against their variables (as the writer makes them) before their
    // names are made.
    for (array, line) in &declared_order {
        let error = |message: String| ReadError::Line {
            line: *line,
            message,
        };
        let ranges = &declared_arrays[array];
        let variables = variables.arrays.get(array).map_or(0, Vec::len);
        check_box(array, ranges, variables).map_err(error)?;
        let total = box_names_len(array, ranges).and_then(|n| n.checked_add(names_len));
        match total {
            Some(total) if total <= names_limit => names_len = total,
            _ => return Err(error(names_error(array, total))),
        }
    }
    for (array, ranges) in &declared_arrays {
        for entry in box_names(array, ranges) {
            let column = printed_as.get(&entry).copied();
            variables.aliases.insert(entry, column);
        }
    }
    if printed_scalars < scalars.len() {
        let missing = scalars
            .iter()
            .find(|(ident, _)| !variables.index.contains_key(ident))
            .map_or("", |(ident, _)| ident.as_str());
        return Err(ReadError::File(format!(
            "variable {missing} is not in the output item"
        )));
    }
    Ok(variables)
}

/// `predicate([c..],[v..],rhs)` as terms and the right side; `objective` (when
/// `allow_objective`) becomes column `usize::MAX`.
fn read_fzn_call(
    body: &str,
    predicate: &str,
    index: &HashMap<String, usize>,
    allow_objective: bool,
) -> Result<(Vec<(f64, usize)>, i64), String> {
    let bad = || format!("bad constraint {body:?}");
    let args = body
        .strip_prefix(predicate)
        .and_then(|a| a.strip_prefix('('))
        .and_then(|a| a.strip_suffix(')'))
        .ok_or_else(bad)?;
    let (coefficients, rest) = args
        .strip_prefix('[')
        .and_then(|a| a.split_once("],["))
        .ok_or_else(bad)?;
    let (variables, rhs) = rest.split_once("],").ok_or_else(bad)?;
    let rhs: i64 = rhs.trim().parse().map_err(|_| bad())?;
    let list = |s: &str| -> Vec<String> {
        s.split(',')
            .map(|w| w.trim().to_string())
            .filter(|w| !w.is_empty())
            .collect()
    };
    let coefficients = list(coefficients);
    let variables = list(variables);
    if coefficients.len() != variables.len() {
        return Err(bad());
    }
    let mut terms = Vec::with_capacity(variables.len());
    for (c, v) in coefficients.iter().zip(&variables) {
        let c: i64 = c.parse().map_err(|_| format!("bad coefficient {c:?}"))?;
        let column = if allow_objective && v == OBJECTIVE {
            usize::MAX
        } else {
            *index
                .get(v.as_str())
                .ok_or_else(|| format!("undeclared variable {v:?}"))?
        };
        terms.push((c as f64, column));
    }
    Ok((terms, rhs))
}

/// What a MiniZinc or FlatZinc solver printed.
#[derive(Clone, Debug, PartialEq)]
pub enum MznStatus {
    /// A solution (the last one printed), and whether `==========` says the search
    /// finished (for `solve maximize`: the solver claims it optimal).
    Solution {
        /// The values by identifier, as written (`0`, `1`, `true`, ...).
        values: Vec<(String, String)>,
        /// `==========` was printed.
        complete: bool,
    },
    /// `=====UNSATISFIABLE=====`.
    Unsatisfiable,
    /// `=====UNKNOWN=====`, `=====ERROR=====` or another status without a solution; the
    /// line as printed.
    Unknown(String),
}

/// An answer that does not read as MiniZinc solver output.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MznAnswerError {
    /// A line that is none of `name = value;` (an integer or Boolean value), a separator, a
    /// status or a `%` comment.
    #[error("line {line}: {text:?} is not `name = value;`")]
    NotAnAssignment {
        /// The 1-based line.
        line: usize,
        /// The line.
        text: String,
    },
    /// A variable given twice in one solution.
    #[error("line {line}: {name} is given twice in one solution")]
    Twice {
        /// The 1-based line.
        line: usize,
        /// The identifier.
        name: String,
    },
    /// An array (`q = array2d(...)`) whose entries' names would take more than 32 bytes
    /// per byte of its line.
    #[error(
        "line {line}: the entry names of array {name} would take {bytes} bytes, more than \
         {NAMES_PER_BYTE} per byte of the line ({len} bytes)"
    )]
    TooLong {
        /// The 1-based line.
        line: usize,
        /// The array's name.
        name: String,
        /// The bytes its entries' names would take.
        bytes: usize,
        /// The line's length in bytes.
        len: usize,
    },
    /// Values after the last `----------`: a solution cut off.
    #[error("values after the last `----------` (a solution cut off)")]
    Unfinished,
    /// No solution and no status line.
    #[error("no solution (`----------`) and no status line (`=====UNSATISFIABLE=====`)")]
    Empty,
}

/// Reads MiniZinc solver output (see the module's documentation).
pub fn read_answer(text: &str) -> Result<MznStatus, MznAnswerError> {
    let mut current: Vec<(String, String)> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut last: Option<Vec<(String, String)>> = None;
    let mut complete = false;
    let mut status: Option<MznStatus> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('%') {
            continue;
        }
        if line == "----------" {
            last = Some(std::mem::take(&mut current));
            seen.clear();
            continue;
        }
        if line == "==========" {
            complete = true;
            continue;
        }
        if line.starts_with("=====") && line.ends_with("=====") {
            status = Some(if line == "=====UNSATISFIABLE=====" {
                MznStatus::Unsatisfiable
            } else {
                MznStatus::Unknown(line.to_string())
            });
            continue;
        }
        let assigned = match assignments(line) {
            Ok(assigned) => assigned,
            Err(None) => {
                return Err(MznAnswerError::NotAnAssignment {
                    line: i + 1,
                    text: line.to_string(),
                })
            }
            Err(Some((name, bytes))) => {
                return Err(MznAnswerError::TooLong {
                    line: i + 1,
                    name,
                    bytes,
                    len: line.len(),
                })
            }
        };
        for (name, value) in assigned {
            // MiniZinc's own values (`_objective = 8;` with `--output-objective`): no
            // identifier `emit` writes starts with `_`.
            if name.starts_with('_') {
                continue;
            }
            if !seen.insert(name.clone()) {
                return Err(MznAnswerError::Twice { line: i + 1, name });
            }
            current.push((name, value));
        }
    }
    if !current.is_empty() {
        return Err(MznAnswerError::Unfinished);
    }
    match (last, status) {
        (Some(values), _) => Ok(MznStatus::Solution { values, complete }),
        (None, Some(status)) => Ok(status),
        (None, None) => Err(MznAnswerError::Empty),
    }
}

/// Whether `text` looks like MiniZinc solver output: a `----------` separator or a
/// `=====...=====` status line, or (a solution cut off before its separator) nothing but
/// `name = value;` lines and `%` comments.
pub fn is_answer(text: &str) -> bool {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('%'))
        .collect();
    let marked = lines.iter().any(|l| {
        *l == "----------" || (l.len() > 10 && l.starts_with("=====") && l.ends_with("====="))
    });
    marked || (!lines.is_empty() && lines.iter().all(|l| assignments(l).is_ok()))
}

/// An answer's array whose entries' names would take too many bytes: its name and the
/// bytes.
type TooLong = (String, usize);

/// `name = value;`, or an array as FlatZinc solvers print one
/// (`q = array2d(0..1, 0..1, [0, 1, 1, 0]);`) as its entries `q[0,0] = 0`, `q[0,1] = 1`, ...
/// (see [`MznFile::aliases`]); `Err(None)` for anything else, `Err(Some((name, bytes)))`
/// for an array whose entries' names would take more than [`NAMES_PER_BYTE`] bytes per
/// byte of the line (`usize::MAX` bytes when they are past counting).
fn assignments(line: &str) -> Result<Vec<(String, String)>, Option<TooLong>> {
    if let Some((name, value)) = assignment(line) {
        return Ok(vec![(name.to_string(), value.to_string())]);
    }
    let array = || {
        let (name, rest) = line.strip_suffix(");")?.split_once(" = array")?;
        let (dims, rest) = rest.split_once("d(")?;
        let (ranges, values) = rest.split_once('[')?;
        let values = values.strip_suffix(']')?;
        let ranges = read_ranges(ranges.trim().trim_end_matches(','), &HashMap::new())?;
        Some((name.trim(), dims, ranges, values))
    };
    let (name, dims, ranges, values) = array().ok_or(None)?;
    let values: Vec<&str> = values
        .split(',')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .collect();
    let valid = is_ident(name)
        && dims.parse::<usize>().ok() == Some(ranges.len())
        && box_size(&ranges) == Some(values.len())
        && values
            .iter()
            .all(|v| v.parse::<i64>().is_ok() || zero_one(v).is_some());
    if !valid {
        return Err(None);
    }
    // As many entries as values: the names' bytes are what is left to bound.
    match box_names_len(name, &ranges) {
        Some(bytes) if bytes <= line.len().saturating_mul(NAMES_PER_BYTE) => {}
        bytes => return Err(Some((name.to_string(), bytes.unwrap_or(usize::MAX)))),
    }
    Ok(box_names(name, &ranges)
        .into_iter()
        .zip(values.iter().map(|v| v.to_string()))
        .collect())
}

/// `name = value;` as (name, value), the name an identifier and the value an integer or
/// Boolean.
fn assignment(line: &str) -> Option<(&str, &str)> {
    line.strip_suffix(';')
        .and_then(|l| l.split_once('='))
        .map(|(name, value)| (name.trim(), value.trim()))
        .filter(|(name, value)| {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && (value.parse::<i64>().is_ok() || zero_one(value).is_some())
        })
}

/// A value as 0 or 1 (`true` / `false` too); `None` for anything else.
pub fn zero_one(value: &str) -> Option<bool> {
    match value {
        "0" | "false" => Some(false),
        "1" | "true" => Some(true),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Constraint, Lit, Objective};

    fn sample() -> Model {
        let mut m = Model::new();
        let l: Vec<Lit> = ["q[0,0]", "q[1,0]", "int", "objective", "x"]
            .iter()
            .map(|n| m.new_var(n.to_string()).positive())
            .collect();
        m.add(Constraint::AtMostOne(vec![l[0], l[1], !l[2]]));
        m.add(Constraint::ExactlyOne(vec![l[2], l[3]]));
        m.add(Constraint::AtLeast(vec![l[0], l[3], !l[4]], 2));
        m.add(Constraint::AtLeastAsMany {
            first: vec![l[0]],
            second: vec![l[1], !l[4]],
        });
        m.objective = Some(Objective {
            lits: vec![l[0], l[1], !l[4]],
            amo_groups: None,
        });
        m
    }

    fn text(model: &Model, dialect: Dialect, at_least: Option<usize>) -> String {
        let mut out = Vec::new();
        write(
            &Problem::from_model(model, at_least),
            dialect,
            &["hello".into()],
            &mut out,
            &Control::unlimited(),
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn keywords_are_not_identifiers() {
        let names: Vec<String> = ["int", "objective", "q[1]", "x_int", "sum"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            mzn_names(&names),
            vec!["x_int", "x_objective", "q_1", "x_int_2", "x_sum"]
        );
    }

    #[test]
    fn both_dialects_read_back_as_the_rows_of_the_lp_file() {
        let model = sample();
        for at_least in [None, Some(2)] {
            let lp = LinearProgram::from_model(&model, at_least);
            for dialect in [Dialect::MiniZinc, Dialect::FlatZinc] {
                let written = text(&model, dialect, at_least);
                let file = read_file(&written).unwrap();
                assert_eq!(file.dialect, dialect, "{written}");
                assert_eq!(file.names, model.names(), "{written}");
                assert_eq!(file.program.rows.len(), lp.rows.len(), "{written}");
                for (read, expected) in file.program.rows.iter().zip(&lp.rows) {
                    // Every 0-1 point agrees (the forms may differ by a factor of -1).
                    for bits in 0u32..32 {
                        let values: Vec<bool> = (0..5).map(|i| bits >> i & 1 == 1).collect();
                        assert_eq!(
                            read.holds_at(read.lhs(&values)),
                            expected.holds_at(expected.lhs(&values)),
                            "{dialect:?} row {} at {bits:05b}\n{written}",
                            expected.name
                        );
                    }
                }
                assert_eq!(file.program.objective, lp.objective, "{written}");
                assert_eq!(file.program.objective_offset, lp.objective_offset);
            }
        }
    }

    #[test]
    fn the_minizinc_file_reads_as_written() {
        let written = text(&sample(), Dialect::MiniZinc, None);
        assert!(written.starts_with("% hello\n"), "{written}");
        // q[0,0] and q[1,0] are an array; the other names fit none.
        assert!(
            written.contains("\narray[0..1, 0..0] of var 0..1: q;\nvar 0..1: x_int;  % int\n"),
            "{written}"
        );
        assert!(
            written.contains("% 3 model variables whose names fit no array are single"),
            "{written}"
        );
        assert!(
            written.contains("constraint q[0,0] + q[1,0] - x_int <= 0;  % c1: at-most-one\n"),
            "{written}"
        );
        assert!(
            written.contains("var 0..3: objective = 1 + sum(q) - x;\n"),
            "{written}"
        );
        assert!(written.contains("solve maximize objective;\n"), "{written}");
        assert!(
            written.contains("  \"q_0_0 = \", show(q[0,0]), \";\\n\",\n"),
            "{written}"
        );
        assert!(
            written.contains("  \"x_int = \", show(x_int), \";\\n\",\n"),
            "{written}"
        );
        let decision = text(&sample(), Dialect::MiniZinc, Some(2));
        assert!(decision.contains("constraint objective >= 2;  % at_least\n"));
        assert!(decision.contains("solve satisfy;\n"));
    }

    /// A model of the given variable names, one at-most-one row over all of them, the
    /// objective their count.
    fn named(names: &[String]) -> Model {
        let mut m = Model::new();
        let lits: Vec<Lit> = names
            .iter()
            .map(|n| m.new_var(n.clone()).positive())
            .collect();
        m.add(Constraint::AtMostOne(lits.clone()));
        m.objective = Some(Objective {
            lits,
            amo_groups: None,
        });
        m
    }

    /// Reads `written` back and checks its names and its row against `model`.
    fn reads_back(model: &Model, written: &str) -> MznFile {
        let file = read_file(written).unwrap();
        assert_eq!(file.names, model.names(), "{written}");
        assert_eq!(file.idents, mzn_names(model.names()), "{written}");
        let lp = LinearProgram::from_model(model, None);
        assert_eq!(file.program.rows, lp.rows, "{written}");
        let sorted = |terms: &[(f64, usize)]| {
            let mut columns: Vec<usize> = terms.iter().map(|t| t.1).collect();
            columns.sort_unstable();
            columns
        };
        assert_eq!(
            sorted(&file.program.objective),
            sorted(&lp.objective),
            "{written}"
        );
        file
    }

    #[test]
    fn queens_are_an_array_with_the_obstacles_fixed_to_0() {
        // A 3 x 3 board, q[x,y], with an obstacle at (1,1) and (2,1).
        let names: Vec<String> = (0..3)
            .flat_map(|y| (0..3).map(move |x| (x, y)))
            .filter(|&(x, y)| !(y == 1 && x > 0))
            .map(|(x, y)| format!("q[{x},{y}]"))
            .collect();
        let model = named(&names);
        let written = text(&model, Dialect::MiniZinc, None);
        assert!(
            written.contains("\narray[0..2, 0..2] of var 0..1: q;\n"),
            "{written}"
        );
        assert!(
            written.contains("\nconstraint forall(i in 1..2) (q[i,1] = 0);  % not in the model\n"),
            "{written}"
        );
        assert!(
            written.contains("% 2 entries of q are not model variables"),
            "{written}"
        );
        assert!(
            written.contains("\nvar 0..7: objective = sum(q);\n"),
            "{written}"
        );
        assert!(
            written.contains("\nconstraint q[0,0] + q[1,0] + q[2,0] + q[0,1] + "),
            "{written}"
        );
        // The elements read as the model's names; no comment needed.
        assert!(
            written.contains("\n  \"q_2_2 = \", show(q[2,2]), \";\\n\",\n"),
            "{written}"
        );
        assert!(!written.contains("\nvar 0..1:"), "{written}");
        reads_back(&model, &written);
    }

    #[test]
    fn placements_are_an_array_over_an_enum_of_the_pieces() {
        // Piece names may be MiniZinc keywords, start with a digit or hold '-'.
        let mut names: Vec<String> = Vec::new();
        for piece in ["plus", "int", "7", "a-b"] {
            for o in 0..2 {
                for x in 0..3 {
                    if piece == "plus" && o == 1 {
                        continue;
                    }
                    names.push(format!("place[{piece}/{o}@({x},0)]"));
                }
            }
        }
        names.push("odd[1]@(2)".into());
        names.push("plain".into());
        let model = named(&names);
        let written = text(&model, Dialect::MiniZinc, None);
        assert!(
            written.contains("\nenum PLACE_1 = {plus, x_int, x_7, a_b};\n"),
            "{written}"
        );
        assert!(
            written.contains(
                "\narray[PLACE_1, 0..1, 0..2, 0..0] of var 0..1: place;  \
                 % the model's place[a/b@(c,d)] is place[a,b,c,d]\n"
            ),
            "{written}"
        );
        assert!(
            written.contains(
                "\nconstraint forall(k in 0..2) (place[plus,1,k,0] = 0);  % not in the model\n"
            ),
            "{written}"
        );
        assert!(
            written.contains(
                "\n  \"place_a_b_1__2_0 = \", show(place[a_b,1,2,0]), \";\\n\",  % place[a-b/1@(2,0)]\n"
            ),
            "{written}"
        );
        // A one-entry array; a name without an index is a scalar.
        assert!(
            written.contains(
                "\narray[1..1, 2..2] of var 0..1: odd;  % the model's odd[a]@(b) is odd[a,b]\n"
            ),
            "{written}"
        );
        assert!(
            written.contains("\nvar 0..1: plain;  % plain\n"),
            "{written}"
        );
        assert!(
            written.contains("objective = sum(place) + sum(odd) + plain;\n"),
            "{written}"
        );
        reads_back(&model, &written);
    }

    #[test]
    fn flatzinc_prints_the_arrays_and_both_files_read_their_entries_alike() {
        let names: Vec<String> = (0..3)
            .flat_map(|y| (0..3).map(move |x| (x, y)))
            .filter(|&(x, y)| !(y == 1 && x > 0))
            .map(|(x, y)| format!("q[{x},{y}]"))
            .chain(["place[int/0@(1,2)]".into(), "place[a-b/0@(1,2)]".into()])
            .chain(["plain".into()])
            .collect();
        let model = named(&names);
        let fzn = text(&model, Dialect::FlatZinc, None);
        // Scalars, the array's printed by the array, the others one by one.
        assert!(fzn.contains("\nvar 0..1: q_0_0;  % q[0,0]\n"), "{fzn}");
        assert!(
            fzn.contains("\nvar 0..1: plain :: output_var;  % plain\n"),
            "{fzn}"
        );
        assert!(
            fzn.contains(
                "\narray [1..9] of var int: q :: output_array([0..2,0..2]) = \
                 [q_0_0,q_0_1,q_0_2,q_1_0,0,q_1_2,q_2_0,0,q_2_2];\n"
            ),
            "{fzn}"
        );
        assert!(
            fzn.contains(
                "\narray [1..2] of var int: place :: output_array([1..2,0..0,1..1,2..2]) = \
                 [place_int_0__1_2,place_a_b_0__1_2];\n"
            ),
            "{fzn}"
        );
        let mzn = text(&model, Dialect::MiniZinc, None);
        let (from_fzn, from_mzn) = (reads_back(&model, &fzn), reads_back(&model, &mzn));
        assert_eq!(from_fzn.aliases, from_mzn.aliases);
        let aliases = from_mzn.aliases;
        assert_eq!(aliases.len(), 9 + 2);
        assert_eq!(aliases["q[1,1]"], None);
        assert_eq!(aliases["q[0,1]"], Some(3));
        assert_eq!(aliases["place[2,0,1,2]"], Some(8));
        // What fzn-gecode prints, read as those entries.
        let answer = "q = array2d(0..2, 0..2, [1, 0, 0, 0, 0, 0, 0, 0, 1]);\n\
                      place = array4d(1..2, 0..0, 1..1, 2..2, [0, 1]);\nplain = 0;\n----------\n";
        let MznStatus::Solution { values, complete } = read_answer(answer).unwrap() else {
            panic!("{answer}");
        };
        assert!(!complete);
        assert_eq!(values.len(), 9 + 2 + 1);
        assert_eq!(values[0], ("q[0,0]".into(), "1".into()));
        assert_eq!(values[8], ("q[2,2]".into(), "1".into()));
        assert_eq!(values[10], ("place[2,0,1,2]".into(), "1".into()));
        assert!(is_answer("q = array1d(1..2, [1, 0]);\n"));
        // A count that does not fill the ranges is no answer.
        assert_eq!(
            read_answer("q = array1d(1..3, [1, 0]);\n----------\n")
                .unwrap_err()
                .to_string(),
            "line 1: \"q = array1d(1..3, [1, 0]);\" is not `name = value;`"
        );
    }

    #[test]
    fn arrays_over_the_same_symbols_share_their_enum() {
        let names: Vec<String> = [
            "place[a/0]",
            "place[b/0]",
            "place[b/1]",
            "used[b]",
            "used[a]",
            // Only `a`: another enum would name `a` twice, so a scalar.
            "lone[a]",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let model = named(&names);
        let written = text(&model, Dialect::MiniZinc, None);
        assert_eq!(written.matches("\nenum ").count(), 1, "{written}");
        assert!(written.contains("\nenum PLACE_1 = {a, b};\n"), "{written}");
        assert!(
            written.contains("\narray[PLACE_1] of var 0..1: used;\n"),
            "{written}"
        );
        assert!(
            written.contains("\nvar 0..1: lone_a;  % lone[a]\n"),
            "{written}"
        );
        let fzn = text(&model, Dialect::FlatZinc, None);
        assert_eq!(
            reads_back(&model, &written).aliases,
            reads_back(&model, &fzn).aliases
        );
    }

    #[test]
    fn names_that_fit_no_array_stay_scalars() {
        let names: Vec<String> = [
            // A base that is a keyword.
            "int[1]",
            // An index that is a number in one name and a word in another: an enum, the
            // number as a word.
            "s[a]", "s[1]", // A name clash: the array `t` and the scalar `t`.
            "t[1]", "t", // Far apart: a box of 1001 entries for two variables.
            "u[0]", "u[1000]",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let model = named(&names);
        let written = text(&model, Dialect::MiniZinc, None);
        assert_eq!(written.matches("array[").count(), 1, "{written}");
        assert!(
            written.contains("\nenum S_1 = {a, x_1};\narray[S_1] of var 0..1: s;\n"),
            "{written}"
        );
        for scalar in [
            "int_1;  % int[1]",
            "t_1;  % t[1]",
            "t;  % t",
            "u_1000;  % u[1000]",
        ] {
            assert!(
                written.contains(&format!("\nvar 0..1: {scalar}\n")),
                "{written}"
            );
        }
        reads_back(&model, &written);
        // The same with an array `s` of words alone, whose enum and array names are
        // taken by scalars.
        let names: Vec<String> = ["s[a]", "s[b]", "S_1", "a"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let model = named(&names);
        let written = text(&model, Dialect::MiniZinc, None);
        assert!(!written.contains("array["), "{written}");
        reads_back(&model, &written);
    }

    #[test]
    fn the_scalar_form_of_earlier_files_still_reads() {
        let written = "% MiniZinc: every model variable is a `var 0..1`, its model name in the comment after it
var 0..1: q_0_0;  % q[0,0]
var 0..1: q_1_0;  % q[1,0]
var 0..2: objective = q_0_0 + q_1_0;
constraint q_0_0 + q_1_0 <= 1;  % c1: at-most-one
solve maximize objective;
output [
  \"q_0_0 = \", show(q_0_0), \";\\n\",
  \"q_1_0 = \", show(q_1_0), \";\\n\",
];
";
        let model = named(&["q[0,0]".to_string(), "q[1,0]".to_string()]);
        reads_back(&model, written);
    }

    #[test]
    fn tampered_files_are_refused_by_line() {
        let names: Vec<String> = ["q[0]", "q[1]", "x"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let written = text(&named(&names), Dialect::MiniZinc, None);
        let error = |text: &str| read_file(text).unwrap_err().to_string();
        let twice = written.replacen(
            "  \"q_1 = \", show(q[1]), \";\\n\",\n",
            "  \"q_1 = \", show(q[1]), \";\\n\",\n  \"q_1 = \", show(q[0]), \";\\n\",\n",
            1,
        );
        assert!(
            error(&twice).ends_with("variable q_1 printed twice"),
            "{}",
            error(&twice)
        );
        let undeclared = written.replacen("show(q[1])", "show(r[1])", 1);
        assert!(
            error(&undeclared).ends_with("r[1] is not a declared variable"),
            "{}",
            error(&undeclared)
        );
        let unprinted = written.replacen("  \"x = \", show(x), \";\\n\",\n", "", 1);
        assert_eq!(
            error(&unprinted),
            read_file_error("variable x is not in the output item")
        );
        let unknown = written.replacen("q[0] + q[1]", "q[0] + q[2]", 1);
        assert!(
            error(&unknown).ends_with("undeclared variable \"q[2]\""),
            "{}",
            error(&unknown)
        );
    }

    #[test]
    fn boxes_larger_than_the_writer_makes_are_refused_by_line() {
        let names: Vec<String> = ["q[0]", "q[1]", "x"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let model = named(&names);
        let error = |text: &str| read_file(text).unwrap_err().to_string();
        let line_of = |text: &str, what: &str| {
            1 + text
                .lines()
                .position(|l| l.contains(what))
                .unwrap_or_else(|| panic!("{what} in {text}"))
        };
        let written = text(&model, Dialect::MiniZinc, None);
        let at = line_of(&written, "] of var 0..1: q;");
        let huge = written.replacen("array[0..1]", "array[0..999999999999]", 1);
        assert_eq!(
            error(&huge),
            format!(
                "line {at}: array q has 1000000000000 entries, more than the 288 of an array \
                 of 2 variables (16 per variable plus 256)"
            )
        );
        let past = written.replacen(
            "array[0..1]",
            "array[0..999999999999, 0..999999999999, 0..999999999999]",
            1,
        );
        assert_eq!(
            error(&past),
            format!("line {at}: array q has more entries than can be counted")
        );
        // Within the box's bound, but names long out of proportion to the file.
        let long = written.replacen(
            "array[0..1]",
            &format!("array[0..287{}]", ", 0..0".repeat(10_000)),
            1,
        );
        let bytes: usize = (0..288)
            .map(|i| format!("q[{i}{}]", ",0".repeat(10_000)).len())
            .sum();
        assert_eq!(
            error(&long),
            format!(
                "line {at}: the entry names of the arrays up to q would take {bytes} bytes, \
                 more than 32 per byte of the file ({} bytes)",
                long.len()
            )
        );
        // FlatZinc's output_array the same.
        let written = text(&model, Dialect::FlatZinc, None);
        let at = line_of(&written, ":: output_array([");
        let huge = written.replacen("output_array([0..1])", "output_array([0..999999999999])", 1);
        assert_eq!(
            error(&huge),
            format!(
                "line {at}: array q has 1000000000000 entries, more than the 288 of an array \
                 of 2 variables (16 per variable plus 256)"
            )
        );
        let past = written.replacen(
            "output_array([0..1])",
            "output_array([0..999999999999,0..999999999999,0..999999999999])",
            1,
        );
        assert_eq!(
            error(&past),
            format!("line {at}: array q has more entries than can be counted")
        );
        // An answer's array: as many entries as values, and names in proportion to the line.
        let answer = format!(
            "q = array2000d(0..199{}, [{}]);\n----------\n",
            ", 0..0".repeat(1999),
            vec!["0"; 200].join(", ")
        );
        let bytes: usize = (0..200)
            .map(|i| format!("q[{i}{}]", ",0".repeat(1999)).len())
            .sum();
        assert_eq!(
            read_answer(&answer).unwrap_err().to_string(),
            format!(
                "line 1: the entry names of array q would take {bytes} bytes, more than 32 per \
                 byte of the line ({} bytes)",
                answer.lines().next().unwrap().len()
            )
        );
        assert_eq!(
            read_answer("q = array1d(0..999999999999, [1, 0]);\n----------\n")
                .unwrap_err()
                .to_string(),
            "line 1: \"q = array1d(0..999999999999, [1, 0]);\" is not `name = value;`"
        );
    }

    #[test]
    fn the_names_length_is_counted_without_making_them() {
        for ranges in [
            vec![(0, 7), (0, 7)],
            vec![(-12, 3)],
            vec![(-120, -95), (8, 11), (1, 1)],
            vec![(95, 1003)],
            vec![(3, 2)],
        ] {
            let made: usize = box_names("place", &ranges).iter().map(String::len).sum();
            assert_eq!(box_names_len("place", &ranges), Some(made), "{ranges:?}");
        }
        assert_eq!(digits_in(i64::MIN, i64::MIN), 20);
        assert_eq!(digits_in(i64::MAX - 1, i64::MAX), 38);
        assert_eq!(box_entries(&[(i64::MIN, i64::MAX)]), None);
        assert_eq!(box_entries(&[(0, 1 << 40), (5, 4)]), Some(0));
    }

    fn read_file_error(message: &str) -> String {
        ReadError::File(message.to_string()).to_string()
    }

    #[test]
    fn files_without_variables_read_back() {
        let mut model = Model::new();
        model.objective = Some(Objective {
            lits: Vec::new(),
            amo_groups: None,
        });
        for dialect in [Dialect::MiniZinc, Dialect::FlatZinc] {
            let written = text(&model, dialect, None);
            let file = read_file(&written).unwrap();
            assert_eq!(file.dialect, dialect, "{written}");
            assert!(file.idents.is_empty() && file.program.rows.is_empty());
        }
    }

    #[test]
    fn answers_read_the_last_solution_and_the_status() {
        let text = "a = 1;\nb = 0;\n----------\na = 0;\nb = 1;\n----------\n==========\n";
        assert_eq!(
            read_answer(text).unwrap(),
            MznStatus::Solution {
                values: vec![("a".into(), "0".into()), ("b".into(), "1".into())],
                complete: true
            }
        );
        assert_eq!(
            read_answer("=====UNSATISFIABLE=====\n").unwrap(),
            MznStatus::Unsatisfiable
        );
        assert_eq!(
            read_answer("% hi\n=====UNKNOWN=====\n").unwrap(),
            MznStatus::Unknown("=====UNKNOWN=====".into())
        );
        assert_eq!(
            read_answer("a = 1;\n").unwrap_err(),
            MznAnswerError::Unfinished
        );
        assert_eq!(
            read_answer("a = 1;\na = 0;\n----------\n")
                .unwrap_err()
                .to_string(),
            "line 2: a is given twice in one solution"
        );
        assert_eq!(
            read_answer("hello\n----------\n").unwrap_err().to_string(),
            "line 1: \"hello\" is not `name = value;`"
        );
        assert!(is_answer("a = 1;\n----------\n"));
        assert!(is_answer("=====UNSATISFIABLE=====\n"));
        assert_eq!(
            read_answer("a = 1;\n_objective = 1;\n----------\n").unwrap(),
            MznStatus::Solution {
                values: vec![("a".into(), "1".into())],
                complete: false
            }
        );
        assert!(is_answer("% cut off\na = 1;\n"));
        assert!(!is_answer("s SATISFIABLE\n"));
        assert!(!is_answer("v 1 -2 0\n"));
    }
}
