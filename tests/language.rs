//! The constructs of issue 12 played through the State API: procedures (a decision inside,
//! `end` of the phase around the call), recursive definitions (a search that reads naturally,
//! a runaway one stopped at its call).

mod common;

use common::Table;

const PROCEDURES: &str = "tests/fixtures/valid/procedures.cards";

#[test]
fn a_procedure_decides_and_ends_the_phase_around_its_call() {
    let mut t = Table::open(PROCEDURES, &[]);
    assert_eq!(t.legal(), ["add 1", "add 2"]);
    // P1 2, P2 2, P1 2: 6; P2 adds 1 and reaches 7, which ends the round from inside `turn`.
    t.play_all(&["add 2", "add 2", "add 2", "add 1"]);
    assert!(t.said("P2 adds 1: 7"));
    assert_eq!(t.var("points", Some("P2")), 1);
    // The next round starts afresh, with P1.
    assert_eq!(t.var("total", None), 0);
    assert_eq!(t.seat_name(), "P1");
}
