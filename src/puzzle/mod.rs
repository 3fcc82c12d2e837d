//! Puzzle families as plain data, each knowing its own rules, and the model-file loader.
//!
//! A family parses and validates its instance, compiles it to a [`Model`], decodes a
//! model assignment into a [`Solution`], verifies a solution from the puzzle's rules alone
//! (never looking at the encoding) and renders it.

pub mod dissection;
pub mod grid;
pub mod load;
pub mod packing;
pub mod queens;
pub mod shape;
pub mod source;

use crate::model::{Assignment, Model};

pub use load::load_model_file;

/// A puzzle instance of any family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Puzzle {
    /// Queens on a board, possibly with obstacles.
    Queens(queens::Queens),
    /// A shape to cut into congruent connected parts.
    Dissection(dissection::DissectionPuzzle),
    /// Pieces packed into a region, or tiling it.
    Packing(packing::Packing),
}

/// A solution of any family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solution {
    /// Queen positions.
    Queens(queens::QueensSolution),
    /// The part of each cell and the maps between parts.
    Dissection(dissection::Dissection),
    /// Placed pieces.
    Packing(packing::PackingSolution),
}

/// A solution that breaks the puzzle's rules: always a bug in a backend or an encoding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("solution rejected by the puzzle's rules: {0}")]
pub struct VerifyError(pub String);

impl Puzzle {
    /// The family's name as written in model files.
    pub fn kind(&self) -> &'static str {
        match self {
            Puzzle::Queens(_) => "queens",
            Puzzle::Dissection(_) => "dissection",
            Puzzle::Packing(_) => "packing",
        }
    }

    /// Whether the puzzle has an objective; without one, solving means finding any solution.
    pub fn has_objective(&self) -> bool {
        match self {
            Puzzle::Queens(_) => true,
            Puzzle::Dissection(_) => false,
            Puzzle::Packing(p) => p.kind == packing::PackingKind::Maximise,
        }
    }

    /// Why the puzzle obviously has no solution, in words, when that needs no search.
    pub fn trivially_impossible(&self) -> Option<String> {
        match self {
            Puzzle::Queens(_) => None,
            Puzzle::Dissection(d) => d.trivially_impossible(),
            Puzzle::Packing(_) => None,
        }
    }

    /// The instance as canonical text: what defines it and nothing else (no description,
    /// no file layout), so equal instances give equal text on every machine and in every
    /// version. Shards are checked to belong together by its digest.
    pub fn canonical_text(&self) -> String {
        let grid = |width: usize, cells: &[bool], on: char, off: char| {
            cells
                .chunks(width.max(1))
                .map(|row| row.iter().map(|&c| if c { on } else { off }).collect())
                .collect::<Vec<String>>()
                .join("/")
        };
        match self {
            Puzzle::Queens(q) => format!(
                "queens {}x{} {}",
                q.width,
                q.height,
                q.free
                    .iter()
                    .map(|&f| if f { '-' } else { '*' })
                    .collect::<String>()
            ),
            Puzzle::Dissection(d) => format!(
                "dissection {}x{} parts {} reflect {} {}",
                d.width,
                d.height,
                d.parts,
                d.reflect,
                grid(d.width, &d.inside, '#', '.')
            ),
            Puzzle::Packing(p) => {
                let pieces: Vec<String> = p
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
                    p.width,
                    p.height,
                    match p.kind {
                        packing::PackingKind::Maximise => "maximise",
                        packing::PackingKind::Tile => "tile",
                    },
                    grid(p.width, &p.blocked, '#', '.'),
                    pieces.join("; ")
                )
            }
        }
    }

    /// Compiles the puzzle to the backend-neutral model.
    pub fn compile(&self) -> Model {
        match self {
            Puzzle::Queens(q) => q.compile(),
            Puzzle::Dissection(d) => d.compile(),
            Puzzle::Packing(p) => p.compile(),
        }
    }

    /// Rows that rule out symmetric images of solutions and nothing else, each with its
    /// name, for the files that state them apart from the puzzle (`emit --format lp`): a
    /// packing's mirror rows ([`packing::Packing::mirror_rows`]); none for the other
    /// families.
    pub fn symmetry_rows(&self) -> Vec<(&'static str, crate::model::Constraint)> {
        match self {
            Puzzle::Packing(p) => p.mirror_rows(),
            Puzzle::Queens(_) | Puzzle::Dissection(_) => Vec::new(),
        }
    }

    /// Turns an assignment of the compiled model's variables into a solution.
    pub fn decode(&self, assignment: &Assignment) -> Solution {
        match self {
            Puzzle::Queens(q) => Solution::Queens(q.decode(assignment)),
            Puzzle::Dissection(d) => Solution::Dissection(d.decode(assignment)),
            Puzzle::Packing(p) => Solution::Packing(p.decode(assignment)),
        }
    }

    /// Checks `solution` against the puzzle's rules, from scratch.
    pub fn verify(&self, solution: &Solution) -> Result<(), VerifyError> {
        match (self, solution) {
            (Puzzle::Queens(q), Solution::Queens(s)) => q.verify(s),
            (Puzzle::Dissection(d), Solution::Dissection(s)) => d.verify(s),
            (Puzzle::Packing(p), Solution::Packing(s)) => p.verify(s),
            _ => Err(VerifyError("a solution of another family".into())),
        }
    }

    /// The solution's objective value (for queens, the number of queens; for packing, the
    /// number of pieces, tilings included; 0 for dissections).
    pub fn value(&self, solution: &Solution) -> usize {
        match solution {
            Solution::Queens(s) => s.queens.len(),
            Solution::Dissection(_) => 0,
            Solution::Packing(s) => s.placed.len(),
        }
    }

    /// Renders `solution` as text, in the family's usual format.
    pub fn render(&self, solution: &Solution) -> String {
        match (self, solution) {
            (Puzzle::Queens(q), Solution::Queens(s)) => q.render(s),
            (Puzzle::Dissection(d), Solution::Dissection(s)) => d.render(s),
            (Puzzle::Packing(p), Solution::Packing(s)) => p.render(s),
            _ => String::new(),
        }
    }

    /// The solution as a JSON value (the grid as rows of text, and family details).
    pub fn solution_json(&self, solution: &Solution) -> serde_json::Value {
        match (self, solution) {
            (Puzzle::Queens(q), Solution::Queens(s)) => serde_json::json!({
                "queens": s.queens.iter().map(|&(x, y)| [x, y]).collect::<Vec<_>>(),
                "grid": q.render_grid(s),
            }),
            (Puzzle::Dissection(d), Solution::Dissection(s)) => serde_json::json!({
                "parts": d.parts,
                "grid": d.render_grid(s),
            }),
            (Puzzle::Packing(p), Solution::Packing(s)) => p.solution_json(s),
            _ => serde_json::Value::Null,
        }
    }
}
