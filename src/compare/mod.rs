//! The variant lab behind `paradox compare` and `paradox sim`: configurations of one rule file
//! ([`Config`]), what a run is made of ([`Run`]: enough to draw its report without the rule
//! file), playing until enough matches are in ([`Amount`]), and the report with its outputs
//! (`report`, `text`, `csv`, `plot`), its shards (`shard`) and what it cost (`cost`);
//! `request` takes a run as asked for, from loading its configurations to its counts.

pub mod cost;
pub mod csv;
pub mod plot;
pub mod report;
pub mod request;
pub mod shard;
pub mod text;

use crate::bots::{Kind, parse_kinds};
use crate::check::Settings;
use crate::game::Game;
use crate::load::Hashed;
use crate::sim::{Entrant, Tallies, Timing};
use crate::stats::share;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One configuration of a rule file: as written (`base`), a named variant (`variant:NAME`),
/// parameters set (`set:NAME=VALUE,NAME=VALUE`), or a variant and settings joined by `+`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// The name the report gives it, as written on the command line.
    pub label: String,
    /// The variant it plays, if any.
    pub variant: Option<String>,
    /// The parameters it sets, as `NAME=VALUE`.
    pub sets: Vec<String>,
}

impl Config {
    /// Reads a configuration as typed on the command line.
    pub fn parse(text: &str) -> Result<Config, String> {
        let wrong = |why: &str| {
            format!(
                "configuration `{text}`: {why}; write `base`, `variant:NAME`, `set:NAME=VALUE,NAME=VALUE` or a variant and settings joined by `+`"
            )
        };
        let mut config = Config { label: text.to_string(), variant: None, sets: Vec::new() };
        for part in text.split('+').map(str::trim) {
            if part == "base" {
                continue;
            }
            if let Some(name) = part.strip_prefix("variant:") {
                if name.is_empty() || config.variant.replace(name.to_string()).is_some() {
                    return Err(wrong("one variant name at most"));
                }
            } else if let Some(sets) = part.strip_prefix("set:") {
                for set in sets.split(',').map(str::trim) {
                    if !set.contains('=') {
                        return Err(wrong(&format!("`{set}` sets no value")));
                    }
                    config.sets.push(set.to_string());
                }
            } else {
                return Err(wrong(&format!("`{part}` is none of these")));
            }
        }
        Ok(config)
    }

    /// The configuration `--set` and `--variant` make (what `paradox sim` plays).
    pub fn of(settings: &Settings) -> Config {
        let mut parts = Vec::new();
        if let Some(v) = &settings.variant {
            parts.push(format!("variant:{v}"));
        }
        if !settings.sets.is_empty() {
            parts.push(format!("set:{}", settings.sets.join(",")));
        }
        let label = if parts.is_empty() { "base".to_string() } else { parts.join("+") };
        Config { label, variant: settings.variant.clone(), sets: settings.sets.clone() }
    }

    /// The settings to load: `common` (given to every configuration), then this one's.
    pub fn settings(&self, common: &Settings) -> Result<Settings, String> {
        if common.variant.is_some() && self.variant.is_some() {
            return Err(format!(
                "configuration `{}` names a variant, and so does --variant: one at a time",
                self.label
            ));
        }
        // This configuration's own value of a parameter replaces the one given to all.
        let own: Vec<String> = self.sets.iter().map(|set| set_name(set)).collect();
        let mut sets: Vec<String> = common.sets.iter().filter(|set| !own.contains(&set_name(set))).cloned().collect();
        sets.extend(self.sets.iter().cloned());
        Ok(Settings { sets, variant: self.variant.clone().or_else(|| common.variant.clone()) })
    }

    /// The configuration as played when `common` (`--set` and `--variant`, given to every
    /// configuration) comes first: its label, the variant in force, and every setting, a later
    /// one of a parameter replacing an earlier one. Its phrase then names all that makes it:
    /// `base` under `--set trick_cost=10` is not the file as written.
    pub fn played(&self, common: &Settings) -> Config {
        let mut sets: Vec<String> = Vec::new();
        for set in common.sets.iter().chain(&self.sets) {
            sets.retain(|s| set_name(s) != set_name(set));
            sets.push(set.clone());
        }
        Config { label: self.label.clone(), variant: self.variant.clone().or_else(|| common.variant.clone()), sets }
    }

    /// How a sentence names it: "as written", "with variant short_game", "with trick_cost=15";
    /// the rule file's description of the variant (`variant_doc`) and of a parameter
    /// (`described`), when it has them, are said after the name: "with variant cheap_tricks
    /// (tricks cost 15 instead of 20)", "with trick_cost=15 (points a trick costs the side that
    /// wins it)".
    pub fn phrase(&self, variant_doc: Option<&str>, described: impl Fn(&str) -> Option<String>) -> String {
        let mut parts = Vec::new();
        if let Some(v) = &self.variant {
            parts.push(match variant_doc {
                Some(doc) => format!("variant {v} ({doc})"),
                None => format!("variant {v}"),
            });
        }
        for set in &self.sets {
            let name = set_name(set);
            parts.push(match described(&name) {
                Some(doc) => format!("{set} ({doc})"),
                None => set.clone(),
            });
        }
        if parts.is_empty() { "as written".to_string() } else { format!("with {}", parts.join(", ")) }
    }
}

/// A parameter's or a variant's description longer than this many characters is cut.
const LONGEST_DOC: usize = 80;

/// A configuration as its report shows it: its name, the game's summary with its parameters,
/// who plays, and the result's key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Described {
    /// The configuration.
    pub config: Config,
    /// The game's one-line summary with its parameter values.
    pub summary: String,
    /// Each player, with its side when the side is its seats alone, and the seats it decides
    /// for: "player 1 (side A: A, B)".
    pub players: Vec<String>,
    /// The sides, when some side has more than one player (otherwise a side is a player).
    pub sides: Vec<String>,
    /// Whether the result ranks sides: then partners win together, and only the sides are
    /// compared.
    pub by_sides: bool,
    /// What the result counts, in words: the name of the variable its key reads ("chips"), or
    /// "points" for a key worked out otherwise.
    pub key: String,
    /// Each parameter with a description in the rule file, and that description (escaped,
    /// cut after `LONGEST_DOC` characters).
    pub docs: Vec<(String, String)>,
    /// The rule file's description of the variant played, if it has one (escaped and cut
    /// the same way).
    #[serde(default)]
    pub variant_doc: Option<String>,
}

impl Described {
    /// Describes `config`, loaded as `game`, whose rule file's text is `rules` (for the result's key).
    pub fn of(config: Config, game: &Game, rules: &str) -> Described {
        let player_of = |s: &u8| game.seats[*s as usize].player;
        // A side that is exactly one player's seats names that player.
        let side_of = |p: usize| {
            let mine = |t: &&crate::game::SideInfo| t.seats.iter().all(|s| player_of(s) == p);
            let whole = game.seats.iter().filter(|s| s.player == p).count();
            game.sides.iter().find(|t| mine(t) && t.seats.len() == whole).map(|t| format!("{}: ", t.display))
        };
        let players = (0..game.players)
            .map(|p| {
                let seats: Vec<&str> =
                    game.seats.iter().filter(|s| s.player == p).map(|s| s.display.as_str()).collect();
                format!("player {} ({}{})", p + 1, side_of(p).unwrap_or_default(), seats.join(", "))
            })
            .collect();
        let partnership = |seats: &[u8]| {
            let first = seats.first().map(player_of);
            seats.iter().any(|s| Some(player_of(s)) != first)
        };
        let sides = if game.sides.iter().any(|t| partnership(&t.seats)) {
            game.sides.iter().map(|t| t.display.clone()).collect()
        } else {
            Vec::new()
        };
        let span = game.result.key.span;
        let key = rules.get(span.start..span.end).map_or_else(|| "points".to_string(), key_words);
        let by_sides = matches!(game.result.domain.kind, crate::game::ExprKind::Sides);
        let described = |doc: &Option<String>| Some(shortened(&crate::printable::escape(doc.as_deref()?)));
        let docs = game.params.iter().filter_map(|p| Some((p.name.clone(), described(&p.doc)?))).collect();
        let variant = game.variants.iter().find(|v| Some(&v.name) == config.variant.as_ref());
        let variant_doc = variant.and_then(|v| described(&v.doc));
        Described { config, summary: game.summary(), players, sides, by_sides, key, docs, variant_doc }
    }

    /// How a sentence names the configuration, its parameters explained.
    pub fn phrase(&self) -> String {
        let param_doc = |name: &str| self.docs.iter().find(|(n, _)| n == name).map(|(_, d)| d.clone());
        self.config.phrase(self.variant_doc.as_deref(), param_doc)
    }
}

/// What a result's key counts, in words: `chips[t]` counts "chips", `tricks_won[s]` "tricks
/// won"; any other expression "points".
fn key_words(key: &str) -> String {
    let key = key.trim();
    let (name, index) = key.split_once('[').unwrap_or((key, "]"));
    let word = |s: &str| !s.is_empty() && s.len() <= 24 && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let indexed = index.strip_suffix(']').is_some_and(|i| i.is_empty() || word(i));
    if word(name) && indexed { name.replace('_', " ") } else { "points".to_string() }
}

/// `text`, cut after [`LONGEST_DOC`] characters with `…`.
fn shortened(text: &str) -> String {
    match text.char_indices().nth(LONGEST_DOC) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// Everything a run's report is drawn from besides the counts: shards of one run share it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// The game's name.
    pub game: String,
    /// The rule file as named on the command line.
    pub file: String,
    /// The rule file (and the one a scenario extends) with its SHA-256.
    pub sources: Vec<Hashed>,
    /// The configurations compared, in the order given.
    pub configurations: Vec<Described>,
    /// The first seed: match `i` of every configuration is played with seed `seed + i`.
    pub seed: u64,
    /// The `--bots` argument every configuration is played with.
    pub bots: String,
    /// The `--skill` argument, `STRONG/WEAK`, when the run measured skill.
    pub skill: Option<String>,
    /// `--precision`, in percentage points, when the run played until its shares were that close.
    pub precision: Option<f64>,
    /// How many matches the run was asked for (the cap, with `--precision`).
    pub games: u64,
}

/// How many matches to play.
#[derive(Clone, Copy, Debug)]
pub enum Amount {
    /// This many per configuration.
    Games(u64),
    /// Until every win share's 95 % interval reaches at most this many percentage points either
    /// side, or `cap` matches per configuration.
    Precision {
        /// How close every share must be, in percentage points either side.
        points: f64,
        /// The most matches to play per configuration.
        cap: u64,
    },
}

/// The configurations of a run, loaded: a game and bots for each, and the strong and the weak
/// kind of bot of `--skill STRONG/WEAK` when it is given.
pub fn entrants(games: &[Arc<Game>], bots: &str, skill: Option<&str>) -> Result<Vec<Entrant>, String> {
    let skill = skill.map(parse_skill).transpose()?;
    let entrant = |g: &Arc<Game>| {
        let entrant = Entrant::new(g.clone(), parse_kinds(bots, g.players)?);
        Ok(match skill {
            Some([strong, weak]) => entrant.with_skill(strong, weak),
            None => entrant,
        })
    };
    games.iter().map(entrant).collect::<Result<Vec<_>, String>>()
}

/// Reads `--skill STRONG/WEAK`: two kinds of bot.
fn parse_skill(text: &str) -> Result<[Kind; 2], String> {
    let wrong = |why: String| format!("--skill {text}: {why}; write STRONG/WEAK, as in default/random");
    let (strong, weak) = text.split_once('/').ok_or_else(|| wrong("no `/`".to_string()))?;
    let kind = |name: &str| match parse_kinds(name, 1).map_err(&wrong)?[..] {
        [kind] => Ok(kind),
        _ => Err(wrong(format!("`{name}` is not one kind of bot"))),
    };
    Ok([kind(strong)?, kind(weak)?])
}

/// The first matches played under `--precision`, before the intervals are first looked at.
const FIRST_BATCH: u64 = 200;

/// Later batches under `--precision` end at a multiple of this many matches.
const BATCH_STEP: u64 = 100;

/// Plays the run: `amount` decides how many matches. Under `--precision` it plays in batches,
/// `FIRST_BATCH` (200) first, then each sized from the headline shares so far (rounded up to a
/// multiple of `BATCH_STEP`), so the matches played depend only on the counts, never on the
/// threads. `progress` is told the matches planned and
/// each seed done.
pub fn play(
    entrants: &[Entrant],
    seed: u64,
    amount: Amount,
    pool: &rayon::ThreadPool,
    progress: &indicatif::ProgressBar,
) -> (Tallies, Timing) {
    let done = || progress.inc(1);
    match amount {
        Amount::Games(n) => {
            progress.set_length(n);
            crate::sim::run(entrants, seed, 0..n, pool, &done)
        }
        Amount::Precision { points, cap } => {
            let mut tallies = Tallies::new(entrants);
            let mut timing = Timing::default();
            let mut target = FIRST_BATCH.min(cap);
            loop {
                progress.set_length(target);
                let (more, t) = crate::sim::run(entrants, seed, tallies.matches()..target, pool, &done);
                tallies.merge(&more).expect("the counts of matches played here fit");
                timing.merge(t);
                let played = tallies.matches();
                let needed = matches_needed(&tallies, points / 100.0);
                if needed <= played || played >= cap {
                    return (tallies, timing);
                }
                target = cap.min(needed.div_ceil(BATCH_STEP) * BATCH_STEP).max(played + 1);
            }
        }
    }
}

/// The headline shares of every configuration, which `--precision` makes precise, each as
/// (count, matches it is out of): every player's and side's wins, the starting player's wins,
/// the matches won from behind, and the strong player's wins of `--skill`. A share out of no
/// match counts only for the wins (then nothing finished, and the run is not precise yet).
fn headline_counts(tallies: &Tallies) -> impl Iterator<Item = (u64, u64)> + '_ {
    tallies.configurations.iter().flat_map(|t| {
        let wins = t.wins.iter().chain(&t.side_wins).map(move |w| (*w, t.finished()));
        let others = [(t.starter_wins, t.started), (t.comebacks, t.finished()), (t.skill.wins, t.skill.finished())];
        wins.chain(others.into_iter().filter(|(_, n)| *n > 0))
    })
}

/// The widest 95 % interval of any headline share, as the largest distance from a share to an
/// end of its interval (a fraction; 1 when nothing finished).
pub fn widest(tallies: &Tallies) -> f64 {
    headline_counts(tallies).map(|(k, n)| share(k, n).map_or(1.0, |e| e.half_width())).fold(0.0, f64::max)
}

/// Matches per configuration after which every headline share's interval should be within
/// `precision` (a fraction), judged from the counts so far; the matches played if they are.
fn matches_needed(tallies: &Tallies, precision: f64) -> u64 {
    let played = tallies.matches();
    if widest(tallies) <= precision {
        return played;
    }
    let z2 = crate::stats::Z95 * crate::stats::Z95;
    // A share out of fewer matches than were played (the finished ones, those with a starter)
    // needs as many more matches as it is short of.
    let needed = headline_counts(tallies)
        .map(|(k, n)| {
            let p = (k as f64 + 1.0) / (n as f64 + 2.0);
            let counted = (n as f64 / played.max(1) as f64).max(0.01);
            z2 * p * (1.0 - p) / (precision * precision) / counted
        })
        .fold(0.0, f64::max);
    (needed.ceil() as u64).max(played + 1)
}

/// The parameter a `NAME=VALUE` setting sets.
fn set_name(set: &str) -> String {
    set.split_once('=').map_or(set, |(n, _)| n).trim().to_string()
}
