//! How `paradox solve` reads its moves and gives its answer.

use super::Analysis;
use crate::engine::{Actor, State};

/// Plays the moves named in `moves` (separated by commas, each as the table names it, such as
/// `red 5`), each by the seat to decide; the first one that is not legal is refused.
pub fn play_moves(state: &mut State, moves: &str) -> Result<(), String> {
    for name in moves.split(',').map(str::trim).filter(|m| !m.is_empty()) {
        let Actor::Seat(seat) = state.actor() else {
            return Err(format!("`{name}`: no single seat is to decide here"));
        };
        let count = state.action_count(seat) as u32;
        let found = (0..count).find(|&a| state.action_name(seat, a).is_some_and(|n| n.eq_ignore_ascii_case(name)));
        let Some(action) = found else {
            let legal: Vec<String> = (0..count).filter_map(|a| state.action_name(seat, a)).collect();
            let who = state.game().names().show_loose(crate::game::Value::Seat(seat));
            return Err(format!("`{name}` is not a legal move of {who} here; legal: {}", legal.join(", ")));
        };
        state.apply(seat, action).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The analysis for people.
pub fn text(analysis: &Analysis) -> String {
    let mut out = format!("{} to move; best play to the end of this {}\n", analysis.to_move, analysis.until);
    for answer in &analysis.answers {
        let kind = if analysis.kind == "minimax" { "minimax value" } else { "value" };
        out.push_str(&format!("\n{kind} of {}: {:+}\n", answer.measure, answer.value));
        out.push_str(&format!("  ({} plays to raise it, every other seat to lower it)\n", answer.maximiser));
        for (name, value) in &answer.moves {
            let mark = if *value == answer.value { "  best" } else { "" };
            out.push_str(&format!("  {:>5}  {name}{mark}\n", format!("{value:+}")));
        }
        let line: Vec<String> = answer.line.iter().map(|(seat, m)| format!("{seat} {m}")).collect();
        out.push_str(&format!("  best line: {}\n", line.join(", ")));
        let keys: Vec<String> = answer.keys.iter().map(|(item, k)| format!("{item} {k:+}")).collect();
        out.push_str(&format!("  at its end: {}\n", keys.join(", ")));
    }
    out.push_str(&set_aside(analysis));
    let rate = analysis.nodes as f64 / analysis.seconds.max(1e-9);
    out.push_str(&format!(
        "\n{} positions searched in {:.3} s ({:.2} M/s)\n",
        analysis.nodes,
        analysis.seconds,
        rate / 1e6
    ));
    out
}

/// The line that says what the search told positions apart without, if anything.
fn set_aside(analysis: &Analysis) -> String {
    let mut parts = Vec::new();
    if !analysis.added_to.is_empty() {
        parts.push(format!("{} (only added to)", analysis.added_to.join(", ")));
    }
    if !analysis.unread.is_empty() {
        parts.push(format!("{} (not read before the {} ends)", analysis.unread.join(", "), analysis.until));
    }
    if parts.is_empty() {
        return String::new();
    }
    format!("\npositions told apart without: {}\n", parts.join("; "))
}
