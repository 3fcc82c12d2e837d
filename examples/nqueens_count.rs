//! Counts N-queens solutions on an empty board and reports the time taken.
//!
//! Usage: `cargo run --release --example nqueens_count -- N [INDEX/COUNT]`
//! (set `RAYON_NUM_THREADS` to choose the number of worker threads).

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use puzzlec::base::shard::Shard;
use puzzlec::engines::nqueens_count::{count_empty_board, MAX_N};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n = match args.first().map(|a| a.parse::<u32>()) {
        Some(Ok(n)) if (1..=MAX_N).contains(&n) => n,
        _ => {
            eprintln!("usage: nqueens_count N [INDEX/COUNT], N in 1..={MAX_N}");
            return ExitCode::from(2);
        }
    };
    let shard = match args.get(1).map(|a| Shard::parse(a)) {
        None => None,
        Some(Ok(shard)) => Some(shard),
        Some(Err(message)) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let stop = AtomicBool::new(false);
    let result = count_empty_board(n, shard, &|_, _| {}, &stop).expect("never stopped");
    println!(
        "N = {n}: total {} unique {} ({} subproblems) in {:.3} s",
        result.total,
        result.unique,
        result.subproblems,
        start.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}
