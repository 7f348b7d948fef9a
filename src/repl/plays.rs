//! What the table shows besides the piles themselves, read from the event log: who played each
//! card lying in a shared pile, the last trick (the cards a shared pile held when it was last
//! emptied, with where they went) while the next one is played, until the round ends, and where
//! the match stands in players' words (`round 2, trick 3 of 11`).
//!
//! Nothing here knows a game: a shared pile whose cards all came straight from the seats' own
//! piles is a trick in progress; the moves that empty it take the trick.

use crate::engine::{Event, Numbering, State};
use crate::game::{CardId, SeatId};
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

/// The table's reading of the log.
#[derive(Debug, Default)]
pub(super) struct Plays {
    /// The cards of each shared pile, in the order they came, with who played them.
    pub lying: HashMap<usize, Vec<Played>>,
    /// Each shared pile's last trick in this round.
    pub last: HashMap<usize, Taken>,
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
        let mut numbering = Numbering::default();
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
                if layout.seat_of_pile(from).is_none()
                    && let Some(lying) = plays.lying.get_mut(&from)
                    && let Some(i) = lying.iter().position(|(c, _)| *c == card)
                {
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
                if plays.lying.get(&pile).is_some_and(|l| l.is_empty())
                    && let Some(taken) = leaving.remove(&pile)
                    && taken.cards.iter().all(|(_, seat)| seat.is_some())
                {
                    plays.last.insert(pile, taken);
                }
                if plays.lying.get(&pile).is_some_and(|l| l.is_empty()) {
                    leaving.remove(&pile);
                }
            }
        }
        plays
    }

    /// The cards of a shared pile with who played each, if every one was played from a seat.
    pub(super) fn trick(&self, pile: usize) -> Option<&[Played]> {
        let lying = self.lying.get(&pile)?;
        (!lying.is_empty() && lying.iter().all(|(_, seat)| seat.is_some())).then_some(lying.as_slice())
    }
}
