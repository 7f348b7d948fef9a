//! The engine: a game in progress, behind the one API every front end uses (REPL, bots,
//! simulator, tests).
//!
//! `Game::new_state(seed)` starts a match; [`State::actor`] says who must decide (one seat,
//! several seats at once in secret, or nobody when the match is over); [`State::legal_actions`]
//! and [`State::action_name`] list the choices ([`State::forbidden`] says why the others are not
//! allowed); [`State::apply`] makes one; [`State::status`] gives the rule file's `show` lines. Chance is drawn from
//! one seeded generator inside the state, so the same seed and actions replay exactly. The
//! position is plain data ([`Position`]): it clones cheaply and serialises for save files.

mod decide;
mod events;
mod knowledge;
mod layout;
mod restore;
mod run;
mod sample;
mod seen;
mod status;
mod view;

pub use events::{Event, card_order, pile_name, sort_key, suit_attr};
pub use knowledge::{Exclusion, Inference};
pub use layout::Layout;
pub use seen::Seen;
pub use view::{PileView, View};

use crate::diagnostic::Problem;
use crate::game::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
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

/// Where a statement is: its block and its index in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loc {
    pub block: BlockId,
    pub index: u32,
}

/// One option of a decision: the value chosen, whether the declaration is made with it, and
/// the tier that allowed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opt {
    pub value: Value,
    pub declared: bool,
    pub tier: u32,
}

/// What the state waits for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Pending {
    /// Nothing: the flow runs on.
    Running,
    Choice {
        at: Loc,
        seat: SeatId,
        options: Vec<Opt>,
    },
    Together {
        at: Loc,
        seats: Vec<SeatId>,
        options: Vec<Vec<Opt>>,
        chosen: Vec<Option<u32>>,
    },
    Over(Outcome),
    /// The rule file reached something it cannot do; the problem points at the rule.
    Failed(Problem),
}

/// The result of a finished match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning players (empty for a draw).
    pub winners: Vec<usize>,
    /// 1 for a win, -1 for a loss, 0 for a draw, one per player.
    pub returns: Vec<i64>,
    /// Each seat's or side's key in the result (`chips`, `score`), in the order of the result's domain.
    pub standings: Vec<(String, i64)>,
}

/// A control frame of the flow: where the interpreter is, as data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Frame {
    Block {
        block: BlockId,
        pc: u32,
    },
    Repeat {
        body: BlockId,
        left: i64,
    },
    While {
        at: Loc,
    },
    Until {
        at: Loc,
        started: bool,
    },
    For {
        at: Loc,
        level: u32,
        items: Vec<Value>,
        next: u32,
    },
    Phase {
        at: Loc,
        entered: bool,
    },
    /// The rest of a `simultaneously` block, run for each seat after everyone chose.
    Together {
        at: Loc,
        seats: Vec<SeatId>,
        chosen: Vec<Opt>,
        next: u32,
    },
}

/// Everything that changes during a match. Plain data: clone it, save it, compare it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Position {
    /// Each pile's cards, bottom first.
    pub piles: Vec<Vec<CardId>>,
    /// The pile each card is in.
    pub place: Vec<u16>,
    /// The seat from whose per-seat pile each card last came (`NO_SEAT` for none).
    pub came_from: Vec<u8>,
    pub vars: Vec<Value>,
    pub locals: Vec<Value>,
    pub frames: Vec<Frame>,
    pub pending: Pending,
    pub rng: ChaCha8Rng,
    pub phase_counts: Vec<u32>,
    pub decisions: u64,
    pub log: Vec<Event>,
    /// For each player in turn, a bitset of the cards whose place it knows.
    pub known: Vec<u64>,
    /// Cards the rules have shown not to be in a pile.
    pub excluded: Vec<Exclusion>,
    /// What choices under later tiers will show whoever sees their cards land.
    pub inferences: Vec<Inference>,
    /// Whether events are recorded (the simulator turns this off).
    pub logging: bool,
    /// Whether the players' knowledge (`known`, `excluded`, `inferences`) is kept up to date: a
    /// match whose bots search needs it; random play and the worlds a bot searches do not.
    pub knowing: bool,
}

pub const NO_SEAT: u8 = u8::MAX;

/// A match in progress of a compiled game.
#[derive(Clone, Debug)]
pub struct State {
    game: Arc<Game>,
    layout: Arc<Layout>,
    pos: Position,
    /// Steps spent since the last decision: statements run and evaluation work share one budget.
    spent: usize,
    /// Steps spent before the last decision, since the state was made or restored.
    work: u64,
}

/// Why an action was refused; the state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("it is not {0}'s turn to decide")]
    NotYourTurn(String),
    #[error("{0} already chose")]
    AlreadyChose(String),
    #[error("there is no action {0} here")]
    NoSuchAction(Action),
    #[error("the match is over")]
    Over,
}

impl State {
    /// Starts a match: variables take their initial values and the flow runs to the first decision.
    pub fn new(game: Arc<Game>, seed: u64) -> State {
        State::with(game, seed, true, true)
    }

    /// The same match without an event log (for simulations).
    pub fn quiet(game: Arc<Game>, seed: u64) -> State {
        State::with(game, seed, false, true)
    }

    /// The same match without a log, and without keeping what each player knows of the cards:
    /// the fastest, for matches where no bot searches (random play).
    pub fn bare(game: Arc<Game>, seed: u64) -> State {
        State::with(game, seed, false, false)
    }

    fn with(game: Arc<Game>, seed: u64, logging: bool, knowing: bool) -> State {
        let layout = Arc::new(Layout::of(&game));
        let mut piles = vec![Vec::new(); layout.pile_zone.len()];
        if let Some(first) = piles.first_mut() {
            *first = (0..game.cards.len() as CardId).collect();
        }
        let pos = Position {
            piles,
            place: vec![0; game.cards.len()],
            came_from: vec![NO_SEAT; game.cards.len()],
            vars: vec![Value::None; layout.var_slots],
            locals: vec![Value::None; game.slots],
            frames: vec![Frame::Block { block: game.play, pc: 0 }],
            pending: Pending::Running,
            rng: ChaCha8Rng::seed_from_u64(seed),
            phase_counts: vec![0; game.phases.len()],
            decisions: 0,
            log: Vec::new(),
            known: State::first_knowledge(&game, &layout),
            excluded: Vec::new(),
            inferences: Vec::new(),
            logging,
            knowing,
        };
        let mut state = State { game, layout, pos, spent: 0, work: 0 };
        state.start();
        state
    }

    /// Restores a saved position of this game, after checking that it fits the game: a damaged
    /// or foreign save file is refused, never played.
    pub fn restore(game: Arc<Game>, pos: Position) -> Result<State, String> {
        let layout = Arc::new(Layout::of(&game));
        restore::fits(&game, &layout, &pos)?;
        let state = State { game, layout, pos, spent: 0, work: 0 };
        state.asks_as_saved()?;
        Ok(state)
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

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

    pub fn events(&self) -> &[Event] {
        &self.pos.log
    }

    /// The value of a variable, read-only: `index` is the seat or side for a per-seat or per-side
    /// variable and 0 for a match-wide one. `None` when there is no such variable or index.
    pub fn var(&self, name: &str, index: usize) -> Option<Value> {
        let id = self.game.vars.iter().position(|v| v.name == name)?;
        let info = &self.game.vars[id];
        let count = match info.owner {
            None => 1,
            Some(crate::syntax::ast::Owner::Seat) => self.game.seats.len(),
            Some(crate::syntax::ast::Owner::Side) => self.game.sides.len(),
        };
        (index < count).then(|| self.pos.vars[self.layout.var_base[id] + index])
    }

    /// Where the piles and variables of this game lie in the position.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    pub fn actor(&self) -> Actor {
        match &self.pos.pending {
            Pending::Choice { seat, .. } => Actor::Seat(*seat),
            Pending::Together { seats, chosen, .. } => {
                Actor::Together(seats.iter().zip(chosen).filter(|(_, c)| c.is_none()).map(|(s, _)| *s).collect())
            }
            _ => Actor::Nobody,
        }
    }

    pub fn is_over(&self) -> bool {
        matches!(self.pos.pending, Pending::Over(_) | Pending::Failed(_))
    }

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
        self.clone().result_keys().map_or(Vec::new(), |k| k.iter().map(|(i, n)| (names.show_loose(*i), *n)).collect())
    }

    /// For each player, the result's key of its seat or side as the match stands now, turned so
    /// that more is better (negated where the lowest key wins); `None` if it cannot be worked out.
    pub fn player_keys(&self) -> Option<Vec<i64>> {
        let keyed = self.clone().result_keys().ok()?;
        let sign = if self.game.result.extreme == crate::syntax::ast::Extreme::Lowest { -1 } else { 1 };
        let mut keys = vec![0; self.game.players];
        for (item, key) in keyed {
            for p in self.players_of(item) {
                keys[p] = sign * key;
            }
        }
        Some(keys)
    }

    /// The options open to `seat` now (empty when it is not to decide).
    fn options(&self, seat: SeatId) -> Option<&[Opt]> {
        match &self.pos.pending {
            Pending::Choice { seat: s, options, .. } if *s == seat => Some(options),
            Pending::Together { seats, options, chosen, .. } => {
                let i = seats.iter().position(|s| *s == seat)?;
                chosen[i].is_none().then_some(&options[i][..])
            }
            _ => None,
        }
    }

    /// How many legal actions `seat` has; they are numbered from 0.
    pub fn action_count(&self, seat: SeatId) -> usize {
        self.options(seat).map_or(0, <[Opt]>::len)
    }

    pub fn legal_actions(&self, seat: SeatId) -> Vec<Action> {
        self.options(seat).map_or(Vec::new(), |o| (0..o.len() as Action).collect())
    }

    /// The legal actions of `seat` in the order people are shown them: the actions that choose
    /// a card sorted as cards are shown ([`card_order`]), a declared one right after its plain
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
        actions
    }

    /// How a person would name an action: "red 5", "give to West", "A of spades low".
    pub fn action_name(&self, seat: SeatId, action: Action) -> Option<String> {
        let opt = *self.options(seat)?.get(action as usize)?;
        let at = match &self.pos.pending {
            Pending::Choice { at, .. } | Pending::Together { at, .. } => *at,
            _ => return None,
        };
        Some(self.option_name(at, seat, opt))
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
        let seat_name = || self.game.seats.get(seat as usize).map_or(format!("seat {seat}"), |s| s.display.clone());
        match &mut self.pos.pending {
            Pending::Choice { seat: s, options, at } => {
                if *s != seat {
                    return Err(Refusal::NotYourTurn(seat_name()));
                }
                let opt = *options.get(action as usize).ok_or(Refusal::NoSuchAction(action))?;
                let at = *at;
                self.pos.decisions += 1;
                self.chose(at, seat, opt, false);
                self.learn_choice(at, seat, opt);
                self.pos.pending = Pending::Running;
                self.after_choice(at, opt);
            }
            Pending::Together { seats, options, chosen, .. } => {
                let i = seats.iter().position(|s| *s == seat).ok_or_else(|| Refusal::NotYourTurn(seat_name()))?;
                if chosen[i].is_some() {
                    return Err(Refusal::AlreadyChose(seat_name()));
                }
                if action as usize >= options[i].len() {
                    return Err(Refusal::NoSuchAction(action));
                }
                chosen[i] = Some(action);
                self.pos.decisions += 1;
                if chosen.iter().all(Option::is_some) {
                    self.reveal_together();
                }
            }
            _ => return Err(Refusal::Over),
        }
        self.advance();
        Ok(())
    }
}
