//! Where a game's piles and variables live in a state's flat arrays.

use crate::game::*;
use crate::syntax::ast::Owner;

/// Offsets into a state's piles and variables, computed once per game.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The first pile of each zone.
    pub zone_base: Vec<usize>,
    /// Each pile's zone and the seat or side that owns it.
    pub pile_zone: Vec<(ZoneId, Option<(Owner, u8)>)>,
    /// The first slot of each variable.
    pub var_base: Vec<usize>,
    pub var_slots: usize,
}

impl Layout {
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
        Layout { zone_base, pile_zone, var_base, var_slots }
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
