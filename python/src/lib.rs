//! The Python package `paradox`: the engine's State API for Python, built with PyO3.
//!
//! [`load`] reads a rule file or scenario into a [`game::PyGame`] (its problems become a
//! `paradox.LoadError` carrying the rendered text and each problem as a dict); a game starts
//! [`state::PyState`]s, which say who acts, list and name the legal actions, apply them, and show a
//! player what that player may see, as text ([`view`]) and as a tensor ([`tensor`]);
//! [`bots::PyBot`] wraps the engine's computer players; [`lab`] plays many matches in Rust
//! (`paradox.sim`, `paradox.compare`) and returns the command line's report. Everything goes
//! through the public API of the `paradox` crate, so it plays whichever engine that crate runs.
//! The OpenSpiel adapter is Python (`python/paradox/openspiel.py`), on top of this.

mod bots;
mod game;
mod lab;
mod problems;
mod state;
mod tensor;
mod view;

use pyo3::prelude::*;

pyo3::create_exception!(
    paradox,
    LoadError,
    pyo3::exceptions::PyException,
    "A rule file that could not be loaded: `text` is the diagnostics as `paradox check` prints \
     them, `problems` a list of dicts (file, code, message, label, help, line, column, start, end)."
);

/// Loads and checks a rule file or scenario.
///
/// `params` sets parameters (as `--set NAME=VALUE` does), `variant` chooses a named variant.
/// Raises `LoadError` with the diagnostics when the file has problems or cannot be read.
#[pyfunction]
#[pyo3(signature = (path, params = None, variant = None))]
fn load(
    py: Python<'_>,
    path: std::path::PathBuf,
    params: Option<&Bound<'_, pyo3::types::PyDict>>,
    variant: Option<String>,
) -> PyResult<game::PyGame> {
    let sets = match params {
        Some(dict) => problems::settings_of(dict)?,
        None => Vec::new(),
    };
    game::PyGame::load(py, &path, sets, variant)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(lab::sim, m)?)?;
    m.add_function(wrap_pyfunction!(lab::compare, m)?)?;
    m.add("LoadError", m.py().get_type::<LoadError>())?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<state::PyState>()?;
    m.add_class::<bots::PyBot>()?;
    Ok(())
}
