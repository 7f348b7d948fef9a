//! `paradox lsp`: a language server for rule files and scenarios, over standard input and
//! output (`lsp-server` for the protocol, `lsp-types` for its messages).
//!
//! The editor sends the whole text on every change. Diagnostics are published a moment after
//! the typing stops ([`DEBOUNCE`]); a request reads the document (`analysis`, made once per
//! state of the open documents and shared by the requests on it) and answers from its syntax
//! tree, its problems and the index of its names (`symbols`). A document larger than
//! [`MAX_RULE_FILE`] is not read: its one diagnostic says so. A request that fails in an
//! unforeseen way gets an error answer and the server goes on; so does a message that cannot
//! be read (`transport`).

mod analysis;
mod builtins;
mod features;
mod hunks;
mod rename;
mod semantic_tokens;
mod symbols;
mod text;
mod transport;

use text::{path_of, uri_of};

use crate::files::{self, MAX_RULE_FILE};
use analysis::Analysis;
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::*;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use symbols::{FileId, Kind, Site};
use text::Lines;
use transport::{Incoming, Outbox};

/// How long after the last change diagnostics are published.
pub const DEBOUNCE: Duration = Duration::from_millis(250);

/// How many files and folders under each workspace folder are looked at for scenarios (an
/// editor opened on a home folder must not have the whole disk read on every request).
const MAX_WORKSPACE_ENTRIES: usize = 20_000;

/// Serves one editor over standard input and output until it says exit.
pub fn serve_stdio() -> Result<(), String> {
    serve(std::io::BufReader::new(std::io::stdin()), std::io::stdout())
}

/// Answers the editor that writes `input` and reads `output`, from `initialize` to `exit`.
/// `Ok` when it says `exit` after `shutdown` (the protocol's exit code 0); `Err` says why not
/// (`exit` without `shutdown`, or the input ended first: exit code 1).
pub fn serve(input: impl BufRead + Send + 'static, output: impl Write + 'static) -> Result<(), String> {
    let (send, inbox) = std::sync::mpsc::sync_channel(4);
    std::thread::Builder::new()
        .name("paradox lsp reader".into())
        .spawn(move || transport::read_all(input, &send))
        .map_err(|e| e.to_string())?;
    Server::new().run(&inbox, &mut Outbox::new(output))
}

/// What the result of `initialize` says.
fn initialize_result() -> Value {
    serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": { "name": "paradox", "version": env!("CARGO_PKG_VERSION") },
    })
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::FULL),
            save: Some(TextDocumentSyncSaveOptions::Supported(true)),
            ..Default::default()
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into()]),
            ..Default::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        document_range_formatting_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: semantic_tokens::legend(),
                full: Some(SemanticTokensFullOptions::Bool(true)),
                ..Default::default()
            },
        )),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..Default::default()
        })),
        ..Default::default()
    }
}

#[allow(deprecated)]
fn workspace_roots(params: &InitializeParams) -> Vec<PathBuf> {
    let folders = params.workspace_folders.iter().flatten().map(|f| &f.uri);
    folders.chain(params.root_uri.as_ref()).filter_map(path_of).collect()
}

/// Where the server is in the protocol's life cycle.
#[derive(Clone, Copy, PartialEq)]
enum Phase {
    /// Waiting for `initialize`: other requests are refused.
    Starting,
    Running,
    /// After `shutdown`: requests are refused until `exit`.
    ShuttingDown,
}

/// An open document, and what has been read of it in the current state of the open documents
/// (a scenario's analysis holds the rule file it extends, which may be open too: every change
/// of any document forgets them all).
struct Document {
    /// The text; empty when the document is larger than [`MAX_RULE_FILE`].
    text: String,
    /// The size of a document too large to be read.
    too_large: Option<usize>,
    analysis: OnceCell<Rc<Analysis>>,
    /// For completion: the analysis without the line that starts at an offset.
    without_line: RefCell<Option<(usize, Rc<Analysis>)>>,
}

impl Document {
    fn new(text: String) -> Self {
        let too_large = (text.len() as u64 > MAX_RULE_FILE).then_some(text.len());
        let text = if too_large.is_some() { String::new() } else { text };
        Document { text, too_large, analysis: OnceCell::new(), without_line: RefCell::new(None) }
    }

    fn forget_analyses(&mut self) {
        self.analysis = OnceCell::new();
        self.without_line = RefCell::new(None);
    }
}

struct Server {
    phase: Phase,
    documents: HashMap<Uri, Document>,
    /// When each document's diagnostics are due.
    due: HashMap<Uri, Instant>,
    roots: Vec<PathBuf>,
}

impl Server {
    fn new() -> Self {
        Server { phase: Phase::Starting, documents: HashMap::new(), due: HashMap::new(), roots: Vec::new() }
    }

    fn run(&mut self, inbox: &Receiver<Incoming>, out: &mut Outbox) -> Result<(), String> {
        loop {
            let wait = self.due.values().min().map(|due| due.saturating_duration_since(Instant::now()));
            let incoming =
                match wait.map_or_else(|| inbox.recv().map(Some).map_err(|_| ()), |wait| recv_until(inbox, wait)) {
                    Ok(incoming) => incoming,
                    Err(()) if self.phase == Phase::ShuttingDown => return Ok(()),
                    Err(()) => return Err("the input ended without shutdown and exit".into()),
                };
            match incoming {
                Some(Incoming::Message(Message::Request(request))) => self.requested(request, out)?,
                Some(Incoming::Message(Message::Notification(n))) if n.method == "exit" => {
                    return match self.phase {
                        Phase::ShuttingDown => Ok(()),
                        _ => Err("exit without shutdown".into()),
                    };
                }
                Some(Incoming::Message(Message::Notification(n))) if self.phase == Phase::Running => {
                    self.notified(n, out)?
                }
                Some(Incoming::Refused { id, code, message }) => out.error(id, code, &message)?,
                Some(Incoming::Message(_)) | None => {}
            }
            self.publish_due(out)?;
        }
    }

    /// Answers a request, as the phase allows.
    fn requested(&mut self, request: Request, out: &mut Outbox) -> Result<(), String> {
        let refuse =
            |code: ErrorCode, message: &str| Response::new_err(request.id.clone(), code as i32, message.into());
        let response = match (self.phase, request.method.as_str()) {
            (Phase::Starting, "initialize") => {
                let params: InitializeParams = parse(request.params.clone()).unwrap_or_default();
                self.roots = workspace_roots(&params);
                self.phase = Phase::Running;
                Response::new_ok(request.id, initialize_result())
            }
            (Phase::Starting, _) => refuse(ErrorCode::ServerNotInitialized, "the server waits for initialize"),
            (Phase::Running, "initialize") => refuse(ErrorCode::InvalidRequest, "the server is already initialized"),
            (Phase::Running, "shutdown") => {
                self.phase = Phase::ShuttingDown;
                Response::new_ok(request.id, ())
            }
            (Phase::Running, _) => self.respond(request),
            (Phase::ShuttingDown, _) => refuse(ErrorCode::InvalidRequest, "the server is shutting down: only exit"),
        };
        out.send(response)
    }

    // -------------------------------------------------------------- documents

    fn notified(&mut self, notification: Notification, out: &mut Outbox) -> Result<(), String> {
        match notification.method.as_str() {
            "textDocument/didOpen" => {
                if let Some(params) = parse::<DidOpenTextDocumentParams>(notification.params) {
                    self.documents.insert(params.text_document.uri.clone(), Document::new(params.text_document.text));
                    self.changed(&params.text_document.uri, Duration::ZERO);
                }
            }
            "textDocument/didChange" => {
                if let Some(params) = parse::<DidChangeTextDocumentParams>(notification.params)
                    && let Some(change) = params.content_changes.into_iter().last()
                {
                    self.documents.insert(params.text_document.uri.clone(), Document::new(change.text));
                    self.changed(&params.text_document.uri, DEBOUNCE);
                }
            }
            "textDocument/didSave" => {
                if let Some(params) = parse::<DidSaveTextDocumentParams>(notification.params) {
                    self.changed(&params.text_document.uri, Duration::ZERO);
                }
            }
            "textDocument/didClose" => {
                if let Some(params) = parse::<DidCloseTextDocumentParams>(notification.params) {
                    let uri = params.text_document.uri;
                    self.documents.remove(&uri);
                    self.due.remove(&uri);
                    self.changed(&uri, DEBOUNCE);
                    publish(out, uri, Vec::new())?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// A document changed (or saved, or closed): its diagnostics are due after `delay`, and so
    /// are those of the other open documents, which may be scenarios extending it; what was
    /// read of them is forgotten.
    fn changed(&mut self, uri: &Uri, delay: Duration) {
        let at = Instant::now() + delay;
        for (open, document) in &mut self.documents {
            document.forget_analyses();
            let due = if open == uri { at } else { at + DEBOUNCE };
            self.due.insert(open.clone(), due);
        }
    }

    fn publish_due(&mut self, out: &mut Outbox) -> Result<(), String> {
        let now = Instant::now();
        let due: Vec<Uri> = self.due.iter().filter(|(_, at)| **at <= now).map(|(uri, _)| uri.clone()).collect();
        for uri in due {
            self.due.remove(&uri);
            let diagnostics = match self.documents.get(&uri).and_then(|d| d.too_large) {
                Some(size) => vec![too_large(size)],
                None => guarded(|| self.analyse(&uri).map(|a| features::diagnostics(&a, &uri)))
                    .ok()
                    .flatten()
                    .unwrap_or_default(),
            };
            publish(out, uri, diagnostics)?;
        }
        Ok(())
    }

    /// The text of a file: the editor's if it is open there, else the one on disk (nothing for
    /// a file larger than [`MAX_RULE_FILE`]).
    fn text_of(&self, path: &Path) -> Option<String> {
        let open = self.documents.iter().find(|(uri, _)| path_of(uri).is_some_and(|p| same_file(&p, path)));
        match open {
            Some((_, document)) => document.too_large.is_none().then(|| document.text.clone()),
            // Like every file paradox reads: a regular file within the size limit, else nothing.
            None => files::read(path, MAX_RULE_FILE, "a rule file").ok().and_then(|b| String::from_utf8(b).ok()),
        }
    }

    /// The open document's text, if it is not too large to read.
    fn text(&self, uri: &Uri) -> Option<&str> {
        self.documents.get(uri).filter(|d| d.too_large.is_none()).map(|d| d.text.as_str())
    }

    /// The analysis of an open document, made on the first request after a change.
    fn analyse(&self, uri: &Uri) -> Option<Rc<Analysis>> {
        let text = self.text(uri)?;
        let path = path_of(uri);
        let cached = &self.documents.get(uri)?.analysis;
        Some(cached.get_or_init(|| Rc::new(Analysis::new(path.as_deref(), text, &|p| self.text_of(p)))).clone())
    }

    // -------------------------------------------------------------- requests

    fn respond(&self, request: Request) -> Response {
        let id = request.id.clone();
        match guarded(|| self.answer(&request)) {
            Ok(Ok(result)) => Response::new_ok(id, result),
            Ok(Err(error)) => error_response(id, error),
            Err(panic) => Response::new_err(id, ErrorCode::InternalError as i32, panic),
        }
    }

    /// The result of a request, or an error code and message.
    fn answer(&self, request: &Request) -> Result<Value, (ErrorCode, String)> {
        let params = request.params.clone();
        let result = match request.method.as_str() {
            "textDocument/hover" => {
                let p: HoverParams = params_of(params)?;
                let at = &p.text_document_position_params;
                self.at(&at.text_document.uri, at.position, features::hover).to_value()
            }
            "textDocument/definition" => {
                let p: GotoDefinitionParams = params_of(params)?;
                let at = &p.text_document_position_params;
                self.definition(&at.text_document.uri, at.position).to_value()
            }
            "textDocument/references" => {
                let p: ReferenceParams = params_of(params)?;
                let at = &p.text_document_position;
                self.references(&at.text_document.uri, at.position, p.context.include_declaration).to_value()
            }
            "textDocument/completion" => {
                let p: CompletionParams = params_of(params)?;
                let at = &p.text_document_position;
                self.completion(&at.text_document.uri, at.position).map(CompletionResponse::Array).to_value()
            }
            "textDocument/documentSymbol" => {
                let p: DocumentSymbolParams = params_of(params)?;
                let outline = self.analyse(&p.text_document.uri).map(|a| features::outline(&a));
                outline.map(DocumentSymbolResponse::Nested).to_value()
            }
            "textDocument/formatting" => {
                let p: DocumentFormattingParams = params_of(params)?;
                self.text(&p.text_document.uri).map(|text| features::formatting(text, &p.options)).to_value()
            }
            "textDocument/rangeFormatting" => {
                let p: DocumentRangeFormattingParams = params_of(params)?;
                let formatted = self.text(&p.text_document.uri);
                formatted.map(|text| features::range_formatting(text, p.range, &p.options)).to_value()
            }
            "textDocument/codeAction" => {
                let p: CodeActionParams = params_of(params)?;
                let uri = &p.text_document.uri;
                self.analyse(uri).map(|a| features::code_actions(&a, uri, p.range)).to_value()
            }
            "textDocument/prepareRename" => {
                let p: TextDocumentPositionParams = params_of(params)?;
                let found = self.at(&p.text_document.uri, p.position, |a, offset| {
                    rename::renamable(a, offset).map(|(_, span)| Lines::new(a.text()).range(span))
                });
                found.map(PrepareRenameResponse::Range).to_value()
            }
            "textDocument/rename" => {
                let p: RenameParams = params_of(params)?;
                let (uri, position) = (&p.text_document_position.text_document.uri, p.text_document_position.position);
                let Some(analysis) = self.analyse(uri) else { return Ok(Value::Null) };
                let places = || self.references(uri, position, true).unwrap_or_default();
                let read = |path: &Path| self.text_of(path);
                let edit = rename::edit(&analysis, position, &p.new_name, &read, places);
                edit.map_err(|why| (ErrorCode::RequestFailed, why))?.to_value()
            }
            "textDocument/semanticTokens/full" => {
                let p: SemanticTokensParams = params_of(params)?;
                let tokens = self.analyse(&p.text_document.uri).map(|a| semantic_tokens::semantic_tokens(&a));
                tokens.map(SemanticTokensResult::Tokens).to_value()
            }
            method => return Err((ErrorCode::MethodNotFound, format!("paradox lsp does not answer {method}"))),
        };
        result.map_err(|e| (ErrorCode::InternalError, e.to_string()))
    }

    /// Runs a feature at a position of a document.
    fn at<T>(&self, uri: &Uri, position: Position, feature: impl Fn(&Analysis, usize) -> Option<T>) -> Option<T> {
        let analysis = self.analyse(uri)?;
        let offset = Lines::new(analysis.text()).offset(position);
        feature(&analysis, offset)
    }

    /// Completion, with the names read from the document without the line being typed (read
    /// again only when the cursor moves to another line or the text changes).
    fn completion(&self, uri: &Uri, position: Position) -> Option<Vec<CompletionItem>> {
        let text = self.text(uri)?;
        let offset = Lines::new(text).offset(position);
        let line = text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let mut cached = self.documents.get(uri)?.without_line.borrow_mut();
        let names = match &*cached {
            Some((start, names)) if *start == line => names.clone(),
            _ => {
                let path = path_of(uri);
                let without = features::without_line(text, offset);
                let names = Rc::new(Analysis::new(path.as_deref(), &without, &|p| self.text_of(p)));
                *cached = Some((line, names.clone()));
                names
            }
        };
        Some(features::completion(text, &names, offset))
    }

    fn definition(&self, uri: &Uri, position: Position) -> Option<GotoDefinitionResponse> {
        let analysis = self.analyse(uri)?;
        let offset = Lines::new(analysis.text()).offset(position);
        let site = features::definition(&analysis, offset)?;
        Some(GotoDefinitionResponse::Scalar(location(&analysis, uri, site)?))
    }

    /// Every place that refers to the name at a position: in the document, in the rule file a
    /// scenario extends, and in the other scenarios that extend the same rule file.
    fn references(&self, uri: &Uri, position: Position, with_declaration: bool) -> Option<Vec<Location>> {
        let analysis = self.analyse(uri)?;
        let offset = Lines::new(analysis.text()).offset(position);
        let (symbol, sites) = features::references(&analysis, offset)?;
        let declaration = analysis.index.symbols[symbol].site;
        let mut found: Vec<(Location, bool)> =
            sites.iter().filter_map(|&s| Some((location(&analysis, uri, s)?, Some(s) == declaration))).collect();
        let shared = !matches!(analysis.index.symbols[symbol].kind, Kind::Local | Kind::Builtin);
        if let (true, Some(site), Some(rules)) = (shared, declaration, analysis.texts[0].path.as_deref()) {
            for (scenario_uri, other) in self.scenarios_extending(rules, uri) {
                let Some(id) = other.index.declared_at(site) else { continue };
                let uses = other.index.references_to(id).filter(|r| r.site.file == 1);
                found.extend(uses.filter_map(|r| Some((location(&other, &scenario_uri, r.site)?, false))));
            }
        }
        let mut locations: Vec<Location> = found
            .into_iter()
            .filter(|(_, is_declaration)| with_declaration || !is_declaration)
            .map(|(l, _)| l)
            .collect();
        locations.dedup_by(|a, b| a.uri == b.uri && a.range == b.range);
        Some(locations)
    }

    /// The scenarios (open in the editor, or under the workspace folders) that extend a rule
    /// file, other than the document asked about, each read with that rule file.
    fn scenarios_extending(&self, rules: &Path, except: &Uri) -> Vec<(Uri, Analysis)> {
        let mut paths: Vec<PathBuf> = self.documents.keys().filter_map(path_of).collect();
        for root in &self.roots {
            paths.extend(cards_files(root, MAX_WORKSPACE_ENTRIES));
        }
        paths.sort();
        paths.dedup();
        let mut found = Vec::new();
        for path in paths {
            let Some(uri) = uri_of(&path) else { continue };
            let Some(text) = self.text_of(&path).filter(|t| t.contains("extends")) else { continue };
            if uri == *except || path_of(except).is_some_and(|p| same_file(&p, &path)) {
                continue;
            }
            let analysis = Analysis::new(Some(&path), &text, &|p| self.text_of(p));
            let extends = analysis.texts[0].path.as_deref().is_some_and(|base| same_file(base, rules));
            if analysis.is_scenario() && extends {
                found.push((uri, analysis));
            }
        }
        found
    }
}

/// The `.cards` files under a folder (not in hidden folders or `target`), among the first
/// `limit` files and folders looked at.
fn cards_files(root: &Path, limit: usize) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![root.to_path_buf()];
    let mut looked_at = 0;
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for entry in entries.flatten() {
            looked_at += 1;
            if looked_at > limit {
                return found;
            }
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            match entry.file_type() {
                Ok(t) if t.is_dir() && !name.starts_with('.') && name != "target" => folders.push(path),
                Ok(t) if t.is_file() && name.ends_with(".cards") => found.push(path),
                _ => {}
            }
        }
    }
    found
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// A site of an analysis as a location: in the document, or in the rule file it extends.
fn location(analysis: &Analysis, uri: &Uri, site: Site) -> Option<Location> {
    let file: FileId = site.file;
    let text = &analysis.texts.get(file)?.text;
    let uri = if file == analysis.this { uri.clone() } else { uri_of(analysis.texts[file].path.as_deref()?)? };
    Some(Location::new(uri, Lines::new(text).range(site.span)))
}

fn publish(out: &mut Outbox, uri: Uri, diagnostics: Vec<Diagnostic>) -> Result<(), String> {
    let params = PublishDiagnosticsParams { uri, diagnostics, version: None };
    out.send(Notification::new("textDocument/publishDiagnostics".into(), params))
}

/// The one diagnostic of a document too large to be read.
fn too_large(size: usize) -> Diagnostic {
    let message = format!(
        "this document ({}) is larger than {}, the most paradox reads for a rule file: it is not checked",
        files::size(size as u64),
        files::size(MAX_RULE_FILE)
    );
    Diagnostic {
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some("paradox".into()),
        message,
        ..Default::default()
    }
}

/// The next message, or `None` when `wait` has passed first; `Err` when the input has ended.
fn recv_until(inbox: &Receiver<Incoming>, wait: Duration) -> Result<Option<Incoming>, ()> {
    match inbox.recv_timeout(wait) {
        Ok(incoming) => Ok(Some(incoming)),
        Err(RecvTimeoutError::Timeout) => Ok(None),
        Err(RecvTimeoutError::Disconnected) => Err(()),
    }
}

fn parse<T: DeserializeOwned>(params: Value) -> Option<T> {
    serde_json::from_value(params).ok()
}

fn params_of<T: DeserializeOwned>(params: Value) -> Result<T, (ErrorCode, String)> {
    serde_json::from_value(params).map_err(|e| (ErrorCode::InvalidParams, e.to_string()))
}

fn error_response(id: RequestId, (code, message): (ErrorCode, String)) -> Response {
    Response::new_err(id, code as i32, message)
}

/// Runs a handler; a panic in it becomes an error message instead of ending the server.
fn guarded<T>(handler: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(handler)).map_err(|panic| {
        let what =
            panic.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| panic.downcast_ref::<String>().cloned());
        format!("internal error: {}", what.unwrap_or_else(|| "a panic".into()))
    })
}

/// A result as the JSON of a response (`null` for `None`).
trait ToValue {
    fn to_value(self) -> Result<Value, serde_json::Error>;
}

impl<T: serde::Serialize> ToValue for T {
    fn to_value(self) -> Result<Value, serde_json::Error> {
        serde_json::to_value(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_on_one_state_of_the_documents_share_its_analysis() {
        let mut server = Server::new();
        let uri: Uri = "file:///game.cards".parse().expect("a URI");
        server.documents.insert(uri.clone(), Document::new("game \"g\"\n".into()));
        let first = server.analyse(&uri).expect("an analysis");
        assert!(Rc::ptr_eq(&first, &server.analyse(&uri).expect("an analysis")));
        server.changed(&"file:///other.cards".parse().expect("a URI"), Duration::ZERO);
        assert!(!Rc::ptr_eq(&first, &server.analyse(&uri).expect("an analysis")));
    }

    #[test]
    fn the_workspace_is_looked_through_up_to_a_limit() {
        let root = tempfile::tempdir().expect("a temporary folder");
        let deep = root.path().join("a/b");
        std::fs::create_dir_all(&deep).expect("folders");
        for name in ["x.cards", "notes.txt", "y.cards"] {
            std::fs::write(deep.join(name), "").expect("a file");
        }
        std::fs::create_dir(root.path().join(".hidden")).expect("a folder");
        std::fs::write(root.path().join(".hidden/z.cards"), "").expect("a file");
        let mut all = cards_files(root.path(), 100);
        all.sort();
        assert_eq!(all, [deep.join("x.cards"), deep.join("y.cards")]);
        // `.hidden`, `a`, `b` and one file of `b`: at most one `.cards` file seen.
        assert!(cards_files(root.path(), 4).len() <= 1);
        assert!(cards_files(root.path(), 2).is_empty());
    }
}
