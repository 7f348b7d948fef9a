//! `paradox.sim` and `paradox.compare`: many matches played in Rust on every core, their report
//! returned as the dict the command line's `--format json` prints. Both build a
//! `paradox::compare::request::Request` and read its report, the command line's own path.

use crate::problems::{load_error, settings_of};
use paradox::Settings;
use paradox::compare::Config;
use paradox::compare::report::Report;
use paradox::compare::request::{Refused, Request};
use paradox::compiled::Engine;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;

/// What `sim` and `compare` share besides the rule file and the configurations.
struct Options {
    games: u64,
    seed: u64,
    bots: String,
    skill: Option<String>,
    precision: Option<f64>,
    max_games: u64,
    engine: String,
    threads: Option<usize>,
}

/// Plays `configs` of the rule file at `path` and returns the report as a dict.
fn report(py: Python<'_>, path: PathBuf, configs: Vec<Config>, common: Settings, o: Options) -> PyResult<Py<PyAny>> {
    let engine = match o.engine.as_str() {
        "auto" => Engine::Auto,
        "compiled" => Engine::Compiled,
        "interpreted" => Engine::Interpreted,
        other => return Err(PyValueError::new_err(format!("engine `{other}`: write auto, compiled or interpreted"))),
    };
    let request = Request {
        file: path,
        configs,
        common,
        games: o.games,
        seed: o.seed,
        bots: o.bots,
        skill: o.skill,
        precision: o.precision,
        max_games: o.max_games,
        engine,
    };
    let prepared = request.prepare().map_err(|refused| match refused {
        Refused::Asked(message) => PyValueError::new_err(message),
        Refused::Load(_, e) => load_error(py, e),
    })?;
    let threads = o.threads;
    let json = py.detach(|| {
        let (tallies, _) = prepared.play(threads, None, None)?;
        Ok::<String, String>(Report::of(&prepared.run, &tallies).json())
    });
    let json = json.map_err(PyValueError::new_err)?;
    Ok(py.import("json")?.call_method1("loads", (json,))?.unbind())
}

/// The common settings of `params` and `variant`.
fn settings(params: Option<&Bound<'_, PyDict>>, variant: Option<String>) -> PyResult<Settings> {
    Ok(Settings { sets: params.map(settings_of).transpose()?.unwrap_or_default(), variant })
}

/// Plays `games` matches of one configuration (as `paradox sim`) and returns the report.
#[pyfunction]
#[pyo3(signature = (
    path, games = 100, *, params = None, variant = None, seed = 1, bots = "random".to_string(), skill = None,
    precision = None, max_games = 100_000, engine = "auto".to_string(), threads = None
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn sim(
    py: Python<'_>,
    path: PathBuf,
    games: u64,
    params: Option<&Bound<'_, PyDict>>,
    variant: Option<String>,
    seed: u64,
    bots: String,
    skill: Option<String>,
    precision: Option<f64>,
    max_games: u64,
    engine: String,
    threads: Option<usize>,
) -> PyResult<Py<PyAny>> {
    let config = Config::of(&settings(params, variant)?);
    let options = Options { games, seed, bots, skill, precision, max_games, engine, threads };
    report(py, path, vec![config], Settings::default(), options)
}

/// Plays two or more configurations from the same seeds (as `paradox compare`) and returns the
/// report.
#[pyfunction]
#[pyo3(signature = (
    path, configs, games = 1000, *, params = None, variant = None, seed = 1, bots = "random".to_string(),
    skill = None, precision = None, max_games = 100_000, engine = "auto".to_string(), threads = None
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn compare(
    py: Python<'_>,
    path: PathBuf,
    configs: Vec<String>,
    games: u64,
    params: Option<&Bound<'_, PyDict>>,
    variant: Option<String>,
    seed: u64,
    bots: String,
    skill: Option<String>,
    precision: Option<f64>,
    max_games: u64,
    engine: String,
    threads: Option<usize>,
) -> PyResult<Py<PyAny>> {
    if configs.len() < 2 {
        return Err(PyValueError::new_err(
            "compare: give two configurations or more, as in [\"base\", \"set:NAME=VALUE\"]",
        ));
    }
    let configs =
        configs.iter().map(|c| Config::parse(c)).collect::<Result<Vec<_>, _>>().map_err(PyValueError::new_err)?;
    let options = Options { games, seed, bots, skill, precision, max_games, engine, threads };
    report(py, path, configs, settings(params, variant)?, options)
}
