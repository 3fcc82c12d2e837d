//! The packing model's shape ([`ModelShape`]) from the pieces and the region, without
//! compiling it: exact.

use super::{Packing, PackingKind};
use crate::model::shape::{ConstraintShape, ModelShape, ObjectiveShape};

pub(super) fn packing_shape(packing: &Packing) -> ModelShape {
    let mut shape = ModelShape::new();
    let placements = &packing.instance.placements;
    for i in 0..placements.len() {
        shape.add_vars(1, packing.placement_name(i).len() as u64);
    }
    let mut covering: Vec<Vec<usize>> = vec![Vec::new(); packing.width * packing.height];
    for (i, p) in placements.iter().enumerate() {
        for &c in &p.cells {
            covering[c].push(i);
        }
    }
    for (cover, _) in covering.iter().zip(&packing.blocked).filter(|(_, &b)| !b) {
        match packing.kind {
            PackingKind::Tile => shape.add(ConstraintShape::ExactlyOne(cover.len()), 1),
            PackingKind::Maximise if cover.len() >= 2 => {
                shape.add(ConstraintShape::AtMostOne(cover.len()), 1)
            }
            PackingKind::Maximise => {}
        }
    }
    for (index, piece) in packing.pieces.iter().enumerate() {
        let own = placements.iter().filter(|p| p.piece == index).count();
        if let Some(max) = piece.limit.max {
            if max < own {
                shape.add(ConstraintShape::AtMost(own, max), 1);
            }
        }
        match piece.limit.min {
            0 => {}
            1 if piece.limit.max == Some(1) => shape.add(ConstraintShape::ExactlyOne(own), 1),
            min => shape.add(ConstraintShape::AtLeast(own, min), 1),
        }
    }
    // Symmetry breaking: one unit clause per placement it rules out.
    let units = packing.symmetry_units().len() as u64;
    if units > 0 {
        shape.add(ConstraintShape::Clause(1), units);
    }
    if packing.kind == PackingKind::Maximise {
        let groups = packing.cell_groups(&covering);
        shape.objective = Some(ObjectiveShape {
            lits: placements.len() as u64,
            groups: Some(groups.len() as u64),
            singleton_groups: groups.iter().filter(|g| g.len() == 1).count() as u64,
        });
    }
    shape
}
