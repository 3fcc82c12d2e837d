//! Well-known polyominoes and cell pictures: the 12 pentominoes, the three 9-cell crosses of
//! the cross box, and rectangles packed with them. Tests, benches and examples share these
//! instead of each drawing its own.

use super::isometry::Cell;
use super::placements::{orientations, PackingInstance, PieceLimit};

/// The cells of a picture: rows separated by `/` or new lines (empty rows skipped), `#` a
/// cell, anything else empty.
pub fn picture_cells(picture: &str) -> Vec<Cell> {
    let mut cells = Vec::new();
    let rows = picture.split(['/', '\n']).filter(|row| !row.is_empty());
    for (y, row) in rows.enumerate() {
        for (x, ch) in row.chars().enumerate() {
            if ch == '#' {
                cells.push((x as i32, y as i32));
            }
        }
    }
    cells
}

/// The 12 pentominoes, F I L N P T U V W X Y Z, as pictures.
pub const PENTOMINOES: [&str; 12] = [
    ".##/##./.#.", // F
    "#####",       // I
    "####/#...",   // L
    "###./..##",   // N
    "##/##/#.",    // P
    "###/.#./.#.", // T
    "#.#/###",     // U
    "#../#../###", // V
    "#../##./.##", // W
    ".#./###/.#.", // X
    "####/.#..",   // Y
    "##./.#./.##", // Z
];

/// The three 9-cell crosses of the cross box (plus, dagger, T: 9 orientations in all).
pub const CROSSES: [&str; 3] = [
    "..#../..#../#####/..#../..#..",
    "..#../#####/..#../..#../..#..",
    "#####/..#../..#../..#../..#..",
];

/// The cells of each picture.
pub fn shapes(pictures: &[&str]) -> Vec<Vec<Cell>> {
    pictures.iter().map(|p| picture_cells(p)).collect()
}

/// An open `width` x `height` box with every orientation of each shape, under `limit`.
pub fn open_box(
    width: usize,
    height: usize,
    shapes: &[Vec<Cell>],
    limit: PieceLimit,
) -> PackingInstance {
    let pieces: Vec<_> = shapes
        .iter()
        .map(|s| (orientations(s, true, true), limit))
        .collect();
    PackingInstance::from_shapes(width, height, vec![false; width * height], &pieces)
}

/// Crosses, as many as fit, in an open `width` x `height` box (13 x 19: seed 001's box).
pub fn cross_box(width: usize, height: usize) -> PackingInstance {
    open_box(width, height, &shapes(&CROSSES), PieceLimit::unlimited())
}

/// The 12 pentominoes, each once, in an open `width` x `height` box.
pub fn pentomino_box(width: usize, height: usize) -> PackingInstance {
    open_box(width, height, &shapes(&PENTOMINOES), PieceLimit::exactly(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pictures_read_with_either_row_separator() {
        assert_eq!(picture_cells("#./.#"), vec![(0, 0), (1, 1)]);
        assert_eq!(picture_cells("\n#.\n.#\n"), vec![(0, 0), (1, 1)]);
        assert_eq!(cross_box(13, 19).placements.len(), 1215);
    }
}
