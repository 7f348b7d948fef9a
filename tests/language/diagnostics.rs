//! Data-driven diagnostics. Every file in `fixtures/invalid` must fail to load, and what
//! `paradox check` prints for it (plain, 80 columns) is a snapshot; every file in
//! `fixtures/valid` must load, and its summary is a snapshot. Command-line overrides and inputs
//! too large to commit (deep nesting) are tested here too, and so is the one code found only
//! during play (a forbidden move).

use crate::table::Table;
use paradox::syntax::FileBody;
use paradox::{Code, Findings, LoadError, Settings, Source, Style, load, render};
use std::path::{Path, PathBuf};

/// The width diagnostics are rendered at.
const WIDTH: usize = 80;
const COSTLY_TRICKS: &str = "rules/costly-tricks.cards";
const FOLLOW_TRUMP: &str = "examples/costly-tricks-trump-must-be-followed.cards";

/// `path` relative to the crate root (the tests' working directory), so that the file names
/// in snapshots do not depend on the machine.
fn relative(path: &Path) -> PathBuf {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(path).to_path_buf()
}

/// Renders findings with `/` in file names on every platform.
fn rendered(mut findings: Vec<Findings>) -> String {
    for f in &mut findings {
        f.source.name = f.source.name.replace('\\', "/");
    }
    render(&findings, Style::Plain, WIDTH)
}

/// What `paradox check` prints for a file that must not load.
fn diagnostics(path: &Path, settings: &Settings) -> String {
    match load(&relative(path), settings) {
        Err(LoadError::Invalid(findings)) => rendered(findings),
        Err(LoadError::Io(message)) => panic!("{}: {message}", path.display()),
        Ok(game) => panic!("{} loaded, but it should not: {}", path.display(), game.summary()),
    }
}

/// The summary of a file that must load.
fn summary(path: &Path, settings: &Settings) -> String {
    match load(&relative(path), settings) {
        Ok(game) => game.summary(),
        Err(LoadError::Invalid(findings)) => panic!("{} should load:\n{}", path.display(), rendered(findings)),
        Err(LoadError::Io(message)) => panic!("{}: {message}", path.display()),
    }
}

/// Parses and checks `text` as a rule file called `name`; the rendered problems, if any.
fn check_text(name: &str, text: &str) -> Option<String> {
    let source = Source { name: name.into(), text: text.into() };
    let problems = match paradox::syntax::parse(text) {
        Err(problems) => problems,
        Ok(file) => {
            let FileBody::Rules(items) = &file.body else { panic!("{name} is a scenario") };
            paradox::check(items, None, &Settings::default()).err()?.into_iter().map(|(_, p)| p).collect()
        }
    };
    Some(rendered(vec![Findings { source, problems }]))
}

fn settings(sets: &[&str], variant: Option<&str>) -> Settings {
    Settings { sets: sets.iter().map(|s| s.to_string()).collect(), variant: variant.map(String::from) }
}

#[test]
fn invalid_fixtures() {
    insta::glob!("..", "fixtures/invalid/*.cards", |path| {
        insta::assert_snapshot!(diagnostics(path, &Settings::default()));
    });
}

#[test]
fn valid_fixtures() {
    insta::glob!("..", "fixtures/valid/*.cards", |path| {
        insta::assert_snapshot!(summary(path, &Settings::default()));
    });
}

/// Fails to compile when a code is added, so that `Code::ALL` and the fixtures are looked at.
fn position(code: Code) -> usize {
    match code {
        Code::Syntax => 0,
        Code::TooDeep => 1,
        Code::BadLiteral => 2,
        Code::UnknownName => 3,
        Code::Duplicate => 4,
        Code::TypeMismatch => 5,
        Code::WrongKind => 6,
        Code::OutOfRange => 7,
        Code::UnknownTarget => 8,
        Code::NoAction => 9,
        Code::EndlessFlow => 10,
        Code::Missing => 11,
        Code::Arguments => 12,
        Code::NotAssignable => 13,
        Code::Misplaced => 14,
        Code::BadCard => 15,
        Code::Seating => 16,
        Code::Extends => 17,
        Code::Hidden => 18,
        Code::NotAllowed => 19,
    }
}

#[test]
fn all_codes_are_listed_once() {
    for (i, code) in Code::ALL.iter().enumerate() {
        assert_eq!(position(*code), i, "{code:?} is out of place in Code::ALL");
    }
}

/// The rendered diagnostics of every invalid fixture, by file name.
fn every_invalid_fixture() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/invalid");
    let mut shown = Vec::new();
    for entry in std::fs::read_dir(dir).expect("the fixtures exist") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == "cards") {
            shown.push((path.display().to_string(), diagnostics(&path, &Settings::default())));
        }
    }
    shown
}

/// How a move the rules forbid is shown, found during play: in the trump-must-be-followed
/// position, A's ghost holds the trump and tries to play another colour. (`paradox::E0117` is
/// for moves, so no rule file can show it.)
fn forbidden_move_shown() -> String {
    let mut table = Table::open(FOLLOW_TRUMP, &[]);
    table.play_all(&["red 7", "green 2"]);
    let (state, ghost) = (&table.state, table.seat());
    let problems = state.forbidden(ghost).into_iter().map(|(_, p)| p).collect();
    let text = std::fs::read_to_string(COSTLY_TRICKS).expect("the rule file reads");
    rendered(vec![Findings { source: Source { name: COSTLY_TRICKS.into(), text }, problems }])
}

#[test]
fn a_forbidden_move_points_at_the_rule() {
    insta::assert_snapshot!(forbidden_move_shown());
}

#[test]
fn every_code_is_shown_by_an_invalid_fixture_or_a_forbidden_move() {
    let mut all: String = every_invalid_fixture().into_iter().map(|(_, shown)| shown).collect();
    all.push_str(&forbidden_move_shown());
    let missing: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).filter(|c| !all.contains(c)).collect();
    assert!(missing.is_empty(), "no invalid fixture shows {missing:?}");
}

#[test]
fn every_problem_comes_with_help() {
    for (path, shown) in every_invalid_fixture() {
        let problems = shown.matches("paradox::E").count();
        assert_eq!(shown.matches("  help: ").count(), problems, "{path}: a problem without help:\n{shown}");
    }
}

#[test]
fn an_empty_text_is_one_problem() {
    let shown = check_text("empty.cards", "").expect("an empty file is not a game");
    insta::assert_snapshot!(shown);
}

#[test]
fn deep_brackets_are_too_deep_not_a_crash() {
    for open in ["(", "[", "{"] {
        let text = format!("game \"Deep\"\ndefine d(): int = {}", open.repeat(100_000));
        let shown = check_text("deep.cards", &text).expect("too deep to read");
        assert!(shown.contains(Code::TooDeep.as_str()), "{open}: {shown}");
        assert!(shown.ends_with("1 problem found\n"), "{open}: {shown}");
    }
}

#[test]
fn a_long_else_if_chain_is_too_deep_not_a_crash() {
    let chain = "if x { say \"a\" } else ".repeat(20_000);
    let text = format!("play {{ {chain} {{ say \"b\" }} }}");
    let shown = check_text("chain.cards", &text).expect("too deep to read");
    assert!(shown.contains(Code::TooDeep.as_str()), "{shown}");
}

#[test]
fn a_problem_far_along_a_long_line_is_shown_around_it() {
    let text = format!("game \"{}\" players 2 x\nplayers 3\n", "a".repeat(100_000));
    insta::assert_snapshot!(check_text("long-line.cards", &text).expect("a syntax error"));
}

#[test]
fn a_card_moved_to_a_per_seat_zone_is_one_problem_not_its_echoes() {
    let text = std::fs::read_to_string("tests/fixtures/valid/little-tricks.cards").expect("the fixture");
    let moved = text.replacen("move lead to trick", "move lead to hand", 1);
    let shown = check_text("moved.cards", &moved).expect("a problem");
    // Read as it stands, the card would stay in a hand: what seats learn from that is not told.
    assert!(shown.contains("one pile for each seat: which one?") && shown.ends_with("1 problem found\n"), "{shown}");
}

#[test]
fn a_missing_players_declaration_is_one_problem() {
    let text = std::fs::read_to_string("tests/fixtures/valid/little-tricks.cards").expect("the fixture");
    assert!(text.contains("= P1"), "the fixture names the seat P1");
    let shown = check_text("no-players.cards", &text.replacen("players 2\n", "", 1)).expect("a problem");
    assert!(shown.contains("no `players` declaration") && shown.ends_with("1 problem found\n"), "{shown}");
    // With seats, an unknown seat name is still told.
    let shown = check_text("p9.cards", &text.replacen("= P1", "= P9", 1)).expect("a problem");
    assert!(shown.contains("unknown name `P9`"), "{shown}");
}

#[test]
fn a_misspelt_keyword_is_suggested() {
    let text = std::fs::read_to_string("tests/fixtures/valid/little-tricks.cards").expect("the fixture");
    let declaration = text.replacen("players ", "plyers ", 1);
    insta::assert_snapshot!(check_text("declaration.cards", &declaration).expect("a syntax error"));
    let statement = text.replacen("shuffle ", "shufle ", 1);
    insta::assert_snapshot!(check_text("statement.cards", &statement).expect("a syntax error"));
    // A name that is no keyword's slip is not taken for one.
    let name = text.replacen("shuffle ", "zebra ", 1);
    assert!(!check_text("name.cards", &name).expect("a syntax error").contains("did you mean"));
}

#[test]
fn overrides_suggest_a_parameter() {
    insta::assert_snapshot!(diagnostics(Path::new(COSTLY_TRICKS), &settings(&["trik_cost=3"], None)));
}

#[test]
fn overrides_check_the_type() {
    insta::assert_snapshot!(diagnostics(Path::new(COSTLY_TRICKS), &settings(&["free_new_trump=3"], None)));
}

#[test]
fn overrides_say_a_number_is_too_large() {
    insta::assert_snapshot!(diagnostics(
        Path::new(COSTLY_TRICKS),
        &settings(&["trick_cost=99999999999999999999"], None)
    ));
}

#[test]
fn a_parameter_set_twice_is_refused() {
    insta::assert_snapshot!(diagnostics(Path::new(COSTLY_TRICKS), &settings(&["trick_cost=3", "trick_cost=4"], None)));
}

#[test]
fn overrides_check_the_range() {
    insta::assert_snapshot!(diagnostics(Path::new(COSTLY_TRICKS), &settings(&["trick_cost=300"], None)));
}

#[test]
fn overrides_need_a_value() {
    insta::assert_snapshot!(diagnostics(Path::new(COSTLY_TRICKS), &settings(&["trick_cost"], None)));
}

#[test]
fn an_unknown_variant_is_reported() {
    insta::assert_snapshot!(diagnostics(Path::new(COSTLY_TRICKS), &settings(&[], Some("cheap"))));
}

#[test]
fn several_overrides_are_reported_together() {
    let chosen = settings(&["chips_to_win=0", "tug_of_war=yes"], Some("tug_of_war"));
    insta::assert_snapshot!(diagnostics(Path::new(COSTLY_TRICKS), &chosen));
}

#[test]
fn a_set_is_applied_after_the_variant() {
    let chosen = settings(&["chips_to_win=4"], Some("tug_of_war_long"));
    let shown = summary(Path::new(COSTLY_TRICKS), &chosen);
    assert!(shown.contains("chips_to_win=4"), "{shown}");
    assert!(shown.contains("tug_of_war=true"), "{shown}");
    assert!(shown.ends_with("; variant tug_of_war_long"), "{shown}");
}

/// The little-tricks fixture with its follow condition replaced by `cond`.
fn little_tricks_where(cond: &str) -> String {
    let text = std::fs::read_to_string("tests/fixtures/valid/little-tricks.cards").expect("the fixture");
    let line = text.lines().find(|l| l.trim_start().starts_with("where ")).expect("a tier");
    text.replacen(line, &format!("where {cond}"), 1)
}

#[test]
fn not_before_a_comparison_is_explained_only_when_it_misreads() {
    let misread = check_text("t.cards", &little_tricks_where("not c.suit != lead.suit")).expect("a mistake");
    let misread = misread.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(misread.contains("`not` applies to a Suit value here"), "{misread}");
    assert!(misread.contains("`not (a != b)`") && misread.contains("`a == b`"), "{misread}");
    assert!(misread.contains("1 problem found"), "{misread}");
    // With brackets the author asked for `(not a)`: the plain type error stays.
    let bracketed = check_text("t.cards", &little_tricks_where("(not c.suit) == lead.suit")).expect("a mistake");
    assert!(bracketed.contains("the operand of `not` must be"), "{bracketed}");
    // On truth values the reading is the author's business.
    assert_eq!(check_text("t.cards", &little_tricks_where("not hearts_only == (c.suit == hearts)")), None);
}
