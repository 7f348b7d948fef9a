//! CONFORMANCE.md positions, played through the State API by the names a person would type.

use paradox::check::Settings;
use paradox::engine::{Actor, Event, State};
use paradox::load::load;
use std::path::Path;
use std::sync::Arc;

/// A match driven by move names.
struct Table {
    state: State,
}

impl Table {
    fn open(file: &str, sets: &[&str]) -> Table {
        let settings = Settings { sets: sets.iter().map(|s| s.to_string()).collect(), ..Settings::default() };
        let game = load(Path::new(file), &settings).unwrap_or_else(|e| panic!("{file}: {e:?}"));
        Table { state: State::new(Arc::new(game), 1) }
    }

    fn seat(&self) -> u8 {
        match self.state.actor() {
            Actor::Seat(s) => s,
            other => panic!("expected one seat to act, found {other:?}; failure: {:?}", self.state.failure()),
        }
    }

    fn seat_name(&self) -> String {
        self.state.game().seats[self.seat() as usize].display.clone()
    }

    /// The legal moves of the seat to act, sorted.
    fn legal(&self) -> Vec<String> {
        let seat = self.seat();
        let mut names: Vec<String> =
            self.state.legal_actions(seat).iter().filter_map(|a| self.state.action_name(seat, *a)).collect();
        names.sort();
        names
    }

    fn play(&mut self, name: &str) {
        let seat = self.seat();
        let action = self
            .state
            .legal_actions(seat)
            .into_iter()
            .find(|a| self.state.action_name(seat, *a).as_deref() == Some(name))
            .unwrap_or_else(|| panic!("{name} is not legal for {}: {:?}", self.seat_name(), self.legal()));
        self.state.apply(seat, action).expect("legal action applies");
    }

    fn said(&self, line: &str) -> bool {
        self.state.events().iter().any(|e| matches!(e, Event::Say(s) if s == line))
    }
}

fn sorted(names: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn costly_tricks_the_rulebooks_trick() {
    let mut t = Table::open("examples/costly-tricks-rulebook-trick.cards", &[]);
    assert_eq!(t.seat_name(), "A");
    t.play("red 5");
    assert_eq!(t.seat_name(), "B");
    assert_eq!(t.legal(), sorted(&["green 2", "blue 8", "blue 3"]), "no red, no trump yet: any new colour");
    t.play("blue 3");
    assert!(t.said("blue is now trump"));
    assert_eq!(t.legal(), sorted(&["green 3", "purple 10", "purple 1"]), "A's ghost has no red and no blue");
    t.play("purple 10");
    assert!(t.said("purple is now trump"));
    assert_eq!(t.legal(), sorted(&["blue 10", "blue 7", "blue 6"]), "B's ghost holds no red or purple; blue was trump");
    t.play("blue 6");
    assert!(t.said("A's ghost wins the trick with purple 10, worth 24"), "{:?}", t.state.events());
    assert_eq!(t.seat_name(), "A's ghost", "the winner leads the next trick");
}
