//! Properties of many random matches: after every decision every card lies in exactly one pile,
//! every match ends with an outcome, and each game keeps its own books straight.
//!
//! Each game plays [`MATCHES`] matches (seeds 1, 2, ...) between the random bots of
//! `paradox trace`. Values are read through the State API (`State::var`, the position's piles);
//! where a rule file resets a value before the next decision can see it (a round's tricks,
//! a deal's tricks), the check is made on the last values the state still shows, and on the
//! game's own narration of the round.

use paradox::{Actor, CardId, Event, Settings, State, Value, load};
use std::path::Path;
use std::sync::Arc;

/// How many matches each game plays: a thousand, in debug builds too (the tests of the six
/// games run side by side; about half a minute in a debug build on two cores).
const MATCHES: u64 = 1000;

/// A match that has not ended after this many decisions is taken to run forever.
const MAX_DECISIONS: u64 = 100_000;

/// What a game checks during and after each of its matches.
trait Watch {
    /// After every decision (and once before the first).
    fn decided(&mut self, _state: &State, _said: &[String]) {}
    /// When the match is over.
    fn ended(&mut self, _state: &State, _said: &[String]) {}
}

/// Plays `MATCHES` matches of `file`, checking the piles after every decision, and the game's
/// own watch.
fn play_many<W: Watch>(file: &str, mut watch: impl FnMut() -> W) {
    let game = Arc::new(load(Path::new(file), &Settings::default()).unwrap_or_else(|e| panic!("{file}: {e:?}")));
    for seed in 1..=MATCHES {
        let mut bots = paradox::random_bots(&game, seed);
        let mut state = State::new(game.clone(), seed);
        let mut w = watch();
        let mut seen = 0;
        let mut decisions = 0u64;
        let context = format!("{file}, seed {seed} (`paradox trace {file} --seed {seed}`)");
        loop {
            piles_hold_every_card_once(&state).unwrap_or_else(|e| panic!("{context}: {e}"));
            let said = narration(&state, &mut seen);
            in_context(&context, || w.decided(&state, &said));
            let seats = match state.actor() {
                Actor::Seat(s) => vec![s],
                Actor::Together(seats) => seats,
                Actor::Nobody => break,
            };
            assert!(!seats.is_empty(), "{context}: someone must act");
            // Check after every single decision, also between the secret choices of one round.
            let seat = seats[0];
            let legal = state.legal_actions(seat);
            assert!(!legal.is_empty(), "{context}: a seat to act has no legal action");
            assert!(legal.iter().all(|a| state.action_name(seat, *a).is_some()), "{context}: an action without a name");
            let player = game.seats[seat as usize].player;
            let action = bots[player].choose(&state.seen_by(player), seat).expect("a legal action");
            state.apply(seat, action).unwrap_or_else(|e| panic!("{context}: {e}"));
            decisions += 1;
            assert!(decisions < MAX_DECISIONS, "{context}: no end after {MAX_DECISIONS} decisions");
        }
        assert!(state.failure().is_none(), "{context}: stopped: {:?}", state.failure());
        let outcome = state.outcome().unwrap_or_else(|| panic!("{context}: no outcome"));
        assert_eq!(outcome.returns.len(), game.players, "{context}: one return per player");
        let said = narration(&state, &mut seen);
        in_context(&context, || w.ended(&state, &said));
    }
}

/// Runs a check; if it fails, says which match failed before passing the failure on.
fn in_context(context: &str, check: impl FnOnce()) {
    if let Err(failure) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(check)) {
        eprintln!("the failed check was in {context}");
        std::panic::resume_unwind(failure);
    }
}

/// Every card is in exactly one pile, and `place` says which.
fn piles_hold_every_card_once(state: &State) -> Result<(), String> {
    let pos = state.position();
    let cards = state.game().cards.len();
    let mut seen = vec![false; cards];
    for (p, pile) in pos.piles().enumerate() {
        for &c in pile {
            let c = c as usize;
            if c >= cards {
                return Err(format!("pile {p} holds card {c}, beyond the pack"));
            }
            if std::mem::replace(&mut seen[c], true) {
                return Err(format!("card {} is twice in the piles", state.game().card_names[c]));
            }
            if pos.place(c as u16) != p {
                return Err(format!(
                    "{} is in pile {p} but its place says {}",
                    state.game().card_names[c],
                    pos.place(c as u16)
                ));
            }
        }
    }
    match seen.iter().position(|s| !s) {
        Some(c) => Err(format!("{} is in no pile", state.game().card_names[c])),
        None => Ok(()),
    }
}

/// The narration logged since the last look.
fn narration(state: &State, seen: &mut usize) -> Vec<String> {
    let events = &state.events()[*seen..];
    *seen = state.events().len();
    events
        .iter()
        .filter_map(|e| match e {
            Event::Say(line) => Some(line.clone()),
            _ => None,
        })
        .collect()
}

// ---------------------------------------------------------------- reading a position

fn int(state: &State, var: &str, index: usize) -> i64 {
    match state.var(var, index) {
        Some(Value::Int(n)) => n,
        other => panic!("{var}[{index}] is {other:?}, not a number"),
    }
}

/// The cards of one pile of a zone (`index` is the seat or side; 0 for a shared zone).
fn pile<'a>(state: &'a State, zone: &str, index: usize) -> &'a [CardId] {
    let z = state.game().zones.iter().position(|z| z.name == zone).unwrap_or_else(|| panic!("no zone {zone}"));
    let layout = state.layout();
    assert!(index < layout.piles(z as u16), "{zone} has no pile {index}");
    state.position().pile(layout.pile(z as u16, index))
}

/// The cards of every pile of a zone.
fn zone(state: &State, zone: &str) -> Vec<CardId> {
    let z = state.game().zones.iter().position(|x| x.name == zone).unwrap_or_else(|| panic!("no zone {zone}"));
    (0..state.layout().piles(z as u16)).flat_map(|i| pile(state, zone, i).to_vec()).collect()
}

fn attr(state: &State, card: CardId, name: &str) -> Value {
    let a = state.game().attrs.iter().position(|a| a.name == name).unwrap_or_else(|| panic!("no attribute {name}"));
    state.game().cards[card as usize][a]
}

fn points(state: &State, cards: &[CardId]) -> i64 {
    cards
        .iter()
        .map(|&c| match attr(state, c, "points") {
            Value::Int(n) => n,
            v => panic!("points {v:?}"),
        })
        .sum()
}

/// Numbers in a line of narration, in order (a leading minus sign included).
fn numbers(line: &str) -> Vec<i64> {
    let mut out = Vec::new();
    let mut current = String::new();
    for ch in line.chars().chain(std::iter::once(' ')) {
        if ch.is_ascii_digit() || (ch == '-' && current.is_empty()) {
            current.push(ch);
        } else {
            if let Ok(n) = current.parse() {
                out.push(n);
            }
            current.clear();
        }
    }
    out
}

// ---------------------------------------------------------------- Costly Tricks

/// The sides' net results of every round add up to zero (with the usual fee of 20).
#[derive(Default)]
struct CostlyTricks {
    rounds: u32,
}

impl CostlyTricks {
    /// Each trick taken moves its four cards to the taker's won pile and counts one trick, so
    /// the won piles always hold four cards per trick counted.
    fn books(state: &State) {
        for t in 0..2 {
            assert_eq!(pile(state, "won", t).len() as i64, 4 * int(state, "tricks", t), "four cards per trick");
        }
    }

    /// The round summaries said since the last decision: `side A: 7 tricks, 140 points, net 0`.
    fn summaries(&mut self, said: &[String]) {
        let rows: Vec<Vec<i64>> =
            said.iter().filter(|l| l.starts_with("side ") && l.contains(" net ")).map(|l| numbers(l)).collect();
        for round in rows.chunks(2) {
            assert_eq!(round.len(), 2, "both sides are summed up");
            let (tricks, points, net) =
                (round[0][0] + round[1][0], round[0][1] + round[1][1], round[0][2] + round[1][2]);
            assert_eq!((tricks, points), (11, 220), "a round is 11 tricks worth 220 points");
            assert_eq!(net, 0, "the nets of a round sum to zero: {said:?}");
            for side in round {
                assert_eq!(side[2], side[1] - 20 * side[0], "net = points - 20 x tricks");
            }
            self.rounds += 1;
        }
    }
}

impl Watch for CostlyTricks {
    fn decided(&mut self, state: &State, said: &[String]) {
        Self::books(state);
        self.summaries(said);
    }

    fn ended(&mut self, state: &State, said: &[String]) {
        Self::books(state);
        self.summaries(said);
        assert!(self.rounds >= 3, "at least three rounds to reach three chips");
        // The last round is still on the table: all 44 cards won, 11 tricks, nets summing to 0.
        let net = |t: usize| points(state, pile(state, "won", t)) - 20 * int(state, "tricks", t);
        assert_eq!(int(state, "tricks", 0) + int(state, "tricks", 1), 11);
        assert_eq!(net(0) + net(1), 0, "the last round's nets");
        let chips = [int(state, "chips", 0), int(state, "chips", 1)];
        assert_eq!(chips.iter().filter(|c| **c >= 3).count(), 1, "one side has three chips: {chips:?}");
    }
}

#[test]
fn costly_tricks_nets_sum_to_zero_each_round() {
    play_many("rules/costly-tricks.cards", CostlyTricks::default);
}

// ---------------------------------------------------------------- Buddy on your Left

/// A round hands out 63 points: 1 + 2 + ... + 6 for each of the three players.
#[derive(Default)]
struct Buddy {
    rounds_seen: u32,
}

impl Buddy {
    fn books(&mut self, state: &State) {
        // Every card is somewhere between hands, the table and the swept piles (or back in the
        // box between rounds): the points in play are always 63.
        let all: Vec<CardId> = ["box", "hand", "table", "swept"].iter().flat_map(|z| zone(state, z)).collect();
        assert_eq!(points(state, &all), 63);
        // Each seat's total is its haul plus its left neighbour's, so the three totals of a
        // finished round count every point twice: 126. Before the first round they are all 0.
        let totals: i64 = (0..3).map(|s| int(state, "total", s)).sum();
        if totals != 0 {
            assert_eq!(totals, 2 * 63, "a round's points sum to 63");
            self.rounds_seen += 1;
        }
    }
}

impl Watch for Buddy {
    fn decided(&mut self, state: &State, _: &[String]) {
        self.books(state);
    }

    fn ended(&mut self, state: &State, _: &[String]) {
        self.books(state);
        // At the end, the last round's sweeps are still in the swept piles.
        let hauls: i64 = (0..3).map(|s| points(state, pile(state, "swept", s))).sum();
        assert_eq!(hauls, 63, "the last round's points");
        assert!(zone(state, "hand").is_empty() && zone(state, "table").is_empty(), "all 30 cards played");
        let chips: Vec<i64> = (0..3).map(|s| int(state, "chips", s)).collect();
        let top = *chips.iter().max().expect("three seats");
        assert!(top >= 7 && chips.iter().filter(|c| **c == top).count() == 1, "one leader with 7 chips: {chips:?}");
    }
}

#[test]
fn buddy_on_your_left_rounds_hand_out_63_points() {
    play_many("rules/buddy-on-your-left.cards", Buddy::default);
}

// ---------------------------------------------------------------- The Third Man

/// An annulled auction changes no score: its bids go back to the hands and the same lead
/// player bids again.
#[derive(Default)]
struct ThirdMan {
    /// At the last open bid: the cards in hand, auctions counted, scores and the lead.
    last_open: Option<(usize, i64, [i64; 4], Value)>,
    annulled: u32,
}

impl ThirdMan {
    fn scores(state: &State) -> [i64; 4] {
        [0, 1, 2, 3].map(|s| int(state, "score", s))
    }
}

impl Watch for ThirdMan {
    fn decided(&mut self, state: &State, said: &[String]) {
        // An open bid is the only decision of one seat alone.
        let Actor::Seat(_) = state.actor() else { return };
        let now = (
            zone(state, "hand").len(),
            int(state, "counted", 0),
            Self::scores(state),
            state.var("lead", 0).expect("lead"),
        );
        if let Some(before) = self.last_open
            && before.0 == now.0
        {
            // Every bid of the last auction came back: it was annulled.
            assert!(said.iter().any(|l| l.contains("annulled")), "the annulment is announced");
            assert_eq!(before.1, now.1, "an annulled auction is not counted");
            assert_eq!(before.2, now.2, "an annulled auction changes no score");
            assert_eq!(before.3, now.3, "the same lead player bids again");
            self.annulled += 1;
        } else if let Some(before) = self.last_open
            && before.0 == now.0 + 4
        {
            assert_eq!(before.1 + 1, now.1, "a paid auction is counted");
        }
        self.last_open = Some(now);
    }

    fn ended(&mut self, state: &State, _: &[String]) {
        let chips: Vec<i64> = (0..4).map(|s| int(state, "chips", s)).collect();
        assert_eq!(chips.iter().filter(|c| **c >= 3).count(), 1, "one player has three chips: {chips:?}");
    }
}

#[test]
fn third_man_annulled_auctions_change_no_score() {
    let annulled = std::sync::atomic::AtomicU32::new(0);
    struct Counting<'a>(ThirdMan, &'a std::sync::atomic::AtomicU32);
    impl Watch for Counting<'_> {
        fn decided(&mut self, state: &State, said: &[String]) {
            self.0.decided(state, said);
        }
        fn ended(&mut self, state: &State, said: &[String]) {
            self.0.ended(state, said);
            self.1.fetch_add(self.0.annulled, std::sync::atomic::Ordering::Relaxed);
        }
    }
    play_many("rules/third-man.cards", || Counting(ThirdMan::default(), &annulled));
    assert!(annulled.into_inner() > 0, "some auctions were annulled, so the property was tested");
}

// ---------------------------------------------------------------- Tantony

/// Every player ends every deal holding exactly three tricks.
#[derive(Default)]
struct Tantony {
    deals_ended: u32,
}

impl Tantony {
    fn held(state: &State) -> [i64; 4] {
        [0, 1, 2, 3].map(|s| int(state, "held", s))
    }
}

impl Watch for Tantony {
    fn decided(&mut self, state: &State, _: &[String]) {
        let held = Self::held(state);
        if state.is_over() {
            return; // the last cards have been turned up: see `ended`
        }
        for s in 0..4 {
            assert!(held[s] <= 3, "nobody holds more than three tricks: {held:?}");
            // A trick held is its runt face up and its other three cards face down.
            assert_eq!(pile(state, "runts", s).len() as i64, held[s], "one runt per trick held");
            assert_eq!(pile(state, "taken", s).len() as i64, 3 * held[s], "three more cards per trick held");
        }
        // The twelfth trick's winner can only hand it to the one player still short of three.
        if let Actor::Seat(seat) = state.actor()
            && held.iter().sum::<i64>() == 11
            && zone(state, "trick").len() == 4
        {
            assert_eq!(held.iter().filter(|h| **h == 2).count(), 1, "{held:?}");
            let names: Vec<String> =
                state.legal_actions(seat).iter().filter_map(|a| state.action_name(seat, *a)).collect();
            let short = held.iter().position(|h| *h == 2).expect("one seat with two");
            let name = &state.game().seats[short].display;
            assert_eq!(names, vec![format!("{name} takes the trick")], "the last trick goes to the one short");
            self.deals_ended += 1;
        }
        // At the start of a deal the hands are even again: every player has 13 cards.
        if held == [0; 4] && zone(state, "trick").is_empty() {
            for s in 0..4 {
                assert_eq!(pile(state, "hand", s).len(), 13, "thirteen cards each at the start of a deal");
            }
        }
    }

    fn ended(&mut self, state: &State, _: &[String]) {
        assert_eq!(Self::held(state), [3; 4], "each player ends the last deal with three tricks");
        assert_eq!(self.deals_ended, 4, "four deals");
    }
}

#[test]
fn tantony_everyone_ends_a_deal_with_three_tricks() {
    play_many("rules/tantony.cards", Tantony::default);
}

// ---------------------------------------------------------------- Pairadox

/// Every one of the 20 True/False cards is won by a team.
struct Pairadox;

impl Watch for Pairadox {
    fn decided(&mut self, state: &State, _: &[String]) {
        // True/False cards are only ever in a hand, a row, the trick or a team's won pile.
        for zone_name in ["discard", "removed"] {
            let tf = zone(state, zone_name).iter().filter(|c| attr(state, **c, "truth") != Value::None).count();
            assert_eq!(tf, 0, "no True/False card in {zone_name}");
        }
    }

    fn ended(&mut self, state: &State, _: &[String]) {
        let won = zone(state, "won");
        assert_eq!(won.len(), 20, "all 20 True/False cards are won");
        assert!(won.iter().all(|c| attr(state, *c, "truth") != Value::None), "only True/False cards are won");
        assert!(state.var("first_tf", 0).is_some_and(|v| v != Value::None), "someone took the first one");
    }
}

#[test]
fn pairadox_all_true_false_cards_are_won() {
    play_many("rules/pairadox.cards", || Pairadox);
}

// ---------------------------------------------------------------- Anarchy

/// Anarchy has no book of its own here; its matches must still keep every card in one pile,
/// end, and score no deal below zero.
struct Anarchy;

impl Watch for Anarchy {
    fn decided(&mut self, state: &State, said: &[String]) {
        // A deal's score: `P1 bid reds: 6 red cards (of 8 won) × 2 = 12 points, 12 in all`.
        let scored: Vec<&String> = said.iter().filter(|l| l.contains(" × ") && l.ends_with(" in all")).collect();
        for line in scored {
            let n = numbers(line);
            assert!(n[n.len() - 2] >= 0, "a deal scores no negative points: {line}");
        }
        // Every trick's cards have been won before the next choices.
        if state.actor() != Actor::Nobody {
            assert!(zone(state, "shown").is_empty(), "the shown cards were all won");
        }
    }

    fn ended(&mut self, state: &State, said: &[String]) {
        self.decided(state, said);
        let top = (0..4).map(|s| int(state, "score", s)).max().expect("four players");
        assert!(top >= 100, "the match ends at 100 points");
    }
}

#[test]
fn anarchy_matches_end_and_keep_their_cards() {
    play_many("rules/anarchy.cards", || Anarchy);
}
