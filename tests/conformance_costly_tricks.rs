//! CONFORMANCE.md positions of Costly Tricks, played through the State API by move names.

mod common;
use common::{Table, sorted};

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
