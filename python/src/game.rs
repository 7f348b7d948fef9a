//! `paradox.Game`: a loaded rule file, which starts matches and restores saved ones.

use crate::problems::load_error;
use crate::state::PyState;
use paradox::{Playable, Settings, Snapshot, State};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use std::path::{Path, PathBuf};

/// A checked rule file (or scenario), ready to play: made by `paradox.load`.
#[pyclass(name = "Game", module = "paradox", frozen)]
pub(crate) struct PyGame {
    pub(crate) playable: Playable,
    /// How it was loaded, to load it again when unpickled.
    path: PathBuf,
    sets: Vec<String>,
    /// What the rule file's flow holds, found once.
    facts: Facts,
}

/// What a game's flow holds that a caller may want to know before playing it.
#[derive(Clone, Copy, Default)]
struct Facts {
    /// A decision several seats make at once, in secret (`simultaneously`).
    secret: bool,
    /// A decision of several cards at once (`choose 2 cards`).
    groups: bool,
}

impl Facts {
    /// Found in the compiled game's serialized form, the public face of its statements.
    fn of(game: &paradox::Game) -> Facts {
        let mut facts = Facts::default();
        if let Ok(tree) = serde_json::to_value(game) {
            facts.visit(&tree);
        }
        facts
    }

    fn visit(&mut self, value: &serde_json::Value) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, inner) in map {
                    self.secret |= key == "Simultaneously";
                    self.groups |= key == "group" && !inner.is_null();
                    self.visit(inner);
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| self.visit(v)),
            _ => {}
        }
    }
}

impl PyGame {
    /// Loads a rule file with `--set` arguments and a variant.
    pub(crate) fn load(py: Python<'_>, path: &Path, sets: Vec<String>, variant: Option<String>) -> PyResult<PyGame> {
        let settings = Settings { sets: sets.clone(), variant };
        let game = paradox::load(path, &settings).map_err(|e| load_error(py, e))?;
        let facts = Facts::of(&game);
        Ok(PyGame { playable: Playable::new(std::sync::Arc::new(game)), path: path.to_path_buf(), sets, facts })
    }

    pub(crate) fn game(&self) -> &paradox::Game {
        self.playable.game()
    }

    fn seat_info(&self, seat: usize) -> PyResult<&str> {
        self.game().seats.get(seat).map(|s| s.display.as_str()).ok_or_else(|| PyIndexError::new_err("no such seat"))
    }
}

#[pymethods]
impl PyGame {
    /// The game's name.
    #[getter]
    fn name(&self) -> &str {
        &self.game().name
    }

    /// How many players (each deciding for one seat or more).
    #[getter]
    fn players(&self) -> usize {
        self.game().players
    }

    /// The seats' names, by seat number.
    #[getter]
    fn seats(&self) -> Vec<String> {
        self.game().seats.iter().map(|s| s.display.clone()).collect()
    }

    /// The cards' names, by card number.
    #[getter]
    fn cards(&self) -> Vec<String> {
        self.game().card_names.clone()
    }

    /// The variant chosen, if any.
    #[getter]
    fn variant(&self) -> Option<String> {
        self.game().variant.clone()
    }

    /// The names of the game's variants.
    #[getter]
    fn variants(&self) -> Vec<String> {
        self.game().variants.iter().map(|v| v.name.clone()).collect()
    }

    /// The parameters, each with its value in this game, as text.
    #[getter]
    fn params(&self) -> Vec<(String, String)> {
        let names = self.game().names();
        self.game().params.iter().map(|p| (p.name.clone(), names.show(p.value, &p.ty))).collect()
    }

    /// Whether some decision is made by several seats at once, in secret.
    #[getter]
    fn has_secret_choices(&self) -> bool {
        self.facts.secret
    }

    /// Whether some decision chooses several cards at once.
    #[getter]
    fn has_group_choices(&self) -> bool {
        self.facts.groups
    }

    /// The player who decides for `seat`.
    fn player_of(&self, seat: usize) -> PyResult<usize> {
        self.seat_info(seat)?;
        Ok(self.game().seats[seat].player)
    }

    /// The seats `player` decides for.
    fn seats_of(&self, player: usize) -> Vec<usize> {
        self.game().seats.iter().enumerate().filter(|(_, s)| s.player == player).map(|(i, _)| i).collect()
    }

    /// The length of `State.view_tensor` for this game.
    #[getter]
    fn view_tensor_size(&self) -> usize {
        crate::tensor::view_size(&self.playable)
    }

    /// The length of `State.information_tensor` for this game.
    #[getter]
    fn information_tensor_size(&self) -> usize {
        crate::tensor::information_size(&self.playable)
    }

    /// Starts a match: the same seed and actions always play the same match. With `log=False`
    /// the state keeps no event log (faster; `log_for` and `information_*` then see only the
    /// present).
    #[pyo3(signature = (seed = 0, log = true))]
    fn new_state(slf: &Bound<'_, Self>, seed: u64, log: bool) -> PyState {
        let playable = slf.get().playable.clone();
        let state = if log { State::new(playable, seed) } else { State::quiet(playable, seed) };
        PyState::new(slf.clone().unbind(), state)
    }

    /// Restores a state saved with `State.save()`: a damaged or foreign save raises `ValueError`.
    fn restore(slf: &Bound<'_, Self>, saved: &str) -> PyResult<PyState> {
        let snapshot: Snapshot =
            serde_json::from_str(saved).map_err(|e| PyValueError::new_err(format!("not a saved state: {e}")))?;
        State::restore(slf.get().playable.clone(), snapshot)
            .map(|state| PyState::new(slf.clone().unbind(), state))
            .map_err(|e| PyValueError::new_err(format!("the save does not fit this game: {e}")))
    }

    /// Pickled as how it was loaded: unpickling loads the rule file again.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let load = py.import("paradox._native")?.getattr("load")?;
        let params = PyDict::new(py);
        for set in &self.sets {
            let (name, value) = set.split_once('=').unwrap_or((set, ""));
            params.set_item(name, value)?;
        }
        let args = (self.path.clone(), params, self.game().variant.clone()).into_pyobject(py)?;
        Ok((load, args))
    }

    fn __repr__(&self) -> String {
        format!("<paradox.Game {:?}, {} players>", self.game().name, self.game().players)
    }
}
