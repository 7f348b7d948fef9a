//! Why a condition refuses one option: the definitions, outermost first, through which it is
//! false for that option. The walk follows the branch of an `if` that is taken, the first false
//! part of an `and`, and of an `or` (every part false) the one part about the option that has
//! such a definition; it stops at anything else. A rule file gives its reasons in the comments
//! over these definitions, so the deepest one with a comment names the one rule broken.
//!
//! The parts of the condition are lowered apart with the game (a refusal is rare, and worked
//! out at a person's pace), and evaluated in the position as it stands, the option's names set.

use super::lower::Lower;
use super::position::{Loc, Position};
use super::program::{Program, X};
use super::vm::Vm;
use crate::game::*;
use crate::vocab::BinOp;
use std::collections::HashMap;

/// The definitions through which `cond` is false for `value`, the option of `seat` at the
/// decision `at`, outermost first; empty when the condition holds or none can be told.
pub(super) fn broken(game: &Game, pos: &Position, at: Loc, seat: SeatId, value: Value, cond: &Expr) -> Vec<FnId> {
    let mut parts = vec![cond];
    gather(game, cond, &mut parts, &mut Vec::new());
    let lower = |low: &mut Lower<'_>| parts.iter().map(|e| (key(e), low.expr(e))).collect::<HashMap<_, _>>();
    let (prog, lowered) = Program::with(game, lower);
    let Some((ask, bind)) = prog.ask_at(at.block, at.index) else { return Vec::new() };
    let mut locals = pos.locals.clone();
    let mut vm = Vm::new(game, &prog, pos.board(), &mut locals, 0);
    if let Some(bind) = bind {
        vm.set_local(bind.slot, Value::Seat(seat));
    }
    vm.set_names(ask, value);
    let moved: Vec<Slot> = ask.names(value).map(|(slot, _)| slot).collect();
    let mut walk = Walk { game, vm, parts: lowered };
    match walk.truth(cond) {
        Some(false) => walk.why(cond, &moved),
        _ => Vec::new(),
    }
}

/// An expression's identity while the walk runs: where it lies in the game.
fn key(e: &Expr) -> *const Expr {
    e
}

/// The parts of `e` the walk works out: the conditions of `if`s, the parts of `and`s, the
/// arguments of calls; and so on into the definitions called (each once, in `seen`).
fn gather<'g>(game: &'g Game, e: &'g Expr, parts: &mut Vec<&'g Expr>, seen: &mut Vec<FnId>) {
    match &e.kind {
        ExprKind::Call(f, args) => {
            parts.extend(args);
            if !seen.contains(f) {
                seen.push(*f);
                gather(game, &game.functions[*f as usize].body, parts, seen);
            }
        }
        ExprKind::If(c, then, otherwise) => {
            parts.push(c);
            gather(game, then, parts, seen);
            gather(game, otherwise, parts, seen);
        }
        ExprKind::Binary(BinOp::And, l, r) => {
            parts.push(l);
            gather(game, l, parts, seen);
            gather(game, r, parts, seen);
        }
        ExprKind::Binary(BinOp::Or, l, r) => {
            gather(game, l, parts, seen);
            gather(game, r, parts, seen);
        }
        _ => {}
    }
}

/// The definitions `e` calls, in order, each once (not those they call in turn).
pub(super) fn calls(e: &Expr, out: &mut Vec<FnId>) {
    if let ExprKind::Call(f, _) = &e.kind
        && !out.contains(f)
    {
        out.push(*f);
    }
    e.children().into_iter().for_each(|c| calls(c, out));
}

/// Whether `e` reads any of the names in `moved` (the option, or a definition's parameters it
/// was passed to).
fn mentions(e: &Expr, moved: &[Slot]) -> bool {
    match e.kind {
        ExprKind::Local(s) | ExprKind::LocalAttr(s, _) => moved.contains(&s),
        _ => e.children().into_iter().any(|c| mentions(c, moved)),
    }
}

/// The parts of an `or`, however it is nested.
fn alternatives<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Binary(BinOp::Or, l, r) => {
            alternatives(l, out);
            alternatives(r, out);
        }
        _ => out.push(e),
    }
}

/// A walk down a false condition.
struct Walk<'g, 'v> {
    game: &'g Game,
    vm: Vm<'v>,
    parts: HashMap<*const Expr, X>,
}

impl Walk<'_, '_> {
    fn truth(&mut self, e: &Expr) -> Option<bool> {
        self.vm.truth(self.parts.get(&key(e))?).ok()
    }

    fn value(&mut self, e: &Expr) -> Option<Value> {
        self.vm.value(self.parts.get(&key(e))?).ok()
    }

    /// The definitions through which `e`, false, is false; `moved` are the names that hold the
    /// option or what was worked out from it.
    fn why(&mut self, e: &Expr, moved: &[Slot]) -> Vec<FnId> {
        match &e.kind {
            ExprKind::Call(f, args) => {
                let Some(values) = args.iter().map(|a| self.value(a)).collect::<Option<Vec<Value>>>() else {
                    return Vec::new();
                };
                let func = &self.game.functions[*f as usize];
                let inner: Vec<Slot> =
                    func.params.iter().zip(args).filter(|(_, a)| mentions(a, moved)).map(|(p, _)| *p).collect();
                for (param, value) in func.params.iter().zip(values) {
                    self.vm.set_local(*param, value);
                }
                let mut chain = vec![*f];
                chain.extend(self.why(&func.body, &inner));
                chain
            }
            ExprKind::If(c, then, otherwise) => match self.truth(c) {
                Some(true) => self.why(then, moved),
                Some(false) => self.why(otherwise, moved),
                None => Vec::new(),
            },
            ExprKind::Binary(BinOp::And, l, r) => match self.truth(l) {
                Some(false) => self.why(l, moved),
                Some(true) => self.why(r, moved),
                None => Vec::new(),
            },
            ExprKind::Binary(BinOp::Or, ..) => {
                let mut parts = Vec::new();
                alternatives(e, &mut parts);
                let mut found = Vec::new();
                for part in parts.into_iter().filter(|p| mentions(p, moved)) {
                    let kept = self.vm.locals.to_vec();
                    let chain = self.why(part, moved);
                    self.vm.locals.copy_from_slice(&kept);
                    if !chain.is_empty() {
                        found.push(chain);
                    }
                }
                if found.len() == 1 { found.remove(0) } else { Vec::new() }
            }
            _ => Vec::new(),
        }
    }
}
