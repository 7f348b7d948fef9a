//! What one seat sees at the table, as plain data built once from the engine's view: the seats
//! in drawing order with their piles (cards grouped by suit and sorted, or counted), the shared
//! piles in the middle (a trick in playing order with who played each card, the last trick and
//! who took it), the status lines, the score sheet, the news, whose turn it is with the moves
//! and their labels, and why the last move was refused. The terminal draws it
//! ([`super::table`]); a browser could render the same structure, as it is `Serialize`.
//!
//! Nothing here knows a game: suits are the first enumeration attribute of the cards, and their
//! colours come from the suit names (red, hearts, diamonds are red, ...) with a fallback palette.

use super::plays::{Played, Plays};
use crate::engine::{PileView, State, card_order, pile_label, suit_attr, zone_label};
use crate::game::{CardId, Game, SeatId, Type, Value};
use serde::Serialize;

/// The table as one player sees it.
#[derive(Clone, Debug, Serialize)]
pub struct Table {
    /// The seats in drawing order: clockwise from the seat on the left of the bottom one, the
    /// bottom seat (the player's own, or the one the rule file draws at the bottom) last.
    pub seats: Vec<Seat>,
    /// Where the match stands in players' words (`deal 1`, `trick 3 of 11`); empty once over.
    pub heading: Vec<String>,
    /// The piles that belong to no seat, with the last trick after the pile it was taken from.
    pub middle: Vec<Pile>,
    /// The rule file's `show` lines as the match stands, or without any, the standing.
    pub status: Vec<String>,
    /// The score sheet's rows so far.
    pub sheet: Vec<Vec<(String, String)>>,
    /// What happened since the player last looked (filled in by the session).
    pub news: Vec<String>,
    /// The decision asked of the player, if one is.
    pub turn: Option<Turn>,
    /// Why the last move typed was refused, in one sentence, until a move is made.
    pub refusal: Option<String>,
}

/// A seat and its piles.
#[derive(Clone, Debug, Serialize)]
pub struct Seat {
    /// Its display name.
    pub name: String,
    /// The player's own seat.
    pub you: bool,
    /// Whether the seat is to decide now.
    pub to_act: bool,
    /// Its piles the player sees or counts, in the order of the zones.
    pub piles: Vec<Pile>,
}

/// A pile as the player sees it.
#[derive(Clone, Debug, Serialize)]
pub struct Pile {
    /// What players call it (`hand`, `trick`, `last trick, to East`).
    pub label: String,
    /// How many cards it holds.
    pub count: usize,
    /// What it shows of them.
    pub cards: Cards,
    /// A trick already taken (the last trick), which a screen short of room leaves to the news.
    pub taken: bool,
}

/// What a pile shows of its cards.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", content = "cards", rename_all = "snake_case")]
pub enum Cards {
    /// Only how many.
    Counted,
    /// Grouped by suit and sorted (a hand).
    Grouped(Vec<Group>),
    /// In the order they came, with who played each where a seat did (a trick, a discard).
    InOrder(Vec<Card>),
}

/// Cards of one suit, sorted; cards of one name once, with how many.
#[derive(Clone, Debug, Serialize)]
pub struct Group {
    /// The suit's name, when the cards are named without it (`clubs` over `2 7 Q`).
    pub label: Option<String>,
    /// The suit's colour.
    pub colour: Option<Colour>,
    /// Its cards in order.
    pub cards: Vec<Card>,
}

/// One card, or several of one name.
#[derive(Clone, Debug, Serialize)]
pub struct Card {
    /// Its name in full (`Q of clubs`).
    pub name: String,
    /// Its name within its group (`Q`).
    pub short: String,
    /// Its suit's colour.
    pub colour: Option<Colour>,
    /// How many cards of this name (in a group).
    pub times: usize,
    /// The seat that played it, in a trick.
    pub by: Option<String>,
}

/// The colour a suit is shown in (black suits have none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum Colour {
    Red,
    Green,
    Yellow,
    Blue,
    Purple,
    Cyan,
}

/// The decision asked of the player.
#[derive(Clone, Debug, Serialize)]
pub struct Turn {
    /// The seat deciding.
    pub seat: String,
    /// A secret choice made at the same time as others.
    pub secret: bool,
    /// The moves' labels, in order (`#N` types the N-th).
    pub moves: Vec<String>,
    /// The moves in one line when they are too many to list (cards chosen several at once).
    pub summary: Option<String>,
    /// What the rules ask when their first demand cannot be met, when it is so now, in the rule
    /// file's words (`unable to fit the set, a follower must throw a Complete ...`).
    pub rule: Option<String>,
}

/// A middle pile with more cards than this (a side's pile: more names) is shown by its count.
const LISTED: usize = 12;

impl Table {
    /// The table as `player` sees it; the session fills in the news, the turn and the refusal.
    pub fn of(state: &State, player: usize) -> Table {
        let game = state.game();
        let cards = CardNames::new(game);
        let plays = Plays::of(state);
        let seats = drawing_order(game, player).into_iter().map(|s| seat(state, player, s as SeatId, &cards)).collect();
        let heading = if state.is_over() { Vec::new() } else { plays.heading.iter().flatten().cloned().collect() };
        let mut status = state.status();
        status.extend(standing(state));
        let sheet = super::sheet::rows(state).into_iter().map(<[_]>::to_vec).collect();
        Table {
            seats,
            heading,
            middle: middle(state, player, &cards, &plays),
            status,
            sheet,
            news: Vec::new(),
            turn: None,
            refusal: None,
        }
    }
}

/// The seats clockwise from the one after the bottom seat, that seat last: the seat the rule
/// file draws at the bottom when it is `player`'s, else `player`'s first seat; for a player with
/// no seat (a spectator), the rule file's bottom seat, else the first.
fn drawing_order(game: &Game, player: usize) -> Vec<usize> {
    let seats = game.seats.len();
    let bottom = game.bottom.map(|s| s as usize);
    let home = (bottom.filter(|s| game.seats[*s].player == player))
        .or_else(|| game.seats.iter().position(|s| s.player == player))
        .unwrap_or(bottom.unwrap_or(0));
    (1..=seats).map(|k| (home + k) % seats).collect()
}

/// `Standing: ...`, the result's key for each seat or side, for a rule file that has no `show`
/// lines of its own to tell how the match stands (the key alone may mean little to a player).
pub(super) fn standing(state: &State) -> Option<String> {
    let standings = state.standings();
    if !state.game().shows.is_empty() || standings.is_empty() {
        return None;
    }
    let parts: Vec<String> = standings.iter().map(|(who, n)| format!("{who} {n}")).collect();
    Some(format!("Standing: {}", parts.join(", ")))
}

/// A seat's name and its piles as `player` sees them.
fn seat(state: &State, player: usize, seat: SeatId, cards: &CardNames<'_>) -> Seat {
    let (game, layout) = (state.game(), state.layout());
    let info = &game.seats[seat as usize];
    let mut piles = Vec::new();
    for pile in (0..layout.pile_zone.len()).filter(|p| layout.seat_of_pile(*p) == Some(seat)) {
        let label = zone_label(game, layout.pile_zone[pile].0).to_string();
        match state.pile_view(player, pile) {
            PileView::Cards(c) if !c.is_empty() => piles.push(Pile {
                label,
                count: c.len(),
                cards: Cards::Grouped(cards.grouped(&c, &info.display)),
                taken: false,
            }),
            PileView::Count(n) if n > 0 => piles.push(Pile { label, count: n, cards: Cards::Counted, taken: false }),
            _ => {}
        }
    }
    Seat {
        name: info.display.clone(),
        you: info.player == player,
        to_act: state.view(player).to_act.contains(&seat),
        piles,
    }
}

/// The piles that belong to no seat (shared and per-side piles) in the order cards came: a
/// trick with who played each card, and after a trick is taken, the last one and who took it;
/// then the cards last turned up before the seats, once gone, and where they went.
fn middle(state: &State, player: usize, cards: &CardNames<'_>, plays: &Plays) -> Vec<Pile> {
    let (game, layout) = (state.game(), state.layout());
    let mut piles = Vec::new();
    // A pile holding only cards of the last trick is counted: they are listed as that trick.
    let over = state.is_over();
    let from_last =
        |pile: usize| plays.last.values().filter(|_| !over).flat_map(|t| &t.to).filter(|p| **p == pile).count();
    for pile in (0..layout.pile_zone.len()).filter(|p| layout.seat_of_pile(*p).is_none()) {
        let label = pile_label(game, layout, pile);
        // A side's pile holds what it has won: its cards grouped and counted by name, as a hand.
        let side = layout.pile_zone[pile].1.map(|(_, s)| game.sides[s as usize].display.as_str());
        match (state.pile_view(player, pile), side) {
            (PileView::Cards(c), Some(side)) if !c.is_empty() => {
                let groups = cards.grouped(&c, side);
                let kinds: usize = groups.iter().map(|g| g.cards.len()).sum();
                let shown = if kinds <= LISTED { Cards::Grouped(groups) } else { Cards::Counted };
                piles.push(Pile { label: label.clone(), count: c.len(), cards: shown, taken: false });
            }
            (PileView::Cards(c), _) if !c.is_empty() && c.len() <= LISTED && c.len() != from_last(pile) => {
                let shown = match plays.trick(pile) {
                    Some(trick) => trick.iter().map(|p| cards.played(*p)).collect(),
                    None => c.iter().map(|c| cards.played((*c, None))).collect(),
                };
                piles.push(Pile { label: label.clone(), count: c.len(), cards: Cards::InOrder(shown), taken: false });
            }
            (PileView::Cards(c), _) if !c.is_empty() => {
                piles.push(Pile { label: label.clone(), count: c.len(), cards: Cards::Counted, taken: false })
            }
            (PileView::Count(n), _) if n > 0 => {
                piles.push(Pile { label: label.clone(), count: n, cards: Cards::Counted, taken: false })
            }
            _ => {}
        }
        if let Some(taken) = plays.last.get(&pile).filter(|_| !over) {
            let shown: Vec<Card> = taken.cards.iter().map(|p| cards.played(*p)).collect();
            let label = format!("last {label}, {}", went(state, taken, cards));
            let count = shown.len();
            let shown = if count <= LISTED { Cards::InOrder(shown) } else { Cards::Counted };
            piles.push(Pile { label, count, cards: shown, taken: true });
        }
    }
    let mut zones: Vec<_> = plays.turned.iter().filter(|_| !state.is_over()).collect();
    zones.sort_by_key(|(zone, _)| **zone);
    for (zone, taken) in zones {
        let shown: Vec<Card> = taken.cards.iter().map(|p| cards.played(*p)).collect();
        let label = format!("last {}, to {}", zone_label(game, *zone), takers(state, &taken.to));
        piles.push(Pile { label, count: shown.len(), cards: Cards::InOrder(shown), taken: false });
    }
    piles
}

/// Where a trick's cards went: `to East`; when the one seat or side that took any took only one
/// or two of them, which, and where the rest went (`True card to team B, the rest to discard`).
fn went(state: &State, taken: &super::plays::Taken, cards: &CardNames<'_>) -> String {
    let owned: Vec<(CardId, Option<String>)> =
        taken.cards.iter().zip(&taken.to).map(|((card, _), pile)| (*card, owner(state, *pile))).collect();
    let mut owners: Vec<&String> = owned.iter().filter_map(|(_, o)| o.as_ref()).collect();
    owners.dedup();
    let some = owned.iter().filter(|(_, o)| o.is_some()).count();
    match owners[..] {
        [one] if some < owned.len() && some <= 2 => {
            let took: Vec<String> = owned.iter().filter(|(_, o)| o.is_some()).map(|(c, _)| cards.name(*c)).collect();
            let rest: Vec<usize> =
                (taken.to.iter().zip(&owned)).filter(|(_, (_, o))| o.is_none()).map(|(p, _)| *p).collect();
            format!("{} to {one}, the rest to {}", took.join(" and "), takers(state, &rest))
        }
        _ => format!("to {}", takers(state, &taken.to)),
    }
}

/// The seat or side a pile belongs to, by name.
fn owner(state: &State, pile: usize) -> Option<String> {
    let game = state.game();
    match state.layout().pile_zone[pile].1 {
        Some((crate::syntax::ast::Owner::Seat, s)) => Some(game.seats[s as usize].display.clone()),
        Some((crate::syntax::ast::Owner::Side, s)) => Some(game.sides[s as usize].display.clone()),
        None => None,
    }
}

/// Who took a trick whose cards went to `piles`: the one seat or side owning any of them (the
/// rest put aside), else the piles by name.
fn takers(state: &State, piles: &[usize]) -> String {
    let (game, layout) = (state.game(), state.layout());
    let mut owners: Vec<String> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for pile in piles {
        let (list, name) = match owner(state, *pile) {
            Some(owner) => (&mut owners, owner),
            None => (&mut names, pile_label(game, layout, *pile)),
        };
        if !list.contains(&name) {
            list.push(name);
        }
    }
    if owners.len() == 1 { owners.remove(0) } else { [owners, names].concat().join(" and ") }
}

/// Names cards as people read them: grouped by suit and coloured.
struct CardNames<'a> {
    game: &'a Game,
    /// The attribute cards are grouped by, with its enumeration.
    suit: Option<(usize, u16)>,
}

impl<'a> CardNames<'a> {
    fn new(game: &'a Game) -> Self {
        CardNames { game, suit: suit_attr(game) }
    }

    /// The suit value of a card, if it has one.
    fn suit_of(&self, card: CardId) -> Option<u16> {
        let (attr, _) = self.suit?;
        match self.game.cards.get(card as usize)?.get(attr)? {
            Value::Enum(v) => Some(*v),
            _ => None,
        }
    }

    /// The colour of a suit value.
    fn colour(&self, value: Option<u16>) -> Option<Colour> {
        let (_, e) = self.suit?;
        let info = &self.game.enums[e as usize];
        let member = info.values.get(value? as usize)?.member;
        let name = info.members.get(member as usize)?.name.to_lowercase();
        use Colour::*;
        match name.as_str() {
            "red" | "hearts" | "diamonds" | "heart" | "diamond" => Some(Red),
            "green" => Some(Green),
            "yellow" | "gold" | "orange" => Some(Yellow),
            "blue" => Some(Blue),
            "purple" | "violet" | "magenta" | "pink" => Some(Purple),
            "cyan" | "teal" => Some(Cyan),
            "black" | "white" | "spades" | "clubs" | "spade" | "club" => None,
            _ => Some([Red, Green, Yellow, Blue, Purple, Cyan][member as usize % 6]),
        }
    }

    fn suit_name(&self, value: u16) -> String {
        self.suit.map(|(_, e)| self.game.show_value(Value::Enum(value), &Type::Enum(e))).unwrap_or_default()
    }

    fn name(&self, card: CardId) -> String {
        self.game.card_names.get(card as usize).cloned().unwrap_or_default()
    }

    /// A card as it lies in a shared pile, with the seat that played it.
    fn played(&self, (card, seat): Played) -> Card {
        let name = self.name(card);
        let by = seat.map(|s| self.game.seats[s as usize].display.clone());
        Card { short: name.clone(), name, colour: self.colour(self.suit_of(card)), times: 1, by }
    }

    /// Cards grouped by suit, in suit order, each group sorted, cards of one name counted. A
    /// group is labelled by its suit when its cards are named without it (`clubs: 2 7 Q`);
    /// else the names are given whole (`blue Single`) and the group has no label.
    /// Without suits, names are shortened by `owner` (`P1's 3` is `3` under P1's seat).
    fn grouped(&self, cards: &[CardId], owner: &str) -> Vec<Group> {
        let mut cards = cards.to_vec();
        cards.sort_by_cached_key(|c| card_order(self.game, *c));
        let mut groups = Vec::new();
        for group in cards.chunk_by(|a, b| self.suit_of(*a) == self.suit_of(*b)) {
            let suit = self.suit_of(group[0]);
            let label = suit.map(|s| self.suit_name(s));
            let colour = self.colour(suit);
            let mut shown: Vec<Card> = Vec::new();
            for card in group {
                let name = self.name(*card);
                match shown.last_mut() {
                    Some(last) if last.name == name => last.times += 1,
                    _ => {
                        let by = label.clone().unwrap_or_else(|| format!("{owner}'s"));
                        let short = short_name(&name, Some(&by)).unwrap_or_else(|| name.clone());
                        shown.push(Card { name, short, colour, times: 1, by: None });
                    }
                }
            }
            // Cards named after their owner are shortened only where all are the owner's.
            if label.is_none() && shown.iter().any(|c| c.short == c.name) {
                shown.iter_mut().for_each(|c| c.short = c.name.clone());
            }
            let shortened = shown.iter().any(|c| c.short != c.name);
            groups.push(Group { label: label.filter(|_| shortened), colour, cards: shown });
        }
        groups
    }
}

/// A card's name without its suit, where the suit leads it or ends it after `of` (`red 5` in the
/// red group is `5`; `2 of clubs` is `2`); `None` when the suit is not said so (`blue Single`
/// keeps its kind word, as `blue` alone would not say what the card is).
fn short_name(name: &str, suit: Option<&str>) -> Option<String> {
    let suit = suit.filter(|s| !s.is_empty())?;
    let after = name.strip_prefix(suit).filter(|r| r.starts_with(' '));
    let before = name.strip_suffix(suit).and_then(|r| r.strip_suffix(" of "));
    after.or(before).map(str::trim).filter(|r| !r.is_empty()).map(String::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_suit_is_taken_off_card_names_where_it_leads_or_follows_of() {
        assert_eq!(short_name("red 5", Some("red")), Some("5".into()));
        assert_eq!(short_name("2 of clubs", Some("clubs")), Some("2".into()));
        assert_eq!(short_name("partial Single", Some("Single")), None);
        assert_eq!(short_name("True card", Some("card")), None);
        assert_eq!(short_name("reddish 5", Some("red")), None);
        assert_eq!(short_name("red", Some("red")), None);
        assert_eq!(short_name("P1's 3", None), None);
        assert_eq!(short_name("P1's 3", Some("P1's")), Some("3".into()));
    }
}
