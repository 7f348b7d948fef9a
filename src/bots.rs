//! Computer players. A bot sees only what the State API offers a seat: its legal actions.

use crate::engine::{Action, State};
use crate::game::SeatId;
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
