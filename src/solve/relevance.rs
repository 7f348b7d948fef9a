//! What the rest of a phase can tell apart: the parts of a position the search may leave out
//! of its table's key.
//!
//! From a position, only the statements still ahead before the phase ends can run
//! ([`ahead`]). A variable, zone or local that no statement ahead reads where it matters, and
//! that the quantity solved for does not read, is *dead*: positions that differ only there
//! play out alike and score alike. A variable or zone that the quantity reads only as a sum
//! (`sum c in won[t] of c.points`, `tricks[t]`) and that the statements ahead only add to
//! (`move ... to won[...]`, `tricks[...] += 1`) is *additive*: positions that differ only there
//! play out alike, and their values differ by what the quantity differs by now. A search that
//! keys its table without dead and additive parts, and keeps values relative to the quantity
//! now, meets far more positions it has solved already: the same tricks won in another order,
//! or by the other side, lead to one entry.
//!
//! A statement that only writes dead things (and narrates) is *inert*: what it reads does not
//! matter. Everything else read ahead matters, found as a fixed point, since a read that
//! matters can make what was dead matter too.
//!
//! One case is left to the search to watch: a card named by a value (`move c to trick`) might
//! be taken out of an additive pile, which no reading of the rules rules out. The piles of
//! additive zones are therefore [`Abstraction::guarded`]: a move that takes a card out of one
//! makes the search start again keying everything.

use super::Task;
use crate::engine::{Frame, KeyMask, Pending, State};
use crate::game::*;
use crate::syntax::ast::{AggOp, AssignOp, BinOp};
use std::collections::{HashMap, HashSet};

/// What a search keys its table on, and how it keeps values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Abstraction {
    /// The parts of a position the key hashes.
    pub mask: KeyMask,
    /// Whether values are kept relative to the quantity at the position (some part is additive).
    pub relative: bool,
    /// The piles whose cards must stay where they are for the key to be sound.
    pub guarded: Vec<usize>,
    /// The zones and variables left out as only added to, by name, in the order declared.
    pub added_to: Vec<String>,
    /// The zones and variables left out as not read before the phase ends.
    pub unread: Vec<String>,
}

impl Abstraction {
    /// Keys everything, values kept as they are.
    pub(super) fn exact() -> Abstraction {
        Abstraction { mask: KeyMask::everything(), ..Abstraction::default() }
    }

    /// What the search from `state` to the end of `task`'s phase may leave out.
    pub(super) fn of(state: &State, task: &Task) -> Abstraction {
        let game = state.game();
        let frames = &state.position().frames;
        let roles = Roles::solve(game, &ahead(game, &frames[task.frame..]), objective(game, task));
        let layout = state.layout();
        let kept = |item: Item| roles.of(item) == Role::Kept;
        let piles: Vec<bool> = layout.pile_zone.iter().map(|(z, _)| kept(Item::Zone(*z))).collect();
        let mut vars = vec![true; layout.var_slots];
        for (v, base) in layout.var_base.iter().enumerate() {
            let n = layout.var_base.get(v + 1).copied().unwrap_or(layout.var_slots) - base;
            vars[*base..base + n].fill(kept(Item::Var(v as VarId)));
        }
        let live = live_locals(game, state);
        let locals = (0..game.slots).map(|s| kept(Item::Local(s as Slot)) && live(s as Slot)).collect();
        let additive = |z: ZoneId| roles.of(Item::Zone(z)) == Role::Additive;
        let guarded = layout.pile_zone.iter().enumerate().filter(|(_, (z, _))| additive(*z)).map(|(p, _)| p).collect();
        Abstraction {
            mask: KeyMask { piles, vars, locals, origins: kept(Item::Origins) },
            relative: roles.0.values().any(|r| *r == Role::Additive),
            guarded,
            added_to: roles.named(game, Role::Additive),
            unread: roles.named(game, Role::Dead),
        }
    }
}

/// A part of a position a statement may read or write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Item {
    Var(VarId),
    Zone(ZoneId),
    Local(Slot),
    /// The seat each card came from (`player(c)`).
    Origins,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Kept,
    Additive,
    Dead,
}

/// Each item's role; an item not listed is dead.
struct Roles(HashMap<Item, Role>);

impl Roles {
    fn of(&self, item: Item) -> Role {
        self.0.get(&item).copied().unwrap_or(Role::Dead)
    }

    /// The zones and variables in `role`, by name: zones first, each in the order declared.
    fn named(&self, game: &Game, role: Role) -> Vec<String> {
        let zones = game.zones.iter().enumerate().map(|(z, info)| (Item::Zone(z as ZoneId), &info.name));
        let vars = game.vars.iter().enumerate().map(|(v, info)| (Item::Var(v as VarId), &info.name));
        zones.chain(vars).filter(|(item, _)| self.of(*item) == role).map(|(_, name)| name.clone()).collect()
    }

    fn keep(&mut self, item: Item) {
        self.0.insert(item, Role::Kept);
    }

    /// The roles of everything, from the statements ahead and the quantity's reads.
    fn solve(game: &Game, ahead: &[&Stmt], quantity: Split) -> Roles {
        let mut roles = Roles(HashMap::new());
        let whole = |item: &&Item| !matches!(item, Item::Var(v) if game.vars[*v as usize].ty != Type::Int);
        for item in quantity.additive.difference(&quantity.plain).filter(whole) {
            roles.0.insert(*item, Role::Additive);
        }
        for item in quantity.additive.iter().filter(|i| !whole(i)) {
            roles.keep(*item);
        }
        for item in quantity.plain {
            roles.keep(item);
        }
        loop {
            let before = roles.0.clone();
            let mut pass = Pass { game, roles: &mut roles };
            for stmt in ahead {
                pass.stmt(stmt);
            }
            if roles.0 == before {
                return roles;
            }
        }
    }
}

/// One pass over the statements ahead: marks what they read where it matters.
struct Pass<'a> {
    game: &'a Game,
    roles: &'a mut Roles,
}

impl Pass<'_> {
    /// Makes everything `e` reads matter.
    fn matters(&mut self, e: &Expr) {
        for item in reads(self.game, e) {
            self.roles.keep(item);
        }
    }

    fn binding(&mut self, b: &Binding) {
        binding_exprs(b).into_iter().for_each(|e| self.matters(e));
    }

    /// A write that is not an addition: what is written is no longer additive.
    fn set(&mut self, item: Item) {
        if self.roles.of(item) == Role::Additive {
            self.roles.keep(item);
        }
    }

    fn dead(&self, item: Item) -> bool {
        self.roles.of(item) == Role::Dead
    }

    fn block(&mut self, block: BlockId) -> bool {
        let game = self.game;
        game.blocks[block as usize].stmts.iter().fold(true, |inert, s| self.stmt(s) & inert)
    }

    /// Goes through a statement and what is inside it; whether it is inert.
    fn stmt(&mut self, stmt: &Stmt) -> bool {
        use StmtKind::*;
        match &stmt.kind {
            // What players are told changes nothing a search reads.
            Say(_) | Reveal(_) => true,
            Assign(target, op, e) => {
                let (item, index) = target_item(target);
                if !(matches!(op, AssignOp::Add | AssignOp::Sub) && matches!(item, Item::Var(_))) {
                    self.set(item);
                }
                let inert = self.dead(item);
                if !inert {
                    self.matters(e);
                    index.into_iter().for_each(|ix| self.matters(ix));
                }
                inert
            }
            Random(target, binding) => {
                let (item, index) = target_item(target);
                self.set(item);
                index.into_iter().for_each(|ix| self.matters(ix));
                self.binding(binding);
                false
            }
            Move { random, cards, to } => {
                if let ExprKind::Zone(z, _) | ExprKind::ZoneAll(z) = &cards.kind {
                    self.set(Item::Zone(*z));
                }
                self.set(Item::Origins);
                // A card named by a value leaves a pile the statement does not name: never inert.
                let to_zone = zone_of(to);
                let inert = random.is_none()
                    && zone_of(cards).is_some_and(|z| self.dead(Item::Zone(z)))
                    && to_zone.is_some_and(|z| self.dead(Item::Zone(z)))
                    && self.dead(Item::Origins);
                if !inert {
                    self.matters(cards);
                    random.iter().for_each(|r| self.matters(r));
                    match to_zone {
                        Some(_) => to.children().into_iter().for_each(|ix| self.matters(ix)),
                        None => self.matters(to),
                    }
                }
                inert
            }
            Shuffle(e) => {
                self.matters(e);
                zone_of(e).into_iter().for_each(|z| self.set(Item::Zone(z)));
                false
            }
            Deal { count, from, to: _, starting } => {
                for e in [count.as_ref(), Some(from), starting.as_ref()].into_iter().flatten() {
                    self.matters(e);
                }
                zone_of(from).into_iter().for_each(|z| self.set(Item::Zone(z)));
                self.set(Item::Origins);
                false
            }
            Redo(_) | End(_) | MakeCard(_) => false,
            Phase(phase, body) => {
                let resets = self.game.vars.iter().enumerate().filter(|(_, v)| v.reset == Some(*phase));
                for (v, _) in resets {
                    self.set(Item::Var(v as VarId));
                }
                self.block(*body);
                false
            }
            Call(body) => self.block(*body),
            If(cond, then, otherwise) => {
                let inert = self.block(*then) & otherwise.is_none_or(|o| self.block(o));
                if !inert {
                    self.matters(cond);
                }
                inert
            }
            For(bindings, body) => {
                let inert = self.block(*body);
                if !inert {
                    bindings.iter().for_each(|b| self.binding(b));
                }
                inert
            }
            Repeat(cond, body) | RepeatUntil(cond, body) | While(cond, body) => {
                let inert = self.block(*body);
                if !inert {
                    self.matters(cond);
                }
                inert
            }
            Choose(choose) => {
                self.choose(choose);
                false
            }
            Simultaneously(binding, choose, body) => {
                self.binding(binding);
                self.choose(choose);
                self.block(*body);
                false
            }
        }
    }

    fn choose(&mut self, choose: &Choose) {
        choose_exprs(choose).into_iter().for_each(|e| self.matters(e));
        for then in choose.tiers.iter().filter_map(|t| t.then) {
            self.block(then);
        }
    }
}

/// The item an assignment writes, and the index it is written at.
fn target_item(target: &Target) -> (Item, Option<&Expr>) {
    match target {
        Target::Local(s) => (Item::Local(*s), None),
        Target::Var(v) => (Item::Var(*v), None),
        Target::VarAt(v, ix) => (Item::Var(*v), Some(ix)),
    }
}

/// The zone a pile expression names.
fn zone_of(e: &Expr) -> Option<ZoneId> {
    match &e.kind {
        ExprKind::Zone(z, _) | ExprKind::ZoneAll(z) => Some(*z),
        _ => None,
    }
}

/// Everything an expression reads, through the definitions it calls.
fn reads(game: &Game, e: &Expr) -> HashSet<Item> {
    let mut out = HashSet::new();
    read_into(game, e, &mut out, &mut Vec::new());
    out
}

fn read_into(game: &Game, e: &Expr, out: &mut HashSet<Item>, calling: &mut Vec<FnId>) {
    match &e.kind {
        ExprKind::Var(v) | ExprKind::VarAt(v, _) => {
            out.insert(Item::Var(*v));
        }
        ExprKind::Zone(z, _) | ExprKind::ZoneAll(z) => {
            out.insert(Item::Zone(*z));
        }
        ExprKind::Local(s) | ExprKind::LocalAttr(s, _) => {
            out.insert(Item::Local(*s));
        }
        ExprKind::Builtin(Builtin::Holder, _) => out.extend((0..game.zones.len()).map(|z| Item::Zone(z as ZoneId))),
        ExprKind::Builtin(Builtin::Player, _) => {
            out.insert(Item::Origins);
        }
        ExprKind::Call(f, _) if !calling.contains(f) => {
            calling.push(*f);
            read_into(game, &game.functions[*f as usize].body, out, calling);
            calling.pop();
        }
        _ => {}
    }
    for child in e.children() {
        read_into(game, child, out, calling);
    }
}

/// What the quantity reads as a sum of parts only added to, and what it reads otherwise.
#[derive(Default)]
struct Split {
    additive: HashSet<Item>,
    plain: HashSet<Item>,
}

/// How the quantity solved for reads the position.
fn objective(game: &Game, task: &Task) -> Split {
    let (slot, key) = match task.quantity.and_then(|p| game.solves.iter().find(|s| s.phase == p)) {
        Some(spec) => (spec.slot, &spec.key),
        None => (game.result.slot, &game.result.key),
    };
    let mut split = Split::default();
    linear(game, key, &HashSet::from([slot]), &mut split, &mut Vec::new());
    split
}

/// Sorts the reads of `e`: parts it is a sum of, with factors that never change, are additive.
/// `fixed` holds the locals whose values never change while the quantity is worked out.
fn linear(game: &Game, e: &Expr, fixed: &HashSet<Slot>, out: &mut Split, calling: &mut Vec<FnId>) {
    let is_fixed = |x: &Expr| fixed_value(x, fixed);
    match &e.kind {
        ExprKind::Binary(BinOp::Add | BinOp::Sub, a, b) => {
            linear(game, a, fixed, out, calling);
            linear(game, b, fixed, out, calling);
        }
        ExprKind::Neg(a) => linear(game, a, fixed, out, calling),
        ExprKind::Binary(BinOp::Mul, a, b) if is_fixed(a) => linear(game, b, fixed, out, calling),
        ExprKind::Binary(BinOp::Mul, a, b) if is_fixed(b) => linear(game, a, fixed, out, calling),
        ExprKind::Var(v) => {
            out.additive.insert(Item::Var(*v));
        }
        ExprKind::VarAt(v, ix) if is_fixed(ix) => {
            out.additive.insert(Item::Var(*v));
        }
        ExprKind::Aggregate(a) if matches!(a.op, AggOp::Sum | AggOp::Count) && summed_zone(a, fixed).is_some() => {
            out.additive.extend(summed_zone(a, fixed).map(Item::Zone));
        }
        ExprKind::Call(f, args) if !calling.contains(f) => {
            let params = &game.functions[*f as usize].params;
            let inner: HashSet<Slot> = params.iter().zip(args).filter(|(_, a)| is_fixed(a)).map(|(p, _)| *p).collect();
            args.iter().filter(|a| !is_fixed(a)).for_each(|a| out.plain.extend(reads(game, a)));
            calling.push(*f);
            linear(game, &game.functions[*f as usize].body, &inner, out, calling);
            calling.pop();
        }
        _ => out.plain.extend(reads(game, e)),
    }
}

/// The zone a `sum`/`count` goes through, where it adds up one fixed amount per card.
fn summed_zone(a: &Aggregate, fixed: &HashSet<Slot>) -> Option<ZoneId> {
    let ExprKind::Zone(z, ix) = &a.domain.kind else { return None };
    let mut per_card = fixed.clone();
    per_card.insert(a.slot);
    let index_fixed = ix.as_ref().is_none_or(|ix| fixed_value(ix, fixed));
    let body_fixed = [&a.filter, &a.body].into_iter().flatten().all(|x| fixed_value(x, &per_card));
    (index_fixed && body_fixed).then_some(*z)
}

/// Whether an expression reads nothing of the position, and no local outside `fixed`
/// (a card's attributes never change).
fn fixed_value(e: &Expr, fixed: &HashSet<Slot>) -> bool {
    match &e.kind {
        ExprKind::Var(_)
        | ExprKind::VarAt(..)
        | ExprKind::Zone(..)
        | ExprKind::ZoneAll(_)
        | ExprKind::Call(..)
        | ExprKind::Aggregate(_)
        | ExprKind::Builtin(Builtin::Holder | Builtin::Player | Builtin::Count | Builtin::First | Builtin::Last, _) => {
            false
        }
        ExprKind::Local(s) | ExprKind::LocalAttr(s, _) => fixed.contains(s),
        _ => e.children().into_iter().all(|c| fixed_value(c, fixed)),
    }
}

/// The statements that may still run before the phase whose frame is `frames[0]` ends: the
/// rest of each block in progress (from the statement under way), whole loops in progress,
/// and a whole phase in progress that a statement ahead may start again (`redo`).
fn ahead<'g>(game: &'g Game, frames: &[Frame]) -> Vec<&'g Stmt> {
    let stmt_at = |block: BlockId, index: u32| game.blocks[block as usize].stmts.get(index as usize);
    let mut out: Vec<&Stmt> = Vec::new();
    for frame in frames {
        match *frame {
            Frame::Block { block, pc } => {
                out.extend(game.blocks[block as usize].stmts.iter().skip(pc.saturating_sub(1) as usize));
            }
            Frame::Repeat { body, .. } => out.extend(&game.blocks[body as usize].stmts),
            Frame::While { at } | Frame::Until { at, .. } | Frame::For { at, .. } | Frame::Together { at, .. } => {
                out.extend(stmt_at(at.block, at.index));
            }
            Frame::Phase { .. } => {}
        }
    }
    loop {
        let redone = redone_phases(game, &out);
        let restarted: Vec<&Stmt> = frames
            .iter()
            .filter_map(|f| match f {
                Frame::Phase { at, .. } => stmt_at(at.block, at.index),
                _ => None,
            })
            .filter(|s| matches!(s.kind, StmtKind::Phase(p, _) if redone.contains(&p)))
            .filter(|s| !out.iter().any(|o| std::ptr::eq(*o, *s)))
            .collect();
        if restarted.is_empty() {
            return out;
        }
        out.extend(restarted);
    }
}

/// The phases a `redo` among these statements (or inside them) starts again.
fn redone_phases(game: &Game, stmts: &[&Stmt]) -> HashSet<PhaseId> {
    let mut found = HashSet::new();
    let mut todo: Vec<&Stmt> = stmts.to_vec();
    while let Some(stmt) = todo.pop() {
        if let StmtKind::Redo(p) = stmt.kind {
            found.insert(p);
        }
        for block in stmt.kind.blocks() {
            todo.extend(&game.blocks[block as usize].stmts);
        }
    }
    found
}

/// Whether a local slot may hold a value that is read before it is written again: a local set
/// by a statement of a block in progress, before the point reached (a decision still pending
/// has not set its own yet), or the element of a `for` in progress. The elements of sums and
/// the like and the parameters of definitions are set afresh at each use.
fn live_locals<'s>(game: &Game, state: &'s State) -> impl Fn(Slot) -> bool + 's {
    let frames = &state.position().frames;
    let pending = match state.position().pending() {
        Pending::Choice { at, .. } => Some((at.block, at.index)),
        _ => None,
    };
    let mut live = vec![false; game.slots];
    let mut known = vec![false; game.slots];
    for (b, block) in game.blocks.iter().enumerate() {
        for (i, stmt) in block.stmts.iter().enumerate() {
            let set_here = frames.iter().any(|f| match *f {
                Frame::Block { block, pc } => {
                    block as usize == b && (i as u32) < pc && pending != Some((block, i as u32))
                }
                Frame::For { at, .. } | Frame::Together { at, .. } => at.block as usize == b && at.index as usize == i,
                _ => false,
            });
            for slot in slots_set(&stmt.kind) {
                if let Some(s) = known.get_mut(slot as usize) {
                    *s = true;
                }
                if let Some(l) = live.get_mut(slot as usize) {
                    *l |= set_here;
                }
            }
        }
    }
    let binders = binder_slots(game);
    move |slot: Slot| {
        let s = slot as usize;
        !binders.contains(&slot) && (live.get(s).copied().unwrap_or(true) || !known.get(s).copied().unwrap_or(false))
    }
}

/// The locals a statement itself sets (not those of the statements inside it).
fn slots_set(kind: &StmtKind) -> Vec<Slot> {
    let chosen =
        |c: &Choose| [Some(c.slot), c.menu, c.declare.as_ref().map(|d| d.0)].into_iter().flatten().collect::<Vec<_>>();
    match kind {
        StmtKind::Assign(Target::Local(s), ..) | StmtKind::Random(Target::Local(s), _) => vec![*s],
        StmtKind::For(bindings, _) => bindings.iter().map(|b| b.slot).collect(),
        StmtKind::Choose(c) => chosen(c),
        StmtKind::Simultaneously(b, c, _) => std::iter::once(b.slot).chain(chosen(c)).collect(),
        _ => Vec::new(),
    }
}

/// Locals set afresh at each use, never across statements: the elements of aggregates, the
/// parameters of definitions, the element a `random` draws among.
fn binder_slots(game: &Game) -> HashSet<Slot> {
    let mut slots: HashSet<Slot> = game.functions.iter().flat_map(|f| f.params.iter().copied()).collect();
    let mut exprs: Vec<&Expr> = game.functions.iter().map(|f| &f.body).collect();
    for stmt in game.blocks.iter().flat_map(|b| &b.stmts) {
        exprs.extend(stmt_exprs(&stmt.kind));
        if let StmtKind::Random(_, b) = &stmt.kind {
            slots.insert(b.slot);
        }
    }
    while let Some(e) = exprs.pop() {
        if let ExprKind::Aggregate(a) = &e.kind {
            slots.insert(a.slot);
        }
        exprs.extend(e.children());
    }
    slots
}

/// The expressions written in a statement itself.
fn stmt_exprs(kind: &StmtKind) -> Vec<&Expr> {
    let (binding, choose) = (binding_exprs, choose_exprs);
    match kind {
        StmtKind::Assign(target, _, e) => std::iter::once(e).chain(target_item(target).1).collect(),
        StmtKind::Random(target, b) => binding(b).into_iter().chain(target_item(target).1).collect(),
        StmtKind::If(c, ..) | StmtKind::Repeat(c, _) | StmtKind::RepeatUntil(c, _) | StmtKind::While(c, _) => vec![c],
        StmtKind::For(bs, _) => bs.iter().flat_map(binding).collect(),
        StmtKind::Choose(c) => choose(c),
        StmtKind::Simultaneously(b, c, _) => binding(b).into_iter().chain(choose(c)).collect(),
        StmtKind::Move { random, cards, to } => random.iter().chain([cards, to]).collect(),
        StmtKind::Shuffle(e) | StmtKind::Say(e) | StmtKind::Reveal(e) => vec![e],
        StmtKind::Deal { count, from, starting, .. } => count.iter().chain([from]).chain(starting).collect(),
        StmtKind::MakeCard(attrs) => attrs.iter().map(|(_, e)| e).collect(),
        StmtKind::Phase(..) | StmtKind::Call(_) | StmtKind::Redo(_) | StmtKind::End(_) => Vec::new(),
    }
}

/// The expressions of a binding.
fn binding_exprs(b: &Binding) -> Vec<&Expr> {
    [Some(&b.domain), b.start.as_ref(), b.filter.as_ref()].into_iter().flatten().collect()
}

/// The expressions of a decision (its label is only shown).
fn choose_exprs(c: &Choose) -> Vec<&Expr> {
    let tiers = c.tiers.iter().filter_map(|t| t.cond.as_ref());
    c.domains.iter().chain([&c.by]).chain(tiers).chain(c.declare.as_ref().map(|d| &d.2)).collect()
}
