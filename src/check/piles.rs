//! `zone` parameters: a definition or procedure taking one pile (`define combos(z: zone): int`,
//! called as `combos(hand[k])` or `combos(stock)`). Inside, the parameter is that pile, read and
//! (in a procedure) moved to like the pile written out. A procedure is checked at each call, so
//! its parameter is the call's pile; a definition is checked once for each zone its zone
//! parameters may stand for (an instance each), and a call runs the instance of its piles. The
//! seat or side of a per-seat or per-side pile is an ordinary parameter of the call, so
//! hidden information is followed into the body as for any argument.

use super::{Checker, Local};
use crate::diagnostic::Code;
use crate::game::*;
use crate::syntax::ast::{self, Span};
use crate::vocab::Audience;

/// How many instances one definition's zone parameters may make (zones to the power of the
/// number of zone parameters).
pub(super) const INSTANCE_LIMIT: usize = 256;

/// An argument of a procedure: a value, or the pile a `zone` parameter stands for.
pub(super) enum Argument {
    Value(Expr),
    Pile(ZoneId, Option<Expr>),
}

impl Checker {
    /// A parameter's type: as anywhere, or `zone`, kept as [`Type::Cards`] (no other written
    /// type is).
    pub(super) fn param_type(&mut self, t: &ast::TypeExpr) -> Type {
        if t.kind != ast::TypeKind::Zone {
            return self.resolve_type(t, false);
        }
        if t.optional {
            self.error(
                Code::TypeMismatch,
                "a `zone` parameter cannot be `none`",
                t.span,
                "`zone?`",
                "a zone parameter always stands for a pile: write `zone`",
            );
        }
        Type::Cards
    }

    /// `zone` where only values are written: a `var`, a `let`, a result or a payload.
    pub(super) fn zone_not_a_value(&mut self, span: Span) -> Type {
        self.error(
            Code::TypeMismatch,
            "a zone is not a value",
            span,
            "only a parameter may be a `zone`",
            "a parameter of a definition or procedure may stand for a pile (`z: zone`); to keep the cards a pile holds, write `set of card`",
        );
        Type::Error
    }

    /// The pile an argument names, for a `zone` parameter: a shared zone, or a per-seat or
    /// per-side zone with its index (the index is the argument's value).
    pub(super) fn pile_argument(&mut self, arg: &ast::Expr, callee: &str) -> Option<(ZoneId, Option<Expr>)> {
        let (x, t) = self.expr(arg);
        match x.kind {
            ExprKind::Zone(zone, index) => return Some((zone, index.map(|i| *i))),
            _ if t == Type::Error => return None,
            _ => {}
        }
        let help = match t.base() {
            Type::ZoneFamily(_) => "say which seat's pile: `hand[s]`".to_string(),
            Type::Group | Type::Cards => format!(
                "a zone parameter is one pile; for a group or a selection of cards declare the parameter of `{callee}` as `set of card`"
            ),
            _ if t.is_card_set() => {
                format!(
                    "a zone parameter is one pile; for a set of cards declare the parameter of `{callee}` as `set of card`"
                )
            }
            _ => format!("give `{callee}` a pile: `hand[s]` or `stock`"),
        };
        let got = self.a_type(&t);
        self.error(
            Code::TypeMismatch,
            format!("a zone parameter takes a pile, not {got}"),
            arg.span,
            "not a pile",
            help,
        );
        None
    }

    /// Declares a `zone` parameter standing for `zone`, the seat or side of its pile (if it has
    /// one) held in the parameter's own slot; returns that slot.
    pub(super) fn bind_pile(&mut self, name: &str, zone: ZoneId) -> Slot {
        let slot = self.new_slot();
        let index = self.zones[zone as usize].owner.map(|_| slot);
        let local =
            Local { name: name.to_string(), slot, ty: Type::Cards, assignable: false, pile: Some((zone, index)) };
        self.locals.push(local);
        slot
    }

    /// The zone a procedure never called checks its `zone` parameters with: one everyone
    /// sees if there is one, so that reading it is not taken for reading hidden cards.
    pub(super) fn sample_zone(&self) -> ZoneId {
        self.zones.iter().position(|z| z.see == Audience::Everyone).unwrap_or(0) as ZoneId
    }

    /// The zones each instance of the definitions stands for, one instance per combination of
    /// the zones of its `zone` parameters; the definition's own id is the first combination.
    /// Notes, for every definition and instance id, its declaration and its zones.
    pub(super) fn declare_instances(&mut self, defines: &[&ast::DefineDecl]) {
        let mut later = Vec::new();
        for (i, decl) in defines.iter().enumerate() {
            let piles = self.fn_sigs[i].params.iter().filter(|t| **t == Type::Cards).count();
            let mut combos = vec![Vec::new()];
            for _ in 0..piles {
                if combos.len().saturating_mul(self.zones.len()) > INSTANCE_LIMIT {
                    self.error(
                        Code::TooDeep,
                        format!("`{}` would be made for too many zones", decl.name.name),
                        decl.name.span,
                        "too many zone parameters",
                        format!("a definition is checked once for each zone its zone parameters may stand for, {INSTANCE_LIMIT} times at most: take fewer `zone` parameters, or `set of card` ones"),
                    );
                    combos.truncate(1);
                    break;
                }
                combos = combos
                    .iter()
                    .flat_map(|c| (0..self.zones.len() as ZoneId).map(move |z| [c.clone(), vec![z]].concat()))
                    .collect();
            }
            let mut combos = combos.into_iter().filter(|c| c.len() == piles);
            let first = combos.next().unwrap_or_else(|| vec![0; piles]);
            self.fn_origins.push((i, first.clone()));
            self.fn_instances.insert((i as FnId, first), i as FnId);
            for zones in combos {
                let id = self.functions.len() as FnId;
                self.fn_sigs.push(self.fn_sigs[i].clone());
                self.functions.push(self.functions[i].clone());
                self.fn_instances.insert((i as FnId, zones.clone()), id);
                later.push((i, zones));
            }
        }
        self.fn_origins.extend(later);
    }

    /// The instance of definition `f` for the zones of its `zone` arguments.
    pub(super) fn instance(&self, f: FnId, zones: Vec<ZoneId>) -> FnId {
        if zones.is_empty() { f } else { self.fn_instances.get(&(f, zones)).copied().unwrap_or(f) }
    }

    /// How a parameter's type is written in a call's usage.
    pub(super) fn param_type_name(&self, t: &Type) -> String {
        if *t == Type::Cards { "zone".into() } else { self.type_name(t) }
    }
}
