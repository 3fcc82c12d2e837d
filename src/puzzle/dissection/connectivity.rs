//! The lazy constraint that keeps every part edge-connected, its cuts and their reasons.

use super::{neighbour_lists, reachable};
use crate::geometry::isometry::Cell;
use crate::model::{
    Assignment, Constraint, CutRejected, JustifiedCut, JustifyCuts, LazyConstraint, Lit, Model, Var,
};
use std::collections::HashMap;

/// Every part is edge-connected, enforced by cuts.
///
/// For a candidate assignment, each part `p` that is not connected splits into components;
/// for each component `C` (fewer than `m = n / k` cells, since the part has `m`), with `N(C)`
/// the shape cells adjacent to `C` and outside it, and `c` any cell of `C`, the cut is
///
/// ```text
/// part[c,p]  ->  OR_{d in N(C)} part[d,p]
/// ```
///
/// # Why the cuts are sound
///
/// Let `C` be any set of fewer than `m` shape cells and `c` a cell of `C`. In a true
/// solution, suppose `c` is in part p but no cell of `N(C)` is. Part p is connected, so
/// every cell of it is joined to `c` by a path inside part p; a path leaving `C` steps first
/// onto a cell of `N(C)`, which is not in part p. So part p lies inside `C` and has fewer
/// than `m` cells, but every part has exactly `m`. Hence every true solution satisfies the
/// cut. The argument needs only `|C| < m` and `c` in `C`; the cuts this constraint makes
/// also have `C` connected (a component), and [`JustifyCuts::verify_cut`] insists on it, so
/// a recorded cut is always one the solver could have made.
///
/// *Violated* by the candidate: `c` is in part p and `C` is a maximal connected piece of
/// it, so no neighbour of `C` is. One cut per component (at its first cell) is enough to
/// exclude the candidate.
///
/// # Reasons
///
/// A justified cut's reason is `part P component X,Y X,Y ...`: the part number (as in the
/// variable names `part[x,y,p]`) and the cells of `C` as column,row, in scan order. Its
/// clause is `-part[c,P]` for one cell `c` of `C`, and `part[d,P]` for every `d` in `N(C)`.
pub struct Connectivity {
    neighbours: Vec<Vec<usize>>,
    /// `part[c][p]`: the literal "cell c is in part p".
    part: Vec<Vec<Lit>>,
    part_size: usize,
    /// The shape's cells in scan order, and back from a cell to its index.
    cells: Vec<Cell>,
    index: HashMap<Cell, usize>,
    /// The (cell, part) of each part variable, for reading clauses back.
    owner: HashMap<Var, (usize, usize)>,
}

/// A component of a split part and its cut, before it is written out.
struct SplitComponent {
    part: usize,
    /// The component's cells (indices), in scan order.
    cells: Vec<usize>,
    clause: Vec<Lit>,
}

impl Connectivity {
    pub(super) fn new(cells: Vec<Cell>, part: Vec<Vec<Lit>>, part_size: usize) -> Connectivity {
        let index: HashMap<Cell, usize> = cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let owner = part
            .iter()
            .enumerate()
            .flat_map(|(c, lits)| lits.iter().enumerate().map(move |(p, l)| (l.var(), (c, p))))
            .collect();
        Connectivity {
            neighbours: neighbour_lists(&cells, &index),
            part,
            part_size,
            cells,
            index,
            owner,
        }
    }

    /// The components of the split parts under `assignment`, each with its cut.
    fn split_components(&self, assignment: &Assignment) -> Vec<SplitComponent> {
        let n = self.part.len();
        let k = self.part.first().map_or(0, Vec::len);
        let mut found = Vec::new();
        for p in 0..k {
            let members: Vec<bool> = (0..n).map(|c| self.part[c][p].holds(assignment)).collect();
            let mut seen = vec![false; n];
            let mut components = Vec::new();
            for start in (0..n).filter(|&c| members[c]) {
                if seen[start] {
                    continue;
                }
                let component = reachable(&self.neighbours, &members, start);
                for (c, &inside) in component.iter().enumerate() {
                    seen[c] |= inside;
                }
                components.push((start, component));
            }
            if components.len() < 2 {
                continue;
            }
            for (start, component) in components {
                let cells: Vec<usize> = (0..n).filter(|&c| component[c]).collect();
                if cells.len() >= self.part_size {
                    // Not provably too small (only when parts have the wrong size, which
                    // the written constraints exclude): no sound cut from it.
                    continue;
                }
                let mut clause = vec![!self.part[start][p]];
                clause.extend(self.boundary(&cells).into_iter().map(|d| self.part[d][p]));
                found.push(SplitComponent {
                    part: p,
                    cells,
                    clause,
                });
            }
        }
        found
    }

    /// `N(C)`: the shape cells adjacent to `cells` and outside them, each once, in the order
    /// they are met going through `cells` and their neighbour lists.
    fn boundary(&self, cells: &[usize]) -> Vec<usize> {
        let mut inside = vec![false; self.part.len()];
        for &c in cells {
            inside[c] = true;
        }
        let mut listed = vec![false; self.part.len()];
        let mut boundary = Vec::new();
        for &c in cells {
            for &d in &self.neighbours[c] {
                if !inside[d] && !std::mem::replace(&mut listed[d], true) {
                    boundary.push(d);
                }
            }
        }
        boundary
    }

    /// Reads `part P component X,Y ...` into the part and the component's cell indices,
    /// checking that the part exists and the cells are distinct cells of the shape.
    fn parse_reason(&self, reason: &str) -> Result<(usize, Vec<usize>), String> {
        let syntax = || format!("expected \"part P component X,Y ...\", found {reason:?}");
        let mut words = reason.split_whitespace();
        if words.next() != Some("part") {
            return Err(syntax());
        }
        let part = words.next().ok_or_else(syntax)?;
        let part: usize = part
            .parse()
            .map_err(|_| format!("{part:?} is not a part number"))?;
        let k = self.part.first().map_or(0, Vec::len);
        if part >= k {
            return Err(format!(
                "part {part} does not exist (the parts are 0 to {})",
                k - 1
            ));
        }
        if words.next() != Some("component") {
            return Err(syntax());
        }
        let mut cells = Vec::new();
        let mut listed = vec![false; self.cells.len()];
        for word in words {
            let cell = word
                .split_once(',')
                .and_then(|(x, y)| Some((x.parse::<i32>().ok()?, y.parse::<i32>().ok()?)))
                .ok_or_else(|| format!("{word:?} is not a cell X,Y"))?;
            let &c = self
                .index
                .get(&cell)
                .ok_or_else(|| format!("{} is not a cell of the shape", show(cell)))?;
            if std::mem::replace(&mut listed[c], true) {
                return Err(format!("{} is listed twice", show(cell)));
            }
            cells.push(c);
        }
        if cells.is_empty() {
            return Err("the component has no cell".to_string());
        }
        Ok((part, cells))
    }

    /// A literal in words: `-part[x,y,p]` for part variables, else its DIMACS number.
    fn describe(&self, literal: Lit) -> String {
        match self.owner.get(&literal.var()) {
            Some(&(c, p)) => {
                let (x, y) = self.cells[c];
                let sign = if literal.is_negative() { "-" } else { "" };
                format!("{sign}part[{x},{y},{p}]")
            }
            None => format!("literal {literal} (not a part variable)"),
        }
    }
}

/// A cell as `(x,y)`, for messages.
fn show((x, y): Cell) -> String {
    format!("({x},{y})")
}

impl LazyConstraint for Connectivity {
    fn name(&self) -> &str {
        "connected parts"
    }

    fn cuts(&self, assignment: &Assignment) -> Vec<Vec<Lit>> {
        self.split_components(assignment)
            .into_iter()
            .map(|split| split.clause)
            .collect()
    }

    fn justify(&self) -> Option<&dyn JustifyCuts> {
        Some(self)
    }

    /// Distance layers per part: each part has exactly one root cell, and
    /// `within[c][p][t]` ("cell c is in part p at distance at most t from its root, through
    /// the part") needs c itself at t - 1 or a neighbour at t - 1; every cell of the part
    /// is within `part_size - 1`. A connected part sets the layers by breadth-first search
    /// from any root; conversely every cell of a part chains back to its one root through
    /// cells of the part, so the part is connected.
    fn write_out(&self, model: &mut Model) -> bool {
        let k = self.part.first().map_or(0, Vec::len);
        let layers = self.part_size.max(1);
        // within[c][p][t]; layer 0 is the root.
        let mut within: Vec<Vec<Vec<Lit>>> = Vec::with_capacity(self.part.len());
        for (c, &(x, y)) in self.cells.iter().enumerate() {
            let mut by_part = Vec::with_capacity(k);
            for p in 0..k {
                let lits: Vec<Lit> = (0..layers)
                    .map(|t| {
                        let name = if t == 0 {
                            format!("root[{p}]@({x},{y})")
                        } else {
                            format!("within[{p},{t}]@({x},{y})")
                        };
                        model.new_var(name).positive()
                    })
                    .collect();
                for &lit in &lits {
                    model.add(Constraint::Clause(vec![!lit, self.part[c][p]]));
                }
                model.add(Constraint::Clause(vec![!self.part[c][p], lits[layers - 1]]));
                by_part.push(lits);
            }
            within.push(by_part);
        }
        for p in 0..k {
            model.add(Constraint::ExactlyOne(
                within.iter().map(|cell| cell[p][0]).collect(),
            ));
        }
        for (c, by_part) in within.iter().enumerate() {
            for (p, lits) in by_part.iter().enumerate() {
                for t in 1..layers {
                    let mut clause = vec![!lits[t], lits[t - 1]];
                    clause.extend(self.neighbours[c].iter().map(|&n| within[n][p][t - 1]));
                    model.add(Constraint::Clause(clause));
                }
            }
        }
        true
    }
}

impl JustifyCuts for Connectivity {
    fn justified_cuts(&self, assignment: &Assignment) -> Vec<JustifiedCut> {
        self.split_components(assignment)
            .into_iter()
            .map(|split| {
                let mut reason = format!("part {} component", split.part);
                for &c in &split.cells {
                    let (x, y) = self.cells[c];
                    reason.push_str(&format!(" {x},{y}"));
                }
                JustifiedCut {
                    clause: split.clause,
                    reason,
                }
            })
            .collect()
    }

    /// Checks a cut against the rules, by the argument in "Why the cuts are sound" on
    /// [`Connectivity`]: `C` is a connected set of fewer than `n / k` shape cells, and the
    /// clause is exactly `-part[c,p]` for a cell `c` of `C` and `part[d,p]` for each `d` in
    /// `N(C)` (in any order, each once).
    fn verify_cut(&self, cut: &JustifiedCut) -> Result<(), CutRejected> {
        self.check_cut(cut).map_err(CutRejected)
    }
}

impl Connectivity {
    /// [`JustifyCuts::verify_cut`], the problem in words.
    fn check_cut(&self, cut: &JustifiedCut) -> Result<(), String> {
        let (p, component) = self.parse_reason(&cut.reason)?;
        let mut inside = vec![false; self.cells.len()];
        for &c in &component {
            inside[c] = true;
        }
        let joined = reachable(&self.neighbours, &inside, component[0]);
        if let Some(&apart) = component.iter().find(|&&c| !joined[c]) {
            return Err(format!(
                "the component is not connected: {} is not joined to {} inside it",
                show(self.cells[apart]),
                show(self.cells[component[0]])
            ));
        }
        if component.len() >= self.part_size {
            return Err(format!(
                "the component has {} cells; it must have fewer than a part's {}",
                component.len(),
                self.part_size
            ));
        }
        let negatives: Vec<Lit> = cut
            .clause
            .iter()
            .copied()
            .filter(|l| l.is_negative())
            .collect();
        let [negative] = negatives[..] else {
            return Err(format!(
                "the clause has {} negative literals; it must have one, -part[c,{p}] for a cell c of the component",
                negatives.len()
            ));
        };
        if !matches!(self.owner.get(&negative.var()), Some(&(c, q)) if q == p && inside[c]) {
            return Err(format!(
                "{} is not -part[c,{p}] for a cell c of the component",
                self.describe(negative)
            ));
        }
        let boundary = self.boundary(&component);
        let mut expected = vec![false; self.cells.len()];
        for &d in &boundary {
            expected[d] = true;
        }
        let mut present = vec![false; self.cells.len()];
        for &literal in cut.clause.iter().filter(|l| !l.is_negative()) {
            match self.owner.get(&literal.var()) {
                Some(&(d, q)) if q == p && expected[d] => {
                    if std::mem::replace(&mut present[d], true) {
                        return Err(format!("{} appears twice", self.describe(literal)));
                    }
                }
                _ => {
                    return Err(format!(
                        "{} is not part[d,{p}] for a neighbour d of the component",
                        self.describe(literal)
                    ))
                }
            }
        }
        if let Some(&missing) = boundary.iter().find(|&&d| !present[d]) {
            let (x, y) = self.cells[missing];
            return Err(format!(
                "the clause lacks part[{x},{y},{p}], a neighbour of the component"
            ));
        }
        Ok(())
    }
}
