//! What the flow itself tells: effects every player notices, run or not by a condition on cards
//! some player may not see.
//!
//! A statement every player notices (a variable given a value, narration, a move, a deal, a
//! shuffle, a decision asked, a phase started or left, a `reveal`) tells everyone that the flow
//! reached it. Under an `if`, a loop or a tier whose condition reads hidden cards, it would tell
//! everyone about those cards: the checker keeps the conditions on hidden cards the flow is
//! under (its *guards*) and refuses such an effect there (`paradox::E0116`). A `let` name
//! declared inside the guarded block may be given values (it is gone when the block ends);
//! one declared outside it may not, unless it holds a card.
//!
//! The names of cards found in hidden zones (a loop's or a choice's) read those zones, like a
//! `let` holding such a card. A choice's card that is then moved where everyone sees it, or
//! any such name that is revealed, is public from there to the end of its block.
//!
//! `reveal CARDS` is the honest way to tell: it shows the cards and where they lie to everyone
//! (an event in every player's log). Until cards move or are dealt somewhere not everyone sees,
//! or the block ends, `holder` of a revealed card and the cards of a revealed pile read nothing
//! hidden; a shuffle of a pile not everyone sees ends it for the piles of its zone. A loop's body
//! starts with what was shown before the loop, less what any statement of the body could end.

use super::hidden::{Hidden, HiddenCard};
use super::{Checker, Global};
use crate::diagnostic::{Code, Problem};
use crate::game::*;
use crate::syntax::ast::{self, Audience, Span};

/// A block the flow may be under a condition on hidden cards in.
pub(super) struct Guard {
    /// The condition, once known to read hidden cards; `None` while it is not yet known (the
    /// condition of `repeat until` is checked after its body).
    cause: Option<Cause>,
    /// How many locals were in scope when the guard began: those declared later are its own.
    locals: usize,
    /// The effects met while the cause is not yet known.
    deferred: Vec<Effect>,
}

/// Something every player would notice under a guard: what it is, where, and whether it is the
/// match stopping.
pub(super) struct Effect {
    what: String,
    span: Span,
    stop: bool,
}

/// A condition on hidden cards.
#[derive(Clone)]
struct Cause {
    /// The zone the condition reads, and where.
    hidden: (ZoneId, Span),
    /// The condition (or domain) that reads it, and what it is called.
    at: Span,
    what: &'static str,
}

/// Something a `reveal` has shown, while it still lies where it was shown.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Shown {
    /// A card written in the rules.
    Card(CardId),
    /// A `let`, loop or choice name for a card.
    Name(Slot),
    /// A pile: its zone and the name or value indexing it.
    Pile(ZoneId, Option<Index>),
}

/// The index of a revealed pile, when it is a name or a value (`hand[s]`, `hand[P1]`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Index {
    Name(Slot),
    Var(VarId),
    Value(Value),
}

/// A pile's zone and index, if the index is one a reveal can be matched by.
fn pile_key(e: &Expr) -> Option<(ZoneId, Option<Index>)> {
    let ExprKind::Zone(z, ix) = &e.kind else { return None };
    let ix = match ix {
        None => None,
        Some(ix) => Some(index_key(ix)?),
    };
    Some((*z, ix))
}

/// The index `e` stands for, if it is a name, a variable or a value.
pub(super) fn index_key(e: &Expr) -> Option<Index> {
    match &e.kind {
        ExprKind::Local(slot) => Some(Index::Name(*slot)),
        ExprKind::Var(v) => Some(Index::Var(*v)),
        ExprKind::Const(v) => Some(Index::Value(*v)),
        _ => None,
    }
}

impl Checker {
    /// Runs `f` under the guard of `exprs` if they read hidden cards (`what` names them).
    pub(super) fn guarded<T>(
        &mut self,
        exprs: &[&Expr],
        at: Span,
        what: &'static str,
        f: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let mut found = Vec::new();
        for e in exprs {
            self.hidden_reads(e, &mut found);
        }
        self.guarded_by(found.first(), at, what, f)
    }

    /// Runs `f` under a guard for the hidden read `hidden`, if there is one.
    pub(super) fn guarded_by<T>(
        &mut self,
        hidden: Option<&Hidden>,
        at: Span,
        what: &'static str,
        f: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let Some(h) = hidden else { return f(self) };
        let cause = Cause { hidden: (h.zone, h.inner), at, what };
        self.guards.push(Guard { cause: Some(cause), locals: self.locals.len(), deferred: Vec::new() });
        let out = f(self);
        self.guards.pop();
        out
    }

    /// Runs `f` under a guard whose condition is known only afterwards: `cond` checks it and
    /// says what it is called. The effects `f` met are refused then if it reads hidden cards.
    pub(super) fn guarded_after<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> T,
        cond: impl FnOnce(&mut Self) -> (Expr, &'static str),
    ) -> (T, Expr) {
        self.guards.push(Guard { cause: None, locals: self.locals.len(), deferred: Vec::new() });
        let out = f(self);
        let (c, what) = cond(self);
        let mut found = Vec::new();
        self.hidden_reads(&c, &mut found);
        let guard = self.guards.pop().map(|g| g.deferred).unwrap_or_default();
        match found.first() {
            Some(h) => {
                let cause = Cause { hidden: (h.zone, h.inner), at: c.span, what };
                for effect in guard {
                    self.report_flow_leak(&cause, &effect);
                }
            }
            // Not hidden here: the effects wait for an enclosing guard not yet known, if any.
            None => {
                if let Some(outer) = self.guards.iter_mut().rev().find(|g| g.cause.is_none()) {
                    outer.deferred.extend(guard);
                }
            }
        }
        (out, c)
    }

    /// Refuses an effect every player notices (`effect` says what it is) under a guard.
    pub(super) fn refuse_in_hidden_flow(&mut self, effect: &str, span: Span) {
        self.refuse_under(0, Effect { what: effect.to_string(), span, stop: false });
    }

    /// Refuses under a guard what may stop the match (`what` says what it is): every player
    /// notices the match stop (see `stops`).
    pub(super) fn refuse_stop_in_hidden_flow(&mut self, what: String, span: Span) {
        self.refuse_under(0, Effect { what, span, stop: true });
    }

    /// Whether the flow being checked is under a condition that may read hidden cards.
    pub(super) fn in_guarded_flow(&self) -> bool {
        !self.guards.is_empty()
    }

    /// Refuses giving a value to the `let` name `slot` (not a card) declared outside a guard.
    pub(super) fn refuse_outer_let_in_hidden_flow(&mut self, slot: Slot, name: &str, span: Span) {
        let Some(at) = self.locals.iter().position(|l| l.slot == slot) else { return };
        let from = self.guards.iter().position(|g| at < g.locals).unwrap_or(self.guards.len());
        self.refuse_under(from, Effect { what: format!("giving `{name}` a value"), span, stop: false });
    }

    /// Refuses an effect under the outermost guard from the `from`-th that reads hidden cards,
    /// or leaves it to a guard whose condition is not yet known.
    fn refuse_under(&mut self, from: usize, effect: Effect) {
        let guards = self.guards.get_mut(from..).unwrap_or_default();
        if let Some(cause) = guards.iter().find_map(|g| g.cause.clone()) {
            self.report_flow_leak(&cause, &effect);
        } else if let Some(pending) = guards.last_mut() {
            pending.deferred.push(effect);
        }
    }

    fn report_flow_leak(&mut self, guard: &Cause, effect: &Effect) {
        let Effect { what: effect, span, stop } = effect;
        let span = *span;
        let zone = &self.zones[guard.hidden.0 as usize];
        let who = if zone.see == Audience::Owner { "its owner only" } else { "nobody" };
        let message = format!(
            "{effect} depends on {} over `{}`, which is seen by {who}: everyone would learn it",
            guard.what, zone.name
        );
        let (help, label) = if *stop {
            (
                "every player notices the match stop, so nothing may stop it under a condition on cards they cannot \
                 see: under it, go through cards, seats or an enumeration with `for`, and compute values that \
                 cannot fail; or decide the condition from what everyone sees, or tell everyone the cards first \
                 with `reveal CARDS` (see \"What the flow tells\" in LANGUAGE.md)",
                "may stop the match",
            )
        } else {
            (
                "every player notices this happen, so it may not depend on cards they cannot see: decide it from \
                 what everyone sees, ask the decision every time (its tiers may read the cards), or tell everyone \
                 first with `reveal CARDS` (see \"What the flow tells\" in LANGUAGE.md)",
                "everyone sees this happen",
            )
        };
        let mut problem = Problem::new(Code::Hidden, message, span, label).help(help);
        problem = problem.note(guard.at, format!("{} reads `{}`", guard.what, zone.name));
        let (read, at) = (guard.hidden.1, guard.at);
        if read.start < at.start || read.end > at.end {
            problem = problem.note(guard.hidden.1, format!("`{}` is read here", zone.name));
        }
        self.report(problem);
    }

    /// Names a card found in `domain` (a loop's or a choice's), hidden if the zone is.
    pub(super) fn note_found_card(&mut self, name: &str, slot: Slot, domain: &Expr) {
        if let ExprKind::Zone(z, _) | ExprKind::ZoneAll(z) = &domain.kind
            && self.zones[*z as usize].see != Audience::Everyone
            && !self.pile_shown(domain)
        {
            let pile = pile_key(domain).and_then(|(_, ix)| ix);
            self.note_hidden_card(slot, HiddenCard { zone: *z, pile, name: name.to_string(), taken: domain.span });
        }
    }

    /// The guard a `for` binding's domain puts its body under: how many elements there are,
    /// and the `where` condition. The cards of a zone are the loop name's, not the guard's.
    pub(super) fn loop_reads(&self, binding: &Binding, out: &mut Vec<Hidden>) {
        match &binding.domain.kind {
            ExprKind::Zone(z, ix) => {
                let zone = &self.zones[*z as usize];
                if zone.count != Audience::Everyone && !self.pile_shown(&binding.domain) {
                    out.push(Hidden::count(*z, binding.domain.span));
                }
                if let Some(ix) = ix {
                    self.hidden_reads(ix, out);
                }
            }
            ExprKind::ZoneAll(z) if self.zones[*z as usize].count != Audience::Everyone => {
                out.push(Hidden::count(*z, binding.domain.span));
            }
            ExprKind::ZoneAll(_) => {}
            _ => self.hidden_reads(&binding.domain, out),
        }
        for e in binding.start.iter().chain(&binding.filter) {
            self.hidden_reads(e, out);
        }
    }

    /// After `move CARDS to PILE`: what a reveal showed may no longer lie as shown (see
    /// [`Checker::after_cards_land`]); a name for a card moved where everyone sees it is public,
    /// and one moved elsewhere lies in that pile (its owner sees it there).
    pub(super) fn after_move(&mut self, cards: &Expr, to: &Expr) {
        let zone = match &to.kind {
            ExprKind::Zone(z, _) => Some(*z),
            _ => None,
        };
        self.after_cards_land(zone);
        let ExprKind::Local(slot) = &cards.kind else { return };
        match (zone, pile_key(to)) {
            (Some(z), _) if self.zones[z as usize].see == Audience::Everyone => {
                self.hidden_cards.remove(slot);
            }
            (Some(z), key) => {
                if let Some(card) = self.hidden_cards.get_mut(slot) {
                    card.zone = z;
                    card.pile = key.and_then(|(_, ix)| ix);
                }
            }
            (None, _) => {}
        }
    }

    /// After cards moved or were dealt to piles of `zone` (`None`: not known): when everyone
    /// sees them land, every player sees which cards went where, so what a reveal showed still
    /// lies as shown; otherwise a revealed card may have gone, or a revealed pile taken in or
    /// lost a card, unseen, and nothing revealed counts any longer.
    pub(super) fn after_cards_land(&mut self, zone: Option<ZoneId>) {
        if !zone.is_some_and(|z| self.zones[z as usize].see == Audience::Everyone) {
            self.shown.clear();
        }
    }

    /// After `shuffle PILE`: unless everyone sees the pile, the order of its cards is new and
    /// unseen, so a revealed pile of its zone no longer lies as shown (a revealed card is still
    /// in the pile it was shown in).
    pub(super) fn after_shuffle(&mut self, pile: &Expr) {
        if let ExprKind::Zone(z, _) = &pile.kind
            && self.zones[*z as usize].see == Audience::Everyone
        {
            return;
        }
        let zone = pile_key(pile).map(|(z, _)| z);
        self.shown.retain(|s| !matches!(s, Shown::Pile(z, _) if zone.is_none_or(|zone| *z == zone)));
    }

    /// After `reveal CARDS`: what is now shown.
    pub(super) fn after_reveal(&mut self, cards: &Expr) {
        let shown = match &cards.kind {
            ExprKind::Const(Value::Card(c)) => Shown::Card(*c),
            ExprKind::Local(slot) => {
                self.hidden_cards.remove(slot);
                Shown::Name(*slot)
            }
            _ => match pile_key(cards) {
                Some((z, ix)) => Shown::Pile(z, ix),
                None => return,
            },
        };
        self.shown.push(shown);
    }

    /// Whether `e` is a pile a `reveal` has shown.
    pub(super) fn pile_shown(&self, e: &Expr) -> bool {
        matches!(&e.kind, ExprKind::Zone(z, ix) if self.shown_pile(*z, ix.as_deref()))
    }

    /// Whether the pile of zone `z` with the index `ix` is one a `reveal` has shown.
    pub(super) fn shown_pile(&self, z: ZoneId, ix: Option<&Expr>) -> bool {
        let ix = match ix {
            None => None,
            Some(ix) => match index_key(ix) {
                Some(key) => Some(key),
                None => return false,
            },
        };
        self.shown.contains(&Shown::Pile(z, ix))
    }

    /// A name or variable is given a value: a pile it indexes is no longer the one revealed.
    pub(super) fn forget_piles_indexed_by(&mut self, target: &Target) {
        let index = match target {
            Target::Local(slot) => Index::Name(*slot),
            Target::Var(v) => Index::Var(*v),
            Target::VarAt(..) => return,
        };
        self.shown.retain(|s| !matches!(s, Shown::Pile(_, Some(ix)) if *ix == index));
    }

    /// Whether `holder(e)` (or `e in ZONE`) tells where a revealed card is.
    pub(super) fn holder_shown(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Const(Value::Card(c)) => self.shown.contains(&Shown::Card(*c)),
            ExprKind::Local(slot) => self.shown.contains(&Shown::Name(*slot)),
            _ => false,
        }
    }

    /// Checks a block as its own region: names made public or moved inside it are hidden again
    /// after it, as they were before it, and what it revealed is forgotten (what it moved stays
    /// forgotten).
    pub(super) fn region<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let hidden = self.hidden_cards.clone();
        let shown = self.shown.clone();
        let out = f(self);
        self.hidden_cards.extend(hidden);
        let inside = std::mem::take(&mut self.shown);
        self.shown = shown.into_iter().filter(|s| inside.contains(s)).collect();
        out
    }

    /// Before a loop whose body is `body` (or a `simultaneously` block, run for one seat after
    /// another): a later round comes after what the earlier ones did, so each round, and a
    /// condition read before each, sees only what was shown before the loop that no round can
    /// end (see [`Checker::round_forgets`]).
    pub(super) fn forget_for_rounds(&mut self, body: &ast::Block) {
        let mut forgets = Forgets::default();
        self.round_forgets(&body.stmts, &mut forgets);
        self.shown.retain(|s| match s {
            _ if forgets.everything => false,
            Shown::Pile(_, Some(ix)) => !forgets.indexes.contains(ix),
            _ => true,
        });
    }

    /// What a round of a loop's body may make forget of what was shown before the loop, read
    /// from its statements before they are checked: each statement that makes the checker
    /// forget counts (cards moved or dealt where not everyone sees them land, a shuffle, a
    /// procedure, whose statements are not read here; a name or variable given a value).
    fn round_forgets(&self, stmts: &[ast::Stmt], out: &mut Forgets) {
        use ast::StmtKind as K;
        for s in stmts {
            match &s.kind {
                K::Let { .. } | K::Say { .. } | K::Reveal { .. } | K::Redo { .. } | K::End { .. } => {}
                K::Assign { target, .. } => out.indexes.extend(self.index_named(&target.name.name)),
                K::If { then, otherwise, .. } => {
                    for b in std::iter::once(then).chain(otherwise) {
                        self.round_forgets(&b.stmts, out);
                    }
                }
                K::For { body, .. }
                | K::Repeat { body, .. }
                | K::RepeatUntil { body, .. }
                | K::While { body, .. }
                | K::Phase { body, .. }
                | K::Simultaneously { body, .. } => self.round_forgets(&body.stmts, out),
                K::Choose(c) => {
                    for b in c.tiers.iter().filter_map(|t| t.then.as_ref()) {
                        self.round_forgets(&b.stmts, out);
                    }
                }
                K::Move { to, .. } => {
                    let zone = match &to.kind {
                        ast::ExprKind::Index(base, _) => base,
                        _ => to,
                    };
                    let ast::ExprKind::Name(name) = &zone.kind else {
                        out.everything = true;
                        continue;
                    };
                    out.everything |= !self.in_view(&name.name);
                }
                K::Deal { to, .. } => out.everything |= !self.in_view(&to.name),
                K::Shuffle { .. } | K::Call { .. } | K::MakeCard { .. } => out.everything = true,
            }
        }
    }

    /// Whether `name` is a zone everyone sees: cards moved there land in view.
    fn in_view(&self, name: &str) -> bool {
        let shadowed = self.locals.iter().any(|l| l.name == name);
        matches!(self.globals.get(name), Some((Global::Zone(z), _))
            if !shadowed && self.zones[*z as usize].see == Audience::Everyone)
    }

    /// The pile index a name given a value stands for: a `let` name in scope, or a variable
    /// (none for a name declared later, inside the loop: no pile revealed before it uses it).
    fn index_named(&self, name: &str) -> Option<Index> {
        match self.locals.iter().rev().find(|l| l.name == name) {
            Some(local) => Some(Index::Name(local.slot)),
            None => match self.globals.get(name) {
                Some((Global::Var(v), _)) => Some(Index::Var(*v)),
                _ => None,
            },
        }
    }
}

/// What a round of a loop may make forget of what a reveal showed before the loop.
#[derive(Default)]
struct Forgets {
    /// Everything (cards may have moved unseen).
    everything: bool,
    /// The piles indexed by these names and variables, which are given other values.
    indexes: Vec<Index>,
}
