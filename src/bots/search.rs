//! The default computer player: Monte Carlo tree search over worlds its player cannot tell from
//! the real one (information-set MCTS).
//!
//! Each iteration deals a fresh world from what the player knows ([`Seen::sampler`], into the
//! memory of the last iteration's world), walks the one shared tree down, adds a node, plays on
//! at random, and scores the end. Tree edges are what is chosen, not its number, so a card stays
//! the same edge from world to world; an edge's statistics count only the iterations where it
//! was possible.
//!
//! In the open, a seat picks by upper confidence bounds, and the bot makes the most tried move.
//! Ties, at either, are drawn by lot: the order a position lists its moves in (the order cards
//! lie in a hand, the order of the seats) must never make one seat play differently from another.
//! Seats deciding in secret at once each pick from their own statistics at that node, without
//! seeing the others' picks, by regret matching (simultaneous-move MCTS: Lanctot, Lisý and
//! Winands 2013), and the bot draws its move from the search's average strategy there, which
//! comes near an equilibrium: a mixed strategy, as such decisions call for (a predictable bid
//! is one the others can play against, and bots that always bid alike can annul an auction
//! forever). After a search too short for either to mean much (the `greedy` budget), the bot
//! makes the move with the best mean reward instead. A random playout stops when the match
//! ends (scored by its result) or, to keep the signal close, once the result's keys (`chips`,
//! `score`) have changed: it is then scored by how each player's key moved against the
//! others'. Where the rule file gives the bots an
//! estimate (`define estimate(s: seat): int`: games whose keys change only at the end, which
//! random playouts seldom reach), there is no playout: a line is scored where the tree ends, by
//! how each player's estimate moved against the others', and the search makes fewer iterations.
//!
//! Over a match the bot learns, from the secret choices it sees revealed, whether each other
//! player chooses as its search foretold or at random ([`Opponents`]), and its search draws that
//! player's moves uniformly as often as it takes it to choose at random.

use super::Bot;
use super::beginner::{advantages, advantages_into, best_move, estimated_advantages_into};
use super::opponents::{Forecast, Opponents};
use crate::engine::{Action, Actor, Mix, Seen, State};
use crate::game::{SeatId, Value};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use smallvec::SmallVec;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// How long the search thinks per decision: it stops at whichever limit comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Search iterations (one playout each) per decision.
    pub iterations: u32,
    /// The work done in the worlds it searches, playouts included ([`State::work`]): a
    /// measure of effort that is the same on every run, unlike a clock.
    pub work: u64,
}

impl Budget {
    /// The default bot's: about 0.13 to 0.25 s a move on this project's 2-core machine with the
    /// compiled engine (release build, `paradox bench --bot-moves 20 --engine compiled`): the
    /// compiled engine made a search about twice as fast, and the bot spends the time it saved on
    /// twice the work it had.
    pub const DEFAULT: Budget = Budget { iterations: 16_000, work: 8_000_000 };
    /// The `greedy` bot's, for labs that play many matches: a few playouts per move, two hundred
    /// times less work than the default's. Its playouts are random and it plays the move with the
    /// best mean reward ([`Budget::affords_beginners`]; `SURE`).
    pub const GREEDY: Budget = Budget { iterations: 60, work: 40_000 };
    /// The `strong` bot's, for analysis: four times the default's.
    pub const STRONG: Budget = Budget { iterations: 64_000, work: 32_000_000 };

    /// Whether the search's playouts may make beginner's moves: only on a budget of at least
    /// `BEGINNER_WORK` (1,000,000). Before it knows whether looking one move ahead pays in a
    /// game, a search makes `TRIAL` beginner's moves, each looking at up to `LOOKS` moves: tens of
    /// thousands of work in the six shipped games, the whole of a small budget, which then buys
    /// one to four playouts a move where it would buy twenty random ones.
    pub fn affords_beginners(&self) -> bool {
        self.work >= BEGINNER_WORK
    }
}

/// The least work budget whose playouts make beginner's moves ([`Budget::affords_beginners`]).
const BEGINNER_WORK: u64 = 1_000_000;

/// A move's identity from world to world: the value chosen and whether it is declared.
type Key = (Value, bool);

/// The search's maps, with a hasher that is fast on their small keys.
type Map<K, V> = HashMap<K, V, BuildHasherDefault<Mix>>;

/// The information-set Monte Carlo tree search player.
pub struct SearchBot {
    seed: u64,
    budget: Budget,
    /// Whether a search in the open stops once its move is settled ([`Search::settled`]): always,
    /// but for the tests that check the stop changes no move.
    stops_early: bool,
    /// What it has learned of how the other players choose.
    opponents: Opponents,
}

impl SearchBot {
    /// A search bot whose choices follow from `seed`, thinking within `budget` per decision.
    pub fn new(seed: u64, budget: Budget) -> Self {
        SearchBot { seed, budget, stops_early: true, opponents: Opponents::default() }
    }
}

impl SearchBot {
    /// Searches `seat`'s decision: the search, the key of each of its actions, and the
    /// generator to draw the move from. The same seed, position and seat always think the
    /// same thoughts.
    fn think(&self, seen: &Seen<'_>, seat: SeatId) -> (Search, Vec<Option<Key>>, ChaCha8Rng) {
        let mix = self.seed ^ seen.decisions().wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (u64::from(seat) << 56);
        let mut rng = ChaCha8Rng::seed_from_u64(mix);
        let mut worlds = seen.sampler();
        let first = worlds.sample(&mut rng);
        let mut search = Search::new(&first);
        search.beginner.priced_out = !self.budget.affords_beginners();
        search.random = self.opponents.random_shares(seen.game().players);
        // A line scored at once by the rule file's estimate tells more than a random playout.
        let iterations =
            if search.estimated { (self.budget.iterations / ESTIMATED).max(1) } else { self.budget.iterations };
        let keys: Vec<Option<Key>> =
            (0..seen.action_count(seat) as Action).map(|a| first.action_key(seat, a)).collect();
        // Every iteration's world is dealt into the memory of the last one.
        let mut world = first.clone();
        let open = !matches!(seen.actor(), Actor::Together(_));
        while search.iterations < iterations && search.work < self.budget.work {
            // In the open the move is the most tried: once no other can catch it up in the
            // iterations left, the rest would change nothing the bot does. Once settled, a search
            // stays so; looking every few iterations costs next to nothing.
            let look = search.iterations.is_multiple_of(SETTLED_EVERY);
            if open && look && self.stops_early && search.settled(seat, &keys, iterations - search.iterations) {
                break;
            }
            worlds.sample_into(&mut rng, &mut world);
            search.iterate(&mut world, &mut rng);
        }
        (search, keys, rng)
    }

    /// The chance of each of `seat`'s actions being played now: at a secret decision made at
    /// the same time as others, the search's average strategy; in the open, the most tried move,
    /// or after a search too short for either to mean much (`SURE`) the move with the best
    /// mean reward (shared equally by moves as good). Empty when the seat has no move.
    pub fn strategy(&self, seen: &Seen<'_>, seat: SeatId) -> Vec<f64> {
        let n = seen.action_count(seat);
        if n <= 1 {
            return vec![1.0; n];
        }
        let (search, keys, _) = self.think(seen, seat);
        let weights = match seen.actor() {
            Actor::Together(_) if !search.short(&keys) => search.mixed(seat, &keys),
            _ => None,
        };
        let weights = weights.unwrap_or_else(|| {
            let tied = search.played(seat, &keys);
            let tied = if tied.is_empty() { vec![0] } else { tied };
            (0..n).map(|a| if tied.contains(&(a as Action)) { 1.0 } else { 0.0 }).collect()
        });
        let total: f64 = weights.iter().sum();
        weights.iter().map(|w| w / total).collect()
    }
}

impl Bot for SearchBot {
    fn choose(&mut self, seen: &Seen<'_>, seat: SeatId) -> Option<Action> {
        self.opponents.learn(seen);
        let n = seen.action_count(seat);
        if n <= 1 {
            return (n == 1).then_some(0);
        }
        let (search, keys, mut rng) = self.think(seen, seat);
        let action = match seen.actor() {
            Actor::Together(_) if !search.short(&keys) => search.drawn(seat, &keys, &mut rng),
            _ => search.best(seat, &keys, &mut rng),
        };
        self.foretell(&search, seen, &keys, action);
        action
    }
}

impl SearchBot {
    /// Notes how the search foretold the other seats' choices at the secret decision it weighed
    /// next: this one, or the one right after the bot's open `action`.
    fn foretell(&mut self, search: &Search, seen: &Seen<'_>, keys: &[Option<Key>], action: Option<Action>) {
        let node = match seen.actor() {
            Actor::Together(_) => Some(0),
            _ => action.and_then(|a| keys[a as usize]).and_then(|k| search.nodes[0].child(&[k])),
        };
        let Some(node) = node else { return };
        for forecast in search.forecasts(node, seen.player(), self.opponents.read()) {
            self.opponents.expect(forecast);
        }
    }
}

/// How often one move was tried at a node, in how many iterations it was possible there, and
/// the rewards it brought its player; at a secret decision also its regret (how much more the
/// seat would have gained by always making it) and its weight in the seat's average strategy.
struct Arm {
    key: Key,
    visits: u32,
    available: u32,
    reward: f64,
    regret: f64,
    strategy: f64,
}

/// Numbers found by a move's key: a card's key (what most moves choose) at its place in a
/// table, without hashing; any other key in a map.
#[derive(Default)]
struct ByKey {
    /// At `2 * card + declared`: the number plus one, or 0 for none.
    cards: Vec<u32>,
    others: Map<Key, usize>,
}

impl ByKey {
    fn get(&self, key: Key) -> Option<usize> {
        match key {
            (Value::Card(c), declared) => {
                let n = *self.cards.get(2 * usize::from(c) + usize::from(declared))?;
                n.checked_sub(1).map(|i| i as usize)
            }
            _ => self.others.get(&key).copied(),
        }
    }

    fn insert(&mut self, key: Key, i: usize) {
        match key {
            (Value::Card(c), declared) => {
                let at = 2 * usize::from(c) + usize::from(declared);
                if at >= self.cards.len() {
                    self.cards.resize((at + 1).next_power_of_two().max(64), 0);
                }
                self.cards[at] = i as u32 + 1;
            }
            _ => {
                self.others.insert(key, i);
            }
        }
    }
}

/// One seat's moves at a node, found by their keys in constant time.
struct Arms {
    seat: SeatId,
    /// How often the seat decided here in secret.
    rounds: u32,
    arms: Vec<Arm>,
    by_key: ByKey,
}

impl Arms {
    fn new(seat: SeatId) -> Arms {
        Arms { seat, rounds: 0, arms: Vec::new(), by_key: ByKey::default() }
    }

    /// The arm of the move with this key, made if it is new.
    fn of(&mut self, key: Key) -> usize {
        self.by_key.get(key).unwrap_or_else(|| {
            self.arms.push(Arm { key, visits: 0, available: 0, reward: 0.0, regret: 0.0, strategy: 0.0 });
            self.by_key.insert(key, self.arms.len() - 1);
            self.arms.len() - 1
        })
    }

    fn visits(&self, key: Key) -> u32 {
        self.by_key.get(key).map_or(0, |i| self.arms[i].visits)
    }

    /// The weight of the move with this key in the seat's average strategy.
    fn strategy(&self, key: Key) -> f64 {
        self.by_key.get(key).map_or(0.0, |i| self.arms[i].strategy)
    }
}

/// A seat's move at a node on an iteration's path, to be credited with the playout's reward.
struct Pick {
    /// The seat's entry at the node, and the arm of the move.
    seat: usize,
    arm: usize,
    /// At a secret decision: the chance the move had of being drawn, and the arms possible
    /// (whose regrets the reward updates).
    secret: Option<(f64, Vec<usize>)>,
}

impl Arms {
    /// Credits the move picked with the reward of an iteration through it. At a secret
    /// decision, every move possible then gains the regret of not having been made instead:
    /// the reward of the move drawn, weighed by the chance it had, stands for its own. Rewards
    /// are counted from the seat's mean reward here (which changes no regret on average, and
    /// makes them far less noisy), and a regret never falls below 0 (regret matching plus,
    /// Tammelin 2014), so that a move's bad start is soon forgotten once it pays.
    fn credit(&mut self, pick: &Pick, reward: f64) {
        let (sum, visits) = self.arms.iter().fold((0.0, 0u32), |(s, n), a| (s + a.reward, n + a.visits));
        let gained = reward - if visits == 0 { 0.5 } else { sum / f64::from(visits) };
        if let Some(arm) = self.arms.get_mut(pick.arm) {
            arm.visits += 1;
            arm.reward += reward;
        }
        if let Some((chance, possible)) = &pick.secret {
            for &i in possible {
                let instead = if i == pick.arm { gained / chance } else { 0.0 };
                let arm = &mut self.arms[i];
                arm.regret = (arm.regret + instead - gained).max(0.0);
            }
        }
    }
}

/// One node: for each seat deciding there, its moves; and the node each combination leads to.
#[derive(Default)]
struct Node {
    seats: Vec<Arms>,
    /// The node a move of one seat deciding alone leads to.
    children: ByKey,
    /// The node a combination of several seats' moves leads to.
    combined: Map<Vec<Key>, usize>,
}

impl Node {
    /// The entry of `seat` at this node, made if it is new.
    fn seat(&mut self, seat: SeatId) -> usize {
        match self.seats.iter().position(|x| x.seat == seat) {
            Some(s) => s,
            None => {
                self.seats.push(Arms::new(seat));
                self.seats.len() - 1
            }
        }
    }

    /// The node these moves (one for each seat that decided) lead to, if it was made.
    fn child(&self, keys: &[Key]) -> Option<usize> {
        match keys {
            [key] => self.children.get(*key),
            _ => self.combined.get(keys).copied(),
        }
    }

    fn add_child(&mut self, keys: &[Key], child: usize) {
        match keys {
            [key] => self.children.insert(*key, child),
            _ => {
                self.combined.insert(keys.to_vec(), child);
            }
        }
    }
}

/// A search in progress: the tree and what has been spent.
struct Search {
    nodes: Vec<Node>,
    iterations: u32,
    work: u64,
    /// Each player's advantage in the result's keys at the root.
    start: Vec<f64>,
    /// The mean size of a playout's change in advantage, which sets the reward's scale.
    scale: Scale,
    /// Whether the playouts make beginner's moves.
    beginner: Beginner,
    /// The memory a beginner's move tries its moves in, kept from one to the next.
    look: Option<State>,
    /// The player of each seat.
    players: Vec<usize>,
    /// The logarithms of visit counts the upper confidence bounds take.
    logs: Logs,
    /// Memory kept from one playout to the next: the result's keys and advantages read at its
    /// end, and the rewards it brings each player.
    keys: Vec<i64>,
    now: Vec<f64>,
    rewards: Vec<f64>,
    /// Whether the rule file gives the bots an estimate ([`State::estimates`]): each line is
    /// then scored by it where the tree ends, without a playout.
    estimated: bool,
    /// For each player, the chance that it makes each choice at random rather than as the
    /// search does ([`Opponents`]).
    random: Vec<f64>,
}

/// How many iterations apart a search in the open looks whether its move is settled.
const SETTLED_EVERY: u32 = 16;
/// How far a playout runs without the result's keys changing.
const HORIZON: u64 = 400;
/// The exploration constant of the upper confidence bound.
const EXPLORE: f64 = 0.7;
/// The share of a playout's moves made as a beginner would ([`best_move`]) while looking one
/// move ahead tells moves apart, the others being made at random: enough for playouts to reach
/// an end where random play almost never does (a score that random moves keep undoing), and
/// some left to chance to keep them varied.
const GREEDY: f64 = 0.9;
/// How many of its moves a beginner's move in a playout looks at, drawn by lot.
const LOOKS: usize = 8;
/// How many times fewer iterations a search makes where the rule file gives an estimate: each
/// is scored where the tree ends, which tells more than a random playout and costs a rule
/// file's own judgement of every seat.
const ESTIMATED: u32 = 16;
/// How many beginner's moves with a choice a search makes before it judges whether looking one
/// move ahead tells moves apart often enough to go on.
const TRIAL: u32 = 64;

/// Whether a search's playouts go on making beginner's moves: only where looking one move ahead
/// tells moves apart at least one time in two, as it does where each move scores; where scores
/// change only at the end of a hand or a series, looking ahead is mostly work for nothing (and
/// plays the end of a series as no random player would), and the playouts are made at random.
#[derive(Default)]
struct Beginner {
    /// Beginner's moves made with a choice of moves, and how many of them preferred some.
    looked: u32,
    told: u32,
    /// Whether the search's budget is too small to pay for them ([`Budget::affords_beginners`]).
    priced_out: bool,
}

impl Beginner {
    fn wanted(&self) -> bool {
        !self.priced_out && (self.looked < TRIAL || self.told * 2 >= self.looked)
    }

    fn note(&mut self, options: usize, told: bool) {
        if options > 1 {
            self.looked += 1;
            self.told += u32::from(told);
        }
    }
}
/// The share of uniform exploration mixed into a secret decision's regret-matched strategy.
const MIX: f64 = 0.1;
/// The least share of the average strategy a move at a secret decision is played with: below
/// it, none ([`thresholded`]).
const THRESHOLD: f64 = 0.1;
/// The fewest iterations per option for a search's most tried move or average strategy to mean
/// much. Below it (a small budget: `greedy`'s 60 iterations at four options or more) upper
/// confidence bounds have tried most moves once or twice, with many ties, and regret
/// matching has hardly left the uniform strategy it starts from, a random move: the bot plays
/// the move with the best mean reward instead ([`Search::played`]), at a secret decision as
/// in the open. That is a best reply to the others as the search plays them, near random there,
/// not an equilibrium. The default budget makes over 100 iterations per option in every
/// shipped game.
const SURE: u64 = 20;

impl Search {
    fn new(root: &State) -> Search {
        let estimated = root.game().estimate().is_some();
        let start = if estimated {
            let mut start = Vec::new();
            estimated_advantages_into(root, &mut start).map(|_| start)
        } else {
            advantages(root)
        };
        Search {
            nodes: vec![Node::default()],
            iterations: 0,
            work: 0,
            start: start.unwrap_or_default(),
            scale: Scale::default(),
            beginner: Beginner::default(),
            look: None,
            players: root.game().seats.iter().map(|s| s.player).collect(),
            logs: Logs::default(),
            keys: Vec::new(),
            now: Vec::new(),
            rewards: Vec::new(),
            estimated,
            random: Vec::new(),
        }
    }

    /// One iteration on one world: select and expand, play out, back up.
    fn iterate(&mut self, world: &mut State, rng: &mut ChaCha8Rng) {
        self.iterations += 1;
        let before = world.work();
        let mut path: SmallVec<[(usize, SmallVec<[Pick; 1]>); 8]> = SmallVec::new();
        let mut node = 0;
        while let Some(seats) = deciding(world) {
            // One seat deciding in the open, or seats choosing in secret together (see `deciding`).
            let secret = world.single_actor().is_none();
            let mut picks = SmallVec::<[Pick; 1]>::new();
            let mut keys = SmallVec::<[Key; 4]>::new();
            let mut moves = SmallVec::<[(SeatId, Action); 4]>::new();
            for seat in seats {
                // Going through the options is work too: a decision of many options costs more.
                self.work += world.action_count(seat) as u64;
                let s = self.nodes[node].seat(seat);
                let arms = &mut self.nodes[node].seats[s];
                let random = self.random.get(self.players[seat as usize]).copied().unwrap_or(0.0);
                let (pick, action) = if secret {
                    regret_matched(arms, world, random, rng)
                } else {
                    upper_bound(arms, world, &mut self.logs, random, rng)
                };
                keys.push(arms.arms.get(pick.arm).map_or((Value::None, false), |a| a.key));
                picks.push(Pick { seat: s, ..pick });
                moves.push((seat, action));
            }
            for (seat, action) in moves {
                if world.apply(seat, action).is_err() {
                    return;
                }
            }
            path.push((node, picks));
            match self.nodes[node].child(&keys) {
                Some(child) => node = child,
                None => {
                    self.nodes.push(Node::default());
                    let child = self.nodes.len() - 1;
                    self.nodes[node].add_child(&keys, child);
                    break;
                }
            }
        }
        if self.estimated {
            self.judge(world);
        } else {
            self.play_out(world, rng);
        }
        self.work += world.work().saturating_sub(before);
        for (node, picks) in path {
            for pick in picks {
                let arms = &mut self.nodes[node].seats[pick.seat];
                let reward = self.rewards.get(self.players[arms.seat as usize]).copied().unwrap_or(0.5);
                arms.credit(&pick, reward);
            }
        }
    }

    /// Plays on, as a beginner or at random, until the match ends or the
    /// result's keys move (or the horizon), and
    /// scores the end for every player in 0..=1 (into `rewards`; none if the playout fails).
    fn play_out(&mut self, world: &mut State, rng: &mut ChaCha8Rng) {
        self.rewards.clear();
        let mut steps = 0u64;
        while let Some(seats) = deciding(world) {
            for seat in seats {
                let n = world.action_count(seat);
                if n == 0 {
                    return;
                }
                let action = if self.beginner.wanted() && rng.random_bool(GREEDY) {
                    let look = self.look.get_or_insert_with(|| world.clone());
                    let (action, work, told) = best_move(world, look, seat, LOOKS, rng);
                    self.work += work;
                    self.beginner.note(n, told);
                    action
                } else {
                    rng.random_range(0..n) as Action
                };
                if world.apply(seat, action).is_err() {
                    return;
                }
                steps += 1;
            }
            if steps >= HORIZON || (steps.is_multiple_of(8) && self.moved(world)) {
                break;
            }
        }
        self.score(world);
    }

    /// Whether the result's keys differ from the root's.
    fn moved(&mut self, world: &State) -> bool {
        advantages_into(world, &mut self.keys, &mut self.now) && self.now != self.start
    }

    /// Into `rewards`: 1 for a win, 0 for a loss, ½ for a draw; before the end, ½ moved by how
    /// far each player's advantage in the result's keys has grown since the root.
    fn score(&mut self, world: &State) {
        if let Some(outcome) = world.outcome() {
            self.rewards.extend(outcome.returns.iter().map(|r| (*r as f64 + 1.0) / 2.0));
            return;
        }
        if advantages_into(world, &mut self.keys, &mut self.now) {
            self.reward_moves();
        }
    }

    /// Scores a line where the tree ends by the rule file's estimate, into `rewards` (none if
    /// it cannot be worked out), the work of working it out counted.
    fn judge(&mut self, world: &State) {
        self.rewards.clear();
        if world.outcome().is_some() {
            return self.score(world);
        }
        let Some(steps) = estimated_advantages_into(world, &mut self.now) else { return };
        self.work += steps;
        self.reward_moves();
    }

    /// Into `rewards`: ½ moved by how far each player's advantage (`now`) has grown since the
    /// root.
    fn reward_moves(&mut self) {
        for (n, s) in self.now.iter().zip(&self.start) {
            self.scale.add((n - s).abs());
        }
        let scale = self.scale.get();
        self.rewards.extend(self.now.iter().zip(&self.start).map(|(n, s)| 0.5 + 0.5 * ((n - s) / scale).tanh()));
    }

    /// Whether the search made fewer than [`SURE`] iterations per option of these.
    fn short(&self, keys: &[Option<Key>]) -> bool {
        u64::from(self.iterations) < SURE * keys.len() as u64
    }

    /// The moves the bot plays one of where it draws none from an average strategy: the most
    /// tried at the root, or after a short search ([`SURE`]) the best in mean reward, each mean
    /// counted with one more iteration of reward ½, so that a move tried once and lucky does
    /// not outrank one tried often and good. By their numbers in the real list, each move once
    /// (by the first of the actions that share its key: identical cards are one move); empty if
    /// the search never weighed them.
    fn played(&self, seat: SeatId, keys: &[Option<Key>]) -> Vec<Action> {
        let Some(arms) = self.nodes[0].seats.iter().find(|a| a.seat == seat) else { return Vec::new() };
        if !self.short(keys) {
            return top(keys, |k| k.map_or(0.0, |k| f64::from(arms.visits(k))));
        }
        top(keys, |k| {
            let arm = k.and_then(|k| arms.by_key.get(k)).map(|i| &arms.arms[i]);
            arm.map_or(0.5, |arm| (arm.reward + 0.5) / (f64::from(arm.visits) + 1.0))
        })
    }

    /// The move the bot plays where it draws none from an average strategy ([`Search::played`]),
    /// a tie drawn by lot.
    fn best(&self, seat: SeatId, keys: &[Option<Key>], rng: &mut ChaCha8Rng) -> Option<Action> {
        let tied = self.played(seat, keys);
        match tied.len() {
            0 => None,
            1 => Some(tied[0]),
            n => Some(tied[rng.random_range(0..n)]),
        }
    }

    /// Whether `seat`'s most tried move at the root ([`Search::best`]) is the only one and stays
    /// so however `more` further visits of its moves there fall (each iteration visits at most
    /// one), in a search long enough for it to be the one played ([`SURE`]): then
    /// [`Search::best`] draws nothing and the move is the one the whole search makes.
    fn settled(&self, seat: SeatId, keys: &[Option<Key>], more: u32) -> bool {
        if self.short(keys) {
            return false;
        }
        let Some(arms) = self.nodes[0].seats.iter().find(|a| a.seat == seat) else { return false };
        let visits = |k: &Option<Key>| u64::from(k.map_or(0, |k| arms.visits(k)));
        let [best] = self.played(seat, keys)[..] else { return false };
        let lead = visits(&keys[best as usize]);
        keys.iter().all(|k| *k == keys[best as usize] || visits(k) + u64::from(more) < lead)
    }

    /// The weight of each of `seat`'s moves in its average strategy at the root, by its number
    /// in the real list (a move whose key an earlier one shares weighs nothing, so that identical
    /// cards are weighed once), the moves below [`THRESHOLD`] of the whole left out; `None` if
    /// the search never weighed them.
    fn mixed(&self, seat: SeatId, keys: &[Option<Key>]) -> Option<Vec<f64>> {
        let arms = self.nodes[0].seats.iter().find(|a| a.seat == seat)?;
        // Keys met so far, in a map: a decision may have 100,000 options.
        let mut met: Map<Key, ()> = Map::default();
        let weights: Vec<f64> = keys
            .iter()
            .map(|key| match key {
                Some(k) if met.insert(*k, ()).is_none() => arms.strategy(*k),
                _ => 0.0,
            })
            .collect();
        let total: f64 = weights.iter().sum();
        (total > 0.0).then(|| thresholded(weights, total))
    }

    /// One of `seat`'s moves at the root drawn from the search's average strategy, by its
    /// number in the real list.
    fn drawn(&self, seat: SeatId, keys: &[Option<Key>], rng: &mut ChaCha8Rng) -> Option<Action> {
        let Some(weights) = self.mixed(seat, keys) else { return self.best(seat, keys, rng) };
        let mut left = rng.random::<f64>() * weights.iter().sum::<f64>();
        for (a, &w) in weights.iter().enumerate() {
            if left < w {
                return Some(a as Action);
            }
            left -= w;
        }
        self.best(seat, keys, rng)
    }

    /// How each other player's seat deciding in secret at `node` is foretold to choose: the
    /// search's average strategy for it there, beside a uniform draw among its moves. `from` is
    /// the log's length now. Only a seat whose moves were the same in every world searched is
    /// foretold: where they differ (a hidden hand), the search weighs the seat's moves as if it
    /// did not know its own hand, and a player who does would look random beside that. And only
    /// after a search long enough for the average strategy to mean much ([`SURE`] rounds an
    /// option): `greedy`'s would be near uniform, and tell nothing.
    fn forecasts(&self, node: usize, player: usize, from: usize) -> Vec<Forecast> {
        let Some(node) = self.nodes.get(node) else { return Vec::new() };
        node.seats
            .iter()
            .filter(|arms| self.players[arms.seat as usize] != player)
            .filter(|arms| u64::from(arms.rounds) >= SURE * arms.arms.len() as u64)
            .filter(|arms| arms.arms.iter().all(|a| a.available == arms.rounds))
            .filter_map(|arms| {
                let strategy: f64 = arms.arms.iter().map(|a| a.strategy).sum();
                let available: f64 = arms.arms.iter().map(|a| f64::from(a.available)).sum();
                (strategy > 0.0 && available > 0.0).then(|| Forecast {
                    from,
                    seat: arms.seat,
                    player: self.players[arms.seat as usize],
                    chances: arms
                        .arms
                        .iter()
                        .map(|a| (a.key.0, a.strategy / strategy, f64::from(a.available) / available))
                        .collect(),
                })
            })
            .collect()
    }
}

/// The actions whose moves score highest by `score`, each move once: by the first of the
/// actions that share its key.
fn top(keys: &[Option<Key>], score: impl Fn(Option<Key>) -> f64) -> Vec<Action> {
    let scores: Vec<f64> = keys.iter().map(|&k| score(k)).collect();
    let most = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    // Keys met so far, in a map: a decision may have 100,000 options.
    let mut met: Map<Option<Key>, ()> = Map::default();
    (0..keys.len()).filter(|&a| scores[a] == most && met.insert(keys[a], ()).is_none()).map(|a| a as Action).collect()
}

/// Leaves out of an average strategy (weights adding up to `total`) the moves whose share is
/// below [`THRESHOLD`], unless that would leave none (then the largest stay). A share that
/// small is mostly the noise of a sampled search, the rest of the average strategy kept
/// (thresholding, Ganzfried and Sandholm 2012): it plays a bad move less often and keeps the
/// mix of the moves that matter.
fn thresholded(weights: Vec<f64>, total: f64) -> Vec<f64> {
    let largest = weights.iter().copied().fold(0.0, f64::max);
    let floor = (THRESHOLD * total).min(largest);
    weights.into_iter().map(|w| if w < floor { 0.0 } else { w }).collect()
}

/// Picks a move in the open: an untried one at random, else the best upper confidence bound
/// among those possible in this world, a tie drawn by lot (a move listed first gains nothing).
/// A seat whose player is taken to choose at random (with the chance `random`) makes, that
/// often, any of its moves alike.
fn upper_bound(arms: &mut Arms, world: &State, logs: &mut Logs, random: f64, rng: &mut ChaCha8Rng) -> (Pick, Action) {
    let at_random = random > 0.0 && rng.random_bool(random.min(1.0));
    let mut untried: SmallVec<[(usize, Action); 16]> = SmallVec::new();
    let mut best: Option<(f64, usize, Action)> = None;
    let mut tied = 0u32;
    for action in 0..world.action_count(arms.seat) as Action {
        let Some(key) = world.action_key(arms.seat, action) else { continue };
        let i = arms.of(key);
        let arm = &mut arms.arms[i];
        arm.available += 1;
        if arm.visits == 0 {
            untried.push((i, action));
            continue;
        }
        let bound =
            arm.reward / f64::from(arm.visits) + EXPLORE * (logs.of(arm.available) / f64::from(arm.visits)).sqrt();
        // A tie replaces the best so far with the chance that leaves each tied move equally
        // likely to stay (reservoir sampling), drawing nothing where there is none.
        match best {
            Some((b, ..)) if bound < b => {}
            Some((b, ..)) if bound == b => {
                tied += 1;
                if rng.random_range(0..tied) == 0 {
                    best = Some((bound, i, action));
                }
            }
            _ => {
                best = Some((bound, i, action));
                tied = 1;
            }
        }
    }
    let drawn = at_random.then(|| rng.random_range(0..world.action_count(arms.seat).max(1)) as Action);
    if let Some((key, action)) = drawn.and_then(|a| Some((world.action_key(arms.seat, a)?, a))) {
        return (Pick { seat: 0, arm: arms.of(key), secret: None }, action);
    }
    let (arm, action) = if untried.is_empty() {
        best.map(|(_, i, a)| (i, a)).unwrap_or((0, 0))
    } else {
        untried[rng.random_range(0..untried.len())]
    };
    (Pick { seat: 0, arm, secret: None }, action)
}

/// Picks a move at a secret decision by regret matching (Hart and Mas-Colell; in tree search,
/// Lanctot, Lisý and Winands 2013): each move possible in this world in proportion to its
/// positive regret (all alike while none has any), mixed with a little uniform exploration. The
/// strategy matched is added to the seat's average strategy, which is what the bot plays, the
/// later rounds weighing more (as its regrets have then seen more). A seat whose player is taken
/// to choose at random (with the chance `random`) mixes in that much more of a uniform draw.
fn regret_matched(arms: &mut Arms, world: &State, random: f64, rng: &mut ChaCha8Rng) -> (Pick, Action) {
    let mut possible: SmallVec<[(usize, Action); 16]> = SmallVec::new();
    for action in 0..world.action_count(arms.seat) as Action {
        let Some(key) = world.action_key(arms.seat, action) else { continue };
        let i = arms.of(key);
        if possible.iter().all(|&(j, _)| j != i) {
            arms.arms[i].available += 1;
            possible.push((i, action));
        }
    }
    let Some(&last) = possible.last() else { return (Pick { seat: 0, arm: 0, secret: None }, 0) };
    arms.rounds += 1;
    let positive: f64 = possible.iter().map(|&(i, _)| arms.arms[i].regret.max(0.0)).sum();
    let share = 1.0 / possible.len() as f64;
    let matched: SmallVec<[f64; 16]> = possible
        .iter()
        .map(|&(i, _)| if positive > 0.0 { arms.arms[i].regret.max(0.0) / positive } else { share })
        .collect();
    for (&(i, _), m) in possible.iter().zip(&matched) {
        arms.arms[i].strategy += m * f64::from(arms.rounds);
    }
    let mix = MIX + (1.0 - MIX) * random.min(1.0);
    let chance = |m: f64| (1.0 - mix) * m + mix * share;
    let mut left: f64 = rng.random();
    let mut drawn = (last, chance(matched[matched.len() - 1]));
    for (&p, &m) in possible.iter().zip(&matched) {
        if left < chance(m) {
            drawn = (p, chance(m));
            break;
        }
        left -= chance(m);
    }
    let ((arm, action), chance) = drawn;
    let secret = Some((chance, possible.iter().map(|&(i, _)| i).collect()));
    (Pick { seat: 0, arm, secret }, action)
}

/// The seats to decide now, or `None` when the match is over.
fn deciding(world: &State) -> Option<SmallVec<[SeatId; 4]>> {
    if let Some(seat) = world.single_actor() {
        return Some(smallvec::smallvec![seat]);
    }
    match world.actor() {
        Actor::Together(seats) if !seats.is_empty() => Some(seats.into_iter().collect()),
        _ => None,
    }
}

/// The natural logarithms of whole numbers, each worked out once, the first time it is asked.
#[derive(Default)]
struct Logs(Vec<f64>);

impl Logs {
    fn of(&mut self, n: u32) -> f64 {
        let n = n as usize;
        while self.0.len() <= n {
            self.0.push((self.0.len() as f64).ln());
        }
        self.0[n]
    }
}

/// A running mean of the non-zero changes seen, at least 1.
#[derive(Default)]
struct Scale {
    sum: f64,
    count: u32,
}

impl Scale {
    fn add(&mut self, x: f64) {
        if x > 0.0 {
            self.sum += x;
            self.count += 1;
        }
    }

    fn get(&self) -> f64 {
        if self.count == 0 { 1.0 } else { (self.sum / f64::from(self.count)).max(1.0) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule file `tests/fixtures/{name}.cards`, loaded as written.
    fn fixture(name: &str) -> std::sync::Arc<crate::game::Game> {
        let path = format!("tests/fixtures/{name}.cards");
        std::sync::Arc::new(crate::load(std::path::Path::new(&path), &Default::default()).expect("the fixture loads"))
    }

    /// A search whose root holds seat 0's moves with these visit counts and weights in the
    /// average strategy.
    fn root_with(moves: &[(Key, u32, f64)]) -> Search {
        let mut arms = Arms::new(0);
        for &(key, n, weight) in moves {
            let i = arms.of(key);
            arms.arms[i].visits = n;
            arms.arms[i].strategy = weight;
        }
        let root = Node { seats: vec![arms], ..Node::default() };
        Search {
            nodes: vec![root],
            // A search long enough for its most tried move to be the one played (`SURE`).
            iterations: 1_000_000,
            work: 0,
            start: Vec::new(),
            scale: Scale::default(),
            beginner: Beginner::default(),
            look: None,
            players: vec![0],
            logs: Logs::default(),
            keys: Vec::new(),
            now: Vec::new(),
            rewards: Vec::new(),
            estimated: false,
            random: Vec::new(),
        }
    }

    #[test]
    fn a_move_is_found_by_its_key_whatever_it_chooses() {
        let keys = [
            (Value::Card(3), false),
            (Value::Card(3), true),
            (Value::Card(200), false),
            (Value::Int(3), false),
            (Value::Seat(3), true),
        ];
        let mut by_key = ByKey::default();
        for (i, key) in keys.iter().enumerate() {
            assert_eq!(by_key.get(*key), None, "{key:?} before it is added");
            by_key.insert(*key, i);
        }
        for (i, key) in keys.iter().enumerate() {
            assert_eq!(by_key.get(*key), Some(i), "{key:?}");
        }
        assert_eq!(by_key.get((Value::Card(4), false)), None);
        assert_eq!(by_key.get((Value::Int(3), true)), None);
        // The table of logarithms gives exactly what working each out gives.
        let mut logs = Logs::default();
        for n in [5, 1, 8000, 2, 7999] {
            assert_eq!(logs.of(n).to_bits(), f64::from(n).ln().to_bits());
        }
    }

    /// Where `settled` says no further visits can change the most tried move, it is the only
    /// one and none do; where it says they might, some do or there is a tie (drawn by lot).
    /// Three keys, one of them shared by two actions (one move, not a tie): every split of up to
    /// `more` further visits (some iterations credit none) is tried.
    #[test]
    fn a_search_is_settled_exactly_when_no_further_visits_change_its_move() {
        let (a, b, c) = ((Value::Int(0), false), (Value::Int(1), false), (Value::Int(2), false));
        // Action 0 and 2 share b's key, action 1 is a, action 3 is c.
        let keys = [Some(b), Some(a), Some(b), Some(c)];
        let tried = |n: [u32; 3]| root_with(&[(a, n[0], 0.0), (b, n[1], 0.0), (c, n[2], 0.0)]).played(0, &keys);
        let mut settled = 0;
        for visits in (0..125).map(|i| [i % 5, i / 5 % 5, i / 25]) {
            for more in 0..4 {
                let now = tried(visits);
                let mut changed = now.len() != 1;
                for extra in (0..64).map(|i| [i % 4, i / 4 % 4, i / 16]).filter(|x| x.iter().sum::<u32>() <= more) {
                    changed |= tried([0, 1, 2].map(|k| visits[k] + extra[k])) != now;
                }
                let claimed =
                    root_with(&[(a, visits[0], 0.0), (b, visits[1], 0.0), (c, visits[2], 0.0)]).settled(0, &keys, more);
                assert_eq!(claimed, !changed, "visits {visits:?} (a, b, c), {more} more: most tried {now:?}");
                settled += u32::from(claimed);
            }
        }
        // Both answers are met often.
        assert!((100..400).contains(&settled), "{settled} of 500 settled");
    }

    /// The most tried move of a search that stops once it is settled is the one of the whole
    /// search, in fewer iterations, at positions of a small game with a clear best move.
    #[test]
    fn a_search_stopped_once_settled_makes_the_same_move_in_fewer_iterations() {
        let game = fixture("valid/take-away");
        let budget = Budget { iterations: 200, work: u64::MAX };
        let (mut stopped, mut compared) = (0, 0);
        for seed in 0..3 {
            let mut state = State::new(game.clone(), seed);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            while let Some(seat) = state.single_actor() {
                let seen = state.seen_by(state.game().seats[seat as usize].player);
                let mut early = SearchBot::new(seed, budget);
                let mut whole = SearchBot { stops_early: false, ..SearchBot::new(seed, budget) };
                if seen.action_count(seat) > 1 {
                    let ((s, keys, _), (w, _, _)) = (early.think(&seen, seat), whole.think(&seen, seat));
                    assert_eq!(w.iterations, budget.iterations);
                    assert_eq!(early.choose(&seen, seat), whole.choose(&seen, seat), "seed {seed}: another move");
                    // It stopped only where the iterations left could not change the move.
                    let left = budget.iterations - s.iterations;
                    assert!(left == 0 || s.settled(seat, &keys, left), "seed {seed}: stopped {left} early");
                    assert_eq!(early.strategy(&seen, seat), whole.strategy(&seen, seat));
                    compared += 1;
                    stopped += u32::from(s.iterations < w.iterations);
                }
                let n = seen.action_count(seat);
                state.apply(seat, rng.random_range(0..n) as Action).expect("a legal move");
            }
        }
        assert!(stopped * 2 > compared, "stopped early at {stopped} of {compared} decisions");
    }

    /// At a secret decision the move is drawn from the average strategy, which every iteration
    /// changes: the search runs to its budget.
    #[test]
    fn a_search_of_a_secret_decision_is_never_stopped_early() {
        let game = fixture("players/uneven-rock-paper-scissors");
        let budget = Budget { iterations: 300, work: u64::MAX };
        for seed in 0..3 {
            let state = State::new(game.clone(), seed);
            assert!(matches!(state.actor(), Actor::Together(_)));
            let (search, ..) = SearchBot::new(seed, budget).think(&state.seen_by(0), 0);
            assert_eq!(search.iterations, budget.iterations, "seed {seed}");
        }
    }

    fn safe_or_gamble() -> std::sync::Arc<crate::game::Game> {
        fixture("players/safe-or-gamble")
    }

    /// A small budget for the fixture's matches, which are played in debug builds too.
    const SMALL: Budget = Budget { iterations: 500, work: u64::MAX };

    /// The chance a learning search bot for the first player gives the second of choosing at
    /// random, after the fixture's first eleven rounds against `other`.
    fn learned_after_eleven_rounds(seed: u64, other: &mut dyn Bot) -> f64 {
        let mut state = State::new(safe_or_gamble(), seed);
        let mut bot = SearchBot::new(seed, SMALL);
        for _ in 0..11 {
            let mine = bot.choose(&state.seen_by(0), 0).expect("a move");
            let theirs = other.choose(&state.seen_by(1), 1).expect("a move");
            state.apply(0, mine).expect("a legal move");
            state.apply(1, theirs).expect("a legal move");
        }
        bot.opponents.learn(&state.seen_by(0));
        bot.opponents.random_shares(2)[1]
    }

    /// Over a match against a player who chooses at random the bot learns that it does; of a
    /// bot like itself it learns nothing of the kind.
    #[test]
    fn a_bot_learns_whether_a_player_chooses_at_random() {
        let seeds = 0..6;
        let random: Vec<f64> =
            seeds.clone().map(|s| learned_after_eleven_rounds(s, &mut super::super::RandomBot::new(s))).collect();
        let like_itself: Vec<f64> =
            seeds.map(|s| learned_after_eleven_rounds(s, &mut SearchBot::new(s + 100, SMALL))).collect();
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        assert!(mean(&random) > 0.5, "a random player is taken to choose at random: {random:.2?}");
        assert!(mean(&like_itself) < 0.2, "a bot like itself is taken to choose at random: {like_itself:.2?}");
    }

    /// A player taken to choose at random is searched as one: at a secret decision its moves
    /// are drawn alike, where by regret matching it would soon all but give up the move that
    /// only ever loses (folly).
    #[test]
    fn a_player_taken_to_choose_at_random_is_searched_as_one() {
        let state = State::new(safe_or_gamble(), 1);
        let shares = |opponents: Opponents| {
            let bot = SearchBot { opponents, ..SearchBot::new(1, SMALL) };
            let (search, ..) = bot.think(&state.seen_by(0), 0);
            let theirs = search.nodes[0].seats.iter().find(|a| a.seat == 1).expect("the other seat decides too");
            theirs.arms.iter().map(|a| f64::from(a.visits) / f64::from(SMALL.iterations)).collect::<Vec<_>>()
        };
        // Ten choices far likelier at random than as foretold; and none seen.
        let (random, unknown) = (shares(Opponents::having_weighed(1, 10, -30.0)), shares(Opponents::default()));
        assert!(random.iter().all(|s| (s - 1.0 / 3.0).abs() < 0.06), "{random:.2?}");
        assert!(unknown.iter().any(|s| *s < 0.2), "{unknown:.2?}");
    }

    /// The seats whose secret choice at the first decision of the fixture `name` a search bot
    /// of the first player foretells, after a search of `iterations`.
    fn foretold_seats(name: &str, iterations: u32) -> Vec<SeatId> {
        let state = State::new(fixture(&format!("players/{name}")), 1);
        let bot = SearchBot::new(1, Budget { iterations, ..SMALL });
        let (search, ..) = bot.think(&state.seen_by(0), 0);
        search.forecasts(0, 0, 0).iter().map(|f| f.seat).collect()
    }

    /// A seat is foretold only where its moves are the same in every world searched (not from
    /// a hidden hand, whose moves the search weighs as if the seat did not know its own
    /// cards), and only after a search long enough to mean much.
    #[test]
    fn only_a_seat_whose_moves_are_known_is_foretold_after_a_long_enough_search() {
        assert_eq!(foretold_seats("higher-number", SMALL.iterations), [1]);
        assert_eq!(foretold_seats("higher-number", 60), [] as [SeatId; 0], "six moves, ten rounds each");
        assert_eq!(foretold_seats("hidden-high-card", SMALL.iterations), [] as [SeatId; 0]);
    }

    #[test]
    fn a_secret_move_is_drawn_from_the_average_strategy() {
        let (a, b, c) = ((Value::Int(0), false), (Value::Int(1), false), (Value::Int(2), false));
        // The most tried move is not the one the average strategy favours.
        let search = root_with(&[(a, 100, 300.0), (b, 300, 100.0), (c, 5, 0.0)]);
        // The fourth action is a card identical to the first: the same key, weighed once.
        let keys = [Some(a), Some(b), Some(c), Some(a)];
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut drawn = [0u32; 4];
        for _ in 0..4000 {
            drawn[search.drawn(0, &keys, &mut rng).expect("a move") as usize] += 1;
        }
        assert!((2850..=3150).contains(&drawn[0]), "{drawn:?}");
        assert_eq!((drawn[2], drawn[3]), (0, 0), "{drawn:?}");
        assert_eq!(drawn[0] + drawn[1], 4000);
        // In the open, the most tried move, every time.
        assert_eq!(search.best(0, &keys, &mut rng), Some(1));
    }

    #[test]
    fn a_move_with_a_tiny_share_of_the_average_strategy_is_never_drawn() {
        let (a, b, c) = ((Value::Int(0), false), (Value::Int(1), false), (Value::Int(2), false));
        // c's share is 20 of 420, under 5 %: the noise of the search, not a move to mix in.
        let search = root_with(&[(a, 100, 300.0), (b, 300, 100.0), (c, 50, 20.0)]);
        let keys = [Some(a), Some(b), Some(c)];
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut drawn = [0u32; 3];
        for _ in 0..4000 {
            drawn[search.drawn(0, &keys, &mut rng).expect("a move") as usize] += 1;
        }
        assert_eq!(drawn[2], 0, "{drawn:?}");
        assert!((2850..=3150).contains(&drawn[0]), "{drawn:?}");
        // Where every share is below the threshold, the largest stay.
        let spread: Vec<f64> = thresholded(vec![1.0; 12], 12.0);
        assert_eq!(spread, vec![1.0; 12]);
    }
}
