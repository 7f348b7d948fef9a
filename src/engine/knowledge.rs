//! What each player knows of where the cards are, kept as the match runs so that a computer
//! player can be dealt a world consistent with it (see [`Seen::sample`](super::Seen::sample)).
//!
//! Two kinds of fact are kept for each player. A player *knows* a card's place when it saw the
//! card where it is, or saw it go there (from or to a pile it sees, or with the whole pile it
//! knew it in); a card leaving a pile it sees neither end of makes it forget every card of that
//! pile, for it cannot tell which went; a shuffle of a pile it cannot see forgets the order, and
//! with it these cards. And the rules *exclude* cards from a pile: when a seat chooses from the
//! whole of its piles under a later tier of `choose ... where T1 else T2`, none of those piles
//! held a card meeting an earlier tier (a player who does not follow suit holds none of the
//! suit). A player learns that only on seeing the chosen card land, so the inference waits for
//! the card's next move; an exclusion lasts until a card the player did not see could have
//! entered the pile.

use super::*;
use crate::eval::Board;

/// Cards a player has been shown are not in a pile, as a bitset over card ids.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exclusion {
    pub player: u8,
    pub pile: u16,
    pub cards: Vec<u64>,
}

/// What a choice under a later tier shows whoever sees its card land: the piles it was chosen
/// from held none of `cards`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inference {
    pub card: CardId,
    pub piles: Vec<u16>,
    pub cards: Vec<u64>,
}

/// How many 64-bit words a bitset of `cards` cards takes.
pub(super) fn words(cards: usize) -> usize {
    cards.div_ceil(64)
}

pub(super) fn has(bits: &[u64], i: usize) -> bool {
    bits.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
}

fn set(bits: &mut [u64], i: usize, on: bool) {
    if let Some(w) = bits.get_mut(i / 64) {
        if on {
            *w |= 1 << (i % 64);
        } else {
            *w &= !(1 << (i % 64));
        }
    }
}

impl State {
    /// Before the first move every card is in the first pile: known to whoever sees that pile.
    pub(super) fn first_knowledge(game: &Game, layout: &Layout) -> Vec<u64> {
        let n = words(game.cards.len());
        let mut known = vec![0; n * game.players];
        for (p, row) in known.chunks_mut(n.max(1)).enumerate() {
            for c in 0..game.cards.len() {
                set(row, c, layout.see[p].first().copied().unwrap_or(false));
            }
        }
        known
    }

    /// Whether `player` knows where `card` is.
    pub(super) fn knows(&self, player: usize, card: CardId) -> bool {
        let n = words(self.game.cards.len());
        self.pos.known.get(player * n..(player + 1) * n).is_some_and(|row| has(row, card as usize))
    }

    /// A card moved from one pile to another: who saw it go, and what no longer holds.
    pub(super) fn learn_move(&mut self, card: CardId, from: usize, to: usize) {
        if !self.pos.knowing {
            return;
        }
        let n = words(self.game.cards.len());
        let see = &self.layout.see;
        for (p, row) in self.pos.known.chunks_mut(n.max(1)).enumerate() {
            let seen = see[p][from] || see[p][to];
            set(row, card as usize, seen);
            if !seen {
                for &c in &self.pos.piles[from] {
                    set(row, c as usize, false);
                }
            }
        }
        self.pos.excluded.retain_mut(|e| {
            let p = e.player as usize;
            if e.pile as usize != to {
                true
            } else if see[p][from] || see[p][to] {
                set(&mut e.cards, card as usize, false);
                true
            } else {
                false
            }
        });
        if let Some(k) = self.pos.inferences.iter().position(|i| i.card == card) {
            let inference = self.pos.inferences.remove(k);
            self.infer(&inference, to);
        }
    }

    /// The chosen card of an inference landed on `to`: whoever sees it there learns it.
    fn infer(&mut self, inference: &Inference, to: usize) {
        for p in 0..self.game.players {
            if !self.layout.see[p][to] {
                continue;
            }
            for &pile in &inference.piles {
                if self.layout.see[p][pile as usize] {
                    continue;
                }
                self.pos.excluded.retain(|e| !(e.player as usize == p && e.pile == pile));
                self.pos.excluded.push(Exclusion { player: p as u8, pile, cards: inference.cards.clone() });
            }
        }
    }

    /// After a move of several cards: a player who knew a card in a pile that the move emptied
    /// knows it went where the others went.
    pub(super) fn learn_emptied(&mut self, moved: &[(CardId, usize)], before: &[u64]) {
        if !self.pos.knowing {
            return;
        }
        let n = words(self.game.cards.len()).max(1);
        for &(card, from) in moved {
            if !self.pos.piles[from].is_empty() {
                continue;
            }
            for (row, old) in self.pos.known.chunks_mut(n).zip(before.chunks(n)) {
                if has(old, card as usize) {
                    set(row, card as usize, true);
                }
            }
        }
    }

    /// A pile was shuffled: those who cannot see it no longer know where its cards lie in it.
    pub(super) fn learn_shuffle(&mut self, pile: usize) {
        if !self.pos.knowing {
            return;
        }
        let n = words(self.game.cards.len());
        for (p, row) in self.pos.known.chunks_mut(n.max(1)).enumerate() {
            if !self.layout.see[p][pile] {
                for &c in &self.pos.piles[pile] {
                    set(row, c as usize, false);
                }
            }
        }
    }

    /// A seat chose under a later tier: if it chose a card from the whole of piles that someone
    /// cannot see, none of them held a card meeting an earlier tier; whoever sees the card land
    /// will know it (see [`Inference`]).
    pub(super) fn learn_choice(&mut self, at: Loc, seat: SeatId, opt: Opt) {
        if opt.tier == 0 || !self.pos.knowing {
            return;
        }
        let game = self.game.clone();
        let (binding, choose) = match &game.blocks[at.block as usize].stmts[at.index as usize].kind {
            StmtKind::Choose(c) => (None, &**c),
            StmtKind::Simultaneously(b, c, _) => (Some(b.slot), &**c),
            _ => return,
        };
        if let Some(slot) = binding {
            self.pos.locals[slot as usize] = Value::Seat(seat);
        }
        let Value::Card(chosen) = opt.value else { return };
        if self.open_domains(choose) {
            return;
        }
        let piles = self.whole_piles(choose);
        if piles.is_empty() {
            return;
        }
        let earlier = &choose.tiers[..(opt.tier as usize).min(choose.tiers.len())];
        let mut cards = vec![0; words(game.cards.len())];
        for c in 0..game.cards.len() as CardId {
            if piles.contains(&(self.pos.place[c as usize] as usize)) {
                continue;
            }
            let meets = self.eval(|ev| {
                ev.pos.set_local(choose.slot, Value::Card(c));
                for tier in earlier {
                    if tier.cond.as_ref().map_or(Ok(true), |t| ev.truth(t))? {
                        return Ok(true);
                    }
                }
                Ok(false)
            });
            set(&mut cards, c as usize, meets == Ok(true));
        }
        self.pos.inferences.retain(|i| i.card != chosen);
        let piles = piles.iter().map(|p| *p as u16).collect();
        self.pos.inferences.push(Inference { card: chosen, piles, cards });
    }

    /// Whether a decision chooses only from zones everyone sees: then it shows nothing new.
    fn open_domains(&self, choose: &Choose) -> bool {
        let zones = &self.game.zones;
        choose.domains.iter().all(|d| {
            matches!(d.kind, ExprKind::Zone(z, _) if zones[z as usize].see == crate::syntax::ast::Audience::Everyone)
        })
    }

    /// The piles a decision's domain is the whole of, those someone cannot see; none when the
    /// domain is not made of whole piles of cards.
    fn whole_piles(&mut self, choose: &Choose) -> Vec<usize> {
        let mut items = Vec::new();
        for d in &choose.domains {
            match self.eval(|ev| ev.items(d)) {
                Ok(more) => items.extend(more),
                Err(_) => return Vec::new(),
            }
        }
        let mut piles: Vec<usize> = Vec::new();
        for item in &items {
            let Value::Card(c) = item else { return Vec::new() };
            let pile = self.pos.place[*c as usize] as usize;
            if !piles.contains(&pile) {
                piles.push(pile);
            }
        }
        if piles.iter().map(|p| self.pos.piles[*p].len()).sum::<usize>() != items.len() {
            return Vec::new();
        }
        piles.retain(|p| !self.layout.open[*p]);
        piles
    }
}
