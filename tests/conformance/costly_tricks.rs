//! Costly Tricks: the CONFORMANCE.md positions and the RULINGS.md rulings (house switches
//! included), played through the State API by move names.

use crate::reads::sorted;
use crate::table::Table;
use paradox::{Layout, PileView};

const RULEBOOK: &str = "examples/costly-tricks-rulebook-trick.cards";
const FOLLOW_TRUMP: &str = "examples/costly-tricks-trump-must-be-followed.cards";
const TRUMP_ZERO: &str = "examples/costly-tricks-trump-zero-wins.cards";
const FREE_TRUMP: &str = "examples/costly-tricks-free-new-trump.cards";
const POWERLESS: &str = "examples/costly-tricks-powerless-card.cards";
const ONE_TRICK: &str = "examples/costly-tricks-one-trick-round.cards";
const FULL_DEAL: &str = "examples/costly-tricks-full-deal.cards";

/// Plays the only, or the first, legal move until the match is over; returns the moves made.
fn play_out(t: &mut Table) -> usize {
    let mut moves = 0;
    while !t.state.is_over() {
        let first = t.legal()[0].clone();
        t.play(&first);
        moves += 1;
        assert!(moves < 10_000, "the match does not end");
    }
    assert!(t.state.failure().is_none(), "{:?}", t.state.failure());
    moves
}

fn play_round(t: &mut Table, tricks: &[[&str; 4]; 11]) {
    for trick in tricks {
        t.play_all(trick);
    }
}

// ---- CONFORMANCE.md 1: the rulebook's trick ----

#[test]
fn costly_tricks_the_rulebooks_trick() {
    let mut t = Table::open(RULEBOOK, &[]);
    assert_eq!(t.seat_name(), "A");
    assert_eq!(t.legal(), sorted(&["red 10", "red 5", "green 4"]), "the leader may lead anything");
    t.play("red 5");
    assert_eq!(t.seat_name(), "B");
    assert_eq!(t.legal(), sorted(&["green 2", "blue 8", "blue 3"]), "no red, no trump yet: any new colour");
    t.play("blue 3");
    assert!(t.said("blue is now trump"));
    assert_eq!(t.seat_name(), "A's ghost");
    assert_eq!(t.legal(), sorted(&["green 3", "purple 10", "purple 1"]), "A's ghost has no red and no blue");
    t.play("purple 10");
    assert!(t.said("purple is now trump"));
    assert_eq!(t.seat_name(), "B's ghost");
    assert_eq!(t.legal(), sorted(&["blue 10", "blue 7", "blue 6"]), "B's ghost holds no red or purple; blue was trump");
    t.play("blue 6");
    assert!(t.said("A's ghost wins the trick with purple 10, worth 24"), "{:?}", t.lines());
    assert_eq!(t.var("tricks", Some("SideA")), 1, "side A has one trick");
    assert_eq!(t.var("tricks", Some("SideB")), 0);
    assert_eq!(t.pile("won", Some("SideA")).len(), 4, "the four cards go to side A");
    assert!(t.pile("won", Some("SideB")).is_empty());
    assert_eq!(t.seat_name(), "A's ghost", "the winner leads the next trick");
}

// ---- CONFORMANCE.md 2: trump must be followed ----

#[test]
fn costly_tricks_trump_must_be_followed() {
    let mut t = Table::open(FOLLOW_TRUMP, &[]);
    t.play("red 7");
    assert_eq!(t.legal(), sorted(&["green 2", "purple 6"]), "B holds no red and no trump exists: any colour");
    t.play("green 2");
    assert!(t.said("green is now trump"));
    assert_eq!(t.seat_name(), "A's ghost");
    assert_eq!(t.legal(), sorted(&["green 1"]), "no red, but green is trump: only green 1");
    t.play("green 1");
    assert_eq!(t.legal(), sorted(&["red 10"]), "B's ghost follows the led colour");
    t.play("red 10");
    assert!(t.said("B wins the trick with green 2, worth 20"), "{:?}", t.lines());
    assert_eq!(t.var("tricks", Some("SideB")), 1);
    assert_eq!(t.seat_name(), "B", "B leads next");
}

#[test]
fn costly_tricks_free_new_trump_does_not_free_a_hand_holding_trump() {
    // The house rule only frees a hand void in the led colour AND in the trump.
    let mut t = Table::open(FOLLOW_TRUMP, &["free_new_trump=true"]);
    t.play_all(&["red 7", "green 2"]);
    assert_eq!(t.legal(), sorted(&["green 1"]));
}

// ---- CONFORMANCE.md 3: a trump 0 wins ----

#[test]
fn costly_tricks_a_trump_zero_beats_the_led_colour() {
    let mut t = Table::open(TRUMP_ZERO, &[]);
    t.play("red 10");
    assert_eq!(t.legal(), sorted(&["blue 0", "green 6"]));
    t.play("blue 0");
    assert!(t.said("blue is now trump"));
    assert_eq!(t.legal(), sorted(&["red 9"]), "A's ghost must follow red");
    t.play("red 9");
    assert_eq!(t.legal(), sorted(&["red 8"]), "B's ghost must follow red, though it holds blue");
    t.play("red 8");
    assert!(t.said("B wins the trick with blue 0, worth 27"), "{:?}", t.lines());
    assert_eq!(t.seat_name(), "B");
}

// ---- CONFORMANCE.md 4: round results, on a full deal ----

/// Side A takes 5 tricks worth 96 (net -4); side B 6 tricks worth 124 (net +4).
const ROUND_96: [[&str; 4]; 11] = [
    ["green 10", "green 9", "green 6", "green 1"],
    ["red 8", "red 4", "red 6", "purple 0"],
    ["purple 4", "purple 10", "purple 5", "purple 1"],
    ["blue 7", "blue 3", "blue 5", "blue 1"],
    ["blue 2", "blue 6", "blue 0", "blue 4"],
    ["purple 2", "purple 6", "purple 9", "purple 3"],
    ["green 4", "red 0", "green 7", "green 2"],
    ["red 3", "red 1", "red 2", "green 5"],
    ["green 0", "blue 10", "green 3", "blue 8"],
    ["blue 9", "red 5", "red 10", "purple 8"],
    ["green 8", "red 7", "purple 7", "red 9"],
];

/// Side B takes 5 tricks worth 100; side A 6 tricks worth 120: both nets 0.
const ROUND_100: [[&str; 4]; 11] = [
    ["purple 10", "purple 5", "purple 1", "purple 9"],
    ["purple 3", "purple 7", "purple 6", "purple 4"],
    ["red 1", "red 10", "green 1", "red 3"],
    ["blue 4", "blue 2", "blue 6", "blue 8"],
    ["blue 5", "blue 1", "blue 9", "blue 3"],
    ["red 8", "red 5", "red 9", "green 4"],
    ["purple 0", "red 7", "purple 2", "red 2"],
    ["red 0", "red 4", "red 6", "green 5"],
    ["green 0", "green 10", "green 7", "green 6"],
    ["blue 7", "green 9", "blue 0", "green 8"],
    ["green 3", "green 2", "purple 8", "blue 10"],
];

/// Side A takes 4 tricks worth 81 (net +1); side B 7 tricks worth 139 (net -1).
const ROUND_81: [[&str; 4]; 11] = [
    ["red 0", "red 1", "red 9", "blue 4"],
    ["purple 8", "purple 3", "purple 2", "purple 6"],
    ["green 0", "green 10", "green 9", "green 6"],
    ["blue 7", "blue 3", "blue 0", "blue 1"],
    ["blue 2", "blue 6", "blue 5", "green 5"],
    ["purple 4", "purple 10", "purple 5", "purple 1"],
    ["red 8", "red 4", "red 2", "green 8"],
    ["purple 0", "blue 10", "purple 7", "blue 8"],
    ["blue 9", "green 7", "green 2", "green 4"],
    ["red 5", "red 6", "green 1", "red 7"],
    ["purple 9", "red 3", "green 3", "red 10"],
];

#[test]
fn costly_tricks_five_tricks_worth_96_lose_the_round() {
    let mut t = Table::open(FULL_DEAL, &[]);
    assert!(t.said("A holds the red 0 and leads"));
    play_round(&mut t, &ROUND_96);
    assert!(t.said("side A: 5 tricks, 96 points, net -4"), "{:?}", t.lines());
    assert!(t.said("side B: 6 tricks, 124 points, net 4"));
    assert!(t.said("side B wins the round and a chip: 0 to 1"));
    assert_eq!((t.var("chips", Some("SideA")), t.var("chips", Some("SideB"))), (0, 1));
}

#[test]
fn costly_tricks_five_tricks_worth_100_draw_the_round() {
    let mut t = Table::open(FULL_DEAL, &[]);
    play_round(&mut t, &ROUND_100);
    assert!(t.said("side A: 6 tricks, 120 points, net 0"), "{:?}", t.lines());
    assert!(t.said("side B: 5 tricks, 100 points, net 0"));
    assert!(t.said("the round is drawn: no chip changes hands"));
    assert_eq!((t.var("chips", Some("SideA")), t.var("chips", Some("SideB"))), (0, 0));
}

#[test]
fn costly_tricks_four_tricks_worth_81_win_the_round() {
    let mut t = Table::open(FULL_DEAL, &[]);
    play_round(&mut t, &ROUND_81);
    assert!(t.said("side A: 4 tricks, 81 points, net 1"), "{:?}", t.lines());
    assert!(t.said("side B: 7 tricks, 139 points, net -1"));
    assert!(t.said("side A wins the round and a chip: 1 to 0"));
    assert_eq!((t.var("chips", Some("SideA")), t.var("chips", Some("SideB"))), (1, 0));
}

// ---- Rulings of our own ----

#[test]
fn costly_tricks_the_red_zero_leads_every_round_and_hands_are_emptied() {
    let mut t = Table::open(FULL_DEAL, &[]);
    assert_eq!(t.seat_name(), "A", "A holds the red 0");
    for seat in ["A", "B", "A's ghost", "B's ghost"] {
        assert_eq!(t.pile("hand", Some(seat)).len(), 11, "11 cards to {seat}");
    }
    play_round(&mut t, &ROUND_96);
    assert_eq!(t.said_count("side A: "), 1, "one round scored after 11 tricks");
    // The next round: the red 0 leads again, not the winner of the last trick (GhostB).
    assert_eq!(t.said_count("A holds the red 0 and leads"), 2);
    assert_eq!(t.seat_name(), "A");
    assert_eq!(t.var("tricks", Some("SideA")), 0, "trick counts start again each round");
}

#[test]
fn costly_tricks_each_player_decides_for_their_ghost_and_every_hand_is_open() {
    let mut t = Table::open(RULEBOOK, &[]);
    t.play_all(&["red 5", "blue 3"]);
    assert_eq!(t.seat_name(), "A's ghost");
    assert_eq!(t.state.game().seats[t.seat() as usize].player, 0, "player A decides for A's ghost");
    t.play("purple 10");
    assert_eq!(t.state.game().seats[t.seat() as usize].player, 1, "player B decides for B's ghost");
    let game = t.state.game();
    let layout = Layout::of(game);
    let hand = game.zones.iter().position(|z| z.name == "hand").unwrap() as u16;
    for player in 0..2 {
        for seat in 0..4 {
            assert!(
                matches!(t.state.view(player).piles[layout.pile(hand, seat)], PileView::Cards(_)),
                "player {player} sees hand {seat}"
            );
        }
    }
}

#[test]
fn costly_tricks_a_hand_void_in_led_and_trump_must_start_a_new_trump() {
    let mut t = Table::open(FREE_TRUMP, &[]);
    t.play_all(&["red 6", "green 9"]);
    assert_eq!(t.legal(), sorted(&["blue 3", "purple 2"]), "A's ghost: any colour not yet trump");
    t.play("blue 3");
    assert!(t.said("blue is now trump"));
    assert_eq!(t.legal(), sorted(&["purple 1"]), "green has been trump: only purple is left to B's ghost");
    t.play("purple 1");
    assert!(t.said("purple is now trump"));
    assert!(t.said("B's ghost wins the trick with purple 1, worth 19"), "{:?}", t.lines());
}

#[test]
fn costly_tricks_switch_free_new_trump_lets_a_void_hand_throw_any_card() {
    let mut t = Table::open(FREE_TRUMP, &["free_new_trump=true"]);
    t.play_all(&["red 6", "green 9", "blue 3"]);
    assert_eq!(t.legal(), sorted(&["green 5", "purple 1"]), "free_new_trump: any card");
    t.play("green 5");
    assert_eq!(t.said_count("green is now trump"), 1, "green was trump already in this trick: only B made it so");
    assert!(t.said("A's ghost wins the trick with blue 3, worth 23"), "{:?}", t.lines());
}

#[test]
fn costly_tricks_switch_free_new_trump_still_makes_a_new_colour_trump() {
    let mut t = Table::open(FREE_TRUMP, &["free_new_trump=true"]);
    t.play_all(&["red 6", "green 9", "blue 3", "purple 1"]);
    assert!(t.said("purple is now trump"));
    assert!(t.said("B's ghost wins the trick with purple 1, worth 19"), "{:?}", t.lines());
}

#[test]
fn costly_tricks_a_colour_that_was_trump_has_no_power() {
    let mut t = Table::open(POWERLESS, &[]);
    t.play_all(&["red 3", "green 4"]);
    assert_eq!(t.legal(), sorted(&["blue 2", "purple 5"]));
    t.play("blue 2");
    assert_eq!(t.legal(), sorted(&["green 0", "green 10"]), "every colour B's ghost holds was trump: any card");
    t.play("green 10");
    assert!(t.said("A's ghost wins the trick with blue 2, worth 19"), "{:?}", t.lines());
}

#[test]
fn costly_tricks_a_cheap_trick_loses_the_round() {
    let mut t = Table::open(ONE_TRICK, &[]);
    assert!(t.said("one card a hand, A to lead"));
    t.play_all(&["red 0", "red 1", "red 2", "red 3"]);
    assert!(t.said("B's ghost wins the trick with red 3, worth 6"));
    assert!(t.said("side A: 0 tricks, 0 points, net 0"), "{:?}", t.lines());
    assert!(t.said("side B: 1 trick, 6 points, net -14"));
    assert!(t.said("side A wins the round and a chip: 1 to 0"));
}

#[test]
fn costly_tricks_switch_trick_cost_changes_who_wins_the_round() {
    let mut t = Table::open(ONE_TRICK, &["trick_cost=5"]);
    t.play_all(&["red 0", "red 1", "red 2", "red 3"]);
    assert!(t.said("side B: 1 trick, 6 points, net 1"), "{:?}", t.lines());
    assert!(t.said("side B wins the round and a chip: 0 to 1"));

    let mut t = Table::open(ONE_TRICK, &["trick_cost=6"]);
    t.play_all(&["red 0", "red 1", "red 2", "red 3"]);
    assert!(t.said("side B: 1 trick, 6 points, net 0"), "{:?}", t.lines());
    assert!(t.said("the round is drawn: no chip changes hands"));
}

#[test]
fn costly_tricks_switch_trick_cost_on_a_full_round() {
    // At 15 a trick the nets no longer sum to zero and both can be positive. RULINGS.md does not
    // say who wins then; the rule file gives the chip to the better net: here the side with more
    // tricks takes the round that was a draw at 20.
    let mut t = Table::open(FULL_DEAL, &["trick_cost=15"]);
    play_round(&mut t, &ROUND_100);
    assert!(t.said("side A: 6 tricks, 120 points, net 30"), "{:?}", t.lines());
    assert!(t.said("side B: 5 tricks, 100 points, net 25"));
    assert!(t.said("side A wins the round and a chip: 1 to 0"));
}

#[test]
fn costly_tricks_the_match_goes_to_three_chips() {
    let mut t = Table::open(ONE_TRICK, &[]);
    let moves = play_out(&mut t);
    assert_eq!(moves, 3 * 4, "three one-trick rounds");
    assert!(t.said("side A wins the round and a chip: 3 to 0"));
    let outcome = t.state.outcome().expect("the match is over");
    assert_eq!(outcome.winners, vec![0], "player A wins");
    assert_eq!(outcome.returns, vec![1, -1]);
    assert_eq!(outcome.standings, vec![("side A".to_string(), 3), ("side B".to_string(), 0)]);
}

#[test]
fn costly_tricks_switch_chips_to_win() {
    for (chips, rounds) in [(1, 1), (2, 2), (5, 5)] {
        let mut t = Table::open(ONE_TRICK, &[&format!("chips_to_win={chips}")]);
        assert_eq!(play_out(&mut t), rounds * 4, "chips_to_win={chips}");
        let outcome = t.state.outcome().expect("the match is over");
        assert_eq!(outcome.standings[0], ("side A".to_string(), chips));
        assert_eq!(outcome.winners, vec![0]);
    }
}

#[test]
fn costly_tricks_switch_tug_of_war_the_loser_pays_until_one_side_has_all_six() {
    let mut t = Table::open(ONE_TRICK, &["tug_of_war=true"]);
    assert_eq!((t.var("chips", Some("SideA")), t.var("chips", Some("SideB"))), (3, 3), "three chips each");
    assert_eq!(play_out(&mut t), 3 * 4);
    assert!(t.said("side A wins the round and takes a chip from side B: 4 to 2"), "{:?}", t.lines());
    assert!(t.said("side A wins the round and takes a chip from side B: 6 to 0"));
    let outcome = t.state.outcome().expect("the match is over");
    assert_eq!(outcome.standings, vec![("side A".to_string(), 6), ("side B".to_string(), 0)]);
    assert_eq!(outcome.winners, vec![0]);
}

#[test]
fn costly_tricks_switch_tug_of_war_chips_flow_both_ways_and_a_draw_moves_none() {
    let mut t = Table::open(FULL_DEAL, &["tug_of_war=true"]);
    play_round(&mut t, &ROUND_96);
    assert!(t.said("side B wins the round and takes a chip from side A: 2 to 4"), "{:?}", t.lines());
    play_round(&mut t, &ROUND_81);
    assert!(t.said("side A wins the round and takes a chip from side B: 3 to 3"), "{:?}", t.lines());
    play_round(&mut t, &ROUND_100);
    assert!(t.said("the round is drawn: no chip changes hands"));
    assert_eq!((t.var("chips", Some("SideA")), t.var("chips", Some("SideB"))), (3, 3));
    assert!(!t.state.is_over(), "nobody holds all six");
}

#[test]
fn costly_tricks_switch_tug_of_war_with_one_chip_each() {
    // chips_to_win sets the starting stake under tug_of_war: one each, first to two.
    let mut t = Table::open(FULL_DEAL, &["tug_of_war=true", "chips_to_win=1"]);
    play_round(&mut t, &ROUND_96);
    let outcome = t.state.outcome().expect("side B holds both chips");
    assert_eq!(outcome.standings, vec![("side A".to_string(), 0), ("side B".to_string(), 2)]);
    assert_eq!(outcome.winners, vec![1]);
}
