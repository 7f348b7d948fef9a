//! Types as the checker sees them: reading written types, naming them in messages, and deciding
//! whether a value of one type may stand where another is needed.

use super::Checker;
use crate::diagnostic::{Code, Problem, did_you_mean};
use crate::game::{Builtin, Type};
use crate::syntax::ast::{self, TypeKind};

/// Names every rule file may use without declaring them.
pub(crate) const BUILTIN_NAMES: &[&str] = &[
    "seats", "sides", "players", "left", "right", "opposite", "next", "others", "side", "members", "holder", "player",
    "count", "first", "last", "ord", "abs", "max", "min",
];

/// The built-in function of a name, if it is one.
pub(super) fn builtin(name: &str) -> Option<Builtin> {
    Some(match name {
        "left" => Builtin::Left,
        "right" => Builtin::Right,
        "opposite" => Builtin::Opposite,
        "next" => Builtin::Next,
        "others" => Builtin::Others,
        "side" => Builtin::SideOf,
        "members" => Builtin::Members,
        "holder" => Builtin::Holder,
        "player" => Builtin::Player,
        "count" => Builtin::Count,
        "first" => Builtin::First,
        "last" => Builtin::Last,
        "ord" => Builtin::Ord,
        "abs" => Builtin::Abs,
        "max" => Builtin::Max,
        "min" => Builtin::Min,
        _ => return None,
    })
}

/// How a built-in function is called, for messages.
pub(super) fn usage(b: Builtin) -> &'static str {
    match b {
        Builtin::Left => "left(seat)",
        Builtin::Right => "right(seat)",
        Builtin::Opposite => "opposite(seat)",
        Builtin::Next => "next(seat, n)",
        Builtin::Others => "others(seat)",
        Builtin::SideOf => "side(seat)",
        Builtin::Members => "members(side)",
        Builtin::Holder => "holder(card)",
        Builtin::Player => "player(card)",
        Builtin::Count => "count(zone)",
        Builtin::First => "first(zone)",
        Builtin::Last => "last(zone)",
        Builtin::Ord => "ord(value)",
        Builtin::Abs => "abs(n)",
        Builtin::Max => "max(a, b)",
        Builtin::Min => "min(a, b)",
    }
}

/// Whether a value of type `got` may stand where `want` is needed. An optional value fits its
/// base type (a `none` there stops the game with a run-time diagnostic).
pub(super) fn fits(want: &Type, got: &Type) -> bool {
    match (want, got) {
        (Type::Error, _) | (_, Type::Error) => true,
        (Type::Opt(_), Type::NoneLit) => true,
        (Type::Opt(w), g) => fits(w, g.base()),
        (w, Type::Opt(g)) => fits(w, g),
        (Type::Set(w), Type::List(g)) => matches!(**g, Type::Error) || fits(w, g),
        // The cards of a pile, a selection or a group, kept as a set.
        (Type::Set(w), Type::Cards | Type::Group | Type::ZoneFamily(_)) => **w == Type::Card,
        (Type::Set(w), Type::Set(g)) => fits(w, g),
        (Type::List(w), Type::List(g)) => fits(w, g),
        (w, g) => w == g,
    }
}

/// Types that are places or collections rather than single values.
pub(super) fn is_collection(t: &Type) -> bool {
    matches!(t, Type::List(_) | Type::Cards | Type::Group | Type::ZoneFamily(_))
}

/// Types a variable or `let` can hold.
pub(super) fn storable(t: &Type) -> bool {
    match t {
        Type::Opt(inner) => storable(inner),
        Type::Int | Type::Bool | Type::Seat | Type::Side | Type::Card | Type::Enum(_) | Type::Set(_) => true,
        _ => false,
    }
}

/// The element type when `t` is iterated, if it can be.
pub(super) fn element(t: &Type) -> Option<Type> {
    match t.base() {
        Type::List(e) | Type::Set(e) => Some((**e).clone()),
        Type::Cards | Type::Group | Type::ZoneFamily(_) => Some(Type::Card),
        Type::Error => Some(Type::Error),
        _ => None,
    }
}

/// Types that can be ordered with `<` and used as a `by` key.
pub(super) fn ordered(t: &Type) -> bool {
    matches!(t.base(), Type::Int | Type::Enum(_) | Type::Error)
}

impl Checker {
    /// How a type is named in messages.
    pub(super) fn type_name(&self, t: &Type) -> String {
        match t {
            Type::Int => "int".into(),
            Type::Bool => "bool".into(),
            Type::Seat => "seat".into(),
            Type::Side => "side".into(),
            Type::Card => "card".into(),
            Type::Enum(e) => self.enums.get(*e as usize).map_or("enum".into(), |e| e.name.clone()),
            Type::Set(e) => format!("set of {}", self.type_name(e)),
            Type::Opt(e) => format!("{}?", self.type_name(e)),
            Type::List(e) if matches!(**e, Type::Error) => "list".into(),
            Type::List(e) => format!("list of {}", self.type_name(e)),
            Type::Cards => "cards (a zone)".into(),
            Type::Group => "cards chosen together".into(),
            Type::ZoneFamily(z) => format!("the per-{} zone `{}`", self.owner_word(*z), self.zones[*z as usize].name),
            Type::Text => "text".into(),
            Type::NoneLit => "none".into(),
            Type::Error => "unknown".into(),
        }
    }

    /// A type as a thing, with its article, for messages about the wrong kind of thing: "a
    /// seat", "a number", "a zone".
    pub(super) fn a_type(&self, t: &Type) -> String {
        match t {
            Type::Int => "a number".into(),
            Type::Bool => "a truth value".into(),
            Type::Seat => "a seat".into(),
            Type::Side => "a side".into(),
            Type::Card => "a card".into(),
            Type::Cards => "a zone".into(),
            Type::Group => "a group of cards".into(),
            Type::Enum(_) => format!("a {} value", self.type_name(t)),
            Type::Set(_) | Type::List(_) => format!("a {}", self.type_name(t)),
            Type::Opt(inner) => self.a_type(inner),
            _ => self.type_name(t),
        }
    }

    fn owner_word(&self, z: u16) -> &'static str {
        match self.zones[z as usize].owner {
            Some(ast::Owner::Side) => "side",
            _ => "seat",
        }
    }

    /// Reads a written type. `attr_range` allows `0..10` (card attributes).
    pub(super) fn resolve_type(&mut self, t: &ast::TypeExpr, allow_range: bool) -> Type {
        let base = match &t.kind {
            TypeKind::Card => Type::Card,
            TypeKind::Range(lo, hi) => {
                if !allow_range {
                    self.error(
                        Code::TypeMismatch,
                        "a range is not a type here",
                        t.span,
                        "only card attributes take a range",
                        "write `int` and give a parameter its range with `in LOW..HIGH`",
                    );
                } else if lo > hi {
                    self.error(
                        Code::OutOfRange,
                        format!("the range {lo}..{hi} is empty"),
                        t.span,
                        "low end above high end",
                        "write the lower number first",
                    );
                }
                Type::Int
            }
            TypeKind::SetOf(inner) => {
                let elem = self.resolve_type(inner, false);
                if !(self.settable(&elem) || elem == Type::Error) || inner.optional {
                    self.error(
                        Code::TypeMismatch,
                        format!("a set of {} is not supported", self.type_name(&elem)),
                        inner.span,
                        "not an enumeration, seat or card",
                        "sets hold seats, cards, or the values of an enumeration of at most 64 values",
                    );
                    Type::Error
                } else {
                    Type::Set(Box::new(elem))
                }
            }
            TypeKind::Named(ident) => self.named_type(ident),
            TypeKind::Zone => self.zone_not_a_value(t.span),
        };
        if t.optional { base.opt() } else { base }
    }

    fn named_type(&mut self, ident: &ast::Ident) -> Type {
        match ident.name.as_str() {
            "int" => Type::Int,
            "bool" => Type::Bool,
            "seat" => Type::Seat,
            "side" => Type::Side,
            "card" => Type::Card,
            name => match self.globals.get(name) {
                Some((super::Global::EnumType(e), _)) => Type::Enum(*e),
                _ => {
                    let mut candidates = vec!["int", "bool", "seat", "side", "card"];
                    if self.may_suggest(self.enums.len()) {
                        candidates.extend(self.enums.iter().map(|e| e.name.as_str()));
                    }
                    let problem =
                        Problem::new(Code::UnknownName, format!("unknown type `{name}`"), ident.span, "not a type");
                    self.report(match did_you_mean(name, candidates) {
                        Some(s) => problem.did_you_mean(ident.span, name, s),
                        None => problem.help("types are int, bool, seat, side, card, set of E, T? and the enumerations declared with `enum`"),
                    });
                    Type::Error
                }
            },
        }
    }
}
