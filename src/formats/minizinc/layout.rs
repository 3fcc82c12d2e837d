//! Grouping the model's variables into arrays (over integer ranges and enums of symbols)
//! where their names fit one; the rest stay scalars.

use super::{is_ident, BOX_FACTOR, BOX_SLACK, RESERVED};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

/// One index of an array: a range of integers, or an enum (its position in
/// [`Layout::enums`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Dim {
    Range(i64, i64),
    Enum(usize),
}

/// An enum of the symbols at one index of an array (piece names, `o0`...).
#[derive(Clone, Debug)]
pub(super) struct EnumDecl {
    /// Its MiniZinc name: the array's name in capitals and the index's place (`PLACE_1`).
    pub(super) name: String,
    /// The symbols as written in the model's names, in the order first seen.
    pub(super) symbols: Vec<String>,
    /// Each symbol as a MiniZinc identifier.
    pub(super) idents: Vec<String>,
}

/// An array of `var 0..1` over the bounding box of the indices of the model variables
/// whose names share a base (the part before `[`) and the text between their indices.
#[derive(Clone, Debug)]
pub(super) struct ArrayDecl {
    /// The base, as the array's name.
    pub(super) name: String,
    /// The text between the indices (`[`, `/`, `@(`, `,`, `)]` for `place[plus/0@(0,0)]`),
    /// one more than the indices.
    separators: Vec<String>,
    pub(super) dims: Vec<Dim>,
    /// The columns in the array, in column order, each with its offsets in the box.
    pub(super) entries: Vec<(usize, Vec<usize>)>,
}

/// How a file declares the model's variables: arrays where the names fit one, scalar
/// `var 0..1` for the rest.
#[derive(Clone, Debug)]
pub(super) struct Layout {
    pub(super) enums: Vec<EnumDecl>,
    pub(super) arrays: Vec<ArrayDecl>,
    /// Each column's MiniZinc expression: an array element (`q[3,5]`) or a scalar's
    /// identifier.
    pub(super) exprs: Vec<String>,
    /// Whether each column is a scalar.
    pub(super) scalar: Vec<bool>,
    /// The names for `forall` generators, one per index of the widest array; none of them
    /// names anything in the file.
    pub(super) generators: Vec<String>,
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

/// A group of names: their base and the texts between their indices.
type Key<'a> = (&'a str, Vec<&'a str>);

/// The names of each group, each as its column and its index words.
type Groups<'a> = HashMap<Key<'a>, Vec<(usize, Vec<&'a str>)>>;

impl Layout {
    /// The arrays `names` fit (see the module's documentation), `labels` (the
    /// [`idents`](super::idents)) naming the scalars.
    pub(super) fn new(names: &[String], labels: &[String]) -> Layout {
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
    pub(super) fn sizes(&self, enums: &[EnumDecl]) -> Vec<usize> {
        self.dims
            .iter()
            .map(|d| match d {
                Dim::Range(low, high) => (high - low + 1) as usize,
                Dim::Enum(e) => enums[*e].symbols.len(),
            })
            .collect()
    }

    /// `0..7` or `PLACE_1` for each index.
    pub(super) fn index_sets(&self, enums: &[EnumDecl]) -> Vec<String> {
        self.dims
            .iter()
            .map(|d| match d {
                Dim::Range(low, high) => format!("{low}..{high}"),
                Dim::Enum(e) => enums[*e].name.clone(),
            })
            .collect()
    }

    /// Index `k` at `offset` as written in the file.
    pub(super) fn index_value(&self, enums: &[EnumDecl], k: usize, offset: usize) -> String {
        match &self.dims[k] {
            Dim::Range(low, _) => (low + offset as i64).to_string(),
            Dim::Enum(e) => enums[*e].idents[offset].clone(),
        }
    }

    /// The model's names of the array's variables: `place[a/b@(c,d)]`, with index letters.
    pub(super) fn pattern(&self) -> String {
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
    pub(super) fn plain(&self) -> bool {
        let n = self.separators.len();
        self.separators[0] == "["
            && self.separators[n - 1] == "]"
            && self.separators[1..n - 1].iter().all(|s| s == ",")
    }

    /// The entries of the box that are not model variables, as boxes (a run of offsets at
    /// each index), neighbours with the same pattern below them merged.
    pub(super) fn absent_blocks(&self, sizes: &[usize]) -> Vec<Block> {
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
