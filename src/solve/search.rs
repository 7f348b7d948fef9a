//! The search itself: alpha-beta over the State API with a transposition table, move
//! ordering and grouping of moves that lead to the same position.

use super::{Task, Unsolvable, keys};
use crate::engine::{Action, Actor, State, players_of};
use crate::game::*;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The table's keys are hashes already: used as they are.
#[derive(Default)]
struct Same(u64);

impl Hasher for Same {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8) | u64::from(*b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// What one search optimises: a key, or the difference of two, and whose seats maximise it.
#[derive(Clone, Debug)]
pub struct Objective {
    plus: Value,
    minus: Option<Value>,
    /// The players whose seats maximise.
    players: Vec<usize>,
}

impl Objective {
    /// The first one's key minus the second one's, the first one maximising.
    pub fn difference(game: &Game, first: Value, second: Value) -> Objective {
        Objective { plus: first, minus: Some(second), players: players_of(game, first) }
    }

    /// One seat's or side's key against everyone else.
    pub fn alone(game: &Game, item: Value) -> Objective {
        Objective { plus: item, minus: None, players: players_of(game, item) }
    }

    /// Whether `seat` plays to raise the value.
    pub fn maximises(&self, game: &Game, seat: SeatId) -> bool {
        self.players.contains(&game.seats[seat as usize].player)
    }

    /// The value of the keys at the end.
    fn value(&self, keys: &[(Value, i64)]) -> Option<i64> {
        let of = |item: Value| keys.iter().find(|(v, _)| *v == item).map(|(_, k)| *k);
        Some(of(self.plus)? - self.minus.map_or(Some(0), of)?)
    }

    /// What is measured, in words.
    pub fn describe(&self, game: &Game) -> String {
        let names = game.names();
        match self.minus {
            Some(m) => format!("{} minus {}", names.show_loose(self.plus), names.show_loose(m)),
            None => format!("{}, guaranteed against all others", names.show_loose(self.plus)),
        }
    }

    /// Who maximises, in words.
    pub fn maximiser(&self, game: &Game) -> String {
        game.names().show_loose(self.plus)
    }
}

/// What the table knows of a position: a value that is exact or a bound, and the best move.
#[derive(Clone, Copy, Debug)]
struct Entry {
    value: i64,
    bound: Bound,
    best: Action,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One search: the table, the copies of states it plays moves on, and counts.
pub struct Searcher {
    task: Task,
    objective: Objective,
    table: HashMap<u64, Entry, BuildHasherDefault<Same>>,
    /// How often each seat's choice (by what it chooses) cut a search short.
    history: HashMap<(SeatId, Value, bool), u64>,
    /// One state per depth, reused by `clone_from` (taken while a move is tried on it).
    scratch: Vec<Option<State>>,
    /// How many positions were searched.
    pub nodes: u64,
    /// The most positions it may search.
    budget: u64,
}

/// A move's outcome: the state after it, and whether the phase ended there.
enum After {
    Ended(i64),
    Open,
}

impl Searcher {
    /// A searcher for `task`, measuring `objective`, with an empty transposition table.
    pub fn new(task: Task, objective: Objective) -> Searcher {
        Searcher {
            task,
            objective,
            table: HashMap::default(),
            history: HashMap::new(),
            scratch: Vec::new(),
            nodes: 0,
            budget: u64::MAX,
        }
    }

    /// The same search, giving up past `budget` positions.
    pub fn within(self, budget: u64) -> Searcher {
        Searcher { budget, ..self }
    }

    /// The value of `state` under best play alone (no value of each move, no line), and the
    /// positions searched: what the figures time.
    pub fn value_of(mut self, state: &State) -> Result<(i64, u64), Unsolvable> {
        let state = state.unobserved();
        let value = self.search(&state, state.search_key(), 0, i64::MIN, i64::MAX)?;
        Ok((value, self.nodes))
    }

    /// The exact value of each legal action at `state`, by its number.
    pub fn move_values(&mut self, state: &State) -> Result<Vec<i64>, Unsolvable> {
        let Actor::Seat(seat) = state.actor() else { return Err(Unsolvable::Secret) };
        let mut child = state.clone();
        let mut values = Vec::new();
        for a in 0..state.action_count(seat) as Action {
            child.clone_from(state);
            values.push(match self.play(&mut child, seat, a)? {
                After::Ended(v) => v,
                After::Open => self.search(&child, child.search_key(), 0, i64::MIN, i64::MAX)?,
            });
        }
        Ok(values)
    }

    /// The best line from `state` to the end of the phase, each move with its seat's name,
    /// and the state at the end.
    pub fn best_line(&mut self, state: &State) -> Result<(Vec<(String, String)>, State), Unsolvable> {
        let mut line = Vec::new();
        let mut at = state.clone();
        loop {
            let Actor::Seat(seat) = at.actor() else { return Err(Unsolvable::Secret) };
            let values = self.move_values(&at)?;
            let maxing = self.objective.maximises(at.game(), seat);
            let best = super::best(&values, maxing).ok_or(Unsolvable::Over)?;
            let a = values.iter().position(|v| *v == best).unwrap_or(0) as Action;
            let names = at.game().names();
            line.push((names.show_loose(Value::Seat(seat)), at.action_name(seat, a).unwrap_or_default()));
            if let After::Ended(_) = self.play(&mut at, seat, a)? {
                return Ok((line, at));
            }
        }
    }

    /// Plays one action on `state`, refusing chance; the value where the phase ends there.
    fn play(&self, state: &mut State, seat: SeatId, action: Action) -> Result<After, Unsolvable> {
        let drawn = state.chance_drawn();
        let ended = state.apply_within(seat, action, self.task.frame).map_err(|_| Unsolvable::Over)?;
        if let Some(problem) = state.failure() {
            return Err(Unsolvable::Failed(problem.message.clone()));
        }
        let phase = || state.game().phases[self.task.until as usize].name.clone();
        if state.chance_drawn() != drawn {
            return Err(Unsolvable::Chance(phase()));
        }
        if ended || state.is_over() {
            let keys = keys(state, &self.task).ok_or_else(|| Unsolvable::NoValue(phase()))?;
            return self.objective.value(&keys).map(After::Ended).ok_or_else(|| Unsolvable::NoValue(phase()));
        }
        Ok(After::Open)
    }

    /// Alpha-beta: the value of `state` if it lies within `(alpha, beta)`, else a bound on the
    /// side it falls.
    /// `key` is the state's [`State::search_key`].
    fn search(
        &mut self,
        state: &State,
        key: u64,
        depth: usize,
        mut alpha: i64,
        mut beta: i64,
    ) -> Result<i64, Unsolvable> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(Unsolvable::TooLarge(self.budget));
        }
        let hint = self.table.get(&key).copied();
        if let Some(e) = hint {
            match e.bound {
                Bound::Exact => return Ok(e.value),
                Bound::Lower => alpha = alpha.max(e.value),
                Bound::Upper => beta = beta.min(e.value),
            }
            if alpha >= beta {
                return Ok(e.value);
            }
        }
        let Actor::Seat(seat) = state.actor() else { return Err(Unsolvable::Secret) };
        let maxing = self.objective.maximises(state.game(), seat);
        let order = self.order(state, seat, hint.map(|e| e.best));
        if self.scratch.len() <= depth {
            self.scratch.resize_with(depth + 1, || None);
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut best = if maxing { i64::MIN } else { i64::MAX };
        let mut best_move = order.first().copied().unwrap_or(0);
        let mut seen: smallvec::SmallVec<[u64; 16]> = smallvec::SmallVec::new();
        for a in order {
            let mut child = match self.scratch[depth].take() {
                Some(mut kept) => {
                    kept.clone_from(state);
                    kept
                }
                None => state.clone(),
            };
            let after = self.play(&mut child, seat, a);
            let v = match after {
                Ok(After::Ended(v)) => Ok(v),
                Ok(After::Open) => {
                    let k = child.search_key();
                    if seen.contains(&k) {
                        self.scratch[depth] = Some(child);
                        continue;
                    }
                    seen.push(k);
                    self.search(&child, k, depth + 1, alpha, beta)
                }
                Err(e) => Err(e),
            };
            self.scratch[depth] = Some(child);
            let v = v?;
            if (maxing && v > best) || (!maxing && v < best) {
                best = v;
                best_move = a;
            }
            if maxing {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                let what = state.action_key(seat, a);
                if let Some((value, declared)) = what {
                    *self.history.entry((seat, value, declared)).or_default() += 1 << depth.min(20);
                }
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.insert(key, Entry { value: best, bound, best: best_move });
        Ok(best)
    }

    /// The actions of `seat`, the table's best first, then by how often each cut a search short.
    fn order(&self, state: &State, seat: SeatId, first: Option<Action>) -> Vec<Action> {
        let n = state.action_count(seat) as Action;
        let score = |a: Action| {
            if Some(a) == first {
                return u64::MAX;
            }
            state.action_key(seat, a).and_then(|(v, d)| self.history.get(&(seat, v, d)).copied()).unwrap_or(0)
        };
        let mut actions: Vec<Action> = (0..n).collect();
        actions.sort_by_key(|&a| std::cmp::Reverse(score(a)));
        actions
    }
}
