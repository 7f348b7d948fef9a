//! `paradox.State`: a match in progress, the engine's State API as Python sees it.

use crate::game::PyGame;
use paradox::{Action, Actor, SeatId, State};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A match in progress: who acts, the legal actions and their names, applying them, and what
/// each player may see. Seats and players are numbered from 0; an action is a number among its
/// seat's legal actions now. Chance never waits on anyone: it is drawn inside the state from its
/// seed, so the same seed and actions replay the same match.
#[pyclass(name = "State", module = "paradox")]
pub(crate) struct PyState {
    pub(crate) inner: State,
    /// The game it is a match of, to pickle it.
    game: Py<PyGame>,
}

impl PyState {
    pub(crate) fn new(game: Py<PyGame>, inner: State) -> PyState {
        PyState { inner, game }
    }

    pub(crate) fn check_player(&self, player: usize) -> PyResult<()> {
        if player < self.inner.game().players {
            Ok(())
        } else {
            Err(PyIndexError::new_err(format!("no player {player}: the game has {}", self.inner.game().players)))
        }
    }

    fn check_seat(&self, seat: SeatId) -> PyResult<()> {
        if (seat as usize) < self.inner.game().seats.len() {
            Ok(())
        } else {
            Err(PyIndexError::new_err(format!("no seat {seat}: the game has {}", self.inner.game().seats.len())))
        }
    }

    fn refused(e: paradox::Refusal) -> PyErr {
        PyValueError::new_err(e.to_string())
    }
}

#[pymethods]
impl PyState {
    /// The game this is a match of.
    #[getter]
    fn game(&self, py: Python<'_>) -> Py<PyGame> {
        self.game.clone_ref(py)
    }

    /// The seats to decide now: one seat in the open, several deciding at once in secret (only
    /// those still to choose), none when the match is over.
    fn to_act(&self) -> Vec<usize> {
        // As numbers, not the bytes PyO3 would make of a list of `u8` seats.
        let seats = match self.inner.actor() {
            Actor::Seat(s) => vec![s],
            Actor::Together(seats) => seats,
            Actor::Nobody => Vec::new(),
        };
        seats.into_iter().map(usize::from).collect()
    }

    /// Whether the seats to act decide at once, in secret (a joint action).
    fn is_simultaneous(&self) -> bool {
        matches!(self.inner.actor(), Actor::Together(_))
    }

    /// The one seat to decide now in the open, or `None`.
    fn current_seat(&self) -> Option<SeatId> {
        self.inner.single_actor()
    }

    /// Whether the match has ended (or was stopped by a run-time problem: see `failure`).
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// The run-time problem that stopped the match, if one did.
    fn failure(&self) -> Option<String> {
        self.inner.failure().map(|p| format!("{}: {}", p.message, p.label))
    }

    /// Each player's return: 1 for a win, -1 for a loss, 0 for a draw; all 0 until the end.
    fn returns(&self) -> Vec<f64> {
        match self.inner.outcome() {
            Some(o) => o.returns.iter().map(|&r| r as f64).collect(),
            None => vec![0.0; self.inner.game().players],
        }
    }

    /// The winning players once the match is over (empty for a draw or while it goes on).
    fn winners(&self) -> Vec<usize> {
        self.inner.outcome().map_or(Vec::new(), |o| o.winners.clone())
    }

    /// The result's key for each seat or side (`chips`, `score`) as the match stands.
    fn standings(&self) -> Vec<(String, i64)> {
        self.inner.standings()
    }

    /// The legal actions of `seat`, `0..n` (empty when it is not to decide).
    fn legal_actions(&self, seat: SeatId) -> Vec<Action> {
        self.inner.legal_actions(seat)
    }

    /// The legal actions of `seat` in the order people are shown them (cards sorted).
    fn shown_actions(&self, seat: SeatId) -> Vec<Action> {
        self.inner.shown_actions(seat)
    }

    /// How a person names an action: "red 5", "give to West".
    fn action_name(&self, seat: SeatId, action: Action) -> PyResult<String> {
        self.inner.action_name(seat, action).ok_or_else(|| PyValueError::new_err(format!("no action {action} here")))
    }

    /// The legal actions of `seat` with their names, in the order people are shown them.
    fn actions(&self, seat: SeatId) -> Vec<(Action, String)> {
        let named = |a: Action| self.inner.action_name(seat, a).map(|name| (a, name));
        self.inner.shown_actions(seat).into_iter().filter_map(named).collect()
    }

    /// Makes `seat`'s choice and plays on to the next decision. Raises `ValueError` when the
    /// seat does not decide now or has no such action (the state is then unchanged).
    fn apply(&mut self, seat: SeatId, action: Action) -> PyResult<()> {
        self.check_seat(seat)?;
        self.inner.apply(seat, action).map_err(Self::refused)
    }

    /// Makes the choices of several seats deciding at once: `[(seat, action), ...]`. All are
    /// checked before any is made, so a refused joint action leaves the state unchanged.
    fn apply_joint(&mut self, actions: Vec<(SeatId, Action)>) -> PyResult<()> {
        let to_act = self.to_act();
        for (i, &(seat, action)) in actions.iter().enumerate() {
            self.check_seat(seat)?;
            if !to_act.contains(&usize::from(seat)) || actions[..i].iter().any(|(s, _)| *s == seat) {
                let name = &self.inner.game().seats[seat as usize].display;
                return Err(PyValueError::new_err(format!("{name} does not decide now, or is named twice")));
            }
            if action as usize >= self.inner.action_count(seat) {
                return Err(PyValueError::new_err(format!("there is no action {action} here")));
            }
        }
        for (seat, action) in actions {
            self.inner.apply(seat, action).map_err(Self::refused)?;
        }
        Ok(())
    }

    /// The position as `player` may see it, as text: the piles (cards where the player sees
    /// them, else how many, else nothing), the variables, who is to act and the `show` lines.
    /// `None` shows everything (for a referee, never for a player).
    #[pyo3(signature = (player = None))]
    fn view_text(&self, player: Option<usize>) -> PyResult<String> {
        if let Some(p) = player {
            self.check_player(p)?;
        }
        Ok(crate::view::text(&self.inner, player))
    }

    /// The position as `player` may see it, as numbers (see the package's README for the layout).
    fn view_tensor(&self, player: usize) -> PyResult<Vec<f32>> {
        self.check_player(player)?;
        Ok(crate::tensor::view(&self.inner, player))
    }

    /// What `player` knows, as text: the event log as the player may read it, then the view.
    fn information_text(&self, player: usize) -> PyResult<String> {
        self.check_player(player)?;
        let mut text = String::new();
        for line in self.inner.log_for(player) {
            text.push_str(&paradox::printable::escape(&line));
            text.push('\n');
        }
        text.push_str(&crate::view::text(&self.inner, Some(player)));
        Ok(text)
    }

    /// What `player` knows, as numbers: the view tensor, then for each card and pile whether the
    /// player has seen the card there.
    fn information_tensor(&self, player: usize) -> PyResult<Vec<f32>> {
        self.check_player(player)?;
        Ok(crate::tensor::information(&self.inner, player))
    }

    /// The event log as `player` may read it.
    fn log_for(&self, player: usize) -> PyResult<Vec<String>> {
        self.check_player(player)?;
        Ok(self.inner.log_for(player).iter().map(|l| paradox::printable::escape(l).into_owned()).collect())
    }

    /// The rule file's `show` lines as the match stands (seen by every player).
    fn status(&self) -> Vec<String> {
        self.inner.status().iter().map(|l| paradox::printable::escape(l).into_owned()).collect()
    }

    /// How many decisions the match has seen.
    #[getter]
    fn decisions(&self) -> u64 {
        self.inner.seen_by(0).decisions()
    }

    /// The work this state has done (statements run and evaluation steps), the same on every run.
    #[getter]
    fn work(&self) -> u64 {
        self.inner.work()
    }

    /// A copy that plays on apart from this one.
    fn clone(&self, py: Python<'_>) -> PyState {
        PyState::new(self.game.clone_ref(py), self.inner.clone())
    }

    fn __copy__(&self, py: Python<'_>) -> PyState {
        self.clone(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyState {
        self.clone(py)
    }

    /// Pickled as its save (`save()`) and its game.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((self.game.bind(py).getattr("restore")?, (self.save(false)?,)))
    }

    /// A whole match `player` cannot tell from this one, with the cards the player does not
    /// know dealt afresh and chance reseeded from `seed` (for search). It keeps no event log.
    fn sample(&self, py: Python<'_>, player: usize, seed: u64) -> PyResult<PyState> {
        self.check_player(player)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        Ok(PyState::new(self.game.clone_ref(py), self.inner.seen_by(player).sample(&mut rng)))
    }

    /// The state as JSON text, for `Game.restore`. With `sealed=True`, as a save that players may
    /// read: in a secret decision, as it stood before anyone chose.
    #[pyo3(signature = (sealed = false))]
    fn save(&self, sealed: bool) -> PyResult<String> {
        let snapshot = if sealed { self.inner.sealed_snapshot() } else { self.inner.snapshot() };
        serde_json::to_string(&snapshot).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    fn __str__(&self) -> String {
        crate::view::text(&self.inner, None)
    }

    fn __repr__(&self) -> String {
        format!("<paradox.State of {:?}, {} decisions>", self.inner.game().name, self.decisions())
    }
}
