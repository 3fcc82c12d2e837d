//! Counts the 6 x 10 pentomino tilings and reports the time: `cargo run --release --example
//! pentomino_count`.

use puzzlec::engines::packing::count_tilings;
use puzzlec::geometry::placements::{orientations, PackingInstance, PieceLimit};
use puzzlec::geometry::shapes::picture_cells as shape;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn main() {
    let pentominoes = [
        ".##/##./.#.",
        "#####",
        "####/#...",
        "###./..##",
        "##/##/#.",
        "###/.#./.#.",
        "#.#/###",
        "#../#../###",
        "#../##./.##",
        ".#./###/.#.",
        "####/.#..",
        "##./.#./.##",
    ];
    let pieces: Vec<_> = pentominoes
        .iter()
        .map(|p| (orientations(&shape(p), true, true), PieceLimit::exactly(1)))
        .collect();
    for (w, h) in [(10, 6), (12, 5), (15, 4), (20, 3)] {
        let instance = PackingInstance::from_shapes(w, h, vec![false; w * h], &pieces);
        let started = Instant::now();
        let count = count_tilings(&instance, true, &AtomicBool::new(false)).unwrap();
        println!(
            "{h} x {w}: {} tilings, {:?} up to symmetry, {} nodes, {:.3} s",
            count.raw,
            count.up_to_symmetry,
            count.nodes,
            started.elapsed().as_secs_f64()
        );
    }
}
