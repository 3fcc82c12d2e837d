//! Shared helpers for the integration tests: random boards, a CLI harness and certificate folders.
#![allow(dead_code)]

use puzzlec::engines::dissection::{Cell, Isometry};
use puzzlec::puzzle::queens::Queens;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::fs;
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

// Certificates: `prove` into a folder, `check` it, tamper with its files.

/// Proves `model` into a fresh folder inside `tmp`, asserting success; returns the folder.
pub fn prove(tmp: &Path, model: &Path) -> PathBuf {
    prove_with(tmp, model, &[])
}

/// [`prove`] with more flags (`--table`, ...).
pub fn prove_with(tmp: &Path, model: &Path, flags: &[&str]) -> PathBuf {
    let dir = tmp.join("cert");
    let mut args = vec![
        "prove",
        model.to_str().unwrap(),
        "-o",
        dir.to_str().unwrap(),
    ];
    args.extend_from_slice(flags);
    let run = puzzlec(tmp, &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    dir
}

/// Runs `check` on the certificate folder `dir`.
pub fn check(dir: &Path) -> Run {
    puzzlec(dir, &["check", dir.to_str().unwrap()])
}

/// Replaces the first occurrence of `from` in `dir/name` with `to`, asserting there is one,
/// and records the file's new SHA-256 in the manifest (when the manifest lists it under
/// `files`), as a tamperer who knows the format would: the content checks must catch it.
pub fn edit(dir: &Path, name: &str, from: &str, to: &str) {
    edit_unhashed(dir, name, from, to);
    rehash(dir, name);
}

/// [`edit`] without touching the manifest: the hash check must catch it.
pub fn edit_unhashed(dir: &Path, name: &str, from: &str, to: &str) {
    let path = dir.join(name);
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{name} has no {from:?}");
    fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

/// Records the current SHA-256 and size of `dir/name` in the manifest's `files` entry for
/// it, if any, as a knowing tamperer would.
pub fn rehash(dir: &Path, name: &str) {
    let manifest_path = dir.join("manifest.json");
    let mut manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&manifest_path).unwrap()).unwrap();
    let Some(files) = manifest["files"].as_object_mut() else {
        return;
    };
    let mut changed = false;
    for entry in files.values_mut() {
        if entry["name"] == name {
            let bytes = fs::read(dir.join(name)).unwrap();
            entry["sha256"] = serde_json::Value::String(puzzlec::base::digest::sha256_hex(&bytes));
            entry["bytes"] = serde_json::Value::from(bytes.len());
            changed = true;
        }
    }
    if changed {
        fs::write(
            &manifest_path,
            serde_json::to_string_pretty(&manifest).unwrap(),
        )
        .unwrap();
    }
}

/// Asserts `check` fails with exit 1 and exactly `message` on stderr.
pub fn assert_fails(dir: &Path, message: &str) {
    let run = check(dir);
    assert_eq!(
        run.code, 1,
        "stdout: {}\nstderr: {}",
        run.stdout, run.stderr
    );
    assert_eq!(
        run.stderr,
        format!("error: certificate check failed: {message}\n")
    );
    assert_eq!(run.stdout, "");
}

// External programs: run the tests that need them when they are installed, and say so
// loudly when they are not.

/// Whether every program of `programs` (name, Debian package) is on PATH. When some are
/// missing, prints `SKIPPED in TEST: not installed: PROGRAM (Debian package P), ...`
/// straight to stderr (the harness captures `eprintln!`, and a skip nobody sees is a
/// silent pass) and returns false, or fails the test when `PUZZLEC_REQUIRE_EXTERNAL=1` says
/// everything must be there (as `.ci/run` does after installing them).
pub fn programs_or_skip(test: &str, programs: &[(&str, &str)]) -> bool {
    let missing: Vec<String> = programs
        .iter()
        .filter(|(program, _)| !puzzlec::oracle::external::on_path(program))
        .map(|(program, package)| format!("{program} (Debian package {package})"))
        .collect();
    report_missing(test, &missing);
    missing.is_empty()
}

/// Says which programs `test` skips for want of (nothing when `missing` is empty), and
/// fails when `PUZZLEC_REQUIRE_EXTERNAL=1`.
pub fn report_missing(test: &str, missing: &[String]) {
    if missing.is_empty() {
        return;
    }
    use std::io::Write as _;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED in {test}: not installed: {}",
        missing.join(", ")
    );
    assert!(
        std::env::var("PUZZLEC_REQUIRE_EXTERNAL").as_deref() != Ok("1"),
        "PUZZLEC_REQUIRE_EXTERNAL=1 but {} missing",
        missing.join(", ")
    );
}

/// [`programs_or_skip`] for CaDiCaL alone.
pub fn cadical_or_skip(test: &str) -> bool {
    programs_or_skip(test, &[("cadical", "cadical")])
}

/// Optima of crosses in a W x H box, W <= H, from 5 x 5 to 13 x 13, as printed by
/// `cross_doll W H` (../shared/refs/cross_doll.c, run once to make this table; it also
/// printed the same optima for 6 x 5, 9 x 7, 13 x 8, 12 x 11 and 11 x 5, the boxes turned).
pub const CROSS_DOLL: &[(usize, usize, usize)] = &[
    (5, 5, 1),
    (5, 6, 1),
    (5, 7, 1),
    (5, 8, 2),
    (5, 9, 2),
    (5, 10, 2),
    (5, 11, 3),
    (5, 12, 3),
    (5, 13, 3),
    (6, 6, 2),
    (6, 7, 2),
    (6, 8, 2),
    (6, 9, 3),
    (6, 10, 3),
    (6, 11, 4),
    (6, 12, 4),
    (6, 13, 5),
    (7, 7, 2),
    (7, 8, 3),
    (7, 9, 4),
    (7, 10, 4),
    (7, 11, 5),
    (7, 12, 6),
    (7, 13, 6),
    (8, 8, 4),
    (8, 9, 4),
    (8, 10, 4),
    (8, 11, 5),
    (8, 12, 6),
    (8, 13, 6),
    (9, 9, 5),
    (9, 10, 6),
    (9, 11, 6),
    (9, 12, 7),
    (9, 13, 8),
    (10, 10, 6),
    (10, 11, 7),
    (10, 12, 8),
    (10, 13, 8),
    (11, 11, 8),
    (11, 12, 9),
    (11, 13, 10),
    (12, 12, 10),
    (12, 13, 11),
    (13, 13, 13),
];

/// PATH with the folder of the `puzzlec` under test first, for shell commands that call it
/// by name as the docs do.
pub fn path_with_puzzlec() -> String {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_puzzlec")).parent().unwrap();
    format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// L-trominoes tiling a 3 x 6 box (any number of them).
pub const L_TROMINOES: &str = "kind = \"packing\"\nwidth = 3\nheight = 6\ngoal = \"tile\"\n\n[[piece]]\nname = \"L\"\nshape = \"\"\"\n#.\n##\n\"\"\"\n";

/// An executable shell script `name` in `dir` running `body`: a fake solver for the tests
/// of what puzzlec does with a solver that lies, crashes or prints garbage. Returns its path.
pub fn script(dir: &Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

/// A random polyomino of `size` cells grown from the origin.
pub fn random_polyomino(rng: &mut ChaCha8Rng, size: usize) -> Vec<Cell> {
    let mut cells = vec![(0, 0)];
    while cells.len() < size {
        let (x, y) = *cells.choose(rng).unwrap();
        let next = *[(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
            .choose(rng)
            .unwrap();
        if !cells.contains(&next) {
            cells.push(next);
        }
    }
    cells
}

/// A random polyomino glued to `copies - 1` random images of itself, each copy disjoint from
/// and touching the cells before it, so the shape has at least one dissection into
/// `copies` parts; the cells come back shuffled by `rng` (not in a `HashSet`'s order, which
/// changes from run to run).
pub fn glued(rng: &mut ChaCha8Rng, size: usize, copies: usize, reflect: bool) -> Vec<Cell> {
    let piece = random_polyomino(rng, size);
    let mut cells: HashSet<Cell> = piece.iter().copied().collect();
    for _ in 1..copies {
        loop {
            let orientation = rng.gen_range(0..if reflect { 8 } else { 4 });
            let reach = 2 * size as i32 + 2;
            let map = Isometry::new(
                orientation,
                (rng.gen_range(-reach..=reach), rng.gen_range(-reach..=reach)),
            );
            let image: Vec<Cell> = piece.iter().map(|&c| map.apply(c)).collect();
            let disjoint = image.iter().all(|c| !cells.contains(c));
            let touching = image.iter().any(|&(x, y)| {
                [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
                    .iter()
                    .any(|c| cells.contains(c))
            });
            if disjoint && touching {
                cells.extend(image);
                break;
            }
        }
    }
    let mut cells: Vec<Cell> = cells.into_iter().collect();
    cells.sort();
    cells.shuffle(rng);
    cells
}
