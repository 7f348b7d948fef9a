//! One match served to several screens, with no network in sight: the session, the private
//! token of each human player and the spectators' token, and what each screen is sent. A
//! player's screen holds only what the engine lets that player see: their table
//! ([`crate::repl::Table`], built from the engine's view for them), their own log, the summary
//! of a round until they go on, and the answers to their own moves; a spectator's, what every
//! player sees. Every string sent has its control characters escaped ([`crate::printable`]).

use crate::repl::{Command, Session, Table};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The longest message a screen may send, in bytes; a longer one is refused with an error.
pub const MAX_REQUEST: usize = 4096;

/// How many of the latest log lines a screen is sent.
const LOG_LINES: usize = 40;

/// Who a token admits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// A human player (by number), at the seats that player decides for.
    Player(usize),
    /// A spectator: no moves, and only what every player sees.
    Spectator,
}

/// A link to hand out: whose it is and its private token.
#[derive(Clone, Debug)]
pub struct Guest {
    /// The seats it plays (`North and South`), or `spectators`.
    pub name: String,
    /// Who it admits.
    pub who: Who,
    /// The unguessable part of the link.
    pub token: String,
}

/// What a screen asks.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum Request {
    /// A move, as it would be typed at the terminal (`#3`, `Q of clubs`, `2c + 3c`).
    Move { text: String },
    /// Done reading the summary of a round.
    Continue,
}

/// What a screen is sent.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Message {
    /// The table as the screen's player sees it now.
    Table(Box<Screen>),
    /// The answer to the screen's own move that was not played: why not, in one sentence.
    Said {
        /// The sentence.
        text: String,
    },
    /// A message that was not understood or not allowed; the match goes on.
    Error {
        /// What was wrong.
        text: String,
    },
}

/// The table sent to one screen.
#[derive(Debug, Serialize)]
pub struct Screen {
    /// The game's name.
    pub game: String,
    /// The seats the screen's player plays (`North`), or `spectator`.
    pub you: String,
    /// The table as the player sees it, with the decision asked of them.
    pub table: Table,
    /// The latest lines of the player's log.
    pub log: Vec<String>,
    /// A round that ended and that the player has not gone on from yet.
    pub summary: Option<Summary>,
    /// The people the match waits for to go on from a round's summary.
    pub waiting: Vec<String>,
    /// The result, once the match is over (or why it stopped).
    pub result: Option<String>,
}

/// The end of a round, shown until the player goes on.
#[derive(Debug, Serialize)]
pub struct Summary {
    /// The round's number, from 1 (its row of the score sheet).
    pub round: usize,
    /// What happened in the round, as the player's log tells it.
    pub news: Vec<String>,
}

/// What handling a screen's message came to.
pub struct Handled {
    /// The answer for that screen alone, if any.
    pub reply: Option<Message>,
    /// Whether every screen must be sent its table again.
    pub changed: bool,
    /// Why the match could not be saved after the move, if it could not.
    pub unsaved: Option<String>,
}

/// A match with its guests.
pub struct Room {
    session: Session,
    guests: Vec<Guest>,
    /// For each human player: how many rounds' summaries they have gone on from.
    continued: Vec<(usize, usize)>,
    /// Where the match is saved after every move.
    save: Option<PathBuf>,
    /// How long the match waits for people to read a round's summary (`None`: until they go on).
    summary_timeout: Option<Duration>,
    /// When each round's end was first seen, by round (the rounds before a resume included).
    ended: Vec<Instant>,
}

impl Room {
    /// Seats the session's human players and the spectators, each with the token saved with
    /// the match (a match resumed keeps its links) or else a fresh one; the rounds already
    /// played (a match resumed) are not summarised again.
    pub fn new(mut session: Session, save: Option<PathBuf>) -> Room {
        let game = session.game();
        let seats_of = |p: usize| {
            let names: Vec<&str> = game.seats.iter().filter(|s| s.player == p).map(|s| s.display.as_str()).collect();
            names.join(" and ")
        };
        let mut guests: Vec<Guest> = (session.humans().iter())
            .map(|p| Guest { name: seats_of(*p), who: Who::Player(*p), token: String::new() })
            .collect();
        guests.push(Guest { name: "spectators".into(), who: Who::Spectator, token: String::new() });
        let saved = session.links();
        let fits = saved.len() == guests.len() && saved.iter().all(|t| is_token(t));
        for (i, guest) in guests.iter_mut().enumerate() {
            guest.token = if fits { saved[i].clone() } else { token() };
        }
        session.set_links(guests.iter().map(|g| g.token.clone()).collect());
        let continued = session.humans().iter().map(|p| (*p, rounds(&session, *p))).collect();
        let mut room = Room { session, guests, continued, save, summary_timeout: None, ended: Vec::new() };
        room.note_ends();
        room
    }

    /// How long the match waits for people to go on from a round's summary (`None`: until
    /// every one has); once it is up, the match goes on, their summary still shown to them.
    pub fn wait_for_summaries(mut self, timeout: Option<Duration>) -> Room {
        self.summary_timeout = timeout;
        self
    }

    /// The links to hand out: one per human player, then the spectators'.
    pub fn guests(&self) -> &[Guest] {
        &self.guests
    }

    /// Who `token` admits, if anyone.
    pub fn who(&self, token: &str) -> Option<Who> {
        self.guests.iter().find(|g| same(&g.token, token)).map(|g| g.who)
    }

    /// The match as it stands.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The table as `who` sees it now.
    pub fn screen(&mut self, who: Who) -> Message {
        let game = self.session.game();
        let players = game.players;
        let player = viewer(who, players);
        let you = match who {
            Who::Player(_) => self.guests.iter().find(|g| g.who == who).map_or_else(String::new, |g| g.name.clone()),
            Who::Spectator => "spectator".into(),
        };
        let game = game.name.clone();
        self.session.seat(Some(player));
        let table = self.session.table();
        let state = self.session.state();
        let told = state.told(player);
        let (log, ends) = (told.lines, told.ends);
        let summary = self.unread(who).map(|round| {
            let from = if round == 0 { 0 } else { ends[round - 1] };
            Summary { round: round + 1, news: log[from.min(ends[round])..ends[round]].to_vec() }
        });
        let result = match (state.failure(), state.is_over()) {
            (Some(problem), _) => Some(format!("The match stopped: {}", problem.message)),
            (None, true) => Some(crate::trace::result_line(state).trim_end().to_string()),
            (None, false) => None,
        };
        let log = log[log.len().saturating_sub(LOG_LINES)..].to_vec();
        Message::Table(Box::new(Screen { game, you, table, log, summary, waiting: self.waiting(), result }))
    }

    /// Handles a message from `who`'s screen: a move, or going on from a summary. Anything
    /// else, too long, or not allowed now is answered with an error and changes nothing.
    pub fn handle(&mut self, who: Who, text: &str) -> Handled {
        let refuse = |text: String| Handled { reply: Some(Message::Error { text }), changed: false, unsaved: None };
        if text.len() > MAX_REQUEST {
            return refuse(format!("the message is {} bytes long, more than {MAX_REQUEST}: it is ignored", text.len()));
        }
        let request = match serde_json::from_str::<Request>(text) {
            Ok(request) => request,
            Err(e) => return refuse(format!("the message is not understood ({e}): it is ignored")),
        };
        let Who::Player(player) = who else { return refuse("a spectator makes no moves".into()) };
        match request {
            Request::Continue => match self.unread(who) {
                Some(_) => {
                    if let Some((_, seen)) = self.continued.iter_mut().find(|(p, _)| *p == player) {
                        *seen += 1;
                    }
                    Handled { reply: None, changed: true, unsaved: None }
                }
                None => refuse("there is no round summary to go on from".into()),
            },
            Request::Move { text } => self.play(player, &text),
        }
    }

    /// Plays `text` as `player`'s move, if it is one and the match is not waiting.
    fn play(&mut self, player: usize, text: &str) -> Handled {
        let said = |text: String| Handled { reply: Some(Message::Said { text }), changed: false, unsaved: None };
        let waiting = self.waiting();
        if !waiting.is_empty() {
            return said(format!("The match goes on once {} have read the round's summary.", waiting.join(", ")));
        }
        if text.chars().any(char::is_control) {
            return said("A move is plain text, without control characters.".into());
        }
        self.session.seat(Some(player));
        match self.session.command(text) {
            Ok(Command::Move(_)) => {}
            Ok(_) => return said(format!("`{text}` is a command of the terminal: here, only moves are played.")),
            Err(message) => return said(message),
        }
        let before = self.session.state().position().decisions;
        let answer = self.session.handle(text);
        if self.session.state().position().decisions == before {
            // One sentence, laid out for the terminal: its lines joined again.
            let lines: Vec<&str> = answer.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
            return said(lines.join(" "));
        }
        self.note_ends();
        let unsaved = self.save.as_ref().and_then(|path| self.session.save_to(path).err());
        Handled { reply: None, changed: true, unsaved }
    }

    /// The first round whose summary `who` has not gone on from.
    fn unread(&self, who: Who) -> Option<usize> {
        let Who::Player(player) = who else { return None };
        let (_, seen) = self.continued.iter().find(|(p, _)| *p == player)?;
        Some(*seen).filter(|seen| *seen < rounds(&self.session, player))
    }

    /// The people the match waits for: those who have not gone on from a round's summary yet,
    /// while the time-out (if any) is not up.
    fn waiting(&self) -> Vec<String> {
        let waited_for = |who: Who| self.unread(who).is_some_and(|round| self.waits_for(round, Instant::now()));
        (self.guests.iter())
            .filter(|g| matches!(g.who, Who::Player(_)) && waited_for(g.who))
            .map(|g| g.name.clone())
            .collect()
    }

    /// Whether the match still waits, at `now`, for people to read the summary of `round`.
    fn waits_for(&self, round: usize, now: Instant) -> bool {
        match (self.summary_timeout, self.ended.get(round)) {
            (None, _) => true,
            (Some(timeout), Some(ended)) => now < *ended + timeout,
            (Some(timeout), None) => !timeout.is_zero(),
        }
    }

    /// When the match stops waiting for a summary it waits for now, if it does: then every
    /// screen is to be sent its table again.
    pub fn wait_ends(&self) -> Option<Instant> {
        let timeout = self.summary_timeout?;
        let now = Instant::now();
        let waited: Vec<usize> = (self.guests.iter())
            .filter_map(|g| self.unread(g.who))
            .filter(|round| self.waits_for(*round, now))
            .collect();
        waited.iter().filter_map(|round| self.ended.get(*round)).map(|ended| *ended + timeout).min()
    }

    /// Notes when the rounds that have ended since it last looked ended: now.
    fn note_ends(&mut self) {
        let rounds = (0..self.session.game().players).map(|p| rounds(&self.session, p)).max().unwrap_or(0);
        while self.ended.len() < rounds {
            self.ended.push(Instant::now());
        }
    }
}

/// A message as sent: JSON with every string's control characters escaped.
pub fn encode(message: &Message) -> String {
    let mut value = serde_json::to_value(message).unwrap_or_default();
    crate::printable::escape_json(&mut value);
    value.to_string()
}

/// The player whose eyes `who` has: a spectator is the player past the last, whom the engine
/// shows what every player sees.
pub fn viewer(who: Who, players: usize) -> usize {
    match who {
        Who::Player(p) => p,
        Who::Spectator => players,
    }
}

/// How many rounds have ended, as `player`'s log tells.
fn rounds(session: &Session, player: usize) -> usize {
    session.state().told(player).ends.len()
}

/// A fresh unguessable token: 128 random bits in hex.
fn token() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// Whether `text` is one of [`token`]'s: 32 hexadecimal digits.
fn is_token(text: &str) -> bool {
    text.len() == 32 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Whether two tokens are the same, in a time that does not tell how much of them matched.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0, |diff, (x, y)| diff | (x ^ y)) == 0
}
