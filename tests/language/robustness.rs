//! Hostile and extreme files: empty, binary, absurdly nested, huge, and packs or definitions that
//! would run away. Each must give problems (or a game) quickly, never a panic or a stack overflow.

use crate::short::short;
use paradox::{Code, Findings, Game, LoadError, Problem, Settings, load};
use proptest::prelude::*;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh file under the target directory holding `bytes`.
fn temp_file(bytes: &[u8]) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("robustness-{}-{n}.cards", std::process::id()));
    std::fs::write(&path, bytes).expect("a temporary file");
    path
}

/// Loads `bytes` from a file, with a 2 MB stack (what a thread gets by default) so that a pass
/// recursing too deeply fails here as it would anywhere.
fn load_bytes(bytes: &[u8]) -> Result<Game, LoadError> {
    let path = temp_file(bytes);
    let loaded = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn({
            let path = path.clone();
            move || load(&path, &Settings::default())
        })
        .expect("a thread")
        .join()
        .expect("no panic and no stack overflow");
    let _ = std::fs::remove_file(&path);
    loaded
}

/// The problems of a file that must be rejected; each one's span lies inside the text it
/// points into and on character boundaries.
fn rejected(loaded: Result<Game, LoadError>) -> Vec<Problem> {
    let findings: Vec<Findings> = match loaded {
        Ok(game) => panic!("accepted: {}", game.summary()),
        Err(LoadError::Io(message)) => panic!("not read: {message}"),
        Err(LoadError::Invalid(findings)) => findings,
    };
    let mut problems = Vec::new();
    for f in findings {
        let text = &f.source.text;
        for p in &f.problems {
            for span in std::iter::once(p.span).chain(p.notes.iter().map(|n| n.span)) {
                assert!(
                    span.start <= span.end && span.end <= text.len(),
                    "{span:?} outside {} bytes: {p:?}",
                    text.len()
                );
                assert!(
                    text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
                    "{span:?} splits a character: {p:?}"
                );
            }
        }
        problems.extend(f.problems);
    }
    assert!(!problems.is_empty(), "rejected without a problem");
    problems
}

/// The problems for a failure message, cut short past its first lines.
fn shown(problems: &[Problem]) -> String {
    short(&format!("{problems:#?}"))
}

fn has(problems: &[Problem], code: Code, message: &str) -> bool {
    problems.iter().any(|p| p.code == code && p.message.contains(message))
}

fn rule_file(name: &str) -> String {
    std::fs::read_to_string(format!("rules/{name}")).expect("a rule file")
}

/// Costly Tricks with `statements` added to its `deck` and `definitions` before its own.
fn costly_tricks_with(statements: &str, definitions: &str) -> String {
    let deck = "for c in Colour, r in 0..10 { card { colour: c, rank: r } }";
    let text = rule_file("costly-tricks.cards");
    assert!(text.contains(deck) && text.contains("define goal()"));
    text.replacen(deck, &format!("{deck}\n  {statements}"), 1).replacen(
        "define goal()",
        &format!("{definitions}\ndefine goal()"),
        1,
    )
}

// ------------------------------------------------------------------ empty and binary files

#[test]
fn an_empty_file_is_missing_its_declarations() {
    let problems = rejected(load_bytes(b""));
    assert_eq!(problems.len(), 1, "one problem for an empty file: {}", shown(&problems));
    assert_eq!(problems[0].code, Code::Missing);
    let help = problems[0].help.as_deref().unwrap_or_default();
    for what in ["`game`", "`players`", "`card`", "`deck`", "`play`", "`result`"] {
        assert!(help.contains(what), "the help does not name {what}: {help}");
    }
}

#[test]
fn a_file_of_invalid_utf8_points_at_the_first_bad_byte() {
    let problems = rejected(load_bytes(b"game \"caf\xe9\"\nplayers 2\n"));
    assert_eq!(problems.len(), 1, "{}", shown(&problems));
    assert_eq!(problems[0].code, Code::Syntax);
    assert_eq!(problems[0].span.start, "game \"caf".len(), "{}", shown(&problems));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random bytes are never a game: the file is not text, does not parse, or declares
    /// nothing. Either way it is rejected with problems that point into it.
    #[test]
    fn binary_garbage_is_rejected(bytes in prop::collection::vec(any::<u8>(), 0..4096)) {
        rejected(load_bytes(&bytes));
    }

    /// Garbage after a valid rule file: the bad byte can be anywhere.
    #[test]
    fn garbage_after_a_rule_file_is_rejected(bytes in prop::collection::vec(128u8.., 1..64)) {
        let mut file = rule_file("tantony.cards").into_bytes();
        file.extend(&bytes);
        rejected(load_bytes(&file));
    }
}

// ------------------------------------------------------------------ deep and long

#[test]
fn a_hundred_thousand_open_brackets_are_too_deep() {
    let problems = rejected(load_bytes("(".repeat(100_000).as_bytes()));
    assert!(has(&problems, Code::TooDeep, "brackets nested more than"), "{}", shown(&problems));
}

#[test]
fn a_hundred_thousand_operators_are_too_many() {
    let sum = format!("a{}", " + a".repeat(100_000));
    for text in [format!("play {{ x = {sum} }}"), format!("define f(): int = {sum}")] {
        let problems = rejected(load_bytes(text.as_bytes()));
        assert!(has(&problems, Code::TooDeep, "operators"), "{}", shown(&problems));
    }
}

#[test]
fn a_long_else_if_chain_is_too_deep() {
    let chain = "if a { } else ".repeat(5_000);
    let problems = rejected(load_bytes(format!("play {{ {chain} {{ }} }}").as_bytes()));
    assert!(problems.iter().any(|p| p.code == Code::TooDeep), "{}", shown(&problems));
}

/// A rule file padded with comments to about `size` bytes still checks.
fn padded(size: usize) -> String {
    let text = rule_file("costly-tricks.cards");
    let lines = text.lines().count();
    let comment = "// Padding: a comment line as long as the longest lines of a rule file, to make it big.\n";
    let per_line = (size.saturating_sub(text.len()) / lines / comment.len()).max(1);
    text.lines().map(|line| format!("{}{line}\n", comment.repeat(per_line))).collect()
}

/// 2 MB here, in a debug build (about 0.6 s). 10 MB was measured by hand: `cargo run --release
/// -- check` on the text of `padded(10 << 20)` took 0.26 s (0.34 s with cargo's own start), and
/// a debug build 2.8 s; with 2.6 million two-byte comments instead, 0.48 s and 4.3 s.
#[test]
fn a_rule_file_padded_to_two_megabytes_checks() {
    let text = padded(2 << 20);
    assert!(text.len() > (19 << 20) / 10, "{} bytes", text.len());
    let game = load_bytes(text.as_bytes()).unwrap_or_else(|e| panic!("{:?}", rejected(Err(e))));
    assert!(game.summary().starts_with("Costly Tricks: 2 players, 4 seats, 44 cards"), "{}", game.summary());
}

// ------------------------------------------------------------------ packs that run away

/// Loops and aggregates that never end in reasonable time, even with empty bodies, are stopped
/// by the evaluator's step budget.
#[test]
fn endless_packs_are_stopped() {
    for statements in [
        "repeat 1000000000000 { }",
        "for i in 0..1000000 { for j in 0..1000000 { } }",
        "for i in 0..1000, j in 0..1000000 where j < 0 { }",
        "let z = sum x in 0..1000 of sum y in 0..1000000 of y",
        "for i in 0..1000000 { let z = exists x in 0..1000000 where x == 0 }",
        "for i in 0..900000 { card { colour: red, rank: 1 } }",
    ] {
        let problems = rejected(load_bytes(costly_tricks_with(statements, "").as_bytes()));
        assert!(has(&problems, Code::EndlessFlow, "runs too long"), "{statements}: {}", shown(&problems));
    }
}

/// Derived attributes are worked out for every card out of one budget, not one each.
#[test]
fn endless_derived_attributes_are_stopped() {
    let text = rule_file("costly-tricks.cards").replacen(
        "points: int = rank",
        "points: int = rank\n  heavy: int = sum x in 0..300000 of x",
        1,
    );
    let problems = rejected(load_bytes(text.as_bytes()));
    assert!(
        has(&problems, Code::EndlessFlow, "runs too long while computing a card's attributes"),
        "{}",
        shown(&problems)
    );
}

/// A pack within the budget is still built.
#[test]
fn a_busy_pack_within_the_budget_is_built() {
    let text = costly_tricks_with("for i in 0..1000 { let z = sum x in 0..100 of x }", "");
    let game = load_bytes(text.as_bytes()).unwrap_or_else(|e| panic!("{:?}", rejected(Err(e))));
    assert!(game.summary().contains("44 cards"), "{}", game.summary());
}

#[test]
fn recursive_definitions_in_the_deck_are_reported_once() {
    let definitions = "define f(n: int): int = g(n)\ndefine g(n: int): int = f(n) + 1";
    let problems = rejected(load_bytes(costly_tricks_with("let z = f(1)", definitions).as_bytes()));
    assert_eq!(problems.len(), 2, "{}", shown(&problems));
    assert!(has(&problems, Code::EndlessFlow, "definition `f` always calls itself"), "{}", shown(&problems));
    assert!(has(&problems, Code::EndlessFlow, "definition `g` always calls itself"), "{}", shown(&problems));
}

/// The deepest expression the syntax limits allow (brackets almost as deep as they may go, and
/// almost as many operators as one expression may have) is checked and worked out, in the deck
/// and in play, even from a thread with the default 2 MB stack.
#[test]
fn the_deepest_expressions_allowed_are_checked_and_worked_out() {
    let deep = format!("{}1{}{}", "(".repeat(50), " + 1".repeat(250), ")".repeat(50));
    let text = costly_tricks_with(&format!("let z = {deep}"), &format!("define deep(): int = {deep}"))
        .replacen("leader = taker", &format!("leader = taker\n          tricks[side(taker)] += {deep}"), 1)
        .replacen("points: int = rank", &format!("points: int = rank + {deep} - 251"), 1);
    let game = load_bytes(text.as_bytes()).unwrap_or_else(|e| panic!("{:?}", rejected(Err(e))));
    assert!(game.summary().contains("44 cards"), "{}", game.summary());
}

/// `count` definitions, each calling the next through `body` (where `NEXT` is the call).
fn chain(count: usize, body: &str) -> String {
    let mut out: String = (0..count)
        .map(|i| format!("define f{i}(): int = {}\n", body.replace("NEXT", &format!("f{}()", i + 1))))
        .collect();
    out.push_str(&format!("define f{count}(): int = 1\n"));
    out
}

/// Thousands of definitions are checked for recursion in linear time.
#[test]
fn thousands_of_definitions_check_quickly() {
    let text = costly_tricks_with("", &chain(5_000, "NEXT"));
    let game = load_bytes(text.as_bytes()).unwrap_or_else(|e| panic!("{:?}", rejected(Err(e))));
    assert!(game.summary().contains("44 cards"), "{}", game.summary());
    // The same with a cycle through all of them: each is reported, at its call.
    let text =
        costly_tricks_with("", &chain(5_000, "NEXT").replace("define f5000(): int = 1", "define f5000(): int = f0()"));
    let problems = rejected(load_bytes(text.as_bytes()));
    assert_eq!(problems.len(), 5_001, "{:#?}", &problems[..3]);
    assert!(problems.iter().all(|p| p.code == Code::EndlessFlow && p.message.ends_with("calls itself")));
}

/// Long chains of definitions used by the deck stop at the evaluator's depth limit instead of
/// overflowing the stack, whatever the shape of the values between the calls.
#[test]
fn deep_chains_of_definitions_are_too_deep() {
    for body in [
        "NEXT",
        "max(NEXT, 1)",
        "if true then NEXT else 0",
        "case 1 { 1 => NEXT else => 0 }",
        "sum x in 0..1 of NEXT",
        &format!("NEXT{}", " + 1".repeat(250)),
    ] {
        let text = costly_tricks_with("let z = f0()", &chain(600, body));
        let problems = rejected(load_bytes(text.as_bytes()));
        assert!(has(&problems, Code::TooDeep, "too deeply"), "{body}: {}", shown(&problems));
    }
}

// ------------------------------------------------------------------ many mistakes

/// Thousands of misspelt names in a file declaring thousands of names: "did you mean" compares
/// each with every name, so it has a budget; the first mistakes still get suggestions.
#[test]
fn thousands_of_unknown_names_check_quickly() {
    let n = 4_000;
    let params: String = (0..n).map(|i| format!("param count_{i}: int = 0\n")).collect();
    let uses: String = (0..n).map(|i| format!("define use_{i}(): int = cuont_{i}\n")).collect();
    let problems = rejected(load_bytes(costly_tricks_with("", &format!("{params}{uses}")).as_bytes()));
    assert_eq!(problems.len(), n, "{:#?}", &problems[..3]);
    let help = |p: &Problem| p.help.clone().unwrap_or_default();
    assert_eq!(help(&problems[0]), "did you mean `count_0`?", "{:#?}", problems[0]);
    assert!(help(&problems[n - 1]).starts_with("declare it first"), "{:#?}", problems[n - 1]);
}

/// The same for card attributes, enumeration members, functions and types, whose help may list
/// every candidate.
#[test]
fn thousands_of_unknown_attributes_members_functions_and_types_check_quickly() {
    let n = 3_000;
    let attributes: String = (0..n).map(|i| format!("  a{i}: int?\n")).collect();
    let members: Vec<String> = (0..n).map(|i| format!("m{i}")).collect();
    let enums: String = (0..n).map(|i| format!("enum E{i} {{ e{i} }}\n")).collect();
    let uses: String = (0..n)
        .map(|i| {
            format!(
                "define use_{i}(c: card, b: Big): bool = c.z{i} == 0 and b is z{i} and z{i}() == 0\n\
                 define typed_{i}(t: T{i}): int = 1\n"
            )
        })
        .collect();
    let text = costly_tricks_with("", &format!("enum Big {{ {} }}\n{enums}{uses}", members.join(", "))).replacen(
        "points: int = rank\n",
        &format!("points: int = rank\n{attributes}"),
        1,
    );
    let problems = rejected(load_bytes(text.as_bytes()));
    for what in ["cards have no attribute `z", "Big has no member `z", "unknown function `z", "unknown type `T"] {
        assert_eq!(problems.iter().filter(|p| p.message.starts_with(what)).count(), n, "{what}");
    }
    let help: usize = problems.iter().map(|p| p.help.as_ref().map_or(0, String::len)).sum();
    assert!(help < 50 << 20, "{help} bytes of help");
}
