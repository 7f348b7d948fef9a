//! The table as one player sees it, drawn as text: the seats laid out from the player's own seat
//! (at the bottom, then clockwise; four seats as a bridge diagram), each seat's piles under it
//! with cards grouped by their first enumeration attribute (the suit) and sorted, the shared
//! piles in the middle (a trick in progress with who played each card, the last trick and who
//! took it, under the round and the phase in progress), then the rule file's status lines (or,
//! without any, the standings). Piles go by their zones' display names.
//!
//! Nothing here knows a game: suits are found from the card attributes, colours from the suit
//! names (red, hearts, diamonds are red, ...) with a fallback palette.

use super::plays::{Played, Plays};
use crate::engine::{PileView, State, card_order, counted, pile_label, suit_attr, zone_label};
use crate::game::{CardId, Game, SeatId, Type, Value};

/// A middle pile with more cards than this is shown by its count (a won pile, a discard).
const LISTED: usize = 12;

/// How wide a line of cards under a seat may grow.
const WRAP: usize = 40;

/// How narrow lines of cards may be made to keep a bridge diagram within the screen's width.
const NARROWEST: usize = 16;

/// The least room between the left and right seats of a bridge diagram.
const MIDDLE: usize = 10;

/// Draws cards, in colour or not.
pub(super) struct Painter<'a> {
    game: &'a Game,
    /// The attribute cards are grouped by, with its enumeration.
    suit: Option<(usize, u16)>,
    colour: bool,
}

impl<'a> Painter<'a> {
    pub(super) fn new(game: &'a Game, colour: bool) -> Self {
        Painter { game, suit: suit_attr(game), colour }
    }

    /// The suit value of a card, if it has one.
    fn suit_of(&self, card: CardId) -> Option<u16> {
        let (attr, _) = self.suit?;
        match self.game.cards.get(card as usize)?.get(attr)? {
            Value::Enum(v) => Some(*v),
            _ => None,
        }
    }

    /// The ANSI colour of a suit value.
    fn tint(&self, value: u16) -> Option<u8> {
        let (_, e) = self.suit?;
        let info = &self.game.enums[e as usize];
        let member = info.values.get(value as usize)?.member;
        let name = info.members.get(member as usize)?.name.to_lowercase();
        match name.as_str() {
            "red" | "hearts" | "diamonds" | "heart" | "diamond" => Some(31),
            "green" => Some(32),
            "yellow" | "gold" | "orange" => Some(33),
            "blue" => Some(34),
            "purple" | "violet" | "magenta" | "pink" => Some(35),
            "cyan" | "teal" => Some(36),
            "black" | "white" | "spades" | "clubs" | "spade" | "club" => None,
            _ => Some([31, 32, 33, 34, 35, 36][member as usize % 6]),
        }
    }

    fn paint(&self, text: &str, suit: Option<u16>) -> String {
        match suit.and_then(|s| self.tint(s)) {
            Some(code) if self.colour => format!("\u{1b}[{code}m{text}\u{1b}[0m"),
            _ => text.to_string(),
        }
    }

    /// A card's name, in its suit's colour.
    pub(super) fn card(&self, card: CardId) -> String {
        self.paint(&self.game.card_names[card as usize], self.suit_of(card))
    }

    /// Cards grouped by suit, in suit order, each group sorted: one line per group, `red: 0 3 7`;
    /// without suits, names are shortened by `owner` (`P1's 3` is `3` under P1's seat).
    fn grouped(&self, cards: &[CardId], owner: &str, limit: usize) -> Vec<String> {
        let mut cards = cards.to_vec();
        cards.sort_by_cached_key(|c| card_order(self.game, *c));
        let mut lines = Vec::new();
        for group in cards.chunk_by(|a, b| self.suit_of(*a) == self.suit_of(*b)) {
            let suit = self.suit_of(group[0]);
            let label = suit.map(|s| self.suit_name(s));
            let short = label.clone().unwrap_or_else(|| format!("{owner}'s"));
            let names: Vec<String> =
                group.iter().map(|c| short_name(&self.game.card_names[*c as usize], Some(&short))).collect();
            let gap = if names.iter().all(|n| !n.contains(' ')) { " " } else { ", " };
            let head = label.map_or(String::new(), |l| format!("{l}: "));
            lines.extend(wrap(&head, &names, gap, limit).iter().map(|l| self.paint(l, suit)));
        }
        lines
    }

    /// A card in a trick: its name, with who played it unless the name says so already.
    fn played(&self, (card, seat): Played) -> String {
        let name = self.card(card);
        match seat.map(|s| &self.game.seats[s as usize].display) {
            Some(who) if !self.game.card_names[card as usize].starts_with(who.as_str()) => format!("{name} ({who})"),
            _ => name,
        }
    }

    fn suit_name(&self, value: u16) -> String {
        self.suit.map(|(_, e)| self.game.show_value(Value::Enum(value), &Type::Enum(e))).unwrap_or_default()
    }
}

/// `head` and the items joined by `gap`, in lines of at most `limit` characters (unless one
/// item is longer), the later lines indented under the first item.
fn wrap(head: &str, items: &[String], gap: &str, limit: usize) -> Vec<String> {
    let indent = " ".repeat(width(head));
    let mut lines = vec![head.to_string()];
    for (i, item) in items.iter().enumerate() {
        let last = lines.len() - 1;
        let sep = if i == 0 { "" } else { gap };
        if i > 0 && width(&lines[last]) + sep.len() + width(item) > limit {
            lines[last].push_str(sep.trim_end());
            lines.push(format!("{indent}{item}"));
        } else {
            lines[last].push_str(&format!("{sep}{item}"));
        }
    }
    lines
}

/// A card's name without its suit (`red 5` in the red group is `5`; `2 of clubs` is `2`).
fn short_name(name: &str, suit: Option<&str>) -> String {
    let Some(suit) = suit.filter(|s| !s.is_empty()) else { return name.to_string() };
    let before = name.strip_suffix(suit).filter(|r| r.ends_with(' ')).map(|r| r.trim_end());
    let rest = (name.strip_prefix(suit).filter(|r| r.starts_with(' ')))
        .or_else(|| before.map(|r| r.strip_suffix(" of").unwrap_or(r)))
        .map(str::trim)
        .filter(|r| !r.is_empty());
    rest.unwrap_or(name).to_string()
}

/// The width of a line on screen, colour codes left out.
fn width(line: &str) -> usize {
    let mut n = 0;
    let mut escape = false;
    for c in line.chars() {
        match c {
            '\u{1b}' => escape = true,
            'm' if escape => escape = false,
            _ if escape => {}
            _ => n += 1,
        }
    }
    n
}

fn pad(line: &str, to: usize) -> String {
    format!("{line}{}", " ".repeat(to.saturating_sub(width(line))))
}

/// The table as `player` sees it, with the seat of the player at the bottom, in `columns`.
pub(super) fn draw(state: &State, player: usize, painter: &Painter<'_>, status: &[String], columns: usize) -> String {
    let mut lines = diagram(state, player, painter, columns);
    lines.extend(status.iter().cloned());
    lines.extend(standing(state));
    let mut out = lines.join("\n");
    out.push('\n');
    out
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

/// The seats and piles as `player` sees them: four seats as a bridge diagram within `columns` where the cards allow (lines of cards wrapped narrower if need be, and a line saying
/// so when even that is too wide), other numbers of seats one under another.
pub(super) fn diagram(state: &State, player: usize, painter: &Painter<'_>, columns: usize) -> Vec<String> {
    let game = state.game();
    let seats = game.seats.len();
    let home = game.seats.iter().position(|s| s.player == player).unwrap_or(0);
    let around: Vec<usize> = (1..=seats).map(|k| (home + k) % seats).collect();
    let block = |s: usize, limit: usize| seat_block(state, player, s as SeatId, painter, limit);
    let plays = Plays::of(state);
    let fits = |lines: &[String]| lines.iter().all(|l| width(l) <= columns);
    let mut lines = if seats == 4 {
        // The middle between the side seats if it fits there, else under them.
        let draw = |limit: usize, between: bool| {
            let middle = middle_block(state, player, painter, &plays, limit);
            let sides = [block(around[0], limit), block(around[2], limit)];
            bridge(&block(around[1], limit), &sides, &middle, between, &block(home, limit))
        };
        let tries = [true, false].into_iter().flat_map(|between| (NARROWEST..=WRAP).rev().map(move |l| (l, between)));
        tries
            .map(|(limit, between)| draw(limit, between))
            .find(|lines| fits(lines))
            .unwrap_or_else(|| draw(NARROWEST, false))
    } else {
        let limit = WRAP.min(columns.saturating_sub(8)).max(NARROWEST);
        let mut lines: Vec<String> = Vec::new();
        for s in &around[..seats - 1] {
            lines.extend(block(*s, limit));
        }
        lines.push(String::new());
        lines.extend(middle_block(state, player, painter, &plays, limit).iter().map(|l| format!("    {l}")));
        lines.push(String::new());
        lines.extend(block(home, limit));
        lines
    };
    if !fits(&lines) {
        let needed = lines.iter().map(|l| width(l)).max().unwrap_or(0);
        lines.push(format!(
            "(The table needs {needed} columns and the screen has {columns}: widen it to see it whole.)"
        ));
    }
    lines
}

/// Four seats as a bridge diagram: the opposite seat on top, left and right on the sides, the
/// shared piles in the middle, the player's seat at the bottom; the top and bottom seats centred
/// over the whole width.
/// Without room `between` the side seats, the middle goes under them, indented as they are apart.
fn bridge(
    top: &[String],
    sides: &[Vec<String>; 2],
    middle: &[String],
    between: bool,
    bottom: &[String],
) -> Vec<String> {
    let [left, right] = sides;
    let widest = |b: &[String]| b.iter().map(|l| width(l)).max().unwrap_or(0);
    let west = widest(left) + 3;
    let inside = if between { middle } else { &[] };
    let centre = widest(inside).max(MIDDLE) + 3;
    let whole = (west + centre + widest(right)).max(if between { 0 } else { widest(middle) + 4 });
    let centred = |b: &[String]| {
        let indent = " ".repeat(whole.saturating_sub(widest(b)) / 2);
        b.iter().map(|l| format!("{indent}{l}")).collect::<Vec<String>>()
    };
    let mut lines = centred(top);
    lines.push(String::new());
    let rows = left.len().max(inside.len()).max(right.len());
    let cell = |b: &[String], i: usize| b.get(i).cloned().unwrap_or_default();
    for i in 0..rows {
        let row = format!("{}{}{}", pad(&cell(left, i), west), pad(&cell(inside, i), centre), cell(right, i));
        lines.push(row.trim_end().to_string());
    }
    lines.push(String::new());
    if !between {
        lines.extend(middle.iter().map(|l| format!("    {l}")));
        lines.push(String::new());
    }
    lines.extend(centred(bottom));
    lines
}

/// A seat's name, `(you)` for the player's own seats, and its piles as the player sees them.
fn seat_block(state: &State, player: usize, seat: SeatId, painter: &Painter<'_>, limit: usize) -> Vec<String> {
    let game = state.game();
    let info = &game.seats[seat as usize];
    let mut title = info.display.clone();
    if info.player == player {
        title.push_str(" (you)");
    }
    if state.view(player).to_act.contains(&seat) {
        title.push_str(" *");
    }
    let mut lines = vec![title];
    let layout = state.layout();
    for pile in (0..layout.pile_zone.len()).filter(|p| layout.seat_of_pile(*p) == Some(seat)) {
        let zone = zone_label(game, layout.pile_zone[pile].0);
        match state.pile_view(player, pile) {
            PileView::Cards(cards) if !cards.is_empty() => {
                lines.push(format!("  {zone}:"));
                let owner = &info.display;
                lines.extend(painter.grouped(&cards, owner, limit).into_iter().map(|l| format!("    {l}")));
            }
            PileView::Count(n) if n > 0 => lines.push(format!("  {zone}: {}", counted(n, "card"))),
            _ => {}
        }
    }
    lines
}

/// Where the match stands (`round 2, trick 3 of 11`), then the piles that belong to no seat
/// (shared and per-side piles) in the order cards came: a trick with who played each card, and
/// after a trick is taken, the last one and who took it.
fn middle_block(state: &State, player: usize, painter: &Painter<'_>, plays: &Plays, limit: usize) -> Vec<String> {
    let (game, layout) = (state.game(), state.layout());
    let mut lines = Vec::new();
    let heading: Vec<String> = plays.heading.iter().flatten().cloned().collect();
    if !heading.is_empty() && !state.is_over() {
        lines.extend(wrap("", &heading, ", ", limit));
    }
    for pile in (0..layout.pile_zone.len()).filter(|p| layout.seat_of_pile(*p).is_none()) {
        let name = pile_label(game, layout, pile);
        match state.pile_view(player, pile) {
            PileView::Cards(c) if !c.is_empty() && c.len() <= LISTED => match plays.trick(pile) {
                // A trick's cards with who played them, under its name to leave room for both.
                Some(trick) => {
                    let names: Vec<String> = trick.iter().map(|p| painter.played(*p)).collect();
                    lines.push(format!("{name}:"));
                    lines.extend(wrap("", &names, ", ", limit));
                }
                None => {
                    let names: Vec<String> = c.iter().map(|c| painter.card(*c)).collect();
                    lines.extend(wrap(&format!("{name}: "), &names, ", ", limit));
                }
            },
            PileView::Cards(c) if !c.is_empty() => lines.push(format!("{name}: {}", counted(c.len(), "card"))),
            PileView::Count(n) if n > 0 => lines.push(format!("{name}: {}", counted(n, "card"))),
            _ => {}
        }
        if let Some(taken) = plays.last.get(&pile).filter(|_| !state.is_over()) {
            let names: Vec<String> = taken.cards.iter().map(|p| painter.played(*p)).collect();
            lines.extend(wrap("", &[format!("last {name},"), format!("to {}:", takers(state, &taken.to))], " ", limit));
            lines.extend(wrap("", &names, ", ", limit));
        }
    }
    lines
}

/// Who took a trick whose cards went to `piles`: the one seat or side owning any of them (the
/// rest put aside), else the piles by name.
fn takers(state: &State, piles: &[usize]) -> String {
    let (game, layout) = (state.game(), state.layout());
    let mut owners: Vec<String> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for pile in piles {
        let owner = match layout.pile_zone[*pile].1 {
            Some((crate::syntax::ast::Owner::Seat, s)) => Some(&game.seats[s as usize].display),
            Some((crate::syntax::ast::Owner::Side, s)) => Some(&game.sides[s as usize].display),
            None => None,
        };
        let (list, name) = match owner {
            Some(owner) => (&mut owners, owner.clone()),
            None => (&mut names, pile_label(game, layout, *pile)),
        };
        if !list.contains(&name) {
            list.push(name);
        }
    }
    if owners.len() == 1 { owners.remove(0) } else { [owners, names].concat().join(" and ") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_suit_is_taken_off_card_names() {
        assert_eq!(short_name("red 5", Some("red")), "5");
        assert_eq!(short_name("2 of clubs", Some("clubs")), "2");
        assert_eq!(short_name("partial Single", Some("Single")), "partial");
        assert_eq!(short_name("filled red circle Complete", Some("Complete")), "filled red circle");
        assert_eq!(short_name("reddish 5", Some("red")), "reddish 5");
        assert_eq!(short_name("red", Some("red")), "red");
        assert_eq!(short_name("P1's 3", None), "P1's 3");
    }

    #[test]
    fn long_groups_wrap_under_their_first_card() {
        let items: Vec<String> = (0..20).map(|n| format!("P1's {n}")).collect();
        let lines = wrap("", &items, ", ", WRAP);
        assert!(lines.len() > 2, "{lines:?}");
        assert!(lines.iter().all(|l| l.chars().count() <= WRAP), "{lines:?}");
        assert_eq!(lines.join(" "), items.join(", "));
        let short: Vec<String> = ["1", "2"].iter().map(|s| s.to_string()).collect();
        assert_eq!(wrap("red: ", &short, " ", WRAP), vec!["red: 1 2"]);
    }

    #[test]
    fn colour_codes_take_no_room() {
        assert_eq!(width("\u{1b}[31mred 5\u{1b}[0m"), 5);
        assert_eq!(pad("\u{1b}[31mab\u{1b}[0m", 4).len(), "\u{1b}[31mab\u{1b}[0m".len() + 2);
    }
}
