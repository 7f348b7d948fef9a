//! Any bytes as messages to the language server, after the `initialize` an editor sends: the
//! bytes are cut at each NUL into JSON bodies, and each that reads as a JSON-RPC message is
//! handed to the server's dispatch ([`paradox::lsp::serve`]) over an in-memory connection.
//! The framing of the byte stream (`Content-Length`) is not fuzzed here: the target feeds the
//! dispatch, which stays the same whatever reads the frames.

#![no_main]

use libfuzzer_sys::fuzz_target;
use lsp_server::{Connection, Message, Notification, Request, RequestId};

/// How many messages one run sends.
const MESSAGES: usize = 64;

fuzz_target!(|data: &[u8]| {
    let (server, client) = Connection::memory();
    let worker = std::thread::spawn(move || paradox::lsp::serve(&server));
    let initialize = Request::new(RequestId::from(0), "initialize".into(), serde_json::json!({"capabilities": {}}));
    let _ = client.sender.send(initialize.into());
    let _ = client.sender.send(Notification::new("initialized".into(), serde_json::json!({})).into());
    for body in data.split(|b| *b == 0).take(MESSAGES) {
        if let Ok(message) = serde_json::from_slice::<Message>(body) {
            let _ = client.sender.send(message);
        }
    }
    // The server reads to the end of what was sent, answering into `receiver`, and stops.
    let Connection { sender, receiver } = client;
    drop(sender);
    for _ in receiver.iter() {}
    if let Err(panic) = worker.join() {
        std::panic::resume_unwind(panic);
    }
});
