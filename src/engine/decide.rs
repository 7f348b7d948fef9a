//! Decisions: the legal options of a `choose` (tiers, declarations), secret simultaneous
//! decisions, and how options are named for people.

use super::program::*;
use super::run::Flow;
use super::vm::Vm;
use super::*;
use crate::diagnostic::Code;
use crate::eval::{Halt, Out};

impl Flow<'_> {
    /// The seat that makes an open decision, with its legal options put in the position.
    pub(super) fn open_decision(&mut self, ask: &Ask) -> Out<SeatId> {
        let seat = self.eval(|vm| vm.seat(&ask.by))?;
        self.pos.options.clear();
        self.add_options(ask)?;
        Ok(seat)
    }

    /// Adds a decision's legal options to the position's: those of the first tier that allows
    /// any, each offered once more with the declaration where that is allowed.
    pub(super) fn add_options(&mut self, ask: &Ask) -> Out<()> {
        if ask.group.is_some() {
            return self.add_groups(ask);
        }
        if let [d] = &ask.domains[..] {
            let (board, locals, _, options) = self.pos.parts();
            let mut vm = Vm::new(self.game, self.prog, board, locals, *self.spent);
            vm.count_to(super::tally::counting(self.tally, self.site));
            let out = match vm.piles_of(d) {
                Ok(Some(piles)) => Some(legal(&mut vm, ask, board.run(piles), options)),
                Ok(None) => None,
                Err(e) => Some(Err(e)),
            };
            *self.spent = vm.steps;
            if let Some(out) = out {
                return out;
            }
        }
        let base = self.pos.stack.len();
        for d in &ask.domains {
            self.push_items(d)?;
        }
        let (board, locals, stack, options) = self.pos.parts();
        let mut vm = Vm::new(self.game, self.prog, board, locals, *self.spent);
        vm.count_to(super::tally::counting(self.tally, self.site));
        let out = legal(&mut vm, ask, &stack[base..], options);
        *self.spent = vm.steps;
        stack.truncate(base);
        out
    }

    /// Adds the legal groups of a choice of several cards, and its menu actions if it has a
    /// menu (see [`super::groups`](mod@super::groups)).
    fn add_groups(&mut self, ask: &Ask) -> Out<()> {
        let base = self.pos.stack.len();
        let (zones, menu) = ask.domains.split_at(ask.domains.len() - usize::from(ask.menu.is_some()));
        for d in zones {
            self.push_items(d)?;
        }
        let actions = self.pos.stack.len();
        for d in menu {
            self.push_items(d)?;
        }
        let (board, locals, stack, options) = self.pos.parts();
        let cards: Vec<CardId> = stack[base..actions].iter().filter_map(|v| Item::card(*v)).collect();
        let actions: Vec<Value> = stack[actions..].to_vec();
        stack.truncate(base);
        let mut vm = Vm::new(self.game, self.prog, board, locals, *self.spent);
        vm.count_to(super::tally::counting(self.tally, self.site));
        let first = options.len();
        let out = super::groups::legal_groups(&mut vm, ask, &cards, &actions, options).and_then(|()| {
            if options.len() == first {
                return Err(no_option(&vm, ask));
            }
            declarations(&mut vm, ask, options, first)
        });
        *self.spent = vm.steps;
        out
    }

    /// Asks every seat of a `simultaneously` for its secret choice.
    pub(super) fn ask_together(&mut self, at: Loc, bind: &Bind, ask: &Ask) -> Out<()> {
        let seats = self.secret_decisions(bind, ask)?;
        if !seats.is_empty() {
            self.pos.pending = Pending::Together { at, seats };
        }
        Ok(())
    }

    /// The seats of a `simultaneously`, each once, with each seat's legal options put in the
    /// position one after another.
    pub(super) fn secret_decisions(&mut self, bind: &Bind, ask: &Ask) -> Out<Vec<Secret>> {
        let (base, len) = self.binding_items(bind)?;
        let mut seats: Vec<SeatId> = Vec::new();
        for &item in &self.pos.stack[base as usize..(base + len) as usize] {
            // A seat listed twice decides once.
            if let Value::Seat(s) = item
                && !seats.contains(&s)
            {
                seats.push(s);
            }
        }
        self.pos.stack.truncate(base as usize);
        self.pos.options.clear();
        let mut secrets = Vec::with_capacity(seats.len());
        for seat in seats {
            self.pos.locals[bind.slot as usize] = Value::Seat(seat);
            let by = self.eval(|vm| vm.seat(&ask.by))?;
            if by != seat {
                return Err(Halt::new(
                    Code::Misplaced,
                    self.prog.span(ask.by.at),
                    "a secret choice made for another seat",
                    "not the seat of this round",
                    "in `simultaneously for s in ...`, choose `by s`",
                ));
            }
            let start = self.pos.options.len() as u32;
            self.add_options(ask)?;
            let len = self.pos.options.len() as u32 - start;
            secrets.push(Secret { seat, start, len, chosen: None });
        }
        Ok(secrets)
    }

    /// An open choice was made: it is logged and learnt, and the flow takes it up.
    pub(super) fn chose_openly(&mut self, at: Loc, seat: SeatId, opt: Opt) {
        self.chose(at, seat, opt, false);
        self.pos.pending = Pending::Running;
        self.pos.options.clear();
        if let Some(Op::Choose(ask)) = self.prog.op(at.block, at.index) {
            self.bind_choice(ask, opt);
        }
    }

    /// Everyone has chosen: the choices are revealed together and the block runs for each seat.
    pub(super) fn reveal_together(&mut self) {
        let Pending::Together { at, seats } = std::mem::replace(&mut self.pos.pending, Pending::Running) else {
            return;
        };
        let picked: Vec<(SeatId, Opt)> =
            seats.iter().map(|s| (s.seat, self.pos.options[(s.start + s.chosen.unwrap_or(0)) as usize])).collect();
        self.pos.options.clear();
        let base = self.pos.stack.len() as u32;
        for &(seat, opt) in &picked {
            self.chose(at, seat, opt, true);
        }
        for &(seat, opt) in &picked {
            self.pos.push_secret_choice(seat, opt);
        }
        self.pos.frames.push(Frame::Together { at, base, seats: picked.len() as u32, next: 0 });
    }

    /// The next seat of a revealed `simultaneously`: its choice is bound and the block runs.
    pub(super) fn together_next(&mut self) -> Out<()> {
        let Some(Frame::Together { at, base, seats, next }) = self.pos.frames.last_mut() else { return Ok(()) };
        if *next >= *seats {
            let base = *base as usize;
            self.pos.frames.pop();
            self.pos.stack.truncate(base);
            return Ok(());
        }
        let (at, base, i) = (*at, *base, *next);
        *next += 1;
        let Some((seat, opt)) = self.pos.secret_choice(base, i) else { return Ok(()) };
        let Some(Op::Together(bind, ask, rest)) = self.prog.op(at.block, at.index) else { return Ok(()) };
        self.pos.locals[bind.slot as usize] = Value::Seat(seat);
        self.pos.frames.push(Frame::Block { block: *rest, pc: 0 });
        self.bind_choice(ask, opt);
        Ok(())
    }

    /// Sets the choice's name (and declaration flag) and runs the deciding tier's `then`.
    fn bind_choice(&mut self, ask: &Ask, opt: Opt) {
        for (slot, value) in ask.names(opt.value) {
            self.pos.locals[slot as usize] = value;
        }
        if let Some((flag, _, _)) = &ask.declare {
            self.pos.locals[*flag as usize] = Value::Bool(opt.declared);
        }
        if let Some(then) = ask.tiers.get(opt.tier as usize).and_then(|t| t.1) {
            self.pos.frames.push(Frame::Block { block: then, pc: 0 });
        }
    }

    /// A choice was made (a `secret` one is revealed): the log records it and the players'
    /// knowledge learns what it shows.
    fn chose(&mut self, at: Loc, seat: SeatId, opt: Opt, secret: bool) {
        if self.obs.log.is_some() {
            let action = option_name(self.game, self.prog, self.pos, at, seat, opt);
            let labelled = self.prog.ask_at(at.block, at.index).is_some_and(|(a, _)| a.label_for(opt.value).is_some());
            self.log(|_| Event::Chose { seat, action, secret, value: opt.value, labelled });
        }
        if let Some(k) = &mut self.obs.knowledge {
            k.chose(self.game, self.prog, self.pos, at, seat, opt);
        }
    }
}

/// The legal options of a decision over the elements of its domain, added to `options`.
/// An element of a decision's domain: a value, or a card read where it lies.
trait Item: Copy {
    fn value(self) -> Value;
    fn card(self) -> Option<CardId>;
}

impl Item for Value {
    fn value(self) -> Value {
        self
    }

    fn card(self) -> Option<CardId> {
        match self {
            Value::Card(c) => Some(c),
            _ => None,
        }
    }
}

impl Item for CardId {
    fn value(self) -> Value {
        Value::Card(self)
    }

    fn card(self) -> Option<CardId> {
        Some(self)
    }
}

fn legal<T: Item>(vm: &mut Vm<'_>, ask: &Ask, domain: &[T], options: &mut Vec<Opt>) -> Out<()> {
    vm.charge(domain.len(), ask.at)?;
    let first = options.len();
    let opt = |item: T, tier: u32| Opt { value: item.value(), declared: false, tier };
    if ask.tiers.is_empty() {
        options.extend(domain.iter().map(|&item| opt(item, 0)));
    }
    let cards = if ask.tiers.iter().any(|(c, _)| c.as_ref().and_then(Pred::mask).is_some()) {
        domain.iter().try_fold(super::mask::CardSet::EMPTY, |s, item| Some(s.with(item.card()?)))
    } else {
        None
    };
    for (t, (cond, _)) in ask.tiers.iter().enumerate() {
        let tier = t as u32;
        match (cond, cond.as_ref().and_then(Pred::mask).zip(cards)) {
            (_, Some((m, cand))) => {
                let keep = vm.mask(m, cand)?;
                options.extend(domain.iter().filter(|i| i.card().is_some_and(|c| keep.has(c))).map(|&i| opt(i, tier)));
            }
            (None, _) => options.extend(domain.iter().map(|&item| opt(item, tier))),
            (Some(pred), None) => {
                for &item in domain {
                    vm.set_names(ask, item.value());
                    if vm.keep(pred)? {
                        options.push(opt(item, tier));
                    }
                }
            }
        }
        if options.len() > first {
            break;
        }
    }
    if options.len() == first {
        return Err(no_option(vm, ask));
    }
    declarations(vm, ask, options, first)
}

/// The problem of a decision with no legal option.
fn no_option(vm: &Vm<'_>, ask: &Ask) -> Box<Halt> {
    Halt::new(
        Code::NoAction,
        vm.prog.span(ask.at),
        "no legal option for this decision",
        "nothing can be chosen here",
        "end the tiers with `else any`, or make sure the domain is not empty when this runs",
    )
}

/// Each legal option from `first` on offered once more with the declaration, where allowed.
fn declarations(vm: &mut Vm<'_>, ask: &Ask, options: &mut Vec<Opt>, first: usize) -> Out<()> {
    if let Some((_, _, when)) = &ask.declare {
        let plain = options.len();
        for i in first..plain {
            let opt = options[i];
            options.push(opt);
            vm.set_names(ask, opt.value);
            if vm.truth(when)? {
                options.push(Opt { declared: true, ..opt });
            }
        }
        options.drain(first..plain);
    }
    Ok(())
}

/// How an option is named: the choice's `as` label, or the value's name, plus the declaration.
pub(super) fn option_name(game: &Game, prog: &Program, pos: &Position, at: Loc, seat: SeatId, opt: Opt) -> String {
    let Some((ask, bind)) = prog.ask_at(at.block, at.index) else { return format!("{:?}", opt.value) };
    let base = match ask.label_for(opt.value) {
        Some(label) => {
            // Naming is for people, not for speed: a copy of the local names takes the bound names.
            let mut locals = pos.locals.clone();
            let mut vm = Vm::new(game, prog, pos.board(), &mut locals, 0);
            if let Some(bind) = bind {
                vm.set_local(bind.slot, Value::Seat(seat));
            }
            vm.set_names(ask, opt.value);
            vm.text(label).unwrap_or_else(|_| game.names().show(opt.value, &ask.elem))
        }
        None => game.names().show(opt.value, &ask.elem),
    };
    match (&ask.declare, opt.declared) {
        (Some((_, name, _)), true) => format!("{base} {name}"),
        _ => base,
    }
}

impl State {
    /// How an option of the decision at `at` is named for people.
    pub(super) fn option_name(&self, at: Loc, seat: SeatId, opt: Opt) -> String {
        option_name(&self.game, self.program(), &self.pos, at, seat, opt)
    }

    /// The decision `seat` is to make now: where it is and its options.
    fn decision(&self, seat: SeatId) -> Option<(Loc, &[Opt])> {
        Some((self.decision_at()?, self.options(seat)?))
    }

    /// The items of the current decision's domain that the rules do not allow `seat` now, each
    /// with its name (as `action_name` would name it) and a Problem pointing at the rule that
    /// forbids it: the condition of the tier in use. Empty when `seat` is not to decide.
    pub fn forbidden(&self, seat: SeatId) -> Vec<(String, Problem)> {
        let Some((at, options)) = self.decision(seat) else { return Vec::new() };
        // The options of a choice of several cards are groups, not the domain's cards.
        if self.choice_cards(seat).is_some() {
            return Vec::new();
        }
        let Some(tier) = options.first().map(|o| o.tier) else { return Vec::new() };
        let mut forbidden: Vec<(String, Problem)> = Vec::new();
        for value in self.domain_now(at, seat) {
            if options.iter().any(|o| o.value == value) {
                continue;
            }
            let name = self.option_name(at, seat, Opt { value, declared: false, tier });
            if !forbidden.iter().any(|(n, _)| *n == name)
                && let Some(problem) = self.refusal(seat, &name)
            {
                forbidden.push((name, problem));
            }
        }
        forbidden
    }

    /// The cards outside the current decision's domain (of cards), each with the name the
    /// decision would give it (`bid 3` for a card already spent): what a player may type for a
    /// card out of reach. Empty when `seat` is not to choose one card.
    pub fn out_of_reach(&self, seat: SeatId) -> Vec<(String, CardId)> {
        let Some((at, options)) = self.decision(seat) else { return Vec::new() };
        let Some(tier) = options.first().map(|o| o.tier) else { return Vec::new() };
        if self.choice_cards(seat).is_some() {
            return Vec::new();
        }
        let domain = self.domain_now(at, seat);
        if !domain.iter().any(|v| matches!(v, Value::Card(_))) {
            return Vec::new();
        }
        (0..self.game.cards.len() as CardId)
            .filter(|c| !domain.contains(&Value::Card(*c)))
            .map(|c| (self.option_name(at, seat, Opt { value: Value::Card(c), declared: false, tier }), c))
            .collect()
    }

    /// The piles the current decision of `seat` chooses its cards from, in the layout's order.
    pub fn choice_piles(&self, seat: SeatId) -> Vec<usize> {
        let Some((at, _)) = self.decision(seat) else { return Vec::new() };
        let cards: Vec<CardId> = self.domain_now(at, seat).into_iter().filter_map(Item::card).collect();
        (0..self.pos.pile_count()).filter(|p| self.pos.pile(*p).iter().any(|c| cards.contains(c))).collect()
    }

    /// The pile a card lies in.
    pub fn pile_of(&self, card: CardId) -> Option<usize> {
        (0..self.pos.pile_count()).find(|p| self.pos.pile(*p).contains(&card))
    }

    /// Why the rules refuse a move of `seat` named `name` now: the condition of the tier in
    /// use, if it has one, with the moves allowed.
    pub fn refusal(&self, seat: SeatId, name: &str) -> Option<Problem> {
        let (at, options) = self.decision(seat)?;
        let cond = self.tier_condition(at, options.first()?.tier)?;
        let allowed: Vec<String> =
            self.shown_actions(seat).into_iter().filter_map(|a| self.action_name(seat, a)).collect();
        let problem = Problem::new(
            Code::NotAllowed,
            format!("{name} is not allowed now"),
            cond.span,
            "only moves meeting this are allowed now",
        );
        Some(problem.help(format!("allowed now: {}", super::counted_names(&allowed).join(", "))))
    }

    /// The condition of a tier of the decision at `at`; `None` for `any`.
    fn tier_condition(&self, at: Loc, tier: u32) -> Option<&Expr> {
        let choose = match &self.game.blocks[at.block as usize].stmts[at.index as usize].kind {
            StmtKind::Choose(c) | StmtKind::Simultaneously(_, c, _) => c,
            _ => return None,
        };
        choose.tiers.get(tier as usize)?.cond.as_ref()
    }

    /// The names of the definitions, outermost first, through which the condition of the tier
    /// in use refuses `seat` the move named `name` (see the `reason` module): the deepest holds the
    /// one rule the move breaks. Empty when none can be told.
    pub fn broken_rules(&self, seat: SeatId, name: &str) -> Vec<String> {
        let Some((at, options)) = self.decision(seat) else { return Vec::new() };
        let Some(tier) = options.first().map(|o| o.tier) else { return Vec::new() };
        let named = |v: &Value| self.option_name(at, seat, Opt { value: *v, declared: false, tier }) == name;
        let (Some(cond), Some(value)) =
            (self.tier_condition(at, tier), self.domain_now(at, seat).into_iter().find(named))
        else {
            return Vec::new();
        };
        let broken = super::reason::broken(&self.game, &self.pos, at, seat, value, cond);
        broken.into_iter().map(|f| self.game.functions[f as usize].name.clone()).collect()
    }

    /// When `seat` decides under a tier after the first (what the rules ask when the first
    /// cannot be met), the names of the definitions that tier's condition calls, in order.
    pub fn fallback_rules(&self, seat: SeatId) -> Vec<String> {
        let Some((at, options)) = self.decision(seat) else { return Vec::new() };
        let tier = options.first().map(|o| o.tier).filter(|t| *t > 0);
        let Some(cond) = tier.and_then(|tier| self.tier_condition(at, tier)) else { return Vec::new() };
        let mut calls = Vec::new();
        super::reason::calls(cond, &mut calls);
        calls.into_iter().map(|f| self.game.functions[f as usize].name.clone()).collect()
    }

    /// The cards `seat` chooses among now, if it is to choose several at once.
    pub fn choice_cards(&self, seat: SeatId) -> Option<Vec<CardId>> {
        let (at, _) = self.decision(seat)?;
        self.program().ask_at(at.block, at.index)?.0.group.as_ref()?;
        Some(self.domain_now(at, seat).into_iter().filter_map(Item::card).collect())
    }

    /// The elements of a decision's domain as the match stands, for `seat` (empty if they cannot
    /// be worked out).
    fn domain_now(&self, at: Loc, seat: SeatId) -> Vec<Value> {
        let Some((ask, bind)) = self.program().ask_at(at.block, at.index) else { return Vec::new() };
        let mut locals = self.pos.locals.clone();
        let mut vm = Vm::new(&self.game, self.program(), self.pos.board(), &mut locals, 0);
        if let Some(bind) = bind {
            vm.set_local(bind.slot, Value::Seat(seat));
        }
        let mut domain = Vec::new();
        for d in &ask.domains {
            if vm.items(d, &mut domain).is_err() {
                return Vec::new();
            }
        }
        domain
    }
}
