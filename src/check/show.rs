//! `show` lines: the state that matters now, which every player sees before deciding. They are
//! checked like any expression and, because everyone sees them, may read only what everyone may
//! see: zones with `see: everyone`, and the size of a zone with `count: everyone` through
//! `count(ZONE)`.

use super::Checker;
use super::decls::Parts;
use crate::diagnostic::{Code, Problem};
use crate::game::*;
use crate::syntax::ast::{self, Audience, Owner, Span};

/// How a show line reads a zone that not everyone may see.
#[derive(Clone, Copy)]
enum Read {
    /// Its cards.
    Cards,
    /// How many cards it has, with `count(...)`.
    Count,
    /// Which pile of it holds a card, with `holder(...)`.
    Holder,
}

/// One hidden read: the zone, the place in the show line, and the place it is read (inside a
/// definition when the line calls one).
struct Hidden {
    zone: ZoneId,
    read: Read,
    at: Span,
    inner: Span,
}

impl Checker {
    /// Checks and compiles the `show` lines, in the order written.
    pub(super) fn check_shows(&mut self, parts: &Parts) -> Vec<Show> {
        parts.shows.iter().map(|decl| self.show(decl)).collect()
    }

    fn show(&mut self, decl: &ast::ShowDecl) -> Show {
        let show = self.scoped(|c| {
            let each = decl.each.as_ref().map(|b| c.binding(b));
            let text = c.template(&decl.text);
            let when = decl.when.as_ref().map(|w| c.expect(w, &Type::Bool, "the condition of `show`"));
            Show { each, text, when, span: decl.span }
        });
        let mut found = Vec::new();
        for e in show_exprs(&show) {
            self.hidden_reads(e, None, &mut Vec::new(), &mut found);
        }
        for hidden in found {
            self.report_hidden(&hidden);
        }
        show
    }

    /// Collects every place `e` reads what some player may not see. `call` is the call in the
    /// show line when `e` is a definition's body; `seen` the definitions already looked through.
    fn hidden_reads(&self, e: &Expr, call: Option<Span>, seen: &mut Vec<FnId>, out: &mut Vec<Hidden>) {
        let found =
            |zone: usize, read| Hidden { zone: zone as ZoneId, read, at: call.unwrap_or(e.span), inner: e.span };
        let zone = |z: &ZoneId| &self.zones[*z as usize];
        match &e.kind {
            ExprKind::Zone(z, _) | ExprKind::ZoneAll(z) if zone(z).see != Audience::Everyone => {
                out.push(found(*z as usize, Read::Cards));
            }
            ExprKind::Builtin(Builtin::Count, args) => {
                if let Some((z, ix)) = args.first().and_then(zone_of) {
                    if zone(&z).count != Audience::Everyone {
                        out.push(found(z as usize, Read::Count));
                    }
                    if let Some(ix) = ix {
                        self.hidden_reads(ix, call, seen, out);
                    }
                    return;
                }
            }
            ExprKind::Builtin(Builtin::Holder, _) => {
                let hidden =
                    self.zones.iter().position(|z| z.owner == Some(Owner::Seat) && z.see != Audience::Everyone);
                out.extend(hidden.map(|z| found(z, Read::Holder)));
            }
            ExprKind::Call(f, _) if !seen.contains(f) => {
                seen.push(*f);
                let body = &self.functions[*f as usize].body;
                self.hidden_reads(body, call.or(Some(e.span)), seen, out);
            }
            _ => {}
        }
        for child in e.children() {
            self.hidden_reads(child, call, seen, out);
        }
    }

    fn report_hidden(&mut self, hidden: &Hidden) {
        let zone = &self.zones[hidden.zone as usize];
        let name = zone.name.clone();
        let who = |a: Audience| match a {
            Audience::Owner => "its owner only",
            _ => "nobody",
        };
        let (message, label) = match hidden.read {
            Read::Cards => (format!("a `show` line reads the cards of `{name}`"), format!("seen by {}", who(zone.see))),
            Read::Count => {
                (format!("a `show` line counts the cards of `{name}`"), format!("counted by {}", who(zone.count)))
            }
            Read::Holder => {
                (format!("a `show` line finds a card in `{name}`"), format!("`{name}` is seen by {}", who(zone.see)))
            }
        };
        let mut problem = Problem::new(Code::Hidden, message, hidden.at, label).help(
            "every player sees the `show` lines: read only zones with `see: everyone`, or the size of one with \
             `count: everyone` as `count(ZONE)`",
        );
        if hidden.inner != hidden.at {
            problem = problem.note(hidden.inner, format!("`{name}` is read here"));
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

/// The expressions of a show line.
fn show_exprs(show: &Show) -> Vec<&Expr> {
    let each = show.each.iter().flat_map(|b| [Some(&b.domain), b.start.as_ref(), b.filter.as_ref()]).flatten();
    each.chain([&show.text]).chain(&show.when).collect()
}
