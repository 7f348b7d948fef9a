//! Tantony played through the State API: the CONFORMANCE.md tricks and every ruling of
//! RULINGS.md (runts, giving tricks, the quota, last cards, re-formed hands, the lead passing
//! left), with each switch flipped.

use crate::piles::{cards, narration, seen};
use crate::reads::sorted;
use crate::table::Table;
use paradox::{Event, PileView};
use std::collections::HashMap;

const SEATS: [&str; 4] = ["North", "East", "South", "West"];

fn takers(seats: &[&str]) -> Vec<String> {
    let names: Vec<String> = seats.iter().map(|s| format!("{s} takes the trick")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    sorted(&refs)
}

/// The moves of the seat to act, in the order the State API offers them.
fn offered(t: &Table) -> Vec<String> {
    let seat = t.seat();
    t.state.legal_actions(seat).iter().filter_map(|a| t.state.action_name(seat, *a)).collect()
}

/// Plays one decision: a gift to `give_to` when that is allowed, otherwise the first move offered.
fn auto(t: &mut Table, give_to: Option<&str>) -> String {
    let moves = offered(t);
    let wanted = give_to.map(|g| format!("{g} takes the trick"));
    let pick = wanted.filter(|w| moves.contains(w)).unwrap_or_else(|| moves[0].clone());
    t.play(&pick);
    pick
}

/// Plays on to the end of the game; a game that never ends fails the test.
fn play_to_the_end(t: &mut Table, give_to: Option<&str>) {
    let mut decisions = 0;
    while t.state.outcome().is_none() {
        assert!(t.state.failure().is_none(), "{:?}", t.state.failure());
        decisions += 1;
        assert!(decisions < 20_000, "the game does not end");
        auto(t, give_to);
    }
}

fn phase_started(t: &Table, name: &str) -> bool {
    t.state.events().iter().any(|e| matches!(e, Event::Phase { name: n, .. } if n == name))
}

fn lines_with(t: &Table, part: &str) -> Vec<String> {
    narration(t).into_iter().filter(|l| l.contains(part)).collect()
}

// ---------------------------------------------------------------- CONFORMANCE.md

#[test]
fn nine_led_five_queen_three_the_queen_wins_and_the_five_is_a_runt_worth_5() {
    let mut t = Table::open("examples/tantony-runt.cards", &[]);
    assert!(t.said("North leads the first trick"));
    assert_eq!(t.seat_name(), "North");
    assert_eq!(t.legal(), sorted(&["9 of spades", "2 of hearts", "10 of diamonds"]), "any card may be led");
    t.play("9 of spades");
    assert_eq!(t.legal(), sorted(&["5 of spades", "K of spades"]), "East must follow suit");
    t.play("5 of spades");
    assert_eq!(t.legal(), sorted(&["Q of spades"]));
    t.play("Q of spades");
    assert_eq!(t.legal(), sorted(&["3 of hearts", "6 of clubs", "J of diamonds"]), "West has no spade");
    t.play("3 of hearts");
    assert!(t.said("South wins with the Q of spades; the runt is the 5 of spades, worth 5"), "{:?}", narration(&t));
}

#[test]
fn the_ace_of_hearts_led_that_nobody_can_follow_is_worth_20() {
    let mut t = Table::open("examples/tantony-ace-nobody-follows.cards", &[]);
    t.play("A of hearts");
    for seat in ["East", "South", "West"] {
        assert_eq!(t.seat_name(), seat);
        assert_eq!(t.legal().len(), 2, "{seat} holds no heart: either card");
        let card = offered(&t)[0].clone();
        t.play(&card);
    }
    assert!(t.said("North wins with the A of hearts; the runt is the A of hearts, worth 20"), "{:?}", narration(&t));
}

// ---------------------------------------------------------------- runt values

#[test]
fn with_high_court_values_the_lone_ace_is_worth_30_and_a_king_runt_25() {
    let mut t = Table::open("examples/tantony-ace-nobody-follows.cards", &["high_court_values=true"]);
    for card in ["A of hearts", "3 of diamonds", "2 of spades", "7 of spades"] {
        t.play(card);
    }
    assert!(t.said("North wins with the A of hearts; the runt is the A of hearts, worth 30"));

    let mut t = Table::open("examples/tantony-ace-nobody-follows.cards", &["high_court_values=true"]);
    t.play("K of clubs");
    assert_eq!(t.legal(), sorted(&["A of clubs"]), "East must follow with the Ace");
    for card in ["A of clubs", "2 of spades", "7 of spades"] {
        t.play(card);
    }
    assert!(t.said("East wins with the A of clubs; the runt is the K of clubs, worth 25"), "{:?}", narration(&t));

    let mut t = Table::open("examples/tantony-ace-nobody-follows.cards", &[]);
    for card in ["K of clubs", "A of clubs", "2 of spades", "7 of spades"] {
        t.play(card);
    }
    assert!(t.said("East wins with the A of clubs; the runt is the K of clubs, worth 15"), "courts are 15 by default");
}

// ---------------------------------------------------------------- giving tricks

#[test]
fn the_winner_may_give_the_trick_to_anyone_and_the_receiver_leads() {
    let mut t = Table::open("examples/tantony-runt.cards", &["deals=1"]);
    for card in ["9 of spades", "5 of spades", "Q of spades", "3 of hearts"] {
        t.play(card);
    }
    assert_eq!(t.seat_name(), "South", "the winner decides who takes the trick");
    assert_eq!(t.legal(), takers(&SEATS));
    t.play("West takes the trick");
    assert!(t.said("South gives the trick to West"));
    assert_eq!(t.seat_name(), "West", "whoever ends up with the trick leads");
    assert_eq!(cards(&t, "runts", Some("West")), sorted(&["5 of spades"]), "the runt lies face up");
    for viewer in 0..4 {
        assert_eq!(seen(&t, viewer, "taken", Some("West")), PileView::Count(3), "the rest of the trick face down");
    }

    // West leads the Jack of diamonds; everyone has a diamond to follow with.
    t.play("J of diamonds");
    for (seat, card) in [("North", "10 of diamonds"), ("East", "7 of diamonds"), ("South", "8 of diamonds")] {
        assert_eq!(t.seat_name(), seat);
        t.play(card);
    }
    assert!(t.said("West wins with the J of diamonds; the runt is the 7 of diamonds, worth 7"));
    t.play("West takes the trick");
    assert!(t.said("West keeps the trick"));

    // Last cards: North's 2 of hearts is the lowest. East-West have 5 + 7, North-South 2.
    assert!(t.said("North's last card, the 2 of hearts, is a runt worth 2"), "{:?}", narration(&t));
    assert!(t.said("North-South score 2 for their runts, 2 in all"));
    assert!(t.said("East-West score 12 for their runts, 12 in all"));
    let outcome = t.state.outcome().expect("one deal");
    assert_eq!(outcome.winners, vec![1, 3]);
}

#[test]
fn a_winner_may_keep_the_trick_and_then_leads() {
    let mut t = Table::open("examples/tantony-runt.cards", &[]);
    for card in ["9 of spades", "K of spades", "Q of spades", "6 of clubs"] {
        t.play(card);
    }
    assert!(t.said("East wins with the K of spades; the runt is the 9 of spades, worth 9"));
    t.play("East takes the trick");
    assert!(t.said("East keeps the trick"));
    assert_eq!(t.seat_name(), "East");
    assert_eq!(cards(&t, "runts", Some("East")), sorted(&["9 of spades"]));
}

#[test]
fn a_winner_holding_three_tricks_must_give_the_next_away() {
    let mut t = Table::open("examples/tantony-quota.cards", &[]);
    for (lead, east, south, west) in [
        ("A of spades", "2 of spades", "6 of spades", "2 of clubs"),
        ("K of spades", "3 of spades", "7 of spades", "3 of clubs"),
        ("Q of spades", "4 of spades", "8 of spades", "4 of clubs"),
    ] {
        for card in [lead, east, south, west] {
            t.play(card);
        }
        assert_eq!(t.legal(), takers(&SEATS), "room for everyone");
        t.play("North takes the trick");
    }
    assert_eq!(seen(&t, 1, "taken", Some("North")), PileView::Count(9), "three tricks, runts apart");
    assert_eq!(cards(&t, "runts", Some("North")).len(), 3);
    for card in ["J of spades", "5 of spades", "9 of spades", "5 of clubs"] {
        t.play(card);
    }
    assert!(t.said("North wins with the J of spades; the runt is the 5 of spades, worth 5"));
    assert_eq!(t.legal(), takers(&["East", "South", "West"]), "North is full: it must give");
    t.play("South takes the trick");
    assert!(t.said("North gives the trick to South"));
}

#[test]
fn a_higher_quota_lets_a_player_hold_more_tricks() {
    let mut t = Table::open("examples/tantony-quota.cards", &["quota=4"]);
    for (lead, east, south, west) in [
        ("A of spades", "2 of spades", "6 of spades", "2 of clubs"),
        ("K of spades", "3 of spades", "7 of spades", "3 of clubs"),
        ("Q of spades", "4 of spades", "8 of spades", "4 of clubs"),
        ("J of spades", "5 of spades", "9 of spades", "5 of clubs"),
    ] {
        for card in [lead, east, south, west] {
            t.play(card);
        }
        assert_eq!(t.legal(), takers(&SEATS));
        t.play("North takes the trick");
    }
    assert!(t.said("North keeps the trick"));
    // North kept all four runts (2 + 3 + 4 + 5), and the Two of hearts is the lowest last card.
    assert!(t.said("North's last card, the 2 of hearts, is a runt worth 2"), "{:?}", narration(&t));
    assert!(t.said("North-South score 16 for their runts, 16 in all"));
    assert!(t.said("East-West score 0 for their runts, 0 in all"));
}

// ---------------------------------------------------------------- last cards

#[test]
fn tied_lowest_last_cards_are_all_runts_for_their_holders() {
    let mut t = Table::open("examples/tantony-last-cards.cards", &["deals=1"]);
    for card in ["7 of spades", "8 of spades", "9 of spades", "10 of spades"] {
        t.play(card);
    }
    assert!(t.said("West wins with the 10 of spades; the runt is the 7 of spades, worth 7"));
    t.play("South takes the trick");
    let lines = lines_with(&t, "last card");
    assert_eq!(
        lines,
        vec![
            "North's last card, the 2 of hearts, is a runt worth 2",
            "East's last card, the 2 of clubs, is a runt worth 2",
            "West's last card, the 2 of diamonds, is a runt worth 2",
        ],
        "the three Twos tie for lowest; South's Five is not a runt"
    );
    // North-South: the trick's 7 (given to South) and North's 2; East-West: two Twos.
    assert!(t.said("North-South score 9 for their runts, 9 in all"), "{:?}", narration(&t));
    assert!(t.said("East-West score 4 for their runts, 4 in all"));
    let outcome = t.state.outcome().expect("one deal");
    assert_eq!(outcome.winners, vec![0, 2]);
    assert_eq!(outcome.standings, vec![("North-South".to_string(), 9), ("East-West".to_string(), 4)]);
}

#[test]
fn a_single_lowest_last_card_is_the_only_last_card_runt() {
    let mut t = Table::open("examples/tantony-ace-nobody-follows.cards", &["deals=1"]);
    for card in ["A of hearts", "3 of diamonds", "9 of diamonds", "7 of spades"] {
        t.play(card);
    }
    t.play("North takes the trick");
    // Left in hand: North K of clubs, East A of clubs, South 2 of spades, West Q of diamonds.
    assert_eq!(lines_with(&t, "last card"), vec!["South's last card, the 2 of spades, is a runt worth 2"]);
    assert!(t.said("North-South score 22 for their runts, 22 in all"), "{:?}", narration(&t));
    assert!(t.said("East-West score 0 for their runts, 0 in all"));
}

// ---------------------------------------------------------------- deals

#[test]
fn the_next_hand_is_the_three_tricks_taken_plus_the_last_card_without_a_shuffle() {
    let mut t = Table::open("rules/tantony.cards", &[]);
    let start: HashMap<&str, Vec<String>> = SEATS.iter().map(|s| (*s, cards(&t, "hand", Some(s)))).collect();
    let mut played: HashMap<String, Vec<String>> = HashMap::new();
    let mut received: HashMap<String, Vec<String>> = HashMap::new();
    let mut trick: Vec<String> = Vec::new();
    while !phase_started(&t, "gather") {
        let seat = t.seat_name();
        let pick = auto(&mut t, None);
        match pick.strip_suffix(" takes the trick") {
            Some(taker) => received.entry(taker.to_string()).or_default().append(&mut trick),
            None => {
                played.entry(seat).or_default().push(pick.clone());
                trick.push(pick);
            }
        }
    }
    let gathered_at = t.state.events().iter().position(|e| matches!(e, Event::Phase { name, .. } if name == "gather"));
    let after = &t.state.events()[gathered_at.expect("deal two began")..];
    assert!(!after.iter().any(|e| matches!(e, Event::Shuffled { .. })), "no shuffle for the second deal");
    for seat in SEATS {
        let mut expected: Vec<String> = received.get(seat).cloned().unwrap_or_default();
        assert_eq!(expected.len(), 12, "{seat} took three tricks");
        let last: Vec<String> =
            start[seat].iter().filter(|c| !played.get(seat).is_some_and(|p| p.contains(c))).cloned().collect();
        assert_eq!(last.len(), 1, "{seat} kept one card");
        expected.extend(last);
        expected.sort();
        assert_eq!(cards(&t, "hand", Some(seat)), expected, "{seat}'s new hand");
    }
}

#[test]
fn the_first_lead_starts_left_of_the_dealer_and_passes_one_seat_left_each_deal() {
    let mut t = Table::open("rules/tantony.cards", &[]);
    let dealer = t
        .state
        .events()
        .iter()
        .find_map(|e| match e {
            Event::Drew { what, .. } => Some(what.clone()),
            _ => None,
        })
        .expect("the dealer is drawn by lot");
    play_to_the_end(&mut t, None);
    let leads = lines_with(&t, "leads the first trick");
    assert_eq!(leads.len(), 4, "four deals");
    let mut seat = SEATS.iter().position(|s| *s == dealer).expect("a seat");
    for line in leads {
        seat = (seat + 1) % 4;
        assert_eq!(line, format!("{} leads the first trick", SEATS[seat]));
    }
}

#[test]
fn the_game_is_four_deals_unless_the_deals_switch_says_otherwise() {
    for (sets, deals) in [(&[][..], 4), (&["deals=1"][..], 1), (&["deals=2"][..], 2), (&["deals=6"][..], 6)] {
        let mut t = Table::open("rules/tantony.cards", sets);
        play_to_the_end(&mut t, None);
        let scores = lines_with(&t, "North-South score");
        assert_eq!(scores.len(), deals, "{sets:?}");
        // The result is the sum of every deal's runts.
        let total: i64 =
            scores.iter().map(|l| l.split(' ').nth(2).and_then(|n| n.parse::<i64>().ok()).expect("a number")).sum();
        let outcome = t.state.outcome().expect("over");
        assert_eq!(outcome.standings[0], ("North-South".to_string(), total));
    }
}

#[test]
fn a_points_target_ends_the_game_at_the_first_deal_that_reaches_it() {
    let mut t = Table::open("rules/tantony.cards", &["deals=0", "target=250"]);
    play_to_the_end(&mut t, None);
    let totals = |side: &str| -> Vec<i64> {
        lines_with(&t, &format!("{side} score"))
            .iter()
            .map(|l| l.rsplit(' ').nth(2).and_then(|n| n.parse().ok()).expect("a total"))
            .collect()
    };
    let (ns, ew) = (totals("North-South"), totals("East-West"));
    let deals = ns.len();
    assert!(deals > 1, "one deal does not reach 250");
    for d in 0..deals - 1 {
        assert!(ns[d] < 250 && ew[d] < 250, "deal {} already reached the target", d + 1);
    }
    assert!(ns[deals - 1] >= 250 || ew[deals - 1] >= 250);
}

#[test]
fn a_quota_above_three_leaves_uneven_hands_which_are_shuffled_and_dealt_afresh() {
    for (quota, north, shuffled) in [("quota=3", 3, false), ("quota=4", 4, true)] {
        let mut t = Table::open("rules/tantony.cards", &[quota]);
        while !phase_started(&t, "gather") {
            let moves = offered(&t);
            if moves.iter().any(|m| m.ends_with(" takes the trick")) {
                // Whoever won, North may be handed the trick only while it has room.
                let held = lines_with(&t, "North keeps").len() + lines_with(&t, "the trick to North").len();
                assert_eq!(moves.contains(&"North takes the trick".to_string()), held < north, "{quota}");
            }
            auto(&mut t, Some("North"));
        }
        let held = lines_with(&t, "North keeps").len() + lines_with(&t, "the trick to North").len();
        assert_eq!(held, north, "{quota}: every trick that may go to North does");
        let gathered_at = t
            .state
            .events()
            .iter()
            .position(|e| matches!(e, Event::Phase { name, .. } if name == "gather"))
            .expect("deal two began");
        let after = &t.state.events()[gathered_at..];
        assert_eq!(after.iter().any(|e| matches!(e, Event::Shuffled { .. })), shuffled, "{quota}");
        for seat in SEATS {
            assert_eq!(cards(&t, "hand", Some(seat)).len(), 13, "{quota}: {seat}");
        }
    }
}
