//! The compiled game: what the checker makes of a rule file for one set of parameter values.
//!
//! Every name is resolved to a small integer id, the pack is built and every card's attributes
//! (derived ones included) are laid out in one table, and the flow is an arena of blocks so that
//! a position in it is plain data (a block id and an index).

use crate::vocab::{AggOp, Audience, BinOp, Extreme, Owner, Span};

mod dump;
mod group;
pub(crate) use group::{CardGroup, MAX_LISTED, SMALL_PACK};
use serde::{Deserialize, Serialize};

/// A seat's number, in the order the rule file lists the seats.
pub type SeatId = u8;
pub(crate) type SideId = u8;
/// A card's number in the pack.
pub type CardId = u16;
pub(crate) type EnumId = u16;
pub(crate) type AttrId = u16;
pub(crate) type ZoneId = u16;
pub(crate) type VarId = u16;
pub(crate) type FnId = u16;
pub(crate) type PhaseId = u16;
pub(crate) type BlockId = u32;
/// A local name's slot. Slots are numbered across the whole game, so a state keeps all locals in
/// one array; a recursive definition keeps its own slots' values across its inner calls.
pub(crate) type Slot = u16;

/// A value during play. Small and `Copy`: cards, seats and enum values are ids. Its layout is
/// C's (a one-byte tag, then the field), so that the compiled engine's native code reads and
/// writes the same variables and local names (`src/compiled`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(C, u8)]
pub enum Value {
    /// The value `none`.
    None,
    /// A whole number.
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A seat.
    Seat(SeatId),
    /// A side.
    Side(SideId),
    /// A card.
    Card(CardId),
    /// An index into the enumeration's `values`.
    Enum(u16),
    /// A set of enum value indices or seat ids, as a bitset.
    Set(u64),
    /// Cards chosen together (`choose 2 cards p from hand[s]`).
    Group(CardGroup),
}

/// A static type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Type {
    /// A whole number.
    Int,
    /// `true` or `false`.
    Bool,
    /// A seat.
    Seat,
    /// A side.
    Side,
    /// A card.
    Card,
    /// A value of the enumeration.
    Enum(EnumId),
    /// `set of T` (T an enumeration or `seat`).
    Set(Box<Type>),
    /// `T?`: a value that may be `none`.
    Opt(Box<Type>),
    /// A sequence that can be iterated but not stored: `seats`, `others(s)`, `0..9`, `[a, b]`.
    List(Box<Type>),
    /// One pile of cards (`trick`, `hand[s]`) or a filtered collection of cards.
    Cards,
    /// The cards a choice of several chose together (`choose 2 cards p ...`): gone through,
    /// counted and moved like a zone's cards, but not a place.
    Group,
    /// A per-seat or per-side zone without its index: every pile together.
    ZoneFamily(ZoneId),
    /// A string with `{expression}` parts.
    Text,
    /// The literal `none` before it meets the type it stands for.
    NoneLit,
    /// The type of an expression that already has a reported problem.
    Error,
}

impl Type {
    /// The type without its `?`.
    pub fn base(&self) -> &Type {
        match self {
            Type::Opt(t) => t.base(),
            t => t,
        }
    }

    /// Whether it is `set of card` (or `set of card?`).
    pub fn is_card_set(&self) -> bool {
        matches!(self.base(), Type::Set(e) if **e == Type::Card)
    }

    /// The type with a `?`: a value of it may be `none`.
    pub fn opt(self) -> Type {
        match self {
            Type::Opt(_) | Type::NoneLit | Type::Error => self,
            t => Type::Opt(Box::new(t)),
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct SeatInfo {
    pub name: String,
    pub display: String,
    /// The player who decides for this seat.
    pub player: usize,
    pub side: Option<SideId>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SideInfo {
    pub name: String,
    pub display: String,
    pub seats: Vec<SeatId>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ParamInfo {
    pub name: String,
    pub ty: Type,
    pub value: Value,
    pub range: Option<(i64, i64)>,
    pub doc: Option<String>,
    pub span: Span,
}

/// One member of an enumeration as written: `ace "A"` or `named(suit: Suit)`.
#[derive(Clone, Debug, Serialize)]
pub struct MemberInfo {
    pub name: String,
    pub display: Option<String>,
    /// The payload's field name and type, for a member such as `named(suit: Suit)`.
    pub payload: Option<(String, Type)>,
}

/// One value of an enumeration: a member, with its payload for members that carry one.
#[derive(Clone, Debug, Serialize)]
pub struct EnumValue {
    pub member: u16,
    pub payload: Value,
    /// How the value is printed: `A`, `named hearts`.
    pub display: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct EnumInfo {
    pub name: String,
    pub members: Vec<MemberInfo>,
    /// All values in order, lowest first.
    pub values: Vec<EnumValue>,
}

#[derive(Clone, Debug, Serialize)]
pub struct AttrInfo {
    pub name: String,
    pub ty: Type,
    pub derived: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct ZoneInfo {
    pub name: String,
    /// What players call it (`zone won per side "tricks"`).
    pub display: Option<String>,
    pub owner: Option<Owner>,
    pub see: Audience,
    pub count: Audience,
}

/// How many of a thing there are that is shared (one), per seat or per side.
pub(crate) fn per_owner(owner: Option<Owner>, seats: usize, sides: usize) -> usize {
    match owner {
        None => 1,
        Some(Owner::Seat) => seats,
        Some(Owner::Side) => sides,
    }
}

impl ZoneInfo {
    /// How many piles the zone has: one, or one per seat or side.
    pub fn piles(&self, seats: usize, sides: usize) -> usize {
        per_owner(self.owner, seats, sides)
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct VarInfo {
    pub name: String,
    pub ty: Type,
    pub owner: Option<Owner>,
    pub init: Expr,
    /// The phase whose start resets it.
    pub reset: Option<PhaseId>,
    pub span: Span,
}

#[derive(Clone, Debug, Serialize)]
pub struct FnInfo {
    pub name: String,
    pub params: Vec<Slot>,
    /// By parameter, the zone a `zone` parameter stands for in this instance (a call passes
    /// the pile's seat or side, if it has one, or `none`); `None` for the other parameters.
    pub piles: Vec<Option<ZoneId>>,
    pub body: Expr,
    /// The local slots of its parameters and of the names bound inside its body.
    pub scope: std::ops::Range<Slot>,
    /// Whether it can call itself, directly or through others: a call then keeps the values
    /// of `scope` of the calls it is inside of, and puts them back when it returns.
    pub recursive: bool,
    /// `memo`: every value it works out is kept until the evaluation ends.
    pub memo: bool,
}

impl FnInfo {
    /// The slots a call must keep for the calls it is inside of: none unless it can recurse.
    pub fn kept(&self) -> std::ops::Range<Slot> {
        if self.recursive { self.scope.clone() } else { 0..0 }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct PhaseInfo {
    pub name: String,
    /// What players call it (`phase trick "trick"`); a phase without a title is not announced
    /// to them.
    pub title: Option<String>,
    /// How many of it a round holds (`of hand_size`), worked out when it starts.
    pub of: Option<Expr>,
}

/// `sheet PHASE for t in sides "CELL"`: the phase that is a round of the match, and the cell of
/// each seat or side in the score sheet's row written when it ends.
#[derive(Clone, Debug, Serialize)]
pub struct SheetSpec {
    pub phase: PhaseId,
    pub slot: Slot,
    /// `seats` or `sides`: a column for each.
    pub domain: Expr,
    /// The element type: `seat` or `side`.
    pub elem: Type,
    /// The cell, a template.
    pub text: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, Serialize)]
pub struct ResultSpec {
    pub extreme: Extreme,
    pub slot: Slot,
    /// `seats` or `sides`.
    pub domain: Expr,
    /// What the players scored: what the result line shows.
    pub key: Expr,
    /// The keys that break a tie in `key`, in order (`then KEY`).
    pub ties: Vec<Expr>,
}

/// `solve PHASE for t in sides by KEY`: what an exact solver optimises in a phase.
#[derive(Clone, Debug, Serialize)]
pub struct SolveSpec {
    pub phase: PhaseId,
    pub slot: Slot,
    /// `seats` or `sides`.
    pub domain: Expr,
    pub key: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, Serialize)]
pub struct VariantInfo {
    pub name: String,
    pub doc: Option<String>,
}

/// A compiled game, ready to be played.
#[derive(Clone, Debug, Serialize)]
pub struct Game {
    /// The game's name (`game "..."`).
    pub name: String,
    /// How many players: each decides for one or more seats.
    pub players: usize,
    /// The seats, in order, with their names and players.
    pub seats: Vec<SeatInfo>,
    /// The seat the table is drawn from (`seat X at bottom`): where one person sits unless told
    /// otherwise, and what a spectator sees at the bottom.
    pub bottom: Option<SeatId>,
    /// The sides, with their seats.
    pub sides: Vec<SideInfo>,
    /// The parameters, with the values this game was compiled with.
    pub params: Vec<ParamInfo>,
    /// The enumerations and their values.
    pub enums: Vec<EnumInfo>,
    /// The card attributes, derived ones included.
    pub attrs: Vec<AttrInfo>,
    /// `cards[c][a]`: the value of attribute `a` of card `c`, derived attributes included.
    pub cards: Vec<Vec<Value>>,
    /// Each card's name, as the trace shows it.
    pub card_names: Vec<String>,
    /// Cards start in zone 0 (its first pile) in pack order.
    pub zones: Vec<ZoneInfo>,
    /// The variables.
    pub vars: Vec<VarInfo>,
    /// The definitions (`define`).
    pub functions: Vec<FnInfo>,
    /// The phases.
    pub phases: Vec<PhaseInfo>,
    /// How many local slots a state needs.
    pub slots: usize,
    /// The flow's statements, as blocks that refer to each other by number.
    pub blocks: Vec<Block>,
    /// The block of `play { ... }`.
    pub play: BlockId,
    /// How the result is worked out: what is ranked and by which key.
    pub result: ResultSpec,
    /// The `show` lines, in the order declared.
    pub shows: Vec<Show>,
    /// The `solve` declarations, at most one per phase.
    pub solves: Vec<SolveSpec>,
    /// The score sheet, if the rule file keeps one.
    pub sheet: Option<SheetSpec>,
    /// The variants the rule file declares.
    pub variants: Vec<VariantInfo>,
    /// The variant applied, if any.
    pub variant: Option<String>,
    /// The scenario applied, if the game was loaded from one.
    pub scenario: Option<String>,
}

impl Game {
    /// One line for `paradox check`: name, players, cards and every parameter's value.
    pub fn summary(&self) -> String {
        let params: Vec<String> =
            self.params.iter().map(|p| format!("{}={}", p.name, self.show_value(p.value, &p.ty))).collect();
        let count = |n: usize, one: &str, many: &str| plural(n as i64, one, many);
        let mut line = format!(
            "{}: {}, {}, {}",
            self.name,
            count(self.players, "player", "players"),
            count(self.seats.len(), "seat", "seats"),
            count(self.cards.len(), "card", "cards")
        );
        if !params.is_empty() {
            line.push_str(&format!("; parameters: {}", params.join(", ")));
        }
        if let Some(v) = &self.variant {
            line.push_str(&format!("; variant {v}"));
        }
        if let Some(s) = &self.scenario {
            line.push_str(&format!("; scenario \"{s}\""));
        }
        line
    }

    /// The names values are printed with.
    pub fn names(&self) -> Names<'_> {
        Names { seats: &self.seats, sides: &self.sides, enums: &self.enums, cards: &self.card_names }
    }

    /// A value as people read it: seat and card names, enum display names, a set as its
    /// members in a sentence ("red and blue"; "none" when it is empty).
    pub fn show_value(&self, value: Value, ty: &Type) -> String {
        self.names().show(value, ty)
    }
}

/// What is needed to print values: the names of seats, sides, enum values and cards.
pub struct Names<'a> {
    pub seats: &'a [SeatInfo],
    pub sides: &'a [SideInfo],
    pub enums: &'a [EnumInfo],
    pub cards: &'a [String],
}

impl Names<'_> {
    /// A value whose type is not at hand: seats, sides, cards, numbers and truth values print
    /// by name; an enumeration value by its position.
    pub fn show_loose(&self, value: Value) -> String {
        match value {
            Value::Enum(v) => format!("value {v}"),
            v => self.show(v, &Type::Error),
        }
    }

    /// A value as people read it: seat and card names, enum display names, a set as its
    /// members in a sentence ("red and blue"; "none" when it is empty).
    pub fn show(&self, value: Value, ty: &Type) -> String {
        let mut out = String::new();
        self.write(value, ty, &mut out);
        out
    }

    /// How long a value is as people read it, without writing it out.
    pub fn shown_len(&self, value: Value, ty: &Type) -> usize {
        let mut count = Count(0);
        self.write(value, ty, &mut count);
        count.0
    }

    /// Writes a value as people read it.
    fn write(&self, value: Value, ty: &Type, out: &mut impl std::fmt::Write) {
        let name = match (value, ty.base()) {
            (Value::Seat(s), _) => self.seats.get(s as usize).map(|x| &x.display),
            (Value::Side(s), _) => self.sides.get(s as usize).map(|x| &x.display),
            (Value::Card(c), _) => self.cards.get(c as usize),
            (Value::Enum(v), Type::Enum(e)) => {
                self.enums.get(*e as usize).and_then(|e| e.values.get(v as usize)).map(|x| &x.display)
            }
            _ => None,
        };
        let _ = match (value, ty.base(), name) {
            (_, _, Some(name)) => out.write_str(name),
            (Value::None, _, _) => out.write_str("none"),
            (Value::Int(n), _, _) => write!(out, "{n}"),
            (Value::Bool(b), _, _) => write!(out, "{b}"),
            (Value::Set(0), Type::Set(_), _) => out.write_str("none"),
            (Value::Set(bits), Type::Set(elem), _) => {
                // As a card player says it: "red", "red and blue", "red, green and blue".
                let last = bits.count_ones() as usize - 1;
                for (k, i) in (0..64u16).filter(|i| bits & (1u64 << i) != 0).enumerate() {
                    let _ = out.write_str(match k {
                        0 => "",
                        k if k == last => " and ",
                        _ => ", ",
                    });
                    let v = if **elem == Type::Seat { Value::Seat(i as u8) } else { Value::Enum(i) };
                    self.write(v, elem, out);
                }
                Ok(())
            }
            (Value::Group(g), _, _) if g.is_empty() => out.write_str("no cards"),
            (Value::Group(g), _, _) => {
                for (k, c) in g.cards().enumerate() {
                    let _ = out.write_str(if k > 0 { " + " } else { "" });
                    self.write(Value::Card(c), &Type::Card, out);
                }
                Ok(())
            }
            _ => write!(out, "{value:?}"),
        };
    }
}

/// A writer that only counts what it is given.
struct Count(usize);

impl std::fmt::Write for Count {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

/// A built-in function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Builtin {
    Left,
    Right,
    Opposite,
    Next,
    Others,
    SideOf,
    Members,
    Holder,
    Player,
    Count,
    First,
    Last,
    Ord,
    Abs,
    Max,
    Min,
}

#[derive(Clone, Debug, Serialize)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// An aggregate over a domain: `sum c in trick where ... of ...`.
#[derive(Clone, Debug, Serialize)]
pub struct Aggregate {
    pub op: AggOp,
    pub slot: Slot,
    pub domain: Expr,
    pub filter: Option<Expr>,
    pub body: Option<Expr>,
}

#[derive(Clone, Debug, Serialize)]
pub enum ExprKind {
    Const(Value),
    Local(Slot),
    Var(VarId),
    VarAt(VarId, Box<Expr>),
    /// One pile: a shared zone, or a per-seat/side zone with its index.
    Zone(ZoneId, Option<Box<Expr>>),
    /// Every pile of a per-seat/side zone.
    ZoneAll(ZoneId),
    Attr(Box<Expr>, AttrId),
    /// `c.attr` for a local `c`: the most common attribute read, in one step.
    LocalAttr(Slot, AttrId),
    /// The payload of an enum value (`bid.suit`).
    Payload(Box<Expr>, EnumId),
    /// `x is member`
    Is(Box<Expr>, EnumId, u16),
    /// `member(payload)`: the enum value of that member carrying that payload.
    MakeEnum(EnumId, u16, Box<Expr>),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Builtin(Builtin, Vec<Expr>),
    Call(FnId, Vec<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Case(Box<Expr>, Vec<(Vec<Expr>, Expr)>, Box<Expr>),
    Aggregate(Box<Aggregate>),
    List(Vec<Expr>),
    Seats,
    Sides,
    EnumValues(EnumId),
    /// The members of a set, in order, when a set is gone through (`true`: a set of seats).
    SetMembers(Box<Expr>, bool),
    /// A string with `{expression}` parts, each printed with its type.
    Template(Vec<TemplatePiece>),
    /// `last N of PILE` (`true`) or `first N of PILE`: the top or bottom N cards of one pile
    /// (all of them when it holds fewer), bottom first.
    PileEnd(bool, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// Whether this expression stands for several values (a domain or a pile) rather than one.
    pub fn is_collection(&self) -> bool {
        matches!(
            self.kind,
            ExprKind::Seats
                | ExprKind::Sides
                | ExprKind::EnumValues(_)
                | ExprKind::List(_)
                | ExprKind::Binary(BinOp::Range, ..)
                | ExprKind::Builtin(Builtin::Others | Builtin::Members, _)
                | ExprKind::Zone(..)
                | ExprKind::ZoneAll(_)
                | ExprKind::SetMembers(..)
                | ExprKind::PileEnd(..)
        ) || matches!(&self.kind, ExprKind::Aggregate(a) if a.op == AggOp::Cards)
    }

    /// The expressions directly inside this one (a definition's body is not inside its call).
    pub fn children(&self) -> Vec<&Expr> {
        use ExprKind::*;
        match &self.kind {
            Const(_) | Local(_) | Var(_) | ZoneAll(_) | LocalAttr(..) | Seats | Sides | EnumValues(_) => Vec::new(),
            Zone(_, ix) => ix.iter().map(|x| &**x).collect(),
            VarAt(_, x) | Attr(x, _) | Payload(x, _) | Is(x, ..) | MakeEnum(_, _, x) | Not(x) | Neg(x) => vec![x],
            SetMembers(x, _) => vec![x],
            Binary(_, l, r) | PileEnd(_, l, r) => vec![l, r],
            Builtin(_, xs) | Call(_, xs) | List(xs) => xs.iter().collect(),
            If(c, t, o) => vec![c, t, o],
            Case(s, arms, o) => {
                let arms = arms.iter().flat_map(|(patterns, value)| patterns.iter().chain([value]));
                [&**s].into_iter().chain(arms).chain([&**o]).collect()
            }
            Aggregate(a) => [&a.domain].into_iter().chain(&a.filter).chain(&a.body).collect(),
            Template(pieces) => pieces
                .iter()
                .filter_map(|p| match p {
                    TemplatePiece::Value(x, _) | TemplatePiece::Plural(x, ..) => Some(x),
                    TemplatePiece::Text(_) => None,
                })
                .collect(),
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub enum TemplatePiece {
    Text(String),
    Value(Expr, Type),
    /// A number and the word for one or for several after it.
    Plural(Expr, String, String),
}

/// `1 trick`, `3 tricks`, `-1 point`: a number with the word that goes with it.
pub(crate) fn plural(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n.abs() == 1 { one } else { many })
}

/// An assignable place.
#[derive(Clone, Debug, Serialize)]
pub enum Target {
    Local(Slot),
    Var(VarId),
    VarAt(VarId, Expr),
}

/// `x in domain [from start] [where filter]` with its slot.
#[derive(Clone, Debug, Serialize)]
pub struct Binding {
    pub slot: Slot,
    pub domain: Expr,
    pub start: Option<Expr>,
    pub filter: Option<Expr>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Tier {
    /// `None` is `any`.
    pub cond: Option<Expr>,
    pub then: Option<BlockId>,
    pub span: Span,
}

/// A `show` line: its text (a template), shown when `when` holds; with `each`, one line per
/// element of the binding's domain.
#[derive(Clone, Debug, Serialize)]
pub struct Show {
    pub each: Option<Binding>,
    pub text: Expr,
    pub when: Option<Expr>,
    pub span: Span,
}

/// A decision.
#[derive(Clone, Debug, Serialize)]
pub struct Choose {
    pub slot: Slot,
    /// The type of the options (to name them).
    pub elem: Type,
    /// Zones (cards), or one list of seats, enum values or numbers; with a menu, the zones and
    /// then the menu's list.
    pub domains: Vec<Expr>,
    /// The name of a menu action chosen with the cards (`or m from Move`): an option that is a
    /// card sets `slot` and leaves this `none`, a menu action the other way round.
    pub menu: Option<Slot>,
    /// For a choice of several cards at once, how many: the options are groups of cards.
    pub group: Option<GroupSize>,
    pub by: Expr,
    pub tiers: Vec<Tier>,
    /// The slot of the declaration's flag and when it may be declared.
    pub declare: Option<(Slot, String, Expr)>,
    pub label: Option<Expr>,
    pub span: Span,
}

/// How many cards a choice of several takes (`choose 2 cards p ...`, `1..3 cards`, `cards`):
/// from `least` to `most`, or to as many as its zones hold.
#[derive(Clone, Debug, Serialize)]
pub struct GroupSize {
    pub least: Expr,
    pub most: Option<Expr>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, Serialize)]
pub enum StmtKind {
    Assign(Target, crate::vocab::AssignOp, Expr),
    /// Draw one element of the binding's domain by lot into the target.
    Random(Target, Binding),
    If(Expr, BlockId, Option<BlockId>),
    For(Vec<Binding>, BlockId),
    Repeat(Expr, BlockId),
    RepeatUntil(Expr, BlockId),
    While(Expr, BlockId),
    Phase(PhaseId, BlockId),
    Choose(Box<Choose>),
    /// Every seat of the binding chooses first; then the block runs for each.
    Simultaneously(Binding, Box<Choose>, BlockId),
    Move {
        random: Option<Expr>,
        cards: Expr,
        to: Expr,
    },
    Shuffle(Expr),
    Deal {
        count: Option<Expr>,
        from: Expr,
        to: ZoneId,
        starting: Option<Expr>,
    },
    Say(Expr),
    /// Shows the cards, and where they lie, to every player.
    Reveal(Expr),
    Redo(PhaseId),
    End(PhaseId),
    /// Adds a card to the pack (in `deck` only): stored attributes and their values.
    MakeCard(Vec<(AttrId, Expr)>),
    /// A procedure's call: its parameters set from the arguments, then its statements.
    Call(BlockId),
}

impl StmtKind {
    /// The blocks directly inside a statement, the `then` blocks of its decision included.
    pub fn blocks(&self) -> Vec<BlockId> {
        let thens = |c: &Choose| c.tiers.iter().filter_map(|t| t.then).collect::<Vec<_>>();
        match self {
            StmtKind::If(_, t, o) => std::iter::once(*t).chain(*o).collect(),
            StmtKind::For(_, b)
            | StmtKind::Repeat(_, b)
            | StmtKind::RepeatUntil(_, b)
            | StmtKind::While(_, b)
            | StmtKind::Phase(_, b)
            | StmtKind::Call(b) => vec![*b],
            StmtKind::Simultaneously(_, c, b) => std::iter::once(*b).chain(thens(c)).collect(),
            StmtKind::Choose(c) => thens(c),
            _ => Vec::new(),
        }
    }

    /// The expressions directly in a statement (not in the blocks inside it).
    pub fn exprs(&self) -> Vec<&Expr> {
        fn binding(b: &Binding) -> Vec<&Expr> {
            std::iter::once(&b.domain).chain(&b.start).chain(&b.filter).collect()
        }
        match self {
            StmtKind::Assign(t, _, x) => t.index().into_iter().chain([x]).collect(),
            StmtKind::Random(t, b) => t.index().into_iter().chain(binding(b)).collect(),
            StmtKind::If(x, ..)
            | StmtKind::Repeat(x, _)
            | StmtKind::RepeatUntil(x, _)
            | StmtKind::While(x, _)
            | StmtKind::Shuffle(x)
            | StmtKind::Say(x)
            | StmtKind::Reveal(x) => vec![x],
            StmtKind::For(bs, _) => bs.iter().flat_map(binding).collect(),
            StmtKind::Choose(c) => c.exprs(),
            StmtKind::Simultaneously(b, c, _) => binding(b).into_iter().chain(c.exprs()).collect(),
            StmtKind::Move { random, cards, to } => random.iter().chain([cards, to]).collect(),
            StmtKind::Deal { count, from, starting, .. } => count.iter().chain([from]).chain(starting).collect(),
            StmtKind::MakeCard(fields) => fields.iter().map(|(_, x)| x).collect(),
            StmtKind::Phase(..) | StmtKind::Redo(_) | StmtKind::End(_) | StmtKind::Call(_) => Vec::new(),
        }
    }
}

impl Target {
    /// The index of a per-seat or per-side variable given a value.
    pub fn index(&self) -> Option<&Expr> {
        match self {
            Target::VarAt(_, ix) => Some(ix),
            _ => None,
        }
    }
}

impl Choose {
    /// The expressions of a decision: its domains, seat, sizes, tiers, declaration and label.
    pub fn exprs(&self) -> Vec<&Expr> {
        let sizes = self.group.iter().flat_map(|g| std::iter::once(&g.least).chain(&g.most));
        let tiers = self.tiers.iter().filter_map(|t| t.cond.as_ref());
        let declare = self.declare.iter().map(|d| &d.2);
        self.domains.iter().chain([&self.by]).chain(sizes).chain(tiers).chain(declare).chain(&self.label).collect()
    }
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Block {
    pub stmts: Vec<Stmt>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_prints_as_a_card_player_says_it() {
        let colour = |display: &str| EnumValue { member: 0, payload: Value::None, display: display.into() };
        let enums = [EnumInfo {
            name: "colour".into(),
            members: Vec::new(),
            values: vec![colour("red"), colour("green"), colour("blue")],
        }];
        let names = Names { seats: &[], sides: &[], enums: &enums, cards: &[] };
        let set = Type::Set(Box::new(Type::Enum(0)));
        let said = |bits| (names.show(Value::Set(bits), &set), names.shown_len(Value::Set(bits), &set));
        for (bits, text) in [(0, "none"), (0b010, "green"), (0b101, "red and blue"), (0b111, "red, green and blue")] {
            assert_eq!(said(bits), (text.to_string(), text.len()));
        }
    }
}
