//! The ladder of players (`paradox ladder`): every pair of kinds of bot plays the same deals
//! twice, the seats swapped, and each pair's win share comes with its 95 % interval.
//!
//! In match `2k` and `2k + 1` (both dealt from seed `seed + k`) player `p` is the first kind of
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

use super::{Entrant, Record, play};
use crate::bots::Kind;
use crate::engine::Playable;
use crate::stats::{Estimate, Moments};
use rayon::prelude::*;
use serde::Serialize;
use std::fmt::Write as _;

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

/// Plays `games` matches (rounded up to an even number) for every pair of `players` (names as
/// `--bots` spells them) on the threads of `pool`, with the engine of `playable`; the figures
/// depend neither on the number of threads nor on the engine. `Err` names a player that is
/// not one.
pub fn play_ladder(
    playable: &Playable,
    players: &[&str],
    games: u64,
    seed: u64,
    pool: &rayon::ThreadPool,
    done: &(dyn Fn() + Sync),
) -> Result<Ladder, String> {
    let kinds = kinds(players)?;
    let game = playable.game();
    let games = games.div_ceil(2) * 2;
    let mut pairs = Vec::new();
    for (i, j) in super::pairs(kinds.len()) {
        let seated = |offset: usize| {
            let kinds =
                (0..game.players).map(|p| if (p + offset).is_multiple_of(2) { kinds[i] } else { kinds[j] }).collect();
            let mut entrant = Entrant::new(game.clone(), kinds);
            entrant.play_with(playable.clone());
            entrant
        };
        let arrangements = [seated(0), seated(1)];
        let points = pool.install(|| {
            (0..games)
                .into_par_iter()
                .map(|m| {
                    let arrangement = (m % 2) as usize;
                    let record = play(&arrangements[arrangement], seed.wrapping_add(m / 2));
                    done();
                    points_of(&record, arrangement)
                })
                .collect::<Vec<_>>()
        });
        let mut moments = Moments::default();
        for p in &points {
            moments.add(p.unwrap_or(UNITS / 2));
        }
        pairs.push(Pairing {
            first: players[i].to_string(),
            second: players[j].to_string(),
            matches: games,
            no_winner: points.iter().filter(|p| p.is_none()).count() as u64,
            share: moments.bounded_mean(0.0, UNITS as f64).map(|e| e.scaled(1.0 / UNITS as f64)),
        });
    }
    let results: Vec<(usize, usize, f64, f64)> = super::pairs(kinds.len())
        .zip(&pairs)
        .filter_map(|((i, j), pair)| Some((i, j, pair.share?.value * pair.matches as f64, pair.matches as f64)))
        .collect();
    let ratings = ratings(kinds.len(), &results);
    Ok(Ladder {
        game: game.name.clone(),
        players: players.iter().map(|p| p.to_string()).collect(),
        games,
        seed,
        pairs,
        ratings,
    })
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
            "{}: each pair of players, {} matches ({} deals from seed {}, each played twice with the seats swapped)\n\
             The row player's win share against the column player's, in %, with its 95 % interval:\n\n",
            self.game,
            self.games,
            self.games / 2,
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
            let _ = writeln!(out, "\n{unfinished} matches had no winner; each counts half to both players.");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::ratings;

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
