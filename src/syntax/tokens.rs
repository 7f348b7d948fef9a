//! The tokens of a rule file: words, numbers, strings, punctuation and comments, each with its
//! byte span.
//!
//! The grammar in `grammar/paradox.pest` is what decides meaning; this plain scan is for tools
//! that look at the text itself: the formatter lays the tokens out again, the parser collects
//! the comments (`comments`) and finds where top-level declarations start to resume after a
//! syntax error, and the language server finds what the cursor is on. It never fails: any text
//! is a list of tokens (a character the language has no use for is a [`Kind::Other`] token).

use crate::syntax::ast::Span;
use crate::syntax::strings::{StringEnd, string_end};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// What kind of token it is.
pub enum Kind {
    /// A name or a keyword: a letter or `_`, then letters, digits and `_`.
    Word,
    /// Digits.
    Int,
    /// A string in quotes; `closed` is false when the line ends first.
    Str {
        /// Whether the string has its closing quote.
        closed: bool,
    },
    /// `// ...` up to the end of the line (not included).
    Comment,
    /// An operator or a bracket: `..`, `==`, `+=`, `=>`, `(`, `.`, ...
    Punct,
    /// A character that is none of the above.
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// One token and where it is.
pub struct Token {
    /// What kind of token it is.
    pub kind: Kind,
    /// Where it is in the text.
    pub span: Span,
}

impl Token {
    /// The token's text in `source`, the text it was read from.
    pub fn text(self, source: &str) -> &str {
        source.get(self.span.start..self.span.end).unwrap_or_default()
    }
}

/// The operators of two characters; every other punctuation character is a token of its own.
const PAIRS: [&str; 8] = ["..", "==", "!=", "<=", ">=", "+=", "-=", "=>"];
const SINGLES: &str = "(){}[],:.=<>+-*/%?";

/// Every token of `source`, comments included, in order. A leading byte-order mark is not one.
pub fn tokens(source: &str) -> Vec<Token> {
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    let mut i = if source.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
    while let Some(c) = source[i..].chars().next() {
        let start = i;
        let kind = match c {
            c if c.is_whitespace() => {
                i += c.len_utf8();
                continue;
            }
            '/' if bytes.get(i + 1) == Some(&b'/') => {
                i = bytes[i..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |n| i + n);
                // A comment ends before the `\r` of a Windows line end.
                if i > start && bytes[i - 1] == b'\r' {
                    i -= 1;
                }
                Kind::Comment
            }
            '"' => {
                let closed;
                (i, closed) = match string_end(bytes, i) {
                    StringEnd::Closed(end) => (end, true),
                    StringEnd::Open(end) | StringEnd::TooDeep(end) => (end.max(i + 1), false),
                };
                Kind::Str { closed }
            }
            c if c.is_ascii_alphabetic() || c == '_' => {
                i = scan(bytes, i, |b| b.is_ascii_alphanumeric() || b == b'_');
                Kind::Word
            }
            c if c.is_ascii_digit() => {
                i = scan(bytes, i, |b| b.is_ascii_digit());
                Kind::Int
            }
            _ => {
                if PAIRS.iter().any(|p| source[i..].starts_with(p)) {
                    i += 2;
                    Kind::Punct
                } else {
                    i += c.len_utf8();
                    if SINGLES.contains(c) { Kind::Punct } else { Kind::Other }
                }
            }
        };
        out.push(Token { kind, span: Span::new(start, i) });
    }
    out
}

fn scan(bytes: &[u8], start: usize, keep: impl Fn(u8) -> bool) -> usize {
    bytes[start..].iter().position(|&b| !keep(b)).map_or(bytes.len(), |n| start + n)
}

/// The keywords that start a top-level declaration.
pub const DECLARATION_KEYWORDS: [&str; 18] = [
    "game", "players", "seats", "seat", "side", "param", "enum", "card", "deck", "zone", "var", "define", "play",
    "result", "show", "sheet", "solve", "variant",
];

/// Where lines that start with a declaration keyword in their first column begin: the places a
/// reader may resume after a syntax error.
pub fn declaration_starts(source: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    for token in tokens(source) {
        let before = &source[..token.span.start];
        let at_line_start = before.is_empty() || before.ends_with('\n') || before == "\u{feff}";
        if at_line_start && token.kind == Kind::Word && DECLARATION_KEYWORDS.contains(&token.text(source)) {
            starts.push(token.span.start);
        }
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(source: &str) -> Vec<&str> {
        tokens(source).into_iter().map(|t| t.text(source)).collect()
    }

    #[test]
    fn splits_words_numbers_strings_and_operators() {
        assert_eq!(
            texts("x += -3..a.b // note\nsay \"a \\\" b\" c==d=>e"),
            ["x", "+=", "-", "3", "..", "a", ".", "b", "// note", "say", "\"a \\\" b\"", "c", "==", "d", "=>", "e"]
        );
    }

    #[test]
    fn an_unclosed_string_ends_at_the_line_end() {
        let source = "say \"abc\nx";
        let found = tokens(source);
        assert_eq!(found[1].kind, Kind::Str { closed: false });
        assert_eq!(found[1].text(source), "\"abc");
        assert_eq!(found[2].text(source), "x");
    }

    #[test]
    fn any_text_is_tokens_on_character_boundaries() {
        let source = "é\u{0} \"é\\";
        for token in tokens(source) {
            assert!(source.is_char_boundary(token.span.start) && source.is_char_boundary(token.span.end));
        }
    }

    #[test]
    fn declarations_start_in_the_first_column() {
        let source = "game \"g\"\n  card x\ncard {\n}\n// play\nplay {}";
        let starts = declaration_starts(source);
        let words: Vec<&str> = starts.iter().map(|&s| &source[s..s + 4]).collect();
        assert_eq!(words, ["game", "card", "play"]);
    }
}
