//! Shards of a run: `--shard I/N` plays the I-th of N slices of the matches and writes its
//! counts as JSON; `paradox merge` adds the N shards up into the counts one run would have, so
//! the report is the same, byte for byte. Nothing else is shared between the machines.

use super::Run;
use crate::sim::{Paired, Tallies, Tally, pairs};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::ops::Range;

/// The version of the shard format; a file of another version is refused.
pub const FORMAT: u32 = 1;

/// One slice of a run's matches, with the counts it came to.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Shard {
    /// The shard format's version ([`FORMAT`]), checked when shards are merged.
    pub paradox_shard: u32,
    /// This shard's number (from 1) and how many shards the run has.
    pub shard: [u64; 2],
    /// The run the shard belongs to: shards merge only when this is the same.
    pub run: Run,
    /// The counts of this shard's matches.
    pub tallies: Tallies,
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

/// Adds up the shards of one run: every shard of it exactly once, all from the same rule file,
/// configurations, seed, games and bots.
pub fn merge(shards: &[(String, Shard)]) -> Result<(Run, Tallies), String> {
    let Some((first_name, first)) = shards.first() else { return Err("no shard to merge".to_string()) };
    let n = first.shard[1];
    // The shards met, by number: never more than the files given, whatever N a file says.
    let mut seen = BTreeSet::new();
    let mut tallies =
        Tallies { configurations: first.tallies.configurations.clone(), pairs: first.tallies.pairs.clone() };
    for (k, (name, shard)) in shards.iter().enumerate() {
        if shard.paradox_shard != FORMAT {
            return Err(format!("{name}: shard format {} (this paradox reads {FORMAT})", shard.paradox_shard));
        }
        if shard.run != first.run || shard.shard[1] != n {
            return Err(format!("{name} is a shard of another run than {first_name}"));
        }
        let [i, _] = shard.shard;
        if i == 0 || i > n || !seen.insert(i) {
            return Err(format!("{name}: shard {i} of {n} is given twice or does not exist"));
        }
        let expected = slice(shard.run.games, shard.shard);
        if !fits(&shard.run, &shard.tallies) || shard.tallies.matches() != expected.end - expected.start {
            return Err(format!("{name}: the counts do not fit shard {i} of {n} of this run (a damaged file?)"));
        }
        if k > 0 {
            tallies.merge(&shard.tallies);
        }
    }
    let missing = n - seen.len() as u64;
    if missing > 0 {
        let shown: Vec<String> =
            (1..=n).filter(|i| !seen.contains(i)).take(MISSING_SHOWN).map(|i| i.to_string()).collect();
        let more = missing - shown.len() as u64;
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        return Err(format!("shard {}{more} of {n} is missing", shown.join(", ")));
    }
    Ok((first.run.clone(), tallies))
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
