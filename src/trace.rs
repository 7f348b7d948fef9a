//! A whole match between bots as a record: the text for people, JSON lines for tools.

use crate::bots::Bot;
use crate::engine::{Actor, Event, Layout, State};
use serde_json::json;

/// Plays the match to its end with one bot per player; the same seed gives the same match.
pub fn play_out(state: &mut State, bots: &mut [Box<dyn Bot>]) {
    loop {
        let seats = match state.actor() {
            Actor::Seat(s) => vec![s],
            Actor::Together(seats) => seats,
            Actor::Nobody => return,
        };
        for seat in seats {
            let player = state.game().seats[seat as usize].player;
            let Some(action) = bots[player].choose(state, seat) else { return };
            if state.apply(seat, action).is_err() {
                return;
            }
        }
    }
}

/// The match as text: one line per event, then the result.
pub fn text(state: &State) -> String {
    let layout = Layout::of(state.game());
    let mut out = String::new();
    for event in state.events() {
        if !matches!(event, Event::Over) {
            out.push_str(&event.text(state.game(), &layout));
            out.push('\n');
        }
    }
    out.push_str(&result_line(state));
    out
}

fn result_line(state: &State) -> String {
    if let Some(problem) = state.failure() {
        return format!("stopped: {} ({})\n", problem.message, problem.code.as_str());
    }
    let Some(outcome) = state.outcome() else { return "unfinished\n".into() };
    let standings: Vec<String> = outcome.standings.iter().map(|(who, key)| format!("{who} {key}")).collect();
    let game = state.game();
    let winners: Vec<String> = outcome
        .winners
        .iter()
        .map(|p| game.seats.iter().filter(|s| s.player == *p).map(|s| s.display.clone()).next().unwrap_or_default())
        .collect();
    let verdict = if winners.is_empty() { "a draw".to_string() } else { format!("won by {}", winners.join(", ")) };
    format!("result: {} ({verdict}) after {} decisions\n", standings.join(", "), state.position().decisions)
}

/// The match as JSON lines: one object per event, then one for the result.
pub fn json_lines(state: &State) -> String {
    let layout = Layout::of(state.game());
    let mut out = String::new();
    for event in state.events() {
        let line = json!({ "event": event, "text": event.text(state.game(), &layout) });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    let result =
        json!({ "outcome": state.outcome(), "failure": state.failure(), "decisions": state.position().decisions });
    out.push_str(&result.to_string());
    out.push('\n');
    out
}
