//! The symmetry breaking compiled into packing models (`Packing::symmetry_units`: a piece
//! used exactly once kept to one placement per orbit) keeps at least one member of every
//! symmetry class: on pentomino 6 x 10, every one of the 2339 classes of the 9356 tilings
//! has a member that the unit clauses allow.

use crate::common;

use common::models;
use puzzlec::base::Control;
use puzzlec::driver::packing::{canonical, list_native, symmetries};
use puzzlec::puzzle::{load_model_file, Puzzle};
use std::collections::HashSet;

#[test]
fn every_class_of_pentomino_tilings_keeps_a_member() {
    let Puzzle::Packing(packing) = load_model_file(&models().join("pentomino-6x10.toml")).unwrap()
    else {
        panic!("a packing model")
    };
    let ruled_out: HashSet<(usize, Vec<usize>)> = packing
        .symmetry_units()
        .into_iter()
        .map(|i| {
            let p = &packing.instance.placements[i];
            (p.piece, p.cells.clone())
        })
        .collect();
    // Three of every four placements of the piece (the region has 4 symmetries), less
    // the placements that are their own images.
    assert_eq!(ruled_out.len(), 228);
    let group = symmetries(&packing);
    let (mut all, mut kept) = (HashSet::new(), HashSet::new());
    let (count, complete) = list_native(&packing, &Control::unlimited(), &mut |tiling| {
        let class = canonical(&group, &tiling);
        if tiling.placed.iter().all(|p| !ruled_out.contains(p)) {
            kept.insert(class.clone());
        }
        all.insert(class);
        true
    })
    .unwrap();
    assert_eq!((count, complete, all.len()), (9356, true, 2339));
    assert_eq!(
        kept.len(),
        2339,
        "a class lost every member to the unit clauses"
    );
}
