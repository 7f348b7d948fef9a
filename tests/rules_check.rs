//! Every rule file in `rules/` must be accepted.

use paradox::syntax::grammar::{ParadoxParser, Rule};
use pest::Parser;

#[test]
fn every_rule_file_parses() {
    let mut failures = Vec::new();
    for entry in std::fs::read_dir("rules").expect("rules/ exists") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "cards") {
            let text = std::fs::read_to_string(&path).unwrap();
            if let Err(e) = ParadoxParser::parse(Rule::file, &text) {
                failures.push(format!("{}:\n{e}", path.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
