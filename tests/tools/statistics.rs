//! The statistics of `paradox sim` and `paradox compare` on a coin whose odds are known
//! (`fixtures/lab/fair-coin.cards`): the 95 % intervals cover the true value about 95 % of the
//! time, a variant built to favour a seat or the starter is found significant, and a variant
//! with the same odds is called significant no more often than the stated 5 %.

use paradox::compare::report::{Comparison, Report};
use paradox::compare::{Config, Described, Run, entrants};
use paradox::sim::Entrant;
use paradox::{Settings, load};
use std::path::Path;
use std::sync::Arc;

const COIN: &str = "tests/fixtures/lab/fair-coin.cards";

/// The configurations of the coin, loaded, and the run they make.
fn lab(configs: &[&str]) -> (Vec<Entrant>, Run) {
    let rules = std::fs::read_to_string(COIN).expect("the fixture");
    let mut games = Vec::new();
    let mut described = Vec::new();
    for text in configs {
        let config = Config::parse(text).expect("a configuration");
        let settings = config.settings(&Settings::default()).expect("settings");
        let game = load(Path::new(COIN), &settings).expect("checks clean");
        described.push(Described::of(config, &game, &rules));
        games.push(Arc::new(game));
    }
    let run = Run {
        game: "Fair Coin".to_string(),
        file: COIN.to_string(),
        sources: Vec::new(),
        configurations: described,
        seed: 1,
        bots: "random".to_string(),
        precision: None,
        games: 0,
    };
    (entrants(&games, "random").expect("bots"), run)
}

/// The report of `games` matches from seed `seed`, on one thread.
fn report(entrants: &[Entrant], run: &Run, seed: u64, games: u64) -> Report {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a thread");
    let (tallies, _) = paradox::sim::run(entrants, seed, 0..games, &pool, &|| {});
    Report::of(&Run { seed, games, ..run.clone() }, &tallies)
}

fn covers(e: Option<paradox::stats::Estimate>, value: f64) -> bool {
    e.is_some_and(|e| e.low <= value && value <= e.high)
}

/// How many runs of how many matches the rate tests play: enough that a rate of 5 % is told
/// from one of 10 % (three standard errors apart).
const RUNS: u64 = 300;
const MATCHES: u64 = 200;

#[test]
fn intervals_cover_the_fair_share_about_95_percent_of_the_time() {
    let (entrants, run) = lab(&["base"]);
    let (mut share_covered, mut edge_covered) = (0, 0);
    for r in 0..RUNS {
        let figures = &report(&entrants, &run, 1 + r * MATCHES, MATCHES).configurations[0];
        share_covered += u64::from(covers(figures.players[0].share, 0.5));
        edge_covered += u64::from(covers(figures.starter.as_ref().and_then(|s| s.edge), 0.0));
    }
    for (what, covered) in [("player 1's share", share_covered), ("the starter's edge", edge_covered)] {
        let rate = covered as f64 / RUNS as f64;
        assert!((0.91..=0.985).contains(&rate), "{what}: the 95 % interval covered the truth in {rate} of runs");
    }
}

/// Whether the report calls any difference of its one comparison significant.
fn flagged(c: &Comparison) -> bool {
    c.differences.iter().any(|d| d.significant)
}

#[test]
fn a_variant_that_favours_a_seat_or_the_starter_is_found() {
    let (entrants, run) = lab(&["base", "variant:favour_first_seat", "variant:favour_the_starter"]);
    for r in 0..10 {
        let report = report(&entrants, &run, 1 + r * 500, 500);
        let figure = |c: &Comparison, name: &str| {
            c.differences.iter().find(|d| d.figure.starts_with(name)).map(|d| d.significant)
        };
        let [seat, starter, _] = &report.comparisons[..] else { panic!("three comparisons") };
        assert_eq!(figure(seat, "player 1"), Some(true), "{:#?}", seat);
        assert_ne!(figure(seat, "the starting player's edge"), Some(true), "{:#?}", seat);
        assert_eq!(figure(starter, "the starting player's edge"), Some(true), "{:#?}", starter);
        assert!(seat.differences[0].sentence.contains("with variant favour_first_seat: significant"));
        let edge = report.configurations[2].starter.as_ref().and_then(|s| s.edge).expect("an edge");
        assert!(edge.low > 0.0, "the starter's edge is above 0: {edge:?}");
    }
}

#[test]
fn configurations_with_the_same_odds_are_flagged_at_the_stated_rate() {
    let (entrants, run) = lab(&["base", "variant:reshuffled"]);
    let (mut flagged_runs, mut raw) = (0, 0);
    for r in 0..RUNS {
        let report = report(&entrants, &run, 1 + r * MATCHES, MATCHES);
        let c = &report.comparisons[0];
        flagged_runs += u64::from(flagged(c));
        let player = c.differences.iter().find(|d| d.figure.starts_with("player 1")).expect("a test");
        raw += u64::from(player.p < 0.05);
    }
    let (flagged_rate, raw_rate) = (flagged_runs as f64 / RUNS as f64, raw as f64 / RUNS as f64);
    assert!(flagged_rate <= 0.09, "a difference was called significant in {flagged_rate} of runs");
    assert!((0.015..=0.09).contains(&raw_rate), "one test's p fell under 5 % in {raw_rate} of runs");
}

#[test]
fn identical_configurations_are_the_same_in_every_match() {
    let (entrants, run) = lab(&["base", "set:warmup=0"]);
    let report = report(&entrants, &run, 7, 300);
    let c = &report.comparisons[0];
    assert!(c.differences.is_empty(), "{c:#?}");
    assert!(c.unchanged.iter().any(|f| f.starts_with("player 1")), "{c:#?}");
}

#[test]
fn precision_plays_until_every_share_is_close_enough() {
    let (entrants, run) = lab(&["base", "variant:favour_first_seat"]);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("threads");
    let progress = indicatif::ProgressBar::hidden();
    let amount = paradox::compare::Amount::Precision { points: 3.0, cap: 50_000 };
    let (tallies, _) = paradox::compare::play(&entrants, 1, amount, &pool, &progress);
    let played = tallies.matches();
    assert!(paradox::compare::widest(&tallies) <= 0.03, "{played} matches");
    // About 1.96^2 / 4 / 0.03^2 = 1067 matches are needed, played in thousands.
    assert_eq!(played, 2000, "matches played");
    let capped = paradox::compare::Amount::Precision { points: 0.5, cap: 1500 };
    let (tallies, _) = paradox::compare::play(&entrants, 1, capped, &pool, &progress);
    assert_eq!(tallies.matches(), 1500, "the cap holds");
    let report = Report::of(&Run { precision: Some(0.5), games: 1500, ..run }, &tallies);
    assert!(report.precision.is_some_and(|p| p.reached > 0.5 && p.cap == 1500));
}
