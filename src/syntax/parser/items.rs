//! Files, scenarios and the declarations of a rule file, and the types they write.

use super::*;

impl<'s, 'p> Reader<'s, 'p> {
    /// The whole file; its span is the whole text, white space and comments included.
    pub(super) fn file(&self, pair: Node<'s>) -> Option<File> {
        let span = Span::new(0, self.source.len());
        let mut children = Children::of(pair);
        let body = match children.maybe(Rule::scenario) {
            Some(scenario) => FileBody::Scenario(self.scenario(scenario)?),
            None => FileBody::Rules(children.map(|p| self.item(p)).collect::<Option<_>>()?),
        };
        Some(File { body, span, extra: Extra::default() })
    }

    pub(super) fn scenario(&self, pair: Node<'s>) -> Option<Scenario> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(Scenario {
            name: self.string(children.next()?),
            extends: self.string(children.next()?),
            items: children.map(|p| self.variant_item(p)).collect::<Option<_>>()?,
            span,
        })
    }

    pub(super) fn item(&self, pair: Node<'s>) -> Option<Item> {
        Some(match pair.as_rule() {
            Rule::game_decl => Item::Game(self.game_decl(pair)?),
            Rule::players_decl => Item::Players(self.players_decl(pair)?),
            Rule::seats_decl => Item::Seats(self.seats_decl(pair)?),
            Rule::control_decl => Item::Control(self.control_decl(pair)?),
            Rule::bottom_decl => Item::Bottom(self.bottom_decl(pair)?),
            Rule::side_decl => Item::Side(self.side_decl(pair)?),
            Rule::param_decl => Item::Param(self.param_decl(pair)?),
            Rule::enum_decl => Item::Enum(self.enum_decl(pair)?),
            Rule::card_decl => Item::Card(self.card_decl(pair)?),
            Rule::deck_decl => Item::Deck(self.deck_decl(pair)?),
            Rule::zone_decl => Item::Zone(self.zone_decl(pair)?),
            Rule::var_decl => Item::Var(self.var_decl(pair)?),
            Rule::define_decl => Item::Define(self.define_decl(pair)?),
            Rule::proc_decl => Item::Procedure(self.proc_decl(pair)?),
            Rule::play_decl => Item::Play(self.play_decl(pair)?),
            Rule::result_decl => Item::Result(self.result_decl(pair)?),
            Rule::solve_decl => Item::Solve(self.solve_decl(pair)?),
            Rule::variant_decl => Item::Variant(self.variant_decl(pair)?),
            Rule::show_decl => Item::Show(Box::new(self.show_decl(pair)?)),
            Rule::sheet_decl => Item::Sheet(self.sheet_decl(pair)?),
            _ => return None,
        })
    }

    pub(super) fn game_decl(&self, pair: Node<'s>) -> Option<GameDecl> {
        let span = self.span(&pair);
        let name = self.string(Children::of(pair).next()?);
        Some(GameDecl { name, span })
    }

    pub(super) fn players_decl(&self, pair: Node<'s>) -> Option<PlayersDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        let min = self.int(children.next()?);
        let range = match (children.next(), children.next()) {
            (Some(max), Some(default)) => Some((self.int(max), self.int(default))),
            _ => None,
        };
        Some(PlayersDecl { min, range, span })
    }

    pub(super) fn seats_decl(&self, pair: Node<'s>) -> Option<SeatsDecl> {
        let span = self.span(&pair);
        let seats = Children::of(pair).map(|p| self.named(p)).collect::<Option<_>>()?;
        Some(SeatsDecl { seats, span })
    }

    pub(super) fn named(&self, pair: Node<'s>) -> Option<Named> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(Named {
            name: self.ident(children.next()?),
            display: children.maybe(Rule::string).map(|p| self.string(p)),
            span,
        })
    }

    pub(super) fn control_decl(&self, pair: Node<'s>) -> Option<ControlDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(ControlDecl { seat: self.ident(children.next()?), by: self.ident(children.next()?), span })
    }

    pub(super) fn bottom_decl(&self, pair: Node<'s>) -> Option<BottomDecl> {
        let span = self.span(&pair);
        Some(BottomDecl { seat: self.ident(Children::of(pair).next()?), span })
    }

    pub(super) fn side_decl(&self, pair: Node<'s>) -> Option<SideDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(SideDecl {
            name: self.ident(children.next()?),
            display: children.maybe(Rule::string).map(|p| self.string(p)),
            seats: children.map(|p| self.ident(p)).collect(),
            span,
        })
    }

    pub(super) fn param_decl(&self, pair: Node<'s>) -> Option<ParamDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(ParamDecl {
            name: self.ident(children.next()?),
            ty: self.type_expr(children.next()?)?,
            default: self.literal(children.next()?)?,
            range: match children.maybe(Rule::param_range) {
                Some(range) => Some(self.param_range(range)?),
                None => None,
            },
            doc: children.maybe(Rule::string).map(|p| self.string(p)),
            span,
        })
    }

    pub(super) fn literal(&self, pair: Node<'s>) -> Option<Literal> {
        let span = self.span(&pair);
        let value = Children::of(pair).next()?;
        let kind = match value.as_rule() {
            Rule::signed_int => LiteralKind::Int(self.signed_int(value).value),
            Rule::bool_lit => LiteralKind::Bool(self.bool_lit(value)),
            Rule::ident => LiteralKind::Name(value.as_str().to_string()),
            _ => return None,
        };
        Some(Literal { kind, span })
    }

    pub(super) fn param_range(&self, pair: Node<'s>) -> Option<(IntLit, IntLit)> {
        let mut children = Children::of(pair);
        Some((self.signed_int(children.next()?), self.signed_int(children.next()?)))
    }

    pub(super) fn enum_decl(&self, pair: Node<'s>) -> Option<EnumDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(EnumDecl {
            name: self.ident(children.next()?),
            members: children.map(|p| self.enum_member(p)).collect::<Option<_>>()?,
            span,
        })
    }

    pub(super) fn enum_member(&self, pair: Node<'s>) -> Option<EnumMember> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(EnumMember {
            name: self.ident(children.next()?),
            payload: match children.maybe(Rule::payload) {
                Some(payload) => Some(self.payload(payload)?),
                None => None,
            },
            display: children.maybe(Rule::string).map(|p| self.string(p)),
            span,
        })
    }

    pub(super) fn payload(&self, pair: Node<'s>) -> Option<(Ident, TypeExpr)> {
        let mut children = Children::of(pair);
        Some((self.ident(children.next()?), self.type_expr(children.next()?)?))
    }

    pub(super) fn card_decl(&self, pair: Node<'s>) -> Option<CardDecl> {
        let span = self.span(&pair);
        let mut fields = Vec::new();
        let mut name: Option<Template> = None;
        for child in Children::of(pair) {
            match child.as_rule() {
                Rule::card_name => {
                    let template = self.card_name(child)?;
                    match &name {
                        Some(first) => self.report(twice("the card name", template.span, first.span)),
                        None => name = Some(template),
                    }
                }
                _ => fields.push(self.card_field(child)?),
            }
        }
        Some(CardDecl { fields, name, span })
    }

    pub(super) fn card_field(&self, pair: Node<'s>) -> Option<CardField> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(CardField {
            name: self.ident(children.next()?),
            ty: self.type_expr(children.next()?)?,
            derived: match children.next() {
                Some(expr) => Some(self.expr(expr)?),
                None => None,
            },
            span,
        })
    }

    pub(super) fn card_name(&self, pair: Node<'s>) -> Option<Template> {
        Some(self.template(Children::of(pair).next()?))
    }

    pub(super) fn deck_decl(&self, pair: Node<'s>) -> Option<DeckDecl> {
        let span = self.span(&pair);
        let body = self.block(Children::of(pair).next()?)?;
        Some(DeckDecl { body, span })
    }

    pub(super) fn zone_decl(&self, pair: Node<'s>) -> Option<ZoneDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        let mut zone = ZoneDecl {
            name: self.ident(children.next()?),
            owner: match children.maybe(Rule::owner) {
                Some(owner) => Some(self.owner(owner)?),
                None => None,
            },
            display: children.maybe(Rule::string).map(|s| self.string(s)),
            see: None,
            count: None,
            span,
        };
        for prop in children {
            let (is_see, audience, span) = self.zone_prop(prop)?;
            let (slot, what) = if is_see { (&mut zone.see, "`see`") } else { (&mut zone.count, "`count`") };
            match slot {
                Some((_, first)) => self.report(twice(what, span, *first)),
                None => *slot = Some((audience, span)),
            }
        }
        Some(zone)
    }

    pub(super) fn owner(&self, pair: Node<'s>) -> Option<Owner> {
        match Children::of(pair).next()?.as_rule() {
            Rule::owner_seat => Some(Owner::Seat),
            Rule::owner_side => Some(Owner::Side),
            _ => None,
        }
    }

    /// `see: owner` or `count: everyone`: whether it is `see`, the audience, and its span.
    pub(super) fn zone_prop(&self, pair: Node<'s>) -> Option<(bool, Audience, Span)> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        let is_see = children.next()?.as_rule() == Rule::see_prop;
        let audience = self.audience(children.next()?)?;
        Some((is_see, audience, span))
    }

    pub(super) fn audience(&self, pair: Node<'s>) -> Option<Audience> {
        match pair.as_str() {
            "everyone" => Some(Audience::Everyone),
            "owner" => Some(Audience::Owner),
            "nobody" => Some(Audience::Nobody),
            _ => None,
        }
    }

    pub(super) fn var_decl(&self, pair: Node<'s>) -> Option<VarDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(VarDecl {
            name: self.ident(children.next()?),
            ty: self.type_expr(children.next()?)?,
            owner: match children.maybe(Rule::owner) {
                Some(owner) => Some(self.owner(owner)?),
                None => None,
            },
            init: self.expr(children.next()?)?,
            reset: match children.next() {
                Some(reset) => Some(self.reset(reset)?),
                None => None,
            },
            span,
        })
    }

    pub(super) fn reset(&self, pair: Node<'s>) -> Option<Ident> {
        Some(self.ident(Children::of(pair).next()?))
    }

    pub(super) fn define_decl(&self, pair: Node<'s>) -> Option<DefineDecl> {
        let span = self.span(&pair);
        let memo = pair.clone().into_inner().any(|p| p.as_rule() == Rule::k_memo);
        let mut children = Children::of(pair);
        Some(DefineDecl {
            name: self.ident(children.next()?),
            params: children.run_of(Rule::fn_param).map(|p| self.fn_param(p)).collect::<Option<_>>()?,
            ret: self.type_expr(children.next()?)?,
            memo,
            body: self.expr(children.next()?)?,
            span,
        })
    }

    pub(super) fn proc_decl(&self, pair: Node<'s>) -> Option<ProcDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(ProcDecl {
            name: self.ident(children.next()?),
            params: children.run_of(Rule::fn_param).map(|p| self.fn_param(p)).collect::<Option<_>>()?,
            body: self.block(children.next()?)?,
            span,
        })
    }

    pub(super) fn fn_param(&self, pair: Node<'s>) -> Option<(Ident, TypeExpr)> {
        let mut children = Children::of(pair);
        Some((self.ident(children.next()?), self.type_expr(children.next()?)?))
    }

    pub(super) fn play_decl(&self, pair: Node<'s>) -> Option<PlayDecl> {
        let span = self.span(&pair);
        let body = self.block(Children::of(pair).next()?)?;
        Some(PlayDecl { body, span })
    }

    pub(super) fn result_decl(&self, pair: Node<'s>) -> Option<ResultDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(ResultDecl {
            extreme: self.extreme(children.next()?)?,
            binder: self.ident(children.next()?),
            domain: self.expr(children.next()?)?,
            key: self.expr(children.next()?)?,
            ties: children.map(|tie| self.expr(tie)).collect::<Option<Vec<Expr>>>()?,
            span,
        })
    }

    pub(super) fn solve_decl(&self, pair: Node<'s>) -> Option<SolveDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(SolveDecl {
            phase: self.ident(children.next()?),
            binder: self.ident(children.next()?),
            domain: self.expr(children.next()?)?,
            key: self.expr(children.next()?)?,
            span,
        })
    }

    pub(super) fn extreme(&self, pair: Node<'s>) -> Option<Extreme> {
        match pair.as_str() {
            "highest" => Some(Extreme::Highest),
            "lowest" => Some(Extreme::Lowest),
            _ => None,
        }
    }

    pub(super) fn show_decl(&self, pair: Node<'s>) -> Option<ShowDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(ShowDecl {
            each: match children.maybe(Rule::show_each) {
                Some(each) => Some(self.show_each(each)?),
                None => None,
            },
            text: self.template(children.next()?),
            when: match children.maybe(Rule::show_when) {
                Some(when) => Some(self.show_when(when)?),
                None => None,
            },
            span,
        })
    }

    pub(super) fn sheet_decl(&self, pair: Node<'s>) -> Option<SheetDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(SheetDecl {
            phase: self.ident(children.next()?),
            binder: self.ident(children.next()?),
            domain: self.expr(children.next()?)?,
            text: self.template(children.next()?),
            span,
        })
    }

    pub(super) fn show_each(&self, pair: Node<'s>) -> Option<Binding> {
        self.binding(Children::of(pair).next()?)
    }

    pub(super) fn show_when(&self, pair: Node<'s>) -> Option<Expr> {
        self.expr(Children::of(pair).next()?)
    }

    pub(super) fn variant_decl(&self, pair: Node<'s>) -> Option<VariantDecl> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(VariantDecl {
            name: self.ident(children.next()?),
            doc: children.maybe(Rule::string).map(|p| self.string(p)),
            items: children.map(|p| self.variant_item(p)).collect::<Option<_>>()?,
            span,
        })
    }

    pub(super) fn variant_item(&self, pair: Node<'s>) -> Option<VariantItem> {
        match pair.as_rule() {
            Rule::set_item => self.set_item(pair),
            Rule::replace_item => self.replace_item(pair),
            _ => None,
        }
    }

    pub(super) fn set_item(&self, pair: Node<'s>) -> Option<VariantItem> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(VariantItem::Set { name: self.ident(children.next()?), value: self.literal(children.next()?)?, span })
    }

    pub(super) fn replace_item(&self, pair: Node<'s>) -> Option<VariantItem> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        Some(VariantItem::Replace { phase: self.ident(children.next()?), body: self.block(children.next()?)?, span })
    }

    // ------------------------------------------------------------------ types

    pub(super) fn type_expr(&self, pair: Node<'s>) -> Option<TypeExpr> {
        let span = self.span(&pair);
        let mut children = Children::of(pair);
        let ty = children.next()?;
        let kind = match ty.as_rule() {
            Rule::set_type => self.set_type(ty)?,
            Rule::range_type => self.range_type(ty)?,
            Rule::card_type => TypeKind::Card,
            Rule::zone_type => TypeKind::Zone,
            Rule::ident => TypeKind::Named(self.ident(ty)),
            _ => return None,
        };
        let optional = children.maybe(Rule::optional).is_some();
        Some(TypeExpr { kind, optional, span })
    }

    pub(super) fn set_type(&self, pair: Node<'s>) -> Option<TypeKind> {
        let element = self.type_expr(Children::of(pair).next()?)?;
        Some(TypeKind::SetOf(Box::new(element)))
    }

    pub(super) fn range_type(&self, pair: Node<'s>) -> Option<TypeKind> {
        let mut children = Children::of(pair);
        let low = self.signed_int(children.next()?);
        let high = self.signed_int(children.next()?);
        Some(TypeKind::Range(low.value, high.value))
    }
}
