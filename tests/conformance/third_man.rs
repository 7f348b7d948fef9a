//! The Third Man: the CONFORMANCE.md table and the RULINGS.md rulings (house switches included),
//! played through the State API: the lead player bids openly, the other three in secret and at
//! the same time (`play_for`).

use crate::reads::sorted;
use crate::table::Table;
use paradox::Event;

const AUCTION: &str = "examples/third-man-auction.cards";
const SEATS: [&str; 4] = ["P1", "P2", "P3", "P4"];

fn seat_index(seat: &str) -> usize {
    SEATS.iter().position(|s| *s == seat).expect("a seat P1..P4")
}

/// One auction, bids given in seat order P1..P4: the lead player (whoever it is) bids
/// openly, then the other three choose in secret, in the order given by `secret_order`.
fn auction_in_order(t: &mut Table, bids: [u8; 4], secret_order: &[&str]) {
    let lead = t.seat_name();
    t.play(&format!("bid {}", bids[seat_index(&lead)]));
    let mut waiting = t.together();
    waiting.sort();
    let mut expected: Vec<String> = SEATS.iter().filter(|s| **s != lead).map(|s| s.to_string()).collect();
    expected.sort();
    assert_eq!(waiting, expected, "the three others bid together");
    for seat in secret_order.iter().filter(|s| **s != lead) {
        t.play_for(seat, &format!("bid {}", bids[seat_index(seat)]));
    }
}

fn auction(t: &mut Table, bids: [u8; 4]) {
    auction_in_order(t, bids, &SEATS);
}

fn scores(t: &Table) -> [i64; 4] {
    SEATS.map(|s| t.var("score", Some(s)))
}

fn chips(t: &Table) -> [i64; 4] {
    SEATS.map(|s| t.var("chips", Some(s)))
}

/// `bid 0` .. `bid 9`, sorted like `legal()`.
fn all_bids() -> Vec<String> {
    let names: Vec<String> = (0..=9).map(|v| format!("bid {v}")).collect();
    sorted(&names.iter().map(String::as_str).collect::<Vec<_>>())
}

// ---- CONFORMANCE.md: the table ----

#[test]
fn third_man_9_7_5_2() {
    let mut t = Table::open(AUCTION, &[]);
    assert_eq!(t.seat_name(), "P1", "P1 opens (the scenario's draw)");
    assert_eq!(t.legal(), all_bids());
    t.play("bid 9");
    assert!(t.said("P1 opens with 9"));
    assert_eq!(t.pile("bidding", Some("P1")), vec!["P1's 9"], "the open bid lies face up");
    for seat in ["P2", "P3", "P4"] {
        assert_eq!(t.legal_for(seat), all_bids(), "{seat} may bid any card");
    }
    assert!(t.legal_for("P1").is_empty(), "P1 has bid already");
    // Secret bids, made in an order other than the seats'.
    t.play_for("P4", "bid 2");
    t.play_for("P2", "bid 7");
    assert_eq!(t.together(), vec!["P3"], "only P3 is still to choose");
    assert!(t.pile("bidding", Some("P4")).is_empty(), "P4's bid stays secret until everyone has chosen");
    assert!(!t.state.events().iter().any(|e| matches!(e, Event::Chose { seat: 3, .. })), "nothing told yet");
    t.play_for("P3", "bid 5");
    assert!(t.said("bids revealed: P1 9, P2 7, P3 5, P4 2"), "{:?}", t.lines());
    assert!(t.said("P1 bid 9, place 1: 1, score 1"));
    assert!(t.said("P2 bid 7, place 2: -7, score -7"));
    assert!(t.said("P3 bid 5, place 3: 10, score 10"));
    assert!(t.said("P4 bid 2, place 4: 0, score 0"));
    assert_eq!(scores(&t), [1, -7, 10, 0]);
    // The bids stay on show, and the player in front (P3) opens the next auction.
    assert_eq!(t.pile("shown", Some("P3")), vec!["P3's 5"]);
    assert_eq!(t.pile("hand", Some("P3")).len(), 9);
    assert_eq!(t.seat_name(), "P3");
    assert!(!t.legal().contains(&"bid 5".to_string()), "a bid card is spent");
}

#[test]
fn third_man_9_9_5_2() {
    let mut t = Table::open(AUCTION, &[]);
    auction(&mut t, [9, 9, 5, 2]);
    assert!(t.said("P1 bid 9, place 1: -4, score -4"), "{:?}", t.lines());
    assert!(t.said("P2 bid 9, place 1: -4, score -4"));
    assert!(t.said("P3 bid 5, place 3: 10, score 10"), "after two first places the next is third");
    assert!(t.said("P4 bid 2, place 4: 0, score 0"));
    assert_eq!(scores(&t), [-4, -4, 10, 0]);
}

#[test]
fn third_man_8_6_6_1() {
    let mut t = Table::open(AUCTION, &[]);
    auction(&mut t, [8, 6, 6, 1]);
    assert!(t.said("P1 bid 8, place 1: 2, score 2"), "{:?}", t.lines());
    assert!(t.said("P2 bid 6, place 2: -6, score -6"));
    assert!(t.said("P3 bid 6, place 2: -6, score -6"), "two seconds: both lose their bids");
    assert!(t.said("P4 bid 1, place 4: 0, score 0"), "and there is no third");
    assert_eq!(scores(&t), [2, -6, -6, 0]);
}

#[test]
fn third_man_5_5_5_5_is_annulled() {
    let mut t = Table::open(AUCTION, &[]);
    auction(&mut t, [5, 5, 5, 5]);
    assert!(t.said("bids revealed: P1 5, P2 5, P3 5, P4 5"));
    assert!(t.said("three or more equal bids: the auction is annulled"));
    assert_eq!(t.said_count("P1 bid"), 0, "nobody is paid");
    assert_eq!(scores(&t), [0, 0, 0, 0]);
    assert_eq!(t.var("counted", None), 0, "an annulled auction does not count");
    for seat in SEATS {
        assert_eq!(t.pile("hand", Some(seat)).len(), 10, "{seat}'s card goes back");
        assert!(t.pile("bidding", Some(seat)).is_empty());
        assert!(t.pile("shown", Some(seat)).is_empty());
    }
    assert_eq!(t.seat_name(), "P1", "the same lead player bids again");
    assert_eq!(t.legal(), all_bids(), "with the 5 back in hand");
    // The repeated auction is an ordinary one.
    auction(&mut t, [9, 7, 5, 2]);
    assert_eq!(scores(&t), [1, -7, 10, 0]);
    assert_eq!(t.var("counted", None), 1);
}

// ---- Rulings of our own ----

#[test]
fn third_man_three_equal_bids_annul_too() {
    let mut t = Table::open(AUCTION, &[]);
    auction(&mut t, [3, 3, 9, 3]);
    assert!(t.said("three or more equal bids: the auction is annulled"));
    assert_eq!(scores(&t), [0, 0, 0, 0]);
    assert_eq!(t.seat_name(), "P1");
}

#[test]
fn third_man_two_pairs_share_first_and_third() {
    let mut t = Table::open(AUCTION, &[]);
    auction(&mut t, [7, 3, 7, 3]);
    assert!(t.said("P1 bid 7, place 1: -2, score -2"), "{:?}", t.lines());
    assert!(t.said("P2 bid 3, place 3: 6, score 6"));
    assert_eq!(scores(&t), [-2, 6, -2, 6]);
}

#[test]
fn third_man_two_thirds_both_double() {
    let mut t = Table::open(AUCTION, &[]);
    auction(&mut t, [9, 5, 2, 2]);
    assert!(t.said("P3 bid 2, place 3: 4, score 4"), "{:?}", t.lines());
    assert!(t.said("P4 bid 2, place 3: 4, score 4"));
    assert_eq!(scores(&t), [1, -5, 4, 4]);
}

#[test]
fn third_man_a_tie_for_the_lead_goes_to_the_bigger_latest_gain() {
    let mut t = Table::open(AUCTION, &[]);
    auction(&mut t, [9, 7, 5, 2]);
    assert_eq!(t.seat_name(), "P3");
    auction(&mut t, [8, 6, 0, 5]);
    assert_eq!(scores(&t), [3, -13, 10, 10]);
    // P3 and P4 are level on 10; P4 gained 10 in the latest auction, P3 nothing.
    assert_eq!(t.seat_name(), "P4");
}

#[test]
fn third_man_a_tie_on_the_latest_gain_goes_back_to_earlier_auctions() {
    let mut t = Table::open(AUCTION, &[]);
    auction(&mut t, [9, 7, 5, 2]);
    auction(&mut t, [8, 6, 0, 5]);
    assert_eq!(t.seat_name(), "P4");
    auction(&mut t, [7, 5, 1, 1]);
    assert_eq!(scores(&t), [6, -18, 12, 12]);
    // Level on 12 and on the latest gain (+2 each); one auction earlier P4 gained 10 and P3
    // nothing (though P3 did better in the first auction).
    assert_eq!(t.seat_name(), "P4");
}

#[test]
fn third_man_a_full_tie_for_the_lead_is_drawn_by_lot() {
    let mut leads = Vec::new();
    for seed in 1..=16 {
        let mut t = Table::open_seeded(AUCTION, &[], seed);
        auction(&mut t, [9, 5, 2, 2]);
        leads.push(t.seat_name());
    }
    leads.sort();
    leads.dedup();
    assert_eq!(leads, vec!["P3", "P4"], "P3 and P4 are level in every way");
}

#[test]
fn third_man_switch_prize() {
    let mut t = Table::open(AUCTION, &["prize=12"]);
    auction(&mut t, [9, 9, 5, 2]);
    assert!(t.said("P1 bid 9, place 1: -3, score -3"), "{:?}", t.lines());
    assert_eq!(scores(&t), [-3, -3, 10, 0]);
    let mut t = Table::open(AUCTION, &["prize=20"]);
    auction(&mut t, [9, 7, 5, 2]);
    assert_eq!(scores(&t), [11, -7, 10, 0]);
}

#[test]
fn third_man_switch_third_multiplier() {
    let mut t = Table::open(AUCTION, &["third_multiplier=3"]);
    auction(&mut t, [9, 7, 5, 2]);
    assert!(t.said("P3 bid 5, place 3: 15, score 15"), "{:?}", t.lines());
    assert_eq!(scores(&t), [1, -7, 15, 0]);
}

#[test]
fn third_man_a_score_above_the_board_ends_the_series() {
    let mut t = Table::open(AUCTION, &[]);
    auction(&mut t, [9, 7, 5, 2]);
    auction(&mut t, [8, 6, 4, 1]);
    auction(&mut t, [7, 5, 1, 0]);
    assert_eq!(scores(&t), [6, -18, 20, 0]);
    assert_eq!(t.said_count("P3 wins the series"), 0, "exactly 20 is still on the board");
    assert_eq!(t.seat_name(), "P3");
    auction(&mut t, [6, 4, 3, 3]);
    assert!(t.said("P3 wins the series after 4 auctions with 26 points and now has 1 chip"), "{:?}", t.lines());
    assert_eq!(chips(&t), [0, 0, 1, 0]);
    // A new series: scores and cards start again, and P1 opens it.
    assert_eq!(scores(&t), [0, 0, 0, 0]);
    assert_eq!(t.var("counted", None), 0);
    for seat in SEATS {
        assert_eq!(t.pile("hand", Some(seat)).len(), 10);
        assert!(t.pile("shown", Some(seat)).is_empty());
    }
    assert_eq!(t.seat_name(), "P1");
}

#[test]
fn third_man_switch_board_limit() {
    let mut t = Table::open(AUCTION, &["board_limit=9"]);
    auction(&mut t, [9, 7, 5, 2]);
    assert!(t.said("P3 wins the series after 1 auction with 10 points and now has 1 chip"), "{:?}", t.lines());
    let mut t = Table::open(AUCTION, &["board_limit=10"]);
    auction(&mut t, [9, 7, 5, 2]);
    assert_eq!(t.said_count("P3 wins the series"), 0, "10 is not beyond a board of 10");
    // Going below the board counts as well: -6 is beyond 5, and P1 is in front.
    let mut t = Table::open(AUCTION, &["board_limit=5"]);
    auction(&mut t, [8, 6, 6, 1]);
    assert!(t.said("P1 wins the series after 1 auction with 2 points and now has 1 chip"), "{:?}", t.lines());
}

#[test]
fn third_man_the_series_champion_is_found_with_the_same_tie_break() {
    let mut t = Table::open(AUCTION, &["board_limit=12"]);
    auction(&mut t, [9, 7, 5, 2]);
    auction(&mut t, [8, 6, 0, 5]);
    // P2 fell to -13; P3 and P4 are level on 10, P4 gained more in the latest auction.
    assert!(t.said("P4 wins the series after 2 auctions with 10 points and now has 1 chip"), "{:?}", t.lines());
}

/// Nine auctions that keep every score within the board (bids in seat order P1..P4).
const NINE: [[u8; 4]; 9] = [
    [8, 1, 8, 3],
    [7, 4, 4, 0],
    [6, 7, 5, 4],
    [9, 5, 2, 5],
    [4, 9, 1, 8],
    [5, 3, 9, 2],
    [3, 6, 0, 9],
    [2, 2, 7, 1],
    [0, 0, 6, 6],
];

#[test]
fn third_man_a_series_ends_after_nine_counted_auctions() {
    let mut t = Table::open(AUCTION, &[]);
    for (k, bids) in NINE.iter().enumerate() {
        if k == 2 {
            // An annulled auction on the way does not count.
            auction(&mut t, [3, 3, 3, 1]);
            assert!(t.said("three or more equal bids: the auction is annulled"));
        }
        if k == 8 {
            for seat in SEATS {
                assert_eq!(t.pile("hand", Some(seat)).len(), 2, "{seat} has two cards for the ninth auction");
            }
        }
        auction(&mut t, *bids);
        if k < 8 {
            assert_eq!(t.var("counted", None), k as i64 + 1);
            assert_eq!(t.said_count("P3 wins the series"), 0);
        }
    }
    // Each player kept one card, never bid: P1's 1, P2's 8, P3's 3, P4's 7.
    for (seat, kept) in [("P1", 1), ("P2", 8), ("P3", 3), ("P4", 7)] {
        assert_eq!(t.said_count(&format!("{seat} bid {kept},")), 0);
    }
    assert!(t.said("P3 wins the series after 9 auctions with 6 points and now has 1 chip"), "{:?}", t.lines());
    assert_eq!(chips(&t), [0, 0, 1, 0]);
    assert_eq!(t.seat_name(), "P1", "the next series");
}

#[test]
fn third_man_the_match_goes_to_three_chips() {
    let mut t = Table::open(AUCTION, &["board_limit=9"]);
    for series in 1..=3 {
        assert!(!t.state.is_over());
        assert_eq!(t.seat_name(), "P1");
        auction(&mut t, [9, 7, 5, 2]);
        assert_eq!(chips(&t)[2], series);
    }
    let outcome = t.state.outcome().expect("P3 has three chips");
    assert_eq!(outcome.winners, vec![2]);
    assert_eq!(outcome.returns, vec![-1, -1, 1, -1]);
    assert_eq!(outcome.standings[2], ("P3".to_string(), 3));
}

#[test]
fn third_man_secret_bids_can_be_made_in_any_order() {
    let mut a = Table::open(AUCTION, &[]);
    auction_in_order(&mut a, [9, 7, 5, 2], &["P2", "P3", "P4"]);
    let mut b = Table::open(AUCTION, &[]);
    auction_in_order(&mut b, [9, 7, 5, 2], &["P4", "P3", "P2"]);
    assert_eq!(a.lines(), b.lines());
    assert_eq!(scores(&a), scores(&b));
}
