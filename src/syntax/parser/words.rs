//! Words and literals: names, numbers, strings with their escapes, and `{expression}` templates.

use super::*;
use crate::syntax::strings::{closing_brace, outside_strings};

impl<'s, 'p> Reader<'s, 'p> {
    pub(super) fn ident(&self, pair: Node<'s>) -> Ident {
        Ident { name: pair.as_str().to_string(), span: self.span(&pair) }
    }

    pub(super) fn int(&self, pair: Node<'s>) -> IntLit {
        let span = self.span(&pair);
        let value = pair.as_str().parse().unwrap_or_else(|_| {
            self.report(too_large(span));
            0
        });
        IntLit { value, span }
    }

    pub(super) fn signed_int(&self, pair: Node<'s>) -> IntLit {
        self.int(pair)
    }

    /// A plain string: escapes resolved, braces kept as written.
    pub(super) fn string(&self, pair: Node<'s>) -> StrLit {
        let span = self.span(&pair);
        let mut value = String::new();
        let raw = quoted(pair.as_str());
        let mut pos = 0;
        while let Some(k) = raw[pos..].find('\\').map(|k| k + pos) {
            value.push_str(&raw[pos..k]);
            pos = self.escape(raw, k, span.start + 1, &mut value);
        }
        value.push_str(&raw[pos..]);
        StrLit { value: printable(value), span }
    }

    /// Resolves the escape at `raw[at]` (a `\`) into `out`; returns the index past it. `start` is
    /// where `raw` begins in the file.
    pub(super) fn escape(&self, raw: &str, at: usize, start: usize, out: &mut String) -> usize {
        let Some(c) = raw[at + 1..].chars().next() else {
            self.report(bad_escape(Span::new(start + at, start + at + 1), "\\"));
            return at + 1;
        };
        let end = at + 1 + c.len_utf8();
        match c {
            '"' | '\\' | '{' | '}' => out.push(c),
            'n' => out.push('\n'),
            _ => {
                self.report(bad_escape(Span::new(start + at, start + end), &raw[at..end]));
                out.push(c);
            }
        }
        end
    }

    /// A string whose `{expression}` parts are read as expressions.
    pub(super) fn template(&self, pair: Node<'s>) -> Template {
        let span = self.span(&pair);
        let raw = quoted(pair.as_str());
        let start = span.start + 1;
        let mut parts = Vec::new();
        let mut text = String::new();
        let mut pos = 0;
        while let Some(k) = raw[pos..].find(['\\', '{', '}']).map(|k| k + pos) {
            text.push_str(&raw[pos..k]);
            pos = match raw.as_bytes().get(k) {
                Some(b'{') => match closing_brace(raw.as_bytes(), k).map(|past| past - 1) {
                    Some(close) => {
                        if !text.is_empty() {
                            parts.push(TemplatePart::Text(std::mem::take(&mut text)));
                        }
                        parts.extend(self.template_part(raw, start, k + 1, close));
                        close + 1
                    }
                    None => {
                        self.report(unclosed_brace(start + k));
                        raw.len()
                    }
                },
                Some(b'}') => {
                    self.report(stray_brace(start + k));
                    k + 1
                }
                _ => self.escape(raw, k, start, &mut text),
            };
        }
        text.push_str(&raw[pos..]);
        if !text.is_empty() {
            parts.push(TemplatePart::Text(text));
        }
        for part in &mut parts {
            if let TemplatePart::Text(text) = part {
                *text = printable(std::mem::take(text));
            }
        }
        Template { parts, span }
    }

    /// What `raw[open..close]` between a template's braces says: an expression, or a number with
    /// its word for one and for several (`tricks[t]|trick|tricks`).
    pub(super) fn template_part(&self, raw: &str, start: usize, open: usize, close: usize) -> Option<TemplatePart> {
        let Some(bar) = outside_strings(raw.as_bytes(), open, close, b'|') else {
            return self.template_expr(start + open, start + close).map(TemplatePart::Expr);
        };
        let count = self.template_expr(start + open, start + bar);
        let forms: Vec<&str> = raw[bar + 1..close].split('|').map(str::trim).collect();
        let [one, many] = forms[..] else {
            let label = if forms.len() == 1 { "one word".to_string() } else { format!("{} words", forms.len()) };
            self.report(
                Problem::new(Code::Syntax, "a plural needs two words", Span::new(start + bar, start + close), label)
                    .help("write the number, then its word for one and for several: `{n|card|cards}`"),
            );
            return None;
        };
        if one.is_empty() || many.is_empty() {
            self.report(
                Problem::new(Code::Syntax, "a plural word is empty", Span::new(start + bar, start + close), "empty")
                    .help("write both words: `{n|card|cards}`"),
            );
            return None;
        }
        Some(TemplatePart::Plural { count: count?, one: printable(one.into()), many: printable(many.into()) })
    }

    /// The expression written in `source[start..end]`, inside a template's braces.
    pub(super) fn template_expr(&self, start: usize, end: usize) -> Option<Expr> {
        let (inner, pair) = Reader::open(self.source, start, end, Rule::expr_only, self.problems)?;
        let expr = inner.expr_only(pair);
        if expr.is_none() {
            self.report(internal_error(Span::new(start, end)));
        }
        expr
    }

    pub(super) fn expr_only(&self, pair: Node<'s>) -> Option<Expr> {
        self.expr(Children::of(pair).next()?)
    }
}

/// A string of the file as the game keeps it: its control characters escaped
/// ([`crate::printable`]), so that no name, label or narration reaches a terminal raw.
fn printable(text: String) -> String {
    match crate::printable::escape(&text) {
        std::borrow::Cow::Owned(safe) => safe,
        std::borrow::Cow::Borrowed(_) => text,
    }
}
