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

/// The first `n` rows as a table within `columns`, under a heading; where the table would not
/// fit, each row as a sentence. When the rows take more than `lines`, only the latest are
/// written, after a line saying how many earlier ones `score` shows.
pub(super) fn render(state: &State, n: usize, columns: usize, lines: Option<usize>) -> String {
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
    let mut rows: Vec<Vec<String>> = if whole > columns {
        (rows.iter().enumerate())
            .map(|(i, row)| {
                let cells: Vec<String> = row.iter().map(|(who, cell)| format!("{who}: {cell}")).collect();
                let text = format!("{}: {}", number(i), cells.join("; "));
                super::table::sentence(&text, columns.saturating_sub(2)).iter().map(|l| format!("  {l}")).collect()
            })
            .collect()
    } else {
        let line = |head: &str, cells: Vec<&str>| {
            let mut line = format!("  {head:first_width$}");
            for (cell, w) in cells.iter().zip(&widths) {
                line.push_str(&format!(" | {cell:w$}"));
            }
            line.trim_end().to_string()
        };
        let mut table = vec![vec![line("", first.iter().map(|(who, _)| who.as_str()).collect())]];
        table.extend(
            rows.iter()
                .enumerate()
                .map(|(i, row)| vec![line(&number(i), row.iter().map(|(_, c)| c.as_str()).collect())]),
        );
        table
    };
    let mut out = String::from("Score sheet\n");
    let header = usize::from(whole <= columns);
    let total = |rows: &[Vec<String>]| rows.iter().map(Vec::len).sum::<usize>();
    let mut left_out = 0;
    while let Some(limit) = lines
        && rows.len() > header + 1
        && total(&rows) + 2 > limit
    {
        rows.remove(header);
        left_out += 1;
    }
    for (i, row) in rows.iter().enumerate() {
        if i == header && left_out > 0 {
            let rows = crate::engine::counted(left_out, "earlier row");
            out.push_str(&format!("  ({rows} of the sheet: `score` shows them)\n"));
        }
        for line in row {
            out.push_str(&format!("{line}\n"));
        }
    }
    out
}
