//! What may stop the match at run time, refused under a condition on hidden cards.
//!
//! A match stops with a diagnostic when a loop runs past the step budget, or a value cannot be
//! worked out: a division by zero, `highest` or `max` over nothing. Every player notices the
//! match stop, so a stop that happens only when hidden cards are one way tells them which way.
//! The rule: nothing that can stop may stop on hidden cards. Under a condition on hidden cards
//! (see `leaks`) the loops are `for` loops over cards, seats, sides or an enumeration, which end
//! with the pack (`while`, `repeat` and `for` over a range of numbers are refused there), and no
//! division or remainder by anything but a constant other than zero, nor aggregate that takes
//! one element of its domain (`highest`, `lowest`, `max`, `min`, which stop over nothing), is
//! worked out there. Anywhere else, the divisor of a division and the domain and condition of
//! such an aggregate may not read hidden cards.

use super::Checker;
use super::hidden::Reader;
use crate::game::*;
use crate::syntax::ast::{AggOp, BinOp, Span};

impl Checker {
    /// Refuses, under a condition on hidden cards, a loop `what` that may run past the step
    /// budget.
    pub(super) fn refuse_endless_in_hidden_flow(&mut self, what: &str, span: Span) {
        if self.in_guarded_flow() {
            self.refuse_stop_in_hidden_flow(format!("{what}, which may run past the step budget,"), span);
        }
    }

    /// Refuses, under a condition on hidden cards, the parts of `exprs` that may stop the match
    /// (looked at through the definitions they call).
    pub(super) fn refuse_stops_in_hidden_flow<'e>(&mut self, exprs: impl IntoIterator<Item = &'e Expr>) {
        let guarded = self.in_guarded_flow();
        let mut found = Vec::new();
        let mut unguarded: Vec<(&Expr, &'static str)> = Vec::new();
        let mut seen: Vec<FnId> = Vec::new();
        let mut todo: Vec<(&Expr, Option<Span>)> = exprs.into_iter().map(|e| (e, None)).collect();
        while let Some((e, call)) = todo.pop() {
            let at = call.unwrap_or(e.span);
            match &e.kind {
                ExprKind::Binary(op @ (BinOp::Div | BinOp::Rem), _, by) if !matches!(by.kind, ExprKind::Const(Value::Int(n)) if n != 0) =>
                {
                    let what = if *op == BinOp::Div { "a division" } else { "a remainder" };
                    if guarded {
                        found.push((format!("{what}, which stops the match when it is by zero,"), at));
                    } else {
                        unguarded.push((by, "whether the match stops at a division by zero"));
                    }
                }
                ExprKind::Aggregate(a) if matches!(a.op, AggOp::Highest | AggOp::Lowest | AggOp::Max | AggOp::Min) => {
                    if guarded {
                        found.push((
                            "an aggregate that takes one element, which stops the match over nothing,".into(),
                            at,
                        ));
                    } else {
                        unguarded.push((&a.domain, "whether the match stops at an aggregate over nothing"));
                        unguarded.extend(
                            a.filter.iter().map(|f| (f, "whether the match stops at an aggregate over nothing")),
                        );
                    }
                }
                ExprKind::Call(f, _) if !seen.contains(f) => {
                    seen.push(*f);
                    let body = &self.functions[*f as usize].body;
                    todo.push((body, call.or(Some(e.span))));
                }
                _ => {}
            }
            todo.extend(e.children().into_iter().map(|c| (c, call)));
        }
        let reads: Vec<_> = unguarded
            .into_iter()
            .map(|(e, what)| {
                let mut hidden = Vec::new();
                self.hidden_reads(e, &mut hidden);
                (hidden, what)
            })
            .collect();
        for (what, at) in found {
            self.refuse_stop_in_hidden_flow(what, at);
        }
        for (hidden, what) in reads {
            self.report_hidden_reads(hidden, Reader::Stop(what));
        }
    }
}
