//! Procedures: `define NAME(PARAM: TYPE, ...) { ... }` declares named statements, and a statement
//! `NAME(ARG, ...)` runs them. Each call is checked where it stands (its phases around it, its
//! decisions' places in the flow) and compiled into a block of its own: the parameters are set
//! from the arguments, then the procedure's statements run. The body sees its parameters and the
//! file's global names, never the names of the flow around the call.

use super::piles::Argument;
use super::stmt::Flow;
use super::{Checker, Global, Local};
use crate::diagnostic::Code;
use crate::game::*;
use crate::syntax::ast::{self, AssignOp, Span};

/// How much procedure text, in bytes, the calls of procedures may unfold into in all: a measure
/// of the checking work (the six games unfold well under a kilobyte).
pub(super) const UNFOLD_LIMIT: usize = 512 << 10;

/// A declared procedure, kept for checking each of its calls.
#[derive(Clone, Debug)]
pub(super) struct Procedure {
    name: String,
    params: Vec<(String, Type)>,
    body: ast::Block,
    /// Whether some call has been checked (a procedure never called is checked once alone).
    called: bool,
}

impl Checker {
    pub(super) fn declare_procedures(&mut self, decls: &[&ast::ProcDecl]) {
        for decl in decls {
            let id = self.procedures.len();
            self.define_global(&decl.name, Global::Procedure(id));
            let params = decl.params.iter().map(|(n, t)| (n.name.clone(), self.param_type(t))).collect();
            self.procedures.push(Procedure {
                name: decl.name.name.clone(),
                params,
                body: decl.body.clone(),
                called: false,
            });
        }
    }

    /// A statement `NAME(ARG, ...)`: the procedure's statements for these arguments.
    pub(super) fn call_stmt(
        &mut self,
        func: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
        flow: &Flow,
    ) -> Option<StmtKind> {
        let id = match self.globals.get(&func.name).map(|g| g.0) {
            Some(Global::Procedure(id)) if self.lookup_local(&func.name).is_none() => id,
            other => return self.not_a_procedure(func, other, args),
        };
        let procedure = self.procedures[id].clone();
        if args.len() != procedure.params.len() {
            let n = procedure.params.len();
            let wanted: Vec<String> =
                procedure.params.iter().map(|(p, t)| format!("{p}: {}", self.param_type_name(t))).collect();
            self.error(
                Code::Arguments,
                format!("`{}` takes {n} argument{}, not {}", procedure.name, if n == 1 { "" } else { "s" }, args.len()),
                span,
                "wrong number of arguments",
                format!("call it as `{}({})`", procedure.name, wanted.join(", ")),
            );
            return None;
        }
        if self.expanding.contains(&id) {
            self.error(
                Code::EndlessFlow,
                format!("procedure `{}` calls itself", procedure.name),
                func.span,
                "calls back into itself",
                "a call runs the procedure's statements in its place, so a procedure cannot call itself, even through another; repeat with `while` or `repeat until`, or search with a recursive definition",
            );
            return None;
        }
        // A call refused below is still a call: the body is not checked alone as well.
        self.procedures[id].called = true;
        if !self.may_unfold(&procedure, span) {
            return None;
        }
        let what = format!("an argument of `{}`", procedure.name);
        let values = args
            .iter()
            .zip(&procedure.params)
            .map(|(a, (_, ty))| self.argument(a, ty, &what, &procedure.name))
            .collect();
        self.expanding.push(id);
        let stmts = self.body(&procedure, values, flow);
        self.expanding.pop();
        Some(StmtKind::Call(self.add_block(Block { stmts })))
    }

    /// The argument of a parameter: a value, or for a `zone` parameter the pile.
    fn argument(&mut self, arg: &ast::Expr, ty: &Type, what: &str, callee: &str) -> Argument {
        if *ty != Type::Cards {
            return Argument::Value(self.expect(arg, ty, what));
        }
        let (zone, index) = self.pile_argument(arg, callee).unwrap_or((0, None));
        Argument::Pile(zone, index)
    }

    /// Whether one more call may be unfolded. Each call is checked and compiled afresh, so
    /// procedures calling each other several times over could unfold into exponentially many
    /// statements: past [`UNFOLD_LIMIT`] bytes of them the call is refused, once, with a
    /// diagnostic.
    fn may_unfold(&mut self, procedure: &Procedure, span: Span) -> bool {
        if self.unfolded > UNFOLD_LIMIT {
            return false;
        }
        self.unfolded += procedure.body.span.len().max(1);
        if self.unfolded <= UNFOLD_LIMIT {
            return true;
        }
        self.error(
            Code::TooDeep,
            "procedure calls unfold into too many statements",
            span,
            "past the limit here",
            "each call stands for the procedure's statements, 512 KiB of them at most: procedures that call others several times over multiply them; call fewer procedures inside each other, or loop with `for`, `while` or `repeat`",
        );
        false
    }

    /// The statements of a call: each parameter set from its argument, then the body, in a
    /// scope that holds the parameters and nothing of the flow around the call.
    fn body(&mut self, procedure: &Procedure, values: Vec<Argument>, flow: &Flow) -> Vec<Stmt> {
        let outer: Vec<Local> = std::mem::take(&mut self.locals);
        let mut stmts = Vec::new();
        for ((name, ty), value) in procedure.params.iter().zip(values) {
            let (slot, ty, value) = match value {
                Argument::Value(value) => (self.bind(name, ty.clone(), false), ty.clone(), value),
                Argument::Pile(zone, index) => {
                    let slot = self.bind_pile(name, zone);
                    let Some(index) = index else { continue };
                    let owner = self.zones[zone as usize].owner;
                    (slot, if owner == Some(ast::Owner::Side) { Type::Side } else { Type::Seat }, index)
                }
            };
            let target = Target::Local(slot);
            let span = value.span;
            self.keep(&target, &ty, &[&value], span);
            stmts.push(Stmt { kind: StmtKind::Assign(target, AssignOp::Set, value), span });
        }
        stmts.extend(self.stmts(&procedure.body.stmts, flow));
        self.locals = outer;
        stmts
    }

    /// A call statement whose name is not a procedure's.
    fn not_a_procedure(&mut self, func: &ast::Ident, global: Option<Global>, args: &[ast::Expr]) -> Option<StmtKind> {
        let name = &func.name;
        let (message, help) = match global {
            Some(Global::Fn(_)) if self.lookup_local(name).is_none() => (
                format!("`{name}` is a definition: it has a value, and does nothing"),
                format!(
                    "use its value, e.g. `let x = {name}(...)`; for statements, declare a procedure `define {name}(...) {{ ... }}`"
                ),
            ),
            None if self.lookup_local(name).is_none() && super::types::builtin(name).is_none() => {
                self.unknown_name(func, "a procedure is declared with `define NAME(...) { ... }`");
                return None;
            }
            _ => (
                format!("`{name}` is not a procedure"),
                "a statement `NAME(...)` calls a procedure, declared with `define NAME(...) { ... }`".to_string(),
            ),
        };
        let span = args.iter().fold(func.span, |s, a| s.to(a.span));
        self.error(Code::Misplaced, message, span, "not a statement", help);
        None
    }

    /// Checks, once, the body of each procedure no call has checked, so that its mistakes are
    /// found; what it compiles to is dropped.
    pub(super) fn check_uncalled_procedures(&mut self, flow: &Flow) {
        for id in 0..self.procedures.len() {
            if self.procedures[id].called {
                continue;
            }
            let procedure = self.procedures[id].clone();
            let blocks = self.blocks.len();
            let span = procedure.body.span;
            let values = procedure
                .params
                .iter()
                .map(|(_, ty)| match ty {
                    Type::Cards => Argument::Pile(self.sample_zone(), None),
                    _ => Argument::Value(Expr { kind: ExprKind::Const(Value::None), span }),
                })
                .collect();
            self.expanding.push(id);
            self.body(&procedure, values, flow);
            self.expanding.pop();
            self.blocks.truncate(blocks);
        }
    }
}
