//! A whole match between bots as a record: the text for people, JSON lines for tools.

use crate::bots::{Bot, Kind, seat_bots};
use crate::engine::{Actor, Event, State, pile_name};
use crate::game::{CardId, Game, Value};
use serde_json::json;
use std::sync::Arc;

/// Plays the match to its end with one bot per player, or until
/// [`MAX_DECISIONS`](crate::sim::MAX_DECISIONS) decisions leave it unfinished; says whether it
/// is over. The same seed gives the same match.
pub fn play_out(state: &mut State, bots: &mut [Box<dyn Bot>]) -> bool {
    play_up_to(state, bots, crate::sim::MAX_DECISIONS)
}

/// Plays on until the match is over or `decisions` more decisions have been made; says whether
/// the match is over.
pub fn play_up_to(state: &mut State, bots: &mut [Box<dyn Bot>], decisions: u64) -> bool {
    play_watching(state, bots, decisions, |_| {})
}

/// [`play_up_to`], showing the state to `watch` before every decision.
pub fn play_watching(
    state: &mut State,
    bots: &mut [Box<dyn Bot>],
    decisions: u64,
    mut watch: impl FnMut(&State),
) -> bool {
    let mut made = 0u64;
    loop {
        let seats: smallvec::SmallVec<[crate::game::SeatId; 8]> = match state.actor() {
            Actor::Seat(s) => smallvec::smallvec![s],
            Actor::Together(seats) => smallvec::SmallVec::from_vec(seats),
            Actor::Nobody => return true,
        };
        for seat in seats {
            if made >= decisions {
                return false;
            }
            watch(state);
            let player = state.game().seats[seat as usize].player;
            let Some(action) = bots[player].choose(&state.seen_by(player), seat) else { return state.is_over() };
            if state.apply(seat, action).is_err() {
                return state.is_over();
            }
            made += 1;
        }
    }
}

/// The match `paradox trace FILE --seed SEED --bots KINDS` prints: bots of the given kinds,
/// one per player (see [`seat_bots`]), play it to the end with every event logged; a match still
/// going after [`MAX_DECISIONS`](crate::sim::MAX_DECISIONS) decisions is left unfinished.
pub fn bot_match(game: Arc<Game>, seed: u64, kinds: &[Kind]) -> State {
    let mut bots = seat_bots(kinds, seed);
    let mut state = State::new(game, seed);
    play_out(&mut state, &mut bots);
    state
}

/// The match between random bots that `paradox trace FILE --seed SEED` prints.
pub fn random_match(game: Arc<Game>, seed: u64) -> State {
    let kinds = vec![Kind::Random; game.players];
    bot_match(game, seed, &kinds)
}

/// The match as text: one line per event, then the result.
///
/// A card chosen and then moved on its own (played to the trick, bid face up) takes one line:
/// the move is added to the choice, `A chooses red 5 (to trick)`, even when narration comes
/// between the two. Moves of no cards are left out.
pub fn text(state: &State) -> String {
    let game = state.game();
    let layout = state.layout();
    let mut lines: Vec<String> = Vec::new();
    // Cards chosen since the last event that was neither a choice nor narration, with the line
    // of each choice.
    let mut chosen: Vec<(CardId, usize)> = Vec::new();
    for event in state.events() {
        match event {
            // The score sheet is the table's: the trace tells the round in its narration.
            Event::Over | Event::Sheet { .. } => {}
            Event::Moved { cards, .. } if cards.is_empty() => {}
            Event::Moved { cards, to } if cards.len() == 1 && chosen.iter().any(|(c, _)| *c == cards[0]) => {
                let k = chosen.iter().position(|(c, _)| *c == cards[0]).unwrap_or_default();
                let (_, line) = chosen.remove(k);
                lines[line].push_str(&format!(" (to {})", pile_name(game, layout, *to)));
            }
            Event::Chose { value, .. } => {
                if let Value::Card(c) = value {
                    chosen.push((*c, lines.len()));
                }
                lines.push(event.text(game, layout));
            }
            Event::Say(_) => lines.push(event.text(game, layout)),
            _ => {
                chosen.clear();
                lines.push(event.text(game, layout));
            }
        }
    }
    let mut out = String::new();
    for line in lines {
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(&result_line(state));
    out
}

/// The last line of a trace: the standings and the winners, or why the match stopped.
pub fn result_line(state: &State) -> String {
    if let Some(problem) = state.failure() {
        return format!("stopped: {} ({})\n", problem.message, problem.code.as_str());
    }
    let Some(outcome) = state.outcome() else {
        return format!("unfinished after {} decisions\n", state.position().decisions);
    };
    let standings: Vec<String> = outcome.standings.iter().map(|(who, key)| format!("{who} {key}")).collect();
    let game = state.game();
    let winners = winner_names(game, &outcome.winners);
    let verdict = if winners.is_empty() { "a draw".to_string() } else { format!("won by {}", winners.join(", ")) };
    format!("result: {} ({verdict}) after {} decisions\n", standings.join(", "), state.position().decisions)
}

/// Who won, as the result ranks them: the winning sides when it ranks sides, else the players
/// (each by its first seat).
fn winner_names(game: &Game, winners: &[usize]) -> Vec<String> {
    let won = |seat: &u8| winners.contains(&game.seats[*seat as usize].player);
    if matches!(game.result.domain.kind, crate::game::ExprKind::Sides) {
        return game.sides.iter().filter(|t| t.seats.iter().any(won)).map(|t| t.display.clone()).collect();
    }
    let first_seat = |p: &usize| game.seats.iter().find(|s| s.player == *p).map(|s| s.display.clone());
    winners.iter().filter_map(first_seat).collect()
}

/// The match as JSON lines: one object per event, then one for the result.
pub fn json_lines(state: &State) -> String {
    let layout = state.layout();
    let mut out = String::new();
    for event in state.events() {
        let line = json!({ "event": event, "text": event.text(state.game(), layout) });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    let result =
        json!({ "outcome": state.outcome(), "failure": state.failure(), "decisions": state.position().decisions });
    out.push_str(&result.to_string());
    out.push('\n');
    out
}
