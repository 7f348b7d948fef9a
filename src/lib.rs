//! paradox: a rules language and interpreter for card games.
//!
//! A rule file describes a card game; [`load`] reads one (or a scenario that extends one),
//! checks it with the user's [`Settings`] and gives the compiled [`Game`], or the problems found,
//! which [`render`] draws for people. A [`State`] is a match of a game in progress: it says who
//! must decide ([`State::actor`]), lists the legal actions and applies one ([`State::apply`]);
//! [`Bot`]s decide for seats from what their player may see. [`trace`] plays and records whole
//! matches, [`sim`] and [`compare`] play many of them.
//!
//! ```
//! use std::path::Path;
//! use std::sync::Arc;
//!
//! // Any rule file will do: here the first of the games shipped in `rules/`.
//! let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
//! let mut files: Vec<_> = std::fs::read_dir(&rules).unwrap().map(|e| e.unwrap().path()).collect();
//! files.sort();
//! let path = files.into_iter().find(|p| p.extension().is_some_and(|x| x == "cards")).unwrap();
//! let game = match paradox::load(&path, &paradox::Settings::default()) {
//!     Ok(game) => Arc::new(game),
//!     Err(paradox::LoadError::Io(message)) => panic!("{message}"),
//!     Err(paradox::LoadError::Invalid(found)) => panic!("{}", paradox::render(&found, paradox::Style::Plain, 100)),
//! };
//! let seed = 7;
//! let mut state = paradox::State::new(game.clone(), seed);
//! let mut bots = paradox::random_bots(&game, seed);
//! assert!(paradox::trace::play_out(&mut state, &mut bots), "the match ends");
//! let outcome = state.outcome().expect("a finished match has an outcome");
//! println!("winners {:?}, standings {:?}", outcome.winners, outcome.standings);
//! ```
//!
//! The modules that stay public are the front ends the `paradox` command is made of ([`repl`],
//! [`lsp`], [`format`](mod@format), [`trace`], [`sim`], [`compare`], [`bench`](mod@bench)) and what they need to be
//! driven from outside ([`syntax`], [`stats`], [`files`], [`printable`]).

#![warn(missing_docs)]
#![warn(unreachable_pub)]

pub mod bench;
mod bots;
mod check;
pub mod compare;
pub mod compiled;
mod diagnostic;
mod engine;
mod eval;
pub mod files;
pub mod format;
mod game;
mod load;
pub mod lsp;
pub mod printable;
pub mod repl;
mod report;
#[cfg(feature = "serve")]
pub mod serve;
pub mod sim;
pub mod solve;
pub mod stats;
pub mod trace;
pub mod syntax {
    //! Reading a rule file: the parser, the few syntax-tree types a caller of [`parse`] and
    //! [`check`](crate::check()) needs, the tokens (for highlighting) and the pest grammar.
    pub(crate) mod ast;
    pub(crate) mod comments;
    pub(crate) mod describe;
    pub(crate) mod expect;
    pub mod grammar;
    pub(crate) mod limits;
    pub(crate) mod parser;
    pub(crate) mod strings;
    pub mod tokens;
    pub use ast::{File, FileBody, Item, Scenario, Span};
    pub use parser::parse;
    pub(crate) use parser::parse_partial;
}
mod vocab;

pub use bots::{Bot, Budget, Kind, RandomBot, SearchBot, parse_kinds, random_bots, seat_bots};
pub use check::{Found, Origin, Settings, check};
pub use diagnostic::{Code, Fix, Note, Problem};
pub use engine::{
    Action, Actor, Event, Layout, Outcome, Pending, PileView, Playable, Position, REPEATS, Refusal, Sampler, Seen,
    Snapshot, State, Unfit, View,
};
pub use game::{CardId, Game, SeatId, Type, Value};
pub use load::{Hashed, LoadError, load, read as read_source, rules_source};
pub use report::{Findings, Source, Style, render};
