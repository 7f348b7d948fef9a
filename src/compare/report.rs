//! The report of a run, worked out from its counts alone: for each configuration every figure
//! with its 95 % interval, and for each two configurations which differences are significant.
//! The same run and counts give the same report, byte for byte, in every output.

use super::text::in_unit;
use super::{Described, Run};
use crate::sim::{HALF_TIME, Paired, Tallies, Tally, pairs};
use crate::stats::{ALPHA, Discordant, Estimate, Histogram, Moments, holm, p_equal, share};
use serde::Serialize;

/// How the report works out its figures and tests, in plain words.
pub const METHOD: &str = "Every figure comes with its 95 % interval: Wilson's for shares, Student's t for means, \
order statistics for percentiles. Matches are paired by seed: match i of every configuration starts from seed + i, \
so two configurations are compared on the same deals for as long as their rules let them stay the same. A share is \
compared with McNemar's test on the matches where it differed (exact up to 1000 of them), a mean with a t-test on \
the per-match differences (a sign test when they are all equal). Holm's correction over all the comparisons made \
keeps the chance of calling any difference significant when none is real under 5 %: the p printed is the adjusted \
one. Fairness tests a \
configuration's seats against equal win counts (Pearson's chi-squared) and the starter's edge against none (a \
t-test), each on its own.";

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
    /// The widest interval of any headline share (wins, the starter's wins, wins from behind,
    /// the strong player's wins), as the distance from the share to its far end.
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
    /// Rounds per match after which every key of the result stood as before; `None` when the
    /// decisions are in no phase.
    pub drawn_rounds: Option<Estimate>,
    /// How the strong player of `--skill` did, when it was measured.
    pub skill: Option<Skilled>,
    /// The share of matches won by a seat or side that trailed at some point.
    pub comebacks: Option<Estimate>,
    /// How far those winners trailed at worst, on average, in the result's key.
    pub behind: Option<Estimate>,
    /// Of the matches with one leader at half-time (in decisions), the share it went on to win.
    pub security: Option<Estimate>,
    /// The same at each tenth of the match from the first to the ninth.
    pub leaders: Vec<Option<Estimate>>,
    /// How far into the match (a share of its decisions) the winner led alone at every tenth
    /// to the end, on average.
    pub settled: Option<Estimate>,
    /// The gap between first and last at the end, in the result's key; `None` when it is the
    /// winning margin in every match (as when the result ranks two).
    pub spread: Option<Spread>,
    /// The winners' lead over the best of the others at each tenth of the match, from the
    /// start to the end (negative when behind), on average.
    pub trend: Vec<Option<Estimate>>,
    /// Whether the seats and the starter win equal shares.
    pub fairness: Fairness,
}

/// The tests of fairness: the p-values of the hypotheses that every player (or side, when
/// partners win together) wins as often, and that starting is worth nothing.
#[derive(Clone, Debug, Serialize)]
pub struct Fairness {
    /// Pearson's chi-squared test of the win counts against equal ones.
    pub seats: Option<f64>,
    /// The t-test of the starter's edge against none.
    pub starter: Option<f64>,
}

/// The stronger player of `--skill` against weaker ones.
#[derive(Clone, Debug, Serialize)]
pub struct Skilled {
    /// `STRONG/WEAK`, the kinds of bot.
    pub kinds: String,
    /// Skill matches finished.
    pub matches: u64,
    /// How many the strong player won.
    pub wins: u64,
    /// Its win share with its 95 % interval.
    pub share: Option<Estimate>,
    /// The share a player as strong as the others would have (the mean share of winners).
    pub equal: Option<f64>,
    /// Its edge over that share, with its 95 % interval.
    pub edge: Option<Estimate>,
    /// The p-value of the hypothesis that it has no edge.
    pub p: Option<f64>,
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
        Spread { mean: h.mean(), p10: h.quantile(0.1), p50: h.quantile(0.5), p90: h.quantile(0.9) }
    }
}

/// Two configurations side by side, on the matches both finished.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// The first configuration's name.
    pub first: String,
    /// The second configuration's name.
    pub second: String,
    /// How sentences name the two: "as written", "with trick_cost=15 (points a trick costs)".
    pub phrases: [String; 2],
    /// The same without the parameters' descriptions, for a sentence that gave them already.
    pub short_phrases: [String; 2],
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

/// What a figure measures, which decides how its verdict is said.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Aspect {
    /// Who wins: a seat's or side's wins, draws.
    Wins,
    /// Fairness: the starting player's edge.
    Fairness,
    /// Skill: how often the stronger player wins.
    Skill,
    /// Drama: wins from behind.
    Drama,
    /// Security: how often the leader goes on to win.
    Security,
    /// Convergence: how early the winner is settled.
    Convergence,
    /// How far apart the scores end.
    Spread,
    /// How long a match lasts.
    Length,
    /// Rounds that change no score.
    Drawn,
    /// How lively a match is: lead changes.
    Lead,
}

/// One figure of two configurations, its change and the verdict.
#[derive(Clone, Debug, Serialize)]
pub struct Difference {
    /// The figure's name, as the report prints it.
    pub figure: String,
    /// What it counts.
    pub unit: Unit,
    /// What it measures.
    pub aspect: Aspect,
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
    /// The report as JSON, as `--format json` prints it.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The report of a run from its counts.
    pub fn of(run: &Run, tallies: &Tallies) -> Report {
        let matches = tallies.matches();
        let configurations: Vec<Figures> = run
            .configurations
            .iter()
            .zip(&tallies.configurations)
            .map(|(d, t)| figures(d, t, run.skill.as_deref()))
            .collect();
        let mut comparisons: Vec<Comparison> = pairs(configurations.len())
            .zip(&tallies.pairs)
            .map(|((i, j), paired)| compare(&run.configurations, &configurations, (i, j), paired))
            .collect();
        judge(&mut comparisons);
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

fn figures(d: &Described, t: &Tally, skill: Option<&str>) -> Figures {
    let n = t.finished();
    let players = t.wins.len() as f64;
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
        edge: player_edge(&t.edge, players),
    });
    let changed = t.lead_changes.0.iter().filter(|(v, _)| **v > 0).map(|(_, c)| c).sum();
    let lead = Lead { changes: Spread::of(&t.lead_changes), changed: share(changed, n) };
    let has_rounds = t.rounds.0.keys().any(|r| *r > 0);
    let leaders: Vec<Option<Estimate>> = t.leader.iter().map(|[led, won]| share(*won, *led)).collect();
    let behind = Histogram(t.deficit.0.iter().filter(|(v, _)| **v > 0).map(|(v, c)| (*v, *c)).collect());
    // Partners who win together are judged as their side.
    let winners = if d.by_sides && !t.side_wins.is_empty() { &t.side_wins } else { &t.wins };
    Figures {
        label: d.config.label.clone(),
        summary: d.summary.clone(),
        matches: t.matches,
        stopped: t.stopped,
        players: shares(&d.players, &t.wins),
        sides: if d.sides.is_empty() { Vec::new() } else { shares(&d.sides, &t.side_wins) },
        draws: Share { who: "draws".to_string(), count: t.draws, share: share(t.draws, n) },
        fairness: Fairness {
            seats: p_equal(winners),
            starter: (t.started > 0).then(|| t.edge.p_zero_mean()).flatten(),
        },
        starter,
        decisions: Spread::of(&t.decisions),
        rounds: has_rounds.then(|| Spread::of(&t.rounds)),
        key: d.key.clone(),
        margin: Spread::of(&t.margin),
        lead: t.rounds.0.keys().any(|r| *r > 1).then_some(lead),
        drawn_rounds: has_rounds.then(|| t.drawn_rounds.mean()).flatten(),
        skill: skill.map(|kinds| skilled(kinds, &t.skill, players)),
        comebacks: share(t.comebacks, n),
        behind: behind.mean_within_range(),
        security: leaders.get(HALF_TIME).copied().flatten(),
        leaders,
        settled: t.settled.moments().and_then(|m| m.bounded_mean(1.0, 10.0)).map(|e| e.scaled(0.1)),
        spread: (t.spread != t.margin).then(|| Spread::of(&t.spread)),
        trend: t.trend.iter().map(Moments::mean).collect(),
    }
}

/// A player's edge over an equal share from its per-match points (`players` for a win, less
/// the number of winners): a share of a match, between -(players - 1)/players and the opposite.
fn player_edge(points: &Moments, players: f64) -> Option<Estimate> {
    let most = players - 1.0;
    points.bounded_mean(-most, most).map(|e| e.scaled(1.0 / players))
}

/// The strong player's figures from its skill matches.
fn skilled(kinds: &str, x: &crate::sim::Skill, players: f64) -> Skilled {
    let n = x.finished();
    let edge = player_edge(&x.edge, players);
    // The winners' share per player: the strong player's wins less its edge, per match.
    let equal = (n > 0).then(|| (x.wins as f64 * players - x.edge.sum as f64) / (players * n as f64));
    Skilled {
        kinds: kinds.to_string(),
        matches: n,
        wins: x.wins,
        share: share(x.wins, n),
        equal,
        edge,
        p: x.edge.p_zero_mean(),
    }
}

/// A difference to be judged: its figure, what it counts and measures, the two values and the
/// change with its test (not yet corrected).
fn difference(
    figure: String,
    (unit, aspect): (Unit, Aspect),
    values: [Option<Estimate>; 3],
    test: (&'static str, f64),
) -> Difference {
    let [first, second, change] = values;
    Difference {
        figure,
        unit,
        aspect,
        first,
        second,
        change,
        test: test.0,
        p: test.1,
        adjusted_p: 1.0,
        significant: false,
        sentence: String::new(),
    }
}

/// The differences of one comparison being gathered: tested ones, and those the same in every
/// match.
#[derive(Default)]
struct Gathered {
    differences: Vec<Difference>,
    unchanged: Vec<String>,
}

impl Gathered {
    /// A share that differed in `d` of `n` paired matches.
    fn share(
        &mut self,
        figure: String,
        aspect: Aspect,
        values: (Option<Estimate>, Option<Estimate>),
        (n, d): (u64, &Discordant),
    ) {
        if d.first + d.second == 0 {
            self.unchanged.push(figure);
            return;
        }
        let values = [values.0, values.1, d.difference(n)];
        self.differences.push(difference(figure, (Unit::Share, aspect), values, ("McNemar", d.p())));
    }

    /// A mean of per-match changes `m`, each `scale` of the figure's unit.
    fn mean(
        &mut self,
        figure: &str,
        (unit, aspect): (Unit, Aspect),
        values: (Option<Estimate>, Option<Estimate>),
        m: &Moments,
        scale: f64,
    ) {
        let Some(p) = m.p_zero_mean() else { return };
        if m.squares == 0 {
            self.unchanged.push(figure.to_string());
            return;
        }
        let values = [values.0, values.1, m.mean().map(|e| e.scaled(scale))];
        self.differences.push(difference(figure.to_string(), (unit, aspect), values, ("paired z", p)));
    }
}

/// Whether the change in decisions is the same multiple of the change in rounds in every
/// paired match (as when every round has as many decisions): then the multiple.
fn fixed_multiple(paired: &Paired) -> Option<f64> {
    let (d, r, dr) = (paired.decisions.squares, paired.rounds.squares, paired.decisions_by_rounds);
    if r == 0 || dr == 0 {
        return None;
    }
    // Cauchy and Schwarz: (sum d r)^2 = (sum d^2)(sum r^2) only when d is a fixed multiple of r.
    let equal = match (dr.checked_mul(dr), d.checked_mul(r)) {
        (Some(a), Some(b)) => a == b,
        _ => ((dr as f64).powi(2) - d as f64 * r as f64).abs() <= 1e-12 * d as f64 * r as f64,
    };
    equal.then(|| dr as f64 / r as f64)
}

/// The differences between configurations `i` and `j` that can be measured (not yet judged).
fn compare(described: &[Described], figures: &[Figures], (i, j): (usize, usize), paired: &Paired) -> Comparison {
    let (a, b) = (&figures[i], &figures[j]);
    let n = paired.matches;
    let mut g = Gathered::default();
    let partners = !a.sides.is_empty() && !b.sides.is_empty();
    // Partners win together when the result ranks sides: their sides say it all.
    let by_sides = partners && described[i].by_sides && described[j].by_sides;
    for (p, d) in paired.wins.iter().enumerate().filter(|_| !by_sides) {
        let values = (a.players[p].share, b.players[p].share);
        g.share(format!("{} wins", a.players[p].who), Aspect::Wins, values, (n, d));
    }
    if partners {
        for (t, d) in paired.side_wins.iter().enumerate() {
            g.share(format!("{} wins", a.sides[t].who), Aspect::Wins, (a.sides[t].share, b.sides[t].share), (n, d));
        }
    }
    if a.draws.count + b.draws.count > 0 {
        g.share("draws".to_string(), Aspect::Wins, (a.draws.share, b.draws.share), (n, &paired.draws));
    }
    if let (Some(sa), Some(sb)) = (&a.skill, &b.skill) {
        let (count, d) = &paired.skill;
        g.share("the strong player wins".to_string(), Aspect::Skill, (sa.share, sb.share), (*count, d));
    }
    g.share("matches won from behind".to_string(), Aspect::Drama, (a.comebacks, b.comebacks), (n, &paired.comebacks));
    let (count, d) = &paired.security;
    g.share("the half-time leader wins".to_string(), Aspect::Security, (a.security, b.security), (*count, d));
    if let (Some(sa), Some(sb)) = (&a.starter, &b.starter) {
        let scale = 1.0 / (a.players.len() * b.players.len()) as f64;
        g.mean("the starting player's edge", (Unit::Points, Aspect::Fairness), (sa.edge, sb.edge), &paired.edge, scale);
    }
    let multiple = fixed_multiple(paired);
    if multiple.is_none() {
        let means = (a.decisions.mean, b.decisions.mean);
        g.mean("decisions per match", (Unit::Count, Aspect::Length), means, &paired.decisions, 1.0);
    }
    if let (Some(ra), Some(rb)) = (&a.rounds, &b.rounds) {
        let name = match multiple {
            Some(k) => {
                let s = if k == 1.0 { "" } else { "s" };
                format!("rounds per match (with {} decision{s} a round)", super::text::number(k))
            }
            None => "rounds per match".to_string(),
        };
        g.mean(&name, (Unit::Count, Aspect::Length), (ra.mean, rb.mean), &paired.rounds, 1.0);
        let drawn = (a.drawn_rounds, b.drawn_rounds);
        g.mean("rounds that changed no score", (Unit::Count, Aspect::Drawn), drawn, &paired.drawn_rounds, 1.0);
    }
    let margin = format!("winning margin in {}", a.key);
    g.mean(&margin, (Unit::Count, Aspect::Spread), (a.margin.mean, b.margin.mean), &paired.margin, 1.0);
    if let (Some(sa), Some(sb)) = (&a.spread, &b.spread) {
        let spread = format!("gap between first and last in {}", a.key);
        g.mean(&spread, (Unit::Count, Aspect::Spread), (sa.mean, sb.mean), &paired.spread, 1.0);
    }
    g.mean(
        "how far in the winner is settled",
        (Unit::Share, Aspect::Convergence),
        (a.settled, b.settled),
        &paired.settled,
        0.1,
    );
    if let (Some(la), Some(lb)) = (&a.lead, &b.lead) {
        let means = (la.changes.mean, lb.changes.mean);
        g.mean("lead changes per match", (Unit::Count, Aspect::Lead), means, &paired.lead_changes, 1.0);
    }
    Comparison {
        first: described[i].config.label.clone(),
        second: described[j].config.label.clone(),
        phrases: [described[i].phrase(), described[j].phrase()],
        short_phrases: [described[i].config.phrase(None, |_| None), described[j].config.phrase(None, |_| None)],
        matches: n,
        differences: g.differences,
        unchanged: g.unchanged,
    }
}

/// Holm's correction over every difference of the report, then the verdicts in words.
fn judge(comparisons: &mut [Comparison]) {
    let ps: Vec<f64> = comparisons.iter().flat_map(|c| c.differences.iter().map(|d| d.p)).collect();
    let mut adjusted = holm(&ps).into_iter();
    for c in comparisons.iter_mut() {
        for d in &mut c.differences {
            d.adjusted_p = adjusted.next().unwrap_or(1.0);
            d.significant = d.adjusted_p < ALPHA;
            d.sentence = sentence(d, &c.short_phrases[0], &c.short_phrases[1]);
        }
    }
}

/// "side A wins 50.2 % (48.0-52.4) as written, 53.1 % (51.0-55.2) with trick_cost=15:
/// significant (adjusted p = 0.0004)", the p-value after Holm's correction.
fn sentence(d: &Difference, first: &str, second: &str) -> String {
    let show = |e: &Option<Estimate>| in_unit(d.unit, e);
    let verdict = if d.significant { "significant" } else { "not significant" };
    format!(
        "{} {} {first}, {} {second}: {verdict} (adjusted {})",
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
