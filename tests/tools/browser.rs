//! `paradox serve` in a real browser: headless Chromium, driven through chromedriver's
//! WebDriver protocol (a few JSON requests, written here), plays a whole match of a small
//! trick game by clicking the cards marked playable, goes on from each round's summary,
//! sees tricks resolve into the last trick, sees a click made while the connection is down
//! refused with a word (the page then reconnects), and reloads the page mid-match (then plays
//! on) and at the end, to find the table as it was. Without chromedriver the test says so and passes,
//! except under CI (`.ci/run` installs Debian's `chromium` and `chromium-driver`).
#![cfg(feature = "serve")]

use crate::session::setup;
use paradox::repl::Session;
use paradox::serve::{Limits, Room, Server};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};

/// More clicks than a match of Little Tricks takes.
const MAX_CLICKS: usize = 400;

/// The click before which the page's connection is closed (it reconnects).
const DROP_AT: usize = 1;

/// The click before which the page is reloaded, mid-match (it is reloaded at the end too).
const RELOAD_AT: usize = 2;

/// chromedriver, stopped when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Driver {
    /// chromedriver on a free port, once it says it has started; `None` if it is not installed.
    fn start() -> Option<Driver> {
        let port = std::net::TcpListener::bind("127.0.0.1:0").ok()?.local_addr().ok()?.port();
        let mut child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let out = child.stdout.take()?;
        let driver = Driver { child, port };
        let started = BufReader::new(out).lines().map_while(Result::ok).any(|l| l.contains("started successfully"));
        started.then_some(driver)
    }

    /// A WebDriver request: its `value`, or a panic with the driver's error.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("chromedriver answers");
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .expect("a request");
        // The answer's head, then as many bytes as it says (chromedriver keeps the connection).
        let mut reader = BufReader::new(stream);
        let mut length = 0;
        let mut line = String::new();
        while reader.read_line(&mut line).expect("a header") > 2 {
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().expect("a length");
            }
            line.clear();
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).expect("the answer's body");
        let value: Value = serde_json::from_slice(&body).unwrap_or_else(|e| panic!("{e}: {body:?}"));
        assert!(value["value"]["error"].is_null(), "{method} {path}: {value}");
        value["value"].clone()
    }
}

/// A browser session of the driver.
struct Browser<'a> {
    driver: &'a Driver,
    id: String,
}

impl Browser<'_> {
    fn open(driver: &Driver) -> Browser<'_> {
        let options = json!({"args": ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1024,900"]});
        let capabilities = json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": options}}});
        let session = driver.call("POST", "/session", Some(capabilities));
        let id = session["sessionId"].as_str().expect("a session").to_string();
        // Waiting for the page is bounded by what it waits for, not by time: a generous ceiling.
        let browser = Browser { driver, id };
        browser.call("POST", "timeouts", Some(json!({"script": 600_000})));
        browser
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.driver.call(method, &format!("/session/{}/{path}", self.id), body)
    }

    /// Runs `script` in the page until it calls back; its value.
    fn wait(&self, script: &str) -> Value {
        self.call("POST", "execute/async", Some(json!({"script": script, "args": []})))
    }

    /// Waits until the page has had more than `seen` tables and one of them asks something of
    /// the person or ends the match; what it shows.
    fn settled(&self, seen: u64) -> Value {
        let script = format!(
            "const done = arguments[arguments.length - 1];
             const look = () => {{
               const tables = Number(document.body.dataset.tables || 0);
               const summary = !document.getElementById('summary').hidden;
               const legal = document.querySelectorAll('#mine .card.legal').length;
               const result = document.getElementById('result').textContent;
               if (tables > {seen} && (summary || legal || result)) {{
                 done({{tables, summary, legal, result,
                        middle: document.getElementById('middle').textContent,
                        mine: document.getElementById('mine').textContent}});
               }} else {{ setTimeout(look, 20); }}
             }};
             look();"
        );
        self.wait(&script)
    }

    /// Reloads the page showing `page`: the new page shows the same table; what it shows.
    fn reloaded(&self, page: &Value) -> Value {
        self.call("POST", "refresh", Some(json!({})));
        // A new page: its count of tables starts again.
        let again = self.settled(0);
        let shown = |p: &Value| [p["mine"].clone(), p["middle"].clone(), p["summary"].clone(), p["result"].clone()];
        assert_eq!(shown(&again), shown(page));
        again
    }

    /// Closes the page's connection and at once clicks a playable card: the page says the move
    /// was not sent; then it reconnects and is sent the table again. What it shows then.
    fn dropped(&self, page: &Value) -> Value {
        let script = "socket.close(); document.querySelector('#mine .card.legal').click(); \
                      return document.getElementById('said').textContent;";
        let said = self.call("POST", "execute/sync", Some(json!({"script": script, "args": []})));
        assert!(said.as_str().is_some_and(|s| s.starts_with("Not sent")), "{said}");
        self.settled(page["tables"].as_u64().expect("a count"))
    }

    fn click(&self, css: &str) {
        let found = self.call("POST", "element", Some(json!({"using": "css selector", "value": css})));
        let element = found.as_object().and_then(|o| o.values().next()).and_then(Value::as_str).expect("an element");
        self.call("POST", &format!("element/{element}/click"), Some(json!({})));
    }
}

impl Drop for Browser<'_> {
    fn drop(&mut self) {
        let _ = self.driver.call("DELETE", &format!("/session/{}", self.id), None);
    }
}

#[test]
fn a_whole_match_is_played_by_clicking_in_headless_chromium() {
    let Some(driver) = Driver::start() else {
        assert!(std::env::var_os("CI").is_none(), "chromedriver is not installed: .ci/run installs chromium-driver");
        eprintln!(
            "chromedriver is not installed (apt-get install chromium chromium-driver): the browser test is skipped"
        );
        return;
    };
    let session = Session::start(setup("tests/fixtures/valid/little-tricks.cards", &[0])).0;
    let address: SocketAddr = "127.0.0.1:0".parse().expect("an address");
    let server = Server::start(Room::new(session, None), address, Limits::default()).expect("the server starts");
    let token = server.with_room(|room| room.guests()[0].token.clone());
    let link = format!("http://127.0.0.1:{}/t/{token}", server.address().port());
    let browser = Browser::open(&driver);
    browser.call("POST", "url", Some(json!({"url": link})));
    let (mut clicks, mut resolved) = (0, false);
    let mut seen = 0;
    loop {
        assert!(clicks < MAX_CLICKS, "the match did not end in {MAX_CLICKS} clicks");
        let mut page = browser.settled(seen);
        if clicks == DROP_AT {
            page = browser.dropped(&page);
        }
        if clicks == RELOAD_AT {
            // The reloaded page counts its tables from 0: `seen` is taken from it, not kept.
            page = browser.reloaded(&page);
        }
        seen = page["tables"].as_u64().expect("a count");
        resolved |= page["middle"].as_str().is_some_and(|m| m.contains("last trick"));
        if page["result"].as_str().is_some_and(|r| !r.is_empty()) {
            browser.reloaded(&page);
            break;
        }
        if page["summary"] == true {
            browser.click("#go-on");
        } else {
            browser.click("#mine .card.legal");
        }
        clicks += 1;
    }
    let over = server.with_room(|room| room.session().state().is_over());
    assert!(over, "the page showed a result: the match is over");
    assert!(resolved, "a trick was seen taken, as the last trick");
    assert!(clicks > RELOAD_AT, "the page was reloaded mid-match and played on ({clicks} clicks)");
}
