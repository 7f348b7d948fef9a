//! What every name in a rule file (and a scenario with the rule file it extends) stands for:
//! the declared things and each place a name refers to one, read from the syntax tree with the
//! language's scopes (a `let` until the end of its block, a loop's name in its body, a
//! definition's parameters in its body, card attributes after `.`).

use crate::syntax::ast::*;
use std::collections::HashMap;

/// What kind of thing a name stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Parameter,
    Seat,
    Side,
    Enum,
    Member,
    Attribute,
    /// The field of an enumeration member's payload (`suit` of `named(suit: Suit)`).
    PayloadField,
    Zone,
    Variable,
    Definition,
    Phase,
    Variant,
    /// A `let`, a loop or aggregate name, a choice, a declaration, a definition's parameter.
    Local,
    /// A name every rule file may use: a built-in function, value or type.
    Builtin,
}

impl Kind {
    pub(super) fn words(self) -> &'static str {
        match self {
            Kind::Parameter => "parameter",
            Kind::Seat => "seat",
            Kind::Side => "side",
            Kind::Enum => "enumeration",
            Kind::Member => "enumeration member",
            Kind::Attribute => "card attribute",
            Kind::PayloadField => "payload field",
            Kind::Zone => "zone",
            Kind::Variable => "variable",
            Kind::Definition => "definition",
            Kind::Phase => "phase",
            Kind::Variant => "variant",
            Kind::Local => "local name",
            Kind::Builtin => "built-in",
        }
    }
}

/// Which of the texts read a place is in: 0 is the rule file, 1 the scenario extending it.
pub(super) type FileId = usize;

/// A place in one of the texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Site {
    pub file: FileId,
    pub span: Span,
}

/// A declared thing.
#[derive(Clone, Debug)]
pub(super) struct Symbol {
    pub name: String,
    pub kind: Kind,
    /// Where its name is declared (`None` for a built-in).
    pub site: Option<Site>,
    /// The whole declaration, whose first line says what it is.
    pub declaration: Span,
    /// What it belongs to: the enumeration of a member, the definition of a parameter.
    pub owner: Option<String>,
    /// The description string of a parameter, variant, enumeration member or seat.
    pub doc: Option<String>,
}

/// One place where a name refers to a symbol (its declaration too).
#[derive(Clone, Copy, Debug)]
pub(super) struct Reference {
    pub site: Site,
    pub symbol: usize,
    pub declaration: bool,
}

/// The symbols of a rule file (and scenario) and every reference to them.
#[derive(Default, Debug)]
pub(super) struct Index {
    pub symbols: Vec<Symbol>,
    pub references: Vec<Reference>,
    globals: HashMap<String, usize>,
    attributes: HashMap<String, usize>,
    payload_fields: HashMap<String, usize>,
    phases: HashMap<String, usize>,
    builtins: HashMap<String, usize>,
}

/// Built-in types, which type expressions may name.
const BUILTIN_TYPES: [&str; 5] = ["int", "bool", "seat", "side", "card"];

impl Index {
    /// Reads the rule file's declarations (file 0) and the scenario (file 1), if there is one.
    pub(super) fn build(items: &[Item], scenario: Option<&Scenario>) -> Index {
        let mut index = Index::default();
        index.declare_globals(items);
        let mut walker = Walker { index: &mut index, scopes: Vec::new(), file: 0 };
        for item in items {
            walker.item(item);
        }
        if let Some(scenario) = scenario {
            walker.file = 1;
            for item in &scenario.items {
                walker.variant_item(item);
            }
        }
        index
    }

    /// The reference (or declaration) at a byte offset of a file.
    pub(super) fn at(&self, file: FileId, offset: usize) -> Option<&Reference> {
        self.references
            .iter()
            .filter(|r| r.site.file == file && r.site.span.start <= offset && offset <= r.site.span.end)
            .min_by_key(|r| r.site.span.len())
    }

    /// Every reference to a symbol, its declaration first.
    pub(super) fn references_to(&self, symbol: usize) -> impl Iterator<Item = &Reference> {
        let mut found: Vec<&Reference> = self.references.iter().filter(|r| r.symbol == symbol).collect();
        found.sort_by_key(|r| (!r.declaration, r.site.file, r.site.span.start));
        found.into_iter()
    }

    /// The symbol declared at a site.
    pub(super) fn declared_at(&self, site: Site) -> Option<usize> {
        self.symbols.iter().position(|s| s.site == Some(site))
    }

    /// The global names: parameters, seats, sides, enumerations and their members, zones,
    /// variables and definitions.
    pub(super) fn global_names(&self) -> impl Iterator<Item = &Symbol> {
        self.globals.values().map(|&i| &self.symbols[i])
    }

    pub(super) fn attribute_names(&self) -> impl Iterator<Item = &Symbol> {
        self.attributes.values().chain(self.payload_fields.values()).map(|&i| &self.symbols[i])
    }

    pub(super) fn phase_names(&self) -> impl Iterator<Item = &Symbol> {
        self.phases.values().map(|&i| &self.symbols[i])
    }

    pub(super) fn symbols_of(&self, kind: Kind) -> impl Iterator<Item = &Symbol> {
        self.symbols.iter().filter(move |s| s.kind == kind)
    }

    fn add(&mut self, symbol: Symbol) -> usize {
        self.symbols.push(symbol);
        let id = self.symbols.len() - 1;
        if let Some(site) = self.symbols[id].site {
            self.references.push(Reference { site, symbol: id, declaration: true });
        }
        id
    }

    fn declare(&mut self, kind: Kind, name: &Ident, declaration: Span, owner: Option<&str>, doc: Option<&StrLit>) {
        let symbol = Symbol {
            name: name.name.clone(),
            kind,
            site: Some(Site { file: 0, span: name.span }),
            declaration,
            owner: owner.map(str::to_string),
            doc: doc.map(|d| d.value.clone()),
        };
        let id = self.add(symbol);
        let table = match kind {
            Kind::Attribute => &mut self.attributes,
            Kind::PayloadField => &mut self.payload_fields,
            Kind::Phase => &mut self.phases,
            Kind::Variant => return,
            _ => &mut self.globals,
        };
        table.entry(name.name.clone()).or_insert(id);
    }

    fn declare_globals(&mut self, items: &[Item]) {
        let has_seats = items.iter().any(|i| matches!(i, Item::Seats(_)));
        for item in items {
            match item {
                Item::Players(players) if !has_seats => self.implicit_seats(players),
                Item::Seats(seats) => {
                    for seat in &seats.seats {
                        self.declare(Kind::Seat, &seat.name, seat.span, None, seat.display.as_ref());
                    }
                }
                Item::Side(side) => self.declare(Kind::Side, &side.name, side.span, None, side.display.as_ref()),
                Item::Param(param) => {
                    let declaration =
                        Span::new(param.span.start, param.doc.as_ref().map_or(param.span.end, |d| d.span.start));
                    self.declare(Kind::Parameter, &param.name, declaration, None, param.doc.as_ref());
                }
                Item::Enum(decl) => {
                    self.declare(Kind::Enum, &decl.name, decl.span, None, None);
                    for member in &decl.members {
                        self.declare(
                            Kind::Member,
                            &member.name,
                            member.span,
                            Some(&decl.name.name),
                            member.display.as_ref(),
                        );
                        if let Some((field, _)) = &member.payload {
                            self.declare(Kind::PayloadField, field, member.span, Some(&member.name.name), None);
                        }
                    }
                }
                Item::Card(card) => {
                    for field in &card.fields {
                        self.declare(Kind::Attribute, &field.name, field.span, None, None);
                    }
                }
                Item::Zone(zone) => self.declare(Kind::Zone, &zone.name, zone.span, None, None),
                Item::Var(var) => self.declare(Kind::Variable, &var.name, var.span, None, None),
                Item::Define(define) => {
                    let declaration = Span::new(define.span.start, define.ret.span.end);
                    self.declare(Kind::Definition, &define.name, declaration, None, None);
                }
                Item::Procedure(procedure) => {
                    let declaration = Span::new(procedure.span.start, procedure.body.span.start);
                    self.declare(Kind::Definition, &procedure.name, declaration, None, None);
                    self.declare_phases(&procedure.body);
                }
                Item::Variant(variant) => {
                    self.declare(Kind::Variant, &variant.name, variant.span, None, variant.doc.as_ref());
                    for item in &variant.items {
                        if let VariantItem::Replace { body, .. } = item {
                            self.declare_phases(body);
                        }
                    }
                }
                Item::Play(play) => self.declare_phases(&play.body),
                _ => {}
            }
        }
    }

    /// `P1`, `P2`, ...: the seats of a file without a `seats` line, declared by `players`.
    fn implicit_seats(&mut self, players: &PlayersDecl) {
        let count = players.range.map_or(players.min.value, |(max, _)| max.value).clamp(0, 64);
        for n in 1..=count {
            let symbol = Symbol {
                name: format!("P{n}"),
                kind: Kind::Seat,
                site: None,
                declaration: players.span,
                owner: None,
                doc: Some("a seat named by `players` (the file has no `seats` line)".into()),
            };
            let id = self.add(symbol);
            self.globals.insert(format!("P{n}"), id);
        }
    }

    /// The phases declared in a block, at any depth.
    fn declare_phases(&mut self, block: &Block) {
        let mut blocks = vec![block];
        while let Some(block) = blocks.pop() {
            for stmt in &block.stmts {
                if let StmtKind::Phase { name, .. } = &stmt.kind {
                    self.declare(Kind::Phase, name, stmt.span, None, None);
                }
                blocks.extend(inner_blocks(&stmt.kind));
            }
        }
    }

    /// A built-in's symbol, made the first time it is referred to.
    fn builtin(&mut self, name: &str) -> Option<usize> {
        if !super::builtins::is_builtin(name) {
            return None;
        }
        if let Some(&id) = self.builtins.get(name) {
            return Some(id);
        }
        let symbol = Symbol {
            name: name.to_string(),
            kind: Kind::Builtin,
            site: None,
            declaration: Span::default(),
            owner: None,
            doc: None,
        };
        let id = self.add(symbol);
        self.builtins.insert(name.to_string(), id);
        Some(id)
    }
}

/// The blocks directly inside a statement.
fn inner_blocks(kind: &StmtKind) -> Vec<&Block> {
    match kind {
        StmtKind::If { then, otherwise, .. } => std::iter::once(then).chain(otherwise).collect(),
        StmtKind::For { body, .. }
        | StmtKind::Repeat { body, .. }
        | StmtKind::RepeatUntil { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::Phase { body, .. }
        | StmtKind::Simultaneously { body, .. } => vec![body],
        StmtKind::Choose(choose) => choose.tiers.iter().filter_map(|t| t.then.as_ref()).collect(),
        _ => Vec::new(),
    }
}

/// Walks the syntax tree with the local names in scope, recording what each name refers to.
struct Walker<'i> {
    index: &'i mut Index,
    /// The local names in scope, innermost last.
    scopes: Vec<(String, usize)>,
    file: FileId,
}

impl Walker<'_> {
    fn refer(&mut self, ident: &Ident, symbol: Option<usize>) {
        if let Some(symbol) = symbol {
            let site = Site { file: self.file, span: ident.span };
            self.index.references.push(Reference { site, symbol, declaration: false });
        }
    }

    /// A name in an expression: a local, a global, or a built-in.
    fn name(&mut self, ident: &Ident) {
        let local = self.scopes.iter().rev().find(|(n, _)| *n == ident.name).map(|(_, s)| *s);
        let symbol =
            local.or_else(|| self.index.globals.get(&ident.name).copied()).or_else(|| self.index.builtin(&ident.name));
        self.refer(ident, symbol);
    }

    fn phase(&mut self, ident: &Ident) {
        let symbol = self.index.phases.get(&ident.name).copied();
        self.refer(ident, symbol);
    }

    fn attribute(&mut self, ident: &Ident) {
        let symbol =
            self.index.attributes.get(&ident.name).or_else(|| self.index.payload_fields.get(&ident.name)).copied();
        self.refer(ident, symbol);
    }

    /// Declares a local name; it is in scope until the scope it was declared in ends.
    fn local(&mut self, ident: &Ident, declaration: Span, owner: Option<&str>) {
        let symbol = Symbol {
            name: ident.name.clone(),
            kind: Kind::Local,
            site: Some(Site { file: self.file, span: ident.span }),
            declaration,
            owner: owner.map(str::to_string),
            doc: None,
        };
        let id = self.index.add(symbol);
        self.scopes.push((ident.name.clone(), id));
    }

    fn scoped(&mut self, f: impl FnOnce(&mut Self)) {
        let mark = self.scopes.len();
        f(self);
        self.scopes.truncate(mark);
    }

    fn item(&mut self, item: &Item) {
        match item {
            Item::Control(control) => {
                self.name(&control.seat);
                self.name(&control.by);
            }
            Item::Bottom(bottom) => self.name(&bottom.seat),
            Item::Side(side) => side.seats.iter().for_each(|s| self.name(s)),
            Item::Param(param) => {
                self.type_expr(&param.ty);
                self.literal(&param.default);
            }
            Item::Enum(decl) => {
                for member in &decl.members {
                    if let Some((_, ty)) = &member.payload {
                        self.type_expr(ty);
                    }
                }
            }
            Item::Card(card) => self.scoped(|w| {
                // Derived attributes and the card's name read the other attributes by name.
                for field in &card.fields {
                    if let Some(&id) = w.index.attributes.get(&field.name.name) {
                        w.scopes.push((field.name.name.clone(), id));
                    }
                }
                for field in &card.fields {
                    w.type_expr(&field.ty);
                    if let Some(derived) = &field.derived {
                        w.expr(derived);
                    }
                }
                if let Some(name) = &card.name {
                    w.template(name);
                }
            }),
            Item::Deck(deck) => self.block(&deck.body),
            Item::Var(var) => {
                self.type_expr(&var.ty);
                self.expr(&var.init);
                if let Some(phase) = &var.reset {
                    self.phase(phase);
                }
            }
            Item::Define(define) => self.scoped(|w| {
                for (name, ty) in &define.params {
                    w.type_expr(ty);
                    w.local(name, name.span.to(ty.span), Some(&define.name.name));
                }
                w.type_expr(&define.ret);
                w.expr(&define.body);
            }),
            Item::Procedure(procedure) => self.scoped(|w| {
                for (name, ty) in &procedure.params {
                    w.type_expr(ty);
                    w.local(name, name.span.to(ty.span), Some(&procedure.name.name));
                }
                w.block(&procedure.body);
            }),
            Item::Play(play) => self.block(&play.body),
            Item::Result(result) => self.scoped(|w| {
                w.expr(&result.domain);
                w.local(&result.binder, result.span, None);
                w.expr(&result.key);
            }),
            Item::Solve(solve) => self.scoped(|w| {
                w.expr(&solve.domain);
                w.local(&solve.binder, solve.span, None);
                w.expr(&solve.key);
            }),
            Item::Show(show) => self.scoped(|w| {
                if let Some(each) = &show.each {
                    w.binding(each);
                }
                w.template(&show.text);
                if let Some(when) = &show.when {
                    w.expr(when);
                }
            }),
            Item::Sheet(sheet) => self.scoped(|w| {
                w.expr(&sheet.domain);
                w.local(&sheet.binder, sheet.span, None);
                w.template(&sheet.text);
            }),
            Item::Variant(variant) => variant.items.iter().for_each(|i| self.variant_item(i)),
            Item::Game(_) | Item::Players(_) | Item::Seats(_) | Item::Zone(_) => {}
        }
    }

    fn variant_item(&mut self, item: &VariantItem) {
        match item {
            VariantItem::Set { name, value, .. } => {
                let symbol = self
                    .index
                    .globals
                    .get(&name.name)
                    .copied()
                    .filter(|&s| self.index.symbols[s].kind == Kind::Parameter);
                self.refer(name, symbol);
                self.literal(value);
            }
            VariantItem::Replace { phase, body, .. } => {
                self.phase(phase);
                self.block(body);
            }
        }
    }

    /// A parameter value: a name in it is an enumeration member.
    fn literal(&mut self, literal: &Literal) {
        if let LiteralKind::Name(name) = &literal.kind {
            self.name(&Ident { name: name.clone(), span: literal.span });
        }
    }

    fn type_expr(&mut self, ty: &TypeExpr) {
        match &ty.kind {
            TypeKind::Named(name) if BUILTIN_TYPES.contains(&name.name.as_str()) => {
                let symbol = self.index.builtin(&name.name);
                self.refer(name, symbol);
            }
            TypeKind::Named(name) => {
                let symbol =
                    self.index.globals.get(&name.name).copied().filter(|&s| self.index.symbols[s].kind == Kind::Enum);
                self.refer(name, symbol);
            }
            TypeKind::SetOf(element) => self.type_expr(element),
            TypeKind::Card | TypeKind::Zone | TypeKind::Range(..) => {}
        }
    }

    fn block(&mut self, block: &Block) {
        self.scoped(|w| block.stmts.iter().for_each(|s| w.stmt(s)));
    }

    fn stmt(&mut self, stmt: &Stmt) {
        match &stmt.kind {
            StmtKind::Let { name, value, .. } => {
                self.rhs(value);
                self.local(name, stmt.span, None);
            }
            StmtKind::Assign { target, value, .. } => {
                self.name(&target.name);
                if let Some(index) = &target.index {
                    self.expr(index);
                }
                self.rhs(value);
            }
            StmtKind::If { cond, then, otherwise } => {
                self.expr(cond);
                self.block(then);
                if let Some(otherwise) = otherwise {
                    self.block(otherwise);
                }
            }
            StmtKind::For { bindings, body } => self.scoped(|w| {
                bindings.iter().for_each(|b| w.binding(b));
                w.block(body);
            }),
            StmtKind::Repeat { count: cond, body }
            | StmtKind::RepeatUntil { cond, body }
            | StmtKind::While { cond, body } => {
                self.expr(cond);
                self.block(body);
            }
            StmtKind::Phase { name, title, body } => {
                if let Some(of) = title.as_ref().and_then(|t| t.of.as_ref()) {
                    self.expr(of);
                }
                // A phase of the rule file is declared here; one in a scenario replaces it.
                if self.file == 1 {
                    self.phase(name);
                }
                self.block(body);
            }
            StmtKind::Choose(choose) => self.choose(choose, stmt.span),
            StmtKind::Simultaneously { binding, body } => self.scoped(|w| {
                w.binding(binding);
                w.block(body);
            }),
            StmtKind::Move { random, cards, to } => {
                random.iter().for_each(|r| self.expr(r));
                self.expr(cards);
                self.expr(to);
            }
            StmtKind::Shuffle { zone } | StmtKind::Reveal { cards: zone } => self.expr(zone),
            StmtKind::Deal { count, from, to, starting } => {
                count.iter().for_each(|c| self.expr(c));
                self.expr(from);
                self.name(to);
                starting.iter().for_each(|s| self.expr(s));
            }
            StmtKind::Say { text } => self.template(text),
            StmtKind::Call { func, args } => {
                self.name(func);
                args.iter().for_each(|a| self.expr(a));
            }
            StmtKind::Redo { phase } | StmtKind::End { phase } => self.phase(phase),
            StmtKind::MakeCard { fields } => {
                for (name, value) in fields {
                    match value {
                        Some(value) => {
                            self.attribute(name);
                            self.expr(value);
                        }
                        // `card { rank }` takes the value of the name `rank`.
                        None => self.name(name),
                    }
                }
            }
        }
    }

    /// A choice: its name is in scope in its tiers and label and after it, and so is the name
    /// of its declaration.
    fn choose(&mut self, choose: &Choose, span: Span) {
        choose.domains.iter().for_each(|d| self.expr(d));
        if let Some(Some(size)) = &choose.group {
            self.expr(size);
        }
        self.expr(&choose.by);
        self.local(&choose.name, span, None);
        if let Some((name, list)) = &choose.menu {
            self.expr(list);
            self.local(name, span, None);
        }
        for tier in &choose.tiers {
            tier.cond.iter().for_each(|c| self.expr(c));
            if let Some(then) = &tier.then {
                self.block(then);
            }
        }
        if let Some(label) = &choose.label {
            self.template(label);
        }
        if let Some(declare) = &choose.declare {
            self.expr(&declare.when);
            self.local(&declare.name, declare.span, None);
        }
    }

    fn rhs(&mut self, rhs: &Rhs) {
        match rhs {
            Rhs::Expr(expr) => self.expr(expr),
            Rhs::Random(binding) => self.scoped(|w| w.binding(binding)),
        }
    }

    /// `x in DOMAIN from START where FILTER`: the name is in scope after its domain.
    fn binding(&mut self, binding: &Binding) {
        self.expr(&binding.domain);
        self.local(&binding.name, binding.span, None);
        binding.start.iter().for_each(|s| self.expr(s));
        binding.filter.iter().for_each(|f| self.expr(f));
    }

    fn template(&mut self, template: &Template) {
        for part in &template.parts {
            if let TemplatePart::Expr(expr) | TemplatePart::Plural { count: expr, .. } = part {
                self.expr(expr);
            }
        }
    }

    fn expr(&mut self, expr: &Expr) {
        match &expr.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::None => {}
            ExprKind::Text(template) => self.template(template),
            ExprKind::Name(ident) => self.name(ident),
            ExprKind::Unary(_, operand) => self.expr(operand),
            ExprKind::Binary(_, left, right) => {
                self.expr(left);
                self.expr(right);
            }
            ExprKind::Field(operand, field) => {
                self.expr(operand);
                self.attribute(field);
            }
            ExprKind::Index(operand, index) => {
                self.expr(operand);
                self.expr(index);
            }
            ExprKind::Is(operand, member) => {
                self.expr(operand);
                self.name(member);
            }
            ExprKind::Call { func, args } => {
                self.name(func);
                args.iter().for_each(|a| self.expr(&a.value));
            }
            ExprKind::CardRef(fields) => {
                for (name, value) in fields {
                    self.attribute(name);
                    self.expr(value);
                }
            }
            ExprKind::If { cond, then, otherwise } => {
                self.expr(cond);
                self.expr(then);
                self.expr(otherwise);
            }
            ExprKind::Case { scrutinee, arms, otherwise } => {
                self.expr(scrutinee);
                for arm in arms {
                    arm.patterns.iter().for_each(|p| self.expr(p));
                    self.expr(&arm.value);
                }
                self.expr(otherwise);
            }
            ExprKind::Aggregate { binder, domain, filter, body, .. } => {
                self.expr(domain);
                self.scoped(|w| {
                    w.local(binder, expr.span, None);
                    filter.iter().for_each(|f| w.expr(f));
                    body.iter().for_each(|b| w.expr(b));
                });
            }
            ExprKind::List(items) => items.iter().for_each(|i| self.expr(i)),
            ExprKind::PileEnd { count, pile, .. } => {
                self.expr(count);
                self.expr(pile);
            }
        }
    }
}
