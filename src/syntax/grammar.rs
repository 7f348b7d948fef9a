//! The pest parser generated from `grammar/paradox.pest`.

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/paradox.pest"]
pub struct ParadoxParser;
