//! Checking a saved position before it is played: a damaged or foreign save file is refused
//! with a reason, so that nothing in it can later point outside the game (a card, seat, pile or
//! statement that does not exist).

use super::*;

/// Whether a position has the shape of this game's positions and every value in it belongs to
/// the game.
pub(super) fn fits(game: &Game, layout: &Layout, pos: &Position) -> Result<(), String> {
    sizes(game, layout, pos)?;
    places(game, pos)?;
    let ok = Ids { game, layout };
    let values_ok = pos.vars.iter().chain(&pos.locals).all(|v| ok.value(*v));
    if !values_ok {
        return Err("a saved value names a card, seat, side or enumeration value this game does not have".into());
    }
    if !pos.frames.iter().all(|f| ok.frame(f)) || !ok.pending(&pos.pending) {
        return Err("the saved flow does not belong to this rule file".into());
    }
    if !pos.log.iter().all(|e| ok.event(e)) {
        return Err("the saved log names things this game does not have".into());
    }
    Ok(())
}

fn sizes(game: &Game, layout: &Layout, pos: &Position) -> Result<(), String> {
    let cards = game.cards.len();
    let shapes = [
        ("piles", pos.piles.len(), layout.pile_zone.len()),
        ("card places", pos.place.len(), cards),
        ("card owners", pos.came_from.len(), cards),
        ("variables", pos.vars.len(), layout.var_slots),
        ("local names", pos.locals.len(), game.slots),
        ("phases", pos.phase_counts.len(), game.phases.len()),
        ("player knowledge", pos.known.len(), super::knowledge::words(cards) * game.players),
    ];
    for (what, found, wanted) in shapes {
        if found != wanted {
            return Err(format!("the saved {what} do not match this game ({found} instead of {wanted})"));
        }
    }
    let bits = super::knowledge::words(cards);
    let pile_ok = |p: u16| (p as usize) < layout.pile_zone.len();
    let exclusion_ok = |e: &Exclusion| (e.player as usize) < game.players && pile_ok(e.pile) && e.cards.len() == bits;
    let inference_ok =
        |i: &Inference| (i.card as usize) < cards && i.piles.iter().all(|p| pile_ok(*p)) && i.cards.len() == bits;
    if !pos.excluded.iter().all(exclusion_ok) || !pos.inferences.iter().all(inference_ok) {
        return Err("the saved knowledge of the players does not match this game".into());
    }
    Ok(())
}

/// Every card is in exactly one pile, and its recorded place says so.
fn places(game: &Game, pos: &Position) -> Result<(), String> {
    let cards = game.cards.len();
    let mut seen = vec![false; cards];
    for (p, pile) in pos.piles.iter().enumerate() {
        for &c in pile {
            let ok = (c as usize) < cards
                && !std::mem::replace(&mut seen[c as usize], true)
                && pos.place[c as usize] as usize == p;
            if !ok {
                return Err(format!("card {c} is not in exactly one place"));
            }
        }
    }
    if seen.iter().any(|s| !s) {
        return Err("a card is missing from the saved position".into());
    }
    if pos.came_from.iter().any(|s| *s != NO_SEAT && *s as usize >= game.seats.len()) {
        return Err("a card came from a seat this game does not have".into());
    }
    Ok(())
}

/// Whether ids found in a saved position exist in the game.
struct Ids<'a> {
    game: &'a Game,
    layout: &'a Layout,
}

impl Ids<'_> {
    fn value(&self, v: Value) -> bool {
        let most_values = self.game.enums.iter().map(|e| e.values.len()).max().unwrap_or(0);
        match v {
            Value::Card(c) => (c as usize) < self.game.cards.len(),
            Value::Seat(s) => (s as usize) < self.game.seats.len(),
            Value::Side(s) => (s as usize) < self.game.sides.len(),
            Value::Enum(e) => (e as usize) < most_values,
            _ => true,
        }
    }

    fn seat(&self, s: SeatId) -> bool {
        (s as usize) < self.game.seats.len()
    }

    fn stmt(&self, at: &Loc) -> Option<&StmtKind> {
        self.game.blocks.get(at.block as usize)?.stmts.get(at.index as usize).map(|s| &s.kind)
    }

    /// A frame stands at a statement of its own kind, with values of the game.
    fn frame(&self, frame: &Frame) -> bool {
        let block_ok = |b: &BlockId| (*b as usize) < self.game.blocks.len();
        match frame {
            Frame::Block { block, .. } | Frame::Repeat { body: block, .. } => block_ok(block),
            Frame::While { at } => matches!(self.stmt(at), Some(StmtKind::While(..))),
            Frame::Until { at, .. } => matches!(self.stmt(at), Some(StmtKind::RepeatUntil(..))),
            Frame::Phase { at, .. } => matches!(self.stmt(at), Some(StmtKind::Phase(..))),
            Frame::For { at, level, items, .. } => {
                matches!(self.stmt(at), Some(StmtKind::For(bindings, _)) if (*level as usize) < bindings.len())
                    && items.iter().all(|v| self.value(*v))
            }
            Frame::Together { at, seats, chosen, .. } => {
                matches!(self.stmt(at), Some(StmtKind::Simultaneously(..)))
                    && seats.len() == chosen.len()
                    && seats.iter().all(|s| self.seat(*s))
                    && chosen.iter().all(|o| self.value(o.value))
            }
        }
    }

    /// A saved position waits for a decision or is over; its options are the game's.
    fn pending(&self, pending: &Pending) -> bool {
        let options_ok = |o: &[Opt]| !o.is_empty() && o.iter().all(|x| self.value(x.value));
        match pending {
            Pending::Running => false,
            Pending::Choice { at, seat, options } => {
                matches!(self.stmt(at), Some(StmtKind::Choose(_))) && self.seat(*seat) && options_ok(options)
            }
            Pending::Together { at, seats, options, chosen } => {
                let mut distinct = seats.clone();
                distinct.sort_unstable();
                distinct.dedup();
                matches!(self.stmt(at), Some(StmtKind::Simultaneously(..)))
                    && !seats.is_empty()
                    && distinct.len() == seats.len()
                    && seats.iter().all(|s| self.seat(*s))
                    && options.len() == seats.len()
                    && chosen.len() == seats.len()
                    && options.iter().all(|o| options_ok(o))
                    && chosen.iter().zip(options).all(|(c, o)| c.is_none_or(|i| (i as usize) < o.len()))
                    && chosen.iter().any(Option::is_none)
            }
            Pending::Over(_) | Pending::Failed(_) => true,
        }
    }

    /// A logged event names seats, piles, zones and cards of the game.
    fn event(&self, event: &Event) -> bool {
        let pile = |p: &usize| *p < self.layout.pile_zone.len();
        let card = |c: &CardId| (*c as usize) < self.game.cards.len();
        match event {
            Event::Chose { seat, value, .. } => self.seat(*seat) && self.value(*value),
            Event::Moved { cards, to } => pile(to) && cards.iter().all(card),
            Event::Shuffled { pile: p } => pile(p),
            Event::Dealt { from, zone, hands, .. } => {
                pile(from)
                    && (*zone as usize) < self.game.zones.len()
                    && hands.len() <= self.layout.piles(*zone)
                    && hands.iter().flatten().all(card)
            }
            _ => true,
        }
    }
}
