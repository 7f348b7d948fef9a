//! The compiled engine: a game's flow generated as Rust (`generate`), built by the user's
//! `rustc` into a shared library kept in a cache (`build`), and loaded behind the engine's
//! `Kernel` hook (`ffi`, the one module with `unsafe`).
//!
//! The compiled program imports the engine, never the other way round: a kernel reads and
//! writes the interpreter's own [`Position`](crate::Position), takes the steps it was built
//! for, and hands every other step to the interpreter, so both engines play the same match to
//! the same byte. Only states without observers (random play, the worlds bots search) use it.

mod build;
mod ffi;
mod generate;

use crate::engine::Playable;
use crate::game::Game;
use sha2::{Digest, Sha256};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

pub use build::CACHE_VAR;

/// Which engine plays the matches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// The compiled engine if one is in the cache, or is worth building for the work asked;
    /// else the interpreter.
    #[default]
    Auto,
    /// The compiled engine, built now if it is not in the cache; an error if none can be had.
    Compiled,
    /// The interpreter.
    Interpreted,
}

/// A construct left to the interpreter, and where the rule file uses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Left {
    /// What the construct is.
    pub what: &'static str,
    /// Where the rule file uses it.
    pub span: crate::vocab::Span,
}

/// A compiled engine ready for a game.
pub struct Compiled {
    /// The game with its kernel.
    pub playable: Playable,
    /// How long the build took, if it was built now (`None`: found in the cache).
    pub built: Option<Duration>,
    /// The statements the kernel leaves to the interpreter.
    pub left: Vec<Left>,
    /// How many statements the game has.
    pub statements: usize,
}

/// The cache key of a game's kernel: the compiled game itself (made from the rule file's bytes,
/// its scenario's base, the parameters and the variant), the kernel's fixed parts and paradox's
/// version, hashed.
pub fn key(game: &Game) -> String {
    let mut h = Sha256::new();
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    h.update([0]);
    h.update(generate::PRELUDE.as_bytes());
    h.update([0]);
    h.update(generate::PILES.as_bytes());
    h.update([0]);
    h.update(serde_json::to_vec(game).unwrap_or_default());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The first 64 bits of a key, written into the kernel and checked when it is loaded.
fn key_number(key: &str) -> u64 {
    u64::from_str_radix(key.get(..16).unwrap_or("0"), 16).unwrap_or(0)
}

/// Whether a kernel for this game is in the cache.
pub fn cached(game: &Game) -> bool {
    build::library_path(&build::cache_dir(), &key(game)).is_file()
}

/// The compiled engine for a game: loaded from the cache, or generated and built now (`build`
/// says whether it may be built). `Err` says why there is none.
pub fn compiled(game: &Arc<Game>, may_build: bool) -> Result<Compiled, String> {
    compiled_in(game, &build::cache_dir(), may_build)
}

/// [`compiled`] with the cache in `cache`.
pub fn compiled_in(game: &Arc<Game>, cache: &Path, may_build: bool) -> Result<Compiled, String> {
    let key = key(game);
    let generated =
        generate::generate(game, key_number(&key)).map_err(|u| format!("{} cannot be compiled yet", u.what))?;
    let left = generated.left.iter().map(|u| Left { what: u.what, span: u.span }).collect();
    let path = build::library_path(cache, &key);
    let mut built = None;
    if !path.is_file() {
        if !may_build {
            return Err("no compiled engine in the cache".into());
        }
        if build::toolchain().is_none() {
            return Err("no Rust compiler (`rustc`) was found to build one (set RUSTC to name it)".into());
        }
        built = Some(build::compile(&generated.source, &path, build::TIME_LIMIT)?);
    }
    let loaded = ffi::load(&path, key_number(&key))?;
    let playable = Playable::new(game.clone()).with_kernel(Arc::new(loaded));
    Ok(Compiled { playable, built, left, statements: generated.statements })
}

/// A game's compiled engine being built on a thread of its own ([`build_behind`]).
pub struct Building(pub(crate) std::sync::mpsc::Receiver<Playable>);

impl Building {
    /// The game with its kernel, once built; `None` while the build goes on, and for good if it
    /// failed (the interpreter then plays on: nobody asked for this build).
    pub fn ready(&self) -> Option<Playable> {
        self.0.try_recv().ok()
    }
}

/// Starts building `game`'s compiled engine (or loading it, if it is in the cache by then) on a
/// thread of its own, for a caller that goes on meanwhile: a match people play, whose bots take
/// it up between moves. Says so on standard error, naming the rule file as `label`, and why if
/// the build fails; `None`, said nothing of, where no Rust compiler can be run.
pub fn build_behind(game: &Arc<Game>, label: &str) -> Option<Building> {
    toolchain()?;
    eprintln!("compiling {label} for speed, while you play");
    let (done, ready) = std::sync::mpsc::channel();
    let (game, label) = (game.clone(), label.to_string());
    std::thread::spawn(move || match compiled(&game, true) {
        Ok(built) => {
            let _ = done.send(built.playable);
        }
        Err(why) => eprintln!("{label}: the bots go on thinking on the interpreter: {why}"),
    });
    Some(Building(ready))
}

/// Whether a Rust compiler can be run here (the compiled engine can be built).
pub fn toolchain() -> Option<String> {
    build::toolchain()
}

/// The generated source of a game's kernel (for tests that check what enters it).
pub fn source(game: &Game) -> Result<String, String> {
    generate::generate(game, 0).map(|g| g.source).map_err(|u| u.what.to_string())
}

/// The game to play with the engine asked for: `label` names the rule file in the one line said
/// on standard error when the engine is built, or when `auto` falls back to the interpreter;
/// `worth_building` says whether the work asked for pays for a build. `Err` when the compiled
/// engine was asked for and none can be had.
pub fn choose(game: &Arc<Game>, engine: Engine, label: &str, worth_building: bool) -> Result<Playable, String> {
    let interpreted = || Playable::new(game.clone());
    match engine {
        Engine::Interpreted => Ok(interpreted()),
        Engine::Compiled => {
            let ready = compiled(game, true).map_err(|why| format!("no compiled engine for {label}: {why}"))?;
            say_built(label, &ready);
            Ok(ready.playable)
        }
        Engine::Auto => {
            if !worth_building && !cached(game) {
                return Ok(interpreted());
            }
            match compiled(game, worth_building) {
                Ok(ready) => {
                    say_built(label, &ready);
                    Ok(ready.playable)
                }
                Err(why) => {
                    eprintln!("{label} runs on the interpreter: {why}");
                    Ok(interpreted())
                }
            }
        }
    }
}

/// The one line a build says.
fn say_built(label: &str, ready: &Compiled) {
    if let Some(took) = ready.built {
        eprintln!("compiling {label} for speed: {} s", took.as_secs().max(1));
    }
}
