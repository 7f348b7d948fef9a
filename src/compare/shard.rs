//! Shards of a run: `--shard I/N` plays the I-th of N slices of the matches and writes its
//! counts as JSON; `paradox merge` adds the N shards up into the counts one run would have, so
//! the report is the same, byte for byte. Nothing else is shared between the machines. A run of
//! `sim` or `compare` ([`Run`]) and one of `ladder` ([`ladder::Setup`]) are both [`Sharded`]:
//! their shards are read, checked and added up by the same [`Merge`].

use super::Run;
use crate::files::{self, MAX_SHARD_FILE};
use crate::sim::ladder::{self, Ladder};
use crate::sim::{Paired, Tallies, Tally, pairs};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::ops::Range;
use std::path::PathBuf;

/// The version of the shard format; a file of another version is refused.
pub const FORMAT: u32 = 2;

/// The command a shard's run was played by, which says what its counts are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunKind {
    /// `paradox sim` or `compare` (not written in the file: their shards came first).
    #[default]
    Lab,
    /// `paradox ladder`.
    Ladder,
}

impl RunKind {
    /// The commands, in words.
    fn command(self) -> &'static str {
        match self {
            RunKind::Lab => "paradox sim or compare",
            RunKind::Ladder => "paradox ladder",
        }
    }

    /// Whether this is [`RunKind::Lab`], left out of the file.
    fn is_lab(&self) -> bool {
        *self == RunKind::Lab
    }
}

/// A run that is played in shards: what every shard of it records (shards merge only when it
/// is the same), and the counts of a slice of its matches, which add up.
pub trait Sharded: Clone + PartialEq + Serialize + DeserializeOwned {
    /// The counts of a slice of the run's matches.
    type Counts: Clone + Serialize + DeserializeOwned;
    /// The command that plays it.
    const KIND: RunKind;
    /// How many matches the run plays in all, of which the shards are slices.
    fn matches(&self) -> u64;
    /// `Err` (saying why) unless `counts` are counts that the matches `slice` of the run can
    /// give, of the shape the report relies on.
    fn check(&self, counts: &Self::Counts, slice: Range<u64>) -> Result<(), String>;
    /// Adds the counts `more` of another shard to `sum`; `Err` names a count that would not fit.
    fn add(sum: &mut Self::Counts, more: &Self::Counts) -> Result<(), String>;
}

/// One slice of a run's matches, with the counts it came to.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(bound(deserialize = "R: Sharded"))]
pub struct Shard<R: Sharded = Run> {
    /// The shard format's version ([`FORMAT`]), checked when shards are merged.
    pub paradox_shard: u32,
    /// The command that played it.
    #[serde(default, skip_serializing_if = "RunKind::is_lab")]
    pub kind: RunKind,
    /// This shard's number (from 1) and how many shards the run has.
    pub shard: [u64; 2],
    /// The run the shard belongs to: shards merge only when this is the same.
    pub run: R,
    /// The counts of this shard's matches.
    pub tallies: R::Counts,
}

impl<R: Sharded> Shard<R> {
    /// Shard `shard` (`[i, n]`) of `run`, which came to `tallies`.
    pub fn new(shard: [u64; 2], run: R, tallies: R::Counts) -> Shard<R> {
        Shard { paradox_shard: FORMAT, kind: R::KIND, shard, run, tallies }
    }
}

/// Reads `I/N`: the I-th of N shards, 1 <= I <= N.
pub fn parse(text: &str) -> Result<[u64; 2], String> {
    let wrong = || format!("--shard {text}: write I/N, the I-th of N slices (1 <= I <= N), as in 2/4");
    let (i, n) = text.split_once('/').ok_or_else(wrong)?;
    let (i, n) = (i.trim().parse::<u64>().map_err(|_| wrong())?, n.trim().parse::<u64>().map_err(|_| wrong())?);
    if i == 0 || i > n { Err(wrong()) } else { Ok([i, n]) }
}

/// The match numbers of shard `i` of `n` among `games` matches: the i-th of n slices as even as
/// whole numbers allow.
pub fn slice(games: u64, [i, n]: [u64; 2]) -> Range<u64> {
    let at = |k: u64| (games as u128 * k as u128 / n as u128) as u64;
    at(i - 1)..at(i)
}

/// How many missing shards a refusal names.
const MISSING_SHOWN: usize = 10;

/// The most bytes of shards `paradox merge` reads in all, each file at most
/// [`MAX_SHARD_FILE`]: the shards are looked at before any is read, and read one at a time
/// into the sum.
pub const MAX_SHARDS_TOTAL: u64 = 4 * MAX_SHARD_FILE;

/// The shards of one run, added up: a `sim` or `compare` run's counts, or a ladder's table.
#[derive(Debug)]
pub enum Merged {
    /// A run of `paradox sim` or `compare`, with its counts.
    Lab(Run, Tallies),
    /// A run of `paradox ladder`: its table.
    Ladder(Ladder),
}

/// Reads the shard files of one run, of `sim`, `compare` or `ladder`, and adds them up (see
/// [`Merge`]). `Err` names the file and what is wrong with it.
pub fn merge_files(paths: &[PathBuf]) -> Result<Merged, String> {
    let mut total = 0u64;
    for path in paths {
        let cannot = |e: String| format!("cannot read {}: {e}", path.display());
        let meta = std::fs::metadata(path).map_err(|e| cannot(e.to_string()))?;
        files::regular(&meta).map_err(|e| cannot(e.to_string()))?;
        total = total.saturating_add(meta.len());
    }
    let too_much = || {
        format!("the shards come to more than {}, the most paradox merge reads in all", files::size(MAX_SHARDS_TOTAL))
    };
    if total > MAX_SHARDS_TOTAL {
        return Err(too_much());
    }
    let mut read = 0u64;
    merge_read(paths.iter().map(|path| {
        let name = path.display().to_string();
        let bytes = files::read(path, MAX_SHARD_FILE, "a shard").map_err(|e| format!("cannot read {name}: {e}"))?;
        read += bytes.len() as u64;
        if read > MAX_SHARDS_TOTAL {
            return Err(too_much());
        }
        Ok((name, bytes))
    }))
}

/// Adds up the shards of one run, each its file's name and bytes (or why it could not be
/// read), read one at a time: the run's kind is the first shard's, and every other shard must
/// be of it ([`Merge`]). What [`merge_files`] does once it has the files' sizes checked.
pub fn merge_read(shards: impl IntoIterator<Item = Result<(String, Vec<u8>), String>>) -> Result<Merged, String> {
    let mut shards = shards.into_iter();
    let Some(first) = shards.next().transpose()? else { return Err("no shard to merge".to_string()) };
    match kind_of(&first)? {
        RunKind::Lab => merge_all::<Run>(first, shards).map(|(run, tallies)| Merged::Lab(run, tallies)),
        RunKind::Ladder => {
            merge_all::<ladder::Setup>(first, shards).map(|(run, points)| Merged::Ladder(run.table(&points)))
        }
    }
}

/// The command whose shard the file `name` holding `bytes` is; `Err` if it is no shard.
fn kind_of((name, bytes): &(String, Vec<u8>)) -> Result<RunKind, String> {
    /// What says a shard's kind, the rest of the file passed over.
    #[derive(Deserialize)]
    struct Header {
        /// The command that played the shard.
        #[serde(default)]
        kind: RunKind,
    }
    serde_json::from_slice::<Header>(bytes).map(|h| h.kind).map_err(|e| format!("{name} is not a shard: {e}"))
}

/// Adds up the shard files of a run of kind `R`, the first `first` and then `rest` (each its
/// name and its bytes, or why it could not be read).
fn merge_all<R: Sharded>(
    first: (String, Vec<u8>),
    rest: impl Iterator<Item = Result<(String, Vec<u8>), String>>,
) -> Result<(R, R::Counts), String> {
    let mut merge = Merge::<R>::default();
    for file in std::iter::once(Ok(first)).chain(rest) {
        let file = file?;
        merge.takes(&file.0, kind_of(&file)?)?;
        let (name, bytes) = file;
        let shard = serde_json::from_slice::<Shard<R>>(&bytes)
            .map_err(|e| format!("{name} is not a shard of {}: {e}", R::KIND.command()))?;
        drop(bytes);
        merge.add(&name, shard)?;
    }
    merge.finish()
}

/// Shards of one run being added up: every shard of it exactly once, all of the same run (for
/// `sim` and `compare` the same rule file, configurations, seed, games and bots), each with
/// counts that its matches can give.
pub struct Merge<R: Sharded = Run> {
    /// The first shard's file and run, with the counts so far.
    sum: Option<(String, Shard<R>)>,
    /// The shards met, by number: never more than the files given, whatever N a file says.
    seen: BTreeSet<u64>,
}

impl<R: Sharded> Default for Merge<R> {
    fn default() -> Merge<R> {
        Merge { sum: None, seen: BTreeSet::new() }
    }
}

impl<R: Sharded> Merge<R> {
    /// Adds a shard read from the file `name`.
    pub fn add(&mut self, name: &str, shard: Shard<R>) -> Result<(), String> {
        if shard.paradox_shard != FORMAT {
            return Err(format!("{name}: shard format {} (this paradox reads {FORMAT})", shard.paradox_shard));
        }
        self.takes(name, shard.kind)?;
        let [i, n] = shard.shard;
        if let Some((first_name, first)) = &self.sum
            && (shard.run != first.run || n != first.shard[1])
        {
            return Err(format!("{name} is a shard of another run than {first_name}"));
        }
        if i == 0 || i > n || !self.seen.insert(i) {
            return Err(format!("{name}: shard {i} of {n} is given twice or does not exist"));
        }
        let expected = slice(shard.run.matches(), shard.shard);
        shard.run.check(&shard.tallies, expected).map_err(|e| {
            format!("{name}: the counts do not fit shard {i} of {n} of this run (a damaged file?): {e}")
        })?;
        match &mut self.sum {
            None => self.sum = Some((name.to_string(), shard)),
            Some((_, sum)) => R::add(&mut sum.tallies, &shard.tallies)
                .map_err(|e| format!("{name}: the counts cannot be added to those before: {e}"))?,
        }
        Ok(())
    }

    /// `Err` unless a shard played by a command of `kind`, from the file `name`, can be one of
    /// this run's.
    fn takes(&self, name: &str, kind: RunKind) -> Result<(), String> {
        if kind == R::KIND {
            return Ok(());
        }
        let first = self.sum.as_ref().map_or(String::new(), |(first, _)| format!(" like {first}"));
        Err(format!("{name} is a shard of {}, not of {}{first}: they do not merge", kind.command(), R::KIND.command()))
    }

    /// The run and its counts, once every shard of it is in.
    pub fn finish(self) -> Result<(R, R::Counts), String> {
        let Some((_, sum)) = self.sum else { return Err("no shard to merge".to_string()) };
        let n = sum.shard[1];
        let missing = n - self.seen.len() as u64;
        if missing > 0 {
            let shown: Vec<String> =
                (1..=n).filter(|i| !self.seen.contains(i)).take(MISSING_SHOWN).map(|i| i.to_string()).collect();
            let more = missing - shown.len() as u64;
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            return Err(format!("shard {}{more} of {n} is missing", shown.join(", ")));
        }
        Ok((sum.run, sum.tallies))
    }
}

/// A `sim` or `compare` run: its matches are those of each configuration.
impl Sharded for Run {
    type Counts = Tallies;
    const KIND: RunKind = RunKind::Lab;

    fn matches(&self) -> u64 {
        self.games
    }

    fn check(&self, tallies: &Tallies, slice: Range<u64>) -> Result<(), String> {
        if !fits(self, tallies) || tallies.matches() != slice.end - slice.start {
            return Err("not the shape of this run".into());
        }
        counts(self, tallies)
    }

    fn add(sum: &mut Tallies, more: &Tallies) -> Result<(), String> {
        sum.merge(more).and_then(|()| summable(sum))
    }
}

/// Whether a shard's counts have the shape of its run (which the report relies on): a tally
/// per configuration with a count per player (and per side where the run shows sides), as many
/// matches in each, and a pairing per two configurations over the players and sides both have.
fn fits(run: &Run, t: &Tallies) -> bool {
    let described = &run.configurations;
    let tally = |(x, d): (&Tally, &super::Described)| {
        x.wins.len() == d.players.len()
            && (d.sides.is_empty() || x.side_wins.len() == d.sides.len())
            && x.stopped <= x.matches
            && x.matches == t.matches()
            && x.leader.len() == crate::sim::course::BETWEEN
            && x.trend.len() == crate::sim::course::TENTHS
            && x.skill.matches == if run.skill.is_some() { x.matches } else { 0 }
    };
    let paired = |(x, (i, j)): (&Paired, (usize, usize))| {
        let (a, b) = (&t.configurations[i], &t.configurations[j]);
        x.wins.len() == a.wins.len().min(b.wins.len()) && x.side_wins.len() == a.side_wins.len().min(b.side_wins.len())
    };
    t.configurations.len() == described.len()
        && t.configurations.iter().zip(described).all(tally)
        && t.pairs.len() == pairs(described.len()).count()
        && t.pairs.iter().zip(pairs(described.len())).all(paired)
}

/// Whether every count of a shard of the right shape is one its matches can give; `Err` names
/// the count.
fn counts(run: &Run, t: &Tallies) -> Result<(), String> {
    let players = |i: usize| run.configurations[i].players.len() as u64;
    for (i, x) in t.configurations.iter().enumerate() {
        tally_counts(x, players(i)).map_err(|e| format!("configuration {}: {e}", i + 1))?;
    }
    for (x, (i, j)) in t.pairs.iter().zip(pairs(t.configurations.len())) {
        let (a, b) = (&t.configurations[i], &t.configurations[j]);
        let edge = 2 * players(i) * players(j);
        let skill = a.skill.finished().min(b.skill.finished());
        paired_counts(x, [a.finished().min(b.finished()), skill], edge)
            .map_err(|e| format!("configurations {} and {}: {e}", i + 1, j + 1))?;
    }
    Ok(())
}

/// `Err` when `count` is more than `limit`: "draws is 1000, more than the 10 matches finished".
fn at_most(what: &str, count: u64, limit: u64, of: &str) -> Result<(), String> {
    if count <= limit { Ok(()) } else { Err(format!("{what} is {count}, more than the {limit} {of}")) }
}

/// One configuration's counts: every win, draw and start within the matches finished, and a
/// histogram entry per match finished.
fn tally_counts(x: &Tally, players: u64) -> Result<(), String> {
    let finished = x.finished();
    at_most("draws", x.draws, finished, "matches finished")?;
    let decided = finished - x.draws;
    for (what, wins) in [("wins of player", &x.wins), ("wins of side", &x.side_wins)] {
        for (k, w) in wins.iter().enumerate() {
            at_most(&format!("{what} {}", k + 1), *w, decided, "matches finished with a winner")?;
        }
    }
    let all_wins: u128 = x.wins.iter().map(|w| *w as u128).sum();
    if all_wins < decided as u128 {
        return Err(format!("the wins add up to {all_wins}, fewer than the {decided} matches finished with a winner"));
    }
    at_most("started", x.started, finished, "matches finished")?;
    at_most("starter_wins", x.starter_wins, x.started, "matches started")?;
    if x.edge.n != x.started {
        return Err(format!("edge counts {} matches, not the {} started", x.edge.n, x.started));
    }
    if !x.edge.possible(Some(players)) {
        return Err(format!("edge: sums that no {} matches of {players} players give", x.edge.n));
    }
    for (name, h) in x.histograms() {
        match h.count() {
            Some(count) if count == finished => {}
            count => {
                let count = count.map_or("more than 2^64".into(), |c| c.to_string());
                return Err(format!("{name} counts {count} matches, not the {finished} finished"));
            }
        }
        if h.moments().is_none() {
            return Err(format!("{name}: values too large to add up"));
        }
    }
    course_counts(x, finished)?;
    skill_counts(&x.skill, players)
}

/// How the matches went: comebacks, leaders and the settled tenth within the matches finished,
/// each tenth's trend over at most those.
fn course_counts(x: &Tally, finished: u64) -> Result<(), String> {
    at_most("comebacks", x.comebacks, finished, "matches finished")?;
    let from_behind = finished - x.deficit.0.get(&0).copied().unwrap_or(0);
    if from_behind != x.comebacks {
        return Err(format!("deficit counts {from_behind} matches from behind, not the {} comebacks", x.comebacks));
    }
    for (i, [led, won]) in x.leader.iter().enumerate() {
        at_most(&format!("leader at tenth {}", i + 1), *led, finished, "matches finished")?;
        at_most(&format!("leader's wins at tenth {}", i + 1), *won, *led, "matches led")?;
    }
    match x.settled.count() {
        Some(count) if count <= finished && x.settled.0.keys().all(|t| (1..=10).contains(t)) => {}
        _ => return Err(format!("settled: not tenths 1 to 10 of at most the {finished} matches finished")),
    }
    for (i, m) in x.trend.iter().enumerate() {
        if m.n > finished || !m.possible(None) {
            return Err(format!("trend at tenth {i}: sums that no {finished} matches give"));
        }
    }
    Ok(())
}

/// The skill matches: stops and wins within the matches, an edge per match finished.
fn skill_counts(x: &crate::sim::Skill, players: u64) -> Result<(), String> {
    at_most("skill matches stopped", x.stopped, x.matches, "skill matches")?;
    at_most("skill wins", x.wins, x.finished(), "skill matches finished")?;
    if x.edge.n != x.finished() || !x.edge.possible(Some(players)) {
        return Err(format!("skill edge: sums that no {} matches of {players} players give", x.finished()));
    }
    Ok(())
}

/// Two configurations' paired counts: within the matches (and skill matches) both finished,
/// `edge` the largest size of a change in the starter's edge.
fn paired_counts(x: &Paired, [finished, skill]: [u64; 2], edge: u64) -> Result<(), String> {
    at_most("matches", x.matches, finished, "matches both finished")?;
    at_most("skill counts", x.skill.0, skill, "skill matches both finished")?;
    let named = x.wins.iter().enumerate().map(|(k, d)| (format!("wins of player {}", k + 1), d));
    let sides = x.side_wins.iter().enumerate().map(|(k, d)| (format!("wins of side {}", k + 1), d));
    for (what, d) in named.chain(sides).chain([("draws".to_string(), &x.draws)]) {
        let differing = d.first as u128 + d.second as u128;
        if differing > x.matches as u128 {
            return Err(format!("{what} differ in {differing} matches, more than the {} paired", x.matches));
        }
    }
    at_most("edge counts", x.edge.n, x.matches, "matches paired")?;
    if !x.edge.possible(Some(edge)) || !x.skill_edge.possible(Some(edge)) {
        return Err(format!("edge: sums that no {} matches give", x.edge.n));
    }
    for (name, m) in x.changes().into_iter().skip(1) {
        let all = name != "settled";
        if (all && m.n != x.matches) || m.n > x.matches || !m.possible(None) {
            return Err(format!("{name}: sums that no {} paired matches give", x.matches));
        }
    }
    at_most("security counts", x.security.0, x.matches, "matches paired")?;
    for (what, n, d) in [
        ("comebacks", x.matches, &x.comebacks),
        ("security", x.security.0, &x.security.1),
        ("skill", x.skill.0, &x.skill.1),
    ] {
        if d.first as u128 + d.second as u128 > n as u128 {
            return Err(format!("{what} differ in more matches than the {n} paired"));
        }
    }
    if x.skill_edge.n != x.skill.0 {
        return Err(format!(
            "skill_edge counts {} matches, not the {} skill matches paired",
            x.skill_edge.n, x.skill.0
        ));
    }
    Ok(())
}

/// `Err` unless the sums the report draws from every histogram fit in their types.
fn summable(t: &Tallies) -> Result<(), String> {
    for (i, x) in t.configurations.iter().enumerate() {
        for (name, h) in x.histograms() {
            if h.moments().is_none() {
                return Err(format!("configuration {}: {name}: the values add up past what 128 bits hold", i + 1));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_cover_every_match_once() {
        for games in [0, 1, 7, 1000, 1001] {
            for n in 1..=5 {
                let mut next = 0;
                for i in 1..=n {
                    let s = slice(games, [i, n]);
                    assert_eq!(s.start, next);
                    next = s.end;
                }
                assert_eq!(next, games);
            }
        }
    }

    #[test]
    fn shard_numbers_are_read_or_refused() {
        assert_eq!(parse("2/4"), Ok([2, 4]));
        for bad in ["0/4", "5/4", "2", "a/b", "2/0", ""] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
