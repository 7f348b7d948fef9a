//! Any bytes as a save file loaded at the table of Costly Tricks (its moves replayed, its check
//! compared), and the match played on from it.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(dir) = tempfile::tempdir() else { return };
    let file = dir.path().join("match.json");
    if std::fs::write(&file, data).is_err() {
        return;
    }
    let mut session = common::session();
    let loaded = session.handle(&format!("load {}", file.display()));
    if loaded.starts_with("Loaded") {
        for line in ["show", "#1", "score", "log 5", "undo", "moves", "#2"] {
            let _ = session.handle(line);
        }
    }
});
