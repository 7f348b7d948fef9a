//! Load on `paradox serve`: many tables at once, each its own `paradox serve` process (one
//! process hosts one table, as a host runs it for friends), on the loopback address. At each
//! table one scripted person plays through the WebSocket, as the page does: it reads its table,
//! plays a legal move it read there (`#N`, drawn at random), goes on from each round's summary,
//! and checks that every move it sends is answered by a new table (a move with no answer, or
//! answered by the same table, is lost). The bots play the other seats. When the time is up
//! no new move is sent and the moves still in flight are waited for.
//!
//! ```text
//! bash benches/serve-load.sh [--tables 50] [--seconds 60] [--rules rules/costly-tricks.cards] [--bots default]
//! ```
//!
//! It prints the tables, the moves made, the errors, the lost moves and each server's memory
//! (resident set at the start and the end, and its peak, `VmHWM` in `/proc/PID/status`).

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

/// How long the moves still in flight are waited for once the time is up.
const GRACE: Duration = Duration::from_secs(60);

struct Options {
    tables: usize,
    seconds: u64,
    rules: String,
    bots: String,
    paradox: String,
}

/// What one table's person saw.
#[derive(Default, Debug)]
struct Tally {
    moves: usize,
    continued: usize,
    errors: Vec<String>,
    lost: usize,
    over: bool,
}

fn main() -> ExitCode {
    let options = match options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let folder = tempfile::tempdir().expect("a temporary folder");
    let mut servers = Vec::new();
    for i in 0..options.tables {
        match start(&options, i, folder.path()) {
            Ok(server) => servers.push(server),
            Err(message) => {
                eprintln!("error: table {}: {message}", i + 1);
                stop(&mut servers);
                return ExitCode::from(1);
            }
        }
    }
    let pids: Vec<u32> = servers.iter().map(|(child, _)| child.id()).collect();
    let start_rss: Vec<u64> = pids.iter().map(|p| status(*p, "VmRSS")).collect();
    let stopping = Arc::new(AtomicBool::new(false));
    let samples = Arc::new(Mutex::new(Vec::new()));
    let sampler = {
        let (pids, stopping, samples) = (pids.clone(), stopping.clone(), samples.clone());
        std::thread::spawn(move || {
            let began = Instant::now();
            while !stopping.load(Ordering::Relaxed) {
                let total: u64 = pids.iter().map(|p| status(*p, "VmRSS")).sum();
                samples.lock().unwrap().push((began.elapsed().as_secs(), total));
                std::thread::sleep(Duration::from_secs(1));
            }
        })
    };
    let deadline = Instant::now() + Duration::from_secs(options.seconds);
    let players: Vec<_> = (servers.iter().enumerate())
        .map(|(i, (_, link))| {
            let link = link.clone();
            std::thread::spawn(move || play(&link, deadline, 0x9e37_79b9_7f4a_7c15 ^ (i as u64 + 1)))
        })
        .collect();
    let tallies: Vec<Tally> = (players.into_iter())
        .map(|p| p.join().unwrap_or_else(|_| Tally { errors: vec!["the player panicked".into()], ..Tally::default() }))
        .collect();
    let end_rss: Vec<u64> = pids.iter().map(|p| status(*p, "VmRSS")).collect();
    let peak: Vec<u64> = pids.iter().map(|p| status(*p, "VmHWM")).collect();
    let alive = servers.iter_mut().map(|(child, _)| child.try_wait()).filter(|ended| matches!(ended, Ok(None))).count();
    stopping.store(true, Ordering::Relaxed);
    let _ = sampler.join();
    stop(&mut servers);

    let moves: usize = tallies.iter().map(|t| t.moves).sum();
    let errors: Vec<&String> = tallies.iter().flat_map(|t| &t.errors).collect();
    let lost: usize = tallies.iter().map(|t| t.lost).sum();
    println!(
        "{} tables of {} (one `paradox serve` each, bots {}), {} s",
        options.tables, options.rules, options.bots, options.seconds
    );
    println!(
        "moves made by the people: {moves} (per table: {})",
        spread(&tallies.iter().map(|t| t.moves as u64).collect::<Vec<_>>())
    );
    println!("round summaries gone on from: {}", tallies.iter().map(|t| t.continued).sum::<usize>());
    println!("matches over: {}", tallies.iter().filter(|t| t.over).count());
    println!("errors: {}", errors.len());
    for error in errors.iter().take(10) {
        println!("  {error}");
    }
    println!("lost moves: {lost}");
    println!("servers still running at the end: {alive} of {}", options.tables);
    println!("server RSS at the start, KiB: {}", spread(&start_rss));
    println!("server RSS at the end, KiB:   {}", spread(&end_rss));
    println!("server peak RSS (VmHWM), KiB: {}", spread(&peak));
    let samples = samples.lock().unwrap();
    let every: Vec<String> =
        (samples.iter()).filter(|(s, _)| s % 10 == 0).map(|(s, total)| format!("{s} s {} MiB", total / 1024)).collect();
    println!("all servers' RSS together: {}", every.join(", "));
    if errors.is_empty() && lost == 0 && alive == options.tables { ExitCode::SUCCESS } else { ExitCode::from(1) }
}

/// The command line: `--tables N --seconds S --rules FILE --bots KINDS --paradox BIN`.
fn options() -> Result<Options, String> {
    let mut options = Options {
        tables: 50,
        seconds: 60,
        rules: "rules/costly-tricks.cards".into(),
        bots: "default".into(),
        paradox: "target/release/paradox".into(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || value.parse::<u64>().map_err(|_| format!("{flag}: {value} is not a number"));
        match flag.as_str() {
            "--tables" => options.tables = number()? as usize,
            "--seconds" => options.seconds = number()?,
            "--rules" => options.rules = value,
            "--bots" => options.bots = value,
            "--paradox" => options.paradox = value,
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(options)
}

/// Starts table `i`'s server on any free port; it and the person's link (`127.0.0.1:PORT/t/TOKEN`).
fn start(options: &Options, i: usize, folder: &std::path::Path) -> Result<(Child, String), String> {
    let save = folder.join(format!("table-{i}.json"));
    let seed = (i + 1).to_string();
    let mut child = Command::new(&options.paradox)
        .args(["serve", &options.rules, "--port", "0", "--address", "127.0.0.1", "--seed", &seed])
        .args(["--bots", &options.bots, "--save"])
        .arg(&save)
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{} does not start: {e}", options.paradox))?;
    let out = child.stdout.take().ok_or("no output")?;
    let mut lines = BufReader::new(out).lines();
    let link = loop {
        match lines.next() {
            Some(Ok(line)) => {
                if let Some((_, link)) = line.split_once(": http://localhost") {
                    break format!("127.0.0.1{link}");
                }
            }
            _ => {
                let _ = child.kill();
                return Err("the server printed no link".into());
            }
        }
    };
    // The rest of its output is read and dropped, so that it never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    Ok((child, link))
}

/// Plays at the table of `link` until `deadline`, then waits for the move in flight.
fn play(link: &str, deadline: Instant, seed: u64) -> Tally {
    let mut tally = Tally::default();
    let ws = link.replacen("/t/", "/ws/", 1);
    let mut socket = match tungstenite::connect(format!("ws://{ws}")) {
        Ok((socket, _)) => socket,
        Err(e) => {
            tally.errors.push(format!("{link}: no connection: {e}"));
            return tally;
        }
    };
    let mut random = seed;
    let mut table = match next(&mut socket, deadline + GRACE) {
        Ok(table) => table,
        Err(e) => {
            tally.errors.push(e);
            return tally;
        }
    };
    while Instant::now() < deadline {
        if table["type"] != "table" {
            tally.errors.push(format!("not a table: {table}"));
            return tally;
        }
        if table["result"].is_string() {
            tally.over = true;
            return tally;
        }
        let request = if table["summary"].is_object() {
            serde_json::json!({"type": "continue"})
        } else {
            let count = table["table"]["turn"]["moves"].as_array().map_or(0, Vec::len);
            if count == 0 {
                tally.errors.push(format!("a table with no move for the person: {table}"));
                return tally;
            }
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            serde_json::json!({"type": "move", "text": format!("#{}", random % count as u64 + 1)})
        };
        if let Err(e) = socket.send(Message::text(request.to_string())) {
            tally.errors.push(format!("not sent: {e}"));
            return tally;
        }
        let answer = match next(&mut socket, deadline + GRACE) {
            Ok(answer) => answer,
            Err(e) => {
                tally.lost += 1;
                tally.errors.push(e);
                return tally;
            }
        };
        if answer["type"] != "table" || answer == table {
            tally.lost += 1;
            tally.errors.push(format!("{request} was answered by {answer:.300}"));
            return tally;
        }
        match request["type"].as_str() {
            Some("continue") => tally.continued += 1,
            _ => tally.moves += 1,
        }
        table = answer;
    }
    let _ = socket.close(None);
    tally
}

/// The next text message as JSON, waiting until `until` at most.
fn next(socket: &mut Socket, until: Instant) -> Result<Value, String> {
    loop {
        let left = until.saturating_duration_since(Instant::now()).max(Duration::from_millis(1));
        if let MaybeTlsStream::Plain(stream) = socket.get_mut() {
            let _ = stream.set_read_timeout(Some(left));
        }
        match socket.read() {
            Ok(Message::Text(text)) => return serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}")),
            Ok(Message::Ping(_) | Message::Pong(_)) => continue,
            Ok(other) => return Err(format!("not a text message: {other:?}")),
            Err(e) => return Err(format!("no answer: {e}")),
        }
    }
}

/// A number from `/proc/PID/status` (kB), or 0.
fn status(pid: u32, key: &str) -> u64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    (text.lines())
        .find_map(|line| line.strip_prefix(key)?.strip_prefix(':'))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// `min / median / max, sum N`.
fn spread(values: &[u64]) -> String {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    match (sorted.first(), sorted.last()) {
        (Some(min), Some(max)) => {
            let sum: u64 = sorted.iter().sum();
            format!("min {min}, median {}, max {max}, sum {sum}", sorted[sorted.len() / 2])
        }
        _ => "none".into(),
    }
}

fn stop(servers: &mut [(Child, String)]) {
    for (child, _) in servers {
        let _ = child.kill();
        let _ = child.wait();
    }
}
