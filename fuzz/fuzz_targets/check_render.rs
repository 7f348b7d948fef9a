//! Any bytes as a rule file: parsed, checked, and every problem rendered, as `paradox check` does.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    if let Some(game) = common::game(data) {
        let _ = game.summary();
    }
});
