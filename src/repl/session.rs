//! A match at the table as a pure session: a line in, the text to print out. The session plays
//! the computer players between human decisions, keeps the states of earlier human decisions
//! for `undo`, and reads and writes save files; nothing else leaves it.

use super::command::{COMMANDS, Command};
use super::model::{Table, Turn, standing};
use super::moves::{FILLER, Found, Groups, Moves, find};
use super::players::Players;
use super::save::{self, Deal, Provenance, SaveFile};
use super::seeds;
use super::sheet;
use super::table::{Painter, Screen, render};
use crate::bots::Kind;
use crate::compiled::Building;
use crate::diagnostic::Problem;
use crate::engine::{Action, Actor, Playable, State, counted_names, pile_label};
use crate::game::{CardGroup, CardId, Game, SeatId, Value};
use crate::report::{Findings, Source, Style};
use crate::syntax::ast::File;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How many moves a message lists before it says how many more there are.
const LISTED: usize = 12;

/// How many kinds of move a refusal lists as allowed after its reason; more are left to `moves`.
const ALLOWED_SAID: usize = 4;

/// How long a sentence listing every move may be, when they are more than [`LISTED`].
const SENTENCE: usize = 160;

/// How many lines `log` without a number shows.
const LOG_LINES: usize = 20;

/// What a session starts from.
pub struct Setup {
    /// The compiled game to play.
    pub game: Arc<Game>,
    /// The rule file the game's problems point into.
    pub source: Source,
    /// What the game was made from, for save files.
    pub origin: Provenance,
    /// The match's seed.
    pub seed: u64,
    /// Whether the deals are sealed: each match, `new` ones too, is dealt from a fresh random
    /// seed told only when the match ends (its commitment is told at the start). Else the seed
    /// was given with `--seed`, the deal is for practice, and `new` deals from the next seed.
    pub fresh_seeds: bool,
    /// The folder of the dealer's store of sealed seeds ([`seeds::folder`]), where a save of a
    /// sealed deal keeps its seed; without one, a sealed deal is neither saved nor loaded.
    pub seeds: Option<PathBuf>,
    /// The human players; every other player is a computer.
    pub humans: Vec<usize>,
    /// The computer players as `--bots` names them, and read.
    pub bots: String,
    /// The bot of each player (only the computer players' are used).
    pub kinds: Vec<Kind>,
    /// Whether the output goes to a terminal: colour (unless `NO_COLOR`), a cleared screen and a
    /// pause when the seat passes from one human to another.
    pub colour: bool,
    /// Whether the output is a terminal.
    pub terminal: bool,
    /// The width to lay text out in, in columns.
    pub width: usize,
    /// The height of the screen in rows, when known: the table is then drawn to fit it.
    pub height: Option<usize>,
}

/// What `undo` goes back to.
enum Before {
    /// The state at a human decision, with the player who decided.
    Move(State, usize),
    /// The match as it was before `new` or `load` replaced it.
    Match(Earlier),
}

/// A question to the person at the table, waiting for a yes or a no.
enum Question {
    /// Whether to leave a match that is not over for a new one.
    NewMatch,
    /// Whether to replace a file that is not a save.
    Replace(PathBuf),
}

/// A match replaced by `new` or `load`, with what `undo` says when it comes back.
struct Earlier {
    state: State,
    seed: u64,
    fresh_seeds: bool,
    humans: Vec<usize>,
    bots: String,
    kinds: Vec<Kind>,
    decided: Vec<super::analyze::Decided>,
    by: &'static str,
}

/// A move refused: the player refused, the sentence that said so, and the rule that refused
/// it, if one did.
struct Refusal {
    player: usize,
    sentence: String,
    rule: Option<Problem>,
}

/// A match in progress with the people at the table.
pub struct Session {
    setup: Setup,
    /// The rule file read once, its comments with it, for `rules` (`None` if it does not parse).
    rules: Option<File>,
    state: State,
    /// What `undo` goes back to, latest last: the states at the human decisions before this
    /// one and the matches `new` and `load` replaced.
    undo: Vec<Before>,
    /// Every decision of the match so far, for `analyze` (positions without their observers).
    decided: Vec<super::analyze::Decided>,
    /// How many log lines each player has been shown.
    shown: Vec<usize>,
    /// How many rounds' ends (score sheet rows) have been shown.
    rounds_shown: usize,
    /// The human whose screen was shown last.
    facing: Option<usize>,
    /// A human's screen waits until they press Enter (hot-seat on a terminal).
    waiting: bool,
    /// A question waiting for a yes or a no.
    asking: Option<Question>,
    /// The last move refused, for `why` (until a move is made).
    refusal: Option<Refusal>,
    /// The player whose screen this is, when each player has a screen of their own (`paradox
    /// serve`); `None` at a shared terminal, where it is the human to decide.
    seated: Option<usize>,
    /// The private tokens of the links to the match (`paradox serve`), saved with it so that
    /// the links stay the same when it is resumed; empty at a terminal.
    links: Vec<String>,
    /// The game's compiled engine while it is built behind the match, and once it is.
    faster: Option<Faster>,
    done: bool,
}

/// The compiled engine a match takes up once it is built ([`Session::switch_when_built`]).
enum Faster {
    Building(Building),
    Built(Playable),
}

impl Session {
    /// Starts the match; the text is what to print first.
    pub fn start(setup: Setup) -> (Session, String) {
        let playable = Playable::new(setup.game.clone());
        Session::start_on(setup, playable)
    }

    /// [`Session::start`] with `playable`, the setup's game with the engine its matches are to
    /// be played with: the worlds the bots search run on its kernel, if it has one.
    pub fn start_on(setup: Setup, playable: Playable) -> (Session, String) {
        let state = State::new(playable, setup.seed);
        let shown = vec![0; setup.game.players];
        let rules = crate::syntax::parse(&setup.source.text).ok();
        let mut session = Session {
            setup,
            rules,
            state,
            undo: Vec::new(),
            decided: Vec::new(),
            shown,
            rounds_shown: 0,
            facing: None,
            waiting: false,
            asking: None,
            refusal: None,
            seated: None,
            links: Vec::new(),
            faster: None,
            done: false,
        };
        let game = &session.setup.game;
        let mut out = format!("{} — {}\n", game.name, seating(game, &session.setup.humans));
        out.push_str(&session.dealt());
        out.push_str("Type `help` for the commands, `moves` for your moves.\n\n");
        session.play_bots();
        // The first screen fits under these lines, so that they stay in sight.
        let height = session.setup.height;
        let width = session.setup.width.max(1);
        let taken: usize = out.lines().map(|l| l.chars().count().div_ceil(width).max(1)).sum();
        session.setup.height = height.map(|h| h.saturating_sub(taken));
        out.push_str(&session.screen());
        session.setup.height = height;
        (session, out)
    }

    /// Lays the table out in `width` columns and `height` rows from now on (the terminal was
    /// resized).
    pub fn resize(&mut self, width: usize, height: Option<usize>) {
        self.setup.width = width;
        self.setup.height = height;
    }

    /// From now on the table, the moves and the lines handled are `player`'s, as on a screen
    /// of their own (`paradox serve`; a player number past the last is a spectator, who
    /// decides nothing and sees what every player sees); `None`: those of the human to decide,
    /// as at a shared terminal.
    pub fn seat(&mut self, player: Option<usize>) {
        self.seated = player;
    }

    /// Whether the person asked to leave.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Whether several people share the keyboard (then history would show one person's secret
    /// choice to the next).
    pub fn hot_seat(&self) -> bool {
        self.setup.humans.len() > 1
    }

    /// The prompt: the seat to decide, `>` when nobody is.
    pub fn prompt(&self) -> String {
        match (&self.asking, self.turn()) {
            _ if self.waiting => "(press Enter) ".into(),
            (Some(Question::NewMatch), _) => "new match? (y/n) ".into(),
            (Some(Question::Replace(path)), _) => format!("replace {}? (y/n) ", path.display()),
            (None, Some(seat)) => format!("{}> ", self.setup.game.seats[seat as usize].display),
            (None, None) => "> ".into(),
        }
    }

    /// What completion offers: the commands and the moves open now.
    pub fn completions(&self) -> Vec<String> {
        let mut words: Vec<String> =
            COMMANDS.iter().map(|(c, _)| c.split(' ').next().unwrap_or(c).to_string()).collect();
        let mut seen: HashSet<String> = words.iter().cloned().collect();
        for name in self.move_names() {
            if seen.insert(name.clone()) {
                words.push(name);
            }
        }
        words
    }

    /// Handles one line as read, bytes that are not UTF-8 included.
    pub fn handle_bytes(&mut self, line: &[u8]) -> String {
        match std::str::from_utf8(line) {
            Ok(text) => self.handle(text),
            Err(e) => {
                let byte = line[e.valid_up_to()];
                format!(
                    "error: the line is not UTF-8 text (byte {byte:#04x} at {}); it is ignored\n",
                    e.valid_up_to() + 1
                )
            }
        }
    }

    /// Handles one line; the text is what to print.
    pub fn handle(&mut self, line: &str) -> String {
        self.handle_showing(line, &mut |_| {})
    }

    /// [`Session::handle`], telling `progress` how a long piece of work (`analyze`) is going
    /// while it goes on.
    pub fn handle_showing(&mut self, line: &str, progress: &mut dyn FnMut(&str)) -> String {
        if self.waiting {
            self.waiting = false;
            return self.screen();
        }
        if let Some(question) = self.asking.take() {
            // Any other line (`quit`, Ctrl-D, a move) is a no, then read as usual.
            let answer = line.trim().to_lowercase();
            let (yes, no) = (matches!(answer.as_str(), "y" | "yes"), matches!(answer.as_str(), "n" | "no" | ""));
            return match question {
                Question::NewMatch if yes => self.new_match(),
                Question::NewMatch if no => "No new match: this one goes on.\n".into(),
                Question::NewMatch => format!("No new match.\n{}", self.handle_showing(line, progress)),
                Question::Replace(path) if yes => self.write_save(&path),
                Question::Replace(path) if no => format!("Not saved: {} is as it was.\n", path.display()),
                Question::Replace(_) => format!("Not saved.\n{}", self.handle_showing(line, progress)),
            };
        }
        match self.command(line) {
            Ok(command) => self.run(command, progress),
            Err(message) => format!("error: {message}\n"),
        }
    }

    /// What `line` asks for with the moves open now, as [`Session::handle`] reads it (once no
    /// `y`/`n` or Enter is awaited), without doing it.
    pub fn command(&self, line: &str) -> Result<Command, String> {
        Command::parse(line, &self.typed_moves(&self.move_list()))
    }

    fn run(&mut self, command: Command, progress: &mut dyn FnMut(&str)) -> String {
        match command {
            Command::Nothing => String::new(),
            Command::Help => super::about::within(&help(), self.setup.width),
            Command::Moves => self.moves(),
            Command::Hint => self.hint(),
            Command::Analyze => {
                super::analyze::report(&self.decided, &self.state, super::analyze::ANALYZE_BUDGET, progress)
            }
            Command::Undo => self.take_back(),
            Command::Show => self.table_and_turn(),
            Command::Score => self.score(),
            Command::Log(n) => self.log(n.unwrap_or(LOG_LINES)),
            Command::Rules => {
                super::about::summary(&self.setup.game, &self.setup.source, self.rules.as_ref(), self.setup.width)
            }
            Command::Save(file) => self.save(Path::new(&file)),
            Command::Load(file) => self.load(Path::new(&file)),
            Command::New if self.state.is_over() || self.state.failure().is_some() => self.new_match(),
            Command::New => {
                self.asking = Some(Question::NewMatch);
                "Start a new match? This one is not over (`undo` would bring it back). Type y or n.\n".into()
            }
            Command::Why => match self.refusal() {
                Some(Refusal { sentence, rule, .. }) => {
                    let said = super::table::words(sentence, self.setup.width, "  ").join("\n");
                    let rule = rule.clone().map_or(String::new(), |problem| self.diagnostic(problem));
                    format!("{said}\n{rule}")
                }
                None => "No move of yours has been refused: `why` shows the rule that refuses one.\n".into(),
            },
            Command::Ask(question) => super::about::within(&question, self.setup.width),
            Command::Quit => {
                self.done = true;
                "Goodbye.\n".into()
            }
            Command::Move(text) => self.play(&text),
        }
    }

    // ------------------------------------------------------------ whose turn

    /// The match as it stands.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The game being played.
    pub fn game(&self) -> &Game {
        &self.setup.game
    }

    /// The human player to decide now, if one is.
    pub fn deciding(&self) -> Option<usize> {
        self.turn().map(|s| self.player(s))
    }

    /// The human seat to decide now (in a secret round, the first human still to choose); never
    /// a computer's seat, and when the session is [seated](Session::seat), only that player's.
    fn turn(&self) -> Option<SeatId> {
        let mine = |s: &SeatId| self.is_human(*s) && self.seated.is_none_or(|p| self.player(*s) == p);
        match self.state.actor() {
            Actor::Seat(s) => Some(s).filter(mine),
            Actor::Together(seats) => seats.into_iter().find(mine),
            Actor::Nobody => None,
        }
    }

    /// The human players.
    pub fn humans(&self) -> &[usize] {
        &self.setup.humans
    }

    /// Whether a human decides for `seat`.
    pub fn is_human(&self, seat: SeatId) -> bool {
        Session::players(&self.setup).is_human(seat)
    }

    fn player(&self, seat: SeatId) -> usize {
        self.setup.game.seats[seat as usize].player
    }

    /// The player whose eyes the table is drawn for: the seated one, else the one to decide,
    /// else the first human.
    fn viewer(&self) -> usize {
        self.seated.unwrap_or_else(|| self.turn().map_or(self.setup.humans[0], |s| self.player(s)))
    }

    /// The refusal of the viewer's last move, if it was refused.
    fn refusal(&self) -> Option<&Refusal> {
        self.refusal.as_ref().filter(|r| r.player == self.viewer())
    }

    /// The names of the moves open now, in the order they are shown.
    pub fn move_names(&self) -> Vec<String> {
        self.move_list().into_iter().map(|(_, name)| name).collect()
    }

    /// The moves of `list` (see [`Session::move_list`]) as typed text is read against them.
    fn typed_moves(&self, list: &[(Action, String)]) -> Moves {
        let groups = self.turn().and_then(|seat| self.groups(seat, list));
        Moves { names: list.iter().map(|(_, name)| name.clone()).collect(), groups }
    }

    /// The cards of each move, when the moves are groups of cards chosen at once (a menu
    /// action beside them takes none, and is typed by its name).
    fn groups(&self, seat: SeatId, list: &[(Action, String)]) -> Option<Groups> {
        let game = self.state.game();
        let name = |c: CardId| game.card_names.get(c as usize).cloned().unwrap_or_default();
        let choice = self.state.choice_cards(seat)?;
        let mut of_move = Vec::with_capacity(list.len());
        let mut declared = Vec::with_capacity(list.len());
        let mut ids = std::collections::BTreeSet::new();
        for (action, move_name) in list {
            let (value, with) = self.state.action_key(seat, *action)?;
            let g = match value {
                Value::Group(g) => g,
                _ => CardGroup::EMPTY,
            };
            ids.extend(g.cards());
            of_move.push(g.cards().map(name).collect());
            // A declaration is named by its flag's word, after the move's name.
            declared.push(with.then(|| move_name.rsplit(' ').next().unwrap_or_default().to_lowercase()));
        }
        // Every card of the choice, so that one in no move is still read as that card.
        ids.extend(choice);
        let mut cards: Vec<String> = Vec::new();
        for c in ids {
            let n = name(c);
            if !cards.contains(&n) {
                cards.push(n);
            }
        }
        Some(Groups { cards, of_move, declared })
    }

    /// The moves open now with their actions, in the order people are shown them (cards as the
    /// table sorts them).
    fn move_list(&self) -> Vec<(Action, String)> {
        let Some(seat) = self.turn() else { return Vec::new() };
        (self.state.shown_actions(seat).into_iter())
            .filter_map(|a| self.state.action_name(seat, a).map(|n| (a, n)))
            .collect()
    }

    /// Who decides in this match: the people, the computer's bots and the seed.
    fn players(setup: &Setup) -> Players<'_> {
        Players { game: &setup.game, seed: setup.seed, humans: &setup.humans, kinds: &setup.kinds }
    }

    /// Lets the bots search on the game's compiled engine from the first move after `building`
    /// is done (the match plays the same: only their thinking is faster).
    pub fn switch_when_built(&mut self, building: Building) {
        self.faster = Some(Faster::Building(building));
    }

    /// Takes up the compiled engine if its build is done: the match being played, and any
    /// taken back by `undo`, lend it to the worlds the bots search.
    fn take_up_engine(&mut self) {
        if let Some(Faster::Building(building)) = &self.faster
            && let Some(built) = building.ready()
        {
            self.faster = Some(Faster::Built(built));
        }
        if let Some(Faster::Built(faster)) = &self.faster {
            self.state.adopt_kernel(faster);
        }
    }

    /// The computer players decide until a human must (or the match ends).
    fn play_bots(&mut self) {
        self.take_up_engine();
        Session::players(&self.setup).play_bots(&mut self.state, &mut self.decided);
    }

    // ------------------------------------------------------------ screens

    /// What happened since the player last looked, the table, and whose turn it is.
    fn screen(&mut self) -> String {
        let player = self.viewer();
        let mut out = String::new();
        if self.setup.humans.len() > 1 && self.facing.is_some_and(|f| f != player) {
            if self.setup.terminal {
                out.push_str("\u{1b}[2J\u{1b}[H");
            }
            out.push_str(&format!("--- pass to {} ---\n", self.name_of(player)));
            if self.setup.terminal && !self.waiting {
                self.waiting = true;
                self.facing = Some(player);
                out.push_str(&format!("{}, press Enter when you are ready.\n", self.name_of(player)));
                return out;
            }
        }
        self.facing = Some(player);
        let told = self.state.told(player);
        let (log, ends) = (&told.lines, &told.ends);
        let mut from = self.shown[player].min(log.len());
        // Each round that ended since: its news, then the score sheet; on a terminal, a pause.
        for (round, end) in ends.iter().enumerate().skip(self.rounds_shown) {
            let end = (*end).clamp(from, log.len());
            let sheet = sheet::render(&self.state, round + 1, self.setup.width, self.setup.height.map(|h| h / 2));
            // On a screen of known height the round's news is paged to leave room for the sheet.
            let room = self.setup.height.map_or(usize::MAX, |h| h.saturating_sub(sheet.lines().count() + 2));
            out.push_str(&super::table::news_lines(&log[from..end], room, self.setup.width).join("\n"));
            out.push('\n');
            out.push_str(&sheet);
            (from, self.rounds_shown) = (end, round + 1);
            // A terminal pauses at the end of a round; a screen of known height at the end of the
            // match too, as the table comes after.
            let pause = self.setup.height.is_some() || (self.setup.terminal && !self.state.is_over());
            if pause && self.state.failure().is_none() {
                self.shown[player] = from;
                self.waiting = true;
                out.push_str("Press Enter to go on.\n");
                return out;
            }
            out.push('\n');
        }
        self.shown[player] = log.len();
        // The others' moves since the player last looked stay on screen, with what followed.
        let others = told.choices.iter().find(|(line, seat)| *line >= from && self.player(*seat) != player);
        let kept = others.map_or(0, |(line, _)| log.len() - line);
        out.push_str(&self.draw(log[from..].to_vec(), kept));
        out
    }

    /// The table as the player to decide (else the first human) sees it, with the decision
    /// asked: what a screen of the table shows, or a browser would.
    pub fn table(&self) -> Table {
        let mut table = Table::of(&self.state, self.viewer());
        table.turn = self.turn_asked();
        table.refusal = self.refusal().map(|r| r.sentence.clone());
        table
    }

    /// The table with `news` before it (its last `kept` lines never paged away) and the line
    /// saying who is to act and what is expected, fitted to the screen.
    fn draw(&self, news: Vec<String>, kept: usize) -> String {
        let mut table = self.table();
        table.news = news;
        let painter = Painter { colour: self.setup.colour };
        let screen = Screen { columns: self.setup.width, rows: self.setup.height, kept };
        render(&table, &painter, screen, &self.expected(table.turn.as_ref()))
    }

    /// The table and the line saying who is to act and what is expected, whole (`show`):
    /// nothing compacted to fit the screen's height.
    fn table_and_turn(&self) -> String {
        let mut table = self.table();
        table.news = Vec::new();
        let painter = Painter { colour: self.setup.colour };
        let screen = Screen { columns: self.setup.width, rows: None, kept: 0 };
        render(&table, &painter, screen, &self.expected(table.turn.as_ref()))
    }

    /// The decision asked of the human to decide now.
    fn turn_asked(&self) -> Option<Turn> {
        let seat = self.turn()?;
        let list = self.move_list();
        let moves: Vec<String> = list.iter().map(|(_, name)| name.clone()).collect();
        let summary = match self.groups(seat, &list) {
            Some(groups) if counted_names(&moves).len() > LISTED => Some(groups.summary()),
            _ => None,
        };
        let fallback = self.state.fallback_rules(seat);
        let names: Vec<&str> = fallback.iter().map(String::as_str).collect();
        Some(Turn {
            seat: self.setup.game.seats[seat as usize].display.clone(),
            secret: matches!(self.state.actor(), Actor::Together(_)),
            moves,
            summary,
            rule: self.rule_said(&names, None),
        })
    }

    fn expected(&self, turn: Option<&Turn>) -> String {
        if let Some(problem) = self.state.failure() {
            return format!("The match stopped:\n{}{}", self.diagnostic(problem.clone()), self.seed_told());
        }
        if let Some(outcome) = self.state.outcome() {
            let mut out = crate::trace::result_line(&self.state);
            if let [human] = self.setup.humans[..] {
                let verdict = match () {
                    _ if outcome.winners.is_empty() => "It is a draw.",
                    _ if outcome.winners.contains(&human) => "You win!",
                    _ => "You lose.",
                };
                out.push_str(&format!("{verdict}\n"));
            }
            out.push_str(&self.seed_told());
            out.push_str("Type `new` for another match, or `quit`.\n");
            return out;
        }
        let Some(turn) = turn else { return "Nobody can move.\n".into() };
        let how = if turn.secret { "Your secret choice (the others choose at the same time)" } else { "Your turn" };
        let list = counted_names(&turn.moves);
        let shown = match &turn.summary {
            Some(summary) => summary.clone(),
            // A list that reads short in a sentence (cards of a few suits) is given whole.
            None if list.len() <= LISTED || in_a_sentence(&list).len() <= SENTENCE => in_a_sentence(&list),
            None => format!("{}, ...", in_a_sentence(&list[..LISTED])),
        };
        let s = if turn.moves.len() == 1 { "" } else { "s" };
        // Why the moves are only these, when the rules' first demand cannot be met.
        // A sentence, not a list: broken between words here, not after its commas.
        let rule = turn.rule.as_ref().map_or(String::new(), |rule| {
            super::table::words(&format!("(Only these: {rule}.)"), self.setup.width.saturating_sub(2), "  ").join("\n")
                + "\n"
        });
        format!("{how} at {} (*), {} move{s}: {shown}\n{rule}", turn.seat, turn.moves.len())
    }

    /// The display name a player goes by: their first seat's.
    fn name_of(&self, player: usize) -> String {
        let seats = &self.setup.game.seats;
        seats.iter().find(|s| s.player == player).map_or(format!("player {}", player + 1), |s| s.display.clone())
    }

    fn diagnostic(&self, problem: Problem) -> String {
        let findings = [Findings { source: self.setup.source.clone(), problems: vec![problem] }];
        let style = if self.setup.colour { Style::Colour } else { Style::Plain };
        let text = crate::report::render_problems(&findings, style, self.setup.width);
        // The rule file's lines are quoted as written: those wider than the screen are cut.
        text.lines().map(|l| super::table::cut_to(l, self.setup.width) + "\n").collect()
    }

    // ------------------------------------------------------------ commands

    fn moves(&self) -> String {
        let names = self.move_names();
        if names.is_empty() {
            return "You have no move to make now.\n".into();
        }
        let groups = self.turn().and_then(|seat| self.groups(seat, &self.move_list()));
        match groups {
            Some(groups) if names.len() > LISTED => groups.listing(),
            _ => names.iter().enumerate().map(|(i, n)| format!("  #{} {n}\n", i + 1)).collect(),
        }
    }

    fn hint(&mut self) -> String {
        self.take_up_engine();
        let Some(seat) = self.turn() else { return "There is nothing to decide now.\n".into() };
        if let Some(exact) = exact_hint(&self.state) {
            return exact;
        }
        let suggested = Session::players(&self.setup).bot_choice(&self.state, Kind::strongest(), seat);
        match suggested.and_then(|a| self.state.action_name(seat, a)) {
            Some(name) => format!("The computer would play: {name}\n"),
            None => "The computer has no suggestion here.\n".into(),
        }
    }

    /// Takes back the last human decision, if it is the decision of the person at the keyboard
    /// (the one to decide now; when nobody is, the one who decided last): in hot-seat play
    /// nobody takes back another's decision, nor their own past another's made since.
    fn take_back(&mut self) -> String {
        let last = match self.undo.last() {
            None => return "There is nothing to undo.\n".into(),
            Some(Before::Match(_)) => return self.bring_back(),
            Some(Before::Move(_, last)) => *last,
        };
        let me = self.turn().map_or(last, |s| self.player(s));
        if last != me {
            let who = self.name_of(last);
            let decided = |b: &Before| matches!(b, Before::Move(_, p) if *p == me);
            return if self.undo.iter().any(decided) {
                format!("{who} has decided since your last decision: you can take back only your own.\n")
            } else {
                format!("There is nothing of yours to undo: the last decision was {who}'s.\n")
            };
        }
        if let Some(Before::Move(state, _)) = self.undo.pop() {
            self.state = state;
        }
        let now = self.state.position().decisions;
        self.decided.retain(|(s, _, _)| s.position().decisions < now);
        // The log is now a prefix of the one the players have seen.
        for p in 0..self.shown.len() {
            self.shown[p] = self.shown[p].min(self.state.log_for(p).len());
        }
        self.rounds_shown = self.rounds_shown.min(sheet::rows(&self.state).len());
        self.play_bots();
        format!("Back to your previous decision.\n{}", self.screen())
    }

    /// Brings back the match a `new` or `load` replaced, as it was.
    fn bring_back(&mut self) -> String {
        let Some(Before::Match(earlier)) = self.undo.pop() else { return "There is nothing to undo.\n".into() };
        let Earlier { state, seed, fresh_seeds, humans, bots, kinds, decided, by } = earlier;
        (self.state, self.setup.seed, self.setup.fresh_seeds) = (state, seed, fresh_seeds);
        (self.setup.humans, self.setup.bots, self.setup.kinds, self.decided) = (humans, bots, kinds, decided);
        self.shown = (0..self.setup.game.players).map(|p| self.state.log_for(p).len()).collect();
        self.rounds_shown = sheet::rows(&self.state).len();
        self.refusal = None;
        let seed = if self.setup.fresh_seeds { String::new() } else { format!(" (seed {seed})") };
        format!("Back to the match before `{by}`{seed}.\n{}", self.screen())
    }

    /// Keeps the match as it stands for `undo`, before `new` or `load` replaces it.
    fn keep(&mut self, by: &'static str) {
        let setup = &self.setup;
        let earlier = Earlier {
            state: self.state.clone(),
            seed: setup.seed,
            fresh_seeds: setup.fresh_seeds,
            humans: setup.humans.clone(),
            bots: setup.bots.clone(),
            kinds: setup.kinds.clone(),
            decided: std::mem::take(&mut self.decided),
            by,
        };
        self.undo.push(Before::Match(earlier));
    }

    /// The score sheet, or without one the status lines and the standing.
    fn score(&self) -> String {
        if self.setup.game.sheet.is_some() {
            return sheet::render(&self.state, usize::MAX, self.setup.width, None);
        }
        let mut lines = self.state.status();
        lines.extend(standing(&self.state));
        if lines.is_empty() {
            return "There is no score to show now.\n".into();
        }
        lines.iter().map(|l| format!("{l}\n")).collect()
    }

    fn log(&self, n: usize) -> String {
        // An event may take several lines (a deal, a line per hand): N counts lines.
        let log = self.state.log_for(self.viewer());
        let lines: Vec<String> = log.iter().flat_map(|l| l.lines()).map(String::from).collect();
        indented(&lines[lines.len().saturating_sub(n)..])
    }

    /// `save FILE`: a save, or another file a person at the terminal agreed to replace, is
    /// replaced; the files of the game being played never are.
    fn save(&mut self, path: &Path) -> String {
        match self.may_replace(path) {
            Ok(true) => self.write_save(path),
            Ok(false) => {
                self.asking = Some(Question::Replace(path.to_path_buf()));
                format!("{} is not a paradox save: replace it with this match? Type y or n.\n", path.display())
            }
            Err(why) => format!("error: cannot save to {}: {why}\n", path.display()),
        }
    }

    /// Whether a save may go to `path` without asking (`Ok(false)`: ask first); `Err` says why
    /// it may not go there at all.
    fn may_replace(&self, path: &Path) -> Result<bool, String> {
        let canonical = |p: &Path| std::fs::canonicalize(p).ok();
        let in_play = |target: &PathBuf| {
            self.setup.origin.sources.iter().any(|h| canonical(Path::new(&h.file)).as_ref() == Some(target))
        };
        if canonical(path).is_some_and(|target| in_play(&target)) {
            return Err("it is the rule file or scenario being played; name another file".into());
        }
        if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) || save::is_save(path) {
            return Ok(true);
        }
        match self.setup.terminal {
            true => Ok(false),
            false => Err("it is not a paradox save, and another file is replaced only when a person at the terminal says so; name another file".into()),
        }
    }

    /// Writes the save: what the match is made from, its deal, and the people's moves (see
    /// [`save`]); a sealed deal's seed goes to the dealer's store, not into the file.
    fn write_save(&self, path: &Path) -> String {
        let unsaid = match self.save_to(path) {
            Ok(unsaid) => unsaid,
            Err(why) => return format!("error: cannot save to {}: {why}\n", path.display()),
        };
        let seats = &self.setup.game.seats;
        let people: Vec<&str> =
            unsaid.iter().filter(|s| self.is_human(**s)).map(|s| seats[*s as usize].display.as_str()).collect();
        let kept = match (&self.setup.seeds, self.setup.fresh_seeds) {
            (Some(folder), true) => format!(
                " It holds the moves, not the deal: the seed stays in {}, and the save loads only where it is kept.",
                folder.display()
            ),
            _ => String::new(),
        };
        match people[..] {
            [] => format!("Saved to {}.{kept}\n", path.display()),
            _ => format!(
                "Saved to {}, without the secret choices made so far ({} will choose again after loading).{kept}\n",
                path.display(),
                people.join(", ")
            ),
        }
    }

    /// Writes the save file (as `save` does) without asking; the seats whose secret
    /// choices it leaves out, or why it could not be written.
    pub fn save_to(&self, path: &Path) -> Result<Vec<SeatId>, String> {
        let seed = self.setup.seed;
        let deal = match (&self.setup.seeds, self.setup.fresh_seeds) {
            (_, false) => Deal::Practice(seed),
            (None, true) => {
                return Err(format!("there is no folder to keep a sealed deal's seed in: set {}", seeds::VARIABLE));
            }
            (Some(folder), true) => {
                seeds::keep(folder, seed)?;
                Deal::Sealed(super::commitment(seed))
            }
        };
        // The secret choices of the round waiting now are left out, the computer's with them: on
        // loading, the computer chooses again, and the same.
        let unsaid = self.state.chosen_in_secret();
        let sealed_at = self.state.position().decisions - unsaid.len() as u64;
        let human_before = |(before, seat, _): &&super::analyze::Decided| {
            self.is_human(*seat) && before.position().decisions < sealed_at
        };
        let moves = self.decided.iter().filter(human_before).map(|(_, seat, action)| (*seat, *action)).collect();
        // The position the moves replay to: where the first move left out was made, if any.
        let left_out = self.decided.iter().find(|d| self.is_human(d.1) && d.0.position().decisions >= sealed_at);
        let position = left_out.map_or(self.state.position(), |(before, _, _)| before.position());
        let mut save = SaveFile {
            version: save::VERSION,
            origin: self.setup.origin.clone(),
            humans: self.setup.humans.clone(),
            bots: self.setup.bots.clone(),
            deal,
            moves,
            links: self.links.clone(),
            check: String::new(),
        };
        save.check = save::check(seed, &save.body(), position);
        save::write(path, &save)?;
        Ok(unsaid)
    }

    /// `load FILE`: the match the save holds, played again from its deal and moves; a save that
    /// does not fit this game, or whose moves are not legal, is refused and the match goes on.
    fn load(&mut self, path: &Path) -> String {
        let style = if self.setup.colour { Style::Colour } else { Style::Plain };
        let refused =
            |why: String| format!("error: cannot load {}: {why}\nThe match goes on as it was.\n", path.display());
        let (save, body) = match save::read(path, &self.setup.origin, style, self.setup.width) {
            Ok(read) => read,
            Err(diagnostic) => return format!("{diagnostic}The match goes on as it was.\n"),
        };
        let game = self.setup.game.clone();
        if save.humans.is_empty() || save.humans.iter().any(|h| *h >= game.players) {
            return refused("its human players do not fit the game".into());
        }
        let kinds = match super::bot_kinds(&save.bots, game.players, &save.humans) {
            Ok(kinds) => kinds,
            Err(e) => return refused(format!("its bots: {e}")),
        };
        let (seed, sealed) = match &save.deal {
            Deal::Practice(seed) => (*seed, false),
            Deal::Sealed(commitment) => {
                let found = match &self.setup.seeds {
                    Some(folder) => seeds::find_in(folder, commitment),
                    None => Err(seeds::Missing::NoFolder),
                };
                match found {
                    Ok(seed) => (seed, true),
                    Err(missing) => return refused(missing.explain(commitment)),
                }
            }
        };
        let players = Players { game: &game, seed, humans: &save.humans, kinds: &kinds };
        let (state, decided) = match players.replay(self.state.playable(), &save.moves) {
            Ok(replayed) => replayed,
            Err(why) => return refused(why),
        };
        if save::check(seed, &body, state.position()) != save.check {
            return refused(
                "its check does not match the match its moves replay to: it was changed after it was saved, \
                 or saved by a paradox that plays differently"
                    .into(),
            );
        }
        self.keep("load");
        (self.state, self.decided, self.setup.seed, self.setup.fresh_seeds) = (state, decided, seed, sealed);
        (self.setup.humans, self.setup.bots, self.setup.kinds) = (save.humans, save.bots, kinds);
        self.links = save.links;
        self.refusal = None;
        // What the save replays is not news: it was all shown before it was saved.
        self.shown = (0..game.players).map(|p| self.state.log_for(p).len()).collect();
        self.rounds_shown = sheet::rows(&self.state).len();
        format!("Loaded {}.\n{}", path.display(), self.screen())
    }

    /// The private tokens of the links to the match, as saved with it (`paradox serve`).
    pub fn links(&self) -> &[String] {
        &self.links
    }

    /// Keeps `links` as the tokens of the links to the match, saved with it from now on.
    pub fn set_links(&mut self, links: Vec<String>) {
        self.links = links;
    }

    /// Loads the save at `path` in place of the match, as `load` does (`paradox serve
    /// --resume`); `Err` is what `load` says when it refuses.
    pub fn resume(&mut self, path: &Path) -> Result<(), String> {
        let said = self.load(path);
        if said.starts_with("Loaded ") { Ok(()) } else { Err(said) }
    }

    fn new_match(&mut self) -> String {
        self.keep("new");
        self.refusal = None;
        self.setup.seed = if self.setup.fresh_seeds { super::random_seed() } else { self.setup.seed.wrapping_add(1) };
        self.state = State::new(self.state.playable(), self.setup.seed);
        self.shown = vec![0; self.setup.game.players];
        self.rounds_shown = 0;
        self.play_bots();
        let screen = self.screen();
        format!("A new match, {}{screen}", self.dealt())
    }

    // ------------------------------------------------------------ moves

    /// Typed text with each word that is an enumeration member's name written as that member is
    /// shown (`queen of clubs` is `Q of clubs` when `queen` shows as `Q`).
    fn spelled(&self, typed: &str) -> String {
        let shown = |word: &str| {
            (self.setup.game.enums.iter().flat_map(|e| &e.members))
                .find(|m| m.name.eq_ignore_ascii_case(word))
                .and_then(|m| m.display.clone())
                .filter(|d| !d.contains(char::is_whitespace))
        };
        let words: Vec<String> = typed.split_whitespace().map(|w| shown(w).unwrap_or_else(|| w.to_string())).collect();
        words.join(" ")
    }

    fn play(&mut self, typed: &str) -> String {
        let Some(seat) = self.turn() else {
            return if self.state.is_over() {
                "The match is over: type `new` for another, or `quit`.\n".into()
            } else {
                "Nobody at the table can move now: type `new` for another match, or `quit`.\n".into()
            };
        };
        let moves = self.move_list();
        let finder = self.typed_moves(&moves);
        let names = &finder.names;
        let typed = match finder.find(typed) {
            Found::None => &self.spelled(typed),
            _ => typed,
        };
        match finder.find(typed) {
            Found::One(i) => {
                let before = self.state.unobserved();
                self.undo.push(Before::Move(self.state.clone(), self.player(seat)));
                if let Err(refusal) = self.state.apply(seat, moves[i].0) {
                    self.undo.pop();
                    return format!("error: {refusal}\n");
                }
                self.refusal = None;
                self.decided.push((before, seat, moves[i].0));
                self.play_bots();
                self.screen()
            }
            Found::Several(which) => {
                let list: Vec<&str> = which.iter().take(LISTED).map(|i| names[*i].as_str()).collect();
                let list = match which.len().saturating_sub(LISTED) {
                    0 => or(&list.join(", ")),
                    k => format!("{} and {k} more", list.join(", ")),
                };
                let more = if finder.groups.is_some() { "every card of the move" } else { "more of the name" };
                format!("`{}` could be {list}: type {more}.\n", typed.trim())
            }
            Found::OutOfRange(n) => format!("There is no move #{n}: there are {} (type `moves`).\n", names.len()),
            Found::TooVague => format!(
                "`{}` could be read in too many ways among {} moves: type a move's whole name, or its number (#N).\n",
                typed.trim(),
                names.len()
            ),
            Found::None => self.refuse(seat, typed),
        }
    }

    /// Why cards typed for a choice of several are no move: how many a move takes, or the rule
    /// that forbids them; `None` if the text names no cards.
    fn refuse_group(&mut self, seat: SeatId, typed: &str) -> Option<String> {
        let list = self.move_list();
        let finder = self.typed_moves(&list);
        let groups = finder.groups.as_ref()?;
        let mut cards = super::moves::cards_typed(typed, &finder.names, groups)?;
        cards.sort_by_key(|c| groups.cards.iter().position(|x| x == c));
        let name = cards.join(" + ");
        if !groups.of_move.iter().any(|g| g.len() == cards.len()) {
            return Some(format!("{name} is no move: each move here takes {}.\n", groups.sizes()));
        }
        let problem = self.state.refusal(seat, &name)?;
        Some(self.refused(format!("You may not play {name} now: the rules do not allow it here."), Some(problem)))
    }

    /// Keeps a refusal for `why`, and says it (within the screen's width).
    fn refused(&mut self, sentence: String, rule: Option<Problem>) -> String {
        let hint = if rule.is_some() { " (`why` shows the rule.)" } else { "" };
        let text = format!("{sentence}{hint}");
        self.refusal = Some(Refusal { player: self.viewer(), sentence, rule });
        super::table::words(&text, self.setup.width, "  ").join("\n") + "\n"
    }

    /// Why nothing legal matches `typed`: the rule that forbids it, the card it names being out
    /// of reach, or that it is unknown.
    fn refuse(&mut self, seat: SeatId, typed: &str) -> String {
        if let Some(why) = self.refuse_group(seat, typed) {
            return why;
        }
        let forbidden = self.state.forbidden(seat);
        let names: Vec<String> = forbidden.iter().map(|(n, _)| n.clone()).collect();
        if let Found::One(i) = find(typed, &names) {
            let (name, problem) = &forbidden[i];
            let allowed = self.move_names();
            let condition = self.setup.source.text.get(problem.span.start..problem.span.end).unwrap_or("");
            let counted = counted_names(&allowed);
            let list = or(&in_a_sentence(&counted));
            let refused = self.not_allowed(name);
            let broken = self.state.broken_rules(seat, name);
            let sentence = match (obligation(name, &allowed, condition), self.reason(problem.span, &broken)) {
                (Some(must), _) => format!("{refused}: you must play {must}: {list}."),
                // A long list of what is allowed would hide the reason: `why` and `moves` give it.
                (None, Some(reason)) if counted.len() > ALLOWED_SAID => format!("{refused}: {reason}."),
                (None, Some(reason)) => format!("{refused}: {reason} (allowed now: {list})."),
                (None, None) => format!("{refused}: allowed now are only {list}."),
            };
            return self.refused(sentence, Some(problem.clone()));
        }
        if let Some(why) = self.out_of_reach(seat, typed) {
            return why;
        }
        let moves = counted_names(&self.move_names());
        let listed = if moves.len() <= LISTED { format!(" ({})", moves.join(", ")) } else { String::new() };
        let text =
            format!("`{}` is not a command, nor one of your moves now{listed}: type `help` or `moves`.", typed.trim());
        super::table::words(&text, self.setup.width, "  ").join("\n") + "\n"
    }

    /// `You may not play 4 of spades now` for a card, `North takes the trick is not allowed
    /// now` for another move.
    fn not_allowed(&self, name: &str) -> String {
        if self.setup.game.card_names.iter().any(|c| c == name) {
            format!("You may not play {name} now")
        } else {
            format!("{name} is not allowed now")
        }
    }

    /// The reason the rule file gives for the condition at `span` that refused a move, in its
    /// own words, the first sentence of a comment: over the deepest of the definitions `broken`
    /// (through which the condition is false) that has one, else over the definition the
    /// condition calls (`required(s, c)`), else over the `choose` it belongs to.
    fn reason(&self, span: crate::syntax::ast::Span, broken: &[String]) -> Option<String> {
        let text = &self.setup.source.text;
        let condition = text.get(span.start..span.end)?.trim();
        let called = condition.split_once('(').map(|(name, _)| name.trim());
        let choose = text.get(..span.start)?.rfind("choose");
        let names: Vec<&str> = broken.iter().rev().map(String::as_str).chain(called).collect();
        self.rule_said(&names, choose)
    }

    /// The first sentence of the comment over the first of the definitions `names` that has
    /// one, else over the place `fallback` in the rule file, as it reads after a colon.
    fn rule_said(&self, names: &[&str], fallback: Option<usize>) -> Option<String> {
        let file = self.rules.as_ref()?;
        let text = &self.setup.source.text;
        let said = |at: usize| {
            let words: Vec<&str> = file.extra.above(text, at).iter().map(|c| c.words(text)).collect();
            Some(words.join(" ")).filter(|w| !w.is_empty())
        };
        let defined = |name: &str| match &file.body {
            crate::syntax::ast::FileBody::Rules(items) => items.iter().find_map(|item| match item {
                crate::syntax::ast::Item::Define(d) if d.name.name == name => Some(d.span.start),
                _ => None,
            }),
            _ => None,
        };
        let reason = names.iter().find_map(|name| defined(name).and_then(said)).or_else(|| fallback.and_then(said))?;
        let reason = first_sentence(&reason);
        // `A follower ...` reads on after a colon as `a follower ...`; `North ...`, `True/False
        // ...` stay as they are.
        let word = reason.split(' ').next().unwrap_or_default();
        let game = &self.setup.game;
        let named = game.seats.iter().map(|s| &s.display).chain(game.sides.iter().map(|t| &t.display));
        let plain = word.chars().skip(1).all(char::is_lowercase) && !named.into_iter().any(|n| n == word);
        let mut chars = reason.chars();
        let first = chars.next()?;
        Some(if plain { format!("{}{}", first.to_lowercase(), chars.as_str()) } else { reason.to_string() })
    }

    /// Why a typed move names no move when it names a card the decision does not reach (`bid 3`
    /// with that card spent): where the card is, and where the choice is made from.
    fn out_of_reach(&mut self, seat: SeatId, typed: &str) -> Option<String> {
        let player = self.player(seat);
        let (game, layout) = (self.state.game(), self.state.layout());
        // Only cards the player sees where they lie, and of those named alike, the seat's own.
        let seen: Vec<(String, CardId, usize)> = (self.state.out_of_reach(seat).into_iter())
            .filter_map(|(name, card)| Some((name, card, self.state.pile_of(card)?)))
            .filter(|(_, _, pile)| self.state.sees(player, *pile))
            .collect();
        let names: Vec<String> = seen.iter().map(|(n, _, _)| n.clone()).collect();
        let named: Vec<&(String, CardId, usize)> = match find(typed, &names) {
            Found::One(i) => vec![&seen[i]],
            Found::Several(all) => all.iter().map(|i| &seen[*i]).collect(),
            _ => return None,
        };
        let own = |(_, _, pile): &&&(String, CardId, usize)| layout.seat_of_pile(*pile) == Some(seat);
        let (name, card, pile) = match named.iter().filter(own).collect::<Vec<_>>()[..] {
            [one] => (*one).clone(),
            _ => return None,
        };
        let from: Vec<String> = self.state.choice_piles(seat).iter().map(|p| pile_label(game, layout, *p)).collect();
        let card = &game.card_names[card as usize];
        let sentence = format!(
            "{}: {card} is in {}, and the choice is made from {}.",
            self.not_allowed(&name),
            pile_label(game, layout, pile),
            or(&from.join(", "))
        );
        Some(self.refused(sentence, None))
    }
}

impl Session {
    /// The line that says how the match is dealt: a sealed deal's commitment, or the seed of a
    /// practice deal.
    fn dealt(&self) -> String {
        let seed = self.setup.seed;
        if self.setup.fresh_seeds {
            format!(
                "deal sealed: its seed has the SHA-256 {}, and is told when the match ends\n",
                super::commitment(seed)
            )
        } else {
            format!("practice deal: seed {seed}, dealt again by --seed {seed}\n")
        }
    }

    /// The line that tells the seed once the match is over, to check and replay the deal.
    fn seed_told(&self) -> String {
        let seed = self.setup.seed;
        match self.setup.fresh_seeds {
            true => {
                format!("The seed was {seed} (SHA-256 as sealed at the start).\nReplay this deal with --seed {seed}.\n")
            }
            false => format!("Replay this deal with --seed {seed}.\n"),
        }
    }
}

/// What a tier's condition (`c.colour == led`) asks of a move, when the allowed moves make it
/// plain: the field it names and the word every allowed move's name holds and the refused
/// one's lacks (`colour red`).
fn obligation(refused: &str, allowed: &[String], condition: &str) -> Option<String> {
    // Only `x.field == value`, where value is a name (`led`, `bid[s].suit`): no `and`, no `or`.
    let (left, right) = condition.split_once("==")?;
    let (item, field) = left.trim().split_once('.')?;
    let name =
        |text: &str, more: &str| !text.is_empty() && text.chars().all(|c| c.is_alphanumeric() || more.contains(c));
    if !name(item, "_") || !name(field, "_") || !name(right.trim(), "_.[]") {
        return None;
    }
    let words = |name: &str| name.split_whitespace().map(str::to_lowercase).collect::<Vec<_>>();
    let first = allowed.first()?;
    let refused = words(refused);
    let shared = first.split_whitespace().find(|w| {
        let w = w.to_lowercase();
        let plain = !w.chars().all(|c| c.is_ascii_digit()) && !FILLER.contains(&w.as_str());
        plain && !refused.contains(&w) && allowed.iter().all(|a| words(a).contains(&w))
    })?;
    Some(format!("{} {shared}", field.replace('_', " ")))
}

/// A text's first sentence, without its full stop (`A set holds one Complete. (...)` is `A set
/// holds one Complete`).
fn first_sentence(text: &str) -> &str {
    let end = text.find(". ").unwrap_or(text.len());
    text[..end].trim_end_matches('.')
}

/// `a`, `a or b`, `a, b or c` from a list written with commas.
fn or(list: &str) -> String {
    match list.rsplit_once(", ") {
        Some((init, last)) if !list.contains("; ") => format!("{init} or {last}"),
        _ => list.to_string(),
    }
}

/// Who plays which seats: `you play North and South; the computer plays the others`.
fn seating(game: &Game, humans: &[usize]) -> String {
    let seats_of = |p: usize| {
        let names: Vec<&str> = game.seats.iter().filter(|s| s.player == p).map(|s| s.display.as_str()).collect();
        names.join(" and ")
    };
    let mut parts: Vec<String> = Vec::new();
    match humans {
        [one] => parts.push(format!("you play {}", seats_of(*one))),
        _ => parts.extend(humans.iter().map(|h| format!("a person plays {}", seats_of(*h)))),
    }
    if humans.len() < game.players {
        parts.push("the computer plays the others".into());
    }
    parts.join("; ")
}

/// Move names for a sentence, a run of names `... of Y` of one `Y` given once, the runs apart
/// by semicolons: `2, 6, A of diamonds; 3 of hearts`.
pub fn in_a_sentence(names: &[String]) -> String {
    let mut runs: Vec<(Vec<&str>, Option<&str>)> = Vec::new();
    for name in names {
        let split = name.rsplit_once(" of ");
        match (split, runs.last_mut()) {
            (Some((head, tail)), Some((heads, Some(last)))) if *last == tail => heads.push(head),
            (Some((head, tail)), _) => runs.push((vec![head], Some(tail))),
            (None, _) => runs.push((vec![name], None)),
        }
    }
    let grouped = runs.iter().any(|(heads, _)| heads.len() > 1);
    let runs: Vec<String> = (runs.iter())
        .map(|(heads, tail)| match tail {
            Some(tail) => format!("{} of {tail}", heads.join(", ")),
            None => heads.join(", "),
        })
        .collect();
    runs.join(if grouped { "; " } else { ", " })
}

fn indented(lines: &[String]) -> String {
    lines.iter().flat_map(|l| l.lines()).map(|l| format!("  {l}\n")).collect()
}

fn help() -> String {
    let mut out = String::from("Type a move by its name, or a short form: `red 5`, `r5`, `bid 7`, `7`, or `#3` for ");
    out.push_str("the third of `moves`. Tab completes commands and moves. The commands, which come before ");
    out.push_str("moves and may be shortened to any start that fits no other (`q`, `sc`):\n");
    for (name, what) in COMMANDS {
        out.push_str(&format!("  {name:<10} {what}\n"));
    }
    out
}

/// The best move by exact analysis, where the position is open and small enough.
fn exact_hint(state: &State) -> Option<String> {
    let (_, answer, until) = crate::solve::quick_best(state)?;
    let (_, best) = answer.line.first()?;
    Some(format!(
        "Best play to the end of this {until}, by exact analysis: {best}, worth {:+} ({}).\n",
        answer.value, answer.measure
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Settings;
    use crate::repl::table::{Detail, diagram};

    /// A session of `file` with `humans` at the table and random bots in the other seats.
    fn session(file: &str, humans: &[usize]) -> Session {
        let path = Path::new(file);
        let settings = Settings::default();
        let game = Arc::new(crate::load::load(path, &settings).unwrap_or_else(|_| panic!("{file} loads")));
        let (source, origin) = super::super::origin(path, &settings).expect("the rule file reads");
        let kinds = vec![Kind::Random; game.players];
        let (humans, bots) = (humans.to_vec(), "random".into());
        let setup = Setup {
            game,
            source,
            origin,
            seed: 1,
            fresh_seeds: false,
            seeds: None,
            humans,
            bots,
            kinds,
            colour: false,
            terminal: false,
            width: 100,
            height: None,
        };
        Session::start(setup).0
    }

    #[test]
    fn the_bots_take_up_the_compiled_engine_once_it_is_built_and_keep_it_after_undo() {
        if crate::compiled::toolchain().is_none() {
            eprintln!("skipped: no Rust compiler (rustc) here to build the compiled engine");
            return;
        }
        let mut session = session("tests/fixtures/valid/take-away.cards", &[0]);
        let cache = tempfile::tempdir().expect("a folder");
        let built = crate::compiled::compiled_in(&session.setup.game, cache.path(), true).expect("built");
        let compiled = |session: &Session| session.state.playable().has_kernel();
        session.handle("take 1");
        let (done, ready) = std::sync::mpsc::channel();
        session.switch_when_built(Building(ready));
        session.handle("hint");
        assert!(!compiled(&session), "no engine taken up while the build goes on");
        done.send(built.playable).expect("sent");
        session.handle("hint");
        assert!(compiled(&session), "taken up at the first thinking after the build");
        // `undo` goes back to the state of the first move, from before the build.
        assert!(session.handle("undo").starts_with("Back to your previous decision"));
        assert_eq!(session.state.position().decisions, 0);
        assert!(compiled(&session), "taken up again after undo");
    }

    #[test]
    fn at_the_terminal_a_file_that_is_not_a_save_is_replaced_only_after_a_yes() {
        let mut session = session("tests/fixtures/valid/take-away.cards", &[0]);
        session.setup.terminal = true;
        let folder = tempfile::tempdir().expect("a folder");
        let notes = folder.path().join("notes.txt");
        std::fs::write(&notes, "my notes\n").expect("a file");
        let save = format!("save {}", notes.display());
        let asked = session.handle(&save);
        assert!(asked.contains("is not a paradox save: replace it with this match? Type y or n."), "{asked}");
        assert_eq!(session.prompt(), format!("replace {}? (y/n) ", notes.display()));
        assert!(session.handle("n").starts_with("Not saved"));
        assert_eq!(std::fs::read_to_string(&notes).expect("the file"), "my notes\n");
        session.handle(&save);
        assert!(session.handle("yes").starts_with("Saved to"));
        assert!(save::is_save(&notes));
        // A save is replaced without a question; the rule file in play never is.
        assert!(session.handle(&save).starts_with("Saved to"));
        let rules = session.handle("save tests/fixtures/valid/take-away.cards");
        assert!(rules.contains("it is the rule file or scenario being played"), "{rules}");
    }

    #[test]
    fn names_of_one_suit_are_given_once_in_a_sentence() {
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let run = names(&["2 of diamonds", "6 of diamonds", "A of diamonds", "A of diamonds low", "3 of hearts"]);
        assert_eq!(in_a_sentence(&run), "2, 6, A of diamonds; A of diamonds low; 3 of hearts");
        assert_eq!(in_a_sentence(&names(&["red 6", "red 8"])), "red 6, red 8");
        assert_eq!(in_a_sentence(&names(&["4 of spades", "pass"])), "4 of spades, pass");
    }

    #[test]
    fn an_obligation_is_named_only_from_a_plain_condition() {
        let allowed = ["red 6".to_string(), "red 8".to_string()];
        assert_eq!(obligation("purple 0", &allowed, "c.colour == led"), Some("colour red".into()));
        assert_eq!(obligation("purple 0", &allowed, "c.main_colour == bid[s].colour"), Some("main colour red".into()));
        assert_eq!(obligation("purple 0", &allowed, "s != leader and (c.colour == led)"), None);
        assert_eq!(obligation("purple 0", &allowed, "c.colour == led or c.rank == 6"), None);
        assert_eq!(obligation("purple 0", &allowed, "c.colour != led"), None);
        assert_eq!(obligation("red 0", &allowed, "c.colour == led"), None, "the refused move holds the word");
        assert_eq!(obligation("purple 0", &["red 6".into(), "blue 8".into()], "c.colour == led"), None);
    }

    #[test]
    fn odd_lines_in_every_game_are_answered_without_panicking() {
        let lines = [
            "h",
            "s",
            "sh",
            "b",
            "r",
            "l 5",
            "l",
            "w",
            "why",
            "new",
            "maybe",
            "new",
            "y",
            "undo",
            "undo",
            "#1",
            "#0",
            "#99999999999999999999",
            "?",
            "e",
            "x y z",
            "\u{fffd}",
            "  ",
            "n",
            "#1",
            "undo",
            "new",
            "yes",
            "undo",
            "undo",
            "undo",
            "2c",
            "red 1",
            "hearts",
            "sa",
            "lo",
            "loa /no/such/file.json",
            "undo",
        ];
        for entry in std::fs::read_dir("rules").expect("the rules folder") {
            let path = entry.expect("a rule file").path();
            let file = path.to_str().expect("a UTF-8 path");
            let mut session = session(file, &[0]);
            for line in lines.iter().chain(&["#1"; 20]).chain(&lines) {
                let out = session.handle(line);
                assert!(!out.is_empty() || line.trim().is_empty(), "{file}: no answer to `{line}`");
            }
        }
    }

    #[test]
    fn new_asks_only_while_the_match_is_on() {
        let mut session = session("tests/fixtures/valid/little-tricks.cards", &[0]);
        assert!(session.handle("new").starts_with("Start a new match?"));
        assert_eq!(session.prompt(), "new match? (y/n) ");
        assert_eq!(session.handle("n"), "No new match: this one goes on.\n");
        session.handle("new");
        assert_eq!(session.handle("rules"), format!("No new match.\n{}", session.handle("rules")));
        session.handle("new");
        assert_eq!(session.handle("quit"), "No new match.\nGoodbye.\n");
        assert!(session.is_done());
        for _ in 0..10_000 {
            if session.state.is_over() {
                break;
            }
            session.handle("#1");
        }
        assert!(session.state.is_over());
        assert!(session.handle("new").starts_with("A new match, practice deal: seed 2, dealt again by --seed 2\n"));
        assert!(session.handle("undo").starts_with("Back to the match before `new` (seed 1)."));
        assert!(session.state.is_over());
    }

    #[test]
    fn four_seat_tables_fit_in_80_columns() {
        let mut four = 0;
        for entry in std::fs::read_dir("rules").expect("the rules folder") {
            let path = entry.expect("a rule file").path();
            let file = path.to_str().expect("a UTF-8 path");
            let mut session = session(file, &[0]);
            if session.setup.game.seats.len() != 4 {
                continue;
            }
            four += 1;
            // The first table, then a few more as the match goes on.
            for _ in 0..8 {
                let painter = Painter { colour: false };
                let lines = diagram(&session.table(), &painter, 80, Detail::Full);
                let widest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
                assert!(widest <= 80, "{file}: {widest} columns\n{}", lines.join("\n"));
                session.handle("#1");
            }
        }
        assert!(four >= 5, "{four} games of four seats");
    }
}
