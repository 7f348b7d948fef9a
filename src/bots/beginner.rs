//! A beginner's judgement, one move ahead: of the moves open to a seat, the one after which its
//! player stands best, an end of the match first (a win best of all, a loss worst), then its
//! advantage in the result's keys (`chips`, `score`) over the others. Ties are broken by lot.
//! The search's playouts use it on some of their moves, so that they reach an end where moves
//! made at random almost never do.

use crate::engine::{Action, Actor, State};
use crate::game::SeatId;
use rand::RngExt;
use rand::seq::index::sample;
use rand_chacha::ChaCha8Rng;

/// The move of `seat` after which its player stands best, looking at `looks` of its moves drawn
/// by lot (all of them if it has no more); the work the looking took; and whether it preferred
/// some of the moves it looked at to others. At a secret decision the other seats still to
/// choose in it choose at random, so that the choices are revealed. Each move is tried in
/// `after`, memory kept for it.
pub(super) fn best_move(
    world: &State,
    after: &mut State,
    seat: SeatId,
    looks: usize,
    rng: &mut ChaCha8Rng,
) -> (Action, u64, bool) {
    let n = world.action_count(seat);
    let player = world.game().seats[seat as usize].player;
    let others: Vec<SeatId> = match world.actor() {
        Actor::Together(seats) => seats.into_iter().filter(|s| *s != seat).collect(),
        _ => Vec::new(),
    };
    let mut work = 0;
    let looks = looks.min(n);
    let mut best: Vec<Action> = Vec::new();
    let mut top = f64::NEG_INFINITY;
    for action in sample(rng, n, looks).into_iter().map(|a| a as Action) {
        after.clone_from(world);
        if after.apply(seat, action).is_err() {
            continue;
        }
        for &other in &others {
            let m = after.action_count(other);
            if m > 0 && after.apply(other, rng.random_range(0..m) as Action).is_err() {
                break;
            }
        }
        work += after.work().saturating_sub(world.work()) + 1;
        let value = standing(after, player);
        if value > top {
            (top, best) = (value, vec![action]);
        } else if value == top {
            best.push(action);
        }
    }
    let action = if best.is_empty() { rng.random_range(0..n) as Action } else { best[rng.random_range(0..best.len())] };
    (action, work, best.len() < looks)
}

/// How well `player` stands: a win or a loss outweighs any lead; else its advantage in the
/// result's keys.
fn standing(world: &State, player: usize) -> f64 {
    if let Some(outcome) = world.outcome() {
        return outcome.returns.get(player).map_or(0.0, |r| *r as f64 * 1e15);
    }
    advantages(world).and_then(|a| a.get(player).copied()).unwrap_or(0.0)
}

/// Each player's result key less the mean of the others'.
pub(super) fn advantages(world: &State) -> Option<Vec<f64>> {
    let mut advantages = Vec::new();
    advantages_into(world, &mut Vec::new(), &mut advantages).then_some(advantages)
}

/// [`advantages`] written into `out`, the keys read into `keys`: memory kept by the caller,
/// for a search that reads them at every playout. False if they cannot be worked out.
pub(super) fn advantages_into(world: &State, keys: &mut Vec<i64>, out: &mut Vec<f64>) -> bool {
    keys.clear();
    keys.resize(world.game().players, 0);
    if !world.player_keys_into(keys) {
        return false;
    }
    relative_into(keys, out);
    true
}

/// Each player's estimate ([`State::estimates`]) less the mean of the others', into `out`, and
/// the steps working them out took; `None` if they cannot be worked out.
pub(super) fn estimated_advantages_into(world: &State, out: &mut Vec<f64>) -> Option<u64> {
    let (keys, steps) = world.estimates()?;
    relative_into(&keys, out);
    Some(steps)
}

/// Into `out`: each of `keys` less the mean of the others.
fn relative_into(keys: &[i64], out: &mut Vec<f64>) {
    let n = keys.len();
    out.clear();
    if n < 2 {
        out.resize(n, 0.0);
        return;
    }
    let total: i64 = keys.iter().sum();
    out.extend(keys.iter().map(|k| *k as f64 - (total - k) as f64 / (n - 1) as f64));
}
