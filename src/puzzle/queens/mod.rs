//! Queens on a board with obstacles: place as many queens as possible on free cells so that
//! no two attack each other. A queen attacks along its row, column and both diagonals up to
//! the first obstacle or the edge, so every maximal run of free cells in one of the four
//! directions (a *segment*) holds at most one queen. Classic N-queens is the empty board.

mod shape;

use crate::base::error::InputError;
use crate::geometry::board::Board;
pub use crate::geometry::board::{QueensSolution, DIRECTIONS};
use crate::model::shape::ModelShape;
use crate::model::{Assignment, Constraint, Model, Objective, UpperBound, Var};
use crate::puzzle::grid::{Grid, MAX_SIDE};
use crate::puzzle::source::Source;
use crate::puzzle::{Family, VerifyError};
use serde::Deserialize;
use shape::queens_shape;
use toml::Spanned;

/// Names of the four directions, in the order of [`DIRECTIONS`].
pub const DIRECTION_NAMES: [&str; 4] = ["row", "column", "diagonal", "anti-diagonal"];

/// A queens instance: a rectangular board of free cells and obstacles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queens {
    /// The board: its size and its free cells.
    pub board: Board,
    /// The model file's one-line description, if any.
    pub description: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QueensFile {
    #[allow(dead_code)]
    kind: String,
    description: Option<String>,
    board: Option<Spanned<String>>,
    size: Option<Spanned<i64>>,
}

impl Queens {
    /// An empty `n` x `n` board.
    pub fn empty(n: usize) -> Queens {
        Queens {
            board: Board::empty(n, n),
            description: None,
        }
    }

    /// A board from rows of `-` (free) and `*` (obstacle); for tests and generators.
    pub fn from_rows(rows: &[&str]) -> Queens {
        Queens {
            board: Board::from_rows(rows),
            description: None,
        }
    }

    /// On a board without obstacles, every row and every column is one line a queen
    /// attacks whole, so there is at most one queen per row and per column: the shorter
    /// side bounds the optimum (and it is reached on an empty square board of side 4 or
    /// more, by an explicit construction). `None` on a board with obstacles, where the
    /// segments already give the structural bound.
    pub fn line_bound(&self) -> Option<UpperBound> {
        if !self.board.is_open() || self.board.free.is_empty() {
            return None;
        }
        let (value, lines) = if self.board.height <= self.board.width {
            (self.board.height, "row")
        } else {
            (self.board.width, "column")
        };
        Some(UpperBound {
            // The explicit construction (one queen per row) fills a square of side 4 or
            // more.
            reached: self.board.width == self.board.height && value >= 4,
            value,
            reason: format!(
                "one queen per {lines} of an empty board: {value} {lines}{}",
                if value == 1 { "" } else { "s" }
            ),
        })
    }

    /// The assignment of the compiled model that places `solution`'s queens (every queen on
    /// a free cell; others are ignored).
    pub fn assignment_of(&self, solution: &QueensSolution) -> Assignment {
        // Variable i is the i-th free cell in scan order, as `compile` numbers them.
        Assignment::new(self.board.placed(&solution.queens))
    }

    /// The board's rows with `Q` for queens, `*` for obstacles and `-` for free cells.
    pub fn render_grid(&self, solution: &QueensSolution) -> Vec<String> {
        let mut rows: Vec<Vec<char>> = (0..self.board.height)
            .map(|y| {
                (0..self.board.width)
                    .map(|x| {
                        // `-` as in the model files, so a printed board reads back as one.
                        if self.board.free[y * self.board.width + x] {
                            '-'
                        } else {
                            '*'
                        }
                    })
                    .collect()
            })
            .collect();
        for &(x, y) in &solution.queens {
            rows[y][x] = 'Q';
        }
        rows.into_iter().map(|r| r.into_iter().collect()).collect()
    }
}

impl Family for Queens {
    type Solution = QueensSolution;

    const KIND: &'static str = "queens";

    fn has_objective(&self) -> bool {
        true
    }

    fn trivially_impossible(&self) -> Option<String> {
        None
    }

    fn canonical_text(&self) -> String {
        format!(
            "queens {}x{} {}",
            self.board.width,
            self.board.height,
            self.board
                .free
                .iter()
                .map(|&f| if f { '-' } else { '*' })
                .collect::<String>()
        )
    }

    fn shape(&self, _lazy_written_out: bool) -> ModelShape {
        queens_shape(self)
    }

    fn symmetry_rows(&self) -> Vec<(&'static str, Constraint)> {
        Vec::new()
    }

    fn value(solution: &QueensSolution) -> usize {
        solution.queens.len()
    }

    fn solution_json(&self, solution: &QueensSolution) -> serde_json::Value {
        serde_json::json!({
            "queens": solution.queens.iter().map(|&(x, y)| [x, y]).collect::<Vec<_>>(),
            "grid": self.render_grid(solution),
        })
    }

    /// Parses and validates a `kind = "queens"` model file.
    fn from_source(source: &Source) -> Result<Queens, InputError> {
        let file: QueensFile = source.parse()?;
        let mut queens =
            match (file.board, file.size) {
                (Some(_), Some(size)) => {
                    return Err(source
                        .error_at(size.span().start, "give either `board` or `size`, not both"))
                }
                (None, None) => return Err(source.error_line(
                    1,
                    "missing key `board` (a grid of '-' and '*') or `size` (an empty N x N board)",
                )),
                (None, Some(size)) => {
                    let n = *size.get_ref();
                    if !(1..=MAX_SIDE as i64).contains(&n) {
                        return Err(source.error_at(
                            size.span().start,
                            format!("`size` is {n}; it must be between 1 and {MAX_SIDE}"),
                        ));
                    }
                    Queens::empty(n as usize)
                }
                (Some(board), None) => {
                    let span = board.span();
                    let grid = Grid::parse(source, "board", board.get_ref(), span, &['-', '*'])?;
                    Queens {
                        board: grid.board('-'),
                        description: None,
                    }
                }
            };
        queens.description = file.description;
        Ok(queens)
    }

    /// Compiles to the model: one boolean `q[x,y]` per free cell, one at-most-one per
    /// segment of two or more cells, maximise the number of queens; the objective's
    /// at-most-one groups are the segments of the direction with the fewest.
    fn compile(&self) -> Model {
        let mut model = Model::new();
        let mut var_of_cell: Vec<Option<Var>> = vec![None; self.board.free.len()];
        let mut lits = Vec::new();
        for y in 0..self.board.height {
            for x in 0..self.board.width {
                if self.board.free[y * self.board.width + x] {
                    let var = model.new_var(format!("q[{x},{y}]"));
                    var_of_cell[y * self.board.width + x] = Some(var);
                    lits.push(var.positive());
                }
            }
        }
        let lit = |cell: usize| {
            var_of_cell[cell]
                .expect("segment cells are free")
                .positive()
        };
        let segments = self.board.segments();
        for direction in &segments {
            for segment in direction.iter().filter(|s| s.len() >= 2) {
                model.add(Constraint::AtMostOne(
                    segment.iter().map(|&c| lit(c)).collect(),
                ));
            }
        }
        let best = (0..4).min_by_key(|&d| segments[d].len()).unwrap_or(0);
        // Objective literal i is the i-th free cell; its variable index is the same.
        let groups = segments[best]
            .iter()
            .map(|segment| segment.iter().map(|&c| lit(c).var().index()).collect())
            .collect();
        model.objective = Some(Objective {
            lits,
            amo_groups: Some(groups),
        });
        model.upper_bound = self.line_bound();
        model
    }

    /// Reads the queens from an assignment of the compiled model.
    fn decode(&self, assignment: &Assignment) -> QueensSolution {
        let free_cells = (0..self.board.free.len()).filter(|&c| self.board.free[c]);
        let queens = free_cells
            .enumerate()
            .filter(|&(var, _)| assignment.value(Var::from_index(var)))
            .map(|(_, cell)| (cell % self.board.width, cell / self.board.width))
            .collect();
        QueensSolution::new(queens)
    }

    /// Checks the rules from scratch: queens on distinct free cells, and no queen sees
    /// another along a row, column or diagonal before an obstacle or the edge.
    fn verify(&self, solution: &QueensSolution) -> Result<(), VerifyError> {
        let mut occupied = vec![false; self.board.width * self.board.height];
        for &(x, y) in &solution.queens {
            if !self.board.is_free(x as i64, y as i64) {
                return Err(VerifyError(format!(
                    "queen at ({x}, {y}) is not on a free cell"
                )));
            }
            if std::mem::replace(&mut occupied[y * self.board.width + x], true) {
                return Err(VerifyError(format!("two queens at ({x}, {y})")));
            }
        }
        for &(x, y) in &solution.queens {
            for (dx, dy) in DIRECTIONS {
                // Look only forward: every attacking pair is seen from its earlier queen.
                let (mut cx, mut cy) = (x as i64 + dx, y as i64 + dy);
                while self.board.is_free(cx, cy) {
                    if occupied[cy as usize * self.board.width + cx as usize] {
                        return Err(VerifyError(format!(
                            "queens at ({x}, {y}) and ({cx}, {cy}) attack each other"
                        )));
                    }
                    cx += dx;
                    cy += dy;
                }
            }
        }
        Ok(())
    }

    /// The seed's output format: the number of queens, then the board.
    fn render(&self, solution: &QueensSolution) -> String {
        let mut out = format!("{}\n", solution.queens.len());
        for row in self.render_grid(solution) {
            out.push_str(&row);
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_stop_at_obstacles() {
        let board = Queens::from_rows(&["--*-", "----"]);
        let [rows, cols, diags, antis] = board.board.segments();
        assert_eq!(rows, vec![vec![0, 1], vec![3], vec![4, 5, 6, 7]]);
        assert_eq!(cols.len(), 4);
        assert_eq!(diags.len(), 5, "{diags:?}");
        assert_eq!(antis.len(), 5, "{antis:?}");
    }

    #[test]
    fn verify_rejects_attacks_but_allows_blocked_lines() {
        let board = Queens::from_rows(&["-*-", "---"]);
        assert!(board
            .verify(&QueensSolution::new(vec![(0, 0), (2, 0)]))
            .is_ok());
        let err = board
            .verify(&QueensSolution::new(vec![(0, 1), (2, 1)]))
            .unwrap_err();
        assert_eq!(err.0, "queens at (0, 1) and (2, 1) attack each other");
        let err = board
            .verify(&QueensSolution::new(vec![(1, 0)]))
            .unwrap_err();
        assert_eq!(err.0, "queen at (1, 0) is not on a free cell");
        assert!(board
            .verify(&QueensSolution::new(vec![(0, 0), (1, 1)]))
            .is_err());
    }

    #[test]
    fn compiled_groups_are_the_smallest_partition() {
        let board = Queens::empty(5);
        let model = board.compile();
        assert_eq!(model.num_vars(), 25);
        assert_eq!(model.objective.as_ref().unwrap().trivial_bound(), 5);
        assert_eq!(model.check_hints(), Ok(()));
        assert_eq!(model.name(Var::from_index(7)), "q[2,1]");
    }
}
