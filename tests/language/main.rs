//! The language: what the checker makes of rule files and what it says of mistakes, the
//! formatter, the editors' grammar, and hostile or random text that must never crash or hang it.

#[path = "../common/short.rs"]
mod short;
#[path = "../common/table.rs"]
mod table;

mod compiled;
mod diagnostics;
mod format;
mod properties;
mod robustness;
mod rules_check;
mod textmate;
