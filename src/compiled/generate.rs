//! The generator: a compiled game becomes the Rust source of a kernel (the fixed prelude,
//! `native/prelude.rs`, the interpreter's card moves, `engine/piles.rs`, then the game's part).
//! The game's part holds its tables as integer data and one function per statement, loop,
//! binding and definition it compiles; each mirrors what the interpreter does on success
//! (`src/engine/run.rs`, `vm.rs`, `compile.rs`, `decide.rs`) and hands the step back to the
//! interpreter (`Err(())`) wherever the interpreter could fail.
//!
//! Nothing of the rule file's text reaches the source: names, strings and templates never do
//! (narration stays with the interpreter), and numbers are written by this module from typed
//! values. A statement using a construct not compiled yet is left to the interpreter, and
//! listed ([`Unsupported`]).

use crate::engine::{CardLowering, Layout, Mask};
use crate::game::*;
use crate::vocab::{AggOp, AssignOp, BinOp, Span};
use std::fmt::Write;

/// The fixed part of every kernel's source.
pub(crate) const PRELUDE: &str = include_str!("native/prelude.rs");

/// The interpreter's card moves, the kernel's too: its source holds this file as module `piles`.
pub(crate) const PILES: &str = include_str!("../engine/piles.rs");

/// A construct the generator does not compile yet, and where the rule file uses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Unsupported {
    pub what: &'static str,
    pub span: Span,
}

/// A kernel's source, with the statements it leaves to the interpreter.
pub(crate) struct Generated {
    pub source: String,
    /// The statements run by the interpreter, each with the first construct that keeps it there.
    pub left: Vec<Unsupported>,
    /// How many statements there are in all.
    pub statements: usize,
}

type G<T> = Result<T, Unsupported>;

/// Generates the kernel of a game. `key` is written into it, to be checked when it is loaded.
pub(crate) fn generate(game: &Game, key: u64) -> G<Generated> {
    let layout = Layout::of(game);
    let kept = kept_by_the_interpreter(game);
    let mut g = Gen { game, layout: &layout, cards: CardLowering::new(game, &layout), out: String::new(), n: 0, kept };
    g.tables(key)?;
    let mut left = Vec::new();
    let mut exec = String::from("impl K {\nfn exec(&mut self, block: u32, pc: u32) -> R<Go> {\nmatch (block, pc) {\n");
    let mut controls = Controls::default();
    let mut statements = 0;
    for (b, block) in game.blocks.iter().enumerate() {
        let mut compiled = Vec::with_capacity(block.stmts.len());
        for (i, stmt) in block.stmts.iter().enumerate() {
            statements += 1;
            let at = (b as u32, i as u32);
            match g.stmt(&stmt.kind, at, stmt.span) {
                Ok(body) => {
                    writeln!(g.out, "impl K {{\nfn s_{}_{}(&mut self) -> R<Go> {{\n{body}\n}}\n}}", at.0, at.1).ok();
                    compiled.push(true);
                }
                Err(u) => {
                    left.push(u);
                    compiled.push(false);
                }
            }
            g.control(&stmt.kind, at, &mut controls);
        }
        in_a_row(b, &block.stmts, &compiled, &mut exec, &mut g.out);
    }
    exec.push_str("_ => Err(()),\n}\n}\n");
    controls.write(&mut exec);
    exec.push_str("}\n");
    g.functions()?;
    g.keys();
    g.card_tables()?;
    let source = format!("{PRELUDE}\nmod piles {{\n{PILES}\n}}\n// The game's part.\n{exec}{}", g.out);
    Ok(Generated { source, left, statements })
}

/// The most statements one step of the loop runs in a row (a bound on the nesting of the calls
/// that run them).
const ROW: usize = 16;

/// Whether a statement leaves the frames as they were (its pc apart) and opens no decision:
/// the statement after it may then be run at once, without going back to the loop.
fn keeps_the_frames(kind: &StmtKind) -> bool {
    matches!(
        kind,
        StmtKind::Assign(..)
            | StmtKind::Random(..)
            | StmtKind::MakeCard(_)
            | StmtKind::Move { .. }
            | StmtKind::Shuffle(_)
            | StmtKind::Deal { .. }
            | StmtKind::Say(_)
            | StmtKind::Reveal(_)
    )
}

/// The dispatch to block `b`'s compiled statements (`compiled`), each running on in a row
/// where it may: a statement that keeps the frames is followed at once by the next one
/// (`r_B_I` functions), or by leaving the block after the last, each counted as the step it
/// is. The loop checks nothing between them that such a statement could change (the phase's
/// end looks at frames only), and a hand-back puts back what the failing step changed.
fn in_a_row(b: usize, stmts: &[Stmt], compiled: &[bool], exec: &mut String, out: &mut String) {
    let in_row = |i: usize| compiled[i] && keeps_the_frames(&stmts[i].kind);
    // Whether statement `i` runs on into the next one (or out of the block); from the last back.
    let mut runs_on = vec![false; stmts.len()];
    for i in (0..stmts.len()).rev() {
        if !in_row(i) {
            continue;
        }
        let on = if i + 1 == stmts.len() {
            "self.end_in_row()".to_string()
        } else if compiled[i + 1] && (i + 1) % ROW != 0 {
            let next = if runs_on[i + 1] { "r" } else { "s" };
            format!("if !self.count_step() {{ return Ok(Go::On); }}\nself.{next}_{b}_{}()", i + 1)
        } else {
            continue;
        };
        runs_on[i] = true;
        writeln!(out, "impl K {{\nfn r_{b}_{i}(&mut self) -> R<Go> {{\nself.s_{b}_{i}()?;\n{on}\n}}\n}}").ok();
    }
    for i in (0..stmts.len()).filter(|&i| compiled[i]) {
        writeln!(exec, "({b}, {i}) => self.{}_{b}_{i}(),", if runs_on[i] { "r" } else { "s" }).ok();
    }
}

/// The generated dispatch of the control frames: each match arm by statement.
#[derive(Default)]
struct Controls {
    loop_body: String,
    cond: String,
    phase_body: String,
    for_level: String,
    bind_for: String,
}

impl Controls {
    fn write(&self, out: &mut String) {
        let arms = |body: &str| format!("match (at.block, at.index) {{\n{body}_ => Err(()),\n}}");
        writeln!(out, "fn loop_body(&self, at: Loc) -> R<u32> {{\n{}\n}}", arms(&self.loop_body)).ok();
        writeln!(out, "fn cond(&mut self, vm: &mut Vm, at: Loc) -> R<bool> {{\n{}\n}}", arms(&self.cond)).ok();
        writeln!(out, "fn phase_body(&self, at: Loc) -> R<u32> {{\n{}\n}}", arms(&self.phase_body)).ok();
        writeln!(
            out,
            "fn for_level(&self, at: Loc, level: u32) -> R<(usize, bool, u32)> {{\n{}\n}}",
            arms(&self.for_level)
        )
        .ok();
        writeln!(out, "fn bind_for(&mut self, at: Loc, level: u32) -> R<u32> {{\n{}\n}}", arms(&self.bind_for)).ok();
    }
}

struct Gen<'a> {
    game: &'a Game,
    layout: &'a Layout,
    cards: CardLowering<'a>,
    /// The game's tables and functions, written so far.
    out: String,
    /// A counter for fresh names and labels.
    n: usize,
    /// The definitions a call of which is left to the interpreter (see [`kept_by_the_interpreter`]).
    kept: Vec<bool>,
}

/// The `memo` definitions, and those that call one: the interpreter keeps their values for the
/// evaluation, which the kernel does not, so a call of one is left to the interpreter (its
/// steps, and so the budget, would differ).
fn kept_by_the_interpreter(game: &Game) -> Vec<bool> {
    fn calls(e: &Expr, out: &mut Vec<FnId>) {
        if let ExprKind::Call(f, _) = e.kind {
            out.push(f);
        }
        e.children().into_iter().for_each(|x| calls(x, out));
    }
    let callees: Vec<Vec<FnId>> = (game.functions.iter())
        .map(|f| {
            let mut out = Vec::new();
            calls(&f.body, &mut out);
            out
        })
        .collect();
    let mut kept: Vec<bool> = game.functions.iter().map(|f| f.memo).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for (f, to) in callees.iter().enumerate() {
            if !kept[f] && to.iter().any(|&g| kept[g as usize]) {
                kept[f] = true;
                changed = true;
            }
        }
    }
    kept
}

/// A value as a Rust expression of the prelude's `V`.
fn lit(v: Value) -> G<String> {
    Ok(match v {
        Value::None => "V::None".into(),
        Value::Int(i64::MIN) => "V::Int(i64::MIN)".into(),
        Value::Int(n) => format!("V::Int({n}i64)"),
        Value::Bool(b) => format!("V::Bool({b})"),
        Value::Seat(s) => format!("V::Seat({s}u8)"),
        Value::Side(s) => format!("V::Side({s}u8)"),
        Value::Card(c) => format!("V::Card({c}u16)"),
        Value::Enum(e) => format!("V::Enum({e}u16)"),
        Value::Set(b) => format!("V::Set({b}u64)"),
        Value::Group(_) => return Err(unsupported("a group of cards as a constant", Span::default())),
    })
}

fn unsupported(what: &'static str, span: Span) -> Unsupported {
    Unsupported { what, span }
}

/// Values as the elements of a Rust array.
fn lits(values: impl IntoIterator<Item = Value>) -> G<String> {
    let parts: G<Vec<String>> = values.into_iter().map(lit).collect();
    Ok(parts?.join(", "))
}

/// How deeply an expression's values nest (the lowering's `depth`).
fn depth(e: &Expr) -> usize {
    1 + e.children().into_iter().map(depth).max().unwrap_or(0)
}

/// Whether a domain is made of cards from piles (the lowering's `of_cards`).
fn of_cards(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Zone(..) | ExprKind::ZoneAll(_))
        || matches!(&e.kind, ExprKind::Aggregate(a) if a.op == AggOp::Cards)
}

fn agg_op(op: AggOp) -> &'static str {
    match op {
        AggOp::Sum => "SUM",
        AggOp::Max => "MAX",
        AggOp::Min => "MIN",
        AggOp::Count => "COUNT",
        AggOp::Exists => "EXISTS",
        AggOp::Every => "EVERY",
        AggOp::Highest => "HIGHEST",
        AggOp::Lowest | AggOp::Cards => "LOWEST",
        // Refused in `aggregate` before this is asked.
        AggOp::First => "",
    }
}

impl Gen<'_> {
    fn fresh(&mut self) -> usize {
        self.n += 1;
        self.n
    }

    fn var_base(&self, v: VarId) -> usize {
        self.layout.var_base[v as usize]
    }

    fn var_count(&self, v: VarId) -> usize {
        let info = &self.game.vars[v as usize];
        per_owner(info.owner, self.game.seats.len(), self.game.sides.len())
    }

    /// The game's tables: the pack's attributes, seats, sides, piles, enumerations.
    fn tables(&mut self, key: u64) -> G<()> {
        let game = self.game;
        let attrs = game.cards.first().map_or(0, Vec::len);
        if game.cards.iter().any(|c| c.len() != attrs) {
            return Err(unsupported("cards with different attributes", Span::default()));
        }
        let blocks: Vec<String> = game.blocks.iter().map(|b| b.stmts.len().to_string()).collect();
        let cells = lits(game.cards.iter().flatten().copied())?;
        let seat_side = lits(game.seats.iter().map(|s| s.side.map_or(Value::None, Value::Side)))?;
        let pile_seat = lits(
            (0..self.layout.pile_zone.len()).map(|p| self.layout.seat_of_pile(p).map_or(Value::None, Value::Seat)),
        )?;
        let out = &mut self.out;
        writeln!(out, "pub const KEY: u64 = {key}u64;").ok();
        writeln!(out, "pub const CARDS: usize = {};\npub const ATTRS: usize = {attrs};", game.cards.len()).ok();
        writeln!(out, "pub const SEATS: usize = {};\npub const SIDES: usize = {};", game.seats.len(), game.sides.len())
            .ok();
        writeln!(out, "static BLOCK_LEN: [u32; {}] = [{}];", blocks.len(), blocks.join(", ")).ok();
        writeln!(out, "static CARD_ATTRS: [V; {}] = [{cells}];", game.cards.len() * attrs).ok();
        writeln!(out, "static SEAT_SIDE: [V; {}] = [{seat_side}];", game.seats.len()).ok();
        writeln!(out, "static PILE_SEAT: [V; {}] = [{pile_seat}];", self.layout.pile_zone.len()).ok();
        let mut sides = String::new();
        for side in &game.sides {
            let seats: Vec<String> = side.seats.iter().map(|s| format!("{s}u8")).collect();
            write!(sides, "&[{}], ", seats.join(", ")).ok();
        }
        writeln!(out, "static SIDE_SEATS: [&[u8]; {}] = [{sides}];", game.sides.len()).ok();
        let (mut members, mut payloads) = (String::new(), String::new());
        for e in &game.enums {
            let m: Vec<String> = e.values.iter().map(|v| format!("{}u16", v.member)).collect();
            write!(members, "&[{}], ", m.join(", ")).ok();
            write!(payloads, "&[{}], ", lits(e.values.iter().map(|v| v.payload))?).ok();
        }
        writeln!(out, "static ENUM_MEMBER: [&[u16]; {}] = [{members}];", game.enums.len()).ok();
        let lens =
            |names: &mut dyn Iterator<Item = usize>| names.map(|n| format!("{n}usize")).collect::<Vec<_>>().join(", ");
        let name_lens: [(&str, Vec<usize>); 3] = [
            ("SEAT_NAME_LEN", game.seats.iter().map(|s| s.display.len()).collect()),
            ("SIDE_NAME_LEN", game.sides.iter().map(|s| s.display.len()).collect()),
            ("CARD_NAME_LEN", game.card_names.iter().map(String::len).collect()),
        ];
        for (name, table) in name_lens {
            writeln!(out, "static {name}: [usize; {}] = [{}];", table.len(), lens(&mut table.into_iter())).ok();
        }
        let enum_lens: Vec<String> =
            game.enums.iter().map(|e| format!("&[{}]", lens(&mut e.values.iter().map(|v| v.display.len())))).collect();
        writeln!(out, "static ENUM_NAME_LEN: [&[usize]; {}] = [{}];", game.enums.len(), enum_lens.join(", ")).ok();
        let phases: Vec<String> = game
            .blocks
            .iter()
            .enumerate()
            .flat_map(|(b, block)| block.stmts.iter().enumerate().map(move |(i, s)| (b, i, s)))
            .filter_map(|(b, i, s)| match s.kind {
                StmtKind::Phase(p, _) => Some(format!("({b}, {i}) => Some({p}),")),
                _ => None,
            })
            .collect();
        writeln!(
            out,
            "fn phase_of(at: Loc) -> Option<u16> {{\nmatch (at.block, at.index) {{\n{}\n_ => None,\n}}\n}}",
            phases.join("\n")
        )
        .ok();
        writeln!(out, "static ENUM_PAYLOAD: [&[V]; {}] = [{payloads}];", game.enums.len()).ok();
        Ok(())
    }

    /// Every definition, as a function with the interpreter's memo and nesting.
    fn functions(&mut self) -> G<()> {
        let game = self.game;
        for (f, info) in game.functions.iter().enumerate() {
            let params: Vec<String> = (0..info.params.len()).map(|i| format!("a{i}: V")).collect();
            let body = match self.expr(&info.body) {
                Ok(body) => format!("Ok({body})"),
                Err(_) => "Err(())".into(),
            };
            let memo = info.params.len() <= 2;
            let key = |i: usize| if i < info.params.len() { format!("a{i}") } else { "V::None".into() };
            let (k0, k1) = (key(0), key(1));
            let kept = info.kept();
            let mut s = String::new();
            writeln!(s, "impl K {{\nfn f_{f}(&mut self, vm: &mut Vm, {}) -> R<V> {{", params.join(", ")).ok();
            if memo {
                writeln!(s, "if let Some(v) = vm.recall({f}, {k0}, {k1}) {{ return Ok(v); }}").ok();
            }
            writeln!(s, "self.charge(1)?;\nif vm.nesting + {} >= MAX_NESTING {{ return Err(()); }}", depth(&info.body))
                .ok();
            let kept_len = kept.end.saturating_sub(kept.start) as usize;
            writeln!(s, "let mut kept = [V::None; {kept_len}];").ok();
            writeln!(s, "for (i, k) in kept.iter_mut().enumerate() {{ *k = self.local({} + i); }}", kept.start).ok();
            for (i, slot) in info.params.iter().enumerate() {
                writeln!(s, "self.set_local({slot}, a{i});").ok();
            }
            writeln!(
                s,
                "vm.nesting += {};\nlet value = self.b_{f}(vm);\nvm.nesting -= {};",
                depth(&info.body),
                depth(&info.body)
            )
            .ok();
            writeln!(s, "for (i, k) in kept.iter().enumerate() {{ self.set_local({} + i, *k); }}", kept.start).ok();
            writeln!(s, "let value = value?;").ok();
            if memo {
                writeln!(s, "vm.keep({f}, {k0}, {k1}, value);").ok();
            }
            writeln!(s, "Ok(value)\n}}\nfn b_{f}(&mut self, vm: &mut Vm) -> R<V> {{\n{body}\n}}\n}}").ok();
            self.out.push_str(&s);
        }
        Ok(())
    }

    /// The result's keys and each `solve` quantity's (the interpreter's `keys_of`): `keys`
    /// picks one by number (0 the result, then the `solve` declarations in order) and writes
    /// each element of its domain with its key; one the generator cannot compile is left to
    /// the interpreter whole.
    fn keys(&mut self) {
        let game = self.game;
        let specs = std::iter::once((game.result.slot, &game.result.domain, &game.result.key))
            .chain(game.solves.iter().map(|s| (s.slot, &s.domain, &s.key)));
        let mut arms = String::new();
        for (k, (slot, domain, key)) in specs.enumerate() {
            let body = self.keys_of(slot, domain, key).unwrap_or_else(|_| "Err(())".into());
            writeln!(arms, "{k} => self.keys_{k}(keyed),").ok();
            writeln!(self.out, "impl K {{\nfn keys_{k}(&mut self, keyed: &mut [Keyed]) -> R<usize> {{\n{body}\n}}\n}}")
                .ok();
        }
        writeln!(
            self.out,
            "impl K {{\nfn keys(&mut self, which: u32, keyed: &mut [Keyed]) -> R<usize> {{\nmatch which {{\n{arms}_ => Err(()),\n}}\n}}\n}}"
        )
        .ok();
    }

    /// The body of one `keys_K`: the domain's elements first, then each one's key.
    fn keys_of(&mut self, slot: Slot, domain: &Expr, key: &Expr) -> G<String> {
        let items = self.each(domain, &mut |_, item, _| {
            Ok(format!("if keyed_n == keyed.len() {{ return Err(()); }} keyed[keyed_n] = Keyed {{ item: {item}, key: 0 }}; keyed_n += 1;"))
        })?;
        let key = self.expr(key)?;
        Ok(format!(
            "let mut vm = Vm::new(); let vm = &mut vm;\nlet mut keyed_n = 0usize;\n{items}\nfor keyed_i in 0..keyed_n {{ self.set_local({slot}, keyed[keyed_i].item); keyed[keyed_i].key = match {key} {{ V::Int(k) => k, V::Enum(e) => e as i64, _ => return Err(()) }}; }}\nOk(keyed_n)"
        ))
    }

    // ---- statements ----

    /// A statement's function body, or why it stays with the interpreter.
    fn stmt(&mut self, kind: &StmtKind, at: (u32, u32), span: Span) -> G<String> {
        let with = |u: Unsupported| if u.span == Span::default() { Unsupported { span, ..u } } else { u };
        self.stmt_inner(kind, at).map_err(with)
    }

    fn stmt_inner(&mut self, kind: &StmtKind, at: (u32, u32)) -> G<String> {
        let loc = format!("Loc {{ block: {}, index: {} }}", at.0, at.1);
        Ok(match kind {
            StmtKind::Assign(target, op, e) => {
                let value = self.expr(e)?;
                let (place, index) = self.target(target)?;
                let op = match op {
                    AssignOp::Set => 0,
                    AssignOp::Add => 1,
                    AssignOp::Sub => 2,
                };
                let (read, write) = match place {
                    Place::Local(s) => (format!("self.local({s})"), format!("self.set_local({s}, new);")),
                    Place::Var => ("self.var(i)".to_string(), "self.set_var(i, new)?;".to_string()),
                };
                format!(
                    "let v = {{ let mut vm = Vm::new(); let vm = &mut vm; {value} }};\n{index}\nlet new = combine({op}, {read}, v)?;\nself.next_pc();\n{write}\nOk(Go::On)"
                )
            }
            StmtKind::If(c, t, o) => {
                let c = self.expr(c)?;
                let other = o.map_or(String::new(), |o| format!("else {{ self.push_block({o}); }}"));
                format!(
                    "let c = {{ let mut vm = Vm::new(); let vm = &mut vm; truth({c})? }};\nself.next_pc();\nif c {{ self.push_block({t}); }} {other}\nOk(Go::On)"
                )
            }
            StmtKind::For(binds, _) => {
                for b in binds {
                    self.binding(b)?;
                }
                format!(
                    "let mark = self.io().stack.len;\nlet n = self.bind_for({loc}, 0)?;\nself.next_pc();\nself.push_frame(F::For {{ at: {loc}, level: 0, base: mark as u32, len: n, next: 0 }});\nOk(Go::On)"
                )
            }
            StmtKind::Repeat(n, body) => {
                let n = self.expr(n)?;
                format!(
                    "let left = {{ let mut vm = Vm::new(); let vm = &mut vm; int({n})? }};\nself.next_pc();\nself.push_frame(F::Repeat {{ body: {body}, left }});\nOk(Go::On)"
                )
            }
            StmtKind::RepeatUntil(c, _) => {
                self.expr(c)?;
                format!("self.next_pc();\nself.push_frame(F::Until {{ at: {loc}, started: false }});\nOk(Go::On)")
            }
            StmtKind::While(c, _) => {
                self.expr(c)?;
                format!("self.next_pc();\nself.push_frame(F::While {{ at: {loc} }});\nOk(Go::On)")
            }
            StmtKind::Phase(p, _) => {
                let resets = self.resets(*p)?;
                writeln!(
                    self.out,
                    "impl K {{\nfn reset_{}_{}(&mut self) -> R<()> {{\n{resets}Ok(())\n}}\n}}",
                    at.0, at.1
                )
                .ok();
                format!(
                    "let saved = self.vars_now();\nif self.reset_{}_{}().is_err() {{ self.restore_vars(&saved); return Err(()); }}\nself.phase_count_up({p});\nself.next_pc();\nself.push_frame(F::Phase {{ at: {loc}, entered: false }});\nOk(Go::On)",
                    at.0, at.1
                )
            }
            StmtKind::Call(body) => format!("self.next_pc();\nself.push_block({body});\nOk(Go::On)"),
            StmtKind::MakeCard(_) => "self.next_pc();\nOk(Go::On)".into(),
            StmtKind::Choose(c) => self.choose(c, at, &loc)?,
            StmtKind::Simultaneously(b, c, _) => self.together(b, c, at, &loc)?,
            StmtKind::Move { random: None, cards, to } => {
                let push = self.push_items(cards)?;
                let pile = self.pile(to)?;
                format!(
                    "let base = self.io().stack.len;\n{{ let mut vm = Vm::new(); let vm = &mut vm; {push} }}\nfor i in base..self.io().stack.len {{ if !matches!(self.stack_at(i as u32)?, V::Card(_)) {{ return Err(()); }} }}\nlet dest = {{ let mut vm = Vm::new(); let vm = &mut vm; {pile}.ok_or(())? }};\nself.next_pc();\nself.move_stack(base, dest)?;\nself.io_mut().stack.len = base;\nOk(Go::On)"
                )
            }
            StmtKind::Shuffle(z) => {
                let pile = self.pile(z)?;
                format!(
                    "let pile = {{ let mut vm = Vm::new(); let vm = &mut vm; {pile}.ok_or(())? }};\nself.next_pc();\nself.shuffle(pile);\nOk(Go::On)"
                )
            }
            StmtKind::Deal { count, from, to, starting } => self.deal(count.as_ref(), from, *to, starting.as_ref())?,
            StmtKind::Move { random: Some(n), cards, to } => {
                let push = self.push_items(cards)?;
                let n = self.expr(n)?;
                let pile = self.pile(to)?;
                format!(
                    "let base = self.io().stack.len;\n{{ let mut vm = Vm::new(); let vm = &mut vm; {push} }}\nlet n = {{ let mut vm = Vm::new(); let vm = &mut vm; int({n})? }};\nlet size = self.io().stack.len - base;\nif n < 0 || n as usize > size {{ return Err(()); }}\nfor i in base..self.io().stack.len {{ if !matches!(self.stack_at(i as u32)?, V::Card(_)) {{ return Err(()); }} }}\nlet dest = {{ let mut vm = Vm::new(); let vm = &mut vm; {pile}.ok_or(())? }};\nself.next_pc();\n(self.io().partial_shuffle)(self.io, base, n as usize);\nlet chosen = self.io().stack.len - n as usize;\nself.move_stack(chosen, dest)?;\nself.io_mut().stack.len = base;\nOk(Go::On)"
                )
            }
            StmtKind::Random(target, binding) => self.draw(target, binding, at)?,
            StmtKind::Say(text) => {
                let len = self.text_len(text)?;
                format!(
                    "let len: usize = {{ let mut vm = Vm::new(); let vm = &mut vm; {len} }};\nif len > MAX_LINE {{ return Err(()); }}\nlet narrated = self.io().narrated + len as u64 + 1;\nif narrated > MAX_NARRATION {{ return Err(()); }}\nself.next_pc();\nself.io_mut().narrated = narrated;\nOk(Go::On)"
                )
            }
            StmtKind::Reveal(cards) => {
                let push = self.push_items(cards)?;
                let selection = match &cards.kind {
                    ExprKind::Aggregate(a) if a.op == AggOp::Cards && matches!(a.domain.kind, ExprKind::Zone(..)) => {
                        format!("{{ let mut vm = Vm::new(); let vm = &mut vm; {}.ok_or(())?; }}", self.pile(&a.domain)?)
                    }
                    _ => String::new(),
                };
                format!(
                    "let base = self.io().stack.len;\n{{ let mut vm = Vm::new(); let vm = &mut vm; {push} }}\nfor i in base..self.io().stack.len {{ if !matches!(self.stack_at(i as u32)?, V::Card(_)) {{ return Err(()); }} }}\n{selection}\nself.next_pc();\nself.io_mut().stack.len = base;\nOk(Go::On)"
                )
            }
            StmtKind::Redo(p) => {
                let resets = self.resets(*p)?;
                writeln!(
                    self.out,
                    "impl K {{\nfn reset_{}_{}(&mut self) -> R<()> {{\n{resets}Ok(())\n}}\n}}",
                    at.0, at.1
                )
                .ok();
                format!(
                    "let (frame, stack) = self.phase_frame({p})?;\nlet saved = self.vars_now();\nif self.reset_{}_{}().is_err() {{ self.restore_vars(&saved); return Err(()); }}\nself.io_mut().frames.len = frame + 1;\nself.io_mut().stack.len = stack;\nself.phase_count_up({p});\nif let Some(F::Phase {{ at, .. }}) = self.top() {{ self.set_top(F::Phase {{ at, entered: false }}); }}\nOk(Go::On)",
                    at.0, at.1
                )
            }
            StmtKind::End(p) => format!(
                "let (frame, stack) = self.phase_frame({p})?;\nself.io_mut().frames.len = frame;\nself.io_mut().stack.len = stack;\nOk(Go::On)"
            ),
        })
    }

    /// The dispatch of the control frames a statement makes.
    fn control(&mut self, kind: &StmtKind, at: (u32, u32), c: &mut Controls) {
        let arm = format!("({}, {})", at.0, at.1);
        match kind {
            StmtKind::While(cond, body) | StmtKind::RepeatUntil(cond, body) => {
                writeln!(c.loop_body, "{arm} => Ok({body}),").ok();
                if let Ok(cond) = self.expr(cond) {
                    writeln!(c.cond, "{arm} => truth({cond}),").ok();
                }
            }
            StmtKind::Phase(_, body) => {
                writeln!(c.phase_body, "{arm} => Ok({body}),").ok();
            }
            StmtKind::For(binds, body) => {
                let mut levels = String::new();
                let mut binding = String::new();
                for (level, b) in binds.iter().enumerate() {
                    let last = level + 1 == binds.len();
                    writeln!(levels, "{level} => Ok(({}, {last}, {body})),", b.slot).ok();
                    if let Ok(code) = self.binding(b) {
                        writeln!(binding, "{level} => {{ {code} }}").ok();
                    }
                }
                writeln!(c.for_level, "{arm} => match level {{\n{levels}_ => Err(()),\n}},").ok();
                writeln!(c.bind_for, "{arm} => match level {{\n{binding}_ => Err(()),\n}},").ok();
            }
            _ => {}
        }
    }

    /// `x = random s in D where C`: the binding's elements, the target's place, then one
    /// element drawn by lot (the interpreter's `draw`).
    fn draw(&mut self, target: &Target, b: &Binding, at: (u32, u32)) -> G<String> {
        let items = self.binding(b)?;
        writeln!(self.out, "impl K {{\nfn items_{}_{}(&mut self) -> R<u32> {{\n{items}\n}}\n}}", at.0, at.1).ok();
        let (place, index) = self.target(target)?;
        let write = match place {
            Place::Local(s) => format!("self.set_local({s}, value);"),
            Place::Var => "self.set_var(i, value)?;".to_string(),
        };
        Ok(format!(
            "let base = self.io().stack.len;\nlet len = self.items_{}_{}()?;\nif len == 0 {{ return Err(()); }}\n{index}\nself.next_pc();\nlet k = (self.io().below)(self.io, len as u64) as usize;\nlet value = self.stack_at((base + k.min(len as usize - 1)) as u32)?;\nself.io_mut().stack.len = base;\n{write}\nOk(Go::On)",
            at.0, at.1
        ))
    }

    /// A `case`: code making the value `arm` makes of the arm taken.
    fn case(
        &mut self,
        s: &Expr,
        arms: &[(Vec<Expr>, Expr)],
        o: &Expr,
        arm: fn(&mut Self, &Expr) -> G<String>,
    ) -> G<String> {
        let n = self.fresh();
        let mut code = format!("{{ let v = {}; 'c{n}: {{ ", self.expr(s)?);
        for (patterns, value) in arms {
            let value = arm(self, value)?;
            for p in patterns {
                write!(code, "if {} == v {{ break 'c{n} {value}; }} ", self.expr(p)?).ok();
            }
        }
        write!(code, "{} }} }}", arm(self, o)?).ok();
        Ok(code)
    }

    /// How long a text is, without writing it (the interpreter's `text_len`): code making a
    /// `usize`. A text is a template or a choice between texts (`if`, `case`).
    fn text_len(&mut self, e: &Expr) -> G<String> {
        let pieces = match &e.kind {
            ExprKind::Template(pieces) => pieces,
            ExprKind::If(c, t, o) => {
                let (c, t, o) = (self.expr(c)?, self.text_len(t)?, self.text_len(o)?);
                return Ok(format!("(if truth({c})? {{ {t} }} else {{ {o} }})"));
            }
            ExprKind::Case(s, arms, o) => return self.case(s, arms, o, Self::text_len),
            _ => return Ok("{ return Err(()); }".into()),
        };
        let mut code = String::from("{ let mut len = 0usize; ");
        for piece in pieces {
            match piece {
                TemplatePiece::Text(t) => write!(code, "len += {}usize; ", t.len()).ok(),
                TemplatePiece::Value(v, Type::Text) => write!(code, "len += {}; ", self.text_len(v)?).ok(),
                TemplatePiece::Value(v, ty) => {
                    let shown = self.shown_len(ty)?;
                    write!(code, "len += match {} {{ V::None => 0, value => {shown} }}; ", self.expr(v)?).ok()
                }
                TemplatePiece::Plural(x, one, many) => write!(
                    code,
                    "len += match {} {{ V::Int(n) => int_len(n) + 1 + if n == 1 || n == -1 {{ {}usize }} else {{ {}usize }}, _ => 0 }}; ",
                    self.expr(x)?,
                    one.len(),
                    many.len()
                )
                .ok(),
            };
        }
        code.push_str("len }");
        Ok(code)
    }

    /// How long a value of type `ty` named `value` is written out (`Names::shown_len`): code
    /// making a `usize`, handing any value shown otherwise to the interpreter.
    fn shown_len(&mut self, ty: &Type) -> G<String> {
        let mut arms = String::from(
            "V::Seat(s) if (s as usize) < SEAT_NAME_LEN.len() => SEAT_NAME_LEN[s as usize], V::Side(s) if (s as usize) < SIDE_NAME_LEN.len() => SIDE_NAME_LEN[s as usize], V::Card(c) if (c as usize) < CARD_NAME_LEN.len() => CARD_NAME_LEN[c as usize], ",
        );
        if let Type::Enum(e) = ty.base() {
            write!(arms, "V::Enum(v) if (v as usize) < ENUM_NAME_LEN[{e}].len() => ENUM_NAME_LEN[{e}][v as usize], ")
                .ok();
        }
        arms.push_str("V::Int(n) => int_len(n), V::Bool(b) => if b { 4 } else { 5 }, ");
        if let Type::Set(elem) = ty.base() {
            match &**elem {
                Type::Seat => arms.push_str("V::Set(bits) => set_len(bits, &SEAT_NAME_LEN)?, "),
                Type::Enum(e) => {
                    write!(arms, "V::Set(bits) => set_len(bits, ENUM_NAME_LEN[{e}])?, ").map_or((), |_| ())
                }
                _ => {}
            }
        }
        Ok(format!("match value {{ {arms}_ => return Err(()), }}"))
    }

    /// The variables a phase resets, each from its initial value, in order (the interpreter's
    /// `reset_vars`).
    fn resets(&mut self, phase: PhaseId) -> G<String> {
        let mut code = String::new();
        for (v, info) in self.game.vars.iter().enumerate() {
            if info.reset != Some(phase) {
                continue;
            }
            let init = self.expr(&info.init)?;
            let (base, n) = (self.var_base(v as VarId), self.var_count(v as VarId));
            write!(code, "let value = {{ let mut vm = Vm::new(); let vm = &mut vm; {init} }};\nfor i in {base}..{} {{ self.set_var(i, value)?; }}\n", base + n)
                .ok();
        }
        Ok(code)
    }

    /// An assignment's target: where it writes, and the code that works out its index `i`.
    fn target(&mut self, t: &Target) -> G<(Place, String)> {
        Ok(match t {
            Target::Local(s) => (Place::Local(*s), String::new()),
            Target::Var(v) => (Place::Var, format!("let i = {};", self.var_base(*v))),
            Target::VarAt(v, ix) => {
                let ix = self.expr(ix)?;
                let (base, n) = (self.var_base(*v), self.var_count(*v));
                let code = format!(
                    "let i = {{ let mut vm = Vm::new(); let vm = &mut vm; index({ix})? }};\nif i >= {n} {{ return Err(()); }}\nlet i = {base} + i;"
                );
                (Place::Var, code)
            }
        })
    }

    /// A decision's options, those of the first tier that allows any, appended to the
    /// position's (the interpreter's `add_options` and `legal`): written as the function
    /// `opts_B_I`. Gives the code of the deciding seat.
    fn options(&mut self, c: &Choose, at: (u32, u32)) -> G<String> {
        if c.group.is_some() {
            return Err(unsupported("a choice of several cards at once", c.span));
        }
        let by = self.expr(&c.by)?;
        let names = match c.menu {
            None => format!("self.set_local({}, item);", c.slot),
            Some(m) => format!(
                "let card = matches!(item, V::Card(_)); self.set_local({}, if card {{ item }} else {{ V::None }}); self.set_local({m}, if card {{ V::None }} else {{ item }});",
                c.slot
            ),
        };
        let mut tiers = String::new();
        let mut masked = false;
        for (t, tier) in c.tiers.iter().enumerate() {
            let code = match &tier.cond {
                None => format!("for j in 0..n {{ let item = self.item(&items, j)?; self.push_opt(item, {t}); }}"),
                Some(cond) => {
                    let plan = if c.elem == Type::Card { self.cards.plan(cond, c.slot) } else { None };
                    let each = format!(
                        "for j in 0..n {{ let item = self.item(&items, j)?; {names} if truth({})? {{ self.push_opt(item, {t}); }} }}",
                        self.expr(cond)?
                    );
                    match plan {
                        Some(plan) => {
                            masked = true;
                            let keep = self.mask(&plan, "cand")?;
                            format!(
                                "match cards {{ Some(cand) => {{ let keep = {keep}; for j in 0..n {{ let item = self.item(&items, j)?; if matches!(item, V::Card(c) if cs_has(keep, c)) {{ self.push_opt(item, {t}); }} }} }} None => {{ {each} }} }}"
                            )
                        }
                        None => each,
                    }
                }
            };
            writeln!(tiers, "if self.io().options.len == first {{ {code} }}").ok();
        }
        if masked {
            tiers = format!("let cards = self.items_cards(&items, n)?;\n{tiers}");
        }
        if c.tiers.is_empty() {
            tiers = "for j in 0..n { let item = self.item(&items, j)?; self.push_opt(item, 0); }".into();
        }
        let declared = match &c.declare {
            Some((_, _, when)) => self.declarations(when, &names)?,
            None => String::new(),
        };
        let items = match &c.domains[..] {
            [d] if matches!(d.kind, ExprKind::Zone(..) | ExprKind::ZoneAll(_)) => {
                let run = self.run(d)?;
                format!("let items = Items::Cards({run});")
            }
            ds => {
                let mut push = String::new();
                for d in ds {
                    let code = self.push_items(d)?;
                    writeln!(push, "{{ let mut vm = Vm::new(); let vm = &mut vm; {code} }}").ok();
                }
                format!("let base = self.io().stack.len;\n{push}let items = Items::Stack(base, self.io().stack.len);")
            }
        };
        writeln!(
            self.out,
            "impl K {{\nfn opts_{}_{}(&mut self) -> R<()> {{\nlet first = self.io().options.len;\nlet mut vm = Vm::new(); let vm = &mut vm;\n{items}\nlet n = self.count_items(&items);\nself.charge(n as u64)?;\n{tiers}\nif self.io().options.len == first {{ return Err(()); }}\n{declared}self.drop_items(&items);\nOk(())\n}}\n}}",
            at.0, at.1
        )
        .ok();
        Ok(by)
    }

    /// A declaration's options (the interpreter's `declarations`): each legal option from
    /// `first` on offered again, and once more declared where `when` holds for it; `names`
    /// binds the option's names to `item`.
    fn declarations(&mut self, when: &Expr, names: &str) -> G<String> {
        let when = self.expr(when)?;
        Ok(format!(
            "let plain = self.io().options.len;\nfor i in first..plain {{ let opt = self.opt_at(i); self.push_whole(opt); let item = opt.value; {names} if truth({when})? {{ self.push_whole(Opt {{ declared: true, ..opt }}); }} }}\nself.drop_options(first, plain);\n"
        ))
    }

    /// `choose`: the seat, then its options (the interpreter's `open_decision`).
    fn choose(&mut self, c: &Choose, at: (u32, u32), loc: &str) -> G<String> {
        let by = self.options(c, at)?;
        Ok(format!(
            "if self.io().options.len != 0 {{ return Err(()); }}\nlet seat = {{ let mut vm = Vm::new(); let vm = &mut vm; self.seat({by})? }};\nif self.opts_{}_{}().is_err() {{ self.io_mut().options.len = 0; return Err(()); }}\nself.next_pc();\nself.io_mut().at = {loc};\nOk(Go::Choice(seat))",
            at.0, at.1
        ))
    }

    /// `simultaneously`: the seats of the binding, each once, each with its options (the
    /// interpreter's `secret_decisions`), handed to paradox as the seats of a secret round.
    fn together(&mut self, b: &Binding, c: &Choose, at: (u32, u32), loc: &str) -> G<String> {
        let by = self.options(c, at)?;
        let items = self.binding(b)?;
        writeln!(self.out, "impl K {{\nfn items_{}_{}(&mut self) -> R<u32> {{\n{items}\n}}\n}}", at.0, at.1).ok();
        Ok(format!(
            "if self.io().options.len != 0 {{ return Err(()); }}\nlet base = self.io().stack.len;\nlet n = self.items_{0}_{1}()? as usize;\nlet mut seats: Vec<u8> = Vec::new();\nfor i in base..base + n {{ if let V::Seat(s) = self.stack_at(i as u32)? {{ if !seats.contains(&s) {{ seats.push(s); }} }} }}\nself.io_mut().stack.len = base;\nlet mut secrets: Vec<[u32; 3]> = Vec::with_capacity(seats.len());\nfor &seat in &seats {{\nself.set_local({slot}, V::Seat(seat));\nlet by = {{ let mut vm = Vm::new(); let vm = &mut vm; self.seat({by}) }};\nif by != Ok(seat) {{ self.io_mut().options.len = 0; return Err(()); }}\nlet start = self.io().options.len;\nif self.opts_{0}_{1}().is_err() {{ self.io_mut().options.len = 0; return Err(()); }}\nsecrets.push([seat as u32, start as u32, (self.io().options.len - start) as u32]);\n}}\nself.next_pc();\nif secrets.is_empty() {{ return Ok(Go::On); }}\nself.set_secrets(&secrets);\nself.io_mut().at = {loc};\nOk(Go::Together)",
            at.0,
            at.1,
            slot = b.slot
        ))
    }

    /// `deal`: the interpreter's `deal`, cards one by one from the top of the source.
    fn deal(&mut self, count: Option<&Expr>, from: &Expr, zone: ZoneId, starting: Option<&Expr>) -> G<String> {
        let from = self.pile(from)?;
        let count = match count {
            Some(n) => format!("Some({{ let mut vm = Vm::new(); let vm = &mut vm; int({})? }})", self.expr(n)?),
            None => "None".into(),
        };
        let first = match starting {
            Some(s) => {
                format!("{{ let mut vm = Vm::new(); let vm = &mut vm; self.seat({})? as usize }}", self.expr(s)?)
            }
            None => "0".into(),
        };
        let zones: Vec<String> = self.layout.pile_zone.iter().map(|(z, _)| z.to_string()).collect();
        let base = self.layout.zone_base[zone as usize];
        Ok(format!(
            "let source = {{ let mut vm = Vm::new(); let vm = &mut vm; {from}.ok_or(())? }};\nconst ZONES: [u16; {}] = [{}];\nif ZONES.get(source).copied() == Some({zone}) {{ return Err(()); }}\nlet each: Option<i64> = {count};\nlet first: usize = {first};\nlet size = self.pile(source).len();\nlet total = match each {{ Some(n) if n < 0 || (n as usize).saturating_mul(SEATS) > size => return Err(()), Some(n) => n as usize * SEATS, None => size }};\nself.next_pc();\nself.deal(source, total, {base}, first);\nOk(Go::On)",
            zones.len(),
            zones.join(", ")
        ))
    }

    /// A binding's elements pushed on the stack, started and filtered (the interpreter's
    /// `binding_items`): code that ends with their number.
    fn binding(&mut self, b: &Binding) -> G<String> {
        let push = self.push_items(&b.domain)?;
        let start = match &b.start {
            Some(s) => format!(
                "let first = {{ let mut vm = Vm::new(); let vm = &mut vm; {} }}; self.rotate_to(base, first);",
                self.expr(s)?
            ),
            None => String::new(),
        };
        let filter = match &b.filter {
            Some(f) => {
                let plan = if of_cards(&b.domain) { self.cards.plan(f, b.slot) } else { None };
                let each = format!(
                    "let mut vm = Vm::new(); let vm = &mut vm; let mut kept = base; for i in base..self.io().stack.len {{ let item = self.stack_at(i as u32)?; self.set_local({}, item); if truth({})? {{ self.set_stack(kept, item); kept += 1; }} }} self.io_mut().stack.len = kept;",
                    b.slot,
                    self.expr(f)?
                );
                match plan {
                    Some(plan) => {
                        let keep = self.mask(&plan, "cand")?;
                        format!(
                            "match self.stack_cards(base)? {{ Some(cand) => {{ let keep = {{ let mut vm = Vm::new(); let vm = &mut vm; {keep} }}; let mut kept = base; for i in base..self.io().stack.len {{ let item = self.stack_at(i as u32)?; if matches!(item, V::Card(c) if cs_has(keep, c)) {{ self.set_stack(kept, item); kept += 1; }} }} self.io_mut().stack.len = kept; }} None => {{ {each} }} }}"
                        )
                    }
                    None => each,
                }
            }
            None => String::new(),
        };
        Ok(format!(
            "let base = self.io().stack.len;\n{{ let mut vm = Vm::new(); let vm = &mut vm; {push} }}\n{start}\n{filter}\nOk((self.io().stack.len - base) as u32)"
        ))
    }

    // ---- masks ----

    /// A card condition planned as set operations (the interpreter's `Vm::mask`): code making
    /// the cards of the set named `cand` that meet it.
    fn mask(&mut self, m: &Mask<&Expr>, cand: &str) -> G<String> {
        let n = self.fresh();
        let c = format!("cand{n}");
        let body = match m {
            Mask::Set(set) => format!("cs_and({c}, {:?})", set.words()),
            Mask::Scalar(x) => format!("if truth({})? {{ {c} }} else {{ CS0 }}", self.expr(x)?),
            Mask::Eq { table, rhs, negate } => {
                let op = if *negate { "cs_minus" } else { "cs_and" };
                format!("{{ let v = {}; {op}({c}, table_equal(&CARD_TABLE_{table}, v)) }}", self.expr(rhs)?)
            }
            Mask::In { table, set, negate } => {
                let op = if *negate { "cs_minus" } else { "cs_and" };
                format!("{{ let set = {}; {op}({c}, table_in(&CARD_TABLE_{table}, set)?) }}", self.expr(set)?)
            }
            Mask::Order { table, op, rhs, flip, .. } => {
                let k = match op {
                    BinOp::Lt => 0,
                    BinOp::Le => 1,
                    BinOp::Gt => 2,
                    _ => 3,
                };
                format!("{{ let v = {}; table_order(&CARD_TABLE_{table}, {c}, v, {k}, {flip})? }}", self.expr(rhs)?)
            }
            Mask::And(a, b) => {
                let first = self.mask(a, &c)?;
                format!("{{ let first = {first}; {} }}", self.mask(b, "first")?)
            }
            Mask::Or(a, b) => {
                let first = self.mask(a, &c)?;
                format!(
                    "{{ let first = {first}; let rest = cs_minus({c}, first); cs_or(first, {}) }}",
                    self.mask(b, "rest")?
                )
            }
            Mask::Not(a) => format!("cs_minus({c}, {})", self.mask(a, &c)?),
            Mask::If(x, t, o) => {
                format!("if truth({})? {{ {} }} else {{ {} }}", self.expr(x)?, self.mask(t, &c)?, self.mask(o, &c)?)
            }
            Mask::Bind(slot, x, inner) => {
                format!("{{ let v = {}; self.set_local({slot}, v); {} }}", self.expr(x)?, self.mask(inner, &c)?)
            }
            Mask::Each(slot, x) => format!(
                "{{ let mut out = CS0; for card in cs_cards({c}) {{ self.set_local({slot}, V::Card(card)); if truth({})? {{ out = cs_with(out, card); }} }} out }}",
                self.expr(x)?
            ),
        };
        Ok(format!("{{ let {c}: CS = {cand}; if cs_empty({c}) {{ {c} }} else {{ {body} }} }}"))
    }

    /// The per-card tables the masks look values up in.
    fn card_tables(&mut self) -> G<()> {
        let mut out = String::new();
        for (t, table) in self.cards.tables().iter().enumerate() {
            let rows: G<Vec<String>> =
                table.distinct.iter().map(|(v, set)| Ok(format!("({}, {:?})", lit(*v)?, set.words()))).collect();
            writeln!(out, "static CARD_TABLE_{t}: [(V, CS); {}] = [{}];", table.distinct.len(), rows?.join(", ")).ok();
        }
        self.out.push_str(&out);
        Ok(())
    }

    // ---- expressions ----

    /// Code pushing a domain's elements on the stack (the interpreter's `push_items`), with
    /// `vm` in scope.
    fn push_items(&mut self, d: &Expr) -> G<String> {
        if matches!(d.kind, ExprKind::Zone(..) | ExprKind::ZoneAll(_)) {
            let run = self.run(d)?;
            return Ok(format!(
                "let (a, b) = {run}; for i in a..b {{ let c = self.card_at(i); self.push(V::Card(c)); }}"
            ));
        }
        self.each(d, &mut |_, item, _| Ok(format!("self.push({item});")))
    }

    /// The card array's range for a domain that is one pile or a zone's piles.
    fn run(&mut self, d: &Expr) -> G<String> {
        Ok(match &d.kind {
            ExprKind::ZoneAll(z) => {
                let base = self.layout.zone_base[*z as usize];
                format!("self.bounds({base}, {})", base + self.layout.piles(*z))
            }
            _ => format!("match {} {{ Some(p) => self.bounds(p, p + 1), None => (0, 0) }}", self.pile(d)?),
        })
    }

    /// The pile a zone expression names: code making an `Option<usize>` (`?` on the problems).
    fn pile(&mut self, e: &Expr) -> G<String> {
        match &e.kind {
            ExprKind::Zone(z, None) => Ok(format!("Some({}usize)", self.layout.zone_base[*z as usize])),
            ExprKind::Zone(z, Some(ix)) => {
                let ix = self.expr(ix)?;
                Ok(format!("self.owned({}, {}, {ix})?", self.layout.zone_base[*z as usize], self.layout.piles(*z)))
            }
            _ => Ok("{ return Err(()); }".into()),
        }
    }

    /// Code going through a domain's elements in order (the interpreter's `for_each`): `body`
    /// gets the element's name and a label to `break` to stop.
    fn each(&mut self, d: &Expr, body: &mut dyn FnMut(&mut Self, &str, &str) -> G<String>) -> G<String> {
        let n = self.fresh();
        let (item, label) = (format!("item{n}"), format!("'l{n}"));
        let inner = body(self, &item, &label)?;
        let seats = self.game.seats.len();
        let code = match &d.kind {
            ExprKind::Seats => format!("for s in 0..{seats} {{ let {item} = V::Seat(s as u8); {inner} }}"),
            ExprKind::Sides => {
                format!("for s in 0..{} {{ let {item} = V::Side(s as u8); {inner} }}", self.game.sides.len())
            }
            ExprKind::EnumValues(en) => format!(
                "for s in 0..{} {{ let {item} = V::Enum(s as u16); {inner} }}",
                self.game.enums[*en as usize].values.len()
            ),
            ExprKind::List(xs) => {
                let mut code = String::new();
                for x in xs {
                    let x = self.expr(x)?;
                    write!(code, "{{ let {item} = {x}; {inner} }}").ok();
                }
                code
            }
            ExprKind::Binary(BinOp::Range, lo, hi) => {
                let (lo, hi) = (self.expr(lo)?, self.expr(hi)?);
                format!(
                    "let lo = int({lo})?; let hi = int({hi})?; let len = hi.saturating_sub(lo).saturating_add(1).max(0); self.charge(len as u64)?; for x in lo..=hi {{ let {item} = V::Int(x); {inner} }}"
                )
            }
            ExprKind::Builtin(Builtin::Others, args) => match args.first() {
                Some(a) => {
                    let a = self.expr(a)?;
                    format!(
                        "let s = self.seat({a})? as usize; for k in 1..{seats} {{ let {item} = V::Seat(((s + k) % {seats}) as u8); {inner} }}"
                    )
                }
                None => "return Err(());".into(),
            },
            ExprKind::Builtin(Builtin::Members, args) => match args.first() {
                Some(a) => {
                    let a = self.expr(a)?;
                    format!(
                        "let side_ix = match {a} {{ V::Side(t) => t as usize, _ => return Err(()) }}; let seats: &[u8] = SIDE_SEATS.get(side_ix).copied().unwrap_or(&[]); for &s in seats {{ let {item} = V::Seat(s); {inner} }}"
                    )
                }
                None => "return Err(());".into(),
            },
            ExprKind::Zone(..) | ExprKind::ZoneAll(_) => {
                let run = self.run(d)?;
                format!("let (a, b) = {run}; for i in a..b {{ let {item} = V::Card(self.card_at(i)); {inner} }}")
            }
            ExprKind::Aggregate(a) if a.op == AggOp::Cards => {
                let slot = a.slot;
                let piles = matches!(a.domain.kind, ExprKind::Zone(..) | ExprKind::ZoneAll(_));
                if let Some(f) = &a.filter
                    && piles
                    && let Some(plan) = self.cards.plan(f, slot)
                {
                    let run = self.run(&a.domain)?;
                    let keep = self.mask(&plan, "cand")?;
                    return Ok(format!(
                        "{label}: {{ let (a, b) = {run}; let cand = self.run_set(a, b); let keep = {keep}; for i in a..b {{ let c = self.card_at(i); if !cs_has(keep, c) {{ continue; }} self.set_local({slot}, V::Card(c)); let {item} = V::Card(c); {inner} }} }}"
                    ));
                }
                let cond = match &a.filter {
                    Some(f) => self.expr(f)?,
                    None => "V::Bool(true)".into(),
                };
                let inner = inner.clone();
                self.each(&a.domain, &mut |_, x, _| {
                    Ok(format!("self.set_local({slot}, {x}); if truth({cond})? {{ let {item} = {x}; {inner} }}"))
                })?
            }
            ExprKind::SetMembers(x, seats) => {
                let x = self.expr(x)?;
                let make = if *seats { "V::Seat(i as u8)" } else { "V::Enum(i as u16)" };
                format!(
                    "let bits = match {x} {{ V::Set(b) => b, _ => return Err(()) }}; for i in 0..64u32 {{ if bits & (1u64 << i) == 0 {{ continue; }} let {item} = {make}; {inner} }}"
                )
            }
            _ => {
                let x = self.expr(d)?;
                format!(
                    "match {x} {{ V::Card(c) => {{ let {item} = V::Card(c); {inner} }} V::None => {{}} _ => return Err(()), }}"
                )
            }
        };
        Ok(format!("{label}: {{ {code} }}"))
    }

    /// An expression: Rust code making a `V`, with `self` (the run) and `vm` (the evaluation)
    /// in scope, `?` on whatever the interpreter would stop at.
    fn expr(&mut self, e: &Expr) -> G<String> {
        let span = e.span;
        Ok(match &e.kind {
            ExprKind::Const(v) => lit(*v)?,
            ExprKind::Local(s) => format!("self.local({s})"),
            ExprKind::Var(v) => format!("self.var({})", self.var_base(*v)),
            ExprKind::VarAt(v, ix) => {
                let ix = self.expr(ix)?;
                format!("self.var({} + index({ix})?)", self.var_base(*v))
            }
            ExprKind::LocalAttr(s, a) => {
                format!("(match self.local({s}) {{ V::Card(c) => self.attr(c, {a})?, _ => V::None }})")
            }
            ExprKind::Attr(x, a) => {
                let x = self.expr(x)?;
                format!("(match {x} {{ V::Card(c) => self.attr(c, {a})?, _ => V::None }})")
            }
            ExprKind::Payload(x, en) => {
                let x = self.expr(x)?;
                format!("(match {x} {{ V::Enum(i) => *ENUM_PAYLOAD[{en}].get(i as usize).ok_or(())?, _ => V::None }})")
            }
            ExprKind::Is(x, en, m) => {
                let x = self.expr(x)?;
                format!(
                    "V::Bool(match {x} {{ V::Enum(i) => *ENUM_MEMBER[{en}].get(i as usize).ok_or(())? == {m}, _ => false }})"
                )
            }
            ExprKind::MakeEnum(en, m, p) => {
                let p = self.expr(p)?;
                format!(
                    "{{ let p = {p}; let i = (0..ENUM_MEMBER[{en}].len()).position(|i| ENUM_MEMBER[{en}][i] == {m} && ENUM_PAYLOAD[{en}][i] == p).ok_or(())?; V::Enum(i as u16) }}"
                )
            }
            ExprKind::Not(x) => format!("V::Bool(!truth({})?)", self.expr(x)?),
            ExprKind::Neg(x) => format!("V::Int(int({})?.checked_neg().ok_or(())?)", self.expr(x)?),
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r)?,
            ExprKind::Builtin(b, args) => self.builtin(*b, args)?,
            ExprKind::Call(f, _) if self.kept[*f as usize] => {
                return Err(unsupported("a call of a `memo` definition", e.span));
            }
            ExprKind::Call(f, args) => {
                let mut code = String::from("{ ");
                let mut names = Vec::new();
                for (i, a) in args.iter().enumerate() {
                    write!(code, "let a{i} = {}; ", self.expr(a)?).ok();
                    names.push(format!("a{i}"));
                }
                let args = if names.is_empty() { String::new() } else { format!(", {}", names.join(", ")) };
                write!(code, "self.f_{f}(vm{args})? }}").ok();
                code
            }
            ExprKind::If(c, t, o) => {
                format!("(if truth({})? {{ {} }} else {{ {} }})", self.expr(c)?, self.expr(t)?, self.expr(o)?)
            }
            ExprKind::Case(s, arms, o) => self.case(s, arms, o, Self::expr)?,
            ExprKind::Aggregate(a) if a.op == AggOp::Cards => "{ return Err(()); }".into(),
            ExprKind::Aggregate(a) => self.aggregate(a)?,
            ExprKind::List(xs) => {
                let mut code = String::from("{ let mut bits = 0u64; ");
                for x in xs {
                    write!(
                        code,
                        "bits |= match {} {{ V::Enum(i) if i < 64 => 1u64 << i, V::Seat(s) if s < 64 => 1u64 << s, _ => return Err(()) }}; ",
                        self.expr(x)?
                    )
                    .ok();
                }
                code.push_str("V::Set(bits) }");
                code
            }
            ExprKind::Template(_) => return Err(unsupported("a template worked out as a value", span)),
            _ => "{ return Err(()); }".into(),
        })
    }

    fn binary(&mut self, op: BinOp, l: &Expr, r: &Expr) -> G<String> {
        Ok(match op {
            BinOp::And => format!("V::Bool(truth({})? && truth({})?)", self.expr(l)?, self.expr(r)?),
            BinOp::Or => format!("V::Bool(truth({})? || truth({})?)", self.expr(l)?, self.expr(r)?),
            BinOp::In | BinOp::NotIn if r.is_collection() => {
                let v = self.expr(l)?;
                let n = self.fresh();
                let found = self.each(r, &mut |_, item, label| {
                    Ok(format!("if {item} == v{n} {{ found = true; break {label}; }}"))
                })?;
                let positive = op == BinOp::In;
                format!("{{ let v{n} = {v}; let mut found = false; {found} V::Bool(found == {positive}) }}")
            }
            BinOp::In | BinOp::NotIn => {
                let positive = op == BinOp::In;
                format!("V::Bool(member_of({}, {})? == {positive})", self.expr(l)?, self.expr(r)?)
            }
            BinOp::Range | BinOp::Union | BinOp::Without => "{ return Err(()); }".into(),
            BinOp::Eq | BinOp::Ne => {
                let equal = op == BinOp::Eq;
                format!("V::Bool(({} == {}) == {equal})", self.expr(l)?, self.expr(r)?)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let k = match op {
                    BinOp::Lt => 0,
                    BinOp::Le => 1,
                    BinOp::Gt => 2,
                    _ => 3,
                };
                format!("V::Bool(compare({}, {}, {k})?)", self.expr(l)?, self.expr(r)?)
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
                let k = match op {
                    BinOp::Add => 0,
                    BinOp::Sub => 1,
                    BinOp::Mul => 2,
                    BinOp::Div => 3,
                    _ => 4,
                };
                format!("arith({k}, {}, {})?", self.expr(l)?, self.expr(r)?)
            }
        })
    }

    fn builtin(&mut self, b: Builtin, args: &[Expr]) -> G<String> {
        let arity = if matches!(b, Builtin::Next | Builtin::Max | Builtin::Min) { 2 } else { 1 };
        if args.len() < arity {
            return Ok("{ return Err(()); }".into());
        }
        let n = self.game.seats.len() as i64;
        Ok(match b {
            Builtin::Count => match &args[0].kind {
                ExprKind::Zone(..) => {
                    format!(
                        "V::Int(match {} {{ Some(p) => self.pile(p).len() as i64, None => 0 }})",
                        self.pile(&args[0])?
                    )
                }
                ExprKind::ZoneAll(_) => {
                    let run = self.run(&args[0])?;
                    format!("{{ let (a, b) = {run}; V::Int((b - a) as i64) }}")
                }
                _ => {
                    let count = self.each(&args[0], &mut |_, _, _| Ok("count += 1;".into()))?;
                    format!("{{ let mut count = 0i64; {count} V::Int(count) }}")
                }
            },
            Builtin::First | Builtin::Last => {
                let first = b == Builtin::First;
                let end = self.each(&args[0], &mut |_, item, label| {
                    Ok(if first { format!("end = {item}; break {label};") } else { format!("end = {item};") })
                })?;
                format!("{{ let mut end = V::None; {end} end }}")
            }
            Builtin::Left | Builtin::Right | Builtin::Opposite => {
                let k = match b {
                    Builtin::Left => 1,
                    Builtin::Right => -1,
                    _ => n / 2,
                };
                format!("{{ let s = self.seat({})?; self.around(s, {k}i64) }}", self.expr(&args[0])?)
            }
            Builtin::Next => format!(
                "{{ let s = self.seat({})?; let k = int({})?; self.around(s, k) }}",
                self.expr(&args[0])?,
                self.expr(&args[1])?
            ),
            Builtin::SideOf => format!("SEAT_SIDE[self.seat({})? as usize]", self.expr(&args[0])?),
            Builtin::Holder | Builtin::Player => {
                format!("self.holder({}, {})?", self.expr(&args[0])?, b == Builtin::Holder)
            }
            Builtin::Ord => {
                format!("(match {} {{ V::Enum(i) => V::Int(i as i64), _ => return Err(()) }})", self.expr(&args[0])?)
            }
            Builtin::Abs => format!("V::Int(int({})?.checked_abs().ok_or(())?)", self.expr(&args[0])?),
            Builtin::Max | Builtin::Min => {
                let f = if b == Builtin::Max { "max" } else { "min" };
                format!(
                    "{{ let x = int({})?; let y = int({})?; V::Int(x.{f}(y)) }}",
                    self.expr(&args[0])?,
                    self.expr(&args[1])?
                )
            }
            Builtin::Others | Builtin::Members => "{ return Err(()); }".into(),
        })
    }

    /// An aggregate (the interpreter's `aggregate`, `pile_aggregate` and `tally`).
    fn aggregate(&mut self, a: &Aggregate) -> G<String> {
        if a.op == AggOp::First {
            return Err(unsupported("the first element meeting a condition", a.domain.span));
        }
        let slot = a.slot;
        let op = agg_op(a.op);
        let piles = matches!(a.domain.kind, ExprKind::Zone(..) | ExprKind::ZoneAll(_));
        let plan = match &a.filter {
            Some(f) if of_cards(&a.domain) => self.cards.plan(f, slot),
            _ => None,
        };
        if piles && (a.filter.is_none() || plan.is_some()) {
            let run = self.run(&a.domain)?;
            let (direct, keep) = match &plan {
                None => (
                    match a.op {
                        AggOp::Count => Some("V::Int(size as i64)"),
                        AggOp::Exists => Some("V::Bool(size > 0)"),
                        AggOp::Every => Some("V::Bool(true)"),
                        _ => None,
                    },
                    String::new(),
                ),
                Some(plan) => (
                    match a.op {
                        AggOp::Count => Some("V::Int(cs_len(keep))"),
                        AggOp::Exists => Some("V::Bool(!cs_empty(keep))"),
                        AggOp::Every => Some("V::Bool(keep == cand)"),
                        _ => None,
                    },
                    format!("let cand = self.run_set(a, b); let keep = {};", self.mask(plan, "cand")?),
                ),
            };
            let skip = if plan.is_some() { "if !cs_has(keep, c) { continue; }" } else { "" };
            let head = format!("let (a, b) = {run}; let size = b - a; self.charge(size as u64)?; {keep}");
            if let Some(direct) = direct {
                return Ok(format!("{{ {head} {direct} }}"));
            }
            let keys = a.body.as_ref().and_then(|b| self.cards.keys(b, slot));
            let each = match (keys, &a.body) {
                (Some(keys), _) => {
                    let n = self.fresh();
                    let (values, nums): (Vec<Value>, Vec<String>) =
                        keys.iter().map(|(v, k)| (*v, format!("{k}i64"))).unzip();
                    writeln!(
                        self.out,
                        "static KEYS{n}: [(V, i64); {}] = [{}];",
                        keys.len(),
                        values
                            .iter()
                            .zip(&nums)
                            .map(|(v, k)| Ok(format!("({}, {k})", lit(*v)?)))
                            .collect::<G<Vec<_>>>()?
                            .join(", ")
                    )
                    .ok();
                    format!(
                        "let (value, key) = *KEYS{n}.get(c as usize).ok_or(())?; tally.add_key(V::Card(c), value, key)?;"
                    )
                }
                (None, Some(body)) => {
                    let body = self.expr(body)?;
                    format!("self.set_local({slot}, V::Card(c)); let value = {body}; tally.add(V::Card(c), value)?;")
                }
                (None, None) => String::new(),
            };
            return Ok(format!(
                "{{ {head} let mut tally = Tally::new({op}); for i in a..b {{ let c = self.card_at(i); {skip} {each} }} tally.result()? }}"
            ));
        }
        let filter = match &a.filter {
            Some(f) => {
                format!("if !truth({})? {{ if !tally.reject() {{ break LABEL; }} continue_ = true; }}", self.expr(f)?)
            }
            None => String::new(),
        };
        let body = match &a.body {
            Some(b) => format!("let value = {}; tally.add(ITEM, value)?;", self.expr(b)?),
            None => String::new(),
        };
        let tally = self.each(&a.domain, &mut |_, item, label| {
            Ok(format!(
                "self.charge(1)?; self.set_local({slot}, {item}); let mut continue_ = false; {} if !continue_ {{ if !tally.count() {{ break {label}; }} {} }}",
                filter.replace("LABEL", label),
                body.replace("ITEM", item)
            ))
        })?;
        Ok(format!("{{ let mut tally = Tally::new({op}); {tally} tally.result()? }}"))
    }
}

/// Where an assignment writes.
enum Place {
    Local(Slot),
    /// A variable slot, `i` in the generated code.
    Var,
}
