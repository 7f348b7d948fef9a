//! A match that goes round in circles. The same position at the start of a decision, with the
//! same chance still to come, met [`REPEATS`] times means that nothing moves the match on: the
//! rules allow the circle (an auction annulled and bid again with the same cards, say) and
//! nothing in them forces a way out. The match is then stopped with a run-time problem at the
//! decision, as a fifth repetition ends a game of chess. Only the matches people watch count
//! their positions (the [`Repeats`] observer); the worlds a bot searches do not.

use super::*;
use crate::diagnostic::Code;
use std::collections::HashMap;

/// How many times a match may meet the same position at a decision: the last time stops it.
pub const REPEATS: u32 = 5;

/// How many times each position was met at the start of a decision since chance was last
/// drawn, by its key ([`State::repeat_key`]). The generator only goes forward, so a position
/// met before a draw never comes back with the same chance to come: those are forgotten.
#[derive(Clone, Debug, Default)]
pub(crate) struct Repeats {
    /// How far the generator had gone ([`State::chance_drawn`]) when these positions were met.
    chance: u128,
    met: HashMap<u64, u32>,
}

impl State {
    /// Counts the position if a decision starts here, and stops the match when it meets the
    /// same one the [`REPEATS`]th time.
    pub(super) fn note_position(&mut self) {
        let starts = match &self.pos.pending {
            Pending::Choice { .. } => true,
            Pending::Together { seats, .. } => seats.iter().all(|s| s.chosen.is_none()),
            _ => false,
        };
        if !starts || self.obs.repeats.is_none() {
            return;
        }
        let (key, chance) = (self.repeat_key(), self.chance_drawn());
        let Some(repeats) = &mut self.obs.repeats else { return };
        if repeats.chance != chance {
            repeats.met.clear();
            repeats.chance = chance;
        }
        let met = repeats.met.entry(key).or_insert(0);
        *met += 1;
        if *met >= REPEATS {
            self.pos.pending = Pending::Failed(self.circle());
        }
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
