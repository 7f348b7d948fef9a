//! Limits that keep parsing, and every later pass over the syntax tree, within a small stack.
//!
//! Rule files are untrusted. Before pest runs, [`check_text`] rejects brackets nested deeper than
//! [`MAX_BRACKETS`] (and strings left open); after it, [`check_tree`] rejects parse trees deeper
//! than [`MAX_DEPTH`] (long `else if` chains, conditional values nested without brackets) and
//! expressions with more than [`MAX_OPERATORS`] operators, which would make as deep a tree.
//! Together they bound the depth of the syntax tree to about `MAX_DEPTH + MAX_OPERATORS`, so a
//! recursive pass over it needs well under a 2 MB stack.

use crate::diagnostic::{Code, Problem};
use crate::syntax::ast::Span;
use crate::syntax::grammar::Rule;
use crate::syntax::strings::{StringEnd, string_end};
use pest::iterators::{Pair, Pairs};

/// How deep `(`, `[` and `{` may nest, together.
pub(crate) const MAX_BRACKETS: usize = 64;
/// How deep the parse tree may be.
pub(crate) const MAX_DEPTH: usize = 256;
/// How many operators one expression may have, counting those of the expressions inside it.
pub(crate) const MAX_OPERATORS: usize = 256;

/// Checks bracket nesting and that every string is closed, in `text`, which starts at byte
/// `base` of the file. Brackets in comments do not count, nor those in strings but for the
/// `{...}` parts of a template ([`crate::syntax::strings`]). Returns where the
/// comments are, in order.
pub(crate) fn check_text(text: &str, base: usize) -> Result<Vec<Span>, Box<Problem>> {
    let bytes = text.as_bytes();
    let mut comments = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        i = match byte {
            b'"' => match string_end(bytes, i) {
                StringEnd::Closed(end) => end,
                StringEnd::Open(end) => return Err(unclosed_string(base + i, base + end).into()),
                StringEnd::TooDeep(at) => return Err(too_many_brackets(Span::new(base + at, base + at + 1)).into()),
            },
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let end = line_end(bytes, i);
                comments.push(Span::new(base + i, base + end));
                end
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_BRACKETS {
                    return Err(too_many_brackets(Span::new(base + i, base + i + 1)).into());
                }
                i + 1
            }
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                i + 1
            }
            _ => i + 1,
        };
    }
    Ok(comments)
}

fn line_end(bytes: &[u8], start: usize) -> usize {
    bytes[start..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |n| start + n)
}

fn unclosed_string(start: usize, end: usize) -> Problem {
    Problem::new(Code::Syntax, "this string is not closed", Span::new(start, end), "no closing `\"` on this line")
        .help("a string ends on the line where it starts: close it with `\"` (write `\\\"` for a quote inside it)")
}

fn too_many_brackets(span: Span) -> Problem {
    Problem::new(Code::TooDeep, format!("brackets nested more than {MAX_BRACKETS} deep"), span, "too deep")
        .help("name inner parts with `let` or `define`, or split the flow into phases")
}

/// Checks the depth of a parse tree and the number of operators in each expression; the tree
/// was read from text starting at byte `base` of the file. Walks without recursion.
pub(crate) fn check_tree(root: Pair<'_, Rule>, base: usize) -> Result<(), Box<Problem>> {
    let mut stack = vec![Frame { children: root.into_inner(), depth: 1, in_expr: false }];
    let mut operators = 0;
    while let Some(frame) = stack.last_mut() {
        let Some(pair) = frame.children.next() else {
            stack.pop();
            continue;
        };
        let (depth, in_expr) = (frame.depth, frame.in_expr);
        if depth > MAX_DEPTH {
            return Err(too_deep(leading_span(pair, base)).into());
        }
        let rule = pair.as_rule();
        if !in_expr && rule == Rule::expr {
            operators = 0;
        } else if in_expr && is_operator(rule) {
            operators += 1;
            if operators > MAX_OPERATORS {
                return Err(too_many_operators(span_of(&pair, base)).into());
            }
        }
        stack.push(Frame { children: pair.into_inner(), depth: depth + 1, in_expr: in_expr || rule == Rule::expr });
    }
    Ok(())
}

/// The children of a pair still to visit.
struct Frame<'i> {
    children: Pairs<'i, Rule>,
    depth: usize,
    in_expr: bool,
}

fn is_operator(rule: Rule) -> bool {
    use Rule::*;
    matches!(
        rule,
        neg | not
            | range_op
            | or
            | and
            | not_in
            | in_op
            | eq
            | ne
            | le
            | ge
            | lt
            | gt
            | add
            | sub
            | mul
            | div
            | rem
            | field
            | index
            | is_test
    )
}

/// The first token of a pair (its first leaf), to point at where a deep part starts.
fn leading_span(pair: Pair<'_, Rule>, base: usize) -> Span {
    let mut leaf = pair;
    while let Some(first) = leaf.clone().into_inner().next() {
        leaf = first;
    }
    span_of(&leaf, base)
}

fn span_of(pair: &Pair<'_, Rule>, base: usize) -> Span {
    let span = pair.as_span();
    Span::new(base + span.start(), base + span.end())
}

fn too_deep(span: Span) -> Problem {
    Problem::new(Code::TooDeep, format!("nested more than {MAX_DEPTH} levels deep"), span, "too deep")
        .help("a chain this long is hard to follow: use `case`, or name parts with `let` or `define`")
}

fn too_many_operators(span: Span) -> Problem {
    Problem::new(
        Code::TooDeep,
        format!("an expression with more than {MAX_OPERATORS} operators"),
        span,
        format!("operator {} of this expression", MAX_OPERATORS + 1),
    )
    .help("split the expression: name parts of it with `let` or `define`")
}
