//! Any bytes as the arguments of `paradox`, cut at each NUL: parsed by the command's own
//! definition (`src/main.rs`, included here as a module) and, when they parse, run as `paradox`
//! runs them (on a thread with its stack), within bounds: only commands that read and print
//! are run (`play` and `lsp` read standard input, `bench` runs for seconds), nothing that writes
//! a file (`fmt` without `--check`, `--plot`), no thinking bots, and `--games`, `--simulate`,
//! `--threads` and `--max-positions` kept small (the last two must be given).

#![no_main]

use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, FromArgMatches};
use libfuzzer_sys::fuzz_target;
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::PathBuf;

#[allow(dead_code)]
#[path = "../../src/main.rs"]
mod cli;

/// The most matches a run plays, per configuration.
const GAMES: u64 = 8;
/// The most positions `solve` searches.
const POSITIONS: u64 = 5_000;
/// The most threads `sim` and `compare` play on.
const THREADS: u16 = 2;

/// Whether the subcommand `name` with its arguments `sub` stays within the bounds above.
fn bounded(name: &str, sub: &ArgMatches) -> bool {
    let given = |id: &str| sub.value_source(id) == Some(ValueSource::CommandLine);
    let at_most = |id: &str, most: u64| sub.get_one::<u64>(id).is_none_or(|n| *n <= most);
    let calm_bots = || sub.get_one::<String>("bots").is_none_or(|b| !b.contains("default") && !b.contains("solver"));
    let threads = || sub.get_one::<u16>("threads").is_some_and(|n| *n <= THREADS);
    match name {
        "check" => at_most("simulate", GAMES),
        "trace" => calm_bots(),
        "solve" => given("max_positions") && at_most("max_positions", POSITIONS),
        "fmt" => {
            sub.get_flag("check")
                && sub.get_many::<PathBuf>("files").is_some_and(|mut f| f.all(|f| f.as_os_str() != "-"))
        }
        "sim" | "compare" => {
            given("games")
                && at_most("games", GAMES)
                && !given("precision")
                && !given("plot")
                && threads()
                && calm_bots()
        }
        "merge" => !given("plot"),
        _ => false,
    }
}

fuzz_target!(|data: &[u8]| {
    let args = std::iter::once(OsString::from("paradox"))
        .chain(data.split(|b| *b == 0).take(32).map(|a| OsString::from_vec(a.to_vec())));
    let matches = match cli::Cli::command().try_get_matches_from(args) {
        Ok(matches) => matches,
        Err(e) => {
            let _ = e.render().to_string();
            return;
        }
    };
    let Some((name, sub)) = matches.subcommand() else { return };
    if !bounded(name, sub) {
        return;
    }
    let Ok(cli) = cli::Cli::from_arg_matches(&matches) else { return };
    let worker = std::thread::Builder::new().stack_size(cli::STACK).spawn(move || cli::run(&cli));
    if let Ok(Err(panic)) = worker.map(|w| w.join()) {
        std::panic::resume_unwind(panic);
    }
});
