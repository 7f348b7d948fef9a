//! Many matches between bots: wins per seat and per side, draws, decisions and throughput;
//! and the run-time problems random play runs into (`paradox check --simulate`).

use crate::bots::{Bot, Kind, seat_bots};
use crate::diagnostic::{Code, Problem};
use crate::engine::{Action, Pending, Seen, State};
use crate::game::{Game, SeatId};
use crate::trace::play_out;
use serde::Serialize;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;

/// What a run of matches came to.
#[derive(Clone, Debug, Serialize)]
pub struct Stats {
    pub games: u64,
    pub decisions: u64,
    pub seconds: f64,
    pub games_per_second: f64,
    pub decisions_per_second: f64,
    /// Wins per player (a shared win counts for each winner).
    pub wins: Vec<u64>,
    /// Wins per side, when the game has sides.
    pub side_wins: Vec<u64>,
    pub draws: u64,
    /// Matches stopped by a run-time problem.
    pub failures: u64,
    /// How long the bots other than `random` took over their moves with a choice, if any played.
    pub thinking: Option<Thinking>,
}

/// How long the thinking bots took per move, over the moves where they had a choice.
#[derive(Clone, Debug, Serialize)]
pub struct Thinking {
    pub moves: usize,
    pub median_seconds: f64,
    pub slowest_seconds: f64,
}

impl Thinking {
    fn of(mut times: Vec<f64>) -> Option<Thinking> {
        times.sort_by(f64::total_cmp);
        let median = *times.get(times.len() / 2)?;
        Some(Thinking { moves: times.len(), median_seconds: median, slowest_seconds: times[times.len() - 1] })
    }
}

/// A bot whose moves with a choice are timed.
struct Timed {
    bot: Box<dyn Bot>,
    times: Rc<RefCell<Vec<f64>>>,
}

impl Bot for Timed {
    fn choose(&mut self, seen: &Seen<'_>, seat: SeatId) -> Option<Action> {
        let start = Instant::now();
        let action = self.bot.choose(seen, seat);
        if seen.action_count(seat) > 1 {
            self.times.borrow_mut().push(start.elapsed().as_secs_f64());
        }
        action
    }
}

/// The bots of one match: those that think are timed into `times`.
fn timed_bots(kinds: &[Kind], seed: u64, times: &Rc<RefCell<Vec<f64>>>) -> Vec<Box<dyn Bot>> {
    let bots = seat_bots(kinds, seed).into_iter().zip(kinds);
    bots.map(|(bot, kind)| match kind {
        Kind::Random => bot,
        _ => Box::new(Timed { bot, times: times.clone() }) as Box<dyn Bot>,
    })
    .collect()
}

/// Plays `games` matches between bots of the given kinds (one per player); match `i` uses seed
/// `seed + i`.
pub fn run(game: Arc<Game>, games: u64, seed: u64, kinds: &[Kind]) -> Stats {
    let start = Instant::now();
    let mut stats = Stats {
        games,
        decisions: 0,
        seconds: 0.0,
        games_per_second: 0.0,
        decisions_per_second: 0.0,
        wins: vec![0; game.players],
        side_wins: vec![0; game.sides.len()],
        draws: 0,
        failures: 0,
        thinking: None,
    };
    let times = Rc::new(RefCell::new(Vec::new()));
    let searching = kinds.iter().any(|k| *k != Kind::Random);
    for i in 0..games {
        let s = seed.wrapping_add(i);
        // The same players as `paradox trace --seed s`; a match that does not end counts as stopped.
        let mut bots = timed_bots(kinds, s, &times);
        // Only bots that search need the players' knowledge kept.
        let mut state = if searching { State::quiet(game.clone(), s) } else { State::bare(game.clone(), s) };
        play_out(&mut state, &mut bots);
        stats.decisions += state.position().decisions;
        record(&game, &state, &mut stats);
    }
    stats.seconds = start.elapsed().as_secs_f64();
    stats.thinking = Thinking::of(times.take());
    let secs = stats.seconds.max(1e-9);
    stats.games_per_second = games as f64 / secs;
    stats.decisions_per_second = stats.decisions as f64 / secs;
    stats
}

fn record(game: &Game, state: &State, stats: &mut Stats) {
    let Some(outcome) = state.outcome() else {
        stats.failures += 1;
        return;
    };
    if outcome.winners.is_empty() {
        stats.draws += 1;
    }
    for p in &outcome.winners {
        stats.wins[*p] += 1;
    }
    for (t, side) in game.sides.iter().enumerate() {
        if side.seats.iter().any(|s| outcome.winners.contains(&game.seats[*s as usize].player)) {
            stats.side_wins[t] += 1;
        }
    }
}

/// The statistics for people.
pub fn text(game: &Game, stats: &Stats) -> String {
    let mut out = format!("{} matches of {}\n", stats.games, game.name);
    for (p, wins) in stats.wins.iter().enumerate() {
        let seats: Vec<&str> = game.seats.iter().filter(|s| s.player == p).map(|s| s.display.as_str()).collect();
        out.push_str(&format!(
            "  player {} ({}): {} wins ({:.1}%)\n",
            p + 1,
            seats.join(", "),
            wins,
            percent(*wins, stats.games)
        ));
    }
    for (t, wins) in stats.side_wins.iter().enumerate() {
        out.push_str(&format!("  {}: {} wins ({:.1}%)\n", game.sides[t].display, wins, percent(*wins, stats.games)));
    }
    out.push_str(&format!("  draws: {}\n", stats.draws));
    if stats.failures > 0 {
        out.push_str(&format!("  stopped by a run-time problem: {}\n", stats.failures));
    }
    if let Some(t) = &stats.thinking {
        out.push_str(&format!(
            "  thinking bots: {} moves with a choice, median {:.3} s, slowest {:.3} s\n",
            t.moves, t.median_seconds, t.slowest_seconds
        ));
    }
    out.push_str(&format!(
        "  {:.1} decisions per match; {:.0} matches/s, {:.0} decisions/s ({:.2} s)\n",
        stats.decisions as f64 / stats.games.max(1) as f64,
        stats.games_per_second,
        stats.decisions_per_second,
        stats.seconds
    ));
    out
}

fn percent(n: u64, of: u64) -> f64 {
    100.0 * n as f64 / of.max(1) as f64
}

/// A match played by random bots runs on without end after this many decisions.
pub const MAX_DECISIONS: u64 = 200_000;

/// A run-time problem that stopped some of the random matches, and their seeds.
#[derive(Clone, Debug)]
pub struct Stoppage {
    pub problem: Problem,
    pub seeds: Vec<u64>,
}

/// What `paradox check --simulate N` found: how many matches were played, and each distinct
/// problem that stopped any of them (in the order first met).
#[derive(Clone, Debug)]
pub struct Shakedown {
    pub matches: u64,
    pub stoppages: Vec<Stoppage>,
}

impl Shakedown {
    /// How many matches stopped.
    pub fn stopped(&self) -> usize {
        self.stoppages.iter().map(|s| s.seeds.len()).sum()
    }
}

/// Plays `matches` matches, seeded 1, 2, ..., each exactly as `paradox trace --seed N` plays it
/// (the same random bots), and gathers the run-time problems that stopped any of them. A match
/// still going after [`MAX_DECISIONS`] decisions counts as stopped, at the decision it was on.
pub fn shakedown(game: Arc<Game>, matches: u64) -> Shakedown {
    let mut stoppages: Vec<Stoppage> = Vec::new();
    for seed in 1..=matches {
        let mut bots = crate::bots::random_bots(&game, seed);
        let mut state = State::bare(game.clone(), seed);
        let over = crate::trace::play_up_to(&mut state, &mut bots, MAX_DECISIONS);
        let problem = match state.failure() {
            Some(p) => p.clone(),
            None if over => continue,
            None => endless(&game, &state),
        };
        match stoppages.iter_mut().find(|s| same(&s.problem, &problem)) {
            Some(s) => s.seeds.push(seed),
            None => stoppages.push(Stoppage { problem, seeds: vec![seed] }),
        }
    }
    Shakedown { matches, stoppages }
}

/// Two stops are the same problem if they are the same kind at the same place.
fn same(a: &Problem, b: &Problem) -> bool {
    a.code == b.code && a.span == b.span && a.message == b.message
}

/// A match that does not end: the problem points at the decision it keeps coming back to.
fn endless(game: &Game, state: &State) -> Problem {
    let span = match &state.position().pending() {
        Pending::Choice { at, .. } | Pending::Together { at, .. } => game
            .blocks
            .get(at.block as usize)
            .and_then(|b| b.stmts.get(at.index as usize))
            .map_or_else(Default::default, |s| s.span),
        _ => Default::default(),
    };
    Problem::new(
        Code::EndlessFlow,
        format!("a match runs on without end (still going after {MAX_DECISIONS} decisions)"),
        span,
        "still deciding here",
    )
    .help("make sure every loop around this decision can reach its end: a score that grows, a count that runs out")
}
