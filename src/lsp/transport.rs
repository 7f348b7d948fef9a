//! The wire of `paradox lsp`: JSON-RPC messages framed by `Content-Length` headers. Nothing
//! read here ends the server while the framing holds: a body that is not JSON, or JSON that is
//! not a JSON-RPC message, is answered with a parse error (-32700) or an invalid request
//! (-32600) when it asks for an answer, and dropped with a line on standard error when it is a
//! notification. A length past [`MAX_MESSAGE`] is refused before anything is allocated for it
//! (its bytes are skipped); headers that cannot be read mean the framing is lost, and reading
//! ends cleanly.

use crate::files::{self, MAX_RULE_FILE};
use lsp_server::{ErrorCode, Message};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Value, json};
use std::io::{self, BufRead, Read, Write};
use std::sync::mpsc::SyncSender;

/// The longest message read: a document of [`MAX_RULE_FILE`] bytes fits, with room for its
/// escapes in JSON and the rest of the message. Longer ones are skipped unread.
pub(super) const MAX_MESSAGE: u64 = 2 * MAX_RULE_FILE;
/// The longest header line, and the most header lines a message may have.
const MAX_HEADER_LINE: u64 = 1024;
const MAX_HEADERS: usize = 16;

/// What the reader hands the server.
pub(super) enum Incoming {
    Message(Message),
    /// A request that could not be read: it is answered with this error (`id` is null when the
    /// request's own could not be read).
    Refused {
        id: Value,
        code: ErrorCode,
        message: String,
    },
}

/// Reads messages until the input ends or its framing is lost, handing each to `to`; stops
/// when no one is listening any more.
pub(super) fn read_all(mut input: impl BufRead, to: &SyncSender<Incoming>) {
    loop {
        let body = match read_frame(&mut input) {
            Ok(Some(body)) => body,
            Ok(None) => return,
            Err(lost) => return log(&lost),
        };
        if let Some(incoming) = decode(&body)
            && to.send(incoming).is_err()
        {
            return;
        }
    }
}

/// A line on standard error: the editor shows it in the server's log.
pub(super) fn log(what: &str) {
    eprintln!("paradox lsp: {what}");
}

/// The body of the next message within the limit (skipping those past it), `None` at the end
/// of the input, `Err` when the framing is lost.
fn read_frame(input: &mut impl BufRead) -> Result<Option<Vec<u8>>, String> {
    loop {
        let Some(length) = read_headers(input)? else { return Ok(None) };
        if length > MAX_MESSAGE {
            log(&format!(
                "a message of {length} bytes is skipped: it is larger than {}, the most paradox lsp reads",
                files::size(MAX_MESSAGE)
            ));
            let skipped = io::copy(&mut input.take(length), &mut io::sink()).map_err(|e| e.to_string())?;
            if skipped < length {
                return Err("the input ended inside a message".into());
            }
            continue;
        }
        let mut body = Vec::new();
        input.take(length).read_to_end(&mut body).map_err(|e| e.to_string())?;
        if (body.len() as u64) < length {
            return Err("the input ended inside a message".into());
        }
        return Ok(Some(body));
    }
}

/// The `Content-Length` of the next message; `None` at the end of the input.
fn read_headers(input: &mut impl BufRead) -> Result<Option<u64>, String> {
    let mut length = None;
    let mut headers = 0;
    loop {
        let Some(line) = read_line(input)? else {
            return if headers == 0 { Ok(None) } else { Err("the input ended inside a message's headers".into()) };
        };
        if line.is_empty() {
            if headers == 0 {
                continue; // blank lines between messages
            }
            return length.map(Some).ok_or_else(|| "a message without Content-Length: the framing is lost".into());
        }
        headers += 1;
        if headers > MAX_HEADERS {
            return Err(format!("a message with more than {MAX_HEADERS} header lines: the framing is lost"));
        }
        let lost =
            || format!("a header that cannot be read: {:?}: the framing is lost", String::from_utf8_lossy(&line));
        let (name, value) = std::str::from_utf8(&line).ok().and_then(|l| l.split_once(':')).ok_or_else(lost)?;
        if name.trim().eq_ignore_ascii_case("Content-Length") {
            length = Some(value.trim().parse::<u64>().map_err(|_| lost())?);
        }
    }
}

/// A header line without its line end; `None` at the end of the input.
fn read_line(input: &mut impl BufRead) -> Result<Option<Vec<u8>>, String> {
    let mut line = Vec::new();
    input.take(MAX_HEADER_LINE + 1).read_until(b'\n', &mut line).map_err(|e| e.to_string())?;
    if line.is_empty() {
        return Ok(None);
    }
    if line.pop() != Some(b'\n') {
        return Err(format!("a header line longer than {MAX_HEADER_LINE} bytes: the framing is lost"));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some(line))
}

/// What a message's body asks: a message, an error answer, or nothing (a notification that
/// cannot be read is dropped).
fn decode(body: &[u8]) -> Option<Incoming> {
    let value = match serde_json::from_slice::<Value>(body) {
        Ok(value) => value,
        Err(e) => {
            let object = body.trim_ascii_start().starts_with(b"{");
            let envelope = if object { serde_json::from_slice(body).unwrap_or_default() } else { Envelope::default() };
            return refuse(envelope, ErrorCode::ParseError, format!("a message that is not JSON: {e}"));
        }
    };
    let envelope =
        if value.is_object() { Envelope::deserialize(&value).unwrap_or_default() } else { Envelope::default() };
    match serde_json::from_value::<Message>(value) {
        Ok(message) => Some(Incoming::Message(message)),
        Err(e) => refuse(envelope, ErrorCode::InvalidRequest, format!("a message that is not JSON-RPC: {e}")),
    }
}

/// The parts of a message that say whether and how to answer it, read without its parameters
/// (so that a message whose parameters cannot be read still has its `id` answered).
#[derive(Deserialize, Default)]
#[serde(default)]
struct Envelope {
    id: Option<Value>,
    method: Option<IgnoredAny>,
    result: Option<IgnoredAny>,
    error: Option<IgnoredAny>,
}

fn refuse(envelope: Envelope, code: ErrorCode, message: String) -> Option<Incoming> {
    let id = envelope.id.filter(|id| id.is_string() || id.is_number());
    let notification = envelope.method.is_some() && id.is_none();
    let response = envelope.method.is_none() && (envelope.result.is_some() || envelope.error.is_some());
    if notification || response {
        log(&format!("dropped {message}"));
        return None;
    }
    log(&message);
    Some(Incoming::Refused { id: id.unwrap_or(Value::Null), code, message })
}

/// Writes messages to the editor.
pub(super) struct Outbox {
    out: Box<dyn Write>,
}

impl Outbox {
    pub(super) fn new(out: impl Write + 'static) -> Self {
        Outbox { out: Box::new(out) }
    }

    pub(super) fn send(&mut self, message: impl Into<Message>) -> Result<(), String> {
        let mut value = serde_json::to_value(message.into()).map_err(|e| e.to_string())?;
        if let Some(fields) = value.as_object_mut() {
            fields.insert("jsonrpc".into(), "2.0".into());
        }
        self.write(&value)
    }

    /// An error answer to a request, whose `id` may be null.
    pub(super) fn error(&mut self, id: Value, code: ErrorCode, message: &str) -> Result<(), String> {
        let error = json!({ "code": code as i32, "message": message });
        self.write(&json!({ "jsonrpc": "2.0", "id": id, "error": error }))
    }

    fn write(&mut self, value: &Value) -> Result<(), String> {
        let body = value.to_string();
        let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        frame.extend_from_slice(body.as_bytes());
        self.out.write_all(&frame).and_then(|()| self.out.flush()).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(body: &str) -> Vec<u8> {
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }

    /// What the reader makes of some bytes: the messages' methods, `!code id` for refusals.
    fn read(input: &[u8]) -> Vec<String> {
        let (send, receive) = std::sync::mpsc::sync_channel(100);
        read_all(input, &send);
        drop(send);
        receive
            .iter()
            .map(|incoming| match incoming {
                Incoming::Message(Message::Request(r)) => r.method,
                Incoming::Message(Message::Notification(n)) => n.method,
                Incoming::Message(Message::Response(r)) => format!("response {}", r.id),
                Incoming::Refused { id, code, .. } => format!("!{} {id}", code as i32),
            })
            .collect()
    }

    #[test]
    fn bad_bodies_are_answered_or_dropped_and_reading_goes_on() {
        let bodies: [&[u8]; 9] = [
            b"{not json",
            br#"{"id": 7, "method": "x", "params": {"text": "\ud800"}}"#,
            b"{\"id\": 8, \"method\": \"x\", \"params\": \"\xff\"}",
            br#"{"method": "x", "params": "\udc00"}"#,
            br#"{"id": 9, "method": 5}"#,
            br#"[1, 2]"#,
            br#"{"method": 5}"#,
            br#"{"id": "a", "result": 1}"#,
            br#"{"id": 3, "method": "hover"}"#,
        ];
        let mut input = Vec::new();
        for body in bodies {
            input.extend(format!("Content-Length: {}\r\n\r\n", body.len()).bytes());
            input.extend(body);
        }
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        input.extend(framed(&deep));
        assert_eq!(
            read(&input),
            [
                "!-32700 null",
                "!-32700 7",
                "!-32700 8",
                "!-32600 9",
                "!-32600 null",
                "response \"a\"",
                "hover",
                "!-32700 null"
            ]
        );
    }

    #[test]
    fn lengths_past_the_limit_are_skipped_unread() {
        let mut input = format!("Content-Length: {}\r\n\r\n", MAX_MESSAGE + 1).into_bytes();
        input.resize(input.len() + MAX_MESSAGE as usize + 1, b' ');
        input.extend(framed(r#"{"id": 1, "method": "after"}"#));
        assert_eq!(read(&input), ["after"]);
        // A length larger than any memory: skipped up to the end of the input.
        let mut input = b"Content-Length: 18446744073709551615\r\n\r\n".to_vec();
        input.extend(framed(r#"{"id": 1, "method": "swallowed"}"#));
        assert!(read(&input).is_empty());
    }

    #[test]
    fn lost_framing_ends_reading() {
        for lost in [
            "Content-Type: x\r\n\r\n{}",
            "Content-Length: -1\r\n\r\n",
            "Content-Length: 99999999999999999999999\r\n\r\n",
            "garbage\r\n\r\n",
        ] {
            let mut input = lost.as_bytes().to_vec();
            input.extend(framed(r#"{"id": 1, "method": "after"}"#));
            assert!(read(&input).is_empty(), "{lost:?}");
        }
        let long = format!("X-{}: 1\r\n", "a".repeat(5000));
        assert!(read(long.as_bytes()).is_empty());
        let body = r#"{"id":1,"method":"a"}"#;
        let lenient = format!("\r\n\ncontent-length:{}\n\n{body}", body.len());
        assert_eq!(read(lenient.as_bytes()), ["a"]);
    }
}
