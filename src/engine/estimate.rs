//! The bots' estimate: a rule file's `define estimate(s: seat): int`, how well each seat stands
//! before the match is decided (see LANGUAGE.md's "The bots' estimate"). The search scores the
//! end of its lines with it where the result's keys tell nothing until the end.

use super::State;
use super::vm::Vm;
use crate::game::{FnId, Game, SeatId, Value};

/// The name of the definition the bots read as their estimate.
pub(crate) const ESTIMATE: &str = "estimate";

impl Game {
    /// The rule file's estimate for the bots, if it defines one (the checker has seen to its
    /// signature: one seat, a number).
    pub(crate) fn estimate(&self) -> Option<FnId> {
        let f = self.functions.iter().position(|f| f.name == ESTIMATE && f.params.len() == 1)?;
        FnId::try_from(f).ok()
    }
}

impl State {
    /// Each player's estimate (the sum over its seats), as the match stands, and the steps
    /// working it out took; `None` when the rule file has none or it cannot be worked out.
    pub fn estimates(&self) -> Option<(Vec<i64>, u64)> {
        let f = self.game.estimate()?;
        let at = self.prog.functions.get(f as usize)?.body.at;
        let mut locals: smallvec::SmallVec<[Value; 32]> = smallvec::SmallVec::from_slice(&self.pos.locals);
        let mut vm = Vm::new(&self.game, self.program(), self.pos.board(), &mut locals, 0);
        let mut keys = vec![0; self.game.players];
        for (s, seat) in self.game.seats.iter().enumerate() {
            match vm.call(f, &[Value::Seat(s as SeatId)], at) {
                Ok(Value::Int(k)) => *keys.get_mut(seat.player)? += k,
                _ => return None,
            }
        }
        Some((keys, vm.steps as u64))
    }
}
