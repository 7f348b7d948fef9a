//! The engine: a game in progress, behind the one API every front end uses (REPL, bots,
//! simulator, tests).
//!
//! `State::new(game, seed)` starts a match of a [`Playable`] game; [`State::actor`] says who must
//! decide (one seat, several seats at once in secret, or nobody when the match is over);
//! [`State::legal_actions`] and [`State::action_name`] list the choices ([`State::forbidden`] says
//! why the others are not allowed); [`State::apply`] makes one; [`State::status`] gives the rule
//! file's `show` lines.
//! Chance is drawn from one seeded generator inside the state, so the same seed and actions
//! replay exactly.
//!
//! A state is three things kept apart:
//! - the *program* ([`Program`]): the game lowered for the interpreter, built once per
//!   [`Playable`] and shared by the matches started from it, read by reference;
//! - the *position* ([`Position`]): plain data that clones cheaply, compares and hashes;
//! - the *observers*: the event log and what each player knows of the cards, fed by the same
//!   few changes (a card moved, a pile shuffled, a choice made) and absent when nobody needs
//!   them (random play, the worlds a bot searches).

mod compile;
mod decide;
mod deduction;
mod estimate;
mod events;
mod groups;
mod kernel;
mod knowledge;
mod layout;
mod lower;
mod mask;
mod piles;
mod position;
mod program;
mod reason;
mod repeat;
mod restore;
mod run;
mod sample;
mod seen;
mod status;
mod stop;
mod tally;
mod view;
mod vm;

pub(crate) use estimate::ESTIMATE;
pub use events::Event;
pub(crate) use events::{Numbering, card_order, counted, counted_names, pile_label, pile_name, suit_attr, zone_label};
pub(crate) use kernel::{Kernel, Keyed, Lent, Ran, ReadParts};
pub(crate) use knowledge::{Exclusion, Inference, Knowledge};
pub use layout::Layout;
pub(crate) use lower::CardLowering;
pub(crate) use mask::Mask;
pub(crate) use position::{Frame, Loc, MAX_DECISION_COUNT, Opt, Secret};
pub use position::{Outcome, Pending, Position};
pub(crate) use program::Program;
pub(crate) use repeat::KeyHasher;
pub use repeat::REPEATS;
pub use restore::Unfit;
pub use sample::Sampler;
pub use seen::Seen;
pub(crate) use stop::{KeyMask, Mix};
pub use view::{PileView, View};

use crate::diagnostic::Problem;
use crate::game::*;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A choice among the legal actions of one decision, by its index in the list.
pub type Action = u32;

/// Who must act now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Actor {
    /// One seat decides, in the open.
    Seat(SeatId),
    /// These seats each decide in secret, at the same time; any order of `apply` works.
    Together(Vec<SeatId>),
    /// The match is over, or stopped by a run-time problem.
    Nobody,
}

/// What watches a match as it runs: the event log and the players' knowledge, each kept only
/// when asked for.
#[derive(Clone, Debug, Default)]
pub(crate) struct Observers {
    pub log: Option<Vec<Event>>,
    pub knowledge: Option<Knowledge>,
    /// How often each position was met at a decision, to stop a match that goes round in circles.
    pub repeats: Option<repeat::Repeats>,
}

/// A compiled game with its lowered program: what matches are started from. The game is lowered
/// once, when this is made, and every clone shares it; an `Arc<Game>` converts into one, so a
/// caller that starts many matches of a game makes one and clones it.
///
/// It may carry a kernel, a faster engine for its flow made elsewhere: the states started
/// from it that keep no observers run their flow with it.
#[derive(Clone)]
pub struct Playable {
    game: Arc<Game>,
    program: Arc<Program>,
    kernel: Option<Arc<dyn Kernel>>,
}

impl Playable {
    /// Lowers the game for the interpreter.
    pub fn new(game: Arc<Game>) -> Playable {
        let program = Arc::new(Program::new(&game));
        Playable { game, program, kernel: None }
    }

    /// The compiled game.
    pub fn game(&self) -> &Arc<Game> {
        &self.game
    }

    /// The game lowered for the interpreter.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The same game, whose states without observers run their flow with `kernel`.
    pub(crate) fn with_kernel(self, kernel: Arc<dyn Kernel>) -> Playable {
        Playable { kernel: Some(kernel), ..self }
    }

    /// Whether the states started from this run their flow with a kernel where they can.
    pub fn has_kernel(&self) -> bool {
        self.kernel.is_some()
    }
}

impl From<Arc<Game>> for Playable {
    fn from(game: Arc<Game>) -> Playable {
        Playable::new(game)
    }
}

impl std::fmt::Debug for Playable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Playable")
            .field("game", &self.game)
            .field("kernel", &self.kernel.is_some())
            .finish_non_exhaustive()
    }
}

/// A match in progress of a compiled game. `clone_from` reuses the memory of the state it
/// overwrites (see [`Position`]).
#[derive(Debug)]
pub struct State {
    game: Arc<Game>,
    prog: Arc<Program>,
    /// The faster engine of the flow, used while the state keeps no observers.
    kernel: Option<Arc<dyn Kernel>>,
    pos: Position,
    obs: Observers,
    /// Steps spent since the last decision: statements run and evaluation work share one budget.
    spent: usize,
    /// Steps spent before the last decision, since the state was made or restored.
    work: u64,
    /// Where the steps went, once half a budget is spent (see [`tally`]); `None` before.
    tally: Option<Box<tally::StepTally>>,
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            game: self.game.clone(),
            prog: self.prog.clone(),
            kernel: self.kernel.clone(),
            pos: self.pos.clone(),
            obs: self.obs.clone(),
            spent: self.spent,
            work: self.work,
            tally: self.tally.clone(),
        }
    }

    fn clone_from(&mut self, o: &State) {
        self.share(o);
        self.pos.clone_from(&o.pos);
        self.obs.clone_from(&o.obs);
        self.spent = o.spent;
        self.work = o.work;
        self.tally.clone_from(&o.tally);
    }
}

impl State {
    /// Plays the game `o` plays, with its program and kernel.
    fn share(&mut self, o: &State) {
        if !Arc::ptr_eq(&self.game, &o.game) {
            self.game = o.game.clone();
        }
        if !Arc::ptr_eq(&self.prog, &o.prog) {
            self.prog = o.prog.clone();
        }
        self.kernel.clone_from(&o.kernel);
    }
}

/// A whole state as plain data, for copies in memory and tests: the position and what its
/// observers had gathered. (It holds every hand and the random generator's state: save files
/// hold the moves instead, see `paradox::repl`.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Where the match stands.
    pub position: Position,
    /// The events so far, if the state kept them.
    pub log: Option<Vec<Event>>,
    /// What each player knows of the cards, if the state kept it.
    pub knowledge: Option<Knowledge>,
}

/// Why an action was refused; the state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("it is not {0}'s turn to decide")]
    /// The seat named does not decide now.
    NotYourTurn(String),
    #[error("{0} already chose")]
    /// The seat named has already made its secret choice in this round.
    AlreadyChose(String),
    #[error("there is no action {0} here")]
    /// The seat has no action of this number now.
    NoSuchAction(Action),
    #[error("the match is over")]
    /// The match has ended: nobody decides any more.
    Over,
}

impl State {
    /// Starts a match: variables take their initial values and the flow runs to the first
    /// decision. The event log and the players' knowledge are kept.
    pub fn new(game: impl Into<Playable>, seed: u64) -> State {
        State::with(game.into(), seed, true, true)
    }

    /// The same match without an event log (for simulations whose bots search).
    pub fn quiet(game: impl Into<Playable>, seed: u64) -> State {
        State::with(game.into(), seed, false, true)
    }

    /// The same match without a log, and without keeping what each player knows of the cards:
    /// the fastest, for matches where no bot searches (random play).
    pub fn bare(game: impl Into<Playable>, seed: u64) -> State {
        State::with(game.into(), seed, false, false)
    }

    fn with(playable: Playable, seed: u64, logging: bool, knowing: bool) -> State {
        let Playable { game, program: prog, kernel } = playable;
        let layout = &prog.layout;
        let pos = Position::start(&game, &prog, seed);
        let obs = Observers {
            log: logging.then(Vec::new),
            knowledge: knowing.then(|| Knowledge::first(&game, layout)),
            repeats: Some(Default::default()),
        };
        let mut state = State { game, prog, kernel, pos, obs, spent: 0, work: 0, tally: None };
        state.flow().start();
        state.note_position();
        state
    }

    /// Restores a snapshot of this game, after checking that it fits the game: a damaged or
    /// foreign one is refused ([`Unfit`] says why), never played.
    pub fn restore(game: impl Into<Playable>, saved: Snapshot) -> Result<State, Unfit> {
        let Playable { game, program: prog, kernel } = game.into();
        restore::fits(&game, &prog, &saved)?;
        let Snapshot { mut position, log, knowledge } = saved;
        position.rehash(&prog);
        let obs = Observers { log, knowledge, repeats: Some(Default::default()) };
        let state = State { game, prog, kernel, pos: position, obs, spent: 0, work: 0, tally: None };
        state.asks_as_saved()?;
        Ok(state)
    }

    /// The state as plain data ([`Snapshot`]).
    pub fn snapshot(&self) -> Snapshot {
        Snapshot { position: self.pos.clone(), log: self.obs.log.clone(), knowledge: self.obs.knowledge.clone() }
    }

    /// The state as a save that players may read: in a secret decision, as it stood before
    /// anyone chose, so that no choice still sealed can be read from it (the seats of
    /// [`State::chosen_in_secret`] choose again on loading).
    pub fn sealed_snapshot(&self) -> Snapshot {
        let mut saved = self.snapshot();
        if let Pending::Together { seats, .. } = &mut saved.position.pending {
            for secret in seats.iter_mut() {
                if secret.chosen.take().is_some() {
                    saved.position.decisions -= 1;
                }
            }
        }
        saved
    }

    /// The seats that have made their choice in the secret decision waiting now, still sealed
    /// (none outside a secret decision): a save leaves those choices out, and computer players
    /// choose again on loading, from the same seed and position, and so choose the same.
    pub fn chosen_in_secret(&self) -> Vec<SeatId> {
        match &self.pos.pending {
            Pending::Together { seats, .. } => seats.iter().filter(|s| s.chosen.is_some()).map(|s| s.seat).collect(),
            _ => Vec::new(),
        }
    }

    /// The compiled game being played.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game lowered for the interpreter.
    pub fn program(&self) -> &Program {
        &self.prog
    }

    /// The game and its lowered program, to start more matches of it without lowering it again.
    pub fn playable(&self) -> Playable {
        Playable { game: self.game.clone(), program: self.prog.clone(), kernel: self.kernel.clone() }
    }

    /// Lets the worlds searched from this state (and its copies without observers) run their
    /// flow with `faster`'s kernel: the compiled engine of the same game, built after the match
    /// began. The match plays on as before, as it does on every engine. Only a kernel made for
    /// this very game (the same `Arc`) is taken: one of a game loaded apart could be another's.
    pub fn adopt_kernel(&mut self, faster: &Playable) {
        if Arc::ptr_eq(&self.game, &faster.game) && faster.kernel.is_some() {
            self.kernel.clone_from(&faster.kernel);
        }
    }

    /// The position: the plain data of where the match stands.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The outermost phase the flow is in now, and how many times that phase has been entered
    /// so far: the match's round and its number, for statistics. `None` outside every phase.
    pub fn round(&self) -> Option<(PhaseId, u32)> {
        self.pos.frames.iter().find_map(|frame| match frame {
            Frame::Phase { at, .. } => match self.game.blocks[at.block as usize].stmts[at.index as usize].kind {
                StmtKind::Phase(phase, _) => Some((phase, self.pos.phase_counts[phase as usize])),
                _ => None,
            },
            _ => None,
        })
    }

    /// The events of the match so far (none when the state keeps no log).
    pub fn events(&self) -> &[Event] {
        self.obs.log.as_deref().unwrap_or_default()
    }

    /// Whether the state keeps the players' knowledge of the cards.
    pub fn keeps_knowledge(&self) -> bool {
        self.obs.knowledge.is_some()
    }

    /// What each player knows of the cards, if the state keeps it.
    pub fn knowledge(&self) -> Option<&Knowledge> {
        self.obs.knowledge.as_ref()
    }

    /// The value of a variable, read-only: `index` is the seat or side for a per-seat or per-side
    /// variable and 0 for a match-wide one. `None` when there is no such variable or index.
    pub fn var(&self, name: &str, index: usize) -> Option<Value> {
        let id = self.game.vars.iter().position(|v| v.name == name)?;
        let info = &self.game.vars[id];
        let count = per_owner(info.owner, self.game.seats.len(), self.game.sides.len());
        (index < count).then(|| self.pos.vars[self.layout().var_base[id] + index])
    }

    /// Where the piles and variables of this game lie in the position.
    pub fn layout(&self) -> &Layout {
        &self.program().layout
    }

    /// Who must decide now (in a secret round, only the seats still to choose).
    pub fn actor(&self) -> Actor {
        match &self.pos.pending {
            Pending::Choice { seat, .. } => Actor::Seat(*seat),
            Pending::Together { seats, .. } => {
                Actor::Together(seats.iter().filter(|s| s.chosen.is_none()).map(|s| s.seat).collect())
            }
            _ => Actor::Nobody,
        }
    }

    /// The one seat to decide now, in the open, if that is what the state waits for.
    pub fn single_actor(&self) -> Option<SeatId> {
        match &self.pos.pending {
            Pending::Choice { seat, .. } => Some(*seat),
            _ => None,
        }
    }

    /// Whether the match has ended, or was stopped by a run-time problem.
    pub fn is_over(&self) -> bool {
        matches!(self.pos.pending, Pending::Over(_) | Pending::Failed(_))
    }

    /// How the match ended: `None` while it goes on or when a run-time problem stopped it.
    pub fn outcome(&self) -> Option<&Outcome> {
        match &self.pos.pending {
            Pending::Over(o) => Some(o),
            _ => None,
        }
    }

    /// The run-time problem that stopped the match, if one did.
    pub fn failure(&self) -> Option<&Problem> {
        match &self.pos.pending {
            Pending::Failed(p) => Some(p),
            _ => None,
        }
    }

    /// The result's key for each seat or side (`chips`, `score`) as the match stands now, in the
    /// order of the result's domain; empty if the key cannot be worked out here.
    pub fn standings(&self) -> Vec<(String, i64)> {
        let names = self.game.names();
        self.result_keys().map_or(Vec::new(), |k| k.iter().map(|(i, n)| (names.show_loose(*i), *n)).collect())
    }

    /// For each player, the result's key of its seat or side as the match stands now, turned so
    /// that more is better (negated where the lowest key wins); `None` if it cannot be worked out.
    pub fn player_keys(&self) -> Option<Vec<i64>> {
        let mut keys = vec![0; self.game.players];
        self.player_keys_into(&mut keys).then_some(keys)
    }

    /// [`State::player_keys`] written into `keys` (room for one per player, the others left
    /// as they are), without a list of its own; false if they cannot be worked out.
    pub fn player_keys_into(&self, keys: &mut [i64]) -> bool {
        let sign = if self.game.result.extreme == crate::vocab::Extreme::Lowest { -1 } else { 1 };
        let game = &*self.game;
        self.each_result_key(|item, key| {
            for p in players_in(game, item) {
                if let Some(k) = keys.get_mut(p) {
                    *k = sign * key;
                }
            }
        })
        .is_ok()
    }

    /// The options open to `seat` now (empty when it is not to decide).
    fn options(&self, seat: SeatId) -> Option<&[Opt]> {
        match &self.pos.pending {
            Pending::Choice { seat: s, .. } if *s == seat => Some(&self.pos.options),
            Pending::Together { seats, .. } => {
                let s = seats.iter().find(|s| s.seat == seat && s.chosen.is_none())?;
                self.pos.options.get(s.start as usize..(s.start + s.len) as usize)
            }
            _ => None,
        }
    }

    /// How many legal actions `seat` has; they are numbered from 0.
    pub fn action_count(&self, seat: SeatId) -> usize {
        self.options(seat).map_or(0, <[Opt]>::len)
    }

    /// The actions `seat` may take now, as numbers `0..n` (empty when it does not decide).
    pub fn legal_actions(&self, seat: SeatId) -> Vec<Action> {
        (0..self.action_count(seat) as Action).collect()
    }

    /// The legal actions of `seat` in the order people are shown them: the actions that choose
    /// a card sorted as cards are shown (`card_order`), a declared one right after its plain
    /// twin, in the places such actions take in the list; other actions where they are.
    pub fn shown_actions(&self, seat: SeatId) -> Vec<Action> {
        let Some(options) = self.options(seat) else { return Vec::new() };
        let mut actions: Vec<Action> = (0..options.len() as Action).collect();
        let card = |a: Action| match options[a as usize].value {
            Value::Card(c) => Some(c),
            _ => None,
        };
        let slots: Vec<usize> = (0..actions.len()).filter(|&i| card(actions[i]).is_some()).collect();
        let mut cards: Vec<Action> = slots.iter().map(|&i| actions[i]).collect();
        cards.sort_by_cached_key(|&a| (card(a).map(|c| card_order(&self.game, c)), options[a as usize].declared));
        for (slot, action) in slots.into_iter().zip(cards) {
            actions[slot] = action;
        }
        // Groups of cards: the fewest cards first, then as their cards are shown.
        let group = |a: &Action| match options[*a as usize].value {
            Value::Group(g) => Some((g.len(), g.cards().map(|c| card_order(&self.game, c)).collect::<Vec<_>>())),
            _ => None,
        };
        if actions.iter().all(|a| group(a).is_some()) {
            actions.sort_by_cached_key(|a| (group(a), options[*a as usize].declared));
        }
        actions
    }

    /// How a person would name an action: "red 5", "give to West", "A of spades low".
    pub fn action_name(&self, seat: SeatId, action: Action) -> Option<String> {
        let opt = *self.options(seat)?.get(action as usize)?;
        let at = self.decision_at()?;
        Some(self.option_name(at, seat, opt))
    }

    /// The statement of the decision pending, if one is.
    fn decision_at(&self) -> Option<Loc> {
        match &self.pos.pending {
            Pending::Choice { at, .. } | Pending::Together { at, .. } => Some(*at),
            _ => None,
        }
    }

    /// Where in the rule file the decision pending is asked, if one is.
    pub fn decision_span(&self) -> Option<crate::vocab::Span> {
        let at = self.decision_at()?;
        self.game.blocks.get(at.block as usize)?.stmts.get(at.index as usize).map(|s| s.span)
    }

    /// How much work (statements run and evaluation steps) this state has done since it was
    /// made: a measure of effort that, unlike a clock, is the same on every run.
    pub fn work(&self) -> u64 {
        self.work + self.spent as u64
    }

    /// What an action chooses (and whether the declaration goes with it), which stays the same
    /// from one world to another where its number in the list may not: for bots that search.
    pub fn action_key(&self, seat: SeatId, action: Action) -> Option<(Value, bool)> {
        self.options(seat)?.get(action as usize).map(|o| (o.value, o.declared))
    }

    /// Makes `seat`'s choice and runs the flow on to the next decision.
    pub fn apply(&mut self, seat: SeatId, action: Action) -> Result<(), Refusal> {
        self.choose(seat, action)?;
        self.flow().advance();
        self.note_position();
        Ok(())
    }

    /// Makes `seat`'s choice without running the flow on.
    fn choose(&mut self, seat: SeatId, action: Action) -> Result<(), Refusal> {
        let seat_name = || self.game.seats.get(seat as usize).map_or(format!("seat {seat}"), |s| s.display.clone());
        match &mut self.pos.pending {
            Pending::Choice { seat: s, at } => {
                if *s != seat {
                    return Err(Refusal::NotYourTurn(seat_name()));
                }
                let opt = *self.pos.options.get(action as usize).ok_or(Refusal::NoSuchAction(action))?;
                let at = *at;
                self.pos.decisions += 1;
                if let Some(repeats) = &mut self.obs.repeats {
                    repeats.chose(seat, action);
                }
                self.flow().chose_openly(at, seat, opt);
            }
            Pending::Together { seats, .. } => {
                let i = seats.iter().position(|s| s.seat == seat).ok_or_else(|| Refusal::NotYourTurn(seat_name()))?;
                if seats[i].chosen.is_some() {
                    return Err(Refusal::AlreadyChose(seat_name()));
                }
                if action >= seats[i].len {
                    return Err(Refusal::NoSuchAction(action));
                }
                seats[i].chosen = Some(action);
                self.pos.decisions += 1;
                if let Some(repeats) = &mut self.obs.repeats {
                    repeats.chose(seat, action);
                }
                if seats.iter().all(|s| s.chosen.is_some()) {
                    self.flow().reveal_together();
                }
            }
            _ => return Err(Refusal::Over),
        }
        Ok(())
    }
}

/// The players a seat or side of the result stands for.
pub(crate) fn players_of(game: &Game, item: Value) -> Vec<usize> {
    players_in(game, item).collect()
}

/// The players a seat or side of the result stands for, one by one.
fn players_in(game: &Game, item: Value) -> impl Iterator<Item = usize> + '_ {
    let (seat, side): (Option<usize>, &[SeatId]) = match item {
        Value::Seat(s) => (Some(game.seats[s as usize].player), &[]),
        Value::Side(t) => (None, &game.sides[t as usize].seats),
        _ => (None, &[]),
    };
    seat.into_iter().chain(side.iter().map(|s| game.seats[*s as usize].player))
}
