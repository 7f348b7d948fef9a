//! The score sheet: a row for each round played, as the rule file's `sheet` writes it when a
//! round ends (its cells usually carry the running totals), one column per seat or side.

use crate::engine::{Event, State};

/// The rows written so far, in order: each column's name and cell.
pub(super) fn rows(state: &State) -> Vec<&[(String, String)]> {
    (state.events().iter())
        .filter_map(|e| match e {
            Event::Sheet { row } => Some(row.as_slice()),
            _ => None,
        })
        .collect()
}

/// The first `n` rows as a table within `columns`, under a heading; a row that would not fit
/// is written one cell a line.
pub(super) fn render(state: &State, n: usize, columns: usize) -> String {
    let game = state.game();
    let Some(sheet) = &game.sheet else { return String::new() };
    let phase = &game.phases[sheet.phase as usize];
    let round = phase.title.as_deref().unwrap_or(&phase.name);
    let rows = rows(state);
    let rows = &rows[..n.min(rows.len())];
    let Some(first) = rows.first() else { return format!("Score sheet: no {round} has ended yet.\n") };
    let number = |i: usize| format!("{round} {}", i + 1);
    let first_width = (0..rows.len()).map(|i| number(i).chars().count()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..first.len())
        .map(|c| {
            let cells = rows.iter().filter_map(|r| r.get(c)).map(|(_, cell)| cell.chars().count());
            cells.chain([first[c].0.chars().count()]).max().unwrap_or(0)
        })
        .collect();
    let whole = first_width + widths.iter().map(|w| w + 3).sum::<usize>() + 2;
    let mut out = String::from("Score sheet\n");
    if whole > columns {
        for (i, row) in rows.iter().enumerate() {
            out.push_str(&format!("  {}\n", number(i)));
            for (who, cell) in row.iter() {
                out.push_str(&format!("    {who}: {cell}\n"));
            }
        }
        return out;
    }
    let line = |head: &str, cells: Vec<&str>| {
        let mut line = format!("  {head:first_width$}");
        for (cell, w) in cells.iter().zip(&widths) {
            line.push_str(&format!(" | {cell:w$}"));
        }
        format!("{}\n", line.trim_end())
    };
    out.push_str(&line("", first.iter().map(|(who, _)| who.as_str()).collect()));
    for (i, row) in rows.iter().enumerate() {
        out.push_str(&line(&number(i), row.iter().map(|(_, cell)| cell.as_str()).collect()));
    }
    out
}
