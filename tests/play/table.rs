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
    session.resize(40, None);
    let out = session.handle("show");
    assert!(out.contains("columns and the screen has 40: widen it"), "{out}");
    session.resize(100, None);
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

/// How many moves of each game a screen-size test plays (the first offered each time).
const MOVES_ON_A_SMALL_SCREEN: usize = 120;

#[test]
fn every_screen_of_every_game_fits_80_columns_and_24_rows() {
    for entry in std::fs::read_dir("rules").expect("the rules folder") {
        let path = entry.expect("a rule file").path();
        let file = path.to_str().expect("a UTF-8 path");
        let mut session = session(file, &[0]);
        session.resize(80, Some(24));
        for n in 0..MOVES_ON_A_SMALL_SCREEN {
            let out = session.handle(if session.prompt() == "(press Enter) " { "" } else { "#1" });
            // The prompt takes the last row.
            let rows = out.lines().count();
            assert!(rows < 24, "{file}, move {n}: {rows} rows\n{out}");
            let widest = out.lines().map(|l| l.chars().count()).max().unwrap_or(0);
            assert!(widest <= 80, "{file}, move {n}: {widest} columns\n{out}");
            if !session.state().is_over() {
                assert!(
                    out.contains("(*)") || out.contains("Press Enter"),
                    "{file}, move {n}: the decision asked\n{out}"
                );
            }
        }
    }
}

/// The first line of a text, words run together over its wrapped lines up to `(`\`why\``.
fn said(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let said = words.join(" ");
    said.split(" (`why` shows").next().unwrap_or_default().to_string()
}

#[test]
fn a_refusal_says_the_rules_reason_in_one_sentence_and_why_says_it_again() {
    // The Third Man: a bid card already spent is out of reach, and that is what is said.
    let mut third = session("rules/third-man.cards", &[0]);
    third.handle("#1");
    third.handle("#1");
    let out = third.handle("bid 0");
    let expected = "bid 0 is not allowed now: P1's 0 is in P1's spent bids, and the choice is made from P1's hand.";
    assert_eq!(said(&out), expected, "{out}");
    assert_eq!(said(&third.handle("why")), expected);
    // Tantony: a trick given to a seat at its quota; the reason is the rule file's comment.
    let mut tantony = session("rules/tantony.cards", &[0]);
    for _ in 0..35 {
        tantony.handle("#1");
    }
    let out = tantony.handle("north");
    assert!(
        said(&out).starts_with("North takes the trick is not allowed now: the winner keeps the trick or gives it away, but nobody may hold more than the quota (allowed now: "),
        "{out}"
    );
    assert!(said(&tantony.handle("why")).starts_with(&said(&out)), "`why` repeats the sentence");
    // Pairadox: a card that does not fit the set, with the reason of the one definition it fails.
    let mut pairadox = session("rules/pairadox.cards", &[0]);
    let out = pairadox.handle("blue single");
    let expected = "You may not play blue Single now: a Single must be of a category the set does not have yet.";
    assert_eq!(said(&out), expected, "{out}");
}

#[test]
fn a_card_is_understood_by_its_ranks_name_in_words() {
    // Tantony's ranks show as `2` ... `Q`, `K`, `A`; their names are `two` ... `queen`.
    let mut tantony = session("rules/tantony.cards", &[0]);
    let out = tantony.handle("queen of clubs");
    assert!(out.starts_with("You may not play Q of clubs now: you must play suit spades"), "{out}");
    let out = tantony.handle("four of spades");
    assert!(out.contains("North chooses 4 of spades"), "{out}");
}

#[test]
fn analyze_judges_the_latest_decisions_within_one_budget_and_says_what_it_left_out() {
    // Late in the first round, where the latest decisions solve quickly and the earliest do not.
    let mut costly = session("rules/costly-tricks.cards", &[0]);
    for _ in 0..19 {
        costly.handle("#1");
    }
    let mut progress = Vec::new();
    let out = costly.handle_showing("analyze", &mut |line| progress.push(line.to_string()));
    let judged = out.lines().filter(|l| l.contains(" played ")).count();
    assert!(judged > 0, "{out}");
    // The work says how it goes: before each decision judged (and the one found too large).
    assert_eq!(progress.len(), judged + 1, "{progress:?}");
    assert!(progress[0].starts_with("Analysing decision 1 of "), "{progress:?}");
    assert!(progress[1].ends_with(" positions") && !progress[1].contains(": 0 of "), "{progress:?}");
    assert!(out.contains(" earlier decisions, too large to solve within 400000 positions in all)"), "{out}");
}

#[test]
fn compass_seats_are_drawn_from_the_seat_the_rule_file_puts_at_the_bottom() {
    // Tantony says `seat South at bottom`: South sees West on its left, North across, East on
    // its right; North, at the bottom of its own table, sees the others turned with it.
    let path = std::path::Path::new("rules/tantony.cards");
    let game = std::sync::Arc::new(paradox::load(path, &paradox::Settings::default()).expect("loads"));
    let state = paradox::State::new(game.clone(), 1);
    let names = |player: usize| -> Vec<String> {
        paradox::repl::Table::of(&state, player).seats.iter().map(|s| s.name.clone()).collect()
    };
    assert_eq!(names(2), ["West", "North", "East", "South"]);
    assert_eq!(names(0), ["East", "South", "West", "North"]);
    // A spectator, who has no seat, sees South at the bottom too.
    assert_eq!(names(game.players), ["West", "North", "East", "South"]);
}
