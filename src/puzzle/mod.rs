//! Puzzle families as plain data, each knowing its own rules, and the model-file loader.
//!
//! A family parses and validates its instance, compiles it to a [`Model`], decodes a
//! model assignment into a [`Solution`], verifies a solution from the puzzle's rules alone
//! (never looking at the encoding) and renders it: the [`Family`] trait, implemented once
//! per family and registered in the one list below, from which [`Puzzle`], [`Solution`],
//! their dispatch and the loader's kinds are generated.

pub mod chess;
pub mod dissection;
pub mod family;
pub mod grid;
pub mod load;
pub mod packing;
pub mod queens;
pub mod shape;
pub mod source;

use crate::model::{Assignment, Model};

pub use family::Family;
pub use load::load_model_file;

// The registration list: one line per family, its variant name, puzzle type and solution
// type. Everything that dispatches over families is generated from it.
family::families! {
    /// Queens on a board, possibly with obstacles.
    Queens(queens::Queens, queens::QueensSolution),
    /// A shape to cut into congruent connected parts.
    Dissection(dissection::DissectionPuzzle, dissection::Dissection),
    /// Pieces packed into a region, or tiling it.
    Packing(packing::Packing, packing::PackingSolution),
    /// Chess pieces that guard a board, or stand without attacking each other.
    Chess(chess::Chess, chess::ChessSolution),
}

/// A solution that breaks the puzzle's rules: always a bug in a backend or an encoding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("solution rejected by the puzzle's rules: {0}")]
pub struct VerifyError(pub String);

impl Puzzle {
    /// The family's name as written in model files.
    pub fn kind(&self) -> &'static str {
        fn kind<F: Family>(_: &F) -> &'static str {
            F::KIND
        }
        each_family!(self, p => kind(p))
    }

    /// Whether the puzzle has an objective; without one, solving means finding any solution.
    pub fn has_objective(&self) -> bool {
        each_family!(self, p => p.has_objective())
    }

    /// Which way the value goes ([`Family::sense`]).
    pub fn sense(&self) -> crate::base::Sense {
        each_family!(self, p => p.sense())
    }

    /// Why the puzzle obviously has no solution, in words, when that needs no search.
    pub fn trivially_impossible(&self) -> Option<String> {
        each_family!(self, p => p.trivially_impossible())
    }

    /// The instance as canonical text: what defines it and nothing else (no description,
    /// no file layout), so equal instances give equal text on every machine and in every
    /// version. Shards are checked to belong together by its digest.
    pub fn canonical_text(&self) -> String {
        each_family!(self, p => p.canonical_text())
    }

    /// Compiles the puzzle to the backend-neutral model.
    pub fn compile(&self) -> Model {
        each_family!(self, p => p.compile())
    }

    /// Rows that rule out symmetric images of solutions and nothing else, each with its
    /// name, for the files that state them apart from the puzzle (`emit --format lp`): a
    /// packing's mirror rows ([`packing::Packing::mirror_rows`]); none for the other
    /// families.
    pub fn symmetry_rows(&self) -> Vec<(&'static str, crate::model::Constraint)> {
        each_family!(self, p => p.symmetry_rows())
    }

    /// Turns an assignment of the compiled model's variables into a solution.
    pub fn decode(&self, assignment: &Assignment) -> Solution {
        each_family!(self, p => Solution::from(p.decode(assignment)))
    }

    /// Checks `solution` against the puzzle's rules, from scratch.
    pub fn verify(&self, solution: &Solution) -> Result<(), VerifyError> {
        each_family!(self, solution, p, s => p.verify(s),
            Err(VerifyError("a solution of another family".into())))
    }

    /// The solution's objective value (for queens, the number of queens; for packing, the
    /// number of pieces, tilings included; 0 for dissections).
    pub fn value(&self, solution: &Solution) -> usize {
        solution_value(solution)
    }

    /// The solution's score, what its model maximises: its value, or for a family that
    /// asks for the fewest, that value counted the other way ([`Family::sense`]).
    pub fn score(&self, solution: &Solution) -> usize {
        self.sense().score(self.value(solution))
    }

    /// Renders `solution` as text, in the family's usual format.
    pub fn render(&self, solution: &Solution) -> String {
        each_family!(self, solution, p, s => p.render(s), String::new())
    }

    /// The solution as a JSON value (the grid as rows of text, and family details).
    pub fn solution_json(&self, solution: &Solution) -> serde_json::Value {
        each_family!(self, solution, p, s => p.solution_json(s), serde_json::Value::Null)
    }
}
