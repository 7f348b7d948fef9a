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
    assert!(t.said("seen clubs and hearts, spades seen: false, 2 suits; P1"), "{:?}", t.lines());
}

#[test]
fn first_finds_the_next_seat_still_in_and_none_when_nothing_meets_the_condition() {
    let t = Table::open("tests/fixtures/valid/first-and-typed-let.cards", &[]);
    for line in [
        "P2 drops out",
        "P3 drops out",
        "P4 drops out",
        "P1 is the last one in, after P4",
        "the first high card is high 1; ranks seen: low, mid and high",
        "no card above 3",
    ] {
        assert!(t.said(line), "{line} not said: {:?}", t.lines());
    }
}

const PILE_ENDS: &str = "tests/fixtures/valid/pile-ends.cards";

#[test]
fn the_last_cards_of_a_pile_score_pairs_and_runs() {
    let mut t = Table::open(PILE_ENDS, &[]);
    // 4, 5, 6 in that order: a run for P1; 3 on 3: a pair for P1; the third from the top is
    // the first of the last three.
    t.play_all(&["r4/1", "r5/1", "r6/1"]);
    assert!(t.said("P1 makes a run of 3 over r4/1"), "{:?}", t.lines());
    assert_eq!(t.var("score", Some("P1")), 3);
    t.play_all(&["r3/2", "r3/1"]);
    assert!(t.said("P1 pairs r3/1"), "{:?}", t.lines());
    assert_eq!(t.var("score", Some("P1")), 5);
    // 3, 3, 1: neither; the bottom two are 4 and 5; `last 9` of six cards takes the six.
    t.play("r1/1");
    assert_eq!(t.var("score", Some("P2")), 0);
    assert!(t.said("bottom two: 9; on top: 6 cards"), "{:?}", t.lines());
}

#[test]
fn a_run_out_of_order_counts_and_a_pair_needs_the_top_two() {
    let mut t = Table::open(PILE_ENDS, &[]);
    // 3 between 2 and 4 is no pair; 2, 3, 4 played as 2, 3, ... : the run comes with the 4.
    t.play_all(&["r2/1", "r3/2", "r4/1"]);
    assert!(t.said("P1 makes a run of 3 over r2/1"), "{:?}", t.lines());
    // 3, 4, 5 on top after P2's 5: a run for P2 (the third from the top is the 3).
    t.play("r5/1");
    assert!(t.said("P2 makes a run of 3 over r3/2"), "{:?}", t.lines());
    // 4, 5, 3: a run again, though played out of order; no pair (the 3 lies under the 4).
    t.play("r3/1");
    assert!(t.said("P1 makes a run of 3 over r4/1"), "{:?}", t.lines());
    assert!(!t.said("P1 pairs r3/1"), "{:?}", t.lines());
}

#[test]
fn a_hand_kept_as_a_set_is_searched_for_its_deadwood() {
    let t = Table::open("tests/fixtures/valid/card-sets.cards", &[]);
    // Two runs of three for P1; a run of spades and a six of clubs left out for P2.
    assert_eq!(t.var("deadwood", Some("P1")), 0);
    assert_eq!(t.var("deadwood", Some("P2")), 6);
    for line in ["with the spare: 1 more card, true", "the spare one is left out", "on the table: 6 of clubs"] {
        assert!(t.said(line), "{line} not said: {:?}", t.lines());
    }
}

#[test]
fn a_pile_or_a_list_of_cards_on_the_left_of_plus_or_minus_is_the_set_of_its_cards() {
    let t = Table::open("tests/fixtures/valid/zones-as-card-sets.cards", &[]);
    // An empty pile is the empty set; a pile without one card, with one, joined with another.
    for line in [
        "the empty table and card 4: 4",
        "P1 without card 3: 3",
        "P2 with card 4: 15",
        "the table and P2: 12",
        "card 4 and the table: 5",
    ] {
        assert!(t.said(line), "{line} not said: {:?}", t.lines());
    }
}

#[test]
fn definitions_and_procedures_take_piles_as_zone_parameters() {
    let t = Table::open("tests/fixtures/valid/zone-parameters.cards", &[]);
    // Pairs and the two cards on top, of a seat's pile and of a shared one, before and after a
    // procedure moves the top card of one pile it is given to another.
    assert_eq!(t.var("points", Some("P1")), 14);
    assert_eq!(t.var("points", Some("P2")), 8);
    for line in ["P1 14, P2 8, crib 12", "after the passes: P1 11, P2 10, crib 7"] {
        assert!(t.said(line), "{line} not said: {:?}", t.lines());
    }
}

#[test]
fn a_menu_action_beside_several_cards_passes_with_an_empty_group() {
    let mut t = Table::open("tests/fixtures/valid/menu-beside-several-cards.cards", &[]);
    // P1 holds three 2s and three 5s: one to three cards of one rank, no pass while a group
    // beats the empty pile; the label names the groups.
    let mut legal = t.legal();
    legal.dedup();
    assert_eq!(
        legal,
        [
            "P1 plays r2",
            "P1 plays r2 + r2",
            "P1 plays r2 + r2 + r2",
            "P1 plays r5",
            "P1 plays r5 + r5",
            "P1 plays r5 + r5 + r5"
        ]
    );
    t.play("P1 plays r5 + r5 + r5");
    // P2's 3s do not beat a 5: the pass alone, named by the menu, leaving the group empty.
    assert_eq!(t.legal(), ["pass"]);
    t.play("pass");
    assert!(t.said("P2: 0 cards, pass"), "{:?}", t.lines());
    assert!(t.said("P1: 3 cards, "), "{:?}", t.lines());
    t.play_all(&["pass", "pass", "pass", "pass"]);
    assert_eq!(t.var("played", Some("P1")), 3);
    assert_eq!(t.var("passed", Some("P2")), 3);
}

const MEMO: &str = "tests/fixtures/valid/memo.cards";

#[test]
fn a_memo_definition_answers_each_question_once_and_fits_the_budget() {
    let t = Table::open(MEMO, &[]);
    assert!(t.state.failure().is_none(), "{:?}", t.state.failure());
    assert_eq!(t.var("climbs", None), 2_504_730_781_961);
    assert!(t.said("2504730781961 ways; 3 pairs of cards"), "{:?}", t.lines());
    // The same rules without `memo` ask over a billion calls: the match stops on the budget.
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("without-memo.cards");
    let text = std::fs::read_to_string(MEMO).expect("the fixture").replace(" memo =", " =");
    std::fs::write(&file, text).expect("written");
    let t = Table::open(&file.display().to_string(), &[]);
    let failure = t.state.failure().map(|p| p.message.clone()).unwrap_or_default();
    assert!(failure.contains("runs too long"), "{failure:?}");
}

#[test]
fn text_inside_a_template_is_chosen_by_if_and_case() {
    let mut t = Table::open("tests/fixtures/valid/text-in-templates.cards", &[]);
    // The labels of the choices, worked out by `if`, and card names worked out by `case`.
    assert_eq!(t.legal(), ["pass", "take 1", "take 2"]);
    assert_eq!(t.state.game().card_names[..4], ["little 1", "little 2", "little 3", "large 4"]);
    assert_eq!(t.state.status(), ["P1 has never passed", "P2 has never passed"]);
    t.play_all(&["pass", "take 2"]);
    // Narration by `case`, with a template inside one of its texts; a status line by `if`.
    assert!(t.said("P1 passes"), "{:?}", t.lines());
    assert!(t.said("P2 takes 2, large 5 on top"), "{:?}", t.lines());
    assert_eq!(t.state.status(), ["P1 passed 1 time", "P2 has never passed"]);
    t.play("take 1");
    assert!(t.said("P1 takes one"), "{:?}", t.lines());
}
