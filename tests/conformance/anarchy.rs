//! Anarchy played through the State API: the CONFORMANCE.md reveals and every ruling of
//! RULINGS.md (pack and hand sizes, bids and their scores, the Low Ace, ties, the target), each
//! switch flipped. Secret, simultaneous choices are made seat by seat with `play_for`.

use crate::piles::{cards, narration, seen};
use crate::reads::sorted;
use crate::table::Table;
use paradox::{Actor, PileView};

/// Bids in turn, starting with whoever is to bid now.
fn bid(t: &mut Table, bids: &[&str]) {
    for b in bids {
        t.play(b);
    }
}

/// One trick: each seat's secret card, revealed once everyone has chosen.
fn reveal(t: &mut Table, shown: &[(&str, &str)]) {
    for (seat, card) in shown {
        t.play_for(seat, card);
    }
}

fn won(t: &Table, seat: &str) -> Vec<String> {
    cards(t, "won", Some(seat))
}

fn score(t: &Table, seat: &str) -> i64 {
    let outcome = t.state.outcome().expect("the game is over");
    outcome.standings.iter().find(|(who, _)| who == seat).map(|(_, k)| *k).expect("a standing per seat")
}

// ---------------------------------------------------------------- CONFORMANCE.md

#[test]
fn reveal_one_the_king_takes_the_five_and_the_equal_nines_each_win_themselves() {
    let mut t = Table::open("examples/anarchy-suit-groups.cards", &[]);
    bid(&mut t, &["cards", "cards", "cards", "cards"]);
    assert_eq!(t.state.actor(), Actor::Together(vec![0, 1, 2, 3]), "all four choose at once");
    reveal(&mut t, &[("P1", "K of spades"), ("P2", "5 of spades"), ("P3", "9 of hearts"), ("P4", "9 of diamonds")]);
    assert!(t.said("P1 takes the spades with the K of spades"), "{:?}", narration(&t));
    assert!(t.said("the highest singletons are equal: each wins itself"), "{:?}", narration(&t));
    assert_eq!(won(&t, "P1"), sorted(&["K of spades", "5 of spades"]));
    assert_eq!(won(&t, "P2"), sorted(&[]));
    assert_eq!(won(&t, "P3"), sorted(&["9 of hearts"]));
    assert_eq!(won(&t, "P4"), sorted(&["9 of diamonds"]));
}

#[test]
fn reveal_two_the_nine_of_hearts_takes_the_four_of_diamonds() {
    let mut t = Table::open("examples/anarchy-suit-groups.cards", &[]);
    bid(&mut t, &["cards", "cards", "cards", "cards"]);
    reveal(&mut t, &[("P1", "K of spades"), ("P2", "5 of spades"), ("P3", "9 of hearts"), ("P4", "4 of diamonds")]);
    assert!(t.said("P1 takes the spades with the K of spades"));
    assert!(t.said("P3 takes the 2 singletons with the 9 of hearts"), "{:?}", narration(&t));
    assert_eq!(won(&t, "P1"), sorted(&["K of spades", "5 of spades"]));
    assert_eq!(won(&t, "P3"), sorted(&["9 of hearts", "4 of diamonds"]));
    assert_eq!(won(&t, "P4"), sorted(&[]));
}

// ---------------------------------------------------------------- secret choices

#[test]
fn nothing_is_revealed_until_everyone_has_chosen() {
    let mut t = Table::open("examples/anarchy-suit-groups.cards", &[]);
    bid(&mut t, &["cards", "cards", "cards", "cards"]);
    reveal(&mut t, &[("P1", "K of spades"), ("P2", "5 of spades"), ("P3", "9 of hearts")]);
    assert_eq!(t.state.actor(), Actor::Together(vec![3]), "only P4 is still to choose");
    assert_eq!(t.state.view(3).to_act, vec![3]);
    for viewer in 0..4 {
        for seat in ["P1", "P2", "P3", "P4"] {
            assert_eq!(seen(&t, viewer, "shown", Some(seat)), PileView::Cards(vec![]), "nothing is turned up yet");
        }
    }
    // A choice made in secret changes nothing the others see: P2 still sees two cards in P1's hand.
    assert_eq!(seen(&t, 1, "hand", Some("P1")), PileView::Count(2));
    t.play_for("P4", "9 of diamonds");
    assert!(t.said("P1 takes the spades with the K of spades"));
}

// ---------------------------------------------------------------- pack and hands

/// Every card dealt, as each player sees their own hand (after everyone bids `cards`).
fn dealt_hands(sets: &[&str]) -> Vec<Vec<String>> {
    let mut t = Table::open("rules/anarchy.cards", sets);
    let players = t.state.game().players;
    for _ in 0..players {
        t.play("cards");
    }
    let seats: Vec<String> = (1..=players).map(|i| format!("P{i}")).collect();
    for (i, seat) in seats.iter().enumerate() {
        // Nobody bid shorts, so every card is one move, and only the owner sees which.
        assert_eq!(t.legal_for(seat).len(), cards(&t, "hand", Some(seat)).len());
        let other = (i + 1) % players;
        assert_eq!(seen(&t, other, "hand", Some(seat)), PileView::Count(cards(&t, "hand", Some(seat)).len()));
    }
    seats.iter().map(|s| cards(&t, "hand", Some(s))).collect()
}

fn count_named(hands: &[Vec<String>], name: &str) -> usize {
    hands.iter().flatten().filter(|c| *c == name).count()
}

#[test]
fn four_players_get_thirteen_each_from_the_52_card_pack() {
    for sets in [&[][..], &["doubled_twos_threes=true"][..]] {
        let hands = dealt_hands(sets);
        assert!(hands.iter().all(|h| h.len() == 13), "{sets:?}");
        assert_eq!(count_named(&hands, "11 of clubs") + count_named(&hands, "12 of hearts"), 0);
        assert_eq!(count_named(&hands, "2 of spades"), 1, "no doubled Twos for four players");
    }
}

#[test]
fn five_players_get_twelve_each_from_sixty_cards_with_elevens_and_twelves() {
    let hands = dealt_hands(&["players=5"]);
    assert_eq!(hands.len(), 5);
    assert!(hands.iter().all(|h| h.len() == 12));
    for suit in ["clubs", "diamonds", "hearts", "spades"] {
        assert_eq!(count_named(&hands, &format!("11 of {suit}")), 1);
        assert_eq!(count_named(&hands, &format!("12 of {suit}")), 1);
        assert_eq!(count_named(&hands, &format!("2 of {suit}")), 1);
    }
}

#[test]
fn six_players_get_ten_each() {
    let hands = dealt_hands(&["players=6"]);
    assert_eq!(hands.len(), 6);
    assert!(hands.iter().all(|h| h.len() == 10));
    assert_eq!(count_named(&hands, "11 of spades"), 1);
}

#[test]
fn the_doubled_pack_has_two_of_every_two_and_three_and_no_elevens_or_twelves() {
    for players in [5, 6] {
        let p = format!("players={players}");
        let hands = dealt_hands(&[&p, "doubled_twos_threes=true"]);
        assert_eq!(hands.iter().map(Vec::len).sum::<usize>(), 60);
        assert!(hands.iter().all(|h| h.len() == 60 / players));
        for suit in ["clubs", "diamonds", "hearts", "spades"] {
            assert_eq!(count_named(&hands, &format!("2 of {suit}")), 2, "{players} players");
            assert_eq!(count_named(&hands, &format!("3 of {suit}")), 2);
            assert_eq!(count_named(&hands, &format!("4 of {suit}")), 1);
            assert_eq!(count_named(&hands, &format!("11 of {suit}")), 0);
            assert_eq!(count_named(&hands, &format!("12 of {suit}")), 0);
        }
    }
}

// ---------------------------------------------------------------- bidding

#[test]
fn bids_are_made_aloud_in_turn_from_the_dealers_left() {
    let mut t = Table::open("examples/anarchy-scoring.cards", &[]);
    assert_eq!(t.seat_name(), "P1", "P4 deals; P1 bids first");
    assert_eq!(
        t.legal(),
        sorted(&["cards", "reds", "blacks", "best suit", "clubs", "diamonds", "hearts", "spades", "shorts"])
    );
    t.play("hearts");
    assert!(t.said("P1 bids hearts"));
    for seat in ["P2", "P3", "P4"] {
        assert_eq!(t.seat_name(), seat);
        t.play("best suit");
    }
    assert!(t.said("P4 bids best suit"));
    assert!(matches!(t.state.actor(), Actor::Together(_)), "then the first trick");
}

// ---------------------------------------------------------------- scoring by the bids

/// Plays the scoring deal: P1 wins the six hearts; P3 the three spades, two clubs and a diamond.
fn play_scoring_deal(t: &mut Table) {
    reveal(t, &[("P1", "A of hearts"), ("P2", "2 of hearts"), ("P3", "A of spades"), ("P4", "2 of clubs")]);
    reveal(t, &[("P1", "K of hearts"), ("P2", "3 of hearts"), ("P3", "K of spades"), ("P4", "3 of clubs")]);
    reveal(t, &[("P1", "Q of hearts"), ("P2", "4 of hearts"), ("P3", "Q of spades"), ("P4", "4 of diamonds")]);
}

fn scored(bids: [&str; 4]) -> Table {
    let mut t = Table::open("examples/anarchy-scoring.cards", &[]);
    bid(&mut t, &bids);
    play_scoring_deal(&mut t);
    t
}

#[test]
fn cards_reds_blacks_best_a_suit_and_shorts_each_score_at_their_rate() {
    let t = scored(["reds", "shorts", "blacks", "cards"]);
    assert!(t.said("P1 bid reds: 6 red cards (of 6 won) × 2 = 12 points, 12 in all"), "{:?}", narration(&t));
    assert!(t.said("P2 bid shorts: 0 won of 3 dealt, 3 short × 5 = 15 points, 15 in all"));
    assert!(t.said("P3 bid blacks: 5 black cards (of 6 won) × 2 = 10 points, 10 in all"), "5 black cards at 2");
    assert!(t.said("P4 bid cards: 0 cards won × 1 = 0 points, 0 in all"));

    let t = scored(["hearts", "cards", "best suit", "shorts"]);
    assert!(t.said("P1 bid hearts: 6 cards of hearts (of 6 won) × 4 = 24 points, 24 in all"));
    assert!(t.said("P2 bid cards: 0 cards won × 1 = 0 points, 0 in all"));
    assert!(
        t.said("P3 bid best suit: 3 cards of the suit won most (of 6 won) × 3 = 9 points, 9 in all"),
        "3 spades, the suit won most, at 3"
    );
    assert!(t.said("P4 bid shorts: 0 won of 3 dealt, 3 short × 5 = 15 points, 15 in all"));

    let t = scored(["blacks", "reds", "cards", "clubs"]);
    assert!(t.said("P1 bid blacks: 0 black cards (of 6 won) × 2 = 0 points, 0 in all"));
    assert!(t.said("P3 bid cards: 6 cards won × 1 = 6 points, 6 in all"));
    assert!(t.said("P4 bid clubs: 0 cards of clubs (of 0 won) × 4 = 0 points, 0 in all"));

    let t = scored(["diamonds", "spades", "spades", "reds"]);
    assert!(t.said("P3 bid spades: 3 cards of spades (of 6 won) × 4 = 12 points, 12 in all"));
    assert!(t.said("P1 bid diamonds: 0 cards of diamonds (of 6 won) × 4 = 0 points, 0 in all"));
}

#[test]
fn shorts_is_never_negative_for_a_player_who_wins_more_than_was_dealt() {
    let t = scored(["shorts", "shorts", "shorts", "shorts"]);
    assert!(t.said("P1 bid shorts: 6 won of 3 dealt, 0 short × 5 = 0 points, 0 in all"), "{:?}", narration(&t));
    assert!(t.said("P2 bid shorts: 0 won of 3 dealt, 3 short × 5 = 15 points, 15 in all"));
}

// ---------------------------------------------------------------- the target

#[test]
fn the_game_ends_once_someone_reaches_the_target_and_the_highest_score_wins() {
    let mut t = Table::open("examples/anarchy-scoring.cards", &["target=10"]);
    bid(&mut t, &["hearts", "shorts", "best suit", "cards"]);
    play_scoring_deal(&mut t);
    let outcome = t.state.outcome().expect("24 and 15 are both over 10: the game is over");
    assert_eq!(outcome.winners, vec![0], "P1, the highest of the two over the target");
    assert_eq!((score(&t, "P1"), score(&t, "P2"), score(&t, "P3"), score(&t, "P4")), (24, 15, 9, 0));
}

#[test]
fn below_the_target_the_deal_passes_left_and_play_goes_on() {
    let mut t = Table::open("examples/anarchy-scoring.cards", &["target=25"]);
    bid(&mut t, &["hearts", "shorts", "cards", "cards"]);
    play_scoring_deal(&mut t);
    assert!(t.state.outcome().is_none(), "24 is short of 25");
    assert!(t.said("three cards each; P1 deals"), "the deal passes to P4's left");
    assert_eq!(t.seat_name(), "P2", "the new dealer's left bids first");
    bid(&mut t, &["shorts", "cards", "cards", "blacks"]);
    play_scoring_deal(&mut t);
    // P1 24 + 0 (no blacks won), P2 15 + 15 = 30: P2 is the only one over.
    assert_eq!(t.state.outcome().expect("P2 reached 25").winners, vec![1]);
    assert_eq!(score(&t, "P1"), 24);
    assert_eq!(score(&t, "P2"), 30);
}

#[test]
fn the_default_target_is_one_hundred() {
    let mut t = Table::open("examples/anarchy-scoring.cards", &[]);
    // P1 bids hearts every deal: 24 a deal, past 100 in the fifth.
    for deal in 1..=5 {
        assert!(t.state.outcome().is_none(), "over before deal {deal}");
        for _ in 0..4 {
            let bidder = t.seat_name();
            t.play(if bidder == "P1" { "hearts" } else { "cards" });
        }
        play_scoring_deal(&mut t);
    }
    assert_eq!(t.state.outcome().expect("120 is over 100").winners, vec![0]);
    assert_eq!(score(&t, "P1"), 120);
    assert_eq!(score(&t, "P3"), 30);
}

// ---------------------------------------------------------------- the Low Ace

#[test]
fn a_shorts_bidder_may_call_an_ace_low_and_others_may_not() {
    let mut t = Table::open("examples/anarchy-low-ace.cards", &[]);
    bid(&mut t, &["shorts", "cards", "cards", "shorts"]);
    assert_eq!(t.legal_for("P1"), sorted(&["A of spades", "A of spades low", "A of hearts", "A of hearts low"]));
    assert_eq!(t.legal_for("P3"), sorted(&["9 of clubs", "A of diamonds"]), "P3 bid cards: no Low");
    assert_eq!(t.legal_for("P4"), sorted(&["J of clubs", "Q of clubs"]), "a shorts bidder without an Ace");

    let mut t = Table::open("examples/anarchy-low-ace.cards", &[]);
    bid(&mut t, &["reds", "shorts", "shorts", "shorts"]);
    assert_eq!(t.legal_for("P1"), sorted(&["A of spades", "A of hearts"]), "P1 did not bid shorts");
    assert_eq!(t.legal_for("P3"), sorted(&["9 of clubs", "A of diamonds", "A of diamonds low"]));
}

#[test]
fn a_low_ace_ranks_below_the_two_of_its_suit() {
    let mut t = Table::open("examples/anarchy-low-ace.cards", &[]);
    bid(&mut t, &["shorts", "cards", "cards", "cards"]);
    reveal(&mut t, &[("P1", "A of spades low"), ("P2", "2 of spades"), ("P3", "9 of clubs"), ("P4", "J of clubs")]);
    assert!(t.said("P1 calls Low: the A of spades ranks below the Two"), "{:?}", narration(&t));
    assert!(t.said("P2 takes the spades with the 2 of spades"));
    assert_eq!(won(&t, "P2"), sorted(&["A of spades", "2 of spades"]));
    assert_eq!(won(&t, "P4"), sorted(&["9 of clubs", "J of clubs"]));
    assert_eq!(won(&t, "P1"), sorted(&[]));
}

#[test]
fn an_ace_played_without_the_call_stays_high() {
    let mut t = Table::open("examples/anarchy-low-ace.cards", &[]);
    bid(&mut t, &["shorts", "cards", "cards", "cards"]);
    reveal(&mut t, &[("P1", "A of spades"), ("P2", "2 of spades"), ("P3", "9 of clubs"), ("P4", "J of clubs")]);
    assert!(!narration(&t).iter().any(|l| l.contains("calls Low")));
    assert_eq!(won(&t, "P1"), sorted(&["A of spades", "2 of spades"]));
}

#[test]
fn a_low_ace_ranks_below_every_other_singleton_and_the_low_call_lasts_one_trick() {
    let mut t = Table::open("examples/anarchy-low-ace.cards", &[]);
    bid(&mut t, &["shorts", "cards", "cards", "cards"]);
    reveal(&mut t, &[("P1", "A of spades low"), ("P2", "2 of spades"), ("P3", "9 of clubs"), ("P4", "J of clubs")]);
    reveal(
        &mut t,
        &[("P1", "A of hearts low"), ("P2", "5 of diamonds"), ("P3", "A of diamonds"), ("P4", "Q of clubs")],
    );
    assert!(t.said("P3 takes the diamonds with the A of diamonds"), "P3's Ace was not called low");
    assert!(t.said("P4 takes the 2 singletons with the Q of clubs"), "{:?}", narration(&t));
    // The deal is over; P1 won nothing: 5 for each of the two cards short.
    assert!(t.said("P1 bid shorts: 0 won of 2 dealt, 2 short × 5 = 10 points, 10 in all"), "{:?}", narration(&t));
    assert!(t.said("P4 bid cards: 4 cards won × 1 = 4 points, 4 in all"));

    // The Ace of hearts turned up high takes the Queen of clubs instead.
    let mut t = Table::open("examples/anarchy-low-ace.cards", &[]);
    bid(&mut t, &["shorts", "cards", "cards", "cards"]);
    reveal(&mut t, &[("P1", "A of spades low"), ("P2", "2 of spades"), ("P3", "9 of clubs"), ("P4", "J of clubs")]);
    reveal(&mut t, &[("P1", "A of hearts"), ("P2", "5 of diamonds"), ("P3", "A of diamonds"), ("P4", "Q of clubs")]);
    assert!(t.said("P1 takes the 2 singletons with the A of hearts"), "{:?}", narration(&t));
    assert!(t.said("P1 bid shorts: 2 won of 2 dealt, 0 short × 5 = 0 points, 0 in all"));
}

// ---------------------------------------------------------------- ties

#[test]
fn equal_top_cards_of_a_suit_leave_every_card_of_that_suit_with_its_player() {
    let mut t = Table::open("examples/anarchy-doubled-ties.cards", &[]);
    bid(&mut t, &["cards", "cards", "cards", "cards", "cards"]);
    assert_eq!(t.state.actor(), Actor::Together(vec![0, 1, 2, 3, 4]));
    reveal(
        &mut t,
        &[
            ("P1", "3 of clubs"),
            ("P2", "3 of clubs"),
            ("P3", "2 of clubs"),
            ("P4", "9 of diamonds"),
            ("P5", "5 of spades"),
        ],
    );
    assert!(t.said("the top clubs are equal: each player keeps their own"), "{:?}", narration(&t));
    assert_eq!(won(&t, "P1"), sorted(&["3 of clubs"]));
    assert_eq!(won(&t, "P2"), sorted(&["3 of clubs"]));
    assert_eq!(won(&t, "P3"), sorted(&["2 of clubs"]), "the lower club is not taken either");
    assert_eq!(won(&t, "P4"), sorted(&["9 of diamonds", "5 of spades"]));
    assert_eq!(won(&t, "P5"), sorted(&[]));
}

#[test]
fn equal_highest_singletons_leave_every_singleton_with_its_player() {
    let mut t = Table::open("examples/anarchy-singletons.cards", &[]);
    bid(&mut t, &["cards", "cards", "cards", "cards"]);
    reveal(&mut t, &[("P1", "9 of hearts"), ("P2", "9 of diamonds"), ("P3", "5 of clubs"), ("P4", "4 of spades")]);
    assert!(t.said("the highest singletons are equal: each wins itself"));
    for (seat, card) in [("P1", "9 of hearts"), ("P2", "9 of diamonds"), ("P3", "5 of clubs"), ("P4", "4 of spades")] {
        assert_eq!(won(&t, seat), sorted(&[card]));
    }
}

#[test]
fn the_highest_singleton_takes_every_singleton() {
    let mut t = Table::open("examples/anarchy-singletons.cards", &[]);
    bid(&mut t, &["cards", "cards", "cards", "cards"]);
    reveal(&mut t, &[("P1", "K of spades"), ("P2", "Q of hearts"), ("P3", "J of diamonds"), ("P4", "2 of clubs")]);
    assert!(t.said("P1 takes the 4 singletons with the K of spades"), "{:?}", narration(&t));
    assert_eq!(won(&t, "P1"), sorted(&["K of spades", "Q of hearts", "J of diamonds", "2 of clubs"]));
}

#[test]
fn a_lone_singleton_wins_itself() {
    let mut t = Table::open("examples/anarchy-suit-groups.cards", &[]);
    bid(&mut t, &["cards", "cards", "cards", "cards"]);
    reveal(&mut t, &[("P1", "6 of clubs"), ("P2", "7 of clubs"), ("P3", "8 of clubs"), ("P4", "9 of diamonds")]);
    assert!(t.said("P3 takes the clubs with the 8 of clubs"));
    assert!(t.said("a lone singleton wins itself"));
    assert_eq!(won(&t, "P3"), sorted(&["6 of clubs", "7 of clubs", "8 of clubs"]));
    assert_eq!(won(&t, "P4"), sorted(&["9 of diamonds"]));
}
