//! Rule-file text to the typed syntax tree, one function per grammar rule.
//!
//! [`parse`] checks the nesting limits (`limits`), runs the pest grammar (its errors are put in
//! words by `describe`), then walks the pest pairs into [`ast`] nodes, resolving string escapes,
//! `{expression}` templates and numbers on the way. Keyword tokens (`k_*`) carry no meaning of
//! their own and are skipped. Every node's span is the byte range of the text it was read from.
//!
//! A node function returns `None` only when the pairs do not have the shape the grammar
//! promises; [`parse`] then reports an internal error rather than panicking. Bad literals are
//! reported and the walk goes on, so one run reports all of them.

use crate::diagnostic::{Code, Problem};
use crate::syntax::ast::*;
use crate::syntax::comments::Extra;
use crate::syntax::describe::syntax_problem;
use crate::syntax::grammar::{ParadoxParser, Rule};
use crate::syntax::limits;
use crate::syntax::tokens::{Kind as TokenKind, declaration_starts, tokens};
use pest::Parser;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, ConstPrattParser, Op};
use pest::pratt_precedence;
use std::cell::RefCell;
use std::sync::{Mutex, PoisonError};

mod decisions;
mod expressions;
mod items;
mod statements;
mod words;

/// The stack of the thread that parses. Nesting within the limits needs at most about 4 MB in a
/// debug build; deeper nesting that the limits cannot see before parsing (a long `else if`
/// chain) stops at pest's own stack guard, reported as too deep.
const PARSE_STACK: usize = 16 << 20;

/// How many syntax errors one reading reports; past them the rest of the file is not read.
const MAX_SYNTAX_ERRORS: usize = 100;

/// Reads a rule file or a scenario (a leading byte-order mark is skipped). Never panics,
/// whatever the text; every problem has a span, in bytes from the start of `source`.
pub fn parse(source: &str) -> Result<File, Vec<Problem>> {
    match parse_partial(source) {
        (Some(file), problems) if problems.is_empty() => Ok(file),
        (_, problems) => Err(problems),
    }
}

/// Reads as much of a file as can be read: the file with the declarations that parse (`None`
/// when nothing can be made of it), and every problem, in the order of the text. After a
/// syntax error in a rule file, reading resumes at the next line that starts with a
/// declaration keyword in its first column, so that each broken declaration is reported.
pub(crate) fn parse_partial(source: &str) -> (Option<File>, Vec<Problem>) {
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("paradox-parse".into())
            .stack_size(PARSE_STACK)
            .spawn_scoped(scope, || parse_here(source));
        match worker {
            Ok(handle) => handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => parse_here(source),
        }
    })
}

fn parse_here(source: &str) -> (Option<File>, Vec<Problem>) {
    let problems = RefCell::new(Vec::new());
    let start = if source.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
    let file = match Reader::open(source, start, source.len(), Rule::file, &problems) {
        Some((reader, pair)) => reader.file(pair),
        None => recover(source, start, &problems),
    };
    let file = file.map(|file| File { extra: Extra::of(source), ..file });
    let mut problems = problems.into_inner();
    if file.is_none() && problems.is_empty() {
        problems.push(internal_error(Span::new(0, source.len())));
    }
    problems.sort_by_key(|p| p.span.start);
    (file, problems)
}

/// Reads the rest of a rule file after the syntax error just reported, declaration by
/// declaration: the declarations that parse, in a file without the broken ones. A scenario is
/// one declaration: nothing is made of it.
fn recover(source: &str, start: usize, problems: &RefCell<Vec<Problem>>) -> Option<File> {
    let first_word = tokens(source).into_iter().find(|t| t.kind != TokenKind::Comment)?;
    if first_word.text(source) == "scenario" {
        return None;
    }
    let starts: Vec<usize> = declaration_starts(source).into_iter().filter(|&s| s >= start).collect();
    let mut items = Vec::new();
    let mut from = start;
    // The error just reported is the first; each turn may add one more.
    for _ in 1..MAX_SYNTAX_ERRORS {
        let error_at = problems.borrow().last().map_or(from, |p| p.span.start);
        let broken = starts.iter().rev().copied().find(|&s| s < error_at && s >= from).unwrap_or(from);
        items.extend(items_between(source, from, broken, problems));
        let Some(next) = starts.iter().copied().find(|&s| s >= error_at && s > broken) else { break };
        from = next;
        if let Some((reader, pair)) = Reader::open(source, from, source.len(), Rule::file, problems) {
            items.extend(reader.file(pair).map(rule_items).unwrap_or_default());
            break;
        }
    }
    Some(File { body: FileBody::Rules(items), span: Span::new(0, source.len()), extra: Extra::default() })
}

/// The declarations in `source[start..end]`, which came before a syntax error. Should they not
/// parse on their own (a line that only looks like the start of a declaration), none are kept
/// and nothing more is reported.
fn items_between(source: &str, start: usize, end: usize, problems: &RefCell<Vec<Problem>>) -> Vec<Item> {
    let found = RefCell::new(Vec::new());
    let items = Reader::open(source, start, end, Rule::file, &found)
        .and_then(|(reader, pair)| reader.file(pair))
        .map(rule_items)
        .unwrap_or_default();
    if !items.is_empty() {
        problems.borrow_mut().extend(found.into_inner());
    }
    items
}

fn rule_items(file: File) -> Vec<Item> {
    match file.body {
        FileBody::Rules(items) => items,
        FileBody::Scenario(_) => Vec::new(),
    }
}

/// Parses text that failed to parse again, this time recording what pest tried at the error
/// (slower, so only on failure). pest's switch for this is process-wide: the lock keeps other
/// threads from turning it off in between.
pub(crate) fn detailed_error(rule: Rule, text: &str) -> Option<pest::error::Error<Rule>> {
    static DETAIL: Mutex<()> = Mutex::new(());
    let _only_us = DETAIL.lock().unwrap_or_else(PoisonError::into_inner);
    pest::set_error_detail(true);
    let error = ParadoxParser::parse(rule, text).err();
    pest::set_error_detail(false);
    error
}

fn internal_error(span: Span) -> Problem {
    Problem::new(Code::Syntax, "internal error: the parser does not match the grammar", span, "while reading this")
        .help("this is a bug in paradox; please report it with the file")
}

/// Operator precedence, loosest first; all binary operators are left-associative.
static PRATT: ConstPrattParser<Rule, 21> = ConstPrattParser::new_const(pratt_precedence![
    Op::infix(Rule::range_op, Assoc::Left),
    Op::infix(Rule::or, Assoc::Left),
    Op::infix(Rule::and, Assoc::Left),
    Op::infix(Rule::in_op, Assoc::Left) | Op::infix(Rule::not_in, Assoc::Left),
    Op::infix(Rule::eq, Assoc::Left)
        | Op::infix(Rule::ne, Assoc::Left)
        | Op::infix(Rule::lt, Assoc::Left)
        | Op::infix(Rule::le, Assoc::Left)
        | Op::infix(Rule::gt, Assoc::Left)
        | Op::infix(Rule::ge, Assoc::Left),
    Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left),
    Op::infix(Rule::mul, Assoc::Left) | Op::infix(Rule::div, Assoc::Left) | Op::infix(Rule::rem, Assoc::Left),
    Op::prefix(Rule::neg) | Op::prefix(Rule::not),
    Op::postfix(Rule::field) | Op::postfix(Rule::index) | Op::postfix(Rule::is_test),
]);

type Node<'s> = Pair<'s, Rule>;

/// Whether a pair is a keyword or the end of input: a token that carries no meaning itself.
fn is_token(rule: Rule) -> bool {
    use Rule::*;
    matches!(
        rule,
        EOI | reserved
            | k_all
            | k_and
            | k_any
            | k_as
            | k_at
            | k_bottom
            | k_by
            | k_card
            | k_cards
            | k_case
            | k_choose
            | k_count
            | k_deal
            | k_deck
            | k_declare
            | k_default
            | k_define
            | k_each
            | k_else
            | k_end
            | k_enum
            | k_extends
            | k_for
            | k_from
            | k_game
            | k_if
            | k_in
            | k_is
            | k_let
            | k_move
            | k_name
            | k_not
            | k_of
            | k_or
            | k_param
            | k_per
            | k_phase
            | k_play
            | k_played
            | k_players
            | k_random
            | k_redo
            | k_repeat
            | k_replace
            | k_reset
            | k_result
            | k_say
            | k_reveal
            | k_scenario
            | k_seat
            | k_seats
            | k_see
            | k_set
            | k_sheet
            | k_show
            | k_solve
            | k_shuffle
            | k_side
            | k_simultaneously
            | k_starting
            | k_then
            | k_to
            | k_until
            | k_var
            | k_variant
            | k_when
            | k_where
            | k_while
            | k_zone
            | k_memo
    )
}

/// The meaningful children of a pair, in order: keyword tokens are skipped.
struct Children<'s>(Pairs<'s, Rule>);

impl<'s> Children<'s> {
    fn of(pair: Node<'s>) -> Self {
        Children(pair.into_inner())
    }

    /// The next child if it is a `rule`.
    fn maybe(&mut self, rule: Rule) -> Option<Node<'s>> {
        while self.0.peek().is_some_and(|p| is_token(p.as_rule())) {
            self.0.next();
        }
        if self.0.peek().is_some_and(|p| p.as_rule() == rule) { self.0.next() } else { None }
    }

    /// The children from here on that are `rule`s.
    fn run_of(&mut self, rule: Rule) -> impl Iterator<Item = Node<'s>> + '_ {
        std::iter::from_fn(move || self.maybe(rule))
    }
}

impl<'s> Iterator for Children<'s> {
    type Item = Node<'s>;

    fn next(&mut self) -> Option<Node<'s>> {
        self.0.find(|p| !is_token(p.as_rule()))
    }
}

/// Builds nodes from pairs read from `source[base..]`; problems with literals are collected.
struct Reader<'s, 'p> {
    source: &'s str,
    base: usize,
    /// Where the comments in the parsed text are, in order.
    comments: Vec<Span>,
    problems: &'p RefCell<Vec<Problem>>,
}

impl<'s, 'p> Reader<'s, 'p> {
    /// Parses `source[base..end]` as `rule` within the limits: a reader for it and its pair, or
    /// `None` when a problem has been reported.
    fn open(
        source: &'s str,
        base: usize,
        end: usize,
        rule: Rule,
        problems: &'p RefCell<Vec<Problem>>,
    ) -> Option<(Self, Node<'s>)> {
        let report = |problem| {
            problems.borrow_mut().push(problem);
            None
        };
        let Some(text) = source.get(base..end) else {
            return report(internal_error(Span::new(base, end)));
        };
        let comments = match limits::check_text(text, base) {
            Ok(comments) => comments,
            Err(problem) => return report(*problem),
        };
        let pair = match ParadoxParser::parse(rule, text) {
            Ok(mut pairs) => pairs.next(),
            Err(error) => {
                let error = detailed_error(rule, text).unwrap_or(error);
                let end_words = if end == source.len() { "end of file" } else { "the closing `}`" };
                return report(syntax_problem(&error, source, base, end_words));
            }
        };
        let Some(pair) = pair else {
            return report(internal_error(Span::new(base, end)));
        };
        if let Err(problem) = limits::check_tree(pair.clone(), base) {
            return report(*problem);
        }
        let reader = Reader { source, base, comments, problems };
        Some((reader, pair))
    }

    /// The span of a pair, without the white space and comments pest lets a rule end with.
    fn span(&self, pair: &Node<'s>) -> Span {
        let span = pair.as_span();
        let start = self.base + span.start();
        let mut end = self.base + span.end();
        loop {
            let text = self.source.get(start..end).unwrap_or_default();
            end = start + text.trim_end_matches([' ', '\t', '\r', '\n']).len();
            match self.comment_around(end) {
                Some(comment) => end = comment.start,
                None => return Span::new(start, end),
            }
        }
    }

    /// The comment that the text just before `end` belongs to.
    fn comment_around(&self, end: usize) -> Option<Span> {
        let after = self.comments.partition_point(|c| c.start < end);
        let comment = *self.comments.get(after.checked_sub(1)?)?;
        (end <= comment.end).then_some(comment)
    }

    fn report(&self, problem: Problem) {
        self.problems.borrow_mut().push(problem);
    }
}

/// The text between a string token's quotes.
fn quoted(token: &str) -> &str {
    token.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(token)
}

fn too_large(span: Span) -> Problem {
    Problem::new(Code::BadLiteral, "this number is too large", span, "does not fit in 64 bits")
        .help(format!("a number may be at most {} either side of 0", i64::MAX))
}

fn bad_escape(span: Span, written: &str) -> Problem {
    Problem::new(Code::BadLiteral, format!("unknown escape `{written}` in a string"), span, "unknown escape")
        .help("the escapes are `\\\"`, `\\\\`, `\\n`, `\\{` and `\\}`")
}

fn unclosed_brace(at: usize) -> Problem {
    Problem::new(Code::Syntax, "this `{` is not closed", Span::new(at, at + 1), "no matching `}` in the text")
        .help("`{ ... }` in text holds an expression; write `\\{` for a brace in the text")
}

fn stray_brace(at: usize) -> Problem {
    Problem::new(Code::Syntax, "a `}` without a `{`", Span::new(at, at + 1), "nothing to close")
        .help("write `\\}` for a brace in the text")
}

fn twice(what: &str, again: Span, first: Span) -> Problem {
    Problem::new(Code::Duplicate, format!("{what} is given twice"), again, "given again here")
        .note(first, "first given here")
        .help("keep one of them")
}

#[cfg(test)]
mod tests;
