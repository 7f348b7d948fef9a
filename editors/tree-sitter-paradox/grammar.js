/**
 * @file The paradox rules language (`.cards` files), for tree-sitter.
 *
 * Written from `grammar/paradox.pest` (the language's own grammar) and `grammar/LANGUAGE.md`:
 * one node per pest rule that an editor has a use for, with the same names where it can.
 * Layout is free: statements need no separators and newlines are plain white space.
 */

/* eslint-disable no-undef */

// Operator precedence, loosest first; every binary operator is left-associative (as in
// `src/syntax/parser.rs`). A conditional value, an aggregate and a filter reach as far right as
// they can, as pest's greedy `expr` does.
const PREC = {
  greedy: -1,
  range: 1,
  or: 2,
  and: 3,
  in: 4,
  compare: 5,
  add: 6,
  mul: 7,
  unary: 8,
  postfix: 9,
};

/** One or more, separated by commas. */
const commaSep1 = (rule) => seq(rule, repeat(seq(',', rule)));

/** Zero or more, separated by commas. */
const commaSep = (rule) => optional(commaSep1(rule));

module.exports = grammar({
  name: 'paradox',

  extras: ($) => [/\s/, $.comment],

  word: ($) => $.identifier,

  conflicts: ($) => [
    // `choose cards p from ...` (several cards) or `choose cards c in h where ... cards p` (a size).
    [$.group, $.filter_cards],
    // `shuffle first t in ...` (the first of a domain), `shuffle first n of ...` (the bottom of a
    // pile) or `shuffle first  t = 1` (the name `first`, then the next statement): only the word
    // after the next name tells.
    [$.aggregate_operator, $.pile_end],
    [$._expression, $.aggregate_operator, $.pile_end],
    [$._expression, $.pile_end],
  ],

  rules: {
    source_file: ($) => choice($.scenario, repeat($._item)),

    // ------------------------------------------------------------ words

    comment: (_) => token(seq('//', /[^\n]*/)),
    identifier: (_) => /[A-Za-z_][A-Za-z0-9_]*/,
    integer: (_) => /\d+/,
    signed_integer: (_) => /-?\d+/,
    boolean: (_) => choice('true', 'false'),
    none: (_) => 'none',

    /** A plain string: printed as written (a game's name, a display name, a description). */
    string: (_) => token(seq('"', repeat(choice(/[^"\\\n]/, /\\./)), '"')),

    /** Text with `{EXPR}` and `{EXPR|ONE|MANY}` in it: `say`, a card's name, a label, `show`, `sheet`. */
    template: ($) =>
      seq(
        '"',
        repeat(choice($.string_content, $.escape_sequence, $.interpolation)),
        token.immediate('"'),
      ),
    string_content: (_) => token.immediate(prec(1, /[^"\\{}\n]+/)),
    escape_sequence: (_) => token.immediate(/\\./),
    interpolation: ($) => seq(token.immediate('{'), $._expression, optional($.plural), '}'),
    plural: ($) => seq('|', $.plural_word, token.immediate('|'), $.plural_word),
    plural_word: (_) => token.immediate(/[^|}"\\\n]+/),

    // ------------------------------------------------------------ files

    scenario: ($) =>
      seq('scenario', field('name', $.string), 'extends', field('path', $.string), '{', repeat($._variant_item), '}'),

    _item: ($) =>
      choice(
        $.game_declaration,
        $.players_declaration,
        $.seats_declaration,
        $.control_declaration,
        $.bottom_declaration,
        $.side_declaration,
        $.param_declaration,
        $.enum_declaration,
        $.card_declaration,
        $.deck_declaration,
        $.zone_declaration,
        $.var_declaration,
        $.define_declaration,
        $.procedure_declaration,
        $.play_declaration,
        $.result_declaration,
        $.show_declaration,
        $.solve_declaration,
        $.sheet_declaration,
        $.variant_declaration,
      ),

    game_declaration: ($) => seq('game', field('name', $.string)),
    players_declaration: ($) => seq('players', $.integer, optional(seq('..', $.integer, 'default', $.integer))),
    seats_declaration: ($) => seq('seats', commaSep1($.seat)),
    seat: ($) => seq(field('name', $.identifier), optional(field('display', $.string))),
    control_declaration: ($) => seq('seat', field('seat', $.identifier), 'played', 'by', field('by', $.identifier)),
    bottom_declaration: ($) => seq('seat', field('seat', $.identifier), 'at', 'bottom'),
    side_declaration: ($) =>
      seq(
        'side',
        field('name', $.identifier),
        optional(field('display', $.string)),
        '{',
        commaSep1(field('member', $.identifier)),
        '}',
      ),

    param_declaration: ($) =>
      seq(
        'param',
        field('name', $.identifier),
        ':',
        field('type', $.type),
        '=',
        field('default', $._literal),
        optional($.param_range),
        optional(field('description', $.string)),
      ),
    _literal: ($) => choice($.signed_integer, $.boolean, $.identifier),
    param_range: ($) => seq('in', $.signed_integer, '..', $.signed_integer),

    enum_declaration: ($) =>
      seq('enum', field('name', $.identifier), '{', commaSep1($.enum_member), optional(','), '}'),
    enum_member: ($) =>
      seq(field('name', $.identifier), optional($.payload), optional(field('display', $.string))),
    payload: ($) => seq('(', field('name', $.identifier), ':', field('type', $.type), ')'),

    card_declaration: ($) => seq('card', '{', repeat(choice($.card_name, $.card_field)), '}'),
    card_field: ($) =>
      seq(field('name', $.identifier), ':', field('type', $.type), optional(seq('=', field('value', $._expression)))),
    card_name: ($) => seq('name', $.template),

    deck_declaration: ($) => seq('deck', $.block),

    zone_declaration: ($) =>
      seq(
        'zone',
        field('name', $.identifier),
        optional($.owner),
        optional(field('display', $.string)),
        optional(seq('{', repeat($.zone_property), '}')),
      ),
    owner: (_) => seq('per', choice('seat', 'side')),
    zone_property: ($) => seq(choice('see', 'count'), ':', $.audience),
    audience: (_) => choice('everyone', 'owner', 'nobody'),

    var_declaration: ($) =>
      seq(
        'var',
        field('name', $.identifier),
        ':',
        field('type', $.type),
        optional($.owner),
        '=',
        field('value', $._expression),
        optional($.reset),
      ),
    reset: ($) => seq('reset', field('phase', $.identifier)),

    define_declaration: ($) =>
      seq(
        'define',
        field('name', $.identifier),
        $.parameters,
        ':',
        field('type', $.type),
        optional('memo'),
        '=',
        field('value', $._expression),
      ),
    procedure_declaration: ($) => seq('define', field('name', $.identifier), $.parameters, field('body', $.block)),
    parameters: ($) => seq('(', commaSep($.parameter), ')'),
    parameter: ($) => seq(field('name', $.identifier), ':', field('type', $.type)),

    play_declaration: ($) => seq('play', field('body', $.block)),
    result_declaration: ($) =>
      seq(
        'result',
        $.extreme,
        field('binder', $.identifier),
        'in',
        $._expression,
        'by',
        $._expression,
        repeat(seq('then', $._expression)),
      ),
    extreme: (_) => choice('highest', 'lowest'),
    solve_declaration: ($) =>
      seq('solve', field('phase', $.identifier), 'for', field('binder', $.identifier), 'in', $._expression, 'by', $._expression),
    show_declaration: ($) =>
      seq('show', optional(seq('for', $.binding)), $.template, optional(seq('when', $._expression))),
    sheet_declaration: ($) =>
      seq('sheet', field('phase', $.identifier), 'for', field('binder', $.identifier), 'in', $._expression, $.template),

    variant_declaration: ($) =>
      seq('variant', field('name', $.identifier), optional(field('description', $.string)), '{', repeat($._variant_item), '}'),
    _variant_item: ($) => choice($.set_item, $.replace_item),
    set_item: ($) => seq('set', field('name', $.identifier), '=', field('value', $._literal)),
    replace_item: ($) => seq('replace', 'phase', field('phase', $.identifier), field('body', $.block)),

    // ------------------------------------------------------------ types

    type: ($) => prec.right(seq(choice($.set_type, $.range_type, 'card', 'zone', $.identifier), optional('?'))),
    set_type: ($) => seq('set', 'of', $.type),
    range_type: ($) => seq($.signed_integer, '..', $.signed_integer),

    // ------------------------------------------------------------ statements

    block: ($) => seq('{', repeat($._statement), '}'),

    _statement: ($) =>
      choice(
        $.let_statement,
        $.if_statement,
        $.for_statement,
        $.repeat_statement,
        $.while_statement,
        $.phase_statement,
        $.choose_statement,
        $.simultaneous_statement,
        $.move_statement,
        $.shuffle_statement,
        $.deal_statement,
        $.say_statement,
        $.reveal_statement,
        $.redo_statement,
        $.end_statement,
        $.make_card_statement,
        $.call_statement,
        $.assign_statement,
      ),

    let_statement: ($) =>
      seq('let', field('name', $.identifier), optional(seq(':', field('type', $.type))), '=', $._rhs),
    call_statement: ($) => seq(field('function', $.identifier), $.arguments),
    assign_statement: ($) => seq($.place, choice('=', '+=', '-='), $._rhs),
    place: ($) => seq(field('name', $.identifier), optional(seq('[', $._expression, ']'))),
    _rhs: ($) => choice($.random_pick, $._expression),
    random_pick: ($) => seq('random', $.binding),

    if_statement: ($) =>
      seq('if', field('condition', $._expression), field('then', $.block), optional(seq('else', field('else', choice($.if_statement, $.block))))),
    for_statement: ($) => seq('for', commaSep1($.binding), field('body', $.block)),
    binding: ($) =>
      prec.right(
        seq(
          field('name', $.identifier),
          'in',
          field('domain', $._expression),
          optional(seq('from', field('start', $._expression))),
          optional($.filter),
        ),
      ),
    filter: ($) => prec.right(PREC.greedy, seq('where', $._expression)),
    repeat_statement: ($) => seq('repeat', choice(seq('until', $._expression), $._expression), field('body', $.block)),
    while_statement: ($) => seq('while', field('condition', $._expression), field('body', $.block)),
    phase_statement: ($) =>
      seq('phase', field('name', $.identifier), optional($.phase_title), field('body', $.block)),
    phase_title: ($) => seq($.string, optional(seq('of', $._expression))),

    choose_statement: ($) =>
      prec.right(
        seq(
          'choose',
          optional($.group),
          field('name', $.identifier),
          'from',
          commaSep1($._expression),
          optional($.menu),
          'by',
          field('by', $._expression),
          optional($.tiers),
          optional($.declare),
          optional($.label),
        ),
      ),
    group: ($) => choice('cards', seq($._expression, 'cards')),
    menu: ($) => seq('or', field('name', $.identifier), 'from', $._expression),
    tiers: ($) => prec.right(seq('where', $.tier, repeat(seq('else', $.tier)))),
    tier: ($) => prec.right(seq(choice('any', $._expression), optional(seq('then', $.block)))),
    declare: ($) => seq('declare', field('name', $.identifier), 'when', $._expression),
    label: ($) => seq('as', $.template),

    simultaneous_statement: ($) => seq('simultaneously', 'for', $.binding, field('body', $.block)),
    move_statement: ($) => seq('move', optional($.random_count), $._expression, 'to', $._expression),
    random_count: ($) => seq('random', $._expression, 'of'),
    shuffle_statement: ($) => seq('shuffle', $._expression),
    deal_statement: ($) =>
      seq(
        'deal',
        choice('all', seq($._expression, 'each')),
        'from',
        $._expression,
        'to',
        field('zone', $.identifier),
        optional(seq('starting', $._expression)),
      ),
    say_statement: ($) => seq('say', $.template),
    reveal_statement: ($) => seq('reveal', $._expression),
    redo_statement: ($) => seq('redo', field('phase', $.identifier)),
    end_statement: ($) => seq('end', field('phase', $.identifier)),
    make_card_statement: ($) => seq('card', '{', optional(seq(commaSep1($.field_initializer), optional(','))), '}'),
    field_initializer: ($) => seq(field('name', $.identifier), optional(seq(':', $._expression))),

    // ------------------------------------------------------------ expressions

    _expression: ($) =>
      choice(
        $.binary_expression,
        $.unary_expression,
        $.field_expression,
        $.index_expression,
        $.is_expression,
        $.parenthesized_expression,
        $.if_expression,
        $.case_expression,
        $.aggregate,
        $.pile_end,
        $.filter_cards,
        $.card_reference,
        $.list,
        $.call,
        $.boolean,
        $.none,
        $.integer,
        $.template,
        $.identifier,
        // `first` is an aggregate before a name, `first` and `last` take the end of a pile before
        // a number, a name or `(` and `of`, are built-in functions before `(`, else names.
        alias(choice('first', 'last'), $.identifier),
      ),

    binary_expression: ($) => {
      const operators = [
        ['..', PREC.range],
        ['or', PREC.or],
        ['and', PREC.and],
        ['in', PREC.in],
        [seq('not', 'in'), PREC.in],
        [choice('==', '!=', '<', '<=', '>', '>='), PREC.compare],
        [choice('+', '-'), PREC.add],
        [choice('*', '/', '%'), PREC.mul],
      ];
      return choice(
        ...operators.map(([operator, precedence]) =>
          prec.left(
            precedence,
            seq(field('left', $._expression), field('operator', operator), field('right', $._expression)),
          ),
        ),
      );
    },
    unary_expression: ($) => prec(PREC.unary, seq(field('operator', choice('-', 'not')), $._expression)),
    field_expression: ($) => prec(PREC.postfix, seq($._expression, '.', field('field', $.identifier))),
    index_expression: ($) => prec(PREC.postfix, seq($._expression, '[', $._expression, ']')),
    is_expression: ($) => prec(PREC.postfix, seq($._expression, 'is', field('member', $.identifier))),
    parenthesized_expression: ($) => seq('(', $._expression, ')'),
    if_expression: ($) =>
      prec.right(PREC.greedy, seq('if', $._expression, 'then', $._expression, 'else', $._expression)),
    case_expression: ($) =>
      seq('case', $._expression, '{', repeat($.case_arm), 'else', '=>', $._expression, '}'),
    case_arm: ($) => seq(commaSep1($._expression), '=>', $._expression),
    aggregate: ($) =>
      prec.right(
        PREC.greedy,
        seq(
          field('operator', $.aggregate_operator),
          field('binder', $.identifier),
          'in',
          field('domain', $._expression),
          optional($.filter),
          optional(seq(choice('of', 'by'), field('body', $._expression))),
        ),
      ),
    aggregate_operator: (_) =>
      choice('sum', 'max', 'min', 'count', 'exists', 'every', 'highest', 'lowest', 'first'),
    pile_end: ($) =>
      prec.right(
        seq(
          field('side', choice('first', 'last')),
          field('count', choice($.integer, $.identifier)),
          'of',
          field('pile', $.identifier),
          optional(seq('[', $._expression, ']')),
        ),
      ),
    filter_cards: ($) => seq('cards', field('binder', $.identifier), 'in', $._expression, $.filter),
    card_reference: ($) => seq('card', '(', commaSep1($.named_argument), ')'),
    list: ($) => seq('[', commaSep($._expression), ']'),
    // `count`, `max`, `min` and `first` are aggregates before a name, `first` and `last` the end of
    // a pile before a count, and all are built-in functions before `(`.
    // A name before `(` is called, as pest's ordered choice reads it (a `case` arm's value may end
    // with a name and the next arm start with `(`).
    call: ($) =>
      prec(
        PREC.postfix,
        seq(field('function', choice($.identifier, alias(choice('count', 'max', 'min', 'first', 'last'), $.identifier))), $.arguments),
      ),
    arguments: ($) => seq('(', commaSep(choice($.named_argument, $._expression)), ')'),
    named_argument: ($) => seq(field('name', $.identifier), ':', $._expression),
  },
});
