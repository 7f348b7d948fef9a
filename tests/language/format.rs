//! `paradox fmt`: the layout of every rule file, example and fixture is a snapshot; formatting
//! never changes what a file means (the compiled program, with every variant, is the same
//! before and after, and so are the problems of a file that does not compile); formatting
//! twice changes nothing more; and the same holds for rule files mutated at random.

use paradox::Settings;
use paradox::format::{format, strip_spans, without_spans};
use paradox::syntax::{File, FileBody, Item};
use proptest::prelude::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Every `.cards` file of the project: the rule files, the examples and the test fixtures.
fn every_cards_file() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["rules", "examples", "tests/fixtures/valid", "tests/fixtures/invalid", "tests/fixtures/runtime"]
        .into_iter()
        .chain(["tests/fixtures/knowledge", "tests/fixtures/format"])
    {
        for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{dir}: {e}")) {
            let path = entry.expect("a directory entry").path();
            if path.extension().is_some_and(|e| e == "cards") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// What a file means: for each way of loading it (plain, and with each of its variants), the
/// compiled game, or the problems found, with every span taken out.
fn meaning(path: &Path, text: &str) -> Vec<Value> {
    let file = match paradox::syntax::parse(text) {
        Ok(file) => file,
        Err(problems) => return vec![json_without_spans(&problems)],
    };
    let (rules, scenario) = match &file.body {
        FileBody::Rules(items) => (items.clone(), None),
        FileBody::Scenario(scenario) => {
            let base_path = path.parent().expect("a folder").join(&scenario.extends.value);
            let Ok(base) = std::fs::read_to_string(&base_path) else {
                return vec![json_without_spans(&without_spans(&file))];
            };
            match paradox::syntax::parse(&base).map(|f| f.body) {
                Ok(FileBody::Rules(items)) => (items, Some(scenario)),
                _ => return vec![json_without_spans(&without_spans(&file))],
            }
        }
    };
    let mut settings = vec![Settings::default()];
    if scenario.is_none() {
        for item in &rules {
            if let Item::Variant(variant) = item {
                settings.push(Settings { variant: Some(variant.name.name.clone()), ..Settings::default() });
            }
        }
    }
    settings
        .iter()
        .map(|settings| match paradox::check(&rules, scenario, settings) {
            Ok(game) => json_without_spans(&game),
            Err(found) => json_without_spans(&found.into_iter().map(|(_, problem)| problem).collect::<Vec<_>>()),
        })
        .collect()
}

fn json_without_spans(value: &impl serde::Serialize) -> Value {
    let mut value = serde_json::to_value(value).expect("serialisable");
    strip_spans(&mut value);
    value
}

fn relative(path: &Path) -> PathBuf {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(path).to_path_buf()
}

#[test]
fn formatted_files() {
    insta::glob!("../..", "{rules,examples}/*.cards", |path| {
        let text = std::fs::read_to_string(path).expect("a rule file");
        insta::assert_snapshot!(format(&text).expect("formats"));
    });
}

#[test]
fn formatted_fixtures() {
    insta::glob!("..", "fixtures/{valid,invalid,runtime,knowledge,format}/*.cards", |path| {
        let Ok(text) = std::fs::read_to_string(path) else { return };
        match format(&text) {
            Ok(formatted) => insta::assert_snapshot!(formatted),
            // A file with syntax errors is left alone: the problems are the parser's.
            Err(problems) => assert_eq!(Err(problems), paradox::syntax::parse(&text).map(|_| ())),
        }
    });
}

#[test]
fn the_shipped_rule_files_and_examples_are_formatted() {
    for path in every_cards_file().iter().filter(|p| p.starts_with("rules") || p.starts_with("examples")) {
        let text = std::fs::read_to_string(path).expect("readable");
        assert!(format(&text).as_ref() == Ok(&text), "{} is not formatted", path.display());
    }
}

#[test]
fn formatting_keeps_the_meaning_and_is_idempotent() {
    let mut compared = 0;
    for path in every_cards_file() {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let Ok(formatted) = format(&text) else { continue };
        assert!(meaning(&path, &formatted) == meaning(&path, &text), "{} means something else", path.display());
        assert!(format(&formatted).as_ref() == Ok(&formatted), "{}: formatting twice differs", path.display());
        compared += 1;
    }
    assert!(compared > 100, "only {compared} files compared");
}

#[test]
fn every_comment_is_kept_in_order() {
    let comments = |text: &str| -> Vec<String> {
        paradox::syntax::tokens::tokens(text)
            .into_iter()
            .filter(|t| t.kind == paradox::syntax::tokens::Kind::Comment)
            .map(|t| t.text(text).trim_end().to_string())
            .collect()
    };
    for path in every_cards_file() {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        if let Ok(formatted) = format(&text) {
            assert_eq!(comments(&formatted), comments(&text), "{}", relative(&path).display());
        }
    }
}

#[test]
fn long_lines_are_broken_within_the_width() {
    for path in every_cards_file() {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let Ok(formatted) = format(&text) else { continue };
        for line in formatted.lines() {
            let code = line.split("//").next().unwrap_or(line);
            // Only a line with a string or a name too long to break may be wider.
            if code.chars().count() > paradox::format::WIDTH {
                assert!(code.contains('"'), "{}: {line}", relative(&path).display());
            }
        }
    }
}

#[test]
fn a_byte_order_mark_and_windows_line_ends_are_kept() {
    let text = "\u{feff}// a game\r\ngame   \"x\" // named\r\nplayers 2\r\n";
    let formatted = "\u{feff}// a game\r\ngame \"x\" // named\r\nplayers 2\r\n".to_string();
    assert_eq!(format(text), Ok(formatted.clone()));
    assert_eq!(format(&formatted), Ok(formatted), "a formatted file with Windows line ends stays as it is");
    // The first line end decides.
    assert_eq!(format("game \"x\"\nplayers 2\r\n"), Ok("game \"x\"\nplayers 2\n".to_string()));
}

#[test]
fn what_follows_a_comment_inside_a_statement_continues_one_step_in() {
    let text = "play {\n  let x = // note\n  1 + 2\n  v = x + // more\n 3\n  move h // from\n to t\n}\n";
    let expected =
        "play {\n  let x = // note\n    1 + 2\n  v =\n    x\n    + // more\n      3\n  move h // from\n    to t\n}\n";
    assert_eq!(format(text).as_deref(), Ok(expected));
    let members = "enum E { a, // first\n b, c }\n";
    assert_eq!(format(members).as_deref(), Ok("enum E {\n  a, // first\n  b, c\n}\n"));
}

#[test]
fn a_file_with_syntax_errors_is_not_formatted() {
    let found = format("game \"x\"\nparam p int = 3\nzone z { see: all }\n").expect_err("does not parse");
    assert_eq!(found.len(), 2, "{found:#?}");
}

// ------------------------------------------------------------------ mutated rule files

fn rule_files() -> Vec<(PathBuf, String)> {
    every_cards_file()
        .into_iter()
        .filter(|p| p.starts_with("rules"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("a rule file");
            (p, text)
        })
        .collect()
}

/// What to put between two tokens instead of the white space written there.
const GAPS: [&str; 8] = [" ", "\n", "\n\n\n", "\t  ", "  // a note\n", "\n    ", " // a remark\n\n", "\r\n"];
/// Words swapped for others that keep a file readable: its meaning changes, and the formatter
/// must keep the new one.
const SWAPS: [(&str, &str); 8] =
    [("+", "-"), ("and", "or"), ("==", "!="), ("<", ">"), ("1", "2"), ("true", "false"), ("0", "3"), ("*", "+")];

/// A rule file with some of its white space changed, comments added and words swapped.
fn mutated(text: &str, changes: &[(usize, usize)]) -> String {
    let tokens: Vec<_> = paradox::syntax::tokens::tokens(text);
    let mut gaps: Vec<Option<&str>> = vec![None; tokens.len()];
    let mut words: Vec<Option<&str>> = vec![None; tokens.len()];
    for &(at, choice) in changes {
        let i = at % tokens.len().max(1);
        let word = tokens.get(i).map_or("", |t| t.text(text));
        match SWAPS.iter().find(|(from, _)| *from == word) {
            Some((_, to)) if choice % 3 == 0 => words[i] = Some(to),
            _ => gaps[i] = Some(GAPS[choice % GAPS.len()]),
        }
    }
    let mut out = String::new();
    let mut last = 0;
    for (i, token) in tokens.iter().enumerate() {
        let written_gap = &text[last..token.span.start];
        // A comment runs to the end of its line: the gap after it keeps its line break.
        let after_comment = i > 0 && tokens[i - 1].kind == paradox::syntax::tokens::Kind::Comment;
        match gaps[i] {
            Some(gap) if i > 0 && (!after_comment || gap.contains('\n')) => out.push_str(gap),
            _ => out.push_str(written_gap),
        }
        out.push_str(words[i].unwrap_or(token.text(text)));
        last = token.span.end;
    }
    out.push_str(&text[last..]);
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn mutated_rule_files_keep_their_meaning(
        file in 0usize..6,
        changes in prop::collection::vec((0usize..10_000, 0usize..24), 1..40),
    ) {
        let files = rule_files();
        let (path, text) = &files[file % files.len()];
        let text = mutated(text, &changes);
        match format(&text) {
            Ok(formatted) => {
                prop_assert!(meaning(path, &formatted) == meaning(path, &text), "the meaning changed");
                let odd = formatted.lines().find(|l| (l.len() - l.trim_start().len()) % 2 == 1);
                prop_assert!(odd.is_none(), "indented by an odd number of spaces: {:?}", odd);
                let again = format(&formatted);
                prop_assert!(again.as_ref() == Ok(&formatted), "formatting twice differs");
            }
            Err(problems) => prop_assert!(paradox::syntax::parse(&text).is_err(), "{:?}", problems),
        }
    }
}

/// The mutation itself works: it changes the text, yet the file still reads.
#[test]
fn mutations_change_layout_and_words() {
    let (_, text) = &rule_files()[0];
    let changed = mutated(text, &[(5, 1), (40, 4), (41, 0), (300, 6)]);
    assert_ne!(&changed, text);
    assert!(paradox::syntax::parse(&changed).is_ok(), "{changed}");
    let parsed: File = paradox::syntax::parse(&changed).expect("reads");
    assert!(matches!(parsed.body, FileBody::Rules(_)));
}

/// The comparison of meanings can fail: a changed number is a different program, a changed
/// layout is not, and the meaning of a rule file is its compiled game.
#[test]
fn meaning_tells_programs_apart() {
    let path = Path::new("rules/costly-tricks.cards");
    let text = std::fs::read_to_string(path).expect("a rule file");
    let original = meaning(path, &text);
    assert!(original.iter().all(|m| m.get("cards").is_some()), "not compiled games");
    assert_eq!(original.len(), 4, "the game and its three variants");
    let relaid = text.replace("  ", "\t").replace(" = ", "=");
    assert!(meaning(path, &relaid) == original, "the layout changed the meaning");
    let cheaper = text.replace("param trick_cost: int = 20", "param trick_cost: int = 19");
    assert!(meaning(path, &cheaper) != original, "a cost changed nothing");
    let other_winner =
        text.replace("highest c in trick where c.colour == led", "lowest c in trick where c.colour == led");
    assert!(meaning(path, &other_winner) != original, "another winner changed nothing");
}
