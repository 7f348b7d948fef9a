//! Where each card can be, as each player can work it out from the rules: for every player and
//! card, the set of piles the card may lie in. It is part of the players' [`Knowledge`] and
//! bounds the worlds a computer player is dealt.
//!
//! The pack is built by the rules, so every player knows that every card starts in the first
//! pile. A card seen going somewhere is known to be there. When a card moves between two piles a
//! player sees neither of, the player cannot tell which card it was: every card that may have
//! been in the first pile may now be in the second too. A move *by rule* tells more: when the
//! cards moved are a whole pile or the cards of a pile meeting a condition on the card alone
//! (`move cards c in stock where c.colour == red to hand[P1]`), only cards meeting the condition
//! may have gone; and when the player knew exactly which of those cards were in the pile and
//! they all went, it knows they are all in the new pile, face down or not. So a pile that by
//! rule holds only certain cards holds only such cards in every world, and a hand given by rule
//! is known to all, less the cards seen played from it.
//!
//! [`Knowledge`]: super::Knowledge

use super::knowledge::{has, words};
use super::mask::CardSet;
use crate::game::CardId;
use serde::{Deserialize, Serialize};

/// For every player and card, the piles the card may be in. Empty when not kept (a save file
/// from before it was): then any card may be anywhere.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Places {
    /// How many cards the pack has.
    pub cards: usize,
    /// How many 64-bit words a card's set of piles takes.
    pub width: usize,
    /// Player by player, card by card, the bitset of piles.
    pub bits: Vec<u64>,
}

/// A move by rule: cards of the pile `from`, those in `only` if it is given, went to `to`;
/// `moved` are the cards that went, and `all` says whether every card the rule picked went (no
/// draw by lot among them).
pub(super) struct Rule<'a> {
    pub from: usize,
    pub to: usize,
    pub only: Option<CardSet>,
    pub moved: &'a [CardId],
    pub all: bool,
}

impl Places {
    /// At the start every card is in the first pile, and every player knows it.
    pub(super) fn first(players: usize, cards: usize, piles: usize) -> Places {
        let width = words(piles).max(1);
        let mut bits = vec![0; players * cards * width];
        for row in bits.chunks_mut(width) {
            row[0] = 1;
        }
        Places { cards, width, bits }
    }

    fn row(&self, player: usize, card: CardId) -> std::ops::Range<usize> {
        let start = (player * self.cards + card as usize) * self.width;
        start..start + self.width
    }

    /// Whether `player` thinks `card` may be in `pile`.
    pub(super) fn may(&self, player: usize, card: CardId, pile: usize) -> bool {
        self.bits.get(self.row(player, card)).is_none_or(|row| has(row, pile))
    }

    /// `player` knows `card` is in `pile`.
    fn put(&mut self, player: usize, card: CardId, pile: usize) {
        let range = self.row(player, card);
        if let Some(row) = self.bits.get_mut(range) {
            row.fill(0);
            row[pile / 64] |= 1 << (pile % 64);
        }
    }

    /// `card` went from `from` to `to`; `see[p]` is what player `p` sees.
    pub(super) fn moved(&mut self, see: &[Vec<bool>], card: CardId, from: usize, to: usize) {
        for (p, sees) in see.iter().enumerate() {
            if sees[from] || sees[to] {
                self.put(p, card, to);
                continue;
            }
            for c in 0..self.cards as CardId {
                let range = self.row(p, c);
                if let Some(row) = self.bits.get_mut(range)
                    && has(row, from)
                {
                    row[to / 64] |= 1 << (to % 64);
                }
            }
        }
    }

    /// Every player is shown where `card` is.
    pub(super) fn shown(&mut self, players: usize, card: CardId, pile: usize) {
        for p in 0..players {
            self.put(p, card, pile);
        }
    }

    /// After a move by rule, made card by card with [`Places::moved`] (`before` is how things
    /// stood before it): a card the rule could not pick did not go, and if the player knew
    /// every card the rule could pick and all went, it knows where they are.
    pub(super) fn ruled(&mut self, see: &[Vec<bool>], before: &Places, rule: &Rule) {
        if self.bits.len() != before.bits.len() {
            return;
        }
        let could = |c: CardId| rule.only.is_none_or(|set| set.has(c));
        for (p, sees) in see.iter().enumerate() {
            if sees[rule.from] || sees[rule.to] {
                continue;
            }
            let single = |c: CardId| before.bits[before.row(p, c)].iter().map(|w| w.count_ones()).sum::<u32>() == 1;
            let picked: Vec<CardId> =
                (0..self.cards as CardId).filter(|&c| before.may(p, c, rule.from) && could(c)).collect();
            let known = rule.all && picked.iter().all(|&c| single(c));
            for c in 0..self.cards as CardId {
                if !before.may(p, c, rule.from) {
                    continue;
                }
                let range = self.row(p, c);
                if !could(c) || (known && !rule.moved.contains(&c)) {
                    self.bits[range.clone()].copy_from_slice(&before.bits[range]);
                } else if known {
                    self.put(p, c, rule.to);
                }
            }
        }
    }
}
