//! The pest parser generated from `grammar/paradox.pest`: `ParadoxParser::parse(Rule::file, text)`
//! reads text as the grammar says (the editor grammar's tests compare their scopes with it).
//!
//! A crate of its own so that the tests' builds can optimise it (the root `Cargo.toml`'s
//! `[profile.dev.package.paradox-grammar]`): pest's parser, generic over `Rule`, is compiled
//! where the rules are, and unoptimised it took most of the time of the tests that parse.

pub use generated::{ParadoxParser, Rule};

mod generated {
    // pest_derive writes `Rule`, one variant per rule of `paradox.pest` (where the rules are
    // described), with no doc comments of its own.
    #![allow(missing_docs)]

    /// The parser of rule files, derived from `grammar/paradox.pest`.
    #[derive(pest_derive::Parser)]
    #[grammar = "../paradox.pest"]
    pub struct ParadoxParser;
}
