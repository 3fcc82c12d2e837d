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

mod compile;
mod connectivity;
mod shape;

pub use connectivity::Connectivity;
pub use shape::dissection_candidates;

use crate::base::error::InputError;
use crate::geometry::isometry::{Cell, Isometry};
use crate::geometry::partition::trivially_impossible;
pub use crate::geometry::partition::Dissection;
use crate::model::shape::ModelShape;
use crate::model::{Assignment, Constraint, Model, Var};
use crate::puzzle::family::cells_text;
use crate::puzzle::grid::Grid;
use crate::puzzle::source::Source;
use crate::puzzle::{Family, VerifyError};
use compile::{candidate_maps, Compiled};
use serde::Deserialize;
use shape::dissection_shape;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{JustifiedCut, Lit};

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
