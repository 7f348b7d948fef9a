//! Blocks and statements, but for decisions (in `decisions`).

use super::*;

impl<'s, 'p> Reader<'s, 'p> {
    pub(super) fn block(&self, pair: Node<'s>) -> Option<Block> {
        let span = self.span(&pair);
        let stmts = Children::of(pair).map(|p| self.stmt(p)).collect::<Option<_>>()?;
        Some(Block { stmts, span })
    }

    pub(super) fn stmt(&self, pair: Node<'s>) -> Option<Stmt> {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::let_stmt => self.let_stmt(pair)?,
            Rule::assign_stmt => self.assign_stmt(pair)?,
            Rule::call_stmt => self.call_stmt(pair)?,
            Rule::if_stmt => self.if_stmt(pair)?,
            Rule::for_stmt => self.for_stmt(pair)?,
            Rule::repeat_stmt => self.repeat_stmt(pair)?,
            Rule::while_stmt => self.while_stmt(pair)?,
            Rule::phase_stmt => self.phase_stmt(pair)?,
            Rule::choose_stmt => StmtKind::Choose(Box::new(self.choose_stmt(pair)?)),
            Rule::simultaneous_stmt => self.simultaneous_stmt(pair)?,
            Rule::move_stmt => self.move_stmt(pair)?,
            Rule::shuffle_stmt => self.shuffle_stmt(pair)?,
            Rule::deal_stmt => self.deal_stmt(pair)?,
            Rule::say_stmt => self.say_stmt(pair)?,
            Rule::reveal_stmt => self.reveal_stmt(pair)?,
            Rule::redo_stmt => self.redo_stmt(pair)?,
            Rule::end_stmt => self.end_stmt(pair)?,
            Rule::make_card_stmt => self.make_card_stmt(pair)?,
            _ => return None,
        };
        Some(Stmt { kind, span })
    }

    pub(super) fn let_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        let name = self.ident(children.next()?);
        let ty = match children.maybe(Rule::type_expr) {
            Some(ty) => Some(self.type_expr(ty)?),
            None => None,
        };
        Some(StmtKind::Let { name, ty, value: self.rhs(children.next()?)? })
    }

    pub(super) fn assign_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        Some(StmtKind::Assign {
            target: self.place(children.next()?)?,
            op: self.assign_op(children.next()?)?,
            value: self.rhs(children.next()?)?,
        })
    }

    pub(super) fn place(&self, pair: Node<'s>) -> Option<Place> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(Place {
            name: self.ident(children.next()?),
            index: match children.next() {
                Some(index) => Some(self.expr(index)?),
                None => None,
            },
            span,
        })
    }

    pub(super) fn assign_op(&self, pair: Node<'s>) -> Option<AssignOp> {
        match pair.as_str() {
            "=" => Some(AssignOp::Set),
            "+=" => Some(AssignOp::Add),
            "-=" => Some(AssignOp::Sub),
            _ => None,
        }
    }

    pub(super) fn rhs(&self, pair: Node<'s>) -> Option<Rhs> {
        let value = Children::of(pair).next()?;
        match value.as_rule() {
            Rule::random_pick => Some(Rhs::Random(Box::new(self.random_pick(value)?))),
            _ => Some(Rhs::Expr(self.expr(value)?)),
        }
    }

    pub(super) fn random_pick(&self, pair: Node<'s>) -> Option<Binding> {
        self.binding(Children::of(pair).next()?)
    }

    pub(super) fn if_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        let cond = self.expr(children.next()?)?;
        let then = self.block(children.next()?)?;
        let otherwise = match children.next() {
            Some(next) if next.as_rule() == Rule::if_stmt => Some(self.else_if(next)?),
            Some(block) => Some(self.block(block)?),
            None => None,
        };
        Some(StmtKind::If { cond, then, otherwise })
    }

    /// `else if ...`: a block holding just that `if`.
    pub(super) fn else_if(&self, pair: Node<'s>) -> Option<Block> {
        let span = self.span(&pair);
        let kind = self.if_stmt(pair)?;
        Some(Block { stmts: vec![Stmt { kind, span }], span })
    }

    pub(super) fn for_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        Some(StmtKind::For {
            bindings: children.run_of(Rule::binding).map(|p| self.binding(p)).collect::<Option<_>>()?,
            body: self.block(children.next()?)?,
        })
    }

    pub(super) fn binding(&self, pair: Node<'s>) -> Option<Binding> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(Binding {
            name: self.ident(children.next()?),
            domain: self.expr(children.next()?)?,
            start: match children.maybe(Rule::start_at) {
                Some(start) => Some(self.start_at(start)?),
                None => None,
            },
            filter: match children.maybe(Rule::filter) {
                Some(filter) => Some(self.filter(filter)?),
                None => None,
            },
            span,
        })
    }

    pub(super) fn start_at(&self, pair: Node<'s>) -> Option<Expr> {
        self.expr(Children::of(pair).next()?)
    }

    pub(super) fn filter(&self, pair: Node<'s>) -> Option<Expr> {
        self.expr(Children::of(pair).next()?)
    }

    pub(super) fn repeat_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        let head = children.next()?;
        let body = self.block(children.next()?)?;
        Some(match head.as_rule() {
            Rule::until => StmtKind::RepeatUntil { cond: self.until(head)?, body },
            _ => StmtKind::Repeat { count: self.expr(head)?, body },
        })
    }

    pub(super) fn until(&self, pair: Node<'s>) -> Option<Expr> {
        self.expr(Children::of(pair).next()?)
    }

    pub(super) fn while_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        Some(StmtKind::While { cond: self.expr(children.next()?)?, body: self.block(children.next()?)? })
    }

    pub(super) fn phase_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        let name = self.ident(children.next()?);
        let title = match children.maybe(Rule::phase_title) {
            Some(title) => Some(self.phase_title(title)?),
            None => None,
        };
        Some(StmtKind::Phase { name, title, body: self.block(children.next()?)? })
    }

    /// `"trick" of hand_size`: the phase's name for players, and how many of it a round holds.
    pub(super) fn phase_title(&self, pair: Node<'s>) -> Option<PhaseTitle> {
        let mut children = Children::of(pair);
        let text = self.string(children.next()?);
        let of = match children.next() {
            Some(of) => Some(self.expr(of)?),
            None => None,
        };
        Some(PhaseTitle { text, of })
    }

    pub(super) fn simultaneous_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        Some(StmtKind::Simultaneously { binding: self.binding(children.next()?)?, body: self.block(children.next()?)? })
    }

    pub(super) fn move_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        Some(StmtKind::Move {
            random: match children.maybe(Rule::random_count) {
                Some(count) => Some(self.random_count(count)?),
                None => None,
            },
            cards: self.expr(children.next()?)?,
            to: self.expr(children.next()?)?,
        })
    }

    pub(super) fn random_count(&self, pair: Node<'s>) -> Option<Expr> {
        self.expr(Children::of(pair).next()?)
    }

    pub(super) fn shuffle_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        Some(StmtKind::Shuffle { zone: self.expr(Children::of(pair).next()?)? })
    }

    pub(super) fn deal_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        Some(StmtKind::Deal {
            count: self.deal_count(children.next()?)?,
            from: self.expr(children.next()?)?,
            to: self.ident(children.next()?),
            starting: match children.next() {
                Some(starting) => Some(self.starting(starting)?),
                None => None,
            },
        })
    }

    /// `all` (no count) or `N each`.
    pub(super) fn deal_count(&self, pair: Node<'s>) -> Option<Option<Expr>> {
        match Children::of(pair).next() {
            Some(count) => Some(Some(self.expr(count)?)),
            None => Some(None),
        }
    }

    pub(super) fn starting(&self, pair: Node<'s>) -> Option<Expr> {
        self.expr(Children::of(pair).next()?)
    }

    pub(super) fn call_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let mut children = Children::of(pair);
        let func = self.ident(children.next()?);
        Some(StmtKind::Call { func, args: children.map(|p| self.expr(p)).collect::<Option<_>>()? })
    }

    pub(super) fn say_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        Some(StmtKind::Say { text: self.template(Children::of(pair).next()?) })
    }

    pub(super) fn reveal_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        Some(StmtKind::Reveal { cards: self.expr(Children::of(pair).next()?)? })
    }

    pub(super) fn redo_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        Some(StmtKind::Redo { phase: self.ident(Children::of(pair).next()?) })
    }

    pub(super) fn end_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        Some(StmtKind::End { phase: self.ident(Children::of(pair).next()?) })
    }

    pub(super) fn make_card_stmt(&self, pair: Node<'s>) -> Option<StmtKind> {
        let fields = Children::of(pair).map(|p| self.field_init(p)).collect::<Option<_>>()?;
        Some(StmtKind::MakeCard { fields })
    }

    pub(super) fn field_init(&self, pair: Node<'s>) -> Option<(Ident, Option<Expr>)> {
        let mut children = Children::of(pair);
        let name = self.ident(children.next()?);
        let value = match children.next() {
            Some(value) => Some(self.expr(value)?),
            None => None,
        };
        Some((name, value))
    }
}
