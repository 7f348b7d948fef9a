//! Computer players. A bot sees only what the State API offers a seat: its legal actions.

use crate::engine::{Action, State};
use crate::game::{Game, SeatId};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Something that decides for a seat.
pub trait Bot {
    fn choose(&mut self, state: &State, seat: SeatId) -> Option<Action>;
}

/// Picks uniformly among the legal actions, from its own seeded generator.
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    pub fn new(seed: u64) -> Self {
        RandomBot { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Bot for RandomBot {
    fn choose(&mut self, state: &State, seat: SeatId) -> Option<Action> {
        let n = state.action_count(seat);
        (n > 0).then(|| self.rng.random_range(0..n) as Action)
    }
}

/// One random bot per player, as `paradox trace --seed SEED` seats them: player `p`'s bot is
/// seeded with `seed + 1 + p`.
pub fn random_bots(game: &Game, seed: u64) -> Vec<Box<dyn Bot>> {
    (0..game.players).map(|p| Box::new(RandomBot::new(seed.wrapping_add(1 + p as u64))) as Box<dyn Bot>).collect()
}
