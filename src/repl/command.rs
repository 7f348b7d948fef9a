//! What a line typed at the prompt asks for: a command, or (anything else) a move. Commands
//! win over moves and may be shortened to any start of their word; a line that could mean
//! several things is answered with a question, not acted on.

use super::moves::{Found, Moves};

/// One line of input, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// An empty line.
    Nothing,
    /// The commands, listed.
    Help,
    /// The moves open now, numbered.
    Moves,
    /// The computer's move in the player's place.
    Hint,
    /// The decisions of the phase so far, valued.
    Analyze,
    /// The last move taken back.
    Undo,
    /// The table again.
    Show,
    /// The scores as they stand.
    Score,
    /// The last N lines of the log (a default number when not given).
    Log(Option<usize>),
    /// A summary of the game.
    Rules,
    /// The match saved to this file.
    Save(String),
    /// The match saved in this file, loaded.
    Load(String),
    /// A new match (asked first while one is going on).
    New,
    /// The end of the session.
    Quit,
    /// The rule that refused the last move, as a diagnostic.
    Why,
    /// Not a command: the text of a move.
    Move(String),
    /// The line could mean several things: the question to print.
    Ask(String),
}

/// The commands with what each does, as `help` lists them; completion offers their names.
pub(super) const COMMANDS: &[(&str, &str)] = &[
    ("help", "this list"),
    ("moves", "the moves you may make now, numbered"),
    ("hint", "what the computer would play in your place (the best move, where it can be worked out)"),
    ("analyze", "the decisions of this phase so far, each with its value and the best one"),
    ("undo", "take back your last move (and the computer's replies), or a `new` or `load`"),
    ("show", "the table again"),
    ("score", "the scores as they stand"),
    ("log [N]", "the last N lines of what happened (20 if N is left out)"),
    ("rules", "a summary of the game"),
    ("why", "the rule that refused your last move, with where it is in the rule file"),
    ("save FILE", "save the match to FILE"),
    ("load FILE", "go back to a match saved from this game"),
    ("new", "start a new match (another seed; asks y/n first)"),
    ("quit", "leave (Ctrl-D does too)"),
];

/// The words a command is typed by, each with what its arguments must be.
const WORDS: &[(&str, Args)] = &[
    ("help", Args::None),
    ("moves", Args::None),
    ("hint", Args::None),
    ("analyze", Args::None),
    ("undo", Args::None),
    ("show", Args::None),
    ("score", Args::None),
    ("log", Args::Number),
    ("rules", Args::None),
    ("why", Args::None),
    ("save", Args::File),
    ("load", Args::File),
    ("new", Args::None),
    ("quit", Args::None),
    ("exit", Args::None),
];

/// What may follow a command's word.
#[derive(Clone, Copy)]
enum Args {
    None,
    /// A number, or nothing.
    Number,
    File,
}

impl Args {
    /// Whether `rest` (trimmed) fits.
    fn fit(self, rest: &str) -> bool {
        match self {
            Args::None => rest.is_empty(),
            Args::Number => rest.is_empty() || rest.parse::<usize>().is_ok(),
            Args::File => !rest.is_empty(),
        }
    }
}

impl Command {
    /// Reads a line with the names of the moves open now: a command's whole word is that
    /// command; a word that starts one command's word (and its arguments fit) is that command
    /// unless the line also names a move; a line that could be several things is a question
    /// ([`Command::Ask`]); anything else is a move. `Err` says why a command's argument is wrong.
    pub fn parse(line: &str, moves: &Moves) -> Result<Command, String> {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let (word, rest) = (word.to_lowercase(), rest.trim());
        // The British spelling is the same command, typed in full.
        let word = if word == "analyse" { "analyze".to_string() } else { word };
        if word.is_empty() {
            return Ok(Command::Nothing);
        }
        if word == "?" || WORDS.iter().any(|(w, _)| *w == word) {
            return command(if word == "?" { "help" } else { &word }, rest);
        }
        let starts: Vec<&(&str, Args)> = WORDS.iter().filter(|(w, _)| w.starts_with(&word)).collect();
        if starts.is_empty() {
            return Ok(Command::Move(line.into()));
        }
        let fitting: Vec<&str> = starts.iter().filter(|(_, args)| args.fit(rest)).map(|(w, _)| *w).collect();
        let named: Vec<usize> = match moves.find(line) {
            Found::One(i) => vec![i],
            Found::Several(which) => which,
            _ => Vec::new(),
        };
        match (&fitting[..], &named[..]) {
            ([one], []) => command(one, rest),
            ([], []) => match starts[..] {
                [(one, _)] => command(one, rest),
                _ => {
                    Ok(Command::Ask(ask(line, &starts.iter().map(|(w, _)| *w).collect::<Vec<_>>(), &[], &moves.names)))
                }
            },
            ([], _) => Ok(Command::Move(line.into())),
            (commands, named) => Ok(Command::Ask(ask(line, commands, named, &moves.names))),
        }
    }
}

/// The command `word` (a whole command word) with the arguments `rest`.
fn command(word: &str, rest: &str) -> Result<Command, String> {
    let bare = |command: Command| {
        if rest.is_empty() { Ok(command) } else { Err(format!("`{word}` takes nothing after it")) }
    };
    match word {
        "help" => bare(Command::Help),
        "moves" => bare(Command::Moves),
        "hint" => bare(Command::Hint),
        "analyze" => bare(Command::Analyze),
        "undo" => bare(Command::Undo),
        "show" => bare(Command::Show),
        "score" => bare(Command::Score),
        "rules" => bare(Command::Rules),
        "why" => bare(Command::Why),
        "new" => bare(Command::New),
        "quit" | "exit" => bare(Command::Quit),
        "log" if rest.is_empty() => Ok(Command::Log(None)),
        "log" => rest.parse().map(|n| Command::Log(Some(n))).map_err(|_| format!("`log` takes a number, not `{rest}`")),
        "save" => file(rest, "save").map(Command::Save),
        _ => file(rest, "load").map(Command::Load),
    }
}

fn file(rest: &str, command: &str) -> Result<String, String> {
    if rest.is_empty() {
        Err(format!("`{command}` needs a file name: `{command} match.json`"))
    } else {
        Ok(rest.into())
    }
}

/// How many moves a question lists.
const ASKED: usize = 6;

/// The question for a line that could be any of `commands` (words) and the moves `named`
/// (indices into `moves`): what it could mean and what to type for each.
fn ask(line: &str, commands: &[&str], named: &[usize], moves: &[String]) -> String {
    let mut meanings: Vec<String> = Vec::new();
    let mut typed: Vec<String> = Vec::new();
    if !commands.is_empty() {
        let s = if commands.len() == 1 { "" } else { "s" };
        let words: Vec<String> = commands.iter().map(|c| format!("`{c}`")).collect();
        meanings.push(format!("the command{s} {}", or(&words)));
        typed.extend(words);
    }
    if !named.is_empty() {
        let mut names: Vec<&str> = Vec::new();
        for &i in named {
            if !names.contains(&moves[i].as_str()) {
                names.push(&moves[i]);
            }
        }
        let s = if names.len() == 1 { "" } else { "s" };
        let more = names.len().saturating_sub(ASKED);
        let mut listed: Vec<String> = names.iter().take(ASKED).map(|n| n.to_string()).collect();
        if more > 0 {
            listed.push(format!("{more} more"));
        }
        meanings.push(format!("the move{s} {}", or(&listed)));
        // A move is typed by its whole name, or by its number when its name starts a command.
        for &i in named.iter().take(ASKED) {
            let name = &moves[i];
            let taken = |w: &&(&str, Args)| w.0.starts_with(&name.to_lowercase());
            let how = if WORDS.iter().any(|w| taken(&w)) { format!("`#{}`", i + 1) } else { format!("`{name}`") };
            if !typed.contains(&how) {
                typed.push(how);
            }
        }
    }
    let more = if named.len() > ASKED { ", or more of a move's name" } else { "" };
    format!("`{line}` could be {}: type {}{more}.\n", meanings.join(", or "), or(&typed))
}

/// `a`, `a or b`, `a, b or c`.
fn or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Command, String> {
        Command::parse(line, &Moves::default())
    }

    fn names(list: &[&str]) -> Moves {
        Moves { names: list.iter().map(|s| s.to_string()).collect(), groups: None }
    }

    #[test]
    fn commands_may_be_shortened_to_any_unique_start() {
        assert_eq!(parse("q"), Ok(Command::Quit));
        assert_eq!(parse("ex"), Ok(Command::Quit));
        assert_eq!(parse("he"), Ok(Command::Help));
        assert_eq!(parse("hi"), Ok(Command::Hint));
        assert_eq!(parse("sc"), Ok(Command::Score));
        assert_eq!(parse("an"), Ok(Command::Analyze));
        assert_eq!(parse("analyse"), Ok(Command::Analyze), "the British spelling in full");
        assert_eq!(parse("w"), Ok(Command::Why));
        assert_eq!(parse("l"), Ok(Command::Log(None)));
        assert_eq!(parse("loa x.json"), Ok(Command::Load("x.json".into())));
        assert!(matches!(parse("l 5"), Ok(Command::Ask(_))), "log 5, or load the file 5");
        assert_eq!(parse("sa x.json"), Ok(Command::Save("x.json".into())));
        assert!(parse("sa").unwrap_err().contains("needs a file name"));
    }

    #[test]
    fn a_start_of_several_commands_or_of_a_command_and_a_move_is_a_question() {
        let Ok(Command::Ask(question)) = parse("h") else { panic!("{:?}", parse("h")) };
        assert_eq!(question, "`h` could be the commands `help` or `hint`: type `help` or `hint`.\n");
        let moves = names(&["reds", "blacks", "best suit", "hearts", "shorts", "Q of spades"]);
        let ask = |line: &str| match Command::parse(line, &moves) {
            Ok(Command::Ask(question)) => question,
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(
            ask("h"),
            "`h` could be the commands `help` or `hint`, or the move hearts: type `help`, `hint` or `hearts`.\n"
        );
        assert_eq!(ask("sh"), "`sh` could be the command `show`, or the move shorts: type `show` or `shorts`.\n");
        assert_eq!(
            ask("q"),
            "`q` could be the command `quit`, or the move Q of spades: type `quit` or `Q of spades`.\n"
        );
        assert!(ask("r").contains("the command `rules`, or the move reds"));
        // Whole words are commands; a move's whole name is the move; arguments decide too.
        assert_eq!(Command::parse("show", &moves), Ok(Command::Show));
        assert_eq!(Command::parse("hearts", &moves), Ok(Command::Move("hearts".into())));
        assert_eq!(Command::parse("b", &moves), Ok(Command::Move("b".into())));
        let cards = names(&["red 5", "red 7"]);
        assert_eq!(Command::parse("r 5", &cards), Ok(Command::Move("r 5".into())));
        // A move whose whole name starts a command is typed by its number.
        let odd = names(&["sh", "x"]);
        assert_eq!(
            Command::parse("sh", &odd),
            Ok(Command::Ask("`sh` could be the command `show`, or the move sh: type `show` or `#1`.\n".into()))
        );
    }

    #[test]
    fn commands_in_any_case_with_spaces() {
        assert_eq!(parse("  HELP "), Ok(Command::Help));
        assert_eq!(parse("quit"), Ok(Command::Quit));
        assert_eq!(parse("exit"), Ok(Command::Quit));
        assert_eq!(parse(""), Ok(Command::Nothing));
        assert_eq!(parse("log"), Ok(Command::Log(None)));
        assert_eq!(parse("log 5"), Ok(Command::Log(Some(5))));
        assert_eq!(parse("save my game.json"), Ok(Command::Save("my game.json".into())));
        assert_eq!(parse("load x.json"), Ok(Command::Load("x.json".into())));
    }

    #[test]
    fn bad_arguments_are_explained() {
        assert!(parse("save").unwrap_err().contains("needs a file name"));
        assert!(parse("log many").unwrap_err().contains("takes a number"));
        assert!(parse("undo 2").unwrap_err().contains("takes nothing"));
    }

    #[test]
    fn anything_else_is_a_move() {
        assert_eq!(parse("red 5"), Ok(Command::Move("red 5".into())));
        assert_eq!(parse("#3"), Ok(Command::Move("#3".into())));
        assert_eq!(parse("frobnicate"), Ok(Command::Move("frobnicate".into())));
    }
}
