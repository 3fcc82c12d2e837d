//! The writer: names and rows as a MiniZinc or FlatZinc file.

use super::layout::{ArrayDecl, Dim, EnumDecl, Layout};
use super::search::{search, Search};
use super::{idents, Dialect, NOT_IN_MODEL, OBJECTIVE};
use crate::formats::linear::{Comparison, Row};
use crate::formats::lines::{LineWriter, WriteError};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::io::Write;

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

/// (coefficient, column) terms.
type Terms = Vec<(f64, usize)>;

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
fn write_array(
    lines: &mut LineWriter,
    array: &ArrayDecl,
    layout: &Layout,
) -> Result<(), WriteError> {
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
/// line; `should_stop` can stop it ([`WriteError::Stopped`]).
pub fn write(
    problem: &Problem,
    dialect: Dialect,
    comments: &[String],
    out: &mut dyn Write,
    should_stop: &dyn Fn() -> bool,
) -> Result<(), WriteError> {
    let labels = idents(problem.names);
    let mut lines = LineWriter::new(out, should_stop);
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
    let goal = if problem.objective.is_some() && problem.at_least.is_none() {
        format!("maximize {OBJECTIVE}")
    } else {
        "satisfy".to_string()
    };
    let objective = problem
        .objective
        .as_ref()
        .map(|(terms, _)| terms.as_slice());
    match search(problem.names.len(), objective, &problem.rows) {
        Some(search) => write_search(&mut lines, &search, idents, dialect, &goal)?,
        None => lines.put(|l| {
            let _ = writeln!(l, "solve {goal};");
        })?,
    }
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
    lines.finish()
}

/// Elements per line of the search annotation's list.
const SEARCH_PER_LINE: usize = 8;

/// The `solve` item with the search annotation: the list one line after another, so a
/// reader of the lines meets no long one.
fn write_search(
    lines: &mut LineWriter,
    search: &Search,
    idents: &[String],
    dialect: Dialect,
    goal: &str,
) -> Result<(), WriteError> {
    lines.put(|l| {
        let _ = writeln!(
            l,
            "% search: {}, those of the smallest rows first, each tried at 1 first",
            search.what
        );
        l.push_str("solve :: int_search([\n");
    })?;
    for chunk in search.columns.chunks(SEARCH_PER_LINE) {
        lines.put(|l| {
            let elements: Vec<&str> = chunk.iter().map(|&c| idents[c].as_str()).collect();
            let _ = writeln!(l, "  {},", elements.join(", "));
        })?;
    }
    lines.put(|l| {
        // FlatZinc's int_search names the kind of search; MiniZinc's leaves it out.
        let complete = match dialect {
            Dialect::MiniZinc => "",
            Dialect::FlatZinc => ", complete",
        };
        let _ = writeln!(l, "], input_order, indomain_max{complete}) {goal};");
    })
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
