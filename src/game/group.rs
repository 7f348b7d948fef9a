//! A group of cards chosen together (`choose 2 cards p from hand[s]`), kept in one word so that
//! a [`Value`](super::Value) stays small and `Copy`.
//!
//! Two layouts share the word, told apart by its top four bits, and each group has exactly one
//! of them, so that equal groups are equal words:
//! - every card among the pack's first [`SMALL_PACK`] cards: a bitset of them (tag 15), any
//!   number of cards;
//! - otherwise: up to [`MAX_LISTED`] card ids of 12 bits each, lowest first, and their number
//!   in the tag.
//!
//! Either way the cards come out lowest id (pack order) first.

use super::CardId;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The cards a group holds as a bitset: ids below this.
pub(crate) const SMALL_PACK: usize = 60;
/// The most cards a group holds when one of them is not among the first [`SMALL_PACK`].
pub(crate) const MAX_LISTED: usize = 5;

const TAG_SHIFT: u32 = 60;
const BITSET: u64 = 15;
const ID_BITS: u32 = 12;
const ID_MASK: u64 = (1 << ID_BITS) - 1;
const BODY: u64 = (1 << TAG_SHIFT) - 1;

/// A set of cards, in one word. Traces and saves write it as the list of its card ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct CardGroup(u64);

impl Serialize for CardGroup {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.cards())
    }
}

impl<'de> Deserialize<'de> for CardGroup {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CardGroup, D::Error> {
        let cards = Vec::<CardId>::deserialize(d)?;
        CardGroup::of(&cards).ok_or_else(|| serde::de::Error::custom("a group of more cards than a group holds"))
    }
}

impl CardGroup {
    /// The group holding nothing.
    pub const EMPTY: CardGroup = CardGroup(BITSET << TAG_SHIFT);

    /// The group of these cards (each once, in any order), or `None` if it cannot be kept: more
    /// than [`MAX_LISTED`] cards with one beyond the first [`SMALL_PACK`], or an id of more than
    /// 12 bits.
    pub fn of(cards: &[CardId]) -> Option<CardGroup> {
        if cards.iter().all(|&c| (c as usize) < SMALL_PACK) {
            let bits = cards.iter().fold(0u64, |b, &c| b | 1 << c);
            return Some(CardGroup(BITSET << TAG_SHIFT | bits));
        }
        let mut sorted = cards.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() > MAX_LISTED || sorted.iter().any(|&c| c as u64 > ID_MASK) {
            return None;
        }
        let ids = sorted.iter().enumerate().fold(0u64, |w, (i, &c)| w | (c as u64) << (ID_BITS * i as u32));
        Some(CardGroup((sorted.len() as u64) << TAG_SHIFT | ids))
    }

    /// The cards, lowest id first.
    pub fn cards(self) -> impl Iterator<Item = CardId> {
        let tag = self.0 >> TAG_SHIFT;
        let mut bits = if tag == BITSET { self.0 & BODY } else { 0 };
        let listed = if tag == BITSET { 0 } else { tag as u32 };
        let from_bits = std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let c = bits.trailing_zeros() as CardId;
                bits &= bits - 1;
                c
            })
        });
        let word = self.0;
        let from_list = (0..listed).map(move |i| (word >> (ID_BITS * i) & ID_MASK) as CardId);
        from_bits.chain(from_list)
    }

    /// How many cards it holds.
    pub fn len(self) -> usize {
        match self.0 >> TAG_SHIFT {
            BITSET => (self.0 & BODY).count_ones() as usize,
            n => n as usize,
        }
    }

    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    pub fn has(self, card: CardId) -> bool {
        self.cards().any(|c| c == card)
    }

    /// The group with each card renamed, or `None` if the renamed group cannot be kept.
    pub fn map(self, rename: impl Fn(CardId) -> CardId) -> Option<CardGroup> {
        let cards: Vec<CardId> = self.cards().map(rename).collect();
        CardGroup::of(&cards)
    }

    /// Whether a word read from a save file is a group as [`CardGroup::of`] makes them, of
    /// cards below `pack`.
    pub fn is_valid(self, pack: usize) -> bool {
        let cards: Vec<CardId> = self.cards().collect();
        cards.iter().all(|&c| (c as usize) < pack) && CardGroup::of(&cards) == Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_cards_in_any_number_and_order() {
        let g = CardGroup::of(&[7, 0, 59, 3]).unwrap();
        assert_eq!(g.cards().collect::<Vec<_>>(), vec![0, 3, 7, 59]);
        assert_eq!(g.len(), 4);
        assert!(g.has(59) && !g.has(58));
        assert_eq!(Some(g), CardGroup::of(&[59, 3, 7, 0]));
        assert!(CardGroup::EMPTY.is_empty());
        assert_eq!(CardGroup::of(&[]), Some(CardGroup::EMPTY));
    }

    #[test]
    fn large_ids_are_listed_up_to_five() {
        let g = CardGroup::of(&[4000, 2, 60]).unwrap();
        assert_eq!(g.cards().collect::<Vec<_>>(), vec![2, 60, 4000]);
        assert_eq!(g.len(), 3);
        assert!(CardGroup::of(&[60, 61, 62, 63, 64]).is_some());
        assert_eq!(CardGroup::of(&[60, 61, 62, 63, 64, 65]), None);
        assert_eq!(CardGroup::of(&[4096]), None);
    }

    #[test]
    fn written_as_its_card_ids() {
        let g = CardGroup::of(&[70, 2]).unwrap();
        let text = serde_json::to_string(&g).unwrap();
        assert_eq!(text, "[2,70]");
        assert_eq!(serde_json::from_str::<CardGroup>(&text).unwrap(), g);
        assert!(serde_json::from_str::<CardGroup>("[60,61,62,63,64,65]").is_err());
    }

    #[test]
    fn one_layout_per_group() {
        let moved = CardGroup::of(&[1, 70]).unwrap().map(|c| if c == 70 { 5 } else { c }).unwrap();
        assert_eq!(moved, CardGroup::of(&[1, 5]).unwrap());
        assert!(moved.is_valid(80));
        assert!(!CardGroup::of(&[1, 70]).unwrap().is_valid(70));
        // A listed word holding only small cards is not how `of` keeps them.
        assert!(!CardGroup(1 << TAG_SHIFT | 5).is_valid(80));
    }
}
