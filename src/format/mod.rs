//! `paradox fmt`: one layout for every rule file.
//!
//! The layout is read from the syntax tree, the words from the text: `Layout` walks the tree
//! and takes the file's tokens in order (checking that each is the one the tree says comes
//! next), so that the formatted file holds exactly the tokens of the original with only the
//! white space between them changed, and every comment (which the parser found, with the empty
//! lines) where it was. The rules:
//! - two spaces per level; a declaration or statement per line; at most one empty line between
//!   them, kept where the author left one;
//! - a block (`{ ... }` of statements, a `card`, `variant` or `scenario` body, a `case`) or a
//!   `choose` with its tiers stays on one line only if it was written on one line, holds no
//!   comment and fits in [`WIDTH`] columns; otherwise one statement, field or tier per line;
//! - any other expression or list is broken only when it does not fit, before its operators
//!   (`and`, `+`, `where`, `else`) and after the commas of lists;
//! - comments after code on consecutive lines are lined up;
//! - the file's line ends are kept: `\r\n` if its first line ends so, `\n` otherwise.
//!
//! As a last safeguard [`format`](fn@format) reads the result again and refuses it unless it has the same
//! syntax tree as the original.

mod doc;
mod expr;
mod items;

use crate::diagnostic::{Code, Problem};
use crate::syntax::ast::{File, Span};
use crate::syntax::comments::{Comment, Extra};
use crate::syntax::tokens::{Kind, Token, tokens};
use doc::{Doc, concat, indent, text};

/// The width lines are kept within where they can be broken.
pub const WIDTH: usize = 100;

/// The formatted text of a rule file or scenario, or the problems that keep it from being read.
pub fn format(source: &str) -> Result<String, Vec<Problem>> {
    let file = crate::syntax::parse(source)?;
    let formatted = layout(source, &file).map_err(|at| vec![not_formatted(at)])?;
    let whole = Span::new(0, 0);
    let reread = crate::syntax::parse(&formatted).map_err(|_| vec![not_formatted(whole)])?;
    if without_spans(&reread) != without_spans(&file) {
        return Err(vec![not_formatted(whole)]);
    }
    // Strings and comments end before a line's end: every `\n` of the layout is one.
    Ok(if windows_line_ends(source) { formatted.replace('\n', "\r\n") } else { formatted })
}

/// Whether a text's lines end with `\r\n`, as its first line does.
pub fn windows_line_ends(text: &str) -> bool {
    text.find('\n').is_some_and(|at| text[..at].ends_with('\r'))
}

/// The layout of a parsed file, or where the tree and the tokens disagree (a bug).
fn layout(source: &str, file: &File) -> Result<String, Span> {
    let bom = if source.starts_with('\u{feff}') { "\u{feff}" } else { "" };
    let mut layout = Layout::new(source, &file.extra);
    let doc = layout.file(file);
    if let Some(at) = layout.disagreement {
        return Err(at);
    }
    if layout.next < layout.tokens.len() || layout.next_comment < layout.extra.comments.len() {
        return Err(Span::new(layout.pos(), layout.pos()));
    }
    Ok(format!("{bom}{}", doc::render(&doc, WIDTH)))
}

fn not_formatted(at: Span) -> Problem {
    Problem::new(Code::Syntax, "internal error: the formatter could not lay this file out", at, "lost its way here")
        .help("this is a bug in paradox; please report it with the file, which is left as it was")
}

/// A syntax tree as JSON with every span taken out: what two readings of the same program share.
pub fn without_spans(file: &File) -> serde_json::Value {
    let mut value = serde_json::to_value(file).unwrap_or_default();
    strip_spans(&mut value);
    value
}

/// Replaces every span (`{"start": .., "end": ..}`) in a JSON value by `null`.
pub fn strip_spans(value: &mut serde_json::Value) {
    use serde_json::Value;
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) if map.len() == 2 && map.contains_key("start") && map.contains_key("end") => {
                *value = Value::Null;
            }
            Value::Object(map) => stack.extend(map.values_mut()),
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
}

/// Builds the document of a file, taking its tokens in order.
struct Layout<'s> {
    source: &'s str,
    /// The tokens that are not comments.
    tokens: Vec<Token>,
    /// The comments and empty lines.
    extra: &'s Extra,
    /// For each bracket token, the index of the bracket that closes or opens it.
    matching: Vec<Option<usize>>,
    /// The next token and comment to place.
    next: usize,
    next_comment: usize,
    /// Where the last token or comment placed ends.
    last_end: usize,
    /// Where the tree first asked for a token that is not the next one in the text.
    disagreement: Option<Span>,
}

impl<'s> Layout<'s> {
    fn new(source: &'s str, extra: &'s Extra) -> Self {
        let tokens: Vec<Token> = tokens(source).into_iter().filter(|t| t.kind != Kind::Comment).collect();
        let matching = matching_brackets(source, &tokens);
        Layout { source, tokens, extra, matching, next: 0, next_comment: 0, last_end: 0, disagreement: None }
    }

    fn text_of(&self, index: usize) -> &'s str {
        self.tokens.get(index).map_or("", |t| t.text(self.source))
    }

    /// The text of the next token ("" at the end).
    fn peek(&self) -> &'s str {
        self.text_of(self.next)
    }

    /// Where the next token starts.
    fn pos(&self) -> usize {
        self.tokens.get(self.next).map_or(self.source.len(), |t| t.span.start)
    }

    /// The next token, which must be `expected`, with the comments before and after it.
    fn tok(&mut self, expected: &str) -> Doc {
        if self.peek() != expected {
            self.lost();
            return text(expected);
        }
        self.take()
    }

    /// Notes that the tree and the text disagree at the next token.
    fn lost(&mut self) {
        let at = self.tokens.get(self.next).map_or(Span::new(self.pos(), self.pos()), |t| t.span);
        self.disagreement.get_or_insert(at);
    }

    /// The next token, whatever it is, with the comments before and after it.
    fn take(&mut self) -> Doc {
        let mut docs = self.comments_inline();
        let Some(token) = self.tokens.get(self.next).copied() else {
            self.lost();
            return concat(docs);
        };
        self.next += 1;
        self.last_end = token.span.end;
        docs.push(text(token.text(self.source)));
        docs.extend(self.trailing_comment());
        concat(docs)
    }

    /// The tokens up to the end of `span`, written without spaces: a signed number (`-3`), a
    /// range (`0..10`), a type such as `1..5?`.
    fn compact(&mut self, span: Span) -> Doc {
        let mut docs = Vec::new();
        while self.next < self.tokens.len() && self.tokens[self.next].span.end <= span.end {
            docs.push(self.take());
        }
        concat(docs)
    }

    /// A `,` the grammar allows before a closing bracket: left out, its comments kept.
    fn drop_trailing_comma(&mut self) -> Doc {
        if self.peek() != "," {
            return concat(Vec::new());
        }
        let mut docs = self.comments_inline();
        self.last_end = self.tokens[self.next].span.end;
        self.next += 1;
        docs.extend(self.trailing_comment());
        concat(docs)
    }

    /// The comment after the last token placed on its line, if any.
    fn trailing_comment(&mut self) -> Option<Doc> {
        let comment = *self.extra.comments.get(self.next_comment)?;
        let between = self.source.get(self.last_end..comment.span.start)?;
        if between.contains('\n') || comment.span.start > self.pos() {
            return None;
        }
        self.next_comment += 1;
        self.last_end = comment.span.end;
        Some(Doc::Trailing(self.comment_text(comment)))
    }

    fn comment_text(&self, comment: Comment) -> String {
        comment.text(self.source).trim_end().to_string()
    }

    /// Comments on lines of their own before the next token, where a token is placed: each on a
    /// line of its own.
    fn comments_inline(&mut self) -> Vec<Doc> {
        let mut docs = Vec::new();
        while let Some(comment) = self.extra.comments.get(self.next_comment).copied() {
            if comment.span.start > self.pos() {
                break;
            }
            self.next_comment += 1;
            self.last_end = comment.span.end;
            docs.extend([Doc::HardLine, text(self.comment_text(comment)), Doc::HardLine]);
        }
        docs
    }

    /// The line break before the next declaration, statement or field, with the comments on
    /// lines of their own before it. An empty line is kept where the text has one, except before
    /// the first element of a block (`first`).
    fn boundary(&mut self, first: bool) -> Doc {
        let mut docs = vec![Doc::HardLine];
        let mut blank_ok = !first;
        while let Some(comment) = self.extra.comments.get(self.next_comment).copied() {
            if comment.span.start > self.pos() {
                break;
            }
            if blank_ok && self.blank_between(self.last_end, comment.span.start) {
                docs.push(Doc::BlankLine);
            }
            self.next_comment += 1;
            self.last_end = comment.span.end;
            docs.extend([text(self.comment_text(comment)), Doc::HardLine]);
            blank_ok = true;
        }
        if blank_ok && self.blank_between(self.last_end, self.pos()) {
            docs.push(Doc::BlankLine);
        }
        concat(docs)
    }

    /// The comments after the last element of a block, before its `}` (or the end of the file).
    fn closing_comments(&mut self, after_elements: bool) -> Doc {
        let mut docs = Vec::new();
        let mut blank_ok = after_elements;
        while let Some(comment) = self.extra.comments.get(self.next_comment).copied() {
            if comment.span.start > self.pos() {
                break;
            }
            docs.push(Doc::HardLine);
            if blank_ok && self.blank_between(self.last_end, comment.span.start) {
                docs.push(Doc::BlankLine);
            }
            self.next_comment += 1;
            self.last_end = comment.span.end;
            docs.push(text(self.comment_text(comment)));
            blank_ok = true;
        }
        concat(docs)
    }

    /// Whether an empty line lies between two places with only white space between them.
    fn blank_between(&self, from: usize, to: usize) -> bool {
        self.extra.empty_line_between(from, to)
    }

    /// Whether the bracket that is the next token is closed on the same line, with no comment
    /// between the brackets.
    fn closed_on_its_line(&self) -> bool {
        let Some(close) = self.matching.get(self.next).copied().flatten() else { return false };
        let (open, close) = (self.tokens[self.next].span.start, self.tokens[close].span.end);
        self.on_one_line(Span::new(open, close))
    }

    /// Whether the bracket that is the next token is closed with nothing but white space
    /// between.
    fn closes_empty(&self) -> bool {
        let close = self.matching.get(self.next).copied().flatten();
        let comment_before = self
            .extra
            .comments
            .get(self.next_comment)
            .is_some_and(|c| close.is_none_or(|close| c.span.start < self.tokens[close].span.start));
        close == Some(self.next + 1) && !comment_before
    }

    /// Whether a stretch of the text is on one line with no comment in it.
    fn on_one_line(&self, span: Span) -> bool {
        let comment_inside = self.extra.comments[self.next_comment..]
            .iter()
            .take_while(|c| c.span.start < span.end)
            .any(|c| c.span.start >= span.start);
        let text = self.source.get(span.start..span.end).unwrap_or("\n");
        !comment_inside && !text.contains('\n')
    }

    /// `{ element ... }` of a block, a case or a body of declarations: broken, one element per
    /// line, unless it was written on one line. Then its line breaks are those of the group
    /// around the statement or declaration it is part of, and its elements two spaces apart on
    /// one line: an `if` with an `else` is on one line only if both blocks fit on it.
    fn braced(&mut self, count: usize, mut element: impl FnMut(&mut Self, usize) -> Doc) -> Doc {
        if count == 0 && self.closes_empty() {
            return concat(vec![self.tok("{"), self.tok("}")]);
        }
        let one_line = self.closed_on_its_line();
        let open = self.tok("{");
        if one_line {
            let mut inner = Vec::new();
            for i in 0..count {
                if i > 0 {
                    inner.push(text(" "));
                }
                inner.push(Doc::Line);
                inner.push(element(self, i));
            }
            let edge = if count > 0 { Doc::Line } else { text("") };
            return concat(vec![open, indent(inner), edge, self.tok("}")]);
        }
        let mut inner = Vec::new();
        for i in 0..count {
            inner.push(self.boundary(i == 0));
            inner.push(element(self, i));
        }
        inner.push(self.closing_comments(count > 0));
        doc::broken(vec![open, indent(inner), Doc::HardLine, self.tok("}")])
    }

    /// `open item, item close` (a call's arguments, a list, an enumeration): broken after the
    /// commas when it does not fit (all of them, or with `list.fill` only where the next item
    /// would not fit).
    fn listed(&mut self, list: List, count: usize, mut item: impl FnMut(&mut Self, usize) -> Doc) -> Doc {
        let open = self.tok(list.open);
        let edge = || if list.spaced { Doc::Line } else { Doc::SoftLine };
        if count == 0 {
            let trailing = self.drop_trailing_comma();
            return concat(vec![open, trailing, self.tok(list.close)]);
        }
        let mut items = Vec::new();
        for i in 0..count {
            if i > 0 {
                items.push(Doc::Line);
            }
            let mut docs = vec![item(self, i)];
            docs.push(if i + 1 < count { self.tok(",") } else { self.drop_trailing_comma() });
            items.push(concat(docs));
        }
        let items = if list.fill { Doc::Fill(items) } else { concat(items) };
        doc::group(vec![open, indent(vec![edge(), items]), edge(), self.tok(list.close)])
    }
}

/// The brackets of a list and how it is laid out.
#[derive(Clone, Copy)]
struct List {
    open: &'static str,
    close: &'static str,
    /// Spaces inside the brackets: `{ A, B }`.
    spaced: bool,
    /// As many items on a line as fit.
    fill: bool,
}

/// `(a, b)` and `[a, b]`.
const ARGUMENTS: List = List { open: "(", close: ")", spaced: false, fill: false };
const SQUARE: List = List { open: "[", close: "]", spaced: false, fill: false };
/// `{ a, b }`, and the members of an enumeration.
const BRACED: List = List { open: "{", close: "}", spaced: true, fill: false };
const MEMBERS: List = List { fill: true, ..BRACED };

/// For each bracket token, the index of its partner (`None` for other tokens and brackets
/// without one).
fn matching_brackets(source: &str, tokens: &[Token]) -> Vec<Option<usize>> {
    let mut partner = vec![None; tokens.len()];
    let mut open: Vec<usize> = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        match token.text(source) {
            "(" | "[" | "{" => open.push(i),
            ")" | "]" | "}" => {
                if let Some(o) = open.pop() {
                    partner[o] = Some(i);
                    partner[i] = Some(o);
                }
            }
            _ => {}
        }
    }
    partner
}
