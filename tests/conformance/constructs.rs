//! The constructs of issue 12 played through the State API: procedures (a decision inside,
//! `end` of the phase around the call), recursive definitions (a search that reads naturally,
//! a runaway one stopped at its call), choices of several cards at once.

use crate::table::Table;

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

const RECURSION: &str = "tests/fixtures/valid/recursion.cards";

#[test]
fn a_recursive_definition_keeps_its_parameters_across_inner_calls() {
    let t = Table::open(RECURSION, &[]);
    // The table holds 1, 2, 3, 5 and 6: 4 is made only as 1 + 3, found after the search has
    // come back from trying 6, 5 and 2 with the parameters of those calls.
    for line in ["11: true", "4: true", "17: true", "18: false"] {
        assert!(t.said(line), "{line} not said: {:?}", t.lines());
    }
    // The pack's derived attribute is worked out by the checker's evaluator, recursively too.
    assert!(t.said("the card 6 has factorial 720"), "{:?}", t.lines());
}

/// Procedures that each call the next twice would unfold into 2^40 copies: the checker stops
/// at its limit with one diagnostic, quickly, instead of running out of time or memory.
#[test]
fn procedures_calling_each_other_over_and_over_are_refused_at_the_unfolding_limit() {
    let base = std::fs::read_to_string("tests/fixtures/valid/procedures.cards").expect("the fixture");
    let mut procs = String::new();
    for i in 0..40 {
        procs.push_str(&format!("define p{i}(n: int) {{ p{0}(n + 1) p{0}(n + 2) }}\n", i + 1));
    }
    procs.push_str("define p40(n: int) { total += n }\n");
    let text = base.replacen("play {", &format!("{procs}\nplay {{\n  p0(1)"), 1);
    let file = paradox::syntax::parse(&text).expect("it parses");
    let paradox::syntax::FileBody::Rules(items) = &file.body else { panic!("a rule file") };
    let problems = paradox::check(items, None, &paradox::Settings::default()).expect_err("refused");
    let messages: Vec<&str> = problems.iter().map(|(_, p)| p.message.as_str()).collect();
    assert_eq!(messages, ["procedure calls unfold into too many statements"]);
}

const GROUPS: &str = "tests/fixtures/valid/groups.cards";

#[test]
fn a_group_is_chosen_from_two_zones_under_tiers_with_a_declaration() {
    let mut t = Table::open(GROUPS, &[]);
    // Hand red 1, red 2, blue 3; row red 3, red 4: the all-red pairs but the row's two, and the
    // one worth 6 boasted too.
    assert_eq!(
        t.legal(),
        ["red 1 + red 2", "red 1 + red 3", "red 1 + red 4", "red 2 + red 3", "red 2 + red 4", "red 2 + red 4 boast"]
    );
    t.play("red 2 + red 4 boast");
    assert!(t.said("P1 boasts with red 2 + red 4"), "{:?}", t.lines());
    assert!(t.said("the row gave its red 4"), "{:?}", t.lines());
    assert_eq!(crate::reads::sorted(&["red 2", "red 4"]), {
        let mut out = t.pile("out", None);
        out.sort();
        out
    });
    // Any number of the two cards left, none included.
    assert_eq!(t.legal(), ["keep blue 3", "keep no cards", "keep red 1", "keep red 1 + blue 3"]);
    t.play("keep no cards");
    assert!(t.said("P1 lays down no cards, 0 in all"), "{:?}", t.lines());
    // Five of the two left: both.
    assert_eq!(t.legal(), ["red 1 + blue 3"]);
}

/// A size far beyond the cards there are takes them all, as the groups fixture's five of two
/// does, whatever the number written.
#[test]
fn a_size_beyond_every_card_takes_them_all() {
    let base = std::fs::read_to_string(GROUPS).expect("the fixture");
    let text = base.replacen("choose 5 cards rest", "choose 99999999999 cards rest", 1);
    assert_ne!(text, base);
    let file = paradox::syntax::parse(&text).expect("it parses");
    let paradox::syntax::FileBody::Rules(items) = &file.body else { panic!("a rule file") };
    let game = paradox::check(items, None, &paradox::Settings::default()).expect("it checks");
    let mut t = Table { state: paradox::State::new(std::sync::Arc::new(game), 1) };
    t.play("red 2 + red 4 boast");
    t.play("keep no cards");
    assert_eq!(t.legal(), ["red 1 + blue 3"]);
}
