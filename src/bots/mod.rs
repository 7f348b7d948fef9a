//! Computer players. A bot is handed a [`Seen`]: what its player may know of the match, never
//! the match itself, so no bot can peek at a hidden card.

mod beginner;
mod opponents;
mod search;
mod solver;

pub use search::{Budget, SearchBot};
pub(crate) use solver::SolverBot;

use crate::engine::{Action, Seen};
use crate::game::{Game, SeatId};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Something that decides for a seat.
pub trait Bot {
    /// Picks one of the legal actions of `seat` (a seat of the player `seen` is for), or `None` when it has none.
    fn choose(&mut self, seen: &Seen<'_>, seat: SeatId) -> Option<Action>;
}

/// Picks uniformly among the legal actions, from its own seeded generator.
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A random bot whose choices follow from `seed`.
    pub fn new(seed: u64) -> Self {
        RandomBot { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Bot for RandomBot {
    fn choose(&mut self, seen: &Seen<'_>, seat: SeatId) -> Option<Action> {
        let n = seen.action_count(seat);
        (n > 0).then(|| self.rng.random_range(0..n) as Action)
    }
}

/// The kinds of computer player, as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Uniformly random among the legal actions.
    Random,
    /// Monte Carlo tree search over the worlds its player cannot tell apart ([`SearchBot`]).
    Search(Budget),
    /// Exact analysis where the position is open and small enough, else the search (`SolverBot`).
    Solver,
}

impl Kind {
    /// The names `--bots` accepts, the weakest first (`mcts` is `default`).
    pub const NAMES: &[&str] = &["random", "greedy", "default", "strong", "solver", "mcts"];
    /// The ladder of strengths `paradox ladder` plays, the weakest first.
    pub const LADDER: &[&str] = &["random", "greedy", "default", "strong", "solver"];

    /// The strongest kind for play: what `default` names and what `hint` asks.
    pub fn strongest() -> Kind {
        Kind::Search(Budget::DEFAULT)
    }

    /// The kind a name on the command line stands for.
    pub fn named(name: &str) -> Option<Kind> {
        match name {
            "random" => Some(Kind::Random),
            "greedy" => Some(Kind::Search(Budget::GREEDY)),
            "default" | "mcts" => Some(Kind::strongest()),
            "strong" => Some(Kind::Search(Budget::STRONG)),
            "solver" => Some(Kind::Solver),
            _ => None,
        }
    }

    /// A bot of this kind for `player`, seeded from the match seed as `paradox trace --seed`
    /// seats it: player `p`'s bot is seeded with `seed + 1 + p`.
    pub fn bot(self, seed: u64, player: usize) -> Box<dyn Bot> {
        let seed = seed.wrapping_add(1 + player as u64);
        match self {
            Kind::Random => Box::new(RandomBot::new(seed)),
            Kind::Search(budget) => Box::new(SearchBot::new(seed, budget)),
            Kind::Solver => Box::new(SolverBot::new(seed)),
        }
    }
}

/// Reads `--bots`: one kind for every player (`random`, `default`) or a comma list with one
/// kind per player (`default,random,random`).
pub fn parse_kinds(text: &str, players: usize) -> Result<Vec<Kind>, String> {
    let names: Vec<&str> = text.split(',').map(str::trim).collect();
    let kinds = names
        .iter()
        .map(|n| Kind::named(n).ok_or_else(|| format!("unknown bot `{n}`; the bots are {}", Kind::NAMES.join(", "))))
        .collect::<Result<Vec<_>, _>>()?;
    match kinds.len() {
        1 => Ok(vec![kinds[0]; players]),
        n if n == players => Ok(kinds),
        n => Err(format!("{n} bots named for a game of {players} players; name one kind, or one per player")),
    }
}

/// One bot per player, of the given kinds.
pub fn seat_bots(kinds: &[Kind], seed: u64) -> Vec<Box<dyn Bot>> {
    kinds.iter().enumerate().map(|(p, k)| k.bot(seed, p)).collect()
}

/// One random bot per player, as `paradox trace --seed SEED` seats them.
pub fn random_bots(game: &Game, seed: u64) -> Vec<Box<dyn Bot>> {
    seat_bots(&vec![Kind::Random; game.players], seed)
}
