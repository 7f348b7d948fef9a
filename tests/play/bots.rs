//! Computer players see only what their player may: worlds dealt for a bot depend on its
//! knowledge, never on the hidden cards; they keep what the player has seen (voids included);
//! and the search bot plays legal, reproducible moves.

use paradox::{Actor, Bot, Budget, Game, PileView, SearchBot, Settings, State, load};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::sync::Arc;

fn game(name: &str) -> Arc<Game> {
    load_file(&format!("rules/{name}.cards"))
}

fn load_file(file: &str) -> Arc<Game> {
    Arc::new(load(Path::new(&file), &Settings::default()).unwrap_or_else(|e| panic!("{file}: {e:?}")))
}

/// Plays `decisions` random decisions from the start.
fn advanced(game: &Arc<Game>, seed: u64, decisions: usize) -> State {
    let mut state = State::new(game.clone(), seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..decisions {
        let seat = match state.actor() {
            Actor::Seat(s) => s,
            Actor::Together(seats) => seats[0],
            Actor::Nobody => break,
        };
        let n = state.action_count(seat);
        state.apply(seat, rng.random_range(0..n) as u32).expect("a legal action");
    }
    state
}

/// The seat to decide and its player.
fn deciding(state: &State) -> (u8, usize) {
    let seat = match state.actor() {
        Actor::Seat(s) => s,
        Actor::Together(seats) => seats[0],
        Actor::Nobody => panic!("the match is over"),
    };
    (seat, state.game().seats[seat as usize].player)
}

/// The same match with two cards swapped between two piles `player` cannot see, as a save file
/// edited by hand would have them.
fn hidden_swap(game: &Arc<Game>, state: &State, player: usize) -> Option<State> {
    let pos = state.position();
    let view = state.view(player);
    let hidden: Vec<usize> = (0..pos.pile_count())
        .filter(|&p| !matches!(view.piles[p], PileView::Cards(_)) && !pos.pile(p).is_empty())
        .collect();
    let (&a, &b) = (hidden.first()?, hidden.get(1)?);
    Some(swap_cards(game, state, pos.pile(a)[0], pos.pile(b)[0]))
}

/// The same match with cards `x` and `y` in each other's places (the players' knowledge kept as
/// it was), as a save file edited by hand would have them.
fn swap_cards(game: &Arc<Game>, state: &State, x: u16, y: u16) -> State {
    let (px, py) = (state.position().place(x), state.position().place(y));
    let mut json = serde_json::to_value(state.snapshot()).expect("a state serialises");
    let p = &mut json["position"];
    let at = |p: &serde_json::Value, card: u16| {
        p["cards"].as_array().expect("the cards").iter().position(|c| c.as_u64() == Some(card.into())).expect("placed")
    };
    let (ix, iy) = (at(p, x), at(p, y));
    p["place"][x as usize] = py.into();
    p["place"][y as usize] = px.into();
    p["cards"][ix] = y.into();
    p["cards"][iy] = x.into();
    json["log"] = serde_json::json!([]);
    let snapshot = serde_json::from_value(json).expect("reads back");
    State::restore(game.clone(), snapshot).expect("the swapped position fits the game")
}

/// Every pile's cards.
fn piles(state: &State) -> Vec<Vec<u16>> {
    state.position().piles().map(<[u16]>::to_vec).collect()
}

#[test]
fn worlds_and_moves_do_not_depend_on_hidden_cards() {
    for name in ["anarchy", "tantony", "pairadox"] {
        let g = game(name);
        let state = advanced(&g, 3, 0);
        let (seat, player) = deciding(&state);
        let swapped = hidden_swap(&g, &state, player).unwrap_or_else(|| panic!("{name}: two hidden piles"));
        assert_ne!(piles(&state), piles(&swapped), "{name}: the swap changed nothing");
        assert_eq!(state.view(player), swapped.view(player), "{name}: the swap is visible");
        let world = |s: &State| s.seen_by(player).sample(&mut ChaCha8Rng::seed_from_u64(9)).position().clone();
        assert_eq!(world(&state), world(&swapped), "{name}: a world depends on the hidden cards");
        let budget = Budget { iterations: 60, work: 400_000 };
        let pick = |s: &State| SearchBot::new(5, budget).choose(&s.seen_by(player), seat);
        assert_eq!(pick(&state), pick(&swapped), "{name}: the bot's move depends on the hidden cards");
    }
}

#[test]
fn worlds_keep_what_the_player_has_seen() {
    for name in ["anarchy", "tantony", "pairadox", "costly-tricks"] {
        let g = game(name);
        let mut exclusions_met = 0;
        for seed in 1..=12 {
            let state = advanced(&g, seed, 7 * seed as usize);
            let Actor::Seat(seat) = state.actor() else { continue };
            let player = g.seats[seat as usize].player;
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for _ in 0..5 {
                let world = state.seen_by(player).sample(&mut rng);
                let (real, dealt) = (state.position(), world.position());
                assert_eq!(state.view(player).piles, world.view(player).piles, "{name} seed {seed}: the view changed");
                let sizes = |p: &paradox::Position| p.piles().map(<[u16]>::len).collect::<Vec<_>>();
                assert_eq!(sizes(real), sizes(dealt), "{name} seed {seed}: pile sizes changed");
                for c in 0..g.cards.len() as u16 {
                    assert!(dealt.pile(dealt.place(c)).contains(&c), "{name}: card {c} misplaced");
                }
                let excluded = &state.knowledge().expect("the match keeps knowledge").excluded;
                for e in excluded.iter().filter(|e| e.player as usize == player) {
                    exclusions_met += 1;
                    for &c in dealt.pile(e.pile as usize) {
                        let out = e.cards[c as usize / 64] >> (c % 64) & 1 == 1;
                        assert!(!out, "{name} seed {seed}: card {c} dealt where the rules showed it is not");
                    }
                }
                assert_eq!(world.legal_actions(seat), state.legal_actions(seat), "{name}: the bot's own moves changed");
            }
        }
        // Anarchy has no suit to follow, and Costly Tricks' hands are open: nothing to exclude.
        if name != "costly-tricks" && name != "anarchy" {
            assert!(exclusions_met > 0, "{name}: no seat was ever shown void; the test saw nothing");
        }
    }
}

#[test]
fn a_secret_choice_made_is_taken_back_in_another_players_worlds() {
    let g = game("third-man");
    let mut state = State::new(g.clone(), 1);
    let seats = loop {
        match state.actor() {
            Actor::Together(seats) => break seats,
            Actor::Seat(s) => state.apply(s, 0).expect("legal"),
            Actor::Nobody => panic!("no secret round"),
        }
    };
    let (first, second) = (seats[0], seats[1]);
    state.apply(first, state.action_count(first) as u32 - 1).expect("legal");
    let player = g.seats[second as usize].player;
    let world = state.seen_by(player).sample(&mut ChaCha8Rng::seed_from_u64(1));
    match world.actor() {
        Actor::Together(open) => assert!(open.contains(&first), "{first}'s secret bid is still made in the world"),
        other => panic!("expected a secret round, found {other:?}"),
    }
}

#[test]
fn the_search_bot_is_legal_and_reproducible() {
    let budget = Budget { iterations: 40, work: 200_000 };
    for name in ["costly-tricks", "buddy-on-your-left", "third-man", "anarchy", "tantony", "pairadox"] {
        let g = game(name);
        for at in [0, 11, 23] {
            let state = advanced(&g, 2, at);
            let (seat, player) = deciding(&state);
            let seen = state.seen_by(player);
            let a = SearchBot::new(7, budget).choose(&seen, seat);
            let b = SearchBot::new(7, budget).choose(&seen, seat);
            assert_eq!(a, b, "{name}: the same seed thought differently");
            let a = a.unwrap_or_else(|| panic!("{name}: no move"));
            assert!((a as usize) < state.action_count(seat), "{name}: an illegal move");
        }
    }
}

/// Where every move is as good as any other, the search bot draws among them by lot: the order
/// a hand or the seats are listed in must not make one seat play unlike another. (Ties went to
/// the move listed first: with hands reordered by the sweeps of earlier rounds, greedy players
/// at Buddy on your Left favoured the third seat, and at Tantony East-West won more often.)
#[test]
fn moves_equally_good_are_drawn_by_lot_not_by_the_order_they_are_listed_in() {
    let g = load_file("tests/fixtures/players/indifferent.cards");
    let mut state = State::new(g.clone(), 1);
    // P1 plays one of four cards, then names one of two seats.
    for options in [4, 2] {
        let (seat, player) = deciding(&state);
        assert_eq!(state.action_count(seat), options);
        let mut picked = vec![0u32; options];
        for seed in 0..200 {
            let a = SearchBot::new(seed, Budget::GREEDY).choose(&state.seen_by(player), seat).expect("a move");
            picked[a as usize] += 1;
        }
        // 200 / options each on average; a move never drawn, or drawn nearly always, is a bias.
        let fair = 200 / options as u32;
        assert!(picked.iter().all(|&k| k >= fair / 2 && k <= fair * 3 / 2), "{picked:?}");
        state.apply(seat, 0).expect("a legal action");
    }
}

/// The pile a card is in.
fn pile_of(state: &State, card: u16) -> usize {
    state.position().place(card)
}

/// P2's action choosing `card`, or another one.
fn action_for(state: &State, card: u16, same: bool) -> u32 {
    let seat = 1;
    (0..state.action_count(seat) as u32)
        .find(|a| (state.action_key(seat, *a) == Some((paradox::Value::Card(card), false))) == same)
        .expect("such an action")
}

#[test]
fn a_player_cannot_tell_which_card_left_a_pile_it_does_not_see() {
    let g = load_file("tests/fixtures/knowledge/hidden-give.cards");
    let discard = 3; // after the stock and the two hands
    let mut shares = Vec::new();
    for same in [true, false] {
        let mut state = State::new(g.clone(), 1);
        state.apply(0, 0).expect("P1 gives a card");
        let given = *state.position().pile(2).last().expect("P2 holds the card given");
        state.apply(1, action_for(&state, given, same)).expect("P2 discards");
        assert_eq!(
            pile_of(&state, given) == discard,
            same,
            "the given card was {}discarded",
            if same { "" } else { "not " }
        );
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let worlds = 400;
        let there = (0..worlds).filter(|_| pile_of(&state.seen_by(0).sample(&mut rng), given) == discard).count();
        shares.push(there);
    }
    // P2 discarded one of four cards, so the given card is in the discard in about a quarter of
    // P1's worlds, whichever P2 really discarded.
    for there in &shares {
        assert!((50..=150).contains(there), "the given card is discarded in {shares:?} of 400 worlds");
    }
}

#[test]
fn a_void_is_learnt_only_by_those_who_see_the_card_played() {
    for (file, learnt) in [("shown-out-to-table", true), ("shown-out-to-discard", false)] {
        let g = load_file(&format!("tests/fixtures/knowledge/{file}.cards"));
        let seed = (1..200)
            .find(|&seed| {
                let state = State::new(g.clone(), seed);
                let hand = state.position().pile(2);
                hand.iter().all(|c| !matches!(g.cards[*c as usize][0], paradox::Value::Int(r) if r > 6))
            })
            .expect("a deal where P2 has nothing above 6");
        let mut state = State::new(g.clone(), seed);
        state.apply(1, 0).expect("P2 plays");
        let excluded = &state.knowledge().expect("the match keeps knowledge").excluded;
        let p1_excludes = excluded.iter().any(|e| e.player == 0 && e.pile == 2);
        assert_eq!(p1_excludes, learnt, "{file}: P1 learnt P2's void: {p1_excludes}");
        assert!(excluded.iter().all(|e| e.player != 1), "{file}: P2 needs no lesson about its own hand");
    }
}

#[test]
fn keeping_the_players_knowledge_never_changes_the_play() {
    for name in ["costly-tricks", "buddy-on-your-left", "third-man", "anarchy", "tantony", "pairadox"] {
        let g = game(name);
        let mut kept = State::quiet(g.clone(), 5);
        let mut bare = State::bare(g.clone(), 5);
        assert!(kept.keeps_knowledge() && !bare.keeps_knowledge());
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        loop {
            let seat = match kept.actor() {
                Actor::Seat(s) => s,
                Actor::Together(seats) => seats[0],
                Actor::Nobody => break,
            };
            let n = kept.action_count(seat);
            assert_eq!(n, bare.action_count(seat), "{name}: the two matches part");
            let a = rng.random_range(0..n) as u32;
            kept.apply(seat, a).expect("legal");
            bare.apply(seat, a).expect("legal");
        }
        assert_eq!(kept.outcome(), bare.outcome(), "{name}: another result");
        let world = kept.seen_by(0).sample(&mut rng);
        assert!(!world.keeps_knowledge(), "{name}: a searched world keeps knowledge it does not need");
    }
}

/// The `revealed` fixture: once P1 says it is ready, P2 shows its cards above 4 and everyone is
/// shown where the 1 is, before P1 plays. Its piles: the stock, P1's hand, P2's hand, the table.
const REVEALED: &str = "tests/fixtures/knowledge/revealed.cards";
const STOCK: usize = 0;
const P2_HAND: usize = 2;

fn rank(g: &Game, card: u16) -> i64 {
    match g.cards[card as usize][0] {
        paradox::Value::Int(r) => r,
        other => panic!("a rank, not {other:?}"),
    }
}

/// P2's cards above 4 in a position, in order of their ids.
fn high_cards_of_p2(g: &Game, pos: &paradox::Position) -> Vec<u16> {
    let mut high: Vec<u16> = pos.pile(P2_HAND).iter().copied().filter(|c| rank(g, *c) > 4).collect();
    high.sort_unstable();
    high
}

/// The match once P1 is ready: the reveals are made.
fn revealed_after(mut ready: State) -> State {
    ready.apply(0, 0).expect("P1 is ready");
    ready
}

#[test]
fn every_world_keeps_what_was_revealed() {
    let g = load_file(REVEALED);
    let one = (0..g.cards.len() as u16).find(|c| rank(&g, *c) == 1).expect("the 1");
    let (mut one_hidden, mut high_in_stock) = (0, 0);
    for seed in 1..=30 {
        let state = revealed_after(State::new(g.clone(), seed));
        let real = state.position();
        one_hidden += usize::from(real.place(one) != 1);
        high_in_stock += real.pile(STOCK).iter().filter(|c| rank(&g, **c) > 4).count();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..20 {
            let world = state.seen_by(0).sample(&mut rng);
            let dealt = world.position();
            assert_eq!(
                high_cards_of_p2(&g, dealt),
                high_cards_of_p2(&g, real),
                "seed {seed}: P2's cards above 4 in a world are not the ones it showed"
            );
            assert_eq!(dealt.place(one), real.place(one), "seed {seed}: the revealed 1 lies elsewhere in a world");
        }
    }
    // Otherwise the test would have seen nothing to keep.
    assert!(one_hidden > 0 && high_in_stock > 0, "the 1 was never hidden, or no high card was left in the stock");
}

#[test]
fn after_a_reveal_worlds_and_moves_do_not_depend_on_cards_the_player_cannot_tell_apart() {
    let g = load_file(REVEALED);
    let budget = Budget { iterations: 60, work: 400_000 };
    let mut swaps = 0;
    for seed in 1..=10 {
        let ready = State::new(g.clone(), seed);
        // Before the reveals, a card above 1 and not above 4 in the stock and one in P2's hand:
        // P1 cannot tell them apart, before or after.
        let unshown =
            |pile: usize| ready.position().pile(pile).iter().copied().find(|c| (2..=4).contains(&rank(&g, *c)));
        let (Some(a), Some(b)) = (unshown(STOCK), unshown(P2_HAND)) else { continue };
        let swapped = revealed_after(swap_cards(&g, &ready, a, b));
        let state = revealed_after(ready);
        assert_ne!(piles(&state), piles(&swapped), "seed {seed}: the swap changed nothing");
        let world = |s: &State| s.seen_by(0).sample(&mut ChaCha8Rng::seed_from_u64(seed)).position().clone();
        assert_eq!(world(&state), world(&swapped), "seed {seed}: a world depends on cards P1 cannot tell apart");
        let pick = |s: &State| SearchBot::new(5, budget).choose(&s.seen_by(0), 0);
        assert_eq!(pick(&state), pick(&swapped), "seed {seed}: the bot's move depends on cards P1 cannot tell apart");
        swaps += 1;
    }
    assert!(swaps > 0, "no deal had two such cards");
}

/// The cards of pile `p`, in order of their ids.
fn sorted(pos: &paradox::Position, p: usize) -> Vec<u16> {
    let mut cards = pos.pile(p).to_vec();
    cards.sort_unstable();
    cards
}

#[test]
fn a_hand_given_by_rule_is_known_to_every_player_less_the_cards_played() {
    let g = load_file("examples/sealed-bids.cards");
    let p2_hand = 2; // after the stock and P1's hand
    for seed in 1..=6 {
        for round in [0, 3, 6] {
            let state = advanced(&g, seed, 2 * round);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for _ in 0..10 {
                let world = state.seen_by(0).sample(&mut rng);
                assert_eq!(
                    sorted(world.position(), p2_hand),
                    sorted(state.position(), p2_hand),
                    "seed {seed}, round {round}: P2's hand in P1's world is not the one the rules gave it"
                );
            }
        }
    }
}

#[test]
fn a_pile_that_by_rule_holds_only_certain_cards_holds_only_such_cards_in_every_world() {
    let g = game("pairadox");
    let removed = 1; // after the stock
    let complete = |c: u16| g.card_names[c as usize].ends_with("Complete");
    for seed in 1..=4 {
        let state = advanced(&g, seed, 3);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..10 {
            let world = state.seen_by(0).sample(&mut rng);
            let pile = world.position().pile(removed);
            assert_eq!(pile.len(), 3, "seed {seed}: the removed pile changed size");
            assert!(pile.iter().all(|c| complete(*c)), "seed {seed}: a world sets aside a card that is not a Complete");
        }
    }
}
