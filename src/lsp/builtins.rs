//! What the names every rule file may use without declaring them mean, in one line each (from
//! the language reference's table of built-in names and functions, and its types).

use crate::check::BUILTIN_NAMES;

/// A built-in name: how it is written and what it is.
pub(super) struct Builtin {
    pub usage: &'static str,
    pub doc: &'static str,
}

const DOCS: [(&str, Builtin); 23] = [
    ("seats", Builtin { usage: "seats", doc: "all seats, clockwise from the first (a list of seats)" }),
    ("sides", Builtin { usage: "sides", doc: "all sides, in the order declared (a list of sides)" }),
    ("players", Builtin { usage: "players", doc: "the number of players (int)" }),
    ("left", Builtin { usage: "left(seat): seat", doc: "the next seat clockwise" }),
    ("right", Builtin { usage: "right(seat): seat", doc: "the next seat anticlockwise" }),
    ("opposite", Builtin { usage: "opposite(seat): seat", doc: "the seat half-way round the table" }),
    ("next", Builtin { usage: "next(seat, n): seat", doc: "n seats clockwise from the seat (n may be negative)" }),
    (
        "others",
        Builtin { usage: "others(seat): list of seats", doc: "every seat but this one, clockwise from its left" },
    ),
    (
        "side",
        Builtin {
            usage: "side(seat): side?",
            doc: "the side of a seat (`none` for a seat on no side); also the type of sides",
        },
    ),
    ("members", Builtin { usage: "members(side): list of seats", doc: "the seats of a side" }),
    (
        "holder",
        Builtin {
            usage: "holder(card): seat?",
            doc: "the seat whose per-seat pile holds the card now, `none` if none does",
        },
    ),
    (
        "player",
        Builtin {
            usage: "player(card): seat?",
            doc: "the seat from whose per-seat pile the card last came (who played it)",
        },
    ),
    (
        "count",
        Builtin { usage: "count(zone): int", doc: "the number of cards in a zone, or of elements of a list or set" },
    ),
    (
        "first",
        Builtin {
            usage: "first(zone): card?  first x in D where C  first N of PILE",
            doc: "the bottom card of a zone, `none` when it is empty; with `in`, the first element of D meeting C, `none` if none does; with `of`, the bottom N cards of a pile",
        },
    ),
    (
        "last",
        Builtin {
            usage: "last(zone): card?  last N of PILE",
            doc: "the top card of a zone, `none` when it is empty; with `of`, the top N cards of a pile (`first(last 3 of played)` is the third from the top)",
        },
    ),
    ("ord", Builtin { usage: "ord(value): int", doc: "an enumeration value's position, from 0" }),
    ("abs", Builtin { usage: "abs(n): int", doc: "the absolute value of a number" }),
    ("max", Builtin { usage: "max(a, b): int", doc: "the larger of two numbers" }),
    ("min", Builtin { usage: "min(a, b): int", doc: "the smaller of two numbers" }),
    ("int", Builtin { usage: "int", doc: "the type of whole numbers, 64-bit signed" }),
    ("bool", Builtin { usage: "bool", doc: "the type of `true` and `false`" }),
    ("seat", Builtin { usage: "seat", doc: "the type of seats" }),
    ("card", Builtin { usage: "card", doc: "the type of the cards of the pack" }),
];

/// The doc of a built-in name, function or type.
pub(super) fn builtin(name: &str) -> Option<&'static Builtin> {
    DOCS.iter().find(|(n, _)| *n == name).map(|(_, b)| b)
}

/// Whether a name is one every rule file may use without declaring it.
pub(super) fn is_builtin(name: &str) -> bool {
    BUILTIN_NAMES.contains(&name) || builtin(name).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_name_has_a_doc() {
        for name in BUILTIN_NAMES {
            assert!(builtin(name).is_some(), "no doc for {name}");
        }
    }
}
