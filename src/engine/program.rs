//! The program: a compiled game lowered into the form the interpreter runs. It is made once per
//! [`Playable`](super::Playable), never changes, and is read by every state started from it.
//!
//! The flow keeps the game's block arena (a statement is still addressed by its block and index,
//! so positions and save files speak of the same places), but every expression in it is lowered:
//! variables are absolute slots, zones are pile ranges, definitions carry their depth, card
//! conditions are bitset operations over the pack where they can be ([`Pred`]), and the places
//! in the rule file that errors point at are kept out of line ([`Program::span`]).

use super::compile::Ev;
use super::layout::Layout;
use crate::game::*;
use crate::vocab::{AggOp, AssignOp, Span};

/// An index into [`Program::spans`]: where a lowered node was written.
pub(crate) type At = u32;

/// A compiled expression ([`super::compile`]) and the place it was written.
pub(crate) struct X {
    pub code: Compiled,
    pub at: At,
}

/// Compiled code, by the kind of value it makes. A template is kept as its pieces: it is
/// printed, never worked out as a value.
pub(crate) enum Compiled {
    Val(Ev<Value>),
    Bool(Ev<bool>),
    Int(Ev<i64>),
    Text(Vec<Piece>),
}

impl std::fmt::Debug for X {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.code {
            Compiled::Val(_) => "value",
            Compiled::Bool(_) => "truth value",
            Compiled::Int(_) => "number",
            Compiled::Text(_) => "text",
        };
        write!(f, "<compiled {kind} at {}>", self.at)
    }
}

/// A domain: something gone through element by element.
#[derive(Debug)]
pub(crate) struct D {
    pub kind: DKind,
    pub at: At,
}

#[derive(Debug)]
pub(crate) enum DKind {
    Seats,
    Sides,
    /// The values of an enumeration: how many there are.
    Values(u16),
    List(Vec<X>),
    Range(X, X),
    Others(X),
    Members(X),
    Pile(P),
    /// Every pile of a per-seat or per-side zone: its first pile and how many.
    Piles(u32, u32),
    /// `cards c in D where ...`
    Filter(Box<D>, Slot, Pred),
    /// The members of a set value (`true`: of seats).
    SetMembers(X, bool),
    /// The top (`true`) or bottom cards of a pile, how many.
    End(P, X, bool),
    /// One value: a card, or nothing for `none`.
    One(X),
}

/// One pile named by an expression, and where the expression was written.
#[derive(Debug)]
pub(crate) struct P {
    pub kind: PKind,
    pub at: At,
}

#[derive(Debug)]
pub(crate) enum PKind {
    /// A shared zone's pile.
    Fixed(u32),
    /// An owner's pile: the zone's first pile, how many it has, and the owner's index.
    Owned(u32, u16, X),
    /// Not a single pile (a whole zone family where one pile is wanted).
    Invalid,
}

/// An aggregate: `sum c in trick where ... of ...`.
#[derive(Debug)]
pub(crate) struct Agg {
    pub op: AggOp,
    pub slot: Slot,
    pub domain: D,
    pub filter: Option<Pred>,
    pub body: Option<X>,
    /// For a body that depends only on the card: its value and key for every card, worked out
    /// in advance.
    pub keys: Option<Vec<(Value, i64)>>,
}

/// A condition on the element bound to a slot: worked out element by element, or, for cards,
/// also as a mask over the pack ([`super::mask`]).
#[derive(Debug)]
pub(crate) enum Pred {
    Each(X),
    Cards(super::mask::M, X),
}

impl Pred {
    /// The condition as an expression, element by element.
    pub(crate) fn each(&self) -> &X {
        match self {
            Pred::Each(x) | Pred::Cards(_, x) => x,
        }
    }

    /// The condition as a mask, if it has one.
    pub(crate) fn mask(&self) -> Option<&super::mask::M> {
        match self {
            Pred::Each(_) => None,
            Pred::Cards(m, _) => Some(m),
        }
    }
}

#[derive(Debug)]
pub(crate) enum Piece {
    Text(String),
    /// A value printed with its type; a nested template is printed as text.
    Value(X, Type),
    /// A number and the word for one or for several.
    Plural(X, String, String),
    /// A choice between texts (`if`, `case`): the number of the one taken, and each of them.
    Pick(X, Vec<X>),
}

/// A lowered assignable place.
#[derive(Debug)]
pub(crate) enum Tgt {
    Local(Slot),
    Var(u32),
    VarAt(u32, u16, X),
}

/// `x in domain [from start] [where filter]`.
#[derive(Debug)]
pub(crate) struct Bind {
    pub slot: Slot,
    pub domain: D,
    pub start: Option<X>,
    pub filter: Option<Pred>,
}

/// A lowered decision.
#[derive(Debug)]
pub(crate) struct Ask {
    pub slot: Slot,
    /// The name of the menu action of a mixed decision (see [`Ask::names`]).
    pub menu: Option<Slot>,
    /// For a choice of several cards: the fewest and the most it takes (no most: all).
    pub group: Option<(X, Option<X>)>,
    pub elem: Type,
    pub domains: Vec<D>,
    pub by: X,
    /// Each tier's condition (`None` for `any`) and `then` block.
    pub tiers: Vec<(Option<Pred>, Option<BlockId>)>,
    pub declare: Option<(Slot, String, X)>,
    pub label: Option<X>,
    /// Where the decision was written.
    pub at: At,
}

impl Ask {
    /// What an option sets the choice's names to: its value, or in a mixed decision a card (or
    /// a group) to the cards' name and any other value to the menu's name, the other name
    /// `none` (or, for a group, the empty group).
    pub(crate) fn names(&self, value: Value) -> impl Iterator<Item = (Slot, Value)> {
        let card = matches!(value, Value::Card(_) | Value::Group(_));
        let main = match (card || self.menu.is_none(), &self.group) {
            (true, _) => value,
            (false, Some(_)) => Value::Group(CardGroup::EMPTY),
            (false, None) => Value::None,
        };
        let menu = self.menu.map(|m| (m, if card { Value::None } else { value }));
        std::iter::once((self.slot, main)).chain(menu)
    }

    /// The `as` label that names an option: in a decision with a menu it names the cards, and
    /// a menu action is named by its own name.
    pub(crate) fn label_for(&self, value: Value) -> Option<&X> {
        let action = self.menu.is_some() && !matches!(value, Value::Card(_) | Value::Group(_));
        self.label.as_ref().filter(|_| !action)
    }
}

/// A lowered statement; its place in the rule file is the game's statement at the same address.
#[derive(Debug)]
pub(crate) enum Op {
    Assign(Tgt, AssignOp, X),
    Random(Tgt, Bind),
    If(X, BlockId, Option<BlockId>),
    For(Vec<Bind>, BlockId),
    Repeat(X, BlockId),
    RepeatUntil(X, BlockId),
    While(X, BlockId),
    Phase(PhaseId, BlockId),
    /// A procedure's call: its block (parameters set, then its statements).
    Call(BlockId),
    Choose(Box<Ask>),
    Together(Bind, Box<Ask>, BlockId),
    Move {
        random: Option<X>,
        cards: D,
        to: P,
    },
    Shuffle(P),
    Deal {
        count: Option<X>,
        from: P,
        to: ZoneId,
        starting: Option<X>,
    },
    Say(X),
    Reveal(D),
    Redo(PhaseId),
    End(PhaseId),
    Nothing,
}

/// A lowered definition.
#[derive(Debug)]
pub(crate) struct Func {
    pub params: Vec<Slot>,
    pub body: X,
    /// How deeply values nest inside its body (charged against the nesting limit per call).
    pub depth: usize,
    /// The slots a call keeps for the calls it is inside of (empty unless it can recurse).
    pub kept: std::ops::Range<Slot>,
    /// `memo`: every value worked out is kept until the evaluation ends.
    pub memo: bool,
}

/// A lowered `show` line.
#[derive(Debug)]
pub(crate) struct ShowX {
    pub each: Option<Bind>,
    pub text: X,
    pub when: Option<X>,
}

/// The lowered result: the domain ranked and each element's key.
#[derive(Debug)]
pub(crate) struct ResultX {
    pub slot: Slot,
    pub domain: D,
    pub key: X,
    /// The tie-breaks after the key, in order (none for a `solve`).
    pub ties: Vec<X>,
}

/// A game lowered for the interpreter. See the module documentation.
#[derive(Debug)]
pub struct Program {
    pub(crate) layout: Layout,
    /// `blocks[b][i]`: the statement at index `i` of block `b`.
    pub(crate) blocks: Vec<Vec<Op>>,
    pub(crate) functions: Vec<Func>,
    /// Each variable's initial value, by variable id.
    pub(crate) inits: Vec<X>,
    /// The variables each phase resets when it starts, by phase id.
    pub(crate) resets: Vec<Vec<VarId>>,
    pub(crate) shows: Vec<ShowX>,
    pub(crate) result: ResultX,
    /// The `solve` declarations: each phase with its quantity.
    pub(crate) solves: Vec<(PhaseId, ResultX)>,
    /// Each phase's count (`phase trick "trick" of hand_size`), by phase id.
    pub(crate) counts: Vec<Option<X>>,
    /// The score sheet: the round's phase, and its cells as a `show` line with a `for`.
    pub(crate) sheet: Option<(PhaseId, ShowX)>,
    /// The place in the rule file of each lowered node (see [`At`]).
    pub(crate) spans: Vec<Span>,
    /// The per-card tables card conditions look values up in.
    pub(crate) tables: Vec<super::mask::Table>,
    /// Random numbers for the position's hash: `zobrist[card * piles + pile]`.
    pub(crate) zobrist: Vec<u64>,
}

impl Program {
    /// Where the game's piles and variables lie in a position.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    pub(crate) fn span(&self, at: At) -> Span {
        self.spans.get(at as usize).copied().unwrap_or_default()
    }

    pub(crate) fn op(&self, block: BlockId, index: u32) -> Option<&Op> {
        self.blocks.get(block as usize)?.get(index as usize)
    }

    /// The decision at a statement, with the `simultaneously` binding around it if there is one.
    pub(crate) fn ask_at(&self, block: BlockId, index: u32) -> Option<(&Ask, Option<&Bind>)> {
        match self.op(block, index)? {
            Op::Choose(ask) => Some((ask, None)),
            Op::Together(bind, ask, _) => Some((ask, Some(bind))),
            _ => None,
        }
    }
}
