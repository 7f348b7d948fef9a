//! paradox: a rules language and interpreter for card games.

pub mod bench;
pub mod bots;
pub mod check;
pub mod compare;
pub mod diagnostic;
pub mod engine;
pub mod eval;
pub mod files;
pub mod format;
pub mod game;
pub mod load;
pub mod lsp;
pub mod repl;
pub mod report;
pub mod sim;
pub mod solve;
pub mod stats;
pub mod trace;
pub mod syntax {
    //! Reading a rule file: the pest grammar, the typed syntax tree and the parser.
    pub mod ast;
    pub mod describe;
    pub mod expect;
    pub mod grammar;
    pub mod limits;
    pub mod parser;
    pub mod tokens;
    pub use parser::{parse, parse_partial};
}
