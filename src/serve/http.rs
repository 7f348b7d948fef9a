//! The web server: the page and its script and style, served from the binary, and one
//! WebSocket per screen. A link's token admits its screen; a wrong or missing token gets a bare
//! "not found" and nothing else, and each address may try only so many times a window. A
//! screen's messages are handled one at a time on a blocking thread (bots think there); after
//! a change every screen is sent its own table again.

use super::room::{Handled, Message, Room, Who, encode};
use axum::Router;
use axum::extract::ws::{self, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;

const PAGE: &str = include_str!("page/table.html");
const SCRIPT: &str = include_str!("page/table.js");
const STYLE: &str = include_str!("page/table.css");

/// The largest WebSocket message read at all; a longer one closes that connection (the match
/// goes on). Shorter ones over [`super::room::MAX_REQUEST`] are answered with an error.
const MAX_FRAME: usize = 64 * 1024;

/// How often an address may ask to join.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Attempts to open a link or its connection per address within one window.
    pub joins: u32,
    /// The window's length.
    pub window: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { joins: 60, window: Duration::from_secs(60) }
    }
}

/// What every request handler shares.
pub(super) struct Shared {
    pub(super) room: Mutex<Room>,
    /// Bumped at every change of the match: each screen then sends its table again.
    changes: watch::Sender<u64>,
    joins: Mutex<Joins>,
    limits: Limits,
}

/// The join attempts of each address in the current window.
struct Joins {
    since: Instant,
    counts: HashMap<IpAddr, u32>,
}

impl Shared {
    pub(super) fn new(room: Room, limits: Limits) -> Shared {
        let joins = Joins { since: Instant::now(), counts: HashMap::new() };
        Shared { room: Mutex::new(room), changes: watch::channel(0).0, joins: Mutex::new(joins), limits }
    }

    /// Counts an attempt to join from `address`; whether it is within the limit.
    fn may_join(&self, address: IpAddr) -> bool {
        let mut joins = self.joins.lock().unwrap_or_else(|e| e.into_inner());
        if joins.since.elapsed() >= self.limits.window {
            *joins = Joins { since: Instant::now(), counts: HashMap::new() };
        }
        let count = joins.counts.entry(address).or_insert(0);
        *count = count.saturating_add(1);
        *count <= self.limits.joins
    }

    /// Who `token` admits, once the attempt is counted; else the status to answer with.
    fn admit(&self, address: IpAddr, token: &str) -> Result<Who, StatusCode> {
        if !self.may_join(address) {
            eprintln!("serve: {address} tried to join too often; refused until the window ends");
            return Err(StatusCode::TOO_MANY_REQUESTS);
        }
        self.room().who(token).ok_or(StatusCode::NOT_FOUND)
    }

    fn room(&self) -> std::sync::MutexGuard<'_, Room> {
        // A panic while the room was held leaves it as it was between two messages.
        self.room.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The routes: the page by link, its script and style, and the WebSocket by link.
pub(super) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/", get(|| async { "Ask the host of the match for your link.\n" }))
        .route("/t/{token}", get(page))
        .route("/table.js", get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], SCRIPT) }))
        .route("/table.css", get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE) }))
        .route("/ws/{token}", get(socket))
        .with_state(shared)
}

async fn page(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    Path(token): Path<String>,
) -> Response {
    match shared.admit(from.ip(), &token) {
        Ok(_) => Html(PAGE).into_response(),
        Err(status) => refused(status),
    }
}

async fn socket(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    Path(token): Path<String>,
    upgrade: WebSocketUpgrade,
) -> Response {
    match shared.admit(from.ip(), &token) {
        Ok(who) => upgrade.max_message_size(MAX_FRAME).on_upgrade(move |socket| screen(socket, shared, who)),
        Err(status) => refused(status),
    }
}

/// The answer to a join refused: nothing but the status, and for too many attempts, when to
/// come back.
fn refused(status: StatusCode) -> Response {
    match status {
        StatusCode::TOO_MANY_REQUESTS => (status, "Too many attempts: wait a minute.\n").into_response(),
        _ => status.into_response(),
    }
}

/// One screen's connection: its table first and after every change, the answers to its own
/// messages in between.
async fn screen(mut socket: WebSocket, shared: Arc<Shared>, who: Who) {
    let mut changes = shared.changes.subscribe();
    changes.mark_unchanged();
    if send(&mut socket, &shared, who).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(ws::Message::Text(text))) => text.to_string(),
                    Some(Ok(ws::Message::Binary(_))) => String::from("(binary)"),
                    Some(Ok(ws::Message::Ping(_) | ws::Message::Pong(_))) => continue,
                    Some(Ok(ws::Message::Close(_))) | None | Some(Err(_)) => return,
                };
                let handler = shared.clone();
                let handled = tokio::task::spawn_blocking(move || {
                    let mut room = handler.room();
                    (room.handle(who, &text), room.wait_ends())
                }).await;
                let (Handled { reply, changed, unsaved }, wait_ends) = match handled {
                    Ok(handled) => handled,
                    Err(e) => {
                        eprintln!("serve: a message could not be handled ({e}); the match goes on");
                        (Handled { reply: Some(Message::Error { text: "the server failed on that message".into() }), changed: false, unsaved: None }, None)
                    }
                };
                if let (true, Some(at)) = (changed, wait_ends) {
                    // When the match stops waiting for a summary, every screen is told.
                    let shared = shared.clone();
                    tokio::spawn(async move {
                        tokio::time::sleep_until(at.into()).await;
                        shared.changes.send_modify(|n| *n += 1);
                    });
                }
                if let Some(why) = unsaved {
                    eprintln!("serve: the match could not be saved: {why}");
                }
                if let Some(reply) = reply {
                    if let Message::Error { text } = &reply {
                        eprintln!("serve: refused a message: {}", crate::printable::escape(text));
                    }
                    if socket.send(ws::Message::Text(encode(&reply).into())).await.is_err() {
                        return;
                    }
                }
                if changed {
                    shared.changes.send_modify(|n| *n += 1);
                }
            }
            changed = changes.changed() => {
                if changed.is_err() || send(&mut socket, &shared, who).await.is_err() {
                    return;
                }
            }
        }
    }
}

/// Sends `who` the table as they see it now (built on a blocking thread, as the room may be
/// held by bots thinking).
async fn send(socket: &mut WebSocket, shared: &Arc<Shared>, who: Who) -> Result<(), axum::Error> {
    let shared = shared.clone();
    let built = tokio::task::spawn_blocking(move || encode(&shared.room().screen(who))).await;
    let text = built.unwrap_or_else(|e| {
        eprintln!("serve: a table could not be built ({e}); the match goes on");
        encode(&Message::Error { text: "the server failed to show the table".into() })
    });
    socket.send(ws::Message::Text(text.into())).await
}
