//! What each player knows of where the cards are: an observer of the match, kept so that a
//! computer player can be dealt a world consistent with it (see [`Seen::sample`](super::Seen::sample)).
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
//! entered the pile. Each player also keeps the piles each card may be in, worked out from the
//! rules ([`Places`]). A `reveal` makes every player know where its cards are; a revealed
//! selection (`cards c in PILE where C`) also excludes every other card meeting C from the pile.

use super::deduction::{Places, Rule};
use super::program::{Ask, DKind, PKind, Pred, Program};
use super::vm::Vm;
use super::*;

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

/// What every player knows of the cards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Knowledge {
    /// For each player in turn, a bitset of the cards whose place it knows.
    pub known: Vec<u64>,
    /// Cards the rules have shown not to be in a pile.
    pub excluded: Vec<Exclusion>,
    /// What choices under later tiers will show whoever sees their cards land.
    pub inferences: Vec<Inference>,
    /// Where each card may be, as each player works it out from the rules.
    #[serde(default)]
    pub places: Places,
}

/// How many 64-bit words a bitset of `cards` cards takes.
pub(super) fn words(cards: usize) -> usize {
    cards.div_ceil(64)
}

pub(super) fn has(bits: &[u64], i: usize) -> bool {
    bits.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
}

pub(super) fn set(bits: &mut [u64], i: usize, on: bool) {
    if let Some(w) = bits.get_mut(i / 64) {
        if on {
            *w |= 1 << (i % 64);
        } else {
            *w &= !(1 << (i % 64));
        }
    }
}

impl Knowledge {
    /// Before the first move every card is in the first pile: known to whoever sees that pile.
    pub(super) fn first(game: &Game, layout: &Layout) -> Knowledge {
        let n = words(game.cards.len());
        let mut known = vec![0; n * game.players];
        for (p, row) in known.chunks_mut(n.max(1)).enumerate() {
            for c in 0..game.cards.len() {
                set(row, c, layout.see[p].first().copied().unwrap_or(false));
            }
        }
        let places = Places::first(game.players, game.cards.len(), layout.pile_zone.len());
        Knowledge { known, excluded: Vec::new(), inferences: Vec::new(), places }
    }

    /// Whether `player` knows where `card` is, in a game of `cards` cards.
    pub(super) fn knows(&self, cards: usize, player: usize, card: CardId) -> bool {
        let n = words(cards);
        self.known.get(player * n..(player + 1) * n).is_some_and(|row| has(row, card as usize))
    }

    /// A card moved from one pile to another: who saw it go, and what no longer holds.
    pub(super) fn moved(&mut self, prog: &Program, pos: &Position, card: CardId, from: usize, to: usize) {
        let n = words(pos.card_count());
        let see = &prog.layout.see;
        self.places.moved(see, card, from, to);
        for (p, row) in self.known.chunks_mut(n.max(1)).enumerate() {
            let seen = see[p][from] || see[p][to];
            set(row, card as usize, seen);
            if !seen {
                for &c in pos.pile(from) {
                    set(row, c as usize, false);
                }
            }
        }
        self.excluded.retain_mut(|e| {
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
        if let Some(k) = self.inferences.iter().position(|i| i.card == card) {
            let inference = self.inferences.remove(k);
            self.infer(prog, &inference, to);
        }
    }

    /// The chosen card of an inference landed on `to`: whoever sees it there learns it.
    fn infer(&mut self, prog: &Program, inference: &Inference, to: usize) {
        let see = &prog.layout.see;
        for (p, sees) in see.iter().enumerate() {
            if !sees[to] {
                continue;
            }
            for &pile in &inference.piles {
                if sees[pile as usize] {
                    continue;
                }
                self.excluded.retain(|e| !(e.player as usize == p && e.pile == pile));
                self.excluded.push(Exclusion { player: p as u8, pile, cards: inference.cards.clone() });
            }
        }
    }

    /// Cards were revealed where they lie: every player knows their places.
    pub(super) fn revealed(&mut self, pos: &Position, shown: &[(CardId, usize)]) {
        let n = words(pos.card_count()).max(1);
        let players = self.known.len() / n;
        for row in self.known.chunks_mut(n) {
            for &(card, _) in shown {
                set(row, card as usize, true);
            }
        }
        for &(card, pile) in shown {
            self.places.shown(players, card, pile);
        }
    }

    /// After a move by rule (see [`deduction`](super::deduction)): what the rule tells.
    pub(super) fn ruled(&mut self, prog: &Program, before: &Places, rule: &Rule) {
        self.places.ruled(&prog.layout.see, before, rule);
    }

    /// A selection `cards c in PILE where C` was revealed (its cards are `shown`): whoever does
    /// not see the pile learns that it holds no other card meeting C.
    pub(super) fn revealed_selection(
        &mut self,
        game: &Game,
        prog: &Program,
        pos: &Position,
        (pile, slot, cond): (usize, Slot, &Pred),
        shown: &[(CardId, usize)],
    ) {
        let mut locals = pos.locals.clone();
        let mut vm = Vm::new(game, prog, pos.board(), &mut locals, 0);
        let mut cards = vec![0; words(game.cards.len())];
        for c in 0..game.cards.len() as CardId {
            vm.set_local(slot, Value::Card(c));
            let meets = matches!(vm.keep(cond), Ok(true));
            set(&mut cards, c as usize, meets && !shown.iter().any(|(s, _)| *s == c));
        }
        for (p, sees) in prog.layout.see.iter().enumerate() {
            if sees[pile] {
                continue;
            }
            match self.excluded.iter_mut().find(|e| e.player as usize == p && e.pile as usize == pile) {
                Some(e) => e.cards.iter_mut().zip(&cards).for_each(|(w, c)| *w |= c),
                None => self.excluded.push(Exclusion { player: p as u8, pile: pile as u16, cards: cards.clone() }),
            }
        }
    }

    /// Before a move of several cards to `dest`: what was known, if the move can make a player
    /// forget (only a move to a pile someone cannot see can).
    pub(super) fn before_moves(&self, prog: &Program, dest: usize) -> Option<Vec<u64>> {
        (!prog.layout.open[dest]).then(|| self.known.clone())
    }

    /// After a move of several cards: a player who knew a card in a pile that the move emptied
    /// knows it went where the others went.
    pub(super) fn emptied(&mut self, pos: &Position, moved: &[(CardId, usize)], before: &[u64]) {
        let n = words(pos.card_count()).max(1);
        for &(card, from) in moved {
            if !pos.pile(from).is_empty() {
                continue;
            }
            for (row, old) in self.known.chunks_mut(n).zip(before.chunks(n)) {
                if has(old, card as usize) {
                    set(row, card as usize, true);
                }
            }
        }
    }

    /// A pile was shuffled: those who cannot see it no longer know where its cards lie in it.
    pub(super) fn shuffled(&mut self, prog: &Program, pos: &Position, pile: usize) {
        let n = words(pos.card_count());
        for (p, row) in self.known.chunks_mut(n.max(1)).enumerate() {
            if !prog.layout.see[p][pile] {
                for &c in pos.pile(pile) {
                    set(row, c as usize, false);
                }
            }
        }
    }

    /// A seat chose under a later tier: if it chose a card from the whole of piles that someone
    /// cannot see, none of them held a card meeting an earlier tier; whoever sees the card land
    /// will know it (see [`Inference`]).
    pub(super) fn chose(&mut self, game: &Game, prog: &Program, pos: &Position, at: Loc, seat: SeatId, opt: Opt) {
        let Value::Card(chosen) = opt.value else { return };
        if opt.tier == 0 {
            return;
        }
        let Some((ask, bind)) = prog.ask_at(at.block, at.index) else { return };
        if open_domains(game, prog, ask) {
            return;
        }
        let mut locals = pos.locals.clone();
        let mut vm = Vm::new(game, prog, pos.board(), &mut locals, 0);
        if let Some(bind) = bind {
            vm.set_local(bind.slot, Value::Seat(seat));
        }
        let piles = whole_piles(&mut vm, pos, ask);
        if piles.is_empty() {
            return;
        }
        let earlier = &ask.tiers[..(opt.tier as usize).min(ask.tiers.len())];
        let mut cards = vec![0; words(game.cards.len())];
        for c in 0..game.cards.len() as CardId {
            if piles.contains(&pos.place(c)) {
                continue;
            }
            vm.set_names(ask, Value::Card(c));
            let meets = earlier.iter().try_fold(false, |met, (cond, _)| {
                Ok::<_, Box<crate::eval::Halt>>(met || cond.as_ref().map_or(Ok(true), |p| vm.keep(p))?)
            });
            set(&mut cards, c as usize, meets == Ok(true));
        }
        self.inferences.retain(|i| i.card != chosen);
        let piles = piles.iter().map(|p| *p as u16).collect();
        self.inferences.push(Inference { card: chosen, piles, cards });
    }
}

/// Whether a decision chooses only from zones everyone sees: then it shows nothing new.
fn open_domains(game: &Game, prog: &Program, ask: &Ask) -> bool {
    let layout = &prog.layout;
    ask.domains.iter().all(|d| match &d.kind {
        DKind::Pile(p) => {
            let first = match &p.kind {
                PKind::Fixed(pile) | PKind::Owned(pile, _, _) => *pile as usize,
                PKind::Invalid => return false,
            };
            let zone = layout.pile_zone[first].0;
            game.zones[zone as usize].see == crate::vocab::Audience::Everyone
        }
        _ => false,
    })
}

/// The piles a decision's domain is the whole of, those someone cannot see; none when the
/// domain is not made of whole piles of cards.
fn whole_piles(vm: &mut Vm<'_>, pos: &Position, ask: &Ask) -> Vec<usize> {
    let mut items = Vec::new();
    for d in &ask.domains {
        if vm.items(d, &mut items).is_err() {
            return Vec::new();
        }
    }
    let mut piles: Vec<usize> = Vec::new();
    for item in &items {
        let Value::Card(c) = item else { return Vec::new() };
        let pile = pos.place(*c);
        if !piles.contains(&pile) {
            piles.push(pile);
        }
    }
    if piles.iter().map(|p| pos.pile(*p).len()).sum::<usize>() != items.len() {
        return Vec::new();
    }
    piles.retain(|p| !vm.prog.layout.open[*p]);
    piles
}
