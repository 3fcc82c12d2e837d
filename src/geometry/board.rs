//! Boards of free cells and obstacles, and the lines a queen attacks along them: the
//! maximal runs of free cells in each of the four directions (*segments*).

/// The four attack directions as (dx, dy) steps: row, column, diagonal, anti-diagonal.
pub const DIRECTIONS: [(i64, i64); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

use crate::geometry::isometry::RectSymmetry;

/// A rectangular board of free cells and obstacles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Number of columns.
    pub width: usize,
    /// Number of rows.
    pub height: usize,
    /// Whether each cell (row-major) is free; `false` is an obstacle.
    pub free: Vec<bool>,
}

impl Board {
    /// A `width` x `height` board without obstacles.
    pub fn empty(width: usize, height: usize) -> Board {
        Board {
            width,
            height,
            free: vec![true; width * height],
        }
    }

    /// A board from rows of `-` (free) and `*` (obstacle); for tests and generators.
    pub fn from_rows(rows: &[&str]) -> Board {
        let width = rows.first().map_or(0, |r| r.len());
        assert!(rows.iter().all(|r| r.len() == width), "ragged rows");
        Board {
            width,
            height: rows.len(),
            free: rows
                .iter()
                .flat_map(|r| r.chars().map(|c| c != '*'))
                .collect(),
        }
    }

    /// The number of free cells.
    pub fn free_count(&self) -> usize {
        self.free.iter().filter(|&&f| f).count()
    }

    /// Whether no cell is an obstacle.
    pub fn is_open(&self) -> bool {
        self.free.iter().all(|&f| f)
    }

    /// Each cell's place among the free cells in row-major order (the variable a model of
    /// one variable per free cell gives it), `None` on obstacles.
    pub fn free_numbers(&self) -> Vec<Option<usize>> {
        let mut next = 0;
        self.free
            .iter()
            .map(|&free| {
                free.then(|| {
                    next += 1;
                    next - 1
                })
            })
            .collect()
    }

    /// One value per free cell, in [`Board::free_numbers`]' order: whether a cell of
    /// `placed` (as (x, y)) is there. Cells off the board or on obstacles are ignored.
    pub fn placed(&self, placed: &[(usize, usize)]) -> Vec<bool> {
        let numbers = self.free_numbers();
        let mut values = vec![false; self.free_count()];
        for &(x, y) in placed {
            if x < self.width && y < self.height {
                if let Some(number) = numbers[y * self.width + x] {
                    values[number] = true;
                }
            }
        }
        values
    }

    /// Whether (x, y) is on the board and free.
    pub fn is_free(&self, x: i64, y: i64) -> bool {
        x >= 0
            && y >= 0
            && (x as usize) < self.width
            && (y as usize) < self.height
            && self.free[y as usize * self.width + x as usize]
    }

    /// The segments of each direction (in the order of [`DIRECTIONS`]): maximal runs of
    /// free cells, as row-major cell indices. Every free cell lies in exactly one segment
    /// of each direction, so each direction partitions the free cells.
    pub fn segments(&self) -> [Vec<Vec<usize>>; 4] {
        DIRECTIONS.map(|(dx, dy)| {
            let mut segments = Vec::new();
            for y in 0..self.height as i64 {
                for x in 0..self.width as i64 {
                    // A segment starts at a free cell whose predecessor is not free.
                    if !self.is_free(x, y) || self.is_free(x - dx, y - dy) {
                        continue;
                    }
                    let mut segment = Vec::new();
                    let (mut cx, mut cy) = (x, y);
                    while self.is_free(cx, cy) {
                        segment.push(cy as usize * self.width + cx as usize);
                        cx += dx;
                        cy += dy;
                    }
                    segments.push(segment);
                }
            }
            segments
        })
    }

    /// The symmetries of the rectangle that map the obstacles onto obstacles, the identity
    /// first. They map every line of free cells, and every chess piece's attacks, onto
    /// their like, so they map solutions onto solutions.
    pub fn symmetries(&self) -> Vec<RectSymmetry> {
        let (w, h) = (self.width, self.height);
        RectSymmetry::of_rectangle(w, h)
            .filter(|s| (0..w * h).all(|c| self.free[c] == self.free[s.map_cell(c, w, h)]))
            .collect()
    }

    /// [`Board::symmetries`] as row-major cell maps.
    pub fn symmetry_maps(&self) -> Vec<Vec<usize>> {
        self.symmetries()
            .into_iter()
            .map(|s| s.cell_map(self.width, self.height))
            .collect()
    }

    /// The board mirrored in its main diagonal: (x, y) becomes (y, x).
    pub fn transpose(&self) -> Board {
        let mut free = vec![false; self.free.len()];
        for y in 0..self.height {
            for x in 0..self.width {
                free[x * self.height + y] = self.free[y * self.width + x];
            }
        }
        Board {
            width: self.height,
            height: self.width,
            free,
        }
    }
}

/// Queen positions, as (x, y) = (column, row), sorted row-major.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct QueensSolution {
    /// The queens, sorted by row then column.
    pub queens: Vec<(usize, usize)>,
}

impl QueensSolution {
    /// A solution from queen positions in any order.
    pub fn new(mut queens: Vec<(usize, usize)>) -> QueensSolution {
        queens.sort_by_key(|&(x, y)| (y, x));
        QueensSolution { queens }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_keeps_the_symmetries_its_obstacles_allow() {
        let count = |rows: &[&str]| Board::from_rows(rows).symmetries().len();
        assert_eq!(count(&["---", "---", "---"]), 8);
        assert_eq!(count(&["----", "----"]), 4);
        assert_eq!(count(&["*--", "---", "---"]), 2);
        assert_eq!(count(&["*--", "---", "--*"]), 4);
        let maps = Board::from_rows(&["*--", "---", "---"]).symmetry_maps();
        assert_eq!(maps[0], (0..9).collect::<Vec<_>>());
    }
}
