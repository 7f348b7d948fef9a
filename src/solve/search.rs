//! The search itself: alpha-beta over the State API with a transposition table, move
//! ordering and grouping of moves that lead to the same position. The table is keyed on what
//! the rest of the phase can tell apart ([`Abstraction`]), with values kept relative to the
//! quantity at the position where some part of it is only ever added to.

use super::relevance::Abstraction;
use super::{Task, Unsolvable, keys};
use crate::engine::{Action, Actor, State, players_of};
use crate::engine::{KeyHasher, Mix};
use crate::game::*;
use smallvec::SmallVec;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

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

/// What a search may use.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The most positions searched for one question.
    pub positions: u64,
    /// The most bytes for the table of positions (at [`BYTES_PER_POSITION`]).
    pub table_bytes: u64,
}

impl Limits {
    /// At most `positions` searched, the table within [`MAX_TABLE_BYTES`].
    pub fn positions(positions: u64) -> Limits {
        Limits { positions, table_bytes: MAX_TABLE_BYTES }
    }
}

/// The most bytes the table of positions takes unless asked otherwise: 2 GiB.
pub const MAX_TABLE_BYTES: u64 = 2 << 30;

/// What a position in the table takes at most: its entry (24 bytes and a control byte) in a
/// hash table at most 7/8 full, with the old table and the new one of twice its size both held
/// while it grows (3 x 8/7 x 25 bytes, about 86).
pub const BYTES_PER_POSITION: u64 = 96;

/// What the table knows of a position: a value that is exact or a bound (relative to the
/// quantity at the position where the abstraction says so), and the best move.
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
    /// What the table's keys leave out, worked out from the first position searched.
    abstraction: Abstraction,
    /// Whether a move broke what an abstraction assumed: from then on everything is keyed.
    refined: bool,
    table: HashMap<u64, Entry, BuildHasherDefault<KeyHasher>>,
    /// How often each seat's choice (by what it chooses) cut a search short.
    history: HashMap<(SeatId, Value, bool), u64, BuildHasherDefault<Mix>>,
    /// One state per depth, reused by `clone_from` (taken while a move is tried on it).
    scratch: Vec<Option<State>>,
    /// How many positions were searched.
    pub nodes: u64,
    /// The most positions it may search.
    budget: u64,
    /// The most bytes its table may take, at [`BYTES_PER_POSITION`].
    table_bytes: u64,
}

/// A move's outcome: the state after it, and whether the phase ended there.
enum After {
    Ended(i64),
    Open,
}

/// Why a search stopped short.
enum Halt {
    Unsolvable(Unsolvable),
    /// A move broke what the abstraction assumed: search again keying everything.
    Refine,
}

impl From<Unsolvable> for Halt {
    fn from(e: Unsolvable) -> Halt {
        Halt::Unsolvable(e)
    }
}

/// A position's key and the quantity at it that its table entry is relative to.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Keyed {
    key: u64,
    base: i64,
}

impl Searcher {
    /// A searcher for `task`, measuring `objective`, with an empty transposition table.
    pub fn new(task: Task, objective: Objective) -> Searcher {
        Searcher {
            task,
            objective,
            abstraction: Abstraction::exact(),
            refined: false,
            table: HashMap::default(),
            history: HashMap::default(),
            scratch: Vec::new(),
            nodes: 0,
            budget: u64::MAX,
            table_bytes: MAX_TABLE_BYTES,
        }
    }

    /// The same search, giving up past `budget` positions.
    pub fn within(self, budget: u64) -> Searcher {
        Searcher { budget, ..self }
    }

    /// The same search within `limits`: positions searched and memory for its table.
    pub fn limited(self, limits: Limits) -> Searcher {
        Searcher { budget: limits.positions, table_bytes: limits.table_bytes, ..self }
    }

    /// What the table's keys leave out (everything is kept once a move broke what that assumed).
    pub(super) fn abstraction(&self) -> &Abstraction {
        &self.abstraction
    }

    /// The value of `state` under best play alone (no value of each move, no line), and the
    /// positions searched: what the figures time.
    pub fn value_of(mut self, state: &State) -> Result<(i64, u64), Unsolvable> {
        let state = state.unobserved();
        let value = self.retrying(&state, |s| {
            let at = s.keyed(&state)?;
            s.search(&state, at, 0, i64::MIN, i64::MAX)
        })?;
        Ok((value, self.nodes))
    }

    /// The exact value of each legal action at `state`, by its number.
    pub fn move_values(&mut self, state: &State) -> Result<Vec<i64>, Unsolvable> {
        self.retrying(state, |s| s.values_of_moves(state))
    }

    /// The best line from `state` to the end of the phase, each move with its seat's name,
    /// and the state at the end.
    pub fn best_line(&mut self, state: &State) -> Result<(Vec<(String, String)>, State), Unsolvable> {
        self.retrying(state, |s| s.line_from(state))
    }

    /// Runs `search` keyed by what the rest of the phase from `state` can tell apart; if a move
    /// breaks what that assumed, runs it again keying everything.
    fn retrying<T>(
        &mut self,
        state: &State,
        mut search: impl FnMut(&mut Self) -> Result<T, Halt>,
    ) -> Result<T, Unsolvable> {
        let fitted = if self.refined { Abstraction::exact() } else { Abstraction::of(state, &self.task) };
        if fitted != self.abstraction {
            self.abstraction = fitted;
            self.table.clear();
        }
        match search(self) {
            Err(Halt::Refine) => {
                self.refined = true;
                self.abstraction = Abstraction::exact();
                self.table.clear();
                search(self).map_err(|halt| match halt {
                    Halt::Unsolvable(e) => e,
                    Halt::Refine => Unsolvable::Failed("a move broke an exact search key".into()),
                })
            }
            Err(Halt::Unsolvable(e)) => Err(e),
            Ok(found) => Ok(found),
        }
    }

    fn values_of_moves(&mut self, state: &State) -> Result<Vec<i64>, Halt> {
        let Actor::Seat(seat) = state.actor() else { return Err(Unsolvable::Secret.into()) };
        let mut child = state.clone();
        let mut values = Vec::new();
        for a in 0..state.action_count(seat) as Action {
            child.clone_from(state);
            values.push(match self.play(&mut child, seat, a)? {
                After::Ended(v) => v,
                After::Open => {
                    let at = self.keyed(&child)?;
                    self.search(&child, at, 0, i64::MIN, i64::MAX)?
                }
            });
        }
        Ok(values)
    }

    fn line_from(&mut self, state: &State) -> Result<(Vec<(String, String)>, State), Halt> {
        let mut line = Vec::new();
        let mut at = state.clone();
        loop {
            let Actor::Seat(seat) = at.actor() else { return Err(Unsolvable::Secret.into()) };
            let values = self.values_of_moves(&at)?;
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

    /// The key of `state` and the quantity its table entry is relative to.
    fn keyed(&self, state: &State) -> Result<Keyed, Halt> {
        let key = state.search_key(&self.abstraction.mask);
        if !self.abstraction.relative {
            return Ok(Keyed { key, base: 0 });
        }
        let base = keys(state, &self.task).and_then(|k| self.objective.value(&k));
        base.map(|base| Keyed { key, base }).ok_or(Halt::Refine)
    }

    /// Plays one action on `state`, refusing chance; the value where the phase ends there.
    fn play(&self, state: &mut State, seat: SeatId, action: Action) -> Result<After, Halt> {
        let drawn = state.chance_drawn();
        let guarded = self.guarded_cards(state);
        let ended = state.apply_within(seat, action, self.task.frame).map_err(|_| Unsolvable::Over)?;
        if let Some(problem) = state.failure() {
            return Err(Unsolvable::Failed(problem.message.clone()).into());
        }
        if guarded.iter().any(|&(card, pile)| state.position().place(card) != pile) {
            return Err(Halt::Refine);
        }
        let phase = || state.game().phases[self.task.until as usize].name.clone();
        if state.chance_drawn() != drawn {
            return Err(Unsolvable::Chance(phase()).into());
        }
        if ended || state.is_over() {
            let keys = keys(state, &self.task).ok_or_else(|| Unsolvable::NoValue(phase()))?;
            let value = self.objective.value(&keys).ok_or_else(|| Unsolvable::NoValue(phase()))?;
            return Ok(After::Ended(value));
        }
        Ok(After::Open)
    }

    /// The cards in the piles the abstraction needs to keep their cards, with their pile.
    fn guarded_cards(&self, state: &State) -> SmallVec<[(CardId, usize); 64]> {
        let position = state.position();
        let piles = self.abstraction.guarded.iter();
        piles.flat_map(|&p| position.pile(p).iter().map(move |&c| (c, p))).collect()
    }

    /// Alpha-beta: the value of `state` if it lies within `(alpha, beta)`, else a bound on the
    /// side it falls. `at` is the state's key and the quantity at it ([`Searcher::keyed`]).
    fn search(&mut self, state: &State, at: Keyed, depth: usize, mut alpha: i64, mut beta: i64) -> Result<i64, Halt> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(Unsolvable::TooLarge(self.budget).into());
        }
        let hint = self.table.get(&at.key).map(|e| Entry { value: e.value + at.base, ..*e });
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
        let Actor::Seat(seat) = state.actor() else { return Err(Unsolvable::Secret.into()) };
        let maxing = self.objective.maximises(state.game(), seat);
        let order = self.order(state, seat, hint.map(|e| e.best));
        if self.scratch.len() <= depth {
            self.scratch.resize_with(depth + 1, || None);
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut best = if maxing { i64::MIN } else { i64::MAX };
        let mut best_move = order.first().copied().unwrap_or(0);
        let mut seen: SmallVec<[Keyed; 16]> = SmallVec::new();
        for a in order {
            let mut child = match self.scratch[depth].take() {
                Some(mut kept) => {
                    kept.clone_from(state);
                    kept
                }
                None => state.clone(),
            };
            let v = self.try_move(&mut child, (seat, a, maxing), depth, (alpha, beta), &mut seen);
            self.scratch[depth] = Some(child);
            let Some(v) = v? else { continue };
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
        let more = (self.table.len() as u64 + 1).saturating_mul(BYTES_PER_POSITION);
        if more > self.table_bytes && !self.table.contains_key(&at.key) {
            return Err(Unsolvable::TooMuchMemory(self.table_bytes).into());
        }
        self.table.insert(at.key, Entry { value: best - at.base, bound, best: best_move });
        Ok(best)
    }

    /// Plays action `a` of `seat` on `child` (a copy of the position) and searches on from
    /// there; `None` where it leads to a position another move already led to (`seen`). After
    /// the first move searched, a move is first only tested against the best so far (a window
    /// of one value), and searched in full only where it does better.
    fn try_move(
        &mut self,
        child: &mut State,
        (seat, a, maxing): (SeatId, Action, bool),
        depth: usize,
        (alpha, beta): (i64, i64),
        seen: &mut SmallVec<[Keyed; 16]>,
    ) -> Result<Option<i64>, Halt> {
        let at = match self.play(child, seat, a)? {
            After::Ended(v) => return Ok(Some(v)),
            After::Open => self.keyed(child)?,
        };
        if seen.contains(&at) {
            return Ok(None);
        }
        let scout = !seen.is_empty() && if maxing { alpha > i64::MIN } else { beta < i64::MAX };
        seen.push(at);
        if scout && beta > alpha.saturating_add(1) {
            let (lo, hi) = if maxing { (alpha, alpha + 1) } else { (beta - 1, beta) };
            let v = self.search(child, at, depth + 1, lo, hi)?;
            // Outside the window: no better than the best so far, or good enough to cut.
            if v <= alpha || v >= beta {
                return Ok(Some(v));
            }
        }
        self.search(child, at, depth + 1, alpha, beta).map(Some)
    }

    /// The actions of `seat`, the table's best first, then by how often each cut a search short
    /// (in their order where that ties).
    fn order(&self, state: &State, seat: SeatId, first: Option<Action>) -> SmallVec<[Action; 16]> {
        let n = state.action_count(seat) as Action;
        let score = |a: Action| {
            if Some(a) == first {
                return u64::MAX;
            }
            state.action_key(seat, a).and_then(|(v, d)| self.history.get(&(seat, v, d)).copied()).unwrap_or(0)
        };
        let mut scored: SmallVec<[(std::cmp::Reverse<u64>, Action); 16]> =
            (0..n).map(|a| (std::cmp::Reverse(score(a)), a)).collect();
        scored.sort_by_key(|&(score, _)| score);
        scored.into_iter().map(|(_, a)| a).collect()
    }
}
