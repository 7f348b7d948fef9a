//! Decisions: `choose ... from ... by ...`, its menus, tiers and labels.

use super::*;

impl<'s, 'p> Reader<'s, 'p> {
    /// `choose c from D1, D2 by SEAT ...`: the last expression before the tiers is the seat.
    pub(super) fn choose_stmt(&self, pair: Node<'s>) -> Option<Choose> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        let group = match children.maybe(Rule::group) {
            Some(group) => Some(match Children::of(group).maybe(Rule::expr) {
                Some(size) => Some(self.expr(size)?),
                None => None,
            }),
            None => None,
        };
        let name = self.ident(children.next()?);
        let mut domains = children.run_of(Rule::expr).map(|p| self.expr(p)).collect::<Option<Vec<_>>>()?;
        // Without a menu the seat's expression follows the domains directly.
        let (menu, by) = match children.maybe(Rule::menu) {
            Some(menu) => (Some(self.menu(menu)?), self.expr(children.next()?)?),
            None => (None, domains.pop()?),
        };
        Some(Choose {
            name,
            domains,
            menu,
            group,
            by,
            tiers: match children.maybe(Rule::tiers) {
                Some(tiers) => self.tiers(tiers)?,
                None => Vec::new(),
            },
            declare: match children.maybe(Rule::declare) {
                Some(declare) => Some(self.declare(declare)?),
                None => None,
            },
            label: match children.maybe(Rule::label) {
                Some(label) => Some(self.label(label)?),
                None => None,
            },
            span,
        })
    }

    /// `or m from Move`.
    pub(super) fn menu(&self, pair: Node<'s>) -> Option<(Ident, Expr)> {
        let mut children = Children::of(pair);
        Some((self.ident(children.next()?), self.expr(children.next()?)?))
    }

    pub(super) fn tiers(&self, pair: Node<'s>) -> Option<Vec<Tier>> {
        Children::of(pair).map(|p| self.tier(p)).collect()
    }

    pub(super) fn tier(&self, pair: Node<'s>) -> Option<Tier> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        let head = children.next()?;
        Some(Tier {
            cond: match head.as_rule() {
                Rule::any_tier => None,
                _ => Some(self.expr(head)?),
            },
            then: match children.next() {
                Some(block) => Some(self.block(block)?),
                None => None,
            },
            span,
        })
    }

    pub(super) fn declare(&self, pair: Node<'s>) -> Option<Declare> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(Declare { name: self.ident(children.next()?), when: self.expr(children.next()?)?, span })
    }

    pub(super) fn label(&self, pair: Node<'s>) -> Option<Template> {
        Some(self.template(Children::of(pair).next()?))
    }
}
