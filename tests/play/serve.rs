//! `paradox serve` keeps each seat's secrets: over a whole match of every shipped game, with a
//! person at every seat, every message each screen is sent (its tables, and the answers to its
//! moves, refused ones included) names only cards its player may know by the engine: cards in
//! piles the engine's view shows that player, and cards the player's own log has named. The
//! same for a spectator, who is shown what every player sees.
#![cfg(feature = "serve")]

use crate::session::setup;
use paradox::State;
use paradox::repl::{Session, Table};
use paradox::serve::{Message, Room, Who, encode, viewer};
use std::collections::HashSet;

/// More moves than any shipped game's match takes played at random.
const MAX_MOVES: usize = 20_000;

/// Every card name `text` holds as whole words (`red 1` is not in `red 10`).
fn cards_named<'a>(text: &str, names: &'a [String]) -> HashSet<&'a str> {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '\'' || c == '_');
    let mut found = HashSet::new();
    for name in names {
        let mut from = 0;
        while let Some(at) = text[from..].find(name.as_str()) {
            let (start, end) = (from + at, from + at + name.len());
            if !word(text[..start].chars().next_back()) && !word(text[end..].chars().next()) {
                found.insert(name.as_str());
                break;
            }
            from = start + 1;
            while !text.is_char_boundary(from) {
                from += 1;
            }
        }
    }
    found
}

/// The cards `player` may know now by the engine: those in the piles its view shows, and
/// those its log has named.
fn known<'a>(state: &State, player: usize, names: &'a [String]) -> HashSet<&'a str> {
    known_after(state, player, names, &mut Logged::default())
}

/// The cards named in the lines of one player's log read so far.
#[derive(Default)]
struct Logged<'a> {
    lines: usize,
    cards: HashSet<&'a str>,
}

/// [`known`], reading only the log lines `logged` has not read yet.
fn known_after<'a>(state: &State, player: usize, names: &'a [String], logged: &mut Logged<'a>) -> HashSet<&'a str> {
    let log = state.log_for(player);
    if log.len() < logged.lines {
        *logged = Logged::default();
    }
    logged.cards.extend(cards_named(&log[logged.lines..].join("\n"), names));
    logged.lines = log.len();
    let mut known = logged.cards.clone();
    for pile in state.view(player).piles {
        if let paradox::PileView::Cards(cards) = pile {
            known.extend(cards.iter().map(|c| names[*c as usize].as_str()));
        }
    }
    known
}

/// The cards a message names that are not `known`.
fn leaks<'a>(message: &str, known: &HashSet<&str>, names: &'a [String]) -> Vec<&'a str> {
    let mut leaked: Vec<&str> = cards_named(message, names).into_iter().filter(|c| !known.contains(c)).collect();
    leaked.sort();
    leaked
}

/// A small deterministic chooser for the people's moves.
struct Chooser(u64);

impl Chooser {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// Plays a whole match of `file` with a person at every seat through the room, checking every
/// message each screen is sent; how many messages were checked.
fn whole_match(file: &str) -> usize {
    let players = setup(file, &[0]).game.players;
    let humans: Vec<usize> = (0..players).collect();
    let session = Session::start(setup(file, &humans)).0;
    let names = session.game().card_names.clone();
    let mut room = Room::new(session, None);
    let screens: Vec<Who> = humans.iter().map(|p| Who::Player(*p)).chain([Who::Spectator]).collect();
    let mut chooser = Chooser(players as u64);
    let mut checked = 0;
    let mut logged: Vec<Logged> = (0..=players).map(|_| Logged::default()).collect();
    let mut check = |room: &Room, who: Who, message: &Message| {
        let text = encode(message);
        let player = viewer(who, players);
        let known = known_after(room.session().state(), player, &names, &mut logged[player]);
        let leaked = leaks(&text, &known, &names);
        assert!(leaked.is_empty(), "{file}: {who:?} was sent {leaked:?}, which it may not know:\n{text}");
        checked += 1;
    };
    for moves in 0.. {
        assert!(moves < MAX_MOVES, "{file}: the match did not end in {MAX_MOVES} moves");
        let tables: Vec<(Who, Message)> = screens.iter().map(|who| (*who, room.screen(*who))).collect();
        for (who, message) in &tables {
            check(&room, *who, message);
        }
        if room.session().state().is_over() || room.session().state().failure().is_some() {
            break;
        }
        // Each person goes on from a round's summary; then the one to decide moves.
        let mut moved = false;
        for (who, message) in &tables {
            let Message::Table(screen) = message else { continue };
            if screen.summary.is_some() {
                let handled = room.handle(*who, r#"{"type":"continue"}"#);
                assert!(handled.changed, "{file}: going on from a summary");
                moved = true;
            }
        }
        if moved {
            continue;
        }
        let (who, moves) = (tables.iter())
            .find_map(|(who, m)| match m {
                Message::Table(s) => s.table.turn.as_ref().map(|t| (*who, t.moves.clone())),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{file}: nobody is asked to move"));
        // Now and then a card that is no move first: the answer is checked too.
        if moves.len() > 1 && chooser.below(5) == 0 {
            let Who::Player(p) = who else { unreachable!() };
            let state = room.session().state();
            let mine: Vec<&str> =
                known(state, p, &names).into_iter().filter(|c| !moves.iter().any(|m| m == c)).collect();
            if let Some(card) = mine.get(chooser.below(mine.len())) {
                let handled = room.handle(who, &serde_json::json!({"type": "move", "text": card}).to_string());
                assert!(!handled.changed, "{file}: {card} is no move, yet it was played");
                let reply = handled.reply.expect("a refused move is answered");
                check(&room, who, &reply);
            }
        }
        let pick = chooser.below(moves.len()) + 1;
        let handled = room.handle(who, &format!(r##"{{"type":"move","text":"#{pick}"}}"##));
        assert!(
            handled.changed,
            "{file}: move #{pick} of {moves:?} was not played: {:?}",
            handled.reply.map(|r| encode(&r))
        );
        if let Some(reply) = handled.reply {
            check(&room, who, &reply);
        }
    }
    checked
}

/// A whole match of a shipped game, every message checked (one test a game, so that they run
/// side by side).
fn checked(file: &str) {
    let checked = whole_match(file);
    assert!(checked > 100, "{file}: only {checked} messages");
}

#[test]
fn anarchy_screens_are_sent_only_what_their_players_may_know() {
    checked("rules/anarchy.cards");
}

#[test]
fn buddy_on_your_left_screens_are_sent_only_what_their_players_may_know() {
    checked("rules/buddy-on-your-left.cards");
}

#[test]
fn costly_tricks_screens_are_sent_only_what_their_players_may_know() {
    checked("rules/costly-tricks.cards");
}

#[test]
fn pairadox_screens_are_sent_only_what_their_players_may_know() {
    checked("rules/pairadox.cards");
}

#[test]
fn tantony_screens_are_sent_only_what_their_players_may_know() {
    checked("rules/tantony.cards");
}

#[test]
fn third_man_screens_are_sent_only_what_their_players_may_know() {
    checked("rules/third-man.cards");
}

#[test]
fn every_shipped_game_is_checked_above() {
    let mut files: Vec<String> = (std::fs::read_dir("rules").expect("the rules folder"))
        .map(|e| e.expect("a file").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".cards"))
        .collect();
    files.sort();
    let tested = ["anarchy", "buddy-on-your-left", "costly-tricks", "pairadox", "tantony", "third-man"];
    assert_eq!(files, tested.map(|t| format!("{t}.cards")));
}

#[test]
fn the_check_finds_another_seats_hand_in_a_message() {
    // The table as another player sees it, sent to player 0: a leaky view, which the check of
    // the test above must catch.
    let session = Session::start(setup("rules/tantony.cards", &[0])).0;
    let state = session.state();
    let names = &session.game().card_names;
    let known = known(state, 0, names);
    let own = serde_json::to_string(&Table::of(state, 0)).expect("JSON");
    assert_eq!(leaks(&own, &known, names), Vec::<&str>::new());
    let leaky = serde_json::to_string(&Table::of(state, 1)).expect("JSON");
    assert!(!leaks(&leaky, &known, names).is_empty(), "another seat's hand went unnoticed: {leaky}");
}
