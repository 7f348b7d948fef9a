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
pub fn parse_partial(source: &str) -> (Option<File>, Vec<Problem>) {
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

    // ------------------------------------------------------------------ words

    fn ident(&self, pair: Node<'s>) -> Ident {
        Ident { name: pair.as_str().to_string(), span: self.span(&pair) }
    }

    fn int(&self, pair: Node<'s>) -> IntLit {
        let span = self.span(&pair);
        let value = pair.as_str().parse().unwrap_or_else(|_| {
            self.report(too_large(span));
            0
        });
        IntLit { value, span }
    }

    fn signed_int(&self, pair: Node<'s>) -> IntLit {
        self.int(pair)
    }

    /// A plain string: escapes resolved, braces kept as written.
    fn string(&self, pair: Node<'s>) -> StrLit {
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
    fn escape(&self, raw: &str, at: usize, start: usize, out: &mut String) -> usize {
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
    fn template(&self, pair: Node<'s>) -> Template {
        let span = self.span(&pair);
        let raw = quoted(pair.as_str());
        let start = span.start + 1;
        let mut parts = Vec::new();
        let mut text = String::new();
        let mut pos = 0;
        while let Some(k) = raw[pos..].find(['\\', '{', '}']).map(|k| k + pos) {
            text.push_str(&raw[pos..k]);
            pos = match raw.as_bytes().get(k) {
                Some(b'{') => match closing_brace(raw, k) {
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
    fn template_part(&self, raw: &str, start: usize, open: usize, close: usize) -> Option<TemplatePart> {
        let Some(bar) = raw[open..close].find('|').map(|b| b + open) else {
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
    fn template_expr(&self, start: usize, end: usize) -> Option<Expr> {
        let (inner, pair) = Reader::open(self.source, start, end, Rule::expr_only, self.problems)?;
        let expr = inner.expr_only(pair);
        if expr.is_none() {
            self.report(internal_error(Span::new(start, end)));
        }
        expr
    }

    fn expr_only(&self, pair: Node<'s>) -> Option<Expr> {
        self.expr(Children::of(pair).next()?)
    }

    // ------------------------------------------------------------------ files and items

    /// The whole file; its span is the whole text, white space and comments included.
    fn file(&self, pair: Node<'s>) -> Option<File> {
        let span = Span::new(0, self.source.len());
        let mut children = Children::of(pair);
        let body = match children.maybe(Rule::scenario) {
            Some(scenario) => FileBody::Scenario(self.scenario(scenario)?),
            None => FileBody::Rules(children.map(|p| self.item(p)).collect::<Option<_>>()?),
        };
        Some(File { body, span, extra: Extra::default() })
    }

    fn scenario(&self, pair: Node<'s>) -> Option<Scenario> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(Scenario {
            name: self.string(children.next()?),
            extends: self.string(children.next()?),
            items: children.map(|p| self.variant_item(p)).collect::<Option<_>>()?,
            span,
        })
    }

    fn item(&self, pair: Node<'s>) -> Option<Item> {
        Some(match pair.as_rule() {
            Rule::game_decl => Item::Game(self.game_decl(pair)?),
            Rule::players_decl => Item::Players(self.players_decl(pair)?),
            Rule::seats_decl => Item::Seats(self.seats_decl(pair)?),
            Rule::control_decl => Item::Control(self.control_decl(pair)?),
            Rule::side_decl => Item::Side(self.side_decl(pair)?),
            Rule::param_decl => Item::Param(self.param_decl(pair)?),
            Rule::enum_decl => Item::Enum(self.enum_decl(pair)?),
            Rule::card_decl => Item::Card(self.card_decl(pair)?),
            Rule::deck_decl => Item::Deck(self.deck_decl(pair)?),
            Rule::zone_decl => Item::Zone(self.zone_decl(pair)?),
            Rule::var_decl => Item::Var(self.var_decl(pair)?),
            Rule::define_decl => Item::Define(self.define_decl(pair)?),
            Rule::proc_decl => Item::Procedure(self.proc_decl(pair)?),
            Rule::play_decl => Item::Play(self.play_decl(pair)?),
            Rule::result_decl => Item::Result(self.result_decl(pair)?),
            Rule::solve_decl => Item::Solve(self.solve_decl(pair)?),
            Rule::variant_decl => Item::Variant(self.variant_decl(pair)?),
            Rule::show_decl => Item::Show(Box::new(self.show_decl(pair)?)),
            Rule::sheet_decl => Item::Sheet(self.sheet_decl(pair)?),
            _ => return None,
        })
    }

    fn game_decl(&self, pair: Node<'s>) -> Option<GameDecl> {
        let span = self.span(&pair);
        let name = self.string(Children::of(pair).next()?);
        Some(GameDecl { name, span })
    }

    fn players_decl(&self, pair: Node<'s>) -> Option<PlayersDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        let min = self.int(children.next()?);
        let range = match (children.next(), children.next()) {
            (Some(max), Some(default)) => Some((self.int(max), self.int(default))),
            _ => None,
        };
        Some(PlayersDecl { min, range, span })
    }

    fn seats_decl(&self, pair: Node<'s>) -> Option<SeatsDecl> {
        let span = self.span(&pair);
        let seats = Children::of(pair).map(|p| self.named(p)).collect::<Option<_>>()?;
        Some(SeatsDecl { seats, span })
    }

    fn named(&self, pair: Node<'s>) -> Option<Named> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(Named {
            name: self.ident(children.next()?),
            display: children.maybe(Rule::string).map(|p| self.string(p)),
            span,
        })
    }

    fn control_decl(&self, pair: Node<'s>) -> Option<ControlDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(ControlDecl { seat: self.ident(children.next()?), by: self.ident(children.next()?), span })
    }

    fn side_decl(&self, pair: Node<'s>) -> Option<SideDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(SideDecl {
            name: self.ident(children.next()?),
            display: children.maybe(Rule::string).map(|p| self.string(p)),
            seats: children.map(|p| self.ident(p)).collect(),
            span,
        })
    }

    fn param_decl(&self, pair: Node<'s>) -> Option<ParamDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(ParamDecl {
            name: self.ident(children.next()?),
            ty: self.type_expr(children.next()?)?,
            default: self.literal(children.next()?)?,
            range: match children.maybe(Rule::param_range) {
                Some(range) => Some(self.param_range(range)?),
                None => None,
            },
            doc: children.maybe(Rule::string).map(|p| self.string(p)),
            span,
        })
    }

    fn literal(&self, pair: Node<'s>) -> Option<Literal> {
        let span = self.span(&pair);
        let value = Children::of(pair).next()?;
        let kind = match value.as_rule() {
            Rule::signed_int => LiteralKind::Int(self.signed_int(value).value),
            Rule::bool_lit => LiteralKind::Bool(self.bool_lit(value)),
            Rule::ident => LiteralKind::Name(value.as_str().to_string()),
            _ => return None,
        };
        Some(Literal { kind, span })
    }

    fn param_range(&self, pair: Node<'s>) -> Option<(IntLit, IntLit)> {
        let mut children = Children::of(pair);
        Some((self.signed_int(children.next()?), self.signed_int(children.next()?)))
    }

    fn enum_decl(&self, pair: Node<'s>) -> Option<EnumDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(EnumDecl {
            name: self.ident(children.next()?),
            members: children.map(|p| self.enum_member(p)).collect::<Option<_>>()?,
            span,
        })
    }

    fn enum_member(&self, pair: Node<'s>) -> Option<EnumMember> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(EnumMember {
            name: self.ident(children.next()?),
            payload: match children.maybe(Rule::payload) {
                Some(payload) => Some(self.payload(payload)?),
                None => None,
            },
            display: children.maybe(Rule::string).map(|p| self.string(p)),
            span,
        })
    }

    fn payload(&self, pair: Node<'s>) -> Option<(Ident, TypeExpr)> {
        let mut children = Children::of(pair);
        Some((self.ident(children.next()?), self.type_expr(children.next()?)?))
    }

    fn card_decl(&self, pair: Node<'s>) -> Option<CardDecl> {
        let span = self.span(&pair);
        let mut fields = Vec::new();
        let mut name: Option<Template> = None;
        for child in Children::of(pair) {
            match child.as_rule() {
                Rule::card_name => {
                    let template = self.card_name(child)?;
                    match &name {
                        Some(first) => self.report(twice("the card name", template.span, first.span)),
                        None => name = Some(template),
                    }
                }
                _ => fields.push(self.card_field(child)?),
            }
        }
        Some(CardDecl { fields, name, span })
    }

    fn card_field(&self, pair: Node<'s>) -> Option<CardField> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(CardField {
            name: self.ident(children.next()?),
            ty: self.type_expr(children.next()?)?,
            derived: match children.next() {
                Some(expr) => Some(self.expr(expr)?),
                None => None,
            },
            span,
        })
    }

    fn card_name(&self, pair: Node<'s>) -> Option<Template> {
        Some(self.template(Children::of(pair).next()?))
    }

    fn deck_decl(&self, pair: Node<'s>) -> Option<DeckDecl> {
        let span = self.span(&pair);
        let body = self.block(Children::of(pair).next()?)?;
        Some(DeckDecl { body, span })
    }

    fn zone_decl(&self, pair: Node<'s>) -> Option<ZoneDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        let mut zone = ZoneDecl {
            name: self.ident(children.next()?),
            owner: match children.maybe(Rule::owner) {
                Some(owner) => Some(self.owner(owner)?),
                None => None,
            },
            display: children.maybe(Rule::string).map(|s| self.string(s)),
            see: None,
            count: None,
            span,
        };
        for prop in children {
            let (is_see, audience, span) = self.zone_prop(prop)?;
            let (slot, what) = if is_see { (&mut zone.see, "`see`") } else { (&mut zone.count, "`count`") };
            match slot {
                Some((_, first)) => self.report(twice(what, span, *first)),
                None => *slot = Some((audience, span)),
            }
        }
        Some(zone)
    }

    fn owner(&self, pair: Node<'s>) -> Option<Owner> {
        match Children::of(pair).next()?.as_rule() {
            Rule::owner_seat => Some(Owner::Seat),
            Rule::owner_side => Some(Owner::Side),
            _ => None,
        }
    }

    /// `see: owner` or `count: everyone`: whether it is `see`, the audience, and its span.
    fn zone_prop(&self, pair: Node<'s>) -> Option<(bool, Audience, Span)> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        let is_see = children.next()?.as_rule() == Rule::see_prop;
        let audience = self.audience(children.next()?)?;
        Some((is_see, audience, span))
    }

    fn audience(&self, pair: Node<'s>) -> Option<Audience> {
        match pair.as_str() {
            "everyone" => Some(Audience::Everyone),
            "owner" => Some(Audience::Owner),
            "nobody" => Some(Audience::Nobody),
            _ => None,
        }
    }

    fn var_decl(&self, pair: Node<'s>) -> Option<VarDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(VarDecl {
            name: self.ident(children.next()?),
            ty: self.type_expr(children.next()?)?,
            owner: match children.maybe(Rule::owner) {
                Some(owner) => Some(self.owner(owner)?),
                None => None,
            },
            init: self.expr(children.next()?)?,
            reset: match children.next() {
                Some(reset) => Some(self.reset(reset)?),
                None => None,
            },
            span,
        })
    }

    fn reset(&self, pair: Node<'s>) -> Option<Ident> {
        Some(self.ident(Children::of(pair).next()?))
    }

    fn define_decl(&self, pair: Node<'s>) -> Option<DefineDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(DefineDecl {
            name: self.ident(children.next()?),
            params: children.run_of(Rule::fn_param).map(|p| self.fn_param(p)).collect::<Option<_>>()?,
            ret: self.type_expr(children.next()?)?,
            body: self.expr(children.next()?)?,
            span,
        })
    }

    fn proc_decl(&self, pair: Node<'s>) -> Option<ProcDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(ProcDecl {
            name: self.ident(children.next()?),
            params: children.run_of(Rule::fn_param).map(|p| self.fn_param(p)).collect::<Option<_>>()?,
            body: self.block(children.next()?)?,
            span,
        })
    }

    fn fn_param(&self, pair: Node<'s>) -> Option<(Ident, TypeExpr)> {
        let mut children = Children::of(pair);
        Some((self.ident(children.next()?), self.type_expr(children.next()?)?))
    }

    fn play_decl(&self, pair: Node<'s>) -> Option<PlayDecl> {
        let span = self.span(&pair);
        let body = self.block(Children::of(pair).next()?)?;
        Some(PlayDecl { body, span })
    }

    fn result_decl(&self, pair: Node<'s>) -> Option<ResultDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(ResultDecl {
            extreme: self.extreme(children.next()?)?,
            binder: self.ident(children.next()?),
            domain: self.expr(children.next()?)?,
            key: self.expr(children.next()?)?,
            span,
        })
    }

    fn solve_decl(&self, pair: Node<'s>) -> Option<SolveDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(SolveDecl {
            phase: self.ident(children.next()?),
            binder: self.ident(children.next()?),
            domain: self.expr(children.next()?)?,
            key: self.expr(children.next()?)?,
            span,
        })
    }

    fn extreme(&self, pair: Node<'s>) -> Option<Extreme> {
        match pair.as_str() {
            "highest" => Some(Extreme::Highest),
            "lowest" => Some(Extreme::Lowest),
            _ => None,
        }
    }

    fn show_decl(&self, pair: Node<'s>) -> Option<ShowDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(ShowDecl {
            each: match children.maybe(Rule::show_each) {
                Some(each) => Some(self.show_each(each)?),
                None => None,
            },
            text: self.template(children.next()?),
            when: match children.maybe(Rule::show_when) {
                Some(when) => Some(self.show_when(when)?),
                None => None,
            },
            span,
        })
    }

    fn sheet_decl(&self, pair: Node<'s>) -> Option<SheetDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(SheetDecl {
            phase: self.ident(children.next()?),
            binder: self.ident(children.next()?),
            domain: self.expr(children.next()?)?,
            text: self.template(children.next()?),
            span,
        })
    }

    fn show_each(&self, pair: Node<'s>) -> Option<Binding> {
        self.binding(Children::of(pair).next()?)
    }

    fn show_when(&self, pair: Node<'s>) -> Option<Expr> {
        self.expr(Children::of(pair).next()?)
    }

    fn variant_decl(&self, pair: Node<'s>) -> Option<VariantDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(VariantDecl {
            name: self.ident(children.next()?),
            doc: children.maybe(Rule::string).map(|p| self.string(p)),
            items: children.map(|p| self.variant_item(p)).collect::<Option<_>>()?,
            span,
        })
    }

    fn variant_item(&self, pair: Node<'s>) -> Option<VariantItem> {
        match pair.as_rule() {
            Rule::set_item => self.set_item(pair),
            Rule::replace_item => self.replace_item(pair),
            _ => None,
        }
    }

    fn set_item(&self, pair: Node<'s>) -> Option<VariantItem> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(VariantItem::Set { name: self.ident(children.next()?), value: self.literal(children.next()?)?, span })
    }

    fn replace_item(&self, pair: Node<'s>) -> Option<VariantItem> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(VariantItem::Replace { phase: self.ident(children.next()?), body: self.block(children.next()?)?, span })
    }

    // ------------------------------------------------------------------ types

    fn type_expr(&self, pair: Node<'s>) -> Option<TypeExpr> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        let ty = children.next()?;
        let kind = match ty.as_rule() {
            Rule::set_type => self.set_type(ty)?,
            Rule::range_type => self.range_type(ty)?,
            Rule::card_type => TypeKind::Card,
            Rule::ident => TypeKind::Named(self.ident(ty)),
            _ => return None,
        };
        let optional = children.maybe(Rule::optional).is_some();
        Some(TypeExpr { kind, optional, span })
    }

    fn set_type(&self, pair: Node<'s>) -> Option<TypeKind> {
        let element = self.type_expr(Children::of(pair).next()?)?;
        Some(TypeKind::SetOf(Box::new(element)))
    }

    fn range_type(&self, pair: Node<'s>) -> Option<TypeKind> {
        let mut children = Children::of(pair);
        let low = self.signed_int(children.next()?);
        let high = self.signed_int(children.next()?);
        Some(TypeKind::Range(low.value, high.value))
    }

    // ------------------------------------------------------------------ statements

    fn block(&self, pair: Node<'s>) -> Option<Block> {
        let span = self.span(&pair);
        let stmts = Children::of(pair).map(|p| self.stmt(p)).collect::<Option<_>>()?;
        Some(Block { stmts, span })
    }

    fn stmt(&self, pair: Node<'s>) -> Option<Stmt> {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::let_stmt => self.let_stmt(pair)?,
            Rule::assign_stmt => self.assign_stmt(pair)?,
            Rule::call_stmt => self.call_stmt(pair)?,
            Rule::if_stmt => self.if_stmt(pair)?,
            Rule::for_stmt => self.for_stmt(pair)?,
            Rule::repeat_stmt => self.repeat_stmt(pair)?,
            Rule::while_stmt => self.while_stmt(pair)?,
            Rule::phase_stmt => self.phase_stmt(pair)?,
            Rule::choose_stmt => StmtKind::Choose(Box::new(self.choose_stmt(pair)?)),
            Rule::simultaneous_stmt => self.simultaneous_stmt(pair)?,
            Rule::move_stmt => self.move_stmt(pair)?,
            Rule::shuffle_stmt => self.shuffle_stmt(pair)?,
            Rule::deal_stmt => self.deal_stmt(pair)?,
            Rule::say_stmt => self.say_stmt(pair)?,
            Rule::reveal_stmt => self.reveal_stmt(pair)?,
            Rule::redo_stmt => self.redo_stmt(pair)?,
            Rule::end_stmt => self.end_stmt(pair)?,
            Rule::make_card_stmt => self.make_card_stmt(pair)?,
            _ => return None,
        };
        Some(Stmt { kind, span })
    }

    fn let_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        Some(StmtKind::Let { name: self.ident(children.next()?), value: self.rhs(children.next()?)? })
    }

    fn assign_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        Some(StmtKind::Assign {
            target: self.place(children.next()?)?,
            op: self.assign_op(children.next()?)?,
            value: self.rhs(children.next()?)?,
        })
    }

    fn place(&self, pair: Node<'s>) -> Option<Place> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(Place {
            name: self.ident(children.next()?),
            index: match children.next() {
                Some(index) => Some(self.expr(index)?),
                None => None,
            },
            span,
        })
    }

    fn assign_op(&self, pair: Node<'s>) -> Option<AssignOp> {
        match pair.as_str() {
            "=" => Some(AssignOp::Set),
            "+=" => Some(AssignOp::Add),
            "-=" => Some(AssignOp::Sub),
            _ => None,
        }
    }

    fn rhs(&self, pair: Node<'s>) -> Option<Rhs> {
        let value = Children::of(pair).next()?;
        match value.as_rule() {
            Rule::random_pick => Some(Rhs::Random(Box::new(self.random_pick(value)?))),
            _ => Some(Rhs::Expr(self.expr(value)?)),
        }
    }

    fn random_pick(&self, pair: Node<'s>) -> Option<Binding> {
        self.binding(Children::of(pair).next()?)
    }

    fn if_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        let cond = self.expr(children.next()?)?;
        let then = self.block(children.next()?)?;
        let otherwise = match children.next() {
            Some(next) if next.as_rule() == Rule::if_stmt => Some(self.else_if(next)?),
            Some(block) => Some(self.block(block)?),
            None => None,
        };
        Some(StmtKind::If { cond, then, otherwise })
    }

    /// `else if ...`: a block holding just that `if`.
    fn else_if(&self, pair: Node<'s>) -> Option<Block> {
        let span = self.span(&pair);
        let kind = self.if_stmt(pair)?;
        Some(Block { stmts: vec![Stmt { kind, span }], span })
    }

    fn for_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        Some(StmtKind::For {
            bindings: children.run_of(Rule::binding).map(|p| self.binding(p)).collect::<Option<_>>()?,
            body: self.block(children.next()?)?,
        })
    }

    fn binding(&self, pair: Node<'s>) -> Option<Binding> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(Binding {
            name: self.ident(children.next()?),
            domain: self.expr(children.next()?)?,
            start: match children.maybe(Rule::start_at) {
                Some(start) => Some(self.start_at(start)?),
                None => None,
            },
            filter: match children.maybe(Rule::filter) {
                Some(filter) => Some(self.filter(filter)?),
                None => None,
            },
            span,
        })
    }

    fn start_at(&self, pair: Node<'s>) -> Option<Expr> {
        self.expr(Children::of(pair).next()?)
    }

    fn filter(&self, pair: Node<'s>) -> Option<Expr> {
        self.expr(Children::of(pair).next()?)
    }

    fn repeat_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        let head = children.next()?;
        let body = self.block(children.next()?)?;
        Some(match head.as_rule() {
            Rule::until => StmtKind::RepeatUntil { cond: self.until(head)?, body },
            _ => StmtKind::Repeat { count: self.expr(head)?, body },
        })
    }

    fn until(&self, pair: Node<'s>) -> Option<Expr> {
        self.expr(Children::of(pair).next()?)
    }

    fn while_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        Some(StmtKind::While { cond: self.expr(children.next()?)?, body: self.block(children.next()?)? })
    }

    fn phase_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        let name = self.ident(children.next()?);
        let title = match children.maybe(Rule::phase_title) {
            Some(title) => Some(self.phase_title(title)?),
            None => None,
        };
        Some(StmtKind::Phase { name, title, body: self.block(children.next()?)? })
    }

    /// `"trick" of hand_size`: the phase's name for players, and how many of it a round holds.
    fn phase_title(&self, pair: Node<'s>) -> Option<PhaseTitle> {
        let mut children = Children::of(pair);
        let text = self.string(children.next()?);
        let of = match children.next() {
            Some(of) => Some(self.expr(of)?),
            None => None,
        };
        Some(PhaseTitle { text, of })
    }

    /// `choose c from D1, D2 by SEAT ...`: the last expression before the tiers is the seat.
    fn choose_stmt(&self, pair: Node<'s>) -> Option<Choose> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        let group = match children.maybe(Rule::group) {
            Some(group) => Some(match Children::of(group).maybe(Rule::expr) {
                Some(size) => Some(self.expr(size)?),
                None => None,
            }),
            None => None,
        };
        let name = self.ident(children.next()?);
        let mut domains = children.run_of(Rule::expr).map(|p| self.expr(p)).collect::<Option<Vec<_>>>()?;
        // Without a menu the seat's expression follows the domains directly.
        let (menu, by) = match children.maybe(Rule::menu) {
            Some(menu) => (Some(self.menu(menu)?), self.expr(children.next()?)?),
            None => (None, domains.pop()?),
        };
        Some(Choose {
            name,
            domains,
            menu,
            group,
            by,
            tiers: match children.maybe(Rule::tiers) {
                Some(tiers) => self.tiers(tiers)?,
                None => Vec::new(),
            },
            declare: match children.maybe(Rule::declare) {
                Some(declare) => Some(self.declare(declare)?),
                None => None,
            },
            label: match children.maybe(Rule::label) {
                Some(label) => Some(self.label(label)?),
                None => None,
            },
            span,
        })
    }

    /// `or m from Move`.
    fn menu(&self, pair: Node<'s>) -> Option<(Ident, Expr)> {
        let mut children = Children::of(pair);
        Some((self.ident(children.next()?), self.expr(children.next()?)?))
    }

    fn tiers(&self, pair: Node<'s>) -> Option<Vec<Tier>> {
        Children::of(pair).map(|p| self.tier(p)).collect()
    }

    fn tier(&self, pair: Node<'s>) -> Option<Tier> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        let head = children.next()?;
        Some(Tier {
            cond: match head.as_rule() {
                Rule::any_tier => None,
                _ => Some(self.expr(head)?),
            },
            then: match children.next() {
                Some(block) => Some(self.block(block)?),
                None => None,
            },
            span,
        })
    }

    fn declare(&self, pair: Node<'s>) -> Option<Declare> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(Declare { name: self.ident(children.next()?), when: self.expr(children.next()?)?, span })
    }

    fn label(&self, pair: Node<'s>) -> Option<Template> {
        Some(self.template(Children::of(pair).next()?))
    }

    fn simultaneous_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        Some(StmtKind::Simultaneously { binding: self.binding(children.next()?)?, body: self.block(children.next()?)? })
    }

    fn move_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        Some(StmtKind::Move {
            random: match children.maybe(Rule::random_count) {
                Some(count) => Some(self.random_count(count)?),
                None => None,
            },
            cards: self.expr(children.next()?)?,
            to: self.expr(children.next()?)?,
        })
    }

    fn random_count(&self, pair: Node<'s>) -> Option<Expr> {
        self.expr(Children::of(pair).next()?)
    }

    fn shuffle_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        Some(StmtKind::Shuffle { zone: self.expr(Children::of(pair).next()?)? })
    }

    fn deal_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        Some(StmtKind::Deal {
            count: self.deal_count(children.next()?)?,
            from: self.expr(children.next()?)?,
            to: self.ident(children.next()?),
            starting: match children.next() {
                Some(starting) => Some(self.starting(starting)?),
                None => None,
            },
        })
    }

    /// `all` (no count) or `N each`.
    fn deal_count(&self, pair: Node<'s>) -> Option<Option<Expr>> {
        match Children::of(pair).next() {
            Some(count) => Some(Some(self.expr(count)?)),
            None => Some(None),
        }
    }

    fn starting(&self, pair: Node<'s>) -> Option<Expr> {
        self.expr(Children::of(pair).next()?)
    }

    fn call_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        let func = self.ident(children.next()?);
        Some(StmtKind::Call { func, args: children.map(|p| self.expr(p)).collect::<Option<_>>()? })
    }

    fn say_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        Some(StmtKind::Say { text: self.template(Children::of(pair).next()?) })
    }

    fn reveal_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        Some(StmtKind::Reveal { cards: self.expr(Children::of(pair).next()?)? })
    }

    fn redo_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        Some(StmtKind::Redo { phase: self.ident(Children::of(pair).next()?) })
    }

    fn end_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        Some(StmtKind::End { phase: self.ident(Children::of(pair).next()?) })
    }

    fn make_card_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let fields = Children::of(pair).map(|p| self.field_init(p)).collect::<Option<_>>()?;
        Some(StmtKind::MakeCard { fields })
    }

    fn field_init(&self, pair: Node<'s>) -> Option<(Ident, Option<Expr>)> {
        let mut children = Children::of(pair);
        let name = self.ident(children.next()?);
        let value = match children.next() {
            Some(value) => Some(self.expr(value)?),
            None => None,
        };
        Some((name, value))
    }

    // ------------------------------------------------------------------ expressions

    fn expr(&self, pair: Node<'s>) -> Option<Expr> {
        if pair.as_rule() != Rule::expr {
            return None;
        }
        PRATT
            .map_primary(|p| self.primary(p))
            .map_prefix(|op, operand| self.prefix(op, operand?))
            .map_infix(|lhs, op, rhs| self.infix(lhs?, op, rhs?))
            .map_postfix(|operand, op| self.postfix(operand?, op))
            .parse(pair.into_inner())
    }

    fn prefix(&self, op: Node<'s>, operand: Expr) -> Option<Expr> {
        let span = self.span(&op).to(operand.span);
        let op = match op.as_rule() {
            Rule::neg => UnOp::Neg,
            Rule::not => UnOp::Not,
            _ => return None,
        };
        Some(Expr { kind: ExprKind::Unary(op, Box::new(operand)), span })
    }

    fn infix(&self, lhs: Expr, op: Node<'s>, rhs: Expr) -> Option<Expr> {
        let span = lhs.span.to(rhs.span);
        let op = match op.as_rule() {
            Rule::range_op => BinOp::Range,
            Rule::or => BinOp::Or,
            Rule::and => BinOp::And,
            Rule::in_op => BinOp::In,
            Rule::not_in => BinOp::NotIn,
            Rule::eq => BinOp::Eq,
            Rule::ne => BinOp::Ne,
            Rule::lt => BinOp::Lt,
            Rule::le => BinOp::Le,
            Rule::gt => BinOp::Gt,
            Rule::ge => BinOp::Ge,
            Rule::add => BinOp::Add,
            Rule::sub => BinOp::Sub,
            Rule::mul => BinOp::Mul,
            Rule::div => BinOp::Div,
            Rule::rem => BinOp::Rem,
            _ => return None,
        };
        Some(Expr { kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span })
    }

    fn postfix(&self, operand: Expr, op: Node<'s>) -> Option<Expr> {
        let span = operand.span.to(self.span(&op));
        let kind = match op.as_rule() {
            Rule::field => ExprKind::Field(Box::new(operand), self.field(op)?),
            Rule::index => ExprKind::Index(Box::new(operand), Box::new(self.index(op)?)),
            Rule::is_test => ExprKind::Is(Box::new(operand), self.is_test(op)?),
            _ => return None,
        };
        Some(Expr { kind, span })
    }

    fn field(&self, pair: Node<'s>) -> Option<Ident> {
        Some(self.ident(Children::of(pair).next()?))
    }

    fn index(&self, pair: Node<'s>) -> Option<Expr> {
        self.expr(Children::of(pair).next()?)
    }

    fn is_test(&self, pair: Node<'s>) -> Option<Ident> {
        Some(self.ident(Children::of(pair).next()?))
    }

    fn primary(&self, pair: Node<'s>) -> Option<Expr> {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::paren => return self.paren(pair),
            Rule::if_expr => self.if_expr(pair)?,
            Rule::case_expr => self.case_expr(pair)?,
            Rule::aggregate => self.aggregate(pair)?,
            Rule::filter_cards => self.filter_cards(pair)?,
            Rule::card_ref => self.card_ref(pair)?,
            Rule::list => self.list(pair)?,
            Rule::call => self.call(pair)?,
            Rule::bool_lit => ExprKind::Bool(self.bool_lit(pair)),
            Rule::none_lit => ExprKind::None,
            Rule::int => ExprKind::Int(self.int(pair).value),
            Rule::string => ExprKind::Text(self.template(pair)),
            Rule::ident => ExprKind::Name(self.ident(pair)),
            _ => return None,
        };
        Some(Expr { kind, span })
    }

    /// `( e )`: the expression inside, its span widened to the brackets.
    fn paren(&self, pair: Node<'s>) -> Option<Expr> {
        let span = self.span(&pair);
        let inner = self.expr(Children::of(pair).next()?)?;
        Some(Expr { span, ..inner })
    }

    fn if_expr(&self, pair: Node<'s>) -> Option<ExprKind> {
        let mut children = Children::of(pair);
        Some(ExprKind::If {
            cond: Box::new(self.expr(children.next()?)?),
            then: Box::new(self.expr(children.next()?)?),
            otherwise: Box::new(self.expr(children.next()?)?),
        })
    }

    fn case_expr(&self, pair: Node<'s>) -> Option<ExprKind> {
        let mut children = Children::of(pair);
        Some(ExprKind::Case {
            scrutinee: Box::new(self.expr(children.next()?)?),
            arms: children.run_of(Rule::case_arm).map(|p| self.case_arm(p)).collect::<Option<_>>()?,
            otherwise: Box::new(self.expr(children.next()?)?),
        })
    }

    /// `a, b => value`: the last expression is the value, the others the patterns.
    fn case_arm(&self, pair: Node<'s>) -> Option<CaseArm> {
        let span = self.span(&pair);
        let mut patterns = Children::of(pair).map(|p| self.expr(p)).collect::<Option<Vec<_>>>()?;
        let value = patterns.pop()?;
        Some(CaseArm { patterns, value, span })
    }

    fn aggregate(&self, pair: Node<'s>) -> Option<ExprKind> {
        let mut children = Children::of(pair);
        Some(ExprKind::Aggregate {
            op: self.agg_op(children.next()?)?,
            binder: self.ident(children.next()?),
            domain: Box::new(self.expr(children.next()?)?),
            filter: match children.maybe(Rule::filter) {
                Some(filter) => Some(Box::new(self.filter(filter)?)),
                None => None,
            },
            body: match children.maybe(Rule::agg_body) {
                Some(body) => Some(Box::new(self.agg_body(body)?)),
                None => None,
            },
        })
    }

    fn agg_op(&self, pair: Node<'s>) -> Option<AggOp> {
        Some(match pair.as_str() {
            "sum" => AggOp::Sum,
            "max" => AggOp::Max,
            "min" => AggOp::Min,
            "count" => AggOp::Count,
            "exists" => AggOp::Exists,
            "every" => AggOp::Every,
            "highest" => AggOp::Highest,
            "lowest" => AggOp::Lowest,
            _ => return None,
        })
    }

    fn agg_body(&self, pair: Node<'s>) -> Option<Expr> {
        self.expr(Children::of(pair).next()?)
    }

    fn filter_cards(&self, pair: Node<'s>) -> Option<ExprKind> {
        let mut children = Children::of(pair);
        Some(ExprKind::Aggregate {
            op: AggOp::Cards,
            binder: self.ident(children.next()?),
            domain: Box::new(self.expr(children.next()?)?),
            filter: Some(Box::new(self.filter(children.next()?)?)),
            body: None,
        })
    }

    fn card_ref(&self, pair: Node<'s>) -> Option<ExprKind> {
        let fields = Children::of(pair).map(|p| self.named_arg(p)).collect::<Option<_>>()?;
        Some(ExprKind::CardRef(fields))
    }

    fn list(&self, pair: Node<'s>) -> Option<ExprKind> {
        let items = Children::of(pair).map(|p| self.expr(p)).collect::<Option<_>>()?;
        Some(ExprKind::List(items))
    }

    fn call(&self, pair: Node<'s>) -> Option<ExprKind> {
        let mut children = Children::of(pair);
        Some(ExprKind::Call {
            func: self.ident(children.next()?),
            args: children.map(|p| self.arg(p)).collect::<Option<_>>()?,
        })
    }

    /// A call argument: `name: value` or a plain expression.
    fn arg(&self, pair: Node<'s>) -> Option<Arg> {
        Some(match pair.as_rule() {
            Rule::named_arg => {
                let (name, value) = self.named_arg(pair)?;
                Arg { name: Some(name), value }
            }
            _ => Arg { name: None, value: self.expr(pair)? },
        })
    }

    fn named_arg(&self, pair: Node<'s>) -> Option<(Ident, Expr)> {
        let mut children = Children::of(pair);
        Some((self.ident(children.next()?), self.expr(children.next()?)?))
    }

    fn bool_lit(&self, pair: Node<'s>) -> bool {
        pair.as_str() == "true"
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

/// The text between a string token's quotes.
fn quoted(token: &str) -> &str {
    token.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(token)
}

/// The index of the `}` closing the `{` at `open`, counting nested braces.
fn closing_brace(raw: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, byte) in raw.bytes().enumerate().skip(open) {
        match byte {
            b'{' => depth += 1,
            b'}' if depth == 1 => return Some(i),
            b'}' => depth -= 1,
            _ => {}
        }
    }
    None
}

fn too_large(span: Span) -> Problem {
    Problem::new(Code::BadLiteral, "this number is too large", span, "does not fit in 64 bits").help(format!(
        "numbers are whole numbers from {} to {}",
        i64::MIN,
        i64::MAX
    ))
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
mod tests {
    use super::*;

    const EXAMPLE: &str = r#"game "Open Tricks"
players 2
seats A, B, ProxyA "A's proxy", ProxyB "B's proxy"
seat ProxyA played by A
side SideA "side A" { A, ProxyA }
param trick_cost: int = 20 in 0..220 "points a trick costs"
param free_new_trump: bool = false
enum Colour { red, green, purple, blue }
enum Bid { cards, best, named(suit: Suit) "bid {suit}", shorts }
card { colour: Colour  rank: 0..10  points: int = rank  name "{colour} {rank}" }
deck { for c in Colour, r in 0..10 { card { colour: c, rank: r } } }
zone hand per seat { see: owner count: everyone }
var trump: Colour? = none reset trick
var spent: set of Colour = [] reset trick
var chips: int per side = 0
define fits(c: card, l: card): bool = c.colour == l.colour or l == none
play {
  repeat until max t in sides of chips[t] >= 3 {
    phase round {
      shuffle stock
      deal 11 each from stock to hand starting left(A)
      let leader = holder(card(colour: red, rank: 0))
      for s in seats from leader where count(hand[s]) > 0 {
        choose c from hand[s] by s
          where c.colour == first(trick).colour
          else c.colour == trump
          else c.colour not in spent then { trump = c.colour  spent += c.colour }
          else any
          declare low when c.rank == 10
          as "play {c}"
        move c to trick
      }
      let w = highest c in trick by if c.colour == trump then 100 + c.rank else c.rank
      chips[side(player(w))] += 1
      move random 3 of cards c in stock where c.rank > 5 to trick
      let first = random s in seats where chips[side(s)] == 0
      say "{player(w)} wins with {w}"
      simultaneously for s in others(leader) { choose b from 0..9 by s  bid[s] = b }
      if x { redo round } else if y { end round } else { x -= 1 }
    }
  }
}
result highest t in sides by chips[t]
variant quick "first to one chip" { set chips_to_win = 1  replace phase round { say "hi" } }
"#;

    fn parsed(source: &str) -> File {
        parse(source).unwrap_or_else(|problems| panic!("{source}\n{problems:#?}"))
    }

    fn problems(source: &str) -> Vec<Problem> {
        match parse(source) {
            Ok(file) => panic!("{source} parsed: {file:?}"),
            Err(problems) => problems,
        }
    }

    fn items(source: &str) -> Vec<Item> {
        match parsed(source).body {
            FileBody::Rules(items) => items,
            FileBody::Scenario(scenario) => panic!("a scenario: {scenario:?}"),
        }
    }

    /// The statements of the `play` block of `play { <body> }`.
    fn stmts(body: &str) -> Vec<StmtKind> {
        match items(&format!("play {{ {body} }}")).pop() {
            Some(Item::Play(play)) => play.body.stmts.into_iter().map(|s| s.kind).collect(),
            other => panic!("not a play block: {other:?}"),
        }
    }

    /// The expression `e` of `play { x = <e> }`, with the source it was read from.
    fn expr(text: &str) -> (Expr, String) {
        let source = format!("play {{ x = {text} }}");
        match stmts(text_of_assign(text).as_str()).pop() {
            Some(StmtKind::Assign { value: Rhs::Expr(expr), .. }) => (expr, source),
            other => panic!("not an assignment: {other:?}"),
        }
    }

    fn text_of_assign(text: &str) -> String {
        format!("x = {text}")
    }

    /// The expression as a bracketed string: `(a + (b * c))`.
    fn shape(expr: &Expr) -> String {
        match &expr.kind {
            ExprKind::Int(n) => n.to_string(),
            ExprKind::Bool(b) => b.to_string(),
            ExprKind::None => "none".to_string(),
            ExprKind::Name(name) => name.name.clone(),
            ExprKind::Unary(op, e) => format!("({op:?} {})", shape(e)),
            ExprKind::Binary(op, a, b) => format!("({} {op:?} {})", shape(a), shape(b)),
            ExprKind::Field(e, name) => format!("{}.{}", shape(e), name.name),
            ExprKind::Index(e, i) => format!("{}[{}]", shape(e), shape(i)),
            ExprKind::Is(e, name) => format!("({} is {})", shape(e), name.name),
            ExprKind::Call { func, args } => {
                let args: Vec<String> = args.iter().map(|a| shape(&a.value)).collect();
                format!("{}({})", func.name, args.join(", "))
            }
            other => format!("{other:?}"),
        }
    }

    fn text(source: &str, span: Span) -> &str {
        &source[span.start..span.end]
    }

    /// Syntax errors must speak in words: no rule ids.
    fn assert_in_words(problem: &Problem) {
        for text in [&problem.message, &problem.label] {
            for id in ["k_", "_stmt", "_decl", "_op", "EOI", "expr_only", "ident", "Rule"] {
                assert!(!text.contains(id), "{text:?} names a rule ({id})");
            }
        }
    }

    // ------------------------------------------------------------------ whole files

    #[test]
    fn parses_the_example_rule_file() {
        let items = items(EXAMPLE);
        assert_eq!(items.len(), 19);
        let Item::Seats(seats) = &items[2] else { panic!("{:?}", items[2]) };
        let names: Vec<_> = seats.seats.iter().map(|s| s.name.name.as_str()).collect();
        assert_eq!(names, ["A", "B", "ProxyA", "ProxyB"]);
        assert_eq!(seats.seats[2].display.as_ref().map(|d| d.value.as_str()), Some("A's proxy"));
        let Item::Param(param) = &items[5] else { panic!("{:?}", items[5]) };
        assert_eq!(param.default.kind, LiteralKind::Int(20));
        assert_eq!(param.range.map(|(lo, hi)| (lo.value, hi.value)), Some((0, 220)));
        let Item::Enum(bid) = &items[8] else { panic!("{:?}", items[8]) };
        assert_eq!(bid.members[0].name.name, "cards");
        assert!(bid.members[2].payload.is_some());
        let Item::Zone(zone) = &items[11] else { panic!("{:?}", items[11]) };
        assert_eq!(zone.owner, Some(Owner::Seat));
        assert_eq!(zone.see.map(|(a, _)| a), Some(Audience::Owner));
        assert_eq!(zone.count.map(|(a, _)| a), Some(Audience::Everyone));
        assert!(matches!(items[18], Item::Variant(_)));
    }

    #[test]
    fn every_span_covers_its_text() {
        let file = parsed(EXAMPLE);
        assert_eq!(file.span, Span::new(0, EXAMPLE.len()));
        let FileBody::Rules(items) = file.body else { panic!() };
        let Item::Var(var) = &items[12] else { panic!("{:?}", items[12]) };
        assert_eq!(text(EXAMPLE, var.span), "var trump: Colour? = none reset trick");
        assert_eq!(text(EXAMPLE, var.ty.span), "Colour?");
        assert!(var.ty.optional);
        assert_eq!(var.reset.as_ref().map(|r| text(EXAMPLE, r.span)), Some("trick"));
        let Item::Define(define) = &items[15] else { panic!("{:?}", items[15]) };
        assert_eq!(text(EXAMPLE, define.body.span), "c.colour == l.colour or l == none");
        let Item::Result(result) = &items[17] else { panic!("{:?}", items[17]) };
        assert_eq!(result.extreme, Extreme::Highest);
        assert_eq!(text(EXAMPLE, result.key.span), "chips[t]");
    }

    #[test]
    fn spans_end_at_the_last_token_not_at_a_comment() {
        let source = "play {\n  x = a + b   // add them\n  // and more\n  y = 1 }";
        let Some(Item::Play(play)) = items(source).pop() else { panic!() };
        assert_eq!(text(source, play.body.stmts[0].span), "x = a + b");
        let StmtKind::Assign { value: Rhs::Expr(sum), .. } = &play.body.stmts[0].kind else { panic!() };
        assert_eq!(text(source, sum.span), "a + b");
        assert_eq!(text(source, play.body.stmts[1].span), "y = 1");
    }

    /// Checks every span in a tree, found through its serialized form: each covers text that
    /// starts and ends with a token, a name's span covers the name, a string's its quotes.
    fn check_spans(value: &serde_json::Value, source: &str) {
        use serde_json::Value;
        match value {
            Value::Object(fields) => {
                if let Some(span) = fields.get("span") {
                    let start = span["start"].as_u64().unwrap_or(u64::MAX) as usize;
                    let end = span["end"].as_u64().unwrap_or(u64::MAX) as usize;
                    let text = source.get(start..end).unwrap_or_else(|| panic!("{span} out of the text"));
                    assert!(!text.is_empty() && text.trim() == text, "{text:?} at {span}");
                    if let Some(Value::String(name)) = fields.get("name").filter(|_| fields.len() == 2) {
                        assert_eq!(text, name);
                    }
                    let string = fields.get("value").is_some_and(Value::is_string) && fields.len() == 2;
                    if string || fields.contains_key("parts") {
                        assert!(text.starts_with('"') && text.ends_with('"'), "{text:?}");
                    }
                }
                fields.values().for_each(|v| check_spans(v, source));
            }
            Value::Array(items) => items.iter().for_each(|v| check_spans(v, source)),
            _ => {}
        }
    }

    #[test]
    fn every_span_in_the_example_is_tight() {
        let FileBody::Rules(items) = parsed(EXAMPLE).body else { panic!() };
        let tree = serde_json::to_value(&items).expect("the tree serializes");
        check_spans(&tree, EXAMPLE);
    }

    #[test]
    fn parses_a_scenario() {
        let source = r#"scenario "t" extends "../rules/x.cards" { set a = 1  replace phase deal { move card(colour: red, rank: 5) to hand[A] } }"#;
        let FileBody::Scenario(scenario) = parsed(source).body else { panic!("not a scenario") };
        assert_eq!(scenario.name.value, "t");
        assert_eq!(scenario.extends.value, "../rules/x.cards");
        assert!(matches!(
            &scenario.items[0],
            VariantItem::Set { name, value: Literal { kind: LiteralKind::Int(1), .. }, .. } if name.name == "a"
        ));
        let VariantItem::Replace { phase, body, .. } = &scenario.items[1] else { panic!("{:?}", scenario.items[1]) };
        assert_eq!(phase.name, "deal");
        let StmtKind::Move { cards, to, random } = &body.stmts[0].kind else { panic!("{:?}", body.stmts[0]) };
        assert!(random.is_none());
        assert!(matches!(&cards.kind, ExprKind::CardRef(fields) if fields.len() == 2));
        assert_eq!(text(source, to.span), "hand[A]");
    }

    #[test]
    fn an_empty_file_is_an_empty_rule_file() {
        for source in ["", "  \n\t", "// only a comment\n// and another"] {
            assert_eq!(items(source), Vec::new());
        }
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let source = "\u{feff}game \"x\"";
        let Some(Item::Game(game)) = items(source).pop() else { panic!() };
        assert_eq!(text(source, game.span), "game \"x\"");
        let found = problems("\u{feff}game x");
        assert_eq!(text("\u{feff}game x", found[0].span), "x");
    }

    #[test]
    fn reads_declarations() {
        let items = items(
            "players 4..6 default 4\n\
             param lead: Seat = north\n\
             param bonus: int = -9223372036854775808\n\
             card { owner: seat  pattern: Pattern?  kinds: set of Kind  name \"x\" }\n\
             define twice(n: int): int = n * 2",
        );
        let Item::Players(players) = &items[0] else { panic!("{:?}", items[0]) };
        assert_eq!(players.min.value, 4);
        assert_eq!(players.range.map(|(m, d)| (m.value, d.value)), Some((6, 4)));
        let Item::Param(lead) = &items[1] else { panic!("{:?}", items[1]) };
        assert_eq!(lead.default.kind, LiteralKind::Name("north".into()));
        let Item::Param(bonus) = &items[2] else { panic!("{:?}", items[2]) };
        assert_eq!(bonus.default.kind, LiteralKind::Int(i64::MIN));
        let Item::Card(card) = &items[3] else { panic!("{:?}", items[3]) };
        assert!(card.fields[1].ty.optional);
        assert!(
            matches!(&card.fields[2].ty.kind, TypeKind::SetOf(inner) if matches!(&inner.kind, TypeKind::Named(n) if n.name == "Kind"))
        );
        assert_eq!(card.name.as_ref().map(|n| n.parts.len()), Some(1));
        let Item::Define(define) = &items[4] else { panic!("{:?}", items[4]) };
        assert_eq!(define.params.len(), 1);
        assert_eq!(shape(&define.body), "(n Mul 2)");
    }

    // ------------------------------------------------------------------ expressions

    #[test]
    fn operators_bind_by_precedence() {
        let cases = [
            ("a + b * c", "(a Add (b Mul c))"),
            ("a * b + c", "((a Mul b) Add c)"),
            ("a - b - c", "((a Sub b) Sub c)"),
            ("a / b % c", "((a Div b) Rem c)"),
            ("not x in s", "((Not x) In s)"),
            ("x not in s", "(x NotIn s)"),
            ("a or b and c", "(a Or (b And c))"),
            ("a == b and c < d", "((a Eq b) And (c Lt d))"),
            ("a in s == b", "(a In (s Eq b))"),
            ("1..n + 1", "(1 Range (n Add 1))"),
            ("-a.b", "(Neg a.b)"),
            ("-a * b", "((Neg a) Mul b)"),
            ("not a or b", "((Not a) Or b)"),
            ("(a + b) * c", "((a Add b) Mul c)"),
            ("bid is named and x", "((bid is named) And x)"),
            ("score[s] >= 3", "(score[s] Ge 3)"),
            ("first(trick).colour != c", "(first(trick).colour Ne c)"),
            ("a <= b", "(a Le b)"),
            ("a > b", "(a Gt b)"),
        ];
        for (written, expected) in cases {
            assert_eq!(shape(&expr(written).0), expected, "{written}");
        }
    }

    #[test]
    fn expression_spans_cover_operands_and_brackets() {
        let (e, source) = expr("(a + b) * c");
        assert_eq!(text(&source, e.span), "(a + b) * c");
        let ExprKind::Binary(_, lhs, _) = &e.kind else { panic!("{e:?}") };
        assert_eq!(text(&source, lhs.span), "(a + b)");
        let (e, source) = expr("-x.y[z]");
        assert_eq!(text(&source, e.span), "-x.y[z]");
    }

    #[test]
    fn reads_primaries() {
        let (e, _) = expr("[two, three]");
        assert!(matches!(&e.kind, ExprKind::List(items) if items.len() == 2));
        let (e, _) = expr("true");
        assert_eq!(e.kind, ExprKind::Bool(true));
        let (e, _) = expr("none");
        assert_eq!(e.kind, ExprKind::None);
        let (e, _) = expr("next(s, n: 2)");
        let ExprKind::Call { func, args } = &e.kind else { panic!("{e:?}") };
        assert_eq!(func.name, "next");
        assert_eq!(args[0].name, None);
        assert_eq!(args[1].name.as_ref().map(|n| n.name.as_str()), Some("n"));
        let (e, _) = expr("if a then 1 else 2");
        assert!(matches!(&e.kind, ExprKind::If { .. }));
        let (e, source) = expr("case rank { jack, queen => 15  ace => 20  else => ord(rank) + 2 }");
        let ExprKind::Case { arms, otherwise, .. } = &e.kind else { panic!("{e:?}") };
        assert_eq!(arms[0].patterns.len(), 2);
        assert_eq!(text(&source, arms[1].span), "ace => 20");
        assert_eq!(shape(otherwise), "(ord(rank) Add 2)");
        let (e, _) = expr("\"plain\"");
        assert!(matches!(&e.kind, ExprKind::Text(t) if t.parts == [TemplatePart::Text("plain".into())]));
    }

    #[test]
    fn reads_aggregates() {
        let (e, source) = expr("count t in seats where bid[t] > bid[s]");
        let ExprKind::Aggregate { op, binder, domain, filter, body } = &e.kind else { panic!("{e:?}") };
        assert_eq!(*op, AggOp::Count);
        assert_eq!(binder.name, "t");
        assert_eq!(text(&source, domain.span), "seats");
        assert_eq!(filter.as_deref().map(shape), Some("(bid[t] Gt bid[s])".into()));
        assert!(body.is_none());

        let (e, _) = expr("sum c in won[s] where c.suit == x of c.points");
        assert!(
            matches!(&e.kind, ExprKind::Aggregate { op: AggOp::Sum, filter: Some(_), body: Some(b), .. } if shape(b) == "c.points")
        );
        let (e, _) = expr("highest c in trick by c.rank");
        assert!(matches!(&e.kind, ExprKind::Aggregate { op: AggOp::Highest, filter: None, body: Some(_), .. }));
        let (e, _) = expr("exists d in hand where d.rank > 3");
        assert!(matches!(&e.kind, ExprKind::Aggregate { op: AggOp::Exists, .. }));
        let (e, _) = expr("cards c in hand[s] where c.kind == tf");
        assert!(matches!(&e.kind, ExprKind::Aggregate { op: AggOp::Cards, filter: Some(_), body: None, .. }));
        // `count(...)` and `max(a, b)` stay calls.
        assert_eq!(shape(&expr("count(hand[s]) + max(a, b)").0), "(count(hand[s]) Add max(a, b))");
    }

    #[test]
    fn keywords_end_at_word_boundaries() {
        let statements = stmts(
            "ends = 3  shuffled = true  index = 1  iffy = 2  notable = x  order = 1  \
             forever = 0  dealer = 1  cards = 2  deal = 3  isle = 4  android = 5",
        );
        assert_eq!(statements.len(), 12);
        for statement in statements {
            assert!(matches!(statement, StmtKind::Assign { .. }), "{statement:?}");
        }
    }

    #[test]
    fn a_long_integer_is_a_bad_literal() {
        let source = "play { x = 99999999999999999999 }";
        let found = problems(source);
        assert_eq!(found[0].code, Code::BadLiteral);
        assert_eq!(text(source, found[0].span), "99999999999999999999");
    }

    // ------------------------------------------------------------------ statements

    #[test]
    fn else_if_becomes_a_nested_if() {
        let mut statements = stmts("if x { redo round } else if y { end round } else { x -= 1 }");
        let Some(StmtKind::If { otherwise: Some(otherwise), .. }) = statements.pop() else {
            panic!("not an if with else")
        };
        assert_eq!(otherwise.stmts.len(), 1);
        let StmtKind::If { cond, then, otherwise: Some(last) } = &otherwise.stmts[0].kind else {
            panic!("{otherwise:?}")
        };
        assert_eq!(shape(cond), "y");
        assert!(matches!(&then.stmts[0].kind, StmtKind::End { phase } if phase.name == "round"));
        assert!(matches!(&last.stmts[0].kind, StmtKind::Assign { op: AssignOp::Sub, .. }));
    }

    #[test]
    fn repeat_counts_and_repeat_until() {
        let statements = stmts("repeat 3 { x += 1 }  repeat until x > 3 { x += 1 }  while x { x -= 1 }");
        assert!(matches!(&statements[0], StmtKind::Repeat { count, .. } if shape(count) == "3"));
        assert!(matches!(&statements[1], StmtKind::RepeatUntil { cond, .. } if shape(cond) == "(x Gt 3)"));
        assert!(matches!(&statements[2], StmtKind::While { .. }));
    }

    #[test]
    fn reads_a_choice_with_tiers() {
        let source = "play { choose c from hand[s], table by s \
                      where c.suit == led else c.suit == trump then { x = 1 } else any \
                      declare low when c.rank == ace as \"play {c}\" }";
        let Some(Item::Play(play)) = items(source).pop() else { panic!() };
        let StmtKind::Choose(choose) = &play.body.stmts[0].kind else { panic!("{:?}", play.body.stmts[0]) };
        assert_eq!(choose.name.name, "c");
        assert_eq!(choose.domains.len(), 2);
        assert_eq!(shape(&choose.by), "s");
        assert_eq!(choose.tiers.len(), 3);
        assert!(choose.tiers[0].then.is_none());
        assert!(choose.tiers[1].then.is_some());
        assert!(choose.tiers[2].cond.is_none());
        assert_eq!(text(source, choose.tiers[2].span), "any");
        assert_eq!(choose.declare.as_ref().map(|d| d.name.name.as_str()), Some("low"));
        assert_eq!(choose.label.as_ref().map(|l| text(source, l.span)), Some("\"play {c}\""));
    }

    #[test]
    fn reads_cards_and_chance() {
        let statements = stmts(
            "deal 11 each from stock to hand starting left(A)  deal all from stock to hand \
             move random 3 of cards c in stock where c.rank > 5 to trick  shuffle stock \
             let first = random s in seats from a where chips[side(s)] == 0 \
             chips[side(s)] += 1",
        );
        assert!(
            matches!(&statements[0], StmtKind::Deal { count: Some(_), to, starting: Some(_), .. } if to.name == "hand")
        );
        assert!(matches!(&statements[1], StmtKind::Deal { count: None, starting: None, .. }));
        assert!(matches!(&statements[2], StmtKind::Move { random: Some(n), .. } if shape(n) == "3"));
        assert!(matches!(&statements[3], StmtKind::Shuffle { .. }));
        let StmtKind::Let { value: Rhs::Random(binding), .. } = &statements[4] else { panic!("{:?}", statements[4]) };
        assert!(binding.start.is_some() && binding.filter.is_some());
        assert!(matches!(
            &statements[5],
            StmtKind::Assign { target: Place { index: Some(_), .. }, op: AssignOp::Add, .. }
        ));
    }

    #[test]
    fn reads_loops_and_cards_made_in_the_deck() {
        let Some(Item::Deck(deck)) = items("deck { for c in Colour, r in 0..10 { card { colour: c, rank } } }").pop()
        else {
            panic!()
        };
        let StmtKind::For { bindings, body } = &deck.body.stmts[0].kind else { panic!("{deck:?}") };
        assert_eq!(bindings.len(), 2);
        assert_eq!(shape(&bindings[1].domain), "(0 Range 10)");
        let StmtKind::MakeCard { fields } = &body.stmts[0].kind else { panic!("{body:?}") };
        assert!(fields[0].1.is_some());
        assert!(fields[1].1.is_none());
    }

    // ------------------------------------------------------------------ strings and templates

    #[test]
    fn templates_split_into_text_and_expressions() {
        let source = "play { say \"{player(w)} wins with {w}\" }";
        let statements = stmts("say \"{player(w)} wins with {w}\"");
        let StmtKind::Say { text: template } = &statements[0] else { panic!("{statements:?}") };
        assert_eq!(text(source, template.span), "\"{player(w)} wins with {w}\"");
        let [TemplatePart::Expr(who), TemplatePart::Text(middle), TemplatePart::Expr(card)] = template.parts.as_slice()
        else {
            panic!("{template:?}")
        };
        assert_eq!(text(source, who.span), "player(w)");
        assert_eq!(middle, " wins with ");
        assert_eq!(text(source, card.span), "w");
    }

    #[test]
    fn template_expressions_may_hold_braces_and_spaces() {
        let source = "play { say \"a \\{b\\} { case x { y => 1 else => 2 } }!\" }";
        let Some(Item::Play(play)) = items(source).pop() else { panic!() };
        let StmtKind::Say { text: template } = &play.body.stmts[0].kind else { panic!() };
        let [TemplatePart::Text(before), TemplatePart::Expr(case), TemplatePart::Text(after)] =
            template.parts.as_slice()
        else {
            panic!("{template:?}")
        };
        assert_eq!(before, "a {b} ");
        assert_eq!(text(source, case.span), "case x { y => 1 else => 2 }");
        assert_eq!(after, "!");
    }

    #[test]
    fn strings_resolve_escapes() {
        let Some(Item::Game(game)) = items(r#"game "a \"b\" \\ \n \{c\}""#).pop() else { panic!() };
        assert_eq!(game.name.value, "a \"b\" \\ \n {c}");
    }

    #[test]
    fn an_unknown_escape_is_a_bad_literal_at_the_escape() {
        let source = r#"game "ab\qc""#;
        let found = problems(source);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].code, Code::BadLiteral);
        assert_eq!(text(source, found[0].span), "\\q");
    }

    #[test]
    fn template_mistakes_point_into_the_string() {
        let source = "play { say \"x {a b} {} {c\" }";
        let found = problems(source);
        assert_eq!(found.len(), 3, "{found:#?}");
        assert_eq!(text(source, found[0].span), "b");
        assert!(found[0].message.contains("the closing `}`"), "{}", found[0].message);
        assert_eq!(text(source, found[1].span), "}");
        assert!(found[1].message.contains("an expression"));
        assert_eq!(text(source, found[2].span), "{");
        assert!(found[2].message.contains("not closed"));
        for problem in &found {
            assert_eq!(problem.code, Code::Syntax);
            assert_in_words(problem);
        }
    }

    #[test]
    fn a_stray_closing_brace_in_text_is_reported() {
        let source = "play { say \"a } b\" }";
        let found = problems(source);
        assert_eq!(text(source, found[0].span), "}");
        assert!(found[0].help.as_deref().is_some_and(|h| h.contains("\\}")));
    }

    #[test]
    fn an_unclosed_string_is_reported_where_it_starts() {
        let source = "play { say \"abc\n }";
        let found = problems(source);
        assert_eq!(found[0].code, Code::Syntax);
        assert_eq!(text(source, found[0].span), "\"abc");
    }

    #[test]
    fn a_card_name_given_twice_is_a_duplicate() {
        let source = "card { name \"a\" rank: 0..3 name \"b\" }";
        let found = problems(source);
        assert_eq!(found[0].code, Code::Duplicate);
        assert_eq!(text(source, found[0].span), "\"b\"");
        assert_eq!(text(source, found[0].notes[0].span), "\"a\"");
    }

    // ------------------------------------------------------------------ syntax errors

    #[test]
    fn syntax_errors_say_what_was_expected_in_words() {
        let cases = [
            ("play { let v = if a b }", "`then`", "b"),
            ("play { move c hand }", "`to`", "hand"),
            ("param x int", "`:`", "int"),
            ("play { for s seats {} }", "`in`", "seats"),
            ("zone h { see: all }", "`everyone`, `owner` or `nobody`", "all"),
            ("enum X { a b }", "`,`", "b"),
            ("play { if x y { } }", "a block `{ ... }`", "y"),
            ("play { x = a + }", "an expression", "}"),
            ("play { 123 }", "a statement", "123"),
            ("garbage", "a declaration", "garbage"),
            ("game \"x\" players 2 seats A B", "end of file", "B"),
            ("scenario \"a\" extends \"b\" { x }", "`set`", "x"),
        ];
        for (source, expected, found) in cases {
            let problems = problems(source);
            let problem = &problems[0];
            assert_eq!(problem.code, Code::Syntax, "{source}");
            assert!(problem.message.contains(expected), "{source}: {:?} lacks {expected}", problem.message);
            assert_eq!(text(source, problem.span), found, "{source}");
            assert_eq!(problem.label, format!("unexpected `{found}`"));
            assert_in_words(problem);
        }
    }

    #[test]
    fn each_broken_declaration_is_reported() {
        let source =
            "game \"g\"\nparam x int\nzone hand { see: owner }\nplay { x = a + }\nvar y: int = 1\nenum E { a b }\n";
        let found = problems(source);
        let at: Vec<&str> = found.iter().map(|p| text(source, p.span)).collect();
        assert_eq!(at, ["int", "}", "b"], "{found:#?}");
        assert!(found.iter().all(|p| p.code == Code::Syntax));
        let (Some(file), _) = parse_partial(source) else { panic!("nothing read") };
        let FileBody::Rules(items) = file.body else { panic!("a scenario") };
        let kinds: Vec<&str> = items
            .iter()
            .map(|i| match i {
                Item::Game(_) => "game",
                Item::Zone(_) => "zone",
                Item::Var(_) => "var",
                other => panic!("{other:?} was broken"),
            })
            .collect();
        assert_eq!(kinds, ["game", "zone", "var"]);
    }

    #[test]
    fn an_unclosed_block_is_reported_where_the_next_declaration_starts() {
        let source = "play {\n  x = 1\nresult highest s in seats by x\nvariant v { set }\n";
        let found = problems(source);
        assert_eq!(found.len(), 2, "{found:#?}");
        assert!(found[0].help.as_deref().is_some_and(|h| h.contains("`}` missing")), "{:?}", found[0].help);
        assert_eq!(text(source, found[0].span), "result");
        assert_eq!(text(source, found[1].span), "}");
    }

    #[test]
    fn syntax_errors_stop_at_the_limit() {
        let source = "param p int = 1\n".repeat(MAX_SYNTAX_ERRORS + 50);
        assert_eq!(problems(&source).len(), MAX_SYNTAX_ERRORS);
    }

    #[test]
    fn a_scenario_is_reported_once() {
        let source = "scenario \"s\" extends \"r.cards\" {\n  set = 1\n}\ngame x\n";
        assert_eq!(problems(source).len(), 1);
        assert!(parse_partial(source).0.is_none());
    }

    #[test]
    fn then_or_an_operator() {
        let found = problems("play { let v = if a b }");
        assert_eq!(found[0].message, "expected `then` or an operator");
    }

    #[test]
    fn an_early_end_points_at_the_end_of_the_file() {
        let source = "card { a: int";
        let found = problems(source);
        assert_eq!(found[0].span, Span::new(source.len(), source.len()));
        assert_eq!(found[0].label, "unexpected end of file");
        assert!(found[0].help.is_some());
    }

    #[test]
    fn common_slips_get_advice() {
        let cases = [
            ("play { x = 1 ; }", "remove the `;`"),
            ("play { if x = 1 { } }", "`==`"),
            ("play { if x then { } }", "braces"),
            ("play { x = a && b }", "`and`"),
            ("play { let end = 1 }", "keyword"),
        ];
        for (source, advice) in cases {
            let found = problems(source);
            let help = found[0].help.as_deref().unwrap_or_default();
            assert!(help.contains(advice), "{source}: {help:?}");
        }
    }

    // ------------------------------------------------------------------ limits and robustness

    #[test]
    fn deep_brackets_are_too_deep_not_a_crash() {
        let source = "(".repeat(100_000);
        let found = problems(&source);
        assert_eq!(found[0].code, Code::TooDeep);
        let limit = limits::MAX_BRACKETS;
        assert_eq!(found[0].span, Span::new(limit, limit + 1));
    }

    #[test]
    fn brackets_in_strings_and_comments_do_not_count() {
        let source = format!("// {}\ngame \"{}\"", "(".repeat(1000), "\\{[(".repeat(1000));
        assert!(parse(&source).is_ok());
    }

    #[test]
    fn long_expressions_are_too_deep() {
        let chain = vec!["a"; 100_000].join(" + ");
        let found = problems(&format!("play {{ x = {chain} }}"));
        assert_eq!(found[0].code, Code::TooDeep);
        let found = problems(&format!("play {{ x = {}a }}", "-".repeat(100_000)));
        assert_eq!(found[0].code, Code::TooDeep);
        let dots = ".b".repeat(100_000);
        let found = problems(&format!("play {{ x = a{dots} }}"));
        assert_eq!(found[0].code, Code::TooDeep);
    }

    #[test]
    fn long_chains_without_brackets_are_too_deep() {
        let chains = [
            format!("play {{ if a {{}} {} }}", "else if a {} ".repeat(20_000)),
            format!("play {{ x = {} c }}", "if a then b else ".repeat(20_000)),
            format!("play {{ x = {} d }}", "sum c in ".repeat(20_000)),
        ];
        for source in chains {
            let found = problems(&source);
            assert_eq!(found[0].code, Code::TooDeep, "{:?}", found[0]);
        }
    }

    /// The deepest input the limits allow, of every kind of nesting.
    fn deepest_allowed() -> Vec<String> {
        vec![
            format!("play {{ x = {}1{} }}", "(".repeat(63), ")".repeat(63)),
            format!("play {{ x = {}1{} }}", "f(".repeat(63), ")".repeat(63)),
            format!("play {{ x = {}1{} }}", "card(a: ".repeat(63), ")".repeat(63)),
            format!("play {{ x = {}1{} }}", "[".repeat(63), "]".repeat(63)),
            format!("play {{ x = {}1{} }}", "case a {else => ".repeat(63), "}".repeat(63)),
            format!("play {{ if a {{}} {} }}", "else if a {} ".repeat(250)),
            format!("play {{ x = {} c }}", "if a then b else ".repeat(120)),
            format!("play {{ x = {} d }}", "sum c in ".repeat(120)),
            format!("play {{ x = {}a }}", "not ".repeat(256)),
            format!("play {{ x = a{} }}", " + a".repeat(256)),
            format!("play {{ x = {}", "-f(a + -(b * [".repeat(21)) + &"]))".repeat(21) + " }",
            format!("play {{ {} }}", "choose c from h by s where x then { ".repeat(62)) + &"}".repeat(62),
            format!("play {{ say \"{{{}1{}}}\" }}", "(".repeat(63), ")".repeat(63)),
        ]
    }

    #[test]
    fn the_deepest_allowed_input_fits_a_small_stack() {
        let run = || {
            for source in deepest_allowed() {
                let file = parse(&source).unwrap_or_else(|p| panic!("{source}: {p:?}"));
                let copy = file.clone();
                assert!(!format!("{copy:?}").is_empty());
                assert!(serde_json::to_string(&file).is_ok());
                assert_eq!(copy, file);
            }
        };
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(run)
            .expect("a test thread")
            .join()
            .expect("no stack overflow");
    }

    #[test]
    fn one_more_level_is_too_deep() {
        let sources = [
            format!("play {{ x = {}1{} }}", "(".repeat(64), ")".repeat(64)),
            format!("play {{ x = {}a }}", "not ".repeat(257)),
            format!("play {{ x = a{} }}", " + a".repeat(257)),
        ];
        for source in sources {
            assert_eq!(problems(&source)[0].code, Code::TooDeep, "{source}");
        }
    }

    /// A small deterministic generator of awkward text.
    fn awkward_texts() -> Vec<String> {
        const PIECES: [&str; 24] = [
            "{",
            "}",
            "(",
            ")",
            "[",
            "]",
            "\"",
            "\\",
            "\n",
            " ",
            "//",
            "a",
            "if",
            "else",
            "=",
            "..",
            "-",
            "not",
            "in",
            "é",
            "\u{0}",
            "9999999999999999999999",
            "play",
            "card",
        ];
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        (0..400)
            .map(|_| {
                let len = (next() % 40) as usize;
                (0..len).map(|_| PIECES[(next() % PIECES.len() as u64) as usize]).collect()
            })
            .collect()
    }

    #[test]
    fn awkward_input_never_panics() {
        for source in awkward_texts() {
            if let Err(problems) = parse(&source) {
                assert!(!problems.is_empty());
                for problem in problems {
                    assert!(problem.span.start <= problem.span.end && problem.span.end <= source.len());
                    assert!(source.is_char_boundary(problem.span.start), "{source:?}");
                    assert!(source.is_char_boundary(problem.span.end), "{source:?}");
                }
            }
        }
    }

    #[test]
    fn every_prefix_of_a_rule_file_parses_or_fails_cleanly() {
        let cuts = EXAMPLE.char_indices().map(|(i, _)| i).step_by(5);
        for cut in cuts {
            let source = &EXAMPLE[..cut];
            if let Err(problems) = parse(source) {
                let problem = &problems[0];
                assert!(problem.span.end <= source.len(), "{source:?}");
                assert_in_words(problem);
            }
        }
    }
}
