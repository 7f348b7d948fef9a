//! A `play` session at the table through the library API, with random bots in the seats no
//! person takes.

use paradox::repl::{Session, Setup, origin};
use paradox::{Kind, Settings, load};
use std::path::Path;
use std::sync::Arc;

/// A session of `file` with `humans` at the table and random bots in the other seats, seed 1.
pub fn session(file: &str, humans: &[usize]) -> Session {
    session_on(file, humans, false)
}

/// [`session`], its output going to a terminal or not (a terminal pauses at each round's end).
pub fn session_on(file: &str, humans: &[usize], terminal: bool) -> Session {
    let path = Path::new(file);
    let settings = Settings::default();
    let game = Arc::new(load(path, &settings).unwrap_or_else(|_| panic!("{file} loads")));
    let (source, origin) = origin(path, &settings).expect("the rule file reads");
    let kinds = vec![Kind::Random; game.players];
    let (humans, bots) = (humans.to_vec(), "random".into());
    let setup = Setup {
        game,
        source,
        origin,
        seed: 1,
        fresh_seeds: false,
        humans,
        bots,
        kinds,
        colour: false,
        terminal,
        width: 100,
        height: None,
    };
    Session::start(setup).0
}
