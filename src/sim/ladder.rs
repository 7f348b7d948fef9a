//! The ladder of players (`paradox ladder`): every pair of kinds of bot plays the same deals
//! twice, the seats swapped, and each pair's win share comes with its 95 % interval.
//!
//! In match `2k` and `2k + 1` (both dealt from seed `seed + k`) player `p` is the first kind of
//! the pair when `p + match` is even, the second kind otherwise: in a game of two each kind sits
//! in each seat once a deal, in a game of partners seated alternately (P1 and P3 against P2 and
//! P4) each kind is one side, and over a deal every seat is played by each kind as often. A
//! match counts for the first kind by the share of its winners it seated (a match with no
//! winner, or one that stopped, counts half).

use super::{Entrant, Record, play};
use crate::bots::Kind;
use crate::game::Game;
use crate::stats::{Estimate, Moments};
use rayon::prelude::*;
use serde::Serialize;
use std::fmt::Write as _;
use std::sync::Arc;

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
}

/// Plays `games` matches (rounded up to an even number) for every pair of `players` (names as
/// `--bots` spells them) on the threads of `pool`; the figures do not depend on the number of
/// threads. `Err` names a player that is not one.
pub fn play_ladder(
    game: Arc<Game>,
    players: &[&str],
    games: u64,
    seed: u64,
    pool: &rayon::ThreadPool,
    done: &(dyn Fn() + Sync),
) -> Result<Ladder, String> {
    let kinds = players
        .iter()
        .map(|n| {
            Kind::named(n).ok_or_else(|| format!("unknown player `{n}`; the players are {}", Kind::LADDER.join(", ")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(twice) = players.iter().enumerate().find_map(|(i, n)| players[..i].contains(n).then_some(n)) {
        return Err(format!("`{twice}` is named twice; name each player once"));
    }
    let games = games.div_ceil(2) * 2;
    let mut pairs = Vec::new();
    for (i, j) in super::pairs(kinds.len()) {
        let seated = |offset: usize| {
            let kinds =
                (0..game.players).map(|p| if (p + offset).is_multiple_of(2) { kinds[i] } else { kinds[j] }).collect();
            Entrant::new(game.clone(), kinds)
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
    Ok(Ladder { game: game.name.clone(), players: players.iter().map(|p| p.to_string()).collect(), games, seed, pairs })
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
        let unfinished: u64 = self.pairs.iter().map(|p| p.no_winner).sum();
        if unfinished > 0 {
            let _ = writeln!(out, "\n{unfinished} matches had no winner; each counts half to both players.");
        }
        out
    }
}
