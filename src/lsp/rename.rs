//! Renaming a declared name: every place the index resolved to the same symbol (in the document
//! and in the rule file a scenario extends), never a search of the text. A rename is refused
//! unless the texts, read and checked again with the new name, resolve exactly those places to
//! one symbol and have no new problem (a name taken already, a keyword, a local hidden).

use super::analysis::Analysis;
use super::symbols::{Kind, Site};
use super::text::Lines;
use crate::syntax::ast::Span;
use lsp_types::{Location, Position, TextEdit, Uri, WorkspaceEdit};
use std::path::Path;

/// The edits that rename the name at a position of the analysed document, or why it may not be
/// renamed so. `read` gives the text of another file; `places` every place of the name, in every
/// file (as find references gives them).
pub(super) fn edit(
    before: &Analysis,
    position: Position,
    new_name: &str,
    read: &dyn Fn(&Path) -> Option<String>,
    places: impl FnOnce() -> Vec<Location>,
) -> Result<WorkspaceEdit, String> {
    let offset = Lines::new(before.text()).offset(position);
    let (symbol, _) = renamable(before, offset).ok_or("nothing to rename here")?;
    let renamed = rename(before, symbol, new_name);
    // The document read again with the renamed rule file it extends, if it is a scenario.
    let read_renamed = |path: &Path| match before.texts.iter().position(|t| t.path.as_deref() == Some(path)) {
        Some(file) if file != before.this => Some(renamed.texts[file].clone()),
        _ => read(path),
    };
    let path = before.texts[before.this].path.as_deref();
    let after = Analysis::new(path, &renamed.texts[before.this], &read_renamed);
    if let Some(why) = refusal(before, &after, &renamed.places, new_name) {
        return Err(why);
    }
    let mut by_file: Vec<(Uri, Vec<TextEdit>)> = Vec::new();
    for place in places() {
        let edit = TextEdit::new(place.range, new_name.to_string());
        match by_file.iter_mut().find(|(file, _)| *file == place.uri) {
            Some((_, edits)) => edits.push(edit),
            None => by_file.push((place.uri, vec![edit])),
        }
    }
    Ok(WorkspaceEdit { changes: Some(by_file.into_iter().collect()), ..Default::default() })
}

/// The symbol at an offset of the document, if it may be renamed, and where its name is there:
/// a name declared in the texts read, not a built-in nor a seat that `players` names.
pub(super) fn renamable(analysis: &Analysis, offset: usize) -> Option<(usize, Span)> {
    let reference = analysis.index.at(analysis.this, offset)?;
    let symbol = &analysis.index.symbols[reference.symbol];
    (symbol.kind != Kind::Builtin && symbol.site.is_some()).then_some((reference.symbol, reference.site.span))
}

/// The texts of an analysis with every place of a symbol renamed, and the places of the new
/// name in them.
pub(super) struct Renamed {
    pub texts: Vec<String>,
    pub places: Vec<Site>,
}

/// Renames a symbol in the texts of an analysis.
pub(super) fn rename(analysis: &Analysis, symbol: usize, new_name: &str) -> Renamed {
    let mut texts = Vec::new();
    let mut places = Vec::new();
    for (file, read) in analysis.texts.iter().enumerate() {
        let mut spans: Vec<Span> =
            analysis.index.references_to(symbol).map(|r| r.site).filter(|s| s.file == file).map(|s| s.span).collect();
        spans.sort_by_key(|s| s.start);
        spans.dedup();
        let (text, moved) = replaced(&read.text, &spans, new_name);
        places.extend(moved.into_iter().map(|span| Site { file, span }));
        texts.push(text);
    }
    Renamed { texts, places }
}

/// A text with spans (in order, apart) replaced by a name, and where the name is in the result.
fn replaced(text: &str, spans: &[Span], name: &str) -> (String, Vec<Span>) {
    let mut out = String::with_capacity(text.len());
    let mut moved = Vec::new();
    let mut from = 0;
    for span in spans.iter().filter(|s| s.end <= text.len()) {
        out.push_str(&text[from..span.start]);
        moved.push(Span::new(out.len(), out.len() + name.len()));
        out.push_str(name);
        from = span.end;
    }
    out.push_str(&text[from..]);
    (out, moved)
}

/// Why a rename may not be made (`None` if it may): `after` is the document read again from the
/// renamed texts, `places` where the new name was written.
pub(super) fn refusal(before: &Analysis, after: &Analysis, places: &[Site], new_name: &str) -> Option<String> {
    if !is_name(new_name) {
        return Some(format!("`{new_name}` is not a name: letters, digits and `_`, starting with a letter or `_`"));
    }
    if after.problems.len() > before.problems.len() {
        let new = after.problems.iter().find(|p| !before.problems.iter().any(|b| b.message == p.message));
        let what = new.or(after.problems.first()).map_or(String::new(), |p| format!(": {}", p.message));
        return Some(format!("renamed `{new_name}`, the file would not check{what}"));
    }
    let first = places.first()?;
    let Some(symbol) = after.index.at(first.file, first.span.start).map(|r| r.symbol) else {
        return Some(format!("`{new_name}` would not name the same thing"));
    };
    let mut resolved: Vec<Site> = after.index.references_to(symbol).map(|r| r.site).collect();
    resolved.sort_by_key(|s| (s.file, s.span.start));
    resolved.dedup();
    let mut wanted = places.to_vec();
    wanted.sort_by_key(|s| (s.file, s.span.start));
    (resolved != wanted).then(|| format!("`{new_name}` would mean something else in some places: it is taken here"))
}

/// Whether a word is a name and no keyword of the language.
fn is_name(word: &str) -> bool {
    use crate::syntax::grammar::{ParadoxParser, Rule};
    use pest::Parser;
    ParadoxParser::parse(Rule::ident, word).is_ok_and(|found| found.as_str() == word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analysis(text: &str) -> Analysis {
        Analysis::new(None, text, &|_| None)
    }

    const RULES: &str = "players 2\nvar score: int per seat = 0\n\
        play { let x = P1 for s in seats { if s == x { score[s] += 1 } } }\n\
        result highest s in seats by score[s]\n";

    fn try_rename(text: &str, at: &str, new_name: &str) -> Result<String, String> {
        let before = analysis(text);
        let (symbol, _) = renamable(&before, text.find(at).expect("the name")).ok_or("nothing to rename")?;
        let renamed = rename(&before, symbol, new_name);
        let after = analysis(&renamed.texts[0]);
        match refusal(&before, &after, &renamed.places, new_name) {
            Some(why) => Err(why),
            None => Ok(renamed.texts[0].clone()),
        }
    }

    #[test]
    fn a_rename_changes_the_places_the_name_resolves_to_and_no_other() {
        let renamed = try_rename(RULES, "score", "points").expect("renamed");
        assert_eq!(renamed, RULES.replace("score", "points"));
        // `s` of the loop, not the `s` of `result`.
        let renamed = try_rename(RULES, "s in seats {", "p").expect("renamed");
        assert!(renamed.contains("for p in seats { if p == x { score[p] += 1 } }"), "{renamed}");
        assert!(renamed.contains("highest s in seats by score[s]"), "{renamed}");
    }

    #[test]
    fn a_rename_that_would_change_the_meaning_is_refused() {
        assert!(try_rename(RULES, "score", "x").is_err(), "the `let x` would hide the variable");
        let taken = try_rename(RULES, "x = P1", "s").expect_err("the loop's `s` would hide it");
        assert!(taken.contains("something else"), "{taken}");
        assert!(try_rename(RULES, "score", "for").expect_err("a keyword").contains("not a name"));
        assert!(try_rename(RULES, "score", "two words").is_err());
        assert!(try_rename(RULES, "seats {", "all").is_err(), "built-ins are not renamed");
    }
}
