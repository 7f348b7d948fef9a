//! Many matches between bots, on every core: what each match came to ([`Record`], with how it
//! went: [`course`]) and the whole-number counts of many ([`Tally`] for one configuration,
//! [`Paired`] for two played from the same seeds), which add up to the same counts whatever the
//! number of threads, shards or machines. With `--skill`, each seed also plays a match of one
//! stronger player against weaker ones ([`Skill`]). The [`ladder`] plays kinds of bot against each other. Also the run-time problems random play runs
//! into (`paradox check --simulate`).

pub mod course;
pub mod ladder;

use crate::bots::{Bot, Kind, seat_bots};
use crate::diagnostic::{Code, Problem};
use crate::engine::{Action, Actor, Outcome, Playable, Seen, State};
use crate::game::{ExprKind, Game, SeatId};
use crate::stats::{Discordant, Histogram, Moments, add_count};
use crate::syntax::ast::Extreme;
use crate::trace::{ENDLESS_AFTER, play_watching};
use course::{BETWEEN, Course, Readings, TENTHS};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;

/// A configuration to play: a compiled game and the kind of bot for each player.
pub struct Entrant {
    /// The compiled game, in this configuration.
    pub game: Arc<Game>,
    /// The kind of bot for each player.
    pub kinds: Vec<Kind>,
    /// With `--skill`: the stronger kind of bot and the weaker one.
    pub skill: Option<[Kind; 2]>,
    shape: Shape,
    /// The game lowered once, for all its matches.
    playable: Playable,
}

/// Who is who in a game's result: the players of each side and of each item the result ranks.
struct Shape {
    players: usize,
    /// For each side, its players as bits.
    sides: Vec<u64>,
    /// For each seat or side the result ranks, its players as bits.
    items: Vec<u64>,
    /// Whether the result ranks `seats` or `sides` as such, so that the outcome's standings
    /// list the items in order (not so for a list or a set of them).
    listed: bool,
}

impl Entrant {
    /// A configuration of `game` played by bots of `kinds`, one per player.
    pub fn new(game: Arc<Game>, kinds: Vec<Kind>) -> Entrant {
        let player_bits = |seats: &[SeatId]| seats.iter().fold(0u64, |b, s| b | 1 << game.seats[*s as usize].player);
        let sides: Vec<u64> = game.sides.iter().map(|t| player_bits(&t.seats)).collect();
        let items = if matches!(game.result.domain.kind, ExprKind::Sides) {
            sides.clone()
        } else {
            game.seats.iter().map(|s| 1 << s.player).collect()
        };
        let listed = matches!(game.result.domain.kind, ExprKind::Seats | ExprKind::Sides);
        let shape = Shape { players: game.players, sides, items, listed };
        let playable = Playable::new(game.clone());
        Entrant { game, kinds, skill: None, shape, playable }
    }

    /// The same configuration, its matches played with `playable` (the same game with another
    /// engine: see [`crate::compiled`]).
    pub fn play_with(&mut self, playable: Playable) {
        self.playable = playable;
    }

    /// The same configuration, each seed also played by one `strong` player (player `i mod
    /// players` in match `i`) against `weak` ones.
    pub fn with_skill(self, strong: Kind, weak: Kind) -> Entrant {
        Entrant { skill: Some([strong, weak]), ..self }
    }

    /// The bots of the skill match `index`: the strong player and each player's kind.
    fn skill_kinds(&self, index: u64) -> Option<(usize, Vec<Kind>)> {
        let [strong, weak] = self.skill?;
        let seat = (index % self.shape.players as u64) as usize;
        Some((seat, (0..self.shape.players).map(|p| if p == seat { strong } else { weak }).collect()))
    }
}

/// What one match came to.
#[derive(Clone, Debug, Default)]
pub struct Record {
    /// Decisions made.
    pub decisions: u64,
    /// How many times the outermost phase around the decisions was entered (0 for none).
    pub rounds: u64,
    /// `None` when a run-time problem stopped the match or it did not end.
    pub finish: Option<Finish>,
    /// Rounds after which every key of the result stood as before the round.
    pub drawn_rounds: u64,
    /// How long the bots other than `random` took over each move with a choice.
    pub thinking: Vec<f64>,
}

/// How a match that ended came out.
#[derive(Clone, Debug, Default)]
pub struct Finish {
    /// The winning players, as bits (none for a draw).
    pub winners: u64,
    /// The player who made the first decision, when one seat made it alone.
    pub starter: Option<usize>,
    /// The best key in the result minus the next best (0 for a tie at the top).
    pub margin: u64,
    /// How often a different seat or side came to lead alone, the standing read after each
    /// round (at the first decision of the next) and at the end.
    pub lead_changes: u64,
    /// How the match went.
    pub course: Course,
}

/// Who leads as the match goes on.
#[derive(Default)]
struct Lead {
    leader: Option<usize>,
    changes: u64,
}

impl Lead {
    /// Takes the standing (the result's key of each seat or side, more being better): a
    /// change when another one than last time is ahead of all the others.
    fn note(&mut self, keys: &[i64]) {
        if let Some(leader) = course::lone_leader(keys) {
            if self.leader.is_some_and(|l| l != leader) {
                self.changes += 1;
            }
            self.leader = Some(leader);
        }
    }
}

/// The rounds after which the standing was what it was before them.
#[derive(Default)]
struct Rounds {
    /// The standing when the current round began.
    start: Option<Vec<i64>>,
    drawn: u64,
}

impl Rounds {
    /// A round ends (or the match does) with the standing `keys`; `next` says whether another begins.
    fn close(&mut self, keys: &[i64], next: bool) {
        if self.start.as_deref() == Some(keys) {
            self.drawn += 1;
        }
        self.start = next.then(|| keys.to_vec());
    }
}

/// The result's key of each seat or side as the match stands, more being better (worked out
/// from the position's variables, before each decision).
fn standing(shape: &Shape, state: &State) -> Option<Standing> {
    let mut keys: Standing = smallvec::smallvec![0; state.game().players];
    if !state.player_keys_into(&mut keys) {
        return None;
    }
    let mut standing = Standing::new();
    for bits in &shape.items {
        standing.push(keys[bits.trailing_zeros() as usize]);
    }
    Some(standing)
}

/// A standing, kept off the heap (it is read before every decision).
type Standing = smallvec::SmallVec<[i64; 8]>;

/// The standing at the end: from the outcome when it lists the items in order, otherwise
/// worked out as after a round.
fn final_standing(shape: &Shape, state: &State, outcome: &Outcome) -> Vec<i64> {
    if !shape.listed {
        return standing(shape, state).map_or_else(Vec::new, |keys| keys.to_vec());
    }
    let sign = if state.game().result.extreme == Extreme::Lowest { -1 } else { 1 };
    outcome.standings.iter().map(|(_, key)| sign * key).collect()
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

/// The bots of one match, as `paradox trace --seed` seats them: those that think are timed
/// into `times`.
fn timed_bots(kinds: &[Kind], seed: u64, times: &Rc<RefCell<Vec<f64>>>) -> Vec<Box<dyn Bot>> {
    let bots = seat_bots(kinds, seed).into_iter().zip(kinds);
    bots.map(|(bot, kind)| match kind {
        Kind::Random => bot,
        _ => Box::new(Timed { bot, times: times.clone() }) as Box<dyn Bot>,
    })
    .collect()
}

/// Plays the match of `seed` (the one `paradox trace --seed` prints) and says what it came to;
/// a match still going after [`ENDLESS_AFTER`] decisions counts as stopped.
pub fn play(entrant: &Entrant, seed: u64) -> Record {
    play_with(entrant, &entrant.kinds, seed)
}

/// The skill match `index` of `--skill` (seeded `seed`): which player is the strong one, and
/// what the match came to; `None` without `--skill`.
fn play_skill(entrant: &Entrant, index: u64, seed: u64) -> Option<(usize, Record)> {
    let (strong, kinds) = entrant.skill_kinds(index)?;
    Some((strong, play_with(entrant, &kinds, seed)))
}

/// Plays the match of `seed` with bots of `kinds`.
fn play_with(entrant: &Entrant, kinds: &[Kind], seed: u64) -> Record {
    let times = Rc::new(RefCell::new(Vec::new()));
    let mut bots = timed_bots(kinds, seed, &times);
    // Only bots that search need the players' knowledge kept, and the log: they learn from it
    // how the others choose.
    let game = entrant.playable.clone();
    let searching = kinds.iter().any(|k| *k != Kind::Random);
    let mut state = if searching { State::new(game, seed) } else { State::bare(game, seed) };
    let starter = match state.actor() {
        Actor::Seat(s) => Some(entrant.game.seats[s as usize].player),
        _ => None,
    };
    let shape = &entrant.shape;
    let mut lead = Lead::default();
    let mut rounds = Rounds::default();
    let mut readings = Readings::default();
    let mut round = None;
    play_watching(&mut state, &mut bots, ENDLESS_AFTER, |state| {
        let now = state.round();
        let keys = standing(shape, state);
        if now != round {
            // The standing after each round, read at the first decision of the next.
            if let Some(keys) = &keys {
                if round.is_some() {
                    lead.note(keys);
                }
                if now.is_some() {
                    rounds.close(keys, true);
                }
            }
            round = now;
        }
        if let Some(keys) = keys {
            readings.note(state.position().decisions, &keys);
        }
        true
    });
    let decisions = state.position().decisions;
    let finish = state.outcome().map(|outcome| {
        let end = final_standing(shape, &state, outcome);
        lead.note(&end);
        rounds.close(&end, false);
        let winners = outcome.winners.iter().fold(0, |b, p| b | 1 << p);
        let winning: Vec<bool> = shape.items.iter().map(|bits| bits & winners != 0).collect();
        let course = course::course(&readings, &end, &winning, decisions);
        let mut keys = end;
        keys.sort_unstable_by(|a, b| b.cmp(a));
        Finish {
            winners,
            starter,
            margin: match keys[..] {
                [best, next, ..] => best.abs_diff(next),
                _ => 0,
            },
            lead_changes: lead.changes,
            course,
        }
    });
    Record {
        decisions,
        rounds: round.map_or(0, |(_, n)| n as u64),
        drawn_rounds: rounds.drawn,
        finish,
        thinking: times.take(),
    }
}

/// The counts of many matches of one configuration. Two tallies of the same configuration
/// add up exactly ([`Tally::merge`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Matches played.
    pub matches: u64,
    /// Matches stopped by a run-time problem (or that did not end); the figures below count
    /// the others.
    pub stopped: u64,
    /// Wins per player (a shared win counts for each winner).
    pub wins: Vec<u64>,
    /// Wins per side.
    pub side_wins: Vec<u64>,
    /// Matches that ended with no winner.
    pub draws: u64,
    /// Matches whose first decision one seat made alone, and how many of them its player won.
    pub started: u64,
    /// How many of those matches the starter's player won.
    pub starter_wins: u64,
    /// Per started match, the starter's edge times the number of players: `players` for a
    /// win, less the number of winners (an even chance scores 0 on average).
    pub edge: Moments,
    /// Decisions per match.
    pub decisions: Histogram,
    /// Rounds per match.
    pub rounds: Histogram,
    /// The winner's lead over the runner-up per match, in the result's key.
    pub margin: Histogram,
    /// Changes of the lead per match.
    pub lead_changes: Histogram,
    /// Rounds per match after which every key of the result stood as before.
    pub drawn_rounds: Histogram,
    /// Matches won by a seat or side that trailed another at some point.
    pub comebacks: u64,
    /// How far the winners trailed at worst per match, in the result's key (0 for none).
    pub deficit: Histogram,
    /// The best key less the worst at the end, per match.
    pub spread: Histogram,
    /// At each tenth between the start and the end: matches in which one seat or side led
    /// alone, and how many of them it went on to win.
    pub leader: Vec<[u64; 2]>,
    /// Per match that some won and some did not, the first tenth (1 to 10) from which the
    /// winners led alone at every tenth to the end.
    pub settled: Histogram,
    /// At each tenth of the match, from the start to the end: the winners' best key less the
    /// best of the others', over the matches that some won and some did not.
    pub trend: Vec<Moments>,
    /// The matches of one stronger player against weaker ones (`--skill`).
    pub skill: Skill,
}

/// The matches of `--skill`, one per seed: the strong player is player `i mod players` in
/// match `i`, all others are weak.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skill {
    /// Matches played.
    pub matches: u64,
    /// Matches stopped by a run-time problem (or that did not end).
    pub stopped: u64,
    /// How many the strong player won (a shared win counts).
    pub wins: u64,
    /// Per finished match, the strong player's edge times the number of players: `players`
    /// for a win, less the number of winners (an equal player scores 0 on average).
    pub edge: Moments,
}

impl Skill {
    /// Matches that ended with a result.
    pub fn finished(&self) -> u64 {
        self.matches - self.stopped
    }

    fn add(&mut self, players: usize, (strong, record): (usize, &Record)) {
        self.matches += 1;
        let Some(f) = &record.finish else {
            self.stopped += 1;
            return;
        };
        self.wins += f.winners >> strong & 1;
        self.edge.add(player_edge(players, strong, f.winners));
    }

    fn merge(&mut self, other: &Skill) -> Result<(), String> {
        add_count(&mut self.matches, other.matches, "skill matches")?;
        add_count(&mut self.stopped, other.stopped, "skill matches stopped")?;
        add_count(&mut self.wins, other.wins, "skill wins")?;
        self.edge.merge(&other.edge).map_err(|e| format!("skill edge: {e}"))
    }
}

impl Tally {
    /// An empty tally for a game of `players` players and `sides` sides.
    pub fn new(players: usize, sides: usize) -> Tally {
        Tally {
            matches: 0,
            stopped: 0,
            wins: vec![0; players],
            side_wins: vec![0; sides],
            draws: 0,
            started: 0,
            starter_wins: 0,
            edge: Moments::default(),
            decisions: Histogram::default(),
            rounds: Histogram::default(),
            margin: Histogram::default(),
            lead_changes: Histogram::default(),
            drawn_rounds: Histogram::default(),
            comebacks: 0,
            deficit: Histogram::default(),
            spread: Histogram::default(),
            leader: vec![[0; 2]; BETWEEN],
            settled: Histogram::default(),
            trend: vec![Moments::default(); TENTHS],
            skill: Skill::default(),
        }
    }

    /// The per-match counts, each with its name in a shard.
    pub fn histograms(&self) -> [(&'static str, &Histogram); 7] {
        [
            ("decisions", &self.decisions),
            ("rounds", &self.rounds),
            ("margin", &self.margin),
            ("lead_changes", &self.lead_changes),
            ("drawn_rounds", &self.drawn_rounds),
            ("deficit", &self.deficit),
            ("spread", &self.spread),
        ]
    }

    /// Matches that ended with a result.
    pub fn finished(&self) -> u64 {
        self.matches - self.stopped
    }

    fn add(&mut self, shape: &Shape, record: &Record) {
        self.matches += 1;
        let Some(f) = &record.finish else {
            self.stopped += 1;
            return;
        };
        for (p, wins) in self.wins.iter_mut().enumerate() {
            *wins += f.winners >> p & 1;
        }
        for (t, bits) in shape.sides.iter().enumerate() {
            self.side_wins[t] += u64::from(f.winners & bits != 0);
        }
        self.draws += u64::from(f.winners == 0);
        if let (Some(starter), Some(edge)) = (f.starter, edge_points(shape, f)) {
            self.started += 1;
            self.starter_wins += f.winners >> starter & 1;
            self.edge.add(edge);
        }
        self.decisions.add(record.decisions);
        self.rounds.add(record.rounds);
        self.margin.add(f.margin);
        self.lead_changes.add(f.lead_changes);
        self.drawn_rounds.add(record.drawn_rounds);
        let c = &f.course;
        self.comebacks += u64::from(c.comeback);
        self.deficit.add(c.deficit);
        self.spread.add(c.spread);
        for (counts, led) in self.leader.iter_mut().zip(&c.leader) {
            if let Some(won) = led {
                counts[0] += 1;
                counts[1] += u64::from(*won);
            }
        }
        if let Some(settled) = c.settled {
            self.settled.add(settled);
        }
        for (m, lead) in self.trend.iter_mut().zip(&c.lead) {
            if let Some(lead) = lead {
                m.add(*lead);
            }
        }
    }

    /// Adds another tally of the same configuration; `Err` names the count that would not fit.
    pub fn merge(&mut self, other: &Tally) -> Result<(), String> {
        add_count(&mut self.matches, other.matches, "matches")?;
        add_count(&mut self.stopped, other.stopped, "stopped")?;
        add_each(&mut self.wins, &other.wins, "wins of player")?;
        add_each(&mut self.side_wins, &other.side_wins, "wins of side")?;
        add_count(&mut self.draws, other.draws, "draws")?;
        add_count(&mut self.started, other.started, "started")?;
        add_count(&mut self.starter_wins, other.starter_wins, "starter_wins")?;
        self.edge.merge(&other.edge).map_err(|e| format!("edge: {e}"))?;
        for (name, a, b) in [
            ("decisions", &mut self.decisions, &other.decisions),
            ("rounds", &mut self.rounds, &other.rounds),
            ("margin", &mut self.margin, &other.margin),
            ("lead_changes", &mut self.lead_changes, &other.lead_changes),
            ("drawn_rounds", &mut self.drawn_rounds, &other.drawn_rounds),
            ("deficit", &mut self.deficit, &other.deficit),
            ("spread", &mut self.spread, &other.spread),
            ("settled", &mut self.settled, &other.settled),
        ] {
            a.merge(b).map_err(|e| format!("{name}: {e}"))?;
        }
        add_count(&mut self.comebacks, other.comebacks, "comebacks")?;
        for (i, (a, b)) in self.leader.iter_mut().zip(&other.leader).enumerate() {
            add_each(a, b, &format!("leader at tenth {}, count", i + 1))?;
        }
        for (i, (a, b)) in self.trend.iter_mut().zip(&other.trend).enumerate() {
            a.merge(b).map_err(|e| format!("trend at tenth {i}: {e}"))?;
        }
        self.skill.merge(&other.skill)
    }
}

/// Adds counts one by one; `Err` names the count (`what` and its number, from 1).
fn add_each(to: &mut [u64], from: &[u64], what: &str) -> Result<(), String> {
    for (i, (a, b)) in to.iter_mut().zip(from).enumerate() {
        add_count(a, *b, &format!("{what} {}", i + 1))?;
    }
    Ok(())
}

/// The starter's edge in a match, times the number of players: `players` if the starter
/// won, less the number of winners; `None` when no single seat started.
fn edge_points(shape: &Shape, f: &Finish) -> Option<i64> {
    Some(player_edge(shape.players, f.starter?, f.winners))
}

/// A player's edge in a match, times the number of players: `players` if it won, less the
/// number of winners (0 on average for a player no better placed than the others).
fn player_edge(players: usize, player: usize, winners: u64) -> i64 {
    let won = (winners >> player & 1) as i64;
    won * players as i64 - winners.count_ones() as i64
}

/// The counts of two configurations over the matches both finished, paired by seed: how
/// often a yes-or-no figure differed each way, and the sums of per-match changes (the second
/// configuration's value less the first's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paired {
    /// Matches both configurations finished.
    pub matches: u64,
    /// Per player (of those both configurations have).
    pub wins: Vec<Discordant>,
    /// Per side (of those both configurations have).
    pub side_wins: Vec<Discordant>,
    /// Draws.
    pub draws: Discordant,
    /// The starters' edges, each as a share of a match: both times `players` of both
    /// configurations.
    pub edge: Moments,
    /// Changes in decisions per match.
    pub decisions: Moments,
    /// Changes in rounds per match.
    pub rounds: Moments,
    /// Changes in the winner's margin.
    pub margin: Moments,
    /// Changes in the number of lead changes.
    pub lead_changes: Moments,
    /// The sum over matches of the change in decisions times the change in rounds: with the
    /// sums of squares, it tells whether one change is a fixed multiple of the other in every
    /// match.
    pub decisions_by_rounds: i128,
    /// Changes in the number of rounds that changed no key of the result.
    pub drawn_rounds: Moments,
    /// Matches won from behind.
    pub comebacks: Discordant,
    /// Changes in the gap between first and last at the end.
    pub spread: Moments,
    /// Over the matches in which one seat or side led alone at half-time in both
    /// configurations: how many, and whether that leader went on to win.
    pub security: (u64, Discordant),
    /// Changes in the tenth from which the winners led to the end, over the matches where it
    /// is known in both.
    pub settled: Moments,
    /// Over the skill matches both finished: how many, and whether the strong player won.
    pub skill: (u64, Discordant),
    /// Changes in the strong player's edge, each as a share of a match: both times `players` of
    /// both configurations.
    pub skill_edge: Moments,
}

/// Where half-time is in a course's `leader` (whose first entry is the first tenth): the
/// fifth tenth, at which security is compared.
pub const HALF_TIME: usize = 4;

impl Paired {
    fn new(a: &Shape, b: &Shape) -> Paired {
        Paired {
            matches: 0,
            wins: vec![Discordant::default(); a.players.min(b.players)],
            side_wins: vec![Discordant::default(); a.sides.len().min(b.sides.len())],
            draws: Discordant::default(),
            edge: Moments::default(),
            decisions: Moments::default(),
            rounds: Moments::default(),
            margin: Moments::default(),
            lead_changes: Moments::default(),
            decisions_by_rounds: 0,
            drawn_rounds: Moments::default(),
            comebacks: Discordant::default(),
            spread: Moments::default(),
            security: (0, Discordant::default()),
            settled: Moments::default(),
            skill: (0, Discordant::default()),
            skill_edge: Moments::default(),
        }
    }

    /// The per-match changes, each with its name in a shard.
    pub fn changes(&self) -> [(&'static str, &Moments); 8] {
        [
            ("edge", &self.edge),
            ("decisions", &self.decisions),
            ("rounds", &self.rounds),
            ("margin", &self.margin),
            ("lead_changes", &self.lead_changes),
            ("drawn_rounds", &self.drawn_rounds),
            ("spread", &self.spread),
            ("settled", &self.settled),
        ]
    }

    fn add_skill(&mut self, (sa, a): (&Shape, &(usize, Record)), (sb, b): (&Shape, &(usize, Record))) {
        let (Some(fa), Some(fb)) = (&a.1.finish, &b.1.finish) else { return };
        let (strong, players) = (a.0, (sa.players, sb.players));
        self.skill.0 += 1;
        self.skill.1.add(fa.winners >> strong & 1 == 1, fb.winners >> strong & 1 == 1);
        let (ea, eb) = (player_edge(players.0, strong, fa.winners), player_edge(players.1, b.0, fb.winners));
        self.skill_edge.add(eb * players.0 as i64 - ea * players.1 as i64);
    }

    fn add(&mut self, (sa, a): (&Shape, &Record), (sb, b): (&Shape, &Record)) {
        let (Some(fa), Some(fb)) = (&a.finish, &b.finish) else { return };
        self.matches += 1;
        for (p, d) in self.wins.iter_mut().enumerate() {
            d.add(fa.winners >> p & 1 == 1, fb.winners >> p & 1 == 1);
        }
        for (t, d) in self.side_wins.iter_mut().enumerate() {
            d.add(fa.winners & sa.sides[t] != 0, fb.winners & sb.sides[t] != 0);
        }
        self.draws.add(fa.winners == 0, fb.winners == 0);
        if let (Some(ea), Some(eb)) = (edge_points(sa, fa), edge_points(sb, fb)) {
            self.edge.add(eb * sa.players as i64 - ea * sb.players as i64);
        }
        let change = |x: u64, y: u64| y as i64 - x as i64;
        self.decisions.add(change(a.decisions, b.decisions));
        self.rounds.add(change(a.rounds, b.rounds));
        self.margin.add(change(fa.margin, fb.margin));
        self.lead_changes.add(change(fa.lead_changes, fb.lead_changes));
        let by = change(a.decisions, b.decisions) as i128 * change(a.rounds, b.rounds) as i128;
        self.decisions_by_rounds = self.decisions_by_rounds.saturating_add(by);
        self.drawn_rounds.add(change(a.drawn_rounds, b.drawn_rounds));
        let (ca, cb) = (&fa.course, &fb.course);
        self.comebacks.add(ca.comeback, cb.comeback);
        self.spread.add(change(ca.spread, cb.spread));
        if let (Some(la), Some(lb)) = (ca.leader[HALF_TIME], cb.leader[HALF_TIME]) {
            self.security.0 += 1;
            self.security.1.add(la, lb);
        }
        if let (Some(xa), Some(xb)) = (ca.settled, cb.settled) {
            self.settled.add(change(xa, xb));
        }
    }

    fn merge(&mut self, other: &Paired) -> Result<(), String> {
        add_count(&mut self.matches, other.matches, "matches")?;
        for (i, (a, b)) in self.wins.iter_mut().zip(&other.wins).enumerate() {
            a.merge(b).map_err(|e| format!("wins of player {}: {e}", i + 1))?;
        }
        for (i, (a, b)) in self.side_wins.iter_mut().zip(&other.side_wins).enumerate() {
            a.merge(b).map_err(|e| format!("wins of side {}: {e}", i + 1))?;
        }
        self.draws.merge(&other.draws).map_err(|e| format!("draws: {e}"))?;
        for (name, a, b) in [
            ("edge", &mut self.edge, &other.edge),
            ("decisions", &mut self.decisions, &other.decisions),
            ("rounds", &mut self.rounds, &other.rounds),
            ("margin", &mut self.margin, &other.margin),
            ("lead_changes", &mut self.lead_changes, &other.lead_changes),
            ("drawn_rounds", &mut self.drawn_rounds, &other.drawn_rounds),
            ("spread", &mut self.spread, &other.spread),
            ("settled", &mut self.settled, &other.settled),
            ("skill_edge", &mut self.skill_edge, &other.skill_edge),
        ] {
            a.merge(b).map_err(|e| format!("{name}: {e}"))?;
        }
        self.decisions_by_rounds = self
            .decisions_by_rounds
            .checked_add(other.decisions_by_rounds)
            .ok_or("decisions_by_rounds adds up past 2^127")?;
        self.comebacks.merge(&other.comebacks).map_err(|e| format!("comebacks: {e}"))?;
        for (name, a, b) in
            [("security", &mut self.security, &other.security), ("skill", &mut self.skill, &other.skill)]
        {
            add_count(&mut a.0, b.0, name)?;
            a.1.merge(&b.1).map_err(|e| format!("{name}: {e}"))?;
        }
        Ok(())
    }
}

/// The counts of a run: one tally per configuration and one pairing per two of them (in the
/// order (1, 2), (1, 3), ..., (2, 3), ...).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tallies {
    /// One tally per configuration, in the order given.
    pub configurations: Vec<Tally>,
    /// One pairing per two configurations.
    pub pairs: Vec<Paired>,
}

impl Tallies {
    /// Empty counts for these configurations.
    pub fn new(entrants: &[Entrant]) -> Tallies {
        let shapes: Vec<&Shape> = entrants.iter().map(|e| &e.shape).collect();
        Tallies {
            configurations: shapes.iter().map(|s| Tally::new(s.players, s.sides.len())).collect(),
            pairs: pairs(shapes.len()).map(|(i, j)| Paired::new(shapes[i], shapes[j])).collect(),
        }
    }

    /// Adds the records of one seed, one per configuration.
    fn add(&mut self, entrants: &[Entrant], records: &[Seeded]) {
        for ((tally, e), r) in self.configurations.iter_mut().zip(entrants).zip(records) {
            tally.add(&e.shape, &r.record);
            if let Some((strong, skill)) = &r.skill {
                tally.skill.add(e.shape.players, (*strong, skill));
            }
        }
        for (paired, (i, j)) in self.pairs.iter_mut().zip(pairs(entrants.len())) {
            let (a, b) = ((&entrants[i].shape, &records[i]), (&entrants[j].shape, &records[j]));
            paired.add((a.0, &a.1.record), (b.0, &b.1.record));
            if let (Some(sa), Some(sb)) = (&a.1.skill, &b.1.skill) {
                paired.add_skill((a.0, sa), (b.0, sb));
            }
        }
    }

    /// Adds the counts of another shard of the same run; `Err` names the count that would not
    /// fit in its type (never for matches played here: their counts are at most 2^64 matches').
    pub fn merge(&mut self, other: &Tallies) -> Result<(), String> {
        for (i, (a, b)) in self.configurations.iter_mut().zip(&other.configurations).enumerate() {
            a.merge(b).map_err(|e| format!("configuration {}: {e}", i + 1))?;
        }
        for ((a, b), (i, j)) in self.pairs.iter_mut().zip(&other.pairs).zip(pairs(self.configurations.len())) {
            a.merge(b).map_err(|e| format!("configurations {} and {}: {e}", i + 1, j + 1))?;
        }
        Ok(())
    }

    /// Matches played per configuration.
    pub fn matches(&self) -> u64 {
        self.configurations.first().map_or(0, |t| t.matches)
    }
}

/// The pairs of `n` configurations, in order.
pub fn pairs(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n).flat_map(move |i| (i + 1..n).map(move |j| (i, j)))
}

/// What one seed came to in one configuration: its match, and its skill match with `--skill`.
struct Seeded {
    record: Record,
    skill: Option<(usize, Record)>,
}

impl Seeded {
    fn play(entrant: &Entrant, index: u64, seed: u64) -> Seeded {
        Seeded { record: play(entrant, seed), skill: play_skill(entrant, index, seed) }
    }

    fn thinking(self) -> impl Iterator<Item = f64> {
        self.record.thinking.into_iter().chain(self.skill.into_iter().flat_map(|(_, r)| r.thinking))
    }
}

/// What a run cost, which no two runs share: the wall-clock time, the thinking bots' times, and
/// what each configuration's matches took.
#[derive(Clone, Debug, Default)]
pub struct Timing {
    /// Wall-clock seconds.
    pub seconds: f64,
    /// How long the thinking bots took over each move with a choice, in seconds.
    pub thinking: Vec<f64>,
    /// The threads the matches were played on.
    pub threads: usize,
    /// What the matches of each configuration took, in the order given.
    pub configurations: Vec<Spent>,
}

impl Timing {
    /// Adds the timing of more matches of the same run.
    pub fn merge(&mut self, other: Timing) {
        self.seconds += other.seconds;
        self.thinking.extend(other.thinking);
        self.threads = self.threads.max(other.threads);
        self.configurations.resize(self.configurations.len().max(other.configurations.len()), Spent::default());
        for (mine, theirs) in self.configurations.iter_mut().zip(other.configurations) {
            mine.add(&theirs);
        }
    }
}

/// What the matches of one configuration took: the time of the thread that played them, and
/// the work in the engine's own units (skill matches included).
#[derive(Clone, Debug, Default)]
pub struct Spent {
    /// Matches played.
    pub matches: u64,
    /// Seconds the threads spent playing them.
    pub seconds: f64,
    /// Decisions made in them.
    pub decisions: u64,
    /// Moves with a choice that a thinking bot searched.
    pub searched: u64,
}

impl Spent {
    fn add(&mut self, other: &Spent) {
        self.matches += other.matches;
        self.seconds += other.seconds;
        self.decisions += other.decisions;
        self.searched += other.searched;
    }

    /// One seed's matches, played in `seconds`.
    fn of(seeded: &Seeded, seconds: f64) -> Spent {
        let records = std::iter::once(&seeded.record).chain(seeded.skill.as_ref().map(|(_, r)| r));
        let mut spent = Spent { seconds, ..Spent::default() };
        for record in records {
            spent.matches += 1;
            spent.decisions += record.decisions;
            spent.searched += record.thinking.len() as u64;
        }
        spent
    }
}

/// Plays the matches of `indices` (match `i` from seed `seed + i`) for every configuration on
/// the threads of `pool`, calling `done` after each seed; the counts do not depend on the
/// number of threads.
pub fn run(
    entrants: &[Entrant],
    seed: u64,
    indices: Range<u64>,
    pool: &rayon::ThreadPool,
    done: &(dyn Fn() + Sync),
) -> (Tallies, Timing) {
    let start = Instant::now();
    let fresh = || (Tallies::new(entrants), Timing::default());
    let (tallies, mut timing) = pool.install(|| {
        indices
            .into_par_iter()
            .fold(fresh, |(mut tallies, mut timing), i| {
                let mut spent = Vec::new();
                let records: Vec<Seeded> = entrants
                    .iter()
                    .map(|e| {
                        let start = Instant::now();
                        let seeded = Seeded::play(e, i, seed.wrapping_add(i));
                        spent.push(Spent::of(&seeded, start.elapsed().as_secs_f64()));
                        seeded
                    })
                    .collect();
                tallies.add(entrants, &records);
                let thinking = records.into_iter().flat_map(Seeded::thinking).collect();
                timing.merge(Timing { thinking, configurations: spent, ..Timing::default() });
                done();
                (tallies, timing)
            })
            .reduce(fresh, |(mut a, mut ta), (b, tb)| {
                a.merge(&b).expect("the counts of matches played here fit");
                ta.merge(tb);
                (a, ta)
            })
    });
    timing.seconds = start.elapsed().as_secs_f64();
    timing.threads = pool.current_num_threads();
    (tallies, timing)
}

/// A run-time problem that stopped some of the random matches, and their seeds.
#[derive(Clone, Debug)]
pub struct Stoppage {
    /// The problem.
    pub problem: Problem,
    /// The seeds of the matches it stopped.
    pub seeds: Vec<u64>,
}

/// What `paradox check --simulate N` found: how many matches were played, and each distinct
/// problem that stopped any of them (in the order first met).
#[derive(Clone, Debug)]
pub struct Shakedown {
    /// Matches played.
    pub matches: u64,
    /// Each distinct problem that stopped a match.
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
/// still going after [`ENDLESS_AFTER`] decisions counts as stopped, at the decision it was on.
pub fn shakedown(game: Arc<Game>, matches: u64) -> Shakedown {
    let mut stoppages: Vec<Stoppage> = Vec::new();
    let playable = Playable::new(game.clone());
    for seed in 1..=matches {
        let mut bots = crate::bots::random_bots(&game, seed);
        let mut state = State::bare(playable.clone(), seed);
        let over = crate::trace::play_up_to(&mut state, &mut bots, ENDLESS_AFTER);
        let problem = match state.failure() {
            Some(p) => p.clone(),
            None if over => continue,
            None => endless(&state),
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
fn endless(state: &State) -> Problem {
    Problem::new(
        Code::EndlessFlow,
        format!("a match runs on without end (still going after {ENDLESS_AFTER} decisions)"),
        state.decision_span().unwrap_or_default(),
        "still deciding here",
    )
    .help("make sure every loop around this decision can reach its end: a score that grows, a count that runs out")
}
