//! What an exact search needs of a state: play on only to the end of a phase, read the
//! quantity the rule file's `solve` names for that phase there, and a key under which two
//! positions that will play out alike meet in a table.

use super::*;
use std::hash::{Hash, Hasher};

impl State {
    /// The same position without the observers (no log, no players' knowledge): what a search
    /// copies at every move.
    pub fn unobserved(&self) -> State {
        State {
            game: self.game.clone(),
            prog: self.prog.clone(),
            kernel: self.kernel.clone(),
            pos: self.pos.clone(),
            obs: Observers::default(),
            spent: 0,
            work: self.work,
            tally: None,
        }
    }

    /// The phases that have a `solve` declaration, in the order declared.
    pub fn solved_phases(&self) -> Vec<PhaseId> {
        self.program().solves.iter().map(|(p, _)| *p).collect()
    }

    /// Where the innermost frame of `phase` lies in the flow, if the flow is inside it now:
    /// the point [`State::apply_within`] stops at.
    pub fn phase_frame(&self, phase: PhaseId) -> Option<usize> {
        let prog = self.program();
        self.pos.frames.iter().rposition(|f| match f {
            Frame::Phase { at, .. } => {
                matches!(prog.op(at.block, at.index), Some(program::Op::Phase(p, _)) if *p == phase)
            }
            _ => false,
        })
    }

    /// Makes `seat`'s choice and runs the flow on, but stops where the phase whose frame is
    /// at `frame` ([`State::phase_frame`]) ends: `Ok(true)` when it stopped there (the state
    /// then waits for nothing, and only [`State::solve_keys`] and the like should read it).
    pub fn apply_within(&mut self, seat: SeatId, action: Action, frame: usize) -> Result<bool, Refusal> {
        self.choose(seat, action)?;
        if let Some(repeats) = &mut self.obs.repeats {
            repeats.forget();
        }
        Ok(self.flow().advance_within(frame))
    }

    /// The quantity the rule file's `solve` names for `phase`, for each seat or side of its
    /// domain, as the state stands; `None` without such a declaration or if it cannot be worked out.
    pub fn solve_keys(&self, phase: PhaseId) -> Option<Vec<(Value, i64)>> {
        let solves = &self.program().solves;
        let which = solves.iter().position(|(p, _)| *p == phase)?;
        let mut keyed = Vec::new();
        self.each_key_of(1 + which, &solves[which].1, |item, key| keyed.push((item, key))).ok()?;
        Some(keyed)
    }

    /// The result's domain with each element's key as the state stands, if it can be worked out.
    pub fn result_values(&self) -> Option<Vec<(Value, i64)>> {
        self.result_keys().ok()
    }

    /// How far the generator has gone: it moves exactly when chance is drawn.
    pub fn chance_drawn(&self) -> u128 {
        self.pos.rng.get_word_pos()
    }

    /// A key for a table of searched positions: the same for two positions whose future play
    /// is the same (cards in the same order in the same piles, from the same seats; the same
    /// variables, flow and decision pending), whatever path led to them. The count of
    /// decisions, the narration said and the generator are left out (a search refuses chance),
    /// and so is every part `mask` leaves out.
    pub fn search_key(&self, mask: &KeyMask) -> u64 {
        let mut h = self.flow_hash(mask);
        self.pos.phase_counts.hash(&mut h);
        h.finish()
    }

    /// The hash of what the future play of a position depends on, chance, the count of phases
    /// entered and what `mask` leaves out left out.
    fn flow_hash(&self, mask: &KeyMask) -> Mix {
        let mut h = Mix(0);
        if mask.piles.is_empty() && mask.origins {
            self.pos.hash_cards(&mut h);
        } else {
            for (pile, cards) in self.pos.piles().enumerate() {
                if mask.piles.get(pile).is_none_or(|kept| *kept) {
                    (pile, cards).hash(&mut h);
                }
            }
            if mask.origins {
                self.pos.origins().hash(&mut h);
            }
        }
        hash_kept(&self.pos.vars, &mask.vars, &mut h);
        hash_kept(&self.pos.locals, &mask.locals, &mut h);
        self.pos.frames.hash(&mut h);
        self.pos.stack.hash(&mut h);
        self.pos.pending.hash(&mut h);
        self.pos.options.hash(&mut h);
        h
    }
}

/// Which parts of a position a [`State::search_key`] hashes: by pile, variable slot and local
/// slot (`true`: hashed; past the end: hashed), and whether where each card came from is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyMask {
    /// By pile.
    pub piles: Vec<bool>,
    /// By variable slot.
    pub vars: Vec<bool>,
    /// By local slot.
    pub locals: Vec<bool>,
    /// Whether the seat each card came from is hashed.
    pub origins: bool,
}

impl KeyMask {
    /// A mask that hashes everything.
    pub fn everything() -> KeyMask {
        KeyMask { origins: true, ..KeyMask::default() }
    }
}

/// Hashes the values whose slot `kept` does not leave out, each with its slot.
fn hash_kept(values: &[Value], kept: &[bool], h: &mut Mix) {
    for (slot, value) in values.iter().enumerate() {
        if kept.get(slot).is_none_or(|k| *k) {
            (slot, value).hash(h);
        }
    }
}

/// A fast multiply-rotate hasher (the one rustc uses), enough for a table key, and for the
/// small maps of searches whose order nobody reads.
#[derive(Default)]
pub(crate) struct Mix(pub(super) u64);

impl Hasher for Mix {
    /// Eight bytes at a time, the last word padded with zeros.
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for chunk in &mut words {
            self.write_u64(u64::from_le_bytes(chunk.try_into().unwrap_or_default()));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.write_u64(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_i64(&mut self, n: i64) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
