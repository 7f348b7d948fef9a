//! How a match went, read from the result's standing as it was played (the key of each seat or
//! side the result ranks, more being better): whether the winner came from behind, how far
//! apart first and last ended, and the standing at each tenth of the match (in decisions), from
//! which the lead-history trend, the security of a lead and how early the winner was settled
//! are counted.

/// Readings of the standing at each tenth of a match, the start and the end included.
pub const TENTHS: usize = 11;

/// The tenths between the start and the end, at which a lone leader may or may not go on to win.
pub const BETWEEN: usize = TENTHS - 2;

/// The standing as the match went: each new standing with the decisions made before it.
#[derive(Default)]
pub(super) struct Readings {
    changes: Vec<(u64, Vec<i64>)>,
}

impl Readings {
    /// The standing after `decisions` decisions; kept only when it changed.
    pub(super) fn note(&mut self, decisions: u64, keys: &[i64]) {
        if self.changes.last().is_none_or(|(_, last)| last != keys) {
            self.changes.push((decisions, keys.to_vec()));
        }
    }

    /// The standing after `decisions` decisions, if one was read by then.
    fn at(&self, decisions: u64) -> Option<&[i64]> {
        let later = self.changes.partition_point(|(d, _)| *d <= decisions);
        later.checked_sub(1).map(|i| self.changes[i].1.as_slice())
    }
}

/// How a finished match went, in figures.
#[derive(Clone, Debug, Default)]
pub struct Course {
    /// Whether a winner trailed some other seat or side at some point before the end.
    pub comeback: bool,
    /// How far the winners trailed at worst, in the result's key (0 when they never did).
    pub deficit: u64,
    /// The best key less the worst at the end.
    pub spread: u64,
    /// At each tenth of the match, the winners' best key less the best of the others' (`None`
    /// when nobody or everybody won, or the standing could not be read).
    pub lead: [Option<i64>; TENTHS],
    /// At each tenth between the start and the end, whether the one seat or side that led alone
    /// went on to win (`None` when no one led alone).
    pub leader: [Option<bool>; BETWEEN],
    /// The first tenth (1 to 10) from which the winners led alone at every tenth to the end;
    /// `None` when nobody or everybody won.
    pub settled: Option<u64>,
}

/// The winners' best key less the best of the others', when some won and some did not.
fn winners_lead(keys: &[i64], winning: &[bool]) -> Option<i64> {
    let best = |won: bool| keys.iter().zip(winning).filter(|(_, w)| **w == won).map(|(k, _)| *k).max();
    Some(best(true)? - best(false)?)
}

/// The one seat or side ahead of all the others, if there is one.
pub(super) fn lone_leader(keys: &[i64]) -> Option<usize> {
    let best = keys.iter().max()?;
    let mut at_best = keys.iter().enumerate().filter(|(_, k)| *k == best);
    match (at_best.next(), at_best.next()) {
        (Some((leader, _)), None) => Some(leader),
        _ => None,
    }
}

/// The course of a match of `decisions` decisions from its readings and its final standing;
/// `winning` says which seats or sides the result ranks won.
pub(super) fn course(readings: &Readings, end: &[i64], winning: &[bool], decisions: u64) -> Course {
    let trailing = readings.changes.iter().filter_map(|(_, keys)| winners_lead(keys, winning)).min();
    let deficit = trailing.map_or(0, |lead| lead.min(0).unsigned_abs());
    let at = |tenth: usize| {
        if tenth == TENTHS - 1 { Some(end) } else { readings.at(decisions * tenth as u64 / 10) }
    };
    let mut lead = [None; TENTHS];
    for (tenth, slot) in lead.iter_mut().enumerate() {
        *slot = at(tenth).and_then(|keys| winners_lead(keys, winning));
    }
    let mut leader = [None; BETWEEN];
    for (i, slot) in leader.iter_mut().enumerate() {
        *slot = at(i + 1).and_then(lone_leader).map(|l| winning.get(l) == Some(&true));
    }
    let some_won = winning.contains(&true) && winning.contains(&false);
    let settled = some_won.then(|| {
        let ahead = leader.iter().rposition(|l| *l != Some(true)).map_or(0, |i| i + 1);
        ahead as u64 + 1
    });
    let spread = match (end.iter().max(), end.iter().min()) {
        (Some(best), Some(worst)) => best.abs_diff(*worst),
        _ => 0,
    };
    Course { comeback: deficit > 0, deficit, spread, lead, leader, settled }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_winner_from_behind_is_seen_and_settled_late() {
        // Two seats over 10 decisions: seat 1 leads by 2 after decision 3, seat 0 wins.
        let mut readings = Readings::default();
        readings.note(0, &[0, 0]);
        readings.note(3, &[0, 2]);
        readings.note(6, &[3, 2]);
        let c = course(&readings, &[5, 2], &[true, false], 10);
        assert!(c.comeback && c.deficit == 2 && c.spread == 3);
        assert_eq!(c.lead[0], Some(0));
        assert_eq!(c.lead[3], Some(-2));
        assert_eq!(c.lead[6], Some(1));
        assert_eq!(c.lead[10], Some(3));
        assert_eq!(c.leader[0], None);
        assert_eq!(c.leader[2], Some(false));
        assert_eq!(c.leader[5], Some(true));
        // Seat 0 leads alone from the sixth tenth on.
        assert_eq!(c.settled, Some(6));
        let draw = course(&readings, &[2, 2], &[false, false], 10);
        assert!(!draw.comeback && draw.settled.is_none() && draw.lead[10].is_none());
        assert_eq!(draw.leader[5], Some(false));
    }
}
