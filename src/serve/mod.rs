//! `paradox serve`: a match at a table in the browser, for friends on their own devices. The
//! host is given one private link per human player and one for spectators ([`Room`]); the page
//! is plain HTML, CSS and JavaScript served from the binary, and talks to the server over one
//! WebSocket ([`http`]). Each screen is sent only its player's table, built from the engine's
//! view for that player; seats nobody plays are the bots'. The match is saved after every move.

mod http;
mod room;

pub use http::Limits;
pub use room::{Guest, MAX_REQUEST, Message, Room, Screen, Summary, Who, encode, viewer};

use std::net::SocketAddr;
use std::sync::Arc;

/// A server running on a runtime of its own, in the background, until dropped.
pub struct Server {
    address: SocketAddr,
    shared: Arc<http::Shared>,
    runtime: tokio::runtime::Runtime,
}

impl Server {
    /// Binds `address` (port 0: any free port) and serves `room` there.
    pub fn start(room: Room, address: SocketAddr, limits: Limits) -> std::io::Result<Server> {
        let listener = std::net::TcpListener::bind(address)?;
        listener.set_nonblocking(true)?;
        let address = listener.local_addr()?;
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
        let shared = Arc::new(http::Shared::new(room, limits));
        let app = http::router(shared.clone()).into_make_service_with_connect_info::<SocketAddr>();
        let listener = {
            let _entered = runtime.enter();
            tokio::net::TcpListener::from_std(listener)?
        };
        runtime.spawn(async move {
            if let Err(e) = axum::serve(listener, app).await {
                eprintln!("serve: the server stopped: {e}");
            }
        });
        Ok(Server { address, shared, runtime })
    }

    /// The address it listens on.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Runs `look` on the room as it is now (between two messages).
    pub fn with_room<T>(&self, look: impl FnOnce(&mut Room) -> T) -> T {
        look(&mut self.shared.room.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Serves until the process is stopped.
    pub fn wait(self) {
        self.runtime.block_on(std::future::pending::<()>());
    }
}
