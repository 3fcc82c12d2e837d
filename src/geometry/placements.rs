//! Pieces on a rectangle: placements of polyominoes, piece limits, the packing instance as
//! plain data with its checks, and the symmetries of the rectangle acting on placements.

use super::isometry::{orient, RectSymmetry};
use std::collections::HashMap;

/// One way to put one piece on the board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Index of the piece in [`PackingInstance::pieces`].
    pub piece: usize,
    /// Row-major indices (`y * width + x`) of the cells covered.
    pub cells: Vec<usize>,
}

/// How many times a piece may be used: between `min` and `max` (`None`: no upper limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceLimit {
    /// Least number of uses.
    pub min: usize,
    /// Greatest number of uses, `None` for unlimited.
    pub max: Option<usize>,
}

impl PieceLimit {
    /// Used exactly `n` times.
    pub fn exactly(n: usize) -> Self {
        PieceLimit {
            min: n,
            max: Some(n),
        }
    }

    /// Used at most `n` times.
    pub fn at_most(n: usize) -> Self {
        PieceLimit {
            min: 0,
            max: Some(n),
        }
    }

    /// Used any number of times.
    pub fn unlimited() -> Self {
        PieceLimit { min: 0, max: None }
    }

    /// Whether one more use stays within the limit.
    pub fn allows_more(&self, used: usize) -> bool {
        self.max.is_none_or(|m| used < m)
    }
}

/// One piece given by its orientations (as [`orientations`] returns them) and its limit.
pub type PieceShapes = (Vec<Vec<(i32, i32)>>, PieceLimit);

/// A packing problem: a rectangle with blocked cells, placements and piece limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackingInstance {
    /// Number of columns.
    pub width: usize,
    /// Number of rows.
    pub height: usize,
    /// Per cell, row-major: `true` if no piece may cover it.
    pub blocked: Vec<bool>,
    /// Every allowed placement of every piece.
    pub placements: Vec<Placement>,
    /// Per piece, how often it may be used.
    pub pieces: Vec<PieceLimit>,
}

/// Something wrong with an instance or with a proposed packing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PackingError {
    /// `blocked` does not have `width * height` entries.
    #[error("blocked has {got} cells, expected {expected}")]
    BlockedSize {
        /// Entries in `blocked`.
        got: usize,
        /// `width * height`.
        expected: usize,
    },
    /// A placement names a piece that does not exist.
    #[error("placement {placement} names piece {piece}, but there are {pieces} pieces")]
    UnknownPiece {
        /// Placement index.
        placement: usize,
        /// The piece it names.
        piece: usize,
        /// Number of pieces.
        pieces: usize,
    },
    /// A placement covers no cell, a cell twice, a cell outside the board or a blocked cell.
    #[error("placement {placement} is malformed: {reason}")]
    BadPlacement {
        /// Placement index.
        placement: usize,
        /// What is wrong.
        reason: String,
    },
    /// A piece limit with `min > max`.
    #[error("piece {piece} has min {min} > max {max}")]
    BadLimit {
        /// Piece index.
        piece: usize,
        /// Its minimum.
        min: usize,
        /// Its maximum.
        max: usize,
    },
    /// A packing names a placement index out of range.
    #[error("packing names placement {0}, which does not exist")]
    UnknownPlacement(usize),
    /// Two placements of a packing share a cell.
    #[error("cell {cell} is covered twice")]
    Overlap {
        /// The shared cell.
        cell: usize,
    },
    /// A piece is used more or fewer times than its limit allows.
    #[error("piece {piece} is used {used} times, outside its limit")]
    Count {
        /// Piece index.
        piece: usize,
        /// Number of uses in the packing.
        used: usize,
    },
    /// A tiling leaves a free cell uncovered.
    #[error("cell {cell} is not covered")]
    Uncovered {
        /// The uncovered cell.
        cell: usize,
    },
}

impl PackingInstance {
    /// Builds an instance from per-piece orientation lists (see [`orientations`]), generating
    /// every placement of every orientation that fits on the free cells.
    pub fn from_shapes(
        width: usize,
        height: usize,
        blocked: Vec<bool>,
        pieces: &[PieceShapes],
    ) -> Self {
        let mut all = Vec::new();
        for (piece, (orients, _)) in pieces.iter().enumerate() {
            all.extend(placements(width, height, &blocked, piece, orients));
        }
        PackingInstance {
            width,
            height,
            blocked,
            placements: all,
            pieces: pieces.iter().map(|(_, l)| *l).collect(),
        }
    }

    /// Number of cells that are not blocked.
    pub fn free_cells(&self) -> usize {
        self.blocked.iter().filter(|b| !**b).count()
    }

    /// Checks that the instance is well formed.
    pub fn validate(&self) -> Result<(), PackingError> {
        let cells = self.width * self.height;
        if self.blocked.len() != cells {
            return Err(PackingError::BlockedSize {
                got: self.blocked.len(),
                expected: cells,
            });
        }
        for (piece, limit) in self.pieces.iter().enumerate() {
            if let Some(max) = limit.max {
                if limit.min > max {
                    return Err(PackingError::BadLimit {
                        piece,
                        min: limit.min,
                        max,
                    });
                }
            }
        }
        for (i, p) in self.placements.iter().enumerate() {
            if p.piece >= self.pieces.len() {
                return Err(PackingError::UnknownPiece {
                    placement: i,
                    piece: p.piece,
                    pieces: self.pieces.len(),
                });
            }
            let bad = |reason: String| PackingError::BadPlacement {
                placement: i,
                reason,
            };
            if p.cells.is_empty() {
                return Err(bad("no cells".into()));
            }
            for (k, &c) in p.cells.iter().enumerate() {
                if c >= cells {
                    return Err(bad(format!("cell {c} is outside the board")));
                }
                if self.blocked[c] {
                    return Err(bad(format!("cell {c} is blocked")));
                }
                if p.cells[..k].contains(&c) {
                    return Err(bad(format!("cell {c} appears twice")));
                }
            }
        }
        Ok(())
    }

    /// Checks a packing (placement indices) from scratch: placements exist, no cell is covered
    /// twice and every piece is used within its limits. Returns the number of pieces.
    pub fn check_packing(&self, packing: &[usize]) -> Result<usize, PackingError> {
        let mut covered = vec![false; self.width * self.height];
        let mut used = vec![0usize; self.pieces.len()];
        for &i in packing {
            let p = self
                .placements
                .get(i)
                .ok_or(PackingError::UnknownPlacement(i))?;
            for &c in &p.cells {
                if std::mem::replace(&mut covered[c], true) {
                    return Err(PackingError::Overlap { cell: c });
                }
            }
            used[p.piece] += 1;
        }
        for (piece, (limit, &n)) in self.pieces.iter().zip(&used).enumerate() {
            if n < limit.min || limit.max.is_some_and(|m| n > m) {
                return Err(PackingError::Count { piece, used: n });
            }
        }
        Ok(packing.len())
    }

    /// [`Self::check_packing`], and every free cell is covered.
    pub fn check_tiling(&self, packing: &[usize]) -> Result<usize, PackingError> {
        let n = self.check_packing(packing)?;
        let mut covered = self.blocked.clone();
        for &i in packing {
            for &c in &self.placements[i].cells {
                covered[c] = true;
            }
        }
        match covered.iter().position(|c| !c) {
            Some(cell) => Err(PackingError::Uncovered { cell }),
            None => Ok(n),
        }
    }

    /// Draws a packing as text, one letter per placement (`.` empty, `#` blocked).
    pub fn render(&self, packing: &[usize]) -> String {
        let mut grid: Vec<char> = self
            .blocked
            .iter()
            .map(|&b| if b { '#' } else { '.' })
            .collect();
        const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        for (k, &i) in packing.iter().enumerate() {
            for &c in &self.placements[i].cells {
                grid[c] = LETTERS[k % LETTERS.len()] as char;
            }
        }
        grid.chunks(self.width)
            .map(|row| row.iter().collect::<String>() + "\n")
            .collect()
    }
}

/// All distinct orientations of a shape given as `(x, y)` cells (x to the right, y down):
/// the 4 rotations if `rotate`, and their mirror images if `reflect`. Each orientation is
/// normalised (smallest x and y are 0, cells sorted by `(y, x)`); duplicates are removed,
/// keeping first occurrences (the shape itself first).
pub fn orientations(shape: &[(i32, i32)], rotate: bool, reflect: bool) -> Vec<Vec<(i32, i32)>> {
    let normalise = |cells: Vec<(i32, i32)>| {
        let min_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
        let min_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
        let mut cells: Vec<(i32, i32)> = cells
            .into_iter()
            .map(|(x, y)| (x - min_x, y - min_y))
            .collect();
        cells.sort_by_key(|&(x, y)| (y, x));
        cells.dedup();
        cells
    };
    // The shape, its quarter turns, then its mirror image (x -> -x) and the mirror's
    // quarter turns: orientation indices of `ORIENTATIONS` in that order.
    const ORDER: [usize; 8] = [0, 1, 2, 3, 4, 7, 6, 5];
    let mut out: Vec<Vec<(i32, i32)>> = Vec::new();
    for &orientation in &ORDER {
        let (reflection, turn) = (orientation >= 4, !matches!(orientation, 0 | 4));
        if (reflection && !reflect) || (turn && !rotate) {
            continue;
        }
        let n = normalise(shape.iter().map(|&c| orient(orientation, c)).collect());
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// Every placement of `piece` in the given orientations (normalised, as [`orientations`]
/// returns them) on a `width x height` board that stays inside the board and off blocked
/// cells. Cells of each placement are sorted ascending.
pub fn placements(
    width: usize,
    height: usize,
    blocked: &[bool],
    piece: usize,
    orientations: &[Vec<(i32, i32)>],
) -> Vec<Placement> {
    let mut out = Vec::new();
    for orient in orientations {
        if orient.is_empty() {
            continue;
        }
        let span_x = orient.iter().map(|c| c.0).max().unwrap_or(0) as usize + 1;
        let span_y = orient.iter().map(|c| c.1).max().unwrap_or(0) as usize + 1;
        if span_x > width || span_y > height {
            continue;
        }
        for oy in 0..=height - span_y {
            for ox in 0..=width - span_x {
                let mut cells: Vec<usize> = orient
                    .iter()
                    .map(|&(x, y)| (oy + y as usize) * width + ox + x as usize)
                    .collect();
                if cells
                    .iter()
                    .any(|&c| blocked.get(c).copied().unwrap_or(false))
                {
                    continue;
                }
                cells.sort_unstable();
                out.push(Placement { piece, cells });
            }
        }
    }
    out
}

/// The action of `symmetry` on the placements, if it maps the instance onto itself:
/// blocked cells onto blocked cells and every placement onto a placement of the same piece.
pub fn placement_action(
    instance: &PackingInstance,
    index: &HashMap<&Placement, usize>,
    symmetry: RectSymmetry,
) -> Option<Vec<usize>> {
    let (w, h) = (instance.width, instance.height);
    if !symmetry.fits(w, h) {
        return None;
    }
    let cell = |c: usize| symmetry.map_cell(c, w, h);
    if (0..w * h).any(|c| instance.blocked[c] != instance.blocked[cell(c)]) {
        return None;
    }
    instance
        .placements
        .iter()
        .map(|p| {
            let mut cells: Vec<usize> = p.cells.iter().map(|&c| cell(c)).collect();
            cells.sort_unstable();
            let image = Placement {
                piece: p.piece,
                cells,
            };
            index.get(&image).copied()
        })
        .collect()
}

/// Each placement's index, by value.
pub fn placement_index(instance: &PackingInstance) -> HashMap<&Placement, usize> {
    instance
        .placements
        .iter()
        .enumerate()
        .map(|(i, p)| (p, i))
        .collect()
}

/// The symmetries of the rectangle that preserve the instance, each as a map from placement
/// index to placement index; the identity comes first.
pub fn symmetry_group(instance: &PackingInstance) -> Vec<Vec<usize>> {
    let index = placement_index(instance);
    RectSymmetry::of_rectangle(instance.width, instance.height)
        .filter_map(|symmetry| placement_action(instance, &index, symmetry))
        .collect()
}

/// One of the rectangle's two mirrors that maps the instance onto itself, with the side of
/// the mirror line on which each placement's centre (the mean of its cells) lies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MirrorHalves {
    /// `true` for the top-bottom mirror (halves are the top and bottom rows), `false` for the
    /// left-right one.
    pub rows_flipped: bool,
    /// Per placement: `Less` if its centre is in the first half (top, or left), `Greater` if
    /// in the second, `Equal` if on the line.
    pub side: Vec<std::cmp::Ordering>,
}

/// The mirrors of the rectangle that preserve the instance (left-right first), for symmetry
/// breaking by "no more pieces centred in the second half than in the first".
///
/// Sound for any goal that only counts pieces: the top-bottom mirror swaps the two halves'
/// counts, so a packing or its mirror image meets the rows' rule; the left-right mirror
/// leaves every row alone, so it can then fix the columns' rule without undoing the first.
/// Every packing thus has an image, with the same pieces and the same count, that meets both.
pub fn mirror_halves(instance: &PackingInstance) -> Vec<MirrorHalves> {
    let w = instance.width;
    let index = placement_index(instance);
    [
        (RectSymmetry::MirrorLeftRight, false),
        (RectSymmetry::MirrorTopBottom, true),
    ]
    .into_iter()
    .filter(|&(symmetry, _)| placement_action(instance, &index, symmetry).is_some())
    .map(|(_, rows_flipped)| {
        let (line_cells, coordinate): (usize, fn(usize, usize) -> usize) = if rows_flipped {
            (instance.height, |c, w| c / w)
        } else {
            (w, |c, w| c % w)
        };
        let side = instance
            .placements
            .iter()
            .map(|p| {
                // Twice the centre against the middle line, in whole numbers.
                let twice: usize = p.cells.iter().map(|&c| 2 * coordinate(c, w)).sum();
                twice.cmp(&(p.cells.len() * (line_cells - 1)))
            })
            .collect();
        MirrorHalves { rows_flipped, side }
    })
    .collect()
}
