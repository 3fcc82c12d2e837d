//! Times three library calls in process, the ones `python/examples/overhead.py` times through
//! the Python package: the 13 x 19 crosses solved (native), the N = 12 queens counted
//! (native), and the contest board's certificate proved. Prints one line per run: `NAME WALL
//! CPU`, in seconds, CPU time being the process's (every thread's) user and system time.
//!
//! `cargo run --profile wheel --example library_timing -- [ROUNDS]` (the profile the Python
//! package is built with, so both run the same code).

use puzzlec::base::{Control, Goal, DEFAULT_MAX_MEMORY};
use puzzlec::cert::certificate::ProveOptions;
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
    // The options the command line and the Python package give `prove`.
    let prove_options = ProveOptions {
        veripb_shards: std::thread::available_parallelism().map_or(1, |n| n.get()),
        max_shard_bytes: Some(DEFAULT_MAX_MEMORY / 5 * 2),
        ..ProveOptions::new(puzzlec::report::evidence::words)
    };
    for round in 0..rounds {
        let control = Control::unlimited();
        let start = Clock::now();
        let outcome = driver::solve(&crosses, Backend::Native, Goal::Maximise, &control)?;
        assert_eq!(outcome.value, Some(19));
        start.report("crosses-13x19-solve");

        let start = Clock::now();
        let options = EnumerateOptions::default();
        let counted = driver::enumerate(&queens, Backend::Native, &options, &control, &mut |_| {})?;
        assert_eq!(counted.count, 14200);
        start.report("queens-12-count");

        let start = Clock::now();
        let dir = scratch.path().join(format!("certificate-{round}"));
        let manifest = puzzlec::cert::certificate::prove_using(&board, &dir, &prove_options)?;
        assert_eq!(manifest.claim, puzzlec::Claim::Optimal { value: 20 });
        start.report("contest-board-prove");
    }
    Ok(())
}

/// The wall clock and the process's CPU time at a start.
struct Clock {
    wall: Instant,
    cpu: f64,
}

impl Clock {
    fn now() -> Clock {
        Clock {
            wall: Instant::now(),
            cpu: cpu_seconds(),
        }
    }

    /// Prints `name`, the wall and the CPU seconds since the start.
    fn report(&self, name: &str) {
        let cpu = cpu_seconds() - self.cpu;
        println!("{name} {:.6} {cpu:.6}", self.wall.elapsed().as_secs_f64());
    }
}

/// The user and system time of every thread of the process, as Python's
/// `time.process_time()` counts it.
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage fills the struct it is given and reads nothing else.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}
