//! The report for people: first the significant differences a player would care about, in
//! sentences, and the rest in one line; then a table with one column per configuration and a
//! row per figure, each with its 95 % interval; then every comparison's verdicts as sentences
//! (the significant ones in bold where colour is on), and how the figures were worked out.

use super::report::{Aspect, Difference, Figures, Report, Spread, Unit, p_text};
use crate::stats::{ALPHA, Estimate};

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

/// A number for a sentence: whole when it is, else with one decimal ("11", "2.5").
pub fn number(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 { format!("{}", x.round() + 0.0) } else { format!("{x:.1}") }
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
            "Played until every headline share was within ±{} points (at most {} matches): {reached}, ±{:.2} points\n",
            p.asked, p.cap, p.reached
        ));
    }
    out.push('\n');
    if !report.comparisons.is_empty() {
        out.push_str(&verdicts(report, &bold));
        out.push('\n');
    }
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

/// The order in which verdicts are told: what a player cares about first.
const ASPECTS: [Aspect; 10] = [
    Aspect::Skill,
    Aspect::Fairness,
    Aspect::Drama,
    Aspect::Security,
    Aspect::Convergence,
    Aspect::Spread,
    Aspect::Wins,
    Aspect::Length,
    Aspect::Drawn,
    Aspect::Lead,
];

/// The significant differences of every comparison in sentences, the most telling first, and
/// the figures that did not change significantly in one line.
fn verdicts(report: &Report, bold: &dyn Fn(&str) -> String) -> String {
    let mut out = String::new();
    for c in &report.comparisons {
        let (mut significant, rest): (Vec<&Difference>, Vec<&Difference>) =
            c.differences.iter().partition(|d| d.significant);
        significant.sort_by_key(|d| ASPECTS.iter().position(|a| *a == d.aspect));
        out.push_str(&format!("{}, against {}:\n", capitalised(&c.phrases[1]), c.phrases[0]));
        if significant.is_empty() {
            out.push_str("  no figure changed significantly.\n");
        }
        for d in significant {
            out.push_str(&bold(&format!("  {}", verdict(d))));
            out.push('\n');
        }
        if !rest.is_empty() {
            let names: Vec<&str> = rest.iter().map(|d| d.figure.as_str()).collect();
            out.push_str(&format!("  No significant change (adjusted p ≥ {ALPHA}) in: {}.\n", names.join(", ")));
        }
    }
    out
}

/// One significant difference as a player would say it: "The strong player wins 78.0 %
/// (71.0-84.0) instead of 64.0 % (57.0-70.0): skill counts for more (adjusted p = 0.0012)."
fn verdict(d: &Difference) -> String {
    let value = |e: Option<Estimate>| e.map_or(0.0, |e| e.value);
    let up = value(d.second) > value(d.first);
    let meaning = match (d.aspect, up) {
        (Aspect::Skill, true) => "skill counts for more",
        (Aspect::Skill, false) => "skill counts for less, luck for more",
        (Aspect::Fairness, _) => {
            if value(d.second).abs() > value(d.first).abs() {
                "starting matters more"
            } else {
                "starting matters less"
            }
        }
        (Aspect::Drama, true) => "more comebacks, more drama",
        (Aspect::Drama, false) => "fewer comebacks, less drama",
        (Aspect::Security, true) => "a lead is safer",
        (Aspect::Security, false) => "a lead is less safe",
        (Aspect::Convergence, true) => "the winner is settled later",
        (Aspect::Convergence, false) => "the winner is settled earlier",
        (Aspect::Spread, true) => "matches end more lopsided",
        (Aspect::Spread, false) => "matches end closer",
        (Aspect::Wins, true) => "more often",
        (Aspect::Wins, false) => "less often",
        (Aspect::Length, true) => "matches get longer",
        (Aspect::Length, false) => "matches get shorter",
        (Aspect::Drawn, true) => "more rounds end with no score changed",
        (Aspect::Drawn, false) => "fewer rounds end with no score changed",
        (Aspect::Lead, true) => "the lead changes hands more often",
        (Aspect::Lead, false) => "the lead changes hands less often",
    };
    let show = |e: &Option<Estimate>| in_unit(d.unit, e);
    format!(
        "{}: {} instead of {}: {meaning} (adjusted {}).",
        capitalised(&d.figure),
        show(&d.second),
        show(&d.first),
        p_text(d.adjusted_p)
    )
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
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
    rows.push(("fairness: wins equal per seat".to_string(), cells(configs, |f| f.fairness.seats.map(fair))));
    if configs.iter().any(|f| f.starter.is_some()) {
        let starter = |f: &Figures, pick: fn(&super::report::Starter) -> String| f.starter.as_ref().map(pick);
        rows.push(("the starting player wins".to_string(), cells(configs, |f| starter(f, |s| share_text(&s.share)))));
        rows.push(("  edge over an even share".to_string(), cells(configs, |f| starter(f, |s| points_text(&s.edge)))));
        rows.push(("  fairness: no edge".to_string(), cells(configs, |f| f.fairness.starter.map(fair))));
    }
    if let Some(kinds) = configs.iter().find_map(|f| f.skill.as_ref()).map(|s| s.kinds.clone()) {
        let skill = |f: &Figures, pick: fn(&super::report::Skilled) -> String| f.skill.as_ref().map(pick);
        rows.push((
            format!("skill: the strong player ({kinds}) wins"),
            cells(configs, |f| skill(f, |s| share_text(&s.share))),
        ));
        let equal = |s: &super::report::Skilled| s.equal.map_or(NONE.to_string(), |e| format!("{:.1} %", 100.0 * e));
        rows.push(("  an equal player would win".to_string(), cells(configs, |f| skill(f, equal))));
        rows.push(("  edge over an equal player".to_string(), cells(configs, |f| skill(f, |s| points_text(&s.edge)))));
    }
    rows.push(("drama: matches won from behind".to_string(), cells(configs, |f| Some(share_text(&f.comebacks)))));
    rows.push(("  how far behind the winner was, mean".to_string(), cells(configs, |f| Some(estimate(&f.behind)))));
    rows.push(("security: the half-time leader wins".to_string(), cells(configs, |f| Some(share_text(&f.security)))));
    rows.push((
        "convergence: settled after, of the match".to_string(),
        cells(configs, |f| Some(share_text(&f.settled))),
    ));
    let key = configs.first().map_or(String::new(), |f| f.key.clone());
    if configs.iter().any(|f| f.spread.is_some()) {
        spread(&mut rows, configs, &format!("spread: first less last in {key}"), |f| f.spread.as_ref());
    }
    spread(&mut rows, configs, "decisions per match", |f| Some(&f.decisions));
    if configs.iter().any(|f| f.rounds.is_some()) {
        spread(&mut rows, configs, "rounds per match", |f| f.rounds.as_ref());
        rows.push((
            "  rounds that changed no score, mean".to_string(),
            cells(configs, |f| Some(estimate(&f.drawn_rounds))),
        ));
    }
    spread(&mut rows, configs, &format!("winning margin in {key}"), |f| Some(&f.margin));
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

/// A test of fairness: "even (p = 0.41)", "uneven (p = 0.0003)".
fn fair(p: f64) -> String {
    let verdict = if p < ALPHA { "uneven" } else { "even as far as seen" };
    format!("{verdict} ({})", p_text(p))
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
