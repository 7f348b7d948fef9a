//! What players see of the table, for conformance tests: a pile's cards by name, read through
//! `State::view` of a chosen player.

use crate::table::Table;
use paradox::{Layout, PileView};

/// The pile of `zone` owned by `owner` (a seat or side, by name or display name), or the shared
/// pile when `owner` is `None`, as `player` sees it.
pub fn seen(t: &Table, player: usize, zone: &str, owner: Option<&str>) -> PileView {
    let game = t.state.game();
    let z = game.zones.iter().position(|x| x.name == zone).unwrap_or_else(|| panic!("no zone {zone}"));
    let index = match owner {
        None => 0,
        Some(name) => match game.seats.iter().position(|s| s.name == name || s.display == name) {
            Some(i) => i,
            None => game
                .sides
                .iter()
                .position(|s| s.name == name || s.display == name)
                .unwrap_or_else(|| panic!("no seat or side {name}")),
        },
    };
    let pile = Layout::of(game).pile(z as u16, index);
    t.state.view(player).piles[pile].clone()
}

/// The names of the cards in a pile, sorted, as the pile's owner sees them (player 0 for a
/// shared pile or a side's pile).
pub fn cards(t: &Table, zone: &str, owner: Option<&str>) -> Vec<String> {
    let game = t.state.game();
    let player =
        owner.and_then(|name| game.seats.iter().find(|s| s.name == name || s.display == name)).map_or(0, |s| s.player);
    match seen(t, player, zone, owner) {
        PileView::Cards(ids) => {
            let mut names: Vec<String> = ids.iter().map(|c| game.card_names[*c as usize].clone()).collect();
            names.sort();
            names
        }
        other => panic!("{zone} of {owner:?} is not open to its owner: {other:?}"),
    }
}

/// Every line the rule file said, in order.
pub fn narration(t: &Table) -> Vec<String> {
    t.state
        .events()
        .iter()
        .filter_map(|e| match e {
            paradox::Event::Say(s) => Some(s.clone()),
            _ => None,
        })
        .collect()
}
