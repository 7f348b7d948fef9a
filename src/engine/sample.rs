//! Worlds a player cannot tell from the real one, for computer players to search: the cards
//! whose place the player does not know are dealt afresh among the places of such cards, each
//! only where the player knows it can be (see [`super::deduction`]).

use super::deduction::Places;
use super::knowledge::has;
use super::program::Op;
use super::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The worlds one player cannot tell from the real one (see [`Seen::sample`]), dealt one after
/// another: what the player does not know is worked out once, and each world only deals the
/// unknown cards afresh, into memory kept for it ([`Sampler::sample_into`]).
pub struct Sampler<'a> {
    state: &'a State,
    player: usize,
    /// The places of the cards the player does not know the place of, and those cards sorted
    /// (every deal starts from them, so that a world does not depend on where they really are).
    slots: Vec<(usize, usize)>,
    old: Vec<CardId>,
    sorted: Vec<CardId>,
    bounds: Bounds<'a>,
    /// The piles of the slots, and whether every unknown card may lie in each of them.
    piles: Vec<usize>,
    free: bool,
    /// The deal being made, and the renaming of the cards it makes.
    pool: Vec<CardId>,
    map: Vec<CardId>,
}

impl<'a> Sampler<'a> {
    /// The worlds `player` cannot tell from `state`.
    pub(super) fn new(state: &'a State, player: usize) -> Sampler<'a> {
        let slots = state.unknown_slots(player);
        let old: Vec<CardId> = slots.iter().map(|&(p, i)| state.pos.pile(p)[i]).collect();
        let mut sorted = old.clone();
        sorted.sort_unstable();
        let knowledge = state.obs.knowledge.as_ref();
        let excluded = knowledge.map_or(&[][..], |k| &k.excluded[..]);
        let excluded = excluded.iter().filter(|e| e.player as usize == player).collect();
        let bounds = Bounds { player, places: knowledge.map(|k| &k.places), excluded };
        let mut piles: Vec<usize> = slots.iter().map(|s| s.0).collect();
        piles.dedup();
        let free = sorted.iter().all(|&c| piles.iter().all(|&p| bounds.allows(c, p)));
        Sampler { state, player, slots, old, sorted, bounds, piles, free, pool: Vec::new(), map: Vec::new() }
    }

    /// A new world (see [`Seen::sample`]).
    pub fn sample(&mut self, rng: &mut ChaCha8Rng) -> State {
        let mut world = self.state.unobserved();
        self.sample_into(rng, &mut world);
        world
    }

    /// Makes `world` a new world (see [`Seen::sample`]), in its own memory: a state that held a
    /// world of this game before takes the next without allocating. The same `rng` gives the same
    /// world as [`Sampler::sample`].
    pub fn sample_into(&mut self, rng: &mut ChaCha8Rng, world: &mut State) {
        self.deal(rng);
        let state = self.state;
        self.map.clear();
        self.map.extend(0..state.game.cards.len() as CardId);
        for (o, n) in self.old.iter().zip(&self.pool) {
            self.map[*o as usize] = *n;
        }
        world.share(state);
        world.pos.rename_from(&state.pos, state.program(), &self.map);
        world.obs = Observers::default();
        (world.spent, world.work) = (0, 0);
        world.pos.rng = ChaCha8Rng::seed_from_u64(rng.next_u64());
        world.retract_secrets(self.player);
    }

    /// Deals the unknown cards into `pool`, slot by slot, each where it can be, where a few tries
    /// find a way; otherwise (the bounds cannot all be met) a plain shuffle.
    fn deal(&mut self, rng: &mut ChaCha8Rng) {
        self.pool.clone_from(&self.sorted);
        for _ in 0..16 {
            self.pool.shuffle(rng);
            if self.free {
                return;
            }
            if let Some(deal) = deal_keeping(&self.slots, &self.piles, &self.pool, &self.bounds) {
                self.pool = deal;
                return;
            }
        }
        self.pool.shuffle(rng);
    }
}

impl State {
    /// The places (pile, index) of the cards `player` does not know the place of: in a pile it
    /// cannot see, not seen going there, and not held by a variable (variables are public).
    fn unknown_slots(&self, player: usize) -> Vec<(usize, usize)> {
        let cards = self.game.cards.len();
        let mut public = vec![0u64; super::knowledge::words(cards)];
        for v in &self.pos.vars {
            if let Value::Card(c) = v {
                public[*c as usize / 64] |= 1 << (*c % 64);
            }
        }
        let see = &self.layout().see[player];
        let mut slots = Vec::new();
        for (p, pile) in self.pos.piles().enumerate() {
            if see[p] {
                continue;
            }
            for (i, &c) in pile.iter().enumerate() {
                // A state that does not keep the players' knowledge knows only what is in view.
                let knows = self.obs.knowledge.as_ref().is_some_and(|k| k.knows(cards, player, c));
                if !has(&public, c as usize) && !knows {
                    slots.push((p, i));
                }
            }
        }
        slots
    }

    /// Other players' secret choices not yet revealed are taken back, and their options worked
    /// out again in this world.
    fn retract_secrets(&mut self, player: usize) {
        let Pending::Together { at, seats } = &self.pos.pending else { return };
        let (at, mut seats) = (*at, seats.clone());
        let old = std::mem::take(&mut self.pos.options);
        let game = self.game.clone();
        let mut flow = self.flow();
        let Some(Op::Together(bind, ask, _)) = flow.prog.op(at.block, at.index) else { return };
        for secret in &mut seats {
            let mine = &old[secret.start as usize..(secret.start + secret.len) as usize];
            let start = flow.pos.options.len();
            secret.start = start as u32;
            if game.seats[secret.seat as usize].player != player {
                secret.chosen = None;
                flow.pos.locals[bind.slot as usize] = Value::Seat(secret.seat);
                if flow.add_options(ask).is_ok() {
                    secret.len = (flow.pos.options.len() - start) as u32;
                    continue;
                }
                flow.pos.options.truncate(start);
            }
            flow.pos.options.extend_from_slice(mine);
        }
        self.pos.pending = Pending::Together { at, seats };
    }
}

/// What a player knows of where its unknown cards can be: the piles the rules leave possible
/// for each, and the cards the rules have shown are not in a pile.
struct Bounds<'a> {
    player: usize,
    places: Option<&'a Places>,
    excluded: Vec<&'a Exclusion>,
}

impl Bounds<'_> {
    fn allows(&self, card: CardId, pile: usize) -> bool {
        self.places.is_none_or(|p| p.may(self.player, card, pile))
            && !self.excluded.iter().any(|e| e.pile as usize == pile && has(&e.cards, card as usize))
    }
}

/// Fills the slots of the piles that allow the fewest cards first, each with the first card of
/// the pool allowed there; `None` if a slot finds no allowed card.
fn deal_keeping(slots: &[(usize, usize)], piles: &[usize], pool: &[CardId], bounds: &Bounds) -> Option<Vec<CardId>> {
    let allowed = |p: usize| pool.iter().filter(|&&c| bounds.allows(c, p)).count();
    let counts: Vec<(usize, usize)> = piles.iter().map(|&p| (p, allowed(p))).collect();
    let count = |p: usize| counts.iter().find(|(q, _)| *q == p).map_or(0, |(_, n)| *n);
    let mut order: Vec<usize> = (0..slots.len()).collect();
    order.sort_by_key(|&k| count(slots[k].0));
    let mut deal: Vec<Option<CardId>> = vec![None; slots.len()];
    let mut used = vec![false; pool.len()];
    for k in order {
        let i = (0..pool.len()).find(|&i| !used[i] && bounds.allows(pool[i], slots[k].0))?;
        used[i] = true;
        deal[k] = Some(pool[i]);
    }
    deal.into_iter().collect()
}
