//! `paradox lsp`: a language server for rule files.

/// Serves one editor over standard input and output until it says exit.
pub fn serve_stdio() -> Result<(), String> {
    Err("not yet".into())
}
