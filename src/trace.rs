//! A whole match between bots as a record: the text for people, JSON lines for tools.

use crate::bots::{Bot, Kind, seat_bots};
use crate::engine::{Actor, Event, Numbering, Playable, State, pile_name};
use crate::game::{CardId, Game, Value};
use serde_json::json;
use std::io::Write;
use std::sync::Arc;

/// A match played by bots that is still going after this many decisions is taken for one that
/// runs on without end: it is left unfinished.
pub const ENDLESS_AFTER: u64 = 200_000;

/// Plays the match to its end with one bot per player, or until [`ENDLESS_AFTER`] decisions
/// leave it unfinished; says whether it is over. The same seed gives the same match.
pub fn play_out(state: &mut State, bots: &mut [Box<dyn Bot>]) -> bool {
    play_up_to(state, bots, ENDLESS_AFTER)
}

/// Plays on until the match is over or `decisions` more decisions have been made; says whether
/// the match is over.
pub fn play_up_to(state: &mut State, bots: &mut [Box<dyn Bot>], decisions: u64) -> bool {
    play_watching(state, bots, decisions, |_| true)
}

/// [`play_up_to`], showing the state to `watch` before every decision; play stops (unfinished)
/// when `watch` says `false`.
pub fn play_watching(
    state: &mut State,
    bots: &mut [Box<dyn Bot>],
    decisions: u64,
    mut watch: impl FnMut(&State) -> bool,
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
            if !watch(state) {
                return false;
            }
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
/// going after [`ENDLESS_AFTER`] decisions is left unfinished. The match itself is played by the
/// interpreter (it is observed); the worlds the bots search run on the playable's kernel, if any.
pub fn bot_match(game: impl Into<Playable>, seed: u64, kinds: &[Kind]) -> State {
    let mut bots = seat_bots(kinds, seed);
    let mut state = State::new(game, seed);
    play_out(&mut state, &mut bots);
    state
}

/// [`bot_match`], writing the record of the match to `out` in `format` as it is played, each
/// line as soon as it is final. Stops playing when `out` fails (a closed pipe), with its error.
pub fn stream_match(
    game: impl Into<Playable>,
    seed: u64,
    kinds: &[Kind],
    format: Format,
    out: &mut impl Write,
) -> std::io::Result<State> {
    let mut bots = seat_bots(kinds, seed);
    let mut state = State::new(game, seed);
    let mut transcript = Transcript::new(format);
    let mut failed = None;
    play_watching(&mut state, &mut bots, ENDLESS_AFTER, |state| {
        match out.write_all(transcript.take(state).as_bytes()).and_then(|()| out.flush()) {
            Ok(()) => true,
            Err(e) => {
                failed = Some(e);
                false
            }
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    out.write_all(transcript.finish(&state).as_bytes())?;
    out.flush()?;
    Ok(state)
}

/// The match between random bots that `paradox trace FILE --seed SEED` prints.
pub fn random_match(game: Arc<Game>, seed: u64) -> State {
    let kinds = vec![Kind::Random; game.players];
    bot_match(game, seed, &kinds)
}

/// How a match's record is written: text for people, or JSON lines for tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One line per event, then the result ([`text`]).
    Text,
    /// One JSON object per event, then one for the result ([`json_lines`]).
    Json,
}

/// The record of a match written as it is played: each [`Transcript::take`] gives the lines
/// that can no longer change, so a long match is printed as it goes, and the lines of all the
/// takes and of [`Transcript::finish`] together are exactly [`text`] or [`json_lines`].
///
/// In text, a card chosen and then moved on its own (played to the trick, bid face up) takes
/// one line: the move is added to the choice, `A chooses red 5 (to trick)`, even when narration
/// comes between the two. Moves of no cards are left out. A phase's start is numbered as the
/// table numbers it, within its round (`-- round 2, trick 1 --`), in text and JSON alike. The line of such a choice, and the
/// lines after it, are held until the move comes or something else happens.
pub struct Transcript {
    format: Format,
    /// The events of the match read so far.
    read: usize,
    /// Lines not given out yet.
    held: Vec<String>,
    /// Cards chosen since the last event that was neither a choice nor narration, with the
    /// line of each choice in `held`.
    chosen: Vec<(CardId, usize)>,
    /// The phases counted so far.
    numbering: Numbering,
}

impl Transcript {
    /// A record of a match not yet read.
    pub fn new(format: Format) -> Transcript {
        Transcript { format, read: 0, held: Vec::new(), chosen: Vec::new(), numbering: Numbering::default() }
    }

    /// Reads the events of `state` since the last take and gives the lines now final.
    pub fn take(&mut self, state: &State) -> String {
        let events = state.events().get(self.read..).unwrap_or_default();
        self.read += events.len();
        for event in events {
            match self.format {
                Format::Text => self.text_line(state, event),
                Format::Json => {
                    let text = self.line(state, event);
                    self.held.push(json!({ "event": event, "text": text }).to_string());
                }
            }
        }
        let done = self.chosen.iter().map(|(_, line)| *line).min().unwrap_or(self.held.len());
        for (_, line) in &mut self.chosen {
            *line -= done;
        }
        lines(self.held.drain(..done))
    }

    /// The lines still held once the match is over or stopped, and the last line: the result.
    pub fn finish(mut self, state: &State) -> String {
        let mut out = self.take(state);
        self.chosen.clear();
        out.push_str(&lines(self.held.drain(..)));
        match self.format {
            Format::Text => out.push_str(&result_line(state)),
            Format::Json => {
                let result = json!({
                    "outcome": state.outcome(),
                    "failure": state.failure(),
                    "decisions": state.position().decisions
                });
                out.push_str(&result.to_string());
                out.push('\n');
            }
        }
        out
    }

    /// The text of one event: a phase's start numbered as players count it ([`Numbering`]).
    fn line(&mut self, state: &State, event: &Event) -> String {
        match event {
            Event::Phase { name, count, .. } => self.numbering.trace_line(state.game(), name, *count),
            _ => event.text(state.game(), state.layout()),
        }
    }

    /// Adds the text of one event: a line of its own, or a move added to the choice it follows.
    fn text_line(&mut self, state: &State, event: &Event) {
        let (game, layout) = (state.game(), state.layout());
        match event {
            // The score sheet is the table's: the trace tells the round in its narration.
            Event::Over | Event::Sheet { .. } => {}
            Event::Moved { cards, .. } if cards.is_empty() => {}
            Event::Moved { cards, to } if cards.len() == 1 && self.chosen.iter().any(|(c, _)| *c == cards[0]) => {
                let k = self.chosen.iter().position(|(c, _)| *c == cards[0]).unwrap_or_default();
                let (_, line) = self.chosen.remove(k);
                self.held[line].push_str(&format!(" (to {})", pile_name(game, layout, *to)));
            }
            Event::Chose { value, .. } => {
                if let Value::Card(c) = value {
                    self.chosen.push((*c, self.held.len()));
                }
                self.held.push(event.text(game, layout));
            }
            Event::Say(_) => self.held.push(event.text(game, layout)),
            _ => {
                self.chosen.clear();
                let line = self.line(state, event);
                self.held.push(line);
            }
        }
    }
}

/// Lines, each ended.
fn lines(lines: impl Iterator<Item = String>) -> String {
    let mut out = String::new();
    for line in lines {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The match as text: one line per event, then the result (see [`Transcript`]).
pub fn text(state: &State) -> String {
    Transcript::new(Format::Text).finish(state)
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
    Transcript::new(Format::Json).finish(state)
}
