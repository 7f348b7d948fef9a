//! The pest parser generated from `grammar/paradox.pest`: `ParadoxParser::parse(Rule::file, text)`
//! reads text as the grammar says. It lives in the crate `paradox-grammar` (`grammar/`), which
//! the tests' builds optimise.

pub use paradox_grammar::{ParadoxParser, Rule};
