//! A `play` session at the table through the library API, with random bots in the seats no
//! person takes.

use paradox::repl::{Session, Setup, origin};
use paradox::{Kind, Settings, load};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The folder of kept seeds the tests' sessions use (never the user's).
pub fn seeds() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("seeds")
}

/// The setup of a practice match of `file`, seed 1, with `humans` at the table and random bots
/// in the other seats, its output not going to a terminal.
pub fn setup(file: &str, humans: &[usize]) -> Setup {
    let path = Path::new(file);
    let settings = Settings::default();
    let game = Arc::new(load(path, &settings).unwrap_or_else(|_| panic!("{file} loads")));
    let (source, origin) = origin(path, &settings).expect("the rule file reads");
    let kinds = vec![Kind::Random; game.players];
    let (humans, bots) = (humans.to_vec(), "random".into());
    Setup {
        game,
        source,
        origin,
        seed: 1,
        fresh_seeds: false,
        seeds: Some(seeds()),
        humans,
        bots,
        kinds,
        colour: false,
        terminal: false,
        width: 100,
        height: None,
    }
}

/// A session of [`setup`].
pub fn session(file: &str, humans: &[usize]) -> Session {
    session_on(file, humans, false)
}

/// [`session`], its output going to a terminal or not (a terminal pauses at each round's end).
pub fn session_on(file: &str, humans: &[usize], terminal: bool) -> Session {
    Session::start(Setup { terminal, ..setup(file, humans) }).0
}
