//! Buddy on your Left: the CONFORMANCE.md positions and the RULINGS.md rulings (house switches
//! included), played through the State API by move names.

use crate::reads::sorted;
use crate::table::Table;
use paradox::Event;

const FRESH: &str = "examples/buddy-sweep.cards";
const EQUAL: &str = "examples/buddy-equal-card.cards";
const DEAD: &str = "examples/buddy-dead-lead.cards";
const ROUND_END: &str = "examples/buddy-round-end.cards";

/// The names of a seat's ten cards, `P1's 1` .. `P1's 10`, sorted like a pile's.
fn own_cards(seat: &str) -> Vec<String> {
    let names: Vec<String> = (1..=10).map(|r| format!("{seat}'s {r}")).collect();
    sorted(&names.iter().map(String::as_str).collect::<Vec<_>>())
}

/// The moves `1` .. `10` (a card is played by its rank), except the ranks listed.
fn cards_of(ranks: std::ops::RangeInclusive<u8>, except: &[u8]) -> Vec<String> {
    let names: Vec<String> = ranks.filter(|r| !except.contains(r)).map(|r| r.to_string()).collect();
    sorted(&names.iter().map(String::as_str).collect::<Vec<_>>())
}

fn chips(t: &Table) -> (i64, i64, i64) {
    (t.var("chips", Some("P1")), t.var("chips", Some("P2")), t.var("chips", Some("P3")))
}

// ---- CONFORMANCE.md 1: scoring, on a whole round ----

/// A whole round started by P1: hauls P1 12, P2 40, P3 11; the 30th card (P3's 3) is a lead
/// that nobody answers, so it goes to P1.
const ROUND_12_40_11: [[&str; 3]; 10] = [
    ["7", "8", "8"],
    ["3", "7", "5"],
    ["9", "9", "7"],
    ["6", "5", "2"],
    ["4", "1", "4"],
    ["5", "10", "1"],
    ["8", "2", "10"],
    ["2", "6", "9"],
    ["10", "3", "6"],
    ["1", "4", "3"],
];

#[test]
fn buddy_scoring_own_points_plus_the_left_neighbours() {
    let mut t = Table::open(FRESH, &[]);
    for turn in &ROUND_12_40_11 {
        t.play_all(turn);
    }
    assert!(t.said("P1 collects the last card, P3's 3, worth 3"), "{:?}", t.lines());
    assert!(t.said("P1: 12 own + 40 from P2 = 52"));
    assert!(t.said("P2: 40 own + 11 from P3 = 51"));
    assert!(t.said("P3: 11 own + 12 from P1 = 23"));
    assert!(t.said("P1 places 1 and gets 3 chips, 3 in all"));
    assert!(t.said("P2 places 2 and gets 1 chip, 1 in all"));
    assert!(t.said("P3 places 3 and gets 0 chips, 0 in all"));
    assert_eq!(chips(&t), (3, 1, 0));
}

#[test]
fn buddy_a_round_is_thirty_cards_in_turn_and_the_winner_starts_the_next() {
    let mut t = Table::open(FRESH, &[]);
    assert!(t.said("P1 plays the first card of the round"));
    for seat in ["P1", "P2", "P3"] {
        let mut hand = t.pile("hand", Some(seat));
        hand.sort();
        assert_eq!(hand, own_cards(seat), "{seat} holds their own ten");
    }
    for turn in &ROUND_12_40_11 {
        t.play_all(turn);
    }
    let chosen: Vec<u8> = t
        .state
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::Chose { seat, .. } => Some(*seat),
            _ => None,
        })
        .collect();
    assert_eq!(chosen.len(), 30);
    for seat in 0..3 {
        assert_eq!(chosen.iter().filter(|s| **s == seat).count(), 10, "every player plays ten cards");
    }
    assert_eq!(chosen.last(), Some(&2), "the last card comes from P3, on the right of P1");
    // P1 won the round, so P1 starts the next one, with every card back in hand.
    assert_eq!(t.said_count("P1 plays the first card of the round"), 2);
    assert_eq!(t.seat_name(), "P1");
    for seat in ["P1", "P2", "P3"] {
        assert_eq!(t.pile("hand", Some(seat)).len(), 10);
        assert!(t.pile("swept", Some(seat)).is_empty());
    }
}

// ---- CONFORMANCE.md 2: a sweep ----

#[test]
fn buddy_a_higher_card_sweeps_the_sequence() {
    let mut t = Table::open(FRESH, &[]);
    assert_eq!(t.seat_name(), "P1");
    t.play("5");
    assert_eq!(t.legal(), cards_of(1..=10, &[5]), "anything but the lead's rank");
    t.play("3");
    t.play("2");
    t.play("4");
    assert!(!t.lines().iter().any(|l| l.contains("sweeps")), "lower cards do not end the sequence");
    t.play("7");
    assert!(t.said("P2 sweeps 5 cards with P2's 7, worth 14"), "{:?}", t.lines());
    assert_eq!(t.pile("swept", Some("P2")).len(), 5);
    assert!(t.pile("table", None).is_empty());
    assert_eq!(t.seat_name(), "P3", "the sweeper's left leads next");
}

// ---- CONFORMANCE.md 3: the equal card ----

#[test]
fn buddy_an_equal_card_is_allowed_to_a_player_with_nothing_higher_and_sweeps() {
    let mut t = Table::open(EQUAL, &[]);
    let mut hand = t.pile("hand", Some("P2"));
    hand.sort();
    let mut eight: Vec<String> = (1..=8).map(|r| format!("P2's {r}")).collect();
    eight.sort();
    assert_eq!(hand, eight);
    t.play("8");
    assert_eq!(t.legal(), cards_of(1..=8, &[]), "P2 holds no 9 or 10: the 8 is allowed");
    t.play("8");
    assert!(t.said("P2 sweeps 2 cards with P2's 8, worth 0"), "{:?}", t.lines());
    assert_eq!(t.seat_name(), "P3");
}

#[test]
fn buddy_an_equal_card_is_not_allowed_while_holding_a_higher_one() {
    let mut t = Table::open(FRESH, &[]);
    t.play("8");
    assert_eq!(t.legal(), cards_of(1..=10, &[8]), "P2 still holds the 9 and 10");
    // In the equal-card position P3 keeps its 9 and 10, so P3 may not match either.
    let mut t = Table::open(EQUAL, &[]);
    t.play_all(&["8", "7"]);
    assert_eq!(t.legal(), cards_of(3..=10, &[8]));
}

#[test]
fn buddy_switch_equal_exception_off_forbids_the_equal_card() {
    let mut t = Table::open(EQUAL, &["equal_exception=false"]);
    t.play("8");
    assert_eq!(t.legal(), cards_of(1..=7, &[]));
}

#[test]
fn buddy_switch_equal_exception_off_a_last_card_that_equals_the_lead_is_forced_and_sweeps() {
    // RULINGS.md is silent here; the rule file plays the forced card and lets it sweep.
    let mut t = Table::open(ROUND_END, &["equal_exception=false"]);
    t.play_all(&["10", "7", "2"]);
    assert_eq!(t.legal(), sorted(&["2"]));
    t.play("2");
    assert!(t.said("P1 sweeps 2 cards with P1's 2, worth 4"), "{:?}", t.lines());
}

// ---- CONFORMANCE.md 4: a dead lead ----

#[test]
fn buddy_a_dead_lead_is_swept_by_whatever_follows() {
    let mut t = Table::open(DEAD, &[]);
    t.play("10");
    assert!(t.said("P1's 10 is the highest card left, so it captures nothing"));
    assert_eq!(t.legal(), cards_of(1..=9, &[]), "P2 may play any card");
    t.play("1");
    assert!(t.said("P2 sweeps 2 cards with P2's 1, worth 1"), "{:?}", t.lines());
    assert_eq!(t.seat_name(), "P3");
}

#[test]
fn buddy_a_lead_that_another_card_can_match_is_not_dead() {
    let mut t = Table::open(DEAD, &[]);
    // P1's dead 10 goes first; then no 10 is left, and P3 leads a 9 that the other 9s can match.
    t.play_all(&["10", "1"]);
    assert_eq!(t.seat_name(), "P3");
    t.play("9");
    assert_eq!(t.said_count("P3's 9 is the highest card left"), 0, "an equal card left in play keeps it alive");
    assert_eq!(t.legal(), cards_of(2..=9, &[]), "P1 holds nothing higher: its 9 may match");
    t.play("2");
    assert_eq!(t.said_count("P1 sweeps"), 0, "a 2 is lower than a live 9");
    t.play("9");
    assert!(t.said("P2 sweeps 3 cards with P2's 9, worth 2"), "{:?}", t.lines());
}

#[test]
fn buddy_switch_top_scoring_rank_a_dead_ten_keeps_its_value() {
    let mut t = Table::open(DEAD, &["top_scoring_rank=10"]);
    t.play_all(&["10", "1"]);
    assert!(t.said("P2 sweeps 2 cards with P2's 1, worth 11"), "{:?}", t.lines());
}

#[test]
fn buddy_switch_top_scoring_rank_lower() {
    let mut t = Table::open(FRESH, &["top_scoring_rank=3"]);
    t.play_all(&["5", "3", "2", "4", "7"]);
    assert!(t.said("P2 sweeps 5 cards with P2's 7, worth 5"), "only the 3 and 2 score: {:?}", t.lines());
}

// ---- Chips: ties ----

#[test]
fn buddy_chips_by_place_without_ties() {
    let mut t = Table::open(ROUND_END, &[]);
    t.play_all(&["2", "4", "2", "10", "7", "8"]);
    assert!(t.said("P1: 21 own + 23 from P2 = 44"), "{:?}", t.lines());
    assert!(t.said("P2: 23 own + 19 from P3 = 42"));
    assert!(t.said("P3: 19 own + 21 from P1 = 40"));
    assert_eq!(chips(&t), (3, 1, 0));
}

#[test]
fn buddy_two_tied_for_first_get_two_chips_each_and_draw_for_the_next_lead() {
    let line = ["2", "7", "8", "10", "4", "2"];
    let mut leaders = Vec::new();
    for seed in 1..=16 {
        let mut t = Table::open_seeded(ROUND_END, &[], seed);
        t.play_all(&line);
        assert!(t.said("P2: 19 own + 25 from P3 = 44"), "{:?}", t.lines());
        assert!(t.said("P3: 25 own + 19 from P1 = 44"));
        assert!(t.said("P1: 19 own + 19 from P2 = 38"));
        assert!(t.said("P2 places 1 and gets 2 chips, 2 in all"));
        assert!(t.said("P3 places 1 and gets 2 chips, 2 in all"));
        assert!(t.said("P1 places 3 and gets 0 chips, 0 in all"));
        leaders.push(t.seat_name());
    }
    leaders.sort();
    leaders.dedup();
    assert_eq!(leaders, vec!["P2", "P3"], "the next round is started by one of the two, by lot");
}

#[test]
fn buddy_a_three_way_tie_gives_one_chip_each() {
    let mut t = Table::open(ROUND_END, &[]);
    t.play_all(&["10", "4", "8", "2", "7", "2"]);
    for seat in ["P1", "P2", "P3"] {
        assert!(t.said(&format!("{seat} places 1 and gets 1 chip, 1 in all")), "{:?}", t.lines());
    }
    assert_eq!(chips(&t), (1, 1, 1));
}

#[test]
fn buddy_two_tied_for_second_get_one_chip_each() {
    let line = ["10", "7", "2", "2", "4", "8"];
    let mut t = Table::open(ROUND_END, &[]);
    t.play_all(&line);
    assert!(t.said("P1: 23 own + 17 from P2 = 40"), "{:?}", t.lines());
    assert!(t.said("P2: 17 own + 23 from P3 = 40"));
    assert!(t.said("P3: 23 own + 23 from P1 = 46"));
    assert_eq!(chips(&t), (1, 1, 3));
    assert_eq!(t.seat_name(), "P3", "the winner starts the next round");
}

#[test]
fn buddy_switch_second_tie_chips_zero() {
    let line = ["10", "7", "2", "2", "4", "8"];
    let mut t = Table::open(ROUND_END, &["second_tie_chips=0"]);
    t.play_all(&line);
    assert!(t.said("P1 places 2 and gets 0 chips, 0 in all"), "{:?}", t.lines());
    assert_eq!(chips(&t), (0, 0, 3));
}

// ---- The match ----

#[test]
fn buddy_the_match_goes_to_the_first_to_seven_chips() {
    let line = ["2", "4", "2", "10", "7", "8"];
    let mut t = Table::open(ROUND_END, &[]);
    t.play_all(&line);
    t.play_all(&line);
    assert_eq!(chips(&t), (6, 2, 0));
    assert!(!t.state.is_over());
    t.play_all(&line);
    let outcome = t.state.outcome().expect("P1 has 9 chips");
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(outcome.returns, vec![1, -1, -1]);
    assert_eq!(outcome.standings, vec![("P1".to_string(), 9), ("P2".to_string(), 3), ("P3".to_string(), 0)]);
}

#[test]
fn buddy_two_reaching_the_target_together_more_chips_wins() {
    // With a target of 1, all three reach it in one round: P3 has the most.
    let mut t = Table::open(ROUND_END, &["chips_to_win=1"]);
    t.play_all(&["10", "7", "2", "2", "4", "8"]);
    let outcome = t.state.outcome().expect("the match is over");
    assert_eq!(outcome.winners, vec![2]);
}

#[test]
fn buddy_level_at_the_top_after_the_target_play_goes_on() {
    let mut t = Table::open(ROUND_END, &["chips_to_win=2"]);
    t.play_all(&["2", "7", "8", "10", "4", "2"]);
    assert_eq!(chips(&t), (0, 2, 2));
    assert!(!t.state.is_over(), "P2 and P3 both reached 2 and are level: play on");
    // Whoever of the two was drawn to start, P3 takes three chips this time.
    match t.seat_name().as_str() {
        "P2" => t.play_all(&["4", "8", "2", "7", "2", "10"]),
        "P3" => t.play_all(&["2", "10", "4", "8", "2", "7"]),
        other => panic!("{other} may not start: only P2 and P3 were level at the top"),
    }
    assert_eq!(chips(&t), (0, 3, 5));
    assert_eq!(t.state.outcome().expect("P3 is ahead").winners, vec![2]);
}

#[test]
fn buddy_every_card_is_open_to_everyone() {
    use paradox::{Layout, PileView};
    let t = Table::open(FRESH, &[]);
    let game = t.state.game();
    let layout = Layout::of(game);
    for zone in ["hand", "swept", "table"] {
        let z = game.zones.iter().position(|x| x.name == zone).unwrap() as u16;
        for pile in 0..layout.piles(z) {
            for player in 0..3 {
                assert!(matches!(t.state.view(player).piles[layout.pile(z, pile)], PileView::Cards(_)));
            }
        }
    }
}
