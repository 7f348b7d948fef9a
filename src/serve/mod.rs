//! `paradox serve`: a match at a table in the browser, for friends on their own devices. The
//! host is given one private link per human player and one for spectators ([`Room`]); the page
//! is plain HTML, CSS and JavaScript served from the binary, and talks to the server over one
//! WebSocket (the `http` module). Each screen is sent only its player's table, built from the engine's
//! view for that player; seats nobody plays are the bots'. The match is saved after every move.

mod http;
mod room;

pub use http::Limits;
pub use room::{Guest, MAX_REQUEST, Message, Room, Screen, Summary, Who, encode, viewer};

use axum::extract::connect_info::IntoMakeServiceWithConnectInfo;
use std::net::SocketAddr;
use std::sync::Arc;

/// A server serving in the background, on a thread of its own.
pub struct Server {
    address: SocketAddr,
    shared: Arc<http::Shared>,
    thread: std::thread::JoinHandle<()>,
}

impl Server {
    /// Binds `address` (port 0: any free port) and serves `room` there.
    pub fn start(room: Room, address: SocketAddr, limits: Limits) -> std::io::Result<Server> {
        let listener = std::net::TcpListener::bind(address)?;
        listener.set_nonblocking(true)?;
        let address = listener.local_addr()?;
        let shared = Arc::new(http::Shared::new(room, limits));
        let app = http::router(shared.clone()).into_make_service_with_connect_info::<SocketAddr>();
        let thread = std::thread::Builder::new().name("paradox serve".into()).spawn(move || serve_on(listener, app))?;
        Ok(Server { address, shared, thread })
    }

    /// The address it listens on.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Runs `look` on the room as it is now (between two messages).
    pub fn with_room<T>(&self, look: impl FnOnce(&mut Room) -> T) -> T {
        look(&mut self.shared.room.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Serves until the process is stopped (or the server fails).
    pub fn wait(self) {
        let _ = self.thread.join();
    }
}

/// Serves `app` on `listener`, on tokio's threads, until it fails.
#[tokio::main]
async fn serve_on(listener: std::net::TcpListener, app: IntoMakeServiceWithConnectInfo<axum::Router, SocketAddr>) {
    let served = match tokio::net::TcpListener::from_std(listener) {
        Ok(listener) => axum::serve(listener, app).await,
        Err(e) => Err(e),
    };
    if let Err(e) = served {
        eprintln!("serve: the server stopped: {e}");
    }
}
