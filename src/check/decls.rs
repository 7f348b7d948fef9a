//! Declarations: the game's name, seats and sides, enumerations, the card's attributes, zones,
//! phases, definitions and variables.

use super::settings::Changes;
use super::{Checker, FnSig, Global};
use crate::diagnostic::{Code, Problem};
use crate::game::*;
use crate::syntax::ast::{self, Audience, Span};

/// The most seats a game may have (sets of seats are 64-bit).
const MAX_SEATS: usize = 64;

/// The items of a rule file sorted by kind.
#[derive(Default)]
pub(super) struct Parts<'a> {
    pub games: Vec<&'a ast::GameDecl>,
    pub players: Vec<&'a ast::PlayersDecl>,
    pub seats: Vec<&'a ast::SeatsDecl>,
    pub controls: Vec<&'a ast::ControlDecl>,
    pub bottoms: Vec<&'a ast::BottomDecl>,
    pub sides: Vec<&'a ast::SideDecl>,
    pub params: Vec<&'a ast::ParamDecl>,
    pub enums: Vec<&'a ast::EnumDecl>,
    pub cards: Vec<&'a ast::CardDecl>,
    pub decks: Vec<&'a ast::DeckDecl>,
    pub zones: Vec<&'a ast::ZoneDecl>,
    pub vars: Vec<&'a ast::VarDecl>,
    pub defines: Vec<&'a ast::DefineDecl>,
    pub procedures: Vec<&'a ast::ProcDecl>,
    pub plays: Vec<&'a ast::PlayDecl>,
    pub results: Vec<&'a ast::ResultDecl>,
    pub solves: Vec<&'a ast::SolveDecl>,
    pub variants: Vec<&'a ast::VariantDecl>,
    pub shows: Vec<&'a ast::ShowDecl>,
    pub sheets: Vec<&'a ast::SheetDecl>,
}

impl<'a> Parts<'a> {
    pub(super) fn sort(checker: &mut Checker, items: &'a [ast::Item]) -> Self {
        let mut parts = Parts::default();
        for item in items {
            match item {
                ast::Item::Game(d) => parts.games.push(d),
                ast::Item::Players(d) => parts.players.push(d),
                ast::Item::Seats(d) => parts.seats.push(d),
                ast::Item::Control(d) => parts.controls.push(d),
                ast::Item::Bottom(d) => parts.bottoms.push(d),
                ast::Item::Side(d) => parts.sides.push(d),
                ast::Item::Param(d) => parts.params.push(d),
                ast::Item::Enum(d) => parts.enums.push(d),
                ast::Item::Card(d) => parts.cards.push(d),
                ast::Item::Deck(d) => parts.decks.push(d),
                ast::Item::Zone(d) => parts.zones.push(d),
                ast::Item::Var(d) => parts.vars.push(d),
                ast::Item::Define(d) => parts.defines.push(d),
                ast::Item::Procedure(d) => parts.procedures.push(d),
                ast::Item::Play(d) => parts.plays.push(d),
                ast::Item::Result(d) => parts.results.push(d),
                ast::Item::Solve(d) => parts.solves.push(d),
                ast::Item::Variant(d) => parts.variants.push(d),
                ast::Item::Show(d) => parts.shows.push(d.as_ref()),
                ast::Item::Sheet(d) => parts.sheets.push(d),
            }
        }
        if items.is_empty() {
            checker.error(
                Code::Missing,
                "the rule file is empty",
                Span::default(),
                "nothing is declared",
                "a rule file declares a `game`, its `players`, a `card`, a `deck`, at least one `zone`, the `play` and the `result`",
            );
            return parts;
        }
        let end = items.last().map_or(Span::default(), item_span);
        let end = Span::new(end.end, end.end);
        checker.once("game", parts.games.iter().map(|d| d.span), end, "game \"Name\"");
        checker.once("players", parts.players.iter().map(|d| d.span), end, "players 4");
        checker.at_most_once("seats", parts.seats.iter().map(|d| d.span));
        checker.once("card", parts.cards.iter().map(|d| d.span), end, "card { suit: Suit  rank: Rank }");
        checker.once(
            "deck",
            parts.decks.iter().map(|d| d.span),
            end,
            "deck { for s in Suit, r in Rank { card { suit: s, rank: r } } }",
        );
        checker.once("play", parts.plays.iter().map(|d| d.span), end, "play { ... }");
        checker.once("result", parts.results.iter().map(|d| d.span), end, "result highest s in seats by score[s]");
        checker.at_most_once("sheet", parts.sheets.iter().map(|d| d.span));
        if parts.zones.is_empty() {
            checker.error(
                Code::Missing,
                "the rule file declares no zone",
                end,
                "cards need somewhere to be",
                "declare at least one zone, e.g. `zone stock { see: nobody }`; the pack starts in the first one",
            );
        }
        parts
    }
}

fn item_span(item: &ast::Item) -> Span {
    match item {
        ast::Item::Game(d) => d.span,
        ast::Item::Players(d) => d.span,
        ast::Item::Seats(d) => d.span,
        ast::Item::Control(d) => d.span,
        ast::Item::Bottom(d) => d.span,
        ast::Item::Side(d) => d.span,
        ast::Item::Param(d) => d.span,
        ast::Item::Enum(d) => d.span,
        ast::Item::Card(d) => d.span,
        ast::Item::Deck(d) => d.span,
        ast::Item::Zone(d) => d.span,
        ast::Item::Var(d) => d.span,
        ast::Item::Define(d) => d.span,
        ast::Item::Procedure(d) => d.span,
        ast::Item::Play(d) => d.span,
        ast::Item::Result(d) => d.span,
        ast::Item::Solve(d) => d.span,
        ast::Item::Variant(d) => d.span,
        ast::Item::Show(d) => d.span,
        ast::Item::Sheet(d) => d.span,
    }
}

impl Checker {
    /// A part every rule file has exactly once.
    fn once(&mut self, what: &str, spans: impl Iterator<Item = Span>, end: Span, example: &str) {
        let spans: Vec<Span> = spans.collect();
        if spans.is_empty() {
            self.error(
                Code::Missing,
                format!("the rule file has no `{what}` declaration"),
                end,
                format!("`{what}` expected somewhere in the file"),
                format!("add one, for example `{example}`"),
            );
        }
        self.at_most_once(what, spans.into_iter());
    }

    /// Reports every declaration of `what` after the first, pointing at their keywords.
    fn at_most_once(&mut self, what: &str, spans: impl Iterator<Item = Span>) {
        let spans: Vec<Span> = spans.map(|s| Span::new(s.start, s.end.min(s.start + what.len()))).collect();
        for extra in spans.iter().skip(1) {
            self.report(
                Problem::new(Code::Duplicate, format!("`{what}` is declared twice"), *extra, "declared again here")
                    .note(spans[0], "first declared here")
                    .help(format!("a rule file has one `{what}`; merge the two")),
            );
        }
    }

    pub(super) fn declare_game(&mut self, parts: &Parts) {
        self.name = parts.games.first().map(|g| g.name.value.clone());
    }

    pub(super) fn declare_seating(&mut self, parts: &Parts) {
        let player_count = self.params.iter().find(|p| p.name == "players").map(|p| p.value);
        let fixed = parts.players.first().filter(|p| p.range.is_none());
        let seats = match parts.seats.first() {
            Some(decl) => {
                for named in &decl.seats {
                    let display = named.display.as_ref().map_or(named.name.name.clone(), |d| d.value.clone());
                    self.add_seat(&named.name, display);
                }
                if let Some(p) = parts.players.first().filter(|p| p.range.is_some()) {
                    self.error(
                        Code::Seating,
                        "a range of players with a fixed list of seats",
                        p.span,
                        "the seats line fixes the number of seats",
                        "remove the `seats` line (seats are then P1, P2, ...) or give a single number of players",
                    );
                }
                self.seats.len() as i64
            }
            None => {
                let n = match player_count {
                    Some(Value::Int(n)) => n,
                    _ => fixed.map_or(0, |p| p.min.value),
                };
                // One seat too many is enough to report the problem.
                for i in 1..=n.clamp(0, MAX_SEATS as i64 + 1) {
                    let name = format!("P{i}");
                    let ident = ast::Ident { name: name.clone(), span: Span::default() };
                    self.add_seat(&ident, name);
                }
                n
            }
        };
        let seated = self.check_seat_limits(parts, seats);
        let before = self.problems.len();
        self.declare_controls(parts);
        // A `played by` that was refused leaves the count of players in doubt.
        let controlled = self.problems.len() == before;
        if let Some(p) = fixed
            && seated
            && controlled
            && p.min.value as usize != self.players
        {
            let s = if p.min.value == 1 { "" } else { "s" };
            let mut problem = Problem::new(
                Code::Seating,
                format!("{} player{s} declared, but the seats give {}", p.min.value, self.players),
                p.span,
                "does not match the seats",
            )
            .help("each seat not `played by` another seat is one player; make the numbers agree");
            if let Some(seats) = parts.seats.first() {
                let s = if self.seats.len() == 1 { "" } else { "s" };
                problem = problem.note(seats.span, format!("{} seat{s} here", self.seats.len()));
            }
            self.report(problem);
        }
        self.declare_sides(parts);
        self.declare_bottom(parts);
    }

    /// `seat X at bottom`: at most one seat, a declared one.
    fn declare_bottom(&mut self, parts: &Parts) {
        let Some(first) = parts.bottoms.first() else { return };
        for extra in &parts.bottoms[1..] {
            self.seat_named(&extra.seat);
            self.report(
                Problem::new(Code::Duplicate, "two seats are drawn at the bottom", extra.span, "declared again here")
                    .note(first.span, "first declared here")
                    .help("one seat is at the bottom of the table; keep one `seat ... at bottom`"),
            );
        }
        self.bottom = self.seat_named(&first.seat);
    }

    fn add_seat(&mut self, ident: &ast::Ident, display: String) {
        let id = self.seats.len() as SeatId;
        let player = self.seats.len();
        self.seats.push(SeatInfo { name: ident.name.clone(), display, player, side: None });
        if !ident.span.is_empty() {
            self.define_global(ident, Global::Seat(id));
        } else {
            self.globals.insert(ident.name.clone(), (Global::Seat(id), ident.span));
        }
    }

    /// Whether the number of seats (`count`, as declared) is within the limits; reports it if not.
    fn check_seat_limits(&mut self, parts: &Parts, count: i64) -> bool {
        let ok = (1..=MAX_SEATS as i64).contains(&count);
        if !ok {
            let span = parts.seats.first().map(|s| s.span).or(parts.players.first().map(|p| p.span));
            if let Some(span) = span {
                let what = if parts.seats.is_empty() { "players" } else { "seats" };
                self.error(
                    Code::Seating,
                    format!("{count} {what}: a game has from 1 to {MAX_SEATS}"),
                    span,
                    if count < 1 { "no seats to play".to_string() } else { format!("too many {what}") },
                    format!("declare from 1 to {MAX_SEATS} {what}"),
                );
            }
        }
        ok
    }

    fn seat_named(&mut self, ident: &ast::Ident) -> Option<SeatId> {
        match self.globals.get(&ident.name) {
            Some((Global::Seat(s), _)) => Some(*s),
            _ => {
                let names: Vec<&str> = self.seats.iter().map(|s| s.name.as_str()).collect();
                let seats = format!("the seats are: {}", names.join(", "));
                self.unknown_name(ident, &seats);
                None
            }
        }
    }

    fn declare_controls(&mut self, parts: &Parts) {
        let mut controller: Vec<Option<SeatId>> = vec![None; self.seats.len()];
        for c in &parts.controls {
            let (Some(seat), Some(by)) = (self.seat_named(&c.seat), self.seat_named(&c.by)) else { continue };
            let why = if seat == by {
                Some("a seat played by itself".to_string())
            } else if let Some(other) = controller[seat as usize] {
                Some(format!("`{}` is already played by `{}`", c.seat.name, self.seats[other as usize].name))
            } else {
                controller[by as usize]
                    .map(|other| format!("`{}` is itself played by `{}`", c.by.name, self.seats[other as usize].name))
            };
            if let Some(why) = why {
                self.error(
                    Code::Seating,
                    format!("seat `{}` cannot be played by `{}`", c.seat.name, c.by.name),
                    c.span,
                    why,
                    "each seat is played by its own player, or by one seat that is played by its own player",
                );
                continue;
            }
            controller[seat as usize] = Some(by);
        }
        if controller.iter().flatten().any(|by| controller[*by as usize].is_some()) {
            let span = parts.controls[0].span;
            self.error(
                Code::Seating,
                "a seat's player is itself played by another seat",
                span,
                "a chain of `played by`",
                "make every `played by` name a seat that is played by its own player",
            );
            return;
        }
        let mut players = 0;
        let mut player_of = vec![0; self.seats.len()];
        for (s, c) in controller.iter().enumerate() {
            if c.is_none() {
                player_of[s] = players;
                players += 1;
            }
        }
        for (s, c) in controller.iter().enumerate() {
            self.seats[s].player = c.map_or(player_of[s], |by| player_of[by as usize]);
        }
        self.players = players;
    }

    fn declare_sides(&mut self, parts: &Parts) {
        let mut taken: Vec<Option<Span>> = vec![None; self.seats.len()];
        for decl in &parts.sides {
            let id = self.sides.len() as SideId;
            let mut seats = Vec::new();
            for ident in &decl.seats {
                let Some(s) = self.seat_named(ident) else { continue };
                if let Some(first) = taken[s as usize] {
                    self.report(
                        Problem::new(
                            Code::Seating,
                            format!("seat `{}` is on two sides", ident.name),
                            ident.span,
                            "already on a side",
                        )
                        .note(first, "first placed here")
                        .help("sides must not overlap: put each seat on one side"),
                    );
                    continue;
                }
                taken[s as usize] = Some(ident.span);
                self.seats[s as usize].side = Some(id);
                seats.push(s);
            }
            let display = decl.display.as_ref().map_or(decl.name.name.clone(), |d| d.value.clone());
            self.sides.push(SideInfo { name: decl.name.name.clone(), display, seats });
            self.define_global(&decl.name, Global::Side(id));
        }
    }

    pub(super) fn declare_enums(&mut self, parts: &Parts) {
        for decl in &parts.enums {
            let id = self.enums.len() as EnumId;
            self.define_global(&decl.name, Global::EnumType(id));
            self.enums.push(EnumInfo { name: decl.name.name.clone(), members: Vec::new(), values: Vec::new() });
        }
        for (i, decl) in parts.enums.iter().enumerate() {
            for (m, member) in decl.members.iter().enumerate() {
                self.define_global(&member.name, Global::Member(i as EnumId, m as u16));
                let payload = member.payload.as_ref().map(|(field, ty)| {
                    let t = self.resolve_type(ty, false);
                    if !matches!(t, Type::Enum(_) | Type::Error) || ty.optional {
                        self.error(
                            Code::TypeMismatch,
                            "a payload must be an enumeration",
                            ty.span,
                            "not an enumeration",
                            "a member like `named(suit: Suit)` stands for one value per suit",
                        );
                        return (field.name.clone(), Type::Error);
                    }
                    (field.name.clone(), t)
                });
                self.enums[i].members.push(MemberInfo {
                    name: member.name.name.clone(),
                    display: member.display.as_ref().map(|d| d.value.clone()),
                    payload,
                });
            }
        }
        self.check_payload_enums(parts);
        for e in 0..self.enums.len() {
            self.expand_enum_values(e);
        }
    }

    /// A payload's enumeration must be a plain one: not the enumeration itself, and without
    /// payloads of its own (its values are listed once, member by member).
    fn check_payload_enums(&mut self, parts: &Parts) {
        for (i, decl) in parts.enums.iter().enumerate() {
            for member in &decl.members {
                let Some((_, ty)) = &member.payload else { continue };
                let Some((_, Type::Enum(p))) =
                    self.enums[i].members.iter().find(|m| m.name == member.name.name).and_then(|m| m.payload.as_ref())
                else {
                    continue;
                };
                let p = *p as usize;
                let why = if p == i {
                    "the enumeration itself"
                } else if self.enums[p].members.iter().any(|m| m.payload.is_some()) {
                    "an enumeration with payloads"
                } else {
                    continue;
                };
                self.error(
                    Code::TypeMismatch,
                    format!("a payload cannot be {why}"),
                    ty.span,
                    format!("`{}` is {why}", self.enums[p].name),
                    "a payload is an enumeration whose members have no payload",
                );
            }
        }
    }

    /// Lays out every value of an enumeration: one per member, or one per payload value.
    fn expand_enum_values(&mut self, e: usize) {
        let mut values = Vec::new();
        for (m, member) in self.enums[e].members.iter().enumerate() {
            let shown = member.display.clone().unwrap_or_else(|| member.name.clone());
            match &member.payload {
                None => values.push(EnumValue { member: m as u16, payload: Value::None, display: shown }),
                Some((field, ty)) => {
                    for (payload, text) in self.payload_values(ty, e) {
                        let display = match &member.display {
                            Some(d) if d.contains(&format!("{{{field}}}")) => d.replace(&format!("{{{field}}}"), &text),
                            _ => format!("{shown} {text}"),
                        };
                        values.push(EnumValue { member: m as u16, payload, display });
                    }
                }
            }
        }
        self.enums[e].values = values;
    }

    /// The values of a payload's enumeration (checked to be another one, without payloads).
    fn payload_values(&self, ty: &Type, owner: usize) -> Vec<(Value, String)> {
        match ty {
            Type::Enum(p) if *p as usize != owner => self.enums[*p as usize]
                .members
                .iter()
                .enumerate()
                .map(|(i, m)| (Value::Enum(i as u16), m.display.clone().unwrap_or(m.name.clone())))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// A zone or variable `per side` needs sides to belong to.
    fn needs_sides(&mut self, owner: Option<ast::Owner>, span: Span) {
        if owner == Some(ast::Owner::Side) && self.sides.is_empty() {
            self.error(
                Code::Seating,
                "one per side, but the game declares no sides",
                span,
                "has no side to belong to",
                "declare the sides (`side NS \"North-South\" { North, South }`), or make it `per seat`",
            );
        }
    }

    pub(super) fn declare_zones(&mut self, parts: &Parts) {
        for decl in &parts.zones {
            self.needs_sides(decl.owner, decl.name.span);
            let id = self.zones.len() as ZoneId;
            self.define_global(&decl.name, Global::Zone(id));
            // `owner` on a shared zone is refused below, and counts as `everyone` meanwhile, so
            // that it is not reported again at every read of the zone.
            let audience = |a: Option<(Audience, Span)>| match a {
                Some((Audience::Owner, _)) if decl.owner.is_none() => Audience::Everyone,
                a => a.map_or(Audience::Everyone, |(a, _)| a),
            };
            self.zones.push(ZoneInfo {
                name: decl.name.name.clone(),
                display: decl.display.as_ref().map(|d| d.value.clone()),
                owner: decl.owner,
                see: audience(decl.see),
                count: audience(decl.count),
            });
            for (audience, span) in [decl.see, decl.count].into_iter().flatten() {
                if audience == Audience::Owner && decl.owner.is_none() {
                    self.error(
                        Code::Misplaced,
                        "a shared zone has no owner",
                        span,
                        "`owner` needs `per seat` or `per side`",
                        "write `zone NAME per seat { ... }`, or use `everyone` or `nobody`",
                    );
                }
            }
        }
    }

    /// Finds every phase name in the flow and in the replacement bodies, so `reset` can name them.
    pub(super) fn declare_phases(&mut self, parts: &Parts, changes: &Changes) {
        let mut names = Vec::new();
        for play in &parts.plays {
            collect_phases(&play.body, &mut names);
        }
        for r in &changes.replacements {
            collect_phases(r.body, &mut names);
        }
        for procedure in &parts.procedures {
            collect_phases(&procedure.body, &mut names);
        }
        for name in names {
            if !self.phases.iter().any(|p| p.name == name) {
                self.phases.push(PhaseInfo { name, title: None, of: None });
            }
        }
        for r in &changes.replacements {
            let (name, span, origin) = (r.phase.clone(), r.span, r.origin);
            if !self.phases.iter().any(|p| p.name == name) {
                let problem = Problem::new(
                    Code::UnknownTarget,
                    format!("no phase `{name}` to replace"),
                    span,
                    "no such phase in `play`",
                );
                let problem = self.phase_advice(problem, span, &name);
                let saved = self.origin.replace(origin);
                self.report(problem);
                self.origin = saved;
            }
        }
    }

    pub(super) fn phase_id(&self, name: &str) -> Option<PhaseId> {
        self.phases.iter().position(|p| p.name == name).map(|p| p as PhaseId)
    }

    pub(super) fn declare_functions(&mut self, parts: &Parts) {
        for decl in &parts.defines {
            let id = self.fn_sigs.len() as FnId;
            self.define_global(&decl.name, Global::Fn(id));
            let params = decl.params.iter().map(|(_, t)| self.param_type(t)).collect();
            let ret = self.resolve_type(&decl.ret, false);
            if decl.name.name == crate::engine::ESTIMATE && (params != [Type::Seat] || ret != Type::Int) {
                self.error(
                    Code::TypeMismatch,
                    "the bots' `estimate` must take one seat and be a number",
                    decl.name.span,
                    "the name the bots read their estimate from",
                    "write `define estimate(s: seat): int = ...`, how well seat `s` stands, or give the definition another name",
                );
            }
            self.fn_sigs.push(FnSig { params, ret });
            let placeholder = Expr { kind: ExprKind::Const(Value::None), span: decl.span };
            self.functions.push(FnInfo {
                name: decl.name.name.clone(),
                params: Vec::new(),
                piles: Vec::new(),
                body: placeholder,
                scope: 0..0,
                recursive: false,
                memo: decl.memo,
            });
        }
        self.declare_instances(&parts.defines);
    }

    /// Checks the body of each definition, and of each instance of one with `zone` parameters.
    pub(super) fn check_function_bodies(&mut self, parts: &Parts) {
        for (i, (d, zones)) in self.fn_origins.clone().into_iter().enumerate() {
            let decl = parts.defines[d];
            self.current_fn = Some(i as FnId);
            let sig = self.fn_sigs[i].clone();
            let first = self.slots as Slot;
            let mut piles = zones.iter().copied();
            self.functions[i].piles =
                sig.params.iter().map(|t| (*t == Type::Cards).then(|| piles.next()).flatten()).collect();
            let (slots, body) = self.scoped(|c| {
                let mut zones = zones.into_iter();
                let slots: Vec<Slot> = decl
                    .params
                    .iter()
                    .zip(&sig.params)
                    .map(|((name, _), t)| match t {
                        Type::Cards => c.bind_pile(&name.name, zones.next().unwrap_or(0)),
                        _ => c.bind(&name.name, t.clone(), false),
                    })
                    .collect();
                let body = c.expect(&decl.body, &sig.ret, "the definition's value");
                (slots, body)
            });
            self.functions[i].params = slots;
            self.functions[i].body = body;
            self.functions[i].scope = first..self.slots as Slot;
        }
        self.current_fn = None;
        for (f, _) in self.recursive_definitions() {
            self.functions[f as usize].recursive = true;
        }
    }

    pub(super) fn declare_vars(&mut self, parts: &Parts) {
        for decl in &parts.vars {
            let id = self.vars.len() as VarId;
            self.define_global(&decl.name, Global::Var(id));
            self.needs_sides(decl.owner, decl.name.span);
            let ty = self.resolve_type(&decl.ty, false);
            let reset = decl.reset.as_ref().and_then(|r| {
                let id = self.phase_id(&r.name);
                // Without a `play` block that is already reported, and there are no phases.
                if id.is_none() && !parts.plays.is_empty() {
                    let mut names: Vec<&str> = Vec::new();
                    if self.may_suggest(self.phases.len()) {
                        names.extend(self.phases.iter().map(|p| p.name.as_str()));
                    }
                    let problem = Problem::new(
                        Code::UnknownName,
                        format!("no phase `{}`", r.name),
                        r.span,
                        "not a phase of the flow",
                    );
                    self.report(match crate::diagnostic::did_you_mean(&r.name, names.iter().copied()) {
                        Some(s) => problem.did_you_mean(r.span, &r.name, s),
                        None if names.is_empty() => problem.help("`reset` names a `phase` of the flow, which has none"),
                        None => problem
                            .help(format!("`reset` names a `phase` of the flow; its phases are: {}", names.join(", "))),
                    });
                }
                id
            });
            let placeholder = Expr { kind: ExprKind::Const(Value::None), span: decl.init.span };
            self.vars.push(VarInfo {
                name: decl.name.name.clone(),
                ty,
                owner: decl.owner,
                init: placeholder,
                reset,
                span: decl.span,
            });
        }
    }

    /// Checks the initial values, once the pack exists (they may name cards).
    pub(super) fn check_var_inits(&mut self, parts: &Parts) {
        for (i, decl) in parts.vars.iter().enumerate() {
            let ty = self.vars[i].ty.clone();
            if !super::types::storable(&ty) && ty != Type::Error {
                self.error(
                    Code::TypeMismatch,
                    format!("a variable cannot hold {}", self.a_type(&ty)),
                    decl.ty.span,
                    "not a storable type",
                    "variables hold numbers, truth values, seats, sides, cards, enumeration values and sets",
                );
            }
            self.vars[i].init = self.expect(&decl.init, &ty, "the initial value");
        }
    }

    pub(super) fn check_result(&mut self, parts: &Parts) -> Option<ResultSpec> {
        let decl = parts.results.first()?;
        let (domain, elem) = self.seats_or_sides(
            &decl.domain,
            SeatsOrSides {
                not_them: "the result ranks seats or sides, not",
                write: "write `result highest s in seats by score[s]` or `... in sides by ...`",
                no_sides: "the result ranks sides, but the game declares none",
                or_seats: "rank the seats: `result highest s in seats by ...`",
            },
        );
        self.scoped(|c| {
            let slot = c.bind(&decl.binder.name, elem, false);
            let mut keys = Vec::with_capacity(1 + decl.ties.len());
            for expr in std::iter::once(&decl.key).chain(&decl.ties) {
                let (key, kty) = c.expr(expr);
                if !super::types::ordered(&kty) {
                    c.error(
                        Code::TypeMismatch,
                        format!("the result is ranked by {}, which has no order", c.a_type(&kty)),
                        expr.span,
                        "not a number",
                        "rank by a number such as chips or score",
                    );
                }
                keys.push(key);
            }
            // The table prints the standing by the key before every decision, and the tie-breaks
            // decide who wins: everyone may read them.
            c.refuse_hidden(keys.iter(), super::hidden::Reader::Public(super::hidden::RESULT));
            let key = keys.remove(0);
            Some(ResultSpec { extreme: decl.extreme, slot, domain, key, ties: keys })
        })
    }
}

/// The words of the problems of a domain that must be seats or sides.
pub(super) struct SeatsOrSides {
    /// The message before the type found ("the result ranks seats or sides, not").
    pub not_them: &'static str,
    /// The help for another type.
    pub write: &'static str,
    /// The message for sides in a game that has none.
    pub no_sides: &'static str,
    /// The help's advice to use the seats instead.
    pub or_seats: &'static str,
}

impl Checker {
    /// Checks a domain that must be seats or sides (a result's, a `solve`'s): the domain and its
    /// element type (`Type::Error` after a problem).
    pub(super) fn seats_or_sides(&mut self, domain: &ast::Expr, words: SeatsOrSides) -> (Expr, Type) {
        let (checked, dty) = self.expr(domain);
        let elem = super::types::element(&dty);
        if !matches!(elem, Some(Type::Seat | Type::Side | Type::Error)) {
            self.error(
                Code::TypeMismatch,
                format!("{} {}", words.not_them, self.a_type(&dty)),
                domain.span,
                "not seats or sides",
                words.write,
            );
        }
        if matches!(checked.kind, ExprKind::Sides) && self.sides.is_empty() {
            self.error(
                Code::Seating,
                words.no_sides,
                domain.span,
                "no sides",
                format!("declare the sides with `side NAME {{ SEATS }}`, or {}", words.or_seats),
            );
        }
        (checked, elem.unwrap_or(Type::Error))
    }
}

fn collect_phases(block: &ast::Block, names: &mut Vec<String>) {
    for stmt in &block.stmts {
        use ast::StmtKind::*;
        match &stmt.kind {
            Phase { name, body, .. } => {
                names.push(name.name.clone());
                collect_phases(body, names);
            }
            If { then, otherwise, .. } => {
                collect_phases(then, names);
                if let Some(b) = otherwise {
                    collect_phases(b, names);
                }
            }
            For { body, .. }
            | Repeat { body, .. }
            | RepeatUntil { body, .. }
            | While { body, .. }
            | Simultaneously { body, .. } => collect_phases(body, names),
            Choose(c) => {
                for tier in &c.tiers {
                    if let Some(b) = &tier.then {
                        collect_phases(b, names);
                    }
                }
            }
            _ => {}
        }
    }
}
