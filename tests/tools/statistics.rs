//! The statistics of `paradox sim` and `paradox compare` on coins whose odds are known
//! (`fixtures/lab/fair-coin.cards`, and `coin-rounds.cards` for the figures of play quality):
//! the 95 % intervals cover the true value about 95 % of the time, a variant built to favour a
//! seat or the starter is found significant, and a variant with the same odds is called
//! significant no more often than the stated 5 %.

use paradox::compare::report::{Comparison, Report};
use paradox::compare::{Config, Described, Run, entrants};
use paradox::sim::Entrant;
use paradox::{Settings, load};
use std::path::Path;
use std::sync::Arc;

const COIN: &str = "tests/fixtures/lab/fair-coin.cards";
const ROUNDS: &str = "tests/fixtures/lab/coin-rounds.cards";

/// The configurations of the coin, loaded, and the run they make.
fn lab(configs: &[&str]) -> (Vec<Entrant>, Run) {
    lab_of(COIN, configs, None)
}

/// The configurations of a fixture, loaded with random bots (and `--skill` when given), and
/// the run they make.
fn lab_of(file: &str, configs: &[&str], skill: Option<&str>) -> (Vec<Entrant>, Run) {
    let rules = std::fs::read_to_string(file).expect("the fixture");
    let mut games = Vec::new();
    let mut described = Vec::new();
    for text in configs {
        let config = Config::parse(text).expect("a configuration");
        let settings = config.settings(&Settings::default()).expect("settings");
        let game = load(Path::new(file), &settings).expect("checks clean");
        described.push(Described::of(config, &game, &rules));
        games.push(Arc::new(game));
    }
    let run = Run {
        game: "a coin".to_string(),
        file: file.to_string(),
        sources: Vec::new(),
        configurations: described,
        seed: 1,
        bots: "random".to_string(),
        skill: skill.map(str::to_string),
        precision: None,
        games: 0,
    };
    (entrants(&games, "random", skill).expect("bots"), run)
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
    // About 1.96^2 / 4 / 0.03^2 = 1067 matches are needed: 200 first, then rounded up to a
    // hundred (2000 when the batches were thousands).
    assert_eq!(played, 1100, "matches played");
    let capped = paradox::compare::Amount::Precision { points: 0.5, cap: 1500 };
    let (tallies, _) = paradox::compare::play(&entrants, 1, capped, &pool, &progress);
    assert_eq!(tallies.matches(), 1500, "the cap holds");
    let report = Report::of(&Run { precision: Some(0.5), games: 1500, ..run }, &tallies);
    assert!(report.precision.is_some_and(|p| p.reached > 0.5 && p.cap == 1500));
}

/// What the figures of play quality of `coin-rounds.cards` truly are, counted over its 32
/// equally likely sequences of five tosses (1 a point for P1): the winner's lead after each
/// toss decides them all.
struct Truth {
    comebacks: f64,
    behind: f64,
    security: f64,
    settled: f64,
    trend: [f64; 11],
}

fn truth() -> Truth {
    const TOSSES: usize = 5;
    let (mut comebacks, mut behind, mut led, mut kept, mut settled) = (0.0, 0.0, 0.0, 0.0, 0.0);
    let mut trend = [0.0; 11];
    for tosses in 0..1u32 << TOSSES {
        // P1's points less P2's after each toss, then as the winner sees it.
        let mut diff = vec![0i64];
        for t in 0..TOSSES {
            diff.push(diff[t] + if tosses >> t & 1 == 1 { 1 } else { -1 });
        }
        let sign = diff[TOSSES].signum();
        let lead: Vec<i64> = diff.iter().map(|d| d * sign).collect();
        // The standing at a tenth of the match is the one after the tosses made by then.
        let at = |tenth: usize| lead[TOSSES * tenth / 10];
        let worst = lead[..TOSSES].iter().copied().min().unwrap_or(0);
        if worst < 0 {
            comebacks += 1.0;
            behind += -worst as f64;
        }
        if at(5) != 0 {
            led += 1.0;
            kept += f64::from(u8::from(at(5) > 0));
        }
        settled += (1..10).rev().find(|t| at(*t) <= 0).map_or(1, |t| t + 1) as f64;
        for (tenth, sum) in trend.iter_mut().enumerate() {
            *sum += at(tenth) as f64;
        }
    }
    let all = f64::from(1u32 << TOSSES);
    Truth {
        comebacks: comebacks / all,
        behind: behind / comebacks,
        security: kept / led,
        settled: settled / all / 10.0,
        trend: trend.map(|t| t / all),
    }
}

/// How many runs of how many matches the tests of play quality play: 300 runs, as the rates
/// asked for are counted over; 100 matches each keep the two tests near 30 s of one core in a
/// debug build.
const QUALITY_MATCHES: u64 = 100;

#[test]
fn the_intervals_of_play_quality_cover_the_truth_at_least_90_percent_of_the_time() {
    let (entrants, run) = lab_of(ROUNDS, &["base"], Some("random/random"));
    let t = truth();
    let mut covered: Vec<(String, u64)> = Vec::new();
    let mut count = |name: &str, hit: bool| match covered.iter_mut().find(|(n, _)| n == name) {
        Some((_, c)) => *c += u64::from(hit),
        None => covered.push((name.to_string(), u64::from(hit))),
    };
    for r in 0..RUNS {
        let f = &report(&entrants, &run, 1 + r * QUALITY_MATCHES, QUALITY_MATCHES).configurations[0];
        let skill = f.skill.as_ref().expect("skill measured");
        count("skill: the strong player's share", covers(skill.share, 0.5));
        count("skill: the strong player's edge", covers(skill.edge, 0.0));
        count("fairness: player 1's share", covers(f.players[0].share, 0.5));
        count("fairness: the starter's edge", covers(f.starter.as_ref().and_then(|s| s.edge), 0.0));
        count("drama: matches won from behind", covers(f.comebacks, t.comebacks));
        count("drama: how far behind", covers(f.behind, t.behind));
        count("security: the half-time leader wins", covers(f.security, t.security));
        count("convergence: settled after", covers(f.settled, t.settled));
        count("spread: the winning margin", covers(f.margin.mean, t.trend[10]));
        for tenth in [3, 5, 8] {
            count(&format!("the lead at tenth {tenth}"), covers(f.trend[tenth], t.trend[tenth]));
        }
    }
    let rates: Vec<(String, f64)> = covered.into_iter().map(|(n, hits)| (n, hits as f64 / RUNS as f64)).collect();
    eprintln!("coverage: {rates:?}");
    assert!(rates.iter().all(|(_, rate)| *rate >= 0.90), "the 95 % intervals covered the truth in: {rates:#?}");
}

#[test]
fn identical_odds_raise_a_false_alarm_on_at_most_7_percent_of_runs_per_figure() {
    let (entrants, run) = lab_of(ROUNDS, &["base", "variant:reshuffled"], Some("random/random"));
    let mut alarms: Vec<(String, u64)> = Vec::new();
    let mut fairness = 0;
    for r in 0..RUNS {
        let report = report(&entrants, &run, 1 + r * QUALITY_MATCHES, QUALITY_MATCHES);
        fairness += u64::from(report.configurations[0].fairness.seats.is_some_and(|p| p < 0.05));
        for d in &report.comparisons[0].differences {
            match alarms.iter_mut().find(|(n, _)| *n == d.figure) {
                Some((_, c)) => *c += u64::from(d.significant),
                None => alarms.push((d.figure.clone(), u64::from(d.significant))),
            }
        }
    }
    for figure in ["the strong player wins", "matches won from behind", "the half-time leader wins"] {
        assert!(alarms.iter().any(|(n, _)| n == figure), "{figure} is compared: {alarms:?}");
    }
    alarms.push(("fairness of the seats (its own test)".to_string(), fairness));
    let rates: Vec<(String, f64)> = alarms.into_iter().map(|(n, c)| (n, c as f64 / RUNS as f64)).collect();
    eprintln!("false alarms: {rates:?}");
    assert!(rates.iter().all(|(_, rate)| *rate <= 0.07), "called significant in: {rates:#?}");
}

#[test]
fn the_truth_of_the_coin_rounds_is_what_a_card_player_would_count() {
    // A hand check of the enumeration: of the 32 sequences, 12 are won by a seat that trailed
    // (a comeback needs the loser to lead first), and a 2-0 lead at half-time is kept in 7 of 8.
    let t = truth();
    assert_eq!(t.comebacks, 12.0 / 32.0);
    assert_eq!(t.security, 7.0 / 8.0);
    assert_eq!(t.trend[0], 0.0);
}
