//! One open document read and checked: its syntax tree (what of it parses), its problems, and
//! the index of its names. A scenario is read with the rule file it extends, whose text comes
//! from the editor when it is open there and from the disk otherwise.

use super::symbols::{FileId, Index};
use super::text::normalized;
use crate::check::{self, Origin, Settings};
use crate::diagnostic::Problem;
use crate::load::{base_path, cannot_extend};
use crate::syntax::ast::{File, FileBody, Item, ParamDecl, Scenario, Span};
use crate::syntax::comments::Extra;
use std::path::{Path, PathBuf};

/// A text that an analysis read: the document, or the rule file a scenario extends.
pub(super) struct Text {
    pub path: Option<PathBuf>,
    pub text: String,
    /// Its comments and empty lines, as the parser found them (none if it does not parse).
    pub extra: Extra,
}

pub(super) struct Analysis {
    /// The rule file (0) and, for a scenario, the scenario (1).
    pub texts: Vec<Text>,
    /// Which of `texts` is the document.
    pub this: FileId,
    /// What of the document parses.
    pub file: Option<File>,
    /// The rule file's declarations (the base's, for a scenario).
    pub items: Vec<Item>,
    pub index: Index,
    /// Every problem in the document.
    pub problems: Vec<Problem>,
}

impl Analysis {
    /// Reads a document; `read` gives the text of another file (the base of a scenario).
    pub(super) fn new(path: Option<&Path>, text: &str, read: &dyn Fn(&Path) -> Option<String>) -> Analysis {
        let (file, syntax) = crate::syntax::parse_partial(text);
        let extra = file.as_ref().map(|f| f.extra.clone()).unwrap_or_default();
        let document = Text { path: path.map(Path::to_path_buf), text: text.to_string(), extra };
        match file.as_ref().map(|f| &f.body) {
            Some(FileBody::Scenario(scenario)) => {
                let scenario = scenario.clone();
                Analysis::scenario(document, file, scenario, syntax, read)
            }
            _ => {
                let items = match file.as_ref().map(|f| &f.body) {
                    Some(FileBody::Rules(items)) => items.clone(),
                    _ => Vec::new(),
                };
                let problems = if syntax.is_empty() { check_rules(&items, None).0 } else { syntax };
                let index = Index::build(&items, None);
                Analysis { texts: vec![document], this: 0, file, items, index, problems }
            }
        }
    }

    fn scenario(
        document: Text,
        file: Option<File>,
        scenario: Scenario,
        syntax: Vec<Problem>,
        read: &dyn Fn(&Path) -> Option<String>,
    ) -> Analysis {
        let base_path = document.path.as_ref().map(|p| normalized(&base_path(p, &scenario.extends.value)));
        let base_text = base_path.as_deref().and_then(read);
        let base = base_text.as_deref().map(crate::syntax::parse);
        let items = match &base {
            Some(Ok(File { body: FileBody::Rules(items), .. })) => items.clone(),
            _ => Vec::new(),
        };
        let mut problems = syntax;
        if problems.is_empty() {
            problems = match (&base_path, &base) {
                (None, _) => vec![cannot_extend(
                    &scenario,
                    "the scenario is not saved in a file yet",
                    "save it next to the rule files",
                )],
                (Some(path), None) => {
                    vec![cannot_extend(
                        &scenario,
                        &format!("no file {}", path.display()),
                        "the path is relative to the folder of the scenario",
                    )]
                }
                (Some(_), Some(Err(found))) => vec![cannot_extend(
                    &scenario,
                    &format!("the rule file has {} syntax problem(s)", found.len()),
                    "open the rule file to see them",
                )],
                (Some(_), Some(Ok(File { body: FileBody::Scenario(_), .. }))) => {
                    vec![cannot_extend(
                        &scenario,
                        "it is itself a scenario",
                        "a scenario extends a rule file, not another scenario",
                    )]
                }
                (Some(_), Some(Ok(_))) => {
                    let (own, in_base) = check_rules(&items, Some(&scenario));
                    let mut problems = own;
                    if let Some(first) = in_base.first() {
                        let why = format!("the rule file has problems: {}", first.message);
                        problems.push(cannot_extend(&scenario, &why, "open the rule file to see them"));
                    }
                    problems
                }
            };
        }
        let index = Index::build(&items, Some(&scenario));
        let extra = base.and_then(Result::ok).map(|f| f.extra).unwrap_or_default();
        let base = Text { path: base_path, text: base_text.unwrap_or_default(), extra };
        Analysis { texts: vec![base, document], this: 1, file, items, index, problems }
    }

    /// The document's text.
    pub(super) fn text(&self) -> &str {
        &self.texts[self.this].text
    }

    /// Whether the document is a scenario.
    pub(super) fn is_scenario(&self) -> bool {
        self.this == 1
    }

    /// The declaration of the parameter `name`, in the rule file.
    pub(super) fn param(&self, name: &str) -> Option<&ParamDecl> {
        self.items.iter().find_map(|item| match item {
            Item::Param(p) if p.name.name == name => Some(p),
            _ => None,
        })
    }
}

/// Checks rules (with a scenario): the problems in the file checked (the scenario if there is
/// one), and those in the rule file a scenario extends.
fn check_rules(items: &[Item], scenario: Option<&Scenario>) -> (Vec<Problem>, Vec<Problem>) {
    let Err(found) = check::check(items, scenario, &Settings::default()) else { return (Vec::new(), Vec::new()) };
    let (mut own, mut base) = (Vec::new(), Vec::new());
    for (origin, problem) in found {
        match (origin, scenario) {
            (Origin::Rules, Some(_)) => base.push(problem),
            _ => own.push(problem),
        }
    }
    (own, base)
}

/// Where a problem's span is, clamped to a text.
pub(super) fn clamp(span: Span, text: &str) -> Span {
    let end = span.end.min(text.len());
    Span::new(span.start.min(end), end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels_with_base(base: &str) -> Vec<String> {
        let scenario = "scenario \"s\" extends \"base.cards\" {}";
        let analysis = Analysis::new(Some(Path::new("/games/s.cards")), scenario, &|_| Some(base.to_string()));
        analysis.problems.iter().map(|p| p.label.clone()).collect()
    }

    #[test]
    fn a_scenario_says_what_is_wrong_with_its_base() {
        assert_eq!(labels_with_base("scenario \"t\" extends \"s.cards\" {}"), ["it is itself a scenario"]);
        let empty = labels_with_base("// nothing written yet\n");
        assert!(!empty.is_empty() && empty.iter().all(|l| l.starts_with("the rule file has problems")), "{empty:?}");
        assert_eq!(labels_with_base("game game"), ["the rule file has 1 syntax problem(s)"]);
    }
}
