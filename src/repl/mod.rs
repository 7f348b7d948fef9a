//! `paradox play`: a person (or several, in turn) against the computer at a text table.
//!
//! [`Session`] is the pure part: a line in, the text to print out. [`terminal`] feeds it, from
//! rustyline with completion and history on a terminal, or line by line from a script.

mod about;
mod analyze;
mod command;
mod model;
mod moves;
mod players;
mod plays;
mod save;
pub mod seeds;
mod session;
mod sheet;
mod table;
pub mod terminal;

pub use command::Command;
pub use model::{Card, Cards, Colour, Group, Pile, Seat, Table, Turn};
pub use save::{Provenance, made_from};
pub use session::{Session, Setup, in_a_sentence};

use crate::bots::Kind;
use crate::check::Settings;
use crate::game::Game;
use crate::load::{Hashed, rules_source};
use crate::report::Source;
use std::path::Path;

/// A seed for a match nobody gave one for, from the whole range of seeds: its commitment
/// (see [`commitment`]) is printed at launch, and a seed drawn from a small range could be found
/// from it by trying every one.
pub fn random_seed() -> u64 {
    rand::random()
}

/// The commitment to a seed printed before the match: the SHA-256 of the seed written in
/// decimal, in hex (`printf 42 | sha256sum` checks it once the seed is told).
pub fn commitment(seed: u64) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(seed.to_string().as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// The rule file a game's problems point into, and what a save of it must match: the SHA-256
/// of every file read (a scenario and the rule file it extends) and the parameters.
pub fn origin(path: &Path, settings: &Settings) -> Result<(Source, Provenance), String> {
    let read = |p: &Path| {
        crate::files::read(p, crate::files::MAX_RULE_FILE, "a rule file")
            .map(|b| Source { name: p.display().to_string(), text: String::from_utf8_lossy(&b).into_owned() })
            .map_err(|e| format!("cannot read {}: {e}", p.display()))
    };
    let file = read(path)?;
    let rules = rules_source(path).unwrap_or_else(|| file.clone());
    let mut sources = vec![Hashed::of(&file)];
    if rules.name != file.name {
        sources.push(Hashed::of(&rules));
    }
    let origin = Provenance { sources, sets: settings.sets.clone(), variant: settings.variant.clone() };
    Ok((rules, origin))
}

/// The players who sit at the seats listed (`2`, `North`, `1,3`, or a seat's name as the table
/// shows it), each once, in order; a seat listed twice is refused.
pub fn players_at(game: &Game, list: &str) -> Result<Vec<usize>, String> {
    let mut players = Vec::new();
    let mut seats = Vec::new();
    for item in list.split(',').map(str::trim) {
        let seat = match item.parse::<usize>() {
            Ok(n) if (1..=game.seats.len()).contains(&n) => n - 1,
            Ok(n) => return Err(format!("there is no seat {n}: the seats are numbered 1 to {}", game.seats.len())),
            Err(_) => game
                .seats
                .iter()
                .position(|s| s.name.eq_ignore_ascii_case(item) || s.display.eq_ignore_ascii_case(item))
                .ok_or_else(|| {
                    let names: Vec<String> =
                        game.seats
                            .iter()
                            .map(|s| {
                                if s.display == s.name { s.name.clone() } else { format!("{} ({})", s.name, s.display) }
                            })
                            .collect();
                    format!("no seat `{item}`; the seats are {} (or 1 to {})", names.join(", "), names.len())
                })?,
        };
        if seats.contains(&seat) {
            return Err(format!("seat {} is listed twice", game.seats[seat].name));
        }
        seats.push(seat);
        let player = game.seats[seat].player;
        if !players.contains(&player) {
            players.push(player);
        }
    }
    Ok(players)
}

/// The computer players `--bots` names (`KINDS`); when every player is human there are none, and
/// `--bots` is not read.
pub fn bot_kinds(kinds: &str, players: usize, humans: &[usize]) -> Result<Vec<Kind>, String> {
    if (0..players).all(|p| humans.contains(&p)) {
        return Ok(vec![Kind::strongest(); players]);
    }
    crate::bots::parse_kinds(kinds, players)
}
