//! Where a string of a rule file ends, as the grammar's `string` rule reads it; the parser's
//! templates, the tokens, the limits and the error descriptions all ask here.
//!
//! A string ends at the first `"` that is neither escaped (`\"`) nor inside a `{...}` part, and
//! on the line where it starts. A `{...}` part may hold strings of its own
//! (`"{if n == 0 then "pass" else "play"}"`), though not right after its `{`, and nested braces;
//! a `{` that is not closed before the string ends is an ordinary character (a plain string such
//! as a game's name may hold one).

use crate::syntax::limits::MAX_BRACKETS;

/// How a string opening at some index ends.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum StringEnd {
    /// Closed: the index just past its closing `"`.
    Closed(usize),
    /// Not closed: where it runs out (a line end or the end of the text).
    Open(usize),
    /// Its `{...}` parts and the strings in them nest deeper than [`MAX_BRACKETS`]: where.
    TooDeep(usize),
}

/// How the string whose `"` is at `bytes[start]` ends.
pub(crate) fn string_end(bytes: &[u8], start: usize) -> StringEnd {
    match string(bytes, start, 0) {
        Ok(end) => StringEnd::Closed(end),
        Err(Stop::Open(at)) => StringEnd::Open(at),
        Err(Stop::TooDeep(at)) => StringEnd::TooDeep(at),
    }
}

/// The index just past the `}` closing the `{` at `bytes[open]`, inside a string, or `None` when
/// the string ends first (or it nests too deep: [`string_end`] says so).
pub(crate) fn closing_brace(bytes: &[u8], open: usize) -> Option<usize> {
    brace(bytes, open, 0).ok()
}

/// The first `byte` in `bytes[from..to]` (a template's `{...}` part) outside the strings there:
/// the `|` of a plural is not the one in `{if n == 1 then "a|b" else "c"|time|times}`'s text.
pub(crate) fn outside_strings(bytes: &[u8], from: usize, to: usize, byte: u8) -> Option<usize> {
    let mut i = from;
    while i < to {
        i = match bytes[i] {
            b if b == byte => return Some(i),
            b'"' => match string_end(bytes, i) {
                StringEnd::Closed(end) => end,
                StringEnd::Open(_) | StringEnd::TooDeep(_) => return None,
            },
            _ => i + 1,
        };
    }
    None
}

enum Stop {
    Open(usize),
    TooDeep(usize),
}

fn string(bytes: &[u8], start: usize, depth: usize) -> Result<usize, Stop> {
    let mut i = start + 1;
    loop {
        match bytes.get(i) {
            Some(b'"') => return Ok(i + 1),
            Some(b'{') => match brace(bytes, i, depth + 1) {
                Ok(end) => i = end,
                Err(Stop::TooDeep(at)) => return Err(Stop::TooDeep(at)),
                Err(Stop::Open(_)) => i += 1,
            },
            Some(b'\\') if i + 1 < bytes.len() => i += 2,
            Some(b'\n') | None => return Err(Stop::Open(i.min(bytes.len()))),
            Some(_) => i += 1,
        }
    }
}

fn brace(bytes: &[u8], open: usize, depth: usize) -> Result<usize, Stop> {
    if depth > MAX_BRACKETS {
        return Err(Stop::TooDeep(open));
    }
    // Not a string first: `"North {"` followed by `"}"` on its line stays two strings.
    if bytes.get(open + 1) == Some(&b'"') {
        return Err(Stop::Open(open + 1));
    }
    let mut i = open + 1;
    loop {
        i = match bytes.get(i) {
            Some(b'}') => return Ok(i + 1),
            Some(b'"') => string(bytes, i, depth + 1)?,
            Some(b'{') => brace(bytes, i, depth + 1)?,
            Some(b'\\') if i + 1 < bytes.len() => i + 2,
            Some(b'\n') | None => return Err(Stop::Open(i.min(bytes.len()))),
            Some(_) => i + 1,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end(text: &str) -> StringEnd {
        string_end(text.as_bytes(), 0)
    }

    #[test]
    fn a_string_in_a_template_part_does_not_end_the_string() {
        let text = r#""{if n == 0 then "pass" else "{n} cards"}" x"#;
        assert_eq!(end(text), StringEnd::Closed(text.len() - 2));
    }

    #[test]
    fn an_unclosed_brace_is_an_ordinary_character() {
        assert_eq!(end(r#""a { b" c"#), StringEnd::Closed(7));
        assert_eq!(end("\"a \\\" {\n\""), StringEnd::Open(7));
        // A string right after the `{` is not inside it.
        assert_eq!(end(r#""North {" { P1 } "}" x"#), StringEnd::Closed(9));
    }

    #[test]
    fn braces_nested_too_deep_are_refused() {
        let deep = format!("\"{}\"", "{".repeat(MAX_BRACKETS + 2));
        assert!(matches!(end(&deep), StringEnd::TooDeep(_)));
        let nested = format!("\"{}\"", "{x\"".repeat(MAX_BRACKETS));
        assert!(matches!(end(&nested), StringEnd::TooDeep(_)));
    }
}
