//! `puzzlec._native`: the puzzlec library as a Python extension module, a thin layer like the
//! command line. It converts arguments and answers, runs every search on a thread of its own
//! with the GIL released (so Ctrl-C is seen within [`run::POLL`]), and raises the library's
//! errors with the command line's one-line messages. The public names, their docstrings and
//! the Python-side classes are in `puzzlec/__init__.py`.

mod convert;
mod errors;
mod model;
mod run;

use pyo3::prelude::*;
use std::path::PathBuf;

/// Reads and validates the model file at `path`.
#[pyfunction]
fn load(py: Python<'_>, path: PathBuf) -> PyResult<model::Model> {
    model::Model::from_file(py, path)
}

/// Parses model-file `text`; errors name the model `name`.
#[pyfunction]
#[pyo3(signature = (text, name = "<string>"))]
fn loads(py: Python<'_>, text: String, name: &str) -> PyResult<model::Model> {
    model::Model::from_text(py, text, name)
}

/// Re-verifies the certificate folder `folder`: `{"steps": [...], "conclusion": str}`.
#[pyfunction]
fn check(py: Python<'_>, folder: PathBuf) -> PyResult<Py<PyAny>> {
    model::check(py, folder)
}

/// The module: the functions, the classes and the exceptions.
#[pymodule]
#[pyo3(name = "_native")]
fn puzzlec_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(loads, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_class::<model::Model>()?;
    m.add_class::<model::Drawing>()?;
    m.add_class::<model::Solutions>()?;
    errors::register(m)?;
    Ok(())
}
