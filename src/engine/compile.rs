//! Expressions compiled into closures. Each expression becomes one closure that makes a value of
//! its kind (a truth value, a number, or any value), so that a condition or a sum does not wrap
//! and unwrap values between its parts; names, variables and constants that an operator reads
//! are read inline by the operator's own closure ([`Opnd`]) rather than called.
//!
//! What the checker's evaluator reports, the compiled code reports the same way: the same
//! problems, at the same places in the rule file.

use super::lower::{Lower, of_cards};
use super::program::*;
use super::vm::Vm;
use crate::eval::{Out, arith, member_of, missing, not_constant, overflow, set_op};
use crate::game::*;
use crate::vocab::{AggOp, BinOp};

/// Compiled code making a `T`.
pub(crate) type Ev<T> = Box<dyn for<'a> Fn(&mut Vm<'a>) -> Out<T> + Send + Sync>;

/// An operand of an operator: a name, variable or constant read inline, or compiled code.
pub(crate) enum Opnd {
    Const(Value),
    Local(Slot),
    Var(u32),
    /// A per-seat or per-side variable indexed by a local name, and where the index was written.
    VarAtLocal(u32, Slot, At),
    /// An attribute of the card a local name holds, and where the attribute was read.
    LocalAttr(Slot, AttrId, At),
    Code(Ev<Value>),
}

impl Opnd {
    #[inline(always)]
    pub(super) fn get(&self, vm: &mut Vm<'_>) -> Out<Value> {
        match self {
            Opnd::Const(v) => Ok(*v),
            Opnd::Local(s) => Ok(vm.local(*s)),
            Opnd::Var(slot) => Ok(vm.var_at(*slot, 0)),
            Opnd::VarAtLocal(base, slot, at) => match vm.local(*slot) {
                Value::Seat(s) | Value::Side(s) => Ok(vm.var_at(*base, s as usize)),
                _ => Err(missing(vm.span(*at))),
            },
            Opnd::LocalAttr(slot, a, at) => match vm.local(*slot) {
                Value::Card(c) => vm.attr(c, *a, *at),
                _ => Ok(Value::None),
            },
            Opnd::Code(f) => f(vm),
        }
    }
}

fn code<T>(f: impl for<'a> Fn(&mut Vm<'a>) -> Out<T> + Send + Sync + 'static) -> Ev<T> {
    Box::new(f)
}

/// The comparison of two numbers or enumeration values.
fn compare(op: BinOp, a: i64, b: i64) -> bool {
    match op {
        BinOp::Lt => a < b,
        BinOp::Le => a <= b,
        BinOp::Gt => a > b,
        _ => a >= b,
    }
}

/// A number or enumeration value as a number, for comparisons.
pub(crate) fn ordinal(v: Value) -> Option<i64> {
    match v {
        Value::Int(n) => Some(n),
        Value::Enum(v) => Some(v as i64),
        _ => None,
    }
}

impl Lower<'_> {
    /// An expression, compiled.
    pub(super) fn expr(&mut self, e: &Expr) -> X {
        let at = self.at(e.span);
        X { code: self.code(e, at), at }
    }

    /// A node that stops the match: something that has no value during play.
    pub(super) fn invalid(&mut self, span: crate::vocab::Span) -> X {
        let at = self.at(span);
        X { code: Compiled::Val(not_here(at)), at }
    }

    /// An operand: read inline where it is a name, variable or constant.
    fn opnd(&mut self, e: &Expr) -> Opnd {
        match self.leaf(e) {
            Some(o) => o,
            None => Opnd::Code(self.val(e)),
        }
    }

    /// Code making any value.
    fn val(&mut self, e: &Expr) -> Ev<Value> {
        match self.expr(e) {
            X { code: Compiled::Val(f), .. } => f,
            X { code: Compiled::Bool(f), .. } => code(move |vm| Ok(Value::Bool(f(vm)?))),
            X { code: Compiled::Int(f), .. } => code(move |vm| Ok(Value::Int(f(vm)?))),
            X { code: Compiled::Text(_), at } => not_here(at),
        }
    }

    /// Code making a truth value; any other value stops the match at `e`.
    fn boolean(&mut self, e: &Expr) -> Ev<bool> {
        if let Some(o) = self.leaf(e) {
            let at = self.at(e.span);
            return code(move |vm| match o.get(vm)? {
                Value::Bool(b) => Ok(b),
                _ => Err(missing(vm.span(at))),
            });
        }
        match self.expr(e) {
            X { code: Compiled::Bool(f), .. } => f,
            X { code: Compiled::Val(f), at } => code(move |vm| match f(vm)? {
                Value::Bool(b) => Ok(b),
                _ => Err(missing(vm.span(at))),
            }),
            X { code: Compiled::Int(f), at } => code(move |vm| {
                f(vm)?;
                Err(missing(vm.span(at)))
            }),
            X { code: Compiled::Text(_), at } => code(move |vm| Err(not_constant(vm.span(at)))),
        }
    }

    /// Code making a number; any other value stops the match at `e`.
    fn integer(&mut self, e: &Expr) -> Ev<i64> {
        if let Some(o) = self.leaf(e) {
            let at = self.at(e.span);
            return code(move |vm| match o.get(vm)? {
                Value::Int(n) => Ok(n),
                _ => Err(missing(vm.span(at))),
            });
        }
        match self.expr(e) {
            X { code: Compiled::Int(f), .. } => f,
            X { code: Compiled::Val(f), at } => code(move |vm| match f(vm)? {
                Value::Int(n) => Ok(n),
                _ => Err(missing(vm.span(at))),
            }),
            X { code: Compiled::Bool(f), at } => code(move |vm| {
                f(vm)?;
                Err(missing(vm.span(at)))
            }),
            X { code: Compiled::Text(_), at } => code(move |vm| Err(not_constant(vm.span(at)))),
        }
    }

    /// An operand if the expression is a name, variable or constant.
    fn leaf(&mut self, e: &Expr) -> Option<Opnd> {
        Some(match &e.kind {
            ExprKind::Const(v) => Opnd::Const(*v),
            ExprKind::Local(s) => Opnd::Local(*s),
            ExprKind::Var(v) => Opnd::Var(self.var_slot(*v)),
            ExprKind::VarAt(v, ix) => match ix.kind {
                ExprKind::Local(s) => Opnd::VarAtLocal(self.var_slot(*v), s, self.at(ix.span)),
                _ => return None,
            },
            ExprKind::LocalAttr(s, a) => Opnd::LocalAttr(*s, *a, self.at(e.span)),
            ExprKind::Attr(x, a) => match x.kind {
                ExprKind::Local(s) => Opnd::LocalAttr(s, *a, self.at(e.span)),
                _ => return None,
            },
            _ => return None,
        })
    }

    fn code(&mut self, e: &Expr, at: At) -> Compiled {
        if let Some(o) = self.leaf(e) {
            return match o {
                Opnd::Const(Value::Bool(b)) => Compiled::Bool(code(move |_| Ok(b))),
                Opnd::Const(Value::Int(n)) => Compiled::Int(code(move |_| Ok(n))),
                o => Compiled::Val(code(move |vm| o.get(vm))),
            };
        }
        // A collection where a set is wanted: `seats`, `others(s)`, a pile, `last 3 of played`.
        if e.is_collection() && !matches!(e.kind, ExprKind::List(_)) {
            let (d, cards) = (self.domain(e), super::lower::of_cards(e));
            return Compiled::Val(code(move |vm| vm.set_of_domain(&d, cards)));
        }
        match &e.kind {
            ExprKind::VarAt(v, ix) => {
                let (base, ix) = (self.var_slot(*v), self.expr(ix));
                Compiled::Val(code(move |vm| {
                    let i = vm.index(&ix)?;
                    Ok(vm.var_at(base, i))
                }))
            }
            ExprKind::Attr(x, a) => {
                let (x, a) = (self.opnd(x), *a);
                Compiled::Val(code(move |vm| match x.get(vm)? {
                    Value::Card(c) => vm.attr(c, a, at),
                    _ => Ok(Value::None),
                }))
            }
            ExprKind::Payload(x, en) => {
                let (x, en) = (self.opnd(x), *en);
                Compiled::Val(code(move |vm| match x.get(vm)? {
                    Value::Enum(i) => Ok(vm.enum_value(en, i, at)?.payload),
                    _ => Ok(Value::None),
                }))
            }
            ExprKind::Is(x, en, m) => {
                let (x, en, m) = (self.opnd(x), *en, *m);
                Compiled::Bool(code(move |vm| match x.get(vm)? {
                    Value::Enum(i) => Ok(vm.enum_value(en, i, at)?.member == m),
                    _ => Ok(false),
                }))
            }
            ExprKind::MakeEnum(en, m, p) => {
                let (p, en, m) = (self.opnd(p), *en, *m);
                Compiled::Val(code(move |vm| {
                    let p = p.get(vm)?;
                    vm.make_enum(en, m, p, at)
                }))
            }
            ExprKind::Not(x) => {
                let x = self.boolean(x);
                Compiled::Bool(code(move |vm| Ok(!x(vm)?)))
            }
            ExprKind::Neg(x) => {
                let x = self.integer(x);
                Compiled::Int(code(move |vm| x(vm)?.checked_neg().ok_or_else(|| overflow(vm.span(at)))))
            }
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r, at),
            ExprKind::Builtin(b, args) => self.builtin(*b, args, at),
            ExprKind::Call(f, args) => {
                let f = *f;
                let args: Vec<Opnd> = args.iter().map(|a| self.opnd(a)).collect();
                Compiled::Val(code(move |vm| {
                    let mut values: smallvec::SmallVec<[Value; 4]> = smallvec::SmallVec::new();
                    for a in &args {
                        values.push(a.get(vm)?);
                    }
                    vm.call(f, &values, at)
                }))
            }
            ExprKind::If(c, t, o) => {
                let (c, t, o) = (self.boolean(c), self.opnd(t), self.opnd(o));
                Compiled::Val(code(move |vm| if c(vm)? { t.get(vm) } else { o.get(vm) }))
            }
            ExprKind::Case(s, arms, o) => {
                let arm = self.case_arm(s, arms);
                let values: Vec<Opnd> = arms.iter().map(|(_, v)| v).chain([&**o]).map(|v| self.opnd(v)).collect();
                Compiled::Val(code(move |vm| values[arm(vm)?].get(vm)))
            }
            ExprKind::Aggregate(a) if a.op == AggOp::Cards => Compiled::Val(not_here(at)),
            ExprKind::Aggregate(a) => {
                let agg = Agg {
                    op: a.op,
                    slot: a.slot,
                    domain: self.domain(&a.domain),
                    filter: a.filter.as_ref().map(|f| self.pred(f, a.slot, of_cards(&a.domain))),
                    body: a.body.as_ref().map(|b| self.expr(b)),
                    keys: a.body.as_ref().filter(|_| of_cards(&a.domain)).and_then(|b| self.card_keys(b, a.slot)),
                };
                Compiled::Val(code(move |vm| vm.aggregate(&agg, at)))
            }
            ExprKind::List(xs) => {
                let xs: Vec<X> = xs.iter().map(|x| self.expr(x)).collect();
                Compiled::Val(code(move |vm| vm.set_of(&xs, at)))
            }
            ExprKind::Template(pieces) => Compiled::Text(
                pieces
                    .iter()
                    .map(|p| match p {
                        TemplatePiece::Text(t) => Piece::Text(t.clone()),
                        TemplatePiece::Value(x, Type::Text) => Piece::Value(self.text(x), Type::Text),
                        TemplatePiece::Value(x, ty) => Piece::Value(self.expr(x), ty.clone()),
                        TemplatePiece::Plural(x, one, many) => Piece::Plural(self.expr(x), one.clone(), many.clone()),
                    })
                    .collect(),
            ),
            _ => Compiled::Val(not_here(at)),
        }
    }

    /// Code saying which arm of a `case` is taken: its number, or the number of arms for `else`.
    fn case_arm(&mut self, s: &Expr, arms: &[(Vec<Expr>, Expr)]) -> Ev<usize> {
        let s = self.opnd(s);
        let patterns: Vec<Vec<Opnd>> = arms.iter().map(|(ps, _)| ps.iter().map(|p| self.opnd(p)).collect()).collect();
        code(move |vm| {
            let v = s.get(vm)?;
            for (k, arm) in patterns.iter().enumerate() {
                for p in arm {
                    if p.get(vm)? == v {
                        return Ok(k);
                    }
                }
            }
            Ok(patterns.len())
        })
    }

    /// A text: a template, or a choice between texts (`{if n == 0 then "pass" else "play"}`).
    fn text(&mut self, e: &Expr) -> X {
        let (which, options): (Ev<usize>, Vec<&Expr>) = match &e.kind {
            ExprKind::If(c, t, o) => {
                let c = self.boolean(c);
                (code(move |vm| Ok(if c(vm)? { 0 } else { 1 })), vec![t, o])
            }
            ExprKind::Case(s, arms, o) => (self.case_arm(s, arms), arms.iter().map(|(_, v)| v).chain([&**o]).collect()),
            _ => return self.expr(e),
        };
        let at = self.at(e.span);
        let which = X { code: Compiled::Int(code(move |vm| Ok(which(vm)? as i64))), at };
        let options = options.into_iter().map(|x| self.text(x)).collect();
        X { code: Compiled::Text(vec![Piece::Pick(which, options)]), at }
    }

    fn binary(&mut self, op: BinOp, l: &Expr, r: &Expr, at: At) -> Compiled {
        match op {
            BinOp::And => {
                let (l, r) = (self.boolean(l), self.boolean(r));
                Compiled::Bool(code(move |vm| Ok(l(vm)? && r(vm)?)))
            }
            BinOp::Or => {
                let (l, r) = (self.boolean(l), self.boolean(r));
                Compiled::Bool(code(move |vm| Ok(l(vm)? || r(vm)?)))
            }
            BinOp::In | BinOp::NotIn if r.is_collection() => {
                let (v, d, positive) = (self.opnd(l), self.domain(r), op == BinOp::In);
                Compiled::Bool(code(move |vm| {
                    let v = v.get(vm)?;
                    Ok(vm.contains(&d, v)? == positive)
                }))
            }
            BinOp::In | BinOp::NotIn => {
                let (v, set, positive) = (self.opnd(l), self.opnd(r), op == BinOp::In);
                Compiled::Bool(code(move |vm| {
                    let v = v.get(vm)?;
                    let found = member_of(v, set.get(vm)?);
                    Ok(found == positive)
                }))
            }
            BinOp::Range => Compiled::Val(not_here(at)),
            BinOp::Union | BinOp::Without => {
                let (l, r) = (self.opnd(l), self.opnd(r));
                Compiled::Val(code(move |vm| {
                    let (a, b) = (l.get(vm)?, r.get(vm)?);
                    set_op(op, a, b, vm.span(at))
                }))
            }
            BinOp::Eq | BinOp::Ne => {
                let (l, r, equal) = (self.opnd(l), self.opnd(r), op == BinOp::Eq);
                Compiled::Bool(code(move |vm| Ok((l.get(vm)? == r.get(vm)?) == equal)))
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let (l, r) = (self.opnd(l), self.opnd(r));
                Compiled::Bool(code(move |vm| {
                    let (a, b) = (l.get(vm)?, r.get(vm)?);
                    match (ordinal(a), ordinal(b)) {
                        (Some(a), Some(b)) => Ok(compare(op, a, b)),
                        _ => Err(missing(vm.span(at))),
                    }
                }))
            }
            _ => {
                let (l, r) = (self.opnd(l), self.opnd(r));
                Compiled::Int(code(move |vm| match (l.get(vm)?, r.get(vm)?) {
                    (Value::Int(a), Value::Int(b)) => arith(op, a, b, vm.span(at)),
                    _ => Err(missing(vm.span(at))),
                }))
            }
        }
    }

    fn builtin(&mut self, b: Builtin, args: &[Expr], at: At) -> Compiled {
        let arity = if matches!(b, Builtin::Next | Builtin::Max | Builtin::Min) { 2 } else { 1 };
        if args.len() < arity {
            return Compiled::Val(not_here(at));
        }
        let n = self.game.seats.len() as i64;
        match b {
            Builtin::Count => match &args[0].kind {
                ExprKind::Zone(..) => {
                    let p = self.pile(&args[0]);
                    Compiled::Int(code(move |vm| Ok(vm.pile(&p)?.map_or(0, |pile| vm.board.pile(pile).len() as i64))))
                }
                _ => {
                    let d = self.domain(&args[0]);
                    Compiled::Int(code(move |vm| vm.count(&d)))
                }
            },
            Builtin::First | Builtin::Last => {
                let (d, first) = (self.domain(&args[0]), b == Builtin::First);
                Compiled::Val(code(move |vm| vm.end_of(&d, first)))
            }
            Builtin::Left | Builtin::Right | Builtin::Opposite => {
                let k = match b {
                    Builtin::Left => 1,
                    Builtin::Right => -1,
                    _ => n / 2,
                };
                let seat = self.expr(&args[0]);
                Compiled::Val(code(move |vm| {
                    let s = vm.seat(&seat)?;
                    Ok(vm.around(s, k))
                }))
            }
            Builtin::Next => {
                let (seat, k) = (self.expr(&args[0]), self.integer(&args[1]));
                Compiled::Val(code(move |vm| {
                    let s = vm.seat(&seat)?;
                    let k = k(vm)?;
                    Ok(vm.around(s, k))
                }))
            }
            Builtin::SideOf => {
                let seat = self.expr(&args[0]);
                Compiled::Val(code(move |vm| {
                    let s = vm.seat(&seat)?;
                    Ok(vm.game.seats[s as usize].side.map_or(Value::None, Value::Side))
                }))
            }
            Builtin::Holder | Builtin::Player => {
                let (card, holder) = (self.opnd(&args[0]), b == Builtin::Holder);
                Compiled::Val(code(move |vm| match card.get(vm)? {
                    Value::Card(c) if (c as usize) < vm.game.cards.len() => Ok(if holder {
                        vm.prog.layout.seat_of_pile(vm.board.place(c)).map_or(Value::None, Value::Seat)
                    } else {
                        vm.board.came_from(c).map_or(Value::None, Value::Seat)
                    }),
                    Value::Card(_) => Err(not_constant(vm.span(at))),
                    _ => Ok(Value::None),
                }))
            }
            Builtin::Ord => {
                let v = self.opnd(&args[0]);
                Compiled::Int(code(move |vm| match v.get(vm)? {
                    Value::Enum(i) => Ok(i as i64),
                    _ => Err(missing(vm.span(at))),
                }))
            }
            Builtin::Abs => {
                let v = self.integer(&args[0]);
                Compiled::Int(code(move |vm| v(vm)?.checked_abs().ok_or_else(|| overflow(vm.span(at)))))
            }
            Builtin::Max | Builtin::Min => {
                let (x, y, max) = (self.integer(&args[0]), self.integer(&args[1]), b == Builtin::Max);
                Compiled::Int(code(move |vm| {
                    let (x, y) = (x(vm)?, y(vm)?);
                    Ok(if max { x.max(y) } else { x.min(y) })
                }))
            }
            Builtin::Others | Builtin::Members => Compiled::Val(not_here(at)),
        }
    }
}

/// Code that stops the match: what it names has no value during play.
fn not_here(at: At) -> Ev<Value> {
    code(move |vm| Err(not_constant(vm.span(at))))
}
