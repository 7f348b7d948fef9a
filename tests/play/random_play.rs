//! Every rule file plays to the end under random play, without a run-time problem.

use paradox::{Actor, Settings, State, load};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::sync::Arc;

/// Plays one match with uniformly random choices; returns the number of decisions.
fn random_match(file: &str, seed: u64) -> Result<u64, String> {
    let game = Arc::new(load(Path::new(file), &Settings::default()).map_err(|e| format!("{e:?}"))?);
    let mut state = State::new(game, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut decisions = 0u64;
    loop {
        let seats = match state.actor() {
            Actor::Seat(s) => vec![s],
            Actor::Together(seats) => seats,
            Actor::Nobody => break,
        };
        for seat in seats {
            let legal = state.legal_actions(seat);
            let pick = legal[rng.random_range(0..legal.len())];
            state.apply(seat, pick).map_err(|e| e.to_string())?;
            decisions += 1;
        }
        if decisions > 200_000 {
            return Err("no end after 200,000 decisions".into());
        }
    }
    if let Some(p) = state.failure() {
        let log: Vec<String> = state.events().iter().rev().take(15).map(|e| format!("{e:?}")).collect();
        return Err(format!("{p:?}\nlast events: {log:#?}"));
    }
    Ok(decisions)
}

#[test]
fn every_game_plays_to_the_end() {
    for game in ["costly-tricks", "buddy-on-your-left", "third-man", "anarchy", "tantony", "pairadox"] {
        for seed in 1..=3 {
            let file = format!("rules/{game}.cards");
            match random_match(&file, seed) {
                Ok(n) => assert!(n > 0, "{file}: no decision"),
                Err(e) => panic!("{file} seed {seed}: {e}"),
            }
        }
    }
}

fn traced(file: &str, seed: u64) -> String {
    let game = Arc::new(load(Path::new(file), &Settings::default()).expect("loads"));
    let mut bots: Vec<Box<dyn paradox::Bot>> = (0..game.players)
        .map(|p| Box::new(paradox::RandomBot::new(seed + p as u64)) as Box<dyn paradox::Bot>)
        .collect();
    let mut state = State::new(game, seed);
    paradox::trace::play_out(&mut state, &mut bots);
    paradox::trace::text(&state)
}

#[test]
fn the_same_seed_gives_the_same_match_and_another_seed_another() {
    for game in ["costly-tricks", "third-man", "anarchy"] {
        let file = format!("rules/{game}.cards");
        let (a, b, c) = (traced(&file, 7), traced(&file, 7), traced(&file, 8));
        assert_eq!(a, b, "{file}: same seed, different trace");
        assert_ne!(a, c, "{file}: seeds 7 and 8 gave the same match");
        assert!(a.contains("result:"), "{file}: the trace ends with the result");
    }
}

#[test]
fn a_hidden_hand_shows_only_its_count_to_others() {
    use paradox::PileView;
    let game = Arc::new(load(Path::new("rules/tantony.cards"), &Settings::default()).expect("loads"));
    let state = State::new(game, 3);
    let layout = paradox::Layout::of(state.game());
    let hand = state.game().zones.iter().position(|z| z.name == "hand").expect("a hand zone") as u16;
    let north_hand = layout.pile(hand, 0);
    assert!(
        matches!(state.view(0).piles[north_hand], PileView::Cards(ref c) if c.len() == 13),
        "North sees its 13 cards"
    );
    assert_eq!(state.view(1).piles[north_hand], PileView::Count(13), "East sees only how many North holds");
}

/// A position saved half-way through (as JSON) and restored plays on exactly as the original.
#[test]
fn a_saved_position_restores_and_plays_on_identically() {
    let game = Arc::new(load(Path::new("rules/anarchy.cards"), &Settings::default()).expect("loads"));
    let mut bot = paradox::RandomBot::new(11);
    let mut state = State::new(game.clone(), 5);
    for _ in 0..60 {
        let seat = match state.actor() {
            Actor::Seat(s) => s,
            Actor::Together(seats) => seats[0],
            Actor::Nobody => break,
        };
        let action = paradox::Bot::choose(&mut bot, &state.seen_by(game.seats[seat as usize].player), seat)
            .expect("a legal action");
        state.apply(seat, action).expect("applies");
    }
    let saved = serde_json::to_value(state.snapshot()).expect("a state serialises");
    let read = |json: &serde_json::Value| -> paradox::Snapshot {
        serde_json::from_value(json.clone()).expect("and reads back")
    };
    let mut copy = State::restore(game.clone(), read(&saved)).expect("the position fits the game");
    assert_eq!(copy.position(), state.position());
    let other = Arc::new(load(Path::new("rules/tantony.cards"), &Settings::default()).expect("loads"));
    assert!(State::restore(other, read(&saved)).is_err(), "a position of another game is refused");
    let damaged = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut json = saved.clone();
        f(&mut json["position"]);
        read(&json)
    };
    let twice = damaged(&|p| p["cards"][1] = p["cards"][0].clone());
    assert!(State::restore(game.clone(), twice).is_err(), "a card in two places is refused");
    let strange = damaged(&|p| p["vars"][0] = serde_json::json!({"Card": 60_000}));
    assert!(State::restore(game.clone(), strange).is_err(), "a card the game does not have is refused");
    let lost = damaged(&|p| {
        p["frames"].as_array_mut().expect("frames").push(serde_json::json!({"Block": {"block": 9_999, "pc": 0}}))
    });
    assert!(State::restore(game.clone(), lost).is_err(), "a block the game does not have is refused");
    let mut bots_a: Vec<Box<dyn paradox::Bot>> = (0..4).map(|p| Box::new(paradox::RandomBot::new(p)) as _).collect();
    let mut bots_b: Vec<Box<dyn paradox::Bot>> = (0..4).map(|p| Box::new(paradox::RandomBot::new(p)) as _).collect();
    paradox::trace::play_out(&mut state, &mut bots_a);
    paradox::trace::play_out(&mut copy, &mut bots_b);
    assert!(state.outcome().is_some(), "the match ends");
    assert_eq!(paradox::trace::text(&state), paradox::trace::text(&copy));
}

/// An action that is not on offer is refused and the position is unchanged.
#[test]
fn an_illegal_action_is_refused_and_changes_nothing() {
    let game = Arc::new(load(Path::new("rules/costly-tricks.cards"), &Settings::default()).expect("loads"));
    let mut state = State::new(game, 2);
    let Actor::Seat(seat) = state.actor() else { panic!("one seat leads") };
    let before = state.position().clone();
    let too_far = state.action_count(seat) as u32;
    assert!(state.apply(seat, too_far).is_err());
    let other = (seat + 1) % 4;
    assert!(state.apply(other, 0).is_err(), "not the other seat's turn");
    assert_eq!(state.position(), &before);
}

/// In a player's log, a card another seat puts where the player cannot see stays unnamed.
#[test]
fn a_players_log_hides_what_goes_where_they_cannot_see() {
    let rules = r#"game "Hidden discard"
players 2
enum Suit { a, b }
card { suit: Suit  rank: 1..3  name "{suit}{rank}" }
deck { for s in Suit, r in 1..3 { card { suit: s, rank: r } } }
zone stock { see: nobody }
zone hand per seat { see: owner }
zone discard per seat { see: owner }
zone shown { see: everyone }
play {
  shuffle stock
  deal 3 each from stock to hand
  for s in seats {
    choose c from hand[s] by s
    move c to discard[s]
  }
  choose d from hand[P2] by P2
  move d to shown
}
result highest s in seats by 0
"#;
    let dir = std::env::temp_dir().join(format!("paradox-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("hidden.cards");
    std::fs::write(&path, rules).expect("write");
    let game = Arc::new(load(&path, &Settings::default()).expect("loads"));
    let mut state = State::new(game, 1);
    for seat in [0u8, 1, 1] {
        state.apply(seat, 0).expect("first legal action");
    }
    let own = state.log_for(0);
    let other = state.log_for(1);
    let p1_choice = own.iter().find(|l| l.starts_with("P1 chooses")).expect("P1 chose").clone();
    assert_ne!(p1_choice, "P1 chooses a card", "P1 sees its own discard: {own:#?}");
    let p2_shown = own.iter().filter(|l| l.starts_with("P2 chooses")).nth(1).expect("P2 showed a card").clone();
    assert!(!other.contains(&p1_choice) && other.contains(&"P1 chooses a card".to_string()), "{other:#?}");
    assert!(other.contains(&"1 card to P1's discard".to_string()), "{other:#?}");
    assert_ne!(p2_shown, "P2 chooses a card", "a card put where everyone sees is named: {own:#?}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A player's log lists their own dealt hand but only the size of the others'.
#[test]
fn a_players_log_shows_only_their_own_dealt_hand() {
    let game = Arc::new(load(Path::new("rules/tantony.cards"), &Settings::default()).expect("loads"));
    let state = State::new(game, 3);
    let log = state.log_for(0).join("\n");
    assert!(log.contains("North's hand: ") && !log.contains("North's hand: 13 cards"), "{log}");
    for other in ["East", "South", "West"] {
        assert!(log.contains(&format!("{other}'s hand: 13 cards")), "{other}'s hand is hidden: {log}");
    }
}

/// Gathering empty piles moves no cards, and a player's log leaves such moves out.
#[test]
fn a_players_log_leaves_out_moves_of_no_cards() {
    let game = Arc::new(load(Path::new("rules/anarchy.cards"), &Settings::default()).expect("loads"));
    let state = State::new(game, 1);
    let empty = |e: &&paradox::Event| matches!(e, paradox::Event::Moved { cards, .. } if cards.is_empty());
    assert!(state.events().iter().any(|e| empty(&e)), "anarchy gathers empty piles at the start");
    for player in 0..4 {
        let log = state.log_for(player);
        assert!(log.iter().all(|l| !l.starts_with("0 card(s)")), "{log:#?}");
    }
}

/// A set is gone through member by member: in `for`, in `count`, and as a choice's domain.
#[test]
fn sets_are_gone_through_member_by_member() {
    let game = Arc::new(load(Path::new("tests/fixtures/valid/sets.cards"), &Settings::default()).expect("loads"));
    let state = State::new(game, 1);
    let names: Vec<String> = state.legal_actions(0).iter().filter_map(|a| state.action_name(0, *a)).collect();
    assert_eq!(names, ["a", "c"], "the members of `used`");
    let mut state = state;
    state.apply(0, 1).expect("applies");
    assert!(state.events().iter().any(|e| matches!(e, paradox::Event::Say(s) if s == "total 124, chose c")));
}
