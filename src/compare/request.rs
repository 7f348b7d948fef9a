//! A `sim` or `compare` run as asked for ([`Request`]: the rule file, its configurations, the
//! players, how many matches), loaded ([`Request::prepare`]: each configuration's game and
//! bots, and the [`Run`] its report names) and played ([`Prepared::play`]: the whole run or one
//! shard of it). The command line and the Python package both go this way, so the same request
//! gives them the same report.

use super::{Amount, Config, Described, Run};
use crate::bots::Kind;
use crate::check::Settings;
use crate::compiled::Engine;
use crate::load::{LoadError, load};
use crate::sim::{Entrant, Tallies, Timing};
use std::path::PathBuf;
use std::sync::Arc;

/// What a run is asked to play.
#[derive(Clone, Debug)]
pub struct Request {
    /// The rule file or scenario.
    pub file: PathBuf,
    /// The configurations, in the order the report gives them.
    pub configs: Vec<Config>,
    /// Settings given to every configuration, before its own.
    pub common: Settings,
    /// Matches per configuration (without `precision`).
    pub games: u64,
    /// Match `i` is played from seed `seed + i`.
    pub seed: u64,
    /// The `--bots` argument: one kind of bot, or one per player.
    pub bots: String,
    /// The `--skill STRONG/WEAK` argument, when skill is measured.
    pub skill: Option<String>,
    /// Play until the figures are this precise, in percentage points (instead of `games`).
    pub precision: Option<f64>,
    /// The most matches per configuration `precision` plays.
    pub max_games: u64,
    /// The engine the matches are played on.
    pub engine: Engine,
}

/// Why a request cannot be played.
#[derive(Debug)]
pub enum Refused {
    /// Something asked for is wrong (a usage error on the command line), said in a sentence.
    Asked(String),
    /// A configuration's game could not be loaded: its label when the run has several.
    Load(Option<String>, LoadError),
}

/// A request loaded: the run its report names, and each configuration's game and bots.
pub struct Prepared {
    /// What the report is drawn from besides the counts.
    pub run: Run,
    /// Each configuration, ready to play.
    pub entrants: Vec<Entrant>,
}

/// How many matches make a run long enough to pay for building the compiled engine (a build
/// takes about as long as a few hundred thousand decisions of the interpreter).
const WORTH_BUILDING: u64 = 100_000;

/// How much thinking (matches, times the work one move of their most thoughtful bot may take)
/// pays for building the compiled engine: one match of the default players, two hundred of
/// `greedy` ones (a default player's match takes as long as tens of thousands of random ones).
/// A fixed amount of work, as the build's cost is: not tied to the bots' budgets.
const WORTH_THINKING: u64 = 8_000_000;

/// Whether `matches` played by bots of `kinds` pay for building the compiled engine: what
/// `--engine auto` builds for in `sim`, `compare` and `ladder`.
pub fn worth_building<'a>(matches: u64, kinds: impl Iterator<Item = &'a Kind>) -> bool {
    let thinking = kinds.map(thinks).max().unwrap_or(0);
    matches >= WORTH_BUILDING || matches.saturating_mul(thinking) >= WORTH_THINKING
}

/// The work one move of a bot of this kind may take (0: it does not search).
fn thinks(kind: &Kind) -> u64 {
    match kind {
        Kind::Random => 0,
        Kind::Search(budget) => budget.work,
        Kind::Solver => crate::Budget::DEFAULT.work,
    }
}

/// The most threads a run plays on.
pub const MOST_THREADS: usize = 256;

/// The stack of each thread that plays: rule files may nest definitions hundreds deep.
const STACK: usize = 64 << 20;

impl Request {
    /// Loads every configuration and its bots (the compiled engine where `engine` says), and
    /// describes the run.
    pub fn prepare(&self) -> Result<Prepared, Refused> {
        if let Some(points) = self.precision.filter(|p| !(*p > 0.0 && *p < 100.0)) {
            return Err(Refused::Asked(format!(
                "--precision {points}: give percentage points above 0 and below 100, as in 2"
            )));
        }
        let (rules, origin) = crate::repl::origin(&self.file, &self.common).map_err(Refused::Asked)?;
        let several = self.configs.len() > 1;
        let mut loaded = Vec::new();
        let mut described: Vec<Described> = Vec::new();
        for config in &self.configs {
            let settings = config.settings(&self.common).map_err(Refused::Asked)?;
            if described.iter().any(|d| d.config.label == config.label) {
                return Err(Refused::Asked(format!("configuration `{}` is given twice", config.label)));
            }
            let game =
                load(&self.file, &settings).map_err(|e| Refused::Load(several.then(|| config.label.clone()), e))?;
            described.push(Described::of(config.played(&self.common), &game, &rules.text));
            loaded.push(Arc::new(game));
        }
        let mut entrants = super::entrants(&loaded, &self.bots, self.skill.as_deref())
            .map_err(|m| Refused::Asked(if m.starts_with("--skill") { m } else { format!("--bots: {m}") }))?;
        let label = crate::printable::path(&self.file);
        let games = if self.precision.is_some() { self.max_games } else { self.games };
        let matches = games.saturating_mul(entrants.len() as u64);
        let worth =
            worth_building(matches, entrants.iter().flat_map(|e| e.kinds.iter().chain(e.skill.iter().flatten())));
        for entrant in &mut entrants {
            let playable =
                crate::compiled::choose(&entrant.game, self.engine, &label, worth).map_err(Refused::Asked)?;
            entrant.play_with(playable);
        }
        let run = Run {
            game: loaded.first().map_or(String::new(), |g| g.name.clone()),
            file: self.file.display().to_string(),
            sources: origin.sources,
            configurations: described,
            seed: self.seed,
            bots: self.bots.clone(),
            skill: self.skill.clone(),
            precision: self.precision,
            games,
        };
        Ok(Prepared { run, entrants })
    }
}

impl Prepared {
    /// Plays the run on `threads` threads (1 to [`MOST_THREADS`]; one per core for `None`), or
    /// only the matches of shard `[i, n]` (the `i`-th of `n` slices); `progress`, if given, is
    /// told the matches planned and each seed done. The counts are the same for any number of
    /// threads.
    pub fn play(
        &self,
        threads: Option<usize>,
        shard: Option<[u64; 2]>,
        progress: Option<&indicatif::ProgressBar>,
    ) -> Result<(Tallies, Timing), String> {
        if let Some(n) = threads.filter(|n| !(1..=MOST_THREADS).contains(n)) {
            return Err(format!("--threads {n}: give 1 to {MOST_THREADS}"));
        }
        let hidden = indicatif::ProgressBar::hidden();
        let progress = progress.unwrap_or(&hidden);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.unwrap_or(0))
            .stack_size(STACK)
            .build()
            .map_err(|e| format!("--threads: {e}"))?;
        let run = &self.run;
        Ok(match (shard, run.precision) {
            (Some(shard), _) => {
                let matches = super::shard::slice(run.games, shard);
                progress.set_length(matches.end - matches.start);
                crate::sim::run(&self.entrants, run.seed, matches, &pool, &|| progress.inc(1))
            }
            (None, Some(points)) => {
                let amount = Amount::Precision { points, cap: run.games };
                super::play(&self.entrants, run.seed, amount, &pool, progress)
            }
            (None, None) => super::play(&self.entrants, run.seed, Amount::Games(run.games), &pool, progress),
        })
    }
}
