//! A readable listing of a compiled game: every table, and the flow as indented statements with
//! resolved ids (`chips[..]` is variable 0, `$3` is local slot 3, `#5` is block 5). Spans are
//! left out, so the listing changes only when what the game does changes; tests keep it as a
//! snapshot per rule file.

use super::*;
use crate::vocab::AssignOp;
use std::fmt::Write;

impl Game {
    /// The whole compiled game as text.
    pub fn dump(&self) -> String {
        let mut d = Dump { game: self, out: String::new() };
        d.tables();
        d.line(0, &format!("play #{}", self.play));
        d.block(1, self.play);
        d.out
    }
}

struct Dump<'a> {
    game: &'a Game,
    out: String,
}

impl Dump<'_> {
    fn line(&mut self, depth: usize, text: &str) {
        let _ = writeln!(self.out, "{:width$}{text}", "", width = depth * 2);
    }

    fn tables(&mut self) {
        let g = self.game;
        self.line(0, &format!("game {:?}, {} players, {} local slots", g.name, g.players, g.slots));
        if let Some(v) = &g.variant {
            self.line(0, &format!("variant applied: {v}"));
        }
        if let Some(s) = &g.scenario {
            self.line(0, &format!("scenario: {s:?}"));
        }
        for (i, s) in g.seats.iter().enumerate() {
            let side = s.side.map_or(String::new(), |t| format!(", side {t}"));
            self.line(0, &format!("seat {i} {} {:?}: player {}{side}", s.name, s.display, s.player));
        }
        for (i, s) in g.sides.iter().enumerate() {
            self.line(0, &format!("side {i} {} {:?}: seats {:?}", s.name, s.display, s.seats));
        }
        for p in &g.params {
            let range = p.range.map_or(String::new(), |(lo, hi)| format!(" in {lo}..{hi}"));
            self.line(0, &format!("param {}: {} = {}{range}", p.name, self.ty(&p.ty), self.value(p.value)));
        }
        for (i, e) in g.enums.iter().enumerate() {
            let values: Vec<String> = e.values.iter().map(|v| v.display.clone()).collect();
            self.line(0, &format!("enum {i} {}: {}", e.name, values.join(", ")));
        }
        for (i, a) in g.attrs.iter().enumerate() {
            let derived = if a.derived { " (derived)" } else { "" };
            self.line(0, &format!("attr {i} {}: {}{derived}", a.name, self.ty(&a.ty)));
        }
        self.line(0, &format!("cards {}", g.cards.len()));
        for (c, attrs) in g.cards.iter().enumerate() {
            let values: Vec<String> = attrs.iter().zip(&g.attrs).map(|(v, a)| g.names().show(*v, &a.ty)).collect();
            self.line(1, &format!("{c} {:?}: {}", g.card_names[c], values.join(" ")));
        }
        for (i, z) in g.zones.iter().enumerate() {
            self.line(0, &format!("zone {i} {}{}: see {:?}, count {:?}", z.name, owner(z.owner), z.see, z.count));
        }
        for (i, v) in g.vars.iter().enumerate() {
            let reset = v.reset.map_or(String::new(), |p| format!(" reset phase {p}"));
            let init = self.expr(&v.init);
            self.line(0, &format!("var {i} {}: {}{} = {init}{reset}", v.name, self.ty(&v.ty), owner(v.owner)));
        }
        for (i, f) in g.functions.iter().enumerate() {
            let params: Vec<String> = f
                .params
                .iter()
                .enumerate()
                .map(|(i, s)| match f.piles.get(i).copied().flatten() {
                    Some(z) => self.pile(z, format!("${s}")),
                    None => format!("${s}"),
                })
                .collect();
            let body = self.expr(&f.body);
            let memo = if f.memo { " memo" } else { "" };
            self.line(0, &format!("define {i} {}({}){memo} = {body}", f.name, params.join(", ")));
        }
        for (i, p) in g.phases.iter().enumerate() {
            self.line(0, &format!("phase {i} {}", p.name));
        }
        let r = &g.result;
        let (domain, key) = (self.expr(&r.domain), self.expr(&r.key));
        let ties: String = r.ties.iter().map(|t| format!(" then {}", self.expr(t))).collect();
        self.line(0, &format!("result {:?} ${} in {domain} by {key}{ties}", r.extreme, r.slot));
        for s in &g.solves {
            let (domain, key) = (self.expr(&s.domain), self.expr(&s.key));
            self.line(0, &format!("solve phase {} ${} in {domain} by {key}", s.phase, s.slot));
        }
        for s in &g.shows {
            let each = s.each.as_ref().map_or(String::new(), |b| format!("for {} ", self.binding(b)));
            let when = s.when.as_ref().map_or(String::new(), |w| format!(" when {}", self.expr(w)));
            let text = self.expr(&s.text);
            self.line(0, &format!("show {each}{text}{when}"));
        }
        for v in &g.variants {
            self.line(0, &format!("variant {}", v.name));
        }
    }

    fn block(&mut self, depth: usize, block: BlockId) {
        let Some(b) = self.game.blocks.get(block as usize) else {
            return self.line(depth, &format!("(no block #{block})"));
        };
        for stmt in &b.stmts {
            self.stmt(depth, stmt);
        }
    }

    /// A statement that opens a block: its head, then the block indented.
    fn nested(&mut self, depth: usize, head: String, block: BlockId) {
        self.line(depth, &format!("{head} #{block}"));
        self.block(depth + 1, block);
    }

    fn stmt(&mut self, depth: usize, stmt: &Stmt) {
        match &stmt.kind {
            StmtKind::Assign(target, op, e) => {
                let op = match op {
                    AssignOp::Set => "=",
                    AssignOp::Add => "+=",
                    AssignOp::Sub => "-=",
                };
                let line = format!("{} {op} {}", self.target(target), self.expr(e));
                self.line(depth, &line);
            }
            StmtKind::Random(target, binding) => {
                let line = format!("{} = random {}", self.target(target), self.binding(binding));
                self.line(depth, &line);
            }
            StmtKind::If(c, then, otherwise) => {
                self.nested(depth, format!("if {}", self.expr(c)), *then);
                if let Some(o) = otherwise {
                    self.nested(depth, "else".into(), *o);
                }
            }
            StmtKind::For(bindings, body) => {
                let bindings: Vec<String> = bindings.iter().map(|b| self.binding(b)).collect();
                self.nested(depth, format!("for {}", bindings.join(", ")), *body);
            }
            StmtKind::Repeat(n, body) => self.nested(depth, format!("repeat {}", self.expr(n)), *body),
            StmtKind::RepeatUntil(c, body) => self.nested(depth, format!("repeat until {}", self.expr(c)), *body),
            StmtKind::While(c, body) => self.nested(depth, format!("while {}", self.expr(c)), *body),
            StmtKind::Phase(p, body) => self.nested(depth, format!("phase {p}"), *body),
            StmtKind::Call(body) => self.nested(depth, "call".into(), *body),
            StmtKind::Choose(choose) => self.choose(depth, "choose", choose),
            StmtKind::Simultaneously(binding, choose, rest) => {
                let head = format!("simultaneously for {}:", self.binding(binding));
                self.choose(depth, &head, choose);
                self.nested(depth, "then for each".into(), *rest);
            }
            StmtKind::Move { random, cards, to } => {
                let random = random.as_ref().map_or(String::new(), |n| format!("random {} of ", self.expr(n)));
                let line = format!("move {random}{} to {}", self.expr(cards), self.expr(to));
                self.line(depth, &line);
            }
            StmtKind::Shuffle(zone) => {
                let line = format!("shuffle {}", self.expr(zone));
                self.line(depth, &line);
            }
            StmtKind::Deal { count, from, to, starting } => {
                let count = count.as_ref().map_or("all".into(), |n| format!("{} each", self.expr(n)));
                let starting = starting.as_ref().map_or(String::new(), |s| format!(" starting {}", self.expr(s)));
                let line = format!("deal {count} from {} to {}{starting}", self.expr(from), self.zone(*to));
                self.line(depth, &line);
            }
            StmtKind::Reveal(cards) => {
                let line = format!("reveal {}", self.expr(cards));
                self.line(depth, &line);
            }
            StmtKind::Say(text) => {
                let line = format!("say {}", self.expr(text));
                self.line(depth, &line);
            }
            StmtKind::Redo(p) => self.line(depth, &format!("redo phase {p}")),
            StmtKind::End(p) => self.line(depth, &format!("end phase {p}")),
            StmtKind::MakeCard(fields) => {
                let fields: Vec<String> = fields.iter().map(|(a, e)| format!("attr {a}: {}", self.expr(e))).collect();
                self.line(depth, &format!("card {{ {} }}", fields.join(", ")));
            }
        }
    }

    fn choose(&mut self, depth: usize, head: &str, c: &Choose) {
        let domains: Vec<String> = c.domains.iter().map(|d| self.expr(d)).collect();
        let label = c.label.as_ref().map_or(String::new(), |l| format!(" as {}", self.expr(l)));
        let (elem, by) = (self.ty(&c.elem), self.expr(&c.by));
        let (elem, domains) = match c.menu {
            // A mixed decision: the card's name, then the menu's after `or`.
            Some(menu) => {
                let (cards, list) = domains.split_at(domains.len().saturating_sub(1));
                (format!("card from {} or ${menu}: {elem}", cards.join(", ")), list.join(""))
            }
            None => (elem, domains.join(", ")),
        };
        // A choice of several cards: how many, as `1..4 cards`, `2 cards` or `0.. cards`.
        let elem = match &c.group {
            Some(g) => {
                let most = g.most.as_ref().map_or(String::new(), |m| self.expr(m));
                let least = self.expr(&g.least);
                if most == least { format!("{least} {elem}") } else { format!("{least}..{most} {elem}") }
            }
            None => elem,
        };
        let line = format!("{head} ${}: {elem} from {domains} by {by}{label}", c.slot);
        self.line(depth, &line);
        for (i, tier) in c.tiers.iter().enumerate() {
            let cond = tier.cond.as_ref().map_or("any".into(), |x| self.expr(x));
            match tier.then {
                Some(then) => self.nested(depth + 1, format!("tier {i}: {cond} then"), then),
                None => self.line(depth + 1, &format!("tier {i}: {cond}")),
            }
        }
        if let Some((flag, name, when)) = &c.declare {
            let line = format!("declare {name} into ${flag} when {}", self.expr(when));
            self.line(depth + 1, &line);
        }
    }

    fn target(&self, target: &Target) -> String {
        match target {
            Target::Local(s) => format!("${s}"),
            Target::Var(v) => self.var(*v),
            Target::VarAt(v, ix) => format!("{}[{}]", self.var(*v), self.expr(ix)),
        }
    }

    fn binding(&self, b: &Binding) -> String {
        let mut text = format!("${} in {}", b.slot, self.expr(&b.domain));
        if let Some(start) = &b.start {
            let _ = write!(text, " from {}", self.expr(start));
        }
        if let Some(filter) = &b.filter {
            let _ = write!(text, " where {}", self.expr(filter));
        }
        text
    }

    fn var(&self, v: VarId) -> String {
        self.game.vars.get(v as usize).map_or(format!("var{v}"), |x| x.name.clone())
    }

    fn zone(&self, z: ZoneId) -> String {
        self.game.zones.get(z as usize).map_or(format!("zone{z}"), |x| x.name.clone())
    }

    fn attr(&self, a: AttrId) -> String {
        self.game.attrs.get(a as usize).map_or(format!("attr{a}"), |x| x.name.clone())
    }

    fn member(&self, e: EnumId, m: u16) -> String {
        let members = self.game.enums.get(e as usize).map(|x| &x.members);
        members.and_then(|ms| ms.get(m as usize)).map_or(format!("member{m}"), |x| x.name.clone())
    }

    fn value(&self, v: Value) -> String {
        match v {
            Value::None => "none".into(),
            Value::Int(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Seat(s) => format!("seat{s}"),
            Value::Side(s) => format!("side{s}"),
            Value::Card(c) => format!("card{c}"),
            Value::Enum(i) => format!("enum{i}"),
            Value::Set(bits) => format!("set{bits:#x}"),
            Value::Group(g) => format!("cards{:?}", g.cards().collect::<Vec<_>>()),
        }
    }

    fn ty(&self, ty: &Type) -> String {
        match ty {
            Type::Enum(e) => self.game.enums.get(*e as usize).map_or(format!("enum{e}"), |x| x.name.clone()),
            Type::Set(t) => format!("set of {}", self.ty(t)),
            Type::Opt(t) => format!("{}?", self.ty(t)),
            Type::List(t) => format!("list of {}", self.ty(t)),
            Type::ZoneFamily(z) => format!("every {}", self.zone(*z)),
            Type::Group => "cards".into(),
            t => format!("{t:?}").to_lowercase(),
        }
    }

    /// The pile a `zone` parameter stands for: its zone, with the seat or side `index` says if
    /// it has one.
    fn pile(&self, z: ZoneId, index: String) -> String {
        match self.game.zones.get(z as usize).and_then(|zone| zone.owner) {
            Some(_) => format!("{}[{index}]", self.zone(z)),
            None => self.zone(z),
        }
    }

    fn exprs(&self, xs: &[Expr]) -> String {
        xs.iter().map(|x| self.expr(x)).collect::<Vec<_>>().join(", ")
    }

    fn expr(&self, e: &Expr) -> String {
        use ExprKind::*;
        match &e.kind {
            Const(v) => self.value(*v),
            Local(s) => format!("${s}"),
            Var(v) => self.var(*v),
            VarAt(v, ix) => format!("{}[{}]", self.var(*v), self.expr(ix)),
            Zone(z, None) => self.zone(*z),
            Zone(z, Some(ix)) => format!("{}[{}]", self.zone(*z), self.expr(ix)),
            ZoneAll(z) => format!("{}[*]", self.zone(*z)),
            Attr(x, a) => format!("{}.{}", self.expr(x), self.attr(*a)),
            LocalAttr(s, a) => format!("${s}.{}", self.attr(*a)),
            Payload(x, _) => format!("{}.payload", self.expr(x)),
            Is(x, en, m) => format!("({} is {})", self.expr(x), self.member(*en, *m)),
            MakeEnum(en, m, p) => format!("{}({})", self.member(*en, *m), self.expr(p)),
            Not(x) => format!("(not {})", self.expr(x)),
            Neg(x) => format!("(-{})", self.expr(x)),
            Binary(op, l, r) => format!("({} {} {})", self.expr(l), binop(*op), self.expr(r)),
            Builtin(b, args) => format!("{}({})", format!("{b:?}").to_lowercase(), self.exprs(args)),
            Call(f, args) => {
                let Some(func) = self.game.functions.get(*f as usize) else {
                    return format!("fn{f}({})", self.exprs(args));
                };
                let args: Vec<String> = args
                    .iter()
                    .enumerate()
                    .map(|(i, arg)| match func.piles.get(i).copied().flatten() {
                        Some(z) => self.pile(z, self.expr(arg)),
                        None => self.expr(arg),
                    })
                    .collect();
                format!("{}({})", func.name, args.join(", "))
            }
            If(c, t, o) => format!("(if {} then {} else {})", self.expr(c), self.expr(t), self.expr(o)),
            Case(s, arms, o) => {
                let arms: Vec<String> =
                    arms.iter().map(|(ps, v)| format!("{} => {}", self.exprs(ps), self.expr(v))).collect();
                format!("(case {} {{ {}; else {} }})", self.expr(s), arms.join("; "), self.expr(o))
            }
            Aggregate(a) => {
                let filter = a.filter.as_ref().map_or(String::new(), |f| format!(" where {}", self.expr(f)));
                let body = a.body.as_ref().map_or(String::new(), |b| format!(" of {}", self.expr(b)));
                let op = format!("{:?}", a.op).to_lowercase();
                format!("({op} ${} in {}{filter}{body})", a.slot, self.expr(&a.domain))
            }
            List(xs) => format!("[{}]", self.exprs(xs)),
            PileEnd(last, n, pile) => {
                format!("({} {} of {})", if *last { "last" } else { "first" }, self.expr(n), self.expr(pile))
            }
            Seats => "seats".into(),
            Sides => "sides".into(),
            EnumValues(en) => self.ty(&Type::Enum(*en)),
            SetMembers(x, seats) => {
                format!("members of {} ({})", self.expr(x), if *seats { "seats" } else { "values" })
            }
            Template(pieces) => {
                let mut text = String::from("\"");
                for p in pieces {
                    match p {
                        TemplatePiece::Text(t) => text.push_str(&t.escape_debug().to_string()),
                        TemplatePiece::Value(x, ty) => {
                            let _ = write!(text, "{{{}: {}}}", self.expr(x), self.ty(ty));
                        }
                        TemplatePiece::Plural(x, one, many) => {
                            let _ = write!(text, "{{{}|{one}|{many}}}", self.expr(x));
                        }
                    }
                }
                text.push('"');
                text
            }
        }
    }
}

fn owner(owner: Option<Owner>) -> &'static str {
    match owner {
        None => "",
        Some(Owner::Seat) => " per seat",
        Some(Owner::Side) => " per side",
    }
}

fn binop(op: BinOp) -> &'static str {
    match op {
        BinOp::Range => "..",
        BinOp::Or => "or",
        BinOp::And => "and",
        BinOp::In => "in",
        BinOp::NotIn => "not in",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        BinOp::Union => "union",
        BinOp::Without => "without",
    }
}
