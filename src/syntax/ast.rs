//! The typed syntax tree of a rule file. Every node carries the byte range it was read from.
//!
//! The tree says only what was written; names are resolved and types checked by `check`.

use crate::syntax::comments::Extra;
pub use crate::vocab::Span;
pub(crate) use crate::vocab::{AggOp, AssignOp, Audience, BinOp, Extreme, Owner};
use serde::Serialize;

/// A name as written, with where it was written.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A string literal with its escapes resolved. `span` covers the quotes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StrLit {
    pub value: String,
    pub span: Span,
}

/// A string that may hold `{expression}` parts: `"{taker} wins {worth} points"`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Template {
    pub parts: Vec<TemplatePart>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum TemplatePart {
    Text(String),
    Expr(Expr),
    /// `{tricks[t]|trick|tricks}`: a number with the word for one or for several after it.
    Plural {
        count: Expr,
        one: String,
        many: String,
    },
}

// ------------------------------------------------------------------ files and items

/// A whole file: either a rule file (a list of items) or a scenario extending one.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct File {
    /// Its rules or its scenario.
    pub body: FileBody,
    /// The whole file.
    pub span: Span,
    /// Its comments and empty lines, which are no part of the tree.
    #[serde(skip)]
    pub extra: Extra,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
/// What a file holds.
pub enum FileBody {
    /// A rule file: its top-level declarations.
    Rules(Vec<Item>),
    /// A scenario.
    Scenario(Scenario),
}

/// `scenario "name" extends "path" { set ... replace phase ... }`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scenario {
    /// The scenario's name.
    pub name: StrLit,
    /// The path of the rule file it extends, relative to the scenario's folder.
    pub extends: StrLit,
    /// Its changes: `set`, `replace phase`, ...
    pub items: Vec<VariantItem>,
    /// The whole scenario.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
/// A top-level declaration of a rule file.
pub enum Item {
    /// `game "name"`.
    Game(GameDecl),
    /// `players N`.
    Players(PlayersDecl),
    /// `seats ...`.
    Seats(SeatsDecl),
    /// `control ...`: which player decides for which seats.
    Control(ControlDecl),
    /// `seat X at bottom`: the seat the table is drawn from.
    Bottom(BottomDecl),
    /// `side ...`.
    Side(SideDecl),
    /// `param ...`: a value the command line may set.
    Param(ParamDecl),
    /// `enum ...`.
    Enum(EnumDecl),
    /// `card ...`: the attributes of a card.
    Card(CardDecl),
    /// `deck ...`: the pack.
    Deck(DeckDecl),
    /// `zone ...`: a place cards can be.
    Zone(ZoneDecl),
    /// `var ...`.
    Var(VarDecl),
    /// `define ...`: a named expression.
    Define(DefineDecl),
    /// `define NAME(...) { ... }`: a procedure, named statements.
    Procedure(ProcDecl),
    /// `play { ... }`: the flow of a match.
    Play(PlayDecl),
    /// `result ...`: who wins.
    Result(ResultDecl),
    /// `solve PHASE for x in seats|sides by KEY`: what best play means in a phase.
    Solve(SolveDecl),
    /// `sheet PHASE for x in seats|sides "CELL"`: the score sheet's row at the end of each round.
    Sheet(SheetDecl),
    /// `variant ...`: a named set of changes.
    Variant(VariantDecl),
    /// `show ...`: a line of the status.
    Show(Box<ShowDecl>),
}

/// `game "Open Tricks"`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameDecl {
    pub name: StrLit,
    pub span: Span,
}

/// `players 2` or `players 4..6 default 4`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayersDecl {
    pub min: IntLit,
    /// `(max, default)` when a range is given.
    pub range: Option<(IntLit, IntLit)>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct IntLit {
    pub value: i64,
    pub span: Span,
}

/// A declared name with an optional display string: `ProxyA "A's proxy"`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Named {
    pub name: Ident,
    pub display: Option<StrLit>,
    pub span: Span,
}

/// `seats A, B, ProxyA "A's proxy", ProxyB "B's proxy"` (clockwise order).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatsDecl {
    pub seats: Vec<Named>,
    pub span: Span,
}

/// `seat ProxyA played by A`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ControlDecl {
    pub seat: Ident,
    pub by: Ident,
    pub span: Span,
}

/// `seat South at bottom`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BottomDecl {
    pub seat: Ident,
    pub span: Span,
}

/// `side NS "North-South" { North, South }`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideDecl {
    pub name: Ident,
    pub display: Option<StrLit>,
    pub seats: Vec<Ident>,
    pub span: Span,
}

/// `param trick_cost: int = 20 in 0..220 "what a trick costs"`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ParamDecl {
    pub name: Ident,
    pub ty: TypeExpr,
    pub default: Literal,
    pub range: Option<(IntLit, IntLit)>,
    pub doc: Option<StrLit>,
    pub span: Span,
}

/// A parameter value as written in a file: `20`, `-3`, `true`, `spades`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum LiteralKind {
    Int(i64),
    Bool(bool),
    Name(String),
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Literal {
    pub kind: LiteralKind,
    pub span: Span,
}

/// `enum Suit { clubs, diamonds, hearts, spades }`; members are ordered low to high.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EnumDecl {
    pub name: Ident,
    pub members: Vec<EnumMember>,
    pub span: Span,
}

/// `ace "A"` or `named(suit: Suit)`: a member with a payload stands for one value per payload value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EnumMember {
    pub name: Ident,
    pub payload: Option<(Ident, TypeExpr)>,
    pub display: Option<StrLit>,
    pub span: Span,
}

/// `card { colour: Colour  rank: 0..10  points: int = rank  name "{colour} {rank}" }`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CardDecl {
    pub fields: Vec<CardField>,
    pub name: Option<Template>,
    pub span: Span,
}

/// A card attribute; with `derived` it is computed from the others.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CardField {
    pub name: Ident,
    pub ty: TypeExpr,
    pub derived: Option<Expr>,
    pub span: Span,
}

/// `deck { for c in Colour, r in 0..10 { card { colour: c, rank: r } } }`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeckDecl {
    pub body: Block,
    pub span: Span,
}

/// `zone hand per seat { see: owner  count: everyone }`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ZoneDecl {
    pub name: Ident,
    pub owner: Option<Owner>,
    /// The name players read (`zone won per side "tricks"`).
    pub display: Option<StrLit>,
    pub see: Option<(Audience, Span)>,
    pub count: Option<(Audience, Span)>,
    pub span: Span,
}

/// `var trump: Colour? = none reset trick`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VarDecl {
    pub name: Ident,
    pub ty: TypeExpr,
    pub owner: Option<Owner>,
    pub init: Expr,
    /// The phase whose start resets the variable; without one it lives for the whole match.
    pub reset: Option<Ident>,
    pub span: Span,
}

/// `define matches(a: card, b: card): bool = ...`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DefineDecl {
    pub name: Ident,
    pub params: Vec<(Ident, TypeExpr)>,
    pub ret: TypeExpr,
    /// `memo`: its values are kept for the rest of the evaluation that works them out.
    pub memo: bool,
    pub body: Expr,
    pub span: Span,
}

/// `define deal_hands(first: seat) { ... }`: statements with parameters, run where a
/// statement `deal_hands(opener)` calls them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProcDecl {
    pub name: Ident,
    pub params: Vec<(Ident, TypeExpr)>,
    pub body: Block,
    pub span: Span,
}

/// `play { ... }`: the flow of a whole match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayDecl {
    pub body: Block,
    pub span: Span,
}

/// `result highest t in sides by chips[t]`, with tie-breaks `then KEY` after the key.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResultDecl {
    pub extreme: Extreme,
    pub binder: Ident,
    pub domain: Expr,
    pub key: Expr,
    pub ties: Vec<Expr>,
    pub span: Span,
}

/// `solve round for t in sides by net(t)`: the quantity an exact solver optimises in a phase,
/// for each seat or side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolveDecl {
    pub phase: Ident,
    pub binder: Ident,
    pub domain: Expr,
    pub key: Expr,
    pub span: Span,
}

/// `show for s in seats "{s} bids {bid[s]}" when bid[s] != none`: a line of the state that
/// matters now, shown to every player (one line per element with `for`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShowDecl {
    pub each: Option<Binding>,
    pub text: Template,
    pub when: Option<Expr>,
    pub span: Span,
}

/// `sheet round for t in sides "net {net(t)}, {chips[t]} chips"`: the phase that is a round of
/// the match, and the cell of each seat or side in the score sheet's row written when it ends.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SheetDecl {
    pub phase: Ident,
    pub binder: Ident,
    pub domain: Expr,
    pub text: Template,
    pub span: Span,
}

/// `"trick" of hand_size` after a phase's name: what players call it, and optionally how many
/// of it a round holds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PhaseTitle {
    pub text: StrLit,
    pub of: Option<Expr>,
}

/// `variant long "play to 250" { set deals = 0  set target = 250 }`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VariantDecl {
    pub name: Ident,
    pub doc: Option<StrLit>,
    pub items: Vec<VariantItem>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum VariantItem {
    /// `set trick_cost = 15`
    Set { name: Ident, value: Literal, span: Span },
    /// `replace phase deal { ... }`
    Replace { phase: Ident, body: Block, span: Span },
}

// ------------------------------------------------------------------ types

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TypeExpr {
    pub kind: TypeKind,
    pub optional: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum TypeKind {
    /// `int`, `bool`, `seat`, `side`, `text`, or an enum's name.
    Named(Ident),
    /// `card`
    Card,
    /// `zone`: a parameter of a definition or procedure standing for one pile.
    Zone,
    /// `0..10`: an int attribute with its range of values.
    Range(i64, i64),
    /// `set of Colour`
    SetOf(Box<TypeExpr>),
}

// ------------------------------------------------------------------ statements

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

/// The right-hand side of `let` and assignments: a value, or a seat/card/value drawn by lot.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Rhs {
    Expr(Expr),
    /// `random s in seats where total[s] == top`
    Random(Box<Binding>),
}

/// `x in domain [from start] [where filter]`, used by `for`, `random` and `simultaneously`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Binding {
    pub name: Ident,
    pub domain: Expr,
    pub start: Option<Expr>,
    pub filter: Option<Expr>,
    pub span: Span,
}

/// An assignable place: `leader` or `score[s]`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Place {
    pub name: Ident,
    pub index: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum StmtKind {
    /// `let NAME [: TYPE] = VALUE`
    Let {
        name: Ident,
        ty: Option<TypeExpr>,
        value: Rhs,
    },
    Assign {
        target: Place,
        op: AssignOp,
        value: Rhs,
    },
    If {
        cond: Expr,
        then: Block,
        otherwise: Option<Block>,
    },
    For {
        bindings: Vec<Binding>,
        body: Block,
    },
    Repeat {
        count: Expr,
        body: Block,
    },
    RepeatUntil {
        cond: Expr,
        body: Block,
    },
    While {
        cond: Expr,
        body: Block,
    },
    Phase {
        name: Ident,
        title: Option<PhaseTitle>,
        body: Block,
    },
    Choose(Box<Choose>),
    Simultaneously {
        binding: Binding,
        body: Block,
    },
    /// `move [random n of] cards to zone`
    Move {
        random: Option<Expr>,
        cards: Expr,
        to: Expr,
    },
    Shuffle {
        zone: Expr,
    },
    /// `deal 11 each from stock to hand [starting seat]`; `count` is `None` for `deal all`.
    Deal {
        count: Option<Expr>,
        from: Expr,
        to: Ident,
        starting: Option<Expr>,
    },
    Say {
        text: Template,
    },
    /// `reveal CARDS`: the cards, and where they lie, are shown to every player.
    Reveal {
        cards: Expr,
    },
    Redo {
        phase: Ident,
    },
    End {
        phase: Ident,
    },
    /// `deal_hands(opener)`: a procedure's statements, run with these arguments.
    Call {
        func: Ident,
        args: Vec<Expr>,
    },
    /// `card { colour: c, rank }` inside `deck`: adds one card; a bare field name takes the
    /// value of the variable of that name.
    MakeCard {
        fields: Vec<(Ident, Option<Expr>)>,
    },
}

/// `choose c from hand[s] [or m from Move] by s where tier else tier ... [declare low when cond] [as "label"]`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Choose {
    pub name: Ident,
    pub domains: Vec<Expr>,
    /// `or m from Move`: menu actions offered with the cards, and the name of the one chosen.
    pub menu: Option<(Ident, Expr)>,
    /// `choose 2 cards p from ...`: several cards at once; the size written (a number or a
    /// range), or `None` inside for any number.
    pub group: Option<Option<Expr>>,
    pub by: Expr,
    pub tiers: Vec<Tier>,
    pub declare: Option<Declare>,
    pub label: Option<Template>,
    pub span: Span,
}

/// One tier of obligation; `cond: None` is `any`. The first tier with a legal option decides
/// the legal options, and its `then` block runs after the choice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tier {
    pub cond: Option<Expr>,
    pub then: Option<Block>,
    pub span: Span,
}

/// `declare low when c.rank == ace`: an optional yes/no announcement made with the choice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Declare {
    pub name: Ident,
    pub when: Expr,
    pub span: Span,
}

// ------------------------------------------------------------------ expressions

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum UnOp {
    Neg,
    Not,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CaseArm {
    pub patterns: Vec<Expr>,
    pub value: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Arg {
    pub name: Option<Ident>,
    pub value: Expr,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    None,
    Text(Template),
    Name(Ident),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `c.colour`
    Field(Box<Expr>, Ident),
    /// `score[s]`, `hand[s]`
    Index(Box<Expr>, Box<Expr>),
    /// `bid is named`
    Is(Box<Expr>, Ident),
    Call {
        func: Ident,
        args: Vec<Arg>,
    },
    /// `card(colour: red, rank: 0)`
    CardRef(Vec<(Ident, Expr)>),
    If {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
    Case {
        scrutinee: Box<Expr>,
        arms: Vec<CaseArm>,
        otherwise: Box<Expr>,
    },
    /// `sum c in trick of c.points`; `body` is the `of`/`by` part (absent for count,
    /// exists without it, and `cards`).
    Aggregate {
        op: AggOp,
        binder: Ident,
        domain: Box<Expr>,
        filter: Option<Box<Expr>>,
        body: Option<Box<Expr>>,
    },
    /// `[two, three]`
    List(Vec<Expr>),
    /// `last 3 of played` (`last: true`) or `first 2 of stock`: the top or bottom cards of a pile.
    PileEnd {
        last: bool,
        count: Box<Expr>,
        pile: Box<Expr>,
    },
}
