use super::*;

const EXAMPLE: &str = r#"game "Open Tricks"
players 2
seats A, B, ProxyA "A's proxy", ProxyB "B's proxy"
seat ProxyA played by A
side SideA "side A" { A, ProxyA }
param trick_cost: int = 20 in 0..220 "points a trick costs"
param free_new_trump: bool = false
enum Colour { red, green, purple, blue }
enum Bid { cards, best, named(suit: Suit) "bid {suit}", shorts }
card { colour: Colour  rank: 0..10  points: int = rank  name "{colour} {rank}" }
deck { for c in Colour, r in 0..10 { card { colour: c, rank: r } } }
zone hand per seat { see: owner count: everyone }
var trump: Colour? = none reset trick
var spent: set of Colour = [] reset trick
var chips: int per side = 0
define fits(c: card, l: card): bool = c.colour == l.colour or l == none
play {
  repeat until max t in sides of chips[t] >= 3 {
    phase round {
      shuffle stock
      deal 11 each from stock to hand starting left(A)
      let leader = holder(card(colour: red, rank: 0))
      for s in seats from leader where count(hand[s]) > 0 {
        choose c from hand[s] by s
          where c.colour == first(trick).colour
          else c.colour == trump
          else c.colour not in spent then { trump = c.colour  spent += c.colour }
          else any
          declare low when c.rank == 10
          as "play {c}"
        move c to trick
      }
      let w = highest c in trick by if c.colour == trump then 100 + c.rank else c.rank
      chips[side(player(w))] += 1
      move random 3 of cards c in stock where c.rank > 5 to trick
      let first = random s in seats where chips[side(s)] == 0
      say "{player(w)} wins with {w}"
      simultaneously for s in others(leader) { choose b from 0..9 by s  bid[s] = b }
      if x { redo round } else if y { end round } else { x -= 1 }
    }
  }
}
result highest t in sides by chips[t]
variant quick "first to one chip" { set chips_to_win = 1  replace phase round { say "hi" } }
"#;

fn parsed(source: &str) -> File {
    parse(source).unwrap_or_else(|problems| panic!("{source}\n{problems:#?}"))
}

fn problems(source: &str) -> Vec<Problem> {
    match parse(source) {
        Ok(file) => panic!("{source} parsed: {file:?}"),
        Err(problems) => problems,
    }
}

fn items(source: &str) -> Vec<Item> {
    match parsed(source).body {
        FileBody::Rules(items) => items,
        FileBody::Scenario(scenario) => panic!("a scenario: {scenario:?}"),
    }
}

/// The statements of the `play` block of `play { <body> }`.
fn stmts(body: &str) -> Vec<StmtKind> {
    match items(&format!("play {{ {body} }}")).pop() {
        Some(Item::Play(play)) => play.body.stmts.into_iter().map(|s| s.kind).collect(),
        other => panic!("not a play block: {other:?}"),
    }
}

/// The expression `e` of `play { x = <e> }`, with the source it was read from.
fn expr(text: &str) -> (Expr, String) {
    let source = format!("play {{ x = {text} }}");
    match stmts(text_of_assign(text).as_str()).pop() {
        Some(StmtKind::Assign { value: Rhs::Expr(expr), .. }) => (expr, source),
        other => panic!("not an assignment: {other:?}"),
    }
}

fn text_of_assign(text: &str) -> String {
    format!("x = {text}")
}

/// The expression as a bracketed string: `(a + (b * c))`.
fn shape(expr: &Expr) -> String {
    match &expr.kind {
        ExprKind::Int(n) => n.to_string(),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::None => "none".to_string(),
        ExprKind::Name(name) => name.name.clone(),
        ExprKind::Unary(op, e) => format!("({op:?} {})", shape(e)),
        ExprKind::Binary(op, a, b) => format!("({} {op:?} {})", shape(a), shape(b)),
        ExprKind::Field(e, name) => format!("{}.{}", shape(e), name.name),
        ExprKind::Index(e, i) => format!("{}[{}]", shape(e), shape(i)),
        ExprKind::Is(e, name) => format!("({} is {})", shape(e), name.name),
        ExprKind::Call { func, args } => {
            let args: Vec<String> = args.iter().map(|a| shape(&a.value)).collect();
            format!("{}({})", func.name, args.join(", "))
        }
        other => format!("{other:?}"),
    }
}

fn text(source: &str, span: Span) -> &str {
    &source[span.start..span.end]
}

/// Syntax errors must speak in words: no rule ids.
fn assert_in_words(problem: &Problem) {
    for text in [&problem.message, &problem.label] {
        for id in ["k_", "_stmt", "_decl", "_op", "EOI", "expr_only", "ident", "Rule"] {
            assert!(!text.contains(id), "{text:?} names a rule ({id})");
        }
    }
}

// ------------------------------------------------------------------ whole files

#[test]
fn parses_the_example_rule_file() {
    let items = items(EXAMPLE);
    assert_eq!(items.len(), 19);
    let Item::Seats(seats) = &items[2] else { panic!("{:?}", items[2]) };
    let names: Vec<_> = seats.seats.iter().map(|s| s.name.name.as_str()).collect();
    assert_eq!(names, ["A", "B", "ProxyA", "ProxyB"]);
    assert_eq!(seats.seats[2].display.as_ref().map(|d| d.value.as_str()), Some("A's proxy"));
    let Item::Param(param) = &items[5] else { panic!("{:?}", items[5]) };
    assert_eq!(param.default.kind, LiteralKind::Int(20));
    assert_eq!(param.range.map(|(lo, hi)| (lo.value, hi.value)), Some((0, 220)));
    let Item::Enum(bid) = &items[8] else { panic!("{:?}", items[8]) };
    assert_eq!(bid.members[0].name.name, "cards");
    assert!(bid.members[2].payload.is_some());
    let Item::Zone(zone) = &items[11] else { panic!("{:?}", items[11]) };
    assert_eq!(zone.owner, Some(Owner::Seat));
    assert_eq!(zone.see.map(|(a, _)| a), Some(Audience::Owner));
    assert_eq!(zone.count.map(|(a, _)| a), Some(Audience::Everyone));
    assert!(matches!(items[18], Item::Variant(_)));
}

#[test]
fn every_span_covers_its_text() {
    let file = parsed(EXAMPLE);
    assert_eq!(file.span, Span::new(0, EXAMPLE.len()));
    let FileBody::Rules(items) = file.body else { panic!() };
    let Item::Var(var) = &items[12] else { panic!("{:?}", items[12]) };
    assert_eq!(text(EXAMPLE, var.span), "var trump: Colour? = none reset trick");
    assert_eq!(text(EXAMPLE, var.ty.span), "Colour?");
    assert!(var.ty.optional);
    assert_eq!(var.reset.as_ref().map(|r| text(EXAMPLE, r.span)), Some("trick"));
    let Item::Define(define) = &items[15] else { panic!("{:?}", items[15]) };
    assert_eq!(text(EXAMPLE, define.body.span), "c.colour == l.colour or l == none");
    let Item::Result(result) = &items[17] else { panic!("{:?}", items[17]) };
    assert_eq!(result.extreme, Extreme::Highest);
    assert_eq!(text(EXAMPLE, result.key.span), "chips[t]");
}

#[test]
fn spans_end_at_the_last_token_not_at_a_comment() {
    let source = "play {\n  x = a + b   // add them\n  // and more\n  y = 1 }";
    let Some(Item::Play(play)) = items(source).pop() else { panic!() };
    assert_eq!(text(source, play.body.stmts[0].span), "x = a + b");
    let StmtKind::Assign { value: Rhs::Expr(sum), .. } = &play.body.stmts[0].kind else { panic!() };
    assert_eq!(text(source, sum.span), "a + b");
    assert_eq!(text(source, play.body.stmts[1].span), "y = 1");
}

/// Checks every span in a tree, found through its serialized form: each covers text that
/// starts and ends with a token, a name's span covers the name, a string's its quotes.
fn check_spans(value: &serde_json::Value, source: &str) {
    use serde_json::Value;
    match value {
        Value::Object(fields) => {
            if let Some(span) = fields.get("span") {
                let start = span["start"].as_u64().unwrap_or(u64::MAX) as usize;
                let end = span["end"].as_u64().unwrap_or(u64::MAX) as usize;
                let text = source.get(start..end).unwrap_or_else(|| panic!("{span} out of the text"));
                assert!(!text.is_empty() && text.trim() == text, "{text:?} at {span}");
                if let Some(Value::String(name)) = fields.get("name").filter(|_| fields.len() == 2) {
                    assert_eq!(text, name);
                }
                let string = fields.get("value").is_some_and(Value::is_string) && fields.len() == 2;
                if string || fields.contains_key("parts") {
                    assert!(text.starts_with('"') && text.ends_with('"'), "{text:?}");
                }
            }
            fields.values().for_each(|v| check_spans(v, source));
        }
        Value::Array(items) => items.iter().for_each(|v| check_spans(v, source)),
        _ => {}
    }
}

#[test]
fn every_span_in_the_example_is_tight() {
    let FileBody::Rules(items) = parsed(EXAMPLE).body else { panic!() };
    let tree = serde_json::to_value(&items).expect("the tree serializes");
    check_spans(&tree, EXAMPLE);
}

#[test]
fn parses_a_scenario() {
    let source = r#"scenario "t" extends "../rules/x.cards" { set a = 1  replace phase deal { move card(colour: red, rank: 5) to hand[A] } }"#;
    let FileBody::Scenario(scenario) = parsed(source).body else { panic!("not a scenario") };
    assert_eq!(scenario.name.value, "t");
    assert_eq!(scenario.extends.value, "../rules/x.cards");
    assert!(matches!(
        &scenario.items[0],
        VariantItem::Set { name, value: Literal { kind: LiteralKind::Int(1), .. }, .. } if name.name == "a"
    ));
    let VariantItem::Replace { phase, body, .. } = &scenario.items[1] else { panic!("{:?}", scenario.items[1]) };
    assert_eq!(phase.name, "deal");
    let StmtKind::Move { cards, to, random } = &body.stmts[0].kind else { panic!("{:?}", body.stmts[0]) };
    assert!(random.is_none());
    assert!(matches!(&cards.kind, ExprKind::CardRef(fields) if fields.len() == 2));
    assert_eq!(text(source, to.span), "hand[A]");
}

#[test]
fn an_empty_file_is_an_empty_rule_file() {
    for source in ["", "  \n\t", "// only a comment\n// and another"] {
        assert_eq!(items(source), Vec::new());
    }
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let source = "\u{feff}game \"x\"";
    let Some(Item::Game(game)) = items(source).pop() else { panic!() };
    assert_eq!(text(source, game.span), "game \"x\"");
    let found = problems("\u{feff}game x");
    assert_eq!(text("\u{feff}game x", found[0].span), "x");
}

#[test]
fn reads_declarations() {
    let items = items(
        "players 4..6 default 4\n\
             param lead: Seat = north\n\
             param bonus: int = -9223372036854775808\n\
             card { owner: seat  pattern: Pattern?  kinds: set of Kind  name \"x\" }\n\
             define twice(n: int): int = n * 2",
    );
    let Item::Players(players) = &items[0] else { panic!("{:?}", items[0]) };
    assert_eq!(players.min.value, 4);
    assert_eq!(players.range.map(|(m, d)| (m.value, d.value)), Some((6, 4)));
    let Item::Param(lead) = &items[1] else { panic!("{:?}", items[1]) };
    assert_eq!(lead.default.kind, LiteralKind::Name("north".into()));
    let Item::Param(bonus) = &items[2] else { panic!("{:?}", items[2]) };
    assert_eq!(bonus.default.kind, LiteralKind::Int(i64::MIN));
    let Item::Card(card) = &items[3] else { panic!("{:?}", items[3]) };
    assert!(card.fields[1].ty.optional);
    assert!(
        matches!(&card.fields[2].ty.kind, TypeKind::SetOf(inner) if matches!(&inner.kind, TypeKind::Named(n) if n.name == "Kind"))
    );
    assert_eq!(card.name.as_ref().map(|n| n.parts.len()), Some(1));
    let Item::Define(define) = &items[4] else { panic!("{:?}", items[4]) };
    assert_eq!(define.params.len(), 1);
    assert_eq!(shape(&define.body), "(n Mul 2)");
}

// ------------------------------------------------------------------ expressions

#[test]
fn operators_bind_by_precedence() {
    let cases = [
        ("a + b * c", "(a Add (b Mul c))"),
        ("a * b + c", "((a Mul b) Add c)"),
        ("a - b - c", "((a Sub b) Sub c)"),
        ("a / b % c", "((a Div b) Rem c)"),
        ("not x in s", "((Not x) In s)"),
        ("x not in s", "(x NotIn s)"),
        ("a or b and c", "(a Or (b And c))"),
        ("a == b and c < d", "((a Eq b) And (c Lt d))"),
        ("a in s == b", "(a In (s Eq b))"),
        ("1..n + 1", "(1 Range (n Add 1))"),
        ("-a.b", "(Neg a.b)"),
        ("-a * b", "((Neg a) Mul b)"),
        ("not a or b", "((Not a) Or b)"),
        ("(a + b) * c", "((a Add b) Mul c)"),
        ("bid is named and x", "((bid is named) And x)"),
        ("score[s] >= 3", "(score[s] Ge 3)"),
        ("first(trick).colour != c", "(first(trick).colour Ne c)"),
        ("a <= b", "(a Le b)"),
        ("a > b", "(a Gt b)"),
    ];
    for (written, expected) in cases {
        assert_eq!(shape(&expr(written).0), expected, "{written}");
    }
}

#[test]
fn expression_spans_cover_operands_and_brackets() {
    let (e, source) = expr("(a + b) * c");
    assert_eq!(text(&source, e.span), "(a + b) * c");
    let ExprKind::Binary(_, lhs, _) = &e.kind else { panic!("{e:?}") };
    assert_eq!(text(&source, lhs.span), "(a + b)");
    let (e, source) = expr("-x.y[z]");
    assert_eq!(text(&source, e.span), "-x.y[z]");
}

#[test]
fn reads_primaries() {
    let (e, _) = expr("[two, three]");
    assert!(matches!(&e.kind, ExprKind::List(items) if items.len() == 2));
    let (e, _) = expr("true");
    assert_eq!(e.kind, ExprKind::Bool(true));
    let (e, _) = expr("none");
    assert_eq!(e.kind, ExprKind::None);
    let (e, _) = expr("next(s, n: 2)");
    let ExprKind::Call { func, args } = &e.kind else { panic!("{e:?}") };
    assert_eq!(func.name, "next");
    assert_eq!(args[0].name, None);
    assert_eq!(args[1].name.as_ref().map(|n| n.name.as_str()), Some("n"));
    let (e, _) = expr("if a then 1 else 2");
    assert!(matches!(&e.kind, ExprKind::If { .. }));
    let (e, source) = expr("case rank { jack, queen => 15  ace => 20  else => ord(rank) + 2 }");
    let ExprKind::Case { arms, otherwise, .. } = &e.kind else { panic!("{e:?}") };
    assert_eq!(arms[0].patterns.len(), 2);
    assert_eq!(text(&source, arms[1].span), "ace => 20");
    assert_eq!(shape(otherwise), "(ord(rank) Add 2)");
    let (e, _) = expr("\"plain\"");
    assert!(matches!(&e.kind, ExprKind::Text(t) if t.parts == [TemplatePart::Text("plain".into())]));
}

#[test]
fn reads_aggregates() {
    let (e, source) = expr("count t in seats where bid[t] > bid[s]");
    let ExprKind::Aggregate { op, binder, domain, filter, body } = &e.kind else { panic!("{e:?}") };
    assert_eq!(*op, AggOp::Count);
    assert_eq!(binder.name, "t");
    assert_eq!(text(&source, domain.span), "seats");
    assert_eq!(filter.as_deref().map(shape), Some("(bid[t] Gt bid[s])".into()));
    assert!(body.is_none());

    let (e, _) = expr("sum c in won[s] where c.suit == x of c.points");
    assert!(
        matches!(&e.kind, ExprKind::Aggregate { op: AggOp::Sum, filter: Some(_), body: Some(b), .. } if shape(b) == "c.points")
    );
    let (e, _) = expr("highest c in trick by c.rank");
    assert!(matches!(&e.kind, ExprKind::Aggregate { op: AggOp::Highest, filter: None, body: Some(_), .. }));
    let (e, _) = expr("exists d in hand where d.rank > 3");
    assert!(matches!(&e.kind, ExprKind::Aggregate { op: AggOp::Exists, .. }));
    let (e, _) = expr("cards c in hand[s] where c.kind == tf");
    assert!(matches!(&e.kind, ExprKind::Aggregate { op: AggOp::Cards, filter: Some(_), body: None, .. }));
    // `count(...)` and `max(a, b)` stay calls.
    assert_eq!(shape(&expr("count(hand[s]) + max(a, b)").0), "(count(hand[s]) Add max(a, b))");
}

#[test]
fn keywords_end_at_word_boundaries() {
    let statements = stmts(
        "ends = 3  shuffled = true  index = 1  iffy = 2  notable = x  order = 1  \
             forever = 0  dealer = 1  cards = 2  deal = 3  isle = 4  android = 5",
    );
    assert_eq!(statements.len(), 12);
    for statement in statements {
        assert!(matches!(statement, StmtKind::Assign { .. }), "{statement:?}");
    }
}

#[test]
fn a_long_integer_is_a_bad_literal() {
    let source = "play { x = 99999999999999999999 }";
    let found = problems(source);
    assert_eq!(found[0].code, Code::BadLiteral);
    assert_eq!(text(source, found[0].span), "99999999999999999999");
}

// ------------------------------------------------------------------ statements

#[test]
fn else_if_becomes_a_nested_if() {
    let mut statements = stmts("if x { redo round } else if y { end round } else { x -= 1 }");
    let Some(StmtKind::If { otherwise: Some(otherwise), .. }) = statements.pop() else { panic!("not an if with else") };
    assert_eq!(otherwise.stmts.len(), 1);
    let StmtKind::If { cond, then, otherwise: Some(last) } = &otherwise.stmts[0].kind else { panic!("{otherwise:?}") };
    assert_eq!(shape(cond), "y");
    assert!(matches!(&then.stmts[0].kind, StmtKind::End { phase } if phase.name == "round"));
    assert!(matches!(&last.stmts[0].kind, StmtKind::Assign { op: AssignOp::Sub, .. }));
}

#[test]
fn repeat_counts_and_repeat_until() {
    let statements = stmts("repeat 3 { x += 1 }  repeat until x > 3 { x += 1 }  while x { x -= 1 }");
    assert!(matches!(&statements[0], StmtKind::Repeat { count, .. } if shape(count) == "3"));
    assert!(matches!(&statements[1], StmtKind::RepeatUntil { cond, .. } if shape(cond) == "(x Gt 3)"));
    assert!(matches!(&statements[2], StmtKind::While { .. }));
}

#[test]
fn reads_a_choice_with_tiers() {
    let source = "play { choose c from hand[s], table by s \
                      where c.suit == led else c.suit == trump then { x = 1 } else any \
                      declare low when c.rank == ace as \"play {c}\" }";
    let Some(Item::Play(play)) = items(source).pop() else { panic!() };
    let StmtKind::Choose(choose) = &play.body.stmts[0].kind else { panic!("{:?}", play.body.stmts[0]) };
    assert_eq!(choose.name.name, "c");
    assert_eq!(choose.domains.len(), 2);
    assert_eq!(shape(&choose.by), "s");
    assert_eq!(choose.tiers.len(), 3);
    assert!(choose.tiers[0].then.is_none());
    assert!(choose.tiers[1].then.is_some());
    assert!(choose.tiers[2].cond.is_none());
    assert_eq!(text(source, choose.tiers[2].span), "any");
    assert_eq!(choose.declare.as_ref().map(|d| d.name.name.as_str()), Some("low"));
    assert_eq!(choose.label.as_ref().map(|l| text(source, l.span)), Some("\"play {c}\""));
}

#[test]
fn reads_cards_and_chance() {
    let statements = stmts(
        "deal 11 each from stock to hand starting left(A)  deal all from stock to hand \
             move random 3 of cards c in stock where c.rank > 5 to trick  shuffle stock \
             let first = random s in seats from a where chips[side(s)] == 0 \
             chips[side(s)] += 1",
    );
    assert!(
        matches!(&statements[0], StmtKind::Deal { count: Some(_), to, starting: Some(_), .. } if to.name == "hand")
    );
    assert!(matches!(&statements[1], StmtKind::Deal { count: None, starting: None, .. }));
    assert!(matches!(&statements[2], StmtKind::Move { random: Some(n), .. } if shape(n) == "3"));
    assert!(matches!(&statements[3], StmtKind::Shuffle { .. }));
    let StmtKind::Let { value: Rhs::Random(binding), .. } = &statements[4] else { panic!("{:?}", statements[4]) };
    assert!(binding.start.is_some() && binding.filter.is_some());
    assert!(matches!(&statements[5], StmtKind::Assign { target: Place { index: Some(_), .. }, op: AssignOp::Add, .. }));
}

#[test]
fn reads_loops_and_cards_made_in_the_deck() {
    let Some(Item::Deck(deck)) = items("deck { for c in Colour, r in 0..10 { card { colour: c, rank } } }").pop()
    else {
        panic!()
    };
    let StmtKind::For { bindings, body } = &deck.body.stmts[0].kind else { panic!("{deck:?}") };
    assert_eq!(bindings.len(), 2);
    assert_eq!(shape(&bindings[1].domain), "(0 Range 10)");
    let StmtKind::MakeCard { fields } = &body.stmts[0].kind else { panic!("{body:?}") };
    assert!(fields[0].1.is_some());
    assert!(fields[1].1.is_none());
}

// ------------------------------------------------------------------ strings and templates

#[test]
fn templates_split_into_text_and_expressions() {
    let source = "play { say \"{player(w)} wins with {w}\" }";
    let statements = stmts("say \"{player(w)} wins with {w}\"");
    let StmtKind::Say { text: template } = &statements[0] else { panic!("{statements:?}") };
    assert_eq!(text(source, template.span), "\"{player(w)} wins with {w}\"");
    let [TemplatePart::Expr(who), TemplatePart::Text(middle), TemplatePart::Expr(card)] = template.parts.as_slice()
    else {
        panic!("{template:?}")
    };
    assert_eq!(text(source, who.span), "player(w)");
    assert_eq!(middle, " wins with ");
    assert_eq!(text(source, card.span), "w");
}

#[test]
fn template_expressions_may_hold_braces_and_spaces() {
    let source = "play { say \"a \\{b\\} { case x { y => 1 else => 2 } }!\" }";
    let Some(Item::Play(play)) = items(source).pop() else { panic!() };
    let StmtKind::Say { text: template } = &play.body.stmts[0].kind else { panic!() };
    let [TemplatePart::Text(before), TemplatePart::Expr(case), TemplatePart::Text(after)] = template.parts.as_slice()
    else {
        panic!("{template:?}")
    };
    assert_eq!(before, "a {b} ");
    assert_eq!(text(source, case.span), "case x { y => 1 else => 2 }");
    assert_eq!(after, "!");
}

#[test]
fn strings_resolve_escapes() {
    let Some(Item::Game(game)) = items(r#"game "a \"b\" \\ \n \{c\}""#).pop() else { panic!() };
    assert_eq!(game.name.value, "a \"b\" \\ \n {c}");
}

#[test]
fn an_unknown_escape_is_a_bad_literal_at_the_escape() {
    let source = r#"game "ab\qc""#;
    let found = problems(source);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].code, Code::BadLiteral);
    assert_eq!(text(source, found[0].span), "\\q");
}

#[test]
fn template_mistakes_point_into_the_string() {
    let source = "play { say \"x {a b} {} {c\" }";
    let found = problems(source);
    assert_eq!(found.len(), 3, "{found:#?}");
    assert_eq!(text(source, found[0].span), "b");
    assert!(found[0].message.contains("the closing `}`"), "{}", found[0].message);
    assert_eq!(text(source, found[1].span), "}");
    assert!(found[1].message.contains("an expression"));
    assert_eq!(text(source, found[2].span), "{");
    assert!(found[2].message.contains("not closed"));
    for problem in &found {
        assert_eq!(problem.code, Code::Syntax);
        assert_in_words(problem);
    }
}

#[test]
fn a_stray_closing_brace_in_text_is_reported() {
    let source = "play { say \"a } b\" }";
    let found = problems(source);
    assert_eq!(text(source, found[0].span), "}");
    assert!(found[0].help.as_deref().is_some_and(|h| h.contains("\\}")));
}

#[test]
fn an_unclosed_string_is_reported_where_it_starts() {
    let source = "play { say \"abc\n }";
    let found = problems(source);
    assert_eq!(found[0].code, Code::Syntax);
    assert_eq!(text(source, found[0].span), "\"abc");
}

#[test]
fn a_card_name_given_twice_is_a_duplicate() {
    let source = "card { name \"a\" rank: 0..3 name \"b\" }";
    let found = problems(source);
    assert_eq!(found[0].code, Code::Duplicate);
    assert_eq!(text(source, found[0].span), "\"b\"");
    assert_eq!(text(source, found[0].notes[0].span), "\"a\"");
}

// ------------------------------------------------------------------ syntax errors

#[test]
fn syntax_errors_say_what_was_expected_in_words() {
    let cases = [
        ("play { let v = if a b }", "`then`", "b"),
        ("play { move c hand }", "`to`", "hand"),
        ("param x int", "`:`", "int"),
        ("play { for s seats {} }", "`in`", "seats"),
        ("zone h { see: all }", "`everyone`, `owner` or `nobody`", "all"),
        ("enum X { a b }", "`,`", "b"),
        ("play { if x y { } }", "a block `{ ... }`", "y"),
        ("play { x = a + }", "an expression", "}"),
        ("play { 123 }", "a statement", "123"),
        ("garbage", "a declaration", "garbage"),
        ("game \"x\" players 2 seats A B", "end of file", "B"),
        ("scenario \"a\" extends \"b\" { x }", "`set`", "x"),
    ];
    for (source, expected, found) in cases {
        let problems = problems(source);
        let problem = &problems[0];
        assert_eq!(problem.code, Code::Syntax, "{source}");
        assert!(problem.message.contains(expected), "{source}: {:?} lacks {expected}", problem.message);
        assert_eq!(text(source, problem.span), found, "{source}");
        assert_eq!(problem.label, format!("unexpected `{found}`"));
        assert_in_words(problem);
    }
}

#[test]
fn each_broken_declaration_is_reported() {
    let source =
        "game \"g\"\nparam x int\nzone hand { see: owner }\nplay { x = a + }\nvar y: int = 1\nenum E { a b }\n";
    let found = problems(source);
    let at: Vec<&str> = found.iter().map(|p| text(source, p.span)).collect();
    assert_eq!(at, ["int", "}", "b"], "{found:#?}");
    assert!(found.iter().all(|p| p.code == Code::Syntax));
    let (Some(file), _) = parse_partial(source) else { panic!("nothing read") };
    let FileBody::Rules(items) = file.body else { panic!("a scenario") };
    let kinds: Vec<&str> = items
        .iter()
        .map(|i| match i {
            Item::Game(_) => "game",
            Item::Zone(_) => "zone",
            Item::Var(_) => "var",
            other => panic!("{other:?} was broken"),
        })
        .collect();
    assert_eq!(kinds, ["game", "zone", "var"]);
}

#[test]
fn an_unclosed_block_is_reported_where_the_next_declaration_starts() {
    let source = "play {\n  x = 1\nresult highest s in seats by x\nvariant v { set }\n";
    let found = problems(source);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].help.as_deref().is_some_and(|h| h.contains("`}` missing")), "{:?}", found[0].help);
    assert_eq!(text(source, found[0].span), "result");
    assert_eq!(text(source, found[1].span), "}");
}

#[test]
fn syntax_errors_stop_at_the_limit() {
    let source = "param p int = 1\n".repeat(MAX_SYNTAX_ERRORS + 50);
    assert_eq!(problems(&source).len(), MAX_SYNTAX_ERRORS);
}

#[test]
fn a_scenario_is_reported_once() {
    let source = "scenario \"s\" extends \"r.cards\" {\n  set = 1\n}\ngame x\n";
    assert_eq!(problems(source).len(), 1);
    assert!(parse_partial(source).0.is_none());
}

#[test]
fn then_or_an_operator() {
    let found = problems("play { let v = if a b }");
    assert_eq!(found[0].message, "expected `then` or an operator");
}

#[test]
fn an_early_end_points_at_the_end_of_the_file() {
    let source = "card { a: int";
    let found = problems(source);
    assert_eq!(found[0].span, Span::new(source.len(), source.len()));
    assert_eq!(found[0].label, "unexpected end of file");
    assert!(found[0].help.is_some());
}

#[test]
fn common_slips_get_advice() {
    let cases = [
        ("play { x = 1 ; }", "remove the `;`"),
        ("play { if x = 1 { } }", "`==`"),
        ("play { if x then { } }", "braces"),
        ("play { x = a && b }", "`and`"),
        ("play { let end = 1 }", "keyword"),
    ];
    for (source, advice) in cases {
        let found = problems(source);
        let help = found[0].help.as_deref().unwrap_or_default();
        assert!(help.contains(advice), "{source}: {help:?}");
    }
}

// ------------------------------------------------------------------ limits and robustness

#[test]
fn deep_brackets_are_too_deep_not_a_crash() {
    let source = "(".repeat(100_000);
    let found = problems(&source);
    assert_eq!(found[0].code, Code::TooDeep);
    let limit = limits::MAX_BRACKETS;
    assert_eq!(found[0].span, Span::new(limit, limit + 1));
}

#[test]
fn brackets_in_strings_and_comments_do_not_count() {
    let source = format!("// {}\ngame \"{}\"", "(".repeat(1000), "\\{[(".repeat(1000));
    assert!(parse(&source).is_ok());
}

#[test]
fn long_expressions_are_too_deep() {
    let chain = vec!["a"; 100_000].join(" + ");
    let found = problems(&format!("play {{ x = {chain} }}"));
    assert_eq!(found[0].code, Code::TooDeep);
    let found = problems(&format!("play {{ x = {}a }}", "-".repeat(100_000)));
    assert_eq!(found[0].code, Code::TooDeep);
    let dots = ".b".repeat(100_000);
    let found = problems(&format!("play {{ x = a{dots} }}"));
    assert_eq!(found[0].code, Code::TooDeep);
}

#[test]
fn long_chains_without_brackets_are_too_deep() {
    let chains = [
        format!("play {{ if a {{}} {} }}", "else if a {} ".repeat(20_000)),
        format!("play {{ x = {} c }}", "if a then b else ".repeat(20_000)),
        format!("play {{ x = {} d }}", "sum c in ".repeat(20_000)),
    ];
    for source in chains {
        let found = problems(&source);
        assert_eq!(found[0].code, Code::TooDeep, "{:?}", found[0]);
    }
}

/// The deepest input the limits allow, of every kind of nesting.
fn deepest_allowed() -> Vec<String> {
    vec![
        format!("play {{ x = {}1{} }}", "(".repeat(63), ")".repeat(63)),
        format!("play {{ x = {}1{} }}", "f(".repeat(63), ")".repeat(63)),
        format!("play {{ x = {}1{} }}", "card(a: ".repeat(63), ")".repeat(63)),
        format!("play {{ x = {}1{} }}", "[".repeat(63), "]".repeat(63)),
        format!("play {{ x = {}1{} }}", "case a {else => ".repeat(63), "}".repeat(63)),
        format!("play {{ if a {{}} {} }}", "else if a {} ".repeat(250)),
        format!("play {{ x = {} c }}", "if a then b else ".repeat(120)),
        format!("play {{ x = {} d }}", "sum c in ".repeat(120)),
        format!("play {{ x = {}a }}", "not ".repeat(256)),
        format!("play {{ x = a{} }}", " + a".repeat(256)),
        format!("play {{ x = {}", "-f(a + -(b * [".repeat(21)) + &"]))".repeat(21) + " }",
        format!("play {{ {} }}", "choose c from h by s where x then { ".repeat(62)) + &"}".repeat(62),
        format!("play {{ say \"{{{}1{}}}\" }}", "(".repeat(63), ")".repeat(63)),
    ]
}

#[test]
fn the_deepest_allowed_input_fits_a_small_stack() {
    let run = || {
        for source in deepest_allowed() {
            let file = parse(&source).unwrap_or_else(|p| panic!("{source}: {p:?}"));
            let copy = file.clone();
            assert!(!format!("{copy:?}").is_empty());
            assert!(serde_json::to_string(&file).is_ok());
            assert_eq!(copy, file);
        }
    };
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(run)
        .expect("a test thread")
        .join()
        .expect("no stack overflow");
}

#[test]
fn one_more_level_is_too_deep() {
    let sources = [
        format!("play {{ x = {}1{} }}", "(".repeat(64), ")".repeat(64)),
        format!("play {{ x = {}a }}", "not ".repeat(257)),
        format!("play {{ x = a{} }}", " + a".repeat(257)),
    ];
    for source in sources {
        assert_eq!(problems(&source)[0].code, Code::TooDeep, "{source}");
    }
}

/// A small deterministic generator of awkward text.
fn awkward_texts() -> Vec<String> {
    const PIECES: [&str; 24] = [
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        "\"",
        "\\",
        "\n",
        " ",
        "//",
        "a",
        "if",
        "else",
        "=",
        "..",
        "-",
        "not",
        "in",
        "é",
        "\u{0}",
        "9999999999999999999999",
        "play",
        "card",
    ];
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..400)
        .map(|_| {
            let len = (next() % 40) as usize;
            (0..len).map(|_| PIECES[(next() % PIECES.len() as u64) as usize]).collect()
        })
        .collect()
}

#[test]
fn awkward_input_never_panics() {
    for source in awkward_texts() {
        if let Err(problems) = parse(&source) {
            assert!(!problems.is_empty());
            for problem in problems {
                assert!(problem.span.start <= problem.span.end && problem.span.end <= source.len());
                assert!(source.is_char_boundary(problem.span.start), "{source:?}");
                assert!(source.is_char_boundary(problem.span.end), "{source:?}");
            }
        }
    }
}

#[test]
fn every_prefix_of_a_rule_file_parses_or_fails_cleanly() {
    let cuts = EXAMPLE.char_indices().map(|(i, _)| i).step_by(5);
    for cut in cuts {
        let source = &EXAMPLE[..cut];
        if let Err(problems) = parse(source) {
            let problem = &problems[0];
            assert!(problem.span.end <= source.len(), "{source:?}");
            assert_in_words(problem);
        }
    }
}
