//! Reads of what some player may not see, in values every player sees: the `show` lines, and the
//! values kept in variables and `let` names.
//!
//! Variables are public: every player, and every computer player through its view, sees them.
//! A computer player searches worlds built from what its player may know, where the cards it
//! cannot see are dealt afresh but the flow's names and variables are copied as they are. So a
//! number, a truth, an enumeration value, a seat or a set computed from the cards of a zone not
//! everyone sees, kept in a variable or a name, would tell everyone about those cards.
//!
//! A card itself is different when kept in a `let` name: the name holds the card, which a world
//! renames with the cards dealt afresh, and no player sees the names of the flow. So a `let`
//! holding a card may take it from any zone (`let c = first(hand[s])`); what is then read of
//! that name in a kept value (`c.rank`) reads the zone it came from, and `holder` of a name for
//! a card everyone can name tells where that card lies (see [`Checker::note_card_name`]). A
//! variable holding a card is different again: every player sees which card it is, so it may not
//! take one from a hidden zone.
//!
//! Only the value is looked at, and the definitions it calls: conditions (`if`, `while`, the
//! tiers of `choose`, `where` of a loop), the domains of loops and choices, moves and `say` are
//! not, as they keep nothing where everyone sees it; nor are the names of loops and choices
//! (a chosen card is usually moved where everyone sees it before it is read).

use super::Checker;
use super::leaks::{Index, index_key};
use crate::diagnostic::{Code, Problem};
use crate::game::*;
use crate::syntax::ast::{Audience, BinOp, Owner, Span};

/// Who reads the values: says what the message calls the place and what the help advises.
#[derive(Clone, Copy)]
pub(super) enum Reader<'a> {
    /// A `show` line.
    Show,
    /// Another text every player reads, named: "a `sheet` cell", "the count of a phase".
    Public(&'a str),
    /// The value of a `let` name (given or assigned).
    Let(&'a str),
    /// The value assigned to a variable.
    Var(&'a str),
    /// A statement of the flow every player notices, named: "the seat that decides".
    Flow(&'a str),
    /// Whether the match stops at a part of a value, named.
    Stop(&'a str),
    /// The label of an option (`as "..."`), logged to every player once chosen; `own` are the
    /// choice's names for a card or group, named to a player only once its cards land where
    /// that player sees them.
    Label { own: &'a [Slot] },
    /// What the seat that decides is shown (`what`): the options, how many there are, which are
    /// legal. It sees the piles of its own that `by` names; `own` are the choice's own names.
    Chooser { what: &'a str, by: &'a Expr, own: &'a [Slot] },
}

/// A name for a card taken from a zone not everyone sees: the zone and the pile it lies in, as
/// far as the checker follows the card (`None`: a shared pile, or one it cannot name), the
/// name, and where the card was taken.
#[derive(Clone)]
pub(super) struct HiddenCard {
    pub(super) zone: ZoneId,
    pub(super) pile: Option<Index>,
    pub(super) name: String,
    pub(super) taken: Span,
}

/// How a value reads a zone that not everyone may see.
#[derive(Clone, Copy)]
enum Read {
    /// Its cards.
    Cards,
    /// How many cards it has, with `count(...)`.
    Count,
    /// Which pile of it holds a card, with `holder(...)`.
    Holder,
    /// Who played a card that may lie in it, with `player(...)`.
    Player,
    /// A card it gave a `let` name, through that name (the name).
    Named(Slot),
}

/// One hidden read: the zone, the place in the value, and the place it is read (inside a
/// definition when the value calls one).
pub(super) struct Hidden {
    pub(super) zone: ZoneId,
    /// The index of the pile read, when it is one a seat can be matched by.
    pile: Option<Index>,
    read: Read,
    at: Span,
    pub(super) inner: Span,
}

impl Hidden {
    /// How many cards the zone has, read at `at`.
    pub(super) fn count(zone: ZoneId, at: Span) -> Hidden {
        Hidden { zone, pile: None, read: Read::Count, at, inner: at }
    }
}

/// A definition a value calls, looked through: its parameters stand for the arguments given at
/// the call, themselves read in the caller's frame (an index into the walk's frames).
struct Frame<'a> {
    params: &'a [Slot],
    args: &'a [Expr],
    outer: Option<usize>,
}

/// One expression still to look at: where it is called from in the value, and in which frame.
/// The walks keep these on a heap stack, not the call stack, as a value may call a chain of
/// definitions thousands deep.
#[derive(Clone, Copy)]
struct Visit<'a> {
    e: &'a Expr,
    call: Option<Span>,
    frame: Option<usize>,
}

impl Checker {
    /// Reports every place the expressions read what some player may not see.
    pub(super) fn refuse_hidden<'e>(&mut self, exprs: impl IntoIterator<Item = &'e Expr>, reader: Reader) {
        let mut found = Vec::new();
        for e in exprs {
            self.hidden_reads(e, &mut found);
        }
        self.report_hidden_reads(found, reader);
    }

    /// Reports the hidden reads `found` that `reader` may not see.
    pub(super) fn report_hidden_reads(&mut self, found: Vec<Hidden>, reader: Reader) {
        for hidden in found {
            if !self.reader_sees(&hidden, reader) {
                self.report_hidden(&hidden, reader);
            }
        }
    }

    /// Remembers the `let` name in `slot`, given or assigned the card `value`, as naming a known
    /// card when the card is picked out by more than where it lies in a zone everyone sees: by a
    /// hidden zone, a card written in the rules, a variable or another such name. `holder` of it
    /// would tell where that card is.
    pub(super) fn note_card_name(&mut self, name: &str, slot: Slot, value: &Expr) {
        let mut found = Vec::new();
        self.hidden_reads(value, &mut found);
        if let Some(first) = found.first() {
            // A card that may come from several piles lies in none known.
            let one_pile = found.iter().all(|h| (h.zone, h.pile) == (first.zone, first.pile));
            let pile = if one_pile { first.pile } else { None };
            self.note_hidden_card(
                slot,
                HiddenCard { zone: first.zone, pile, name: name.to_string(), taken: first.inner },
            );
        }
        if !found.is_empty() || self.names_known_card(value) {
            self.known_cards.insert(slot);
        }
    }

    /// Notes that the name in `slot` holds a hidden card: where it was first taken is kept, and
    /// a card that may lie in another pile than before lies in no pile known.
    pub(super) fn note_hidden_card(&mut self, slot: Slot, card: HiddenCard) {
        match self.hidden_cards.entry(slot) {
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(card);
            }
            std::collections::hash_map::Entry::Occupied(mut o) => {
                let old = o.get_mut();
                if (old.zone, old.pile) != (card.zone, card.pile) {
                    old.pile = None;
                }
            }
        }
    }

    /// Whether `e` mentions a card everyone can name: a card written in the rules, a variable
    /// holding a card, or a `let` name holding a known card.
    fn names_known_card(&self, e: &Expr) -> bool {
        let mut seen = Vec::new();
        let mut todo = vec![e];
        while let Some(e) = todo.pop() {
            match &e.kind {
                ExprKind::Const(Value::Card(_)) => return true,
                ExprKind::Var(v) | ExprKind::VarAt(v, _) if self.vars[*v as usize].ty.base() == &Type::Card => {
                    return true;
                }
                ExprKind::Local(slot) | ExprKind::LocalAttr(slot, _) if self.known_cards.contains(slot) => return true,
                ExprKind::Call(f, _) if !seen.contains(f) => {
                    seen.push(*f);
                    todo.push(&self.functions[*f as usize].body);
                }
                _ => {}
            }
            todo.extend(e.children());
        }
        false
    }

    /// Whether `holder(e)` (or `player(e)`) tells only what the card `e` was found by: `e` is a
    /// name bound to a card where it lay (a loop, a choice, an aggregate, a `let` of a card
    /// picked from zones everyone sees), a definition's parameter given such a name, or a card
    /// picked (`first`, `highest`, ...) from zones everyone sees.
    fn names_found_card<'a>(&self, e: &'a Expr, frame: Option<usize>, frames: &[Frame<'a>]) -> bool {
        let e = resolved(e, frame, frames);
        match e.kind {
            ExprKind::Local(slot) => !self.known_cards.contains(&slot),
            ExprKind::Aggregate(_) | ExprKind::Builtin(Builtin::First | Builtin::Last, _) => {
                let mut found = Vec::new();
                self.hidden_reads(e, &mut found);
                found.is_empty() && !self.names_known_card(e)
            }
            _ => false,
        }
    }

    /// Whether the reader sees what `hidden` reads: the seat that decides sees the cards of its
    /// own piles (and how many), and the choice's own names; the label names the chosen cards
    /// only to those who see them land.
    fn reader_sees(&self, hidden: &Hidden, reader: Reader) -> bool {
        let own = |own: &[Slot]| matches!(hidden.read, Read::Named(slot) if own.contains(&slot));
        match reader {
            Reader::Label { own: slots } => own(slots),
            Reader::Chooser { by, own: slots, .. } => own(slots) || self.seat_sees(hidden, by),
            _ => false,
        }
    }

    /// Whether the seat `by` sees what `hidden` reads: a pile of its own, indexed by the same
    /// name, variable or seat, of a per-seat zone it sees (or counts, for `count`).
    fn seat_sees(&self, hidden: &Hidden, by: &Expr) -> bool {
        let zone = &self.zones[hidden.zone as usize];
        let audience = match hidden.read {
            Read::Count => zone.count,
            Read::Holder | Read::Player => return false,
            Read::Cards | Read::Named(_) => zone.see,
        };
        audience == Audience::Owner
            && zone.owner == Some(Owner::Seat)
            && hidden.pile.is_some_and(|pile| index_key(by) == Some(pile))
    }

    /// Collects every place `e` reads what some player may not see, in the order written; a
    /// definition is looked through at its first call (the call is the place reported).
    pub(super) fn hidden_reads(&self, e: &Expr, out: &mut Vec<Hidden>) {
        let mut seen: Vec<FnId> = Vec::new();
        let mut frames: Vec<Frame> = Vec::new();
        let mut todo = vec![Visit { e, call: None, frame: None }];
        let zone = |z: &ZoneId| &self.zones[*z as usize];
        while let Some(Visit { e, call, frame }) = todo.pop() {
            let pile = |ix: Option<&Expr>| ix.and_then(|ix| index_key(resolved(ix, frame, &frames)));
            let found = |zone: usize, pile, read| Hidden {
                zone: zone as ZoneId,
                pile,
                read,
                at: call.unwrap_or(e.span),
                inner: e.span,
            };
            // What to look at next: the expression's own parts, unless replaced.
            let mut children = e.children();
            let mut body = None;
            match &e.kind {
                ExprKind::Zone(z, ix)
                    if zone(z).see != Audience::Everyone && !self.resolved_pile_shown(e, frame, &frames) =>
                {
                    out.push(found(*z as usize, pile(ix.as_deref()), Read::Cards));
                }
                ExprKind::ZoneAll(z) if zone(z).see != Audience::Everyone => {
                    out.push(found(*z as usize, None, Read::Cards));
                }
                // How many cards a group holds is told to everyone with the choice.
                ExprKind::Builtin(Builtin::Count, args) if matches!(args.first().map(|a| &a.kind), Some(ExprKind::Local(s)) if self.groups.contains(s)) =>
                {
                    children = Vec::new();
                }
                ExprKind::Builtin(Builtin::Count, args) => {
                    if let Some((z, ix)) = args.first().and_then(zone_of) {
                        let shown = args.first().is_some_and(|a| self.resolved_pile_shown(a, frame, &frames));
                        if zone(&z).count != Audience::Everyone && !shown {
                            out.push(found(z as usize, pile(ix), Read::Count));
                        }
                        children = ix.into_iter().collect();
                    }
                }
                ExprKind::Local(slot) | ExprKind::LocalAttr(slot, _) => {
                    if let Some(card) = self.hidden_cards.get(slot) {
                        out.push(found(card.zone as usize, card.pile, Read::Named(*slot)));
                    }
                }
                // Who played a card tells where it lay, like where it lies; a `reveal` shows
                // where a card lies, not who put it there.
                ExprKind::Builtin(b @ (Builtin::Holder | Builtin::Player), args)
                    if !args.first().is_some_and(|c| {
                        // A zone given for the card is reported as such.
                        matches!(c.kind, ExprKind::Zone(..) | ExprKind::ZoneAll(_))
                            || self.names_found_card(c, frame, &frames)
                            || (*b == Builtin::Holder && self.holder_shown(c))
                    }) =>
                {
                    let (hidden, read) = match b {
                        Builtin::Holder => (
                            self.zones.iter().position(|z| z.owner == Some(Owner::Seat) && z.see != Audience::Everyone),
                            Read::Holder,
                        ),
                        _ => (self.zones.iter().position(|z| z.see != Audience::Everyone), Read::Player),
                    };
                    out.extend(hidden.map(|z| found(z, None, read)));
                    if hidden.is_some() && args.first().is_some_and(|c| matches!(c.kind, ExprKind::Local(_))) {
                        // The name itself is the read: it is not reported twice.
                        children.clear();
                    }
                }
                // Where a revealed card lies is no secret.
                ExprKind::Binary(BinOp::In | BinOp::NotIn, card, _) if self.holder_shown(card) => {
                    children = vec![&**card];
                }
                ExprKind::Call(f, args) if !seen.contains(f) => {
                    seen.push(*f);
                    frames.push(Frame { params: &self.functions[*f as usize].params, args, outer: frame });
                    let inner = Some(frames.len() - 1);
                    body =
                        Some(Visit { e: &self.functions[*f as usize].body, call: call.or(Some(e.span)), frame: inner });
                }
                _ => {}
            }
            // The body first, then the parts in order: pushed the other way round.
            todo.extend(children.into_iter().rev().map(|e| Visit { e, call, frame }));
            todo.extend(body);
        }
    }

    /// Whether `e` is a pile a `reveal` has shown, its index read (inside a definition looked
    /// through) as the argument the call gives it.
    fn resolved_pile_shown<'a>(&self, e: &'a Expr, frame: Option<usize>, frames: &[Frame<'a>]) -> bool {
        match &e.kind {
            ExprKind::Zone(z, ix) => self.shown_pile(*z, ix.as_deref().map(|ix| resolved(ix, frame, frames))),
            _ => false,
        }
    }

    fn report_hidden(&mut self, hidden: &Hidden, reader: Reader) {
        let zone = &self.zones[hidden.zone as usize];
        let name = zone.name.clone();
        let who = |a: Audience| match a {
            Audience::Owner => "its owner only",
            _ => "nobody",
        };
        let subject = match reader {
            Reader::Show => "a `show` line".to_string(),
            Reader::Public(what) | Reader::Flow(what) | Reader::Stop(what) | Reader::Chooser { what, .. } => {
                what.to_string()
            }
            Reader::Let(n) => format!("the value of `{n}`"),
            Reader::Var(n) => format!("the value given to `{n}`"),
            Reader::Label { .. } => "the label of an option".to_string(),
        };
        let card = match hidden.read {
            Read::Named(slot) => self.hidden_cards.get(&slot).map(|c| (c.name.clone(), c.taken)),
            _ => None,
        };
        let (message, label) = match hidden.read {
            Read::Cards => (format!("{subject} reads the cards of `{name}`"), format!("seen by {}", who(zone.see))),
            Read::Count => {
                (format!("{subject} counts the cards of `{name}`"), format!("counted by {}", who(zone.count)))
            }
            Read::Holder => {
                (format!("{subject} finds a card in `{name}`"), format!("`{name}` is seen by {}", who(zone.see)))
            }
            Read::Player => (
                format!("{subject} reads who played a card, which may lie in `{name}`"),
                format!("`{name}` is seen by {}", who(zone.see)),
            ),
            Read::Named(_) => (
                format!("{subject} reads `{}`, a card taken from `{name}`", card.as_ref().map_or("", |c| &c.0)),
                format!("`{name}` is seen by {}", who(zone.see)),
            ),
        };
        let mut problem = Problem::new(Code::Hidden, message, hidden.at, label).help(reader_help(reader));
        if hidden.inner != hidden.at {
            problem = problem.note(hidden.inner, format!("`{name}` is read here"));
        }
        if let Some((card, taken)) = card {
            problem = problem.note(taken, format!("`{card}` is taken from `{name}` here"));
        }
        if let Reader::Chooser { by, .. } = reader {
            problem = problem.note(by.span, "this seat decides, and would learn it from its options");
        }
        self.report(problem);
    }
}

/// Who reads what a reader is shown, and the honest ways to write it.
fn reader_help(reader: Reader) -> &'static str {
    match reader {
        Reader::Show => {
            "every player sees the `show` lines: read only zones with `see: everyone`, or the size of one with \
             `count: everyone` as `count(ZONE)`"
        }
        Reader::Public("narration") => {
            "every player reads the same narration: say it after the cards are moved where everyone sees them \
             (or shown with `reveal`), or read only zones with `see: everyone`, or the size of one with `count: \
             everyone` as `count(ZONE)`"
        }
        Reader::Public(RESULT) => {
            "the table prints every seat's standing by this key before each decision, so every player reads it: \
             rank by variables (keep the score as the cards are shown, with `reveal` or moves where everyone sees \
             them), zones with `see: everyone`, or `count(ZONE)` of one with `count: everyone`"
        }
        Reader::Public(_) => {
            "every player reads it: read only zones with `see: everyone`, or the size of one with `count: \
             everyone` as `count(ZONE)`"
        }
        Reader::Flow(_) => {
            "every player sees it in the log: decide it from what everyone sees (zones with `see: everyone`, \
             `count(ZONE)` of one with `count: everyone`, variables), or tell everyone the cards first with \
             `reveal CARDS`"
        }
        Reader::Stop(_) => {
            "every player notices the match stop, so whether it stops may not depend on cards they cannot see: \
             divide by what everyone sees; to find a card of a pile not everyone sees, go through it with `for` \
             and keep the card in a `let` name (`for c in hand[s] where ... { best = c }`), as `highest`, \
             `lowest`, `max` and `min` stop when they find nothing"
        }
        Reader::Label { .. } => {
            "every player reads the option chosen in the log (a card chosen is named to a player once it lands \
             where that player sees it): the label may read the choice itself and what everyone sees; tell \
             the rest with `reveal CARDS` before the choice, or leave it out of the label"
        }
        Reader::Chooser { .. } => {
            "the seat that decides sees its options, how many there are and which are legal: read only the \
             piles of that seat (`choose c from hand[s] by s`) and zones everyone sees, or tell the cards first \
             with `reveal CARDS`; to draw blind from a pile the seat does not see, let it choose a position \
             (`choose i from 1..count(hand[P1]) by P2`, the pile's `count:` being `everyone`) or draw by lot \
             (`move random 1 of hand[P1] to hand[P2]`)"
        }
        Reader::Let(_) | Reader::Var(_) => {
            "every player sees the variables, and every computer player the variables and the `let` names, \
             whatever cards it cannot see: compute the value from what everyone sees (zones with `see: \
             everyone`, `count(ZONE)` of one with `count: everyone`), or leave the cards in their zone and read \
             them where they are used, in a condition or a move"
        }
    }
}

/// What the `result` is called as a reader.
pub(super) const RESULT: &str = "the `result`";

/// The zone an expression stands for, with the index of its pile if one is given.
fn zone_of(e: &Expr) -> Option<(ZoneId, Option<&Expr>)> {
    match &e.kind {
        ExprKind::Zone(z, ix) => Some((*z, ix.as_deref())),
        ExprKind::ZoneAll(z) => Some((*z, None)),
        _ => None,
    }
}

/// `e`, or, when it is a parameter of a definition looked through, the argument given for it,
/// followed out to the frame it is written in.
fn resolved<'a>(mut e: &'a Expr, mut frame: Option<usize>, frames: &[Frame<'a>]) -> &'a Expr {
    loop {
        let ExprKind::Local(slot) = e.kind else { return e };
        let arg = frame.and_then(|f| {
            let f = &frames[f];
            let i = f.params.iter().position(|p| *p == slot)?;
            Some((f.args.get(i)?, f.outer))
        });
        match arg {
            Some((arg, outer)) => (e, frame) = (arg, outer),
            None => return e,
        }
    }
}
