//! What goes into loading a game from Python and what comes back when it fails: parameters as
//! `--set` would give them, and a loading error as a `paradox.LoadError`.

use crate::LoadError;
use paradox::{Findings, Problem, Style};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList};

/// How wide the rendered diagnostics are drawn.
const WIDTH: usize = 100;

/// The parameters of a dict as `--set NAME=VALUE` arguments: `True` is `true`, numbers and
/// names are written as they are.
pub(crate) fn settings_of(params: &Bound<'_, PyDict>) -> PyResult<Vec<String>> {
    params
        .iter()
        .map(|(name, value)| {
            let name: String = name.extract()?;
            let value = if value.is_instance_of::<PyBool>() {
                if value.extract::<bool>()? { "true".to_string() } else { "false".to_string() }
            } else {
                value.str()?.to_string()
            };
            Ok(format!("{name}={value}"))
        })
        .collect()
}

/// The error raised for a game that could not be loaded.
pub(crate) fn load_error(py: Python<'_>, error: paradox::LoadError) -> PyErr {
    match error {
        paradox::LoadError::Io(message) => {
            raise(py, paradox::printable::escape(&message).into_owned(), PyList::empty(py))
        }
        paradox::LoadError::Invalid(found) => {
            let text = paradox::render(&found, Style::Plain, WIDTH);
            match problem_list(py, &found) {
                Ok(list) => raise(py, text, list),
                Err(e) => e,
            }
        }
    }
}

/// A `LoadError` carrying `text` and its `problems`.
fn raise(py: Python<'_>, text: String, problems: Bound<'_, PyList>) -> PyErr {
    let err = LoadError::new_err(text.clone());
    let value = err.value(py);
    let set = value.setattr("text", text).and_then(|()| value.setattr("problems", problems));
    set.err().unwrap_or(err)
}

/// Each problem as a dict.
fn problem_list<'py>(py: Python<'py>, found: &[Findings]) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for findings in found {
        for problem in &findings.problems {
            list.append(problem_dict(py, findings, problem)?)?;
        }
    }
    Ok(list)
}

fn problem_dict<'py>(py: Python<'py>, findings: &Findings, problem: &Problem) -> PyResult<Bound<'py, PyDict>> {
    let text = &findings.source.text;
    let (line, column) = line_column(text, problem.span.start);
    let dict = PyDict::new(py);
    dict.set_item("file", &findings.source.name)?;
    dict.set_item("code", problem.code.as_str())?;
    dict.set_item("message", &problem.message)?;
    dict.set_item("label", &problem.label)?;
    dict.set_item("help", &problem.help)?;
    dict.set_item("line", line)?;
    dict.set_item("column", column)?;
    dict.set_item("start", problem.span.start)?;
    dict.set_item("end", problem.span.end)?;
    Ok(dict)
}

/// The line and column (both from 1, the column in characters) of a byte offset in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}
