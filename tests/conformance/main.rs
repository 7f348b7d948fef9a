//! Games played through the State API by move names: the CONFORMANCE.md positions and the
//! RULINGS.md rulings of each rule file, the small example games, the language's constructs
//! played out, and what the seat to act is told at the table.

#[path = "../common/session.rs"]
mod session;
#[path = "../common/table.rs"]
mod table;

mod piles;
mod reads;

mod anarchy;
mod at_the_table;
mod buddy;
mod classics;
mod constructs;
mod costly_tricks;
mod examples;
mod pairadox;
mod tantony;
mod third_man;
