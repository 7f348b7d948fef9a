//! The evaluator of constants: compiled expressions worked out before play, when there is no
//! position yet (the pack, derived attributes and card names for the checker, the per-card tables
//! of card conditions when the engine lowers a game). Only local names have values; an
//! expression that reads a variable, a pile or who holds a card stops with a [`Halt`] that
//! points at it.

use super::{Halt, MAX_NESTING, Out, STEP_BUDGET, arith, member_of, missing, not_constant, overflow, too_deep};
use crate::diagnostic::Code;
use crate::game::*;
use crate::vocab::{AggOp, BinOp, Span};

/// The elements of a domain, in order.
pub(crate) type Items = Vec<Value>;

/// The fixed parts of a game that expressions read: seats, enumerations, definitions, cards.
#[derive(Clone, Copy)]
pub(crate) struct Tables<'a> {
    pub seats: &'a [SeatInfo],
    pub sides: &'a [SideInfo],
    pub enums: &'a [EnumInfo],
    pub functions: &'a [FnInfo],
    pub cards: &'a [Vec<Value>],
    pub card_names: &'a [String],
}

impl<'a> Tables<'a> {
    pub(crate) fn of(game: &'a Game) -> Self {
        Tables {
            seats: &game.seats,
            sides: &game.sides,
            enums: &game.enums,
            functions: &game.functions,
            cards: &game.cards,
            card_names: &game.card_names,
        }
    }

    pub(crate) fn names(&self) -> Names<'a> {
        Names { seats: self.seats, sides: self.sides, enums: self.enums, cards: self.card_names }
    }
}

/// Evaluates expressions against the fixed tables of a game and its local names.
pub(crate) struct Eval<'a> {
    pub tables: Tables<'a>,
    locals: Vec<Value>,
    steps: usize,
    nesting: usize,
}

impl<'a> Eval<'a> {
    /// An evaluator with `slots` local names, each `none`.
    pub(crate) fn new(tables: Tables<'a>, slots: usize) -> Self {
        Eval { tables, locals: vec![Value::None; slots], steps: 0, nesting: 0 }
    }

    /// The value of a local name.
    pub(crate) fn local(&self, slot: Slot) -> Value {
        self.locals.get(slot as usize).copied().unwrap_or(Value::None)
    }

    /// Gives a local name a value.
    pub(crate) fn set_local(&mut self, slot: Slot, v: Value) {
        if let Some(x) = self.locals.get_mut(slot as usize) {
            *x = v;
        }
    }

    /// Takes `n` steps of the budget, or stops at `span` when it is spent.
    pub(crate) fn charge(&mut self, n: usize, span: Span) -> Out<()> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > STEP_BUDGET {
            return Err(Halt::new(
                Code::EndlessFlow,
                span,
                "this runs too long",
                "still running here",
                "a million steps were not enough: check the loops, ranges, aggregates and definitions here",
            ));
        }
        Ok(())
    }

    pub(crate) fn truth(&mut self, e: &Expr) -> Out<bool> {
        match self.value(e)? {
            Value::Bool(b) => Ok(b),
            _ => Err(missing(e.span)),
        }
    }

    pub(crate) fn int(&mut self, e: &Expr) -> Out<i64> {
        match self.value(e)? {
            Value::Int(n) => Ok(n),
            _ => Err(missing(e.span)),
        }
    }

    pub(crate) fn seat(&mut self, e: &Expr) -> Out<SeatId> {
        match self.value(e)? {
            Value::Seat(s) if (s as usize) < self.tables.seats.len() => Ok(s),
            _ => Err(missing(e.span)),
        }
    }

    /// The index of a per-seat or per-side value.
    pub(crate) fn index(&mut self, e: &Expr) -> Out<usize> {
        match self.value(e)? {
            Value::Seat(s) => Ok(s as usize),
            Value::Side(s) => Ok(s as usize),
            _ => Err(missing(e.span)),
        }
    }

    /// The value of an expression. Work is charged to the budget where it can grow without
    /// bound: a definition's call, each element a domain yields, each round of an aggregate.
    /// Between them an expression is bounded by its size (the syntax limits it).
    pub(crate) fn value(&mut self, e: &Expr) -> Out<Value> {
        if self.nesting >= MAX_NESTING {
            return Err(too_deep(e.span));
        }
        self.nesting += 1;
        let value = self.compute(e);
        self.nesting -= 1;
        value
    }

    fn compute(&mut self, e: &Expr) -> Out<Value> {
        let span = e.span;
        Ok(match &e.kind {
            ExprKind::Const(v) => *v,
            ExprKind::Local(s) => self.local(*s),
            ExprKind::Var(_) => return Err(not_constant(span)),
            ExprKind::VarAt(_, ix) => {
                self.index(ix)?;
                return Err(not_constant(span));
            }
            ExprKind::LocalAttr(slot, a) => match self.local(*slot) {
                Value::Card(c) => self.attr(c, *a, span)?,
                _ => Value::None,
            },
            ExprKind::Attr(x, a) => match self.value(x)? {
                Value::Card(c) => self.attr(c, *a, span)?,
                _ => Value::None,
            },
            ExprKind::Not(x) => Value::Bool(!self.truth(x)?),
            ExprKind::Neg(x) => Value::Int(self.int(x)?.checked_neg().ok_or_else(|| overflow(span))?),
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r, span)?,
            ExprKind::If(c, t, o) => {
                if self.truth(c)? {
                    self.value(t)?
                } else {
                    self.value(o)?
                }
            }
            ExprKind::Case(s, arms, otherwise) => {
                let taken = self.case(s, arms, otherwise)?;
                self.value(taken)?
            }
            ExprKind::Is(x, e, m) => match self.value(x)? {
                Value::Enum(v) => Value::Bool(self.enum_value(*e, v, span)?.member == *m),
                _ => Value::Bool(false),
            },
            ExprKind::Payload(x, e) => match self.value(x)? {
                Value::Enum(v) => self.enum_value(*e, v, span)?.payload,
                _ => Value::None,
            },
            ExprKind::MakeEnum(e, m, p) => {
                let p = self.value(p)?;
                let values = &self.tables.enums[*e as usize].values;
                let i = values.iter().position(|v| v.member == *m && v.payload == p).ok_or_else(|| missing(span))?;
                Value::Enum(i as u16)
            }
            ExprKind::Builtin(b, args) => self.builtin(*b, args, span)?,
            ExprKind::Call(f, args) => self.call(*f, args, span)?,
            ExprKind::Aggregate(agg) => self.aggregate(agg, span)?,
            // A list is stored only as a set (`spent = []`).
            ExprKind::List(xs) => {
                let mut bits = 0u64;
                for x in xs {
                    bits |= match self.value(x)? {
                        Value::Enum(i) if i < 64 => 1 << i,
                        Value::Seat(s) if s < 64 => 1 << s,
                        _ => return Err(missing(x.span)),
                    };
                }
                Value::Set(bits)
            }
            _ => return Err(not_constant(span)),
        })
    }

    fn attr(&self, card: CardId, attr: AttrId, span: Span) -> Out<Value> {
        self.tables.cards.get(card as usize).and_then(|c| c.get(attr as usize)).copied().ok_or_else(|| missing(span))
    }

    fn enum_value(&self, e: EnumId, v: u16, span: Span) -> Out<&'a EnumValue> {
        self.tables.enums.get(e as usize).and_then(|x| x.values.get(v as usize)).ok_or_else(|| missing(span))
    }

    fn binary(&mut self, op: BinOp, l: &Expr, r: &Expr, span: Span) -> Out<Value> {
        match op {
            BinOp::And => return Ok(Value::Bool(self.truth(l)? && self.truth(r)?)),
            BinOp::Or => return Ok(Value::Bool(self.truth(l)? || self.truth(r)?)),
            BinOp::In | BinOp::NotIn => {
                let x = self.value(l)?;
                let found = if r.is_collection() { self.items(r)?.contains(&x) } else { member_of(x, self.value(r)?) };
                return Ok(Value::Bool(found == (op == BinOp::In)));
            }
            BinOp::Range => return Err(not_constant(span)),
            _ => {}
        }
        let (a, b) = (self.value(l)?, self.value(r)?);
        let order = |x: Value| match x {
            Value::Int(n) => Some(n),
            Value::Enum(v) => Some(v as i64),
            _ => None,
        };
        Ok(match op {
            BinOp::Eq => Value::Bool(a == b),
            BinOp::Ne => Value::Bool(a != b),
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let (Some(x), Some(y)) = (order(a), order(b)) else { return Err(missing(span)) };
                Value::Bool(match op {
                    BinOp::Lt => x < y,
                    BinOp::Le => x <= y,
                    BinOp::Gt => x > y,
                    _ => x >= y,
                })
            }
            BinOp::Union | BinOp::Without => super::set_op(op, a, b, span)?,
            _ => {
                let (Value::Int(x), Value::Int(y)) = (a, b) else { return Err(missing(span)) };
                Value::Int(arith(op, x, y, span)?)
            }
        })
    }

    /// The value of the arm a `case` takes.
    fn case<'e>(&mut self, s: &Expr, arms: &'e [(Vec<Expr>, Expr)], otherwise: &'e Expr) -> Out<&'e Expr> {
        let v = self.value(s)?;
        for (patterns, value) in arms {
            for p in patterns {
                if self.value(p)? == v {
                    return Ok(value);
                }
            }
        }
        Ok(otherwise)
    }

    fn builtin(&mut self, b: Builtin, args: &[Expr], span: Span) -> Out<Value> {
        let arg = |i: usize| args.get(i).ok_or_else(|| missing(span));
        let n = self.tables.seats.len() as i64;
        let around = |s: SeatId, k: i64| Value::Seat((s as i64 + k.rem_euclid(n.max(1))).rem_euclid(n.max(1)) as u8);
        Ok(match b {
            Builtin::Left => around(self.seat(arg(0)?)?, 1),
            Builtin::Right => around(self.seat(arg(0)?)?, -1),
            Builtin::Opposite => around(self.seat(arg(0)?)?, n / 2),
            Builtin::Next => {
                let s = self.seat(arg(0)?)?;
                around(s, self.int(arg(1)?)?)
            }
            Builtin::SideOf => {
                let s = self.seat(arg(0)?)?;
                self.tables.seats[s as usize].side.map_or(Value::None, Value::Side)
            }
            Builtin::Holder | Builtin::Player => match self.value(arg(0)?)? {
                Value::Card(_) => return Err(not_constant(span)),
                _ => Value::None,
            },
            Builtin::Count => Value::Int(self.items(arg(0)?)?.len() as i64),
            Builtin::First | Builtin::Last => {
                let cards = self.items(arg(0)?)?;
                let card = if b == Builtin::First { cards.first() } else { cards.last() };
                card.copied().unwrap_or(Value::None)
            }
            Builtin::Ord => match self.value(arg(0)?)? {
                Value::Enum(v) => Value::Int(v as i64),
                _ => return Err(missing(span)),
            },
            Builtin::Abs => Value::Int(self.int(arg(0)?)?.checked_abs().ok_or_else(|| overflow(span))?),
            Builtin::Max | Builtin::Min => {
                let (x, y) = (self.int(arg(0)?)?, self.int(arg(1)?)?);
                Value::Int(if b == Builtin::Max { x.max(y) } else { x.min(y) })
            }
            Builtin::Others | Builtin::Members => return Err(missing(span)),
        })
    }

    fn call(&mut self, f: FnId, args: &[Expr], span: Span) -> Out<Value> {
        let func = &self.tables.functions[f as usize];
        self.charge(1, func.body.span)?;
        if self.nesting + 1 >= MAX_NESTING {
            return Err(too_deep(span));
        }
        let mut values: smallvec::SmallVec<[Value; 4]> = smallvec::SmallVec::new();
        for a in args {
            values.push(self.value(a)?);
        }
        // A recursive definition's names hold the values of the call this one is inside of.
        let outer: smallvec::SmallVec<[Value; 8]> = func.kept().map(|s| self.local(s)).collect();
        for (slot, v) in func.params.iter().zip(values) {
            self.set_local(*slot, v);
        }
        let value = self.value(&func.body);
        for (slot, v) in func.kept().zip(outer) {
            self.set_local(slot, v);
        }
        value
    }

    /// The elements of a domain or collection, in order.
    pub(crate) fn items(&mut self, e: &Expr) -> Out<Items> {
        let span = e.span;
        Ok(match &e.kind {
            ExprKind::Seats => (0..self.tables.seats.len()).map(|s| Value::Seat(s as u8)).collect(),
            ExprKind::Sides => (0..self.tables.sides.len()).map(|s| Value::Side(s as u8)).collect(),
            ExprKind::EnumValues(en) => {
                (0..self.tables.enums[*en as usize].values.len()).map(|v| Value::Enum(v as u16)).collect()
            }
            ExprKind::List(xs) => xs.iter().map(|x| self.value(x)).collect::<Out<_>>()?,
            ExprKind::Binary(BinOp::Range, lo, hi) => {
                let (lo, hi) = (self.int(lo)?, self.int(hi)?);
                let len = hi.saturating_sub(lo).saturating_add(1).max(0);
                self.charge(usize::try_from(len).unwrap_or(usize::MAX), span)?;
                (lo..=hi).map(Value::Int).collect()
            }
            ExprKind::Builtin(Builtin::Others, args) => {
                let s = self.seat(args.first().ok_or_else(|| missing(span))?)? as usize;
                let n = self.tables.seats.len();
                (1..n).map(|k| Value::Seat(((s + k) % n) as u8)).collect()
            }
            ExprKind::Builtin(Builtin::Members, args) => {
                match self.value(args.first().ok_or_else(|| missing(span))?)? {
                    Value::Side(t) => self
                        .tables
                        .sides
                        .get(t as usize)
                        .map(|x| x.seats.iter().map(|s| Value::Seat(*s)).collect())
                        .unwrap_or_default(),
                    _ => return Err(missing(span)),
                }
            }
            ExprKind::Zone(_, ix) => {
                if let Some(ix) = ix {
                    self.index(ix)?;
                }
                return Err(not_constant(span));
            }
            ExprKind::ZoneAll(_) => return Err(not_constant(span)),
            ExprKind::Aggregate(agg) if agg.op == AggOp::Cards => {
                let mut kept = Items::new();
                for item in self.items(&agg.domain)? {
                    self.set_local(agg.slot, item);
                    if agg.filter.as_ref().map_or(Ok(true), |f| self.truth(f))? {
                        kept.push(item);
                    }
                }
                kept
            }
            ExprKind::SetMembers(x, seats) => match self.value(x)? {
                Value::Set(bits) => (0..64u16)
                    .filter(|i| bits & (1u64 << i) != 0)
                    .map(|i| if *seats { Value::Seat(i as u8) } else { Value::Enum(i) })
                    .collect(),
                _ => return Err(missing(span)),
            },
            _ => match self.value(e)? {
                Value::Card(c) => vec![Value::Card(c)],
                Value::None => Items::new(),
                _ => return Err(missing(span)),
            },
        })
    }

    fn aggregate(&mut self, agg: &Aggregate, span: Span) -> Out<Value> {
        let mut best: Option<(Value, i64)> = None;
        let (mut total, mut count) = (0i64, 0i64);
        for item in self.items(&agg.domain)? {
            self.charge(1, span)?;
            self.set_local(agg.slot, item);
            if let Some(f) = &agg.filter
                && !self.truth(f)?
            {
                if agg.op == AggOp::Every {
                    return Ok(Value::Bool(false));
                }
                continue;
            }
            count += 1;
            match agg.op {
                AggOp::Exists => return Ok(Value::Bool(true)),
                AggOp::First => return Ok(item),
                _ => {}
            }
            let Some(body) = &agg.body else { continue };
            let value = self.value(body)?;
            let key = match value {
                Value::Int(n) => n,
                Value::Enum(v) => v as i64,
                _ => return Err(missing(body.span)),
            };
            if agg.op == AggOp::Sum {
                total = total.checked_add(key).ok_or_else(|| overflow(span))?;
                continue;
            }
            let better = match (agg.op, best) {
                (_, None) => true,
                (AggOp::Max | AggOp::Highest, Some((_, k))) => key > k,
                (_, Some((_, k))) => key < k,
            };
            if better {
                let kept = if matches!(agg.op, AggOp::Highest | AggOp::Lowest) { item } else { value };
                best = Some((kept, key));
            }
        }
        Ok(match agg.op {
            AggOp::Count => Value::Int(count),
            AggOp::Exists => Value::Bool(false),
            AggOp::Every => Value::Bool(true),
            AggOp::Sum => Value::Int(total),
            AggOp::First => Value::None,
            AggOp::Cards => return Err(missing(span)),
            _ => best.map(|(v, _)| v).ok_or_else(|| {
                Halt::new(
                    Code::NoAction,
                    span,
                    "nothing to take the best of",
                    "the domain is empty here",
                    "make sure the `where` condition leaves something, or test with `exists` first",
                )
            })?,
        })
    }

    /// A template as text.
    pub(crate) fn text(&mut self, e: &Expr) -> Out<String> {
        let pieces = match &e.kind {
            ExprKind::Template(pieces) => pieces,
            ExprKind::If(c, t, o) => {
                let taken = if self.truth(c)? { t } else { o };
                return self.text(taken);
            }
            ExprKind::Case(s, arms, o) => {
                let taken = self.case(s, arms, o)?;
                return self.text(taken);
            }
            _ => return Err(not_constant(e.span)),
        };
        let names = self.tables.names();
        let mut out = String::new();
        for piece in pieces {
            match piece {
                TemplatePiece::Text(t) => out.push_str(t),
                TemplatePiece::Value(x, Type::Text) => out.push_str(&self.text(x)?),
                TemplatePiece::Value(x, ty) => {
                    let v = self.value(x)?;
                    if v != Value::None {
                        out.push_str(&names.show(v, ty));
                    }
                }
                TemplatePiece::Plural(x, one, many) => {
                    if let Value::Int(n) = self.value(x)? {
                        out.push_str(&plural(n, one, many));
                    }
                }
            }
        }
        Ok(out)
    }
}
