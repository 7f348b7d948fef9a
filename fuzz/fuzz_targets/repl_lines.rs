//! Any bytes as lines typed at the table of Costly Tricks, as `paradox play` reads a script.
//! Lines that would touch files (`save`, `load`) are left out (the `save_files` target reads
//! saves), and so is `hint`, whose search takes a second each time.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

/// How many lines one run types.
const LINES: usize = 64;

fuzz_target!(|data: &[u8]| {
    let mut session = common::session();
    for line in data.split(|b| *b == b'\n').take(LINES) {
        let word = line.split(|b| b.is_ascii_whitespace()).find(|w| !w.is_empty()).unwrap_or_default();
        if [&b"save"[..], b"load", b"hint"].iter().any(|c| word.eq_ignore_ascii_case(c)) {
            continue;
        }
        let _ = session.handle_bytes(line);
        if session.is_done() {
            break;
        }
    }
});
