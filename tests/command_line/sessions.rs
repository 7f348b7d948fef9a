//! Whole `paradox play` sessions, scripted: each `tests/sessions/*.txt` holds the arguments on
//! its first line (`args: rules/tantony.cards --bots random`) and the lines typed after it. The
//! binary runs with the script on standard input (not a terminal: plain, deterministic output)
//! and the transcript — standard output, standard error and the exit code — is a snapshot.
//! `$TMP` in a script is a fresh directory for save files. A second line `size: 80x24` plays on
//! a screen of 80 columns and 24 rows (`COLUMNS`, `LINES`); else 100 columns, with no height.

use crate::run::{command, paradox};
use std::io::Write;
use std::path::Path;
use std::process::Stdio;

fn transcript(script: &Path) -> String {
    let text = std::fs::read(script).expect("a script");
    let split = text.iter().position(|&b| b == b'\n').map_or(text.len(), |i| i + 1);
    let (first, mut input) = text.split_at(split);
    let first = String::from_utf8_lossy(first);
    let args = first.trim().strip_prefix("args:").expect("the first line holds `args: ...`");
    // `size: 80x24` on the second line: a screen of that size (else 100 columns, no height).
    let mut size = ("100".to_string(), None);
    if let Some(rest) = input.strip_prefix(b"size:") {
        let end = rest.iter().position(|&b| b == b'\n').map_or(rest.len(), |i| i + 1);
        let (line, after) = rest.split_at(end);
        let line = String::from_utf8_lossy(line);
        let (columns, rows) = line.trim().split_once('x').expect("`size: COLUMNSxROWS`");
        size = (columns.to_string(), Some(rows.to_string()));
        input = after;
    }
    let stem = script.file_stem().and_then(|s| s.to_str()).unwrap_or("session");
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("sessions-{stem}"));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).expect("a temporary directory");
    let tmp_name = tmp.display().to_string();
    let input = with_tmp(input, &tmp_name);
    let mut play = command(std::iter::once("play").chain(args.split_whitespace()));
    play.env("COLUMNS", &size.0);
    match &size.1 {
        Some(rows) => play.env("LINES", rows),
        None => play.env_remove("LINES"),
    };
    let mut child =
        play.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("paradox runs");
    child.stdin.take().expect("a pipe").write_all(&input).expect("the script is sent");
    let output = child.wait_with_output().expect("paradox ends");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");
    let stderr = String::from_utf8(output.stderr).expect("UTF-8 diagnostics");
    for text in [&stdout, &stderr] {
        assert!(!text.contains("panicked"), "{text}");
        assert!(!text.contains('\u{1b}'), "an escape sequence in scripted output:\n{text:?}");
    }
    let code = output.status.code().map_or("none".to_string(), |c| c.to_string());
    format!("{stdout}--- stderr ---\n{stderr}--- exit {code} ---\n").replace(&tmp_name, "$TMP")
}

/// The script's bytes as they are (garbage included), with `$TMP` replaced.
fn with_tmp(bytes: &[u8], tmp: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut rest = bytes;
    while let Some(at) = rest.windows(4).position(|w| w == b"$TMP") {
        out.extend_from_slice(&rest[..at]);
        out.extend_from_slice(tmp.as_bytes());
        rest = &rest[at + 4..];
    }
    out.extend_from_slice(rest);
    out
}

#[test]
fn sessions() {
    insta::glob!("..", "sessions/*.txt", |script| {
        insta::assert_snapshot!(transcript(script));
    });
}

/// Runs `paradox play ARGS` with nothing on standard input.
fn play(args: &[&str]) -> (Option<i32>, String, String) {
    let run = paradox(std::iter::once("play").chain(args.iter().copied()));
    (run.code, run.stdout, run.stderr)
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    for (args, needle) in [
        (&["rules/tantony.cards", "--seat", "9"][..], "there is no seat 9"),
        (&["rules/tantony.cards", "--seat", "Nord"][..], "no seat `Nord`"),
        (&["rules/costly-tricks.cards", "--seat", "B's host"][..], "GhostB (B's ghost)"),
        (&["rules/tantony.cards", "--humans", "1,x"][..], "no seat `x`"),
        (&["rules/tantony.cards", "--bots", "clever"][..], "--bots: unknown bot `clever`"),
        (&["rules/tantony.cards", "--humans", "1,1"][..], "seat North is listed twice"),
        (&["rules/tantony.cards", "--humans", "2,north,1"][..], "seat North is listed twice"),
        (&["rules/tantony.cards", "--bots", "random,random"][..], "2 bots named for a game of 4 players"),
        (&["rules/no-such-game.cards"][..], "cannot read rules/no-such-game.cards"),
    ] {
        let (code, stdout, stderr) = play(args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert_eq!(stdout, "", "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: ") && stderr.contains(needle), "{args:?}: {stderr}");
    }
    let (code, _, stderr) = play(&["rules/tantony.cards", "--seat", "1", "--humans", "1,2"]);
    assert_eq!(code, Some(2), "--seat with --humans: {stderr}");
}

#[test]
fn a_seat_is_taken_by_the_name_the_table_shows() {
    let (code, stdout, stderr) = play(&["rules/costly-tricks.cards", "--seat", "B's ghost", "--bots", "random"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("you play B and B's ghost"), "{stdout}");
}

#[test]
fn with_every_seat_human_bots_is_not_read() {
    let (code, stdout, stderr) = play(&["rules/tantony.cards", "--humans", "1,2,3,4", "--bots", "random,random"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("a person plays West") && !stdout.contains("the computer plays"), "{stdout}");
}

#[test]
fn a_rule_file_problem_is_a_diagnostic_and_exit_1() {
    let (code, stdout, stderr) = play(&["rules/costly-tricks.cards", "--set", "trik_cost=15"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stdout, "");
    assert!(stderr.contains("no parameter `trik_cost`") && stderr.contains("did you mean `trick_cost`?"), "{stderr}");
}

/// Runs `paradox play ARGS` with `input` on standard input; the standard output.
fn play_with(args: &[&str], input: &str) -> String {
    let mut child = command(std::iter::once("play").chain(args.iter().copied()))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("paradox runs");
    child.stdin.take().expect("a pipe").write_all(input.as_bytes()).expect("the input is sent");
    String::from_utf8(child.wait_with_output().expect("paradox ends").stdout).expect("UTF-8")
}

/// The fuzzer's seeds for `save_files` start it from saves the table of Costly Tricks loads:
/// a save of an older rule file is refused at once and leaves the replay unfuzzed.
#[test]
fn the_fuzzers_save_seeds_load_at_todays_table() {
    let seeds = std::fs::read_dir("fuzz/seeds/save_files").expect("the seeds of save_files");
    let mut loaded = 0;
    for seed in seeds {
        let seed = seed.expect("a seed").path();
        let input = format!("load {}\nquit\n", seed.display());
        let out = play_with(&["rules/costly-tricks.cards"], &input);
        assert!(out.contains(&format!("Loaded {}.", seed.display())), "{out}");
        loaded += 1;
    }
    assert!(loaded >= 2, "a save at the start and one in the middle of a match: {loaded} seeds");
}

#[test]
fn without_a_seed_the_deal_is_sealed_and_its_seed_told_at_the_end() {
    let args = ["tests/fixtures/valid/take-away.cards", "--bots", "random"];
    let input = format!("{}quit\n", "#1\n".repeat(20));
    let first = play_with(&args, &input);
    let line = first.lines().nth(1).unwrap_or_default().to_string();
    let sealed = line
        .strip_prefix("deal sealed: its seed has the SHA-256 ")
        .and_then(|s| s.split(',').next())
        .unwrap_or_else(|| panic!("no commitment on the second line:\n{first}"));
    let end = first.find("The seed was ").unwrap_or_else(|| panic!("no seed told at the end:\n{first}"));
    let seed: u64 = first[end..]["The seed was ".len()..]
        .split(' ')
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{first}"));
    assert_eq!(paradox::repl::commitment(seed), sealed, "the seed told is the one committed to");
    assert!(!first[..end].contains(&seed.to_string()), "the seed is told only at the end:\n{first}");
    // `--seed` replays it, for practice, and says so.
    let again = play_with(&[&args[..], &["--seed", &seed.to_string()]].concat(), &input);
    assert_eq!(
        again.lines().nth(1),
        Some(format!("practice deal: seed {seed}, dealt again by --seed {seed}").as_str())
    );
    let play = |text: &str| text.lines().skip(2).filter(|l| !l.contains("seed")).map(String::from).collect::<Vec<_>>();
    assert_eq!(play(&again), play(&first), "--seed {seed} deals the same match");
    // Two launches in a row deal from different seeds.
    let other = play_with(&args, "quit\n");
    assert_ne!(other.lines().nth(1), Some(line.as_str()), "{other}");
    // `new` seals another deal.
    let renewed = play_with(&args, "new\ny\nquit\n");
    let at = renewed.find("A new match, deal sealed: its seed has the SHA-256 ").expect("a new sealed match");
    assert!(!renewed[at..].starts_with(&format!("A new match, {}", &line)), "{renewed}");
    // A save holds the moves, not the deal, and says where the seed stays; it loads at the next
    // launch, but not where another folder keeps the seeds.
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("m.json").display().to_string();
    let saved = play_with(&args, &format!("#1\nsave {file}\nquit\n"));
    assert!(saved.contains("It holds the moves, not the deal: the seed stays in "), "{saved}");
    let loaded = play_with(&args, &format!("load {file}\nquit\n"));
    assert!(loaded.contains(&format!("Loaded {file}.")), "{loaded}");
    let mut elsewhere = command(["play", args[0], "--bots", "random"]);
    elsewhere.env("PARADOX_SEEDS", dir.path().join("elsewhere")).stdin(Stdio::piped()).stdout(Stdio::piped());
    let mut child = elsewhere.spawn().expect("paradox runs");
    child.stdin.take().expect("a pipe").write_all(format!("load {file}\nquit\n").as_bytes()).expect("sent");
    let refused = String::from_utf8(child.wait_with_output().expect("paradox ends").stdout).expect("UTF-8");
    assert!(refused.contains("it is a sealed deal, and its seed (SHA-256 "), "{refused}");
    let practice = play_with(
        &[&args[..], &["--seed", "1"]].concat(),
        &format!("save {}\nquit\n", dir.path().join("p.json").display()),
    );
    assert!(practice.contains("Saved to ") && !practice.contains("the seed stays"), "{practice}");
}

#[test]
fn help_rules_why_and_questions_fit_an_80_column_screen() {
    for (file, refused) in [
        ("rules/pairadox.cards", "true card"),
        ("rules/costly-tricks.cards", "blue 10"),
        ("rules/tantony.cards", "north"),
        ("rules/third-man.cards", "pass"),
        ("rules/anarchy.cards", "10"),
        ("rules/buddy-on-your-left.cards", "1"),
    ] {
        let mut child = command(["play", file, "--bots", "random", "--seed", "1"])
            .env("COLUMNS", "80")
            .env("LINES", "24")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("paradox runs");
        let input = format!("help\nrules\n{refused}\nwhy\nh\nquit\n");
        child.stdin.take().expect("a pipe").write_all(input.as_bytes()).expect("the input is sent");
        let out = String::from_utf8(child.wait_with_output().expect("paradox ends").stdout).expect("UTF-8");
        assert!(out.contains("Players: "), "{file}: `rules` answers:\n{out}");
        let wide: Vec<&str> = out.lines().filter(|l| l.chars().count() > 80).collect();
        assert!(wide.is_empty(), "{file}: lines wider than 80 columns:\n{}", wide.join("\n"));
    }
}

/// The screens of `paradox play ARGS` with `input` at 80 columns, `rows` high (else unbounded):
/// what is printed between one line typed and the next.
fn screens(args: &[&str], input: &str, rows: Option<&str>) -> Vec<String> {
    let mut play = command(std::iter::once("play").chain(args.iter().copied()));
    play.env("COLUMNS", "80");
    match rows {
        Some(rows) => play.env("LINES", rows),
        None => play.env_remove("LINES"),
    };
    let mut child = play.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("paradox runs");
    child.stdin.take().expect("a pipe").write_all(input.as_bytes()).expect("the input is sent");
    let out = String::from_utf8(child.wait_with_output().expect("paradox ends").stdout).expect("UTF-8");
    let mut screens = vec![String::new()];
    for line in out.lines() {
        if line.ends_with("> #1") {
            screens.push(String::new());
        }
        let screen = screens.last_mut().expect("a screen");
        screen.push_str(line);
        screen.push('\n');
    }
    screens
}

#[test]
fn the_others_moves_since_your_last_decision_stay_on_an_80_by_24_screen() {
    // Costly Tricks' first round: two seats of each side, so a trick's news is long.
    for seed in ["1", "5"] {
        let file = "rules/costly-tricks.cards";
        let args = [file, "--bots", "random", "--seed", seed];
        let input = "#1\n".repeat(20);
        let (whole, fitted) = (screens(&args, &input, None), screens(&args, &input, Some("24")));
        assert_eq!(whole.len(), fitted.len(), "{file}: the same screens");
        // The seats the person plays are those the prompts name.
        let mine: Vec<&str> = (whole.iter().skip(1)).filter_map(|s| s.lines().next()?.strip_suffix("> #1")).collect();
        for (whole, fitted) in whole.iter().zip(&fitted).skip(1) {
            let others = whole.lines().filter(|l| {
                let told = l.strip_prefix("  ").and_then(|l| l.split_once(" chooses ").or(l.split_once(" decides: ")));
                told.is_some_and(|(who, _)| !mine.contains(&who))
            });
            for line in others {
                assert!(fitted.lines().any(|l| l == line), "{file}: `{}` is not on the screen:\n{fitted}", line.trim());
            }
        }
    }
}
