//! The report of a run, worked out from its counts alone: for each configuration every figure
//! with its 95 % interval, and for each two configurations which differences are significant.
//! The same run and counts give the same report, byte for byte, in every output.

use super::text::in_unit;
use super::{Described, Run};
use crate::sim::{Paired, Tallies, Tally, pairs};
use crate::stats::{ALPHA, Discordant, Estimate, Histogram, Moments, holm, share};
use serde::Serialize;

/// How the report works out its figures and tests, in plain words.
pub const METHOD: &str = "Every figure comes with its 95 % interval: Wilson's for shares, the normal one for means, \
order statistics for percentiles. Matches are paired by seed: match i of every configuration starts from seed + i, \
so two configurations are compared on the same deals for as long as their rules let them stay the same. A share is \
compared with McNemar's test on the matches where it differed (exact up to 1000 of them), a mean with a z-test on \
the per-match differences. Holm's correction over all the comparisons made keeps the chance of calling any \
difference significant when none is real under 5 %.";

#[derive(Clone, Debug, Serialize)]
/// A comparison run's report: the figures of each configuration and the differences between each pair.
pub struct Report {
    /// The game's name.
    pub game: String,
    /// The rule file as named on the command line.
    pub file: String,
    /// The first and the last seed played.
    pub seeds: [u64; 2],
    /// The `--bots` argument the matches were played with.
    pub bots: String,
    /// Matches played per configuration.
    pub matches: u64,
    /// What `--precision` asked for and reached, when it was given.
    pub precision: Option<Precision>,
    /// The figures of each configuration, in the order given.
    pub configurations: Vec<Figures>,
    /// Each pair of configurations compared.
    pub comparisons: Vec<Comparison>,
    /// How the comparisons were made and judged, in a paragraph for the reader.
    pub method: &'static str,
}

/// What `--precision` asked for and what was reached, in percentage points.
#[derive(Clone, Debug, Serialize)]
pub struct Precision {
    /// The precision asked for.
    pub asked: f64,
    /// The most matches per configuration the run could play to reach it.
    pub cap: u64,
    /// The widest interval of any win share, as the distance from the share to its far end.
    pub reached: f64,
}

/// The figures of one configuration.
#[derive(Clone, Debug, Serialize)]
pub struct Figures {
    /// The configuration's name.
    pub label: String,
    /// The game's summary in this configuration.
    pub summary: String,
    /// Matches played.
    pub matches: u64,
    /// Matches stopped by a run-time problem or that did not end; no figure counts them.
    pub stopped: u64,
    /// Each player's wins.
    pub players: Vec<Share>,
    /// Each side's wins (empty when every side is one player).
    pub sides: Vec<Share>,
    /// Matches that ended in a draw.
    pub draws: Share,
    /// How the player who decided first did, when the matches had one.
    pub starter: Option<Starter>,
    /// Decisions per match.
    pub decisions: Spread,
    /// How many times the outermost phase around the decisions was entered; `None` when the
    /// decisions are in no phase.
    pub rounds: Option<Spread>,
    /// The result's key as the rule file writes it, in which the margin is counted.
    pub key: String,
    /// The winner's lead over the runner-up at the end, in the result's key.
    pub margin: Spread,
    /// How often the lead changed hands; `None` when no match had more than one round (the
    /// lead is read at the start of each round and at the end).
    pub lead: Option<Lead>,
}

/// How often a different seat or side came to lead alone, per match.
#[derive(Clone, Debug, Serialize)]
pub struct Lead {
    /// Changes of the lead per match.
    pub changes: Spread,
    /// The share of matches in which the lead changed hands at least once.
    pub changed: Option<Estimate>,
}

/// How often someone won, as a count and a share of the finished matches.
#[derive(Clone, Debug, Serialize)]
pub struct Share {
    /// The player or side.
    pub who: String,
    /// Matches won.
    pub count: u64,
    /// The share of the finished matches won, with its 95 % interval.
    pub share: Option<Estimate>,
}

/// The player who made the first decision: how often it won, and its edge over an even share
/// (its win share less the share of winners among the players; 0 when starting does not matter).
#[derive(Clone, Debug, Serialize)]
pub struct Starter {
    /// Matches in which some player decided first.
    pub matches: u64,
    /// How many of them that player won.
    pub wins: u64,
    /// Its win share, with its 95 % interval.
    pub share: Option<Estimate>,
    /// Its edge over an even share, with its 95 % interval.
    pub edge: Option<Estimate>,
}

/// The mean and the 10th, 50th and 90th percentiles of a per-match count.
#[derive(Clone, Debug, Serialize)]
pub struct Spread {
    /// The mean.
    pub mean: Option<Estimate>,
    /// The 10th percentile.
    pub p10: Option<Estimate>,
    /// The median.
    pub p50: Option<Estimate>,
    /// The 90th percentile.
    pub p90: Option<Estimate>,
}

impl Spread {
    fn of(h: &Histogram) -> Spread {
        Spread {
            mean: h.moments().and_then(|m| m.mean()),
            p10: h.quantile(0.1),
            p50: h.quantile(0.5),
            p90: h.quantile(0.9),
        }
    }
}

/// Two configurations side by side, on the matches both finished.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// The first configuration's name.
    pub first: String,
    /// The second configuration's name.
    pub second: String,
    /// The paired matches both configurations finished.
    pub matches: u64,
    /// The figures that changed in some paired match, each with its test.
    pub differences: Vec<Difference>,
    /// Figures that came out the same in every paired match: nothing to test.
    pub unchanged: Vec<String>,
}

/// What a figure counts, which says how it is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// A share of matches, shown in percent.
    Share,
    /// A difference of shares, shown in percentage points with its sign.
    Points,
    /// A mean count per match.
    Count,
}

/// One figure of two configurations, its change and the verdict.
#[derive(Clone, Debug, Serialize)]
pub struct Difference {
    /// The figure's name, as the report prints it.
    pub figure: String,
    /// What it counts.
    pub unit: Unit,
    /// The first configuration's figure.
    pub first: Option<Estimate>,
    /// The second configuration's figure.
    pub second: Option<Estimate>,
    /// The second configuration's figure less the first's, on the paired matches.
    pub change: Option<Estimate>,
    /// `McNemar` or `paired z`.
    pub test: &'static str,
    /// The test's p-value.
    pub p: f64,
    /// The p-value after Holm's correction over every comparison in the report.
    pub adjusted_p: f64,
    /// Whether the adjusted p-value is under 5 %.
    pub significant: bool,
    /// The verdict in a sentence for the reader.
    pub sentence: String,
}

impl Report {
    /// The report of a run from its counts.
    pub fn of(run: &Run, tallies: &Tallies) -> Report {
        let matches = tallies.matches();
        let configurations: Vec<Figures> =
            run.configurations.iter().zip(&tallies.configurations).map(|(d, t)| figures(d, t)).collect();
        let mut comparisons: Vec<Comparison> = pairs(configurations.len())
            .zip(&tallies.pairs)
            .map(|((i, j), paired)| compare(&run.configurations, &configurations, (i, j), paired))
            .collect();
        judge(&mut comparisons, &run.configurations);
        let precision =
            run.precision.map(|asked| Precision { asked, cap: run.games, reached: 100.0 * super::widest(tallies) });
        Report {
            game: run.game.clone(),
            file: run.file.clone(),
            seeds: [run.seed, run.seed.wrapping_add(matches.saturating_sub(1))],
            bots: run.bots.clone(),
            matches,
            precision,
            configurations,
            comparisons,
            method: METHOD,
        }
    }
}

fn figures(d: &Described, t: &Tally) -> Figures {
    let n = t.finished();
    let shares = |names: &[String], counts: &[u64]| {
        names
            .iter()
            .zip(counts)
            .map(|(who, &count)| Share { who: who.clone(), count, share: share(count, n) })
            .collect()
    };
    let starter = (t.started > 0).then(|| Starter {
        matches: t.started,
        wins: t.starter_wins,
        share: share(t.starter_wins, t.started),
        edge: t.edge.mean().map(|e| e.scaled(1.0 / t.wins.len() as f64)),
    });
    let changed = t.lead_changes.0.iter().filter(|(v, _)| **v > 0).map(|(_, c)| c).sum();
    let lead = Lead { changes: Spread::of(&t.lead_changes), changed: share(changed, n) };
    Figures {
        label: d.config.label.clone(),
        summary: d.summary.clone(),
        matches: t.matches,
        stopped: t.stopped,
        players: shares(&d.players, &t.wins),
        sides: if d.sides.is_empty() { Vec::new() } else { shares(&d.sides, &t.side_wins) },
        draws: Share { who: "draws".to_string(), count: t.draws, share: share(t.draws, n) },
        starter,
        decisions: Spread::of(&t.decisions),
        rounds: t.rounds.0.keys().any(|r| *r > 0).then(|| Spread::of(&t.rounds)),
        key: d.key.clone(),
        margin: Spread::of(&t.margin),
        lead: t.rounds.0.keys().any(|r| *r > 1).then_some(lead),
    }
}

/// The differences between configurations `i` and `j` that can be measured (not yet judged).
fn compare(described: &[Described], figures: &[Figures], (i, j): (usize, usize), paired: &Paired) -> Comparison {
    let (a, b) = (&figures[i], &figures[j]);
    let n = paired.matches;
    let mut differences = Vec::new();
    let mut unchanged = Vec::new();
    let mut share_of = |figure: String, first: Option<Estimate>, second: Option<Estimate>, d: &Discordant| {
        if d.first + d.second == 0 {
            unchanged.push(figure);
            return;
        }
        differences.push(Difference {
            figure,
            unit: Unit::Share,
            first,
            second,
            change: d.difference(n),
            test: "McNemar",
            p: d.p(),
            adjusted_p: 1.0,
            significant: false,
            sentence: String::new(),
        })
    };
    let partners = !a.sides.is_empty() && !b.sides.is_empty();
    // Partners win together when the result ranks sides: their sides say it all.
    let by_sides = partners && described[i].by_sides && described[j].by_sides;
    for (p, d) in paired.wins.iter().enumerate().filter(|_| !by_sides) {
        share_of(format!("{} wins", a.players[p].who), a.players[p].share, b.players[p].share, d);
    }
    if partners {
        for (t, d) in paired.side_wins.iter().enumerate() {
            share_of(format!("{} wins", a.sides[t].who), a.sides[t].share, b.sides[t].share, d);
        }
    }
    if a.draws.count + b.draws.count > 0 {
        share_of("draws".to_string(), a.draws.share, b.draws.share, &paired.draws);
    }
    let mut mean_of =
        |figure: &str, unit: Unit, (first, second): (Option<Estimate>, Option<Estimate>), m: &Moments, scale: f64| {
            let Some(p) = m.p_zero_mean() else { return };
            if m.squares == 0 {
                unchanged.push(figure.to_string());
                return;
            }
            differences.push(Difference {
                figure: figure.to_string(),
                unit,
                first,
                second,
                change: m.mean().map(|e| e.scaled(scale)),
                test: "paired z",
                p,
                adjusted_p: 1.0,
                significant: false,
                sentence: String::new(),
            })
        };
    if let (Some(sa), Some(sb)) = (&a.starter, &b.starter) {
        let scale = 1.0 / (a.players.len() * b.players.len()) as f64;
        mean_of("the starting player's edge", Unit::Points, (sa.edge, sb.edge), &paired.edge, scale);
    }
    mean_of("decisions per match", Unit::Count, (a.decisions.mean, b.decisions.mean), &paired.decisions, 1.0);
    if let (Some(ra), Some(rb)) = (&a.rounds, &b.rounds) {
        mean_of("rounds per match", Unit::Count, (ra.mean, rb.mean), &paired.rounds, 1.0);
    }
    let margin = format!("winning margin ({})", a.key);
    mean_of(&margin, Unit::Count, (a.margin.mean, b.margin.mean), &paired.margin, 1.0);
    if let (Some(la), Some(lb)) = (&a.lead, &b.lead) {
        let means = (la.changes.mean, lb.changes.mean);
        mean_of("lead changes per match", Unit::Count, means, &paired.lead_changes, 1.0);
    }
    Comparison {
        first: described[i].config.label.clone(),
        second: described[j].config.label.clone(),
        matches: n,
        differences,
        unchanged,
    }
}

/// Holm's correction over every difference of the report, then the verdicts in words.
fn judge(comparisons: &mut [Comparison], described: &[Described]) {
    let ps: Vec<f64> = comparisons.iter().flat_map(|c| c.differences.iter().map(|d| d.p)).collect();
    let mut adjusted = holm(&ps).into_iter();
    for c in comparisons.iter_mut() {
        let phrase = |label: &str| {
            described.iter().find(|d| d.config.label == label).map_or(String::new(), |d| d.config.phrase())
        };
        let (first, second) = (phrase(&c.first), phrase(&c.second));
        for d in &mut c.differences {
            d.adjusted_p = adjusted.next().unwrap_or(1.0);
            d.significant = d.adjusted_p < ALPHA;
            d.sentence = sentence(d, &first, &second);
        }
    }
}

/// "side A wins 50.2 % (48.0-52.4) as written, 53.1 % (51.0-55.2) with trick_cost=15:
/// significant (p = 0.0004)", the p-value after Holm's correction.
fn sentence(d: &Difference, first: &str, second: &str) -> String {
    let show = |e: &Option<Estimate>| in_unit(d.unit, e);
    let verdict = if d.significant { "significant" } else { "not significant" };
    format!(
        "{} {} {first}, {} {second}: {verdict} ({})",
        d.figure,
        show(&d.first),
        show(&d.second),
        p_text(d.adjusted_p)
    )
}

/// A p-value for people: "p = 0.41", "p = 0.0032", "p < 0.0001".
pub fn p_text(p: f64) -> String {
    if p < 1e-4 {
        "p < 0.0001".to_string()
    } else if p >= 0.1 {
        format!("p = {p:.2}")
    } else {
        format!("p = {p:.4}")
    }
}
