//! Compiling a dissection to the model of the [module docs](super): the candidate maps
//! and the part, map and congruence constraints.

use super::connectivity::Connectivity;
use super::{neighbour_lists, reachable, DissectionPuzzle};
use crate::geometry::isometry::{Cell, Isometry};
use crate::geometry::partition::trivially_impossible;
use crate::model::{Constraint, Lit, Model};
use std::collections::HashMap;

/// A candidate map for "part p = T(part 0)", with the cells part 0 may use under it.
pub(super) struct Candidate {
    pub(super) isometry: Isometry,
    /// `image[c]`: the index of `T(cells[c])`, when it lies in the shape.
    image: Vec<Option<usize>>,
    /// Whether cell `c` may be in part 0 under this map (see the module docs).
    domain: Vec<bool>,
}

/// The candidate maps of the module docs, for the cells of a shape in scan order.
pub(super) fn candidate_maps(cells: &[Cell], k: usize, orientations: usize) -> Vec<Candidate> {
    if k < 2 || !cells.len().is_multiple_of(k) {
        return Vec::new();
    }
    let m = cells.len() / k;
    let index: HashMap<Cell, usize> = cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    let neighbours = neighbour_lists(cells, &index);
    let anchor = cells[0];
    let mut candidates = Vec::new();
    for orientation in 0..orientations {
        let turned = Isometry::new(orientation, (0, 0)).apply(anchor);
        for &target in &cells[1..] {
            let isometry = Isometry::new(orientation, (target.0 - turned.0, target.1 - turned.1));
            let image: Vec<Option<usize>> = cells
                .iter()
                .map(|&c| index.get(&isometry.apply(c)).copied())
                .collect();
            let usable: Vec<bool> = (0..cells.len())
                .map(|c| image[c].is_some_and(|i| i != c))
                .collect();
            let domain = reachable(&neighbours, &usable, 0);
            if domain.iter().filter(|&&d| d).count() >= m {
                candidates.push(Candidate {
                    isometry,
                    image,
                    domain,
                });
            }
        }
    }
    candidates
}

/// The compiled model and the tables that name its variables.
pub(super) struct Compiled {
    pub(super) model: Model,
}

impl Compiled {
    pub(super) fn new(puzzle: &DissectionPuzzle) -> Compiled {
        let cells = puzzle.cells();
        let n = cells.len();
        let k = puzzle.parts;
        let mut model = Model::new();
        // Part variables first, cell-major: `decode` relies on this numbering.
        let part: Vec<Vec<Lit>> = cells
            .iter()
            .map(|&(x, y)| {
                (0..k)
                    .map(|p| model.new_var(format!("part[{x},{y},{p}]")).positive())
                    .collect()
            })
            .collect();
        if trivially_impossible(&cells, k).is_some() {
            // The driver reports the reason; the model just has no solution.
            model.add(Constraint::Clause(Vec::new()));
            return Compiled { model };
        }
        for lits in &part {
            model.add(Constraint::ExactlyOne(lits.clone()));
        }
        // The first cell in scan order is in part 0 (parts are otherwise interchangeable).
        model.add(Constraint::Clause(vec![part[0][0]]));
        // Parts numbered by first appearance: a cell of part p >= 2 needs an earlier cell
        // in part p - 1 (for p = 1 the first cell, in part 0, already is one).
        for p in 2..k {
            for c in 1..n {
                let mut clause = vec![!part[c][p]];
                clause.extend((0..c).map(|e| part[e][p - 1]));
                model.add(Constraint::Clause(clause));
            }
        }
        let candidates = candidate_maps(&cells, k, puzzle.orientations());
        for p in 1..k {
            let maps: Vec<Lit> = candidates
                .iter()
                .map(|cand| {
                    let t = cand.isometry;
                    let (dx, dy) = t.translation();
                    model
                        .new_var(format!("map[{p},o{},{dx},{dy}]", t.orientation()))
                        .positive()
                })
                .collect();
            model.add(Constraint::ExactlyOne(maps.clone()));
            for (cand, &map) in candidates.iter().zip(&maps) {
                // Forward: c in part 0 puts T(c) in part p.
                for c in 0..n {
                    let mut clause = vec![!map, !part[c][0]];
                    if cand.domain[c] {
                        let image = cand.image[c].expect("domain cells have images");
                        clause.push(part[image][p]);
                    }
                    model.add(Constraint::Clause(clause));
                }
                // Backward: d in part p puts T^-1(d) in part 0.
                let mut preimage = vec![None; n];
                for c in (0..n).filter(|&c| cand.domain[c]) {
                    preimage[cand.image[c].expect("domain cells have images")] = Some(c);
                }
                for d in 0..n {
                    let mut clause = vec![!map, !part[d][p]];
                    if let Some(c) = preimage[d] {
                        clause.push(part[c][0]);
                    }
                    model.add(Constraint::Clause(clause));
                }
            }
        }
        model
            .lazy
            .push(Box::new(Connectivity::new(cells, part, n / k)));
        Compiled { model }
    }
}
