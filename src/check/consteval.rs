//! Running what is fixed before play: the `deck` block that builds the pack, and each card's
//! derived attributes and name. Expressions go through the shared evaluator (`crate::eval`) on a
//! board with no position, so anything that depends on a game in progress stops with a halt
//! pointing at it. One evaluator, and so one step budget, serves a whole run.

use super::Checker;
use crate::eval::constant::{Eval, Tables};
use crate::eval::{Halt, Out, missing, overflow};
use crate::game::*;
use crate::syntax::ast::{AssignOp, Span};

/// The stack the evaluator runs on: values nested `MAX_NESTING` deep take up to about 8 MB in a
/// debug build, far more than a thread has by default.
const EVAL_STACK: usize = 16 << 20;

/// Runs an evaluation on a thread with [`EVAL_STACK`] of stack (here, if no thread can start).
pub(super) fn on_eval_stack<T: Send>(run: impl Fn() -> T + Sync) -> T {
    std::thread::scope(|scope| {
        let worker =
            std::thread::Builder::new().name("paradox-eval".into()).stack_size(EVAL_STACK).spawn_scoped(scope, &run);
        match worker {
            Ok(handle) => handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => run(),
        }
    })
}

impl Checker {
    /// The fixed tables as they stand while checking.
    pub(super) fn tables(&self) -> Tables<'_> {
        Tables {
            seats: &self.seats,
            sides: &self.sides,
            enums: &self.enums,
            functions: &self.functions,
            cards: &self.cards,
            card_names: &self.card_names,
        }
    }
}

/// Runs the deck block; returns each card's stored attributes and where it was made.
pub(super) fn run_deck(ck: &Checker, block: BlockId) -> Out<Vec<(Vec<Value>, Span)>> {
    let mut deck =
        Deck { eval: Eval::new(ck.tables(), ck.slots), blocks: &ck.blocks, attrs: ck.attrs.len(), made: Vec::new() };
    deck.exec(block)?;
    Ok(deck.made)
}

/// Fills in a card's derived attributes and its name.
pub(super) fn finish_card(
    eval: &mut Eval<'_>,
    mut values: Vec<Value>,
    slots: &[Slot],
    derived: &[(usize, Expr)],
    name: Option<&Expr>,
) -> Out<(Vec<Value>, Option<String>)> {
    for (a, v) in values.iter().enumerate() {
        if let Some(slot) = slots.get(a) {
            eval.set_local(*slot, *v);
        }
    }
    for (a, e) in derived {
        let v = eval.value(e)?;
        values[*a] = v;
        if let Some(slot) = slots.get(*a) {
            eval.set_local(*slot, v);
        }
    }
    let shown = name.map(|n| eval.text(n)).transpose()?;
    Ok((values, shown))
}

/// The statements `deck` may hold, run in order.
struct Deck<'a> {
    eval: Eval<'a>,
    blocks: &'a [Block],
    attrs: usize,
    made: Vec<(Vec<Value>, Span)>,
}

impl Deck<'_> {
    fn exec(&mut self, block: BlockId) -> Out<()> {
        let blocks = self.blocks;
        for stmt in &blocks[block as usize].stmts {
            self.eval.charge(1, stmt.span)?;
            self.stmt(stmt)?;
        }
        Ok(())
    }

    fn stmt(&mut self, stmt: &Stmt) -> Out<()> {
        match &stmt.kind {
            StmtKind::Assign(Target::Local(slot), op, e) => {
                let v = self.eval.value(e)?;
                let new = match (op, self.eval.local(*slot), v) {
                    (AssignOp::Set, _, v) => v,
                    (AssignOp::Add, Value::Int(a), Value::Int(b)) => {
                        a.checked_add(b).map(Value::Int).ok_or_else(|| overflow(e.span))?
                    }
                    (AssignOp::Sub, Value::Int(a), Value::Int(b)) => {
                        a.checked_sub(b).map(Value::Int).ok_or_else(|| overflow(e.span))?
                    }
                    _ => return Err(missing(stmt.span)),
                };
                self.eval.set_local(*slot, new);
            }
            StmtKind::If(c, t, o) => {
                if self.eval.truth(c)? {
                    self.exec(*t)?;
                } else if let Some(o) = o {
                    self.exec(*o)?;
                }
            }
            StmtKind::For(bindings, body) => self.for_each(bindings, *body)?,
            StmtKind::Repeat(n, body) => {
                for _ in 0..self.eval.int(n)?.max(0) {
                    self.eval.charge(1, stmt.span)?;
                    self.exec(*body)?;
                }
            }
            StmtKind::MakeCard(fields) => {
                let mut values = vec![Value::None; self.attrs];
                for (a, e) in fields {
                    values[*a as usize] = self.eval.value(e)?;
                }
                self.made.push((values, stmt.span));
            }
            _ => {
                return Err(Halt::new(
                    crate::diagnostic::Code::Misplaced,
                    stmt.span,
                    "this is not known before play",
                    "not allowed in `deck`",
                    "`deck` builds the pack with `for`, `if`, `repeat`, `let` and `card { ... }`",
                ));
            }
        }
        Ok(())
    }

    fn for_each(&mut self, bindings: &[Binding], body: BlockId) -> Out<()> {
        let Some((first, rest)) = bindings.split_first() else { return self.exec(body) };
        for item in self.eval.items(&first.domain)? {
            self.eval.charge(1, first.domain.span)?;
            self.eval.set_local(first.slot, item);
            if let Some(f) = &first.filter
                && !self.eval.truth(f)?
            {
                continue;
            }
            self.for_each(rest, body)?;
        }
        Ok(())
    }
}
