//! What the fuzz targets share: a rule file's text made into a game (its problems rendered as
//! `paradox check` would), and a table of Costly Tricks to type at.

#![allow(dead_code)]

use paradox::repl::{Session, Setup};
use paradox::syntax::FileBody;
use paradox::{Findings, Game, Kind, Settings, Source, Style, check, render};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The rule file scenarios extend and sessions are played at.
pub const RULES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/costly-tricks.cards");

/// Parses and checks `bytes` as a rule file, or as a scenario of Costly Tricks, and renders any
/// problems; the game when it has none.
pub fn game(bytes: &[u8]) -> Option<Game> {
    let text = String::from_utf8_lossy(bytes);
    let settings = Settings::default();
    let problems = match paradox::syntax::parse(&text) {
        Err(problems) => problems,
        Ok(file) => {
            let found = match &file.body {
                FileBody::Rules(items) => check(items, None, &settings),
                FileBody::Scenario(scenario) => {
                    let base = std::fs::read_to_string(RULES).ok()?;
                    let base = paradox::syntax::parse(&base).ok()?;
                    let FileBody::Rules(items) = &base.body else { return None };
                    check(items, Some(scenario), &settings)
                }
            };
            match found {
                Ok(game) => return Some(game),
                Err(found) => found.into_iter().map(|(_, p)| p).collect(),
            }
        }
    };
    // Problems of a scenario may point into the rule file: drawn against this text, their spans
    // fall anywhere, which the drawing must survive too.
    let source = Source { name: "fuzz.cards".into(), text: text.into_owned() };
    let _ = render(&[Findings { source, problems }], Style::Plain, 80);
    None
}

/// A session at Costly Tricks: the person at the first seat, random computer players.
pub fn session() -> Session {
    static SETUP: OnceLock<(Arc<Game>, Source, paradox::repl::Provenance)> = OnceLock::new();
    let (game, source, origin) = SETUP.get_or_init(|| {
        let path = Path::new(RULES);
        let settings = Settings::default();
        let game = paradox::load(path, &settings).unwrap_or_else(|_| panic!("the rule file loads"));
        let (source, origin) = paradox::repl::origin(path, &settings).expect("the rule file reads");
        (Arc::new(game), source, origin)
    });
    let kinds = vec![Kind::Random; game.players];
    let setup = Setup {
        game: game.clone(),
        source: source.clone(),
        origin: origin.clone(),
        seed: 1,
        fresh_seeds: false,
        seeds: Some(std::env::temp_dir().join("paradox-fuzz-seeds")),
        humans: vec![0],
        bots: "random".into(),
        kinds,
        colour: false,
        terminal: false,
        width: 80,
        height: None,
    };
    Session::start(setup).0
}
