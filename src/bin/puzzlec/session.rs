//! What every command shares: the stop flag Ctrl-C raises, whether to colour, and the one
//! place a [`Control`] (a time limit and that flag) is made.

use crate::args::ColorChoice;
use puzzlec::base::Control;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The run of one command.
pub struct Session {
    /// Raised by the first Ctrl-C.
    stop: Arc<AtomicBool>,
    /// Whether text output is coloured.
    pub paint: bool,
}

impl Session {
    /// Installs the Ctrl-C handler (first: stop and print the best so far; second: give up
    /// at once) and settles the colour.
    pub fn start(color: ColorChoice) -> Session {
        let stop = Arc::new(AtomicBool::new(false));
        let handler_stop = stop.clone();
        let _ = ctrlc::set_handler(move || {
            if handler_stop.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
        let no_color = std::env::var("NO_COLOR").ok();
        let paint = color.enabled(std::io::stdout().is_terminal(), no_color.as_deref());
        Session { stop, paint }
    }

    /// A control that stops at `limit` or at Ctrl-C.
    pub fn control(&self, limit: Option<Duration>) -> Control {
        Control::new(self.stop.clone(), limit)
    }

    /// The flag Ctrl-C raises, for work that makes its own controls.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Whether Ctrl-C has been pressed.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }
}
