//! What the conformance tests read of a match besides its piles: variables, piles as everyone
//! sees them, narration, and the seats of secret, simultaneous choices, which are made seat by
//! seat by name.

use crate::table::Table;
use paradox::{Actor, Event, Layout, PileView, Value};

impl Table {
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

/// The names, sorted: what `legal` and the piles read by name are compared with.
pub fn sorted(names: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}
