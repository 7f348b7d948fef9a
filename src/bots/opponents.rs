//! What a search bot learns over a match of how each other player makes secret choices: as its
//! own search would, or at random.
//!
//! Where the bot's search weighs a secret decision of other seats (at its own secret decision,
//! or right after its open move), it foretells each of their choices whose moves it knows (the
//! same in every world searched) after a search long enough to mean much: the search's average
//! strategy for that seat. When the choices are revealed, each one the bot's player saw weighs
//! the two accounts of that player against each other (a Bayesian comparison of two models:
//! the forecast, and a uniform draw among the seat's moves). Later searches take a player to
//! choose at random with the chance the comparison gives that account, at every decision of
//! theirs, and to play as the search does otherwise. A player none of whose secret choices the
//! bot has seen is taken to play as the search does, so a match without secret choices is
//! searched exactly as without this. The bot reads only the log as its player may read it: a
//! choice whose cards it did not see teaches it nothing.

use crate::engine::Seen;
use crate::game::{SeatId, Value};

/// The odds, before any choice is seen, that a player makes its choices as the search does
/// rather than at random: 4 to 1, as a natural log.
const PRIOR: f64 = 1.386_294_361_119_890_6;
/// The share of a uniform draw mixed into a forecast: the search's forecast of a player who
/// plays well but otherwise than it does is often wrong, and one choice it gave no chance must
/// not prove the player random.
const SMOOTH: f64 = 0.25;

/// How one seat is foretold to make a secret choice still to be revealed.
pub(super) struct Forecast {
    /// The log's length when it was made: the choice it foretells comes later.
    pub(super) from: usize,
    pub(super) seat: SeatId,
    pub(super) player: usize,
    /// Each value the seat may choose, with its chance as the search foretells it and its
    /// chance at random.
    pub(super) chances: Vec<(Value, f64, f64)>,
}

/// What the bot has learned of the other players.
#[derive(Default)]
pub(super) struct Opponents {
    /// How many events of the log it has read.
    read: usize,
    /// For each player: the natural log of how much likelier the choices of it that the bot saw
    /// were as foretold than at random.
    evidence: Vec<f64>,
    /// For each player: how many of its choices were weighed.
    weighed: Vec<u32>,
    /// Forecasts whose choices have not been revealed yet.
    waiting: Vec<Forecast>,
}

impl Opponents {
    /// Reads the log from where it was left: each revealed choice a forecast waits for weighs
    /// the two accounts of its player, if the bot's player saw what it was.
    pub(super) fn learn(&mut self, seen: &Seen<'_>) {
        if seen.logged() < self.read {
            // A shorter log is another match.
            *self = Opponents::default();
        }
        for (at, seat, value) in seen.secret_choices(self.read) {
            let Some(i) = self.waiting.iter().position(|f| f.seat == seat && f.from <= at) else { continue };
            let forecast = self.waiting.remove(i);
            if let Some(value) = value {
                self.weigh(&forecast, value);
            }
        }
        self.read = seen.logged();
    }

    /// Waits for the choice `forecast` foretells (in place of an older forecast of its seat).
    pub(super) fn expect(&mut self, forecast: Forecast) {
        self.waiting.retain(|f| f.seat != forecast.seat);
        self.waiting.push(forecast);
    }

    /// Where the next forecast begins: the log read so far.
    pub(super) fn read(&self) -> usize {
        self.read
    }

    /// For each of `players`: the chance that it makes its choices at random (0 for one the
    /// bot has seen nothing of).
    pub(super) fn random_shares(&self, players: usize) -> Vec<f64> {
        (0..players)
            .map(|p| match self.weighed.get(p) {
                Some(&n) if n > 0 => 1.0 / (1.0 + (PRIOR + self.evidence[p]).exp()),
                _ => 0.0,
            })
            .collect()
    }

    fn weigh(&mut self, forecast: &Forecast, value: Value) {
        let (foretold, random) =
            forecast.chances.iter().filter(|c| c.0 == value).fold((0.0, 0.0), |(f, r), c| (f + c.1, r + c.2));
        if random <= 0.0 {
            return;
        }
        let p = forecast.player;
        if self.evidence.len() <= p {
            self.evidence.resize(p + 1, 0.0);
            self.weighed.resize(p + 1, 0);
        }
        self.evidence[p] += (((1.0 - SMOOTH) * foretold + SMOOTH * random) / random).ln();
        self.weighed[p] += 1;
    }
}

#[cfg(test)]
impl Opponents {
    /// What a bot would have learned had it seen `weighed` choices of `player` whose log of
    /// likelihoods (as foretold against at random) adds up to `evidence`.
    pub(super) fn having_weighed(player: usize, weighed: u32, evidence: f64) -> Opponents {
        let mut opponents =
            Opponents { evidence: vec![0.0; player + 1], weighed: vec![0; player + 1], ..Opponents::default() };
        (opponents.evidence[player], opponents.weighed[player]) = (evidence, weighed);
        opponents
    }
}
