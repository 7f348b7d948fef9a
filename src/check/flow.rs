//! Checks of the flow as a whole: loops that can be seen never to end, a `redo` that always
//! runs, decisions that can never have a legal option, and recursive definitions that can be
//! seen never to finish.

use super::Checker;
use crate::diagnostic::{Code, Problem};
use crate::game::*;
use crate::syntax::ast::{BinOp, Span};

fn is_const(e: &Expr, b: bool) -> bool {
    matches!(e.kind, ExprKind::Const(Value::Bool(x)) if x == b)
}

impl Checker {
    /// Looks through every block reachable from `root` for loops that never end.
    pub(super) fn check_flow(&mut self, root: BlockId) {
        let mut pending = vec![root];
        let mut found = Vec::new();
        while let Some(id) = pending.pop() {
            for stmt in &self.blocks[id as usize].stmts {
                pending.extend(stmt.kind.blocks());
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
            ref kind => kind.blocks().into_iter().any(|b| self.leaves(b, inner)),
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

    /// Reports the recursive definitions that can be seen never to finish: one that calls
    /// itself whatever its arguments (on no condition), or with its own parameters unchanged.
    pub(super) fn check_endless_definitions(&mut self) {
        for (f, span, unchanged) in self.endless_definitions() {
            let name = self.functions[f as usize].name.clone();
            let (message, label, help) = if unchanged {
                (
                    format!("definition `{name}` calls itself with the same arguments"),
                    "the same call again",
                    "each call would make this one again, without end: pass arguments that come closer to a case that calls nothing, e.g. `n - 1`",
                )
            } else {
                (
                    format!("definition `{name}` always calls itself"),
                    "reached on every call",
                    "a recursive definition needs a case that calls nothing: put the call under `if ... then ... else`, a `case` arm, or the right side of `and`/`or`",
                )
            };
            self.report(Problem::new(Code::EndlessFlow, message, span, label).help(help));
        }
    }

    /// The recursive definitions that never finish (see [`Checker::check_endless_definitions`]),
    /// with the call that shows it and whether that call passes the parameters unchanged.
    pub(super) fn endless_definitions(&self) -> Vec<(FnId, Span, bool)> {
        let n = self.functions.len();
        let mut always: Vec<Vec<(usize, Span)>> = vec![Vec::new(); n];
        let mut found = Vec::new();
        for (f, info) in self.functions.iter().enumerate() {
            let mut calls = Vec::new();
            unconditional_calls(&info.body, &mut calls);
            always[f] = calls.into_iter().filter(|(g, _)| (*g as usize) < n).map(|(g, s)| (g as usize, s)).collect();
            if let Some(span) = same_call(f as FnId, &info.params, &info.body) {
                found.push((f as FnId, span, true));
            }
        }
        let component = components(&always);
        for f in 0..n {
            let back = always[f].iter().find(|(g, _)| component[*g] == component[f]);
            if let Some(&(_, span)) = back
                && !found.iter().any(|(g, _, _)| *g as usize == f)
            {
                found.push((f as FnId, span, false));
            }
        }
        found.sort_by_key(|(f, _, _)| *f);
        found
    }

    /// Every definition that calls itself, directly or through others, with the span of its last
    /// call that leads back to it. Linear in the number of calls: a definition calls back into
    /// itself exactly when it calls one of its own strongly connected component.
    pub(super) fn recursive_definitions(&self) -> Vec<(FnId, Span)> {
        let n = self.functions.len();
        let mut callees: Vec<Vec<(usize, Span)>> = vec![Vec::new(); n];
        for &(from, to, span) in &self.calls {
            if let Some(out) = callees.get_mut(from as usize)
                && (to as usize) < n
            {
                out.push((to as usize, span));
            }
        }
        let component = components(&callees);
        (0..n)
            .filter_map(|f| {
                let back = callees[f].iter().rev().find(|(to, _)| component[*to] == component[f])?;
                Some((f as FnId, back.1))
            })
            .collect()
    }
}

/// The strongly connected component of each node of a graph, by Tarjan's algorithm without
/// recursion (a file may hold thousands of definitions).
fn components(edges: &[Vec<(usize, Span)>]) -> Vec<usize> {
    const UNSEEN: usize = usize::MAX;
    let n = edges.len();
    let (mut index, mut low, mut component) = (vec![UNSEEN; n], vec![0; n], vec![UNSEEN; n]);
    let mut on_stack = vec![false; n];
    let (mut stack, mut next, mut count) = (Vec::new(), 0, 0);
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        // Each node being visited, with the next of its edges to follow.
        let mut work = vec![(root, 0)];
        (index[root], low[root], next) = (next, next, next + 1);
        stack.push(root);
        on_stack[root] = true;
        while let Some((v, edge)) = work.last_mut() {
            let v = *v;
            if let Some(&(w, _)) = edges[v].get(*edge) {
                *edge += 1;
                if index[w] == UNSEEN {
                    (index[w], low[w], next) = (next, next, next + 1);
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(u, _)) = work.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component[w] = count;
                    if w == v {
                        break;
                    }
                }
                count += 1;
            }
        }
    }
    component
}

/// The definitions an expression calls whatever the values: not in a branch of `if` or `case`,
/// nor on the right of `and`/`or`, nor inside an aggregate's condition or body.
fn unconditional_calls(e: &Expr, out: &mut Vec<(FnId, Span)>) {
    match &e.kind {
        ExprKind::If(first, ..) | ExprKind::Case(first, ..) | ExprKind::Binary(BinOp::And | BinOp::Or, first, _) => {
            unconditional_calls(first, out)
        }
        ExprKind::Aggregate(a) => unconditional_calls(&a.domain, out),
        kind => {
            if let ExprKind::Call(f, _) = kind {
                out.push((*f, e.span));
            }
            e.children().into_iter().for_each(|c| unconditional_calls(c, out));
        }
    }
}

/// A call of `f`, inside its own body, that passes its parameters unchanged.
fn same_call(f: FnId, params: &[Slot], e: &Expr) -> Option<Span> {
    if let ExprKind::Call(g, args) = &e.kind
        && *g == f
        && args.len() == params.len()
        && args.iter().zip(params).all(|(a, p)| matches!(a.kind, ExprKind::Local(s) if s == *p))
    {
        return Some(e.span);
    }
    e.children().into_iter().find_map(|c| same_call(f, params, c))
}
