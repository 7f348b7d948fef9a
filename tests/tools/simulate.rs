//! `paradox check --simulate N`: after a file checks clean, N random matches (seeds 1 to N, as
//! `paradox trace --seed` plays them) must not stop. Each fixture in `fixtures/runtime` checks
//! clean but stops during play; what the command prints for it is a snapshot.

use crate::run::{command, run};
use paradox::{Settings, load};
use std::path::Path;
use std::sync::Arc;

/// How many matches the fixtures are played for.
const MATCHES: &str = "6";

/// Runs `paradox ARGS` 80 columns wide: the exit code and what it printed, standard output
/// first.
fn printed(args: &[&str]) -> (Option<i32>, String) {
    let run = run(command(args).env("COLUMNS", "80"));
    (run.code, run.stdout + &run.stderr)
}

#[test]
fn runtime_fixtures_stop_and_point_at_the_rule() {
    insta::glob!("..", "fixtures/runtime/*.cards", |path| {
        let name =
            format!("tests/fixtures/runtime/{}", path.file_name().and_then(|n| n.to_str()).expect("a file name"));
        // The file itself is valid.
        let (code, text) = printed(&["check", &name]);
        assert_eq!(code, Some(0), "{name} checks clean:\n{text}");
        let (code, text) = printed(&["check", &name, "--simulate", MATCHES]);
        assert_eq!(code, Some(1), "{name} stops during play:\n{text}");
        insta::assert_snapshot!(text);
    });
}

#[test]
fn every_rule_file_plays_random_matches_without_stopping() {
    let mut args = vec!["check", "--simulate", "20"];
    let files: Vec<String> = ["anarchy", "buddy-on-your-left", "costly-tricks", "pairadox", "tantony", "third-man"]
        .iter()
        .map(|g| format!("rules/{g}.cards"))
        .collect();
    args.extend(files.iter().map(String::as_str));
    let (code, text) = printed(&args);
    assert_eq!(code, Some(0), "{text}");
    for file in &files {
        assert!(text.contains(&format!("{file}: 20 random matches played, none stopped")), "{text}");
    }
}

/// Every example plays on at random to its end: a scenario that sets out one position must leave
/// the rest of the game playable (`fishing-equal-or-sum.cards` once left a stock that the next
/// deal could not divide).
#[test]
fn every_example_plays_random_matches_without_stopping() {
    let mut examples: Vec<_> = std::fs::read_dir("examples")
        .expect("the examples folder")
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "cards"))
        .collect();
    examples.sort();
    assert!(examples.len() > 20, "{examples:?}");
    for path in examples {
        let game = Arc::new(load(&path, &Settings::default()).expect("checks clean"));
        let found = paradox::sim::shakedown(game, 5);
        let problems: Vec<&str> = found.stoppages.iter().map(|s| s.problem.message.as_str()).collect();
        assert_eq!(found.stopped(), 0, "{}: {problems:?}", path.display());
    }
}

#[test]
fn the_matches_that_stop_are_those_trace_stops_at_the_same_seeds() {
    let path = Path::new("tests/fixtures/runtime/division-by-zero.cards");
    let game = Arc::new(load(path, &Settings::default()).expect("checks clean"));
    let found = paradox::sim::shakedown(game.clone(), 12);
    assert_eq!(found.matches, 12);
    assert_eq!(found.stoppages.len(), 1, "one problem, however many matches it stops");
    let stopped = &found.stoppages[0].seeds;
    assert!(!stopped.is_empty() && stopped.len() < 12, "some matches stop, some do not: {stopped:?}");
    for seed in 1..=12 {
        let traced = paradox::trace::random_match(game.clone(), seed);
        assert_eq!(traced.failure().is_some(), stopped.contains(&seed), "seed {seed}");
    }
}

#[test]
fn settings_and_variants_are_simulated_and_kept_in_the_replay() {
    let file = "tests/fixtures/runtime/division-by-zero.cards";
    // No card has rank 0: nothing divides by zero.
    let (code, text) = printed(&["check", file, "--simulate", "8", "--set", "pivot=0"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("8 random matches played, none stopped"), "{text}");
    let (code, text) = printed(&["check", file, "--simulate", "8", "--set", "pivot=3"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains(&format!("replay: paradox trace {file} --set pivot=3 --seed ")), "{text}");
    let (code, text) =
        printed(&["check", "rules/costly-tricks.cards", "--variant", "tug_of_war_short", "--simulate", "5"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("variant tug_of_war_short") && text.contains("5 random matches played, none stopped"),
        "{text}"
    );
}
