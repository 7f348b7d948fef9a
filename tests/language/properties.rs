//! Property tests: no text makes the parser or the checker panic or run away, and every problem
//! they report points inside the text it belongs to, on character boundaries.
//!
//! Four kinds of input: arbitrary Unicode; strings of the language's own tokens, alone and
//! spliced into a rule file; the rule files of `rules/` with random mutations, checked with
//! random `--set` and `--variant` choices; and generated packs (`deck`, derived attributes and
//! definitions) that would run for hours or recurse forever if the evaluator let them.
//!
//! And what a seat may not see stays hidden: rule files of a small family, checked, show a seat
//! the same view and options in two deals that differ only in cards it may not see.

use paradox::syntax;
use paradox::{Findings, Origin, Problem, Settings, Source, Style, render};
use proptest::prelude::*;
use std::sync::OnceLock;

// ------------------------------------------------------------------ the properties

/// The most cards a pack may make (the checker's own limit): a pack that runs away in cards is
/// refused before it has more. With the evaluator's step budget, which stops a pack that runs
/// away in work (the EndlessFlow problem, its span checked like every other), it bounds what a
/// case can cost; no case is timed.
const MOST_CARDS: usize = 4096;

/// How many problems are drawn at most; the rest are counted.
const DRAWN: usize = 50;

/// The rule files, read once.
fn rule_files() -> &'static [(String, String)] {
    static FILES: OnceLock<Vec<(String, String)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let mut files: Vec<(String, String)> = std::fs::read_dir("rules")
            .expect("rules/ exists")
            .map(|e| e.expect("a directory entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "cards"))
            .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).expect("a rule file")))
            .collect();
        files.sort();
        assert_eq!(files.len(), 6, "six rule files in rules/");
        files
    })
}

fn rule_file(name: &str) -> &'static str {
    let (_, text) = rule_files().iter().find(|(path, _)| path.ends_with(name)).expect("the rule file exists");
    text
}

/// The base that a scenario read from random text is checked against.
fn base_rules() -> &'static (String, Vec<syntax::Item>) {
    static BASE: OnceLock<(String, Vec<syntax::Item>)> = OnceLock::new();
    BASE.get_or_init(|| {
        let text = rule_file("costly-tricks.cards").to_string();
        let file = syntax::parse(&text).expect("costly-tricks.cards parses");
        let syntax::FileBody::Rules(items) = file.body else { panic!("costly-tricks.cards is a rule file") };
        (text, items)
    })
}

/// `span` lies inside `text` and starts and ends on character boundaries.
fn span_inside(text: &str, span: syntax::Span, what: &str) -> Result<(), TestCaseError> {
    prop_assert!(
        span.start <= span.end && span.end <= text.len(),
        "{what}: span {:?} is not inside a text of {} bytes",
        span,
        text.len()
    );
    prop_assert!(
        text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
        "{what}: span {:?} splits a character",
        span
    );
    Ok(())
}

fn problem_inside(text: &str, problem: &Problem) -> Result<(), TestCaseError> {
    span_inside(text, problem.span, &problem.message)?;
    for note in &problem.notes {
        span_inside(text, note.span, &format!("{} (note `{}`)", problem.message, note.label))?;
    }
    prop_assert!(!problem.message.is_empty(), "a problem without a message: {problem:?}");
    Ok(())
}

/// Draws the problems as the command line would, which must not panic either.
fn renders(name: &str, text: &str, problems: Vec<Problem>) {
    let findings = [Findings { source: Source { name: name.into(), text: text.into() }, problems }];
    let out = render(&findings, Style::Plain, 80);
    assert!(out.ends_with("found\n"), "{out}");
    // Each drawn problem quotes at most the text and a few lines of its own.
    let most = DRAWN * (text.len() + 1024);
    assert!(out.len() <= most, "{} bytes of diagnostics for {} bytes of text", out.len(), text.len());
}

/// Parses `text` and, when it parses, checks it with `settings`; every problem must point inside
/// the text it belongs to. A scenario is checked against `costly-tricks.cards`.
fn parse_and_check(text: &str, settings: &Settings) -> Result<(), TestCaseError> {
    match syntax::parse(text) {
        Err(problems) => {
            prop_assert!(!problems.is_empty(), "a rejection without problems");
            for p in &problems {
                problem_inside(text, p)?;
            }
            renders("input", text, problems);
        }
        Ok(file) => {
            span_inside(text, file.span, "the file's span")?;
            match &file.body {
                syntax::FileBody::Rules(items) => checked(items, None, text, None, settings)?,
                syntax::FileBody::Scenario(scenario) => {
                    let (base, items) = base_rules();
                    checked(items, Some(scenario), base, Some(text), settings)?
                }
            }
        }
    }
    Ok(())
}

fn checked(
    items: &[syntax::Item],
    scenario: Option<&syntax::Scenario>,
    rules: &str,
    scenario_text: Option<&str>,
    settings: &Settings,
) -> Result<(), TestCaseError> {
    match paradox::check(items, scenario, settings) {
        Ok(game) => {
            let summary = game.summary();
            prop_assert!(summary.contains("cards"), "{summary}");
            prop_assert!(game.cards.len() <= MOST_CARDS, "a pack of {} cards", game.cards.len());
        }
        Err(found) => {
            prop_assert!(!found.is_empty(), "the checker failed without saying why");
            let arguments = settings.layout().0;
            for (origin, problem) in found {
                let (name, text) = match origin {
                    Origin::Rules => ("rules", rules),
                    Origin::Scenario => {
                        prop_assert!(scenario_text.is_some(), "a scenario problem without a scenario: {problem:?}");
                        ("scenario", scenario_text.unwrap_or_default())
                    }
                    Origin::Arguments => ("command line", arguments.as_str()),
                };
                problem_inside(text, &problem)?;
                renders(name, text, vec![problem]);
            }
        }
    }
    Ok(())
}

// ------------------------------------------------------------------ tokens

/// The reserved words and keywords of the grammar.
#[rustfmt::skip]
const KEYWORDS: &[&str] = &[
    "game", "players", "default", "seats", "seat", "played", "by", "side", "param", "in", "enum",
    "card", "cards", "name", "deck", "zone", "per", "see", "count", "var", "reset", "define", "play",
    "result", "highest", "lowest", "variant", "set", "replace", "phase", "scenario", "extends", "of",
    "let", "if", "then", "else", "for", "from", "where", "repeat", "until", "while", "choose", "any",
    "declare", "when", "as", "simultaneously", "move", "to", "random", "shuffle", "deal", "all", "each",
    "starting", "say", "redo", "end", "sum", "max", "min", "exists", "every", "case", "and", "or",
    "not", "is", "true", "false", "none", "everyone", "owner", "nobody",
];

/// Names, operators and literals of the language, and a few ways to get them wrong.
#[rustfmt::skip]
const TOKENS: &[&str] = &[
    // names, built-in and from the rule files
    "int", "bool", "side", "seats", "sides", "others", "left", "right", "opposite", "next", "ord",
    "abs", "holder", "player", "members", "Colour", "red", "blue", "rank", "colour", "points", "hand",
    "trick", "won", "stock", "chips", "A", "B", "x", "f", "players", "trick_cost", "round",
    // punctuation and operators
    "(", ")", "[", "]", "{", "}", ",", ":", "=", "+=", "-=", "==", "!=", "<", "<=", ">", ">=", "+", "-",
    "*", "/", "%", ".", "..", "?", "=>",
    // numbers
    "0", "1", "2", "10", "-1", "4096", "1000000", "9223372036854775807", "-9223372036854775808",
    "99999999999999999999",
    // strings, comments and odd characters
    "\"\"", "\"x\"", "\"{x}\"", "\"{rank} of {colour}\"", "\"{\"", "\"}\"", "\"\\n\"", "\"\\q\"",
    "\"\\", "\"", "// note\n", "//", "\n", "\t", "\u{feff}", "é", "🂡", "\0",
];

fn token() -> impl Strategy<Value = &'static str> {
    prop_oneof![prop::sample::select(KEYWORDS), prop::sample::select(TOKENS)]
}

/// A string of tokens, each followed by a space, a newline or nothing.
fn token_text(count: std::ops::Range<usize>) -> impl Strategy<Value = String> {
    prop::collection::vec((token(), prop::sample::select(&[" ", " ", "\n", ""][..])), count)
        .prop_map(|parts| parts.into_iter().flat_map(|(t, sep)| [t, sep]).collect())
}

/// Costly Tricks with one part replaced by a few random tokens, so that the rest of the file
/// parses and, sometimes, the checker sees the damage.
fn spliced() -> impl Strategy<Value = String> {
    const HOLES: &[&str] = &[
        "for c in Colour, r in 0..10 { card { colour: c, rank: r } }",
        "(sum c in won[t] of c.points) - trick_cost * tricks[t]",
        "if tug_of_war then 2 * chips_to_win else chips_to_win",
        "points: int = rank",
        "20 in 0..220",
        "var leader: seat = A",
        "leader = taker",
        "highest t in sides by chips[t]",
        "set chips_to_win = 5",
    ];
    (prop::sample::select(HOLES), token_text(1..6)).prop_map(|(hole, tokens)| {
        let base = rule_file("costly-tricks.cards");
        assert!(base.contains(hole), "costly-tricks.cards has `{hole}`");
        base.replacen(hole, &tokens, 1)
    })
}

// ------------------------------------------------------------------ runaway packs

/// Loop bounds, from nothing to far more than any pack needs.
fn bound() -> impl Strategy<Value = &'static str> {
    prop::sample::select(&["0", "1", "3", "1000", "1000000", "1000000000000", "9223372036854775807", "-5"][..])
}

/// A constant expression that may do a great deal of work: nested aggregates over long ranges,
/// and calls of definitions (`chain` calls itself through `loop_a` and `loop_b`).
fn heavy_expr() -> impl Strategy<Value = String> {
    let leaf = prop::sample::select(&["1", "rank_of(7)", "loop_a(2)", "ord(red)"][..]).prop_map(str::to_string);
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (prop::sample::select(&["sum", "max", "min"][..]), bound(), inner.clone())
                .prop_map(|(op, n, e)| format!("({op} x in 0..{n} of {e} + x)")),
            (bound(), inner.clone()).prop_map(|(n, e)| format!("(count x in 0..{n} where {e} > x)")),
            (bound(), inner.clone()).prop_map(|(n, e)| format!("(if exists x in 0..{n} where {e} < x then 1 else 0)")),
            (inner.clone(), inner).prop_map(|(a, b)| format!("({a} + {b})")),
        ]
    })
}

/// Statements of `deck` nesting loops whose bodies may do nothing at all.
fn deck_body() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("card { colour: red, rank: 1 }".to_string()),
        Just(String::new()),
        heavy_expr().prop_map(|e| format!("let z = {e}")),
    ];
    leaf.prop_recursive(4, 16, 3, |inner| {
        let body = prop::collection::vec(inner, 0..3).prop_map(|b| b.join(" "));
        prop_oneof![
            (bound(), body.clone()).prop_map(|(n, b)| format!("for i in 0..{n} {{ {b} }}")),
            (bound(), bound(), body.clone())
                .prop_map(|(n, m, b)| format!("for i in 0..{n}, j in 0..{m} where j < 0 {{ {b} }}")),
            (bound(), body.clone()).prop_map(|(n, b)| format!("repeat {n} {{ {b} }}")),
            body.prop_map(|b| format!("if true {{ {b} }}")),
        ]
    })
}

/// Costly Tricks with a generated `deck`, a derived attribute that may be as heavy, and
/// definitions that call each other in a loop (which the checker must report, not run forever).
fn runaway_pack() -> impl Strategy<Value = String> {
    (deck_body(), heavy_expr(), prop::bool::weighted(0.1)).prop_map(|(deck, derived, recursive)| {
        let base = rule_file("costly-tricks.cards");
        let again = if recursive { "loop_b(n)" } else { "n" };
        base.replacen(
            "for c in Colour, r in 0..10 { card { colour: c, rank: r } }",
            &format!("for c in Colour, r in 0..10 {{ card {{ colour: c, rank: r }} }}\n  {deck}"),
            1,
        )
        .replacen("points: int = rank", &format!("points: int = rank\n  heavy: int = {derived}"), 1)
        .replacen(
            "define goal()",
            &format!(
                "define rank_of(n: int): int = n % 11\n\
                 define loop_a(n: int): int = {again}\n\
                 define loop_b(n: int): int = loop_a(n)\n\
                 define goal()"
            ),
            1,
        )
    })
}

// ------------------------------------------------------------------ mutations

/// A token of a rule file, for mutations: a byte range.
#[derive(Clone, Copy, Debug)]
struct Token {
    start: usize,
    end: usize,
    word: bool,
}

/// Splits text roughly as the grammar does: words, numbers, strings, comments, operators.
fn lex(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        let word = b.is_ascii_alphabetic() || b == b'_';
        if b.is_ascii_whitespace() {
            i += 1;
            continue;
        } else if word || b.is_ascii_digit() {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
        } else if b == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(bytes.len());
        } else if text[i..].starts_with("//") {
            i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
        } else if ["..", "==", "!=", "<=", ">=", "+=", "-=", "=>"].iter().any(|op| text[i..].starts_with(op)) {
            i += 2;
        } else {
            i += text[i..].chars().next().map_or(1, char::len_utf8);
        }
        // A string with an escape before a multi-byte character may stop inside it.
        while !text.is_char_boundary(i) {
            i += 1;
        }
        tokens.push(Token { start, end: i, word });
    }
    tokens
}

/// The start of the character at or before `i`.
fn floor(text: &str, i: usize) -> usize {
    (0..=i.min(text.len())).rev().find(|&k| text.is_char_boundary(k)).unwrap_or(0)
}

/// A place in a sequence of any length: `of(len)` picks one of `len` places.
#[derive(Clone, Copy, Debug)]
struct Pick(usize);

impl Pick {
    fn of(self, len: usize) -> usize {
        self.0 % len.max(1)
    }
}

fn pick() -> impl Strategy<Value = Pick> {
    any::<usize>().prop_map(Pick)
}

#[derive(Clone, Debug)]
enum Mutation {
    /// Delete up to `len` bytes from a place.
    Delete(Pick, usize),
    DuplicateLine(Pick),
    SwapTokens(Pick, Pick),
    /// Replace a name by another name of the file (not a keyword).
    ReplaceName(Pick, Pick),
    /// Replace a number by another number.
    ReplaceNumber(Pick, &'static str),
    /// Insert a token before a token of the file.
    Insert(Pick, &'static str),
    Truncate(Pick),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    // Mutations that keep the file parsing more often come more often, for the checker's sake.
    let number = prop::sample::select(&["0", "1", "2", "12", "100", "5000", "1000000", "99999999999999999999"][..]);
    prop_oneof![
        1 => (pick(), 1..40usize).prop_map(|(at, len)| Mutation::Delete(at, len)),
        2 => pick().prop_map(Mutation::DuplicateLine),
        1 => (pick(), pick()).prop_map(|(a, b)| Mutation::SwapTokens(a, b)),
        4 => (pick(), pick()).prop_map(|(a, b)| Mutation::ReplaceName(a, b)),
        2 => (pick(), number).prop_map(|(a, n)| Mutation::ReplaceNumber(a, n)),
        1 => (pick(), token()).prop_map(|(at, t)| Mutation::Insert(at, t)),
        1 => pick().prop_map(Mutation::Truncate),
    ]
}

impl Mutation {
    fn apply(&self, text: &str) -> String {
        let tokens = lex(text);
        if text.is_empty() || tokens.is_empty() {
            return text.to_string();
        }
        let slice = |t: &Token| &text[t.start..t.end];
        match self {
            Mutation::Delete(at, len) => {
                let start = floor(text, at.of(text.len()));
                let end = floor(text, start + len);
                format!("{}{}", &text[..start], &text[end..])
            }
            Mutation::DuplicateLine(at) => {
                let lines: Vec<&str> = text.split_inclusive('\n').collect();
                let k = at.of(lines.len());
                let mut out: String = lines[..=k].concat();
                if !out.ends_with('\n') {
                    out.push('\n');
                }
                out.push_str(&lines[k..].concat());
                out
            }
            Mutation::SwapTokens(a, b) => {
                let (mut x, mut y) = (tokens[a.of(tokens.len())], tokens[b.of(tokens.len())]);
                if x.start > y.start {
                    std::mem::swap(&mut x, &mut y);
                }
                if x.start == y.start {
                    return text.to_string();
                }
                format!("{}{}{}{}{}", &text[..x.start], slice(&y), &text[x.end..y.start], slice(&x), &text[y.end..])
            }
            Mutation::ReplaceName(a, b) => {
                let words: Vec<&Token> = tokens.iter().filter(|t| t.word && !KEYWORDS.contains(&slice(t))).collect();
                if words.is_empty() {
                    return text.to_string();
                }
                let target = words[a.of(words.len())];
                let name = slice(words[b.of(words.len())]);
                format!("{}{}{}", &text[..target.start], name, &text[target.end..])
            }
            Mutation::ReplaceNumber(a, number) => {
                let numbers: Vec<&Token> =
                    tokens.iter().filter(|t| text.as_bytes()[t.start].is_ascii_digit()).collect();
                if numbers.is_empty() {
                    return text.to_string();
                }
                let target = numbers[a.of(numbers.len())];
                format!("{}{}{}", &text[..target.start], number, &text[target.end..])
            }
            Mutation::Insert(at, token) => {
                let place = tokens[at.of(tokens.len())].start;
                format!("{} {} {}", &text[..place], token, &text[place..])
            }
            Mutation::Truncate(at) => text[..floor(text, at.of(text.len()))].to_string(),
        }
    }
}

/// `--set` arguments: mostly `name=value` with names and values the games know, sometimes junk.
fn set_argument() -> impl Strategy<Value = String> {
    const NAMES: &[&str] = &[
        "players",
        "trick_cost",
        "chips_to_win",
        "tug_of_war",
        "target",
        "doubled_twos_threes",
        "quota",
        "deals",
        "hand_size",
        "prize",
        "top_scoring_rank",
        "trik_cost",
        "",
        " players ",
    ];
    const VALUES: &[&str] = &[
        "0",
        "1",
        "2",
        "3",
        "5",
        "6",
        "15",
        "-1",
        "1000",
        "true",
        "false",
        "none",
        "red",
        "",
        " 4 ",
        "9223372036854775807",
        "-9223372036854775808",
        "99999999999999999999",
        "x=y",
        "é",
    ];
    prop_oneof![
        4 => (prop::sample::select(NAMES), prop::sample::select(VALUES)).prop_map(|(n, v)| format!("{n}={v}")),
        1 => "\\PC{0,12}",
    ]
}

fn settings() -> impl Strategy<Value = Settings> {
    const VARIANTS: &[&str] =
        &["short_game", "six_doubled", "cheap_tricks", "tug_of_war_long", "quick", "to_500", "nope", "", "é"];
    (prop::collection::vec(set_argument(), 0..3), prop::option::weighted(0.3, prop::sample::select(VARIANTS)))
        .prop_map(|(sets, variant)| Settings { sets, variant: variant.map(str::to_string) })
}

/// A rule file with one to four mutations, with the mutations applied.
fn mutated(name: &'static str) -> impl Strategy<Value = String> {
    prop::collection::vec(mutation(), 1..4)
        .prop_map(move |mutations| mutations.iter().fold(rule_file(name).to_string(), |text, m| m.apply(&text)))
}

// ------------------------------------------------------------------ the tests

/// `cases` cases, or as many as `PROPTEST_CASES` says, for a longer run by hand.
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(cases);
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn arbitrary_unicode_never_panics(text in prop::collection::vec(any::<char>(), 0..200).prop_map(String::from_iter)) {
        parse_and_check(&text, &Settings::default())?;
    }

    #[test]
    fn token_strings_never_panic(text in token_text(0..60)) {
        parse_and_check(&text, &Settings::default())?;
    }

    #[test]
    fn spliced_tokens_never_panic(text in spliced(), settings in settings()) {
        parse_and_check(&text, &settings)?;
    }
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn runaway_packs_are_stopped(text in runaway_pack()) {
        parse_and_check(&text, &Settings::default())?;
    }

    #[test]
    fn mutated_anarchy(text in mutated("anarchy.cards"), settings in settings()) {
        parse_and_check(&text, &settings)?;
    }

    #[test]
    fn mutated_buddy_on_your_left(text in mutated("buddy-on-your-left.cards"), settings in settings()) {
        parse_and_check(&text, &settings)?;
    }

    #[test]
    fn mutated_costly_tricks(text in mutated("costly-tricks.cards"), settings in settings()) {
        parse_and_check(&text, &settings)?;
    }

    #[test]
    fn mutated_pairadox(text in mutated("pairadox.cards"), settings in settings()) {
        parse_and_check(&text, &settings)?;
    }

    #[test]
    fn mutated_tantony(text in mutated("tantony.cards"), settings in settings()) {
        parse_and_check(&text, &settings)?;
    }

    #[test]
    fn mutated_third_man(text in mutated("third-man.cards"), settings in settings()) {
        parse_and_check(&text, &settings)?;
    }
}

// ------------------------------------------------------------------ the harness itself

/// The span test must be able to fail: a span past the end, or inside a character, is caught.
#[test]
fn span_test_catches_bad_spans() {
    assert!(span_inside("abc", syntax::Span::new(0, 3), "whole").is_ok());
    assert!(span_inside("abc", syntax::Span::new(2, 4), "past the end").is_err());
    assert!(span_inside("abc", syntax::Span::new(3, 2), "backwards").is_err());
    assert!(span_inside("é", syntax::Span::new(0, 1), "half a character").is_err());
}

/// The rule files are valid, and the mutations do what they say.
#[test]
fn unmutated_rule_files_check_and_mutations_apply() {
    for (path, text) in rule_files() {
        parse_and_check(text, &Settings::default()).unwrap_or_else(|e| panic!("{path}: {e}"));
        let file = syntax::parse(text).unwrap_or_else(|p| panic!("{path}: {p:?}"));
        let syntax::FileBody::Rules(items) = file.body else { panic!("{path} is not a rule file") };
        assert!(paradox::check(&items, None, &Settings::default()).is_ok(), "{path} checks");
        let first = Pick(0);
        let truncated = Mutation::Truncate(Pick(text.len() / 2)).apply(text);
        assert!(truncated.len() < text.len() && text.starts_with(&truncated), "{path}: truncated");
        let inserted = Mutation::Insert(first, "}").apply(text);
        assert!(inserted.starts_with(" } "), "{path}: inserted at the first token: {:?}", &inserted[..20]);
        assert!(lex(text).iter().filter(|t| t.word).count() > 100, "{path}: words found");
        let renamed = Mutation::ReplaceName(Pick(0), Pick(1)).apply(text);
        assert_ne!(&renamed, text, "{path}: a name replaced");
        let renumbered = Mutation::ReplaceNumber(Pick(0), "99999999999999999999").apply(text);
        assert!(renumbered.contains("99999999999999999999"), "{path}: a number replaced");
    }
}

// ------------------------------------------------------------------ what a seat may not see

/// Values for the generated flows: what P1 sees (its own hand, the table, the variables, how
/// many cards P2 holds) and what it does not (P2's cards, the stock's).
const NUMBERS: &[&str] = &[
    "count(hand[P2])",
    "score[P1]",
    "sum c in table of c.rank",
    "count(hand[P1])",
    "(if count(hand[P1]) > 0 then first(hand[P1]).rank else 0)",
    "count c in hand[P2] where c.rank > 5",
    "count c in stock where c.rank > 5",
    "(if count(hand[P2]) > 0 then first(hand[P2]).rank else 0)",
];
const CONDITIONS: &[&str] = &[
    "score[P1] > 0",
    "count(table) > 0",
    "exists c in hand[P1] where c.rank == 2",
    "exists c in hand[P2] where c.rank == 8",
    "card(rank: 7) in stock",
    "(count c in hand[P2] where c.rank > 5) > 1",
];

/// One statement of a generated flow, its slots filled with a number `n` and a condition `c`.
fn statement(kind: usize, n: &str, c: &str) -> String {
    match kind {
        0 => format!("say \"{{{n}}}\""),
        1 => format!("score[P1] = ({n})"),
        2 => format!("if ({c}) {{ score[P1] += 1 }}"),
        3 => format!("choose k from 0..({n}) by P1 as \"{{k}}\"\n  score[P1] += k"),
        4 => format!("choose k from 0..1 by P1 where k == 0 or ({c})\n  score[P1] += k"),
        5 => format!("choose c from hand[P1] by P1 where ({c}) else any\n  move c to table"),
        6 => format!("choose k from 0..1 by P1 as \"{{k}}: {{{n}}}\"\n  score[P1] += k"),
        7 => format!("for c in hand[P2] where ({c}) {{ score[P1] += 1 }}"),
        8 => format!("choose k from 0..1 by P1 declare bold when ({c})\n  if bold {{ score[P1] += 1 }}"),
        _ => format!("repeat ({n}) {{ score[P1] += 1 }}"),
    }
}

/// A rule file of the family: P1 is dealt the 1 and the 2, P2 the three cards of `dealt`, the
/// rest stays in the stock; then the flow, then the result.
fn hidden_family(flow: &[String], result: &str, dealt: [u8; 3]) -> String {
    let [a, b, c] = dealt;
    format!(
        "game \"Kept\"\nplayers 2\n\ncard {{\n  rank: 1..8\n  name \"c{{rank}}\"\n}}\n\ndeck {{\n  for r in 1..8 {{ card {{ rank: r }} }}\n}}\n\n\
         zone stock {{ see: nobody }}\nzone hand per seat {{ see: owner }}\nzone table {{ see: everyone }}\n\n\
         var score: int per seat = 0\n\nplay {{\n  move cards c in stock where c.rank <= 2 to hand[P1]\n  \
         move cards c in stock where c.rank == {a} or c.rank == {b} or c.rank == {c} to hand[P2]\n  {}\n}}\n\n\
         result highest s in seats by {result}\n",
        flow.join("\n  ")
    )
}

/// The game of a rule file, or `None` if the checker refuses it.
fn family_game(text: &str) -> Option<std::sync::Arc<paradox::Game>> {
    let file = syntax::parse(text).unwrap_or_else(|p| panic!("the family parses: {p:?}\n{text}"));
    let syntax::FileBody::Rules(items) = &file.body else { panic!("a rule file") };
    paradox::check(items, None, &Settings::default()).ok().map(std::sync::Arc::new)
}

/// What P1 is shown at a point of the match: the piles as it sees them and the variables, its
/// log, the `show` lines and the standing, and its options by name.
fn seen_by_p1(state: &paradox::State) -> String {
    let options: Vec<String> = state.shown_actions(0).into_iter().filter_map(|a| state.action_name(0, a)).collect();
    let failure = state.failure().map(|p| p.message.clone());
    format!(
        "{:?}\n{:?}\n{:?}\n{:?}\n{options:?}\n{failure:?}",
        state.view(0),
        state.log_for(0),
        state.status(),
        state.standings()
    )
}

/// Plays a game of the family, P1 taking the option `picks` names at each decision (by index,
/// modulo their number): what P1 is shown at each decision and at the end.
fn p1_sees(game: std::sync::Arc<paradox::Game>, picks: &[usize]) -> Vec<String> {
    let mut state = paradox::State::new(game, 1);
    let mut seen = vec![seen_by_p1(&state)];
    for pick in picks {
        let actions = state.shown_actions(0);
        if state.is_over() || actions.is_empty() {
            break;
        }
        state.apply(0, actions[pick % actions.len()]).expect("a legal action");
        seen.push(seen_by_p1(&state));
    }
    seen
}

/// Two hands for P2 from the cards 3 to 8: the rest lies in the stock.
fn two_deals() -> impl Strategy<Value = ([u8; 3], [u8; 3])> {
    let hand = || prop::sample::subsequence(vec![3u8, 4, 5, 6, 7, 8], 3).prop_map(|v| [v[0], v[1], v[2]]);
    (hand(), hand())
}

fn hidden_flow() -> impl Strategy<Value = (Vec<String>, &'static str)> {
    let stmt = (0..10usize, prop::sample::select(NUMBERS), prop::sample::select(CONDITIONS))
        .prop_map(|(kind, n, c)| statement(kind, n, c));
    let result = prop::sample::select(&["score[s]", "count c in hand[s] where c.rank > 5"][..]);
    (prop::collection::vec(stmt, 1..5), result)
}

proptest! {
    #![proptest_config(config(128))]

    /// A rule file the checker accepts shows P1 the same thing, and offers it the same options,
    /// whichever cards P2 and the stock hold.
    #[test]
    fn a_seat_sees_the_same_whatever_it_may_not_see(
        (flow, result) in hidden_flow(),
        (one, other) in two_deals(),
        picks in prop::collection::vec(0..4usize, 0..6),
    ) {
        let (a, b) = (hidden_family(&flow, result, one), hidden_family(&flow, result, other));
        let (Some(ga), Some(gb)) = (family_game(&a), family_game(&b)) else {
            prop_assert_eq!(family_game(&a).is_some(), family_game(&b).is_some(), "the same verdict for both deals");
            return Ok(());
        };
        prop_assert_eq!(p1_sees(ga, &picks), p1_sees(gb, &picks), "P1 is shown more than it may see:\n{}", a);
    }
}

/// The family is not all refused: a flow reading only what P1 sees checks, and one reading
/// P2's hand in a label does not.
#[test]
fn the_hidden_family_has_both_verdicts() {
    let open = [statement(3, NUMBERS[0], CONDITIONS[0]), statement(5, NUMBERS[3], CONDITIONS[2])];
    assert!(family_game(&hidden_family(&open, "score[s]", [3, 4, 5])).is_some());
    let leak = [statement(6, NUMBERS[5], CONDITIONS[0])];
    assert!(family_game(&hidden_family(&leak, "score[s]", [3, 4, 5])).is_none());
}
