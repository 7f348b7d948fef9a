//! What the server answers, from one document's analysis: diagnostics, hover, definitions and
//! references, completion, the outline, formatting and quick fixes. Every function takes any
//! text, however broken, and any offset into it.

use super::analysis::{Analysis, clamp};
use super::builtins::builtin;
use super::symbols::{Kind, Site, Symbol};
use super::text::Lines;
use crate::diagnostic::Problem;
use crate::syntax::ast::{Block, FileBody, Item, LiteralKind, Span, StmtKind, TypeKind, VariantItem};
use crate::syntax::comments::Extra;
use crate::syntax::grammar::Rule;
use crate::syntax::tokens::{self, Kind as TokenKind, Token};
use lsp_types::*;
use std::collections::HashMap;

// ------------------------------------------------------------------ diagnostics

/// The document's problems, each with its code, its label and its help.
pub(super) fn diagnostics(analysis: &Analysis, uri: &Uri) -> Vec<Diagnostic> {
    let text = analysis.text();
    let lines = Lines::new(text);
    analysis.problems.iter().map(|p| diagnostic(p, &lines, text, uri)).collect()
}

fn diagnostic(problem: &Problem, lines: &Lines, text: &str, uri: &Uri) -> Diagnostic {
    let mut message = format!("{}: {}", problem.message, problem.label);
    if let Some(help) = &problem.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    let related = problem
        .notes
        .iter()
        .map(|note| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), lines.range(clamp(note.span, text))),
            message: note.label.clone(),
        })
        .collect::<Vec<_>>();
    Diagnostic {
        range: lines.range(clamp(problem.span, text)),
        severity: Some(DiagnosticSeverity::ERROR),
        code: Some(NumberOrString::String(problem.code.as_str().to_string())),
        source: Some("paradox".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Diagnostic::default()
    }
}

// ------------------------------------------------------------------ hover

/// What the name at an offset is: its declaration, kind, description and the comment above it.
pub(super) fn hover(analysis: &Analysis, offset: usize) -> Option<Hover> {
    let reference = analysis.index.at(analysis.this, offset)?;
    let symbol = &analysis.index.symbols[reference.symbol];
    let range = Lines::new(analysis.text()).range(reference.site.span);
    let contents = MarkupContent { kind: MarkupKind::Markdown, value: describe(analysis, symbol) };
    Some(Hover { contents: HoverContents::Markup(contents), range: Some(range) })
}

/// A symbol in Markdown: its declaration as code, then what it is, then its descriptions.
pub(super) fn describe(analysis: &Analysis, symbol: &Symbol) -> String {
    if symbol.kind == Kind::Builtin {
        let Some(b) = builtin(&symbol.name) else { return format!("`{}`: built-in", symbol.name) };
        return format!("```paradox\n{}\n```\nbuilt-in: {}", b.usage, b.doc);
    }
    let file = &analysis.texts[symbol.site.map_or(0, |s| s.file)];
    let (text, extra) = (&file.text, &file.extra);
    let declaration = declaration_line(text, extra, symbol.declaration);
    let mut out = format!("```paradox\n{declaration}\n```\n{}", what_it_is(symbol));
    if symbol.kind == Kind::Parameter {
        out.push_str(&parameter_facts(analysis, &symbol.name));
    }
    if let Some(doc) = &symbol.doc {
        out.push_str(&format!("\n\n{doc}"));
    }
    let comments = comments_about(text, extra, symbol.declaration.start);
    if !comments.is_empty() {
        out.push_str(&format!("\n\n{}", comments.join("\n")));
    }
    out
}

fn what_it_is(symbol: &Symbol) -> String {
    match (symbol.kind, &symbol.owner) {
        (Kind::Member, Some(owner)) => format!("member of the enumeration `{owner}`"),
        (Kind::PayloadField, Some(owner)) => format!("payload field of the member `{owner}`"),
        (Kind::Local, Some(owner)) => format!("parameter of the definition `{owner}`"),
        (kind, _) => kind.words().to_string(),
    }
}

/// A parameter's type, default and range.
fn parameter_facts(analysis: &Analysis, name: &str) -> String {
    let Some(param) = analysis.param(name) else { return String::new() };
    let default = match &param.default.kind {
        LiteralKind::Int(n) => n.to_string(),
        LiteralKind::Bool(b) => b.to_string(),
        LiteralKind::Name(n) => n.clone(),
    };
    let mut facts = format!(" · default `{default}`");
    if let Some((low, high)) = param.range {
        facts.push_str(&format!(" · range `{}..{}`", low.value, high.value));
    }
    facts.push_str(&format!(" · `--set {name}=...`"));
    facts
}

/// The first line of a declaration, without the trailing comment of that line.
fn declaration_line(text: &str, extra: &Extra, span: Span) -> String {
    let span = clamp(span, text);
    let written = &text[span.start..span.end];
    let line = written.lines().next().unwrap_or_default();
    let code = match extra.within(span).first() {
        Some(comment) if comment.span.start - span.start < line.len() => &line[..comment.span.start - span.start],
        _ => line,
    };
    code.trim_end().to_string()
}

/// The comment lines right above the line of `at` (no empty line between), and the comment at
/// the end of that line.
fn comments_about(text: &str, extra: &Extra, at: usize) -> Vec<String> {
    let at = at.min(text.len());
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let mut about: Vec<String> = extra.above(text, at).iter().map(|c| c.words(text).to_string()).collect();
    let after = extra.within(Span::new(at, line_end)).first();
    about.extend(after.map(|c| c.text(text).trim_start_matches('/').trim().to_string()));
    about
}

// ------------------------------------------------------------------ definitions and references

/// Where the name at an offset is declared.
pub(super) fn definition(analysis: &Analysis, offset: usize) -> Option<Site> {
    let reference = analysis.index.at(analysis.this, offset)?;
    analysis.index.symbols[reference.symbol].site
}

/// The symbol at an offset and every place that refers to it in the analysed texts.
pub(super) fn references(analysis: &Analysis, offset: usize) -> Option<(usize, Vec<Site>)> {
    let reference = analysis.index.at(analysis.this, offset)?;
    let sites = analysis.index.references_to(reference.symbol).map(|r| r.site).collect();
    Some((reference.symbol, sites))
}

// ------------------------------------------------------------------ completion

/// Expression keywords, offered where a value may start.
const VALUE_WORDS: [&str; 18] = [
    "if", "case", "not", "card", "cards", "sum", "max", "min", "count", "exists", "every", "highest", "lowest",
    "first", "last", "true", "false", "none",
];
const TYPE_WORDS: [&str; 7] = ["int", "bool", "seat", "side", "card", "set", "zone"];

/// What may be written at an offset of `text`: names in scope, keywords the grammar expects
/// there, card attributes after `.`, members after `is`, phases after `redo`, `end`, `reset`
/// and `replace phase`, parameters after `set` and their values after `set NAME =`; in the
/// `{...}` of a string, what may come in an expression there. The names come from `names`, the
/// analysis of the text without the line being typed (see [`without_line`]), which reads where
/// the text itself may not.
pub(super) fn completion(text: &str, names: &Analysis, offset: usize) -> Vec<CompletionItem> {
    let analysis = names;
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let start = text[..offset].trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_').len();
    let tokens = tokens::tokens(text);
    let template = match place_of(text, &tokens, start) {
        Place::Text => return Vec::new(),
        Place::Code => None,
        Place::Template { string, code } => Some((string, code)),
    };
    let before: Vec<&str> = match template {
        Some((_, code)) => words(&text[code..start]),
        None => tokens
            .iter()
            .filter(|t| t.span.end <= start && t.kind != TokenKind::Comment)
            .map(|t| t.text(text))
            .collect(),
    };
    let last = |n: usize| before.len().checked_sub(n).map_or("", |i| before[i]);
    let mut out = Completions::default();
    let index = &analysis.index;
    if text[..start].ends_with('.') {
        out.symbols(index.attribute_names());
    } else if last(1) == "is" {
        out.symbols(index.symbols_of(Kind::Member));
    } else if matches!(last(1), "redo" | "end" | "reset") || (last(1) == "phase" && last(2) == "replace") {
        out.symbols(index.phase_names());
    } else if last(1) == "set" && last(2) != ":" {
        out.symbols(index.symbols_of(Kind::Parameter));
    } else if last(1) == "=" && last(3) == "set" {
        parameter_values(analysis, last(2), &mut out);
    } else if let Some((string, code)) = template {
        let from = statement_start(analysis, text, start);
        let expected = crate::syntax::expect::expected_in_expression(&text[code..start]);
        // The names declared before the string, and in the expression itself.
        let declared = format!("{} {}", &text[from..string], &text[code..start]);
        by_grammar(analysis, &expected, &declared, &mut out);
        // A card's name reads its attributes by name.
        if expected.contains(&Rule::expr) && words(&text[from..string]).first() == Some(&"card") {
            out.symbols(index.attribute_names());
        }
    } else {
        let from = statement_start(analysis, text, start);
        let expected = crate::syntax::expect::expected_after(&text[from..start]);
        by_grammar(analysis, &expected, &text[from..start], &mut out);
    }
    out.items
}

/// The text with the line holding `offset` blanked out (its bytes made spaces, so that every
/// other offset stays where it was).
pub(super) fn without_line(text: &str, offset: usize) -> String {
    let offset = offset.min(text.len());
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    format!("{}{}{}", &text[..start], " ".repeat(end - start), &text[end..])
}

/// The words of a text, without its comments.
fn words(text: &str) -> Vec<&str> {
    tokens::tokens(text).into_iter().filter(|t| t.kind != TokenKind::Comment).map(|t| t.text(text)).collect()
}

/// Where a completion is asked.
enum Place {
    /// In code.
    Code,
    /// In the `{...}` of a string that starts at `string`, whose code starts at `code`.
    Template { string: usize, code: usize },
    /// In a comment, or in the text of a string.
    Text,
}

fn place_of(text: &str, tokens: &[Token], at: usize) -> Place {
    let Some(token) = tokens.iter().find(|t| t.span.start < at && at <= t.span.end) else { return Place::Code };
    match token.kind {
        TokenKind::Comment => Place::Text,
        TokenKind::Str { closed: true } if at == token.span.end => Place::Code,
        TokenKind::Str { .. } => match open_template(&text[token.span.start..at]) {
            Some(code) => Place::Template { string: token.span.start, code: token.span.start + code },
            None => Place::Text,
        },
        _ => Place::Code,
    }
}

/// Where the code of the `{...}` still open at the end of the start of a string begins (escaped
/// braces are text; a `{` in the code opens a block of it, as in a `case`; a quote in the code
/// opens a text, itself a template: `"{if n == 0 then "pass" else "take {n}"}"`).
fn open_template(string: &str) -> Option<usize> {
    /// What is open: a text, or code with where it starts and whether a plural's words
    /// (`{n|trick|tricks}`, text) are being written.
    enum Open {
        Text,
        Code(usize, bool),
    }
    let mut open = vec![Open::Text];
    let mut chars = string.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        let top_code = open.len() >= 2 && matches!(open[open.len() - 2], Open::Text);
        match (open.last_mut(), c) {
            (_, '\\') => {
                chars.next();
            }
            (Some(Open::Text), '{') => open.push(Open::Code(i + 1, false)),
            (Some(Open::Code(start, _)), '{') => {
                let start = *start;
                open.push(Open::Code(start, false));
            }
            (Some(Open::Code(..)), '}') | (Some(Open::Text), '"') => {
                open.pop();
            }
            (Some(Open::Code(..)), '"') => open.push(Open::Text),
            (Some(Open::Code(_, plural)), '|') if top_code => *plural = true,
            _ => {}
        }
    }
    match open.last() {
        Some(Open::Code(start, false)) => Some(*start),
        _ => None,
    }
}

/// Where the grammar is asked from: the start of the declaration the offset is in (so that a
/// mistake in an earlier one does not hide what may come here).
fn statement_start(analysis: &Analysis, text: &str, at: usize) -> usize {
    if analysis.is_scenario() {
        return 0;
    }
    crate::syntax::tokens::declaration_starts(text).into_iter().rfind(|&s| s < at).unwrap_or(0)
}

/// Completions from the rules the grammar expects.
fn by_grammar(analysis: &Analysis, expected: &[Rule], prefix: &str, out: &mut Completions) {
    let describe = |rule: Rule| crate::syntax::describe::describe_rule(rule);
    for &rule in expected {
        let words = describe(rule);
        if format!("{rule:?}").starts_with("k_") {
            out.keyword(words.trim_matches('`'));
        }
        match rule {
            Rule::type_expr => {
                TYPE_WORDS.iter().for_each(|w| out.keyword(w));
                out.symbols(analysis.index.symbols_of(Kind::Enum));
            }
            Rule::audience => ["everyone", "owner", "nobody"].iter().for_each(|w| out.keyword(w)),
            Rule::extreme => ["highest", "lowest"].iter().for_each(|w| out.keyword(w)),
            Rule::agg_body => ["of", "by"].iter().for_each(|w| out.keyword(w)),
            Rule::deal_count => out.keyword("all"),
            Rule::literal => ["true", "false"].iter().for_each(|w| out.keyword(w)),
            _ => {}
        }
        if matches!(rule, Rule::expr | Rule::rhs | Rule::primary | Rule::prefix) {
            VALUE_WORDS.iter().for_each(|w| out.keyword(w));
            if rule == Rule::rhs {
                out.keyword("random");
            }
        }
        if matches!(rule, Rule::ident | Rule::expr | Rule::rhs | Rule::primary | Rule::prefix | Rule::literal) {
            out.names(analysis, prefix);
        }
    }
}

/// The values a parameter may be set to: `true` and `false`, or its enumeration's members.
fn parameter_values(analysis: &Analysis, name: &str, out: &mut Completions) {
    match analysis.param(name).map(|p| &p.ty.kind) {
        Some(TypeKind::Named(t)) if t.name == "bool" => ["true", "false"].iter().for_each(|w| out.keyword(w)),
        Some(TypeKind::Named(t)) => {
            let members = analysis.index.symbols_of(Kind::Member).filter(|m| m.owner.as_deref() == Some(&t.name));
            out.symbols(members);
        }
        _ => {}
    }
}

/// Completion items without repeats.
#[derive(Default)]
struct Completions {
    items: Vec<CompletionItem>,
    seen: std::collections::HashSet<String>,
}

impl Completions {
    fn push(&mut self, item: CompletionItem) {
        if self.seen.insert(item.label.clone()) {
            self.items.push(item);
        }
    }

    fn keyword(&mut self, word: &str) {
        if !word.is_empty() && word.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
            let item =
                CompletionItem { label: word.into(), kind: Some(CompletionItemKind::KEYWORD), ..Default::default() };
            self.push(item);
        }
    }

    fn symbols<'s>(&mut self, symbols: impl Iterator<Item = &'s Symbol>) {
        let mut symbols: Vec<&Symbol> = symbols.collect();
        symbols.sort_by(|a, b| a.name.cmp(&b.name));
        for symbol in symbols {
            let item = CompletionItem {
                label: symbol.name.clone(),
                kind: Some(item_kind(symbol.kind)),
                detail: Some(symbol.kind.words().to_string()),
                documentation: symbol.doc.clone().map(Documentation::String),
                ..Default::default()
            };
            self.push(item);
        }
    }

    /// The local names declared before the offset in its declaration, the global names and
    /// the built-in ones.
    fn names(&mut self, analysis: &Analysis, prefix: &str) {
        for local in locals_before(prefix) {
            let item = CompletionItem {
                label: local,
                kind: Some(CompletionItemKind::VARIABLE),
                detail: Some(Kind::Local.words().into()),
                ..Default::default()
            };
            self.push(item);
        }
        self.symbols(analysis.index.global_names());
        for name in crate::check::BUILTIN_NAMES {
            let Some(b) = builtin(name) else { continue };
            let item = CompletionItem {
                label: name.to_string(),
                kind: Some(if b.usage.contains('(') {
                    CompletionItemKind::FUNCTION
                } else {
                    CompletionItemKind::CONSTANT
                }),
                detail: Some(b.usage.to_string()),
                documentation: Some(Documentation::String(b.doc.to_string())),
                ..Default::default()
            };
            self.push(item);
        }
    }
}

/// The local names a text declares, read from its words (it may not parse): after `let`,
/// `choose` and `declare`, before `in` in loops and aggregates, and a definition's parameters.
fn locals_before(text: &str) -> Vec<String> {
    let words: Vec<&str> =
        tokens::tokens(text).iter().filter(|t| t.kind != TokenKind::Comment).map(|t| t.text(text)).collect();
    let binders =
        ["for", ",", "sum", "max", "min", "count", "exists", "every", "highest", "lowest", "first", "cards", "random"];
    let mut found = Vec::new();
    for (i, word) in words.iter().enumerate() {
        let before = i.checked_sub(1).map_or("", |j| words[j]);
        let after = words.get(i + 1).copied().unwrap_or("");
        let declared = matches!(before, "let" | "choose" | "declare")
            || (after == "in" && binders.contains(&before))
            || (after == ":" && matches!(before, "(" | ",") && words.first() == Some(&"define"));
        if declared && word.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') {
            found.push(word.to_string());
        }
    }
    found
}

fn item_kind(kind: Kind) -> CompletionItemKind {
    match kind {
        Kind::Parameter | Kind::Seat | Kind::Side => CompletionItemKind::CONSTANT,
        Kind::Enum => CompletionItemKind::ENUM,
        Kind::Member => CompletionItemKind::ENUM_MEMBER,
        Kind::Attribute | Kind::PayloadField => CompletionItemKind::FIELD,
        Kind::Zone => CompletionItemKind::STRUCT,
        Kind::Variable | Kind::Local => CompletionItemKind::VARIABLE,
        Kind::Definition => CompletionItemKind::FUNCTION,
        Kind::Phase | Kind::Variant => CompletionItemKind::MODULE,
        Kind::Builtin => CompletionItemKind::FUNCTION,
    }
}

// ------------------------------------------------------------------ outline

/// The outline: the declarations of the document, with the members of enumerations, the
/// attributes of the card, the items of variants and the phases of the flow inside them.
pub(super) fn outline(analysis: &Analysis) -> Vec<DocumentSymbol> {
    let (text, extra) = (analysis.text(), &analysis.texts[analysis.this].extra);
    let lines = Lines::new(text);
    let entry = |name: &str, kind: SymbolKind, whole: Span, name_span: Span, children: Vec<DocumentSymbol>| {
        #[allow(deprecated)]
        DocumentSymbol {
            name: if name.is_empty() { "?".into() } else { name.to_string() },
            detail: Some(declaration_line(text, extra, whole)),
            kind,
            tags: None,
            deprecated: None,
            range: lines.range(clamp(whole, text)),
            selection_range: lines.range(clamp(name_span, text)),
            children: (!children.is_empty()).then_some(children),
        }
    };
    let phases = |block: &Block| phase_outline(block, &entry);
    let mut out = Vec::new();
    match analysis.file.as_ref().map(|f| &f.body) {
        Some(FileBody::Rules(items)) => {
            for item in items {
                out.extend(item_outline(item, &entry, &phases));
            }
        }
        Some(FileBody::Scenario(scenario)) => {
            let children = scenario.items.iter().map(|i| variant_item_outline(i, &entry, &phases)).collect();
            out.push(entry(&scenario.name.value, SymbolKind::NAMESPACE, scenario.span, scenario.name.span, children));
        }
        None => {}
    }
    out
}

type Entry<'e> = dyn Fn(&str, SymbolKind, Span, Span, Vec<DocumentSymbol>) -> DocumentSymbol + 'e;

fn item_outline(item: &Item, entry: &Entry, phases: &dyn Fn(&Block) -> Vec<DocumentSymbol>) -> Vec<DocumentSymbol> {
    let one = |name: &crate::syntax::ast::Ident, kind, span| vec![entry(&name.name, kind, span, name.span, Vec::new())];
    match item {
        Item::Game(game) => vec![entry(&game.name.value, SymbolKind::FILE, game.span, game.name.span, Vec::new())],
        Item::Seats(seats) => seats.seats.iter().flat_map(|s| one(&s.name, SymbolKind::CONSTANT, s.span)).collect(),
        Item::Side(side) => one(&side.name, SymbolKind::CONSTANT, side.span),
        Item::Param(param) => one(&param.name, SymbolKind::CONSTANT, param.span),
        Item::Enum(decl) => {
            let members = decl.members.iter().flat_map(|m| one(&m.name, SymbolKind::ENUM_MEMBER, m.span)).collect();
            vec![entry(&decl.name.name, SymbolKind::ENUM, decl.span, decl.name.span, members)]
        }
        Item::Card(card) => {
            let fields = card.fields.iter().flat_map(|f| one(&f.name, SymbolKind::FIELD, f.span)).collect();
            vec![entry("card", SymbolKind::STRUCT, card.span, Span::new(card.span.start, card.span.start + 4), fields)]
        }
        Item::Zone(zone) => one(&zone.name, SymbolKind::ARRAY, zone.span),
        Item::Var(var) => one(&var.name, SymbolKind::VARIABLE, var.span),
        Item::Define(define) => one(&define.name, SymbolKind::FUNCTION, define.span),
        Item::Procedure(procedure) => one(&procedure.name, SymbolKind::FUNCTION, procedure.span),
        Item::Play(play) => {
            let keyword = Span::new(play.span.start, play.span.start + 4);
            vec![entry("play", SymbolKind::MODULE, play.span, keyword, phases(&play.body))]
        }
        Item::Variant(variant) => {
            let children = variant.items.iter().map(|i| variant_item_outline(i, entry, phases)).collect();
            vec![entry(&variant.name.name, SymbolKind::NAMESPACE, variant.span, variant.name.span, children)]
        }
        _ => Vec::new(),
    }
}

fn variant_item_outline(
    item: &VariantItem,
    entry: &Entry,
    phases: &dyn Fn(&Block) -> Vec<DocumentSymbol>,
) -> DocumentSymbol {
    match item {
        VariantItem::Set { name, span, .. } => entry(&name.name, SymbolKind::PROPERTY, *span, name.span, Vec::new()),
        VariantItem::Replace { phase, body, span } => {
            entry(&phase.name, SymbolKind::MODULE, *span, phase.span, phases(body))
        }
    }
}

/// The phases in a block, each with the phases inside it.
fn phase_outline(block: &Block, entry: &Entry) -> Vec<DocumentSymbol> {
    let mut out = Vec::new();
    for stmt in &block.stmts {
        match &stmt.kind {
            StmtKind::Phase { name, body, .. } => {
                out.push(entry(&name.name, SymbolKind::MODULE, stmt.span, name.span, phase_outline(body, entry)))
            }
            StmtKind::If { then, otherwise, .. } => {
                out.extend(phase_outline(then, entry));
                out.extend(otherwise.iter().flat_map(|b| phase_outline(b, entry)));
            }
            StmtKind::For { body, .. }
            | StmtKind::Repeat { body, .. }
            | StmtKind::RepeatUntil { body, .. }
            | StmtKind::While { body, .. }
            | StmtKind::Simultaneously { body, .. } => out.extend(phase_outline(body, entry)),
            _ => {}
        }
    }
    out
}

// ------------------------------------------------------------------ formatting and fixes

/// The edit that formats the document: the lines that change, and only them (none if it is
/// formatted, or has syntax errors). The document's line ends are kept (the formatter keeps them),
/// and so is its lack of a final newline unless the editor asks for one: an editor keeps or adds
/// that newline itself, and an edit that adds one leaves some editors with an empty last line.
pub(super) fn formatting(text: &str, options: &FormattingOptions) -> Vec<TextEdit> {
    let Some(formatted) = formatted(text, options) else { return Vec::new() };
    let Some((span, new_text)) = changed_lines(text, &formatted) else { return Vec::new() };
    vec![TextEdit::new(Lines::new(text).range(span), new_text.to_string())]
}

/// The edits that format the lines `range` touches: the formatter reads whole files, so the
/// document is formatted whole, and each run of changed lines that meets the range (or holds it,
/// when it is empty) is replaced; changes elsewhere are left. None if it has syntax errors.
pub(super) fn range_formatting(text: &str, range: Range, options: &FormattingOptions) -> Vec<TextEdit> {
    let Some(formatted) = formatted(text, options) else { return Vec::new() };
    let lines = Lines::new(text);
    let (from, to) = (lines.offset(range.start), lines.offset(range.end));
    let (old, new): (Vec<&str>, Vec<&str>) =
        (text.split_inclusive('\n').collect(), formatted.split_inclusive('\n').collect());
    let mut line_start = vec![0];
    line_start.extend(old.iter().scan(0, |at, line| {
        *at += line.len();
        Some(*at)
    }));
    let mut edits = Vec::new();
    for hunk in super::hunks::hunks(&old, &new) {
        let span = Span::new(line_start[hunk.old.start], line_start[hunk.old.end]);
        // They share a character, or one of them is empty and lies at the start of the other or in it.
        let meets = match (span.start == span.end, from == to) {
            (false, false) => span.start < to && from < span.end,
            (false, true) => span.start <= from && from < span.end,
            (true, false) => from <= span.start && span.start < to,
            (true, true) => span.start == from,
        };
        if meets {
            edits.push(TextEdit::new(lines.range(span), new[hunk.new].concat()));
        }
    }
    edits
}

/// The document formatted, keeping its lack of a final newline unless the editor asks for one
/// (see [`formatting`]); `None` if it has syntax errors.
fn formatted(text: &str, options: &FormattingOptions) -> Option<String> {
    let mut formatted = crate::format::format(text).ok()?;
    if !text.is_empty() && !text.ends_with('\n') && options.insert_final_newline != Some(true) {
        let kept = formatted.trim_end_matches(['\r', '\n']).len();
        formatted.truncate(kept);
    }
    Some(formatted)
}

/// Where two texts differ, in whole lines: the span of `old` between the lines both begin and end
/// with, and the text of `new` in its place (`None` if they are the same).
fn changed_lines<'n>(old: &str, new: &'n str) -> Option<(Span, &'n str)> {
    if old == new {
        return None;
    }
    let (old_lines, new_lines): (Vec<&str>, Vec<&str>) =
        (old.split_inclusive('\n').collect(), new.split_inclusive('\n').collect());
    let same_start = old_lines.iter().zip(&new_lines).take_while(|(a, b)| a == b).count();
    let same_end = old_lines[same_start..]
        .iter()
        .rev()
        .zip(new_lines[same_start..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let length = |lines: &[&str]| lines.iter().map(|l| l.len()).sum::<usize>();
    let start = length(&old_lines[..same_start]);
    let end = old.len() - length(&old_lines[old_lines.len() - same_end..]);
    let new_end = new.len() - length(&new_lines[new_lines.len() - same_end..]);
    Some((Span::new(start, end), &new[start..new_end]))
}

/// A quick fix for every fix the checker attached to the problems in a range.
pub(super) fn code_actions(analysis: &Analysis, uri: &Uri, range: Range) -> Vec<CodeActionOrCommand> {
    let text = analysis.text();
    let lines = Lines::new(text);
    let (from, to) = (lines.offset(range.start), lines.offset(range.end));
    let mut actions = Vec::new();
    for problem in &analysis.problems {
        let span = clamp(problem.span, text);
        if span.end < from || span.start > to {
            continue;
        }
        for fix in &problem.fixes {
            let edit = TextEdit::new(lines.range(clamp(fix.span, text)), fix.replacement.clone());
            actions.push(quick_fix(fix.title.clone(), edit, diagnostic(problem, &lines, text, uri), uri));
        }
    }
    actions
}

/// A code action that makes one edit to the document to fix one diagnostic.
fn quick_fix(title: String, edit: TextEdit, fixed: Diagnostic, uri: &Uri) -> CodeActionOrCommand {
    CodeActionOrCommand::CodeAction(CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![fixed]),
        edit: Some(WorkspaceEdit { changes: Some(HashMap::from([(uri.clone(), vec![edit])])), ..Default::default() }),
        is_preferred: Some(true),
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every state of every rule file while it is typed, at its start, middle and end: every
    /// feature answers, and nothing panics.
    #[test]
    fn every_feature_answers_on_every_prefix_of_every_rule_file() {
        let rules = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
        let uri: Uri = "file:///typed.cards".parse().expect("a uri");
        for entry in std::fs::read_dir(rules).expect("rules/") {
            let text = std::fs::read_to_string(entry.expect("an entry").path()).expect("a rule file");
            for cut in text.char_indices().map(|(i, _)| i).step_by(263) {
                let typed = &text[..cut];
                let analysis = Analysis::new(None, typed, &|_| None);
                for offset in [0, cut / 2, cut] {
                    hover(&analysis, offset);
                    definition(&analysis, offset);
                    references(&analysis, offset);
                    completion(typed, &analysis, offset);
                }
                let names = Analysis::new(None, &without_line(typed, cut), &|_| None);
                completion(typed, &names, cut);
                diagnostics(&analysis, &uri);
                outline(&analysis);
                let end = Lines::new(typed).position(cut);
                code_actions(&analysis, &uri, Range::new(Position::new(0, 0), end));
                formatting(typed, &FormattingOptions::default());
                let middle = Lines::new(typed).position(cut / 2);
                for range in [Range::new(Position::new(0, 0), end), Range::new(middle, end), Range::new(end, end)] {
                    range_formatting(typed, range, &FormattingOptions::default());
                }
            }
        }
    }

    /// Each fix the checker attaches to a problem is offered as it is, whatever the problem:
    /// here an unknown name in an expression and a phase to replace that the flow lacks.
    #[test]
    fn the_code_open_in_a_template_is_found_through_texts_inside_it() {
        assert_eq!(open_template(r#""a {b"#), Some(4));
        assert_eq!(open_template(r#""a {n|tr"#), None);
        assert_eq!(open_template(r#""{case x { y => z"#), Some(2));
        // Inside a text inside the code, and inside a template of that text.
        assert_eq!(open_template(r#""{if a then "pa"#), None);
        assert_eq!(open_template(r#""{if a then "take {k"#), Some(19));
        assert_eq!(open_template(r#""{if a then "x" else b"#), Some(2));
    }

    #[test]
    fn a_quick_fix_writes_the_checker_s_replacement_over_the_name() {
        let text = include_str!("../../tests/fixtures/valid/bids-and-partners.cards")
            .replace("+= bonus\n", "+= bonsu \n")
            .replace("replace phase deal", "replace phase dael");
        let uri: Uri = "file:///bids-and-partners.cards".parse().expect("a uri");
        let analysis = Analysis::new(None, &text, &|_| None);
        let lines = Lines::new(&text);
        let whole = Range::new(Position::new(0, 0), lines.position(text.len()));
        let mut fixes: Vec<(String, Range, String)> = code_actions(&analysis, &uri, whole)
            .into_iter()
            .filter_map(|action| match action {
                CodeActionOrCommand::CodeAction(CodeAction { diagnostics: Some(fixed), edit: Some(edit), .. }) => {
                    let code = match &fixed[0].code {
                        Some(NumberOrString::String(code)) => code.clone(),
                        _ => String::new(),
                    };
                    let edit = edit.changes?.remove(&uri)?.remove(0);
                    Some((code, edit.range, edit.new_text))
                }
                _ => None,
            })
            .collect();
        fixes.sort_by(|a, b| a.0.cmp(&b.0));
        // The range of `name`, written after `before`.
        let at = |before: &str, name: &str| {
            let start = text.find(&format!("{before}{name} ")).expect("the mistake is in the text") + before.len();
            lines.range(Span::new(start, start + name.len()))
        };
        assert_eq!(
            fixes,
            [
                ("paradox::E0101".to_string(), at("+= ", "bonsu"), "bonus".to_string()),
                ("paradox::E0106".to_string(), at("replace phase ", "dael"), "deal".to_string()),
            ]
        );
    }

    #[test]
    fn blanking_a_line_keeps_every_offset() {
        let text = "a\nbé c\nd";
        let blanked = without_line(text, 3);
        assert_eq!(blanked.len(), text.len());
        assert_eq!(blanked, "a\n     \nd");
    }

    #[test]
    fn locals_are_read_from_the_words() {
        let found = locals_before(
            "define f(a: card, b: int): int = sum c in hand of 1\nplay { let x = 1 choose y from h by s }",
        );
        assert_eq!(found, ["a", "b", "c", "x", "y"]);
    }
}
