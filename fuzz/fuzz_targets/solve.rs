//! Any bytes as a rule file (before the first NUL) and the moves of `--after` (after it): when
//! the file checks clean, its position after those moves is solved as `paradox solve` does,
//! within a small budget of positions, and the answer written out.

#![no_main]

use libfuzzer_sys::fuzz_target;
use paradox::State;
use std::sync::Arc;

#[path = "common.rs"]
mod common;

/// The most positions one question may search here: `--max-positions` kept small.
const POSITIONS: u64 = 5_000;

fuzz_target!(|data: &[u8]| {
    let (rules, after) = match data.iter().position(|b| *b == 0) {
        Some(nul) => (&data[..nul], &data[nul + 1..]),
        None => (data, &[][..]),
    };
    let Some(game) = common::game(rules) else { return };
    let mut state = State::bare(Arc::new(game), rules.len() as u64);
    if paradox::solve::play_moves(&mut state, &String::from_utf8_lossy(after)).is_err() {
        return;
    }
    let analysis =
        paradox::solve::prepare(&state, None).and_then(|task| paradox::solve::analyze_within(&state, &task, paradox::solve::Limits::positions(POSITIONS)));
    if let Ok(analysis) = analysis {
        let _ = paradox::solve::text(&analysis);
        let _ = serde_json::to_string(&analysis);
    }
});
