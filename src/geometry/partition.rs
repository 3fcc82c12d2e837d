//! Partitions of a cell set into congruent parts: the canonical form of a dissection, and
//! the counting arguments that rule one out without a search.

use super::isometry::{Cell, Isometry};
use std::collections::HashMap;

/// The largest number of parts a [`Dissection`] can label (its labels are `u8`).
pub const MAX_PARTS: usize = 256;

/// A dissection in canonical form, so that two equal dissections compare equal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Dissection {
    /// The part of each cell, in the order of the input cells. Parts are numbered by first
    /// appearance in that order: part 0 contains the first cell, part 1 the first cell not in
    /// part 0, and so on.
    pub labels: Vec<u8>,
    /// `maps[i]` maps part 0 onto part `i + 1`; when several isometries do, it is the least
    /// one (by orientation index, then translation) among those the search allowed (all 8
    /// orientations with reflection, the 4 rotations without).
    pub maps: Vec<Isometry>,
}

impl Dissection {
    /// The number of parts.
    pub fn parts(&self) -> usize {
        self.maps.len() + 1
    }
}

/// Why `cells` obviously cannot be cut into `parts` congruent connected parts, or `None` if
/// the search has to decide.
///
/// The reasons found: no parts, an empty shape, more than [`MAX_PARTS`] parts, a repeated
/// cell, a cell count not divisible by `parts`, and connectivity. Every part is connected, so
/// it lies inside one connected component of the shape, and each component is a union of
/// whole parts: a shape with more components than parts, or with a component whose size is
/// not a multiple of `n / parts`, is impossible. A disconnected shape is *not* impossible in
/// itself (two separate equal dominoes split into 2 parts); for `parts = 1` it is reported as
/// "the shape is not connected".
pub fn trivially_impossible(cells: &[Cell], parts: usize) -> Option<String> {
    if parts == 0 {
        return Some("a shape cannot be split into 0 parts".to_string());
    }
    if cells.is_empty() {
        return Some("the shape is empty".to_string());
    }
    if parts > MAX_PARTS {
        return Some(format!(
            "{parts} parts is more than the {MAX_PARTS} supported"
        ));
    }
    // The first occurrence of a cell is its index; a later one is a repeat.
    let mut index: HashMap<Cell, usize> = HashMap::with_capacity(cells.len());
    for (i, &cell) in cells.iter().enumerate() {
        if *index.entry(cell).or_insert(i) != i {
            return Some(format!("cell {cell:?} is listed twice"));
        }
    }
    let n = cells.len();
    if !n.is_multiple_of(parts) {
        return Some(format!(
            "{n} cells cannot be split into {parts} equal parts"
        ));
    }
    let part_size = n / parts;
    let sizes = component_sizes(cells, &index);
    if sizes.len() > 1 && parts == 1 {
        return Some("the shape is not connected".to_string());
    }
    if sizes.len() > parts {
        return Some(format!(
            "the shape has {} connected components, more than the {parts} parts",
            sizes.len()
        ));
    }
    if let Some(size) = sizes.iter().find(|&&size| !size.is_multiple_of(part_size)) {
        return Some(format!(
            "a connected component of {size} cells is not a whole number of parts of {part_size} cells"
        ));
    }
    None
}

/// The sizes of the edge-connected components of `cells`, in order of their first cell.
fn component_sizes(cells: &[Cell], index: &HashMap<Cell, usize>) -> Vec<usize> {
    let mut seen = vec![false; cells.len()];
    let mut sizes = Vec::new();
    let mut stack = Vec::new();
    for start in 0..cells.len() {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let mut size = 0;
        while let Some(i) = stack.pop() {
            size += 1;
            let (x, y) = cells[i];
            for next in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
                if let Some(&j) = index.get(&next) {
                    if !seen[j] {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
        }
        sizes.push(size);
    }
    sizes
}
