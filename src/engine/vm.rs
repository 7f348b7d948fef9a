//! The evaluator of lowered expressions during play. It reads the program and a position and
//! writes only local names; domains are gone through in place (a pile is read where it lies in
//! the position), so working out a value allocates nothing.
//!
//! Work is charged to one budget where it can grow without bound: a definition's call, each
//! element an aggregate takes, each number of a range. Definitions charge their depth against
//! the nesting limit, so that a long chain of calls (a runaway recursion) stops at a call with
//! a problem instead of overflowing the stack.

use super::compile::ordinal;
use super::mask::{CardSet, M};
use super::position::Board;
use super::program::*;
use super::tally::{Site, StepTally};
use crate::diagnostic::Code;
use crate::eval::{
    Halt, MAX_NESTING, Out, STEP_BUDGET, card_group, member_of, missing, not_constant, overflow, too_deep,
};
use crate::game::*;
use crate::vocab::{AggOp, BinOp};

/// An evaluation in progress: the program, the position it reads, the local names it writes,
/// and the work spent.
pub(crate) struct Vm<'a> {
    pub game: &'a Game,
    pub prog: &'a Program,
    pub board: Board<'a>,
    pub locals: &'a mut [Value],
    /// Steps of the budget spent (shared with the flow between two decisions).
    pub steps: usize,
    nesting: usize,
    /// Definitions already worked out during this evaluation, with their arguments: the position
    /// cannot change while a `Vm` reads it, so a definition called again gives the same value.
    memo: smallvec::SmallVec<[Memo; MEMOS_INLINE]>,
    /// The values of `memo` definitions worked out during this evaluation, for any arguments
    /// (at most [`KEPT`]); made at the first call of one.
    kept: Option<Box<Kept>>,
    /// Once the flow counts where its steps go (see [`super::tally`]): the tally, and the site
    /// the work now in hand counts to.
    tally: Option<(&'a mut StepTally, Site)>,
}

/// The values of `memo` definitions, by definition and arguments.
type Kept = std::collections::HashMap<(FnId, smallvec::SmallVec<[Value; 4]>), Value>;

/// How many values of `memo` definitions an evaluation keeps; past that, they are worked out
/// again.
const KEPT: usize = 65_536;

/// How many definitions' values an evaluation keeps.
const MEMOS: usize = 16;

/// How many of them it keeps without allocating (most evaluations call few definitions).
const MEMOS_INLINE: usize = 8;

/// A definition's value for some arguments.
struct Memo {
    f: FnId,
    args: [Value; 2],
    value: Value,
}

/// What to do with each element of a domain: go on (`true`) or stop.
pub(crate) type Visit<'v, 'a> = dyn FnMut(&mut Vm<'a>, Value) -> Out<bool> + 'v;

impl<'a> Vm<'a> {
    pub(crate) fn new(
        game: &'a Game,
        prog: &'a Program,
        board: Board<'a>,
        locals: &'a mut [Value],
        steps: usize,
    ) -> Self {
        Vm { game, prog, board, locals, steps, nesting: 0, memo: smallvec::SmallVec::new(), kept: None, tally: None }
    }

    /// Counts the work from here on to `site` in `tally` (a definition's to itself), while the
    /// flow counts where its steps go; `None`: counts nothing.
    pub(crate) fn count_to(&mut self, tally: Option<(&'a mut StepTally, Site)>) {
        self.tally = tally;
    }

    pub(crate) fn span(&self, at: At) -> crate::vocab::Span {
        self.prog.span(at)
    }

    /// Takes `n` steps of the budget, or stops at `at` when it is spent.
    pub(crate) fn charge(&mut self, n: usize, at: At) -> Out<()> {
        self.steps = self.steps.saturating_add(n);
        if let Some((tally, site)) = &mut self.tally {
            tally.add(*site, n);
        }
        if self.steps > STEP_BUDGET {
            let halt = Halt::new(
                Code::EndlessFlow,
                self.span(at),
                "this runs too long",
                "still running here",
                "a million steps were not enough: check the loops, ranges, aggregates and definitions here",
            );
            return Err(match &self.tally {
                Some((tally, _)) => tally.blame(self.game, self.prog, halt, super::tally::DECISION_HELP),
                None => halt,
            });
        }
        Ok(())
    }

    /// Sets a decision's names for one of its options (see [`Ask::names`]).
    pub(crate) fn set_names(&mut self, ask: &Ask, value: Value) {
        for (slot, v) in ask.names(value) {
            self.set_local(slot, v);
        }
    }

    pub(crate) fn set_local(&mut self, slot: Slot, v: Value) {
        if let Some(x) = self.locals.get_mut(slot as usize) {
            *x = v;
        }
    }

    #[inline]
    pub(crate) fn local(&self, slot: Slot) -> Value {
        self.locals.get(slot as usize).copied().unwrap_or(Value::None)
    }

    #[inline]
    pub(crate) fn truth(&mut self, x: &X) -> Out<bool> {
        match &x.code {
            Compiled::Bool(f) => f(self),
            _ => match self.value(x)? {
                Value::Bool(b) => Ok(b),
                _ => Err(missing(self.span(x.at))),
            },
        }
    }

    #[inline]
    pub(crate) fn int(&mut self, x: &X) -> Out<i64> {
        match &x.code {
            Compiled::Int(f) => f(self),
            _ => match self.value(x)? {
                Value::Int(n) => Ok(n),
                _ => Err(missing(self.span(x.at))),
            },
        }
    }

    pub(crate) fn seat(&mut self, x: &X) -> Out<SeatId> {
        match self.value(x)? {
            Value::Seat(s) if (s as usize) < self.game.seats.len() => Ok(s),
            _ => Err(missing(self.span(x.at))),
        }
    }

    /// The index of a per-seat or per-side value.
    pub(crate) fn index(&mut self, x: &X) -> Out<usize> {
        match self.value(x)? {
            Value::Seat(s) | Value::Side(s) => Ok(s as usize),
            _ => Err(missing(self.span(x.at))),
        }
    }

    /// Whether the element bound to a condition's slot meets it.
    pub(crate) fn keep(&mut self, pred: &Pred) -> Out<bool> {
        self.truth(pred.each())
    }

    #[inline]
    pub(crate) fn var_at(&self, base: u32, index: usize) -> Value {
        self.board.vars.get(base as usize + index).copied().unwrap_or(Value::None)
    }

    /// The value of an expression.
    #[inline]
    pub(crate) fn value(&mut self, x: &X) -> Out<Value> {
        match &x.code {
            Compiled::Val(f) => f(self),
            Compiled::Bool(f) => Ok(Value::Bool(f(self)?)),
            Compiled::Int(f) => Ok(Value::Int(f(self)?)),
            Compiled::Text(_) => Err(not_constant(self.span(x.at))),
        }
    }

    pub(crate) fn make_enum(&self, e: EnumId, m: u16, p: Value, at: At) -> Out<Value> {
        let values = &self.game.enums[e as usize].values;
        let i = values.iter().position(|v| v.member == m && v.payload == p);
        Ok(Value::Enum(i.ok_or_else(|| missing(self.span(at)))? as u16))
    }

    /// Whether a domain holds a value.
    pub(crate) fn contains(&mut self, d: &D, v: Value) -> Out<bool> {
        let mut found = false;
        self.for_each(d, &mut |_, item| {
            found = item == v;
            Ok(!found)
        })?;
        Ok(found)
    }

    /// How many elements a domain has.
    pub(crate) fn count(&mut self, d: &D) -> Out<i64> {
        if let Some(piles) = self.piles_of(d)? {
            return Ok(self.board.run(piles).len() as i64);
        }
        let mut n = 0i64;
        self.for_each(d, &mut |_, _| {
            n += 1;
            Ok(true)
        })?;
        Ok(n)
    }

    /// The first (or last) element of a domain, or `none`.
    pub(crate) fn end_of(&mut self, d: &D, first: bool) -> Out<Value> {
        let mut end = Value::None;
        self.for_each(d, &mut |_, item| {
            end = item;
            Ok(!first)
        })?;
        Ok(end)
    }

    /// A list stored as a set of enumeration values, seats or cards.
    pub(crate) fn set_of(&mut self, xs: &[X], at: At) -> Out<Value> {
        let mut items = smallvec::SmallVec::<[Value; 8]>::new();
        for v in xs {
            items.push(self.value(v)?);
        }
        self.set_of_values(&items, at)
    }

    /// The elements of a domain as a set: of seats or enumeration values, or of cards (`cards`:
    /// the domain holds cards, so that it is a set of cards even when it is empty).
    pub(crate) fn set_of_domain(&mut self, d: &D, cards: bool) -> Out<Value> {
        let mut items = Vec::new();
        self.items(d, &mut items)?;
        if cards && items.is_empty() {
            return Ok(Value::Group(CardGroup::EMPTY));
        }
        self.set_of_values(&items, d.at)
    }

    /// Values of one kind as their set, or the problem (at `at`) of values that make none.
    fn set_of_values(&self, items: &[Value], at: At) -> Out<Value> {
        if let Some(cards) =
            items.iter().map(|v| if let Value::Card(c) = v { Some(*c) } else { None }).collect::<Option<Vec<_>>>()
            && !cards.is_empty()
        {
            return card_group(&cards, self.span(at));
        }
        let mut bits = 0u64;
        for item in items {
            bits |= match item {
                Value::Enum(i) if *i < 64 => 1 << i,
                Value::Seat(s) if *s < 64 => 1 << s,
                _ => return Err(missing(self.span(at))),
            };
        }
        Ok(Value::Set(bits))
    }

    pub(crate) fn around(&self, s: SeatId, k: i64) -> Value {
        let n = (self.game.seats.len() as i64).max(1);
        Value::Seat((s as i64 + k.rem_euclid(n)).rem_euclid(n) as u8)
    }

    #[inline]
    pub(crate) fn attr(&self, card: CardId, attr: AttrId, at: At) -> Out<Value> {
        let row = self.game.cards.get(card as usize);
        row.and_then(|c| c.get(attr as usize)).copied().ok_or_else(|| missing(self.span(at)))
    }

    pub(crate) fn enum_value(&self, e: EnumId, v: u16, at: At) -> Out<&'a EnumValue> {
        let game: &'a Game = self.game;
        game.enums.get(e as usize).and_then(|x| x.values.get(v as usize)).ok_or_else(|| missing(self.span(at)))
    }

    /// A definition called with its arguments' values (worked out once per evaluation for
    /// each set of at most two arguments, or of any for a `memo` definition).
    pub(crate) fn call(&mut self, f: FnId, args: &[Value], at: At) -> Out<Value> {
        if self.prog.functions[f as usize].memo {
            return self.call_kept(f, args, at);
        }
        let key = match args {
            [] => Some([Value::None; 2]),
            [a] => Some([*a, Value::None]),
            [a, b] => Some([*a, *b]),
            _ => None,
        };
        if let Some(key) = key
            && let Some(m) = self.memo.iter().find(|m| m.f == f && m.args == key)
        {
            return Ok(m.value);
        }
        let value = self.work_out(f, args, at)?;
        if let Some(args) = key
            && self.memo.len() < MEMOS
        {
            self.memo.push(Memo { f, args, value });
        }
        Ok(value)
    }

    /// A call of a `memo` definition: its kept value for these arguments, or the value worked
    /// out and kept.
    fn call_kept(&mut self, f: FnId, args: &[Value], at: At) -> Out<Value> {
        let key = (f, args.iter().copied().collect());
        if let Some(value) = self.kept.as_ref().and_then(|k| k.get(&key)) {
            return Ok(*value);
        }
        let value = self.work_out(f, args, at)?;
        let kept = self.kept.get_or_insert_with(Box::default);
        if kept.len() < KEPT {
            kept.insert(key, value);
        }
        Ok(value)
    }

    fn work_out(&mut self, f: FnId, args: &[Value], at: At) -> Out<Value> {
        let prog: &'a Program = self.prog;
        let func = &prog.functions[f as usize];
        // Its work counts to itself (a problem that stops it leaves the count where it is).
        let caller = self.tally.as_mut().map(|(_, site)| std::mem::replace(site, Site::Def(f)));
        self.charge(1, func.body.at)?;
        if self.nesting + func.depth >= MAX_NESTING {
            return Err(too_deep(self.span(at)));
        }
        // A recursive definition's names hold the values of the call this one is inside of.
        let kept = func.kept.start as usize..func.kept.end as usize;
        let outer: smallvec::SmallVec<[Value; 8]> = self.locals.get(kept.clone()).unwrap_or_default().into();
        for (slot, v) in func.params.iter().zip(args) {
            self.set_local(*slot, *v);
        }
        self.nesting += func.depth;
        let value = self.value(&func.body);
        self.nesting -= func.depth;
        if let Some(names) = self.locals.get_mut(kept) {
            names.copy_from_slice(&outer);
        }
        if let (Some((_, site)), Some(caller)) = (&mut self.tally, caller) {
            *site = caller;
        }
        value
    }

    /// The value of an aggregate.
    pub(crate) fn aggregate(&mut self, agg: &Agg, at: At) -> Out<Value> {
        let mask = match &agg.filter {
            None => Some(None),
            Some(f) => f.mask().map(Some),
        };
        if let Some(mask) = mask
            && let Some(piles) = self.piles_of(&agg.domain)?
        {
            return self.pile_aggregate(agg, mask, piles, at);
        }
        let mut tally = Tally::new(agg.op, self.span(at));
        let n = self.game.seats.len();
        match &agg.domain.kind {
            DKind::Seats => self.tally_all(agg, &mut tally, (0..n).map(|s| Value::Seat(s as u8)), at)?,
            DKind::Sides => {
                let sides = self.game.sides.len();
                self.tally_all(agg, &mut tally, (0..sides).map(|s| Value::Side(s as u8)), at)?
            }
            DKind::Values(count) => self.tally_all(agg, &mut tally, (0..*count).map(Value::Enum), at)?,
            _ => {
                self.for_each(&agg.domain, &mut |vm, item| vm.tally(agg, &mut tally, item, at))?;
            }
        }
        tally.result()
    }

    /// Tallies elements until the aggregate is decided.
    fn tally_all(&mut self, agg: &Agg, tally: &mut Tally, items: impl Iterator<Item = Value>, at: At) -> Out<()> {
        for item in items {
            if !self.tally(agg, tally, item, at)? {
                break;
            }
        }
        Ok(())
    }

    /// One element of an aggregate's domain, filtered and tallied; false once the aggregate is
    /// decided (`exists` found one, `every` found one that fails).
    fn tally(&mut self, agg: &Agg, tally: &mut Tally, item: Value, at: At) -> Out<bool> {
        self.charge(1, at)?;
        self.set_local(agg.slot, item);
        if let Some(f) = &agg.filter
            && !self.keep(f)?
        {
            return Ok(tally.reject());
        }
        if !tally.count(item) {
            return Ok(false);
        }
        let Some(body) = &agg.body else { return Ok(true) };
        let value = self.value(body)?;
        match value {
            Value::Int(n) => tally.add(item, value, n)?,
            Value::Enum(v) => tally.add(item, value, v as i64)?,
            _ => return Err(missing(self.span(body.at))),
        }
        Ok(true)
    }

    /// An aggregate over whole piles, with no filter or one that has a mask: the cards it takes
    /// are found at once, and only those are gone through (in pile order) when a value is
    /// needed of each, looked up where it depends only on the card.
    fn pile_aggregate(&mut self, agg: &Agg, mask: Option<&M>, piles: std::ops::Range<usize>, at: At) -> Out<Value> {
        let cards = self.board.run(piles);
        let size = cards.len();
        self.charge(size, at)?;
        let keep = match mask {
            Some(m) => {
                let cand = cards.iter().fold(CardSet::EMPTY, |s, c| s.with(*c));
                let keep = self.mask(m, cand)?;
                match agg.op {
                    AggOp::Count => return Ok(Value::Int(keep.len() as i64)),
                    AggOp::First => {
                        let found = cards.iter().find(|c| keep.has(**c));
                        return Ok(found.map_or(Value::None, |c| Value::Card(*c)));
                    }
                    AggOp::Exists => return Ok(Value::Bool(!keep.is_empty())),
                    AggOp::Every => return Ok(Value::Bool(keep == cand)),
                    _ => Some(keep),
                }
            }
            None => match agg.op {
                AggOp::Count => return Ok(Value::Int(size as i64)),
                AggOp::First => return Ok(cards.first().map_or(Value::None, |c| Value::Card(*c))),
                AggOp::Exists => return Ok(Value::Bool(size > 0)),
                AggOp::Every => return Ok(Value::Bool(true)),
                _ => None,
            },
        };
        let mut tally = Tally::new(agg.op, self.span(at));
        let taken = cards.iter().filter(|c| keep.is_none_or(|k| k.has(**c)));
        for &card in taken {
            let item = Value::Card(card);
            let (value, key) = match &agg.keys {
                Some(keys) => keys[card as usize],
                None => {
                    self.set_local(agg.slot, item);
                    let Some(body) = &agg.body else { continue };
                    let value = self.value(body)?;
                    match value {
                        Value::Int(n) => (value, n),
                        Value::Enum(v) => (value, v as i64),
                        _ => return Err(missing(self.span(body.at))),
                    }
                }
            };
            tally.add(item, value, key)?;
        }
        tally.result()
    }

    /// The piles a domain is the whole of, if it is one pile or a zone's piles.
    pub(crate) fn piles_of(&mut self, d: &D) -> Out<Option<std::ops::Range<usize>>> {
        Ok(match &d.kind {
            DKind::Pile(p) => Some(match self.pile(p)? {
                Some(pile) => pile..pile + 1,
                None => 0..0,
            }),
            DKind::Piles(base, count) => Some(*base as usize..(*base + *count) as usize),
            _ => None,
        })
    }

    /// Which of the candidate cards meet a card condition.
    pub(crate) fn mask(&mut self, m: &M, cand: CardSet) -> Out<CardSet> {
        if cand.is_empty() {
            return Ok(cand);
        }
        let tables = &self.prog.tables;
        Ok(match m {
            M::Set(set) => cand.and(*set),
            M::Scalar(x) => {
                if self.truth(x)? {
                    cand
                } else {
                    CardSet::EMPTY
                }
            }
            M::Eq { table, rhs, negate } => {
                let v = self.value(rhs)?;
                let equal = tables[*table as usize].equal(v);
                if *negate { cand.minus(equal) } else { cand.and(equal) }
            }
            M::In { table, set, negate } => {
                let set = self.value(set)?;
                let found = tables[*table as usize]
                    .distinct
                    .iter()
                    .filter(|(v, _)| member_of(*v, set))
                    .fold(CardSet::EMPTY, |s, (_, cards)| s.or(*cards));
                if *negate { cand.minus(found) } else { cand.and(found) }
            }
            M::Order { table, op, rhs, flip, at } => {
                let v = self.value(rhs)?;
                let mut out = CardSet::EMPTY;
                for (value, cards) in &tables[*table as usize].distinct {
                    if cards.and(cand).is_empty() {
                        continue;
                    }
                    let (Some(a), Some(b)) = (ordinal(*value), ordinal(v)) else {
                        return Err(missing(self.span(*at)));
                    };
                    let (a, b) = if *flip { (b, a) } else { (a, b) };
                    let holds = match op {
                        BinOp::Lt => a < b,
                        BinOp::Le => a <= b,
                        BinOp::Gt => a > b,
                        _ => a >= b,
                    };
                    if holds {
                        out = out.or(*cards);
                    }
                }
                cand.and(out)
            }
            M::And(a, b) => {
                let first = self.mask(a, cand)?;
                self.mask(b, first)?
            }
            M::Or(a, b) => {
                let first = self.mask(a, cand)?;
                first.or(self.mask(b, cand.minus(first))?)
            }
            M::Not(a) => cand.minus(self.mask(a, cand)?),
            M::If(c, t, o) => {
                if self.truth(c)? {
                    self.mask(t, cand)?
                } else {
                    self.mask(o, cand)?
                }
            }
            M::Bind(slot, x, inner) => {
                let v = self.value(x)?;
                self.set_local(*slot, v);
                self.mask(inner, cand)?
            }
            M::Each(slot, x) => {
                let mut out = CardSet::EMPTY;
                for card in cand.cards() {
                    self.set_local(*slot, Value::Card(card));
                    if self.truth(x)? {
                        out = out.with(card);
                    }
                }
                out
            }
        })
    }

    /// The pile an expression names, or `None` for an owner the zone does not have.
    pub(crate) fn pile(&mut self, p: &P) -> Out<Option<usize>> {
        match &p.kind {
            PKind::Fixed(pile) => Ok(Some(*pile as usize)),
            PKind::Owned(base, count, ix) => {
                let i = self.index(ix)?;
                Ok((i < *count as usize).then_some(*base as usize + i))
            }
            PKind::Invalid => Err(missing(self.span(p.at))),
        }
    }

    /// Goes through a domain in order, handing each element to `visit` until it says stop.
    /// Says whether it went through to the end.
    pub(crate) fn for_each(&mut self, d: &D, visit: &mut Visit<'_, 'a>) -> Out<bool> {
        let n = self.game.seats.len();
        match &d.kind {
            DKind::Seats => each(self, (0..n).map(|s| Value::Seat(s as u8)), visit),
            DKind::Sides => each(self, (0..self.game.sides.len()).map(|s| Value::Side(s as u8)), visit),
            DKind::Values(count) => each(self, (0..*count).map(Value::Enum), visit),
            DKind::List(xs) => {
                for x in xs {
                    let v = self.value(x)?;
                    if !visit(self, v)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            DKind::Range(lo, hi) => {
                let (lo, hi) = (self.int(lo)?, self.int(hi)?);
                let len = hi.saturating_sub(lo).saturating_add(1).max(0);
                self.charge(usize::try_from(len).unwrap_or(usize::MAX), d.at)?;
                each(self, (lo..=hi).map(Value::Int), visit)
            }
            DKind::Others(seat) => {
                let s = self.seat(seat)? as usize;
                each(self, (1..n).map(|k| Value::Seat(((s + k) % n) as u8)), visit)
            }
            DKind::Members(side) => match self.value(side)? {
                Value::Side(t) => {
                    let game: &'a Game = self.game;
                    let seats = game.sides.get(t as usize).map_or(&[][..], |x| &x.seats[..]);
                    each(self, seats.iter().map(|s| Value::Seat(*s)), visit)
                }
                _ => Err(missing(self.span(d.at))),
            },
            DKind::Pile(p) => match self.pile(p)? {
                Some(pile) => self.each_card(pile, visit),
                None => Ok(true),
            },
            DKind::Piles(base, count) => {
                for pile in *base..*base + *count {
                    if !self.each_card(pile as usize, visit)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            DKind::Filter(inner, slot, pred) => {
                if let Some(m) = pred.mask()
                    && let Some(piles) = self.piles_of(inner)?
                {
                    let cards = self.board.run(piles);
                    let cand = cards.iter().fold(CardSet::EMPTY, |s, c| s.with(*c));
                    let keep = self.mask(m, cand)?;
                    for &card in cards.iter().filter(|c| keep.has(**c)) {
                        self.set_local(*slot, Value::Card(card));
                        if !visit(self, Value::Card(card))? {
                            return Ok(false);
                        }
                    }
                    return Ok(true);
                }
                self.for_each(inner, &mut |vm, item| {
                    vm.set_local(*slot, item);
                    if vm.keep(pred)? { visit(vm, item) } else { Ok(true) }
                })
            }
            DKind::SetMembers(set, seats) => match self.value(set)? {
                Value::Set(bits) => {
                    let members = (0..64u16).filter(|i| bits & (1u64 << i) != 0);
                    each(self, members.map(|i| if *seats { Value::Seat(i as u8) } else { Value::Enum(i) }), visit)
                }
                _ => Err(missing(self.span(d.at))),
            },
            DKind::End(p, n, last) => {
                let Some(pile) = self.pile(p)? else { return Ok(true) };
                let n = usize::try_from(self.int(n)?.max(0)).unwrap_or(usize::MAX);
                let board = self.board;
                let cards = board.pile(pile);
                let n = n.min(cards.len());
                let end = if *last { &cards[cards.len() - n..] } else { &cards[..n] };
                each(self, end.iter().map(|c| Value::Card(*c)), visit)
            }
            DKind::One(x) => match self.value(x)? {
                Value::Card(c) => visit(self, Value::Card(c)),
                Value::Group(g) => each(self, g.cards().map(Value::Card), visit),
                Value::None => Ok(true),
                _ => Err(missing(self.span(d.at))),
            },
        }
    }

    /// Goes through the cards of one pile, bottom first, where they lie in the position.
    fn each_card(&mut self, pile: usize, visit: &mut Visit<'_, 'a>) -> Out<bool> {
        let board = self.board;
        for &card in board.pile(pile) {
            if !visit(self, Value::Card(card))? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The elements of a domain, in order, added to `out`.
    pub(crate) fn items(&mut self, d: &D, out: &mut Vec<Value>) -> Out<()> {
        self.for_each(d, &mut |_, item| {
            out.push(item);
            Ok(true)
        })?;
        Ok(())
    }

    /// Works out a template's values without writing the text (what can stop a match is there).
    /// How long a template's text is, worked out without writing it (what can stop a match
    /// is there, and so is the length the narration limits count).
    pub(crate) fn text_len(&mut self, x: &X) -> Out<usize> {
        let Compiled::Text(pieces) = &x.code else { return Err(not_constant(self.span(x.at))) };
        let mut len = 0;
        for piece in pieces {
            len += match piece {
                Piece::Text(t) => t.len(),
                Piece::Value(v, Type::Text) => self.text_len(v)?,
                Piece::Value(v, ty) => match self.value(v)? {
                    Value::None => 0,
                    value => self.game.names().shown_len(value, ty),
                },
                Piece::Plural(..) => self.piece(piece)?.len(),
                Piece::Pick(which, options) => match self.picked(which, options)? {
                    Some(text) => self.text_len(text)?,
                    None => 0,
                },
            };
        }
        Ok(len)
    }

    /// A template as text.
    pub(crate) fn text(&mut self, x: &X) -> Out<String> {
        let Compiled::Text(pieces) = &x.code else { return Err(not_constant(self.span(x.at))) };
        let mut out = String::new();
        for piece in pieces {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Value(v, Type::Text) => out.push_str(&self.text(v)?),
                Piece::Value(v, ty) => {
                    let value = self.value(v)?;
                    if value != Value::None {
                        out.push_str(&self.game.names().show(value, ty));
                    }
                }
                Piece::Plural(..) => out.push_str(&self.piece(piece)?),
                Piece::Pick(which, options) => {
                    if let Some(text) = self.picked(which, options)? {
                        out.push_str(&self.text(text)?);
                    }
                }
            }
        }
        Ok(out)
    }

    /// The text a choice between texts takes.
    fn picked<'x>(&mut self, which: &X, options: &'x [X]) -> Out<Option<&'x X>> {
        Ok(match self.value(which)? {
            Value::Int(k) => usize::try_from(k).ok().and_then(|k| options.get(k)),
            _ => None,
        })
    }

    /// A plural's text: the number and its word.
    fn piece(&mut self, piece: &Piece) -> Out<String> {
        let Piece::Plural(v, one, many) = piece else { return Ok(String::new()) };
        match self.value(v)? {
            Value::Int(n) => Ok(plural(n, one, many)),
            _ => Ok(String::new()),
        }
    }
}

/// What an aggregate has gathered so far.
struct Tally {
    op: AggOp,
    count: i64,
    total: i64,
    best: Option<(Value, i64)>,
    /// Set once the aggregate is decided early (`exists`, `every`).
    decided: Option<bool>,
    span: crate::vocab::Span,
}

impl Tally {
    fn new(op: AggOp, span: crate::vocab::Span) -> Tally {
        Tally { op, count: 0, total: 0, best: None, decided: None, span }
    }

    /// An element the filter left out; false once that decides the aggregate.
    fn reject(&mut self) -> bool {
        if self.op == AggOp::Every {
            self.decided = Some(false);
        }
        self.decided.is_none()
    }

    /// An element the filter kept, counted; false once that decides the aggregate (`exists`
    /// found one, `first` found it).
    fn count(&mut self, item: Value) -> bool {
        self.count += 1;
        match self.op {
            AggOp::Exists => self.decided = Some(true),
            AggOp::First => {
                self.best = Some((item, 0));
                return false;
            }
            _ => {}
        }
        self.decided.is_none()
    }

    /// The body's value (and its key) for an element kept.
    fn add(&mut self, item: Value, value: Value, key: i64) -> Out<()> {
        if self.op == AggOp::Sum {
            self.total = self.total.checked_add(key).ok_or_else(|| overflow(self.span))?;
            return Ok(());
        }
        let better = match (self.op, self.best) {
            (_, None) => true,
            (AggOp::Max | AggOp::Highest, Some((_, k))) => key > k,
            (_, Some((_, k))) => key < k,
        };
        if better {
            let kept = if matches!(self.op, AggOp::Highest | AggOp::Lowest) { item } else { value };
            self.best = Some((kept, key));
        }
        Ok(())
    }

    fn result(self) -> Out<Value> {
        if let Some(b) = self.decided {
            return Ok(Value::Bool(b));
        }
        Ok(match self.op {
            AggOp::Count => Value::Int(self.count),
            AggOp::Exists => Value::Bool(false),
            AggOp::Every => Value::Bool(true),
            AggOp::Sum => Value::Int(self.total),
            AggOp::First => self.best.map_or(Value::None, |(v, _)| v),
            AggOp::Cards => return Err(missing(self.span)),
            _ => self.best.map(|(v, _)| v).ok_or_else(|| nothing_to_take(self.span))?,
        })
    }
}

/// The problem of `highest` or `lowest` over nothing.
fn nothing_to_take(span: crate::vocab::Span) -> Box<Halt> {
    Halt::new(
        Code::NoAction,
        span,
        "nothing to take the best of",
        "the domain is empty here",
        "make sure the `where` condition leaves something, or test with `exists` first",
    )
}

/// The cards of a list of values, if every value is a card.
pub(crate) fn card_set(values: &[Value]) -> Option<CardSet> {
    values.iter().try_fold(CardSet::EMPTY, |s, v| match v {
        Value::Card(c) => Some(s.with(*c)),
        _ => None,
    })
}

/// Hands each value to `visit` until it says stop.
fn each<'a>(vm: &mut Vm<'a>, values: impl Iterator<Item = Value>, visit: &mut Visit<'_, 'a>) -> Out<bool> {
    for v in values {
        if !visit(vm, v)? {
            return Ok(false);
        }
    }
    Ok(true)
}
