//! `show` lines: the state that matters now, which every player sees before deciding. They are
//! checked like any expression and, because everyone sees them, may read only what everyone may
//! see: zones with `see: everyone`, and the size of a zone with `count: everyone` through
//! `count(ZONE)` (the analysis, shared with variables and names, is in `hidden`).

use super::Checker;
use super::decls::{Parts, SeatsOrSides};
use super::hidden::Reader;
use crate::game::*;
use crate::syntax::ast;

impl Checker {
    /// Checks and compiles the `show` lines, in the order written.
    pub(super) fn check_shows(&mut self, parts: &Parts) -> Vec<Show> {
        parts.shows.iter().map(|decl| self.show(decl)).collect()
    }

    /// Checks and compiles the score sheet: its phase and its cells, read by every player (a
    /// second `sheet`, already reported, is checked all the same).
    pub(super) fn check_sheet(&mut self, parts: &Parts) -> Option<SheetSpec> {
        let sheets: Vec<Option<SheetSpec>> = parts.sheets.iter().map(|decl| self.sheet(decl)).collect();
        sheets.into_iter().next().flatten()
    }

    fn sheet(&mut self, decl: &ast::SheetDecl) -> Option<SheetSpec> {
        let phase = self.named_phase(&decl.phase, "keep a score sheet for");
        let (domain, elem) = self.seats_or_sides(
            &decl.domain,
            SeatsOrSides {
                not_them: "a `sheet` has a column for each seat or side, not for",
                write: "write `sheet PHASE for s in seats \"...\"` or `... for t in sides \"...\"`",
                no_sides: "the `sheet` names sides, but the game declares none",
                or_seats: "use the seats: `for s in seats`",
            },
        );
        let (slot, text) = self.scoped(|c| (c.bind(&decl.binder.name, elem.clone(), false), c.template(&decl.text)));
        self.refuse_hidden([&domain, &text], Reader::Public("a `sheet` cell"));
        Some(SheetSpec { phase: phase?, slot, domain, elem, text, span: decl.span })
    }

    fn show(&mut self, decl: &ast::ShowDecl) -> Show {
        let show = self.scoped(|c| {
            let each = decl.each.as_ref().map(|b| c.binding(b));
            let text = c.template(&decl.text);
            let when = decl.when.as_ref().map(|w| c.expect(w, &Type::Bool, "the condition of `show`"));
            Show { each, text, when, span: decl.span }
        });
        self.refuse_hidden(show_exprs(&show), Reader::Show);
        show
    }
}

/// The expressions of a show line.
fn show_exprs(show: &Show) -> Vec<&Expr> {
    let each = show.each.iter().flat_map(|b| [Some(&b.domain), b.start.as_ref(), b.filter.as_ref()]).flatten();
    each.chain([&show.text]).chain(&show.when).collect()
}
