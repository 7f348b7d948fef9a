//! The report of `sim` and `compare` as a card player reads it: each thing it says plainly and
//! correctly (issue 25), each test failing before its fix.

use crate::run::paradox;
use std::path::{Path, PathBuf};

const COIN: &str = "tests/fixtures/lab/fair-coin.cards";
const ROUNDS: &str = "tests/fixtures/lab/coin-rounds.cards";
const COSTLY: &str = "rules/costly-tricks.cards";

fn ok(args: &[&str]) -> String {
    paradox(args).expect(0).stdout.clone()
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(&[args, &["--format", "json"]].concat())).expect("JSON")
}

fn temp(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("plain-{}-{name}", std::process::id()))
}

#[test]
fn every_p_of_a_comparison_says_it_is_adjusted() {
    let text = ok(&["compare", COIN, "base", "variant:favour_first_seat", "--games", "200"]);
    let verdicts: Vec<&str> = text.lines().filter(|l| l.contains("significant (")).collect();
    assert!(!verdicts.is_empty(), "{text}");
    for line in verdicts {
        assert!(line.contains("significant (adjusted p "), "{line}");
    }
    assert!(text.contains("the p printed is the adjusted one"), "{text}");
}

#[test]
fn a_figure_that_is_a_fixed_multiple_of_another_is_one_finding() {
    // Each toss is one round and one decision: seven tosses are two more of each.
    let text = ok(&["compare", ROUNDS, "base", "set:rounds=7", "--games", "100"]);
    assert!(text.contains("Rounds per match (with 1 decision a round): 7.00"), "{text}");
    assert!(!text.contains("Decisions per match:") && !text.contains("  decisions per match "), "{text}");
}

#[test]
fn figure_names_show_no_rule_file_code() {
    let text = ok(&["compare", COSTLY, "base", "set:trick_cost=15", "--games", "20"]);
    assert!(!text.contains("chips[t]"), "{text}");
    assert!(text.contains("winning margin in chips"), "{text}");
}

#[test]
fn a_setting_is_named_with_the_description_of_its_parameter() {
    let text = ok(&["compare", COSTLY, "base", "set:trick_cost=15", "--games", "20"]);
    assert!(text.contains("\nWith trick_cost=15 (points a trick costs the side that wins it), against as written:\n"));
}

#[test]
fn rounds_that_change_no_score_are_counted() {
    let report = json(&["sim", COSTLY, "--games", "60", "--seed", "4"]);
    let drawn = report["configurations"][0]["drawn_rounds"]["value"].as_f64().expect("a mean");
    assert!(drawn > 0.0, "a round of Costly Tricks can give no chip: {}", report["configurations"][0]);
    let coin = json(&["sim", ROUNDS, "--games", "60"]);
    assert_eq!(coin["configurations"][0]["drawn_rounds"]["value"], 0.0, "every toss scores");
}

#[test]
fn the_starters_edge_has_an_honest_interval_in_small_runs() {
    // Four matches: once all lost by the starter (the interval had no width), once even (it
    // went past the ±50 points an edge of two players can be).
    for seed in ["6", "1"] {
        let report = json(&["sim", COSTLY, "--games", "4", "--seed", seed]);
        let edge = &report["configurations"][0]["starter"]["edge"];
        let (low, value, high) = (edge["low"].as_f64(), edge["value"].as_f64(), edge["high"].as_f64());
        let (Some(low), Some(value), Some(high)) = (low, value, high) else { panic!("an edge: {edge}") };
        assert!(low < high && low <= value && value <= high, "seed {seed}: {edge}");
        assert!(-0.5 <= low && high <= 0.5, "seed {seed}: {edge}");
    }
}

#[test]
fn the_help_says_how_precision_plays() {
    let help = ok(&["compare", "--help"]);
    assert!(help.contains("first 200 matches") && help.contains("rounded up to a hundred"), "{help}");
}

#[test]
fn the_match_length_plot_says_what_its_last_bar_holds() {
    // Costly Tricks' longest matches lie past the 99th percentile the bars stop at.
    let path = temp("length.svg");
    let p = path.to_str().expect("a path");
    ok(&["sim", COSTLY, "--games", "300", "--plot", p]);
    let svg = std::fs::read_to_string(&path).expect("the plot");
    assert!(svg.contains("the last bar counts every match of "), "the plot hides its longest matches");
}

#[test]
fn a_png_plot_is_drawn_or_plainly_refused() {
    let path = temp("coin.png");
    let p = path.to_str().expect("a path");
    let run = paradox(["sim", COIN, "--games", "20", "--plot", p]);
    if cfg!(feature = "png") {
        run.expect(0);
        let bytes = std::fs::read(&path).expect("the picture");
        assert!(bytes.starts_with(b"\x89PNG"), "a PNG file");
        // An SVG too: in this build plotters measures its letters with the PNG's font.
        let svg = temp("coin-beside-png.svg");
        paradox(["sim", COIN, "--games", "20", "--plot", svg.to_str().expect("a path")]).expect(0);
        assert!(std::fs::read_to_string(&svg).expect("the SVG").starts_with("<svg"), "an SVG file");
    } else {
        let err = &run.expect(2).stderr;
        assert!(err.contains("built without PNG plots (build it with `--features png`)"), "{err}");
    }
}
