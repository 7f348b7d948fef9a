//! Hostile input found by fuzzing (the reproducers are in `fixtures/hostile`): each must cost
//! little work and memory, never block, and never destroy a file. The engine's budgets (a
//! decision's, a match's, narration's) stop the rule files that would run for hours, and the
//! tests check that they did; those that read without end run under a memory limit; output is
//! read up to [`MAX_OUTPUT`] bytes, past which a run fails; and a FIFO paradox must not open has
//! a partner at its other end ([`Partner`]), so that opening it would fail the test rather than
//! block it. No test here measures time.

use crate::session::session;
use crate::short::short;
use paradox::repl::Session;
use paradox::{Actor, Pending};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};

/// The most a run may write on each of its outputs: past it, the rest is not read (the run then
/// fails to write, and stops), and the test fails. Far above any run here (the largest trace
/// is asserted below 64 MiB).
const MAX_OUTPUT: u64 = 128 << 20;

/// What a run of the binary came to.
struct Run {
    status: ExitStatus,
    stdout: String,
    stderr: String,
    /// Whether an output passed [`MAX_OUTPUT`] and was cut there.
    cut: bool,
}

impl Run {
    /// This run, once it is checked that its output was within [`MAX_OUTPUT`].
    fn finished(&self) -> &Self {
        assert!(!self.cut, "more than {MAX_OUTPUT} bytes of output; stderr: {}", short(&self.stderr));
        self
    }

    fn code(&self) -> Option<i32> {
        self.status.code()
    }
}

/// What a run reads on its standard input.
enum Input<'a> {
    Text(&'a str),
    File(&'a Path),
}

/// Runs `paradox ARGS` with `input`, its output read up to [`MAX_OUTPUT`] bytes each; with
/// `memory` (KiB), under that limit of address space.
fn paradox(args: &[&str], input: Input<'_>, memory: Option<u64>) -> Run {
    let exe = env!("CARGO_BIN_EXE_paradox");
    let mut command = match memory {
        Some(kib) => {
            let mut c = Command::new("sh");
            c.arg("-c").arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\"")).arg(exe);
            c
        }
        None => Command::new(exe),
    };
    command.args(args).env("NO_COLOR", "1").env("COLUMNS", "100");
    command.stdin(match input {
        Input::Text(_) => Stdio::piped(),
        Input::File(path) => Stdio::from(std::fs::File::open(path).expect("the input opens")),
    });
    let mut child = command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("paradox runs");
    if let (Input::Text(text), Some(mut stdin)) = (input, child.stdin.take()) {
        let text = text.to_string();
        std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    }
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(pipe) = pipe {
                // One byte more than the limit tells a cut; the pipe is then closed unread.
                let _ = pipe.take(MAX_OUTPUT + 1).read_to_end(&mut bytes);
            }
            let cut = bytes.len() as u64 > MAX_OUTPUT;
            (String::from_utf8_lossy(&bytes).into_owned(), cut)
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let ((stdout, cut_out), (stderr, cut_err)) = (stdout.join().expect("stdout"), stderr.join().expect("stderr"));
    let status = child.wait().expect("the run is waited for");
    Run { status, stdout, stderr, cut: cut_out || cut_err }
}

fn fixture(name: &str) -> String {
    format!("tests/fixtures/hostile/{name}")
}

/// A file `name` in a fresh folder, holding `text`.
fn written(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("a temporary file");
    path.display().to_string()
}

/// The part of a reproducer before its first `var v0`: a tiny game to add lines to.
fn skeleton() -> String {
    let text = std::fs::read_to_string(fixture("check-10000-unknown-names.cards")).expect("the fixture");
    text.split("var v0:").next().expect("a skeleton").to_string()
}

/// The last line of the reproducers.
const RESULT: &str = "result highest s in seats by n\n";

/// Makes a FIFO at `path`; false where `mkfifo` is not to be had.
fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo").arg(path).status().is_ok_and(|s| s.success())
}

/// A thread at the other end of a FIFO that paradox must not open, so that opening it cannot
/// block: a writer that gives a reader a line and closes, or a reader that reads a writer to
/// the end. Either way paradox would read or write and go on, and the test's assertions fail.
struct Partner {
    fifo: PathBuf,
    thread: std::thread::JoinHandle<()>,
}

impl Partner {
    /// A partner that writes to `fifo` once a reader opens it.
    fn writer(fifo: &Path) -> Partner {
        let path = fifo.to_path_buf();
        let thread = std::thread::spawn(move || {
            if let Ok(mut end) = std::fs::OpenOptions::new().write(true).open(&path) {
                let _ = end.write_all(b"not a rule file, nor a save\n");
            }
        });
        Partner { fifo: fifo.to_path_buf(), thread }
    }

    /// A partner that reads `fifo` once a writer opens it.
    fn reader(fifo: &Path) -> Partner {
        let path = fifo.to_path_buf();
        let thread = std::thread::spawn(move || {
            if let Ok(mut end) = std::fs::File::open(&path) {
                let _ = end.read_to_end(&mut Vec::new());
            }
        });
        Partner { fifo: fifo.to_path_buf(), thread }
    }

    /// Lets a partner nobody met go: a FIFO opened for reading and writing at once never
    /// blocks, and meets it. On a busy machine the partner may not have reached its own `open`
    /// yet, and would then wait for ever for a meeting already over: meet it until it ends.
    fn release(self) {
        while !self.thread.is_finished() {
            drop(std::fs::OpenOptions::new().read(true).write(true).open(&self.fifo));
            std::thread::yield_now();
        }
        self.thread.join().expect("the partner ends");
    }
}

// ------------------------------------------------------------ the default bot

#[test]
fn the_default_bot_decides_among_thousands_of_options_quickly() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let thousand = fixture("default-bot-1000-options.cards");
    let text = std::fs::read_to_string(&thousand).expect("the fixture");
    let ten_thousand = written(&dir, "ten-thousand.cards", &text.replace("1..1000 ", "1..10000 "));
    for file in [thousand, ten_thousand] {
        let run = paradox(&["trace", &file, "--bots", "default"], Input::Text(""), None);
        assert_eq!(run.finished().code(), Some(0), "{file}: {}", short(&run.stderr));
        assert!(run.stdout.contains("after 1 decisions"), "{file}: {}", short(&run.stdout));
    }
}

// ------------------------------------------------------------ the REPL

#[test]
fn the_table_of_100000_options_is_drawn_and_a_move_found_quickly() {
    let file = fixture("repl-100000-options.cards");
    let run = paradox(&["play", &file, "--seed", "1"], Input::Text("99999\nquit\n"), None);
    assert_eq!(run.finished().code(), Some(0), "{}", short(&run.stderr));
    assert!(run.stdout.contains("100000 moves: 1, 2, 3"), "{}", short(&run.stdout));
    assert!(run.stdout.contains("P1 chooses 99999"), "{}", short(&run.stdout));
    let run = paradox(&["play", &file, "--seed", "1"], Input::Text("moves\nquit\n"), None);
    assert_eq!(run.finished().stdout.matches("\n  #").count(), 100_000);
    assert!(run.stdout.contains("\n  #100000 100000\n"), "{}", short(&run.stdout));
}

#[test]
fn completion_of_100000_options_is_quick() {
    let words = session(&fixture("repl-100000-options.cards"), &[0]).completions();
    assert_eq!(words.iter().filter(|w| w.parse::<u32>().is_ok()).count(), 100_000);
    assert!(words.contains(&"quit".to_string()));
}

#[test]
fn a_label_of_twelve_equal_words_is_matched_quickly() {
    let file = fixture("repl-label-12-words.cards");
    let input = std::fs::read_to_string(fixture("repl-label-12-words.input")).expect("the input");
    let run = paradox(&["play", &file, "--seed", "1"], Input::Text(&input), None);
    assert_eq!(run.finished().code(), Some(0), "{}", short(&run.stderr));
    assert!(run.stdout.contains("`a a a a a a a a a a` could be"), "{}", short(&run.stdout));
}

#[test]
fn a_script_line_without_end_stops_the_script() {
    let run = paradox(
        &["play", "rules/costly-tricks.cards", "--seed", "1"],
        Input::File(Path::new("/dev/zero")),
        Some(1 << 20),
    );
    assert_eq!(run.finished().code(), Some(2), "{}", short(&run.stderr));
    assert!(run.stderr.contains("longer than 64 KiB"), "{}", short(&run.stderr));
}

// ------------------------------------------------------------ diagnostics at scale

/// Checks `file`, which must fail; returns what it wrote on standard error.
fn rejected(file: &str) -> String {
    let run = paradox(&["check", file], Input::Text(""), None);
    assert_eq!(run.finished().code(), Some(1), "{}", short(&run.stderr));
    run.stderr
}

#[test]
fn ten_thousand_problems_are_counted_and_fifty_drawn() {
    let out = rejected(&fixture("check-10000-unknown-names.cards"));
    assert_eq!(out.matches("× unknown name").count(), 50);
    assert!(out.contains("... and 9950 more problems, not drawn (only the first 50 are)"), "{}", short(&out));
    assert!(out.ends_with("10000 problems found\n"));
}

#[test]
fn forty_thousand_problems_cost_no_more_to_draw() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let vars: String = (0..40_000).map(|i| format!("var v{i}: int = zz{i}\n")).collect();
    let file = written(&dir, "forty.cards", &format!("{}{vars}play {{ n = v0 }}\n{RESULT}", skeleton()));
    let out = rejected(&file);
    assert!(out.ends_with("40000 problems found\n") && out.len() < 64 << 10, "{} bytes", out.len());
}

#[test]
fn a_hundred_thousand_bad_escapes_write_a_short_report() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let said = "\\q".repeat(100_000);
    let file = written(&dir, "escapes.cards", &format!("{}play {{ say \"{said}\" }}\n{RESULT}", skeleton()));
    let out = rejected(&file);
    assert!(out.contains("unknown escape") && out.len() < 64 << 10, "{} bytes", out.len());
}

#[test]
fn a_megabyte_name_is_drawn_by_its_start() {
    // The campaign's name was 2 MB (a 9 MB report); 1 MiB keeps a debug build quick here.
    let dir = tempfile::tempdir().expect("a temporary folder");
    let name = "z".repeat(1 << 20);
    let file = written(&dir, "token.cards", &format!("{}play {{ n = {name} }}\n{RESULT}", skeleton()));
    let out = rejected(&file);
    assert!(out.contains("unknown name") && out.len() < 4 << 10, "{} bytes: {}", out.len(), short(&out));
    assert!(out.contains("a span of 1048576 bytes, its start shown"), "{out}");
}

// ------------------------------------------------------------ reading files

#[test]
fn check_refuses_devices_and_fifos_without_reading_them() {
    let run = paradox(&["check", "/dev/zero"], Input::Text(""), Some(1 << 20));
    assert_eq!(run.finished().code(), Some(2));
    assert_eq!(run.stderr, "error: cannot read /dev/zero: it is a device, not a regular file\n");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let fifo = dir.path().join("rules.cards");
    if mkfifo(&fifo) {
        let partner = Partner::writer(&fifo);
        let run = paradox(&["check", &fifo.display().to_string()], Input::Text(""), None);
        partner.release();
        assert_eq!(run.finished().code(), Some(2));
        assert!(run.stderr.contains("it is a FIFO (named pipe), not a regular file"), "{}", short(&run.stderr));
    }
}

#[test]
fn a_scenario_extending_a_device_is_told_so() {
    let run = paradox(&["check", &fixture("scenario-extends-dev-zero.cards")], Input::Text(""), Some(1 << 20));
    assert_eq!(run.finished().code(), Some(1), "{}", short(&run.stderr));
    assert!(run.stderr.contains("cannot read /dev/zero: it is a device, not a regular file"), "{}", short(&run.stderr));
}

#[test]
fn a_rule_file_past_the_limit_is_refused_naming_it() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = written(&dir, "huge.cards", &format!("{}{}", skeleton(), " ".repeat(16 << 20)));
    let run = paradox(&["check", &file], Input::Text(""), None);
    assert_eq!(run.finished().code(), Some(2), "{}", short(&run.stderr));
    assert!(
        run.stderr.contains("it is larger than 16 MiB, the most paradox reads for a rule file"),
        "{}",
        short(&run.stderr)
    );
}

#[test]
fn load_refuses_devices_and_fifos_without_reading_them() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let fifo = dir.path().join("match.json");
    let mut script = String::from("load /dev/zero\n");
    let partner = mkfifo(&fifo).then(|| Partner::writer(&fifo));
    if partner.is_some() {
        script.push_str(&format!("load {}\n", fifo.display()));
    }
    script.push_str("quit\n");
    let run = paradox(&["play", "rules/costly-tricks.cards", "--seed", "1"], Input::Text(&script), Some(1 << 20));
    if let Some(partner) = partner {
        partner.release();
    }
    assert_eq!(run.finished().code(), Some(0), "{}", short(&run.stderr));
    assert!(run.stdout.contains("cannot load /dev/zero: it is a device, not a regular file"), "{}", short(&run.stdout));
    if fifo.exists() {
        assert!(run.stdout.contains("it is a FIFO (named pipe), not a regular file"), "{}", short(&run.stdout));
    }
}

// ------------------------------------------------------------ saves

#[cfg(unix)]
#[test]
fn save_replaces_only_writable_regular_files_and_keeps_their_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let at = |name: &str| dir.path().join(name);
    let mode = |name: &str| std::fs::metadata(at(name)).expect("the file").permissions().mode() & 0o777;
    // Earlier saves (a script replaces no other file).
    let precious = r#"{"version": 2, "sources": [], "precious": true}"#;
    std::fs::write(at("target.json"), precious).expect("written");
    std::fs::set_permissions(at("target.json"), std::fs::Permissions::from_mode(0o644)).expect("chmod");
    std::os::unix::fs::symlink("target.json", at("link.json")).expect("a link");
    std::fs::write(at("ro.json"), precious).expect("written");
    std::fs::set_permissions(at("ro.json"), std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let fifo = mkfifo(&at("fifo"));
    let partner = fifo.then(|| Partner::reader(&at("fifo")));
    // A device node of our own (as root), never the system's.
    let device = Command::new("mknod").arg(at("null")).args(["c", "1", "3"]).status().is_ok_and(|s| s.success());
    let mut script = String::new();
    for name in ["ro.json", "fifo", "null", "link.json"] {
        script.push_str(&format!("save {}\n", at(name).display()));
    }
    script.push_str("quit\n");
    let run = paradox(&["play", "rules/costly-tricks.cards", "--seed", "5"], Input::Text(&script), None);
    if let Some(partner) = partner {
        partner.release();
    }
    let out = &run.finished().stdout;
    assert!(out.contains("ro.json: it is read-only; make it writable, or name another file"), "{out}");
    assert_eq!(std::fs::read_to_string(at("ro.json")).expect("still there"), precious);
    assert_eq!(mode("ro.json"), 0o444);
    if fifo {
        assert!(
            out.contains("fifo: it is a FIFO (named pipe), not a regular file; a save replaces only a regular file")
        );
        assert!(std::fs::symlink_metadata(at("fifo")).expect("still there").file_type().is_fifo_like());
    }
    if device {
        assert!(out.contains("null: it is a device, not a regular file; a save replaces only a regular file"), "{out}");
    }
    // The link is followed: the file it names is replaced, keeping its mode, and the link stays.
    assert!(std::fs::symlink_metadata(at("link.json")).expect("the link").file_type().is_symlink());
    assert!(std::fs::read_to_string(at("target.json")).expect("the target").contains("\"moves\""));
    assert_eq!(mode("target.json"), 0o644);
}

/// Whether a file is a FIFO (on unix).
trait FifoLike {
    fn is_fifo_like(&self) -> bool;
}

impl FifoLike for std::fs::FileType {
    fn is_fifo_like(&self) -> bool {
        #[cfg(unix)]
        {
            std::os::unix::fs::FileTypeExt::is_fifo(self)
        }
        #[cfg(not(unix))]
        {
            false
        }
    }
}

/// The first position of The Third Man where the person (seat 4) is to bid in secret after the
/// computer players have.
fn at_a_secret_bid() -> Session {
    let mut session = session("rules/third-man.cards", &[3]);
    for _ in 0..200 {
        let chosen = match session.state().position().pending() {
            Pending::Together { seats, .. } => seats.iter().filter(|s| s.chosen.is_some()).count(),
            _ => 0,
        };
        if chosen > 0 && matches!(session.state().actor(), Actor::Together(_)) {
            return session;
        }
        session.handle("#1");
    }
    panic!("no secret bid after the computer's");
}

#[test]
fn a_save_holds_no_secret_choice_and_loads_to_the_same_choices() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file: PathBuf = dir.path().join("match.json");
    let mut saved = at_a_secret_bid();
    let out = saved.handle(&format!("save {}", file.display()));
    assert_eq!(out, format!("Saved to {}.\n", file.display()));
    let text = std::fs::read_to_string(&file).expect("the save reads");
    assert!(!text.contains("chosen") && !text.contains("position"), "the bids are in the file: {text}");
    // Loading it, the computer players bid again from the same seed: the same bids.
    let mut other = session("rules/third-man.cards", &[3]);
    let out = other.handle(&format!("load {}", file.display()));
    assert!(out.starts_with("Loaded"), "{out}");
    assert_eq!(other.state().position(), saved.state().position());
}

#[test]
fn in_hot_seat_play_a_saved_secret_choice_is_made_again() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("match.json");
    let mut session = session("rules/third-man.cards", &[0, 1, 2, 3]);
    for _ in 0..50 {
        if let Pending::Together { seats, .. } = session.state().position().pending()
            && seats.iter().any(|s| s.chosen.is_some())
        {
            let out = session.handle(&format!("save {}", file.display()));
            assert!(out.contains("without the secret choices made so far"), "{out}");
            assert!(out.contains("will choose again after loading"), "{out}");
            let text = std::fs::read_to_string(&file).expect("the save reads");
            let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
            // Every decision is a person's: those of the round waiting now are left out.
            let decided = session.state().position().decisions as usize - session.state().chosen_in_secret().len();
            assert_eq!(json["moves"].as_array().map(Vec::len), Some(decided), "{text}");
            // Loaded, the round starts again: nobody has chosen.
            let out = session.handle(&format!("load {}", file.display()));
            assert!(out.starts_with("Loaded"), "{out}");
            assert_eq!(session.state().chosen_in_secret(), Vec::<u8>::new());
            return;
        }
        session.handle("#1");
    }
    panic!("no secret choice was made");
}

// ------------------------------------------------------------ the engine's budget (issue 9)

/// `paradox trace` of the narration reproducer as `edit` changes it, under 2 GiB of address space.
fn narration_trace(edit: impl Fn(&str) -> String) -> Run {
    let text = std::fs::read_to_string(fixture("trace-narration-memory.cards")).expect("the fixture");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = written(&dir, "narration.cards", &edit(&text));
    paradox(&["trace", &file, "--seed", "1"], Input::Text(""), Some(2 << 20))
}

#[test]
fn trace_of_endless_narration_stops_within_bounded_memory() {
    // Defect 1: the whole log was kept, 3.8 GB, then an abort.
    let run = narration_trace(str::to_string);
    assert_eq!(run.finished().code(), Some(1), "stopped by a run-time problem, not a signal: {}", short(&run.stderr));
    assert!(run.stdout.len() < 64 << 20, "{} bytes of trace", run.stdout.len());
    assert!(run.stderr.contains("paradox::E"), "a diagnostic at the rule: {}", short(&run.stderr));
}

#[test]
fn a_narration_line_past_its_limit_stops_the_match_at_the_say() {
    // One `say` of 900 {v}, each a thousand characters: a line of 900 KB.
    let run = narration_trace(|text| text.replace("repeat until n < 0 {", "repeat 1 {"));
    assert_eq!(run.finished().code(), Some(1), "{}", short(&run.stdout));
    assert!(run.stderr.contains("say"), "the diagnostic points at the say: {}", short(&run.stderr));
    assert!(run.stdout.len() < 64 << 10, "{} bytes of trace", run.stdout.len());
}

#[test]
fn the_narration_of_a_whole_match_has_a_limit() {
    // Lines of a thousand characters, each short enough, for 200,000 decisions: 200 MB of trace.
    let run = narration_trace(|text| {
        let (before, after) = text.split_once("say \"").expect("a say");
        let (_, rest) = after.split_once('"').expect("its end");
        format!("{before}say \"{{v}}\"{rest}")
    });
    assert_eq!(run.finished().code(), Some(1), "{}", short(&run.stderr));
    assert!(run.stdout.len() < 64 << 20, "{} bytes of trace", run.stdout.len());
    assert!(run.stderr.contains("paradox::E"), "a diagnostic at the rule: {}", short(&run.stderr));
}

#[test]
fn building_options_is_charged_to_the_match_budget() {
    // Defect 3: 200,000 decisions of 100,000 options each ran for about 40 minutes per match.
    let file = fixture("random-play-100000-options-loop.cards");
    for args in [
        vec!["trace", &file, "--seed", "1"],
        vec!["sim", &file, "--games", "1"],
        vec!["check", &file, "--simulate", "1"],
    ] {
        let run = paradox(&args, Input::Text(""), None);
        assert_eq!(run.finished().code(), Some(1), "{args:?}: {}", short(&run.stderr));
    }
}

#[test]
fn the_default_bot_in_a_loop_of_large_decisions_keeps_to_its_time() {
    // The default bot's search builds the options of every world it plays: charged per decision.
    let file = fixture("random-play-100000-options-loop.cards");
    let run = paradox(&["trace", &file, "--seed", "1", "--bots", "default"], Input::Text(""), None);
    assert_eq!(run.finished().code(), Some(1), "{}", short(&run.stderr));
}

// ------------------------------------------------------------ control characters

/// The reproducer whose every string a player sees holds ESC and BEL.
fn hostile_strings() -> String {
    fixture("control-characters.cards")
}

/// Asserts that `run` printed no control character but newlines and tabs, and showed the
/// escaped form of one (so that the text was escaped, not dropped).
fn printed_safely(what: &str, run: &Run) {
    for (stream, text) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
        let raw = text.char_indices().find(|(_, c)| paradox::printable::needs_escape(*c));
        if let Some((at, c)) = raw {
            let from = text[..at].char_indices().rev().nth(60).map_or(0, |(i, _)| i);
            panic!("{what}: {c:?} raw on {stream} at byte {at}, after {:?}", &text[from..at]);
        }
    }
    let shown = format!("{}{}", run.stdout, run.stderr);
    assert!(shown.contains("\\u{"), "{what}: nothing escaped shown: {}", short(&shown));
}

#[test]
fn check_trace_sim_and_play_show_control_characters_escaped() {
    let file = hostile_strings();
    let script = "rules\nmoves\n1\nshow\nlog 40\nscore\nquit\n";
    for (args, input) in [
        (vec!["check", &file], ""),
        (vec!["trace", &file, "--seed", "3"], ""),
        (vec!["sim", &file, "--games", "3"], ""),
        (vec!["play", &file, "--seed", "3", "--bots", "random"], script),
    ] {
        let run = paradox(&args, Input::Text(input), None);
        assert_eq!(run.finished().code(), Some(0), "{args:?}: {}", short(&run.stderr));
        printed_safely(&format!("{args:?}"), &run);
    }
}

#[test]
fn a_diagnostic_draws_a_source_line_with_control_characters_escaped() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let text = std::fs::read_to_string(hostile_strings()).expect("the fixture");
    let broken =
        written(&dir, "broken\u{1b}]0;t\u{7}.cards", &format!("{text}show \"\u{1b}]0;evil\u{7}{{nosuch}}\"\n"));
    let run = paradox(&["check", &broken], Input::Text(""), None);
    assert_eq!(run.finished().code(), Some(1), "{}", short(&run.stderr));
    printed_safely("check", &run);
    // The label stays under the name it points at, though the line before it grew.
    let line = run.stderr.lines().find(|l| l.contains("{nosuch}")).expect("the source line");
    let mark = run.stderr.lines().skip_while(|l| *l != line).nth(1).expect("the line under it");
    assert_eq!(
        mark.find('─').or(mark.find('┬')).map(|m| mark[..m].chars().count()),
        line.find("nosuch").map(|n| line[..n].chars().count()),
        "{}",
        run.stderr
    );
    // Its place counts each control character as the one byte it is in the file:
    // `show "`, ESC, `]0;evil`, BEL and `{` come before the name, which starts at column 17.
    let header = run.stderr.lines().find(|l| l.contains("╭─[")).expect("the header");
    assert!(header.ends_with(":17]"), "{header}");
}

#[test]
fn a_long_line_of_control_characters_is_cut_between_escapes() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("long.cards");
    std::fs::write(&path, [vec![0x1b; 1200], vec![0xff, b'\n']].concat()).expect("a temporary file");
    let run = paradox(&["check", &path.display().to_string()], Input::Text(""), None);
    assert_eq!(run.finished().code(), Some(1), "{}", short(&run.stderr));
    printed_safely("check", &run);
    let header = run.stderr.lines().find(|l| l.contains("╭─[")).expect("the header");
    assert!(header.ends_with(":1:1201]"), "{header}");
    // The window of the line starts with a whole escape and holds only whole ones.
    let line = run.stderr.lines().find(|l| l.contains("\\u{1b}")).expect("the source line");
    let drawn = line.split_once("│ ").map(|(_, d)| d).expect("a source line");
    assert!(drawn.starts_with("\\u{1b}") && drawn.replace("\\u{1b}", "") == "\u{fffd}", "{line}");
}

#[test]
fn characters_that_turn_text_around_are_shown_escaped() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let text = std::fs::read_to_string(hostile_strings()).expect("the fixture");
    let file = written(&dir, "bidi.cards", &text.replace("draws", "dr\u{202e}aws\u{2066}"));
    let run = paradox(&["trace", &file, "--seed", "3"], Input::Text(""), None);
    assert_eq!(run.finished().code(), Some(0), "{}", short(&run.stderr));
    printed_safely("trace", &run);
    assert!(run.stdout.contains("dr\\u{202e}aws\\u{2066}"), "{}", run.stdout);
    let broken = written(&dir, "broken.cards", &format!("{text}show \"\u{202e}{{nosuch}}\"\n"));
    let run = paradox(&["check", &broken], Input::Text(""), None);
    assert_eq!(run.finished().code(), Some(1), "{}", short(&run.stderr));
    printed_safely("check", &run);
    assert!(run.stderr.contains("\\u{202e}"), "{}", run.stderr);
}

#[test]
fn arguments_shards_and_saves_are_shown_escaped() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = hostile_strings();
    // A file name and an argument value quoted back.
    let missing = dir.path().join("no\u{1b}[2J.cards").display().to_string();
    for args in
        [vec!["check", &missing], vec!["trace", &file, "--seed", "\u{9b}2J"], vec!["trace", &file, "--bots", "\u{7}"]]
    {
        let run = paradox(&args, Input::Text(""), None);
        assert_eq!(run.finished().code(), Some(2), "{args:?}: {}", short(&run.stderr));
        printed_safely(&format!("{args:?}"), &run);
    }
    // A shard whose names were edited to hold control characters.
    let run = paradox(&["sim", &file, "--games", "2", "--shard", "1/1"], Input::Text(""), None);
    assert_eq!(run.finished().code(), Some(0), "{}", short(&run.stderr));
    let mut shard: serde_json::Value = serde_json::from_str(&run.stdout).expect("a shard");
    shard["run"]["game"] = "Evil\u{1b}]0;title\u{7}".into();
    shard["run"]["file"] = "\u{1b}[2J.cards".into();
    let shard = written(&dir, "shard.json", &shard.to_string());
    let run = paradox(&["merge", &shard], Input::Text(""), None);
    assert_eq!(run.finished().code(), Some(0), "{}", short(&run.stderr));
    printed_safely("merge", &run);
    // A save whose names were edited to hold them.
    let save = dir.path().join("match.json").display().to_string();
    let run = paradox(
        &["play", &file, "--seed", "3", "--bots", "random"],
        Input::Text(&format!("#1\n#1\nsave {save}\nquit\n")),
        None,
    );
    assert_eq!(run.finished().code(), Some(0), "{}", short(&run.stderr));
    let text = std::fs::read_to_string(&save).expect("the save");
    let edited = text.replacen("\"bots\": \"", "\"bots\": \"\\u001b]0;saved title\\u0007", 1);
    assert_ne!(edited, text, "the save names its bots: {text}");
    std::fs::write(&save, edited).expect("the save is edited");
    let run = paradox(
        &["play", &file, "--seed", "3", "--bots", "random"],
        Input::Text(&format!("load {save}\nlog 40\nquit\n")),
        None,
    );
    assert_eq!(run.finished().code(), Some(0), "{}", short(&run.stderr));
    assert!(run.stdout.contains("\\u{1b}]0;saved title"), "{}", short(&run.stdout));
    printed_safely("load", &run);
}
