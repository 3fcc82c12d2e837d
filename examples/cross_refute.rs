//! Decides "at least K pieces" for a packing model with the native branch and bound, with
//! each pruning rule switchable, so that a refutation can be repeated by different routes:
//! `cargo run --release --example cross_refute -- [MODEL] [K] [no-memo] [no-symmetry]
//! [no-suffixes]` (defaults: models/cross-13x19.toml, 20, every rule on).

use puzzlec::engines::packing::{maximise, BoundSet, PackingGoal, PackingOptions};
use puzzlec::puzzle::{load_model_file, Puzzle};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let model = args
        .iter()
        .find(|a| a.ends_with(".toml"))
        .map_or("models/cross-13x19.toml", String::as_str);
    let k: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(20);
    let off = |flag: &str| args.iter().any(|a| a == flag);
    let puzzle = load_model_file(std::path::Path::new(model)).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let Puzzle::Packing(packing) = puzzle else {
        eprintln!("{model}: not a packing model");
        std::process::exit(2)
    };
    let options = PackingOptions {
        goal: PackingGoal::AtLeast(k),
        bounds: BoundSet {
            suffixes: !off("no-suffixes"),
            ..BoundSet::default()
        },
        memo: !off("no-memo"),
        break_symmetry: !off("no-symmetry"),
        progress_every: 0,
        ..PackingOptions::default()
    };
    let started = Instant::now();
    let outcome = maximise(&packing.instance, &options, |_| {}).expect("a valid instance");
    let found = outcome.best.as_ref().filter(|b| b.len() >= k);
    if let Some(best) = found {
        let pieces = packing
            .instance
            .check_packing(best)
            .expect("the packing verifies");
        println!("{model}: found {pieces} >= {k}");
        println!("{}", packing.instance.render(best));
    } else if outcome.proved {
        println!("{model}: no packing with {k} pieces (search exhausted)");
    } else {
        println!("{model}: undecided");
    }
    println!(
        "{:.1} s; rules: memo {}, symmetry {}, suffixes {}; {:?}",
        started.elapsed().as_secs_f64(),
        options.memo,
        options.break_symmetry,
        options.bounds.suffixes,
        outcome.stats
    );
}
