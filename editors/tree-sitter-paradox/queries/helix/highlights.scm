; Highlighting for the paradox rules language (Helix's capture names; `../highlights.scm`
; has Neovim's). No two patterns capture the same node, so their order does not matter (Neovim
; lets the last match win, Helix the first).

(comment) @comment

; ------------------------------------------------------------------ keywords

[
  "game" "players" "seats" "seat" "side" "param" "enum" "card" "deck" "zone" "var" "define"
  "play" "result" "show" "sheet" "solve" "variant" "scenario" "extends" "set" "replace"
  "default" "played" "at" "bottom" "per" "name" "see" "count" "of" "memo"
] @keyword

[ "if" "then" "else" "case" ] @keyword.control.conditional

[ "for" "repeat" "until" "while" "simultaneously" ] @keyword.control.repeat

[
  "phase" "redo" "end" "reset" "let" "choose" "from" "by" "where" "any" "declare" "when" "as"
  "move" "to" "random" "shuffle" "deal" "each" "all" "starting" "say" "reveal" "cards"
] @keyword

[ "and" "or" "not" "is" "in" ] @keyword.operator

(aggregate_operator) @keyword.operator
(pile_end side: _ @keyword.operator)
(extreme) @keyword.operator

; ------------------------------------------------------------------ literals

(string) @string
(template "\"" @string)
(string_content) @string
(plural_word) @string
(escape_sequence) @constant.character.escape
(interpolation [ "{" "}" ] @punctuation.special)
(plural "|" @punctuation.special)

(integer) @constant.numeric.integer
(signed_integer) @constant.numeric.integer
(boolean) @constant.builtin.boolean
(none) @constant.builtin
(audience) @constant.builtin

; ------------------------------------------------------------------ names, as declared

(seat name: (identifier) @constant)
(control_declaration seat: (identifier) @constant by: (identifier) @constant)
(bottom_declaration seat: (identifier) @constant)
(side_declaration name: (identifier) @constant)
(side_declaration member: (identifier) @constant)
(param_declaration name: (identifier) @constant)
(set_item name: (identifier) @constant)
(enum_declaration name: (identifier) @type)
(enum_member name: (identifier) @constant)
(payload name: (identifier) @variable.other.member)
(card_field name: (identifier) @variable.other.member)
(zone_declaration name: (identifier) @variable)
(var_declaration name: (identifier) @variable)
(define_declaration name: (identifier) @function)
(procedure_declaration name: (identifier) @function)
(parameter name: (identifier) @variable.parameter)
(variant_declaration name: (identifier) @namespace)

(phase_statement name: (identifier) @label)
(redo_statement phase: (identifier) @label)
(end_statement phase: (identifier) @label)
(reset phase: (identifier) @label)
(replace_item phase: (identifier) @label)
(solve_declaration phase: (identifier) @label)
(sheet_declaration phase: (identifier) @label)

; ------------------------------------------------------------------ names, as used

(type "card" @type.builtin)
((type (identifier) @type.builtin)
  (#any-of? @type.builtin "int" "bool" "seat" "side"))
((type (identifier) @type)
  (#not-any-of? @type "int" "bool" "seat" "side"))

((call function: (identifier) @function.builtin)
  (#any-of? @function.builtin
    "left" "right" "opposite" "next" "others" "side" "members" "holder" "player" "count" "first"
    "last" "ord" "abs" "max" "min"))
((call function: (identifier) @function)
  (#not-any-of? @function
    "left" "right" "opposite" "next" "others" "side" "members" "holder" "player" "count" "first"
    "last" "ord" "abs" "max" "min"))
(call_statement function: (identifier) @function)

(field_expression field: (identifier) @variable.other.member)
(named_argument name: (identifier) @variable.other.member)
(field_initializer name: (identifier) @variable.other.member)
(is_expression member: (identifier) @constant)

((identifier) @variable.builtin
  (#any-of? @variable.builtin "seats" "sides" "players"))

; ------------------------------------------------------------------ operators and punctuation

[ "=" "+=" "-=" ".." "==" "!=" "<" "<=" ">" ">=" "+" "-" "*" "/" "%" "=>" "?" ] @operator

[ "(" ")" "[" "]" ] @punctuation.bracket
(block [ "{" "}" ] @punctuation.bracket)
[ "," ":" "." ] @punctuation.delimiter
