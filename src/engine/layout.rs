//! Where a game's piles and variables live in a state's flat arrays.

use crate::game::*;
use crate::vocab::{Audience, Owner};

/// Offsets into a state's piles and variables, computed once per game.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The first pile of each zone.
    pub zone_base: Vec<usize>,
    /// Each pile's zone and the seat or side that owns it.
    pub pile_zone: Vec<(ZoneId, Option<(Owner, u8)>)>,
    /// The first slot of each variable.
    pub var_base: Vec<usize>,
    /// How many variable slots there are in all.
    pub var_slots: usize,
    /// `see[player][pile]`: whether the player sees which cards are in the pile (zone `see:`).
    pub see: Vec<Vec<bool>>,
    /// `count[player][pile]`: whether the player sees how many cards are in it (zone `count:`).
    pub count: Vec<Vec<bool>>,
    /// Whether every player sees which cards are in a pile.
    pub open: Vec<bool>,
}

impl Layout {
    /// The layout of a game's piles and variables.
    pub fn of(game: &Game) -> Layout {
        let (seats, sides) = (game.seats.len(), game.sides.len());
        let mut zone_base = Vec::new();
        let mut pile_zone = Vec::new();
        for (z, zone) in game.zones.iter().enumerate() {
            zone_base.push(pile_zone.len());
            for i in 0..zone.piles(seats, sides) {
                pile_zone.push((z as ZoneId, zone.owner.map(|o| (o, i as u8))));
            }
        }
        let mut var_base = Vec::new();
        let mut var_slots = 0;
        for var in &game.vars {
            var_base.push(var_slots);
            var_slots += per_owner(var.owner, seats, sides);
        }
        let audience = |pick: fn(&ZoneInfo) -> Audience| -> Vec<Vec<bool>> {
            (0..game.players)
                .map(|p| {
                    pile_zone.iter().map(|&(z, owner)| allowed(game, pick(&game.zones[z as usize]), p, owner)).collect()
                })
                .collect()
        };
        let see = audience(|z| z.see);
        let count = audience(|z| z.count);
        let open = (0..pile_zone.len()).map(|pile| see.iter().all(|s| s[pile])).collect();
        Layout { zone_base, pile_zone, var_base, var_slots, see, count, open }
    }

    /// The pile of `zone` for owner `index` (0 for a shared zone).
    pub fn pile(&self, zone: ZoneId, index: usize) -> usize {
        self.zone_base[zone as usize] + index
    }

    /// How many piles a zone has.
    pub fn piles(&self, zone: ZoneId) -> usize {
        let next = self.zone_base.get(zone as usize + 1).copied().unwrap_or(self.pile_zone.len());
        next - self.zone_base[zone as usize]
    }

    /// The seat that owns a pile, if it is a per-seat pile.
    pub fn seat_of_pile(&self, pile: usize) -> Option<SeatId> {
        match self.pile_zone[pile].1 {
            Some((Owner::Seat, s)) => Some(s),
            _ => None,
        }
    }
}

/// Whether a zone's audience includes `player`, for a pile with this owner.
fn allowed(game: &Game, audience: Audience, player: usize, owner: Option<(Owner, u8)>) -> bool {
    match audience {
        Audience::Everyone => true,
        Audience::Nobody => false,
        Audience::Owner => owns(game, player, owner),
    }
}

/// Whether `player` owns a pile: through one of its seats, or the side of one.
fn owns(game: &Game, player: usize, owner: Option<(Owner, u8)>) -> bool {
    let mine = |s: u8| game.seats.get(s as usize).is_some_and(|x| x.player == player);
    match owner {
        Some((Owner::Seat, s)) => mine(s),
        Some((Owner::Side, t)) => game.sides.get(t as usize).is_some_and(|side| side.seats.iter().any(|s| mine(*s))),
        None => false,
    }
}
