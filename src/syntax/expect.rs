//! What the grammar expects at the end of a text: the rules pest tried where the text ran out.
//! The language server completes keywords and names with it.

use crate::syntax::grammar::Rule;
use crate::syntax::parser::detailed_error;
use pest::error::{ErrorVariant, InputLocation};

/// The rules the grammar would accept right after `text`, the start of a rule file (empty if the
/// text goes wrong before its end).
pub(crate) fn expected_after(text: &str) -> Vec<Rule> {
    expected_in(Rule::file, text)
}

/// The rules the grammar would accept right after `text`, the start of an expression (as in the
/// `{...}` of a string).
pub(crate) fn expected_in_expression(text: &str) -> Vec<Rule> {
    expected_in(Rule::expr_only, text)
}

fn expected_in(rule: Rule, text: &str) -> Vec<Rule> {
    // A character no rule accepts, so that the text cannot be complete.
    let cut = format!("{text}\u{1}");
    let Some(error) = detailed_error(rule, &cut) else { return Vec::new() };
    let at = match error.location {
        InputLocation::Pos(at) | InputLocation::Span((at, _)) => at,
    };
    let furthest = error.parse_attempts().map_or(at, |a| a.max_position);
    if at >= text.trim_end().len() && furthest >= text.trim_end().len() {
        match error.variant {
            ErrorVariant::ParsingError { positives, .. } => positives,
            ErrorVariant::CustomError { .. } => Vec::new(),
        }
    } else {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_what_may_come_next() {
        assert!(expected_after("game \"x\"\n").contains(&Rule::k_zone));
        assert_eq!(expected_after("var x: "), [Rule::type_expr]);
        assert_eq!(expected_after("zone z { see: "), [Rule::audience]);
        assert_eq!(expected_after("variant v { "), [Rule::k_replace, Rule::k_set]);
        let after_choice = expected_after("play {\n  choose c from hand[s] by s\n  ");
        for rule in [Rule::k_where, Rule::k_declare, Rule::k_as, Rule::k_move, Rule::ident] {
            assert!(after_choice.contains(&rule), "{rule:?}");
        }
    }

    #[test]
    fn nothing_is_expected_after_a_mistake() {
        assert!(expected_after("play { x = = ").is_empty());
    }
}
