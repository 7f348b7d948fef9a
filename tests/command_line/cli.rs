//! The `paradox` binary end to end: exit codes, summaries on standard output, diagnostics on
//! standard error.

use crate::run::{Run, paradox};
use crate::short::short;
use std::path::{Path, PathBuf};

/// The rule files with the game each one names and the size of its pack by default.
const GAMES: [(&str, &str, usize); 6] = [
    ("rules/anarchy.cards", "Anarchy", 52),
    ("rules/buddy-on-your-left.cards", "Buddy on your Left", 30),
    ("rules/costly-tricks.cards", "Costly Tricks", 44),
    ("rules/pairadox.cards", "Pairadox", 83),
    ("rules/tantony.cards", "Tantony", 52),
    ("rules/third-man.cards", "The Third Man", 40),
];

impl Run {
    /// The standard output's single line.
    fn line(&self) -> &str {
        let lines: Vec<&str> = self.stdout.lines().collect();
        assert_eq!(lines.len(), 1, "one summary line:\n{self}");
        lines[0]
    }
}

/// A file under the target directory holding `text`.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{}-{name}", std::process::id()));
    std::fs::write(&path, text).expect("a temporary file");
    path
}

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).expect("a rule file")
}

/// The summary of one rule file with the given options.
fn summary(file: &str, options: &[&str]) -> String {
    let mut args = vec!["check", file];
    args.extend(options);
    paradox(&args).expect(0).line().to_string()
}

fn cards(summary: &str) -> usize {
    let before = summary.split(" cards").next().expect("a card count");
    before.rsplit(' ').next().and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("no card count in {summary}"))
}

// ------------------------------------------------------------------ valid files

#[test]
fn every_rule_file_checks_with_one_summary_line() {
    let run = paradox(std::iter::once("check").chain(GAMES.iter().map(|g| g.0)));
    run.expect(0);
    assert_eq!(run.stderr, "", "nothing on standard error");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), GAMES.len(), "{}", short(&run.stdout));
    for ((path, game, count), line) in GAMES.iter().zip(&lines) {
        assert!(line.starts_with(&format!("{path}: {game}: ")), "{line}");
        assert!(line.contains(&format!(", {count} cards")), "{line}");
        assert_eq!(cards(line), *count, "{line}");
        // The name is the one the file declares.
        assert!(read(path).contains(&format!("game \"{game}\"")), "{path} declares {game}");
    }
}

#[test]
fn a_set_changes_the_summary() {
    let plain = summary("rules/costly-tricks.cards", &[]);
    let cheap = summary("rules/costly-tricks.cards", &["--set", "trick_cost=15"]);
    assert!(plain.contains("trick_cost=20"), "{plain}");
    assert!(cheap.contains("trick_cost=15"), "{cheap}");
    assert_eq!(plain.replace("trick_cost=20", "trick_cost=15"), cheap);
}

#[test]
fn the_number_of_players_decides_the_anarchy_pack() {
    let anarchy = "rules/anarchy.cards";
    for (options, players, count) in [
        (&["--set", "players=4"][..], 4, 52),
        (&["--set", "players=6"][..], 6, 60),
        (&["--set", "players=5"][..], 5, 60),
        (&["--set", "players=5", "--set", "doubled_twos_threes=true"][..], 5, 60),
    ] {
        let line = summary(anarchy, options);
        assert!(line.starts_with(&format!("{anarchy}: Anarchy: {players} players, {players} seats, ")), "{line}");
        assert_eq!(cards(&line), count, "{options:?}: {line}");
    }
    let doubled = summary(anarchy, &["--set", "players=5", "--set", "doubled_twos_threes=true"]);
    assert!(doubled.contains("doubled_twos_threes=true"), "{doubled}");
}

/// Each `variant NAME` line of each rule file names a variant that checks, and the summary
/// shows the variant and the parameters it sets.
#[test]
fn every_variant_checks_clean() {
    let mut seen = 0;
    for (path, game, _) in GAMES {
        let text = read(path);
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            let Some(rest) = line.strip_prefix("variant ") else { continue };
            let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            let run = paradox(["check", path, "--variant", &name]);
            run.expect(0);
            assert_eq!(run.stderr, "", "{path} --variant {name}");
            let summary = run.line();
            assert!(summary.starts_with(&format!("{path}: {game}: ")), "{summary}");
            assert!(summary.ends_with(&format!("; variant {name}")), "{summary}");
            // `set NAME = VALUE` lines up to the variant's closing brace.
            for item in lines.by_ref().take_while(|l| !l.starts_with('}')) {
                if let Some((param, value)) = item.trim().strip_prefix("set ").and_then(|s| s.split_once(" = ")) {
                    assert!(summary.contains(&format!("{param}={value}")), "{name} sets {param}: {summary}");
                }
            }
            seen += 1;
        }
    }
    assert!(seen >= 10, "only {seen} variants found");
}

// ------------------------------------------------------------------ invalid files

/// Line and column (1-based, in characters) of byte `at` of `text`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, col)
}

#[test]
fn an_invalid_file_exits_1_with_plain_diagnostics() {
    let text = read("rules/costly-tricks.cards").replacen("leader = taker", "leader = takr", 1);
    let at = text.find("takr").expect("the typo");
    let path = temp_file("typo.cards", &text);
    let shown = path.display().to_string();
    let run = paradox(["check", shown.as_str()]);
    run.expect(1);
    assert_eq!(run.stdout, "", "no summary for an invalid file");
    let (line, col) = line_col(&text, at);
    for needle in [
        format!("{shown}:{line}:{col}"),
        "paradox::E0101".to_string(),
        "unknown name `takr`".to_string(),
        "did you mean `taker`?".to_string(),
        "1 problem found".to_string(),
    ] {
        assert!(run.stderr.contains(&needle), "no {needle:?} in:\n{}", short(&run.stderr));
    }
    let _ = std::fs::remove_file(path);
}

/// A valid file next to an invalid one is still summarised; the exit code is the worst.
#[test]
fn valid_and_invalid_files_together() {
    let path = temp_file("broken.cards", "game \"Broken\"\nplayers 2\ncard {");
    let shown = path.display().to_string();
    let run = paradox(["check", "rules/tantony.cards", shown.as_str()]);
    run.expect(1);
    assert!(run.line().starts_with("rules/tantony.cards: Tantony: "), "{}", short(&run.stdout));
    assert!(run.stderr.contains(&format!("{shown}:3:")), "{}", short(&run.stderr));
    let missing = paradox(["check", "rules/tantony.cards", "rules/no-such-game.cards", shown.as_str()]);
    missing.expect(2);
    let _ = std::fs::remove_file(path);
}

#[test]
fn a_missing_file_exits_2_with_one_line() {
    let run = paradox(["check", "rules/no-such-game.cards"]);
    run.expect(2);
    assert_eq!(run.stdout, "");
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", short(&run.stderr));
    assert!(lines[0].starts_with("error: cannot read rules/no-such-game.cards"), "{}", lines[0]);
}

#[test]
fn bad_usage_exits_2() {
    for args in [
        &[][..],
        &["check"][..],
        &["check", "--bogus", "rules/tantony.cards"][..],
        &["frobnicate", "rules/tantony.cards"][..],
        &["check", "rules/tantony.cards", "--variant"][..],
        // No matches is no run: refused, not reported as an empty table.
        &["sim", "rules/tantony.cards", "--games", "0"][..],
        &["compare", "rules/tantony.cards", "base", "variant:short", "--games", "0"][..],
        &["ladder", "rules/tantony.cards", "--games", "0"][..],
    ] {
        let run = paradox(args);
        run.expect(2);
        assert_eq!(run.stdout, "", "{args:?}");
        assert!(run.stderr.contains("Usage:") || run.stderr.starts_with("error: "), "{args:?}: {}", short(&run.stderr));
    }
}

#[test]
fn a_negative_number_is_read_as_the_options_value_and_refused() {
    for (args, option) in [
        (&["trace", "rules/tantony.cards", "--seed", "-1"][..], "--seed"),
        (&["sim", "rules/tantony.cards", "--games", "-3"][..], "--games"),
    ] {
        let run = paradox(args);
        run.expect(2);
        assert!(run.stderr.starts_with(&format!("error: invalid value '{}' for '{option}", args[3])), "{}", run.stderr);
        assert!(!run.stderr.contains("tip:"), "{}", run.stderr);
    }
}

#[test]
fn an_unknown_parameter_is_reported_with_a_suggestion() {
    let run = paradox(["check", "rules/costly-tricks.cards", "--set", "trik_cost=15"]);
    run.expect(1);
    assert_eq!(run.stdout, "");
    for needle in ["no parameter `trik_cost`", "did you mean `trick_cost`?", "command line:1:7", "--set trik_cost=15"] {
        assert!(run.stderr.contains(needle), "no {needle:?} in:\n{}", short(&run.stderr));
    }
}

#[test]
fn a_value_out_of_range_names_the_range() {
    let run = paradox(["check", "rules/costly-tricks.cards", "--set", "trick_cost=1500"]);
    run.expect(1);
    for needle in ["1500 is outside the range of `trick_cost`", "0..220", "from 0 to 220"] {
        assert!(run.stderr.contains(needle), "no {needle:?} in:\n{}", short(&run.stderr));
    }
    let run = paradox(["check", "rules/anarchy.cards", "--set", "players=7"]);
    run.expect(1);
    assert!(run.stderr.contains("7 is outside the range of `players`"), "{}", short(&run.stderr));
}

#[test]
fn an_unknown_variant_is_reported_with_a_suggestion() {
    let run = paradox(["check", "rules/costly-tricks.cards", "--variant", "cheap_trick"]);
    run.expect(1);
    assert_eq!(run.stdout, "");
    for needle in ["no variant `cheap_trick`", "did you mean `cheap_tricks`?", "command line:1:11"] {
        assert!(run.stderr.contains(needle), "no {needle:?} in:\n{}", short(&run.stderr));
    }
}

// ------------------------------------------------------------------ paradox fmt

#[test]
fn fmt_check_lists_the_files_to_format_and_changes_nothing() {
    let messy = read("tests/fixtures/format/messy-layout.cards");
    let path = temp_file("messy.cards", &messy);
    let run = paradox(["fmt", "--check", "rules/tantony.cards", path.to_str().expect("a path")]);
    run.expect(1);
    assert_eq!(run.line(), path.display().to_string());
    assert_eq!(std::fs::read_to_string(&path).expect("the file"), messy, "--check wrote the file");
    paradox(["fmt", "--check", "rules/tantony.cards", "examples/tantony-runt.cards"]).expect(0);
}

#[test]
fn fmt_keeps_windows_line_ends_and_check_passes_on_them() {
    let windows = read("rules/tantony.cards").replace('\n', "\r\n");
    let path = temp_file("windows.cards", &windows);
    assert!(paradox(["fmt", "--check", path.to_str().expect("a path")]).expect(0).stdout.is_empty());
    let messy = read("tests/fixtures/format/messy-layout.cards").replace('\n', "\r\n");
    let path = temp_file("messy-windows.cards", &messy);
    paradox(["fmt", path.to_str().expect("a path")]).expect(0);
    let written = std::fs::read_to_string(&path).expect("the file");
    assert_eq!(written.matches('\n').count(), written.matches("\r\n").count(), "{written:?}");
    paradox(["fmt", "--check", path.to_str().expect("a path")]).expect(0);
}

#[test]
fn fmt_writes_the_layout_and_says_so() {
    let messy = read("tests/fixtures/format/messy-layout.cards");
    let path = temp_file("messy-written.cards", &messy);
    let run = paradox(["fmt", path.to_str().expect("a path")]);
    assert_eq!(run.expect(0).line(), format!("formatted {}", path.display()));
    let written = std::fs::read_to_string(&path).expect("the file");
    assert_eq!(Ok(written.clone()), paradox::format::format(&messy));
    assert!(paradox(["fmt", path.to_str().expect("a path")]).expect(0).stdout.is_empty(), "formatted twice");
}

#[test]
fn fmt_leaves_a_file_with_syntax_errors_as_it_is() {
    let broken = read("tests/fixtures/invalid/syntax-several-errors.cards");
    let path = temp_file("broken.cards", &broken);
    let run = paradox(["fmt", path.to_str().expect("a path")]);
    run.expect(1);
    assert_eq!(run.stderr.matches("paradox::E0001").count(), 4, "{}", short(&run.stderr));
    assert_eq!(std::fs::read_to_string(&path).expect("the file"), broken);
    paradox(["fmt", "no/such/file.cards"]).expect(2);
}
