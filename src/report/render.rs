//! Pictures of solutions: every family describes its solution as a [`LabelledGrid`] (cells
//! outside the board, blocked, empty or carrying a label, plus markers such as queens), and
//! the drawing code ([`svg`](super::svg), [`color`](super::color)) works from that alone.
//!
//! A new family plugs in with one small function that builds its grid; families whose text
//! rendering already writes one letter per piece or part can use
//! [`LabelledGrid::from_letters`] on it directly.

use crate::geometry::partition::Dissection;
use crate::puzzle::chess::{Chess, ChessSolution, Piece};
use crate::puzzle::dissection::DissectionPuzzle;
use crate::puzzle::packing::{Packing, PackingSolution};
use crate::puzzle::queens::{Queens, QueensSolution};
use crate::puzzle::{each_family, Family, Puzzle, Solution};

/// What one cell of a picture holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Not part of the board (irregular shapes): not drawn.
    Outside,
    /// Part of the board but unusable: an obstacle or a hole.
    Blocked,
    /// A usable cell that nothing covers.
    Empty,
    /// Covered by the labelled region `k` (a piece, a part): an index into
    /// [`LabelledGrid::labels`].
    Label(usize),
}

/// A symbol drawn on top of a cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Marker {
    /// A chess queen.
    Queen,
    /// Another chess piece, drawn as its letter (`R`, `B`, `N`, `K`).
    Piece(char),
}

/// How the borders between differently labelled cells are drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Boundaries {
    /// A thin outline around each region: packings, where each piece is outlined.
    Outline,
    /// A thick line: dissections, where the border between parts is the cut.
    Cut,
}

/// A solution as a picture: a grid of cells, the names of its labels, and markers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelledGrid {
    /// Number of columns.
    pub width: usize,
    /// Number of rows.
    pub height: usize,
    /// The cells, row-major.
    pub cells: Vec<Cell>,
    /// The name of each label (a piece letter, a part letter); `Cell::Label(k)` names
    /// `labels[k]`.
    pub labels: Vec<String>,
    /// Symbols on cells, as (x, y, marker).
    pub markers: Vec<(usize, usize, Marker)>,
    /// How borders between labels are drawn.
    pub boundaries: Boundaries,
}

impl LabelledGrid {
    /// The cell at column `x`, row `y`; [`Cell::Outside`] beyond the edges, so borders
    /// along the edge of the board are found like any other.
    pub fn at(&self, x: i64, y: i64) -> Cell {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return Cell::Outside;
        }
        self.cells[y as usize * self.width + x as usize]
    }

    /// A grid from text rows with one character per cell: a space is outside the board,
    /// `*` or `#` blocked, `-` or `.` empty, and any other character a label (one label
    /// per distinct character, in order of first appearance). Short rows are padded with
    /// outside cells. This is how families that print one letter per piece or part get
    /// their picture.
    pub fn from_letters<S: AsRef<str>>(rows: &[S], boundaries: Boundaries) -> LabelledGrid {
        let height = rows.len();
        let width = rows
            .iter()
            .map(|r| r.as_ref().chars().count())
            .max()
            .unwrap_or(0);
        let mut labels: Vec<String> = Vec::new();
        let mut cells = Vec::with_capacity(width * height);
        for row in rows {
            let mut chars = row.as_ref().chars();
            for _ in 0..width {
                let cell = match chars.next() {
                    None | Some(' ') => Cell::Outside,
                    Some('*' | '#') => Cell::Blocked,
                    Some('-' | '.') => Cell::Empty,
                    Some(c) => {
                        let name = c.to_string();
                        let k = match labels.iter().position(|l| *l == name) {
                            Some(k) => k,
                            None => {
                                labels.push(name);
                                labels.len() - 1
                            }
                        };
                        Cell::Label(k)
                    }
                };
                cells.push(cell);
            }
        }
        LabelledGrid {
            width,
            height,
            cells,
            labels,
            markers: Vec::new(),
            boundaries,
        }
    }
}

/// A family's picture in the reports. Each family implements it once, below; [`picture`]
/// dispatches over the registration list.
pub trait PictureFamily: Family {
    /// The picture of `solution`.
    fn picture(&self, solution: &Self::Solution) -> LabelledGrid;
}

impl PictureFamily for Queens {
    fn picture(&self, solution: &QueensSolution) -> LabelledGrid {
        queens_picture(self, solution)
    }
}

impl PictureFamily for Chess {
    fn picture(&self, solution: &ChessSolution) -> LabelledGrid {
        chess_picture(self, solution)
    }
}

impl PictureFamily for DissectionPuzzle {
    fn picture(&self, solution: &Dissection) -> LabelledGrid {
        dissection_picture(self, solution)
    }
}

impl PictureFamily for Packing {
    fn picture(&self, solution: &PackingSolution) -> LabelledGrid {
        packing_picture(self, solution)
    }
}

/// The picture of `solution` of `puzzle`, by its family's [`PictureFamily::picture`].
pub fn picture(puzzle: &Puzzle, solution: &Solution) -> LabelledGrid {
    // The driver verifies every solution against its own puzzle, so a mismatch never
    // reaches here; an empty picture is the harmless answer if it did.
    each_family!(puzzle, solution, p, s => p.picture(s),
        LabelledGrid::from_letters::<&str>(&[], Boundaries::Outline))
}

/// Packings: blocked cells blocked, each placed piece its own label (named by the letter
/// the text rendering prints for it), uncovered cells empty, every piece outlined.
pub fn packing_picture(puzzle: &Packing, solution: &PackingSolution) -> LabelledGrid {
    let mut cells: Vec<Cell> = puzzle
        .blocked
        .iter()
        .map(|&b| if b { Cell::Blocked } else { Cell::Empty })
        .collect();
    // Placements are sorted by first cell, so label k is the k-th piece in reading order,
    // the order in which the terminal colours the letters too.
    for (k, (_, placed)) in solution.placed.iter().enumerate() {
        for &c in placed {
            cells[c] = Cell::Label(k);
        }
    }
    let rows: Vec<Vec<char>> = puzzle
        .render_grid(solution)
        .iter()
        .map(|r| r.chars().collect())
        .collect();
    let labels = solution
        .placed
        .iter()
        .map(|(_, placed)| {
            placed.first().map_or(String::new(), |&c| {
                rows[c / puzzle.width][c % puzzle.width].to_string()
            })
        })
        .collect();
    LabelledGrid {
        width: puzzle.width,
        height: puzzle.height,
        cells,
        labels,
        markers: Vec::new(),
        boundaries: Boundaries::Outline,
    }
}

/// Dissections: the shape's cells labelled by part (letters as the text rendering names
/// them), positions off the shape outside, and the borders between parts drawn as the cut.
pub fn dissection_picture(puzzle: &DissectionPuzzle, solution: &Dissection) -> LabelledGrid {
    let mut parts = solution.labels.iter();
    let cells: Vec<Cell> = puzzle
        .inside
        .iter()
        .map(|&inside| match inside.then(|| parts.next()).flatten() {
            Some(&part) => Cell::Label(part as usize),
            None => Cell::Outside,
        })
        .collect();
    // Name each part by the letter the text rendering prints for it, so the two agree.
    let rows: Vec<Vec<char>> = puzzle
        .render_grid(solution)
        .iter()
        .map(|r| r.chars().collect())
        .collect();
    let mut labels = vec![String::new(); solution.parts()];
    for (i, cell) in cells.iter().enumerate() {
        if let Cell::Label(p) = *cell {
            let letter = rows[i / puzzle.width][i % puzzle.width];
            if let Some(label) = labels.get_mut(p).filter(|l| l.is_empty()) {
                *label = letter.to_string();
            }
        }
    }
    LabelledGrid {
        width: puzzle.width,
        height: puzzle.height,
        cells,
        labels,
        markers: Vec::new(),
        boundaries: Boundaries::Cut,
    }
}

/// Queens: obstacles blocked, free cells empty, a queen marker on each queen.
pub fn queens_picture(queens: &Queens, solution: &QueensSolution) -> LabelledGrid {
    LabelledGrid {
        width: queens.board.width,
        height: queens.board.height,
        cells: queens
            .board
            .free
            .iter()
            .map(|&free| if free { Cell::Empty } else { Cell::Blocked })
            .collect(),
        labels: Vec::new(),
        markers: solution
            .queens
            .iter()
            .map(|&(x, y)| (x, y, Marker::Queen))
            .collect(),
        boundaries: Boundaries::Outline,
    }
}

/// Chess pieces: obstacles blocked, every piece marked (queens as the queens family draws
/// them, the others by their letter).
pub fn chess_picture(chess: &Chess, solution: &ChessSolution) -> LabelledGrid {
    let marker = match chess.piece {
        Piece::Queen => Marker::Queen,
        piece => Marker::Piece(piece.letter()),
    };
    LabelledGrid {
        width: chess.board.width,
        height: chess.board.height,
        cells: chess
            .board
            .free
            .iter()
            .map(|&free| if free { Cell::Empty } else { Cell::Blocked })
            .collect(),
        labels: Vec::new(),
        markers: solution
            .pieces
            .iter()
            .map(|&(x, y)| (x, y, marker))
            .collect(),
        boundaries: Boundaries::Outline,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_become_labels_in_order_of_first_appearance() {
        let grid = LabelledGrid::from_letters(&["AAB", "*.B", " C"], Boundaries::Cut);
        assert_eq!((grid.width, grid.height), (3, 3));
        assert_eq!(grid.labels, ["A", "B", "C"]);
        assert_eq!(grid.at(0, 0), Cell::Label(0));
        assert_eq!(grid.at(2, 1), Cell::Label(1));
        assert_eq!(grid.at(0, 1), Cell::Blocked);
        assert_eq!(grid.at(1, 1), Cell::Empty);
        assert_eq!(grid.at(0, 2), Cell::Outside);
        assert_eq!(grid.at(1, 2), Cell::Label(2));
        // Padding and beyond the edge are both outside.
        assert_eq!(grid.at(2, 2), Cell::Outside);
        assert_eq!(grid.at(-1, 0), Cell::Outside);
        assert_eq!(grid.at(0, 3), Cell::Outside);
    }

    #[test]
    fn queens_picture_marks_queens_and_obstacles() {
        let board = Queens::from_rows(&["-*", "--"]);
        let grid = queens_picture(&board, &QueensSolution::new(vec![(0, 1)]));
        assert_eq!(
            grid.cells,
            [Cell::Empty, Cell::Blocked, Cell::Empty, Cell::Empty]
        );
        assert_eq!(grid.markers, [(0, 1, Marker::Queen)]);
    }
}
