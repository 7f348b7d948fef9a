//! `paradox lsp`, driven over JSON-RPC as an editor drives it: the built binary is started, and
//! each test opens real rule files (and files with mistakes) and asks what an editor asks.

use crate::run::command;
use crate::short::short;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{Receiver, channel};

/// How many other messages may come before the one waited for (see [`Client::wait_for`]).
const MAX_UNWANTED: usize = 1000;

/// A running server and the messages it has sent that no one has read yet.
struct Client {
    child: Child,
    input: ChildStdin,
    messages: Receiver<Value>,
    unread: Vec<Value>,
    next_id: u64,
    /// What the server said it can do.
    capabilities: Value,
}

impl Client {
    /// Starts the server and initializes it with the crate's folder as the workspace.
    fn start() -> Client {
        let mut child = command(["lsp"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let input = child.stdin.take().expect("stdin");
        let output = child.stdout.take().expect("stdout");
        let (send, messages) = channel();
        std::thread::spawn(move || {
            let mut output = BufReader::new(output);
            while let Some(message) = read_message(&mut output) {
                if send.send(message).is_err() {
                    break;
                }
            }
        });
        let mut client = Client { child, input, messages, unread: Vec::new(), next_id: 0, capabilities: Value::Null };
        let root = uri(Path::new(env!("CARGO_MANIFEST_DIR")));
        let init = client.request("initialize", json!({ "processId": null, "rootUri": root, "capabilities": {} }));
        assert!(init["result"]["capabilities"]["hoverProvider"].as_bool().unwrap_or(false), "{init}");
        client.capabilities = init["result"]["capabilities"].clone();
        client.notify("initialized", json!({}));
        client
    }

    fn send(&mut self, message: Value) {
        self.send_body(message.to_string().as_bytes());
    }

    /// Sends any bytes as a message's body, framed with their length.
    fn send_body(&mut self, body: &[u8]) {
        write!(self.input, "Content-Length: {}\r\n\r\n", body.len()).expect("the server reads");
        self.input.write_all(body).expect("the server reads");
        self.input.flush().expect("the server reads");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request and waits for its answer (keeping what else arrives meanwhile).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        self.wait_for(|m| m["id"] == json!(id))
    }

    /// The result of a request; fails on an error answer.
    fn result(&mut self, method: &str, params: Value) -> Value {
        let answer = self.request(method, params);
        assert!(answer.get("error").is_none(), "{method}: {answer}");
        answer["result"].clone()
    }

    /// The first message (read or still to come) that `wanted` accepts.
    fn wait_for(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.unread.iter().position(&wanted) {
            return self.unread.remove(i);
        }
        // The server answers a request after at most a diagnostics notification per document
        // open: a flood of other messages fails the test rather than filling memory.
        for _ in 0..MAX_UNWANTED {
            match self.messages.recv() {
                Ok(message) if wanted(&message) => return message,
                Ok(message) => self.unread.push(message),
                Err(_) => panic!("the server stopped; read {}", self.shown()),
            }
        }
        panic!("no answer among {MAX_UNWANTED} messages; read {}", self.shown())
    }

    /// The messages read and not wanted yet, for a failure message.
    fn shown(&self) -> String {
        short(&format!("{:#?}", self.unread))
    }

    /// The diagnostics published for a document, the next time they are.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let published =
            self.wait_for(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == json!(uri));
        published["params"]["diagnostics"].as_array().cloned().unwrap_or_default()
    }

    fn open(&mut self, uri: &str, text: &str) {
        let document = json!({ "uri": uri, "languageId": "paradox", "version": 1, "text": text });
        self.notify("textDocument/didOpen", json!({ "textDocument": document }));
    }

    fn change(&mut self, uri: &str, version: i32, text: &str) {
        let params = json!({
            "textDocument": { "uri": uri, "version": version },
            "contentChanges": [{ "text": text }],
        });
        self.notify("textDocument/didChange", params);
    }

    /// Asks `method` at a position.
    fn at(&mut self, method: &str, uri: &str, position: Value) -> Value {
        self.result(method, json!({ "textDocument": { "uri": uri }, "position": position }))
    }

    /// Shuts the server down as an editor does; it must exit cleanly.
    fn stop(mut self) {
        let answer = self.request("shutdown", Value::Null);
        assert!(answer.get("error").is_none(), "{answer}");
        self.notify("exit", Value::Null);
        let status = self.child.wait().expect("the server exits");
        assert!(status.success(), "{status}");
    }
}

fn read_message(output: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if output.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse().ok();
        }
    }
    let mut body = vec![0; length?];
    output.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

fn path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// A project file's URI and text.
fn file(relative: &str) -> (String, String) {
    let path = path(relative);
    let text = std::fs::read_to_string(&path).expect("a project file");
    (uri(&path), text)
}

/// The position of the `n`th character of the first occurrence of `needle` in `text`.
fn position(text: &str, needle: &str, n: usize) -> Value {
    let at = text.find(needle).unwrap_or_else(|| panic!("no {needle:?}")) + n;
    let line = text[..at].matches('\n').count();
    let column = text[..at].rfind('\n').map_or(at, |i| at - i - 1);
    json!({ "line": line, "character": column })
}

/// The byte offset of a protocol position (a line and a UTF-16 column) in a text.
fn offset(text: &str, position: &Value) -> usize {
    let line = position["line"].as_u64().expect("a line") as usize;
    let start = text.split_inclusive('\n').take(line).map(str::len).sum::<usize>();
    let mut units = position["character"].as_u64().expect("a column") as usize;
    let mut at = start;
    for c in text[start..].chars().take_while(|&c| c != '\n') {
        if units == 0 {
            break;
        }
        units = units.saturating_sub(c.len_utf16());
        at += c.len_utf8();
    }
    at
}

/// A text with text edits made, as an editor makes them.
fn edited(text: &str, edits: &Value) -> String {
    let mut spans: Vec<(usize, usize, &str)> = edits
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| (offset(text, &e["range"]["start"]), offset(text, &e["range"]["end"]), e["newText"].as_str().unwrap()))
        .collect();
    spans.sort_by_key(|&(start, ..)| std::cmp::Reverse(start));
    let mut out = text.to_string();
    for (start, end, new) in spans {
        out.replace_range(start..end, new);
    }
    out
}

fn labels(items: &Value) -> Vec<String> {
    items.as_array().into_iter().flatten().filter_map(|i| i["label"].as_str().map(String::from)).collect()
}

// ------------------------------------------------------------------ diagnostics

#[test]
fn a_misspelled_name_is_underlined_with_code_label_and_help() {
    let (uri, text) = file("rules/costly-tricks.cards");
    let mut client = Client::start();
    client.open(&uri, &text.replace("tricks[side(taker)] += 1", "trikcs[side(taker)] += 1"));
    let found = client.diagnostics(&uri);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["code"], "paradox::E0101");
    assert_eq!(found[0]["severity"], 1);
    assert_eq!(found[0]["message"], "unknown name `trikcs`: not defined\nhelp: did you mean `tricks`?");
    assert_eq!(found[0]["range"]["start"], position(&text, "tricks[side(taker)] += 1", 0));
    client.stop();
}

#[test]
fn each_broken_declaration_is_underlined() {
    let (uri, text) = file("tests/fixtures/invalid/syntax-several-errors.cards");
    let mut client = Client::start();
    client.open(&uri, &text);
    let found = client.diagnostics(&uri);
    let lines: Vec<u64> = found.iter().filter_map(|d| d["range"]["start"]["line"].as_u64()).collect();
    assert_eq!(lines, [4, 7, 34, 62], "{found:#?}");
    assert!(found.iter().all(|d| d["code"] == "paradox::E0001"));
    client.stop();
}

#[test]
fn a_valid_file_gets_no_diagnostics_and_a_fixed_mistake_clears_them() {
    let (uri, text) = file("rules/tantony.cards");
    let mut client = Client::start();
    client.open(&uri, &text);
    assert!(client.diagnostics(&uri).is_empty());
    client.change(&uri, 2, &text.replace("deals_played += 1", "deals_played += true"));
    assert_eq!(client.diagnostics(&uri)[0]["code"], "paradox::E0103");
    client.change(&uri, 3, &text);
    assert!(client.diagnostics(&uri).is_empty());
    client.stop();
}

#[test]
fn diagnostics_wait_until_the_typing_stops() {
    let (uri, text) = file("rules/third-man.cards");
    let mut client = Client::start();
    client.open(&uri, &text);
    assert!(client.diagnostics(&uri).is_empty());
    // Typing `xyz` at the end of the file, a key at a time.
    for (version, end) in ["\nx", "\nxy", "\nxyz"].iter().enumerate() {
        client.change(&uri, version as i32 + 2, &format!("{text}{end}"));
    }
    let found = client.diagnostics(&uri);
    assert!(found[0]["message"].as_str().unwrap_or_default().contains("`xyz`"), "{found:#?}");
    // Only one publication for the three changes: the next one comes from a new change.
    client.change(&uri, 9, &text);
    assert!(client.diagnostics(&uri).is_empty(), "a second publication for the typing");
    client.stop();
}

#[test]
fn a_scenario_is_checked_with_the_rule_file_it_extends() {
    let (uri, text) = file("examples/tantony-quota.cards");
    let mut client = Client::start();
    client.open(&uri, &text);
    assert!(client.diagnostics(&uri).is_empty());
    client.change(&uri, 2, &text.replacen("dealer = West", "dealer = Wset", 1));
    let found = client.diagnostics(&uri);
    assert_eq!(found[0]["code"], "paradox::E0101", "{found:#?}");
    assert!(found[0]["message"].as_str().unwrap_or_default().ends_with("did you mean `West`?"), "{found:#?}");
    client.change(&uri, 3, &text.replace("../rules/tantony.cards", "../rules/nothing.cards"));
    assert_eq!(client.diagnostics(&uri)[0]["code"], "paradox::E0115");
    client.stop();
}

// ------------------------------------------------------------------ hover

#[test]
fn hover_tells_what_a_name_is() {
    let (uri, text) = file("rules/costly-tricks.cards");
    let mut client = Client::start();
    client.open(&uri, &text);
    let mut hover = |needle: &str, n: usize| {
        let found = client.at("textDocument/hover", &uri, position(&text, needle, n));
        found["contents"]["value"].as_str().unwrap_or_default().to_string()
    };
    let parameter = hover("trick_cost * tricks", 0);
    assert!(parameter.contains("param trick_cost: int = 20 in 0..220"), "{parameter}");
    assert!(parameter.contains("default `20`") && parameter.contains("range `0..220`"), "{parameter}");
    assert!(parameter.contains("points a trick costs the side that wins it"), "{parameter}");
    let variable = hover("trump = c.colour", 0);
    assert!(variable.contains("var trump: Colour? = none reset trick"), "{variable}");
    assert!(variable.contains("The trump of the trick in progress"), "{variable}");
    let builtin = hover("others(leader)", 0);
    assert!(builtin.contains("others(seat): list of seats") && builtin.contains("built-in"), "{builtin}");
    let member = hover("colour: red, rank: 0", 8);
    assert!(member.contains("member of the enumeration `Colour`"), "{member}");
    let local = hover("move opener to trick", 5);
    assert!(local.contains("choose opener from hand[leader] by leader"), "{local}");
    assert!(hover("say \"the round is drawn", 0).is_empty(), "a keyword is not a name");
    client.stop();
}

// ------------------------------------------------------------------ definition and references

#[test]
fn definition_jumps_to_the_declaration() {
    let (uri, text) = file("rules/buddy-on-your-left.cards");
    let mut client = Client::start();
    client.open(&uri, &text);
    let found = client.at("textDocument/definition", &uri, position(&text, "award(s)", 0));
    assert_eq!(found["uri"], json!(uri));
    assert_eq!(found["range"]["start"], position(&text, "award(s: seat)", 0));
    let attribute = client.at("textDocument/definition", &uri, position(&text, "c.points", 2));
    assert_eq!(attribute["range"]["start"], position(&text, "points: int", 0));
    client.stop();
}

#[test]
fn definition_from_a_scenario_opens_the_rule_file() {
    let (uri, text) = file("examples/costly-tricks-trump-zero-wins.cards");
    let (rules_uri, rules) = file("rules/costly-tricks.cards");
    let mut client = Client::start();
    client.open(&uri, &text);
    let found = client.at("textDocument/definition", &uri, position(&text, "GhostA]", 0));
    assert_eq!(found["uri"], json!(rules_uri));
    assert_eq!(found["range"]["start"], position(&rules, "GhostA \"A's ghost\"", 0));
    let phase = client.at("textDocument/definition", &uri, position(&text, "phase deal", 6));
    assert_eq!(phase["range"]["start"], position(&rules, "deal {", 0));
    client.stop();
}

#[test]
fn references_reach_across_a_rule_file_and_its_scenarios() {
    let (uri, text) = file("rules/costly-tricks.cards");
    let mut client = Client::start();
    client.open(&uri, &text);
    let params = |text: &str, needle: &str| {
        json!({
            "textDocument": { "uri": uri.clone() },
            "position": position(text, needle, 0),
            "context": { "includeDeclaration": true },
        })
    };
    let found = client.result("textDocument/references", params(&text, "GhostA \"A's ghost\""));
    let files: Vec<&str> = found.as_array().into_iter().flatten().filter_map(|l| l["uri"].as_str()).collect();
    assert!(files.iter().filter(|f| f.ends_with("rules/costly-tricks.cards")).count() >= 3, "{files:#?}");
    assert!(files.iter().any(|f| f.ends_with("examples/costly-tricks-trump-zero-wins.cards")), "{files:#?}");
    assert!(!files.iter().any(|f| f.contains("tantony")), "{files:#?}");
    // From a scenario: the same name in the rule file and in the scenario.
    let (scenario_uri, scenario) = file("examples/costly-tricks-trump-zero-wins.cards");
    client.open(&scenario_uri, &scenario);
    let from_scenario = json!({
        "textDocument": { "uri": scenario_uri },
        "position": position(&scenario, "GhostA]", 0),
        "context": { "includeDeclaration": false },
    });
    let found = client.result("textDocument/references", from_scenario);
    let files: Vec<&str> = found.as_array().into_iter().flatten().filter_map(|l| l["uri"].as_str()).collect();
    assert!(files.iter().any(|f| f.ends_with("rules/costly-tricks.cards")), "{files:#?}");
    assert!(files.iter().any(|f| f.ends_with("costly-tricks-trump-zero-wins.cards")), "{files:#?}");
    client.stop();
}

#[test]
fn hover_and_completion_know_zone_parameters() {
    let (uri, text) = file("tests/fixtures/valid/zone-parameters.cards");
    let mut client = Client::start();
    client.open(&uri, &text);
    let found = client.at("textDocument/hover", &uri, position(&text, "worth(hand[s])", 0));
    let definition = found["contents"]["value"].as_str().unwrap_or_default();
    assert!(definition.contains("define worth(z: zone): int"), "{definition}");
    let found = client.at("textDocument/hover", &uri, position(&text, "z of c.rank", 0));
    let parameter = found["contents"]["value"].as_str().unwrap_or_default();
    assert!(parameter.contains("z: zone"), "{parameter}");
    let typed = text.replacen("define tops(z: zone)", "define tops(z: )", 1);
    client.change(&uri, 2, &typed);
    let types = labels(&client.at("textDocument/completion", &uri, position(&typed, "z: )", 3)));
    assert!(types.contains(&"zone".to_string()) && types.contains(&"card".to_string()), "{types:?}");
    client.stop();
}

// ------------------------------------------------------------------ completion

#[test]
fn completion_offers_what_fits_where_the_cursor_is() {
    let (uri, text) = file("rules/costly-tricks.cards");
    let mut client = Client::start();
    client.open(&uri, &text);
    let attributes = client.at("textDocument/completion", &uri, position(&text, "opener.colour", 7));
    assert_eq!(labels(&attributes), ["colour", "points", "rank"]);
    // At the start of a statement in a block: statement keywords and names.
    let statement = client.at("textDocument/completion", &uri, position(&text, "let taker", 0));
    let statement = labels(&statement);
    for word in ["let", "choose", "move", "say", "for", "tricks", "leader", "best", "left"] {
        assert!(statement.contains(&word.to_string()), "{word} missing from {statement:?}");
    }
    assert!(!statement.contains(&"param".to_string()), "{statement:?}");
    // At the top level: declarations.
    let top = client.at("textDocument/completion", &uri, position(&text, "result highest", 0));
    assert!(labels(&top).contains(&"variant".to_string()), "{top}");
    // After `redo`: phases.
    let typed = text.replacen("leader = taker\n", "leader = taker\n          redo \n", 1);
    client.change(&uri, 2, &typed);
    let phases = client.at("textDocument/completion", &uri, position(&typed, "redo \n", 5));
    assert_eq!(labels(&phases), ["deal", "round", "trick"]);
    client.stop();
}

#[test]
fn completion_in_a_scenario_offers_parameters_and_their_values() {
    let (uri, text) = file("examples/costly-tricks-trump-zero-wins.cards");
    let mut client = Client::start();
    let typed = text.replacen("  replace phase deal {", "  set \n  replace phase deal {", 1);
    client.open(&uri, &typed);
    let names = client.at("textDocument/completion", &uri, position(&typed, "set \n", 4));
    assert_eq!(labels(&names), ["chips_to_win", "free_new_trump", "trick_cost", "tug_of_war"]);
    let typed = typed.replacen("set \n", "set tug_of_war = \n", 1);
    client.change(&uri, 2, &typed);
    let values = client.at("textDocument/completion", &uri, position(&typed, "= \n", 2));
    assert_eq!(labels(&values), ["true", "false"]);
    let start = client.at("textDocument/completion", &uri, position(&typed, "  set", 0));
    assert_eq!(labels(&start), ["replace", "set"]);
    client.stop();
}

#[test]
fn completion_inside_a_template_offers_what_an_expression_may_hold() {
    let (uri, text) = file("rules/costly-tricks.cards");
    let mut client = Client::start();
    client.open(&uri, &text);
    let names = labels(&client.at("textDocument/completion", &uri, position(&text, "{worth}", 1)));
    for name in ["worth", "taker", "best", "tricks", "trick_cost", "sum", "left", "if"] {
        assert!(names.contains(&name.to_string()), "{name} missing from {names:?}");
    }
    assert!(!names.contains(&"let".to_string()), "a statement keyword in an expression: {names:?}");
    // In the expression's own words: its binder, and attributes after a `.`.
    let typed = text.replacen("worth {worth}\"", "worth {sum c in trick of c.} {c}\"", 1);
    client.change(&uri, 2, &typed);
    let attributes = client.at("textDocument/completion", &uri, position(&typed, "c.}", 2));
    assert_eq!(labels(&attributes), ["colour", "points", "rank"]);
    // A card's name reads the card's attributes.
    let card = labels(&client.at("textDocument/completion", &uri, position(&typed, "{rank}", 1)));
    assert!(card.contains(&"rank".to_string()) && card.contains(&"Colour".to_string()), "{card:?}");
    // Not in the text of a string, after an escaped brace, or among the words of a plural.
    let typed = typed.replacen("wins the trick", "wins \\{the trick {tricks[taker]|trick|tricks}", 1);
    client.change(&uri, 3, &typed);
    for (needle, n) in [("wins \\{", 1), ("\\{the", 2), ("|trick|", 1), ("with {", 0)] {
        let here = client.at("textDocument/completion", &uri, position(&typed, needle, n));
        assert_eq!(here, json!([]), "at {needle:?}");
    }
    // A template after a plural.
    let after_plural = labels(&client.at("textDocument/completion", &uri, position(&typed, "with {", 6)));
    assert!(after_plural.contains(&"best".to_string()), "{after_plural:?}");
    client.stop();
}

// ------------------------------------------------------------------ outline, formatting, fixes

#[test]
fn the_outline_lists_the_declarations_and_the_phases() {
    let (uri, text) = file("rules/costly-tricks.cards");
    let mut client = Client::start();
    client.open(&uri, &text);
    let outline = client.result("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
    let names: Vec<&str> = outline.as_array().into_iter().flatten().filter_map(|s| s["name"].as_str()).collect();
    for name in ["trick_cost", "Colour", "card", "hand", "chips", "net", "play", "tug_of_war_short", "SideA", "A"] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    let play = outline.as_array().into_iter().flatten().find(|s| s["name"] == "play").expect("play");
    let round = &play["children"][0];
    assert_eq!(round["name"], "round");
    let inner: Vec<&str> =
        round["children"].as_array().into_iter().flatten().filter_map(|s| s["name"].as_str()).collect();
    assert_eq!(inner, ["deal", "trick"]);
    client.stop();
}

#[test]
fn formatting_gives_the_formatter_s_layout() {
    let (uri, text) = file("tests/fixtures/format/messy-layout.cards");
    let mut client = Client::start();
    client.open(&uri, &text);
    let params = json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 2, "insertSpaces": true } });
    let edits = client.result("textDocument/formatting", params.clone());
    assert_eq!(edits.as_array().map(Vec::len), Some(1), "{edits}");
    let formatted = paradox::format::format(&text).expect("formats");
    assert_eq!(edited(&text, &edits), formatted);
    // The comment that opens the file stays as it is, and so is left out of the edit.
    assert_eq!(edits[0]["range"]["start"], json!({ "line": 1, "character": 0 }));
    client.change(&uri, 2, &formatted);
    assert_eq!(client.result("textDocument/formatting", params), json!([]), "formatted already");
    client.stop();
}

#[test]
fn formatting_keeps_a_missing_final_newline_and_windows_line_ends() {
    let messy = std::fs::read_to_string(path("tests/fixtures/format/messy-layout.cards")).expect("a fixture");
    let formatted = paradox::format::format(&messy).expect("formats");
    let params =
        |uri: &str| json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 2, "insertSpaces": true } });
    let mut client = Client::start();
    for (name, line_end) in [("unix", "\n"), ("windows", "\r\n")] {
        let (messy, formatted) = (messy.replace('\n', line_end), formatted.replace('\n', line_end));
        // Without a final newline: the editor keeps it so (Neovim writes one on saving).
        let uri = format!("file:///tmp/{name}-no-final-newline.cards");
        let cut = |text: &str| text.strip_suffix(line_end).expect("a final newline").to_string();
        client.open(&uri, &cut(&messy));
        let edits = client.result("textDocument/formatting", params(&uri));
        assert_eq!(edited(&cut(&messy), &edits), cut(&formatted), "{name}: {edits}");
        client.change(&uri, 2, &cut(&formatted));
        assert_eq!(client.result("textDocument/formatting", params(&uri)), json!([]), "{name}: formatted already");
        // With one: the edits touch only the lines that change.
        let uri = format!("file:///tmp/{name}.cards");
        let touched = formatted.replacen("phase", "phase   ", 1);
        client.open(&uri, &touched);
        let edits = client.result("textDocument/formatting", params(&uri));
        assert_eq!(edited(&touched, &edits), formatted, "{name}: {edits}");
        let lines = &edits[0]["range"];
        assert_eq!(lines["end"]["line"].as_u64().unwrap() - lines["start"]["line"].as_u64().unwrap(), 1, "{edits}");
    }
    client.stop();
}

#[test]
fn range_formatting_changes_only_the_lines_the_range_touches() {
    let (uri, formatted) = file("rules/costly-tricks.cards");
    assert_eq!(paradox::format::format(&formatted).ok().as_deref(), Some(formatted.as_str()), "formatted already");
    // Two lines far apart each with spaces the formatter takes out.
    let (first, last) = (formatted.find("phase ").expect("a phase"), formatted.rfind("phase ").expect("a phase"));
    let line = |at: usize| formatted[..at].matches('\n').count();
    assert!(line(last) > line(first) + 5, "two phases apart");
    let spaced = |text: &str, at: usize| format!("{}phase   {}", &text[..at], &text[at + "phase ".len()..]);
    let touched = spaced(&spaced(&formatted, last), first);
    let mut client = Client::start();
    assert_eq!(client.capabilities["documentRangeFormattingProvider"], json!(true));
    client.open(&uri, &touched);
    let mut format = |start: (usize, usize), end: (usize, usize)| {
        let range = json!({
            "start": { "line": start.0, "character": start.1 },
            "end": { "line": end.0, "character": end.1 }
        });
        let options = json!({ "tabSize": 2, "insertSpaces": true });
        let edits = client.result(
            "textDocument/rangeFormatting",
            json!({ "textDocument": { "uri": uri }, "range": range, "options": options }),
        );
        edited(&touched, &edits)
    };
    // What came out, shown by the lines it differs in from what was wanted (the file is long).
    let same = |got: String, wanted: String, what: &str| {
        let differ: Vec<(&str, &str)> = got.lines().zip(wanted.lines()).filter(|(g, w)| g != w).collect();
        assert!(got == wanted, "{what}: lines got and wanted that differ: {differ:?}");
    };
    same(format((line(first), 0), (line(first) + 1, 0)), spaced(&formatted, last), "the first line selected whole");
    same(format((line(last), 3), (line(last), 3)), spaced(&formatted, first), "the cursor in the last line");
    same(format((line(first) + 1, 0), (line(last), 0)), touched.clone(), "the lines between them");
    same(format((0, 0), (line(formatted.len()), 0)), formatted.clone(), "the whole document");
    client.stop();
}

#[test]
fn rename_changes_the_places_the_name_resolves_to_and_no_others() {
    let (uri, text) = file("rules/costly-tricks.cards");
    let mut client = Client::start();
    client.open(&uri, &text);
    let rename =
        |at: Value, name: &str| json!({ "textDocument": { "uri": uri.clone() }, "position": at, "newName": name });
    let prepared = client.at("textDocument/prepareRename", &uri, position(&text, "{worth}", 3));
    assert_eq!(prepared["start"], position(&text, "{worth}", 1), "{prepared}");
    let edit = client.result("textDocument/rename", rename(position(&text, "{worth}", 3), "value"));
    let renamed = edited(&text, &edit["changes"][&uri]);
    // The `let` and the template; not the word in the comment nor the word in the text.
    let expected = text.replacen("let worth", "let value", 1).replacen("{worth}", "{value}", 1);
    assert_eq!(renamed, expected);
    // A name that would mean something else somewhere is refused.
    let refused = client.request("textDocument/rename", rename(position(&text, "{worth}", 3), "taker"));
    assert!(refused["error"]["message"].as_str().is_some_and(|m| m.contains("taker")), "{refused}");
    let keyword = client.request("textDocument/rename", rename(position(&text, "{worth}", 3), "while"));
    assert!(keyword.get("error").is_some(), "{keyword}");
    // A seat: in the rule file and in the scenarios that extend it.
    let edit = client.result("textDocument/rename", rename(position(&text, "GhostA \"", 0), "Shadow"));
    let changes = edit["changes"].as_object().expect("changes");
    assert!(changes.keys().any(|f| f.ends_with("examples/costly-tricks-trump-zero-wins.cards")), "{edit}");
    let renamed = edited(&text, &changes[&uri]);
    assert!(!renamed.contains("GhostA") && renamed.contains("Shadow \"A's ghost\""), "{renamed}");
    // From a scenario: the rule file is read again renamed, so the rename is not refused.
    let (scenario_uri, scenario) = file("examples/costly-tricks-trump-zero-wins.cards");
    client.open(&scenario_uri, &scenario);
    let from_scenario = json!({
        "textDocument": { "uri": scenario_uri },
        "position": position(&scenario, "GhostB]", 0),
        "newName": "Shade",
    });
    let edit = client.result("textDocument/rename", from_scenario);
    let renamed = edited(&scenario, &edit["changes"][&scenario_uri]);
    assert_eq!(renamed, scenario.replace("GhostB", "Shade"), "{edit}");
    assert!(edit["changes"][&uri].as_array().is_some_and(|e| e.len() >= 3), "{edit}");
    client.stop();
}

#[test]
fn semantic_tokens_colour_each_name_as_what_it_resolves_to() {
    let (uri, text) = file("rules/costly-tricks.cards");
    let mut client = Client::start();
    client.open(&uri, &text);
    let tokens = client.result("textDocument/semanticTokens/full", json!({ "textDocument": { "uri": uri } }));
    let data: Vec<u64> = tokens["data"].as_array().expect("data").iter().map(|n| n.as_u64().unwrap()).collect();
    // Decoded: (offset, length, type, modifiers).
    let legend = &client.capabilities["semanticTokensProvider"]["legend"];
    let names = |key: &str| -> Vec<String> {
        legend[key].as_array().expect(key).iter().map(|t| t.as_str().unwrap().to_string()).collect()
    };
    let (types, modifiers) = (names("tokenTypes"), names("tokenModifiers"));
    let (mut line, mut column) = (0, 0);
    let mut found = std::collections::HashMap::new();
    for token in data.chunks(5) {
        line += token[0];
        column = if token[0] == 0 { column + token[1] } else { token[1] };
        let at = offset(&text, &json!({ "line": line, "character": column }));
        let mods: Vec<&str> =
            (0..modifiers.len()).filter(|b| token[4] & (1 << b) != 0).map(|b| modifiers[b].as_str()).collect();
        found.insert(at, (&text[at..at + token[2] as usize], types[token[3] as usize].as_str(), mods.join(" ")));
    }
    let at = |needle: &str, n: usize| found.get(&(text.find(needle).expect(needle) + n)).cloned();
    assert_eq!(at("trick_cost: int", 0), Some(("trick_cost", "variable", "declaration readonly".into())));
    assert_eq!(at("colour: Colour", 8), Some(("Colour", "enum", String::new())));
    assert_eq!(at("{worth}", 1), Some(("worth", "variable", String::new())));
    assert_eq!(at("let worth", 4), Some(("worth", "variable", "declaration".into())));
    assert_eq!(at("net(t: side)", 0), Some(("net", "function", "declaration".into())));
    assert_eq!(at("net(t: side)", 4), Some(("t", "parameter", "declaration".into())));
    assert_eq!(at("net(t: side)", 7), Some(("side", "type", "defaultLibrary".into())));
    // The word in a comment is no name.
    assert_eq!(at("worth their rank", 0), None);
    client.stop();
}

#[test]
fn a_quick_fix_replaces_a_misspelled_name() {
    let (uri, text) = file("rules/pairadox.cards");
    let typed = text.replace("got_shape = c.shape", "got_shape = c.shap");
    let mut client = Client::start();
    client.open(&uri, &typed);
    let at = position(&typed, "c.shap\n", 2);
    let params = json!({
        "textDocument": { "uri": uri },
        "range": { "start": at, "end": at },
        "context": { "diagnostics": [] },
    });
    let actions = client.result("textDocument/codeAction", params);
    assert_eq!(actions[0]["title"], "Replace `shap` with `shape`", "{actions}");
    assert_eq!(actions[0]["kind"], "quickfix");
    let edit = &actions[0]["edit"]["changes"][&uri][0];
    assert_eq!(edit["newText"], "shape");
    assert_eq!(edit["range"]["start"], at);
    client.stop();
}

// ------------------------------------------------------------------ robustness

/// An editor sends every state of a file while it is typed: the server answers each request
/// on each of them, and never stops.
#[test]
fn half_typed_files_never_stop_the_server() {
    let (uri, text) = file("rules/anarchy.cards");
    let mut client = Client::start();
    client.open(&uri, "");
    let cuts: Vec<usize> = text.char_indices().map(|(i, _)| i).step_by(61).chain([text.len()]).collect();
    for (version, &cut) in cuts.iter().enumerate() {
        let typed = &text[..cut];
        client.change(&uri, version as i32 + 2, typed);
        let end = position(&format!("{typed}\u{1}"), "\u{1}", 0);
        for method in ["textDocument/hover", "textDocument/completion", "textDocument/definition"] {
            client.at(method, &uri, end.clone());
        }
        client.result("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
        let range = json!({ "start": { "line": 0, "character": 0 }, "end": end });
        let actions = json!({ "textDocument": { "uri": uri }, "range": range, "context": { "diagnostics": [] } });
        client.result("textDocument/codeAction", actions);
        let options = json!({ "tabSize": 2, "insertSpaces": true });
        client.result("textDocument/formatting", json!({ "textDocument": { "uri": uri }, "options": options }));
    }
    // The diagnostics of the states typed before are of no interest: those of the whole file are.
    client.unread.retain(|m| m["method"] != "textDocument/publishDiagnostics");
    client.change(&uri, cuts.len() as i32 + 2, &text);
    let found = client.diagnostics(&uri);
    assert!(found.is_empty(), "the whole file at last: {found:#?}");
    client.stop();
}

#[test]
fn an_unknown_request_gets_an_error_and_the_server_goes_on() {
    let mut client = Client::start();
    let answer = client.request("textDocument/inlayHint", json!({}));
    assert_eq!(answer["error"]["code"], -32601, "{answer}");
    let answer = client.request("textDocument/hover", json!({ "nonsense": true }));
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    let unopened =
        json!({ "textDocument": { "uri": "file:///nowhere.cards" }, "position": { "line": 0, "character": 0 } });
    assert_eq!(client.result("textDocument/hover", unopened), Value::Null);
    client.stop();
}

/// Malformed messages whose framing holds: each gets the error answer JSON-RPC gives (with the
/// request's `id` where it can be read, else null) or, for a notification, none; a request sent
/// after each is answered.
#[test]
fn malformed_messages_are_answered_and_the_server_goes_on() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    // Each body, with the error code and the id of its answer (none for a notification).
    type Answer = Option<(i64, Value)>;
    let bodies: [(&[u8], Answer); 8] = [
        (b"{not json", Some((-32700, Value::Null))),
        (
            br#"{"jsonrpc": "2.0", "id": 70, "method": "textDocument/hover", "params": "\ud800"}"#,
            Some((-32700, json!(70))),
        ),
        (b"{\"jsonrpc\": \"2.0\", \"id\": 71, \"method\": \"x\", \"params\": \"\xff\xfe\"}", Some((-32700, json!(71)))),
        (br#"{"hello": "world"}"#, Some((-32600, Value::Null))),
        (br#"{"jsonrpc": "2.0", "id": "seventy-two", "method": 72}"#, Some((-32600, json!("seventy-two")))),
        (deep.as_bytes(), Some((-32700, Value::Null))),
        (br#"{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"text": "\udc00"}}"#, None),
        (br#"{"jsonrpc": "2.0", "method": 5}"#, None),
    ];
    let mut client = Client::start();
    let unopened =
        json!({ "textDocument": { "uri": "file:///nowhere.cards" }, "position": { "line": 0, "character": 0 } });
    for (body, answer) in bodies {
        client.send_body(body);
        let after = client.request("textDocument/hover", unopened.clone());
        assert_eq!(after["result"], Value::Null, "after {:?}: {after}", String::from_utf8_lossy(body));
        let errors: Vec<Value> =
            std::mem::take(&mut client.unread).into_iter().filter(|m| m.get("error").is_some()).collect();
        let found: Vec<(i64, Value)> =
            errors.iter().map(|m| (m["error"]["code"].as_i64().unwrap_or(0), m["id"].clone())).collect();
        assert_eq!(found, Vec::from_iter(answer), "{:?}", String::from_utf8_lossy(body));
    }
    client.stop();
}

/// A message longer than the server reads (twice the 16 MiB file limit) is skipped unread.
#[test]
fn a_message_past_the_limit_is_skipped_and_the_server_goes_on() {
    let mut client = Client::start();
    client.send_body(&vec![b' '; (32 << 20) + 1]);
    let unopened = json!({ "textDocument": { "uri": "file:///x.cards" }, "position": { "line": 0, "character": 0 } });
    assert_eq!(client.result("textDocument/hover", unopened), Value::Null);
    client.stop();
}

/// Runs the server on `input` (then the end of its input) within 1 GiB of address space.
fn serve_raw(input: &[u8]) -> Output {
    let mut child = Command::new("sh")
        .args(["-c", "ulimit -v 1048576 && exec \"$0\" lsp", env!("CARGO_BIN_EXE_paradox")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    child.stdin.take().expect("stdin").write_all(input).expect("the server reads");
    child.wait_with_output().expect("the server ends")
}

/// Lengths no memory holds are refused before anything is allocated: the bytes that follow are
/// skipped to the end of the input, and the server ends cleanly (exit code 1: no `exit`).
#[test]
fn lengths_larger_than_memory_are_refused_without_allocating() {
    let request = r#"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}"#;
    for length in ["18446744073709551615", "3000000000"] {
        let input = format!("Content-Length: {length}\r\n\r\nContent-Length: {}\r\n\r\n{request}", request.len());
        let output = serve_raw(input.as_bytes());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{length}: {stderr}");
        assert!(stderr.contains(&format!("a message of {length} bytes is skipped")), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn a_document_past_the_file_limit_is_refused_with_a_diagnostic() {
    let mut client = Client::start();
    let uri = "file:///huge.cards";
    client.open(uri, &format!("// {}", "x".repeat(16 << 20)));
    let found = client.diagnostics(uri);
    assert_eq!(found.len(), 1, "{found:#?}");
    let message = found[0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("larger than 16 MiB"), "{message}");
    let at = json!({ "line": 0, "character": 5 });
    assert_eq!(client.at("textDocument/hover", uri, at), Value::Null);
    client.stop();
}

/// `exit` ends the server with 0 after `shutdown` and 1 without; a request between the two gets
/// an error answer and the server waits on for `exit`.
#[test]
fn exit_codes_follow_the_protocol() {
    let mut client = Client::start();
    assert_eq!(client.result("shutdown", Value::Null), Value::Null);
    let late = client.request("textDocument/hover", json!({}));
    assert_eq!(late["error"]["code"], -32600, "{late}");
    client.notify("exit", Value::Null);
    assert_eq!(client.child.wait().expect("the server exits").code(), Some(0));

    let mut client = Client::start();
    client.notify("exit", Value::Null);
    assert_eq!(client.child.wait().expect("the server exits").code(), Some(1));
}
