//! Card conditions as bitsets over the pack. A condition on a card (`c.colour == led`, a tier,
//! a filter) is lowered, where it can be, into an [`M`]: set operations on per-card tables made
//! when the game is lowered, so that the options of a decision or the cards an aggregate takes
//! are found with a few word operations instead of working the condition out card by card.
//!
//! Any part of a condition that depends only on the card (`c.kind == tf`, `category(c)`) is
//! worked out for every card in advance by the checker's evaluator. A comparison of such a part
//! with a value that does not depend on the card (`c.colour == trump`) looks the value up in the
//! part's table. `and`, `or`, `not` and `if` become set operations; a definition called with the
//! card is taken apart the same way. Whatever remains is worked out card by card ([`M::Each`]).
//! Packs of more than [`MASKED_CARDS`] cards are not masked.

use super::lower::Lower;
use super::program::X;
use crate::eval::constant::{Eval, Tables};
use crate::game::*;
use crate::vocab::BinOp;

/// The largest pack whose conditions are masked.
pub(super) const MASKED_CARDS: usize = 256;

/// A set of cards of a pack of at most [`MASKED_CARDS`] cards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct CardSet([u64; 4]);

impl CardSet {
    pub(crate) const EMPTY: CardSet = CardSet([0; 4]);

    pub(crate) fn with(mut self, card: CardId) -> CardSet {
        if let Some(w) = self.0.get_mut(card as usize / 64) {
            *w |= 1 << (card % 64);
        }
        self
    }

    pub(crate) fn has(&self, card: CardId) -> bool {
        self.0.get(card as usize / 64).is_some_and(|w| w >> (card % 64) & 1 == 1)
    }

    /// The set as four words, card `c` at bit `c % 64` of word `c / 64`.
    pub(crate) fn words(&self) -> [u64; 4] {
        self.0
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    pub(crate) fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub(crate) fn and(self, o: CardSet) -> CardSet {
        CardSet(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }

    pub(crate) fn or(self, o: CardSet) -> CardSet {
        CardSet(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }

    pub(crate) fn minus(self, o: CardSet) -> CardSet {
        CardSet(std::array::from_fn(|i| self.0[i] & !o.0[i]))
    }

    /// The cards in it, lowest id first.
    pub(crate) fn cards(self) -> impl Iterator<Item = CardId> {
        (0..4).flat_map(move |w| {
            let mut bits = self.0[w];
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros();
                    bits &= bits - 1;
                    (w * 64) as CardId + b as CardId
                })
            })
        })
    }
}

/// A value of every card (an attribute, or a part of a condition that depends only on the
/// card), with the cards that have each value.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    pub distinct: Vec<(Value, CardSet)>,
}

impl Table {
    fn of(values: &[Value]) -> Table {
        let mut distinct: Vec<(Value, CardSet)> = Vec::new();
        for (c, v) in values.iter().enumerate() {
            match distinct.iter_mut().find(|(x, _)| x == v) {
                Some((_, set)) => *set = set.with(c as CardId),
                None => distinct.push((*v, CardSet::EMPTY.with(c as CardId))),
            }
        }
        Table { distinct }
    }

    /// The cards whose value is `v`.
    pub(crate) fn equal(&self, v: Value) -> CardSet {
        self.distinct.iter().find(|(x, _)| *x == v).map_or(CardSet::EMPTY, |(_, s)| *s)
    }
}

/// A lowered card condition: which of a set of candidate cards meet it.
pub(crate) type M = Mask<X>;

/// A card condition taken apart into set operations, its parts of type `L`: expressions of the
/// game as the condition is planned (what the compiled engine works from), then compiled code
/// ([`M`], what the interpreter works from). Both engines work a condition out from one plan.
#[derive(Debug)]
pub(crate) enum Mask<L> {
    /// A condition on the card alone: the cards that meet it.
    Set(CardSet),
    /// A condition that does not depend on the card: all candidates or none.
    Scalar(L),
    /// The card's value in a table equals (or, negated, differs from) a value.
    Eq {
        table: u16,
        rhs: L,
        negate: bool,
    },
    /// The card's value in a table is (or is not) a member of a set value.
    In {
        table: u16,
        set: L,
        negate: bool,
    },
    /// The card's value in a table compared with a value (`flip`: the value is on the left).
    Order {
        table: u16,
        op: BinOp,
        rhs: L,
        flip: bool,
        at: super::program::At,
    },
    And(Box<Mask<L>>, Box<Mask<L>>),
    Or(Box<Mask<L>>, Box<Mask<L>>),
    Not(Box<Mask<L>>),
    /// A choice that does not depend on the card.
    If(L, Box<Mask<L>>, Box<Mask<L>>),
    /// A definition's argument that does not depend on the card, set before its body.
    Bind(Slot, L, Box<Mask<L>>),
    /// Worked out card by card with the card bound to the slot.
    Each(Slot, L),
}

impl<L> Mask<L> {
    /// The same condition with each part turned by `f`, in the order the parts are written.
    pub(crate) fn map<K>(self, f: &mut impl FnMut(L) -> K) -> Mask<K> {
        let boxed = |m: Box<Mask<L>>, f: &mut dyn FnMut(L) -> K| Box::new(m.map_dyn(f));
        match self {
            Mask::Set(set) => Mask::Set(set),
            Mask::Scalar(x) => Mask::Scalar(f(x)),
            Mask::Eq { table, rhs, negate } => Mask::Eq { table, rhs: f(rhs), negate },
            Mask::In { table, set, negate } => Mask::In { table, set: f(set), negate },
            Mask::Order { table, op, rhs, flip, at } => Mask::Order { table, op, rhs: f(rhs), flip, at },
            Mask::And(a, b) => Mask::And(boxed(a, f), boxed(b, f)),
            Mask::Or(a, b) => Mask::Or(boxed(a, f), boxed(b, f)),
            Mask::Not(a) => Mask::Not(boxed(a, f)),
            Mask::If(c, t, o) => {
                let c = f(c);
                Mask::If(c, boxed(t, f), boxed(o, f))
            }
            Mask::Bind(slot, x, inner) => {
                let x = f(x);
                Mask::Bind(slot, x, boxed(inner, f))
            }
            Mask::Each(slot, x) => Mask::Each(slot, f(x)),
        }
    }

    fn map_dyn<K>(self, f: &mut dyn FnMut(L) -> K) -> Mask<K> {
        self.map(&mut |x| f(x))
    }
}

/// How many definitions deep a condition is taken apart.
const INLINE_DEPTH: u32 = 8;

/// How deeply a part of a condition may nest (definitions included) to be worked out in
/// advance: the checker's evaluator runs on the caller's stack here.
const TABLE_NESTING: usize = 64;

impl<'a> Lower<'a> {
    /// A condition on the card bound to `slot`, as a mask; `None` when nothing in it can be
    /// masked (it is worked out card by card anyway).
    pub(super) fn card_mask(&mut self, e: &Expr, slot: Slot) -> Option<M> {
        let plan = self.card_plan(e, slot)?;
        Some(plan.map(&mut |x| self.expr(x)))
    }

    /// A condition on the card bound to `slot` taken apart into set operations, its parts
    /// still expressions; `None` when nothing in it can be masked.
    pub(super) fn card_plan<'e>(&mut self, e: &'e Expr, slot: Slot) -> Option<Mask<&'e Expr>>
    where
        'a: 'e,
    {
        if self.game.cards.len() > MASKED_CARDS {
            return None;
        }
        match self.plan(e, slot, 0) {
            Mask::Each(..) => None,
            m => Some(m),
        }
    }

    fn plan<'e>(&mut self, e: &'e Expr, s: Slot, depth: u32) -> Mask<&'e Expr>
    where
        'a: 'e,
    {
        if !mentions(e, s) {
            return Mask::Scalar(e);
        }
        if let Some(set) = self.true_cards(e, s) {
            return Mask::Set(set);
        }
        let each = Mask::Each(s, e);
        match &e.kind {
            ExprKind::Binary(BinOp::And, l, r) => {
                Mask::And(Box::new(self.plan(l, s, depth)), Box::new(self.plan(r, s, depth)))
            }
            ExprKind::Binary(BinOp::Or, l, r) => {
                Mask::Or(Box::new(self.plan(l, s, depth)), Box::new(self.plan(r, s, depth)))
            }
            ExprKind::Not(x) => Mask::Not(Box::new(self.plan(x, s, depth))),
            ExprKind::Binary(op @ (BinOp::Eq | BinOp::Ne), l, r) => match self.table_side(l, r, s) {
                Some((table, other, _)) => Mask::Eq { table, rhs: other, negate: *op == BinOp::Ne },
                None => each,
            },
            ExprKind::Binary(op @ (BinOp::In | BinOp::NotIn), l, r) if !r.is_collection() && !mentions(r, s) => {
                match self.table(l, s) {
                    Some(table) => Mask::In { table, set: r, negate: *op == BinOp::NotIn },
                    None => each,
                }
            }
            ExprKind::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), l, r) => {
                match self.table_side(l, r, s) {
                    Some((table, other, flip)) => {
                        let at = self.at(e.span);
                        Mask::Order { table, op: *op, rhs: other, flip, at }
                    }
                    None => each,
                }
            }
            ExprKind::If(c, t, o) if !mentions(c, s) => {
                Mask::If(c, Box::new(self.plan(t, s, depth)), Box::new(self.plan(o, s, depth)))
            }
            // A recursive definition is called, not inlined: its inner calls keep its names.
            ExprKind::Call(f, args) if depth < INLINE_DEPTH && !self.game.functions[*f as usize].recursive => {
                self.inlined(*f, args, s, depth).unwrap_or(each)
            }
            _ => each,
        }
    }

    /// A definition called with the card: its body taken apart with the card bound to the
    /// parameter it is given to, the other arguments set first.
    fn inlined<'e>(&mut self, f: FnId, args: &'e [Expr], s: Slot, depth: u32) -> Option<Mask<&'e Expr>>
    where
        'a: 'e,
    {
        let game: &'a Game = self.game;
        let func = &game.functions[f as usize];
        let mut card_param = None;
        let mut scalars = Vec::new();
        for (param, arg) in func.params.iter().zip(args) {
            match &arg.kind {
                ExprKind::Local(x) if *x == s && card_param.is_none() => card_param = Some(*param),
                _ if !mentions(arg, s) => scalars.push((*param, arg)),
                _ => return None,
            }
        }
        let body = self.plan(&func.body, card_param?, depth + 1);
        Some(scalars.into_iter().rev().fold(body, |inner, (param, arg)| Mask::Bind(param, arg, Box::new(inner))))
    }

    /// A comparison with one side depending only on the card and the other not on the card:
    /// the table of the first, the other side, and whether the table's side is the right one.
    fn table_side<'e>(&mut self, l: &'e Expr, r: &'e Expr, s: Slot) -> Option<(u16, &'e Expr, bool)> {
        if !mentions(r, s) {
            return self.table(l, s).map(|t| (t, r, false));
        }
        if !mentions(l, s) {
            return self.table(r, s).map(|t| (t, l, true));
        }
        None
    }

    /// The cards for which a condition depending only on the card holds, if it can be worked
    /// out in advance for every card.
    fn true_cards(&mut self, e: &Expr, s: Slot) -> Option<CardSet> {
        let values = self.card_values(e, s)?;
        let mut set = CardSet::EMPTY;
        for (c, v) in values.iter().enumerate() {
            match v {
                Value::Bool(true) => set = set.with(c as CardId),
                Value::Bool(false) => {}
                _ => return None,
            }
        }
        Some(set)
    }

    /// The table of a value depending only on the card, made (or found) now.
    fn table(&mut self, e: &Expr, s: Slot) -> Option<u16> {
        let values = self.card_values(e, s)?;
        let table = Table::of(&values);
        let found = self.tables.iter().position(|t| t.distinct == table.distinct);
        Some(found.unwrap_or_else(|| {
            self.tables.push(table);
            self.tables.len() - 1
        }) as u16)
    }

    /// The value and key (a number or an enumeration value's place) of an aggregate's body for
    /// every card, when it depends on nothing but the card.
    pub(super) fn card_keys(&self, e: &Expr, s: Slot) -> Option<Vec<(Value, i64)>> {
        if self.game.cards.len() > MASKED_CARDS {
            return None;
        }
        let values = self.card_values(e, s)?;
        values
            .into_iter()
            .map(|v| match v {
                Value::Int(n) => Some((v, n)),
                Value::Enum(i) => Some((v, i as i64)),
                _ => None,
            })
            .collect()
    }

    /// The value of an expression for every card, when it depends on nothing but the card
    /// bound to `s` and can be worked out before play.
    fn card_values(&self, e: &Expr, s: Slot) -> Option<Vec<Value>> {
        if !free_locals(e).iter().all(|x| *x == s) || nesting(self.game, e, 0) > TABLE_NESTING {
            return None;
        }
        if let ExprKind::LocalAttr(x, a) = e.kind
            && x == s
        {
            return self.game.cards.iter().map(|c| c.get(a as usize).copied()).collect();
        }
        let mut eval = Eval::new(Tables::of(self.game), self.game.slots);
        let mut values = Vec::with_capacity(self.game.cards.len());
        for c in 0..self.game.cards.len() as CardId {
            eval.set_local(s, Value::Card(c));
            values.push(eval.value(e).ok()?);
        }
        Some(values)
    }
}

/// Whether an expression reads the local name in slot `s` (not counting names it binds itself).
pub(crate) fn mentions(e: &Expr, s: Slot) -> bool {
    free_locals(e).contains(&s)
}

/// The local names an expression reads that it does not bind itself.
fn free_locals(e: &Expr) -> Vec<Slot> {
    let mut out = Vec::new();
    collect_free(e, &mut Vec::new(), &mut out);
    out
}

fn collect_free(e: &Expr, bound: &mut Vec<Slot>, out: &mut Vec<Slot>) {
    let mut read = |s: Slot, bound: &Vec<Slot>| {
        if !bound.contains(&s) && !out.contains(&s) {
            out.push(s);
        }
    };
    match &e.kind {
        ExprKind::Local(s) | ExprKind::LocalAttr(s, _) => read(*s, bound),
        ExprKind::Aggregate(a) => {
            collect_free(&a.domain, bound, out);
            bound.push(a.slot);
            for x in a.filter.iter().chain(&a.body) {
                collect_free(x, bound, out);
            }
            bound.pop();
        }
        _ => {
            for child in e.children() {
                collect_free(child, bound, out);
            }
        }
    }
}

/// How deeply an expression's values nest, following definitions (at most `TABLE_NESTING + 1`).
fn nesting(game: &Game, e: &Expr, depth: usize) -> usize {
    if depth > TABLE_NESTING {
        return depth;
    }
    let inner = match &e.kind {
        ExprKind::Call(f, _) => game.functions.get(*f as usize).map_or(0, |f| nesting(game, &f.body, depth + 1)),
        _ => 0,
    };
    e.children().into_iter().map(|c| nesting(game, c, depth + 1)).chain([inner, depth + 1]).max().unwrap_or(depth)
}
