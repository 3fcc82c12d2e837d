//! The package's exceptions and how the library's errors become them, worded as the command
//! line words them (without its `error: ` prefix).

use puzzlec::base::error::InputError;
use puzzlec::cert::certificate::{CheckError, ProveError};
use puzzlec::driver::SolveError as LibrarySolveError;
use pyo3::create_exception;
use pyo3::prelude::*;

create_exception!(
    puzzlec,
    PuzzlecError,
    pyo3::exceptions::PyException,
    "The base of every error puzzlec raises."
);
create_exception!(
    puzzlec,
    ModelError,
    PuzzlecError,
    "A bad model: the message names the file, the line and the problem (`path`, `line`, `problem`)."
);
create_exception!(
    puzzlec,
    UsageError,
    PuzzlecError,
    "An argument that does not apply (an unknown backend, `at_least` on a puzzle without an objective, a model over `max_memory`), or an input file that cannot be read."
);
create_exception!(
    puzzlec,
    SolveError,
    PuzzlecError,
    "A backend failed, an external solver's answer was refused, or backends disagree."
);
create_exception!(
    puzzlec,
    StoppedError,
    PuzzlecError,
    "A time limit stopped work that has no partial answer (a certificate, an emitted file)."
);
create_exception!(
    puzzlec,
    CertificateError,
    PuzzlecError,
    "A certificate folder was refused: the message names the step that failed (`reason`)."
);

/// Adds the exceptions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("PuzzlecError", py.get_type::<PuzzlecError>())?;
    m.add("ModelError", py.get_type::<ModelError>())?;
    m.add("UsageError", py.get_type::<UsageError>())?;
    m.add("SolveError", py.get_type::<SolveError>())?;
    m.add("StoppedError", py.get_type::<StoppedError>())?;
    m.add("CertificateError", py.get_type::<CertificateError>())?;
    Ok(())
}

/// A bad model, with its file, line and problem as attributes.
pub fn model_error(py: Python<'_>, error: &InputError) -> PyErr {
    let err = ModelError::new_err(error.to_string());
    let value = err.value(py);
    let path = error.path.display().to_string();
    // Setting attributes on a fresh exception instance cannot fail in practice; the message
    // carries the same facts if it did.
    let _ = value.setattr("path", path);
    let _ = value.setattr("line", error.line);
    let _ = value.setattr("problem", error.message.clone());
    err
}

/// A usage error with `message`.
pub fn usage(message: impl Into<String>) -> PyErr {
    UsageError::new_err(message.into())
}

/// The library's solve error as the command line sorts it: a setting that does not apply is
/// a usage error; the rest are failures.
pub fn solve_error(error: LibrarySolveError) -> PyErr {
    match error {
        LibrarySolveError::Usage(message) => UsageError::new_err(message),
        LibrarySolveError::Misused(misuse) => UsageError::new_err(misuse.to_string()),
        error => SolveError::new_err(error.to_string()),
    }
}

/// Why `prove` wrote no certificate, sorted as the command line sorts it.
pub fn prove_error(py: Python<'_>, error: ProveError) -> PyErr {
    match error {
        ProveError::Input(e) => model_error(py, &e),
        ProveError::Misused { .. } | ProveError::Lazy { .. } | ProveError::Write { .. } => {
            UsageError::new_err(error.to_string())
        }
        ProveError::Stopped(_) => StoppedError::new_err(error.to_string()),
        ProveError::Solver(_) | ProveError::Internal(_) | ProveError::Refused(_) => {
            SolveError::new_err(error.to_string())
        }
    }
}

/// A refused certificate: the message is the command line's, `reason` the failed step.
pub fn check_error(py: Python<'_>, error: CheckError) -> PyErr {
    let (message, reason) = match error {
        CheckError::NotACertificate(message) => (message.clone(), message),
        CheckError::Failed(message) => (format!("certificate check failed: {message}"), message),
        CheckError::UnderWay(checked) => (checked.conclusion.clone(), checked.conclusion),
    };
    let err = CertificateError::new_err(message);
    let _ = err.value(py).setattr("reason", reason);
    err
}
