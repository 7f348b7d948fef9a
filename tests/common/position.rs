//! Positions to start a test from: a match played at random until few cards are left in hand.

use paradox::{Actor, Game, State};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// A position of `game` from `seed`, played at random until at most `left` cards are in the
/// zone `hand`, with a seat to decide.
pub fn random_position(game: &Arc<Game>, seed: u64, left: usize) -> State {
    let mut state = State::bare(game.clone(), seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let hand = game.zones.iter().position(|z| z.name == "hand").expect("a zone `hand`");
    let layout = state.layout().clone();
    let in_hands = |s: &State| {
        (0..s.position().pile_count())
            .filter(|&p| layout.pile_zone[p].0 as usize == hand)
            .map(|p| s.position().pile(p).len())
            .sum::<usize>()
    };
    while in_hands(&state) > left || state.actor() == Actor::Nobody {
        let Actor::Seat(seat) = state.actor() else { panic!("seed {seed}: not a single seat") };
        let n = state.action_count(seat) as u32;
        state.apply(seat, rng.random_range(0..n)).expect("a legal move");
    }
    state
}
