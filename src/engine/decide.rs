//! Decisions: the legal options of a `choose` (tiers, declarations), secret simultaneous
//! decisions, and how options are named for people.

use super::run::Reader;
use super::*;
use crate::diagnostic::Code;
use crate::eval::{Board, Eval, Halt, Out, Tables};

impl State {
    /// The legal options of a decision: those of the first tier that allows any, each offered
    /// once more with the declaration where that is allowed.
    pub(super) fn legal_options(&mut self, choose: &Choose) -> Out<Vec<Opt>> {
        self.eval(|ev| options_of(ev, choose))
    }

    /// The seat that makes an open decision and its legal options, as the match stands.
    pub(super) fn open_decision(&mut self, choose: &Choose) -> Out<(SeatId, Vec<Opt>)> {
        let seat = self.eval(|ev| ev.seat(&choose.by))?;
        Ok((seat, self.legal_options(choose)?))
    }

    /// Asks every seat of a `simultaneously` for its secret choice.
    pub(super) fn ask_together(&mut self, at: Loc, binding: &Binding, choose: &Choose) -> Out<()> {
        let (seats, options) = self.secret_decisions(binding, choose)?;
        if seats.is_empty() {
            return Ok(());
        }
        let chosen = vec![None; seats.len()];
        self.pos.pending = Pending::Together { at, seats, options, chosen };
        Ok(())
    }

    /// The seats of a `simultaneously`, each once, with each seat's legal options.
    pub(super) fn secret_decisions(&mut self, binding: &Binding, choose: &Choose) -> Out<(Vec<SeatId>, Vec<Vec<Opt>>)> {
        let mut seats: Vec<SeatId> = Vec::new();
        for item in self.binding_items(binding)? {
            // A seat listed twice decides once.
            if let Value::Seat(s) = item
                && !seats.contains(&s)
            {
                seats.push(s);
            }
        }
        let mut options = Vec::new();
        for &seat in &seats {
            self.pos.locals[binding.slot as usize] = Value::Seat(seat);
            let by = self.eval(|ev| ev.seat(&choose.by))?;
            if by != seat {
                return Err(Halt::new(
                    Code::Misplaced,
                    choose.by.span,
                    "a secret choice made for another seat",
                    "not the seat of this round",
                    "in `simultaneously for s in ...`, choose `by s`",
                ));
            }
            options.push(self.legal_options(choose)?);
        }
        Ok((seats, options))
    }

    /// Everyone has chosen: the choices are revealed together and the block runs for each seat.
    pub(super) fn reveal_together(&mut self) {
        let Pending::Together { at, seats, options, chosen } =
            std::mem::replace(&mut self.pos.pending, Pending::Running)
        else {
            return;
        };
        let picked: Vec<Opt> = options.iter().zip(&chosen).map(|(o, c)| o[c.unwrap_or(0) as usize]).collect();
        for (seat, opt) in seats.iter().zip(&picked) {
            self.chose(at, *seat, *opt, true);
            self.learn_choice(at, *seat, *opt);
        }
        self.pos.frames.push(Frame::Together { at, seats, chosen: picked, next: 0 });
    }

    /// The next seat of a revealed `simultaneously`: its choice is bound and the block runs.
    pub(super) fn together_next(&mut self) -> Out<()> {
        let game = self.game.clone();
        let Some(Frame::Together { at, seats, chosen, next }) = self.pos.frames.last_mut() else { return Ok(()) };
        let i = *next as usize;
        if i >= seats.len() {
            self.pos.frames.pop();
            return Ok(());
        }
        *next += 1;
        let (at, seat, opt) = (*at, seats[i], chosen[i]);
        let StmtKind::Simultaneously(binding, choose, rest) =
            &game.blocks[at.block as usize].stmts[at.index as usize].kind
        else {
            return Ok(());
        };
        self.pos.locals[binding.slot as usize] = Value::Seat(seat);
        self.pos.frames.push(Frame::Block { block: *rest, pc: 0 });
        self.bind_choice(choose, opt);
        Ok(())
    }

    /// Sets the choice's name (and declaration flag) and runs the deciding tier's `then`.
    fn bind_choice(&mut self, choose: &Choose, opt: Opt) {
        self.pos.locals[choose.slot as usize] = opt.value;
        if let Some((flag, _, _)) = &choose.declare {
            self.pos.locals[*flag as usize] = Value::Bool(opt.declared);
        }
        if let Some(then) = choose.tiers.get(opt.tier as usize).and_then(|t| t.then) {
            self.pos.frames.push(Frame::Block { block: then, pc: 0 });
        }
    }

    /// After an open choice: bind it and run on.
    pub(super) fn after_choice(&mut self, at: Loc, opt: Opt) {
        let game = self.game.clone();
        if let StmtKind::Choose(choose) = &game.blocks[at.block as usize].stmts[at.index as usize].kind {
            self.bind_choice(choose, opt);
        }
    }

    /// Logs a choice.
    pub(super) fn chose(&mut self, at: Loc, seat: SeatId, opt: Opt, secret: bool) {
        if self.pos.logging {
            let action = self.option_name(at, seat, opt);
            let labelled = match &self.game.blocks[at.block as usize].stmts[at.index as usize].kind {
                StmtKind::Choose(c) | StmtKind::Simultaneously(_, c, _) => c.label.is_some(),
                _ => false,
            };
            self.pos.log.push(Event::Chose { seat, action, secret, value: opt.value, labelled });
        }
    }

    /// The `choose` at `at`, with the `simultaneously` binding around it if there is one.
    fn choose_at(&self, at: Loc) -> Option<(&Choose, Option<&Binding>)> {
        let stmt = self.game.blocks.get(at.block as usize)?.stmts.get(at.index as usize)?;
        match &stmt.kind {
            StmtKind::Choose(c) => Some((c, None)),
            StmtKind::Simultaneously(binding, c, _) => Some((c, Some(binding))),
            _ => None,
        }
    }

    /// How an option is named: the choice's `as` label, or the value's name, plus the declaration.
    pub(super) fn option_name(&self, at: Loc, seat: SeatId, opt: Opt) -> String {
        let game = &self.game;
        let Some((choose, binding)) = self.choose_at(at) else { return format!("{:?}", opt.value) };
        // Naming is for people, not for speed: a copy of the position takes the bound names.
        let mut scratch = self.pos.scratch();
        if let Some(binding) = binding {
            scratch.locals[binding.slot as usize] = Value::Seat(seat);
        }
        scratch.locals[choose.slot as usize] = opt.value;
        let mut reader = Reader { layout: &self.layout, pos: &mut scratch };
        let base = match &choose.label {
            Some(label) => Eval::new(Tables::of(game), &mut reader)
                .text(label)
                .unwrap_or_else(|_| game.names().show(opt.value, &choose.elem)),
            None => game.names().show(opt.value, &choose.elem),
        };
        match (&choose.declare, opt.declared) {
            (Some((_, name, _)), true) => format!("{base} {name}"),
            _ => base,
        }
    }

    /// The decision `seat` is to make now: where it is and its options.
    fn decision(&self, seat: SeatId) -> Option<(Loc, &[Opt])> {
        let at = match &self.pos.pending {
            Pending::Choice { at, .. } | Pending::Together { at, .. } => *at,
            _ => return None,
        };
        Some((at, self.options(seat)?))
    }

    /// The items of the current decision's domain that the rules do not allow `seat` now, each
    /// with its name (as `action_name` would name it) and a Problem pointing at the rule that
    /// forbids it: the condition of the tier in use. Empty when `seat` is not to decide.
    pub fn forbidden(&self, seat: SeatId) -> Vec<(String, Problem)> {
        let Some((at, options)) = self.decision(seat) else { return Vec::new() };
        let Some((choose, binding)) = self.choose_at(at) else { return Vec::new() };
        let tier = options.first().and_then(|o| choose.tiers.get(o.tier as usize));
        let Some((cond, tier)) = tier.and_then(|t| Some((t.cond.as_ref()?, options[0].tier))) else {
            return Vec::new();
        };
        let allowed: Vec<String> =
            self.shown_actions(seat).into_iter().filter_map(|a| self.action_name(seat, a)).collect();
        let problem = |name: &str| {
            Problem::new(
                Code::NotAllowed,
                format!("{name} is not allowed now"),
                cond.span,
                "only moves meeting this are allowed now",
            )
            .help(format!("allowed now: {}", allowed.join(", ")))
        };
        let mut forbidden: Vec<(String, Problem)> = Vec::new();
        for value in self.domain_now(choose, binding, seat) {
            if options.iter().any(|o| o.value == value) {
                continue;
            }
            let name = self.option_name(at, seat, Opt { value, declared: false, tier });
            if !forbidden.iter().any(|(n, _)| *n == name) {
                let problem = problem(&name);
                forbidden.push((name, problem));
            }
        }
        forbidden
    }

    /// The elements of a decision's domain as the match stands, for `seat` (empty if they cannot
    /// be worked out).
    fn domain_now(&self, choose: &Choose, binding: Option<&Binding>, seat: SeatId) -> Vec<Value> {
        let mut scratch = self.scratch_state();
        scratch
            .eval(|ev| {
                if let Some(binding) = binding {
                    ev.pos.set_local(binding.slot, Value::Seat(seat));
                }
                let mut domain = Vec::new();
                for d in &choose.domains {
                    domain.extend(ev.items(d)?);
                }
                Ok(domain)
            })
            .unwrap_or_default()
    }
}

fn options_of(ev: &mut Eval<'_, Reader<'_>>, choose: &Choose) -> Out<Vec<Opt>> {
    let mut domain = Vec::new();
    for d in &choose.domains {
        domain.extend(ev.items(d)?);
    }
    let mut options = Vec::with_capacity(domain.len());
    if choose.tiers.is_empty() {
        options.extend(domain.iter().map(|&value| Opt { value, declared: false, tier: 0 }));
    }
    for (t, tier) in choose.tiers.iter().enumerate() {
        for &value in &domain {
            ev.pos.set_local(choose.slot, value);
            if tier.cond.as_ref().map_or(Ok(true), |c| ev.truth(c))? {
                options.push(Opt { value, declared: false, tier: t as u32 });
            }
        }
        if !options.is_empty() {
            break;
        }
    }
    if options.is_empty() {
        return Err(Halt::new(
            Code::NoAction,
            choose.span,
            "no legal option for this decision",
            "nothing can be chosen here",
            "end the tiers with `else any`, or make sure the domain is not empty when this runs",
        ));
    }
    if let Some((_, _, when)) = &choose.declare {
        let plain = std::mem::take(&mut options);
        for opt in plain {
            options.push(opt);
            ev.pos.set_local(choose.slot, opt.value);
            if ev.truth(when)? {
                options.push(Opt { declared: true, ..opt });
            }
        }
    }
    Ok(options)
}
