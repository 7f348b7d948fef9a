//! What a person at the table is told besides the cards: the rule file's `show` lines
//! (`State::status`) and why a move is not allowed (`State::forbidden`).

use crate::table::Table;
use paradox::{Actor, Code, State};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const RULE_FILES: [&str; 6] = [
    "rules/costly-tricks.cards",
    "rules/buddy-on-your-left.cards",
    "rules/third-man.cards",
    "rules/anarchy.cards",
    "rules/tantony.cards",
    "rules/pairadox.cards",
];
const FOLLOW_TRUMP: &str = "examples/costly-tricks-trump-must-be-followed.cards";

/// The seats to act now (one, or those still to choose in a secret round).
fn actors(state: &State) -> Vec<u8> {
    match state.actor() {
        Actor::Seat(s) => vec![s],
        Actor::Together(seats) => seats,
        Actor::Nobody => Vec::new(),
    }
}

/// Plays random legal moves (seeded) until `stop` holds before a decision; `None` if the match
/// ends first. Every decision on the way is checked with `each`.
fn play_until(file: &str, seed: u64, mut each: impl FnMut(&State), stop: impl Fn(&State) -> bool) -> Option<State> {
    let mut state = Table::open_seeded(file, &[], seed).state;
    let mut rng = StdRng::seed_from_u64(seed);
    while let Some(&seat) = actors(&state).first() {
        each(&state);
        if stop(&state) {
            return Some(state);
        }
        let action = rng.random_range(0..state.action_count(seat)) as u32;
        state.apply(seat, action).expect("a legal action applies");
    }
    None
}

/// A moment of a match, as a test on the state.
type Moment<'a> = &'a dyn Fn(&State) -> bool;

/// The line of the status that starts with `prefix`, if any.
fn line<'a>(status: &'a [String], prefix: &str) -> Option<&'a str> {
    status.iter().map(String::as_str).find(|l| l.starts_with(prefix))
}

#[test]
fn every_rule_file_shows_a_status_at_every_decision() {
    for file in RULE_FILES {
        let mut decisions = 0;
        play_until(
            file,
            7,
            |state| {
                decisions += 1;
                assert!(!state.status().is_empty(), "{file}: no status at decision {decisions}");
            },
            |_| false,
        );
        assert!(decisions > 10, "{file}: only {decisions} decisions");
    }
}

#[test]
fn costly_tricks_shows_the_trump_once_there_is_one() {
    let file = RULE_FILES[0];
    let state = play_until(file, 3, |_| {}, |s| s.var("trump", 0).is_some_and(|t| t != paradox::Value::None))
        .expect("a trump is played");
    let status = state.status();
    let trump = line(&status, "Trump: ").unwrap_or_else(|| panic!("no trump line: {status:?}"));
    let colour = trump.trim_start_matches("Trump: ");
    assert!(["red", "green", "purple", "blue"].contains(&colour), "{trump}");
    let spent = line(&status, "Spent as trump in this trick: ").unwrap_or_else(|| panic!("{status:?}"));
    assert!(spent.contains(colour), "the trump is among the spent colours: {status:?}");
    assert!(line(&status, "Led: ").is_some(), "{status:?}");
}

#[test]
fn costly_tricks_status_follows_the_rulebooks_trick() {
    let mut t = Table::open(FOLLOW_TRUMP, &[]);
    assert_eq!(
        t.state.status(),
        [
            "First lead of this round: A",
            "side A: 0 tricks, net 0 this round, 0 chips",
            "side B: 0 tricks, net 0 this round, 0 chips"
        ],
        "before the lead: no led colour, no trump"
    );
    t.play_all(&["red 7", "green 2"]);
    let status = t.state.status();
    assert_eq!(&status[..3], ["Led: red", "Trump: green", "Spent as trump in this trick: green"]);
    t.play_all(&["green 1", "red 10"]);
    let status = t.state.status();
    assert!(status.iter().all(|l| !l.starts_with("Trump") && !l.starts_with("Spent")), "after the trick: {status:?}");
    assert!(status.iter().any(|l| l.contains(": 1 trick, ")), "one trick, in the singular: {status:?}");
}

#[test]
fn each_rule_file_shows_what_matters_now() {
    let bid_made = |s: &State| (0..4).any(|i| s.var("bid", i).is_some_and(|b| b != paradox::Value::None));
    let cases: [(&str, Moment, &str); 4] = [
        (RULE_FILES[1], &|s| s.status().iter().any(|l| l.starts_with("Lead: ")), ", capturing power "),
        (RULE_FILES[2], &|s| s.var("counted", 0) == Some(paradox::Value::Int(1)), "Auction 2 of at most 9"),
        (RULE_FILES[3], &bid_made, " bids "),
        (RULE_FILES[4], &|s| s.var("led", 0).is_some_and(|l| l != paradox::Value::None), "Led: "),
    ];
    for (file, stop, expected) in cases {
        let state = play_until(file, 11, |_| {}, stop).unwrap_or_else(|| panic!("{file}: the moment never came"));
        let status = state.status();
        assert!(status.iter().any(|l| l.contains(expected)), "{file}: no `{expected}` in {status:?}");
    }
}

#[test]
fn pairadox_shows_the_set_and_how_many_true_false_cards_lie_face_down() {
    let single_played = |s: &State| s.var("got_colour", 0).is_some_and(|c| c != paradox::Value::None);
    let state = play_until(RULE_FILES[5], 11, |_| {}, single_played).expect("a colour Single is played");
    let status = state.status();
    assert!(line(&status, "The set's colour: ").is_some(), "{status:?}");
    let game = state.game();
    let tf_row = game.zones.iter().position(|z| z.name == "tf_row").expect("a tf_row zone") as u16;
    let north = state.position().pile(state.layout().pile(tf_row, 0)).len();
    // How many lie face down, the table shows by each seat (the status no longer repeats it).
    let table = paradox::repl::Table::of(&state, 2);
    let seat = table.seats.iter().find(|s| s.name == "North").expect("North at the table");
    let shown = seat.piles.iter().find(|p| p.label == "face down").map(|p| p.count);
    assert_eq!(shown, Some(north), "{:?}", seat.piles.iter().map(|p| (&p.label, p.count)).collect::<Vec<_>>());
}

/// The rule file's text at a problem's span.
fn text_at(file: &str, problem: &paradox::Problem) -> String {
    let source = std::fs::read_to_string(file).expect("the rule file reads");
    source[problem.span.start..problem.span.end].to_string()
}

#[test]
fn a_card_off_trump_is_forbidden_by_the_follow_trump_tier() {
    let mut t = Table::open(FOLLOW_TRUMP, &[]);
    t.play_all(&["red 7", "green 2"]);
    assert_eq!(t.seat_name(), "A's ghost");
    let forbidden = t.state.forbidden(t.seat());
    let names: Vec<&str> = forbidden.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["blue 10"], "A's ghost holds the trump green 1");
    let problem = &forbidden[0].1;
    assert_eq!(problem.code, Code::NotAllowed);
    assert_eq!(text_at("rules/costly-tricks.cards", problem), "c.colour == trump");
    assert_eq!(problem.label, "only moves meeting this are allowed now");
    assert_eq!(problem.help.as_deref(), Some("allowed now: green 1"));
    assert!(t.state.forbidden(t.seat_named("A")).is_empty(), "A is not to decide");
}

#[test]
fn a_card_off_the_led_colour_is_forbidden_by_the_follow_suit_tier() {
    let mut t = Table::open(FOLLOW_TRUMP, &[]);
    t.play_all(&["red 7", "green 2", "green 1"]);
    assert_eq!(t.seat_name(), "B's ghost");
    let forbidden = t.state.forbidden(t.seat());
    assert_eq!(forbidden.len(), 1, "{forbidden:?}");
    assert_eq!(forbidden[0].0, "purple 4");
    assert_eq!(text_at("rules/costly-tricks.cards", &forbidden[0].1), "c.colour == led");
}

#[test]
fn forbidden_moves_are_never_legal_and_only_for_the_seat_to_decide() {
    for file in RULE_FILES {
        let mut seen = 0;
        play_until(
            file,
            5,
            |state| {
                for seat in 0..state.game().seats.len() as u8 {
                    let legal: Vec<String> =
                        (0..state.action_count(seat) as u32).filter_map(|a| state.action_name(seat, a)).collect();
                    let forbidden = state.forbidden(seat);
                    // The allowed moves are listed as people are shown them: the same moves, sorted.
                    let shown: Vec<String> =
                        state.shown_actions(seat).into_iter().filter_map(|a| state.action_name(seat, a)).collect();
                    let (mut a, mut b) = (shown.clone(), legal.clone());
                    a.sort();
                    b.sort();
                    assert_eq!(a, b, "{file}: shown_actions lists the legal moves");
                    // Each allowed move named once, in the order shown; a name that comes up more
                    // than once counted (`blue Single ×2`).
                    let mut names: Vec<&String> = Vec::new();
                    for name in &shown {
                        if !names.contains(&name) {
                            names.push(name);
                        }
                    }
                    let listed: Vec<String> = names
                        .iter()
                        .map(|n| match shown.iter().filter(|s| s == n).count() {
                            1 => n.to_string(),
                            k => format!("{n} ×{k}"),
                        })
                        .collect();
                    let allowed = format!("allowed now: {}", listed.join(", "));
                    if legal.is_empty() {
                        assert!(forbidden.is_empty(), "{file}: seat {seat} is not to decide");
                    }
                    for (name, problem) in &forbidden {
                        assert!(!legal.contains(name), "{file}: {name} is both legal and forbidden");
                        assert_eq!(problem.code, Code::NotAllowed);
                        assert!(!problem.span.is_empty(), "{file}: {problem:?}");
                        assert_eq!(problem.help.as_deref(), Some(allowed.as_str()), "{file}");
                        seen += 1;
                    }
                }
            },
            |_| false,
        );
        let tiered = !file.contains("anarchy") && !file.contains("third-man");
        assert_eq!(seen > 0, tiered, "{file}: {seen} forbidden moves seen");
    }
}

/// The last of the definitions through which the tier in use refuses `name` to the seat to act:
/// the one whose comment names the rule broken.
fn broken_rule(t: &Table, name: &str) -> Option<String> {
    assert!(t.state.forbidden(t.seat()).iter().any(|(n, _)| n == name), "{name} is refused");
    t.state.broken_rules(t.seat(), name).pop()
}

#[test]
fn a_refused_move_is_traced_to_the_one_definition_it_fails() {
    let mut t = Table::open("examples/pairadox-single-led.cards", &[]);
    assert_eq!(t.state.broken_rules(t.seat(), "True card"), ["required", "leads"], "the leader's rule only");
    t.play("red Single");
    assert_eq!(broken_rule(&t, "green Single").as_deref(), Some("throws"), "East cannot fit: the second tier");
    t.play("hollow green square Complete");
    assert_eq!(broken_rule(&t, "True card").as_deref(), Some("fits"), "South can fit the set");
    assert_eq!(broken_rule(&t, "partial green circle Complete").as_deref(), Some("matches_singles"));
    t.play("filled red circle Complete");
    assert_eq!(broken_rule(&t, "partial Single").as_deref(), Some("agrees"), "West must match the Complete");
    assert_eq!(broken_rule(&t, "hollow red circle Complete").as_deref(), Some("complete_fits"), "one Complete");
    assert!(t.state.broken_rules(t.seat(), "filled Single").is_empty(), "an allowed move breaks nothing");
}
