//! Puzzle families as plain data, each knowing its own rules, and the model-file loader.
//!
//! A family parses and validates its instance, compiles it to a [`Model`], decodes a
//! model assignment into a [`Solution`], verifies a solution from the puzzle's rules alone
//! (never looking at the encoding) and renders it.

pub mod grid;
pub mod load;
pub mod queens;

use crate::model::{Assignment, Model};

pub use load::load_model_file;

/// A puzzle instance of any family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Puzzle {
    /// Queens on a board, possibly with obstacles.
    Queens(queens::Queens),
}

/// A solution of any family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solution {
    /// Queen positions.
    Queens(queens::QueensSolution),
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
        }
    }

    /// Compiles the puzzle to the backend-neutral model.
    pub fn compile(&self) -> Model {
        match self {
            Puzzle::Queens(q) => q.compile(),
        }
    }

    /// Turns an assignment of the compiled model's variables into a solution.
    pub fn decode(&self, assignment: &Assignment) -> Solution {
        match self {
            Puzzle::Queens(q) => Solution::Queens(q.decode(assignment)),
        }
    }

    /// Checks `solution` against the puzzle's rules, from scratch.
    pub fn verify(&self, solution: &Solution) -> Result<(), VerifyError> {
        match (self, solution) {
            (Puzzle::Queens(q), Solution::Queens(s)) => q.verify(s),
        }
    }

    /// The solution's objective value (for queens, the number of queens).
    pub fn value(&self, solution: &Solution) -> usize {
        match solution {
            Solution::Queens(s) => s.queens.len(),
        }
    }

    /// Renders `solution` as text, in the family's usual format.
    pub fn render(&self, solution: &Solution) -> String {
        match (self, solution) {
            (Puzzle::Queens(q), Solution::Queens(s)) => q.render(s),
        }
    }

    /// The solution as a JSON value (the grid as rows of text, and family details).
    pub fn solution_json(&self, solution: &Solution) -> serde_json::Value {
        match (self, solution) {
            (Puzzle::Queens(q), Solution::Queens(s)) => serde_json::json!({
                "queens": s.queens.iter().map(|&(x, y)| [x, y]).collect::<Vec<_>>(),
                "grid": q.render_grid(s),
            }),
        }
    }
}
