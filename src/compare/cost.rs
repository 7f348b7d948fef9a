//! What a run cost, for people (on standard error, since no two runs take the same time): how
//! fast it went, what a match of each configuration took on one thread (time, decisions, moves
//! the thinking bots searched), what 1,000 more matches of each would take on the same threads,
//! and how long the thinking bots took over a move.

use super::Run;
use crate::sim::{Spent, Tallies, Timing};

/// The matches of each configuration the estimate of what more would take is made for.
const MORE: u64 = 1000;

/// The whole text: the speed, the cost of each configuration, the thinking bots' times.
pub fn text(run: &Run, tallies: &Tallies, timing: &Timing) -> String {
    let mut out = speed(tallies, timing);
    out.push_str(&per_configuration(run, timing));
    out.push_str(&thinking(timing));
    out
}

/// "300 matches in 2.10 s on 2 threads: 143 matches/s, 8000 decisions/s".
fn speed(tallies: &Tallies, timing: &Timing) -> String {
    let matches: u64 = tallies.configurations.iter().map(|t| t.matches).sum();
    let decisions: i128 = tallies.configurations.iter().map(|t| t.decisions.moments().map_or(0, |m| m.sum)).sum();
    let secs = timing.seconds.max(1e-9);
    let threads = timing.threads;
    format!(
        "{matches} match{} in {:.2} s on {threads} thread{}: {:.0} matches/s, {:.0} decisions/s\n",
        if matches == 1 { "" } else { "es" },
        timing.seconds,
        if threads == 1 { "" } else { "s" },
        matches as f64 / secs,
        decisions as f64 / secs
    )
}

/// What a match of each configuration took on one thread, and what [`MORE`] more seeds would
/// take on the run's threads.
fn per_configuration(run: &Run, timing: &Timing) -> String {
    let spent: Vec<(&str, &Spent)> = run
        .configurations
        .iter()
        .zip(&timing.configurations)
        .filter(|(_, s)| s.matches > 0)
        .map(|(d, s)| (d.config.label.as_str(), s))
        .collect();
    if spent.is_empty() {
        return String::new();
    }
    let mut out = String::from("what a match cost, on one thread:\n");
    for (i, (label, s)) in spent.iter().enumerate() {
        let per = |x: u64| x as f64 / s.matches as f64;
        let searched =
            if s.searched > 0 { format!(", {:.1} moves searched by bots", per(s.searched)) } else { String::new() };
        out.push_str(&format!(
            "  [{}] {label}: {}, {:.1} decisions{searched}\n",
            i + 1,
            duration(s.seconds / s.matches as f64),
            per(s.decisions)
        ));
    }
    // A seed plays one match of each configuration (two with `--skill`).
    let seeds =
        timing.configurations.first().map_or(0, |s| s.matches.div_ceil(if run.skill.is_some() { 2 } else { 1 }));
    let per_seed: f64 = spent.iter().map(|(_, s)| s.seconds).sum::<f64>() / seeds.max(1) as f64;
    let threads = timing.threads.max(1);
    out.push_str(&format!(
        "{MORE} more matches of each would take about {} on {threads} thread{}\n",
        duration(per_seed * MORE as f64 / threads as f64),
        if threads == 1 { "" } else { "s" }
    ));
    out
}

/// How long the thinking bots took over a move with a choice, when they played.
fn thinking(timing: &Timing) -> String {
    let mut times = timing.thinking.clone();
    times.sort_by(f64::total_cmp);
    match (times.get(times.len() / 2), times.last()) {
        (Some(median), Some(slowest)) => format!(
            "thinking bots: {} moves with a choice, median {median:.3} s, slowest {slowest:.3} s\n",
            times.len()
        ),
        _ => String::new(),
    }
}

/// A time for people: "0.84 ms", "2.3 s", "7 min", "3.2 hours".
fn duration(seconds: f64) -> String {
    match seconds {
        s if s < 1e-3 => format!("{:.0} µs", s * 1e6),
        s if s < 1.0 => format!("{:.2} ms", s * 1e3),
        s if s < 120.0 => format!("{s:.1} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s => format!("{:.1} hours", s / 3600.0),
    }
}

#[cfg(test)]
mod tests {
    use super::duration;

    #[test]
    fn durations_read_in_the_unit_that_fits() {
        assert_eq!(duration(0.000_2), "200 µs");
        assert_eq!(duration(0.000_84), "840 µs");
        assert_eq!(duration(0.0123), "12.30 ms");
        assert_eq!(duration(2.34), "2.3 s");
        assert_eq!(duration(600.0), "10 min");
        assert_eq!(duration(25_200.0), "7.0 hours");
    }
}
