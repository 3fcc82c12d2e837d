//! Dissection: cut a grid shape along grid lines into `k` congruent, edge-connected parts
//! (rotations always allowed, reflections when `reflect` is true).
//!
//! # The model
//!
//! With `n` cells, `m = n / k` cells per part and `a` the first cell in scan order:
//!
//! - `part[x,y,p]`: cell (x, y) is in part p; exactly one per cell.
//! - `map[p,i]` for each part `p >= 1`: part p is the image of part 0 under candidate
//!   isometry `T_i`; exactly one per part. The candidates are the orientations (8, or 4
//!   without reflection) times the translations sending `a` to another cell `b` of the shape
//!   (part 0 holds `a`, so `T_i(a)` lies in part p). A candidate survives only if the
//!   component of `a` among the cells `c` with `T(c)` in the shape and `T(c) != c` has at
//!   least `m` cells: part 0 is connected, holds `a` and lies inside that set.
//! - Congruence: `map[p,i] & part[c,0] -> part[T(c),p]` and `map[p,i] & part[d,p] ->
//!   part[T^-1(d),0]` (the literal is dropped, forbidding `c` or `d`, when the image falls
//!   outside the candidate's domain). So `T` maps part 0 bijectively onto part p, every part
//!   has `n / k` cells, and no cardinality constraint is needed.
//! - Symmetry: `part[a,0]`, and parts are numbered by first appearance in scan order (a cell
//!   of part `p >= 2` needs an earlier cell in part `p - 1`), so each dissection has exactly
//!   one labelling. Several map choices remain only when part 0 has symmetries; enumeration
//!   blocks labellings, so they are counted once.
//! - Connectivity: the lazy constraint [`Connectivity`] (see its docs for why its cuts are
//!   sound).

use crate::error::InputError;
use crate::model::{Assignment, Constraint, LazyConstraint, Lit, Model, Var};
use crate::native::dissection::{trivially_impossible, Cell, Dissection, Isometry};
use crate::puzzle::grid::Grid;
use crate::puzzle::load::Source;
use crate::puzzle::VerifyError;
use crate::solve::{Backend, Control, SolveError};
use serde::Deserialize;
use std::collections::{HashMap, HashSet, VecDeque};
use toml::Spanned;

/// The most parts a model may ask for: one letter (`A`-`Z`, `a`-`z`) per part.
pub const MAX_PARTS: usize = 52;

/// The letters that name parts in the output, in part order.
const LETTERS: &[u8; MAX_PARTS] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// A dissection instance: a shape, the number of parts, and whether parts may be turned over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DissectionPuzzle {
    /// Number of columns of the picture.
    pub width: usize,
    /// Number of rows of the picture.
    pub height: usize,
    /// Whether each position (row-major) is a cell of the shape.
    pub inside: Vec<bool>,
    /// The number of parts, at least 1.
    pub parts: usize,
    /// Whether a part may be the mirror image of another.
    pub reflect: bool,
    /// The model file's one-line description, if any.
    pub description: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DissectionFile {
    #[allow(dead_code)]
    kind: String,
    description: Option<String>,
    shape: Option<Spanned<String>>,
    parts: Option<Spanned<i64>>,
    reflect: Option<bool>,
}

impl DissectionPuzzle {
    /// A puzzle from a picture whose `#` characters are cells; for tests and generators.
    pub fn from_picture(picture: &str, parts: usize, reflect: bool) -> DissectionPuzzle {
        let rows: Vec<&str> = picture
            .lines()
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .collect();
        let width = rows.iter().map(|r| r.len()).max().unwrap_or(0);
        let mut inside = vec![false; width * rows.len()];
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                inside[y * width + x] = ch == '#';
            }
        }
        DissectionPuzzle {
            width,
            height: rows.len(),
            inside,
            parts,
            reflect,
            description: None,
        }
    }

    /// A puzzle from a list of cells (anywhere on the plane; shifted so the picture starts
    /// at (0, 0)); for tests and generators.
    pub fn from_cells(cells: &[Cell], parts: usize, reflect: bool) -> DissectionPuzzle {
        let min_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
        let min_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
        let width = cells.iter().map(|c| c.0 - min_x + 1).max().unwrap_or(0) as usize;
        let height = cells.iter().map(|c| c.1 - min_y + 1).max().unwrap_or(0) as usize;
        let mut inside = vec![false; width * height];
        for &(x, y) in cells {
            inside[(y - min_y) as usize * width + (x - min_x) as usize] = true;
        }
        DissectionPuzzle {
            width,
            height,
            inside,
            parts,
            reflect,
            description: None,
        }
    }

    /// Parses and validates a `kind = "dissection"` model file.
    pub fn from_source(source: &Source) -> Result<DissectionPuzzle, InputError> {
        let file: DissectionFile = source.parse()?;
        let Some(shape) = file.shape else {
            return Err(source.error_line(
                1,
                "missing key `shape` (a grid of '#' for cells and '.' outside)",
            ));
        };
        let span = shape.span();
        let grid = Grid::parse(source, "shape", shape.get_ref(), span.clone(), &['#', '.'])?;
        let inside: Vec<bool> = grid.cells.iter().map(|&c| c == '#').collect();
        let n = inside.iter().filter(|&&c| c).count();
        if n == 0 {
            return Err(source.error_at(span.start, "`shape` has no cell ('#')"));
        }
        let parts = match file.parts {
            None => 2,
            Some(parts) => {
                let k = *parts.get_ref();
                if k < 1 || k as usize > MAX_PARTS.min(n) {
                    return Err(source.error_at(
                        parts.span().start,
                        format!(
                            "`parts` is {k}; it must be between 1 and {} (the shape has {n} cells; at most {MAX_PARTS} parts, one letter each)",
                            MAX_PARTS.min(n)
                        ),
                    ));
                }
                k as usize
            }
        };
        Ok(DissectionPuzzle {
            width: grid.width,
            height: grid.height,
            inside,
            parts,
            reflect: file.reflect.unwrap_or(true),
            description: file.description,
        })
    }

    /// The shape's cells in scan order (row by row), as (x, y).
    pub fn cells(&self) -> Vec<Cell> {
        (0..self.height)
            .flat_map(|y| (0..self.width).map(move |x| (x, y)))
            .filter(|&(x, y)| self.inside[y * self.width + x])
            .map(|(x, y)| (x as i32, y as i32))
            .collect()
    }

    /// How many orientations a part may take: 8 with reflection, 4 without.
    pub fn orientations(&self) -> usize {
        if self.reflect {
            8
        } else {
            4
        }
    }

    /// Why no dissection can exist, when that is obvious (cell count not divisible by the
    /// number of parts, more components than parts...), in words for the user.
    pub fn trivially_impossible(&self) -> Option<String> {
        trivially_impossible(&self.cells(), self.parts)
            .map(|reason| format!("no dissection: {reason}"))
    }

    /// Compiles to the model described in the module docs.
    pub fn compile(&self) -> Model {
        Compiled::new(self).model
    }

    /// Reads the dissection from an assignment of the compiled model, parts renumbered by
    /// first appearance in scan order and maps permuted to match.
    pub fn decode(&self, assignment: &Assignment) -> Dissection {
        let cells = self.cells();
        let k = self.parts;
        // Variables are numbered as `Compiled::new` creates them: part vars cell-major.
        let raw: Vec<u8> = (0..cells.len())
            .map(|c| {
                (0..k)
                    .find(|&p| assignment.value(Var::from_index(c * k + p)))
                    .unwrap_or(0) as u8
            })
            .collect();
        let candidates = candidate_maps(&cells, k, self.orientations());
        let mut next = cells.len() * k;
        let mut raw_maps = Vec::new();
        for _ in 1..k {
            let chosen = (0..candidates.len())
                .find(|&i| assignment.value(Var::from_index(next + i)))
                .map_or(Isometry::identity(), |i| candidates[i].isometry);
            raw_maps.push(chosen);
            next += candidates.len();
        }
        canonical(&raw, &raw_maps, k)
    }

    /// The variables that determine a dissection: the part variables (the first
    /// `cells * parts` of the compiled model). Enumeration blocks assignments of these.
    pub fn solution_vars(&self) -> Vec<Var> {
        (0..self.cells().len() * self.parts)
            .map(Var::from_index)
            .collect()
    }

    /// Lists every dissection once (never once per labelling of its parts) with the native
    /// search or SAT (blocking clauses on the part variables), verifying each from scratch
    /// before `on_solution` sees it; `on_solution` returns false to stop.
    pub fn enumerate(
        &self,
        backend: Backend,
        control: &Control,
        on_solution: &mut dyn FnMut(&Dissection) -> bool,
    ) -> Result<DissectionCount, SolveError> {
        if let Some(reason) = self.trivially_impossible() {
            return Ok(DissectionCount {
                count: 0,
                complete: true,
                evidence: reason,
            });
        }
        let mut wrong = None;
        let mut checked = |d: &Dissection| match self.verify(d) {
            Ok(()) => on_solution(d),
            Err(error) => {
                wrong = Some(error);
                false
            }
        };
        let result = match backend {
            Backend::Native => {
                let search =
                    crate::native::dissection::enumerate_puzzle(self, control, &mut checked);
                DissectionCount {
                    count: search.count,
                    complete: search.complete,
                    evidence: format!("native search ({} nodes)", search.nodes),
                }
            }
            Backend::Sat => {
                let model = self.compile();
                let found = crate::sat::projected::enumerate(
                    &model,
                    &self.solution_vars(),
                    control,
                    &mut |assignment| checked(&self.decode(assignment)),
                );
                DissectionCount {
                    count: found.count,
                    complete: found.complete,
                    evidence: format!(
                        "varisat with blocking clauses on the part variables ({} calls, {} cuts)",
                        found.calls, found.cuts
                    ),
                }
            }
            Backend::Milp => {
                return Err(SolveError::Backend {
                    backend: backend.name(),
                    message: "cannot enumerate dissections (use sat or native)".into(),
                })
            }
        };
        match wrong {
            Some(error) => Err(SolveError::WrongSolution {
                backend: backend.name(),
                error,
            }),
            None => Ok(result),
        }
    }

    /// Checks the rules from scratch: every cell in one of `parts` parts, each part
    /// edge-connected, and part `i` the image of part 0 under the claimed `maps[i - 1]`,
    /// an allowed isometry (no reflection unless `reflect`).
    pub fn verify(&self, solution: &Dissection) -> Result<(), VerifyError> {
        let cells = self.cells();
        let k = self.parts;
        let fail = |message: String| Err(VerifyError(message));
        if solution.labels.len() != cells.len() {
            return fail(format!(
                "{} labels for {} cells",
                solution.labels.len(),
                cells.len()
            ));
        }
        if solution.maps.len() + 1 != k {
            return fail(format!("{} maps for {k} parts", solution.maps.len()));
        }
        let mut parts: Vec<HashSet<Cell>> = vec![HashSet::new(); k];
        for (&cell, &label) in cells.iter().zip(&solution.labels) {
            match parts.get_mut(label as usize) {
                Some(part) => part.insert(cell),
                None => return fail(format!("cell {cell:?} has part {label} of only {k}")),
            };
        }
        for (p, part) in parts.iter().enumerate() {
            if part.len() * k != cells.len() {
                return fail(format!(
                    "part {} has {} cells, not {}",
                    letter(p),
                    part.len(),
                    cells.len() / k
                ));
            }
            if !is_connected(part) {
                return fail(format!("part {} is not connected", letter(p)));
            }
        }
        for (i, map) in solution.maps.iter().enumerate() {
            if map.is_reflection() && !self.reflect {
                return fail(format!(
                    "part {} is a mirror image, but reflection is not allowed",
                    letter(i + 1)
                ));
            }
            let image: HashSet<Cell> = parts[0].iter().map(|&c| map.apply(c)).collect();
            if image != parts[i + 1] {
                return fail(format!(
                    "the claimed map {map:?} does not take part A onto part {}",
                    letter(i + 1)
                ));
            }
        }
        Ok(())
    }

    /// The picture with one letter per part (`A`, `B`, ...) and `.` outside.
    pub fn render_grid(&self, solution: &Dissection) -> Vec<String> {
        let mut labels = solution.labels.iter();
        (0..self.height)
            .map(|y| {
                (0..self.width)
                    .map(|x| {
                        if self.inside[y * self.width + x] {
                            labels.next().map_or('?', |&l| letter(l as usize))
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// The picture with one letter per part, one row a line.
    pub fn render(&self, solution: &Dissection) -> String {
        let mut out = String::new();
        for row in self.render_grid(solution) {
            out.push_str(&row);
            out.push('\n');
        }
        out
    }
}

/// What [`DissectionPuzzle::enumerate`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DissectionCount {
    /// Dissections reported, each verified.
    pub count: u64,
    /// Whether the search ran to the end, so `count` is the number of dissections.
    pub complete: bool,
    /// How the count was established, in words.
    pub evidence: String,
}

/// The letter of part `p`.
fn letter(p: usize) -> char {
    LETTERS.get(p).map_or('?', |&b| b as char)
}

/// Whether a non-empty set of cells is edge-connected.
fn is_connected(part: &HashSet<Cell>) -> bool {
    let Some(&start) = part.iter().next() else {
        return false;
    };
    let mut seen = HashSet::from([start]);
    let mut queue = VecDeque::from([start]);
    while let Some((x, y)) = queue.pop_front() {
        for next in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
            if part.contains(&next) && seen.insert(next) {
                queue.push_back(next);
            }
        }
    }
    seen.len() == part.len()
}

/// Renumbers parts by first appearance and permutes the maps to match; the maps are then
/// re-expressed as "part 0 onto part i" for the new part 0.
fn canonical(raw: &[u8], raw_maps: &[Isometry], k: usize) -> Dissection {
    let mut order: Vec<usize> = Vec::with_capacity(k);
    let mut renumber = vec![None; k];
    let labels = raw
        .iter()
        .map(|&l| {
            *renumber[l as usize].get_or_insert_with(|| {
                order.push(l as usize);
                (order.len() - 1) as u8
            })
        })
        .collect();
    // maps_from_raw0[q] takes raw part 0 onto raw part q.
    let map_from_raw0 = |q: usize| {
        if q == 0 {
            Isometry::identity()
        } else {
            raw_maps[q - 1]
        }
    };
    // New part 0 is raw part order[0]; new part i is raw part order[i].
    let back = map_from_raw0(order.first().copied().unwrap_or(0)).inverse();
    let maps = order
        .iter()
        .skip(1)
        .map(|&q| compose(map_from_raw0(q), back))
        .collect();
    Dissection { labels, maps }
}

/// The isometry `outer . inner` (apply `inner` first).
fn compose(outer: Isometry, inner: Isometry) -> Isometry {
    let translation = outer.apply(inner.translation());
    let [[a, b], [c, d]] = outer.matrix();
    let [[e, f], [g, h]] = inner.matrix();
    let product = [
        [a * e + b * g, a * f + b * h],
        [c * e + d * g, c * f + d * h],
    ];
    let orientation = Isometry::ORIENTATIONS
        .iter()
        .position(|m| *m == product)
        .expect("orientations form a group");
    Isometry::new(orientation, translation)
}

/// A candidate map for "part p = T(part 0)", with the cells part 0 may use under it.
struct Candidate {
    isometry: Isometry,
    /// `image[c]`: the index of `T(cells[c])`, when it lies in the shape.
    image: Vec<Option<usize>>,
    /// Whether cell `c` may be in part 0 under this map (see the module docs).
    domain: Vec<bool>,
}

/// The candidate maps of the module docs, for the cells of a shape in scan order.
fn candidate_maps(cells: &[Cell], k: usize, orientations: usize) -> Vec<Candidate> {
    if k < 2 || !cells.len().is_multiple_of(k) {
        return Vec::new();
    }
    let m = cells.len() / k;
    let index: HashMap<Cell, usize> = cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    let neighbours = neighbour_lists(cells, &index);
    let anchor = cells[0];
    let mut candidates = Vec::new();
    for orientation in 0..orientations {
        let turned = Isometry::new(orientation, (0, 0)).apply(anchor);
        for &target in &cells[1..] {
            let isometry = Isometry::new(orientation, (target.0 - turned.0, target.1 - turned.1));
            let image: Vec<Option<usize>> = cells
                .iter()
                .map(|&c| index.get(&isometry.apply(c)).copied())
                .collect();
            let usable: Vec<bool> = (0..cells.len())
                .map(|c| image[c].is_some_and(|i| i != c))
                .collect();
            let domain = reachable(&neighbours, &usable, 0);
            if domain.iter().filter(|&&d| d).count() >= m {
                candidates.push(Candidate {
                    isometry,
                    image,
                    domain,
                });
            }
        }
    }
    candidates
}

/// For each cell, the indices of its edge neighbours in the shape.
fn neighbour_lists(cells: &[Cell], index: &HashMap<Cell, usize>) -> Vec<Vec<usize>> {
    cells
        .iter()
        .map(|&(x, y)| {
            [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
                .iter()
                .filter_map(|c| index.get(c).copied())
                .collect()
        })
        .collect()
}

/// The cells reachable from `start` through `allowed` cells (empty if `start` is not allowed).
fn reachable(neighbours: &[Vec<usize>], allowed: &[bool], start: usize) -> Vec<bool> {
    let mut seen = vec![false; neighbours.len()];
    if !allowed[start] {
        return seen;
    }
    seen[start] = true;
    let mut stack = vec![start];
    while let Some(c) = stack.pop() {
        for &d in &neighbours[c] {
            if allowed[d] && !seen[d] {
                seen[d] = true;
                stack.push(d);
            }
        }
    }
    seen
}

/// The compiled model and the tables that name its variables.
struct Compiled {
    model: Model,
}

impl Compiled {
    fn new(puzzle: &DissectionPuzzle) -> Compiled {
        let cells = puzzle.cells();
        let n = cells.len();
        let k = puzzle.parts;
        let mut model = Model::new();
        // Part variables first, cell-major: `decode` relies on this numbering.
        let part: Vec<Vec<Lit>> = cells
            .iter()
            .map(|&(x, y)| {
                (0..k)
                    .map(|p| model.new_var(format!("part[{x},{y},{p}]")).positive())
                    .collect()
            })
            .collect();
        if trivially_impossible(&cells, k).is_some() {
            // The driver reports the reason; the model just has no solution.
            model.add(Constraint::Clause(Vec::new()));
            return Compiled { model };
        }
        for lits in &part {
            model.add(Constraint::ExactlyOne(lits.clone()));
        }
        // The first cell in scan order is in part 0 (parts are otherwise interchangeable).
        model.add(Constraint::Clause(vec![part[0][0]]));
        // Parts numbered by first appearance: a cell of part p >= 2 needs an earlier cell
        // in part p - 1 (for p = 1 the first cell, in part 0, already is one).
        for p in 2..k {
            for c in 1..n {
                let mut clause = vec![!part[c][p]];
                clause.extend((0..c).map(|e| part[e][p - 1]));
                model.add(Constraint::Clause(clause));
            }
        }
        let candidates = candidate_maps(&cells, k, puzzle.orientations());
        for p in 1..k {
            let maps: Vec<Lit> = candidates
                .iter()
                .map(|cand| {
                    let t = cand.isometry;
                    let (dx, dy) = t.translation();
                    model
                        .new_var(format!("map[{p},o{},{dx},{dy}]", t.orientation()))
                        .positive()
                })
                .collect();
            model.add(Constraint::ExactlyOne(maps.clone()));
            for (cand, &map) in candidates.iter().zip(&maps) {
                // Forward: c in part 0 puts T(c) in part p.
                for c in 0..n {
                    let mut clause = vec![!map, !part[c][0]];
                    if cand.domain[c] {
                        let image = cand.image[c].expect("domain cells have images");
                        clause.push(part[image][p]);
                    }
                    model.add(Constraint::Clause(clause));
                }
                // Backward: d in part p puts T^-1(d) in part 0.
                let mut preimage = vec![None; n];
                for c in (0..n).filter(|&c| cand.domain[c]) {
                    preimage[cand.image[c].expect("domain cells have images")] = Some(c);
                }
                for d in 0..n {
                    let mut clause = vec![!map, !part[d][p]];
                    if let Some(c) = preimage[d] {
                        clause.push(part[c][0]);
                    }
                    model.add(Constraint::Clause(clause));
                }
            }
        }
        let index: HashMap<Cell, usize> = cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        model.lazy.push(Box::new(Connectivity {
            neighbours: neighbour_lists(&cells, &index),
            part,
            part_size: n / k,
        }));
        Compiled { model }
    }
}

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
/// *Sound*: in a true solution, suppose `c` is in part p but no cell of `N(C)` is. Part p
/// is connected, so every cell of it is joined to `c` by a path inside part p; a path
/// leaving `C` steps first onto a cell of `N(C)`, which is not in part p. So part p lies
/// inside `C` and has fewer than `m` cells, but every part has exactly `m`. Hence every
/// true solution satisfies the cut. *Violated* by the candidate: `c` is in part p and `C`
/// is a maximal connected piece of it, so no neighbour of `C` is. One cut per component
/// (at its first cell) is enough to exclude the candidate.
pub struct Connectivity {
    neighbours: Vec<Vec<usize>>,
    /// `part[c][p]`: the literal "cell c is in part p".
    part: Vec<Vec<Lit>>,
    part_size: usize,
}

impl LazyConstraint for Connectivity {
    fn name(&self) -> &str {
        "connected parts"
    }

    fn cuts(&self, assignment: &Assignment) -> Vec<Vec<Lit>> {
        let n = self.part.len();
        let k = self.part.first().map_or(0, Vec::len);
        let mut cuts = Vec::new();
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
                if component.iter().filter(|&&c| c).count() >= self.part_size {
                    // Not provably too small (only when parts have the wrong size, which
                    // the written constraints exclude): no sound cut from it.
                    continue;
                }
                let mut cut = vec![!self.part[start][p]];
                let mut boundary = vec![false; n];
                for c in (0..n).filter(|&c| component[c]) {
                    for &d in &self.neighbours[c] {
                        if !component[d] && !std::mem::replace(&mut boundary[d], true) {
                            cut.push(self.part[d][p]);
                        }
                    }
                }
                cuts.push(cut);
            }
        }
        cuts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn composition_matches_applying_in_turn() {
        for o1 in 0..8 {
            for o2 in 0..8 {
                let outer = Isometry::new(o1, (2, -3));
                let inner = Isometry::new(o2, (-1, 5));
                for cell in [(0, 0), (1, 2), (-4, 3)] {
                    assert_eq!(
                        compose(outer, inner).apply(cell),
                        outer.apply(inner.apply(cell))
                    );
                }
            }
        }
    }

    #[test]
    fn canonical_relabels_and_rebases_the_maps() {
        // A 2x1 strip, raw labels (1, 0): part 1 is the left cell.
        let shift = Isometry::new(0, (-1, 0));
        let d = canonical(&[1, 0], &[shift], 2);
        assert_eq!(d.labels, vec![0, 1]);
        assert_eq!(d.maps[0].apply((0, 0)), (1, 0));
    }

    #[test]
    fn cuts_are_sound_and_violated_on_a_split_part() {
        // A 4x1 strip into 2: labels A B B A have part A disconnected.
        let puzzle = DissectionPuzzle::from_picture("####", 2, true);
        let model = puzzle.compile();
        let values = |labels: &[usize]| {
            let mut v = vec![false; model.num_vars()];
            for (c, &l) in labels.iter().enumerate() {
                v[c * 2 + l] = true;
            }
            Assignment::new(v)
        };
        let bad = values(&[0, 1, 1, 0]);
        let cuts = model.lazy[0].cuts(&bad);
        assert_eq!(cuts.len(), 2);
        for cut in &cuts {
            assert!(!Constraint::Clause(cut.clone()).holds(&bad));
            // The only true dissection, A A B B, satisfies every cut.
            assert!(Constraint::Clause(cut.clone()).holds(&values(&[0, 0, 1, 1])));
        }
        assert!(model.lazy[0].cuts(&values(&[0, 0, 1, 1])).is_empty());
    }

    #[test]
    fn verify_rejects_broken_dissections() {
        let puzzle = DissectionPuzzle::from_picture("####", 2, false);
        let good = Dissection {
            labels: vec![0, 0, 1, 1],
            maps: vec![Isometry::new(0, (2, 0))],
        };
        assert_eq!(puzzle.verify(&good), Ok(()));
        let wrong_map = Dissection {
            maps: vec![Isometry::new(0, (1, 0))],
            ..good.clone()
        };
        assert!(puzzle.verify(&wrong_map).is_err());
        let mirror = Dissection {
            maps: vec![Isometry::new(4, (3, 0))],
            ..good.clone()
        };
        assert!(puzzle.verify(&mirror).unwrap_err().0.contains("reflection"));
        let split = Dissection {
            labels: vec![0, 1, 1, 0],
            maps: vec![Isometry::new(4, (3, 0))],
        };
        assert!(puzzle.verify(&split).is_err());
    }
}
