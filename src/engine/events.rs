//! The event log of a match: what happened, in order, as data; and its text for people.

use super::Layout;
use crate::game::*;
use serde::{Deserialize, Serialize};

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    /// A phase started (its `count`-th time).
    Phase {
        name: String,
        count: u32,
    },
    /// Narration from the rule file.
    Say(String),
    /// A seat decided; `secret` when it was one of several simultaneous choices, revealed together.
    Chose {
        seat: SeatId,
        action: String,
        secret: bool,
        /// The card chosen, when a card was.
        card: Option<CardId>,
    },
    Moved {
        cards: Vec<CardId>,
        to: usize,
    },
    Shuffled {
        pile: usize,
    },
    Dealt {
        from: usize,
        zone: ZoneId,
        cards: usize,
    },
    /// Something was drawn by lot.
    Drew {
        what: String,
    },
    Over,
}

impl Event {
    /// The event as a line of text, as everyone at the table would see it.
    pub fn text(&self, game: &Game, layout: &Layout) -> String {
        let pile = |p: usize| pile_name(game, layout, p);
        match self {
            Event::Phase { name, count } => format!("-- {name} {count} --"),
            Event::Say(line) => line.clone(),
            Event::Chose { seat, action, secret, .. } => {
                let how = if *secret { "reveals" } else { "chooses" };
                format!("{} {how} {action}", game.seats[*seat as usize].display)
            }
            Event::Moved { cards, to } => {
                let names: Vec<&str> = cards.iter().map(|c| game.card_names[*c as usize].as_str()).collect();
                match names.len() {
                    0 => format!("nothing moves to {}", pile(*to)),
                    1..=6 => format!("{} to {}", names.join(", "), pile(*to)),
                    n => format!("{n} cards to {}", pile(*to)),
                }
            }
            Event::Shuffled { pile: p } => format!("{} is shuffled", pile(*p)),
            Event::Dealt { from, zone, cards } => {
                format!("{cards} cards dealt from {} to {}", pile(*from), game.zones[*zone as usize].name)
            }
            Event::Drew { what } => format!("drawn by lot: {what}"),
            Event::Over => "the match is over".into(),
        }
    }
}

/// `hand of North`, `trick`.
pub fn pile_name(game: &Game, layout: &Layout, pile: usize) -> String {
    let (zone, owner) = layout.pile_zone[pile];
    let name = &game.zones[zone as usize].name;
    match owner {
        None => name.clone(),
        Some((crate::syntax::ast::Owner::Seat, s)) => format!("{name} of {}", game.seats[s as usize].display),
        Some((crate::syntax::ast::Owner::Side, s)) => format!("{name} of {}", game.sides[s as usize].display),
    }
}
