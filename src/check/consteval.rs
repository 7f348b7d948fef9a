//! The constant evaluator: runs the parts of a rule file that are fixed before play (the deck,
//! derived attributes, card names). Anything that depends on the position of a game (zones,
//! variables, chance) stops it with a [`Halt`] pointing at the expression.

use super::Checker;
use crate::diagnostic::Code;
use crate::game::*;
use crate::syntax::ast::{AggOp, AssignOp, BinOp, Span};

/// Why evaluation stopped.
#[derive(Debug)]
pub(super) struct Halt {
    pub code: Code,
    pub message: String,
    pub span: Span,
    pub label: String,
    pub help: String,
}

fn halt(code: Code, span: Span, message: &str, label: &str, help: &str) -> Halt {
    Halt { code, message: message.into(), span, label: label.into(), help: help.into() }
}

fn not_constant(span: Span) -> Halt {
    halt(
        Code::Misplaced,
        span,
        "this is not known before play",
        "depends on the game's position",
        "the pack, derived attributes and card names may use parameters, seats, enumerations and definitions, but not zones, variables or chance",
    )
}

/// How much work one evaluator may do before it is taken for an endless loop: each statement
/// run, value computed, loop round and number of a range counts one step. Every loop takes a
/// step per round, so that no loop, even with an empty body, runs unchecked.
const STEP_BUDGET: usize = 1_000_000;

/// How deeply values may be computed inside each other. The syntax limits keep one expression
/// well below this; only definitions calling each other (in a cycle, or in a very long chain)
/// go deeper, and would otherwise overflow the stack.
const MAX_NESTING: usize = 512;

/// The stack the evaluator runs on. Values nested [`MAX_NESTING`] deep take up to about 8 MB in
/// a debug build (16 MB overflows near 1,200): far more than a thread has by default.
const EVAL_STACK: usize = 16 << 20;

/// Runs an evaluation on a thread with [`EVAL_STACK`] of stack (here, if no thread can start).
pub(super) fn on_eval_stack<T: Send>(run: impl Fn() -> T + Sync) -> T {
    std::thread::scope(|scope| {
        let worker =
            std::thread::Builder::new().name("paradox-eval".into()).stack_size(EVAL_STACK).spawn_scoped(scope, &run);
        match worker {
            Ok(handle) => handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => run(),
        }
    })
}

pub(super) struct Eval<'c> {
    ck: &'c Checker,
    locals: Vec<Value>,
    made: Vec<(Vec<Value>, Span)>,
    steps: usize,
    nesting: usize,
}

type Out<T> = Result<T, Halt>;

impl<'c> Eval<'c> {
    pub fn new(ck: &'c Checker) -> Self {
        Eval { ck, locals: vec![Value::None; ck.slots], made: Vec::new(), steps: 0, nesting: 0 }
    }

    pub fn set(&mut self, slot: Slot, v: Value) {
        if let Some(x) = self.locals.get_mut(slot as usize) {
            *x = v;
        }
    }

    /// Runs the deck block; returns each card's stored attributes and where it was made.
    pub fn run_deck(mut self, block: BlockId) -> Out<Vec<(Vec<Value>, Span)>> {
        self.exec(block)?;
        Ok(self.made)
    }

    /// Takes `n` steps of the budget, or stops at `span` when it is spent.
    fn charge(&mut self, n: usize, span: Span) -> Out<()> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > STEP_BUDGET {
            return Err(halt(
                Code::EndlessFlow,
                span,
                "this runs too long",
                "still running here",
                "the pack, derived attributes and card names are worked out before play, in at most a million steps: check the loops, ranges and aggregates",
            ));
        }
        Ok(())
    }

    /// Fills in a card's derived attributes and its name.
    pub fn finish_card(
        &mut self,
        mut values: Vec<Value>,
        slots: &[Slot],
        derived: &[(usize, Expr)],
        name: Option<&Expr>,
    ) -> Out<(Vec<Value>, Option<String>)> {
        for (a, v) in values.iter().enumerate() {
            if let Some(slot) = slots.get(a) {
                self.set(*slot, *v);
            }
        }
        for (a, e) in derived {
            let v = self.value(e)?;
            values[*a] = v;
            if let Some(slot) = slots.get(*a) {
                self.set(*slot, v);
            }
        }
        let shown = name.map(|n| self.text(n)).transpose()?;
        Ok((values, shown))
    }

    fn exec(&mut self, block: BlockId) -> Out<()> {
        for stmt in &self.ck.blocks[block as usize].stmts {
            self.charge(1, stmt.span)?;
            self.stmt(stmt)?;
        }
        Ok(())
    }

    fn stmt(&mut self, stmt: &Stmt) -> Out<()> {
        match &stmt.kind {
            StmtKind::Assign(Target::Local(slot), op, e) => {
                let v = self.value(e)?;
                let new = match (op, self.locals[*slot as usize], v) {
                    (AssignOp::Set, _, v) => v,
                    (AssignOp::Add, Value::Int(a), Value::Int(b)) => {
                        Value::Int(a.checked_add(b).ok_or_else(|| overflow(e.span))?)
                    }
                    (AssignOp::Sub, Value::Int(a), Value::Int(b)) => {
                        Value::Int(a.checked_sub(b).ok_or_else(|| overflow(e.span))?)
                    }
                    _ => return Err(not_constant(stmt.span)),
                };
                self.set(*slot, new);
            }
            StmtKind::If(c, t, o) => {
                if self.truth(c)? {
                    self.exec(*t)?;
                } else if let Some(o) = o {
                    self.exec(*o)?;
                }
            }
            StmtKind::For(bindings, body) => self.for_each(bindings, *body)?,
            StmtKind::Repeat(n, body) => {
                for _ in 0..self.int(n)?.max(0) {
                    self.charge(1, stmt.span)?;
                    self.exec(*body)?;
                }
            }
            StmtKind::MakeCard(fields) => {
                let mut values = vec![Value::None; self.ck.attrs.len()];
                for (a, e) in fields {
                    values[*a as usize] = self.value(e)?;
                }
                self.made.push((values, stmt.span));
            }
            _ => return Err(not_constant(stmt.span)),
        }
        Ok(())
    }

    fn for_each(&mut self, bindings: &[Binding], body: BlockId) -> Out<()> {
        let Some((first, rest)) = bindings.split_first() else { return self.exec(body) };
        for item in self.items(&first.domain)? {
            self.charge(1, first.domain.span)?;
            self.set(first.slot, item);
            if let Some(f) = &first.filter
                && !self.truth(f)?
            {
                continue;
            }
            self.for_each(rest, body)?;
        }
        Ok(())
    }

    fn truth(&mut self, e: &Expr) -> Out<bool> {
        match self.value(e)? {
            Value::Bool(b) => Ok(b),
            _ => Err(undefined(e.span)),
        }
    }

    fn int(&mut self, e: &Expr) -> Out<i64> {
        match self.value(e)? {
            Value::Int(n) => Ok(n),
            _ => Err(undefined(e.span)),
        }
    }

    pub fn value(&mut self, e: &Expr) -> Out<Value> {
        self.charge(1, e.span)?;
        if self.nesting >= MAX_NESTING {
            return Err(halt(
                Code::TooDeep,
                e.span,
                "values are worked out inside each other too deeply",
                "too deep",
                "definitions calling definitions, more than a few hundred deep: shorten the chain",
            ));
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
            ExprKind::Local(s) => self.locals[*s as usize],
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
            ExprKind::Case(s, arms, otherwise) => self.case(s, arms, otherwise)?,
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
                let values = &self.ck.enums[*e as usize].values;
                let i = values.iter().position(|v| v.member == *m && v.payload == p).ok_or_else(|| undefined(span))?;
                Value::Enum(i as u16)
            }
            ExprKind::Builtin(b, args) => self.builtin(*b, args, span)?,
            ExprKind::Call(f, args) => self.call(*f, args)?,
            ExprKind::Aggregate(agg) => self.aggregate(agg, span)?,
            _ => return Err(not_constant(span)),
        })
    }

    fn enum_value(&self, e: EnumId, v: u16, span: Span) -> Out<&'c EnumValue> {
        self.ck.enums.get(e as usize).and_then(|x| x.values.get(v as usize)).ok_or_else(|| undefined(span))
    }

    fn binary(&mut self, op: BinOp, l: &Expr, r: &Expr, span: Span) -> Out<Value> {
        match op {
            BinOp::And => return Ok(Value::Bool(self.truth(l)? && self.truth(r)?)),
            BinOp::Or => return Ok(Value::Bool(self.truth(l)? || self.truth(r)?)),
            BinOp::In | BinOp::NotIn => {
                let x = self.value(l)?;
                let found = match self.value(r) {
                    Ok(Value::Set(bits)) => member_of_set(x, bits),
                    _ => self.items(r)?.contains(&x),
                };
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
                let (Some(x), Some(y)) = (order(a), order(b)) else { return Err(undefined(span)) };
                Value::Bool(match op {
                    BinOp::Lt => x < y,
                    BinOp::Le => x <= y,
                    BinOp::Gt => x > y,
                    _ => x >= y,
                })
            }
            _ => {
                let (Value::Int(x), Value::Int(y)) = (a, b) else { return Err(undefined(span)) };
                Value::Int(arith(op, x, y, span)?)
            }
        })
    }

    fn case(&mut self, s: &Expr, arms: &[(Vec<Expr>, Expr)], otherwise: &Expr) -> Out<Value> {
        let v = self.value(s)?;
        for (patterns, value) in arms {
            for p in patterns {
                if self.value(p)? == v {
                    return self.value(value);
                }
            }
        }
        self.value(otherwise)
    }

    fn builtin(&mut self, b: Builtin, args: &[Expr], span: Span) -> Out<Value> {
        let n = self.ck.seats.len() as i64;
        let seat = |v: Value| match v {
            Value::Seat(s) => Ok(s as i64),
            _ => Err(undefined(span)),
        };
        let mut vals = Vec::new();
        for a in args {
            if matches!(b, Builtin::Count) {
                return Ok(Value::Int(self.items(a)?.len() as i64));
            }
            vals.push(self.value(a)?);
        }
        let arg = |i: usize| vals.get(i).copied().unwrap_or(Value::None);
        let around = |s: i64, k: i64| Value::Seat((s + k).rem_euclid(n.max(1)) as u8);
        Ok(match b {
            Builtin::Left => around(seat(arg(0))?, 1),
            Builtin::Right => around(seat(arg(0))?, -1),
            Builtin::Opposite => around(seat(arg(0))?, n / 2),
            Builtin::Next => match arg(1) {
                Value::Int(k) => around(seat(arg(0))?, k),
                _ => return Err(undefined(span)),
            },
            Builtin::SideOf => {
                let s = seat(arg(0))? as usize;
                self.ck.seats[s].side.map_or(Value::None, Value::Side)
            }
            Builtin::Ord => match arg(0) {
                Value::Enum(v) => Value::Int(v as i64),
                _ => return Err(undefined(span)),
            },
            Builtin::Abs => match arg(0) {
                Value::Int(x) => Value::Int(x.checked_abs().ok_or_else(|| overflow(span))?),
                _ => return Err(undefined(span)),
            },
            Builtin::Max | Builtin::Min => match (arg(0), arg(1)) {
                (Value::Int(x), Value::Int(y)) => Value::Int(if b == Builtin::Max { x.max(y) } else { x.min(y) }),
                _ => return Err(undefined(span)),
            },
            _ => return Err(not_constant(span)),
        })
    }

    fn call(&mut self, f: FnId, args: &[Expr]) -> Out<Value> {
        let func = &self.ck.functions[f as usize];
        let values = args.iter().map(|a| self.value(a)).collect::<Out<Vec<_>>>()?;
        for (slot, v) in func.params.iter().zip(values) {
            self.set(*slot, v);
        }
        self.value(&func.body)
    }

    /// The elements of a domain.
    fn items(&mut self, e: &Expr) -> Out<Vec<Value>> {
        Ok(match &e.kind {
            ExprKind::Seats => (0..self.ck.seats.len()).map(|s| Value::Seat(s as u8)).collect(),
            ExprKind::Sides => (0..self.ck.sides.len()).map(|s| Value::Side(s as u8)).collect(),
            ExprKind::EnumValues(en) => {
                (0..self.ck.enums[*en as usize].values.len()).map(|v| Value::Enum(v as u16)).collect()
            }
            ExprKind::List(xs) => xs.iter().map(|x| self.value(x)).collect::<Out<_>>()?,
            ExprKind::Binary(BinOp::Range, lo, hi) => {
                let (lo, hi) = (self.int(lo)?, self.int(hi)?);
                if hi.saturating_sub(lo) > STEP_BUDGET as i64 {
                    return Err(halt(
                        Code::OutOfRange,
                        e.span,
                        "this range is too long",
                        "too many numbers",
                        "keep ranges below a million numbers",
                    ));
                }
                // At most a million numbers, checked just above.
                self.charge(usize::try_from(hi.saturating_sub(lo)).map_or(0, |n| n + 1), e.span)?;
                (lo..=hi).map(Value::Int).collect()
            }
            ExprKind::Builtin(Builtin::Others, args) => {
                let s = match args.first().map(|a| self.value(a)).transpose()? {
                    Some(Value::Seat(s)) => s as usize,
                    _ => return Err(undefined(e.span)),
                };
                let n = self.ck.seats.len();
                (1..n).map(|k| Value::Seat(((s + k) % n) as u8)).collect()
            }
            ExprKind::Builtin(Builtin::Members, args) => match args.first().map(|a| self.value(a)).transpose()? {
                Some(Value::Side(t)) => self.ck.sides[t as usize].seats.iter().map(|s| Value::Seat(*s)).collect(),
                _ => return Err(undefined(e.span)),
            },
            _ => return Err(not_constant(e.span)),
        })
    }

    fn aggregate(&mut self, agg: &Aggregate, span: Span) -> Out<Value> {
        let mut best: Option<(Value, i64)> = None;
        let (mut total, mut count) = (0i64, 0i64);
        for item in self.items(&agg.domain)? {
            self.charge(1, agg.domain.span)?;
            self.set(agg.slot, item);
            if let Some(f) = &agg.filter
                && !self.truth(f)?
            {
                if agg.op == AggOp::Every {
                    return Ok(Value::Bool(false));
                }
                continue;
            }
            count += 1;
            if agg.op == AggOp::Exists {
                return Ok(Value::Bool(true));
            }
            let Some(body) = &agg.body else { continue };
            let key = match self.value(body)? {
                Value::Int(n) => n,
                Value::Enum(v) => v as i64,
                _ => return Err(undefined(body.span)),
            };
            total = total.checked_add(key).ok_or_else(|| overflow(span))?;
            let better = match (agg.op, best) {
                (_, None) => true,
                (AggOp::Max | AggOp::Highest, Some((_, k))) => key > k,
                (_, Some((_, k))) => key < k,
            };
            if better {
                best =
                    Some((if matches!(agg.op, AggOp::Highest | AggOp::Lowest) { item } else { Value::Int(key) }, key));
            }
        }
        Ok(match agg.op {
            AggOp::Count => Value::Int(count),
            AggOp::Exists => Value::Bool(false),
            AggOp::Every => Value::Bool(true),
            AggOp::Sum => Value::Int(total),
            AggOp::Cards => return Err(not_constant(span)),
            _ => best.map(|(v, _)| v).ok_or_else(|| {
                halt(
                    Code::NoAction,
                    span,
                    "nothing to choose the best of",
                    "the domain is empty here",
                    "make sure the `where` condition leaves something",
                )
            })?,
        })
    }

    /// A template as text.
    pub fn text(&mut self, e: &Expr) -> Out<String> {
        let ExprKind::Template(pieces) = &e.kind else { return Err(not_constant(e.span)) };
        let names =
            Names { seats: &self.ck.seats, sides: &self.ck.sides, enums: &self.ck.enums, cards: &self.ck.card_names };
        let mut out = String::new();
        for piece in pieces {
            match piece {
                TemplatePiece::Text(t) => out.push_str(t),
                TemplatePiece::Value(x, ty) => {
                    let v = self.value(x)?;
                    if v != Value::None {
                        out.push_str(&names.show(v, ty));
                    }
                }
            }
        }
        Ok(out)
    }
}

fn member_of_set(x: Value, bits: u64) -> bool {
    let i = match x {
        Value::Enum(v) => v as u32,
        Value::Seat(s) => s as u32,
        _ => return false,
    };
    i < 64 && bits & (1u64 << i) != 0
}

fn arith(op: BinOp, x: i64, y: i64, span: Span) -> Out<i64> {
    let result = match op {
        BinOp::Add => x.checked_add(y),
        BinOp::Sub => x.checked_sub(y),
        BinOp::Mul => x.checked_mul(y),
        BinOp::Div | BinOp::Rem if y == 0 => {
            return Err(halt(
                Code::OutOfRange,
                span,
                "division by zero",
                "divides by zero",
                "make sure the divisor cannot be 0",
            ));
        }
        BinOp::Div => x.checked_div(y),
        BinOp::Rem => x.checked_rem(y),
        _ => None,
    };
    result.ok_or_else(|| overflow(span))
}

fn overflow(span: Span) -> Halt {
    halt(Code::OutOfRange, span, "a number grows too large", "overflows 64 bits", "keep numbers within ±9·10¹⁸")
}

fn undefined(span: Span) -> Halt {
    halt(
        Code::TypeMismatch,
        span,
        "a value is missing (none)",
        "evaluates to none",
        "make sure the value exists, or test it with `!= none` first",
    )
}
