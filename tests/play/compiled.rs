//! The compiled engine against the interpreter, the reference: random matches played side by
//! side from the same seeds, with the same moves, must stand in the same position (and have
//! done the same work) after every move, and end the same way. The kernels are built once per
//! run into a folder of the test's own; where no Rust compiler can be run, the tests say so and
//! check nothing else.

use paradox::compiled::{Compiled, compiled_in, source, toolchain};
use paradox::{Actor, Findings, Game, Playable, Settings, Source, State, Style, load, render};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// The kernels' cache for this run: a folder under cargo's target directory, emptied when the run
/// first asks for it (a kernel built by an earlier run of other code must not stand in), so that
/// runs leave one folder behind, not one each.
fn cache() -> &'static Path {
    static DIR: OnceLock<std::path::PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("play-kernels");
        if dir.exists() {
            std::fs::remove_dir_all(&dir).expect("the last run's kernels removed");
        }
        std::fs::create_dir_all(&dir).expect("a folder for the kernels");
        dir
    })
}

pub(crate) fn game_of(file: &str, sets: &[&str]) -> Arc<Game> {
    let settings = Settings { sets: sets.iter().map(|s| s.to_string()).collect(), variant: None };
    Arc::new(load(Path::new(file), &settings).unwrap_or_else(|e| panic!("{file}: {e:?}")))
}

/// The game of the rule file `text`, written as `name` into a temporary folder that lives as long
/// as the game is needed (the folder is returned with it).
fn written_game(name: &str, text: &str) -> (tempfile::TempDir, std::path::PathBuf, Arc<Game>) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join(name);
    std::fs::write(&file, text).expect("written");
    let game = game_of(&file.display().to_string(), &[]);
    (dir, file, game)
}

/// The game's compiled engine, or `None` (said) where no Rust compiler can be run. One test at a
/// time gets its kernel, so that tests asking for the same kernel at once build it once.
pub(crate) fn compiled(game: &Arc<Game>) -> Option<Compiled> {
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    if toolchain().is_none() {
        eprintln!("skipped: no Rust compiler (rustc) here to build the compiled engine");
        return None;
    }
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
    Some(compiled_in(game, cache(), true).unwrap_or_else(|e| panic!("{}: {e}", game.name)))
}

/// Plays `matches` random matches in both engines side by side, comparing after every move;
/// returns the decisions made.
fn side_by_side(game: &Arc<Game>, compiled: &Playable, seeds: std::ops::Range<u64>) -> u64 {
    let interpreted = Playable::new(game.clone());
    let mut decisions = 0;
    for seed in seeds {
        let mut a = State::bare(interpreted.clone(), seed);
        let mut b = State::bare(compiled.clone(), seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xd1ff);
        loop {
            assert_eq!(a.position(), b.position(), "{}: seed {seed}, after {decisions} decisions", game.name);
            assert_eq!(a.work(), b.work(), "{}: seed {seed}: the work done", game.name);
            same_keys(&a, &b, &format!("{}: seed {seed}, after {decisions} decisions", game.name));
            let seat = match a.actor() {
                Actor::Seat(s) => s,
                Actor::Together(seats) => seats[0],
                Actor::Nobody => break,
            };
            let n = a.action_count(seat);
            let pick = rng.random_range(0..n) as u32;
            a.apply(seat, pick).expect("a legal move");
            b.apply(seat, pick).expect("a legal move");
            decisions += 1;
        }
        same_keys(&a, &b, &format!("{}: seed {seed}, at the end", game.name));
        assert_eq!(a.outcome(), b.outcome(), "{}: seed {seed}", game.name);
        assert_eq!(a.failure(), b.failure(), "{}: seed {seed}", game.name);
    }
    decisions
}

/// The result's keys and each `solve` quantity, which the kernel works out itself, are the
/// interpreter's.
fn same_keys(a: &State, b: &State, when: &str) {
    assert_eq!(a.standings(), b.standings(), "{when}: the standings");
    assert_eq!(a.player_keys(), b.player_keys(), "{when}: the players' keys");
    for phase in a.solved_phases() {
        assert_eq!(a.solve_keys(phase), b.solve_keys(phase), "{when}: the quantity solved in phase {phase}");
    }
}

#[test]
fn take_away_plays_the_same_compiled() {
    let game = game_of("tests/fixtures/valid/take-away.cards", &[]);
    let Some(ready) = compiled(&game) else { return };
    assert!(ready.left.is_empty(), "every statement of take-away runs natively: {:?}", ready.left);
    assert!(side_by_side(&game, &ready.playable, 1..40) > 200);
}

#[test]
fn costly_tricks_plays_the_same_compiled() {
    let game = game_of("rules/costly-tricks.cards", &["chips_to_win=1"]);
    let Some(ready) = compiled(&game) else { return };
    assert!(side_by_side(&game, &ready.playable, 1..6) > 200);
}

#[test]
fn every_shipped_game_plays_the_same_compiled() {
    for file in ["buddy-on-your-left", "third-man", "anarchy", "tantony", "pairadox"] {
        let game = game_of(&format!("rules/{file}.cards"), &[]);
        let Some(ready) = compiled(&game) else { return };
        assert!(side_by_side(&game, &ready.playable, 1..3) > 20, "{file}");
    }
}

/// Builds a kernel for every valid fixture (a few minutes): run it with
/// `cargo test --test play -- --ignored compiled`.
#[test]
#[ignore = "builds a kernel per fixture; CI runs the sample above"]
fn every_valid_fixture_plays_the_same_compiled() {
    let mut files: Vec<_> = std::fs::read_dir("tests/fixtures/valid")
        .expect("the fixtures")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cards"))
        .collect();
    files.sort();
    assert!(files.len() > 10);
    for file in files {
        let game = game_of(&file.display().to_string(), &[]);
        let Some(ready) = compiled(&game) else { return };
        side_by_side(&game, &ready.playable, 1..4);
    }
}

/// A rule file whose names, strings, templates and comments try to inject Rust into the kernel.
const HOSTILE: &str = r#"// "); } fn evil() { std::process::exit(3); } /*
game "x\"); std::process::exit(3); (\""
players 2
seats P1 "\"); panic!(); //", P2 "*/ unsafe { } /*"
enum Colour { inject_exit, panic }
card {
  colour: Colour
  n: 1..3
  name "{colour}\"); std::process::exit(4); //"
}
deck { for c in Colour, n in 1..3 { card { colour: c, n: n } } }
zone pile
zone taken per seat
var turn: seat = P1
var evil_var_exit: int = 0
play {
  while count(pile) > 0 {
    choose k from 1..2 by turn where k <= count(pile) as "\}\}\"); std::process::exit(5); //{k}"
    repeat k { move last(pile) to taken[turn] }
    evil_var_exit += 9223372036854775807 - 9223372036854775806
    turn = left(turn)
  }
}
result highest s in seats by count(taken[s])
"#;

#[test]
fn nothing_of_the_rule_files_text_enters_the_compiled_code() {
    let (_dir, _, game) = written_game("hostile.cards", HOSTILE);
    let code = source(&game).expect("generated");
    for text in ["std::process::exit", "inject", "evil", "taken", "Colour"] {
        assert!(!code.contains(text), "`{text}` from the rule file is in the generated source");
    }
    let Some(ready) = compiled(&game) else { return };
    assert!(side_by_side(&game, &ready.playable, 1..10) > 10);
}

/// Sets joined and taken apart by whole sets: the options of the choice are the joined set.
const JOINED_SETS: &str = r#"game "Joined sets"
players 2
enum Suit { a, b, c, d }
card { suit: Suit  name "{suit}" }
deck { for s in Suit { card { suit: s } } }
zone stock
var mine: set of Suit = [a]
var more: set of Suit = [b, c]
var less: set of Suit = [c]
var score: int = 0
play {
  mine += more
  mine -= less
  choose s from mine by P1
  score = count(mine) + ord(s)
}
result highest p in seats by score
"#;

#[test]
fn a_set_assigned_a_whole_set_plays_the_same_compiled() {
    let (_dir, _, game) = written_game("joined.cards", JOINED_SETS);
    let Some(ready) = compiled(&game) else { return };
    side_by_side(&game, &ready.playable, 1..4);
}

#[test]
fn zone_parameters_compile_and_a_menu_beside_several_cards_is_left_to_the_interpreter() {
    // A definition's instances for its piles are ordinary definitions: nothing is left.
    let game = game_of("tests/fixtures/valid/zone-parameters.cards", &[]);
    let Some(ready) = compiled(&game) else { return };
    assert!(ready.left.is_empty(), "{:?}", ready.left.iter().map(|l| l.what).collect::<Vec<_>>());
    side_by_side(&game, &ready.playable, 1..2);
    let game = game_of("tests/fixtures/valid/menu-beside-several-cards.cards", &[]);
    let Some(ready) = compiled(&game) else { return };
    assert!(ready.left.iter().any(|l| l.what == "a choice of several cards at once"), "{:?}", ready.left.len());
    assert!(side_by_side(&game, &ready.playable, 1..6) >= 30);
}

#[test]
fn a_call_of_a_memo_definition_is_left_to_the_interpreter() {
    // The interpreter keeps a `memo` definition's values; the kernel would work them out again
    // and spend other steps.
    let game = game_of("tests/fixtures/valid/memo.cards", &[]);
    let Some(ready) = compiled(&game) else { return };
    assert!(ready.left.iter().any(|l| l.what == "a call of a `memo` definition"), "{:?}", ready.left.len());
    side_by_side(&game, &ready.playable, 1..2);
}

#[test]
fn a_choice_with_a_declaration_plays_the_same_compiled() {
    let game = game_of("tests/fixtures/valid/choice-blind-by-position.cards", &[]);
    let Some(ready) = compiled(&game) else { return };
    assert!(ready.left.is_empty(), "every statement runs natively: {:?}", ready.left);
    // Both the plain and the declared options get chosen over these seeds.
    assert!(side_by_side(&game, &ready.playable, 1..40) > 100);
}

#[test]
fn text_chosen_inside_templates_plays_the_same_compiled() {
    // The narration's length (which the budgets count) is worked out by the kernel too.
    let game = game_of("tests/fixtures/valid/text-in-templates.cards", &[]);
    let Some(ready) = compiled(&game) else { return };
    assert!(ready.left.is_empty(), "every statement runs natively: {:?}", ready.left);
    assert!(side_by_side(&game, &ready.playable, 1..20) > 100);
}

/// A game of two players, each with a `total`, named `$name` and going on with `$rest` (its
/// definitions, play and result): the two-card preamble the tests below share.
macro_rules! two_player_game {
    ($name:literal, $rest:literal) => {
        concat!(
            "game \"",
            $name,
            "\"\n",
            r#"players 2
card {
  rank: 1..2
  name "card {rank}"
}
deck {
  for r in 1..2 { card { rank: r } }
}
zone stock { see: nobody }
var total: int per seat = 0
"#,
            $rest
        )
    };
}

/// Each decision works out `weight`'s sum of 50,000 numbers: two hundred decisions are more than
/// a match's 5 million steps.
const HOARDING: &str = two_player_game!(
    "Hoarding",
    r#"define weight(n: int): int = sum x in 1..n of x % 2
play {
  repeat 100 {
    for s in seats {
      choose n from 1..2 by s
      total[s] += weight(n + 50000)
    }
  }
}
result highest s in seats by total[s]
"#
);

/// A division by zero after two statements that change no frame: the kernel runs such
/// statements in a row, each counted as the step it is.
const ROWS: &str = two_player_game!(
    "Rows",
    r#"var left: int = 5
play {
  repeat 10 {
    for s in seats {
      choose n from 1..2 by s
      total[s] += n
      left -= 1
      total[s] = total[s] / left
      say "{s} has {total[s]}"
    }
  }
}
result highest s in seats by total[s]
"#
);

/// A problem met in the middle of statements the kernel runs in a row hands that one statement
/// to the interpreter: those before it stay done and counted, and both engines stop at the same
/// step with the same work done.
#[test]
fn a_problem_in_a_row_of_statements_stops_both_engines_at_the_same_step() {
    let (_dir, _, game) = written_game("rows.cards", ROWS);
    let Some(ready) = compiled(&game) else { return };
    assert!(ready.left.is_empty(), "every statement runs natively: {:?}", ready.left);
    assert_eq!(side_by_side(&game, &ready.playable, 1..3), 10, "five decisions a seed, the fifth stopped");
    let mut state = State::bare(ready.playable.clone(), 1);
    while let Actor::Seat(seat) = state.actor() {
        state.apply(seat, 0).expect("a legal move");
    }
    let problem = state.failure().expect("the match stops");
    assert!(problem.message.contains("division by zero"), "{}", problem.message);
}

/// A budget run out stops both engines with the same diagnostic, pointing where the steps went:
/// the kernel hands every step past half a budget to the interpreter, which counts them.
#[test]
fn a_budget_run_out_names_where_the_steps_went_in_both_engines() {
    let (_dir, file, _) = written_game("hoarding.cards", HOARDING);
    for (file, text, budget, name) in [
        ("tests/fixtures/runtime/budget-spent-in-a-definition.cards".to_string(), None, "a million steps", "decision"),
        (file.display().to_string(), Some(HOARDING), "the whole match", "match"),
    ] {
        let game = game_of(&file, &[]);
        let Some(ready) = compiled(&game) else { return };
        assert!(ready.left.is_empty(), "every statement runs natively: {:?}", ready.left);
        side_by_side(&game, &ready.playable, 1..2);
        let mut state = State::bare(ready.playable.clone(), 1);
        while let Actor::Seat(seat) = state.actor() {
            state.apply(seat, 0).expect("a legal move");
        }
        let problem = state.failure().expect("the match stops").clone();
        assert!(problem.message.contains(budget), "{}", problem.message);
        let text = match text {
            Some(text) => text.to_string(),
            None => std::fs::read_to_string(&file).expect("the fixture"),
        };
        let findings = [Findings { source: Source { name: "the rule file".into(), text }, problems: vec![problem] }];
        insta::assert_snapshot!(format!("the_{name}_budget_run_out"), render(&findings, Style::Plain, 80));
    }
}
