//! Progress on stderr: notes from long searches as lines, and counting progress as an
//! indicatif bar on a terminal or, elsewhere, a plain line every 30 s once a count has run
//! for 10 s, so logs of long batch runs show it is alive.

use puzzlec::base::ProgressSink;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The command line's [`ProgressSink`].
pub struct StderrProgress {
    /// The bar, made on the first count report when stderr is a terminal.
    bar: Mutex<Option<indicatif::ProgressBar>>,
    terminal: bool,
    /// When the run started and when the last plain line was printed.
    plain: Mutex<(Instant, Instant)>,
}

impl StderrProgress {
    /// Progress for a run starting now.
    pub fn new() -> StderrProgress {
        let now = Instant::now();
        StderrProgress {
            bar: Mutex::new(None),
            terminal: std::io::stderr().is_terminal(),
            plain: Mutex::new((now, now)),
        }
    }
}

impl ProgressSink for StderrProgress {
    fn note(&self, line: &str) {
        eprintln!("{line}");
    }

    fn advance(&self, done: u64, total: u64) {
        if self.terminal {
            let mut bar = self.bar.lock().unwrap_or_else(|e| e.into_inner());
            let bar = bar.get_or_insert_with(|| {
                let bar = indicatif::ProgressBar::new(0);
                bar.set_style(
                    indicatif::ProgressStyle::with_template(
                        "counting {bar:30} {pos}/{len} subproblems, {elapsed} elapsed, about {eta} left",
                    )
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
                );
                bar
            });
            bar.set_length(total);
            bar.set_position(done);
            return;
        }
        let mut times = self.plain.lock().unwrap_or_else(|e| e.into_inner());
        let (start, last) = *times;
        let now = Instant::now();
        if now - start >= Duration::from_secs(10) && now - last >= Duration::from_secs(30) {
            times.1 = now;
            let spent = (now - start).as_secs_f64();
            let left = spent * (total - done) as f64 / done.max(1) as f64;
            eprintln!(
                "progress: {done}/{total} subproblems in {spent:.0} s, about {left:.0} s left"
            );
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).take() {
            bar.finish_and_clear();
        }
    }
}
