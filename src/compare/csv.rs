//! The report as one CSV table for spreadsheets and scripts: a row per figure of each
//! configuration, then a row per difference of each comparison (with its p-values and verdict).
//! Shares are fractions, as in the JSON.

use super::report::{Figures, Report, Spread};
use crate::stats::Estimate;

const HEADER: &str = "configuration,figure,value,low,high,p,adjusted_p,verdict";

/// The report as CSV: one line per figure of a configuration and per difference, under a header.
pub fn render(report: &Report) -> String {
    let mut out = format!("{HEADER}\n");
    for f in &report.configurations {
        for (figure, e) in figures(f) {
            out.push_str(&row(&[&f.label, &figure], e, None));
        }
    }
    for c in &report.comparisons {
        let label = format!("{} vs {}", c.first, c.second);
        for d in &c.differences {
            let verdict = if d.significant { "significant" } else { "not significant" };
            let test = Some((d.p, d.adjusted_p, verdict));
            out.push_str(&row(&[&label, &format!("change in {}", d.figure)], d.change, test));
        }
    }
    out
}

/// Every figure of a configuration, named.
fn figures(f: &Figures) -> Vec<(String, Option<Estimate>)> {
    let mut all: Vec<(String, Option<Estimate>)> = Vec::new();
    for s in f.players.iter().chain(&f.sides) {
        all.push((format!("{} wins", s.who), s.share));
    }
    all.push(("draws".to_string(), f.draws.share));
    if let Some(s) = &f.starter {
        all.push(("the starting player wins".to_string(), s.share));
        all.push(("the starting player's edge".to_string(), s.edge));
    }
    if let Some(s) = &f.skill {
        all.push(("the strong player wins".to_string(), s.share));
        all.push(("the strong player's edge".to_string(), s.edge));
    }
    all.push(("matches won from behind".to_string(), f.comebacks));
    all.push(("how far behind the winner was, mean".to_string(), f.behind));
    for (tenth, e) in f.leaders.iter().enumerate() {
        all.push((format!("the leader at {} % of the match wins", 10 * (tenth + 1)), *e));
    }
    all.push(("how far in the winner is settled".to_string(), f.settled));
    for (tenth, e) in f.trend.iter().enumerate() {
        all.push((format!("the winner's lead at {} % of the match", 10 * tenth), *e));
    }
    let mut spread = |name: &str, s: &Spread| {
        for (what, e) in [("mean", s.mean), ("10th percentile", s.p10), ("median", s.p50), ("90th percentile", s.p90)] {
            all.push((format!("{name}, {what}"), e));
        }
    };
    spread("decisions per match", &f.decisions);
    if let Some(r) = &f.rounds {
        spread("rounds per match", r);
    }
    if let Some(gap) = &f.spread {
        spread(&format!("gap between first and last in {}", f.key), gap);
    }
    spread(&format!("winning margin in {}", f.key), &f.margin);
    if let Some(lead) = &f.lead {
        spread("lead changes per match", &lead.changes);
        all.push(("matches with a lead change".to_string(), lead.changed));
    }
    if f.rounds.is_some() {
        all.push(("rounds that changed no score, mean".to_string(), f.drawn_rounds));
    }
    all
}

fn row(names: &[&str], e: Option<Estimate>, test: Option<(f64, f64, &str)>) -> String {
    let mut fields: Vec<String> = names.iter().map(|n| quoted(n)).collect();
    match e {
        Some(e) => fields.extend([e.value, e.low, e.high].map(|x| x.to_string())),
        None => fields.extend(["", "", ""].map(String::from)),
    }
    match test {
        Some((p, adjusted, verdict)) => fields.extend([p.to_string(), adjusted.to_string(), verdict.to_string()]),
        None => fields.extend(["", "", ""].map(String::from)),
    }
    format!("{}\n", fields.join(","))
}

/// A field quoted when it holds a comma, a quote or a line break.
fn quoted(s: &str) -> String {
    if s.contains([',', '"', '\n']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}
