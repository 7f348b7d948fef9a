//! Parameters and what changes them: defaults, named variants, scenarios and `--set` overrides
//! from the command line. Overrides are checked like the file and reported against the command
//! line's own text.

use super::decls::Parts;
use super::{Checker, Global, Origin};
use crate::diagnostic::{Code, Problem, did_you_mean};
use crate::game::{ParamInfo, Type, Value};
use crate::syntax::ast::{self, Literal, LiteralKind, Span};

/// What the user chose on the command line: `--set name=value` (as typed) and `--variant NAME`.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Each `--set NAME=VALUE`, as typed.
    pub sets: Vec<String>,
    /// The `--variant` chosen, if any.
    pub variant: Option<String>,
}

impl Settings {
    /// The command line as diagnostics show it, with the span of the variant's name and of each
    /// `--set` argument in it.
    pub fn layout(&self) -> (String, Option<Span>, Vec<Span>) {
        let mut text = String::new();
        let mut variant = None;
        if let Some(v) = &self.variant {
            text.push_str("--variant ");
            variant = Some(Span::new(text.len(), text.len() + v.len()));
            text.push_str(v);
        }
        let mut sets = Vec::new();
        for s in &self.sets {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str("--set ");
            sets.push(Span::new(text.len(), text.len() + s.len()));
            text.push_str(s);
        }
        (text, variant, sets)
    }
}

/// One `set` of a parameter, from a variant, a scenario or the command line.
#[derive(Clone, Debug)]
pub(super) struct SetChange {
    name: ast::Ident,
    value: Literal,
    origin: Origin,
    /// False for the variants that were not chosen: checked, not applied.
    active: bool,
}

/// A `replace phase` body and whether it is applied.
pub(super) struct Replacement<'a> {
    pub phase: String,
    pub span: Span,
    pub body: &'a ast::Block,
    pub origin: Origin,
    pub active: bool,
}

#[derive(Default)]
pub(super) struct Changes<'a> {
    sets: Vec<SetChange>,
    pub replacements: Vec<Replacement<'a>>,
    pub variant_name: Option<String>,
}

impl<'a> Changes<'a> {
    /// The body that replaces `phase`, with where it was written.
    pub(super) fn active_replacement(&self, phase: &str) -> Option<&Replacement<'a>> {
        self.replacements.iter().rev().find(|r| r.active && r.phase == phase)
    }
}

impl Checker {
    pub(super) fn collect_changes<'a>(
        &mut self,
        parts: &Parts<'a>,
        scenario: Option<&'a ast::Scenario>,
        settings: &Settings,
    ) -> Changes<'a> {
        let (_, variant_span, set_spans) = settings.layout();
        let mut changes = Changes::default();
        if let (Some(name), Some(span)) = (&settings.variant, variant_span)
            && !parts.variants.iter().any(|v| &v.name.name == name)
        {
            self.unknown_variant(name, span, parts);
        }
        for variant in &parts.variants {
            let active = settings.variant.as_ref() == Some(&variant.name.name);
            if active {
                changes.variant_name = Some(variant.name.name.clone());
            }
            changes.add_items(&variant.items, Origin::Rules, active);
        }
        if let Some(s) = scenario {
            changes.add_items(&s.items, Origin::Scenario, true);
        }
        for (text, span) in settings.sets.iter().zip(set_spans) {
            if let Some(change) = self.parse_set(text, span) {
                let given =
                    changes.sets.iter().find(|c| c.origin == Origin::Arguments && c.name.name == change.name.name);
                if let Some(first) = given.map(|c| c.name.span) {
                    self.set_twice(&change.name, first);
                }
                changes.sets.push(change);
            }
        }
        changes
    }

    /// A parameter given two values on the command line: which one was meant cannot be told.
    fn set_twice(&mut self, name: &ast::Ident, first: Span) {
        let problem =
            Problem::new(Code::Duplicate, format!("`{}` is set twice", name.name), name.span, "set again here")
                .note(first, "first set here")
                .help("give each parameter one value: drop one of the two `--set`s");
        let saved = self.origin.replace(Origin::Arguments);
        self.report(problem);
        self.origin = saved;
    }

    fn unknown_variant(&mut self, name: &str, span: Span, parts: &Parts) {
        let names: Vec<&str> = parts.variants.iter().map(|v| v.name.name.as_str()).collect();
        let param = parts.params.iter().any(|p| p.name.name == name);
        let problem = Problem::new(Code::UnknownTarget, format!("no variant `{name}`"), span, "unknown variant");
        let problem = match did_you_mean(name, names.iter().copied()) {
            _ if param => problem.help(format!("`{name}` is a parameter: set it with `--set {name}=VALUE`")),
            Some(s) => problem.did_you_mean(span, name, s),
            None if names.is_empty() => problem.help("this game declares no variants"),
            None => problem.help(format!("the variants are: {}", names.join(", "))),
        };
        let saved = self.origin.replace(Origin::Arguments);
        self.report(problem);
        self.origin = saved;
    }

    /// Reads `name=value` from the command line.
    fn parse_set(&mut self, text: &str, span: Span) -> Option<SetChange> {
        let saved = self.origin.replace(Origin::Arguments);
        let result = match text.split_once('=') {
            None => {
                self.error(
                    Code::Syntax,
                    format!("`{text}` is not of the form name=value"),
                    span,
                    "expected name=value",
                    format!("write `--set {}=VALUE`", if text.is_empty() { "NAME" } else { text }),
                );
                None
            }
            Some((name, value)) => {
                let name_span = Span::new(span.start, span.start + name.len());
                let value_span = Span::new(name_span.end + 1, span.end);
                let kind = match value.trim() {
                    "true" => LiteralKind::Bool(true),
                    "false" => LiteralKind::Bool(false),
                    v => match v.parse::<i64>() {
                        Ok(n) => LiteralKind::Int(n),
                        Err(_) => LiteralKind::Name(v.to_string()),
                    },
                };
                Some(SetChange {
                    name: ast::Ident { name: name.trim().to_string(), span: name_span },
                    value: Literal { kind, span: value_span },
                    origin: Origin::Arguments,
                    active: true,
                })
            }
        };
        self.origin = saved;
        result
    }

    pub(super) fn declare_params(&mut self, parts: &Parts, changes: &Changes) {
        if let Some(players) = parts.players.first()
            && let Some((max, default)) = players.range
        {
            let ident = ast::Ident { name: "players".into(), span: players.span };
            self.add_param(
                &ident,
                Type::Int,
                Value::Int(default.value),
                Some((players.min.value, max.value)),
                Some("the number of players".into()),
                players.span,
            );
            self.check_range(self.params.len() - 1, default.value, default.span);
        }
        for decl in &parts.params {
            self.declare_param(decl);
        }
        for change in &changes.sets {
            let saved = self.origin.replace(change.origin);
            self.apply_set(change);
            self.origin = saved;
        }
    }

    fn add_param(
        &mut self,
        ident: &ast::Ident,
        ty: Type,
        value: Value,
        range: Option<(i64, i64)>,
        doc: Option<String>,
        span: Span,
    ) {
        let id = self.params.len();
        self.define_global(ident, Global::Param(id));
        self.params.push(ParamInfo { name: ident.name.clone(), ty, value, range, doc, span });
    }

    fn declare_param(&mut self, decl: &ast::ParamDecl) {
        let mut ty = self.resolve_type(&decl.ty, false);
        if !matches!(ty, Type::Int | Type::Bool | Type::Enum(_) | Type::Error) {
            self.error(
                Code::TypeMismatch,
                format!("a parameter cannot be {}", self.a_type(&ty)),
                decl.ty.span,
                "not int, bool or an enumeration",
                "parameters are `int`, `bool` or an enumeration",
            );
            // Its value and its uses would only repeat the problem.
            ty = Type::Error;
        }
        let value = self.literal_value(&decl.default, &ty, &decl.name.name).unwrap_or(Value::None);
        // An empty range is reported below; checking values against it would only repeat that.
        let range = decl.range.map(|(lo, hi)| (lo.value, hi.value)).filter(|(lo, hi)| lo <= hi);
        if let Some((lo, hi)) = decl.range {
            if ty != Type::Int {
                self.error(
                    Code::TypeMismatch,
                    "only an int parameter has a range",
                    lo.span.to(hi.span),
                    "a range on a non-number",
                    "remove `in LOW..HIGH`",
                );
            } else if lo.value > hi.value {
                self.error(
                    Code::OutOfRange,
                    format!("the range {}..{} is empty", lo.value, hi.value),
                    lo.span.to(hi.span),
                    "low end above high end",
                    "write the lower number first",
                );
            }
        }
        self.add_param(&decl.name, ty, value, range, decl.doc.as_ref().map(|d| d.value.clone()), decl.span);
        if let Value::Int(n) = value {
            self.check_range(self.params.len() - 1, n, decl.default.span);
        }
    }

    fn check_range(&mut self, param: usize, n: i64, span: Span) {
        if let Some((lo, hi)) = self.params[param].range
            && (n < lo || n > hi)
        {
            let name = self.params[param].name.clone();
            self.error(
                Code::OutOfRange,
                format!("{n} is outside the range of `{name}`"),
                span,
                format!("not in {lo}..{hi}"),
                format!("`{name}` takes a whole number from {lo} to {hi}"),
            );
        }
    }

    fn apply_set(&mut self, change: &SetChange) {
        let Some(index) = self.params.iter().position(|p| p.name == change.name.name) else {
            let names: Vec<&str> = self.params.iter().map(|p| p.name.as_str()).collect();
            let name = &change.name;
            let problem = Problem::new(
                Code::UnknownTarget,
                format!("no parameter `{}`", name.name),
                name.span,
                "unknown parameter",
            );
            self.report(match did_you_mean(&name.name, names.iter().copied()) {
                Some(s) => problem.did_you_mean(name.span, &name.name, s),
                None if names.is_empty() => problem.help("this game declares no parameters"),
                None => problem.help(format!("the parameters are: {}", names.join(", "))),
            });
            return;
        };
        let ty = self.params[index].ty.clone();
        let Some(value) = self.literal_value(&change.value, &ty, &change.name.name) else { return };
        if let Value::Int(n) = value {
            self.check_range(index, n, change.value.span);
        }
        if change.active {
            self.params[index].value = value;
        }
    }

    /// A literal as a value of `ty` for the parameter `name`, or a problem naming the values
    /// allowed.
    fn literal_value(&mut self, lit: &Literal, ty: &Type, name: &str) -> Option<Value> {
        let value = match (&lit.kind, ty) {
            (_, Type::Error) => return None,
            (LiteralKind::Int(n), Type::Int) => Some(Value::Int(*n)),
            (LiteralKind::Bool(b), Type::Bool) => Some(Value::Bool(*b)),
            (LiteralKind::Name(n), Type::Enum(e)) => {
                let info = &self.enums[*e as usize];
                let member = info.members.iter().position(|m| &m.name == n && m.payload.is_none());
                member
                    .and_then(|m| info.values.iter().position(|v| v.member as usize == m))
                    .map(|v| Value::Enum(v as u16))
            }
            _ => None,
        };
        if value.is_some() {
            return value;
        }
        // Digits that are no number: too many of them.
        let digits = |n: &str| n.strip_prefix('-').unwrap_or(n).bytes().all(|b| b.is_ascii_digit());
        if matches!((&lit.kind, ty), (LiteralKind::Name(n), Type::Int) if n.len() > 1 && digits(n)) {
            self.error(
                Code::TypeMismatch,
                format!("`{name}` is a number, but `{}` is too large", written(&lit.kind)),
                lit.span,
                "does not fit in 64 bits",
                format!("a number may be at most {} either side of 0", i64::MAX),
            );
            return None;
        }
        let allowed = match ty {
            Type::Int => "a whole number".to_string(),
            Type::Bool => "`true` or `false`".to_string(),
            Type::Enum(e) => {
                let names: Vec<String> =
                    self.enums[*e as usize].members.iter().map(|m| format!("`{}`", m.name)).collect();
                format!("one of {}", names.join(", "))
            }
            _ => "no value".to_string(),
        };
        self.error(
            Code::TypeMismatch,
            format!("`{name}` is {}, not `{}`", self.a_type(ty), written(&lit.kind)),
            lit.span,
            format!("expected {}", self.a_type(ty)),
            format!("write {allowed}"),
        );
        None
    }
}

/// A literal as it was written.
fn written(kind: &LiteralKind) -> String {
    match kind {
        LiteralKind::Int(n) => n.to_string(),
        LiteralKind::Bool(b) => b.to_string(),
        LiteralKind::Name(n) => n.clone(),
    }
}

impl<'a> Changes<'a> {
    fn add_items(&mut self, items: &'a [ast::VariantItem], origin: Origin, active: bool) {
        for item in items {
            match item {
                ast::VariantItem::Set { name, value, .. } => {
                    self.sets.push(SetChange { name: name.clone(), value: value.clone(), origin, active })
                }
                ast::VariantItem::Replace { phase, body, .. } => self.replacements.push(Replacement {
                    phase: phase.name.clone(),
                    span: phase.span,
                    body,
                    origin,
                    active,
                }),
            }
        }
    }
}
