//! A position as one player may see it, drawn as plain text: one line per pile, then the
//! variables, who is to act and the rule file's `show` lines. Made only from [`State::view`]
//! (or, for a referee, from every pile), so it tells a player nothing the engine hides.

use paradox::{PileView, State, Value};
use std::fmt::Write;

/// The text of the position as `player` sees it, or all of it (`None`).
pub(crate) fn text(state: &State, player: Option<usize>) -> String {
    let game = state.game();
    let layout = state.layout();
    let mut out = String::new();
    let piles: Vec<PileView> = match player {
        Some(p) => state.view(p).piles,
        None => (0..layout.pile_zone.len()).map(|pile| PileView::Cards(state.position().pile(pile).to_vec())).collect(),
    };
    match player {
        Some(p) => {
            let seats: Vec<&str> = game.seats.iter().filter(|s| s.player == p).map(|s| s.display.as_str()).collect();
            let _ = writeln!(out, "player {p} ({})", seats.join(", "));
        }
        None => out.push_str("everything\n"),
    }
    for (pile, seen) in piles.iter().enumerate() {
        let shown = match seen {
            PileView::Cards(cards) => {
                let names: Vec<&str> = cards.iter().map(|&c| game.card_names[c as usize].as_str()).collect();
                format!("[{}]", names.join(", "))
            }
            PileView::Count(n) => format!("{n} cards"),
            PileView::Hidden => "hidden".to_string(),
        };
        let _ = writeln!(out, "{}: {shown}", pile_name(state, pile));
    }
    let names = game.names();
    for var in &game.vars {
        for (i, value) in (0..).map_while(|i| state.var(&var.name, i)).enumerate() {
            let owner = match var.owner {
                Some(_) => format!("[{}]", owner_name(state, &format!("{:?}", var.owner), i)),
                None => String::new(),
            };
            let _ = writeln!(out, "{}{owner} = {}", var.name, names.show(value, &var.ty));
        }
    }
    let to_act: Vec<&str> = state_to_act(state).iter().map(|&s| game.seats[s as usize].display.as_str()).collect();
    let _ = writeln!(out, "to act: {}", if to_act.is_empty() { "nobody".to_string() } else { to_act.join(", ") });
    for line in state.status() {
        let _ = writeln!(out, "{line}");
    }
    paradox::printable::escape(&out).into_owned()
}

/// The seats to act, as every player sees them.
fn state_to_act(state: &State) -> Vec<paradox::SeatId> {
    match state.actor() {
        paradox::Actor::Seat(s) => vec![s],
        paradox::Actor::Together(seats) => seats,
        paradox::Actor::Nobody => Vec::new(),
    }
}

/// A pile's name: its zone's, with the seat or side that owns it (`hand[North]`).
pub(crate) fn pile_name(state: &State, pile: usize) -> String {
    let game = state.game();
    let layout = state.layout();
    let (zone, owner) = layout.pile_zone[pile];
    let info = &game.zones[zone as usize];
    let zone_name = info.display.as_deref().unwrap_or(&info.name);
    match owner {
        None => zone_name.to_string(),
        Some((_, index)) => match layout.seat_of_pile(pile) {
            Some(seat) => format!("{zone_name}[{}]", game.seats[seat as usize].display),
            None => format!("{zone_name}[{}]", game.sides[index as usize].display),
        },
    }
}

/// The name of the `index`-th owner of a per-seat or per-side variable (`owner` is the
/// variable's owner as written for debugging: `Some(Side)` for a side's).
fn owner_name(state: &State, owner: &str, index: usize) -> String {
    let game = state.game();
    let name = if owner.contains("Side") {
        game.sides.get(index).map(|s| &s.display)
    } else {
        game.seats.get(index).map(|s| &s.display)
    };
    name.cloned().unwrap_or_else(|| index.to_string())
}

/// A variable's value as a number, for tensors: `none` is 0, a seat, card or enum value its number
/// plus 1, a set its bits, a group its size.
pub(crate) fn number(value: Value) -> f32 {
    match value {
        Value::None => 0.0,
        Value::Int(n) => n as f32,
        Value::Bool(b) => f32::from(u8::from(b)),
        Value::Seat(s) => f32::from(s) + 1.0,
        Value::Side(s) => f32::from(s) + 1.0,
        Value::Card(c) => c as f32 + 1.0,
        Value::Enum(e) => f32::from(e) + 1.0,
        Value::Set(bits) => bits as f32,
        Value::Group(g) => g.len() as f32,
    }
}
