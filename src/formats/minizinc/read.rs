//! Reading back a file `emit` wrote ([`read_file`]): its variables, arrays and rows.

use super::boxes::{
    box_entries, box_names, box_names_len, box_size, check_box, read_ranges, Ranges, NAMES_PER_BYTE,
};
use super::{Dialect, NOT_IN_MODEL, OBJECTIVE};
use crate::formats::linear::{Comparison, LinearProgram, Row};
use crate::formats::ReadError;
use std::collections::{HashMap, HashSet};

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

/// Reads a file of the form [`write()`](super::write()) writes. Only its declarations and
/// constraint lines are read; every other line (comments, the objective, `solve`, `output`)
/// is skipped.
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
