//! Bots and the exact solver on the compiled engine, against the interpreter: whole matches
//! between searching bots give the same trace (text and JSON) whichever engine their worlds
//! run on, and `solve` gives the same answer, having searched the same positions. Where no
//! Rust compiler can be run, the tests say so and check nothing else.

use super::compiled::{compiled, game_of};
use crate::position::random_position;
use paradox::solve::{Analysis, analyze, prepare};
use paradox::trace::{bot_match, json_lines, play_out, play_up_to, text};
use paradox::{Budget, Kind, Playable, State, seat_bots};

/// A searching bot on a budget small enough for whole matches in a test: it deals worlds,
/// searches them with playouts and beginner's moves, as the default bot does.
const SEARCH: Kind = Kind::Search(Budget { iterations: 16, work: 20_000 });

/// Plays whole matches of searching bots with both engines from each seed; the traces must be
/// the same, byte for byte.
fn same_bot_matches(file: &str, sets: &[&str], seeds: std::ops::Range<u64>, kinds: &[Kind]) {
    let game = game_of(file, sets);
    let Some(ready) = compiled(&game) else { return };
    let kinds: Vec<Kind> = kinds.iter().copied().cycle().take(game.players).collect();
    for seed in seeds {
        let interpreted = bot_match(Playable::new(game.clone()), seed, &kinds);
        let native = bot_match(ready.playable.clone(), seed, &kinds);
        assert!(interpreted.is_over(), "{file}: seed {seed}: the match ends");
        same_lines(&text(&interpreted), &text(&native), &format!("{file}: seed {seed}: the text trace"));
        same_lines(&json_lines(&interpreted), &json_lines(&native), &format!("{file}: seed {seed}: the JSON trace"));
    }
}

/// Two traces the same, or a failure that shows the first line where they part.
fn same_lines(interpreted: &str, native: &str, what: &str) {
    let parted = interpreted.lines().zip(native.lines()).position(|(a, b)| a != b);
    if let Some(i) = parted {
        let (a, b) = (interpreted.lines().nth(i), native.lines().nth(i));
        panic!("{what}: line {} differs:\n  interpreted: {a:?}\n  compiled:    {b:?}", i + 1);
    }
    assert_eq!(interpreted.len(), native.len(), "{what}: one trace is longer");
}

#[test]
fn searching_bots_play_the_same_moves_compiled() {
    same_bot_matches("rules/costly-tricks.cards", &["chips_to_win=1"], 1..3, &[SEARCH]);
    same_bot_matches("rules/buddy-on-your-left.cards", &[], 1..2, &[SEARCH, Kind::Random]);
    same_bot_matches("rules/pairadox.cards", &[], 1..2, &[SEARCH]);
    same_bot_matches("rules/tantony.cards", &[], 1..2, &[SEARCH]);
}

#[test]
fn searching_bots_play_the_same_moves_compiled_in_secret_rounds() {
    // Simultaneous decisions: worlds retract the others' secret choices and search by regret
    // matching.
    same_bot_matches("rules/anarchy.cards", &[], 1..2, &[SEARCH]);
    same_bot_matches("rules/third-man.cards", &[], 1..2, &[SEARCH]);
}

#[test]
fn a_kernel_taken_up_in_the_middle_of_a_match_changes_no_move() {
    // As at a table people play at: the bots switch to the compiled engine once it is built.
    let game = game_of("rules/costly-tricks.cards", &["chips_to_win=1"]);
    let Some(ready) = compiled(&game) else { return };
    let kinds = [SEARCH; 2];
    let interpreted = bot_match(Playable::new(game.clone()), 1, &kinds);
    let mut bots = seat_bots(&kinds, 1);
    let mut state = State::new(Playable::new(game.clone()), 1);
    assert!(!play_up_to(&mut state, &mut bots, 10), "the match goes on after 10 decisions");
    let mut other = State::new(Playable::new(game_of("rules/costly-tricks.cards", &["chips_to_win=1"])), 1);
    other.adopt_kernel(&ready.playable);
    assert!(!other.playable().has_kernel(), "a kernel is not taken up by a game loaded apart");
    state.adopt_kernel(&ready.playable);
    assert!(state.playable().has_kernel(), "the kernel is taken up");
    play_out(&mut state, &mut bots);
    same_lines(&text(&interpreted), &text(&state), "rules/costly-tricks.cards: seed 1: the text trace");
}

/// An analysis as JSON, without the time it took.
fn answer(analysis: Analysis) -> serde_json::Value {
    let mut json = serde_json::to_value(analysis).expect("an analysis as JSON");
    json.as_object_mut().expect("an object").remove("seconds");
    json
}

/// Solves positions with at most `left` cards in hand with both engines: the same answer, best
/// line and positions searched.
fn same_answers(file: &str, seeds: std::ops::Range<u64>, left: usize) {
    let game = game_of(file, &[]);
    let Some(ready) = compiled(&game) else { return };
    for seed in seeds {
        let interpreted = random_position(&game, seed, left);
        let native = State::restore(ready.playable.clone(), interpreted.snapshot()).expect("the same game");
        let task = prepare(&interpreted, None).unwrap_or_else(|e| panic!("{file}: seed {seed}: {e}"));
        let a = answer(analyze(&interpreted, &task).expect("solved"));
        let b = answer(analyze(&native, &task).expect("solved"));
        assert!(a["nodes"].as_u64().is_some_and(|n| n > 10), "{file}: seed {seed}: {a}");
        assert_eq!(a, b, "{file}: seed {seed}");
    }
}

#[test]
fn the_solver_gives_the_same_answers_compiled() {
    same_answers("rules/costly-tricks.cards", 0..6, 12);
    same_answers("rules/buddy-on-your-left.cards", 0..6, 6);
}
