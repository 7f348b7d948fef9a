//! The layout of expressions: brackets kept as written, long chains of operators broken before
//! the operators, conditional values as a chain of `if ... then ...` / `else ...` lines.

use super::doc::{Doc, concat, group, indent, sp};
use super::{ARGUMENTS, Layout, SQUARE};
use crate::syntax::ast::*;

/// How tightly an operator binds (as in the parser's table), and its words.
fn operator(op: BinOp) -> (u8, &'static [&'static str]) {
    match op {
        BinOp::Range => (0, &[".."]),
        BinOp::Or => (1, &["or"]),
        BinOp::And => (2, &["and"]),
        BinOp::In => (3, &["in"]),
        BinOp::NotIn => (3, &["not", "in"]),
        BinOp::Eq => (4, &["=="]),
        BinOp::Ne => (4, &["!="]),
        BinOp::Lt => (4, &["<"]),
        BinOp::Le => (4, &["<="]),
        BinOp::Gt => (4, &[">"]),
        BinOp::Ge => (4, &[">="]),
        BinOp::Add | BinOp::Union => (5, &["+"]),
        BinOp::Sub | BinOp::Without => (5, &["-"]),
        BinOp::Mul => (6, &["*"]),
        BinOp::Div => (6, &["/"]),
        BinOp::Rem => (6, &["%"]),
    }
}

impl Layout<'_> {
    /// An expression in the middle of a line: its continuation lines are indented.
    pub(super) fn inline(&mut self, expr: &Expr) -> Doc {
        indent(vec![self.expr(expr)])
    }

    /// A value after `=`: on the same line if it fits, else on the next line, indented. A
    /// `case` stays after the `=` and breaks its arms instead.
    pub(super) fn value(&mut self, expr: &Expr) -> Doc {
        if matches!(expr.kind, ExprKind::Case { .. }) && self.paren_layers(expr.span) == 0 {
            return concat(vec![sp(), self.expr(expr)]);
        }
        group(vec![indent(vec![Doc::Line, self.expr(expr)])])
    }

    /// An expression with the brackets written around it.     /// Comments on lines of their own just before it come first, outside its groups.
    pub(super) fn expr(&mut self, expr: &Expr) -> Doc {
        let mut docs = self.comments_inline();
        let layers = self.paren_layers(expr.span);
        if layers == 0 {
            docs.push(self.bare(expr));
            return concat(docs);
        }
        docs.extend((0..layers).map(|_| self.tok("(")));
        docs.push(indent(vec![self.bare(expr)]));
        docs.extend((0..layers).map(|_| self.tok(")")));
        concat(docs)
    }

    /// How many pairs of brackets enclose the whole expression at `span`, which starts at the
    /// next token.
    fn paren_layers(&self, span: Span) -> usize {
        let Some(mut last) = self.tokens.partition_point(|t| t.span.end <= span.end).checked_sub(1) else {
            return 0;
        };
        let mut first = self.next;
        let mut layers = 0;
        while first < last && self.text_of(first) == "(" && self.matching[first] == Some(last) {
            layers += 1;
            first += 1;
            last -= 1;
        }
        layers
    }

    /// An expression without its enclosing brackets.
    fn bare(&mut self, expr: &Expr) -> Doc {
        match &expr.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::None | ExprKind::Text(_) => self.take(),
            ExprKind::Name(name) => self.tok(&name.name),
            ExprKind::Unary(UnOp::Neg, operand) => concat(vec![self.tok("-"), self.expr(operand)]),
            ExprKind::Unary(UnOp::Not, operand) => concat(vec![self.tok("not"), sp(), self.expr(operand)]),
            ExprKind::Binary(BinOp::Range, low, high) => concat(vec![self.expr(low), self.tok(".."), self.expr(high)]),
            ExprKind::Binary(op, ..) => self.chain(expr, operator(*op).0),
            ExprKind::Field(operand, name) => concat(vec![self.expr(operand), self.tok("."), self.tok(&name.name)]),
            ExprKind::Index(operand, index) => {
                concat(vec![self.expr(operand), self.tok("["), self.inline(index), self.tok("]")])
            }
            ExprKind::Is(operand, member) => {
                concat(vec![self.expr(operand), sp(), self.tok("is"), sp(), self.tok(&member.name)])
            }
            ExprKind::Call { func, args } => {
                let name = self.tok(&func.name);
                let args = self.listed(ARGUMENTS, args.len(), |l, i| match &args[i].name {
                    Some(name) => concat(vec![l.tok(&name.name), l.tok(":"), sp(), l.inline(&args[i].value)]),
                    None => l.inline(&args[i].value),
                });
                concat(vec![name, args])
            }
            ExprKind::CardRef(fields) => {
                let head = self.tok("card");
                let fields = self.listed(ARGUMENTS, fields.len(), |l, i| {
                    let (name, value) = &fields[i];
                    concat(vec![l.tok(&name.name), l.tok(":"), sp(), l.inline(value)])
                });
                concat(vec![head, fields])
            }
            ExprKind::If { .. } => self.if_chain(expr),
            ExprKind::Case { scrutinee, arms, otherwise } => {
                let mut docs = vec![self.tok("case"), sp(), self.inline(scrutinee), sp()];
                let body = self.braced(arms.len() + 1, |l, i| match arms.get(i) {
                    Some(arm) => l.case_arm(arm),
                    None => concat(vec![l.tok("else"), sp(), l.tok("=>"), sp(), l.inline(otherwise)]),
                });
                docs.push(body);
                group(docs)
            }
            ExprKind::Aggregate { op, binder, domain, filter, body } => {
                let word = if *op == AggOp::Cards { self.tok("cards") } else { self.take() };
                let mut docs =
                    vec![word, sp(), self.tok(&binder.name), sp(), self.tok("in"), sp(), self.inline(domain)];
                let mut tail = Vec::new();
                if let Some(filter) = filter {
                    tail.extend([Doc::Line, self.tok("where"), sp(), self.inline(filter)]);
                }
                if let Some(body) = body {
                    tail.extend([Doc::Line, self.take(), sp(), self.inline(body)]);
                }
                docs.push(indent(tail));
                group(docs)
            }
            ExprKind::List(items) => self.listed(SQUARE, items.len(), |l, i| l.inline(&items[i])),
            ExprKind::PileEnd { last, count, pile } => {
                let side = self.tok(if *last { "last" } else { "first" });
                concat(vec![side, sp(), self.expr(count), sp(), self.tok("of"), sp(), self.expr(pile)])
            }
        }
    }

    /// `a + b - c`: the operators of one strength in a row, broken before each when too long.
    fn chain(&mut self, expr: &Expr, strength: u8) -> Doc {
        let mut rest = Vec::new();
        let mut first = expr;
        while let ExprKind::Binary(op, left, right) = &first.kind {
            let same = *op != BinOp::Range && operator(*op).0 == strength;
            if !same || (!std::ptr::eq(first, expr) && self.paren_layers(first.span) > 0) {
                break;
            }
            rest.push((*op, &**right));
            first = left;
        }
        let mut docs = vec![self.expr(first)];
        for (op, operand) in rest.into_iter().rev() {
            docs.push(Doc::Line);
            for (i, word) in operator(op).1.iter().enumerate() {
                if i > 0 {
                    docs.push(sp());
                }
                docs.push(self.tok(word));
            }
            docs.extend([sp(), self.expr(operand)]);
        }
        group(docs)
    }

    /// `if a then x else if b then y else z`: one arm per line when too long.
    fn if_chain(&mut self, expr: &Expr) -> Doc {
        let mut docs = Vec::new();
        let mut arm = expr;
        while let ExprKind::If { cond, then, otherwise } = &arm.kind {
            let mut head = vec![self.tok("if"), sp(), self.inline(cond)];
            head.push(indent(vec![Doc::Line, self.tok("then"), sp(), self.inline(then)]));
            docs.extend([group(head), Doc::Line, self.tok("else"), sp()]);
            if !matches!(otherwise.kind, ExprKind::If { .. }) || self.paren_layers(otherwise.span) > 0 {
                docs.push(self.inline(otherwise));
                break;
            }
            arm = otherwise;
        }
        group(docs)
    }

    /// `a, b => value`
    fn case_arm(&mut self, arm: &CaseArm) -> Doc {
        let mut docs = Vec::new();
        for (i, pattern) in arm.patterns.iter().enumerate() {
            if i > 0 {
                docs.extend([self.tok(","), sp()]);
            }
            docs.push(self.inline(pattern));
        }
        docs.extend([sp(), self.tok("=>"), sp(), self.inline(&arm.value)]);
        group(docs)
    }
}
