use puzzlec::engines::packing::{count_tilings_with, maximise, PackingOptions, TilingEngine};
use puzzlec::geometry::placements::{orientations, PackingInstance, PieceLimit};
use puzzlec::geometry::shapes::{picture_cells as shape, shapes, CROSSES, PENTOMINOES};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn main() {
    let stop = AtomicBool::new(false);
    let pieces = vec![(
        orientations(&shape("##/#."), true, true),
        PieceLimit::unlimited(),
    )];
    let inst = PackingInstance::from_shapes(12, 6, vec![false; 72], &pieces);
    for eng in [
        TilingEngine::Bitboard {
            regions: true,
            words: 0,
        },
        TilingEngine::Bitboard {
            regions: false,
            words: 0,
        },
        TilingEngine::DancingLinks,
    ] {
        let t = Instant::now();
        let c = count_tilings_with(&inst, true, eng, &stop).unwrap();
        println!(
            "{eng:?}: {} nodes {} {:.3}s",
            c.raw,
            c.nodes,
            t.elapsed().as_secs_f64()
        );
    }
    let pent: Vec<_> = shapes(&PENTOMINOES)
        .iter()
        .enumerate()
        .map(|(i, s)| {
            (
                orientations(s, true, true),
                if i == 9 {
                    PieceLimit::exactly(1)
                } else {
                    PieceLimit::at_most(1)
                },
            )
        })
        .collect();
    let inst = PackingInstance::from_shapes(8, 7, vec![false; 56], &pent);
    let t = Instant::now();
    let o = maximise(&inst, &PackingOptions::default(), |p| {
        eprintln!("{p:?} {:.2}", t.elapsed().as_secs_f64())
    })
    .unwrap();
    println!(
        "pent: {} {} {:?} {:.3}s",
        o.best_len(),
        o.proved,
        o.stats,
        t.elapsed().as_secs_f64()
    );
    let cr: Vec<_> = shapes(&CROSSES)
        .iter()
        .enumerate()
        .map(|(i, s)| {
            (
                orientations(s, true, true),
                if i == 0 {
                    PieceLimit { min: 3, max: None }
                } else {
                    PieceLimit::unlimited()
                },
            )
        })
        .collect();
    let inst = PackingInstance::from_shapes(11, 11, vec![false; 121], &cr);
    let t = Instant::now();
    let o = maximise(&inst, &PackingOptions::default(), |p| {
        eprintln!("{p:?} {:.2}", t.elapsed().as_secs_f64())
    })
    .unwrap();
    println!(
        "cross: {} {} {:?} {:.3}s",
        o.best_len(),
        o.proved,
        o.stats,
        t.elapsed().as_secs_f64()
    );
}
