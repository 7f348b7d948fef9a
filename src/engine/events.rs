//! The event log of a match: what happened, in order, as data; and its text for people.

use super::Layout;
use crate::game::*;
use serde::{Deserialize, Serialize};

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    /// A phase started (its `count`-th time).
    Phase {
        /// The phase's name.
        name: String,
        /// How many times it has started, this time included.
        count: u32,
        /// How many of it the round holds, by the phase's title (`of hand_size`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        of: Option<i64>,
    },
    /// The round ended (the phase the `sheet` names): the score sheet's row, one cell per seat
    /// or side with its name.
    Sheet {
        /// The row: each column's name and its cell.
        row: Vec<(String, String)>,
    },
    /// Narration from the rule file.
    Say(String),
    /// A seat decided; `secret` when it was one of several simultaneous choices, revealed together.
    /// `action` is the option's name, `value` what was chosen; `labelled` when the name is the
    /// choice's own `as` label rather than the value's name.
    Chose {
        /// The seat that chose.
        seat: SeatId,
        /// The option's name.
        action: String,
        /// Whether it was a secret choice.
        secret: bool,
        /// The value chosen.
        value: Value,
        /// Whether `action` is the choice's `as` label.
        labelled: bool,
    },
    /// Cards moved onto a pile.
    Moved {
        /// The cards moved.
        cards: Vec<CardId>,
        /// The pile they went to.
        to: usize,
    },
    /// A pile was shuffled.
    Shuffled {
        /// The pile shuffled.
        pile: usize,
    },
    /// Cards dealt round the table; `hands[i]` are the cards the `i`-th pile of the zone received.
    Dealt {
        /// The pile dealt from.
        from: usize,
        /// The zone dealt into.
        zone: ZoneId,
        /// How many cards were dealt in all.
        cards: usize,
        /// The cards each pile received.
        hands: Vec<Vec<CardId>>,
    },
    /// Cards shown to every player where they lie (`reveal`).
    Revealed {
        /// Each card shown, with the pile it lies in.
        cards: Vec<(CardId, usize)>,
    },
    /// Something was drawn by lot, among `among` candidates.
    Drew {
        /// The name of what was drawn.
        what: String,
        /// How many candidates there were.
        among: usize,
    },
    /// The match ended.
    Over,
}

impl Event {
    /// The event as a line of text, with every card named and piles by their zones' names (the
    /// trace's view).
    pub fn text(&self, game: &Game, layout: &Layout) -> String {
        self.render(game, layout, &|_| true, &|p| pile_name(game, layout, p))
    }

    /// The event as a player reads it who sees the cards of the piles `sees` allows (a move or a
    /// deal into any other pile gives only how many cards went there), piles by the names
    /// players know them by (`pile_label`).
    pub fn text_as(&self, game: &Game, layout: &Layout, sees: &dyn Fn(usize) -> bool) -> String {
        self.render(game, layout, sees, &|p| pile_label(game, layout, p))
    }

    fn render(
        &self,
        game: &Game,
        layout: &Layout,
        sees: &dyn Fn(usize) -> bool,
        pile: &dyn Fn(usize) -> String,
    ) -> String {
        match self {
            Event::Phase { name, count, .. } => format!("-- {name} {count} --"),
            Event::Sheet { row } => {
                let cells: Vec<String> = row.iter().map(|(who, cell)| format!("{who}: {cell}")).collect();
                format!("score sheet: {}", cells.join("; "))
            }
            Event::Say(line) => line.clone(),
            Event::Chose { seat, action, secret, labelled, .. } => {
                let how = match (*secret, *labelled) {
                    (true, _) => "reveals",
                    (false, true) => "decides:",
                    (false, false) => "chooses",
                };
                format!("{} {how} {action}", game.seats[*seat as usize].display)
            }
            Event::Moved { cards, to } if !sees(*to) => format!("{} to {}", counted(cards.len(), "card"), pile(*to)),
            Event::Moved { cards, to } => {
                let names: Vec<&str> = cards.iter().map(|c| game.card_names[*c as usize].as_str()).collect();
                match names.len() {
                    0 => format!("nothing moves to {}", pile(*to)),
                    1..=NAMED_MOVE => format!("{} to {}", names.join(", "), pile(*to)),
                    n => format!("{n} cards to {}", pile(*to)),
                }
            }
            Event::Shuffled { pile: p } => format!("{} is shuffled", pile(*p)),
            Event::Dealt { from, zone, cards, hands } => {
                let mut text = format!("{cards} cards dealt from {} to {}", pile(*from), zone_label(game, *zone));
                // Each pile's share, sorted by the cards' attributes, so a reader can check every
                // later play.
                for (i, hand) in hands.iter().enumerate() {
                    let owner = pile(layout.zone_base[*zone as usize] + i);
                    if !sees(layout.zone_base[*zone as usize] + i) {
                        text.push_str(&format!("\n  {owner}: {}", counted(hand.len(), "card")));
                        continue;
                    }
                    let mut hand = hand.clone();
                    hand.sort_by_cached_key(|c| sort_key(game, *c));
                    let names: Vec<&str> = hand.iter().map(|c| game.card_names[*c as usize].as_str()).collect();
                    text.push_str(&format!("\n  {owner}: {}", names.join(", ")));
                }
                text
            }
            Event::Revealed { cards } if cards.is_empty() => "revealed: no card".into(),
            Event::Revealed { cards } => {
                let shown: Vec<String> =
                    cards.iter().map(|(c, p)| format!("{} in {}", game.card_names[*c as usize], pile(*p))).collect();
                format!("revealed: {}", shown.join(", "))
            }
            Event::Drew { what, among: 1 } => format!("no draw needed: {what} is the only candidate"),
            Event::Drew { what, among } => format!("drawn by lot among {among}: {what}"),
            Event::Over => "the match is over".into(),
        }
    }
}

/// Orders cards by their attributes in the order declared (then by pack order): suits and
/// ranks together, identical copies side by side.
pub(super) fn sort_key(game: &Game, card: CardId) -> (Vec<(u8, i64)>, CardId) {
    let key = game.cards[card as usize]
        .iter()
        .map(|v| match *v {
            Value::None => (0, 0),
            Value::Int(n) => (1, n),
            Value::Bool(b) => (2, b as i64),
            Value::Seat(s) => (3, s as i64),
            Value::Side(s) => (4, s as i64),
            Value::Card(c) => (5, c as i64),
            Value::Enum(e) => (6, e as i64),
            Value::Set(bits) => (7, bits as i64),
            // Not a card's attribute: cards are not grouped by it.
            Value::Group(_) => (8, 0),
        })
        .collect();
    (key, card)
}

/// The attribute cards are grouped by when shown to people, with its enumeration: the first
/// attribute of an enumeration type (the suit), if there is one.
pub(crate) fn suit_attr(game: &Game) -> Option<(usize, u16)> {
    game.attrs.iter().enumerate().find_map(|(a, attr)| match attr.ty.base() {
        Type::Enum(e) => Some((a, *e)),
        _ => None,
    })
}

/// Where a card goes when cards are shown sorted: by suit (see [`suit_attr`]), then as
/// [`sort_key`] orders them.
pub(crate) fn card_order(game: &Game, card: CardId) -> impl Ord + use<> {
    let suit = suit_attr(game).and_then(|(a, _)| match game.cards.get(card as usize)?.get(a)? {
        Value::Enum(v) => Some(*v),
        _ => None,
    });
    (suit, sort_key(game, card))
}

/// A move of at most this many cards names them; a larger one only counts them.
const NAMED_MOVE: usize = 13;

/// Phases counted as players count them: the round (the phase the `sheet` names) through the
/// match, every other phase within its round.
#[derive(Default)]
pub(crate) struct Numbering {
    counts: std::collections::HashMap<String, u32>,
    /// The number of the round under way, once one has started.
    round: Option<u32>,
}

impl Numbering {
    /// Counts a phase's start, and says it in players' words (`trick 3 of 11`), or `None` for a
    /// phase without a title.
    pub(crate) fn heading(&mut self, game: &Game, name: &str, count: u32, of: Option<i64>) -> Option<String> {
        let n = self.number(game, name, count);
        let title = game.phases.iter().find(|p| p.name == name)?.title.as_ref()?;
        Some(match of {
            Some(of) => format!("{title} {n} of {of}"),
            None => format!("{title} {n}"),
        })
    }

    /// Counts a phase's start, and gives the trace's line for it: every phase by its name,
    /// numbered as [`Numbering::heading`] numbers it, after its round's (`-- round 2, trick 1 --`).
    pub(crate) fn trace_line(&mut self, game: &Game, name: &str, count: u32) -> String {
        let n = self.number(game, name, count);
        match (round_phase(game), self.round) {
            (Some(round), Some(r)) if round != name => format!("-- {round} {r}, {name} {n} --"),
            _ => format!("-- {name} {n} --"),
        }
    }

    /// Counts a phase's start (its `count`-th in the match): its number as players count it.
    fn number(&mut self, game: &Game, name: &str, count: u32) -> u32 {
        match round_phase(game) {
            Some(round) if round == name => {
                self.counts.clear();
                self.round = Some(count);
                count
            }
            Some(_) => {
                let n = self.counts.entry(name.to_string()).or_default();
                *n += 1;
                *n
            }
            None => count,
        }
    }
}

/// The name of the phase a round is: the one the `sheet` names.
fn round_phase(game: &Game) -> Option<&str> {
    game.sheet.as_ref().map(|s| game.phases[s.phase as usize].name.as_str())
}

/// `1 card`, `3 cards`: a number of things, with the plural the English way.
pub(crate) fn counted(n: usize, thing: &str) -> String {
    if n == 1 { format!("1 {thing}") } else { format!("{n} {thing}s") }
}

/// Move names for a list, a name that comes up more than once counted (`partial Single ×4`), in
/// the order the names first come.
pub(crate) fn counted_names(names: &[String]) -> Vec<String> {
    let mut counts: Vec<(&String, usize)> = Vec::new();
    let mut at: std::collections::HashMap<&String, usize> = std::collections::HashMap::new();
    for name in names {
        match at.get(name) {
            Some(&i) => counts[i].1 += 1,
            None => {
                at.insert(name, counts.len());
                counts.push((name, 1));
            }
        }
    }
    counts.into_iter().map(|(n, count)| if count == 1 { n.clone() } else { format!("{n} ×{count}") }).collect()
}

/// What players call a zone: its display name, else its name.
pub(crate) fn zone_label(game: &Game, zone: ZoneId) -> &str {
    let info = &game.zones[zone as usize];
    info.display.as_deref().unwrap_or(&info.name)
}

/// What players call a pile: `North's hand`, `side A's tricks`, `trick` (zones by their
/// display names).
pub(crate) fn pile_label(game: &Game, layout: &Layout, pile: usize) -> String {
    let (zone, owner) = layout.pile_zone[pile];
    let name = zone_label(game, zone);
    match owner {
        None => name.to_string(),
        Some((crate::vocab::Owner::Seat, s)) => format!("{}'s {name}", game.seats[s as usize].display),
        Some((crate::vocab::Owner::Side, s)) => format!("{}'s {name}", game.sides[s as usize].display),
    }
}

/// `hand of North`, `trick`: a pile by its zone's name (the trace's words).
pub(crate) fn pile_name(game: &Game, layout: &Layout, pile: usize) -> String {
    let (zone, owner) = layout.pile_zone[pile];
    let name = &game.zones[zone as usize].name;
    match owner {
        None => name.clone(),
        Some((crate::vocab::Owner::Seat, s)) => format!("{name} of {}", game.seats[s as usize].display),
        Some((crate::vocab::Owner::Side, s)) => format!("{name} of {}", game.sides[s as usize].display),
    }
}
