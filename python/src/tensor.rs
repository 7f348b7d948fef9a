//! A position as one player may see it, as a flat list of numbers of a size fixed per game, for
//! learning algorithms. Made only from [`State::view`] and the event log as the player may read
//! it, so it tells a player nothing the engine hides.
//!
//! The view tensor, in order: the player (one-hot over players); for each pile, each card (1 where
//! the player sees that card in that pile); for each pile, whether the player knows how many
//! cards it holds and that count over the deck's size; each variable slot as a number
//! ([`crate::view::number`]); the seats to act (one-hot over seats). The information tensor adds,
//! for each pile and card, 1 where the player has seen the card land in that pile so far (or was
//! shown it there by a `reveal`).

use paradox::{Event, PileView, Playable, State};

/// The length of the view tensor of a game.
pub(crate) fn view_size(playable: &Playable) -> usize {
    let (players, seats, cards) = counts(playable.game());
    let layout = paradox::Layout::of(playable.game());
    let piles = layout.pile_zone.len();
    players + piles * cards + 2 * piles + layout.var_slots + seats
}

/// The length of the information tensor of a game.
pub(crate) fn information_size(playable: &Playable) -> usize {
    let layout = paradox::Layout::of(playable.game());
    view_size(playable) + layout.pile_zone.len() * playable.game().cards.len()
}

fn counts(game: &paradox::Game) -> (usize, usize, usize) {
    (game.players, game.seats.len(), game.cards.len())
}

/// The view tensor of `player`.
pub(crate) fn view(state: &State, player: usize) -> Vec<f32> {
    let (players, seats, cards) = counts(state.game());
    let seen = state.view(player);
    let mut out = vec![0.0; players];
    out[player] = 1.0;
    let mut counted = Vec::with_capacity(2 * seen.piles.len());
    for pile in &seen.piles {
        let mut row = vec![0.0; cards];
        let count = match pile {
            PileView::Cards(held) => {
                held.iter().for_each(|&c| row[c as usize] = 1.0);
                Some(held.len())
            }
            PileView::Count(n) => Some(*n),
            PileView::Hidden => None,
        };
        out.extend(row);
        counted.push(if count.is_some() { 1.0 } else { 0.0 });
        counted.push(count.map_or(0.0, |n| n as f32 / cards.max(1) as f32));
    }
    out.extend(counted);
    out.extend(seen.vars.iter().map(|&v| crate::view::number(v)));
    let mut acting = vec![0.0; seats];
    seen.to_act.iter().for_each(|&s| acting[s as usize] = 1.0);
    out.extend(acting);
    out
}

/// The information tensor of `player`: the view tensor, then where the player has seen each
/// card land (the cards it sees now count as seen where they lie).
pub(crate) fn information(state: &State, player: usize) -> Vec<f32> {
    let cards = state.game().cards.len();
    let layout = state.layout();
    let mut landed = vec![0.0; layout.pile_zone.len() * cards];
    // A card is seen landing where the player sees the pile, or where every player is shown it.
    let mut mark = |pile: usize, card: paradox::CardId, shown: bool| {
        if shown || state.sees(player, pile) {
            landed[pile * cards + card as usize] = 1.0;
        }
    };
    for event in state.events() {
        match event {
            Event::Moved { cards, to } => cards.iter().for_each(|&c| mark(*to, c, false)),
            Event::Dealt { zone, hands, .. } => {
                for (i, hand) in hands.iter().enumerate() {
                    hand.iter().for_each(|&c| mark(layout.pile(*zone, i), c, false));
                }
            }
            Event::Revealed { cards } => cards.iter().for_each(|&(c, pile)| mark(pile, c, true)),
            _ => {}
        }
    }
    for pile in 0..layout.pile_zone.len() {
        state.position().pile(pile).iter().for_each(|&c| mark(pile, c, false));
    }
    let mut out = view(state, player);
    out.extend(landed);
    out
}
