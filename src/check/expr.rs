//! Expressions: resolving names, checking types and compiling to the game's expression form.

use super::types::{builtin, element, fits, is_collection, ordered, storable};
use super::{Checker, Global};
use crate::diagnostic::{Code, Problem, did_you_mean};
use crate::game::*;
use crate::syntax::ast::{self, AggOp, BinOp, Span};

fn node(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

fn boxed(e: Expr) -> Box<Expr> {
    Box::new(e)
}

impl Checker {
    /// Checks an expression that must have type `want`.
    pub(super) fn expect(&mut self, e: &ast::Expr, want: &Type, what: &str) -> Expr {
        let (out, got) = self.expr(e);
        match want.base() {
            _ if fits(want, &got) => {}
            Type::Set(elem) if fits(elem, &got) && got != Type::NoneLit => self.one_member(e, want, &got, what),
            _ => self.mismatch(e.span, want, &got, what),
        }
        as_card_set(out, want)
    }

    /// Reports one member where a set is expected (`count_of(c)` for a `set of card`), with
    /// the set of one to write instead.
    fn one_member(&mut self, e: &ast::Expr, want: &Type, got: &Type, what: &str) {
        let (a_w, w, g) = (self.a_type(want), self.type_name(want), self.type_name(got));
        let written = match &e.kind {
            ast::ExprKind::Name(ident) => format!("[{}]", ident.name),
            _ => "[...]".to_string(),
        };
        self.error(
            Code::TypeMismatch,
            format!("{what} must be {a_w}, but this is one {g}"),
            e.span,
            format!("expected {w}, found {g}"),
            format!("a set of one {g} is written in brackets: `{written}`"),
        );
    }

    /// Reports a value of the wrong type, as a wrong kind of thing when a seat, side or zone
    /// stands where a single value is needed.
    pub(super) fn mismatch(&mut self, span: Span, want: &Type, got: &Type, what: &str) {
        let (w, g) = (self.type_name(want), self.type_name(got));
        let place_like = matches!(
            got.base(),
            Type::Seat | Type::Side | Type::Cards | Type::Group | Type::ZoneFamily(_) | Type::List(_)
        );
        let value_wanted = matches!(want.base(), Type::Int | Type::Bool | Type::Card | Type::Enum(_));
        if place_like && value_wanted {
            let help = match (got.base(), want.base()) {
                (Type::Cards | Type::ZoneFamily(_), Type::Card) => {
                    "name one card of it, e.g. `first(trick)` or `highest c in trick by c.rank`".to_string()
                }
                (Type::Group, Type::Card) => {
                    "name one card of it, e.g. `first(p)` or `highest c in p by c.rank`".to_string()
                }
                (Type::Group, Type::Int) => {
                    "to count its cards write `count(p)`; to add up values, `sum c in p of c.points`".to_string()
                }
                (Type::Cards | Type::ZoneFamily(_), Type::Int) => {
                    "to count its cards write `count(zone)`; to add up values, `sum c in zone of c.points`".to_string()
                }
                (Type::Seat, Type::Int) => {
                    "a seat is not a number; use a per-seat variable such as `score[s]`".to_string()
                }
                (Type::Side, Type::Int) => {
                    "a side is not a number; use a per-side variable such as `chips[t]`".to_string()
                }
                _ => format!("{what} needs {}", self.a_type(want)),
            };
            let (w, g) = (self.a_type(want), self.a_type(got));
            self.error(Code::WrongKind, format!("{g} where {w} is needed"), span, format!("this is {g}"), help);
        } else {
            let (a_w, a_g) = (self.a_type(want), self.a_type(got));
            self.error(
                Code::TypeMismatch,
                format!("{what} must be {a_w}, but this is {a_g}"),
                span,
                format!("expected {w}, found {g}"),
                self.conversion_help(want, got),
            );
        }
    }

    fn conversion_help(&self, want: &Type, got: &Type) -> String {
        match (want.base(), got.base()) {
            (Type::Int, Type::Enum(_)) => "`ord(x)` gives an enumeration value's position as a number".into(),
            (Type::Bool, Type::Int) => "compare it, e.g. `x > 0`".into(),
            (_, Type::NoneLit) => format!("`none` only fits an optional type such as `{}?`", self.type_name(want)),
            (Type::Seat, Type::Side) => "a side is not a seat: name one of its seats".into(),
            (Type::Side, Type::Seat) => "a seat is not a side: write `side(s)` for the side of a seat".into(),
            (Type::Seat, Type::Int) => match self.seats.first() {
                Some(seat) => format!(
                    "seats are named, not numbered: write a seat of this game such as `{}`, or one worked out such as `left(s)`",
                    seat.name
                ),
                None => "seats are named, not numbered: write a seat, or one worked out such as `left(s)`".into(),
            },
            (Type::Int, Type::Bool) => "write `if CONDITION then 1 else 0` for a number".into(),
            _ => format!("give a value of type {}", self.type_name(want)),
        }
    }

    pub(super) fn expr(&mut self, e: &ast::Expr) -> (Expr, Type) {
        use ast::ExprKind as K;
        let span = e.span;
        match &e.kind {
            K::Int(n) => (node(ExprKind::Const(Value::Int(*n)), span), Type::Int),
            K::Bool(b) => (node(ExprKind::Const(Value::Bool(*b)), span), Type::Bool),
            K::None => (node(ExprKind::Const(Value::None), span), Type::NoneLit),
            K::Text(t) => (self.template(t), Type::Text),
            K::Name(ident) => self.name(ident),
            K::Unary(op, inner) => self.unary(*op, inner, span),
            K::Binary(op, l, r) => self.binary(*op, l, r, span),
            K::Field(base, field) => self.field(base, field, span),
            K::Index(base, index) => self.index(base, index, span),
            K::Is(base, member) => self.is_test(base, member, span),
            K::Call { func, args } => self.call(func, args, span),
            K::CardRef(fields) => self.card_ref(fields, span),
            K::If { cond, then, otherwise } => self.if_expr(cond, then, otherwise, span),
            K::Case { scrutinee, arms, otherwise } => self.case(scrutinee, arms, otherwise, span),
            K::Aggregate { op, binder, domain, filter, body } => {
                self.aggregate(*op, binder, domain, filter.as_deref(), body.as_deref(), span)
            }
            K::List(items) => self.list(items, span),
            K::PileEnd { last, count, pile } => self.pile_end(*last, count, pile, span),
        }
    }

    fn error_expr(span: Span) -> (Expr, Type) {
        (node(ExprKind::Const(Value::None), span), Type::Error)
    }

    /// A template string: each `{...}` part must be something that prints.
    pub(super) fn template(&mut self, t: &ast::Template) -> Expr {
        let mut pieces = Vec::new();
        for part in &t.parts {
            match part {
                ast::TemplatePart::Text(s) => pieces.push(TemplatePiece::Text(s.clone())),
                ast::TemplatePart::Expr(e) => {
                    let (x, ty) = self.expr(e);
                    // The name of a choice of several cards prints its cards; a text
                    // (`{if n == 0 then "pass" else "play"}`) prints as it reads.
                    if is_collection(&ty) && ty != Type::Group {
                        self.error(
                            Code::TypeMismatch,
                            format!("{} cannot be printed", self.a_type(&ty)),
                            e.span,
                            "not a single value",
                            "print one value: a number, a seat, a card, ...",
                        );
                    } else if ty == Type::Text.opt() {
                        self.error(
                            Code::TypeMismatch,
                            "a text or `none` cannot be printed",
                            e.span,
                            "may be `none`",
                            "write `\"\"` for no text",
                        );
                    }
                    pieces.push(TemplatePiece::Value(x, ty));
                }
                ast::TemplatePart::Plural { count, one, many } => {
                    let x = self.expect(count, &Type::Int, "the number of a plural");
                    pieces.push(TemplatePiece::Plural(x, one.clone(), many.clone()));
                }
            }
        }
        node(ExprKind::Template(pieces), t.span)
    }

    fn name(&mut self, ident: &ast::Ident) -> (Expr, Type) {
        let span = ident.span;
        if let Some(local) = self.lookup_local(&ident.name) {
            if let Some((zone, index)) = local.pile {
                let index = index.map(|slot| boxed(node(ExprKind::Local(slot), span)));
                return (node(ExprKind::Zone(zone, index), span), Type::Cards);
            }
            return (node(ExprKind::Local(local.slot), span), local.ty.clone());
        }
        if let Some((global, _)) = self.globals.get(&ident.name).copied() {
            return self.global(global, ident);
        }
        match ident.name.as_str() {
            "seats" => (node(ExprKind::Seats, span), Type::List(Box::new(Type::Seat))),
            "sides" => (node(ExprKind::Sides, span), Type::List(Box::new(Type::Side))),
            "players" => (node(ExprKind::Const(Value::Int(self.players as i64)), span), Type::Int),
            name if builtin(name).is_some() => {
                self.error(
                    Code::Arguments,
                    format!("`{name}` is a function"),
                    span,
                    "needs arguments",
                    format!("call it: `{name}(...)`"),
                );
                Self::error_expr(span)
            }
            _ => {
                self.unknown_name(
                    ident,
                    "names are declared with seats, side, param, enum, zone, var, define, let, for and choose",
                );
                Self::error_expr(span)
            }
        }
    }

    fn global(&mut self, global: Global, ident: &ast::Ident) -> (Expr, Type) {
        let span = ident.span;
        match global {
            Global::Param(p) => {
                let info = &self.params[p];
                (node(ExprKind::Const(info.value), span), info.ty.clone())
            }
            Global::Seat(s) => (node(ExprKind::Const(Value::Seat(s)), span), Type::Seat),
            Global::Side(s) => (node(ExprKind::Const(Value::Side(s)), span), Type::Side),
            Global::Member(e, m) => {
                let member = &self.enums[e as usize].members[m as usize];
                if let Some((field, _)) = &member.payload {
                    let name = member.name.clone();
                    let field = field.clone();
                    self.error(
                        Code::Arguments,
                        format!("`{name}` needs its {field}"),
                        span,
                        "a member with a payload",
                        format!("write `{name}(...)` with the {field}, or test the member with `x is {name}`"),
                    );
                    return Self::error_expr(span);
                }
                let value = self.enums[e as usize].values.iter().position(|v| v.member == m).unwrap_or(0);
                (node(ExprKind::Const(Value::Enum(value as u16)), span), Type::Enum(e))
            }
            Global::EnumType(e) => (node(ExprKind::EnumValues(e), span), Type::List(Box::new(Type::Enum(e)))),
            Global::Zone(z) => match self.zones[z as usize].owner {
                None => (node(ExprKind::Zone(z, None), span), Type::Cards),
                Some(_) => (node(ExprKind::ZoneAll(z), span), Type::ZoneFamily(z)),
            },
            Global::Var(v) => {
                let info = &self.vars[v as usize];
                if info.owner.is_some() {
                    let name = info.name.clone();
                    self.error(
                        Code::WrongKind,
                        format!("`{name}` has one value per seat or side"),
                        span,
                        "needs an index",
                        format!("write `{name}[s]` for the seat or side you mean"),
                    );
                    return Self::error_expr(span);
                }
                (node(ExprKind::Var(v), span), info.ty.clone())
            }
            Global::Fn(f) => {
                let types: Vec<String> =
                    self.fn_sigs[f as usize].params.iter().map(|t| self.param_type_name(t)).collect();
                self.error(
                    Code::Arguments,
                    format!("`{}` is a definition", ident.name),
                    span,
                    "needs arguments",
                    format!("call it: `{}({})`", ident.name, types.join(", ")),
                );
                Self::error_expr(span)
            }
            Global::Procedure(_) => self.procedure_as_value(ident, span),
        }
    }

    fn unary(&mut self, op: ast::UnOp, inner: &ast::Expr, span: Span) -> (Expr, Type) {
        match op {
            ast::UnOp::Neg => {
                let x = self.expect(inner, &Type::Int, "the operand of `-`");
                (fold_neg(x, span), Type::Int)
            }
            ast::UnOp::Not => {
                let x = self.expect(inner, &Type::Bool, "the operand of `not`");
                (fold_not(x, span), Type::Bool)
            }
        }
    }

    fn binary(&mut self, op: BinOp, l: &ast::Expr, r: &ast::Expr, span: Span) -> (Expr, Type) {
        self.binary_checked(op, l, r, span).unwrap_or_else(|misread| misread)
    }

    /// The left operand of a comparison. `not a == b` reads as `(not a) == b`; when `a` is not
    /// a truth value that reading is a mistake, reported once as such (with both readings the
    /// author may have meant) instead of as two type errors: `Err` holds the comparison's
    /// replacement.
    fn compared(&mut self, op: BinOp, l: &ast::Expr, r: &ast::Expr, span: Span) -> Result<(Expr, Type), (Expr, Type)> {
        let ast::ExprKind::Unary(ast::UnOp::Not, inner) = &l.kind else { return Ok(self.expr(l)) };
        // `(not a) == b` was written with its brackets: the span then ends past the operand.
        if l.span.end != inner.span.end {
            return Ok(self.expr(l));
        }
        let (ix, it) = self.expr(inner);
        if matches!(it.base(), Type::Bool | Type::Error) {
            return Ok((fold_not(ix, l.span), Type::Bool));
        }
        self.expr(r);
        let (symbol, negated) = comparison_words(op);
        let a_inner = self.a_type(&it);
        self.error(
            Code::TypeMismatch,
            format!("`not` applies to {a_inner} here, not to the comparison"),
            span,
            format!("read as `(not a) {symbol} b`"),
            format!(
                "`not` binds tighter than `{symbol}`: to negate the comparison write `not (a {symbol} b)`, or `a {negated} b`"
            ),
        );
        Err((node(ExprKind::Const(Value::None), span), Type::Bool))
    }

    fn binary_checked(
        &mut self,
        op: BinOp,
        l: &ast::Expr,
        r: &ast::Expr,
        span: Span,
    ) -> Result<(Expr, Type), (Expr, Type)> {
        let (ty, lx, rx) = match op {
            BinOp::Range => {
                let lx = self.expect(l, &Type::Int, "the start of a range");
                let rx = self.expect(r, &Type::Int, "the end of a range");
                (Type::List(Box::new(Type::Int)), lx, rx)
            }
            BinOp::Or | BinOp::And => {
                let lx = self.expect(l, &Type::Bool, "each side of `and`/`or`");
                let rx = self.expect(r, &Type::Bool, "each side of `and`/`or`");
                (Type::Bool, lx, rx)
            }
            BinOp::In | BinOp::NotIn => return Ok(self.membership(op, l, r, span)),
            BinOp::Eq | BinOp::Ne => {
                let (lx, lt) = self.compared(op, l, r, span)?;
                let (rx, rt) = self.expr(r);
                let (lx, rx) = (as_card_set(lx, &rt), as_card_set(rx, &lt));
                if !(fits(&lt, &rt) || fits(&rt, &lt) || lt == Type::NoneLit || rt == Type::NoneLit)
                    || is_collection(&lt)
                    || lt == Type::Text
                    || rt == Type::Text
                {
                    let help = match (lt.base(), rt.base()) {
                        (Type::Enum(_), Type::Int) | (Type::Int, Type::Enum(_)) => {
                            "`ord(x)` gives an enumeration value's position as a number"
                        }
                        _ => "compare values of the same type",
                    };
                    self.error(
                        Code::TypeMismatch,
                        format!("cannot compare {} with {}", self.a_type(&lt), self.a_type(&rt)),
                        span,
                        "different types",
                        help,
                    );
                }
                (Type::Bool, lx, rx)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let (lx, lt) = self.compared(op, l, r, span)?;
                let (rx, rt) = self.expr(r);
                if !ordered(&lt) || !(fits(&lt, &rt) || fits(&rt, &lt)) {
                    self.unordered(&lt, &rt, span);
                }
                (Type::Bool, lx, rx)
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
                let (lx, lt) = self.expr(l);
                if let (BinOp::Add | BinOp::Sub, Type::Set(_)) = (op, lt.base()) {
                    return Ok(self.set_operation(op, lx, lt.base().clone(), r, span));
                }
                if matches!(op, BinOp::Add | BinOp::Sub) && holds_cards(&lt) {
                    return Ok(self.cards_joined(op, (l, lx, lt), r, span));
                }
                if !fits(&Type::Int, &lt) {
                    self.mismatch(l.span, &Type::Int, &lt, "arithmetic");
                }
                let rx = self.expect(r, &Type::Int, "arithmetic");
                (Type::Int, lx, rx)
            }
            BinOp::Union | BinOp::Without => return Err(Self::error_expr(span)),
        };
        let compared = fold_binary(op, lx, rx, span);
        if !matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge) {
            return Ok((compared, ty));
        }
        Ok((self.absent_cards_compare_false(compared), ty))
    }

    /// A comparison with an attribute of a card name that may hold `none` (the card of a mixed
    /// decision when a menu action is chosen, `let c = first(pile)` of an empty pile) is false
    /// while the name holds `none`, whatever the operator, unless it compares with `none`
    /// itself: written as `if c != none then COMPARISON else false`.
    fn absent_cards_compare_false(&self, compared: Expr) -> Expr {
        let ExprKind::Binary(_, l, r) = &compared.kind else { return compared };
        let literal_none = |x: &Expr| matches!(x.kind, ExprKind::Const(Value::None));
        if literal_none(l) || literal_none(r) {
            return compared;
        }
        let names: Vec<(Slot, Span)> = [l, r].into_iter().filter_map(|x| self.optional_card_of(x)).collect();
        names.into_iter().rev().fold(compared, |inner, (slot, at)| {
            let present = ExprKind::Binary(
                BinOp::Ne,
                boxed(node(ExprKind::Local(slot), at)),
                boxed(node(ExprKind::Const(Value::None), at)),
            );
            let span = inner.span;
            let otherwise = node(ExprKind::Const(Value::Bool(false)), span);
            node(ExprKind::If(boxed(node(present, span)), boxed(inner), boxed(otherwise)), span)
        })
    }

    /// The name (and the attribute read's span) when `x` reads an attribute of a `card?` name.
    fn optional_card_of(&self, x: &Expr) -> Option<(Slot, Span)> {
        let slot = match &x.kind {
            ExprKind::LocalAttr(slot, _) => *slot,
            ExprKind::Attr(base, _) => match base.kind {
                ExprKind::Local(slot) => slot,
                _ => return None,
            },
            _ => return None,
        };
        let local = self.locals.iter().rev().find(|l| l.slot == slot)?;
        matches!(&local.ty, Type::Opt(t) if **t == Type::Card).then_some((slot, x.span))
    }

    /// `a + b` and `a - b` of a set `a`: the union or difference with a set of the same kind, or
    /// with one member added or taken away.
    fn set_operation(&mut self, op: BinOp, lx: Expr, set: Type, r: &ast::Expr, span: Span) -> (Expr, Type) {
        let rx = self.set_change(
            &set,
            r,
            if op == BinOp::Add { "what is added to a set" } else { "what is taken from a set" },
        );
        let op = if op == BinOp::Add { BinOp::Union } else { BinOp::Without };
        (node(ExprKind::Binary(op, boxed(lx), boxed(rx)), span), set)
    }

    /// `a + b` and `a - b` of a pile, a group, a selection or a list of cards `a`: with a card
    /// or with cards, the set of its cards joined with them, as a `set of card` parameter
    /// would keep them; with anything else, arithmetic that `a` is no number for.
    fn cards_joined(&mut self, op: BinOp, left: (&ast::Expr, Expr, Type), r: &ast::Expr, span: Span) -> (Expr, Type) {
        let (l, lx, lt) = left;
        let (rx, rt) = self.expr(r);
        let cards = Type::Set(Box::new(Type::Card));
        if fits(&Type::Card, &rt) || fits(&cards, &rt) {
            let op = if op == BinOp::Add { BinOp::Union } else { BinOp::Without };
            return (node(ExprKind::Binary(op, boxed(lx), boxed(as_card_set(rx, &cards))), span), cards);
        }
        self.mismatch(l.span, &Type::Int, &lt, "arithmetic");
        if !fits(&Type::Int, &rt) {
            self.mismatch(r.span, &Type::Int, &rt, "arithmetic");
        }
        (node(ExprKind::Const(Value::None), span), Type::Int)
    }

    /// A set of the same kind as `set`, or one member of it: what `+`, `-`, `+=` and `-=` change
    /// a set by.
    pub(super) fn set_change(&mut self, set: &Type, e: &ast::Expr, what: &str) -> Expr {
        let Type::Set(elem) = set else { return self.expr(e).0 };
        let (x, t) = self.expr(e);
        if !(fits(elem, &t) || fits(set, &t)) {
            self.mismatch(e.span, elem, &t, what);
        }
        as_card_set(x, set)
    }

    /// Reports `<`, `<=`, `>` or `>=` between values that have no order between them.
    fn unordered(&mut self, lt: &Type, rt: &Type, span: Span) {
        let (l, r) = (self.type_name(lt), self.type_name(rt));
        let (message, label) = if fits(lt, rt) || fits(rt, lt) {
            (format!("{} cannot be ordered", self.a_type(lt)), format!("{l} has no order"))
        } else {
            (format!("cannot order {l} and {r}"), format!("{l} and {r}"))
        };
        let help = match lt.base() {
            Type::Seat => {
                "seats have no order: go round the table with `for s in seats from leader`, or compare numbers such as `score[s]`"
            }
            _ => "`<` and `>` compare numbers, or values of the same enumeration by their order",
        };
        self.error(Code::TypeMismatch, message, span, label, help);
    }

    fn membership(&mut self, op: BinOp, l: &ast::Expr, r: &ast::Expr, span: Span) -> (Expr, Type) {
        let (lx, lt) = self.expr(l);
        let (rx, rt) = self.expr(r);
        match element(&rt) {
            Some(elem) if fits(&elem, &lt) => {}
            Some(elem) => {
                let (e, g) = (self.type_name(&elem), self.a_type(&lt));
                self.error(
                    Code::TypeMismatch,
                    format!("looking for {g} among {e}s"),
                    l.span,
                    format!("this is {g}"),
                    format!("the collection holds {e}s"),
                );
            }
            None => {
                let g = self.a_type(&rt);
                self.error(
                    Code::TypeMismatch,
                    format!("`in` needs a set, a list or a zone, not {g}"),
                    r.span,
                    "not a collection",
                    "write `x in spent` with a `set of` variable, a list `[a, b]` or a zone",
                );
            }
        }
        (node(ExprKind::Binary(op, boxed(lx), boxed(rx)), span), Type::Bool)
    }

    fn field(&mut self, base: &ast::Expr, field: &ast::Ident, span: Span) -> (Expr, Type) {
        let (bx, bt) = self.expr(base);
        let optional = matches!(bt, Type::Opt(_));
        let out = match bt.base() {
            Type::Error => return Self::error_expr(span),
            Type::Card => match self.attribute(field, false) {
                Some(a) => {
                    let kind = match bx.kind {
                        ExprKind::Local(slot) => ExprKind::LocalAttr(slot, a as AttrId),
                        _ => ExprKind::Attr(boxed(bx), a as AttrId),
                    };
                    (node(kind, span), self.attrs[a].ty.clone())
                }
                None => return Self::error_expr(span),
            },
            Type::Enum(e) => {
                let e = *e;
                let payload = self.enums[e as usize]
                    .members
                    .iter()
                    .find_map(|m| m.payload.as_ref().filter(|(f, _)| *f == field.name).map(|(_, t)| t.clone()));
                match payload {
                    Some(t) => (node(ExprKind::Payload(boxed(bx), e), span), t.opt()),
                    None => {
                        let name = self.enums[e as usize].name.clone();
                        self.error(
                            Code::UnknownName,
                            format!("{name} has no field `{}`", field.name),
                            field.span,
                            "unknown field",
                            "only members declared with a payload, like `named(suit: Suit)`, have a field",
                        );
                        return Self::error_expr(span);
                    }
                }
            }
            other => {
                let g = self.a_type(other);
                let help = match (other, &base.kind) {
                    (Type::Cards | Type::ZoneFamily(_), ast::ExprKind::Name(zone)) => format!(
                        "a zone holds cards: read the {} of one of them, e.g. `first({}).{}`",
                        field.name, zone.name, field.name
                    ),
                    _ => format!("attributes belong to cards: write `c.{}` for a card `c`", field.name),
                };
                self.error(Code::WrongKind, format!("{g} has no attributes"), base.span, format!("this is {g}"), help);
                return Self::error_expr(span);
            }
        };
        if optional { (out.0, out.1.opt()) } else { out }
    }

    /// The attribute of cards called `name`, reporting an unknown one with its likely meaning.
    /// `stored` looks among the stored attributes only (what `card { ... }` in `deck` gives).
    pub(super) fn attribute(&mut self, name: &ast::Ident, stored: bool) -> Option<usize> {
        let found = self.attrs.iter().position(|a| a.name == name.name);
        if found.is_some() {
            return found;
        }
        let problem = Problem::new(
            Code::UnknownName,
            format!("cards have no attribute `{}`", name.name),
            name.span,
            "unknown attribute",
        );
        let problem = if self.may_suggest(self.attrs.len()) {
            let names: Vec<&str> =
                self.attrs.iter().filter(|a| !(stored && a.derived)).map(|a| a.name.as_str()).collect();
            match did_you_mean(&name.name, names.iter().copied()) {
                Some(s) => problem.did_you_mean(name.span, &name.name, s),
                None => problem.help(format!("cards have: {}", names.join(", "))),
            }
        } else {
            problem.help("check the spelling against the `card` declaration")
        };
        self.report(problem);
        None
    }

    fn index(&mut self, base: &ast::Expr, index: &ast::Expr, span: Span) -> (Expr, Type) {
        let ast::ExprKind::Name(ident) = &base.kind else {
            self.error(
                Code::WrongKind,
                "only a per-seat or per-side variable or zone takes `[...]`",
                base.span,
                "cannot be indexed",
                "write `score[s]` or `hand[s]`",
            );
            return Self::error_expr(span);
        };
        let global =
            if self.lookup_local(&ident.name).is_some() { None } else { self.globals.get(&ident.name).map(|g| g.0) };
        let (owner, result) = match global {
            Some(Global::Var(v)) => (self.vars[v as usize].owner, Some(Global::Var(v))),
            Some(Global::Zone(z)) => (self.zones[z as usize].owner, Some(Global::Zone(z))),
            None if self.lookup_local(&ident.name).is_none() && !self.globals.contains_key(&ident.name) => {
                self.unknown_name(ident, "per-seat variables and zones are declared with `per seat`");
                return Self::error_expr(span);
            }
            _ => (None, None),
        };
        let Some(owner) = owner else {
            self.error(
                Code::WrongKind,
                format!("`{}` has a single value", ident.name),
                base.span,
                "not per seat or per side",
                "only a `var` or `zone` declared `per seat` or `per side` takes `[...]`",
            );
            return Self::error_expr(span);
        };
        let want = match owner {
            ast::Owner::Seat => Type::Seat,
            ast::Owner::Side => Type::Side,
        };
        let ix = self.expect(index, &want, "the index");
        match result {
            Some(Global::Var(v)) => (node(ExprKind::VarAt(v, boxed(ix)), span), self.vars[v as usize].ty.clone()),
            Some(Global::Zone(z)) => (node(ExprKind::Zone(z, Some(boxed(ix))), span), Type::Cards),
            _ => Self::error_expr(span),
        }
    }

    fn is_test(&mut self, base: &ast::Expr, member: &ast::Ident, span: Span) -> (Expr, Type) {
        let (bx, bt) = self.expr(base);
        let Type::Enum(e) = bt.base().clone() else {
            if bt != Type::Error {
                self.error(
                    Code::TypeMismatch,
                    format!("`is` tests an enumeration value, not {}", self.type_name(&bt)),
                    base.span,
                    "not an enumeration value",
                    "write `bid is shorts`",
                );
            }
            return Self::error_expr(span);
        };
        match self.enums[e as usize].members.iter().position(|m| m.name == member.name) {
            Some(m) => (node(ExprKind::Is(boxed(bx), e, m as u16), span), Type::Bool),
            None => {
                let enumeration = &self.enums[e as usize];
                let problem = Problem::new(
                    Code::UnknownName,
                    format!("{} has no member `{}`", enumeration.name, member.name),
                    member.span,
                    "not a member",
                );
                let problem = if self.may_suggest(enumeration.members.len()) {
                    let names: Vec<&str> = enumeration.members.iter().map(|m| m.name.as_str()).collect();
                    match did_you_mean(&member.name, names.iter().copied()) {
                        Some(s) => problem.did_you_mean(member.span, &member.name, s),
                        None => problem.help(format!("its members are: {}", names.join(", "))),
                    }
                } else {
                    problem.help("check the spelling against the `enum` declaration")
                };
                self.report(problem);
                Self::error_expr(span)
            }
        }
    }

    /// A procedure where a value is needed: it has none.
    fn procedure_as_value(&mut self, ident: &ast::Ident, span: Span) -> (Expr, Type) {
        self.error(
            Code::WrongKind,
            format!("`{}` is a procedure: it does things and has no value", ident.name),
            span,
            "not a value",
            format!("call it as a statement of its own, `{}(...)`; for a value, declare a definition `define {}(...): TYPE = ...`", ident.name, ident.name),
        );
        Self::error_expr(span)
    }

    fn call(&mut self, func: &ast::Ident, args: &[ast::Arg], span: Span) -> (Expr, Type) {
        if let Some(named) = args.iter().find_map(|a| a.name.as_ref()) {
            self.error(
                Code::Arguments,
                "named arguments are only for `card(...)`",
                named.span,
                "unexpected name",
                "pass the values in order",
            );
        }
        let values: Vec<&ast::Expr> = args.iter().map(|a| &a.value).collect();
        match self.globals.get(&func.name).map(|g| g.0) {
            Some(Global::Fn(f)) => return self.call_definition(f, func, &values, span),
            Some(Global::Member(e, m)) => return self.make_enum(e, m, func, &values, span),
            Some(Global::Procedure(_)) if self.lookup_local(&func.name).is_none() => {
                return self.procedure_as_value(func, span);
            }
            _ => {}
        }
        match builtin(&func.name) {
            Some(b) => self.call_builtin(b, func, &values, span),
            None => {
                let mut names: Vec<&str> = Vec::new();
                if self.may_suggest(super::types::BUILTIN_NAMES.len() + self.functions.len()) {
                    names.extend(super::types::BUILTIN_NAMES);
                    names.extend(self.functions.iter().map(|f| f.name.as_str()));
                }
                let problem = Problem::new(
                    Code::UnknownName,
                    format!("unknown function `{}`", func.name),
                    func.span,
                    "not a function",
                );
                self.report(match did_you_mean(&func.name, names.iter().copied()) {
                    Some(s) => problem.did_you_mean(func.span, &func.name, s),
                    None => problem
                        .help("functions are the built-ins listed in LANGUAGE.md and those declared with `define`"),
                });
                for a in values {
                    self.expr(a);
                }
                Self::error_expr(span)
            }
        }
    }

    /// Whether a call has `n` arguments; reports it with how to call it (`usage`) if not.
    fn arity(&mut self, func: &ast::Ident, args: &[&ast::Expr], n: usize, span: Span, usage: &str) -> bool {
        if args.len() == n {
            return true;
        }
        let s = if n == 1 { "" } else { "s" };
        self.error(
            Code::Arguments,
            format!("`{}` takes {n} argument{s}, not {}", func.name, args.len()),
            span,
            format!("{} given", args.len()),
            format!("call it as `{usage}`"),
        );
        false
    }

    fn call_definition(&mut self, f: FnId, func: &ast::Ident, args: &[&ast::Expr], span: Span) -> (Expr, Type) {
        let sig = self.fn_sigs[f as usize].clone();
        let types: Vec<String> = sig.params.iter().map(|t| self.param_type_name(t)).collect();
        let usage = format!("{}({})", func.name, types.join(", "));
        if !self.arity(func, args, sig.params.len(), span, &usage) {
            return Self::error_expr(span);
        }
        // A `zone` parameter's argument picks the instance; its seat or side is the value passed.
        let (mut xs, mut zones) = (Vec::new(), Vec::new());
        for (a, t) in args.iter().zip(&sig.params) {
            if *t != Type::Cards {
                xs.push(self.expect(a, t, "the argument"));
                continue;
            }
            let (zone, index) = self.pile_argument(a, &func.name).unwrap_or((0, None));
            zones.push(zone);
            xs.push(index.unwrap_or(node(ExprKind::Const(Value::None), a.span)));
        }
        let f = self.instance(f, zones);
        if let Some(caller) = self.current_fn {
            self.calls.push((caller, f, func.span));
        }
        (node(ExprKind::Call(f, xs), span), sig.ret)
    }

    fn make_enum(&mut self, e: EnumId, m: u16, func: &ast::Ident, args: &[&ast::Expr], span: Span) -> (Expr, Type) {
        let Some((_, pty)) = self.enums[e as usize].members[m as usize].payload.clone() else {
            self.error(
                Code::Arguments,
                format!("`{}` takes no payload", func.name),
                span,
                "not a member with a payload",
                format!("write `{}` alone", func.name),
            );
            return Self::error_expr(span);
        };
        let usage = format!("{}({})", func.name, self.type_name(&pty));
        if !self.arity(func, args, 1, span, &usage) {
            return Self::error_expr(span);
        }
        let x = self.expect(args[0], &pty, "the payload");
        (node(ExprKind::MakeEnum(e, m, boxed(x)), span), Type::Enum(e))
    }

    fn call_builtin(&mut self, b: Builtin, func: &ast::Ident, args: &[&ast::Expr], span: Span) -> (Expr, Type) {
        use Builtin::*;
        let (params, ret): (Vec<Type>, Type) = match b {
            Left | Right | Opposite => (vec![Type::Seat], Type::Seat),
            Next => (vec![Type::Seat, Type::Int], Type::Seat),
            Others => (vec![Type::Seat], Type::List(Box::new(Type::Seat))),
            SideOf => (vec![Type::Seat], Type::Side.opt()),
            Members => (vec![Type::Side], Type::List(Box::new(Type::Seat))),
            Holder | Player => (vec![Type::Card], Type::Seat.opt()),
            Abs => (vec![Type::Int], Type::Int),
            Max | Min => (vec![Type::Int, Type::Int], Type::Int),
            Count | First | Last | Ord => return self.call_generic(b, func, args, span),
        };
        if !self.arity(func, args, params.len(), span, super::types::usage(b)) {
            return Self::error_expr(span);
        }
        let xs = args.iter().zip(&params).map(|(a, t)| self.expect(a, t, "the argument")).collect();
        (node(ExprKind::Builtin(b, xs), span), ret)
    }

    /// `count`, `first`, `last` and `ord`, whose argument may be of several types.
    fn call_generic(&mut self, b: Builtin, func: &ast::Ident, args: &[&ast::Expr], span: Span) -> (Expr, Type) {
        if !self.arity(func, args, 1, span, super::types::usage(b)) {
            return Self::error_expr(span);
        }
        let (x, t) = self.expr(args[0]);
        let x = iterable(x, &t);
        let (ok, ret, need) = match b {
            Builtin::Count => (element(&t).is_some(), Type::Int, "a zone, list or set"),
            Builtin::First | Builtin::Last => (
                matches!(t.base(), Type::Cards | Type::Group | Type::ZoneFamily(_) | Type::Error) || t.is_card_set(),
                Type::Card.opt(),
                "a zone or a set of cards",
            ),
            _ => (matches!(t.base(), Type::Enum(_) | Type::Error), Type::Int, "an enumeration value"),
        };
        if !ok {
            let g = self.a_type(&t);
            self.error(
                Code::TypeMismatch,
                format!("`{}` needs {need}, not {g}", func.name),
                args[0].span,
                format!("this is {g}"),
                format!("give `{}` {need}", func.name),
            );
        }
        (node(ExprKind::Builtin(b, vec![x]), span), ret)
    }

    /// `card(colour: red, rank: 0)`: the first card of the pack with these attributes.
    fn card_ref(&mut self, fields: &[(ast::Ident, ast::Expr)], span: Span) -> (Expr, Type) {
        let mut wanted = Vec::new();
        for (name, value) in fields {
            let Some(a) = self.attribute(name, false) else { return Self::error_expr(span) };
            let ty = self.attrs[a].ty.clone();
            let x = self.expect(value, &ty, "the attribute's value");
            match x.kind {
                ExprKind::Const(v) => wanted.push((a, v)),
                _ => {
                    self.error(Code::BadCard, "a card is named by constant attributes", value.span, "not a constant", "use values written out or parameters; to find a card by a variable, use `highest c in ... where ...`");
                    return Self::error_expr(span);
                }
            }
        }
        if self.cards.is_empty() {
            return (node(ExprKind::Const(Value::None), span), Type::Card);
        }
        match self.cards.iter().position(|card| wanted.iter().all(|(a, v)| card[*a] == *v)) {
            Some(c) => (node(ExprKind::Const(Value::Card(c as CardId)), span), Type::Card),
            None => {
                self.error(
                    Code::BadCard,
                    "no card of the pack has these attributes",
                    span,
                    "matches no card",
                    "check the values against the `deck`; with these parameters the pack may not hold it",
                );
                Self::error_expr(span)
            }
        }
    }

    fn if_expr(&mut self, cond: &ast::Expr, then: &ast::Expr, otherwise: &ast::Expr, span: Span) -> (Expr, Type) {
        let c = self.expect(cond, &Type::Bool, "the condition");
        let (t, tt) = self.expr(then);
        let (o, ot) = self.expr(otherwise);
        let ty = self.unify(&tt, &ot, otherwise.span, "both branches of `if`");
        let ty = self.single_value(ty, span, "`if`");
        (node(ExprKind::If(boxed(c), boxed(t), boxed(o)), span), ty)
    }

    /// Reports a text where a value is gone through or compared: a text is only printed.
    fn printed_only(&mut self, ty: &Type, span: Span) {
        if *ty == Type::Text {
            self.error(
                Code::TypeMismatch,
                "a text is only printed, not compared or kept in a list",
                span,
                "text",
                "choose between texts with `if` or `case` inside a template: `{if n == 0 then \"pass\" else \"play\"}`",
            );
        }
    }

    /// A conditional value must be one value: choosing between zones or lists is not supported.
    fn single_value(&mut self, ty: Type, span: Span, what: &str) -> Type {
        if !is_collection(&ty) {
            return ty;
        }
        let g = self.a_type(&ty);
        self.error(
            Code::WrongKind,
            format!("{what} chooses between collections ({g})"),
            span,
            "a choice of zones or lists",
            "choose between single values; for zones, write the two cases as statements with `if ... { } else { }`",
        );
        Type::Error
    }

    /// The type two alternatives share, reporting when they have none.
    fn unify(&mut self, a: &Type, b: &Type, span: Span, what: &str) -> Type {
        match (a, b) {
            (Type::NoneLit, t) | (t, Type::NoneLit) => t.clone().opt(),
            (Type::Error, t) | (t, Type::Error) => t.clone(),
            _ if fits(a, b) => a.clone(),
            _ if fits(b, a) => b.clone(),
            _ => {
                let (x, y) = (self.type_name(a), self.type_name(b));
                let help = match (a, b) {
                    (Type::Text, _) => "make this text too: `\"{...}\"` prints a value as text".to_string(),
                    _ => format!("make this {x} too"),
                };
                self.error(
                    Code::TypeMismatch,
                    format!("{what} must have one type, not {x} and {y}"),
                    span,
                    format!("this is {y}"),
                    help,
                );
                Type::Error
            }
        }
    }

    fn case(
        &mut self,
        scrutinee: &ast::Expr,
        arms: &[ast::CaseArm],
        otherwise: &ast::Expr,
        span: Span,
    ) -> (Expr, Type) {
        let (s, st) = self.expr(scrutinee);
        self.printed_only(&st, scrutinee.span);
        let mut ty: Option<Type> = None;
        let mut out = Vec::new();
        for arm in arms {
            let patterns = arm.patterns.iter().map(|p| self.expect(p, &st, "a `case` pattern")).collect();
            let (v, vt) = self.expr(&arm.value);
            ty = Some(match ty {
                None => vt,
                Some(t) => self.unify(&t, &vt, arm.value.span, "every arm of `case`"),
            });
            out.push((patterns, v));
        }
        let (o, ot) = self.expr(otherwise);
        let ty = match ty {
            None => ot,
            Some(t) => self.unify(&t, &ot, otherwise.span, "every arm of `case`"),
        };
        let ty = self.single_value(ty, span, "`case`");
        (node(ExprKind::Case(boxed(s), out, boxed(o)), span), ty)
    }

    /// `last 3 of played`: the top (or bottom) cards of one pile, gone through, counted and moved
    /// like a `cards c in ... where ...` selection.
    fn pile_end(&mut self, last: bool, count: &ast::Expr, pile: &ast::Expr, span: Span) -> (Expr, Type) {
        let n = self.expect(count, &Type::Int, "how many cards");
        let (p, t) = self.expr(pile);
        if !matches!(p.kind, ExprKind::Zone(..)) && t != Type::Error {
            let (g, side) = (self.a_type(&t), if last { "last" } else { "first" });
            self.error(
                Code::WrongKind,
                format!("`{side} N of` takes the cards of one pile, not {g}"),
                pile.span,
                "not one pile",
                match t {
                    Type::ZoneFamily(_) => format!("say which seat's pile: `{side} 3 of hand[s]`"),
                    _ => format!("name a zone, such as `{side} 3 of played`"),
                },
            );
        }
        (node(ExprKind::PileEnd(last, boxed(n), boxed(p)), span), Type::Cards)
    }

    fn list(&mut self, items: &[ast::Expr], span: Span) -> (Expr, Type) {
        let mut ty = Type::Error;
        let mut xs = Vec::new();
        for item in items {
            let (x, t) = self.expr(item);
            self.printed_only(&t, item.span);
            ty = if xs.is_empty() { t } else { self.unify(&ty, &t, item.span, "the items of a list") };
            xs.push(x);
        }
        (node(ExprKind::List(xs), span), Type::List(Box::new(ty)))
    }

    /// The element type of a domain, reporting when it cannot be iterated.
    pub(super) fn domain(&mut self, e: &ast::Expr) -> (Expr, Type) {
        let (x, t) = self.expr(e);
        let x = iterable(x, &t);
        match element(&t) {
            Some(elem) => (x, elem),
            None => {
                let g = self.a_type(&t);
                self.error(
                    Code::TypeMismatch,
                    format!("cannot go through {g}"),
                    e.span,
                    "not a collection",
                    "iterate over a zone, `seats`, `sides`, an enumeration, a range `1..n` or a list",
                );
                (x, Type::Error)
            }
        }
    }

    fn aggregate(
        &mut self,
        op: AggOp,
        binder: &ast::Ident,
        domain: &ast::Expr,
        filter: Option<&ast::Expr>,
        body: Option<&ast::Expr>,
        span: Span,
    ) -> (Expr, Type) {
        let (dx, elem) = self.domain(domain);
        if op == AggOp::Cards && !matches!(elem, Type::Card | Type::Error) {
            self.error(
                Code::TypeMismatch,
                "`cards` filters a zone",
                domain.span,
                "not cards",
                "write `cards c in hand[s] where ...`",
            );
        }
        self.scoped(|c| {
            let slot = c.bind(&binder.name, elem.clone(), false);
            let filter = filter.map(|f| c.expect(f, &Type::Bool, "the `where` condition"));
            let (body, ty) = c.aggregate_body(op, body, &elem, span);
            let agg = Aggregate { op, slot, domain: dx, filter, body };
            (node(ExprKind::Aggregate(Box::new(agg)), span), ty)
        })
    }

    fn aggregate_body(&mut self, op: AggOp, body: Option<&ast::Expr>, elem: &Type, span: Span) -> (Option<Expr>, Type) {
        let needs_body = matches!(op, AggOp::Sum | AggOp::Max | AggOp::Min | AggOp::Highest | AggOp::Lowest);
        match (body, needs_body) {
            (None, true) => {
                let word = if matches!(op, AggOp::Highest | AggOp::Lowest) { "by" } else { "of" };
                self.error(
                    Code::Syntax,
                    format!("this aggregate needs `{word} ...`"),
                    span,
                    format!("missing `{word}`"),
                    format!("say what to compare, e.g. `{word} c.rank`"),
                );
                (None, Type::Error)
            }
            (Some(b), false) => {
                self.error(
                    Code::Syntax,
                    "this aggregate takes no `of`/`by` part",
                    b.span,
                    "unexpected",
                    "`count`, `exists`, `every`, `first` and `cards` take only `where`",
                );
                (None, self.aggregate_type(op, elem))
            }
            (None, false) => (None, self.aggregate_type(op, elem)),
            (Some(b), true) => {
                let (x, t) = self.expr(b);
                let ok = if matches!(op, AggOp::Sum) { fits(&Type::Int, &t) } else { ordered(&t) };
                if !ok {
                    let g = self.a_type(&t);
                    self.error(
                        Code::TypeMismatch,
                        format!("cannot compare or add up {g}"),
                        b.span,
                        format!("this is {g}"),
                        "give a number (or, for highest/lowest, an enumeration value)",
                    );
                }
                let ty = match op {
                    AggOp::Highest | AggOp::Lowest => elem.clone(),
                    AggOp::Max | AggOp::Min if matches!(t.base(), Type::Enum(_)) => t.base().clone(),
                    _ => Type::Int,
                };
                (Some(x), ty)
            }
        }
    }

    fn aggregate_type(&self, op: AggOp, elem: &Type) -> Type {
        match op {
            AggOp::Count => Type::Int,
            AggOp::Exists | AggOp::Every => Type::Bool,
            AggOp::First => elem.clone().opt(),
            _ => Type::Cards,
        }
    }

    /// Checks a value to be stored, which must not be a collection or `none` of unknown type.
    pub(super) fn storable_expr(&mut self, e: &ast::Expr) -> (Expr, Type) {
        let (x, t) = self.expr(e);
        let t = self.list_as_set(&x, t);
        if t == Type::NoneLit {
            self.error(
                Code::TypeMismatch,
                "the type of `none` is not known here",
                e.span,
                "needs a type",
                "give the name an optional type, e.g. `let leader: seat? = none`",
            );
            return (x, Type::Error);
        }
        if !storable(&t) && t != Type::Error {
            let g = self.a_type(&t);
            self.error(
                Code::WrongKind,
                format!("{g} cannot be kept in a name"),
                e.span,
                "not a single value",
                match t {
                    Type::Cards | Type::ZoneFamily(_) => {
                        "a zone is a place, not a value: name the zone itself where it is needed, keep one of its cards, or keep the cards it holds now as a set: `let h: set of card = hand[s]`"
                    }
                    Type::Group => "use the group's name where it is needed, to the end of its block, keep its cards as a set (`let kept: set of card = p`), or move its cards to a zone",
                    Type::List(_) => {
                        "a list written out (`[a, b]`) of enumeration values or seats is kept as a set; for an empty one, or a list of another kind, give the set's type: `let seen: set of Rank = []`"
                    }
                    _ => "use it where it is needed, or keep a single value (a card, a seat, a number)",
                },
            );
            return (x, Type::Error);
        }
        (x, t)
    }
}

impl Checker {
    /// A list written out (`[a, b]`) of enumeration values or seats, kept as the set of them.
    fn list_as_set(&self, x: &Expr, t: Type) -> Type {
        match (&x.kind, t) {
            (ExprKind::List(_), Type::List(elem)) if self.settable(&elem) => Type::Set(elem),
            (_, t) => t,
        }
    }

    /// Whether a set can hold values of this type: seats, cards, or an enumeration of at most
    /// 64 values.
    pub(super) fn settable(&self, elem: &Type) -> bool {
        match elem {
            Type::Seat | Type::Card => true,
            Type::Enum(e) => self.enums[*e as usize].values.len() <= 64,
            _ => false,
        }
    }
}

/// A set's value, wrapped so that it is gone through member by member where it is iterated (a
/// set of cards is gone through as it is, like the group it is kept as).
pub(super) fn iterable(x: Expr, t: &Type) -> Expr {
    match t.base() {
        Type::Set(elem) if **elem != Type::Card => {
            let span = x.span;
            node(ExprKind::SetMembers(boxed(x), **elem == Type::Seat), span)
        }
        _ => x,
    }
}

/// `[]` where a set of cards is wanted: the empty set of cards (a list written out is a set of
/// whatever it holds, and an empty one holds nothing to tell).
/// Whether values of type `t` are cards kept as a set where one is wanted: a pile, a group, a
/// selection or a list of cards.
fn holds_cards(t: &Type) -> bool {
    match t.base() {
        Type::Cards | Type::Group | Type::ZoneFamily(_) => true,
        Type::List(elem) => *elem.base() == Type::Card,
        _ => false,
    }
}

pub(super) fn as_card_set(x: Expr, want: &Type) -> Expr {
    match &x.kind {
        ExprKind::List(items) if items.is_empty() && want.is_card_set() => {
            node(ExprKind::Const(Value::Group(CardGroup::EMPTY)), x.span)
        }
        _ => x,
    }
}

fn fold_neg(x: Expr, span: Span) -> Expr {
    match x.kind {
        ExprKind::Const(Value::Int(n)) if n != i64::MIN => node(ExprKind::Const(Value::Int(-n)), span),
        _ => node(ExprKind::Neg(boxed(x)), span),
    }
}

/// A comparison's operator and the operator of its negation: `("<", ">=")`.
fn comparison_words(op: BinOp) -> (&'static str, &'static str) {
    match op {
        BinOp::Eq => ("==", "!="),
        BinOp::Ne => ("!=", "=="),
        BinOp::Lt => ("<", ">="),
        BinOp::Le => ("<=", ">"),
        BinOp::Gt => (">", "<="),
        _ => (">=", "<"),
    }
}

fn fold_not(x: Expr, span: Span) -> Expr {
    match x.kind {
        ExprKind::Const(Value::Bool(b)) => node(ExprKind::Const(Value::Bool(!b)), span),
        _ => node(ExprKind::Not(boxed(x)), span),
    }
}

/// Folds operations on constants, so that conditions on parameters are known to the checker.
/// An operation that overflows is left for the evaluator to report.
fn fold_binary(op: BinOp, l: Expr, r: Expr, span: Span) -> Expr {
    use Value::*;
    let folded = match (op, &l.kind, &r.kind) {
        (BinOp::And, ExprKind::Const(Bool(a)), ExprKind::Const(Bool(b))) => Some(Bool(*a && *b)),
        (BinOp::Or, ExprKind::Const(Bool(a)), ExprKind::Const(Bool(b))) => Some(Bool(*a || *b)),
        (BinOp::And, ExprKind::Const(Bool(false)), _) | (BinOp::And, _, ExprKind::Const(Bool(false))) => {
            Some(Bool(false))
        }
        (BinOp::Or, ExprKind::Const(Bool(true)), _) | (BinOp::Or, _, ExprKind::Const(Bool(true))) => Some(Bool(true)),
        // `x or false` and `x and true` are `x`.
        (BinOp::Or, ExprKind::Const(Bool(false)), _) | (BinOp::And, ExprKind::Const(Bool(true)), _) => return r,
        (BinOp::Or, _, ExprKind::Const(Bool(false))) | (BinOp::And, _, ExprKind::Const(Bool(true))) => return l,
        (BinOp::Add, ExprKind::Const(Int(a)), ExprKind::Const(Int(b))) => a.checked_add(*b).map(Int),
        (BinOp::Sub, ExprKind::Const(Int(a)), ExprKind::Const(Int(b))) => a.checked_sub(*b).map(Int),
        (BinOp::Mul, ExprKind::Const(Int(a)), ExprKind::Const(Int(b))) => a.checked_mul(*b).map(Int),
        (BinOp::Eq, ExprKind::Const(a), ExprKind::Const(b)) => Some(Bool(a == b)),
        (BinOp::Ne, ExprKind::Const(a), ExprKind::Const(b)) => Some(Bool(a != b)),
        (BinOp::Lt, ExprKind::Const(Int(a)), ExprKind::Const(Int(b))) => Some(Bool(a < b)),
        (BinOp::Le, ExprKind::Const(Int(a)), ExprKind::Const(Int(b))) => Some(Bool(a <= b)),
        (BinOp::Gt, ExprKind::Const(Int(a)), ExprKind::Const(Int(b))) => Some(Bool(a > b)),
        (BinOp::Ge, ExprKind::Const(Int(a)), ExprKind::Const(Int(b))) => Some(Bool(a >= b)),
        _ => Option::None,
    };
    match folded {
        Some(v) => node(ExprKind::Const(v), span),
        Option::None => node(ExprKind::Binary(op, boxed(l), boxed(r)), span),
    }
}
