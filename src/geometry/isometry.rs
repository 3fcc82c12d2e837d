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

/// A symmetry of a `w` x `h` rectangle of cells, `(x, y)` with `x < w`, `y < h`: the eight
/// of the square. Those that swap the axes map only a square onto itself. This is the one
/// implementation of the rectangle's symmetries; boards, tilings and packings all use it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RectSymmetry {
    /// Every cell stays.
    Identity,
    /// A quarter turn.
    Rotate90,
    /// A half turn.
    Rotate180,
    /// Three quarter turns.
    Rotate270,
    /// Columns flipped.
    MirrorLeftRight,
    /// Rows flipped.
    MirrorTopBottom,
    /// Mirrored in the main diagonal.
    Transpose,
    /// Mirrored in the other diagonal.
    AntiTranspose,
}

impl RectSymmetry {
    /// All eight, the identity first.
    pub const ALL: [RectSymmetry; 8] = [
        RectSymmetry::Identity,
        RectSymmetry::Rotate90,
        RectSymmetry::Rotate180,
        RectSymmetry::Rotate270,
        RectSymmetry::MirrorLeftRight,
        RectSymmetry::MirrorTopBottom,
        RectSymmetry::Transpose,
        RectSymmetry::AntiTranspose,
    ];

    /// Whether it swaps rows and columns (possible only on a square).
    pub fn swaps_axes(self) -> bool {
        matches!(
            self,
            RectSymmetry::Rotate90
                | RectSymmetry::Rotate270
                | RectSymmetry::Transpose
                | RectSymmetry::AntiTranspose
        )
    }

    /// Whether it maps a `w` x `h` rectangle onto itself.
    pub fn fits(self, w: usize, h: usize) -> bool {
        !self.swaps_axes() || w == h
    }

    /// The symmetries that map a `w` x `h` rectangle onto itself (4, or 8 for a square),
    /// the identity first.
    pub fn of_rectangle(w: usize, h: usize) -> impl Iterator<Item = RectSymmetry> {
        RectSymmetry::ALL.into_iter().filter(move |s| s.fits(w, h))
    }

    /// The image of (x, y) on a `w` x `h` rectangle (`w == h` when it swaps the axes).
    pub fn map(self, (x, y): (usize, usize), w: usize, h: usize) -> (usize, usize) {
        match self {
            RectSymmetry::Identity => (x, y),
            RectSymmetry::Rotate90 => (w - 1 - y, x),
            RectSymmetry::Rotate180 => (w - 1 - x, h - 1 - y),
            RectSymmetry::Rotate270 => (y, h - 1 - x),
            RectSymmetry::MirrorLeftRight => (w - 1 - x, y),
            RectSymmetry::MirrorTopBottom => (x, h - 1 - y),
            RectSymmetry::Transpose => (y, x),
            RectSymmetry::AntiTranspose => (w - 1 - y, h - 1 - x),
        }
    }

    /// The image of row-major cell `c` of a `w` x `h` rectangle.
    pub fn map_cell(self, c: usize, w: usize, h: usize) -> usize {
        let (x, y) = self.map((c % w, c / w), w, h);
        y * w + x
    }

    /// The image of every row-major cell of a `w` x `h` rectangle.
    pub fn cell_map(self, w: usize, h: usize) -> Vec<usize> {
        (0..w * h).map(|c| self.map_cell(c, w, h)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rectangle_symmetries_are_permutations_forming_a_group() {
        for (w, h) in [(3, 3), (4, 2), (1, 5)] {
            let group: Vec<Vec<usize>> = RectSymmetry::of_rectangle(w, h)
                .map(|s| s.cell_map(w, h))
                .collect();
            assert_eq!(group.len(), if w == h { 8 } else { 4 });
            assert_eq!(group[0], (0..w * h).collect::<Vec<_>>());
            for a in &group {
                let mut sorted = a.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..w * h).collect::<Vec<_>>(), "a permutation");
                for b in &group {
                    let composed: Vec<usize> = (0..w * h).map(|c| a[b[c]]).collect();
                    assert!(group.contains(&composed), "closed under composition");
                }
            }
        }
    }
}
