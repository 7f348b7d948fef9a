//! Checks of the flow as a whole: loops that can be seen never to end, a `redo` that always
//! runs, decisions that can never have a legal option, and definitions that call themselves.

use super::Checker;
use crate::diagnostic::{Code, Problem};
use crate::game::*;
use crate::syntax::ast::{BinOp, Span};

fn is_const(e: &Expr, b: bool) -> bool {
    matches!(e.kind, ExprKind::Const(Value::Bool(x)) if x == b)
}

impl Checker {
    /// Looks through every block reachable from `root` for loops that never end.
    pub(super) fn check_flow(&mut self, root: BlockId, _play: Span) {
        let mut pending = vec![root];
        let mut found = Vec::new();
        while let Some(id) = pending.pop() {
            for stmt in &self.blocks[id as usize].stmts {
                pending.extend(children(&stmt.kind));
                if let Some(p) = self.endless(stmt) {
                    found.push(p);
                }
            }
        }
        for p in found {
            self.report(p);
        }
    }

    fn endless(&self, stmt: &Stmt) -> Option<Problem> {
        let (cond_span, body) = match &stmt.kind {
            StmtKind::While(c, body) if is_const(c, true) => (c.span, *body),
            StmtKind::RepeatUntil(c, body) if is_const(c, false) => (c.span, *body),
            StmtKind::Phase(id, body) => return self.redo_always(*id, *body),
            _ => return None,
        };
        if self.leaves(body, &mut Vec::new()) {
            return None;
        }
        Some(
            Problem::new(
                Code::EndlessFlow,
                "this loop never ends",
                Span::new(stmt.span.start, cond_span.end),
                "the condition never changes, and nothing in the loop leaves it",
            )
            .help("make the condition depend on the game (a score, a count of cards), or leave the loop with `end PHASE` for a phase around it"),
        )
    }

    /// A `redo` that runs every time its phase does replays the phase forever.
    fn redo_always(&self, id: PhaseId, body: BlockId) -> Option<Problem> {
        let redo = self.blocks[body as usize].stmts.iter().find(|s| matches!(s.kind, StmtKind::Redo(p) if p == id))?;
        let name = &self.phases[id as usize].name;
        Some(
            Problem::new(
                Code::EndlessFlow,
                format!("phase `{name}` always starts again"),
                redo.span,
                "runs every time",
            )
            .help(format!("put `redo {name}` under an `if`, so that the phase can finish")),
        )
    }

    /// Whether `block` has an `end` of a phase outside it; `inner` holds the phases entered on
    /// the way down, which an `end` leaves without leaving the block.
    fn leaves(&self, block: BlockId, inner: &mut Vec<PhaseId>) -> bool {
        self.blocks[block as usize].stmts.iter().any(|s| match s.kind {
            StmtKind::End(p) => !inner.contains(&p),
            StmtKind::Phase(p, body) => {
                inner.push(p);
                let found = self.leaves(body, inner);
                inner.pop();
                found
            }
            ref kind => children(kind).into_iter().any(|b| self.leaves(b, inner)),
        })
    }

    /// Reports a decision whose options are all ruled out before play.
    pub(super) fn check_possible(&mut self, choose: &Choose) {
        let empty_domain = choose.domains.iter().all(|d| self.empty_domain(d));
        let all_false = !choose.tiers.is_empty()
            && choose.tiers.iter().all(|t| t.cond.as_ref().is_some_and(|c| is_const(c, false)));
        if empty_domain {
            let span = choose.domains.iter().map(|d| d.span).reduce(Span::to).unwrap_or(choose.span);
            self.report(
                Problem::new(Code::NoAction, "this decision can never be made", span, "nothing to choose from")
                    .help("the options are empty before play, with these parameter values: a range whose end is below its start, or an empty list"),
            );
        } else if all_false {
            let span = choose.tiers.iter().map(|t| t.span).reduce(Span::to).unwrap_or(choose.span);
            self.report(
                Problem::new(Code::NoAction, "this decision can never be made", span, "every tier is false")
                    .help("with these parameter values no tier can allow anything: end the tiers with `else any`, or fix the conditions"),
            );
        }
    }

    fn empty_domain(&self, d: &Expr) -> bool {
        match &d.kind {
            ExprKind::List(xs) => xs.is_empty(),
            ExprKind::Binary(BinOp::Range, lo, hi) => {
                matches!((&lo.kind, &hi.kind), (ExprKind::Const(Value::Int(a)), ExprKind::Const(Value::Int(b))) if a > b)
            }
            ExprKind::EnumValues(e) => self.enums[*e as usize].values.is_empty(),
            _ => false,
        }
    }

    /// Reports definitions that call themselves, directly or through others.
    pub(super) fn check_endless_definitions(&mut self) {
        for start in 0..self.functions.len() {
            if let Some(span) = self.cycle_from(start as FnId) {
                let name = self.functions[start].name.clone();
                self.report(
                    Problem::new(
                        Code::EndlessFlow,
                        format!("definition `{name}` calls itself"),
                        span,
                        "calls back into itself",
                    )
                    .help("definitions cannot recurse; write the value with an aggregate such as `sum` or `count`"),
                );
            }
        }
    }

    /// The span of a call that leads back to `start`, if any.
    fn cycle_from(&self, start: FnId) -> Option<Span> {
        let mut seen = vec![false; self.functions.len()];
        let mut stack: Vec<(FnId, Span)> = self.calls.iter().filter(|c| c.0 == start).map(|c| (c.1, c.2)).collect();
        while let Some((f, first_span)) = stack.pop() {
            if f == start {
                return Some(first_span);
            }
            if std::mem::replace(&mut seen[f as usize], true) {
                continue;
            }
            stack.extend(self.calls.iter().filter(|c| c.0 == f).map(|c| (c.1, first_span)));
        }
        None
    }
}

/// The blocks directly inside a statement.
pub(crate) fn children(kind: &StmtKind) -> Vec<BlockId> {
    match kind {
        StmtKind::If(_, t, o) => std::iter::once(*t).chain(*o).collect(),
        StmtKind::For(_, b)
        | StmtKind::Repeat(_, b)
        | StmtKind::RepeatUntil(_, b)
        | StmtKind::While(_, b)
        | StmtKind::Phase(_, b)
        | StmtKind::Simultaneously(_, _, b) => vec![*b],
        StmtKind::Choose(c) => c.tiers.iter().filter_map(|t| t.then).collect(),
        _ => Vec::new(),
    }
}
