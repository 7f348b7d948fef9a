//! The `solver` computer player: exact analysis where the position is open and small enough
//! (`paradox solve` within a fraction of a second), the default search bot elsewhere.

use super::{Bot, Budget, SearchBot};
use crate::engine::{Action, Seen};
use crate::game::SeatId;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Plays the exact best move of a world its player cannot tell from the match; where the
/// position is not open (the world would then differ) or too large, the search bot decides.
pub(crate) struct SolverBot {
    fallback: SearchBot,
}

impl SolverBot {
    pub(crate) fn new(seed: u64) -> Self {
        SolverBot { fallback: SearchBot::new(seed, Budget::DEFAULT) }
    }
}

impl Bot for SolverBot {
    fn choose(&mut self, seen: &Seen<'_>, seat: SeatId) -> Option<Action> {
        let n = seen.action_count(seat);
        if n <= 1 {
            return (n == 1).then_some(0);
        }
        let world = seen.sample(&mut ChaCha8Rng::seed_from_u64(seen.decisions()));
        match crate::solve::quick_best(&world) {
            Some((action, _, _)) if world.single_actor() == Some(seat) => Some(action),
            _ => self.fallback.choose(seen, seat),
        }
    }
}
