//! Helpers shared by the conformance tests: a match driven by the names a person would type;
//! and a session at the table for the tests of `play`.

#![allow(dead_code)]

use paradox::repl::{Session, Setup, origin};
use paradox::{Actor, Event, Kind, Layout, PileView, Settings, State, Value, load};
use std::path::Path;
use std::sync::Arc;

/// A match driven by move names.
pub struct Table {
    pub state: State,
}

impl Table {
    pub fn open(file: &str, sets: &[&str]) -> Table {
        Table::open_seeded(file, sets, 1)
    }

    /// The same as `open`, with another seed for chance (draws by lot, shuffles).
    pub fn open_seeded(file: &str, sets: &[&str], seed: u64) -> Table {
        let settings = Settings { sets: sets.iter().map(|s| s.to_string()).collect(), ..Settings::default() };
        let game = load(Path::new(file), &settings).unwrap_or_else(|e| panic!("{file}: {e:?}"));
        Table { state: State::new(Arc::new(game), seed) }
    }

    pub fn seat(&self) -> u8 {
        match self.state.actor() {
            Actor::Seat(s) => s,
            other => panic!("expected one seat to act, found {other:?}; failure: {:?}", self.state.failure()),
        }
    }

    pub fn seat_name(&self) -> String {
        self.state.game().seats[self.seat() as usize].display.clone()
    }

    /// The legal moves of the seat to act, sorted.
    pub fn legal(&self) -> Vec<String> {
        let seat = self.seat();
        let mut names: Vec<String> =
            self.state.legal_actions(seat).iter().filter_map(|a| self.state.action_name(seat, *a)).collect();
        names.sort();
        names
    }

    pub fn play(&mut self, name: &str) {
        let seat = self.seat();
        let action = self
            .state
            .legal_actions(seat)
            .into_iter()
            .find(|a| self.state.action_name(seat, *a).as_deref() == Some(name))
            .unwrap_or_else(|| panic!("{name} is not legal for {}: {:?}", self.seat_name(), self.legal()));
        self.state.apply(seat, action).expect("legal action applies");
    }

    /// The id of the seat with this display name.
    pub fn seat_named(&self, name: &str) -> u8 {
        let seats = &self.state.game().seats;
        seats.iter().position(|s| s.display == name || s.name == name).unwrap_or_else(|| panic!("no seat {name}")) as u8
    }

    /// The legal moves of a given seat (also in a round of secret, simultaneous choices), sorted.
    pub fn legal_for(&self, seat: &str) -> Vec<String> {
        let seat = self.seat_named(seat);
        let mut names: Vec<String> =
            self.state.legal_actions(seat).iter().filter_map(|a| self.state.action_name(seat, *a)).collect();
        names.sort();
        names
    }

    /// Makes a given seat's move by name; works for open and for secret, simultaneous choices.
    pub fn play_for(&mut self, seat: &str, name: &str) {
        let id = self.seat_named(seat);
        let action = self
            .state
            .legal_actions(id)
            .into_iter()
            .find(|a| self.state.action_name(id, *a).as_deref() == Some(name))
            .unwrap_or_else(|| panic!("{name} is not legal for {seat}: {:?}", self.legal_for(seat)));
        self.state.apply(id, action).expect("legal action applies");
    }

    pub fn said(&self, line: &str) -> bool {
        self.state.events().iter().any(|e| matches!(e, Event::Say(s) if s == line))
    }
}

impl Table {
    /// A number variable's value, as every player sees it: `var("score", Some("P1"))`,
    /// `var("counted", None)`; a per-side variable takes the side's name.
    pub fn var(&self, name: &str, owner: Option<&str>) -> i64 {
        let game = self.state.game();
        let layout = Layout::of(game);
        let v = game.vars.iter().position(|v| v.name == name).unwrap_or_else(|| panic!("no variable {name}"));
        let index = match owner {
            None => 0,
            Some(o) => game
                .seats
                .iter()
                .position(|s| s.name == o || s.display == o)
                .or_else(|| game.sides.iter().position(|t| t.name == o || t.display == o))
                .unwrap_or_else(|| panic!("no seat or side {o}")),
        };
        match self.state.view(0).vars[layout.var_base[v] + index] {
            Value::Int(n) => n,
            other => panic!("{name} is not a number: {other:?}"),
        }
    }

    /// The names of the cards in one pile (`pile("hand", Some("P1"))`), bottom first.
    pub fn pile(&self, zone: &str, owner: Option<&str>) -> Vec<String> {
        let game = self.state.game();
        let layout = Layout::of(game);
        let z = game.zones.iter().position(|z| z.name == zone).unwrap_or_else(|| panic!("no zone {zone}"));
        let index = owner.map_or(0, |o| {
            game.seats
                .iter()
                .position(|s| s.name == o || s.display == o)
                .or_else(|| game.sides.iter().position(|t| t.name == o || t.display == o))
                .unwrap_or_else(|| panic!("no seat or side {o}"))
        });
        match self.state.view(0).piles[layout.pile(z as u16, index)].clone() {
            PileView::Cards(cards) => cards.iter().map(|c| game.card_names[*c as usize].clone()).collect(),
            other => panic!("{zone} is not open: {other:?}"),
        }
    }

    /// Plays these moves in order, each by whichever seat is to act.
    pub fn play_all(&mut self, names: &[&str]) {
        for name in names {
            self.play(name);
        }
    }

    /// Every narration line so far.
    pub fn lines(&self) -> Vec<String> {
        self.state
            .events()
            .iter()
            .filter_map(|e| match e {
                Event::Say(s) => Some(s.clone()),
                _ => None,
            })
            .collect()
    }

    /// How many narration lines start with `prefix`.
    pub fn said_count(&self, prefix: &str) -> usize {
        self.lines().iter().filter(|l| l.starts_with(prefix)).count()
    }

    /// The seats that must choose now, in secret and at the same time (by display name).
    pub fn together(&self) -> Vec<String> {
        match self.state.actor() {
            Actor::Together(seats) => {
                seats.iter().map(|s| self.state.game().seats[*s as usize].display.clone()).collect()
            }
            other => panic!("expected secret simultaneous choices, found {other:?}"),
        }
    }
}

pub fn sorted(names: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// A session of `file` with `humans` at the table and random bots in the other seats, seed 1.
pub fn session(file: &str, humans: &[usize]) -> Session {
    session_on(file, humans, false)
}

/// [`session`], its output going to a terminal or not (a terminal pauses at each round's end).
#[allow(dead_code)]
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
    };
    Session::start(setup).0
}
