//! Checking a saved position before it is played: a damaged or foreign save file is refused
//! with a reason, so that nothing in it can later point outside the game (a card, seat, pile or
//! statement that does not exist).

use super::program::{Op, Program};
use super::*;

/// Why a saved state was refused: it does not fit the game (a damaged save, or one of another
/// game). Each says what in the save is wrong, in words for its player.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Unfit {
    /// The count of decisions is past the most a position may have counted.
    #[error("its count of decisions is more than a match reaches (at most {MAX_DECISION_COUNT})")]
    Decisions,
    /// The count of narration is past what a match can narrate (the bytes given).
    #[error("its count of narration is more than a match reaches (at most {0} bytes)")]
    Narration(u64),
    /// The card arrays are not as long as the pack (of the size given).
    #[error("the saved cards do not match this game's {0}")]
    Cards(usize),
    /// The piles' bounds are not those of the game's piles (as many as given).
    #[error("the saved piles do not match this game's {0}")]
    Piles(usize),
    /// A card is in no pile, in two, or not where its place says.
    #[error("card {0} is not in exactly one place")]
    Place(CardId),
    /// A card came from a seat the game does not have.
    #[error("a card came from a seat this game does not have")]
    CameFrom,
    /// A table of the position (variables, local names, phases) has the wrong size.
    #[error("the saved {what} do not match this game ({found} instead of {wanted})")]
    Size {
        /// The table.
        what: &'static str,
        /// Its size in the save.
        found: usize,
        /// Its size in this game.
        wanted: usize,
    },
    /// The players' knowledge has the wrong shape or names what the game does not have.
    #[error("the saved knowledge of the players does not match this game")]
    Knowledge,
    /// A value names a card, seat, side or enumeration value the game does not have.
    #[error("a saved value names a card, seat, side or enumeration value this game does not have")]
    Value,
    /// A variable holds a value not of its type.
    #[error("the saved variable `{name}` holds {value:?}, which is not of its type")]
    Variable {
        /// The variable.
        name: String,
        /// What it holds.
        value: Value,
    },
    /// The flow names blocks or statements the rule file does not have.
    #[error("the saved flow does not belong to this rule file")]
    Flow,
    /// The flow's frames or loops do not fit together (what is wrong, in words).
    #[error("the saved flow is damaged: {0}")]
    Damaged(&'static str),
    /// The log names what the game does not have.
    #[error("the saved log names things this game does not have")]
    Log,
    /// The decision waited for is not the one the rules ask for there.
    #[error("the saved decision is not the one the rules ask for in the saved position")]
    Decision,
}

/// Whether a saved state has the shape of this game's states and every value in it belongs to
/// the game.
pub(super) fn fits(game: &Game, prog: &Program, saved: &Snapshot) -> Result<(), Unfit> {
    let pos = &saved.position;
    let layout = &prog.layout;
    if pos.decisions > MAX_DECISION_COUNT {
        return Err(Unfit::Decisions);
    }
    // A match stops at the `say` that takes its narration past the limit: no count goes further
    // than the limit and one more line. A larger one would wrap at the next `say`.
    let most_narrated = run::MAX_NARRATION + run::MAX_LINE as u64 + 1;
    if pos.narrated > most_narrated {
        return Err(Unfit::Narration(most_narrated));
    }
    pos.cards_fit(game.cards.len(), layout.pile_zone.len(), game.seats.len())?;
    sizes(game, layout, saved)?;
    let ok = Ids { game, layout };
    let values = pos.locals.iter().chain(&pos.stack).chain(pos.options.iter().map(|o| &o.value));
    if !values.copied().all(|v| ok.value(v)) {
        return Err(Unfit::Value);
    }
    ok.vars(&pos.vars)?;
    if !pos.frames.iter().all(|f| ok.frame(f, pos)) || !ok.pending(&pos.pending, &pos.options) {
        return Err(Unfit::Flow);
    }
    stack(pos)?;
    shape(game, &pos.frames, &pos.pending)?;
    if !saved.log.iter().flatten().all(|e| ok.event(e)) {
        return Err(Unfit::Log);
    }
    Ok(())
}

fn sizes(game: &Game, layout: &Layout, saved: &Snapshot) -> Result<(), Unfit> {
    let pos = &saved.position;
    let cards = game.cards.len();
    let shapes = [
        ("variables", pos.vars.len(), layout.var_slots),
        ("local names", pos.locals.len(), game.slots),
        ("phases", pos.phase_counts.len(), game.phases.len()),
    ];
    for (what, found, wanted) in shapes {
        if found != wanted {
            return Err(Unfit::Size { what, found, wanted });
        }
    }
    let Some(knowledge) = &saved.knowledge else { return Ok(()) };
    let bits = super::knowledge::words(cards);
    if knowledge.known.len() != bits * game.players {
        return Err(Unfit::Knowledge);
    }
    let pile_ok = |p: u16| (p as usize) < layout.pile_zone.len();
    let exclusion_ok = |e: &Exclusion| (e.player as usize) < game.players && pile_ok(e.pile) && e.cards.len() == bits;
    let inference_ok =
        |i: &Inference| (i.card as usize) < cards && i.piles.iter().all(|p| pile_ok(*p)) && i.cards.len() == bits;
    if !knowledge.excluded.iter().all(exclusion_ok) || !knowledge.inferences.iter().all(inference_ok) {
        return Err(Unfit::Knowledge);
    }
    Ok(())
}

/// What is wrong with a flow whose loops do not match the elements on the stack.
const LOOPS_DAMAGED: &str = "its loops do not match their elements";

/// The stack holds exactly the elements of the loops and revealed choices in progress, one
/// after another from the outermost.
fn stack(pos: &Position) -> Result<(), Unfit> {
    let mut top = 0u64;
    for frame in &pos.frames {
        let (base, len) = match *frame {
            Frame::For { base, len, .. } => (base, u64::from(len)),
            Frame::Together { base, seats, .. } => (base, 3 * u64::from(seats)),
            _ => continue,
        };
        if u64::from(base) != top {
            return Err(Unfit::Damaged(LOOPS_DAMAGED));
        }
        top += len;
    }
    if top != pos.stack.len() as u64 {
        return Err(Unfit::Damaged(LOOPS_DAMAGED));
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
            Value::Group(g) => g.is_valid(self.game.cards.len()),
            Value::Seat(s) => (s as usize) < self.game.seats.len(),
            Value::Side(s) => (s as usize) < self.game.sides.len(),
            Value::Enum(e) => (e as usize) < most_values,
            _ => true,
        }
    }

    /// Whether a value is one of type `ty` in this game. `none` fits every type: the rules may
    /// store an optional value in a plain variable, and reading it there stops the match with a
    /// run-time problem, as it would have in the match itself.
    /// Whether a value can be an option of the decision: of its type, or a card of a mixed one.
    fn option_typed(&self, v: Value, choose: &Choose) -> bool {
        let cards = if choose.group.is_some() { Type::Group } else { Type::Card };
        self.typed(v, &choose.elem) || (choose.menu.is_some() && self.typed(v, &cards))
    }

    fn typed(&self, v: Value, ty: &Type) -> bool {
        match (v, ty.base()) {
            (Value::None, _) | (Value::Int(_), Type::Int) | (Value::Bool(_), Type::Bool) => true,
            (Value::Seat(_), Type::Seat) | (Value::Side(_), Type::Side) | (Value::Card(_), Type::Card) => self.value(v),
            (Value::Group(_), Type::Group) => self.value(v),
            (Value::Enum(i), Type::Enum(e)) => (i as usize) < self.enum_size(*e),
            (Value::Set(bits), Type::Set(elem)) => {
                let size = match elem.base() {
                    Type::Seat => self.game.seats.len(),
                    Type::Enum(e) => self.enum_size(*e),
                    _ => 0,
                };
                size >= 64 || bits >> size == 0
            }
            _ => false,
        }
    }

    /// How many values an enumeration has (none for one the game does not have).
    fn enum_size(&self, e: EnumId) -> usize {
        self.game.enums.get(e as usize).map_or(0, |x| x.values.len())
    }

    /// Every variable holds a value of its declared type.
    fn vars(&self, vars: &[Value]) -> Result<(), Unfit> {
        for (info, &base) in self.game.vars.iter().zip(&self.layout.var_base) {
            let n = per_owner(info.owner, self.game.seats.len(), self.game.sides.len());
            let slots = vars.get(base..base + n).unwrap_or_default();
            if let Some(v) = slots.iter().find(|v| !self.typed(**v, &info.ty)) {
                return Err(Unfit::Variable { name: info.name.clone(), value: *v });
            }
        }
        Ok(())
    }

    fn seat(&self, s: SeatId) -> bool {
        (s as usize) < self.game.seats.len()
    }

    fn stmt(&self, at: &Loc) -> Option<&StmtKind> {
        self.game.blocks.get(at.block as usize)?.stmts.get(at.index as usize).map(|s| &s.kind)
    }

    /// A frame stands at a statement of its own kind, with values of the game.
    fn frame(&self, frame: &Frame, pos: &Position) -> bool {
        let block_ok = |b: &BlockId| (*b as usize) < self.game.blocks.len();
        match frame {
            Frame::Block { block, pc } => {
                self.game.blocks.get(*block as usize).is_some_and(|b| *pc as usize <= b.stmts.len())
            }
            Frame::Repeat { body, .. } => block_ok(body),
            Frame::While { at } => matches!(self.stmt(at), Some(StmtKind::While(..))),
            Frame::Until { at, .. } => matches!(self.stmt(at), Some(StmtKind::RepeatUntil(..))),
            Frame::Phase { at, .. } => matches!(self.stmt(at), Some(StmtKind::Phase(..))),
            Frame::For { at, level, len, next, .. } => {
                matches!(self.stmt(at), Some(StmtKind::For(bindings, _)) if (*level as usize) < bindings.len())
                    && next <= len
            }
            Frame::Together { at, base, seats, next } => {
                let Some(StmtKind::Simultaneously(_, choose, _)) = self.stmt(at) else { return false };
                next <= seats
                    && (0..*seats).all(|i| {
                        pos.secret_choice(*base, i)
                            .is_some_and(|(s, o)| self.seat(s) && self.option_typed(o.value, choose))
                    })
            }
        }
    }

    /// A saved position waits for a decision or is over; its options are the game's.
    fn pending(&self, pending: &Pending, options: &[Opt]) -> bool {
        match pending {
            Pending::Running => false,
            Pending::Choice { at, seat } => {
                matches!(self.stmt(at), Some(StmtKind::Choose(_))) && self.seat(*seat) && !options.is_empty()
            }
            Pending::Together { at, seats } => {
                let mut distinct: Vec<SeatId> = seats.iter().map(|s| s.seat).collect();
                distinct.sort_unstable();
                distinct.dedup();
                let mut next = 0u64;
                let ranges_ok = seats.iter().all(|s| {
                    let ok = u64::from(s.start) == next && s.len > 0 && s.chosen.is_none_or(|c| c < s.len);
                    next += u64::from(s.len);
                    ok
                });
                matches!(self.stmt(at), Some(StmtKind::Simultaneously(..)))
                    && !seats.is_empty()
                    && distinct.len() == seats.len()
                    && seats.iter().all(|s| self.seat(s.seat))
                    && ranges_ok
                    && next == options.len() as u64
                    && seats.iter().any(|s| s.chosen.is_none())
            }
            Pending::Over(_) | Pending::Failed(_) => options.is_empty(),
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
            Event::Revealed { cards } => cards.iter().all(|(c, p)| card(c) && pile(p)),
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

/// The frames are a stack the flow builds: the play block at the bottom, each frame above what
/// the frame under it starts, and a decision at the statement just run in the innermost block.
fn shape(game: &Game, frames: &[Frame], pending: &Pending) -> Result<(), Unfit> {
    let damaged = |what: &'static str| Err(Unfit::Damaged(what));
    let Some(first) = frames.first() else {
        return match pending {
            Pending::Over(_) | Pending::Failed(_) => Ok(()),
            _ => damaged("it has no frames, yet the match is not over"),
        };
    };
    if !matches!(first, Frame::Block { block, .. } if *block == game.play) {
        return damaged("it does not start in the play block");
    }
    for (i, pair) in frames.windows(2).enumerate() {
        let below = i.checked_sub(1).map(|j| &frames[j]);
        if !opens(game, below, &pair[0], &pair[1]) {
            return damaged("a frame is not what the frame under it starts");
        }
    }
    let at_top = |at: &Loc| match frames.last() {
        Some(Frame::Block { block, pc }) => *block == at.block && pc.checked_sub(1) == Some(at.index),
        _ => false,
    };
    match pending {
        Pending::Choice { at, .. } | Pending::Together { at, .. } if !at_top(at) => {
            damaged("the decision is not at the statement the flow stands at")
        }
        Pending::Over(_) => damaged("the match is over, yet the flow goes on"),
        _ => Ok(()),
    }
}

/// Whether the flow opens frame `child` over `parent` (itself over `below`, if anything).
fn opens(game: &Game, below: Option<&Frame>, parent: &Frame, child: &Frame) -> bool {
    let stmt = |at: &Loc| game.blocks.get(at.block as usize).and_then(|b| b.stmts.get(at.index as usize));
    let block_is = |b: BlockId| matches!(child, Frame::Block { block, .. } if *block == b);
    match parent {
        Frame::Block { block, pc: 0 } => match below {
            // The rest of a `simultaneously` starts with the `then` of the tier that allowed the choice.
            Some(Frame::Together { at, .. }) => match stmt(at).map(|s| &s.kind) {
                Some(StmtKind::Simultaneously(_, choose, rest)) if rest == block => then_of(choose, child),
                _ => false,
            },
            _ => false,
        },
        Frame::Block { block, pc } => {
            let at = Loc { block: *block, index: pc - 1 };
            stmt(&at).is_some_and(|s| starts(&s.kind, at, child))
        }
        Frame::Repeat { body, .. } => block_is(*body),
        Frame::While { at } => matches!(stmt(at).map(|s| &s.kind), Some(StmtKind::While(_, body)) if block_is(*body)),
        Frame::Until { at, started } => {
            *started && matches!(stmt(at).map(|s| &s.kind), Some(StmtKind::RepeatUntil(_, body)) if block_is(*body))
        }
        Frame::Phase { at, entered } => {
            *entered && matches!(stmt(at).map(|s| &s.kind), Some(StmtKind::Phase(_, body)) if block_is(*body))
        }
        Frame::For { at, level, next, .. } => {
            let Some(StmtKind::For(bindings, body)) = stmt(at).map(|s| &s.kind) else { return false };
            let inner = matches!(child, Frame::For { at: a, level: l, .. } if a == at && *l == level + 1);
            *next > 0 && if (*level as usize) + 1 < bindings.len() { inner } else { block_is(*body) }
        }
        Frame::Together { at, next, .. } => {
            *next > 0
                && matches!(stmt(at).map(|s| &s.kind), Some(StmtKind::Simultaneously(_, _, rest)) if block_is(*rest))
        }
    }
}

/// Whether the statement at `at`, just run, starts frame `child`.
fn starts(kind: &StmtKind, at: Loc, child: &Frame) -> bool {
    let block_is = |b: BlockId| matches!(child, Frame::Block { block, .. } if *block == b);
    match kind {
        StmtKind::If(_, then, otherwise) => block_is(*then) || otherwise.is_some_and(block_is),
        StmtKind::Call(body) => block_is(*body),
        StmtKind::For(..) => matches!(child, Frame::For { at: a, level: 0, .. } if *a == at),
        StmtKind::Repeat(_, body) => matches!(child, Frame::Repeat { body: b, .. } if b == body),
        StmtKind::RepeatUntil(..) => matches!(child, Frame::Until { at: a, .. } if *a == at),
        StmtKind::While(..) => matches!(child, Frame::While { at: a } if *a == at),
        StmtKind::Phase(..) => matches!(child, Frame::Phase { at: a, .. } if *a == at),
        StmtKind::Choose(choose) => then_of(choose, child),
        StmtKind::Simultaneously(..) => matches!(child, Frame::Together { at: a, .. } if *a == at),
        _ => false,
    }
}

/// Whether `child` is the `then` block of one of a decision's tiers.
fn then_of(choose: &Choose, child: &Frame) -> bool {
    choose.tiers.iter().filter_map(|t| t.then).any(|b| matches!(child, Frame::Block { block, .. } if *block == b))
}

impl State {
    /// The saved decision is the one the rules ask for in the saved position: the same seats,
    /// each with exactly the options the rules give it there.
    pub(super) fn asks_as_saved(&self) -> Result<(), Unfit> {
        let mut scratch = self.unobserved();
        let mut flow = scratch.flow();
        let prog = flow.prog;
        let same = match &self.pos.pending {
            Pending::Choice { at, seat } => match prog.op(at.block, at.index) {
                Some(Op::Choose(ask)) => flow.open_decision(ask).is_ok_and(|s| s == *seat),
                _ => false,
            },
            Pending::Together { at, seats } => match prog.op(at.block, at.index) {
                Some(Op::Together(bind, ask, _)) => flow.secret_decisions(bind, ask).is_ok_and(|fresh| {
                    fresh.len() == seats.len()
                        && fresh.iter().zip(seats).all(|(f, s)| (f.seat, f.start, f.len) == (s.seat, s.start, s.len))
                }),
                _ => false,
            },
            _ => true,
        };
        if !same || scratch.pos.options != self.pos.options {
            return Err(Unfit::Decision);
        }
        Ok(())
    }
}
