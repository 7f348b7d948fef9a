//! Any bytes as lines typed at the table of Costly Tricks, as `paradox play` reads a script.
//! Each line is first read by the REPL's own parser ([`Session::command`]), which takes any
//! start of a command's word (`sa`, `hi`, `analy`): lines that would touch files (`save`,
//! `load`; the `save_files` target reads saves) are left out, and so are `hint` and `analyze`,
//! whose searches take seconds each time.

#![no_main]

use libfuzzer_sys::fuzz_target;
use paradox::repl::{Command, Session};

#[path = "common.rs"]
mod common;

/// How many lines one run types.
const LINES: usize = 64;

/// Whether the session may be handed `line`: not a command that reads or writes a file or
/// searches for long.
fn harmless(session: &Session, line: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(line) else { return true };
    !matches!(session.command(text), Ok(Command::Save(_) | Command::Load(_) | Command::Hint | Command::Analyze))
}

fuzz_target!(|data: &[u8]| {
    let mut session = common::session();
    for line in data.split(|b| *b == b'\n').take(LINES) {
        if !harmless(&session, line) {
            continue;
        }
        let _ = session.handle_bytes(line);
        if session.is_done() {
            break;
        }
    }
});
