//! SAT enumeration that a time limit or Ctrl-C ends at once: varisat on a thread of its
//! own, each model handed back over a channel.

use crate::base::Control;
use crate::model::{Assignment, Model, Var};
use crate::oracle::loops::Enumeration;
use crate::oracle::{varisat, OracleError};
use std::sync::mpsc;
use std::time::Duration;

/// What the SAT enumeration thread sends back.
enum Sent {
    /// One more model.
    Model(Assignment),
    /// The enumeration's end.
    Done(Result<Option<Enumeration>, OracleError>),
}

/// How often a waiting count looks at the clock and the Ctrl-C flag.
const POLL: Duration = Duration::from_millis(20);

/// [`varisat::enumerate`] on the model `compile` builds, run on a thread of its own, each
/// model handed to `on_model` here. One varisat call cannot be interrupted, and one can
/// take seconds; so at the deadline or Ctrl-C this returns at once with the models handed
/// out so far (incomplete) and abandons the thread, which ends after its call (the models
/// it still finds are dropped). `on_model` returning false stops the enumeration too.
pub(super) fn enumerate_stoppable(
    compile: impl FnOnce() -> Model + Send + 'static,
    project: Vec<Var>,
    at_least: Option<usize>,
    control: &Control,
    on_model: &mut dyn FnMut(&Assignment) -> bool,
) -> Result<Option<Enumeration>, OracleError> {
    let (sender, receiver) = mpsc::channel();
    let thread_control = control.clone();
    std::thread::Builder::new()
        .name("puzzlec-sat-count".into())
        .spawn(move || {
            let model = compile();
            let models = sender.clone();
            let result = varisat::enumerate(
                &model,
                &project,
                at_least,
                &thread_control,
                // A receiver that has gone (stopped, or told to stop) ends the run.
                &mut |assignment| models.send(Sent::Model(assignment.clone())).is_ok(),
            );
            let _ = sender.send(Sent::Done(result));
        })
        .map_err(|e| OracleError::Embedded(format!("cannot start a thread: {e}")))?;
    let mut handed = 0;
    let so_far = |count| {
        Ok(Some(Enumeration {
            count,
            complete: false,
            ..Enumeration::default()
        }))
    };
    loop {
        if control.should_stop() {
            return so_far(handed);
        }
        match receiver.recv_timeout(POLL) {
            Ok(Sent::Model(assignment)) => {
                handed += 1;
                if !on_model(&assignment) {
                    return so_far(handed);
                }
            }
            Ok(Sent::Done(result)) => return result,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(OracleError::Embedded(
                    "the SAT enumeration thread ended without an answer".into(),
                ))
            }
        }
    }
}
