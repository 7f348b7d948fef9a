//! Expressions: operators by precedence (pest's Pratt parser), then each primary form.

use super::*;

impl<'s, 'p> Reader<'s, 'p> {
    pub(super) fn expr(&self, pair: Node<'s>) -> Option<Expr> {
        if pair.as_rule() != Rule::expr {
            return None;
        }
        PRATT
            .map_primary(|p| self.primary(p))
            .map_prefix(|op, operand| self.prefix(op, operand?))
            .map_infix(|lhs, op, rhs| self.infix(lhs?, op, rhs?))
            .map_postfix(|operand, op| self.postfix(operand?, op))
            .parse(pair.into_inner())
    }

    pub(super) fn prefix(&self, op: Node<'s>, operand: Expr) -> Option<Expr> {
        let span = self.span(&op).to(operand.span);
        let op = match op.as_rule() {
            Rule::neg => UnOp::Neg,
            Rule::not => UnOp::Not,
            _ => return None,
        };
        Some(Expr { kind: ExprKind::Unary(op, Box::new(operand)), span })
    }

    pub(super) fn infix(&self, lhs: Expr, op: Node<'s>, rhs: Expr) -> Option<Expr> {
        let span = lhs.span.to(rhs.span);
        let op = match op.as_rule() {
            Rule::range_op => BinOp::Range,
            Rule::or => BinOp::Or,
            Rule::and => BinOp::And,
            Rule::in_op => BinOp::In,
            Rule::not_in => BinOp::NotIn,
            Rule::eq => BinOp::Eq,
            Rule::ne => BinOp::Ne,
            Rule::lt => BinOp::Lt,
            Rule::le => BinOp::Le,
            Rule::gt => BinOp::Gt,
            Rule::ge => BinOp::Ge,
            Rule::add => BinOp::Add,
            Rule::sub => BinOp::Sub,
            Rule::mul => BinOp::Mul,
            Rule::div => BinOp::Div,
            Rule::rem => BinOp::Rem,
            _ => return None,
        };
        Some(Expr { kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span })
    }

    pub(super) fn postfix(&self, operand: Expr, op: Node<'s>) -> Option<Expr> {
        let span = operand.span.to(self.span(&op));
        let kind = match op.as_rule() {
            Rule::field => ExprKind::Field(Box::new(operand), self.field(op)?),
            Rule::index => ExprKind::Index(Box::new(operand), Box::new(self.index(op)?)),
            Rule::is_test => ExprKind::Is(Box::new(operand), self.is_test(op)?),
            _ => return None,
        };
        Some(Expr { kind, span })
    }

    pub(super) fn field(&self, pair: Node<'s>) -> Option<Ident> {
        Some(self.ident(Children::of(pair).next()?))
    }

    pub(super) fn index(&self, pair: Node<'s>) -> Option<Expr> {
        self.expr(Children::of(pair).next()?)
    }

    pub(super) fn is_test(&self, pair: Node<'s>) -> Option<Ident> {
        Some(self.ident(Children::of(pair).next()?))
    }

    pub(super) fn primary(&self, pair: Node<'s>) -> Option<Expr> {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::paren => return self.paren(pair),
            Rule::if_expr => self.if_expr(pair)?,
            Rule::case_expr => self.case_expr(pair)?,
            Rule::aggregate => self.aggregate(pair)?,
            Rule::pile_end => self.pile_end(pair)?,
            Rule::filter_cards => self.filter_cards(pair)?,
            Rule::card_ref => self.card_ref(pair)?,
            Rule::list => self.list(pair)?,
            Rule::call => self.call(pair)?,
            Rule::bool_lit => ExprKind::Bool(self.bool_lit(pair)),
            Rule::none_lit => ExprKind::None,
            Rule::int => ExprKind::Int(self.int(pair).value),
            Rule::string => ExprKind::Text(self.template(pair)),
            Rule::ident => ExprKind::Name(self.ident(pair)),
            _ => return None,
        };
        Some(Expr { kind, span })
    }

    /// `( e )`: the expression inside, its span widened to the brackets.
    pub(super) fn paren(&self, pair: Node<'s>) -> Option<Expr> {
        let span = self.span(&pair);
        let inner = self.expr(Children::of(pair).next()?)?;
        Some(Expr { span, ..inner })
    }

    pub(super) fn if_expr(&self, pair: Node<'s>) -> Option<ExprKind> {
        let mut children = Children::of(pair);
        Some(ExprKind::If {
            cond: Box::new(self.expr(children.next()?)?),
            then: Box::new(self.expr(children.next()?)?),
            otherwise: Box::new(self.expr(children.next()?)?),
        })
    }

    pub(super) fn case_expr(&self, pair: Node<'s>) -> Option<ExprKind> {
        let mut children = Children::of(pair);
        Some(ExprKind::Case {
            scrutinee: Box::new(self.expr(children.next()?)?),
            arms: children.run_of(Rule::case_arm).map(|p| self.case_arm(p)).collect::<Option<_>>()?,
            otherwise: Box::new(self.expr(children.next()?)?),
        })
    }

    /// `a, b => value`: the last expression is the value, the others the patterns.
    pub(super) fn case_arm(&self, pair: Node<'s>) -> Option<CaseArm> {
        let span = self.span(&pair);
        let mut patterns = Children::of(pair).map(|p| self.expr(p)).collect::<Option<Vec<_>>>()?;
        let value = patterns.pop()?;
        Some(CaseArm { patterns, value, span })
    }

    pub(super) fn aggregate(&self, pair: Node<'s>) -> Option<ExprKind> {
        let mut children = Children::of(pair);
        Some(ExprKind::Aggregate {
            op: self.agg_op(children.next()?)?,
            binder: self.ident(children.next()?),
            domain: Box::new(self.expr(children.next()?)?),
            filter: match children.maybe(Rule::filter) {
                Some(filter) => Some(Box::new(self.filter(filter)?)),
                None => None,
            },
            body: match children.maybe(Rule::agg_body) {
                Some(body) => Some(Box::new(self.agg_body(body)?)),
                None => None,
            },
        })
    }

    /// `last 3 of played`: the side, how many (a number or a name), the pile.
    pub(super) fn pile_end(&self, pair: Node<'s>) -> Option<ExprKind> {
        let mut children = Children::of(pair);
        let last = children.next()?.as_str() == "last";
        let count = self.primary(Children::of(children.next()?).next()?)?;
        let pile = children.next()?;
        let span = self.span(&pile);
        let mut parts = Children::of(pile);
        let name = self.ident(parts.next()?);
        let zone = Expr { span: name.span, kind: ExprKind::Name(name) };
        let pile = match parts.next() {
            Some(index) => Expr { kind: ExprKind::Index(Box::new(zone), Box::new(self.index(index)?)), span },
            None => zone,
        };
        Some(ExprKind::PileEnd { last, count: Box::new(count), pile: Box::new(pile) })
    }

    pub(super) fn agg_op(&self, pair: Node<'s>) -> Option<AggOp> {
        Some(match pair.as_str() {
            "sum" => AggOp::Sum,
            "max" => AggOp::Max,
            "min" => AggOp::Min,
            "count" => AggOp::Count,
            "exists" => AggOp::Exists,
            "every" => AggOp::Every,
            "highest" => AggOp::Highest,
            "lowest" => AggOp::Lowest,
            "first" => AggOp::First,
            _ => return None,
        })
    }

    pub(super) fn agg_body(&self, pair: Node<'s>) -> Option<Expr> {
        self.expr(Children::of(pair).next()?)
    }

    pub(super) fn filter_cards(&self, pair: Node<'s>) -> Option<ExprKind> {
        let mut children = Children::of(pair);
        Some(ExprKind::Aggregate {
            op: AggOp::Cards,
            binder: self.ident(children.next()?),
            domain: Box::new(self.expr(children.next()?)?),
            filter: Some(Box::new(self.filter(children.next()?)?)),
            body: None,
        })
    }

    pub(super) fn card_ref(&self, pair: Node<'s>) -> Option<ExprKind> {
        let fields = Children::of(pair).map(|p| self.named_arg(p)).collect::<Option<_>>()?;
        Some(ExprKind::CardRef(fields))
    }

    pub(super) fn list(&self, pair: Node<'s>) -> Option<ExprKind> {
        let items = Children::of(pair).map(|p| self.expr(p)).collect::<Option<_>>()?;
        Some(ExprKind::List(items))
    }

    pub(super) fn call(&self, pair: Node<'s>) -> Option<ExprKind> {
        let mut children = Children::of(pair);
        Some(ExprKind::Call {
            func: self.ident(children.next()?),
            args: children.map(|p| self.arg(p)).collect::<Option<_>>()?,
        })
    }

    /// A call argument: `name: value` or a plain expression.
    pub(super) fn arg(&self, pair: Node<'s>) -> Option<Arg> {
        Some(match pair.as_rule() {
            Rule::named_arg => {
                let (name, value) = self.named_arg(pair)?;
                Arg { name: Some(name), value }
            }
            _ => Arg { name: None, value: self.expr(pair)? },
        })
    }

    pub(super) fn named_arg(&self, pair: Node<'s>) -> Option<(Ident, Expr)> {
        let mut children = Children::of(pair);
        Some((self.ident(children.next()?), self.expr(children.next()?)?))
    }

    pub(super) fn bool_lit(&self, pair: Node<'s>) -> bool {
        pair.as_str() == "true"
    }
}
