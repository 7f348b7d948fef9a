//! Any bytes as what an editor sends to the language server ([`paradox::lsp::serve`]), after a
//! well-framed `initialize`: the bytes go through the server's own framing (`Content-Length`
//! headers, lengths past its limit, bodies that are not JSON or not JSON-RPC) and dispatch, and
//! the server must answer or drop each message and end when its input does, never panic.

#![no_main]

use libfuzzer_sys::fuzz_target;

/// A message framed as the protocol frames it.
fn framed(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

fuzz_target!(|data: &[u8]| {
    let mut input = framed(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}"#);
    input.extend(framed(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#));
    input.extend_from_slice(data);
    // The input ends without `exit`: the server says so (`Err`), which is not a failure here.
    let _ = paradox::lsp::serve(std::io::Cursor::new(input), std::io::sink());
});
