//! Pairadox played through the State API: the CONFORMANCE.md Complete lead and pairs count, and
//! every ruling of RULINGS.md (set building, sloughing, True/False leads, who takes the cards,
//! the tie-break, what each player sees).

use crate::piles::{cards, narration, seen};
use crate::reads::sorted;
use crate::table::Table;
use paradox::PileView;

/// Plays cards in turn, each by the seat to act, checking whose turn it is.
fn trick(t: &mut Table, plays: &[(&str, &str)]) {
    for (seat, card) in plays {
        assert_eq!(t.seat_name(), *seat, "whose turn");
        t.play(card);
    }
}

// ---------------------------------------------------------------- CONFORMANCE.md

#[test]
fn a_partial_red_square_complete_led_asks_for_partial_red_and_square_each_once() {
    let mut t = Table::open("examples/pairadox-complete-led.cards", &[]);
    assert_eq!(t.seat_name(), "North", "the dealer's left leads");
    t.play("partial red square Complete");
    assert_eq!(
        t.legal(),
        sorted(&["partial Single", "red Single"]),
        "East: green Single, blue Complete, True do not fit"
    );
    t.play("red Single");
    assert_eq!(t.legal(), sorted(&["partial Single", "square Single"]), "South: red is taken; triangle does not match");
    t.play("partial Single");
    assert_eq!(
        t.legal(),
        sorted(&["filled green triangle Complete", "True card", "False card"]),
        "West has no square Single: it sloughs its Complete or plays a True/False card"
    );
    t.play("True card");
    assert!(t.said("North wins the trick: team A take 1 True/False card"), "{:?}", narration(&t));
    assert_eq!(cards(&t, "won", Some("team A")), sorted(&["True card"]));
}

#[test]
fn the_complete_s_options_may_be_added_in_any_order() {
    let mut t = Table::open("examples/pairadox-complete-led.cards", &[]);
    trick(&mut t, &[("North", "partial red square Complete"), ("East", "partial Single")]);
    assert_eq!(t.legal(), sorted(&["red Single", "square Single"]));
    t.play("square Single");
    assert_eq!(t.legal(), sorted(&["filled green triangle Complete", "True card", "False card"]), "no red Single");
}

#[test]
fn team_a_with_two_pairs_beats_team_b_with_one() {
    let mut t = Table::open("examples/pairadox-pairs.cards", &[]);
    // Trick 1, North leads: East and West give True, South False.
    trick(
        &mut t,
        &[
            ("North", "filled red circle Complete"),
            ("East", "True card"),
            ("South", "False card"),
            ("West", "True card"),
        ],
    );
    assert!(t.said("North wins the trick: team A take 3 True/False cards"));
    // Trick 2, East leads: South and West give False, North True.
    trick(
        &mut t,
        &[
            ("East", "filled green circle Complete"),
            ("South", "False card"),
            ("West", "False card"),
            ("North", "True card"),
        ],
    );
    assert!(t.said("East wins the trick: team B take 3 True/False cards"));
    // Trick 3, South leads: West True, North False.
    trick(
        &mut t,
        &[
            ("South", "filled blue square Complete"),
            ("West", "True card"),
            ("North", "False card"),
            ("East", "filled green square Complete"),
        ],
    );
    // Trick 4, West leads: South gives its last False.
    trick(
        &mut t,
        &[
            ("West", "partial red circle Complete"),
            ("North", "filled red square Complete"),
            ("East", "filled green triangle Complete"),
            ("South", "False card"),
        ],
    );
    // Trick 5, North leads: Completes only.
    trick(
        &mut t,
        &[
            ("North", "filled red triangle Complete"),
            ("East", "filled blue circle Complete"),
            ("South", "filled blue triangle Complete"),
            ("West", "partial red square Complete"),
        ],
    );
    assert_eq!(
        cards(&t, "won", Some("team A")),
        sorted(&["True card", "True card", "True card", "False card", "False card"])
    );
    assert_eq!(cards(&t, "won", Some("team B")), sorted(&["True card", "False card", "False card", "False card"]));
    assert!(t.said("team A took 5 True/False cards: 2 pairs"), "{:?}", narration(&t));
    assert!(t.said("team B took 4 True/False cards: 1 pair"));
    let outcome = t.state.outcome().expect("five tricks, the game is over");
    assert_eq!(outcome.winners, vec![0, 2], "North and South");
    assert_eq!(outcome.returns, vec![1, -1, 1, -1]);
}

// ---------------------------------------------------------------- building a set on a Single

#[test]
fn a_single_led_asks_for_the_missing_categories_and_a_complete_that_agrees() {
    let mut t = Table::open("examples/pairadox-single-led.cards", &[]);
    assert_eq!(
        t.legal(),
        sorted(&["red Single", "hollow Single", "blue Single"]),
        "no True/False lead while holding others"
    );
    t.play("red Single");
    assert_eq!(
        t.legal(),
        sorted(&["hollow green square Complete"]),
        "East's colour Singles do not fit and its Complete is not red: it must slough the Complete"
    );
    t.play("hollow green square Complete");
    assert_eq!(
        t.legal(),
        sorted(&["circle Single", "square Single", "filled red circle Complete"]),
        "the sloughed Complete asks nothing: South may add a shape or a red Complete, not the green one"
    );
    t.play("filled red circle Complete");
    assert_eq!(t.legal(), sorted(&["filled Single"]), "West must match the Complete's pattern");
    t.play("filled Single");
    assert!(t.said("North wins the trick; it holds no True/False card and is put aside"), "{:?}", narration(&t));
    assert_eq!(cards(&t, "discard", None).len(), 4);
    assert_eq!(t.seat_name(), "East", "the lead passes to the left");
}

#[test]
fn after_a_single_the_complete_must_agree_with_every_single_played() {
    let mut t = Table::open("examples/pairadox-single-led.cards", &[]);
    trick(&mut t, &[("North", "red Single"), ("East", "hollow green square Complete"), ("South", "circle Single")]);
    assert_eq!(t.legal(), sorted(&["filled Single", "partial Single", "hollow red circle Complete"]));

    let mut t = Table::open("examples/pairadox-single-led.cards", &[]);
    trick(&mut t, &[("North", "red Single"), ("East", "hollow green square Complete"), ("South", "square Single")]);
    assert_eq!(t.legal(), sorted(&["filled Single", "partial Single"]), "no red square Complete in West's hand");
}

// ---------------------------------------------------------------- sloughing

#[test]
fn a_follower_without_a_fitting_single_sloughs_a_complete_or_plays_a_true_false_card() {
    let mut t = Table::open("examples/pairadox-slough.cards", &[]);
    t.play("hollow green circle Complete");
    assert_eq!(t.legal(), sorted(&["partial blue triangle Complete", "False card"]));
    t.play("partial blue triangle Complete");
    assert_eq!(
        t.legal(),
        sorted(&["filled Single", "partial Single", "red Single", "blue Single", "square Single"]),
        "South has nothing that fits, no Complete and no True/False card: any card"
    );
    t.play("red Single");
    assert_eq!(
        t.legal(),
        sorted(&["green Single", "hollow Single", "circle Single"]),
        "South's red Single asked nothing: green is still wanted, red is not"
    );
    t.play("green Single");
    assert!(t.said("North wins the trick; it holds no True/False card and is put aside"));
    assert_eq!(cards(&t, "won", Some("team A")), sorted(&[]));
    assert_eq!(cards(&t, "won", Some("team B")), sorted(&[]));
}

#[test]
fn the_leaders_team_takes_a_true_false_card_the_opponents_give_up() {
    let mut t = Table::open("examples/pairadox-slough.cards", &[]);
    trick(
        &mut t,
        &[
            ("North", "hollow green circle Complete"),
            ("East", "False card"),
            ("South", "blue Single"),
            ("West", "circle Single"),
        ],
    );
    assert!(t.said("North wins the trick: team A take 1 True/False card"));
    assert!(t.said("team A took the first True/False card"));
    assert_eq!(cards(&t, "won", Some("team A")), sorted(&["False card"]));
}

// ---------------------------------------------------------------- True/False leads

#[test]
fn a_true_false_card_is_led_only_by_a_player_holding_nothing_else() {
    let t = Table::open("examples/pairadox-tf-lead.cards", &[]);
    assert_eq!(t.seat_name(), "North");
    assert_eq!(t.legal(), sorted(&["True card", "True card", "True card", "False card", "False card"]));
    let t = Table::open("examples/pairadox-pairs.cards", &[]);
    assert_eq!(
        t.legal(),
        sorted(&["filled red circle Complete", "filled red square Complete", "filled red triangle Complete"]),
        "North holds a True and a False card as well, but may not lead them"
    );
}

#[test]
fn after_a_true_false_lead_anything_may_follow_until_a_single_or_complete_sets_the_set() {
    let all_east = ["True card", "green Single", "filled blue circle Complete", "hollow Single", "square Single"];
    let all_south = ["blue Single", "circle Single", "red Single", "partial green triangle Complete", "False card"];

    // Another True/False card keeps the trick open.
    let mut t = Table::open("examples/pairadox-tf-lead.cards", &[]);
    t.play("True card");
    assert_eq!(t.legal(), sorted(&all_east));
    t.play("True card");
    assert_eq!(t.legal(), sorted(&all_south), "only True/False cards so far: still anything");

    // A Complete played second is followed as if it had been led.
    let mut t = Table::open("examples/pairadox-tf-lead.cards", &[]);
    trick(&mut t, &[("North", "True card"), ("East", "filled blue circle Complete")]);
    assert_eq!(t.legal(), sorted(&["blue Single", "circle Single"]));
    t.play("circle Single");
    assert_eq!(t.legal(), sorted(&["filled Single"]), "West adds the filled pattern");

    // A Single played second is built on as if it had been led.
    let mut t = Table::open("examples/pairadox-tf-lead.cards", &[]);
    trick(&mut t, &[("North", "True card"), ("East", "green Single")]);
    assert_eq!(t.legal(), sorted(&["circle Single", "partial green triangle Complete"]));
    t.play("partial green triangle Complete");
    assert_eq!(t.legal(), sorted(&["triangle Single"]), "West adds a shape that agrees with the Complete")
}

#[test]
fn the_leader_s_team_takes_the_true_false_cards_of_a_true_false_lead() {
    let mut t = Table::open("examples/pairadox-tf-lead.cards", &[]);
    trick(&mut t, &[("North", "False card"), ("East", "True card"), ("South", "False card"), ("West", "True card")]);
    assert!(t.said("North wins the trick: team A take 4 True/False cards"), "{:?}", narration(&t));
    assert_eq!(cards(&t, "won", Some("team A")), sorted(&["True card", "True card", "False card", "False card"]));
    assert_eq!(t.seat_name(), "East");
}

// ---------------------------------------------------------------- what players see

#[test]
fn how_many_true_false_cards_a_player_holds_is_public_but_not_which() {
    let mut t = Table::open("examples/pairadox-tf-lead.cards", &[]);
    let (north, east, south, west) = (0, 1, 2, 3);
    assert_eq!(
        cards(&t, "tf_row", Some("North")),
        sorted(&["True card", "True card", "True card", "False card", "False card"]),
        "North sees its own"
    );
    for viewer in [east, south, west] {
        assert_eq!(seen(&t, viewer, "tf_row", Some("North")), PileView::Count(5), "player {viewer}, partner included");
    }
    assert_eq!(seen(&t, north, "tf_row", Some("East")), PileView::Count(1));
    assert_eq!(cards(&t, "tf_row", Some("East")), sorted(&["True card"]), "East sees its own");
    // Hands are private too: others see how many cards, not which.
    assert_eq!(seen(&t, north, "hand", Some("East")), PileView::Count(4));
    t.play("True card");
    assert_eq!(seen(&t, east, "tf_row", Some("North")), PileView::Count(4), "one fewer once played");
    assert_eq!(cards(&t, "trick", None), sorted(&["True card"]), "a card played is face up");
}

// ---------------------------------------------------------------- the tie-break

#[test]
fn equal_pairs_go_to_the_team_that_took_the_first_true_false_card() {
    let mut t = Table::open("examples/pairadox-pairs.cards", &[]);
    trick(
        &mut t,
        &[
            ("North", "filled red circle Complete"),
            ("East", "filled green circle Complete"),
            ("South", "filled blue square Complete"),
            ("West", "partial red circle Complete"),
        ],
    );
    assert!(t.said("North wins the trick; it holds no True/False card and is put aside"));
    trick(
        &mut t,
        &[
            ("East", "filled green square Complete"),
            ("South", "False card"),
            ("West", "True card"),
            ("North", "filled red square Complete"),
        ],
    );
    assert!(t.said("team B took the first True/False card"));
    trick(
        &mut t,
        &[
            ("South", "filled blue triangle Complete"),
            ("West", "partial red square Complete"),
            ("North", "True card"),
            ("East", "True card"),
        ],
    );
    // West holds only a True and a False card now: it must lead one of them.
    assert_eq!(t.legal(), sorted(&["True card", "False card"]));
    t.play("True card");
    assert_eq!(t.legal(), sorted(&["filled red triangle Complete", "False card"]), "anything after a True/False lead");
    t.play("False card");
    t.play("filled green triangle Complete");
    assert_eq!(
        t.legal(),
        sorted(&["False card", "False card"]),
        "no Single matches the Complete: South gives up a False card"
    );
    t.play("False card");
    trick(
        &mut t,
        &[
            ("North", "filled red triangle Complete"),
            ("East", "filled blue circle Complete"),
            ("South", "False card"),
            ("West", "False card"),
        ],
    );
    assert!(t.said("team A took 4 True/False cards: 2 pairs"), "{:?}", narration(&t));
    assert!(t.said("team B took 5 True/False cards: 2 pairs"));
    let outcome = t.state.outcome().expect("over");
    assert_eq!(outcome.winners, vec![1, 3], "team B took the first True/False card");
}
