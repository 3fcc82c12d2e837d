//! The dissection model's shape ([`ModelShape`]) from the puzzle's data, without compiling
//! it: exact but for the candidate maps, bounded from above.

use super::DissectionPuzzle;
use crate::geometry::isometry::Isometry;
use crate::model::shape::{ConstraintShape, ModelShape};
use crate::puzzle::family::digits;
use crate::puzzle::Family;

/// An upper bound on the number of candidate maps the dissection compiler keeps for each
/// part after the first: one per orientation and target cell of the first cell, kept only
/// when part 0 can have `m` cells whose images lie in the shape. The compiler also asks
/// that those cells be connected and not fixed by the map; this bound only counts the
/// cells whose image is inside the shape (a bitwise overlap of the shape with its turned
/// copy, row by row), so it is at least the compiler's count.
pub fn dissection_candidates(puzzle: &DissectionPuzzle) -> u64 {
    let cells = puzzle.cells();
    let k = puzzle.parts;
    if k < 2 || cells.is_empty() || !cells.len().is_multiple_of(k) {
        return 0;
    }
    let m = cells.len() / k;
    let height = puzzle.height as i32;
    // Shape rows as bit masks (sides are at most 64, so x < 64).
    let mut rows = vec![0u128; puzzle.height];
    for &(x, y) in &cells {
        rows[y as usize] |= 1 << x;
    }
    let anchor = cells[0];
    let mut candidates = 0;
    for orientation in 0..puzzle.orientations() {
        let turn = Isometry::new(orientation, (0, 0));
        let turned: Vec<(i32, i32)> = cells.iter().map(|&c| turn.apply(c)).collect();
        let min_x = turned.iter().map(|c| c.0).min().unwrap_or(0);
        let min_y = turned.iter().map(|c| c.1).min().unwrap_or(0);
        let max_y = turned.iter().map(|c| c.1).max().unwrap_or(0);
        // The turned shape's rows, shifted so its leftmost cell is bit 0.
        let mut turned_rows = vec![0u128; (max_y - min_y + 1) as usize];
        for &(x, y) in &turned {
            turned_rows[(y - min_y) as usize] |= 1 << (x - min_x);
        }
        let turned_anchor = turn.apply(anchor);
        for &target in &cells[1..] {
            let (dx, dy) = (target.0 - turned_anchor.0, target.1 - turned_anchor.1);
            // Turned cell (x, y) lands on (x + dx, y + dy): bit x - min_x moves to x + dx.
            let shift = min_x + dx;
            let mut overlap = 0;
            for (row, &bits) in turned_rows.iter().enumerate() {
                let y = row as i32 + min_y + dy;
                if !(0..height).contains(&y) {
                    continue;
                }
                let moved = match shift {
                    s if s >= 128 || s <= -128 => 0,
                    s if s >= 0 => bits << s,
                    s => bits >> -s,
                };
                overlap += (moved & rows[y as usize]).count_ones() as usize;
            }
            if overlap >= m {
                candidates += 1;
            }
        }
    }
    candidates
}

pub(super) fn dissection_shape(puzzle: &DissectionPuzzle, lazy_written_out: bool) -> ModelShape {
    let cells = puzzle.cells();
    let n = cells.len();
    let k = puzzle.parts;
    let mut shape = ModelShape::new();
    for &(x, y) in &cells {
        // part[x,y,p]
        let name = 8 + digits(x as usize) + digits(y as usize);
        for p in 0..k {
            shape.add_vars(1, name + digits(p));
        }
    }
    if puzzle.trivially_impossible().is_some() {
        shape.add(ConstraintShape::Clause(0), 1);
        return shape;
    }
    shape.add(ConstraintShape::ExactlyOne(k), n as u64);
    shape.add(ConstraintShape::Clause(1), 1);
    for _ in 2..k {
        for c in 1..n {
            shape.add(ConstraintShape::Clause(c + 1), 1);
        }
    }
    let candidates = dissection_candidates(puzzle);
    // The compiler keeps each candidate's image (16 bytes a cell) and domain (1 byte a cell)
    // until the model is built.
    shape.scratch_bytes = candidates * n as u64 * 17;
    for p in 1..k {
        // map[p,oO,DX,DY]: about 16 bytes.
        shape.add_vars(candidates, 12 + digits(p) + 4);
        shape.add(ConstraintShape::ExactlyOne(candidates as usize), 1);
        // Forward and backward clauses per candidate and cell, of 2 or 3 literals (counted
        // as 3: an upper bound).
        shape.add(ConstraintShape::Clause(3), 2 * n as u64 * candidates);
    }
    if lazy_written_out && k >= 1 {
        // The connectivity write-out: distance layers per cell and part (see
        // `Connectivity::write_out`).
        let layers = (n / k).max(1) as u64;
        let neighbours = |&(x, y): &(i32, i32)| {
            [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
                .iter()
                .filter(|&&(a, b)| {
                    (0..puzzle.width as i32).contains(&a)
                        && (0..puzzle.height as i32).contains(&b)
                        && puzzle.inside[b as usize * puzzle.width + a as usize]
                })
                .count()
        };
        for cell in &cells {
            // within[p,t]@(x,y) or root[p]@(x,y): about 20 bytes.
            shape.add_vars(k as u64 * layers, k as u64 * layers * 20);
            shape.add(ConstraintShape::Clause(2), k as u64 * layers + k as u64);
            shape.add(
                ConstraintShape::Clause(2 + neighbours(cell)),
                k as u64 * (layers - 1),
            );
        }
        shape.add(ConstraintShape::ExactlyOne(n), k as u64);
    }
    shape
}
