//! The `paradox` binary end to end: exit codes and output, scripted `play` sessions, `trace`
//! snapshots, and hostile input found by fuzzing.

#[path = "../common/run.rs"]
mod run;
#[path = "../common/session.rs"]
mod session;
#[path = "../common/short.rs"]
mod short;

mod cli;
mod engines;
mod hostile;
mod ladder;
mod sessions;
mod traces;
