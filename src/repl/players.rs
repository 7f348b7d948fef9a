//! Who decides at the table: the computer players' decisions, a function of the seed and the
//! position alone, and a match played again from its seed and the people's moves (how a save
//! is loaded).

use super::analyze::Decided;
use crate::bots::Kind;
use crate::engine::{Action, Actor, Playable, State};
use crate::game::{Game, SeatId};

/// The players of a match: which are people, the computer's bots, and the seed they play from.
pub(super) struct Players<'a> {
    pub(super) game: &'a Game,
    pub(super) seed: u64,
    /// The human players; every other player is a computer.
    pub(super) humans: &'a [usize],
    /// The bot of each player (only the computer players' are used).
    pub(super) kinds: &'a [Kind],
}

impl Players<'_> {
    /// Whether a human decides for `seat`.
    pub(super) fn is_human(&self, seat: SeatId) -> bool {
        self.humans.contains(&self.game.seats[seat as usize].player)
    }

    /// The computer players decide until a human must (or the match ends); each decision is
    /// added to `decided`.
    pub(super) fn play_bots(&self, state: &mut State, decided: &mut Vec<Decided>) {
        for _ in 0..crate::trace::ENDLESS_AFTER {
            let seat = match state.actor() {
                Actor::Seat(s) if !self.is_human(s) => s,
                Actor::Together(seats) => match seats.into_iter().find(|s| !self.is_human(*s)) {
                    Some(s) => s,
                    None => return,
                },
                _ => return,
            };
            let kind = self.kinds[self.game.seats[seat as usize].player];
            let Some(action) = self.bot_choice(state, kind, seat) else { return };
            let before = state.unobserved();
            if state.apply(seat, action).is_err() {
                return;
            }
            decided.push((before, seat, action));
        }
    }

    /// What a bot of `kind` would choose for `seat`: a function of the seed and the position
    /// alone, so undo, load and hint give the same choices again.
    pub(super) fn bot_choice(&self, state: &State, kind: Kind, seat: SeatId) -> Option<Action> {
        let player = self.game.seats[seat as usize].player;
        let seen = state.seen_by(player);
        let seed = self.seed ^ seen.decisions().wrapping_mul(0x9e37_79b9_7f4a_7c15);
        kind.bot(seed, player).choose(&seen, seat)
    }

    /// The match dealt from the seed with the people's `moves` made in turn and the computer's
    /// decisions between them, with every decision made; `Err` says which move is not legal
    /// where it comes.
    pub(super) fn replay(
        &self,
        playable: Playable,
        moves: &[(SeatId, Action)],
    ) -> Result<(State, Vec<Decided>), String> {
        let mut state = State::new(playable, self.seed);
        let mut decided = Vec::new();
        self.play_bots(&mut state, &mut decided);
        for (n, &(seat, action)) in moves.iter().enumerate() {
            let number = n + 1;
            let Some(name) = self.game.seats.get(seat as usize).map(|s| s.display.clone()) else {
                return Err(format!("its move {number} is for seat {seat}, which this game does not have"));
            };
            if state.is_over() || state.failure().is_some() {
                return Err(format!("its move {number} comes after the match ended"));
            }
            if !self.is_human(seat) {
                return Err(format!("its move {number} is for {name}, a seat the computer plays"));
            }
            let before = state.unobserved();
            if let Err(refusal) = state.apply(seat, action) {
                return Err(format!("its move {number} ({name}, option {action}) is not legal there: {refusal}"));
            }
            decided.push((before, seat, action));
            self.play_bots(&mut state, &mut decided);
        }
        Ok((state, decided))
    }
}
