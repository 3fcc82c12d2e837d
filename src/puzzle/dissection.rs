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
//!   sound, and for the reasons certificates record with them).

use crate::base::error::InputError;
use crate::geometry::isometry::{Cell, Isometry};
use crate::geometry::partition::trivially_impossible;
pub use crate::geometry::partition::Dissection;
use crate::model::shape::{ConstraintShape, ModelShape};
use crate::model::{
    Assignment, Constraint, CutRejected, JustifiedCut, JustifyCuts, LazyConstraint, Lit, Model, Var,
};
use crate::puzzle::family::{cells_text, digits};
use crate::puzzle::grid::Grid;
use crate::puzzle::source::Source;
use crate::puzzle::{Family, VerifyError};
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

    /// The variables that determine a dissection: the part variables (the first
    /// `cells * parts` of the compiled model). Enumeration blocks assignments of these.
    pub fn solution_vars(&self) -> Vec<Var> {
        (0..self.cells().len() * self.parts)
            .map(Var::from_index)
            .collect()
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
}

impl Family for DissectionPuzzle {
    type Solution = Dissection;

    const KIND: &'static str = "dissection";

    fn has_objective(&self) -> bool {
        false
    }

    fn canonical_text(&self) -> String {
        format!(
            "dissection {}x{} parts {} reflect {} {}",
            self.width,
            self.height,
            self.parts,
            self.reflect,
            cells_text(self.width, &self.inside, '#', '.')
        )
    }

    fn shape(&self, lazy_written_out: bool) -> ModelShape {
        dissection_shape(self, lazy_written_out)
    }

    fn symmetry_rows(&self) -> Vec<(&'static str, Constraint)> {
        Vec::new()
    }

    fn value(_solution: &Dissection) -> usize {
        0
    }

    fn solution_json(&self, solution: &Dissection) -> serde_json::Value {
        serde_json::json!({
            "parts": self.parts,
            "grid": self.render_grid(solution),
        })
    }

    /// Parses and validates a `kind = "dissection"` model file.
    fn from_source(source: &Source) -> Result<DissectionPuzzle, InputError> {
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

    /// Why no dissection can exist, when that is obvious (cell count not divisible by the
    /// number of parts, more components than parts...), in words for the user.
    fn trivially_impossible(&self) -> Option<String> {
        trivially_impossible(&self.cells(), self.parts)
            .map(|reason| format!("no dissection: {reason}"))
    }

    /// Compiles to the model described in the module docs.
    fn compile(&self) -> Model {
        Compiled::new(self).model
    }

    /// Reads the dissection from an assignment of the compiled model, parts renumbered by
    /// first appearance in scan order and maps permuted to match.
    fn decode(&self, assignment: &Assignment) -> Dissection {
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

    /// Checks the rules from scratch: every cell in one of `parts` parts, each part
    /// edge-connected, and part `i` the image of part 0 under the claimed `maps[i - 1]`,
    /// an allowed isometry (no reflection unless `reflect`).
    fn verify(&self, solution: &Dissection) -> Result<(), VerifyError> {
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

    /// The picture with one letter per part, one row a line.
    fn render(&self, solution: &Dissection) -> String {
        let mut out = String::new();
        for row in self.render_grid(solution) {
            out.push_str(&row);
            out.push('\n');
        }
        out
    }
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
        model
            .lazy
            .push(Box::new(Connectivity::new(cells, part, n / k)));
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
    fn new(cells: Vec<Cell>, part: Vec<Vec<Lit>>, part_size: usize) -> Connectivity {
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

/// An upper bound on the number of candidate maps the dissection compiler keeps for each
/// part after the first: one per orientation and target cell of the first cell, kept only
/// when part 0 can have `m` cells whose images lie in the shape. The compiler also asks
/// that those cells be connected and not fixed by the map; this bound only counts the
/// cells whose image is inside the shape (a bitwise overlap of the shape with its turned
/// copy, row by row), so it is at least the compiler's count.
pub fn dissection_candidates(puzzle: &DissectionPuzzle) -> u64 {
    let cells = puzzle.cells();
    let k = puzzle.parts;
    if k < 2 || cells.is_empty() || !cells.len().is_multiple_of(k) {
        return 0;
    }
    let m = cells.len() / k;
    let height = puzzle.height as i32;
    // Shape rows as bit masks (sides are at most 64, so x < 64).
    let mut rows = vec![0u128; puzzle.height];
    for &(x, y) in &cells {
        rows[y as usize] |= 1 << x;
    }
    let anchor = cells[0];
    let mut candidates = 0;
    for orientation in 0..puzzle.orientations() {
        let turn = Isometry::new(orientation, (0, 0));
        let turned: Vec<(i32, i32)> = cells.iter().map(|&c| turn.apply(c)).collect();
        let min_x = turned.iter().map(|c| c.0).min().unwrap_or(0);
        let min_y = turned.iter().map(|c| c.1).min().unwrap_or(0);
        let max_y = turned.iter().map(|c| c.1).max().unwrap_or(0);
        // The turned shape's rows, shifted so its leftmost cell is bit 0.
        let mut turned_rows = vec![0u128; (max_y - min_y + 1) as usize];
        for &(x, y) in &turned {
            turned_rows[(y - min_y) as usize] |= 1 << (x - min_x);
        }
        let turned_anchor = turn.apply(anchor);
        for &target in &cells[1..] {
            let (dx, dy) = (target.0 - turned_anchor.0, target.1 - turned_anchor.1);
            // Turned cell (x, y) lands on (x + dx, y + dy): bit x - min_x moves to x + dx.
            let shift = min_x + dx;
            let mut overlap = 0;
            for (row, &bits) in turned_rows.iter().enumerate() {
                let y = row as i32 + min_y + dy;
                if !(0..height).contains(&y) {
                    continue;
                }
                let moved = match shift {
                    s if s >= 128 || s <= -128 => 0,
                    s if s >= 0 => bits << s,
                    s => bits >> -s,
                };
                overlap += (moved & rows[y as usize]).count_ones() as usize;
            }
            if overlap >= m {
                candidates += 1;
            }
        }
    }
    candidates
}

fn dissection_shape(puzzle: &DissectionPuzzle, lazy_written_out: bool) -> ModelShape {
    let cells = puzzle.cells();
    let n = cells.len();
    let k = puzzle.parts;
    let mut shape = ModelShape::new();
    for &(x, y) in &cells {
        // part[x,y,p]
        let name = 8 + digits(x as usize) + digits(y as usize);
        for p in 0..k {
            shape.add_vars(1, name + digits(p));
        }
    }
    if puzzle.trivially_impossible().is_some() {
        shape.add(ConstraintShape::Clause(0), 1);
        return shape;
    }
    shape.add(ConstraintShape::ExactlyOne(k), n as u64);
    shape.add(ConstraintShape::Clause(1), 1);
    for _ in 2..k {
        for c in 1..n {
            shape.add(ConstraintShape::Clause(c + 1), 1);
        }
    }
    let candidates = dissection_candidates(puzzle);
    // The compiler keeps each candidate's image (16 bytes a cell) and domain (1 byte a cell)
    // until the model is built.
    shape.scratch_bytes = candidates * n as u64 * 17;
    for p in 1..k {
        // map[p,oO,DX,DY]: about 16 bytes.
        shape.add_vars(candidates, 12 + digits(p) + 4);
        shape.add(ConstraintShape::ExactlyOne(candidates as usize), 1);
        // Forward and backward clauses per candidate and cell, of 2 or 3 literals (counted
        // as 3: an upper bound).
        shape.add(ConstraintShape::Clause(3), 2 * n as u64 * candidates);
    }
    if lazy_written_out && k >= 1 {
        // The connectivity write-out: distance layers per cell and part (see
        // `Connectivity::write_out`).
        let layers = (n / k).max(1) as u64;
        let neighbours = |&(x, y): &(i32, i32)| {
            [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
                .iter()
                .filter(|&&(a, b)| {
                    (0..puzzle.width as i32).contains(&a)
                        && (0..puzzle.height as i32).contains(&b)
                        && puzzle.inside[b as usize * puzzle.width + a as usize]
                })
                .count()
        };
        for cell in &cells {
            // within[p,t]@(x,y) or root[p]@(x,y): about 20 bytes.
            shape.add_vars(k as u64 * layers, k as u64 * layers * 20);
            shape.add(ConstraintShape::Clause(2), k as u64 * layers + k as u64);
            shape.add(
                ConstraintShape::Clause(2 + neighbours(cell)),
                k as u64 * (layers - 1),
            );
        }
        shape.add(ConstraintShape::ExactlyOne(n), k as u64);
    }
    shape
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
    fn verify_cut_rejects_each_kind_of_broken_cut() {
        // A 1 x 6 strip into 2 parts of 3; cell x has part variables 2x + 1 (part 0) and
        // 2x + 2 (part 1), in DIMACS numbers.
        let model = DissectionPuzzle::from_picture("######", 2, true).compile();
        let justifier = model.lazy[0].justify().unwrap();
        let cut = |reason: &str, clause: &[i64]| JustifiedCut {
            reason: reason.to_string(),
            clause: clause.iter().map(|&l| Lit::from_dimacs(l)).collect(),
        };
        let check = |reason: &str, clause: &[i64]| {
            justifier
                .verify_cut(&cut(reason, clause))
                .map_err(|e| e.to_string())
        };
        // Good: {(1,0), (2,0)} in part 0 must reach (0,0) or (3,0); either cell may be c.
        assert_eq!(check("part 0 component 1,0 2,0", &[-3, 1, 7]), Ok(()));
        assert_eq!(check("part 0 component 1,0 2,0", &[7, -5, 1]), Ok(()));
        let cases: [(&str, &[i64], &str); 14] = [
            ("part 0 cells 1,0", &[-3, 1, 5], "expected \"part P component X,Y ...\", found \"part 0 cells 1,0\""),
            ("piece 0 component 1,0", &[-3, 1, 5], "expected \"part P component X,Y ...\", found \"piece 0 component 1,0\""),
            ("part x component 1,0", &[-3, 1, 5], "\"x\" is not a part number"),
            ("part 2 component 1,0", &[-3, 1, 5], "part 2 does not exist (the parts are 0 to 1)"),
            ("part 0 component 1;0", &[-3, 1, 5], "\"1;0\" is not a cell X,Y"),
            ("part 0 component 1,1", &[-3, 1, 5], "(1,1) is not a cell of the shape"),
            ("part 0 component 1,0 1,0", &[-3, 1, 5], "(1,0) is listed twice"),
            ("part 0 component", &[-3, 1, 5], "the component has no cell"),
            ("part 0 component 1,0 3,0", &[-3, 1, 5, 9], "the component is not connected: (3,0) is not joined to (1,0) inside it"),
            ("part 0 component 1,0 2,0 3,0", &[-3, 1, 9], "the component has 3 cells; it must have fewer than a part's 3"),
            ("part 0 component 1,0", &[1, 5], "the clause has 0 negative literals; it must have one, -part[c,0] for a cell c of the component"),
            ("part 0 component 1,0", &[-4, 1, 5], "-part[1,0,1] is not -part[c,0] for a cell c of the component"),
            ("part 0 component 1,0", &[-3, 1, 5, 7], "part[3,0,0] is not part[d,0] for a neighbour d of the component"),
            ("part 0 component 1,0", &[-3, 1], "the clause lacks part[2,0,0], a neighbour of the component"),
        ];
        for (reason, clause, message) in cases {
            assert_eq!(
                check(reason, clause),
                Err(message.to_string()),
                "{reason} {clause:?}"
            );
        }
        assert_eq!(
            check("part 0 component 1,0", &[-3, 1, 5, 1]),
            Err("part[0,0,0] appears twice".to_string())
        );
        assert_eq!(
            check("part 0 component 1,0", &[-3, -5, 1]),
            Err("the clause has 2 negative literals; it must have one, -part[c,0] for a cell c of the component".to_string())
        );
        let map_var = model.num_vars() as i64;
        assert_eq!(
            check("part 0 component 1,0", &[-3, 1, 5, map_var]),
            Err(format!("literal {map_var} (not a part variable) is not part[d,0] for a neighbour d of the component"))
        );
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
