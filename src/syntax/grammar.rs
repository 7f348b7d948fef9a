//! The pest parser generated from `grammar/paradox.pest`: `ParadoxParser::parse(Rule::file, text)`
//! reads text as the grammar says (the editor grammar's tests compare their scopes with it).

pub use generated::{ParadoxParser, Rule};

mod generated {
    // pest_derive writes `Rule`, one variant per rule of `grammar/paradox.pest` (where the rules
    // are described), with no doc comments of its own.
    #![allow(missing_docs)]

    /// The parser of rule files, derived from `grammar/paradox.pest`.
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/paradox.pest"]
    pub struct ParadoxParser;
}
