//! The `paradox` binary run as a person runs it, for the tests of the command line and of the
//! tools: in the crate's folder, without colour, with backtraces switched on (so that a panic
//! would show one), keeping sealed seeds in the tests' own folder (`PARADOX_SEEDS`), never the user's. Every run's output is checked: UTF-8, no panic, no escape sequence (it is
//! not a terminal). A failed check shows the start of long output only.

use crate::short::short;
use std::ffi::OsStr;
use std::fmt;
use std::process::{Command, Output};

/// What a run of `paradox` gave.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// This run, once its exit code is checked.
    pub fn expect(&self, code: i32) -> &Self {
        assert_eq!(self.code, Some(code), "exit code\n{self}");
        self
    }
}

impl fmt::Display for Run {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "exit code {:?}\nstdout:\n{}\nstderr:\n{}", self.code, short(&self.stdout), short(&self.stderr))
    }
}

/// `paradox ARGS`, to be run by [`run`], perhaps with more set first (a variable, an input).
pub fn command<I, S>(args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut command = Command::new(env!("CARGO_BIN_EXE_paradox"));
    command
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env("RUST_BACKTRACE", "1")
        .env("PARADOX_SEEDS", std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("seeds"))
        .env_remove("CLICOLOR_FORCE");
    command
}

/// Runs `command` to its end and checks its output.
pub fn run(command: &mut Command) -> Run {
    let Output { status, stdout, stderr } = command.output().expect("paradox runs");
    let run = Run {
        code: status.code(),
        stdout: String::from_utf8(stdout).expect("UTF-8 output"),
        stderr: String::from_utf8(stderr).expect("UTF-8 diagnostics"),
    };
    for (name, text) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
        assert!(!text.contains("panicked") && !text.contains("stack backtrace"), "{name}:\n{}", short(text));
        assert!(!text.contains('\u{1b}'), "an escape sequence on {name} (not a terminal):\n{:?}", short(text));
    }
    run
}

/// Runs `paradox ARGS` ([`command`], [`run`]).
pub fn paradox<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run(&mut command(args))
}
