//! Statements of the flow (`play`) and of the pack (`deck`), compiled into the block arena.

use super::decls::Parts;
use super::hidden::Reader;
use super::settings::Changes;
use super::types::{element, fits};
use super::{Checker, Ctx, Global, Origin};
use crate::diagnostic::Code;
use crate::game::*;
use crate::syntax::ast::{self, AssignOp, Span};

/// The statements `deck` allows; everything else belongs to `play`.
fn allowed_in_deck(kind: &ast::StmtKind) -> bool {
    use ast::StmtKind::*;
    matches!(kind, Let { .. } | Assign { .. } | If { .. } | For { .. } | Repeat { .. } | MakeCard { .. })
}

/// What the statement is called in messages.
fn stmt_word(kind: &ast::StmtKind) -> &'static str {
    use ast::StmtKind::*;
    match kind {
        Let { .. } => "let",
        Assign { .. } => "an assignment",
        If { .. } => "if",
        For { .. } => "for",
        Repeat { .. } | RepeatUntil { .. } => "repeat",
        While { .. } => "while",
        Phase { .. } => "phase",
        Choose(_) => "choose",
        Simultaneously { .. } => "simultaneously",
        Move { .. } => "move",
        Shuffle { .. } => "shuffle",
        Deal { .. } => "deal",
        Say { .. } => "say",
        Reveal { .. } => "reveal",
        Redo { .. } => "redo",
        End { .. } => "end",
        MakeCard { .. } => "card { ... }",
        Call { .. } => "NAME(...)",
    }
}

/// What every player notices of a statement when it runs, if anything: a statement that may
/// not depend on hidden cards (see `leaks`). Assignments are looked at where their target is known.
fn noticed(kind: &ast::StmtKind) -> Option<&'static str> {
    use ast::StmtKind::*;
    Some(match kind {
        Phase { .. } => "starting a phase",
        Choose(_) | Simultaneously { .. } => "asking a decision",
        Move { .. } => "moving cards",
        Shuffle { .. } => "a shuffle",
        Deal { .. } => "a deal",
        Say { .. } => "narration",
        Reveal { .. } => "a `reveal`",
        Redo { .. } => "starting a phase again",
        End { .. } => "ending a phase",
        Let { value: ast::Rhs::Random(_), .. } | Assign { value: ast::Rhs::Random(_), .. } => "a draw by lot",
        Let { .. }
        | Assign { .. }
        | If { .. }
        | For { .. }
        | Repeat { .. }
        | RepeatUntil { .. }
        | While { .. }
        | MakeCard { .. }
        | Call { .. } => return None,
    })
}

/// A loop that may run past the step budget, if the statement is one (see `stops`).
fn unbounded_loop(kind: &ast::StmtKind) -> Option<&'static str> {
    use ast::StmtKind::*;
    match kind {
        While { .. } => Some("a `while` loop"),
        Repeat { .. } | RepeatUntil { .. } => Some("a `repeat` loop"),
        For { bindings, .. }
            if bindings.iter().any(|b| matches!(b.domain.kind, ast::ExprKind::Binary(ast::BinOp::Range, ..))) =>
        {
            Some("a `for` loop over numbers")
        }
        _ => None,
    }
}

/// What a draw by lot reads: its domain and condition.
fn drawn_from(binding: &Binding) -> Vec<&Expr> {
    [Some(&binding.domain), binding.filter.as_ref()].into_iter().flatten().collect()
}

/// Statement checking needs the variant changes, to swap replaced phases.
pub(super) struct Flow<'c, 'a> {
    pub changes: &'c Changes<'a>,
    pub ctx: Ctx,
}

impl Checker {
    pub(super) fn check_play(&mut self, parts: &Parts, changes: &Changes) -> Option<BlockId> {
        let play = parts.plays.first()?;
        let flow = Flow { changes, ctx: Ctx::Play };
        let id = self.block(&play.body, &flow);
        // Past the unfolding limit, calls are left out of the flow: its loops are not judged.
        if self.unfolded <= super::procedure::UNFOLD_LIMIT {
            self.check_flow(id);
        }
        Some(id)
    }

    /// Checks a block in its own scope (and region, see `leaks`) and adds it to the arena.
    pub(super) fn block(&mut self, block: &ast::Block, flow: &Flow) -> BlockId {
        let stmts = self.region(|c| c.scoped(|c| c.stmts(&block.stmts, flow)));
        self.add_block(Block { stmts })
    }

    /// Checks a loop's body, which may run after the moves of its previous round.
    fn loop_block(&mut self, block: &ast::Block, flow: &Flow) -> BlockId {
        self.forget_for_rounds(block);
        self.block(block, flow)
    }

    pub(super) fn stmts(&mut self, stmts: &[ast::Stmt], flow: &Flow) -> Vec<Stmt> {
        stmts.iter().filter_map(|s| self.stmt(s, flow)).collect()
    }

    fn stmt(&mut self, s: &ast::Stmt, flow: &Flow) -> Option<Stmt> {
        use ast::StmtKind as K;
        let span = s.span;
        if !self.allowed(&s.kind, flow.ctx, span) {
            return None;
        }
        if let Some(effect) = noticed(&s.kind) {
            self.refuse_in_hidden_flow(effect, span);
        }
        if let Some(lp) = unbounded_loop(&s.kind) {
            self.refuse_endless_in_hidden_flow(lp, span);
        }
        let kind = match &s.kind {
            K::Let { name, ty, value } => self.let_stmt(name, ty.as_ref(), value)?,
            K::Assign { target, op, value } => self.assign(target, *op, value)?,
            K::If { cond, then, otherwise } => {
                let c = self.expect(cond, &Type::Bool, "the condition of `if`");
                let (t, o) = self.guarded(&[&c], c.span, "the condition of `if`", |ck| {
                    (ck.block(then, flow), otherwise.as_ref().map(|b| ck.block(b, flow)))
                });
                StmtKind::If(c, t, o)
            }
            K::For { bindings, body } => self.for_stmt(bindings, body, flow),
            K::Repeat { count, body } => {
                let n = self.expect(count, &Type::Int, "the number of repetitions");
                let b = self.guarded(&[&n], n.span, "the number of repetitions", |ck| ck.loop_block(body, flow));
                StmtKind::Repeat(n, b)
            }
            K::RepeatUntil { cond, body } => {
                // The condition is read after the body, but sees only names from outside it.
                let what = "the condition of `repeat until`";
                let (b, c) =
                    self.guarded_after(|ck| ck.loop_block(body, flow), |ck| (ck.expect(cond, &Type::Bool, what), what));
                StmtKind::RepeatUntil(c, b)
            }
            K::While { cond, body } => {
                // The condition is read again after each round.
                self.forget_for_rounds(body);
                let c = self.expect(cond, &Type::Bool, "the condition of `while`");
                let b = self.guarded(&[&c], c.span, "the condition of `while`", |ck| ck.loop_block(body, flow));
                StmtKind::While(c, b)
            }
            K::Phase { name, title, body } => self.phase(name, title.as_ref(), body, flow)?,
            K::Choose(choose) => StmtKind::Choose(Box::new(self.choose(choose, flow))),
            K::Simultaneously { binding, body } => self.simultaneously(binding, body, flow)?,
            K::Move { random, cards, to } => self.move_stmt(random.as_ref(), cards, to),
            K::Shuffle { zone } => {
                let pile = self.pile(zone, "shuffle");
                self.refuse_hidden(pile_index(&pile), Reader::Flow("the index of the pile shuffled"));
                self.after_shuffle(&pile);
                StmtKind::Shuffle(pile)
            }
            K::Deal { count, from, to, starting } => self.deal(count.as_ref(), from, to, starting.as_ref())?,
            K::Say { text } => {
                // Every player reads the same narration: it may tell only what everyone may know.
                let text = self.template(text);
                self.refuse_hidden([&text], Reader::Public("narration"));
                StmtKind::Say(text)
            }
            K::Reveal { cards } => self.reveal(cards),
            K::Redo { phase } => StmtKind::Redo(self.enclosing_phase(phase, "redo")?),
            K::End { phase } => StmtKind::End(self.enclosing_phase(phase, "end")?),
            K::MakeCard { fields } => StmtKind::MakeCard(self.make_card(fields, span)),
            K::Call { func, args } => self.call_stmt(func, args, span, flow)?,
        };
        self.refuse_stops_in_hidden_flow(kind.exprs());
        Some(Stmt { kind, span })
    }

    fn allowed(&mut self, kind: &ast::StmtKind, ctx: Ctx, span: Span) -> bool {
        let ok = match ctx {
            Ctx::Deck => allowed_in_deck(kind),
            Ctx::Play => !matches!(kind, ast::StmtKind::MakeCard { .. }),
        };
        if !ok {
            let word = stmt_word(kind);
            let (label, help) = match ctx {
                Ctx::Deck => (
                    "not allowed in `deck`".to_string(),
                    "`deck` builds the pack with `for`, `if`, `repeat`, `let` and `card { ... }`; moves and decisions belong in `play`",
                ),
                Ctx::Play => ("only `deck` makes cards".to_string(), "add the card inside `deck { ... }`"),
            };
            self.error(Code::Misplaced, format!("`{word}` cannot be used here"), span, label, help);
        }
        ok
    }

    fn let_stmt(&mut self, name: &ast::Ident, ty: Option<&ast::TypeExpr>, value: &ast::Rhs) -> Option<StmtKind> {
        let declared = ty.map(|t| self.resolve_type(t, false));
        match value {
            ast::Rhs::Expr(e) => {
                let (x, t) = match &declared {
                    Some(t) => (self.expect(e, t, "the value of `let`"), t.clone()),
                    None => self.storable_expr(e),
                };
                let slot = self.bind(&name.name, t.clone(), true);
                let target = Target::Local(slot);
                self.keep(&target, &t, &[&x], name.span);
                Some(StmtKind::Assign(target, AssignOp::Set, x))
            }
            ast::Rhs::Random(b) => {
                let binding = self.random_binding(b);
                let drawn = self.lookup_local(&b.name.name).map(|l| l.ty.clone()).unwrap_or(Type::Error);
                let t = match declared {
                    Some(t) => {
                        if !fits(&t, &drawn) {
                            self.mismatch(b.domain.span, &t, &drawn, "what is drawn");
                        }
                        t
                    }
                    None => drawn,
                };
                self.locals.pop();
                let slot = self.bind(&name.name, t.clone(), true);
                let target = Target::Local(slot);
                self.keep(&target, &t, &drawn_from(&binding), name.span);
                Some(StmtKind::Random(target, binding))
            }
        }
    }

    /// A `random x in D where C` binding; leaves `x` bound for the caller to drop.
    fn random_binding(&mut self, b: &ast::Binding) -> Binding {
        let binding = self.binding(b);
        if b.start.is_some() {
            self.error(
                Code::Misplaced,
                "`from` has no meaning in a draw by lot",
                b.span,
                "order does not matter here",
                "remove `from ...`",
            );
        }
        binding
    }

    /// Checks `x in D [from s] [where c]` and binds `x` in the current scope.
    pub(super) fn binding(&mut self, b: &ast::Binding) -> Binding {
        let (domain, elem) = self.domain(&b.domain);
        let start = b.start.as_ref().map(|s| {
            if elem != Type::Seat && elem != Type::Error {
                self.error(
                    Code::TypeMismatch,
                    "`from` starts a round of seats",
                    s.span,
                    "the domain is not seats",
                    "use `from` only when going through seats",
                );
            }
            self.expect(s, &Type::Seat, "the starting seat")
        });
        let slot = self.bind(&b.name.name, elem, false);
        let filter = b.filter.as_ref().map(|f| self.expect(f, &Type::Bool, "the `where` condition"));
        Binding { slot, domain, start, filter }
    }

    fn assign(&mut self, place: &ast::Place, op: AssignOp, value: &ast::Rhs) -> Option<StmtKind> {
        let (target, ty) = self.target(place)?;
        match value {
            ast::Rhs::Expr(e) => {
                let x = match (op, ty.base()) {
                    (AssignOp::Set, _) => self.expect(e, &ty, "the new value"),
                    // The name's value was refused already: nothing to match the change with.
                    (_, Type::Error) => self.expr(e).0,
                    (_, set @ Type::Set(_)) => {
                        let set = set.clone();
                        self.set_change(&set, e, "a member to add or remove")
                    }
                    _ => {
                        if !fits(&Type::Int, &ty) {
                            let g = self.a_type(&ty);
                            self.error(
                                Code::TypeMismatch,
                                format!("`+=` and `-=` need a number or a set, not {g}"),
                                place.span,
                                format!("this is {g}"),
                                "use `=` to replace the value",
                            );
                        }
                        self.expect(e, &Type::Int, "the amount")
                    }
                };
                self.keep(&target, &ty, &[&x], place.span);
                Some(StmtKind::Assign(target, op, x))
            }
            ast::Rhs::Random(b) => {
                if op != AssignOp::Set {
                    self.error(
                        Code::Misplaced,
                        "a draw by lot replaces a value",
                        place.span,
                        "use `=`",
                        "write `x = random s in seats`",
                    );
                }
                let binding = self.scoped(|c| c.random_binding(b));
                self.keep(&target, &ty, &drawn_from(&binding), place.span);
                Some(StmtKind::Random(target, binding))
            }
        }
    }

    /// Checks a value kept in a variable or a `let` name, which every player (a variable) or
    /// every computer player (both) sees: it may not read what some player may not see, except
    /// that a `let` name may hold a card from anywhere (see `hidden`).
    pub(super) fn keep(&mut self, target: &Target, ty: &Type, values: &[&Expr], at: Span) {
        self.forget_piles_indexed_by(target);
        match target {
            Target::Local(slot) => {
                let local = self.locals.iter().rev().find(|l| l.slot == *slot);
                let name = local.map(|l| l.name.clone()).unwrap_or_default();
                // A set of cards is kept like a card: by the names of the cards.
                if matches!(ty.base(), Type::Card) || ty.is_card_set() {
                    for value in values {
                        self.note_card_name(&name, *slot, value);
                    }
                } else {
                    self.refuse_outer_let_in_hidden_flow(*slot, &name, at);
                    self.refuse_hidden(values.iter().copied(), Reader::Let(&name));
                }
            }
            Target::Var(v) | Target::VarAt(v, _) => {
                let name = self.vars[*v as usize].name.clone();
                self.refuse_in_hidden_flow(&format!("giving `{name}` a value"), at);
                let index = match target {
                    Target::VarAt(_, ix) => Some(ix),
                    _ => None,
                };
                self.refuse_hidden(index.into_iter().chain(values.iter().copied()), Reader::Var(&name));
            }
        }
    }

    /// Resolves an assignable place.
    fn target(&mut self, place: &ast::Place) -> Option<(Target, Type)> {
        let name = &place.name;
        if let Some(local) = self.lookup_local(&name.name).cloned() {
            if place.index.is_some() || !local.assignable {
                let (why, help) = if local.assignable {
                    ("has a single value", format!("write `{} = ...` without an index", name.name))
                } else {
                    (
                        "is fixed by its loop or choice",
                        format!(
                            "`{0}` names the element in hand; to change a value, keep it in a `let` (`let t = {0}`) or a `var`",
                            name.name
                        ),
                    )
                };
                self.error(
                    Code::NotAssignable,
                    format!("`{}` {why}", name.name),
                    place.span,
                    "cannot be assigned",
                    help,
                );
                return None;
            }
            return Some((Target::Local(local.slot), local.ty));
        }
        match self.globals.get(&name.name).map(|g| g.0) {
            Some(Global::Var(v)) => self.var_target(v, place),
            Some(_) => {
                self.error(
                    Code::NotAssignable,
                    format!("`{}` cannot change", name.name),
                    name.span,
                    "not a variable",
                    "only `var` and `let` names can be assigned; parameters change with `--set` or a variant",
                );
                None
            }
            None => {
                self.unknown_name(name, "variables are declared with `var` or `let`");
                None
            }
        }
    }

    fn var_target(&mut self, v: VarId, place: &ast::Place) -> Option<(Target, Type)> {
        let info = self.vars[v as usize].clone();
        match (info.owner, &place.index) {
            (None, None) => Some((Target::Var(v), info.ty)),
            (Some(owner), Some(ix)) => {
                let want = if owner == ast::Owner::Seat { Type::Seat } else { Type::Side };
                let x = self.expect(ix, &want, "the index");
                Some((Target::VarAt(v, x), info.ty))
            }
            (Some(_), None) => {
                self.error(
                    Code::WrongKind,
                    format!("`{}` has one value per seat or side", info.name),
                    place.span,
                    "needs an index",
                    format!("write `{}[s] = ...`", info.name),
                );
                None
            }
            (None, Some(_)) => {
                self.error(
                    Code::WrongKind,
                    format!("`{}` has a single value", info.name),
                    place.span,
                    "not per seat or per side",
                    format!("write `{} = ...`", info.name),
                );
                None
            }
        }
    }

    fn for_stmt(&mut self, bindings: &[ast::Binding], body: &ast::Block, flow: &Flow) -> StmtKind {
        self.scoped(|c| {
            let mut reads = Vec::new();
            let mut bs = Vec::new();
            for b in bindings {
                let binding = c.binding(b);
                c.note_found_card(&b.name.name, binding.slot, &binding.domain);
                c.loop_reads(&binding, &mut reads);
                bs.push(binding);
            }
            let at = bindings.first().map_or(Span::default(), |b| b.span);
            let body = c.guarded_by(reads.first(), at, "the loop", |c| c.loop_block(body, flow));
            StmtKind::For(bs, body)
        })
    }

    fn phase(
        &mut self,
        name: &ast::Ident,
        title: Option<&ast::PhaseTitle>,
        body: &ast::Block,
        flow: &Flow,
    ) -> Option<StmtKind> {
        let id = self.phase_id(&name.name)?;
        if let Some(title) = title {
            self.phase_title(id, title);
        }
        if self.phase_stack.contains(&id) {
            self.error(
                Code::Misplaced,
                format!("phase `{}` inside itself", name.name),
                name.span,
                "already inside this phase",
                "give the inner phase another name",
            );
        }
        self.phase_stack.push(id);
        // Replacements that are not applied are still checked here, where their names resolve.
        for r in flow.changes.replacements.iter().filter(|r| !r.active && r.phase == name.name) {
            let mark = self.blocks.len();
            self.in_origin(r.origin, |c| c.block(r.body, flow));
            self.blocks.truncate(mark);
        }
        let block = match flow.changes.active_replacement(&name.name) {
            Some(r) => self.in_origin(r.origin, |c| c.block(r.body, flow)),
            None => self.block(body, flow),
        };
        self.phase_stack.pop();
        Some(StmtKind::Phase(id, block))
    }

    /// A phase's title and count; the first title written for a phase is the one players read.
    fn phase_title(&mut self, id: PhaseId, title: &ast::PhaseTitle) {
        let of = title.of.as_ref().map(|e| self.expect(e, &Type::Int, "the count of a phase"));
        if let Some(of) = &of {
            self.refuse_hidden(vec![of], super::hidden::Reader::Public("the count of a phase"));
        }
        let info = &mut self.phases[id as usize];
        if info.title.is_none() {
            info.title = Some(title.text.value.clone());
            info.of = of;
        }
    }

    fn enclosing_phase(&mut self, name: &ast::Ident, word: &str) -> Option<PhaseId> {
        let id = self.phase_id(&name.name);
        match id {
            Some(id) if self.phase_stack.contains(&id) => Some(id),
            Some(_) => {
                self.error(
                    Code::Misplaced,
                    format!("`{word} {}` outside that phase", name.name),
                    name.span,
                    "not inside this phase",
                    format!("`{word}` acts on a phase it is inside: move it into `phase {} {{ ... }}`", name.name),
                );
                None
            }
            None => {
                self.unknown_name(name, "`redo` and `end` name an enclosing phase");
                None
            }
        }
    }

    fn choose(&mut self, c: &ast::Choose, flow: &Flow) -> Choose {
        let (mut domains, mut elem) = self.choice_domains(&c.domains);
        let group = c.group.as_ref().map(|size| self.group_size(size.as_ref(), &elem, c));
        if group.is_none() && c.name.name == "cards" {
            self.error(
                Code::Misplaced,
                "a choice of one card named `cards`",
                c.name.span,
                "read as the name of the one card chosen",
                "to choose several cards at once, name the group after `cards`: `choose cards p from ...`; to choose one card, give it another name",
            );
        }
        if group.is_some() {
            elem = Type::Group;
        }
        let by = self.expect(&c.by, &Type::Seat, "the seat that decides");
        let (slot, menu) = match &c.menu {
            None => (self.bind(&c.name.name, elem.clone(), false), None),
            Some((name, list)) => {
                let (d, menu_elem) = self.menu(&elem, list);
                domains.push(d);
                // Beside several cards, a menu action leaves the group empty rather than `none`.
                let cards = if group.is_some() { elem.clone() } else { elem.opt() };
                let slot = self.bind(&c.name.name, cards, false);
                elem = menu_elem;
                (slot, Some(self.bind(&name.name, elem.clone().opt(), false)))
            }
        };
        if group.is_some() {
            self.groups.insert(slot);
        }
        let card_domains = domains.len() - usize::from(menu.is_some());
        for d in &domains[..card_domains] {
            self.note_found_card(&c.name.name, slot, d);
        }
        let tiers = c.tiers.iter().map(|t| self.tier(t, flow)).collect();
        let declare = c.declare.as_ref().map(|d| {
            let when = self.expect(&d.when, &Type::Bool, "the condition of `declare`");
            let flag = self.bind(&d.name.name, Type::Bool, false);
            (flag, d.name.name.clone(), when)
        });
        let label = c.label.as_ref().map(|l| self.template(l));
        let choose = Choose { slot, elem, domains, menu, group, by, tiers, declare, label, span: c.span };
        self.refuse_told_by_choice(&choose);
        self.check_possible(&choose);
        choose
    }

    /// What a choice tells: everyone sees which seat decides and reads the label of the option
    /// chosen; the seat that decides sees its options, how many, and which are legal.
    fn refuse_told_by_choice(&mut self, c: &Choose) {
        self.refuse_hidden([&c.by], Reader::Flow("the seat that decides"));
        let own: Vec<Slot> = [c.slot].into_iter().chain(c.menu).collect();
        // A chosen card is named to a player only once it lands where that player sees it.
        let cards = matches!(c.elem, Type::Card | Type::Group) || c.menu.is_some();
        self.refuse_hidden(&c.label, Reader::Label { own: if cards { &own } else { &[] } });
        let chooser = |what| Reader::Chooser { what, by: &c.by, own: &own };
        self.refuse_hidden(&c.domains, chooser("the list of options"));
        self.refuse_hidden(c.tiers.iter().filter_map(|t| t.cond.as_ref()), chooser("a tier's condition"));
        self.refuse_hidden(c.declare.iter().map(|d| &d.2), chooser("the condition of `declare`"));
    }

    fn tier(&mut self, t: &ast::Tier, flow: &Flow) -> Tier {
        let cond = t.cond.as_ref().map(|e| self.expect(e, &Type::Bool, "a tier's condition"));
        let reads: Vec<&Expr> = cond.iter().collect();
        let then = self.guarded(&reads, t.span, "the tier's condition", |c| t.then.as_ref().map(|b| c.block(b, flow)));
        Tier { cond, then, span: t.span }
    }

    /// How many cards a choice of several takes (`2 cards`, `1..3 cards`, `cards`), checked
    /// against what a group can hold.
    fn group_size(&mut self, size: Option<&ast::Expr>, elem: &Type, c: &ast::Choose) -> GroupSize {
        if !matches!(elem, Type::Card | Type::Error) {
            let span = c.domains.iter().map(|d| d.span).reduce(Span::to).unwrap_or(c.span);
            self.error(
                Code::TypeMismatch,
                "only cards can be chosen several at once",
                span,
                "not cards",
                "choose several cards from zones (`choose 2 cards p from hand[s] by s`), or one value at a time from a list",
            );
        }
        let what = "how many cards are chosen";
        let (least, most) = match size.map(|e| (e, &e.kind)) {
            None => (Expr { kind: ExprKind::Const(Value::Int(0)), span: c.span }, None),
            Some((_, ast::ExprKind::Binary(ast::BinOp::Range, lo, hi))) => {
                (self.expect(lo, &Type::Int, what), Some(self.expect(hi, &Type::Int, what)))
            }
            Some((e, _)) => {
                let n = self.expect(e, &Type::Int, what);
                (n.clone(), Some(n))
            }
        };
        let size = GroupSize { least, most };
        // Everyone is told how many cards were chosen.
        self.refuse_hidden(std::iter::once(&size.least).chain(&size.most), Reader::Public("how many cards are chosen"));
        self.check_group_size(&size, size_span(c));
        size
    }

    /// The sizes a group can never have, and groups larger than a pack of this size allows.
    fn check_group_size(&mut self, size: &GroupSize, span: Span) {
        let fixed = |e: &Expr| match e.kind {
            ExprKind::Const(Value::Int(n)) => Some(n),
            _ => None,
        };
        let (least, most) = (fixed(&size.least), size.most.as_ref().map(fixed));
        if least.is_some_and(|l| l < 0) || matches!((least, most), (Some(l), Some(Some(m))) if m < l) {
            self.error(
                Code::NoAction,
                "this decision can never be made",
                span,
                "no group of cards has this size",
                "give a size of 0 or more, or a range whose end is not below its start (`1..3 cards`)",
            );
            return;
        }
        let pack = self.cards.len();
        let too_many = match most {
            None => true,
            Some(Some(m)) => m > MAX_LISTED as i64,
            Some(None) => false,
        };
        if pack > SMALL_PACK && too_many {
            self.error(
                Code::OutOfRange,
                format!("more than {MAX_LISTED} cards chosen at once from a pack of {pack} cards"),
                span,
                if most.is_none() { "any number of cards" } else { "too many cards" },
                format!("a choice of several cards takes at most {MAX_LISTED} in a pack of more than {SMALL_PACK} cards: give the most it takes, e.g. `1..{MAX_LISTED} cards`"),
            );
        }
    }

    /// The menu of a mixed decision (`or m from Move`), offered with cards: one list of values
    /// that are not cards. Its lowered domain and the type of its values.
    fn menu(&mut self, cards: &Type, list: &ast::Expr) -> (Expr, Type) {
        let (x, t) = self.expr(list);
        let x = super::expr::iterable(x, &t);
        let zone = matches!(t.base(), Type::Cards | Type::Group | Type::ZoneFamily(_));
        match element(&t) {
            Some(el) if !zone && matches!(cards, Type::Card | Type::Group) => (x, el),
            _ if !matches!(cards, Type::Card | Type::Group | Type::Error) => {
                self.error(
                    Code::TypeMismatch,
                    "menu actions are offered with cards",
                    list.span,
                    "a menu after a choice that is not of cards",
                    "choose from zones before `or`, e.g. `choose c from hand[s] or m from Move by s`, or put the menu's values in the one list",
                );
                (x, Type::Error)
            }
            _ => {
                self.error(
                    Code::TypeMismatch,
                    format!("cannot offer {} as menu actions", self.a_type(&t)),
                    list.span,
                    "not a list of actions",
                    "after `or NAME from` give an enumeration (a menu), seats or a range; the cards come before `or`",
                );
                (x, Type::Error)
            }
        }
    }

    /// The domains of a choice: one or more zones, or one list.
    fn choice_domains(&mut self, exprs: &[ast::Expr]) -> (Vec<Expr>, Type) {
        let mut out = Vec::new();
        let mut elem = Type::Error;
        for e in exprs {
            let (x, t) = self.expr(e);
            let x = super::expr::iterable(x, &t);
            let this = element(&t);
            let cards = matches!(t.base(), Type::Cards | Type::Group | Type::ZoneFamily(_));
            match this {
                None => {
                    let g = self.a_type(&t);
                    self.error(
                        Code::TypeMismatch,
                        format!("cannot choose from {g}"),
                        e.span,
                        "not something to choose from",
                        "choose from zones, seats, an enumeration or a range such as `0..9`",
                    );
                }
                Some(_) if exprs.len() > 1 && !cards => {
                    self.error(
                        Code::TypeMismatch,
                        "only zones can be combined in one choice",
                        e.span,
                        "not a zone",
                        "choose from several zones, or from one list",
                    );
                }
                Some(el) => elem = el,
            }
            out.push(x);
        }
        (out, elem)
    }

    fn simultaneously(&mut self, binding: &ast::Binding, body: &ast::Block, flow: &Flow) -> Option<StmtKind> {
        let Some((first, rest)) = body.stmts.split_first() else {
            self.error(
                Code::Misplaced,
                "`simultaneously` with nothing to decide",
                body.span,
                "empty block",
                "start the block with the `choose` each seat makes",
            );
            return None;
        };
        let ast::StmtKind::Choose(c) = &first.kind else {
            self.error(
                Code::Misplaced,
                "`simultaneously` must start with the decision",
                first.span,
                "not a `choose`",
                "make `choose ... by s` the block's first statement; the rest runs after everyone has chosen",
            );
            return None;
        };
        self.scoped(|ck| {
            let b = ck.binding(binding);
            // Everyone sees which seats are asked.
            let seats = [Some(&b.domain), b.start.as_ref(), b.filter.as_ref()];
            ck.refuse_hidden(seats.into_iter().flatten(), Reader::Flow("the list of seats of `simultaneously`"));
            if !matches!(ck.locals.last().map(|l| &l.ty), Some(Type::Seat | Type::Error)) {
                ck.error(
                    Code::TypeMismatch,
                    "`simultaneously` goes through seats",
                    binding.domain.span,
                    "not seats",
                    "write `simultaneously for s in seats { ... }`",
                );
            }
            // The block runs once for each seat, each after the ones before it.
            ck.forget_for_rounds(body);
            let choose = ck.choose(c, flow);
            let stmts = ck.scoped(|ck| ck.stmts(rest, flow));
            let block = ck.add_block(Block { stmts });
            Some(StmtKind::Simultaneously(b, Box::new(choose), block))
        })
    }

    /// A single pile of cards: a shared zone or `zone[index]`.
    fn pile(&mut self, e: &ast::Expr, what: &str) -> Expr {
        let (x, t) = self.expr(e);
        if !matches!(x.kind, ExprKind::Zone(..)) && t != Type::Error {
            let g = self.a_type(&t);
            let (label, help) = match t {
                Type::ZoneFamily(_) => {
                    ("one pile for each seat: which one?", "say which seat's pile: `hand[s]`".to_string())
                }
                _ => ("not a zone", format!("`{what}` needs a zone, such as `stock` or `hand[s]`")),
            };
            self.error(Code::WrongKind, format!("`{what}` needs one pile of cards, not {g}"), e.span, label, help);
        }
        x
    }

    fn move_stmt(&mut self, random: Option<&ast::Expr>, cards: &ast::Expr, to: &ast::Expr) -> StmtKind {
        let random = random.map(|n| self.expect(n, &Type::Int, "the number of cards"));
        // Every player reads how many cards move, and to which pile.
        self.refuse_hidden(&random, Reader::Flow("the number of cards moved by lot"));
        let (x, t) = self.expr(cards);
        if !matches!(t.base(), Type::Card | Type::Cards | Type::Group | Type::ZoneFamily(_) | Type::Error)
            && !t.is_card_set()
        {
            let g = self.a_type(&t);
            self.error(
                Code::WrongKind,
                format!("cannot move {g}"),
                cards.span,
                "not cards",
                "move a card, a zone's cards, or `cards c in zone where ...`",
            );
        }
        let to = self.pile(to, "move ... to");
        self.refuse_hidden(pile_index(&to), Reader::Flow("the index of the pile moved to"));
        self.after_move(&x, &to);
        StmtKind::Move { random, cards: x, to }
    }

    /// `reveal CARDS`: a card, a pile or a selection of cards.
    fn reveal(&mut self, cards: &ast::Expr) -> StmtKind {
        let (x, t) = self.expr(cards);
        if !matches!(t.base(), Type::Card | Type::Cards | Type::Group | Type::Error) {
            let g = self.a_type(&t);
            self.error(
                Code::WrongKind,
                format!("cannot reveal {g}"),
                cards.span,
                "not cards",
                "reveal a card, a pile such as `hand[s]`, or `cards c in hand[s] where ...`",
            );
        }
        self.after_reveal(&x);
        StmtKind::Reveal(x)
    }

    fn deal(
        &mut self,
        count: Option<&ast::Expr>,
        from: &ast::Expr,
        to: &ast::Ident,
        starting: Option<&ast::Expr>,
    ) -> Option<StmtKind> {
        let count = count.map(|n| self.expect(n, &Type::Int, "the number of cards each"));
        if let Some(n) = count.as_ref().filter(|_| self.seating_read) {
            self.refuse_deal_past_the_pack(n);
        }
        let from = self.pile(from, "deal ... from");
        let starting = starting.map(|s| self.expect(s, &Type::Seat, "the first seat dealt to"));
        // Every player reads how many cards are dealt, and from which seat on.
        self.refuse_hidden(&count, Reader::Flow("the number of cards dealt"));
        self.refuse_hidden(&starting, Reader::Flow("the first seat dealt to"));
        let zone = match self.globals.get(&to.name).map(|g| g.0) {
            Some(Global::Zone(z)) if self.zones[z as usize].owner == Some(ast::Owner::Seat) => z,
            Some(_) => {
                self.error(
                    Code::WrongKind,
                    format!("`{}` is not a per-seat zone", to.name),
                    to.span,
                    "cannot deal to it",
                    "deal to a zone declared `per seat`, such as `zone hand per seat`",
                );
                return None;
            }
            None => {
                self.unknown_name(to, "zones are declared with `zone`");
                return None;
            }
        };
        self.after_cards_land(Some(zone));
        Some(StmtKind::Deal { count, from, to: zone, starting })
    }

    /// Refuses `deal N each` where N, a number or a parameter, is more cards for every seat
    /// than the whole pack holds: no flow of play can make it work.
    fn refuse_deal_past_the_pack(&mut self, count: &Expr) {
        let ExprKind::Const(Value::Int(each)) = count.kind else { return };
        let (pack, seats) = (self.cards.len() as i64, self.seats.len() as i64);
        let Some(needed) = each.checked_mul(seats) else { return };
        if pack > 0 && needed > pack {
            self.error(
                Code::OutOfRange,
                format!("dealing {each} each to {seats} seats takes {needed} cards, and the pack has {pack}"),
                count.span,
                "more cards than the pack holds",
                "deal fewer cards each, or make the pack larger in `deck`",
            );
        }
    }

    pub(super) fn in_origin<T>(&mut self, origin: Origin, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = self.origin.replace(origin);
        let out = f(self);
        self.origin = saved;
        out
    }
}

/// The index of a pile (`hand[s]`), if it has one.
fn pile_index(pile: &Expr) -> Option<&Expr> {
    match &pile.kind {
        ExprKind::Zone(_, ix) => ix.as_deref(),
        _ => None,
    }
}

/// Where a choice of several cards says how many: from `choose` to its name.
fn size_span(c: &ast::Choose) -> Span {
    Span { start: c.span.start, end: c.name.span.end }
}
