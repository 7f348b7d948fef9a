//! `--engine` on the command line: the compiled engine gives the same `sim` report, byte for
//! byte, as the interpreter; a build says so in one line and a second run finds the cache;
//! without a Rust compiler, `--engine compiled` is an error that says what is missing.

use crate::run::{command, paradox, run};

/// `paradox ARGS` with the kernels' cache in `cache`.
fn in_cache(cache: &std::path::Path, args: &[&str]) -> crate::run::Run {
    run(command(args).env("PARADOX_CACHE_DIR", cache))
}

#[test]
fn compiled_sim_reports_are_the_interpreters_byte_for_byte() {
    if paradox::compiled::toolchain().is_none() {
        eprintln!("skipped: no Rust compiler (rustc) here to build the compiled engine");
        return;
    }
    let cache = tempfile::tempdir().expect("a temporary folder");
    let sim = |file: &str, engine: &str| {
        let mut args = vec!["sim", file, "--games", "60", "--seed", "5", "--engine", engine];
        if file.contains("costly") {
            args.extend(["--set", "chips_to_win=1"]);
        }
        in_cache(cache.path(), &args).expect(0).stdout.clone()
    };
    for file in ["tests/fixtures/valid/take-away.cards", "rules/costly-tricks.cards"] {
        let first = in_cache(cache.path(), &["build", file]);
        first.expect(0);
        assert!(first.stdout.starts_with("compiled "), "{first}");
        let again = in_cache(cache.path(), &["build", file]);
        assert!(again.expect(0).stdout.contains("is already compiled"), "{again}");
        assert_eq!(sim(file, "compiled"), sim(file, "interpreted"), "{file}");
    }
}

#[test]
fn compiled_engine_without_a_compiler_is_an_error_that_says_so() {
    let cache = tempfile::tempdir().expect("a temporary folder");
    let args = ["sim", "tests/fixtures/valid/take-away.cards", "--games", "5", "--engine", "compiled"];
    let out = run(command(args).env("PARADOX_CACHE_DIR", cache.path()).env("RUSTC", "/nonexistent/rustc"));
    out.expect(2);
    assert!(out.stderr.contains("no Rust compiler"), "{out}");
    let args = ["ladder", "tests/fixtures/valid/take-away.cards", "--players", "random,greedy", "--engine", "compiled"];
    let ladder = run(command(args).env("PARADOX_CACHE_DIR", cache.path()).env("RUSTC", "/nonexistent/rustc"));
    ladder.expect(2);
    assert!(ladder.stderr.contains("no Rust compiler"), "{ladder}");
    // `auto` runs the interpreter on a short run, and says nothing.
    let args = ["sim", "tests/fixtures/valid/take-away.cards", "--games", "5", "--engine", "auto"];
    let auto = run(command(args).env("PARADOX_CACHE_DIR", cache.path()).env("RUSTC", "/nonexistent/rustc"));
    auto.expect(0);
    assert_eq!(auto.stdout, paradox(["sim", "tests/fixtures/valid/take-away.cards", "--games", "5"]).stdout);
}

/// `paradox ARGS` with the kernels' cache in `cache` and `input` on standard input.
fn fed(cache: &std::path::Path, args: &[&str], input: &str) -> String {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = command(args)
        .env("PARADOX_CACHE_DIR", cache)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("paradox runs");
    child.stdin.take().expect("a pipe").write_all(input.as_bytes()).expect("the input is sent");
    let output = child.wait_with_output().expect("paradox ends");
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// `solve`'s answer without its last line (the time it took).
fn timeless(out: &str) -> String {
    out.lines().filter(|l| !l.contains("positions searched in")).collect::<Vec<_>>().join("\n")
}

#[test]
fn trace_play_and_solve_are_the_same_compiled() {
    if paradox::compiled::toolchain().is_none() {
        eprintln!("skipped: no Rust compiler (rustc) here to build the compiled engine");
        return;
    }
    let cache = tempfile::tempdir().expect("a temporary folder");
    let costly = ["rules/costly-tricks.cards", "--set", "chips_to_win=1"];
    // The bots search: their worlds run on the engine asked for.
    let trace = |format: &str, engine: &str| {
        let args = [&costly[..], &["--seed", "3", "--bots", "greedy", "--format", format, "--engine", engine]].concat();
        in_cache(cache.path(), &[&["trace"], &args[..]].concat()).expect(0).stdout.clone()
    };
    for format in ["text", "json"] {
        assert_eq!(trace(format, "compiled"), trace(format, "interpreted"), "trace --format {format}");
    }
    let moves = "#1\n".repeat(80) + "quit\n";
    let play = |engine: &str| {
        let args = [&["play"], &costly[..], &["--seed", "2", "--bots", "greedy", "--engine", engine]].concat();
        fed(cache.path(), &args, &moves)
    };
    assert_eq!(play("compiled"), play("interpreted"), "play");
    let solve = |engine: &str| {
        let args = ["solve", "examples/costly-tricks-rulebook-trick.cards", "--engine", engine];
        in_cache(cache.path(), &args).expect(0).stdout.clone()
    };
    let answer = solve("interpreted");
    assert!(answer.contains("positions searched in"), "{answer}");
    assert_eq!(timeless(&solve("compiled")), timeless(&answer), "solve");
    let ladder = |engine: &str| {
        let args =
            [&["ladder"], &costly[..], &["--players", "random,greedy", "--games", "4", "--engine", engine]].concat();
        in_cache(cache.path(), &args).expect(0).stdout.clone()
    };
    assert_eq!(ladder("compiled"), ladder("interpreted"), "ladder");
}

#[test]
fn auto_builds_for_searching_players_and_says_so_in_one_line_without_a_compiler() {
    // Two hundred matches of `greedy` players are worth a build (`--shard` plays one of them).
    let args =
        ["sim", "tests/fixtures/valid/take-away.cards", "--bots", "greedy", "--games", "400", "--shard", "1/400"];
    let cache = tempfile::tempdir().expect("a temporary folder");
    let without = run(command(args).env("PARADOX_CACHE_DIR", cache.path()).env("RUSTC", "/nonexistent/rustc"));
    without.expect(0);
    let said = |run: &crate::run::Run, what: &str| run.stderr.lines().filter(|l| l.contains(what)).count();
    assert_eq!(said(&without, "runs on the interpreter: no Rust compiler"), 1, "{without}");
    if paradox::compiled::toolchain().is_none() {
        return;
    }
    let built = in_cache(cache.path(), &args);
    assert_eq!(said(built.expect(0), "compiling tests/fixtures/valid/take-away.cards for speed: "), 1, "{built}");
    assert_eq!(built.stdout, without.stdout, "the same shard, whichever engine played it");
    // Fewer matches are not worth a build, and run on the interpreter without a word.
    let few = ["sim", "tests/fixtures/valid/take-away.cards", "--bots", "greedy", "--games", "20", "--shard", "1/20"];
    let short = run(command(few).env("PARADOX_CACHE_DIR", tempfile::tempdir().expect("a folder").path()));
    assert_eq!(said(short.expect(0), "compiling") + said(&short, "interpreter"), 0, "{short}");
}
