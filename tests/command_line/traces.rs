//! Whole matches as `paradox trace` prints them: every rule file at seeds 1 and 2, between
//! random bots, kept as snapshots. Each snapshot was read through and checked against the
//! rules (RULINGS.md) before it was accepted: a change to one is a change to how a game plays.

use crate::run::paradox;
use paradox::{Settings, load};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Every rule file in `rules/`, in name order.
fn rule_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the rules folder")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cards"))
        .collect();
    files.sort();
    assert!(files.len() >= 6, "the six games are in rules/");
    files
}

fn stem(path: &Path) -> String {
    path.file_stem().and_then(|s| s.to_str()).expect("a file name").to_string()
}

/// The text `paradox trace FILE --seed SEED` prints, made by the same library calls.
fn trace(path: &Path, seed: u64) -> String {
    let game = load(path, &Settings::default()).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
    let state = paradox::trace::random_match(Arc::new(game), seed);
    assert!(state.failure().is_none(), "{}: {:?}", path.display(), state.failure());
    assert!(state.outcome().is_some(), "{} seed {seed}: the match ends", path.display());
    paradox::trace::text(&state)
}

#[test]
fn every_rule_file_at_seeds_1_and_2() {
    for path in rule_files() {
        for seed in [1, 2] {
            let text = trace(&path, seed);
            insta::assert_snapshot!(format!("{}-seed{seed}", stem(&path)), text);
        }
    }
}

/// The standard output of a run that must succeed.
fn ok(args: &[&str]) -> String {
    paradox(args).expect(0).stdout.clone()
}

#[test]
fn the_command_prints_the_snapshotted_text_and_the_same_bytes_twice() {
    for path in rule_files() {
        let file = format!("rules/{}.cards", stem(&path));
        let first = ok(&["trace", &file, "--seed", "1"]);
        let second = ok(&["trace", &file, "--seed", "1"]);
        assert!(first == second, "{file}: two runs with one seed differ");
        assert!(first == trace(&path, 1), "{file}: the command and the library differ");
    }
}

#[test]
fn json_lines_each_parse_and_end_with_the_result() {
    for path in rule_files() {
        let file = format!("rules/{}.cards", stem(&path));
        let out = ok(&["trace", &file, "--seed", "1", "--format", "json"]);
        let lines: Vec<serde_json::Value> = out
            .lines()
            .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{file}: {e}: {line}")))
            .collect();
        assert!(lines.len() > 10, "{file}: a whole match");
        let (last, events) = lines.split_last().expect("lines");
        assert!(events.iter().all(|e| e.get("event").is_some() && e["text"].is_string()), "{file}: events");
        assert!(last["outcome"].is_object() && last["failure"].is_null(), "{file}: the result line: {last}");
        assert!(last["decisions"].as_u64().is_some_and(|n| n > 0), "{file}: decisions counted");
        let again = ok(&["trace", &file, "--seed", "1", "--format", "json"]);
        assert!(out == again, "{file}: JSON lines differ between two runs");
        // A phase's start reads the same in both: numbered within its round, as the table does.
        let phases = events.iter().filter(|e| e["event"].get("Phase").is_some()).map(|e| e["text"].as_str());
        let text = trace(&path, 1);
        let headings = text.lines().filter(|l| l.starts_with("-- ")).map(Some);
        assert!(phases.eq(headings), "{file}: the phases' lines differ between text and JSON");
    }
}

#[test]
fn a_value_drawn_by_lot_is_named_by_its_type() {
    let text = r#"
game "Draw a suit"
players 2
enum Suit { clubs, hearts, spades }
card { suit: Suit  name "the {suit}" }
deck { for s in Suit { card { suit: s } } }
zone stock { see: everyone }
var trump: Suit = clubs
var score: int per seat = 0
play {
  trump = random x in Suit
  let other = random x in Suit where x != trump
  let only = random x in Suit where x == trump
  choose c from stock by P1
  score[P1] += 1
}
result highest s in seats by score[s]
"#;
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("traces-{}-draw.cards", std::process::id()));
    std::fs::write(&path, text).expect("a temporary file");
    let traced = trace(&path, 1);
    let lines: Vec<&str> = traced.lines().take(3).collect();
    let suit = |line: &str| ["clubs", "hearts", "spades"].iter().any(|s| line.ends_with(&format!(": {s}")));
    assert!(lines[0].starts_with("drawn by lot among 3: ") && suit(lines[0]), "{traced}");
    assert!(lines[1].starts_with("drawn by lot among 2: ") && suit(lines[1]), "{traced}");
    assert!(lines[2].starts_with("no draw needed: ") && lines[2].ends_with(" is the only candidate"), "{traced}");
    assert!(!traced.contains("value "), "enumeration values are named: {traced}");
}

/// A result whose key ties, broken by `then`: the tie-break decides who wins, and the result
/// line shows the key alone, what the players scored.
#[test]
fn a_tie_break_decides_the_winner_and_the_result_line_shows_the_key() {
    let text = "game \"Ties\"\nplayers 2\ncard { n: 1..1 name \"counter {n}\" }\ndeck { card { n: 1 } }\n\
                zone pile\nvar points: int per seat = 0\nvar first: seat? = none\n\
                play {\n  points[P1] = 3\n  points[P2] = 3\n  first = P2\n}\n\
                result highest s in seats by points[s] then (if first == s then 1 else 0)\n";
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("ties.cards");
    std::fs::write(&file, text).expect("the rule file is written");
    let run = paradox(["trace".as_ref(), file.as_os_str()]);
    assert_eq!(run.stdout.lines().last(), Some("result: P1 3, P2 3 (won by P2) after 0 decisions"), "{}", run.stderr);
}

#[test]
fn the_trace_numbers_phases_within_the_round_as_the_table_does() {
    let path = Path::new("rules/costly-tricks.cards");
    let game = Arc::new(load(path, &Settings::default()).expect("the rules"));
    let state = paradox::trace::random_match(game, 1);
    let text = paradox::trace::text(&state);
    let round_two: Vec<&str> =
        text.lines().skip_while(|l| *l != "-- round 2 --").filter(|l| l.starts_with("-- ")).collect();
    assert_eq!(round_two[..3], ["-- round 2 --", "-- round 2, deal 1 --", "-- round 2, trick 1 --"]);
    // What a player is told counts the same trick the same way.
    let told = state.log_for(0);
    let told: Vec<&String> =
        told.iter().skip_while(|l| !l.starts_with("-- round 2")).filter(|l| l.starts_with("-- ")).collect();
    assert_eq!(told[1], "-- trick 1 of 11 --", "{told:?}");
}
