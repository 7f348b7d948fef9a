//! Text from outside (a rule file, a save, a shard, the command line) made safe to print: a
//! control character (C0, DEL and C1, save a newline and a tab) is shown escaped, as `\u{1b}`,
//! so that no string can set a terminal's title, clear its screen or ring its bell; so is a
//! character that changes the direction of the text after it (U+202E and its kind), so that
//! no line can be drawn in an order other than the one it is read in.
//!
//! It is done in three places: the parser escapes every string of a rule file as it reads it, a
//! save's strings are escaped as it is read, and the `paradox` command writes all it prints
//! through [`Printable`] (the last line of defence, for paths, arguments, shards and quoted
//! input). Diagnostics draw a source line's control characters escaped as well.

use std::borrow::Cow;
use std::io::{self, Write};

/// Whether `c` is shown escaped: a control character other than a newline or a tab, or a
/// character that sets the direction of the text (the embeddings, overrides, isolates and
/// marks of Unicode's bidirectional algorithm).
pub fn needs_escape(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || sets_direction(c)
}

/// Whether `c` is one of Unicode's explicit direction formatting characters.
fn sets_direction(c: char) -> bool {
    matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `c` as written escaped: `\u{1b}`.
pub fn escaped_char(c: char) -> String {
    format!("\\u{{{:x}}}", c as u32)
}

/// `text` with every control character but a newline and a tab escaped (`\u{1b}`).
pub fn escape(text: &str) -> Cow<'_, str> {
    escape_with(text, |_| None)
}

/// A file's name as one line may print it: every control character (a newline too) and
/// direction character as `?`.
pub fn path(file: &std::path::Path) -> String {
    file.display().to_string().chars().map(|c| if c.is_control() || sets_direction(c) { '?' } else { c }).collect()
}

/// `text` escaped as [`escape`] does, but colour codes (`ESC [ 31 m`, the SGR sequences that
/// paradox itself writes on a terminal) left as they are: they set colours and nothing else.
pub fn escape_keeping_colour(text: &str) -> Cow<'_, str> {
    escape_with(text, colour_code)
}

/// The length of the colour code at the start of `text`, if one starts there.
fn colour_code(text: &str) -> Option<usize> {
    let body = text.strip_prefix("\u{1b}[")?;
    let params = body.find(|c: char| !(c.is_ascii_digit() || c == ';'))?;
    body[params..].starts_with('m').then_some(2 + params + 1)
}

/// `text` with its control characters escaped, except the sequences `keep` measures at the
/// place they start.
fn escape_with(text: &str, keep: impl Fn(&str) -> Option<usize>) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(at) = rest.find(needs_escape) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let kept = keep(rest).unwrap_or(0);
        if kept > 0 {
            out.push_str(&rest[..kept]);
            rest = &rest[kept..];
        } else if let Some(c) = rest.chars().next() {
            out.push_str(&escaped_char(c));
            rest = &rest[c.len_utf8()..];
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Every string in a JSON value escaped (as [`escape`]), keys too: for a file read from disk
/// (a save) before its strings go anywhere.
pub fn escape_json(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::String(s) => {
            if let Cow::Owned(safe) = escape(s) {
                *s = safe;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(escape_json),
        Value::Object(map) => {
            let entries = std::mem::take(map);
            for (key, mut item) in entries {
                escape_json(&mut item);
                map.insert(escape(&key).into_owned(), item);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// A writer that escapes what goes through it (as [`escape`], or
/// [`escape_keeping_colour`] when it writes to a terminal in colour). It works a line at a time,
/// so that a character or a colour code split between two writes is seen whole; `flush` writes
/// out a line not yet ended.
pub struct Printable<W: Write> {
    inner: W,
    colour: bool,
    pending: Vec<u8>,
}

impl<W: Write> Printable<W> {
    /// Escapes what is written to `inner`; with `colour`, colour codes pass.
    pub fn new(inner: W, colour: bool) -> Self {
        Printable { inner, colour, pending: Vec::new() }
    }

    fn write_out(&mut self, bytes: &[u8]) -> io::Result<()> {
        let text = String::from_utf8_lossy(bytes);
        let safe = if self.colour { escape_keeping_colour(&text) } else { escape(&text) };
        self.inner.write_all(safe.as_bytes())
    }
}

impl<W: Write> Write for Printable<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if let Some(end) = self.pending.iter().rposition(|&b| b == b'\n') {
            let lines: Vec<u8> = self.pending.drain(..=end).collect();
            self.write_out(&lines)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let rest = std::mem::take(&mut self.pending);
        if !rest.is_empty() {
            self.write_out(&rest)?;
        }
        self.inner.flush()
    }
}

impl<W: Write> Drop for Printable<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_but_newlines_and_tabs_kept() {
        let hostile = "a\u{1b}]0;title\u{7}b\u{1b}[2J\tc\nd\r\u{7f}\u{9b}e";
        assert_eq!(escape(hostile), "a\\u{1b}]0;title\\u{7}b\\u{1b}[2J\tc\nd\\u{d}\\u{7f}\\u{9b}e");
        assert!(matches!(escape("plain, é ♥\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn characters_that_turn_the_text_around_are_escaped() {
        let hostile = "if x \u{202e}} {\u{2066}a\u{2069}\u{200f}";
        assert_eq!(escape(hostile), "if x \\u{202e}} {\\u{2066}a\\u{2069}\\u{200f}");
        assert_eq!(path(std::path::Path::new("a\u{202e}b.cards")), "a?b.cards");
        // Letters of right-to-left scripts are text, not formatting: they stay.
        assert!(matches!(escape("שלום مرحبا"), Cow::Borrowed(_)));
    }

    #[test]
    fn only_colour_codes_pass_in_colour() {
        let text = "\u{1b}[1;31mred\u{1b}[0m \u{1b}[2J \u{1b}]0;t\u{7} \u{1b}[";
        assert_eq!(escape_keeping_colour(text), "\u{1b}[1;31mred\u{1b}[0m \\u{1b}[2J \\u{1b}]0;t\\u{7} \\u{1b}[");
    }

    #[test]
    fn a_writer_escapes_across_split_writes() {
        let mut out = Vec::new();
        {
            let mut w = Printable::new(&mut out, true);
            w.write_all(b"x\x1b[3").and_then(|()| w.write_all(b"1m\xc2")).expect("writes");
            w.write_all(b"\x9b\n\x07").expect("writes");
        }
        assert_eq!(String::from_utf8(out).expect("UTF-8"), "x\u{1b}[31m\\u{9b}\n\\u{7}");
    }

    #[test]
    fn every_string_of_a_json_value_is_escaped() {
        let mut value = serde_json::json!({"a\u{7}": ["\u{1b}[2J", 3, {"b": "ok"}]});
        escape_json(&mut value);
        assert_eq!(value, serde_json::json!({"a\\u{7}": ["\\u{1b}[2J", 3, {"b": "ok"}]}));
    }
}
