//! The `rules` command: a summary of the game from its rule file — the opening comment, how a
//! match goes (the comments written in its `play` block, but for the authors' notes: a comment
//! line starting `Note:` and the lines after it in the same comment), players, seats, sides,
//! parameters, variants, zones and who sees them, and who wins (the comment over `result`, else
//! the rule itself).

use crate::engine::zone_label;
use crate::game::Game;
use crate::report::Source;
use crate::syntax::ast::{Audience, File, FileBody, Item};
use crate::syntax::comments::{Comment, Extra};

/// The summary of a game within `columns`; `source` is the rule file it was compiled from,
/// `rules` what was read from it (`None` if it does not parse: then the summary tells none of
/// its comments).
pub(super) fn summary(game: &Game, source: &Source, rules: Option<&File>, columns: usize) -> String {
    let text = &source.text;
    let no_comments = Extra::default();
    let extra = rules.map_or(&no_comments, |file| &file.extra);
    let mut out = format!("{}\n", game.name);
    let opening: Vec<&str> = opening_comment(text, extra).iter().map(|c| written(c, text)).collect();
    for item in reflowed(&opening) {
        out.push_str(&format!("  {item}\n"));
    }
    let steps = rules.map_or_else(Vec::new, |file| play_comments(text, file));
    if !steps.is_empty() {
        out.push_str("How a match goes:\n");
        for line in steps {
            out.push_str(&format!("  {line}\n"));
        }
    }
    out.push_str(&format!("Players: {}. Seats, clockwise: {}\n", game.players, seats(game)));
    if !game.sides.is_empty() {
        let sides: Vec<String> =
            game.sides.iter().map(|t| format!("{} ({})", t.display, members(game, &t.seats))).collect();
        out.push_str(&format!("Sides: {}\n", sides.join("; ")));
    }
    if !game.params.is_empty() {
        out.push_str("Parameters (change with --set NAME=VALUE):\n");
        for p in &game.params {
            let range = p.range.map_or(String::new(), |(lo, hi)| format!(" (from {lo} to {hi})"));
            let doc = p.doc.as_ref().map_or(String::new(), |d| format!(": {d}"));
            out.push_str(&format!("  {} = {}{range}{doc}\n", p.name, game.show_value(p.value, &p.ty)));
        }
    }
    if !game.variants.is_empty() {
        out.push_str("Variants (choose with --variant NAME):\n");
        for v in &game.variants {
            let doc = v.doc.as_ref().map_or(String::new(), |d| format!(": {d}"));
            let on = if game.variant.as_ref() == Some(&v.name) { " (in play)" } else { "" };
            out.push_str(&format!("  {}{on}{doc}\n", v.name));
        }
    }
    out.push_str("Zones:\n");
    for (i, z) in game.zones.iter().enumerate() {
        let per = z.owner.map_or(String::new(), |o| format!(", one per {}", format!("{o:?}").to_lowercase()));
        out.push_str(&format!(
            "  {}{per}: cards seen by {}, counted by {}\n",
            zone_label(game, i as crate::game::ZoneId),
            audience(z.see),
            audience(z.count)
        ));
    }
    let said: Vec<&str> = extra.above(text, game.result.key.span.start).iter().map(|c| c.words(text)).collect();
    if !said.is_empty() {
        out.push_str(&format!("The winner: {}\n", said.join(" ")));
    } else if let Some(rule) = line_at(&source.text, game.result.key.span.start) {
        out.push_str(&format!("The winner: {}\n", rule.trim_start_matches("result").trim()));
    }
    within(&out, columns)
}

/// Lines of comment (as written after `// `) run together into the sentences they hold: a line
/// starting `- ` (a list's item) starts another, which runs on over the indented lines after it,
/// and an empty line stands as one.
fn reflowed(lines: &[&str]) -> Vec<String> {
    let mut items: Vec<String> = Vec::new();
    for line in lines {
        let indented = line.starts_with(' ');
        match items.last_mut() {
            Some(last) if !line.is_empty() && !last.is_empty() && !line.starts_with("- ") => {
                if last.starts_with("- ") && !indented {
                    items.push(line.to_string());
                } else {
                    last.push(' ');
                    last.push_str(line.trim());
                }
            }
            _ => items.push(line.trim().to_string()),
        }
    }
    items
}

/// A comment's line as written, without its `//` and the space after.
fn written<'t>(comment: &Comment, text: &'t str) -> &'t str {
    let line = comment.text(text).trim_end();
    let line = line.strip_prefix("//").unwrap_or(line);
    line.strip_prefix(' ').unwrap_or(line)
}

/// A text with each line broken between words within `columns`, the later lines of one indented
/// two columns more than it (under a list item's words; a row of a table, whose columns are
/// set apart by spaces, under its last column).
pub(super) fn within(text: &str, columns: usize) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let body = line.trim_start();
        let mut indent = line.len() - body.len() + 2;
        if let Some(gap) = body.find("  ") {
            indent = line.len() - body[gap..].trim_start().len();
        }
        let mut row = String::new();
        for (i, word) in line.split(' ').enumerate() {
            if !row.trim().is_empty() && row.chars().count() + 1 + word.chars().count() > columns {
                out.push_str(row.trim_end());
                out.push('\n');
                row = " ".repeat(indent);
            } else if i > 0 {
                row.push(' ');
            }
            row.push_str(word);
        }
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}

/// The comment lines the rule file opens with.
fn opening_comment<'e>(text: &str, extra: &'e Extra) -> &'e [Comment] {
    let first = extra.paragraphs(text).next().unwrap_or_default();
    if first.first().is_some_and(|c| !text[..c.span.start].contains('\n')) { first } else { &[] }
}

fn seats(game: &Game) -> String {
    let shown: Vec<String> = game
        .seats
        .iter()
        .map(|s| {
            let first = game.seats.iter().find(|o| o.player == s.player).filter(|o| o.name != s.name);
            first.map_or(s.display.clone(), |o| format!("{} (played by {})", s.display, o.display))
        })
        .collect();
    shown.join(", ")
}

fn members(game: &Game, seats: &[u8]) -> String {
    let names: Vec<&str> =
        seats.iter().filter_map(|s| game.seats.get(*s as usize)).map(|s| s.display.as_str()).collect();
    names.join(", ")
}

fn audience(a: Audience) -> &'static str {
    match a {
        Audience::Everyone => "everyone",
        Audience::Owner => "the owner",
        Audience::Nobody => "nobody",
    }
}

/// The comment lines inside the rule file's `play` block, in order: the rule file's own account
/// of how a match goes (a scenario's base is another file).
fn play_comments(text: &str, file: &File) -> Vec<String> {
    let FileBody::Rules(items) = &file.body else { return Vec::new() };
    let Some(span) = items.iter().find_map(|item| match item {
        Item::Play(play) => Some(play.span),
        _ => None,
    }) else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    let in_play = |paragraph: &&[Comment]| (span.start..span.end).contains(&paragraph[0].span.start);
    for paragraph in file.extra.paragraphs(text).filter(in_play) {
        let mut in_note = false;
        let mut said = Vec::new();
        for comment in paragraph.iter().map(|c| written(c, text)) {
            in_note = in_note || comment.trim_start().starts_with("Note:");
            if !in_note && !comment.is_empty() {
                said.push(comment);
            }
        }
        lines.extend(reflowed(&said));
    }
    lines
}

/// The line of `text` that holds byte `at`, trimmed.
fn line_at(text: &str, at: usize) -> Option<&str> {
    let start = text.get(..at)?.rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    Some(text[start..end].trim()).filter(|l| !l.is_empty())
}
