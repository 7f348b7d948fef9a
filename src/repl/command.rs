//! What a line typed at the prompt asks for: a command, or (anything else) a move.

/// One line of input, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// An empty line.
    Nothing,
    Help,
    Moves,
    Hint,
    Analyze,
    Undo,
    Show,
    Score,
    /// The last N lines of the log (a default number when not given).
    Log(Option<usize>),
    Rules,
    Save(String),
    Load(String),
    New,
    Quit,
    /// Not a command: the text of a move.
    Move(String),
}

/// The commands with what each does, as `help` lists them; completion offers their names.
pub const COMMANDS: &[(&str, &str)] = &[
    ("help", "this list"),
    ("moves", "the moves you may make now, numbered"),
    ("hint", "what the computer would play in your place (the best move, where it can be worked out)"),
    ("analyze", "the decisions of this phase so far, each with its value and the best one"),
    ("undo", "take back your last move (and the computer's replies)"),
    ("show", "the table again"),
    ("score", "the scores as they stand"),
    ("log [N]", "the last N lines of what happened (20 if N is left out)"),
    ("rules", "a summary of the game"),
    ("save FILE", "save the match to FILE"),
    ("load FILE", "go back to a match saved from this game"),
    ("new", "start a new match (the next seed)"),
    ("quit", "leave (Ctrl-D does too)"),
];

impl Command {
    /// Reads a line; `Err` says why a command's argument is wrong.
    pub fn parse(line: &str) -> Result<Command, String> {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let bare = |command: Command| {
            if rest.is_empty() { Ok(command) } else { Err(format!("`{word}` takes nothing after it")) }
        };
        match word.to_lowercase().as_str() {
            "" => Ok(Command::Nothing),
            "help" | "?" => bare(Command::Help),
            "moves" => bare(Command::Moves),
            "hint" => bare(Command::Hint),
            "analyze" | "analyse" => bare(Command::Analyze),
            "undo" => bare(Command::Undo),
            "show" => bare(Command::Show),
            "score" => bare(Command::Score),
            "rules" => bare(Command::Rules),
            "new" => bare(Command::New),
            "quit" | "exit" => bare(Command::Quit),
            "log" if rest.is_empty() => Ok(Command::Log(None)),
            "log" => {
                rest.parse().map(|n| Command::Log(Some(n))).map_err(|_| format!("`log` takes a number, not `{rest}`"))
            }
            "save" => file(rest, "save").map(Command::Save),
            "load" => file(rest, "load").map(Command::Load),
            _ => Ok(Command::Move(line.to_string())),
        }
    }
}

fn file(rest: &str, command: &str) -> Result<String, String> {
    if rest.is_empty() {
        Err(format!("`{command}` needs a file name: `{command} match.json`"))
    } else {
        Ok(rest.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_in_any_case_with_spaces() {
        assert_eq!(Command::parse("  HELP "), Ok(Command::Help));
        assert_eq!(Command::parse("quit"), Ok(Command::Quit));
        assert_eq!(Command::parse("exit"), Ok(Command::Quit));
        assert_eq!(Command::parse(""), Ok(Command::Nothing));
        assert_eq!(Command::parse("log"), Ok(Command::Log(None)));
        assert_eq!(Command::parse("log 5"), Ok(Command::Log(Some(5))));
        assert_eq!(Command::parse("save my game.json"), Ok(Command::Save("my game.json".into())));
        assert_eq!(Command::parse("load x.json"), Ok(Command::Load("x.json".into())));
    }

    #[test]
    fn bad_arguments_are_explained() {
        assert!(Command::parse("save").unwrap_err().contains("needs a file name"));
        assert!(Command::parse("log many").unwrap_err().contains("takes a number"));
        assert!(Command::parse("undo 2").unwrap_err().contains("takes nothing"));
    }

    #[test]
    fn anything_else_is_a_move() {
        assert_eq!(Command::parse("red 5"), Ok(Command::Move("red 5".into())));
        assert_eq!(Command::parse("#3"), Ok(Command::Move("#3".into())));
        assert_eq!(Command::parse("frobnicate"), Ok(Command::Move("frobnicate".into())));
    }
}
