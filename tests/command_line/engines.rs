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
    // `auto` runs the interpreter on a short run, and says nothing.
    let args = ["sim", "tests/fixtures/valid/take-away.cards", "--games", "5", "--engine", "auto"];
    let auto = run(command(args).env("PARADOX_CACHE_DIR", cache.path()).env("RUSTC", "/nonexistent/rustc"));
    auto.expect(0);
    assert_eq!(auto.stdout, paradox(["sim", "tests/fixtures/valid/take-away.cards", "--games", "5"]).stdout);
}
