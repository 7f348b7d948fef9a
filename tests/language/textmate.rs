//! The TextMate grammar of the VS Code extension (`editors/vscode/syntaxes`), checked against
//! the language: every keyword of the pest grammar gets a scope, and in every rule file and
//! example each keyword (as the parser reads it), comment, string and number is scoped as one.
//!
//! The grammar is run by a small TextMate engine written here: `match` rules with captures, and
//! `begin`/`end` rules with their own patterns, over one line at a time, as editors do. Its
//! regular expressions are `fancy_regex`'s, which have the look-arounds of the editors' Oniguruma.

use fancy_regex::Regex;
use paradox::syntax::grammar::{ParadoxParser, Rule};
use pest::Parser;
use serde_json::Value;
use std::collections::HashMap;

// ------------------------------------------------------------------ a TextMate engine

/// A rule of the grammar, with its regular expressions compiled.
enum Pattern {
    Match { regex: Regex, name: Option<String>, captures: HashMap<usize, String> },
    Block(usize),
}

/// A `begin`/`end` rule.
struct Block {
    begin: Regex,
    end: Regex,
    name: Option<String>,
    begin_captures: HashMap<usize, String>,
    end_captures: HashMap<usize, String>,
    patterns: Vec<Pattern>,
}

struct Grammar {
    scope: String,
    patterns: Vec<Pattern>,
    blocks: Vec<Block>,
}

impl Grammar {
    fn load() -> Grammar {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/editors/vscode/syntaxes/paradox.tmLanguage.json");
        let json: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("the grammar")).expect("JSON");
        let mut grammar = Grammar {
            scope: json["scopeName"].as_str().expect("a scope").into(),
            patterns: Vec::new(),
            blocks: Vec::new(),
        };
        let mut blocks_by_name = HashMap::new();
        grammar.patterns = grammar.compile_all(&json["patterns"], &json["repository"], &mut blocks_by_name);
        grammar
    }

    fn compile_all(&mut self, patterns: &Value, repository: &Value, seen: &mut HashMap<String, usize>) -> Vec<Pattern> {
        patterns.as_array().expect("patterns").iter().flat_map(|p| self.compile(p, repository, seen)).collect()
    }

    /// A rule as patterns (an `include` or a list of `patterns` stands for several).
    fn compile(&mut self, rule: &Value, repository: &Value, seen: &mut HashMap<String, usize>) -> Vec<Pattern> {
        if let Some(include) = rule["include"].as_str() {
            let name = include.strip_prefix('#').expect("includes are from the repository");
            let included = &repository[name];
            assert!(!included.is_null(), "no rule {name}");
            if included["begin"].is_string()
                && let Some(&id) = seen.get(name)
            {
                return vec![Pattern::Block(id)];
            }
            return self.compile_named(included, repository, seen, name);
        }
        self.compile_named(rule, repository, seen, "")
    }

    fn compile_named(
        &mut self,
        rule: &Value,
        repository: &Value,
        seen: &mut HashMap<String, usize>,
        key: &str,
    ) -> Vec<Pattern> {
        let name = rule["name"].as_str().map(String::from);
        if let Some(regex) = rule["match"].as_str() {
            let captures = captures(&rule["captures"]);
            return vec![Pattern::Match { regex: regex_of(regex), name, captures }];
        }
        if let Some(begin) = rule["begin"].as_str() {
            let id = self.blocks.len();
            self.blocks.push(Block {
                begin: regex_of(begin),
                end: regex_of(rule["end"].as_str().expect("an end")),
                name,
                begin_captures: captures(&rule["beginCaptures"]),
                end_captures: captures(&rule["endCaptures"]),
                patterns: Vec::new(),
            });
            if !key.is_empty() {
                seen.insert(key.to_string(), id);
            }
            let inner = if rule["patterns"].is_array() {
                self.compile_all(&rule["patterns"], repository, seen)
            } else {
                Vec::new()
            };
            self.blocks[id].patterns = inner;
            return vec![Pattern::Block(id)];
        }
        self.compile_all(&rule["patterns"], repository, seen)
    }

    /// The scopes of every byte of a text, line by line.
    fn scopes(&self, text: &str) -> Vec<Vec<String>> {
        let mut scopes = vec![Vec::new(); text.len()];
        let mut stack: Vec<usize> = Vec::new();
        let mut line_start = 0;
        for line in text.split('\n') {
            self.line(line, line_start, &mut stack, &mut scopes);
            line_start += line.len() + 1;
        }
        scopes
    }

    /// The scopes of the text at the current place: the grammar's and the open blocks'.
    fn current(&self, stack: &[usize]) -> Vec<String> {
        std::iter::once(self.scope.clone()).chain(stack.iter().filter_map(|&b| self.blocks[b].name.clone())).collect()
    }

    fn line(&self, line: &str, base: usize, stack: &mut Vec<usize>, scopes: &mut [Vec<String>]) {
        let mut at = 0;
        while at <= line.len() {
            let patterns = stack.last().map_or(&self.patterns, |&b| &self.blocks[b].patterns);
            // The end of the open block first, then the patterns in order; the earliest wins.
            let mut best: Option<(usize, usize, Option<usize>, fancy_regex::Captures<'_, str>)> = None;
            if let Some(&b) = stack.last()
                && let Some(c) = search(&self.blocks[b].end, line, at)
            {
                best = Some((c.get(0).map_or(0, |m| m.start()), 0, None, c));
            }
            for (i, pattern) in patterns.iter().enumerate() {
                let regex = match pattern {
                    Pattern::Match { regex, .. } => regex,
                    Pattern::Block(b) => &self.blocks[*b].begin,
                };
                if let Some(c) = search(regex, line, at) {
                    let start = c.get(0).map_or(0, |m| m.start());
                    if best.as_ref().is_none_or(|(s, p, _, _)| (start, i + 1) < (*s, *p)) {
                        best = Some((start, i + 1, Some(i), c));
                    }
                }
            }
            let Some((start, _, which, found)) = best else {
                paint(scopes, base + at, base + line.len(), &self.current(stack));
                return;
            };
            let whole = found.get(0).expect("a match");
            paint(scopes, base + at, base + start, &self.current(stack));
            match which.map(|i| &patterns[i]) {
                None => {
                    let block = stack.pop().expect("an open block");
                    let mut outer = self.current(stack);
                    outer.extend(self.blocks[block].name.clone());
                    paint(scopes, base + start, base + whole.end(), &outer);
                    paint_captures(scopes, base, &found, &self.blocks[block].end_captures, &outer);
                }
                Some(Pattern::Match { name, captures, .. }) => {
                    let mut inner = self.current(stack);
                    inner.extend(name.clone());
                    paint(scopes, base + start, base + whole.end(), &inner);
                    paint_captures(scopes, base, &found, captures, &inner);
                }
                Some(Pattern::Block(b)) => {
                    stack.push(*b);
                    let inner = self.current(stack);
                    paint(scopes, base + start, base + whole.end(), &inner);
                    paint_captures(scopes, base, &found, &self.blocks[*b].begin_captures, &inner);
                }
            }
            // An empty match moves on by a character, except an end: the block closed, and the
            // blocks around it may end at the same place (as at the end of a line).
            let moved = whole.end() > at || which.is_none();
            at = if moved { whole.end() } else { at + line[at..].chars().next().map_or(1, char::len_utf8) };
        }
    }
}

/// The first match of a regular expression in a line at or after `at`.
fn search<'l>(regex: &Regex, line: &'l str, at: usize) -> Option<fancy_regex::Captures<'l, str>> {
    regex.captures_from_pos(line, at).unwrap_or_else(|e| panic!("{}: {e}", regex.as_str()))
}

fn regex_of(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| panic!("{pattern}: {e}"))
}

fn captures(value: &Value) -> HashMap<usize, String> {
    let Some(map) = value.as_object() else { return HashMap::new() };
    map.iter().map(|(k, v)| (k.parse().expect("a group"), v["name"].as_str().expect("a name").to_string())).collect()
}

fn paint(scopes: &mut [Vec<String>], from: usize, to: usize, with: &[String]) {
    for scope in scopes.iter_mut().take(to).skip(from) {
        *scope = with.to_vec();
    }
}

fn paint_captures(
    scopes: &mut [Vec<String>],
    base: usize,
    found: &fancy_regex::Captures<'_, str>,
    names: &HashMap<usize, String>,
    outer: &[String],
) {
    for (&group, name) in names {
        if let Some(m) = found.get(group) {
            let mut with = outer.to_vec();
            with.push(name.clone());
            paint(scopes, base + m.start(), base + m.end(), &with);
        }
    }
}

// ------------------------------------------------------------------ the language's words

/// Every keyword of the pest grammar: the reserved words, the `k_*` rules and the words of the
/// atomic rules for aggregates, extremes, audiences and literals.
fn grammar_keywords() -> Vec<String> {
    let pest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/grammar/paradox.pest")).expect("the grammar");
    let quoted = regex::Regex::new(r#""([a-z]+)""#).expect("a regex");
    let mut words: Vec<String> = pest
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .flat_map(|l| quoted.captures_iter(l).map(|c| c[1].to_string()).collect::<Vec<_>>())
        .collect();
    words.sort();
    words.dedup();
    assert!(words.len() > 70, "{words:?}");
    words
}

/// Whether scopes say "a word of the language": a keyword, a constant, a type, a built-in.
fn language_word(scopes: &[String]) -> bool {
    let families = ["keyword.", "constant.language", "storage.type", "support.function", "variable.language"];
    scopes.iter().any(|s| families.iter().any(|f| s.starts_with(f)))
}

/// The rules of the pest grammar whose text is a keyword.
fn is_keyword_rule(rule: Rule) -> bool {
    let name = format!("{rule:?}");
    name.starts_with("k_")
        || matches!(
            rule,
            Rule::agg_op | Rule::pile_side | Rule::extreme | Rule::audience | Rule::bool_lit | Rule::none_lit
        )
}

fn project_files() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for dir in ["rules", "examples"] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        for entry in std::fs::read_dir(dir).expect("a folder") {
            let path = entry.expect("an entry").path();
            if path.extension().is_none_or(|x| x != "cards") {
                continue; // examples/python holds Python scripts
            }
            let text = std::fs::read_to_string(&path).expect("a rule file");
            files.push((path.display().to_string(), text));
        }
    }
    files.sort();
    files
}

/// Where a span starts, as `file:line:column`, for messages.
fn place(name: &str, text: &str, at: usize) -> String {
    let line = text[..at].matches('\n').count() + 1;
    let column = at - text[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
    format!("{name}:{line}:{column}")
}

// ------------------------------------------------------------------ the checks

#[test]
fn every_keyword_of_the_grammar_gets_a_scope() {
    let grammar = Grammar::load();
    for word in grammar_keywords() {
        // An audience is a keyword after `see:` and `count:` only.
        let line = if ["everyone", "owner", "nobody"].contains(&word.as_str()) {
            format!("see: {word}")
        } else {
            format!("x {word} y")
        };
        let scopes = grammar.scopes(&line);
        let at = line.find(&word).expect("the word");
        assert!(language_word(&scopes[at]), "`{word}` gets no scope: {:?}", scopes[at]);
    }
}

/// Checks the scopes of a text against the lexer: each comment, string and number is scoped as
/// one from its first byte to its last, and nothing else is in a string.
fn assert_tokens_scoped(grammar: &Grammar, name: &str, text: &str) {
    use paradox::syntax::tokens::{Kind, tokens};
    let scopes = grammar.scopes(text);
    let in_string = |at: usize| scopes[at].iter().any(|s| s.starts_with("string."));
    for token in tokens(text) {
        let at = token.span.start;
        let wanted = match token.kind {
            Kind::Comment => "comment.line.double-slash.paradox",
            Kind::Str { .. } => "string.quoted.double.paradox",
            Kind::Int => "constant.numeric.integer.paradox",
            _ => {
                assert!(!in_string(at), "{}: {:?} is {:?}", place(name, text, at), token.text(text), scopes[at]);
                continue;
            }
        };
        assert!(
            scopes[at].iter().any(|s| s == wanted) && scopes[token.span.end - 1].iter().any(|s| s == wanted),
            "{}: {:?} is {:?}",
            place(name, text, at),
            token.text(text),
            scopes[at]
        );
        if token.kind == Kind::Comment {
            assert!(!in_string(at), "{}: a comment is {:?}", place(name, text, at), scopes[at]);
        }
    }
}

/// The declarations of a text (as the parser reads it) whose name the grammar must colour.
fn assert_declared_names_scoped(grammar: &Grammar, name: &str, text: &str) -> usize {
    let scopes = grammar.scopes(text);
    let pairs = ParadoxParser::parse(Rule::file, text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let declarations = [
        Rule::param_decl,
        Rule::var_decl,
        Rule::zone_decl,
        Rule::define_decl,
        Rule::proc_decl,
        Rule::enum_decl,
        Rule::variant_decl,
        Rule::side_decl,
    ];
    let mut found = 0;
    for pair in pairs.flatten().filter(|p| declarations.contains(&p.as_rule())) {
        let declared = pair.into_inner().find(|p| p.as_rule() == Rule::ident).expect("a name");
        let at = declared.as_span().start();
        assert!(
            scopes[at].iter().any(|s| s.starts_with("entity.name.")),
            "{}: the name `{}` is {:?}",
            place(name, text, at),
            declared.as_str(),
            scopes[at]
        );
        found += 1;
    }
    found
}

#[test]
fn every_keyword_comment_string_and_number_of_every_rule_file_is_scoped() {
    let grammar = Grammar::load();
    let mut keywords = 0;
    for (name, text) in project_files() {
        let scopes = grammar.scopes(&text);
        let pairs = ParadoxParser::parse(Rule::file, &text).unwrap_or_else(|e| panic!("{name}: {e}"));
        for pair in pairs.flatten().filter(|p| is_keyword_rule(p.as_rule())) {
            let at = pair.as_span().start();
            assert!(language_word(&scopes[at]), "{}: `{}` is {:?}", place(&name, &text, at), pair.as_str(), scopes[at]);
            keywords += 1;
        }
        assert_tokens_scoped(&grammar, &name, &text);
    }
    assert!(keywords > 2000, "only {keywords} keywords");
}

/// Strings that are hard on a grammar: a lone brace (legal in a plain string), braces left open
/// or closed twice or nested, escapes of quotes and braces inside and outside `{...}`, texts
/// inside `{...}` (and quotes that only look like one), and strings that the end of their line
/// cuts short.
const HOSTILE_STRINGS: [&str; 20] = [
    r#""Shedding {beta""#,
    r#""{""#,
    r#""}""#,
    r#""{{""#,
    r#""}}{""#,
    r#""{ {""#,
    r#""{case r { a => 1""#,
    r#""{x|one|many""#,
    r#""\{""#,
    r#""{\"}""#,
    r#""{x\"""#,
    r#""a\\""#,
    r#""\""#,
    r#""cut short {"#,
    r#""cut short"#,
    r#""{"" "}""#,
    r#""{// not a comment""#,
    r#""{if a then "b" else "c{d}"} e""#,
    r#""{a" b "}""#,
    r#""{"x" y""#,
];

#[test]
fn hostile_strings_end_where_the_language_ends_them() {
    let grammar = Grammar::load();
    for string in HOSTILE_STRINGS {
        // The string in each place a string may be, then code on the same and the next lines.
        let text = format!(
            "game {string}\nparam after: int = 1 {string} // a comment\n  say {string} say \"{{after}}\" 7\n\
             zone z {string} {{ see: owner }}\r\nvar v: int = 0\n"
        );
        assert_tokens_scoped(&grammar, string, &text);
        let scopes = grammar.scopes(&text);
        let last = text.rfind('0').expect("the last number");
        assert_eq!(scopes[last], ["source.paradox", "constant.numeric.integer.paradox"], "after {string}");
    }
}

#[test]
fn the_name_after_every_declaration_keyword_is_a_name() {
    let grammar = Grammar::load();
    let mut names = 0;
    for (name, text) in project_files() {
        names += assert_declared_names_scoped(&grammar, &name, &text);
    }
    assert!(names > 100, "only {names} declarations");
    // Indented, several on a line, after a string holding a lone brace.
    let layout = r#"game "Shedding {beta" players 2
  param p: int = 1 in 0..3 "a lone { in a description"
side NS "North {" { P1, P2 } enum Suit { a "}{", b }
    zone hand per seat "hand {" { see: owner }
var v: int = 0 define f(x: int): int = x   define g() { say "{v}" }
  variant quick "quick {" { set p = 2 }
"#;
    assert_eq!(assert_declared_names_scoped(&grammar, "layout", layout), 8);
    assert_tokens_scoped(&grammar, "layout", layout);
}

#[test]
fn expressions_inside_text_are_scoped_as_code() {
    let grammar = Grammar::load();
    let line = r#"say "{t} took {sum c in won[t] of c.points} points \{not code\}""#;
    let scopes = grammar.scopes(line);
    let sum = line.find("sum").expect("sum");
    assert!(scopes[sum].iter().any(|s| s == "keyword.other.aggregate.paradox"), "{:?}", scopes[sum]);
    assert!(scopes[sum].iter().any(|s| s == "meta.template.expression.paradox"), "{:?}", scopes[sum]);
    let plain = line.find("not code").expect("not");
    assert!(!language_word(&scopes[plain]), "{:?}", scopes[plain]);
}

#[test]
fn names_after_phase_keywords_are_names() {
    let grammar = Grammar::load();
    let line = "phase deal { redo deal }";
    let scopes = grammar.scopes(line);
    let deal = line.find("deal").expect("deal");
    assert!(scopes[deal].iter().any(|s| s == "entity.name.section.phase.paradox"), "{:?}", scopes[deal]);
    assert!(!scopes[deal].iter().any(|s| s.starts_with("keyword.")), "{:?}", scopes[deal]);
}
