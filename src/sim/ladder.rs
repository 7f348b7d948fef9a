//! The ladder of players (`paradox ladder`): every pair of kinds of bot plays the same deals
//! twice, the seats swapped, and each pair's win share comes with its 95 % interval.
//!
//! In a pair's match `2k` and `2k + 1` (both dealt from seed `seed + k`) player `p` is the first kind of
//! the pair when `p + match` is even, the second kind otherwise: in a game of two each kind sits
//! in each seat once a deal, in a game of partners seated alternately (P1 and P3 against P2 and
//! P4) each kind is one side, and over a deal every seat is played by each kind as often. A
//! match counts for the first kind by the share of its winners it seated (a match with no
//! winner, or one that stopped, counts half).
//!
//! Each player's Elo-like rating is the Bradley-Terry fit of all the pairs' points: the ratings,
//! averaging 1500, for which a player rated `d` points above another is expected to take
//! `1 / (1 + 10^(-d / 400))` of their matches, each pair counted with one drawn match more so
//! that a pair won every time still gives finite ratings.
//!
//! A ladder ([`Setup`]) can be played in shards, each a slice of all its matches, deal by deal
//! (`paradox ladder --shard I/N`): each pair's points ([`Points`]) add up exactly, so `paradox
//! merge` gives the table of one run.

use super::{Entrant, Record, play};
use crate::bots::Kind;
use crate::compare::shard::{RunKind, Sharded};
use crate::engine::Playable;
use crate::repl::Provenance;
use crate::stats::{Estimate, Moments};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::ops::Range;

/// A match's points, in whole units: a share of the winners times this is whole for up to 16
/// winners.
const UNITS: i64 = 720_720;

/// One pair of the ladder: how the first kind fared against the second.
#[derive(Clone, Debug, Serialize)]
pub struct Pairing {
    /// The first of the pair's names, as `--bots` spells them (the weaker one on the ladder).
    pub first: String,
    /// The second of the pair's names.
    pub second: String,
    /// Matches played.
    pub matches: u64,
    /// Matches that ended with no winner or did not end.
    pub no_winner: u64,
    /// The first kind's share of the points, with its 95 % interval.
    pub share: Option<Estimate>,
}

/// The ladder of a game: its players, the weakest first, and every pair.
#[derive(Clone, Debug, Serialize)]
pub struct Ladder {
    /// The game's name.
    pub game: String,
    /// The players, as `--bots` spells them.
    pub players: Vec<String>,
    /// Matches per pair.
    pub games: u64,
    /// The first deal's seed.
    pub seed: u64,
    /// Every pair, in the players' order (the first before the second).
    pub pairs: Vec<Pairing>,
    /// Each player's Elo-like rating, in the players' order (see the module's documentation).
    pub ratings: Vec<f64>,
}

/// The kinds of player `players` names (as `--bots` spells them), each named once. `Err` names
/// a player that is not one, or one named twice.
pub fn kinds(players: &[&str]) -> Result<Vec<Kind>, String> {
    let kinds = players
        .iter()
        .map(|n| {
            Kind::named(n).ok_or_else(|| format!("unknown player `{n}`; the players are {}", Kind::LADDER.join(", ")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(twice) = players.iter().enumerate().find_map(|(i, n)| players[..i].contains(n).then_some(n)) {
        return Err(format!("`{twice}` is named twice; name each player once"));
    }
    Ok(kinds)
}

/// A ladder as asked for: what its table is drawn from besides the counts, and what its shards
/// (`paradox ladder --shard I/N`) must share to be merged. Not the engine: the table is the same
/// with any.
///
/// Its matches are numbered deal by deal: match `g` is deal `g / 2 / P` of pair `g / 2 % P` (of
/// the `P` pairs, in order), its seats swapped when `g` is odd, so that any run of consecutive
/// matches, a shard's slice, holds about as many of each pair's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    /// The game's name.
    pub game: String,
    /// The rule file (and the one a scenario extends) with its SHA-256, `--set` and `--variant`.
    pub origin: Provenance,
    /// The players, as `--bots` spells them, the weakest first.
    pub players: Vec<String>,
    /// Matches per pair: an even number, each deal played twice.
    pub games: u64,
    /// The first deal's seed.
    pub seed: u64,
}

/// What one pair's matches came to, added up exactly (so that shards add up to one run).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Points {
    /// The first kind's points of each match, in units of 1/720,720 of a match (a share of up
    /// to 16 winners is whole); a match with no winner counts half.
    pub points: Moments,
    /// Matches that ended with no winner or did not end.
    pub no_winner: u64,
}

impl Setup {
    /// The ladder of `players` (names as `--bots` spells them, two or more, each once: see
    /// [`Setup::valid`]) in `game` as loaded from `origin`, `games` matches a pair (rounded up
    /// to an even number), deal `k` from seed `seed + k`.
    pub fn new(game: &str, origin: Provenance, players: &[&str], games: u64, seed: u64) -> Setup {
        Setup {
            game: game.to_string(),
            origin,
            players: players.iter().map(|p| p.to_string()).collect(),
            games: games.div_ceil(2).saturating_mul(2),
            seed,
        }
    }

    /// The kinds of its players; `Err` if there are fewer than two, a name is not a player or
    /// is named twice, or the matches a pair are odd or more than paradox counts.
    pub fn valid(&self) -> Result<Vec<Kind>, String> {
        let names: Vec<&str> = self.players.iter().map(String::as_str).collect();
        if names.len() < 2 {
            return Err("--players: name two players or more, as in random,default".to_string());
        }
        let kinds = kinds(&names).map_err(|e| format!("--players: {e}"))?;
        if self.games == u64::MAX || self.games.checked_mul(self.pairs() as u64).is_none() {
            return Err(format!("--games {}: more matches than paradox counts", self.games));
        }
        if !self.games.is_multiple_of(2) {
            return Err(format!("{} matches a pair: each deal is played twice, so an even number", self.games));
        }
        Ok(kinds)
    }

    /// How many pairs of players.
    fn pairs(&self) -> usize {
        super::pairs(self.players.len()).count()
    }

    /// The pair of match `g` (see [`Setup`]), its deal and whether its seats are swapped.
    fn at(&self, g: u64) -> (usize, u64, usize) {
        let pairs = self.pairs().max(1) as u64;
        (((g / 2) % pairs) as usize, g / 2 / pairs, (g % 2) as usize)
    }

    /// How many of pair `pair`'s matches lie in `slice`.
    fn matches_of(&self, pair: usize, slice: &Range<u64>) -> u64 {
        let block = 2 * self.pairs().max(1) as u64;
        let before = |x: u64| 2 * (x / block) + (x % block).saturating_sub(2 * pair as u64).min(2);
        before(slice.end) - before(slice.start)
    }

    /// Plays the matches `slice` of the ladder (all of them: `0..self.matches()`) on the
    /// threads of `pool`, with the engine of `playable`, `done` told of each; what each pair's
    /// matches came to, in the pairs' order. The points depend neither on the number of threads
    /// nor on the engine.
    pub fn play(
        &self,
        playable: &Playable,
        slice: Range<u64>,
        pool: &rayon::ThreadPool,
        done: &(dyn Fn() + Sync),
    ) -> Result<Vec<Points>, String> {
        let kinds = self.valid()?;
        let game = playable.game();
        let seated = |(i, j): (usize, usize), offset: usize| {
            let kinds =
                (0..game.players).map(|p| if (p + offset).is_multiple_of(2) { kinds[i] } else { kinds[j] }).collect();
            let mut entrant = Entrant::new(game.clone(), kinds);
            entrant.play_with(playable.clone());
            entrant
        };
        let arrangements: Vec<[Entrant; 2]> =
            super::pairs(kinds.len()).map(|pair| [seated(pair, 0), seated(pair, 1)]).collect();
        let played = pool.install(|| {
            slice
                .into_par_iter()
                .map(|g| {
                    let (pair, deal, arrangement) = self.at(g);
                    let record = play(&arrangements[pair][arrangement], self.seed.wrapping_add(deal));
                    done();
                    (pair, points_of(&record, arrangement))
                })
                .collect::<Vec<_>>()
        });
        let mut points = vec![Points::default(); arrangements.len()];
        for (pair, p) in played {
            points[pair].points.add(p.unwrap_or(UNITS / 2));
            points[pair].no_winner += u64::from(p.is_none());
        }
        Ok(points)
    }

    /// The table of the ladder whose pairs' matches came to `points` (in the pairs' order).
    pub fn table(&self, points: &[Points]) -> Ladder {
        let pairs: Vec<Pairing> = super::pairs(self.players.len())
            .zip(points)
            .map(|((i, j), p)| Pairing {
                first: self.players[i].clone(),
                second: self.players[j].clone(),
                matches: self.games,
                no_winner: p.no_winner,
                share: p.points.bounded_mean(0.0, UNITS as f64).map(|e| e.scaled(1.0 / UNITS as f64)),
            })
            .collect();
        let results: Vec<(usize, usize, f64, f64)> = super::pairs(self.players.len())
            .zip(&pairs)
            .filter_map(|((i, j), pair)| Some((i, j, pair.share?.value * pair.matches as f64, pair.matches as f64)))
            .collect();
        let ratings = ratings(self.players.len(), &results);
        Ladder {
            game: self.game.clone(),
            players: self.players.clone(),
            games: self.games,
            seed: self.seed,
            pairs,
            ratings,
        }
    }
}

/// A ladder played in shards: its matches are every pair's.
impl Sharded for Setup {
    type Counts = Vec<Points>;
    const KIND: RunKind = RunKind::Ladder;

    fn matches(&self) -> u64 {
        self.games.saturating_mul(self.pairs() as u64)
    }

    fn check(&self, points: &Vec<Points>, slice: Range<u64>) -> Result<(), String> {
        self.valid()?;
        if points.len() != self.pairs() {
            return Err(format!(
                "{} pairs counted, not the {} of {} players",
                points.len(),
                self.pairs(),
                self.players.len()
            ));
        }
        for (pair, ((i, j), p)) in super::pairs(self.players.len()).zip(points).enumerate() {
            let matches = self.matches_of(pair, &slice);
            let half = (UNITS / 2) as i128 * p.no_winner as i128;
            let most = half + UNITS as i128 * matches.saturating_sub(p.no_winner) as i128;
            let fits = p.points.n == matches
                && p.no_winner <= matches
                && p.points.possible(Some(UNITS as u64))
                && (half..=most).contains(&p.points.sum);
            if !fits {
                let names = (&self.players[i], &self.players[j]);
                return Err(format!("{} against {}: points that no {matches} matches give", names.0, names.1));
            }
        }
        Ok(())
    }

    fn add(sum: &mut Vec<Points>, more: &Vec<Points>) -> Result<(), String> {
        for (a, b) in sum.iter_mut().zip(more) {
            a.points.merge(&b.points)?;
            a.no_winner = a.no_winner.checked_add(b.no_winner).ok_or("no_winner adds up past 2^64")?;
        }
        Ok(())
    }
}

/// The average rating.
const MEAN_RATING: f64 = 1500.0;

/// The Elo-like ratings of `players` players from `results`, each `(i, j, points of i, matches)`:
/// the Bradley-Terry strengths that make the results likeliest, each pair with one drawn match
/// added, found by minorization-maximization (Hunter 2004), on the Elo scale (400 points for
/// odds of ten to one) around [`MEAN_RATING`], to a tenth of a point. The fit depends on the
/// results only, not on the order the players are listed in.
fn ratings(players: usize, results: &[(usize, usize, f64, f64)]) -> Vec<f64> {
    let mut won = vec![0.0; players];
    for &(i, j, points, matches) in results {
        won[i] += points + 0.5;
        won[j] += matches - points + 0.5;
    }
    let mut strength = vec![1.0f64; players];
    for _ in 0..10_000 {
        let mut next: Vec<f64> = (0..players)
            .map(|p| {
                let against: f64 = results
                    .iter()
                    .filter(|&&(i, j, ..)| i == p || j == p)
                    .map(|&(i, j, _, matches)| (matches + 1.0) / (strength[i] + strength[j]))
                    .sum();
                if against > 0.0 { won[p] / against } else { 1.0 }
            })
            .collect();
        let centre = next.iter().map(|s| s.ln()).sum::<f64>() / players.max(1) as f64;
        next.iter_mut().for_each(|s| *s = (s.ln() - centre).exp());
        let change = next.iter().zip(&strength).map(|(a, b)| (a.ln() - b.ln()).abs()).fold(0.0, f64::max);
        strength = next;
        if change < 1e-12 {
            break;
        }
    }
    strength.iter().map(|s| ((MEAN_RATING + 400.0 * s.log10()) * 10.0).round() / 10.0).collect()
}

/// The first kind's points from a match played in `arrangement` (0: it holds the even
/// players), in units; `None` when the match had no winner.
fn points_of(record: &Record, arrangement: usize) -> Option<i64> {
    let winners = record.finish.as_ref()?.winners;
    if winners == 0 {
        return None;
    }
    let firsts = (0..64).filter(|p: &usize| (p + arrangement).is_multiple_of(2)).fold(0u64, |b, p| b | 1 << p);
    let (ours, all) = ((winners & firsts).count_ones() as i64, winners.count_ones() as i64);
    Some(UNITS * ours / all)
}

impl Ladder {
    /// The share of `row`'s player against `column`'s, as a percentage with its interval.
    fn share(&self, row: usize, column: usize) -> Option<Estimate> {
        let (first, second) = (&self.players[row.min(column)], &self.players[row.max(column)]);
        let pair = self.pairs.iter().find(|p| &p.first == first && &p.second == second)?;
        let share = pair.share?.scaled(100.0);
        Some(if row < column {
            share
        } else {
            Estimate { value: 100.0 - share.value, low: 100.0 - share.high, high: 100.0 - share.low }
        })
    }

    /// The table for people: the row player's win share against the column player's.
    pub fn text(&self) -> String {
        let mut out = format!(
            "{}: each pair of players, {} matches ({} deal{} from seed {}, each played twice with the seats swapped)\n\
             The row player's win share against the column player's, in %, with its 95 % interval:\n\n",
            self.game,
            self.games,
            self.games / 2,
            if self.games / 2 == 1 { "" } else { "s" },
            self.seed
        );
        let cell =
            |e: Option<Estimate>| e.map_or("-".to_string(), |e| format!("{:.1} ({:.1}-{:.1})", e.value, e.low, e.high));
        let width = self.players.iter().map(String::len).max().unwrap_or(0).max(8);
        let cells: Vec<Vec<String>> = (0..self.players.len())
            .map(|r| {
                (0..self.players.len()).map(|c| if r == c { "-".to_string() } else { cell(self.share(r, c)) }).collect()
            })
            .collect();
        let column = cells.iter().flatten().map(String::len).max().unwrap_or(0).max(width);
        let _ = write!(out, "{:width$}", "");
        for name in &self.players {
            let _ = write!(out, "  {name:>column$}");
        }
        out.push('\n');
        for (name, row) in self.players.iter().zip(&cells) {
            let _ = write!(out, "{name:width$}");
            for c in row {
                let _ = write!(out, "  {c:>column$}");
            }
            out.push('\n');
        }
        let rated: Vec<String> =
            self.players.iter().zip(&self.ratings).map(|(name, r)| format!("{name} {r:.0}")).collect();
        let _ = writeln!(
            out,
            "\nElo-like ratings (averaging 1500; 400 points above means odds of ten to one): {}",
            rated.join(", ")
        );
        let unfinished: u64 = self.pairs.iter().map(|p| p.no_winner).sum();
        if unfinished > 0 {
            let _ = writeln!(out, "\n{}", no_winner(unfinished));
        }
        out
    }
}

/// The line that says how many matches had no winner, one or more.
fn no_winner(matches: u64) -> String {
    match matches {
        1 => "1 match had no winner; it counts half to both players.".to_string(),
        n => format!("{n} matches had no winner; each counts half to both players."),
    }
}

#[cfg(test)]
mod tests {
    use super::{Setup, no_winner, ratings};
    use crate::compare::shard::{Sharded, slice};
    use crate::repl::Provenance;
    use std::collections::BTreeSet;

    #[test]
    fn one_match_without_a_winner_is_one_match() {
        assert_eq!(no_winner(1), "1 match had no winner; it counts half to both players.");
        assert_eq!(no_winner(7), "7 matches had no winner; each counts half to both players.");
    }

    #[test]
    fn every_match_is_one_pairs_deal_once_and_a_slice_holds_each_pairs_share() {
        let origin = Provenance { sources: Vec::new(), sets: Vec::new(), variant: None };
        let setup = Setup::new("a game", origin, &["random", "greedy", "default"], 9, 1);
        assert_eq!((setup.games, setup.matches()), (10, 30));
        let all: BTreeSet<(usize, u64, usize)> = (0..30).map(|g| setup.at(g)).collect();
        let expected: BTreeSet<(usize, u64, usize)> =
            (0..3).flat_map(|p| (0..5).flat_map(move |k| [(p, k, 0), (p, k, 1)])).collect();
        assert_eq!(all, expected);
        for n in 1..=4 {
            for i in 1..=n {
                let matches = slice(30, [i, n]);
                for pair in 0..3 {
                    let counted = matches.clone().filter(|g| setup.at(*g).0 == pair).count() as u64;
                    assert_eq!(setup.matches_of(pair, &matches), counted, "pair {pair}, shard {i}/{n}");
                    // Every pair's matches are spread over the shards: each holds its share, give
                    // or take a deal.
                    assert!(counted.abs_diff(10 / n) <= 2, "pair {pair}: {counted} in shard {i}/{n}");
                }
            }
        }
    }

    #[test]
    fn two_players_are_rated_apart_by_their_odds_with_one_drawn_match_more() {
        // 6 of 8 matches won: with the drawn match added, odds of 6.5 to 2.5.
        let r = ratings(2, &[(0, 1, 6.0, 8.0)]);
        let expected = 400.0 * (6.5f64 / 2.5).log10();
        assert!((r[0] - r[1] - expected).abs() < 0.2, "{r:?}");
        assert!((r[0] + r[1] - 3000.0).abs() < 0.2, "{r:?}");
        // A pair won every time still has finite ratings.
        let r = ratings(2, &[(0, 1, 8.0, 8.0)]);
        assert!(r.iter().all(|x| x.is_finite()) && r[0] > r[1], "{r:?}");
    }

    #[test]
    fn ratings_follow_the_results_not_the_order_of_the_players() {
        // a beats b and c, b beats c: a above b above c, whichever order they are listed in.
        let r = ratings(3, &[(0, 1, 7.0, 10.0), (0, 2, 9.0, 10.0), (1, 2, 6.0, 10.0)]);
        assert!(r[0] > r[1] && r[1] > r[2], "{r:?}");
        // The same results with the players listed c, a, b.
        let listed = ratings(3, &[(1, 2, 7.0, 10.0), (1, 0, 9.0, 10.0), (2, 0, 6.0, 10.0)]);
        assert_eq!((listed[1], listed[2], listed[0]), (r[0], r[1], r[2]));
    }
}
