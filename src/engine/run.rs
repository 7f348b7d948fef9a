//! The interpreter: runs the flow from frame to frame until a decision is needed, the match
//! ends, or the rule file reaches something it cannot do (a run-time problem pointing at it).

use super::*;
use crate::diagnostic::Code;
use crate::eval::{Board, Eval, Halt, Out, STEP_BUDGET, Tables, missing};
use crate::syntax::ast::{AssignOp, Extreme};
use rand::RngExt;
use rand::seq::SliceRandom;

/// What expressions read of a position during play.
pub(super) struct Reader<'a> {
    pub layout: &'a Layout,
    pub pos: &'a mut Position,
}

impl Board for Reader<'_> {
    fn local(&self, slot: Slot) -> Value {
        self.pos.locals.get(slot as usize).copied().unwrap_or(Value::None)
    }

    fn set_local(&mut self, slot: Slot, v: Value) {
        if let Some(x) = self.pos.locals.get_mut(slot as usize) {
            *x = v;
        }
    }

    fn var(&self, var: VarId, index: usize) -> Option<Value> {
        Some(self.pos.var(self.layout, var, index))
    }

    fn pile(&self, zone: ZoneId, index: usize) -> Option<&[CardId]> {
        Some(self.pos.pile(self.layout, zone, index))
    }

    fn piles(&self, zone: ZoneId) -> Option<usize> {
        Some(self.layout.piles(zone))
    }

    fn holder(&self, card: CardId) -> Option<Value> {
        self.pos.holder(self.layout, card)
    }

    fn player(&self, card: CardId) -> Option<Value> {
        self.pos.player(card)
    }
}

impl Position {
    /// A copy to evaluate on without touching the match: everything but the log (which grows
    /// with the match) and the pending decision.
    pub(super) fn scratch(&self) -> Position {
        Position {
            piles: self.piles.clone(),
            place: self.place.clone(),
            came_from: self.came_from.clone(),
            vars: self.vars.clone(),
            locals: self.locals.clone(),
            frames: self.frames.clone(),
            pending: Pending::Running,
            rng: self.rng.clone(),
            phase_counts: self.phase_counts.clone(),
            decisions: self.decisions,
            log: Vec::new(),
            known: Vec::new(),
            excluded: Vec::new(),
            inferences: Vec::new(),
            logging: false,
            knowing: false,
        }
    }

    /// A variable's value (its `index`-th for a per-seat or per-side one).
    pub(super) fn var(&self, layout: &Layout, var: VarId, index: usize) -> Value {
        self.vars.get(layout.var_base[var as usize] + index).copied().unwrap_or(Value::None)
    }

    /// The cards of a pile, bottom first (none for an owner the zone does not have).
    pub(super) fn pile(&self, layout: &Layout, zone: ZoneId, index: usize) -> &[CardId] {
        if index >= layout.piles(zone) {
            return &[];
        }
        &self.piles[layout.pile(zone, index)]
    }

    /// The seat whose per-seat pile holds `card` (`Value::None` for none).
    pub(super) fn holder(&self, layout: &Layout, card: CardId) -> Option<Value> {
        let pile = *self.place.get(card as usize)? as usize;
        Some(layout.seat_of_pile(pile).map_or(Value::None, Value::Seat))
    }

    /// The seat from whose per-seat pile `card` last came.
    pub(super) fn player(&self, card: CardId) -> Option<Value> {
        let s = *self.came_from.get(card as usize)?;
        Some(if s == NO_SEAT { Value::None } else { Value::Seat(s) })
    }
}

impl State {
    /// A copy of the match to work things out on (everything but the log and the pending
    /// decision): the match itself is not touched.
    pub(super) fn scratch_state(&self) -> State {
        State { game: self.game.clone(), layout: self.layout.clone(), pos: self.pos.scratch(), spent: 0, work: 0 }
    }

    /// Variables take their initial values, then the flow runs to the first decision.
    pub(super) fn start(&mut self) {
        let vars: Vec<VarId> = (0..self.game.vars.len() as VarId).collect();
        if let Err(halt) = self.reset_vars(&vars) {
            self.fail(&halt, "while setting the variables up");
            return;
        }
        self.advance();
    }

    fn fail(&mut self, halt: &Halt, when: &str) {
        self.pos.pending = Pending::Failed(halt.problem(when));
    }

    /// Evaluates with the game's tables and this position.
    pub(super) fn eval<T>(&mut self, f: impl FnOnce(&mut Eval<'_, Reader<'_>>) -> Out<T>) -> Out<T> {
        let mut reader = Reader { layout: &self.layout, pos: &mut self.pos };
        let mut eval = Eval::new(Tables::of(&self.game), &mut reader).spent(self.spent);
        let out = f(&mut eval);
        self.spent = eval.steps();
        out
    }

    fn reset_vars(&mut self, vars: &[VarId]) -> Out<()> {
        let game = self.game.clone();
        for &v in vars {
            let info = &game.vars[v as usize];
            let n = per_owner(info.owner, game.seats.len(), game.sides.len());
            let value = self.eval(|e| e.value(&info.init))?;
            let base = self.layout.var_base[v as usize];
            self.pos.vars[base..base + n].fill(value);
        }
        Ok(())
    }

    /// Runs the flow until a decision, the end of the match, or a run-time problem.
    pub(super) fn advance(&mut self) {
        self.work += self.spent as u64;
        self.spent = 0;
        while self.pos.pending == Pending::Running {
            self.spent += 1;
            if self.spent > STEP_BUDGET {
                let span = self.current_span();
                let halt = Halt::new(
                    Code::EndlessFlow,
                    span,
                    "the flow runs on without a decision",
                    "still running here",
                    "a loop here never ends: make sure its condition can change",
                );
                return self.fail(&halt, "(a million steps)");
            }
            if let Err(halt) = self.step() {
                return self.fail(&halt, "during play");
            }
        }
    }

    fn current_span(&self) -> crate::syntax::ast::Span {
        self.pos
            .frames
            .iter()
            .rev()
            .find_map(|f| match f {
                Frame::Block { block, pc } => {
                    self.game.blocks[*block as usize].stmts.get(pc.saturating_sub(1) as usize).map(|s| s.span)
                }
                _ => None,
            })
            .unwrap_or_default()
    }

    /// One step: a statement of the innermost block, or one decision of a control frame.
    fn step(&mut self) -> Out<()> {
        let Some(top) = self.pos.frames.last_mut() else {
            return self.finish();
        };
        match top {
            Frame::Block { block, pc } => {
                let at = Loc { block: *block, index: *pc };
                if (*pc as usize) < self.game.blocks[*block as usize].stmts.len() {
                    *pc += 1;
                    self.exec(at)
                } else {
                    self.pos.frames.pop();
                    Ok(())
                }
            }
            _ => self.control(),
        }
    }

    fn push_block(&mut self, block: BlockId) {
        self.pos.frames.push(Frame::Block { block, pc: 0 });
    }

    fn exec(&mut self, at: Loc) -> Out<()> {
        let game = self.game.clone();
        let stmt = &game.blocks[at.block as usize].stmts[at.index as usize];
        match &stmt.kind {
            StmtKind::Assign(target, op, e) => {
                let v = self.eval(|ev| ev.value(e))?;
                self.assign(target, *op, v, e.span)?;
            }
            StmtKind::Random(target, binding) => {
                let items = self.binding_items(binding)?;
                if items.is_empty() {
                    return Err(Halt::new(
                        Code::NoAction,
                        binding.domain.span,
                        "nothing to draw",
                        "no element here",
                        "make sure something is left to draw by lot",
                    ));
                }
                let i = self.pos.rng.random_range(0..items.len());
                self.assign(target, AssignOp::Set, items[i], binding.domain.span)?;
                self.log(|s| Event::Drew { what: s.drawn_name(target, binding, items[i]), among: items.len() });
            }
            StmtKind::If(c, t, o) => {
                if self.eval(|ev| ev.truth(c))? {
                    self.push_block(*t);
                } else if let Some(o) = o {
                    self.push_block(*o);
                }
            }
            StmtKind::For(bindings, _) => {
                let items = self.binding_items(&bindings[0])?;
                self.pos.frames.push(Frame::For { at, level: 0, items, next: 0 });
            }
            StmtKind::Repeat(n, body) => {
                let left = self.eval(|ev| ev.int(n))?;
                self.pos.frames.push(Frame::Repeat { body: *body, left });
            }
            StmtKind::RepeatUntil(..) => self.pos.frames.push(Frame::Until { at, started: false }),
            StmtKind::While(..) => self.pos.frames.push(Frame::While { at }),
            StmtKind::Phase(phase, _) => {
                self.enter_phase(*phase)?;
                self.pos.frames.push(Frame::Phase { at, entered: false });
            }
            StmtKind::Choose(choose) => {
                let (seat, options) = self.open_decision(choose)?;
                self.pos.pending = Pending::Choice { at, seat, options };
                return Ok(());
            }
            StmtKind::Simultaneously(binding, choose, _) => return self.ask_together(at, binding, choose),
            StmtKind::Move { random, cards, to } => self.move_cards(random.as_ref(), cards, to)?,
            StmtKind::Shuffle(zone) => {
                let pile = self.pile_of(zone)?;
                let rng = &mut self.pos.rng;
                self.pos.piles[pile].shuffle(rng);
                self.learn_shuffle(pile);
                self.log(|_| Event::Shuffled { pile });
            }
            StmtKind::Deal { count, from, to, starting } => self.deal(count.as_ref(), from, *to, starting.as_ref())?,
            StmtKind::Say(text) => {
                // Worked out even without a log, so that a quiet match stops where a traced one does.
                if self.pos.logging {
                    let line = self.eval(|ev| ev.text(text))?;
                    self.pos.log.push(Event::Say(line));
                } else {
                    self.eval(|ev| ev.template_values(text))?;
                }
            }
            StmtKind::Redo(phase) => self.unwind_to(*phase, true)?,
            StmtKind::End(phase) => self.unwind_to(*phase, false)?,
            StmtKind::MakeCard(_) => {}
        }
        Ok(())
    }

    /// How a value drawn by lot is named: by the type of the variable it goes to, or of the
    /// enumeration it was drawn from (an enumeration value alone does not say which one it is).
    fn drawn_name(&self, target: &Target, binding: &Binding, value: Value) -> String {
        let names = self.game.names();
        let ty = match target {
            Target::Var(v) | Target::VarAt(v, _) => Some(self.game.vars[*v as usize].ty.clone()),
            Target::Local(_) => None,
        };
        let ty = ty.or(match binding.domain.kind {
            ExprKind::EnumValues(e) => Some(Type::Enum(e)),
            _ => None,
        });
        ty.map_or_else(|| names.show_loose(value), |ty| names.show(value, &ty))
    }

    fn log(&mut self, event: impl FnOnce(&Self) -> Event) {
        if self.pos.logging {
            let e = event(self);
            self.pos.log.push(e);
        }
    }

    fn assign(&mut self, target: &Target, op: AssignOp, v: Value, span: crate::syntax::ast::Span) -> Out<()> {
        let slot: &mut Value = match target {
            Target::Local(s) => &mut self.pos.locals[*s as usize],
            Target::Var(var) => &mut self.pos.vars[self.layout.var_base[*var as usize]],
            Target::VarAt(var, ix) => {
                let i = self.eval(|ev| ev.index(ix))?;
                let info = &self.game.vars[*var as usize];
                if i >= per_owner(info.owner, self.game.seats.len(), self.game.sides.len()) {
                    return Err(missing(ix.span));
                }
                &mut self.pos.vars[self.layout.var_base[*var as usize] + i]
            }
        };
        *slot = match (op, *slot, v) {
            (AssignOp::Set, _, v) => v,
            (AssignOp::Add, Value::Int(a), Value::Int(b)) => {
                Value::Int(a.checked_add(b).ok_or_else(|| crate::eval::overflow(span))?)
            }
            (AssignOp::Sub, Value::Int(a), Value::Int(b)) => {
                Value::Int(a.checked_sub(b).ok_or_else(|| crate::eval::overflow(span))?)
            }
            (AssignOp::Add, Value::Set(bits), x) => Value::Set(bits | bit(x)),
            (AssignOp::Sub, Value::Set(bits), x) => Value::Set(bits & !bit(x)),
            _ => return Err(missing(span)),
        };
        Ok(())
    }

    /// The elements of a binding's domain, starting at its `from` seat, that pass its filter.
    /// The filter is read once, when the loop (or the draw) starts.
    pub(super) fn binding_items(&mut self, binding: &Binding) -> Out<Vec<Value>> {
        let mut items = self.eval(|ev| ev.items(&binding.domain))?;
        if let Some(start) = &binding.start {
            let first = self.eval(|ev| ev.value(start))?;
            if let Some(i) = items.iter().position(|x| *x == first) {
                items.rotate_left(i);
            }
        }
        if let Some(filter) = &binding.filter {
            let slot = binding.slot;
            let mut kept = Vec::new();
            for item in items {
                let keep = self.eval(|ev| {
                    ev.pos.set_local(slot, item);
                    ev.truth(filter)
                })?;
                if keep {
                    kept.push(item);
                }
            }
            items = kept;
        }
        Ok(items)
    }

    /// A control frame is on top: its body just ended, or it was just entered.
    fn control(&mut self) -> Out<()> {
        let game = self.game.clone();
        let Some(frame) = self.pos.frames.last_mut() else { return Ok(()) };
        match frame {
            Frame::Block { .. } => {}
            Frame::Repeat { body, left } => {
                if *left > 0 {
                    *left -= 1;
                    let body = *body;
                    self.push_block(body);
                } else {
                    self.pos.frames.pop();
                }
            }
            Frame::While { at } => {
                let at = *at;
                let StmtKind::While(cond, body) = &game.blocks[at.block as usize].stmts[at.index as usize].kind else {
                    return unreachable_frame();
                };
                if self.eval(|ev| ev.truth(cond))? {
                    self.push_block(*body);
                } else {
                    self.pos.frames.pop();
                }
            }
            Frame::Until { at, started } => {
                let at = *at;
                let StmtKind::RepeatUntil(cond, body) = &game.blocks[at.block as usize].stmts[at.index as usize].kind
                else {
                    return unreachable_frame();
                };
                if !*started {
                    *started = true;
                    self.push_block(*body);
                } else if self.eval(|ev| ev.truth(cond))? {
                    self.pos.frames.pop();
                } else {
                    self.push_block(*body);
                }
            }
            Frame::For { .. } => self.for_next()?,
            Frame::Phase { at, entered } => {
                let at = *at;
                let StmtKind::Phase(_, body) = &game.blocks[at.block as usize].stmts[at.index as usize].kind else {
                    return unreachable_frame();
                };
                if !*entered {
                    *entered = true;
                    self.push_block(*body);
                } else {
                    self.pos.frames.pop();
                }
            }
            Frame::Together { .. } => self.together_next()?,
        }
        Ok(())
    }

    /// The next element of a `for`: binds it and runs the body, or the next binding inside it.
    fn for_next(&mut self) -> Out<()> {
        let game = self.game.clone();
        let Some(Frame::For { at, level, items, next }) = self.pos.frames.last_mut() else { return Ok(()) };
        let (at, level) = (*at, *level as usize);
        let StmtKind::For(bindings, body) = &game.blocks[at.block as usize].stmts[at.index as usize].kind else {
            return unreachable_frame();
        };
        let Some(item) = items.get(*next as usize).copied() else {
            self.pos.frames.pop();
            return Ok(());
        };
        *next += 1;
        self.pos.locals[bindings[level].slot as usize] = item;
        if level + 1 < bindings.len() {
            let inner = self.binding_items(&bindings[level + 1])?;
            self.pos.frames.push(Frame::For { at, level: level as u32 + 1, items: inner, next: 0 });
        } else {
            self.push_block(*body);
        }
        Ok(())
    }

    fn enter_phase(&mut self, phase: PhaseId) -> Out<()> {
        let game = self.game.clone();
        let vars: Vec<VarId> =
            (0..game.vars.len() as VarId).filter(|v| game.vars[*v as usize].reset == Some(phase)).collect();
        self.reset_vars(&vars)?;
        self.pos.phase_counts[phase as usize] = self.pos.phase_counts[phase as usize].saturating_add(1);
        let count = self.pos.phase_counts[phase as usize];
        self.log(|s| Event::Phase { name: s.game.phases[phase as usize].name.clone(), count });
        Ok(())
    }

    /// `redo` / `end`: leaves every frame inside the phase; `redo` then starts it again.
    fn unwind_to(&mut self, phase: PhaseId, again: bool) -> Out<()> {
        let game = self.game.clone();
        while let Some(frame) = self.pos.frames.last() {
            if let Frame::Phase { at, .. } = frame
                && matches!(game.blocks[at.block as usize].stmts[at.index as usize].kind, StmtKind::Phase(p, _) if p == phase)
            {
                break;
            }
            self.pos.frames.pop();
        }
        if again {
            self.enter_phase(phase)?;
            if let Some(Frame::Phase { entered, .. }) = self.pos.frames.last_mut() {
                *entered = false;
            }
        } else {
            self.pos.frames.pop();
        }
        Ok(())
    }

    /// The single pile a zone expression names.
    fn pile_of(&mut self, zone: &Expr) -> Out<usize> {
        let ExprKind::Zone(z, ix) = &zone.kind else { return Err(missing(zone.span)) };
        let i = match ix {
            Some(ix) => self.eval(|ev| ev.index(ix))?,
            None => 0,
        };
        if i >= self.layout.piles(*z) {
            return Err(missing(zone.span));
        }
        Ok(self.layout.pile(*z, i))
    }

    fn move_cards(&mut self, random: Option<&Expr>, cards: &Expr, to: &Expr) -> Out<()> {
        let mut items = self.eval(|ev| ev.items(cards))?;
        if let Some(n) = random {
            let n = self.eval(|ev| ev.int(n))?;
            if n < 0 || n as usize > items.len() {
                return Err(Halt::new(
                    Code::OutOfRange,
                    cards.span,
                    "not enough cards to draw from",
                    "fewer cards than asked for",
                    "draw at most as many cards as there are",
                ));
            }
            let rng = &mut self.pos.rng;
            items = items.partial_shuffle(rng, n as usize).0.to_vec();
        }
        let dest = self.pile_of(to)?;
        // Only a move to a pile someone cannot see can make a player forget cards.
        let before = (self.pos.knowing && !self.layout.open[dest]).then(|| self.pos.known.clone());
        let mut moved = Vec::with_capacity(items.len());
        let mut sources = Vec::new();
        for item in items {
            let Value::Card(c) = item else { return Err(missing(cards.span)) };
            if before.is_some() {
                sources.push((c, self.pos.place[c as usize] as usize));
            }
            self.put(c, dest);
            moved.push(c);
        }
        if let Some(before) = before {
            self.learn_emptied(&sources, &before);
        }
        self.log(|_| Event::Moved { cards: moved, to: dest });
        Ok(())
    }

    /// Moves one card onto a pile, remembering which seat it came from.
    pub(super) fn put(&mut self, card: CardId, dest: usize) {
        let from = self.pos.place[card as usize] as usize;
        if let Some(i) = self.pos.piles[from].iter().position(|c| *c == card) {
            self.pos.piles[from].remove(i);
        }
        if let Some(seat) = self.layout.seat_of_pile(from) {
            self.pos.came_from[card as usize] = seat;
        }
        self.pos.piles[dest].push(card);
        self.pos.place[card as usize] = dest as u16;
        self.learn_move(card, from, dest);
    }

    fn deal(&mut self, count: Option<&Expr>, from: &Expr, zone: ZoneId, starting: Option<&Expr>) -> Out<()> {
        let source = self.pile_of(from)?;
        if self.layout.pile_zone[source].0 == zone {
            return Err(Halt::new(
                Code::Misplaced,
                from.span,
                "dealing from one of the piles dealt to",
                "a pile of the same zone",
                "deal from another zone, such as the stock",
            ));
        }
        let each = match count {
            Some(n) => Some(self.eval(|ev| ev.int(n))?),
            None => None,
        };
        let seats = self.game.seats.len();
        let first = match starting {
            Some(s) => self.eval(|ev| ev.seat(s))? as usize,
            None => 0,
        };
        let total = match each {
            Some(n) if n < 0 || (n as usize).saturating_mul(seats) > self.pos.piles[source].len() => {
                return Err(Halt::new(
                    Code::OutOfRange,
                    from.span,
                    "not enough cards to deal",
                    "runs out",
                    "deal fewer cards each, or deal `all`",
                ));
            }
            Some(n) => n as usize * seats,
            None => self.pos.piles[source].len(),
        };
        let mut hands = vec![Vec::new(); if self.pos.logging { seats } else { 0 }];
        for k in 0..total {
            let seat = (first + k) % seats;
            let Some(&card) = self.pos.piles[source].last() else { break };
            self.put(card, self.layout.pile(zone, seat));
            if let Some(hand) = hands.get_mut(seat) {
                hand.push(card);
            }
        }
        self.log(|_| Event::Dealt { from: source, zone, cards: total, hands });
        Ok(())
    }

    /// Each seat or side of the result's domain with its key (`chips[s]`), as the flow stands.
    pub(super) fn result_keys(&mut self) -> Out<Vec<(Value, i64)>> {
        let game = self.game.clone();
        let spec = &game.result;
        let items = self.eval(|ev| ev.items(&spec.domain))?;
        let mut keyed = Vec::new();
        for item in items {
            let key = self.eval(|ev| {
                ev.pos.set_local(spec.slot, item);
                match ev.value(&spec.key)? {
                    Value::Int(n) => Ok(n),
                    Value::Enum(v) => Ok(v as i64),
                    _ => Err(crate::eval::missing(spec.key.span)),
                }
            })?;
            keyed.push((item, key));
        }
        Ok(keyed)
    }

    /// The end of the flow: rank the seats or sides by the result's key.
    fn finish(&mut self) -> Out<()> {
        let game = self.game.clone();
        let keyed = self.result_keys()?;
        let best = match game.result.extreme {
            Extreme::Highest => keyed.iter().map(|k| k.1).max(),
            Extreme::Lowest => keyed.iter().map(|k| k.1).min(),
        };
        let everyone_equal = keyed.iter().all(|k| Some(k.1) == best);
        let mut winners: Vec<usize> = Vec::new();
        if !everyone_equal {
            for (item, key) in &keyed {
                if Some(*key) == best {
                    winners.extend(self.players_of(*item));
                }
            }
        }
        winners.sort_unstable();
        winners.dedup();
        let returns = (0..game.players)
            .map(|p| {
                if everyone_equal {
                    0
                } else if winners.contains(&p) {
                    1
                } else {
                    -1
                }
            })
            .collect();
        let names = game.names();
        let standings = keyed.iter().map(|(item, key)| (names.show_loose(*item), *key)).collect();
        let outcome = Outcome { winners, returns, standings };
        self.log(|_| Event::Over);
        self.pos.pending = Pending::Over(outcome);
        Ok(())
    }

    pub(super) fn players_of(&self, item: Value) -> Vec<usize> {
        match item {
            Value::Seat(s) => vec![self.game.seats[s as usize].player],
            Value::Side(t) => {
                self.game.sides[t as usize].seats.iter().map(|s| self.game.seats[*s as usize].player).collect()
            }
            _ => Vec::new(),
        }
    }
}

fn bit(x: Value) -> u64 {
    match x {
        Value::Enum(i) if i < 64 => 1 << i,
        Value::Seat(s) if s < 64 => 1 << s,
        _ => 0,
    }
}

/// A frame whose statement is not of its kind: the compiled flow and the frames disagree.
fn unreachable_frame<T>() -> Out<T> {
    Err(Halt::new(
        Code::Misplaced,
        crate::syntax::ast::Span::default(),
        "the flow's position is damaged",
        "here",
        "the saved position does not belong to this rule file",
    ))
}
