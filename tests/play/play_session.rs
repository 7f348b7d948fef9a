//! The `play` session through its library API, at the rule files it is about: what a loaded
//! save hands the computer, hot-seat undo, the order moves are shown in, why a move is refused,
//! the standing line, and `log N`.

use crate::session::session;
use paradox::Actor;
use paradox::repl::in_a_sentence;

#[test]
fn after_load_the_computer_plays_its_seats_and_the_human_only_theirs() {
    let mut session = session("rules/costly-tricks.cards", &[0]);
    assert_eq!(session.deciding(), Some(0));
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("match.json");
    // The same deal with the other player human, saved at their first decision: loaded, the
    // computer plays player 0.
    let mut other = crate::session::session("rules/costly-tricks.cards", &[1]);
    assert!(other.handle(&format!("save {}", file.display())).starts_with("Saved"));
    let before = session.state().position().decisions;
    let out = session.handle(&format!("load {}", file.display()));
    assert!(out.starts_with("Loaded"), "{out}");
    assert!(session.state().position().decisions > before, "the computer played from the loaded position");
    assert!(matches!(session.deciding(), Some(1) | None), "{out}");
    if let Actor::Seat(s) = session.state().actor() {
        assert!(session.is_human(s) || session.state().is_over(), "a bot's seat is to act:\n{out}");
    }
    assert!(out.contains("B (you)") && !out.contains("A (you)"), "drawn for player B:\n{out}");
    // `undo` brings back the match as it was before the load, its human player included.
    let out = session.handle("undo");
    assert!(out.starts_with("Back to the match before `load`"), "{out}");
    assert_eq!(session.state().position().decisions, before);
    assert_eq!(session.deciding(), Some(0));
    assert!(out.contains("A (you)") && !out.contains("B (you)"), "drawn for player A:\n{out}");
}

#[test]
fn in_hot_seat_play_a_person_takes_back_only_their_own_decisions() {
    let mut session = session("rules/anarchy.cards", &[0, 1]);
    assert_eq!(session.deciding(), Some(0));
    // P1 decides, then P2 may not take it back; P2 decides, then P1 may not take theirs back.
    for (next, refusal) in [
        (1, "There is nothing of yours to undo: the last decision was P1's.\n"),
        (0, "P2 has decided since your last decision: you can take back only your own.\n"),
    ] {
        session.handle("#1");
        assert_eq!(session.deciding(), Some(next));
        let before = session.state().position().clone();
        assert_eq!(session.handle("undo"), refusal);
        assert_eq!(session.state().position(), &before, "the other's decision stands");
    }
}

#[test]
fn undo_shows_the_screen_of_the_person_who_decided() {
    let mut session = session("rules/anarchy.cards", &[0]);
    session.handle("#1");
    let out = session.handle("undo");
    assert!(out.starts_with("Back to your previous decision.\n"), "{out}");
    assert!(out.contains("P1 (you) *") && out.contains("Your turn at P1"), "{out}");
    assert_eq!(session.handle("undo"), "There is nothing to undo.\n");
}

#[test]
fn card_moves_with_a_declaration_are_sorted_the_declared_after_the_plain() {
    let mut session = session("rules/anarchy.cards", &[0]);
    session.handle("shorts");
    let names = session.move_names();
    let at = names.iter().position(|n| n == "A of diamonds").expect("P1 holds the A of diamonds");
    assert_eq!(names[at + 1], "A of diamonds low", "{names:?}");
    assert_eq!(names[..3], ["2 of clubs", "7 of clubs", "Q of clubs"], "by suit, then rank: {names:?}");
    assert_eq!(names.last().map(String::as_str), Some("4 of spades"), "{names:?}");
}

#[test]
fn a_forbidden_move_is_refused_in_a_sentence_and_why_shows_the_rule() {
    let mut session = session("rules/tantony.cards", &[0]);
    let moves = session.move_names();
    let out = session.handle("2c");
    let first = out.lines().next().unwrap_or_default();
    assert!(first.starts_with("You may not play 2 of clubs now: you "), "{out}");
    assert!(first.ends_with(". (`why` shows the rule.)"), "{out}");
    let allowed = in_a_sentence(&moves);
    let last = allowed.rsplit([',', ';']).next().unwrap_or_default().trim();
    assert!(first.contains(last), "{out}");
    assert_eq!(out.lines().count(), 1, "the rule waits for `why`: {out}");
    let why = session.handle("why");
    assert!(why.contains("E0117") && why.contains(&format!("allowed now: {}", moves.join(", "))), "{why}");
}

#[test]
fn the_standing_line_is_shown_only_for_rule_files_without_show_lines() {
    let mut shows = session("rules/pairadox.cards", &[0]);
    let out = shows.handle("show");
    assert!(!out.contains("Standing:") && out.contains("team A: 0 pairs (0 True, 0 False)"), "{out}");
    // With a `sheet`, `score` is the score sheet.
    assert_eq!(shows.handle("score"), "Score sheet: no deal has ended yet.\n");
    let mut plain = session("tests/fixtures/valid/little-tricks.cards", &[0]);
    assert!(plain.game().shows.is_empty());
    for out in [plain.handle("show"), plain.handle("score")] {
        assert!(out.contains("Standing: "), "{out}");
    }
}

#[test]
fn log_n_shows_the_last_n_lines() {
    let mut session = session("rules/anarchy.cards", &[0]);
    let all = session.handle("log 1000");
    assert!(all.lines().count() > 6 && all.contains("52 cards dealt"), "{all}");
    for n in [1, 3, 6] {
        let out = session.handle(&format!("log {n}"));
        let last: Vec<&str> = all.lines().skip(all.lines().count() - n).collect();
        assert_eq!(out.lines().collect::<Vec<_>>(), last, "log {n}");
    }
}
