//! Runs the large neighbourhood search on the 13 x 19 cross box: `cargo run --release
//! --example cross_lns -- [SEED] [SECONDS] [WINDOW_CELLS] [WINDOW_NODES] [TARGET]`.

use puzzlec::engines::packing_lns::{search, LnsOptions};
use puzzlec::geometry::placements::{orientations, PackingInstance, PieceLimit};
use puzzlec::geometry::shapes::picture_cells as shape;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers"))
        .collect();
    let arg = |i: usize, d: u64| args.get(i).copied().unwrap_or(d);
    let crosses = [
        "..#../..#../#####/..#../..#..",
        "..#../#####/..#../..#../..#..",
        "#####/..#../..#../..#../..#..",
    ];
    let pieces: Vec<_> = crosses
        .iter()
        .map(|p| (orientations(&shape(p), true, true), PieceLimit::unlimited()))
        .collect();
    let instance = PackingInstance::from_shapes(13, 19, vec![false; 13 * 19], &pieces);
    let started = Instant::now();
    let options = LnsOptions {
        target: Some(arg(4, 19) as usize),
        seed: arg(0, 1),
        deadline: Some(started + Duration::from_secs(arg(1, 20))),
        max_window_cells: arg(2, 96) as usize,
        window_nodes: arg(3, 20_000),
        ..LnsOptions::default()
    };
    let outcome = search(&instance, &[], &options, |best, t| {
        eprintln!("{best} at {:.2} s", t.as_secs_f64())
    });
    println!(
        "{} pieces, {} windows, {} nodes, {:.2} s",
        outcome.best.len(),
        outcome.windows,
        outcome.nodes,
        started.elapsed().as_secs_f64()
    );
    print!("{}", instance.render(&outcome.best));
}
