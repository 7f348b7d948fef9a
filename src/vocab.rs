//! The words the syntax tree, the compiled game and the engine share: where a node was written
//! ([`Span`]), operators, owners, audiences and which end of a ranking wins. The syntax tree
//! re-exports them; the compiled game and the engine take them from here, never from the tree.

use serde::Serialize;

/// A byte range `start..end` in the source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
pub struct Span {
    /// The first byte.
    pub start: usize,
    /// The byte after the last.
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// How many bytes.
    pub fn len(self) -> usize {
        self.end - self.start
    }

    /// Whether it covers no byte.
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(s: Span) -> Self {
        (s.start, s.len()).into()
    }
}

/// Whose a zone or variable is, when it is not the whole table's: each seat's or each side's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Owner {
    Seat,
    Side,
}

/// Who may see a zone's cards or count them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Audience {
    Everyone,
    Owner,
    Nobody,
}

/// Which end of a ranking wins: `result highest ...` or `result lowest ...`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Extreme {
    Highest,
    Lowest,
}

/// How an assignment changes its place: `=`, `+=` or `-=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
}

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum BinOp {
    /// `lo..hi`, both ends included: a list of ints.
    Range,
    Or,
    And,
    In,
    NotIn,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    /// `a + b` of two sets, or of a set and a member (the checker's reading of `+` on sets).
    Union,
    /// `a - b` of two sets, or of a set and a member.
    Without,
}

/// An aggregate over a domain: `sum`, `max`, `count`, `exists`, `cards`, ...
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum AggOp {
    Sum,
    Max,
    Min,
    Count,
    Exists,
    Every,
    Highest,
    Lowest,
    /// `first t in others(s) where cond`: the first element that meets the condition, or `none`.
    First,
    /// `cards c in zone where cond`
    Cards,
}
