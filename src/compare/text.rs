//! The report for people: a table with one column per configuration and a row per figure, each
//! with its 95 % interval; then every comparison's verdicts as sentences (the significant ones
//! in bold where colour is on), and how the figures were worked out.

use super::report::{Figures, Report, Spread, Unit};
use crate::stats::Estimate;

/// What a missing figure prints as (no finished match, or a single one for a mean).
const NONE: &str = "-";

/// A share: "53.1 % (51.0-55.2)".
pub fn share_text(e: &Option<Estimate>) -> String {
    e.map_or(NONE.to_string(), |e| {
        let e = e.scaled(100.0);
        format!("{:.1} % ({:.1}-{:.1})", e.value, e.low, e.high)
    })
}

/// A difference of shares in percentage points: "+2.0 points (-0.2 to +4.2)".
pub fn points_text(e: &Option<Estimate>) -> String {
    e.map_or(NONE.to_string(), |e| {
        let e = e.scaled(100.0);
        format!("{:+.1} points ({:+.1} to {:+.1})", tenths(e.value), tenths(e.low), tenths(e.high))
    })
}

/// Rounded to tenths, so that a sign is never printed on a zero ("-0.0").
fn tenths(x: f64) -> f64 {
    (x * 10.0).round() / 10.0 + 0.0
}

/// A mean: "190.1 (188.0-192.2)", two decimals below 10.
pub fn estimate(e: &Option<Estimate>) -> String {
    e.map_or(NONE.to_string(), |e| {
        let d = if e.value.abs() < 10.0 { 2 } else { 1 };
        format!("{:.d$} ({:.d$}-{:.d$})", e.value, e.low, e.high)
    })
}

/// A percentile, a whole number: "188 (184-192)".
fn whole(e: &Option<Estimate>) -> String {
    e.map_or(NONE.to_string(), |e| format!("{} ({}-{})", e.value, e.low, e.high))
}

/// A figure as its unit shows it.
pub fn in_unit(unit: Unit, e: &Option<Estimate>) -> String {
    match unit {
        Unit::Share => share_text(e),
        Unit::Points => points_text(e),
        Unit::Count => estimate(e),
    }
}

/// One row of the table: its label and a cell per configuration.
type Row = (String, Vec<String>);

/// The report as text; `colour` puts the headings and the significant verdicts in bold.
pub fn render(report: &Report, colour: bool) -> String {
    let bold = |s: &str| if colour { format!("\u{1b}[1m{s}\u{1b}[0m") } else { s.to_string() };
    let configs = &report.configurations;
    let seeds = match report.matches {
        0 => "none played".to_string(),
        _ => format!("seeds {} to {}", report.seeds[0], report.seeds[1]),
    };
    let mut out = format!(
        "{} ({}): {} {}{} ({seeds}), bots: {}\n",
        report.game,
        report.file,
        report.matches,
        if report.matches == 1 { "match" } else { "matches" },
        if configs.len() > 1 { " per configuration" } else { "" },
        report.bots
    );
    for (i, f) in configs.iter().enumerate() {
        out.push_str(&format!("[{}] {}: {}\n", i + 1, f.label, f.summary));
    }
    if let Some(p) = &report.precision {
        let reached = if p.reached <= p.asked { "reached" } else { "not reached within the cap" };
        out.push_str(&format!(
            "Played until every win share was within ±{} points (at most {} matches): {reached}, ±{:.2} points\n",
            p.asked, p.cap, p.reached
        ));
    }
    out.push('\n');
    out.push_str(&table(&rows(configs), configs, &bold));
    for c in &report.comparisons {
        let index = |label: &str| configs.iter().position(|f| f.label == label).map_or(0, |i| i + 1);
        out.push_str(&format!(
            "\n{}\n",
            bold(&format!(
                "[{}] {} against [{}] {}, on {} matches paired by seed:",
                index(&c.first),
                c.first,
                index(&c.second),
                c.second,
                c.matches
            ))
        ));
        let (significant, rest): (Vec<_>, Vec<_>) = c.differences.iter().partition(|d| d.significant);
        for d in significant {
            out.push_str(&bold(&format!("  {}", d.sentence)));
            out.push('\n');
        }
        for d in rest {
            out.push_str(&format!("  {}\n", d.sentence));
        }
        if !c.unchanged.is_empty() {
            out.push_str(&format!("  the same in every match: {}\n", c.unchanged.join(", ")));
        }
    }
    out.push('\n');
    out.push_str(&wrap(report.method, 100));
    out
}

/// The rows of the table, in sections: who wins, who starts, how long, how close, how lively.
fn rows(configs: &[Figures]) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    let most = |count: fn(&Figures) -> usize| configs.iter().map(count).max().unwrap_or(0);
    for p in 0..most(|f| f.players.len()) {
        let who = configs.iter().find_map(|f| f.players.get(p)).map_or(String::new(), |s| s.who.clone());
        rows.push((format!("{who} wins"), cells(configs, |f| f.players.get(p).map(|s| share_text(&s.share)))));
    }
    for t in 0..most(|f| f.sides.len()) {
        let who = configs.iter().find_map(|f| f.sides.get(t)).map_or(String::new(), |s| s.who.clone());
        rows.push((format!("{who} wins"), cells(configs, |f| f.sides.get(t).map(|s| share_text(&s.share)))));
    }
    rows.push(("draws".to_string(), cells(configs, |f| Some(share_text(&f.draws.share)))));
    if configs.iter().any(|f| f.starter.is_some()) {
        let starter = |f: &Figures, pick: fn(&super::report::Starter) -> String| f.starter.as_ref().map(pick);
        rows.push(("the starting player wins".to_string(), cells(configs, |f| starter(f, |s| share_text(&s.share)))));
        rows.push(("  edge over an even share".to_string(), cells(configs, |f| starter(f, |s| points_text(&s.edge)))));
    }
    spread(&mut rows, configs, "decisions per match", |f| Some(&f.decisions));
    if configs.iter().any(|f| f.rounds.is_some()) {
        spread(&mut rows, configs, "rounds per match", |f| f.rounds.as_ref());
    }
    let key = configs.first().map_or(String::new(), |f| f.key.clone());
    spread(&mut rows, configs, &format!("winning margin ({key})"), |f| Some(&f.margin));
    if configs.iter().any(|f| f.lead.is_some()) {
        spread(&mut rows, configs, "lead changes per match", |f| f.lead.as_ref().map(|l| &l.changes));
        let changed = |f: &Figures| f.lead.as_ref().map(|l| share_text(&l.changed));
        rows.push(("  matches with a lead change".to_string(), cells(configs, changed)));
    }
    if configs.iter().any(|f| f.stopped > 0) {
        rows.push(("stopped by a run-time problem".to_string(), cells(configs, |f| Some(f.stopped.to_string()))));
    }
    rows
}

/// The rows of a per-match count: its mean and three percentiles.
fn spread(rows: &mut Vec<Row>, configs: &[Figures], name: &str, of: impl Fn(&Figures) -> Option<&Spread>) {
    rows.push((format!("{name}, mean"), cells(configs, |f| of(f).map(|s| estimate(&s.mean)))));
    rows.push(("  10th percentile".to_string(), cells(configs, |f| of(f).map(|s| whole(&s.p10)))));
    rows.push(("  median".to_string(), cells(configs, |f| of(f).map(|s| whole(&s.p50)))));
    rows.push(("  90th percentile".to_string(), cells(configs, |f| of(f).map(|s| whole(&s.p90)))));
}

fn cells(configs: &[Figures], cell: impl Fn(&Figures) -> Option<String>) -> Vec<String> {
    configs.iter().map(|f| cell(f).unwrap_or_else(|| NONE.to_string())).collect()
}

/// The rows under a heading of configuration numbers, columns padded to their widest cell.
fn table(rows: &[Row], configs: &[Figures], bold: &dyn Fn(&str) -> String) -> String {
    let width = |s: &str| s.chars().count();
    let first = rows.iter().map(|(l, _)| width(l)).max().unwrap_or(0);
    let heads: Vec<String> = (1..=configs.len()).map(|i| format!("[{i}]")).collect();
    let columns: Vec<usize> = (0..configs.len())
        .map(|i| rows.iter().map(|(_, c)| width(&c[i])).chain([width(&heads[i])]).max().unwrap_or(0))
        .collect();
    let line = |label: &str, cells: &[String]| {
        let mut s = format!("{label}{}", " ".repeat(first - width(label)));
        for (cell, w) in cells.iter().zip(&columns) {
            s.push_str(&format!("   {cell}{}", " ".repeat(w - width(cell))));
        }
        format!("{}\n", s.trim_end())
    };
    let mut out = bold(line("", &heads).trim_end());
    out.push('\n');
    for (label, cells) in rows {
        out.push_str(&line(label, cells));
    }
    out
}

/// Breaks a paragraph into lines of at most `width` characters.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}
