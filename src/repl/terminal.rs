//! The front ends of a [`Session`]: rustyline on a terminal (completion of commands and moves,
//! history (none in hot-seat play, where it would show a secret choice), Ctrl-C cancels the line,
//! Ctrl-D quits), or a script read line by line from standard input, each line echoed after its
//! prompt so that a transcript reads like a session. No line longer than [`MAX_LINE`] is read.

use super::Session;
use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor};
use std::io::{BufRead, Read, Write};

/// The longest line read, in bytes: a terminal refuses a longer line, a script stops at it.
pub const MAX_LINE: usize = 64 << 10;

fn too_long() -> String {
    format!("a line is longer than {}, the longest line paradox reads", crate::files::size(MAX_LINE as u64))
}

/// Plays with a person at a terminal; `Err` says why the terminal could not be used.
pub fn interactive(mut session: Session, first: &str) -> Result<(), String> {
    print!("{first}");
    let mut editor: Editor<Words, DefaultHistory> = Editor::new().map_err(|e| e.to_string())?;
    editor.set_helper(Some(Words(Vec::new())));
    while !session.is_done() {
        if let Some(helper) = editor.helper_mut() {
            helper.0 = session.completions();
        }
        match editor.readline(&session.prompt()) {
            Ok(line) if line.len() > MAX_LINE => println!("error: {}; it is ignored", too_long()),
            Ok(line) => {
                if !line.trim().is_empty() && !session.hot_seat() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                if let Some((width, height)) = terminal_size::terminal_size() {
                    session.resize(width.0 as usize, Some(height.0 as usize));
                }
                // Long work (`analyze`) says how it goes on one line (cut to the screen's width,
                // as a wrapped line could not be rewritten), rewritten, then cleared.
                let mut shown = false;
                let columns = terminal_size::terminal_size().map_or(80, |(w, _)| w.0 as usize);
                let answer = session.handle_showing(&line, &mut |news| {
                    let news: String = news.chars().take(columns.saturating_sub(1)).collect();
                    print!("\r{news}\u{1b}[K");
                    let _ = std::io::stdout().flush();
                    shown = true;
                });
                if shown {
                    print!("\r\u{1b}[K");
                }
                print!("{answer}");
            }
            Err(ReadlineError::Interrupted) => {}
            Err(ReadlineError::Eof) => {
                print!("{}", session.handle("quit"));
            }
            Err(e) => return Err(e.to_string()),
        }
        let _ = std::io::stdout().flush();
    }
    Ok(())
}

/// Plays a script: each line of `input` is echoed after the prompt, then answered. A line longer
/// than [`MAX_LINE`] ends the script with an error (what follows it is not a session).
pub fn scripted(
    mut session: Session,
    first: &str,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    out.write_all(first.as_bytes())?;
    let mut line = Vec::new();
    while !session.is_done() {
        line.clear();
        let limit = MAX_LINE as u64 + 2;
        if (&mut *input).take(limit).read_until(b'\n', &mut line)? == 0 {
            break;
        }
        let cut = line.len() as u64 == limit && !line.ends_with(b"\n");
        while matches!(line.last(), Some(b'\n' | b'\r')) {
            line.pop();
        }
        if cut || line.len() > MAX_LINE {
            out.flush()?;
            let message = format!("{}; the script stops there", too_long());
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, message));
        }
        writeln!(out, "{}{}", session.prompt(), String::from_utf8_lossy(&line))?;
        out.write_all(session.handle_bytes(&line).as_bytes())?;
    }
    out.flush()
}

/// Completion over a list of words: the commands and the moves open now.
struct Words(Vec<String>);

impl Completer for Words {
    type Candidate = Pair;

    fn complete(&self, line: &str, pos: usize, _: &Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        let typed = line[..pos].to_lowercase();
        let fits = self.0.iter().filter(|w| w.to_lowercase().starts_with(&typed));
        Ok((0, fits.map(|w| Pair { display: w.clone(), replacement: w.clone() }).collect()))
    }
}

impl Hinter for Words {
    type Hint = String;
}

impl Highlighter for Words {}

impl Validator for Words {}

impl rustyline::Helper for Words {}
