//! The `paradox` command line.

use clap::{Parser, Subcommand};
use paradox::check::Settings;
use paradox::load::{LoadError, load};
use paradox::report::{Style, render};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "paradox", version, about = "A rules language and interpreter for card games")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Parameter overrides shared by every command that loads a game.
#[derive(clap::Args)]
struct GameOptions {
    /// Set a parameter: `--set trick_cost=15` (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    sets: Vec<String>,
    /// Apply a named variant of the rule file.
    #[arg(long, value_name = "NAME")]
    variant: Option<String>,
}

impl GameOptions {
    fn settings(&self) -> Settings {
        Settings { sets: self.sets.clone(), variant: self.variant.clone() }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Check rule files and scenarios; print one summary line per valid file.
    Check {
        /// Rule files (`.cards`) or scenarios.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        options: GameOptions,
    },
}

/// How diagnostics are drawn on standard error.
fn style() -> Style {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    if std::io::stderr().is_terminal() && !no_color { Style::Colour } else { Style::Plain }
}

fn width() -> usize {
    std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()).unwrap_or(100)
}

fn check(files: &[PathBuf], options: &GameOptions) -> ExitCode {
    let settings = options.settings();
    let mut code = 0u8;
    for path in files {
        match load(path, &settings) {
            Ok(game) => println!("{}: {}", path.display(), game.summary()),
            Err(LoadError::Io(message)) => {
                eprintln!("error: {message}");
                code = 2;
            }
            Err(LoadError::Invalid(findings)) => {
                eprint!("{}", render(&findings, style(), width()));
                code = code.max(1);
            }
        }
    }
    ExitCode::from(code)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match &cli.command {
        Command::Check { files, options } => check(files, options),
    }
}
