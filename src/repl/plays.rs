//! What the table shows besides the piles themselves, read from the event log: who played each
//! card lying in a shared pile, the last trick (the cards a shared pile held when it was last
//! emptied, with where they went) while the next one is played, until the round ends, and where
//! the match stands in players' words (`round 2, trick 3 of 11`).
//!
//! Nothing here knows a game: a shared pile whose cards all came straight from the seats' own
//! piles is a trick in progress; the moves that empty it take the trick.

use crate::engine::{Event, Numbering, State};
use crate::game::{CardId, SeatId, ZoneId};
use std::collections::HashMap;

/// A card in a shared pile with the seat it was played from (none when it came from another
/// shared pile, a stock, a side's pile).
pub(super) type Played = (CardId, Option<SeatId>);

/// A shared pile's last trick: its cards, and the piles they went to.
#[derive(Clone, Debug, Default)]
pub(super) struct Taken {
    pub cards: Vec<Played>,
    pub to: Vec<usize>,
}

impl Taken {
    /// The trick in the order its cards were played (`order`), whatever order the rules moved
    /// them out in (a card the rules single out first does not look led).
    fn in_order(self, order: &[CardId]) -> Taken {
        let mut pairs: Vec<(Played, usize)> = self.cards.into_iter().zip(self.to).collect();
        pairs.sort_by_key(|((card, _), _)| order.iter().position(|c| c == card));
        let (cards, to) = pairs.into_iter().unzip();
        Taken { cards, to }
    }
}

/// The table's reading of the log.
#[derive(Debug, Default)]
pub(super) struct Plays {
    /// The cards of each shared pile, in the order they came, with who played them.
    pub lying: HashMap<usize, Vec<Played>>,
    /// Each shared pile's last trick in this round.
    pub last: HashMap<usize, Taken>,
    /// The cards last turned up in each zone of piles before the seats that every player sees
    /// and that take cards only from their seat's hidden piles (a card turned up from a hand),
    /// once they have gone, with where they went; until the round ends.
    pub turned: HashMap<ZoneId, Taken>,
    /// The round in progress and the phase within it that started last, in players' words.
    pub heading: [Option<String>; 2],
}

impl Plays {
    /// Reads the whole log of a match.
    pub(super) fn of(state: &State) -> Plays {
        let (game, layout) = (state.game(), state.layout());
        let mut plays = Plays::default();
        let mut at: Vec<usize> = vec![0; game.cards.len()];
        let mut leaving: HashMap<usize, Taken> = HashMap::new();
        // The cards of each pile being emptied as they lay when the first of them left.
        let mut lay: HashMap<usize, Vec<CardId>> = HashMap::new();
        let mut numbering = Numbering::default();
        let seen_by_all = |pile: usize| layout.see.iter().all(|row| row.get(pile) == Some(&true));
        // The cards lying turned up in each pile, and the zones where more were turned up since
        // the last ones went.
        let mut up: HashMap<usize, Vec<CardId>> = HashMap::new();
        let mut fresh: HashMap<ZoneId, bool> = HashMap::new();
        let round = game.sheet.as_ref().map(|s| game.phases[s.phase as usize].name.as_str());
        for event in state.events() {
            let moves: Vec<(CardId, usize)> = match event {
                Event::Moved { cards, to } => cards.iter().map(|c| (*c, *to)).collect(),
                Event::Dealt { zone, hands, .. } => (hands.iter().enumerate())
                    .flat_map(|(i, hand)| hand.iter().map(move |c| (*c, layout.pile(*zone, i))))
                    .collect(),
                Event::Phase { name, count, of } => {
                    let heading = numbering.heading(game, name, *count, *of);
                    if round == Some(name.as_str()) {
                        plays.heading = [heading, None];
                        plays.last.clear();
                        plays.turned.clear();
                    } else if heading.is_some() {
                        plays.heading[1] = heading;
                    }
                    continue;
                }
                _ => continue,
            };
            let mut emptied = Vec::new();
            for (card, to) in moves {
                let from = std::mem::replace(&mut at[card as usize], to);
                plays.turn_up(layout, (card, from, to), &mut up, &mut fresh, &seen_by_all);
                if layout.seat_of_pile(from).is_none()
                    && let Some(lying) = plays.lying.get_mut(&from)
                    && let Some(i) = lying.iter().position(|(c, _)| *c == card)
                {
                    lay.entry(from).or_insert_with(|| lying.iter().map(|(c, _)| *c).collect());
                    let gone = leaving.entry(from).or_default();
                    gone.cards.push(lying.remove(i));
                    gone.to.push(to);
                    emptied.push(from);
                }
                if layout.seat_of_pile(to).is_none() {
                    plays.lying.entry(to).or_default().push((card, layout.seat_of_pile(from)));
                }
            }
            for pile in emptied {
                if !plays.lying.get(&pile).is_some_and(|l| l.is_empty()) {
                    continue;
                }
                let order = lay.remove(&pile).unwrap_or_default();
                // A trick lies face up; cards gathered face down (a stock dealt out again) are not one.
                if let Some(taken) = leaving.remove(&pile)
                    && seen_by_all(pile)
                    && taken.cards.iter().all(|(_, seat)| seat.is_some())
                {
                    plays.last.insert(pile, taken.in_order(&order));
                }
            }
        }
        plays
    }

    /// Follows a card turned up before its seat (from the seat's hidden pile to one every player
    /// sees), and out again, into the zone's last cards turned up.
    fn turn_up(
        &mut self,
        layout: &crate::engine::Layout,
        (card, from, to): (CardId, usize, usize),
        up: &mut HashMap<usize, Vec<CardId>>,
        fresh: &mut HashMap<ZoneId, bool>,
        seen_by_all: &dyn Fn(usize) -> bool,
    ) {
        if let Some(lying) = up.get_mut(&from)
            && let Some(i) = lying.iter().position(|c| *c == card)
        {
            lying.remove(i);
            let zone = layout.pile_zone[from].0;
            let turned = self.turned.entry(zone).or_default();
            if fresh.insert(zone, false) == Some(true) {
                *turned = Taken::default();
            }
            turned.cards.push((card, layout.seat_of_pile(from)));
            turned.to.push(to);
        }
        let seat = layout.seat_of_pile(to);
        if seat.is_some() && seen_by_all(to) && layout.seat_of_pile(from) == seat && !seen_by_all(from) {
            up.entry(to).or_default().push(card);
            fresh.insert(layout.pile_zone[to].0, true);
        }
    }

    /// The cards of a shared pile with who played each, if every one was played from a seat.
    pub(super) fn trick(&self, pile: usize) -> Option<&[Played]> {
        let lying = self.lying.get(&pile)?;
        (!lying.is_empty() && lying.iter().all(|(_, seat)| seat.is_some())).then_some(lying.as_slice())
    }
}
