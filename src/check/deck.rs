//! The card's attributes and the pack: `card { ... }` and `deck { ... }`.
//!
//! The pack is built while checking, by running the deck block with the constant evaluator, so
//! that every card's attributes (derived ones included) and its name are known before play.

use super::consteval::{finish_card, on_eval_stack, run_deck};
use super::decls::Parts;
use super::settings::Changes;
use super::stmt::Flow;
use super::{Checker, Ctx};
use crate::diagnostic::{Code, Problem};
use crate::eval::Halt;
use crate::eval::constant::Eval;
use crate::game::*;
use crate::syntax::ast::{self, Span};

/// The most cards a pack may hold (card ids are 16-bit and zones are bitsets of cards).
const MAX_CARDS: usize = 4096;

/// Every card's attributes, and every card's name.
type Cards = (Vec<Vec<Value>>, Vec<String>);

impl Checker {
    pub(super) fn declare_card(&mut self, parts: &Parts) {
        let Some(card) = parts.cards.first() else { return };
        for field in &card.fields {
            if let Some(first) = self.attrs.iter().position(|a| a.name == field.name.name) {
                let first = self.attr_spans[first];
                self.report(
                    Problem::new(
                        Code::Duplicate,
                        format!("cards have two attributes `{}`", field.name.name),
                        field.name.span,
                        "declared again here",
                    )
                    .note(first, "first declared here")
                    .help("give each attribute its own name"),
                );
                continue;
            }
            let ty = self.resolve_type(&field.ty, true);
            let range = match field.ty.kind {
                ast::TypeKind::Range(lo, hi) => Some((lo, hi)),
                _ => None,
            };
            if !super::types::storable(&ty) && ty != Type::Error {
                self.error(
                    Code::TypeMismatch,
                    format!("a card attribute cannot be {}", self.a_type(&ty)),
                    field.ty.span,
                    "not a single value",
                    "attributes are numbers, truth values, seats, enumeration values or sets",
                );
            }
            self.attrs.push(AttrInfo { name: field.name.name.clone(), ty, derived: field.derived.is_some() });
            self.attr_ranges.push(range);
            self.attr_spans.push(field.name.span);
        }
    }

    /// Checks the derived attributes, the name template and the deck, then builds the pack.
    pub(super) fn build_deck(&mut self, parts: &Parts) -> Option<BlockId> {
        let (card, deck) = (parts.cards.first()?, parts.decks.first()?);
        let (slots, derived, name) = self.scoped(|c| c.card_scope(card));
        let empty = Changes::default();
        let block = self.block(&deck.body, &Flow { changes: &empty, ctx: Ctx::Deck });
        if !self.endless_definitions().is_empty() {
            // Reported as such; running the deck would only report it again, less clearly.
            return Some(block);
        }
        let made = on_eval_stack(|| run_deck(self, block));
        let stored = match made {
            Ok(cards) => cards,
            Err(halt) => {
                self.report_halt(&halt, "while building the pack");
                return Some(block);
            }
        };
        if stored.is_empty() || stored.len() > MAX_CARDS {
            self.error(Code::BadCard, format!("the pack has {} cards", stored.len()), deck.span, "no cards, or too many", format!("a pack holds from 1 to {MAX_CARDS} cards; with these parameters check the `deck`'s loops and conditions"));
            return Some(block);
        }
        self.finish_cards(stored, &slots, &derived, name.as_ref());
        Some(block)
    }

    /// Checks derived attributes and the name template in a scope where each attribute is a
    /// local name (a derived attribute sees those declared before it); returns the slots, the
    /// derived expressions and the name's template.
    fn card_scope(&mut self, card: &ast::CardDecl) -> (Vec<Slot>, Vec<(usize, Expr)>, Option<Expr>) {
        let mut slots = Vec::new();
        let mut derived = Vec::new();
        for i in 0..self.attrs.len() {
            let Some(field) = card.fields.iter().find(|f| f.name.name == self.attrs[i].name) else { continue };
            let ty = self.attrs[i].ty.clone();
            if let Some(e) = &field.derived {
                derived.push((i, self.expect(e, &ty, "the derived attribute")));
            }
            slots.push(self.bind(&field.name.name, ty, false));
        }
        let name = card.name.as_ref().map(|t| self.template(t));
        (slots, derived, name)
    }

    /// Computes derived attributes and names for the stored attributes of every card.
    fn finish_cards(
        &mut self,
        stored: Vec<(Vec<Value>, Span)>,
        slots: &[Slot],
        derived: &[(usize, Expr)],
        name: Option<&Expr>,
    ) {
        match on_eval_stack(|| self.finished_cards(&stored, slots, derived, name)) {
            Ok((cards, names)) => {
                self.cards = cards;
                self.card_names = names;
            }
            Err(problem) => self.report(*problem),
        }
    }

    /// Every card's attributes and name, or the first problem with them. One evaluator does
    /// every card, so that they share its budget.
    fn finished_cards(
        &self,
        stored: &[(Vec<Value>, Span)],
        slots: &[Slot],
        derived: &[(usize, Expr)],
        name: Option<&Expr>,
    ) -> Result<Cards, Box<Problem>> {
        let mut cards = Vec::new();
        let mut names = Vec::new();
        let mut eval = Eval::new(self.tables(), self.slots);
        for (values, span) in stored {
            let (values, shown) = finish_card(&mut eval, values.clone(), slots, derived, name)
                .map_err(|halt| halt.problem("while computing a card's attributes"))?;
            if let Some(problem) = self.range_problem(&values, *span) {
                return Err(problem.into());
            }
            cards.push(values);
            names.push(shown.map_or(format!("card {}", names.len() + 1), |s| tidy(&s)));
        }
        Ok((cards, names))
    }

    fn range_problem(&self, values: &[Value], span: Span) -> Option<Problem> {
        for (a, v) in values.iter().enumerate() {
            if let (Some((lo, hi)), Value::Int(n)) = (self.attr_ranges.get(a).copied().flatten(), v)
                && (*n < lo || *n > hi)
            {
                let name = &self.attrs[a].name;
                return Some(
                    Problem::new(
                        Code::OutOfRange,
                        format!("a card has {name} {n}, outside {lo}..{hi}"),
                        span,
                        format!("{name} {n} made here"),
                    )
                    .help(format!("`{name}` is declared `{lo}..{hi}`; widen the range or fix the deck"))
                    .note(self.attr_spans[a], "declared here"),
                );
            }
        }
        None
    }

    /// Checks `card { attribute: value, ... }` inside `deck`.
    pub(super) fn make_card(&mut self, fields: &[(ast::Ident, Option<ast::Expr>)], span: Span) -> Vec<(AttrId, Expr)> {
        let mut out: Vec<(AttrId, Expr)> = Vec::new();
        for (name, value) in fields {
            let Some(a) = self.attribute(name, true) else { continue };
            if self.attrs[a].derived {
                self.error(
                    Code::BadCard,
                    format!("`{}` is derived", name.name),
                    name.span,
                    "computed, not given",
                    "remove it here: a derived attribute is computed from the others",
                );
                continue;
            }
            if out.iter().any(|(x, _)| *x as usize == a) {
                self.error(
                    Code::Duplicate,
                    format!("`{}` is given twice", name.name),
                    name.span,
                    "given again",
                    "give each attribute once",
                );
                continue;
            }
            let written =
                value.clone().unwrap_or(ast::Expr { kind: ast::ExprKind::Name(name.clone()), span: name.span });
            let ty = self.attrs[a].ty.clone();
            out.push((a as AttrId, self.expect(&written, &ty, "the attribute's value")));
        }
        let missing: Vec<String> = self
            .attrs
            .iter()
            .enumerate()
            .filter(|(i, a)| !a.derived && !matches!(a.ty, Type::Opt(_)) && !out.iter().any(|(x, _)| *x as usize == *i))
            .map(|(_, a)| format!("`{}`", a.name))
            .collect();
        if !missing.is_empty() {
            self.error(
                Code::BadCard,
                format!("this card has no {}", missing.join(", ")),
                span,
                "attributes missing",
                "give every attribute that is not marked `?`",
            );
        }
        out
    }

    /// Reports a stop of the constant evaluator as a problem at the expression that caused it.
    pub(super) fn report_halt(&mut self, halt: &Halt, when: &str) {
        self.report(halt.problem(when));
    }
}

/// A card name with empty parts (attributes that are `none`) squeezed out.
fn tidy(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
