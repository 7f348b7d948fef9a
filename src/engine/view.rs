//! What one player may see of a position: piles by their zone's `see:` and `count:` rules,
//! seen from every seat the player decides for, and who is still to choose.

use super::*;

/// One pile as a player sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum PileView {
    /// Which cards are there, bottom first.
    Cards(Vec<CardId>),
    /// Only how many.
    Count(usize),
    /// Nothing.
    Hidden,
}

/// The event log as one player may read it ([`State::told`]).
#[derive(Clone, Debug, Default)]
pub struct Told {
    /// The lines, in order.
    pub lines: Vec<String>,
    /// Where each round ended: how many lines came before the end of each round (the phase
    /// the `sheet` names), in order.
    pub ends: Vec<usize>,
    /// The lines that tell a seat's choice, with the seat, in order.
    pub choices: Vec<(usize, SeatId)>,
}

/// A position as one player sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// The player who sees it.
    pub player: usize,
    /// One entry per pile, in the layout's order.
    pub piles: Vec<PileView>,
    /// Variables are public: every player sees them.
    pub vars: Vec<Value>,
    /// The seats still to decide (in a secret round, those that have not chosen yet).
    pub to_act: Vec<SeatId>,
}

impl State {
    /// The position as `player` may see it.
    pub fn view(&self, player: usize) -> View {
        let piles = (0..self.pos.pile_count()).map(|p| self.pile_view(player, p)).collect();
        let to_act = match self.actor() {
            Actor::Seat(s) => vec![s],
            Actor::Together(seats) => seats,
            Actor::Nobody => Vec::new(),
        };
        View { player, piles, vars: self.pos.vars.clone(), to_act }
    }

    /// One pile as `player` may see it; a player number past the last is a spectator, who sees
    /// what every player sees.
    pub fn pile_view(&self, player: usize, pile: usize) -> PileView {
        let cards = self.pos.pile(pile);
        let layout = self.layout();
        if allowed(&layout.see, player, pile) {
            PileView::Cards(cards.to_vec())
        } else if allowed(&layout.count, player, pile) {
            PileView::Count(cards.len())
        } else {
            PileView::Hidden
        }
    }

    /// The event log as `player` may read it: a move names its cards only when they land where
    /// the player sees them, and another seat's choice of a card is named only when that card
    /// goes somewhere the player sees. Moves of no cards (gathering empty piles) are left out,
    /// and so are the starts of phases without a title; the others are counted within the
    /// round (see `Numbering`).
    pub fn log_for(&self, player: usize) -> Vec<String> {
        self.told(player).lines
    }

    /// [`State::log_for`], with where each round ended and which lines tell a choice.
    pub fn told(&self, player: usize) -> Told {
        let events = self.events();
        let mut lines = Vec::with_capacity(events.len());
        let mut ends = Vec::new();
        let mut choices = Vec::new();
        let mut numbering = Numbering::default();
        for (i, event) in events.iter().enumerate() {
            let line = match event {
                Event::Phase { name, count, of } => match numbering.heading(&self.game, name, *count, *of) {
                    Some(heading) => format!("-- {heading} --"),
                    None => continue,
                },
                Event::Sheet { .. } => {
                    ends.push(lines.len());
                    continue;
                }
                Event::Chose { seat, value, secret, .. } if self.hidden_choice(player, i, *seat, *value) => {
                    // A secret choice whose cards stay hidden shows only that it was made.
                    let how = if *secret { "has chosen" } else { "chooses" };
                    let what = match value {
                        Value::Group(g) => plural(g.len() as i64, "card", "cards"),
                        _ => "a card".into(),
                    };
                    format!("{} {how} {what}", self.game.seats[*seat as usize].display)
                }
                Event::Over => continue,
                Event::Moved { cards, .. } if cards.is_empty() => continue,
                e => e.text_as(&self.game, self.layout(), &|p| self.sees(player, p)),
            };
            if let Event::Chose { seat, .. } = event {
                choices.push((lines.len(), *seat));
            }
            lines.push(line);
        }
        Told { lines, ends, choices }
    }

    /// The secret choices of other players' seats in the event log from its `from`-th event
    /// on, as `player` saw them revealed: each event's number, the seat, and what it chose,
    /// `None` where the choice's cards stayed out of the player's sight. Empty where the match
    /// keeps no log.
    pub fn secret_choices_seen(&self, player: usize, from: usize) -> Vec<(usize, SeatId, Option<Value>)> {
        let events = self.events();
        let others = |seat: SeatId| self.game.seats[seat as usize].player != player;
        (from..events.len())
            .filter_map(|i| match &events[i] {
                Event::Chose { seat, value, secret: true, .. } if others(*seat) => {
                    Some((i, *seat, (!self.hidden_choice(player, i, *seat, *value)).then_some(*value)))
                }
                _ => None,
            })
            .collect()
    }

    /// Whether the choice of the `i`-th event, `seat`'s of `value`, is hidden from `player`:
    /// another player's choice whose cards do not land where `player` sees them.
    fn hidden_choice(&self, player: usize, i: usize, seat: SeatId, value: Value) -> bool {
        self.game.seats[seat as usize].player != player && !self.chosen_in_view(player, &self.events()[i + 1..], value)
    }

    /// Whether the cards of a choice (if it is of cards) are seen landing by `player`.
    fn chosen_in_view(&self, player: usize, later: &[Event], value: Value) -> bool {
        match value {
            Value::Card(c) => self.lands_in_view(player, later, c),
            Value::Group(g) => g.cards().all(|c| self.lands_in_view(player, later, c)),
            _ => true,
        }
    }

    /// Whether the next move of `card` in `later` puts it where `player` sees it.
    fn lands_in_view(&self, player: usize, later: &[Event], card: CardId) -> bool {
        later.iter().find_map(|e| match e {
            Event::Moved { cards, to } if cards.contains(&card) => Some(self.sees(player, *to)),
            _ => None,
        }) == Some(true)
    }

    /// Whether `player` sees which cards are in a pile (a spectator: whether every player does).
    pub fn sees(&self, player: usize, pile: usize) -> bool {
        allowed(&self.layout().see, player, pile)
    }
}

/// Whether the layout's `table` (`see` or `count`) allows `player` the pile; a player past the
/// last (a spectator) is allowed what every player is.
fn allowed(table: &[Vec<bool>], player: usize, pile: usize) -> bool {
    let open = |t: &Vec<bool>| t.get(pile) == Some(&true);
    match table.get(player) {
        Some(t) => open(t),
        None => !table.is_empty() && table.iter().all(open),
    }
}
