//! The interpreter: runs the flow from frame to frame until a decision is needed, the match
//! ends, or the rule file reaches something it cannot do (a run-time problem pointing at it).
//!
//! [`Flow`] is a state taken apart: the game and its program read by reference, the position
//! and the observers written. Every change to the cards goes through [`Flow::put`] and
//! [`Flow::shuffle`], which tell the observers.

use super::deduction::Rule;
use super::mask::{CardSet, M};
use super::program::*;
use super::tally::{self, MATCH_TALLY_FROM, Site, StepTally, TALLY_FROM};
use super::vm::Vm;
use super::*;
use crate::diagnostic::Code;
use crate::eval::{Halt, Out, STEP_BUDGET, missing, set_op};
use crate::vocab::{AssignOp, BinOp, Extreme, Span};
use rand::RngExt;
use rand::seq::SliceRandom;

/// The most a match may do in all, in steps (statements run and evaluation work, as
/// [`STEP_BUDGET`] counts them per decision): the shipped games take at most about 20,000.
pub(super) const MATCH_BUDGET: u64 = 5_000_000;

/// The longest line of narration, in bytes.
pub(super) const MAX_LINE: usize = 10_000;

/// The most narration a match may have, in bytes.
pub(super) const MAX_NARRATION: u64 = 4 << 20;

/// A state taken apart for the interpreter.
pub(super) struct Flow<'s> {
    pub game: &'s Game,
    pub prog: &'s Program,
    pub pos: &'s mut Position,
    pub obs: &'s mut Observers,
    pub spent: &'s mut usize,
    pub work: &'s mut u64,
    /// Where the steps went, once half a budget is spent (see [`super::tally`]).
    pub tally: &'s mut Option<Box<StepTally>>,
    /// The statement the step in hand counts to, while steps are counted.
    pub site: Option<Site>,
    /// The faster engine of the flow, when the state has one and keeps no observers.
    pub kernel: Option<&'s dyn Kernel>,
}

impl State {
    pub(super) fn flow(&mut self) -> Flow<'_> {
        let unobserved = self.obs.log.is_none() && self.obs.knowledge.is_none();
        Flow {
            kernel: if unobserved { self.kernel.as_deref() } else { None },
            game: &self.game,
            prog: &self.prog,
            pos: &mut self.pos,
            obs: &mut self.obs,
            spent: &mut self.spent,
            work: &mut self.work,
            tally: &mut self.tally,
            site: None,
        }
    }

    /// Each seat or side of the result's domain with its key (`chips[s]`), as the flow stands,
    /// worked out on a copy of the local names.
    pub(super) fn result_keys(&self) -> Out<Vec<(Value, i64)>> {
        let mut keyed = Vec::new();
        self.each_result_key(|item, key| keyed.push((item, key)))?;
        Ok(keyed)
    }

    /// Tells `f` each seat or side of the result's domain with its key, as
    /// [`State::result_keys`] lists them, without a list (what is asked at every decision).
    pub(super) fn each_result_key(&self, f: impl FnMut(Value, i64)) -> Out<()> {
        self.each_key_of(0, &self.prog.result, f)
    }

    /// Tells `f` each element of the domain of `spec` with its key: the result's (`which`
    /// 0) or the `which`-th `solve` declaration's (from 1). The kernel works them out where
    /// it can (the same keys, by construction), the interpreter otherwise.
    pub(super) fn each_key_of(&self, which: usize, spec: &ResultX, mut f: impl FnMut(Value, i64)) -> Out<()> {
        if let Some(kernel) = &self.kernel {
            let mut keyed = [Keyed { item: Value::None, key: 0 }; 16];
            if let Some(n) = kernel.keys(self.pos.kernel_view(), which, &mut keyed) {
                keyed[..n].iter().for_each(|k| f(k.item, k.key));
                return Ok(());
            }
        }
        let mut locals: smallvec::SmallVec<[Value; 32]> = smallvec::SmallVec::from_slice(&self.pos.locals);
        let mut vm = Vm::new(&self.game, self.program(), self.pos.board(), &mut locals, 0);
        each_key(&mut vm, spec, f)
    }
}

/// The result's domain with each element's key.
fn keys(vm: &mut Vm<'_>) -> Out<Vec<(Value, i64)>> {
    keys_of(vm, &vm.prog.result)
}

/// A domain of seats or sides with each element's key (the result's, or a `solve`'s).
pub(super) fn keys_of(vm: &mut Vm<'_>, spec: &ResultX) -> Out<Vec<(Value, i64)>> {
    let mut keyed = Vec::new();
    each_key(vm, spec, |item, key| keyed.push((item, key)))?;
    Ok(keyed)
}

/// Tells `f` each element of a domain of seats or sides with its key, in order.
fn each_key(vm: &mut Vm<'_>, spec: &ResultX, mut f: impl FnMut(Value, i64)) -> Out<()> {
    let mut items: smallvec::SmallVec<[Value; 8]> = smallvec::SmallVec::new();
    vm.for_each(&spec.domain, &mut |_, item| {
        items.push(item);
        Ok(true)
    })?;
    for item in items {
        vm.set_local(spec.slot, item);
        f(item, number(vm, &spec.key)?);
    }
    Ok(())
}

/// A key's value as a number (an enumeration value by its place).
fn number(vm: &mut Vm<'_>, key: &X) -> Out<i64> {
    match vm.value(key)? {
        Value::Int(n) => Ok(n),
        Value::Enum(v) => Ok(v as i64),
        _ => Err(missing(vm.prog.span(key.at))),
    }
}

/// The result's domain with each element's key, then its tie-breaks: what ranks it.
fn ranking(vm: &mut Vm<'_>) -> Out<Vec<(Value, Vec<i64>)>> {
    let spec = &vm.prog.result;
    let mut ranked = Vec::new();
    for (item, key) in keys(vm)? {
        vm.set_local(spec.slot, item);
        let mut keys = vec![key];
        for tie in &spec.ties {
            keys.push(number(vm, tie)?);
        }
        ranked.push((item, keys));
    }
    Ok(ranked)
}

impl<'s> Flow<'s> {
    /// Evaluates with the program and the position, sharing the step budget.
    pub(super) fn eval<T>(&mut self, f: impl FnOnce(&mut Vm<'_>) -> Out<T>) -> Out<T> {
        let (board, locals, _, _) = self.pos.parts();
        let mut vm = Vm::new(self.game, self.prog, board, locals, *self.spent);
        vm.count_to(super::tally::counting(self.tally, self.site));
        let out = f(&mut vm);
        *self.spent = vm.steps;
        out
    }

    /// Pushes the elements of a domain onto the position's stack.
    pub(super) fn push_items(&mut self, d: &D) -> Out<()> {
        let (board, locals, stack, _) = self.pos.parts();
        let mut vm = Vm::new(self.game, self.prog, board, locals, *self.spent);
        vm.count_to(super::tally::counting(self.tally, self.site));
        let out = match vm.piles_of(d) {
            Ok(Some(piles)) => {
                stack.extend(board.run(piles).iter().map(|c| Value::Card(*c)));
                Ok(true)
            }
            Ok(None) => vm.for_each(d, &mut |_, item| {
                stack.push(item);
                Ok(true)
            }),
            Err(e) => Err(e),
        };
        *self.spent = vm.steps;
        out.map(|_| ())
    }

    /// Variables take their initial values, then the flow runs to the first decision.
    pub(super) fn start(&mut self) {
        let prog = self.prog;
        if let Err(halt) = self.reset_vars(0..prog.inits.len() as VarId) {
            self.fail(&halt, "while setting the variables up");
            return;
        }
        self.advance();
    }

    fn fail(&mut self, halt: &Halt, when: &str) {
        self.pos.pending = Pending::Failed(halt.problem(when));
    }

    fn reset_vars(&mut self, vars: impl IntoIterator<Item = VarId>) -> Out<()> {
        let (game, prog) = (self.game, self.prog);
        for v in vars {
            let n = per_owner(game.vars[v as usize].owner, game.seats.len(), game.sides.len());
            let value = self.eval(|vm| vm.value(&prog.inits[v as usize]))?;
            let base = prog.layout.var_base[v as usize];
            self.pos.vars[base..base + n].fill(value);
        }
        Ok(())
    }

    /// Runs the flow until a decision, the end of the match, or a run-time problem.
    pub(super) fn advance(&mut self) {
        self.advance_within(usize::MAX);
    }

    /// Like [`Flow::advance`], but stops (and says so) where the phase whose frame is at index
    /// `depth` of the frames ends, before anything after it runs (`usize::MAX`: nowhere).
    pub(super) fn advance_within(&mut self, depth: usize) -> bool {
        *self.work += *self.spent as u64;
        *self.spent = 0;
        if *self.work < MATCH_TALLY_FROM
            && let Some(tally) = self.tally.as_deref_mut()
        {
            tally.clear();
        }
        while matches!(self.pos.pending, Pending::Running) {
            if depth != usize::MAX && self.phase_ends(depth) {
                return true;
            }
            if let Some(kernel) = self.kernel
                && self.native(kernel, depth)
            {
                return false;
            }
            *self.spent += 1;
            // Past half a budget: each step is counted where it goes.
            let counted = *self.spent > TALLY_FROM || *self.work + *self.spent as u64 > MATCH_TALLY_FROM;
            if counted && let Err((halt, when)) = self.count_step() {
                self.fail(&halt, when);
                return false;
            }
            let stepped = self.step();
            if counted {
                self.site = None;
            }
            if let Err(halt) = stepped {
                self.fail(&halt, "during play");
                return false;
            }
        }
        false
    }

    /// Counts the next step to the statement it runs (see [`super::tally`]), and the budget
    /// run out, if it is.
    fn count_step(&mut self) -> Result<(), (Box<Halt>, &'static str)> {
        let site = self.site();
        let tally = self.tally.get_or_insert_with(Box::default);
        if let Some(site) = site {
            tally.add(site, 1);
        }
        if *self.work + *self.spent as u64 > MATCH_BUDGET {
            let halt = Halt::new(
                Code::EndlessFlow,
                self.current_span(),
                "the match runs too long",
                "still running here",
                &format!(
                    "a match may take {} million steps in all: check the loops and the decisions they repeat",
                    MATCH_BUDGET / 1_000_000
                ),
            );
            return Err((self.blame(halt, &tally::match_help()), "(the whole match)"));
        }
        if *self.spent > STEP_BUDGET {
            let halt = Halt::new(
                Code::EndlessFlow,
                self.current_span(),
                "the flow runs on without a decision",
                "still running here",
                "a loop here never ends: make sure its condition can change",
            );
            return Err((self.blame(halt, tally::DECISION_HELP), "(a million steps)"));
        }
        self.site = site;
        Ok(())
    }

    /// A budget run out, moved to where most of the steps counted went.
    fn blame(&self, halt: Box<Halt>, help: &str) -> Box<Halt> {
        match self.tally.as_deref() {
            Some(tally) => tally.blame(self.game, self.prog, halt, help),
            None => halt,
        }
    }

    /// The statement the next step runs: the innermost block's next statement, or, when the
    /// step ends a block or turns a loop, the statement that block or loop belongs to.
    fn site(&self) -> Option<Site> {
        let frames = &self.pos.frames;
        let (top, below) = frames.split_last()?;
        if let Frame::Block { block, pc } = *top
            && (pc as usize) < self.prog.blocks[block as usize].len()
        {
            return Some(Site::Stmt(Loc { block, index: pc }));
        }
        below.iter().rev().find_map(|f| match *f {
            Frame::Block { block, pc } => Some(Site::Stmt(Loc { block, index: pc.checked_sub(1)? })),
            _ => None,
        })
    }

    /// Runs the kernel's steps, stopping where the phase at `depth` ends as
    /// [`Flow::advance_within`] does; true once it has opened a decision. The step it stops
    /// before, if any, is the interpreter's.
    fn native(&mut self, kernel: &dyn Kernel, depth: usize) -> bool {
        let (pos, spent, work) = (&mut *self.pos, &mut *self.spent, *self.work);
        let mut lent = Lent { pos, prog: self.prog, spent, work, stop: depth };
        match kernel.run(&mut lent) {
            Ran::Yield => false,
            Ran::Choice { at, seat } => {
                self.pos.pending = Pending::Choice { at, seat };
                true
            }
            Ran::Together { at, seats } => {
                let seats =
                    seats.into_iter().map(|(seat, start, len)| Secret { seat, start, len, chosen: None }).collect();
                self.pos.pending = Pending::Together { at, seats };
                true
            }
        }
    }

    /// Whether the phase whose frame is at `depth` has ended, or ends with the next step.
    fn phase_ends(&self, depth: usize) -> bool {
        let frames = &self.pos.frames;
        frames.len() <= depth
            || (frames.len() == depth + 1 && matches!(frames[depth], Frame::Phase { entered: true, .. }))
    }

    fn current_span(&self) -> Span {
        let blocks = &self.game.blocks;
        let span = self.pos.frames.iter().rev().find_map(|f| match f {
            Frame::Block { block, pc } => {
                blocks[*block as usize].stmts.get(pc.saturating_sub(1) as usize).map(|s| s.span)
            }
            _ => None,
        });
        span.unwrap_or_default()
    }

    /// One step: a statement of the innermost block, or one decision of a control frame.
    fn step(&mut self) -> Out<()> {
        let Some(top) = self.pos.frames.last_mut() else {
            return self.finish();
        };
        match top {
            Frame::Block { block, pc } => {
                let at = Loc { block: *block, index: *pc };
                if (*pc as usize) < self.prog.blocks[*block as usize].len() {
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
        let prog = self.prog;
        match &prog.blocks[at.block as usize][at.index as usize] {
            Op::Assign(target, op, e) => {
                let v = self.eval(|vm| vm.value(e))?;
                self.assign(target, *op, v, e.at)?;
            }
            Op::Random(target, bind) => self.draw(target, bind, at)?,
            Op::Call(body) => self.push_block(*body),
            Op::If(c, t, o) => {
                if self.eval(|vm| vm.truth(c))? {
                    self.push_block(*t);
                } else if let Some(o) = o {
                    self.push_block(*o);
                }
            }
            Op::For(binds, _) => {
                let (base, len) = self.binding_items(&binds[0])?;
                self.pos.frames.push(Frame::For { at, level: 0, base, len, next: 0 });
            }
            Op::Repeat(n, body) => {
                let left = self.eval(|vm| vm.int(n))?;
                self.pos.frames.push(Frame::Repeat { body: *body, left });
            }
            Op::RepeatUntil(..) => self.pos.frames.push(Frame::Until { at, started: false }),
            Op::While(..) => self.pos.frames.push(Frame::While { at }),
            Op::Phase(phase, _) => {
                self.enter_phase(*phase)?;
                self.pos.frames.push(Frame::Phase { at, entered: false });
            }
            Op::Choose(ask) => {
                let seat = self.open_decision(ask)?;
                self.pos.pending = Pending::Choice { at, seat };
            }
            Op::Together(bind, ask, _) => self.ask_together(at, bind, ask)?,
            Op::Move { random, cards, to } => self.move_cards(random.as_ref(), cards, to)?,
            Op::Shuffle(zone) => {
                let pile = self.pile_of(zone)?;
                self.shuffle(pile);
            }
            Op::Deal { count, from, to, starting } => self.deal(count.as_ref(), from, *to, starting.as_ref())?,
            Op::Say(text) => self.say(text)?,
            Op::Reveal(cards) => self.reveal(cards)?,
            Op::Redo(phase) => self.unwind_to(*phase, true)?,
            Op::End(phase) => self.unwind_to(*phase, false)?,
            Op::Nothing => {}
        }
        Ok(())
    }

    /// Narration. Its values are worked out even without a log, so that a quiet match stops
    /// where a traced one does, and so are the limits on a line and on a match's narration.
    fn say(&mut self, text: &X) -> Out<()> {
        let line = if self.obs.log.is_some() { Some(self.eval(|vm| vm.text(text))?) } else { None };
        let len = match &line {
            Some(line) => line.len(),
            None => self.eval(|vm| vm.text_len(text))?,
        };
        if len > MAX_LINE {
            return Err(Halt::new(
                Code::OutOfRange,
                self.current_span(),
                &format!("a line of narration is too long ({len} bytes)"),
                "says too much at once",
                &format!("a line may hold at most {MAX_LINE} bytes: say less, or say it in several lines"),
            ));
        }
        self.pos.narrated += len as u64 + 1;
        if self.pos.narrated > MAX_NARRATION {
            return Err(Halt::new(
                Code::OutOfRange,
                self.current_span(),
                "the match narrates too much",
                "still narrating here",
                &format!("a match may narrate at most {} MiB: say less in the loops", MAX_NARRATION >> 20),
            ));
        }
        if let Some(line) = line {
            self.log(|_| Event::Say(line));
        }
        Ok(())
    }

    /// `reveal CARDS`: every player is shown the cards and the piles they lie in.
    fn reveal(&mut self, cards: &D) -> Out<()> {
        let base = self.pos.stack.len();
        self.push_items(cards)?;
        let items: Vec<Value> = self.pos.stack.drain(base..).collect();
        let mut shown = Vec::with_capacity(items.len());
        for item in items {
            match item {
                Value::Card(c) => shown.push((c, self.pos.place(c))),
                _ => return Err(missing(self.prog.span(cards.at))),
            }
        }
        let selection = match &cards.kind {
            DKind::Filter(inner, slot, cond) => match &inner.kind {
                DKind::Pile(p) => Some((self.pile_of(p)?, *slot, cond)),
                _ => None,
            },
            _ => None,
        };
        if let Some(k) = &mut self.obs.knowledge {
            k.revealed(self.pos, &shown);
            if let Some(selection) = selection {
                k.revealed_selection(self.game, self.prog, self.pos, selection, &shown);
            }
        }
        self.log(|_| Event::Revealed { cards: shown });
        Ok(())
    }

    /// `x = random s in D where C`: one element drawn by lot.
    fn draw(&mut self, target: &Tgt, bind: &Bind, at: Loc) -> Out<()> {
        let (base, len) = self.binding_items(bind)?;
        if len == 0 {
            return Err(Halt::new(
                Code::NoAction,
                self.prog.span(bind.domain.at),
                "nothing to draw",
                "no element here",
                "make sure something is left to draw by lot",
            ));
        }
        let i = self.pos.rng.random_range(0..len as usize);
        let value = self.pos.stack[base as usize + i];
        self.pos.stack.truncate(base as usize);
        self.assign(target, AssignOp::Set, value, bind.domain.at)?;
        let game = self.game;
        self.log(|_| Event::Drew { what: drawn_name(game, at, value), among: len as usize });
        Ok(())
    }

    pub(super) fn log(&mut self, event: impl FnOnce(&Self) -> Event) {
        if self.obs.log.is_some() {
            let e = event(self);
            if let Some(log) = &mut self.obs.log {
                log.push(e);
            }
        }
    }

    fn assign(&mut self, target: &Tgt, op: AssignOp, v: Value, at: At) -> Out<()> {
        let slot: &mut Value = match target {
            Tgt::Local(s) => &mut self.pos.locals[*s as usize],
            Tgt::Var(slot) => &mut self.pos.vars[*slot as usize],
            Tgt::VarAt(base, count, ix) => {
                let i = self.eval(|vm| vm.index(ix))?;
                if i >= *count as usize {
                    return Err(missing(self.prog.span(ix.at)));
                }
                &mut self.pos.vars[*base as usize + i]
            }
        };
        let span = || self.prog.span(at);
        *slot = match (op, *slot, v) {
            (AssignOp::Set, _, v) => v,
            (AssignOp::Add, Value::Int(a), Value::Int(b)) => {
                Value::Int(a.checked_add(b).ok_or_else(|| crate::eval::overflow(span()))?)
            }
            (AssignOp::Sub, Value::Int(a), Value::Int(b)) => {
                Value::Int(a.checked_sub(b).ok_or_else(|| crate::eval::overflow(span()))?)
            }
            (AssignOp::Add, set @ (Value::Set(_) | Value::Group(_)), x) => set_op(BinOp::Union, set, x, span())?,
            (AssignOp::Sub, set @ (Value::Set(_) | Value::Group(_)), x) => set_op(BinOp::Without, set, x, span())?,
            _ => return Err(missing(span())),
        };
        Ok(())
    }

    /// The elements of a binding's domain, starting at its `from` element, that pass its
    /// filter, pushed onto the stack: where they start there, and how many. The filter is read
    /// once, when the loop (or the draw) starts.
    pub(super) fn binding_items(&mut self, bind: &Bind) -> Out<(u32, u32)> {
        let base = self.pos.stack.len();
        self.push_items(&bind.domain)?;
        if let Some(start) = &bind.start {
            let first = self.eval(|vm| vm.value(start))?;
            if let Some(i) = self.pos.stack[base..].iter().position(|x| *x == first) {
                self.pos.stack[base..].rotate_left(i);
            }
        }
        let cards = bind.filter.as_ref().and_then(Pred::mask).zip(super::vm::card_set(&self.pos.stack[base..]));
        if let Some((m, cand)) = cards {
            let keep = self.eval(|vm| vm.mask(m, cand))?;
            let mut kept = base;
            for i in base..self.pos.stack.len() {
                if matches!(self.pos.stack[i], Value::Card(c) if keep.has(c)) {
                    self.pos.stack[kept] = self.pos.stack[i];
                    kept += 1;
                }
            }
            self.pos.stack.truncate(kept);
        } else if let Some(filter) = &bind.filter {
            let (board, locals, stack, _) = self.pos.parts();
            let mut vm = Vm::new(self.game, self.prog, board, locals, *self.spent);
            vm.count_to(super::tally::counting(self.tally, self.site));
            let mut kept = base;
            let mut out = Ok(());
            for i in base..stack.len() {
                let item = stack[i];
                vm.set_local(bind.slot, item);
                match vm.keep(filter) {
                    Ok(true) => {
                        stack[kept] = item;
                        kept += 1;
                    }
                    Ok(false) => {}
                    Err(e) => {
                        out = Err(e);
                        break;
                    }
                }
            }
            *self.spent = vm.steps;
            stack.truncate(kept);
            out?;
        }
        Ok((base as u32, (self.pos.stack.len() - base) as u32))
    }

    /// A control frame is on top: its body just ended, or it was just entered.
    fn control(&mut self) -> Out<()> {
        let prog = self.prog;
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
                let Some(Op::While(cond, body)) = prog.op(at.block, at.index) else { return unreachable_frame() };
                if self.eval(|vm| vm.truth(cond))? {
                    self.push_block(*body);
                } else {
                    self.pos.frames.pop();
                }
            }
            Frame::Until { at, started } => {
                let Some(Op::RepeatUntil(cond, body)) = prog.op(at.block, at.index) else {
                    return unreachable_frame();
                };
                if !*started {
                    *started = true;
                    self.push_block(*body);
                } else if self.eval(|vm| vm.truth(cond))? {
                    self.pos.frames.pop();
                } else {
                    self.push_block(*body);
                }
            }
            Frame::For { .. } => self.for_next()?,
            Frame::Phase { at, entered } => {
                let Some(Op::Phase(phase, body)) = prog.op(at.block, at.index) else { return unreachable_frame() };
                if !*entered {
                    *entered = true;
                    self.push_block(*body);
                } else {
                    self.pos.frames.pop();
                    self.leave_phase(*phase);
                }
            }
            Frame::Together { .. } => self.together_next()?,
        }
        Ok(())
    }

    /// The next element of a `for`: binds it and runs the body, or the next binding inside it.
    fn for_next(&mut self) -> Out<()> {
        let prog = self.prog;
        let Some(Frame::For { at, level, base, len, next }) = self.pos.frames.last_mut() else { return Ok(()) };
        let (at, level) = (*at, *level as usize);
        let Some(Op::For(binds, body)) = prog.op(at.block, at.index) else { return unreachable_frame() };
        if *next >= *len {
            let base = *base as usize;
            self.pos.frames.pop();
            self.pos.stack.truncate(base);
            return Ok(());
        }
        let item = self.pos.stack[(*base + *next) as usize];
        *next += 1;
        self.pos.locals[binds[level].slot as usize] = item;
        if level + 1 < binds.len() {
            let (base, len) = self.binding_items(&binds[level + 1])?;
            self.pos.frames.push(Frame::For { at, level: level as u32 + 1, base, len, next: 0 });
        } else {
            self.push_block(*body);
        }
        Ok(())
    }

    fn enter_phase(&mut self, phase: PhaseId) -> Out<()> {
        let prog = self.prog;
        self.reset_vars(prog.resets[phase as usize].iter().copied())?;
        let count = &mut self.pos.phase_counts[phase as usize];
        *count = count.saturating_add(1);
        let count = *count;
        let game = self.game;
        let of = match &prog.counts[phase as usize] {
            Some(x) if self.obs.log.is_some() => match self.aside(|vm| vm.value(x)) {
                Some(Value::Int(n)) => Some(n),
                _ => None,
            },
            _ => None,
        };
        self.log(|_| Event::Phase { name: game.phases[phase as usize].name.clone(), count, of });
        Ok(())
    }

    /// A phase ended: the end of the `sheet`'s phase writes the score sheet's row in the log.
    fn leave_phase(&mut self, phase: PhaseId) {
        let Some((round, line)) = &self.prog.sheet else { return };
        if *round != phase || self.obs.log.is_none() {
            return;
        }
        let elem = self.game.sheet.as_ref().map_or(Type::Seat, |s| s.elem.clone());
        let game = self.game;
        let row = self.aside(|vm| super::status::cells(vm, line, &|v| game.show_value(v, &elem))).unwrap_or_default();
        self.log(|_| Event::Sheet { row });
    }

    /// Works out a value for the log alone, on a copy of the local names and outside the step
    /// budget, so that a match runs the same with a log or without one; `None` if it fails.
    fn aside<T>(&mut self, f: impl FnOnce(&mut Vm<'_>) -> Out<T>) -> Option<T> {
        let mut locals = self.pos.locals.clone();
        let mut vm = Vm::new(self.game, self.prog, self.pos.board(), &mut locals, 0);
        f(&mut vm).ok()
    }

    /// `redo` / `end`: leaves every frame inside the phase; `redo` then starts it again.
    fn unwind_to(&mut self, phase: PhaseId, again: bool) -> Out<()> {
        let prog = self.prog;
        while let Some(frame) = self.pos.frames.last() {
            match *frame {
                Frame::Phase { at, .. } if matches!(prog.op(at.block, at.index), Some(Op::Phase(p, _)) if *p == phase) =>
                {
                    break;
                }
                Frame::For { base, .. } | Frame::Together { base, .. } => self.pos.stack.truncate(base as usize),
                _ => {}
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
            self.leave_phase(phase);
        }
        Ok(())
    }

    /// The single pile a zone expression names (an owner the zone lacks is a problem here).
    fn pile_of(&mut self, p: &P) -> Out<usize> {
        let pile = self.eval(|vm| vm.pile(p))?;
        pile.ok_or_else(|| missing(self.prog.span(p.at)))
    }

    fn move_cards(&mut self, random: Option<&X>, cards: &D, to: &P) -> Out<()> {
        let base = self.pos.stack.len();
        self.push_items(cards)?;
        let mut chosen = base;
        if let Some(n) = random {
            let n = self.eval(|vm| vm.int(n));
            let size = self.pos.stack.len() - base;
            let n = match n {
                Ok(n) if n >= 0 && n as usize <= size => n as usize,
                other => {
                    self.pos.stack.truncate(base);
                    other?;
                    return Err(Halt::new(
                        Code::OutOfRange,
                        self.prog.span(cards.at),
                        "not enough cards to draw from",
                        "fewer cards than asked for",
                        "draw at most as many cards as there are",
                    ));
                }
            };
            let pos = &mut *self.pos;
            let _ = pos.stack[base..].partial_shuffle(&mut pos.rng, n);
            chosen = pos.stack.len() - n;
        }
        let ruled = self.obs.knowledge.as_ref().zip(by_rule(cards)).and_then(|(k, only)| {
            let Some(Value::Card(first)) = self.pos.stack.get(base) else { return None };
            Some((self.pos.place(*first), only, k.places.clone()))
        });
        let mut moved: smallvec::SmallVec<[CardId; 16]> = smallvec::SmallVec::new();
        for item in self.pos.stack.drain(base..).skip(chosen - base) {
            match item {
                Value::Card(c) => moved.push(c),
                _ => return Err(missing(self.prog.span(cards.at))),
            }
        }
        let dest = self.pile_of(to)?;
        self.move_all(&moved, dest);
        if let (Some(k), Some((from, only, before))) = (&mut self.obs.knowledge, ruled) {
            k.ruled(self.prog, &before, &Rule { from, to: dest, only, moved: &moved, all: random.is_none() });
        }
        self.log(|_| Event::Moved { cards: moved.to_vec(), to: dest });
        Ok(())
    }

    /// Moves one card onto a pile and tells the players' knowledge.
    fn put(&mut self, card: CardId, dest: usize) {
        let from = self.pos.place(card);
        self.pos.put(self.prog, card, dest);
        if let Some(k) = &mut self.obs.knowledge {
            k.moved(self.prog, self.pos, card, from, dest);
        }
    }

    /// Moves cards one by one onto a pile ([`Position::move_all`]), telling the players'
    /// knowledge. A player who knew where a card was in a pile the move empties knows it went
    /// where the others went.
    fn move_all(&mut self, cards: &[CardId], dest: usize) {
        let before = self.obs.knowledge.as_ref().and_then(|k| k.before_moves(self.prog, dest));
        let mut sources: smallvec::SmallVec<[(CardId, usize); 16]> = smallvec::SmallVec::new();
        let (prog, knowledge) = (self.prog, &mut self.obs.knowledge);
        self.pos.move_all(prog, cards, dest, |pos, run, from| {
            for &c in run {
                if before.is_some() {
                    sources.push((c, from));
                }
                if let Some(knowledge) = knowledge.as_mut() {
                    knowledge.moved(prog, pos, c, from, dest);
                }
            }
        });
        if let (Some(k), Some(before)) = (&mut self.obs.knowledge, before) {
            k.emptied(self.pos, &sources, &before);
        }
    }

    fn shuffle(&mut self, pile: usize) {
        self.pos.shuffle(pile);
        if let Some(k) = &mut self.obs.knowledge {
            k.shuffled(self.prog, self.pos, pile);
        }
        self.log(|_| Event::Shuffled { pile });
    }

    fn deal(&mut self, count: Option<&X>, from: &P, zone: ZoneId, starting: Option<&X>) -> Out<()> {
        let source = self.pile_of(from)?;
        if self.prog.layout.pile_zone[source].0 == zone {
            return Err(Halt::new(
                Code::Misplaced,
                self.prog.span(from.at),
                "dealing from one of the piles dealt to",
                "a pile of the same zone",
                "deal from another zone, such as the stock",
            ));
        }
        let each = match count {
            Some(n) => Some(self.eval(|vm| vm.int(n))?),
            None => None,
        };
        let seats = self.game.seats.len();
        let first = match starting {
            Some(s) => self.eval(|vm| vm.seat(s))? as usize,
            None => 0,
        };
        let size = self.pos.pile(source).len();
        let total = match each {
            Some(n) if n < 0 || (n as usize).saturating_mul(seats) > size => {
                return Err(Halt::new(
                    Code::OutOfRange,
                    self.prog.span(from.at),
                    "not enough cards to deal",
                    "runs out",
                    "deal fewer cards each, or deal `all`",
                ));
            }
            Some(n) => n as usize * seats,
            None => size,
        };
        let one_pass = first < seats && self.prog.layout.piles(zone) == seats;
        if one_pass && self.obs.log.is_none() && self.obs.knowledge.is_none() {
            // Nobody watches the cards one by one: the deal in one pass, as the compiled engine's.
            self.pos.deal(self.prog, source, total, self.prog.layout.pile(zone, 0), seats, first);
            return Ok(());
        }
        let mut hands = vec![Vec::new(); if self.obs.log.is_some() { seats } else { 0 }];
        for k in 0..total {
            let seat = (first + k) % seats;
            let Some(&card) = self.pos.pile(source).last() else { break };
            self.put(card, self.prog.layout.pile(zone, seat));
            if let Some(hand) = hands.get_mut(seat) {
                hand.push(card);
            }
        }
        self.log(|_| Event::Dealt { from: source, zone, cards: total, hands });
        Ok(())
    }

    /// The end of the flow: rank the seats or sides by the result's key, then its tie-breaks.
    fn finish(&mut self) -> Out<()> {
        let game = self.game;
        let keyed = self.eval(ranking)?;
        let best = match game.result.extreme {
            Extreme::Highest => keyed.iter().map(|k| &k.1).max(),
            Extreme::Lowest => keyed.iter().map(|k| &k.1).min(),
        };
        let everyone_equal = keyed.iter().all(|k| Some(&k.1) == best);
        let mut winners: Vec<usize> = Vec::new();
        if !everyone_equal {
            for (item, key) in &keyed {
                if Some(key) == best {
                    winners.extend(players_of(game, *item));
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
        // What each scored: the key, without the tie-breaks.
        let standings = keyed.iter().map(|(item, keys)| (names.show_loose(*item), keys[0])).collect();
        self.log(|_| Event::Over);
        self.pos.pending = Pending::Over(Outcome { winners, returns, standings });
        Ok(())
    }
}

/// How a value drawn by lot is named: by the type of the variable it goes to, or of the
/// enumeration it was drawn from (an enumeration value alone does not say which one it is).
fn drawn_name(game: &Game, at: Loc, value: Value) -> String {
    let names = game.names();
    let StmtKind::Random(target, binding) = &game.blocks[at.block as usize].stmts[at.index as usize].kind else {
        return names.show_loose(value);
    };
    let ty = match target {
        Target::Var(v) | Target::VarAt(v, _) => Some(game.vars[*v as usize].ty.clone()),
        Target::Local(_) => None,
    };
    let ty = ty.or(match binding.domain.kind {
        ExprKind::EnumValues(e) => Some(Type::Enum(e)),
        _ => None,
    });
    ty.map_or_else(|| names.show_loose(value), |ty| names.show(value, &ty))
}

/// A frame whose statement is not of its kind: the compiled flow and the frames disagree.
fn unreachable_frame<T>() -> Out<T> {
    Err(Halt::new(
        Code::Misplaced,
        Span::default(),
        "the flow's position is damaged",
        "here",
        "the saved position does not belong to this rule file",
    ))
}

/// Whether a move's cards are picked by rule from one pile: the whole pile (`Some(None)`), or
/// its cards meeting a condition on the card alone (`Some(Some(cards meeting it))`).
fn by_rule(cards: &D) -> Option<Option<CardSet>> {
    match &cards.kind {
        DKind::Pile(_) => Some(None),
        DKind::Filter(inner, _, pred) => match (&inner.kind, pred.mask()) {
            (DKind::Pile(_), Some(M::Set(set))) => Some(Some(*set)),
            _ => None,
        },
        _ => None,
    }
}
