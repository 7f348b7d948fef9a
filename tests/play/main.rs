//! Play: random and searching matches of every rule file, the engine's invariants and rounds,
//! saved positions and save files, bots, and the `play` session through its library API.

#[path = "../common/position.rs"]
mod position;
#[path = "../common/session.rs"]
mod session;

mod bots;
mod compiled;
mod compiled_search;
mod equilibrium;
mod invariants;
mod matches_end;
mod play_session;
mod random_play;
mod restore;
mod rounds;
mod saves;
mod serve;
mod table;
