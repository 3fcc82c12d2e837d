//! Piece packing: put polyomino pieces into a region of a grid without overlap, either as
//! many as possible (`goal = "maximise"`) or covering every free cell (`goal = "tile"`).
//! Pieces are shapes with `rotate` / `reflect` switches and a count: unlimited, at most n
//! or exactly n. The 13 x 19 cross box and the 6 x 10 pentomino box are instances.

mod shape;

use crate::base::error::InputError;
use crate::geometry::isometry::RectSymmetry;
use crate::geometry::placements::{
    mirror_halves, orientations, placement_action, placement_index, placements, PackingInstance,
    PieceLimit,
};
use crate::model::shape::ModelShape;
use crate::model::{Assignment, Constraint, Lit, Model, Objective, Var};
use crate::puzzle::family::cells_text;
use crate::puzzle::grid::{Grid, MAX_SIDE};
use crate::puzzle::source::Source;
use crate::puzzle::{Family, VerifyError};
use serde::Deserialize;
use shape::packing_shape;
use std::collections::BTreeSet;
use toml::Spanned;

/// The most placements an instance may have: beyond it the model is not a grid puzzle a
/// person wrote, and the encodings would be huge.
pub const MAX_PLACEMENTS: usize = 200_000;

/// What a packing instance asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PackingKind {
    /// As many pieces as possible; cells may stay empty.
    Maximise,
    /// Every free cell covered exactly once (no objective: any tiling answers).
    Tile,
}

/// One piece type: a shape, its allowed motions and how often it may be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSpec {
    /// The piece's name, used in variable names (`place[T/2@(4,7)]`).
    pub name: String,
    /// The shape's cells as (x, y), normalised as the first entry of `orientations`.
    pub cells: Vec<(i32, i32)>,
    /// Whether the piece may be rotated.
    pub rotate: bool,
    /// Whether the piece may be turned over.
    pub reflect: bool,
    /// How often the piece may be used.
    pub limit: PieceLimit,
}

/// Where one placement is: its piece, orientation and bounding-box corner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacementInfo {
    /// Index into [`Packing::pieces`].
    pub piece: usize,
    /// Index into the piece's orientation list.
    pub orientation: usize,
    /// Column of the bounding box's left edge.
    pub x: usize,
    /// Row of the bounding box's top edge.
    pub y: usize,
}

/// A packing instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packing {
    /// Number of columns.
    pub width: usize,
    /// Number of rows.
    pub height: usize,
    /// Per cell (row-major), whether no piece may cover it.
    pub blocked: Vec<bool>,
    /// The piece types.
    pub pieces: Vec<PieceSpec>,
    /// Maximise or tile.
    pub kind: PackingKind,
    /// The model file's one-line description, if any.
    pub description: Option<String>,
    /// Every placement of every piece (the native core's data), in variable order.
    pub instance: PackingInstance,
    /// Per placement, where it is (same order as `instance.placements`).
    pub info: Vec<PlacementInfo>,
}

/// A packing: the pieces placed, each as its piece index and the cells it covers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PackingSolution {
    /// (piece index, sorted row-major cells), sorted by first cell.
    pub placed: Vec<(usize, Vec<usize>)>,
}

impl PackingSolution {
    /// A solution from placed pieces in any order.
    pub fn new(mut placed: Vec<(usize, Vec<usize>)>) -> PackingSolution {
        for (_, cells) in &mut placed {
            cells.sort_unstable();
        }
        placed.sort_by(|a, b| a.1.cmp(&b.1));
        PackingSolution { placed }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PackingFile {
    #[allow(dead_code)]
    kind: String,
    description: Option<String>,
    width: Option<Spanned<i64>>,
    height: Option<Spanned<i64>>,
    region: Option<Spanned<String>>,
    goal: Spanned<String>,
    piece: Option<Vec<PieceFile>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PieceFile {
    name: Spanned<String>,
    shape: Spanned<String>,
    rotate: Option<bool>,
    reflect: Option<bool>,
    exactly: Option<Spanned<i64>>,
    at_most: Option<Spanned<i64>>,
}

impl Packing {
    /// The same pieces, goal and description in an open `width x height` box.
    pub fn open_box(&self, width: usize, height: usize) -> Packing {
        let mut packing = Packing::new(
            width,
            height,
            vec![false; width * height],
            self.pieces.clone(),
            self.kind,
        );
        packing.description = self.description.clone();
        packing
    }

    /// An instance from plain data (for tests and generators); `blocked` is row-major.
    pub fn new(
        width: usize,
        height: usize,
        blocked: Vec<bool>,
        pieces: Vec<PieceSpec>,
        kind: PackingKind,
    ) -> Packing {
        assert_eq!(
            blocked.len(),
            width * height,
            "blocked has one entry per cell"
        );
        let mut all = Vec::new();
        let mut info = Vec::new();
        for (index, piece) in pieces.iter().enumerate() {
            let orients = orientations(&piece.cells, piece.rotate, piece.reflect);
            for (o, orient) in orients.iter().enumerate() {
                for p in placements(width, height, &blocked, index, std::slice::from_ref(orient)) {
                    let x = p.cells.iter().map(|c| c % width).min().unwrap_or(0);
                    let y = p.cells.iter().map(|c| c / width).min().unwrap_or(0);
                    info.push(PlacementInfo {
                        piece: index,
                        orientation: o,
                        x,
                        y,
                    });
                    all.push(p);
                }
            }
        }
        let instance = PackingInstance {
            width,
            height,
            blocked: blocked.clone(),
            placements: all,
            pieces: pieces.iter().map(|p| p.limit).collect(),
        };
        Packing {
            width,
            height,
            blocked,
            pieces,
            kind,
            description: None,
            instance,
            info,
        }
    }

    /// The readable name of placement `i`: `place[NAME/ORIENTATION@(X,Y)]`, with (X, Y) the
    /// top-left corner of its bounding box.
    pub fn placement_name(&self, i: usize) -> String {
        let info = &self.info[i];
        format!(
            "place[{}/{}@({},{})]",
            self.pieces[info.piece].name, info.orientation, info.x, info.y
        )
    }

    /// Compiles to the model: one boolean per placement (variable i is placement i), at most
    /// one placement per cell (exactly one when tiling), the piece counts, and for
    /// [`PackingKind::Maximise`] the objective "number of placements", its literals
    /// partitioned into at-most-one groups by cell (a greedy cover of the placements by the
    /// cells they share).
    ///
    /// With `break_symmetry`, when the region's symmetries map the instance onto itself and
    /// some piece is used exactly once, that piece is kept to one placement per orbit of
    /// its placements under those symmetries (unit clauses on the others; see
    /// [`Packing::symmetry_units`]). Counting all solutions needs `break_symmetry = false`.
    ///
    /// The mirror rule "no more pieces centred in the bottom half than in the top half"
    /// (and right against left; [`mirror_halves`], a [`Constraint::AtLeastAsMany`]) is not
    /// compiled: it made the SAT solvers slower to find witnesses and sped up no refutation
    /// measured (docs/methods.md, "Symmetry breaking").
    pub fn compile_with(&self, break_symmetry: bool) -> Model {
        let mut model = Model::new();
        let placements = &self.instance.placements;
        let lits: Vec<Lit> = (0..placements.len())
            .map(|i| model.new_var(self.placement_name(i)).positive())
            .collect();
        let cells = self.width * self.height;
        let mut covering: Vec<Vec<usize>> = vec![Vec::new(); cells];
        for (i, p) in placements.iter().enumerate() {
            for &c in &p.cells {
                covering[c].push(i);
            }
        }
        for (cover, _) in covering.iter().zip(&self.blocked).filter(|(_, &b)| !b) {
            let group: Vec<Lit> = cover.iter().map(|&i| lits[i]).collect();
            match self.kind {
                // A free cell no placement covers makes tiling impossible: the empty clause.
                PackingKind::Tile => model.add(Constraint::ExactlyOne(group)),
                PackingKind::Maximise if group.len() >= 2 => {
                    model.add(Constraint::AtMostOne(group))
                }
                PackingKind::Maximise => {}
            }
        }
        for (index, piece) in self.pieces.iter().enumerate() {
            let own: Vec<Lit> = (0..placements.len())
                .filter(|&i| placements[i].piece == index)
                .map(|i| lits[i])
                .collect();
            if let Some(max) = piece.limit.max {
                if max < own.len() {
                    model.add(Constraint::AtMost(own.clone(), max));
                }
            }
            match piece.limit.min {
                0 => {}
                1 if piece.limit.max == Some(1) => model.add(Constraint::ExactlyOne(own)),
                min => model.add(Constraint::AtLeast(own, min)),
            }
        }
        if break_symmetry {
            for i in self.symmetry_units() {
                model.add(Constraint::Clause(vec![!lits[i]]));
            }
        }
        if self.kind == PackingKind::Maximise {
            model.objective = Some(Objective {
                lits: lits.clone(),
                amo_groups: Some(self.cell_groups(&covering)),
            });
        }
        model
    }

    /// The placements that symmetry breaking rules out: of the pieces used exactly once,
    /// the one with the most placements to rule out, every placement of it that is not the
    /// least of its orbit under the symmetries of the rectangle that map the instance onto
    /// itself. Sound for every goal: a solution places that piece once, at some p; the
    /// symmetry taking p to the least of its orbit maps the solution to a solution (same
    /// pieces, same count) that places the piece there. Empty when no piece is used exactly
    /// once or the instance has no symmetry.
    pub fn symmetry_units(&self) -> Vec<usize> {
        let instance = &self.instance;
        let index = placement_index(instance);
        let actions: Vec<Vec<usize>> = RectSymmetry::of_rectangle(instance.width, instance.height)
            .filter_map(|symmetry| placement_action(instance, &index, symmetry))
            .collect();
        if actions.len() < 2 {
            return Vec::new();
        }
        let once = |piece: usize| {
            let limit = &self.pieces[piece].limit;
            limit.min == 1 && limit.max == Some(1)
        };
        let mut best: Vec<usize> = Vec::new();
        for piece in (0..self.pieces.len()).filter(|&p| once(p)) {
            let ruled_out: Vec<usize> = (0..instance.placements.len())
                .filter(|&i| instance.placements[i].piece == piece)
                .filter(|&i| actions.iter().any(|action| action[i] < i))
                .collect();
            if ruled_out.len() > best.len() {
                best = ruled_out;
            }
        }
        best
    }

    /// Rows that rule out mirror images of packings, for the files of MILP solvers (`emit
    /// --format lp`), each with its name: "no more pieces centred in the bottom half than
    /// in the top half" (`symmetry_top_bottom`) and right against left
    /// (`symmetry_left_right`), for each mirror of the box that maps the instance onto
    /// itself ([`mirror_halves`] says why both
    /// together are sound). None when [`Packing::compile`] breaks symmetry already by its
    /// unit clauses ([`Packing::symmetry_units`]): the two rules pick different images, and
    /// together they could rule out every solution.
    pub fn mirror_rows(&self) -> Vec<(&'static str, Constraint)> {
        if !self.symmetry_units().is_empty() {
            return Vec::new();
        }
        mirror_halves(&self.instance)
            .into_iter()
            .map(|halves| {
                let side = |wanted: std::cmp::Ordering| -> Vec<Lit> {
                    (0..halves.side.len())
                        .filter(|&i| halves.side[i] == wanted)
                        .map(|i| Var::from_index(i).positive())
                        .collect()
                };
                let name = if halves.rows_flipped {
                    "symmetry_top_bottom"
                } else {
                    "symmetry_left_right"
                };
                let constraint = Constraint::AtLeastAsMany {
                    first: side(std::cmp::Ordering::Less),
                    second: side(std::cmp::Ordering::Greater),
                };
                (name, constraint)
            })
            .collect()
    }

    /// A partition of the placements into groups that share a cell (so at most one of each
    /// group is placed), greedily using the cells covered by the most unassigned placements.
    pub(crate) fn cell_groups(&self, covering: &[Vec<usize>]) -> Vec<Vec<usize>> {
        let n = self.instance.placements.len();
        let mut assigned = vec![false; n];
        let mut groups = Vec::new();
        let mut left = n;
        while left > 0 {
            let best = (0..covering.len())
                .max_by_key(|&c| {
                    (
                        covering[c].iter().filter(|&&i| !assigned[i]).count(),
                        std::cmp::Reverse(c),
                    )
                })
                .expect("placements cover cells");
            let group: Vec<usize> = covering[best]
                .iter()
                .copied()
                .filter(|&i| !assigned[i])
                .collect();
            for &i in &group {
                assigned[i] = true;
            }
            left -= group.len();
            groups.push(group);
        }
        groups
    }

    /// The solution made of placements `indices` (into `instance.placements`).
    pub fn solution_of(&self, indices: &[usize]) -> PackingSolution {
        PackingSolution::new(
            indices
                .iter()
                .map(|&i| {
                    let p = &self.instance.placements[i];
                    (p.piece, p.cells.clone())
                })
                .collect(),
        )
    }

    /// The region's rows: one letter per piece (`A`..`Z`, then `a`..`z`, then again from
    /// `A`), in the order of their first cells; `.` empty, `#` blocked.
    pub fn render_grid(&self, solution: &PackingSolution) -> Vec<String> {
        const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        let mut grid: Vec<char> = self
            .blocked
            .iter()
            .map(|&b| if b { '#' } else { '.' })
            .collect();
        for (k, (_, cells)) in solution.placed.iter().enumerate() {
            for &c in cells {
                grid[c] = LETTERS[k % LETTERS.len()] as char;
            }
        }
        grid.chunks(self.width)
            .map(|row| row.iter().collect())
            .collect()
    }
}

impl Family for Packing {
    type Solution = PackingSolution;

    const KIND: &'static str = "packing";

    fn has_objective(&self) -> bool {
        self.kind == PackingKind::Maximise
    }

    fn trivially_impossible(&self) -> Option<String> {
        None
    }

    fn canonical_text(&self) -> String {
        let pieces: Vec<String> = self
            .pieces
            .iter()
            .map(|piece| {
                format!(
                    "{} min {} max {} rotate {} reflect {} cells {:?}",
                    piece.name,
                    piece.limit.min,
                    piece
                        .limit
                        .max
                        .map_or("none".to_string(), |m| m.to_string()),
                    piece.rotate,
                    piece.reflect,
                    piece.cells
                )
            })
            .collect();
        format!(
            "packing {}x{} {} {} pieces: {}",
            self.width,
            self.height,
            match self.kind {
                PackingKind::Maximise => "maximise",
                PackingKind::Tile => "tile",
            },
            cells_text(self.width, &self.blocked, '#', '.'),
            pieces.join("; ")
        )
    }

    fn shape(&self, _lazy_written_out: bool) -> ModelShape {
        packing_shape(self)
    }

    fn symmetry_rows(&self) -> Vec<(&'static str, Constraint)> {
        self.mirror_rows()
    }

    fn value(solution: &PackingSolution) -> usize {
        solution.placed.len()
    }

    /// Parses and validates a `kind = "packing"` model file.
    fn from_source(source: &Source) -> Result<Packing, InputError> {
        let file: PackingFile = source.parse()?;
        let side = |v: &Option<Spanned<i64>>, key: &str| -> Result<Option<usize>, InputError> {
            match v {
                None => Ok(None),
                Some(s) if (1..=MAX_SIDE as i64).contains(s.get_ref()) => {
                    Ok(Some(*s.get_ref() as usize))
                }
                Some(s) => Err(source.error_at(
                    s.span().start,
                    format!(
                        "`{key}` is {}; it must be between 1 and {MAX_SIDE}",
                        s.get_ref()
                    ),
                )),
            }
        };
        let (width, height) = (side(&file.width, "width")?, side(&file.height, "height")?);
        let (width, height, blocked) = match (&file.region, width, height) {
            (Some(region), None, None) => {
                let grid =
                    Grid::parse(source, "region", region.get_ref(), region.span(), &['.', '#'])?;
                let blocked = grid.cells.iter().map(|&c| c == '#').collect();
                (grid.width, grid.height, blocked)
            }
            (Some(region), _, _) => {
                return Err(source.error_at(
                    region.span().start,
                    "give either `region` or `width` and `height`, not both",
                ))
            }
            (None, Some(w), Some(h)) => (w, h, vec![false; w * h]),
            (None, _, _) => {
                return Err(source.error_line(
                    1,
                    "missing the region: `width` and `height`, or `region` (a grid of '.' free and '#' blocked)",
                ))
            }
        };
        let kind = match file.goal.get_ref().as_str() {
            "maximise" | "maximize" => PackingKind::Maximise,
            "tile" => PackingKind::Tile,
            other => {
                return Err(source.error_at(
                    file.goal.span().start,
                    format!("unknown goal {other:?} (expected \"maximise\" or \"tile\")"),
                ))
            }
        };
        let Some(piece_files) = file.piece.filter(|p| !p.is_empty()) else {
            return Err(source.error_line(
                1,
                "missing pieces: add one or more [[piece]] tables with `name` and `shape`",
            ));
        };
        let mut pieces: Vec<PieceSpec> = Vec::new();
        for piece in &piece_files {
            let name = piece.name.get_ref().trim().to_string();
            let name_ok = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            if !name_ok {
                return Err(source.error_at(
                    piece.name.span().start,
                    format!("piece name {name:?} must be letters, digits, '_' or '-'"),
                ));
            }
            if pieces.iter().any(|p| p.name == name) {
                return Err(source.error_at(
                    piece.name.span().start,
                    format!("piece name {name:?} is used twice"),
                ));
            }
            let grid = Grid::parse(
                source,
                "shape",
                piece.shape.get_ref(),
                piece.shape.span(),
                &['.', '#'],
            )?;
            let cells: Vec<(i32, i32)> = (0..grid.height)
                .flat_map(|y| (0..grid.width).map(move |x| (x, y)))
                .filter(|&(x, y)| grid.at(x, y) == '#')
                .map(|(x, y)| (x as i32, y as i32))
                .collect();
            if cells.is_empty() {
                return Err(source.error_at(
                    piece.shape.span().start,
                    format!("piece {name:?} has no cells: mark them with '#'"),
                ));
            }
            let count = |v: &Spanned<i64>, key: &str| -> Result<usize, InputError> {
                usize::try_from(*v.get_ref())
                    .ok()
                    .filter(|&n| n <= 10_000)
                    .ok_or_else(|| {
                        source.error_at(
                            v.span().start,
                            format!("`{key}` is {}; it must be 0 to 10000", v.get_ref()),
                        )
                    })
            };
            let limit = match (&piece.exactly, &piece.at_most) {
                (Some(_), Some(m)) => {
                    return Err(source.error_at(
                        m.span().start,
                        "give either `exactly` or `at_most`, not both",
                    ))
                }
                (Some(n), None) => PieceLimit::exactly(count(n, "exactly")?),
                (None, Some(m)) => PieceLimit::at_most(count(m, "at_most")?),
                (None, None) => PieceLimit::unlimited(),
            };
            let rotate = piece.rotate.unwrap_or(true);
            let reflect = piece.reflect.unwrap_or(true);
            let cells = orientations(&cells, false, false).remove(0);
            pieces.push(PieceSpec {
                name,
                cells,
                rotate,
                reflect,
                limit,
            });
        }
        // Count placements before building them, so an absurd instance fails fast.
        let total: usize = pieces
            .iter()
            .map(|p| orientations(&p.cells, p.rotate, p.reflect).len() * width * height)
            .sum();
        if total > MAX_PLACEMENTS * 4 {
            return Err(source.error_line(
                1,
                format!("the pieces have up to {total} placements; at most {MAX_PLACEMENTS} are supported"),
            ));
        }
        let mut packing = Packing::new(width, height, blocked, pieces, kind);
        if packing.instance.placements.len() > MAX_PLACEMENTS {
            return Err(source.error_line(
                1,
                format!(
                    "the pieces have {} placements; at most {MAX_PLACEMENTS} are supported",
                    packing.instance.placements.len()
                ),
            ));
        }
        packing.description = file.description;
        Ok(packing)
    }

    /// Compiles with symmetry breaking (see [`Packing::compile_with`]).
    fn compile(&self) -> Model {
        self.compile_with(true)
    }

    /// Reads the placed pieces from an assignment of the compiled model.
    fn decode(&self, assignment: &Assignment) -> PackingSolution {
        let chosen: Vec<usize> = (0..self.instance.placements.len())
            .filter(|&i| assignment.value(Var::from_index(i)))
            .collect();
        self.solution_of(&chosen)
    }

    /// Checks the rules from scratch, from the piece shapes and the region alone: every
    /// piece's cells are an allowed orientation of its shape, inside the region and off
    /// blocked cells; no cell is covered twice; every piece count is respected; a tiling
    /// covers every free cell.
    fn verify(&self, solution: &PackingSolution) -> Result<(), VerifyError> {
        let (w, h) = (self.width, self.height);
        let mut covered = vec![false; w * h];
        let mut used = vec![0usize; self.pieces.len()];
        for (piece, cells) in &solution.placed {
            let Some(spec) = self.pieces.get(*piece) else {
                return Err(VerifyError(format!("piece {piece} does not exist")));
            };
            for &c in cells {
                if c >= w * h {
                    return Err(VerifyError(format!(
                        "piece {} leaves the region",
                        spec.name
                    )));
                }
                if self.blocked[c] {
                    return Err(VerifyError(format!(
                        "piece {} covers blocked cell ({}, {})",
                        spec.name,
                        c % w,
                        c / w
                    )));
                }
                if std::mem::replace(&mut covered[c], true) {
                    return Err(VerifyError(format!(
                        "cell ({}, {}) is covered twice",
                        c % w,
                        c / w
                    )));
                }
            }
            // The shape, moved to the origin, must be one of the piece's orientations
            // (computed afresh by plain rotation and reflection of the given shape).
            let mut shape: Vec<(i32, i32)> = cells
                .iter()
                .map(|&c| ((c % w) as i32, (c / w) as i32))
                .collect();
            let (mx, my) = (
                shape.iter().map(|p| p.0).min().unwrap_or(0),
                shape.iter().map(|p| p.1).min().unwrap_or(0),
            );
            shape.iter_mut().for_each(|p| *p = (p.0 - mx, p.1 - my));
            let shape: BTreeSet<(i32, i32)> = shape.into_iter().collect();
            if shape.len() != cells.len() || !allowed_shapes(spec).contains(&shape) {
                return Err(VerifyError(format!(
                    "the cells of piece {} are not an allowed orientation of its shape",
                    spec.name
                )));
            }
            used[*piece] += 1;
        }
        for (spec, &n) in self.pieces.iter().zip(&used) {
            if n < spec.limit.min || spec.limit.max.is_some_and(|m| n > m) {
                return Err(VerifyError(format!(
                    "piece {} is used {n} times, outside its count",
                    spec.name
                )));
            }
        }
        if self.kind == PackingKind::Tile {
            if let Some(c) = (0..w * h).find(|&c| !self.blocked[c] && !covered[c]) {
                return Err(VerifyError(format!(
                    "cell ({}, {}) is not covered",
                    c % w,
                    c / w
                )));
            }
        }
        Ok(())
    }

    /// The number of pieces, then the region.
    fn render(&self, solution: &PackingSolution) -> String {
        let mut out = format!("{}\n", solution.placed.len());
        for row in self.render_grid(solution) {
            out.push_str(&row);
            out.push('\n');
        }
        out
    }

    /// The solution as JSON: pieces with their names and cells, and the grid.
    fn solution_json(&self, solution: &PackingSolution) -> serde_json::Value {
        let pieces: Vec<serde_json::Value> = solution
            .placed
            .iter()
            .map(|(piece, cells)| {
                serde_json::json!({
                    "piece": self.pieces[*piece].name,
                    "cells": cells.iter().map(|c| [c % self.width, c / self.width]).collect::<Vec<_>>(),
                })
            })
            .collect();
        serde_json::json!({ "pieces": pieces, "grid": self.render_grid(solution) })
    }
}

/// Every orientation of `spec`'s shape allowed by its switches, each moved to the origin,
/// by direct rotation (x, y) -> (-y, x) and reflection (x, y) -> (-x, y).
fn allowed_shapes(spec: &PieceSpec) -> Vec<BTreeSet<(i32, i32)>> {
    let mut out = Vec::new();
    for mirror in [false, true] {
        if mirror && !spec.reflect {
            continue;
        }
        let mut cells: Vec<(i32, i32)> = spec
            .cells
            .iter()
            .map(|&(x, y)| if mirror { (-x, y) } else { (x, y) })
            .collect();
        for turn in 0..4 {
            if turn > 0 && !spec.rotate {
                break;
            }
            let mx = cells.iter().map(|p| p.0).min().unwrap_or(0);
            let my = cells.iter().map(|p| p.1).min().unwrap_or(0);
            out.push(cells.iter().map(|&(x, y)| (x - mx, y - my)).collect());
            cells = cells.iter().map(|&(x, y)| (-y, x)).collect();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, picture: &str, limit: PieceLimit) -> PieceSpec {
        let mut cells = Vec::new();
        for (y, line) in picture.split('/').enumerate() {
            for (x, ch) in line.chars().enumerate() {
                if ch == '#' {
                    cells.push((x as i32, y as i32));
                }
            }
        }
        PieceSpec {
            name: name.into(),
            cells,
            rotate: true,
            reflect: true,
            limit,
        }
    }

    #[test]
    fn crosses_give_nine_orientations_and_1215_placements() {
        let pieces = vec![
            spec(
                "plus",
                "..#../..#../#####/..#../..#..",
                PieceLimit::unlimited(),
            ),
            spec(
                "dagger",
                "..#../#####/..#../..#../..#..",
                PieceLimit::unlimited(),
            ),
            spec(
                "T",
                "#####/..#../..#../..#../..#..",
                PieceLimit::unlimited(),
            ),
        ];
        let packing = Packing::new(13, 19, vec![false; 247], pieces, PackingKind::Maximise);
        let orients: usize = packing
            .pieces
            .iter()
            .map(|p| orientations(&p.cells, true, true).len())
            .sum();
        assert_eq!(orients, 9);
        assert_eq!(packing.instance.placements.len(), 1215);
        let model = packing.compile();
        assert_eq!(model.check_hints(), Ok(()));
        assert_eq!(model.name(Var::from_index(0)), "place[plus/0@(0,0)]");
        let mirrors: Vec<bool> = crate::geometry::placements::mirror_halves(&packing.instance)
            .iter()
            .map(|m| m.rows_flipped)
            .collect();
        assert_eq!(mirrors, vec![false, true]);
        // The LP file's symmetry rows: left-right and top-bottom, each a comparison of the
        // placements centred on either side (a plus at (0,0) is centred at (2,2), top left).
        let rows = packing.mirror_rows();
        let names: Vec<&str> = rows.iter().map(|(name, _)| *name).collect();
        assert_eq!(names, ["symmetry_left_right", "symmetry_top_bottom"]);
        for (_, row) in &rows {
            let Constraint::AtLeastAsMany { first, second } = row else {
                panic!("{row:?}");
            };
            assert!(first.contains(&Var::from_index(0).positive()));
            assert_eq!(first.len(), second.len());
        }
        // A tiling that breaks symmetry by unit clauses gets no mirror rows.
        let pieces = vec![
            spec("L", "#./##", PieceLimit::exactly(1)),
            spec("I", "#", PieceLimit::unlimited()),
        ];
        let tiling = Packing::new(3, 3, vec![false; 9], pieces, PackingKind::Tile);
        assert!(!tiling.symmetry_units().is_empty());
        assert!(tiling.mirror_rows().is_empty());
    }

    #[test]
    fn verify_rejects_bad_packings() {
        let pieces = vec![spec("L", "#./##", PieceLimit::at_most(1))];
        let packing = Packing::new(3, 2, vec![false; 6], pieces, PackingKind::Maximise);
        assert!(packing
            .verify(&PackingSolution::new(vec![(0, vec![0, 3, 4])]))
            .is_ok());
        let err = |placed| packing.verify(&PackingSolution::new(placed)).unwrap_err().0;
        assert_eq!(
            err(vec![(0, vec![0, 1, 2])]),
            "the cells of piece L are not an allowed orientation of its shape"
        );
        assert_eq!(
            err(vec![(0, vec![0, 3, 4]), (0, vec![1, 2, 5])]),
            "piece L is used 2 times, outside its count"
        );
        assert_eq!(
            err(vec![(0, vec![0, 3, 4]), (0, vec![0, 1, 4])]),
            "cell (0, 0) is covered twice"
        );
    }
}
