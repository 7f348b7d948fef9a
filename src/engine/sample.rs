//! Worlds a player cannot tell from the real one, for computer players to search: the cards
//! whose place the player does not know are dealt afresh among the places of such cards, each
//! only where the player knows it can be (see [`super::deduction`]).

use super::deduction::Places;
use super::knowledge::{has, set, words};
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
    /// The cards the player does not know the place of, as they lie, and sorted (every deal
    /// starts from them, so that a world does not depend on where they really are).
    old: Vec<CardId>,
    sorted: Vec<CardId>,
    /// How a deal keeps to what the player knows; `None` when every unknown card may lie in
    /// every slot.
    keeping: Option<Keeping>,
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
        let keeping = Keeping::new(&slots, &sorted, &bounds);
        Sampler { state, player, old, sorted, keeping, pool: Vec::new(), map: Vec::new() }
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
            let Some(keeping) = &mut self.keeping else { return };
            if keeping.deal(&mut self.pool) {
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
        let mut public = vec![0u64; words(cards)];
        for v in &self.pos.vars {
            if let Value::Card(c) = v {
                set(&mut public, *c as usize, true);
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

/// How a deal keeps the bounds: it fills the slots of the piles that allow the fewest unknown
/// cards first, each with the first card of the shuffled pool allowed there. The order of the
/// slots and the cards each allows are the same for every deal, so they are worked out once.
struct Keeping {
    /// The slots in the order they are filled.
    order: Vec<usize>,
    /// For each slot, the positions in the sorted unknown cards of the cards allowed there
    /// (bits: the pool holds those cards, each deal in another order).
    allowed: Vec<Vec<u64>>,
    /// Where each card of the sorted unknown cards is: its rank among them.
    rank: Vec<usize>,
    /// Memory kept from deal to deal: the deal made, and which of the pool's cards it used.
    dealt: Vec<CardId>,
    used: Vec<bool>,
}

impl Keeping {
    /// `None` when every unknown card may lie in every slot.
    fn new(slots: &[(usize, usize)], sorted: &[CardId], bounds: &Bounds) -> Option<Keeping> {
        let allows = |p: usize| -> Vec<u64> {
            let mut bits = vec![0u64; words(sorted.len())];
            for (i, &c) in sorted.iter().enumerate() {
                set(&mut bits, i, bounds.allows(c, p));
            }
            bits
        };
        let mut allowed: Vec<Vec<u64>> = Vec::with_capacity(slots.len());
        for (k, &(pile, _)) in slots.iter().enumerate() {
            // The slots lie pile by pile: a slot allows what the one before allows, if in its pile.
            let bits = match k.checked_sub(1) {
                Some(j) if slots[j].0 == pile => allowed[j].clone(),
                _ => allows(pile),
            };
            allowed.push(bits);
        }
        let count = |k: usize| allowed[k].iter().map(|w| w.count_ones() as usize).sum::<usize>();
        if (0..slots.len()).all(|k| count(k) == sorted.len()) {
            return None;
        }
        let mut order: Vec<usize> = (0..slots.len()).collect();
        order.sort_by_key(|&k| count(k));
        let top = sorted.iter().map(|&c| c as usize + 1).max().unwrap_or(0);
        let mut rank = vec![0; top];
        for (i, &c) in sorted.iter().enumerate() {
            rank[c as usize] = i;
        }
        Some(Keeping { order, allowed, rank, dealt: Vec::new(), used: Vec::new() })
    }

    /// Deals `pool` (a shuffle of the unknown cards) into the slots, each slot the first card
    /// of the pool allowed there; false, `pool` unchanged, if a slot finds none.
    fn deal(&mut self, pool: &mut Vec<CardId>) -> bool {
        self.dealt.clear();
        self.dealt.resize(pool.len(), 0);
        self.used.clear();
        self.used.resize(pool.len(), false);
        for &k in &self.order {
            let allowed = &self.allowed[k];
            let rank = &self.rank;
            let Some(i) = (0..pool.len()).find(|&i| !self.used[i] && has(allowed, rank[pool[i] as usize])) else {
                return false;
            };
            self.used[i] = true;
            self.dealt[k] = pool[i];
        }
        std::mem::swap(pool, &mut self.dealt);
        true
    }
}
