//! The tools built on the engine: `compare`, `sim` and `merge` with their statistics,
//! `check --simulate`, the exact solver, and the language server.

#[path = "../common/position.rs"]
mod position;
#[path = "../common/run.rs"]
mod run;
// Only its setup is used here.
#[allow(dead_code)]
#[path = "../common/session.rs"]
mod session;
#[path = "../common/short.rs"]
mod short;

mod browser;
mod compare;
mod lsp;
mod plain;
mod serve;
mod simulate;
mod solve;
mod statistics;
