//! The small example games of `examples/` (shedding, fishing, passing, cribbage, gin rummy), played
//! through the State API at their edges: each uses the constructs of issue 12 (mixed decisions,
//! procedures, recursive definitions, choices of several cards at once), Cribbage and Gin Rummy
//! those of issue 27 (zone parameters, card sets as values, a pile's last cards, `memo`).

use crate::piles;
use crate::table::Table;
use paradox::{Actor, Settings, load};
use std::path::Path;
use std::sync::Arc;

const SHEDDING: &str = "examples/shedding.cards";
const NOTHING_TO_DRAW: &str = "examples/shedding-nothing-to-draw.cards";

#[test]
fn shedding_offers_matching_cards_and_the_draw_in_one_decision_and_no_pass() {
    let mut t = Table::open(SHEDDING, &[]);
    // Seed 1: the pile shows the 3 of bells; P1 holds one bell and nothing of rank 3.
    assert_eq!(t.pile("pile", None).last().map(String::as_str), Some("3 of bells"));
    assert_eq!(t.legal(), ["4 of bells", "draw a card"]);
    t.play("draw a card");
    assert_eq!(t.pile("hand", Some("P1")).len(), 6);
    assert!(t.said("P1 draws, 6 cards in hand"), "{:?}", t.lines());
    // P2 holds bells as well; the draw stays open, and a card played goes on the pile.
    let legal = t.legal();
    assert!(legal.contains(&"draw a card".to_string()) && !legal.contains(&"pass".to_string()), "{legal:?}");
    t.play("6 of bells");
    assert_eq!(t.pile("pile", None).last().map(String::as_str), Some("6 of bells"));
}

#[test]
fn shedding_with_nothing_to_play_or_draw_passes_and_ends_when_all_have_passed() {
    let mut t = Table::open(NOTHING_TO_DRAW, &[]);
    for seat in ["P1", "P2", "P3"] {
        assert_eq!(t.seat_name(), seat);
        assert_eq!(t.legal(), ["pass"], "the one legal option is still asked for");
        t.play("pass");
    }
    let outcome = t.state.outcome().expect("three passes in turn end the match");
    assert_eq!(outcome.winners, vec![0, 2], "P1 and P3 hold one card each, P2 two");
}

const FISHING_TABLE: &str = "examples/fishing-equal-or-sum.cards";

#[test]
fn fishing_must_take_an_equal_card_before_a_sum() {
    let mut t = Table::open(FISHING_TABLE, &[]);
    t.play("3 of cups");
    // 1 + 2 would make 3 as well, but the equal card comes first.
    assert_eq!(t.legal(), ["take 3 of swords"]);
    t.play("take 3 of swords");
    assert_eq!(crate::reads::sorted(&["3 of cups", "3 of swords"]), {
        let mut won = t.pile("won", Some("P1"));
        won.sort();
        won
    });
    // P2's 8 cannot be made from 1, 2 and 4: it stays on the table.
    t.play("8 of clubs");
    assert!(t.said("8 of clubs stays on the table"), "{:?}", t.lines());
}

#[test]
fn fishing_takes_a_group_that_adds_up_chosen_at_once() {
    let mut t = Table::open(FISHING_TABLE, &[]);
    t.play("7 of coins");
    // 7 from 1, 2, 3 and 4: 3 + 4 or 1 + 2 + 4, shown the fewest cards first.
    let seat = t.seat();
    let shown: Vec<String> =
        t.state.shown_actions(seat).into_iter().filter_map(|a| t.state.action_name(seat, a)).collect();
    assert_eq!(shown, ["take 4 of coins + 3 of swords", "take 1 of cups + 2 of cups + 4 of coins"]);
    t.play("take 1 of cups + 2 of cups + 4 of coins");
    assert_eq!(t.pile("table", None), ["3 of swords"]);
    assert_eq!(t.pile("won", Some("P1")).len(), 4, "the 7 and the three cards it took");
    assert_eq!(t.seat_name(), "P2");
}

#[test]
fn fishing_takes_no_more_cards_than_the_parameter_allows() {
    let mut t = Table::open(FISHING_TABLE, &["most_taken=2"]);
    t.play("7 of coins");
    assert_eq!(t.legal(), ["take 4 of coins + 3 of swords"]);
}

#[test]
fn fishing_at_the_table_reads_a_group_typed_in_any_order() {
    let mut s = crate::session::session(FISHING_TABLE, &[0, 1]);
    s.handle("7co");
    // Two of its cards: the moves they are part of are offered, nothing is played.
    let out = s.handle("c1 co4");
    assert!(out.contains("could be take 1 of cups + 2 of cups + 4 of coins"), "{out}");
    // Cards that make no move are refused, with the rule that refuses them.
    let out = s.handle("c1 s3");
    assert!(out.contains("You may not play 1 of cups + 3 of swords now"), "{out}");
    let why = s.handle("why");
    assert!(why.contains("is not allowed now") && why.contains("(sum t in taken of t.rank) == played.rank"), "{why}");
    let out = s.handle("c1 c2 co4 s3");
    assert!(out.contains("is no move: each move here takes 2 to 3 cards"), "{out}");
    assert_eq!(s.move_names().len(), 2, "still P1's capture: {:?}", s.move_names());
    s.handle("4 of coins + c2, 1c");
    let t = Table { state: s.state().clone() };
    assert_eq!(piles::cards(&t, "table", None), ["3 of swords"]);
    assert_eq!(piles::cards(&t, "won", Some("P1")), ["1 of cups", "2 of cups", "4 of coins", "7 of coins"]);
}

const GIN_UNDERCUT: &str = "examples/gin-rummy-undercut.cards";

#[test]
fn gin_rummy_melds_the_seven_in_the_run_and_is_undercut_after_laying_off() {
    let mut t = Table::open(GIN_UNDERCUT, &[]);
    assert_eq!(t.seat_name(), "P2", "the upcard is offered to the non-dealer first");
    assert_eq!(t.legal(), ["pass", "take the discard"]);
    t.play("take the discard");
    // Any card but the ace just taken; only the king leaves 10 points or less to knock with.
    let legal = t.legal();
    assert!(!legal.iter().any(|m| m.starts_with("A of diamonds")), "{legal:?}");
    assert_eq!(legal.iter().filter(|m| m.ends_with(" knock")).collect::<Vec<_>>(), ["K of spades knock"]);
    t.play("K of spades knock");
    // The 7 of hearts goes in the run: all four sevens would leave 5 and 6 of hearts unmatched.
    let melds = t.legal();
    let four_sevens = "meld 7 of clubs + 7 of diamonds + 7 of hearts + 7 of spades";
    assert!(!melds.iter().any(|m| m == four_sevens || m == "done"), "{melds:?}");
    assert_eq!(
        melds,
        [
            "meld 2 of clubs + 3 of clubs + 4 of clubs",
            "meld 5 of hearts + 6 of hearts + 7 of hearts",
            "meld 7 of clubs + 7 of diamonds + 7 of spades",
        ]
    );
    t.play_all(&[
        "meld 7 of clubs + 7 of diamonds + 7 of spades",
        "meld 5 of hearts + 6 of hearts + 7 of hearts",
        "meld 2 of clubs + 3 of clubs + 4 of clubs",
        "done",
    ]);
    assert!(t.said("P2 knocks with 1 deadwood"), "{:?}", t.lines());
    // P1 lays off at both ends of the heart run and on the club run.
    assert_eq!(t.seat_name(), "P1");
    assert_eq!(t.legal(), ["4 of hearts", "5 of clubs", "8 of hearts", "done"]);
    t.play("8 of hearts");
    assert_eq!(t.legal(), ["the second meld"], "the heart run was laid second");
    t.play_all(&["the second meld", "4 of hearts", "the second meld", "5 of clubs", "the third meld"]);
    assert_eq!(t.pile("meld_b", None), ["5 of hearts", "6 of hearts", "7 of hearts", "8 of hearts", "4 of hearts"]);
    assert_eq!(t.legal(), ["done"]);
    t.play("done");
    // Q-Q-Q and 9-10-J of spades are P1's own melds: the ace of spades is left, as little as the
    // knocker's ace of diamonds.
    assert!(t.said("P1 is left with 1 deadwood"), "{:?}", t.lines());
    assert!(t.said("P1 undercuts and scores 25"), "{:?}", t.lines());
    assert_eq!(t.var("score", Some("P1")), 25);
    assert_eq!(t.var("boxes", Some("P1")), 1);
    assert_eq!(t.seat_name(), "P2", "P1 won and deals the next hand: P2 is offered the upcard");
}

#[test]
fn gin_rummy_without_laying_off_the_knocker_wins_the_difference() {
    let mut t = Table::open(GIN_UNDERCUT, &[]);
    t.play_all(&[
        "take the discard",
        "K of spades knock",
        "meld 7 of clubs + 7 of diamonds + 7 of spades",
        "meld 5 of hearts + 6 of hearts + 7 of hearts",
        "meld 2 of clubs + 3 of clubs + 4 of clubs",
        "done",
        "done",
    ]);
    // 4 + 8 of hearts, 5 of clubs and the ace of spades: 18, less the knocker's 1.
    assert!(t.said("P1 is left with 18 deadwood"), "{:?}", t.lines());
    assert!(t.said("P2 scores 17"), "{:?}", t.lines());
    assert_eq!(t.seat_name(), "P1", "P2 won and deals the next hand: P1 is offered the upcard");
}

const PASSING: &str = "examples/passing.cards";

/// The first group of cards (by name) of a seat's passing options.
fn first_pass(t: &Table, seat: &str) -> String {
    t.legal_for(seat).into_iter().next().expect("cards to pass")
}

#[test]
fn passing_cards_reach_the_left_only_when_everyone_has_passed() {
    let mut t = Table::open(PASSING, &[]);
    assert_eq!(t.together(), ["P1", "P2", "P3"]);
    // Two cards at once, by default: any two of the eight in hand.
    assert_eq!(t.legal_for("P1").len(), 28);
    let p2_hand = piles::cards(&t, "hand", Some("P2"));
    let passed = first_pass(&t, "P1");
    t.play_for("P1", &passed);
    // Sealed: P2 has nothing new, and the others still choose.
    assert_eq!(piles::cards(&t, "hand", Some("P2")), p2_hand);
    assert_eq!(t.together(), ["P2", "P3"]);
    for seat in ["P2", "P3"] {
        let pair = first_pass(&t, seat);
        t.play_for(seat, &pair);
    }
    let cards: Vec<&str> = passed.trim_start_matches("pass ").split(" + ").collect();
    assert_eq!(cards.len(), 2, "{passed}");
    let hand = piles::cards(&t, "hand", Some("P2"));
    assert!(cards.iter().all(|c| hand.iter().any(|h| h == c)), "{cards:?} not in {hand:?}");
    assert_eq!(hand.len(), 8);
    assert!(t.pile("outgoing", Some("P1")).is_empty());
    // P2 reads that P1 passed two cards, not which: they went face down to P1's outgoing pile.
    let p2_log = t.state.log_for(1);
    assert!(p2_log.iter().any(|l| l == "P1 has chosen 2 cards"), "{p2_log:?}");
    assert!(!p2_log.iter().any(|l| l.starts_with("P1 reveals pass")), "{p2_log:?}");
    // A computer player for P2 learns as much: that P1 and P3 chose, not what.
    let choices = t.state.seen_by(1).secret_choices(0);
    let seen: Vec<_> = choices.iter().map(|(_, seat, value)| (*seat, *value)).collect();
    assert_eq!(seen, [(0, None), (2, None)]);
}

#[test]
fn passing_nothing_goes_straight_to_the_tricks() {
    let t = Table::open(PASSING, &["to_pass=0"]);
    assert_eq!(t.seat_name(), "P1");
    assert_eq!(t.pile("hand", Some("P1")).len(), 8);
}

const TWENTY_NINE: &str = "examples/cribbage-twenty-nine.cards";
const GO_WITH_A_PAIR: &str = "examples/cribbage-go-with-a-pair.cards";

/// Lays away two cards each, in secret and at the same time, to the dealer's crib.
fn lay_away(t: &mut Table, p1: &str, p2: &str) {
    assert_eq!(t.together(), ["P1", "P2"]);
    assert_eq!(t.legal_for("P1").len(), 15, "any two of six");
    t.play_for("P1", p1);
    t.play_for("P2", p2);
}

#[test]
fn cribbage_shows_a_29_hand_a_double_run_and_the_fifteens_of_the_crib() {
    let mut t = Table::open(TWENTY_NINE, &[]);
    lay_away(&mut t, "lay away K of clubs + Q of diamonds", "lay away 4 of clubs + A of hearts");
    assert_eq!(t.pile("starter", None), ["5 of spades"]);
    // The play, each playing its first card in name order, to the show and the next lay-away.
    while matches!(t.state.actor(), Actor::Seat(_)) {
        let first = t.legal()[0].clone();
        t.play(&first);
    }
    let shows: Vec<String> = t.lines().into_iter().filter(|l| l.contains(" shows ")).collect();
    assert_eq!(
        shows,
        [
            "P1 shows 5 of clubs + 5 of diamonds + 5 of hearts + J of spades with 5 of spades: \
             fifteens 16, pairs 12, runs 0, flush 0, nobs 1",
            "P2 shows 7 of clubs + 7 of diamonds + 8 of hearts + 9 of spades with 5 of spades: \
             fifteens 4, pairs 2, runs 6, flush 0, nobs 0",
            "P2 shows 4 of clubs + K of clubs + Q of diamonds + A of hearts with 5 of spades: \
             fifteens 8, pairs 0, runs 0, flush 0, nobs 0",
        ]
    );
    assert_eq!(t.said_count("P1 pegs 29 for the hand"), 1, "{:?}", t.lines());
    assert_eq!(t.said_count("P2 pegs 12 for the hand"), 1, "{:?}", t.lines());
    assert_eq!(t.said_count("P2 pegs 8 for the crib"), 1, "{:?}", t.lines());
}

#[test]
fn cribbage_a_go_then_a_pair_scores_both_and_the_other_player_leads_the_next_count() {
    let mut t = Table::open(GO_WITH_A_PAIR, &[]);
    lay_away(&mut t, "lay away 8 of clubs + 9 of spades", "lay away 10 of clubs + A of diamonds");
    assert!(t.said("P2 pegs 2 for his heels, 2 in all"), "{:?}", t.lines());
    // A player who holds a card that fits may not say go.
    assert_eq!(t.legal(), ["4 of clubs", "5 of diamonds", "K of spades", "Q of hearts"]);
    t.play_all(&["K of spades", "6 of hearts", "Q of hearts", "2 of clubs"]);
    assert_eq!(t.var("score", Some("P2")), 2);
    // Count 28: neither of P1's cards fits.
    assert_eq!(t.legal(), ["go"]);
    t.play("go");
    // P2 plays on while a card fits: the Two makes 30 and a pair; then the go point.
    assert_eq!(t.legal(), ["2 of diamonds"]);
    t.play("2 of diamonds");
    assert!(t.said("P2 pegs 2 for a pair, 4 in all"), "{:?}", t.lines());
    assert_eq!(t.legal(), ["go"]);
    t.play("go");
    assert!(t.said("P2 pegs 1 for the go, 5 in all"), "{:?}", t.lines());
    // The count starts again from 0, led by the player who did not play the last card.
    assert!(t.pile("pile", None).is_empty());
    assert_eq!(t.seat_name(), "P1");
    t.play_all(&["4 of clubs", "6 of spades", "5 of diamonds"]);
    assert!(t.said("P1 pegs 2 for fifteen, 2 in all"), "{:?}", t.lines());
    assert!(t.said("P1 pegs 3 for a run, 5 in all"), "{:?}", t.lines());
    assert!(t.said("P1 pegs 1 for the last card, 6 in all"), "{:?}", t.lines());
    // The show: K Q J and three fifteens; two pairs; the crib's run of four.
    assert!(t.said("P1 pegs 9 for the hand, 15 in all"), "{:?}", t.lines());
    assert!(t.said("P2 pegs 4 for the hand, 9 in all"), "{:?}", t.lines());
    assert!(t.said("P2 pegs 4 for the crib, 13 in all"), "{:?}", t.lines());
}

/// Whole matches between random bots, as `paradox trace` prints them, at seeds 1 and 2: read
/// through against the rules in each file's opening comment before they were accepted.
#[test]
fn example_games_at_seeds_1_and_2() {
    for file in [SHEDDING, "examples/fishing.cards", PASSING, "examples/cribbage.cards"] {
        let game = Arc::new(load(Path::new(file), &Settings::default()).unwrap_or_else(|e| panic!("{file}: {e:?}")));
        for seed in [1, 2] {
            let state = paradox::trace::random_match(game.clone(), seed);
            assert!(state.outcome().is_some(), "{file} seed {seed}: {:?}", state.failure());
            let stem = Path::new(file).file_stem().and_then(|s| s.to_str()).expect("a name");
            insta::assert_snapshot!(format!("{stem}-seed{seed}"), paradox::trace::text(&state));
        }
    }
}

/// Gin Rummy's first three hands at seeds 1 and 2, between random bots (who knock only when a
/// draw happens to leave 10 points of deadwood or less): a whole match of twenty hands is too long
/// to read through. Read through against the rules in the file's opening comment, and checked by
/// a program recomputing each hand's deadwood and score.
#[test]
fn gin_rummy_first_hands_at_seeds_1_and_2() {
    let file = "examples/gin-rummy.cards";
    let settings = Settings { sets: vec!["most_hands=3".into()], ..Settings::default() };
    let game = Arc::new(load(Path::new(file), &settings).unwrap_or_else(|e| panic!("{file}: {e:?}")));
    for seed in [1, 2] {
        let state = paradox::trace::random_match(game.clone(), seed);
        assert!(state.outcome().is_some(), "seed {seed}: {:?}", state.failure());
        insta::assert_snapshot!(format!("gin-rummy-seed{seed}"), paradox::trace::text(&state));
    }
}
