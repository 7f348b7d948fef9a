//! `paradox bench`: how fast the engine plays a game on this machine, measured now, on one
//! core: random play (decisions per second), what a search pays per position (a fresh copy, a
//! copy into memory kept for it, one move), and the default bot's time per move.
//!
//! Figures of one machine are noisy; compare two builds, or paradox and a reference engine, by
//! running them one after the other in one session (see `benches/README.md`).

use crate::bots::{Kind, random_bots};
use crate::engine::{Action, Actor, Playable, State};
use crate::game::SeatId;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// What was measured for one game.
#[derive(Clone, Debug, Serialize)]
pub struct Figures {
    /// The game's name.
    pub game: String,
    /// The engine measured: `compiled` or `interpreted`.
    pub engine: &'static str,
    /// Random play between random bots, without log or knowledge (as `paradox sim`).
    pub decisions_per_second: f64,
    /// Random matches played for the figure.
    pub matches: u64,
    /// Decisions made in those matches.
    pub decisions: u64,
    /// A copy of a position met in random play, made afresh.
    pub clone_ns: f64,
    /// The same copy into a state kept for it: what copy-make search pays per move tried.
    pub copy_ns: f64,
    /// One move applied, on average over the positions met.
    pub apply_ns: f64,
    /// The default bot's time per move with a choice, if asked for.
    pub bot: Option<BotFigures>,
}

/// The default bot's time per move.
#[derive(Clone, Debug, Serialize)]
pub struct BotFigures {
    /// Moves timed.
    pub moves: usize,
    /// The median time of a move, in seconds.
    pub median_seconds: f64,
    /// The slowest move, in seconds.
    pub slowest_seconds: f64,
}

/// How many positions the copy and move figures are taken over.
const POSITIONS: usize = 2_000;

/// Measures a game: random play for about `seconds`, then copies and moves over positions met
/// in it, then (with `bot_moves` > 0) the default bot at that many positions.
/// The engine is the playable's: compiled where it carries a kernel (random play and the copies
/// and moves, which keep no observers), else interpreted.
pub fn run(playable: Playable, seconds: f64, bot_moves: usize) -> Figures {
    let (matches, decisions, elapsed) = random_play(&playable, Duration::from_secs_f64(seconds));
    let states = positions(&playable);
    let (clone_ns, copy_ns, apply_ns) = copies_and_moves(&states);
    Figures {
        game: playable.game().name.clone(),
        engine: if playable.has_kernel() { "compiled" } else { "interpreted" },
        decisions_per_second: decisions as f64 / elapsed.as_secs_f64().max(1e-9),
        matches,
        decisions,
        clone_ns,
        copy_ns,
        apply_ns,
        bot: (bot_moves > 0).then(|| bot_times(&playable, bot_moves)),
    }
}

/// Random matches (seeds 1, 2, ...) until `time` has passed: matches, decisions, time taken.
fn random_play(playable: &Playable, time: Duration) -> (u64, u64, Duration) {
    let start = Instant::now();
    let (mut matches, mut decisions) = (0u64, 0u64);
    while start.elapsed() < time || matches == 0 {
        matches += 1;
        let mut bots = random_bots(playable.game(), matches);
        let mut state = State::bare(playable.clone(), matches);
        crate::trace::play_up_to(&mut state, &mut bots, crate::trace::ENDLESS_AFTER);
        decisions += state.position().decisions;
    }
    (matches, decisions, start.elapsed())
}

/// The seat to move in a state and a random legal action for it.
fn a_move(state: &State, rng: &mut ChaCha8Rng) -> Option<(SeatId, Action)> {
    let seat = match state.actor() {
        Actor::Seat(s) => s,
        Actor::Together(seats) => *seats.first()?,
        Actor::Nobody => return None,
    };
    let n = state.action_count(seat);
    (n > 0).then(|| (seat, rng.random_range(0..n) as Action))
}

/// About [`POSITIONS`] positions met in random play, each waiting for a decision.
fn positions(playable: &Playable) -> Vec<State> {
    let mut states = Vec::with_capacity(POSITIONS);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for seed in 1.. {
        let mut state = State::bare(playable.clone(), seed);
        while let Some((seat, action)) = a_move(&state, &mut rng) {
            states.push(state.clone());
            if states.len() >= POSITIONS || state.apply(seat, action).is_err() {
                break;
            }
        }
        if states.len() >= POSITIONS || seed > POSITIONS as u64 {
            break;
        }
    }
    states
}

/// Nanoseconds per fresh copy, per copy into kept memory, and per move.
fn copies_and_moves(states: &[State]) -> (f64, f64, f64) {
    let Some(first) = states.first() else { return (0.0, 0.0, 0.0) };
    let per = |elapsed: Duration, rounds: usize| elapsed.as_nanos() as f64 / (rounds * states.len()).max(1) as f64;
    let rounds = 10;
    let start = Instant::now();
    for _ in 0..rounds {
        for s in states {
            black_box(s.clone());
        }
    }
    let clone_ns = per(start.elapsed(), rounds);
    let mut scratch = first.clone();
    let start = Instant::now();
    for _ in 0..rounds {
        for s in states {
            scratch.clone_from(black_box(s));
        }
    }
    let copy_ns = per(start.elapsed(), rounds);
    let moves: Vec<Option<(SeatId, Action)>> = {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        states.iter().map(|s| a_move(s, &mut rng)).collect()
    };
    let start = Instant::now();
    for _ in 0..rounds {
        for (s, m) in states.iter().zip(&moves) {
            scratch.clone_from(s);
            if let Some((seat, action)) = *m {
                let _ = black_box(scratch.apply(seat, action));
            }
        }
    }
    let apply_ns = (per(start.elapsed(), rounds) - copy_ns).max(0.0);
    (clone_ns, copy_ns, apply_ns)
}

/// The default bot's time at `moves` positions where it has a choice, met in a match between
/// default bots for the first player and random ones for the others.
fn bot_times(playable: &Playable, moves: usize) -> BotFigures {
    let mut times = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let game = playable.game();
    for seed in 1..=moves as u64 * 4 {
        let mut state = State::quiet(playable.clone(), seed);
        let mut bot = Kind::strongest().bot(seed, 0);
        while let Some((seat, random)) = a_move(&state, &mut rng) {
            let player = game.seats[seat as usize].player;
            let action = if player == 0 && state.action_count(seat) > 1 {
                let start = Instant::now();
                let action = bot.choose(&state.seen_by(player), seat);
                times.push(start.elapsed().as_secs_f64());
                action.unwrap_or(random)
            } else {
                random
            };
            if times.len() >= moves || state.apply(seat, action).is_err() {
                break;
            }
        }
        if times.len() >= moves {
            break;
        }
    }
    times.sort_by(f64::total_cmp);
    BotFigures {
        moves: times.len(),
        median_seconds: times.get(times.len() / 2).copied().unwrap_or(0.0),
        slowest_seconds: times.last().copied().unwrap_or(0.0),
    }
}

/// The figures for people, one block per game.
pub fn text(figures: &[Figures]) -> String {
    let mut out = String::new();
    for f in figures {
        out.push_str(&format!(
            "{} ({})\n  random play: {:.0} decisions/s ({} matches, {} decisions)\n  \
             a position: {:.0} ns to copy afresh, {:.0} ns to copy into kept memory, {:.0} ns per move\n",
            f.game, f.engine, f.decisions_per_second, f.matches, f.decisions, f.clone_ns, f.copy_ns, f.apply_ns
        ));
        if let Some(b) = &f.bot {
            out.push_str(&format!(
                "  default bot: median {:.3} s per move, slowest {:.3} s ({} moves)\n",
                b.median_seconds, b.slowest_seconds, b.moves
            ));
        }
    }
    out
}

/// The compiled engine's random play against the interpreter's, as a ratio.
pub fn ratio(interpreted: &Figures, compiled: &Figures) -> String {
    let ratio = compiled.decisions_per_second / interpreted.decisions_per_second.max(1e-9);
    let mut out = format!("{}: compiled random play at {ratio:.2}x the interpreter's", compiled.game);
    if let (Some(i), Some(c)) = (&interpreted.bot, &compiled.bot) {
        let faster = i.median_seconds / c.median_seconds.max(1e-9);
        out.push_str(&format!(", the default bot's median move {faster:.2}x faster"));
    }
    out
}
