//! A match driven by the names a person would type, for the tests that play through the State
//! API: open a rule file, see whose turn it is and what they may play, play moves by name.

use paradox::{Actor, Settings, State, load};
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

    /// Plays these moves in order, each by whichever seat is to act.
    pub fn play_all(&mut self, names: &[&str]) {
        for name in names {
            self.play(name);
        }
    }
}
