//! `paradox serve` over the network, on the loopback address: a link admits its screen and
//! nothing else does, joins are limited, bad messages are refused while the match goes on, a
//! dropped screen rejoins to the table as it is and plays on (its old connection's end
//! disturbs nothing), and a match stopped mid-way is resumed from its save by
//! `paradox serve --resume`.
#![cfg(feature = "serve")]

use crate::run::command;
use crate::session::setup;
use paradox::repl::Session;
use paradox::serve::{Limits, Room, Server, Who, encode};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Stdio};
use std::time::Duration;
use tungstenite::{Message, WebSocket, stream::MaybeTlsStream};

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

/// A server of Costly Tricks with a person at the first seat, on any free port.
fn server(limits: Limits) -> Server {
    let session = Session::start(setup("rules/costly-tricks.cards", &[0])).0;
    let address: SocketAddr = "127.0.0.1:0".parse().expect("an address");
    Server::start(Room::new(session, None), address, limits).expect("the server starts")
}

fn token(server: &Server, who: Who) -> String {
    server.with_room(|room| room.guests().iter().find(|g| g.who == who).expect("a guest").token.clone())
}

/// `GET path`: the status code and the body.
fn get(address: SocketAddr, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).expect("a connection");
    write!(stream, "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").expect("a request");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("an answer");
    let status = answer.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status");
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_string();
    (status, body)
}

fn connect(port: u16, token: &str) -> Result<Socket, tungstenite::Error> {
    tungstenite::connect(format!("ws://127.0.0.1:{port}/ws/{token}")).map(|(socket, _)| socket)
}

/// The next text message, as JSON.
fn next(socket: &mut Socket) -> Value {
    loop {
        match socket.read().expect("a message") {
            Message::Text(text) => return serde_json::from_str(&text).expect("JSON"),
            Message::Ping(_) | Message::Pong(_) => continue,
            other => panic!("not a text message: {other:?}"),
        }
    }
}

fn send(socket: &mut Socket, text: &str) {
    socket.send(Message::text(text)).expect("sent");
}

#[test]
fn a_link_admits_its_screen_and_nothing_else_does_and_joins_are_limited() {
    let limits = Limits { joins: 6, window: Duration::from_secs(3600) };
    let server = server(limits);
    let (address, port) = (server.address(), server.address().port());
    let player = token(&server, Who::Player(0));
    let (status, body) = get(address, "/");
    assert_eq!(status, 200);
    assert!(!body.contains(&player), "the front page gives no link away");
    assert_eq!(get(address, "/t/0123456789abcdef0123456789abcdef"), (404, String::new()));
    assert_eq!(get(address, "/t/"), (404, String::new()));
    assert!(connect(port, "wrong").is_err(), "a wrong token opens no connection");
    let (status, page) = get(address, &format!("/t/{player}"));
    assert_eq!(status, 200);
    assert!(page.contains("<script src=\"/table.js\">") && !page.contains(&player), "{page}");
    let mut socket = connect(port, &player).expect("the link's connection");
    let first = next(&mut socket);
    let expected = server.with_room(|room| encode(&room.screen(Who::Player(0))));
    assert_eq!(first, serde_json::from_str::<Value>(&expected).expect("JSON"));
    assert_eq!(first["type"], "table");
    // Four attempts from this address so far (the front page and `/t/` alone are none): two
    // more are let in, the next is refused.
    assert_eq!(get(address, &format!("/t/{player}")).0, 200);
    assert_eq!(get(address, &format!("/t/{player}")).0, 200);
    assert_eq!(get(address, &format!("/t/{player}")), (429, "Too many attempts: wait a minute.\n".into()));
    assert!(connect(port, &player).is_err(), "over the limit, even the right link waits");
}

#[test]
fn bad_messages_are_refused_with_an_error_and_the_match_goes_on() {
    let server = server(Limits::default());
    let port = server.address().port();
    let mut socket = connect(port, &token(&server, Who::Player(0))).expect("a connection");
    let first = next(&mut socket);
    assert!(first["table"]["turn"].is_object(), "the person is to move: {first}");
    let decisions = || server.with_room(|room| room.session().state().position().decisions);
    let before = decisions();
    for (bad, says) in [
        ("{", "not understood"),
        ("[1, 2]", "not understood"),
        (r#"{"type":"move"}"#, "not understood"),
        (r#"{"type":"undo"}"#, "not understood"),
        (&"x".repeat(5000), "more than 4096"),
    ] {
        send(&mut socket, bad);
        let answer = next(&mut socket);
        assert_eq!(answer["type"], "error", "{bad:.40}: {answer}");
        assert!(answer["text"].as_str().is_some_and(|t| t.contains(says)), "{bad:.40}: {answer}");
    }
    socket.send(Message::binary(vec![0, 1, 2])).expect("sent");
    assert_eq!(next(&mut socket)["type"], "error");
    for command in ["save /tmp/paradox-serve-test.json", "load x.json", "quit", "new"] {
        send(&mut socket, &serde_json::json!({"type": "move", "text": command}).to_string());
        let answer = next(&mut socket);
        assert_eq!(answer["type"], "said", "{command}: {answer}");
        assert!(answer["text"].as_str().is_some_and(|t| t.contains("only moves are played")), "{answer}");
    }
    send(&mut socket, r#"{"type":"move","text":"no such card"}"#);
    assert_eq!(next(&mut socket)["type"], "said");
    assert_eq!(decisions(), before, "nothing above was played");
    send(&mut socket, r##"{"type":"move","text":"#1"}"##);
    let after = next(&mut socket);
    assert_eq!(after["type"], "table");
    assert!(decisions() > before, "the move was played");
}

#[test]
fn a_dropped_screen_rejoins_to_the_table_as_it_is() {
    let server = server(Limits::default());
    let port = server.address().port();
    let player = token(&server, Who::Player(0));
    let mut socket = connect(port, &player).expect("a connection");
    next(&mut socket);
    send(&mut socket, r##"{"type":"move","text":"#1"}"##);
    let last = next(&mut socket);
    drop(socket);
    let mut again = connect(port, &player).expect("the link again");
    assert_eq!(next(&mut again), last);
}

/// Plays on at `socket` for `moves` messages (the first move, or going on from a round's
/// summary), checking that each is answered with the table as the room has it then.
fn play_on(server: &Server, socket: &mut Socket, mut table: Value, moves: usize) -> Value {
    for _ in 0..moves {
        if table["result"].is_string() {
            break;
        }
        let request =
            if table["summary"].is_object() { r#"{"type":"continue"}"# } else { r##"{"type":"move","text":"#1"}"## };
        send(socket, request);
        table = next(socket);
        let expected = server.with_room(|room| encode(&room.screen(Who::Player(0))));
        assert_eq!(table, serde_json::from_str::<Value>(&expected).expect("JSON"), "after {request}");
    }
    table
}

#[test]
fn a_screen_reloaded_mid_match_is_sent_a_table_after_each_move() {
    let server = server(Limits::default());
    let port = server.address().port();
    let player = token(&server, Who::Player(0));
    let mut old = connect(port, &player).expect("a connection");
    let first = next(&mut old);
    let last = play_on(&server, &mut old, first, 2);
    // A reload: the new page connects, then the old connection ends (closed, or simply gone).
    let mut again = connect(port, &player).expect("the link again");
    assert_eq!(next(&mut again), last);
    old.close(None).expect("closed");
    let last = play_on(&server, &mut again, last, 4);
    let mut third = connect(port, &player).expect("the link a third time");
    assert_eq!(next(&mut third), last);
    drop(again);
    let decisions = server.with_room(|room| room.session().state().position().decisions);
    let end = play_on(&server, &mut third, last, 8);
    assert!(
        server.with_room(|room| room.session().state().position().decisions) > decisions,
        "moves were played: {end}"
    );
}

/// `paradox serve ARGS` started, with the links it prints (each seat's, then the spectators').
fn serving(args: &[&str]) -> (Child, Vec<String>) {
    let mut child = command(args).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("paradox serve starts");
    let mut lines = BufReader::new(child.stdout.take().expect("its output")).lines();
    let mut links = Vec::new();
    while let Some(Ok(line)) = lines.next() {
        if let Some((_, link)) = line.split_once(": http://") {
            links.push(link.to_string());
        }
        if line.trim_start().starts_with("spectators:") {
            break;
        }
    }
    (child, links)
}

/// The port and the token of a link printed as `localhost:PORT/t/TOKEN`.
fn port_and_token(link: &str) -> (u16, String) {
    let (host, token) = link.split_once("/t/").expect("a link");
    (host.rsplit(':').next().and_then(|p| p.parse().ok()).expect("a port"), token.to_string())
}

/// Where `paradox serve` listens in these tests: a free port of the loopback address.
const LOOPBACK: [&str; 4] = ["--port", "0", "--address", "127.0.0.1"];

/// `paradox serve` of Tantony (seed 4, random bots, no `--seats`) saving after every move into a
/// new folder: the folder (removed when dropped), the save's path, the server and its links.
fn serving_tantony_with_a_save() -> (tempfile::TempDir, String, Child, Vec<String>) {
    let folder = tempfile::tempdir().expect("a folder");
    let save = folder.path().join("match.json").to_str().expect("a UTF-8 path").to_string();
    let args = ["serve", "rules/tantony.cards", "--seed", "4", "--bots", "random", "--save", &save];
    let (server, links) = serving(&[&args[..], &LOOPBACK].concat());
    (folder, save, server, links)
}

/// Stops a server as a crash would (the save stays), then starts `paradox serve --resume SAVE`.
fn crashed_and_resumed(mut server: Child, save: &str) -> (Child, Vec<String>) {
    server.kill().expect("stopped");
    server.wait().expect("ended");
    serving(&[&["serve", "--resume", save][..], &LOOPBACK].concat())
}

#[test]
fn a_match_stopped_mid_way_is_resumed_from_its_save() {
    let (_folder, save, first, links) = serving_tantony_with_a_save();
    assert_eq!(links.len(), 2, "a person's link and the spectators': {links:?}");
    let (port, token) = port_and_token(&links[0]);
    let mut socket = connect(port, &token).expect("a connection");
    next(&mut socket);
    let mut last = Value::Null;
    for _ in 0..3 {
        send(&mut socket, r##"{"type":"move","text":"#1"}"##);
        last = next(&mut socket);
        assert_eq!(last["type"], "table", "{last}");
    }
    let (mut second, links) = crashed_and_resumed(first, &save);
    let (port, token) = port_and_token(&links[0]);
    let mut socket = connect(port, &token).expect("a connection to the resumed match");
    let resumed = next(&mut socket);
    second.kill().expect("stopped");
    second.wait().expect("ended");
    assert_eq!(resumed["table"], last["table"]);
    assert_eq!(resumed["log"], last["log"]);
}

/// A room of Costly Tricks with a person for each player, played with `#1` until a round ends:
/// both are shown its summary and neither has gone on.
fn a_round_ended(timeout: Option<Duration>) -> Room {
    let session = Session::start(setup("rules/costly-tricks.cards", &[0, 1])).0;
    let mut room = Room::new(session, None).wait_for_summaries(timeout);
    let people = [Who::Player(0), Who::Player(1)];
    let screen = |room: &mut Room, who: Who| serde_json::from_str::<Value>(&encode(&room.screen(who))).expect("JSON");
    for _ in 0..200 {
        if people.iter().all(|who| screen(&mut room, *who)["summary"].is_object()) {
            return room;
        }
        let Some(who) = people.iter().find(|who| screen(&mut room, **who)["table"]["turn"].is_object()).copied() else {
            panic!("no turn: {} {}", screen(&mut room, people[0]), screen(&mut room, people[1]));
        };
        assert!(room.handle(who, r##"{"type":"move","text":"#1"}"##).changed);
    }
    panic!("no round ended in 200 moves");
}

/// The person to move in `room` tries a move without going on from the summary: whether it
/// was played, and the answer.
fn move_without_going_on(room: &mut Room) -> (bool, Value) {
    let screens = [Who::Player(0), Who::Player(1)].map(|who| (who, encode(&room.screen(who))));
    let (who, _) = screens.iter().find(|(_, s)| s.contains(r#""turn":{"#)).expect("a turn");
    let handled = room.handle(*who, r##"{"type":"move","text":"#1"}"##);
    let reply = handled.reply.map_or(Value::Null, |r| serde_json::from_str(&encode(&r)).expect("JSON"));
    (handled.changed, reply)
}

#[test]
fn the_match_waits_for_summaries_until_the_hosts_time_out() {
    // Without a time-out, or before it is up, the match waits for both people.
    for timeout in [None, Some(Duration::from_secs(3600))] {
        let mut room = a_round_ended(timeout);
        let (played, reply) = move_without_going_on(&mut room);
        assert!(!played, "{timeout:?}: the match went on");
        assert!(reply["text"].as_str().is_some_and(|t| t.contains("once")), "{reply}");
        let screen: Value = serde_json::from_str(&encode(&room.screen(Who::Spectator))).expect("JSON");
        assert_eq!(screen["waiting"].as_array().map(Vec::len), Some(2), "{screen}");
    }
    // Once it is up (here at once), the match goes on; each summary stays until its reader goes on.
    let mut room = a_round_ended(Some(Duration::ZERO));
    let screen: Value = serde_json::from_str(&encode(&room.screen(Who::Spectator))).expect("JSON");
    assert_eq!(screen["waiting"], serde_json::json!([]), "{screen}");
    let (played, reply) = move_without_going_on(&mut room);
    assert!(played, "the match did not go on: {reply}");
    let screen: Value = serde_json::from_str(&encode(&room.screen(Who::Player(1)))).expect("JSON");
    assert!(screen["summary"].is_object(), "{screen}");
}

#[test]
fn a_resumed_match_keeps_its_links_and_a_person_sits_at_the_bottom_seat() {
    // No --seats: the person plays the seat Tantony puts at the bottom (`seat South at bottom`).
    let (_folder, save, first, before) = serving_tantony_with_a_save();
    let (mut second, after) = crashed_and_resumed(first, &save);
    let (port, token) = port_and_token(&after[0]);
    let mut socket = connect(port, &token).expect("the old link's connection to the resumed match");
    let table = next(&mut socket);
    second.kill().expect("stopped");
    second.wait().expect("ended");
    let tokens = |links: &[String]| links.iter().map(|l| port_and_token(l).1).collect::<Vec<_>>();
    assert_eq!(tokens(&before), tokens(&after), "the links changed");
    assert_eq!(table["you"], "South", "{table}");
}
