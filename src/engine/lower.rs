//! Lowering a compiled game into the interpreter's [`Program`]: one pass over the game's blocks,
//! definitions, variables, `show` lines and result, turning each expression into its lowered
//! form (see the module documentation of [`super::program`]).

use super::layout::Layout;
use super::program::*;
use crate::game::*;
use crate::vocab::{AggOp, BinOp, Span};
use rand::{RngExt, SeedableRng};

impl Program {
    /// Lowers a game. Nothing here can fail: the checker has seen to the names and types, and
    /// what is still wrong (a value of the wrong kind) is lowered into a node that stops the
    /// match at run time, as the checker's evaluator would.
    pub fn new(game: &Game) -> Program {
        Program::with(game, |_| ()).0
    }

    /// A game lowered with more of its expressions, lowered by `more` (parts of a condition to
    /// work out one by one): their places in the rule file are kept with the program's.
    pub(super) fn with<T>(game: &Game, more: impl FnOnce(&mut Lower<'_>) -> T) -> (Program, T) {
        let layout = Layout::of(game);
        let mut low = Lower { game, layout: &layout, spans: Vec::new(), tables: Vec::new() };
        let blocks = game.blocks.iter().map(|b| b.stmts.iter().map(|s| low.stmt(&s.kind)).collect()).collect();
        let functions = game
            .functions
            .iter()
            .map(|f| Func {
                params: f.params.clone(),
                body: low.expr(&f.body),
                depth: depth(&f.body),
                kept: f.kept(),
                memo: f.memo,
            })
            .collect();
        let inits = game.vars.iter().map(|v| low.expr(&v.init)).collect();
        let resets = (0..game.phases.len() as PhaseId)
            .map(|p| (0..game.vars.len() as VarId).filter(|v| game.vars[*v as usize].reset == Some(p)).collect())
            .collect();
        let shows = game
            .shows
            .iter()
            .map(|s| ShowX {
                each: s.each.as_ref().map(|b| low.bind(b)),
                text: low.expr(&s.text),
                when: s.when.as_ref().map(|w| low.expr(w)),
            })
            .collect();
        let r = &game.result;
        let ties = r.ties.iter().map(|t| low.expr(t)).collect();
        let result = ResultX { slot: r.slot, domain: low.domain(&r.domain), key: low.expr(&r.key), ties };
        let solves = game
            .solves
            .iter()
            .map(|s| {
                let spec =
                    ResultX { slot: s.slot, domain: low.domain(&s.domain), key: low.expr(&s.key), ties: Vec::new() };
                (s.phase, spec)
            })
            .collect();
        let counts = game.phases.iter().map(|p| p.of.as_ref().map(|e| low.expr(e))).collect();
        let sheet = game.sheet.as_ref().map(|s| {
            let domain = low.domain(&s.domain);
            let each = Bind { slot: s.slot, domain, start: None, filter: None };
            (s.phase, ShowX { each: Some(each), text: low.expr(&s.text), when: None })
        });
        let extra = more(&mut low);
        let (spans, tables) = (low.spans, low.tables);
        let zobrist = zobrist(game.cards.len() * layout.pile_zone.len());
        let program = Program {
            layout,
            blocks,
            functions,
            inits,
            resets,
            shows,
            result,
            solves,
            counts,
            sheet,
            spans,
            tables,
            zobrist,
        };
        (program, extra)
    }
}

/// The random numbers of the position hash, the same for every run.
fn zobrist(n: usize) -> Vec<u64> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x05ee_d0fc_a4d5);
    (0..n).map(|_| rng.random()).collect()
}

/// How deeply an expression's values nest (a definition's call counts one).
fn depth(e: &Expr) -> usize {
    1 + e.children().into_iter().map(depth).max().unwrap_or(0)
}

/// A lowering in progress.
pub(super) struct Lower<'a> {
    pub game: &'a Game,
    layout: &'a Layout,
    spans: Vec<Span>,
    /// The per-card tables made so far for card conditions.
    pub tables: Vec<super::mask::Table>,
}

impl Lower<'_> {
    pub(super) fn at(&mut self, span: Span) -> At {
        self.spans.push(span);
        (self.spans.len() - 1) as At
    }

    pub(super) fn var_slot(&self, v: VarId) -> u32 {
        self.layout.var_base[v as usize] as u32
    }

    fn var_count(&self, v: VarId) -> u16 {
        let info = &self.game.vars[v as usize];
        per_owner(info.owner, self.game.seats.len(), self.game.sides.len()) as u16
    }

    fn stmt(&mut self, kind: &StmtKind) -> Op {
        match kind {
            StmtKind::Assign(target, op, e) => Op::Assign(self.target(target), *op, self.expr(e)),
            StmtKind::Random(target, binding) => Op::Random(self.target(target), self.bind(binding)),
            StmtKind::If(c, t, o) => Op::If(self.expr(c), *t, *o),
            StmtKind::For(bindings, body) => Op::For(bindings.iter().map(|b| self.bind(b)).collect(), *body),
            StmtKind::Repeat(n, body) => Op::Repeat(self.expr(n), *body),
            StmtKind::RepeatUntil(c, body) => Op::RepeatUntil(self.expr(c), *body),
            StmtKind::While(c, body) => Op::While(self.expr(c), *body),
            StmtKind::Phase(p, body) => Op::Phase(*p, *body),
            StmtKind::Call(body) => Op::Call(*body),
            StmtKind::Choose(c) => Op::Choose(Box::new(self.ask(c))),
            StmtKind::Simultaneously(b, c, rest) => Op::Together(self.bind(b), Box::new(self.ask(c)), *rest),
            StmtKind::Move { random, cards, to } => {
                Op::Move { random: random.as_ref().map(|n| self.expr(n)), cards: self.domain(cards), to: self.pile(to) }
            }
            StmtKind::Shuffle(z) => Op::Shuffle(self.pile(z)),
            StmtKind::Deal { count, from, to, starting } => Op::Deal {
                count: count.as_ref().map(|n| self.expr(n)),
                from: self.pile(from),
                to: *to,
                starting: starting.as_ref().map(|s| self.expr(s)),
            },
            StmtKind::Say(text) => Op::Say(self.expr(text)),
            StmtKind::Reveal(cards) => Op::Reveal(self.domain(cards)),
            StmtKind::Redo(p) => Op::Redo(*p),
            StmtKind::End(p) => Op::End(*p),
            StmtKind::MakeCard(_) => Op::Nothing,
        }
    }

    fn ask(&mut self, c: &Choose) -> Ask {
        Ask {
            slot: c.slot,
            menu: c.menu,
            group: c.group.as_ref().map(|g| (self.expr(&g.least), g.most.as_ref().map(|m| self.expr(m)))),
            elem: c.elem.clone(),
            domains: c.domains.iter().map(|d| self.domain(d)).collect(),
            by: self.expr(&c.by),
            tiers: c
                .tiers
                .iter()
                .map(|t| (t.cond.as_ref().map(|x| self.pred(x, c.slot, c.elem == Type::Card)), t.then))
                .collect(),
            declare: c.declare.as_ref().map(|(slot, name, when)| (*slot, name.clone(), self.expr(when))),
            label: c.label.as_ref().map(|l| self.expr(l)),
            at: self.at(c.span),
        }
    }

    fn target(&mut self, t: &Target) -> Tgt {
        match t {
            Target::Local(s) => Tgt::Local(*s),
            Target::Var(v) => Tgt::Var(self.var_slot(*v)),
            Target::VarAt(v, ix) => Tgt::VarAt(self.var_slot(*v), self.var_count(*v), self.expr(ix)),
        }
    }

    fn bind(&mut self, b: &Binding) -> Bind {
        Bind {
            slot: b.slot,
            domain: self.domain(&b.domain),
            start: b.start.as_ref().map(|s| self.expr(s)),
            filter: b.filter.as_ref().map(|f| self.pred(f, b.slot, of_cards(&b.domain))),
        }
    }

    /// A condition on the element bound to `slot`; `cards` when the elements are cards, so that
    /// it is also lowered into a mask where it can be.
    pub(super) fn pred(&mut self, e: &Expr, slot: Slot, cards: bool) -> Pred {
        let mask = if cards { self.card_mask(e, slot) } else { None };
        let each = self.expr(e);
        match mask {
            Some(m) => Pred::Cards(m, each),
            None => Pred::Each(each),
        }
    }

    /// The single pile a zone expression names.
    pub(super) fn pile(&mut self, e: &Expr) -> P {
        let kind = match &e.kind {
            ExprKind::Zone(z, None) => PKind::Fixed(self.layout.zone_base[*z as usize] as u32),
            ExprKind::Zone(z, Some(ix)) => {
                PKind::Owned(self.layout.zone_base[*z as usize] as u32, self.layout.piles(*z) as u16, self.expr(ix))
            }
            _ => PKind::Invalid,
        };
        P { kind, at: self.at(e.span) }
    }

    /// An expression gone through element by element.
    pub(super) fn domain(&mut self, e: &Expr) -> D {
        let kind = match &e.kind {
            ExprKind::Seats => DKind::Seats,
            ExprKind::Sides => DKind::Sides,
            ExprKind::EnumValues(en) => DKind::Values(self.game.enums[*en as usize].values.len() as u16),
            ExprKind::List(xs) => DKind::List(xs.iter().map(|x| self.expr(x)).collect()),
            ExprKind::Binary(BinOp::Range, lo, hi) => DKind::Range(self.expr(lo), self.expr(hi)),
            ExprKind::Builtin(Builtin::Others, args) => match args.first() {
                Some(a) => DKind::Others(self.expr(a)),
                None => DKind::One(self.invalid(e.span)),
            },
            ExprKind::Builtin(Builtin::Members, args) => match args.first() {
                Some(a) => DKind::Members(self.expr(a)),
                None => DKind::One(self.invalid(e.span)),
            },
            ExprKind::Zone(..) => DKind::Pile(self.pile(e)),
            ExprKind::ZoneAll(z) => {
                DKind::Piles(self.layout.zone_base[*z as usize] as u32, self.layout.piles(*z) as u32)
            }
            ExprKind::Aggregate(a) if a.op == AggOp::Cards => {
                let inner = self.domain(&a.domain);
                let pred = match &a.filter {
                    Some(f) => self.pred(f, a.slot, true),
                    None => Pred::Each(self.expr(&Expr { kind: ExprKind::Const(Value::Bool(true)), span: e.span })),
                };
                DKind::Filter(Box::new(inner), a.slot, pred)
            }
            ExprKind::SetMembers(x, seats) => DKind::SetMembers(self.expr(x), *seats),
            ExprKind::PileEnd(last, n, pile) => DKind::End(self.pile(pile), self.expr(n), *last),
            _ => DKind::One(self.expr(e)),
        };
        D { kind, at: self.at(e.span) }
    }
}

/// Whether a domain is made of cards from piles.
pub(super) fn of_cards(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Zone(..) | ExprKind::ZoneAll(_) | ExprKind::PileEnd(..))
        || matches!(&e.kind, ExprKind::Aggregate(a) if a.op == AggOp::Cards)
}

/// What the lowering makes of conditions on cards and of values of cards, for the compiled
/// engine, which must work them out the same way (a condition worked out as a mask over the
/// pack writes no local name; a value looked up in a table is not worked out at all).
pub(crate) struct CardLowering<'a> {
    low: Lower<'a>,
}

impl<'a> CardLowering<'a> {
    pub(crate) fn new(game: &'a Game, layout: &'a Layout) -> CardLowering<'a> {
        CardLowering { low: Lower { game, layout, spans: Vec::new(), tables: Vec::new() } }
    }

    /// How a condition on the card bound to `slot` is worked out as a mask over the pack, if
    /// it is (its tables are in [`CardLowering::tables`]).
    pub(crate) fn plan<'e>(&mut self, e: &'e Expr, slot: Slot) -> Option<super::mask::Mask<&'e Expr>>
    where
        'a: 'e,
    {
        self.low.card_plan(e, slot)
    }

    /// The per-card tables the plans made so far look values up in.
    pub(crate) fn tables(&self) -> &[super::mask::Table] {
        &self.low.tables
    }

    /// The value and key of an aggregate's body for every card, if the lowering works them out
    /// in advance.
    pub(crate) fn keys(&self, e: &Expr, slot: Slot) -> Option<Vec<(Value, i64)>> {
        self.low.card_keys(e, slot)
    }
}
