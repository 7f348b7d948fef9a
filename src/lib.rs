//! paradox: a rules language and interpreter for card games.

pub mod check;
pub mod diagnostic;
pub mod game;
pub mod load;
pub mod report;
pub mod syntax {
    //! Reading a rule file: the pest grammar and the typed syntax tree.
    pub mod ast;
    pub mod grammar;
}
