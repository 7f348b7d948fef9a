//! The layout of a file's declarations and statements.

use super::doc::{Doc, concat, group, indent, sp};
use super::{ARGUMENTS, BRACED, Layout, MEMBERS};
use crate::syntax::ast::*;

impl Layout<'_> {
    pub(super) fn file(&mut self, file: &File) -> Doc {
        let mut docs = Vec::new();
        match &file.body {
            FileBody::Rules(items) => {
                for (i, item) in items.iter().enumerate() {
                    docs.push(self.boundary(i == 0));
                    docs.push(self.item(item));
                }
                docs.push(self.closing_comments(!items.is_empty()));
            }
            FileBody::Scenario(scenario) => {
                docs.push(self.boundary(true));
                let scenario = self.scenario(scenario);
                docs.push(group(vec![scenario]));
                docs.push(self.closing_comments(true));
            }
        }
        concat(docs)
    }

    fn scenario(&mut self, scenario: &Scenario) -> Doc {
        let mut docs =
            vec![self.tok("scenario"), sp(), self.take(), sp(), self.tok("extends"), sp(), self.take(), sp()];
        docs.push(self.braced(scenario.items.len(), |l, i| l.variant_item(&scenario.items[i])));
        concat(docs)
    }

    fn item(&mut self, item: &Item) -> Doc {
        let doc = self.item_parts(item);
        group(vec![doc])
    }

    fn item_parts(&mut self, item: &Item) -> Doc {
        match item {
            Item::Game(_) => concat(vec![self.tok("game"), sp(), self.take()]),
            Item::Players(players) => self.players(players),
            Item::Seats(seats) => self.seats(seats),
            Item::Control(control) => concat(vec![
                self.tok("seat"),
                sp(),
                self.tok(&control.seat.name),
                sp(),
                self.tok("played"),
                sp(),
                self.tok("by"),
                sp(),
                self.tok(&control.by.name),
            ]),
            Item::Bottom(bottom) => concat(vec![
                self.tok("seat"),
                sp(),
                self.tok(&bottom.seat.name),
                sp(),
                self.tok("at"),
                sp(),
                self.tok("bottom"),
            ]),
            Item::Side(side) => self.side(side),
            Item::Param(param) => self.param(param),
            Item::Enum(decl) => self.enum_decl(decl),
            Item::Card(card) => self.card(card),
            Item::Deck(deck) => concat(vec![self.tok("deck"), sp(), self.block(&deck.body)]),
            Item::Zone(zone) => self.zone(zone),
            Item::Var(var) => self.var(var),
            Item::Define(define) => self.define(define),
            Item::Procedure(procedure) => {
                let mut docs = vec![self.tok("define"), sp(), self.tok(&procedure.name.name)];
                docs.push(self.params(&procedure.params));
                docs.extend([sp(), self.block(&procedure.body)]);
                concat(docs)
            }
            Item::Play(play) => concat(vec![self.tok("play"), sp(), self.block(&play.body)]),
            Item::Result(result) => concat(vec![
                self.tok("result"),
                sp(),
                self.take(),
                sp(),
                self.tok(&result.binder.name),
                sp(),
                self.tok("in"),
                sp(),
                self.inline(&result.domain),
                sp(),
                self.tok("by"),
                sp(),
                self.inline(&result.key),
                concat(
                    result
                        .ties
                        .iter()
                        .map(|tie| concat(vec![sp(), self.tok("then"), sp(), self.inline(tie)]))
                        .collect(),
                ),
            ]),
            Item::Solve(solve) => concat(vec![
                self.tok("solve"),
                sp(),
                self.tok(&solve.phase.name),
                sp(),
                self.tok("for"),
                sp(),
                self.tok(&solve.binder.name),
                sp(),
                self.tok("in"),
                sp(),
                self.inline(&solve.domain),
                sp(),
                self.tok("by"),
                sp(),
                self.inline(&solve.key),
            ]),
            Item::Show(show) => self.show(show),
            Item::Sheet(sheet) => group(vec![
                self.tok("sheet"),
                sp(),
                self.tok(&sheet.phase.name),
                sp(),
                self.tok("for"),
                sp(),
                self.tok(&sheet.binder.name),
                sp(),
                self.tok("in"),
                sp(),
                self.inline(&sheet.domain),
                sp(),
                self.take(),
            ]),
            Item::Variant(variant) => self.variant(variant),
        }
    }

    fn players(&mut self, players: &PlayersDecl) -> Doc {
        let mut docs = vec![self.tok("players"), sp(), self.take()];
        if players.range.is_some() {
            docs.extend([self.tok(".."), self.take(), sp(), self.tok("default"), sp(), self.take()]);
        }
        concat(docs)
    }

    fn seats(&mut self, seats: &SeatsDecl) -> Doc {
        let head = self.tok("seats");
        let mut items = Vec::new();
        for (i, seat) in seats.seats.iter().enumerate() {
            if i > 0 {
                items.push(Doc::Line);
            }
            let mut docs = vec![self.named(seat)];
            if i + 1 < seats.seats.len() {
                docs.push(self.tok(","));
            }
            items.push(concat(docs));
        }
        group(vec![head, sp(), indent(vec![Doc::Fill(items)])])
    }

    fn named(&mut self, named: &Named) -> Doc {
        let mut docs = vec![self.tok(&named.name.name)];
        if named.display.is_some() {
            docs.extend([sp(), self.take()]);
        }
        concat(docs)
    }

    fn side(&mut self, side: &SideDecl) -> Doc {
        let mut docs = vec![self.tok("side"), sp(), self.tok(&side.name.name), sp()];
        if side.display.is_some() {
            docs.extend([self.take(), sp()]);
        }
        docs.push(self.listed(BRACED, side.seats.len(), |l, i| l.tok(&side.seats[i].name)));
        concat(docs)
    }

    fn param(&mut self, param: &ParamDecl) -> Doc {
        let mut docs = vec![
            self.tok("param"),
            sp(),
            self.tok(&param.name.name),
            self.tok(":"),
            sp(),
            self.type_expr(&param.ty),
            sp(),
            self.tok("="),
            sp(),
            self.compact(param.default.span),
        ];
        if let Some((_, high)) = param.range {
            docs.extend([sp(), self.tok("in"), sp(), self.compact(high.span)]);
        }
        if param.doc.is_some() {
            docs.extend([sp(), self.take()]);
        }
        concat(docs)
    }

    fn enum_decl(&mut self, decl: &EnumDecl) -> Doc {
        let mut docs = vec![self.tok("enum"), sp(), self.tok(&decl.name.name), sp()];
        docs.push(self.listed(MEMBERS, decl.members.len(), |l, i| l.enum_member(&decl.members[i])));
        concat(docs)
    }

    fn enum_member(&mut self, member: &EnumMember) -> Doc {
        let mut docs = vec![self.tok(&member.name.name)];
        if let Some((name, ty)) = &member.payload {
            docs.extend([self.tok("("), self.tok(&name.name), self.tok(":"), sp(), self.type_expr(ty), self.tok(")")]);
        }
        if member.display.is_some() {
            docs.extend([sp(), self.take()]);
        }
        concat(docs)
    }

    fn card(&mut self, card: &CardDecl) -> Doc {
        // The name line may stand anywhere among the attributes: keep the written order.
        let mut parts: Vec<(usize, Option<&CardField>)> = card.fields.iter().map(|f| (f.span.start, Some(f))).collect();
        if let Some(name) = &card.name {
            parts.push((name.span.start, None));
        }
        parts.sort_by_key(|(start, _)| *start);
        let head = self.tok("card");
        let body = self.braced(parts.len(), |l, i| match parts[i].1 {
            Some(field) => l.card_field(field),
            None => concat(vec![l.tok("name"), sp(), l.take()]),
        });
        concat(vec![head, sp(), body])
    }

    fn card_field(&mut self, field: &CardField) -> Doc {
        let mut docs = vec![self.tok(&field.name.name), self.tok(":"), sp(), self.type_expr(&field.ty)];
        if let Some(derived) = &field.derived {
            docs.extend([sp(), self.tok("="), self.value(derived)]);
        }
        group(docs)
    }

    fn zone(&mut self, zone: &ZoneDecl) -> Doc {
        let mut docs = vec![self.tok("zone"), sp(), self.tok(&zone.name.name)];
        if zone.owner.is_some() {
            docs.extend([sp(), self.owner()]);
        }
        if zone.display.is_some() {
            docs.extend([sp(), self.take()]);
        }
        if self.peek() == "{" {
            let mut props: Vec<Span> = zone.see.iter().chain(&zone.count).map(|(_, span)| *span).collect();
            props.sort_by_key(|s| s.start);
            docs.push(sp());
            if props.is_empty() {
                docs.extend([self.tok("{"), self.tok("}")]);
            } else {
                docs.push(self.tok("{"));
                for _ in &props {
                    docs.extend([sp(), self.take(), self.tok(":"), sp(), self.take()]);
                }
                docs.extend([sp(), self.tok("}")]);
            }
        }
        concat(docs)
    }

    /// `per seat` or `per side`.
    fn owner(&mut self) -> Doc {
        concat(vec![self.tok("per"), sp(), self.take()])
    }

    fn var(&mut self, var: &VarDecl) -> Doc {
        let mut docs =
            vec![self.tok("var"), sp(), self.tok(&var.name.name), self.tok(":"), sp(), self.type_expr(&var.ty)];
        if var.owner.is_some() {
            docs.extend([sp(), self.owner()]);
        }
        docs.extend([sp(), self.tok("="), self.value(&var.init)]);
        if let Some(phase) = &var.reset {
            docs.extend([sp(), self.tok("reset"), sp(), self.tok(&phase.name)]);
        }
        group(docs)
    }

    fn define(&mut self, define: &DefineDecl) -> Doc {
        let mut docs = vec![self.tok("define"), sp(), self.tok(&define.name.name)];
        docs.extend([self.params(&define.params), self.tok(":"), sp(), self.type_expr(&define.ret), sp()]);
        if define.memo {
            docs.extend([self.tok("memo"), sp()]);
        }
        docs.push(self.tok("="));
        docs.push(self.value(&define.body));
        group(docs)
    }

    /// The parameters of a definition or a procedure, in brackets.
    fn params(&mut self, params: &[(Ident, TypeExpr)]) -> Doc {
        self.listed(ARGUMENTS, params.len(), |l, i| {
            let (name, ty) = &params[i];
            concat(vec![l.tok(&name.name), l.tok(":"), sp(), l.type_expr(ty)])
        })
    }

    fn show(&mut self, show: &ShowDecl) -> Doc {
        let mut docs = vec![self.tok("show"), sp()];
        if let Some(each) = &show.each {
            docs.extend([self.tok("for"), sp(), self.binding(each), sp()]);
        }
        docs.push(self.take());
        if let Some(when) = &show.when {
            docs.extend([sp(), self.tok("when"), sp(), self.inline(when)]);
        }
        group(docs)
    }

    fn variant(&mut self, variant: &VariantDecl) -> Doc {
        let mut docs = vec![self.tok("variant"), sp(), self.tok(&variant.name.name), sp()];
        if variant.doc.is_some() {
            docs.extend([self.take(), sp()]);
        }
        docs.push(self.braced(variant.items.len(), |l, i| l.variant_item(&variant.items[i])));
        concat(docs)
    }

    fn variant_item(&mut self, item: &VariantItem) -> Doc {
        let doc = match item {
            VariantItem::Set { name, value, .. } => concat(vec![
                self.tok("set"),
                sp(),
                self.tok(&name.name),
                sp(),
                self.tok("="),
                sp(),
                self.compact(value.span),
            ]),
            VariantItem::Replace { phase, body, .. } => concat(vec![
                self.tok("replace"),
                sp(),
                self.tok("phase"),
                sp(),
                self.tok(&phase.name),
                sp(),
                self.block(body),
            ]),
        };
        group(vec![doc])
    }

    pub(super) fn type_expr(&mut self, ty: &TypeExpr) -> Doc {
        let mut docs = match &ty.kind {
            // `0..10` and `0..10?` are written without spaces.
            TypeKind::Range(..) => return self.compact(ty.span),
            TypeKind::Named(name) => vec![self.tok(&name.name)],
            TypeKind::Card => vec![self.tok("card")],
            TypeKind::Zone => vec![self.tok("zone")],
            TypeKind::SetOf(element) => vec![self.tok("set"), sp(), self.tok("of"), sp(), self.type_expr(element)],
        };
        if ty.optional {
            docs.push(self.tok("?"));
        }
        concat(docs)
    }

    // ------------------------------------------------------------------ statements

    pub(super) fn block(&mut self, block: &Block) -> Doc {
        self.braced(block.stmts.len(), |l, i| l.stmt(&block.stmts[i]))
    }

    /// A statement: a group, so that a block written on one line stays so only if the whole
    /// statement fits.
    fn stmt(&mut self, stmt: &Stmt) -> Doc {
        let doc = self.stmt_parts(stmt);
        group(vec![doc])
    }

    fn stmt_parts(&mut self, stmt: &Stmt) -> Doc {
        match &stmt.kind {
            StmtKind::Let { name, ty, value } => {
                let mut docs = vec![self.tok("let"), sp(), self.tok(&name.name)];
                if let Some(ty) = ty {
                    docs.extend([self.tok(":"), sp(), self.type_expr(ty)]);
                }
                docs.extend([sp(), self.tok("="), self.rhs(value)]);
                group(docs)
            }
            StmtKind::Assign { target, value, .. } => {
                let mut docs = vec![self.tok(&target.name.name)];
                if let Some(index) = &target.index {
                    docs.extend([self.tok("["), self.inline(index), self.tok("]")]);
                }
                docs.extend([sp(), self.take(), self.rhs(value)]);
                group(docs)
            }
            StmtKind::If { cond, then, otherwise } => self.if_stmt(cond, then, otherwise.as_ref()),
            StmtKind::For { bindings, body } => {
                let mut docs = vec![self.tok("for"), sp()];
                for (i, binding) in bindings.iter().enumerate() {
                    if i > 0 {
                        docs.extend([self.tok(","), sp()]);
                    }
                    docs.push(self.binding(binding));
                }
                docs.extend([sp(), self.block(body)]);
                concat(docs)
            }
            StmtKind::Repeat { count, body } => {
                concat(vec![self.tok("repeat"), sp(), self.inline(count), sp(), self.block(body)])
            }
            StmtKind::RepeatUntil { cond, body } => concat(vec![
                self.tok("repeat"),
                sp(),
                self.tok("until"),
                sp(),
                self.inline(cond),
                sp(),
                self.block(body),
            ]),
            StmtKind::While { cond, body } => {
                concat(vec![self.tok("while"), sp(), self.inline(cond), sp(), self.block(body)])
            }
            StmtKind::Phase { name, title, body } => {
                let mut docs = vec![self.tok("phase"), sp(), self.tok(&name.name), sp()];
                if let Some(title) = title {
                    docs.extend([self.take(), sp()]);
                    if let Some(of) = &title.of {
                        docs.extend([self.tok("of"), sp(), self.inline(of), sp()]);
                    }
                }
                docs.push(self.block(body));
                concat(docs)
            }
            StmtKind::Choose(choose) => self.choose(choose),
            StmtKind::Simultaneously { binding, body } => concat(vec![
                self.tok("simultaneously"),
                sp(),
                self.tok("for"),
                sp(),
                self.binding(binding),
                sp(),
                self.block(body),
            ]),
            StmtKind::Move { random, cards, to } => {
                let mut docs = vec![self.tok("move"), sp()];
                if let Some(count) = random {
                    docs.extend([self.tok("random"), sp(), self.inline(count), sp(), self.tok("of"), sp()]);
                }
                docs.extend([self.inline(cards), Doc::Line, self.tok("to"), sp(), self.inline(to)]);
                group(vec![indent(docs)])
            }
            StmtKind::Shuffle { zone } => concat(vec![self.tok("shuffle"), sp(), self.inline(zone)]),
            StmtKind::Deal { count, from, to, starting } => {
                let mut docs = vec![self.tok("deal"), sp()];
                match count {
                    Some(count) => docs.extend([self.inline(count), sp(), self.tok("each")]),
                    None => docs.push(self.tok("all")),
                }
                docs.extend([sp(), self.tok("from"), sp(), self.inline(from), sp(), self.tok("to"), sp()]);
                docs.push(self.tok(&to.name));
                if let Some(starting) = starting {
                    docs.extend([sp(), self.tok("starting"), sp(), self.inline(starting)]);
                }
                group(docs)
            }
            StmtKind::Say { .. } => concat(vec![self.tok("say"), sp(), self.take()]),
            StmtKind::Reveal { cards } => concat(vec![self.tok("reveal"), sp(), self.inline(cards)]),
            StmtKind::Redo { phase } => concat(vec![self.tok("redo"), sp(), self.tok(&phase.name)]),
            StmtKind::End { phase } => concat(vec![self.tok("end"), sp(), self.tok(&phase.name)]),
            StmtKind::Call { func, args } => {
                let name = self.tok(&func.name);
                concat(vec![name, self.listed(ARGUMENTS, args.len(), |l, i| l.inline(&args[i]))])
            }
            StmtKind::MakeCard { fields } => {
                let head = self.tok("card");
                let body = self.listed(BRACED, fields.len(), |l, i| {
                    let (name, value) = &fields[i];
                    match value {
                        Some(value) => concat(vec![l.tok(&name.name), l.tok(":"), sp(), l.inline(value)]),
                        None => l.tok(&name.name),
                    }
                });
                concat(vec![head, sp(), body])
            }
        }
    }

    /// The right-hand side of `let` and assignments, after the `=`.
    fn rhs(&mut self, rhs: &Rhs) -> Doc {
        match rhs {
            Rhs::Expr(expr) => self.value(expr),
            Rhs::Random(binding) => {
                let docs = vec![Doc::Line, self.tok("random"), sp(), self.binding(binding)];
                indent(docs)
            }
        }
    }

    fn if_stmt(&mut self, cond: &Expr, then: &Block, otherwise: Option<&Block>) -> Doc {
        let mut docs = vec![self.tok("if"), sp(), self.inline(cond), sp(), self.block(then)];
        let Some(otherwise) = otherwise else { return concat(docs) };
        docs.extend([sp(), self.tok("else"), sp()]);
        match otherwise.stmts.as_slice() {
            [Stmt { kind: StmtKind::If { cond, then, otherwise }, .. }] if self.peek() == "if" => {
                docs.push(self.if_stmt(cond, then, otherwise.as_ref()));
            }
            _ => docs.push(self.block(otherwise)),
        }
        concat(docs)
    }

    /// `x in DOMAIN [from START] [where FILTER]`
    pub(super) fn binding(&mut self, binding: &Binding) -> Doc {
        let mut docs = vec![self.tok(&binding.name.name), sp(), self.tok("in"), sp(), self.inline(&binding.domain)];
        let mut tail = Vec::new();
        if let Some(start) = &binding.start {
            tail.extend([Doc::Line, self.tok("from"), sp(), self.inline(start)]);
        }
        if let Some(filter) = &binding.filter {
            tail.extend([Doc::Line, self.tok("where"), sp(), self.inline(filter)]);
        }
        docs.push(indent(tail));
        group(docs)
    }

    /// `choose c from ZONE by SEAT` and its tiers, declaration and label: on one line only if
    /// written so and short enough, otherwise a part per line.
    fn choose(&mut self, choose: &Choose) -> Doc {
        let one_line = self.on_one_line(choose.span);
        let mut head = vec![self.tok("choose"), sp()];
        if let Some(size) = &choose.group {
            if let Some(size) = size {
                head.extend([self.inline(size), sp()]);
            }
            head.extend([self.tok("cards"), sp()]);
        }
        head.extend([self.tok(&choose.name.name), sp(), self.tok("from"), sp()]);
        for (i, domain) in choose.domains.iter().enumerate() {
            if i > 0 {
                head.extend([self.tok(","), sp()]);
            }
            head.push(self.inline(domain));
        }
        if let Some((name, list)) = &choose.menu {
            head.extend([sp(), self.tok("or"), sp(), self.tok(&name.name), sp(), self.tok("from"), sp()]);
            head.push(self.inline(list));
        }
        head.extend([sp(), self.tok("by"), sp(), self.inline(&choose.by)]);
        let mut parts = Vec::new();
        for tier in &choose.tiers {
            let mut docs = vec![self.take(), sp()];
            match &tier.cond {
                Some(cond) => docs.push(self.inline(cond)),
                None => docs.push(self.tok("any")),
            }
            if let Some(then) = &tier.then {
                docs.extend([sp(), self.tok("then"), sp(), self.block(then)]);
            }
            parts.extend([Doc::Line, group(docs)]);
        }
        if let Some(declare) = &choose.declare {
            parts.extend([Doc::Line, self.tok("declare"), sp(), self.tok(&declare.name.name), sp()]);
            parts.extend([self.tok("when"), sp(), self.inline(&declare.when)]);
        }
        if choose.label.is_some() {
            parts.extend([Doc::Line, self.tok("as"), sp(), self.take()]);
        }
        let docs = vec![concat(head), indent(parts)];
        if one_line { group(docs) } else { super::doc::broken(docs) }
    }
}
