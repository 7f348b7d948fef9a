//! Any bytes as a rule file: when it checks clean, one match is played with choices drawn from
//! the bytes, every option named, and the trace printed, as `paradox trace` does.

#![no_main]

use libfuzzer_sys::fuzz_target;
use paradox::{Actor, State};
use std::sync::Arc;

#[path = "common.rs"]
mod common;

/// How many decisions a match may take here: enough to reach the end of most, few enough that
/// each run stays short.
const DECISIONS: usize = 300;

fuzz_target!(|data: &[u8]| {
    let Some(game) = common::game(data) else { return };
    let mut state = State::new(Arc::new(game), data.len() as u64);
    // Choices from the bytes, from the end (the start of a rule file varies less).
    let mut choices = data.iter().rev().cycle();
    for _ in 0..DECISIONS {
        let seats = match state.actor() {
            Actor::Seat(s) => vec![s],
            Actor::Together(seats) => seats,
            Actor::Nobody => break,
        };
        for seat in seats {
            let n = state.action_count(seat);
            if n == 0 {
                return;
            }
            for action in state.shown_actions(seat).into_iter().take(20) {
                let _ = state.action_name(seat, action);
            }
            let pick = choices.next().map_or(0, |b| *b as usize) % n;
            if state.apply(seat, pick as u32).is_err() {
                return;
            }
        }
    }
    let _ = paradox::trace::text(&state);
    let _ = state.standings();
});
