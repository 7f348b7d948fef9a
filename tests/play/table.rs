//! The table of `paradox play` as a card player sees it: who played each card of a trick, the
//! last trick, where the round stands, the pause and the score sheet at a round's end, a table
//! too wide for the screen, and `rules` in the rule file's own words.

use crate::session::{session, session_on};
use paradox::repl::Session;

/// Plays the first move offered until a line of `text` says `until`; the last output.
fn play_until(session: &mut Session, until: &str) -> String {
    for _ in 0..200 {
        let out = session.handle("#1");
        if out.contains(until) {
            return out;
        }
    }
    panic!("never said {until:?}");
}

#[test]
fn on_a_terminal_the_end_of_a_round_waits_for_enter_with_the_score_sheet() {
    let mut session = session_on("rules/costly-tricks.cards", &[0], true);
    let out = play_until(&mut session, "Score sheet");
    assert!(out.contains("wins the round") || out.contains("drawn"), "the round's narration first: {out}");
    assert!(out.contains("  round 1 | net ") && out.ends_with("Press Enter to go on.\n"), "{out}");
    assert!(!out.contains("Your turn"), "no table before Enter: {out}");
    assert_eq!(session.prompt(), "(press Enter) ");
    let next = session.handle("");
    assert!(next.contains("-- round 2 --") && next.contains("Your turn"), "{next}");
    assert!(!next.contains("Score sheet"), "the sheet is shown once: {next}");
    let score = session.handle("score");
    assert!(score.starts_with("Score sheet\n") && score.contains("  round 1 | net "), "{score}");
}

#[test]
fn in_a_script_the_end_of_a_round_shows_the_score_sheet_and_goes_on() {
    let mut session = session("rules/costly-tricks.cards", &[0]);
    let out = play_until(&mut session, "Score sheet");
    assert!(out.contains("  round 1 | net ") && !out.contains("Press Enter"), "{out}");
    assert!(out.contains("-- round 2 --") && out.contains("Your turn"), "{out}");
}

#[test]
fn the_table_shows_who_played_each_card_and_the_last_trick_while_the_next_is_played() {
    let mut session = session("rules/costly-tricks.cards", &[0]);
    let led = session.handle("r0");
    assert!(led.contains("round 1, trick 1 of 11") && led.contains("red 0 (A)"), "{led}");
    let taken = play_until(&mut session, "-- trick 2 of 11 --");
    assert!(taken.contains("last trick,") && taken.contains("red 0 (A), "), "{taken}");
    let next = session.handle("#1");
    assert!(next.contains("last trick,") && next.contains("red 0 (A), "), "still there in trick 2: {next}");
    let round = play_until(&mut session, "-- round 2 --");
    let table = &round[round.find("-- round 2 --").unwrap_or_default()..];
    assert!(!table.contains("red 0 (A), red"), "not into the next round: {table}");
}

#[test]
fn a_table_too_wide_for_the_screen_says_so() {
    let mut session = session("rules/pairadox.cards", &[0]);
    session.resize(40);
    let out = session.handle("show");
    assert!(out.contains("columns and the screen has 40: widen it"), "{out}");
    session.resize(100);
    assert!(!session.handle("show").contains("widen it"));
}

#[test]
fn rules_leave_out_the_authors_notes_and_name_the_winner_in_words() {
    let text = session("rules/buddy-on-your-left.cards", &[0]).handle("rules");
    assert!(text.contains("  Followers play in turn until a card tops the lead.\n"), "{text}");
    assert!(!text.contains("Note:") && !text.contains("fallback"), "{text}");
    assert!(text.contains("The winner: The first to reach the chips needed"), "{text}");
    assert!(text.contains("  cards on the table: cards seen by everyone"), "zones by display name: {text}");
    assert!(text.lines().all(|l| l == l.trim_end()), "no trailing spaces: {text}");
}
