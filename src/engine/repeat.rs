//! A match that goes round in circles. The same position at the start of a decision, with the
//! same chance still to come, met [`REPEATS`] times means that nothing moves the match on: the
//! rules allow the circle (an auction annulled and bid again with the same cards, say) and
//! nothing in them forces a way out. The match is then stopped with a run-time problem at the
//! decision, as a fifth repetition ends a game of chess. Only the matches people watch count
//! their positions (the [`Repeats`] observer); the worlds a bot searches do not.
//!
//! Counting must cost little, since it runs at every decision: positions are counted by a key
//! ([`Position::repeat_key`]) that reads the cards through their Zobrist hash, kept up to date by
//! every move, and hashes only the variables and the frames. The stop stays exact all
//! the same: a key met [`REPEATS`] times is checked by playing the moves since chance was last
//! drawn again from the first position after that draw, comparing whole positions
//! ([`Position::same_flow`]), and from then on that key's positions are compared whole. Two
//! positions that share a key therefore never stop a match.

use super::*;
use crate::diagnostic::Code;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// How many times a match may meet the same position at a decision: the last time stops it.
pub const REPEATS: u32 = 5;

/// How many times each position was met at the start of a decision since chance was last
/// drawn. The generator only goes forward, so a position met before a draw never comes back
/// with the same chance to come: those are forgotten.
#[derive(Clone, Debug, Default)]
pub(crate) struct Repeats {
    /// How far the generator had gone ([`State::chance_drawn`]) when these positions were met.
    chance: u128,
    /// How many times a position of each key was met.
    met: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    /// For the keys met [`REPEATS`] times or more: each position of that key met, with how many times.
    checked: HashMap<u64, Vec<(Position, u32)>, BuildHasherDefault<KeyHasher>>,
    /// The first position met since chance was last drawn, and the step counters then (when
    /// `live`; its memory is kept for the next one).
    origin: Option<Box<Origin>>,
    live: bool,
    /// The choices made since that position, in order.
    moves: Vec<(SeatId, Action)>,
}

/// Where the moves since chance was last drawn start from.
#[derive(Clone, Debug)]
struct Origin {
    pos: Position,
    spent: usize,
    work: u64,
}

/// A hasher for keys that are hashes already (the repetition keys, the solver's table): it keeps
/// the key.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
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

impl Repeats {
    /// A choice was made.
    pub(super) fn chose(&mut self, seat: SeatId, action: Action) {
        if self.live {
            self.moves.push((seat, action));
        }
    }

    /// The flow was run in a way the moves cannot replay (stopped at the end of a phase): the
    /// positions met so far are forgotten.
    pub(super) fn forget(&mut self) {
        self.met.clear();
        self.checked.clear();
        self.live = false;
        self.moves.clear();
    }

    /// Chance was drawn (or nothing was met yet): counting starts again from `pos`.
    fn restart(&mut self, chance: u128, pos: &Position, spent: usize, work: u64) {
        self.forget();
        self.chance = chance;
        self.live = true;
        match &mut self.origin {
            Some(origin) => {
                origin.pos.clone_from(pos);
                (origin.spent, origin.work) = (spent, work);
            }
            None => self.origin = Some(Box::new(Origin { pos: pos.clone(), spent, work })),
        }
    }
}

impl Position {
    /// Whether a decision starts here: one seat to choose, or seats to choose in secret of
    /// which none has yet.
    fn starts_decision(&self) -> bool {
        match &self.pending {
            Pending::Choice { .. } => true,
            Pending::Together { seats, .. } => seats.iter().all(|s| s.chosen.is_none()),
            _ => false,
        }
    }

    /// The key a position is counted by: the same for two positions that are the same for the
    /// future play ([`Position::same_flow`]). It reads which pile each card is in through the
    /// Zobrist hash, and hashes the variables and the frames (the rest is compared when a key
    /// comes back [`REPEATS`] times).
    fn repeat_key(&self) -> u64 {
        let mut h = super::stop::Mix(self.zobrist());
        for v in &self.vars {
            h.write_u64(word(v));
        }
        for f in &self.frames {
            h.write_u64(frame_word(f));
        }
        // The table takes the key as its hash: spread every bit over the high ones too.
        let k = h.finish();
        k ^ k.rotate_left(29) ^ k.rotate_left(47)
    }
}

impl State {
    /// Counts the position if a decision starts here, and stops the match when it meets the
    /// same one the [`REPEATS`]th time.
    pub(super) fn note_position(&mut self) {
        if !self.pos.starts_decision() || self.obs.repeats.is_none() {
            return;
        }
        let (key, chance) = (self.pos.repeat_key(), self.chance_drawn());
        let Some(repeats) = &mut self.obs.repeats else { return };
        if repeats.chance != chance || !repeats.live {
            repeats.restart(chance, &self.pos, self.spent, self.work);
        }
        let met = repeats.met.entry(key).or_insert(0);
        *met = met.saturating_add(1);
        if *met < REPEATS {
            return;
        }
        let times = match repeats.checked.get_mut(&key) {
            Some(seen) => count_in(seen, &self.pos),
            None => {
                let seen = self.replay(key);
                let times = seen.iter().find(|(p, _)| p.same_flow(&self.pos)).map_or(1, |(_, n)| *n);
                if let Some(repeats) = &mut self.obs.repeats {
                    repeats.checked.insert(key, seen);
                }
                times
            }
        };
        if times >= REPEATS {
            self.pos.pending = Pending::Failed(self.circle());
        }
    }

    /// The positions of key `key` met at the start of a decision since chance was last drawn,
    /// each with how many times: the moves played again from the first position after the draw.
    fn replay(&self, key: u64) -> Vec<(Position, u32)> {
        let Some(repeats) = &self.obs.repeats else { return Vec::new() };
        let (true, Some(origin)) = (repeats.live, &repeats.origin) else { return Vec::new() };
        let mut again = State {
            game: self.game.clone(),
            prog: self.prog.clone(),
            // The interpreter, the reference, plays them again.
            kernel: None,
            pos: origin.pos.clone(),
            obs: Observers::default(),
            spent: origin.spent,
            work: origin.work,
            tally: None,
        };
        let mut seen = Vec::new();
        let mut meet = |pos: &Position| {
            if pos.starts_decision() && pos.repeat_key() == key {
                count_in(&mut seen, pos);
            }
        };
        meet(&again.pos);
        for &(seat, action) in &repeats.moves {
            if again.apply(seat, action).is_err() {
                break;
            }
            meet(&again.pos);
        }
        seen
    }

    /// The problem of a match that met the same position [`REPEATS`] times.
    fn circle(&self) -> Problem {
        Problem::new(
            Code::EndlessFlow,
            format!("the match goes round in circles: it met the same position at this decision {REPEATS} times"),
            self.decision_span().unwrap_or_default(),
            "the same position again here",
        )
        .help(
            "nothing in the rules moves the match on from here: give the loop a way out, such as a limit on \
             the attempts or something that changes each time round",
        )
    }
}

/// A value as one word, for the key: equal values give the same word (unequal ones may too).
fn word(v: &Value) -> u64 {
    match *v {
        Value::None => 0,
        Value::Int(n) => n as u64,
        Value::Bool(b) => 1 << 60 | u64::from(b),
        Value::Seat(s) => 2 << 60 | u64::from(s),
        Value::Side(t) => 3 << 60 | u64::from(t),
        Value::Card(c) => 4 << 60 | u64::from(c),
        Value::Enum(e) => 5 << 60 | u64::from(e),
        Value::Set(bits) => 6 << 60 ^ bits,
        Value::Group(g) => 7 << 60 | g.len() as u64,
    }
}

/// A frame as one word, for the key: equal frames give the same word (unequal ones may too).
fn frame_word(f: &Frame) -> u64 {
    let at = |l: Loc| u64::from(l.block) << 32 | u64::from(l.index);
    match *f {
        Frame::Block { block, pc } => u64::from(block) << 32 | u64::from(pc),
        Frame::Repeat { body, left } => (u64::from(body) << 32) ^ left as u64 ^ 1 << 63,
        Frame::While { at: l } => at(l) ^ 2 << 60,
        Frame::Until { at: l, started } => at(l) ^ 3 << 60 ^ u64::from(started),
        Frame::For { at: l, level, next, .. } => at(l) ^ 4 << 60 ^ u64::from(level) << 56 ^ u64::from(next) << 40,
        Frame::Phase { at: l, entered } => at(l) ^ 5 << 60 ^ u64::from(entered) << 48,
        Frame::Together { at: l, next, .. } => at(l) ^ 6 << 60 ^ u64::from(next) << 40,
    }
}

/// Counts one more meeting of `pos` among the positions `seen`; how many times it was met.
fn count_in(seen: &mut Vec<(Position, u32)>, pos: &Position) -> u32 {
    match seen.iter_mut().find(|(p, _)| p.same_flow(pos)) {
        Some((_, n)) => {
            *n = n.saturating_add(1);
            *n
        }
        None => {
            seen.push((pos.clone(), 1));
            1
        }
    }
}
