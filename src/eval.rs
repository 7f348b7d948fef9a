//! Evaluation of compiled expressions: what stops it ([`Halt`]), its limits, and the arithmetic
//! and membership that the engine's evaluator of lowered expressions (`engine::vm`) shares with
//! the evaluator of constants ([`constant`]), which works before play, when there is no position
//! yet.

pub(crate) mod constant;

use crate::diagnostic::{Code, Problem};
use crate::game::*;
use crate::vocab::{BinOp, Span};

/// Why evaluation stopped, with the place in the rule file that caused it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Halt {
    pub code: Code,
    pub message: String,
    pub span: Span,
    pub label: String,
    pub help: String,
    /// Other places that explain it, each with its label.
    pub notes: Vec<(Span, String)>,
}

impl Halt {
    /// A halt, boxed so that results stay small on the evaluator's hot path.
    pub(crate) fn new(code: Code, span: Span, message: &str, label: &str, help: &str) -> Box<Halt> {
        Box::new(Halt {
            code,
            message: message.into(),
            span,
            label: label.into(),
            help: help.into(),
            notes: Vec::new(),
        })
    }

    /// The halt as a problem, saying when it happened.
    pub(crate) fn problem(&self, when: &str) -> Problem {
        let problem = Problem::new(self.code, format!("{} {when}", self.message), self.span, self.label.clone())
            .help(self.help.clone());
        self.notes.iter().fold(problem, |p, (span, label)| p.note(*span, label.clone()))
    }
}

pub(crate) type Out<T> = Result<T, Box<Halt>>;

pub(crate) fn not_constant(span: Span) -> Box<Halt> {
    Halt::new(
        Code::Misplaced,
        span,
        "this is not known before play",
        "depends on the game's position",
        "the pack, derived attributes and card names may use parameters, seats, enumerations and definitions, but not zones, variables or chance",
    )
}

/// A value that is `none` (or of the wrong kind) where one is needed.
pub(crate) fn missing(span: Span) -> Box<Halt> {
    Halt::new(
        Code::TypeMismatch,
        span,
        "a value is missing (none)",
        "evaluates to none",
        "make sure the value exists, or test it with `!= none` first",
    )
}

pub(crate) fn overflow(span: Span) -> Box<Halt> {
    Halt::new(Code::OutOfRange, span, "a number grows too large", "overflows 64 bits", "keep numbers within ±9·10¹⁸")
}

/// How much work one evaluator may do before it is taken for an endless loop: each value
/// computed and each number of a range counts one step (callers charge loop rounds too).
pub(crate) const STEP_BUDGET: usize = 1_000_000;

/// How deeply values may be computed inside each other. The syntax limits keep one expression
/// well below this; only definitions calling each other in a long chain go deeper, and would
/// otherwise overflow the stack (512 levels take up to about 8 MB in a debug build).
pub(crate) const MAX_NESTING: usize = 512;

/// Values worked out inside each other past [`MAX_NESTING`]: most often a recursive definition
/// that never reaches a case calling nothing.
pub(crate) fn too_deep(span: Span) -> Box<Halt> {
    Halt::new(
        Code::TooDeep,
        span,
        "values are worked out inside each other too deeply",
        "too deep",
        "definitions call each other (or one calls itself) a few hundred deep here: make sure each call of a recursive definition comes closer to a case that calls nothing",
    )
}

/// Whether `x` is in `set`: a member of a set of enumeration values or seats, or a card of a
/// group of cards chosen at once.
pub(crate) fn member_of(x: Value, set: Value) -> bool {
    match (x, set) {
        (Value::Card(c), Value::Group(g)) => g.has(c),
        (Value::Enum(v), Value::Set(bits)) => v < 64 && bits & (1u64 << v) != 0,
        (Value::Seat(s), Value::Set(bits)) => s < 64 && bits & (1u64 << s) != 0,
        _ => false,
    }
}

/// A set changed by another set or by one member: `Union` (`+`, `+=`) or `Without` (`-`, `-=`).
/// Sets of enumeration values and seats are bits; sets of cards are groups, which may not grow
/// past what a group holds (see [`CardGroup`]). A member that is `none` changes nothing.
pub(crate) fn set_op(op: BinOp, set: Value, other: Value, span: Span) -> Out<Value> {
    let add = matches!(op, BinOp::Union | BinOp::Add);
    let bits = |x: Value| match x {
        Value::Set(bits) => Some(bits),
        Value::None => Some(0),
        Value::Enum(i) if i < 64 => Some(1 << i),
        Value::Seat(s) if s < 64 => Some(1 << s),
        _ => None,
    };
    let cards = |x: Value| match x {
        Value::Group(g) => Some(g.cards().collect::<Vec<_>>()),
        Value::Card(c) => Some(vec![c]),
        Value::None => Some(Vec::new()),
        _ => None,
    };
    match set {
        Value::Set(a) => {
            let b = bits(other).ok_or_else(|| missing(span))?;
            Ok(Value::Set(if add { a | b } else { a & !b }))
        }
        Value::Group(g) => {
            let b = cards(other).ok_or_else(|| missing(span))?;
            let mut kept: Vec<CardId> = g.cards().filter(|c| add || !b.contains(c)).collect();
            if add {
                kept.extend(b);
                kept.sort_unstable();
                kept.dedup();
            }
            card_group(&kept, span)
        }
        _ => Err(missing(span)),
    }
}

/// The set of these cards, or the problem of a set too large for a group.
pub(crate) fn card_group(cards: &[CardId], span: Span) -> Out<Value> {
    CardGroup::of(cards).map(Value::Group).ok_or_else(|| {
        Halt::new(
            Code::OutOfRange,
            span,
            "too many cards for a set of cards",
            "the set would grow past what it holds",
            &format!(
                "a set of cards holds any cards of a pack of up to {SMALL_PACK} cards, and at most {MAX_LISTED} of a larger pack"
            ),
        )
    })
}

pub(crate) fn arith(op: BinOp, x: i64, y: i64, span: Span) -> Out<i64> {
    let result = match op {
        BinOp::Add => x.checked_add(y),
        BinOp::Sub => x.checked_sub(y),
        BinOp::Mul => x.checked_mul(y),
        BinOp::Div | BinOp::Rem if y == 0 => {
            return Err(Halt::new(
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
