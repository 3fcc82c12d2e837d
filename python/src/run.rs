//! Work on a thread of its own while the calling thread, with the GIL released, waits for it
//! and looks for Ctrl-C between waits: a search stops within [`POLL`] plus the time its
//! backend takes to notice the stop flag, and Python sees `KeyboardInterrupt`.

use puzzlec::base::{Control, DEFAULT_MAX_MEMORY};
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

/// How often the waiting thread looks for a signal.
pub const POLL: Duration = Duration::from_millis(50);

/// How long an interrupted call waits for its search to wind down before it raises; a search
/// still running then (a checker that polls no flag) finishes on its own thread, unobserved.
const WIND_DOWN: Duration = Duration::from_millis(250);

/// The limits of one call: a stop flag (raised by Ctrl-C), a time limit, a memory limit.
pub struct Limits {
    /// Raised when the caller is interrupted.
    pub stop: Arc<AtomicBool>,
    /// What the library polls.
    pub control: Control,
    /// The memory limit in bytes.
    pub memory: u64,
}

impl Limits {
    /// Checks `time_limit` (seconds) as the command line checks `--time-limit`.
    pub fn new(time_limit: Option<f64>, max_memory: Option<u64>) -> PyResult<Limits> {
        let limit = match time_limit {
            None => None,
            Some(s) if s.is_finite() && s > 0.0 && s < 1e9 => Some(Duration::from_secs_f64(s)),
            Some(s) => {
                return Err(crate::errors::usage(format!(
                    "time_limit must be a positive number of seconds, not {s}"
                )))
            }
        };
        let stop = Arc::new(AtomicBool::new(false));
        let memory = max_memory.unwrap_or(DEFAULT_MAX_MEMORY);
        let control = Control::new(stop.clone(), limit).with_memory(memory);
        Ok(Limits {
            stop,
            control,
            memory,
        })
    }
}

/// Runs `work` on its own thread and returns its result; on Ctrl-C (a pending signal that
/// `check_signals` raises) sets `stop`, gives the work [`WIND_DOWN`] to end, and raises.
pub fn interruptible<T, F>(py: Python<'_>, stop: &Arc<AtomicBool>, work: F) -> PyResult<T>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let (sender, receiver) = mpsc::sync_channel(1);
    // Waited on with the GIL released, so shared with the waiting closure through a lock.
    let receiver = std::sync::Mutex::new(receiver);
    let wait = |timeout| {
        let receiver = receiver.lock().expect("one waiter");
        receiver.recv_timeout(timeout)
    };
    std::thread::Builder::new()
        .name("puzzlec".to_string())
        .spawn(move || {
            // The caller may have stopped waiting (interrupted); nothing to do then.
            let _ = sender.send(work());
        })
        .map_err(|e| crate::errors::SolveError::new_err(format!("cannot start a thread: {e}")))?;
    loop {
        match py.detach(|| wait(POLL)) {
            Ok(result) => return Ok(result),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(crate::errors::SolveError::new_err(
                    "internal error: the puzzlec thread panicked",
                ))
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Err(interrupt) = py.check_signals() {
                    stop.store(true, Ordering::SeqCst);
                    let _ = py.detach(|| wait(WIND_DOWN));
                    return Err(interrupt);
                }
            }
        }
    }
}
