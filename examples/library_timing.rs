//! Times three library calls in process, the ones `python/examples/overhead.py` times through
//! the Python package: the 13 x 19 crosses solved (the default portfolio), the N = 12 queens
//! counted (native), and the contest board's certificate proved. Prints one line per run:
//! `NAME SECONDS`.
//!
//! `cargo run --profile wheel --example library_timing -- [ROUNDS]` (the profile the Python
//! package is built with, so both run the same code).

use puzzlec::base::{Control, Goal, DEFAULT_MAX_MEMORY};
use puzzlec::driver::enumerate::EnumerateOptions;
use puzzlec::driver::{self, Backend};
use std::error::Error;
use std::path::Path;
use std::time::Instant;

fn main() -> Result<(), Box<dyn Error>> {
    let rounds: usize = match std::env::args().nth(1) {
        Some(n) => n.parse()?,
        None => 5,
    };
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    let crosses = puzzlec::load_model_file(&models.join("cross-13x19.toml"))?;
    let queens = puzzlec::puzzle::load::parse_model(
        Path::new("<queens>"),
        "kind = \"queens\"\nsize = 12\n".to_string(),
    )?;
    let board = models.join("obstacle-queens.toml");
    let scratch = tempfile::tempdir()?;
    for round in 0..rounds {
        let start = Instant::now();
        let control = Control::unlimited();
        let outcome = driver::portfolio::solve_portfolio(
            &crosses,
            Goal::Maximise,
            &control,
            DEFAULT_MAX_MEMORY,
        )?;
        assert_eq!(outcome.value, Some(19));
        println!("crosses-13x19-solve {:.6}", start.elapsed().as_secs_f64());

        let start = Instant::now();
        let options = EnumerateOptions::default();
        let counted = driver::enumerate(&queens, Backend::Native, &options, &control, &mut |_| {})?;
        assert_eq!(counted.count, 14200);
        println!("queens-12-count {:.6}", start.elapsed().as_secs_f64());

        let start = Instant::now();
        let dir = scratch.path().join(format!("certificate-{round}"));
        let manifest = puzzlec::prove(&board, &dir)?;
        assert_eq!(manifest.claim, puzzlec::Claim::Optimal { value: 20 });
        println!("contest-board-prove {:.6}", start.elapsed().as_secs_f64());
    }
    Ok(())
}
