//! The `paradox` command line.

use clap::{Parser, Subcommand};
use paradox::bots::Kind;
use paradox::check::Settings;
use paradox::game::Game;
use paradox::load::{LoadError, load};
use paradox::report::{Style, render};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

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
        /// Your seat, by number (1 is the first seat in the rule file) or name.
        #[arg(long, value_name = "SEAT", conflicts_with = "humans")]
        seat: Option<String>,
        /// Hot-seat play: the seats of the people at the table (`1,3`); every other seat is a bot.
        #[arg(long, value_name = "SEATS")]
        humans: Option<String>,
        /// Seeds the deal, every other chance, and the bots.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The computer players: `default` (the strongest), `random`, or one kind per player.
        #[arg(long, default_value = "default", value_name = "KINDS")]
        bots: String,
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
        #[command(flatten)]
        options: GameOptions,
    },
    /// Play many matches between bots (match `i` seeded with `seed + i`) and report wins, draws
    /// and speed. `--format json` prints one object.
    Sim {
        /// How many matches.
        #[arg(long, default_value_t = 100)]
        games: u64,
        #[command(flatten)]
        run: MatchOptions,
    },
}

/// What `trace` and `sim` share: the game, the seed, the players and the output.
#[derive(clap::Args)]
struct MatchOptions {
    /// A rule file or scenario.
    file: PathBuf,
    /// Seeds the deal, every other chance, and the bots.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The computer players: `random`, `default` (the strongest), or one kind per player
    /// separated by commas (`default,random`).
    #[arg(long, default_value = "random", value_name = "KINDS")]
    bots: String,
    /// `text` for people, `json` for tools.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
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

fn width() -> usize {
    std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()).unwrap_or(100)
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
fn simulated(path: &std::path::Path, game: paradox::game::Game, matches: u64, options: &GameOptions) -> bool {
    let shakedown = paradox::sim::shakedown(std::sync::Arc::new(game), matches);
    let name = path.display().to_string();
    if shakedown.stoppages.is_empty() {
        println!("{name}: {matches} random matches played, none stopped");
        return true;
    }
    let source = paradox::load::rules_source(path)
        .unwrap_or_else(|| paradox::report::Source { name: name.clone(), text: String::new() });
    let problems = shakedown.stoppages.iter().map(|s| s.problem.clone()).collect();
    eprint!("{}", render(&[paradox::report::Findings { source, problems }], style(), width()));
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
fn load_game(path: &std::path::Path, options: &GameOptions) -> Result<paradox::game::Game, ExitCode> {
    load(path, &options.settings()).map_err(|e| match e {
        LoadError::Io(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
        LoadError::Invalid(findings) => {
            eprint!("{}", render(&findings, style(), width()));
            ExitCode::from(1)
        }
    })
}

/// Loads the game of a match and reads its `--bots`; `Err` carries the exit code.
fn match_setup(run: &MatchOptions) -> Result<(Arc<Game>, Vec<Kind>), ExitCode> {
    let game = load_game(&run.file, &run.options)?;
    let kinds = paradox::bots::parse_kinds(&run.bots, game.players).map_err(|message| {
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
    let state = paradox::trace::bot_match(game, seed, &kinds);
    match format {
        Format::Text => print!("{}", paradox::trace::text(&state)),
        Format::Json => print!("{}", paradox::trace::json_lines(&state)),
    }
    if let Some(problem) = state.failure() {
        let findings = vec![paradox::report::Findings {
            source: paradox::load::rules_source(file)
                .unwrap_or_else(|| paradox::report::Source { name: file.display().to_string(), text: String::new() }),
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

fn sim(games: u64, run: &MatchOptions) -> ExitCode {
    let (game, kinds) = match match_setup(run) {
        Ok(setup) => setup,
        Err(code) => return code,
    };
    let stats = paradox::sim::run(game.clone(), games, run.seed, &kinds);
    match run.format {
        Format::Text => print!("{}", paradox::sim::text(&game, &stats)),
        Format::Json => println!("{}", serde_json::to_string(&stats).unwrap_or_default()),
    }
    if stats.failures > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

fn bench(files: &[PathBuf], seconds: f64, bot_moves: usize, format: Format, options: &GameOptions) -> ExitCode {
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= 3600.0) {
        eprintln!("error: --seconds: give a number of seconds between 0 and 3600");
        return ExitCode::from(2);
    }
    for file in files {
        let game = match load_game(file, options) {
            Ok(game) => Arc::new(game),
            Err(code) => return code,
        };
        let figures = paradox::bench::run(game, seconds, bot_moves);
        match format {
            Format::Text => print!("{}", paradox::bench::text(std::slice::from_ref(&figures))),
            Format::Json => println!("{}", serde_json::to_string(&figures).unwrap_or_default()),
        }
    }
    ExitCode::SUCCESS
}

/// `paradox play`: sets the table up and hands it to a terminal or a script.
fn play(file: &std::path::Path, seats: &str, seed: u64, bots: &str, options: &GameOptions) -> ExitCode {
    let game = match load_game(file, options) {
        Ok(game) => Arc::new(game),
        Err(code) => return code,
    };
    let usage = |message: String| {
        eprintln!("error: {message}");
        ExitCode::from(2)
    };
    let humans = match paradox::repl::players_at(&game, seats) {
        Ok(humans) => humans,
        Err(message) => return usage(message),
    };
    let kinds = match paradox::repl::bot_kinds(bots, game.players, &humans) {
        Ok(kinds) => kinds,
        Err(message) => return usage(format!("--bots: {message}")),
    };
    let (source, origin) = match paradox::repl::origin(file, &options.settings()) {
        Ok(found) => found,
        Err(message) => return usage(message),
    };
    let scripted = !std::io::stdin().is_terminal();
    let terminal = !scripted && std::io::stdout().is_terminal();
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let setup = paradox::repl::Setup {
        game,
        source,
        origin,
        seed,
        humans,
        bots: bots.to_string(),
        kinds,
        colour: terminal && !no_color,
        terminal,
        width: width(),
    };
    let (session, first) = paradox::repl::Session::start(setup);
    let played = if scripted {
        let mut out = std::io::stdout().lock();
        paradox::repl::terminal::scripted(session, &first, &mut std::io::stdin().lock(), &mut out)
            .map_err(|e| e.to_string())
    } else {
        paradox::repl::terminal::interactive(session, &first)
    };
    match played {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => usage(message),
    }
}

/// Commands run on a thread with a large stack: rule files may nest definitions hundreds deep.
const STACK: usize = 64 << 20;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let worker = std::thread::Builder::new().name("paradox".into()).stack_size(STACK).spawn(move || run(&cli));
    match worker.map(|w| w.join()) {
        Ok(Ok(code)) => code,
        _ => {
            eprintln!("error: paradox stopped unexpectedly");
            ExitCode::from(2)
        }
    }
}

fn run(cli: &Cli) -> ExitCode {
    match &cli.command {
        Command::Check { files, simulate, options } => check(files, *simulate, options),
        Command::Trace { run } => trace(run),
        Command::Sim { games, run } => sim(*games, run),
        Command::Bench { files, seconds, bot_moves, format, options } => {
            bench(files, *seconds, *bot_moves, *format, options)
        }
        Command::Play { file, seat, humans, seed, bots, options } => {
            let seats = humans.as_deref().or(seat.as_deref()).unwrap_or("1");
            play(file, seats, *seed, bots, options)
        }
    }
}
