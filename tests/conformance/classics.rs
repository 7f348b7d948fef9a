//! The constructs and fixes of issue 27 (the language reaches the classics) played through the
//! State API: comparisons with a menu action's card attribute, reveals seen through
//! definitions, sets kept in `let` names.

use crate::table::Table;

const MENU: &str = "tests/fixtures/valid/menu-attribute-compares-false.cards";

#[test]
fn a_menu_actions_card_attribute_compares_false_whatever_the_operator() {
    let mut t = Table::open(MENU, &[]);
    // `c.rank <= 3` is false for `pass` (it used to stop the match): the card tier decides.
    assert_eq!(t.legal(), ["r1", "r2", "r3"]);
    t.play("r2");
    assert!(t.said("low: r2"), "{:?}", t.lines());
    // `d.rank != 3` is false for `pass` too (it used to be true, putting `pass` among the cards).
    assert_eq!(t.legal(), ["r1", "r4", "r5"]);
    t.play("r4");
    // `e.rank > 5` holds for nothing: `else any` offers the cards and the menu.
    assert_eq!(t.legal(), ["pass", "r1", "r3", "r5"]);
    t.play("pass");
    assert!(t.said("above five: pass"), "{:?}", t.lines());
}

#[test]
fn a_revealed_hand_is_read_through_a_definition_as_directly() {
    let t = Table::open("tests/fixtures/valid/reveal-seen-through-definitions.cards", &[]);
    let direct = t.lines().iter().find(|l| l.ends_with("held")).cloned().expect("the line said");
    let (a, rest) = direct.split_once(" high, ").expect("two counts");
    assert_eq!(rest.split_once(' ').map(|(b, _)| b), Some(a), "{direct}");
}

#[test]
fn a_let_keeps_a_list_of_values_as_a_set() {
    let t = Table::open("tests/fixtures/valid/let-holds-a-set.cards", &[]);
    assert!(t.said("seen [clubs, hearts], spades seen: false, 2 suits; [P1]"), "{:?}", t.lines());
}

#[test]
fn first_finds_the_next_seat_still_in_and_none_when_nothing_meets_the_condition() {
    let t = Table::open("tests/fixtures/valid/first-and-typed-let.cards", &[]);
    for line in [
        "P2 drops out",
        "P3 drops out",
        "P4 drops out",
        "P1 is the last one in, after P4",
        "the first high card is high 1; ranks seen: [low, mid, high]",
        "no card above 3",
    ] {
        assert!(t.said(line), "{line} not said: {:?}", t.lines());
    }
}
