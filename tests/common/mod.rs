//! Helpers shared by the conformance tests: a match driven by the names a person would type.

#![allow(dead_code)]

use paradox::check::Settings;
use paradox::engine::{Actor, Event, State};
use paradox::load::load;
use std::path::Path;
use std::sync::Arc;

/// A match driven by move names.
pub struct Table {
    pub state: State,
}

impl Table {
    pub fn open(file: &str, sets: &[&str]) -> Table {
        let settings = Settings { sets: sets.iter().map(|s| s.to_string()).collect(), ..Settings::default() };
        let game = load(Path::new(file), &settings).unwrap_or_else(|e| panic!("{file}: {e:?}"));
        Table { state: State::new(Arc::new(game), 1) }
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

pub fn sorted(names: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}
