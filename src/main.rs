//! The `paradox` command line.

use clap::{Parser, Subcommand};
use paradox::compare::report::Report;
use paradox::compare::request::{Refused, Request};
use paradox::compare::{Config, Run};
use paradox::{Game, Kind, LoadError, Settings, Style, load, render};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

// Everything this command prints goes through `paradox::printable`: no string from a rule file,
// a save, a shard or the command line reaches the terminal as control characters (colour codes
// of its own pass on a terminal in colour). These stand in for the standard macros of the same
// names throughout this file.
macro_rules! print {
    ($($arg:tt)*) => { emit(&mut std::io::stdout(), colour_out(), &format!($($arg)*)) };
}
macro_rules! println {
    ($($arg:tt)*) => { print!("{}\n", format_args!($($arg)*)) };
}
macro_rules! eprint {
    ($($arg:tt)*) => { emit(&mut std::io::stderr(), style() == Style::Colour, &format!($($arg)*)) };
}
macro_rules! eprintln {
    ($($arg:tt)*) => { eprint!("{}\n", format_args!($($arg)*)) };
}

/// Writes `text` to `out` escaped (`paradox::printable`); with `colour`, colour codes pass. A
/// closed pipe is not an error here: there is nobody left to tell.
fn emit(out: &mut dyn Write, colour: bool, text: &str) {
    let _ = paradox::printable::Printable::new(out, colour).write_all(text.as_bytes());
}

// Seen by the fuzz target `command_line` too, which includes this file as a module.
#[derive(Parser)]
#[command(name = "paradox", version, about = "A rules language and interpreter for card games")]
pub(crate) struct Cli {
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
        /// Then play N matches between random bots (seeds 1 to N, as `paradox trace --seed`)
        /// and report every run-time problem they run into.
        #[arg(long, value_name = "N")]
        simulate: Option<u64>,
        #[command(flatten)]
        options: GameOptions,
    },
    /// Play one whole match between bots and print it; the same arguments give the same bytes.
    /// `--format json` prints one object per event.
    Trace {
        #[command(flatten)]
        run: MatchOptions,
    },
    /// Play a match against the computer at a text table (commands from standard input when it
    /// is not a terminal).
    Play {
        /// A rule file or scenario.
        file: PathBuf,
        /// Your seat, by number (1 is the first seat in the rule file) or name (as the rule file
        /// or the table writes it); by default the first seat, or the one the rule file draws at
        /// the bottom (`seat X at bottom`).
        #[arg(long, value_name = "SEAT", conflicts_with = "humans")]
        seat: Option<String>,
        /// Hot-seat play: the seats of the people at the table (`1,3`); every other seat is a bot.
        #[arg(long, value_name = "SEATS")]
        humans: Option<String>,
        /// Deals match N, for practice: the seed of every chance and of the bots (`new` then
        /// deals from the next one). Left out, each deal is sealed: a random seed, whose SHA-256
        /// is printed at the start and the seed itself when the match ends; `save` keeps it
        /// out of the save file, in the folder $PARADOX_SEEDS (by default paradox/seeds in the
        /// user's data folder), and `load` finds it there.
        #[arg(long)]
        seed: Option<u64>,
        /// The computer players: `default`, `random`, `greedy` (cheap), `strong` (more work),
        /// `solver` (exact play where the position is open and small, else `default`), or one
        /// kind per player.
        #[arg(long, default_value = "default", value_name = "KINDS")]
        bots: String,
        /// The engine the bots search with: `auto` uses the compiled engine when it is in the
        /// cache, and at a terminal builds it meanwhile (the bots take it up when it is done);
        /// the match is the same with any.
        #[arg(long, value_enum, default_value_t = paradox::compiled::Engine::Auto)]
        engine: paradox::compiled::Engine,
        #[command(flatten)]
        options: GameOptions,
    },
    /// Serve a match to browsers: one private link per person's seat and one for spectators;
    /// the other seats are the bots'. The match is saved after every move.
    #[cfg(feature = "serve")]
    Serve {
        /// A rule file or scenario (left out with --resume: the save names it).
        #[arg(required_unless_present = "resume")]
        file: Option<PathBuf>,
        /// The seats people play, by number (1 is the first seat in the rule file) or name
        /// (`1,3`); every other seat is a bot. Left out, one person plays the seat the rule
        /// file puts at the bottom (`seat X at bottom`), else the first.
        #[arg(long, value_name = "SEATS")]
        seats: Option<String>,
        /// The computer players, as for `paradox play`.
        #[arg(long, default_value = "default", value_name = "KINDS")]
        bots: String,
        /// Deals match N, for practice; left out, the deal is sealed, as for `paradox play`.
        #[arg(long)]
        seed: Option<u64>,
        /// The port to listen on (0: any free port).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The address to listen on: 0.0.0.0 for devices on the same network, 127.0.0.1 for
        /// this machine alone.
        #[arg(long, default_value = "0.0.0.0")]
        address: std::net::IpAddr,
        /// Where the match is saved after every move (by default FILE's name with
        /// `.serve.json`, in the current folder; a file already there is not replaced).
        #[arg(long, value_name = "FILE")]
        save: Option<PathBuf>,
        /// Go on with the match saved in SAVE (its rule file, parameters, seats and bots are
        /// the save's), saving to it again.
        #[arg(long, value_name = "SAVE", conflicts_with_all = ["file", "seed"])]
        resume: Option<PathBuf>,
        /// How long the match waits, after a round, for each person to press Continue on its
        /// summary; then it goes on (their summary stays until they do). 0: no wait. Left out,
        /// it waits for every person.
        #[arg(long, value_name = "SECONDS")]
        summary_timeout: Option<u64>,
        #[command(flatten)]
        options: GameOptions,
    },
    /// Measure the engine on rule files, on one core: random play (decisions/s), the cost of
    /// copying a position and of one move, and (with `--bot-moves`) the default bot's time per
    /// move. `--format json` prints one object per file.
    Bench {
        /// Rule files (`.cards`) or scenarios.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// About how long random play runs for each file.
        #[arg(long, default_value_t = 2.0, value_name = "SECONDS")]
        seconds: f64,
        /// Time the default bot at this many moves with a choice (0: not at all).
        #[arg(long, default_value_t = 0, value_name = "N")]
        bot_moves: usize,
        /// `text` for people, `json` for tools.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// The engine to measure: `compiled`, `interpreted`, or `both` side by side with their
        /// ratio (`auto`: the compiled engine if it is in the cache).
        #[arg(long, value_enum, default_value_t = BenchEngine::Interpreted)]
        engine: BenchEngine,
        #[command(flatten)]
        options: GameOptions,
    },
    /// Solve an open position exactly: the value of best play to the end of a phase (by the
    /// rule file's `solve` quantity), of each legal move, and the best line.
    Solve {
        /// A rule file or scenario.
        file: PathBuf,
        /// Seeds the deal and every other chance before the position.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Solve to the end of the current instance of this phase (default: the innermost
        /// phase with a `solve` declaration).
        #[arg(long, value_name = "PHASE")]
        until: Option<String>,
        /// First play these moves, separated by commas (`"red 5, blue 8"`).
        #[arg(long, value_name = "MOVES")]
        after: Option<String>,
        /// Give up past this many positions searched for one question (a position of a few
        /// million takes seconds; the table of positions grows with it).
        #[arg(long, value_name = "N", default_value_t = 20_000_000)]
        max_positions: u64,
        /// Give up when the table of positions would pass this many MiB (at most 96 bytes a
        /// position: 2048 MiB hold 22 million), rather than run out of memory.
        #[arg(long, value_name = "MIB", default_value_t = 2048, value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
        max_memory: u64,
        /// `text` for people, `json` for tools.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// The engine that searches: `auto` uses the compiled engine when it is in the cache,
        /// or builds it when the search proves deep (past 200,000 positions); the answer is the
        /// same with any.
        #[arg(long, value_enum, default_value_t = paradox::compiled::Engine::Auto)]
        engine: paradox::compiled::Engine,
        #[command(flatten)]
        options: GameOptions,
    },
    /// Lay rule files and scenarios out in the one canonical layout, keeping every comment.
    Fmt {
        /// Rule files or scenarios; `-` formats standard input to standard output.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Change nothing: list the files that are not formatted and exit 1 if there are any.
        #[arg(long)]
        check: bool,
    },
    /// Run the language server on standard input and output (for editors).
    Lsp,
    /// Build the compiled engine of a rule file ahead of time, into the cache
    /// (`$PARADOX_CACHE_DIR`, else the user's cache folder), and say which statements it leaves
    /// to the interpreter.
    Build {
        /// A rule file or scenario.
        file: PathBuf,
        #[command(flatten)]
        options: GameOptions,
    },
    /// Play many matches between bots on every core (match `i` seeded with `seed + i`) and
    /// report wins, draws, who starts, match length, margins and lead changes, each with its
    /// 95 % interval; the speed goes to standard error.
    Sim {
        /// A rule file or scenario.
        file: PathBuf,
        /// How many matches.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
        games: u64,
        #[command(flatten)]
        lab: LabOptions,
        #[command(flatten)]
        options: GameOptions,
    },
    /// Play configurations of a rule file against each other's seeds and say what changes:
    /// every figure of `sim` for each, and which differences are significant.
    Compare {
        /// A rule file or scenario.
        file: PathBuf,
        /// Two or more configurations: `base` (the file as written), `variant:NAME`,
        /// `set:NAME=VALUE,NAME=VALUE`, or a variant and settings joined by `+`.
        #[arg(required = true, num_args = 2.., value_name = "CONFIG")]
        configs: Vec<String>,
        /// How many matches per configuration.
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
        games: u64,
        #[command(flatten)]
        lab: LabOptions,
        /// Settings given to every configuration (before its own).
        #[command(flatten)]
        options: GameOptions,
    },
    /// Play the ladder of players against each other: every pair of `--players` plays the same
    /// deals twice, the seats swapped, and the table gives each pair's win share with its 95 %
    /// interval. Each player's Elo-like rating is the Bradley-Terry fit of all the pairs' results
    /// (one drawn match added to each pair), averaging 1500, where 400 points more means odds of
    /// ten to one.
    Ladder {
        /// A rule file or scenario.
        file: PathBuf,
        /// Matches per pair (rounded up to an even number: each deal is played twice).
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..))]
        games: u64,
        /// Deal `k` of each pair is dealt and played from seed `seed + k`.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The players, the weakest first, separated by commas.
        #[arg(long, default_value = "random,greedy,default,strong,solver", value_name = "KINDS")]
        players: String,
        /// Threads to play on (by default one per core); the results are the same for any number.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: Option<u16>,
        /// `text` for people, `json` for tools.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// The engine that plays the matches: `auto` uses the compiled engine when it is in the
        /// cache, or builds it for a long ladder; the table is the same with any.
        #[arg(long, value_enum, default_value_t = paradox::compiled::Engine::Auto)]
        engine: paradox::compiled::Engine,
        /// Play only the I-th of N slices of the ladder's matches (every pair's, deal by deal)
        /// and print its counts as JSON, for `paradox merge`.
        #[arg(long, value_name = "I/N", conflicts_with = "format")]
        shard: Option<String>,
        #[command(flatten)]
        options: GameOptions,
    },
    /// Add up the shards of one `sim`, `compare` or `ladder` run (`--shard I/N`) into its
    /// report (a ladder's: its table, as text or JSON).
    Merge {
        /// The shard files, every shard of the run once (at most 64 MiB each, 256 MiB in all).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        output: ReportOutput,
    },
}

/// What `sim` and `compare` share: the seeds, the players, how many matches, where, the output.
#[derive(clap::Args)]
struct LabOptions {
    /// Match `i` is dealt and played from seed `seed + i`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The computer players: `random`, `greedy` (cheap), `default`, `strong` (more work),
    /// `solver`, or one kind per player separated by commas (`default,random`).
    #[arg(long, default_value = "random", value_name = "KINDS")]
    bots: String,
    /// Play until the 95 % interval of every headline share (each player's and side's wins, the
    /// starting player's wins, wins from behind, the strong player's wins of `--skill`) is
    /// within this many percentage points either side (instead of `--games`), or `--max-games`
    /// are played: first 200 matches (or the cap), then as many more as the shares so far say
    /// are needed, rounded up to a hundred. The same seed plays the same matches on any threads.
    #[arg(long, value_name = "POINTS", conflicts_with = "games")]
    precision: Option<f64>,
    /// The most matches per configuration `--precision` plays.
    #[arg(long, default_value_t = 100_000, value_name = "N")]
    max_games: u64,
    /// The engine that plays the matches: `auto` uses the compiled engine when it is in the
    /// cache, or builds it for a long run; the report is the same with any.
    #[arg(long, value_enum, default_value_t = paradox::compiled::Engine::Auto)]
    engine: paradox::compiled::Engine,
    /// Also measure skill: each seed plays one more match, in which one player (rotated over the
    /// seats) is the STRONG kind of bot and the others the WEAK kind; the strong player's win
    /// share is compared with an equal one. `--skill` alone means `default/random`.
    #[arg(long, value_name = "STRONG/WEAK", num_args = 0..=1, default_missing_value = "default/random")]
    skill: Option<String>,
    /// Threads to play on (by default one per core); the results are the same for any number.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// Play only the I-th of N slices of the matches and print its counts as JSON, for
    /// `paradox merge`.
    #[arg(long, value_name = "I/N", conflicts_with_all = ["precision", "format", "plot"])]
    shard: Option<String>,
    #[command(flatten)]
    output: ReportOutput,
}

/// How a report is given: its format, and a picture.
#[derive(clap::Args)]
struct ReportOutput {
    /// `text` for people, `json` or `csv` for tools.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    format: ReportFormat,
    /// Also draw the configurations side by side into this file: SVG, or a PNG when its name
    /// ends in `.png` (in a build with the `png` feature; its letters in the DejaVu Sans font,
    /// which must be installed).
    #[arg(long, value_name = "FILE.svg|FILE.png")]
    plot: Option<PathBuf>,
}

/// The engines `paradox bench` measures.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum BenchEngine {
    Auto,
    Compiled,
    Interpreted,
    Both,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ReportFormat {
    Text,
    Json,
    Csv,
}

/// What `trace` needs: the game, the seed, the players and the output.
#[derive(clap::Args)]
struct MatchOptions {
    /// A rule file or scenario.
    file: PathBuf,
    /// Seeds the deal, every other chance, and the bots.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The computer players: `random`, `greedy` (cheap), `default`, `strong` (more work),
    /// `solver`, or one kind per player separated by commas (`default,random`).
    #[arg(long, default_value = "random", value_name = "KINDS")]
    bots: String,
    /// `text` for people, `json` for tools.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// The engine the bots search with: `auto` uses the compiled engine when it is in the
    /// cache; the trace is the same with any.
    #[arg(long, value_enum, default_value_t = paradox::compiled::Engine::Auto)]
    engine: paradox::compiled::Engine,
    #[command(flatten)]
    options: GameOptions,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    Text,
    Json,
}

/// How diagnostics are drawn on standard error.
fn style() -> Style {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    if std::io::stderr().is_terminal() && !no_color { Style::Colour } else { Style::Plain }
}

/// The width to lay text out in: `COLUMNS` if set, else the terminal's, else 100 columns.
fn width() -> usize {
    let terminal = || terminal_size::terminal_size().map(|(w, _)| w.0 as usize);
    std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()).or_else(terminal).unwrap_or(100)
}

/// The height of the screen to fit the table in: `LINES` if set, else the terminal's when the
/// output goes to one; `None` (no limit) for output to a file or a pipe.
fn height(terminal: bool) -> Option<usize> {
    let lines = std::env::var("LINES").ok().and_then(|c| c.parse().ok()).filter(|n: &usize| *n > 0);
    lines.or_else(|| terminal.then(|| terminal_size::terminal_size().map(|(_, h)| h.0 as usize)).flatten())
}

fn check(files: &[PathBuf], simulate: Option<u64>, options: &GameOptions) -> ExitCode {
    let settings = options.settings();
    let mut code = 0u8;
    for path in files {
        match load(path, &settings) {
            Ok(game) => {
                println!("{}: {}", path.display(), game.summary());
                if let Some(matches) = simulate
                    && !simulated(path, game, matches, options)
                {
                    code = code.max(1);
                }
            }
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

/// Plays `matches` random matches of a game that checked clean and reports what stopped any of
/// them, pointing at the rule; says whether none stopped.
fn simulated(path: &std::path::Path, game: paradox::Game, matches: u64, options: &GameOptions) -> bool {
    let shakedown = paradox::sim::shakedown(std::sync::Arc::new(game), matches);
    let name = path.display().to_string();
    if shakedown.stoppages.is_empty() {
        println!("{name}: {matches} random matches played, none stopped");
        return true;
    }
    let source =
        paradox::rules_source(path).unwrap_or_else(|| paradox::Source { name: name.clone(), text: String::new() });
    let problems = shakedown.stoppages.iter().map(|s| s.problem.clone()).collect();
    eprint!("{}", render(&[paradox::Findings { source, problems }], style(), width()));
    eprintln!("{name}: {matches} random matches played, {} stopped", shakedown.stopped());
    let mut replay = format!("paradox trace {name}");
    for set in &options.sets {
        replay.push_str(&format!(" --set {set}"));
    }
    if let Some(variant) = &options.variant {
        replay.push_str(&format!(" --variant {variant}"));
    }
    for s in &shakedown.stoppages {
        let n = s.seeds.len();
        let matches = if n == 1 { "1 match".to_string() } else { format!("{n} matches") };
        eprintln!("  {}: {matches}; replay: {replay} --seed {}", s.problem.message, s.seeds[0]);
    }
    false
}

/// Loads a game, printing its problems; `Err` carries the exit code.
fn load_game(path: &std::path::Path, options: &GameOptions) -> Result<paradox::Game, ExitCode> {
    load(path, &options.settings()).map_err(report_load_error)
}

/// Prints why a game could not be loaded; gives the exit code.
fn report_load_error(e: LoadError) -> ExitCode {
    match e {
        LoadError::Io(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
        LoadError::Invalid(findings) => {
            eprint!("{}", render(&findings, style(), width()));
            ExitCode::from(1)
        }
    }
}

/// Loads the game of a match and reads its `--bots`; `Err` carries the exit code.
fn match_setup(run: &MatchOptions) -> Result<(Arc<Game>, Vec<Kind>), ExitCode> {
    let game = load_game(&run.file, &run.options)?;
    let kinds = paradox::parse_kinds(&run.bots, game.players).map_err(|message| {
        eprintln!("error: --bots: {message}");
        ExitCode::from(2)
    })?;
    Ok((Arc::new(game), kinds))
}

fn trace(run: &MatchOptions) -> ExitCode {
    let (game, kinds) = match match_setup(run) {
        Ok(setup) => setup,
        Err(code) => return code,
    };
    let (file, seed, format) = (&run.file, run.seed, run.format);
    let format = match format {
        Format::Text => paradox::trace::Format::Text,
        Format::Json => paradox::trace::Format::Json,
    };
    let playable = match match_engine(&game, run.engine, file, &kinds) {
        Ok(playable) => playable,
        Err(code) => return code,
    };
    let mut out = paradox::printable::Printable::new(std::io::stdout().lock(), false);
    let state = match paradox::trace::stream_match(playable, seed, &kinds, format, &mut out) {
        Ok(state) => state,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write the trace: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(problem) = state.failure() {
        let findings = vec![paradox::Findings {
            source: paradox::rules_source(file)
                .unwrap_or_else(|| paradox::Source { name: file.display().to_string(), text: String::new() }),
            problems: vec![problem.clone()],
        }];
        eprint!("{}", render(&findings, style(), width()));
        return ExitCode::from(1);
    }
    if !state.is_over() {
        eprintln!("error: the match did not end after {} decisions", state.position().decisions);
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// The game with the engine asked for, for one match between `kinds` of bots: only the worlds
/// the bots search run on a compiled engine (the match itself is watched, and interpreted), so
/// bots that do not search need none. For one match `auto` builds none: it takes one from the
/// cache. `Err` carries the exit code, after saying why.
fn match_engine(
    game: &Arc<Game>,
    engine: paradox::compiled::Engine,
    file: &std::path::Path,
    kinds: &[Kind],
) -> Result<paradox::Playable, ExitCode> {
    let searching = kinds.iter().any(|k| *k != Kind::Random);
    if !searching && engine == paradox::compiled::Engine::Auto {
        return Ok(paradox::Playable::new(game.clone()));
    }
    paradox::compiled::choose(game, engine, &paradox::printable::path(file), false).map_err(|message| {
        eprintln!("error: {message}");
        ExitCode::from(2)
    })
}

/// `sim` and `compare`: loads every configuration, plays the run (or one shard of it) and
/// gives its report.
fn lab(file: &std::path::Path, configs: Vec<Config>, games: u64, lab: &LabOptions, common: &Settings) -> ExitCode {
    let usage = |message: String| {
        eprintln!("error: {message}");
        ExitCode::from(2)
    };
    let shard = match lab.shard.as_deref().map(paradox::compare::shard::parse).transpose() {
        Ok(shard) => shard,
        Err(message) => return usage(message),
    };
    let request = Request {
        file: file.to_path_buf(),
        configs,
        common: common.clone(),
        games,
        seed: lab.seed,
        bots: lab.bots.clone(),
        skill: lab.skill.clone(),
        precision: lab.precision,
        max_games: lab.max_games,
        engine: lab.engine,
    };
    let prepared = match request.prepare() {
        Ok(prepared) => prepared,
        Err(Refused::Asked(message)) => return usage(message),
        Err(Refused::Load(label, e)) => {
            if let Some(label) = label {
                eprintln!("error: configuration `{label}`:");
            }
            return report_load_error(e);
        }
    };
    let progress = progress_bar();
    let played = prepared.play(lab.threads.map(usize::from), shard, Some(&progress));
    progress.finish_and_clear();
    let (tallies, timing) = match played {
        Ok(played) => played,
        Err(message) => return usage(message),
    };
    let stopped = tallies.configurations.iter().any(|t| t.stopped > 0);
    let code = if stopped { ExitCode::from(1) } else { ExitCode::SUCCESS };
    let run = prepared.run;
    if lab.output.format == ReportFormat::Text {
        eprint!("{}", paradox::compare::cost::text(&run, &tallies, &timing));
    }
    if let Some(shard) = shard {
        let shard = paradox::compare::shard::Shard::new(shard, run, tallies);
        println!("{}", serde_json::to_string(&shard).unwrap_or_default());
        return code;
    }
    match give(&run, &tallies, &lab.output) {
        Ok(()) => code,
        Err(message) => usage(message),
    }
}

/// What `ladder` is asked to play: the rule file, the matches per pair, the first seed, the
/// players as `--players` names them, the engine, and the shard (`I/N`) if one.
struct LadderQuestion<'a> {
    file: &'a std::path::Path,
    games: u64,
    seed: u64,
    players: &'a str,
    engine: paradox::compiled::Engine,
    shard: Option<&'a str>,
}

/// `ladder`: plays every pair of the players against each other and prints the table, or
/// plays one shard of the ladder and prints its counts.
fn ladder(question: LadderQuestion<'_>, threads: Option<u16>, format: Format, options: &GameOptions) -> ExitCode {
    let LadderQuestion { file, games, seed, players, engine, shard } = question;
    let usage = |message: String| {
        eprintln!("error: {message}");
        ExitCode::from(2)
    };
    let shard = match shard.map(paradox::compare::shard::parse).transpose() {
        Ok(shard) => shard,
        Err(message) => return usage(message),
    };
    let game = match load_game(file, options) {
        Ok(game) => Arc::new(game),
        Err(code) => return code,
    };
    let players: Vec<&str> = players.split(',').map(str::trim).collect();
    let origin = match paradox::repl::origin(file, &options.settings()) {
        Ok((_, origin)) => origin,
        Err(message) => return usage(message),
    };
    let setup = paradox::sim::ladder::Setup::new(&game.name, origin, &players, games, seed);
    let kinds = match setup.valid() {
        Ok(kinds) => kinds,
        Err(message) => return usage(message),
    };
    let all = paradox::compare::shard::Sharded::matches(&setup);
    let matches = shard.map_or(0..all, |shard| paradox::compare::shard::slice(all, shard));
    let worth = paradox::compare::request::worth_building(matches.end - matches.start, kinds.iter());
    let playable = match paradox::compiled::choose(&game, engine, &paradox::printable::path(file), worth) {
        Ok(playable) => playable,
        Err(message) => return usage(message),
    };
    let pool =
        match rayon::ThreadPoolBuilder::new().num_threads(threads.map_or(0, usize::from)).stack_size(STACK).build() {
            Ok(pool) => pool,
            Err(e) => return usage(format!("--threads: {e}")),
        };
    let progress = progress_bar();
    progress.set_length(matches.end - matches.start);
    let points = setup.play(&playable, matches, &pool, &|| progress.inc(1));
    progress.finish_and_clear();
    let points = match points {
        Ok(points) => points,
        Err(message) => return usage(message),
    };
    if let Some(shard) = shard {
        let shard = paradox::compare::shard::Shard::new(shard, setup, points);
        println!("{}", serde_json::to_string(&shard).unwrap_or_default());
        return ExitCode::SUCCESS;
    }
    give_ladder(&setup.table(&points), format);
    ExitCode::SUCCESS
}

/// A ladder's table in the format asked for, on standard output.
fn give_ladder(ladder: &paradox::sim::ladder::Ladder, format: Format) {
    match format {
        Format::Text => print!("{}", ladder.text()),
        Format::Json => println!("{}", serde_json::to_string_pretty(ladder).unwrap_or_default()),
    }
}

/// `paradox build`: the compiled engine of a rule file, into the cache.
fn build(file: &std::path::Path, options: &GameOptions) -> ExitCode {
    let game = match load_game(file, options) {
        Ok(game) => Arc::new(game),
        Err(code) => return code,
    };
    let label = paradox::printable::path(file);
    match paradox::compiled::compiled(&game, true) {
        Ok(ready) => {
            match ready.built {
                Some(took) => println!("compiled {label} in {} s", took.as_secs().max(1)),
                None => println!("{label} is already compiled"),
            }
            let native = ready.statements - ready.left.len();
            println!("{native} of {} statements run natively", ready.statements);
            let text = std::fs::read_to_string(file).unwrap_or_default();
            for left in &ready.left {
                let line = text.get(..left.span.start).map_or(0, |t| t.lines().count().max(1));
                println!("  interpreted, line {line}: {}", left.what);
            }
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("error: no compiled engine for {label}: {why}");
            ExitCode::from(1)
        }
    }
}

/// The report in the format asked for on standard output, and the picture if asked.
fn give(run: &Run, tallies: &paradox::sim::Tallies, output: &ReportOutput) -> Result<(), String> {
    let report = Report::of(run, tallies);
    match output.format {
        ReportFormat::Text => print!("{}", paradox::compare::text::render(&report, colour_out())),
        ReportFormat::Json => println!("{}", report.json()),
        ReportFormat::Csv => print!("{}", paradox::compare::csv::render(&report)),
    }
    if let Some(path) = &output.plot {
        paradox::compare::plot::write(path, run, tallies, &report)?;
    }
    Ok(())
}

/// A bar of the matches played, with the time spent and left, on a terminal; nothing
/// otherwise (so scripts and tests read the same output). It ticks on its own, so a run of
/// long matches shows it is alive before the first one ends.
fn progress_bar() -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(0);
    let template = "{spinner} {bar:40} {pos}/{len} seeds, {elapsed} so far, {eta} left";
    if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

/// Whether standard output takes colour.
fn colour_out() -> bool {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    std::io::stdout().is_terminal() && !no_color
}

/// `paradox merge`: the shards of one run added up into its report.
fn merge(files: &[PathBuf], output: &ReportOutput) -> ExitCode {
    use paradox::compare::shard::Merged;
    let merged = paradox::compare::shard::merge_files(files).and_then(|merged| match merged {
        Merged::Lab(run, tallies) => give(&run, &tallies, output),
        Merged::Ladder(ladder) => {
            let format = match output.format {
                ReportFormat::Text => Format::Text,
                ReportFormat::Json => Format::Json,
                ReportFormat::Csv => return Err("a ladder's table is given as text or JSON, not CSV".to_string()),
            };
            if output.plot.is_some() {
                return Err("a ladder's table has no picture (--plot)".to_string());
            }
            give_ladder(&ladder, format);
            Ok(())
        }
    });
    match merged {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

fn bench(
    files: &[PathBuf],
    seconds: f64,
    bot_moves: usize,
    format: Format,
    engine: BenchEngine,
    options: &GameOptions,
) -> ExitCode {
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= 3600.0) {
        eprintln!("error: --seconds: give a number of seconds between 0 and 3600");
        return ExitCode::from(2);
    }
    for file in files {
        let game = match load_game(file, options) {
            Ok(game) => Arc::new(game),
            Err(code) => return code,
        };
        let label = paradox::printable::path(file);
        let engines: &[paradox::compiled::Engine] = match engine {
            BenchEngine::Auto => &[paradox::compiled::Engine::Auto],
            BenchEngine::Compiled => &[paradox::compiled::Engine::Compiled],
            BenchEngine::Interpreted => &[paradox::compiled::Engine::Interpreted],
            BenchEngine::Both => &[paradox::compiled::Engine::Interpreted, paradox::compiled::Engine::Compiled],
        };
        let mut all = Vec::new();
        for &which in engines {
            let playable = match paradox::compiled::choose(&game, which, &label, false) {
                Ok(playable) => playable,
                Err(message) => {
                    eprintln!("error: {message}");
                    return ExitCode::from(1);
                }
            };
            all.push(paradox::bench::run(playable, seconds, bot_moves));
        }
        match format {
            Format::Text => print!("{}", paradox::bench::text(&all)),
            Format::Json => {
                for figures in &all {
                    println!("{}", serde_json::to_string(figures).unwrap_or_default());
                }
            }
        }
        if let [interpreted, compiled] = &all[..] {
            println!("{}", paradox::bench::ratio(interpreted, compiled));
        }
    }
    ExitCode::SUCCESS
}

/// What `paradox play` is asked: the rule file, the people's seats, the deal, the bots and
/// their engine.
struct PlayQuestion<'a> {
    file: &'a std::path::Path,
    seats: Option<&'a str>,
    seed: Option<u64>,
    bots: &'a str,
    engine: paradox::compiled::Engine,
}

/// `paradox play`: sets the table up and hands it to a terminal or a script.
fn play(table: PlayQuestion, options: &GameOptions) -> ExitCode {
    let PlayQuestion { file, seats, seed, bots, engine } = table;
    let game = match load_game(file, options) {
        Ok(game) => Arc::new(game),
        Err(code) => return code,
    };
    let scripted = !std::io::stdin().is_terminal();
    let terminal = !scripted && std::io::stdout().is_terminal();
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let screen = Screen { colour: terminal && !no_color, terminal, width: width(), height: height(terminal) };
    let setup = match humans_at(&game, seats)
        .and_then(|humans| session_setup(&game, file, &options.settings(), People { humans, bots, seed }, screen))
    {
        Ok(setup) => setup,
        Err(code) => return code,
    };
    let (session, first) = match people_session(setup, file, engine, !scripted) {
        Ok(started) => started,
        Err(code) => return code,
    };
    let played = if scripted {
        let mut out = paradox::printable::Printable::new(std::io::stdout().lock(), false);
        paradox::repl::terminal::scripted(session, &first, &mut std::io::stdin().lock(), &mut out)
            .map_err(|e| e.to_string())
    } else {
        paradox::repl::terminal::interactive(session, &first)
    };
    match played {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Starts the match people play: its bots search on the compiled engine `engine` names. With
/// `auto` and no kernel in the cache, one is built behind the match where a person `waits` (a
/// terminal), and the bots take it up when it is done. `Err` carries the exit code.
fn people_session(
    setup: paradox::repl::Setup,
    file: &std::path::Path,
    engine: paradox::compiled::Engine,
    waits: bool,
) -> Result<(paradox::repl::Session, String), ExitCode> {
    let game = setup.game.clone();
    let playable = match_engine(&game, engine, file, &setup.kinds)?;
    let searching = setup.kinds.iter().any(|k| *k != Kind::Random);
    let behind = waits && searching && engine == paradox::compiled::Engine::Auto && !playable.has_kernel();
    let building = behind.then(|| paradox::compiled::build_behind(&game, &paradox::printable::path(file))).flatten();
    let (mut session, first) = paradox::repl::Session::start_on(setup, playable);
    if let Some(building) = building {
        session.switch_when_built(building);
    }
    Ok((session, first))
}

/// Who plays a match: the human players, the bots at the other seats, and the deal (`--seed`;
/// left out, sealed).
struct People<'a> {
    humans: Vec<usize>,
    bots: &'a str,
    seed: Option<u64>,
}

/// The players of the seats people take (`--seats`, `--humans`); left out, one person at the
/// seat the rule file draws at the bottom, else at the first. `Err` carries the exit code.
fn humans_at(game: &Game, seats: Option<&str>) -> Result<Vec<usize>, ExitCode> {
    let home = (game.bottom.unwrap_or(0) as usize + 1).to_string();
    paradox::repl::players_at(game, seats.unwrap_or(&home)).map_err(|message| {
        eprintln!("error: {message}");
        ExitCode::from(2)
    })
}

/// Where a session's text goes.
struct Screen {
    colour: bool,
    terminal: bool,
    width: usize,
    height: Option<usize>,
}

/// The session of `paradox play` and of `paradox serve`: `game` from `file`, with its people,
/// bots and deal. `Err` carries the exit code, after saying why.
fn session_setup(
    game: &Arc<Game>,
    file: &std::path::Path,
    settings: &Settings,
    people: People,
    screen: Screen,
) -> Result<paradox::repl::Setup, ExitCode> {
    let usage = |message: String| {
        eprintln!("error: {message}");
        ExitCode::from(2)
    };
    let People { humans, bots, seed } = people;
    let kinds = paradox::repl::bot_kinds(bots, game.players, &humans).map_err(|m| usage(format!("--bots: {m}")))?;
    let (source, origin) = paradox::repl::origin(file, settings).map_err(usage)?;
    Ok(paradox::repl::Setup {
        game: game.clone(),
        source,
        origin,
        seed: seed.unwrap_or_else(paradox::repl::random_seed),
        fresh_seeds: seed.is_none(),
        seeds: paradox::repl::seeds::folder(),
        humans,
        bots: bots.to_string(),
        kinds,
        colour: screen.colour,
        terminal: screen.terminal,
        width: screen.width,
        height: screen.height,
    })
}

/// How `paradox serve` serves a match.
#[cfg(feature = "serve")]
struct Served<'a> {
    seats: Option<&'a str>,
    bots: &'a str,
    seed: Option<u64>,
    save: Option<PathBuf>,
    listen: Listen,
}

/// Where and how a server serves: its address, and how long it waits for people to read a
/// round's summary (`None`: until every one has).
#[cfg(feature = "serve")]
#[derive(Clone, Copy)]
struct Listen {
    address: std::net::SocketAddr,
    summary_timeout: Option<std::time::Duration>,
}

/// `paradox serve FILE`: a new match, saved after every move to a file not there before.
#[cfg(feature = "serve")]
fn serve(file: &std::path::Path, served: Served, options: &GameOptions) -> Result<ExitCode, ExitCode> {
    let usage = |message: String| {
        eprintln!("error: {message}");
        ExitCode::from(2)
    };
    let game = Arc::new(load_game(file, options)?);
    let humans = humans_at(&game, served.seats)?;
    let save = served.save.unwrap_or_else(|| {
        let stem = file.file_stem().map_or("match".into(), |s| s.to_string_lossy().into_owned());
        PathBuf::from(format!("{stem}.serve.json"))
    });
    if save.exists() {
        let (shown, path) = (save.display(), save.display());
        return Err(usage(format!(
            "{shown} is there already: go on with that match by `paradox serve --resume {path}`, or name another file with --save"
        )));
    }
    let people = People { humans, bots: served.bots, seed: served.seed };
    let setup = session_setup(&game, file, &options.settings(), people, SERVED)?;
    let (session, _) = people_session(setup, file, paradox::compiled::Engine::Auto, started_at_terminal())?;
    start_serving(session, save, served.listen)
}

/// `paradox serve --resume SAVE`: the match the save holds, from its rule file, parameters,
/// seats and bots.
#[cfg(feature = "serve")]
fn resume_serving(save: &std::path::Path, listen: Listen) -> Result<ExitCode, ExitCode> {
    let usage = |message: String| {
        eprintln!("error: {message}");
        ExitCode::from(2)
    };
    let (origin, humans, bots) = paradox::repl::made_from(save).map_err(|m| usage(format!("--resume: {m}")))?;
    let file = PathBuf::from(
        &origin.sources.first().ok_or_else(|| usage("--resume: the save names no rule file".into()))?.file,
    );
    let options = GameOptions { sets: origin.sets.clone(), variant: origin.variant.clone() };
    let game = Arc::new(load_game(&file, &options)?);
    let setup =
        session_setup(&game, &file, &options.settings(), People { humans, bots: &bots, seed: Some(0) }, SERVED)?;
    let (mut session, _) = people_session(setup, &file, paradox::compiled::Engine::Auto, started_at_terminal())?;
    session.resume(save).map_err(|said| {
        eprint!("{said}");
        ExitCode::from(1)
    })?;
    start_serving(session, save.to_path_buf(), listen)
}

/// Whether a person started the server at a terminal (not a test or a service): only then is the
/// compiled engine built behind its match.
#[cfg(feature = "serve")]
fn started_at_terminal() -> bool {
    std::io::stdin().is_terminal()
}

/// A server's session writes to no terminal.
#[cfg(feature = "serve")]
const SERVED: Screen = Screen { colour: false, terminal: false, width: 100, height: None };

/// Binds, prints the links, and serves until stopped.
#[cfg(feature = "serve")]
fn start_serving(session: paradox::repl::Session, save: PathBuf, listen: Listen) -> Result<ExitCode, ExitCode> {
    let name = session.game().name.clone();
    // The room's links are saved with the match: resumed, it keeps them.
    let room = paradox::serve::Room::new(session, Some(save.clone())).wait_for_summaries(listen.summary_timeout);
    if let Err(why) = room.session().save_to(&save) {
        eprintln!("error: cannot save to {}: {why}", save.display());
        return Err(ExitCode::from(2));
    }
    let address = listen.address;
    let server = paradox::serve::Server::start(room, address, paradox::serve::Limits::default()).map_err(|e| {
        eprintln!("error: cannot listen on {address}: {e}");
        ExitCode::from(2)
    })?;
    let port = server.address().port();
    println!("{name}: serving on port {port}; the match is saved after every move to {}.", save.display());
    server.with_room(|room| {
        for guest in room.guests() {
            println!("  {}: http://localhost:{port}/t/{}", guest.name, guest.token);
        }
    });
    println!("Send each person their own link: it is their seat, so keep it private. From another device, put");
    println!("this machine's address in place of localhost. Stopped, the match goes on with:");
    println!("  paradox serve --resume {}", save.display());
    let _ = std::io::stdout().flush();
    server.wait();
    Ok(ExitCode::SUCCESS)
}

/// What `paradox solve` is asked: the position (seed, moves after the deal), where to stop, and
/// how far to search.
struct SolveQuestion<'a> {
    seed: u64,
    until: Option<&'a str>,
    after: Option<&'a str>,
    max_positions: u64,
    max_memory_mib: u64,
    engine: paradox::compiled::Engine,
}

/// How many positions a search may take on the interpreter before `solve --engine auto` builds
/// the compiled engine for it (a fraction of a second: quick questions stay quick).
const SHALLOW: u64 = 200_000;

/// The position `solve` is asked about, in a match of `playable`: the deal of the seed, and the
/// moves after it. `Err` carries the exit code, after saying why.
fn solve_position(playable: paradox::Playable, question: &SolveQuestion) -> Result<paradox::State, ExitCode> {
    let mut state = paradox::State::bare(playable, question.seed);
    match paradox::solve::play_moves(&mut state, question.after.unwrap_or_default()) {
        Ok(()) => Ok(state),
        Err(message) => {
            eprintln!("error: --after: {message}");
            Err(ExitCode::from(2))
        }
    }
}

/// `paradox solve`: the exact analysis of the position after the deal (and `after`).
fn solve(file: &std::path::Path, question: SolveQuestion, format: Format, options: &GameOptions) -> ExitCode {
    use paradox::compiled::Engine;
    use paradox::solve::{Limits, Unsolvable};
    let game = match load_game(file, options) {
        Ok(game) => Arc::new(game),
        Err(code) => return code,
    };
    let limits = Limits { positions: question.max_positions, table_bytes: question.max_memory_mib << 20 };
    let label = paradox::printable::path(file);
    let on = |engine: Engine, build: bool, limits: Limits| -> Result<_, ExitCode> {
        let playable = paradox::compiled::choose(&game, engine, &label, build).map_err(|message| {
            eprintln!("error: {message}");
            ExitCode::from(2)
        })?;
        let state = solve_position(playable, &question)?;
        Ok(paradox::solve::prepare(&state, question.until)
            .and_then(|task| paradox::solve::analyze_within(&state, &task, limits)))
    };
    // `auto` tries the interpreter first, and builds the compiled engine only for a search that
    // proves deep.
    let probe = Limits { positions: limits.positions.min(SHALLOW), ..limits };
    let first = match question.engine {
        Engine::Auto if !paradox::compiled::cached(&game) => on(Engine::Interpreted, false, probe),
        engine => on(engine, false, limits),
    };
    let analysis = match first {
        Ok(Err(Unsolvable::TooLarge(_))) if question.engine == Engine::Auto && probe.positions < limits.positions => {
            on(Engine::Auto, true, limits)
        }
        first => first,
    };
    let analysis = match analysis {
        Ok(analysis) => analysis,
        Err(code) => return code,
    };
    match analysis {
        Ok(analysis) => {
            match format {
                Format::Text => print!("{}", paradox::solve::text(&analysis)),
                Format::Json => println!("{}", serde_json::to_string(&analysis).unwrap_or_default()),
            }
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("error: cannot solve this position: {why}");
            match why {
                paradox::solve::Unsolvable::TooLarge(_) => {
                    eprintln!("help: raise --max-positions to search further, or ask from a later position (--after)")
                }
                paradox::solve::Unsolvable::TooMuchMemory(_) => eprintln!(
                    "help: raise --max-memory if the machine has the memory, or ask from a later position (--after)"
                ),
                paradox::solve::Unsolvable::NoPhase(_) => {
                    let phases: Vec<String> = game.phases.iter().map(|p| format!("`{}`", p.name)).collect();
                    eprintln!("help: --until names one of the game's phases: {}", phases.join(", "));
                    // A mistake on the command line, as an illegal `--after` move is.
                    return ExitCode::from(2);
                }
                _ => {}
            }
            ExitCode::from(1)
        }
    }
}

/// `paradox fmt`: formats each file in place, or with `check` lists those not formatted.
fn fmt(files: &[PathBuf], check: bool) -> ExitCode {
    let mut code = 0u8;
    for path in files {
        let outcome = if path.as_os_str() == "-" { fmt_stdin() } else { fmt_file(path, check) };
        code = code.max(outcome);
    }
    ExitCode::from(code)
}

/// Formats one file; the exit code it calls for.
fn fmt_file(path: &std::path::Path, check: bool) -> u8 {
    let source = match paradox::read_source(path) {
        Ok(Ok(source)) => source,
        Ok(Err(findings)) => {
            eprint!("{}", render(&[findings], style(), width()));
            return 1;
        }
        Err(message) => {
            eprintln!("error: {message}");
            return 2;
        }
    };
    let formatted = match paradox::format::format(&source.text) {
        Ok(formatted) => formatted,
        Err(problems) => {
            eprint!("{}", render(&[paradox::Findings { source, problems }], style(), width()));
            return 1;
        }
    };
    if formatted == source.text {
        return 0;
    }
    if check {
        println!("{}", path.display());
        return 1;
    }
    match std::fs::write(path, formatted) {
        Ok(()) => {
            println!("formatted {}", path.display());
            0
        }
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", path.display());
            2
        }
    }
}

/// Formats standard input to standard output.
fn fmt_stdin() -> u8 {
    let mut text = String::new();
    let limit = paradox::files::MAX_RULE_FILE;
    let mut input = std::io::Read::take(std::io::stdin(), limit + 1);
    if let Err(e) = std::io::Read::read_to_string(&mut input, &mut text) {
        eprintln!("error: cannot read standard input: {e}");
        return 2;
    }
    if text.len() as u64 > limit {
        let size = paradox::files::size(limit);
        eprintln!("error: standard input holds more than {size}, the most paradox reads for a rule file");
        return 2;
    }
    match paradox::format::format(&text) {
        // Into a file or a pipe the text goes as it is (an editor formats through it).
        Ok(formatted) if !std::io::stdout().is_terminal() => match std::io::stdout().write_all(formatted.as_bytes()) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("error: cannot write standard output: {e}");
                2
            }
        },
        Ok(formatted) => {
            print!("{formatted}");
            0
        }
        Err(problems) => {
            let source = paradox::Source { name: "standard input".into(), text };
            eprint!("{}", render(&[paradox::Findings { source, problems }], style(), width()));
            1
        }
    }
}

/// `paradox lsp`: serves one editor over standard input and output.
fn lsp() -> ExitCode {
    match paradox::lsp::serve_stdio() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(1)
        }
    }
}

/// Commands run on a thread with a large stack: rule files may nest definitions hundreds deep.
pub(crate) const STACK: usize = 64 << 20;

fn main() -> ExitCode {
    let cli = match parse_arguments() {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    let worker = std::thread::Builder::new().name("paradox".into()).stack_size(STACK).spawn(move || run(&cli));
    match worker.map(|w| w.join()) {
        Ok(Ok(code)) => code,
        _ => {
            eprintln!("error: paradox stopped unexpectedly");
            ExitCode::from(2)
        }
    }
}

/// The command line, read so that a negative number after an option is its value (`--seed -1`
/// is then refused as no seed, not taken for an option of its own).
fn parse_arguments() -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let command = Cli::command().mut_subcommands(|sub| sub.allow_negative_numbers(true));
    Cli::from_arg_matches(&command.try_get_matches()?)
}

/// What clap found wrong with the arguments (or the help asked for), printed escaped: a value
/// quoted back may hold control characters.
fn usage_error(e: &clap::Error) -> ExitCode {
    let colour = if e.use_stderr() { style() == Style::Colour } else { colour_out() };
    let text = if colour { e.render().ansi().to_string() } else { e.render().to_string() };
    if e.use_stderr() {
        eprint!("{text}");
    } else {
        print!("{text}");
    }
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
}

pub(crate) fn run(cli: &Cli) -> ExitCode {
    match &cli.command {
        Command::Check { files, simulate, options } => check(files, *simulate, options),
        Command::Trace { run } => trace(run),
        Command::Sim { file, games, lab: run, options } => {
            lab(file, vec![Config::of(&options.settings())], *games, run, &Settings::default())
        }
        Command::Compare { file, configs, games, lab: run, options } => {
            match configs.iter().map(|c| Config::parse(c)).collect::<Result<Vec<_>, _>>() {
                Ok(configs) => lab(file, configs, *games, run, &options.settings()),
                Err(message) => {
                    eprintln!("error: {message}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Ladder { file, games, seed, players, threads, format, engine, shard, options } => {
            let shard = shard.as_deref();
            let question = LadderQuestion { file, games: *games, seed: *seed, players, engine: *engine, shard };
            ladder(question, *threads, *format, options)
        }
        Command::Merge { files, output } => merge(files, output),
        Command::Fmt { files, check } => fmt(files, *check),
        Command::Solve { file, seed, until, after, max_positions, max_memory, format, engine, options } => {
            let question = SolveQuestion {
                seed: *seed,
                until: until.as_deref(),
                after: after.as_deref(),
                max_positions: *max_positions,
                max_memory_mib: *max_memory,
                engine: *engine,
            };
            solve(file, question, *format, options)
        }
        Command::Lsp => lsp(),
        Command::Bench { files, seconds, bot_moves, format, engine, options } => {
            bench(files, *seconds, *bot_moves, *format, *engine, options)
        }
        Command::Build { file, options } => build(file, options),
        #[cfg(feature = "serve")]
        Command::Serve { file, seats, bots, seed, port, address, save, resume, summary_timeout, options } => {
            let address = std::net::SocketAddr::new(*address, *port);
            let listen = Listen { address, summary_timeout: summary_timeout.map(std::time::Duration::from_secs) };
            let served = match resume {
                Some(save) => resume_serving(save, listen),
                None => {
                    let file = file.as_deref().unwrap_or(std::path::Path::new(""));
                    let seats = seats.as_deref();
                    serve(file, Served { seats, bots, seed: *seed, save: save.clone(), listen }, options)
                }
            };
            served.unwrap_or_else(|code| code)
        }
        Command::Play { file, seat, humans, seed, bots, engine, options } => {
            let seats = humans.as_deref().or(seat.as_deref());
            play(PlayQuestion { file, seats, seed: *seed, bots, engine: *engine }, options)
        }
    }
}
