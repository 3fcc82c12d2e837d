//! The queens model's shape ([`ModelShape`]) from the board alone, without compiling it:
//! exact.

use super::Queens;
use crate::model::shape::{ConstraintShape, ModelShape, ObjectiveShape};
use crate::puzzle::family::digits;

pub(super) fn queens_shape(queens: &Queens) -> ModelShape {
    let mut shape = ModelShape::new();
    for (cell, _) in queens.board.free.iter().enumerate().filter(|(_, &f)| f) {
        let (x, y) = (cell % queens.board.width, cell / queens.board.width);
        // q[x,y]
        shape.add_vars(1, 4 + digits(x) + digits(y));
    }
    let segments = queens.board.segments();
    for direction in &segments {
        for segment in direction.iter().filter(|s| s.len() >= 2) {
            shape.add(ConstraintShape::AtMostOne(segment.len()), 1);
        }
    }
    let best = (0..4).min_by_key(|&d| segments[d].len()).unwrap_or(0);
    shape.objective = Some(ObjectiveShape {
        lits: shape.variables,
        groups: Some(segments[best].len() as u64),
        singleton_groups: segments[best].iter().filter(|s| s.len() == 1).count() as u64,
    });
    shape
}
