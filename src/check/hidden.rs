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
    /// A card it gave a `let` name, through that name (the name).
    Named(Slot),
}

/// One hidden read: the zone, the place in the value, and the place it is read (inside a
/// definition when the value calls one).
pub(super) struct Hidden {
    pub(super) zone: ZoneId,
    read: Read,
    at: Span,
    pub(super) inner: Span,
}

impl Hidden {
    /// How many cards the zone has, read at `at`.
    pub(super) fn count(zone: ZoneId, at: Span) -> Hidden {
        Hidden { zone, read: Read::Count, at, inner: at }
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
        for hidden in found {
            self.report_hidden(&hidden, reader);
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
            self.hidden_cards.entry(slot).or_insert((first.zone, name.to_string(), first.inner));
        }
        if !found.is_empty() || self.names_known_card(value) {
            self.known_cards.insert(slot);
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

    /// Whether `holder(e)` tells only what the name `e` was found by: `e` is a name bound to a
    /// card where it lay (a loop, a choice, an aggregate, a `let` of a card picked from zones
    /// everyone sees), or a definition's parameter given such a name.
    fn names_found_card<'a>(&self, mut e: &'a Expr, mut frame: Option<usize>, frames: &[Frame<'a>]) -> bool {
        loop {
            let ExprKind::Local(slot) = e.kind else { return false };
            let arg = frame.and_then(|f| {
                let f = &frames[f];
                let i = f.params.iter().position(|p| *p == slot)?;
                Some((f.args.get(i)?, f.outer))
            });
            match arg {
                Some((arg, outer)) => (e, frame) = (arg, outer),
                None => return !self.known_cards.contains(&slot),
            }
        }
    }

    /// Collects every place `e` reads what some player may not see, in the order written; a
    /// definition is looked through at its first call (the call is the place reported).
    pub(super) fn hidden_reads(&self, e: &Expr, out: &mut Vec<Hidden>) {
        let mut seen: Vec<FnId> = Vec::new();
        let mut frames: Vec<Frame> = Vec::new();
        let mut todo = vec![Visit { e, call: None, frame: None }];
        let zone = |z: &ZoneId| &self.zones[*z as usize];
        while let Some(Visit { e, call, frame }) = todo.pop() {
            let found =
                |zone: usize, read| Hidden { zone: zone as ZoneId, read, at: call.unwrap_or(e.span), inner: e.span };
            // What to look at next: the expression's own parts, unless replaced.
            let mut children = e.children();
            let mut body = None;
            match &e.kind {
                ExprKind::Zone(z, _) | ExprKind::ZoneAll(z)
                    if zone(z).see != Audience::Everyone && !self.pile_shown(e) =>
                {
                    out.push(found(*z as usize, Read::Cards));
                }
                // How many cards a group holds is told to everyone with the choice.
                ExprKind::Builtin(Builtin::Count, args) if matches!(args.first().map(|a| &a.kind), Some(ExprKind::Local(s)) if self.groups.contains(s)) =>
                {
                    children = Vec::new();
                }
                ExprKind::Builtin(Builtin::Count, args) => {
                    if let Some((z, ix)) = args.first().and_then(zone_of) {
                        if zone(&z).count != Audience::Everyone && !args.first().is_some_and(|a| self.pile_shown(a)) {
                            out.push(found(z as usize, Read::Count));
                        }
                        children = ix.into_iter().collect();
                    }
                }
                ExprKind::Local(slot) | ExprKind::LocalAttr(slot, _) => {
                    if let Some((z, ..)) = self.hidden_cards.get(slot) {
                        out.push(found(*z as usize, Read::Named(*slot)));
                    }
                }
                ExprKind::Builtin(Builtin::Holder, args)
                    if !args
                        .first()
                        .is_some_and(|c| self.names_found_card(c, frame, &frames) || self.holder_shown(c)) =>
                {
                    let hidden =
                        self.zones.iter().position(|z| z.owner == Some(Owner::Seat) && z.see != Audience::Everyone);
                    out.extend(hidden.map(|z| found(z, Read::Holder)));
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

    fn report_hidden(&mut self, hidden: &Hidden, reader: Reader) {
        let zone = &self.zones[hidden.zone as usize];
        let name = zone.name.clone();
        let who = |a: Audience| match a {
            Audience::Owner => "its owner only",
            _ => "nobody",
        };
        let subject = match reader {
            Reader::Show => "a `show` line".to_string(),
            Reader::Public(what) => what.to_string(),
            Reader::Let(n) => format!("the value of `{n}`"),
            Reader::Var(n) => format!("the value given to `{n}`"),
        };
        let (message, label) = match hidden.read {
            Read::Cards => (format!("{subject} reads the cards of `{name}`"), format!("seen by {}", who(zone.see))),
            Read::Count => {
                (format!("{subject} counts the cards of `{name}`"), format!("counted by {}", who(zone.count)))
            }
            Read::Holder => {
                (format!("{subject} finds a card in `{name}`"), format!("`{name}` is seen by {}", who(zone.see)))
            }
            Read::Named(slot) => {
                let card = self.hidden_cards.get(&slot).map(|(_, n, _)| n.as_str()).unwrap_or_default();
                (
                    format!("{subject} reads `{card}`, a card taken from `{name}`"),
                    format!("`{name}` is seen by {}", who(zone.see)),
                )
            }
        };
        let help = match reader {
            Reader::Show => {
                "every player sees the `show` lines: read only zones with `see: everyone`, or the size of one with \
                 `count: everyone` as `count(ZONE)`"
            }
            Reader::Public("narration") => {
                "every player reads the same narration: say it after the cards are moved where everyone sees them \
                 (or shown with `reveal`), or read only zones with `see: everyone`, or the size of one with `count: \
                 everyone` as `count(ZONE)`"
            }
            Reader::Public(_) => {
                "every player reads it: read only zones with `see: everyone`, or the size of one with `count: \
                 everyone` as `count(ZONE)`"
            }
            Reader::Let(_) | Reader::Var(_) => {
                "every player sees the variables, and every computer player the variables and the `let` names, \
                 whatever cards it cannot see: compute the value from what everyone sees (zones with `see: \
                 everyone`, `count(ZONE)` of one with `count: everyone`), or leave the cards in their zone and read \
                 them where they are used, in a condition or a move"
            }
        };
        let mut problem = Problem::new(Code::Hidden, message, hidden.at, label).help(help);
        if hidden.inner != hidden.at {
            problem = problem.note(hidden.inner, format!("`{name}` is read here"));
        }
        if let Read::Named(slot) = hidden.read
            && let Some((_, card, taken)) = self.hidden_cards.get(&slot)
        {
            problem = problem.note(*taken, format!("`{card}` is taken from `{name}` here"));
        }
        self.report(problem);
    }
}

/// The zone an expression stands for, with the index of its pile if one is given.
fn zone_of(e: &Expr) -> Option<(ZoneId, Option<&Expr>)> {
    match &e.kind {
        ExprKind::Zone(z, ix) => Some((*z, ix.as_deref())),
        ExprKind::ZoneAll(z) => Some((*z, None)),
        _ => None,
    }
}
