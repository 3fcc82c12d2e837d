//! Isometries of the square grid: the eight orientations (rotations and reflections) with a
//! translation, and the distinct orientations of a polyomino.

/// A grid cell `(x, y)`: column and row, `y` growing downwards.
pub type Cell = (i32, i32);

/// The eight orientations as matrices `[[a, b], [c, d]]` acting as
/// `(x, y) -> (a x + b y, c x + d y)`: indices `0..4` are the rotations (identity, then
/// quarter turns), `4..8` the reflections.
pub const ORIENTATIONS: [[[i32; 2]; 2]; 8] = [
    [[1, 0], [0, 1]],
    [[0, -1], [1, 0]],
    [[-1, 0], [0, -1]],
    [[0, 1], [-1, 0]],
    [[-1, 0], [0, 1]],
    [[0, 1], [1, 0]],
    [[1, 0], [0, -1]],
    [[0, -1], [-1, 0]],
];

/// An isometry of the grid: one of eight orientations (a 2x2 integer orthogonal matrix)
/// followed by a translation.
///
/// Isometries order by orientation index, then translation; this order picks the canonical
/// map between two congruent parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Isometry {
    orientation: u8,
    translation: Cell,
}

impl Isometry {
    /// The orientation matrices: indices `0..4` are the rotations (identity, quarter turn,
    /// half turn, three-quarter turn), `4..8` the reflections. Matrix `[[a, b], [c, d]]`
    /// maps `(x, y)` to `(a x + b y, c x + d y)`.
    pub const ORIENTATIONS: [[[i32; 2]; 2]; 8] = ORIENTATIONS;

    /// The isometry `p -> ORIENTATIONS[orientation] p + translation`.
    ///
    /// # Panics
    ///
    /// If `orientation >= 8`.
    pub fn new(orientation: usize, translation: Cell) -> Self {
        assert!(orientation < 8, "orientation {orientation} is not in 0..8");
        Isometry {
            orientation: orientation as u8,
            translation,
        }
    }

    /// The identity map.
    pub fn identity() -> Self {
        Isometry::new(0, (0, 0))
    }

    /// The orientation index, in `0..8`.
    pub fn orientation(&self) -> usize {
        self.orientation as usize
    }

    /// The orientation as a matrix `[[a, b], [c, d]]`.
    pub fn matrix(&self) -> [[i32; 2]; 2] {
        ORIENTATIONS[self.orientation()]
    }

    /// The translation applied after the orientation.
    pub fn translation(&self) -> Cell {
        self.translation
    }

    /// Whether the isometry turns shapes over (determinant -1).
    pub fn is_reflection(&self) -> bool {
        self.orientation >= 4
    }

    /// The image of a cell.
    pub fn apply(&self, cell: Cell) -> Cell {
        let (x, y) = orient(self.orientation(), cell);
        (x + self.translation.0, y + self.translation.1)
    }

    /// The inverse isometry.
    pub fn inverse(&self) -> Self {
        // Orthogonal matrices invert by transposition.
        let [[a, b], [c, d]] = self.matrix();
        let transposed = [[a, c], [b, d]];
        let orientation = ORIENTATIONS
            .iter()
            .position(|m| *m == transposed)
            .expect("the transpose of an orientation is an orientation");
        let (x, y) = orient(orientation, self.translation);
        Isometry::new(orientation, (-x, -y))
    }
}

/// Applies orientation matrix `orientation` to a cell (no translation).
pub fn orient(orientation: usize, (x, y): Cell) -> Cell {
    let [[a, b], [c, d]] = ORIENTATIONS[orientation];
    (a * x + b * y, c * x + d * y)
}
