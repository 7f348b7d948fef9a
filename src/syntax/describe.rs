//! Grammar rules in words, and pest's parse errors turned into [`Problem`]s that use those words.
//!
//! A syntax error says what was expected ("expected `then` or an operator") and what was found
//! there ("unexpected `xyz`"), never a rule id. The span is the offending token, or an empty span
//! at the end of the text.

use crate::diagnostic::{Code, Problem};
use crate::syntax::ast::Span;
use crate::syntax::grammar::Rule;
use crate::syntax::strings::{StringEnd, string_end};
use pest::error::{Error, ErrorVariant, InputLocation};

/// The most alternatives a syntax error lists.
const MAX_ALTERNATIVES: usize = 6;

/// What a rule stands for, in words, as a syntax error names it.
pub(crate) fn describe_rule(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "end of file",
        Rule::WHITESPACE => "white space",
        Rule::COMMENT => "a comment",
        Rule::ident_char => "a letter, digit or `_`",
        Rule::reserved => "a keyword",
        Rule::ident => "a name",
        Rule::int | Rule::signed_int => "a number",
        Rule::string => "a string in quotes",
        Rule::string_part => "a `{...}` part of a string",
        Rule::k_all => "`all`",
        Rule::k_and => "`and`",
        Rule::k_any => "`any`",
        Rule::k_memo => "`memo`",
        Rule::k_as => "`as`",
        Rule::k_by => "`by`",
        Rule::k_card => "`card`",
        Rule::k_cards => "`cards`",
        Rule::k_case => "`case`",
        Rule::k_choose => "`choose`",
        Rule::k_count => "`count`",
        Rule::k_deal => "`deal`",
        Rule::k_deck => "`deck`",
        Rule::k_declare => "`declare`",
        Rule::k_default => "`default`",
        Rule::k_define => "`define`",
        Rule::k_each => "`each`",
        Rule::k_else => "`else`",
        Rule::k_end => "`end`",
        Rule::k_enum => "`enum`",
        Rule::k_extends => "`extends`",
        Rule::k_for => "`for`",
        Rule::k_from => "`from`",
        Rule::k_game => "`game`",
        Rule::k_if => "`if`",
        Rule::k_in => "`in`",
        Rule::k_is => "`is`",
        Rule::k_let => "`let`",
        Rule::k_move => "`move`",
        Rule::k_name => "`name`",
        Rule::k_not => "`not`",
        Rule::k_of => "`of`",
        Rule::k_or => "`or`",
        Rule::k_param => "`param`",
        Rule::k_per => "`per`",
        Rule::k_phase => "`phase`",
        Rule::k_play => "`play`",
        Rule::k_played => "`played`",
        Rule::k_at => "`at`",
        Rule::k_bottom => "`bottom`",
        Rule::k_players => "`players`",
        Rule::k_random => "`random`",
        Rule::k_redo => "`redo`",
        Rule::k_repeat => "`repeat`",
        Rule::k_replace => "`replace`",
        Rule::k_reset => "`reset`",
        Rule::k_result => "`result`",
        Rule::k_say => "`say`",
        Rule::k_reveal => "`reveal`",
        Rule::k_scenario => "`scenario`",
        Rule::k_seat => "`seat`",
        Rule::k_seats => "`seats`",
        Rule::k_see => "`see`",
        Rule::k_set => "`set`",
        Rule::k_sheet => "`sheet`",
        Rule::k_show => "`show`",
        Rule::k_solve => "`solve`",
        Rule::k_shuffle => "`shuffle`",
        Rule::k_side => "`side`",
        Rule::k_simultaneously => "`simultaneously`",
        Rule::k_starting => "`starting`",
        Rule::k_then => "`then`",
        Rule::k_to => "`to`",
        Rule::k_until => "`until`",
        Rule::k_var => "`var`",
        Rule::k_variant => "`variant`",
        Rule::k_when => "`when`",
        Rule::k_where => "`where`",
        Rule::k_while => "`while`",
        Rule::k_zone => "`zone`",
        Rule::file => "a declaration (`game`, `card`, `play`, ...) or `scenario`",
        Rule::scenario => "a scenario `scenario \"NAME\" extends \"FILE\" { ... }`",
        Rule::item => "a declaration (`game`, `card`, `play`, ...)",
        Rule::game_decl => "`game \"NAME\"`",
        Rule::players_decl => "`players N`",
        Rule::seats_decl => "`seats A, B, ...`",
        Rule::named => "a name with an optional display name in quotes",
        Rule::control_decl => "`seat X played by Y`",
        Rule::bottom_decl => "`seat X at bottom`",
        Rule::side_decl => "a side `side NAME { SEATS }`",
        Rule::param_decl => "a parameter `param NAME: TYPE = VALUE`",
        Rule::literal => "a number, `true`, `false` or a name",
        Rule::param_range => "a range `in LOW..HIGH`",
        Rule::enum_decl => "an enumeration `enum NAME { ... }`",
        Rule::enum_member => "an enumeration member",
        Rule::payload => "a payload `(name: Type)`",
        Rule::card_decl => "`card { ... }`",
        Rule::card_field => "a card attribute `name: Type`",
        Rule::card_name => "`name \"TEMPLATE\"`",
        Rule::deck_decl => "`deck { ... }`",
        Rule::zone_decl => "a zone `zone NAME ...`",
        Rule::owner => "`per seat` or `per side`",
        Rule::owner_seat => "`seat`",
        Rule::owner_side => "`side`",
        Rule::zone_prop => "`see:` or `count:`",
        Rule::see_prop => "`see`",
        Rule::count_prop => "`count`",
        Rule::audience => "`everyone`, `owner` or `nobody`",
        Rule::var_decl => "a variable `var NAME: TYPE = VALUE`",
        Rule::reset => "`reset PHASE`",
        Rule::define_decl => "a definition `define NAME(...): TYPE = ...`",
        Rule::fn_param => "a parameter `name: Type`",
        Rule::proc_decl => "a procedure `define NAME(...) { ... }`",
        Rule::call_stmt => "a procedure call `NAME(...)`",
        Rule::play_decl => "`play { ... }`",
        Rule::result_decl => "`result highest ...` or `result lowest ...`",
        Rule::extreme => "`highest` or `lowest`",
        Rule::solve_decl => "`solve PHASE for x in seats by ...`",
        Rule::show_decl => "a show line `show \"TEXT\" when CONDITION`",
        Rule::sheet_decl => "a score sheet `sheet PHASE for x in seats \"CELL\"`",
        Rule::show_each => "`for x in DOMAIN`",
        Rule::show_when => "`when CONDITION`",
        Rule::variant_decl => "a variant `variant NAME { ... }`",
        Rule::variant_item => "`set NAME = VALUE` or `replace phase NAME { ... }`",
        Rule::set_item => "`set NAME = VALUE`",
        Rule::replace_item => "`replace phase NAME { ... }`",
        Rule::type_expr => "a type",
        Rule::optional => "`?`",
        Rule::set_type => "`set of TYPE`",
        Rule::range_type => "a range `LOW..HIGH`",
        Rule::card_type => "`card`",
        Rule::zone_type => "`zone`",
        Rule::block => "a block `{ ... }`",
        Rule::stmt => "a statement",
        Rule::let_stmt => "`let NAME = VALUE` (or `let NAME: TYPE = VALUE`)",
        Rule::assign_stmt => "an assignment",
        Rule::place => "a variable to assign to",
        Rule::assign_op => "an assignment operator (`=`, `+=`, `-=`)",
        Rule::rhs => "an expression or `random x in ...`",
        Rule::random_pick => "`random x in ...`",
        Rule::if_stmt => "`if CONDITION { ... }`",
        Rule::for_stmt => "`for x in ... { ... }`",
        Rule::binding => "`NAME in DOMAIN`",
        Rule::start_at => "`from SEAT`",
        Rule::filter => "`where CONDITION`",
        Rule::repeat_stmt => "`repeat N { ... }` or `repeat until CONDITION { ... }`",
        Rule::until => "`until CONDITION`",
        Rule::while_stmt => "`while CONDITION { ... }`",
        Rule::phase_stmt => "`phase NAME { ... }`",
        Rule::phase_title => "a phase's title `\"TITLE\" of COUNT`",
        Rule::choose_stmt => "`choose NAME from ... by SEAT`",
        Rule::menu => "`or NAME from MENU`",
        Rule::group => "`N cards` (several cards at once)",
        Rule::tiers => "`where` and the tiers of a choice",
        Rule::tier => "a condition or `any`",
        Rule::any_tier => "`any`",
        Rule::declare => "`declare NAME when CONDITION`",
        Rule::label => "`as \"LABEL\"`",
        Rule::simultaneous_stmt => "`simultaneously for x in ... { ... }`",
        Rule::move_stmt => "`move ... to ...`",
        Rule::random_count => "`random N of`",
        Rule::shuffle_stmt => "`shuffle ZONE`",
        Rule::deal_stmt => "`deal ... from ... to ...`",
        Rule::deal_count => "`all` or `N each`",
        Rule::starting => "`starting SEAT`",
        Rule::say_stmt => "`say \"TEXT\"`",
        Rule::reveal_stmt => "`reveal CARDS`",
        Rule::redo_stmt => "`redo PHASE`",
        Rule::end_stmt => "`end PHASE`",
        Rule::make_card_stmt => "`card { ... }`",
        Rule::pile_end => "`last N of PILE` or `first N of PILE`",
        Rule::pile_side => "`first` or `last`",
        Rule::pile_count => "how many cards: a number or a name",
        Rule::pile_ref => "a pile `ZONE` or `ZONE[s]`",
        Rule::field_init => "an attribute `name: value`",
        Rule::expr | Rule::expr_only => "an expression",
        Rule::prefix => "`-` or `not`",
        Rule::neg => "`-`",
        Rule::not => "`not`",
        Rule::infix => "an operator",
        Rule::range_op => "`..`",
        Rule::or => "`or`",
        Rule::and => "`and`",
        Rule::not_in => "`not in`",
        Rule::in_op => "`in`",
        Rule::eq => "`==`",
        Rule::ne => "`!=`",
        Rule::le => "`<=`",
        Rule::ge => "`>=`",
        Rule::lt => "`<`",
        Rule::gt => "`>`",
        Rule::add => "`+`",
        Rule::sub => "`-`",
        Rule::mul => "`*`",
        Rule::div => "`/`",
        Rule::rem => "`%`",
        Rule::postfix => "`.`, `[` or `is`",
        Rule::field => "`.attribute`",
        Rule::index => "an index `[...]`",
        Rule::is_test => "`is MEMBER`",
        Rule::primary => "a value",
        Rule::paren => "`( ... )`",
        Rule::if_expr => "`if ... then ... else ...`",
        Rule::case_expr => "`case ... { ... }`",
        Rule::case_arm => "a case arm `VALUES => VALUE`",
        Rule::aggregate => "an aggregate such as `sum x in ...`",
        Rule::agg_op => "`sum`, `max`, `min`, `count`, `exists`, `every`, `highest` or `lowest`",
        Rule::agg_body => "`of` or `by`",
        Rule::filter_cards => "`cards x in ZONE where ...`",
        Rule::card_ref => "`card(...)`",
        Rule::list => "a list `[...]`",
        Rule::call => "a call `f(...)`",
        Rule::arg => "an argument",
        Rule::named_arg => "an argument `name: value`",
        Rule::bool_lit => "`true` or `false`",
        Rule::none_lit => "`none`",
    }
}

/// A pest error as a problem in `source`, where the parsed text began at byte `base`.
/// `end` says what the end of the parsed text is ("end of file", or the `}` closing a template
/// expression).
pub(crate) fn syntax_problem(error: &Error<Rule>, source: &str, base: usize, end: &str) -> Problem {
    let pos = match error.location {
        InputLocation::Pos(pos) | InputLocation::Span((pos, _)) => pos,
    };
    match &error.variant {
        ErrorVariant::CustomError { message } => custom_problem(message, source, base + pos),
        ErrorVariant::ParsingError { positives, .. } => {
            let attempts = error.parse_attempts();
            let furthest = attempts.as_ref().map_or(pos, |a| a.max_position);
            let tokens: Vec<String> =
                attempts.map(|a| a.expected_tokens().iter().map(ToString::to_string).collect()).unwrap_or_default();
            // pest's own position is behind when only literal tokens got further; but a word
            // checked for its end (`end` is a keyword: is a letter next?) gets no further.
            let inside_word = !positives.is_empty() && tokens.iter().all(|t| is_word_part(t));
            let (at, expected) = if furthest > pos && !inside_word {
                (furthest, Expected::new(&[], &tokens, end))
            } else if furthest == pos {
                (pos, Expected::new(positives, &tokens, end))
            } else {
                (pos, Expected::new(positives, &[], end))
            };
            parsing_problem(&expected, source, base + at)
        }
    }
}

/// A problem from a pest error with a message of its own (its stack guard).
fn custom_problem(message: &str, source: &str, at: usize) -> Problem {
    let span = token_span(source, at);
    if message.contains("limit") {
        Problem::new(Code::TooDeep, "nested too deeply to read", span, "too deep here")
            .help("split deeply nested parts with `let`, `define` or `phase`")
    } else {
        Problem::new(Code::Syntax, message, span, found_label(source, span))
    }
}

fn parsing_problem(expected: &Expected, source: &str, at: usize) -> Problem {
    let span = token_span(source, at);
    let found = &source[span.start..span.end];
    let message = match expected.words.as_slice() {
        [] => format!("unexpected {}", found_words(found)),
        words => format!("expected {}", list_in_words(words)),
    };
    let problem = Problem::new(Code::Syntax, message, span, found_label(source, span));
    if let Some((at, written, keyword)) = misspelt_keyword(source, span, expected) {
        let problem = if at == span { problem } else { problem.note(at, format!("`{written}` is read as a name")) };
        return problem.did_you_mean(at, written, keyword);
    }
    match advice(found, expected, starts_line(source, span.start)) {
        Some(help) => problem.help(help),
        None => problem,
    }
}

/// Kinds of things that several rules together stand for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Group {
    Operator,
    Expression,
    Statement,
    Declaration,
}

impl Group {
    fn words(self) -> &'static str {
        match self {
            Group::Operator => "an operator",
            Group::Expression => "an expression",
            Group::Statement => "a statement",
            Group::Declaration => "a declaration (`game`, `card`, `play`, ...)",
        }
    }

    /// The group a rule belongs to wherever it is expected.
    fn of(rule: Rule) -> Option<Group> {
        use Rule::*;
        match rule {
            range_op | or | and | not_in | in_op | eq | ne | le | ge | lt | gt | add | sub | mul | div | rem
            | infix | postfix | field | index | is_test => Some(Group::Operator),
            expr | expr_only | prefix | neg | not | primary | paren | if_expr | case_expr | aggregate | agg_op
            | filter_cards | card_ref | list | call | bool_lit | none_lit | pile_end | pile_side => {
                Some(Group::Expression)
            }
            stmt | let_stmt | call_stmt | assign_stmt | if_stmt | for_stmt | repeat_stmt | while_stmt | phase_stmt
            | choose_stmt | simultaneous_stmt | move_stmt | shuffle_stmt | deal_stmt | say_stmt | reveal_stmt
            | redo_stmt | end_stmt | make_card_stmt | k_let | k_choose | k_simultaneously | k_shuffle | k_redo
            | k_say | k_reveal | k_while | k_repeat | k_move | k_deal | k_end => Some(Group::Statement),
            item | game_decl | players_decl | seats_decl | control_decl | bottom_decl | side_decl | param_decl
            | enum_decl | card_decl | deck_decl | zone_decl | var_decl | define_decl | proc_decl | play_decl
            | result_decl | variant_decl | show_decl | solve_decl | sheet_decl | k_sheet | k_solve | k_show
            | k_game | k_players | k_seats | k_param | k_enum | k_deck | k_zone | k_var | k_define | k_play
            | k_result | k_variant => Some(Group::Declaration),
            _ => None,
        }
    }

    /// Whether a rule that also appears elsewhere is part of this group when the group is
    /// expected anyway (a name starts an expression or an assignment, `if` a statement or a
    /// conditional value).
    fn includes(self, rule: Rule) -> bool {
        use Rule::*;
        match self {
            Group::Operator => matches!(rule, k_and | k_or | k_in | k_is | k_not),
            Group::Expression => {
                matches!(rule, ident | int | string | k_card | k_cards | k_case | k_if | k_not)
            }
            Group::Statement => matches!(rule, ident | k_card | k_for | k_if | k_phase),
            Group::Declaration => matches!(rule, k_seat | k_side | k_card),
        }
    }

    /// Tokens that the group's words already stand for.
    fn covers(self, token: &str) -> bool {
        match self {
            Group::Operator => matches!(token, "(" | "[" | "." | ".."),
            Group::Expression => matches!(token, "(" | "[" | "-"),
            Group::Statement | Group::Declaration => false,
        }
    }
}

/// Whether pest's token is white space, a comment or a part of a word: what it tries at the end
/// of a word.
fn is_word_part(token: &str) -> bool {
    matches!(token, " " | "\t" | "\r" | "\n" | "//" | "_" | "a..z" | "A..Z" | "0..9")
}

/// Punctuation worth naming on its own when it was expected.
const PUNCTUATION: [&str; 12] = [",", ":", "=", "=>", ")", "]", "}", "(", "[", "{", "..", "?"];

/// What was expected at the error, in words, de-duplicated, most telling first.
struct Expected {
    words: Vec<String>,
    /// Whether an operator would have continued the text.
    operator: bool,
    /// Whether a name would have been right.
    name: bool,
    /// Whether a block `{ ... }` would have been right.
    block: bool,
}

impl Expected {
    /// From the rules pest tried at the error and the tokens it tried there (as pest prints
    /// them: the text of a literal, `a..z` for a range of characters).
    fn new(rules: &[Rule], tokens: &[String], end: &str) -> Self {
        let groups: Vec<Group> = rules.iter().filter_map(|&r| Group::of(r)).collect();
        let mut specific = Vec::new();
        let mut grouped = Vec::new();
        for &rule in rules.iter().filter(|&&r| r != Rule::EOI) {
            match groups.iter().find(|g| Group::of(rule) == Some(**g) || g.includes(rule)) {
                Some(group) => push_new(&mut grouped, group.words()),
                None => alternatives(describe_rule(rule)).for_each(|w| push_new(&mut specific, w)),
            }
        }
        let mut words = Vec::new();
        for token in tokens {
            if let Some(word) = token_words(token, rules.is_empty()) {
                let covered = groups.iter().any(|g| g.covers(word)) || specific.iter().any(|w| quotes_token(w, word));
                if !covered {
                    push_new(&mut words, &quoted_token(word));
                }
            }
        }
        for word in specific.iter().chain(&grouped) {
            push_new(&mut words, word);
        }
        if rules.contains(&Rule::EOI) {
            push_new(&mut words, end);
        }
        words.truncate(MAX_ALTERNATIVES);
        Expected {
            operator: groups.contains(&Group::Operator),
            name: words.iter().any(|w| w == describe_rule(Rule::ident)),
            block: rules.contains(&Rule::block),
            words,
        }
    }
}

/// A description's alternatives, so that a list of them reads as one list: "`of` or `by`" is
/// "`of`" and "`by`". Only a description made of nothing but quoted tokens is split.
fn alternatives(description: &str) -> impl Iterator<Item = &str> {
    let parts: Vec<&str> = description.split(", ").flat_map(|part| part.split(" or ")).collect();
    let quoted =
        |part: &&str| part.len() > 1 && part.starts_with('`') && part.ends_with('`') && part.matches('`').count() == 2;
    let split = parts.iter().all(quoted);
    let whole = (!split).then_some(description);
    whole.into_iter().chain(parts.into_iter().filter(move |_| split))
}

/// Whether a description already shows a token: some part of it in backquotes starts with it
/// (a block `{ ... }` shows `{`).
fn quotes_token(description: &str, token: &str) -> bool {
    description.split('`').skip(1).step_by(2).any(|quoted| quoted.starts_with(token))
}

fn push_new(words: &mut Vec<String>, word: &str) {
    if !words.iter().any(|w| w == word) {
        words.push(word.to_string());
    }
}

/// A token pest expected, when it is worth naming. Keywords, quotes, character ranges and
/// opening brackets count only when no rule was recorded at the error (`alone`): otherwise a
/// rule stands for them (`(` starts an expression, `[` an index or a list).
fn token_words(token: &str, alone: bool) -> Option<&str> {
    match token {
        "(" | "[" if !alone => None,
        _ if PUNCTUATION.contains(&token) => Some(token),
        _ if !alone => None,
        "a..z" | "A..Z" => Some("a name"),
        "0..9" => Some("a number"),
        "\"" => Some(token),
        _ if token.chars().all(|c| c.is_ascii_lowercase()) && !token.is_empty() => Some(token),
        _ => None,
    }
}

fn quoted_token(word: &str) -> String {
    match word {
        "a name" | "a number" => word.to_string(),
        "\"" => "a string in quotes".to_string(),
        _ => format!("`{word}`"),
    }
}

/// `a`, `a or b`, `a, b or c`.
fn list_in_words(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Whether byte `at` is the first token of its line, below the first line.
fn starts_line(source: &str, at: usize) -> bool {
    let before = source.get(..at).unwrap_or_default();
    before.rfind('\n').is_some_and(|i| before[i + 1..].trim().is_empty())
}

/// Advice for common slips, by what was found where; `line_start` says whether it was found
/// at the start of a line.
fn advice(found: &str, expected: &Expected, line_start: bool) -> Option<String> {
    let wants = |words: &str| expected.words.iter().any(|w| w == words);
    let only = |words: &str| expected.words.len() == 1 && wants(words);
    let help = match found {
        "" => "the text ends too early: check that every `{`, `(` and `[` is closed",
        ";" => "statements need no separator: remove the `;`",
        "&&" | "&" => "write `and`",
        "||" | "|" => "write `or`",
        "!" => "write `not`",
        "=" if expected.operator => "to compare two values, write `==`",
        "then" if expected.block => "an `if` statement takes its branch in braces: `if CONDITION { ... }`",
        "elif" | "elsif" => "write `else if`",
        ":=" => "assignment is written `=`",
        "memo" if wants("`:`") => "`memo` comes after a definition's type: `define NAME(...): TYPE memo = VALUE`",
        _ if wants(Group::Statement.words()) && starts_declaration(found) => {
            return Some(format!(
                "`{found}` starts a declaration, which cannot stand inside a block: is a `}}` missing above it?"
            ));
        }
        _ if wants("`set`") && wants("`replace`") => {
            "a variant or scenario sets parameters (`set NAME = VALUE`) and replaces phases (`replace phase NAME { ... }`)"
        }
        _ if line_start && !wants("`}`") && (starts_statement(found) || starts_declaration(found)) => {
            let kind = if starts_declaration(found) { "declaration" } else { "statement" };
            return Some(format!("`{found}` starts a new {kind}: is something missing at the end of the line above?"));
        }
        _ if expected.name && is_keyword(found) => {
            return Some(format!("`{found}` is a keyword and cannot be used as a name; choose another name"));
        }
        _ if only("a string in quotes") => "text is written in double quotes: `\"like this\"`",
        _ if only("a number") && found.chars().all(char::is_alphabetic) => "numbers are written in digits, e.g. `4`",
        _ if wants(Group::Declaration.words()) => {
            "a rule file is a list of declarations, each starting with its keyword: `game`, `players`, `card`, `zone`, `var`, `play`, ..."
        }
        _ if wants("`then`") => "a conditional value is written `if CONDITION then VALUE else VALUE`",
        _ if only("`:`") => "a name is followed by `:` and then its type or value: `trick_cost: int`, `see: owner`",
        _ if only("`=`") => "a value is given after `=`: `set NAME = VALUE`, `var NAME: TYPE = VALUE`",
        _ if wants("`,`") && is_word(found) => "the items of a list are separated by commas: `red, green, blue`",
        "}" | ")" | "]" if wants(Group::Expression.words()) => {
            "a value is missing here: an operator needs a value on each side"
        }
        _ => return None,
    };
    Some(help.to_string())
}

/// The keyword a line's first word was likely meant to be, where it made the line unreadable:
/// a declaration's (`parm x: int`, where a declaration was wanted) or a statement's (`phse deal
/// {`, read as a name to assign to, which wants `=` next). The word's span, the word and the
/// keyword.
fn misspelt_keyword<'a>(source: &'a str, span: Span, expected: &Expected) -> Option<(Span, &'a str, &'static str)> {
    let wants = |words: &str| expected.words.iter().any(|w| w == words);
    let line_start = source[..span.start].rfind('\n').map_or(0, |i| i + 1);
    let indent = source[line_start..].len() - source[line_start..].trim_start().len();
    let first = token_span(source, line_start + indent);
    let word = &source[first.start..first.end];
    if !word.chars().all(|c| c.is_alphabetic()) || is_keyword(word) {
        return None;
    }
    let keywords = if first == span && wants(Group::Declaration.words()) {
        DECLARATION_WORDS
    } else if first.end < span.start && expected.words == [describe_rule(Rule::assign_op)] {
        STATEMENT_WORDS
    } else {
        return None;
    };
    crate::diagnostic::did_you_mean(word, keywords.iter().copied()).map(|k| (first, word, k))
}

/// Whether a token is a name, keyword or number.
fn is_word(token: &str) -> bool {
    token.chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// The words a statement starts with.
const STATEMENT_WORDS: &[&str] = &[
    "let",
    "if",
    "for",
    "repeat",
    "while",
    "phase",
    "choose",
    "simultaneously",
    "move",
    "shuffle",
    "deal",
    "say",
    "reveal",
    "redo",
    "end",
    "card",
];

/// The words a declaration at the top of a rule file starts with.
const DECLARATION_WORDS: &[&str] = &[
    "game", "players", "seats", "side", "param", "enum", "deck", "zone", "var", "define", "play", "result", "variant",
];

/// Whether a word starts a statement.
fn starts_statement(word: &str) -> bool {
    STATEMENT_WORDS.contains(&word)
}

/// Whether a word starts a declaration at the top of a rule file.
fn starts_declaration(word: &str) -> bool {
    DECLARATION_WORDS.contains(&word)
}

/// Whether a word is reserved by the grammar.
fn is_keyword(word: &str) -> bool {
    use crate::syntax::grammar::ParadoxParser;
    use pest::Parser;
    ParadoxParser::parse(Rule::reserved, word).is_ok_and(|pairs| pairs.as_str() == word)
}

/// The span of the token that starts at byte `at`: a word, a number, a string up to its closing
/// quote, one or two marks of punctuation, or an empty span at the end of the text.
fn token_span(source: &str, at: usize) -> Span {
    let Some(rest) = source.get(at..) else {
        return Span::new(source.len(), source.len());
    };
    let Some(first) = rest.chars().next() else {
        return Span::new(at, at);
    };
    let len = if first.is_alphanumeric() || first == '_' {
        rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len())
    } else if first == '"' {
        string_len(rest)
    } else if first.is_ascii_punctuation() {
        punctuation_len(rest)
    } else {
        first.len_utf8()
    };
    Span::new(at, at + len)
}

/// The length of a string token: up to its closing quote, or to where it runs out.
fn string_len(rest: &str) -> usize {
    match string_end(rest.as_bytes(), 0) {
        StringEnd::Closed(end) | StringEnd::Open(end) => end,
        StringEnd::TooDeep(_) => rest.find('\n').unwrap_or(rest.len()),
    }
}

/// One mark, or two when they make an operator such as `==`, `+=`, `..` or `&&`.
fn punctuation_len(rest: &str) -> usize {
    const OPERATOR_MARKS: &str = "=<>!+-*/%.&|:";
    let mut marks = rest.chars().take(2);
    match (marks.next(), marks.next()) {
        (Some(a), Some(b)) if OPERATOR_MARKS.contains(a) && OPERATOR_MARKS.contains(b) => 2,
        _ => 1,
    }
}

/// "unexpected `xyz`", "unexpected end of line", "unexpected end of file".
fn found_label(source: &str, span: Span) -> String {
    format!("unexpected {}", found_words(&source[span.start..span.end]))
}

fn found_words(found: &str) -> String {
    const SHOWN: usize = 30;
    match found {
        "" => "end of file".to_string(),
        "\n" | "\r" => "end of line".to_string(),
        _ if found.chars().any(char::is_control) => format!("`{}`", found.escape_debug()),
        _ if found.chars().count() > SHOWN => {
            format!("`{}...`", found.chars().take(SHOWN).collect::<String>())
        }
        _ => format!("`{found}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_words_numbers_strings_or_marks() {
        let source = "let x_1 = 42 += \"a \\\" b\" c";
        let token = |at| {
            let span = token_span(source, at);
            &source[span.start..span.end]
        };
        assert_eq!(token(4), "x_1");
        assert_eq!(token(10), "42");
        assert_eq!(token(13), "+=");
        assert_eq!(token(16), "\"a \\\" b\"");
        assert_eq!(token_span(source, source.len()), Span::new(source.len(), source.len()));
    }

    #[test]
    fn lists_read_as_one_list() {
        let words = |ws: &[&str]| list_in_words(&ws.iter().map(|w| w.to_string()).collect::<Vec<_>>());
        assert_eq!(words(&["`a`"]), "`a`");
        assert_eq!(words(&["`a`", "`b`"]), "`a` or `b`");
        assert_eq!(words(&["`a`", "`b`", "`c`"]), "`a`, `b` or `c`");
        let split: Vec<_> = alternatives(describe_rule(Rule::audience)).collect();
        assert_eq!(split, ["`everyone`", "`owner`", "`nobody`"]);
        let whole: Vec<_> = alternatives(describe_rule(Rule::block)).collect();
        assert_eq!(whole, ["a block `{ ... }`"]);
    }

    #[test]
    fn descriptions_name_no_rule() {
        for rule in [Rule::k_then, Rule::expr, Rule::ident, Rule::block, Rule::string, Rule::type_expr, Rule::EOI] {
            let words = describe_rule(rule);
            assert!(!words.is_empty() && !words.contains('_'), "{rule:?}: {words}");
        }
        assert_eq!(describe_rule(Rule::k_then), "`then`");
        assert_eq!(describe_rule(Rule::expr), "an expression");
    }
}
