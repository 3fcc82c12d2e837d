//! The cross model of `models/cross-13x19.toml` resized to a smaller box, for benchmarks
//! that need a box settled in milliseconds.

use std::path::{Path, PathBuf};

/// Writes the cross model resized to `side` x `side` into `dir`; its path.
pub fn square_cross_model(dir: &Path, side: usize) -> PathBuf {
    let model = dir.join(format!("cross-{side}x{side}.toml"));
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/cross-13x19.toml"),
    )
    .expect("the cross model")
    .replace("width = 13", &format!("width = {side}"))
    .replace("height = 19", &format!("height = {side}"));
    std::fs::write(&model, text).expect("a model file");
    model
}
