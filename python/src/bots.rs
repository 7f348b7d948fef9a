//! `paradox.Bot`: one of the engine's computer players, deciding for one player from what that
//! player may see.

use crate::state::PyState;
use paradox::{Action, Bot, Budget, Kind, SeatId};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A computer player for one player of a game: `kind` is `"default"` (the search the `paradox`
/// command plays), `"mcts"` (the same), `"random"` or `"solver"`. Seeded as `paradox trace
/// --seed SEED` seats it: the same seed, player and positions give the same choices. A search bot
/// asked through a match learns from its log, as `trace`'s do, how the others make secret choices
/// (a state made with `log=False` keeps none). A search's budget may be set with `iterations` and
/// `work`.
#[pyclass(name = "Bot", module = "paradox", unsendable)]
pub(crate) struct PyBot {
    bot: Box<dyn Bot>,
    player: usize,
    kind: String,
}

#[pymethods]
impl PyBot {
    #[new]
    #[pyo3(signature = (kind, player, seed = 0, iterations = None, work = None))]
    fn new(kind: &str, player: usize, seed: u64, iterations: Option<u32>, work: Option<u64>) -> PyResult<PyBot> {
        let parsed = paradox::parse_kinds(kind, 1).map_err(PyValueError::new_err)?[0];
        let parsed = match parsed {
            Kind::Search(budget) => Kind::Search(Budget {
                iterations: iterations.unwrap_or(budget.iterations),
                work: work.unwrap_or(budget.work),
            }),
            _ if iterations.is_some() || work.is_some() => {
                return Err(PyValueError::new_err(format!("a {kind} bot has no budget to set")));
            }
            other => other,
        };
        Ok(PyBot { bot: parsed.bot(seed, player), player, kind: kind.to_string() })
    }

    /// The player this bot decides for.
    #[getter]
    fn player(&self) -> usize {
        self.player
    }

    /// Picks an action for `seat` (a seat of this bot's player) from what the player may see of
    /// `state`; `None` when the seat has nothing to choose.
    fn choose(&mut self, state: &PyState, seat: SeatId) -> PyResult<Option<Action>> {
        state.check_player(self.player)?;
        Ok(self.bot.choose(&state.inner.seen_by(self.player), seat))
    }

    fn __repr__(&self) -> String {
        format!("<paradox.Bot {:?} for player {}>", self.kind, self.player)
    }
}
