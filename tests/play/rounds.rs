//! `State::round`: at every decision of a match, the outermost phase the flow is in and how many
//! times it has been entered, as the event log counts it.

use paradox::{Actor, Event, Settings, State, load};
use std::path::Path;
use std::sync::Arc;

/// Each game's rule file and the name of the phase that holds all its decisions.
const GAMES: [(&str, &str); 6] = [
    ("anarchy", "round"),
    ("buddy-on-your-left", "round"),
    ("costly-tricks", "round"),
    ("pairadox", "round"),
    ("tantony", "round"),
    ("third-man", "series"),
];

#[test]
fn the_round_is_the_outermost_phase_counted_as_the_log_counts_it() {
    for (file, outer) in GAMES {
        let path = format!("rules/{file}.cards");
        let game = Arc::new(load(Path::new(&path), &Settings::default()).expect("checks clean"));
        for seed in 1..=20 {
            let mut bots = paradox::random_bots(&game, seed);
            let mut state = State::new(game.clone(), seed);
            let mut last = 0;
            loop {
                let seat = match state.actor() {
                    Actor::Seat(seat) => seat,
                    Actor::Together(seats) => seats[0],
                    Actor::Nobody => break,
                };
                let (phase, count) = state.round().unwrap_or_else(|| panic!("{path} seed {seed}: no round"));
                assert_eq!(game.phases[phase as usize].name, outer, "{path} seed {seed}");
                let logged =
                    state.events().iter().filter(|e| matches!(e, Event::Phase { name, .. } if name == outer)).count();
                assert_eq!(count as usize, logged, "{path} seed {seed}");
                assert!(count >= last, "{path} seed {seed}: rounds only go up");
                last = count;
                let player = game.seats[seat as usize].player;
                let action = bots[player].choose(&state.seen_by(player), seat).expect("a legal action");
                state.apply(seat, action).expect("a legal action");
            }
            assert!(state.outcome().is_some(), "{path} seed {seed}");
            assert_eq!(state.round(), None, "{path} seed {seed}: a match over is in no phase");
        }
    }
}
