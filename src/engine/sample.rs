//! Worlds a player cannot tell from the real one, for computer players to search: the cards
//! whose place the player does not know are dealt afresh among the places of such cards.

use super::knowledge::has;
use super::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

impl State {
    /// A world `player` cannot tell from this one (see [`Seen::sample`]).
    pub(super) fn sample_for(&self, player: usize, rng: &mut ChaCha8Rng) -> State {
        let slots = self.unknown_slots(player);
        let old: Vec<CardId> = slots.iter().map(|&(p, i)| self.pos.piles[p][i]).collect();
        // Dealt from the sorted cards, so that the world does not depend on where they really are.
        let mut pool = old.clone();
        pool.sort_unstable();
        let mine: Vec<&Exclusion> = self.pos.excluded.iter().filter(|e| e.player as usize == player).collect();
        let new = deal_unknown(&slots, pool, &mine, rng);
        let mut map: Vec<CardId> = (0..self.game.cards.len() as CardId).collect();
        for (o, n) in old.iter().zip(&new) {
            map[*o as usize] = *n;
        }
        let mut world = State {
            game: self.game.clone(),
            layout: self.layout.clone(),
            pos: remapped(&self.pos, &map),
            spent: 0,
            work: 0,
        };
        world.pos.rng = ChaCha8Rng::seed_from_u64(rng.next_u64());
        world.retract_secrets(player);
        world
    }

    /// The places (pile, index) of the cards `player` does not know the place of: in a pile it
    /// cannot see, not seen going there, and not held by a variable (variables are public).
    fn unknown_slots(&self, player: usize) -> Vec<(usize, usize)> {
        let mut public = vec![0u64; super::knowledge::words(self.game.cards.len())];
        for v in &self.pos.vars {
            if let Value::Card(c) = v {
                public[*c as usize / 64] |= 1 << (*c % 64);
            }
        }
        let mut slots = Vec::new();
        for (p, pile) in self.pos.piles.iter().enumerate() {
            if self.layout.see[player][p] {
                continue;
            }
            for (i, &c) in pile.iter().enumerate() {
                // A state that does not keep the players' knowledge knows only what is in view.
                let known = has(&public, c as usize) || (self.pos.knowing && self.knows(player, c));
                if !known {
                    slots.push((p, i));
                }
            }
        }
        slots
    }

    /// Other players' secret choices not yet revealed are taken back, and their options worked
    /// out again in this world.
    fn retract_secrets(&mut self, player: usize) {
        let Pending::Together { at, seats, .. } = &self.pos.pending else { return };
        let (at, seats) = (*at, seats.clone());
        let game = self.game.clone();
        let StmtKind::Simultaneously(binding, choose, _) =
            &game.blocks[at.block as usize].stmts[at.index as usize].kind
        else {
            return;
        };
        for (i, seat) in seats.iter().enumerate() {
            if game.seats[*seat as usize].player == player {
                continue;
            }
            self.pos.locals[binding.slot as usize] = Value::Seat(*seat);
            let fresh = self.legal_options(choose);
            if let Pending::Together { options, chosen, .. } = &mut self.pos.pending {
                chosen[i] = None;
                if let Ok(fresh) = fresh {
                    options[i] = fresh;
                }
            }
        }
    }
}

/// Deals the unknown cards to their slots, keeping every exclusion where a few tries find a
/// way; otherwise (the exclusions cannot all be met) a plain shuffle.
fn deal_unknown(
    slots: &[(usize, usize)],
    mut pool: Vec<CardId>,
    excluded: &[&Exclusion],
    rng: &mut ChaCha8Rng,
) -> Vec<CardId> {
    for _ in 0..16 {
        pool.shuffle(rng);
        if let Some(deal) = deal_keeping(slots, &pool, excluded) {
            return deal;
        }
    }
    pool.shuffle(rng);
    pool
}

/// Fills the slots of piles with exclusions first, each with the first card of the pool
/// allowed there, then the rest in pool order; `None` if a slot finds no allowed card.
fn deal_keeping(slots: &[(usize, usize)], pool: &[CardId], excluded: &[&Exclusion]) -> Option<Vec<CardId>> {
    let mut deal: Vec<Option<CardId>> = vec![None; slots.len()];
    let mut used = vec![false; pool.len()];
    for e in excluded {
        for (k, slot) in slots.iter().enumerate() {
            if slot.0 != e.pile as usize {
                continue;
            }
            let i = (0..pool.len()).find(|&i| !used[i] && !has(&e.cards, pool[i] as usize))?;
            used[i] = true;
            deal[k] = Some(pool[i]);
        }
    }
    let mut rest = (0..pool.len()).filter(|&i| !used[i]).map(|i| pool[i]);
    deal.into_iter().map(|d| d.or_else(|| rest.next())).collect()
}

/// The position with every card `c` renamed `map[c]`, without its log and not logging.
fn remapped(pos: &Position, map: &[CardId]) -> Position {
    let value = |v: &Value| match v {
        Value::Card(c) => Value::Card(map[*c as usize]),
        v => *v,
    };
    let opt = |o: &Opt| Opt { value: value(&o.value), ..*o };
    let mut place = pos.place.clone();
    let mut came_from = pos.came_from.clone();
    for (c, &to) in map.iter().enumerate() {
        place[to as usize] = pos.place[c];
        came_from[to as usize] = pos.came_from[c];
    }
    let frames = pos
        .frames
        .iter()
        .map(|f| match f {
            Frame::For { at, level, items, next } => {
                Frame::For { at: *at, level: *level, items: items.iter().map(value).collect(), next: *next }
            }
            Frame::Together { at, seats, chosen, next } => {
                Frame::Together { at: *at, seats: seats.clone(), chosen: chosen.iter().map(opt).collect(), next: *next }
            }
            f => f.clone(),
        })
        .collect();
    let pending = match &pos.pending {
        Pending::Choice { at, seat, options } => {
            Pending::Choice { at: *at, seat: *seat, options: options.iter().map(opt).collect() }
        }
        Pending::Together { at, seats, options, chosen } => Pending::Together {
            at: *at,
            seats: seats.clone(),
            options: options.iter().map(|o| o.iter().map(opt).collect()).collect(),
            chosen: chosen.clone(),
        },
        p => p.clone(),
    };
    Position {
        piles: pos.piles.iter().map(|p| p.iter().map(|c| map[*c as usize]).collect()).collect(),
        place,
        came_from,
        vars: pos.vars.iter().map(value).collect(),
        locals: pos.locals.iter().map(value).collect(),
        frames,
        pending,
        rng: pos.rng.clone(),
        phase_counts: pos.phase_counts.clone(),
        decisions: pos.decisions,
        log: Vec::new(),
        known: pos.known.clone(),
        excluded: Vec::new(),
        inferences: Vec::new(),
        logging: false,
        knowing: false,
    }
}
