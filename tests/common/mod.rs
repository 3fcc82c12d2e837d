//! Shared helpers for the integration tests: random boards and a CLI harness.
#![allow(dead_code)]

use puzzlec::puzzle::queens::Queens;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A random obstacle board, `width` x `height`, each cell an obstacle with probability
/// `density`, from `seed`.
pub fn random_board(seed: u64, width: usize, height: usize, density: f64) -> Queens {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let rows: Vec<String> = (0..height)
        .map(|_| {
            (0..width)
                .map(|_| if rng.gen_bool(density) { '*' } else { '-' })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    Queens::from_rows(&rows)
}

/// A random board for `seed`, with its size in 4..=max_side and a density up to 0.35.
pub fn seeded_board(seed: u64, max_side: usize) -> Queens {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let width = rng.gen_range(4..=max_side);
    let height = rng.gen_range(4..=max_side);
    let density = rng.gen_range(0.0..0.35);
    random_board(seed, width, height, density)
}

/// The repository's `models/` folder.
pub fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("models")
}

/// What a run of the `puzzlec` binary printed, and its exit code.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the `puzzlec` binary with `args` in `dir`.
pub fn puzzlec(dir: &Path, args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_puzzlec"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the puzzlec binary runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}
