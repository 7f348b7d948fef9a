//! Matches always end: bots that search vary their secret bids, so an auction of The Third Man
//! annulled by three equal bids is not bid alike for ever; the search's playouts reach an end
//! where random play almost never does, and where the result's keys move only at the end the
//! rule file's estimate leads the search there; a match that comes back to the same position
//! again and again is stopped at the decision (and only the same position: one that differs in
//! the order of a pile is counted apart); and `trace` prints a long match as it is played.

use paradox::{Actor, Budget, Game, SearchBot, Settings, State, load};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;

fn game(file: &str) -> Arc<Game> {
    Arc::new(load(Path::new(file), &Settings::default()).unwrap_or_else(|e| panic!("{file}: {e:?}")))
}

/// How many auctions of a Third Man trace were annulled.
fn annulments(state: &State) -> usize {
    paradox::trace::text(state).matches("the auction is annulled").count()
}

#[test]
fn third_man_between_searching_bots_ends_by_its_rules() {
    // The search of the default bot, on a small budget so that a debug build plays a match in
    // seconds. Seed 3 is the match that default bots used to annul for hours.
    let g = game("rules/third-man.cards");
    let budget = Budget { iterations: 60, work: 60_000 };
    let mut annulled = 0;
    for seed in 1..=3 {
        let mut bots: Vec<Box<dyn paradox::Bot>> =
            (0..4).map(|p| Box::new(SearchBot::new(seed + 1 + p, budget)) as Box<dyn paradox::Bot>).collect();
        let mut state = State::new(g.clone(), seed);
        paradox::trace::play_up_to(&mut state, &mut bots, 3_000);
        assert!(state.failure().is_none(), "seed {seed}: stopped: {:?}", state.failure());
        assert!(state.outcome().is_some(), "seed {seed}: still going after {} decisions", state.position().decisions);
        annulled += annulments(&state);
    }
    assert!(annulled > 0, "no auction was annulled: the test saw nothing of what it is about");
}

#[test]
fn the_search_finishes_a_race_that_random_play_never_ends() {
    // Twelve climbs in a row win; any other move loses every point. Random players never get
    // there, and a search whose playouts are random sees no way to win.
    let g = game("tests/fixtures/players/slippery-race.cards");
    for seed in 1..=3 {
        let (state, winners) = searched_to_the_end(&g, seed, Budget { iterations: 100, work: u64::MAX }, 300);
        assert_eq!(winners, [0], "seed {seed}: {}", state.position().decisions);
    }
}

/// The match of `seed` played by a searching player 1 on `budget` and random players elsewhere,
/// after checking that random players alone do not end it within `limit` decisions; the match
/// and its winners. Panics if the searching player does not end it within `limit` either.
fn searched_to_the_end(g: &Arc<Game>, seed: u64, budget: Budget, limit: u64) -> (State, Vec<usize>) {
    let mut random = paradox::random_bots(g, seed);
    let mut state = State::new(g.clone(), seed);
    paradox::trace::play_up_to(&mut state, &mut random, limit);
    assert!(state.outcome().is_none(), "seed {seed}: random players ended the match");
    let mut bots = paradox::random_bots(g, seed);
    bots[0] = Box::new(SearchBot::new(seed, budget));
    let mut state = State::new(g.clone(), seed);
    paradox::trace::play_up_to(&mut state, &mut bots, limit);
    let outcome = state.outcome().unwrap_or_else(|| panic!("seed {seed}: the search bot did not finish"));
    let winners = outcome.winners.clone();
    (state, winners)
}

#[test]
fn the_default_bot_finishes_a_climb_whose_result_moves_only_at_the_end() {
    // Twelve climbs in a row reach the top; any other move sends a player back to the foot, and
    // only reaching the top moves the result's keys. Random players never get there, nor do
    // random playouts: the rule file's estimate (how high each player stands) is all that tells
    // the search which move climbs. The default bot's own budget bounds its work per decision.
    let g = game("tests/fixtures/players/hidden-climb.cards");
    for seed in 1..=2 {
        let (state, winners) = searched_to_the_end(&g, seed, Budget::DEFAULT, 30);
        assert_eq!(winners, [0], "seed {seed}");
        // It climbed at each of its twelve turns.
        assert_eq!(state.position().decisions, 23, "seed {seed}");
    }
}

/// The action of `seat` whose name is `name`.
fn named(state: &State, seat: u8, name: &str) -> u32 {
    (0..state.action_count(seat) as u32)
        .find(|a| state.action_name(seat, *a).as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no move `{name}` for seat {seat}"))
}

#[test]
fn an_auction_annulled_with_the_same_bids_again_and_again_is_stopped_at_its_decision() {
    let g = game("rules/third-man.cards");
    let mut state = State::new(g.clone(), 1);
    // Everyone bids 5, every time: three equal bids annul the auction, which starts again
    // from the same position.
    while let Some(seat) = match state.actor() {
        Actor::Seat(s) => Some(s),
        Actor::Together(seats) => seats.first().copied(),
        Actor::Nobody => None,
    } {
        state.apply(seat, named(&state, seat, "bid 5")).expect("a legal bid");
        assert!(state.position().decisions < 100, "the match goes on after {} bids of 5", state.position().decisions);
    }
    let problem = state.failure().expect("the match is stopped");
    assert!(problem.message.contains("round in circles"), "{}", problem.message);
    let source = std::fs::read_to_string("rules/third-man.cards").expect("the rule file reads");
    let at = &source[problem.span.start..problem.span.end];
    assert!(at.starts_with("choose open_bid"), "the problem points at `{at}`");
    // The first auction, then the same position after each annulment: five times in all.
    assert_eq!(annulments(&state), paradox::REPEATS as usize);
    assert!(paradox::trace::text(&state).ends_with("(paradox::E0108)\n"));
}

#[test]
fn positions_that_differ_only_in_the_order_of_a_pile_are_counted_apart() {
    // The two cards of a row change places at every decision: the row holds the same cards
    // each time (which is all a repetition's key reads of the cards), in one order or the
    // other. Only the position itself met a fifth time stops the match: after the first
    // decision (no choice bound yet), each order comes back every second decision, so the
    // order of the second decision is met the fifth time at the tenth.
    let g = game("tests/fixtures/players/turning-pair.cards");
    for quiet in [false, true] {
        let mut state = if quiet { State::bare(g.clone(), 1) } else { State::new(g.clone(), 1) };
        while state.single_actor().is_some() && state.position().decisions < 100 {
            state.apply(0, 0).expect("a legal choice");
        }
        let problem = state.failure().expect("the match is stopped");
        assert!(problem.message.contains("round in circles"), "{}", problem.message);
        assert_eq!(state.position().decisions + 1, 2 * u64::from(paradox::REPEATS), "stopped at the wrong decision");
    }
}

#[test]
fn a_position_met_again_after_chance_has_moved_on_is_not_a_repeat() {
    // Random bots bid at random: an annulled auction now and then, never five times the same.
    let g = game("rules/third-man.cards");
    for seed in 1..=20 {
        let state = paradox::trace::random_match(g.clone(), seed);
        assert!(state.outcome().is_some(), "seed {seed}: {:?}", state.failure());
    }
}

#[test]
fn a_long_trace_is_printed_as_it_is_played() {
    // Default bots think for long in a debug build: the first lines must come long before
    // the match ends.
    let mut child = Command::new(env!("CARGO_BIN_EXE_paradox"))
        .args(["trace", "rules/third-man.cards", "--seed", "3", "--bots", "default"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("paradox runs");
    let mut lines = BufReader::new(child.stdout.take().expect("a pipe")).lines();
    let first: Vec<String> = lines.by_ref().take(3).map(|l| l.expect("a line")).collect();
    let running = child.try_wait().expect("the child is there").is_none();
    child.kill().expect("the trace is stopped");
    child.wait().expect("the trace ends");
    assert!(running, "the trace had ended before its first lines were read");
    // The same first lines as the whole trace between random bots: nobody has decided yet.
    let whole = paradox::trace::random_match(game("rules/third-man.cards"), 3);
    let text = paradox::trace::text(&whole);
    let expected: Vec<&str> = text.lines().take(3).collect();
    assert_eq!(first, expected);
}

#[test]
fn a_trace_taken_as_it_goes_is_the_whole_trace() {
    use paradox::trace::{Format, Transcript};
    for file in ["rules/third-man.cards", "rules/anarchy.cards", "rules/tantony.cards"] {
        let g = game(file);
        for format in [Format::Text, Format::Json] {
            let mut bots = paradox::random_bots(&g, 4);
            let mut state = State::new(g.clone(), 4);
            let mut transcript = Transcript::new(format);
            let mut taken = String::new();
            paradox::trace::play_watching(&mut state, &mut bots, u64::MAX, |state| {
                taken.push_str(&transcript.take(state));
                true
            });
            taken.push_str(&transcript.finish(&state));
            let whole = match format {
                Format::Text => paradox::trace::text(&state),
                Format::Json => paradox::trace::json_lines(&state),
            };
            assert_eq!(taken, whole, "{file}");
        }
    }
}
